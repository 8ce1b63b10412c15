"""Browser fixtures: a real Streamlit server and Debian's Chromium via Playwright.

Tests in tests/browser/ get:
  streamlit_server  the running app (session-scoped): .base_url, .log_path, .log()
  browser_context   one headless Chromium context (session-scoped), viewport 1280x1500
  open_page         open_page(url_path, screenshot_name, query="", size=None) -> Playwright page,
                    in a tab of its own (at SIZES[size]'s window size if given; the test's first one kept
                    warm from the test before, emptied: browser_helpers.WarmTab), loaded, checked for
                    exceptions, screenshot saved (with LAB_SCREENSHOTS=1)

After every test that used the server (journeys too), what the server logged during the test is
checked: a traceback, an "Uncaught app exception", an error or a warning fails the test.

Helpers (wait_for_streamlit, assert_no_exception, screenshot, browser_skip_reason, log_problems)
live in browser_helpers.py. Without /usr/bin/chromium or the playwright package,
every browser test is skipped with the reason.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator

import pytest

from tests.browser.browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PAGE_TIMEOUT_MS,
    ROOT,
    SIZES,
    VIEWPORT,
    StreamlitServer,
    WarmTab,
    assert_no_exception,
    log_problems,
    running_server,
    screenshot,
    skip_without_browser,
    wait_for_streamlit,
    watch,
)
from ui.keep import COOKIE


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test in this folder (journeys too) is marked ``browser``: ``-m "not browser"`` leaves them out."""
    for item in items:
        if "tests/browser/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def streamlit_server() -> Iterator[StreamlitServer]:
    skip_without_browser()
    log_dir = ROOT / "artifacts"
    log_dir.mkdir(parents=True, exist_ok=True)
    with running_server(log_dir / "streamlit-server.log") as server:
        yield server


@pytest.fixture(autouse=True)
def server_log_stays_clean(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test when the shared server logged a problem while it ran (every browser test, journeys too: a
    check at the end of one file would miss the files that sort after it)."""
    if "streamlit_server" not in request.fixturenames:
        yield
        return
    server: StreamlitServer = request.getfixturevalue("streamlit_server")
    start = server.log_size()
    yield
    problems = log_problems(server.log_since(start))
    if problems:
        pytest.fail("the server logged problems during this test:\n" + "\n".join(problems), pytrace=False)


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest):
    skip_without_browser()
    pw = request.getfixturevalue("playwright_driver")  # tests/conftest.py; only once Chromium is there
    profile = tmp_path_factory.mktemp("chromium-profile")
    context = pw.chromium.launch_persistent_context(
        str(profile),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=VIEWPORT,
    )
    watch(context)  # settle() waits for the run an action started
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    try:
        yield context
    finally:
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def warm_tab() -> list[WarmTab]:
    """The tab open_page opens first in a test, kept open from test to test (browser_helpers.WarmTab): [] or [tab]."""
    return []


@pytest.fixture()
def open_page(streamlit_server: StreamlitServer, browser_context, warm_tab: list[WarmTab]) -> Iterator[Callable]:
    """open_page(url_path, name, query="", size=None) opens base_url/url_path?query in a tab of its own (at the
    window size of SIZES[size]: "projector", "laptop", "phone"), waits for the run to finish, fails on any
    exception element, saves artifacts/screenshots/<name>.png (with LAB_SCREENSHOTS=1) and returns the
    Playwright page. The first tab of a test is one kept from the test before, emptied as a new tab is
    (browser_helpers.WarmTab: it opens a page for about half the CPU); the others are new, closed after the test."""
    opened = []
    used: list[WarmTab] = []

    def _open(url_path: str, name: str, query: str = "", size: str | None = None):
        # The one context is a browser other tests have used: what it keeps of a learner's answers (ui/keep.py) is not
        # read back into this tab, which starts as a fresh visit does (the progress journey tests the keeping).
        browser_context.clear_cookies(name=COOKIE)
        if not used:
            if not warm_tab or not warm_tab[0].reusable():
                warm_tab[:] = [WarmTab(browser_context, VIEWPORT, own_context=False)]
            used.append(warm_tab[0])
            page = warm_tab[0].tab
        else:
            page = browser_context.new_page()
            opened.append(page)
        if size:
            page.set_viewport_size(SIZES[size]["viewport"])
        url = f"{streamlit_server.base_url}/{url_path.lstrip('/')}"
        if query:
            url += "?" + query.lstrip("?")
        page.goto(url)
        wait_for_streamlit(page)
        assert_no_exception(page)
        page.evaluate("document.fonts.ready")  # icons and Devanagari drawn before the shot
        screenshot(page, name)
        return page

    yield _open
    for page in opened:
        page.close()
    for warm in used:
        if warm.reusable():
            try:
                warm.reset(clear_storage=False)
            except Exception:  # noqa: BLE001 - a tab that cannot be emptied is not kept
                warm.spent.append("reset failed")
        if not warm.reusable():
            if not warm.tab.is_closed():
                warm.tab.close()
            warm_tab.clear()
