"""The Bytes per character page (AppTest) and its drawing helpers (views/bytes.py).

Every expected number is computed here with analyses.textstats or the
tokenizer itself, never typed in, except the curriculum's lesson 3 figures.
"""

from __future__ import annotations

import json
import re

import pytest

import lessons
from analyses.textstats import char_table, graphemes, text_counts
from tests.apptest_helpers import assert_no_exception, main_text, metrics, run_page
from tokenizer import train
from views import bytes as bv

PAGE = "pages/4_Bytes_per_character.py"
TEXT, SAMPLE, TOK = bv.TEXT.skey, bv.SAMPLE_BOX.skey, bv.LADDER.skey
MARKUP = "<img src=x onerror=alert(1)>"
FAMILY = "👩\u200d👩\u200d👧"



def table(at):
    """The character table (the first dataframe on the page)."""
    frame = at.dataframe[0].value
    assert list(frame.columns) == list(bv.TABLE_COLUMNS)
    return frame


def ladder_html(at) -> str:
    found = [h.value for h in at.html if "tokens over code points over bytes" in h.value]
    assert len(found) == 1, "expected one token ladder"
    return found[0]


def grapheme_html(at) -> str:
    found = [h.value for h in at.html if 'class="tl-g"' in h.value]
    assert len(found) == 1, "expected one grapheme ladder"
    return found[0]


def preset_tokens(preset_id: str, text: str):
    preset = lessons.presets()[preset_id]
    return train(preset.corpus, preset.merges, **preset.config.to_dict()).tokenizer.encode_tokens(text)


def assert_counts_shown(at, text: str) -> None:
    counts = text_counts(text)
    shown = metrics(at)
    assert shown["Code points"] == f"{counts.code_points:,}"
    assert shown["Grapheme clusters"] == f"{counts.graphemes:,}"
    assert shown["UTF-8 bytes"] == f"{counts.bytes:,}"
    assert shown["Bytes per code point"] == f"{counts.bytes_per_char:.2f}"
    assert shown["Bytes per grapheme"] == f"{counts.bytes / counts.graphemes:.2f}"


# -- The page ----------------------------------------------------------------------------------------
def test_default_is_the_lesson3_hindi_sentence() -> None:
    at = run_page(PAGE)
    text = at.text_area(key=TEXT).value
    assert text == bv.samples()["indore-hi"].text
    assert_counts_shown(at, text)
    # the curriculum's figures for this sentence
    assert metrics(at)["Code points"] == "13" and metrics(at)["UTF-8 bytes"] == "35"
    frame = table(at)
    rows = char_table(text)
    assert len(frame) == len(rows) == 13
    assert list(frame["bytes"]) == [r.n_bytes for r in rows]
    assert list(frame["code point"]) == [r.code_point for r in rows]
    assert list(frame["UTF-8 (hex)"]) == [r.utf8 for r in rows]
    assert set(frame["script"]) == {"Devanagari", "Common"}
    # a vowel sign alone is drawn on a dotted circle, beside the grapheme it belongs to
    au = list(frame["code point"]).index("U+094C")
    assert frame["character"][au] == "◌\u094c"
    assert frame["in grapheme"][au] == "दौ"
    assert "text" not in at.query_params and "sample" not in at.query_params


def test_typing_text_updates_counts_table_and_url() -> None:
    at = run_page(PAGE)
    at.text_area(key=TEXT).input("खबर").run()
    assert_no_exception(at)
    assert_counts_shown(at, "खबर")
    assert metrics(at)["UTF-8 bytes"] == "9"
    frame = table(at)
    assert list(frame["bytes"]) == [3, 3, 3]
    assert list(frame["script"]) == ["Devanagari"] * 3
    assert at.query_params["text"] == "खबर"


def test_picking_a_sample_loads_its_text() -> None:
    at = run_page(PAGE)
    at.selectbox(key=SAMPLE).set_value("ki").run()
    assert_no_exception(at)
    assert at.text_area(key=TEXT).value == "कि"
    shown = metrics(at)
    assert (shown["Code points"], shown["Grapheme clusters"], shown["UTF-8 bytes"]) == ("2", "1", "6")
    frame = table(at)
    assert list(frame["code point"]) == ["U+0915", "U+093F"]
    assert list(frame["in grapheme"]) == ["कि", "कि"]
    assert at.query_params["sample"] == "ki"
    assert "text" not in at.query_params  # the text is the sample's: the link stays short


