"""Every server a test starts (the browser tests' Streamlit, scripts/serve's runs) starts on a free port through one
helper, tests.browser.browser_helpers.on_a_free_port: a port taken between finding it free and listening on it is a
second try on another port, not a failed test."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.serve import port_problem
from tests.browser.browser_helpers import PORT_TAKEN, PORT_TRIES, on_a_free_port


def _fake(log: Path, says: str, ports: list[int]):
    """A server whose first start exits saying ``says`` and whose later starts run until stopped."""

    def start(port: int) -> subprocess.Popen:
        ports.append(port)
        code = f"print({says!r}); raise SystemExit(1)" if len(ports) == 1 else "import time; time.sleep(60)"
        with open(log, "w", encoding="utf-8") as out:
            return subprocess.Popen([sys.executable, "-c", code], stdout=out, stderr=subprocess.STDOUT)

    return start


@pytest.mark.parametrize("says", ["Port 8501 is not available",  # Streamlit
                                  'nginx: [emerg] bind() to 127.0.0.1:8080 failed (98: Address already in use)'])
def test_a_server_whose_port_was_taken_starts_again_on_another(tmp_path: Path, says: str) -> None:
    log, ports = tmp_path / "server.log", []
    process, port = on_a_free_port(_fake(log, says, ports), lambda _: len(ports) == 2,
                                   lambda: log.read_text(encoding="utf-8"), what="server", timeout_s=30)
    try:
        assert process.poll() is None and ports[-1] == port and len(ports) == 2
    finally:
        process.kill()
        process.wait()


def test_scripts_serves_own_refusal_of_a_taken_port_is_known(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        problem = port_problem("127.0.0.1", taken.getsockname()[1], "--port")
    assert problem is not None and PORT_TAKEN.search(problem), problem


def test_any_other_exit_fails_and_a_given_port_is_tried_once(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with pytest.raises(pytest.fail.Exception, match="exited with code 1"):
        on_a_free_port(_fake(log, "Traceback: something else", []), lambda _: False,
                       lambda: log.read_text(encoding="utf-8"), what="server", timeout_s=30)
    ports: list[int] = []
    with pytest.raises(pytest.fail.Exception, match="is not available"):
        on_a_free_port(_fake(log, "Port 8501 is not available", ports), lambda _: False,
                       lambda: log.read_text(encoding="utf-8"), what="server", timeout_s=30, port=8501)
    assert ports == [8501] and PORT_TRIES > 1
