"""A class through scripts/serve's own nginx, in Chromium: what a teacher must be able to trust (issue 23, part 1).

One ``scripts/serve --replicas 2`` for the module, its class database a SQLite file in a temporary folder, run
without the superuser's power to write where permissions forbid (``setpriv``: root keeps its user id but loses
CAP_DAC_OVERRIDE, so a read-only folder is read-only to the replicas, as it is to any other user). Each test
checks one promise the README's "Holding a classroom" makes:

- no teacher secret, resume code or learner id reaches any log (nginx's access and error logs, each replica's,
  scripts/serve's own), even when nginx logs a failed request (a replica just killed);
- the join limit counts wrong codes by the address nginx saw: headers a browser adds (X-Forwarded-For,
  X-Lab-Client, X-Real-IP) choose nothing;
- text from a link, a posed question, a name or a title is shown as text: no ``<a>`` made of it on any screen;
- a class database that is damaged, garbage, a folder or read-only says so to learners and teachers (never its
  path, never "busy, try again", never "not one of an open class"), the server's log names the file and the
  fault, and the file is left as it was (once mended, every class is there).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from lessons.classroom import Classes, DatabaseBroken, open_database, shown_resume
from tests.browser.browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PAGE_TIMEOUT_MS,
    ROOT,
    SIZES,
    WarmContexts,
    free_port,
    main_area,
    on_a_free_port,
    settle,
    wait_for_streamlit,
    watch,
)
from tests.classroom.limits import fill_join_limit
from tests.test_serve import _get, _processes_of_run, _skip_or_fail, _stop

pytestmark = [pytest.mark.serve, pytest.mark.browser]

READY_TIMEOUT_S = 120
LIVE_MS = 20_000
NO_DAC = ["setpriv", "--inh-caps=-dac_override,-dac_read_search,-fowner",
          "--bounding-set=-dac_override,-dac_read_search,-fowner"]
"""Root without the power to ignore file permissions: a read-only folder stops it, as it stops a teacher's account."""


@dataclass
class Lab:
    process: subprocess.Popen
    base_url: str
    run_dir: Path
    log_path: Path
    data: Path  # the folder of the class database

    @property
    def db_file(self) -> Path:
        return self.data / "classes.sqlite3"

    @property
    def url(self) -> str:
        return f"sqlite:///{self.db_file}"

    def logs(self) -> dict[str, str]:
        """Every log the run wrote: scripts/serve's own, nginx's access and error logs, each replica's."""
        found = {"scripts/serve": self.log_path.read_text(encoding="utf-8", errors="replace")}
        for path in sorted(self.run_dir.glob("*.log")):
            found[path.name] = path.read_text(encoding="utf-8", errors="replace")
        return found

    def replica_pid(self, name: str) -> int:
        found = re.findall(rf"replica {name.rsplit('-', 1)[-1]} starting: pid (\d+) ", self.logs()["scripts/serve"])
        return int(found[-1])

    def healthy(self) -> None:
        """Wait until every replica answers (after a kill, scripts/serve starts it again)."""
        for address in set(re.findall(r"replica \d+ starting: pid \d+ on (\S+)", self.logs()["scripts/serve"])):
            deadline = time.monotonic() + 90
            while True:
                try:
                    if _get(f"http://{address}/_stcore/health")[0] == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, f"{address} not healthy again"
                time.sleep(0.3)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    _skip_or_fail()
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is missing")
    base = tmp_path_factory.mktemp("serve-class")
    base.chmod(0o755)
    data = base / "data"
    data.mkdir()
    run_dir, log_path = base / "run", base / "serve.log"
    started: list[subprocess.Popen] = []

    def start(port: int) -> subprocess.Popen:
        cmd = [*(NO_DAC if os.geteuid() == 0 else []), str(ROOT / "scripts" / "serve"), "--replicas", "2",
               "--port", str(port), "--address", "127.0.0.1", "--run-dir", str(run_dir), "--no-warm-up",
               "--database", f"sqlite:///{data / 'classes.sqlite3'}"]
        with open(log_path, "w", encoding="utf-8") as log:
            started.append(subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env={**os.environ, "LAB_PYTHON": sys.executable}))
        return started[-1]

    def log() -> str:
        return log_path.read_text(encoding="utf-8", errors="replace")

    try:
        process, port = on_a_free_port(start, lambda _: "scripts/serve: ready:" in log(), log, what="scripts/serve",
                                       timeout_s=READY_TIMEOUT_S)
        yield Lab(process, f"http://127.0.0.1:{port}", run_dir, log_path, data)
    finally:
        for process in started:
            _stop(process)
        for pid in _processes_of_run(run_dir):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture(scope="module")
