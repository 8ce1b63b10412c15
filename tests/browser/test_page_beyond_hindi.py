"""Beyond Hindi in a real browser: the chart and the table drawn, every language's own name drawn with a real
font, nothing cut off at 1280 px or on a phone, large type at 1920x1080, the link keeps the view.

Screenshots (LAB_SCREENSHOTS=1): langs-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

import lessons
from tests.browser.browser_helpers import (
    chart_text_cut,
    cut_off,
    element_shot,
    main_area,
    missing_glyphs,
    no_error_boxes,
    screenshot,
    skip_without_browser,
    squeezed_labels,
    wait_for_streamlit,
)

skip_without_browser()


URL_PATH = "Beyond_Hindi"
NATIVE = [s["native"] for s in lessons.data("languages")["languages"]]


def _chart(page):
    chart = main_area(page).locator('[data-testid="stVegaLiteChart"]')
    chart.scroll_into_view_if_needed()
    expect(chart.locator("canvas, svg").first).to_be_visible()
    return chart


def test_default_view_draws_every_language(open_page) -> None:
    page = open_page(URL_PATH, "langs-default")
    main = main_area(page)
    expect(main.get_by_role("heading", level=1)).to_have_text("Beyond Hindi")
    no_error_boxes(page)
    chart = _chart(page)
    box = chart.bounding_box()
    assert box["height"] > 29 * 3 * 10  # a band of three bars for each language
    expect(main.locator('[data-testid="stDataFrame"]').first).to_be_visible()
    expect(main).to_contain_text("pays the most")
    assert missing_glyphs(page, NATIVE) == []
    assert missing_glyphs(page, ["\U000F0000"])  # the check can fail: a private-use character has no glyph
    assert cut_off(page) == []
    assert chart_text_cut(page) == []
    element_shot(chart, "langs-chart")
    element_shot(main.locator('[data-testid="stDataFrame"]').first, "langs-table")


def test_the_samples_are_shown_as_text(open_page) -> None:
    page = open_page(URL_PATH, "langs-samples-closed", query="group=india")
    page.get_by_text("The sample texts", exact=True).click()
    page.locator('[data-testid="stExpander"] [data-testid="stDataFrame"]').first.wait_for()
    wait_for_streamlit(page)
    no_error_boxes(page)
    samples = page.locator('[data-testid="stExpander"]').filter(has=page.get_by_text("The sample texts", exact=True))
    element_shot(samples, "langs-samples")
    # The table's cells (its accessible copy in the DOM) hold each language's own text, as text: no markup.
    # The grid keeps only the rows in view in the DOM: Hindi's and at least two more languages' rows.
    samples.locator("td").first.wait_for(state="attached")  # the grid's accessible copy is filled after the table is drawn
    cells = samples.locator("td").all_inner_texts()
    found = {s.id for s in lessons.language_samples()[0] if any(cell.startswith(s.line[:40]) for cell in cells)}
    assert "hi_Deva" in found and len(found) >= 3, cells[:12]
    assert samples.locator("img, b, script").count() == 0


def test_a_control_goes_in_the_link(open_page) -> None:
    page = open_page(URL_PATH, "langs-before-click")
    page.get_by_role("radio", name="Languages of India").click()
    expect(page).to_have_url(re.compile(r"[?&]group=india"))
    wait_for_streamlit(page)
    page.get_by_role("radio", name="letter (grapheme)").click()
    expect(page).to_have_url(re.compile(r"[?&]per=grapheme"))
    wait_for_streamlit(page)
    no_error_boxes(page)
    expect(main_area(page)).to_contain_text("Tokens per letter")
    element_shot(_chart(page), "langs-india-letters")


def test_large_type_on_a_projector(open_page) -> None:
    page = open_page(URL_PATH, "langs-large-1920", query="large=1&group=india", size="projector")
    no_error_boxes(page)
    assert squeezed_labels(page) == []
    assert cut_off(page) == []
    assert chart_text_cut(page) == []
    element_shot(_chart(page), "langs-chart-large")


def test_phone_width_cuts_nothing_off(open_page) -> None:
    page = open_page(URL_PATH, "langs-phone-first", query="group=india", size="phone")
    no_error_boxes(page)
    _chart(page)
    assert cut_off(page) == []
    assert chart_text_cut(page) == []
    assert squeezed_labels(page) == []
    screenshot(page, "langs-phone", full_page=True)
    element_shot(_chart(page), "langs-chart-phone")
