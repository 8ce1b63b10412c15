"""analyses.textstats: characters, code points, grapheme clusters and UTF-8 bytes.

The lesson 3 figures are the curriculum's published numbers, copied as printed.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyses.textstats import char_info, char_table, graphemes, script_of, text_counts

# "इंदौर साफ़ है" with the nukta typed as its own code point (फ + ़), as the lesson counts it.
INDORE_HI = "इंदौर सा" + "\u092b\u093c" + " है"


# -- Lesson 3 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "code_points", "graphemes_", "n_bytes"),
    [
        ("खबर", 3, 3, 9),  # khabar (news): 3 letters, 9 bytes
        ("khabar", 6, 6, 6),
        ("कि", 2, 1, 6),  # क + the vowel sign ि: one shape, two code points
        ("Indore is clean", 15, 15, 15),
        (INDORE_HI, 13, 8, 35),
        ("if x>=10: print(x)", 18, 18, 18),
    ],
)
def test_lesson3_figures(text: str, code_points: int, graphemes_: int, n_bytes: int) -> None:
    counts = text_counts(text)
    assert (counts.code_points, counts.graphemes, counts.bytes) == (code_points, graphemes_, n_bytes)


def test_lesson3_bytes_per_character() -> None:
    assert text_counts("Indore is clean").bytes_per_char == 1.0
    assert round(text_counts(INDORE_HI).bytes_per_char, 1) == 2.7
    assert text_counts("if x>=10: print(x)").bytes_per_char == 1.0


def test_ki_is_ka_plus_vowel_sign_i() -> None:
    rows = char_table("कि")
    assert [r.code_point for r in rows] == ["U+0915", "U+093F"]
    assert [r.name for r in rows] == ["DEVANAGARI LETTER KA", "DEVANAGARI VOWEL SIGN I"]
    assert [r.utf8 for r in rows] == ["E0 A4 95", "E0 A4 BF"]
    assert [r.category for r in rows] == ["Lo", "Mc"]
    assert graphemes("कि") == ["कि"]


def test_the_nukta_counts_as_its_own_code_point() -> None:
    assert unicodedata.name(INDORE_HI[8]) == "DEVANAGARI LETTER PHA"
    assert unicodedata.name(INDORE_HI[9]) == "DEVANAGARI SIGN NUKTA"


# -- Scripts and their byte costs --------------------------------------------------------------------
def test_every_devanagari_code_point_is_three_bytes() -> None:
    for cp in range(0x0900, 0x0980):
        assert char_info(chr(cp)).n_bytes == 3, f"U+{cp:04X}"


def test_devanagari_letters_are_named_devanagari() -> None:
    letters = [chr(cp) for cp in range(0x0900, 0x0980) if unicodedata.category(chr(cp)) == "Lo"]
    assert len(letters) > 40
    assert {script_of(ch) for ch in letters} == {"Devanagari"}


@pytest.mark.parametrize(
    ("script", "first", "last"),
    [("Tamil", 0x0B80, 0x0BFF), ("Telugu", 0x0C00, 0x0C7F), ("Kannada", 0x0C80, 0x0CFF), ("Bengali", 0x0980, 0x09FF)],
)
def test_south_and_east_indian_letters_are_three_bytes(script: str, first: int, last: int) -> None:
    letters = [chr(cp) for cp in range(first, last + 1) if unicodedata.category(chr(cp)) in ("Lo", "Mn", "Mc")]
    assert len(letters) > 20
    for ch in letters:
        info = char_info(ch)
        assert info.n_bytes == 3, info
        assert info.script == script, info


def test_ascii_letters_are_one_byte() -> None:
    for ch in "abcxyzABCXYZ":
        info = char_info(ch)
        assert (info.n_bytes, info.script) == (1, "Latin")


def test_urdu_letters_are_two_bytes_and_arabic_script() -> None:
    for ch in "اردو":
        info = char_info(ch)
        assert (info.n_bytes, info.script) == (2, "Arabic")


# -- Grapheme clusters -------------------------------------------------------------------------------
def test_emoji_family_with_joiners_is_one_grapheme() -> None:
    family = "👩\u200d👩\u200d👧"
    counts = text_counts(family)
    assert (counts.graphemes, counts.code_points, counts.bytes) == (1, 5, 18)
    assert [r.name for r in char_table(family)][1] == "ZERO WIDTH JOINER"


def test_flag_and_skin_tone_are_one_grapheme_each() -> None:
    assert graphemes("🇮🇳👍🏽") == ["🇮🇳", "👍🏽"]
    assert text_counts("🇮🇳").bytes == 8


def test_combining_accent_joins_its_letter() -> None:
    assert graphemes("e\u0301x") == ["e\u0301", "x"]
    assert char_info("\u0301").script == "Inherited"


def test_crlf_is_one_grapheme() -> None:
    assert graphemes("a\r\nb") == ["a", "\r\n", "b"]


# -- Odd input ---------------------------------------------------------------------------------------
def test_empty_text() -> None:
    counts = text_counts("")
    assert (counts.code_points, counts.graphemes, counts.bytes, counts.words) == (0, 0, 0, 0)
    assert counts.bytes_per_char == 0.0
    assert char_table("") == [] and graphemes("") == []


def test_control_character_gets_a_name() -> None:
    info = char_info("\x00")
    assert info.n_bytes == 1 and info.category == "Cc"
    assert "control" in info.name
    assert info.code_point == "U+0000"


def test_lone_surrogate_does_not_crash() -> None:
    info = char_info("\ud800")
    assert info.n_bytes == 3 and info.category == "Cs"


def test_char_table_limit() -> None:
    assert len(char_table("abcdef", 4)) == 4
    assert len(char_table("abcdef", None)) == 6


# -- Properties --------------------------------------------------------------------------------------
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=60))
def test_counts_agree_with_each_other(text: str) -> None:
    counts = text_counts(text)
    rows = char_table(text)
    assert counts.code_points == len(rows) == len(text)
    assert counts.bytes == sum(r.n_bytes for r in rows) == len(text.encode("utf-8"))
    assert "".join(graphemes(text)) == text
    assert counts.graphemes <= counts.code_points <= counts.bytes
    assert all(1 <= r.n_bytes <= 4 for r in rows)
    assert all(bytes.fromhex(r.utf8) == r.char.encode("utf-8") for r in rows)