def test_shared_link_restores_text_sample_and_tokenizer() -> None:
    at = run_page(PAGE, query_params={"sample": "tamil", "tok": "english-hindi-fair"})
    assert at.selectbox(key=SAMPLE).value == "tamil"
    assert at.selectbox(key=TOK).value == "english-hindi-fair"
    assert at.text_area(key=TEXT).value == bv.samples()["tamil"].text
    assert_counts_shown(at, bv.samples()["tamil"].text)

    at = run_page(PAGE, query_params={"sample": "tamil", "text": "khabar"})
    assert at.text_area(key=TEXT).value == "khabar"
    assert metrics(at)["UTF-8 bytes"] == "6"
    assert at.selectbox(key=SAMPLE).value == "khabar-en"  # the box names the sample that is in the text box


def test_the_sample_box_names_what_is_in_the_text_box() -> None:
    """The issue's case: ?text=खबर showed "Example · इंदौर साफ़ है" (the default sample) while the box held खबर. The
    box names the sample whose text is there, and none for the learner's own text; picking one still loads it."""
    at = run_page(PAGE, query_params={"text": "खबर"})
    assert at.selectbox(key=SAMPLE).value == "khabar-hi"
    assert at.query_params.get("sample") is None  # the setting is untouched: the link stays as it was
    at.text_area(key=TEXT).input("नमस्ते chai").run()
    box = at.selectbox(key=SAMPLE)
    assert box.value is None and box.proto.placeholder == "Your own text: pick a sample to replace it"
    box.set_value("tamil").run()
    assert at.text_area(key=TEXT).value == bv.samples()["tamil"].text and at.query_params["sample"] == "tamil"
    assert at.selectbox(key=SAMPLE).value == "tamil"


def test_bad_url_values_fall_back_to_defaults() -> None:
    at = run_page(PAGE, query_params={"sample": "nonsense", "tok": "gpt-99"})
    assert at.selectbox(key=SAMPLE).value == "indore-hi"
    assert at.selectbox(key=TOK).value == "english-hindi"


@pytest.mark.parametrize("preset_id", ["english-hindi", "english-hindi-fair"])
def test_byte_ladder_shows_each_token_over_its_bytes(preset_id: str) -> None:
    at = run_page(PAGE, query_params={"tok": preset_id})
    text = at.text_area(key=TEXT).value
    tokens = preset_tokens(preset_id, text)
    html = ladder_html(at)
    assert "\ufffd" not in html
    assert len(re.findall(r'class="tl-chip[ "]', html)) == len(tokens)
    # every byte of the text is a hex cell, in order
    cells = re.findall(r'class="tl-b(?: tl-cont)?"[^>]*>([0-9A-F]{2})</span>', html)
    assert cells == [f"{b:02X}" for b in text.encode("utf-8")]
    # partial tokens are dashed chips showing hex, never U+FFFD
    partial = sum(1 for t in tokens if not t.whole)
    assert partial > 0
    assert html.count("tl-chip tl-partial") == partial
    shown = metrics(at)
    assert shown["Tokens"] == str(len(tokens))
    assert shown["Not whole characters"] == str(partial)
    assert shown["Bytes"] == str(text_counts(text).bytes)


def test_fair_tokenizer_leaves_fewer_partial_tokens() -> None:
    at = run_page(PAGE, query_params={"sample": "hindi"})
    k1 = int(metrics(at)["Not whole characters"])
    at.selectbox(key=TOK).set_value("english-hindi-fair").run()
    k10 = int(metrics(at)["Not whole characters"])
    assert k10 < k1
    assert at.query_params["tok"] == "english-hindi-fair"


