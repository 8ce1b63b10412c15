"""The token chips: escaping, visible whitespace, partial tokens, combining marks, labels, contrast."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lessons
from tokenizer import train
from ui.chips import (
    CSS,
    HIGHLIGHT_COLOUR,
    PALETTE,
    Chip,
    chip_for_id,
    chip_from_token,
    chips_html,
    md_code,
    md_escape,
    merge_html,
    visible_plain,
    visible_text,
    word_rows_html,
)

MARKUP = "<img src=x onerror=alert(1)>"


class _Tree(HTMLParser):
    """Collects tags, chip attributes and each chip's text as a browser would show it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.chips: list[dict] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)
        attrs = dict(attrs)
        if self.depth:
            self.depth += 1
        elif "tl-chip" in (attrs.get("class") or "").split():
            self.chips.append({**attrs, "text": ""})
        elif attrs.get("class") == "tl-text":
            self.depth = 1

    def handle_endtag(self, tag) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data) -> None:
        if self.depth:
            self.chips[-1]["text"] += data


def parse(html: str) -> _Tree:
    tree = _Tree()
    tree.feed(html)
    return tree


@pytest.fixture(scope="module")
def byte_tok():
    preset = lessons.presets()["english-hindi"]
    return train(preset.corpus, preset.merges, **preset.train_kwargs()).tokenizer


@pytest.fixture(scope="module")
def hindi_chars_tok():
    block = lessons.data("lesson4_english_hindi")["hindi_block"]
    return train(block, 10, unit="chars", split="whitespace").tokenizer


# --- User text is text ----------------------------------------------------------


def test_markup_is_escaped() -> None:
    html = chips_html([Chip(MARKUP, 1), Chip("<script>alert(1)</script>", 2), Chip('" onmouseover="x', 3)])
    tree = parse(html)
    assert "img" not in tree.tags and "script" not in tree.tags
    assert set(tree.tags) <= {"div", "span"}
    assert [c["text"] for c in tree.chips] == [MARKUP.replace(" ", "·"), "<script>alert(1)</script>", '"·onmouseover="x']
    # The attribute values are escaped too: each chip has exactly its own attributes.
    assert all(set(c) == {"class", "style", "role", "title", "aria-label", "text"} for c in tree.chips)
    assert "onmouseover" not in [k for c in tree.chips for k in c]


def test_markup_through_a_real_tokenizer(byte_tok) -> None:
    chips = [chip_from_token(t) for t in byte_tok.encode_tokens(MARKUP)]
    tree = parse(chips_html(chips))
    assert "img" not in tree.tags
    assert "".join(c["text"] for c in tree.chips) == MARKUP.replace(" ", "·")


def test_label_and_separator_are_escaped() -> None:
    html = chips_html([Chip("a"), Chip("b")], label="<b>x</b>", separator="<i>")
    assert "<b>" not in html and "<i>" not in html and "&lt;i&gt;" in html


# --- Visible whitespace and invisible characters -----------------------------------


def test_whitespace_is_visible() -> None:
    html = chips_html([Chip(" chai"), Chip("\n"), Chip("\t"), Chip("\r\n")])
    assert [c["text"] for c in parse(html).chips] == ["·chai", "↵", "⇥", "␍↵"]
    assert html.count('class="tl-ws"') == 5


def test_line_breaks_after_newline_tokens() -> None:
    chips = [Chip("a\n"), Chip("b"), Chip("\n")]
    assert chips_html(chips, line_breaks=True).count('class="tl-break"') == 1  # not after the last chip
    assert "tl-break" not in chips_html(chips)


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        ("\x07", "U+0007"),
        ("\x00", "U+0000"),
        ("a\u202eb", "aU+202Eb"),  # a bidi override would reverse what follows
        ("\u200d", "U+200D"),  # a lone joiner
        ("\u200dक", "U+200Dक"),  # a joiner at the edge of a token
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # joiners inside an emoji stay: one family emoji
        ("क्\u200dष", "क्\u200dष"),
        ("\ufffd", "U+FFFD"),  # a literal replacement character is not mistaken for a broken byte
    ],
)
def test_invisible_and_reordering_characters(label: str, shown: str) -> None:
    assert visible_plain(label) == shown
    assert parse(chips_html([Chip(label)])).chips[0]["text"] == shown


