"""Cost, context and speed: tokens turned into rupees, into room in a context window, and into decoding steps."""

import streamlit as st

from ui.layout import large_type_on, page_setup

page_setup("Cost, context and speed")

import lessons  # noqa: E402
from tokenizer import cost  # noqa: E402
from tokenizer.cost import rupees  # noqa: E402
from ui import charts, predict, state, tokenizers  # noqa: E402
from ui import costview as cv  # noqa: E402
from ui.display import callout_html, md_escape, plural  # noqa: E402

PAGE = "cost"
LARGE = large_type_on()
SCENARIO = next(iter(cv.scenarios().values()))
PAIR = lessons.data("lesson4_english_hindi")
SOURCES = {"scenario": "The scenario's figures", "parallel": "Measured: the lab's parallel set",
           "own": "Measured: your own text"}
BIG = 10**12  # no count or price beyond this (a widget cannot hold more)


def number(name: str, default: int | float) -> state.Param:
    return state.Param(PAGE, name, default, lo=-BIG, hi=BIG)


def lang_params(field: str, short: str) -> dict[str, state.Param]:
    return {lang: number(f"{lang[:2]}_{short}", SCENARIO["languages"][lang][field]) for lang in cv.LANGUAGES}


SOURCE = state.Param(PAGE, "source", "scenario", choices=tuple(SOURCES))
PRICE_IN = number("price_in", float(SCENARIO["price_input_per_1000"]))
PRICE_OUT = number("price_out", float(SCENARIO["price_output_per_1000"]))
STORY_WORDS = lang_params("story_words", "words")
INPUT_TOKENS = lang_params("input_tokens", "in")
SUMMARY_WORDS = lang_params("summary_words", "summary")
OUTPUT_TOKENS = lang_params("output_tokens", "out")
PER_DAY = number("per_day", SCENARIO["articles_per_day"])
DAYS = number("days", SCENARIO["days"])
WINDOW = number("window", SCENARIO["window"])
CAP = number("cap", SCENARIO["output_cap"])
MARGIN = number("margin", SCENARIO["margin"])
PROMPT = number("prompt", SCENARIO["prompts"][0])
CLEAN = number("clean", float(SCENARIO["cleaning_percent"]))
PREDICT = state.Param(PAGE, "predict", True)
TEXTS = {"english": state.Param(PAGE, "en_text", PAIR["test_en"], max_len=1000),
         "hindi": state.Param(PAGE, "hi_text", PAIR["test_hi"], max_len=1000)}
NUMBERS = [PRICE_IN, PRICE_OUT, *STORY_WORDS.values(), *INPUT_TOKENS.values(), *SUMMARY_WORDS.values(),
           *OUTPUT_TOKENS.values(), PER_DAY, DAYS, WINDOW, CAP, MARGIN, PROMPT, CLEAN]
PARAMS = [SOURCE, *NUMBERS, PREDICT, *TEXTS.values()]
state.restore(PARAMS)


def back_to_scenario() -> None:
    for param in NUMBERS:
        state.set_value(param, param.default)
    state.set_value(SOURCE, SOURCE.default)


def number_input(label: str, param: state.Param, help: str | None = None) -> None:
    if isinstance(param.default, float):
        st.number_input(label, key=param.skey, step=0.5, format="%.2f", help=help)
    else:
        st.number_input(label, key=param.skey, step=1, help=help)


def warn(message: str) -> None:
    st.warning(md_escape(message), icon=":material/error:")


def columns(normal: int, large: int) -> list:
    return st.columns(large if LARGE else normal)


st.markdown(
    f"**{md_escape(SCENARIO['title'])}.** {md_escape(SCENARIO['what'])} An API bills tokens, not words, so the same "
    "story costs what its tokenizer makes of it. Every number below is yours to change (the link keeps them); the "
    "results are worked out by the lab as you type."
)
st.button("Back to the lesson-5 news app", key=f"{PAGE}.reset", on_click=back_to_scenario, type="tertiary",
          icon=":material/restart_alt:")

