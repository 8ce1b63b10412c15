"""The pair-count table and its chart: one step's pairs in rank order, the winner and the ties marked.
"""

from __future__ import annotations

import json
from typing import Any

import altair as alt

from i18n import N_, _, current, number
from tokenizer import MergeStep
from ui import charts
from ui.display import pair_text, visible_token
from ui.language import per_language

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


@per_language(max_entries=8)
def _template(large: bool) -> str:
    """The chart with no data, as JSON (built and validated by Altair once per type size and language)."""
    return json.dumps(charts.spec(pair_chart(large=large), large=large, lang=current(), validate=True))


@per_language(max_entries=512)
def pair_chart_spec(rows: tuple[tuple[tuple[str, Any], ...], ...], large: bool = False) -> dict:
    """One step's chart as a Vega-Lite spec in the current language: the validated template, filled with this table
    (cached per table, type size and language).

    Building an Altair chart costs ~45 ms a step (too much for a classroom's clicks); filling the
    template costs well under 1 ms. ``rows`` is :func:`rows_key` of :func:`pair_rows`.
    """
    return charts.fill_ranked_bars(json.loads(_template(large)), chart_records([dict(r) for r in rows]),
                                   data_name=CHART_DATA, x="count", statuses=[_(s) for s in STATUSES],
                                   headroom=1.75 if large else 1.3)  # room for the label


def rows_key(rows: list[dict[str, Any]]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    return tuple(tuple(r.items()) for r in rows)
