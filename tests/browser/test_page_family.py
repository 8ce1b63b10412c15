"""The family in a real browser: both charts drawn, the step buttons and the link, Devanagari drawn with a
real font, nothing cut off at 1280 px or on a phone, typed markup kept as text, large type on a projector.

Screenshots (LAB_SCREENSHOTS=1): family-merges-step1, family-merges-step2, family-unigram,
family-pipeline-hindi, family-special, family-phone-merges, family-phone-pipeline, family-projector.
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
    step_button,
    uses_devanagari_font,
)

skip_without_browser()


URL = "The_family"


def _charts_drawn(page, n: int) -> None:
    charts = main_area(page).locator('[data-testid="stVegaLiteChart"]')
    expect(charts).to_have_count(n)
    for i in range(n):
        charts.nth(i).scroll_into_view_if_needed()
        expect(charts.nth(i).locator("canvas, svg").first).to_be_visible()


def _merge_lines(page) -> list[list[str]]:
    lines = main_area(page).locator(".tl-merge")
    return [[t.split("\n")[0] for t in lines.nth(i).locator(".tl-text").all_inner_texts()] for i in range(lines.count())]


def test_both_rules_step_by_step(open_page) -> None:
    page = open_page(URL, "family-merges-step1", query="step=1")
    expect(page.get_by_role("heading", name="Merge 1 of 7")).to_be_visible()
    _charts_drawn(page, 2)
    assert _merge_lines(page) == [["h", "a", "ha"], ["p", "o", "po"]]
    expect(main_area(page).locator(".tl-note").nth(1)).to_contain_text("4 ÷ (4 × 5) = 0.200")
    assert cut_off(page) == []
    screenshot(page, "family-merges-step1")
    step_button(main_area(page), "Next").click()
    expect(page).to_have_url(re.compile(r"[?&]step=2"))
    settle(page, no_errors=True)
    expect(page.get_by_role("heading", name="Merge 2 of 7")).to_be_visible()
    assert _merge_lines(page) == [["c", "ha", "cha"], ["m", "o", "mo"]]
    _charts_drawn(page, 2)
    screenshot(page, "family-merges-step2")


def test_unigram_and_special_tokens(open_page) -> None:
    page = open_page(URL, "family-unigram", query="part=unigram")
    expect(main_area(page).locator('[data-testid="stDataFrame"]').first).to_be_visible()
    expect(main_area(page).get_by_text("Subword regularisation: segmentations drawn at random")).to_be_visible()
    assert main_area(page).locator(".tl-chips").count() >= 6
    assert cut_off(page) == []
    screenshot(page, "family-unigram")
    page = open_page(URL, "family-special", query="part=special")
    expect(main_area(page).locator(".tl-chip.tl-hl").first).to_contain_text("<s>")
    expect(main_area(page).get_by_text("Put in by the template: 1 token")).to_be_visible()
    assert main_area(page).locator("img").count() == 0
    # The Hindi message's byte tokens have their letters written under them, in a Devanagari font.
    expect(main_area(page).locator(".tl-run-text").first).to_be_visible()
    assert uses_devanagari_font(page, ".tl-run-text")
    screenshot(page, "family-special")


def test_pipeline_draws_hindi_with_a_real_font(open_page) -> None:
    page = open_page(URL, "family-pipeline-hindi", query="part=pipeline")
    expect(page.get_by_role("heading", name="4 · Ids: 47 tokens")).to_be_visible()
    assert uses_devanagari_font(page, ".tl-note")  # the normalised text
    assert uses_devanagari_font(page, ".tl-chip .tl-text")
    assert "\ufffd" not in main_area(page).inner_text()
    assert cut_off(page) == []
    screenshot(page, "family-pipeline-hindi")


def test_typed_markup_stays_text(open_page) -> None:
    page = open_page(URL, "family-own-text", query="preset=own")
    box = page.get_by_role("textbox", name="Your text")
    box.fill("<img src=x onerror=alert(1)> chai chai chaiwala <b>poha</b>")
    box.press("Control+Enter")
    settle(page, no_errors=True)
    page.get_by_role("heading", name=re.compile(r"Before merge 1 of \d+")).wait_for()
    assert main_area(page).locator("img[onerror], img[src='x'], b").count() == 0
    expect(main_area(page).locator(".tl-word-label", has_text="<img")).to_have_count(2)  # a word of both corpora
    expect(main_area(page).locator(".tl-word-label", has_text="<b>poha</b>")).to_have_count(2)
    expect(page).to_have_url(re.compile(r"[?&]text="))


def test_phone_width_cuts_nothing_off(open_page) -> None:
    for query, name, seen in (("step=1", "family-phone-merges", ".tl-merge"),
                              ("part=pipeline", "family-phone-pipeline", ".tl-chip")):
        page = open_page(URL, f"{name}-first", query=query, size="phone")
        settle(page, no_errors=True)
        main_area(page).locator(".tl-chips").first.wait_for()
        assert cut_off(page) == [], query
        if query == "step=1":
            expect(page.get_by_role("heading", name="Merge 1 of 7")).to_be_visible()
            expect(page.get_by_label("Merges", exact=True)).to_have_value("7")
            _charts_drawn(page, 2)
        main_area(page).locator(seen).first.scroll_into_view_if_needed()
        screenshot(page, name)
        page.close()


def test_large_type_on_a_projector(open_page) -> None:
    """At 1920x1080 in large type the step buttons, both merges and both charts are on the first screen."""
    page = open_page(URL, "family-projector-first", query="large=1&step=1", size="projector")
    settle(page, no_errors=True)
    _charts_drawn(page, 2)
    page.evaluate("window.scrollTo(0, 0); document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
    main = main_area(page)
    boxes = {
        "next": step_button(main, "Next").bounding_box(),
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
