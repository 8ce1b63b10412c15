"""The Estimate page, part 2: the models you would send your input to, by product name (each with the tokenizer it
uses), and the lab's own; the models that bill hidden reasoning tokens, and those the lab cannot count, said where
models are picked."""

from __future__ import annotations

import streamlit as st

from analyses import estimate as est
from family import models as fm
from i18n import _, number
from ui import choices, state
from ui.display import and_words, md_escape
from ui.show import Show

from . import settings as s
from .parts import Data, Target


def models_changed() -> None:
    """on_change of the model picker: the link's list follows it."""
    state.set_value(s.MODELS, ",".join(st.session_state.get(s.MODELS_LIST.skey) or []))


def models_section(show: Show, data: Data | None = None) -> list[Target]:
    """The product models (by name, each with its tokenizer) and the lab's own; the usable ones. ``data``: the
    input read, when there is one (its chats make the template switch matter)."""
    known = {m.key: m for m in fm.models()}
    st.session_state[s.MODELS_LIST.skey] = s.chosen_model_keys()
    labels = {k: f"{m.name} · {m.tokenizer}" for k, m in known.items()}
    st.multiselect(_("Models"), list(known), key=s.MODELS_LIST.skey, format_func=lambda k: labels.get(k, k),
                   on_change=models_changed, placeholder=_("Pick the models you would send it to"),
                   select_all=False, filter_mode="contains",  # "GPT-4.1" + Enter picks GPT-4.1, not all three
                   help=_("By product name; each counts with the tokenizer it uses (after the name). The mapping is "
                          "data, with its source (the About box below)."))
    targets = [target for key in s.chosen_model_keys() if (target := _target(known[key])) is not None]
    say_reasoning(targets)
    if not show.classroom:
        st.caption(md_escape(not_countable()))
    st.toggle(_("Send each text as a user message (count the chat format's tokens too)"), key=s.AS_CHAT.skey,
              help=_("A chat API wraps each message in its model's template: a few tokens a message, and the reply's "
                     "start. Records that are chats already (JSONL `messages`) are always counted with their "
                     "template."))
    templated = [(t.label, t.model.template) for t in targets if t.model is not None and t.model.template is not None]
    chats = state.value(s.AS_CHAT) or (data is not None and any(r.messages for r in data.records))
    if templated and chats:
        st.toggle(_("Count what the official chat template adds"), key=s.EXTRAS.skey,
                  help=md_escape(" ".join(label + ": " + _(est.TEMPLATES[template]) + "." for label, template in templated)
                                 + " " + _("Counted in a chat's format tokens (a host may not add it).")))
    if not show.classroom or st.query_params.get(s.LAB_PICKED.name):  # classroom: fewer controls, unless linked
        with (st.container(border=True) if show.classroom else  # already in the page's closed box
              st.expander(_("The lab's own models (no price: give one to see a cost)"), icon=":material/science:")):
            for key, tok in choices.pick_many(s.PAGE, default=[], kinds=("lab", "session"),
                                              label=_("The lab's models"), upload=False):
                targets.append(Target(key, tok.name, key, tok, None))
    if not targets:
        st.info(_("Pick at least one model."), icon=":material/list:")
    return targets


def _target(model: fm.Model) -> Target | None:
    try:
        return Target(model.key, model.name, model.tokenizer, choices.load(model.tokenizer), model)
    except choices.Unavailable as exc:
        st.warning(md_escape(f"{model.name}: {exc}"), icon=":material/error:")
        return None


def say_reasoning(targets: list[Target]) -> None:
    """Where a reasoning model is picked: that it bills hidden reasoning tokens as output, and that the estimate
    adds an assumed budget for them."""
    thinking = [t.label for t in targets if t.reasoning]
    if not thinking:
        return
    budget = fm.reasoning_budget()
    said = (_("{models} bills hidden reasoning tokens as output:", models=thinking[0]) if len(thinking) == 1 else
            _("{models} bill hidden reasoning tokens as output:", models=and_words(thinking)))
    st.info(md_escape(said + " " + _(
        "the model thinks before it answers, and you pay for it. Not measured here, so the estimate adds an "
        "assumption: {n} reasoning tokens a request (the lab's reasoning budget, {value} as of {date}; change it "
        "under “Change the numbers”).", n=number(state.value(s.REASONING)), value=number(budget.value),
        date=budget.date)), icon=":material/psychology:")


def not_countable() -> str:
    """The well-known models the lab cannot count, in one sentence."""
    names = and_words([f"{m.name} ({m.vendor})" for m in fm.uncountable()])
    return _("Not here: {names}. Their tokenizers are not published, so the lab has none of theirs to count with "
             "(another's would only approximate); their APIs count tokens (the About box below says how).",
             names=names)


__all__ = ["Target", "models_section", "not_countable"]
