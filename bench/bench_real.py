"""Benchmark of the production tokenizers (``family.real``), with the lab's own BPE as a yardstick.

Not a test: it prints figures measured side by side in one run (a shared
machine's speed drifts, so compare within a run, as ratios).

    python bench/bench_real.py ../shared/bench/corpus_1mb.txt           # its first 100 KB
    python bench/bench_real.py corpus.txt --kb 200 --merges 1000 --repeat 5

What it measures:

* first load: each tokenizer loaded in a fresh Python process (so it really
  is the first load: its library imported, its data read, checked and
  built), median of ``--loads`` processes; the time of ``load()`` alone,
  and of the whole process (interpreter start and imports included);
* counting the first ``--kb`` KB of the text with each tokenizer: tokens,
  best time of ``--repeat``, MB/s, and the time of building every
  :class:`~tokenizer.interface.Token` (what a page drawing all of them pays);
* drawing the start of the whole file: ``encode_tokens(text, limit=2000)``
  (the whole file is encoded, but only 2,000 Token objects are built);
* the lab's own byte-level BPE (``--merges`` merges, pre-split `` ?\\S+``)
  trained on that same text, counting it with a fresh model (cold: its
  per-word cache empty) and warm; every speed is also given as a multiple
  of the lab model's warm count.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.timing import best_of
from family import real
from tokenizer import train, word_count

FIRST_LOAD = """
import json, time
start = time.perf_counter()
import family.real as real
imported = time.perf_counter()
reason = real.status({name!r})
loaded = time.perf_counter()
print(json.dumps({{"reason": reason, "import": imported - start, "load": loaded - imported}}))
"""


def first_load(name: str, runs: int) -> dict:
    """Median load() time and whole-process time over ``runs`` fresh processes."""
    loads, walls, reason = [], [], None
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", FIRST_LOAD.format(name=name)], cwd=ROOT,
                              capture_output=True, text=True, timeout=300, check=True)  # fmt: skip
        walls.append(time.perf_counter() - start)
        out = json.loads(done.stdout.strip().splitlines()[-1])
        reason = out["reason"]
        loads.append(out["load"])
    return {"reason": reason, "load": statistics.median(loads), "process": statistics.median(walls)}


def read_prefix(path: Path, kb: int) -> str:
    """The first ``kb`` KB of a UTF-8 file (a character cut at the end is dropped)."""
    return path.read_bytes()[: kb * 1024].decode("utf-8", errors="ignore")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", type=Path, help="a UTF-8 text file, e.g. ../shared/bench/corpus_1mb.txt")
    parser.add_argument("--kb", type=int, default=100, help="how much of it to count (default 100 KB)")
    parser.add_argument("--merges", type=int, default=1000, help="merges of the lab's reference BPE (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed counts per tokenizer, best kept (default 3)")
    parser.add_argument("--loads", type=int, default=3, help="fresh processes per first-load time (default 3)")
    args = parser.parse_args(argv)

    text = read_prefix(args.corpus, args.kb)
    size = len(text.encode("utf-8"))
    mb = size / 1e6
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.node()}")
    print(f"text: first {size:,} bytes of {args.corpus} ({len(text):,} characters, {word_count(text):,} words)")

    print("\nFirst load, each in a fresh process (median of", args.loads, "processes)")
    print(f"{'tokenizer':<16}{'load()':>9}{'process':>10}  status")
    available = []
    for info in real.catalogue():
        got = first_load(info.name, args.loads)
        if got["reason"] is None:
            available.append(info.name)
        state = "available" if got["reason"] is None else "unavailable: " + got["reason"]
        print(f"{info.name:<16}{got['load']:>8.2f}s{got['process']:>9.2f}s  {state}")

    start = time.perf_counter()
    lab = train(text, args.merges).tokenizer
    train_s = time.perf_counter() - start
    cold_start = time.perf_counter()
    lab_tokens = lab.count(text)
    lab_cold = time.perf_counter() - cold_start
    lab_warm, _ = best_of(args.repeat, lambda: lab.count(text))
    lab_objects, _ = best_of(args.repeat, lambda: lab.encode_tokens(text))

    print(f"\nCounting {size / 1024:.0f} KB (best of {args.repeat}); 'x lab' = speed as a multiple of the lab BPE's warm count")
    print(f"{'tokenizer':<16}{'tokens':>9}{'bytes/token':>12}{'count':>10}{'MB/s':>8}{'x lab':>7}{'Token objects':>15}")
    for name in available:
        tok = real.load(name)
        seconds, tokens = best_of(args.repeat, lambda tok=tok: tok.count(text))
        objects, _ = best_of(args.repeat, lambda tok=tok: tok.encode_tokens(text))
        print(f"{name:<16}{tokens:>9,}{size / tokens:>12.2f}{seconds * 1e3:>8.1f}ms{mb / seconds:>8.1f}"
              f"{lab_warm / seconds:>7.1f}{objects * 1e3:>13.0f}ms")  # fmt: skip
    print(f"{'lab BPE (warm)':<16}{lab_tokens:>9,}{size / lab_tokens:>12.2f}{lab_warm * 1e3:>8.1f}ms"
          f"{mb / lab_warm:>8.1f}{1.0:>7.1f}{lab_objects * 1e3:>13.0f}ms")  # fmt: skip
    print(f"{'lab BPE (cold)':<16}{lab_tokens:>9,}{size / lab_tokens:>12.2f}{lab_cold * 1e3:>8.1f}ms"
          f"{mb / lab_cold:>8.1f}{lab_warm / lab_cold:>7.1f}")  # fmt: skip
    whole = args.corpus.read_text(encoding="utf-8")
    print(f"\nThe first 2,000 tokens of the whole file ({len(whole.encode('utf-8')) / 1e6:.2f} MB), "
          f"encode_tokens(limit=2000), best of {args.repeat}")
    for name in available:
        tok = real.load(name)
        seconds, _ = best_of(args.repeat, lambda tok=tok: tok.encode_tokens(whole, limit=2000))
        print(f"{name:<16}{seconds * 1e3:>8.0f}ms")
    seconds, _ = best_of(args.repeat, lambda: lab.encode_tokens(whole, limit=2000))
    print(f"{'lab BPE':<16}{seconds * 1e3:>8.0f}ms")

    print(f"\nlab BPE: {args.merges} merges trained on this same text in {train_s:.2f}s "
          f"(vocabulary {lab.vocab_size:,}; it has seen every word it counts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
