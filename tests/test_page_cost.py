"""The Cost, context and speed page (AppTest): lesson 5's figures computed through the page, every input, bad input."""

from __future__ import annotations

import pytest

import lessons
from analyses import cost
from analyses.cost import Prices, rupees
from family import real
from tests.apptest_helpers import (
    assert_no_exception,
    button,
    chart_datasets,
    chart_spec,
    html_texts,
    main_text,
    metrics,
    page_text,
    run_page,
)
from tests.lesson_data import LESSON4
from ui import choices, predict
from ui.display import md_escape
from views import cost as cv

PAGE = "pages/8_Cost_and_context.py"
SCENARIO = lessons.data("cost_scenarios")["scenarios"][0]
EN, HI = SCENARIO["languages"]["english"], SCENARIO["languages"]["hindi"]
PRICES = Prices(SCENARIO["price_input_per_1000"], SCENARIO["price_output_per_1000"])
WINDOW = {"window": SCENARIO["window"], "output_cap": SCENARIO["output_cap"], "margin": SCENARIO["margin"]}
NO_PREDICT = {"predict": "0"}


def article(lang: dict) -> cost.ArticleCost:
    return cost.article_cost(lang["input_tokens"], lang["output_tokens"], PRICES)


def month(lang: dict) -> str:
    return rupees(cost.monthly_cost(article(lang).total, articles_per_day=SCENARIO["articles_per_day"],
                                    days=SCENARIO["days"]))


def window_data(at):
    (chart,) = at.get("vega_lite_chart")
    return chart_spec(chart), next(f for f in chart_datasets(chart).values() if "kind" in f.columns)


def warnings(at) -> str:
    return " ".join(w.value for w in at.main.get("warning"))


def test_the_news_app_figures_through_the_page() -> None:
    at = run_page(PAGE, query_params=NO_PREDICT)
    m, text = metrics(at), page_text(at)
    # Per article: Rs 2.46 (1.50 + 0.96) and Rs 0.87 (0.55 + 0.32), computed by the engine from the inputs.
    hi, en = article(HI), article(EN)
    assert (m["Hindi, per article"], m["English, per article"]) == (rupees(hi.total), rupees(en.total)) == (
        "Rs 2.46", "Rs 0.87")
    assert f"1,500 tokens in: {rupees(hi.input)} + 240 out: {rupees(hi.output)}" in text
    assert "Rs 1.50" in text and "Rs 0.96" in text and "Rs 0.55" in text and "Rs 0.32" in text
    # Per month: Rs 73,800 against Rs 26,100, nearly 3x.
    assert (m["Hindi, per month"], m["English, per month"]) == (month(HI), month(EN)) == ("Rs 73,800", "Rs 26,100")
    assert "2\\.8× as much in Hindi" in text
    # The window: 5 Hindi articles (7,500 tokens) against 13 English ones.
    fits = tuple(str(cost.window_fit(lang["input_tokens"], **WINDOW).count) for lang in (HI, EN))
    assert (m["Hindi articles that fit"], m["English articles that fit"]) == fits == ("5", "13")
    assert "7,500 tokens" in text and "8,000 − 300 (reply) − 50 (margin) = 7,650" in text
    # The pre-send check: 1,550 accepted at a worst case of Rs 2.75.
    check = cost.presend_check(SCENARIO["prompts"][0], prices=PRICES, **WINDOW)
    assert f"Worst case, the reply uses all 300 tokens: Rs 1.55 + Rs 1.20 = {rupees(check.worst_case)}." in text
    assert "Rs 2.75" in text and "Send it." in text
    # Speed: 3x the output tokens is 3x the decoding steps.
    assert (m["Hindi: decoding steps"], m["English: decoding steps"], m["Hindi ÷ English, steps"]) == (
        "240", "80", "3.0×")
    # Cleaning 15% brings Hindi to about Rs 2.24 an article.
    cleaned = cost.article_cost(cost.cleaned(HI["input_tokens"], SCENARIO["cleaning_percent"]), HI["output_tokens"],
                                PRICES)
    assert m["Hindi, per article after cleaning"] == rupees(cleaned.total) == "Rs 2.24"
    assert "1,500 → 1,275 tokens in." in text


