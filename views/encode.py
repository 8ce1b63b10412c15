"""What the "Encode step by step" page draws: a tokenizer's merges replayed on a word or a sentence, one merge at a
time: a lab model's learned merges (:func:`tokenizer.replay.encode_trace`), or a production tokenizer's, recovered
from its ranks and applied as its own library does, piece by piece, lowest rank first (:mod:`family.merges`).

The page sets up and composes the sections here: :func:`intro`, :func:`pick_tokenizer`, then :func:`encode_section`
inside ``state.published(PARAMS)``. The step view is a fragment, so Next reruns only it.
"""

from __future__ import annotations

from collections.abc import Set
from typing import TypeGuard

import pandas as pd
import streamlit as st

import lessons
from family import merges
from i18n import N_, _, _n, localized, number
from tokenizer import TextTokenizer, Tokenizer
from tokenizer.replay import EncodeTrace, encode_trace
from ui import choices, predict, state, tables, viewport
from ui.chips import CSS, Chip, chip_for_id, merge_html, token_chips
from ui.display import md_code, md_escape, pair_text, visible_token
from ui.layout import classroom_on, figure
from ui.links import lesson_link
from ui.questions import encode_question
from ui.state import Key, Param
from ui.steps import Stepper
from ui.treeview import MERGES_FROM_RANKS, has_trees, merged_ids, tree_html

PAGE = "encode"
MAX_CHARS = 200  # a word or a sentence; long text belongs on the Tokenize page
EXAMPLES = lessons.examples("encode")
DEFAULT_TOKENIZER = "readers"

# -- The page's session keys, declared once (the page, the warm-up, the benchmarks and the tests import them) --
TEXT = Param(PAGE, "text", "readership", max_len=MAX_CHARS * 2)
STEP = Param(PAGE, "step", 0, lo=0, hi=1_000_000)
PREDICT = Param(PAGE, "predict", False)
PARAMS = [TEXT, STEP, PREDICT]
STEPPER = Stepper(STEP, names=(N_("Start"), N_("Previous"), N_("Next"), N_("End")))
FIRST, PREV, NEXT, LAST = (STEPPER.key(name) for name in ("first", "prev", "next", "last"))
TOK = choices.one_key(PAGE)  # the lab tokenizer picked (ui.choices.pick_one)
UPLOAD = choices.upload_key(PAGE)  # the model uploader beside it
SIGNATURE = Key(PAGE, "_signature")  # the (tokenizer, text) the step belongs to
TREE_OPEN = Key(PAGE, "tree_open")
TREE_ID = Key(PAGE, "tree_id")
STEPS_TABLE = Key(PAGE, "steps_table")


def example_key(i: int) -> Key:
    """The button of the ``i``-th ready example (from 0)."""
    return Key(PAGE, f"example.{i}")


def use_example(preset: str, text: str) -> None:
    """on_click of a ready example: its tokenizer and its text, from step 0."""
    st.session_state[TOK.skey] = preset
    state.set_value(TEXT, text)
    STEPPER.reset()


# -- sections ---------------------------------------------------------------------------------------
def intro(large: bool) -> None:
    """What encoding is, the lesson, and the ready examples."""
    if not large:
        st.caption(_(
            "To encode new text, a BPE tokenizer cuts it into single characters (or bytes) and replays the merges it "
            "learned, in the order it learned them. A merge fires wherever its pair sits side by side; most find "
            "nothing. Step through the ones that fire, with a lab model or with the tokenizer of GPT-4o, Llama 3 "
            "or Mistral: their merges are implied by their ranks."
        ))
    lesson_link(2)
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.caption(_("Ready examples:"), width="content")
        for i, example in enumerate(EXAMPLES):
            st.button(localized(example)["label"], key=example_key(i).skey, on_click=use_example,
                      args=(example["preset"], example["text"]))


def pick_tokenizer() -> tuple[str, TextTokenizer | None]:
    """The tokenizer (a lab preset, a model of the session, or a production one), kept in the link as ``?tok=``."""
    return choices.pick_one(PAGE, default=DEFAULT_TOKENIZER, kinds=("lab", "session", "real"),
                            label=_("Tokenizer"))


