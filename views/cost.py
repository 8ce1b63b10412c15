"""What the "Cost, context and speed" page draws, section by section.

The arithmetic is the engine's (:mod:`analyses.cost`); this module reads the
scenario's inputs (``lessons/data/cost_scenarios.json``) into settings that
live in the URL, measures tokens per word with a tokenizer (cached for every
learner), and draws each section: what one article costs, a month of them,
what fits in the context window (drawn as a bar of articles, with the predict
widget), the pre-send check, decoding steps, the cleaning lever and the
planning figure. An input the engine refuses is named in the section that
needs it; the other sections keep working.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

import i18n
import lessons
from analyses import cost
from analyses.cost import CostInputError, Fit, rate, rupees
from analyses.measure import Measure
from i18n import N_, _, _n, decimal, localized, number
from ui import charts, choices, predict, state, tables
from ui.display import callout_html, md_escape, translated
from ui.language import per_language
from ui.layout import controls, figure
from ui.questions import fit_question

PAGE = "cost"
LANGUAGES = ("english", "hindi")
NAMES = {"english": N_("English"), "hindi": N_("Hindi")}  # drawn as _(NAMES[lang])
MAX_TEXT_CHARS = 200_000
"""Your own text is measured up to this many characters (a few long articles is plenty for a rate)."""
MAX_DRAWN_ARTICLES = 40
"""Past this many articles in one window, the chart draws them as one block."""
BIG = 10**12
"""No count or price beyond this (a number widget cannot hold much more); a link asking for more is clamped."""
SOURCES = {"scenario": N_("The scenario's figures"), "parallel": N_("Measured: the lab's parallel set"),
           "own": N_("Measured: your own text")}


def scenarios() -> dict[str, dict]:
    """Every scenario of the cost page, by id, in file order."""
    return lessons.cost_scenarios()


SCENARIO = next(iter(scenarios().values()))


def name(lang: str) -> str:
    """"English" or "Hindi" in the learner's language."""
    return _(NAMES[lang])


def inr(value: Decimal | float, *, paise: bool | None = None) -> str:
    """Money as :func:`analyses.cost.rupees` writes it (rounded as a bill is, Indian grouping): "Rs 1,23,457" in
    English, "₹1,23,457" in Hindi."""
    written = rupees(value, paise=paise)
    return written.replace("Rs ", "₹", 1) if i18n.current() == "hi" else written


def scenario_text(field: str) -> str:
    """The scenario's title or description in the learner's language (its Hindi is beside the English)."""
    return localized(SCENARIO)[field]
_PAIR = lessons.data("lesson4_english_hindi")


# -- the settings, all in the URL --------------------------------------------------------------------
def _number(name: str, default: float) -> state.Param:
    return state.Param(PAGE, name, default, lo=-BIG, hi=BIG)


def _per_language(field: str, short: str) -> dict[str, state.Param]:
    return {lang: _number(f"{lang[:2]}_{short}", SCENARIO["languages"][lang][field]) for lang in LANGUAGES}


SOURCE = state.Param(PAGE, "source", "scenario", choices=tuple(SOURCES))
PRICE_IN = _number("price_in", float(SCENARIO["price_input_per_1000"]))
PRICE_OUT = _number("price_out", float(SCENARIO["price_output_per_1000"]))
STORY_WORDS = _per_language("story_words", "words")
INPUT_TOKENS = _per_language("input_tokens", "in")
SUMMARY_WORDS = _per_language("summary_words", "summary")
OUTPUT_TOKENS = _per_language("output_tokens", "out")
PER_DAY = _number("per_day", SCENARIO["articles_per_day"])
DAYS = _number("days", SCENARIO["days"])
WINDOW = _number("window", SCENARIO["window"])
CAP = _number("cap", SCENARIO["output_cap"])
MARGIN = _number("margin", SCENARIO["margin"])
PROMPT = _number("prompt", SCENARIO["prompts"][0])
CLEAN = _number("clean", float(SCENARIO["cleaning_percent"]))
PREDICT = state.Param(PAGE, "predict", True)
TEXTS = {"english": state.Param(PAGE, "en_text", _PAIR["test_en"], max_len=1000),
         "hindi": state.Param(PAGE, "hi_text", _PAIR["test_hi"], max_len=1000)}