def test_the_window_is_drawn_as_articles() -> None:
    at = run_page(PAGE, query_params=NO_PREDICT)
    spec, data = window_data(at)
    assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"] == [0, 8000]
    hindi = data[data["language"] == "Hindi"]
    assert list(hindi[hindi["kind"] == cv.ARTICLE]["label"]) == ["1", "2", "3", "4", "5"]
    assert list(hindi["end"])[-1] == 8000
    assert hindi[hindi["kind"] == cv.CAP_KIND]["tokens"].item() == 300
    assert len(data[(data["language"] == "English") & (data["kind"] == cv.ARTICLE)]) == 13


def test_predict_how_many_hindi_articles_fit() -> None:
    at = run_page(PAGE)
    assert "How many whole Hindi articles of 1,500 tokens fit in a 8,000\\-token window" in main_text(at)
    assert "Hindi articles that fit" not in metrics(at) and not at.get("vega_lite_chart")  # hidden until answered
    fit = cost.window_fit(1500, window=8000, output_cap=300, margin=50)
    at.number_input(key=predict.input_key(cv.fit_question(fit))).set_value(4).run()
    button(at, "Check").click().run()
    verdict = " ".join(html_texts(at))
    assert "You predicted 4 articles; the lab computed 5 articles." in verdict
    assert "7,650 tokens of room ÷ 1,500 tokens an article = 5.10, so 5 whole articles (7,500 tokens)." in verdict
    assert metrics(at)["Hindi articles that fit"] == "5" and at.get("vega_lite_chart")
    # A new window is a new question.
    at.number_input(key=cv.WINDOW.skey).set_value(4000).run()
    assert "Hindi articles that fit" not in metrics(at)
    at.toggle(key=cv.PREDICT.skey).set_value(False).run()
    assert metrics(at)["Hindi articles that fit"] == "2" and at.query_params["predict"] == "0"


def test_the_presend_check_rejects_a_prompt_that_leaves_no_room() -> None:
    at = run_page(PAGE)
    at.button(key=cv.TRY.of("7700")).click().run()
    assert at.number_input(key=cv.PROMPT.skey).value == 7700
    text = " ".join(html_texts(at))
    assert "Do not send it. 7,700 + 300 (reply cap) + 50 (margin) = 8,050 > 8,000 tokens: 50 over." in text
    assert at.query_params["prompt"] == "7700"
    at.button(key=cv.TRY.of("1550")).click().run()
    assert "Send it." in " ".join(html_texts(at))


def test_every_input_changes_the_figures_and_the_link() -> None:
    at = run_page(PAGE, query_params=NO_PREDICT)
    at.number_input(key=cv.PER_DAY.skey).set_value(5000).run()
    assert metrics(at)["Hindi, per month"] == rupees(cost.monthly_cost(article(HI).total, articles_per_day=5000,
                                                                        days=30)) == "Rs 3,69,000"
    at.number_input(key=cv.DAYS.skey).set_value(31).run()
    assert metrics(at)["English, per month"] == "Rs 1,34,850"
    at.number_input(key=cv.PRICE_IN.skey).set_value(2.0).run()
    assert metrics(at)["Hindi, per article"] == "Rs 3.96"
    at.number_input(key=cv.PRICE_OUT.skey).set_value(1.0).run()
    assert metrics(at)["English, per article"] == "Rs 1.18"
    at.number_input(key=cv.INPUT_TOKENS["hindi"].skey).set_value(1275).run()
    at.number_input(key=cv.OUTPUT_TOKENS["hindi"].skey).set_value(120).run()
    assert metrics(at)["Hindi, per article"] == "Rs 2.67"
    assert metrics(at)["Hindi: decoding steps"] == "120"
    at.number_input(key=cv.OUTPUT_TOKENS["english"].skey).set_value(60).run()
    assert metrics(at)["Hindi ÷ English, steps"] == "2.0×"
    at.number_input(key=cv.INPUT_TOKENS["english"].skey).set_value(1000).run()
    assert metrics(at)["English articles that fit"] == "7"
    at.number_input(key=cv.CAP.skey).set_value(1000).run()
    at.number_input(key=cv.MARGIN.skey).set_value(0).run()
    assert metrics(at)["Hindi articles that fit"] == "5" and metrics(at)["English articles that fit"] == "7"
    at.number_input(key=cv.CLEAN.skey).set_value(50.0).run()
    assert metrics(at)["Hindi, per article after cleaning"] == rupees(
        cost.article_cost(cost.cleaned(1275, 50), 120, Prices(2, 1)).total)
    at.number_input(key=cv.PROMPT.skey).set_value(7000).run()
    assert "Send it. 7,000 + 1,000 (reply cap) + 0 (margin) = 8,000 ≤ 8,000" in " ".join(html_texts(at))  # just fits
    at.number_input(key=cv.PROMPT.skey).set_value(7001).run()
    assert "8,001 > 8,000 tokens: 1 over." in " ".join(html_texts(at))
    assert {k: at.query_params[k] for k in ("per_day", "days", "price_in", "hi_in", "cap", "margin", "clean")} == {
        "per_day": "5000", "days": "31", "price_in": "2.0", "hi_in": "1275", "cap": "1000", "margin": "0",
        "clean": "50.0"}
    # Back to the scenario: every number as the lesson has it.
    at.button(key=cv.RESET.skey).click().run()
    assert metrics(at)["Hindi, per month"] == "Rs 73,800"
    assert "per_day" not in at.query_params and "hi_in" not in at.query_params


