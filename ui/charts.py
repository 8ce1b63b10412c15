"""Charts: one look for every Altair chart in the lab, readable from the back row.

- Text is black on white (21:1, beyond WCAG AAA's 7:1), whatever Streamlit's
  theme, and its size follows large type (:func:`sizes`).
- Colours come from Paul Tol's colour-blind-safe "light" palette (the chips'
  palette), with black outlines, so bars never rely on colour alone.
- A chart is drawn from its Vega-Lite spec (:func:`spec`), built once per
  distinct data and cached by the caller: Altair's schema validation costs
  about 0.1 s, too much to repeat on every click of a classroom. The tests
  validate each chart once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import altair as alt
import streamlit as st

from i18n import N_
from ui.chips import PALETTE

#: A ranked-bars chart's name for a pair that had the winner's count and lost the tie (Train, The family): short,
#: so the legend fits a phone's panel.
TIE_LOST = N_("lost the tie")  # drawn through _()
TEXT = "#000000"
GRID = "#BBBBBB"
BACKGROUND = "#FFFFFF"
FONT = '"Noto Sans","Noto Sans Devanagari","Noto Sans Tamil","Noto Sans Bengali","Noto Sans Arabic",sans-serif'

BLUE, CYAN, TEAL, OLIVE, _, SAND, ORANGE, PINK, GREY = PALETTE


@dataclass(frozen=True)
class Sizes:
    label: int  # axis labels and legend
    title: int  # axis titles
    mark: int  # text drawn on the chart
    step: int  # the height of one bar band
    small: int  # smaller text on the chart (value labels beside bars); never under 20 px in large type


SLIDE_CHART_PX = 720
"""The most a chart's plot may take on a slide: on a 1920x1080 projector in classroom mode it sits under the page's
title, its lesson link, its folded controls and its heading, with its legend and axis title, whole on the screen
(Real tokenizers' 27 bars end at about 1,010 px, Beyond Hindi's 30 languages too; at 640 px their 20-px labels
touched the next bar's)."""
SLIDE_BAR_PX = 30
"""A bar's band on a slide when there is room (fewer px each when there are many: never under 20-px text's own)."""


def sizes(large: bool) -> Sizes:
    """Font sizes in px: normal, or large type (a projector at the back of a class)."""
    return Sizes(20, 20, 20, 36, 20) if large else Sizes(13, 13, 13, 24, 11)


def themed(chart: alt.TopLevelMixin, *, large: bool) -> alt.TopLevelMixin:
    """Apply the lab's look: black text at the large-type size, light grid, white background."""
    s = sizes(large)
    # A vertical axis title's line box is wider than its letters: with Vega's 5 px on the left, its edge fell outside
    # the chart on a phone (Vocabulary by script's "tokens per 1,000 ranks"). Room for the box, in its own size.
    padding = {"left": 5 + s.title // 3, "top": 5, "right": 5, "bottom": 5}
    return (
        chart.properties(padding=padding).configure(background=BACKGROUND, font=FONT)
        .configure_axis(
            labelColor=TEXT, titleColor=TEXT, labelFontSize=s.label, titleFontSize=s.title, gridColor=GRID,
            domainColor=TEXT, tickColor=TEXT, labelLimit=420,
        )
        .configure_legend(labelColor=TEXT, titleColor=TEXT, labelFontSize=s.label, titleFontSize=s.title,
                          symbolStrokeColor=TEXT, labelLimit=420)
        .configure_title(color=TEXT, fontSize=s.title)
        .configure_text(color=TEXT)
        .configure_view(stroke=None)
    )


def spec(chart: alt.TopLevelMixin, *, large: bool, lang: str = "en", validate: bool = False) -> dict:
    """The themed chart as a Vega-Lite spec, without Altair's per-call schema validation (``validate``: with it, for
    a template built once and filled many times). ``lang``: the language its axes' numbers are written in (Hindi:
    grouped the Indian way, 1,28,000, by d3-format's number locale)."""
    out = themed(chart, large=large).to_dict(validate=validate)
    if lang == "hi":
        out.setdefault("config", {})["locale"] = {"number": INDIAN_NUMBERS}
    return out


#: d3-format's number locale for Indian grouping: three digits, then twos (the list is long enough never to cycle).
INDIAN_NUMBERS = {"decimal": ".", "thousands": ",", "grouping": [3, 2, 2, 2, 2, 2, 2, 2], "currency": ["₹", ""]}


# -- ranked bars: one bar per item, in rank order, coloured by status, a label after each bar ----------------
def ranked_bars(
    data_name: str,
    *,
    x: str,
    x_title: str,
    statuses: Sequence[str],
    colours: Sequence[str],
    tooltip: Sequence[alt.Tooltip],
    dashed: str | None = None,
    large: bool = False,
    x_format: str | None = None,
    legend_columns: int | None = None,
) -> alt.LayerChart:
    """Horizontal bars, one per record, ordered by its ``rank`` field and labelled by ``bar``, the
    length its ``x`` field, the colour its ``status`` (``statuses`` -> ``colours``; records of
    status ``dashed`` get a dashed outline), its ``mark`` text written after the bar.

    The chart reads named data (``data_name``): build it once, then give each view its records
    with :func:`fill_ranked_bars` (building an Altair chart costs ~45 ms, filling one well under 1).
    In large type there is no legend: the labels after the bars say it."""
    s = sizes(large)
    base = alt.Chart(alt.NamedData(data_name)).encode(
        y=alt.Y("bar:N", sort=alt.EncodingSortField("rank", op="min", order="ascending"), title=None,
                axis=alt.Axis(labelOverlap=False)))
    axis = alt.Axis(tickMinStep=1) if x_format is None else alt.Axis(format=x_format)
    bars = base.mark_bar(stroke="#000", strokeWidth=1.5).encode(
        x=alt.X(f"{x}:Q", title=x_title, scale=alt.Scale(domain=[0, 1]), axis=axis),
        color=alt.Color(
            "status:N",
            scale=alt.Scale(domain=list(statuses), range=list(colours)),
            legend=None if large else alt.Legend(title=None, orient="bottom", symbolSize=s.label * 14,
                                                 symbolStrokeWidth=1, symbolType="square",
                                                 columns=legend_columns or alt.Undefined),
        ),
        strokeDash=alt.condition(alt.datum.status == dashed, alt.value([5, 3]), alt.value([1, 0])),
        tooltip=list(tooltip),
    )
    text = base.mark_text(align="left", dx=5, fontSize=s.mark, fontWeight="bold").encode(x=f"{x}:Q", text="mark:N")
    return (bars + text).properties(height=alt.Step(s.step))


def fill_ranked_bars(spec: dict, records: list[dict], *, data_name: str, x: str, statuses: Sequence[str],
                     headroom: float) -> dict:
    """Put records into a :func:`ranked_bars` spec: its data, the x range (the longest bar times
    ``headroom``, room for its label) and the legend's entries (the statuses present, in order)."""
    top = max((r[x] for r in records), default=1) * headroom
    bars = spec["layer"][0]["encoding"]
    bars["x"]["scale"]["domain"] = [0, top if top > 0 else 1]
    present = [status for status in statuses if any(r["status"] == status for r in records)]
    if bars["color"].get("legend"):
        bars["color"]["legend"]["values"] = present
    spec["datasets"] = {data_name: records}
    spec["data"] = {"name": data_name}
    return spec


def draw(chart_spec: dict, *, key: str | None = None) -> None:
    """Draw a spec at full width, with the lab's own theme (not Streamlit's)."""
    st.vega_lite_chart(chart_spec, theme=None, width="stretch", key=key)


__all__ = ["BLUE", "CYAN", "GREY", "OLIVE", "ORANGE", "PINK", "SAND", "SLIDE_BAR_PX", "SLIDE_CHART_PX", "TEAL", "TEXT",
           "Sizes", "draw",
           "fill_ranked_bars", "ranked_bars", "sizes", "spec", "themed"]


def layered(*layers: alt.Chart) -> alt.LayerChart:
    """``alt.layer`` of plain charts, typed as the layer it is (altair types a layer as possibly a facet)."""
    chart = alt.layer(*layers)
    assert isinstance(chart, alt.LayerChart)
    return chart
