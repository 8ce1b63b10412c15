"""What the command line reads is bounded: standard input, devices, named pipes, encodings, numbers.

Each hostile case runs ``python -m tokenizer`` in a subprocess with a hard CPU-time and address-space
limit (so a regression fails instead of taking the machine), and reads what the run really cost
(tests/bounded.py): exit code 2, one line, no traceback, and generous bounds on CPU and peak memory.
``count`` streams its input (tokenizer/chunked.py): the parts' ids are checked against the whole
text's for every tokenizer ``count`` offers, on generated text (hypothesis) and on the bench corpus.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cli.inputs import COUNT_HOLD_MAX_BYTES
from cli.lab import ENCODE_MAX_BYTES
from family import real
from tests import bounded
from tests.bounded import ENGINE_CPU_LIMIT_S, ENGINE_MEMORY_LIMIT, Bounded, bench_text
from tokenizer.chunked import TooLongWithoutCut, count_parts, cut_text, cuts_safely, encode_parts
from tokenizer.model import Tokenizer
from tokenizer.pretokenize import DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN, word_count
from tokenizer.textfile import MAX_INPUT_BYTES, PIPE_WAIT_S, iter_text
from tokenizer.train import train

ROOT = Path(__file__).resolve().parents[1]
PEAK_MB = 400  # resident memory any case here may reach (a run that holds its input grows past it)
CPU_S = 10


# -- running the command line under limits -----------------------------------------------------------------

def run_bounded(*args: str, stdin=None, feed=None, cwd: Path = ROOT, timeout: float = 60) -> Bounded:
    """``python -m tokenizer ARGS`` under the limits (tests/bounded.py); ``stdin`` is a path or a file
    descriptor, ``feed`` a function that writes to the child's standard input (a pipe). A run that outlives
    ``timeout`` is killed and fails the test (a regression that waits for ever must not hang the suite)."""
    if isinstance(stdin, str):
        stdin = Path(stdin)
    return bounded.run_python(["-m", "tokenizer", *args], stdin=stdin, feed=feed, cwd=cwd, timeout_s=timeout,
                              cpu_limit_s=ENGINE_CPU_LIMIT_S, memory_limit=ENGINE_MEMORY_LIMIT)


def assert_refused(run: Bounded, *needles: str) -> str:
    """Exit code 2, one line on stderr saying what, no traceback, nothing on stdout, within the bounds."""
    assert run.code == 2, run
    assert "Traceback" not in run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert run.out == ""
    assert run.cpu_s < CPU_S and run.peak_mb < PEAK_MB, run
    return lines[0]


def pump(total: int, block: bytes):
    """A ``feed`` writing ``total`` bytes made of ``block`` repeated; when ``block`` is UTF-8 text, the last
    piece stops at a character's end (a few bytes short of ``total``), so the stream stays valid text."""
    try:
        block.decode("utf-8")
        text = True
    except UnicodeDecodeError:
        text = False

    def feed(pipe) -> None:
        left = total
        big = block * max(1, (1 << 20) // len(block))
        while left > 0:
            piece = big[:left]
            if text and len(piece) < len(big):
                piece = piece.decode("utf-8", "ignore").encode("utf-8")  # drop a character cut at the end
                left = len(piece)
            pipe.write(piece)
            left -= len(piece)
    return feed


# -- standard input -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_standard_input_is_refused_at_once(device):
    for args in (["count", "-"], ["encode", "m.json", "-"], ["train", "-", "--merges", "3", "-o", "/dev/null"]):
        run = run_bounded(*args, stdin=device, cwd=ROOT)
        if args[0] == "encode":  # the model is read first: a missing one is its own message
            assert_refused(run, "m.json")
            continue
        assert_refused(run, f"standard input is {device}, a device, not a file")
        assert run.cpu_s < 3


def test_a_terminal_as_standard_input_is_refused_not_waited_on():
    main, terminal = pty.openpty()
    try:
        for args in (["count", "-"], ["train", "-", "--merges", "3", "-o", "/dev/null"]):
            run = run_bounded(*args, stdin=terminal, timeout=30)
            assert_refused(run, "standard input is a terminal, which would wait for typing: pipe a text file in")
    finally:
        os.close(main)
        os.close(terminal)


@pytest.mark.parametrize("source", ["zeros", "random bytes"])
def test_an_endless_looking_pipe_is_refused_at_its_first_bad_byte(source):
    block = b"\x00" * 4096 if source == "zeros" else os.urandom(1 << 16)
    run = run_bounded("count", "-", feed=pump(200_000_000, block))
    assert_refused(run, "standard input")
    assert "looks binary" in run.err or "not valid UTF-8" in run.err
    assert run.cpu_s < 5


def _count_pipe(total: int) -> Bounded:
    return run_bounded("count", "-t", "o200k_base", "-", feed=pump(total, bench_text().encode("utf-8")), timeout=120)


def test_count_streams_a_large_pipe_in_the_memory_of_a_small_one():
    """20 MB, not 150 (150 MB takes about 11 s of CPU here; bench/bench_count_stream.py measures it):
    holding 20 MB of this text and its ids would cost about 200 MB more than 1 MB does."""
    small, large = _count_pipe(1_000_000), _count_pipe(20_000_000)
    for run in (small, large):
        assert run.code == 0 and "Traceback" not in run.err, run.err
    assert "20,000,000 bytes" in large.out
    tokens = [int(line.split()[1]) for line in (small.out.splitlines()[1], large.out.splitlines()[1])]
    assert 19 * tokens[0] < tokens[1] < 21 * tokens[0]
    assert large.peak_mb < small.peak_mb + 40, (small, large)
    assert large.cpu_s < 20


def _hundred_mb_and_one(pipe) -> None:
    pump(MAX_INPUT_BYTES + 1, b"chai pani ")(pipe)


def test_train_refuses_standard_input_past_100_mb_and_encode_past_1_mb(tmp_path):
    model = tmp_path / "m.json"
    from tokenizer import io as model_io

    model_io.save(train("chai pani chai", 2).tokenizer, model)
    run = run_bounded("train", "-", "--merges", "3", "-o", str(tmp_path / "out.json"), feed=_hundred_mb_and_one,
                      cwd=tmp_path)
    assert_refused(run, "standard input is larger than 100 MB, the most the lab reads from one file")
    assert not (tmp_path / "out.json").exists()
    # encode builds and prints every token (about 140 bytes of memory a byte of text): it stops at 1 MB.
    for total in (MAX_INPUT_BYTES + 1, ENCODE_MAX_BYTES + 1):
        run = run_bounded("encode", str(model), "-", feed=pump(total, b"chai pani "), cwd=tmp_path)
        assert_refused(run, "standard input is larger than 1 MB, the most encode shows token by token: use count -")
    run = run_bounded("encode", str(model), "-", feed=pump(ENCODE_MAX_BYTES, b"chai pani "), cwd=tmp_path)
    tokens = model_io.load(model).count("chai pani " * (ENCODE_MAX_BYTES // 10))
    assert run.code == 0 and run.out.startswith(f"{tokens:,} tokens: "), run.err
    assert run.cpu_s < CPU_S and run.peak_mb < PEAK_MB, run


def test_train_and_encode_read_standard_input(tmp_path):
    run = run_bounded("train", "-", "--merges", "3", "-o", "m.json", cwd=tmp_path, feed=lambda p: p.write(b"chai pani chai\n"))
    assert run.code == 0 and "learned 3 merges" in run.out, run
    run = run_bounded("encode", "m.json", "-", cwd=tmp_path, feed=lambda p: p.write("चाय\n".encode()))
    assert run.code == 0, run  # the model has no merge for these bytes: each byte is a token
    assert run.out.splitlines()[-1].split()[1:] == [str(b) for b in "चाय\n".encode()], run


def test_count_with_a_model_of_its_own_pattern_holds_the_text_up_to_10_mb(tmp_path):
    from tokenizer import io as model_io

    model_io.save(train("chai pani chai", 2, pattern=r"\w+|\W+").tokenizer, tmp_path / "own.json")
    run = run_bounded("count", "-t", "own.json", "-", cwd=tmp_path, feed=pump(COUNT_HOLD_MAX_BYTES + 1, b"chai pani "))
    assert_refused(run, "standard input is larger than 10 MB, the most count holds whole for a model with a "
                        "pre-split pattern of its own")


def test_a_line_of_10_mb_with_nowhere_to_cut_is_refused():
    run = run_bounded("count", "-t", "o200k_base", "-", feed=pump(12_000_000, b"x"))
    assert_refused(run, "standard input has more than 10 MB with no line break and no space between two words")


# -- named pipes, numbers, encodings ------------------------------------------------------------------------

def test_a_named_pipe_nothing_writes_to_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    runs = {}

    def go(name, *args):
        runs[name] = run_bounded(*args, cwd=tmp_path, timeout=PIPE_WAIT_S + 25)

    threads = [threading.Thread(target=go, args=("corpus", "train", "pipe", "--merges", "3", "-o", "m.json")),
               threading.Thread(target=go, args=("model", "count", "-t", "pipe", "chai"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert_refused(runs["corpus"], f"the corpus pipe is a named pipe that nothing wrote to in {PIPE_WAIT_S:g} s")
    assert_refused(runs["model"], "is a named pipe that nothing wrote to", "start the program that writes")
    assert not (tmp_path / "m.json").exists()


def test_a_named_pipe_with_a_writer_is_read(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(b"chai pani chai\n" * 100)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    run = run_bounded("train", "pipe", "--merges", "3", "-o", "m.json", cwd=tmp_path, timeout=30)
    writer.join(timeout=5)
    assert run.code == 0 and "learned 3 merges" in run.out, run


@pytest.mark.parametrize("value", ["٣", "३", "３", "1_000", " 3", "3.0"])
def test_merges_takes_only_the_digits_0_to_9(tmp_path, value):
    (tmp_path / "c.txt").write_text("chai pani chai", encoding="utf-8")
    run = run_bounded("train", "c.txt", "--merges", value, "-o", "m.json", cwd=tmp_path)
    assert_refused(run, "--merges needs a whole number written with the digits 0-9")
    assert not (tmp_path / "m.json").exists()


TEXT = "घने कोहरे से chai pani\n"


@pytest.mark.parametrize(
    ("encoding", "named", "iconv"),
    [
        ("utf-16", "UTF-16 (little-endian)", "iconv -f UTF-16 -t UTF-8"),  # with a byte-order mark
        ("utf-16-le", "UTF-16 (little-endian)", "iconv -f UTF-16LE -t UTF-8"),
        ("utf-16-be", "UTF-16 (big-endian)", "iconv -f UTF-16BE -t UTF-8"),
        ("utf-32", "UTF-32 (little-endian)", "iconv -f UTF-32 -t UTF-8"),
    ],
)
def test_utf16_and_utf32_input_is_named_with_how_to_convert(tmp_path, encoding, named, iconv):
    data = TEXT.encode(encoding)
    assert_refused(run_bounded("count", "-", feed=lambda p: p.write(data)), f"standard input is {named}, not UTF-8", iconv)
    (tmp_path / "c.txt").write_bytes(data)
    assert_refused(run_bounded("train", "c.txt", "--merges", "3", "-o", "m.json", cwd=tmp_path),
                   f"the corpus c.txt is {named}, not UTF-8", iconv)
    from tokenizer import io as model_io

    model_io.save(train("chai pani chai", 2).tokenizer, tmp_path / "m8.json")
    (tmp_path / "m.json").write_bytes((tmp_path / "m8.json").read_text(encoding="utf-8").encode(encoding))
    assert_refused(run_bounded("encode", "m.json", "chai", cwd=tmp_path), f"is {named}, not UTF-8", iconv)


# -- the streaming itself: parts give the whole text's ids ---------------------------------------------------

def _lab_models() -> list[Tokenizer]:
    corpus = (bench_text()[:30_000] + " it's 12,345 chai/pani!\r\n  x\n\n y ") * 2
    models = [train(corpus, 60, pattern=p).tokenizer for p in (DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN)]
    models.append(train(corpus, 60, split="whitespace", end_of_word="</w>").tokenizer)
    models.append(train(corpus, 60, unit="chars").tokenizer)
    return models


_TOKENIZERS: list = []


def tokenizers() -> list:
    if not _TOKENIZERS:
        _TOKENIZERS.extend(real.load(name) for name in real.NAMES)
        _TOKENIZERS.extend(_lab_models())
        assert all(cuts_safely(tok) for tok in _TOKENIZERS)
    return _TOKENIZERS


# Characters chosen around the cut rule: letters of several scripts, marks, digits, every kind of space and
# line end, the punctuation the patterns treat apart (' / !) and JSON's, SentencePiece's ▁, and what NFC composes.
ALPHABET = list("abXY zé\u0301ञि्\u093f中ﾟ가\u1161\u11a8'/!.,-_09٣\n\r\t\u00a0\u2028\u0085\x1c\u3000▁\ufeff😀{}\":[]\\")
texts = st.lists(st.sampled_from(ALPHABET + ["it's", "chai pani", "\n\n", "  ", " \n", "ab cd", "x\nY",
                                             '{"text":"ok"}\n', '"}\n{"', "}\n/", ".\n'", "!\n\"", "9\n["]),
                 max_size=120).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, cuts=st.lists(st.integers(0, 200), max_size=6), target=st.integers(1, 40))
@example(text="ab  \ncd ef\nGh", cuts=[3, 5], target=1)
@example(text="a!\n/b x\u0301\nY ▁z", cuts=[], target=1)
@example(text='{"a":"b"}\n/x\n{"c":1}\n\'s\n"q"\n9\n▁', cuts=[], target=1)
def test_parts_give_the_whole_texts_ids_for_every_tokenizer(text, cuts, target):
    fragments = [text[a:b] for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), len(text) + 1])]
    parts = list(cut_text(fragments, target=target))
    assert "".join(parts) == text
    for tok in tokenizers():
        joined = [i for ids in encode_parts(tok.encode, parts) for i in ids]
        assert joined == list(tok.encode(text)), (tok.name, parts)


@pytest.mark.parametrize("corpus", ["corpus_1mb.txt", "corpus_100kb.txt"])
def test_parts_give_the_whole_texts_ids_on_the_bench_corpus(corpus):
    """The production tokenizers on the 1 MB file, the lab's (slower, in Python) on the 100 KB one."""
    text = bench_text(corpus)
    size = len(text) // 25
    fragments = [text[i:i + size // 2 + 1] for i in range(0, len(text), size // 2 + 1)]
    parts = list(cut_text(fragments, target=size))
    assert len(parts) > 15 and "".join(parts) == text
    lab = corpus == "corpus_100kb.txt"
    for tok in tokenizers():
        if isinstance(tok, Tokenizer) != lab:
            continue
        counted = count_parts([tok], parts, keep_ids=True)
        assert list(counted.ids[0]) == list(tok.encode(text)), tok.name
        assert counted.words == word_count(text) and counted.characters == len(text)


def test_a_jsonl_of_short_records_has_a_cut_place_at_every_line_end():
    """A line that starts with a visible character other than '/' (a JSONL record's '{') can be counted apart from
    the line before it: compact JSON has no space between two letters, so a JSONL file had no cut place at all and
    count --file refused one past 10 MB ("break it into lines")."""
    text = '{"text":"ok"}\n' * 1000
    parts = list(cut_text([text[i:i + 50] for i in range(0, len(text), 50)], target=100, most=1000))
    assert len(parts) > 100 and "".join(parts) == text and all(part.startswith("{") for part in parts)
    assert list(cut_text(["x}\n/y"], target=1)) == ["x}\n/y"]  # GPT-4o's '}\n/' is one piece: no cut before '/'


def test_a_text_with_nowhere_to_cut_is_refused_not_held():
    with pytest.raises(TooLongWithoutCut, match="more than 0 MB with no line break"):
        list(cut_text(["x" * 100] * 10, target=50, most=500))


def test_json_ids_are_held_up_to_a_bound():
    tok = real.load("o200k_base")
    with pytest.raises(ValueError, match="--json lists every token id, and this text has more than 10 tokens"):
        count_parts([tok], ["chai pani " * 10], keep_ids=True, most_ids=10)
    assert count_parts([tok], ["chai pani " * 10], keep_ids=False, most_ids=10).tokens == [tok.count("chai pani " * 10)]


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), size=st.integers(1, 9), bom=st.booleans())
def test_utf8_is_decoded_across_any_cut_between_reads(text, size, bom):
    text = text.replace("\x00", "")
    data = ("\ufeff" if bom else "").encode() + text.encode("utf-8", "surrogatepass")
    try:
        expected = data.decode("utf-8-sig")  # a byte-order mark at the start is not text
    except UnicodeDecodeError:
        with pytest.raises(ValueError, match="not valid UTF-8"):
            "".join(iter_text(io.BytesIO(data), chunk=size))
        return
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return
    try:
        got = "".join(iter_text(io.BytesIO(data), chunk=size))
    except ValueError as exc:  # text that looks like UTF-16 by its NULs: nothing else may be refused
        assert "UTF-16" in str(exc) or "UTF-32" in str(exc), exc
        return
    assert got == expected


def test_an_invalid_byte_is_placed_at_its_offset_across_reads():
    data = "चाय ".encode() * 3000 + b"\xff" + b"x" * 10
    with pytest.raises(ValueError, match="the byte 0xFF at offset 30,000 cannot start a character"):
        "".join(iter_text(io.BytesIO(data), chunk=4097))
    with pytest.raises(ValueError, match="the byte 0xE0 at offset 30,000 starts a character"):
        "".join(iter_text(io.BytesIO("चाय ".encode() * 3000 + "च".encode()[:2]), chunk=4097))


def test_count_json_is_written_as_json_dumps_writes_it(capsys):
    import cli

    text = "घने कोहरे से\nThick fog " * 3
    assert cli.main(["count", "--json", "-t", "o200k_base", "-t", "cl100k_base", text]) == 0
    expected = {"results": [{"tokenizer": name, "tokens": len(ids), "ids": ids}
                            for name in ("o200k_base", "cl100k_base") for ids in [real.load(name).encode(text)]]}
    assert capsys.readouterr().out == json.dumps(expected) + "\n"


# -- count --file: the same streaming, from a file, on every core that helps ----------------------------------

def _bench_file(path: Path, megabytes: int) -> str:
    """The bench corpus repeated to about ``megabytes`` MB in ``path``; returns the text."""
    corpus = bench_text()
    text = corpus * megabytes
    path.write_text(text, encoding="utf-8")
    return text


def test_count_file_streams_a_large_file_in_the_memory_of_a_small_one(tmp_path):
    """20 MB under the same limits as the pipes above (bench/bench_count_stream.py measures 200 MB: its peak is
    the README's figure); the count is the whole text's, encoded at once."""
    big = _bench_file(tmp_path / "big.txt", 20)
    _bench_file(tmp_path / "small.txt", 1)
    small_run = run_bounded("count", "-t", "o200k_base", "--file", "small.txt", cwd=tmp_path)
    large_run = run_bounded("count", "-t", "o200k_base", "--file", "big.txt", cwd=tmp_path, timeout=120)
    for run in (small_run, large_run):
        assert run.code == 0 and run.err == "", run.err  # no progress bar: standard error is not a terminal
    expected = real.load("o200k_base").count(big)
    assert large_run.out.splitlines()[1].split()[:2] == ["o200k_base", str(expected)], large_run.out
    assert f"{len(big.encode()):,} bytes" in large_run.out
    assert large_run.peak_mb < small_run.peak_mb + 40, (small_run, large_run)
    assert large_run.peak_mb < 300 and large_run.cpu_s < 20, large_run


# Blocks that make the cut rule work hard, joined into texts longer than a part: every kind of run the
# pre-splits treat apart (spaces, newlines, CRLF, digits, punctuation), long lines, and none at all.
ADVERSARIAL = {
    "spaces and newlines": "a" + " " * 3000 + "b\n\n\n   \n c" + "\n" * 2000 + "d  e\n \n",
    "digits": "1234567890" * 300 + " 12 345 6789\n2026\n",
    "crlf": "line one\r\nLine two\r\n\r\n  x\r\ny\r\n" * 20,
    "no whitespace": "घनेकोहरेसे" * 500 + "abc" * 700,
    "long lines": ("word " * 20_000 + "\n") + ("शब्द " * 15_000) + "\n",
    "punctuation": "it's 'quoted' /path/to!!  ...\n\t\t--\n" * 50,
}


@pytest.mark.parametrize("kind", list(ADVERSARIAL))
def test_count_file_gives_the_whole_texts_count_on_adversarial_text(tmp_path, capsys, kind):
    import cli

    block = ADVERSARIAL[kind]
    text = (block * (3 * (1 << 18) // len(block) + 2))  # three parts or more
    if kind == "no whitespace":
        text = block * 50  # no place to cut at all: held whole as one part (10 MB at most)
    (tmp_path / "t.txt").write_bytes(text.encode("utf-8"))
    names = list(real.NAMES)
    assert cli.main(["count", "--json", *(a for n in names for a in ("-t", n)), "--file", str(tmp_path / "t.txt")]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["results"] == [{"tokenizer": n, "tokens": real.load(n).count(text)} for n in names]
    assert got["bytes"] == len(text.encode()) and got["characters"] == len(text)


#: The longest part the threads' property below asks for. Its blocks are ADVERSARIAL's, but for the long lines: two
#: lines of 6,000 characters, each still longer than any part asked for. Whole (175,000 characters) that block made
#: most texts 175-540 thousand characters, encoded by 13 tokenizers twice: most of the test's 22 s, for no cut place
#: the shorter lines lack.
MOST_TARGET = 3000
SHORT_BLOCKS = {**ADVERSARIAL, "long lines": ("word " * 1_200 + "\n") + ("शब्द " * 1_200) + "\n"}


def adversarial_texts():
    blocks = st.sampled_from([*SHORT_BLOCKS.values(), " ", "\n", "\r\n", "  \n", "0", "12", "x", "Y z", "चाय "])
    return st.lists(st.tuples(blocks, st.integers(1, 40)), min_size=1, max_size=12).map(
        lambda pieces: "".join(block[: max(1, len(block) // size)] * size for block, size in pieces))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=adversarial_texts(), target=st.integers(1, MOST_TARGET), workers=st.integers(2, 4))
def test_parts_counted_by_several_threads_give_the_whole_texts_ids(text, target, workers):
    fragments = [text[i:i + 997] for i in range(0, len(text), 997)]
    for tok in tokenizers()[: len(real.NAMES)]:  # the production ones: the CLI uses threads only for them
        counted = count_parts([tok], cut_text(fragments, target=target), keep_ids=True, workers=workers)
        assert list(counted.ids[0]) == list(tok.encode(text)), tok.name
        assert counted.words == word_count(text) and counted.characters == len(text)


def test_several_threads_only_for_production_tokenizers():
    from tokenizer.chunked import workers_for

    assert workers_for([real.load("o200k_base")]) == min(len(os.sched_getaffinity(0)), 8)
    assert workers_for([real.load("o200k_base"), _lab_models()[0]]) == 1


def test_count_files_counts_each_as_its_own_text(tmp_path, capsys):
    import cli

    (tmp_path / "a.txt").write_text("घने कोहरे से", encoding="utf-8")
    (tmp_path / "b.txt").write_text("chai pani\n", encoding="utf-8")
    assert cli.main(["count", "-t", "o200k_base", "--file", str(tmp_path / "a.txt"), "--file", str(tmp_path / "b.txt")]) == 0
    out = capsys.readouterr().out
    tok = real.load("o200k_base")
    each = [tok.count("घने कोहरे से"), tok.count("chai pani\n")]
    assert out.splitlines()[1].split()[:2] == ["o200k_base", str(sum(each))]
    assert [line.split()[-1] for line in out.splitlines()[-2:]] == [str(n) for n in each]


def _write_bad(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Each bad file (a name to give --file) and what its one line must say."""
    (tmp_path / "dir").mkdir()
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "latin1.txt").write_bytes(b"chai pani " * 500 + "café".encode("latin-1"))
    (tmp_path / "utf16.txt").write_bytes("घने कोहरे से chai\n".encode("utf-16"))
    (tmp_path / "binary.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + os.urandom(3000))
    return {
        "missing.txt": ("missing.txt", "file not found: missing.txt"),
        "dir": ("dir", "the file dir is a directory"),
        "/dev/zero": ("/dev/zero", "the file /dev/zero is a device, not a file"),
        "empty.txt": ("empty.txt", "the file empty.txt is empty"),
        "latin1.txt": ("latin1.txt", "the file latin1.txt is not valid UTF-8: the byte 0xE9 at offset 5,003"),
        "utf16.txt": ("utf16.txt", "the file utf16.txt is UTF-16 (little-endian), not UTF-8"),
        "binary.bin": ("binary.bin", "the file binary.bin looks binary"),
    }


def test_bad_files_are_refused_in_one_line_before_any_output(tmp_path):
    (tmp_path / "good.txt").write_text("chai pani " * 1000, encoding="utf-8")
    for name, (path, says) in _write_bad(tmp_path).items():
        # the good file first: its count is never printed, the bad one after it is refused
        run = run_bounded("count", "--file", "good.txt", "--file", path, cwd=tmp_path, timeout=30)
        assert_refused(run, says)
        assert run.cpu_s < 5, (name, run)


def test_the_progress_bar_shows_on_a_terminal_only(tmp_path):
    import fcntl
    import struct
    import subprocess
    import sys
    import termios

    _bench_file(tmp_path / "t.txt", 2)
    main, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal has a size
    shown = bytearray()

    def read_terminal() -> None:  # while the child runs: Linux drops what is unread once the terminal closes
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:  # the child's end is closed
                return
            if not data:
                return
            shown.extend(data)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    try:
        env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
        run = subprocess.run([sys.executable, "-m", "tokenizer", "count", "--file", "t.txt"], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=terminal, timeout=60, check=False)
    finally:
        os.close(terminal)
        reader.join(timeout=10)
        os.close(main)
    assert run.returncode == 0
    # tqdm draws the bar at once, then as it moves (the last drawing may be short of 100%: it is cleared at the end)
    assert re.search(rb"counting: +\d+%\|.*\| [\d.]+M?/2\.\d+M", bytes(shown)), bytes(shown[-500:])
    assert b"counting" not in run.stdout and run.stdout.startswith(b"tokenizer")


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from(list("ab \r\n\u2028\x0c\x85é")), max_size=80), cuts=st.lists(st.integers(0, 80), max_size=6),
       most=st.integers(1, 12))
def test_lines_are_a_files_lines_across_any_cut(text, cuts, most):
    """``count --lines`` reads lines as a file opened with newline="" does (\\n, \\r\\n, a bare \\r), whatever
    the reads cut; a line longer than ``most`` comes in pieces that join back into it."""
    from tokenizer.chunked import iter_lines

    fragments = [text[a:b] for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), len(text) + 1])]
    assert list(iter_lines(fragments, most=1000)) == io.StringIO(text, newline="").readlines()
    pieces = list(iter_lines(fragments, most=most))
    assert "".join(pieces) == text and all(len(piece) <= most for piece in pieces)


def test_count_lines_streams_a_large_jsonl_file_in_bounded_memory(tmp_path):
    """20 MB of JSONL chats (about 60,000 records): the statistics hold 4 bytes a record, the records one batch
    a thread; the count is each record's, added up."""
    corpus = bench_text().splitlines()
    records = [json.dumps({"messages": [{"role": "user", "content": line}]}, ensure_ascii=False)
               for line in corpus if line.strip()]
    with open(tmp_path / "chats.jsonl", "w", encoding="utf-8") as out:
        written = 0
        while written < 20_000_000:
            block = "\n".join(records) + "\n"
            out.write(block)
            written += len(block.encode())
    run = run_bounded("count", "--model", "gpt-4o", "--file", "chats.jsonl", "--lines", "--json", cwd=tmp_path,
                      timeout=180)
    assert run.code == 0 and "Traceback" not in run.err, run.err
    row = json.loads(run.out)["results"][0]
    copies = written // len(("\n".join(records) + "\n").encode())
    assert row["records"] == copies * len(records)
    assert run.peak_mb < 300 and run.cpu_s < 60, run


SPACES = [chr(c) for c in range(0x110000) if chr(c).isspace()]


@settings(max_examples=400, deadline=None)
@given(text=st.text(st.one_of(st.sampled_from(SPACES), st.sampled_from(list("ab’–चा\u0301\ud800😀")),
                              st.characters()), max_size=60))
def test_words_are_counted_as_split_counts_them(text):
    """``count`` adds up each part's words without building them (in UTF-8 bytes): always ``len(text.split())``,
    every white-space character of Unicode included (U+2028, U+3000, \\x1c ...)."""
    from tokenizer.chunked import words_in

    assert SPACES == ["\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0", "\u1680",
                      *(chr(c) for c in range(0x2000, 0x200B)), "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
    assert words_in(text) == word_count(text)


def test_count_lines_skips_a_huge_line_in_linear_time_and_bounded_memory(tmp_path):
    """A JSONL file whose middle line is 30 MB (and a text file that is one 30 MB line): the line is a problem
    named by its number, the others are counted; the line is never held whole, nor searched again and again."""
    with open(tmp_path / "big.jsonl", "w", encoding="utf-8") as out:
        out.write('{"text": "chai pani"}\n{"text": "' + "चाय " * 7_500_000 + '"}\n{"text": "bye"}\n')
    run = run_bounded("count", "-t", "o200k_base", "--file", "big.jsonl", "--lines", "--json", cwd=tmp_path, timeout=60)
    assert run.code == 0 and "Traceback" not in run.err, run.err
    data = json.loads(run.out)
    assert data["results"][0]["records"] == 2 and data["results"][0]["tokens"] == real.load("o200k_base").count(
        "chai pani") + real.load("o200k_base").count("bye")
    assert data["problems"] == [{"file": None, "line": 2,
                                 "reason": "the line is longer than 1,000,000 characters (skipped)"}]
    assert run.cpu_s < CPU_S and run.peak_mb < 300, run
    # A file that is one 30 MB line has no record to count: one line and exit 2 (it was a table of zeros, exit 0).
    (tmp_path / "one.txt").write_text("x" * 30_000_000, encoding="utf-8")
    run = run_bounded("count", "-t", "o200k_base", "--file", "one.txt", "--lines", cwd=tmp_path, timeout=60)
    assert_refused(run, "no record could be counted", "line 1: the line is longer than 1,000,000 characters")
    assert run.cpu_s < CPU_S and run.peak_mb < 300, run
