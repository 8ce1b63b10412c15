"""ui/tables.py: the grid in normal type; in large type the same rows as text, a long table in a box of its own."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui import tables


def _shown(monkeypatch, large: bool, frame, **grid) -> tuple[str, pd.DataFrame, dict]:
    calls = []
    monkeypatch.setattr(tables, "large_type_on", lambda: large)
    monkeypatch.setattr(st, "table", lambda data, **kw: calls.append(("table", data, kw)))
    monkeypatch.setattr(st, "dataframe", lambda data, **kw: calls.append(("dataframe", data, kw)))
    tables.show(frame, **grid)
    (call,) = calls
    return call


def test_normal_type_draws_the_grid_with_its_settings(monkeypatch) -> None:
    frame = pd.DataFrame({"n": [1.23456]})
    kind, data, kw = _shown(monkeypatch, False, frame, key="k", hide_index=True,
                            column_config={"n": st.column_config.NumberColumn(format="%.2f")})
    assert kind == "dataframe" and data is frame and kw["key"] == "k" and kw["hide_index"] is True


def test_large_type_draws_text_in_the_grids_formats(monkeypatch) -> None:
    kind, data, kw = _shown(monkeypatch, True, pd.DataFrame({"n": [1.23456, None]}), key="k",
                            column_config={"n": st.column_config.NumberColumn("premium", format="%.2f×")})
    assert kind == "table" and kw == {"hide_index": True, "height": "content"}
    assert list(data.columns) == ["premium"] and data["premium"][0] == "1.23×" and pd.isna(data["premium"][1])


def test_a_long_table_in_large_type_scrolls_in_a_box(monkeypatch) -> None:
    """A token table can have thousands of rows: every row is kept, in a box of its own height, so the page does
    not grow by them; a height the page gives is kept."""
    rows = tables.LONG_TABLE_ROWS + 1
    _, data, kw = _shown(monkeypatch, True, pd.DataFrame({"token": ["a"] * rows}))
    assert len(data) == rows and kw["height"] == tables.LONG_TABLE_HEIGHT
    _, _, kw = _shown(monkeypatch, True, pd.DataFrame({"token": ["a"] * rows}), height=420)
    assert kw["height"] == 420
    _, _, kw = _shown(monkeypatch, True, pd.DataFrame({"token": ["a"] * tables.LONG_TABLE_ROWS}))
    assert kw["height"] == "content"


def test_hindi_styles_plain_numbers_only_and_english_is_untouched() -> None:
    """In Hindi a Styler writes the plain number columns the Indian way; a column with a format of its own, text
    and English are left alone; above STYLED_CELLS cells the grid is not styled (a Styler's cost grows with it)."""
    import i18n

    frame = pd.DataFrame({"n": [123456, 9], "x": [1234567.5, None], "pct": [0.5, 0.25], "t": ["a", "b"]})
    config = {"pct": st.column_config.NumberColumn(format="percent")}
    assert tables.styled(frame, config) is frame  # English: the frame itself
    with i18n.using("hi"):
        styler = tables.styled(frame, config, "—")
        shown = styler._translate(False, False)["body"]
        assert [[c["display_value"] for c in row[1:3]] for row in shown] == [["1,23,456", "12,34,567.5"], ["9", "—"]]
        big = pd.DataFrame({"n": range(tables.STYLED_CELLS + 1)})
        assert tables.styled(big) is big
        assert tables.plain(frame, config).to_dict("list")["n"] == ["1,23,456", "9"]
