"""Helpers for the real-browser tests (used by conftest.py and the test modules).

Chromium is Debian's /usr/bin/chromium (apt-get install chromium fonts-noto-core);
we never run `playwright install`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest

from deploy.serve import free_port, streamlit_cmd  # the fixtures' free port and command: one copy with scripts/serve
from ui.layout import SWIPE_KEY_PREFIX

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("LAB_CHROMIUM", "/usr/bin/chromium"))  # LAB_CHROMIUM: to test the skip
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
#: Screenshots are for people to look at, never compared: they are saved only with LAB_SCREENSHOTS=1.
SAVE_SCREENSHOTS = os.environ.get("LAB_SCREENSHOTS", "") not in ("", "0")
VIEWPORT = {"width": 1280, "height": 1500}  # full_page stops at Streamlit's scroller
#: The window sizes people use: a projector in large type, a laptop, a phone (``open_page(..., size=)``, journeys).
SIZES: dict[str, dict] = {
    "projector": {"viewport": {"width": 1920, "height": 1080}},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # V8 without its optimizing compilers (Maglev, Turbofan): a test's page lives seconds, and on every load they
    # compiled the app's hot functions again in the background, about a quarter of Chromium's CPU for the load.
    # Ignition and Sparkplug run the same code; measured on three journey files, on two workers, in one sitting:
    # 342 against 363-367 CPU-s with this alone, 318 with POLL_MS too.
    "--js-flags=--no-maglev --no-opt",
]
POLL_MS = 16
"""How often a test's wait in the page asks its condition (:func:`until`, the one way the tests wait for one), as
often as a frame. Playwright's default asks it in every animation frame, and asking for frames makes an idle tab draw them:
0.07-0.09 CPU-s a second in Chromium against 0.02 (measured on Bytes per character, large type), over the suite's
thousands of waits."""
SERVER_START_TIMEOUT_S = 120  # a ceiling, not a wait: two workers start theirs at once, on a busy machine
PAGE_TIMEOUT_MS = 20_000
#: A download's ceiling: the file is made on the server when the button is pressed (a loaded CI machine took over 20 s).
DOWNLOAD_MS = 60_000


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


@dataclass
class StreamlitServer:
    base_url: str
    log_path: Path
    process: subprocess.Popen

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def log_size(self) -> int:
        """Where the log ends now (bytes): what the server writes later starts there."""
        return self.log_path.stat().st_size

    def log_since(self, offset: int) -> str:
        """What the server has written to its log since ``offset`` (from :meth:`log_size`)."""
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", errors="replace")


def worker_log(path: Path) -> Path:
    """``path`` itself, or on pytest-xdist's worker gw0 the same name with ``-gw0`` added (``a/b.log`` ->
    ``a/b-gw0.log``): each worker starts its own servers (scripts/test runs several workers), each with its own log."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return path.with_name(f"{path.stem}-{worker}{path.suffix}") if worker else path


PORT_TAKEN = re.compile(r"is not available|is in use by another program|Address already in use")
"""What a server logs when a port it was given is taken, and it then exits: Streamlit's "is not available",
scripts/serve's check before it starts ("is in use by another program"), nginx's bind() ("Address already in use").
:func:`free_port` found the port free, but another process (another worker's server, another engineer's, a client
connection's ephemeral port) took it before the server could listen on it. :func:`on_a_free_port` then starts it again
on another port."""

PORT_TRIES = 3


def on_a_free_port(start: Callable[[int], subprocess.Popen], ready: Callable[[int], bool], log: Callable[[], str], *,
                   what: str, timeout_s: float, stop: Callable[[subprocess.Popen], None] | None = None,
                   port: int | None = None) -> tuple[subprocess.Popen, int]:
    """A server started on a free port (``start(port)``), once ``ready(port)``: its process and port. When it exits
    because a port was taken meanwhile (:data:`PORT_TAKEN` in ``log()``), it is started again on another free port,
    up to :data:`PORT_TRIES` times: the browser tests' servers and the scripts/serve tests' runs start so. Exiting for
    another reason, or not ready within ``timeout_s``, fails the test (after ``stop``, if given). A ``port`` given is
    the only one tried (a test that starts a server again on the port of the one before it)."""
    tries = 1 if port is not None else PORT_TRIES
    for attempt in range(1, tries + 1):
        at = port if port is not None else free_port()
        process = start(at)
        deadline = time.monotonic() + timeout_s
        while not ready(at):
            if process.poll() is not None:
                if PORT_TAKEN.search(log()) and attempt < tries:
                    break
                pytest.fail(f"{what} exited with code {process.returncode}:\n{log()}")
            if time.monotonic() > deadline:
                if stop is not None:
                    stop(process)
                pytest.fail(f"{what} was not ready in {timeout_s} s:\n{log()}")
            time.sleep(0.1)
        else:
            return process, at
    raise AssertionError("unreachable: the last try returns or fails")


@contextmanager
def running_server(log_path: Path, env: dict[str, str] | None = None) -> Iterator[StreamlitServer]:
    """A Streamlit server of the lab on a free port (``env``: more environment, such as ``LAB_DATABASE_URL``),
    healthy when given, stopped after. The shared ``streamlit_server`` fixture is one (one per pytest-xdist worker); the
    class journey starts a second one on PostgreSQL. Under pytest-xdist the log's name says the worker
    (:func:`worker_log`).

    Healthy is this server's own answer: its log says it listens on the port (a health check alone could be answered
    by whatever took the port after :func:`free_port` found it free); a port taken meanwhile (:data:`PORT_TAKEN`) is
    tried again on another, up to :data:`PORT_TRIES` times."""
    log_path = worker_log(log_path)
    # classes go to a fresh data folder, removed after (never the checkout's ./data), unless ``env`` says otherwise
    data_dir = tempfile.mkdtemp(prefix="lab-data-")
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", "LAB_DATA_DIR": data_dir, **(env or {})}
    started: list[subprocess.Popen] = []

    def start(port: int) -> subprocess.Popen:
        cmd = streamlit_cmd(port)  # the rest (no toolbar, usage statistics) from .streamlit/config.toml, as scripts/run
        with open(log_path, "w", encoding="utf-8") as log:
            started.append(subprocess.Popen(
                cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=full_env
            ))
        return started[-1]

    def log() -> str:
        return log_path.read_text(encoding="utf-8", errors="replace")

    try:
        process, port = on_a_free_port(start, partial(healthy, log), log, what="streamlit",
                                       timeout_s=SERVER_START_TIMEOUT_S)
        yield StreamlitServer(base_url=f"http://127.0.0.1:{port}", log_path=log_path, process=process)
    finally:
        process = started[-1] if started else None
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(data_dir, ignore_errors=True)


