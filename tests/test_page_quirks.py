"""Quirks (AppTest): every tab on its defaults, edited, by link, with bad input; the figures measured."""

from __future__ import annotations

import pytest

import lessons
from analyses.numbers import indian, international
from analyses.quirks import FORMATS, format_variants, join_counts, pieces_starting_with_mark, records_from_csv
from family import real
from tests.apptest_helpers import assert_no_exception, button, html_blocks, main_text, page_text, parse_chips, run_page
from ui import choices
from ui.display import md_escape, visible_token
from views import quirks as qv

PAGE = "pages/10_Quirks.py"
C = lessons.content("quirks")
GPT = ("cl100k_base", "o200k_base")

if any(real.status(name) for name in GPT):
    pytest.skip("GPT-4's and GPT-4o's tokenizers are needed for this page's defaults", allow_module_level=True)

TOKS = {name: real.load(name) for name in GPT}


def open_tab(tab: str, **params: str):
    return run_page(PAGE, query_params={"quirk": tab, **params})


def chip_rows(at) -> list[list]:
    """Every chip row in the main area (labelled rows split into their rows), each a list of parsed chips."""
    out = []
    for body in html_blocks(at):
        for part in body.split('<div class="tl-word">')[1:] if "tl-labelled" in body else [body]:
            out.append(parse_chips(part).chips)
    return out


def texts(row) -> list[str]:
    return [c.text for c in row]


def labels(name: str, text: str) -> list[str]:
    return [visible_token(t.label) for t in TOKS[name].encode_tokens(text)]


def test_default_tab_spaces_shows_different_tokens_at_the_start_and_after_a_space() -> None:
    at = run_page(PAGE)
    assert at.multiselect(key=choices.many_key(qv.PAGE).skey).value == list(GPT)
    assert [t.label for t in at.tabs] == [C[s]["tab"] for s in ("spaces", "case", "join", "formatting", "numbers",
                                                                "letters", "presplit")]
    word = C["spaces"]["word"]
    rows = chip_rows(at)
    assert len(rows) == 6  # three forms for each of two tokenizers
    for i, name in enumerate(GPT):
        start, space, newline = rows[3 * i : 3 * i + 3]
        assert texts(start) == labels(name, word) and texts(space) == labels(name, " " + word)
        assert texts(newline) == labels(name, "\n" + word)
        assert [c.id for c in start] != [c.id for c in space]
        assert len(start) == 2 and len(space) == 1  # cricket: cr icket, ·cricket
    assert "Different ids" in main_text(at)


def test_editing_the_word_goes_in_the_link() -> None:
    at = run_page(PAGE)
    at.text_input(key=qv.SPACE_WORD.skey).set_value("mango").run()
    assert at.query_params["space_word"] == "mango"
    assert texts(chip_rows(at)[1]) == labels("cl100k_base", " mango")


def test_capitals() -> None:
    at = open_tab("Capitals")
    word = C["case"]["word"]
    rows = chip_rows(at)
    assert len(rows) == 12
    forms = [word, word.capitalize(), word.upper(), " " + word, " " + word.capitalize(), " " + word.upper()]
    for i, name in enumerate(GPT):
        assert [texts(r) for r in rows[6 * i : 6 * i + 6]] == [labels(name, f) for f in forms]
    assert len(rows[2]) > len(rows[0])  # BUDGET costs more than budget


def test_joining_predict_then_reveal() -> None:
    a, b = C["join"]["a"], C["join"]["b"]
    j = join_counts(TOKS["cl100k_base"], [a, b])
    assert j.total < j.sum_of_parts
    at = open_tab("Joining")
    assert at.toggle(key=qv.JOIN_PREDICT.skey).value is True
    assert f"first text is {j.counts[0]} tokens and the second {j.counts[1]} tokens" in main_text(at)
    assert "hidden until you predict" in main_text(at)
    assert len(chip_rows(at)) == 4  # the parts only, for each tokenizer
    assert not any(c.highlighted for row in chip_rows(at) for c in row)  # no hint while predicting
    at.number_input[0].set_value(j.sum_of_parts).run()
    button(at, "Check").click().run()
    assert_no_exception(at)
    text = page_text(at)
    assert "Not this time" in text and f"the lab computed {j.total}" in text
    rows = chip_rows(at)
    assert len(rows) == 6
    assert texts(rows[2]) == labels("cl100k_base", a + b)
    assert [c.text for c in rows[2] if c.highlighted] == ["·Thick"]
    assert [c.text for c in rows[0] if c.highlighted] == ["·"]
    assert f"= **{j.sum_of_parts}**. Joined: **{j.total}**, 2 tokens fewer" in main_text(at)


