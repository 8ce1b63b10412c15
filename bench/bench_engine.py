"""Benchmark of the BPE engine against the textbook trainer and Hugging Face.

Not a test: it prints figures side by side, measured in one run, because a
machine's speed drifts from run to run and only ratios taken together mean
much. Byte-level BPE, pre-split regex `` ?\\S+`` throughout.

    python bench/bench_engine.py                      # the 1 MB corpus, 1,000 merges
    python bench/bench_engine.py some.txt --merges 500 --skip-oracle --repeat 5

What it measures:

* training time for N merges: ``tokenizer.train`` (ties "first" and "hf"),
  the readable reference trainer (``tokenizer.reference``, the tests' oracle), and Hugging
  Face ``tokenizers``' ``BpeTrainer``;
* encoding time of the whole corpus: ours with a fresh tokenizer (empty
  per-word cache) and warm (second call), HF the same way, on one thread;
* peak memory of our training and encoding: the ``tracemalloc`` peak (Python
  allocations made during the call) and the growth of ``ru_maxrss`` (the
  process's resident high-water mark) in a fresh child process.

Times are the best of ``--repeat`` runs (the oracle runs once), the
contenders taking turns so that a burst of load on a shared machine hits
them alike.
"""

from __future__ import annotations

import os

# HF tokenizers reads these when it is imported: one thread, so the comparison
# is single core against single core.
os.environ["RAYON_NUM_THREADS"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse
import gc
import json
import platform
import resource
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.timing import best_of, interleaved
from tokenizer import Tokenizer, TrainConfig, train

DEFAULT_CORPUS = (ROOT / ".." / "shared" / "bench" / "corpus_1mb.txt").resolve()
PATTERN = r" ?\S+"
TARGET_TRAIN = 3.0  # ours at most 3x HF's training time
TARGET_ENCODE = 1.5  # ours at most 1.5x HF's encoding time
TARGET_MEMORY_MB = 150.0



# -- Hugging Face ------------------------------------------------------------
def hf_trained(text: str, merges: int):
    from tokenizers import Regex, models, pre_tokenizers, trainers
    from tokenizers import Tokenizer as HFTokenizer

    tok = HFTokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
        special_tokens=[],
    )
    tok.train_from_iterator([text], trainer=trainer)
    return tok


def hf_byte_decoder() -> dict[str, int]:
    """HF's byte-level stand-in character -> the byte it stands for (GPT-2's table)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    out: dict[str, int] = {}
    extra = 0
    for byte in range(256):
        if byte in printable:
            out[chr(byte)] = byte
        else:
            out[chr(256 + extra)] = byte
            extra += 1
    return out


def hf_merges_as_bytes(tok) -> list[tuple[bytes, bytes]]:
    decoder = hf_byte_decoder()
    to_bytes = lambda s: bytes(decoder[ch] for ch in s)  # noqa: E731
    out = []
    for m in json.loads(tok.to_str())["model"]["merges"]:
        a, b = m.split(" ", 1) if isinstance(m, str) else m
        out.append((to_bytes(a), to_bytes(b)))
    return out


def hf_token_bytes(tok, ids: list[int]) -> list[bytes]:
    decoder = hf_byte_decoder()
    texts = {i: t for t, i in tok.get_vocab().items()}
    return [bytes(decoder[ch] for ch in texts[i]) for i in ids]


# -- the textbook reference (the oracle) ----------------------------------------------
def run_reference(text: str, merges: int) -> list[tuple[int, int]]:
    """The readable reference trainer's merges, with the settings timed here."""
    from tokenizer.reference import train_reference

    return train_reference(text, merges, unit="bytes", split="regex", pattern=PATTERN, ties="first").merges


# -- memory ------------------------------------------------------------------
def maxrss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if platform.system() == "Darwin" else rss / 2**10  # bytes on macOS, KiB on Linux


