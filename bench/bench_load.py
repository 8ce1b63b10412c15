"""A classroom at once: many learners, click -> new state latency, CPU and memory (a benchmark, not a test).

Each learner is a protocol-level client (deploy/stclient.py) that speaks
Streamlit's websocket protocol as Chromium does: the page's HTML, health and
host-config over HTTP (cookies: the XSRF token, and behind scripts/serve the
affinity cookie), then /_stcore/stream with binary BackMsg/ForwardMsg protobufs.
What a learner does, like the class in the issue:

1. opens a deep link to Train step by step on a preset (round robin over
   ``lessons.presets()``: ``/Train_step_by_step?preset=<id>``);
2. clicks Next ten times, about 1 s apart (0.8-1.2 s after the last answer);
   at the last merge, where Next is disabled, it clicks First instead;
3. opens Tokenize anything from the sidebar (``/Tokenize_anything``);
4. types its own Hindi + English sentence into the text area ``views.tokenize.TEXT``.

Latency is from sending the click to the first message that draws the new
state: for Train the step header "Merge k of n" (or "Step 0 of n"), with this
learner's k and its preset's n; for Tokenize the first delta that draws the
learner's own word among the tokens. "Answered" means the run reached
script_finished within 60 s. "Own state" checks every answer against what this
learner did: the header's step and the preset's merge count, the preset in the
Corpus box, the URL the server set (``step=k``, this preset, this learner's
text), and that no other learner's sentence reaches this learner. CPU is read
from /proc (utime + stime of every server process: the replicas and nginx),
memory is the servers' summed RSS before, while every learner is still
connected, and after they left (disconnected sessions are kept for
``server.disconnectedSessionTTL``, 120 s).

First visit with an empty cache: a real Chromium (Debian's, via Playwright)
opens the deep link once and the URLs it fetches are recorded (HTML, JS, CSS,
fonts, health, host-config); then ``--first-visit`` fresh visitors at once each
fetch that list through the server the way a browser does (six keep-alive
connections, ``Accept-Encoding: gzip, deflate, br, zstd``), connect the
websocket and run the page. "Usable" is when the page's first run has drawn
its step header. Without Chromium this part is skipped.

The client was checked against Chromium once, and the check is repeatable:
``--check-browser`` drives Chromium through the same steps (deep link, Next,
Next, the sidebar link, typing + Ctrl+Enter), records every BackMsg Chromium
sends (Playwright's websocket ``framesent`` events), drives this client through
the same steps and compares the two, message by message: query string, page
name, page hash, fragment id, every widget id and value, context info. They
agree field for field (only the ``url`` host differs when the targets do).

A hostile learner (``--hostile N``: N of them join each level, which then
runs twice, first without them, so the other learners' p95 can be compared;
issue 15's bar): it opens hostile links one after another, each in a tab of
its own, and uploads a degenerate model, waiting for each answer at most
``--hostile-timeout`` s (the server may go on working after that):

- Train with a backtracking pre-split pattern (``--hostile-pattern``, default
  ``(?:.{0,6}){0,7}(?!)|\\S+``: about 8 ms of CPU a character with the
  ``regex`` module, so ~30 s on the preset's 3,570 characters);
- Train with a recursive one, ``(?R)?a|\\S`` (a MemoryError after ~1 GB);
- Train with 12 alternatives of ``(?:a{100}){100}`` (191 characters: 120,000 parts once compiled, ~30 MB,
  each such pattern kept);
- Quirks, Formatting, with records holding a bare CR (``_csv.Error``);
- on Tokenize anything, an uploaded model of one base symbol and
  ``--hostile-merges`` chained merges (default 23,000: 265 KB that took 4.4 GB).

Each replica's memory (RSS) is read when the target is ready (scripts/serve
has run its own warm-up by then), after this bench's warm-up (its warm size), and after the hostile level, once its sessions have gone
(``--hostile-settle`` s later); the bar is warm + 100 MB. Each hostile
action's outcome is printed: answered (with the page's warning, if any),
exception, or unanswered.

A class opens one link at once (``--burst N``, default 40, first thing after the target is ready): N fresh
learners open ``--burst-link`` (Train on the chai preset) within ``--burst-ramp`` seconds (default 2), each the
page's HTML, health, host-config, the websocket and the first run, and stay on the page until all have it.
Measured: from the HTML request to the step header drawn (usable), from the first run asked for to the header,
and the servers' CPU per visit. The levels' learners above arrive over ``--ramp`` seconds (5) on every preset,
and their "load" (the first run of the deep link) is the same kind of first visit.

Every page warm after start (``--warmth``, on by default for scripts/serve targets): every page the server lists
and every lesson on the Lessons page, opened by fresh tabs one after another, twice on each replica (new browsers
take turns), before anything else has used them: each replica's first visit to a page against its second
(the servers' CPU, the first run's wall time). A page the warm-up left cold costs more the first time (imports,
training, a tokenizer read from disk); one whose first visit costs over twice the second and 50 ms more is
marked COLD.

Side by side with another commit (``--vs REV``): that commit's code (``git archive``, kept in
``artifacts/vs-<commit>``) is started with its own scripts/serve and this interpreter, right after this tree's
target, and measured by this client in the same run; the figures are printed in columns at the end. The keys
this client clicks and types into (``views.train.NEXT``, ``views.tokenize.TEXT``) have had the same names since
the second wave. So a regression in first visits shows in the numbers before it ships::

    .venv/bin/python bench/bench_load.py --targets serve2 --learners 40 --first-visit 0 --vs e062fb1

Targets: ``single`` is one Streamlit process started as scripts/run starts it;
``serveN`` is ``scripts/serve --replicas N``. The bench starts each target on
a free loopback port, warms it up, runs the levels, and stops it. ``--url``
measures a server that is already running instead (``--pids`` names its
processes for the CPU and memory figures). Everything stays on 127.0.0.1, and
every loop is bounded (the learners' scripted steps, 60 s per answer).

    .venv/bin/python bench/bench_load.py                          # single and serve2; a burst; 1, 10, 20, 40 learners; 40 first visits
    .venv/bin/python bench/bench_load.py --targets single,serve2,serve3 --learners 40 --first-visit 40
    .venv/bin/python bench/bench_load.py --url http://127.0.0.1:8080 --pids 1234,1240
    .venv/bin/python bench/bench_load.py --check-browser
    .venv/bin/python bench/bench_load.py --targets serve2 --learners 10 --hostile 1 --first-visit 0
    .venv/bin/python bench/bench_load.py --class 120 --database sqlite,postgresql --kill-replica --ramp 20

The class scenario (``--class N``, :func:`run_class`): one teacher and N learners in one class, through
``scripts/serve --replicas 4 --database ...`` (``--class-replicas``), on SQLite (a file in a temporary folder)
and on PostgreSQL (a throwaway cluster, started with the class tests' own helper,
``tests.classroom.conftest.PostgresServer``). The teacher's screen opens the teacher link; the learners open the
learner link, type a name and click Join; every screen's class bar then shows what the server pushes (a run it
begins on its own when the class changes, ``ui.push``: each screen reads every frame as it arrives,
``Session.idle``), and ticks on the bar's own timer at the interval the server set, as the browser's does
(``Session.tick``). The teacher (this bench) starts the class and poses 5 questions through the store,
clicks Show answers (and Vote again, twice) in the bar, and reveals through the store. Measured: each click ->
its new state, vote -> counted in the teacher's "N of M answered", posed -> on a learner's screen, each tick;
and every vote sent is in the database exactly once (per learner and round: no vote whose answer came back is
missing, none is stored more often than it was sent; each round's tally counts each voter once). With
``--kill-replica`` a learners' replica gets SIGKILL in the middle of a round; its learners reconnect.
``--check-browser --class 1`` compares the class bar's timer reruns with Chromium's (a learner joined in each).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.proto.WidgetStates_pb2 import WidgetState

import lessons
from deploy.serve import cmdline, free_port, process_tree, streamlit_cmd
from deploy.stclient import CookieJar, HttpConnection, ProtocolError, Run, Session, query
from tokenizer import train
from views import tokenize as tkv
from views import train as tv

CLICKS = 10
THINK_S = (0.8, 1.2)  # a learner's pause before each action
ANSWER_TIMEOUT_S = 60
TRAIN, TOKENIZE = "Train_step_by_step", "Tokenize_anything"
# Words that GPT-4o's tokenizer (o200k_base, the Tokenize page's default) keeps as one token with the space
# before them, so each is drawn whole in one chip: a learner's own word shows when its tokens are drawn.
WORDS = ("apple river mango tiger cricket garden pencil rocket violin window yellow zebra bridge candle dragon "
         "forest guitar harbor island jacket kettle ladder marble needle orange pepper rabbit saddle tomato "
         "umbrella velvet walnut castle butter copper dinner engine ginger").split()
CLK = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# --- Server processes: CPU and memory from /proc -------------------------------------------------


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    out = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / CLK
        except (OSError, IndexError, ValueError):
            pass
    return out


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * PAGE_SIZE
        except (OSError, IndexError, ValueError):
            pass
    return total


def machine_busy_seconds() -> float:
    """CPU seconds every process on the machine spent (all cores): to see load from anything else."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / CLK


def wait_quiet(target: Target, max_wait: float) -> float:
    """Wait (at most ``max_wait`` s) until nothing but the server keeps the machine busy; returns the other load
    in cores. On a shared machine, figures taken while something else runs are not the server's."""
    deadline = time.monotonic() + max_wait
    while True:
        pids = target.pids()
        m0, c0 = machine_busy_seconds(), sum(cpu_seconds(pids).values())
        time.sleep(2)
        m1, c1 = machine_busy_seconds(), sum(cpu_seconds(pids).values())
        other = max(0.0, (m1 - m0) - (c1 - c0)) / 2
        if other < 0.15 or time.monotonic() > deadline:
            return other
        print(f"   waiting for the machine to be quiet: other processes keep {other:.2f} cores busy", flush=True)


@dataclass
class Target:
    name: str
    url: str
    process: subprocess.Popen | None = None
    fixed_pids: list[int] = field(default_factory=list)
    log: Path | None = None  # scripts/serve's output: it names each replica's pid

    def replica_name(self, pid: int) -> str:
        """"replica-N" (as X-Lab-Replica names it) for a scripts/serve replica's pid, else "pid P"."""
        try:
            text = self.log.read_text(encoding="utf-8", errors="replace") if self.log else ""
        except OSError:
            text = ""
        found = re.findall(rf"replica (\d+) starting: pid {pid} ", text)
        return f"replica-{found[-1]}" if found else f"pid {pid}"

    def pids(self) -> list[int]:
        if self.process is not None:
            return process_tree(self.process.pid)
        return [p for pid in self.fixed_pids for p in process_tree(pid)]

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _wait_healthy(url: str, process: subprocess.Popen, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} not healthy after {timeout:.0f} s")