# -- 1. one article ----------------------------------------------------------------------------------
st.subheader("What one article costs")
st.segmented_control("Token counts", tuple(SOURCES), key=SOURCE.skey, format_func=SOURCES.get, required=True,
                     help="Use the scenario's counts, or measure tokens per word with a tokenizer and multiply by the "
                     "word counts: on the lab's English/Hindi parallel set, or on text of your own.")
source = state.value(SOURCE)
c1, c2 = st.columns(2)
with c1:
    number_input("Rs per 1,000 input tokens", PRICE_IN, "What the API charges to read 1,000 tokens you send.")
with c2:
    number_input("Rs per 1,000 output tokens", PRICE_OUT, "What it charges to write 1,000 tokens back (usually more).")

rates: dict[str, cost.Rate] = {}
rate_note = ""
if source != "scenario":
    key, tok = tokenizers.pick_one(PAGE, default="o200k_base", label="Tokenizer to measure with")
    if tok is None:
        st.info("Until a tokenizer is chosen, the scenario's token counts are used.", icon=":material/info:")
    elif source == "parallel":
        rates = dict(zip(cv.LANGUAGES, cv.parallel_rates(key)))
        rate_note = f"{tok.name} on the lab's {cv.parallel_size()} English/Hindi sentence pairs"
    else:
        text_cols = columns(2, 1)
        for col, lang in zip(text_cols * 2, cv.LANGUAGES):
            with col:
                st.text_area(f"Your {cv.NAMES[lang]} text", key=TEXTS[lang].skey, height=110,
                             help="A story or two of the kind you will send. The page measures tokens per word on it.")
        for lang in cv.LANGUAGES:
            text = state.value(TEXTS[lang]) or ""
            measured, problem = cv.attempt(cv.text_rate, key, text)
            if problem:
                st.info(md_escape(f"Your {cv.NAMES[lang]} text: {problem} Until then the scenario's "
                                  f"{cv.NAMES[lang]} counts are used."), icon=":material/edit:")
            else:
                rates[lang] = measured
                if len(text) > cv.MAX_TEXT_CHARS:
                    st.caption(f"Your {cv.NAMES[lang]} text is long: its first {cv.MAX_TEXT_CHARS:,} characters "
                               "are measured.")
        rate_note = f"{tok.name} on your text"

articles: dict[str, cv.Article] = {}
lang_cols = st.columns(2)
for col, lang in zip(lang_cols, cv.LANGUAGES):
    with col:
        st.markdown(f"**{cv.NAMES[lang]}**")
        a, b = st.columns(2)
        with a:
            number_input("Story: words", STORY_WORDS[lang])
        if lang not in rates:
            with b:
                number_input("Story: tokens in", INPUT_TOKENS[lang], "The story and the instructions, in tokens.")
        with a:
            number_input("Summary: words", SUMMARY_WORDS[lang])
        if lang not in rates:
            with b:
                number_input("Summary: tokens out", OUTPUT_TOKENS[lang], "The summary the model writes, in tokens.")
        words, summary = state.value(STORY_WORDS[lang]), state.value(SUMMARY_WORDS[lang])
        if lang in rates:
            r = rates[lang]
            tokens_in, problem_in = cv.attempt(cost.tokens_for, words, r.tokens_per_word)
            tokens_out, problem_out = cv.attempt(cost.tokens_for, summary, r.tokens_per_word)
            if problem_in or problem_out:
                warn(problem_in or problem_out)
                tokens_in, tokens_out = state.value(INPUT_TOKENS[lang]), state.value(OUTPUT_TOKENS[lang])
            else:
                st.caption(md_escape(f"{rate_note}: {r.tokens_per_word:.2f} tokens per word, so {words:,} words are "
                                     f"{tokens_in:,} tokens in and {summary:,} words {tokens_out:,} tokens out."))
        else:
            tokens_in, tokens_out = state.value(INPUT_TOKENS[lang]), state.value(OUTPUT_TOKENS[lang])
        articles[lang] = cv.Article(words, tokens_in, summary, tokens_out)