# --- Partial tokens ------------------------------------------------------------------


def test_partial_tokens_are_hex_with_a_dashed_mark(byte_tok) -> None:
    tokens = byte_tok.encode_tokens("घने कोहरे")
    partial = [t for t in tokens if not t.whole]
    assert partial, "the k = 1 tokenizer splits Devanagari characters"
    html = chips_html([chip_from_token(t) for t in tokens])
    tree = parse(html)
    assert sum("tl-partial" in c["class"] for c in tree.chips) == len(partial)
    for token, chip in zip(tokens, tree.chips):
        if not token.whole:
            assert re.search(r"⟨[0-9A-F]{2}( [0-9A-F]{2})*⟩", chip["text"]), chip
            assert "part of a character" in chip["aria-label"]
    assert ".tl-chip.tl-partial{border-style:dashed}" in CSS
    assert '<span class="tl-hex">⟨E0 A4⟩</span>' in html
    assert "\ufffd" not in html


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_no_replacement_character_ever(byte_tok, text: str) -> None:
    html = chips_html([chip_from_token(t) for t in byte_tok.encode_tokens(text)], show_ids=True)
    assert "\ufffd" not in html
    tree = parse(html)
    assert set(tree.tags) <= {"div", "span"}
    assert len(tree.chips) == len(byte_tok.encode_tokens(text))


# --- Combining marks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "html"),
    [
        ("ि", '<span class="tl-lone">\u00a0ि</span>'),  # a vowel sign alone sits on a no-break space
        ("ों", '<span class="tl-lone">\u00a0ों</span>'),  # two marks: one base
        ("कि", "कि"),  # a mark after its letter needs nothing
        ("िए", '<span class="tl-lone">\u00a0ि</span>ए'),
        (" ि", '<span class="tl-ws">·</span><span class="tl-lone">\u00a0ि</span>'),  # after a drawn space
        ("\x07ि", '<span class="tl-cp">U+0007</span><span class="tl-lone">\u00a0ि</span>'),
    ],
)
def test_leading_combining_marks_get_a_base(label: str, html: str) -> None:
    assert visible_text(label) == html


def test_marks_after_hex_bytes_get_a_base() -> None:
    html = chips_html([Chip("⟨A4⟩ि", whole=False)])
    assert '<span class="tl-hex">⟨A4⟩</span><span class="tl-lone">\u00a0ि</span>' in html


def test_marks_in_a_character_unit_model(hindi_chars_tok) -> None:
    tokens = hindi_chars_tok.encode_tokens("किताबें स्कूलों में")
    lone = [t for t in tokens if unicodedata.category(t.label[0]).startswith("M")]
    assert lone, "few merges leave vowel signs as tokens of their own"
    tree = parse(chips_html([chip_from_token(t) for t in tokens]))
    for token, chip in zip(tokens, tree.chips):
        if token in lone:
            assert chip["text"].startswith("\u00a0"), chip
            assert "on its own" in chip["aria-label"]
        else:
            assert not chip["text"].startswith("\u00a0")
    # Drop the no-break spaces and the chips spell the text (spaces were dropped by the pre-split).
    assert "".join(c["text"] for c in tree.chips).replace("\u00a0", "") == "किताबें स्कूलों में".replace(" ", "")


def test_table_text_can_carry_a_base_too() -> None:
    assert visible_plain("ि") == "ि"
    assert visible_plain("ि", mark_base=True) == "\u00a0ि"
    assert visible_plain("कि", mark_base=True) == "कि"
    assert visible_plain(" ⟨E0 A4⟩ि", mark_base=True) == "·⟨E0 A4⟩\u00a0ि"


