"""The Real tokenizers page (AppTest): the Hindi premium of each production tokenizer, split into its two parts."""

from __future__ import annotations

import altair as alt
import pytest

from analyses.measure import premium
from family import real
from tests.apptest_helpers import assert_no_exception, chart_datasets, chart_spec, main_text, run_page
from tests.lesson_data import LESSON4
from ui import choices
from ui import premium as pv
from views import real as rv

LESSON4_HI = LESSON4["test_hi"]

PAGE = "pages/5_Real_tokenizers.py"


def table(at):
    return next(df.value for df in at.dataframe if "Hindi premium" in df.value.columns)


def chart_data(at):
    (chart,) = at.get("vega_lite_chart")
    return chart_spec(chart), next(f for f in chart_datasets(chart).values() if "part" in f.columns)


def test_opens_on_the_lesson_4_pair_with_every_real_tokenizer() -> None:
    at = run_page(PAGE)
    assert at.text_area(key=rv.ENGLISH.skey).value == LESSON4["test_en"]
    assert at.text_area(key=rv.HINDI.skey).value == LESSON4["test_hi"]
    rows = table(at).set_index("tokenizer")
    # The curriculum's figures, computed by the real tokenizers.
    assert (rows.loc["GPT-4 (cl100k_base)", "English"], rows.loc["GPT-4 (cl100k_base)", "Hindi"]) == (11, 47)
    assert (rows.loc["GPT-4o (o200k_base)", "English"], rows.loc["GPT-4o (o200k_base)", "Hindi"]) == (11, 15)
    for info in (i for i in real.catalogue() if i.featured):  # "every" is the featured seven
        p = premium(real.load(info.name), LESSON4["test_en"], LESSON4["test_hi"])
        row = rows.loc[info.title]
        assert (row["English"], row["Hindi"]) == (p.english.tokens, p.hindi.tokens)
        assert row["Hindi premium"] == pytest.approx(p.premium)
        assert row["UTF-8 part"] * row["tokenizer part"] == pytest.approx(row["Hindi premium"])
        assert row["licence"] == info.licence
    # The references: raw UTF-8 bytes (120 / 47) and characters.
    assert rows.loc[pv.UTF8, "Hindi premium"] == pytest.approx(120 / 47)
    assert rows.loc[pv.CHARS, "Hindi premium"] == pytest.approx(46 / 47)


def test_the_chart_shows_both_parts_and_the_published_figures() -> None:
    at = run_page(PAGE)
    spec, data = chart_data(at)
    assert spec["layer"][0]["encoding"]["x"]["scale"]["type"] == "log"
    published = data[data["part"] == pv.PUBLISHED].set_index("tokenizer")["value"].to_dict()
    assert published == {"GPT-4 (cl100k_base)": 4.79, "GPT-2 (r50k_base)": 7.46, pv.UTF8: 2.55, pv.CHARS: 1.0}
    assert set(data["part"]) == {*pv.PARTS, pv.PUBLISHED}
    assert "Petrov" in main_text(at)


@pytest.mark.parametrize("large", [False, True])
def test_the_chart_is_valid_vega_lite(large: bool) -> None:
    rows = pv.rows(["cl100k_base", "english-hindi"], LESSON4["test_en"], LESSON4["test_hi"])
    alt.Chart.from_dict(pv.chart_spec(tuple(rows), large))  # validates against the schema


def test_own_pair_and_a_lab_tokenizer() -> None:
    at = run_page(PAGE, query_params={"en": "The news.", "hi": "खबर।", "toks": "english-hindi-fair,cl100k_base"})
    rows = table(at).set_index("tokenizer")
    assert list(rows.index) == ["English + Hindi news: 10 Hindi copies", "GPT-4 (cl100k_base)", pv.UTF8, pv.CHARS]
    assert (rows.loc[pv.UTF8, "English"], rows.loc[pv.UTF8, "Hindi"]) == (len(b"The news."), len("खबर।".encode()))
    at.button(key=rv.RESET.skey).click().run()
    assert at.text_area(key=rv.ENGLISH.skey).value == LESSON4["test_en"]