def encode_section(key: str, tok: TextTokenizer | None, large: bool) -> None:
    """The text box, then the merges replayed on it (or why there is nothing to replay). Call it inside
    ``state.published(PARAMS)``: every early return still leaves the address a link to the view."""
    st.text_input(_("A word or a sentence"), key=TEXT.skey,
                  help=_("Up to {n} characters. For long text, use the Tokenize anything page.", n=number(MAX_CHARS)))
    text: str = state.value(TEXT) or ""
    if tok is None:
        return  # the picker has said what to do (upload a model, or pick another)
    if not has_trees(tok):
        st.info(_("This tokenizer's merges cannot be replayed here: pick another."), icon=":material/block:")
        return
    if not text.strip():
        st.info(_("Type a word or a sentence above, or pick a ready example."), icon=":material/edit:")
        return
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS]
        st.warning(
            _("This page replays merges on a word or a sentence, so it uses the first {n} characters. "
              "For long text, use the Tokenize anything page.", n=number(MAX_CHARS)),
            icon=":material/content_cut:",
        )
    try:
        trace = replay(tok, text)
    except ValueError as exc:  # e.g. a model whose pre-split pattern backtracks badly on this text
        st.warning(_("This tokenizer cannot cut this text: {reason}", reason=md_escape(str(exc))), icon=":material/timer_off:")
        return

    # A new text or tokenizer starts again from step 0; a shared link keeps its step.
    signature = (key, text)
    if st.session_state.get(SIGNATURE.skey, signature) != signature:
        STEPPER.reset()
    st.session_state[SIGNATURE.skey] = signature

    if not trace.pieces:
        st.info(_("This tokenizer splits on whitespace and drops the spaces, so there is nothing to encode."))
        return
    if production(trace) and not trace.agrees:  # a character newer than the library's Unicode
        st.warning(_("On this text the steps below do not end in the ids of {name}'s own library (here {mine} "
                     "tokens, there {theirs}): the text has a character added to Unicode after the library's tables "
                     "were made. The lab's pre-split reads it as a letter, the library does not, so they cut the "
                     "text in different places.",
                     mine=number(len(trace.ids)), name=choices.title(key), theirs=number(len(trace.library))),
                   icon=":material/info:")
    if not trace.steps:
        no_merge_section(tok, trace)
        return
    st.fragment(steps_section, run_every=STEPPER.run_every())(key, tok, trace, large)


def replay(tok: TextTokenizer, text: str) -> EncodeTrace | merges.Replay:
    """The merges replayed on ``text``: a lab model's in learned order, a production tokenizer's as its library
    applies them (one merge a step, piece by piece)."""
    if isinstance(tok, Tokenizer):
        return encode_trace(tok, text)
    return merges.inside(tok).replay(text, limit=MAX_CHARS)


def production(trace: EncodeTrace | merges.Replay) -> TypeGuard[merges.Replay]:
    return isinstance(trace, merges.Replay)


def no_merge_section(tok: TextTokenizer, trace: EncodeTrace | merges.Replay) -> None:
    """No learned merge finds its pair in the text: the starting tokens are the final ones."""
    STEPPER.set(0)
    st.subheader(_("No merge fires"))
    token_chips(chips_at(tok, trace, 0), show_ids=True, label=_("tokens"), mark_pieces=True)
    draw_key(tok, trace)
    st.info(
        _n("None of the {n} learned merge finds its pair in this text, so it stays as its {start}: one token each.",
           "None of the {n} learned merges finds its pair in this text, so it stays as its {start}: one token each.",
           trace.n_learned, start=starting(trace, 0)),
        icon=":material/block:",
    )


def predict_toggle() -> None:
    st.toggle(_("Predict first"), key=PREDICT.skey,
              help=_("Before each merge is shown, pick the pair you think merges next."))