def test_ladder_is_capped_and_says_so() -> None:
    text = "खबर " * 40  # 400 bytes
    at = run_page(PAGE)
    at.text_area(key=TEXT).input(text).run()
    html = ladder_html(at)
    cells = re.findall(r'class="tl-b(?: tl-cont)?"[^>]*>([0-9A-F]{2})</span>', html)
    assert len(cells) <= bv.LADDER_MAX_BYTES
    assert bytes.fromhex("".join(cells)).decode("utf-8")  # cut between characters
    assert f"stop at {bv.LADDER_MAX_BYTES} bytes" in main_text(at)
    assert metrics(at)["Bytes"] == str(len(cells))


def test_grapheme_ladder_boxes_match_textstats() -> None:
    at = run_page(PAGE, query_params={"sample": "emoji"})
    text = bv.samples()["emoji"].text
    html = grapheme_html(at)
    assert html.count('class="tl-g"') == len(graphemes(text))
    assert FAMILY in html  # the family is drawn as one cluster, joiners kept
    assert "U+200D" in html  # ...and its joiners are named in the code point row


def test_markup_is_shown_as_text() -> None:
    at = run_page(PAGE)
    at.text_area(key=TEXT).input(MARKUP).run()
    assert_no_exception(at)
    for html in (ladder_html(at), grapheme_html(at)):
        assert "<img" not in html
        assert "&lt;" in html
    assert list(table(at)["character"])[:4] == ["<", "i", "m", "g"]
    assert "<img" not in main_text(at)


def test_empty_text_says_what_to_do() -> None:
    at = run_page(PAGE)
    at.text_area(key=TEXT).input("").run()
    assert_no_exception(at)
    assert any("Type or paste some text" in el.value for el in at.info)
    assert not at.metric
    # the scripts are still compared, without a row for the empty text
    compare = at.dataframe[0].value
    assert bv.YOUR_TEXT not in list(compare["sample"])


def test_huge_paste_is_cut_with_a_warning() -> None:
    big = ("इंदौर साफ़ है. " * 400_000)[:5_000_000]
    at = run_page(PAGE)
    at.text_area(key=TEXT).input(big).run(timeout=60)
    assert_no_exception(at)
    assert any(f"first {bv.MAX_TEXT_CHARS:,}" in el.value for el in at.warning)
    assert metrics(at)["Code points"] == f"{bv.MAX_TEXT_CHARS:,}"
    assert len(table(at)) == bv.TABLE_MAX_ROWS
    assert f"first {bv.TABLE_MAX_ROWS:,} of" in main_text(at)
    assert "text" not in at.query_params
    assert "but not this text" in main_text(at)


def test_emoji_with_joiners() -> None:
    at = run_page(PAGE)
    at.text_area(key=TEXT).input(FAMILY).run()
    shown = metrics(at)
    assert (shown["Code points"], shown["Grapheme clusters"], shown["UTF-8 bytes"]) == ("5", "1", "18")
    frame = table(at)
    assert list(frame["character"]) == ["👩", "U+200D", "👩", "U+200D", "👧"]
    assert set(frame["in grapheme"]) == {FAMILY}


def test_control_characters_and_combining_marks() -> None:
    at = run_page(PAGE)
    at.text_area(key=TEXT).input("a\x00e\u0301\tb").run()
    assert_no_exception(at)
    assert any("U+0000" in el.value for el in at.info)
    frame = table(at)
    assert list(frame["character"]) == ["a", "U+0000", "e", "◌\u0301", "⇥", "b"]
    assert frame["in grapheme"][3] == "e\u0301"
    assert "U+0000" in ladder_html(at)


def test_right_to_left_text() -> None:
    at = run_page(PAGE, query_params={"sample": "urdu"})
    assert_no_exception(at)
    assert any("Right-to-left" in el.value for el in at.info)
    text = bv.samples()["urdu"].text
    assert list(table(at)["bytes"]) == [r.n_bytes for r in char_table(text)]
    assert 'class="tl-ladder' in ladder_html(at) and "direction:ltr" in ladder_html(at)


