"""What can go wrong with a class, as exceptions whose message is friendly and safe to show a learner.

A message is a sentence marked for the catalogue (``N_``) with its fields apart (``BadInput(N_("This class is full: it
has {n} learners."), n=1000)``), as every :class:`i18n.Refusal`'s: ``str(error)`` is the English, and the lab's
screens draw ``error.said()``, in the learner's language (the template through ``_()``, its numbers as that
language writes them).
"""

from __future__ import annotations

from i18n import N_, Refusal


class ClassError(Refusal):
    """Anything the class store refuses; ``str(error)`` is a sentence to show as it is."""

    message = N_("Something went wrong with the class.")


class ClassUnavailable(ClassError):
    """The code names no open class: wrong, closed or expired alike, so codes cannot be probed."""

    message = N_("No open class has that code.")


class ClassEnded(ClassUnavailable):
    """The class was ended (or expired), said to someone who proved they belong to it (a resume code, a learner
    id): a stranger trying codes gets :class:`ClassUnavailable`, whatever the class's state. ``title`` is the
    class's title."""

    message = N_("This class has ended.")

    def __init__(self, message: str | None = None, *, title: str = "") -> None:
        super().__init__(message, **({"title": title} if message else {}))
        self.title = title


class TooManyAttempts(ClassError):
    """Too many wrong codes (class or resume codes) from one client in a minute, or in an hour."""

    message = N_("Too many wrong codes from this network. Wait a minute and try again.")


class NotTeacher(ClassError, PermissionError):
    """A teacher's action without the class's teacher secret (or for a code no class has)."""

    message = N_("That teacher link is not valid for this class.")


class UnknownLearner(ClassError):
    """A learner id or resume code that no learner of this class has."""

    message = N_("No learner in this class has that resume code.")


class VotingClosed(ClassError):
    """A vote for a poll or round that is not open."""

    message = N_("Voting on this question has closed.")


class NoPoll(ClassError):
    """A teacher's poll action while no question is posed."""

    message = N_("No question is posed to the class.")


class BadInput(ClassError, ValueError):
    """A value out of its bounds (a name too long, an answer not among the choices...); says which."""

    message = N_("That value cannot be used.")


class DatabaseUnavailable(ClassError, ConnectionError):
    """The database cannot be reached, or stayed busy past its timeout: nothing was changed; try again.

    ``str(error)`` is for anyone's screen; ``detail`` is for the operator (the server's log, the command line,
    scripts/serve): which database and what went wrong, never a password."""

    message = N_("The class database is busy or cannot be reached. Try again in a moment.")

    def __init__(self, message: str | None = None, *, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail or str(self)


class DatabaseBroken(DatabaseUnavailable):
    """The database cannot be used until someone who runs the lab mends it (a file that is damaged, not a
    database, a folder, read-only, on a full disk...): trying again will not help, and nothing was changed.
    ``detail`` says which file and what is wrong; the screen says only that, and who can see why."""

    message = N_("The class database on this server cannot be used, so classes are unavailable until it is mended. "
                 "Whoever runs the lab can see why in the server's log.")
