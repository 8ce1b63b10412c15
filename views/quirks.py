"""What the Quirks page draws: live examples where token counts surprise, one tab each, measured with the real
tokenizers; tokens of a few short texts side by side, one column per tokenizer.

The experiments are the engine's (:mod:`analyses.quirks`, :mod:`analyses.numbers`); the tokens are the
real tokenizers' (:func:`ui.choices.encoded`, cached). This module declares the page's keys once and holds its
sections (:data:`SECTIONS`, one per tab), which the page composes. Every word is the learner's language's (issue 28):
a tab shows its name in it while the address keeps the English one (``?quirk=Numbers``), by
:class:`ui.layout.Slides`' rule; the texts measured, tokenizer names and ids stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

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
from family.realtok import RealTokenizer
from i18n import N_, _, _n, localized, number
from lessons.progress import QUIRKS_JOIN, QuestionId
from tokenizer import TextTokenizer, word_count
from ui import choices, predict, state, tables
from ui.chips import CSS, Chip, chip_from_token, labelled_rows_html
from ui.chips import token_chips as draw_chips
from ui.display import and_words, md_code, md_escape, ratio, translated, visible_token
from ui.layout import Slides, classroom_on, figure

Chosen = Sequence[tuple[str, TextTokenizer]]

PAGE = "quirks"
C = lessons.content("quirks")
MAX_CHIPS = 400  # chips drawn per row; every token is still counted
MAX_WORD = 100  # a word, for the spaces and capitals examples
MAX_PART = 5_000  # each text of the joining example
MAX_SENTENCE = 5_000  # the pre-split example
TABS = ("spaces", "case", "join", "formatting", "numbers", "letters", "presplit")
TAB_NAMES = tuple(C[s]["tab"] for s in TABS)  # the address's values (English in every language)

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
    st.caption(_("Live examples of the places where token counts surprise people. Edit any of them; every count is "
                 "measured with the real tokenizers you pick, offline."))


def pick_section() -> list[tuple[str, TextTokenizer]]:
    real_keys = [e.key for e in choices.real_entries()]
    return choices.pick_many(PAGE, default=[k for k in ("cl100k_base", "o200k_base") if k in real_keys],
                             kinds=("real",), label=_("Real tokenizers"), upload=False)


def tabs_section() -> Slides:
    """One tab per quirk, made here under the pickers: ``with tabs(TAB_NAMES[i]):``, drawn only if
    ``tabs.open(...)``. A tab shows its name in the learner's language and the address keeps the English one
    (``?quirk=Numbers``), as :class:`ui.layout.Slides` keeps a part's."""
    tabs = Slides({C[s]["tab"]: localized(C[s])["tab"] for s in TABS}, TAB)
    tabs(TAB_NAMES[0])  # the tabs are made on the first call
    return tabs


def ready(chosen: Chosen) -> bool:
    """Whether there is a tokenizer to measure with (if not, says what to do)."""
    if not chosen:
        st.info(_("Pick at least one tokenizer above."), icon=":material/list:")
        return False
    if state.too_long(PARAMS):
        st.caption(_("Some of these texts are too long to put in the page's link; the link keeps the rest."))
    return True


# -- drawing helpers -------------------------------------------------------------------------------------
def columns(chosen: Sequence[tuple[str, TextTokenizer]], large: bool) -> list[tuple[str, TextTokenizer, DeltaGenerator]]:
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


def count_note(count: int, shown: int, *, groups: bool = False) -> str:
    """``"5 tokens"`` (``groups``: ``"5 groups"``), and how many are drawn when not all are."""
    note = _n("{n} group", "{n} groups", count) if groups else _n("{n} token", "{n} tokens", count)
    return note + (" " + _("(first {n} shown)", n=number(shown)) if count > shown else "")


def draw_rows(rows: Sequence[tuple[str, Sequence[Chip], str]], *, show_ids: bool = False) -> None:
    """Labelled rows of chips (label, chips, note)."""
    st.html(CSS + labelled_rows_html(rows, show_ids=show_ids))


def chip_row(chips: Sequence[Chip], *, label: str, line_breaks: bool = False) -> None:
    """One row of chips (``line_breaks``: a new line after a token that ends in one, as in the text)."""
    draw_chips(chips, label=label, line_breaks=line_breaks)


