"""Quirks: live examples where token counts surprise, measured with the real tokenizers."""

import hashlib

import pandas as pd
import streamlit as st

from ui.layout import classroom_on, figure, large_type_on, page_setup
import lessons
from analyses.numbers import DIGIT_PROBE, STYLES, digit_groups, digit_style, group_digits
from analyses.numbers import indian, international, parse_number
from analyses.quirks import FORMATS, MAX_CSV_CHARS, case_forms, count_letter, format_variants
from analyses.quirks import letter_counts, records_from_csv, space_forms, starts_with_mark
from lessons.progress import QUIRKS_JOIN, QuestionId
from tokenizer import word_count
from ui import predict, state, tables
from ui import choices
from views import quirks as qv
from ui.chips import Chip, chip_from_token
from ui.display import join_words, md_code, md_escape, plural, ratio, visible_token
from ui.links import lesson_link

page_setup("Quirks")


PAGE = "quirks"
C = lessons.content("quirks")
LARGE = large_type_on()
MAX_WORD = 100  # a word, for the spaces and capitals examples
MAX_PART = 5_000  # each text of the joining example
MAX_SENTENCE = 5_000  # the pre-split example
SECTIONS = ("spaces", "case", "join", "formatting", "numbers", "letters", "presplit")
TABS = tuple(C[s]["tab"] for s in SECTIONS)

TAB = state.Param(PAGE, "quirk", TABS[0], choices=TABS)
SPACE_WORD = state.Param(PAGE, "space_word", C["spaces"]["word"], max_len=MAX_WORD)
CASE_WORD = state.Param(PAGE, "case_word", C["case"]["word"], max_len=MAX_WORD)
JOIN_A = state.Param(PAGE, "a", C["join"]["a"], max_len=800)
JOIN_B = state.Param(PAGE, "b", C["join"]["b"], max_len=800)
JOIN_PREDICT = state.Param(PAGE, "predict", True)
RECORDS = state.Param(PAGE, "records", C["formatting"]["records"], max_len=1500)
FORMAT = state.Param(PAGE, "fmt", "indented", choices=tuple(FORMATS))
NUMBER = state.Param(PAGE, "number", C["numbers"]["number"], max_len=600)
WORD = state.Param(PAGE, "word", C["letters"]["word"], max_len=MAX_WORD)
LETTER = state.Param(PAGE, "letter", C["letters"]["letter"], max_len=8)
SENTENCE = state.Param(PAGE, "sentence", C["presplit"]["text"], max_len=800)
PARAMS = [TAB, SPACE_WORD, CASE_WORD, JOIN_A, JOIN_B, JOIN_PREDICT, RECORDS, FORMAT, NUMBER, WORD, LETTER, SENTENCE]

if not LARGE:
    st.caption("Live examples of the places where token counts surprise people. Edit any of them; every count is "
               "measured with the real tokenizers you pick, offline.")
lesson_link(7)
real_keys = [e.key for e in choices.real_entries()]
chosen = choices.pick_many(PAGE, default=[k for k in ("cl100k_base", "o200k_base") if k in real_keys],
                              kinds=("real",), label="Real tokenizers", upload=False)
state.restore(PARAMS)
tabs = dict(zip(SECTIONS, st.tabs(list(TABS), key=TAB.skey, on_change="rerun")))
too_long_for_link = state.publish(PARAMS)
if not chosen:
    st.info("Pick at least one tokenizer above.", icon=":material/list:")
    st.stop()
if too_long_for_link:
    st.caption("Some of these texts are too long to put in the page's link; the link keeps the rest.")


def intro(section: str) -> None:
    st.markdown(md_escape(C[section]["intro"]))


def word_input(param: state.Param, label: str) -> str:
    st.text_input(label, key=param.skey)
    return (state.value(param) or "").strip()


# -- spaces and the start of a text ----------------------------------------------------------------------
FORM_NAMES = {"start": "at the start of a text", "space": "after a space", "newline": "after a line break",
              "lower": "lower case", "title": "Capitalised", "upper": "CAPITALS",
              "lower, after a space": "·lower case", "title, after a space": "·Capitalised",
              "upper, after a space": "·CAPITALS"}


def forms_section(section: str, param: state.Param, forms_of) -> None:
    intro(section)
    word = word_input(param, "A word")
    if not word:
        st.info("Type a word.", icon=":material/edit:")
        return
    if qv.too_long(word, MAX_WORD, "a word"):
        return
    forms = forms_of(word)
    for key, tok, col in qv.columns(chosen, LARGE):
        with col:
            qv.heading(tok)
            rows, counts = [], []
            for name, text in forms:
                chips, count = qv.token_chips(key, text)
                rows.append((FORM_NAMES[name], chips, qv.count_note(count, len(chips))))
                counts.append(count)
            qv.rows(rows, show_ids=True)
            same = len({tuple(chip.token_id for chip in chips) for _, chips, _ in rows}) == 1
            st.caption("The same ids every time." if same else
                       "Different ids: to the model these are " + ("different words." if len(set(counts)) == 1 else
                                                                   "different words, and they cost differently."))
    st.caption("· is a space and ↵ a line break; the number under a chip is the id the model reads.")