def steps_section(key: str, tok: TextTokenizer, trace: EncodeTrace | merges.Replay, large: bool) -> None:
    """The step view (a fragment): the controls, the merge (or first the question, while predicting), the tokens
    before and after it."""
    with state.published(PARAMS):  # a fragment run publishes the step too
        n = len(trace.steps)
        marker = trace.marker
        predicting = bool(st.session_state.get(PREDICT.skey))
        with st.container(key=viewport.action(PAGE)):
            step = STEPPER.draw(n, slider=None if large or predicting else _("Step"), autoplay_disabled=predicting,
                                extra=predict_toggle)
        with st.container(key=viewport.result(PAGE)):  # the merge and the tokens before and after
            if step and predicting and not ask_first(key, trace, step, tok):
                return
            if step == 0:
                st.subheader(_("Start: {tokens}", tokens=_n("{n} token", "{n} tokens", count_tokens(trace, 0))))
                pieces = _n("{n} piece", "{n} pieces", len(trace.pieces))
                fire = _n("{n} merge will fire.", "{n} merges will fire.", n)
                if marker:
                    start = _("The text is cut into {pieces} (the pre-split), each piece into {units}, and each word "
                              "ends with the marker {marker}. {fire} Press **Next**.", pieces=pieces,
                              units=unit_name(trace), marker=md_code(marker), fire=fire)
                else:
                    start = _("The text is cut into {pieces} (the pre-split), each piece into {units}. {fire} Press "
                              "**Next**.", pieces=pieces, units=unit_name(trace), fire=fire)
                st.markdown(start)
                with figure("encode-tokens"):
                    token_chips(chips_at(tok, trace, 0), show_ids=True, label=_("starting tokens"), mark_pieces=True)
            else:
                merge_view(tok, trace, step)
        draw_key(tok, trace)
        if step == n:
            final = count_tokens(trace, n)
            st.success(
                _("No merge applies any more: no two neighbouring tokens form a pair this tokenizer learned. "
                  "{tokens} from {start}; {fired}.", tokens=_n("{n} token", "{n} tokens", final),
                  start=starting(trace, 0),
                  fired=_n("{fired} of the {n} learned merge fired", "{fired} of the {n} learned merges fired",
                           trace.n_learned, fired=number(n))),
                icon=":material/check_circle:",
            )
        if step:
            with st.expander(_("Merges so far, as a table"), icon=":material/table:"):
                steps_table(trace, step)
        draw_tree(key, tok, [i for ids in trace.ids_at(step) for i in ids])


def ask_first(key: str, trace: EncodeTrace | merges.Replay, step: int, tok: TextTokenizer) -> bool:
    """Predict first: "which pair merges next?" before step ``step`` is shown, with the tokens before it. Returns
    whether it is answered (the step may be shown)."""
    question = encode_question(key, trace, step, state.value(TEXT) or "")
    if predict.answered(question):
        predict.ask(question)
        return True
    st.subheader(_("Step {step} of {n}: predict first", step=number(step), n=number(len(trace.steps))))
    with st.container(border=True):
        answered = predict.ask(question) is not None
    if not answered:
        with figure("encode-tokens"):
            st.markdown(_("**The tokens now**"))
            token_chips(chips_at(tok, trace, step - 1), show_ids=True, label=_("tokens before the merge"),
                        mark_pieces=True)
        st.caption(_("Your predictions on this page: {score}.", score=predict.score_line(PAGE)))
    return answered


