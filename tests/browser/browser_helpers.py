"""Helpers for the real-browser tests (used by conftest.py and the test modules).

Chromium is Debian's /usr/bin/chromium (apt-get install chromium fonts-noto-core);
we never run `playwright install`.
"""

from __future__ import annotations

import os
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("LAB_CHROMIUM", "/usr/bin/chromium"))  # LAB_CHROMIUM: to test the skip
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
VIEWPORT = {"width": 1280, "height": 1500}  # full_page stops at Streamlit's scroller
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT_S = 30
PAGE_TIMEOUT_MS = 20_000


def browser_skip_reason() -> str | None:
    """Why browser tests cannot run here, or None if they can."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (as root: apt-get install chromium fonts-noto-core)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -r requirements-dev.txt)"
    return None


def skip_without_browser() -> None:
    """Skip the browser tests on a developer machine without Chromium; in CI that is a failure."""
    reason = browser_skip_reason()
    if reason and os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests, but {reason}", pytrace=False)
    if reason:
        pytest.skip(f"browser tests skipped: {reason}", allow_module_level=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class StreamlitServer:
    base_url: str
    log_path: Path
    process: subprocess.Popen

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def wait_for_streamlit(page) -> None:
    """Wait until the app is connected, the script has finished and the main block shows.

    stApp carries data-test-script-state ("initial", "running", "notRunning").
    After a click that starts a run, first wait for something the new run draws,
    then call this.
    """
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', state="attached"
    )
    page.locator('[data-testid="stMainBlockContainer"]').wait_for(state="visible")
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')"""
    )


def assert_no_exception(page) -> None:
    exceptions = page.locator('[data-testid="stException"]')
    if exceptions.count():
        pytest.fail("the page shows an exception:\n" + "\n---\n".join(exceptions.all_inner_texts()))


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def uses_devanagari_font(page, selector: str) -> bool:
    """True when the browser draws the Devanagari in ``selector`` with a Devanagari-capable font
    (a missing font would give boxes: their width would equal a fallback .notdef glyph's)."""
    return page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel);
            if (!el) return false;
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = getComputedStyle(el).font;
            const ka = ctx.measureText('क').width, kha = ctx.measureText('ख').width;
            const missing = ctx.measureText('\\u{E0FFF}').width;  // a private-use code point: no glyph
            return ka > 0 && (ka !== missing || kha !== missing);
        }""",
        selector,
    )


DEFAULT_CUT_OFF = (".tl-chip", '[data-testid="stVegaLiteChart"]', ".tl-note")


def cut_off(page, *selectors: str) -> list[str]:
    """What sticks out past the window's right edge, described for a failure message: the page
    scrolling sideways, and any element in the main area matching ``selectors`` (by default chips,
    charts and notes) that ends past the edge or whose content is wider than itself (text cut off)."""
    return page.evaluate(
        """(sels) => {
            const out = [], right = window.innerWidth + 1;
            const main = document.querySelector('[data-testid="stMain"]');
            if (main && main.scrollWidth > main.clientWidth + 1) out.push('the page scrolls sideways: ' + main.scrollWidth);
            for (const sel of sels) {
                for (const el of document.querySelectorAll('[data-testid="stMain"] ' + sel)) {
                    const r = el.getBoundingClientRect();
                    if (r.width === 0) continue;
                    const name = el.getAttribute('aria-label') || sel;
                    if (r.right > right) out.push(name + ' ends at ' + Math.round(r.right) + ' > ' + window.innerWidth);
                    if (el.scrollWidth > el.clientWidth + 1) out.push(name + ' scrolls: ' + el.scrollWidth + ' > ' + el.clientWidth);
                }
            }
            return out;
        }""",
        list(selectors or DEFAULT_CUT_OFF),
    )
