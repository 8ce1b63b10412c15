"""The last English words of the Hindi lab (issue 28): each is in the catalogue or beside its English in the data,
shown in Hindi in a Hindi run, and the English is what it was."""

from __future__ import annotations

from i18n import using
from ui.uploads import decode_text_file


# -- the upload kit's own words ------------------------------------------------------------------------------------
def test_an_empty_or_too_big_text_file_is_refused_in_the_runs_language() -> None:
    assert decode_text_file(b" \n") == (
        None, "This file is empty. Upload a .txt file with some text in it, or type your text instead.")
    big = decode_text_file(b"x" * 1_234_567, limit_bytes=1_000_000)[1]
    assert big == ("This file is 1,234,567 bytes; the limit is 1 MB (1,000,000 bytes). Upload a shorter extract "
                   "(a chapter or a few articles is plenty to see BPE at work).")
    with using("hi"):
        assert decode_text_file(b"") == (
            None, "यह फ़ाइल ख़ाली है। कुछ टेक्स्ट वाली .txt फ़ाइल अपलोड कीजिए, या अपना टेक्स्ट टाइप कर दीजिए।")
        big = decode_text_file(b"x" * 1_234_567, limit_bytes=1_000_000)[1]
        assert big is not None and big.startswith("यह फ़ाइल 12,34,567 बाइट की है; सीमा 1 MB (10,00,000 बाइट) है।")
        wide = decode_text_file("chai".encode("utf-16-le"))[1]
        assert wide is not None and wide.startswith("यह फ़ाइल UTF-8 में नहीं")