NUMBERS = [PRICE_IN, PRICE_OUT, *STORY_WORDS.values(), *INPUT_TOKENS.values(), *SUMMARY_WORDS.values(),
           *OUTPUT_TOKENS.values(), PER_DAY, DAYS, WINDOW, CAP, MARGIN, PROMPT, CLEAN]
#: The page's parts. In classroom mode each is a tab (one slide each), and a link opens the one it names (?part=),
#: as tabs outside classroom mode too; with no part named, every part is on the page (ui.layout.Slides).
PARTS = {"bill": N_("The bill"), "window": N_("The window"), "presend": N_("Before sending"), "speed": N_("Speed"),
         "cleaning": N_("Cleaning"), "planning": N_("Tokens per word")}  # drawn through _() (part_names)


def part_names() -> dict[str, str]:
    """The parts' names in the learner's language, for the tabs."""
    return {part: _(label) for part, label in PARTS.items()}
PART = state.Param(PAGE, "part", "", choices=("", *PARTS))
PARAMS = [SOURCE, *NUMBERS, PREDICT, *TEXTS.values(), PART]
RESET = state.Key(PAGE, "reset")
ABOUT_OPEN = state.Key(PAGE, "about_open")
WINDOW_CHART = state.Key(PAGE, "window")
PLANNING_TABLE = state.Key(PAGE, "planning")


TRY = state.Key(PAGE, "try")
"""The "Try N" buttons that put a prompt of N tokens in the pre-send check: ``TRY.of(str(tokens))``."""


def inputs(what: str | None = None):
    """Where a section's number inputs go (:func:`ui.layout.controls`: folded in classroom mode)."""
    return controls(what or _("Change the numbers"))


def back_to_scenario() -> None:
    """on_click: every number back to the scenario's, token counts from the scenario."""
    for param in NUMBERS:
        state.set_value(param, param.default)
    state.set_value(SOURCE, SOURCE.default)


# -- small helpers ---------------------------------------------------------------------------------
def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """``(fn(...), None)``, or ``(None, the learner's message)`` when the engine refuses an input."""
    try:
        return fn(*args, **kwargs), None
    except CostInputError as exc:
        return None, str(exc)


def number_input(label: str, param: state.Param, help: str | None = None) -> None:
    """A number box for a setting: whole numbers for counts, two decimals for rupees and percentages."""
    if isinstance(param.default, float):
        st.number_input(label, key=param.skey, step=0.5, format="%.2f", help=help)
    else:
        st.number_input(label, key=param.skey, step=1, help=help)


def warn(message: str) -> None:
    st.warning(md_escape(message), icon=":material/error:")


# -- measured rates --------------------------------------------------------------------------------
@st.cache_data(max_entries=32, show_spinner=False)
def parallel_rates(key: str) -> tuple[Measure, Measure]:
    """Tokens per word of the lab's English/Hindi parallel set (each sentence counted on its own)."""
    tok = choices.load(key)
    pairs = lessons.data("parallel_en_hi")["pairs"]
    return rate(tok, [p["en"] for p in pairs]), rate(tok, [p["hi"] for p in pairs])


@st.cache_data(max_entries=64, show_spinner=False)
def text_rate(key: str, text: str) -> Measure:
    """Tokens per word of one text (raises CostInputError when it has no words)."""
    return rate(choices.load(key), [text[:MAX_TEXT_CHARS]])


def parallel_size() -> int:
    return len(lessons.data("parallel_en_hi")["pairs"])


# -- 1. one article --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Article:
    """One language's article as the page uses it: words, and the tokens in and out."""

    story_words: int
    input_tokens: int
    summary_words: int
    output_tokens: int


@dataclass
class Articles:
    """What section 1 found: each language's article, the prices and costs, and the measured rates."""

    articles: dict[str, Article]
    prices: cost.Prices | None
    per_article: dict[str, cost.ArticleCost]
    rates: dict[str, Measure]
    rate_note: str


