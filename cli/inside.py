"""Inside a production tokenizer, on the command line (issue 26): ``tree`` (each token's merges, recovered from the
ranks, or one token by ``--id``), ``encode --tokenizer NAME [--steps]`` (its pre-split pieces and every merge BPE
applies, the ids equal to the library's) and ``vocab`` (its whole vocabulary read by script). Thin wiring: what they
compute is :mod:`family.merges` and :mod:`analyses.vocab`'s.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from family import merges, real
from family.merges import MAX_REPLAY_CHARS, MAX_TREE_CHARS

from .common import Parser, UsageError, check_text, number, read_stdin_whole
from .inputs import count_tokenizer
from .lab import ENCODE_MAX_BYTES


def add_parsers(sub) -> None:
    r = sub.add_parser("tree", help="each token's merge tree in a production tokenizer (its merges, from its ranks)")
    r.add_argument("text", nargs="?", help=f"the text whose tokens to describe (at most {MAX_TREE_CHARS:,} characters), or -")
    r.add_argument("--tokenizer", "-t", required=True, metavar="NAME", help=f"one of {', '.join(real.NAMES)}")
    r.add_argument("--id", type=number("--id", int), metavar="N", help="one token by its id instead of a text")
    r.add_argument("--json", action="store_true", help='print {"tokens": [{"id", "bytes", "rank", "merges": '
                   '[{"left", "right", "result", "rank"}]}]}, bytes in hex')
    r.set_defaults(run=tree_command)

    v = sub.add_parser("vocab", help="a production tokenizer's whole vocabulary read by script")
    v.add_argument("--tokenizer", "-t", required=True, metavar="NAME", help=f"one of {', '.join(real.NAMES)}")
    v.add_argument("--json", action="store_true", help="every figure of the vocabulary page, as JSON")
    v.set_defaults(run=vocab_command)


def encode_tokenizer_parser() -> argparse.ArgumentParser:
    """``encode --tokenizer NAME [--steps] [--json] TEXT``: a production tokenizer instead of a model file (its own
    parser: argparse cannot take an optional first positional before ``--`` TEXT)."""
    p = Parser(prog="python -m tokenizer encode --tokenizer NAME",
               description="Encode with a production tokenizer; --steps replays its merges one by one.")
    p.add_argument("--tokenizer", "-t", required=True, metavar="NAME", help=f"one of {', '.join(real.NAMES)}")
    p.add_argument("text", help="the text to encode, or - to read standard input (at most 1 MB; put -- before text "
                   "that starts with '-')")
    p.add_argument("--steps", action="store_true", help="the pre-split pieces and every merge BPE applies, in order "
                   f"(at most {MAX_REPLAY_CHARS:,} characters)")
    p.add_argument("--json", action="store_true", help='print {"ids", "count"} (--steps: {"pieces", "steps": '
                   '[{"piece", "left", "right", "result", "rank"}], "ids"}, bytes in hex)')
    p.set_defaults(run=encode_steps_command)
    return p


def names_a_tokenizer(args: Sequence[str]) -> bool:
    """Whether ``encode``'s arguments (before any ``--``) give --tokenizer / -t."""
    for arg in args:
        if arg == "--":
            return False
        if arg in ("--tokenizer", "-t") or arg.startswith(("--tokenizer=", "-t")) and arg != "-":
            return True
    return False


def _real(name: str):
    """A production tokenizer by its registry name (``tree``, ``vocab``, ``encode -t``)."""
    if name not in real.NAMES:
        raise UsageError(f"unknown tokenizer {name!r}: use one of {', '.join(real.NAMES)}")
    return count_tokenizer(name)


def _text_argument(text: str | None, what: str) -> str:
    if text is None:
        raise UsageError(f"give {what}, or - to read standard input")
    check_text(text)
    if text == "-":
        return read_stdin_whole(ENCODE_MAX_BYTES, "give a shorter text", "the most these commands read")
    return text


def encode_steps_command(args: argparse.Namespace) -> None:
    tok = _real(args.tokenizer)
    text = _text_argument(args.text, "the text to encode")
    try:
        replay = merges.inside(tok).replay(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(replay.to_json() if args.steps else {"ids": replay.ids, "count": len(replay.ids)},
                         ensure_ascii=False))
    else:
        print("\n".join(merges.replay_lines(replay) if args.steps else ["ids: " + " ".join(map(str, replay.ids))]))


def tree_command(args: argparse.Namespace) -> None:
    tok = _real(args.tokenizer)
    text = None if args.id is not None and args.text is None else _text_argument(args.text, "a text or --id N")
    try:
        report = merges.tree_report(tok, text, args.id)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(json.dumps(report, ensure_ascii=False) if args.json else "\n".join(merges.tree_lines(report)))


def vocab_command(args: argparse.Namespace) -> None:
    from analyses import vocab  # numpy: only for this command

    found = vocab.vocabulary(_real(args.tokenizer))
    print(json.dumps(found.to_json(), ensure_ascii=False) if args.json else "\n".join(vocab.text_lines(found)))


__all__ = ["add_parsers", "encode_steps_command", "encode_tokenizer_parser", "names_a_tokenizer", "tree_command",
           "vocab_command"]