def test_a_shared_link_opens_the_same_scenario() -> None:
    at = run_page(PAGE, query_params={"predict": "0", "hi_in": "1275", "window": "4000", "large": "1"})
    assert at.number_input(key=cv.INPUT_TOKENS["hindi"].skey).value == 1275 and at.number_input(key=cv.WINDOW.skey).value == 4000
    m = metrics(at)
    assert m["Hindi articles that fit"] == "2" and m["English articles that fit"] == "6"
    assert m["Hindi, per article"] == "Rs 2.24"


@pytest.mark.parametrize(
    "params, says",
    [
        ({"price_in": "-1"}, "The price of 1,000 input tokens cannot be negative (you gave -1.0)."),
        ({"hi_in": "0"}, "Hindi: Tokens per article must be at least 1 (you gave 0)."),
        ({"en_out": "-80"}, "English: Output tokens per article cannot be negative (you gave -80)."),
        ({"per_day": "-3"}, "Articles a day cannot be negative (you gave -3)."),
        ({"window": "300"}, "The window (300 tokens) must be larger than the output cap plus the margin"),
        ({"window": "0"}, "The context window must be at least 1 (you gave 0)."),
        ({"margin": "-5"}, "The margin cannot be negative (you gave -5)."),
        ({"clean": "150"}, "between 0 and 100 % (you gave 150.0)"),
        ({"prompt": "-2"}, "The prompt cannot be negative (you gave -2)."),
    ],
)
def test_bad_numbers_get_a_clear_message_and_the_rest_works(params: dict, says: str) -> None:
    at = run_page(PAGE, query_params={"predict": "0", **params})
    assert_no_exception(at)
    assert says.replace("(", "").replace(")", "") in warnings(at).replace("\\", "").replace("(", "").replace(")", "")
    assert at.subheader[-1].value.startswith("The planning figure")  # the page drew to the end


def test_zero_prices_and_zero_articles_are_explained() -> None:
    at = run_page(PAGE, query_params={"predict": "0", "price_in": "0", "per_day": "0"})
    text = main_text(at)
    assert "A price of Rs 0" in text and "No articles, no bill" in text
    assert metrics(at)["Hindi, per month"] == "Rs 0.00"


def test_odd_links_fall_back_or_clamp() -> None:
    at = run_page(PAGE, query_params={"price_in": "nan", "hi_in": "9" * 500, "window": "abc", "source": "<x>"})
    assert at.number_input(key=cv.PRICE_IN.skey).value == 1.0
    assert at.number_input(key=cv.INPUT_TOKENS["hindi"].skey).value == 10**12  # clamped to what a widget can hold
    assert at.number_input(key=cv.WINDOW.skey).value == 8000
    assert at.segmented_control(key=cv.SOURCE.skey).value == "scenario"
    assert "Hindi: Tokens per article" not in warnings(at)


