"""The browser tests' server-log check (tests/browser/conftest.py, ``server_log_stays_clean``): it reads only what
the server wrote during one test, and finds what a failing page leaves in Streamlit's log. No browser needed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.browser.browser_helpers import StreamlitServer, log_problems

STARTUP = """2026-12-01 22:32:20.893 Uvicorn server started on 127.0.0.1:54569

  You can now view your Streamlit app in your browser.

  URL: http://127.0.0.1:54569

"""
# What Streamlit 1.67 logs when a page raises (its "Uncaught app exception" and the traceback).
UNCAUGHT = """2026-12-01 22:40:01.120 Uncaught app exception
Traceback (most recent call last):
  File "/repo/.venv/lib/python3.11/site-packages/streamlit/runtime/scriptrunner/exec_code.py", line 128, in exec_func_with_error_handling
    result = func()
  File "/repo/pages/7_Streaming.py", line 12, in <module>
    raise KeyError("step")
KeyError: 'step'
"""


def test_a_clean_log_has_no_problems() -> None:
    assert log_problems(STARTUP) == []
    assert log_problems(STARTUP + "\n  Stopping...\n") == []


def test_an_uncaught_app_exception_is_found() -> None:
    problems = log_problems(STARTUP + UNCAUGHT)
    assert "2026-12-01 22:40:01.120 Uncaught app exception" in problems
    assert "Traceback (most recent call last):" in problems


def test_warnings_and_errors_are_found() -> None:
    lines = ["2026-12-01 22:41:00.000 Warning: to view this Streamlit app on a browser, run it with...",
             "2026-12-01 22:41:00.001 ERROR streamlit.runtime: something broke"]
    assert log_problems("\n".join(lines)) == lines


def test_only_what_was_logged_during_the_test_counts(tmp_path: Path) -> None:
    """A problem logged before the test started belongs to an earlier test; one logged during it fails this one."""
    log_path = tmp_path / "streamlit-server.log"
    log_path.write_text(STARTUP + UNCAUGHT, encoding="utf-8")
    server = StreamlitServer(base_url="http://127.0.0.1:1", log_path=log_path, process=subprocess.Popen(["true"]))
    server.process.wait()
    start = server.log_size()
    assert log_problems(server.log_since(start)) == []  # the earlier test's traceback is not this test's
    with open(log_path, "a", encoding="utf-8") as log:
        log.write("  A clean line the server may write\n")
    assert log_problems(server.log_since(start)) == []
    with open(log_path, "a", encoding="utf-8") as log:
        log.write(UNCAUGHT)
    assert log_problems(server.log_since(start))[0].endswith("Uncaught app exception")
