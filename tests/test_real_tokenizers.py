"""Production tokenizers (``family.real``) and the ``count`` command.

* The curriculum's lesson-4 pair costs what the ecosystem notes measured, in every tokenizer.
* Ids equal quicktok's own C++ encoder (an independent implementation) for cl100k, o200k, Llama 3, Qwen3.
* Properties (hypothesis), for every tokenizer: decode(encode(t)) gives the text back (Qwen3: its NFC
  form; SentencePiece: with a typed ``▁`` read as a space), the tokens' bytes join into the text
  (SentencePiece: after its dummy leading space), ``limit`` equals slicing, ``count`` equals
  ``len(encode)``, and every token lies inside its pre-split piece.
* Data checks: the published hashes are tiktoken's; a damaged, cut or missing file makes that one
  tokenizer unavailable with the reason while the others keep working.

Tokenizers load once per process (the module's own cache), so this file costs a few seconds.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import threading
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lessons
from family import real
from tests.cli_helpers import cli_process, run_cli
from tests.lesson_data import LESSON4
from tokenizer import TextTokenizer, bytes_label, is_whole, train
from tokenizer import io as model_io

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = [s["text"] for s in lessons.data("sample_texts")["samples"]]

# (English, Hindi) token counts of the lesson-4 test pair, as measured in the ecosystem notes.
FIGURES = {
    "cl100k_base": (11, 47),
    "o200k_base": (11, 15),
    "r50k_base": (11, 74),
    "llama3": (11, 24),
    "qwen3": (11, 43),
    "mistral-tekken": (11, 19),
    "mistral-sp-v3": (11, 51),
    "whisper": (11, 47),
}
"""Only the tokenizers the ecosystem notes measured (issue 26's additions are checked against their own libraries
in tests/test_inside.py and below)."""
VOCAB_SIZES = {
    "cl100k_base": 100_277,
    "o200k_base": 200_019,
    "r50k_base": 50_257,
    "llama3": 128_256,
    "qwen3": 151_669,
    "mistral-tekken": 131_072,
    "mistral-sp-v3": 32_768,
    "o200k_harmony": 201_088,  # tiktoken's o200k_harmony: reserved ids up to 201,087
    "whisper": 51_865,  # Whisper's published multilingual vocabulary
    "mistral-tekken-240718": 131_072,
    "mistral-sp-v1": 32_000,
    "mistral-sp-v2": 32_768,
    "mistral-sp-v7": 32_768,
}
SENTENCEPIECE = [i.name for i in real.catalogue() if i.unit == "chars"]
QUICKTOK = {"cl100k_base": "cl100k_base", "o200k_base": "o200k_base", "llama3": "llama3", "qwen3": "qwen3"}
TIKTOKEN_BASED = [n for n in real.NAMES if n not in SENTENCEPIECE]

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

# Text that goes where tokenizers differ: scripts, combining marks, digits, contractions,
# whitespace runs, special-token spellings, SentencePiece's own space mark.
FRAGMENTS = [
    "<|endoftext|>", "<|im_start|>", "<s>", "</s>", "[INST]", "<|begin_of_text|>", "'s", "'LL", "’t",
    " ", "  ", "\n", "\n\n", "\r\n", "\t", " \n ", "123", "12345", "1,23,456", "3.14",
    "घने", "क्ष", "स्कूल", "सड़क", "ऩ", "नमस्ते", "தமிழ்", "中文", "日本語", "Ελλάδα",
    "é", "e\u0301", "Å", "ﬁ", "ǅ", "😀", "👩‍👩‍👧", "\u200d", "\u00a0", "\u3000", "\u2581", "\x00", "\ufeff",
    "Thick", "FOG", "fog.", "city.", "https://example.org/a?b=1", "def f(x):\n    return x",
]  # fmt: skip


def texts_of(alphabet: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[str]:
    """Any text (of ``alphabet``'s characters, else hypothesis's own), or the fragments above joined with some."""
    chars = {} if alphabet is None else {"alphabet": alphabet}
    return st.one_of(
        st.text(max_size=40, **chars),
        st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3, **chars)), max_size=12).map("".join),
    )


texts = texts_of()
known_texts = texts_of(st.characters(exclude_categories=("Cs", "Cn")))
"""``texts`` of the characters Python's Unicode database (14.0, 2021) knows. Two libraries built on different
Unicode versions disagree on a code point one of them has not heard of (U+323B0, CJK Extension J in Unicode 17: a
letter to quicktok, unassigned to tiktoken: Llama 3 then splits it and ":A" in two ways), so two libraries are
compared on these."""


def tok(name: str) -> real.RealTokenizer:
    return real.load(name)  # loaded once per process, then shared


def expected_text(name: str, text: str) -> str:
    """The text each tokenizer really reads and gives back."""
    if name == "qwen3":
        return unicodedata.normalize("NFC", text)
    if name.startswith("mistral-sp"):
        return text.replace("\u2581", " ")
    return text


# -- every tokenizer is there and says who it is -----------------------------------------------------


def test_catalogue_lists_every_tokenizer_in_order_with_its_facts():
    infos = real.catalogue()
    assert [i.name for i in infos] == list(real.NAMES) == list(VOCAB_SIZES)
    assert set(FIGURES) <= set(real.NAMES)
    assert [i.name for i in infos if i.featured] == list(real.FEATURED) == list(real.NAMES[:7])
    for info in infos:
        assert info.unit in ("bytes", "chars")
        assert info.title and info.family and info.licence and info.models
        assert "sha256 checked" in info.source
    by_name = {i.name: i for i in infos}
    assert by_name["cl100k_base"].title == "GPT-4 (cl100k_base)"
    assert by_name["llama3"].licence == "Meta Llama 3 Community License"
    assert by_name["qwen3"].licence.startswith("Apache-2.0")
    assert by_name["mistral-sp-v3"].family == "SentencePiece BPE with byte fallback"
    assert by_name["mistral-sp-v3"].unit == "chars"


@pytest.mark.parametrize("name", real.NAMES)
def test_every_tokenizer_is_available_and_implements_the_interface(name):
    assert real.status(name) is None, real.status(name)
    t = tok(name)
    assert isinstance(t, TextTokenizer)
    info = real.catalogue()[real.NAMES.index(name)]
    assert (t.name, t.family, t.unit, t.source, t.licence) == (info.title, info.family, info.unit, info.source, info.licence)
    assert t.vocab_size == VOCAB_SIZES[name]
    assert real.load(name) is t  # loaded once, shared


@pytest.mark.parametrize("name", list(FIGURES))
def test_lesson4_pair_costs_what_the_notes_measured(name):
    en, hi = FIGURES[name]
    assert tok(name).count(LESSON4["test_en"]) == en
    assert tok(name).count(LESSON4["test_hi"]) == hi


@pytest.mark.parametrize("name", list(QUICKTOK))
def test_ids_equal_quicktoks_own_encoder_on_the_lessons(name):
    quicktok = pytest.importorskip("quicktok")
    reference = quicktok.get_encoding(QUICKTOK[name])
    for text in [LESSON4["test_en"], LESSON4["test_hi"], LESSON4["english_block"] * 3 + LESSON4["hindi_block"] * 3, *SAMPLES]:
        assert tok(name).encode(text) == reference.encode_ordinary(text)


@pytest.mark.parametrize("name", list(QUICKTOK))
@PROPERTY
@given(text=known_texts)
def test_ids_equal_quicktoks_own_encoder_on_any_text(name, text):
    import quicktok

    assert tok(name).encode(text) == quicktok.get_encoding(QUICKTOK[name]).encode_ordinary(text)


# -- properties ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", real.NAMES)
@PROPERTY
@given(many=st.lists(st.one_of(texts, st.sampled_from(["\ud800", "a\udfffb", "e\u0301\u0327", "\u2581x"])),
                     max_size=8))
def test_count_many_is_count_of_each(name, many):
    """The estimate counts records a batch at a time (count_many: one call for them all): the same numbers as one
    count a text, lone surrogates, NFC and SentencePiece's space mark included."""
    assert tok(name).count_many(many) == [tok(name).count(text) for text in many]


