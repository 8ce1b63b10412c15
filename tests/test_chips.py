"""The token chips: escaping, visible whitespace, partial tokens and the letters they make, lone marks, labels."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lessons
from tests.apptest_helpers import parse_chips
from tests.lesson_data import LESSON4
from tokenizer import train
from ui.chips import (
    CSS,
    HIGHLIGHT_COLOUR,
    PALETTE,
    Chip,
    chip_for_id,
    chip_from_token,
    chips_html,
    merge_html,
    word_rows_html,
)

MARKUP = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def byte_tok():
    preset = lessons.presets()["english-hindi"]
    return train(preset.corpus, preset.merges, **preset.config.to_dict()).tokenizer


@pytest.fixture(scope="module")
def hindi_chars_tok():
    block = LESSON4["hindi_block"]
    return train(block, 10, unit="chars", split="whitespace").tokenizer


# --- User text is text ----------------------------------------------------------


def test_markup_is_escaped() -> None:
    html = chips_html([Chip(MARKUP, 1), Chip("<script>alert(1)</script>", 2), Chip('" onmouseover="x', 3)])
    tree = parse_chips(html)
    assert "img" not in tree.tags and "script" not in tree.tags
    assert set(tree.tags) <= {"div", "span"}
    assert tree.texts == [MARKUP.replace(" ", "·"), "<script>alert(1)</script>", '"·onmouseover="x']
    # The attribute values are escaped too: no element gets an attribute from the text.
    assert not any("onmouseover" in attrs or "onerror" in attrs for attrs in tree.attrs)


def test_markup_through_a_real_tokenizer(byte_tok) -> None:
    chips = [chip_from_token(t) for t in byte_tok.encode_tokens(MARKUP)]
    tree = parse_chips(chips_html(chips))
    assert "img" not in tree.tags
    assert "".join(tree.texts) == MARKUP.replace(" ", "·")


def test_label_and_separator_are_escaped() -> None:
    html = chips_html([Chip("a"), Chip("b")], label="<b>x</b>", separator="<i>")
    assert "<b>" not in html and "<i>" not in html and "&lt;i&gt;" in html


# --- Visible whitespace and invisible characters -----------------------------------


def test_whitespace_is_visible() -> None:
    html = chips_html([Chip(" chai"), Chip("\n"), Chip("\t"), Chip("\r\n")])
    assert parse_chips(html).texts == ["·chai", "↵", "⇥", "␍↵"]
    assert html.count('class="tl-ws"') == 5


def test_line_breaks_after_newline_tokens() -> None:
    chips = [Chip("a\n"), Chip("b"), Chip("\n")]
    assert chips_html(chips, line_breaks=True).count('class="tl-break"') == 1  # not after the last chip
    assert "tl-break" not in chips_html(chips)


@pytest.mark.parametrize(("label", "shown"), [("\x07", "U+0007"), ("a\u202eb", "aU+202Eb"), ("\ufffd", "U+FFFD"),
                                              ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧")])
def test_chips_follow_the_display_rules(label: str, shown: str) -> None:
    """A chip shows exactly what ui.display shows (the rules themselves: tests/test_display.py)."""
    assert parse_chips(chips_html([Chip(label)])).texts == [shown]


# --- Partial tokens ------------------------------------------------------------------


def test_partial_tokens_are_hex_with_a_dashed_mark(byte_tok) -> None:
    tokens = byte_tok.encode_tokens("घने कोहरे")
    partial = [t for t in tokens if not t.whole]
    assert partial, "the k = 1 tokenizer splits Devanagari characters"
    html = chips_html([chip_from_token(t) for t in tokens])
    tree = parse_chips(html)
    assert sum(c.partial for c in tree.chips) == len(partial)
    for token, chip in zip(tokens, tree.chips):
        if not token.whole:
            assert re.search(r"⟨[0-9A-F]{2}( [0-9A-F]{2})*⟩", chip.text), chip
            assert "part of a character" in chip.aria
    assert ".tl-chip.tl-partial{border-style:dashed}" in CSS
    assert '<span class="tl-hex">⟨E0 A4⟩</span>' in html
    assert "\ufffd" not in html


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_no_replacement_character_ever(byte_tok, text: str) -> None:
    html = chips_html([chip_from_token(t) for t in byte_tok.encode_tokens(text)], show_ids=True)
    assert "\ufffd" not in html
    tree = parse_chips(html)
    assert set(tree.tags) <= {"div", "span"}
    assert len(tree.chips) == len(byte_tok.encode_tokens(text))


# --- The letters partial tokens make ------------------------------------------------------


def test_runs_of_partial_tokens_have_their_letters_written_under_them(byte_tok) -> None:
    text = "घने कोहरे"
    tokens = byte_tok.encode_tokens(text)
    tree = parse_chips(chips_html([chip_from_token(t) for t in tokens]))
    # Every reader's character of the Hindi text is under some run (this model splits them all), the
    # vowel sign staying with its letter, and the runs spell the text.
    assert tree.runs == ["घ", "ने", "·को", "ह", "रे"]


def test_no_run_without_a_partial_token() -> None:
    chips = [Chip("क", 1, data="क".encode()), Chip("ि", 2, data="ि".encode())]
    assert parse_chips(chips_html(chips)).runs == []


def test_runs_need_the_bytes() -> None:
    """Chips built without their bytes (an old caller) are drawn without runs, never wrongly."""
    chips = [Chip("⟨E0 A4⟩", 1, whole=False), Chip("⟨95⟩", 2, whole=False)]
    assert parse_chips(chips_html(chips)).runs == []


# --- Combining marks -------------------------------------------------------------------


def test_a_lone_mark_is_drawn_on_a_circle_and_named_on_screen() -> None:
    tree = parse_chips(chips_html([Chip("े", 7), Chip("कि", 8)]))
    assert [c.text for c in tree.chips] == ["◌े", "कि"]
    assert tree.chips[0].name == "vowel sign e" and tree.chips[1].name is None
    assert "vowel sign e on its own" in tree.chips[0].aria


def test_marks_in_a_character_unit_model(hindi_chars_tok) -> None:
    tokens = hindi_chars_tok.encode_tokens("किताबें स्कूलों में")
    lone = [t for t in tokens if unicodedata.category(t.label[0]).startswith("M")]
    assert lone, "few merges leave vowel signs as tokens of their own"
    tree = parse_chips(chips_html([chip_from_token(t) for t in tokens]))
    for token, chip in zip(tokens, tree.chips):
        assert chip.text.startswith("◌") == (token in lone), chip
        assert (chip.name is not None) == (token in lone)
    # Drop the circles and the chips spell the text (spaces were dropped by the pre-split).
    assert "".join(tree.texts).replace("◌", "") == "किताबें स्कूलों में".replace(" ", "")


# --- Labels, ids, colours ------------------------------------------------------------


def test_every_chip_has_a_screen_reader_label_and_tooltip() -> None:
    chips = [Chip("read", 16), Chip("x", None, known=False), Chip("er", 17, count=3, note="new")]
    html = chips_html(chips, label="final tokens")
    assert 'role="list" aria-label="final tokens: 3"' in html  # the label says "tokens": the number alone
    tree = parse_chips(html)
    assert html.count('role="listitem"') == 3
    assert [c.aria for c in tree.chips] == [c.title for c in tree.chips]
    assert tree.chips[0].aria == "token 1: 'read', id 16"
    assert "unseen character 'x', not in the vocabulary" in tree.chips[1].aria
    assert tree.chips[2].aria == "token 3: 'er', id 17, occurs 3 times. new"


def test_ids_toggle() -> None:
    chips = [Chip("read", 16), Chip("x", None, known=False)]
    assert "tl-id" not in chips_html(chips)
    html = chips_html(chips, show_ids=True)
    assert '<span class="tl-id">16</span>' in html and '<span class="tl-id">?</span>' in html


def test_colour_by_position_or_id() -> None:
    chips = [Chip("a", 5), Chip("a", 5), Chip("b", 6)]
    by_pos = re.findall(r"background:(#\w+)", chips_html(chips))
    by_id = re.findall(r"background:(#\w+)", chips_html(chips, colour_by="id"))
    assert by_pos[0] != by_pos[1]
    assert by_id[0] == by_id[1] != by_id[2]


def _luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


@pytest.mark.parametrize("colour", [*PALETTE, HIGHLIGHT_COLOUR, "#FFFFFF"])
def test_black_text_contrast_is_aaa(colour: str) -> None:
    ratio = (_luminance(colour) + 0.05) / 0.05
    assert ratio >= 7.0, (colour, ratio)
    assert "color:#000" in CSS


def test_piece_gaps() -> None:
    chips = [Chip("the", 1, piece=0), Chip("read", 2, piece=1), Chip("er", 3, piece=1)]
    tree = parse_chips(chips_html(chips, mark_pieces=True))
    assert ["tl-piece" in c.classes for c in tree.chips] == [False, True, False]


def test_chip_for_id(byte_tok) -> None:
    chip = chip_for_id(byte_tok, 0xE0)
    assert chip == Chip("⟨E0⟩", 0xE0, whole=False, data=b"\xe0")
    unseen = chip_for_id(byte_tok, -1, "ж", piece=2)
    assert unseen.known is False and unseen.token_id is None and unseen.label == "ж"


def test_merge_line_and_word_rows_escape() -> None:
    html = merge_html(Chip("<a", 1), Chip("b>", 2), Chip("<ab>", 3, highlight=True), before="<x>", after="&")
    tree = parse_chips(html)
    assert set(tree.tags) <= {"div", "span"}
    assert tree.texts == ["<a", "b>", "<ab>"]
    assert "&lt;x&gt;" in html and "&amp;" in html
    rows = word_rows_html([("<b>", [Chip("<b>", 1)], 3)])
    assert "<b>" not in rows and "×3" in rows
    assert '<span class="tl-word-label">&lt;b&gt;</span>' in rows  # the word itself, before its chips




def test_labelled_rows_escape_their_labels_and_notes() -> None:
    from ui.chips import Chip, labelled_rows_html

    html = labelled_rows_html([("<b>start</b>", [Chip("cr"), Chip("icket")], "2 <i>tokens</i>"),
                               ("after a space", [Chip(" cricket")], "1 token")])
    assert "<b>" not in html and "<i>" not in html and "&lt;b&gt;start&lt;/b&gt;" in html
    assert html.count('class="tl-word"') == 2
    assert parse_chips(html).texts == ["cr", "icket", "·cricket"]


# --- What a screen reader hears ------------------------------------------------------


def _list_problems(markup: str) -> list[str]:
    """What breaks ARIA's list rules (axe-core's aria-required-children / -parent): a list owns only list
    items, a list item sits in a list. Elements without a role or a label are looked through, as axe does;
    aria-hidden ones are not read at all."""
    from html.parser import HTMLParser

    problems: list[str] = []
    stack: list[tuple[str, str | None]] = []  # per open element: its role (None: looked through), its tag

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs) -> None:
            a = dict(attrs)
            role = a.get("role")
            if a.get("aria-hidden") == "true":
                role = "hidden"
            elif role is None and "aria-label" in a:
                role = "labelled " + tag
            owner = next((r for _, r in reversed(stack) if r is not None), None)
            if owner == "list" and role not in (None, "listitem", "hidden"):
                problems.append(f"a list owns {role} ({a.get('aria-label', '')})")
            if role == "listitem" and owner != "list":
                problems.append(f"list item outside a list: {a.get('aria-label', '')}")
            if tag not in ("br", "img", "wbr"):
                stack.append((tag, role))

        def handle_endtag(self, tag) -> None:
            if stack:
                stack.pop()

    Parser().feed(markup)
    return problems


def test_a_chip_list_is_named_once() -> None:
    """The issue: "GPT-4o (o200k_base): 17 tokens: 17". The count is said once, as words."""
    chips = [Chip(str(i), i) for i in range(17)]
    assert 'aria-label="GPT-4o (o200k_base): 17 tokens"' in chips_html(chips, label="GPT-4o (o200k_base)")
    assert 'aria-label="Hindi tokens: 17"' in chips_html(chips, label="Hindi tokens")
    assert 'aria-label="GPT-4o: 1,200 tokens, the first 17 shown"' in chips_html(chips, label="GPT-4o", total=1200)
    assert 'aria-label="new token"' in chips_html(chips[:1], label="new token")


def test_chip_markup_follows_the_list_rules(byte_tok) -> None:
    """A list holds list items only (a run of partial tokens is one item, itself a list); every extra (a run's
    letters, a word's count, a row's note) is said in the list's name, not as a stray child of the list."""
    from ui.chips import labelled_rows_html

    hindi = [chip_from_token(t) for t in byte_tok.encode_tokens("घने कोहरे")]
    assert parse_chips(chips_html(hindi)).runs, "the example needs runs"
    html = chips_html(hindi, label="Hindi tokens", separator="|")
    words = word_rows_html([("chai", [Chip("ch", 1), Chip("ai", 2)], 12)])
    rows = labelled_rows_html([("start", [Chip("cr"), Chip("icket")], "2 tokens")])
    merge = merge_html(Chip("a", 1), Chip("b", 2), Chip("ab", 3))
    for markup in (html, words, rows, merge):
        assert _list_problems(markup) == [], markup
    assert 'aria-label="tokens of chai: 2, the word occurs 12 times"' in words
    assert 'aria-label="start: 2 tokens"' in rows
