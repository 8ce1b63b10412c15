"""The last English words of the Hindi lab (issue 28): each is in the catalogue or beside its English in the data,
shown in Hindi in a Hindi run, and the English is what it was."""

from __future__ import annotations

import pytest

import lessons
from analyses.records import Problem, _jsonl_record, json_reason
from family import models as fm
from family import real
from family.chat import mistral_total, refusal
from i18n import using
from tests.apptest_helpers import assert_no_exception, main_text, run_page
from ui import premium as pv
from ui.uploads import decode_text_file
from views import real as rv


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


# -- Mistral's template's refusal of a chat ------------------------------------------------------------------------
@pytest.mark.parametrize(("chat", "english", "hindi"), [
    ([("assistant", "Bees rupaye.")],
     "Mistral's template refuses this chat: Conversation must start with a user message or system message",
     "Mistral का टेम्पलेट यह चैट नहीं लेता: चैट यूज़र के संदेश या सिस्टम संदेश से ही शुरू हो सकती है"),
    ([("assistant", "Bees rupaye."), ("system", "Be brief.")],
     "Mistral's template refuses this chat: Unexpected role 'system' after role 'assistant'",
     "Mistral का टेम्पलेट यह चैट नहीं लेता: role 'assistant' के बाद role 'system' नहीं आ सकता"),
    ([("user", "Chai?"), ("assistant", "")],
     "Mistral's template refuses this chat: Assistant message must have either content or tool_calls, but not both.",
     "Mistral का टेम्पलेट यह चैट नहीं लेता: असिस्टेंट के संदेश में content या tool_calls में से एक होना चाहिए"),
    ([("tool", "{}")], "Unknown role 'tool': use user, assistant or system.",
     "अनजाना role 'tool': user, assistant या system में से कोई लिखिए।"),
    ([], "A chat needs at least one message.", "चैट में कम से कम एक संदेश होना चाहिए।"),
])
def test_mistrals_refusal_of_a_chat_is_in_the_runs_language(chat, english, hindi) -> None:
    """The English is mistral-common's own reason, word for word, as before; in Hindi the lab's words."""
    with pytest.raises(ValueError) as found:
        mistral_total(chat)
    assert str(found.value) == english
    with using("hi"), pytest.raises(ValueError) as found:
        mistral_total(chat)
    assert str(found.value).startswith(hindi)


def test_a_reason_the_lab_does_not_know_is_shown_as_the_library_gives_it() -> None:
    with using("hi"):
        assert refusal("Tool call id has to be\n defined.") == "Tool call id has to be defined."


# -- the lab presets' names in a tokenizer picker ------------------------------------------------------------------
def test_a_picker_names_the_lab_presets_in_the_learners_language() -> None:
    """Tokenize anything's picker offers the presets by presets.toml's Hindi titles, as Train names them."""
    presets = lessons.presets()
    for lang, prefix in (("en", "Lab"), ("hi", "लैब")):
        at = run_page("pages/2_Tokenize_anything.py", {"lang": lang})
        assert_no_exception(at)
        offered = at.multiselect[0].options
        with using(lang):
            titles = [f"{prefix} · {p.shown('title')}" for p in presets.values()]
        assert [o for o in offered if o.startswith(f"{prefix} · ")] == titles
    assert "लैब · D · चाय की दुकान" in offered and "Lab · D · chai stall" not in offered
    assert presets["chai"].title == "D · chai stall"


# -- where a production tokenizer's data comes from, and its algorithm ---------------------------------------------
def test_the_about_box_says_where_the_data_comes_from_in_the_learners_language() -> None:
    """Real tokenizers' about box: the provenance's sentence and the algorithm in Hindi, the names, versions and
    files in it as they are; in English word for word as before."""
    gpt4o, llama = (next(i for i in real.catalogue() if i.name == name) for name in ("o200k_base", "llama3"))
    assert gpt4o.source.endswith("package data (o200k.vocab), rebuilt in tiktoken's format, sha256 checked against "
                                 "tiktoken's published hash")
    assert gpt4o.algorithm == "byte-level BPE (tiktoken)"
    at = run_page("pages/5_Real_tokenizers.py", {"lang": "hi", "toks": "o200k_base,llama3"},
                  {rv.ABOUT_OPEN.skey: True})
    assert_no_exception(at)
    about = main_text(at).replace("\\", "")  # the markdown's escapes
    assert "पैकेज का डेटा (o200k.vocab), tiktoken के फ़ॉर्मैट में दोबारा बनाया हुआ; sha256 tiktoken के प्रकाशित हैश" \
        in about
    assert "Hugging Face पर Meta की original/tokenizer.model के लिए दिया गया है" in about
    assert "बाइट-स्तर का BPE (tiktoken)" in about and "package data" not in about and "byte-level" not in about
    assert llama.source.split()[0] in about  # quicktok-v1: the package's name and version stay


# -- Beyond Hindi: the scripts' names ------------------------------------------------------------------------------
def test_beyond_hindi_names_the_scripts_in_the_learners_language() -> None:
    """The table's script column by Babel's Hindi names (देवनागरी, तमिल), Hans as a Hindi reader calls it; English
    as gflanguages writes them; the sample texts themselves stay."""
    for lang in ("en", "hi"):
        at = run_page("pages/7_Beyond_Hindi.py", {"lang": lang})
        assert_no_exception(at)
        frame = next(df.value for df in at.dataframe if "script" in df.value.columns)
        scripts = set(frame["script"])
        if lang == "en":
            assert {"Devanagari", "Tamil", "Latin"} <= scripts
        else:
            assert {"देवनागरी", "तमिल", "लैटिन", "बांग्ला", "गुरमुखी"} <= scripts
            assert not scripts & {"Devanagari", "Tamil", "Latin"}
    with using("hi"):
        assert pv.shown_script("zh_Hans", "Simplified Han") == "सरलीकृत हान"
        assert pv.shown_script("xx_Qabx", "Private") == "Private"  # a script Babel does not name: as it is
        assert pv.shown_script("hi_Deva", "Devanagari") == "देवनागरी"
    assert pv.shown_script("hi_Deva", "Devanagari") == "Devanagari"


