"""Run Python in a child process with hard CPU and memory limits, and measure what it really cost.

Every resource-bound test in the suite runs its hostile case through :func:`run_bounded`:

- the child runs under ``RLIMIT_CPU`` and ``RLIMIT_AS`` (a regression fails the test instead of taking the
  machine);
- its CPU time is its own (``os.wait4`` on its pid, user + system);
- its peak memory is its own high-water mark, ``VmHWM`` from ``/proc/self/status``, written by the child as it
  exits, plus the largest of the pattern-search workers it started (``tokenizer.searcher``: a user's pre-split
  pattern is searched in a child process of its own, and that memory is part of what the request cost). Not ``ru_maxrss``: Linux keeps the largest resident size a process ever had across ``exec``, so a child
  forked from a test runner that holds 800 MB reports 800 MB however little it used.

>>> child = run_bounded(["-c", "print(sum(range(10)))"])
>>> (child.code, child.out.strip(), child.peak_mb < 100)
(0, '45', True)
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
CPU_LIMIT_S = 60
"""A child's CPU limit: the whole subprocess, imports and the lab's first training runs included. A regression is
killed at the limit, not waited for."""
MEMORY_LIMIT = 3 * 1024**3
"""A child's address space: Python with pandas and Streamlit imported uses about a third of it."""
ENGINE_CPU_LIMIT_S = 30
"""The same for a child that runs the engine or the command line only (no Streamlit, no pandas)."""
ENGINE_MEMORY_LIMIT = 2 * 1024**3
"""The same for a child that runs the engine or the command line only."""

# Runs ``-m MODULE ARGS`` or ``-c CODE ARGS`` as ``python`` would, then writes VmHWM (kB) to a pipe as it exits
# (``sys.exit`` and an uncaught exception included; a process killed by a signal writes nothing).
_RUNNER = """
import atexit, os, runpy, sys
_fd = int(sys.argv.pop(1)); _kind = sys.argv.pop(1); _target = sys.argv.pop(1)
def _peak():
    with open("/proc/self/status") as status:
        kb = int(status.read().split("VmHWM:")[1].split()[0])
    searcher = sys.modules.get("tokenizer.searcher")  # a user's pattern is searched in a worker: its memory counts
    kb += int(searcher.workers_peak_mb() * 1024) if searcher else 0
    os.write(_fd, str(kb).encode())
atexit.register(_peak)
if _kind == "-m":
    sys.argv = [_target, *sys.argv[1:]]
    runpy.run_module(_target, run_name="__main__", alter_sys=True)
else:
    sys.argv = ["-c", *sys.argv[1:]]
    exec(compile(_target, "<string>", "exec"), {"__name__": "__main__"})
"""


@dataclass
class Bounded:
    """What a child did and cost."""

    code: int  # exit code; minus the signal's number when a signal ended it (RLIMIT_CPU: -SIGXCPU or -SIGKILL)
    out: str
    err: str
    cpu_s: float
    peak_mb: float  # inf when the child wrote no peak (killed by a signal)
    timed_out: bool = False

    def assert_bounded(self, cpu_s: float = 10, peak_mb: float = 600) -> None:
        """No traceback, and the cost under the given (generous) bounds."""
        assert "Traceback" not in self.out + self.err, self.err[-2000:]
        assert not self.timed_out, "the child did not finish in time"
        assert self.cpu_s < cpu_s, f"{self.cpu_s:.2f} s of CPU (bound {cpu_s} s)"
        assert self.peak_mb < peak_mb, f"{self.peak_mb:.0f} MB at peak (bound {peak_mb} MB)"