with tabs["spaces"]:
    if tabs["spaces"].open:
        forms_section("spaces", SPACE_WORD, space_forms)

with tabs["case"]:
    if tabs["case"].open:
        forms_section("case", CASE_WORD, lambda w: case_forms(w) + tuple(
            (f"{name}, after a space", text) for name, text in case_forms(w, leading_space=True)))


# -- joining: count the final prompt, never the parts ------------------------------------------------------
def join_section() -> None:
    intro("join")
    left, right = st.columns(2)
    left.text_area("First text (an instruction, say)", key=JOIN_A.skey, height=90)
    right.text_area("Second text (what the user typed)", key=JOIN_B.skey, height=90)
    a, b = state.value(JOIN_A) or "", state.value(JOIN_B) or ""
    if not a or not b:
        st.info("Type something in both boxes.", icon=":material/edit:")
        return
    if qv.too_long(a, MAX_PART, "each text") or qv.too_long(b, MAX_PART, "each text"):
        return
    st.toggle("Predict first", key=JOIN_PREDICT.skey, help="Guess the joined count before it is shown.")
    joined = {key: qv.joined(key, (a, b)) for key, _ in chosen}
    first_key, first_tok = chosen[0]
    hidden = False
    if state.value(JOIN_PREDICT):
        j = joined[first_key]
        run = hashlib.sha1(f"{first_key}\n{a}\n{b}".encode("utf-8", "surrogatepass")).hexdigest()[:16]
        change = j.total - j.sum_of_parts
        moved = "the same as" if change == 0 else f"{plural(abs(change), 'token')} {'fewer' if change < 0 else 'more'} than"
        question = predict.Question(
            key="", id=QuestionId.of(QUIRKS_JOIN, run=run), kind="number", answer=j.total, unit="tokens", scope="quirks-page",
            prompt=f"With {first_tok.name}, the first text is {plural(j.counts[0], 'token')} and the second "
                   f"{plural(j.counts[1], 'token')}: {j.sum_of_parts:,} counted apart. How many tokens is the "
                   "prompt they make together?",
            explain=f"Joined, {first_tok.name} reads {plural(j.total, 'token')}: {moved} the parts. The tokens "
                    "that changed at the join are outlined below.",
        )
        with st.container(border=True):
            hidden = predict.ask(question) is None
    for key, tok, col in qv.columns(chosen, LARGE):
        j = joined[key]
        with col:
            qv.heading(tok)
            rows = []
            for label, tokens, changed in (("first text", j.parts[0], j.part_changed[0]),
                                           ("second text", j.parts[1], j.part_changed[1])):
                chips = [chip_from_token(t, highlight=c and not hidden) for t, c in zip(tokens[: qv.MAX_CHIPS], changed)]
                rows.append((label, chips, qv.count_note(len(tokens), len(chips))))
            if not hidden:
                chips = [chip_from_token(t, highlight=c) for t, c in zip(j.whole[: qv.MAX_CHIPS], j.whole_changed)]
                rows.append(("joined", chips, qv.count_note(j.total, len(chips))))
            qv.rows(rows)
            if hidden:
                st.caption(f"Counted apart: {j.counts[0]:,} + {j.counts[1]:,} = {j.sum_of_parts:,}. "
                           "The joined count is hidden until you predict.")
            elif j.difference == 0:
                st.caption(f"Counted apart: {j.counts[0]:,} + {j.counts[1]:,} = {j.sum_of_parts:,}. "
                           f"Joined: {j.total:,}, the same here, but only because nothing at the join could merge.")
            else:
                more = "fewer" if j.difference < 0 else "more"
                st.markdown(f"Counted apart: {j.counts[0]:,} + {j.counts[1]:,} = **{j.sum_of_parts:,}**. "
                            f"Joined: **{j.total:,}**, {plural(abs(j.difference), 'token')} {more}.")
    if not hidden:
        st.caption("Outlined: the tokens that are not the same in the joined text as in its parts. Count the final "
                   "prompt, exactly as it will be sent, never the parts.")


with tabs["join"]:
    if tabs["join"].open:
        join_section()


