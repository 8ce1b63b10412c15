"""The page's settings: its session keys and URL parameters (declared once: the page, the warm-up, the
benchmarks and the tests import them), the trainer's settings with the chosen preset's defaults, and how they
differ from the preset's.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from i18n import _, number
from tokenizer.model import UNIT_NAMES
from ui import state
from ui.presets import (
    MARKER_CHOICES,
    SPLIT_NAMES,
    TIE_NAMES,
    Settings,
    preset_ids,
    preset_settings,
)
from ui.state import Key, Param
from ui.steps import Stepper
from ui.training import MAX_TRAIN_MERGES

PAGE = "train"
TEXT_IN_LINK = 400  # own text up to this many characters goes into the shareable link

# -- The page's session keys, declared once (the page, the warm-up, the benchmarks and the tests import them) --
PRESET = Param(PAGE, "preset", "chai", choices=preset_ids())
TEXT = Param(PAGE, "text", "", max_len=TEXT_IN_LINK)
STEP = Param(PAGE, "step", 0, lo=0, hi=MAX_TRAIN_MERGES)
PREDICT = Param(PAGE, "predict", False)
STEPPER = Stepper(STEP)
FIRST, PREV, NEXT, LAST = (STEPPER.key(name) for name in ("first", "prev", "next", "last"))
UPLOAD = Key(PAGE, "upload")
RESET = Key(PAGE, "reset")  # "Use the preset's settings"
CHART = Key(PAGE, "chart")
TABLE_OPEN = Key(PAGE, "table_open")
MERGES_TABLE = Key(PAGE, "merges_table")
CODE_OPEN = Key(PAGE, "code_open")
#: The corpus box is filled only once opened: its code block loads a 1.5 MB highlighter, about a fifth of the
#: page's first load in the browser (0.25 of 1.3 CPU-s), for a box most visits never open.
CORPUS_OPEN = Key(PAGE, "corpus_open")
DL_MODEL = Key(PAGE, "dl_model")
DL_TRACE_JSON = Key(PAGE, "dltrace_json")
DL_TRACE_CSV = Key(PAGE, "dltrace_csv")
DL_HF = Key(PAGE, "dl_hf")
#: The trainer's settings, by the name :class:`ui.presets.Settings` gives each; their Params (with the chosen
#: preset's defaults) come from :func:`setting_params`.
SETTING = {name: Key(PAGE, name) for name in ("unit", "split", "pattern", "marker", "marker_text", "ties", "merges")}


def setting_params(defaults: Settings) -> dict[str, Param]:
    """URL parameters for the settings; their defaults are the chosen preset's, so a
    link carries only what the learner changed (``?preset=chai&step=3``)."""
    rules: dict[str, dict[str, Any]] = {
        "unit": {"choices": ("chars", "bytes")},
        "split": {"choices": ("whitespace", "regex")},
        "pattern": {"max_len": 200},
        "marker": {"choices": MARKER_CHOICES},
        "marker_text": {"max_len": 12},
        "ties": {"choices": ("first", "hf")},
        "merges": {"lo": 0, "hi": MAX_TRAIN_MERGES},
    }
    return {name: Param(key.page, key.name, getattr(defaults, name), **rules[name]) for name, key in SETTING.items()}


def current_settings(params: dict[str, Param]) -> Settings:
    s = st.session_state
    return Settings(**{name: s.get(p.skey, p.default) for name, p in params.items()})


def apply_preset() -> None:
    """on_change of the preset box (and "use the preset's settings"): the preset's settings, step 0."""
    preset_id = st.session_state.get(PRESET.skey, PRESET.default)
    for param in setting_params(preset_settings(preset_id)).values():
        st.session_state[param.skey] = param.default
    STEPPER.reset()  # step 0, autoplay off


def changed_settings(current: Settings, preset: Settings) -> list[str]:
    """Which settings differ from the preset's, in words (in the current language)."""
    out = []
    if current.unit != preset.unit:
        out.append(_("unit (preset: {name})", name=_(UNIT_NAMES[preset.unit])))
    if current.split != preset.split:
        out.append(_("pre-split (preset: {name})", name=_(SPLIT_NAMES[preset.split])))
    elif current.split == "regex" and current.pattern != preset.pattern:
        out.append(_("the regex pattern"))
    if current.end_of_word != preset.end_of_word:
        out.append(_("the end-of-word marker"))
    if current.ties != preset.ties:
        out.append(_("tie rule (preset: {name})", name=_(TIE_NAMES[preset.ties])))
    if current.merges != preset.merges:
        out.append(_("number of merges (preset: {n})", n=number(preset.merges)))
    return out


def url_params() -> list[Param]:
    """The page's settings in the URL, the trainer's with the chosen preset's defaults (restored first, since the
    preset decides the others' defaults)."""
    state.restore([PRESET])
    params = setting_params(preset_settings(st.session_state[PRESET.skey]))
    return [PRESET, *params.values(), TEXT, STEP, PREDICT]
