"""Where a pre-split pattern of the user's own is searched: a child process whose address space is capped.

A regular-expression search holds memory for every character it passes until it ends: a backtracking point for
each choice it may have to undo and, for a group inside a repeat, every capture (``(a)*`` about 170 bytes a
character, a pattern with 16 nested groups about 1.4 KB). The split's CPU time is budgeted
(:class:`tokenizer.pretokenize.SplitBudget`), but time is not memory: a faster CPU passes more characters in the
same second, so a bound on time alone lets a search's memory grow with the machine's speed (one such search took
330 MB on one machine and 515 MB on a faster one). So every pattern that is not one of the lab's own is searched
in a worker process whose address space is capped (``RLIMIT_AS``) at :data:`SEARCH_MEMORY_MB` above what the
worker needs to start. A search that needs more ends in a ``MemoryError`` inside the worker, which gives the
memory back at once and answers :class:`~tokenizer.pretokenize.PatternMemory`; the same pattern on the same text
costs at most the same memory on any machine, fast or slow, quiet or busy. Its CPU time is still the split's
budget, counted by the worker (the regex module's ``timeout`` is CPU time too).

The lab's own patterns (``DEFAULT_PATTERN``, GPT-2's, GPT-4's: :data:`tokenizer.pretokenize.OWN_PATTERNS`) hold
nothing per character they pass (no group in a repeat; their repeats never backtrack into a piece already found),
so they are searched in the calling process, as fast as before.

The workers are kept for the next request (a few MB each while they wait), at most :data:`MAX_WORKERS` at once,
so a server's searches of users' patterns take at most ``MAX_WORKERS x SEARCH_MEMORY_MB`` together. A worker ends
when its parent closes the pipe to it: when the parent exits, or is killed.

The protocol is frames on the worker's standard input and output, each a 4-byte length and its bytes: a JSON header
(the pattern, the budget's figures, how many texts), then each text in UTF-8; the answer is a JSON header, then for
each text the end of each piece as 64-bit integers. No pickle: the parent reads only numbers and a few strings.
"""

from __future__ import annotations

import atexit
import json
import select
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

SEARCH_MEMORY_MB = 256
"""The memory one search of a user's pattern may take: the worker's address space above what it started with. The
text and its pieces count against it too (a 2,000,000-character text cut into single characters takes about
150 MB of it), so every text the lab accepts splits within it with a pattern that holds nothing per character."""
MAX_WORKERS = 4
"""Searches of users' patterns at once, in a process (each in its own worker); more wait for a worker."""
_KEPT_IDLE = 2  # workers kept waiting for the next request; the others end when their search is done
_ROOT = Path(__file__).resolve().parents[1]
_HEADER = struct.Struct("<I")
_BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); from tokenizer import pretokenize as pt; "
         "from tokenizer.searcher import serve; serve(int(sys.argv[2]), pt.answer_search, pt.warm_up)")
"""The worker's program: this module's loop, answering with :func:`tokenizer.pretokenize.answer_search` (this module
knows frames and processes, not patterns: the pre-split that asks it is the one module that knows both ends)."""


# -- in the worker ---------------------------------------------------------------------------------------


def _read_frame(stream) -> bytes | None:
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(head)
    body = stream.read(size)
    return body if len(body) == size else None


def _write_frames(stream, frames: list[bytes]) -> None:
    for frame in frames:
        stream.write(_HEADER.pack(len(frame)))
        stream.write(frame)
    stream.flush()


def _address_space_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return int(status.read().split("VmSize:")[1].split()[0])


