"""scripts/serve: two replicas behind nginx, driven by two real Chromium sessions.

One server for the module (``scripts/serve --replicas 2`` on a free port, run
directory in a temp dir). The tests check what a classroom relies on:

- two learners, each on their own replica, each see their own state;
- new browsers take turns between the replicas, and keep theirs (a cookie);
- the websocket is upgraded through nginx and every request of a browser stays
  on its replica (nginx's access log names the replica of each request);
- static files come from nginx, gzip-compressed, cached for a year;
- a replica that dies is started again, and the learner's page comes back;
- SIGTERM stops nginx and every replica: no process of the run is left;
- SIGKILL too: within 10 s nothing listens and no process of the run is left
  (nginx's workers outlive their master: the reaper kills them), and a second
  scripts/serve on the same port starts (clearing what a killed one left, if
  its reaper was killed too);
- --run-dir: refused when not empty and not made by scripts/serve; a path with
  a space works; bad arguments are one line, exit 2, before anything starts;
- --database: every replica gets it (LAB_DATABASE_URL) and the schema is in place
  before the first learner; a bad URL or a server that is not there is one line,
  exit 2, before anything starts, without the password.

Needs nginx (Debian's package) and Chromium; without them the module is
skipped on a developer machine and fails in CI (CI set), like tests/browser/.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pytest

from deploy.serve import find_nginx, process_tree
from tests.browser.browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PAGE_TIMEOUT_MS,
    ROOT,
    VIEWPORT,
    browser_skip_reason,
    drawn_since,
    free_port,
    healthy,
    on_a_free_port,
    page_clock,
    pressed,
    wait_for_streamlit,
    watch,
)

# Each test starts scripts/serve or drives it: left out with the browser tests by `scripts/test -m "not browser"`.
pytestmark = [pytest.mark.serve, pytest.mark.browser]

READY_TIMEOUT_S = 90


def serve_skip_reason() -> str | None:
    if find_nginx() is None:
        return "nginx is missing (as root: apt-get install nginx)"
    return browser_skip_reason()


def _skip_or_fail() -> None:
    reason = serve_skip_reason()
    if reason and os.environ.get("CI"):
        pytest.fail(f"CI must run the scripts/serve tests, but {reason}", pytrace=False)
    if reason:
        pytest.skip(f"scripts/serve tests skipped: {reason}")


@dataclass
class Served:
    process: subprocess.Popen
    base_url: str
    run_dir: Path
    log_path: Path
    database: Path
    replica_pids: dict[str, int] = field(default_factory=dict)  # "replica-1" -> pid
    replica_addr: dict[str, str] = field(default_factory=dict)  # "replica-1" -> "127.0.0.1:port" (internal)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def access_log(self) -> list[dict[str, str]]:
        rows = []
        for line in (self.run_dir / "access.log").read_text(encoding="utf-8").splitlines():
            m = re.search(r'"(\S+) (\S+) [^"]*" (\d+) .* cookie=(\S*) replica=(\S*) ', line)
            if m:
                rows.append(dict(zip(("method", "path", "status", "cookie", "replica"), m.groups())))
        return rows


def _processes_of_run(run_dir: Path) -> list[int]:
    """Processes whose environment names this run (scripts/serve marks every child with LAB_SERVE_RUN)."""
    marker = f"LAB_SERVE_RUN={run_dir}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if marker in f.read().split(b"\0"):
                        found.append(int(entry))
            except OSError:
                pass
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _get(url: str, headers: dict[str, str] | None = None):
    req = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    _skip_or_fail()
    base = tmp_path_factory.mktemp("serve")
    run_dir, log_path = base / "run", base / "serve.log"
    env = {**os.environ, "LAB_PYTHON": sys.executable}
    started: list[subprocess.Popen] = []

    def start(port: int) -> subprocess.Popen:
        cmd = [str(ROOT / "scripts" / "serve"), "--replicas", "2", "--port", str(port), "--address", "127.0.0.1",
               "--run-dir", str(run_dir), "--no-warm-up", "--database", f"sqlite:///{base / 'classes.sqlite3'}"]
        with open(log_path, "w", encoding="utf-8") as log:
            started.append(subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=env))
        return started[-1]

    def log() -> str:
        return log_path.read_text(encoding="utf-8", errors="replace")

    try:
        process, port = on_a_free_port(start, lambda _: "scripts/serve: ready:" in log(), log, what="scripts/serve",
                                       timeout_s=READY_TIMEOUT_S)
        server = Served(process, f"http://127.0.0.1:{port}", run_dir, log_path, base / "classes.sqlite3")
        for index, pid, address in re.findall(r"replica (\d+) starting: pid (\d+) on (\S+)", server.log()):
            server.replica_pids[f"replica-{index}"] = int(pid)
            server.replica_addr[f"replica-{index}"] = address
        yield server
    finally:
        for process in started:
            _stop(process)
        for pid in _processes_of_run(run_dir):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _replica_cookies(server: Served) -> tuple[tuple[str, str], tuple[str, str]]:
    """The cookie values that name the two replicas, with each one's name as X-Lab-Replica says ("replica-1":
    its number in scripts/serve's log, never its internal address)."""
    out = []
    for name in ("r1", "r2"):
        _, headers, _ = _get(f"{server.base_url}/_stcore/health", {"Cookie": f"lab_replica={name}"})
        out.append((name, headers["x-lab-replica"]))
        assert re.fullmatch(r"replica-[12]", headers["x-lab-replica"]), headers  # a name, not an internal address
    assert out[0][1] != out[1][1] and {a for _, a in out} == set(server.replica_pids), out
    return out[0], out[1]


