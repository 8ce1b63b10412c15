"""English vs Hindi: who gets the cheap tokens when English and Hindi share one merge budget (lesson 4).

Read the widgets -> the engine's sweep over every share of the training text
(analyses.experiment, cached per texts for every learner by views.english_hindi) ->
draw. The page opens on the lesson's first row (1 Hindi copy, 100 merges) and
asks for a prediction before the curves are shown; the step cursor of the
compression curve is a fragment, so dragging it reruns only that part.
"""

import streamlit as st

from ui.layout import classroom_on, figure, large_type_on, page_setup
import lessons
from analyses.experiment import split_by_script
from tokenizer.pretokenize import pattern_words
from ui import charts, predict, state, tables, viewport
from views import english_hindi as sv
from ui.display import callout_html, md_code, md_escape, plural
from ui.links import lesson_link
from ui.uploads import decode_text_file, uploaded_bytes

page_setup("English vs Hindi")


PAGE = sv.PAGE
LARGE = large_type_on()
CLASSROOM = classroom_on()  # one screen: the curves over every share come first, the chips after them
LESSON = sv.lesson()
LESSON_K, FAIR_K = sv.preset_copies(sv.LESSON_PRESET), sv.preset_copies(sv.FAIR_PRESET)
LESSON_BUDGET = sv.lesson_budget()

COPIES = state.Param(PAGE, "k", LESSON_K, lo=0, hi=sv.MAX_COPIES)
BUDGET = state.Param(PAGE, "budget", LESSON_BUDGET, lo=0, hi=sv.BUDGET_MAX)
STEP = state.Param(PAGE, "step", LESSON_BUDGET, lo=0, hi=sv.BUDGET_MAX)
SOURCE = state.Param(PAGE, "train", "lesson", choices=("lesson", "own"))
OWN_EN = state.Param(PAGE, "own_en", "", max_len=400)
OWN_HI = state.Param(PAGE, "own_hi", "", max_len=400)
TEST_EN = state.Param(PAGE, "en", LESSON["test_en"], max_len=sv.TEST_CHARS)
TEST_HI = state.Param(PAGE, "hi", LESSON["test_hi"], max_len=sv.TEST_CHARS)
SETTINGS = [COPIES, BUDGET, SOURCE, OWN_EN, OWN_HI, TEST_EN, TEST_HI]
REVEALED = f"{PAGE}.revealed"  # the learner skipped the prediction, or came by a link that sets the controls
UPLOAD = f"{PAGE}.upload"
OWN_STARTED = f"{PAGE}._own_started"
CHIP_COLUMNS = [2, 3]  # English | Hindi: the Hindi sentence has several times the tokens

# A link that sets any of the page's controls opens with everything shown: it was shared to be looked at.
if any(p.name in st.query_params for p in SETTINGS):
    st.session_state[REVEALED] = True
state.restore([*SETTINGS, STEP])
QUESTIONS = sv.questions()
answered = all(predict.answered(q) for q in QUESTIONS)
revealed = answered or st.session_state.get(REVEALED, False)

if not CLASSROOM:  # classroom mode: the teacher says it, the figure is on the first screen
    st.markdown(
        "A tokenizer has one budget of merges for every language in its training text. Whichever language fills "
        "more of that text wins more of the merges, and its words become a few big tokens; the other language is "
        "left with small pieces, often single bytes. Here the lab's own byte-level BPE learns from an English news "
        "paragraph and its Hindi translation, and you choose how much of each it reads."
    )
    st.caption(
        f"The training text is the English paragraph {sv.ENGLISH_COPIES} times, then the Hindi paragraph k times. "
        f"Byte-level BPE; before merging, {pattern_words('regex', sv.settings()['pattern'])} (the pattern "
        f"{md_code(sv.settings()['pattern'])}, · standing for the space); a tie goes to the pair seen first. Then it "
        "counts the tokens of a new sentence in each language."
    )
lesson_link(4)