def heading(tok: TextTokenizer) -> None:
    st.markdown(f"**{md_escape(tok.name)}**")


def too_long(text: str, limit: int, what: str) -> bool:
    """True (after saying so) when ``text`` is longer than this experiment takes (``what``, translated: "a word")."""
    if len(text) <= limit:
        return False
    st.warning(
        _("That is {n} characters; this example takes {what} of up to {limit} characters. A short text shows the "
          "quirk best: paste a shorter part.", n=number(len(text)), what=what, limit=number(limit)),
        icon=":material/content_cut:",
    )
    return True


def section_intro(section: str) -> None:
    st.markdown(md_escape(localized(C[section])["intro"]))


def word_input(param: state.Param, label: str) -> str:
    st.text_input(label, key=param.skey)
    return (state.value(param) or "").strip()


# -- spaces and the start of a text ----------------------------------------------------------------------
FORM_NAMES = {"start": N_("at the start of a text"), "space": N_("after a space"),
              "newline": N_("after a line break"), "lower": N_("lower case"), "title": N_("Capitalised"),
              "upper": N_("CAPITALS"), "lower, after a space": N_("·lower case"),
              "title, after a space": N_("·Capitalised"), "upper, after a space": N_("·CAPITALS")}
"""Each form's name, marked for the catalogue (drawn through ``_``), by the name the analyses give it."""


def forms_section(section: str, param: state.Param, forms_of: Callable, chosen: Chosen, large: bool) -> None:
    section_intro(section)
    word = word_input(param, _("A word"))
    if not word:
        st.info(_("Type a word."), icon=":material/edit:")
        return
    if too_long(word, MAX_WORD, _("a word")):
        return
    forms = forms_of(word)
    for key, tok, col in columns(chosen, large):
        with col:
            heading(tok)
            rows, counts = [], []
            for name, text in forms:
                chips, count = token_chips(key, text)
                rows.append((_(FORM_NAMES[name]), chips, count_note(count, len(chips))))
                counts.append(count)
            draw_rows(rows, show_ids=True)
            same = len({tuple(chip.token_id for chip in chips) for _label, chips, _note in rows}) == 1
            st.caption(_("The same ids every time.") if same else
                       _("Different ids: to the model these are different words.") if len(set(counts)) == 1 else
                       _("Different ids: to the model these are different words, and they cost differently."))
    st.caption(_("· is a space and ↵ a line break; the number under a chip is the id the model reads."))



