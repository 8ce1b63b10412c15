"""Fixtures shared by the browser tests (tests/browser/), the classroom deployment's tests (test_serve.py) and the
class tests on PostgreSQL (tests/classroom/, test_page_class.py, the class journey)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Where a failure's whole message is kept when its report is shortened (:func:`pytest_runtest_makereport`).
FAILURES = Path(__file__).resolve().parent.parent / "artifacts" / "failures"
#: How many lines of a page's aria snapshot a failure's report keeps (the sidebar left out).
SNAPSHOT_LINES = 40


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: runs against a live lab, a Streamlit server or scripts/serve, most "
                                       "with Chromium (tests/browser/, tests/test_serve.py): the slow part of the suite; "
                                       "scripts/test -m 'not browser' runs the rest")
    config.addinivalue_line("markers", "serve: starts scripts/serve (nginx and replicas) (tests/test_serve.py)")
    config.addinivalue_line("markers", "journey: a browser journey across pages (tests/browser/journeys)")
    # pytest-xdist registers its mark itself; with -p no:xdist (one process) the groups below are merely unused
    config.addinivalue_line("markers", "xdist_group(name): tests that share a server their module starts (one worker)")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """scripts/test runs the suite on several workers (pytest-xdist, ``--dist loadgroup``): each worker has its own
    session, so its own Streamlit server, Chromium and PostgreSQL cluster, and takes the next test when it is free. A
    server that a test module starts for itself (a module-scoped fixture of that module: scripts/serve in
    test_serve.py, the class journey's lab on PostgreSQL) would start again on every worker that ran one of the tests
    sharing it, and test_serve's share it in their order (SIGTERM last): those tests go to one worker together, in the
    file's order."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        module = item.nodeid.split("::")[0]
        if info is None or not any(
            fixture.scope == "module" and fixture.baseid == module
            for name in info.names_closure for fixture in info.name2fixturedefs.get(name, ())
        ):
            continue
        if "tests/browser/" in item.nodeid or item.get_closest_marker("browser"):  # the ones that start servers
            item.add_marker(pytest.mark.xdist_group(module))


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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A failed Playwright expectation's report without most of the page's aria snapshot, which can run to hundreds of
    lines: CI shows the end of the output, and the class journey's failure there showed the snapshot's tail and
    neither the line that failed nor its error. The report keeps the error, the call log and the main area's first
    :data:`SNAPSHOT_LINES` lines; the whole message goes to artifacts/failures/."""
    if call.excinfo is not None and isinstance(call.excinfo.value, AssertionError):
        exc = call.excinfo.value
        message = str(exc)
        short = shortened(message)
        if short != message:
            FAILURES.mkdir(parents=True, exist_ok=True)
            kept = FAILURES / (re.sub(r"[^\w.-]+", "_", item.nodeid)[-150:] + ".txt")
            kept.write_text(message, encoding="utf-8")
            exc.args = (f"{short}\n(the whole message: {kept.relative_to(FAILURES.parent.parent)})",)
    yield


def shortened(message: str) -> str:
    """``message`` with its "Aria snapshot:" part cut to the main area's first :data:`SNAPSHOT_LINES` lines."""
    head, found, snapshot = message.partition("\nAria snapshot:")
    if not found:
        return message
    lines, in_sidebar = [], False
    for line in snapshot.splitlines():
        if line and not line.startswith(" "):  # a top-level region
            in_sidebar = line.startswith('- region "Sidebar"')
        if line.strip() and not in_sidebar:
            lines.append(line)
    left = len(lines) - SNAPSHOT_LINES
    tail = [f"… {left} more lines of the snapshot left out"] if left > 0 else []
    return "\n".join([head + found + " (the sidebar left out)", *lines[:SNAPSHOT_LINES], *tail])
