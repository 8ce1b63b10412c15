"""The pages translated so far, in Hindi and in the pseudo-locale (AppTest): the sidebar, Home and Tokenize anything
(i18n/tool.py's TRANSLATED_PAGES). In Hindi their headings, labels and messages are Hindi and their numbers grouped
the Indian way; in the pseudo-locale every visible string is marked, so nothing on them bypasses the catalogue; the
language is kept by the session and carried by every link the lab draws."""

from __future__ import annotations

import json

import pytest

import lessons
from analyses.measure import measure
from family import real
from i18n import number, using
from i18n.tool import TRANSLATED_PAGES
from tests.apptest_helpers import assert_no_exception, main_text, metrics, run_page
from tests.i18n_helpers import apptest_texts, data_texts, untranslated
from ui import language
from ui.layout import CLASSROOM, LARGE, PAGES
from views import beyond_hindi as bhv
from views import encode as ev
from views import english_hindi as evh
from views import family as fv
from views import lessons as lp
from views import quirks as qv
from views import real as rv
from views import tokenize as tkv
from views import train as tv
from views import vocabulary as vv

TOKENIZE = "pages/2_Tokenize_anything.py"
HOME = "app.py"
ENCODE = "pages/3_Encode_step_by_step.py"
BYTES = "pages/4_Bytes_per_character.py"
EVH = "pages/6_English_vs_Hindi.py"
COST = "pages/8_Cost_and_context.py"
REAL = "pages/5_Real_tokenizers.py"
BEYOND = "pages/7_Beyond_Hindi.py"
VOCAB = "pages/15_Vocabulary_by_script.py"
STREAM = "pages/9_Streaming.py"
QUIRKS = "pages/10_Quirks.py"
ESTIMATE = "pages/14_Estimate.py"
LESSONS = "pages/12_Lessons.py"
CLASS = "pages/13_Class.py"
TRAIN = "pages/1_Train_step_by_step.py"
FAMILY = "pages/11_The_family.py"
CHATS = "\n".join(json.dumps({"messages": [{"role": "system", "content": "You help customers."},
                                          {"role": "user", "content": f"मेरा ऑर्डर {i} कहाँ है?"}]}) for i in (1, 2))
OPEN = {evh.REVEALED.skey: True}  # its questions skipped: lesson 4's exercises, their prompts lesson content


def links(at) -> list:
    return list(at.sidebar.get("page_link")) + list(at.main.get("page_link"))


def test_tokenize_in_hindi() -> None:
    at = run_page(TOKENIZE, query_params={"lang": "hi"})
    assert at.title[0].value == "कुछ भी टोकनाइज़ कीजिए"
    assert at.text_area(key=tkv.TEXT.skey).label == "टेक्स्ट"
    assert at.multiselect(key=tkv.TOKS.skey).label == "टोकनाइज़र (तुलना के लिए और जोड़िए)"
    assert at.toggle(key=tkv.PREDICT.skey).label == "पहले अनुमान लगाइए"
    assert at.segmented_control(key=tkv.COLOUR.skey).options == ["क्रम", "टोकन आईडी"]
    text = at.text_area(key=tkv.TEXT.skey).value
    m = measure(real.load("o200k_base"), text)
    assert metrics(at) == {"टोकन": number(m.tokens, "hi"), "प्रति शब्द टोकन": f"{m.tokens / m.words:.2f}",
                           "प्रति टोकन कैरेक्टर": f"{m.code_points / m.tokens:.2f}", "अधूरे टोकन": number(m.partial, "hi")}
    said = main_text(at)
    assert f"टेक्स्ट: {m.words} शब्द · {m.code_points} कोड पॉइंट" in said
    assert "आज़माइए:" in said and "Try:" not in said
    assert [b.label for b in at.button if b.key and b.key.startswith("tokenize.example.")][3:7] == [
        "इमोजी", "اردو", "संख्याएँ", "कोड"]
    # the sidebar, and the lesson link: every page name in Hindi, every link carrying the language
    with using("hi"):
        from i18n import _

        titles = [_(entry.title) for entry in PAGES]
    assert [p.proto.label for p in at.sidebar.get("page_link")] == titles
    assert all("lang=hi" in p.proto.query_string for p in links(at))
    assert at.toggle(key=LARGE.key).label == "बड़े अक्षर (कक्षा के लिए)"


