"""The tokenizer picker shared by the pages that use a trained tokenizer.

One call draws it and gives back the chosen tokenizer::

    from ui.picker import pick_tokenizer

    name, tok = pick_tokenizer("tokenize")

The choices, in order:

- every training preset of ``lessons/presets.toml`` (trained on first use and
  cached for every learner by :func:`ui.engine.preset_trace`);
- models trained on the Train page in this session
  (``st.session_state["lab.custom_models"]``: name -> model JSON);
- model files uploaded in this session (kept under ``"lab.uploaded_models"``
  so every page can pick them again);
- "Upload a model file…": a file uploader for the JSON the Train page
  downloads. A bad file (not JSON, not UTF-8, someone else's JSON, too big)
  gets a message saying what is wrong and what to do, never a traceback.

The choice is kept in the URL as ``?tok=<preset id>`` (via :mod:`ui.state`),
so a shared link opens the same preset. Models trained or uploaded in a
session cannot travel in a link; a link to one opens the page's default.

Buttons that set the tokenizer for a ready example call
:func:`set_choice` from their ``on_click`` callback.
"""

from __future__ import annotations

import json

import streamlit as st

import lessons
from tokenizer import Tokenizer
from tokenizer.io import tokenizer_from_json
from ui import state
from ui.chips import md_code, md_escape
from ui.engine import preset_trace

PARAM_NAME = "tok"
UPLOAD = "upload"
TRAINED_PREFIX = "trained:"
FILE_PREFIX = "file:"
CUSTOM_MODELS_KEY = "lab.custom_models"
UPLOADED_MODELS_KEY = "lab.uploaded_models"
MAX_MODEL_BYTES = 5_000_000

UNIT_NAMES = {"chars": "characters", "bytes": "UTF-8 bytes"}


def tok_param(page: str, default: str = "english-hindi") -> state.Param:
    """The URL / session-state setting that holds ``page``'s choice."""
    return state.Param(page, PARAM_NAME, default, choices=(*lessons.presets(), UPLOAD), max_len=200)


def set_choice(page: str, choice: str) -> None:
    """Choose a preset id (or ``UPLOAD``) from code, e.g. in a button's ``on_click``."""
    st.session_state[tok_param(page).skey] = choice


@st.cache_resource(max_entries=32, show_spinner=False)
def _model_from_json(text: str) -> Tokenizer:
    """Load a model once per distinct JSON text (raises ValueError with a friendly message)."""
    return tokenizer_from_json(text)


def load_model(data: bytes | str | dict) -> Tokenizer:
    """A model from an uploaded file's bytes (or model JSON text, or its parsed dict),
    or ValueError saying what is wrong and what to do."""
    if isinstance(data, dict):
        data = json.dumps(data, ensure_ascii=False)
    if isinstance(data, bytes):
        if len(data) > MAX_MODEL_BYTES:
            raise ValueError(
                f"This file is {len(data) / 1e6:.1f} MB; a model file from this lab is far smaller "
                f"(the limit here is {MAX_MODEL_BYTES / 1e6:.0f} MB). Upload the .json file the Train page downloads."
            )
        if not data.strip():
            raise ValueError("This file is empty. Upload the .json file the Train page downloads.")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(
                "This file is not text (it is not UTF-8), so it cannot be a model file. "
                "Upload the .json file the Train page downloads."
            ) from None
    else:
        text = data
    try:
        return _model_from_json(text)
    except ValueError as exc:
        raise ValueError(f"{exc} Upload the .json file the Train page downloads.") from None
    except RecursionError:
        raise ValueError(
            "This JSON is nested too deeply to be a model file. Upload the .json file the Train page downloads."
        ) from None
    except Exception as exc:  # a model file must never crash the page
        raise ValueError(f"This file could not be read as a model ({type(exc).__name__}).") from None


def _describe_md(tok: Tokenizer) -> str:
    """One line about a tokenizer's settings, as safe Markdown.

    The pattern and the marker (which may be user text) are shown as code.
    """
    c = tok.config
    split = "whitespace pre-split" if c.split == "whitespace" else f"regex pre-split {md_code(c.pattern)}"
    marker = f"end-of-word marker {md_code(c.end_of_word)}" if c.end_of_word else "no end-of-word marker"
    return (
        f"Unit: {UNIT_NAMES.get(c.unit, c.unit)} · {split} · {marker} · "
        f"{len(tok.merges):,} merges · vocabulary of {tok.vocab_size:,} tokens"
    )