def healthy(log: Callable[[], str], port: int) -> bool:
    """Whether the server on ``port`` is this one and healthy: its log says it listens on the port (a health check
    alone could be answered by whatever took the port after :func:`free_port` found it free), and it answers its
    health check."""
    if f"127.0.0.1:{port}" not in log():
        return False
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as resp:
            return resp.status == 200
    except OSError:
        return False


#: A line of the server's log that means something went wrong: a traceback, Streamlit's "Uncaught app exception",
#: an error or a warning (a clean run logs none of these).
LOG_PROBLEM = re.compile(r"warning|error|traceback|exception", re.IGNORECASE)


def log_problems(log: str) -> list[str]:
    """The lines of a server log (or a part of one) that show something went wrong; [] for a clean log."""
    return [line for line in log.splitlines() if LOG_PROBLEM.search(line)]


NO_PLACEHOLDERS = """() => !document.querySelector('[data-testid="stSkeleton"]')"""
"""True once Streamlit's grey loading placeholders are gone: on a busy machine they can stay 2-5 s after a run,
and a check of the page's text or sizes made meanwhile measures nothing (and passes)."""


STREAMLIT_READY = """() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  if (!document.querySelector('[data-testid="stApp"][data-test-script-state="notRunning"]') || !main) return false;
  const box = main.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(main).visibility !== 'hidden'
    && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]') && (NO_PLACEHOLDERS)();
}""".replace("NO_PLACEHOLDERS", NO_PLACEHOLDERS)
"""True once the app is connected, the script has finished, the main block shows, Streamlit's running icon has gone
and no grey placeholder is left (:data:`NO_PLACEHOLDERS`): all at once."""


def until(page, predicate: str, **kwargs) -> None:
    """``page.wait_for_function(predicate, **kwargs)`` (every :data:`POLL_MS`), asked first as one evaluation: a
    condition that already holds (most of the time, in a test's waits for a page that has finished) costs one round
    trip to the tab, about 1 ms of CPU, where a wait costs 3-7 ms (measured on a warm tab: Playwright sets up a
    polling task in the page)."""
    try:
        holds = page.evaluate(predicate, kwargs.get("arg"))
    except Exception:  # noqa: BLE001 - a navigation meanwhile: the wait below outlives it
        holds = False
    if not holds:
        page.wait_for_function(predicate, **{"polling": POLL_MS, **kwargs})


def wait_for_streamlit(page) -> None:
    """Wait until the app is connected, the script has finished, the main block shows and no grey placeholder is
    left (:data:`STREAMLIT_READY`, one condition: four waits in turn cost 16 ms of CPU on a finished page).

    stApp carries data-test-script-state ("initial", "running", "notRunning").
    After a click that starts a run, first wait for something the new run draws,
    then call this.
    """
    until(page, STREAMLIT_READY)


def assert_no_exception(page) -> None:
    exceptions = page.locator('[data-testid="stException"]')
    if exceptions.count():
        pytest.fail("the page shows an exception:\n" + "\n---\n".join(exceptions.all_inner_texts()))


def screenshot(page, name: str, *, full_page: bool = False) -> Path | None:
    """Save artifacts/screenshots/<name>.png to look at, only with LAB_SCREENSHOTS=1 (nothing compares them); the
    path, or None when not saved."""
    if not SAVE_SCREENSHOTS:
        return None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def uses_devanagari_font(page, selector: str) -> bool:
    """True when the browser draws the Devanagari in ``selector`` with a Devanagari-capable font
    (a missing font would give boxes: their width would equal a fallback .notdef glyph's). Waits for the element
    first: a part drawn after the run's first paint is measured, not missed."""
    page.locator(selector).first.wait_for()
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


DEFAULT_CUT_OFF = (".tl-chip", ".tl-note", '[data-testid="stVegaLiteChart"]', '[data-testid="stDataFrame"]', "p",
                   '[data-testid="stWidgetLabel"]')


def cut_off(page, *selectors: str) -> list[str]:
    """What sticks out past the window's right edge, described for a failure message: the page
    scrolling sideways, and any element in the main area that ends past the edge: by default chips,
    notes, charts, tables, paragraphs and widget labels. Elements named in ``selectors`` must also not
    be wider inside than outside (their text cut off); a table scrolls inside by design, so the default
    check leaves that alone. Swipe panels (``ui.layout.swipe_columns``) scroll sideways by design on a phone: an
    element in one must end inside its panel, and each panel be no wider than the window."""
    return page.evaluate(
        """([sels, inner, swipe]) => {
            const out = [], right = window.innerWidth + 1;
            const main = document.querySelector('[data-testid="stMain"]');
            if (main && main.scrollWidth > main.clientWidth + 1) out.push('the page scrolls sideways: ' + main.scrollWidth);
            if (document.documentElement.scrollWidth > right) out.push('the window scrolls sideways');
            const SWIPE = '[class*="st-key-' + swipe + '"] [data-testid="stColumn"]';
            for (const panel of document.querySelectorAll('[data-testid="stMain"] ' + SWIPE)) {
                if (panel.getBoundingClientRect().width > window.innerWidth) out.push('a swipe panel is wider than the window');
            }
            for (const sel of sels) {
                for (const el of document.querySelectorAll('[data-testid="stMain"] ' + sel)) {
                    const r = el.getBoundingClientRect();
                    if (r.width === 0) continue;
                    const name = el.getAttribute('aria-label') || sel;
                    const panel = el.closest(SWIPE);
                    const edge = panel ? panel.getBoundingClientRect().right + 1 : right;
                    if (r.right > edge) out.push(name + ' ends at ' + Math.round(r.right) + ' > ' + (panel ? 'its panel ' + Math.round(edge - 1) : window.innerWidth));
                    if (inner && el.scrollWidth > el.clientWidth + 1) out.push(name + ' scrolls: ' + el.scrollWidth + ' > ' + el.clientWidth);
                }
            }
            return out;
        }""",
        [list(selectors or DEFAULT_CUT_OFF), bool(selectors), SWIPE_KEY_PREFIX],
    )