@pytest.fixture(scope="module")
def chromium(request: pytest.FixtureRequest):
    _skip_or_fail()
    pw = request.getfixturevalue("playwright_driver")  # tests/conftest.py: one Playwright for the whole run
    browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@dataclass
class Tab:
    context: object
    page: object
    sockets: list = field(default_factory=list)  # websockets the tab opened
    static: list = field(default_factory=list)  # responses for /static/ URLs


def _learner(chromium, server: Served, affinity: str) -> Tab:
    """A learner's own browser profile (its own cookies, the tests' run watch), already holding an affinity cookie."""
    context = chromium.new_context(viewport=VIEWPORT)
    watch(context)  # a lost press is told from one that asked for a run (browser_helpers.pressed)
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    context.add_cookies([{"name": "lab_replica", "value": affinity, "url": server.base_url}])
    tab = Tab(context, context.new_page())
    tab.page.on("websocket", lambda ws: tab.sockets.append(ws))
    tab.page.on("response", lambda r: tab.static.append(r) if "/static/" in r.url else None)
    return tab


COLD_REPLICA_MS = 120_000
"""A replica started again after a crash runs its first page cold (imports, training the preset): on a busy machine
(CI, two test workers and their browsers) that took over 20 s."""


def _next(page, expect: str, timeout: float | None = None) -> None:
    """Next, and ``expect`` shown (``timeout``: the wait's ceiling); a press a rerun swallowed is made once more
    (a whole-suite run saw Merge 2 never come in 20 s, the step still 1)."""
    pressed(page, page.get_by_role("button", name="Next").click,
            lambda: page.get_by_text(expect).first.wait_for(timeout=timeout), f"Next, for {expect!r}")
    wait_for_streamlit(page)


