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

from dataclasses import dataclass

import altair as alt
import streamlit as st

from ui.chips import PALETTE

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


def sizes(large: bool) -> Sizes:
    """Font sizes in px: normal, or large type (a projector at the back of a class)."""
    return Sizes(20, 20, 20, 36) if large else Sizes(13, 13, 13, 24)


def themed(chart: alt.TopLevelMixin, *, large: bool) -> alt.TopLevelMixin:
    """Apply the lab's look: black text at the large-type size, light grid, white background."""
    s = sizes(large)
    return (
        chart.configure(background=BACKGROUND, font=FONT)
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


def spec(chart: alt.TopLevelMixin, *, large: bool) -> dict:
    """The themed chart as a Vega-Lite spec, without Altair's per-call schema validation."""
    return themed(chart, large=large).to_dict(validate=False)


def draw(chart_spec: dict, *, key: str | None = None) -> None:
    """Draw a spec at full width, with the lab's own theme (not Streamlit's)."""
    st.vega_lite_chart(chart_spec, theme=None, width="stretch", key=key)


__all__ = ["BLUE", "CYAN", "GREY", "OLIVE", "ORANGE", "PINK", "SAND", "TEAL", "TEXT", "Sizes", "draw", "sizes",
           "spec", "themed"]