def charts_drawn(page, *, first_only: bool = False) -> None:
    """Wait until the run is over, no loading placeholder is left and the main area's charts are drawn (only the
    first with ``first_only``), the fonts loaded; fail on an exception."""
    wait_for_streamlit(page)  # no placeholders left either
    charts = main_area(page).locator('[data-testid="stVegaLiteChart"]').all()
    for chart in charts[:1] if first_only else charts:
        chart.locator("canvas, svg").first.wait_for(state="visible")
    page.evaluate("document.fonts.ready")
    assert_no_exception(page)


def key_class(key) -> str:
    """The CSS class Streamlit gives the element of a widget or container with ``key`` (a ``ui.state.Key``, or
    a prefix of one ending in "-"): ``.st-key-`` and the key with every character but letters, digits, ``_`` and
    ``-`` made ``-``, as Streamlit's frontend does."""
    import re

    skey = key if isinstance(key, str) else key.skey
    return ".st-key-" + re.sub(r"[^a-zA-Z0-9_-]", "-", skey.strip())


def main_area(page):
    """The page's main area (everything right of the sidebar)."""
    return page.locator('[data-testid="stMain"]')


def step_button(scope, name: str):
    """A step button (First, Previous, Next, Last...) in ``scope`` (a page or a locator). A button with a key
    (ui/steps.py KEYS) is named with it too, as a screen reader says it: "Next Shortcut PageDown"."""
    import re

    return scope.get_by_role("button", name=re.compile(rf"^{re.escape(name)}( Shortcut \S+)?$"))


PRESS_JS = r"""() => { const w = window.__tlWatch, now = performance.now();
  const named = (el) => {  // the element the last click landed on: its tag, its test id's holder, its words
    if (!el || !el.tagName) return '';
    const id = el.closest('[data-testid]'), words = (el.textContent || '').trim().replace(/\s+/g, ' ');
    return el.tagName.toLowerCase() + (id ? ' in ' + id.getAttribute('data-testid') : '')
      + (words ? ' "' + words.slice(0, 40) + '"' : '');
  };
  const app = document.querySelector('[data-testid="stApp"]');
  const said = [...document.querySelectorAll('[data-testid="stMain"] [role="alert"], [data-testid="stMain"] [role="status"]')]
    .filter(e => e.getClientRects().length).map(e => e.innerText.trim().replace(/\s+/g, ' ').slice(0, 160)).filter(Boolean);
  const folds = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stExpander"] details')]
    .map(d => ((d.querySelector('summary [data-testid="stMarkdownContainer"]') || d.querySelector('summary'))?.innerText || '')
      .trim().replace(/\s+/g, ' ').slice(0, 30) + (d.open ? ': open' : ': closed'));
  const before = w && w.beforeClick, ago = (t) => before && t ? Math.round(before.at - t) : null;
  const moved = before && {scrolled: ago(before.scrolled), shifted: ago(before.shifted), node: named(before.node),
                           scrolls: before.scrolls.map(([t, top]) => [ago(t), top]), y: before.y};
  return w && {clicked: named(w.target), moved, click: now - w.event, sent: now - w.sent, heard: now - w.heard,
               asked: now - w.asked, ticked: now - w.ticked, started: now - w.started, finished: now - w.finished,
               state: app && app.dataset.testScriptState, said, folds}; }"""


def press_report(page, pressed_at: float) -> str:
    """What the tab did since a press made ``pressed_at`` (time.monotonic()): whether it sent the server anything
    after the click and heard anything back, the script's state and the messages the page shows (a warning the
    press's own run drew: the class journey's Pose it now ran and posed nothing, twice in whole runs), for a lost
    press's warning (the cause of the presses that bring nothing under the whole suite's load is not found: each
    warning says where this one was lost)."""
    try:
        w = page.evaluate(PRESS_JS)
    except Exception as exc:  # noqa: BLE001 - a report must not fail the test it reports on
        return f"(no report: {exc.__class__.__name__})"
    if not w:
        return "(no report: the tab has no RUN_WATCH)"
    since = time.monotonic() - pressed_at
    after = {key: w[key] < since * 1000 for key in ("click", "sent", "asked", "ticked", "heard", "started", "finished")}
    asked = ("a run asked" if after["asked"] else "no run asked") + (", a timer's run asked" if after["ticked"] else "")
    click = "a click" if after["click"] else "no click"
    if after["click"]:  # where it landed, and whether the page had just moved under it (scrolled, or a layout shift)
        moved = w.get("moved") or {}
        at = f" at {moved['y']} px from the window's top" if moved else ""
        landed = [f"on {w['clicked']}{at}"] if w.get("clicked") else []
        if moved:
            landed.append("the page had not scrolled" if moved["scrolled"] is None
                          else f"the page last scrolled {moved['scrolled']} ms before it (to "
                          + ", ".join(f"{top} px {ago} ms" for ago, top in moved.get("scrolls") or []) + " before)")
            landed.append("its layout had not moved" if moved["shifted"] is None
                          else f"its layout last moved {moved['shifted']} ms before it"
                          + (f" ({moved['node']})" if moved["node"] else ""))
        click += f" ({'; '.join(landed)})" if landed else ""
    return (f"{since:.1f} s after the press: the browser saw {click}, the tab sent the "
            f"server {'something' if after['sent'] else 'nothing'} ({asked}), "
            f"heard {'something' if after['heard'] else 'nothing'} back (a run {'started' if after['started'] else 'not started'}, "
            f"{'finished' if after['finished'] else 'not finished'}); the script is {w['state']}"
            + (f"; the page says: {' | '.join(w['said'][:4])}" if w.get("said") else "; the page shows no message")
            + (f"; its expanders: {', '.join(w['folds'])}" if w.get("folds") else ""))


def _pressed_again(page, pressed_at: float, said: str) -> None:
    """The warning :func:`pressed` and :func:`downloaded` give before a second press: what the first one missed
    (``said``) and where it was lost (:func:`press_report`)."""
    warnings.warn(f"{said}; {press_report(page, pressed_at)}", stacklevel=3)


