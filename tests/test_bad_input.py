"""Bad input, as a person at the command line meets it: one line on stderr, exit code 2, no
traceback, and none of their files lost. Each group closes a whole class of input, not one case.

Most command-line cases call ``cli.main`` in this process (anything but a clean exit would
raise here); those that need real argv bytes or devices run ``python -m tokenizer``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli_helpers import assert_one_line_error, run_cli
from tests.cli_helpers import cli_process as run_process
from tokenizer import PatternTimeout, Tokenizer, TrainConfig, pretokenize, split_text, train
from tokenizer import io as model_io
from tokenizer.textfile import MAX_INPUT_BYTES, decode_text, iter_text, read_limited, same_regular_file, write_files

from .test_properties import SPLIT_PATTERNS

ROOT = Path(__file__).resolve().parents[1]
SLOW_PATTERN = r"(a|aa)+$"  # backtracks exponentially on a run of a's that does not end the text
SLOW_TEXT = "a" * 40 + "b"






def cli_process(*args, cwd: Path) -> subprocess.CompletedProcess:
    return run_process(*args, cwd=cwd, text=False)


@pytest.fixture
def short_timeout(monkeypatch):
    monkeypatch.setattr(pretokenize, "PATTERN_TIMEOUT_S", 0.2)


@pytest.fixture
def model_file(tmp_path) -> Path:
    path = tmp_path / "m.json"
    model_io.save(train("chai chai chaiwala", 3).tokenizer, path)
    return path


# -- a pre-split pattern that backtracks ------------------------------------------------------


def test_a_slow_pattern_raises_its_own_error(short_timeout):
    with pytest.raises(PatternTimeout, match="backtracks too much") as info:
        split_text(SLOW_TEXT, "regex", SLOW_PATTERN)
    assert isinstance(info.value, ValueError)  # every caller that reports bad input still reports it
    assert info.value.pattern == SLOW_PATTERN
    with pytest.raises(PatternTimeout):
        train("chai " + SLOW_TEXT, 3, pattern=SLOW_PATTERN)
    tok = Tokenizer(TrainConfig(pattern=SLOW_PATTERN), [])
    with pytest.raises(PatternTimeout):
        tok.encode(SLOW_TEXT)


class MeteredBudget(pretokenize.SplitBudget):
    """A split budget whose clock is the text, not the machine: splitting costs exactly ``per_char`` CPU seconds a
    character. ``_split_by_matches`` asks :meth:`allowed` how far it has got before it reads :meth:`spent`, so
    the time "spent" is the characters split so far times ``per_char``, whatever the machine's speed or load."""

    def __init__(self, per_char: float) -> None:
        super().__init__()
        self.per_char = per_char
        self.at = 0  # characters of this text split so far, as last reported to allowed()

    def allowed(self, chars: int) -> float:
        self.at = chars
        return super().allowed(chars)

    def spent(self) -> float:
        return self.per_char * (self.done + self.at)


LONG_TEXT = "Mera order 20 minute late hai, refund chahiye! घने कोहरे से।\n" * 8000  # 480,000 characters


def test_a_long_text_is_not_a_slow_pattern():
    """The time budget grows with the text: a text that takes longer than the floor to split, but less than the
    allowance per character, is split to the end. Proven on a metered clock (no race with the machine's speed):
    at half the allowance a character, the whole text costs more than the floor and is split all the same."""
    per_char = pretokenize.SPLIT_S_PER_CHAR / 2
    assert per_char * len(LONG_TEXT) > pretokenize.PATTERN_TIMEOUT_S  # longer than a short text may take
    compiled = pretokenize.compile_pattern(pretokenize.GPT2_PATTERN)
    want = split_text(LONG_TEXT, "regex", pretokenize.GPT2_PATTERN)
    budget = MeteredBudget(per_char)
    # A round ends every 1,000 pieces: the budget is asked about 100 times on the way, not once at the end.
    assert pretokenize._split_by_matches(LONG_TEXT, compiled, pretokenize.GPT2_PATTERN, restart_every=1000,
                                         budget=budget) == want
    assert budget.at > len(LONG_TEXT) - 100  # it was asked near the end too
    assert split_text(LONG_TEXT, "regex", pretokenize.GPT2_PATTERN, budget=MeteredBudget(per_char)) == want