@pytest.mark.parametrize("name", real.NAMES)
@PROPERTY
@given(text=texts, n=st.integers(min_value=0, max_value=30))
def test_properties_of_every_tokenizer(name, text, n):
    t = tok(name)
    ids = t.encode(text)
    tokens = t.encode_tokens(text)
    reads = expected_text(name, text)
    # Round trip, and the tokens' bytes are the text's bytes.
    assert t.decode(ids) == reads
    joined = b"".join(token.bytes for token in tokens)
    if name in SENTENCEPIECE:
        assert joined == (b" " + reads.encode() if text else b"")  # SentencePiece's dummy leading space
    else:
        assert joined == reads.encode()
    # The same tokens however they are asked for.
    assert [token.id for token in tokens] == ids
    assert t.count(text) == len(ids)
    assert t.encode_tokens(text, limit=n) == tokens[:n]
    for token in tokens:
        assert token.bytes == t.token_bytes(token.id)
        assert token.label == bytes_label(token.bytes) and token.whole == is_whole(token.bytes)
        assert token.known
    # Pieces count up from 0 without gaps.
    pieces = [token.piece for token in tokens]
    assert pieces == sorted(pieces)
    assert not pieces or (pieces[0] == 0 and all(b - a in (0, 1) for a, b in zip(pieces, pieces[1:])))
    if name in SENTENCEPIECE:  # a new word at each token that starts with ▁
        starts = [t.raw_piece(token.id).startswith("\u2581") for token in tokens]
        assert [sum(starts[1 : i + 1]) for i in range(len(tokens))] == pieces
    else:  # every token lies inside the regex piece it is said to come from
        split = [m.group().encode() for m in t._split.finditer(reads)]
        assert b"".join(split) == reads.encode()
        at = 0
        for token in tokens:
            start = sum(len(p) for p in split[: token.piece])
            assert start <= at and at + len(token.bytes) <= start + len(split[token.piece])
            at += len(token.bytes)