prices, price_problem = cv.attempt(cost.Prices, state.value(PRICE_IN), state.value(PRICE_OUT))
per_article: dict[str, cost.ArticleCost] = {}
if price_problem:
    warn(price_problem)
else:
    for lang in cv.LANGUAGES:
        a = articles[lang]
        per_article[lang], problem = cv.attempt(cost.article_cost, a.input_tokens, a.output_tokens, prices)
        if problem:
            warn(f"{cv.NAMES[lang]}: {problem}")
            del per_article[lang]
    if prices.input_per_1000 == 0 or prices.output_per_1000 == 0:
        st.info("A price of Rs 0: that part of the work is free in this scenario, so it adds nothing below.",
                icon=":material/money_off:")

if per_article:
    cols = columns(3, 2)
    for col, lang in zip(cols, cv.LANGUAGES):
        if lang in per_article:
            c = per_article[lang]
            col.metric(f"{cv.NAMES[lang]}, per article", rupees(c.total))
            col.caption(f"{c.input_tokens:,} tokens in: {rupees(c.input)} + {c.output_tokens:,} out: "
                        f"{rupees(c.output)}")
    if len(per_article) == 2 and per_article["english"].total:
        cols[-1 if not LARGE else 0].metric(
            "Hindi ÷ English", f"{cost.ratio(per_article['hindi'].total, per_article['english'].total):.2f}×")

# -- 2. a month --------------------------------------------------------------------------------------
st.subheader("A month of articles")
c1, c2 = st.columns(2)
with c1:
    number_input("Articles a day (in each language)", PER_DAY)
with c2:
    number_input("Days", DAYS)
monthly: dict[str, object] = {}
for lang, c in per_article.items():
    monthly[lang], problem = cv.attempt(cost.monthly_cost, c.total, articles_per_day=state.value(PER_DAY),
                                        days=state.value(DAYS))
    if problem:
        warn(problem)
        monthly = {}
        break
if monthly:
    cols = columns(3, 2)
    for col, lang in zip(cols, cv.LANGUAGES):
        if lang in monthly:
            col.metric(f"{cv.NAMES[lang]}, per month", rupees(monthly[lang]))
    if len(monthly) == 2:
        times = cost.ratio(monthly["hindi"], monthly["english"])
        cols[-1 if not LARGE else 0].metric("Hindi costs more by", rupees(monthly["hindi"] - monthly["english"]),
                                             help="Per month, for the same stories.")
        if times:
            st.markdown(md_escape(f"The same stories cost {times:.1f}× as much in Hindi: "
                                  f"{rupees(monthly['hindi'])} against {rupees(monthly['english'])} a month."))
    if not state.value(PER_DAY) or not state.value(DAYS):
        st.info("No articles, no bill: with 0 articles a day or 0 days, the month costs nothing.",
                icon=":material/info:")
elif not per_article:
    st.caption("The monthly bill needs the cost of one article above.")

# -- 3. the context window -----------------------------------------------------------------------
st.subheader("How many articles fit in one prompt")
c1, c2, c3 = st.columns(3) if not LARGE else (*st.columns(2), st.columns(2)[0])
with c1:
    number_input("Context window (tokens)", WINDOW, "Everything the model reads and writes in one request.")
with c2:
    number_input("Output cap (tokens)", CAP, "The most the reply may use; kept free in the window.")
with c3:
    number_input("Margin (tokens)", MARGIN, "A few tokens spare, for a count that was slightly off.")
window, cap, margin = state.value(WINDOW), state.value(CAP), state.value(MARGIN)
fits: dict[str, cost.Fit] = {}
window_problem = None
for lang in cv.LANGUAGES:
    fits[lang], problem = cv.attempt(cost.window_fit, articles[lang].input_tokens, window=window, output_cap=cap,
                                     margin=margin)
    if problem:
        window_problem = f"{cv.NAMES[lang]}: {problem}" if "article" in problem else problem
        fits = {}
        break
if window_problem:
    warn(window_problem)
