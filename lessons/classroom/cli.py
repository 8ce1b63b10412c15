"""``python -m lessons class ...``: a teacher's classes from the command line, before and after the lesson.

- ``class start --title TEXT [--expires DAYS] [--json]``: start a class; print its code, the learner link and
  the teacher link (paths to add to the lab's address: ``/Class?code=ABC234`` and
  ``/Class?code=ABC234&teacher=SECRET``, the parameters the Class page reads) and when it expires.
- ``class report CODE [--csv|--answers|--json]``: the teacher's report: per-question tallies and per-learner
  scores (``--csv``: the gradebook, one row per learner; ``--answers``: who answered what, one row per learner,
  question and round, with their first and final answer; ``--json``: all of it).
- ``class end CODE``: close the class and delete the learners' names (their answers stay, without names, for the
  report until it expires).
- ``class purge``: delete the expired classes with their learners' names and answers.

Each takes ``--database URL`` (default: ``$LAB_DATABASE_URL``, else ``$LAB_DATA_DIR/classes.sqlite3``). The
command line is the teacher's own machine: it reads the database directly, so it needs no teacher secret
(whoever can read the database file or log in to PostgreSQL can read the classes anyway). A mistake (an
unknown code, a bad URL, a bad number of days) exits with code 2 and one line on standard error.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from urllib.parse import urlencode

from . import report
from .db import open_database
from .errors import ClassError, ClassUnavailable, DatabaseUnavailable
from .models import Started
from .store import Classes

PAGE = "/Class"
"""The Class page's path: the learner and teacher links point there, with ``code`` and ``teacher``."""


class UsageError(Exception):
    """A mistake in the command: one line on standard error, exit code 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a mistake in one line (no usage block), as :class:`UsageError`."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see: {self.prog} --help)")


def _days(value: str) -> int:
    if not re.fullmatch(r"[0-9]{1,3}", value) or not 1 <= int(value) <= 365:
        raise argparse.ArgumentTypeError(f"a class lasts a whole number of days from 1 to 365, not {value[:20]!r}")
    return int(value)


def links(code: str, secret: str | None = None) -> str:
    """The learner link of a class (with ``secret``: the teacher link), relative to the lab's address."""
    return f"{PAGE}?{urlencode({'code': code, **({'teacher': secret} if secret else {})})}"


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``class`` and its commands to the ``python -m lessons`` parser's subcommands."""
    database = OneLineParser(add_help=False)
    database.add_argument("--database", metavar="URL", default=None,
                          help="postgresql://... or sqlite:///FILE (default: $LAB_DATABASE_URL, "
                               "else $LAB_DATA_DIR/classes.sqlite3)")
    group = sub.add_parser("class", help="start a class, report on it, end it, purge expired ones",
                           description="A teacher's classes, from the teacher's own machine: these commands read "
                                       "the class database directly, so they need no teacher secret.")
    commands = group.add_subparsers(dest="class_command", required=True, parser_class=OneLineParser)
    start = commands.add_parser("start", parents=[database], help="start a class: its code and links")
    start.add_argument("--title", required=True, help="the class's title (at most 80 characters)")
    start.add_argument("--expires", metavar="DAYS", type=_days, default=30,
                       help="days until the class and its learners' names are deleted (1 to 365, default 30)")
    start.add_argument("--json", action="store_true", help='print {"code", "learner_url", "teacher_url", "expires"}')
    rep = commands.add_parser("report", parents=[database], help="per-question tallies and per-learner scores")
    rep.add_argument("code", help="the class code")
    how = rep.add_mutually_exclusive_group()
    how.add_argument("--csv", action="store_true", help="the gradebook as CSV: one row per learner")
    how.add_argument("--answers", action="store_true",
                     help="who answered what, as CSV: one row per learner, question and round (first and final answer)")
    how.add_argument("--json", action="store_true", help="the whole report as JSON (every learner's answers too)")
    end = commands.add_parser("end", parents=[database], help="close a class and delete its learners' names (answers kept, without names, until it expires)")
    end.add_argument("code", help="the class code")
    commands.add_parser("purge", parents=[database], help="delete expired classes, their names and answers")


def run(args: argparse.Namespace) -> int:
    """Run a ``class`` command; its exit code (2 and one line on standard error for a mistake)."""
    logging.getLogger("lab.classes").disabled = True  # a database's fault is the one line printed below
    try:
        with open_database(args.database) as db:
            return COMMANDS[args.class_command](Classes(db), args)
    except ClassUnavailable:
        code = getattr(args, "code", "")
        shown = code if re.fullmatch(r"[A-Za-z0-9 \-]{1,20}", code) else repr(code[:20])
        return _fail(f"no class has the code {shown} (a wrong code, or a class that expired and was purged)")
    except DatabaseUnavailable as exc:  # the teacher's own machine: which database, and what is wrong with it
        return _fail(exc.detail)
    except (ClassError, ValueError) as exc:
        return _fail(str(exc))


def _fail(message: str) -> int:
    print("python -m lessons class: " + " ".join(message.split()), file=sys.stderr)
    return 2


def _start(classes: Classes, args: argparse.Namespace) -> int:
    started: Started = classes.start(args.title, expires_days=args.expires)
    out = {"code": started.code, "learner_url": links(started.code),
           "teacher_url": links(started.code, started.teacher_secret), "expires": started.expires.isoformat()}
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"Class {started.code} started; it expires {started.expires:%Y-%m-%d %H:%M} UTC.")
    print(f"Learners' link (project it): {out['learner_url']}")
    print(f"Teacher's link (keep it to yourself): {out['teacher_url']}")
    print("Both are paths: add them to the lab's address, e.g. http://localhost:8501" + out["learner_url"])
    return 0


def _report(classes: Classes, args: argparse.Namespace) -> int:
    board = classes.report(args.code)
    if args.csv:
        sys.stdout.write(report.csv_text(report.gradebook_rows(board)))
    elif args.answers:
        sys.stdout.write(report.csv_text(report.answer_rows(board)))
    elif args.json:
        print(json.dumps(report.as_json(board), ensure_ascii=False, indent=2))
    else:
        print("\n".join(report.as_text(board)))
    return 0


def _end(classes: Classes, args: argparse.Namespace) -> int:
    ended = classes.end(args.code)
    board = classes.report(args.code)
    print(f"Class {board.code} {'ended' if ended else 'was already ended'}: its learners' names are deleted; their "
          f"answers are kept, without names, for the report until {board.expires:%Y-%m-%d %H:%M} UTC, when "
          "`python -m lessons class purge` deletes them.")
    return 0


def _purge(classes: Classes, args: argparse.Namespace) -> int:
    deleted = classes.purge()
    print(f"Deleted {deleted} expired class{'es' if deleted != 1 else ''} with their learners' names and answers.")
    return 0


COMMANDS = {"start": _start, "report": _report, "end": _end, "purge": _purge}
