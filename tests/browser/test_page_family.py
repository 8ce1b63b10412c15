"""The family in a real browser: both charts drawn, the step buttons and the link, Devanagari drawn with a
real font, nothing cut off at 1280 px or on a phone, typed markup kept as text, large type on a projector.

Screenshots (artifacts/screenshots/): family-merges-step1, family-merges-step2, family-unigram,
family-pipeline-hindi, family-special, family-phone-merges, family-phone-pipeline, family-projector.
"""

from __future__ import annotations

import re

from tests.browser.browser_helpers import (
    assert_no_exception,
    cut_off,
    screenshot,
    skip_without_browser,
    uses_devanagari_font,
    wait_for_streamlit,
)

skip_without_browser()

from playwright.sync_api import expect  # noqa: E402

URL = "The_family"


def _main(page):
    return page.locator('[data-testid="stMain"]')


def _settle(page) -> None:
    page.wait_for_timeout(300)
    wait_for_streamlit(page)
    assert_no_exception(page)
    errors = page.locator('[data-testid="stAlertContentError"]')
    assert errors.count() == 0, errors.all_inner_texts()


def _charts_drawn(page, n: int) -> None:
    charts = _main(page).locator('[data-testid="stVegaLiteChart"]')
    expect(charts).to_have_count(n)
    for i in range(n):
        charts.nth(i).scroll_into_view_if_needed()
        expect(charts.nth(i).locator("canvas, svg").first).to_be_visible()


def _merge_lines(page) -> list[list[str]]:
    lines = _main(page).locator(".tl-merge")
    return [[t.split("\n")[0] for t in lines.nth(i).locator(".tl-text").all_inner_texts()] for i in range(lines.count())]


def test_both_rules_step_by_step(open_page) -> None:
    page = open_page(URL, "family-merges-step1", query="step=1")
    expect(page.get_by_role("heading", name="Merge 1 of 7")).to_be_visible()
    _charts_drawn(page, 2)
    assert _merge_lines(page) == [["h", "a", "ha"], ["p", "o", "po"]]
    expect(_main(page).locator(".tl-note").nth(1)).to_contain_text("4 ÷ (4 × 5) = 0.200")
    assert cut_off(page) == []
    screenshot(page, "family-merges-step1")
    _main(page).get_by_role("button", name=re.compile(r"Next$")).click()
    expect(page).to_have_url(re.compile(r"[?&]step=2"))
    _settle(page)
    expect(page.get_by_role("heading", name="Merge 2 of 7")).to_be_visible()
    assert _merge_lines(page) == [["c", "ha", "cha"], ["m", "o", "mo"]]
    _charts_drawn(page, 2)
    screenshot(page, "family-merges-step2")


def test_unigram_and_special_tokens(open_page) -> None:
    page = open_page(URL, "family-unigram", query="part=unigram")
    expect(_main(page).locator('[data-testid="stDataFrame"]').first).to_be_visible()
    expect(_main(page).get_by_text("Subword regularisation: segmentations drawn at random")).to_be_visible()
    assert _main(page).locator(".tl-chips").count() >= 6
    assert cut_off(page) == []
    screenshot(page, "family-unigram")
    page = open_page(URL, "family-special", query="part=special")
    expect(_main(page).locator(".tl-chip.tl-hl").first).to_contain_text("<s>")
    expect(_main(page).get_by_text("Put in by the template: 1 token")).to_be_visible()
    assert _main(page).locator("img").count() == 0
    # The Hindi message's byte tokens have their letters written under them, in a Devanagari font.
    expect(_main(page).locator(".tl-run-text").first).to_be_visible()
    assert uses_devanagari_font(page, ".tl-run-text")
    screenshot(page, "family-special")


def test_pipeline_draws_hindi_with_a_real_font(open_page) -> None:
    page = open_page(URL, "family-pipeline-hindi", query="part=pipeline")
    expect(page.get_by_role("heading", name="4 · Ids: 47 tokens")).to_be_visible()
    assert uses_devanagari_font(page, ".tl-note")  # the normalised text
    assert uses_devanagari_font(page, ".tl-chip .tl-text")
    assert "\ufffd" not in _main(page).inner_text()
    assert cut_off(page) == []
    screenshot(page, "family-pipeline-hindi")


def test_typed_markup_stays_text(open_page) -> None:
    page = open_page(URL, "family-own-text", query="preset=own")
    box = page.get_by_role("textbox", name="Your text")
    box.fill("<img src=x onerror=alert(1)> chai chai chaiwala <b>poha</b>")
    box.press("Control+Enter")
    _settle(page)
    page.get_by_role("heading", name=re.compile(r"Before merge 1 of \d+")).wait_for()
    assert _main(page).locator("img[onerror], img[src='x'], b").count() == 0
    expect(_main(page).locator(".tl-word-label", has_text="<img")).to_have_count(2)  # a word of both corpora
    expect(_main(page).locator(".tl-word-label", has_text="<b>poha</b>")).to_have_count(2)
    expect(page).to_have_url(re.compile(r"[?&]text="))


def test_phone_width_cuts_nothing_off(browser_context, streamlit_server) -> None:
    page = browser_context.new_page()
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        for query, name, seen in (("step=1", "family-phone-merges", ".tl-merge"),
                                  ("part=pipeline", "family-phone-pipeline", ".tl-chip")):
            page.goto(f"{streamlit_server.base_url}/{URL}?{query}")
            _settle(page)
            _main(page).locator(".tl-chips").first.wait_for()
            assert cut_off(page) == [], query
            if query == "step=1":
                expect(page.get_by_role("heading", name="Merge 1 of 7")).to_be_visible()
                expect(page.get_by_label("Merges", exact=True)).to_have_value("7")
                _charts_drawn(page, 2)
            _main(page).locator(seen).first.scroll_into_view_if_needed()
            screenshot(page, name)
    finally:
        page.close()


def test_large_type_on_a_projector(browser_context, streamlit_server) -> None:
    """At 1920x1080 in large type the step buttons, both merges and both charts are on the first screen."""
    page = browser_context.new_page()
    try:
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(f"{streamlit_server.base_url}/{URL}?large=1&step=1")
        _settle(page)
        _charts_drawn(page, 2)
        page.evaluate("window.scrollTo(0, 0); document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
        main = _main(page)
        boxes = {
            "next": main.get_by_role("button", name="Next", exact=True).bounding_box(),
            "bpe merge": main.locator(".tl-merge").nth(0).bounding_box(),
            "wordpiece merge": main.locator(".tl-merge").nth(1).bounding_box(),
            "bpe chart": main.locator('[data-testid="stVegaLiteChart"]').nth(0).bounding_box(),
            "wordpiece chart": main.locator('[data-testid="stVegaLiteChart"]').nth(1).bounding_box(),
        }
        for what, box in boxes.items():
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 1080, (what, box)
        assert boxes["bpe chart"]["x"] + boxes["bpe chart"]["width"] <= boxes["wordpiece chart"]["x"]  # side by side
        assert cut_off(page) == []
        screenshot(page, "family-projector")
    finally:
        page.close()
