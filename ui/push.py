"""Live class screens without waiting for a timer: when a class changes, its screens' class bars rerun at once.

How a vote reaches the teacher's "N of M answered": the vote commits (any replica), which moves the class's
version; on every replica, one watcher thread reads the versions of the classes its screens show (one indexed
query every :data:`WATCH_S`) and asks Streamlit to rerun the class bar of each session whose class moved. The
bar then reads the class as it always does (:mod:`ui.poll`). Before, a vote waited for the teacher's bar's next
tick (every second): p95 1.05-1.24 s from vote to count with 120 learners, 2.12 s with a replica killed.

- The teacher's bar follows the class's ``version`` (every vote, every join: the count and the names are live).
- A learner's bar follows its ``stage`` (the teacher's steps: a question posed, answers shown, a round, Reveal,
  the end), never another learner's vote: 120 votes do not rerun 120 screens 120 times.
- At most one push is in flight per screen: a bar that has not run since its last push is not pushed again
  (a burst of votes costs the teacher's screen a rerun at a time, not a queue of them).

A screen is pushed only while its session runs nothing and has sent its screen everything (no script runner at
all, and its queue to the browser empty):

- a push handed to a run that has just finished made Streamlit start a new runner and drop the finished run's
  messages still on their way, so a press's run (the teacher's "Pose it now") did its work and never reached the
  screen;
- a push whose run starts while the last run's messages still wait in the session's queue makes Streamlit drop the
  queued messages of the pushed fragment (a fragment run clears its own from the queue as it starts). The teacher's
  page then finished a run without its report, the browser closed the gap, and the pushed report was drawn where
  the downloads had been: the gradebook, the other downloads and End vanished until the page ran again (seen in
  about one class journey in five; the session's messages were read in the browser to find it).

A push that finds its session running waits on the session's event loop until it is idle (:func:`push_if_idle`; a
run that goes on for long hands it back to the watcher's next look, :meth:`Watcher.look`).

It uses Streamlit's own runtime to rerun a session's fragment (``AppSession.request_rerun`` with the fragment's
id, as its file watcher's "run on save" reruns a page), which requirements.lock pins; the bars keep their own
timers (:data:`ui.poll.TEACHER_POLL_S`, :data:`ui.poll.POLL_S`) as a safety net, so a change still arrives if a
push does not. Without Streamlit's runtime (AppTest) nothing is watched.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

WATCH_S = 0.1
"""Seconds between two looks at the watched classes' versions (one query for all of this replica's classes)."""
FORGET_S = 180.0
"""A screen whose bar has not run for this long (its browser closed, its page changed) is no longer watched."""
RECHECK_S = 0.02
"""A push that finds its session running looks again this much later, on the session's event loop ..."""
RECHECKS = 25
"""... this many times (half a second), then hands the push back to the watcher's next look."""
RETRY_S = 2.0
"""A push whose rerun never ran (lost: the session went away meanwhile) is tried again after this long."""
WATCHER_THREAD = "lab-class-watcher"
"""The watcher thread's name (tests/browser/lagging_loop holds up what it hands the event loop)."""
_LOG = logging.getLogger("lab.push")


@dataclass
class Watch:
    """One fragment of a screen: its session, the fragment to rerun, its class, whether every change moves it
    (``teacher``: the version) or only the teacher's steps (the stage), and what it last showed."""

    session_id: str
    fragment_id: str
    code: str
    teacher: bool
    seen: tuple[int, int]  # (version, stage) the fragment last read
    ran_at: float
    pushed_at: float = 0.0
    page: str = ""  # the page it is on (a fragment of a page the session has left is never rerun)


class Watcher:
    """The replica's one watcher (see the module's text): bars register with :meth:`watch` each time they run."""

    def __init__(self, versions) -> None:
        self._versions = versions  # codes -> {code: (version, stage)}
        self._watches: dict[tuple[str, str], Watch] = {}  # (session, which fragment) -> what it watches
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.pushes = 0

    def watch(self, session_id: str, fragment_id: str, code: str, *, teacher: bool, seen: tuple[int, int],
              name: str = "bar", page: str = "") -> None:
        """The fragment ``name`` (the class bar, the Class page's report) of ``session_id`` just showed ``code`` at
        ``seen`` (its version and stage), as fragment ``fragment_id`` of ``page``: it replaces what the same name
        of the session watched before (the bar of the page the session was on)."""
        with self._lock:
            self._watches[(session_id, name)] = Watch(session_id, fragment_id, code, teacher, seen, time.monotonic(),
                                                      page=page)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=WATCHER_THREAD, daemon=True)
                self._thread.start()

    def forget(self, session_id: str) -> None:
        with self._lock:
            for key in [k for k in self._watches if k[0] == session_id]:
                del self._watches[key]

    def _drop(self, w: Watch) -> None:
        with self._lock:
            for key in [k for k, v in self._watches.items() if v is w]:
                del self._watches[key]

    def _run(self) -> None:
        failed_once = False
        while True:
            time.sleep(WATCH_S)
            try:
                self.look()
            except Exception:  # noqa: BLE001 - the database busy, a session gone: the timers still work
                if not failed_once:
                    _LOG.warning("class watcher: a look failed (the bars' own timers still bring changes)",
                                 exc_info=True)
                    failed_once = True

    def look(self) -> int:
        """One look: every screen whose class moved (for it) is pushed; how many were."""
        now = time.monotonic()
        with self._lock:
            for key in [key for key, w in self._watches.items() if now - w.ran_at > FORGET_S]:
                del self._watches[key]
            watches = list(self._watches.values())
        if not watches:
            return 0
        current = self._versions(sorted({w.code for w in watches}))
        pushed = 0
        for w in watches:
            now_is = current.get(w.code)
            if now_is is None:
                continue
            moved = now_is[0] != w.seen[0] if w.teacher else now_is[1] != w.seen[1]
            in_flight = w.pushed_at > w.ran_at and now - w.pushed_at < RETRY_S
            if not (moved and not in_flight):
                continue
            w.pushed_at = now  # before the push: a busy session can hand it back at once (:meth:`_again`)
            done = _rerun(w.session_id, w.fragment_id, w.page, busy=partial(self._again, w, now))
            if done is None:  # the session is on another page now, or gone: this fragment is not on its screen
                self._drop(w)
            elif done:
                pushed += 1
        self.pushes += pushed
        return pushed

    def _again(self, w: Watch, at: float) -> None:
        """The push made at ``at`` found its session running for long: the next look pushes again (not after
        RETRY_S)."""
        with self._lock:
            if w.pushed_at == at:
                w.pushed_at = 0.0


