"""Benchmark of the pre-split pattern bounds (``tokenizer/pretokenize.py``): the figures behind the limits.

Not a test: it prints figures (a shared machine's speed drifts; compare within one run).

    python bench/bench_patterns.py ../shared/bench/corpus_1mb.txt
    python bench/bench_patterns.py ../shared/bench/corpus_1mb.txt --before 4ef7a8e   # and the code of a revision

What it measures:

* legitimate splits: CPU time of ``split_text`` over the whole file with the default, GPT-2 and GPT-4
  patterns (best of ``--repeat``), per character, against the budget the lab gives that text
  (``PATTERN_TIMEOUT_S + SPLIT_S_PER_CHAR`` a character): the margin is budget / cost. Also two degenerate
  but legitimate texts of the same length (one emoji repeated, spaces only);
* hostile patterns, each in a fresh process with a CPU-time and address-space limit (``--cpu``, 3 GB):
  CLI ``train`` on 4.4 KB and ``encode`` with a model holding the pattern: exit code, CPU seconds, peak MB.
  With ``--before REV`` the same cases also run with the ``tokenizer`` package of that git revision;
* a search's memory at two speeds: one 1,000,000-character piece that a pattern holds memory for as it passes
  it (16 nested groups), with the split's CPU budget as given and eight times it (what a machine eight times
  faster gets through in the same seconds): CPU seconds and peak MB of the process and its search worker, which
  must be the same at both;
* what the search worker costs a legitimate pattern of the user's own: the corpus split in the worker against
  the same pattern searched in this process, best of ``--repeat``, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lessons
from tokenizer import pretokenize
from tokenizer.pretokenize import DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN, split_text

HOSTILE = {  # name -> (pattern, text added to the corpus and encoded)
    "recursive (?R)?a|\\S": (r"(?R)?a|\S", "chai pani"),
    "~1 s a piece": (r"(?:[\s\S]*[\s\S]*[\s\S]{0,6}\d{7})?\S+|\s+", None),
    "(a+)+$": (r"(a+)+$", "a" * 3000 + "b"),
    "(\\w+\\s?)+$": (r"(\w+\s?)+$", "a " * 3000 + "!"),
    "(a|aa)+$": (r"(a|aa)+$", "a" * 40 + "b"),
    "fuzzy {e<=8}": (r"(?b)(?:qzqzqzqzqzqzqzqzqz){e<=8}|\S+", None),
    "a{4294967294}": (r"a{4294967294}|\S+", "chai pani"),
    "(a{1000}){1000}": (r"(a{1000}){1000}|\S+", "chai pani"),
    "62 x (?:a{100}){100}": ("|".join([r"(?:a{100}){100}"] * 62), "chai pani"),
}


def legit(text: str, repeat: int) -> None:
    print(f"Legitimate splits of {len(text):,} characters "
          f"(budget {pretokenize.PATTERN_TIMEOUT_S:g} s + {pretokenize.SPLIT_S_PER_CHAR * 1e6:g} µs a character "
          f"= {pretokenize.PATTERN_TIMEOUT_S + pretokenize.SPLIT_S_PER_CHAR * len(text):.1f} s):")
    n = len(text)
    texts = {"the corpus": text, "one emoji repeated": "🙂" * n, "spaces only": " " * n}
    for what, sample in texts.items():
        for name, pattern in (("default", DEFAULT_PATTERN), ("GPT-2", GPT2_PATTERN), ("GPT-4", GPT4_PATTERN)):
            best = float("inf")
            for _ in range(repeat):
                start = time.thread_time()
                pieces = split_text(sample, "regex", pattern)
                best = min(best, time.thread_time() - start)
            per_char = best / len(sample)
            print(f"  {what:<19} {name:<8} {best:6.3f} s CPU  {per_char * 1e6:5.2f} µs/char  {len(pieces):>9,} pieces  "
                  f"margin {pretokenize.SPLIT_S_PER_CHAR / per_char:5.1f}x a character")


USER_PATTERN = r"\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+|\s+"
"""A pattern of the user's own (not one of the lab's), as fast as the lab's: what the worker adds is its cost."""