# -- formatting ------------------------------------------------------------------------------------------
def formatting_section() -> None:
    intro("formatting")
    st.text_area("Records, as CSV (a header line, then one record a line)", key=RECORDS.skey, height=150)
    text = state.value(RECORDS) or ""
    if qv.too_long(text, MAX_CSV_CHARS, "records"):
        return
    try:
        records = records_from_csv(text)
    except ValueError as exc:
        st.warning(md_escape(f"These records cannot be read: {exc}"), icon=":material/table:")
        return
    variants = format_variants(records)
    counts = {key: {k: choices.encoded(key, v, qv.MAX_CHIPS).measure.tokens for k, v in variants.items()} for key, _ in chosen}
    table = pd.DataFrame({"format": [FORMATS[k] for k in variants],
                          "characters": [len(v) for v in variants.values()]}
                         | {tok.name: [counts[key][k] for k in variants] for key, tok in chosen})
    tables.show(table, hide_index=True, key=f"{PAGE}.formats")
    key0, tok0 = chosen[0]
    c = counts[key0]
    fields = list(records[0])
    st.markdown(
        f"With {md_escape(tok0.name)}, indented JSON costs **{ratio(c['indented'], c['csv'], 1)}×** the tokens of the "
        f"same records as CSV, and escaped JSON **{ratio(c['escaped'], c['csv'], 1)}×**. JSON writes the "
        f"{plural(len(fields), 'field name')} ({md_escape(join_words(fields))}) in every one of the "
        f"{plural(len(records), 'record')}; CSV writes them once."
    )
    st.segmented_control("See the tokens of", tuple(FORMATS), key=FORMAT.skey, required=True,
                         format_func=FORMATS.get)
    shown = variants[state.value(FORMAT)]
    for key, tok, col in qv.columns(chosen, LARGE):
        with col:
            chips, count = qv.token_chips(key, shown)
            st.markdown(f"**{md_escape(tok.name)}**: {qv.count_note(count, len(chips))}")
            qv.chip_row(chips, label=f"{tok.name}: {FORMATS[state.value(FORMAT)]}", line_breaks=True)
    st.caption("· is a space and ↵ a line break: each chip is one token, laid out line by line like the text.")


with tabs["formatting"]:
    if tabs["formatting"].open:
        formatting_section()


# -- numbers ---------------------------------------------------------------------------------------------
NUMBER_CHIPS = 120  # chips drawn per row for a long number: its start shows each rule; every token is counted


def plain_chips(groups: list[str]) -> list[Chip]:
    """Digit groups drawn as chips (a rule's cut, not a tokenizer's tokens)."""
    return [Chip(label=g) for g in groups[:NUMBER_CHIPS]]


def groups_note(groups: list[str]) -> str:
    return qv.count_note(len(groups), min(len(groups), NUMBER_CHIPS), "group")


def numbers_section() -> None:
    intro("numbers")
    st.text_input("A number (commas, a sign and decimals are fine)", key=NUMBER.skey)
    try:
        number = parse_number(state.value(NUMBER) or "")
    except ValueError as exc:
        st.warning(md_escape(str(exc)), icon=":material/pin:")
        return
    digits = number.digits

    def draw_rules() -> None:
        st.markdown("**Three rules for cutting the digits**, drawn as chips (rules, not a tokenizer's tokens):")
        rules = (("one token per digit", list(digits)), ("groups of three from the left", group_digits(digits)),
                 ("right-aligned groups of three", group_digits(digits, align="right")))
        qv.rows([(label, plain_chips(groups), groups_note(groups)) for label, groups in rules])

    if not classroom_on():  # classroom mode: under the tokenizers' cuts, so those are on the first screen
        draw_rules()
    writings = (("no commas", number.plain), ("international commas", international(number.plain)),
                ("Indian commas", indian(number.plain)))
    box = figure("number-tokens")
    box.markdown("**What each tokenizer does**, measured on this number written three ways:")
    with box:
        cols = qv.columns(chosen, LARGE)
    for key, tok, col in cols:
        with col:
            qv.heading(tok)
            probe = choices.encoded(key, DIGIT_PROBE, 50).tokens
            style = digit_style(digit_groups([t.label for t in probe]))
            st.caption(f"Its rule, measured on {DIGIT_PROBE}: {STYLES[style]} "
                       f"({' '.join(visible_token(t.label) for t in probe)}).")
            rows = []
            for label, text in writings:
                chips, count = qv.token_chips(key, text, limit=NUMBER_CHIPS)
                rows.append((label, chips, qv.count_note(count, len(chips))))
            qv.rows(rows)
    if classroom_on():
        draw_rules()
    st.caption(md_escape(C["numbers"]["citation"]) + " " + md_escape(C["numbers"]["finding"]))
    with st.expander(f"Every real tokenizer's digit rule, measured on {DIGIT_PROBE}", key=f"{PAGE}.rules_open",
                     on_change="rerun", icon=":material/pin:") as box:
        if box.open:
            rules = []
            for entry in choices.real_entries():
                try:
                    probe = choices.encoded(entry.key, DIGIT_PROBE, 50).tokens
                except choices.Unavailable as exc:
                    rules.append((entry.title, "unavailable here", str(exc)))
                    continue
                style = digit_style(digit_groups([t.label for t in probe]))
                rules.append((entry.title, STYLES[style], " ".join(visible_token(t.label) for t in probe)))
            tables.show(pd.DataFrame(rules, columns=["tokenizer", "its digit rule", f"the tokens of {DIGIT_PROBE}"]),
                         hide_index=True, key=f"{PAGE}.rules")