def test_two_learners_see_their_own_state_each_on_one_replica(served: Served, chromium) -> None:
    (a, replica_a), (b, replica_b) = _replica_cookies(served)
    tab_a, tab_b = _learner(chromium, served, a), _learner(chromium, served, b)
    page_a, page_b = tab_a.page, tab_b.page
    try:
        page_a.goto(f"{served.base_url}/Train_step_by_step?preset=readers")
        page_b.goto(f"{served.base_url}/Train_step_by_step?preset=chai")
        for page in (page_a, page_b):
            wait_for_streamlit(page)
        _next(page_a, "Merge 1 of 12")
        _next(page_a, "Merge 2 of 12")
        _next(page_b, "Merge 1 of 7")
        # Each sees its own preset and step, not the other's.
        assert page_a.get_by_text("Merge 2 of 12").count() and not page_a.get_by_text(re.compile(r"of 7\b")).count()
        assert page_b.get_by_text("Merge 1 of 7").count() and not page_b.get_by_text(re.compile(r"of 12\b")).count()
        assert "preset=readers" in page_a.url and "step=2" in page_a.url
        assert "step=1" in page_b.url

        # The websocket went through nginx.
        for tab in (tab_a, tab_b):
            assert [ws.url for ws in tab.sockets] == [served.base_url.replace("http:", "ws:") + "/_stcore/stream"]
        # Static files: from nginx, gzip, cached for a year; the page's HTML is revalidated.
        js = [r for r in tab_a.static if r.url.endswith(".js")]
        assert len(js) > 20
        for resp in js:
            headers = resp.all_headers()
            assert headers.get("x-lab-static") == "nginx", resp.url
            assert headers.get("content-encoding") == "gzip", resp.url
            assert "max-age=31536000" in headers.get("cache-control", "") and "immutable" in headers["cache-control"]
    finally:
        tab_a.context.close()
        tab_b.context.close()

    # nginx logs a websocket when it closes: each was upgraded (101) there, and every request of each
    # browser, the websocket included, went to one replica, a different one for each.
    deadline = time.monotonic() + 10
    while True:
        rows = served.access_log()
        upgrades = {aff: [r["status"] for r in rows if r["cookie"] == aff and r["path"] == "/_stcore/stream"]
                    for aff in (a, b)}
        if all(upgrades.values()) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert upgrades == {a: ["101"], b: ["101"]}, rows
    for affinity, replica in ((a, replica_a), (b, replica_b)):
        proxied = {r["replica"] for r in rows if r["cookie"] == affinity and r["replica"]}
        assert proxied == {replica}, f"{affinity}: requests went to {proxied}, not only to {replica}"
    assert replica_a != replica_b


def test_static_files_and_html_headers(served: Served) -> None:
    status, headers, body = _get(f"{served.base_url}/Tokenize_anything?text=hello")
    assert status == 200 and b"<title>" in body
    assert headers["cache-control"] == "no-cache" and "set-cookie" not in headers
    script = re.search(rb'src="\./(static/js/[^"]+\.js)"', body).group(1).decode()
    status, headers, gz = _get(f"{served.base_url}/{script}", {"Accept-Encoding": "gzip"})
    status2, headers2, plain = _get(f"{served.base_url}/{script}")
    assert headers["content-encoding"] == "gzip" and len(gz) < len(plain) / 2
    assert "content-encoding" not in headers2
    assert headers["x-lab-static"] == "nginx" and "x-lab-replica" not in headers
    # Under a page's path Streamlit's own answer stands (the frontend probes it, expecting 404).
    with pytest.raises(urllib.error.HTTPError) as err:
        _get(f"{served.base_url}/Train_step_by_step/_stcore/health")
    assert err.value.code == 404


def test_new_browsers_take_turns_and_host_config_names_their_replica(served: Served) -> None:
    """A browser without the cookie gets it from /_stcore/host-config, naming the replica that answered;
    new browsers take turns, so a class is split evenly (a hash or a random pick is not even)."""
    names = []
    for _ in range(6):
        _, headers, _ = _get(f"{served.base_url}/_stcore/health")  # no cookie: any replica, and no cookie of ours
        assert "lab_replica" not in headers.get("set-cookie", "")
        _, headers, _ = _get(f"{served.base_url}/_stcore/host-config")
        name = re.fullmatch(r"lab_replica=(r[12]); Path=/; HttpOnly; SameSite=Lax", headers["set-cookie"]).group(1)
        assert headers["x-lab-replica"] == dict(_replica_cookies(served))[name]
        names.append(name)
        _, again, _ = _get(f"{served.base_url}/_stcore/host-config", {"Cookie": f"lab_replica={name}"})
        assert "set-cookie" not in again and again["x-lab-replica"] == headers["x-lab-replica"]
    assert sorted(names) == ["r1"] * 3 + ["r2"] * 3, names


