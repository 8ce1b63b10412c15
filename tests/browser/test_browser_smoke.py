"""Real-browser smoke test: every page by deep link on a fresh server (axe-core on each), the sidebar, large type.

Runs Streamlit as a subprocess and drives Debian's Chromium with Playwright
(see conftest.py). With LAB_SCREENSHOTS=1 screenshots land in artifacts/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.browser_helpers import (
    NO_PLACEHOLDERS,
    assert_no_exception,
    axe_serious,
    log_problems,
    main_area,
    screenshot,
    skip_without_browser,
    until,
    wait_for_streamlit,
)
from ui.layout import APP_NAME, PAGES, PageEntry, sections

skip_without_browser()


def _heading(entry: PageEntry) -> str:
    return APP_NAME if entry.path == "app.py" else entry.title


def _screenshot_name(entry: PageEntry) -> str:
    return "home" if entry.path == "app.py" else entry.url_path


# Inner pages first: the very first request the fresh server sees is the deep
# link /Train_step_by_step (a new browser session that never visited home).
DEEP_LINK_ORDER = [*PAGES[1:], PAGES[0]]


@pytest.mark.parametrize("entry", DEEP_LINK_ORDER, ids=[e.url_path or "home" for e in DEEP_LINK_ORDER])
def test_deep_link_opens_page(open_page, entry: PageEntry) -> None:
    """The page by its own address in a fresh session on a laptop: its heading and title, the sidebar, and nothing
    axe-core finds serious or critical in normal type (tests/browser/journeys/test_a11y.py's check, here where every
    page is already opened at that size)."""
    page = open_page(entry.url_path, _screenshot_name(entry), size="laptop")
    main = main_area(page)
    expect(main.get_by_role("heading", level=1)).to_have_text(_heading(entry))
    expect(page).to_have_title(re.compile(re.escape(_heading(entry))))

    # The sidebar: every registered page once, in order, under its section; no
    # Streamlit auto-generated page list.
    sidebar = page.locator('[data-testid="stSidebar"]')
    links = sidebar.locator('[data-testid="stPageLink"] a')
    expect(links).to_have_count(len(PAGES))
    texts = [t.strip() for t in links.all_inner_texts()]
    assert [t.endswith(e.title) for t, e in zip(texts, PAGES)] == [True] * len(PAGES), texts
    expect(page.locator('[data-testid="stSidebarNav"]')).to_have_count(0)
    for name, _ in sections():
        expect(sidebar.get_by_text(name.upper(), exact=True)).to_be_visible()

    until(page, NO_PLACEHOLDERS)  # every element drawn: axe reads the page as a learner sees it
    found = axe_serious(page)
    assert not found, f"axe-core on {entry.title}, normal type: {len(found)} serious or critical\n" + "\n".join(found)


def test_sidebar_link_navigates(open_page) -> None:
    page = open_page("", "nav-before-click")
    target = PAGES[2]
    page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"] a').filter(
        has_text=target.title
    ).click()
    expect(page).to_have_url(re.compile(rf"/{target.url_path}/?$"))
    expect(main_area(page).get_by_role("heading", level=1)).to_have_text(
        target.title
    )
    wait_for_streamlit(page)
    assert_no_exception(page)

    # and back home through the sidebar
    page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"] a').filter(
        has_text="Home"
    ).click()
    expect(main_area(page).get_by_role("heading", level=1)).to_have_text(
        APP_NAME
    )
    wait_for_streamlit(page)
    assert_no_exception(page)


def _body_font_px(page) -> float:
    return page.evaluate(
        """() => parseFloat(getComputedStyle(
            document.querySelector('[data-testid="stMain"] [data-testid="stMarkdownContainer"] p')
        ).fontSize)"""
    )


def test_large_type_toggle_persists_and_is_in_the_url(open_page) -> None:
    page = open_page("", "home")
    normal = _body_font_px(page)

    page.locator('[data-testid="stSidebar"]').get_by_text("Large type (classroom)").click()
    expect(page).to_have_url(re.compile(r"[?&]large=1"))
    until(page, f"() => parseFloat(getComputedStyle(document.querySelector("
                           f"'[data-testid=\"stMain\"] [data-testid=\"stMarkdownContainer\"] p')).fontSize) > {normal}")
    wait_for_streamlit(page)
    large = _body_font_px(page)
    assert large >= normal * 1.2, (normal, large)
    screenshot(page, "home-large-type")

    # Another page through the sidebar: still large, still in the URL.
    target = PAGES[1]
    page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"] a').filter(
        has_text=target.title
    ).click()
    expect(main_area(page).get_by_role("heading", level=1)).to_have_text(
        target.title
    )
    wait_for_streamlit(page)
    expect(page).to_have_url(re.compile(rf"/{target.url_path}\?large=1$"))
    expect(page.locator('[data-testid="stSidebar"] [role="switch"], [data-testid="stSidebar"] input[type="checkbox"]').first).to_be_checked()
    assert_no_exception(page)
    screenshot(page, f"{target.url_path}-large-type")


def test_shared_large_type_link_opens_large(open_page) -> None:
    page = open_page(PAGES[-1].url_path, "shared-link-large", query="large=1")
    expect(page.locator('[data-testid="stSidebar"] input[type="checkbox"]').first).to_be_checked()
    expect(page).to_have_url(re.compile(r"\?large=1$"))


def test_server_log_is_clean(streamlit_server) -> None:
    """The whole log so far, the server's start included (each test's own part is checked after it by the
    ``server_log_stays_clean`` fixture, tests/browser/conftest.py)."""
    bad = log_problems(streamlit_server.log())
    assert not bad, "server log has warnings or errors:\n" + "\n".join(bad)


def test_a_server_whose_port_was_taken_starts_on_another(tmp_path, monkeypatch) -> None:
    """free_port found a port free, something else listened on it before Streamlit could: running_server starts the
    lab again on another port, its own (never reporting the other listener's health check as the lab's)."""
    import socket

    from tests.browser import browser_helpers

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    given: list[int] = []
    real = browser_helpers.free_port

    def free_port() -> int:
        given.append(real() if given else taken.getsockname()[1])
        return given[-1]

    monkeypatch.setattr(browser_helpers, "free_port", free_port)
    try:
        with browser_helpers.running_server(tmp_path / "server.log") as server:
            assert len(given) == 2 and server.base_url == f"http://127.0.0.1:{given[1]}"  # tried again, on another
            assert server.process.poll() is None and f"127.0.0.1:{given[1]}" in server.log()
    finally:
        taken.close()