def start_target(name: str, log_dir: Path, extra: list[str] | None = None, root: Path = ROOT,
                 label: str | None = None) -> Target:
    """Start ``name`` (single, serveN) from the checkout ``root`` (this tree, or another commit's copy for
    ``--vs``), named ``label`` in the figures."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    label = label or name
    log = log_dir / f"bench-load-{re.sub(r'[^A-Za-z0-9_.-]', '-', label)}.log"
    out = open(log, "w", encoding="utf-8")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if name == "single":  # what scripts/run starts (streamlit run app.py), headless on loopback
        cmd = streamlit_cmd(port)
    elif re.fullmatch(r"serve\d+", name):
        cmd = [str(root / "scripts" / "serve"), "--replicas", name[5:], "--port", str(port), "--address", "127.0.0.1",
               *(extra or [])]
        env["LAB_PYTHON"] = sys.executable
    else:
        raise SystemExit(f"unknown target {name!r}: use single or serveN (serve2, serve3, ...)")
    process = subprocess.Popen(cmd, cwd=root, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               env=env, start_new_session=True)
    target = Target(label, url, process, log=log)
    try:
        if name == "single":
            _wait_healthy(url, process)
        else:  # scripts/serve says "ready" after every replica is healthy and warmed up
            deadline = time.monotonic() + 300
            while "scripts/serve: ready:" not in log.read_text(encoding="utf-8", errors="replace"):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("scripts/serve did not get ready:\n" + log.read_text(encoding="utf-8"))
                time.sleep(0.2)
    except BaseException:
        target.stop()
        raise
    return target


# --- One learner ------------------------------------------------------------------------------


@dataclass
class Interaction:
    kind: str  # load, click, switch, type
    latency: float | None  # click -> the message that draws the new state
    duration: float | None  # click -> script_finished
    problem: str | None = None  # "unanswered: ...", "exception: ...", "state: ..."
    cpu_s: float | None = None  # server CPU for this interaction (measured when a learner is alone)


@dataclass
class Learner:
    index: int
    preset: str
    interactions: list[Interaction] = field(default_factory=list)
    session: Session | None = None
    replica: str | None = None
    frames: list[bytes] = field(default_factory=list)  # only frames naming a learner (for the cross-check)

    def problems(self, prefix: str) -> list[str]:
        return [i.problem for i in self.interactions if i.problem and i.problem.startswith(prefix)]


def sentence(i: int) -> tuple[str, str, str]:
    """Learner i's own Hindi + English sentence, and its two words (unique per learner up to 1,444)."""
    w1, w2 = WORDS[i % len(WORDS)], WORDS[(i // len(WORDS)) % len(WORDS)]
    return f"मेरा नाम learner {i} है and I love {w1} chai with {w2}", w1, w2


_STEPS: dict[str, int] = {}


def steps_of(preset_id: str) -> int:
    """How many merges the preset's training makes (the n in "Merge k of n"), from the engine itself."""
    if preset_id not in _STEPS:
        p = lessons.presets()[preset_id]
        _STEPS[preset_id] = len(train(p.corpus, p.merges, **p.train_kwargs()).steps)
    return _STEPS[preset_id]


def _check_url(qs: str | None, expect: dict[str, str | None]) -> str | None:
    """None if the query string the server set agrees with ``expect`` (None: absent or the page's default)."""
    if qs is None:
        return None
    got = dict(urllib.parse.parse_qsl(qs))
    for name, want in expect.items():
        if name in got and want is not None and got[name] != want:
            return f"URL has {name}={got[name]!r}, this learner has {want!r}"
        if want is not None and name not in got and name != "preset":
            return f"URL has no {name}, this learner has {want!r}"
    return None


async def learner_run(url: str, i: int, start_delay: float, rng: random.Random,
                      think: tuple[float, float] = THINK_S, cpu=None) -> Learner:
    preset_ids = list(lessons.presets())
    preset_id = preset_ids[i % len(preset_ids)]
    preset = lessons.presets()[preset_id]
    me = Learner(i, preset_id)
    await asyncio.sleep(start_delay)
    session = me.session = Session(url)

    async def act(kind: str, coro, check=None) -> None:
        cpu_before = cpu() if cpu else None
        try:
            run = await coro
        except (TimeoutError, ProtocolError, OSError) as exc:
            me.interactions.append(Interaction(kind, None, None, f"unanswered: {kind}: {exc}"))
            raise
        problem = None
        if run.exceptions:
            problem = f"exception: {kind}: {run.exceptions[0]}"
        elif run.status not in ("ok", "fragment ok"):
            problem = f"unanswered: {kind}: script {run.status}"
        elif check is not None:
            problem = check(run)
        if cpu:
            await asyncio.sleep(0.05)  # the server finishes sending (and its bookkeeping) after script_finished
        me.interactions.append(Interaction(kind, run.latency, run.duration, problem,
                                           cpu() - cpu_before if cpu_before is not None else None))
        me.frames.extend(f for f in run.frames if b"learner" in f)
        run.frames.clear()

    n = steps_of(preset_id)
    try:
        await session.open(TRAIN, query(preset=preset_id))
        me.replica = session.replica

        def check_load(run):
            if run.marker_at is None:
                return f"state: load: no 'Step 0 of {n}' header (preset {preset_id})"
            return None

        await act("load", session.load(marker=f"Step 0 of {n}".encode(), timeout=ANSWER_TIMEOUT_S), check_load)
        step = 0
        for _ in range(CLICKS):
            await asyncio.sleep(rng.uniform(*think))
            key = tv.NEXT.skey if step < n else tv.FIRST.skey
            step = step + 1 if step < n else 0
            text = f"Merge {step} of {n}" if step else f"Step 0 of {n}"

            def check_click(run, step=step, text=text):
                if run.marker_at is None:
                    return f"state: click: no '{text}' header (preset {preset_id})"
                corpus = session.widgets.get(session.ids_by_key.get(tv.PRESET.skey, ""))
                if corpus is not None and preset.title not in corpus.string_value:
                    return f"state: click: the Corpus box says {corpus.string_value!r}, not {preset.title!r}"
                return _check_url(run.query_string, {"preset": preset_id, "step": str(step) if step else None})

            await act("click", session.click(key, marker=text.encode(), timeout=ANSWER_TIMEOUT_S), check_click)

        await asyncio.sleep(rng.uniform(*think))
        own, w1, w2 = sentence(i)
        seen_on_page: list[bytes] = []

        def check_switch(run):
            seen_on_page.extend(run.frames)
            return None

        session.keep_frames = True
        await act("switch", session.switch_page(TOKENIZE, timeout=ANSWER_TIMEOUT_S), check_switch)
        marker = next((w for w in (w1, w2) if not any(w.encode() in f for f in seen_on_page)), None)
        await asyncio.sleep(rng.uniform(*think))

        def check_type(run):
            if marker is not None and run.marker_at is None:
                return f"state: type: the tokens of this learner's text (word {marker!r}) were not drawn"
            if run.query_string is not None and dict(urllib.parse.parse_qsl(run.query_string)).get("text") != own:
                return f"state: type: the URL's text is not this learner's: {run.query_string[:80]!r}"
            return None

        await act("type", session.type_text(tkv.TEXT.skey, own, marker=marker.encode() if marker else None,
                                             timeout=ANSWER_TIMEOUT_S), check_type)
    except (TimeoutError, ProtocolError, OSError) as exc:
        if not me.interactions or not (me.interactions[-1].problem or "").startswith("unanswered"):
            me.interactions.append(Interaction("connect", None, None, f"unanswered: connect: {exc}"))
    # Another learner's sentence must never reach this one.
    others = {int(m) for f in me.frames for m in re.findall(rb"learner(?:\+|%20| )(\d+)(?:\+|%20| )", f)} - {i}
    if others:
        me.interactions.append(Interaction("cross", None, None, f"state: saw learner(s) {sorted(others)[:5]}'s text"))
    me.frames.clear()
    return me


# --- A hostile learner ------------------------------------------------------------------------

HOSTILE_PATTERN = r"(?:.{0,6}){0,7}(?!)|\S+"
RECURSIVE_PATTERN = r"(?R)?a|\S"
HEAVY_PATTERN = "|".join([r"(?:a{100}){100}"] * 12)  # 191 characters (a link keeps 200): 120,000 parts compiled
HOSTILE_RECORDS = "name,city\nAsha,Pune\rMumbai"
HOSTILE_MERGES = 23_000
HOSTILE_TIMEOUT_S = 120
REPLICA_BOUND_MB = 100  # issue 15: a replica's memory comes back under its warm size + 100 MB


def chained_model(merges: int) -> bytes:
    """A model file of one base symbol and ``merges`` chained merges (a, aa, aaa, ...): small on disk (265 KB
    for 23,000), but its tokens add up to merges^2/2 symbols."""
    data = {"format": "tokenization-lab/bpe", "version": 1,
            "config": {"unit": "chars", "split": "whitespace", "pattern": " ?\\S+", "end_of_word": None,
                       "ties": "first"},
            "base": ["a"], "merges": [[0, 0]] + [[r, 0] for r in range(1, merges)], "vocab_size": merges + 1}
    return json.dumps(data, separators=(",", ":")).encode()


@dataclass
class HostileAction:
    name: str
    seconds: float
    outcome: str  # "answered", "answered: <warning>", "exception: ...", "unanswered: ..."


def _warnings(frames: list[bytes]) -> list[str]:
    """The texts of st.warning / st.error / st.info alerts drawn in these frames."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    out = []
    for data in frames:
        fm = ForwardMsg()
        fm.ParseFromString(data)
        if fm.WhichOneof("type") == "delta" and fm.delta.WhichOneof("type") == "new_element":
            el = fm.delta.new_element
            if el.WhichOneof("type") == "alert" and el.alert.format in (el.alert.WARNING, el.alert.ERROR):
                out.append(el.alert.body)
    return out


async def _hostile_action(url: str, name: str, page: str, qs: str, timeout: float,
                          upload: bytes | None = None, jar=None) -> HostileAction:
    session = Session(url)
    if jar is not None:  # the same browser's cookies: the same replica, as a learner's tabs are
        session.jar = jar
    start = time.perf_counter()
    try:
        await session.open(page, qs, timeout=timeout)
        run = await session.load(timeout=timeout)
        if upload is not None:
            keys = [k for k in session.ids_by_key if k.endswith(".upload")]
            if not keys:
                return HostileAction(name, time.perf_counter() - start,
                                     f"unanswered: no uploader ({sorted(session.ids_by_key)})")
            session.keep_frames = True
            run = await session.upload(keys[0], "chain.json", upload, timeout=timeout)
        seconds = time.perf_counter() - start
        name = f"{name} (on {session.replica or '?'})"
        if run.exceptions:
            return HostileAction(name, seconds, f"exception: {run.exceptions[0][:160]}")
        said = _warnings(run.frames)
        return HostileAction(name, seconds, "answered" + (f": {said[-1][:160]}" if said else ""))
    except (TimeoutError, ProtocolError, OSError) as exc:
        where = f" (on {session.replica})" if session.replica else ""
        return HostileAction(name + where, time.perf_counter() - start, f"unanswered: {exc}")
    finally:
        await session.close()


async def hostile_run(url: str, start_delay: float, timeout: float, pattern: str, merges: int) -> list[HostileAction]:
    """What one hostile learner does, in order (one tab each): two hostile Train links, a Quirks link that once
    crashed, and the upload of a degenerate model on Tokenize anything."""
    await asyncio.sleep(start_delay)
    fair = "english-hindi-fair"
    steps = [
        ("Train, backtracking pre-split", TRAIN, query(preset=fair, split="regex", pattern=pattern), None),
        ("Train, recursive pre-split", TRAIN, query(preset=fair, split="regex", pattern=RECURSIVE_PATTERN), None),
        ("Train, counted repeats compiled out", TRAIN, query(preset=fair, split="regex", pattern=HEAVY_PATTERN), None),
        ("Quirks, a bare CR in the records", "Quirks", query(quirk="Formatting", records=HOSTILE_RECORDS), None),
        (f"Tokenize, upload of {merges:,} chained merges", TOKENIZE, "", chained_model(merges)),
    ]
    jar = CookieJar()  # one browser, several tabs: every action on the same replica
    return [await _hostile_action(url, name, page, qs, timeout, upload, jar) for name, page, qs, upload in steps]


def replica_pids(target: Target) -> list[int]:
    """The target's Streamlit processes (scripts/serve's replicas, or the single one)."""
    return [p for p in target.pids() if b"streamlit" in cmdline(p) and b"run" in cmdline(p)]


def replica_rss_mb(target: Target) -> dict[int, float]:
    return {pid: rss_bytes([pid]) / 2**20 for pid in replica_pids(target)}


def peak_rss_mb(pid: int) -> float:
    """The most memory the process has held at once (VmHWM)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) / 1024 for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        return float("nan")