# -- Estimate: the models the lab cannot count, and the reasoning budget's basis ------------------------------------
def test_the_uncountable_models_and_the_reasoning_budget_say_why_in_the_learners_language() -> None:
    """models.toml's "not countable here" entries and prices.toml's reasoning budget carry their Hindi beside the
    English (the i18n check requires it); the command line and an English page read the English, unchanged."""
    claude = next(m for m in fm.uncountable() if m.name == "Claude")
    budget = fm.reasoning_budget()
    assert claude.shown("why") == claude.why == "Anthropic has not published the tokenizer of Claude 3 and later models"
    assert budget.shown("basis") == budget.basis and budget.basis.startswith("the lab's assumption")
    with using("hi"):
        assert claude.shown("why") == "Anthropic ने Claude 3 और उसके बाद के मॉडल का टोकनाइज़र प्रकाशित नहीं किया है"
        assert "POST /v1/messages/count_tokens" in claude.shown("instead") and "गिनिए" in claude.shown("instead")
        assert budget.shown("basis").startswith("लैब की अपनी मान्यता, कोई प्रकाशित आँकड़ा नहीं")
    assert str(fm.UncountableModel("claude", claude)).startswith(
        "Claude (Anthropic) cannot be counted here: Anthropic has not published")
    from i18n.tool import CONTENT
    assert ("family/data/models.toml", "model", ("source",)) in CONTENT
    assert ("family/data/models.toml", "uncountable", ("why", "instead")) in CONTENT
    assert ("family/data/prices.toml", "reasoning", ("basis",)) in CONTENT


# -- a broken JSONL line: the JSON reader's reason -----------------------------------------------------------------
@pytest.mark.parametrize(("line", "english", "hindi"), [
    ("{not json", "not JSON (Expecting property name enclosed in double quotes, column 2)",
     "JSON नहीं है (यहाँ दोहरे उद्धरण-चिह्नों में फ़ील्ड का नाम होना चाहिए था, कॉलम 2)"),
    ("chai", "not JSON (Expecting value, column 1)", "JSON नहीं है (यहाँ कोई मान होना चाहिए था, कॉलम 1)"),
    ('{"text": "a"} {}', "not JSON (Extra data, column 15)",
     "JSON नहीं है (JSON ख़त्म होने के बाद भी कुछ और लिखा है, कॉलम 15)"),
    ('{"text": "chai', "not JSON (Unterminated string starting at, column 10)",
     "JSON नहीं है (यहाँ से शुरू हुई स्ट्रिंग कहीं बंद नहीं होती, कॉलम 10)"),
])
def test_a_broken_line_is_refused_with_the_json_readers_reason_in_the_runs_language(line, english, hindi) -> None:
    assert _jsonl_record(3, line, None) == Problem(3, english)
    with using("hi"):
        assert _jsonl_record(3, line, None) == Problem(3, hindi)
        assert json_reason("Some future reason") == "Some future reason"  # one the lab does not know: as it is


def test_where_a_models_tokenizer_is_published_is_said_in_the_learners_language() -> None:
    """Every model's source has its Hindi beside the English; names, files and code in it stay."""
    llama, gpt5 = fm.find("llama-3.3-70b"), fm.find("gpt-5")
    assert llama.shown("source") == llama.source == (
        "Meta's llama-models repository (models/llama3/tokenizer.model, the same file for every Llama 3.x)")
    with using("hi"):
        assert llama.shown("source") == "Meta की llama-models रिपॉज़िटरी (models/llama3/tokenizer.model, हर Llama 3.x के लिए यही फ़ाइल)"
        assert gpt5.shown("source") == "tiktoken की model.py में: " + gpt5.source.removeprefix("tiktoken model.py: ")
        assert all(m.hi.get("source") for m in fm.models())


def test_where_a_price_and_the_exchange_rate_come_from_is_said_in_the_learners_language() -> None:
    """Every price's source and the exchange rate's carry their Hindi (the i18n check requires it); addresses and
    hosts stay; the command line's INR_SOURCE is the English."""
    groq = fm.price("llama-3.3-70b")
    assert groq is not None and groq.shown("source") == groq.source == (
        "https://groq.com/pricing (Groq hosting Meta's open weights: llama-3.3-70b-versatile)")
    assert fm.exchange_source() == fm.INR_SOURCE and fm.INR_SOURCE.startswith("Reserve Bank of India")
    with using("hi"):
        assert groq.shown("source") == "https://groq.com/pricing (Groq पर चलते Meta के ओपन वेट: llama-3.3-70b-versatile)"
        assert fm.exchange_source().startswith("भारतीय रिज़र्व बैंक, संदर्भ दर (https://www.rbi.org.in/")
        assert all(p.hi.get("source") for p in (fm.price(m.key) for m in fm.models()) if p is not None)
    from i18n.tool import CONTENT
    assert ("family/data/prices.toml", "price", ("source",)) in CONTENT


def test_beyond_hindis_lists_of_languages_are_joined_in_the_learners_language() -> None:
    """The short samples' caption lists its languages with Hindi's "और", not an English "and"."""
    at = run_page("pages/7_Beyond_Hindi.py", {"lang": "hi"})
    assert_no_exception(at)
    short = next(c.value for c in at.caption if "इसलिए कम स्थिर" in c.value)
    assert " और " in short and " and " not in short