def _measured_rates(source: str, large: bool) -> tuple[dict[str, Measure], str]:
    """The tokenizer picker and, for your own text, the text boxes; the rates measured (may be empty)."""
    key, tok = choices.pick_one(PAGE, default="o200k_base", label=_("Tokenizer to measure with"))
    if tok is None:
        st.info(_("Until a tokenizer is chosen, the scenario's token counts are used."), icon=":material/info:")
        return {}, ""
    choices.about_box([(key, tok)], key=ABOUT_OPEN.skey, note=choices.OFFLINE_NOTE)
    if source == "parallel":
        note = _("{name} on the lab's {n} English/Hindi sentence pairs", name=tok.name, n=number(parallel_size()))
        with st.spinner(_("Measuring the parallel set…")):
            return dict(zip(LANGUAGES, parallel_rates(key))), note
    for col, lang in zip(st.columns(1 if large else 2) * 2, LANGUAGES):
        with col:
            st.text_area(_("Your English text") if lang == "english" else _("Your Hindi text"), key=TEXTS[lang].skey,
                         height=110,
                         help=_("A story or two of the kind you will send. The page measures tokens per word on it."))
    rates = {}
    for lang in LANGUAGES:
        text = state.value(TEXTS[lang]) or ""
        with st.spinner(_("Measuring your text…")):
            measured, problem = attempt(text_rate, key, text)
        if problem:
            st.info(md_escape(_("Your {language} text: {problem} Until then the scenario's {language} counts are "
                                "used.", language=name(lang), problem=problem)), icon=":material/edit:")
            continue
        rates[lang] = measured
        if len(text) > MAX_TEXT_CHARS:
            st.caption(_("Your {language} text is long: its first {n} characters are measured.", language=name(lang),
                         n=number(MAX_TEXT_CHARS)))
    return rates, _("{name} on your text", name=tok.name)


def _article_inputs(lang: str, rates: dict[str, Measure], rate_note: str) -> Article:
    st.markdown(f"**{name(lang)}**")
    a, b = st.columns(2)
    with a:
        number_input(_("Story: words"), STORY_WORDS[lang])
    if lang not in rates:
        with b:
            number_input(_("Story: tokens in"), INPUT_TOKENS[lang], _("The story and the instructions, in tokens."))
    with a:
        number_input(_("Summary: words"), SUMMARY_WORDS[lang])
    if lang not in rates:
        with b:
            number_input(_("Summary: tokens out"), OUTPUT_TOKENS[lang], _("The summary the model writes, in tokens."))
    words, summary = state.value(STORY_WORDS[lang]), state.value(SUMMARY_WORDS[lang])
    typed = state.value(INPUT_TOKENS[lang]), state.value(OUTPUT_TOKENS[lang])
    if lang not in rates:
        return Article(words, typed[0], summary, typed[1])
    r = rates[lang]
    tokens_in, problem_in = attempt(cost.tokens_for, words, r.tokens_per_word)
    tokens_out, problem_out = attempt(cost.tokens_for, summary, r.tokens_per_word)
    problem = problem_in or problem_out
    if problem:
        warn(problem)
        return Article(words, typed[0], summary, typed[1])
    st.caption(md_escape(_n(
        "{note}: {rate} tokens per word, so {n} word is {tokens_in} in and {summary} {tokens_out} out.",
        "{note}: {rate} tokens per word, so {n} words are {tokens_in} in and {summary} {tokens_out} out.", words,
        note=rate_note, rate=decimal(r.tokens_per_word), tokens_in=_n("{n} token", "{n} tokens", tokens_in),
        summary=_n("{n} word", "{n} words", summary), tokens_out=_n("{n} token", "{n} tokens", tokens_out))))
    return Article(words, tokens_in, summary, tokens_out)


def _article_settings(large: bool) -> tuple[dict[str, Article], dict[str, Measure], str]:
    """The token counts' source, the prices and each language's article; returns the articles and measured rates."""
    st.segmented_control(_("Token counts"), tuple(SOURCES), key=SOURCE.skey, format_func=translated(SOURCES).__getitem__,
                         required=True,
                         help=_("Use the scenario's counts, or measure tokens per word with a tokenizer and multiply "
                                "by the word counts: on the lab's English/Hindi parallel set, or on text of your own."))
    c1, c2 = st.columns(2)
    with c1:
        number_input(_("Rs per 1,000 input tokens"), PRICE_IN, _("What the API charges to read 1,000 tokens you send."))
    with c2:
        number_input(_("Rs per 1,000 output tokens"), PRICE_OUT,
                     _("What it charges to write 1,000 tokens back (usually more)."))
    source = state.value(SOURCE)
    rates, rate_note = _measured_rates(source, large) if source != "scenario" else ({}, "")
    articles = {}
    for col, lang in zip(st.columns(2), LANGUAGES):
        with col:
            articles[lang] = _article_inputs(lang, rates, rate_note)
    return articles, rates, rate_note