# -- joining: count the final prompt, never the parts ------------------------------------------------------
def join_section(chosen: Chosen, large: bool) -> None:
    section_intro("join")
    left, right = st.columns(2)
    left.text_area(_("First text (an instruction, say)"), key=JOIN_A.skey, height=90)
    right.text_area(_("Second text (what the user typed)"), key=JOIN_B.skey, height=90)
    a, b = state.value(JOIN_A) or "", state.value(JOIN_B) or ""
    if not a or not b:
        st.info(_("Type something in both boxes."), icon=":material/edit:")
        return
    if too_long(a, MAX_PART, _("each text")) or too_long(b, MAX_PART, _("each text")):
        return
    st.toggle(_("Predict first"), key=JOIN_PREDICT.skey, help=_("Guess the joined count before it is shown."))
    joined = {key: joined_counts(key, (a, b)) for key, _tok in chosen}
    first_key, first_tok = chosen[0]
    hidden = False
    if state.value(JOIN_PREDICT):
        j = joined[first_key]
        change = j.total - j.sum_of_parts
        moved = (_("the same as the parts") if change == 0 else
                 _n("{n} token fewer than the parts", "{n} tokens fewer than the parts", -change) if change < 0 else
                 _n("{n} token more than the parts", "{n} tokens more than the parts", change))
        question = predict.Question(
            key="", id=QuestionId.of(QUIRKS_JOIN, run=state.digest(first_key, a, b)), kind="number", answer=j.total,
            unit=N_("tokens"), scope="quirks-page",
            prompt=_("With {name}, the first text is {a} and the second {b}: {sum} counted apart. How many tokens is "
                     "the prompt they make together?", name=first_tok.name,
                     a=_n("{n} token", "{n} tokens", j.counts[0]), b=_n("{n} token", "{n} tokens", j.counts[1]),
                     sum=number(j.sum_of_parts)),
            explain=_n("Joined, {name} reads {n} token: {moved}.", "Joined, {name} reads {n} tokens: {moved}.",
                       j.total, name=first_tok.name, moved=moved)
            + " " + _("The tokens that changed at the join are outlined below."),
        )
        with st.container(border=True):
            hidden = predict.ask(question) is None
    for key, tok, col in columns(chosen, large):
        j = joined[key]
        with col:
            heading(tok)
            rows = []
            for label, tokens, changed in ((_("first text"), j.parts[0], j.part_changed[0]),
                                           (_("second text"), j.parts[1], j.part_changed[1])):
                chips = [chip_from_token(t, highlight=c and not hidden) for t, c in zip(tokens[: MAX_CHIPS], changed)]
                rows.append((label, chips, count_note(len(tokens), len(chips))))
            if not hidden:
                chips = [chip_from_token(t, highlight=c) for t, c in zip(j.whole[: MAX_CHIPS], j.whole_changed)]
                rows.append((_("joined"), chips, count_note(j.total, len(chips))))
            draw_rows(rows)
            sums = {"a": number(j.counts[0]), "b": number(j.counts[1]), "sum": number(j.sum_of_parts),
                    "total": number(j.total)}
            if hidden:
                st.caption(_("Counted apart: {a} + {b} = {sum}. The joined count is hidden until you predict.",
                             **sums))
            elif j.difference == 0:
                st.caption(_("Counted apart: {a} + {b} = {sum}. Joined: {total}, the same here, but only because "
                             "nothing at the join could merge.", **sums))
            elif j.difference < 0:
                st.markdown(_n("Counted apart: {a} + {b} = **{sum}**. Joined: **{total}**, {n} token fewer.",
                               "Counted apart: {a} + {b} = **{sum}**. Joined: **{total}**, {n} tokens fewer.",
                               -j.difference, **sums))
            else:
                st.markdown(_n("Counted apart: {a} + {b} = **{sum}**. Joined: **{total}**, {n} token more.",
                               "Counted apart: {a} + {b} = **{sum}**. Joined: **{total}**, {n} tokens more.",
                               j.difference, **sums))
    if not hidden:
        st.caption(_("Outlined: the tokens that are not the same in the joined text as in its parts. Count the final "
                     "prompt, exactly as it will be sent, never the parts."))



# -- formatting ------------------------------------------------------------------------------------------
def formatting_section(chosen: Chosen, large: bool) -> None:
    section_intro("formatting")
    st.text_area(_("Records, as CSV (a header line, then one record a line)"), key=RECORDS.skey, height=150)
    text = state.value(RECORDS) or ""
    if too_long(text, MAX_CSV_CHARS, _("records")):
        return
    try:
        records = records_from_csv(text)
    except ValueError as exc:
        st.warning(md_escape(_("These records cannot be read: {why}", why=exc)), icon=":material/table:")
        return
    variants = format_variants(records)
    counts = {key: {k: choices.encoded(key, v, MAX_CHIPS).measure.tokens for k, v in variants.items()} for key, _tok in chosen}
    table = pd.DataFrame({_("format"): [_(FORMATS[k]) for k in variants],
                          _("characters"): [len(v) for v in variants.values()]}
                         | {tok.name: [counts[key][k] for k in variants] for key, tok in chosen})
    tables.show(table, hide_index=True, key=FORMATS_TABLE.skey)
    key0, tok0 = chosen[0]
    c = counts[key0]
    fields = list(records[0])
    st.markdown(_(
        "With {name}, indented JSON costs **{indented}×** the tokens of the same records as CSV, and escaped JSON "
        "**{escaped}×**. JSON writes the {fields} ({names}) in every one of the {records}; CSV writes them once.",
        name=md_escape(tok0.name), indented=ratio(c["indented"], c["csv"], 1), escaped=ratio(c["escaped"], c["csv"], 1),
        fields=_n("{n} field name", "{n} field names", len(fields)), names=md_escape(and_words(fields)),
        records=_n("{n} record", "{n} records", len(records))))
    st.segmented_control(_("See the tokens of"), tuple(FORMATS), key=FORMAT.skey, required=True,
                         format_func=translated(FORMATS).__getitem__)
    shown, shown_name = variants[state.value(FORMAT)], _(FORMATS[state.value(FORMAT)])
    for key, tok, col in columns(chosen, large):
        with col:
            chips, count = token_chips(key, shown)
            st.markdown(f"**{md_escape(tok.name)}**: {count_note(count, len(chips))}")
            chip_row(chips, label=f"{tok.name}: {shown_name}", line_breaks=True)
    st.caption(_("· is a space and ↵ a line break: each chip is one token, laid out line by line like the text."))



