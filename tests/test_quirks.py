"""Lesson 7, quirks (analyses/quirks.py and RealTokenizer.pieces), measured with the real tokenizers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lessons
from analyses.quirks import (
    FORMATS,
    MAX_FIELDS,
    MAX_RECORDS,
    case_forms,
    count_letter,
    format_variants,
    join_counts,
    letter_counts,
    pieces_starting_with_mark,
    records_from_csv,
    space_forms,
)
from family import real
from tests.lesson_data import LESSON4
from tokenizer import train

CONTENT = lessons.content("quirks")
HINDI = LESSON4["test_hi"]
GPT = ("cl100k_base", "o200k_base")


def load(name: str):
    reason = real.status(name)
    if reason:
        pytest.skip(reason)
    return real.load(name)


# -- joining ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GPT)
def test_counts_do_not_add_up_on_the_default_prompt(name: str) -> None:
    tok = load(name)
    a, b = CONTENT["join"]["a"], CONTENT["join"]["b"]
    j = join_counts(tok, [a, b])
    assert j.counts == (tok.count(a), tok.count(b))
    assert j.total == tok.count(a + b)
    assert j.total < j.sum_of_parts and j.difference == j.total - j.sum_of_parts
    # Where: the space that ends a and the first word of b became one token.
    assert [t.label for t, changed in zip(j.whole, j.whole_changed) if changed] == [" Thick"]
    assert [[t.label for t, c in zip(p, pc) if c] for p, pc in zip(j.parts, j.part_changed)] == [[" "], ["Th", "ick"]]


def test_join_marks_nothing_when_nothing_changes() -> None:
    tok = load("cl100k_base")
    j = join_counts(tok, ["Thick fog", " closed schools"])
    assert j.difference == 0 and not any(j.whole_changed) and not any(any(p) for p in j.part_changed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.text(max_size=15), b=st.text(max_size=15))
def test_join_counts_are_the_tokenizers_own(a: str, b: str) -> None:
    tok = load("o200k_base")
    j = join_counts(tok, [a, b])
    assert j.counts == (tok.count(a), tok.count(b)) and j.total == tok.count(a + b)
    kept = [t.bytes for t, changed in zip(j.whole, j.whole_changed) if not changed]
    flat = [t.bytes for p, pc in zip(j.parts, j.part_changed) for t, c in zip(p, pc) if not c]
    assert kept == flat  # what is not marked is the same tokens, in the same order


# -- formatting -------------------------------------------------------------------------------------------


def test_format_variants_from_the_default_records() -> None:
    records = records_from_csv(CONTENT["formatting"]["records"])
    assert len(records) == 5 and records[1] == {"city": "Indore", "item": "masala chai", "hindi": "मसाला चाय", "price": 15}
    variants = format_variants(records)
    assert list(variants) == list(FORMATS)
    assert records_from_csv(variants["csv"]) == records  # CSV round-trips
    import json

    assert json.loads(variants["compact"]) == json.loads(variants["indented"]) == json.loads(variants["escaped"]) == records
    assert "\\u092a" in variants["escaped"] and "\\u" not in variants["indented"]
    for name in GPT:
        tok = load(name)
        counts = {key: tok.count(text) for key, text in variants.items()}
        # The same records: CSV cheapest, compact JSON next, indentation costs more, escaping most.
        assert counts["csv"] < counts["compact"] < counts["indented"] < counts["escaped"], (name, counts)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "header line"),
        ("a,b", "header line"),
        ("a,,c\n1,2,3", "needs a name"),
        ("a,a\n1,2", "same name"),
        ("a,b\n1,2\n3", "Line 3 has 1 value"),
    ],
)
def test_bad_records_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        records_from_csv(text)


@pytest.mark.parametrize(
    ("text", "records"),
    [
        ("name,city\rAsha,Pune\rRavi,Mumbai", [{"name": "Asha", "city": "Pune"}, {"name": "Ravi", "city": "Mumbai"}]),
        ("name,city\r\nAsha,Pune\r\n", [{"name": "Asha", "city": "Pune"}]),
        ('name,note\nAsha,"two\rlines"', [{"name": "Asha", "note": "two\nlines"}]),  # a quoted line break is kept
        ("a,b\n1\x002,3", [{"a": "1\x002", "b": 3}]),  # a NUL is a character like any other
        ('a,b\n1,"unclosed', [{"a": 1, "b": "unclosed"}]),
        ("item,price\nचाय,१५", [{"item": "चाय", "price": "१५"}]),  # only ASCII digits make a JSON number
    ],
)
def test_any_line_end_and_odd_characters_give_records(text: str, records: list) -> None:
    assert records_from_csv(text) == records


def test_a_bare_carriage_return_from_a_link_is_a_line_break() -> None:
    """Issue 15: ``records=name,city%0AAsha,Pune%0DMumbai`` raised _csv.Error; the CR ends a line."""
    with pytest.raises(ValueError, match="Line 3 has 1 value, but the header names 2 fields"):
        records_from_csv("name,city\nAsha,Pune\rMumbai")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a,b\n" + "1,2\n" * 20_000, "characters of records; this lab reads up to 50,000"),
        ("a,b\n" + '"' + "x" * 200_000 + '",1', "characters of records"),  # beyond the csv module's field limit
        (",".join(f"f{i}" for i in range(MAX_FIELDS + 1)) + "\n1", f"this lab takes up to {MAX_FIELDS} fields"),
        ("a\n" + "1\n" * (MAX_RECORDS + 1), f"more than {MAX_RECORDS:,} records"),
        (",".join("n" * 48 + f"{i:02}" for i in range(40)) + "\n" + "1\n" * 900, "characters of names"),
    ],
    ids=["long text", "huge field", "many fields", "many records", "names written"],
)
def test_records_beyond_the_bounds_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        records_from_csv(text)


CSV_CHARACTERS = st.sampled_from(list(',"\r\n \x00ab1.-\t\u0915\u093e\ufeff\u2028\x85'))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), st.text(CSV_CHARACTERS, max_size=200)))
def test_any_text_gives_records_or_the_labs_own_message(text: str) -> None:
    try:
        records = records_from_csv(text)
    except ValueError as exc:
        assert type(exc) is ValueError and str(exc)  # the lab's message, never csv.Error or another error
        return
    assert 1 <= len(records) <= MAX_RECORDS
    fields = list(records[0])
    assert 1 <= len(fields) <= MAX_FIELDS and all(list(r) == fields for r in records)
    assert format_variants(records)["csv"].count("\n") >= len(records)


COSTLIEST = """
import json, sys, time
from analyses.quirks import MAX_CSV_CHARS, format_variants, records_from_csv
accepted = (  # the costliest records the bounds let in: what JSON writes for them is the page's work
    "a,b\\n" + "1,2\\n" * 999,  # the most records
    ",".join("n" * 38 + f"{i:02}" for i in range(49)) + "\\n" + ("x" + "," * 48 + "\\n") * 50,  # the longest names
    ",".join(f"{i:02}" for i in range(50)) + "\\n" + (",".join("1" * 50) + "\\n") * 490,  # the most fields
    "a\\n" + ("क" * 48 + "\\n") * 1000,  # non-ASCII, which escaped JSON writes six times as long
)
refused = (
    "a,b\\n" + "1,2\\n" * 12_498,
    ",".join("n" * 48 + f"{i:02}" for i in range(40)) + "\\n" + "1\\n" * 900,
    "a,b\\r" * 12_000,
    "a\\n" + "x," * 24_000,
)
start = time.process_time()
made, messages = [], []
for text in accepted:
    made.append(max(len(v) for v in format_variants(records_from_csv(text)).values()))
