"""What model files cost, and the figures the limits in tokenizer/io.py were chosen from.

    .venv/bin/python bench/bench_model_bounds.py              # hostile models now, and the figures of lab models
    .venv/bin/python bench/bench_model_bounds.py --real       # also the figures of the real tokenizers (slow)
    .venv/bin/python bench/bench_model_bounds.py --before DIR # also the same commands run by an older copy of the lab
    .venv/bin/python bench/bench_model_bounds.py --served     # memory of a page process after 5 hostile uploads

Each command runs in its own process with hard limits (4 GB address space, 60 s CPU), and reports the CPU time
and the peak memory (ru_maxrss) of that process; a run killed by a limit is reported as such. The hostile models
are the generators of tests/test_model_bounds.py (one copy of them).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import test_model_bounds as cases
from tokenizer import io as model_io

CPU_S = 60
MEMORY = 4 * 1024**3
COMMANDS = {
    "encode": lambda m: ["encode", m, "chai"],
    "export": lambda m: ["export", m, "-o", "out.json"],
}


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_S, CPU_S))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(args: list[str], root: Path, cwd: str) -> tuple[str, float, float]:
    """(outcome, CPU seconds, peak MB) of ``python ARGS`` run with ``root`` on the path."""
    pid = os.fork()
    if pid == 0:  # the child: limits, then the command
        try:
            _limits()
            os.chdir(cwd)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            err = os.open(os.path.join(cwd, "err.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(err, 2)
            os.execve(sys.executable, [sys.executable, *args],
                      {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    err = Path(cwd, "err.txt").read_text(errors="replace").strip().splitlines()
    if os.WIFSIGNALED(status):
        outcome = f"killed by signal {os.WTERMSIG(status)} (CPU limit)"
    else:
        last = err[-1] if err else ""
        code = os.WEXITSTATUS(status)
        outcome = f"exit {code}" + (": " + last[:110] if last else "")
        if "MemoryError" in last or "Traceback" in " ".join(err):
            outcome = f"exit {code}, traceback: {last[:80]}"
    return outcome, cpu, usage.ru_maxrss / 1024


def hostile(before: Path | None) -> None:
    print("## Hostile models: CLI, each in its own process (4 GB, 60 s CPU limits)\n")
    print("| model | file | command | code | CPU s | peak MB | outcome |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (make, _) in cases.HOSTILE.items():
            path = Path(tmp, f"{name}.json")
            path.write_bytes(make())
            size = path.stat().st_size
            shown = f"{size / 1e6:.1f} MB" if size > 1e6 else f"{size / 1e3:.0f} KB"
            for command, argv in COMMANDS.items():
                for label, root in (("before", before), ("now", ROOT)):
                    if root is None:
                        continue
                    outcome, cpu, peak = run(["-m", "tokenizer", *argv(str(path))], root, tmp)
                    print(f"| {name} | {shown} | {command} | {label} | {cpu:.2f} | {peak:.0f} | {outcome} |", flush=True)


def figures(real: bool) -> None:
    from tokenizer import train

    print(f"\n## Figures of models that must load (limits: token {model_io.MAX_TOKEN_BYTES:,} bytes, depth {model_io.MAX_MERGE_DEPTH}, all tokens {model_io.MAX_VOCAB_BYTES:,} bytes, "
          f"{model_io.MAX_MODEL_MERGES:,} merges, {model_io.MAX_BASE_SYMBOLS:,} base symbols)\n")
    print("| model | merges | base | longest token (bytes) | depth | all tokens (bytes) |")
    print("|---|---|---|---|---|---|")

    def row(name, f):
        print(f"| {name} | {f.merges:,} | {f.base:,} | {f.longest_token:,} | {f.depth} | {f.vocab_bytes:,} |", flush=True)

    corpus = Path("/work/shared/bench/corpus_1mb.txt")
    for path in sorted(Path(os.environ.get("MODELS_DIR", "/nonexistent")).glob("*.json")):
        row(path.name, model_io.figures_of(model_io.load(path)))
    if corpus.exists():
        text = corpus.read_text(encoding="utf-8")
        for unit in ("bytes", "chars"):
            tok = train(text, 1_000, unit=unit, max_ties=0, table_size=0).tokenizer
            row(f"1 MB bench corpus, {unit}, 1,000 merges", model_io.figures_of(tok))
    emoji = train("😀" * 250_000, 40, unit="chars", max_ties=0, table_size=0).tokenizer
    row("1 MB of one emoji, chars, to the end", model_io.figures_of(emoji))
    if real:
        for name in ("cl100k_base", "o200k_base"):
            row(name, real_figures(name))


def real_figures(name: str) -> model_io.ModelFigures:
    """A tiktoken vocabulary's figures: each token's merge is found by encoding it with the ranks below its own."""
    from family import real

    ranks = real.load(name)._enc._mergeable_ranks
    depth: dict[bytes, int] = {}
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        parts = [bytes([b]) for b in token]
        while len(parts) > 2:
            best = min((ranks.get(parts[i] + parts[i + 1], 1 << 62), i) for i in range(len(parts) - 1))
            if best[0] >= rank:
                break
            parts[best[1] : best[1] + 2] = [parts[best[1]] + parts[best[1] + 1]]
        depth[token] = 0 if len(token) == 1 else 1 + max(depth.get(p, 0) for p in parts)
    return model_io.ModelFigures(len(ranks) - 256, 256, max(map(len, ranks)), max(depth.values()),
                                 sum(map(len, ranks)))


def served() -> None:
    done = subprocess.run([sys.executable, "-c", cases.SERVED], cwd=ROOT, capture_output=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, preexec_fn=_limits)
    report = json.loads(done.stdout.decode().strip().splitlines()[-1])
    print("\n## A Tokenize page process (AppTest), 5 hostile uploads\n")
    print(f"warm {report['warm_mb']:.0f} MB, after {report['after_mb']:.0f} MB, peak {report['peak_mb']:.0f} MB, "
          f"{report['cpu_s']:.1f} s CPU for the five; messages: {len(report['messages'])} refusals")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, help="the root of an older copy of the lab (git archive of a commit)")
    parser.add_argument("--real", action="store_true")
    parser.add_argument("--served", action="store_true")
    parser.add_argument("--no-hostile", action="store_true")
    parser.add_argument("--no-figures", action="store_true")
    args = parser.parse_args()
    if not args.no_hostile:
        hostile(args.before)
    if not args.no_figures:
        figures(args.real)
    if args.served:
        served()


if __name__ == "__main__":
    main()