def test_chart_compares_scripts_with_your_text_first() -> None:
    at = run_page(PAGE, query_params={"text": "khabar"})
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)
    assert "#77AADD" in json.dumps(spec) and "#EE8866" in json.dumps(spec)
    compare = next(d.value for d in at.dataframe if "bytes per code point" in d.value.columns)
    assert list(compare["sample"])[0] == bv.YOUR_TEXT
    assert list(compare["text"])[0] == "khabar"
    script_samples = [s for s in bv.samples().values() if s.group == "script"]
    assert list(compare["sample"])[1:] == [s.label for s in script_samples]
    for sample, (_, row) in zip(script_samples, list(compare.iloc[1:].iterrows())):
        counts = text_counts(sample.text)
        assert row["bytes"] == counts.bytes
        assert row["bytes per code point"] == round(counts.bytes_per_char, 2)
        assert row["bytes per grapheme"] == round(counts.bytes / counts.graphemes, 2)
    labels = set(compare["sample"])
    assert {"English", "Hindi (Devanagari)", "Tamil", "Bengali", "Code (Python)", "Emoji"} <= labels


@pytest.mark.parametrize("large", [False, True])
def test_comparison_chart_is_valid_vega_lite(large: bool) -> None:
    compare = bv.comparison_table("script", "खबर", text_counts("खबर"))
    from ui import charts

    validated = charts.themed(bv.comparison_chart(compare, large=large), large=large).to_dict()  # raises if invalid
    assert validated == bv.comparison_spec(compare, large=large)
    assert validated["config"]["axis"]["labelColor"] == "#000000"


def test_lesson3_examples_table() -> None:
    at = run_page(PAGE)
    examples = at.dataframe[-1].value
    rows = {row["text"]: row for _, row in examples.iterrows()}
    assert rows["खबर"]["bytes"] == 9 and rows["khabar"]["bytes"] == 6
    assert (rows["कि"]["code points"], rows["कि"]["graphemes"], rows["कि"]["bytes"]) == (2, 1, 6)
    assert (rows["Indore is clean"]["code points"], rows["Indore is clean"]["bytes"]) == (15, 15)
    hindi = rows[bv.samples()["indore-hi"].text]
    assert (hindi["code points"], hindi["bytes"], round(hindi["bytes per code point"], 1)) == (13, 35, 2.7)
    assert rows["if x>=10: print(x)"]["bytes per code point"] == 1.0


def test_large_type_runs() -> None:
    at = run_page(PAGE, query_params={"large": "1", "sample": "bengali"})
    assert_no_exception(at)
    assert_counts_shown(at, bv.samples()["bengali"].text)


# -- The sample texts --------------------------------------------------------------------------------
def test_sample_texts_file() -> None:
    raw = lessons.data("sample_texts")
    assert raw["license"] == "CC0-1.0"
    all_samples = bv.samples()
    assert len(all_samples) == len(raw["samples"]) + len(raw["examples"])
    texts = {s.text for s in all_samples.values()}
    for example in ("Indore is clean", "if x>=10: print(x)", "खबर", "khabar", "कि"):
        assert example in texts
    # the Hindi example counts as the lesson does: 13 code points, 35 bytes
    counts = text_counts(all_samples["indore-hi"].text)
    assert (counts.code_points, counts.bytes) == (13, 35)
    for sample in all_samples.values():
        assert 0 < len(sample.text) <= 80, sample.id


# -- Helpers -----------------------------------------------------------------------------------------
def test_characters_follow_the_display_rules() -> None:
    """One code point or grapheme is shown by ui.display's rules (tested in tests/test_display.py)."""
    from ui.display import visible_token

    for ch in ("a", " ", "\u093f", "\u200d", FAMILY, "कि", "\r\n"):
        assert bv.display_char(ch) == bv.display_grapheme(ch) == visible_token(ch)


def test_prefix_within_bytes_cuts_between_characters() -> None:
    assert bv.prefix_within_bytes("खबर", 8) == "खब"
    assert bv.prefix_within_bytes("खबर", 9) == "खबर"
    assert bv.prefix_within_bytes("abc", 2) == "ab"


def test_ladder_counts_find_split_characters() -> None:
    tokens = preset_tokens("english-hindi", "खबर")
    counts = bv.ladder_counts(tokens)
    assert counts.bytes == 9 and counts.tokens == len(tokens)
    assert counts.partial == sum(1 for t in tokens if not t.whole)
    # with k = 1 the Hindi letters are split, so every one of them is cut by a token edge
    assert counts.split_chars == 3