def worker_cost(text: str, repeat: int) -> None:
    from tokenizer.pretokenize import split_in_worker

    compiled = pretokenize.compile_pattern(USER_PATTERN)
    split_in_worker(["warm"], USER_PATTERN, pretokenize.SplitBudget())  # the worker's start is not the split
    here = there = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        with pretokenize.SplitBudget() as budget:
            pieces = pretokenize._split_regex(text, compiled, USER_PATTERN, budget)
        here = min(here, time.perf_counter() - start)
        start = time.perf_counter()
        assert split_in_worker([text], USER_PATTERN, pretokenize.SplitBudget())[0] == pieces
        there = min(there, time.perf_counter() - start)
    print(f"A user's pattern {USER_PATTERN!r} on {len(text):,} characters ({len(pieces):,} pieces), wall time:")
    print(f"  in this process {here:6.3f} s   in the search worker {there:6.3f} s   ratio {there / here:4.2f}x")


LONG_PIECE = r"\s|b|(?:" + "(" * 16 + "a" + ")" * 16 + ")*"
SPEED_CASE = """
import json, sys
from tokenizer import pretokenize, train
pretokenize.PATTERN_TIMEOUT_S *= float(sys.argv[1])
pretokenize.SPLIT_S_PER_CHAR *= float(sys.argv[1])
try:
    train("b " * 500_000 + "a" * 1_000_000, 10, pattern=sys.argv[2])
except ValueError as exc:
    print(type(exc).__name__, file=sys.stderr)
"""


def two_speeds(cpu: int) -> None:
    from tokenizer.searcher import SEARCH_MEMORY_MB

    print(f"A search's memory at two speeds (train on 2,000,000 characters, one piece of 1,000,000 that the pattern "
          f"holds memory for; the cap {SEARCH_MEMORY_MB} MB):")
    with tempfile.TemporaryDirectory() as tmp:
        for faster in (1, 8):
            code, last, cpu_s, peak = run_limited([sys.executable, "-c", SPEED_CASE, str(faster), LONG_PIECE],
                                                  Path(tmp), ROOT, cpu)
            print(f"  budget x{faster:<2} (a machine {faster}x as fast)  {cpu_s:6.2f} s CPU  {peak:6.0f} MB at peak "
                  f"(the process or its worker)  exit {code}: {last}")


def _limits(cpu: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))


def run_limited(args: list[str], cwd: Path, pythonpath: Path, cpu: int) -> tuple[int, str, float, float]:
    env = {"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                env=env, preexec_fn=lambda: _limits(cpu))
        _, status, usage = os.wait4(proc.pid, 0)
        err.seek(0)
        last = (err.read().decode("utf-8", "replace").strip().splitlines() or [""])[-1]
        return os.waitstatus_to_exitcode(status), last, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def hostile(code: Path, label: str, cpu: int) -> None:
    corpus = lessons.presets()["english-hindi-fair"].corpus
    print(f"Hostile patterns, {label} (a fresh process each, {cpu} s CPU limit, 3 GB address space):")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, (pattern, extra) in HOSTILE.items():
            text = (corpus * 2)[:4400] + ("" if extra is None else " " + extra)
            (work / "c.txt").write_text(text, encoding="utf-8")
            config = {"unit": "bytes", "split": "regex", "pattern": pattern, "end_of_word": None, "ties": "first"}
            (work / "m.json").write_text(json.dumps({"format": "tokenization-lab/bpe", "version": 1,
                                                     "config": config, "merges": []}))
            for command in (["train", "c.txt", "--merges", "10", "--pattern", pattern, "-o", "out.json"],
                            ["encode", "m.json", text]):
                exit_code, last, cpu_s, peak = run_limited([sys.executable, "-m", "tokenizer", *command], work, code, cpu)
                outcome = "killed at the CPU limit" if exit_code < 0 else f"exit {exit_code}"
                print(f"  {name:<20} {command[0]:<7} {cpu_s:6.2f} s CPU  {peak:6.0f} MB  {outcome}: {last[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="a UTF-8 text file, e.g. ../shared/bench/corpus_1mb.txt")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=60, help="CPU-second limit of each hostile process")
    parser.add_argument("--before", help="also run the hostile cases with the tokenizer package of this git revision")
    parser.add_argument("--no-legit", action="store_true", help="only the hostile cases")
    args = parser.parse_args()
    if not args.no_legit:
        legit(args.corpus.read_text(encoding="utf-8"), args.repeat)
        worker_cost(args.corpus.read_text(encoding="utf-8"), args.repeat)
    two_speeds(args.cpu)
    hostile(ROOT, "this code", args.cpu)
    if args.before:
        with tempfile.TemporaryDirectory() as old:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before, "tokenizer"],
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
            hostile(Path(old), f"the code of {args.before}", args.cpu)


if __name__ == "__main__":
    main()