#: Arms a press inside an element for the moment the next run has ended and the page is drawn (before ui/viewport.py's
#: script, which waits for a result to stay put for three looks 80 ms apart, can bring it): what a learner does who
#: goes straight on with the step Next showed. ``window.__tlPressedAt`` is then the page's scroll at the press. With
#: ``icon``, Streamlit's running icon is still in the page's corner at the press (it goes one render after the run's
#: end, and a run that took over half a second shows it: a whole-suite run pressed in that moment).
_PRESS_WHEN_DRAWN = """([sel, icon]) => {
    const main = document.querySelector('[data-testid="stMain"]'), w = window.__tlWatch, before = w.finished;
    window.__tlPressedAt = undefined;
    const look = () => {
        const app = document.querySelector('[data-testid="stApp"]');
        const ran = w.finished > before && w.drawn >= w.finished && app
            && app.getAttribute('data-test-script-state') !== 'running';
        const el = ran && document.querySelector(sel);
        if (!el) return requestAnimationFrame(look);
        if (icon) {  // Streamlit's running icon, a moment longer than the run
            const running = document.body.appendChild(document.createElement('div'));
            running.setAttribute('data-testid', 'stStatusWidgetRunningIcon');
            setTimeout(() => running.remove(), 300);
        }
        el.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, cancelable: true, isPrimary: true}));
        window.__tlPressedAt = main.scrollTop;
    };
    requestAnimationFrame(look);
}"""


def press_inside_when_drawn(page, key: str, *, icon: bool = False) -> Callable[[], float]:
    """Before a click: a press inside the container keyed ``key`` (its first text, or itself) the moment the click's
    run has been drawn (:data:`_PRESS_WHEN_DRAWN`; ``icon``: with Streamlit's running icon still shown). Returns a
    function that waits for the press and gives the page's scroll at it."""
    where = key_class(key)
    page.evaluate(_PRESS_WHEN_DRAWN, [f"{where} [data-testid='stMarkdownContainer'], {where}", icon])
    return lambda: page.wait_for_function(
        "() => window.__tlPressedAt !== undefined && [window.__tlPressedAt]", polling=POLL_MS).json_value()[0]


_HOLD_MESSAGES = """(() => {
  const Native = window.WebSocket, held = [];
  window.__tlHold = false;
  window.__tlHeldRunEnd = false;  // whether what is held holds the end of a run (RUN_WATCH's script_finished)
  window.__tlHeldAt = 0;  // when the last message was held (performance.now())
  window.__tlRelease = () => {
    window.__tlHold = window.__tlHeldRunEnd = false;
    for (const [handler, socket, event] of held.splice(0)) handler.call(socket, event);
  };
  const holding = (handler) => function (event) {
    if (!window.__tlHold) return handler.call(this, event);
    held.push([handler, this, event]);
    window.__tlHeldAt = performance.now();
    if (window.__tlMessageKind && window.__tlMessageKind(event.data) === 6) window.__tlHeldRunEnd = true;
  };
  window.WebSocket = class extends Native {
    addEventListener(type, handler, options) {
      return super.addEventListener(type, type === 'message' ? holding(handler) : handler, options);
    }
    set onmessage(handler) { super.onmessage = handler && holding(handler); }
    get onmessage() { return super.onmessage; }
  };
})();"""


def hold_messages(context) -> None:
    """Let :func:`messages_held` hold what the server sends the context's tabs (an init script, after
    :data:`RUN_WATCH`'s: the context is not kept warm after the test)."""
    context.add_init_script(_HOLD_MESSAGES)


class Held:
    """What :func:`messages_held` gives the block."""

    def __init__(self, page) -> None:
        self.page = page

    def run_ended(self, quiet_ms: int = 300) -> None:
        """Wait until the server has sent the end of a run and nothing more for ``quiet_ms`` (a run queued behind
        another, such as a class bar's tick, has ended too), all held: the tab has not drawn it."""
        until(self.page, f"() => window.__tlHeldRunEnd && performance.now() - window.__tlHeldAt > {quiet_ms}",
              timeout=RUN_MS)


@contextmanager
def messages_held(page) -> Iterator[Held]:
    """What the server sends the tab while the block runs reaches it after the block, all in one task, as a busy tab
    or a slow network delivers it: a run's start, its elements and its end drawn in one render, so the app's run state
    is never "running" on the page; meanwhile the tab still shows what it showed before (:func:`hold_messages`
    first)."""
    page.evaluate("window.__tlHold = true")
    try:
        yield Held(page)
    finally:
        page.evaluate("window.__tlRelease()")


#: How long a press is given to make the tab ask the server for a run (a button or a link asks at once, whatever the
#: machine's load): a press that has asked for none by then was lost, and is made once more without waiting out what
#: it was to bring (a whole-suite run waited 120 s for a Next that had asked for nothing, on a replica just restarted).
ASK_MS = 5_000


def pressed(page, press: Callable[[], object], arrived: Callable[[], object], what: str) -> None:
    """``press()`` (a press that asks the server for a run: a button, a link, a choice), then ``arrived()`` waits for
    what it brings (with its own ceiling). A press a rerun swallowed (the page redrawn under the click) is made once
    more, and said in the summary as a warning (``what`` names the press), as :func:`downloaded` does: in a tab with
    :data:`RUN_WATCH`, one that asked for no run in :data:`ASK_MS`; else (and after a run was asked) one whose
    ``arrived()`` passed its ceiling with the address unchanged. A second miss, or a miss after the address moved, is
    raised."""
    before = page.url
    at = time.monotonic()
    mark = page_clock(page)
    press()
    if mark is not None and not _asked_since(page, mark) and page.url == before:
        missed = f"asked the server for no run in {ASK_MS // 1000} s"
    else:
        try:
            arrived()
            return
        except Exception:  # noqa: BLE001 - Playwright's timeout: once more where the press was lost, else raised
            if page.url != before:
                raise
        missed = "brought nothing in its time"
    _pressed_again(page, at, f"{what}: the first press {missed}, pressed once more")
    press()
    arrived()


def page_clock(page) -> float | None:
    """The page's ``performance.now()`` when it has :data:`RUN_WATCH` (None without it)."""
    try:
        return page.evaluate("() => window.__tlWatch ? performance.now() : null")
    except Exception:  # noqa: BLE001 - a page between two documents: no watch to read
        return None


def sent_since(page, mark: float) -> None:
    """Wait until the tab has sent the server anything since ``mark`` (its clock: :func:`page_clock`): a run asked for,
    a download's file. A press that starts no run (a download's) has then reached the server."""
    until(page, "(mark) => window.__tlWatch.sent > mark", arg=mark)