def article_section(large: bool) -> Articles:
    st.subheader(_("What one article costs"))
    with inputs(_("Change the numbers: prices, words and tokens")):
        articles, rates, rate_note = _article_settings(large)

    prices, price_problem = attempt(cost.Prices, state.value(PRICE_IN), state.value(PRICE_OUT))
    per_article: dict[str, cost.ArticleCost] = {}
    if price_problem:
        warn(price_problem)
    else:
        for lang in LANGUAGES:
            a = articles[lang]
            found, problem = attempt(cost.article_cost, a.input_tokens, a.output_tokens, prices)
            if problem:
                warn(f"{name(lang)}: {problem}")
            else:
                per_article[lang] = found
        if not (prices.input_per_1000 and prices.output_per_1000):
            st.info(_("A price of Rs 0: that part of the work is free in this scenario, so it adds nothing below."),
                    icon=":material/money_off:")
    if per_article:
        cols = figure("article-cost").columns(2 if large else 3)
        for col, lang in zip(cols, LANGUAGES):
            if lang in per_article:
                c = per_article[lang]
                col.metric(_("{language}, per article", language=name(lang)), inr(c.total))
                col.caption(_("{tokens} in: {cost_in} + {out} out: {cost_out}",
                              tokens=_n("{n} token", "{n} tokens", c.input_tokens), cost_in=inr(c.input),
                              out=number(c.output_tokens), cost_out=inr(c.output)))
        if len(per_article) == 2 and per_article["english"].total:
            cols[0 if large else -1].metric(
                _("Hindi ÷ English"),
                f"{decimal(float(cost.ratio(per_article['hindi'].total, per_article['english'].total)))}×")
    return Articles(articles, prices, per_article, rates, rate_note)


# -- 2. a month ------------------------------------------------------------------------------------
def month_section(found: Articles, large: bool) -> dict[str, Decimal]:
    st.subheader(_("A month of articles"))
    with inputs():
        c1, c2 = st.columns(2)
        with c1:
            number_input(_("Articles a day (in each language)"), PER_DAY)
        with c2:
            number_input(_("Days"), DAYS)
    monthly: dict[str, Decimal] = {}
    for lang, c in found.per_article.items():
        monthly[lang], problem = attempt(cost.monthly_cost, c.total, articles_per_day=state.value(PER_DAY),
                                         days=state.value(DAYS))
        if problem:
            warn(problem)
            return {}
    if not monthly:
        st.caption(_("The monthly bill needs the cost of one article above."))
        return monthly
    cols = figure("month-cost").columns(2 if large else 3)
    for col, lang in zip(cols, LANGUAGES):
        if lang in monthly:
            col.metric(_("{language}, per month", language=name(lang)), inr(monthly[lang]))
    if len(monthly) == 2:
        cols[0 if large else -1].metric(_("Hindi costs more by"), inr(monthly["hindi"] - monthly["english"]),
                                        help=_("Per month, for the same stories."))
        times = cost.ratio(monthly["hindi"], monthly["english"])
        if times:
            st.markdown(md_escape(_("The same stories cost {times}× as much in Hindi: {hindi} against {english} a "
                                    "month.", times=decimal(float(times), 1), hindi=inr(monthly["hindi"]),
                                    english=inr(monthly["english"]))))
    if not state.value(PER_DAY) or not state.value(DAYS):
        st.info(_("No articles, no bill: with 0 articles a day or 0 days, the month costs nothing."),
                icon=":material/info:")
    return monthly


# -- 3. the context window -------------------------------------------------------------------------
ARTICLE, FREE, CAP_KIND, MARGIN_KIND = N_("an article"), N_("room left"), N_("the reply (output cap)"), N_("margin")
KIND_COLOURS = {ARTICLE: charts.BLUE, FREE: "#FFFFFF", CAP_KIND: charts.ORANGE, MARGIN_KIND: charts.GREY}