# -- numbers ---------------------------------------------------------------------------------------------
NUMBER_CHIPS = 120  # chips drawn per row for a long number: its start shows each rule; every token is counted


def plain_chips(groups: list[str]) -> list[Chip]:
    """Digit groups drawn as chips (a rule's cut, not a tokenizer's tokens)."""
    return [Chip(label=g) for g in groups[:NUMBER_CHIPS]]


def groups_note(groups: list[str]) -> str:
    return count_note(len(groups), min(len(groups), NUMBER_CHIPS), groups=True)


def numbers_section(chosen: Chosen, large: bool) -> None:
    section_intro("numbers")
    st.text_input(_("A number (commas, a sign and decimals are fine)"), key=NUMBER.skey)
    try:
        parsed = parse_number(state.value(NUMBER) or "")
    except ValueError as exc:
        st.warning(md_escape(str(exc)), icon=":material/pin:")
        return
    digits = parsed.digits

    def draw_rules() -> None:
        st.markdown(_("**Three rules for cutting the digits**, drawn as chips (rules, not a tokenizer's tokens):"))
        rules = ((_("one token per digit"), list(digits)), (_("groups of three from the left"), group_digits(digits)),
                 (_("right-aligned groups of three"), group_digits(digits, align="right")))
        draw_rows([(label, plain_chips(groups), groups_note(groups)) for label, groups in rules])

    if not classroom_on():  # classroom mode: under the tokenizers' cuts, so those are on the first screen
        draw_rules()
    writings = ((_("no commas"), parsed.plain), (_("international commas"), international(parsed.plain)),
                (_("Indian commas"), indian(parsed.plain)))
    box = figure("number-tokens")
    box.markdown(_("**What each tokenizer does**, measured on this number written three ways:"))
    with box:
        cols = columns(chosen, large)
    for key, tok, col in cols:
        with col:
            heading(tok)
            probe = choices.encoded(key, DIGIT_PROBE, 50).tokens
            style = digit_style(digit_groups([t.label for t in probe]))
            st.caption(_("Its rule, measured on {probe}: {rule} ({tokens}).", probe=DIGIT_PROBE, rule=_(STYLES[style]),
                         tokens=" ".join(visible_token(t.label) for t in probe)))
            rows = []
            for label, text in writings:
                chips, count = token_chips(key, text, limit=NUMBER_CHIPS)
                rows.append((label, chips, count_note(count, len(chips))))
            draw_rows(rows)
    if classroom_on():
        draw_rules()
    st.caption(md_escape(C["numbers"]["citation"]) + " " + md_escape(localized(C["numbers"])["finding"]))
    with st.expander(_("Every real tokenizer's digit rule, measured on {probe}", probe=DIGIT_PROBE), key=RULES_OPEN.skey,
                     on_change="rerun", icon=":material/pin:") as box:
        if box.open:
            rules = []
            for entry in choices.real_entries(featured=True):
                try:
                    probe = choices.encoded(entry.key, DIGIT_PROBE, 50).tokens
                except choices.Unavailable as exc:
                    rules.append((entry.title, _("unavailable here"), str(exc)))
                    continue
                style = digit_style(digit_groups([t.label for t in probe]))
                rules.append((entry.title, _(STYLES[style]), " ".join(visible_token(t.label) for t in probe)))
            columns_ = [_("tokenizer"), _("its digit rule"), _("the tokens of {probe}", probe=DIGIT_PROBE)]
            tables.show(pd.DataFrame(rules, columns=columns_), hide_index=True, key=RULES_TABLE.skey)