def drawn_since(page, mark: float, **kwargs) -> None:
    """Wait until a run has started since ``mark`` (the tab's clock: :func:`page_clock`) and the tab has drawn its end:
    after a reconnect, the page on screen is the new session's, not the old one's (``kwargs``: ``timeout``)."""
    until(page, "(m) => window.__tlWatch.started > m && window.__tlWatch.drawn >= window.__tlWatch.started",
          arg=mark, **kwargs)


def _asked_since(page, mark: float) -> bool:
    """Whether the tab has asked the server for a run since ``mark`` (its clock), given :data:`ASK_MS`; True when it
    cannot be told (the press opened another document, whose watch starts anew)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function("(mark) => !window.__tlWatch || window.__tlWatch.asked > mark", arg=mark,
                               timeout=ASK_MS, polling=50)
        return True
    except PlaywrightTimeout:
        return False
    except Exception:  # noqa: BLE001 - the page navigated meanwhile: not a press lost in this document
        return True


#: How long a download button's first press is given before it is pressed once more (:func:`downloaded`).
FIRST_PRESS_MS = 15_000


def downloaded(page, button, what: str):
    """Press ``button`` (a download button) and return the download. A first press that brings none in
    :data:`FIRST_PRESS_MS` is made once more, with up to :data:`DOWNLOAD_MS`, and said in the summary as a warning:
    in whole-suite runs (never alone) a press now and then brought no download in 60 s, on the class page (Save my
    progress, the class bar ticking) and on Tokenize anything (the CSV); the cause is not found, a learner would press
    again, and the warning keeps it in sight. A press whose download failed is made once more the same way (a
    gradebook's failed once: the report drawn again by a push had made Streamlit forget it, mended in
    views/classroom.py and tested on its own there). A button that is not on the page is a defect, never pressed
    again: the gradebook's had gone with the rest of the teacher's downloads (a push, mended in ui/push.py), and the
    warning says which folded boxes were open."""
    at = time.monotonic()
    try:
        with page.expect_download(timeout=FIRST_PRESS_MS) as info:
            button.click()
        failure = info.value.failure()  # once it has finished: None when the file came whole
        if failure is None:
            return info.value
        missed = f"brought a download that failed ({failure})"
    except Exception:  # noqa: BLE001 - Playwright's timeout: said, and pressed once more
        missed = f"brought no download in {FIRST_PRESS_MS // 1000} s"
    if not button.count():  # never drawn, or gone: nothing a learner could press again
        raise AssertionError(f"{what}: the button is not on the page; {press_report(page, at)}")
    _pressed_again(page, at, f"{what}: the first press {missed}, pressed once more")
    with page.expect_download(timeout=DOWNLOAD_MS) as info:
        button.click()
    return info.value


def still(page, *, quiet_ms: int = 400, timeout_ms: int = 10_000) -> None:
    """Wait until the page has stopped scrolling (ui/viewport.py brings a click's result into view once its run has
    settled): a click aimed at a button that is still moving lands on whatever scrolls under it."""
    page.wait_for_function(
        """(quiet) => {
            const main = document.querySelector('[data-testid="stMain"]');
            const now = main ? main.scrollTop : 0, t = performance.now();
            if (window.__tlScroll === undefined || window.__tlScroll.top !== now) window.__tlScroll = {top: now, since: t};
            return t - window.__tlScroll.since >= quiet;
        }""",
        arg=quiet_ms, timeout=timeout_ms, polling=100,
    )


QUIET_MS = 400
"""How long after an action (a click, a key, a typed value) that asks for no run :func:`settle` waits for one: timed by
the browser's own timer, set when the action happened, so it fires after every timer the app set for that action with
a shorter delay, however slow the machine. An action that starts no run (opening an expander or a list) costs this."""

RUN_WATCH = """
(() => {
  if (window.__tlWatch) return;
  // When (performance.now()) the last click, key or typed value happened (event); when the browser had handled it and
  // every timer of under QUIET_MS it set (quiet); when this tab last asked the server for a run (asked: an upload asks
  // for its addresses first, and ends in a run; a fragment's timer asking is ticked, not asked); when a run last
  // started and finished (started, finished), and the finish of the last run the page has drawn (drawn).
  const watch = window.__tlWatch = {event: 0, quiet: 0, asked: 0, ticked: 0, started: 0, finished: 0, drawn: 0, sent: 0,
                                    heard: 0, scrolled: 0, shifted: 0};
  let last = 0;
  // When the page last scrolled (any element: ui/viewport.py brings a result into view) and when its layout last
  // moved (Chromium's layout-shift entries, and the element that moved), kept as they were at the last click: a click
  // lands where its button was a moment before (PRESS_JS says both for a lost press).
  document.addEventListener('scroll', (e) => {
    watch.scrolled = performance.now();
    const top = e.target && e.target.scrollTop !== undefined ? e.target.scrollTop : document.scrollingElement.scrollTop;
    watch.scrolls = (watch.scrolls || []).slice(-3).concat([[watch.scrolled, Math.round(top)]]);  // the last four
  }, {capture: true, passive: true});
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        watch.shifted = e.startTime;
        watch.shiftedNode = (e.sources || []).map(source => source.node).find(Boolean) || null;
      }
    }).observe({type: 'layout-shift', buffered: true});
  } catch (e) { /* no Layout Instability API: the report says nothing moved */ }
  // What the last click landed on (the element, described only when a lost press's warning asks: PRESS_JS).
  for (const type of ['click', 'keydown', 'change', 'input']) {
    document.addEventListener(type, (e) => {
      if (type === 'click') {
        watch.target = e.target;
        watch.beforeClick = {scrolled: watch.scrolled, shifted: watch.shifted, node: watch.shiftedNode,
                             at: performance.now(), scrolls: watch.scrolls || [], y: Math.round(e.clientY)};
      }
      const mine = ++last;
      watch.event = performance.now();
      setTimeout(() => { if (last === mine) watch.quiet = performance.now(); }, QUIET_MS);
    }, {capture: true, passive: true});
  }
  // The tab and the server speak protobuf over one websocket. A BackMsg (tab -> server) starts with its one field:
  // 0x5a is rerun_script (field 11), 0x82 0x01 file_urls_request (field 16). A ForwardMsg (server -> tab) has a hash
  // (1) and metadata (2), then its one field: new_session (4) when a run starts, script_finished (6) when it ends.
  // The bytes of a message (a view, not a copy), and a reader of its protobuf fields from index i.
  const bytes = (data) => data instanceof ArrayBuffer ? new Uint8Array(data)
    : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
  const reader = (b, i) => ({
    i,
    varint() {
      let x = 0, s = 1, c;
      do { c = b[this.i++]; x += (c & 0x7f) * s; s *= 128; } while (c & 0x80);
      return x;
    },
    skip(wire) {  // past a field's value; false for a wire type Streamlit's messages do not use
      if (wire === 0) this.varint(); else if (wire === 2) { const n = this.varint(); this.i += n; }
      else if (wire === 1) this.i += 8; else if (wire === 5) this.i += 4; else return false;
      return true;
    },
  });
  const kind = (data) => {
    if (!(data instanceof ArrayBuffer)) return 0;
    const b = new Uint8Array(data), r = reader(b, 0);
    while (r.i < b.length) {
      const tag = r.varint(), field = Math.floor(tag / 8);
      if (field > 2) return field;
      if (!r.skip(tag % 8)) return 0;
    }
    return 0;
  };
  window.__tlMessageKind = kind;  // (tests that hold a tab's messages read what they hold: hold_messages)
  // A rerun_script BackMsg (0x5a, then its length) holds a ClientState: is_auto_rerun (field 6, a varint: tag 0x30)
  // is set when a fragment's timer asks for the run (run_every: the class bar, Autoplay), not a press or a key.
  const autoRerun = (data) => {
    const b = bytes(data);
    if (!b || b[0] !== 0x5a) return false;
    const r = reader(b, 1), length = r.varint(), end = Math.min(b.length, r.i + length);
    while (r.i < end) {
      const tag = r.varint();
      if (tag === 0x30) return r.varint() === 1;
      if (!r.skip(tag % 8)) return false;
    }
    return false;
  };
  window.__tlAutoRerun = autoRerun;  // (tests/browser/test_presses.py reads Streamlit's own messages with it)
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        watch.heard = performance.now();  // anything from the server (what a lost press's warning reports)
        const field = kind(e.data);
        if (field === 4) watch.started = performance.now();
        if (field !== 6) return;
        const finished = watch.finished = performance.now();
        // The app draws what it was sent in tasks of its own: a frame and a task later, the page is the run's.
        requestAnimationFrame(() => setTimeout(() => { if (watch.finished === finished) watch.drawn = finished; }));
      });
    }
    send(data) {
      watch.sent = performance.now();  // anything to the server: a run asked for, a download's file, a ping
      const b = bytes(data);
      // A run asked by the page (a press, a key, an upload's addresses), apart from a fragment timer's (ticked): a
      // press lost while the class bar ticks is then told from one that reached the server (pressed, ASK_MS).
      if (b && b.length && b[0] === 0x5a && autoRerun(data)) watch.ticked = performance.now();
      else if (b && b.length && (b[0] === 0x5a || (b[0] === 0x82 && b[1] === 0x01))) watch.asked = performance.now();
      return super.send(data);
    }
  };
})();
""".replace("QUIET_MS", str(QUIET_MS))
"""Installed in every test browser context (by :func:`watch`): when the last action happened, when the tab
last asked the server for a run, when a run last started and finished, so that :func:`settle` waits for the run the
action asked for, and only :data:`QUIET_MS` after an action that asked for none."""

NO_MOTION = """(() => {
  // Streamlit animates in script too (the Web Animations API): a folded box grows over 500 ms once opened, and again
  // whenever its content changes size meanwhile, its foot clipped until it ends. Each such animation ends at once.
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    return animate.call(this, keyframes, typeof options === 'object' && options ? {...options, duration: 0} : 0);
  };
  const style = document.createElement('style');
  style.textContent = '*, *::before, *::after { animation: none !important; transition: none !important; }';
  // An init script can run before the page has a root element: then the style goes in once the page is parsed,
  // before its deferred scripts (Streamlit's) run.
  const add = () => (document.head || document.documentElement).appendChild(style);
  if (document.documentElement) add(); else document.addEventListener('readystatechange', add, {once: true});
})()"""
"""Installed with :data:`RUN_WATCH`: no CSS animation or transition (Streamlit's: a running run's status, a stale
element's fade, a skeleton's shimmer; the lab draws none), and no animation made in script (a folded box opening: a
test presses a button in a box it has just opened, where a learner waits for the box to stop growing; the progress
journey's Start over, pressed so, was lost in a whole run). What a test measures is the page once drawn, never a
frame of its way there, and the frames cost Chromium about 7 % of a browser test's time (measured on the projector's
and the links' journeys, with and without, before the script-made animations were ended too: the README's Tests)."""


def watch(context) -> None:
    """Make a browser context the tests': :data:`RUN_WATCH` (what :func:`settle` waits for) and :data:`NO_MOTION`
    in every page it opens."""
    context.add_init_script(RUN_WATCH)
    context.add_init_script(NO_MOTION)

#: settle()'s condition: every run the tab asked for has started, the last one started has finished and been drawn,
#: and the action asked for one (or it is QUIET_MS old and nothing it set off asked).
RUN_DONE = """() => { const w = window.__tlWatch;
  return !w || (w.started >= w.asked && w.drawn >= w.started && (w.asked >= w.event || w.quiet > w.event)); }"""

SETTLED = f"""() => !!window.__tlWatch && ({RUN_DONE})() && ({STREAMLIT_READY})()
  && !document.querySelector('[data-testid="stException"]')"""
"""What :func:`settle` waits for, when it already holds: the tab watches its runs, the run the action asked for is done
and drawn, the page is ready, and it shows no exception."""

RUN_MS = 60_000
"""How long :func:`settle` waits for the run an action asked for (a page's first run on a cold, busy server can take
tens of seconds); then it goes on to wait for the page as :func:`wait_for_streamlit` does."""


def settle(page, *, no_errors: bool = False) -> None:
    """After a click, a key or a typed value: let the rerun start and finish, and fail on an exception (and, with
    ``no_errors``, on any error box).

    "Finished" alone raced on a busy machine: read before the action's run had started, the state still said
    "not running", and the test read the page of the run before (CI saw English vs Hindi's verdicts mid-run,
    Encode's chips and Cost's metrics from an earlier run). So first the run the action asked for: :data:`RUN_WATCH`
    sees the tab ask the server for it and the server say it started and finished, however long that takes; an action
    that asks for none costs :data:`QUIET_MS` (it cost a fixed 2 s before). A context without :data:`RUN_WATCH` falls
    back to a short pause."""
    try:
        done = page.evaluate(SETTLED)  # the usual case, asked in one round trip: the run done, drawn, no exception
    except Exception:  # noqa: BLE001 - a navigation meanwhile: waited for below
        done = False
    if done:
        if no_errors:
            no_error_boxes(page)
        return
    try:
        if page.evaluate("() => !!window.__tlWatch"):
            until(page, RUN_DONE, timeout=RUN_MS)
        else:
            page.wait_for_timeout(100)
    except Exception:  # noqa: BLE001 - a navigation meanwhile: the checks below wait for the new page
        pass
    wait_for_streamlit(page)
    assert_no_exception(page)
    if no_errors:
        no_error_boxes(page)


# -- what only a browser shows: checks shared by the page tests ------------------------------------
def element_shot(locator, name: str) -> None:
    """A screenshot of one element, only with LAB_SCREENSHOTS=1; the window grows to hold it (Chromium paints
    nothing outside the window)."""
    if not SAVE_SCREENSHOTS:
        return
    page = locator.page
    size = page.viewport_size
    locator.scroll_into_view_if_needed()
    height = locator.bounding_box()["height"]
    if height + 100 > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": int(height) + 200})
        wait_for_streamlit(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
    page.set_viewport_size(size)


#: axe-core's impacts that fail a page (its "moderate" and "minor" are left to people).
AXE_SERIOUS = ("serious", "critical")


def axe_serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, one line per node (axe-playwright-python
    bundles axe-core: nothing is downloaded).

    Nothing is excluded: every violation axe found was in the lab's markup or colours, and is fixed. Should
    Streamlit's own markup ever fail a rule the app cannot fix, leave out exactly that rule on that node
    here, with the reason."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    out = []
    for v in results["violations"]:
        if v["impact"] not in AXE_SERIOUS:
            continue
        for node in v["nodes"]:
            why = (node.get("failureSummary") or "").replace("\n", " ")
            out.append(f"{v['id']} ({v['impact']}): {node['html'][:160]} :: {why[:220]}")
    return out


def chart_text_cut(page) -> list[str]:
    """Text in a chart (labels, titles, legend) that runs past the chart's edges, where the browser clips it."""
    return page.evaluate(
        """() => {
            const out = [];
            for (const svg of document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')) {
                const box = svg.getBoundingClientRect();
                for (const t of svg.querySelectorAll('text')) {
                    const r = t.getBoundingClientRect();
                    if (r.width && (r.left < box.left - 1 || r.right > box.right + 1)) out.push(t.textContent);
                }
            }
            return out;
        }"""
    )


