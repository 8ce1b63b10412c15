"""Quirks in a real browser: tabs by link and by click (kept in the URL), the join predicted then revealed,
the Hindi pre-split drawn in a real Devanagari font with its lone vowel signs named, nothing cut off at
1280 and 390 px, large type at 1920x1080.

Screenshots (LAB_SCREENSHOTS=1): quirks-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.browser_helpers import (
    cut_off,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    uses_devanagari_font,
)

skip_without_browser()


URL = "Quirks"


def test_default_tab_then_a_click_on_another(open_page) -> None:
    page = open_page(URL, "quirks-spaces")
    expect(main_area(page).locator(".tl-labelled").first).to_be_visible()
    expect(main_area(page)).to_contain_text("at the start of a text")
    page.get_by_role("tab", name="Letters").click()
    settle(page)
    expect(page).to_have_url(re.compile(r"[?&]quirk=Letters"))
    expect(main_area(page)).to_contain_text("str (1)")
    screenshot(page, "quirks-letters")


def test_join_predict_then_reveal(open_page) -> None:
    page = open_page(URL, "quirks-join-predict", query="quirk=Joining")
    expect(main_area(page)).to_contain_text("hidden until you predict")
    box = page.get_by_label(re.compile("Your prediction"))
    box.fill("16")
    box.press("Enter")  # the value is sent on Enter: a click on Check during that run could be lost on a busy machine
    settle(page)
    page.get_by_role("button", name="Check").click()
    settle(page)
    expect(main_area(page)).to_contain_text("the lab computed 14 tokens")
    expect(main_area(page).locator(".tl-chip.tl-hl").first).to_be_visible()
    expect(main_area(page)).to_contain_text("Joined: 14, 2 tokens fewer")
    screenshot(page, "quirks-join")


def test_presplit_in_devanagari_with_named_marks(open_page) -> None:
    page = open_page(URL, "quirks-presplit", query="quirk=Pre-split")
    rows = main_area(page).locator(".tl-chips")
    expect(rows.first).to_be_visible()
    assert uses_devanagari_font(page, ".tl-chips .tl-text")
    # GPT-4's pieces: vowel signs cut off, on ◌ and named; GPT-4o's: none.
    expect(rows.nth(0).locator(".tl-name").first).to_have_text("vowel sign e")
    assert rows.nth(0).locator(".tl-chip.tl-hl").count() >= 5
    assert rows.nth(1).locator(".tl-chip.tl-hl").count() == 0
    assert cut_off(page, ".tl-chips") == []
    screenshot(page, "quirks-presplit")


def test_numbers_at_phone_width(open_page) -> None:
    page = open_page(URL, "quirks-numbers", query="quirk=Numbers", size="phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 391
    assert cut_off(page, ".tl-chips") == [] and cut_off(page, ".tl-labelled") == []
    main_area(page).locator(".tl-labelled").nth(1).scroll_into_view_if_needed()
    screenshot(page, "quirks-numbers-phone")


def test_formatting_large_type_at_1920(open_page) -> None:
    page = open_page(URL, "quirks-large-first", query="quirk=Formatting&large=1", size="projector")
    expect(main_area(page).locator('[data-testid="stTable"]')).to_be_visible()  # large type: tables as text
    tabs = page.get_by_role("tab")
    assert tabs.count() == 7
    for i in range(7):  # every tab label on one line, none squeezed
        box = tabs.nth(i).bounding_box()
        assert box and box["height"] < 70 and box["x"] + box["width"] <= 1920
    assert cut_off(page, ".tl-chips") == []
    screenshot(page, "quirks-large")
