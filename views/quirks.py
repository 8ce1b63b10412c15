"""What the Quirks page draws: live examples where token counts surprise, one tab each, measured with the real
tokenizers; tokens of a few short texts side by side, one column per tokenizer.

The experiments are the engine's (:mod:`analyses.quirks`, :mod:`analyses.numbers`); the tokens are the
real tokenizers' (:func:`ui.choices.encoded`, cached). This module declares the page's keys once and holds its
sections (:data:`SECTIONS`, one per tab), which the page composes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
import streamlit as st

import lessons
from analyses.numbers import (
    DIGIT_PROBE,
    STYLES,
    digit_groups,
    digit_style,
    group_digits,
    indian,
    international,
    parse_number,
)
from analyses.quirks import (
    FORMATS,
    MAX_CSV_CHARS,
    Joined,
    case_forms,
    count_letter,
    format_variants,
    join_counts,
    letter_counts,
    records_from_csv,
    space_forms,
    starts_with_mark,
)
from lessons.progress import QUIRKS_JOIN, QuestionId
from tokenizer import TextTokenizer, word_count
from ui import choices, predict, state, tables
from ui.chips import CSS, Chip, chip_from_token, labelled_rows_html
from ui.chips import token_chips as draw_chips
from ui.display import join_words, md_code, md_escape, plural, ratio, visible_token
from ui.layout import classroom_on, figure

Chosen = Sequence[tuple[str, TextTokenizer]]

PAGE = "quirks"
C = lessons.content("quirks")
MAX_CHIPS = 400  # chips drawn per row; every token is still counted
MAX_WORD = 100  # a word, for the spaces and capitals examples
MAX_PART = 5_000  # each text of the joining example
MAX_SENTENCE = 5_000  # the pre-split example
TABS = ("spaces", "case", "join", "formatting", "numbers", "letters", "presplit")
TAB_NAMES = tuple(C[s]["tab"] for s in TABS)

TAB = state.Param(PAGE, "quirk", TAB_NAMES[0], choices=TAB_NAMES)
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
FORMATS_TABLE = state.Key(PAGE, "formats")
RULES_OPEN = state.Key(PAGE, "rules_open")
RULES_TABLE = state.Key(PAGE, "rules")


# -- the page's top: the tokenizers and the tabs ---------------------------------------------------------
def intro() -> None:
    st.caption("Live examples of the places where token counts surprise people. Edit any of them; every count is "
               "measured with the real tokenizers you pick, offline.")


def pick_section() -> list[tuple[str, TextTokenizer]]:
    real_keys = [e.key for e in choices.real_entries()]
    return choices.pick_many(PAGE, default=[k for k in ("cl100k_base", "o200k_base") if k in real_keys],
                             kinds=("real",), label="Real tokenizers", upload=False)


def tabs_section() -> dict[str, object]:
    """One tab per quirk (only the open one is drawn); name -> tab."""
    return dict(zip(TABS, st.tabs(list(TAB_NAMES), key=TAB.skey, on_change="rerun")))


def ready(chosen: Chosen) -> bool:
    """Whether there is a tokenizer to measure with (if not, says what to do)."""
    if not chosen:
        st.info("Pick at least one tokenizer above.", icon=":material/list:")
        return False
    if state.too_long(PARAMS):
        st.caption("Some of these texts are too long to put in the page's link; the link keeps the rest.")
    return True


# -- drawing helpers -------------------------------------------------------------------------------------
def columns(chosen: Sequence[tuple[str, TextTokenizer]], large: bool) -> list[tuple[str, TextTokenizer, object]]:
    """One column per tokenizer: up to three a row (two in large type); a phone stacks them."""
    per_row = 2 if large else 3
    out = []
    for start in range(0, len(chosen), per_row):
        row = chosen[start : start + per_row]
        cols = st.columns(len(row) if len(row) > 1 else 1, gap="medium")
        out += [(key, tok, col) for (key, tok), col in zip(row, cols)]
    return out


def token_chips(key: str, text: str, *, limit: int = MAX_CHIPS) -> tuple[list[Chip], int]:
    """The chips of ``text`` with tokenizer ``key`` (the first ``limit``) and its token count. Encoded with
    ``MAX_CHIPS`` tokens kept, the one cache entry every section of the page uses for that text."""
    enc = choices.encoded(key, text, MAX_CHIPS)
    return [chip_from_token(t) for t in enc.tokens[:limit]], enc.measure.tokens


@st.cache_data(max_entries=64, show_spinner=False)
def joined_counts(key: str, parts: tuple[str, ...]) -> Joined:
    """:func:`analyses.quirks.join_counts` once per (tokenizer, texts), for every learner."""
    return join_counts(choices.load(key), parts)


def count_note(count: int, shown: int, noun: str = "token") -> str:
    """``"5 tokens"``, and how many are drawn when not all are."""
    note = plural(count, noun)
    return note + (f" (first {shown:,} shown)" if count > shown else "")


def draw_rows(rows: Sequence[tuple[str, Sequence[Chip], str]], *, show_ids: bool = False) -> None:
    """Labelled rows of chips (label, chips, note)."""
    st.html(CSS + labelled_rows_html(rows, show_ids=show_ids))


def chip_row(chips: Sequence[Chip], *, label: str, line_breaks: bool = False) -> None:
    """One row of chips (``line_breaks``: a new line after a token that ends in one, as in the text)."""
    draw_chips(chips, label=label, line_breaks=line_breaks)


def heading(tok: TextTokenizer) -> None:
    st.markdown(f"**{md_escape(tok.name)}**")


def too_long(text: str, limit: int, what: str) -> bool:
    """True (after saying so) when ``text`` is longer than this experiment takes."""
    if len(text) <= limit:
        return False
    st.warning(
        f"That is {len(text):,} characters; this example takes {what} of up to {limit:,} characters. "
        "A short text shows the quirk best: paste a shorter part.",
        icon=":material/content_cut:",
    )
    return True


def section_intro(section: str) -> None:
    st.markdown(md_escape(C[section]["intro"]))


def word_input(param: state.Param, label: str) -> str:
    st.text_input(label, key=param.skey)
    return (state.value(param) or "").strip()


# -- spaces and the start of a text ----------------------------------------------------------------------
FORM_NAMES = {"start": "at the start of a text", "space": "after a space", "newline": "after a line break",
              "lower": "lower case", "title": "Capitalised", "upper": "CAPITALS",
              "lower, after a space": "·lower case", "title, after a space": "·Capitalised",
              "upper, after a space": "·CAPITALS"}


def forms_section(section: str, param: state.Param, forms_of: Callable, chosen: Chosen, large: bool) -> None:
    section_intro(section)
    word = word_input(param, "A word")
    if not word:
        st.info("Type a word.", icon=":material/edit:")
        return
    if too_long(word, MAX_WORD, "a word"):
        return
    forms = forms_of(word)
    for key, tok, col in columns(chosen, large):
        with col:
            heading(tok)
            rows, counts = [], []
            for name, text in forms:
                chips, count = token_chips(key, text)
                rows.append((FORM_NAMES[name], chips, count_note(count, len(chips))))
                counts.append(count)
            draw_rows(rows, show_ids=True)
            same = len({tuple(chip.token_id for chip in chips) for _, chips, _ in rows}) == 1
            st.caption("The same ids every time." if same else
                       "Different ids: to the model these are " + ("different words." if len(set(counts)) == 1 else
                                                                   "different words, and they cost differently."))
    st.caption("· is a space and ↵ a line break; the number under a chip is the id the model reads.")



# -- joining: count the final prompt, never the parts ------------------------------------------------------
def join_section(chosen: Chosen, large: bool) -> None:
    section_intro("join")
    left, right = st.columns(2)
    left.text_area("First text (an instruction, say)", key=JOIN_A.skey, height=90)
    right.text_area("Second text (what the user typed)", key=JOIN_B.skey, height=90)
    a, b = state.value(JOIN_A) or "", state.value(JOIN_B) or ""
    if not a or not b:
        st.info("Type something in both boxes.", icon=":material/edit:")
        return
    if too_long(a, MAX_PART, "each text") or too_long(b, MAX_PART, "each text"):
        return
    st.toggle("Predict first", key=JOIN_PREDICT.skey, help="Guess the joined count before it is shown.")
    joined = {key: joined_counts(key, (a, b)) for key, _ in chosen}
    first_key, first_tok = chosen[0]
    hidden = False
    if state.value(JOIN_PREDICT):
        j = joined[first_key]
        change = j.total - j.sum_of_parts
        moved = "the same as" if change == 0 else f"{plural(abs(change), 'token')} {'fewer' if change < 0 else 'more'} than"
        question = predict.Question(
            key="", id=QuestionId.of(QUIRKS_JOIN, run=state.digest(first_key, a, b)), kind="number", answer=j.total, unit="tokens", scope="quirks-page",
            prompt=f"With {first_tok.name}, the first text is {plural(j.counts[0], 'token')} and the second "
                   f"{plural(j.counts[1], 'token')}: {j.sum_of_parts:,} counted apart. How many tokens is the "
                   "prompt they make together?",
            explain=f"Joined, {first_tok.name} reads {plural(j.total, 'token')}: {moved} the parts. The tokens "
                    "that changed at the join are outlined below.",
        )
        with st.container(border=True):
            hidden = predict.ask(question) is None
    for key, tok, col in columns(chosen, large):
        j = joined[key]
        with col:
            heading(tok)
            rows = []
            for label, tokens, changed in (("first text", j.parts[0], j.part_changed[0]),
                                           ("second text", j.parts[1], j.part_changed[1])):
                chips = [chip_from_token(t, highlight=c and not hidden) for t, c in zip(tokens[: MAX_CHIPS], changed)]
                rows.append((label, chips, count_note(len(tokens), len(chips))))
            if not hidden:
                chips = [chip_from_token(t, highlight=c) for t, c in zip(j.whole[: MAX_CHIPS], j.whole_changed)]
                rows.append(("joined", chips, count_note(j.total, len(chips))))
            draw_rows(rows)
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



# -- formatting ------------------------------------------------------------------------------------------
def formatting_section(chosen: Chosen, large: bool) -> None:
    section_intro("formatting")
    st.text_area("Records, as CSV (a header line, then one record a line)", key=RECORDS.skey, height=150)
    text = state.value(RECORDS) or ""
    if too_long(text, MAX_CSV_CHARS, "records"):
        return
    try:
        records = records_from_csv(text)
    except ValueError as exc:
        st.warning(md_escape(f"These records cannot be read: {exc}"), icon=":material/table:")
        return
    variants = format_variants(records)
    counts = {key: {k: choices.encoded(key, v, MAX_CHIPS).measure.tokens for k, v in variants.items()} for key, _ in chosen}
    table = pd.DataFrame({"format": [FORMATS[k] for k in variants],
                          "characters": [len(v) for v in variants.values()]}
                         | {tok.name: [counts[key][k] for k in variants] for key, tok in chosen})
    tables.show(table, hide_index=True, key=FORMATS_TABLE.skey)
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
    for key, tok, col in columns(chosen, large):
        with col:
            chips, count = token_chips(key, shown)
            st.markdown(f"**{md_escape(tok.name)}**: {count_note(count, len(chips))}")
            chip_row(chips, label=f"{tok.name}: {FORMATS[state.value(FORMAT)]}", line_breaks=True)
    st.caption("· is a space and ↵ a line break: each chip is one token, laid out line by line like the text.")



# -- numbers ---------------------------------------------------------------------------------------------
NUMBER_CHIPS = 120  # chips drawn per row for a long number: its start shows each rule; every token is counted


def plain_chips(groups: list[str]) -> list[Chip]:
    """Digit groups drawn as chips (a rule's cut, not a tokenizer's tokens)."""
    return [Chip(label=g) for g in groups[:NUMBER_CHIPS]]


def groups_note(groups: list[str]) -> str:
    return count_note(len(groups), min(len(groups), NUMBER_CHIPS), "group")


def numbers_section(chosen: Chosen, large: bool) -> None:
    section_intro("numbers")
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
        draw_rows([(label, plain_chips(groups), groups_note(groups)) for label, groups in rules])

    if not classroom_on():  # classroom mode: under the tokenizers' cuts, so those are on the first screen
        draw_rules()
    writings = (("no commas", number.plain), ("international commas", international(number.plain)),
                ("Indian commas", indian(number.plain)))
    box = figure("number-tokens")
    box.markdown("**What each tokenizer does**, measured on this number written three ways:")
    with box:
        cols = columns(chosen, large)
    for key, tok, col in cols:
        with col:
            heading(tok)
            probe = choices.encoded(key, DIGIT_PROBE, 50).tokens
            style = digit_style(digit_groups([t.label for t in probe]))
            st.caption(f"Its rule, measured on {DIGIT_PROBE}: {STYLES[style]} "
                       f"({' '.join(visible_token(t.label) for t in probe)}).")
            rows = []
            for label, text in writings:
                chips, count = token_chips(key, text, limit=NUMBER_CHIPS)
                rows.append((label, chips, count_note(count, len(chips))))
            draw_rows(rows)
    if classroom_on():
        draw_rules()
    st.caption(md_escape(C["numbers"]["citation"]) + " " + md_escape(C["numbers"]["finding"]))
    with st.expander(f"Every real tokenizer's digit rule, measured on {DIGIT_PROBE}", key=RULES_OPEN.skey,
                     on_change="rerun", icon=":material/pin:") as box:
        if box.open:
            rules = []
            for entry in choices.real_entries(featured=True):
                try:
                    probe = choices.encoded(entry.key, DIGIT_PROBE, 50).tokens
                except choices.Unavailable as exc:
                    rules.append((entry.title, "unavailable here", str(exc)))
                    continue
                style = digit_style(digit_groups([t.label for t in probe]))
                rules.append((entry.title, STYLES[style], " ".join(visible_token(t.label) for t in probe)))
            tables.show(pd.DataFrame(rules, columns=["tokenizer", "its digit rule", f"the tokens of {DIGIT_PROBE}"]),
                         hide_index=True, key=RULES_TABLE.skey)



# -- letters ---------------------------------------------------------------------------------------------
def letters_section(chosen: Chosen, large: bool) -> None:
    section_intro("letters")
    left, right = st.columns([3, 1])
    with left:
        word = word_input(WORD, "A word")
    with right:
        letter = word_input(LETTER, "The letter to count")
    if not word or not letter:
        st.info("Type a word and a letter.", icon=":material/edit:")
        return
    if too_long(word, MAX_WORD, "a word"):
        return
    total = count_letter(word, letter)
    st.markdown(f"Counted by code (ignoring case): {md_code(word)} holds {md_code(letter)} **{plural(total, 'time')}**.")
    for key, tok, col in columns(chosen, large):
        with col:
            heading(tok)
            rows = []
            for name, form in space_forms(word)[:2]:  # as typed, and after a space (inside a sentence)
                found = choices.encoded(key, form, MAX_CHIPS).tokens
                per = letter_counts([t.bytes for t in found], letter)
                chips = [chip_from_token(t, highlight=n > 0) for t, n in zip(found, per)]
                rows.append((FORM_NAMES[name], chips, plural(len(found), "token")))
            draw_rows(rows, show_ids=True)
            tokens = choices.encoded(key, word, MAX_CHIPS).tokens
            per = letter_counts([t.bytes for t in tokens], letter)
            holding = [f"{md_code(t.label)} ({n})" for t, n in zip(tokens, per) if n]
            where = f"in {join_words(holding)}" if holding else "in no token"
            st.markdown(f"At the start of a text the model reads {plural(len(tokens), 'id')}: "
                        f"{md_escape(' '.join(str(t.id) for t in tokens[:40]))}. The {md_code(letter)} are {where}.")
            if sum(per) < total:
                st.caption("Some of them are split across tokens (part of a character's bytes), so no token holds them.")
    st.caption("Outlined: the tokens that hold the letter. Nothing in an id says which letters it holds.")



# -- the pre-split ---------------------------------------------------------------------------------------
def presplit_section(chosen: Chosen, large: bool) -> None:
    section_intro("presplit")
    st.text_area("A sentence", key=SENTENCE.skey, height=80)
    text = state.value(SENTENCE) or ""
    if not text.strip():
        st.info("Type a sentence (Hindi shows the difference best).", icon=":material/edit:")
        return
    if too_long(text, MAX_SENTENCE, "a sentence"):
        return
    words = word_count(text)
    for _, tok in chosen:  # one full-width row each: the pieces are the point
        pieces = tok.pieces(text)
        marked = sum(1 for p in pieces if starts_with_mark(p))
        st.markdown(f"**{md_escape(tok.name)}**: {plural(len(pieces), 'piece')} for {plural(words, 'word')}; "
                    f"**{marked:,}** start with a vowel sign or another mark (outlined).")
        chip_row([Chip(label=p, highlight=starts_with_mark(p)) for p in pieces[: MAX_CHIPS]],
                    label=f"{tok.name}: pre-split pieces")
        if len(pieces) > MAX_CHIPS:
            st.caption(f"The first {MAX_CHIPS:,} of {len(pieces):,} pieces are drawn.")
        if tok.pattern is None:
            st.caption("It has no pre-split pattern (SentencePiece): its pieces are its words.")
    st.caption("Each chip is a piece, before any merge. A mark cut off its letter is drawn on ◌ and named.")
    with st.expander("The patterns", icon=":material/regular_expression:"):
        for _, tok in chosen:
            if tok.pattern:
                st.markdown(f"**{md_escape(tok.name)}**  \n{md_code(tok.pattern, visible=False)}")


def spaces_section(chosen: Chosen, large: bool) -> None:
    forms_section("spaces", SPACE_WORD, space_forms, chosen, large)


def case_section(chosen: Chosen, large: bool) -> None:
    forms_section("case", CASE_WORD, lambda w: case_forms(w) + tuple(
        (f"{name}, after a space", text) for name, text in case_forms(w, leading_space=True)), chosen, large)


SECTIONS: dict[str, Callable[[Chosen, bool], None]] = {
    "spaces": spaces_section, "case": case_section, "join": join_section, "formatting": formatting_section,
    "numbers": numbers_section, "letters": letters_section, "presplit": presplit_section,
}
"""Each tab's section, by name (:data:`TABS`): ``SECTIONS[name](chosen, large)``."""
