"""Benchmark of ``count`` streaming: ``count --file`` on 200 MB against tiktoken's one call, and ``count -`` on pipes.

Not a test: it prints figures measured in one run (a shared machine's speed drifts, so a speed is given as a
ratio of two timings taken in turns, with the load average before and after).

    python bench/bench_count_stream.py                     # count --file on a 200 MB text (issue 18)
    python bench/bench_count_stream.py --file-mb 50 --repeat 1
    python bench/bench_count_stream.py --pipe              # count - on 1 MB and 150 MB pipes, streamed vs whole
    python bench/bench_count_stream.py --records           # count --lines and cost --field on 5 M short JSONL records

``count --file`` (the default): a ~``--file-mb`` MB UTF-8 text is written from the bench corpus (Hindi and
English, 1 MB) repeated with variation (each copy's lines rotated by a different amount, with a numbered
heading), then, side by side:

* (a) the reference: tiktoken's ``o200k_base`` ``encode_ordinary`` of the whole text in one call, on one
  thread (the text already in memory);
* (b) ``count -t o200k_base --file PATH`` in this process (``cli.main``: reading, decoding, cutting
  and counting on every core that helps), and the same as a subprocess, whose peak resident memory is its
  own ``VmHWM`` (tests/bounded.py: not ``ru_maxrss``, which a forked child inherits from this big process).

It prints MB/s for each, (b)'s speed as a ratio of (a)'s, and the peak memory; (b)'s count must equal (a)'s.

``--records`` (issue 27): a JSONL file of ``--records-n`` (5 M) short records (``{"text":"ok"}``: a word or two of
Hindi and English; about 75 MB) is written, then, taking turns: (a) tiktoken's ``encode_ordinary`` of the whole file
as one text (the reference), (b) ``count -t o200k_base --file`` (the file as one text), (c) ``count -t o200k_base
--lines`` (each record counted, with its statistics) and (d) ``cost -m gpt-4o --field text`` (the same, priced), all in
this process, each with its wall and CPU time; (c) and (d) are given as a ratio of (b)'s time, the issue's bound
being 2x. Their token counts are checked against each other.

``--pipe``: peak memory and CPU of ``count -`` (GPT-4 and GPT-4o) fed a pipe of the corpus repeated, 1 MB and
``--large-mb`` MB, and counting ``--speed-mb`` MB cut into parts against one ``encode`` of the whole text.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cli
from bench.timing import interleaved
from cli.inputs import COUNT_DEFAULT
from family import real
from tests.bounded import run_bounded
from tokenizer.chunked import PART_CHARS, count_parts, cut_text, workers_for

CORPUS = next((folder / "shared" / "bench" / "corpus_1mb.txt" for folder in (ROOT.parent, ROOT.parents[1])
               if (folder / "shared" / "bench" / "corpus_1mb.txt").exists()),
              ROOT.parent / "shared" / "bench" / "corpus_1mb.txt")
"""The 1 MB Hindi/English bench corpus beside the checkout (a worktree's is two folders up)."""


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


def write_varied(path: Path, data: bytes, megabytes: int) -> int:
    """``megabytes`` MB of the corpus repeated with variation into ``path`` (one copy held at a time): copy i has
    its lines rotated by i * 7919 and a numbered heading. Returns the bytes written."""
    lines = data.decode("utf-8").splitlines(keepends=True)
    written = 0
    with open(path, "wb") as out:
        copy = 0
        while written < megabytes * 1_000_000:
            shift = (copy * 7919) % len(lines)
            chunk = (f"Copy {copy + 1}: प्रति {copy + 1}\n" + "".join(lines[shift:] + lines[:shift])).encode("utf-8")
            out.write(chunk)
            written += len(chunk)
            copy += 1
    return written


def count_file_in_process(path: Path) -> int:
    """``count -t o200k_base --file PATH`` through the command line's own function; its token count."""
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        code = cli.main(["count", "-t", "o200k_base", "--file", str(path)])
    if code != 0:
        raise SystemExit(f"count --file failed: {shown.getvalue()}")
    return int(shown.getvalue().splitlines()[1].split()[1])


def with_cpu(run):
    """``run()``'s result and the CPU seconds this process spent on it (every thread): on a shared machine the
    wall time says how much of the cores it got, the CPU time how much work it did."""
    start = time.process_time()
    result = run()
    return result, time.process_time() - start


def file_bench(megabytes: int, repeat: int) -> None:
    data = CORPUS.read_bytes()
    tok = real.load("o200k_base")
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min); "
          f"{len(os.sched_getaffinity(0))} cores; count uses {workers_for([tok])} threads")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.txt"
        size = write_varied(path, data, megabytes)
        mb = size / 1e6
        print(f"{mb:,.1f} MB of the bench corpus repeated with variation ({path.name})")
        # The subprocess first, while this process is small: its own peak, from /proc (VmHWM).
        env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
        start = time.perf_counter()
        child = run_bounded(["-m", "tokenizer", "count", "-t", "o200k_base", "--file", str(path)], env=env,
                            cpu_limit_s=1200, memory_limit=8 * 1024**3)
        child_wall = time.perf_counter() - start
        if child.code != 0:
            raise SystemExit(f"count --file failed: {child.err}")
        child_tokens = int(child.out.splitlines()[1].split()[1])
        text = path.read_text(encoding="utf-8")
        encoding = tok._enc  # the tiktoken Encoding itself: the reference is tiktoken, not the lab's wrapper
        (whole_s, (whole, whole_cpu)), (ours_s, (ours, ours_cpu)) = interleaved(repeat, [
            (lambda: with_cpu(lambda: len(encoding.encode_ordinary(text))), None),
            (lambda: with_cpu(lambda: count_file_in_process(path)), None),
        ])
    assert whole == ours == child_tokens, (whole, ours, child_tokens)
    print(f"  (a) tiktoken o200k_base encode_ordinary, whole text, one call, one thread: "
          f"{whole_s:6.2f} s  {mb / whole_s:6.1f} MB/s   {whole_cpu:.1f} s CPU")
    print(f"  (b) count --file, in this process:                                       "
          f"{ours_s:6.2f} s  {mb / ours_s:6.1f} MB/s   ratio {whole_s / ours_s:.2f}x (a)'s speed; "
          f"{ours_cpu:.1f} s CPU on {workers_for([tok])} threads")
    print(f"  (b) count --file, subprocess (start-up included):                        "
          f"{child_wall:6.2f} s  {mb / child_wall:6.1f} MB/s   ratio {whole_s / child_wall:.2f}x; "
          f"{child.cpu_s:.1f} s CPU; peak {child.peak_mb:,.0f} MB resident")
    print(f"  {whole:,} tokens, equal in all three (best of {repeat}, taken in turns)")
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")


