"""Journey: an engineer prices a prompt on a laptop and on a phone, changes a price and an exchange rate, and sends
the link: opened in a fresh browser, the link is the same view (the text, the models, the prices, the same bill).

Screenshots (LAB_SCREENSHOTS=1): journey-estimate-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.browser_helpers import cut_off, main_area, screenshot, settle, skip_without_browser
from views import estimate as ev

skip_without_browser()

PROMPT = "मेरा रिफ़ंड अभी तक नहीं आया। कृपया बताइए कि पैसा कब तक वापस मिलेगा?"
LABELS = ("Input tokens", "USD a request", "INR a request", "USD a month", "INR a month")


def bills(page) -> dict[str, list[str]]:
    """Every card's figures, by model card, as the reader sees them."""
    out = {}
    for key in ("gpt-4o", "gpt-4", "llama-3.3-70b"):
        card = main_area(page).locator(f".st-key-{ev.card_key(key)}")
        card.wait_for()
        out[key] = [card.locator('[data-testid="stMetric"]').filter(has_text=label).first
                    .locator('[data-testid="stMetricValue"]').inner_text() for label in LABELS]
    return out


def type_into(page, box, value: str, key: str = "Enter") -> None:
    box.fill(value)
    box.press(key)
    settle(page)


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_price_a_prompt_change_a_price_and_the_link_is_the_same_view(fresh_context, visit, size) -> None:
    page = visit(fresh_context(size), "Estimate")
    main = main_area(page)
    type_into(page, main.get_by_role("textbox", name="Your prompt or records"), PROMPT, "Control+Enter")
    before = bills(page)
    gpt4o = main.locator(f".st-key-{ev.card_key('gpt-4o')}")
    type_into(page, gpt4o.get_by_label("USD per 1M output tokens"), "12.5")
    expect(gpt4o).to_contain_text("your price (published")
    type_into(page, main.get_by_role("spinbutton", name="INR per USD"), "90")
    expect(page).to_have_url(re.compile(r"[?&]gpt-4o\.out=12\.5"))
    expect(page).to_have_url(re.compile(r"[?&]inr=90"))
    after = bills(page)
    assert after["gpt-4o"][0] == before["gpt-4o"][0]  # the same tokens
    assert after["gpt-4o"][3] != before["gpt-4o"][3]  # a dearer month
    assert cut_off(page) == []
    screenshot(page, f"journey-estimate-{size}-changed")
    link = page.url.split("/Estimate", 1)[1].lstrip("?")

    again = visit(fresh_context(size), "Estimate", link)
    expect(main_area(again).get_by_role("textbox", name="Your prompt or records")).to_have_value(PROMPT)
    assert bills(again) == after
    expect(main_area(again).locator(f".st-key-{ev.card_key('gpt-4o')}")).to_contain_text("your price (published")
    expect(main_area(again).get_by_role("spinbutton", name="INR per USD")).to_have_value("90.0000")
    screenshot(again, f"journey-estimate-{size}-reloaded")