def test_the_load_benchmark_learners_work_through_nginx(served: Served) -> None:
    """bench/bench_load.py's learners (protocol-level clients) do their whole scenario with no problem:
    answered, no exception, each sees its own state. Keeps the benchmark honest as the pages change."""
    import asyncio
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "bench" / "bench_load.py")
    bench = sys.modules.setdefault("bench_load", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(bench)
    target = bench.Target("served", served.base_url, fixed_pids=[served.process.pid])
    with ThreadPoolExecutor(1) as pool:  # a thread of its own: Playwright's sync API holds this one's event loop
        result = pool.submit(asyncio.run, bench.run_level(target, 4, ramp=0.5, seed=3, think=(0.0, 0.05))).result()
    assert not result.unanswered and not result.exceptions and not result.wrong_state, (
        result.unanswered + result.exceptions + result.wrong_state)
    assert len(result.latencies["click"]) == 4 * bench.CLICKS and len(result.latencies["type"]) == 4
    assert sorted(result.replicas_used.values()) == [2, 2], result.replicas_used  # new browsers take turns
    assert result.cpu_s > 0 and result.rss_live > 0


def test_a_replica_that_dies_is_restarted_and_the_page_comes_back(served: Served, chromium) -> None:
    """(After this, nginx avoids the restarted replica for a few seconds: its kept-alive connections
    to the old process fail once. So the tests that count turns run before it.)"""
    (a, replica_a), _ = _replica_cookies(served)
    tab = _learner(chromium, served, a)
    page = tab.page
    try:
        page.goto(f"{served.base_url}/Train_step_by_step?preset=readers")
        wait_for_streamlit(page)
        _next(page, "Merge 1 of 12")
        _next(page, "Merge 2 of 12")
        pid, address = served.replica_pids[replica_a], served.replica_addr[replica_a]
        before = page_clock(page)
        os.kill(pid, signal.SIGKILL)  # a crash, not a clean stop
        deadline = time.monotonic() + 30
        while len(tab.sockets) < 2:  # the tab reconnects by itself
            assert time.monotonic() < deadline, "the page did not reconnect"
            page.wait_for_timeout(200)
        # The new replica's session has run the page and the tab has drawn it: until then the tab shows the old
        # session's page, and a Next pressed on it names a fragment the new session has not made yet, which Streamlit
        # drops ("The fragment with id ... does not exist anymore": a whole run lost a press so, and waited 120 s).
        drawn_since(page, before, timeout=COLD_REPLICA_MS)
        wait_for_streamlit(page)
        page.get_by_text("Merge 2 of 12").first.wait_for(timeout=COLD_REPLICA_MS)  # back where the learner was
        _next(page, "Merge 3 of 12", timeout=COLD_REPLICA_MS)  # the URL keeps it; the new replica's first run is cold
        # scripts/serve started the replica again, on the same port.
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(f"http://{address}/_stcore/health")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, served.log()
            time.sleep(0.3)
        assert re.search(rf"replica \d+ exited .*starting it again on {re.escape(address)}", served.log())
        new_pids = re.findall(rf"replica \d+ starting: pid (\d+) on {re.escape(address)}", served.log())
        served.replica_pids[replica_a] = int(new_pids[-1])
    finally:
        tab.context.close()


def test_an_error_no_page_foresaw_shows_a_learner_no_traceback(served: Served, chromium, tmp_path: Path) -> None:
    """Every replica runs with Streamlit's error details off: an error no page foresaw shows Streamlit's redacted
    message on the learner's screen, never a traceback (the server's paths, what was being read); the replica's log
    keeps the traceback for whoever runs the lab. The replicas' own command lines, then the same command on a page
    that fails, in Chromium. (A class database moved away once showed a learner SQLite's "no such table" this way,
    with the server's file names: that case now has its own message, this is for the next one.)"""
    replicas = [_cmdline(pid) for pid in served.replica_pids.values()]
    assert replicas and all(cmd[cmd.index("--client.showErrorDetails") + 1] == "none" for cmd in replicas), replicas
    failing, log = tmp_path / "fails.py", tmp_path / "fails.log"
    failing.write_text('raise RuntimeError("cannot read /srv/lab/data/private-notes.txt")\n', encoding="utf-8")

    def start(port: int) -> subprocess.Popen:
        cmd = list(replicas[0])
        cmd[cmd.index("app.py")], cmd[cmd.index("--server.port") + 1] = str(failing), str(port)
        with open(log, "w", encoding="utf-8") as out:
            return subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def said() -> str:
        return log.read_text(encoding="utf-8")

    process, port = on_a_free_port(start, partial(healthy, said), said, what="the failing page",
                                   timeout_s=READY_TIMEOUT_S)
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        shown = page.locator('[data-testid="stException"]')
        shown.first.wait_for(timeout=PAGE_TIMEOUT_MS)
        text = page.locator('[data-testid="stMain"]').inner_text()
        assert "redacted" in text, text
        assert "private-notes" not in text and "fails.py" not in text and "Traceback" not in text, text
        assert "private-notes" in said()  # the operator still has it
    finally:
        context.close()
        process.terminate()
        process.wait(timeout=10)


def test_sigterm_stops_nginx_and_every_replica(served: Served) -> None:
    tree = set(process_tree(served.process.pid))
    nginx_pid = int((served.run_dir / "nginx.pid").read_text())
    assert nginx_pid in tree and set(served.replica_pids.values()) <= tree
    assert len(tree) >= 1 + 2 + 2  # scripts/serve, 2 replicas, nginx master + at least one worker
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=30) == 0
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in tree if _alive(p)], "processes left behind"
    assert not _processes_of_run(served.run_dir)
    assert not (served.run_dir / "nginx.pid").exists()
    assert "stopped nginx and 2 replica(s)" in served.log()