def no_error_boxes(page) -> None:
    assert_no_exception(page)
    errors = page.locator('[data-testid="stAlertContentError"]')
    assert errors.count() == 0, errors.all_inner_texts()


def missing_glyphs(page, texts: list[str]) -> list[str]:
    """The characters of ``texts`` the browser can only draw as an empty box: drawn in the chart's font, their
    pixels equal those of a private-use character no font has (the first font's .notdef glyph)."""
    return page.evaluate(
        """(texts) => {
            const font = '28px "Noto Sans","Noto Sans Devanagari",sans-serif';
            const draw = (ch) => {
                const c = document.createElement('canvas'); c.width = 48; c.height = 48;
                const ctx = c.getContext('2d'); ctx.font = font; ctx.fillStyle = '#000';
                ctx.fillText(ch, 4, 36);
                return ctx.getImageData(0, 0, 48, 48).data.join(',');
            };
            const box = draw('\\u{10FFFD}');
            const out = [];
            for (const t of texts) for (const ch of t) if (ch.trim() && draw(ch) === box) out.push(t + ': ' + ch);
            return out;
        }""",
        texts,
    )


def squeezed_labels(page) -> list[str]:
    """Widget labels broken one word or letter a line (far taller than a line or two)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stWidgetLabel"] p')]
              .filter(el => el.getBoundingClientRect().height > 2.6 * parseFloat(getComputedStyle(el).lineHeight || 20))
              .map(el => el.textContent)"""
    )


