"""The replica's class watcher (ui.push): which screens a change reruns, and how often. The rerun itself (Streamlit's
runtime) is replaced here by a recorder; the class journey (tests/browser/journeys/test_class.py) checks in
Chromium that a posed question and a vote reach the other screens with no rerun asked by their browsers."""

from __future__ import annotations

import asyncio
import threading

import pytest

from ui import push


@pytest.fixture
def pushed(monkeypatch) -> list[tuple[str, str]]:
    done: list[tuple[str, str]] = []
    monkeypatch.setattr(push, "_rerun", lambda sid, fid, page="", busy=None: done.append((sid, fid)) or True)
    return done


def test_a_teacher_follows_every_change_a_learner_only_the_teachers_steps(pushed) -> None:
    classes = {"ABC234": (10, 3)}
    w = push.Watcher(lambda codes: {c: classes[c] for c in codes if c in classes})
    w.watch("teacher", "bar-t", "ABC234", teacher=True, seen=(10, 3))
    w.watch("asha", "bar-a", "ABC234", teacher=False, seen=(10, 3))
    assert w.look() == 0 and pushed == []
    classes["ABC234"] = (11, 3)  # a vote (or a join): the teacher's count, not Asha's screen
    assert w.look() == 1 and pushed == [("teacher", "bar-t")]
    classes["ABC234"] = (12, 4)  # Reveal: everyone; the teacher's earlier push has not run yet, so not again
    assert w.look() == 1 and pushed[-1] == ("asha", "bar-a")
    w.watch("teacher", "bar-t", "ABC234", teacher=True, seen=(11, 3))  # its bar ran (it read version 11)
    assert w.look() == 1 and pushed[-1] == ("teacher", "bar-t")
    w.watch("asha", "bar-a", "ABC234", teacher=False, seen=(12, 4))
    w.watch("teacher", "bar-t", "ABC234", teacher=True, seen=(12, 4))
    assert w.look() == 0  # everyone shows what the class is


def test_a_burst_of_votes_is_one_push_at_a_time_and_a_lost_one_is_tried_again(pushed, monkeypatch) -> None:
    version = [1]
    w = push.Watcher(lambda codes: {"ABC234": (version[0], 0)})
    w.watch("teacher", "bar", "ABC234", teacher=True, seen=(1, 0))
    for v in range(2, 60):  # 58 votes while the teacher's bar has not run again
        version[0] = v
        w.look()
    assert len(pushed) == 1
    clock = [push.time.monotonic() + push.RETRY_S + 0.1]  # the push never ran (its session went away)
    monkeypatch.setattr(push.time, "monotonic", lambda: clock[0])
    w.look()
    assert len(pushed) == 2


def test_a_push_waits_on_the_event_loop_until_its_session_runs_nothing(monkeypatch) -> None:
    """On the session's event loop: a session with a script runner (a run going, or just finished with its last
    messages still queued behind the push), or with messages still queued for its browser (a fragment run starting
    would drop its fragment's), is not rerun; it is looked at again until it is idle, then rerun. One that stays
    busy is handed back (``busy()``) after RECHECKS looks, never rerun while it runs."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

    class Session:
        def __init__(self) -> None:
            self._scriptrunner: object | None = object()
            self._browser_queue = ForwardMsgQueue()  # Streamlit's own: what is_empty() means is its
            self.reruns: list[str] = []

        def request_rerun(self, state) -> None:
            busy = self._scriptrunner is not None or not self._browser_queue.is_empty()
            self.reruns.append("rerun while the session was busy" if busy else state)

    monkeypatch.setattr(push, "RECHECKS", 5)
    said: list[str] = []
    at_once: list[list[str]] = []
    ends, stays, idle, sending = Session(), Session(), Session(), Session()
    idle._scriptrunner = sending._scriptrunner = None
    last = ForwardMsg()
    last.delta.fragment_id = "report"  # the last run's report, not yet sent
    last.metadata.delta_path[:] = [0, 7, 0]
    sending._browser_queue.enqueue(last)

    async def scene() -> None:
        loop = asyncio.get_running_loop()
        for session in (ends, stays, idle, sending):
            push.push_if_idle(session, "bar", lambda: said.append("busy"))
        at_once.extend([list(s.reruns) for s in (idle, ends, stays, sending)])  # an idle one at once
        loop.call_later(push.RECHECK_S * 2.5, setattr, ends, "_scriptrunner", None)  # its run ends meanwhile
        loop.call_later(push.RECHECK_S * 1.5, sending._browser_queue.flush)  # its messages go to the browser
        deadline = loop.time() + 10  # a ceiling for a busy machine: the looks are timers on this loop
        while not (ends.reruns and sending.reruns and said) and loop.time() < deadline:
            await asyncio.sleep(push.RECHECK_S)

    # a loop of its own in a thread of its own, as a session's is (a worker that ran Playwright has a loop here)
    runner = threading.Thread(target=asyncio.run, args=(scene(),))
    runner.start()
    runner.join()
    assert at_once == [["bar"], [], [], []]
    assert ends.reruns == ["bar"] and sending.reruns == ["bar"]
    assert stays.reruns == [] and said == ["busy"]


def test_a_push_handed_back_busy_is_made_again_at_the_next_look(monkeypatch) -> None:
    """Not after RETRY_S as a lost push: the session's run is about to end, and the count should follow it."""
    calls: list[str] = []

    def rerun(sid, fid, page="", busy=None):
        calls.append(fid)
        if len(calls) == 1:
            busy()  # the first push finds the session running (here at once; on the event loop, a moment later)
        return True

    monkeypatch.setattr(push, "_rerun", rerun)
    w = push.Watcher(lambda codes: {"ABC234": (2, 0)})
    w.watch("teacher", "bar", "ABC234", teacher=True, seen=(1, 0))
    assert w.look() == 1 and w.look() == 1  # handed back, made again
    assert w.look() == 0  # the second is in flight: not a third
    assert calls == ["bar", "bar"]