def test_without_nginx_it_says_how_to_install_it() -> None:
    result = subprocess.run([str(ROOT / "scripts" / "serve"), "--replicas", "1"], cwd=ROOT, capture_output=True,
                            text=True, timeout=30, env={**os.environ, "LAB_NGINX": "/nonexistent/nginx"})
    assert result.returncode != 0
    assert "apt-get install nginx" in result.stderr + result.stdout


# --- Killed, restarted, refused (no browser needed) ----------------------------------------------


def _nginx_or_skip() -> None:
    if find_nginx() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the scripts/serve tests, but nginx is missing", pytrace=False)
        pytest.skip("nginx is missing (as root: apt-get install nginx)")


def _serve(log_path: Path, *extra: str, port: int | None = None, warm_up: bool = False) -> tuple[subprocess.Popen, int]:
    """scripts/serve with one replica, no warm-up (unless asked), on 127.0.0.1 and a free port (started again on
    another when one is taken meanwhile: :func:`on_a_free_port`), or on ``port`` only; once it says ready, its
    process and port."""
    def start(at: int) -> subprocess.Popen:
        cmd = [str(ROOT / "scripts" / "serve"), "--replicas", "1", "--port", str(at), "--address", "127.0.0.1",
               *([] if warm_up else ["--no-warm-up"]), *extra]
        with open(log_path, "w", encoding="utf-8") as log:
            return subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    env={**os.environ, "LAB_PYTHON": sys.executable})

    def log() -> str:
        return log_path.read_text(encoding="utf-8", errors="replace")

    return on_a_free_port(start, lambda _: "scripts/serve: ready:" in log(), log, what="scripts/serve",
                          timeout_s=READY_TIMEOUT_S, stop=_stop, port=port)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _leftovers(log: str, run_dir: Path) -> list[str]:
    """Every process of a run still alive: its replicas and reaper (LAB_SERVE_RUN), its nginx master and the
    workers in the master's process group (nginx rewrites its environment, so they carry no marker)."""
    left = [f"{p} (marked with the run)" for p in _processes_of_run(run_dir) if _alive(p)]
    nginx_pids = {int(p) for p in re.findall(r"nginx starting: pid (\d+)", log)}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _alive(int(entry)):
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    pgrp = int(f.read().rsplit(b")", 1)[1].split()[2])
            except (OSError, IndexError, ValueError):
                continue
            if pgrp in nginx_pids:
                left.append(f"{entry} (nginx, group {pgrp})")
    return left


