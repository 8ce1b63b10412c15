"""Part 4, "Special tokens": a short chat wrapped in a real chat template, and a special token typed as text
beside the special token itself.
"""

from __future__ import annotations

import streamlit as st

from family.chat import mistral_chat
from family.real import TokenizerUnavailable
from tokenizer import is_whole
from ui import choices, state
from ui.chips import Chip, chip_from_token, token_chips
from ui.display import md_code, md_escape, plural
from ui.layout import figure
from ui.show import Show

from .settings import (
    CHAT,
    CHAT_RESET,
    CONTENT,
    ENDOFTEXT,
    MAX_MESSAGE_CHARS,
    MESSAGES,
    SPECIAL,
    SPECIAL_TOKENIZERS,
    STOK,
)


@st.cache_data(max_entries=64, show_spinner="Wrapping the chat in Mistral's template…")
def chat(messages: tuple[tuple[str, str], ...]):
    return mistral_chat(messages)


def _reset_chat() -> None:
    for param in MESSAGES:
        state.set_value(param, param.default)


def part_special(show: Show) -> None:
    with state.published([*MESSAGES, STOK, SPECIAL]):
        _special(show)


def _special(show: Show) -> None:
    if not show.large:
        st.markdown(md_escape(CONTENT["special"]))
    st.markdown("**A short chat, wrapped in a real chat template**")
    with show.folded("The messages", icon=":material/edit_note:"):
        for (role, _), param in zip(CHAT, MESSAGES):  # classroom mode: folded away, the chat is the slide
            st.text_input(f"{role.capitalize()} message", key=param.skey, max_chars=MAX_MESSAGE_CHARS)
        st.button("Back to the chai-stall chat", key=CHAT_RESET.skey, on_click=_reset_chat, type="tertiary",
                  icon=":material/restart_alt:")
    messages = tuple((role, st.session_state.get(p.skey) or "") for (role, _), p in zip(CHAT, MESSAGES))
    if any(not text.strip() for _, text in messages):
        st.info("Write something in every message: an empty turn is still a turn, but there is nothing to count.",
                icon=":material/edit:")
    else:
        try:
            c = chat(messages)
        except (TokenizerUnavailable, ValueError) as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
        else:
            cols = st.columns(4 if not show.large else 2)
            cols[0].metric("Tokens the model reads", f"{c.total:,}")
            cols[1].metric("The messages alone", f"{sum(c.content):,}", help="Each message's text, tokenized on its own.")
            cols[2 % len(cols)].metric("Added by the template", f"{c.added:,}")
            cols[3 % len(cols)].metric("Per message", f"{c.per_message:.1f}")
            with figure("chat-template"):
                token_chips([Chip(t.piece, t.id, whole=is_whole(t.bytes), highlight=t.special, data=t.bytes)
                             for t in c.tokens], label="the templated chat", show_ids=not show.large)
            specials = ", ".join(f"{md_code(piece, visible=False)} ×{n}" for piece, n in c.specials())
            st.markdown(f"Highlighted: the special tokens the template put in: {specials}.")
            st.caption(md_escape(CONTENT["template"].format(template=c.template)))

    st.markdown("**Typed as text, or the special token itself?**")
    st.caption(md_escape(CONTENT["endoftext"]))
    c_tok, c_special = st.columns(2)
    key = c_tok.selectbox("Tokenizer", SPECIAL_TOKENIZERS, key=STOK.skey, format_func=choices.title)
    try:
        tok = choices.load(key)
    except choices.Unavailable as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return
    names = list(tok.special_tokens)
    if st.session_state.get(SPECIAL.skey) not in names:
        state.set_value(SPECIAL, ENDOFTEXT if ENDOFTEXT in names else names[0])
    special = c_special.selectbox("Special token", names, key=SPECIAL.skey)
    typed = tok.encode_tokens(special)
    as_special = tok.encode_special(special)
    st.markdown(f"Typed into a prompt: **{plural(len(typed), 'token')}**")
    token_chips([chip_from_token(t) for t in typed], label="typed", show_ids=True)
    st.markdown(f"Put in by the template: **{plural(len(as_special), 'token')}**, id {as_special[0]:,}")
    token_chips([Chip(special, as_special[0], highlight=True)], label="the special token", show_ids=True)