def test_tokenize_in_hindi_groups_numbers_the_indian_way() -> None:
    """1,20,000 UTF-8 bytes in Hindi, 120,000 in English: the counts as the engine measures them."""
    text = "क" * 40_000
    m = measure(real.load("o200k_base"), text)
    assert m.bytes == 120_000
    at = run_page(TOKENIZE, query_params={"lang": "hi"})
    at.text_area(key=tkv.TEXT.skey).input(text).run()
    assert_no_exception(at)
    assert f"{number(m.code_points, 'hi')} कोड पॉइंट · " in main_text(at) and "1,20,000 UTF-8 बाइट" in main_text(at)
    assert metrics(at)["टोकन"] == number(m.tokens, "hi")
    at.segmented_control(key=language.KEY).set_value("en").run()
    assert "120,000 UTF-8 bytes" in main_text(at) and metrics(at)["Tokens"] == f"{m.tokens:,}"


def test_home_in_hindi() -> None:
    at = run_page(HOME, query_params={"lang": "hi"})
    assert at.title[0].value == "टोकनाइज़ेशन लैब"
    assert [s.value for s in at.subheader][:2] == ["आप क्या सीखेंगे", "यहाँ से शुरू कीजिए: मुख्य लैब"]
    cards = [p.proto.label for p in at.main.get("page_link")]
    assert "**कुछ भी टोकनाइज़ कीजिए**" in cards and "**क़दम-दर-क़दम ट्रेनिंग**" in cards
    assert "UTF-8 में “hello” 5 बाइट का है, और “नमस्ते” 18 बाइट का।" in main_text(at)
    assert all(f"**:material/{icon}: {who}**" in main_text(at) for icon, who in (  # written inside f-strings once:
        ("co_present", "शिक्षक"), ("self_improvement", "अपनी रफ़्तार से सीखने वाले"), ("calculate", "इंजीनियर")))
    assert all("lang=hi" in p.proto.query_string for p in links(at))


def test_english_is_unchanged_and_its_links_say_no_language() -> None:
    at = run_page(TOKENIZE)
    assert at.title[0].value == "Tokenize anything" and "lang" not in at.query_params
    assert not any("lang=" in p.proto.query_string for p in links(at))


def test_the_switch_changes_the_language_and_the_session_keeps_it() -> None:
    at = run_page(TOKENIZE)
    switch = at.segmented_control(key=language.KEY)
    assert switch.options == ["English", "हिन्दी"] and switch.value == "en"
    switch.set_value("hi").run()
    assert at.title[0].value == "कुछ भी टोकनाइज़ कीजिए" and at.query_params["lang"] == "hi"
    # a page change whose address says no language (a hand-typed address): the session keeps Hindi, and says so
    del at.query_params["lang"]
    at.switch_page(HOME)
    at.run()
    assert at.title[0].value == "टोकनाइज़ेशन लैब" and at.query_params["lang"] == "hi"
    at.segmented_control(key=language.KEY).set_value("en").run()
    assert at.title[0].value == "Tokenization Lab" and "lang" not in at.query_params


def test_a_link_to_an_unknown_language_opens_in_english() -> None:
    at = run_page(TOKENIZE, query_params={"lang": "fr"})
    assert at.title[0].value == "Tokenize anything" and "lang" not in at.query_params


# -- the pseudo-locale: nothing visible bypasses the catalogue -------------------------------------------------------
HINDI_WITH_MARKS = "किताबें पढ़ीं"  # GPT-2 cuts it into bytes: partial tokens, the letters written under them