def tracemalloc_peak_mb(run) -> float:
    """Peak of Python allocations made while ``run()`` runs (data made before it is not counted)."""
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def child_memory(what: str, corpus: Path, merges: int, merges_file: str) -> None:
    """Runs in a fresh process: growth of ru_maxrss during one training or encoding.

    Training writes its merges to ``merges_file`` for the encoding child.
    """
    text = corpus.read_text(encoding="utf-8")
    if what == "train":
        before = maxrss_mb()
        trace = train(text, merges)
        after = maxrss_mb()
        with open(merges_file, "w", encoding="utf-8") as fh:
            json.dump(list(trace.tokenizer.merges), fh)
    else:
        with open(merges_file, encoding="utf-8") as fh:
            tok = Tokenizer(TrainConfig(pattern=PATTERN), [tuple(m) for m in json.load(fh)])
        before = maxrss_mb()
        tok.encode(text)
        after = maxrss_mb()
    print(json.dumps({"delta_mb": after - before, "before_mb": before}))


def run_child(what: str, corpus: Path, merges: int, merges_file: str) -> dict | None:
    cmd = [sys.executable, __file__, str(corpus), "--merges", str(merges), "--_child", what, "--_merges-file", merges_file]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- report ------------------------------------------------------------------
def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def header(title: str, unit: str, ratio: str, target: str) -> None:
    print(f"{title:<46} {unit:>12} {ratio:>10}   target: {target}")