def test_a_pattern_slower_than_the_allowance_is_stopped_where_the_budget_runs_out():
    """The other side of the same budget: at twice the allowance a character, spending overtakes the budget
    (floor + allowance x characters) once floor / allowance characters are split, and the split stops there,
    saying how far it got. Counted on the metered clock, so the point does not depend on the machine."""
    per_char = pretokenize.SPLIT_S_PER_CHAR * 2
    compiled = pretokenize.compile_pattern(pretokenize.GPT2_PATTERN)
    with pytest.raises(PatternTimeout, match="for the first") as info:
        pretokenize._split_by_matches(LONG_TEXT, compiled, pretokenize.GPT2_PATTERN, restart_every=1000,
                                      budget=MeteredBudget(per_char))
    overtaken = pretokenize.PATTERN_TIMEOUT_S / (per_char - pretokenize.SPLIT_S_PER_CHAR)  # 200,000 characters
    assert overtaken < info.value.chars < overtaken + 1000 * 60  # within a round (1,000 pieces) of that point


@pytest.mark.parametrize("pattern", SPLIT_PATTERNS)
@settings(max_examples=30, deadline=None)
@given(text=st.text(alphabet="aAbB x\n", max_size=14), every=st.integers(1, 3))
def test_restarting_the_search_finds_the_same_pieces(pattern, text, every):
    """What the split does after its time limit: start again after the last piece. Same pieces."""
    compiled = pretokenize.compile_pattern(pattern)
    assert pretokenize._split_by_matches(text, compiled, pattern, restart_every=every) == split_text(text, "regex", pattern)


def test_cli_encode_with_a_slow_pattern_is_one_line(short_timeout, tmp_path, capsys):
    path = tmp_path / "slow.json"
    model_io.save(Tokenizer(TrainConfig(pattern=SLOW_PATTERN), []), path)
    code, out, err = run_cli(capsys, "encode", path, SLOW_TEXT)
    assert_one_line_error(code, err, "backtracks too much", "cannot encode this text")
    assert out == ""