@pytest.mark.parametrize(("page", "params", "session"), [
    (HOME, {}, {}),
    (HOME, {"large": "1"}, {}),
    (TOKENIZE, {}, {}),
    (TOKENIZE, {"toks": "o200k_base,r50k_base,chai", "text": HINDI_WITH_MARKS}, {tkv.IDS_OPEN.skey: True}),
    (TOKENIZE, {"toks": "chai", "text": "chaipoha"}, {tkv.TREE_OPEN.skey: True}),
    (TOKENIZE, {"toks": "r50k_base", "text": "घने कोहरे"}, {tkv.TREE_OPEN.skey: True, tkv.IDS_OPEN.skey: True}),
    (TOKENIZE, {"toks": "chai", "text": "चाय"}, {}),  # a character-level model meets characters it never saw
    (TOKENIZE, {"toks": "o200k_base,chai", "text": "x", "classroom": "1"}, {}),
    (TOKENIZE, {"toks": "o200k_base", "text": "شہر میں"}, {}),  # right to left
    (TOKENIZE, {"toks": "", "text": "x"}, {}),  # no tokenizer picked
    (TOKENIZE, {"predict": "1", "toks": "o200k_base,chai", "text": "घने कोहरे"}, {}),  # predict first: two questions
    (ENCODE, {}, {}),  # step 0: the start, the marker </w>
    (ENCODE, {"tok": "readers", "text": "the reader reads", "step": "1"}, {}),  # pieces, skipped merges
    (ENCODE, {"tok": "readers", "text": "readership", "step": "4"}, {ev.TREE_OPEN.skey: True}),  # the end, a tree
    (ENCODE, {"tok": "o200k_base", "text": "घने कोहरे", "step": "2"}, {ev.TREE_OPEN.skey: True}),  # by rank
    (ENCODE, {"tok": "news", "text": "xyz"}, {}),  # no merge fires
    (ENCODE, {"tok": "chai", "text": "चाय", "step": "1"}, {}),  # characters never seen in training
    (ENCODE, {"tok": "readers", "text": "readership", "step": "2", "classroom": "1"}, {}),
    (ENCODE, {"tok": "readers", "text": "readership", "step": "2", "large": "1"}, {}),
    (ENCODE, {"tok": "readers", "text": " "}, {}),  # nothing to encode
    (ENCODE, {"tok": "o200k_base", "text": "घने कोहरे", "step": "1", "predict": "1"}, {}),  # which pair next?
    (BYTES, {}, {}),  # every part on the page, the Hindi sample
    (BYTES, {"sample": "urdu"}, {}),  # right to left
    (BYTES, {"sample": "emoji", "tok": "o200k_base", "part": "ladder"}, {}),  # tabs, a production tokenizer
    (BYTES, {"text": "a\x01b  ki"}, {}),  # control characters
    (BYTES, {"text": "   "}, {}),  # only spaces
    (BYTES, {"sample": "tamil", "classroom": "1"}, {}),
    (BYTES, {"sample": "ki", "large": "1"}, {}),
    (EVH, {}, OPEN),
    (EVH, {"k": "10", "budget": "40"}, OPEN),  # training stops early: every word one token
    (EVH, {"budget": "0"}, OPEN),
    (EVH, {"train": "own", "own_en": "the news", "own_hi": "खबर"}, OPEN),  # the learner's own texts
    (EVH, {"classroom": "1"}, OPEN),
    (EVH, {"large": "1"}, OPEN),
    (COST, {}, {}),  # the window's question (predict first), the rest of the page
    (COST, {"predict": "0"}, {}),  # every part
    (COST, {"predict": "0", "source": "parallel", "window": "200000"}, {}),  # measured, a big window
    (COST, {"predict": "0", "source": "own", "en_text": "", "hi_text": "खबर"}, {}),  # an empty text of one's own
    (COST, {"predict": "0", "prompt": "9000"}, {}),  # the pre-send check says no
    (COST, {"predict": "0", "price_in": "0", "per_day": "0"}, {}),  # free input, no articles
    (COST, {"predict": "0", "classroom": "1", "part": "window"}, {}),
    (COST, {"predict": "0", "large": "1"}, {}),
    (REAL, {}, {}),  # every featured real tokenizer on the news sentence
    (REAL, {"toks": "o200k_base,english-hindi"}, {rv.TOKENS_OPEN.skey: True, rv.TREE_OPEN.skey: True,
                                                  rv.ABOUT_OPEN.skey: True}),
    (REAL, {"en": "", "hi": "खबर"}, {}),  # one box empty
    (REAL, {"toks": ""}, {}),  # no tokenizer
    (REAL, {"classroom": "1"}, {}),
    (REAL, {"large": "1", "toks": "cl100k_base"}, {}),
    (BEYOND, {}, {}),  # every language, per character, long passages
    (BEYOND, {"group": "india", "per": "grapheme", "sample": "line"}, {bhv.SAMPLES_OPEN.skey: True}),
    (BEYOND, {"chart": "utf8", "group": "world"}, {}),
    (BEYOND, {"classroom": "1"}, {}),
    (BEYOND, {"large": "1", "toks": "o200k_base"}, {}),
    (VOCAB, {}, {}),  # GPT-4o beside GPT-4, Devanagari: lesson 4's sentence, the longest tokens
    (VOCAB, {"script": "mixed", "find": "वाला"}, {}),  # a kind, a search
    (VOCAB, {"vs": "none", "script": "Ethiopic", "find": "zzzq"}, {}),  # one tokenizer, a search with no hit
    (VOCAB, {"classroom": "1"}, {}),
    (VOCAB, {"large": "1", "script": "Latin"}, {}),
    (STREAM, {}, {}),  # the lesson's text, before the first token
    (STREAM, {"step": "3"}, {}),  # a held byte, the token row
    (STREAM, {"step": "69"}, {}),  # the end: the text given back exactly
    (STREAM, {"step": "2", "predict": "1"}, {}),  # predict first: the question on token 2
    (STREAM, {"tok": "chai", "text": "chai"}, {}),  # a character model: no token is partial
    (STREAM, {"tok": "mistral-sp-v3", "text": "घने", "step": "50"}, {}),  # SentencePiece changes its text: the end
    (STREAM, {"text": "x" * 3000, "tok": "o200k_base"}, {}),  # too long for the link
    (STREAM, {"tok": "news", "text": "   "}, {}),  # a whitespace model on only spaces: no token
    (STREAM, {"step": "3", "classroom": "1"}, {}),
    (STREAM, {"step": "3", "large": "1"}, {}),
    (QUIRKS, {}, {}),  # spaces: the forms, different ids
    (QUIRKS, {"quirk": "Capitals", "case_word": "chai"}, {}),
    (QUIRKS, {"quirk": "Joining"}, {}),  # predict first: the question, the parts counted apart
    (QUIRKS, {"quirk": "Joining", "predict": "0"}, {}),  # revealed: fewer tokens joined
    (QUIRKS, {"quirk": "Joining", "predict": "0", "a": "Thick fog", "b": " closed schools"}, {}),  # the same count
    (QUIRKS, {"quirk": "Joining", "b": ""}, {}),  # a box left empty
    (QUIRKS, {"quirk": "Formatting"}, {}),  # the table, the formats, a format's tokens
    (QUIRKS, {"quirk": "Numbers", "number": "7" * 500}, {qv.RULES_OPEN.skey: True}),  # groups cut short, every rule
    (QUIRKS, {"quirk": "Letters"}, {}),
    (QUIRKS, {"quirk": "Letters", "word": "नमस्ते", "letter": "z"}, {}),  # in no token
    (QUIRKS, {"quirk": "Pre-split", "toks": "cl100k_base,o200k_base,mistral-sp-v3"}, {}),  # SentencePiece: no pattern
    (QUIRKS, {"quirk": "Pre-split", "sentence": "   "}, {}),  # only spaces: type a sentence
    (QUIRKS, {"quirk": "Numbers", "classroom": "1"}, {}),
    (QUIRKS, {"quirk": "Joining", "predict": "0", "large": "1"}, {}),
    (ESTIMATE, {}, {}),  # the example: three models' cards, the bill, the command, where it comes from
    (ESTIMATE, {"text": "नमस्ते\nआज मौसम अच्छा है।\nshort line", "kind": "lines"}, {}),  # the records' table, histogram
    (ESTIMATE, {"text": CHATS, "kind": "jsonl", "models": "gpt-4o,llama-3.3-70b"}, {}),  # chats, a template's extras
    (ESTIMATE, {"models": "o3,llama-3", "cached": "0.5", "batch": "1"}, {}),  # reasoning, no price, the engine's notes
    (ESTIMATE, {"kind": "csv", "text": "name,text\nA,hello\nB,world"}, {}),  # a column picked
    (ESTIMATE, {"text": "   "}, {}),  # nothing to count
    (ESTIMATE, {"models": "none"}, {}),  # no model
    (ESTIMATE, {"source": "file"}, {}),  # waiting for a file
    (ESTIMATE, {"output": "ratio", "as_chat": "1", "large": "1"}, {}),
    (ESTIMATE, {"classroom": "1"}, {}),
    (LESSONS, {}, {}),  # lesson 1: the menu, the frame, the text with its figures, the links, the exercises
    (LESSONS, {"lesson": "bytes-per-character"}, {lp.PRACTICE_OPEN.skey: True}),  # the practice questions open
    (LESSONS, {"lesson": "cost-context-speed"}, {}),  # money in the text, five links
    (LESSONS, {"lesson": "english-vs-hindi", "large": "1"}, {}),  # the select box
    (LESSONS, {"lesson": "bpe-training", "classroom": "1"}, {}),  # the objectives' slide
    (LESSONS, {"lesson": "bpe-training", "classroom": "1", "step": "3"}, {}),  # a section of the text
    (TRAIN, {}, {}),  # the chai stall, step 0: the corpus before any merge, the top counts
    (TRAIN, {"preset": "news", "step": "1"}, {tv.TABLE_OPEN.skey: True, tv.CODE_OPEN.skey: True,
                                              tv.CORPUS_OPEN.skey: True}),  # a tie, tables, the corpus text
    (TRAIN, {"preset": "low", "step": "4"}, {}),  # a three-way tie, a pair seen once, the last merge: next steps
    (TRAIN, {"preset": "news", "step": "1", "ties": "hf"}, {}),  # a custom run: the hf rule, 'use the preset's'
    (TRAIN, {"preset": "chai", "step": "2", "predict": "1"}, {}),  # predict first: the question on merge 2
    (TRAIN, {"preset": "chai", "predict": "1"}, {}),  # predict first at step 0
    (TRAIN, {"preset": "chai", "merges": "0"}, {}),  # zero merges: the base vocabulary
    (TRAIN, {"preset": "own", "text": ""}, {}),  # own text, nothing typed yet
    (TRAIN, {"preset": "own", "text": "कि 👩‍👩‍👧 مرحبا a\x07 <b> hain, hain", "step": "1"}, {}),  # notes, kept model
    (TRAIN, {"preset": "own", "text": "ab ab", "merges": "5", "step": "1"}, {}),  # training stops early
    (TRAIN, {"preset": "play", "split": "regex", "unit": "bytes", "step": "2"}, {}),  # regex, bytes: HF export
    (TRAIN, {"preset": "chai", "marker": "custom", "marker_text": ""}, {}),  # an empty custom marker
    (TRAIN, {"preset": "readers", "step": "3", "classroom": "1"}, {}),
    (TRAIN, {"preset": "news", "step": "1", "large": "1"}, {}),
    (FAMILY, {}, {}),  # BPE vs WordPiece before merge 1
    (FAMILY, {"step": "2", "hashes": "1"}, {fv.NUMBERS_OPEN.skey: True}),  # merges, the sequences, the numbers
    (FAMILY, {"preset": "news", "step": "1"}, {}),  # a tie, both rules
    (FAMILY, {"preset": "own", "text": "aaab aab ab ab", "merges": "5", "step": "5"}, {}),  # a rule has stopped
    (FAMILY, {"preset": "own", "text": ""}, {}),  # own text, nothing typed
    (FAMILY, {"preset": "chai", "merges": "0"}, {}),  # zero merges
    (FAMILY, {"part": "unigram"}, {}),  # the pieces, the segmentations, the draws
    (FAMILY, {"part": "unigram", "vocab": "5"}, {}),  # too small a vocabulary: use the minimum
    (FAMILY, {"part": "unigram", "word": "chaiखबर"}, {}),  # characters the corpus never had
    (FAMILY, {"part": "pipeline"}, {fv.ABOUT_OPEN.skey: True}),  # the four stages, the about box
    (FAMILY, {"part": "pipeline", "tok": "qwen3", "ptext": "स\u095Cक पर पानी"}, {}),  # NFC changes the text
    (FAMILY, {"part": "pipeline", "tok": "mistral-sp-v3"}, {}),  # SentencePiece: no pre-split
    (FAMILY, {"part": "special"}, {}),  # the chat, its template, <|endoftext|>
    (FAMILY, {"part": "special", "m1": ""}, {}),  # an empty message
    (FAMILY, {"part": "merges", "step": "1", "classroom": "1"}, {}),
    (FAMILY, {"part": "pipeline", "classroom": "1"}, {}),
    (FAMILY, {"part": "unigram", "large": "1"}, {}),
    (FAMILY, {"part": "special", "large": "1"}, {}),
])
def test_nothing_visible_bypasses_the_catalogue(page: str, params: dict, session: dict) -> None:
    at = run_page(page, query_params={"lang": "xx", **params}, session_state=session)
    texts = apptest_texts(at)
    assert len(texts) > 30
    typed = [t.value for t in at.text_area] + [t.value for t in at.text_input]
    shown = (vocabulary_shown(params) if page == VOCAB else quirks_shown(typed) if page == QUIRKS else
             estimate_shown() if page == ESTIMATE else lessons_shown() if page == LESSONS else
             train_shown() if page == TRAIN else [*train_shown(), *family_shown(params)] if page == FAMILY else [])
    assert untranslated(texts, data_texts(*typed, *params.values(), *CITATIONS, *shown)) == []


