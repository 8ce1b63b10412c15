"""The cost engine (analyses/cost.py): lesson 5's news app, computed from its inputs; bad inputs; money formatting."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lessons
from analyses import cost
from analyses.cost import CostInputError, Prices, rupees
from family import real
from tokenizer import train

SCENARIO = lessons.data("cost_scenarios")["scenarios"][0]
EN, HI = SCENARIO["languages"]["english"], SCENARIO["languages"]["hindi"]
PRICES = Prices(SCENARIO["price_input_per_1000"], SCENARIO["price_output_per_1000"])
WINDOW = {"window": SCENARIO["window"], "output_cap": SCENARIO["output_cap"], "margin": SCENARIO["margin"]}


def per_article(lang: dict) -> cost.ArticleCost:
    return cost.article_cost(lang["input_tokens"], lang["output_tokens"], PRICES)


# -- lesson 5, every figure --------------------------------------------------------------------------
def test_the_scenario_holds_only_inputs() -> None:
    assert (SCENARIO["articles_per_day"], SCENARIO["days"]) == (1000, 30)
    assert (EN["story_words"], EN["input_tokens"], HI["story_words"], HI["input_tokens"]) == (400, 550, 410, 1500)
    assert (EN["summary_words"], EN["output_tokens"], HI["output_tokens"]) == (60, 80, 240)
    assert not {"cost", "monthly", "fit", "per_article"} & set(SCENARIO)


def test_cost_per_article() -> None:
    hi, en = per_article(HI), per_article(EN)
    assert (hi.input, hi.output, hi.total) == (Decimal("1.50"), Decimal("0.96"), Decimal("2.46"))
    assert (en.input, en.output, en.total) == (Decimal("0.55"), Decimal("0.32"), Decimal("0.87"))
    assert [rupees(x) for x in (hi.input, hi.output, hi.total, en.input, en.output, en.total)] == [
        "Rs 1.50", "Rs 0.96", "Rs 2.46", "Rs 0.55", "Rs 0.32", "Rs 0.87"]


def test_cost_per_month_is_nearly_three_times() -> None:
    kw = {"articles_per_day": SCENARIO["articles_per_day"], "days": SCENARIO["days"]}
    hi, en = cost.monthly_cost(per_article(HI).total, **kw), cost.monthly_cost(per_article(EN).total, **kw)
    assert (hi, en) == (73_800, 26_100)
    assert (rupees(hi), rupees(en)) == ("Rs 73,800", "Rs 26,100")
    assert 2.8 < cost.ratio(hi, en) < 3  # nearly 3x


def test_what_fits_in_the_window() -> None:
    hi, en = cost.window_fit(HI["input_tokens"], **WINDOW), cost.window_fit(EN["input_tokens"], **WINDOW)
    assert (hi.room, hi.count, hi.used) == (7650, 5, 7500)
    assert (en.count, en.used, en.free) == (13, 7150, 500)


def test_the_presend_check() -> None:
    ok = cost.presend_check(SCENARIO["prompts"][0], prices=PRICES, **WINDOW)
    assert (ok.prompt, ok.accepted, ok.needed, ok.worst_case) == (1550, True, 1900, Decimal("2.75"))
    no = cost.presend_check(SCENARIO["prompts"][1], prices=PRICES, **WINDOW)
    assert (no.prompt, no.accepted, no.needed, no.over_by) == (7700, False, 8050, 50)
    edge = cost.presend_check(8000 - 350, prices=PRICES, **WINDOW)
    assert edge.accepted and edge.needed == 8000  # exactly full is still accepted


def test_decoding_steps() -> None:
    hi, en = cost.speed(HI["input_tokens"], HI["output_tokens"]), cost.speed(EN["input_tokens"], EN["output_tokens"])
    assert (hi.decoding_steps, en.decoding_steps) == (240, 80)
    assert cost.ratio(hi.decoding_steps, en.decoding_steps) == 3.0
    assert hi.prompt_tokens > en.prompt_tokens  # a longer prompt to read before the first token


def test_the_cleaning_lever() -> None:
    kept = cost.cleaned(HI["input_tokens"], SCENARIO["cleaning_percent"])
    assert kept == 1275
    after = cost.article_cost(kept, HI["output_tokens"], PRICES)
    assert after.total == Decimal("2.235") and rupees(after.total) == "Rs 2.24"


# -- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: Prices(-1, 4), "price of 1,000 input tokens cannot be negative"),
        (lambda: Prices(1, "abc"), "must be a number"),
        (lambda: Prices(float("nan"), 4), "must be a number"),
        (lambda: cost.article_cost(-5, 80, PRICES), "Input tokens per article cannot be negative"),
        (lambda: cost.article_cost(1.5, 80, PRICES), "whole number"),
        (lambda: cost.monthly_cost(Decimal(1), articles_per_day=-1, days=30), "Articles a day cannot be negative"),
        (lambda: cost.window_fit(0, **WINDOW), "Tokens per article must be at least 1"),
        (lambda: cost.window_fit(550, window=0, output_cap=300, margin=50), "context window must be at least 1"),
        (lambda: cost.window_fit(550, window=300, output_cap=300, margin=50), "must be larger than the output cap"),
        (lambda: cost.window_fit(550, window=8000, output_cap=-1, margin=50), "output cap cannot be negative"),
        (lambda: cost.presend_check(-1, prices=PRICES, **WINDOW), "prompt cannot be negative"),
        (lambda: cost.cleaned(1500, 120), "between 0 and 100"),
        (lambda: cost.tokens_for(-400, 1.3), "Words cannot be negative"),
    ],
)
def test_bad_inputs_say_what_is_wrong(call, words: str) -> None:
    with pytest.raises(CostInputError, match=words):
        call()


def test_zero_is_a_price_and_a_count_but_not_a_window() -> None:
    assert cost.article_cost(550, 80, Prices(0, 0)).total == 0
    assert cost.monthly_cost(Decimal("2.46"), articles_per_day=0, days=30) == 0
    assert cost.cleaned(1500, 100) == 0 and cost.cleaned(1500, 0) == 1500


def test_a_huge_count_stays_exact() -> None:
    big = 10**12
    c = cost.article_cost(big, big, PRICES)
    assert c.total == Decimal(5 * 10**9)
    assert rupees(c.total) == "Rs 5,00,00,00,000"
    fit = cost.window_fit(1, window=big, output_cap=0, margin=0)
    assert fit.count == big


# -- money --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, shown",
    [(0, "Rs 0.00"), (Decimal("0.005"), "Rs 0.01"), (999.994, "Rs 999.99"), (999.995, "Rs 1,000"),
     (1000, "Rs 1,000"), (99_999, "Rs 99,999"), (100_000, "Rs 1,00,000"), (123_456, "Rs 1,23,456"),
     (12_345_678, "Rs 1,23,45,678"), (Decimal("-2.5"), "Rs -2.50")],
)
def test_rupees_use_indian_grouping(value, shown: str) -> None:
    assert rupees(value) == shown


@given(st.integers(min_value=0, max_value=10**15))
def test_indian_digits_read_back_as_the_number(n: int) -> None:
    text = cost.indian_digits(n)
    assert int(text.replace(",", "")) == n
    groups = text.split(",")
    assert len(groups[-1]) == 3 if n >= 1000 else len(groups) == 1
    assert all(len(g) == 2 for g in groups[1:-1]) and 1 <= len(groups[0]) <= (2 if len(groups) > 1 else 3)


# -- the planning figure -------------------------------------------------------------------------------
def test_rates_are_tokens_per_word_over_a_sample() -> None:
    tok = real.load("o200k_base")
    pairs = lessons.data("parallel_en_hi")["pairs"]
    en = cost.rate(tok, [p["en"] for p in pairs])
    assert en.tokens == sum(tok.count(p["en"]) for p in pairs)
    assert en.words == sum(len(p["en"].split()) for p in pairs)
    assert en.code_points == sum(len(p["en"]) for p in pairs)
    assert cost.tokens_for(400, en.tokens_per_word) == round(400 * en.tokens / en.words)


def test_a_sample_without_words_is_refused() -> None:
    tok = train("aa bb", 0, unit="bytes").tokenizer
    for texts in ([], [""], ["   \n "]):
        with pytest.raises(CostInputError, match="no text to measure"):
            cost.rate(tok, texts)