def merge_view(tok: TextTokenizer, trace: EncodeTrace | merges.Replay, step: int) -> None:
    """Step ``step``: the merge that fired, where, what it skipped, and the tokens before and after."""
    n = len(trace.steps)
    s = trace.steps[step - 1]
    k = len(s.places)
    st.subheader(_("Step {step} of {n}", step=number(step), n=number(n)))
    whole = getattr(s, "whole", ())
    if whole:  # a token BPE never reaches: the library finds the whole piece in its vocabulary
        st.html(CSS + merge_html(
            chip_for_id(tok, whole[0]), chip_for_id(tok, whole[-1]), chip_for_id(tok, s.token_id, highlight=True),
            before=_n("The whole piece is token {id} (from {n} token):", "The whole piece is token {id} (from {n} "
                      "tokens):", len(whole), id=s.token_id),
            after=_("found whole, not by a merge.")))
        st.caption(_("BPE's merges never make this token, but the tokenizer looks every piece up whole before it "
                     "merges anything, so it finds it (for every other token that gives what the merges give)."))
    elif production(trace):
        st.html(CSS + merge_html(
            chip_for_id(tok, s.pair[0]), chip_for_id(tok, s.pair[1]), chip_for_id(tok, s.token_id, highlight=True),
            before=_("Rank {rank} of {n} merges:", rank=number(s.rank), n=number(trace.n_learned)),
            after=_("the lowest-ranked pair in its piece, so it merges first.")))
    else:
        st.html(
            CSS
            + merge_html(
                chip_for_id(tok, s.pair[0]),
                chip_for_id(tok, s.pair[1]),
                chip_for_id(tok, s.token_id, highlight=True),
                before=_("Merge #{rank} of the {n} learned:", rank=number(s.rank + 1), n=number(trace.n_learned)),
                after=_n("fired at {n} place.", "fired at {n} places.", k),
            )
        )
    where = sorted({p for p, _j in s.places})
    if len(trace.pieces) > 1:
        shown = ", ".join(md_code(trace.pieces[p]) for p in where[:8]) + (" …" if len(where) > 8 else "")
        st.markdown(_("In {pieces}.", pieces=shown))
    skipped = trace.skipped(step)
    if skipped:
        listed = ", ".join(f"#{r + 1} {md_code(pair_text(left, right), visible=False)}" for r, left, right in skipped[:6])
        st.caption(_n(
            "Skipped since the last step: {merges}. Its pair is nowhere in the text, so nothing happens.",
            "Skipped since the last step: {merges}. Their pairs are nowhere in the text, so nothing happens.",
            len(skipped), merges=listed + (" …" if len(skipped) > 6 else "")))
    before = {(p, j) for p, j in s.places} | {(p, j + 1) for p, j in s.places}
    # Classroom mode: before and after side by side, so the merge's result is on the first screen.
    was, now = st.columns(2, gap="large") if classroom_on() else (st.container(), st.container())
    was.markdown(_("**Before**"))
    with was:
        token_chips(chips_at(tok, trace, step - 1, before), show_ids=True, label=_("tokens before the merge"),
                    mark_pieces=True)
    after = {(p, j) for p, ids in enumerate(trace.ids_at(step)) for j, t in enumerate(ids) if t == s.token_id}
    with now, figure("encode-tokens"):
        st.markdown(_("**After: the final tokens**") if step == n else _("**After**"))
        token_chips(chips_at(tok, trace, step, after), show_ids=True, label=_("tokens after the merge"),
                    mark_pieces=True)


def steps_table(trace: EncodeTrace | merges.Replay, step: int) -> None:
    """Merges 1..step as a table."""
    if production(trace):
        played = trace.steps[:step]  # a production tokenizer's steps, piece by piece
        tables.show(pd.DataFrame({
            "step": [r.step for r in played], "piece": [r.piece + 1 for r in played], "rank": [r.rank for r in played],
            "pair": [pair_text(r.left, r.right) for r in played], "new token": [visible_token(r.token) for r in played],
            "id": [r.token_id for r in played]}), hide_index=True, key=STEPS_TABLE.skey,
            column_config={**common_columns(), "piece": st.column_config.NumberColumn(_("piece")),
                           "rank": st.column_config.NumberColumn(
                _("rank"), help=_("The new token's rank: BPE merges the lowest-ranked pair of a piece first."))})
        return
    rows = trace.steps[:step]
    tables.show(
        pd.DataFrame(
            {
                "step": [r.step for r in rows],
                "merge #": [r.rank + 1 for r in rows],
                "pair": [pair_text(r.left, r.right) for r in rows],
                "new token": [visible_token(r.token) for r in rows],
                "id": [r.token_id for r in rows],
                "places": [len(r.places) for r in rows],
            }
        ),
        hide_index=True,
        key=STEPS_TABLE.skey,
        column_config={  # the columns are named by their labels: the data's names stay the same in every language
            **common_columns(),
            "merge #": st.column_config.NumberColumn(
                _("merge #"), help=_("The merge's place in the order it was learned (1 = first).")),
            "places": st.column_config.NumberColumn(
                _("places"), help=_("How many times the pair was found side by side and merged.")),
        },
    )