def chromium(request: pytest.FixtureRequest):
    _skip_or_fail()
    pw = request.getfixturevalue("playwright_driver")
    browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="module")
def warm_contexts(chromium) -> Iterator[WarmContexts]:
    """Browser profiles kept from one test to the next, each emptied when given back (browser_helpers.WarmTab): a
    page in a tab that has shown the lab before costs Chromium about a third of one in a new profile."""
    contexts = WarmContexts(chromium)
    yield contexts
    contexts.close()


@pytest.fixture()
def browsers(chromium, warm_contexts: WarmContexts):
    """new(size="laptop", headers=None, cookies=None) -> a page in a browser profile of its own: a kept one, emptied
    (its cookies, storage and history gone), or a new one for a profile that sends headers of its own."""
    made, taken = [], []

    def new(size: str = "laptop", headers: dict | None = None, cookies: list | None = None):
        if headers:  # headers stay with a profile: such a profile is not kept
            context = chromium.new_context(accept_downloads=True, extra_http_headers=headers, **SIZES[size])
            watch(context)
            context.set_default_timeout(PAGE_TIMEOUT_MS)
            made.append(context)
            page = context.new_page()
        else:
            warm = warm_contexts.take(size)
            taken.append(warm)
            context, page = warm.context, warm.tab
        if cookies:
            context.add_cookies(cookies)
        return page

    yield new
    for warm in taken:
        warm_contexts.give_back(warm)
    for context in made:
        context.close()


def _open(page, lab: Lab, path: str):
    page.goto(f"{lab.base_url}/{path.lstrip('/')}")
    wait_for_streamlit(page)
    return page


def _join(page, lab: Lab, code: str, name: str) -> None:
    _open(page, lab, "Class")
    main_area(page).get_by_role("textbox", name="Class code").first.fill(code)
    main_area(page).get_by_role("textbox", name="Your name").fill(name)
    main_area(page).get_by_role("button", name="Join").click()
    settle(page)


def _shown(page) -> str:
    """The page's text as a reader sees it (the word joiners that keep text from becoming links are invisible)."""
    return main_area(page).inner_text().replace("\u2060", "")


# -- no secret in any log -------------------------------------------------------------------------------------
def test_no_teacher_secret_resume_code_or_learner_id_reaches_any_log(lab: Lab, browsers) -> None:
    """The teacher link is opened while its browser's replica is down (nginx then logs the failed connection,
    with the request and its referrer: the teacher link itself, before Referrer-Policy), a learner joins and
    continues on another device with the resume code: none of the secrets is in any log."""
    classes = Classes(open_database(lab.url))
    started = classes.start("Secrets week")
    # scripts/serve starts a dead replica again within seconds, which a loaded machine's browser took to reach nginx
    # (nginx then met no dead replica and logged nothing: the case untested). So scripts/serve is held (SIGSTOP; nginx
    # and the other replica serve on) until nginx has met replica 1 dead, then let go to start it again.
    supervisor = lab.process.pid
    assert b"deploy/serve.py" in Path(f"/proc/{supervisor}/cmdline").read_bytes()
    os.kill(supervisor, signal.SIGSTOP)
    try:
        os.kill(lab.replica_pid("replica-1"), signal.SIGKILL)
        teacher = browsers("projector", cookies=[{"name": "lab_replica", "value": "r1", "url": lab.base_url}])
        _open(teacher, lab, f"Class?code={started.code}&teacher={started.teacher_secret}")
        main_area(teacher).get_by_text("You are this class's teacher in this browser").wait_for()
        deadline = time.monotonic() + 30
        while "connect() failed" not in lab.logs()["nginx-error.log"] and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        os.kill(supervisor, signal.SIGCONT)
    assert "teacher=" not in teacher.url
    learner = browsers("phone")
    _join(learner, lab, started.code, "Asha")
    found = re.search(r"resume code is ([A-Z0-9-]{19})", _shown(learner))
    assert found, _shown(learner)
    resume = found.group(1).replace("-", "")
    other = browsers("laptop")
    _open(other, lab, "Class")
    main_area(other).get_by_text("Continue on this device").click()
    main_area(other).get_by_role("textbox", name="Class code").last.fill(started.code)
    main_area(other).get_by_role("textbox", name="Resume code").fill(shown_resume(resume).lower())
    main_area(other).get_by_role("button", name="Continue").click()
    main_area(other).get_by_text("Welcome back, Asha").wait_for()
    lab.healthy()
    with classes.db.transaction(write=False) as tx:
        learner_ids = [row[0] for row in tx.rows("SELECT learner_id FROM learners WHERE code = ?", (started.code,))]
    classes.db.close()
    browser_key = next(c["value"] for c in teacher.context.cookies() if c["name"] == "tl_teacher").split(".", 1)[1]
    secrets = {"the teacher secret": started.teacher_secret, "the resume code": resume,
               "the resume code as shown": shown_resume(resume), "the teacher's browser key": browser_key,
               **{f"learner id {i}": v for i, v in enumerate(learner_ids)}}
    time.sleep(1)  # nginx writes a request's line when it ends: the pages above are closed by now or soon
    logs = lab.logs()
    assert "connect() failed" in logs["nginx-error.log"] or "upstream" in logs["nginx-error.log"], (
        "the killed replica left no error in nginx's log: the referrer case was not exercised")
    assert "/Class " in logs["access.log"]  # the page's request is logged, without its query string
    leaks = [f"{what} in {name}" for name, text in logs.items() for what, secret in secrets.items() if secret in text]
    assert not leaks, leaks