def test_token_counts_measured_on_the_parallel_set() -> None:
    at = run_page(PAGE, query_params=NO_PREDICT)
    at.segmented_control(key=cv.SOURCE.skey).set_value("parallel").run()
    assert at.selectbox(key=choices.one_key(cv.PAGE).skey).value == "o200k_base"
    tok = real.load("o200k_base")
    pairs = lessons.data("parallel_en_hi")["pairs"]
    hi_rate = cost.rate(tok, [p["hi"] for p in pairs])
    hi_in, hi_out = cost.tokens_for(410, hi_rate.tokens_per_word), cost.tokens_for(60, hi_rate.tokens_per_word)
    assert md_escape(f"{hi_rate.tokens_per_word:.2f} tokens per word, so 410 words are {hi_in:,} tokens in") in main_text(at)
    assert metrics(at)["Hindi, per article"] == rupees(cost.article_cost(hi_in, hi_out, PRICES).total)
    assert metrics(at)["Hindi: decoding steps"] == f"{hi_out:,}"
    assert not [n for n in at.number_input if n.key == cv.INPUT_TOKENS["hindi"].skey]  # measured, not typed
    planning = next(df.value for df in at.dataframe if "tokens per character" in df.value.columns)
    assert planning.set_index("language").loc["Hindi", "tokens per character"] == pytest.approx(
        hi_rate.tokens_per_char)
    at.selectbox(key=choices.one_key(cv.PAGE).skey).set_value("cl100k_base").run()
    assert at.query_params["tok"] == "cl100k_base" and at.query_params["source"] == "parallel"


def test_token_counts_measured_on_your_own_text() -> None:
    at = run_page(PAGE, query_params={"predict": "0", "source": "own", "tok": "cl100k_base"})
    lesson4 = LESSON4
    tok = real.load("cl100k_base")
    per_word = tok.count(lesson4["test_hi"]) / len(lesson4["test_hi"].split())
    assert md_escape(f"{per_word:.2f} tokens per word") in main_text(at)
    at.text_area(key=cv.TEXTS["hindi"].skey).set_value("").run()
    assert "Your Hindi text\\: There is no text to measure" in main_text(at)
    assert metrics(at)["Hindi, per article"] == "Rs 2.46"  # the scenario's counts meanwhile
    at.text_area(key=cv.TEXTS["english"].skey).set_value("<b>news</b> " * 200_000).run()
    assert_no_exception(at)
    assert "first 200,000 characters" in main_text(at)


def test_the_tokenizer_note_is_for_learners_and_provenance_is_in_the_about_box() -> None:
    """Measuring with GPT-4o: the line under the picker says what the tokenizer is in plain words; the package,
    data file and hash are in the "About these tokenizers" box, where they were before on Real tokenizers."""
    at = run_page(PAGE, query_params={**NO_PREDICT, "source": "parallel", "tok": "o200k_base"})
    captions = " ".join(str(c.value) for c in at.main.caption)
    tok = real.load("o200k_base")
    assert f"token ids 0 to {tok.vocab_size - 1:,}" in captions.replace("\\", "")
    for developer_word in ("quicktok", "package data", ".vocab", "sha256", "rebuilt"):
        assert developer_word not in captions
    (about,) = [e for e in at.main.expander if e.label.startswith("About these tokenizers")]
    at = run_page(PAGE, query_params={**NO_PREDICT, "source": "parallel", "tok": "o200k_base"},
                  session_state={cv.ABOUT_OPEN.skey: True})
    (about,) = [e for e in at.main.expander if e.label.startswith("About these tokenizers")]
    inside = " ".join(str(m.value) for m in about.markdown)
    assert "quicktok" in inside and "sha256" in inside.replace("\\", "")


def test_one_word_is_one_word_not_1_words() -> None:
    """The plural rule on measured counts: a one-word English story reads "1 word", never "1 words"."""
    at = run_page(PAGE, query_params={**NO_PREDICT, "source": "parallel", "tok": "o200k_base", "en_words": "1"})
    text = main_text(at).replace("\\", "")
    assert "so 1 word is " in text and "1 words" not in text


