"""The Tokenization Lab's command line: train a model from a text file, encode text with it, export it, count
tokens, and estimate what a prompt or a dataset costs.

    python -m tokenizer train CORPUS.txt --merges 100 -o model.json --trace trace.json
    python -m tokenizer encode model.json --json -- "घने कोहरे से"
    python -m tokenizer export model.json -o tokenizer.json
    python -m tokenizer count --tokenizer cl100k_base --tokenizer model.json -- "घने कोहरे से"
    python -m tokenizer count --model GPT-4o --model "Llama 3" --file chats.jsonl --lines
    python -m tokenizer cost --model GPT-4o --output-tokens 150 --requests-per-month 30000 --file chats.jsonl --lines
    python -m tokenizer tree --tokenizer o200k_base -- " school"
    python -m tokenizer encode --tokenizer o200k_base --steps -- "घने"
    python -m tokenizer vocab --tokenizer o200k_base

It is a program above the layers it uses: the engine (:mod:`tokenizer`), the production tokenizers and the models by
name (:mod:`family`) and the estimate (:mod:`analyses.estimate`, shared with the Estimate page); nothing below
imports it. ``python -m tokenizer`` starts it (``tokenizer/__main__.py`` is a program, not a module: nothing imports
it, so the engine package itself imports nothing above it). One module a concern: :mod:`cli.lab` (``train``,
``encode``, ``export``: the lab's own models), :mod:`cli.inside` (``tree``, ``encode --tokenizer``, ``vocab``: inside
a production tokenizer), :mod:`cli.count`, :mod:`cli.cost`, :mod:`cli.inputs` (what those two read and count
with), :mod:`cli.common` (one-line errors, argument types). Every mistake in the input ends with one
line on stderr and exit code 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import cost, count, inside, lab
from .common import Parser, UsageError, printable


def parser() -> Parser:
    """The command line's parser: each command's arguments, and the function that runs it (``args.run``)."""
    top = Parser(prog="python -m tokenizer", description="Train and use the Tokenization Lab's BPE tokenizer.")
    sub = top.add_subparsers(dest="command", required=True, parser_class=Parser)
    lab.add_parsers(sub)  # train, encode
    inside.add_parsers(sub)  # tree, vocab
    count.add_parser(sub)
    cost.add_parser(sub)
    lab.add_export_parser(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command (``argv``: the arguments after the program's name); the exit code (0, or 2 after one line on
    standard error for a mistake in the input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["encode"] and inside.names_a_tokenizer(argv[1:]):  # encode --tokenizer NAME: its own parser
            args = inside.encode_tokenizer_parser().parse_args(argv[1:])
        else:
            args = parser().parse_args(argv)
        args.run(args)
    except UsageError as exc:
        print(printable(f"error: {exc}"), file=sys.stderr)
        return 2
    return 0


__all__ = ["main", "parser"]
