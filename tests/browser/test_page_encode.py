"""Encode step by step in a real browser: a shared link, the step buttons, a Hindi example.

Screenshots (LAB_SCREENSHOTS=1): encode-readership-start, encode-readership-final,
encode-hindi-step, encode-large-type.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

import lessons
from tests.browser.browser_helpers import (
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    step_button,
    wait_for_streamlit,
)

skip_without_browser()


URL = "Encode_step_by_step"


def _chip_texts(page, row: int, expected: list[str] | None = None) -> list[str]:
    """The token texts of the row-th chip row in the main area (ids left out). With ``expected``: waited for (up
    to 15 s) until they are those, since a visible heading does not mean the chips of the same run are drawn."""
    chips = main_area(page).locator(".tl-chips").nth(row).locator(".tl-text")
    deadline = time.monotonic() + 15
    while True:
        texts = [t.replace("\xa0", "") for t in chips.all_text_contents()]
        if expected is None or texts == expected or time.monotonic() > deadline:
            return texts
        page.wait_for_timeout(200)


def _click(page, name: str) -> None:
    step_button(main_area(page), name).click()
    settle(page)


def test_readership_link_steps_to_the_end(open_page) -> None:
    page = open_page(URL, "encode-start", query="tok=readers&text=readership")
    expect(page.get_by_role("heading", name="Start: 11 tokens")).to_be_visible()
    assert _chip_texts(page, 0, want := list("readership") + ["</w>"]) == want
    screenshot(page, "encode-readership-start")

    _click(page, "Next")
    expect(page.get_by_role("heading", name="Step 1 of 4")).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]step=1"))
    _click(page, "End")
    expect(page.get_by_role("heading", name="Step 4 of 4")).to_be_visible()
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text("No merge applies any more")
    # The last chip row on the page is the final tokens.
    assert _chip_texts(page, -1, want := ["read", "er", "s", "h", "i", "p", "</w>"]) == want
    expect(page.get_by_text("Merges so far, as a table")).to_be_visible()
    screenshot(page, "encode-readership-final")


def test_hindi_example_button(open_page) -> None:
    page = open_page(URL, "encode-default")
    label = next(e["label"] for e in lessons.examples("encode") if e["preset"] == "english-hindi-fair")
    page.get_by_role("button", name=label, exact=True).click()
    expect(page.get_by_label("A word or a sentence", exact=True)).to_have_value("स्कूलों")
    wait_for_streamlit(page)
    _click(page, "Next")
    _click(page, "Next")
    _click(page, "Next")
    expect(page.get_by_role("heading", name=re.compile(r"Step 3 of \d+"))).to_be_visible()
    assert page.locator(".tl-chip.tl-hl").count() >= 2  # the pair before, the new token after
    assert "\ufffd" not in main_area(page).inner_text()
    # The letters the byte tokens make are written under them, in a Devanagari font.
    expect(page.locator(".tl-run-text").first).to_be_visible()
    screenshot(page, "encode-hindi-step")


def test_no_merge_fires_and_large_type(open_page) -> None:
    page = open_page(URL, "encode-large-type", query="tok=news&text=xyz&large=1")
    expect(page.get_by_text("None of the 3 learned merges finds its pair")).to_be_visible()
    assert _chip_texts(page, 0, want := ["x", "y", "z"]) == want