#: Published sources the pages cite as they are (authors, titles, venues): data, in every language.
CITATIONS = [*(f"{f['who']} {f['title']} {f['venue']}" for f in lessons.data("published_language_costs")["findings"]),
             lessons.data("published_premiums")["source"],
             *(v for v in lessons.data("lesson4_english_hindi").values() if isinstance(v, str)),  # its training text
             *(f"{i.family} {i.licence} {i.source}" for i in real.catalogue())]  # provenance: where the data comes from


def vocabulary_shown(params: dict) -> list[str]:
    """The tokens Vocabulary by script draws as chips (the longest of the script, a search's hits): data, read from
    the same analysis (analyses.vocab) for the page's two tokenizers."""
    from analyses import vocab

    out = []
    for key in (vv.DEFAULT_A, vv.DEFAULT_B):
        v = vocab.vocabulary(real.load(key))
        out += [text for _id, _rank, text in v.longest(params.get("script", "Devanagari"), vv.LONGEST)]
        if params.get("find"):
            out += [hit[2] for hit in v.search(params["find"], vv.SHOWN_HITS)[1]]
    return out


def quirks_shown(typed: list[str]) -> list[str]:
    """What Quirks draws as it is: its examples' starting texts and what is typed, in the forms the page tokenizes
    (Capitalised, CAPITALS), the paper it cites, the pre-split patterns of the tokenizers it may show (code)."""
    c = lessons.content("quirks")
    texts = [v for section in c.values() for k, v in section.items() if k not in ("tab", "intro", "finding", "hi")]
    texts = [t for text in [*texts, *typed] for t in (text, text.capitalize(), text.upper())]
    return [*texts, *(real.load(k).pattern or "" for k in ("cl100k_base", "o200k_base", "mistral-sp-v3"))]


