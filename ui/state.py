"""Page state that lives in the URL, so any view can be shared as a link.

A page declares its settings once as :class:`Param` objects, calls
:func:`restore` before drawing its widgets and :func:`publish` after. The
widgets use ``key=param.skey`` and no ``value=``: Streamlit then takes the
value we put in session state.

Where a value comes from, in order: the widget (already in session state),
the URL (a shared link), the value this page had earlier in the session
(switching pages drops widget state, so we keep a copy), the default. Bad
values in a URL fall back to the default instead of breaking the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import streamlit as st

_KEEP = "_kept_state"


@dataclass(frozen=True)
class Param:
    page: str
    name: str
    default: Any
    choices: tuple = field(default=())
    lo: float | None = None
    hi: float | None = None
    max_len: int = 400

    @property
    def skey(self) -> str:
        """The widget / session-state key: unique across pages."""
        return f"{self.page}.{self.name}"

    def parse(self, raw: str | None) -> Any:
        """A URL string to a valid value, or the default."""
        if raw is None:
            return self.default
        try:
            if isinstance(self.default, bool):
                value: Any = raw.lower() in ("1", "true", "yes", "on")
            elif isinstance(self.default, int):
                value = int(raw)
            elif isinstance(self.default, float):
                value = float(raw)
                if not math.isfinite(value):  # "nan" or "inf" in a link: no widget can show it
                    return self.default
            else:
                value = raw[: self.max_len]
        except ValueError:
            return self.default
        if self.choices and value not in self.choices:
            return self.default
        if self.lo is not None and value < self.lo:
            value = type(self.default)(self.lo)
        if self.hi is not None and value > self.hi:
            value = type(self.default)(self.hi)
        return value

    def dump(self, value: Any) -> str:
        if isinstance(value, bool):
            return "1" if value else "0"
        return str(value)


def restore(params: Sequence[Param]) -> None:
    kept = st.session_state.setdefault(_KEEP, {})
    for p in params:
        if p.skey in st.session_state:
            continue
        if p.name in st.query_params:
            st.session_state[p.skey] = p.parse(st.query_params.get(p.name))
        elif p.skey in kept:
            st.session_state[p.skey] = kept[p.skey]
        else:
            st.session_state[p.skey] = p.default


def publish(params: Sequence[Param]) -> list[str]:
    """Write the current values to the URL (defaults are left out). Returns the names too long to share."""
    kept = st.session_state.setdefault(_KEEP, {})
    too_long = []
    updates: dict[str, str] = {}
    for p in params:
        value = st.session_state.get(p.skey, p.default)
        kept[p.skey] = value
        text = p.dump(value)
        if value == p.default:
            if p.name in st.query_params:
                del st.query_params[p.name]
        elif len(text) > p.max_len:
            too_long.append(p.name)
            if p.name in st.query_params:
                del st.query_params[p.name]
        elif st.query_params.get(p.name) != text:
            updates[p.name] = text
    if updates:
        st.query_params.update(updates)
    return too_long


def value(param: Param) -> Any:
    return st.session_state.get(param.skey, param.default)


def set_value(param: Param, new: Any) -> None:
    """Change a setting from code (e.g. a button), before its widget is drawn in this run."""
    st.session_state[param.skey] = new
