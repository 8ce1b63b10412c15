"""What the class thinks, for the teacher: poll tallies (no names), and the dashboard of the lab's questions
(per question: who answered, % right at the first try, the commonest wrong answers; per learner: answered,
right). The gradebook's CSV and the report's JSON are made from the dashboard here, for the page and the
command line alike.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .checks import poll_ref
from .db import Tx
from .errors import NoPoll
from .models import Tally, from_epoch

TOP_WRONG = 3


@dataclass(frozen=True)
class QuestionSummary:
    """One of the lab's questions across the class: learners who answered it, how many were right at their
    first try, and the commonest wrong first answers (at most 3, with how many gave each)."""

    question_key: str
    answered: int
    right_first: int
    wrong: list[tuple[str, int]]

    @property
    def percent_right(self) -> float:
        """% right at the first try, to one decimal."""
        return round(100 * self.right_first / self.answered, 1) if self.answered else 0.0


@dataclass(frozen=True)
class LearnerSummary:
    """One learner: questions answered, right at the first try, and each question's first try (right or not)."""

    name: str
    answered: int
    right: int
    first: dict[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class PollSummary:
    """A poll the teacher posed: its question and each round's tally."""

    poll_id: str
    question_id: str
    prompt: str
    truth: str | None
    rounds: list[Tally]


@dataclass(frozen=True)
class Dashboard:
    """The teacher's view of a class."""

    code: str
    title: str
    open: bool
    expires: datetime
    joined: int
    questions: list[QuestionSummary]
    learners: list[LearnerSummary]
    polls: list[PollSummary]


def tally(tx: Tx, code: str, poll_id: Any, round: Any) -> Tally:
    """How the class voted in ``round`` of the poll: each learner's latest vote in the round counts."""
    if poll_ref(poll_id, round) is None:
        raise NoPoll()
    if tx.one("SELECT 1 FROM polls WHERE poll_id = ? AND code = ?", (poll_id, code)) is None:
        raise NoPoll()
    rows = tx.rows("SELECT v.answer, COUNT(*) FROM votes v WHERE v.poll_id = ? AND v.round = ? "
                   "AND v.seq = (SELECT MAX(w.seq) FROM votes w WHERE w.poll_id = v.poll_id "
                   "AND w.round = v.round AND w.learner_id = v.learner_id) GROUP BY v.answer", (poll_id, round))
    joined = tx.one("SELECT COUNT(*) FROM learners WHERE code = ?", (code,))[0]
    counts = dict(sorted(((a, int(n)) for a, n in rows), key=lambda item: (-item[1], item[0])))
    return Tally(round, sum(counts.values()), int(joined), counts)


def build(tx: Tx, code: str) -> Dashboard:
    """The dashboard of an existing class (the caller checked who may see it)."""
    title, expires, closed = tx.one("SELECT title, expires_at, closed_at FROM classes WHERE code = ?", (code,))
    learners = tx.rows("SELECT learner_id, name, seq FROM learners WHERE code = ?", (code,))
    firsts = tx.rows("SELECT learner_id, question_key, guess, is_right FROM answers WHERE code = ? AND attempt = 1",
                     (code,))
    by_question: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    by_learner: dict[str, dict[str, bool]] = defaultdict(dict)
    for learner_id, key, guess, right in firsts:
        by_question[key].append((guess, bool(right)))
        by_learner[learner_id][key] = bool(right)
    questions = []
    for key in sorted(by_question):
        answers = by_question[key]
        wrong = Counter(guess for guess, right in answers if not right)
        top = sorted(wrong.items(), key=lambda item: (-item[1], item[0]))[:TOP_WRONG]
        questions.append(QuestionSummary(key, len(answers), sum(right for _, right in answers), top))
    people = [LearnerSummary(name, len(by_learner[lid]), sum(by_learner[lid].values()), dict(by_learner[lid]))
              for lid, name, _ in sorted(learners, key=lambda row: row[2])]
    polls = []
    for poll_id, question_id, prompt, truth, rounds in _polls(tx, code):
        polls.append(PollSummary(poll_id, question_id, prompt, truth,
                                 [tally(tx, code, poll_id, r) for r in range(1, rounds + 1)]))
    return Dashboard(code, title, closed is None, from_epoch(expires), len(learners), questions,
                     people, polls)


def _polls(tx: Tx, code: str) -> list[tuple[str, str, str, str | None, int]]:
    rows = tx.rows("SELECT poll_id, question_id, question, truth, round, posed_at FROM polls WHERE code = ?", (code,))
    rows.sort(key=lambda row: (row[5], row[0]))
    return [(pid, qid, str(json.loads(q).get("prompt", "")), truth, rnd) for pid, qid, q, truth, rnd, _ in rows]


def gradebook_rows(dashboard: Dashboard) -> list[list[Any]]:
    """The gradebook: a header, then one row per learner (name, answered, right at the first try, and for each
    question "right", "wrong" or "" for not answered)."""
    keys = [q.question_key for q in dashboard.questions]
    rows: list[list[Any]] = [["name", "answered", "right first try", *keys]]
    for learner in dashboard.learners:
        marks = ["" if k not in learner.first else "right" if learner.first[k] else "wrong" for k in keys]
        rows.append([learner.name, learner.answered, learner.right, *marks])
    return rows


def csv_text(rows: list[list[Any]]) -> str:
    """``rows`` as CSV. A text cell that a spreadsheet would run as a formula (it starts with = + - @ or a
    tab) is written with a leading apostrophe, so a name like ``=HYPERLINK(...)`` stays text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([f"'{c}" if isinstance(c, str) and c[:1] in ("=", "+", "-", "@", "\t", "\r") else c
                         for c in row])
    return out.getvalue()


def as_json(dashboard: Dashboard) -> dict:
    """The dashboard as JSON-able data (the command line's ``class report --json``)."""
    return {
        "code": dashboard.code, "title": dashboard.title, "open": dashboard.open,
        "expires": dashboard.expires.isoformat(), "joined": dashboard.joined,
        "questions": [{"question": q.question_key, "answered": q.answered, "right_first_try": q.right_first,
                       "percent_right": q.percent_right, "wrong": [{"answer": a, "count": n} for a, n in q.wrong]}
                      for q in dashboard.questions],
        "learners": [{"name": p.name, "answered": p.answered, "right": p.right} for p in dashboard.learners],
        "polls": [{"question": p.question_id, "prompt": p.prompt, "truth": p.truth,
                   "rounds": [{"round": t.round, "answered": t.answered, "joined": t.joined, "counts": t.counts}
                              for t in p.rounds]} for p in dashboard.polls],
    }


def as_text(dashboard: Dashboard) -> list[str]:
    """The report as lines for a terminal: the class, each question, each learner, each poll's rounds."""
    state = "open" if dashboard.open else "ended"
    lines = [f"Class {dashboard.code}: {dashboard.title} ({state}; kept until {dashboard.expires:%Y-%m-%d %H:%M} "
             f"UTC), {dashboard.joined} joined."]
    lines.append("Questions (first answers):" if dashboard.questions else "No answers yet.")
    for q in dashboard.questions:
        wrong = ", ".join(f"{a!r} x{n}" for a, n in q.wrong)
        lines.append(f"  {q.question_key}: {q.answered} answered, {q.right_first} right at the first try "
                     f"({q.percent_right:g}%)" + (f"; commonest wrong: {wrong}" if wrong else ""))
    if dashboard.learners:
        lines.append("Learners (answered, right at the first try):")
        lines += [f"  {p.name}: {p.answered} answered, {p.right} right" for p in dashboard.learners]
    for poll in dashboard.polls:
        truth = f" (answer: {poll.truth})" if poll.truth is not None else ""
        lines.append(f"Poll {poll.question_id}: {poll.prompt}{truth}")
        for t in poll.rounds:
            counts = ", ".join(f"{a!r} {n}" for a, n in t.counts.items()) or "no votes"
            lines.append(f"  round {t.round}: {t.answered} of {t.joined} answered: {counts}")
    return lines
