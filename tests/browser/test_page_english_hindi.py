"""Real browser: the "English vs Hindi" page: predict, then the curves; the step cursor by keyboard; large type.

With LAB_SCREENSHOTS=1 screenshots land in artifacts/screenshots/evh-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.browser_helpers import (
    charts_drawn,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    wait_for_streamlit,
)

skip_without_browser()


URL_PATH = "English_vs_Hindi"


def _settle(page, name: str | None = None) -> None:
    charts_drawn(page)
    if name:
        screenshot(page, name)


def _past_the_questions(page) -> None:
    """A link opens on the questions too (they ask first, whatever it sets): skip them, to see the link's view."""
    main_area(page).get_by_role("button", name="Skip, show me", exact=True).click()
    settle(page)


def _metric(page, label: str):
    return main_area(page).locator('[data-testid="stMetric"]').filter(has_text=label).locator('[data-testid="stMetricValue"]')


def test_predict_then_the_curves(open_page) -> None:
    page = open_page(URL_PATH, "evh-opening")
    _settle(page, "evh-opening")
    expect(_metric(page, "English tokens")).to_have_text("13")
    expect(_metric(page, "Hindi tokens")).to_have_text("69")
    expect(main_area(page).locator('[data-testid="stVegaLiteChart"]')).to_have_count(0)
    assert "\ufffd" not in main_area(page).inner_text()

    # The page asks lesson 4's own exercises 2 and 3 (an answer here is the lesson's).
    first, second = main_area(page).locator('[data-testid="stRadio"]').all()
    first.get_by_text("fewer", exact=True).click()
    main_area(page).get_by_role("button", name="Check", exact=True).first.click()
    expect(main_area(page).get_by_text("69 tokens before, 31 after", exact=False)).to_be_visible()
    wait_for_streamlit(page)
    second = main_area(page).locator('[data-testid="stRadio"]').last
    second.get_by_text("more", exact=True).click()
    main_area(page).get_by_role("button", name="Check", exact=True).click()
    expect(main_area(page).get_by_text("13 tokens before, 16 after", exact=False)).to_be_visible()
    wait_for_streamlit(page)
    expect(main_area(page).locator('[data-testid="stVegaLiteChart"]')).to_have_count(4)
    expect(main_area(page).get_by_text("the same figures lesson 4 gives", exact=False)).to_be_visible()
    _settle(page, "evh-revealed")


def test_the_step_cursor_moves_by_keyboard(open_page) -> None:
    page = open_page(URL_PATH, "evh-k10", query="k=10&budget=100&step=40")
    _past_the_questions(page)
    _settle(page)
    expect(_metric(page, "Hindi tokens")).to_have_text("31")
    expect(main_area(page).get_by_text("English after merge 40", exact=False)).to_be_visible()
    cursor = main_area(page).get_by_role("slider").nth(2)
    cursor.focus()
    for _ in range(5):
        cursor.press("ArrowRight")
    expect(main_area(page).get_by_text("English after merge 45", exact=False)).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]step=45"))
    _settle(page, "evh-k10-step45")
    main = main_area(page).inner_text()
    assert "Hindi after merge 45" in main and "\ufffd" not in main


def test_large_type_on_a_projector(open_page) -> None:
    page = open_page(URL_PATH, "evh-large-first", query="large=1&k=10", size="projector")
    _past_the_questions(page)
    _settle(page, "evh-large")
    expect(_metric(page, "Hindi tokens")).to_have_text("31")
    # The sliders and the two sentences' counts are on the first screen.
    for slider in main_area(page).get_by_role("slider").all()[:2]:
        box = slider.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 1080
    box = _metric(page, "Hindi tokens").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080


def test_own_texts_and_the_uploaders_one_limit(open_page) -> None:
    page = open_page(URL_PATH, "evh-own-text", query="train=own&k=3")
    _past_the_questions(page)
    _settle(page)
    expect(main_area(page).get_by_text("(up to 1 MB)", exact=False)).to_be_visible()
    expect(page.get_by_text("50MB per file", exact=False)).to_be_hidden()  # Streamlit's own limit is not shown
    expect(main_area(page).get_by_role("textbox", name="English part")).to_have_value(re.compile(r"^Heavy rain"))
    _settle(page, "evh-own-text")