def lessons_shown() -> list[str]:
    """What the Lessons page draws as it is: the titles (in its menu) of the lessons without their Hindi yet
    (lessons/course/hi/), shown in English; none once every lesson has its Hindi."""
    from lessons.course import course

    return [lesson.title for lesson in course("hi").lessons if lesson.lang != "hi"]


def estimate_shown() -> list[str]:
    """What Estimate draws as it is: the models' names, vendors and where their tokenizers and prices come from
    (family.models, data), the reasoning budget's basis, the exchange rate's
    source, the example and its English, the printed commands (code)."""
    from family import models as fm

    out = [fm.reasoning_budget().basis, fm.INR_SOURCE,
           *(v for v in lessons.examples("estimate")[0].values() if isinstance(v, str))]
    for m in fm.models():
        price = fm.price(m.key)
        out += [m.name, m.vendor, m.tokenizer, m.source, m.chat or "", *((price.source,) if price else ())]
    out += [f"{m.name} {m.vendor} {m.why} {m.instead}" for m in fm.uncountable()]
    return [*out, "python -m tokenizer cost count --model --file --lines --output-tokens --requests-per-month "
                  "--inr-per-usd KEY USD YOUR_FILE txt jsonl messages"]


def train_shown() -> list[str]:
    """What Train draws as it is: the presets' corpora (the words as chips, the corpus text), their words to try,
    the pre-split's default pattern and the reference trainer's loop (code)."""
    from tokenizer import DEFAULT_PATTERN
    from ui.codeview import loop_lines

    presets = lessons.presets().values()
    return [*(p.corpus for p in presets), *(w for p in presets for w in p.examples), DEFAULT_PATTERN,
            *loop_lines()[1]]