def test_joining_without_predicting_and_with_nothing_to_merge() -> None:
    at = open_tab("Joining", predict="0", a="Thick fog", b=" closed schools")
    assert at.query_params["predict"] == "0"
    assert "the same here" in main_text(at)
    at.text_area(key=qv.JOIN_B.skey).set_value("").run()
    assert "Type something in both boxes" in main_text(at)


def test_formatting_table_is_measured() -> None:
    at = open_tab("Formatting")
    table = at.dataframe[0].value
    variants = format_variants(records_from_csv(C["formatting"]["records"]))
    assert table["format"].tolist() == list(FORMATS.values())
    for name in GPT:
        assert table[TOKS[name].name].tolist() == [TOKS[name].count(v) for v in variants.values()]
    counts = [TOKS["cl100k_base"].count(v) for v in variants.values()]
    assert counts == sorted(counts)  # CSV < compact < indented < escaped
    assert "in every one of the 5 records" in main_text(at)
    at.segmented_control(key=qv.FORMAT.skey).set_value("csv").run()
    assert at.query_params["fmt"] == "csv"
    assert len(chip_rows(at)[0]) == TOKS["cl100k_base"].count(variants["csv"])


def test_formatting_bad_records() -> None:
    at = open_tab("Formatting", records="a,b\n1,2,3")
    assert "cannot be read" in main_text(at) and "Line 2 has 3 values" in main_text(at)


@pytest.mark.parametrize(
    ("records", "expect"),
    [
        ("name,city\nAsha,Pune\rMumbai", "Line 3 has 1 value, but the header names 2 fields"),  # issue 15's link
        ("name,city\rAsha,Pune\rRavi,Mumbai", "in every one of the 2 records"),  # a bare CR ends a line
        ("name,city\r\nAsha,Pune\r\n", "in every one of the 1 record"),
        ('name,"ci""ty"\nA\x00sha,"Pu\rne"', "in every one of the 1 record"),
        (",".join(f"f{i}" for i in range(60)) + "\n1", "up to 50 fields a record"),
    ],
    ids=["bare CR in a line", "bare CR line ends", "CRLF", "quotes and NUL", "many fields"],
)
def test_formatting_records_from_a_link_never_crash(records: str, expect: str) -> None:
    at = open_tab("Formatting", records=records)
    assert_no_exception(at)
    assert expect in main_text(at)


def test_numbers_three_writings_measured() -> None:
    at = open_tab("Numbers")
    number = C["numbers"]["number"]
    rows = chip_rows(at)
    assert texts(rows[0]) == list(number)  # one per digit
    assert texts(rows[1]) == ["123", "456", "78"] and texts(rows[2]) == ["12", "345", "678"]
    writings = [number, international(number), indian(number)]
    assert writings[1:] == ["12,345,678", "1,23,45,678"]
    for i, name in enumerate(GPT):
        got = [texts(r) for r in rows[3 + 3 * i : 6 + 3 * i]]
        assert got == [labels(name, w) for w in writings]
    assert len(rows[5]) > len(rows[4])  # Indian commas cost more tokens here, measured
    assert "groups of up to three digits from the left (123 456 7)" in main_text(at)
    assert "Singh and Strouse (2024)" in main_text(at).replace("\\", "")


def test_numbers_every_real_tokenizers_rule_when_opened() -> None:
    at = open_tab("Numbers")
    at.session_state[qv.RULES_OPEN.skey] = True
    at.run()
    table = at.dataframe[0].value
    rules = dict(zip(table["tokenizer"], table["its digit rule"]))
    assert rules["GPT-4 (cl100k_base)"] == "groups of up to three digits from the left"
    assert rules["Qwen3"] == "one token per digit"