def _wait_gone(port: int, log: str, run_dir: Path, within: float = 10) -> None:
    deadline = time.monotonic() + within
    while (_listening(port) or _leftovers(log, run_dir)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _listening(port), f"something still listens on {port} {within:.0f} s after SIGKILL"
    assert not _leftovers(log, run_dir), _leftovers(log, run_dir)


def test_sigkill_leaves_nothing_and_a_run_dir_with_a_space_works_and_is_reused(tmp_path: Path) -> None:
    """kill -9 scripts/serve: the replicas and nginx's master die with it (the kernel's parent-death signal), its
    reaper kills nginx's workers (they outlive their master); within 10 s nothing listens. The run directory has a
    space (every path in nginx's config is quoted) and, made by scripts/serve, is taken again by the next one."""
    _nginx_or_skip()
    run_dir = tmp_path / "class room" / "run"
    first, port = _serve(tmp_path / "first.log", "--run-dir", str(run_dir))
    try:
        status, headers, body = _get(f"http://127.0.0.1:{port}/_stcore/health")
        assert status == 200 and headers["x-lab-replica"] == "replica-1"
        assert _get(f"http://127.0.0.1:{port}/")[0] == 200  # Streamlit's index.html from the static copy
        assert (run_dir / ".lab-serve-run").is_file() and (run_dir / "access.log").stat().st_size > 0
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=5)
        log = (tmp_path / "first.log").read_text(encoding="utf-8")
        assert "nginx starting: pid" in log
        _wait_gone(port, log, run_dir)
    finally:
        _stop(first)
    assert re.search(r"reaper: scripts/serve pid \d+ died; stopped \d+ process", (tmp_path / "first.log").read_text())
    from deploy.serve import record_path

    assert record_path(port) is None or not record_path(port).exists()  # the reaper removed the dead run's record
    assert run_dir.is_dir()  # the user's --run-dir (logs) is kept
    second, _ = _serve(tmp_path / "second.log", "--run-dir", str(run_dir), port=port)  # same port, same run directory
    try:
        assert _get(f"http://127.0.0.1:{port}/_stcore/health")[0] == 200
    finally:
        _stop(second)
    assert second.returncode == 0 and not _listening(port)
    from deploy.serve import record_path

    assert record_path(port) is None or not record_path(port).exists()  # a clean stop leaves no record of the run


def test_the_warm_up_runs_the_pages_in_a_child_and_the_supervisor_stays_small(tmp_path: Path) -> None:
    """The warm-up opens every page, every lesson and Train on every preset on each replica without a problem, from
    a child process: the supervisor that stays up for the whole lesson never loads the pages' views (with them
    Streamlit, pandas and altair: it held 165 MB instead of 57 MB when it imported them itself). A replica started
    again after it died is warmed again."""
    _nginx_or_skip()
    log_path = tmp_path / "serve.log"
    process, port = _serve(log_path, warm_up=True)
    try:
        deadline = time.monotonic() + 300
        while "replicas warmed up" not in (log := log_path.read_text(encoding="utf-8", errors="replace")):
            assert process.poll() is None and time.monotonic() < deadline, log
            time.sleep(0.5)
        assert "WARNING: warm-up" not in log, log
        supervisor = next(int(pid) for pid in os.listdir("/proc") if pid.isdigit() and _cmdline(int(pid))[-4:] == [
            "--port", str(port), "--address", "127.0.0.1"] and "deploy/serve.py" in " ".join(_cmdline(int(pid))))
        with open(f"/proc/{supervisor}/status", encoding="utf-8") as f:
            rss_mb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
        with open(f"/proc/{supervisor}/maps", encoding="utf-8") as f:
            libraries = f.read()
        assert "pandas" not in libraries and "pyarrow" not in libraries, "the supervisor loaded the pages' libraries"
        assert rss_mb < 100, f"the supervisor holds {rss_mb:.0f} MB"
        # A replica that dies is started again and warmed again, in the background, without a problem.
        replica = int(re.findall(r"replica 1 starting: pid (\d+) ", log)[-1])
        os.kill(replica, signal.SIGKILL)
        while "replica 1 warmed up again" not in (log := log_path.read_text(encoding="utf-8", errors="replace")):
            assert process.poll() is None and time.monotonic() < deadline + 300, log
            time.sleep(0.5)
        assert "replica 1 warmed up again (" not in log, log  # the warm-up exited 0
        run_dir = Path(re.findall(r"scripts/serve: run directory (.+)", log)[0].strip())
        problems = [line for line in (run_dir / "warm-up.log").read_text(encoding="utf-8").splitlines()
                    if line.startswith("http://")]  # what the warm-up prints: one line per problem
        assert not problems, problems
    finally:
        _stop(process)