def replica_memory(target: Target, warm_mb: dict[int, float]) -> list[dict]:
    """Each warm replica now: its RSS against warm + REPLICA_BOUND_MB, and its peak. A replica that is gone
    (it died: scripts/serve starts it again under a new pid) fails the bar."""
    now = replica_rss_mb(target)
    out = []
    for pid, warm in warm_mb.items():
        if pid not in now:
            out.append({"pid": pid, "warm_mb": warm, "ok": False,
                        "text": f"replica pid {pid}: GONE (warm {warm:.0f} MB); it did not survive"})
            continue
        after, peak = now[pid], peak_rss_mb(pid)
        ok = after <= warm + REPLICA_BOUND_MB
        out.append({"pid": pid, "warm_mb": warm, "after_mb": after, "peak_mb": peak, "ok": ok,
                    "text": f"{target.replica_name(pid)} (pid {pid}): warm {warm:.0f} MB, after the hostile learner {after:.0f} MB "
                            f"({after - warm:+.0f} MB), peak {peak:.0f} MB: "
                            + ("OK" if ok else f"OVER warm + {REPLICA_BOUND_MB} MB")})
    return out


# --- A level: N learners at once ----------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


@dataclass
class LevelResult:
    target: str
    learners: int
    latencies: dict[str, list[float]]
    unanswered: list[str]
    exceptions: list[str]
    wrong_state: list[str]
    interactions: int
    cpu_s: float
    client_cpu_s: float
    machine_cpu_s: float
    wall_s: float
    rss_before: int
    rss_live: int
    rss_after: int
    replicas_used: dict[str, int]
    cpu_by_kind: dict[str, list[float]] = field(default_factory=dict)  # a lone learner's interactions
    hostile: list[HostileAction] = field(default_factory=list)  # what the hostile learners met

    def row(self) -> dict:
        lat = self.latencies
        inter = lat["click"] + lat["type"]
        return {
            "target": self.target, "learners": self.learners,
            "click_p50": pct(lat["click"], 0.5), "click_p95": pct(lat["click"], 0.95),
            "click_max": max(lat["click"], default=float("nan")),
            "type_p50": pct(lat["type"], 0.5), "type_p95": pct(lat["type"], 0.95),
            "type_max": max(lat["type"], default=float("nan")),
            "interaction_p95": pct(inter, 0.95),
            "load_p50": pct(lat["load"], 0.5), "load_p95": pct(lat["load"], 0.95),
            "all_p95": pct(lat["load"] + lat["click"] + lat["switch"] + lat["type"], 0.95),
            "switch_p95": pct(lat["switch"], 0.95),
            "unanswered": len(self.unanswered), "exceptions": len(self.exceptions), "wrong_state": len(self.wrong_state),
            "interactions": self.interactions,
            "cpu_ms_per_interaction": 1000 * self.cpu_s / max(1, self.interactions),
            "cpu_util": self.cpu_s / self.wall_s if self.wall_s else 0,
            "client_cpu_s": self.client_cpu_s, "wall_s": self.wall_s,
            "other_cpu_s": max(0.0, self.machine_cpu_s - self.cpu_s - self.client_cpu_s),
            "rss_before_mb": self.rss_before / 2**20, "rss_live_mb": self.rss_live / 2**20,
            "rss_after_mb": self.rss_after / 2**20,
            "kb_per_live_session": (self.rss_live - self.rss_before) / 1024 / max(1, self.learners),
            "replicas_used": self.replicas_used,
            "cpu_ms_by_kind": {k: 1000 * statistics.median(v) for k, v in self.cpu_by_kind.items() if v},
        }


_LEARNERS_SO_FAR = [0]  # every learner of a bench run gets its own sentence (no cache hit from an earlier level)


async def run_level(target: Target, n: int, ramp: float, seed: int,
                    think: tuple[float, float] = THINK_S, hostile: int = 0, hostile_timeout: float = HOSTILE_TIMEOUT_S,
                    hostile_pattern: str = HOSTILE_PATTERN, hostile_merges: int = HOSTILE_MERGES) -> LevelResult:
    rng = random.Random(seed)
    first, _LEARNERS_SO_FAR[0] = _LEARNERS_SO_FAR[0], _LEARNERS_SO_FAR[0] + n
    pids = target.pids()
    rss_before = rss_bytes(pids)
    cpu_before = cpu_seconds(pids)
    client_before = resource.getrusage(resource.RUSAGE_SELF)
    machine_before = machine_busy_seconds()
    start = time.perf_counter()
    hostile_task = asyncio.gather(*(
        hostile_run(target.url, ramp * (j + 0.5) / max(1, hostile), hostile_timeout, hostile_pattern, hostile_merges)
        for j in range(hostile)))
    learners = await asyncio.gather(*(
        learner_run(target.url, first + i, ramp * i / max(1, n), random.Random(rng.random()), think,
                    cpu=(lambda: sum(cpu_seconds(target.pids()).values())) if n == 1 and not hostile else None)
        for i in range(n)))
    hostile_actions = [a for actions in await hostile_task for a in actions]
    wall = time.perf_counter() - start
    pids = target.pids()
    rss_live = rss_bytes(pids)
    cpu_after = cpu_seconds(pids)
    client_after = resource.getrusage(resource.RUSAGE_SELF)
    machine = machine_busy_seconds() - machine_before
    await asyncio.gather(*(lr.session.close() for lr in learners if lr.session), return_exceptions=True)
    await asyncio.sleep(2)
    rss_after = rss_bytes(target.pids())
    cpu = sum(v - cpu_before.get(pid, 0.0) for pid, v in cpu_after.items())
    latencies: dict[str, list[float]] = {"load": [], "click": [], "switch": [], "type": []}
    interactions = 0
    for lr in learners:
        for it in lr.interactions:
            if it.kind in latencies:
                interactions += 1
                if it.latency is not None:
                    latencies[it.kind].append(it.latency)
    cpu_by_kind: dict[str, list[float]] = {}
    for lr in learners:
        for it in lr.interactions:
            if it.cpu_s is not None and it.problem is None:
                cpu_by_kind.setdefault(it.kind, []).append(it.cpu_s)
    used: dict[str, int] = {}
    for lr in learners:
        used[lr.replica or "?"] = used.get(lr.replica or "?", 0) + 1
    return LevelResult(
        target.name, n, latencies,
        [p for lr in learners for p in lr.problems("unanswered")],
        [p for lr in learners for p in lr.problems("exception")],
        [p for lr in learners for p in lr.problems("state")],
        interactions, cpu,
        (client_after.ru_utime + client_after.ru_stime) - (client_before.ru_utime + client_before.ru_stime),
        machine, wall, rss_before, rss_live, rss_after, used, cpu_by_kind, hostile_actions,
    )


# --- First visit with an empty cache ----------------------------------------------------------


def chromium_asset_list(url: str, path: str) -> tuple[list[str], float]:
    """The same-origin URLs a fresh Chromium fetches for ``path`` (in order), and how long it took to be usable."""
    from playwright.sync_api import sync_playwright

    from tests.browser.browser_helpers import CHROMIUM, CHROMIUM_ARGS, wait_for_streamlit

    fetched: list[str] = []
    origin = url.rstrip("/")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 1500})
            page = context.new_page()
            page.on("request", lambda r: fetched.append(r.url)
                    if r.url.startswith(origin) and r.resource_type != "websocket" else None)
            start = time.perf_counter()
            page.goto(f"{origin}/{path}")
            wait_for_streamlit(page)
            page.get_by_text(re.compile(r"Step 0 of \d+")).first.wait_for()
            usable = time.perf_counter() - start
            page.evaluate("document.fonts.ready")
            page.wait_for_timeout(500)
        finally:
            browser.close()
    seen, out = set(), []
    for u in fetched:
        target = u[len(origin):] or "/"
        if target not in seen:
            seen.add(target)
            out.append(target)
    return out, usable


@dataclass
class Visit:
    assets_s: float | None = None
    usable_s: float | None = None
    wire_bytes: int = 0
    problem: str | None = None


async def first_visit(url: str, assets: list[str], n_preset: int, preset_id: str, start_delay: float) -> Visit:
    """One fresh visitor: HTML, then the other URLs over six keep-alive connections, then the websocket's first run."""
    await asyncio.sleep(start_delay)
    visit = Visit()
    session = Session(url, keep_frames=False)
    parsed = urllib.parse.urlsplit(url)
    conns = [session.http] + [HttpConnection(parsed.hostname or "127.0.0.1", parsed.port or 80) for _ in range(5)]
    start = time.perf_counter()
    try:
        html_target, rest = assets[0], assets[1:]
        page = await session.fetch(html_target)
        visit.wire_bytes += page.wire_bytes
        queue: asyncio.Queue[str] = asyncio.Queue()
        for a in rest:
            queue.put_nowait(a)

        async def worker(conn: HttpConnection) -> None:
            from deploy.stclient import BROWSER_HEADERS

            while not queue.empty():
                target = queue.get_nowait()
                resp = await conn.get(target, {**BROWSER_HEADERS, **session.jar.header()})
                session.jar.update(resp)
                visit.wire_bytes += resp.wire_bytes
                if resp.status >= 500:
                    raise ProtocolError(f"GET {target}: HTTP {resp.status}")

        await asyncio.gather(*(worker(c) for c in conns))
        visit.assets_s = time.perf_counter() - start
        session.url_path, session.query_string = TRAIN, query(preset=preset_id)
        await session.connect(timeout=ANSWER_TIMEOUT_S)
        run = await session.load(marker=f"Step 0 of {n_preset}".encode(), timeout=ANSWER_TIMEOUT_S)
        if run.marker_at is None:
            visit.problem = "the page's first run drew no step header"
        visit.usable_s = (run.marker_at or run.finished or time.perf_counter()) - start
    except (TimeoutError, ProtocolError, OSError) as exc:
        visit.problem = f"{type(exc).__name__}: {exc}"
    finally:
        await session.close()
        for c in conns[1:]:
            await c.close()
    return visit


async def run_first_visits(url: str, assets: list[str], n: int, ramp: float) -> list[Visit]:
    preset_id = "chai"
    steps = steps_of(preset_id)
    assets = [f"/{TRAIN}?{query(preset=preset_id)}"] + [a for a in assets if not a.startswith(f"/{TRAIN}")]
    return await asyncio.gather(*(first_visit(url, assets, steps, preset_id, ramp * i / max(1, n)) for i in range(n)))


# --- A burst of first visits: a class opens one link at once ------------------------------------


BURST_LINK = f"{TRAIN}?{query(preset='chai')}"


@dataclass
class BurstVisit:
    replica: str | None = None
    usable_s: float | None = None  # the page's HTML requested -> the first run drew the marker
    run_s: float | None = None  # the first run asked for (rerun_script sent) -> the marker
    problem: str | None = None


def _marker_for(link: str) -> bytes | None:
    """What shows that a first run of ``link`` drew its page: Train's step header, else nothing (script_finished)."""
    path, _, qs = link.partition("?")
    if path.strip("/") == TRAIN:
        preset_id = dict(urllib.parse.parse_qsl(qs)).get("preset", "chai")
        if preset_id in lessons.presets():
            return f"Step 0 of {steps_of(preset_id)}".encode()
    return None


