"""What the class store hands back: plain frozen records, and UTC times."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime


@dataclass(frozen=True)
class Started:
    """A new class: its code, the teacher's secret (shown once, kept only hashed) and when it expires."""

    code: str
    teacher_secret: str
    expires: datetime


@dataclass(frozen=True)
class ClassInfo:
    """What anyone with the code may see of an open class (``open`` False: what its teacher or one of its
    learners sees of it once it has ended, :meth:`.store.Classes.about`)."""

    code: str
    title: str
    expires: datetime
    joined: int
    open: bool = True


@dataclass(frozen=True)
class Learner:
    """A learner in a class. ``learner_id`` is their key (keep it in their session, show it to nobody);
    ``resume_code`` is the short code they type to continue on another device."""

    learner_id: str
    code: str
    name: str
    resume_code: str


@dataclass(frozen=True)
class PollState:
    """The class's current poll as every screen shows it; ``truth`` is None until it is revealed.
    ``version`` is the class's version when this was read."""

    poll_id: str
    question: dict
    round: int
    phase: str
    truth: str | None
    explanation: str
    version: int
    verdicts: dict[str, bool] = field(default_factory=dict)
    """After Reveal: each answer the class gave, right or not (the lab's judgement, made once by the teacher's
    screen for everyone); empty before."""


Poll = PollState


@dataclass(frozen=True)
class Tally:
    """A round's votes, without names: learners who voted, learners in the class, and how many chose each
    answer (a learner's latest vote in the round counts), most chosen first."""

    round: int
    answered: int
    joined: int
    counts: dict[str, int]


@dataclass(frozen=True)
class Answer:
    """One answer a learner gave to one of the lab's questions; attempt 1 is the one that counts."""

    question_key: str
    guess: str
    right: bool
    attempt: int
    answered_at: datetime


def epoch(now: datetime | None) -> int:
    """``now`` (UTC; a naive datetime is taken as UTC) in whole seconds; the present when None."""
    if now is None:
        now = datetime.now(UTC)
    elif now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    return int(now.timestamp())


def from_epoch(seconds: int) -> datetime:
    """Seconds since 1970 as a UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)