@pytest.mark.parametrize(("number", "expect"), [("12 lakh", "not a number"), ("", "Type a number"),
                                                ("1" * 5000, "up to 2,000")])
def test_numbers_bad_input(number: str, expect: str) -> None:
    at = open_tab("Numbers")
    at.text_input(key=qv.NUMBER.skey).set_value(number).run()
    assert_no_exception(at)
    assert expect in main_text(at)


def test_a_500_digit_number() -> None:
    at = open_tab("Numbers")
    at.text_input(key=qv.NUMBER.skey).set_value("7" * 500).run()
    assert_no_exception(at)
    assert "first 120 shown" in page_text(at)  # a long number: the start of each row is drawn, all is counted
    assert "500 groups (first 120 shown)" in page_text(at)


def test_letters_strawberry() -> None:
    at = open_tab("Letters")
    text = main_text(at)
    assert "holds `r` **3 times**" in text
    assert "`str` (1) and `berry` (2)" in text and "`raw` (1) and `berry` (2)" in text
    rows = chip_rows(at)
    assert [c.text for c in rows[0] if c.highlighted] == ["str", "berry"]
    assert texts(rows[1]) == ["·strawberry"]  # after a space, GPT-4 reads one token
    at.text_input(key=qv.LETTER.skey).set_value("").run()
    assert "Type a word and a letter" in main_text(at)


def test_presplit_cl100k_breaks_at_vowel_signs_and_o200k_does_not() -> None:
    at = open_tab("Pre-split")
    text = C["presplit"]["text"]
    rows = chip_rows(at)
    cl, o = TOKS["cl100k_base"].pieces(text), TOKS["o200k_base"].pieces(text)
    assert texts(rows[0]) == [visible_token(p) for p in cl]
    assert texts(rows[1]) == [visible_token(p) for p in o]
    assert [i for i, c in enumerate(rows[0]) if c.highlighted] == pieces_starting_with_mark(cl) != []
    assert not any(c.highlighted for c in rows[1])
    assert rows[0][1].name == "vowel sign e"  # घन | ◌े: the vowel sign cut off before any merge
    text_shown = main_text(at)
    assert f"{len(cl)} pieces for 10 words; **{len(pieces_starting_with_mark(cl))}** start" in text_shown
    assert f"{len(o)} pieces for 10 words; **0** start" in text_shown


def test_too_long_inputs_are_refused_politely() -> None:
    at = run_page(PAGE)
    at.text_input(key=qv.SPACE_WORD.skey).set_value("x" * 1_000_000).run()
    assert_no_exception(at)
    assert "1,000,000 characters" in main_text(at)
    at = open_tab("Pre-split")
    at.text_area(key=qv.SENTENCE.skey).set_value("घ" * 10_000).run()
    assert "up to 5,000 characters" in main_text(at)


def test_no_tokenizer_and_large_type() -> None:
    at = run_page(PAGE)
    at.multiselect(key=choices.many_key(qv.PAGE).skey).set_value([]).run()
    assert "Pick at least one tokenizer" in main_text(at)
    big = run_page(PAGE, query_params={"large": "1", "quirk": "Numbers", "toks": "cl100k_base,o200k_base,qwen3"})
    assert_no_exception(big)
    assert "one token per digit" in main_text(big)


def test_a_link_opens_the_same_tab_and_texts() -> None:
    at = open_tab("Letters", word="Mississippi", letter="s")
    assert at.text_input(key=qv.WORD.skey).value == "Mississippi"
    assert "holds `s` **4 times**" in main_text(at)
    at.session_state[qv.TAB.skey] = "Spaces"
    at.run()
    assert "quirk" not in at.query_params and at.query_params["word"] == "Mississippi"