def common_columns() -> dict:
    """The steps table's columns both kinds of replay have, labelled in the learner's language."""
    return {"step": st.column_config.NumberColumn(_("step")), "pair": st.column_config.TextColumn(_("pair")),
            "new token": st.column_config.TextColumn(_("new token")),
            "id": st.column_config.NumberColumn(_("id"), format="%d")}


# -- pieces -----------------------------------------------------------------------------------------
def chips_at(tok: TextTokenizer, trace: EncodeTrace | merges.Replay, step: int,
             highlight: Set[tuple[int, int]] = frozenset()) -> list[Chip]:
    """The tokens after ``step`` merges, piece by piece, as chips."""
    out = []
    for p, (ids, labels) in enumerate(zip(trace.ids_at(step), trace.labels_at(step))):
        for j, (token_id, label) in enumerate(zip(ids, labels)):
            out.append(chip_for_id(tok, token_id, label, piece=p, highlight=(p, j) in highlight))
    return out


def count_tokens(trace: EncodeTrace | merges.Replay, step: int) -> int:
    return sum(len(ids) for ids in trace.ids_at(step))


def unit_name(trace: EncodeTrace | merges.Replay) -> str:
    """What the pieces start as, in the learner's language: "single characters", "single bytes", "single symbols"
    (the end-of-word marker is a starting symbol but not a character)."""
    return {"bytes": _("single bytes"), "symbols": _("single symbols")}.get(trace.start_unit, _("single characters"))


def starting(trace: EncodeTrace | merges.Replay, step: int) -> str:
    """"11 starting symbols" (the count of tokens at ``step`` named by what the pieces start as)."""
    n = count_tokens(trace, step)
    if trace.start_unit == "bytes":
        return _n("{n} starting byte", "{n} starting bytes", n)
    if trace.start_unit == "symbols":
        return _n("{n} starting symbol", "{n} starting symbols", n)
    return _n("{n} starting character", "{n} starting characters", n)


def draw_key(tok: TextTokenizer, trace: EncodeTrace | merges.Replay) -> None:
    """A one-line key to the chips on this page (only what the chips shown can need)."""
    key_parts = [_("the number under a chip is its id")]
    if len(trace.pieces) > 1:
        key_parts.append(_("a wider gap separates the pre-split pieces (merges never cross them)"))
    if tok.unit == "bytes":
        key_parts.append(_("dashed border: part of a character, shown as its bytes in hex, with the letters the "
                           "tokens make written under them"))
    st.caption(_("Key: {parts}.", parts="; ".join(key_parts)))
    unseen = trace.unseen()
    if unseen:
        st.info(
            _("{characters}: never seen in training, so this character-level model has no id for them (white chips "
              "with a dotted border and ?). They stay as they are, one token each, and no merge can touch them. A "
              "byte-level model never meets an unknown: every character is bytes it knows. Try the same text with "
              "one of the English + Hindi tokenizers.", characters=", ".join(md_code(c) for c in unseen)),
            icon=":material/help:",
        )


def draw_tree(key: str, tok: TextTokenizer, final_ids: list[int]) -> None:
    """Where a token of the result comes from: its merges, down to single characters or bytes."""
    merged = merged_ids(tok, final_ids)
    if not merged:
        return
    with st.expander(_("Where does a token come from? Its merges, down to single characters or bytes"),
                     key=TREE_OPEN.skey, on_change="rerun", icon=":material/account_tree:") as box:
        if box.open:
            id_word = _("id")
            pick = st.selectbox(_("Token"), merged, key=TREE_ID.skey,
                                format_func=lambda i: f"{visible_token(chip_for_id(tok, i).label)}  ({id_word} {i})")
            counts = choices.trace_counts(key) if isinstance(tok, Tokenizer) else None
            st.html(tree_html(tok, pick, counts))
            if not isinstance(tok, Tokenizer):
                st.caption(_(MERGES_FROM_RANKS))
            elif counts is None:
                st.caption(_("This model came from a file, so how often each pair was seen is not known here."))