def window_records(fits: tuple[tuple[str, Fit], ...]) -> list[dict]:
    """One record per drawn segment of each language's window (start and end in tokens)."""
    out = []
    for language, fit in fits:
        if fit.count > MAX_DRAWN_ARTICLES:
            segments = [(ARTICLE, 0, fit.used, _n("{n} article", "{n} articles", fit.count))]
        else:
            segments = [(ARTICLE, i * fit.each, (i + 1) * fit.each, str(i + 1)) for i in range(fit.count)]
        segments += [(FREE, fit.used, fit.room, ""),
                     (CAP_KIND, fit.room, fit.room + fit.output_cap, ""),  # the legend names it: no room for a word
                     (MARGIN_KIND, fit.room + fit.output_cap, fit.window, "")]
        out += [{"language": language, "kind": _(kind), "start": start, "end": end, "label": label,
                 "tokens": end - start, "wide": (end - start) / fit.window >= 0.035}
                for kind, start, end, label in segments if end > start]
    return out


@per_language(max_entries=64)
def window_spec(fits: tuple[tuple[str, Fit], ...], large: bool) -> dict:
    """The context window of each language as one bar: the articles that fit, the room left, the reply, the margin;
    its words in the learner's language."""
    s = charts.sizes(large)
    data = pd.DataFrame(window_records(fits))
    window = fits[0][1].window
    kinds = [_(k) for k in KIND_COLOURS if _(k) in set(data["kind"])]
    colours = {_(k): colour for k, colour in KIND_COLOURS.items()}
    x = alt.X("start:Q", scale=alt.Scale(domain=[0, window], nice=False),
              title=_("tokens in the {n}-token context window", n=number(window)),
              axis=alt.Axis(format=",d", tickCount=8))
    base = alt.Chart(data).encode(y=alt.Y("language:N", title=None, sort=[lang for lang, _fit in fits]))
    bars = base.mark_bar(stroke="#000", strokeWidth=1).encode(
        x=x, x2="end:Q",
        color=alt.Color("kind:N", scale=alt.Scale(domain=kinds, range=[colours[k] for k in kinds]),
                        legend=alt.Legend(orient="top", title=None, columns=2)),
        tooltip=[alt.Tooltip("language:N", title=_("language")), alt.Tooltip("kind:N", title=_("what")),
                 alt.Tooltip("label:N", title=_("which")), alt.Tooltip("tokens:Q", format=",d", title=_("tokens"))],
    )
    labels = base.transform_filter(alt.datum.wide).transform_filter(alt.datum.label != "").transform_calculate(
        middle="(datum.start + datum.end) / 2").mark_text(fontSize=s.small, color="#000").encode(
        x=alt.X("middle:Q", scale=alt.Scale(domain=[0, window], nice=False)), text="label:N")
    # the axis's numbers grouped the Indian way in Hindi (1,28,000), by d3-format's locale
    return charts.spec(alt.layer(bars, labels).properties(height=alt.Step(s.step * 1.6)), large=large,
                       lang=i18n.current())


def window_section(found: Articles, large: bool) -> None:
    st.subheader(_("How many articles fit in one prompt"))
    with inputs():
        c1, c2, c3 = (*st.columns(2), st.columns(2)[0]) if large else st.columns(3)
        with c1:
            number_input(_("Context window (tokens)"), WINDOW, _("Everything the model reads and writes in one request."))
        with c2:
            number_input(_("Output cap (tokens)"), CAP, _("The most the reply may use; kept free in the window."))
        with c3:
            number_input(_("Margin (tokens)"), MARGIN, _("A few tokens spare, for a count that was slightly off."))
    fits: dict[str, Fit] = {}
    for lang in LANGUAGES:
        try:
            fits[lang] = cost.window_fit(found.articles[lang].input_tokens, window=state.value(WINDOW),
                                         output_cap=state.value(CAP), margin=state.value(MARGIN))
        except CostInputError as exc:  # the article's tokens are one language's; the window is both languages'
            warn(f"{name(lang)}: {exc}" if exc.what == cost.TOKENS_PER_ARTICLE else str(exc))
            return
    hindi = fits["hindi"]
    st.caption(_("Room for the prompt: {window} − {cap} (reply) − {margin} (margin) = {room} tokens.",
                 window=number(hindi.window), cap=number(hindi.output_cap), margin=number(hindi.margin),
                 room=number(hindi.room)))
    st.toggle(_("Predict first"), key=PREDICT.skey, help=_("Guess how many Hindi articles fit before the lab shows it."))
    if state.value(PREDICT):
        with st.container(border=True):
            if predict.ask(fit_question(hindi)) is None:
                st.caption(_("The window is drawn once you have predicted (or switch off Predict first)."))
                return
    box = figure("window-chart")
    cols = box.columns(2)
    for col, lang in zip(cols, LANGUAGES):
        f = fits[lang]
        col.metric(_("{language} articles that fit", language=name(lang)), number(f.count),
                   help=_("{count} × {each} = {used} tokens of the {room} of room.", count=number(f.count),
                          each=number(f.each), used=number(f.used), room=number(f.room)))
        col.caption(_("{used} tokens; {free} of the room left over.", used=number(f.used), free=number(f.free)))
    with box:
        charts.draw(window_spec(tuple((name(lang), fits[lang]) for lang in LANGUAGES), large),
                    key=WINDOW_CHART.skey)
    en = fits["english"]
    if hindi.count and en.count:
        st.caption(_("The same window holds {english} and {hindi}: a Hindi reader's prompt has room for {share} of "
                     "the stories.", english=_n("{n} English article", "{n} English articles", en.count),
                     hindi=_n("{n} Hindi one", "{n} Hindi ones", hindi.count),
                     share=format(cost.ratio(hindi.count, en.count), ".0%")))


