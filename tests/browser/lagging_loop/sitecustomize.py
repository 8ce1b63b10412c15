"""For one test's server only (on its PYTHONPATH, with LAB_TEST_PUSH_LAG_S set): the server's event loop stops for
LAB_TEST_PUSH_LAG_S seconds each time the class watcher (ui.push, its thread LAB_TEST_PUSH_THREAD) hands it a push, as
a busy machine's loop can. A run going meanwhile finishes and queues its last messages behind the push: the race
that lost the teacher's "Pose it now" on the screen (tests/browser/journeys/test_class.py).

It says in the server's log that it is on, and when it first held a push up, so that a test on it can tell the race
was really run (a Streamlit that renamed what is patched here fails that test)."""

import os
import sys
import threading
import time

LAG_S = float(os.environ.get("LAB_TEST_PUSH_LAG_S") or 0)
WATCHER_THREAD = os.environ.get("LAB_TEST_PUSH_THREAD", "")  # ui.push.WATCHER_THREAD, given by the test

if LAG_S:
    from streamlit.runtime import app_session

    _call_soon = app_session.AppSession._call_soon_on_event_loop
    _held = []

    def _lagging(self, callback):
        if threading.current_thread().name != WATCHER_THREAD:
            return _call_soon(self, callback)

        def late():
            if not _held:
                _held.append(True)
                print("lagging loop: a push held up", file=sys.stderr, flush=True)
            time.sleep(LAG_S)  # on the loop: everything queued after the push waits behind it
            callback()

        return _call_soon(self, late)

    app_session.AppSession._call_soon_on_event_loop = _lagging
    print(f"lagging loop: on ({LAG_S} s at each push)", file=sys.stderr, flush=True)