# --- The texts ------------------------------------------------------------------------------------
def _own_switched() -> None:
    """Your own text starts from the lesson's paragraphs, to edit (once: on switching, or on a link with
    ``train=own``); a part the learner empties later stays empty."""
    if st.session_state.get(SOURCE.skey) == "own" and not st.session_state.get(OWN_STARTED):
        st.session_state[OWN_STARTED] = True
        for param, block in ((OWN_EN, "english_block"), (OWN_HI, "hindi_block")):
            if not (st.session_state.get(param.skey) or "").strip():
                state.set_value(param, LESSON[block])


def _reset_pair() -> None:
    state.set_value(TEST_EN, LESSON["test_en"])
    state.set_value(TEST_HI, LESSON["test_hi"])


def _budget_changed() -> None:
    """A new budget puts the step cursor at its end."""
    state.set_value(STEP, st.session_state.get(BUDGET.skey, LESSON_BUDGET))


def _back_to_lesson() -> None:
    for param in (COPIES, BUDGET, STEP, SOURCE, TEST_EN, TEST_HI):
        state.set_value(param, param.default)


def _part(text: str) -> str:
    """One paragraph as the mix uses it: single spaces, and one at the end so copies do not run together."""
    return " ".join(text.split()) + " " if text.strip() else ""


