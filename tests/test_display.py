"""The one set of display rules (ui/display.py): every page shows a token, a character or a text through it."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer import plaintext
from ui import display
from ui.display import (
    callout_html,
    describe_token,
    lone_marks,
    mark_name,
    md_code,
    md_escape,
    pair_text,
    plural,
    readable_text,
    token_html,
    visible_token,
)


@pytest.mark.parametrize(
    "label, shown",
    [
        (" chai", "·chai"),
        ("\n", "↵"),
        ("\t", "⇥"),
        ("\r\n", "␍↵"),
        ("", "∅"),
        ("a\u00a0b", "aU+00A0b"),  # a no-break space would look like nothing
        ("\u3000", "U+3000"),
        ("\x07", "U+0007"),
        ("\u202e", "U+202E"),  # right-to-left override: would reorder its neighbours
        ("\ufffd", "U+FFFD"),  # never looks like a broken byte
        ("\u200d", "U+200D"),  # a joiner alone
        ("a\u200d", "aU+200D"),  # a joiner at the edge
        ("👩\u200d👧", "👩\u200d👧"),  # between two characters it does its work
        ("क्\u200dष", "क्\u200dष"),
        ("\ufe0f", "U+FE0F"),  # a lone variation selector
        ("☕\ufe0f", "☕\ufe0f"),
        ("e\u0301", "e\u0301"),  # a mark on its letter stays as it is
    ],
)
def test_token_rules(label: str, shown: str) -> None:
    assert visible_token(label) == shown


@pytest.mark.parametrize(
    "label, shown, marks",
    [
        ("े", "◌े", ["े"]),
        ("ं", "◌ं", ["ं"]),
        ("ि", "◌ि", ["ि"]),
        ("ेगा", "◌ेगा", ["े"]),
        (" ि", "·◌ि", ["ि"]),  # a drawn space is no base for a mark
        ("⟨E0 A4⟩ि", "⟨E0 A4⟩◌ि", ["ि"]),  # nor are stray bytes
        ("कि", "कि", []),
        ("\u0301", "◌\u0301", ["\u0301"]),
    ],
)
def test_a_lone_combining_mark_sits_on_a_dotted_circle(label: str, shown: str, marks: list[str]) -> None:
    assert visible_token(label) == shown
    assert lone_marks(label) == marks


def test_the_anusvara_does_not_look_like_the_space_mark() -> None:
    assert visible_token("ं") != visible_token(" ")
    assert "·" not in visible_token("ं")


@pytest.mark.parametrize(
    "ch, name",
    [("े", "vowel sign e"), ("ा", "vowel sign aa"), ("ं", "anusvara"), ("्", "virama"), ("़", "nukta"),
     ("ँ", "candrabindu"), ("ः", "visarga"), ("\u0301", "acute accent"), ("ு", "vowel sign u")],
)
def test_marks_are_named_in_plain_words(ch: str, name: str) -> None:
    assert mark_name(ch) == name


def test_describe_names_lone_marks_for_screen_readers() -> None:
    assert describe_token("े") == "'◌े' (vowel sign e on its own)"
    assert describe_token("कि") == "'कि'"


def test_hex_groups_are_kept() -> None:
    assert visible_token("⟨E0 A4⟩") == "⟨E0 A4⟩"
    assert visible_token(" न⟨E0⟩") == "·न⟨E0⟩"


def test_html_escapes_and_marks_each_kind() -> None:
    html = token_html("<b> ⟨E0⟩\u0007")
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert '<span class="tl-ws">·</span>' in html
    assert '<span class="tl-hex">⟨E0⟩</span>' in html
    assert '<span class="tl-cp">U+0007</span>' in html
    assert '<span class="tl-lone">◌े</span>' in token_html("े")


@given(st.text(max_size=20))
@settings(max_examples=300, deadline=None)
def test_plain_and_html_show_the_same_text(label: str) -> None:
    """The two renderings never disagree: stripping the tags of the HTML gives the plain text."""
    import html as html_lib

    plain = re.sub(r"<[^>]+>", "", token_html(label))
    assert html_lib.unescape(plain) == visible_token(label)


@given(st.text(max_size=20))
@settings(max_examples=300, deadline=None)
def test_nothing_shown_is_invisible_or_reorders(label: str) -> None:
    shown = visible_token(label)
    for i, ch in enumerate(shown):
        cat = unicodedata.category(ch)
        assert cat not in ("Cc", "Cs", "Zl", "Zp") and ch not in "\u202e\u202d\u2066\u2067\u2068\u2069\ufffd"
        assert cat != "Zs", "spaces are drawn as ·, other spaces by their code point"
        if cat.startswith("M") and not plaintext.is_variation_selector(ch):
            assert i > 0, f"a mark needs a base: {shown!r}"


def test_readable_text_keeps_words_and_emoji() -> None:
    assert readable_text("Family 👩\u200d👩\u200d👧\nhi\t!") == "Family 👩\u200d👩\u200d👧↵hi⇥!"
    assert readable_text("a\x1bb") == "aU+001Bb"
    assert readable_text("abcdef", limit=3) == "abc…"


def test_pair_text() -> None:
    assert pair_text(" c", "ha") == "·c + ha"


@pytest.mark.parametrize(
    "text, code",
    [("chai", "`chai`"), ("a`b", "``a`b``"), ("`x", "`` `x ``"), (" x\n", "`·x↵`"), ("", "`∅`")],
)
def test_md_code(text: str, code: str) -> None:
    assert md_code(text) == code


def test_md_escape() -> None:
    escaped = md_escape("**b** <img src=x> [l](u) :red[x] $x$ :material/home:")
    assert re.search(r"(?<!\\)[*<>\[\]()$:`_]", escaped) is None  # every special character is escaped
    assert ":\u2060material" in escaped.replace("\\", "")
    assert re.sub(r"\\(.)", r"\1", escaped).replace("\u2060", "") == "**b** <img src=x> [l](u) :red[x] $x$ :material/home:"


def test_callout_escapes_and_keeps_line_breaks() -> None:
    html = callout_html("<script>x</script>\nline 2", "warning")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "white-space:pre-wrap" in html and 'role="alert"' in html


@pytest.mark.parametrize("n, words", [(0, "0 pairs"), (1, "1 pair"), (2, "2 pairs"), (1000, "1,000 pairs")])
def test_plural(n: int, words: str) -> None:
    assert plural(n, "pair") == words


# -- tokens as a line of text (feedback, answer keys, worksheets) ---------------------------------------
def test_tokens_text_writes_the_letters_after_the_bytes_that_make_them() -> None:
    from tokenizer.labels import bytes_label

    data = " घने".encode()
    pieces = [data[:1], data[1:3], data[3:4], data[4:7], data[7:]]  # · ⟨E0 A4⟩ ⟨98⟩ न े
    shown = display.tokens_text([(bytes_label(p), p) for p in pieces])
    assert shown == "· | ⟨E0\u00a0A4⟩ | ⟨98⟩ (घ) | न | ◌े (vowel sign e)"
    # A byte pair never breaks across lines (no ordinary space inside ⟨ ⟩), and each token is as the chips show it.
    assert not re.search(r"⟨[^⟩]* [^⟩]*⟩", shown)


def test_tokens_text_without_bytes_shows_the_tokens_by_the_token_rules() -> None:
    assert display.tokens_text([(" chai", None), ("े", None)]) == "·chai | ◌े (vowel sign e)"
    assert display.tokens_text([]) == ""
    # A token that is the separator itself: every token in quotes, so the line can be read back.
    assert display.tokens_text([("<", None), ("|", None), ("endo", None)]) == "“<” | “|” | “endo”"


@pytest.mark.parametrize(("value", "unit", "shown"), [
    (1, "tokens", "1 token"), (1.0, "code points", "1 code point"), (2, "code points", "2 code points"),
    (0, "bytes", "0 bytes"), (7650.0, "tokens", "7,650 tokens"), (2.46, "rupees", "2.46 rupees"),
    (1, "grapheme clusters", "1 grapheme cluster"), ("the first", "", "the first"),
])
def test_an_answer_with_its_unit_follows_the_plural_rule(value, unit: str, shown: str) -> None:
    assert display.quantity(value, unit) == shown