# --- Labels, ids, colours ------------------------------------------------------------


def test_every_chip_has_a_screen_reader_label_and_tooltip() -> None:
    chips = [Chip("read", 16), Chip("x", None, known=False), Chip("er", 17, count=3, note="new")]
    html = chips_html(chips, label="final tokens")
    assert 'role="list" aria-label="final tokens: 3"' in html
    tree = parse(html)
    assert [c["role"] for c in tree.chips] == ["listitem"] * 3
    assert [c["aria-label"] for c in tree.chips] == [c["title"] for c in tree.chips]
    assert tree.chips[0]["aria-label"] == "token 1: 'read', id 16"
    assert "unseen character 'x', not in the vocabulary" in tree.chips[1]["aria-label"]
    assert tree.chips[2]["aria-label"] == "token 3: 'er', id 17, occurs 3 times. new"


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
    tree = parse(chips_html(chips, mark_pieces=True))
    assert ["tl-piece" in c["class"] for c in tree.chips] == [False, True, False]


def test_chip_for_id(byte_tok) -> None:
    chip = chip_for_id(byte_tok, 0xE0)
    assert chip == Chip("⟨E0⟩", 0xE0, whole=False)
    unseen = chip_for_id(byte_tok, -1, "ж", piece=2)
    assert unseen.known is False and unseen.token_id is None and unseen.label == "ж"


def test_merge_line_and_word_rows_escape() -> None:
    html = merge_html(Chip("<a", 1), Chip("b>", 2), Chip("<ab>", 3, highlight=True), before="<x>", after="&")
    tree = parse(html)
    assert set(tree.tags) <= {"div", "span"}
    assert [c["text"] for c in tree.chips] == ["<a", "b>", "<ab>"]
    assert "&lt;x&gt;" in html and "&amp;" in html
    rows = word_rows_html([([Chip("<b>", 1)], 3)])
    assert "<b>" not in rows and "×3" in rows


# --- Markdown helpers ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("read", "`read`"),
        ("a`b", "``a`b``"),
        ("`x", "`` `x ``"),
        (" er", "`·er`"),
        (":material/home:", "`:\u2060material/home:`"),
    ],
)
def test_md_code(text: str, code: str) -> None:
    assert md_code(text) == code


def test_md_escape() -> None:
    escaped = md_escape("**b** <img src=x> [l](u) :red[x] $x$ :material/home:")
    assert re.search(r"(?<!\\)[*<>\[\]()$:`_]", escaped) is None  # every special character is escaped
    assert ":\u2060material" in escaped.replace("\\", "")
    assert re.sub(r"\\(.)", r"\1", escaped).replace("\u2060", "") == "**b** <img src=x> [l](u) :red[x] $x$ :material/home:"


# --- The first tokens of a long text ---------------------------------------------------


@pytest.fixture(scope="module")
def gpt2_split_tok():
    from tokenizer import GPT2_PATTERN

    return train("the reader reads   the readable reader\n\n  ok " * 3, 20, pattern=GPT2_PATTERN).tokenizer


@settings(max_examples=40, deadline=None)
@given(text=st.text(st.sampled_from(list("ab  \n\tक़ि👩\u200d😀.,re")), min_size=1, max_size=30), limit=st.integers(1, 40),
       which=st.sampled_from(["bytes", "chars", "gpt2"]))
def test_first_tokens_match_encode_tokens(byte_tok, hindi_chars_tok, gpt2_split_tok, text: str, limit: int, which: str) -> None:
    from ui.chips import first_tokens

    tok = {"bytes": byte_tok, "chars": hindi_chars_tok, "gpt2": gpt2_split_tok}[which]
    long_text = text * (2000 // len(text) + 1)  # long enough for the prefix path
    assert first_tokens(tok, long_text, limit) == tok.encode_tokens(long_text)[:limit]
