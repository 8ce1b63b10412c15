"""``python -m lessons check [--json]``: validate every lesson file and compute every exercise's answer.

Prints a summary line (each problem, one a line, on standard error); ``--json`` prints
``{"lessons": [{"id", "title"}, ...], "exercises": [{"id", "lesson", "kind", "prompt", "answer"}, ...],
"problems": [...]}`` with each answer as computed. The exit code is 1 when any lesson file or answer has a
problem (the other lessons still load and are listed), 2 for a usage mistake.
"""

from __future__ import annotations

import argparse
import sys

from .checker import check
from .course import load_course


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons", description="Check the lab's lessons.")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="validate every lesson file and compute every exercise's answer")
    c.add_argument("--json", action="store_true", help="print the lessons and the computed answers as JSON")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    code, out, problems = check(load_course(), args.json)
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    print(out)
    return code


if __name__ == "__main__":
    sys.exit(main())