def test_a_page_that_stops_early_still_links_to_what_is_on_screen() -> None:
    """The page stops when a box is empty or no tokenizer is picked; what the learner typed still goes into the
    address (published however the page ends)."""
    at = run_page(PAGE)
    at.text_area(key=rv.ENGLISH.skey).set_value("").run()
    at.text_area(key=rv.HINDI.skey).set_value("खबर।").run()
    assert "Type a sentence in both boxes" in main_text(at)
    assert at.query_params["hi"] == "खबर।" and at.query_params["en"] == ""
    at.text_area(key=rv.ENGLISH.skey).set_value("The news.").run()
    at.multiselect(key=choices.many_key(rv.PAGE).skey).set_value([]).run()
    assert "Pick at least one tokenizer" in main_text(at)
    assert at.query_params["en"] == "The news." and at.query_params["toks"] == ""


def test_empty_or_awkward_text() -> None:
    at = run_page(PAGE, query_params={"hi": " "})
    assert "Type a sentence in both boxes" in main_text(at)
    at = run_page(PAGE, query_params={"hi": "<img src=x onerror=alert(1)> \u202e 👩\u200d👧 \x07"})
    assert_no_exception(at)
    assert table(at) is not None


def test_the_tokens_can_be_seen() -> None:
    at = run_page(PAGE, query_params={"toks": "o200k_base"}, session_state={rv.TOKENS_OPEN.skey: True})
    text = main_text(at)
    assert "GPT\\-4o \\(o200k\\_base\\)**, Hindi: 15 tokens" in text


def test_any_token_opens_its_merge_tree() -> None:
    at = run_page(PAGE, query_params={"toks": "cl100k_base,o200k_base"}, session_state={rv.TREE_OPEN.skey: True})
    assert_no_exception(at)
    at.selectbox(key=rv.TREE_TOK.skey).set_value("cl100k_base").run()
    tok = real.load("cl100k_base")
    hindi = tok.encode(LESSON4_HI)
    assert at.selectbox(key=rv.TREE_ID.skey).value == next(i for i in hindi if tok.token_bytes(i)[1:])
    html = next(h.value for h in at.html if 'class="tl-tree"' in h.value)
    assert "rank" in html and "a byte: where every token starts" in html


def test_an_unavailable_tokenizer_is_named_with_its_reason_and_the_others_work(monkeypatch) -> None:
    original = real.load

    def load(name: str):
        if name == "r50k_base":
            raise real.TokenizerUnavailable(name, "its data failed the hash check (a test)")
        return original(name)

    choices._load_real.clear()
    monkeypatch.setattr(real, "load", load)
    try:
        at = run_page(PAGE, session_state={rv.ABOUT_OPEN.skey: True})
        warnings = " ".join(w.value for w in at.main.get("warning"))
        assert "hash check" in warnings
        rows = table(at).set_index("tokenizer")
        assert "GPT-2 (r50k_base)" not in rows.index and rows.loc["GPT-4o (o200k_base)", "Hindi"] == 15
    finally:
        choices._load_real.clear()


def test_real_tokenizers_in_hindi() -> None:
    """?lang=hi: the heading, the chart (axis, legend and the parts in its data), the table's reference rows and the
    about box in Hindi, GPT-4o's ids grouped the Indian way (0 to 2,00,018); the premiums are the engine's."""
    import json

    from i18n import decimal, number

    at = run_page(PAGE, query_params={"lang": "hi", "toks": "o200k_base,cl100k_base"},
                  session_state={rv.ABOUT_OPEN.skey: True})
    assert_no_exception(at)
    assert at.title[0].value == "असली टोकनाइज़र"
    assert at.subheader[0].value == "हिन्दी प्रीमियम, और उसके दो हिस्से"
    spec, data = chart_data(at)
    assert "अंग्रेज़ी के मुक़ाबले हिन्दी में कितने गुना" in json.dumps(spec, ensure_ascii=False)
    assert set(data["part"]) == {"प्रीमियम", "UTF-8 का हिस्सा", "टोकनाइज़र का हिस्सा", "प्रकाशित (FLORES-200)"}
    p = premium(real.load("o200k_base"), LESSON4["test_en"], LESSON4_HI)
    premiums = data[data["part"] == "प्रीमियम"].set_index("tokenizer")["label"]
    assert premiums["GPT-4o (o200k_base)"] == f"{decimal(p.premium, 2, 'hi')}×"
    rows = table(at).set_index("tokenizer")
    assert "UTF-8 बाइट (बिना टोकनाइज़र)" in rows.index and "कैरेक्टर (कोड पॉइंट)" in rows.index
    last = number(real.load("o200k_base").vocab_size - 1, "hi")
    assert last.count(",") == 2 and f"टोकन आईडी 0 से {last} तक" in main_text(at)  # 2,00,018: Indian grouping
    assert "इन टोकनाइज़र के बारे में" in [e.label for e in at.expander][-1]