def test_cost_in_hindi_groups_money_and_tokens_the_indian_way() -> None:
    """?lang=hi: the bill in rupees as a Hindi reader writes them (₹1,47,600 a month for 2,000 Hindi articles a day),
    a 2,00,000-token window, the words in Hindi; the figures are the engine's (analyses.cost)."""
    import json

    from i18n import number

    per_day, window = 2_000, 200_000
    monthly = {lang: cost.monthly_cost(article(figures).total, articles_per_day=per_day, days=SCENARIO["days"])
               for lang, figures in (("en", EN), ("hi", HI))}
    fit = cost.window_fit(HI["input_tokens"], window=window, output_cap=SCENARIO["output_cap"],
                          margin=SCENARIO["margin"])
    at = run_page(PAGE, query_params={"lang": "hi", **NO_PREDICT, "per_day": str(per_day), "window": str(window)})
    assert_no_exception(at)
    assert at.title[0].value == "लागत, कॉन्टेक्स्ट और रफ़्तार"
    assert [s.value for s in at.subheader][:3] == ["एक ख़बर की क़ीमत", "एक महीने की ख़बरें",
                                                   "एक प्रॉम्प्ट में कितनी ख़बरें आती हैं"]
    said = metrics(at)
    hindi_month = rupees(monthly["hi"]).replace("Rs ", "₹")
    assert said["हिन्दी, प्रति माह"] == hindi_month and hindi_month.count(",") == 2  # ₹1,47,600: Indian grouping
    assert said["हिन्दी इतनी महँगी"] == rupees(monthly["hi"] - monthly["en"]).replace("Rs ", "₹")
    assert said["आने वाली हिन्दी ख़बरें"] == number(fit.count, "hi")
    room = f"प्रॉम्प्ट के लिए जगह: {number(window, 'hi')} − {SCENARIO['output_cap']} (जवाब)"
    assert room in main_text(at) and "2,00,000" in room
    spec = json.dumps(chart_spec(at.get("vega_lite_chart")[0]), ensure_ascii=False)
    assert "2,00,000 टोकन की कॉन्टेक्स्ट विंडो में टोकन" in spec and '"grouping": [3, 2' in spec  # its axis too
    assert at.number_input(key=cv.PRICE_IN.skey).label == "₹ प्रति 1,000 इनपुट टोकन"
    assert "Rs " not in " ".join(said.values())


@pytest.mark.parametrize(
    "params, says",
    [
        ({"per_day": "-3"}, "रोज़ की ख़बरें: ऋणात्मक संख्या नहीं चलेगी (आपने -3 दिया)।"),
        ({"hi_in": "0"}, "हिन्दी: प्रति ख़बर टोकन: कम से कम 1 चाहिए (आपने 0 दिया)।"),
        ({"window": "0"}, "कॉन्टेक्स्ट विंडो: कम से कम 1 चाहिए (आपने 0 दिया)।"),
        ({"window": "300"}, "विंडो (300 टोकन) आउटपुट की सीमा और मार्जिन के जोड़ ("),
        ({"clean": "150"}, "सफ़ाई में हटाए गए टोकन का हिस्सा 0 से 100 % के बीच होना चाहिए (आपने 150.0 दिया)।"),
    ],
)
def test_the_engines_refusals_in_hindi(params: dict, says: str) -> None:
    """?lang=hi: a number the arithmetic refuses (analyses.cost.CostInputError) is said in Hindi, the input named in
    Hindi; the article's refusal still names its language, the window's names none."""
    at = run_page(PAGE, query_params={"lang": "hi", **NO_PREDICT, **params})
    assert_no_exception(at)
    said = warnings(at).replace("\\", "")
    assert says in said, said
    assert not any(w in said for w in ("cannot", "must", "you gave")), said


def test_the_window_refusal_names_a_language_only_for_an_articles_tokens() -> None:
    """The window section told the two refusals apart by the word "article" in the English; it now asks the
    refusal what it is about (CostInputError.what), so the Hindi page does the same."""
    for lang in ("en", "hi"):
        at = run_page(PAGE, query_params={"lang": lang, **NO_PREDICT, "window": "300"})
        assert not warnings(at).replace("\\", "").startswith(("Hindi:", "English:", "हिन्दी:", "अंग्रेज़ी:"))
