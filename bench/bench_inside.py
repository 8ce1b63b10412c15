"""Benchmark of the inside views of the production tokenizers (issue 26): merge trees, encoding step by step,
the vocabulary read by script. Not a test: figures, measured side by side in one run.

    .venv/bin/python bench/bench_inside.py                 # every tokenizer, each in a fresh process
    .venv/bin/python bench/bench_inside.py --only o200k_base

Per tokenizer, in a fresh Python process (so "cold" is cold):

* the tokenizer's own load (the reference the other figures are compared with), its resident memory after;
* the vocabulary read by script (:func:`analyses.vocab.vocabulary`, what the Vocabulary page's first load pays):
  time and the resident memory it adds; then a search, warm;
* a token's merge tree (:meth:`family.merges.Inside.tree`): the longest token of the vocabulary, cold (its parts
  recovered) and warm (cached); every token of lesson 4's Hindi sentence, cold and warm;
* encoding step by step (:meth:`family.merges.Inside.replay`) of the Hindi sentence and of 200 characters of
  mixed text (what Encode step by step replays at most), beside the library's own encode of the same text
  (as a ratio: the replay is Python, the library Rust or C++);
* the parts cache: the memory 10,000 tokens' recovered parts take (tracemalloc), per token.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})

def rss_kb():
    with open("/proc/self/status") as f:
        return int(f.read().split("VmRSS:")[1].split()[0])

def timed(fn, repeat=1):
    best = None
    for _ in range(repeat):
        t = time.perf_counter(); out = fn(); dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best, out

import lessons
from family import real, merges
from analyses import vocab
name = {name!r}
hindi = lessons.data("lesson4_english_hindi")["test_hi"]
mixed = (hindi + " Thick fog closed schools, 12,345 roads! 😀 " * 4)[:200]
r0 = rss_kb()
load_s, tok = timed(lambda: real.load(name))
r1 = rss_kb()
vocab_s, v = timed(lambda: vocab.vocabulary(tok))
r2 = rss_kb()
search_s, _ = timed(lambda: v.search("ing"), 5)
view = merges.inside(tok)
longest = int(v.ids[v.byte_lengths.argmax()])
tree_cold, _ = timed(lambda: view.tree(longest))
tree_warm, _ = timed(lambda: view.tree(longest), 5)
ids = tok.encode(hindi)
hindi_cold, _ = timed(lambda: [view.tree(i) for i in ids])
hindi_warm, _ = timed(lambda: [view.tree(i) for i in ids], 5)
replay_s, rp = timed(lambda: view.replay(hindi), 5)
replay200_s, rp200 = timed(lambda: view.replay(mixed), 5)
lib_s, lib = timed(lambda: tok.encode(mixed), 20)
assert rp200.ids == lib and rp.ids == ids
import tracemalloc
sample = [int(i) for i in v.ids[:: max(1, len(v.ids) // 10_000)][:10_000] if view.parts(int(i)) is None or True]
view._parts.clear()
tracemalloc.start()
for i in sample:
    view.parts(i)
cache_bytes = tracemalloc.get_traced_memory()[0]
tracemalloc.stop()
print(json.dumps(dict(name=name, load_s=load_s, rss_load_mb=(r1 - r0) / 1024, vocab_s=vocab_s,
     vocab_mb=(r2 - r1) / 1024, search_ms=search_s * 1000, longest=longest, longest_bytes=int(v.byte_lengths.max()),
     tree_cold_ms=tree_cold * 1000, tree_warm_ms=tree_warm * 1000, hindi_tokens=len(ids),
     hindi_cold_ms=hindi_cold * 1000, hindi_warm_ms=hindi_warm * 1000, replay_ms=replay_s * 1000,
     replay_steps=len(rp.steps), replay200_ms=replay200_s * 1000, steps200=len(rp200.steps),
     lib_ms=lib_s * 1000, cache_bytes_per_token=cache_bytes / max(1, len(sample)), cached=view.cached())))
"""


def run(name: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), name=name)], capture_output=True,
                          text=True, timeout=600, check=False)
    if done.returncode:
        return {"name": name, "error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from family import real

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="a tokenizer's name (repeatable)")
    args = parser.parse_args(argv)
    names = args.only or list(real.NAMES)
    print(f"{'tokenizer':16}{'load':>8}{'+MB':>6}{'vocab':>8}{'+MB':>6}{'search':>8}{'tree cold':>10}{'warm':>8}"
          f"{'HI trees':>9}{'warm':>7}{'replay HI':>10}{'200 ch':>8}{'library':>9}{'x lib':>7}{'B/cached':>9}")
    rows = []
    for name in names:
        r = run(name)
        rows.append(r)
        if "error" in r:
            print(f"{name:16} error: {r['error']}")
            continue
        print(f"{name:16}{r['load_s']:7.2f}s{r['rss_load_mb']:6.0f}{r['vocab_s']:7.2f}s{r['vocab_mb']:6.0f}"
              f"{r['search_ms']:6.0f}ms{r['tree_cold_ms']:8.1f}ms{r['tree_warm_ms']:6.2f}ms{r['hindi_cold_ms']:7.1f}ms"
              f"{r['hindi_warm_ms']:5.1f}ms{r['replay_ms']:8.1f}ms{r['replay200_ms']:6.1f}ms{r['lib_ms']:7.3f}ms"
              f"{r['replay200_ms'] / max(r['lib_ms'], 1e-6):7.0f}{r['cache_bytes_per_token']:9.0f}")
    good = [r for r in rows if "error" not in r]
    if good:
        print(f"\nworst warm tree of the longest token: {max(r['tree_warm_ms'] for r in good):.2f} ms; worst cold: "
              f"{max(r['tree_cold_ms'] for r in good):.1f} ms; worst 200-character replay: "
              f"{max(r['replay200_ms'] for r in good):.1f} ms (bar: 50 ms); vocabulary read: "
              f"{statistics.median(r['vocab_s'] for r in good):.2f} s median, {max(r['vocab_s'] for r in good):.2f} s worst "
              f"(bar: 3 s for o200k)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