@pytest.mark.parametrize("name", real.NAMES)
def test_special_tokens_typed_as_text_are_ordinary_text(name):
    t = tok(name)
    for text in ["<|endoftext|>", "<|im_start|>user", "<s>[INST] hi [/INST]</s>", "<|begin_of_text|>"]:
        ids = t.encode(text)
        assert len(ids) > 1
        assert b"".join(t.token_bytes(i) for i in ids).strip() == text.encode()
        assert t.decode(ids) == text


def test_special_ids_are_not_produced_by_text():
    assert 100257 not in tok("cl100k_base").encode("<|endoftext|>")
    assert all(i >= 1000 for i in tok("mistral-tekken").encode("<s>[INST]</s>"))  # Tekken's specials are 0-999
    assert not {0, 1, 2, 3, 4} & set(tok("mistral-sp-v3").encode("<unk><s></s>[INST][/INST]"))


def test_limit_on_a_long_text_equals_slicing():
    text = (LESSON4["english_block"] + LESSON4["hindi_block"]) * 150  # about 80 KB
    for name in real.NAMES:
        t = tok(name)
        few = t.encode_tokens(text, limit=2000)
        assert len(few) == 2000 and few == t.encode_tokens(text)[:2000], name


def test_lone_surrogates_become_the_replacement_character():
    for name in real.NAMES:
        assert tok(name).encode("a\ud800b") == tok(name).encode("a\ufffdb"), name


# -- how tokens are written -------------------------------------------------------------------------


def test_raw_pieces_show_each_tokenizers_own_marks():
    gpt4 = tok("cl100k_base")
    assert [gpt4.raw_piece(i) for i in gpt4.encode("Thick fog")] == ["Th", "ick", "Ġfog"]
    assert gpt4.raw_piece(100257) == "<|endoftext|>"
    assert gpt4.raw_piece(gpt4.encode("\n")[0]) == "Ċ"
    tekken = tok("mistral-tekken")
    assert [tekken.raw_piece(i) for i in tekken.encode(" fog")] == ["Ġfog"]
    assert tekken.raw_piece(1) == "<s>"
    sp = tok("mistral-sp-v3")
    assert [sp.raw_piece(i) for i in sp.encode("Thick fog")] == ["▁Th", "ick", "▁fog"]