async def burst_visit(url: str, link: str, delay: float, sessions: list[Session]) -> BurstVisit:
    """One learner opens the link: the page's HTML, health, host-config, the websocket, the first run. The tab
    stays open (a class stays on the page) until the whole burst is over."""
    await asyncio.sleep(delay)
    path, _, qs = link.partition("?")
    marker = _marker_for(link)
    session = Session(url, keep_frames=False)
    sessions.append(session)
    visit = BurstVisit()
    start = time.perf_counter()
    try:
        await session.open(path.strip("/"), qs, timeout=ANSWER_TIMEOUT_S)
        visit.replica = session.replica
        run = await session.load(marker=marker, timeout=ANSWER_TIMEOUT_S)
        drawn = run.marker_at if marker is not None else run.finished
        if run.exceptions:
            visit.problem = f"exception: {run.exceptions[0]}"
        elif drawn is None:
            visit.problem = f"the first run drew no {marker!r}" if marker else f"script {run.status}"
        else:
            visit.usable_s, visit.run_s = drawn - start, drawn - run.sent
    except (TimeoutError, ProtocolError, OSError) as exc:
        visit.problem = f"{type(exc).__name__}: {exc}"
    return visit


async def run_burst(target: Target, n: int, ramp: float, link: str = BURST_LINK) -> dict:
    """``n`` fresh learners open ``link`` within ``ramp`` seconds (evenly spread), as a class does when the teacher
    says "open the link": how long until each one's page is usable, and the servers' CPU per visit."""
    pids = target.pids()
    cpu_before, machine_before, start = cpu_seconds(pids), machine_busy_seconds(), time.perf_counter()
    client_before = resource.getrusage(resource.RUSAGE_SELF)
    sessions: list[Session] = []
    visits = await asyncio.gather(*(burst_visit(target.url, link, ramp * i / max(1, n - 1) if n > 1 else 0, sessions)
                                    for i in range(n)))
    wall = time.perf_counter() - start
    await asyncio.sleep(0.5)  # the servers finish sending
    cpu_after = cpu_seconds(target.pids())
    cpu = sum(v - cpu_before.get(pid, 0.0) for pid, v in cpu_after.items())
    machine = machine_busy_seconds() - machine_before
    client_after = resource.getrusage(resource.RUSAGE_SELF)
    client = (client_after.ru_utime + client_after.ru_stime) - (client_before.ru_utime + client_before.ru_stime)
    await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
    usable = [v.usable_s for v in visits if v.usable_s is not None]
    runs = [v.run_s for v in visits if v.run_s is not None]
    problems = [v.problem for v in visits if v.problem]
    used: dict[str, int] = {}
    for v in visits:
        used[v.replica or "?"] = used.get(v.replica or "?", 0) + 1
    return {"target": target.name, "visitors": n, "ramp_s": ramp, "link": link,
            "usable_p50": pct(usable, 0.5), "usable_p95": pct(usable, 0.95), "usable_max": max(usable, default=float("nan")),
            "run_p50": pct(runs, 0.5), "run_p95": pct(runs, 0.95),
            "cpu_ms_per_visit": 1000 * cpu / max(1, n), "wall_s": wall,
            "client_cpu_s": client, "other_cpu_s": max(0.0, machine - cpu - client), "problems": problems,
            "replicas_used": used}


def print_burst(row: dict) -> None:
    print(f"{row['target']:8} burst: {row['visitors']} open /{row['link']} within {row['ramp_s']:g} s | usable p50 "
          f"{fmt_s(row['usable_p50'])} s p95 {fmt_s(row['usable_p95'])} s max {fmt_s(row['usable_max'])} s | first run "
          f"p50 {fmt_s(row['run_p50'])} s p95 {fmt_s(row['run_p95'])} s | server CPU {row['cpu_ms_per_visit']:.0f} ms a "
          f"visit | problems {len(row['problems'])}" + (f" (first: {row['problems'][0]})" if row["problems"] else "")
          + ("  <- NOT QUIET" if row["other_cpu_s"] > 0.1 * row["wall_s"] else ""))


# --- Every page warm after start: a page's first visit against its second ------------------------


def warmth_links(target: Target) -> list[str]:
    """Every page the server has (what its ``new_session`` message lists, Home included) and every lesson of this
    tree's course on the Lessons page."""
    from lessons.course import course
    from ui.links import LESSON

    async def pages() -> list[str]:
        session = Session(target.url, keep_frames=False)
        try:
            await session.open("", timeout=ANSWER_TIMEOUT_S)
            await session.load(timeout=ANSWER_TIMEOUT_S)
            return sorted(session.pages, key=lambda p: (p != "", p))
        finally:
            await session.close()

    found = asyncio.run(pages())
    out = list(found)
    lessons_page = next((p for p in found if p.lower() == "lessons"), None)
    if lessons_page is not None:
        out += [f"{lessons_page}?{query(**{LESSON.name: lesson.id})}" for lesson in course().lessons]
    return out


async def _timed_visit(target: Target, link: str) -> tuple[str | None, float | None, float, str | None]:
    """One fresh tab opens ``link`` alone: (its replica, the first run's wall time, the servers' CPU, a problem)."""
    path, _, qs = link.partition("?")
    session = Session(target.url, keep_frames=False)
    pids = target.pids()
    before = sum(cpu_seconds(pids).values())
    try:
        await session.open(path, qs, timeout=ANSWER_TIMEOUT_S)
        run = await session.load(timeout=ANSWER_TIMEOUT_S)
        await asyncio.sleep(0.1)  # the servers finish sending
        problem = f"exception: {run.exceptions[0][:120]}" if run.exceptions else None
        return session.replica, run.duration, sum(cpu_seconds(pids).values()) - before, problem
    except (TimeoutError, ProtocolError, OSError) as exc:
        return session.replica, None, sum(cpu_seconds(pids).values()) - before, f"{type(exc).__name__}: {exc}"
    finally:
        await session.close()


def run_warmth(target: Target, replicas: int) -> dict:
    """Right after the server is ready: every page (and lesson) opened by fresh tabs, one after another, twice on
    each replica (new browsers take turns); each replica's first visit to a page against its second. A page the
    warm-up left cold costs more on its first visit (imports, training, a tokenizer read from disk)."""
    links = warmth_links(target)
    rows = []
    for link in links:
        seen: dict[str, list[tuple[float | None, float]]] = {}
        problems = []
        for _ in range(2 * max(1, replicas)):
            replica, wall, cpu, problem = asyncio.run(_timed_visit(target, link))
            seen.setdefault(replica or "?", []).append((wall, cpu))
            if problem:
                problems.append(problem)
        firsts = [v[0] for v in seen.values() if v]
        seconds = [v[1] for v in seen.values() if len(v) > 1]
        rows.append({
            "link": link,
            "first_wall": max((w for w, _ in firsts if w is not None), default=float("nan")),
            "first_cpu": max((c for _, c in firsts), default=float("nan")),
            "second_wall": max((w for w, _ in seconds if w is not None), default=float("nan")),
            "second_cpu": max((c for _, c in seconds), default=float("nan")),
            "problems": problems,
        })
    return {"target": target.name, "pages": rows}


def cold(row: dict) -> bool:
    """A first visit that cost clearly more than the second: over twice its CPU and 50 ms more (the CPU clock
    ticks every 10 ms, and a busy machine moves a single visit's time by tens of ms)."""
    first, second = row["first_cpu"], row["second_cpu"]
    return first == first and second == second and first > 2 * second + 0.05


def print_warmth(res: dict) -> None:
    rows = res["pages"]
    print(f"{res['target']:8} pages after start, each replica's first visit against its second (servers' CPU, the "
          f"first run's wall time; the worst replica):")
    for r in rows:
        flag = "  <- COLD" if cold(r) else ""
        print(f"   /{r['link'][:48]:48} first {1000 * r['first_cpu']:6.0f} ms CPU {fmt_s(r['first_wall'])} s | "
              f"second {1000 * r['second_cpu']:6.0f} ms CPU {fmt_s(r['second_wall'])} s{flag}"
              + (f" | problem: {r['problems'][0]}" if r["problems"] else ""))
    worst = max(rows, key=lambda r: r["first_cpu"] - r["second_cpu"], default=None)
    n_cold = sum(cold(r) for r in rows)
    if worst is not None:
        print(f"   {n_cold} of {len(rows)} pages cold; the largest first-visit excess: /{worst['link']} "
              f"{1000 * (worst['first_cpu'] - worst['second_cpu']):+.0f} ms CPU")
    res["cold"] = n_cold


# --- Checking the client against Chromium -----------------------------------------------------


def _summary(raw: bytes) -> dict | None:
    from google.protobuf.json_format import MessageToDict
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.ParseFromString(raw)
    if msg.WhichOneof("type") != "rerun_script":
        return None
    cs = msg.rerun_script
    ctx = MessageToDict(cs.context_info)
    ctx["url"] = urllib.parse.urlsplit(ctx.get("url", "")).path
    return {
        "query_string": cs.query_string, "page_name": cs.page_name, "page_script_hash": cs.page_script_hash,
        "fragment_id": cs.fragment_id, "context_info": ctx,
        "widgets": {w.id.split("-", 2)[-1]: {k: v for k, v in MessageToDict(w).items() if k != "id"}
                    for w in cs.widget_states.widgets},
    }


def check_browser(url: str) -> int:
    """Chromium and this client go through the same steps; their BackMsgs are compared field by field."""
    from playwright.sync_api import sync_playwright

    from tests.browser.browser_helpers import CHROMIUM, CHROMIUM_ARGS, wait_for_streamlit

    own, w1, _ = sentence(7)
    sent: list[bytes] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 1500}).new_page()
            page.on("websocket", lambda ws: ws.on(
                "framesent", lambda p: sent.append(p if isinstance(p, bytes) else p.encode("latin-1"))))
            page.goto(f"{url}/{TRAIN}?{query(preset='readers')}")
            wait_for_streamlit(page)
            for k in (1, 2):
                page.get_by_role("button", name="Next").click()
                page.get_by_text(f"Merge {k} of").first.wait_for()
                wait_for_streamlit(page)
            page.locator('[data-testid="stSidebar"] a', has_text="Tokenize anything").click()
            page.get_by_role("textbox", name="Text").wait_for()
            wait_for_streamlit(page)
            box = page.get_by_role("textbox", name="Text")
            box.fill(own)
            box.press("Control+Enter")
            page.wait_for_function(f"() => location.search.includes({json.dumps(urllib.parse.quote_plus(w1))})")
            wait_for_streamlit(page)
        finally:
            browser.close()
    chromium = [s for s in map(_summary, sent) if s is not None]

    async def client_steps() -> list[dict]:
        session = Session(url)
        recorded: list[bytes] = []
        original = session.rerun

        async def recording_rerun(**kwargs):
            ws_send = session.ws.send

            async def send(data):
                recorded.append(data)
                await ws_send(data)

            session.ws.send = send
            try:
                return await original(**kwargs)
            finally:
                session.ws.send = ws_send

        session.rerun = recording_rerun  # type: ignore[method-assign]
        await session.open(TRAIN, query(preset="readers"))
        await session.load()
        await session.click(tv.NEXT.skey)
        await session.click(tv.NEXT.skey)
        await session.switch_page(TOKENIZE)
        await session.type_text(tkv.TEXT.skey, own)
        await session.close()
        return [s for s in map(_summary, recorded) if s is not None]

    client = asyncio.run(client_steps())
    names = ["deep link", "Next", "Next", "sidebar link", "typing"]
    print(f"Chromium sent {len(chromium)} rerun messages, this client {len(client)}")
    differences = 0
    for i, name in enumerate(names):
        a = chromium[i] if i < len(chromium) else None
        b = client[i] if i < len(client) else None
        if a == b:
            print(f"  {name:13} same: {len(a['widgets']) if a else 0} widget states, query {a['query_string']!r}, "
                  f"fragment {a['fragment_id'] or '-'}" if a else f"  {name:13} missing on both sides")
            continue
        differences += 1
        print(f"  {name:13} DIFFERENT")
        for key in sorted(set((a or {}).keys()) | set((b or {}).keys())):
            va, vb = (a or {}).get(key), (b or {}).get(key)
            if va != vb:
                print(f"      {key}: chromium={va!r}\n      {' ' * len(key)}  client  ={vb!r}")
    print("the client sends what Chromium sends" if not differences else f"{differences} step(s) differ")
    return 1 if differences else 0