# -- tabs kept warm between tests ---------------------------------------------------------------------------------
LASTING = ("on", "once", "add_init_script", "route", "route_from_har", "route_web_socket", "expose_binding",
           "expose_function", "add_locator_handler", "set_extra_http_headers", "set_geolocation", "grant_permissions",
           "set_offline", "set_http_credentials", "emulate_media", "set_default_navigation_timeout")
"""What a test may do to a browser context or a tab that would outlast the test and that :class:`WarmTab` cannot undo:
a context or tab it was done to is closed after the test instead of kept for the next one."""


class WarmTab:
    """A browser tab kept open from one test to the next, in its own context (:class:`WarmContexts`) or in the shared
    one (``open_page``).

    Why: a page opened in a tab that has already shown the lab costs Chromium about half the CPU of one opened in a
    new tab (1.3-1.6 s against 2.8-3.4 s a visit, measured on Tokenize anything in large type), and the browser tests
    open several hundred. What the next test gets is what a new tab would give it: the tab is on about:blank (the
    test's Streamlit session has ended), with no history but that (Back from the test's first page goes there, not to
    another test's), no console messages or page errors, the size it was made with, no session storage; its
    context's cookies, permissions, local storage and IndexedDB cleared for every origin its tabs opened
    (``clear_storage``; the shared context of ``open_page`` keeps its cookies and local storage between tests, as it
    always has). Only the browser's cache of the lab's scripts and fonts is kept. A test that did
    something to the context or the tab that cannot be undone (:data:`LASTING`: an event handler, a route, an init
    script...) or closed either gets a new one: :meth:`reusable` says no."""

    def __init__(self, context, size: dict, *, own_context: bool, name: str = "") -> None:
        self.context, self.size, self.own_context, self.name = context, size, own_context, name
        self.spent: list[str] = []
        self.origins: set[str] = set()
        self.closed = False
        context.on("close", lambda _: setattr(self, "closed", True))
        self.tab = context.new_page()
        self._note_origins(self.tab)
        if own_context:
            context.on("page", self._note_origins)
            _note_lasting(context, self.spent)
        _note_lasting(self.tab, self.spent)

    def _note_origins(self, page) -> None:
        def seen(frame) -> None:
            url = frame.url
            if url.startswith(("http://", "https://")):
                self.origins.add("/".join(url.split("/", 3)[:3]))

        page.on("framenavigated", seen)

    def reusable(self) -> bool:
        return not (self.closed or self.spent or self.tab.is_closed())

    def reset(self, *, clear_storage: bool) -> None:
        """Leave the tab as a new one is (see the class), closing every other tab of an own context."""
        if self.own_context:
            for page in self.context.pages:
                if page != self.tab:
                    page.close()
        if self.tab.url.startswith(("http://", "https://")):
            self.tab.evaluate("() => { try { sessionStorage.clear(); } catch (e) {} }")
        self.tab.goto("about:blank")
        cdp = self.context.new_cdp_session(self.tab)
        try:
            cdp.send("Page.resetNavigationHistory")
            if clear_storage:
                for origin in self.origins:
                    cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        finally:
            cdp.detach()
        if clear_storage:
            self.origins.clear()
            self.context.clear_cookies()
            self.context.clear_permissions()
        self.context.set_default_timeout(PAGE_TIMEOUT_MS)
        self.tab.set_viewport_size(self.size)
        self.tab.clear_console_messages()
        self.tab.clear_page_errors()


