"""Beyond Hindi's engine side: the premium per character or letter, raw-byte counting, the language samples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lessons
from analyses.measure import PER, Premium, byte_measure, char_measure, measure, premium
from analyses.textstats import text_counts
from family import real
from tests.lesson_data import LESSON4
from tokenizer import train

BYTES = train("aa bb", 0, unit="bytes").tokenizer  # a byte-level tokenizer with no merges


@pytest.fixture(scope="module")
def samples():
    found, missing = lessons.language_samples()
    return found, missing


def test_at_least_twenty_languages_in_many_scripts(samples) -> None:
    found, missing = samples
    spec = lessons.data("languages")
    assert missing == ()
    assert found[0].id == spec["english"]["id"] == "en_Latn"
    assert len(found) - 1 == len(spec["languages"]) >= 20
    assert len({s.script for s in found}) >= 15
    assert {s.group for s in found[1:]} == set(spec["groups"])
    hindi = next(s for s in found if s.id == "hi_Deva")
    assert hindi.script == "Devanagari" and hindi.native == "हिन्दी"


def test_each_sample_is_its_tester_line_and_the_passages_after_it(samples) -> None:
    """Against gflanguages' own loaders (every record of the package), which the lab no longer runs."""
    from gflanguages import LoadLanguages, LoadScripts

    known, scripts = LoadLanguages(), LoadScripts()
    ids = [s.id for s in samples[0]]
    assert lessons._gflanguages_records("languages", ids) == {i: known[i] for i in ids}
    for s in samples[0]:
        assert s.line == known[s.id].sample_text.tester.strip()
        assert s.script == scripts[known[s.id].script].name
        assert s.line in s.text, s.label
        passages = s.text.split("\n")
        assert len(set(passages)) == len(passages), s.label  # a passage gflanguages repeats is read once
    # Most languages have passages well beyond their one line (a few only repeat Article 1).
    assert sum(len(s.text) > 500 for s in samples[0]) >= 20


def test_a_record_not_where_its_id_says_is_looked_for_in_the_whole_set(monkeypatch) -> None:
    import gflanguages

    whole = {"hi_Deva": gflanguages.LanguageProto(id="hi_Deva"), "zz_Else": gflanguages.LanguageProto(id="zz_Else")}
    monkeypatch.setattr(gflanguages, "LoadLanguages", lambda: whole)  # another layout: the id names no file
    assert lessons._gflanguages_records("languages", ["zz_Else"]) == {"zz_Else": whole["zz_Else"]}
    assert lessons._gflanguages_records("languages", ["zz_None"]) == {}


def test_no_gflanguages_is_a_clear_message(monkeypatch) -> None:
    import builtins

    original = builtins.__import__

    def no_gflanguages(name, *args, **kwargs):
        if name == "gflanguages":
            raise ImportError(name)
        return original(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_gflanguages)
    with pytest.raises(lessons.SamplesUnavailable, match="gflanguages package, which is not installed"):
        lessons.language_samples()


# -- the premium, per unit ---------------------------------------------------------------------------------
def test_per_text_is_the_real_tokenizers_premium() -> None:
    tok = real.load("cl100k_base")
    p = premium(tok, LESSON4["test_en"], LESSON4["test_hi"])
    assert (p.english.tokens, p.hindi.tokens, p.per) == (11, 47, "text")
    assert p.premium == pytest.approx(47 / 11)


def test_per_character_divides_each_side_by_its_characters() -> None:
    tok = real.load("o200k_base")
    en, hi = LESSON4["test_en"], LESSON4["test_hi"]
    p = premium(tok, en, hi, per="char")
    expected = (tok.count(hi) / len(hi)) / (tok.count(en) / len(en))
    assert p.premium == pytest.approx(expected)
    assert p.utf8_part == pytest.approx((len(hi.encode()) / len(hi)) / (len(en.encode()) / len(en)))
    g = premium(tok, en, hi, per="grapheme")
    assert g.premium == pytest.approx((tok.count(hi) / text_counts(hi).graphemes) / (tok.count(en) / len(en)))
    assert g.tokenizer_part == p.tokenizer_part  # tokens per byte does not care what a unit is


@settings(max_examples=60, deadline=None)
@given(en=st.text(min_size=1, max_size=40), other=st.text(min_size=1, max_size=40), per=st.sampled_from(PER))
def test_the_premium_is_always_its_two_parts(en: str, other: str, per: str) -> None:
    p = premium(BYTES, en, other, per=per)
    assert p.premium == pytest.approx(p.utf8_part * p.tokenizer_part)
    assert p.tokenizer_part == pytest.approx(1.0)  # no merges: a token is a byte


def test_raw_bytes_are_a_tokenizer_with_no_merges() -> None:
    for text in ("news", "खबर", LESSON4["test_hi"], "👩‍👩‍👧 ok", ""):
        assert byte_measure(text) == measure(BYTES, text)
    assert char_measure("खबर").tokens == 3


def test_empty_text_gives_zero_not_an_error() -> None:
    p = Premium(byte_measure(""), byte_measure("खबर"), "char")
    assert (p.premium, p.utf8_part, p.tokenizer_part) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="per must be one of"):
        Premium(byte_measure("a"), byte_measure("b"), "word")
