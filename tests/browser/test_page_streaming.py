"""Streaming in a real browser: a deep link, the step buttons, autoplay (the fragment ticks), the marks and the
held bytes drawn visibly, Devanagari in a real font, nothing cut off at 1280 and 390 px, large type at 1920x1080.

Screenshots (LAB_SCREENSHOTS=1): stream-step1, stream-step9, stream-end, stream-phone, stream-large.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

import lessons
from tests.browser.browser_helpers import (
    assert_no_exception,
    cut_off,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    step_button,
    uses_devanagari_font,
    wait_for_streamlit,
)
from tests.lesson_data import LESSON4
from tests.reference_oracle import not_text_alone, reference_token_bytes

skip_without_browser()


URL = "Streaming"
HINDI = LESSON4["test_hi"]
_PRESET = lessons.presets()["english-hindi"]  # the page's default tokenizer
# The lesson-6 figure from an independent source, the textbook trainer (tests/reference_oracle.py).
TEXTBOOK = reference_token_bytes(_PRESET.corpus, _PRESET.merges, HINDI, **_PRESET.train_kwargs())
PARTIAL, TOTAL = sum(map(not_text_alone, TEXTBOOK)), len(TEXTBOOK)


def _click(page, name: str) -> None:
    step_button(main_area(page), name).click()
    settle(page)


def _panel_text(page, which: str) -> str:
    return page.locator(f".tl-stream-panel.tl-{which} .tl-stream-text").inner_text()


def test_deep_link_marks_and_held_bytes_are_visible(open_page) -> None:
    page = open_page(URL, "stream-step1", query="step=1")
    expect(main_area(page)).to_contain_text(f"{PARTIAL} of {TOTAL} tokens")
    bad = page.locator(".tl-naive .tl-bad").first
    expect(bad).to_be_visible()
    assert bad.inner_text() == "\ufffd"
    style = bad.evaluate("e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).borderTopWidth]")
    assert style[0] not in ("rgba(0, 0, 0, 0)", "transparent") and style[1] != "0px"  # marked, never plain text
    box = bad.bounding_box()
    assert box and box["width"] > 8 and box["height"] > 8
    held = page.locator(".tl-careful .tl-held")
    expect(held).to_have_text("holding E0 A4")
    expect(held).to_be_visible()

    _click(page, "Next")
    expect(page).to_have_url(re.compile(r"[?&]step=2"))
    expect(page.locator(".tl-careful .tl-stream-text")).to_have_text("घ")
    assert uses_devanagari_font(page, ".tl-careful .tl-stream-text")
    assert uses_devanagari_font(page, ".tl-run-text")
    for _ in range(7):
        _click(page, "Next")
    expect(page.locator(".tl-now")).to_contain_text(f"9 of {TOTAL}")
    expect(page.locator(".tl-now .tl-markname")).to_contain_text("vowel sign")
    assert page.locator(".tl-chips .tl-chip.tl-hl").count() >= 1
    screenshot(page, "stream-step9")
    _click(page, "Last")
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text("gave back the text exactly")
    assert _panel_text(page, "careful") == HINDI
    assert page.locator(".tl-naive .tl-bad").count() > 60
    assert cut_off(page, ".tl-stream-panel") == [] and cut_off(page, ".tl-chips") == []
    screenshot(page, "stream-end")


def test_autoplay_steps_on_its_own(open_page) -> None:
    page = open_page(URL, "stream-autoplay", query="step=3")
    main_area(page).get_by_text("Autoplay", exact=True).click()
    expect(page).to_have_url(re.compile(r"[?&]step=([4-9]|\d\d)"), timeout=8_000)  # the fragment ticks by itself
    main_area(page).get_by_text("Autoplay", exact=True).click()
    wait_for_streamlit(page)
    assert_no_exception(page)


def test_phone_width_cuts_nothing_off(open_page) -> None:
    page = open_page(URL, "stream-phone-top", query="step=9", size="phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 391
    assert cut_off(page, ".tl-stream-panel") == []
    assert cut_off(page, ".tl-now") == []
    assert cut_off(page, ".tl-chips") == []
    page.locator(".tl-stream").scroll_into_view_if_needed()
    screenshot(page, "stream-phone")


def test_large_type_at_1920_keeps_the_stream_on_one_screen(open_page) -> None:
    page = open_page(URL, "stream-large-first", query="large=1&step=9", size="projector")
    # The controls, both decoders and the token that just arrived fit on the projector's first screen.
    for selector in (".tl-stream", ".tl-now"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] + box["height"] <= 1080, (selector, box)
    next_box = step_button(main_area(page), "Next").bounding_box()
    assert next_box and next_box["y"] + next_box["height"] <= 1080
    # Labels are not squeezed letter by letter: each decoder's heading stays on one or two lines.
    for which in ("naive", "careful"):
        head = page.locator(f".tl-{which} .tl-stream-head").bounding_box()
        assert head and head["height"] < 80
    screenshot(page, "stream-large")
