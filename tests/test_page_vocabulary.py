"""Vocabulary by script (AppTest): a production tokenizer's whole vocabulary read by script (issue 26)."""

from __future__ import annotations

from analyses import vocab
from family import real
from tests.apptest_helpers import assert_no_exception, html_blocks, main_text, parse_chips, run_page
from views import vocabulary as vv

PAGE = "pages/15_Vocabulary_by_script.py"


def test_opens_on_gpt4o_beside_gpt4_in_devanagari_with_the_definition() -> None:
    at = run_page(PAGE)
    assert_no_exception(at)
    text = main_text(at)
    assert vocab.DEFINITION[:60] in text
    gpt4, gpt4o = vocab.vocabulary(real.load("cl100k_base")), vocab.vocabulary(real.load("o200k_base"))
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["GPT-4o (o200k_base): Devanagari tokens"] == f"{gpt4o.count('Devanagari'):,}"
    assert metrics["GPT-4 (cl100k_base): Devanagari tokens"] == f"{gpt4.count('Devanagari'):,}"
    hindi = real.load("cl100k_base").count(vv.PAIR["test_hi"])
    assert f"{hindi} tokens in GPT\\-4 \\(cl100k\\_base\\)" in text
    table = at.dataframe[0].value
    row = table[table["kind"] == "Devanagari"].iloc[0]
    assert row["GPT-4o (o200k_base)"] == gpt4o.count("Devanagari")
    assert table["GPT-4o (o200k_base)"].sum() == gpt4o.tokens
    longest = [b for b in html_blocks(at) if "longest Devanagari tokens of GPT-4o" in b][0]
    assert parse_chips(longest).texts[0].strip("·") == gpt4o.longest("Devanagari", 1)[0][2].strip()


def test_another_script_and_a_search() -> None:
    at = run_page(PAGE, query_params={"script": "Tamil", "find": "वाला", "vs": "none"})
    assert_no_exception(at)
    gpt4o = vocab.vocabulary(real.load("o200k_base"))
    assert {m.label: m.value for m in at.metric} == {"GPT-4o (o200k_base): Tamil tokens": f"{gpt4o.count('Tamil'):,}"}
    n, _ = gpt4o.search("वाला")
    assert (f"{n} tokens contain it" if n != 1 else "1 token contains it") in main_text(at)


def test_a_bad_link_falls_back_and_a_long_search_is_cut() -> None:
    at = run_page(PAGE, query_params={"script": "Klingon", "vs": "gpt-9", "find": "x" * 5000, "tok": "nope"})
    assert_no_exception(at)
    assert at.selectbox(key=vv.SCRIPT.skey).value == "Devanagari"
    assert at.text_input(key=vv.FIND.skey).value == "x" * vv.MAX_FIND


def test_partial_utf8_tokens_are_a_kind_of_their_own() -> None:
    at = run_page(PAGE, query_params={"script": vocab.PARTIAL, "tok": "cl100k_base", "vs": "o200k_base"})
    assert_no_exception(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["GPT-4 (cl100k_base): partial UTF-8 tokens"] == f"{vocab.vocabulary(real.load('cl100k_base')).count(vocab.PARTIAL):,}"


def test_vocabulary_in_hindi_groups_the_counts_the_indian_way() -> None:
    """?lang=hi: the headings, the pickers, the scripts' names, the definition and the charts' axes in Hindi;
    GPT-4o's ordinary tokens (1,99,998 or so, as analyses.vocab counts them) grouped the Indian way."""
    import json

    from i18n import number, using
    from tests.apptest_helpers import chart_spec, metrics
    from ui.display import md_escape

    a = vocab.vocabulary(real.load(vv.DEFAULT_A))
    at = run_page(PAGE, query_params={"lang": "hi"})
    assert_no_exception(at)
    assert at.title[0].value == "लिपि के हिसाब से शब्दावली"
    assert at.selectbox(key=vv.SCRIPT.skey).label == "लिपि"
    assert at.selectbox(key=vv.SCRIPT.skey).format_func("Devanagari") == "देवनागरी"
    said = main_text(at)
    tokens = number(a.tokens, "hi")
    assert tokens.count(",") == 2 and f"{md_escape(a.title)}: {tokens} साधारण टोकन" in said  # Indian grouping
    assert metrics(at)[f"{a.title}: देवनागरी टोकन"] == number(a.count("Devanagari"), "hi")
    with using("hi"):
        from i18n import _

        assert _(vocab.DEFINITION) in said and vocab.DEFINITION not in said
    axes = json.dumps([chart_spec(c) for c in at.get("vega_lite_chart")], ensure_ascii=False)
    assert "हर 1,000 रैंक में टोकन" in axes and "टोकन में बाइट" in axes and "per 1,000 ranks" not in axes


def _counts_grid(at):
    """The tokens-per-script grid as the browser gets it: its raw numbers (what a header click sorts by) and the
    Styler's display strings (what its cells show; None when no Styler was sent). AppTest gives a grid no key, so
    it is found by its "kind" column."""
    from streamlit import dataframe_util

    grids = [d.proto.arrow_data for d in at.dataframe]
    (arrow,) = [g for g in grids if "kind" in dataframe_util.convert_arrow_bytes_to_pandas_df(g.data).columns]
    raw = dataframe_util.convert_arrow_bytes_to_pandas_df(arrow.data)
    shown = arrow.styler.display_values
    return raw, (dataframe_util.convert_arrow_bytes_to_pandas_df(shown) if shown else None)


def test_the_counts_grid_writes_its_numbers_the_indian_way_in_hindi_and_sorts_by_the_number() -> None:
    """?lang=hi: every plain count in the tokens-per-script grid is shown grouped the Indian way (GPT-4o's Latin
    tokens, over a lakh, as 1,xx,xxx), the raw numbers are still sent for sorting, and the share columns are left
    to their own percent format (column_config's format wins over a Styler's in the grid; the Styler only writes
    pandas' default there, which the grid does not show). English
    sends no Styler: the grid is drawn exactly as before."""
    from i18n import number

    a = vocab.vocabulary(real.load(vv.DEFAULT_A))
    hi = run_page(PAGE, query_params={"lang": "hi"})
    assert_no_exception(hi)
    raw, shown = _counts_grid(hi)
    assert shown is not None and list(shown.columns) == list(raw.columns)
    counts = [c for c in raw.columns if c != "kind" and not c.endswith(", share")]
    assert counts and all(raw[c].dtype.kind == "i" for c in counts)  # sorted as numbers
    for c in counts:
        assert list(shown[c]) == [number(int(n), "hi") for n in raw[c]]
    latin = max(raw[a.title])
    assert latin >= 100_000 and number(int(latin), "hi") in list(shown[a.title])
    assert number(int(latin), "hi").count(",") == 2 and number(int(latin), "en") not in list(shown[a.title])
    share = f"{a.title}, share"
    assert raw[share].dtype.kind == "f" and list(shown[share]) == [f"{v:.6f}" for v in raw[share]]  # pandas' own

    en = run_page(PAGE)
    assert_no_exception(en)
    raw_en, shown_en = _counts_grid(en)
    assert shown_en is None and raw_en.drop(columns="kind").equals(raw.drop(columns="kind"))
