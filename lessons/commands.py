"""``python -m lessons check [--json] [--course DIR]``: validate every lesson file and compute every exercise's answer.
``python -m lessons class start|report|end|purge ...``: a teacher's classes (see :mod:`lessons.classroom.cli`).

Prints a summary line, and each problem on standard error as one ``problem: FILE: field: what`` line; ``--json``
prints ``{"lessons": [{"id", "title"}, ...], "exercises": [{"id", "lesson", "kind", "prompt", "answer"}, ...],
"problems": [...]}`` with each answer as computed. The exit code is 2 when any lesson file or answer has a
problem (the other lessons still load and are listed) and for a usage mistake. ``--course DIR`` checks another
course folder (default: ``$LAB_COURSE_DIR``, else the lab's ``lessons/course``), or one lesson file.

``lessons/__main__.py`` is the program that runs :func:`main`; this is the module the tests import.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .checker import check
from .classroom import cli as class_cli
from .course import load_course


def main(argv: list[str] | None = None) -> int:
    parser = class_cli.OneLineParser(prog="python -m lessons", description="Check the lab's lessons; run classes.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=class_cli.OneLineParser)
    c = sub.add_parser("check", help="validate every lesson file and compute every exercise's answer")
    c.add_argument("--json", action="store_true", help="print the lessons and the computed answers as JSON")
    c.add_argument("--course", metavar="DIR", type=Path, default=None,
                   help="the course folder to check, or one lesson file (a class's own questions, FILE.md); "
                        "default: $LAB_COURSE_DIR, else lessons/course")
    class_cli.add_parser(sub)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help
        return 2 if exc.code else 0
    except class_cli.UsageError as exc:
        print(f"python -m lessons: {exc}", file=sys.stderr)
        return 2
    if args.command == "class":
        return class_cli.run(args)
    code, out, problems = check(load_course(args.course), args.json)
    for problem in problems:  # one line each, whatever a file's text holds
        print("problem: " + " ".join(problem.splitlines()), file=sys.stderr)
    print(out)
    return code