# --- Report -----------------------------------------------------------------------------------


def check_browser_class(url: str, db_url: str) -> int:
    """The class bar's timer: a learner joined in Chromium sits on the Class page for two ticks of its bar's own
    timer (``ui.poll.POLL_S``, plus 1.5 s) and the BackMsgs its timer sends are recorded; this client joins the same
    way and ticks three times (``Session.tick``); the messages are compared field by field (``_summary``, plus
    ``is_auto_rerun``)."""
    from playwright.sync_api import sync_playwright
    from streamlit.proto.BackMsg_pb2 import BackMsg

    from lessons.classroom import Classes, open_database
    from tests.browser.browser_helpers import CHROMIUM, CHROMIUM_ARGS, wait_for_streamlit
    from ui.poll import POLL_S
    from views import classroom as cv

    def summary(raw: bytes) -> dict | None:
        found = _summary(raw)
        if found is not None:
            msg = BackMsg()
            msg.ParseFromString(raw)
            found["is_auto_rerun"] = msg.rerun_script.is_auto_rerun
        return found

    with open_database(db_url) as db:
        code = Classes(db).start("Browser check").code
    sent: list[bytes] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 1500}).new_page()
            page.on("websocket", lambda ws: ws.on(
                "framesent", lambda p: sent.append(p if isinstance(p, bytes) else p.encode("latin-1"))))
            page.goto(f"{url}/Class?{query(code=code)}")
            wait_for_streamlit(page)
            page.get_by_role("textbox", name="Your name").fill("Asha")
            page.get_by_role("textbox", name="Your name").press("Enter")
            wait_for_streamlit(page)
            page.get_by_role("button", name="Join").click()
            page.get_by_text("Welcome").first.wait_for()
            wait_for_streamlit(page)
            joined = len(sent)
            time.sleep(2 * POLL_S + 1.5)  # two ticks of the bar's own timer
        finally:
            browser.close()
    chromium = [m for m in map(summary, sent[joined:]) if m is not None]

    async def client_ticks() -> list[dict]:
        s = Session(url)
        await s.open("Class", query(code=code))
        await s.load()
        await s.type_text(cv.NAME.skey, "Asha")
        await s.click(cv.JOIN.skey)
        own: list[bytes] = []
        send = s.ws.send

        async def spy(data):
            own.append(data)
            await send(data)

        s.ws.send = spy
        for _ in range(3):
            await s.tick()
        await s.close()
        return [m for m in map(summary, own) if m is not None]

    mine = asyncio.run(client_ticks())
    agree = len(chromium) >= 2 and all(m == mine[0] for m in chromium + mine)
    print(f"class bar: Chromium sent {len(chromium)} timer reruns in {2 * POLL_S + 1.5:g} s, this client {len(mine)}: "
          + ("they agree field for field" if agree else "THEY DIFFER"))
    for label, m in (("Chromium", chromium[:1]), ("client", mine[:1])):
        print(f"  {label}: {json.dumps(m, sort_keys=True)[:600]}")
    return 0 if agree else 1


def fmt_s(v: float) -> str:
    return "   -  " if v != v else f"{v:6.2f}"


def print_levels(rows: list[dict]) -> None:
    width = max([8] + [len(r["target"]) for r in rows])
    print(f"\n{'target':{width}} {'lrn':>3} | {'click p50':>9} {'p95':>6} {'max':>6} | {'type p50':>8} {'p95':>6} {'max':>6} | "
          f"{'load p50':>8} {'p95':>6} {'switch p95':>10} {'all p95':>7} | {'unans':>5} {'exc':>3} {'wrong':>5} | "
          f"{'CPU/int':>8} {'CPU use':>7} | {'RSS before':>10} {'live':>7} {'after':>7} {'per sess':>9}")
    for r in rows:
        print(f"{r['target']:{width}} {r['learners']:3} | {fmt_s(r['click_p50']):>9} {fmt_s(r['click_p95'])} {fmt_s(r['click_max'])} | "
              f"{fmt_s(r['type_p50']):>8} {fmt_s(r['type_p95'])} {fmt_s(r['type_max'])} | "
              f"{fmt_s(r['load_p50']):>8} {fmt_s(r['load_p95'])} {fmt_s(r['switch_p95']):>10} {fmt_s(r['all_p95']):>7} | "
              f"{r['unanswered']:5} {r['exceptions']:3} {r['wrong_state']:5} | "
              f"{r['cpu_ms_per_interaction']:6.0f}ms {r['cpu_util']:6.2f}c | "
              f"{r['rss_before_mb']:8.0f}MB {r['rss_live_mb']:5.0f}MB {r['rss_after_mb']:5.0f}MB "
              f"{r['kb_per_live_session']:7.0f}KB")


def print_side_by_side(out: dict, labels: list[str]) -> None:
    """The figures of each tree in columns (``--vs``): a burst of first visits, each level's first visits, clicks
    and every action, CPU, and the pages left cold after start."""
    def cell(a: float, b: float | None = None, fmt: str = "{:.2f}") -> str:
        if b is None:
            return "-" if a != a else fmt.format(a)
        return "-" if a != a and b != b else f"{fmt.format(a)} / {fmt.format(b)}"

    lines: list[tuple[str, list[str]]] = []
    bursts = {b["target"]: b for b in out["burst"]}
    if bursts:
        b0 = next(iter(bursts.values()))
        lines += [
            (f"burst: {b0['visitors']} open one link within {b0['ramp_s']:g} s: usable p50 / p95",
             [cell(bursts[x]["usable_p50"], bursts[x]["usable_p95"]) if x in bursts else "-" for x in labels]),
            ("burst: the first run (sent -> drawn) p50 / p95",
             [cell(bursts[x]["run_p50"], bursts[x]["run_p95"]) if x in bursts else "-" for x in labels]),
            ("burst: servers' CPU a visit, ms",
             [cell(bursts[x]["cpu_ms_per_visit"], fmt="{:.0f}") if x in bursts else "-" for x in labels]),
        ]
    for n in sorted({r["learners"] for r in out["levels"]}):
        rows = {r["target"]: r for r in out["levels"] if r["learners"] == n}
        lines += [
            (f"{n} learners: first visit (deep link) p50 / p95",
             [cell(rows[x]["load_p50"], rows[x]["load_p95"]) if x in rows else "-" for x in labels]),
            (f"{n} learners: Next p50 / p95",
             [cell(rows[x]["click_p50"], rows[x]["click_p95"]) if x in rows else "-" for x in labels]),
            (f"{n} learners: every action p95 (and max)",
             [f"{cell(rows[x]['all_p95'])} ({cell(max(rows[x]['click_max'], rows[x]['type_max']))})" if x in rows
              else "-" for x in labels]),
            (f"{n} learners: servers' CPU an interaction, ms",
             [cell(rows[x]["cpu_ms_per_interaction"], fmt="{:.0f}") if x in rows else "-" for x in labels]),
        ]
    warmth = {w["target"]: w for w in out["warmth"]}
    if warmth:
        lines.append(("pages cold after start (first visit > 2x second + 50 ms)",
                      [f"{warmth[x]['cold']} of {len(warmth[x]['pages'])}" if x in warmth else "-" for x in labels]))
    if not lines:
        return
    width = max(len(label) for label, _ in lines)
    col = max([16] + [len(x) for x in labels] + [len(c) for _, cells in lines for c in cells])
    print(f"\nside by side (seconds unless said):\n{'':{width}}  " + "  ".join(f"{x:>{col}}" for x in labels))
    for label, cells in lines:
        print(f"{label:{width}}  " + "  ".join(f"{c:>{col}}" for c in cells))


def checkout(rev: str, log_dir: Path) -> Path:
    """``rev``'s code as committed (``git archive``), in ``artifacts/vs-<commit>`` (made once per commit): the other
    side of ``--vs``, started with its own scripts/serve and this interpreter."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"], check=True,
                            capture_output=True, text=True).stdout.strip()
    tree = log_dir / f"vs-{commit[:12]}"
    if not (tree / "app.py").exists():
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def print_visits(name: str, visits: list[Visit], n_assets: int) -> dict:
    assets = [v.assets_s for v in visits if v.assets_s is not None]
    usable = [v.usable_s for v in visits if v.usable_s is not None]
    problems = [v.problem for v in visits if v.problem]
    kb = statistics.mean(v.wire_bytes for v in visits) / 1024 if visits else 0
    row = {"target": name, "visitors": len(visits), "assets_p50": pct(assets, 0.5), "assets_p95": pct(assets, 0.95),
           "usable_p50": pct(usable, 0.5), "usable_p95": pct(usable, 0.95), "usable_max": max(usable, default=float("nan")),
           "kb_per_visitor": kb, "problems": len(problems), "urls": n_assets}
    print(f"{name:8} {len(visits):3} visitors x {n_assets} URLs | "
          f"assets p50 {fmt_s(row['assets_p50'])} s p95 {fmt_s(row['assets_p95'])} s | "
          f"usable p50 {fmt_s(row['usable_p50'])} s p95 {fmt_s(row['usable_p95'])} s max {fmt_s(row['usable_max'])} s | "
          f"{kb:,.0f} KB on the wire each | problems {len(problems)}" + (f" (first: {problems[0]})" if problems else ""))
    return row


# --- The class scenario: one teacher and N learners in one class --------------------------------------------

CLASS_QUESTIONS = 5
CLASS_AGAIN = (1, 3)  # the questions (0-based) the teacher opens a second round on ("Vote again")
CLASS_CHOICES = ("apple", "mango", "tiger", "river")  # plain words: "Your answer: <word>" (the ":" escaped for
# markdown) is a vote's marker
CLASS_TWICE = 0.25  # the share of learners who change their answer once in a round (a second vote)
CLASS_ROUND_S = 45.0  # the longest a round stays open waiting for the last votes
CLASS_KILL_AT = 2  # the question (0-based) in whose first round a replica is killed, with --kill-replica
_COUNTED = re.compile(rb"(\d+) of (\d+)")
_POSED_ROUND = re.compile(rb"Posed \\?\(round (\d+)\\?\)")  # markdown-escaped: "Posed \(round 1\)"
_RESUME = re.compile(rb"resume code is ([A-Z0-9-]{8,24})")
_REVEALED = re.compile(rb"The lab(?:'|&#x27;|&#39;)s answer")


@dataclass
class ClassRun:
    """What the learners, the teacher's screen and the teacher (this bench: the store, or a click) share."""

    url: str
    code: str
    secret: str
    n: int
    rng: random.Random
    current: tuple[str, int] | None = None  # (poll id, round) open for votes
    opened_at: float = 0.0
    opened: dict[tuple[str, int], float] = field(default_factory=dict)  # (poll, round) -> when its step began
    revealed: dict[str, float] = field(default_factory=dict)  # poll id -> when the store revealed it
    done: bool = False
    asks: asyncio.Queue = field(default_factory=asyncio.Queue)  # the teacher's clicks: (key, future)
    joined: int = 0
    joins: list[float] = field(default_factory=list)
    vote_clicks: list[float] = field(default_factory=list)
    teacher_clicks: list[float] = field(default_factory=list)
    learner_ticks: list[float] = field(default_factory=list)
    teacher_ticks: list[float] = field(default_factory=list)
    posed_seen: list[float] = field(default_factory=list)
    posed_by: list[tuple] = field(default_factory=list)  # (seconds, learner, round, replica)
    revealed_seen: list[float] = field(default_factory=list)
    first_votes: dict[tuple[str, int], list[tuple[float, float]]] = field(default_factory=dict)  # (sent, answered)
    counted_obs: dict[tuple[str, int], list[tuple[float, int]]] = field(default_factory=dict)  # (when, N shown)
    sent: dict[tuple[str, str, int], int] = field(default_factory=dict)  # (name, poll, round) -> clicks sent
    acked: dict[tuple[str, str, int], int] = field(default_factory=dict)  # ... answered "Your answer: X"
    voted: dict[tuple[str, int], set[str]] = field(default_factory=dict)  # who has an answered vote in a round
    replica_of: dict[str, str] = field(default_factory=dict)  # learner name -> replica
    teacher_replica: str | None = None
    killed_at: float | None = None
    killed: str | None = None
    reconnects: list[float] = field(default_factory=list)  # kill -> the learner's page back
    problems: list[str] = field(default_factory=list)