def test_quirks_in_hindi() -> None:
    """?lang=hi: the tabs named in Hindi while the address keeps their English names, and each tab's words in
    Hindi; the counts and the digit rules measured with the real tokenizers (analyses.quirks, analyses.numbers)."""
    from analyses.numbers import DIGIT_PROBE, STYLES, digit_groups, digit_style
    from i18n import _, using

    at = run_page(PAGE, query_params={"lang": "hi"})
    assert_no_exception(at)
    assert [t.label for t in at.tabs] == ["स्पेस", "कैपिटल अक्षर", "जोड़ना", "फ़ॉर्मैटिंग", "संख्याएँ", "अक्षर",
                                          "प्री-स्प्लिट"]
    assert at.multiselect(key=choices.many_key(qv.PAGE).skey).label == "असली टोकनाइज़र"
    assert at.text_input(key=qv.SPACE_WORD.skey).label == "एक शब्द"
    text = main_text(at)
    assert "स्पेस भी बाक़ी बाइट जैसा ही एक बाइट है" in text and "अलग आईडी: मॉडल के लिए ये अलग-अलग शब्द हैं" in text
    assert "टेक्स्ट की शुरुआत में" in html_blocks(at)[0] and "नई लाइन के बाद" in html_blocks(at)[0]
    # a tab picked: the address says its English name, the tab its Hindi one
    at.session_state[qv.TAB.skey] = "Numbers"
    at.run()
    assert at.query_params["quirk"] == "Numbers" and at.query_params["lang"] == "hi"
    text = main_text(at)
    assert "**हर टोकनाइज़र क्या करता है**, इसी संख्या को तीन तरह लिखकर मापा गया:" in text
    probe = TOKS["cl100k_base"].encode_tokens(DIGIT_PROBE)
    with using("hi"):
        rule = _(STYLES[digit_style(digit_groups([t.label for t in probe]))])
    assert rule == "बाएँ से तीन-तीन अंकों तक के समूह" and f"इसका नियम, {DIGIT_PROBE} पर मापा गया: {rule} (" in text
    assert "भारतीय कॉमा" in "".join(html_blocks(at)) and "अंतरराष्ट्रीय कॉमा" in "".join(html_blocks(at))
    at.session_state[qv.RULES_OPEN.skey] = True
    at.run()
    table = at.dataframe[0].value
    assert list(table.columns) == ["टोकनाइज़र", "अंकों का नियम", f"{DIGIT_PROBE} के टोकन"]
    assert dict(zip(table["टोकनाइज़र"], table["अंकों का नियम"]))["Qwen3"] == "हर अंक एक टोकन"
    # joining, revealed: the counts the engine measures, the sentence in Hindi
    a, b = C["join"]["a"], C["join"]["b"]
    j = join_counts(TOKS["cl100k_base"], [a, b])
    at = run_page(PAGE, query_params={"lang": "hi", "quirk": "Joining", "predict": "0"})
    assert at.text_area(key=qv.JOIN_A.skey).label == "पहला टेक्स्ट (मान लीजिए, कोई निर्देश)"
    assert (f"अलग-अलग गिनती: {j.counts[0]} + {j.counts[1]} = **{j.sum_of_parts}**। जोड़कर: **{j.total}**, "
            f"{j.sum_of_parts - j.total} टोकन कम।") in main_text(at)
    # joining, predicting: the question and its verdict in Hindi
    at = run_page(PAGE, query_params={"lang": "hi", "quirk": "Joining"})
    assert (f"पहला टेक्स्ट {j.counts[0]} टोकन है और दूसरा {j.counts[1]} टोकन: अलग-अलग गिनकर {j.sum_of_parts}।"
            in main_text(at).replace("\\", ""))  # the prompt is Markdown-escaped (अलग\-अलग)
    at.number_input[0].set_value(j.total).run()
    button(at, "जाँचिए").click().run()
    assert_no_exception(at)
    assert f"जोड़ने पर {TOKS['cl100k_base'].name} {j.total} टोकन पढ़ता है: हिस्सों से" in page_text(at)
    # formatting: the table's columns and the formats' names in Hindi, the counts measured
    at = run_page(PAGE, query_params={"lang": "hi", "quirk": "Formatting"})
    table = at.dataframe[0].value
    variants = format_variants(records_from_csv(C["formatting"]["records"]))
    assert list(table.columns)[:2] == ["फ़ॉर्मैट", "कैरेक्टर"]
    assert table["फ़ॉर्मैट"].tolist() == ["CSV", "JSON, सटा हुआ", "JSON, इंडेंट किया", "JSON, इंडेंट किया, non-ASCII एस्केप किया"]
    assert table[TOKS["o200k_base"].name].tolist() == [TOKS["o200k_base"].count(v) for v in variants.values()]
    assert "JSON 4 फ़ील्ड नाम (city, item, hindi और price) 5 रिकॉर्ड में से हर एक में लिखता है" in main_text(at)
    # letters and the pre-split
    at = run_page(PAGE, query_params={"lang": "hi", "quirk": "Letters"})
    assert "में `r` **3 बार** आता है" in main_text(at)
    at = run_page(PAGE, query_params={"lang": "hi", "quirk": "Pre-split"})
    pieces = TOKS["cl100k_base"].pieces(C["presplit"]["text"])
    assert f"**{md_escape(TOKS['cl100k_base'].name)}**: " in main_text(at)
    assert f"के लिए {len(pieces)} टुकड़े;" in main_text(at)


