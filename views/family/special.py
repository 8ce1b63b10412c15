"""Part 4, "Special tokens": a short chat wrapped in a real chat template, and a special token typed as text
beside the special token itself.
"""

from __future__ import annotations

import streamlit as st

from family.chat import mistral_chat
from family.real import TokenizerUnavailable
from family.realtok import RealTokenizer
from i18n import N_, _, _n, decimal, number
from tokenizer import is_whole
from ui import choices, state
from ui.chips import Chip, chip_from_token, token_chips
from ui.display import md_code, md_escape
from ui.layout import figure
from ui.show import Show

from .settings import (
    CHAT,
    CHAT_RESET,
    ENDOFTEXT,
    MAX_MESSAGE_CHARS,
    MESSAGES,
    SPECIAL,
    SPECIAL_TOKENIZERS,
    STOK,
    said,
)


@st.cache_data(max_entries=64, show_spinner=False)  # the call site shows a spinner in the learner's language
def chat(messages: tuple[tuple[str, str], ...]):
    return mistral_chat(messages)


#: A chat turn's role as the message box names it ("User message"), marked for the catalogue.
ROLE_MESSAGES = {"user": N_("User message"), "assistant": N_("Assistant message"), "system": N_("System message")}


def _reset_chat() -> None:
    for param in MESSAGES:
        state.set_value(param, param.default)


def part_special(show: Show) -> None:
    with state.published([*MESSAGES, STOK, SPECIAL]):
        _special(show)


def _special(show: Show) -> None:
    if not show.large:
        st.markdown(md_escape(said("special")))
    st.markdown(_("**A short chat, wrapped in a real chat template**"))
    with show.folded(_("The messages"), icon=":material/edit_note:"):
        for (role, _content), param in zip(CHAT, MESSAGES):  # classroom mode: folded away, the chat is the slide
            st.text_input(_(ROLE_MESSAGES[role]), key=param.skey, max_chars=MAX_MESSAGE_CHARS)
        st.button(_("Back to the chai-stall chat"), key=CHAT_RESET.skey, on_click=_reset_chat, type="tertiary",
                  icon=":material/restart_alt:")
    messages = tuple((role, st.session_state.get(p.skey) or "") for (role, _content), p in zip(CHAT, MESSAGES))
    if any(not text.strip() for _role, text in messages):
        st.info(_("Write something in every message: an empty turn is still a turn, but there is nothing to count."),
                icon=":material/edit:")
    else:
        try:
            with st.spinner(_("Wrapping the chat in Mistral's template…")):
                c = chat(messages)
        except (TokenizerUnavailable, ValueError) as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
        else:
            cols = st.columns(4 if not show.large else 2)
            cols[0].metric(_("Tokens the model reads"), number(c.total))
            cols[1].metric(_("The messages alone"), number(sum(c.content)),
                           help=_("Each message's text, tokenized on its own."))
            cols[2 % len(cols)].metric(_("Added by the template"), number(c.added))
            cols[3 % len(cols)].metric(_("Per message"), decimal(c.per_message, 1))
            with figure("chat-template"):
                token_chips([Chip(t.piece, t.id, whole=is_whole(t.bytes), highlight=t.special, data=t.bytes)
                             for t in c.tokens], label=_("the templated chat"), show_ids=not show.large)
            specials = ", ".join(f"{md_code(piece, visible=False)} ×{n}" for piece, n in c.specials())
            st.markdown(_("Highlighted: the special tokens the template put in: {specials}.", specials=specials))
            st.caption(md_escape(said("template").format(template=c.template)))

    st.markdown(_("**Typed as text, or the special token itself?**"))
    st.caption(md_escape(said("endoftext")))
    c_tok, c_special = st.columns(2)
    key = c_tok.selectbox(_("Tokenizer"), SPECIAL_TOKENIZERS, key=STOK.skey,
                          format_func={k: choices.title(k) for k in SPECIAL_TOKENIZERS}.__getitem__)
    try:
        tok = choices.load(key)
    except choices.Unavailable as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return
    assert isinstance(tok, RealTokenizer)  # every one of SPECIAL_TOKENIZERS is a production tokenizer
    names = list(tok.special_tokens)
    if st.session_state.get(SPECIAL.skey) not in names:
        state.set_value(SPECIAL, ENDOFTEXT if ENDOFTEXT in names else names[0])
    special = c_special.selectbox(_("Special token"), names, key=SPECIAL.skey)
    typed = tok.encode_tokens(special)
    as_special = tok.encode_special(special)
    st.markdown(_("Typed into a prompt: **{tokens}**", tokens=_n("{n} token", "{n} tokens", len(typed))))
    token_chips([chip_from_token(t) for t in typed], label=_("typed"), show_ids=True)
    st.markdown(_("Put in by the template: **{tokens}**, id {id}",
                  tokens=_n("{n} token", "{n} tokens", len(as_special)), id=number(as_special[0])))
    token_chips([Chip(special, as_special[0], highlight=True)], label=_("the special token"), show_ids=True)