def test_sentencepiece_byte_fallback_tokens_are_single_bytes():
    sp = tok("mistral-sp-v3")
    tokens = sp.encode_tokens("घने")  # घ is not in the vocabulary: three byte tokens
    assert [sp.raw_piece(t.id) for t in tokens[:4]] == ["▁", "<0xE0>", "<0xA4>", "<0x98>"]
    assert [(t.bytes, t.whole, t.label) for t in tokens[:4]] == [
        (b" ", True, " "),
        (b"\xe0", False, "⟨E0⟩"),
        (b"\xa4", False, "⟨A4⟩"),
        (b"\x98", False, "⟨98⟩"),
    ]
    assert sp.token_bytes(1) == b"<s>"  # a control token: its written form


def test_byte_level_tokens_can_split_a_character():
    tokens = tok("cl100k_base").encode_tokens(LESSON4["test_hi"])
    partial = [t for t in tokens if not t.whole]
    assert partial and all("⟨" in t.label for t in partial)
    assert all(t.whole for t in tok("o200k_base").encode_tokens(LESSON4["test_hi"]))


def test_bad_ids_are_refused_with_a_clear_error():
    gpt4 = tok("cl100k_base")
    with pytest.raises(ValueError, match="not in the GPT-4"):
        gpt4.token_bytes(100_277)
    with pytest.raises(ValueError, match="unused id"):
        gpt4.token_bytes(100_256)  # cl100k has no token 100256
    with pytest.raises(ValueError, match="not in the"):
        tok("mistral-sp-v3").decode([40_000])


# -- the data checks --------------------------------------------------------------------------------


def test_published_hashes_are_the_ones_tiktoken_publishes():
    """Read tiktoken_ext/openai_public.py (without running it) and compare its expected_hash values."""
    from importlib.util import find_spec

    source = Path(find_spec("tiktoken_ext.openai_public").origin).read_text(encoding="utf-8")
    published = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    for kw in call.keywords:
                        if kw.arg == "expected_hash":
                            published[node.name] = kw.value.value
    for name, sha in real.TIKTOKEN_SHA256.items():
        # o200k_harmony calls o200k_base() for its ranks: its hash is o200k_base's
        assert published["o200k_base" if name == "o200k_harmony" else name] == sha, name
    assert "o200k_base()" in ast.get_source_segment(source, next(
        n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == "o200k_harmony"))


def _damaged(tmp_path: Path, name: str, change) -> Path:
    copy = tmp_path / real.data_file(name).name
    copy.write_bytes(change(real.data_file(name).read_bytes()))
    return copy


def _registry(overrides: dict[str, Path]) -> real.Registry:
    return real.Registry(lambda name: overrides.get(name) or real.data_file(name))


def _last_rank_changed(data: bytes) -> bytes:
    return data[:-4] + (999_999).to_bytes(4, "little")