def test_ladder_units_start_and_end_between_code_points() -> None:
    """A ladder wraps in whole units (a phone, a projector): no unit starts or ends inside a character."""
    tokens = preset_tokens("english-hindi", bv.samples()["hindi"].text)
    html = bv.token_ladder_html(tokens)
    assert len(re.findall(r'class="tl-chip[ "]', html)) == len(tokens)
    units = html.split('<div class="tl-unit" role="listitem"')[1:]
    assert len(units) >= 2
    for unit in units:
        cells = re.findall(r'class="tl-b(?: tl-cont)?"[^>]*>([0-9A-F]{2})</span>', unit)
        assert bytes.fromhex("".join(cells)).decode("utf-8")  # whole characters only


def test_bytes_in_hindi() -> None:
    """?lang=hi: the page's words, the samples' names, the chart's axis and legend in Hindi; the metrics' numbers
    are the text's own counts."""
    from i18n import decimal, number, using
    from tests.apptest_helpers import chart_spec

    sample = bv.samples()["indore-hi"]
    counts = text_counts(sample.text)
    at = run_page(PAGE, query_params={"lang": "hi"})
    assert_no_exception(at)
    assert at.title[0].value == "प्रति कैरेक्टर बाइट"
    assert at.text_area(key=TEXT).label == "आपका टेक्स्ट"
    assert at.selectbox(key=SAMPLE).label == "नमूना लोड कीजिए"
    assert at.selectbox(key=SAMPLE).format_func("hindi") == "लिपि · हिन्दी (देवनागरी)"
    assert metrics(at) == {
        "कोड पॉइंट": number(counts.code_points), "ग्रैफ़ीम क्लस्टर": number(counts.graphemes),
        "UTF-8 बाइट": number(counts.bytes), "प्रति कोड पॉइंट बाइट": decimal(counts.bytes_per_char),
        "प्रति ग्रैफ़ीम बाइट": decimal(counts.bytes / counts.graphemes),
        "टोकन": metrics(at)["टोकन"], "पूरे कैरेक्टर नहीं": metrics(at)["पूरे कैरेक्टर नहीं"],
        "कटे हुए कैरेक्टर": metrics(at)["कटे हुए कैरेक्टर"], "बाइट": number(counts.bytes)}
    assert [s.value for s in at.subheader][:2] == ["हर कोड पॉइंट", "पढ़ने वाला क्या देखता है: ग्रैफ़ीम क्लस्टर"]
    with using("hi"):  # its note: in the Hindi of lessons/data/sample_texts.json
        assert sample.shown("note") in main_text(at) and sample.note not in main_text(at)
    spec = json.dumps(chart_spec(at.get("vega_lite_chart")[0]), ensure_ascii=False)
    assert "प्रति कैरेक्टर UTF-8 बाइट" in spec and "प्रति ग्रैफ़ीम बाइट" in spec and "bytes per" not in spec
    compare = next(d.value for d in at.dataframe if "bytes per code point" in d.value.columns)
    assert list(compare["sample"])[:3] == ["आपका टेक्स्ट", "English", "Hinglish (लैटिन अक्षर)"]
    ladder = next(h.value for h in at.html if "tl-ladder tl-tok" in h.value)
    assert 'aria-label="टोकन, उनके नीचे कोड पॉइंट, उनके नीचे बाइट"' in ladder and "कैरेक्टर का पहला बाइट" in ladder


def test_bytes_in_hindi_groups_a_long_texts_counts_the_indian_way() -> None:
    """A text longer than the page reads: 1,20,000 code points, the first 1,00,000 counted (3,00,000 bytes)."""
    from i18n import number

    text = "क" * 120_000
    counts = text_counts(text[: bv.MAX_TEXT_CHARS])
    at = run_page(PAGE, query_params={"lang": "hi"})
    at.text_area(key=TEXT).input(text).run()
    assert_no_exception(at)
    assert "आपका टेक्स्ट 1,20,000 कोड पॉइंट लंबा है।" in main_text(at)
    assert "पहले 1,00,000 देखता है" in main_text(at)
    assert metrics(at)["कोड पॉइंट"] == number(counts.code_points, "hi") == "1,00,000"
    assert metrics(at)["UTF-8 बाइट"] == number(counts.bytes, "hi") == "3,00,000"