def test_the_proxy_token_is_readable_by_the_lab_alone(lab: Lab) -> None:
    """The token a replica believes nginx's X-Lab-Client by is in nginx's config only, which no other user of the
    machine may read (with it, anyone here could talk to a replica directly and choose the address counted)."""
    conf = lab.run_dir / "nginx.conf"
    assert conf.stat().st_mode & 0o077 == 0, oct(conf.stat().st_mode)
    token = re.search(r'X-Lab-Proxy "([0-9a-f]{32,})"', conf.read_text(encoding="utf-8")).group(1)
    assert not [name for name, text in lab.logs().items() if token in text]


# -- the join limit counts the address nginx saw ---------------------------------------------------------------
@pytest.fixture(autouse=True)
def _no_tries_left_over(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test here starts with no wrong codes counted, and leaves none (all of them join from this machine: a
    test that filled this minute's count must not refuse the next test's learners, even when it fails)."""
    if "lab" not in request.fixturenames:
        yield
        return
    lab = request.getfixturevalue("lab")
    _forget_tries(lab)
    yield
    _forget_tries(lab)


def _forget_tries(lab: Lab) -> None:
    with open_database(lab.url) as db, db.transaction() as tx:
        tx.execute("DELETE FROM join_attempts")


def _tries(lab: Lab) -> list[tuple[str, int, int]]:
    """join_attempts as (whose, minute, attempts), whose being "this machine", "no address" or "other"."""
    names = {Classes.client_key("127.0.0.1"): "this machine", Classes.client_key(""): "no address"}
    with open_database(lab.url) as db, db.transaction(write=False) as tx:
        return [(names.get(client, "other"), minute, attempts)
                for client, minute, attempts in tx.rows("SELECT client, minute, attempts FROM join_attempts")]


def test_headers_a_browser_sends_do_not_choose_the_address_the_join_limit_counts(lab: Lab, browsers) -> None:
    """12 wrong codes, each with a fresh X-Forwarded-For (and X-Lab-Client, X-Real-IP) of its own, were never
    limited. Now the address is the one nginx saw (this machine): with its count at the limit, every try is
    refused whatever the headers say. The count is filled for this minute and the next few, so a slow machine
    crossing a minute's end sees the same (how the count grows try by try is tests/classroom/test_store's)."""
    with open_database(lab.url) as db:
        minute = fill_join_limit(db, "127.0.0.1")
    said = []
    for i in range(3):
        forged = f"203.0.113.{i + 1}"
        page = browsers("laptop", headers={"X-Forwarded-For": forged, "X-Lab-Client": forged, "X-Real-IP": forged,
                                           "X-Lab-Proxy": "guess"})
        _join(page, lab, "ZZZZZZ", f"Guesser {i}")
        said.append("too many" if "Too many wrong codes" in _shown(page) else
                    "no class" if "No open class has that code" in _shown(page) else _shown(page)[:200])
    assert said == ["too many"] * 3, (said, f"minute {minute} to {int(time.time()) // 60}", _tries(lab))
    # and nothing a browser sends counted a try elsewhere
    assert {whose for whose, _, _ in _tries(lab)} == {"this machine"}, _tries(lab)


# -- text is text ----------------------------------------------------------------------------------------------
HOSTILE_URL = "see https://evil.example/login now"
LINKED_PAGES = [f"Tokenize_anything?toks={quote(HOSTILE_URL)}", f"Real_tokenizers?toks={quote(HOSTILE_URL)}",
                f"Estimate?toks={quote(HOSTILE_URL)}", f"Beyond_Hindi?toks={quote(HOSTILE_URL)}",
                f"Encode_step_by_step?tok={quote(HOSTILE_URL)}", f"Streaming?tok={quote(HOSTILE_URL)}"]
EVIL_LINKS = """() => [...document.querySelectorAll('a')].filter(a => /evil/.test(a.href + ' ' + a.textContent))
    .map(a => a.outerHTML.slice(0, 200))"""


@pytest.mark.parametrize("path", LINKED_PAGES)
def test_a_link_value_is_shown_as_text_not_as_a_link(lab: Lab, browsers, path: str) -> None:
    page = _open(browsers("laptop"), lab, path)
    assert page.evaluate(EVIL_LINKS) == []
    if not path.startswith("Estimate"):  # (Estimate leaves out what is not a lab model, without a word)
        assert "https://evil.example/login" in _shown(page)  # named as it was written


def test_a_posed_question_a_name_and_a_title_are_shown_as_text_on_every_screen(lab: Lab, browsers) -> None:
    classes = Classes(open_database(lab.url))
    started = classes.start("Week [3](https://evil.example/title)")
    choices = ["[X](https://evil.example/a)", "see https://evil.example/b", "www.evil.example", "m@evil.example"]
    learner = browsers("phone")
    _join(learner, lab, started.code, "[Dana](https://evil.example/name) -- Das")
    classes.pose(started.code, started.teacher_secret, {
        "id": "own.hostile", "prompt": "Which? [Y](https://evil.example/prompt) or www.evil.example", "kind": "choice",
        "choices": choices, "where": ""})
    teacher = _open(browsers("projector"), lab, f"Class?code={started.code}&teacher={started.teacher_secret}")
    bar = learner.locator(".st-key-class-bar")
    bar.get_by_text("Your teacher asks", exact=False).wait_for(timeout=LIVE_MS)
    teacher.locator(".st-key-class-bar").get_by_text("Posed", exact=False).wait_for(timeout=LIVE_MS)
    for page in (learner, teacher):
        assert page.evaluate(EVIL_LINKS) == []
    shown = _shown(learner)
    assert all(c in shown for c in choices), shown  # every choice as it was typed
    assert "[Dana](https://evil.example/name) -- Das" in shown  # the name: no link, and -- stays two hyphens
    assert "Week [3](https://evil.example/title)" in _shown(teacher)
    classes.db.close()


# -- a broken class database -----------------------------------------------------------------------------------
def _break(lab: Lab, how: str) -> None:
    """Damage the class database in place, as a failing disk, a careless copy or a wrong permission would."""
    with sqlite3.connect(lab.db_file) as conn:  # everything in the file itself first (nothing left in the WAL)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if how == "truncated":
        os.truncate(lab.db_file, lab.db_file.stat().st_size // 3)
    elif how == "garbage":
        size = lab.db_file.stat().st_size
        with open(lab.db_file, "r+b") as f:
            f.write(bytes((i * 37 + 11) % 256 for i in range(size)))
    elif how == "a folder":
        lab.db_file.rename(lab.db_file.with_name("kept.sqlite3"))
        # the replicas' class watchers read the database ten times a second (ui/push.py): none makes a new file
        # where the old one was (lessons/classroom/db.py opens only a file that is there), so the folder goes in
        lab.db_file.mkdir()
    elif how == "read-only":
        for path in lab.data.iterdir():
            path.chmod(0o444)
        lab.data.chmod(0o555)


def _mend(lab: Lab, how: str, original: bytes) -> None:
    if how == "a folder":
        lab.db_file.rmdir()
        lab.db_file.with_name("kept.sqlite3").rename(lab.db_file)
    elif how == "read-only":
        lab.data.chmod(0o755)
        for path in lab.data.iterdir():
            path.chmod(0o644)
    else:
        lab.db_file.write_bytes(original)


@pytest.mark.parametrize("how", ["truncated", "garbage", "a folder", "read-only"])
def test_a_broken_database_is_said_to_the_right_person_and_left_as_it_is(lab: Lab, browsers, how: str) -> None:
    classes = Classes(open_database(lab.url))
    started = classes.start(f"Kept through {how}")
    classes.join(started.code, "Asha", client="before")
    classes.db.close()
    with sqlite3.connect(lab.db_file) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    original = lab.db_file.read_bytes()
    log_start = {name: len(text) for name, text in lab.logs().items()}
    _break(lab, how)
    kept = lab.db_file if how != "a folder" else lab.db_file.with_name("kept.sqlite3")
    broken_bytes = kept.read_bytes()
    try:
        learner = browsers("phone")
        _join(learner, lab, started.code, "Ben")
        starter = _open(browsers("laptop"), lab, "Class")
        main_area(starter).get_by_role("textbox", name="Class title").fill("A new class")
        main_area(starter).get_by_role("button", name="Start a class").click()
        settle(starter)
        teacher = _open(browsers("laptop"), lab, f"Class?code={started.code}&teacher={started.teacher_secret}")
        # every write says what is wrong; a read may still work (a read-only file, or the part of a truncated
        # one a read touches): the teacher link then works, and it never says the link is wrong
        for page in (learner, starter, teacher):
            shown = _shown(page)
            assert DatabaseBroken.message in shown or (
                page is teacher and how in ("read-only", "truncated") and "You are this class's teacher" in shown), shown
            assert str(lab.data) not in shown, shown  # no path
            assert "Try again in a moment" not in shown and "not one of an open class" not in shown, shown
            assert "No open class has that code" not in shown, shown
        assert "teacher=" not in teacher.url
        # the lab wrote nothing into the damaged database (nor into a folder in its place)
        assert kept.read_bytes() == broken_bytes
        assert not (lab.db_file.is_dir() and any(lab.db_file.iterdir()))
        assert not Path(f"{kept}-wal").exists() or Path(f"{kept}-wal").stat().st_size == 0
    finally:
        _mend(lab, how, original)
    new_lines = "".join(text[log_start.get(name, 0):] for name, text in lab.logs().items() if name.startswith("replica"))
    assert re.search(rf"class database: .*{re.escape(str(lab.db_file))}", new_lines), new_lines[-2000:]
    # mended: every class is there, and the teacher link works again
    teacher = _open(browsers("laptop"), lab, f"Class?code={started.code}&teacher={started.teacher_secret}")
    main_area(teacher).get_by_text("You are this class's teacher in this browser").wait_for()
    with open_database(lab.url) as db, db.transaction(write=False) as tx:
        assert tx.one("SELECT COUNT(*) FROM learners WHERE code = ?", (started.code,))[0] == 1


# -- a front in front of scripts/serve ---------------------------------------------------------------------------
def test_trust_proxy_takes_the_client_address_from_that_front_only(tmp_path: Path) -> None:
    """--trust-proxy renders nginx's realip settings for those addresses only (nginx accepts the config), and
    anything that is not an address or a network is refused before anything starts."""
    from deploy.serve import check_args, find_nginx, parse_args, render_config

    if find_nginx() is None:
        pytest.skip("nginx is missing")
    args = parse_args(["--trust-proxy", "10.0.0.5", "--trust-proxy", "2001:db8::/48", "--replicas", "1"])
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "index.html").write_text("<html></html>")
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / "tmp" / sub).mkdir(parents=True)
    conf = render_config(run_dir=tmp_path, www_dir=tmp_path, static_root=tmp_path / "static",
                         listen=f"127.0.0.1:{free_port()}", upstreams=["127.0.0.1:9"], workers="1",
                         user_line="# test", access_log="off", max_body="1m", cookie="lab_replica",
                         proxy_token="ab" * 32, trusted=args.trust_proxy)
    assert "set_real_ip_from 10.0.0.5/32;" in conf and "set_real_ip_from 2001:db8::/48;" in conf
    assert "real_ip_header X-Lab-Client;" in conf
    assert 'proxy_set_header X-Lab-Client $remote_addr;' in conf and "$proxy_add_x_forwarded_for" not in conf
    (tmp_path / "nginx.conf").write_text(conf)
    checked = subprocess.run([find_nginx(), "-t", "-q", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                              "-e", str(tmp_path / "error.log")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    plain = render_config(run_dir=tmp_path, www_dir=tmp_path, static_root=tmp_path / "static", listen="127.0.0.1:1",
                          upstreams=["127.0.0.1:9"], workers="1", user_line="# test", access_log="off",
                          max_body="1m", cookie="lab_replica", proxy_token="ab" * 32)
    assert "set_real_ip_from" not in plain  # nobody is believed unless named
    args.trust_proxy = ["10.0.0.5; evil"]
    assert "--trust-proxy" in check_args(args)
