"""On a phone a table shows its first two or three columns: each table's key figure is among them.

The Real tokenizers table opened with English and Hindi counts, and its premium started past a 390-px
screen's edge; Beyond Hindi's × English and the Bytes page's UTF-8 bytes were further still.
"""

from __future__ import annotations

from tests.apptest_helpers import assert_no_exception, run_page


def _columns(page: str, having: str) -> list[str]:
    at = run_page(page)
    assert_no_exception(at)
    frame = next(df.value for df in at.dataframe if having in df.value.columns)
    return list(frame.columns)


def test_real_tokenizers_premium_and_its_parts_come_right_after_the_name() -> None:
    assert _columns("pages/5_Real_tokenizers.py", "Hindi premium")[:4] == [
        "tokenizer", "Hindi premium", "UTF-8 part", "tokenizer part"]


def test_beyond_hindi_times_english_comes_right_after_language_and_tokenizer() -> None:
    assert _columns("pages/7_Beyond_Hindi.py", "× English")[:5] == [
        "language", "tokenizer", "× English", "UTF-8 part", "tokenizer part"]


def test_bytes_per_character_bytes_come_right_after_the_character() -> None:
    assert _columns("pages/4_Bytes_per_character.py", "UTF-8 (hex)")[:4] == ["#", "character", "UTF-8 (hex)", "bytes"]
    assert _columns("pages/4_Bytes_per_character.py", "bytes per grapheme")[:3] == [
        "sample", "bytes per code point", "bytes per grapheme"]