# -- 4. the pre-send check -------------------------------------------------------------------------
def _set_prompt(tokens: int) -> None:
    state.set_value(PROMPT, tokens)


def presend_section(found: Articles, large: bool) -> None:
    st.subheader(_("Check before you send"))
    st.caption(_("Send a prompt only if the prompt, the reply's cap and the margin all fit in the window, and know "
                 "the most it can cost: the reply using its whole cap."))
    c1, c2 = st.columns([1, 1] if large else [1, 2], vertical_alignment="bottom")
    with c1:
        number_input(_("Prompt (tokens)"), PROMPT)
    with c2, st.container(horizontal=True, gap="small"):
        for tokens in SCENARIO["prompts"]:
            st.button(_("Try {n}", n=number(tokens)), key=TRY.of(str(tokens)), on_click=_set_prompt, args=(tokens,))
    prices = found.prices
    if prices is None:
        st.caption(_("The check prices the request: fix the prices above first."))
        return
    check, problem = attempt(cost.presend_check, state.value(PROMPT), window=state.value(WINDOW),
                             output_cap=state.value(CAP), margin=state.value(MARGIN), prices=prices)
    if problem:
        warn(problem)
    elif check.accepted:
        figure("presend-check").html(callout_html(_(
            "Send it. {prompt} + {cap} (reply cap) + {margin} (margin) = {needed} ≤ {window} tokens.\nWorst case, "
            "the reply uses all {cap} tokens: {cost_in} + {cost_out} = {worst}.", prompt=number(check.prompt),
            cap=number(check.output_cap), margin=number(check.margin), needed=number(check.needed),
            window=number(check.window), cost_in=inr(prices.of_input(check.prompt)),
            cost_out=inr(prices.of_output(check.output_cap)), worst=inr(check.worst_case)), "success"))
    else:
        figure("presend-check").html(callout_html(_(
            "Do not send it. {prompt} + {cap} (reply cap) + {margin} (margin) = {needed} > {window} tokens: {over} "
            "over.\nShorten the prompt (clean it, or send fewer stories), or lower the reply's cap.",
            prompt=number(check.prompt), cap=number(check.output_cap), margin=number(check.margin),
            needed=number(check.needed), window=number(check.window), over=number(check.over_by)), "error"))


# -- 5. speed --------------------------------------------------------------------------------------
def speed_section(found: Articles, large: bool) -> None:
    st.subheader(_("Speed: one token per step"))
    speeds = {}
    for lang in LANGUAGES:
        a = found.articles[lang]
        speeds[lang], problem = attempt(cost.speed, a.input_tokens, a.output_tokens)
        if problem:
            warn(f"{name(lang)}: {problem}")
            return
    en, hi = speeds["english"], speeds["hindi"]
    steps = cost.ratio(hi.decoding_steps, en.decoding_steps)
    cols = figure("decoding-steps").columns(2 if large else 4)
    cols[0].metric(_("English: decoding steps"), number(en.decoding_steps))
    cols[1].metric(_("Hindi: decoding steps"), number(hi.decoding_steps))
    cols[2 % len(cols)].metric(_("Hindi ÷ English, steps"), f"{decimal(float(steps), 1)}×")
    cols[3 % len(cols)].metric(_("Hindi ÷ English, prompt to read"),
                               f"{decimal(float(cost.ratio(hi.prompt_tokens, en.prompt_tokens)), 1)}×")
    st.caption(_(
        "A model writes its reply one token per decoding step, each step a full pass through the model: {times}× "
        "the output tokens is {times}× the steps, and the reader waits that much longer for the summary. Before "
        "the first step it reads the whole prompt ({hindi} tokens in Hindi, {english} in English): a longer prompt "
        "means a later first token.", times=decimal(float(steps), 1), hindi=number(hi.prompt_tokens),
        english=number(en.prompt_tokens)))