with tabs["numbers"]:
    if tabs["numbers"].open:
        numbers_section()


# -- letters ---------------------------------------------------------------------------------------------
def letters_section() -> None:
    intro("letters")
    left, right = st.columns([3, 1])
    with left:
        word = word_input(WORD, "A word")
    with right:
        letter = word_input(LETTER, "The letter to count")
    if not word or not letter:
        st.info("Type a word and a letter.", icon=":material/edit:")
        return
    if qv.too_long(word, MAX_WORD, "a word"):
        return
    total = count_letter(word, letter)
    st.markdown(f"Counted by code (ignoring case): {md_code(word)} holds {md_code(letter)} **{plural(total, 'time')}**.")
    for key, tok, col in qv.columns(chosen, LARGE):
        with col:
            qv.heading(tok)
            rows = []
            for name, form in space_forms(word)[:2]:  # as typed, and after a space (inside a sentence)
                found = choices.encoded(key, form, qv.MAX_CHIPS).tokens
                per = letter_counts([t.bytes for t in found], letter)
                chips = [chip_from_token(t, highlight=n > 0) for t, n in zip(found, per)]
                rows.append((FORM_NAMES[name], chips, plural(len(found), "token")))
            qv.rows(rows, show_ids=True)
            tokens = choices.encoded(key, word, qv.MAX_CHIPS).tokens
            per = letter_counts([t.bytes for t in tokens], letter)
            holding = [f"{md_code(t.label)} ({n})" for t, n in zip(tokens, per) if n]
            where = f"in {join_words(holding)}" if holding else "in no token"
            st.markdown(f"At the start of a text the model reads {plural(len(tokens), 'id')}: "
                        f"{md_escape(' '.join(str(t.id) for t in tokens[:40]))}. The {md_code(letter)} are {where}.")
            if sum(per) < total:
                st.caption("Some of them are split across tokens (part of a character's bytes), so no token holds them.")
    st.caption("Outlined: the tokens that hold the letter. Nothing in an id says which letters it holds.")


with tabs["letters"]:
    if tabs["letters"].open:
        letters_section()


# -- the pre-split ---------------------------------------------------------------------------------------
def presplit_section() -> None:
    intro("presplit")
    st.text_area("A sentence", key=SENTENCE.skey, height=80)
    text = state.value(SENTENCE) or ""
    if not text.strip():
        st.info("Type a sentence (Hindi shows the difference best).", icon=":material/edit:")
        return
    if qv.too_long(text, MAX_SENTENCE, "a sentence"):
        return
    words = word_count(text)
    for _, tok in chosen:  # one full-width row each: the pieces are the point
        pieces = tok.pieces(text)
        marked = sum(1 for p in pieces if starts_with_mark(p))
        st.markdown(f"**{md_escape(tok.name)}**: {plural(len(pieces), 'piece')} for {plural(words, 'word')}; "
                    f"**{marked:,}** start with a vowel sign or another mark (outlined).")
        qv.chip_row([Chip(label=p, highlight=starts_with_mark(p)) for p in pieces[: qv.MAX_CHIPS]],
                    label=f"{tok.name}: pre-split pieces")
        if len(pieces) > qv.MAX_CHIPS:
            st.caption(f"The first {qv.MAX_CHIPS:,} of {len(pieces):,} pieces are drawn.")
        if tok.pattern is None:
            st.caption("It has no pre-split pattern (SentencePiece): its pieces are its words.")
    st.caption("Each chip is a piece, before any merge. A mark cut off its letter is drawn on ◌ and named.")
    with st.expander("The patterns", icon=":material/regular_expression:"):
        for _, tok in chosen:
            if tok.pattern:
                st.markdown(f"**{md_escape(tok.name)}**  \n{md_code(tok.pattern, visible=False)}")


with tabs["presplit"]:
    if tabs["presplit"].open:
        presplit_section()
