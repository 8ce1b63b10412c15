"""The Beyond Hindi page (AppTest): many languages' premium over English, per character, split into two parts."""

from __future__ import annotations

import re

import altair as alt
import pytest

import lessons
from analyses.measure import Premium, byte_measure, premium
from analyses.textstats import text_counts
from family import real
from tests.apptest_helpers import assert_no_exception, chart_datasets, chart_spec, main_text, run_page
from ui import choices
from ui import premium as pv
from ui.display import md_escape
from views import beyond_hindi as bv

PAGE = "pages/7_Beyond_Hindi.py"
SAMPLES, _ = lessons.language_samples()
ENGLISH = SAMPLES[0]
BY_LABEL = {pv.language_label(s): s for s in SAMPLES}
SPEC = lessons.data("languages")


def table(at):
    return next(df.value for df in at.dataframe if "× English" in df.value.columns)


def chart_data(at):
    (chart,) = at.get("vega_lite_chart")
    return chart_spec(chart), next(f for f in chart_datasets(chart).values() if "part" in f.columns)


def test_opens_on_every_language_with_gpt4o_and_gpt4_per_character() -> None:
    at = run_page(PAGE)
    assert at.segmented_control(key=bv.GROUP.skey).value == "all"
    assert at.segmented_control(key=bv.PER.skey).value == "char"
    assert at.segmented_control(key=bv.SAMPLE.skey).value == "long"
    assert at.selectbox(key=bv.CHART.skey).value == "o200k_base"
    rows = table(at)
    assert rows["language"].nunique() == len(SAMPLES) >= 21  # English and at least twenty more
    assert set(rows["tokenizer"]) == {"GPT-4o (o200k_base)", "GPT-4 (cl100k_base)", pv.UTF8}
    # Every figure, computed again by the engine with each real tokenizer.
    for key in ("o200k_base", "cl100k_base"):
        tok = real.load(key)
        mine = rows[rows["tokenizer"] == tok.name].set_index("language")
        for sample in SAMPLES:
            p = premium(tok, ENGLISH.text, sample.text, per="char")
            row = mine.loc[pv.language_label(sample)]
            assert row["tokens"] == p.other.tokens
            assert row["characters"] == len(sample.text)
            assert row["× English"] == pytest.approx(p.premium)
            assert row["UTF-8 part"] * row["tokenizer part"] == pytest.approx(row["× English"])
    raw = rows[rows["tokenizer"] == pv.UTF8].set_index("language")
    hindi = BY_LABEL["Hindi · हिन्दी"]
    assert raw.loc["Hindi · हिन्दी", "tokens"] == text_counts(hindi.text).bytes
    assert raw.loc["Hindi · हिन्दी", "tokenizer part"] == 1.0
    assert raw.loc["Hindi · हिन्दी", "× English"] == pytest.approx(
        (text_counts(hindi.text).bytes / len(hindi.text)) / (text_counts(ENGLISH.text).bytes / len(ENGLISH.text)))


def test_the_chart_is_the_premium_chart_by_language() -> None:
    at = run_page(PAGE)
    spec, data = chart_data(at)
    assert spec["layer"][0]["encoding"]["x"]["scale"]["type"] == "log"
    assert "per character" in spec["layer"][0]["encoding"]["x"]["title"]
    assert set(data["part"]) == set(pv.PARTS)  # no published figures here
    assert "English" not in set(data["language"])  # the yardstick is the 1 line
    premiums = data[data["part"] == "premium"].set_index("language")["value"]
    assert len(premiums) == len(SAMPLES) - 1
    assert list(premiums) == sorted(premiums, reverse=True)  # the dearest first
    tok = real.load("o200k_base")
    dearest = max(SAMPLES[1:], key=lambda s: premium(tok, ENGLISH.text, s.text, per="char").premium)
    assert premiums.index[0] == pv.language_label(dearest)
    hindi = premium(tok, ENGLISH.text, BY_LABEL["Hindi · हिन्दी"].text, per="char").premium
    assert md_escape(f"Hindi: {hindi:.2f}×") in main_text(at)
    assert f"{dearest.label}" in main_text(at)


@pytest.mark.parametrize("large", [False, True])
def test_the_language_chart_is_valid_vega_lite(large: bool) -> None:
    alt.Chart.from_dict(pv.language_chart_spec(("o200k_base",), "india", "char", False, "o200k_base", large))