def serve(memory_mb: int, answer: Callable[[dict, list[bytes]], list[bytes]], warm_up: Callable[[], object]) -> None:
    """The worker's loop: answer requests (their header and texts, with ``answer``) until standard input closes.
    ``warm_up`` loads what a search needs before the cap is measured."""
    import resource

    warm_up()
    cap = _address_space_kb() * 1024 + memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            raw = _read_frame(source)
            if raw is None:
                return
            header = json.loads(raw)
            texts = [_read_frame(source) or b"" for _ in range(header["count"])]
            frames = answer(header, texts)
            del texts
        except MemoryError:  # the request itself did not fit: answer that, in the memory it gave back
            texts = []
            frames = [b'{"error": "memory", "chars": 0}']
        try:
            _write_frames(sink, frames)
        except BrokenPipeError:
            return


# -- in the caller ---------------------------------------------------------------------------------------


class _Worker:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(_ROOT), str(SEARCH_MEMORY_MB)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True,
        )
        assert self.process.stdin is not None and self.process.stdout is not None  # both are pipes
        self.stdin: IO[bytes] = self.process.stdin
        self.stdout: IO[bytes] = self.process.stdout

    def ask(self, frames: list[bytes], count: int, wall_s: float) -> tuple[dict, list[bytes]] | None:
        """Send a request and read its answer: None when the worker ended or took longer than ``wall_s``."""
        try:
            _write_frames(self.stdin, frames)
        except (BrokenPipeError, OSError):
            return None
        out = self.stdout
        ready, _, _ = select.select([out], [], [], wall_s)
        if not ready:
            return None
        raw = _read_frame(out)
        if raw is None:
            return None
        header = json.loads(raw)
        cuts = []
        if "error" not in header:
            for _ in range(count):
                frame = _read_frame(out)
                if frame is None:
                    return None
                cuts.append(frame)
        return header, cuts

    def alive(self) -> bool:
        return self.process.poll() is None

    def peak_kb(self) -> int:
        """The worker's own high-water mark of resident memory (0 once it has ended)."""
        try:
            with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
                return int(status.read().split("VmHWM:")[1].split()[0])
        except (OSError, IndexError, ValueError):
            return 0

    def stop(self, wait_s: float = 2.0) -> None:
        _note_peak(self)
        try:
            self.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stdout.close()


_lock = threading.Condition()
_idle: list[_Worker] = []
_busy = 0
_peak_kb = 0  # the largest high-water mark of a worker that has ended


def _note_peak(worker: _Worker) -> None:
    global _peak_kb
    _peak_kb = max(_peak_kb, worker.peak_kb())


def workers_peak_mb() -> float:
    """The most resident memory any ended worker of this process had (tests/bounded.py adds it to a child's own
    peak: a split's search is part of what the request cost)."""
    return _peak_kb / 1024


def _take() -> _Worker:
    global _busy
    with _lock:
        while not _idle and _busy >= MAX_WORKERS:
            _lock.wait()
        _busy += 1
        worker = _idle.pop() if _idle else None
    if worker is not None and worker.alive():
        return worker
    try:
        return _Worker()
    except BaseException:
        _give_back(None)
        raise


def _give_back(worker: _Worker | None) -> None:
    global _busy
    with _lock:
        _busy -= 1
        keep = worker is not None and worker.alive() and len(_idle) < _KEPT_IDLE
        if worker is not None and keep:
            _idle.append(worker)
        _lock.notify()
    if worker is not None and not keep:
        worker.stop()


@atexit.register
def stop_all() -> None:
    """End the waiting workers (the runner of a bounded test reads their peak memory once they have ended)."""
    with _lock:
        workers = list(_idle)
        _idle.clear()
    for worker in workers:
        worker.stop()


def ask(frames: list[bytes], count: int, wall_s: float) -> tuple[dict, list[bytes]] | None:
    """Send a request's frames to a waiting worker (or a new one) and read its answer: the reply's header and
    ``count`` frames. None when the worker ended or was still busy after ``wall_s`` seconds: it is killed, and
    never asked again."""
    worker = _take()
    answer = None
    try:
        answer = worker.ask(frames, count, wall_s)
    finally:
        if answer is None:  # ended, or stuck: it is not asked again
            _note_peak(worker)
            worker.process.kill()
        _give_back(worker)
    return answer
