"""Tables: one call for every table the lab shows, readable on a projector too.

Streamlit's data grid (``st.dataframe``) draws its cells on a canvas at a fixed size, about 14 px, whatever
the page's type size: large type cannot reach it. So :func:`show` draws the sortable grid in normal type and,
in large type, a plain table (``st.table``) whose text grows with the page, with the same columns, the same
number formats (``column_config``'s ``format``) and the same names (its ``label``). Cells are text, never
markup, either way.

In Hindi the grid's plain numbers are grouped the Indian way (1,23,456): Streamlit formats a grid's numbers in
the browser, by no locale of ours, so :func:`show` hands it a pandas ``Styler`` whose display strings come from
:func:`i18n.number` / :func:`i18n.decimal`. The grid shows a Styler's display strings and keeps the raw numbers
for sorting, so a click on a header still sorts 9 before 1,00,000. A column whose ``column_config`` has a
``format`` of its own (``"%.4f"``, ``"percent"``) keeps it: Streamlit lets ``column_config``'s format win over a
Styler's, and only plain numbers are restyled. English is drawn exactly as before (no Styler).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import pandas as pd
import streamlit as st

import i18n
from ui.layout import large_type_on

#: Above this many cells a Hindi grid is drawn unstyled (numbers as Streamlit writes them, ungrouped): a Styler
#: works out every cell's display string on the server, measured at about 25 ms for 2,000 cells, 65 ms for 5,000
#: and 350 ms for 20,000 (2-core machine; the first Styler of a process costs about 130 ms more, importing
#: jinja2). The lab's tables of figures are far smaller; only a token table of a long text passes the cap, and
#: its numbers are ids read row by row.
STYLED_CELLS = 5_000


def _format(fmt: str | None, value: Any) -> Any:
    """A cell as ``column_config``'s printf-style ``format`` writes it (``"%.2f×"``); other formats and empty
    cells are left as they are."""
    if not fmt or not fmt.startswith("%") or value is None or (isinstance(value, float) and pd.isna(value)):
        return value
    try:
        return fmt % value
    except (TypeError, ValueError):
        return value


def grouped(value: Any, placeholder: str = "None") -> str:
    """A plain number as the grid writes it, grouped as the run's language groups it: a whole number with its
    groups, a fraction with up to four decimals and no trailing zeros (as Streamlit writes one); an empty cell
    as the grid's ``placeholder``.

    >>> with i18n.using("hi"):
    ...     grouped(123456), grouped(1234567.5), grouped(0.25), grouped(2.0), grouped(float("nan"), "—")
    ('1,23,456', '12,34,567.5', '0.25', '2', '—')
    """
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return placeholder
    if not isinstance(value, int | float) and callable(getattr(value, "item", None)):
        value = value.item()  # a NumPy integer
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int):
        return i18n.number(value)
    places = len(f"{value:.4f}".rstrip("0").partition(".")[2])
    return i18n.decimal(value, places)


def _has_format(config: Any) -> bool:
    return isinstance(config, Mapping) and bool((config.get("type_config") or {}).get("format"))


def styled(frame: Any, column_config: Mapping[str, Any] | None = None, placeholder: str = "None") -> Any:
    """The grid's data in Hindi: a Styler writing each plain number column (integer or float, no ``format`` in
    its ``column_config``) with :func:`grouped`; the frame itself in English, when no column needs it, or above
    :data:`STYLED_CELLS` cells."""
    if i18n.current() != "hi":
        return frame
    table = frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)
    config = column_config or {}
    columns = [c for c in table.columns
               if pd.api.types.is_numeric_dtype(table[c]) and not pd.api.types.is_bool_dtype(table[c])
               and not _has_format(config.get(c))]
    if not columns or table.size > STYLED_CELLS or not (table.columns.is_unique and table.index.is_unique):
        return frame
    return table.style.format(lambda v: grouped(v, placeholder), subset=columns)


def plain(frame: Any, column_config: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The table as a large-type page shows it: numbers written in their column's format, columns renamed to
    their label, the index dropped (the grid hides it too).

    >>> import streamlit as st
    >>> plain(pd.DataFrame({"premium": [1.3579], "name": ["GPT-4o"]}),
    ...       {"premium": st.column_config.NumberColumn("Hindi premium", format="%.2f×")}).to_dict("records")
    [{'Hindi premium': '1.36×', 'name': 'GPT-4o'}]
    """
    table = frame.copy() if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)
    names, formatted = {}, set()
    for column, config in (column_config or {}).items():
        if column not in table.columns or not isinstance(config, Mapping):
            continue
        fmt = (config.get("type_config") or {}).get("format")
        if fmt:
            table[column] = [_format(fmt, v) for v in table[column]]
            formatted.add(column)
        if config.get("label"):
            names[column] = config["label"]
    if i18n.current() == "hi":  # plain numbers grouped the Indian way, as the grid writes them (:func:`styled`)
        for column in table.columns.difference(list(formatted)):
            if pd.api.types.is_numeric_dtype(table[column]) and not pd.api.types.is_bool_dtype(table[column]):
                table[column] = [None if pd.isna(v) else grouped(v) for v in table[column]]
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
        st.dataframe(styled(frame, column_config, grid.get("placeholder") or "None"), column_config=column_config,
                     **grid)


__all__ = ["grouped", "plain", "show", "styled"]
