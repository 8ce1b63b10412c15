"""Classes: a teacher's class code, learners who join it, live polls and answers kept on the server.

No UI here: the Class page and the command line (``python -m lessons class ...``) use this API::

    classes = Classes(open_database())          # $LAB_DATABASE_URL, else data/classes.sqlite3
    started = classes.start("Tokenizers, week 3")
    me = classes.join(started.code, "Asha", client=address)
    poll = classes.pose(started.code, started.teacher_secret, {"id": ..., "prompt": ..., "kind": ...,
                                                               "choices": [...], "where": "/Train"})
    classes.vote(started.code, me.learner_id, poll.poll_id, poll.round, "h + a", vote_id=str(uuid4()))

Modules: :mod:`.db` (opening SQLite or PostgreSQL, migrations), :mod:`.store` (:class:`Classes`),
:mod:`.checks` (the bounds), :mod:`.report` (tallies, the dashboard, CSV), :mod:`.models`, :mod:`.errors`.
"""

from __future__ import annotations

from .checks import (
    ALPHABET,
    CODE_LENGTH,
    MAX_ANSWER,
    MAX_NAME,
    MAX_QUESTION_BYTES,
    MAX_TITLE,
    RESUME_LENGTH,
    limit_key,
    shown_resume,
)
from .cli import PAGE, links
from .db import Database, database_url, open_database
from .errors import (
    BadInput,
    ClassEnded,
    ClassError,
    ClassUnavailable,
    DatabaseBroken,
    DatabaseUnavailable,
    NoPoll,
    NotTeacher,
    TooManyAttempts,
    UnknownLearner,
    VotingClosed,
)
from .models import Answer, ClassInfo, Learner, Poll, PollState, Started, Tally
from .report import (
    AnswerRow,
    Dashboard,
    LearnerSummary,
    PollSummary,
    QuestionSummary,
    answer_rows,
    as_json,
    csv_text,
    gradebook_rows,
    prompt_of,
)
from .store import JOINS_PER_HOUR, JOINS_PER_MINUTE, Classes

__all__ = [
    "ALPHABET", "CODE_LENGTH", "ClassEnded", "JOINS_PER_HOUR", "JOINS_PER_MINUTE", "limit_key", "shown_resume", "MAX_ANSWER", "MAX_NAME", "MAX_QUESTION_BYTES", "MAX_TITLE",
    "PAGE", "RESUME_LENGTH", "Answer", "AnswerRow", "answer_rows", "as_json", "BadInput", "ClassError", "Classes", "ClassInfo",
    "ClassUnavailable", "csv_text", "Dashboard", "Database", "database_url", "DatabaseBroken", "DatabaseUnavailable",
    "gradebook_rows", "prompt_of", "Learner", "LearnerSummary", "links", "NoPoll", "NotTeacher", "open_database", "Poll",
    "PollState", "PollSummary", "QuestionSummary", "Started", "Tally", "TooManyAttempts", "UnknownLearner",
    "VotingClosed",
]