def _unescaped(text: str) -> str:
    import re

    return re.sub(r"\\(.)", r"\1", text)


@pytest.mark.parametrize("number", ["12 lakh", "", "1" * 5000, "9" * 2001])
def test_the_engines_refusal_of_a_number_in_hindi(number: str) -> None:
    """?lang=hi: a number the engine cannot read (analyses.numbers.parse_number) is refused in Hindi, its figures
    grouped as Hindi writes them."""
    from analyses.numbers import MAX_DIGITS
    from i18n import number as written

    most = written(MAX_DIGITS, "hi")
    says = {"12 lakh": "“12 lakh” संख्या नहीं है: सिर्फ़ अंक लिखिए (चिह्न, कॉमा और एक दशमलव बिंदु चल जाएँगे)।",
            "": "कोई संख्या लिखिए, जैसे 12345678।",
            "1" * 5000: f"यह {written(5000, 'hi')} कैरेक्टर है; यह लैब ज़्यादा से ज़्यादा {most} अंकों की संख्याएँ लेती है।",
            "9" * 2001: f"इस संख्या में {written(2001, 'hi')} अंक हैं; यह लैब ज़्यादा से ज़्यादा {most} अंक लेती है।"}[number]
    at = run_page(PAGE, query_params={"lang": "hi", "quirk": "Numbers"})
    at.text_input(key=qv.NUMBER.skey).set_value(number).run()
    assert_no_exception(at)
    warned = _unescaped(" ".join(w.value for w in at.main.get("warning")))
    assert says in warned, warned


@pytest.mark.parametrize(("records", "says"), [
    ("a,b\n1,2,3", "ये रिकॉर्ड पढ़े नहीं जा सकते: लाइन 2 में 3 मान हैं, पर हेडर 2 फ़ील्ड के नाम बताता है।"),
    ("name,city", "ये रिकॉर्ड पढ़े नहीं जा सकते: पहले फ़ील्ड के नामों वाली हेडर लाइन लिखिए, फिर कम से कम एक रिकॉर्ड"),
    ("name,name\nAsha,Pune", "हेडर लाइन के दो फ़ील्ड का नाम एक ही है।"),
    (",".join(f"f{i}" for i in range(60)) + "\n1", "लाइन 1 में 60 मान हैं; यह लैब एक रिकॉर्ड में ज़्यादा से ज़्यादा 50 फ़ील्ड"),
])
def test_the_engines_refusal_of_records_in_hindi(records: str, says: str) -> None:
    """?lang=hi: records that are not CSV the lab reads (analyses.quirks.records_from_csv) are refused in Hindi."""
    at = run_page(PAGE, query_params={"lang": "hi", "quirk": "Formatting", "records": records})
    assert_no_exception(at)
    warned = _unescaped(" ".join(w.value for w in at.main.get("warning")))
    assert says in warned, warned
