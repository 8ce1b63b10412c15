"""A data grid in Hindi in a real browser (issue 28): Vocabulary by script's tokens-per-script grid shows its counts
grouped the Indian way (GPT-4o's Latin tokens as 1,34,834-style), keeps its percent column's own format, and a
click on a count column's header sorts by the number, not by the written text.

The grid draws its cells on a canvas: what a cell *shows* is read from a screenshot by the eye (LAB_SCREENSHOTS=1:
hindi-grid, hindi-grid-sorted); the test reads the order of the rows from the grid's accessibility table, which
holds the raw values of the rows in the order shown, and the Styler's display strings from the page's own data
(tests/test_page_vocabulary.py proves the display strings in AppTest).

Screenshots (LAB_SCREENSHOTS=1): hindi-grid, hindi-grid-sorted.
"""

from __future__ import annotations

from playwright.sync_api import expect

from i18n import number
from tests.browser.browser_helpers import (
    PAGE_TIMEOUT_MS,
    assert_no_exception,
    element_shot,
    skip_without_browser,
    until,
)

skip_without_browser()

HEADER_PX = 18  # the middle of the grid's header row, from the grid's top (Streamlit's 35 px header)


def _column(grid, column: int, columns: int) -> list[str]:
    cells = grid.locator("td").all_inner_texts()
    return cells[column::columns]


#: Whether the grid's accessibility table holds column ``column`` (of ``columns``) sorted (``descending`` or not):
#: a header click sorts in the browser, with no run of the app for :func:`settle` to wait for.
SORTED = """([grid, column, columns, descending]) => {
    const shown = [...grid.querySelectorAll('td')].map(td => td.innerText).filter((_, i) => i % columns === column)
        .filter(v => v).map(Number);
    return shown.length > 1 && shown.every((v, i) => !i || (descending ? shown[i - 1] >= v : shown[i - 1] <= v));
}"""


def test_the_hindi_grid_groups_counts_the_indian_way_and_sorts_them_as_numbers(open_page) -> None:
    page = open_page("Vocabulary_by_script", "hindi-grid-page", "lang=hi", size="laptop")
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    expect(grid.locator("th").first).to_have_text("प्रकार", timeout=PAGE_TIMEOUT_MS)  # the grid draws after the page
    headers = grid.locator("th").all_inner_texts()
    assert headers[0] == "प्रकार" and headers[1].startswith("GPT-4o")
    element_shot(grid, "hindi-grid")
    shown = [int(v) for v in _column(grid, 1, len(headers)) if v]
    assert max(shown) >= 100_000 and shown != sorted(shown, reverse=True)  # by script, not yet by size

    # the header is drawn on the canvas too (the accessibility table lays out no boxes): the first count column
    # starts after the kind's, about an eighth of the grid's width at a laptop's size, and is about a fifth wide
    box = grid.bounding_box()
    assert box is not None
    x = box["x"] + 0.2 * box["width"]
    for descending in (False, True):  # ascending, then descending: each click's order drawn before the next click
        page.mouse.click(x, box["y"] + HEADER_PX)
        try:
            until(page, SORTED, arg=[grid.element_handle(), 1, len(headers), descending],
                                   timeout=PAGE_TIMEOUT_MS)
        except Exception:  # noqa: BLE001 - the assertions below say what the grid shows
            pass
    ordered = [int(v) for v in _column(grid, 1, len(headers)) if v]
    element_shot(grid, "hindi-grid-sorted")
    # by the number, largest first (the grid holds only the rows in view in its table, so these are the top ones)
    assert len(ordered) >= 5 and ordered[0] == max(shown) and ordered == sorted(ordered, reverse=True)
    written = [number(n, "hi") for n in ordered]
    assert written != sorted(written, reverse=True)  # as text "962" would come before "1,34,834": a real check
    assert_no_exception(page)