def _rerun(session_id: str, fragment_id: str, page: str, busy: Callable[[], None]) -> bool | None:
    """Ask Streamlit to rerun the fragment of a live session (as its timer would, without waiting for it), on the
    session's event loop once the session runs nothing (:func:`push_if_idle`, which calls ``busy()`` if that takes
    long). None when the session is gone or on another page than the fragment's (never draw a page's fragment on
    another)."""
    from streamlit.proto.ClientState_pb2 import ClientState
    from streamlit.runtime import Runtime

    try:
        info = Runtime.instance()._session_mgr.get_active_session_info(session_id)
    except RuntimeError:
        return None
    if info is None:
        return None
    session = info.session
    if page and session._client_state.page_script_hash not in ("", page):
        return None
    state = ClientState()
    state.CopyFrom(session._client_state)  # the page and its address as they are; the widgets' values stay
    state.fragment_id = fragment_id
    state.is_auto_rerun = True
    session._call_soon_on_event_loop(lambda: push_if_idle(session, state, busy))
    return True


def idle(session) -> bool:
    """Whether a push may rerun ``session`` now: it has no script runner (a runner that has finished its script but
    whose last messages still wait on this loop counts as running: Streamlit would give the push a new runner and
    ignore those messages, the page's press drawn by half), and its queue to the browser is empty (a fragment run
    starting drops that fragment's messages still queued: the last run's, never sent; see the module's text)."""
    return session._scriptrunner is None and session._browser_queue.is_empty()


def push_if_idle(session, state, busy: Callable[[], None], rechecks: int | None = None) -> None:
    """On the session's event loop: rerun ``state`` (a fragment) once the session is idle (:func:`idle`). A running
    session is looked at again every :data:`RECHECK_S` on the loop, :data:`RECHECKS` times, then handed back
    (``busy()``)."""
    if idle(session):
        session.request_rerun(state)
        return
    left = RECHECKS if rechecks is None else rechecks
    if left <= 0:
        busy()
        return
    asyncio.get_running_loop().call_later(RECHECK_S, push_if_idle, session, state, busy, left - 1)


_WATCHER: Watcher | None = None
_WATCHER_LOCK = threading.Lock()


def watcher() -> Watcher:
    """This replica's watcher (made on first use, reading versions through the class store)."""
    global _WATCHER
    with _WATCHER_LOCK:
        if _WATCHER is None:
            from ui import classroom

            _WATCHER = Watcher(lambda codes: classroom.store().versions(codes))
        return _WATCHER


def watch(code: str, *, teacher: bool, seen: tuple[int, int], name: str = "bar") -> None:
    """Called by a class bar (or the Class page's report, ``name``) as it runs: rerun me when ``code`` moves past
    ``seen``. Nothing without Streamlit's runtime (AppTest) or outside a fragment."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState, get_script_run_ctx

        if not Runtime.exists():
            return
        ctx = get_script_run_ctx(suppress_warning=True)
        fragment_id = ThreadState.get().fragment_id
    except Exception:  # noqa: BLE001 - another Streamlit: the bars' timers still work
        return
    if ctx is None or not fragment_id:
        return
    watcher().watch(ctx.session_id, fragment_id, code, teacher=teacher, seen=seen, name=name,
                    page=ctx.page_script_hash or "")


def forget() -> None:
    """This session's bar is gone (it left its class)."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
    except Exception:  # noqa: BLE001
        return
    if ctx is not None and _WATCHER is not None:
        _WATCHER.forget(ctx.session_id)


__all__ = ["FORGET_S", "RECHECKS", "RECHECK_S", "RETRY_S", "WATCHER_THREAD", "WATCH_S", "Watch", "Watcher", "forget",
           "idle", "push_if_idle", "watch", "watcher"]
