"""Classes: a teacher starts one, learners join with its code, the teacher poses questions and the class
votes; each learner's answers to the lab's questions are kept. Plain SQL on :mod:`.db` (SQLite or PostgreSQL).

Every change to a class (a join, a vote, a teacher's step) first adds one to the class's ``version`` in the
same transaction: a screen learns that something changed with one indexed read (:meth:`Classes.version`),
and the class's row lock puts a class's writes in one order on PostgreSQL (SQLite has one writer at a time).
A vote's ``seq`` is that version, so "the latest vote of a learner counts" needs no clock.

Secrets: the teacher secret is kept as its SHA-256 (it is 256 random bits: no slow hash is needed) and
compared in constant time. A learner id is random too (128 bits): holding it is being that learner.
Nothing here reads a name back to anyone but the teacher (:meth:`Classes.dashboard`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from i18n import N_

from . import checks, report
from .db import Database, Tx
from .errors import (
    BadInput,
    ClassEnded,
    ClassUnavailable,
    NoPoll,
    NotTeacher,
    TooManyAttempts,
    UnknownLearner,
    VotingClosed,
)
from .models import Answer, ClassInfo, Learner, PollState, Started, Tally, epoch, from_epoch

JOINS_PER_MINUTE = 30
"""Wrong codes (class or resume codes) one client may try in one minute (kept in the database: every replica's).
A client is the address the lab's own proxy saw (see :func:`.checks.limit_key`), so a class of 40 behind one
school address shares it: right codes never count, and 30 typos in a minute is far more than a room makes."""
JOINS_PER_HOUR = 200
"""Wrong codes one client may try in an hour: a guesser gets at most 4,800 tries a day from an address (README,
"Classes: the data", has the arithmetic)."""
_DUMMY_HASH = hashlib.sha256(b"no class has this secret").hexdigest()
T = TypeVar("T")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class Classes:
    """The classes in one database (see the module's text). Every method is safe to call from many threads
    and processes at once."""

    def __init__(self, db: Database, *, joins_per_minute: int = JOINS_PER_MINUTE,
                 joins_per_hour: int = JOINS_PER_HOUR) -> None:
        self.db = db
        self.joins_per_minute = joins_per_minute
        self.joins_per_hour = max(joins_per_hour, joins_per_minute)

    # -- a class -----------------------------------------------------------------------------------------------

    def start(self, title: str, *, expires_days: int = 30, now: datetime | None = None) -> Started:
        """Start a class called ``title`` (1 to 80 characters) that lasts ``expires_days`` days (1 to 365).
        Starting a class also purges the expired ones (:meth:`purge`), so names go when they should even
        where nobody runs ``class purge``."""
        title = checks.title(title)
        days = checks.expires_days(expires_days)
        at = epoch(now)
        self.purge(from_epoch(at))
        expires = at + int(timedelta(days=days).total_seconds())
        secret = secrets.token_urlsafe(32)
        with self.db.transaction() as tx:
            while True:  # 31**6 codes: a clash is rare, and then another code is drawn
                code = checks.new_code()
                if tx.execute("INSERT INTO classes (code, title, secret_hash, created_at, expires_at) "
                              "VALUES (?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                              (code, title, _hash(secret), at, expires)) == 1:
                    break
        return Started(code, secret, from_epoch(expires))

    def info(self, code: str, *, now: datetime | None = None) -> ClassInfo:
        """An open class's title, expiry and how many learners joined; ClassUnavailable for a wrong, closed or
        expired code alike. Not rate limited: use it for a class the session has joined (or teaches); a code a
        person typed goes to :meth:`join`, which is."""
        code = checks.class_code(code)
        with self.db.transaction(write=False) as tx:
            row = tx.one("SELECT title, expires_at, (SELECT COUNT(*) FROM learners l WHERE l.code = c.code) "
                         "FROM classes c WHERE code = ? AND closed_at IS NULL AND expires_at > ?", (code, epoch(now)))
        if row is None:
            raise ClassUnavailable()
        return ClassInfo(code, row[0], from_epoch(row[1]), row[2])

    def about(self, code: str, *, secret: str | None = None, learner_id: str | None = None,
              now: datetime | None = None) -> ClassInfo:
        """The class as its teacher (``secret``) or one of its learners (``learner_id``) may see it, open or ended
        (until it is purged): ``open`` says which. Whoever proves neither gets what :meth:`info` gives a stranger:
        ClassUnavailable unless the class is open."""
        code = checks.class_code(code)
        at = epoch(now)
        with self.db.transaction(write=False) as tx:
            if secret is not None:
                self._check_teacher(tx, code, secret)
            elif learner_id is not None:
                self._learner(tx, code, checks.token(learner_id, "learner id"))
            row = tx.one("SELECT title, expires_at, closed_at, (SELECT COUNT(*) FROM learners l WHERE l.code = c.code) "
                         "FROM classes c WHERE code = ?", (code,))
        if row is None:
            raise ClassUnavailable()
        title, expires, closed, joined = row
        is_open = closed is None and expires > at
        if not is_open and secret is None and learner_id is None:
            raise ClassUnavailable()
        return ClassInfo(code, title, from_epoch(expires), joined, is_open)

    def teacher_browser(self, code: str, secret: str, *, now: datetime | None = None) -> str:
        """A key for one teacher's browser (kept there in a cookie, so a reload is the teacher again): 256 random
        bits, kept here only hashed, good for this class wherever the secret is, until :meth:`forget_browser`
        or the class is deleted. The teacher secret itself is never kept in a browser."""
        code = checks.class_code(code)
        key = secrets.token_urlsafe(32)
        with self.db.transaction() as tx:
            self._check_teacher(tx, code, secret)
            if tx.value("SELECT COUNT(*) FROM teacher_browsers WHERE code = ?", (code,)) >= checks.MAX_BROWSERS:
                tx.execute("DELETE FROM teacher_browsers WHERE key_hash = (SELECT key_hash FROM teacher_browsers "
                           "WHERE code = ? ORDER BY made_at LIMIT 1)", (code,))  # the oldest goes
            tx.execute("INSERT INTO teacher_browsers (key_hash, code, made_at) VALUES (?, ?, ?)",
                       (_hash(key), code, epoch(now)))
        return key

    def forget_browser(self, code: str, key: str) -> None:
        """This teacher's browser leaves teacher mode: its key no longer works (the secret and other browsers'
        keys still do)."""
        code = checks.class_code(code)
        if not isinstance(key, str) or len(key) > 200:
            return
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM teacher_browsers WHERE key_hash = ? AND code = ?", (_hash(key), code))

    def keep_question(self, code: str, secret: str, exercise: dict) -> bool:
        """Keep one of the teacher's own questions with the class (:mod:`lessons.own`: the ``[[exercise]]`` table
        a lesson file holds, which names the operation computing its answer). The same question again is kept once;
        True if it is new. At most :data:`.checks.MAX_OWN_QUESTIONS` a class."""
        code = checks.class_code(code)
        ex_id, data = checks.own_question(exercise)
        with self.db.transaction() as tx:
            self._check_teacher(tx, code, secret)
            self._open(tx, code, epoch(None))  # (no screen changes: the class's version stays)
            seq = tx.value("SELECT COALESCE(MAX(seq), 0) + 1 FROM class_questions WHERE code = ?", (code,))
            if tx.one("SELECT 1 FROM class_questions WHERE code = ? AND exercise_id = ?", (code, ex_id)):
                return False
            if tx.value("SELECT COUNT(*) FROM class_questions WHERE code = ?", (code,)) >= checks.MAX_OWN_QUESTIONS:
                raise BadInput(N_("A class keeps at most {n} questions of its teacher's own."), n=checks.MAX_OWN_QUESTIONS)
            tx.execute("INSERT INTO class_questions (code, exercise_id, exercise, made_at, seq) VALUES (?, ?, ?, ?, ?)",
                       (code, ex_id, data, epoch(None), seq))
            return True

    def own_questions(self, code: str, *, secret: str | None = None, learner_id: str | None = None) -> list[dict]:
        """The teacher's own questions kept with the class, in the order they were made: for its teacher or one of
        its learners (a posed one is rebuilt from it), open or ended."""
        code = checks.class_code(code)
        with self.db.transaction(write=False) as tx:
            if secret is not None:
                self._check_teacher(tx, code, secret)
            elif learner_id is not None:
                self._learner(tx, code, checks.token(learner_id, "learner id"))
            else:
                raise NotTeacher()
            rows = tx.rows("SELECT exercise FROM class_questions WHERE code = ? ORDER BY seq", (code,))
        return [json.loads(row[0]) for row in rows]

    def learners(self, code: str, secret: str) -> list[str]:
        """The learners' names in the order they joined: for the teacher only (the secret), never the class."""
        code = checks.class_code(code)
        with self.db.transaction(write=False) as tx:
            self._check_teacher(tx, code, secret)
            return [row[0] for row in tx.rows("SELECT name FROM learners WHERE code = ? ORDER BY seq", (code,))]

    def is_teacher(self, code: str, secret: str) -> bool:
        """Whether ``secret`` is the teacher secret of the class ``code`` (compared in constant time)."""
        try:
            with self.db.transaction(write=False) as tx:
                self._check_teacher(tx, checks.class_code(code), secret)
        except (NotTeacher, ClassUnavailable):
            return False
        return True

    def end(self, code: str, secret: str | None = None, *, now: datetime | None = None) -> bool:
        """Close the class: no more joins, votes or answers. The learners' names, the only personal data a class
        holds, are deleted now (each becomes "Learner 1", "Learner 2"… in the order they joined); their answers
        stay for the report, without names, until the class expires (then :meth:`purge` deletes them too): a
        teacher downloads the gradebook before ending. ``secret=None`` is for the command line on the teacher's
        own machine, which reads the database directly; a page always passes the secret. True if it was open."""
        code = checks.class_code(code)
        with self.db.transaction() as tx:
            if secret is not None:
                self._check_teacher(tx, code, secret)
            elif tx.one("SELECT 1 FROM classes WHERE code = ?", (code,)) is None:
                raise ClassUnavailable()
            ended = tx.execute("UPDATE classes SET closed_at = ?, poll_id = NULL, version = version + 1, "
                               "stage = stage + 1 WHERE code = ? AND closed_at IS NULL", (epoch(now), code)) == 1
            if ended:
                ids = [row[0] for row in tx.rows("SELECT learner_id FROM learners WHERE code = ? ORDER BY seq",
                                                 (code,))]
                for number, learner_id in enumerate(ids, 1):
                    tx.execute("UPDATE learners SET name = ? WHERE learner_id = ?", (f"Learner {number}", learner_id))
            return ended

    def purge(self, now: datetime | None = None) -> int:
        """Delete every expired class with its learners (their names), polls, votes and answers; the number
        of classes deleted. Also forgets join attempts older than an hour."""
        at = epoch(now)
        with self.db.transaction() as tx:
            deleted = tx.execute("DELETE FROM classes WHERE expires_at <= ?", (at,))
            tx.execute("DELETE FROM join_attempts WHERE minute <= ?", (at // 60 - 60,))
        return deleted

    # -- learners ----------------------------------------------------------------------------------------------

    def join(self, code: str, name: str, *, client: str = "", now: datetime | None = None) -> Learner:
        """Join the open class ``code`` as ``name`` (1 to 40 characters). A wrong, closed or expired code all
        raise the same ClassUnavailable. Only such misses count against ``client`` (a key the page has for the
        device, e.g. its address; every caller passing "" shares one count): after :data:`JOINS_PER_MINUTE`
        misses in a minute, every try from it raises TooManyAttempts until the minute is over. A whole class
        behind one school address joins at once: right codes never count."""
        name = checks.name(name)
        at = epoch(now)
        self._check_tries(client, at)
        try:
            return self._join(checks.class_code(code), name, at)
        except ClassUnavailable:
            self._count_miss(client, at)
            raise

    def _join(self, code: str, name: str, at: int) -> Learner:
        with self.db.transaction() as tx:
            seq, _ = self._bump(tx, code, at)
            if tx.value("SELECT COUNT(*) FROM learners WHERE code = ?", (code,)) >= checks.MAX_LEARNERS:
                raise BadInput(N_("This class is full: it has {n} learners."), n=checks.MAX_LEARNERS)
            learner_id = secrets.token_urlsafe(16)
            while True:
                resume_code = checks.new_code(checks.RESUME_LENGTH)
                if tx.execute("INSERT INTO learners (learner_id, code, name, resume_code, seq, joined_at) "
                              "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code, resume_code) DO NOTHING",
                              (learner_id, code, name, resume_code, seq, at)) == 1:
                    return Learner(learner_id, code, name, resume_code)

    def resume(self, code: str, resume_code: str, *, client: str = "", now: datetime | None = None) -> Learner:
        """The learner of the open class ``code`` with ``resume_code`` (rate limited like :meth:`join`). A right
        pair whose class has ended (or expired, until it is purged) raises :class:`ClassEnded` with the class's
        title, and is no miss: the learner's browser says so after a reload, and a room whose class ended
        yesterday does not use up its address's tries. Anything else that does not match is a miss."""
        at = epoch(now)
        self._check_tries(client, at)
        try:
            code = checks.class_code(code)
            resume = checks.resume_code(resume_code)
            with self.db.transaction(write=False) as tx:
                row = tx.one("SELECT l.learner_id, l.name, c.title, c.closed_at, c.expires_at FROM learners l "
                             "JOIN classes c ON c.code = l.code WHERE l.code = ? AND l.resume_code = ?",
                             (code, resume)) if resume else None
                if row is None:
                    self._open(tx, code, at)
                    raise UnknownLearner()
        except (ClassUnavailable, UnknownLearner):
            self._count_miss(client, at)
            raise
        learner_id, name, title, closed, expires = row
        if closed is not None or expires <= at:
            raise ClassEnded(N_("Your class “{title}” has ended."), title=title)
        assert resume is not None  # the row was found by it
        return Learner(learner_id, code, name, resume)

    # -- polls -------------------------------------------------------------------------------------------------

    def pose(self, code: str, secret: str, question: dict) -> PollState:
        """Pose ``question`` to the class (see :func:`.checks.question`): it becomes the class's one current
        poll, round 1, open for votes."""
        qid, data = checks.question(question)
        code = checks.class_code(code)
        poll_id = secrets.token_urlsafe(12)
        with self.db.transaction() as tx:
            self._check_teacher(tx, code, secret)
            at = epoch(None)
            self._bump_teacher(tx, code, at)
            if tx.value("SELECT COUNT(*) FROM polls WHERE code = ?", (code,)) >= checks.MAX_POLLS:
                raise BadInput(N_("A class is posed at most {n} questions."), n=checks.MAX_POLLS)
            tx.execute("INSERT INTO polls (poll_id, code, question_id, question, round, phase, posed_at) "
                       "VALUES (?, ?, ?, ?, 1, 'open', ?)", (poll_id, code, qid, data, at))
            tx.execute("UPDATE classes SET poll_id = ? WHERE code = ?", (poll_id, code))
            return self._posed(tx, code)

    def show(self, code: str, secret: str) -> PollState:
        """Close the current round to votes and show its answers (again: nothing changes)."""
        return self._step(code, secret, lambda tx, poll: tx.execute(
            "UPDATE polls SET phase = 'shown' WHERE poll_id = ? AND phase = 'open'", (poll.poll_id,)))

    def vote_again(self, code: str, secret: str) -> PollState:
        """Keep this round's votes and open the next round (at most 5) of the same question."""
        def step(tx: Tx, poll: PollState) -> None:
            if poll.phase == "revealed":
                raise BadInput(N_("The answer is already revealed."))
            if poll.round >= checks.MAX_ROUNDS:
                raise BadInput(N_("A question has at most {n} rounds."), n=checks.MAX_ROUNDS)
            tx.execute("UPDATE polls SET round = round + 1, phase = 'open' WHERE poll_id = ?", (poll.poll_id,))
        return self._step(code, secret, step)

    def reveal(self, code: str, secret: str, truth: str, explanation: str = "", *,
               judge: Callable[[str], bool] | None = None) -> PollState:
        """Reveal the lab's answer (``truth``, with an optional ``explanation``) on every screen; voting ends.

        Every answer the class gave in any round is judged now, once, by ``judge(answer) -> right`` (the lab's
        rules for the question, from the teacher's screen; without it, an answer is right when it is ``truth``
        as written), and the poll keeps the verdicts. In the same transaction each learner who voted gets their
        first answer to the question (their last vote of the first round they voted in) kept like an answer
        given on a page: the report counts it whatever their browser does next (closed, asleep, gone). A
        question they had answered before keeps that first answer; the poll's is a retry. Revealing again
        changes nothing."""
        truth = checks.text(truth, "truth", checks.MAX_TRUTH)
        explanation = checks.text(explanation, "explanation", checks.MAX_TRUTH, empty=True)
        right = judge or (lambda answer: answer == truth)

        def step(tx: Tx, poll: PollState) -> None:
            if poll.phase == "revealed":
                return
            votes = tx.rows("SELECT learner_id, round, answer, seq FROM votes WHERE poll_id = ?", (poll.poll_id,))
            verdicts = {answer: bool(right(answer)) for answer in sorted({row[2] for row in votes})}
            tx.execute("UPDATE polls SET phase = 'revealed', truth = ?, explanation = ?, verdicts = ? "
                       "WHERE poll_id = ?", (truth, explanation, json.dumps(verdicts, ensure_ascii=False),
                                             poll.poll_id))
            first: dict[str, tuple[int, int, str]] = {}  # learner -> (round, seq, answer) of their first answer
            for learner_id, rnd, answer, seq in votes:
                kept = first.get(learner_id)
                if kept is None or (rnd, -seq) < (kept[0], -kept[1]):
                    first[learner_id] = (rnd, seq, answer)
            at = epoch(None)
            for learner_id, (_, _, answer) in sorted(first.items()):
                self._add_answer(tx, code, learner_id, poll.question.get("id", ""), answer, verdicts[answer], at,
                                 poll_id=poll.poll_id, strict=False)

        return self._step(code, secret, step)

    def close_poll(self, code: str, secret: str) -> None:
        """Take the current question off every screen (its votes stay for the report)."""
        code = checks.class_code(code)
        with self.db.transaction() as tx:
            self._check_teacher(tx, code, secret)
            self._bump_teacher(tx, code, epoch(None))
            tx.execute("UPDATE classes SET poll_id = NULL WHERE code = ?", (code,))

    def current(self, code: str) -> PollState | None:
        """The class's current poll (None if no question is posed); ClassUnavailable if the class is not open."""
        code = checks.class_code(code)
        with self.db.transaction(write=False) as tx:
            self._open(tx, code, epoch(None))
            return self._state(tx, code)

    def version(self, code: str) -> int:
        """The class's version: it changes with every join, vote, teacher's step and the class's end (not with
        :meth:`record_answer`), so a screen reruns only when it changed. One read by primary key;
        ClassUnavailable if no class has the code."""
        code = checks.class_code(code)
        with self.db.transaction(write=False) as tx:
            row = tx.one("SELECT version FROM classes WHERE code = ?", (code,))
        if row is None:
            raise ClassUnavailable()
        return row[0]

    def versions(self, codes: list[str]) -> dict[str, tuple[int, int]]:
        """Each class's (version, stage), for many classes in one read (a replica's watcher, :mod:`ui.push`); a
        code no class has (purged) is left out. At most 500 codes a call."""
        codes = sorted({c for c in codes if checks.normal_code(c, checks.CODE_LENGTH) == c})[:500]
        if not codes:
            return {}
        with self.db.transaction(write=False) as tx:
            rows = tx.rows("SELECT code, version, stage FROM classes WHERE code IN ("
                           + ", ".join("?" * len(codes)) + ")", codes)
        return {code: (version, stage) for code, version, stage in rows}

    def vote(self, code: str, learner_id: str, poll_id: str, round: int, answer: str, *, vote_id: str) -> bool:
        """Record a learner's vote in the open ``round`` of the current poll. ``vote_id`` is made by the
        learner's screen (a uuid) and sent again with the same vote after a reconnect: a vote is stored once,
        and True is returned only the first time. A learner may vote again in the round (a new ``vote_id``,
        at most 20 votes a round): all are kept, the latest counts. VotingClosed if the round is not open."""
        vote_id = checks.token(vote_id, "vote id")
        learner_id = checks.token(learner_id, "learner id")
        code = checks.class_code(code)
        if checks.poll_ref(poll_id, round) is None:
            raise VotingClosed()
        with self.db.transaction() as tx:
            if tx.one("SELECT 1 FROM votes WHERE vote_id = ?", (vote_id,)) is not None:
                return False  # sent before (a reconnect, a replica's restart): already counted
            at = epoch(None)
            try:
                seq, current_poll = self._bump(tx, code, at)
            except ClassUnavailable:
                self._if_ended(tx, code, learner_id, N_("The class has ended: this vote was not counted."))
                raise
            self._learner(tx, code, learner_id)
            row = tx.one("SELECT round, phase, question FROM polls WHERE poll_id = ? AND code = ?", (poll_id, code))
            if row is None or poll_id != current_poll or row[1] != "open" or row[0] != round:
                raise VotingClosed()
            kept = checks.answer(answer, json.loads(row[2]).get("choices"))
            if tx.value("SELECT COUNT(*) FROM votes WHERE poll_id = ? AND round = ? AND learner_id = ?",
                      (poll_id, round, learner_id)) >= checks.MAX_VOTES:
                raise BadInput(N_("You have voted {n} times in this round: your last vote counts."), n=checks.MAX_VOTES)
            return tx.execute("INSERT INTO votes (vote_id, poll_id, learner_id, round, answer, seq, voted_at) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (vote_id) DO NOTHING",
                              (vote_id, poll_id, learner_id, round, kept, seq, at)) == 1

    def my_vote(self, code: str, learner_id: str, poll_id: str, round: int) -> str | None:
        """The learner's own latest vote in the round (None if they have not voted): their screen shows it
        again after a reload or on another device. Nobody else's vote is ever read back."""
        code = checks.class_code(code)
        learner_id = checks.token(learner_id, "learner id")
        if checks.poll_ref(poll_id, round) is None:
            raise NoPoll()
        with self.db.transaction(write=False) as tx:
            self._learner(tx, code, learner_id)
            row = tx.one("SELECT answer FROM votes WHERE poll_id = ? AND round = ? AND learner_id = ? "
                         "ORDER BY seq DESC LIMIT 1", (poll_id, round, learner_id))
        return row[0] if row else None

    def tally(self, code: str, poll_id: str, round: int) -> Tally:
        """How the class voted in ``round`` of the poll (no names)."""
        code = checks.class_code(code)
        with self.db.transaction(write=False) as tx:
            return report.tally(tx, code, poll_id, round)

    def tallies(self, code: str, poll_id: str) -> list[Tally]:
        """Every round's tally of the poll, round 1 first: the shift between rounds."""
        code = checks.class_code(code)
        if checks.poll_ref(poll_id) is None:
            raise NoPoll()
        with self.db.transaction(write=False) as tx:
            row = tx.one("SELECT round FROM polls WHERE poll_id = ? AND code = ?", (poll_id, code))
            if row is None:
                raise NoPoll()
            return [report.tally(tx, code, poll_id, r) for r in range(1, row[0] + 1)]

    # -- a learner's answers -----------------------------------------------------------------------------------

    def record_answer(self, code: str, learner_id: str, question_key: str, guess: str, right: bool) -> int:
        """Keep a learner's answer to one of the lab's questions; its attempt number (1: the first, the one
        that counts; later ones are kept as retries, at most 100 a question, 10,000 questions)."""
        code = checks.class_code(code)
        learner_id = checks.token(learner_id, "learner id")
        key = checks.text(question_key, "question key", checks.MAX_KEY)
        guess = checks.text(guess, N_("answer"), checks.MAX_TRUTH)
        if not isinstance(right, bool):
            raise BadInput("Whether an answer is right is True or False.")
        with self.db.transaction() as tx:
            at = epoch(None)
            self._open(tx, code, at)
            self._learner(tx, code, learner_id)
            return self._add_answer(tx, code, learner_id, key, guess, right, at)

    def _add_answer(self, tx: Tx, code: str, learner_id: str, key: str, guess: str, right: bool, at: int, *,
                    poll_id: str | None = None, strict: bool = True) -> int:
        """Keep one answer as the learner's next attempt at ``key`` (1: their first); its attempt number. Past the
        bounds: BadInput, or (``strict=False``, a poll's Reveal for the whole class) 0 and nothing kept."""
        while True:  # the same learner on two devices at once: the second takes the next attempt
            attempt = tx.value("SELECT COALESCE(MAX(attempt), 0) + 1 FROM answers "
                             "WHERE learner_id = ? AND question_key = ?", (learner_id, key))
            problem = None
            if attempt > checks.MAX_ATTEMPTS:
                problem = f"At most {checks.MAX_ATTEMPTS} answers to one question are kept."
            elif attempt == 1 and tx.value("SELECT COUNT(*) FROM answers WHERE learner_id = ? AND attempt = 1",
                                         (learner_id,)) >= checks.MAX_QUESTIONS:
                problem = f"Answers to at most {checks.MAX_QUESTIONS:,} questions are kept."
            if problem:
                if strict:
                    raise BadInput(problem)
                return 0
            if tx.execute("INSERT INTO answers (learner_id, code, question_key, attempt, guess, is_right, "
                          "answered_at, poll_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                          "ON CONFLICT (learner_id, question_key, attempt) DO NOTHING",
                          (learner_id, code, key, attempt, guess, int(right), at, poll_id)) == 1:
                return attempt

    def answers(self, code: str, learner_id: str) -> list[Answer]:
        """A learner's answers, to restore them on another device: by question, first attempt first."""
        code = checks.class_code(code)
        learner_id = checks.token(learner_id, "learner id")
        with self.db.transaction(write=False) as tx:
            self._open(tx, code, epoch(None))
            self._learner(tx, code, learner_id)
            rows = tx.rows("SELECT question_key, guess, is_right, attempt, answered_at FROM answers "
                           "WHERE learner_id = ?", (learner_id,))
        return [Answer(k, g, bool(r), a, from_epoch(t)) for k, g, r, a, t in sorted(rows, key=lambda r: (r[0], r[3]))]

    # -- the teacher's views ---------------------------------------------------------------------------------

    def dashboard(self, code: str, secret: str) -> report.Dashboard:
        """The teacher's dashboard (names included: the teacher link only, never the projector)."""
        return self._read(code, report.build, secret if secret is not None else "")

    def report(self, code: str) -> report.Dashboard:
        """The same dashboard without the secret: for the command line on the teacher's own machine, which
        reads the database directly. A page always uses :meth:`dashboard`."""
        return self._read(code, report.build, None)

    def report_rows(self, code: str, secret: str) -> list[list[Any]]:
        """The gradebook's rows (see :func:`.report.gradebook_rows`; :func:`.report.csv_text` writes them)."""
        return report.gradebook_rows(self.dashboard(code, secret))

    # -- inside ------------------------------------------------------------------------------------------------

    def _read(self, code: str, reader: Callable[[Tx, str], T], secret: str | None) -> T:
        """Run ``reader(tx, code)`` on an existing class (open, closed or expired but not yet purged), after
        checking the teacher ``secret`` unless it is None (the command line). For the reports."""
        code = checks.class_code(code)
        with self.db.transaction(write=False) as tx:
            if secret is not None:
                self._check_teacher(tx, code, secret)
            elif tx.one("SELECT 1 FROM classes WHERE code = ?", (code,)) is None:
                raise ClassUnavailable()
            return reader(tx, code)

    def _check_teacher(self, tx: Tx, code: str, secret: Any) -> None:
        """NotTeacher unless ``secret`` is the class's teacher secret, or the key of a teacher's browser for it
        (:meth:`teacher_browser`)."""
        row = tx.one("SELECT secret_hash FROM classes WHERE code = ?", (code,))
        given = _hash(secret) if isinstance(secret, str) and len(secret) <= 200 else ""
        if hmac.compare_digest(given, row[0] if row else _DUMMY_HASH) and row is not None:
            return
        if given and row is not None and tx.one("SELECT 1 FROM teacher_browsers WHERE key_hash = ? AND code = ?",
                                                (given, code)) is not None:
            return
        raise NotTeacher()

    def _bump(self, tx: Tx, code: str, at: int, *, stage: bool = False) -> tuple[int, str | None]:
        """Add one to the open class's version (taking its row lock), and to its stage for a teacher's step;
        (the new version, its current poll)."""
        row = tx.one("UPDATE classes SET version = version + 1" + (", stage = stage + 1" if stage else "")
                     + " WHERE code = ? AND closed_at IS NULL AND expires_at > ? RETURNING version, poll_id", (code, at))
        if row is None:
            raise ClassUnavailable()
        return row[0], row[1]

    def _bump_teacher(self, tx: Tx, code: str, at: int) -> tuple[int, str | None]:
        """:meth:`_bump` for the class's teacher (the secret checked): an ended class says so."""
        try:
            return self._bump(tx, code, at, stage=True)
        except ClassUnavailable:
            title = tx.one("SELECT title FROM classes WHERE code = ?", (code,))
            raise ClassEnded("This class has ended: nothing more can be posed to it.",
                             title=title[0] if title else "") from None

    def _open(self, tx: Tx, code: str, at: int) -> None:
        if tx.one("SELECT 1 FROM classes WHERE code = ? AND closed_at IS NULL AND expires_at > ?",
                  (code, at)) is None:
            raise ClassUnavailable()

    def _if_ended(self, tx: Tx, code: str, learner_id: str, message: str) -> None:
        """ClassEnded (saying ``message``) when ``learner_id`` is a learner of the class ``code``, which is not open:
        they proved they belong to it, so they are told it ended (a stranger only hears that no open class has
        the code)."""
        row = tx.one("SELECT c.title FROM learners l JOIN classes c ON c.code = l.code "
                     "WHERE l.learner_id = ? AND l.code = ?", (learner_id, code))
        if row is not None:
            raise ClassEnded(message, title=row[0])

    def _learner(self, tx: Tx, code: str, learner_id: str) -> None:
        if tx.one("SELECT 1 FROM learners WHERE learner_id = ? AND code = ?", (learner_id, code)) is None:
            raise UnknownLearner(N_("You are not a learner in this class: join it again."))

    @staticmethod
    def client_key(client: Any) -> str:
        """How the join limit names ``client`` (an address) in the database: a hash of its limit key, never the
        address itself."""
        key = checks.limit_key(client)  # an IPv6 address by its /64
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # no address kept

    def _check_tries(self, client: Any, at: int) -> None:
        """TooManyAttempts when ``client`` has missed :data:`JOINS_PER_MINUTE` times in this minute, or
        :data:`JOINS_PER_HOUR` times in the last 60 minutes (this one included)."""
        minute = at // 60
        with self.db.transaction(write=False) as tx:
            row = tx.row("SELECT COALESCE(SUM(CASE WHEN minute = ? THEN attempts ELSE 0 END), 0), "
                         "COALESCE(SUM(attempts), 0) FROM join_attempts WHERE client = ? AND minute > ?",
                         (minute, self.client_key(client), minute - 60))
        if row[0] >= self.joins_per_minute:
            raise TooManyAttempts()
        if row[1] >= self.joins_per_hour:
            raise TooManyAttempts(N_("Too many wrong codes from this network in the last hour. Try again later, "
                                     "or ask your teacher to check the code."))

    def _count_miss(self, client: Any, at: int) -> None:
        """Count a wrong, closed or expired code (or resume code) tried from ``client`` in this minute."""
        with self.db.transaction() as tx:
            tx.execute("INSERT INTO join_attempts (client, minute, attempts) VALUES (?, ?, 1) "
                       "ON CONFLICT (client, minute) DO UPDATE SET attempts = join_attempts.attempts + 1",
                       (self.client_key(client), at // 60))

    def _posed(self, tx: Tx, code: str) -> PollState:
        """The state of the poll just posed or changed in this transaction (so there is one)."""
        state = self._state(tx, code)
        if state is None:
            raise LookupError(f"class {code} has no poll, though one was just changed")
        return state

    def _state(self, tx: Tx, code: str) -> PollState | None:
        row = tx.one("SELECT c.version, p.poll_id, p.question, p.round, p.phase, p.truth, p.explanation, p.verdicts "
                     "FROM classes c JOIN polls p ON p.poll_id = c.poll_id WHERE c.code = ?", (code,))
        if row is None:
            return None
        version, poll_id, question, rnd, phase, truth, explanation, verdicts = row
        shown = phase == "revealed"
        return PollState(poll_id, json.loads(question), rnd, phase, truth if shown else None,
                         explanation if shown else "", version,
                         json.loads(verdicts) if shown and verdicts else {})

    def _step(self, code: str, secret: str, change: Callable[[Tx, PollState], Any]) -> PollState:
        code = checks.class_code(code)
        with self.db.transaction() as tx:
            self._check_teacher(tx, code, secret)
            self._bump_teacher(tx, code, epoch(None))
            poll = self._state(tx, code)
            if poll is None:
                raise NoPoll()
            change(tx, poll)
            return self._posed(tx, code)
