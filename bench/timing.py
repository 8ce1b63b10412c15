"""Timing for the benchmark scripts: the best of several runs, jobs taking turns (figures, not tests)."""

from __future__ import annotations

import gc
import time


def best_of(repeat: int, run, setup=None):
    """Best wall time of ``repeat`` calls of ``run(setup())``, and the last result."""
    [(best, result)] = interleaved(repeat, [(run, setup)])
    return best, result


def interleaved(repeat: int, jobs):
    """Best wall time and last result of each ``(run, setup)`` job, taking turns.

    Round r runs every job once, so a spell of load on a shared machine slows
    all of them alike instead of one; ``setup()``, untimed, gives ``run`` its
    argument (None: ``run()`` takes none).
    """
    best = [float("inf")] * len(jobs)
    results: list = [None] * len(jobs)
    for _ in range(max(1, repeat)):
        for j, (run, setup) in enumerate(jobs):
            results[j] = None  # free the previous result now, not inside the timed call
            arg = setup() if setup is not None else None
            gc.collect()
            start = time.perf_counter()
            results[j] = run(arg) if setup is not None else run()
            best[j] = min(best[j], time.perf_counter() - start)
    return list(zip(best, results))
