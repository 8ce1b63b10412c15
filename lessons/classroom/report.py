"""What the class thinks, for the teacher: poll tallies (no names), and the dashboard of every question (per
question: who answered, % right at the first try, the commonest wrong answers; per learner: answered, right; per
learner, question and round: what they answered first and last). The gradebook's CSV, the answers' CSV and the
report's JSON are made from the dashboard here, for the page and the command line alike.

Where an answer comes from: a learner's answers table (:meth:`.store.Classes.record_answer` from a page of the
lab, and each voter's first answer to a poll, kept by the teacher's Reveal for the whole class), and the votes of
each poll (every round, every vote). A poll not yet revealed has votes but no verdicts: its answers count as
answered, not yet judged ("answered" in the gradebook, ``null`` in the JSON), until Reveal judges them all.
The tally, the dashboard, the CSVs and the JSON read the same rows: they agree whatever the learners' browsers
do after voting.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from i18n import N_

from ..progress import describe, migrate_v1_key
from .checks import poll_ref
from .db import Tx
from .errors import NoPoll
from .models import Tally, from_epoch

TOP_WRONG = 3
ON_PAGE, IN_POLL = N_("on a page"), N_("in a poll")
"""Where an answer was given (the answers CSV's "asked" column; a screen draws it through ``_()``)."""


@dataclass(frozen=True)
class QuestionSummary:
    """One question across the class: learners who answered it, how many were right at their first try, the
    commonest wrong first answers (at most 3, with how many gave each), and how many answered in a poll that is
    not revealed yet (not judged, so in neither of the other numbers)."""

    question_key: str
    answered: int
    right_first: int
    wrong: list[tuple[str, int]]
    pending: int = 0
    prompt: str = ""

    @property
    def percent_right(self) -> float:
        """% right at the first try, to one decimal (of the answers judged)."""
        return round(100 * self.right_first / self.answered, 1) if self.answered else 0.0


@dataclass(frozen=True)
class LearnerSummary:
    """One learner: questions answered (judged or not), right at the first try, and each question's first try
    (True, False, or None: answered in a poll not revealed yet). ``number``: their place in the order the class
    joined, from 1 (two learners may share a name; an ended class's "Learner N" is this N)."""

    name: str
    answered: int
    right: int
    first: dict[str, bool | None] = field(default_factory=dict)
    number: int = 0


@dataclass(frozen=True)
class AnswerRow:
    """One learner's answer to one question: on a page (``round`` None; first and final are their first and
    last attempt) or in one round of a poll (first and final are their first and last vote in that round).
    ``first_right`` / ``final_right``: the lab's judgement, None until a poll is revealed. ``learner``: the
    learner's :attr:`LearnerSummary.number` (0: not a learner of the class any more)."""

    name: str
    question_key: str
    prompt: str
    asked: str
    round: int | None
    first: str
    first_right: bool | None
    final: str
    final_right: bool | None
    sent: int
    learner: int = 0


@dataclass(frozen=True)
class PollSummary:
    """A poll the teacher posed: its question, each round's tally, and (once revealed) each round's commonest
    wrong answers (by the learners' last votes in it)."""

    poll_id: str
    question_id: str
    prompt: str
    truth: str | None
    rounds: list[Tally]
    wrong: list[list[tuple[str, int]]] = field(default_factory=list)


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
    answers: list[AnswerRow] = field(default_factory=list)


def tally(tx: Tx, code: str, poll_id: Any, round: Any) -> Tally:
    """How the class voted in ``round`` of the poll: each learner's latest vote in the round counts."""
    if poll_ref(poll_id, round) is None:
        raise NoPoll()
    if tx.one("SELECT 1 FROM polls WHERE poll_id = ? AND code = ?", (poll_id, code)) is None:
        raise NoPoll()
    rows = tx.rows("SELECT v.answer, COUNT(*) FROM votes v WHERE v.poll_id = ? AND v.round = ? "
                   "AND v.seq = (SELECT MAX(w.seq) FROM votes w WHERE w.poll_id = v.poll_id "
                   "AND w.round = v.round AND w.learner_id = v.learner_id) GROUP BY v.answer", (poll_id, round))
    joined = tx.value("SELECT COUNT(*) FROM learners WHERE code = ?", (code,))
    counts = dict(sorted(((a, int(n)) for a, n in rows), key=lambda item: (-item[1], item[0])))
    return Tally(round, sum(counts.values()), int(joined), counts)


def _top(answers: list[str]) -> list[tuple[str, int]]:
    return sorted(Counter(answers).items(), key=lambda item: (-item[1], item[0]))[:TOP_WRONG]


def build(tx: Tx, code: str) -> Dashboard:
    """The dashboard of an existing class (the caller checked who may see it)."""
    title, expires, closed = tx.row("SELECT title, expires_at, closed_at FROM classes WHERE code = ?", (code,))
    learners = sorted(tx.rows("SELECT learner_id, name, seq FROM learners WHERE code = ?", (code,)),
                      key=lambda row: row[2])
    names = {lid: name for lid, name, _ in learners}
    polls = _polls(tx, code)
    prompts = {p["question_id"]: p["prompt"] for p in polls}

    # Every answer kept: per learner and question, its attempts in order (the first counts).
    attempts: dict[tuple[str, str], list[tuple[int, str, bool, str | None]]] = defaultdict(list)
    for lid, key, attempt, guess, right, poll_id in tx.rows(
            "SELECT learner_id, question_key, attempt, guess, is_right, poll_id FROM answers WHERE code = ?", (code,)):
        attempts[(lid, key)].append((attempt, guess, bool(right), poll_id))
    first: dict[tuple[str, str], tuple[str, bool | None]] = {}
    for (lid, key), tries in attempts.items():
        tries.sort()
        first[(lid, key)] = (tries[0][1], tries[0][2])

    # Votes: per poll, learner and round, every vote in order; a poll not revealed yet is an answer not judged.
    order = {lid: i for i, (lid, _, _) in enumerate(learners)}
    rows: list[tuple[int, AnswerRow]] = []
    poll_summaries = []
    for p in polls:
        votes: dict[tuple[str, int], list[str]] = defaultdict(list)
        for lid, rnd, answer, _seq in sorted(tx.rows("SELECT learner_id, round, answer, seq FROM votes "
                                                     "WHERE poll_id = ?", (p["poll_id"],)), key=lambda r: r[3]):
            votes[(lid, rnd)].append(answer)
        verdicts = p["verdicts"]
        for (lid, rnd), sent in votes.items():
            rows.append((order.get(lid, -1), AnswerRow(
                names.get(lid, "?"), p["question_id"], p["prompt"], IN_POLL, rnd, sent[0],
                verdicts.get(sent[0]) if verdicts is not None else None, sent[-1],
                verdicts.get(sent[-1]) if verdicts is not None else None, len(sent), order.get(lid, -1) + 1)))
            if verdicts is None and (lid, p["question_id"]) not in first:
                first[(lid, p["question_id"])] = (_first_vote(votes, lid), None)  # answered; judged at Reveal
        rounds = [tally(tx, code, p["poll_id"], r) for r in range(1, p["round"] + 1)]
        wrong = [_top([sent[-1] for (lid, rnd), sent in votes.items() if rnd == r and verdicts is not None
                       and verdicts.get(sent[-1]) is False]) for r in range(1, p["round"] + 1)]
        poll_summaries.append(PollSummary(p["poll_id"], p["question_id"], p["prompt"], p["truth"], rounds, wrong))

    # Answers given on a page (not through a poll): first and last attempt.
    for (lid, key), tries in attempts.items():
        page = [t for t in tries if t[3] is None]
        if page:
            rows.append((order.get(lid, -1), AnswerRow(names.get(lid, "?"), key, prompts.get(key, ""), ON_PAGE, None,
                                                       page[0][1], page[0][2], page[-1][1], page[-1][2], len(page),
                                                       order.get(lid, -1) + 1)))
    rows.sort(key=lambda item: (item[0], item[1].question_key, item[1].round or 0, item[1].asked))

    by_question: dict[str, list[tuple[str, bool | None]]] = defaultdict(list)
    by_learner: dict[str, dict[str, bool | None]] = defaultdict(dict)
    for (lid, key), (guess, right) in first.items():
        by_question[key].append((guess, right))
        by_learner[lid][key] = right
    questions = []
    for key in sorted(by_question):
        judged = [(g, r) for g, r in by_question[key] if r is not None]
        questions.append(QuestionSummary(key, len(judged), sum(1 for _, r in judged if r),
                                         _top([g for g, r in judged if not r]),
                                         len(by_question[key]) - len(judged), prompts.get(key, "")))
    people = [LearnerSummary(name, len(by_learner[lid]), sum(1 for r in by_learner[lid].values() if r),
                             dict(by_learner[lid]), order[lid] + 1) for lid, name, _ in learners]
    return Dashboard(code, title, closed is None, from_epoch(expires), len(learners), questions, people,
                     poll_summaries, [row for _, row in rows])


def _first_vote(votes: dict[tuple[str, int], list[str]], learner_id: str) -> str:
    """A learner's first answer to a poll: their last vote in the first round they voted in (as Reveal keeps it)."""
    rnd = min(r for lid, r in votes if lid == learner_id)
    return votes[(learner_id, rnd)][-1]


def _polls(tx: Tx, code: str) -> list[dict]:
    rows = tx.rows("SELECT poll_id, question_id, question, truth, round, posed_at, verdicts FROM polls WHERE code = ?",
                   (code,))
    rows.sort(key=lambda row: (row[5], row[0]))
    return [{"poll_id": pid, "question_id": qid, "prompt": str(json.loads(q).get("prompt", "")), "truth": truth,
             "round": rnd, "verdicts": json.loads(v) if v else None} for pid, qid, q, truth, rnd, _, v in rows]


def prompt_of(key: str, shown: str = "") -> str:
    """A question's words for a report: the prompt a poll showed, else what the lab calls it (a lesson exercise
    by its lesson and number), else its key."""
    if shown:
        return shown
    qid = migrate_v1_key(key)
    return describe(qid) if qid else key


def _mark(right: bool | None) -> str:
    return "" if right is None else "right" if right else "wrong"


def gradebook_rows(dashboard: Dashboard) -> list[list[Any]]:
    """The gradebook: a header, then one row per learner (name, answered, right at the first try, and for each
    question "right", "wrong", "answered" (in a poll not revealed yet) or "" for not answered)."""
    keys = [q.question_key for q in dashboard.questions]
    rows: list[list[Any]] = [["name", "answered", "right first try", *keys]]
    for learner in dashboard.learners:
        marks = ["" if k not in learner.first else "answered" if learner.first[k] is None else _mark(learner.first[k])
                 for k in keys]
        rows.append([learner.name, learner.answered, learner.right, *marks])
    return rows


ANSWER_COLUMNS = ["name", "question", "question id", "asked", "round", "first answer", "first answer right",
                  "final answer", "final answer right", "answers sent"]


def answer_rows(dashboard: Dashboard, words: Callable[[str, str], str] = prompt_of) -> list[list[Any]]:
    """Who answered what: a header, then one row per learner, question and round (a page's answer has no round),
    with their first and final answer there, whether each is right ("" until a poll is revealed) and how many
    they sent. ``words(key, prompt)`` names a question (the page passes the lab's prompt for it)."""
    rows: list[list[Any]] = [list(ANSWER_COLUMNS)]
    for r in dashboard.answers:
        rows.append([r.name, words(r.question_key, r.prompt), r.question_key, r.asked,
                     "" if r.round is None else r.round, r.first, _mark(r.first_right), r.final,
                     _mark(r.final_right), r.sent])
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
    """The dashboard as JSON-able data (the command line's ``class report --json``, the page's download). Each
    learner's answers are theirs by ``learner`` (their number in the order the class joined), not by name: two
    learners may share one."""
    by_learner: dict[int, list[dict]] = defaultdict(list)
    for r in dashboard.answers:
        by_learner[r.learner].append({"question": r.question_key, "prompt": prompt_of(r.question_key, r.prompt),
                                   "asked": r.asked, "round": r.round, "first": r.first, "first_right": r.first_right,
                                   "final": r.final, "final_right": r.final_right, "sent": r.sent})
    return {
        "code": dashboard.code, "title": dashboard.title, "open": dashboard.open,
        "expires": dashboard.expires.isoformat(), "joined": dashboard.joined,
        "questions": [{"question": q.question_key, "prompt": prompt_of(q.question_key, q.prompt),
                       "answered": q.answered, "right_first_try": q.right_first, "percent_right": q.percent_right,
                       "not_revealed": q.pending, "wrong": [{"answer": a, "count": n} for a, n in q.wrong]}
                      for q in dashboard.questions],
        "learners": [{"learner": p.number, "name": p.name, "answered": p.answered, "right": p.right,
                      "answers": by_learner.get(p.number, [])} for p in dashboard.learners],
        "polls": [{"question": p.question_id, "prompt": p.prompt, "truth": p.truth,
                   "rounds": [{"round": t.round, "answered": t.answered, "joined": t.joined, "counts": t.counts,
                               "wrong": [{"answer": a, "count": n} for a, n in (p.wrong[i] if i < len(p.wrong) else [])]}
                              for i, t in enumerate(p.rounds)]} for p in dashboard.polls],
    }


def as_text(dashboard: Dashboard) -> list[str]:
    """The report as lines for a terminal: the class, each question, each learner, each poll's rounds."""
    state = "open" if dashboard.open else "ended"
    lines = [f"Class {dashboard.code}: {dashboard.title} ({state}; kept until {dashboard.expires:%Y-%m-%d %H:%M} "
             f"UTC), {dashboard.joined} joined."]
    lines.append("Questions (first answers):" if dashboard.questions else "No answers yet.")
    for q in dashboard.questions:
        wrong = ", ".join(f"{a!r} x{n}" for a, n in q.wrong)
        pending = f"; {q.pending} answered in a poll not revealed yet" if q.pending else ""
        lines.append(f"  {prompt_of(q.question_key, q.prompt)}: {q.answered} judged, {q.right_first} right at the "
                     f"first try ({q.percent_right:g}%)" + (f"; commonest wrong: {wrong}" if wrong else "") + pending)
    if dashboard.learners:
        lines.append("Learners (answered, right at the first try):")
        lines += [f"  {p.name}: {p.answered} answered, {p.right} right" for p in dashboard.learners]
    for poll in dashboard.polls:
        truth = f" (answer: {poll.truth})" if poll.truth is not None else " (not revealed)"
        lines.append(f"Poll {poll.question_id}: {poll.prompt}{truth}")
        for i, t in enumerate(poll.rounds):
            counts = ", ".join(f"{a!r} {n}" for a, n in t.counts.items()) or "no votes"
            commonest = poll.wrong[i] if i < len(poll.wrong) else []
            lines.append(f"  round {t.round}: {t.answered} of {t.joined} answered: {counts}"
                         + (f"; commonest wrong: {', '.join(f'{a!r} x{n}' for a, n in commonest)}" if commonest else ""))
    return lines
