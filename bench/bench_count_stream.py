"""Benchmark of ``count -`` streaming its input: memory on a small and a large pipe, speed against holding the text.

Not a test: it prints figures measured in one run (a shared machine's speed drifts, so the speed is given
as a ratio of two timings taken in turns).

    python bench/bench_count_stream.py                     # 1 MB and 150 MB pipes, 20 MB for the speed ratio
    python bench/bench_count_stream.py --large-mb 50 --speed-mb 10 --repeat 3

What it measures:

* peak resident memory (``ru_maxrss`` of the child, from ``os.wait4``) and CPU time of
  ``python -m tokenizer count -`` with its default tokenizers (GPT-4 and GPT-4o), fed a pipe of the bench
  corpus repeated, 1 MB and ``--large-mb`` MB: streaming keeps them about the same;
* counting ``--speed-mb`` MB in this process, for each default tokenizer: cut into parts and counted part by
  part (``tokenizer.chunked``, as ``count -`` does) against one ``encode`` of the whole text (what ``count``
  did before, holding it); the best of ``--repeat`` runs each, taken in turns.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from family import real
from tokenizer.chunked import PART_CHARS, count_parts, cut_text
from tokenizer.cli import COUNT_DEFAULT

CORPUS = ROOT.parent / "shared" / "bench" / "corpus_1mb.txt"


def pipe_run(total: int, data: bytes) -> tuple[float, float, float, str]:
    """(peak MB, CPU s, wall s, last line) of ``count -`` fed ``total`` bytes of ``data`` repeated."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "tokenizer", "count", "-"], cwd=ROOT, env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def feed() -> None:
        left = total
        while left > 0:
            piece = data[:left]
            child.stdin.write(piece)
            left -= len(piece)
        child.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    out = child.stdout.read().decode()
    child.stderr.read()
    writer.join()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"count failed on {total:,} bytes")
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, wall, out.strip().splitlines()[-1]


def speed(text: str, name: str, repeat: int) -> tuple[float, float, int]:
    """(best whole-text seconds, best streamed seconds, tokens) for tokenizer ``name`` on ``text``."""
    tok = real.load(name)
    fragments = [text[i:i + PART_CHARS] for i in range(0, len(text), PART_CHARS)]  # as count - reads
    whole_best = streamed_best = float("inf")
    tokens = 0
    for _ in range(repeat):
        start = time.perf_counter()
        whole = len(tok.encode(text))
        whole_best = min(whole_best, time.perf_counter() - start)
        start = time.perf_counter()
        streamed = count_parts([tok], cut_text(fragments)).tokens[0]
        streamed_best = min(streamed_best, time.perf_counter() - start)
        assert whole == streamed, (name, whole, streamed)
        tokens = whole
    return whole_best, streamed_best, tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large-mb", type=int, default=150)
    parser.add_argument("--speed-mb", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    data = CORPUS.read_bytes()
    print(f"count - (default tokenizers {', '.join(COUNT_DEFAULT)}), bench corpus repeated, through a pipe:")
    for mb in (1, args.large_mb):
        peak, cpu, wall, last = pipe_run(mb * 1_000_000, data)
        print(f"  {mb:>4} MB: peak {peak:6.0f} MB resident, {cpu:6.1f} s CPU, {wall:6.1f} s wall   ({last})")
    text = (data * (args.speed_mb + 1)).decode("utf-8", "ignore")[: args.speed_mb * 720_000]
    print(f"counting {len(text.encode()) / 1e6:.1f} MB in one process, best of {args.repeat}:")
    for name in COUNT_DEFAULT:
        whole, streamed, tokens = speed(text, name, args.repeat)
        print(f"  {name:<12} whole {whole:6.2f} s, streamed {streamed:6.2f} s: ratio {streamed / whole:.2f} "
              f"({tokens:,} tokens, equal)")


if __name__ == "__main__":
    main()
