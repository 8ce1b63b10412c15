"""Save and load a learner's progress (the Lessons page's "Your progress" box).

Saving: the file is built from the session's answers while the page runs, so it
holds every first answer of the session, from every page (a callable handed to
``st.download_button`` runs outside the session and would see none). Each answer
is written by its question's stable id (:class:`lessons.progress.QuestionId`).

Loading: :mod:`lessons.progress` reads the file (version 2, or version 1 by its
migration) and checks each guess against its question with the lab's judging
rules (:mod:`lessons.judging`); :func:`ui.questions.resolve` says what each
question is now:

- a lesson exercise (found by its lesson and its id, or an id it had before), a
  practice question, English vs Hindi's two questions, Train's "which pair does
  merge k pick?" on a preset trained with its own settings (what every lesson link
  opens), Cost's "how many articles fit?" (its id holds all its numbers): rebuilt
  with the engine's answer, and the guess judged again;
- questions a lab page makes from the learner's own input (Train on their text or
  settings, a Tokenize count, a Streaming token, a Quirks join): their
  id holds only a digest of that input, so the question cannot be rebuilt here.
  The guess must have the type of the page's questions; it is kept *waiting*,
  counted in no score, and judged when the page asks that question again
  (:func:`ui.predict.ask`), or set aside there if it does not fit;
- a question the lab no longer has (a renamed exercise with no former id, a merge
  a preset does not have): refused, and named in the message.

An answer already given in this session is never replaced: the first counts.
"""

from __future__ import annotations

import streamlit as st

from i18n import _, _n, number
from lessons.progress import QUESTIONS, describe, to_json
from ui import predict, state
from ui.display import callout_html
from ui.keep import forget, load
from ui.uploads import uploaded_bytes


def refused_text(refused: list[tuple[str, str]], show: int = 5) -> str:
    """The refused answers, named (the first few), for a message."""
    lines = [f"• {which}: {why}" for which, why in refused[:show]]
    if len(refused) > show:
        lines.append(_("… and {n} more.", n=number(len(refused) - show)))
    return (_n("{n} answer in the file was refused (nothing you had answered is changed):",
               "{n} answers in the file were refused (nothing you had answered is changed):", len(refused))
            + "\n" + "\n".join(lines))


def load_key(page: str) -> state.Key:
    """The progress file box on ``page``."""
    return state.Key(page, "load")


def draw(page: str) -> None:
    """The save button and the load box (inside the page's "Worksheets and your progress" expander). The file's
    text is made now, while the page runs in the session: a callable given to st.download_button would run
    outside it and see no answers."""
    store = predict.store()
    with st.container(horizontal=True, vertical_alignment="center"):
        st.download_button(_("Save my progress"), to_json(store), "tokenization-lab-progress.json",
                           "application/json", key=f"{page}.save", on_click="ignore", icon=":material/save:",
                           help=_("A file with your {answers}, from every page: to carry them to another machine.",
                                  answers=_n("{n} answer", "{n} answers", len(store))))
        if predict.context() == "":  # in a class, the class keeps the answers (and this browser keeps none)
            st.button(_("Start over"), key=f"{page}.forget", on_click=forget, type="tertiary",
                      icon=":material/delete_history:",
                      help=_("Forget your answers, here and in this browser (on a computer others use, when you are "
                             "done). A file you saved keeps them."))

    def _load() -> None:
        file = st.session_state.get(load_key(page).skey)
        if file is None:
            return
        try:
            merged, refused, summary = load(file.getvalue(), predict.store())
        except ValueError as exc:
            st.session_state[state.Key(page, "_load_message").skey] = [("warning", _(
                "“{name}” was not loaded: {why} Your current progress is kept as it was.", name=file.name, why=exc))]
            return
        grew = len(merged) > len(predict.store())
        predict.set_store(merged)
        messages = [("success" if grew else "info", _("Loaded “{name}”: {summary}", name=file.name, summary=summary))]
        if refused:
            messages.append(("warning", refused_text(refused)))
        st.session_state[state.Key(page, "_load_message").skey] = messages

    uploaded_bytes(_("Load a progress file"), key=load_key(page).skey, types=["json"], limit_mb=2, on_change=_load)
    for kind, text in st.session_state.pop(state.Key(page, "_load_message").skey, []):
        st.html(callout_html(text, kind))


__all__ = ["QUESTIONS", "describe", "draw", "load", "load_key", "refused_text"]  # load: ui.keep's, one for both