def _session_models() -> dict[str, str]:
    """Choice key -> model JSON for models trained or uploaded in this session."""
    out: dict[str, str] = {}
    trained = st.session_state.get(CUSTOM_MODELS_KEY) or {}
    if isinstance(trained, dict):
        out.update({TRAINED_PREFIX + str(name): text for name, text in trained.items()})
    uploaded = st.session_state.get(UPLOADED_MODELS_KEY) or {}
    out.update({FILE_PREFIX + name: text for name, text in uploaded.items()})
    return out


def _title(choice: str) -> str:
    presets = lessons.presets()
    if choice in presets:
        return presets[choice].title
    if choice == UPLOAD:
        return "Upload a model file…"
    if choice.startswith(TRAINED_PREFIX):
        return f"Trained on the Train page: {choice[len(TRAINED_PREFIX):]}"
    if choice.startswith(FILE_PREFIX):
        return f"Uploaded: {choice[len(FILE_PREFIX):]}"
    return choice


def pick_tokenizer(
    page: str,
    *,
    default: str = "english-hindi",
    label: str = "Tokenizer",
    required: bool = True,
) -> tuple[str, Tokenizer | None]:
    """Draw the picker and return ``(name, tokenizer)``.

    ``name`` is what to call the tokenizer on the page (a preset title, a
    model name or a file name). If the learner chose "Upload a model file…"
    and has no valid file yet, the picker says what to do and then stops the
    page (``st.stop()``), unless ``required=False``: then it returns
    ``(name, None)``.
    """
    param = tok_param(page, default)
    models = _session_models()
    options = [*lessons.presets(), *models, UPLOAD]
    linked = st.query_params.get(param.name)
    if param.skey not in st.session_state and linked is not None and linked not in options:
        # A shared link that named a model from someone else's session (or a typo): say so.
        st.info(
            md_escape(
                f"This link asked for the tokenizer “{linked}”, which is not here (a model trained or uploaded "
                f"in another session stays there). Showing “{_title(default)}” instead."
            ),
            icon=":material/link_off:",
        )
    # A session model that has gone (or a stale value) falls back to the default.
    if st.session_state.get(param.skey) not in (None, *options):
        state.set_value(param, default)
    state.restore([param])
    if st.session_state.get(param.skey) not in options:
        state.set_value(param, default)
    choice = st.selectbox(
        label,
        options,
        key=param.skey,
        format_func=_title,
        help="A preset from the lessons (trained on first use), a model you trained on the Train page, "
        "or a model file you downloaded from it.",
    )
    state.publish([param])

    tok: Tokenizer | None = None
    name = _title(choice)
    if choice in lessons.presets():
        tok = preset_trace(choice).tokenizer
    elif choice in models:
        try:
            tok = load_model(models[choice])
        except ValueError as exc:
            st.warning(md_escape(f"This model could not be loaded: {exc}"), icon=":material/warning:")
    else:
        name, tok = _upload(page)

    if tok is None:
        if required:
            st.stop()
        return name, None
    st.caption(_caption_text(tok, choice))
    return name, tok


def _caption_text(tok: Tokenizer, choice: str) -> str:
    text = _describe_md(tok)
    presets = lessons.presets()
    if choice in presets and presets[choice].note:
        text += "  \n" + md_escape(presets[choice].note)
    elif choice not in presets:
        text += "  \nA model from this session is not part of the page's link: a shared link opens a preset."
    return text


def _upload(page: str) -> tuple[str, Tokenizer | None]:
    file = st.file_uploader(
        "Model file (.json from the Train page)",
        type=["json"],
        key=f"{page}.upload",
        max_upload_size=max(1, MAX_MODEL_BYTES // 1_000_000),
        help="On the Train page, train a model and download it as JSON; upload that file here.",
    )
    if file is None:
        st.info(
            "Upload a model file: the .json the Train page downloads after training. "
            "Or pick a preset from the list.",
            icon=":material/upload_file:",
        )
        return "Uploaded model", None
    try:
        tok = load_model(file.getvalue())
    except ValueError as exc:
        st.warning(md_escape(f"“{file.name}” is not a model this lab can use. {exc}"), icon=":material/warning:")
        return file.name, None
    uploaded = st.session_state.setdefault(UPLOADED_MODELS_KEY, {})
    uploaded[file.name] = file.getvalue().decode("utf-8-sig")
    return file.name, tok
