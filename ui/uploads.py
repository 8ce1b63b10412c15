"""File uploads and their checks: one copy for every page that takes a file.

Streamlit's own refusal of a too-big file is a small red icon, so the
uploaders here accept generous sizes and the page says, in words, what the
limit is and what to do. Streamlit's small print under the drop zone
(its own limit) is hidden by the app's CSS (:mod:`ui.layout`) and replaced by
the label, which states the real limit: the two never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from i18n import _, decimal, number

TEXT_UPLOAD_MB = 2
TEXT_UPLOAD_BYTES = TEXT_UPLOAD_MB * 1_000_000
MODEL_UPLOAD_MB = 5
MODEL_UPLOAD_BYTES = MODEL_UPLOAD_MB * 1_000_000
_RECEIVE_MB = 50  # what Streamlit accepts, so that bigger files reach our own message


def uploaded_bytes(
    label: str,
    *,
    key: str,
    types: Sequence[str],
    limit_mb: int,
    help: str | None = None,
    on_change: Callable[..., None] | None = None,
    args: tuple = (),
    container=None,
) -> tuple[bytes | None, str | None]:
    """A file uploader whose label states the limit; returns (data, file name) or (None, None)."""
    where = container or st
    file = where.file_uploader(
        _("{label} (up to {mb} MB)", label=label, mb=number(limit_mb)),
        type=list(types),
        key=widget_key(key),
        max_upload_size=_RECEIVE_MB,
        help=help,
        on_change=on_change,
        args=args,
    )
    if file is None:
        return None, None
    return file.getvalue(), file.name


_GENERATION = "lab.upload_generation."


def generation_key(key: str) -> str:
    """Where the uploader ``key`` counts the times :func:`forget_upload` gave it a new widget."""
    return _GENERATION + key


def widget_key(key: str) -> str:
    """The uploader's widget key now: ``key`` until :func:`forget_upload` gave it a new one."""
    generation = st.session_state.get(generation_key(key), 0)
    return f"{key}.{generation}" if generation else key


def uploaded_file(key: str):
    """The file in the uploader ``key`` (a Streamlit UploadedFile), or None; for on_change callbacks."""
    return st.session_state.get(widget_key(key))


def forget_upload(key: str) -> None:
    """Let go of the file in the uploader ``key`` once it has been read (kept as something smaller, or refused):
    Streamlit would otherwise hold its bytes, up to the 50 MB it accepts, for the rest of the session. Its bytes
    are dropped now, and the uploader comes back empty under a new widget key (so its old value goes too)."""
    file = st.session_state.get(widget_key(key))
    file_id = getattr(file, "file_id", None)
    if file_id:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        remove = getattr(getattr(ctx, "uploaded_file_mgr", None), "remove_file", None)
        if ctx is not None and remove is not None:  # the in-memory manager (the server's and AppTest's) has it
            remove(ctx.session_id, file_id)
    st.session_state[generation_key(key)] = st.session_state.get(generation_key(key), 0) + 1


def decode_text_file(data: bytes, limit_bytes: int = TEXT_UPLOAD_BYTES) -> tuple[str | None, str | None]:
    """An uploaded text file's bytes -> (text, None) or (None, what is wrong and what to do)."""
    if not data.strip():
        return None, _("This file is empty. Upload a .txt file with some text in it, or type your text instead.")
    if len(data) > limit_bytes:
        mb = format(limit_bytes / 1e6, "g")  # 2 MB, 0.5 MB: the same digits in both languages
        return None, _(
            "This file is {size} bytes; the limit is {mb} MB ({limit} bytes). "
            "Upload a shorter extract (a chapter or a few articles is plenty to see BPE at work).",
            size=number(len(data)), mb=mb, limit=number(limit_bytes))
    from tokenizer.textfile import decode_text

    try:
        return decode_text(data, "This file"), None
    except ValueError as exc:
        return None, str(exc)


def too_big(size_bytes: int, limit_bytes: int, advice: str) -> bool:
    """True (after a friendly warning with ``advice``, e.g. "a sentence or two is plenty") when a text of
    ``size_bytes`` UTF-8 bytes is more than a page takes."""
    if size_bytes <= limit_bytes:
        return False
    st.warning(_("That is {size} MB of text. This page takes up to {limit} MB: paste a shorter part ({advice}).",
                 size=decimal(size_bytes / 1e6, 1), limit=decimal(limit_bytes / 1e6, 0), advice=advice),
               icon=":material/content_cut:")
    return True


__all__ = ["MODEL_UPLOAD_BYTES", "MODEL_UPLOAD_MB", "TEXT_UPLOAD_BYTES", "TEXT_UPLOAD_MB", "decode_text_file", "forget_upload", "too_big",
           "uploaded_bytes", "uploaded_file", "widget_key"]