def _note_lasting(obj, spent: list[str]) -> None:
    """Make ``obj`` (a Playwright context or page) add to ``spent`` the name of every :data:`LASTING` call made on it."""
    for name in LASTING:
        method = getattr(obj, name, None)
        if method is None:
            continue

        def noted(*args, _name=name, _method=method, **kwargs):
            spent.append(_name)
            return _method(*args, **kwargs)

        setattr(obj, name, noted)


class WarmContexts:
    """Browser contexts for ``fresh_context`` (tests/browser/journeys/conftest.py), each with one :class:`WarmTab`,
    kept per window size (SIZES) from one test to the next: a test gets a context no other test is using, emptied."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.free: dict[str, list[WarmTab]] = {size: [] for size in SIZES}

    def take(self, size: str):
        if self.free[size]:
            return self.free[size].pop()
        context = self.browser.new_context(accept_downloads=True, **SIZES[size])
        watch(context)  # settle() waits for the run an action started
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        return WarmTab(context, SIZES[size]["viewport"], own_context=True, name=size)

    def give_back(self, warm: WarmTab) -> None:
        if warm.reusable():
            try:
                warm.reset(clear_storage=True)
            except Exception:  # noqa: BLE001 - a context that cannot be emptied is not kept
                warm.spent.append("reset failed")
        if warm.reusable():
            self.free[warm.name].append(warm)
        elif not warm.closed:
            warm.context.close()

    def close(self) -> None:
        for warm in (w for tabs in self.free.values() for w in tabs):
            warm.context.close()


# -- a class in the browser (tests/browser/journeys/test_class*.py) --------------------------------------------------
CLASS_LIVE_MS = 15_000
"""How long a class's screens get to show a change: it is pushed at once, but a loaded 2-core machine runs four
screens at once."""


def open_in(context, server: StreamlitServer, url: str):
    """``url`` (a full address or a page's path) in the context's tab (a new one if it has none), drawn, no exception."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url if url.startswith("http") else f"{server.base_url}/{url.lstrip('/')}")
    wait_for_streamlit(page)
    assert_no_exception(page)
    return page


IN_SESSION = """(url) => {
  if (window.__tlWatch) window.__tlWatch.event = performance.now();
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}"""
"""Streamlit opens the address the browser's Back or Forward went to on the ``popstate`` event, in the tab's own
session: the page the address names, its query string as the run's query parameters. This goes to ``url`` (a
page's path and query) that way."""


def open_in_session(page, url: str) -> None:
    """``url`` (a page's path and query) opened in the tab's own Streamlit session (:data:`IN_SESSION`), drawn, no
    exception: what following a lesson's link in a class does, without a new page load. A new load in a warm tab
    costs Chromium and the server about 1.5 CPU-s; this about 0.3 (measured on the projector's slides, one after
    another; the 72 slides drew the same text either way)."""
    mark = page.evaluate("() => performance.now()")
    page.evaluate(IN_SESSION, url)
    if not _asked_since(page, mark):  # Streamlit's handler asks for the run at once
        pytest.fail(f"{url}, opened in the session: the tab asked the server for no run in {ASK_MS // 1000} s")
    settle(page)
    path, _, query = url.partition("?")
    shown = urllib.parse.urlsplit(page.url)
    assert shown.path.endswith(path) and set(urllib.parse.parse_qsl(query)) <= set(urllib.parse.parse_qsl(shown.query)), (
        f"opened {url} in the session, but the address is {page.url}")


def class_bar(page):
    """The class bar above every page in a class."""
    return page.locator(".st-key-class-bar")


#: The join form's labels a learner reads, by language: the class code, their name, the button.
JOIN_LABELS = {"en": ("Class code", "Your name", "Join"), "hi": ("कक्षा कोड", "आपका नाम", "शामिल होइए")}


def join_class(page, name: str, code: str, lang: str = "en") -> None:
    """A learner joins from the learner link (the page open at it): its code is in the box already; the name, then
    Join, found by their labels in ``lang``."""
    from playwright.sync_api import expect

    code_label, name_label, join = JOIN_LABELS[lang]
    expect(main_area(page).get_by_role("textbox", name=code_label).first).to_have_value(code)
    main_area(page).get_by_role("textbox", name=name_label).fill(name)
    main_area(page).get_by_role("button", name=join, exact=True).click()
    settle(page)


def sidebar_to(page, url_path: str) -> None:
    """To the page at ``url_path`` by the sidebar's link, as a learner moves in one session (a new page load would
    start a new one); the sidebar opened first where it is closed (classroom mode, a phone)."""
    if page.get_by_test_id("stExpandSidebarButton").is_visible():
        page.get_by_test_id("stExpandSidebarButton").click()
    page.locator(f'[data-testid="stSidebar"] a[href^="{url_path}"]').first.click()
    page.wait_for_url(re.compile(f"/{url_path}"))
    settle(page)
