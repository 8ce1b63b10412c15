"""Fixtures shared by the browser tests (tests/browser/) and the classroom deployment's tests (test_serve.py)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: runs against a live lab, a Streamlit server or scripts/serve, most "
                                       "with Chromium (tests/browser/, tests/test_serve.py): the slow part of the suite; "
                                       "scripts/test -m 'not browser' runs the rest")
    config.addinivalue_line("markers", "serve: starts scripts/serve (nginx and replicas) (tests/test_serve.py)")
    config.addinivalue_line("markers", "journey: a browser journey across pages (tests/browser/journeys)")


@pytest.fixture(scope="session")
def playwright_driver():
    """One Playwright for the whole run. Its sync API keeps an event loop running in this thread while it is
    open, so a second ``sync_playwright()`` in the same run fails ("Sync API inside the asyncio loop"): every
    test that drives Chromium launches it from this one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw
