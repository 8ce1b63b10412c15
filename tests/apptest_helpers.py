"""AppTest helpers for page tests.

Usage in a page test::

    from tests.apptest_helpers import run_page      # or: from apptest_helpers import run_page

    def test_train_page_runs():
        at = run_page("pages/1_Train_step_by_step.py", query_params={"text": "aaabdaaabac"})
        at.button(key="run").click().run()
        assert at.session_state["merges_done"] == 3

Why pages are run through app.py
--------------------------------
`AppTest.from_file("pages/X.py")` would make the page the *entrypoint*: Streamlit
then resolves every `st.page_link("pages/...")` in the shared sidebar relative
to pages/ and the run fails with StreamlitPageNotFoundError. A real visitor's
session always has app.py as the entrypoint, so `run_page` does the same:
`AppTest.from_file(<root>/app.py)`, then `switch_page("pages/X.py")` before the
first run. For a page in the pages/ folder that lands directly on the page,
like a deep link on a fresh session (app.py's body does not run), and every
later `at.run()` reruns that page.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
ENTRYPOINT = "app.py"

# Pages import `ui` and `tokenizer` from the project root. `streamlit run` puts
# that folder on sys.path; under pytest we do it here.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def exception_messages(at: AppTest) -> list[str]:
    """The messages of all exception elements, with their last stack line."""
    out = []
    for exc in at.exception:
        where = exc.stack_trace[-1].strip() if exc.stack_trace else ""
        out.append(f"{exc.message}\n    at {where}")
    return out


def assert_no_exception(at: AppTest) -> None:
    """Fail with the page's exception messages if it showed any."""
    messages = exception_messages(at)
    assert not messages, "the page raised:\n" + "\n".join(messages)


def run_page(
    relative_path: str,
    query_params: Mapping[str, Any] | None = None,
    session_state: Mapping[str, Any] | None = None,
    *,
    allow_exceptions: bool = False,
    timeout: float = 30,
) -> AppTest:
    """Run one page of the app in AppTest and return it.

    relative_path:    "app.py" or a file in pages/, relative to the project root
    query_params:     set before the first run, as if they were in the link
    session_state:    values put into st.session_state before the first run
    allow_exceptions: if False (default), fail when the page shows an exception

    Rerun with `at.run()` after changing widgets; check `assert_no_exception(at)`
    again if you need to.
    """
    if not (ROOT / relative_path).is_file():
        raise FileNotFoundError(f"no page at {ROOT / relative_path}")
    at = AppTest.from_file(ROOT / ENTRYPOINT, default_timeout=timeout)
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    for name, value in (session_state or {}).items():
        at.session_state[name] = value
    if Path(relative_path).as_posix() != ENTRYPOINT:
        at.switch_page(relative_path)
    at.run()
    if not allow_exceptions:
        assert_no_exception(at)
    return at


def main_text(at: AppTest) -> str:
    """All the markdown, captions, titles and alerts of the main area, joined.

    Handy for "does the page say X" checks without caring which element holds it.
    """
    parts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success", "error"):
        parts.extend(str(el.value) for el in at.main.get(kind))
    return "\n".join(parts)
