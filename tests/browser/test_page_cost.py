"""Cost, context and speed in a real browser: predict, then see the window drawn; the pre-send check; typed numbers
go in the link; Hindi text measured and shown as text; nothing cut off at 1280 px, on a phone, or in large type.

Screenshots (LAB_SCREENSHOTS=1): cost-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.browser_helpers import (
    chart_text_cut,
    cut_off,
    element_shot,
    main_area,
    no_error_boxes,
    screenshot,
    settle,
    skip_without_browser,
    squeezed_labels,
    until,
)

skip_without_browser()


URL_PATH = "Cost_and_context"


def _expect_metric(page, label: str, value: str) -> None:
    """The metric says ``value`` (waited for: on a loaded machine the page's last run can end after the first
    one was taken for the whole; CI once read the numbers of an earlier run)."""
    metric = main_area(page).locator('[data-testid="stMetric"]').filter(has_text=label).first
    expect(metric.locator('[data-testid="stMetricValue"]')).to_have_text(value)


def _type_number(page, label: str, value: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(value)
    box.press("Enter")
    settle(page)


def test_predict_then_see_the_window(open_page) -> None:
    page = open_page(URL_PATH, "cost-default")
    main = main_area(page)
    expect(main.get_by_role("heading", level=1)).to_have_text("Cost, context and speed")
    no_error_boxes(page)
    for label, value in (("Hindi, per article", "Rs 2.46"), ("English, per article", "Rs 0.87"),
                         ("Hindi, per month", "Rs 73,800")):
        _expect_metric(page, label, value)
    expect(main).to_contain_text("How many whole Hindi articles of 1,500 tokens fit")
    assert main.locator('[data-testid="stVegaLiteChart"]').count() == 0  # hidden until predicted
    question = main.locator('[data-testid="stVerticalBlock"]').filter(has_text="How many whole Hindi")
    element_shot(question.last, "cost-predict")
    _type_number(page, "Your prediction (articles)", "5")
    page.get_by_role("button", name="Check").click()
    settle(page)
    expect(main.locator(".tl-note-success").first).to_contain_text("Right! You predicted 5 articles.")
    chart = main.locator('[data-testid="stVegaLiteChart"]')
    chart.scroll_into_view_if_needed()
    expect(chart.locator("canvas, svg").first).to_be_visible()
    _expect_metric(page, "English articles that fit", "13")
    assert cut_off(page) == [] and chart_text_cut(page) == []
    element_shot(chart, "cost-window")
    screenshot(page, "cost-full", full_page=True)


def test_presend_check_and_numbers_in_the_link(open_page) -> None:
    page = open_page(URL_PATH, "cost-before-typing", query="predict=0")
    page.get_by_role("button", name="Try 7,700").click()
    settle(page)
    note = main_area(page).locator(".tl-note-error")
    expect(note).to_contain_text("7,700 + 300 (reply cap) + 50 (margin) = 8,050 > 8,000 tokens: 50 over.")
    expect(page).to_have_url(re.compile(r"[?&]prompt=7700"))
    element_shot(note, "cost-presend-rejected")
    _type_number(page, "Articles a day (in each language)", "5000")
    expect(page).to_have_url(re.compile(r"[?&]per_day=5000"))
    _expect_metric(page, "Hindi, per month", "Rs 3,69,000")  # Indian digit grouping
    _type_number(page, "Rs per 1,000 input tokens", "-1")
    expect(main_area(page).locator('[data-testid="stAlertContentWarning"]').first).to_contain_text(
        "The price of 1,000 input tokens cannot be negative")
    no_error_boxes(page)


def test_your_own_hindi_text_is_measured_and_shown_as_text(open_page) -> None:
    page = open_page(URL_PATH, "cost-own-text", query="predict=0&source=own")
    box = page.get_by_role("textbox", name="Your Hindi text")
    box.fill("<b>घने</b> कोहरे से शहर में स्कूल और सड़कें बंद रहीं।")
    box.press("Control+Enter")
    settle(page)
    expect(page).to_have_url(re.compile(r"[?&]hi_text="))
    main = main_area(page)
    assert main.locator("b", has_text="घने").count() == 0
    expect(main).to_contain_text("tokens per word, so 410 words are")
    no_error_boxes(page)
    column = main.locator('[data-testid="stColumn"]').filter(has_text="tokens per word, so 410 words are").last
    element_shot(column, "cost-own-text-measured")


def test_large_type_on_a_projector(open_page) -> None:
    page = open_page(URL_PATH, "cost-large-first", query="large=1&predict=0", size="projector")
    main_area(page).locator('[data-testid="stMetric"]').first.wait_for()
    page.evaluate("document.fonts.ready")
    no_error_boxes(page)
    assert squeezed_labels(page) == []
    assert cut_off(page) == [] and chart_text_cut(page) == []
    # metric labels stay on a line or two
    tall = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
              .filter(el => el.getBoundingClientRect().height > 3.2 * parseFloat(getComputedStyle(el).fontSize))
              .map(el => el.textContent)"""
    )
    assert tall == []
    screenshot(page, "cost-large-1920")
    element_shot(main_area(page).locator('[data-testid="stVegaLiteChart"]'), "cost-window-large")


def test_phone_width_cuts_nothing_off(open_page) -> None:
    page = open_page(URL_PATH, "cost-phone-first", query="predict=0", size="phone")
    no_error_boxes(page)
    chart = main_area(page).locator('[data-testid="stVegaLiteChart"]')
    chart.scroll_into_view_if_needed()
    expect(chart.locator("canvas, svg").first).to_be_visible()
    assert cut_off(page) == [] and chart_text_cut(page) == []
    assert squeezed_labels(page) == []
    element_shot(chart, "cost-window-phone")
    screenshot(page, "cost-phone")


def test_classroom_tabs_keep_the_part_on_screen_in_the_address(open_page) -> None:
    """Classroom mode: a click on "The window" puts part=window in the address (it stayed at ?classroom=1), Back
    brings the bill back, and the address opened afresh shows the window."""
    from urllib.parse import parse_qs, urlsplit

    page = open_page(URL_PATH, "cost-classroom-tabs", query="classroom=1", size="projector")
    main = main_area(page)
    main.get_by_role("tab", name="The window").click()
    settle(page)
    until(page, "() => location.search.includes('part=window')")
    assert parse_qs(urlsplit(page.url).query) == {"classroom": ["1"], "part": ["window"]}
    expect(main.get_by_role("tab", name="The window")).to_have_attribute("aria-selected", "true")
    address = page.url
    page.go_back()
    settle(page)
    until(page, "() => !location.search.includes('part=')")
    expect(main.get_by_role("tab", name="The bill")).to_have_attribute("aria-selected", "true")
    again = open_page(URL_PATH, "cost-classroom-tabs-pasted", query=urlsplit(address).query, size="projector")
    expect(main_area(again).get_by_role("tab", name="The window")).to_have_attribute("aria-selected", "true")
    expect(main_area(again).get_by_text("How many whole Hindi articles", exact=False)).to_be_visible()  # predict first