def family_shown(params: dict) -> list[str]:
    """What The family draws as it is, besides the presets: the rules' and Unigram's names and special pieces, and
    the tokens of its real tokenizers as their vocabularies write them (Ġ, ▁, <0xE0>, [INST]) for the pipeline's
    text and the chat (family.pipeline, family.chat: data)."""
    from family.chat import mistral_chat
    from family.pipeline import stages
    from family.unigram import META
    from family.wordpiece import RULE_NAMES

    out = [*RULE_NAMES.values(), "Unigram", *META]
    if params.get("part") == "pipeline":
        key = params.get("tok", "cl100k_base")
        s = stages(real.load(key), params.get("ptext", fv.PTEXT.default))
        out += [*s.raw, *(t.label for t in s.tokens)]
    if params.get("part") == "special":
        out += [t.piece for t in mistral_chat(fv.settings.CHAT).tokens]
        tok = real.load(params.get("stok", "cl100k_base"))
        out += [fv.settings.ENDOFTEXT, *(t.label for t in tok.encode_tokens(fv.settings.ENDOFTEXT))]
    return out


def test_the_pseudo_locale_test_sees_an_unmarked_string() -> None:
    """The same check in English finds every string (so the pseudo-locale test is not vacuous)."""
    at = run_page(TOKENIZE)
    stray = untranslated(apptest_texts(at), data_texts(at.text_area[0].value))
    assert len(stray) > 30 and any("Tokenizers (add more to compare them)" in s for s in stray)


