"""The bounds of what a class keeps, checked where it comes in: codes, names, titles, questions, answers.

Text is kept as typed (NFC-normalised, stripped), never interpreted: it goes to the database as a parameter
and back out as text. Control characters are refused (they could hide text or break a CSV line); the zero
width joiner and non-joiner are kept, as Devanagari and other scripts need them.
"""

from __future__ import annotations

import ipaddress
import json
import re
import secrets
import unicodedata
from typing import Any

from i18n import N_

from ..answers import MAX_TEXT
from ..progress import MAX_ANSWERS, MAX_KEY
from .errors import BadInput, ClassUnavailable

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Class and resume codes: capitals and digits without look-alikes (no 0/O, 1/I/L)."""
CODE_LENGTH = 6
RESUME_LENGTH = 16
"""A resume code makes whoever types it that learner, so it is long enough that guessing is hopeless at any rate
the server allows: 31**16 = 7.3e23 codes (79 bits). Shown in groups of four (``ABCD-EFGH-JKMN-PQRS``); see
README, "Classes: the data", for the arithmetic."""
LEGACY_RESUME_LENGTH = 8
"""Resume codes given before issue 23 (31**8): still accepted for the learners who hold one, never given again."""
MAX_NAME = 40
MAX_TITLE = 80
MAX_ANSWER = 200
"""The longest poll answer (a choice or a typed prediction)."""
MAX_TRUTH = MAX_TEXT
MAX_QUESTION_BYTES = 4096
"""A posed question as JSON (UTF-8), at most: a prompt, a few choices and a link fit many times over."""
MAX_CHOICES = 50
MAX_EXPIRES_DAYS = 365
MAX_ROUNDS = 5
MAX_ATTEMPTS = 100
"""The most answers a learner keeps for one question (the first counts; the rest are retries)."""
MAX_QUESTIONS = MAX_ANSWERS
"""The most questions a learner keeps answers to (as many as a progress file holds)."""
MAX_LEARNERS = 1000
"""The most learners in one class (the 400-learner plan fits 2.5 times)."""
MAX_POLLS = 1000
"""The most questions posed to one class."""
MAX_BROWSERS = 20
"""The most teacher's browsers one class remembers (a teacher's laptop, the projector...): a 21st replaces the oldest."""
MAX_VOTES = 20
"""The most votes a learner sends in one round (changing their mind 19 times)."""
_JOINERS = {"\u200c", "\u200d"}
_ID = re.compile(r"[A-Za-z0-9_\-]{8,64}")


def new_code(length: int = CODE_LENGTH) -> str:
    """A random code of ``length`` characters from :data:`ALPHABET` (``secrets``, not ``random``)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def class_code(value: Any) -> str:
    """``value`` as a class code (spaces and dashes dropped, capitals); ClassUnavailable if it cannot be one."""
    code = normal_code(value, CODE_LENGTH)
    if code is None:
        raise ClassUnavailable()
    return code


def normal_code(value: Any, length: int) -> str | None:
    """``value`` as a code of ``length`` characters, as a person may type it (``abc-234``); None if not one."""
    if not isinstance(value, str) or len(value) > 2 * length + 8:
        return None
    code = re.sub(r"[\s\-]", "", value).upper()
    return code if len(code) == length and all(c in ALPHABET for c in code) else None


def resume_code(value: Any) -> str | None:
    """``value`` as a resume code (16 characters, or a learner's older 8), as a person types it; None if not one."""
    return normal_code(value, RESUME_LENGTH) or normal_code(value, LEGACY_RESUME_LENGTH)


def shown_resume(code: str) -> str:
    """A resume code as a learner reads and types it: groups of four (``ABCD-EFGH-JKMN-PQRS``)."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


def limit_key(client: Any) -> str:
    """What the join limit counts a client by: an IPv4 address as it is; an IPv6 address by its /64 network (one
    household or school network; an attacker gets a whole /64 as easily as one address); anything else (a key a
    caller made) as text, at most 200 characters."""
    text_value = str(client)[:200]
    try:
        address = ipaddress.ip_address(text_value.strip())
    except ValueError:
        return text_value
    if address.version == 6:
        if address.ipv4_mapped is not None:  # ::ffff:203.0.113.9 is 203.0.113.9
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def text(value: Any, what: str, limit: int, *, empty: bool = False) -> str:
    """``value`` as kept text: a string, NFC, stripped, at most ``limit`` characters, no control characters."""
    if not isinstance(value, str):
        raise BadInput(N_("The {what} must be text."), what=what)
    if len(value) > 4 * limit + 100:  # far too long: refused before any work on it
        raise BadInput(N_("The {what} is longer than {limit} characters."), what=what, limit=limit)
    value = unicodedata.normalize("NFC", value).strip()
    if not value and not empty:
        raise BadInput(N_("The {what} is empty."), what=what)
    if len(value) > limit:
        raise BadInput(N_("The {what} is longer than {limit} characters."), what=what, limit=limit)
    if any(_is_control(c) for c in value):
        raise BadInput(N_("The {what} has a control character in it."), what=what)
    return value


def _is_control(char: str) -> bool:
    category = unicodedata.category(char)
    return category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") or (category == "Cf" and char not in _JOINERS)


def name(value: Any) -> str:
    """A learner's name: 1 to 40 characters."""
    return text(value, N_("name"), MAX_NAME)