def _cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [part.decode("utf-8", "replace") for part in f.read().split(b"\0") if part]
    except OSError:
        return []


def test_after_a_kill_that_took_the_reaper_too_the_next_serve_clears_what_is_left(tmp_path: Path) -> None:
    """If the reaper is killed as well, nginx's workers stay listening (what issue 15 found); the next scripts/serve
    on that port recognises them as the dead run's (the record of the run for that port), kills them, removes the
    run's temporary directories and starts."""
    _nginx_or_skip()
    first, port = _serve(tmp_path / "first.log")
    log = (tmp_path / "first.log").read_text(encoding="utf-8")
    run_dir = Path(re.search(r"run directory (\S+)", log).group(1))
    reapers = [p for p in process_tree(first.pid) if b"--reaper" in Path(f"/proc/{p}/cmdline").read_bytes()]
    assert len(reapers) == 1
    try:
        os.kill(reapers[0], signal.SIGKILL)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=5)
        time.sleep(1)
        assert _listening(port), "nginx's workers were expected to outlive their master"
        second, _ = _serve(tmp_path / "second.log", port=port)
    finally:
        _stop(first)
    try:
        second_log = (tmp_path / "second.log").read_text(encoding="utf-8")
        assert re.search(rf"an earlier scripts/serve on port {port} \(pid {first.pid}\) was killed: "
                         r"stopped [1-9]\d* process", second_log), second_log
        assert not _leftovers(log, run_dir)
        assert not run_dir.exists()  # its default run directory, under /tmp
        assert _get(f"http://127.0.0.1:{port}/_stcore/health")[0] == 200
    finally:
        _stop(second)


def _refused(args: list[str], env: dict | None = None) -> str:
    result = subprocess.run([str(ROOT / "scripts" / "serve"), *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, env={**os.environ, "LAB_PYTHON": sys.executable, **(env or {})})
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and result.stdout == "", result.stdout  # nothing started
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("scripts/serve: error: "), lines
    return lines[0]


@pytest.mark.parametrize("args, says", [
    (["--port", "0"], "--port 0: a port is 1-65535"),
    (["--port", "70000"], "--port 70000"),
    (["--port", "٣"], "not a whole number"),
    (["--port", "http"], "not a whole number"),
    (["--upstream", "10.0.0.2"], "--upstream '10.0.0.2': give HOST:PORT"),
    (["--upstream", "10.0.0.2:99999"], "give HOST:PORT"),
    (["--upstream", "a b;c:80"], "give HOST:PORT"),
    (["--address", "0.0.0.0; evil"], "--address"),
    (["--max-body", "lots"], "--max-body"),
    (["--nginx-workers", "0"], "--nginx-workers"),
    (["--replica-port", "65535", "--replicas", "2"], "--replica-port"),
])
def test_bad_arguments_are_one_line_and_exit_2_before_anything_starts(args: list[str], says: str) -> None:
    _nginx_or_skip()
    assert says in _refused(args)


def test_every_replica_uses_the_database_given_and_its_schema_is_ready_before_them(served: Served) -> None:
    import sqlite3

    url = f"sqlite:///{served.database}"
    assert f"scripts/serve: class database: {url}" in served.log()
    assert served.log().index("class database:") < served.log().index("replica 1 starting")
    for name, pid in served.replica_pids.items():
        if not _alive(pid):  # the restart test replaced it
            continue
        with open(f"/proc/{pid}/environ", "rb") as f:
            environ = dict(item.split(b"=", 1) for item in f.read().split(b"\0") if b"=" in item)
        assert environ[b"LAB_DATABASE_URL"] == url.encode(), name
    with sqlite3.connect(served.database) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] >= 1
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("url, says", [
    ("mysql://teacher:hunter2-long-password@db.school/lab", "must start with postgresql:// or sqlite:///"),
    ("postgresq://teacher:" + "hunter2-" * 9 + "@db.school/lab", "must start with postgresql:// or sqlite:///"),
    ("postgresql://teacher:hunter2-long-password@127.0.0.1:1/lab", "Cannot connect to the PostgreSQL database"),
    ("postgresql://teacher@127.0.0.1:1/lab?password=hunter2-long-password", "Cannot connect"),
    ("sqlite:///", "a SQLite database URL is sqlite:///PATH"),
    ("sqlite:////proc/no-such-folder/classes.sqlite3", "Cannot open the SQLite database"),
])
def test_a_bad_database_is_one_line_exit_2_before_anything_starts_without_its_password(url: str, says: str) -> None:
    _nginx_or_skip()
    line = _refused(["--database", url, "--port", str(free_port()), "--address", "127.0.0.1"])
    assert line.startswith("scripts/serve: error: --database ") and says in line, line
    assert "hunter2" not in line, line