def _limits(cpu_s: int, memory: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return apply


def _write(feed: Callable[[IO[bytes]], None], pipe: IO[bytes]) -> None:
    try:
        feed(pipe)
    except OSError:  # the child stopped reading (it refused the input): that is often the point
        pass
    finally:
        try:
            pipe.close()
        except OSError:
            pass


def run_bounded(
    args: list[str],
    *,
    stdin: str | bytes | os.PathLike | IO | int | None = None,
    feed: Callable[[IO[bytes]], None] | None = None,
    cwd: str | os.PathLike = ROOT,
    env: dict[str, str] | None = None,
    cpu_limit_s: int = CPU_LIMIT_S,
    memory_limit: int = MEMORY_LIMIT,
    timeout_s: float | None = None,
) -> Bounded:
    """Run ``python ARGS`` (``args`` starts with ``-m MODULE`` or ``-c CODE``) under the limits.

    ``stdin``: text or bytes to feed, a path or an open file or descriptor to read from (a device, a
    terminal), or None for /dev/null. ``feed``: instead, a function that writes to the child's standard
    input, a pipe, from a thread (a stream of any length; an OSError when the child stops reading is fine).
    ``env``: the child's environment (default: this one, with the project on PYTHONPATH).
    ``timeout_s``: wall-clock seconds after which the child is killed and ``timed_out`` set (for a case that
    could block, such as a named pipe nobody writes to).
    """
    if not args or args[0] not in ("-m", "-c"):
        raise ValueError("args must start with -m MODULE or -c CODE")
    if env is None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    read_peak, write_peak = os.pipe()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as given:
        opened = None
        if isinstance(stdin, str):
            stdin = stdin.encode("utf-8")
        if isinstance(stdin, bytes):
            given.write(stdin)
            given.seek(0)
            stdin = given
        elif isinstance(stdin, os.PathLike):
            stdin = opened = open(stdin, "rb")  # noqa: SIM115 - closed once the child has it
        elif stdin is None:
            stdin = subprocess.PIPE if feed is not None else subprocess.DEVNULL
        child = subprocess.Popen(
            [sys.executable, "-c", _RUNNER, str(write_peak), *args], cwd=cwd, env=env, stdin=stdin, stdout=out,
            stderr=err, pass_fds=(write_peak,), preexec_fn=_limits(cpu_limit_s, memory_limit),
        )
        os.close(write_peak)
        if opened is not None:
            opened.close()
        writer = None
        if feed is not None and child.stdin is not None:
            writer = threading.Thread(target=_write, args=(feed, child.stdin), daemon=True)
            writer.start()
        timed_out = False
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            pid, status, usage = os.wait4(child.pid, 0 if deadline is None else os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                timed_out = True
                os.kill(child.pid, signal.SIGKILL)
                deadline = None
                continue
            time.sleep(0.02)
        child.returncode = os.waitstatus_to_exitcode(status)
        if writer is not None:
            writer.join(timeout=10)
        with os.fdopen(read_peak, "rb") as peak:
            peak_kb = peak.read().decode() or "inf"
        out.seek(0)
        err.seek(0)
        return Bounded(
            child.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
            usage.ru_utime + usage.ru_stime, float(peak_kb) / 1024, timed_out,
        )


BENCH_DIR = ROOT.parent / "shared" / "bench"  # the project's 1 MB Hindi/English corpus, beside the checkout


def run_python(args: list[str], *, cwd: str | os.PathLike = ROOT, timeout_s: float = 120, **limits) -> Bounded:
    """``python ARGS`` as a hostile case runs in the tests: under the limits (:func:`run_bounded`'s keywords:
    ``stdin``, ``feed``, ``cpu_limit_s``, ``memory_limit``), in a minimal environment (the project on
    PYTHONPATH, /usr/bin:/bin, HOME = ``cwd``: nothing of the caller's leaks in), and a run still going after
    ``timeout_s`` fails the test rather than hang the suite."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    run = run_bounded(args, cwd=cwd, env=env, timeout_s=timeout_s, **limits)
    assert not run.timed_out, f"python {' '.join(args[:2])[:200]} still ran after {timeout_s} s"
    return run


def bench_text(name: str = "corpus_1mb.txt") -> str:
    """The bench corpus; where a checkout has no ../shared, the lab's own corpora (English, Hindi, Hinglish)
    repeated to the same size, so the checks still run on real mixed text."""
    path = BENCH_DIR / name
    if path.exists():
        return path.read_text(encoding="utf-8")
    import lessons

    size = 1_000_000 if name == "corpus_1mb.txt" else 100_000  # bytes, as the files' names say
    text = "\n".join(preset.corpus for preset in lessons.presets().values()) + "\n"
    data = (text * (size // len(text.encode("utf-8")) + 1)).encode("utf-8")[:size]
    return data.decode("utf-8", "ignore")  # a character cut at the end is dropped
