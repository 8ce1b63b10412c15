"""``python -m lessons check [--json] [--course DIR]``: validate every lesson file and compute every exercise's answer.

Prints a summary line, and each problem on standard error as one ``problem: FILE: field: what`` line; ``--json``
prints ``{"lessons": [{"id", "title"}, ...], "exercises": [{"id", "lesson", "kind", "prompt", "answer"}, ...],
"problems": [...]}`` with each answer as computed. The exit code is 2 when any lesson file or answer has a
problem (the other lessons still load and are listed) and for a usage mistake. ``--course DIR`` checks another
course folder (default: ``$LAB_COURSE_DIR``, else the lab's ``lessons/course``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .checker import check
from .course import load_course


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons", description="Check the lab's lessons.")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="validate every lesson file and compute every exercise's answer")
    c.add_argument("--json", action="store_true", help="print the lessons and the computed answers as JSON")
    c.add_argument("--course", metavar="DIR", type=Path, default=None,
                   help="the course folder to check (default: $LAB_COURSE_DIR, else lessons/course)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    code, out, problems = check(load_course(args.course), args.json)
    for problem in problems:  # one line each, whatever a file's text holds
        print("problem: " + " ".join(problem.splitlines()), file=sys.stderr)
    print(out)
    return code


if __name__ == "__main__":
    sys.exit(main())