# -- letters ---------------------------------------------------------------------------------------------
def letters_section(chosen: Chosen, large: bool) -> None:
    section_intro("letters")
    left, right = st.columns([3, 1])
    with left:
        word = word_input(WORD, _("A word"))
    with right:
        letter = word_input(LETTER, _("The letter to count"))
    if not word or not letter:
        st.info(_("Type a word and a letter."), icon=":material/edit:")
        return
    if too_long(word, MAX_WORD, _("a word")):
        return
    total = count_letter(word, letter)
    st.markdown(_("Counted by code (ignoring case): {word} holds {letter} **{times}**.", word=md_code(word),
                  letter=md_code(letter), times=_n("{n} time", "{n} times", total)))
    for key, tok, col in columns(chosen, large):
        with col:
            heading(tok)
            rows = []
            for name, form in space_forms(word)[:2]:  # as typed, and after a space (inside a sentence)
                found = choices.encoded(key, form, MAX_CHIPS).tokens
                per = letter_counts([t.bytes for t in found], letter)
                chips = [chip_from_token(t, highlight=n > 0) for t, n in zip(found, per)]
                rows.append((_(FORM_NAMES[name]), chips, _n("{n} token", "{n} tokens", len(found))))
            draw_rows(rows, show_ids=True)
            tokens = choices.encoded(key, word, MAX_CHIPS).tokens
            per = letter_counts([t.bytes for t in tokens], letter)
            holding = [f"{md_code(t.label)} ({n})" for t, n in zip(tokens, per) if n]
            ids = {"ids": _n("{n} id", "{n} ids", len(tokens)), "letter": md_code(letter),
                   "list": md_escape(" ".join(str(t.id) for t in tokens[:40]))}
            st.markdown(_("At the start of a text the model reads {ids}: {list}. The {letter} are in {holding}.",
                          holding=and_words(holding), **ids) if holding else
                        _("At the start of a text the model reads {ids}: {list}. The {letter} are in no token.", **ids))
            if sum(per) < total:
                st.caption(_("Some of them are split across tokens (part of a character's bytes), so no token holds "
                             "them."))
    st.caption(_("Outlined: the tokens that hold the letter. Nothing in an id says which letters it holds."))



# -- the pre-split ---------------------------------------------------------------------------------------
def _presplitter(tok: TextTokenizer) -> RealTokenizer:
    """``tok`` as this section reads it, with its pre-split pattern and pieces: the page picks production tokenizers
    only (:func:`pick_section`, kinds "real")."""
    assert isinstance(tok, RealTokenizer)
    return tok


def presplit_section(chosen: Chosen, large: bool) -> None:
    section_intro("presplit")
    st.text_area(_("A sentence"), key=SENTENCE.skey, height=80)
    text = state.value(SENTENCE) or ""
    if not text.strip():
        st.info(_("Type a sentence (Hindi shows the difference best)."), icon=":material/edit:")
        return
    if too_long(text, MAX_SENTENCE, _("a sentence")):
        return
    words = word_count(text)
    splitters = [_presplitter(tok) for _key, tok in chosen]
    for tok in splitters:  # one full-width row each: the pieces are the point
        pieces = tok.pieces(text)
        marked = sum(1 for p in pieces if starts_with_mark(p))
        st.markdown(_("**{name}**: {pieces} for {words}; **{marked}** start with a vowel sign or another mark "
                      "(outlined).", name=md_escape(tok.name), pieces=_n("{n} piece", "{n} pieces", len(pieces)),
                      words=_n("{n} word", "{n} words", words), marked=number(marked)))
        chip_row([Chip(label=p, highlight=starts_with_mark(p)) for p in pieces[: MAX_CHIPS]],
                 label=_("{name}: pre-split pieces", name=tok.name))
        if len(pieces) > MAX_CHIPS:
            st.caption(_("The first {n} of {total} pieces are drawn.", n=number(MAX_CHIPS), total=number(len(pieces))))
        if tok.pattern is None:
            st.caption(_("It has no pre-split pattern (SentencePiece): its pieces are its words."))
    st.caption(_("Each chip is a piece, before any merge. A mark cut off its letter is drawn on ◌ and named."))
    with st.expander(_("The patterns"), icon=":material/regular_expression:"):
        for tok in splitters:
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