for text in refused:
    try:
        records_from_csv(text)
        messages.append("")
    except ValueError as exc:
        messages.append(str(exc))
print(json.dumps({"made": made, "messages": messages, "cpu_s": time.process_time() - start}))
"""


def test_the_costliest_records_stay_within_their_bounds() -> None:
    """The records a link can carry, and what they make as JSON, in a subprocess with CPU and memory limits."""
    import json

    from tests.bounded import run_bounded

    done = run_bounded(["-c", COSTLIEST], cpu_limit_s=20, memory_limit=2 * 1024**3)
    assert done.code == 0, done.err[-2000:]
    report = json.loads(done.out.strip().splitlines()[-1])
    assert len(report["made"]) == 4 and max(report["made"]) < 1_000_000, report  # what JSON writes, in characters
    assert all(report["messages"]), report  # each refused with the lab's message
    assert report["cpu_s"] < 5, report
    done.assert_bounded(cpu_s=10, peak_mb=300)


# -- spaces, capitals, letters ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GPT)
def test_a_word_at_the_start_and_after_a_space_are_different_tokens(name: str) -> None:
    tok = load(name)
    forms = dict(space_forms(CONTENT["spaces"]["word"]))
    start, space = tok.encode(forms["start"]), tok.encode(forms["space"])
    assert start != space and len(start) > len(space)  # cricket: 2 tokens at the start, 1 after a space


@pytest.mark.parametrize("name", GPT)
def test_capitals_split_differently(name: str) -> None:
    tok = load(name)
    counts = {key: tok.count(text) for key, text in case_forms(CONTENT["case"]["word"], leading_space=True)}
    assert counts["lower"] == 1 and counts["upper"] > counts["lower"]


@pytest.mark.parametrize(("name", "tokens", "per_token"), [
    ("cl100k_base", ["str", "aw", "berry"], [1, 0, 2]),
    ("o200k_base", ["st", "raw", "berry"], [0, 1, 2]),
])
def test_strawberry_the_model_sees_tokens_not_letters(name: str, tokens: list[str], per_token: list[int]) -> None:
    tok = load(name)
    word, letter = CONTENT["letters"]["word"], CONTENT["letters"]["letter"]
    found = tok.encode_tokens(word)
    assert [t.label for t in found] == tokens
    assert letter_counts([t.bytes for t in found], letter) == per_token
    assert sum(per_token) == count_letter(word, letter) == 3


def test_a_letter_split_across_tokens_is_in_neither() -> None:
    tok = load("cl100k_base")
    tokens = tok.encode_tokens("घने")  # घ is split across two tokens
    assert count_letter("घने", "घ") == 1 and sum(letter_counts([t.bytes for t in tokens], "घ")) == 0


# -- the pre-split ----------------------------------------------------------------------------------------


def test_cl100k_breaks_hindi_words_at_vowel_signs_and_o200k_does_not() -> None:
    gpt4, gpt4o = load("cl100k_base"), load("o200k_base")
    cl, o = gpt4.pieces(HINDI), gpt4o.pieces(HINDI)
    assert "".join(cl) == "".join(o) == HINDI
    # cl100k: vowel signs and viramas are marks, not letters, so they start pieces of their own.
    assert cl[:5] == ["घन", "े", " क", "ोहर", "े"]
    assert len(pieces_starting_with_mark(cl)) >= 5 and len(cl) > len(HINDI.split())
    # o200k: each word is one piece (with its space), and the danda is a piece of its own.
    assert pieces_starting_with_mark(o) == []
    words = HINDI.split()
    assert o == [words[0]] + [" " + w for w in words[1:-1]] + [" " + words[-1][:-1], "।"]


@pytest.mark.parametrize("name", real.NAMES)
def test_pieces_agree_with_each_tokens_piece(name: str) -> None:
    tok = load(name)
    text = HINDI + " Thick fog, 12345!\n  done"
    grouped: dict[int, bytes] = {}
    for t in tok.encode_tokens(text):
        grouped[t.piece] = grouped.get(t.piece, b"") + t.bytes
    assert [g.decode() for g in grouped.values()] == tok.pieces(text)
    assert (tok.pattern is None) == (tok.unit == "chars")  # SentencePiece has no pattern


def test_a_lab_model_has_pieces_too() -> None:
    tok = train("chai chai", 1).tokenizer
    assert tok.pieces("chai wala") == ["chai", " wala"]
