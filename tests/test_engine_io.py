"""Saving and loading, the streaming decoder, the encode replay and the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import lessons
from analyses.stream import StreamDecoder, stream
from tests.cli_helpers import cli_process as cli
from tests.lesson_data import LESSON4
from tokenizer import UNKNOWN_ID, train
from tokenizer import io as model_io
from tokenizer.replay import encode_trace

ROOT = Path(__file__).resolve().parents[1]


def lesson4_tokenizer(k: int):
    return train(LESSON4["english_block"] * 10 + LESSON4["hindi_block"] * k, 100).tokenizer


def preset_tokenizer(preset_id: str):
    preset = lessons.presets()[preset_id]
    return train(preset.corpus, preset.merges, **preset.train_kwargs()).tokenizer


# -- save and load --------------------------------------------------------------


@pytest.mark.parametrize("preset_id", list(lessons.presets()))
def test_save_load_gives_same_ids(preset_id, tmp_path):
    tok = preset_tokenizer(preset_id)
    path = tmp_path / "model.json"
    model_io.save(tok, path)
    again = model_io.load(path)
    sample = " ".join(lessons.presets()[preset_id].examples) + " नमस्ते 👩‍👩‍👧"
    assert again.encode(sample) == tok.encode(sample)
    assert again.vocab() == tok.vocab()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "tokenization-lab/bpe" and data["version"] == 1
    assert data["vocab_size"] == tok.vocab_size


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json at all", "not valid JSON"),
        (b"\xff\xfe\x00binary", "not valid JSON"),
        (b"[1, 2, 3]", "expected a JSON object"),
        (b'{"model": {"type": "BPE"}}', "not a Tokenization Lab model"),
        (b'{"format": "tokenization-lab/bpe", "version": 99}', "version 99 is not supported"),
        (b'{"format": "tokenization-lab/bpe", "version": 1, "config": {"unit": "words"}, "merges": []}', "Unknown unit"),
        (b'{"format": "tokenization-lab/bpe", "version": 1, "config": {}, "merges": [[1, 999]]}', "does not exist yet"),
        (b'{"format": "tokenization-lab/bpe", "version": 1, "config": {}, "merges": "ab"}', "list of [id, id] pairs"),
        (b'{"format": "tokenization-lab/bpe", "version": 1, "config": {"unit": "chars"}, "merges": []}', "needs 'base'"),
        (b'{"format": "tokenization-lab/bpe", "version": 1, "config": {"colour": 1}, "merges": []}', "unknown settings"),
        (b'{"format": "tokenization-lab/bpe", "version": 1, "config": {}, "merges": [], "vocab_size": 3}', "merges make 256"),
    ],
)
def test_malformed_model_files_give_clear_errors(content, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        model_io.tokenizer_from_json(content)


def test_trace_rows_and_dict_follow_the_steps():
    preset = lessons.presets()["chai"]
    trace = train(preset.corpus, preset.merges, **preset.train_kwargs())
    rows = model_io.trace_rows(trace)
    assert [(r["left"], r["right"], r["count"]) for r in rows][:3] == [("h", "a", 11), ("c", "ha", 7), ("cha", "i", 5)]
    data = model_io.trace_to_dict(trace)
    assert data["steps"][0]["pair"] == ["h", "a"] and data["steps"][0]["token"] == "ha"


# -- streaming -------------------------------------------------------------------


def test_the_stream_decoder_holds_bytes_until_a_character_is_whole():
    """Lesson 6: feeding खबर two bytes at a time yields '', 'ख', 'ब', '', 'र'."""
    decoder = StreamDecoder(None)
    data = "खबर".encode()
    shown = []
    for i in range(0, len(data), 2):
        shown.append((decoder.feed_bytes(data[i : i + 2]), decoder.held))
    assert shown == [("", 2), ("ख", 1), ("ब", 0), ("", 2), ("र", 0)]


def test_stream_of_the_hindi_sentence_naive_vs_careful():
    tok = lesson4_tokenizer(1)
    ids = tok.encode(LESSON4["test_hi"])
    events = stream(tok, ids)
    assert "".join(e.text for e in events) == LESSON4["test_hi"]
    assert any("\ufffd" in e.naive for e in events)  # a naive stream shows broken characters
    assert all("\ufffd" not in e.text for e in events)
    # Most of the 69 Hindi tokens of the k=1 tokenizer are not whole characters on their own.
    partial = tok.partial_tokens(ids)
    assert len(ids) == 69
    assert len(partial) > len(ids) / 2
    # Whenever the careful stream shows nothing, it is holding bytes of an unfinished character.
    assert all(e.held > 0 for e in events if e.text == "")
    decoder = StreamDecoder(tok)
    for token_id in ids:
        decoder.feed(token_id)
    assert decoder.held == 0 and decoder.flush() == ""


def test_stream_decoder_reports_held_bytes():
    tok = train("खबर खबर", 0).tokenizer
    decoder = StreamDecoder(tok)
    outs = [(decoder.feed(i), decoder.held) for i in tok.encode("ख")]
    assert outs == [("", 1), ("", 2), ("ख", 0)]


# -- encode replay ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset_id", "text", "final"),
    [
        ("news", "newsroom", ["news", "r", "o", "o", "m"]),
        ("readers", "readership", ["read", "er", "s", "h", "i", "p", "</w>"]),
        ("readers", "xylophone", ["x", "y", "l", "o", "p", "h", "o", "n", "e</w>"]),
        ("chai", "halwa", ["ha", "l", "wa"]),
    ],
)
def test_encode_replay_reaches_the_encoding(preset_id, text, final):
    tok = preset_tokenizer(preset_id)
    replay = encode_trace(tok, text)
    assert replay.labels_at(len(replay.steps)) == [final]
    assert [list(p) for p in replay.final] == [[t.id for t in tok.encode_tokens(text)]]
    ranks = [s.rank for s in replay.steps]
    assert ranks == sorted(ranks)  # merges fire in the order they were learned


def test_encode_replay_records_where_each_merge_fires():
    tok = preset_tokenizer("news")
    replay = encode_trace(tok, "newsroom")
    assert [(s.left, s.right, s.token, s.places) for s in replay.steps] == [
        ("n", "e", "ne", ((0, 0),)),
        ("ne", "w", "new", ((0, 0),)),
        ("new", "s", "news", ((0, 0),)),
    ]


def test_unseen_characters_in_replay_keep_their_text():
    tok = preset_tokenizer("chai")
    replay = encode_trace(tok, "xyz")
    assert replay.steps == ()
    assert replay.labels_at(0) == [["x", "y", "z"]]
    assert list(replay.final[0]) == [UNKNOWN_ID] * 3


# -- command line ----------------------------------------------------------------




def test_cli_train_and_encode_chai(tmp_path):
    (tmp_path / "chai.txt").write_text(lessons.presets()["chai"].corpus, encoding="utf-8")
    done = cli("train", "chai.txt", "--merges", "7", "--unit", "chars", "--split", "whitespace", "-o", "m.json",
               "--trace", "t.json", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    steps = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["steps"]
    assert [(s["step"], s["pair"], s["token"], s["count"]) for s in steps[:3]] == [
        (1, ["h", "a"], "ha", 11),
        (2, ["c", "ha"], "cha", 7),
        (3, ["cha", "i"], "chai", 5),
    ]
    out = cli("encode", "m.json", "--json", "--", "pohawala", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"ids": json.loads(out.stdout)["ids"], "tokens": ["poha", "wal", "a"], "count": 3}


def test_cli_trace_lists_every_tie_with_ids_in_the_byte_unit(tmp_path):
    (tmp_path / "low.txt").write_text("low low low lower lowest", encoding="utf-8")
    done = cli("train", "low.txt", "--merges", "4", "--split", "whitespace", "-o", "m.json", "--trace", "t.json",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    steps = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["steps"]
    el, o, w, e, r, s, t = (ord(c) for c in "lowerst")
    assert steps[0]["pair"] == [el, o] and steps[0]["token"] == 256
    assert steps[0]["ties"] == [[el, o], [o, w]]
    assert steps[3]["pair"] == [258, r] and steps[3]["ties"] == [[258, r], [258, s], [s, t]]
    out = cli("encode", "m.json", "--json", "lowest", cwd=tmp_path)
    data = json.loads(out.stdout)
    assert data["tokens"] == ["lowe", "s", "t"] and data["count"] == 3
    assert data["bytes"] == ["6C 6F 77 65", "73", "74"]


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (None, ["train", "missing.txt", "--merges", "3", "-o", "m.json"], "not found"),
        (b"", ["train", "c.txt", "--merges", "3", "-o", "m.json"], "is empty"),
        (b"   \n\t ", ["train", "c.txt", "--merges", "3", "-o", "m.json"], "is empty"),
        (b"abc\xffdef", ["train", "c.txt", "--merges", "3", "-o", "m.json"], "offset 3"),
        (b"abc", ["train", "c.txt", "--merges", "0", "-o", "m.json"], "1 or more"),
        (b"abc", ["train", "c.txt", "--merges", "-2", "-o", "m.json"], "1 or more"),
        (b"abc", ["train", "c.txt", "--merges", "three", "-o", "m.json"], "whole number"),
        (b"abc", ["train", "c.txt", "--merges", "3", "--pattern", "(", "-o", "m.json"], "not a valid regular expression"),
        (b"abc", ["train", "c.txt", "--merges", "3", "--unit", "words", "-o", "m.json"], "invalid choice"),
        (b'{"a": 1}', ["encode", "c.txt", "hello"], "not a Tokenization Lab model"),
        (b"\x00\x01binary", ["encode", "c.txt", "hello"], "not valid JSON"),
        (None, ["encode", "nope.json", "hello"], "Cannot read"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, setup, args, message):
    if setup is not None:
        (tmp_path / "c.txt").write_bytes(setup)
    done = cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr


def test_a_corpus_with_no_words_is_refused_by_the_engine():
    with pytest.raises(ValueError, match="no words"):
        train(" \n\t ", 3, split="whitespace")
    with pytest.raises(ValueError, match="whole number"):
        train("abc", -1)


def test_the_command_line_counts_with_the_plural_rule(tmp_path, capsys) -> None:
    """``encode`` of a one-token text prints "1 token:", not "1 tokens:"; ``train`` says "1 merge"."""
    from tests.cli_helpers import run_cli

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("chai chai chai", encoding="utf-8")
    model = tmp_path / "m.json"
    code, out, _ = run_cli(capsys, "train", corpus, "--merges", "1", "-o", model)
    assert code == 0 and "learned 1 merge," in out
    code, out, _ = run_cli(capsys, "encode", model, "a")
    assert code == 0 and out.startswith("1 token: a")
