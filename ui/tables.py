"""Tables: one call for every table the lab shows, readable on a projector too.

Streamlit's data grid (``st.dataframe``) draws its cells on a canvas at a fixed size, about 14 px, whatever
the page's type size: large type cannot reach it. So :func:`show` draws the sortable grid in normal type and,
in large type, a plain table (``st.table``) whose text grows with the page, with the same columns, the same
number formats (``column_config``'s ``format``) and the same names (its ``label``). Cells are text, never
markup, either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import pandas as pd
import streamlit as st

from ui.layout import large_type_on


def _format(fmt: str | None, value: Any) -> Any:
    """A cell as ``column_config``'s printf-style ``format`` writes it (``"%.2f×"``); other formats and empty
    cells are left as they are."""
    if not fmt or not fmt.startswith("%") or value is None or (isinstance(value, float) and pd.isna(value)):
        return value
    try:
        return fmt % value
    except (TypeError, ValueError):
        return value


def plain(frame: Any, column_config: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The table as a large-type page shows it: numbers written in their column's format, columns renamed to
    their label, the index dropped (the grid hides it too).

    >>> import streamlit as st
    >>> plain(pd.DataFrame({"premium": [1.3579], "name": ["GPT-4o"]}),
    ...       {"premium": st.column_config.NumberColumn("Hindi premium", format="%.2f×")}).to_dict("records")
    [{'Hindi premium': '1.36×', 'name': 'GPT-4o'}]
    """
    table = frame.copy() if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)
    names = {}
    for column, config in (column_config or {}).items():
        if column not in table.columns or not isinstance(config, Mapping):
            continue
        fmt = (config.get("type_config") or {}).get("format")
        if fmt:
            table[column] = [_format(fmt, v) for v in table[column]]
        if config.get("label"):
            names[column] = config["label"]
    return table.rename(columns=names).reset_index(drop=True)


#: A long table in large type scrolls inside a box this high (px) instead of growing the page by its rows.
LONG_TABLE_HEIGHT = 600
LONG_TABLE_ROWS = 15


def show(frame: Any, *, column_config: Mapping[str, Any] | None = None, **grid: Any) -> None:
    """A table: the sortable grid, or in large type a plain table whose text scales with the page. ``grid`` is
    what only the grid takes (``key``, ``height``, ``width``, ``hide_index``...); its ``height`` is kept, and a
    long table without one scrolls in :data:`LONG_TABLE_HEIGHT` px (a token table can have thousands of rows)."""
    if large_type_on():
        table = plain(frame, column_config)
        height: int | Literal["content"] = grid.get("height") or (LONG_TABLE_HEIGHT if len(table) > LONG_TABLE_ROWS
                                                                     else "content")
        st.table(table, hide_index=True, height=height)
    else:
        st.dataframe(frame, column_config=column_config, **grid)


__all__ = ["plain", "show"]
