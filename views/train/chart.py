"""The pair-count table and its chart: one step's pairs in rank order, the winner and the ties marked.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import altair as alt
import streamlit as st

from i18n import N_, _, current, number, using
from tokenizer import MergeStep
from ui import charts
from ui.display import pair_text, visible_token

from .chips import _cut

WINNER_COLOUR = charts.ORANGE
TIE_COLOUR = charts.SAND
OTHER_COLOUR = charts.BLUE
STATUS_WINNER = N_("winner")
STATUS_TIE = charts.TIE_LOST
STATUS_OTHER = N_("other pairs")
STATUS_TOP = N_("top count")  # step 0: the most frequent pairs, before merge 1 picks one
# The statuses are the rows' keys, in English (marked N_); the chart shows each in the learner's language.

# --- The pair-count table ------------------------------------------------------------


def pair_rows(step: MergeStep, *, reveal: bool = True, limit: int | None = None) -> list[dict[str, Any]]:
    """The table before ``step``'s merge, one dict per pair, in rank order.

    ``reveal=False`` (step 0, or while predicting) marks the top-count pairs without naming a winner.
    """
    tied = {t.pair for t in step.ties} if step.n_tied > 1 else set()
    rows = []
    for rank, pc in enumerate(step.table[:limit], start=1):
        if not reveal:
            status = STATUS_TOP if pc.count == step.count else STATUS_OTHER
        elif pc.pair == step.pair:
            status = STATUS_WINNER
        elif pc.pair in tied or (step.n_tied > len(step.ties) and pc.count == step.count):
            status = STATUS_TIE
        else:
            status = STATUS_OTHER
        rows.append(
            {
                "rank": rank,
                "pair": pair_text(_cut(pc.left), _cut(pc.right)),
                "left": visible_token(_cut(pc.left)),
                "right": visible_token(_cut(pc.right)),
                "count": pc.count,
                "status": status,
            }
        )
    return rows


CHART_DATA = "pairs"
STATUSES = (STATUS_WINNER, STATUS_TIE, STATUS_TOP, STATUS_OTHER)
STATUS_COLOURS = (WINNER_COLOUR, TIE_COLOUR, TIE_COLOUR, OTHER_COLOUR)


def chart_records(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chart's data: one record per pair, with its bar label, the text drawn after the bar and its status, in
    the current language."""
    suffix = {STATUS_WINNER: "  ← " + _("winner"), STATUS_TIE: "  " + _("tie")}
    return [{**r, "status": _(r["status"]), "bar": f"{r['rank']}. {r['pair']}",
             "mark": f"{number(r['count'])}{suffix.get(r['status'], '')}"} for r in rows]


def pair_chart(*, large: bool = False) -> alt.LayerChart:
    """Horizontal bars, one per pair, in rank order: the winner orange, the pairs it
    beat on a tie yellow with a dashed outline, a text mark naming both.

    The chart reads named data (``CHART_DATA``): it is the template that
    :func:`pair_chart_spec` fills in for each step."""
    return charts.ranked_bars(
        CHART_DATA, x="count", x_title=_("times seen before this merge"), statuses=[_(s) for s in STATUSES],
        colours=STATUS_COLOURS, dashed=_(STATUS_TIE), large=large,
        tooltip=[alt.Tooltip("pair:N", title=_("pair")), alt.Tooltip("count:Q", title=_("times seen")),
                 alt.Tooltip("status:N", title=_("note"))],
    )


@lru_cache(maxsize=8)
def _template(large: bool, lang: str = "en") -> str:
    """The chart with no data, as JSON (built and validated by Altair once per process and language)."""
    with using(lang):
        spec = charts.themed(pair_chart(large=large), large=large).to_dict()
    if lang == "hi":  # the axis's numbers grouped the Indian way, as charts.spec writes a Hindi chart's
        spec.setdefault("config", {})["locale"] = {"number": charts.INDIAN_NUMBERS}
    return json.dumps(spec)


def _fill(spec: dict, rows: list[dict[str, Any]], large: bool) -> dict:
    """Put one step's rows into a chart spec: its data, the x range, the legend's entries."""
    return charts.fill_ranked_bars(spec, chart_records(rows), data_name=CHART_DATA, x="count",
                                   statuses=[_(s) for s in STATUSES],
                                   headroom=1.75 if large else 1.3)  # room for the label


@st.cache_data(max_entries=512, show_spinner=False)
def _chart_spec(rows: tuple[tuple[tuple[str, Any], ...], ...], large: bool, lang: str) -> dict:
    with using(lang):
        return _fill(json.loads(_template(large, lang)), [dict(r) for r in rows], large)


def pair_chart_spec(rows: tuple[tuple[tuple[str, Any], ...], ...], large: bool = False) -> dict:
    """One step's chart as a Vega-Lite spec in the current language: the validated template, filled with this table
    (cached per table, type size and language).

    Building an Altair chart costs ~45 ms a step (too much for a classroom's clicks); filling the
    template costs well under 1 ms. ``rows`` is :func:`rows_key` of :func:`pair_rows`.
    """
    return _chart_spec(rows, large, current())


def rows_key(rows: list[dict[str, Any]]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    return tuple(tuple(r.items()) for r in rows)