def test_the_declared_pages_are_the_ones_tested_here() -> None:
    assert set(TRANSLATED_PAGES) == {HOME, TOKENIZE, ENCODE, BYTES, EVH, COST, REAL, BEYOND, VOCAB, STREAM, QUIRKS,
                                   ESTIMATE, LESSONS, CLASS, TRAIN, FAMILY}
    assert set(vv.KIND_NAMES) == set(vv.vocab.KINDS)  # every kind of token has its name marked for the catalogue
    assert CLASSROOM.param == "classroom" and LARGE.param == "large"  # the parameters the cases above use


# -- the Class page: its screens come one after another (a class, a teacher and learners), not from a link --------
def class_screens(server_side) -> list[tuple[str, object, list[str]]]:
    """Every state of the Class page and the class bar in the pseudo-locale, as (state, the screen's AppTest at that
    moment's texts, its data): outside (a refused join, a start without a title), the teacher's (the code and the
    learner link, each kind of own question and a refused one, a kept question, a poll open, shown and revealed with
    the dashboard, the end) and the learner's (waiting, a poll open, answered, shown, revealed, the end)."""
    from lessons import own
    from lessons.classroom import shown_resume
    from lessons.exercises import compute
    from ui import classroom
    from ui import poll as class_bar
    from ui.questions import direction_questions
    from views import classroom as cv

    screens: list[tuple[str, object, list[str]]] = []
    always = ["ABCD-EFGH-JKMN-PQRS", "Tokenizers, week 3", "Asha"]  # a resume code's shape, the title, a name

    def look(state: str, at, *data: str) -> None:
        assert_no_exception(at)
        typed = [t.value or "" for t in at.text_area] + [t.value or "" for t in at.text_input]
        screens.append((state, apptest_texts(at), [*typed, *data, *always]))

    outside = run_page(CLASS, query_params={"lang": "xx"})
    look("outside", outside)
    outside.button(key=cv.START.skey).click().run()
    look("outside: no title", outside)
    outside.text_input(key=cv.JOIN_CODE.skey).set_value("ZZZZZZ")
    outside.text_input(key=cv.NAME.skey).set_value("Asha")
    outside.button(key=cv.JOIN.skey).click().run()
    look("outside: a wrong code", outside, "ZZZZZZ")

    teacher = run_page(CLASS, query_params={"lang": "xx"})
    teacher.text_input(key=cv.TITLE.skey).set_value("Tokenizers, week 3").run()
    teacher.button(key=cv.START.skey).click().run()
    who = teacher.session_state[classroom.TEACHER.skey]
    code, secret = who.code, who.secret
    url = cv.learner_url(code)
    look("teacher: started", teacher, code, url, "o200k_base")
    blanks = {"tokenizer": "o200k_base", "text": "नमस्ते chai", "texts": ["chai", "चाय"], "corpus": "low low lower"}
    for kind in ("count", "split", "most", "merge", "bytes", "characters"):
        teacher.selectbox(key=cv.OWN_KIND.skey).set_value(kind).run()
        if kind in ("count", "split", "bytes", "characters"):
            teacher.text_area(key=cv.OWN_TEXT.skey).set_value(blanks["text"]).run()
        if kind == "most":
            for key, text in zip(cv.OWN_TEXTS, blanks["texts"]):
                teacher.text_input(key=key.skey).set_value(text).run()
        if kind == "merge":
            teacher.text_area(key=cv.OWN_CORPUS.skey).set_value(blanks["corpus"]).run()
        # The engine's facts under the lab's answer (lessons/exercises: "11 code points, 8 grapheme clusters…") are
        # the engine's words, another piece of issue 28 (README, Not yet in Hindi): read as data here until then.
        answer = own.exercise(kind, blanks)["answer"]
        always.append(compute(answer["op"], {k: v for k, v in answer.items() if k != "op"}).facts)
        look(f"teacher: own question {kind}", teacher, code, url, "o200k_base", "GPT-4o")
    teacher.selectbox(key=cv.OWN_KIND.skey).set_value("merge").run()
    teacher.text_area(key=cv.OWN_CORPUS.skey).set_value("").run()
    look("teacher: an own question refused", teacher, code, url)
    teacher.selectbox(key=cv.OWN_KIND.skey).set_value("bytes").run()
    teacher.text_area(key=cv.OWN_TEXT.skey).set_value("नमस्ते chai").run()
    teacher.button(key=cv.OWN_KEEP.skey).click().run()
    look("teacher: a kept question", teacher, code, url)

    learner = run_page(CLASS, query_params={"lang": "xx"})
    learner.text_input(key=cv.JOIN_CODE.skey).set_value(code)
    learner.text_input(key=cv.NAME.skey).set_value("Asha")
    learner.button(key=cv.JOIN.skey).click().run()
    me = learner.session_state[classroom.MEMBER.skey]
    mine = (code, "Asha", shown_resume(me.resume_code))
    look("learner: waiting", learner, *mine)

    with using("en"):
        q = direction_questions()[0]
    server_side.pose(code, secret, classroom.payload(q, "/english_vs_hindi"))
    learner.run()
    look("learner: a poll open", learner, *mine)
    poll = server_side.current(code)
    with using("xx"):
        learner.radio(key=class_bar.answer_key(poll).skey).set_value(q.answer).run()
    learner.button(key=class_bar.send_key(poll).skey).click().run()
    look("learner: answered", learner, *mine)
    teacher.run()
    look("teacher: a poll open", teacher, code, url, "Asha")
    teacher.button(key=class_bar.SHOW.skey).click().run()
    look("teacher: answers shown", teacher, code, url)
    learner.run()
    look("learner: votes closed", learner, *mine)
    teacher.button(key=class_bar.REVEAL.skey).click().run()
    look("teacher: revealed, the dashboard", teacher, code, url, "Asha")
    learner.run()
    look("learner: revealed", learner, *mine)
    teacher.button(key=cv.END.skey).click().run()
    teacher.run()
    look("teacher: ended", teacher, code)
    learner.run()
    look("learner: ended", learner, *mine)
    return screens


def test_the_class_page_bypasses_nothing_in_the_pseudo_locale(class_db) -> None:
    screens = class_screens(class_db)
    assert len(screens) == 22
    stray = [f"{state}: {s}" for state, texts, data in screens for s in untranslated(texts, data_texts(*data))]
    assert stray == [], "\n".join(stray)


@pytest.fixture
def class_db(monkeypatch, tmp_path):
    """A fresh class database (LAB_DATA_DIR), and the store as another replica sees it."""
    from lessons.classroom import Classes, open_database

    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("LAB_DATABASE_URL", raising=False)
    store = Classes(open_database(f"sqlite:///{tmp_path / 'classes.sqlite3'}"))
    yield store
    store.db.close()