def test_a_screen_not_seen_for_a_while_and_a_class_gone_are_forgotten(pushed, monkeypatch) -> None:
    w = push.Watcher(lambda codes: {})
    w.watch("gone", "bar", "ABC234", teacher=True, seen=(1, 0))
    assert w.look() == 0  # its class was purged: nothing to push
    later = push.time.monotonic() + push.FORGET_S + 1
    monkeypatch.setattr(push.time, "monotonic", lambda: later)
    w.look()
    assert w._watches == {}


def test_two_fragments_of_one_screen_are_watched_each_on_its_own(pushed) -> None:
    """The teacher's class bar follows every change; the Class page's report only the teacher's steps."""
    classes = {"ABC234": (1, 1)}
    w = push.Watcher(lambda codes: dict(classes))
    w.watch("teacher", "bar", "ABC234", teacher=True, seen=(1, 1))
    w.watch("teacher", "report", "ABC234", teacher=False, seen=(1, 1), name="report")
    classes["ABC234"] = (2, 1)  # a vote
    assert w.look() == 1 and pushed == [("teacher", "bar")]
    classes["ABC234"] = (3, 2)  # Reveal
    w.watch("teacher", "bar", "ABC234", teacher=True, seen=(2, 1))
    assert w.look() == 2 and sorted(pushed[1:]) == [("teacher", "bar"), ("teacher", "report")]
    w.forget("teacher")
    assert w._watches == {}


def test_without_streamlits_runtime_nothing_is_watched(monkeypatch) -> None:
    from streamlit.runtime import Runtime

    monkeypatch.setattr(push, "_WATCHER", None)
    monkeypatch.setattr(Runtime, "exists", classmethod(lambda cls: False))  # as in AppTest: no server runtime
    push.watch("ABC234", teacher=True, seen=(1, 0))
    assert push._WATCHER is None  # a no-op: no watcher, no thread


def test_a_fragment_of_a_page_the_session_left_is_never_pushed(monkeypatch) -> None:
    """The bar of the page the session was on is replaced by the bar of the page it is on now (one bar a screen);
    and a fragment whose page is not the session's page any more is dropped, not rerun on another page."""
    calls = []
    monkeypatch.setattr(push, "_rerun", lambda sid, fid, page="", busy=None: calls.append(fid) or (None if page == "old" else True))
    classes = {"ABC234": (1, 0)}
    w = push.Watcher(lambda codes: dict(classes))
    w.watch("teacher", "bar-on-class", "ABC234", teacher=True, seen=(1, 0), page="class")
    w.watch("teacher", "bar-on-lessons", "ABC234", teacher=True, seen=(1, 0), page="lessons")
    w.watch("teacher", "report", "ABC234", teacher=False, seen=(1, 0), name="report", page="old")
    classes["ABC234"] = (2, 1)
    assert w.look() == 1 and sorted(calls) == ["bar-on-lessons", "report"]
    assert [k for k in w._watches] == [("teacher", "bar")]
