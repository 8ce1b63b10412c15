"""``python -m lessons check [--json] [--course DIR] [--lang hi]``: validate every lesson file and compute every
exercise's answer, in English and in each translation.
``python -m lessons class start|report|end|purge ...``: a teacher's classes (see :mod:`lessons.classroom.cli`).

Prints a summary line, and each problem on standard error as one ``problem: FILE: field: what`` line; ``--json``
prints ``{"lessons": [{"id", "title"}, ...], "exercises": [{"id", "lesson", "kind", "prompt", "answer"}, ...],
"problems": [...]}`` with each answer as computed. The exit code is 2 when any lesson file or answer has a
problem (the other lessons still load and are listed) and for a usage mistake. ``--course DIR`` checks another
course folder (default: ``$LAB_COURSE_DIR``, else the lab's ``lessons/course``), or one lesson file.

The translations are checked by default: each language whose folder the course folder has (``hi/``, the Hindi
words of the lessons, :mod:`lessons.overlay`) is checked against the English (:func:`lessons.checker.
translation_problems`), and the summary line says how many lessons it translates (``; in hi: 5 of 10 (the others
in English)``; ``--json``: ``"languages": {"hi": [lesson ids]}``). ``--lang hi`` checks that language even when it
has no folder yet (then it translates none).

``lessons/__main__.py`` is the program that runs :func:`main`; this is the module the tests import.
"""

from __future__ import annotations

import sys
from pathlib import Path

from i18n import DEFAULT, LANGUAGES

from .checker import check
from .classroom import cli as class_cli
from .course import Course, course_folder, load_course, translated


def translations(english: Course, folder: Path | None, langs: list[str] | None) -> dict[str, Course]:
    """The course ``english`` (read from ``folder``) in each of ``langs`` (default: each language with its folder in
    the course folder, ``hi/``)."""
    base = (folder or course_folder())
    base = base.parent if base.suffix == ".md" else base
    if langs is None:
        langs = [lang for lang in sorted(LANGUAGES) if lang != DEFAULT and (base / lang).is_dir()]
    return {lang: translated(english, folder, lang) for lang in langs}


def main(argv: list[str] | None = None) -> int:
    parser = class_cli.OneLineParser(prog="python -m lessons", description="Check the lab's lessons; run classes.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=class_cli.OneLineParser)
    c = sub.add_parser("check", help="validate every lesson file and compute every exercise's answer")
    c.add_argument("--json", action="store_true", help="print the lessons and the computed answers as JSON")
    c.add_argument("--course", metavar="DIR", type=Path, default=None,
                   help="the course folder to check, or one lesson file (a class's own questions, FILE.md); "
                        "default: $LAB_COURSE_DIR, else lessons/course")
    c.add_argument("--lang", action="append", choices=sorted(set(LANGUAGES) - {DEFAULT}), default=None,
                   help="check the course's translation into this language beside the English (default: every "
                        "language the course folder has a translation folder for, such as hi/)")
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
    english = load_course(args.course)
    code, out, problems = check(english, args.json, translations(english, args.course, args.lang))
    for problem in problems:  # one line each, whatever a file's text holds
        print("problem: " + " ".join(problem.splitlines()), file=sys.stderr)
    print(out)
    return code
