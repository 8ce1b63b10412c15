"""The translation module (i18n/, issue 28): the catalogue is complete and keeps the glossary, the check sees what it
says it sees, numbers are grouped as each language groups them, plurals follow each language's rule, and the
language is the run's, never the process's."""

from __future__ import annotations

import doctest
import importlib
import threading
import unicodedata
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.numbers import format_decimal
from hypothesis import given
from hypothesis import strategies as st

import i18n
from i18n import _, _n, localized, number, using
from i18n.catalog import po_path, pseudo, read_catalogue
from i18n.numbers import decimal, money
from i18n.tool import (
    calls_in_fstrings,
    check,
    content_problems,
    extract_messages,
    fstring_calls,
    glossary,
    glossary_problems,
    message_problems,
    rebound_underscore,
    write_catalogue,
)


@pytest.mark.parametrize("name", ["i18n", "i18n.catalog", "i18n.numbers", "ui.language"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and result.failed == 0


# -- the catalogue ------------------------------------------------------------------------------------------------
def test_the_catalogues_are_complete() -> None:
    """What scripts/test checks: every message of the code is in the Hindi catalogue with its Hindi, none fuzzy,
    placeholders and marks as in the English, the glossary's forms, no f-string in _(), no _ rebound, and the
    content records carry their Hindi."""
    assert check() == []


def test_the_catalogue_is_written_as_the_tool_writes_it(tmp_path: Path) -> None:
    """The .po is in the tool's own form (no line numbers, no wrapping), so `python -m i18n extract` after an edit
    changes only what the edit changed."""
    rewritten = tmp_path / "lab.po"
    write_catalogue(read_catalogue("hi"), rewritten)
    assert rewritten.read_bytes() == po_path("hi").read_bytes()


def test_the_catalogue_holds_exactly_the_codes_messages() -> None:
    in_code = {m.id if isinstance(m.id, str) else m.id[0] for m in extract_messages() if m.id}
    in_po = {m.id if isinstance(m.id, str) else m.id[0] for m in read_catalogue("hi") if m.id}
    assert in_code == in_po and len(in_po) > 150


def test_the_plural_rule_is_hindis() -> None:
    """The catalogue's Plural-Forms is CLDR's for Hindi (one: 0 and 1), and _n picks the form by it."""
    assert read_catalogue("hi").plural_forms == get_plural("hi").plural_forms
    leaf = ("Its {n} leaf, left to right: the token's bytes", "Its {n} leaves, left to right: the token's bytes")
    with using("hi"):
        assert [_n(*leaf, n).split(":")[0].removesuffix(", बाएँ से दाएँ") for n in (0, 1, 2, 100000)] == [
            "इसका 0 पत्ता", "इसका 1 पत्ता", "इसके 2 पत्ते", "इसके 1,00,000 पत्ते"]
    assert [_n(*leaf, n).split(",")[0] for n in (0, 1, 2)] == ["Its 0 leaves", "Its 1 leaf", "Its 2 leaves"]


def test_a_fuzzy_translation_is_not_shown(monkeypatch, tmp_path: Path) -> None:
    """A message whose English changed keeps its old Hindi marked fuzzy: until it is reviewed, the English shows."""
    from i18n import catalog

    text = po_path("hi").read_text(encoding="utf-8")
    fuzzy = text.replace('msgid "Try:"', '#, fuzzy\nmsgid "Try:"', 1)
    assert fuzzy != text
    tmp = tmp_path / "lab.po"
    try:
        tmp.write_text(fuzzy, encoding="utf-8")
        monkeypatch.setattr(catalog, "po_path", lambda lang: tmp)
        catalog.translations.cache_clear()
        with using("hi"):
            assert _("Try:") == "Try:" and _("Text") == "टेक्स्ट"
    finally:
        monkeypatch.undo()
        catalog.translations.cache_clear()
    with using("hi"):
        assert _("Try:") == "आज़माइए:"


# -- what the check sees ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("english", "hindi", "flags", "problem"), [
    ("Text", "", (), "no translation"),
    ("Text", "टेक्स्ट", ("fuzzy",), "fuzzy"),
    ("{n} of {m}", "{n} में से", (), "placeholders"),
    ("{n} of {m}", "{m} में से {n} {x}", (), "placeholders"),
    ("**Tokens** here", "**टोकन यहाँ", (), "'**' appears"),
    ("`id` column", "id कॉलम", (), "'`' appears"),
])
def test_the_check_sees_a_bad_translation(english, hindi, flags, problem) -> None:
    found = message_problems(Message(english, hindi, flags=flags))
    assert len(found) == 1 and found[0].startswith(problem), found
    assert message_problems(Message(english, hindi.replace("**टोकन", "**टोकन**") if "**" in english else
                                    "`id` कॉलम" if "`" in english else "{m} में से {n}" if "{" in english else
                                    "टेक्स्ट")) == []


