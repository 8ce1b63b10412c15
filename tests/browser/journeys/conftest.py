"""Journeys: what a person does across pages in one browser session, at the sizes people use.

The page tests beside this folder open one page at a time. A journey walks several: follow a
lesson's link after changing that page, answer, save, reload in a fresh browser, load. Every test
in this folder is marked ``journey`` (``scripts/test -m journey`` runs only these). They share the
browser tests' one Streamlit server and one Playwright, and add:

  browser          one headless Chromium (session-scoped) for fresh, non-persistent contexts
  fresh_context    fresh_context(size="laptop") -> a browser context of the test's own: a new browser
                   session (every page it opens is a new Streamlit session), nothing kept from another
                   test but the browser's cache of the lab's scripts and fonts (its one tab is kept warm
                   from test to test: browser_helpers.WarmTab); sizes in SIZES
  visit            visit(context, url_path, query="") -> a page opened and settled, no exception
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.browser.browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    StreamlitServer,
    WarmContexts,
    open_in,
    skip_without_browser,
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


@pytest.fixture(scope="session")
def warm_contexts(browser) -> Iterator[WarmContexts]:
    contexts = WarmContexts(browser)
    yield contexts
    contexts.close()


@pytest.fixture()
def fresh_context(warm_contexts: WarmContexts) -> Iterator[Callable]:
    taken = []

    def _new(size: str = "laptop"):
        warm = warm_contexts.take(size)
        taken.append(warm)
        return warm.context

    yield _new
    for warm in taken:
        warm_contexts.give_back(warm)


@pytest.fixture()
def visit(streamlit_server: StreamlitServer) -> Callable:
    def _visit(context, url_path: str, query: str = ""):
        return open_in(context, streamlit_server, url_path + (f"?{query.lstrip('?')}" if query else ""))

    return _visit