else:
    hindi_fit = fits["hindi"]
    st.caption(f"Room for the prompt: {hindi_fit.window:,} − {hindi_fit.output_cap:,} (reply) − "
               f"{hindi_fit.margin:,} (margin) = {hindi_fit.room:,} tokens.")
    st.toggle("Predict first", key=PREDICT.skey, help="Guess how many Hindi articles fit before the lab shows it.")
    hidden = False
    if state.value(PREDICT):
        question = predict.Question(
            key=f"cost.fit.{hindi_fit.window}.{hindi_fit.output_cap}.{hindi_fit.margin}.{hindi_fit.each}",
            prompt=f"How many whole Hindi articles of {hindi_fit.each:,} tokens fit in a {hindi_fit.window:,}-token "
            f"window, keeping {hindi_fit.output_cap:,} tokens for the reply and a {hindi_fit.margin:,}-token margin?",
            kind="number", answer=hindi_fit.count, unit="articles", scope="cost",
            explain=f"{hindi_fit.room:,} tokens of room ÷ {hindi_fit.each:,} tokens an article = "
            f"{hindi_fit.exact:.2f}, so {plural(hindi_fit.count, 'whole article')} ({hindi_fit.used:,} tokens).",
        )
        with st.container(border=True):
            hidden = predict.ask(question) is None
    if hidden:
        st.caption("The window is drawn once you have predicted (or switch off Predict first).")
    else:
        cols = st.columns(2)
        for col, lang in zip(cols, cv.LANGUAGES):
            f = fits[lang]
            col.metric(f"{cv.NAMES[lang]} articles that fit", f"{f.count:,}",
                       help=f"{f.count:,} × {f.each:,} = {f.used:,} tokens of the {f.room:,} of room.")
            col.caption(f"{f.used:,} tokens; {f.free:,} of the room left over.")
        charts.draw(cv.window_spec(tuple((cv.NAMES[lang], fits[lang]) for lang in cv.LANGUAGES), LARGE),
                    key=f"{PAGE}.window")
        en, hi = fits["english"], fits["hindi"]
        if hi.count and en.count:
            st.caption(f"The same window holds {plural(en.count, 'English article')} and "
                       f"{plural(hi.count, 'Hindi one')}: a Hindi reader's prompt has room for "
                       f"{cost.ratio(hi.count, en.count):.0%} of the stories.")

# -- 4. the pre-send check -------------------------------------------------------------------------
st.subheader("Check before you send")
st.caption("Send a prompt only if the prompt, the reply's cap and the margin all fit in the window, and know the "
           "most it can cost: the reply using its whole cap.")


def set_prompt(tokens: int) -> None:
    state.set_value(PROMPT, tokens)


c1, c2 = st.columns([1, 1] if LARGE else [1, 2], vertical_alignment="bottom")
with c1:
    number_input("Prompt (tokens)", PROMPT)
with c2, st.container(horizontal=True, gap="small"):
    for tokens in SCENARIO["prompts"]:
        st.button(f"Try {tokens:,}", key=f"{PAGE}.try.{tokens}", on_click=set_prompt, args=(tokens,))
if prices is None:
    st.caption("The check prices the request: fix the prices above first.")
else:
    check, problem = cv.attempt(cost.presend_check, state.value(PROMPT), window=window, output_cap=cap, margin=margin,
                                prices=prices)
    if problem:
        warn(problem)
    elif check.accepted:
        st.html(callout_html(
            f"Send it. {check.prompt:,} + {check.output_cap:,} (reply cap) + {check.margin:,} (margin) = "
            f"{check.needed:,} ≤ {check.window:,} tokens.\nWorst case, the reply uses all {check.output_cap:,} "
            f"tokens: {rupees(prices.of_input(check.prompt))} + {rupees(prices.of_output(check.output_cap))} = "
            f"{rupees(check.worst_case)}.", "success"))
    else:
        st.html(callout_html(
            f"Do not send it. {check.prompt:,} + {check.output_cap:,} (reply cap) + {check.margin:,} (margin) = "
            f"{check.needed:,} > {check.window:,} tokens: {check.over_by:,} over.\nShorten the prompt (clean it, "
            "or send fewer stories), or lower the reply's cap.", "error"))