def test_a_plural_form_may_leave_the_number_out_but_nothing_else() -> None:
    assert message_problems(Message(("{n} leaf of {t}", "{n} leaves of {t}"), ("एक पत्ता: {t}", "{n} पत्ते: {t}"))) == []
    assert message_problems(Message(("{n} leaf of {t}", "{n} leaves of {t}"), ("एक पत्ता", "{n} पत्ते: {t}")))


def test_the_glossary_check_sees_a_word_not_in_its_form() -> None:
    catalogue = Catalog(locale="hi")
    catalogue.add("Each merge", "हर जोड़ना")  # not the glossary's form
    catalogue.add("Merge them", "इन्हें मर्ज (विलय) कीजिए")  # the glossary's form, and one it rules out
    catalogue.add("The pair counts", "जोड़ियों की गिनती")  # an inflected form of जोड़ी: fine
    catalogue.add("tokens {first} to {last} make {text}", "टोकन {first} से {last} मिलकर {text} बनाते हैं")  # a
    # placeholder named text is not the word
    found = glossary_problems(catalogue)
    assert len(found) == 2 and all("merge" in p for p in found), found


def test_the_glossary_is_one_form_a_word() -> None:
    terms = glossary()
    assert len({t["en"] for t in terms}) == len(terms) >= 20
    assert all(t["hi"] not in t.get("avoid", []) for t in terms)
    by_word = {t["en"]: t["hi"] for t in terms}
    assert (by_word["token"], by_word["merge"], by_word["tokenizer"], by_word["byte"]) == ("टोकन", "मर्ज", "टोकनाइज़र",
                                                                                           "बाइट")


def _project(tmp_path: Path, source: str) -> Path:
    (tmp_path / "views").mkdir(parents=True)
    (tmp_path / "views" / "page.py").write_text(source, encoding="utf-8")
    return tmp_path


def test_the_check_sees_an_fstring_given_to_the_translation(tmp_path: Path) -> None:
    root = _project(tmp_path, 'from i18n import _\nname = "x"\nA = _(f"Hello {name}")\nB = _("Hello {name}", name=name)\n')
    assert fstring_calls(root) == ["views/page.py:3"]


def test_the_check_sees_a_message_inside_an_fstring(tmp_path: Path) -> None:
    """Babel does not extract a message written inside an f-string's braces (Streaming's 'nothing yet' was English in
    Hindi so): the check finds it; a message called first, or a variable's translation, is fine."""
    root = _project(tmp_path, 'from i18n import _\nunit = "x"\nA = f"<i>{_(\'nothing yet\')}</i>"\n'
                              'B = _("nothing")\nC = f"<i>{B}</i> {_(unit)}"\n')
    assert calls_in_fstrings(root) == ["views/page.py:3"]


@pytest.mark.parametrize("source", [
    "rows = []\nnames = [_('x') + b for _, b in rows]\n",  # the linter does not see this one
    "rows = []\nfor _, b in rows:\n    pass\n",
    "rows = []\nfirst, *_ = rows\n",
    "rows = []\n_ = rows\n",
])
def test_the_check_sees_the_translation_rebound_as_a_throwaway(tmp_path: Path, source: str) -> None:
    assert rebound_underscore(_project(tmp_path, "from i18n import _\n" + source)) == ["views/page.py:3"]
    assert rebound_underscore(_project(tmp_path / "other", source)) == []  # a module that does not translate


def test_every_content_record_has_its_hindi(tmp_path: Path) -> None:
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "examples.toml").write_text(
        '[[tokenize]]\nlabel = "Numbers"\nhi = { label = "संख्याएँ" }\ntext = "1"\n\n[[tokenize]]\nlabel = "Code"\n'
        'text = "x"\n', encoding="utf-8")
    assert content_problems(tmp_path) == ["lessons/examples.toml [[tokenize]] 2 ('Code') has no hi label"]
    (tmp_path / "lessons" / "data").mkdir()  # a JSON content file: a sample with its note in English only
    (tmp_path / "lessons" / "data" / "sample_texts.json").write_text(
        '{"examples": [{"label": "कि", "note": "Two code points.", "hi": {"label": "कि"}}]}', encoding="utf-8")
    assert content_problems(tmp_path)[1:] == ["lessons/data/sample_texts.json [[examples]] 1 ('कि') has no hi note"]


def test_every_devanagari_mark_has_a_name_in_the_catalogue() -> None:
    """A lone vowel sign drawn on ◌ is named under its chip in the learner's language (ui.chips.mark_label)."""
    from tokenizer.plaintext import mark_name
    from ui.chips import DEVANAGARI_MARK_NAMES, mark_label

    marks = [chr(cp) for cp in range(0x900, 0x980) if unicodedata.category(chr(cp)) in ("Mn", "Mc")]
    assert {mark_name(m) for m in marks} == set(DEVANAGARI_MARK_NAMES)
    with using("hi"):
        assert mark_label("े") == "ए की मात्रा" and mark_label("्") == "हलंत"
    assert mark_label("े") == "vowel sign e"