@pytest.mark.parametrize(
    ("name", "change", "reason"),
    [
        ("cl100k_base", _last_rank_changed, "fails the sha256 check against tiktoken's published cl100k_base hash"),
        ("o200k_base", lambda d: d[:100_000], "cut short"),
        ("r50k_base", lambda d: d.replace(b" 50000\n", b" 49999\n"), "fails the sha256 check"),
        ("llama3", _last_rank_changed, "fails the sha256 check against Meta's tokenizer.model"),
        ("qwen3", _last_rank_changed, "fails the sha256 check against Qwen's qwen.tiktoken"),
        ("mistral-tekken", lambda d: d.replace(b'"rank": 5000,', b'"rank": 5001,', 1), "fails the sha256 check"),
        ("mistral-sp-v3", lambda d: d[:-1] + bytes([d[-1] ^ 1]), "fails the sha256 check"),
    ],
)
def test_damaged_data_makes_only_that_tokenizer_unavailable(tmp_path, name, change, reason):
    if name in ("llama3", "qwen3"):  # their special tokens sit beside the vocabulary
        shutil.copy(real.data_file(name).with_suffix(".special"), tmp_path)
    registry = _registry({name: _damaged(tmp_path, name, change)})
    assert reason in (registry.status(name) or "")
    with pytest.raises(real.TokenizerUnavailable) as caught:
        registry.load(name)
    exc = caught.value
    assert exc.name == name and reason in exc.reason
    message = str(exc)
    assert "\n" not in message and message.startswith(f"The {real.catalogue()[real.NAMES.index(name)].title} tokenizer")
    # Every other tokenizer still works (the cheap ones, from the same registry).
    other = "mistral-sp-v3" if name != "mistral-sp-v3" else "r50k_base"
    assert registry.status(other) is None
    assert registry.load(other).count(LESSON4["test_en"]) == 11


def test_a_missing_file_says_how_to_get_it(tmp_path):
    registry = _registry({"r50k_base": tmp_path / "gpt2.tiktoken", "cl100k_base": tmp_path / "cl100k.vocab"})
    assert "scripts/install-data" in registry.status("r50k_base")
    assert "missing" in registry.status("cl100k_base")
    with pytest.raises(real.TokenizerUnavailable, match="unavailable"):
        real.build("cl100k_base", tmp_path / "nothing.vocab")


def test_gpt2_rank_file_can_be_pointed_at_by_an_environment_variable(tmp_path, monkeypatch):
    copy = tmp_path / "gpt2.tiktoken"
    shutil.copy(real.data_file("r50k_base"), copy)
    monkeypatch.setenv(real.GPT2_ENV, str(copy))
    assert real.data_file("r50k_base") == copy
    monkeypatch.setenv(real.GPT2_ENV, str(tmp_path / "absent"))
    assert "LAB_GPT2_TIKTOKEN" in real.Registry().status("r50k_base")


def test_unknown_names_are_unavailable_with_the_known_ones_listed():
    assert real.status("gpt-5") == "unknown tokenizer; known: " + ", ".join(real.NAMES)
    with pytest.raises(real.TokenizerUnavailable) as caught:
        real.load("gpt-5")
    assert caught.value.name == "gpt-5" and "cl100k_base" in str(caught.value)


