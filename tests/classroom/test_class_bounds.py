"""What one hostile input to a class can cost the server the whole class shares: bounded, and proved here.

Everything a class reads from a learner or a link is checked where it is read (lessons/classroom/checks.py):
a code, a name, a resume code, a vote, an answer, a teacher's secret, a question. Each check refuses what is
too long *before* any work on it (no normalising, hashing or querying of a 10 MB string). This test sends the
costliest values a browser or a link could carry to every entry point of the store, and opens the Class page
with a hostile link and cookie, in a subprocess under hard CPU and memory limits (tests/bounded.py), and reads
what each case really took.
"""

from __future__ import annotations

import json

from tests.bounded import run_python

STORE_CASES = r"""
import json, sys, time, tempfile
from lessons.classroom import Classes, open_database
from lessons.classroom.errors import ClassError

db = open_database(f"sqlite:///{tempfile.mkdtemp()}/classes.sqlite3")
classes = Classes(db, joins_per_minute=10**9)
started = classes.start("Bounds")
code, secret = started.code, started.teacher_secret
learner = classes.join(code, "Asha")
poll = classes.pose(code, secret, {"id": "q-bounds", "prompt": "Which?", "kind": "choice", "choices": ["a", "b"],
                                   "where": ""})
huge = "क" * 5_000_000  # 15 MB of UTF-8: more than any link, form field or websocket message a server takes
nested = []
for _ in range(100_000):
    nested = [nested]
cases = {
    "join: a huge code": lambda: classes.join(huge, "Asha"),
    "join: a huge name": lambda: classes.join(code, huge),
    "join: a name of joiners": lambda: classes.join(code, "\u200d" * 160),
    "resume: a huge resume code": lambda: classes.resume(code, huge),
    "info: a code that is not text": lambda: classes.info(list(range(1_000_000))),
    "is_teacher: a huge secret": lambda: classes.is_teacher(code, huge),
    "end: a huge secret": lambda: classes.end(code, huge),
    "vote: a huge answer": lambda: classes.vote(code, learner.learner_id, poll.poll_id, 1, huge,
                                                vote_id="v" * 20),
    "vote: a huge poll id": lambda: classes.vote(code, learner.learner_id, huge, 1, "a", vote_id="v" * 20),
    "vote: a round far away": lambda: classes.vote(code, learner.learner_id, poll.poll_id, 10**100, "a",
                                                   vote_id="v" * 20),
    "record_answer: a huge key and guess": lambda: classes.record_answer(code, learner.learner_id, huge, huge, True),
    "pose: a huge question": lambda: classes.pose(code, secret, {"id": "q", "prompt": huge, "kind": "choice"}),
    "pose: a question nested 100,000 deep": lambda: classes.pose(code, secret, {"id": "q", "prompt": "p",
                                                                               "kind": "choice", "x": nested}),
    "reveal: a huge truth": lambda: classes.reveal(code, secret, huge),
}
out = {}
for name, call in cases.items():
    start = time.process_time()
    try:
        outcome = f"returned {call()!r}"[:60]
    except ClassError as exc:
        outcome = type(exc).__name__
    out[name] = [outcome, time.process_time() - start]
print(json.dumps(out))
"""


def test_every_store_entry_refuses_the_costliest_input_quickly(tmp_path) -> None:
    run = run_python(["-c", STORE_CASES], cwd=tmp_path, cpu_limit_s=60, memory_limit=2 * 1024**3, timeout_s=120)
    run.assert_bounded(cpu_s=30, peak_mb=400)
    cases = json.loads(run.out.strip().splitlines()[-1])
    assert len(cases) == 14
    for name, (outcome, cpu_s) in cases.items():
        assert not outcome.startswith("returned") or outcome == "returned False", f"{name}: {outcome}"  # refused
        assert cpu_s < 0.5, f"{name}: {cpu_s:.2f} s of CPU to refuse it"


PAGE_CASES = r"""
import json, sys, time
from tests.apptest_helpers import run_page
huge = "Z" * 60_000  # about what a URL can carry through the server (64 KB of header)
links = {
    "a teacher link with a huge code and secret": {"code": huge, "teacher": huge},
    "a learner link with a huge code": {"code": huge},
    "a code of Devanagari digits": {"code": "१२३४५६"},
}
out = {}
for name, query in links.items():
    start = time.process_time()
    at = run_page("pages/13_Class.py", query_params=query, timeout=60)
    out[name] = [len(at.exception), "teacher" in at.query_params, time.process_time() - start]
print(json.dumps(out))
"""


def test_a_hostile_link_to_the_class_page_is_refused_with_bounded_cost(tmp_path) -> None:
    env_dir = tmp_path / "data"
    env_dir.mkdir()
    code = f"import os; os.environ['LAB_DATA_DIR'] = {str(env_dir)!r}\n" + PAGE_CASES
    run = run_python(["-c", code], cpu_limit_s=120, memory_limit=3 * 1024**3, timeout_s=240)
    run.assert_bounded(cpu_s=90, peak_mb=900)
    cases = json.loads(run.out.strip().splitlines()[-1])
    for name, (exceptions, secret_in_address, _cpu_s) in cases.items():
        assert exceptions == 0, name
        assert not secret_in_address, f"{name}: the teacher's secret stayed in the address bar"
