"""Lesson 6, streaming: the naive and the careful decoder, token by token (analyses/stream.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lessons
from analyses.measure import measure
from analyses.stream import (
    REPLACEMENT,
    StreamDecoder,
    naive_parts,
    partial_count,
    so_far,
    stream,
    stream_bytes,
    stream_tokens,
)
from tests.lesson_data import LESSON4
from tests.reference_oracle import not_text_alone, reference_token_bytes
from tokenizer import train

HINDI = LESSON4["test_hi"]


@pytest.fixture(scope="module")
def k1():
    """The lesson-4 tokenizer with one Hindi copy (the "english-hindi" preset)."""
    preset = lessons.presets()["english-hindi"]
    return train(preset.corpus, preset.merges, **preset.train_kwargs()).tokenizer


def test_lesson6_most_of_the_69_hindi_tokens_are_not_whole_characters(k1) -> None:
    ids = k1.encode(HINDI)
    events = stream(k1, ids)
    assert len(events) == 69  # lesson 4's figure for k = 1
    partial = partial_count(events)
    # The same count three ways: the stream, the shared measure, and decoding each token's bytes alone.
    assert partial == measure(k1, HINDI).partial == sum(not_text_alone(k1.token_bytes(i)) for i in ids)
    assert partial > len(events) / 2  # "most of the 69"
    # And from an independent source: the textbook trainer's tokens of the same text, with the same settings.
    preset = lessons.presets()["english-hindi"]
    textbook = reference_token_bytes(preset.corpus, preset.merges, HINDI, **preset.train_kwargs())
    assert [k1.token_bytes(i) for i in ids] == list(textbook)
    assert partial == sum(map(not_text_alone, textbook))


def test_the_careful_stream_reproduces_the_text_and_the_naive_one_shows_marks(k1) -> None:
    events = stream(k1, k1.encode(HINDI))
    end = so_far(events, len(events))
    assert end.text == HINDI and end.held == b""
    assert REPLACEMENT not in end.text
    for e in events:
        # A replacement mark exactly where the token is not whole characters on its own.
        assert (REPLACEMENT in e.naive) == (not e.whole)
        assert any(bad for _, bad in e.naive_parts) == (not e.whole)
        # The bad bytes are the token's own, in order, with the text around them.
        assert b"".join(bad if bad else text.encode() for text, bad in e.naive_parts) == e.bytes
        # When the careful decoder shows nothing, it is holding the start of a character.
        if e.text == "":
            assert e.held_bytes and e.held == len(e.held_bytes)
            assert e.held_bytes[0] >= 0xC0  # a lead byte: the character's first byte
    assert end.marks == sum(1 for e in events for _, bad in e.naive_parts if bad)


def test_so_far_at_each_step(k1) -> None:
    events = stream(k1, k1.encode(HINDI))
    assert so_far(events, 0).text == "" and so_far(events, 0).naive == () and so_far(events, 0).held == b""
    first = so_far(events, 1)  # घ is E0 A4 98 and the first token holds E0 A4
    assert first.text == "" and first.held == "घ".encode()[:2] and first.naive_text == REPLACEMENT
    second = so_far(events, 2)
    assert second.text == "घ" and second.held == b"" and second.naive_text == REPLACEMENT * 2
    for k in range(len(events) + 1):
        s = so_far(events, k)
        assert HINDI.encode().startswith(s.text.encode() + s.held)
    assert so_far(events, 999) == so_far(events, len(events))  # clamped


def test_khabar_two_bytes_at_a_time() -> None:
    """The curriculum's example: खबर fed two bytes at a time yields '', 'ख', 'ब', '', 'र'."""
    data = "खबर".encode()
    events = stream_bytes([data[i : i + 2] for i in range(0, len(data), 2)])
    assert [e.text for e in events] == ["", "ख", "ब", "", "र"]
    assert [e.held_bytes for e in events] == [b"\xe0\xa4", b"\xe0", b"", b"\xe0\xa4", b""]
    assert all(not e.whole for e in events)


def test_stream_tokens_equals_stream_of_ids(k1) -> None:
    text = "घने कोहरे से शहर में Thick fog"
    assert stream_tokens(k1.encode_tokens(text)) == stream(k1, k1.encode(text))


def test_a_real_tokenizer_streams_too() -> None:
    from family import real

    gpt4 = real.load("cl100k_base")
    events = stream_tokens(gpt4.encode_tokens(HINDI))
    assert so_far(events, len(events)).text == HINDI
    assert partial_count(events) == measure(gpt4, HINDI).partial > 0
    decoder = StreamDecoder(gpt4)
    assert "".join(decoder.feed(i) for i in gpt4.encode(HINDI)) == HINDI


def test_an_unseen_character_of_a_character_model_streams_as_itself() -> None:
    tok = train("chai chai", 1, unit="chars").tokenizer
    events = stream_tokens(tok.encode_tokens("chaiखx"))
    assert so_far(events, len(events)).text == "chaiखx" and partial_count(events) == 0


def test_a_decoder_without_a_tokenizer_says_so() -> None:
    with pytest.raises(ValueError, match="feed it bytes"):
        StreamDecoder(None).feed(5)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=40))
def test_naive_parts_are_pythons_replace_decoding(data: bytes) -> None:
    parts = naive_parts(data)
    assert "".join(text for text, _ in parts) == data.decode("utf-8", errors="replace")
    assert all(text == REPLACEMENT for text, bad in parts if bad)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=30), cuts=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=30))
def test_any_chunking_streams_any_text_back(text: str, cuts: list[int]) -> None:
    data = text.encode("utf-8", errors="surrogatepass")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return  # a lone surrogate is not text
    chunks, i, j = [], 0, 0
    while i < len(data):
        size = cuts[j % len(cuts)]
        chunks.append(data[i : i + size])
        i, j = i + size, j + 1
    events = stream_bytes(chunks)
    end = so_far(events, len(events))
    assert end.text == text and end.held == b""