def title(value: Any) -> str:
    """A class's title: 1 to 80 characters."""
    return text(value, N_("title"), MAX_TITLE)


def expires_days(value: Any) -> int:
    """Days a class lasts: a whole number from 1 to 365."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_EXPIRES_DAYS:
        raise BadInput(f"A class lasts a whole number of days from 1 to {MAX_EXPIRES_DAYS}, not {value!r}.")
    return value


def token(value: Any, what: str) -> str:
    """An id the lab or a learner's screen made (a learner id, a vote id: letters, digits, - and _)."""
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise BadInput(N_("The {what} is not one the lab makes."), what=what)
    return value


def poll_ref(poll_id: Any, round: Any = 1) -> tuple[str, int] | None:
    """(poll id, round) if they can name a round of a poll the lab made (ids are text it made, rounds 1 to
    :data:`MAX_ROUNDS`), else None: nothing else reaches a query."""
    if not isinstance(poll_id, str) or not _ID.fullmatch(poll_id):
        return None
    if isinstance(round, bool) or not isinstance(round, int) or not 1 <= round <= MAX_ROUNDS:
        return None
    return poll_id, round


def question(value: Any) -> tuple[str, str]:
    """A posed question: (its id, the question as JSON). It is a dict with a text ``id``, ``prompt`` and
    ``kind``, ``choices`` (a list of distinct texts, or None) and ``where`` (a path in the lab such as
    ``/Train?preset=chai``, or ""; never another site); other keys
    are kept as they are; all of it at most 4 KB of JSON."""
    if not isinstance(value, dict):
        raise BadInput("A question is a dict.")
    try:
        data = json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError):  # RecursionError: nested deeper than JSON can be written
        raise BadInput("A question must be plain JSON (text, numbers, lists, dicts).") from None
    if len(data.encode("utf-8")) > MAX_QUESTION_BYTES:
        raise BadInput(f"A question is at most {MAX_QUESTION_BYTES:,} bytes as JSON.")
    qid = text(value.get("id"), "question id", MAX_KEY)
    text(value.get("prompt"), "question's prompt", MAX_QUESTION_BYTES)
    text(value.get("kind"), "question's kind", 40)
    where = text(value.get("where", ""), "question's link", 1000, empty=True)
    if where and (not where.startswith("/") or where.startswith("//") or "\\" in where):
        raise BadInput("A question's link is a path in the lab (it starts with one /), or empty.")
    choices = value.get("choices")
    if choices is not None:
        if not isinstance(choices, list) or not 1 <= len(choices) <= MAX_CHOICES:
            raise BadInput(f"A question's choices are a list of 1 to {MAX_CHOICES} texts, or None.")
        kept = [text(c, "choice", MAX_ANSWER) for c in choices]
        if len(set(kept)) != len(kept) or kept != choices:
            raise BadInput("A question's choices must be distinct texts without surrounding spaces.")
    return qid, data


MAX_OWN_QUESTIONS = 50
"""The most questions of its teacher's own a class keeps."""
MAX_OWN_BYTES = 8192
"""A teacher's own question as JSON (UTF-8), at most: its corpus (2,000 characters) fits with room to spare."""
_EXERCISE_ID = re.compile(r"q-[0-9a-f]{12}")


def own_question(value: Any) -> tuple[str, str]:
    """A teacher's own question (its ``[[exercise]]`` table, :func:`lessons.own.exercise`): (its id, the table
    as JSON). Its id has the shape lessons.own gives; the table is plain JSON of at most 8 KB whose ``answer``
    names an operation; whether that computes is the lab's to say when it is asked (lessons.exercises)."""
    if not isinstance(value, dict) or not _EXERCISE_ID.fullmatch(str(value.get("id", ""))):
        raise BadInput("A question of the teacher's own is a lesson exercise with an id the lab made.")
    try:
        data = json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        raise BadInput("A question must be plain JSON (text, numbers, lists, dicts).") from None
    if len(data.encode("utf-8")) > MAX_OWN_BYTES:
        raise BadInput(f"A question is at most {MAX_OWN_BYTES:,} bytes as JSON.")
    text(value.get("prompt"), "question's prompt", MAX_QUESTION_BYTES)
    answer_ = value.get("answer")
    if not isinstance(answer_, dict) or not isinstance(answer_.get("op"), str):
        raise BadInput("A question's answer names the operation that computes it.")
    return value["id"], data


def answer(value: Any, choices: list[str] | None) -> str:
    """A poll answer: text of at most 200 characters, one of the choices when the question has some."""
    kept = text(value, N_("answer"), MAX_ANSWER)
    if choices is not None and kept not in choices:
        raise BadInput(N_("That answer is not one of the question's choices."))
    return kept