def _has(run: Run, needle: bytes | re.Pattern) -> bool:
    return any((needle.search(f) if isinstance(needle, re.Pattern) else needle in f) for f in run.frames)


def _poll_keys(cur: tuple[str, int]) -> tuple[str, str]:
    """The learner's answer widget and Send button for a poll's round (ui.poll's own keys)."""
    from ui.poll import answer_key, send_key

    ref = PollRef(*cur)
    return answer_key(ref).skey, send_key(ref).skey


@dataclass
class PollRef:  # what ui.poll's keys read of a poll
    poll_id: str
    round: int


async def _reconnect(s: Session, cr: ClassRun, name: str) -> Run:
    """The frontend's way back after a lost websocket: try again (about 1 s apart) until a replica answers."""
    deadline = time.monotonic() + 120
    while True:
        await asyncio.sleep(0.5 + cr.rng.random())
        try:
            r = await s.reconnect(timeout=ANSWER_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - refused (nginx's 502 while the replica starts), reset, timed out
            if time.monotonic() > deadline:
                raise ProtocolError(f"{name}: no way back after 120 s: {exc}") from exc
            continue
        if cr.killed_at is not None:
            cr.reconnects.append(time.perf_counter() - cr.killed_at)
        cr.replica_of[name] = s.replica or "?"
        return r


async def class_learner(cr: ClassRun, i: int, delay: float) -> None:
    """A learner: opens the learner link, types a name, Join; then the browser's timer reruns the class bar
    on its own timer and as the server pushes; on a question: answers it after 1-8 s (a quarter change their answer
    once, 2-5 s later)."""
    from views import classroom as cv

    await asyncio.sleep(delay)
    name = f"Learner {i:03d}"
    s = Session(cr.url)
    try:
        await s.open("Class", query(code=cr.code))
        await s.load(timeout=ANSWER_TIMEOUT_S)
        held = s.widgets.get(s.widget_id(cv.JOIN_CODE.skey))
        if held is None or held.string_value != cr.code:
            await s.type_text(cv.JOIN_CODE.skey, cr.code)
        await s.type_text(cv.NAME.skey, name)
        r = await s.click(cv.JOIN.skey, marker=b"Welcome", timeout=ANSWER_TIMEOUT_S)
        if r.marker_at is None:
            cr.problems.append(f"{name}: not welcomed after Join ({r.exceptions[:1]})")
            return
        cr.joins.append(r.latency)
        resume = next((m.group(1) for f in r.frames for m in [_RESUME.search(f)] if m), None)
        if resume:  # what the page's script does in a browser: a cookie, so a reload finds the class again
            s.jar.values["tl_class"] = f"{cr.code}.{resume.decode().replace('-', '')}"
        cr.joined += 1
        cr.replica_of[name] = s.replica or "?"
        seen: set = set()
        plan: dict[tuple[str, int], list[float]] = {}  # when to vote (once or twice) in a round
        done: dict[tuple[str, int], int] = {}

        reveals: list[float] = []  # when a run drew "The lab's answer" (arrival time of its first such frame)
        answered: set = set()  # rounds whose answer the page already showed (after a reload)

        def observe(r: Run) -> None:
            """What a run shows (a tick of the bar's timer, a reconnect, or a run the server pushed): the lab's
            answer, the learner's own answer after a reload. When a question reached this screen is read from
            when its answer widget was first drawn (Session.first_drawn), whatever the run."""
            if _has(r, _REVEALED):
                reveals.append(r.finished or time.perf_counter())
            cur = cr.current
            if cur and _has(r, b"Your answer\\: ") and _poll_keys(cur)[0] in s.ids_by_key:
                answered.add(cur)

        def notice() -> None:
            """What this screen shows that the class's rounds and reveals opened (the orchestrator notes each just
            before its step: a push may reach this screen before the orchestrator's own click returns)."""
            for key, opened in list(cr.opened.items()):
                drawn = s.first_drawn.get(_poll_keys(key)[0])
                if key not in seen and drawn is not None and drawn >= opened:
                    seen.add(key)
                    cr.posed_seen.append(drawn - opened)
                    cr.posed_by.append((drawn - opened, name, key[1], s.replica or "?"))
            cur = cr.current
            if cur and cur not in plan and cur in seen:
                at = time.perf_counter() + cr.rng.uniform(1.0, 8.0)
                plan[cur] = [at] + ([at + cr.rng.uniform(2.0, 5.0)] if cr.rng.random() < CLASS_TWICE else [])
                done[cur] = len(plan[cur]) if cur in answered else 0  # voted before a reload: the page says so
                if cur in answered:
                    cr.voted.setdefault(cur, set()).add(name)
            for pid, at in list(cr.revealed.items()):
                shown = next((t for t in reveals if t >= at), None)
                if ("revealed", pid) not in seen and shown is not None:
                    seen.add(("revealed", pid))
                    cr.revealed_seen.append(shown - at)

        s.on_push = observe
        next_tick = time.perf_counter() + _tick_s(s)
        while not cr.done:
            notice()
            cur = cr.current
            if cur and done.get(cur, 0) < len(plan.get(cur, [])) and plan[cur][done[cur]] <= time.perf_counter():
                akey, skey = _poll_keys(cur)
                if akey in s.ids_by_key and s.enabled(skey):
                    choice = cr.rng.choice(CLASS_CHOICES)
                    wid = s.widget_id(akey)
                    s.widgets[wid] = WidgetState(id=wid, string_value=choice)
                    key, first = (name, *cur), done[cur] == 0
                    cr.sent[key] = cr.sent.get(key, 0) + 1
                    done[cur] += 1
                    try:
                        # "Your answer: X. You can change it...": the vote taken (a refused one shows the round closed)
                        r = await s.click(skey, marker=f"Your answer\\: {choice}\\. You can change it".encode(),
                                          timeout=ANSWER_TIMEOUT_S)
                    except ProtocolError:  # lost with the replica: was it counted? the page says, once back
                        r = await _reconnect(s, cr, name)
                        if _has(r, b"Your answer\\: "):
                            cr.voted.setdefault(cur, set()).add(name)
                        else:
                            done[cur] -= 1  # not there: the learner sends it again
                        continue
                    if r.marker_at is not None:
                        cr.acked[key] = cr.acked.get(key, 0) + 1
                        cr.vote_clicks.append(r.latency)
                        if first:
                            cr.first_votes.setdefault(cur, []).append((r.sent, r.marker_at))
                            cr.voted.setdefault(cur, set()).add(name)
                    elif cr.current == cur:
                        cr.problems.append(f"{name}: vote not shown ({(r.exceptions or [r.status])[0]})")
                    continue
            until = min(next_tick, _next_plan(plan, done, cr), time.perf_counter() + 0.25)  # (cr.done, a new round)
            try:
                await s.idle(until - time.perf_counter())  # the tab is idle: what the server pushes, it shows
            except ProtocolError:
                observe(await _reconnect(s, cr, name))
                continue
            if time.perf_counter() < next_tick:
                continue  # a vote is due first, or nothing yet
            next_tick = max(next_tick + _tick_s(s), time.perf_counter() + 0.1)  # the bar's own timer
            if cr.done:
                break
            try:
                r = await s.tick(timeout=ANSWER_TIMEOUT_S)
                cr.learner_ticks.append(r.duration)
            except ProtocolError:
                r = await _reconnect(s, cr, name)
            observe(r)
    except Exception as exc:  # noqa: BLE001 - every learner who drops out is counted and named
        cr.problems.append(f"{name}: {type(exc).__name__}: {exc}")
    finally:
        try:
            await s.close()
        except Exception:  # noqa: BLE001 - closing a connection already lost
            pass


def _next_plan(plan: dict, done: dict, cr: ClassRun) -> float:
    cur = cr.current
    if cur and done.get(cur, 0) < len(plan.get(cur, [])):
        return plan[cur][done[cur]]
    return float("inf")


def _tick_s(s: Session) -> float:
    """The interval of the class bar's own timer, as the server set it (the teacher's is shorter)."""
    return next(iter(s.auto_reruns.values()), 10.0) or 10.0


async def class_teacher(cr: ClassRun, ready: asyncio.Event) -> None:
    """The teacher's screen: the teacher link, then what the server pushes at each vote ("N of M answered" is read
    from each run), the class bar's own timer (as the browser's), and between them the clicks the orchestrator
    asks for (Show answers, Vote again)."""
    s = Session(cr.url)

    def observe(r: Run) -> None:
        cur = cr.current
        if cur and cur == cr.current and r.finished is not None:
            shown = next((m for f in r.frames for m in [_COUNTED.search(f)] if m), None)
            rnd = next((m for f in r.frames for m in [_POSED_ROUND.search(f)] if m), None)
            if shown and rnd and int(rnd.group(1)) == cur[1]:
                cr.counted_obs.setdefault(cur, []).append((r.finished, int(shown.group(1))))

    try:
        await s.open("Class", query(code=cr.code, teacher=cr.secret))
        await s.load(timeout=ANSWER_TIMEOUT_S)
        cr.teacher_replica = s.replica
        s.on_push = observe
        ready.set()
        next_tick = time.perf_counter() + _tick_s(s)
        while not cr.done:
            if not cr.asks.empty():
                key, fut = cr.asks.get_nowait()
                try:
                    if key not in s.ids_by_key or not s.enabled(key):  # the bar has not drawn it yet: look again
                        await s.tick(timeout=ANSWER_TIMEOUT_S)
                    r = await s.click(key, timeout=ANSWER_TIMEOUT_S)
                    cr.teacher_clicks.append(r.duration)
                    fut.set_result(r)
                except ProtocolError as exc:
                    fut.set_exception(exc)
                continue
            await s.idle(min(0.05, max(0.0, next_tick - time.perf_counter())))  # pushed runs: observe()
            if time.perf_counter() < next_tick:
                continue
            next_tick = max(next_tick + _tick_s(s), time.perf_counter() + 0.1)
            r = await s.tick(timeout=ANSWER_TIMEOUT_S)
            cr.teacher_ticks.append(r.duration)
            observe(r)
    except ProtocolError as exc:
        cr.problems.append(f"teacher: {exc}")
        ready.set()
    finally:
        await s.close()


async def _teacher_click(cr: ClassRun, key: str) -> None:
    fut = asyncio.get_running_loop().create_future()
    await cr.asks.put((key, fut))
    await fut


def _replica_pid(target: Target, replica: str) -> int | None:
    text = target.log.read_text(encoding="utf-8", errors="replace") if target.log else ""
    found = re.findall(rf"replica {replica.rsplit('-', 1)[-1]} starting: pid (\d+) ", text)
    return int(found[-1]) if found else None


async def run_class(target: Target, db_url: str, n: int, *, seed: int, kill: bool, ramp: float) -> ClassRun:
    """One class: the teacher (this bench) starts it through the store, N learners join on the Class page, the
    teacher poses 5 questions through the store; each round stays open until every learner's vote is answered
    (at most CLASS_ROUND_S); the teacher clicks Show answers in the class bar (and Vote again on two of them),
    then reveals through the store (Reveal in the bar needs the question posed from a page of that session)."""
    from lessons.classroom import Classes, open_database
    from ui.poll import AGAIN, SHOW

    db = open_database(db_url)
    classes = Classes(db)
    started = classes.start(f"Load, {n} learners")
    cr = ClassRun(target.url, started.code, started.teacher_secret, n, random.Random(seed))
    ready = asyncio.Event()
    teacher = asyncio.create_task(class_teacher(cr, ready))
    await ready.wait()
    learners = [asyncio.create_task(class_learner(cr, i, ramp * i / max(1, n))) for i in range(n)]
    deadline = time.monotonic() + ramp + 120
    while cr.joined + sum(1 for p in cr.problems if "Join" in p or "welcomed" in p) < n and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    print(f"   {cr.joined} of {n} joined; teacher on {cr.teacher_replica}", flush=True)
    await asyncio.sleep(3)

    async def round_until_voted(cur: tuple[str, int], kill_now: bool) -> None:
        cr.current, cr.opened_at = cur, time.perf_counter()
        end = time.monotonic() + CLASS_ROUND_S
        while time.monotonic() < end:
            voted = len(cr.voted.get(cur, ()))
            if kill_now and cr.killed is None and voted >= cr.joined // 2:
                counts: dict[str, int] = {}
                for rep in cr.replica_of.values():
                    if rep != cr.teacher_replica:
                        counts[rep] = counts.get(rep, 0) + 1
                victim = max(counts, key=counts.get) if counts else None
                pid = _replica_pid(target, victim) if victim else None
                if pid:
                    cr.killed, cr.killed_at = f"{victim} (pid {pid}, {counts[victim]} learners)", time.perf_counter()
                    os.kill(pid, signal.SIGKILL)
                    print(f"   killed {cr.killed} with {voted} of {cr.joined} votes in", flush=True)
            if voted >= cr.joined and not (kill_now and cr.killed and len(cr.reconnects) < counts_of(cr)):
                break
            await asyncio.sleep(0.25)
        print(f"   round {cur[1]}: {len(cr.voted.get(cur, ()))} of {cr.joined} voted in "
              f"{time.perf_counter() - cr.opened_at:.1f} s", flush=True)
        await asyncio.sleep(3)  # late second votes, and the teacher's screen catching up

    def counts_of(cr: ClassRun) -> int:
        victim = (cr.killed or "").split(" ", 1)[0]
        return sum(1 for rep in cr.replica_of.values() if rep == victim)

    for q in range(CLASS_QUESTIONS):
        began = time.perf_counter()  # (each step's time is taken before it: its push may outrun our own call)
        poll = classes.pose(cr.code, cr.secret, {"id": f"load.q{q}", "prompt": f"Question {chr(65 + q)}: which word?",
                                                 "kind": "choice", "choices": list(CLASS_CHOICES)})
        cr.opened[(poll.poll_id, 1)] = began
        await round_until_voted((poll.poll_id, 1), kill and q == CLASS_KILL_AT)
        cr.current = None
        await _teacher_click(cr, SHOW.skey)
        if q in CLASS_AGAIN:
            cr.opened[(poll.poll_id, 2)] = time.perf_counter()
            await _teacher_click(cr, AGAIN.skey)
            await round_until_voted((poll.poll_id, 2), False)
            cr.current = None
            await _teacher_click(cr, SHOW.skey)
        began = time.perf_counter()
        classes.reveal(cr.code, cr.secret, CLASS_CHOICES[q % len(CLASS_CHOICES)], "Load test.")
        cr.revealed = {poll.poll_id: began}
        await asyncio.sleep(6)
        print(f"   question {q + 1} of {CLASS_QUESTIONS} done", flush=True)
    cr.done = True
    await asyncio.gather(teacher, *learners, return_exceptions=True)
    cr.db_check = class_db_check(db, classes, cr)  # type: ignore[attr-defined]
    db.close()
    return cr


def class_db_check(db, classes, cr: ClassRun) -> dict:
    """Every vote sent, in the database exactly once: per learner and round, the votes stored are at least those
    whose answer came back (none lost) and at most those sent (none twice); each round's tally counts each
    learner who voted once."""
    with db.transaction(write=False) as tx:
        rows = tx.rows("SELECT l.name, v.poll_id, v.round, COUNT(*), COUNT(DISTINCT v.vote_id) FROM votes v "
                       "JOIN learners l ON l.learner_id = v.learner_id WHERE l.code = ? "
                       "GROUP BY l.name, v.poll_id, v.round", (cr.code,))
    stored = {(name, pid, rnd): count for name, pid, rnd, count, _ in rows}
    assert all(count == distinct for *_, count, distinct in rows)
    keys = set(stored) | set(cr.sent)
    lost = sum(max(0, cr.acked.get(k, 0) - stored.get(k, 0)) for k in keys)
    extra = sum(max(0, stored.get(k, 0) - cr.sent.get(k, 0)) for k in keys)
    tallies_ok = True
    for pid in {k[1] for k in stored}:
        for tally in classes.tallies(cr.code, pid):
            voters = {k[0] for k in stored if k[1] == pid and k[2] == tally.round}
            tallies_ok &= tally.answered == len(voters) and sum(tally.counts.values()) == len(voters)
    return {"sent": sum(cr.sent.values()), "answered": sum(cr.acked.values()), "stored": sum(stored.values()),
            "lost": lost, "twice": extra, "tallies_ok": tallies_ok}


def counted_latencies(cr: ClassRun) -> list[float]:
    """Vote -> counted on the teacher's screen: the k-th answered first vote of a round (in the order their
    answers came back) is counted when the teacher's bar first shows "N of M" with N >= k."""
    out = []
    for cur, votes in cr.first_votes.items():
        obs = sorted(cr.counted_obs.get(cur, []))
        for k, (sent, _answered) in enumerate(sorted(votes, key=lambda v: v[1]), 1):
            when = next((t for t, shown in obs if shown >= k and t >= sent), None)
            if when is not None:
                out.append(when - sent)
    return out


def class_report(label: str, cr: ClassRun, cpu: dict) -> dict:
    counted = counted_latencies(cr)
    firsts = sum(len(v) for v in cr.first_votes.values())
    check = getattr(cr, "db_check", {})
    row = {"label": label, "learners": cr.n, "joined": cr.joined,
           "join_p95": pct(cr.joins, 0.95), "vote_click_p50": pct(cr.vote_clicks, 0.5),
           "vote_click_p95": pct(cr.vote_clicks, 0.95), "teacher_click_p95": pct(cr.teacher_clicks, 0.95),
           "counted_p50": pct(counted, 0.5), "counted_p95": pct(counted, 0.95), "counted_n": len(counted),
           "first_votes": firsts, "posed_seen_p95": pct(cr.posed_seen, 0.95),
           "revealed_seen_p95": pct(cr.revealed_seen, 0.95),
           "learner_tick_p50": pct(cr.learner_ticks, 0.5), "learner_tick_p95": pct(cr.learner_ticks, 0.95),
           "teacher_tick_p95": pct(cr.teacher_ticks, 0.95), "ticks": len(cr.learner_ticks) + len(cr.teacher_ticks),
           "killed": cr.killed, "reconnected": len(cr.reconnects), "reconnect_p95": pct(cr.reconnects, 0.95),
           "problems": len(cr.problems), **check, **cpu}
    print(f"\n== class, {label}: {cr.joined} of {cr.n} learners joined (join click p95 {fmt_s(row['join_p95'])} s)")
    print(f"   vote click -> 'Your answer' p50 {fmt_s(row['vote_click_p50'])} s, p95 {fmt_s(row['vote_click_p95'])} s "
          f"({len(cr.vote_clicks)} votes); teacher's clicks (Show answers, Vote again) p95 "
          f"{fmt_s(row['teacher_click_p95'])} s ({len(cr.teacher_clicks)})")
    print(f"   vote -> counted on the teacher's screen p50 {fmt_s(row['counted_p50'])} s, p95 {fmt_s(row['counted_p95'])} s "
          f"({len(counted)} of {firsts} first votes matched); posed -> on a learner's screen p95 "
          f"{fmt_s(row['posed_seen_p95'])} s; revealed -> p95 {fmt_s(row['revealed_seen_p95'])} s")
    print(f"   class-bar poll (fragment rerun) learner p50 {fmt_s(row['learner_tick_p50'])} s p95 "
          f"{fmt_s(row['learner_tick_p95'])} s, teacher p95 {fmt_s(row['teacher_tick_p95'])} s ({row['ticks']} polls)")
    if check:
        print(f"   votes: {check['sent']} sent, {check['answered']} answered, {check['stored']} in the database; "
              f"lost {check['lost']}, counted twice {check['twice']}; tallies agree: {check['tallies_ok']}")
    if cr.killed:
        print(f"   killed {cr.killed}: {len(cr.reconnects)} learners back, p95 {fmt_s(row['reconnect_p95'])} s after the kill")
    print(f"   server CPU {cpu.get('server_cores', float('nan')):.2f} cores, everything else (this bench's clients "
          f"included) {cpu.get('other_cores', float('nan')):.2f} cores, over {cpu.get('seconds', 0):.0f} s")
    slow = sorted(cr.posed_by, reverse=True)[:5]
    if slow:
        print("   slowest posed -> on screen: " + "; ".join(f"{t:.2f} s {who} round {rnd} on {rep}"
                                                    for t, who, rnd, rep in slow))
    for p in cr.problems[:5]:
        print(f"   problem: {p}")
    return row


def class_scenario(args: argparse.Namespace, log_dir: Path) -> int:
    """``--class N``: one teacher and N learners through ``scripts/serve --replicas 4`` on each database asked for
    (``--database sqlite,postgresql``: a file in a temporary folder; a throwaway PostgreSQL cluster started as
    the class tests start theirs)."""
    import tempfile

    rows, code = [], 0
    for backend in [b.strip() for b in args.database.split(",") if b.strip()]:
        pg = None
        tmp = Path(tempfile.mkdtemp(prefix="bench-class-"))
        try:
            if backend == "sqlite":
                db_url = f"sqlite:///{tmp / 'classes.sqlite3'}"
            elif backend == "postgresql":
                from tests.pg_cluster import PostgresServer, _postgres_bin

                bindir = _postgres_bin()
                if bindir is None:
                    print("   PostgreSQL is not installed (apt-get install postgresql): skipped")
                    continue
                pg = PostgresServer(bindir)
                db_url = pg.new_database()
            else:
                db_url = backend
            print(f"\n== class on {backend}: starting scripts/serve --replicas {args.class_replicas} ...", flush=True)
            target = start_target(f"serve{args.class_replicas}", log_dir, extra=["--database", db_url])
            try:
                other = wait_quiet(target, args.wait_quiet) if args.wait_quiet else 0.0
                pids = target.pids()
                m0, c0, t0 = machine_busy_seconds(), cpu_seconds(pids), time.monotonic()
                cr = asyncio.run(run_class(target, db_url, args.class_learners, seed=args.seed,
                                           kill=args.kill_replica, ramp=args.ramp))
                pids = target.pids()
                m1, c1, t1 = machine_busy_seconds(), cpu_seconds(pids), time.monotonic()
                server = sum(c1.values()) - sum(c0.get(p, 0.0) for p in c1)
                cpu = {"seconds": t1 - t0, "server_cores": server / (t1 - t0),
                       "other_cores": max(0.0, (m1 - m0) - server) / (t1 - t0), "other_before_cores": other}
                rows.append(class_report(backend, cr, cpu))
                check = rows[-1]
                if check.get("lost") or check.get("twice") or not check.get("tallies_ok", False):
                    code = 1
            finally:
                target.stop()
        finally:
            if pg is not None:
                pg.stop()
            shutil.rmtree(tmp, ignore_errors=True)  # the SQLite file: the figures are printed (and in --json)
    if args.json:
        Path(args.json).write_text(json.dumps({"class": rows}, indent=1, default=str), encoding="utf-8")
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--targets", default="single,serve2",
                        help="comma-separated: single, serve2, serve3, ... (default %(default)s)")
    parser.add_argument("--learners", default="1,10,20,40", help="learner counts, one level each (default %(default)s)")
    parser.add_argument("--first-visit", type=int, default=40,
                        help="fresh visitors at once with an empty browser cache (every static file, as Chromium "
                        "fetched them), 0 to skip (default %(default)s)")
    parser.add_argument("--burst", type=int, default=40,
                        help="right after start: this many fresh learners open one link within --burst-ramp seconds "
                        "(a class told 'open the link'), 0 to skip (default %(default)s)")
    parser.add_argument("--burst-ramp", type=float, default=2.0,
                        help="seconds over which the burst's learners arrive (default %(default)s)")
    parser.add_argument("--burst-link", default=BURST_LINK, help="the burst's link (default %(default)s)")
    parser.add_argument("--warmth", action=argparse.BooleanOptionalAction, default=True,
                        help="after start, open every page and lesson twice on each replica, one tab at a time: "
                        "each page's first visit against its second (scripts/serve targets; default on)")
    parser.add_argument("--vs", metavar="REV",
                        help="measure this commit too (its code from git archive, started with its own "
                        "scripts/serve), target by target, and print the two side by side")
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="seconds over which a level's learners arrive (default %(default)s)")
    parser.add_argument("--url", help="measure this running server instead of starting targets")
    parser.add_argument("--pids", default="", help="with --url: the server's process ids (children included)")
    parser.add_argument("--check-browser", action="store_true", help="compare this client's messages with Chromium's, then exit")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--wait-quiet", type=float, default=180,
                        help="before each level, wait up to this many seconds for other processes to leave the "
                        "cores alone (default %(default)s; 0: do not wait)")
    parser.add_argument("--pause", type=float, default=2.0,
                        help="seconds between levels (default %(default)s; over 120 lets Streamlit drop the last "
                        "level's disconnected sessions, to see memory come back to its level)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--class", dest="class_learners", type=int, default=0, metavar="N",
                        help="the class scenario instead: one teacher and N learners in one class (see run_class)")
    parser.add_argument("--database", default="sqlite,postgresql",
                        help="with --class: sqlite, postgresql (a throwaway cluster) or a URL; comma-separated")
    parser.add_argument("--class-replicas", type=int, default=4, help="with --class: scripts/serve's replicas")
    parser.add_argument("--kill-replica", action="store_true",
                        help="with --class: SIGKILL a learners' replica in the middle of a round")
    parser.add_argument("--hostile", type=int, default=0, metavar="N",
                        help="hostile learners joining each level (default %(default)s); with N > 0 each level runs "
                        "twice, without and with them, and each replica's memory is reported against warm + "
                        f"{REPLICA_BOUND_MB} MB")
    parser.add_argument("--hostile-timeout", type=float, default=HOSTILE_TIMEOUT_S,
                        help="seconds a hostile learner waits for each answer (default %(default)s)")
    parser.add_argument("--hostile-pattern", default=HOSTILE_PATTERN,
                        help="the backtracking pre-split pattern of its Train link (default %(default)s)")
    parser.add_argument("--hostile-merges", type=int, default=HOSTILE_MERGES,
                        help="chained merges in the model it uploads (default %(default)s, the issue's 265 KB file; "
                        "a smaller number costs a replica less while the problem lasts)")
    parser.add_argument("--hostile-settle", type=float, default=130,
                        help="seconds after the hostile level before the replicas' memory is read (default "
                        "%(default)s: Streamlit drops a disconnected session after 120 s)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop the targets on SIGTERM too
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # 400 learners hold 800+ sockets
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))
    levels = [int(x) for x in args.learners.split(",") if x.strip()]
    log_dir = ROOT / "artifacts"
    log_dir.mkdir(exist_ok=True)
    if args.class_learners and args.check_browser:  # the class bar's timer, against Chromium
        import tempfile

        os.environ["LAB_DATABASE_URL"] = f"sqlite:///{Path(tempfile.mkdtemp(prefix='bench-check-')) / 'c.sqlite3'}"
        target = start_target("single", log_dir)
        try:
            return check_browser_class(target.url, os.environ["LAB_DATABASE_URL"])
        finally:
            target.stop()
            shutil.rmtree(Path(os.environ["LAB_DATABASE_URL"][len("sqlite:///"):]).parent, ignore_errors=True)
    if args.class_learners:
        return class_scenario(args, log_dir)
    names = [args.url] if args.url else [t.strip() for t in args.targets.split(",") if t.strip()]
    if args.vs and args.url:
        raise SystemExit("bench_load: --vs starts both servers itself: it does not go with --url")
    trees: list[tuple[str | None, Path]] = [(None, ROOT)]
    if args.vs:
        trees.append((args.vs, checkout(args.vs, log_dir)))
    print(f"bench_load: {os.cpu_count()} cores; learners {levels}; {CLICKS} clicks each, "
          f"{THINK_S[0]}-{THINK_S[1]} s apart; arrivals over {args.ramp:g} s; a burst of {args.burst} first visits "
          f"within {args.burst_ramp:g} s; first visits with an empty cache {args.first_visit}"
          + (f"; side by side with {args.vs}" if args.vs else ""))
    out: dict = {"levels": [], "first_visit": [], "burst": [], "warmth": [], "cores": os.cpu_count(),
                 "learners": levels, "vs": args.vs}
    assets: list[str] | None = None
    code = 0
    labels = []
    for name, rev, root in [(name, rev, root) for name in names for rev, root in trees]:
        label = name if rev is None else f"{name}@{rev}"
        labels.append(label)
        if args.url:
            target = Target("url", args.url.rstrip("/"), fixed_pids=[int(p) for p in args.pids.split(",") if p])
        else:
            print(f"\n== {label}: starting ...", flush=True)
            target = start_target(name, log_dir, root=root, label=label)
        try:
            if args.check_browser:
                return check_browser(target.url)
            if args.burst:  # the class's moment: the server has just said ready, the teacher says "open the link"
                if args.wait_quiet:
                    wait_quiet(target, args.wait_quiet)
                burst = asyncio.run(run_burst(target, args.burst, args.burst_ramp, args.burst_link))
                print_burst(burst)
                out["burst"].append(burst)
                if burst["problems"]:
                    code = 1
            if args.warmth and (name.startswith("serve") or args.url):
                if args.wait_quiet:
                    wait_quiet(target, args.wait_quiet)
                replicas = int(name[5:]) if name.startswith("serve") else len(replica_pids(target))
                warmth = run_warmth(target, replicas)
                print_warmth(warmth)
                out["warmth"].append(warmth)
            print(f"== {label}: {target.url}, server pids {target.pids()}; warming up", flush=True)
            started_mb = replica_rss_mb(target)
            warm = asyncio.run(run_level(target, len(lessons.presets()), 1.0, args.seed))
            if warm.unanswered or warm.exceptions:
                print(f"   warm-up problems: {(warm.unanswered + warm.exceptions)[:3]}")
            warm_mb = replica_rss_mb(target)
            print("   replicas' memory (RSS): " + ", ".join(
                f"pid {pid} {started_mb.get(pid, float('nan')):.0f} MB when ready, {mb:.0f} MB warm"
                for pid, mb in warm_mb.items()), flush=True)
            rows = []
            runs = [(i, n, h) for i, n in enumerate(levels) for h in ([0, args.hostile] if args.hostile else [0])]
            for i, n, hostile in runs:
                other = wait_quiet(target, args.wait_quiet) if args.wait_quiet else 0.0
                if other >= 0.15:
                    print(f"   NOTE: other processes keep {other:.2f} cores busy; these figures are pessimistic")
                res = asyncio.run(run_level(target, n, args.ramp if n > 1 else 0, args.seed + i, hostile=hostile,
                                            hostile_timeout=args.hostile_timeout, hostile_pattern=args.hostile_pattern,
                                            hostile_merges=args.hostile_merges))
                row = res.row()
                if hostile:
                    row["target"] = f"{row['target']}+h{hostile}"
                    row["hostile"] = [vars(a) for a in res.hostile]
                    for action in res.hostile:
                        print(f"      hostile: {action.name}: {action.seconds:.1f} s, {action.outcome}")
                    if any(not a.outcome.startswith("answered") for a in res.hostile):
                        code = 1
                    print(f"      waiting {args.hostile_settle:g} s for the replicas to settle", flush=True)
                    time.sleep(args.hostile_settle)
                    row["replica_memory"] = memory = replica_memory(target, warm_mb)
                    for line in memory:
                        print(f"      {line['text']}")
                    if any(not m["ok"] for m in memory):
                        code = 1
                rows.append(row)
                out["levels"].append(row)
                print_levels([row])
                problems = (("unanswered", res.unanswered), ("exception", res.exceptions), ("wrong state", res.wrong_state))
                for kind, items in problems:
                    for item in items[:3]:
                        print(f"      {kind}: {item}")
                if res.unanswered or res.exceptions or res.wrong_state:
                    code = 1
                if row["cpu_ms_by_kind"]:
                    print("      server CPU per interaction, a lone learner (median): " + ", ".join(
                        f"{k} {v:.0f} ms" for k, v in row["cpu_ms_by_kind"].items()))
                print(f"      replicas used: {row['replicas_used']}; in {row['wall_s']:.1f} s: server CPU "
                      f"{res.cpu_s:.1f} s, this client {row['client_cpu_s']:.1f} s, anything else on the machine "
                      f"{row['other_cpu_s']:.1f} s" + ("  <- NOT QUIET" if row['other_cpu_s'] > 0.1 * row['wall_s'] else ""),
                      flush=True)
                time.sleep(args.pause)
            if args.first_visit:
                if assets is None:
                    try:
                        assets, chromium_s = chromium_asset_list(target.url, f"{TRAIN}?{query(preset='chai')}")
                        print(f"   Chromium alone, empty cache: usable in {chromium_s:.2f} s, {len(assets)} URLs")
                    except Exception as exc:  # noqa: BLE001 - no browser here: skip this part
                        print(f"   first visit skipped: no Chromium ({type(exc).__name__}: {exc})")
                        assets = []
                if assets:
                    if args.wait_quiet:
                        wait_quiet(target, args.wait_quiet)
                    visits = asyncio.run(run_first_visits(target.url, assets, args.first_visit, 0.0))
                    row = print_visits(label, visits, len(assets))
                    out["first_visit"].append(row)
        finally:
            target.stop()
    print("\nsummary (latency in seconds; CPU/int = server CPU per interaction; CPU use = cores busy on average):")
    print_levels(out["levels"])
    for row in out["burst"]:
        print_burst(row)
    if args.vs:
        print_side_by_side(out, labels)
    for row in out["first_visit"]:
        print(f"first visit {row['target']:8} {row['visitors']} at once: usable p50 {row['usable_p50']:.2f} s, "
              f"p95 {row['usable_p95']:.2f} s, max {row['usable_max']:.2f} s; {row['kb_per_visitor']:,.0f} KB each")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, default=str), encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main())
