"""What can go wrong with a class, as exceptions whose message is friendly and safe to show a learner."""

from __future__ import annotations


class ClassError(Exception):
    """Anything the class store refuses; ``str(error)`` is a sentence to show as it is."""

    message = "Something went wrong with the class."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.message)


class ClassUnavailable(ClassError):
    """The code names no open class: wrong, closed or expired alike, so codes cannot be probed."""

    message = "No open class has that code."


class TooManyAttempts(ClassError):
    """Too many tries to join (or resume) from one client in a minute."""

    message = "Too many tries to join a class from here. Wait a minute and try again."


class NotTeacher(ClassError, PermissionError):
    """A teacher's action without the class's teacher secret (or for a code no class has)."""

    message = "That teacher link is not valid for this class."


class UnknownLearner(ClassError):
    """A learner id or resume code that no learner of this class has."""

    message = "No learner in this class has that resume code."


class VotingClosed(ClassError):
    """A vote for a poll or round that is not open."""

    message = "Voting on this question has closed."


class NoPoll(ClassError):
    """A teacher's poll action while no question is posed."""

    message = "No question is posed to the class."


class BadInput(ClassError, ValueError):
    """A value out of its bounds (a name too long, an answer not among the choices...); says which."""

    message = "That value cannot be used."


class DatabaseUnavailable(ClassError, ConnectionError):
    """The database cannot be reached, or stayed busy past its timeout: nothing was changed; try again."""

    message = "The class database is busy or cannot be reached. Try again in a moment."
