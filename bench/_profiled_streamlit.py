"""``python bench/_profiled_streamlit.py run app.py ...``: Streamlit with every script run profiled (for
``bench/profile_first_run.py``; run with the checkout to measure as the working directory, which may be another
commit's copy of the lab: this file only patches Streamlit).

Each script run (a whole run or a fragment's) is profiled by cProfile on its own thread, by that thread's CPU
time (``PROFILE_TIMER=wall`` for wall time, ``none`` for no profile: only each run's times), and written to ``$PROFILE_DIR/<n>.prof`` with one JSON line in
``$PROFILE_DIR/runs.jsonl``: the phase (the text of ``$PROFILE_DIR/phase``), the session, whether it was the
session's first run, the page asked for, the thread's CPU time and the wall time. Only runs in the phase
"visits" are profiled; the others are timed.
"""

from __future__ import annotations

import cProfile
import itertools
import json
import os
import sys
import threading
import time
from pathlib import Path

OUT = Path(os.environ["PROFILE_DIR"])
TIMER = time.perf_counter if os.environ.get("PROFILE_TIMER") == "wall" else time.thread_time
PROFILE = os.environ.get("PROFILE_TIMER") != "none"  # "none": only each run's CPU and wall time, unprofiled
_count = itertools.count()
_seen: set[str] = set()
_lock = threading.Lock()


def _patch() -> None:
    from streamlit.runtime.scriptrunner import script_runner

    original = script_runner.ScriptRunner._run_script

    def _run_script(self, rerun_data):
        with _lock:
            first = self._session_id not in _seen
            _seen.add(self._session_id)
        try:
            phase = (OUT / "phase").read_text().strip()
        except OSError:
            phase = ""
        profile = cProfile.Profile(TIMER) if PROFILE and phase == "visits" else None
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        try:
            return original(self, rerun_data)
        finally:
            if profile is not None:
                profile.disable()
            cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
            n = next(_count)
            if profile is not None:
                profile.dump_stats(OUT / f"{n}.prof")
            record = {"n": n, "phase": phase, "session": self._session_id, "first": first, "page": rerun_data.page_name,
                      "hash": rerun_data.page_script_hash, "fragment": bool(rerun_data.fragment_id_queue),
                      "query": rerun_data.query_string, "cpu_s": cpu, "wall_s": wall}
            with _lock, open(OUT / "runs.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")

    script_runner.ScriptRunner._run_script = _run_script


if __name__ == "__main__":
    sys.path[0] = os.getcwd()  # the checkout's modules, not bench/'s neighbours
    _patch()
    from streamlit.web.cli import main

    sys.argv = ["streamlit", *sys.argv[1:]]
    sys.exit(main())