RECORD_WORDS = ["ok", "hi", "no", "yes", "1", "42", "a", "go", "चाय", "हाँ", "?", "pani", "kal", "कब"]


def write_records(path: Path, n: int, seed: int = 27) -> int:
    """``n`` short JSONL records ``{"text":"..."}`` (one or two words), written a batch at a time; the bytes."""
    import random

    rnd = random.Random(seed)
    written = 0
    with open(path, "w", encoding="utf-8") as out:
        for start in range(0, n, 100_000):
            lines = []
            for _ in range(min(100_000, n - start)):
                words = rnd.choice(RECORD_WORDS) if rnd.random() < 0.8 else " ".join(rnd.choices(RECORD_WORDS, k=2))
                lines.append('{"text":"' + words + '"}\n')
            chunk = "".join(lines)
            out.write(chunk)
            written += len(chunk.encode("utf-8"))
    return written


def run_cli_quietly(argv: list[str]) -> str:
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        code = cli.main(argv)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return shown.getvalue()


def records_bench(n: int, repeat: int) -> None:
    tok = real.load("o200k_base")
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min); "
          f"{len(os.sched_getaffinity(0))} cores; count uses {workers_for([tok])} threads")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.jsonl"
        size = write_records(path, n)
        print(f"{n:,} short JSONL records, {size / 1e6:,.1f} MB ({path.name})")
        encoding = tok._enc  # the tiktoken Encoding itself: the reference is tiktoken, not the lab's wrapper

        def whole() -> int:
            return len(encoding.encode_ordinary(path.read_text(encoding="utf-8")))

        jobs = {
            "(a) tiktoken encode_ordinary, the file as one text, one call": whole,
            "(b) count -t o200k_base --file": lambda: run_cli_quietly(["count", "-t", "o200k_base", "--json",
                                                                        "--file", str(path)]),
            "(c) count -t o200k_base --file --lines": lambda: run_cli_quietly(["count", "-t", "o200k_base", "--json",
                                                                                "--lines", "--file", str(path)]),
            "(d) cost -m gpt-4o --file --field text": lambda: run_cli_quietly(["cost", "-m", "gpt-4o", "--json",
                                                                                "--field", "text", "--file", str(path)]),
        }
        timed = interleaved(repeat, [(lambda run=run: with_cpu_wall(run), None) for run in jobs.values()])
    results = {name: result for name, (_, result) in zip(jobs, timed)}
    file_json, lines_json, cost_json = (json.loads(results[name][0]) for name in list(jobs)[1:])
    assert results[list(jobs)[0]][0] == file_json["results"][0]["tokens"]  # the file as one text: tiktoken's count
    assert lines_json["results"][0]["records"] == n and lines_json["problem_count"] == 0
    total = lines_json["results"][0]["tokens"]
    assert abs(cost_json["models"][0]["input_tokens"] * n - total) <= total * 1e-9  # the mean record, priced
    b_best, (_, _, b_cpu) = timed[1]
    for name, (best, (_, _, cpu)) in zip(jobs, timed):
        ratio = "" if name.startswith(("(a)", "(b)")) else f"   {best / b_best:4.2f}x (b)'s time, CPU {cpu / b_cpu:4.2f}x"
        print(f"  {name:<58} {best:6.2f} s   {size / 1e6 / best:6.1f} MB/s   {cpu:6.1f} s CPU{ratio}")
    print(f"  best of {repeat}, taken in turns; (b) counts the file as one text ({file_json['results'][0]['tokens']:,} "
          f"tokens), (c) and (d) each record apart ({lines_json['results'][0]['tokens']:,} tokens in "
          f"{n:,} records)")
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")


def with_cpu_wall(run):
    """``run()``'s result, its wall time and the CPU seconds this process spent on it (every thread)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - start, time.process_time() - cpu


def pipe_bench(args: argparse.Namespace) -> None:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file-mb", type=int, default=200, help="the size of count --file's text")
    parser.add_argument("--pipe", action="store_true", help="measure count - on pipes instead")
    parser.add_argument("--records", action="store_true", help="measure count --lines and cost --field on short "
                        "JSONL records against count --file and tiktoken")
    parser.add_argument("--records-n", type=int, default=5_000_000, help="how many records (--records)")
    parser.add_argument("--large-mb", type=int, default=150)
    parser.add_argument("--speed-mb", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    if args.pipe:
        pipe_bench(args)
    elif args.records:
        records_bench(args.records_n, args.repeat)
    else:
        file_bench(args.file_mb, args.repeat)


if __name__ == "__main__":
    main()
