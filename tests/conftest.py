"""Fixtures shared by the browser tests (tests/browser/), the classroom deployment's tests (test_serve.py) and the
class tests on PostgreSQL (tests/classroom/, test_page_class.py, the class journey)."""

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


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway PostgreSQL cluster for the run (tests/pg_cluster.py): ``.new_database()`` gives the URL of an
    empty database of one's own. Skipped without PostgreSQL's programs (failed in CI)."""
    from tests.pg_cluster import start_or_skip

    server = start_or_skip()
    yield server
    server.stop()
