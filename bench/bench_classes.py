"""What the class store costs per operation, on SQLite or PostgreSQL (a benchmark, not a test).

    .venv/bin/python bench/bench_classes.py [--database URL] [--learners 120] [--threads 8]

Without ``--database``: a new SQLite file in a temporary folder. It starts one class, then times each kind of
operation a class makes, one at a time (join, pose, vote, the ``version`` a screen polls, ``current``,
``tally``, ``record_answer``, the teacher's dashboard) and prints the median and p95 of each; then every
learner votes from ``--threads`` threads at once, each vote sent twice (as after a reconnect), and it checks
that every vote is stored exactly once. On a database of your own it deletes only the class it made.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lessons.classroom import Classes, open_database


def timed(label: str, calls, rows: list) -> list:
    """Run each of ``calls`` (no arguments) and keep its wall time; the results."""
    times, results = [], []
    for call in calls:
        start = time.perf_counter()
        results.append(call())
        times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    rows.append((label, len(times), statistics.median(times) * 1000, p95 * 1000))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", metavar="URL", default=None, help="default: a new SQLite file")
    parser.add_argument("--learners", type=int, default=120)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-classes-") as folder:
        return run(args, args.database or f"sqlite:///{Path(folder) / 'classes.sqlite3'}")


def run(args: argparse.Namespace, url: str) -> int:
    """Time the operations on the database at ``url``; 0 if every vote was stored exactly once."""
    with open_database(url) as db:
        classes = Classes(db, joins_per_minute=10 * args.learners)
        started = classes.start("bench")
        code, secret = started.code, started.teacher_secret
        rows: list = []
        try:
            learners = timed("join", [lambda i=i: classes.join(code, f"L{i}", client="bench")
                                      for i in range(args.learners)], rows)
            question = {"id": "bench", "prompt": "?", "kind": "choice", "choices": list("abcd"), "where": "/Train"}
            [poll] = timed("pose", [lambda: classes.pose(code, secret, question)], rows)
            timed("vote", [lambda learner=learner: classes.vote(code, learner.learner_id, poll.poll_id, 1, "a",
                                                                 vote_id=str(uuid.uuid4())) for learner in learners],
                  rows)
            timed("version (polled)", [lambda: classes.version(code)] * 300, rows)
            timed("current", [lambda: classes.current(code)] * 100, rows)
            timed("tally", [lambda: classes.tally(code, poll.poll_id, 1)] * 50, rows)
            timed("show / vote again", [lambda: classes.show(code, secret), lambda: classes.vote_again(code, secret)],
                  rows)
            timed("record_answer", [lambda learner=learner, q=q: classes.record_answer(
                code, learner.learner_id, f"q{q}", "x", q % 2 == 0) for learner in learners for q in range(5)], rows)
            timed("dashboard", [lambda: classes.dashboard(code, secret)] * 10, rows)

            sent, stored = [0], []
            lock = threading.Lock()

            def voter(mine: list) -> None:
                for learner in mine:
                    vote_id = str(uuid.uuid4())
                    for _ in range(2):
                        result = classes.vote(code, learner.learner_id, poll.poll_id, 2, "b", vote_id=vote_id)
                        with lock:
                            sent[0] += 1
                            stored.append(result)

            threads = [threading.Thread(target=voter, args=(learners[i::args.threads],)) for i in range(args.threads)]
            start = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - start
            with db.transaction(write=False) as tx:
                in_db = tx.one("SELECT COUNT(*) FROM votes WHERE poll_id = ? AND round = 2", (poll.poll_id,))[0]
        finally:
            with db.transaction() as tx:
                tx.execute("DELETE FROM classes WHERE code = ?", (code,))
    print(f"{db.backend}: {url if not args.database else db.url}")
    print(f"{'operation':<20} {'n':>5} {'median ms':>10} {'p95 ms':>8}")
    for label, n, median, p95 in rows:
        print(f"{label:<20} {n:>5} {median:>10.2f} {p95:>8.2f}")
    print(f"{args.learners} votes from {args.threads} threads, each sent twice: {sent[0]} sent in {elapsed:.2f} s, "
          f"{stored.count(True)} stored, {in_db} in the database "
          f"({'exactly once each' if in_db == stored.count(True) == args.learners else 'NOT EXACTLY ONCE'})")
    return 0 if in_db == args.learners else 1


if __name__ == "__main__":
    sys.exit(main())