def test_a_shared_link_opens_the_same_view() -> None:
    at = run_page(PAGE, query_params={"group": "india", "per": "grapheme", "sample": "line", "chart": "utf8",
                                      "toks": "llama3,english-hindi-fair"})
    assert at.segmented_control(key=bv.GROUP.skey).value == "india"
    assert at.selectbox(key=bv.CHART.skey).value == "utf8"
    rows = table(at)
    india = {pv.language_label(s) for s in SAMPLES if s.group == "india"}
    assert set(rows["language"]) == india | {"English"}
    assert "letters" in rows.columns and "tokens per letter" in rows.columns
    assert set(rows["tokenizer"]) == {real.load("llama3").name, "English + Hindi news: 10 Hindi copies", pv.UTF8}
    tamil = BY_LABEL["Tamil · தமிழ்"]
    raw = rows[rows["tokenizer"] == pv.UTF8].set_index("language").loc["Tamil · தமிழ்"]
    expected = Premium(byte_measure(ENGLISH.line), byte_measure(tamil.line), "grapheme")
    assert raw["× English"] == pytest.approx(expected.premium) and raw["letters"] == text_counts(tamil.line).graphemes
    _, data = chart_data(at)
    premiums = data[data["part"] == "premium"].set_index("language")["value"]
    utf8 = data[data["part"] == "UTF-8 part"].set_index("language")["value"]
    assert (premiums == utf8[premiums.index]).all()  # no merges: the premium is the UTF-8 part alone


def test_each_control_changes_the_view() -> None:
    at = run_page(PAGE)
    at.segmented_control(key=bv.GROUP.skey).set_value("world").run()
    assert at.query_params["group"] == "world"
    assert not {pv.language_label(s) for s in SAMPLES if s.group == "india"} & set(table(at)["language"])
    at.segmented_control(key=bv.PER.skey).set_value("grapheme").run()
    assert "tokens per letter" in table(at).columns
    at.segmented_control(key=bv.SAMPLE.skey).set_value("line").run()
    assert table(at).set_index(["language", "tokenizer"]).loc[("English", pv.UTF8), "UTF-8 bytes"] == len(
        ENGLISH.line.encode())
    at.selectbox(key=bv.CHART.skey).set_value("cl100k_base").run()
    assert at.query_params["chart"] == "cl100k_base"
    assert "GPT\\-4 \\(cl100k\\_base\\)" in main_text(at)
    at.multiselect(key=choices.many_key(bv.PAGE).skey).set_value(["o200k_base"]).run()
    assert at.selectbox(key=bv.CHART.skey).value == "o200k_base"  # the charted one was dropped
    assert set(table(at)["tokenizer"]) == {"GPT-4o (o200k_base)", pv.UTF8}
    at.multiselect(key=choices.many_key(bv.PAGE).skey).set_value([]).run()
    assert_no_exception(at)
    assert set(table(at)["tokenizer"]) == {pv.UTF8}  # raw bytes still measure every language


def test_the_sample_texts_can_be_read() -> None:
    at = run_page(PAGE, session_state={bv.SAMPLES_OPEN.skey: True})
    texts = next(df.value for df in at.dataframe if "the line is from" in df.value.columns).set_index("language")
    assert texts.loc["Hindi · हिन्दी", "characters"] == len(BY_LABEL["Hindi · हिन्दी"].text)
    assert "↵" in texts.loc["Hindi · हिन्दी", "text"]  # the passages' line breaks are shown
    assert texts.loc["Urdu · اردو", "script"] == "Arabic"
    assert "gflanguages" in main_text(at)


def test_bad_links_fall_back_to_the_defaults() -> None:
    at = run_page(PAGE, query_params={"group": "<b>x</b>", "per": "nan", "sample": "", "chart": "nope",
                                      "toks": "nope,o200k_base"})
    assert at.segmented_control(key=bv.GROUP.skey).value == "all"
    assert at.segmented_control(key=bv.PER.skey).value == "char"
    assert at.selectbox(key=bv.CHART.skey).value == "o200k_base"
    assert "Not here" in main_text(at)


def test_large_type_stacks_the_controls() -> None:
    at = run_page(PAGE, query_params={"large": "1"})
    spec, _ = chart_data(at)
    assert spec["config"]["axis"]["labelFontSize"] == 20