# -- numbers ------------------------------------------------------------------------------------------------------
@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_numbers_are_grouped_as_each_language_groups_them(n: int) -> None:
    """English as Python writes it; Hindi as Babel's hi_IN pattern (CLDR) does, with the same digits."""
    assert number(n, "en") == f"{n:,}"
    assert number(n, "hi") == format_decimal(n, locale="hi_IN")
    assert number(n, "hi").replace(",", "") == str(n)


@given(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False), st.integers(min_value=0, max_value=4))
def test_decimals_have_the_same_digits_in_both_languages(x: float, places: int) -> None:
    assert decimal(x, places, "en") == f"{x:,.{places}f}"
    assert decimal(x, places, "hi").replace(",", "") == decimal(x, places, "en").replace(",", "")


def test_indian_grouping_examples() -> None:
    assert [number(n, "hi") for n in (999, 1000, 99999, 100000, 1234567, 123456789)] == [
        "999", "1,000", "99,999", "1,00,000", "12,34,567", "12,34,56,789"]
    assert money(1234567.5, "INR", lang="hi") == "₹12,34,567.50" and money(1234567.5, "USD", lang="en") == "$1,234,567.50"
    assert number(float("nan")) == "nan" and decimal(float("inf")) == "inf"


# -- the language is the run's ------------------------------------------------------------------------------------
def test_the_language_of_one_thread_is_not_anothers() -> None:
    """One server, two learners at once: each thread (a Streamlit run) sees the language it set, and a thread that
    set none sees English, whatever the others do meanwhile."""
    barrier = threading.Barrier(3)
    seen: dict[str, list[str]] = {}

    def learner(lang: str | None) -> None:
        if lang:
            i18n.use(lang)
        barrier.wait()
        seen[lang or "none"] = [_("Text"), number(123456), i18n.current()]
        barrier.wait()

    threads = [threading.Thread(target=learner, args=(lang,)) for lang in ("hi", "en", None)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"hi": ["टेक्स्ट", "1,23,456", "hi"], "en": ["Text", "123,456", "en"],
                    "none": ["Text", "123,456", "en"]}
    assert i18n.current() == "en"  # this thread set nothing


def test_a_run_without_a_language_takes_the_sessions() -> None:
    """A fragment's rerun does not run page_setup: the session's language comes from the hook ui.language sets."""
    previous = i18n._session_language
    result: list[str] = []
    try:
        i18n.set_session_language(lambda: "hi")
        thread = threading.Thread(target=lambda: result.append(_("Text")))
        thread.start()
        thread.join()
    finally:
        i18n.set_session_language(previous)
    assert result == ["टेक्स्ट"]


def test_an_unknown_language_is_english() -> None:
    with using("fr"):
        assert i18n.current() == "en" and _("Text") == "Text"


# -- the pseudo-locale and content records ------------------------------------------------------------------------
def test_the_pseudo_locale_marks_every_line_and_keeps_markdown() -> None:
    assert pseudo("**Tokens** here") == "⟦**Tokens** here⟧"
    assert pseudo("- one\n  two  \n\n1. three") == "- ⟦one⟧\n  ⟦two⟧  \n\n1. ⟦three⟧"
    with using("xx"):
        assert _n("{n} word", "{n} words", 3) == "⟦3 words⟧"
        assert localized({"label": "Code", "text": "x = 1", "hi": {"label": "कोड"}}) == {"label": "⟦Code⟧", "text": "x = 1"}


def test_a_record_in_hindi_takes_its_hindi_fields() -> None:
    record = {"label": "Numbers", "text": "₹1,23,456", "hi": {"label": "संख्याएँ"}}
    with using("hi"):
        assert localized(record) == {"label": "संख्याएँ", "text": "₹1,23,456"}
    assert localized(record) == {"label": "Numbers", "text": "₹1,23,456"}


# -- the browser's language ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("header", "lang"), [
    ("hi-IN,hi;q=0.9,en-US;q=0.8,en;q=0.7", "hi"),
    ("en-IN,en;q=0.9,hi;q=0.8", "en"),
    ("mr-IN,mr;q=0.9,hi;q=0.8,en;q=0.7", "hi"),
    ("en;q=0.3, hi;q=0.7", "hi"),
    ("hi;q=0, en", "en"),
    ("HI", "hi"),
    ("fr-FR,de;q=0.5", None),
    ("hi;q=abc,en;q=0.5", "en"),
    (",,;;q=,=", None),
    ("", None),
    (None, None),
    ("x" * 100_000 + ",hi", None),  # read up to a bound, never whole
])
def test_the_browser_language_from_its_accept_language_header(header, lang) -> None:
    from ui.language import from_header

    assert from_header(header) == lang
