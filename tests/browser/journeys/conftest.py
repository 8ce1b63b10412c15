"""Journeys: what a person does across pages in one browser session, at the sizes people use.

The page tests beside this folder open one page at a time. A journey walks several: follow a
lesson's link after changing that page, answer, save, reload in a fresh browser, load. Every test
in this folder is marked ``journey`` (``scripts/test -m journey`` runs only these). They share the
browser tests' one Streamlit server and one Playwright, and add:

  browser          one headless Chromium (session-scoped) for fresh, non-persistent contexts
  fresh_context    fresh_context(size="laptop") -> a new browser context: a new browser session,
                   nothing kept from another test; sizes in SIZES; closed after the test
  visit            visit(context, url_path, query="") -> a page opened and settled, no exception
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.browser.browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PAGE_TIMEOUT_MS,
    RUN_WATCH,
    SIZES,
    StreamlitServer,
    assert_no_exception,
    skip_without_browser,
    wait_for_streamlit,
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "/journeys/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.journey)


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest):
    skip_without_browser()
    pw = request.getfixturevalue("playwright_driver")
    chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture()
def fresh_context(browser) -> Iterator[Callable]:
    made = []

    def _new(size: str = "laptop"):
        context = browser.new_context(accept_downloads=True, **SIZES[size])
        context.add_init_script(RUN_WATCH)  # settle() waits for the run an action started
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        made.append(context)
        return context

    yield _new
    for context in made:
        context.close()


@pytest.fixture()
def visit(streamlit_server: StreamlitServer) -> Callable:
    def _visit(context, url_path: str, query: str = ""):
        page = context.pages[0] if context.pages else context.new_page()
        url = f"{streamlit_server.base_url}/{url_path.lstrip('/')}" + (f"?{query.lstrip('?')}" if query else "")
        page.goto(url)
        wait_for_streamlit(page)
        assert_no_exception(page)
        return page

    return _visit