def test_a_port_in_use_is_refused_before_anything_starts() -> None:
    _nginx_or_skip()
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        line = _refused(["--port", str(port), "--address", "127.0.0.1"])
    assert f"127.0.0.1:{port} is in use by another program" in line


def test_a_run_dir_not_made_by_serve_is_refused_and_left_alone(tmp_path: Path) -> None:
    """--run-dir /etc/nginx as root would have had its nginx.conf replaced: a directory with anything in it, not
    made by scripts/serve, is refused and nothing in it changes."""
    _nginx_or_skip()
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "nginx.conf").write_text("keep me\n")
    line = _refused(["--run-dir", str(theirs), "--port", "65000"])
    assert "not empty, and not made by scripts/serve" in line
    assert [p.name for p in theirs.iterdir()] == ["nginx.conf"] and (theirs / "nginx.conf").read_text() == "keep me\n"
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert "not a directory" in _refused(["--run-dir", str(a_file)])
    for name in ('quote"d', "dollar$x", "new\nline"):
        assert "cannot be written in nginx's config" in _refused(["--run-dir", str(tmp_path / name)])
        assert not (tmp_path / name).exists()


def test_only_processes_provably_of_the_run_are_taken_for_its_leftovers(tmp_path: Path) -> None:
    """What a new scripts/serve (or the reaper) kills for a dead run: processes marked with that run's directory,
    its nginx master (pid AND start time: a reused pid is not it), and nginx processes in the master's group.
    A process marked with another run, or the recorded pid with another start time, is never taken."""
    from deploy.serve import proc_start, run_processes

    env = dict(os.environ)
    ours = subprocess.Popen(["sleep", "30"], env={**env, "LAB_SERVE_RUN": str(tmp_path / "run")})
    other = subprocess.Popen(["sleep", "30"], env={**env, "LAB_SERVE_RUN": str(tmp_path / "run-2")})
    stranger = subprocess.Popen(["sleep", "30"], env=env, start_new_session=True)
    try:
        record = {"run_dir": str(tmp_path / "run"), "nginx_pid": stranger.pid, "nginx_bin": find_nginx() or "/bin/false",
                  "nginx_start": proc_start(stranger.pid) + 1}  # a pid that is not the recorded process any more
        found = run_processes(record)
        assert ours.pid in found and other.pid not in found and stranger.pid not in found, found
        assert os.getpid() not in found
        record["nginx_start"] = proc_start(stranger.pid)  # now it is the recorded master: taken
        assert stranger.pid in run_processes(record)
    finally:
        for proc in (ours, other, stranger):
            proc.kill()
            proc.wait()


def test_the_hostile_learners_model_is_a_model_the_engine_reads() -> None:
    """bench/bench_load.py's hostile upload must reach the page as a model (one base symbol, chained merges),
    not be refused for its format: a small one is read, and its last token is the whole chain."""
    import importlib.util

    from tokenizer.io import tokenizer_from_json

    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "bench" / "bench_load.py")
    bench = sys.modules.setdefault("bench_load", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(bench)
    tok = tokenizer_from_json(bench.chained_model(12))  # shallow: within any depth bound the engine sets
    assert tok.vocab_size == 13 and len(tok.merges) == 12
    assert tok.token_bytes(12) == b"a" * 13  # the last merge's token is the whole chain (its memory cost)
    assert len(bench.chained_model(23_000)) < 300_000  # the small file (265 KB)