def test_large_type_draws_the_table_as_text_with_the_grids_formats() -> None:
    """The data grid draws on a canvas at a fixed 14 px; in large type the same rows are a plain table whose
    text scales with the page, each number written as the grid writes it (× English to two places, with ×)."""
    grid = table(run_page(PAGE))
    at = run_page(PAGE, query_params={"large": "1"})
    assert not [df for df in at.dataframe if "× English" in df.value.columns]
    (large,) = [t.value for t in at.table if "× English" in t.value.columns]
    assert list(large.columns) == list(grid.columns) and len(large) == len(grid)
    assert list(large["× English"]) == [f"{v:.2f}×" for v in grid["× English"]]


def test_an_unavailable_tokenizer_is_named_with_its_reason_and_the_others_work(monkeypatch) -> None:
    original = real.load

    def load(name: str):
        if name == "cl100k_base":
            raise real.TokenizerUnavailable(name, "its data failed the hash check (a test)")
        return original(name)

    choices._load_real.clear()
    pv.language_rows.clear()
    pv.language_view.clear()
    monkeypatch.setattr(real, "load", load)
    try:
        at = run_page(PAGE, session_state={bv.ABOUT_OPEN.skey: True})
        warnings = " ".join(w.value for w in at.main.get("warning"))
        assert "hash check" in warnings
        assert set(table(at)["tokenizer"]) == {"GPT-4o (o200k_base)", pv.UTF8}
        assert "**Not available here**" in main_text(at)  # and named in About, with the reason
        named = md_escape("GPT-4 (cl100k_base)") + ": " + md_escape("The cl100k_base tokenizer is unavailable")
        assert named in main_text(at)
    finally:
        choices._load_real.clear()
        pv.language_rows.clear()
        pv.language_view.clear()


def test_without_the_sample_texts_the_page_says_why(monkeypatch) -> None:
    def missing():
        raise lessons.SamplesUnavailable("The sample texts come from the gflanguages package (a test).")

    pv.language_samples.clear()
    monkeypatch.setattr(lessons, "language_samples", missing)
    try:
        at = run_page(PAGE)
        assert "gflanguages package \\(a test\\)" in " ".join(e.value for e in at.main.get("error"))
    finally:
        pv.language_samples.clear()


def test_the_summary_says_times_in_words_not_two_signs_in_a_row() -> None:
    """It read "(UTF-8 part 2.99× × tokenizer part 1.26×)": a number's × and the product's × side by side."""
    at = run_page(PAGE)
    assert_no_exception(at)
    text = re.sub(r"\\(.)", r"\1", main_text(at))  # the markdown's escapes off
    top = next(line for line in text.splitlines() if "pays the most" in line)
    assert "× ×" not in top and "××" not in top
    found = re.search(r"its UTF-8 part, ([\d.]+)×, times its tokenizer part, ([\d.]+)×\)", top)
    assert found, top
    most = re.search(r"pays the most: ([\d.]+)×", top)
    assert float(found[1]) * float(found[2]) == pytest.approx(float(most[1]), abs=0.02)


def test_beyond_hindi_in_hindi() -> None:
    """?lang=hi: the heading, the pickers, the chart (its axis and the languages named in Hindi beside their own
    names), the summary and the table's languages in Hindi; the figures are the engine's, as in English."""
    import json

    from i18n import using

    at = run_page(PAGE, query_params={"lang": "hi"})
    assert_no_exception(at)
    assert at.title[0].value == "हिन्दी से आगे"
    assert at.subheader[0].value == "प्रति कैरेक्टर टोकन, अंग्रेज़ी के मुक़ाबले"
    assert at.segmented_control(key=bv.GROUP.skey).label == "भाषाएँ"
    assert at.segmented_control(key=bv.GROUP.skey).format_func("india") == "भारत की भाषाएँ"
    spec, data = chart_data(at)
    assert "× अंग्रेज़ी, प्रति कैरेक्टर (लॉग स्केल)" in json.dumps(spec, ensure_ascii=False)
    assert {"तमिल · தமிழ்", "हिन्दी", "रूसी · Русский"} <= set(data["language"])
    view = pv.language_view(("o200k_base", "cl100k_base"), "all", "char", False, "o200k_base")
    with using("hi"):
        summary = pv.summary_of(view.chart_rows)
    assert summary.startswith("GPT-4o (o200k_base) के साथ सबसे ज़्यादा") and md_escape(summary) in main_text(at)
    assert "तमिल · தமிழ்" in set(table(at)["language"])