def _trim(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " "


def draw_texts() -> tuple[str, str, str, str]:
    """The texts expander; returns (English part, Hindi part, English sentence, Hindi sentence) to use."""
    english, hindi = LESSON["english_block"], LESSON["hindi_block"]
    _own_switched()
    st.radio("Training text", ("lesson", "own"), key=SOURCE.skey, horizontal=True, on_change=_own_switched,
             format_func={"lesson": "The lesson's news paragraph", "own": "My own English and Hindi text"}.get)
    if st.session_state.get(SOURCE.skey) == "own":
        typed_en, typed_hi, upload = st.columns([2, 2, 1.4])
        typed_en.text_area("English part", key=OWN_EN.skey, height=130, max_chars=sv.OWN_PART_CHARS,
                           help=f"Up to {sv.OWN_PART_CHARS:,} characters. It is repeated {sv.ENGLISH_COPIES} times.")
        typed_hi.text_area("Hindi part (हिन्दी)", key=OWN_HI.skey, height=130, max_chars=sv.OWN_PART_CHARS,
                           help=f"Up to {sv.OWN_PART_CHARS:,} characters. It is repeated k times.")
        data, name = uploaded_bytes("…or one .txt file with both", key=UPLOAD, types=["txt"], limit_mb=sv.FILE_MB,
                                    container=upload,
                                    help="Lines mostly in Devanagari go to the Hindi part, the other lines with "
                                    "letters to the English part.")
        own_en, own_hi = state.value(OWN_EN) or "", state.value(OWN_HI) or ""
        if data is not None:
            text, error = decode_text_file(data, limit_bytes=sv.FILE_MB * 1_000_000)
            if error:
                st.html(callout_html(error, "warning"))
            else:
                own_en, own_hi = split_by_script(text)
                cut = [what for what, part in (("English", own_en), ("Hindi", own_hi)) if len(part) > sv.OWN_PART_CHARS]
                own_en, own_hi = _trim(own_en, sv.OWN_PART_CHARS), _trim(own_hi, sv.OWN_PART_CHARS)
                upload.caption(
                    f"From {md_escape(name)}: {len(own_en):,} characters of English, {len(own_hi):,} of Hindi."
                    + (f" The {' and '.join(cut)} part{'s are' if len(cut) > 1 else ' is'} cut to its first "
                       f"{sv.OWN_PART_CHARS:,} characters, so that all {sv.MAX_COPIES + 1} tokenizers train in "
                       "seconds." if cut else "")
                )
        own_en, own_hi = _part(own_en), _part(own_hi)
        if own_en and own_hi:
            english, hindi = own_en, own_hi
            st.caption("Line breaks and runs of spaces become single spaces, and each part ends in a space, so its "
                       "copies do not run together.")
        else:
            missing = " and ".join(w for w, part in (("an English part", own_en), ("a Hindi part", own_hi)) if not part)
            st.info(f"Type {missing} (or upload a file with both). Until then the lab trains on the lesson's "
                    "paragraphs.", icon=":material/edit:")
    pair_en, pair_hi = st.columns(2)
    pair_en.text_input("English test sentence", key=TEST_EN.skey, max_chars=sv.TEST_CHARS)
    pair_hi.text_input("Hindi test sentence (the same meaning)", key=TEST_HI.skey, max_chars=sv.TEST_CHARS)
    st.button("Back to the lesson's sentences", key=f"{PAGE}.reset_pair", on_click=_reset_pair, type="tertiary",
              icon=":material/restart_alt:")
    test_en, test_hi = (state.value(TEST_EN) or "").strip(), (state.value(TEST_HI) or "").strip()
    if not test_en or not test_hi:
        st.info("Type a sentence in both languages. Until then the lab counts the lesson's sentences.",
                icon=":material/edit:")
        test_en, test_hi = LESSON["test_en"], LESSON["test_hi"]
    return english, hindi, test_en, test_hi


if revealed:
    controls = st.container()
    with st.expander("Your own texts: the paragraphs to train on, the sentences to count", icon=":material/edit_note:",
                     expanded=state.value(SOURCE) == "own" or (TEST_EN.name in st.query_params)):
        english, hindi, test_en, test_hi = draw_texts()
else:
    english, hindi, test_en, test_hi = sv.lesson_texts()
texts = sv.Texts(english, hindi, test_en, test_hi)
sweep = sv.sweep_of(texts)
limit = sv.budget_limit(sweep)

if revealed:
    if state.value(BUDGET) > limit:
        state.set_value(BUDGET, limit)
    with controls:
        c_k, c_budget, c_back = st.columns([2.5, 2.5, 1.4], vertical_alignment="bottom")
        c_k.slider("Hindi copies k (English: 10 copies)", 0, sv.MAX_COPIES, key=COPIES.skey,
                   help=f"k = {FAIR_K} gives Hindi the same share as English: the same news, as many times.")
        c_budget.slider("Merge budget", 0, limit, key=BUDGET.skey, on_change=_budget_changed,
                        help=f"How many merges the tokenizer learns. Past {limit:,} every word of the training text "
                        "is one token already, so there is nothing left to merge.")
        c_back.button("Back to the lesson", key=f"{PAGE}.back", on_click=_back_to_lesson, icon=":material/restart_alt:")
    copies, budget = state.value(COPIES), state.value(BUDGET)
else:
    copies, budget = LESSON_K, LESSON_BUDGET

point = sweep.point(copies, budget)
learned = min(budget, sweep.run(copies).learned)  # fewer than the budget when no pair is left to merge
own_setting = texts != sv.lesson_texts()

# --- The current setting: counts and chips --------------------------------------------------------
st.subheader(f"{plural(copies, 'Hindi copy', 'Hindi copies')}, {plural(budget, 'merge')}")
m_en, m_hi, m_word, m_ratio = st.columns(4)
m_en.metric("English tokens", point.english_tokens, help=f"{plural(point.english_words, 'word')} in the sentence.")
m_hi.metric("Hindi tokens", point.hindi_tokens, help=f"{plural(point.hindi_words, 'word')} in the sentence.")
m_word.metric("Tokens per word: English · Hindi", f"{point.english_per_word:.1f} · {point.hindi_per_word:.1f}")
m_ratio.metric("Hindi ÷ English", f"{point.ratio:.1f}×", help="How many times as many tokens the same meaning takes in Hindi.")


def draw_predictions() -> None:
    """The two questions (or, once answered, the guesses beside the computed truth)."""
    with st.container(border=True, key=viewport.keep("evh-predictions")):  # after Check, the verdicts in view
        st.markdown("**Predict first**" if not answered else "**Your predictions**")
        q_hindi, q_english = st.columns(2)
        with q_hindi:
            predict.ask(QUESTIONS[0])
        with q_english:
            predict.ask(QUESTIONS[1])
        if not answered:
            st.button("Skip, show me", key=f"{PAGE}.skip", type="tertiary", icon=":material/visibility:",
                      on_click=lambda: st.session_state.update({REVEALED: True}))


if not revealed:  # the question comes right under the numbers it is about
    draw_predictions()


def draw_sentences(merges: int, counts: tuple[int, int], when: str = "") -> None:
    """Both test sentences as chips, side by side (English | Hindi), after the first ``merges`` merges."""
    columns = (st.container(), st.container()) if CLASSROOM else st.columns(CHIP_COLUMNS)  # classroom: full width
    for column, language, text, count in zip(columns, ("English", "Hindi"), (test_en, test_hi), counts):
        with column:
            st.markdown(f"**{language}{when}**: {plural(count, 'token')}")
            st.html(sv.sentence_html(english, hindi, copies, merges, text,
                                     f"{language} tokens" + (" at this step" if when else "")))


# --- Every share ----------------------------------------------------------------------------------
def draw_shares() -> None:
    """The lesson's key figure: tokens per word at every share of the training text, and where the merges went."""
    with figure("share-chart"):
        st.subheader("Every share of the training text")
        left, right = st.columns(2, gap="medium")
        with left:
            st.markdown(f"**Tokens per word, at {plural(budget, 'merge')}**")
            charts.draw(sv.shares_spec(texts, budget, copies, LARGE), key=f"{PAGE}.shares_chart")
        with right:
            went = ", ".join(f"{n} {script}" for script, n in point.by_script.items() if n)
            st.markdown(f"**Where the {plural(budget, 'merge')} went**" + (f" (k = {copies}: {went})" if went else ""))
            charts.draw(sv.scripts_spec(texts, budget, copies, LARGE), key=f"{PAGE}.scripts_chart")
    fair = sweep.point(FAIR_K, budget).share
    st.caption(
        f"The slider counts copies rather than percent, because copies say what changed: the English paragraph is "
        f"always there {sv.ENGLISH_COPIES} times, so k = {FAIR_K} is the fair share (the same news, as often in each "
        f"language), and the lesson's two rows are k = {LESSON_K} and k = {FAIR_K}. At k = {FAIR_K} Hindi is "
        f"{fair.of_words:.0%} of the words but {fair.of_bytes:.0%} of the bytes: a Devanagari letter is 3 bytes of "
        "UTF-8, an English one 1. The counts move in steps: every copy of a paragraph adds the same pairs, so a pair's "
        "count rises in whole copies and overtakes the others only now and then."
    )


if revealed and CLASSROOM:
    draw_shares()
draw_sentences(budget, (point.english_tokens, point.hindi_tokens))
st.caption("A dashed chip is part of a character (its bytes in hex); the letters such chips make together are "
           "written under them.")
if not revealed:
    st.caption("Answer both (or skip) to open the rest: the controls, the curves over every share, where the merges "
               "went, merge by merge, and what real tokenizers charge.")
    st.stop()
if answered:
    draw_predictions()

# --- The lesson's table ---------------------------------------------------------------------------
st.subheader("The lesson's table, computed")
tables.show(sv.lesson_table(), hide_index=True, key=f"{PAGE}.lesson_table")
st.caption(
    (f"Run just now by the lab's engine, with the lesson's paragraphs and sentences and {LESSON_BUDGET} merges: "
     "the same figures lesson 4 gives." if sv.lesson_matches() else "These differ from the figures lesson 4 gives: the lab's engine and the lesson disagree.")
    + (" Your own texts do not change this table; the rest of the page uses them." if own_setting else "")
)

if not CLASSROOM:
    draw_shares()

# --- Where the merges went ------------------------------------------------------------------------
groups = sv.merges_html(english, hindi, copies, budget)
st.subheader(f"The {plural(learned, 'merge')} by script")
st.markdown(" · ".join(f"**{n:,}** {script}" for script, n in point.by_script.items()) + f" (of {plural(learned, 'merge')})")
if learned < budget:
    st.caption(f"With k = {copies} training stops after {plural(learned, 'merge')}: by then every word of its text "
               "is a single token, so no pair is left to merge.")
for (script, n, chips), column in zip(groups, st.columns(max(len(groups), 1))):
    with column:
        st.markdown(f"**{script}**: {plural(n, 'token')}")
        st.html(chips)
st.caption(
    "Each learned token is sorted by the script of its bytes: Latin or Devanagari letters (with any spaces and "
    "punctuation), mixed (both), or other (only spaces, punctuation or digits, another script, or stray bytes too "
    "few to say). A token that ends inside a Devanagari letter, such as ⟨E0 A4⟩, counts as Devanagari: no other "
    "script's letters start with those bytes. Hover over a token to see which merge made it."
)


# --- Merge by merge -------------------------------------------------------------------------------
def draw_curve() -> None:
    """The compression curve and its step cursor (a fragment: dragging the cursor reruns only this)."""
    st.subheader("Merge by merge")
    if budget == 0:
        st.info("With a budget of 0 merges every token is a single byte. Raise the budget to watch the counts fall.")
        return
    if state.value(STEP) > budget:
        state.set_value(STEP, budget)
    st.slider("After merge (drag to replay the training)", 0, budget, key=STEP.skey)
    state.publish([STEP])
    step = state.value(STEP)
    run = sweep.run(copies)
    english_curve = tuple(run.english_tokens(b) for b in range(budget + 1))
    hindi_curve = tuple(run.hindi_tokens(b) for b in range(budget + 1))
    charts.draw(sv.curve_spec(english_curve, hindi_curve, step, LARGE), key=f"{PAGE}.curve_chart")
    draw_sentences(step, (english_curve[step], hindi_curve[step]), f" after merge {step}")
    st.caption(
        "Each merge the tokenizer learned, in order, and what it does to the two sentences: most merges find nothing "
        "to join in a short sentence, so the lines fall in steps. Merge 0 is the raw UTF-8 bytes."
    )


st.fragment(draw_curve)()

# --- The parallel set and real tokenizers ---------------------------------------------------------
st.subheader("Tokens per word on a parallel set, lab and real tokenizers")
pairs = sv.parallel_pairs()
lab_name = f"Lab BPE: k = {copies}, {plural(budget, 'merge')}"
rows, missing = sv.cost_rows(lab_name, sv.lab_cost(english, hindi, copies, budget))
tables.show(sv.cost_table(rows), hide_index=True, key=f"{PAGE}.cost_table", column_config=sv.COST_COLUMNS)
charts.draw(sv.cost_spec(tuple((r.name, r.cost.english_per_word, r.cost.hindi_per_word) for r in rows), LARGE),
            key=f"{PAGE}.cost_chart")
published = lessons.data("published_premiums")
figures = ", ".join(f"{row['what']} {row['premium']:g}×" for row in published["rows"])
st.caption(
    f"{len(pairs)} English sentences and their Hindi translations written for the lab (news, weather, food, travel, "
    "numbers), counted sentence by sentence and added up. The first row is the lab's tokenizer at the setting above: "
    "it learned from one short paragraph per language, so most of these words are new to it; compare its Hindi with "
    "its English, and watch the ratio move with the sliders. "
    f"For comparison, published figures for Hindi against English on many more sentences (FLORES-200): {figures} "
    f"({md_escape(published['source'])})."
)
for title, reason in missing:
    st.caption(md_escape(f"Not available here: {title} ({reason})."))

# --- What others found ----------------------------------------------------------------------------
st.subheader("What researchers found")
for finding in lessons.data("published_language_costs")["findings"]:
    st.html(callout_html(f"{finding['finding']}\n— {finding['who']}, “{finding['title']}”, {finding['venue']}."))
st.caption("Published findings, not measured by this lab.")

too_long = state.publish(SETTINGS)
if too_long:
    st.caption("Your texts are too long to keep in a shared link; the link keeps the sliders.")