def test_cli_train_with_a_slow_pattern_is_one_line(short_timeout, tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("chai " + SLOW_TEXT, encoding="utf-8")
    code, _, err = run_cli(capsys, "train", corpus, "--merges", "3", "--pattern", SLOW_PATTERN, "-o", tmp_path / "m.json")
    assert_one_line_error(code, err, "backtracks too much")
    assert not (tmp_path / "m.json").exists()


# -- text on the command line that is not UTF-8 --------------------------------------------------


def test_cli_text_that_is_not_utf8_is_one_line(model_file):
    done = cli_process("encode", model_file.name, b"chai \xff", cwd=model_file.parent)
    err = done.stderr.decode("utf-8")
    assert_one_line_error(done.returncode, err, "not valid UTF-8", "0xFF", "offset 5")
    assert done.stdout == b""


@pytest.mark.parametrize(("flag", "value"), [("--pattern", b"\xff|\\S+"), ("--end-of-word", b"</\xe0>")])
def test_cli_train_settings_that_are_not_utf8_are_one_line(tmp_path, flag, value):
    (tmp_path / "c.txt").write_text("chai chai", encoding="utf-8")
    done = cli_process("train", "c.txt", "--merges", "2", flag, value, "-o", "m.json", cwd=tmp_path)
    assert_one_line_error(done.returncode, done.stderr.decode("utf-8"), f"{flag} is not valid UTF-8")
    assert not (tmp_path / "m.json").exists()


def test_cli_text_with_a_lone_surrogate_is_one_line(model_file, capsys):
    code, _, err = run_cli(capsys, "encode", model_file, "chai \ud800")
    assert_one_line_error(code, err, "lone surrogate U+D800")


# -- malformed model files --------------------------------------------------------------------------
GOOD = {"format": "tokenization-lab/bpe", "version": 1, "config": {"unit": "bytes"}, "merges": [[99, 104]]}


def model(**changes) -> bytes:
    data = {**GOOD, **changes}
    return json.dumps({k: v for k, v in data.items() if v is not ...}).encode()


MALFORMED = [
    ("deep", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ("deep-inside", b'{"format": "tokenization-lab/bpe", "config": ' + b"[" * 50_000, "nested too deeply"),
    ("5000-digits", b'{"format": "tokenization-lab/bpe", "version": ' + b"9" * 5000 + b"}", "5,000 digits long"),
    ("5000-digit-id", model(merges="IDS").replace(b'"IDS"', b"[[1, " + b"7" * 5000 + b"]]"), "5,000 digits long"),
    ("nan", model(vocab_size="X").replace(b'"X"', b"NaN"), "NaN is not a number in JSON"),
    ("infinity", model(version="X").replace(b'"X"', b"Infinity"), "Infinity is not a number in JSON"),
    ("-infinity", model(merges="X").replace(b'"X"', b"[[-Infinity, 1]]"), "-Infinity is not a number in JSON"),
    ("huge-float", model(merges="X").replace(b'"X"', b"[[1e999, 1]]"), "list of [id, id] pairs"),
    ("version-true", model(version=True), "'version' must be the number 1, not true"),
    ("version-float", model(version=1.0), "'version' must be the number 1, not 1.0"),
    ("version-text", model(version="1"), "'version' must be the number 1"),
    ("version-missing", model(version=...), "'version' must be the number 1, not null"),
    ("vocab-size-true", model(vocab_size=True), "'vocab_size' must be a whole number, not true"),
    ("vocab-size-text", model(vocab_size="257"), "'vocab_size' must be a whole number"),
    ("merge-true", model(merges=[[True, 104]]), "list of [id, id] pairs"),
    ("merge-float", model(merges=[[99.0, 104]]), "list of [id, id] pairs"),
    ("merge-negative", model(merges=[[-1, 104]]), "Merge 1 uses id -1: ids are 0 or more"),
    ("merge-later-id", model(merges=[[99, 300]]), "Merge 1 uses id 300, which does not exist yet"),
    ("merge-triple", model(merges=[[1, 2, 3]]), "list of [id, id] pairs"),
    ("merges-object", model(merges={"a": 1}), "list of [id, id] pairs"),
    ("doubling", model(merges=[[97, 97]] + [[256 + i, 256 + i] for i in range(60)]), "add up to more than"),
    ("config-list", model(config=["bytes"]), "no 'config' object"),
    ("unit-list", model(config={"unit": ["bytes"]}), "'unit' must be text"),
    ("unit-unknown", model(config={"unit": "words"}), "Unknown unit"),
    ("pattern-number", model(config={"pattern": 5}), "'pattern' must be text"),
    ("pattern-surrogate", model(config={"pattern": "\ud800+"}), "'pattern' must be text"),
    ("marker-number", model(config={"end_of_word": 5}), "marker must be text or null"),
    ("format-missing", model(format=...), "not a Tokenization Lab model file"),
    ("bytes-with-base", model(base=["a"]), "byte-level model has no 'base'"),
    ("chars-base-surrogate", model(config={"unit": "chars"}, base=["a", "\udcff"], merges=[]), "lone surrogate"),
    ("chars-base-empty-symbol", model(config={"unit": "chars"}, base=["a", ""], merges=[]), "needs 'base'"),
    ("chars-base-two-letters", model(config={"unit": "chars"}, base=["ab"], merges=[]), "is not one character"),
    (
        "chars-marker-not-in-base",
        model(config={"unit": "chars", "end_of_word": "_"}, base=["a", "b"], merges=[]),
        "is not among its base symbols",
    ),
    ("not-utf8", b'{"format": "tokenization-lab/bpe", "\xff": 1}', "not valid JSON"),
    ("empty", b"", "not valid JSON"),
]


@pytest.mark.parametrize(("content", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_model_file_is_one_clear_line(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=None) as info:
        model_io.tokenizer_from_json(content)
    assert message in str(info.value)
    line = str(info.value)
    assert "4300" not in line and "set_int_max_str_digits" not in line
    assert len(line) < 400
    code, _, err = run_cli(capsys, "encode", path, "chai")
    assert_one_line_error(code, err, message, "bad.json")


def test_a_model_the_trainer_writes_still_loads(tmp_path):
    """The loader refuses only what the trainer never writes."""
    for kwargs in ({"unit": "chars", "end_of_word": "_"}, {"unit": "chars", "end_of_word": "</w>"}, {"unit": "bytes"},
                   {"unit": "bytes", "end_of_word": "</w>"}, {"unit": "chars", "split": "whitespace"}):  # fmt: skip
        tok = train("low low lower lowest", 6, **kwargs).tokenizer
        again = model_io.tokenizer_from_json(model_io.tokenizer_to_json(tok))
        assert again.vocab() == tok.vocab() and again.merges == tok.merges


def test_cli_model_from_a_device_or_a_directory_is_one_line(tmp_path):
    for path, needle in (("/dev/zero", "is a device"), (".", "Is a directory")):
        done = cli_process("encode", path, "chai", cwd=tmp_path)
        assert_one_line_error(done.returncode, done.stderr.decode(), needle)


# -- train must not overwrite the user's files ----------------------------------------------------


@pytest.fixture
def corpus(tmp_path) -> Path:
    path = tmp_path / "c.txt"
    path.write_text("chai chai chaiwala chaat\n", encoding="utf-8")
    return path


def test_output_that_is_the_corpus_is_refused(corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.txt").symlink_to(corpus)
    os.link(corpus, tmp_path / "hard.txt")
    before = corpus.read_bytes()
    for output in ("c.txt", "./c.txt", str(corpus), "link.txt", "hard.txt", "../" + tmp_path.name + "/c.txt"):
        code, _, err = run_cli(capsys, "train", "c.txt", "--merges", "2", "-o", output)
        assert_one_line_error(code, err, f"-o {output} is the corpus itself")
        code, _, err = run_cli(capsys, "train", "c.txt", "--merges", "2", "-o", "m.json", "--trace", output)
        assert_one_line_error(code, err, f"--trace {output} is the corpus itself")
    assert corpus.read_bytes() == before
    assert not (tmp_path / "m.json").exists()


def test_trace_that_is_the_model_is_refused(corpus, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for model_name, trace_name in (("m.json", "m.json"), ("m.json", "./m.json"), ("sub/../m.json", "m.json")):
        (tmp_path / "sub").mkdir(exist_ok=True)
        code, _, err = run_cli(capsys, "train", "c.txt", "--merges", "2", "-o", model_name, "--trace", trace_name)
        assert_one_line_error(code, err, f"--trace {trace_name} is the same file as -o {model_name}")
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("trace", ["missing-folder/t.json", "/dev/full", "folder-as-file"])
def test_a_failed_trace_leaves_the_old_model_alone(corpus, tmp_path, capsys, monkeypatch, trace):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder-as-file").mkdir()
    (tmp_path / "m.json").write_text("the old model", encoding="utf-8")
    code, out, err = run_cli(capsys, "train", "c.txt", "--merges", "2", "-o", "m.json", "--trace", trace)
    assert_one_line_error(code, err, f"cannot write {trace}")
    assert (tmp_path / "m.json").read_text(encoding="utf-8") == "the old model"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt", "folder-as-file", "m.json"]  # no temporary file left
    assert out == ""


def test_a_full_device_is_named(corpus, capsys):
    code, _, err = run_cli(capsys, "train", corpus, "--merges", "2", "-o", "/dev/full")
    line = assert_one_line_error(code, err, "cannot write /dev/full: No space left on device")
    assert "None" not in line


def test_writing_through_a_link_keeps_the_link_and_the_mode(corpus, tmp_path, capsys):
    target = tmp_path / "real.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, _, err = run_cli(capsys, "train", corpus, "--merges", "2", "-o", link)
    assert code == 0, err
    assert link.is_symlink()
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "tokenization-lab/bpe"
    assert target.stat().st_mode & 0o777 == 0o640


def test_write_files_writes_all_or_none(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("old a", encoding="utf-8")
    with pytest.raises(OSError) as info:
        write_files([(a, "new a"), (tmp_path / "no" / "b.txt", "new b")])
    assert info.value.filename == str(tmp_path / "no" / "b.txt")
    assert a.read_text(encoding="utf-8") == "old a"
    write_files([(a, "new a"), (b, "new b")])
    assert (a.read_text(encoding="utf-8"), b.read_text(encoding="utf-8")) == ("new a", "new b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_same_regular_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x").write_text("x", encoding="utf-8")
    assert same_regular_file("x", "./x") and same_regular_file("new", "./new")
    assert not same_regular_file("x", "y")
    assert not same_regular_file("/dev/null", "/dev/null")  # writing twice to a device loses nothing


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_corpus_is_refused_at_once(tmp_path, device):
    done = cli_process("train", device, "--merges", "2", "-o", "m.json", cwd=tmp_path)
    assert_one_line_error(done.returncode, done.stderr.decode(), f"the corpus {device} is a device, not a file")
    assert not (tmp_path / "m.json").exists()


def test_input_is_read_up_to_a_bound(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"a" * 101)
    assert read_limited(path, limit=101) == b"a" * 101
    with pytest.raises(ValueError, match="larger than 100 bytes.*: give a shorter extract"):
        read_limited(path, "the corpus big.txt", limit=100)
    # A pipe that does not end is read only up to the bound.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    stop = threading.Event()

    def endless() -> None:
        try:
            with open(fifo, "wb") as f:
                while not stop.is_set():
                    f.write(b"chai " * 1000)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=endless, daemon=True)
    writer.start()
    with pytest.raises(ValueError, match="the corpus pipe is larger than 50,000 bytes, the most the lab reads"):
        read_limited(fifo, "the corpus pipe", limit=50_000)
    stop.set()
    writer.join(timeout=5)
    assert MAX_INPUT_BYTES == 100_000_000


# -- text files that are not UTF-8 ------------------------------------------------------------------
HINDI = "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं। "


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("chai".encode("utf-16"), "is UTF-16 (little-endian), not UTF-8"),
        ("chai".encode("utf-16-be"), "is UTF-16 (big-endian), not UTF-8"),
        (b"\xfe\xff" + "chai".encode("utf-16-be"), "is UTF-16 (big-endian), not UTF-8"),
        ("chai chai\n".encode("utf-16-le"), "is UTF-16 (little-endian), not UTF-8"),
        ((HINDI * 3).encode("utf-16-le"), "is UTF-16 (little-endian), not UTF-8"),
        ("chai".encode("utf-32"), "is UTF-32 (little-endian), not UTF-8"),
        ((HINDI * 3).encode("utf-32-be"), "is UTF-32 (big-endian), not UTF-8"),
        (b"%PDF-1.4\n\x00\x01\x02\x00\x03\x00\x00\x00\x07", "looks binary, not plain text (it has a NUL byte at offset 9)"),
        (b"abc\xffdef", "the byte 0xFF at offset 3 cannot start a character"),
        (b"caf\xe9 au lait", "the byte 0xE9 at offset 3 starts a character that the bytes after it do not complete"),
        ("चाय".encode()[:-1] + b" x", "the byte 0xE0 at offset 6 starts a character that the bytes after it do not"),
        ("चाय".encode()[:-1], "the byte 0xE0 at offset 6 starts a character that the bytes after it do not"),
    ],
)
def test_decode_text_names_the_encoding(data, message):
    with pytest.raises(ValueError, match=None) as info:
        decode_text(data, "the corpus c.txt")
    assert str(info.value).startswith("the corpus c.txt ")
    assert message in str(info.value)
    advice = "(a Word or PDF file will not work)." if "binary" in message else "save it again as UTF-8."
    assert str(info.value).endswith(advice)


def test_decode_text_reads_utf8():
    assert decode_text(("\ufeff" + HINDI).encode()) == HINDI  # the UTF-8 byte-order mark is dropped
    assert decode_text(b"") == ""
    assert decode_text("chai\tचाय 👍🏽\r\n".encode()) == "chai\tचाय 👍🏽\r\n"


def test_cli_utf16_corpus_says_so(tmp_path, capsys):
    path = tmp_path / "c.txt"
    path.write_bytes("chai chai chaiwala".encode("utf-16"))
    code, _, err = run_cli(capsys, "train", path, "--merges", "2", "-o", tmp_path / "m.json")
    assert_one_line_error(code, err, "is UTF-16", "save it again as UTF-8")
    assert "offset" not in err


# -- output that would look ambiguous ------------------------------------------------------------------


@pytest.mark.parametrize("unit", ["bytes", "chars"])
def test_a_one_character_marker_that_is_in_the_text_is_refused_in_both_units(unit, tmp_path, capsys):
    with pytest.raises(ValueError, match="end-of-word marker 'a' also occurs in the text"):
        train("chai chai", 2, unit=unit, end_of_word="a")
    path = tmp_path / "c.txt"
    path.write_text("chai chai", encoding="utf-8")
    code, _, err = run_cli(capsys, "train", path, "--merges", "2", "--unit", unit, "--end-of-word", "a", "-o", tmp_path / "m.json")
    assert_one_line_error(code, err, "also occurs in the text (in 'chai')")


def test_the_clash_message_quotes_a_short_part_of_a_long_word():
    with pytest.raises(ValueError) as info:
        train("x" * 10_000 + "_" + "y" * 10_000, 1, end_of_word="_")
    assert len(str(info.value)) < 200 and "…x" in str(info.value)


def test_word_counts_must_be_whole_numbers_not_true():
    with pytest.raises(ValueError, match="whole number"):
        train({"chai": True}, 1)


@pytest.mark.parametrize("data", [b"text\nab\x00cd\n", b"a,b\n1, \x00x\n" * 3, "चाय\x00 पानी".encode()])
def test_a_stray_nul_byte_is_binary_not_utf16(data):
    """UTF-16 is named from its NUL bytes: ASCII text has one in every character, and real text has spaces or line
    breaks among them. A NUL or two in UTF-8 text is a binary file, whichever side of a character it falls on."""
    with pytest.raises(ValueError, match="looks binary") as caught:
        decode_text(data)
    assert "UTF-16" not in str(caught.value)
    with pytest.raises(ValueError, match="looks binary"):
        "".join(iter_text(io.BytesIO(data)))


@pytest.mark.parametrize("text", ["chai", "chai pani\n", "घने कोहरे से स्कूल बंद\n" * 3, "a\tb\r\nc"])
@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_still_named(text, encoding):
    with pytest.raises(ValueError, match="is UTF-16"):
        decode_text(text.encode(encoding))


def test_a_utf8_byte_order_mark_is_dropped_at_the_start_of_a_stream_only():
    data = b"\xef\xbb\xbf" + "चाय\ufeffpani".encode()
    assert decode_text(data) == "चाय\ufeffpani"
    for chunk in (1, 2, 3, 4, 1 << 20):
        assert "".join(iter_text(io.BytesIO(data), chunk=chunk)) == "चाय\ufeffpani"