# -- 6. the cleaning lever -------------------------------------------------------------------------
def cleaning_section(found: Articles, monthly: dict[str, Decimal]) -> None:
    st.subheader(_("A lever: clean the input"))
    with inputs():
        number_input(_("Input tokens cut (%)"), CLEAN, _("Bylines, menus, share buttons and other boilerplate around "
                                                         "the story."))
    if found.prices is None:
        return
    for col, lang in zip(figure("cleaned-cost").columns(2), LANGUAGES):
        a = found.articles[lang]
        kept, problem = attempt(cost.cleaned, a.input_tokens, state.value(CLEAN))
        if problem:
            warn(problem)
            return
        after, problem = attempt(cost.article_cost, kept, a.output_tokens, found.prices)
        if problem:
            col.caption(md_escape(problem))
            continue
        saved = found.per_article[lang].total - after.total if lang in found.per_article else None
        col.metric(_("{language}, per article after cleaning", language=name(lang)), inr(after.total),
                   delta=f"-{inr(saved)}" if saved else None, delta_color="inverse",
                   help=_("The arrow shows the saving on one article."))
        col.caption(_("{before} → {after} in.", before=number(a.input_tokens),
                      after=_n("{n} token", "{n} tokens", kept)))
        month, _problem = attempt(cost.monthly_cost, after.total, articles_per_day=state.value(PER_DAY),
                           days=state.value(DAYS))
        if month is not None and lang in monthly:
            col.caption(_("{month} a month, {saved} less.", month=inr(month), saved=inr(monthly[lang] - month)))


# -- 7. the planning figure ------------------------------------------------------------------------
def planning_section(found: Articles) -> None:
    st.subheader(_("The planning figure: tokens per word"))
    rows = []
    for lang in LANGUAGES:
        a, r = found.articles[lang], found.rates.get(lang)
        row = {"language": name(lang),
               "story: tokens per word": cost.ratio(a.input_tokens, a.story_words),
               "summary: tokens per word": cost.ratio(a.output_tokens, a.summary_words)}
        if found.rates:
            row["tokens per character"] = r.tokens_per_char if r else None
        row["from"] = found.rate_note if r else _("the scenario's figures")
        rows.append(row)
    tables.show(rows, hide_index=True, key=PLANNING_TABLE.skey, column_config={
        "language": st.column_config.TextColumn(_("language")),
        "story: tokens per word": st.column_config.NumberColumn(_("story: tokens per word"), format="%.2f"),
        "summary: tokens per word": st.column_config.NumberColumn(_("summary: tokens per word"), format="%.2f"),
        "tokens per character": st.column_config.NumberColumn(_("tokens per character"), format="%.3f",
                                                              help=_("Measured on text only.")),
        "from": st.column_config.TextColumn(_("from")),
    })
    st.caption(_(
        "Plan with tokens per word, measured for each language on a sample of your own text: multiply by the words "
        "you expect. Keep an eye on tokens per character once you ship: it drifts when the input changes shape "
        "(tables, code, a new script), before the bill does."
    ))


__all__ = ["ARTICLE", "Article", "Articles", "CAP_KIND", "FREE", "LANGUAGES", "MARGIN_KIND", "MAX_TEXT_CHARS",
           "NAMES", "PARAMS", "PART", "PARTS", "inputs", "SCENARIO", "article_section", "attempt", "back_to_scenario", "cleaning_section",
           "month_section", "name", "number_input", "part_names", "parallel_rates", "parallel_size", "planning_section",
           "presend_section", "scenarios", "speed_section", "text_rate", "window_records", "window_section",
           "window_spec"]