def test_each_tokenizer_is_loaded_once_however_many_threads_ask():
    calls = []
    registry = real.Registry(lambda name: calls.append(name) or real.data_file(name))
    got = []
    threads = [threading.Thread(target=lambda: got.append(registry.load("mistral-sp-v3"))) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 12 and len({id(t) for t in got}) == 1 and calls == ["mistral-sp-v3"]


# -- the count command ----------------------------------------------------------------------------




def test_count_json_has_one_entry_per_tokenizer_in_the_order_given(capsys):
    names = ["o200k_base", "mistral-sp-v3", "cl100k_base", "qwen3"]
    args = [a for n in names for a in ("--tokenizer", n)]
    code, out, err = run_cli(capsys, "count", *args, "--json", "--", LESSON4["test_hi"])
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == ["results"]
    assert [list(r) for r in data["results"]] == [["tokenizer", "tokens", "ids"]] * 4
    assert [r["tokenizer"] for r in data["results"]] == names
    assert [r["tokens"] for r in data["results"]] == [FIGURES[n][1] for n in names]
    assert all(r["ids"] == tok(r["tokenizer"]).encode(LESSON4["test_hi"]) for r in data["results"])


def test_count_defaults_to_gpt4_and_gpt4o_and_prints_a_table(capsys):
    code, out, _ = run_cli(capsys, "count", LESSON4["test_en"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["tokenizer", "tokens", "per"]
    assert lines[1].split()[:3] == ["cl100k_base", "11", "1.22"]
    assert lines[2].split()[:3] == ["o200k_base", "11", "1.22"]
    assert lines[3] == "9 words, 47 characters, 47 bytes"
    code, out, _ = run_cli(capsys, "count", "--json", LESSON4["test_en"])
    assert [r["tokenizer"] for r in json.loads(out)["results"]] == ["cl100k_base", "o200k_base"]


def test_count_accepts_a_lab_model_file_as_a_name(capsys, tmp_path):
    model = train(LESSON4["english_block"] * 10 + LESSON4["hindi_block"], 100).tokenizer
    path = tmp_path / "lesson4.json"
    model_io.save(model, path)
    code, out, _ = run_cli(capsys, "count", "-t", str(path), "-t", "cl100k_base", "--json", LESSON4["test_hi"])
    assert code == 0
    first, second = json.loads(out)["results"]
    assert first == {"tokenizer": str(path), "tokens": 69, "ids": model.encode(LESSON4["test_hi"])}  # lesson 4, k=1
    assert second["tokens"] == 47


def test_count_reads_standard_input_exactly(capsys, monkeypatch):
    text = LESSON4["test_hi"] + "\n"
    code, out, _ = run_cli(capsys, "count", "-t", "o200k_base", "--json", "-", stdin=text.encode(), monkeypatch=monkeypatch)
    assert code == 0
    assert json.loads(out)["results"][0]["ids"] == tok("o200k_base").encode(text)


def test_count_list_shows_every_tokenizer_and_its_status(capsys):
    code, out, _ = run_cli(capsys, "count", "--list")
    assert code == 0
    lines = out.split("\n\n")[0].splitlines()  # the tokenizers, then the models by name after a blank line
    assert [line.split()[0] for line in lines] == list(real.NAMES)
    assert all(line.endswith("available") for line in lines)
    code, out, _ = run_cli(capsys, "count", "--list", "--json")
    listed = json.loads(out)["tokenizers"]
    assert [(t["name"], t["available"], t["reason"]) for t in listed] == [(n, True, None) for n in real.NAMES]


def test_count_lists_an_unavailable_tokenizer_with_its_reason(capsys, monkeypatch):
    reason = "its rank file /x/gpt2.tiktoken is not installed (run scripts/install-data)"
    monkeypatch.setattr(real, "status", lambda name: reason if name == "r50k_base" else None)
    code, out, _ = run_cli(capsys, "count", "--list")
    assert code == 0
    line = [line for line in out.splitlines() if line.startswith("r50k_base")][0]
    assert line.split() == ["r50k_base", "GPT-2", "(r50k_base)", "unavailable:", *reason.split()]


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["count", "-t", "gpt-5", "hi"], None, "unknown tokenizer 'gpt-5'"),
        (["count", "-t", "missing.json", "hi"], None, "Cannot read the model file"),
        (["count", "-t", "bad.json", "hi"], None, "not a Tokenization Lab model"),
        (["count", "-t", "binary.json", "hi"], None, "not valid JSON"),
        (["count", "-"], b"ok \xe0\xa4", "standard input is not valid UTF-8"),
        (["count"], None, "give the text to count"),
        (["count", "--list", "hi"], None, "--list takes no text"),
        (["count", "-t", "cl100k_base", "-t", "gpt2", "hi"], None, "unknown tokenizer 'gpt2'"),
    ],
)
def test_count_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, tmp_path, args, stdin, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text('{"a": 1}', encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(b"\x00\x01\xff")
    code, out, err = run_cli(capsys, *args, stdin=stdin if stdin is not None else None, monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err


def cli(*args: str, stdin: bytes | None = None, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    return cli_process(*args, stdin=stdin, env_extra=env_extra, text=False)


def test_count_from_a_real_shell_pipe_and_an_unavailable_tokenizer(tmp_path):
    done = cli("count", "-t", "mistral-sp-v3", "--json", "-", stdin=LESSON4["test_hi"].encode())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"][0]["tokens"] == 51
    done = cli("count", "-t", "r50k_base", "hello", env_extra={real.GPT2_ENV: str(tmp_path / "absent")})
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "The GPT-2 (r50k_base) tokenizer is unavailable" in lines[0]