def row(name: str, value: str, ratio: str = "", note: str = "") -> None:
    print(f"  {name:<44} {value:>12} {ratio:>10}   {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS), help="UTF-8 text file (default: %(default)s)")
    parser.add_argument("--merges", type=int, default=1000, help="merges to learn (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing, best kept (default: %(default)s)")
    parser.add_argument("--skip-oracle", action="store_true", help="do not run the textbook oracle (about a minute on 1 MB)")
    parser.add_argument("--_child", choices=("train", "encode"), help=argparse.SUPPRESS)
    parser.add_argument("--_merges-file", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    corpus = Path(args.corpus)
    if not corpus.is_file():
        parser.error(f"no corpus file at {corpus}")
    if args._child:
        child_memory(args._child, corpus, args.merges, args._merges_file)
        return 0

    # The memory children run first, while this process is still small: on Linux
    # a child inherits its parent's ru_maxrss across fork and exec.
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        merges_file = fh.name
    try:
        rss_train = run_child("train", corpus, args.merges, merges_file)
        rss_encode = run_child("encode", corpus, args.merges, merges_file) if rss_train else None
    finally:
        os.unlink(merges_file)

    text = corpus.read_text(encoding="utf-8")
    n = args.merges
    import tokenizers

    print(f"corpus  {corpus}  ({len(text.encode('utf-8')):,} bytes, {len(text):,} characters)")
    print(
        f"setup   byte-level BPE, pre-split `{PATTERN}`, {n:,} merges; best of {args.repeat} runs, taken in turns; "
        f"Python {platform.python_version()}, tokenizers {tokenizers.__version__} on 1 thread"
    )
    print()

    # -- (a) training ---------------------------------------------------------
    (t_first, trace_first), (t_hf_rule, trace_hf), (t_hf, hf_tok) = interleaved(
        args.repeat,
        [(lambda: train(text, n), None), (lambda: train(text, n, ties="hf"), None), (lambda: hf_trained(text, n), None)],
    )

    oracle_time = oracle_note = None
    oracle_agrees = None
    if args.skip_oracle:
        oracle_note = "skipped (--skip-oracle)"
    else:
        name = "tokenizer.reference.train_reference"
        oracle_time, pairs = best_of(1, lambda: run_reference(text, n))
        oracle_note = name
        oracle_agrees = pairs == [s.pair for s in trace_first.steps]

    header(f"(a) training, {n:,} merges", "time (s)", "vs HF", f"at most {TARGET_TRAIN:g}x HF")
    row("ours, ties='first' (default)", f"{t_first:.3f}", f"{t_first / t_hf:.2f}x", verdict(t_first <= TARGET_TRAIN * t_hf))
    row("ours, ties='hf'", f"{t_hf_rule:.3f}", f"{t_hf_rule / t_hf:.2f}x", verdict(t_hf_rule <= TARGET_TRAIN * t_hf))
    if oracle_time is not None:
        agree = {True: "merges = ours", False: "merges DIFFER from ours", None: "merges not compared"}[oracle_agrees]
        row("textbook oracle, 1 run", f"{oracle_time:.3f}", f"{oracle_time / t_hf:.1f}x", f"{oracle_note}: {agree}")
    else:
        row("textbook oracle", "-", "", oracle_note)
    row("HF tokenizers BpeTrainer", f"{t_hf:.3f}", "1.00x")
    if oracle_time is not None:
        print(f"  ours (first) is {oracle_time / t_first:.0f}x faster than recounting every pair after every merge")
    print()

    # Do the hf tie rule's merges match HF's? (Same rule, so they should.)
    ours_merges = [(trace_hf.tokenizer.token_bytes(a), trace_hf.tokenizer.token_bytes(b)) for a, b in trace_hf.tokenizer.merges]
    theirs = hf_merges_as_bytes(hf_tok)
    diff = next((k for k, (m, h) in enumerate(zip(ours_merges, theirs)) if m != h), None)
    if diff is None and len(ours_merges) == len(theirs):
        print(f"    merges, ours ties='hf' vs HF: all {len(theirs):,} identical")
    elif diff is None:
        print(f"    merges, ours ties='hf' vs HF: same first {min(len(ours_merges), len(theirs)):,}, lengths {len(ours_merges)} vs {len(theirs)}")
    else:
        report_merge_difference(trace_hf, diff, theirs[diff])
    print()

    # -- (b) encoding ---------------------------------------------------------
    ours = trace_first.tokenizer
    from tokenizers import Tokenizer as HFTokenizer

    fresh = lambda: Tokenizer(ours.config, ours.merges)  # noqa: E731 - a new tokenizer: its word cache starts empty
    hf_json = hf_tok.to_str()
    hf_fresh = lambda: HFTokenizer.from_str(hf_json)  # noqa: E731
    warm_tok, hf_warm_tok = fresh(), hf_fresh()
    warm_tok.encode(text)
    hf_warm_tok.encode(text)
    encode = lambda tok: tok.encode(text)  # noqa: E731
    (t_cold, ids), (t_hf_cold, hf_enc), (t_warm, _), (t_hf_warm, _) = interleaved(
        args.repeat,
        [(encode, fresh), (encode, hf_fresh), (lambda: warm_tok.encode(text), None), (lambda: hf_warm_tok.encode(text), None)],
    )

    header("(b) encoding the corpus", "time (s)", "vs HF", f"at most {TARGET_ENCODE:g}x HF")
    row(f"ours, fresh tokenizer ({len(ids):,} tokens)", f"{t_cold:.3f}", f"{t_cold / t_hf_cold:.2f}x", verdict(t_cold <= TARGET_ENCODE * t_hf_cold))
    row("ours, warm (second call, cache full)", f"{t_warm:.3f}", f"{t_warm / t_hf_warm:.2f}x", verdict(t_warm <= TARGET_ENCODE * t_hf_warm))
    row(f"HF, fresh tokenizer ({len(hf_enc.ids):,} tokens)", f"{t_hf_cold:.3f}", "1.00x")
    row("HF, warm (second call)", f"{t_hf_warm:.3f}", "1.00x")
    ours_hf_ids = trace_hf.tokenizer.encode(text)
    same_count = len(ours_hf_ids) == len(hf_enc.ids)
    same_tokens = same_count and [trace_hf.tokenizer.token_bytes(i) for i in ours_hf_ids] == hf_token_bytes(hf_tok, hf_enc.ids)
    print(
        f"    token count, ours ties='hf' vs HF: {len(ours_hf_ids):,} vs {len(hf_enc.ids):,}: "
        f"{'agree' if same_count else 'DIFFER'}"
        f"{' (and every token has the same bytes)' if same_tokens else ''}"
    )
    print()

    # -- (c) memory -----------------------------------------------------------
    peak_train = tracemalloc_peak_mb(lambda: train(text, n))
    peak_encode = tracemalloc_peak_mb(lambda: fresh().encode(text))

    header("(c) peak memory, ours", "MB", "", f"under {TARGET_MEMORY_MB:g} MB")
    row("training, tracemalloc peak", f"{peak_train:.1f}", "", verdict(peak_train < TARGET_MEMORY_MB))
    if rss_train:
        row("training, ru_maxrss growth (fresh process)", f"{rss_train['delta_mb']:.1f}", "", verdict(rss_train["delta_mb"] < TARGET_MEMORY_MB))
    row("encoding (fresh tokenizer), tracemalloc peak", f"{peak_encode:.1f}", "", verdict(peak_encode < TARGET_MEMORY_MB))
    if rss_encode:
        row("encoding, ru_maxrss growth (fresh process)", f"{rss_encode['delta_mb']:.1f}", "", verdict(rss_encode["delta_mb"] < TARGET_MEMORY_MB))
    base = rss_train["before_mb"] if rss_train else float("nan")
    print(
        "    tracemalloc: Python allocations made during the call (the corpus string itself excluded).\n"
        "    ru_maxrss growth: rise of the resident-set high-water mark during the call, in a fresh child\n"
        f"    process that had already read the corpus (resident then: {base:.0f} MB); includes allocator slack."
    )
    print()

    worst_train = max(t_first, t_hf_rule) / t_hf
    worst_encode = max(t_cold / t_hf_cold, t_warm / t_hf_warm)
    memory = [peak_train, peak_encode] + [r["delta_mb"] for r in (rss_train, rss_encode) if r]
    print("targets")
    row(f"training at most {TARGET_TRAIN:g}x HF's time", f"{worst_train:.2f}x", "", verdict(worst_train <= TARGET_TRAIN) + " (slower tie rule)")
    row(f"encoding at most {TARGET_ENCODE:g}x HF's time", f"{worst_encode:.2f}x", "", verdict(worst_encode <= TARGET_ENCODE) + " (fresh and warm, the worse)")
    row(f"peak memory under {TARGET_MEMORY_MB:g} MB", f"{max(memory):.1f} MB", "", verdict(max(memory) < TARGET_MEMORY_MB) + " (the largest figure)")
    return 0


def report_merge_difference(trace, k: int, theirs: tuple[bytes, bytes]) -> None:
    """Print the first step where ours (ties='hf') and HF learned different merges."""
    from tokenizer import bytes_label

    tok = trace.tokenizer
    step = trace.steps[k]
    # Up to step k both sides merged the same pairs, so they see the same counts.
    their_count = next(
        (pc.count for pc in step.table + step.ties if (tok.token_bytes(pc.pair[0]), tok.token_bytes(pc.pair[1])) == theirs),
        None,
    )
    if their_count is None:  # not in the stored top of the table: count it on the segmentation
        their_count = 0
        for split in trace.segmentation(k):
            chunks = [tok.token_bytes(i) for i in split.ids]
            their_count += split.count * sum(1 for x, y in zip(chunks, chunks[1:]) if (x, y) == theirs)
    print(f"    merges, ours ties='hf' vs HF: first difference at step {step.step}:")
    print(f"      ours: ({step.left!r}, {step.right!r}) count {step.count}, {step.n_tied} pair(s) tied at that count")
    print(f"      HF:   ({bytes_label(theirs[0])!r}, {bytes_label(theirs[1])!r}) count {their_count} (in the same state)")


if __name__ == "__main__":
    sys.exit(main())
