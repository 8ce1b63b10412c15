"""The merges as a table, and the model and the trace as files to take away.
"""

from __future__ import annotations

import json
from functools import partial

import pandas as pd
import streamlit as st

from i18n import _, number
from tokenizer import Trace
from tokenizer.export import to_hf_json
from tokenizer.io import tokenizer_to_json, trace_rows, trace_to_dict
from ui.display import md_escape, visible_token
from ui.presets import (
    OWN,
    Settings,
)
from ui.training import BY_RUN, Run, trace_of

from .chips import _cut
from .settings import DL_HF, DL_MODEL, DL_TRACE_CSV, DL_TRACE_JSON


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=BY_RUN)
def merges_frame(run: Run, k: int) -> pd.DataFrame:
    """Merges 1..k as a table, with plain column names (cached per run and step)."""
    rows = trace_rows(trace_of(run))[:k]
    frame = pd.DataFrame(rows, columns=["step", "left", "right", "token", "token_id", "count", "tied_pairs", "vocab_size"])
    for column in ("left", "right", "token"):
        frame[column] = frame[column].map(lambda token: visible_token(_cut(token)))
    frame["tied_pairs"] = [n - 1 if n > 1 else None for n in frame["tied_pairs"]]
    frame["tied_pairs"] = frame["tied_pairs"].astype("Int64")
    return frame.rename(
        columns={"token_id": "new id", "count": "times seen", "tied_pairs": "other pairs with that count",
                 "vocab_size": "vocabulary size"}
    )


# --- The model and the trace as files ---


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_RUN)
def tokenizer_json(run: Run) -> str:
    return tokenizer_to_json(trace_of(run).tokenizer)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_RUN)
def hf_export(run: Run) -> tuple[str | None, str | None]:
    """(the model as a Hugging Face tokenizer.json, None) or (None, why it cannot be), once per run."""
    try:
        return to_hf_json(trace_of(run).tokenizer), None
    except ValueError as exc:
        return None, str(exc)


def trace_json(trace: Trace) -> str:
    return json.dumps(trace_to_dict(trace), ensure_ascii=False, indent=1)


def trace_csv(trace: Trace) -> bytes:
    """The trace as CSV, UTF-8 with a byte-order mark so spreadsheets read Hindi right."""
    return pd.DataFrame(trace_rows(trace)).to_csv(index=False).encode("utf-8-sig")


def file_stem(preset_id: str, settings: Settings, n_merges: int) -> str:
    name = "my-text" if preset_id == OWN else preset_id
    return f"bpe-{name}-{settings.unit}-{n_merges}-merges"


def downloads_section(run: Run, trace: Trace, preset_id: str, settings: Settings) -> None:
    """The model and the trace as files (and a Hugging Face tokenizer.json for a byte-level model)."""
    model = tokenizer_json(run)
    stem = file_stem(preset_id, settings, len(trace.steps))
    with st.container(horizontal=True):
        st.download_button(_("Model (JSON)"), model, f"{stem}.json", "application/json", key=DL_MODEL.skey,
                           on_click="ignore", icon=":material/download:")
        st.download_button(_("Trace (JSON)"), partial(trace_json, trace), f"{stem}-trace.json", "application/json",
                           key=DL_TRACE_JSON.skey, on_click="ignore", icon=":material/download:")
        st.download_button(_("Trace (CSV)"), partial(trace_csv, trace), f"{stem}-trace.csv", "text/csv",
                           key=DL_TRACE_CSV.skey, on_click="ignore", icon=":material/download:")
        hf, why_not = hf_export(run) if trace.config.unit == "bytes" else (None, None)
        if hf is not None:
            st.download_button(_("Hugging Face tokenizer.json"), hf, f"{stem}-tokenizer.json", "application/json",
                               key=DL_HF.skey, on_click="ignore", icon=":material/download:")
    if why_not:
        st.caption(md_escape(_("No Hugging Face tokenizer.json for this model: {why}", why=why_not)))
    st.caption(
        _("The model holds all {n} merges; use it on *{tokenize}* or *{encode}* (upload it there in another "
          "session). The trace lists every merge with its count and its ties.", n=number(len(trace.steps)),
          tokenize=_("Tokenize anything"), encode=_("Encode step by step"))
        + ("" if trace.config.unit == "bytes" else " " + _("Only a byte-level model can be written as a Hugging Face "
           "tokenizer.json: theirs start from the 256 bytes, and this model starts from characters."))
    )


def merges_columns() -> dict:
    """The merges table's columns named in the current language (the data's names stay the same in every one)."""
    return {
        "step": st.column_config.NumberColumn(_("step")),
        "left": st.column_config.TextColumn(_("left")),
        "right": st.column_config.TextColumn(_("right")),
        "token": st.column_config.TextColumn(_("token")),
        "new id": st.column_config.NumberColumn(_("new id")),
        "times seen": st.column_config.NumberColumn(_("times seen")),
        "other pairs with that count": st.column_config.NumberColumn(
            _("other pairs with that count"), help=_("How many other pairs had the same top count (empty: no tie).")),
        "vocabulary size": st.column_config.NumberColumn(_("vocabulary size")),
    }