# -- 5. speed ------------------------------------------------------------------------------------------
st.subheader("Speed: one token per step")
speeds = {lang: cv.attempt(cost.speed, articles[lang].input_tokens, articles[lang].output_tokens) for lang in cv.LANGUAGES}
if any(problem for _, problem in speeds.values()):
    warn(next(problem for _, problem in speeds.values() if problem))
else:
    en, hi = speeds["english"][0], speeds["hindi"][0]
    cols = columns(4, 2)
    cols[0].metric("English: decoding steps", f"{en.decoding_steps:,}")
    cols[1].metric("Hindi: decoding steps", f"{hi.decoding_steps:,}")
    cols[2 % len(cols)].metric("Hindi ÷ English, steps", f"{cost.ratio(hi.decoding_steps, en.decoding_steps):.1f}×")
    cols[3 % len(cols)].metric("Hindi ÷ English, prompt to read",
                               f"{cost.ratio(hi.prompt_tokens, en.prompt_tokens):.1f}×")
    st.caption(
        "A model writes its reply one token per decoding step, each step a full pass through the model: "
        f"{cost.ratio(hi.decoding_steps, en.decoding_steps):.1f}× the output tokens is "
        f"{cost.ratio(hi.decoding_steps, en.decoding_steps):.1f}× the steps, and the reader waits that much longer for "
        f"the summary. Before the first step it reads the whole prompt ({hi.prompt_tokens:,} tokens in Hindi, "
        f"{en.prompt_tokens:,} in English): a longer prompt means a later first token."
    )

# -- 6. the cleaning lever ---------------------------------------------------------------------------
st.subheader("A lever: clean the input")
number_input("Input tokens cut (%)", CLEAN, "Bylines, menus, share buttons and other boilerplate around the story.")
if prices is not None:
    cols = st.columns(2)
    for col, lang in zip(cols, cv.LANGUAGES):
        a = articles[lang]
        kept, problem = cv.attempt(cost.cleaned, a.input_tokens, state.value(CLEAN))
        if problem:
            warn(problem)
            break
        after, problem = cv.attempt(cost.article_cost, kept, a.output_tokens, prices)
        if problem:
            col.caption(problem)
            continue
        saved = per_article[lang].total - after.total if lang in per_article else None
        col.metric(f"{cv.NAMES[lang]}, per article after cleaning", rupees(after.total),
                   delta=f"-{rupees(saved)}" if saved else None, delta_color="inverse",
                   help="The arrow shows the saving on one article.")
        col.caption(f"{a.input_tokens:,} → {kept:,} tokens in.")
        month, problem = cv.attempt(cost.monthly_cost, after.total, articles_per_day=state.value(PER_DAY),
                                    days=state.value(DAYS))
        if month is not None and lang in monthly:
            col.caption(f"{rupees(month)} a month, {rupees(monthly[lang] - month)} less.")

# -- 7. the planning figure ----------------------------------------------------------------------
st.subheader("The planning figure: tokens per word")
rows = []
for lang in cv.LANGUAGES:
    a = articles[lang]
    r = rates.get(lang)
    row = {"language": cv.NAMES[lang],
           "story: tokens per word": cost.ratio(a.input_tokens, a.story_words),
           "summary: tokens per word": cost.ratio(a.output_tokens, a.summary_words)}
    if rates:
        row["tokens per character"] = r.tokens_per_char if r else None
    row["from"] = rate_note if r else "the scenario's figures"
    rows.append(row)
st.dataframe(rows, hide_index=True, key=f"{PAGE}.planning", column_config={
    "story: tokens per word": st.column_config.NumberColumn(format="%.2f"),
    "summary: tokens per word": st.column_config.NumberColumn(format="%.2f"),
    "tokens per character": st.column_config.NumberColumn(format="%.3f", help="Measured on text only."),
})
st.caption(
    "Plan with tokens per word, measured for each language on a sample of your own text: multiply by the words you "
    "expect. Keep an eye on tokens per character once you ship: it drifts when the input changes shape (tables, "
    "code, a new script), before the bill does."
)

state.publish(PARAMS)
