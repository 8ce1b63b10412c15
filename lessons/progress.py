"""A learner's progress as a file: answers that survive a reload, a new machine and a change to the lab.

Every question the lab saves has a stable id (:class:`QuestionId`): a fixed name
for its family of questions (:data:`QUESTIONS`) and its parameters, kept as data
beside it: a lesson exercise is its lesson's id and its own declared id, never
its text; Train's "which pair does merge k pick?" is the run and k. The file
(version 2) lists the answers by those ids::

    {"format": "tokenization-lab/progress", "version": 2, "saved": "…",
     "answers": [{"question": "lesson-exercise",
                  "params": {"lesson": "bpe-training", "exercise": "chai-first-merge"},
                  "guess": "h + a", "right": true}, …]}

A version-1 file (answers keyed by strings that held the values,
``practice:count:chai:internet``) is read by :func:`migrate_v1_key`, the one
place a question's parameters are read out of a string.

Nothing in a file is believed: only the ids and the guesses are read. A file
that is not a progress file (not text, not JSON, another format or version, too
big) is refused whole, with a message saying what is wrong; an answer that is
damaged (no guess, a guess no question takes, an id no question of the lab has)
is refused on its own and named. The guesses read are then checked against
their questions and judged again by the lab (:func:`check`, with the judging
rules of :mod:`lessons.judging`): a file's ``right`` is never used.

>>> store = {"lesson:bpe-training:chai-first-merge": {"guess": "h + a", "right": True, "scope": "bpe-training",
...          "id": QuestionId.of(LESSON_EXERCISE, lesson="bpe-training", exercise="chai-first-merge")}}
>>> [(qid.key, guess) for qid, guess in from_json(to_json(store)).answers]
[('lesson:bpe-training:chai-first-merge', 'h + a')]
"""

from __future__ import annotations

import enum
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, Final

from .answers import ANSWER_KINDS, MAX_TEXT, short_pieces
from .judging import Question, fits, judge

FORMAT = "tokenization-lab/progress"
VERSION = 2
READS = (1, 2)
"""The file versions this lab reads: version 1 through :func:`migrate_v1_key`."""
MAX_BYTES = 2_000_000
MAX_ANSWERS = 10_000
MAX_KEY = 300

_NAME = r"[\w.\-]{1,100}"
_HEX16, _HEX12 = r"[0-9a-f]{16}", r"[0-9a-f]{12}"


@dataclass(frozen=True)
class QuestionFamily:
    """A family of questions the lab saves (asked alike, told apart by their parameters; not a question's answer
    kind, which is :attr:`lessons.judging.Question.kind`): its fixed name in files, its parameters and the shape
    each takes (a regex; ``int``: a whole number from 0 to 10**30 - 1, any count a page may hold, from a link too), its key in
    the session (a template of its parameters; the version-1 key), where it is asked, and, for a question made
    from the learner's own input that cannot be rebuilt from its parameters, the answer kind its guesses have (it
    waits for its page)."""

    name: str
    params: tuple[tuple[str, str], ...]
    key: str
    page: str
    title: str
    waits: str = ""
    scope: str = ""

    def matches(self, params: dict[str, Any]) -> bool:
        if set(params) != {p for p, _ in self.params}:
            return False
        for name, shape in self.params:
            value = params[name]
            if shape == "int":
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**30:
                    return False
            elif not isinstance(value, str) or not re.fullmatch(shape, value):
                return False
        return True

    @cached_property
    def key_pattern(self) -> re.Pattern:
        """The template as a regex with a group per parameter (to read a version-1 key)."""
        shapes = dict(self.params)
        parts = re.split(r"\{(\w+)\}", self.key)
        regex = "".join(re.escape(p) if i % 2 == 0 else
                        f"(?P<{p}>{r'[0-9]{1,30}' if shapes[p] == 'int' else shapes[p]})"
                        for i, p in enumerate(parts))
        return re.compile(regex)


LESSON_EXERCISE = "lesson-exercise"
PRACTICE_MERGE = "practice-merge"
PRACTICE_COUNT = "practice-count"
EVH_DIRECTION = "english-hindi-direction"
TRAIN_MERGE = "train-next-merge"
TOKENIZE_COUNT = "tokenize-count"
STREAMING_WHOLE = "streaming-whole"
QUIRKS_JOIN = "quirks-join-count"
COST_FIT = "cost-articles-fit"
ENCODE_MERGE = "encode-next-merge"

QUESTIONS: dict[str, QuestionFamily] = {f.name: f for f in (
    QuestionFamily(LESSON_EXERCISE, (("lesson", _NAME), ("exercise", _NAME)), "lesson:{lesson}:{exercise}", "Lessons",
        "a lesson exercise"),
    QuestionFamily(PRACTICE_MERGE, (("preset", r"[\w-]{1,40}"), ("step", "int")), "practice:merge:{preset}:{step}",
        "Lessons", "a practice question: which pair merges next"),
    QuestionFamily(PRACTICE_COUNT, (("preset", r"[\w-]{1,40}"), ("word", r"[a-z]{1,60}")), "practice:count:{preset}:{word}",
        "Lessons", "a practice question: how many tokens"),
    QuestionFamily(EVH_DIRECTION, (("sentence", r"hindi|english"),), "evh.{sentence}", "English vs Hindi",
        "English vs Hindi: which way a count moves"),
    QuestionFamily(TRAIN_MERGE, (("run", _HEX16), ("step", "int")), "train:{run}:{step}", "Train step by step",
        "Train: which pair merges next", waits="choice", scope="train"),
    QuestionFamily(TOKENIZE_COUNT, (("tokenizer", r"[\w.:\-]{1,80}"), ("text", _HEX12)), "tokenize:{tokenizer}:{text}",
        "Tokenize anything", "Tokenize: how many tokens", waits="number", scope="tokenize"),
    QuestionFamily(STREAMING_WHOLE, (("run", _HEX16), ("token", "int")), "streaming-page:{run}:{token}", "Streaming",
        "Streaming: whole characters or not", waits="choice", scope="streaming-page"),
    QuestionFamily(QUIRKS_JOIN, (("run", _HEX16),), "quirks-page:join:{run}", "Quirks",
        "Quirks: the joined prompt's count", waits="number", scope="quirks-page"),
    QuestionFamily(ENCODE_MERGE, (("tokenizer", r"[\w.:\-]{1,80}"), ("text", _HEX12), ("step", "int")),
        "encode:{tokenizer}:{text}:{step}", "Encode step by step", "Encode: which pair merges next",
         waits="choice", scope="encode"),
    QuestionFamily(COST_FIT, (("window", "int"), ("output_cap", "int"), ("margin", "int"), ("each", "int")),
        "cost.fit.{window}.{output_cap}.{margin}.{each}", "Cost and context",
        "Cost: how many articles fit", scope="cost"),
)}
"""Every family of questions whose answers are saved, by its fixed name. Renaming one orphans saved files: add a
new name and read the old one, as :func:`migrate_v1_key` reads version 1."""


@dataclass(frozen=True)
class QuestionId:
    """A question's stable name: its family's fixed name (:data:`QUESTIONS`) and its parameters, as data.

    >>> qid = QuestionId.of(PRACTICE_COUNT, preset="chai", word="internet")
    >>> qid.key, qid.param("word"), qid.as_json()
    ('practice:count:chai:internet', 'internet', {'question': 'practice-count', 'params': {'preset': 'chai', 'word': 'internet'}})
    """

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, name: str, **params: Any) -> QuestionId:
        family = QUESTIONS.get(name)
        if family is None or not family.matches(params):
            raise ValueError(f"{name!r} with {params!r} is not a question id of this lab.")
        return cls(name, tuple((p, params[p]) for p, _ in family.params))

    @property
    def family(self) -> QuestionFamily:
        """The family the question belongs to (its answer kind is the question's own: ``Question.kind``)."""
        return QUESTIONS[self.name]

    def param(self, name: str) -> Any:
        return dict(self.params)[name]

    @property
    def key(self) -> str:
        """The question's key in the browser session (its widgets and the predict store)."""
        return self.family.key.format(**dict(self.params))

    def as_json(self) -> dict[str, Any]:
        return {"question": self.name, "params": dict(self.params)}


def migrate_v1_key(key: str) -> QuestionId | None:
    """A version-1 file's key read as the question id it names; None when it names none of the lab's families.

    >>> migrate_v1_key("practice:merge:low:2")
    QuestionId(name='practice-merge', params=(('preset', 'low'), ('step', 2)))
    >>> migrate_v1_key("evh.hindi").as_json(), migrate_v1_key("made-up")
    ({'question': 'english-hindi-direction', 'params': {'sentence': 'hindi'}}, None)
    """
    for family in QUESTIONS.values():
        if m := family.key_pattern.fullmatch(key):
            shapes = dict(family.params)
            params = {p: int(v) if shapes[p] == "int" else v for p, v in m.groupdict().items()}
            return QuestionId.of(family.name, **params)
    return None


def describe(qid: QuestionId | str) -> str:
    """An answer's question as a learner reads it: a lesson exercise by its lesson and number (or by its ids when
    the course no longer has it), another by its family and parameters, a key no question has quoted.

    >>> describe(QuestionId.of(LESSON_EXERCISE, lesson="bpe-training", exercise="xylophone-tokens"))
    'Lesson 2, exercise 6 (xylophone-tokens)'
    >>> describe(QuestionId.of(LESSON_EXERCISE, lesson="bpe-training", exercise="gone")), describe("made-up")
    ('exercise “gone” of lesson “bpe-training”', '“made-up”')
    """
    if isinstance(qid, str):
        return f"“{qid[:80]}{'…' if len(qid) > 80 else ''}”"
    if qid.name == LESSON_EXERCISE:
        from .course import course

        lesson, ex_id = qid.param("lesson"), qid.param("exercise")
        for each in course().lessons:
            for number, exercise in enumerate(each.exercises, start=1):
                if exercise.lesson == lesson and ex_id in (exercise.id, *exercise.former_ids):
                    return f"Lesson {each.number}, exercise {number} ({exercise.id})"
        return f"exercise “{ex_id}” of lesson “{lesson}”"
    shown = ", ".join(f"{p} {v}" for p, v in qid.params)
    return f"{qid.family.title} ({shown})" if shown else qid.family.title


@dataclass
class Loaded:
    """What a progress file holds: its guesses by question id, the answers refused as (which, why), and the
    version it was written in."""

    answers: list[tuple[QuestionId, Any]] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    version: int = VERSION


def to_json(answers: dict[str, dict[str, Any]]) -> str:
    """The session's answers as the progress file's text: each first answer by its question's id (an answer to
    a question with no id is the session's only, and not written)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "saved": datetime.now(UTC).isoformat(timespec="seconds"),
        "answers": [entry["id"].as_json() | {"guess": entry.get("guess"), "right": entry.get("right")}
                    for entry in answers.values() if isinstance(entry.get("id"), QuestionId)],
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def guess_problem(guess: Any) -> str | None:
    """None when ``guess`` is something an answer can be (text, a finite number, a list of short texts), else why
    not. Whether it fits its question is checked later, by the question's answer kind (:func:`check`).

    >>> guess_problem("h + a"), guess_problem(3), guess_problem({"x": 1}), guess_problem(float("nan"))
    (None, None, 'the guess is not text, a number or a list of texts', 'the guess is not a finite number')
    """
    if isinstance(guess, bool) or guess is None:
        return "there is no guess" if guess is None else "the guess is true/false, which no question takes"
    if isinstance(guess, str):
        return None if len(guess) <= MAX_TEXT else f"the guess is longer than {MAX_TEXT:,} characters"
    if isinstance(guess, int):
        return None if abs(guess) < 10**18 else "the guess is too big a number"
    if isinstance(guess, float):
        return None if math.isfinite(guess) else "the guess is not a finite number"
    if isinstance(guess, list):
        return None if short_pieces(guess) else "the guess is a list, but not of short texts"
    return "the guess is not text, a number or a list of texts"


NO_QUESTION = "this lab has no such question (it may have been renamed or removed)"


def _read_id(entry: dict) -> QuestionId | str:
    """A version-2 answer's question id, or why it names no question of the lab."""
    name, params = entry.get("question"), entry.get("params", {})
    if not isinstance(name, str) or not isinstance(params, dict):
        return "it does not name its question"
    family = QUESTIONS.get(name)
    if family is None or not family.matches(params):
        return NO_QUESTION
    return QuestionId.of(name, **params)


def _shown(entry: Any) -> str:
    """A damaged version-2 answer named for a message, from what it says of its question."""
    if isinstance(entry, dict) and isinstance(entry.get("question"), str):
        params = entry.get("params")
        shown = ", ".join(f"{k} {v}" for k, v in params.items())[:80] if isinstance(params, dict) else ""
        return f"“{entry['question'][:80]}{f' ({shown})' if shown else ''}”"
    return "an answer with no question"


def from_json(data: bytes | str) -> Loaded:
    """The guesses in a progress file by question id (and the damaged answers, refused), or ValueError saying
    why the whole file cannot be used. Reads version 2, and version 1 through :func:`migrate_v1_key`."""
    parsed = _parsed(_text_of(data))
    version = _version_of(parsed)
    answers = _answers_of(parsed, version)
    loaded = Loaded(version=version)
    if isinstance(answers, dict):  # version 1
        read = ((_v1_id(key), entry) for key, entry in answers.items())
    else:
        read = ((_v2_id(entry), entry) for entry in answers)
    for (qid, shown), entry in read:
        if isinstance(qid, str):  # the reason it names no question
            loaded.refused.append((shown, qid))
            continue
        if not isinstance(entry, dict) or "guess" not in entry:
            loaded.refused.append((shown, "it has no guess"))
            continue
        problem = guess_problem(entry["guess"])
        if problem:
            loaded.refused.append((shown, problem))
            continue
        loaded.answers.append((qid, entry["guess"]))
    return loaded


def _text_of(data: bytes | str) -> str:
    """The file's text: at most MAX_BYTES, UTF-8 (a byte order mark dropped)."""
    if len(data) > MAX_BYTES:
        raise ValueError("This file is far bigger than a progress file from this lab.")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("This file is not text (not UTF-8), so it is not a progress file from this lab.") from None


def _parsed(text: str) -> dict:
    """The file's JSON object, which says it is a progress file of the lab."""
    try:
        parsed = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise ValueError("This file is not valid JSON: it may be damaged, or not a progress file.") from None
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise ValueError("This is not a progress file from the Tokenization Lab.")
    return parsed


def _version_of(parsed: dict) -> int:
    """The file's format version, one this lab reads."""
    version = parsed.get("version")
    if isinstance(version, bool) or version not in READS:
        shown = repr(version) if isinstance(version, (int, float, bool, type(None))) else "unknown"
        raise ValueError(f"This progress file has version {shown[:20]}; this lab reads versions "
                         f"{' and '.join(map(str, READS))}.")
    return int(version)


def _answers_of(parsed: dict, version: int) -> dict | list:
    """The answers: a table by key (version 1) or a list (version 2), at most MAX_ANSWERS of them."""
    answers = parsed.get("answers")
    if not isinstance(answers, dict if version == 1 else list):
        raise ValueError("This progress file's answers are damaged (expected a "
                         f"{'table' if version == 1 else 'list'} of answers).")
    if len(answers) > MAX_ANSWERS:
        raise ValueError(f"This progress file holds {len(answers):,} answers; a progress file from this lab holds "
                         f"at most {MAX_ANSWERS:,}.")
    return answers


def _v1_id(key: str) -> tuple[QuestionId | str, str]:
    """A version-1 answer's question (or why there is none), and how a refusal names it."""
    if not key or len(key) > MAX_KEY:
        return "its name is empty or far too long", describe(key[:MAX_KEY])
    qid: QuestionId | str = migrate_v1_key(key) or NO_QUESTION
    return qid, describe(key) if isinstance(qid, str) else describe(qid)


def _v2_id(entry: Any) -> tuple[QuestionId | str, str]:
    """A version-2 answer's question (or why there is none), and how a refusal names it."""
    qid = _read_id(entry) if isinstance(entry, dict) else "it is not an answer"
    return qid, describe(qid) if isinstance(qid, QuestionId) else _shown(entry)


class Waits(enum.Enum):
    WAITS = "waits"


WAITS: Final = Waits.WAITS
"""What a resolver returns for a question made from the learner's own input: it waits for its page."""
Resolver = Callable[[QuestionId], "Question | Waits | None"]


def check(answers: list[tuple[QuestionId, Any]], resolve: Resolver,
          errors: tuple[type[Exception], ...] = ()) -> tuple[dict[str, dict], list[tuple[str, str]]]:
    """Each loaded guess checked against its question, with the judging rules (:mod:`lessons.judging`):
    (store entries by question key for those that fit, judged by the lab, or waiting; refused (which, why)).

    ``resolve(qid)`` is the question as the lab asks it now (rebuilt with the engine's answer), or
    :data:`WAITS` for a question of a family that waits for its page (only its guess's type is checked), or
    None when the lab has no such question (any more); ``errors`` are the exceptions it raises when a question
    exists but cannot be computed here. An answer given twice in the file counts once (the first)."""
    entries: dict[str, dict] = {}
    refused: list[tuple[str, str]] = []
    for qid, guess in answers:
        try:
            q = resolve(qid)
        except errors as exc:
            refused.append((describe(qid), f"its question cannot be computed here ({exc})"))
            continue
        if q is None or (q is WAITS and not qid.family.waits):
            refused.append((describe(qid), NO_QUESTION))
            continue
        if q is WAITS:  # the question is not known yet: only the guess's shape, by its answer kind
            family = qid.family
            problem = ANSWER_KINDS[family.waits].fits(None, guess)
            key, entry = qid.key, {"guess": guess, "right": None, "scope": family.scope, "id": qid}
        else:
            problem = fits(q, guess)
            key, entry = q.key, {"guess": guess, "right": judge(q, guess)[0], "scope": q.scope, "id": q.id or qid}
        if problem:
            refused.append((describe(qid), problem))
        elif key not in entries:
            entries[key] = entry
    return entries, refused


def merge(current: dict[str, dict[str, Any]], loaded: dict[str, dict[str, Any]]) -> tuple[dict, list[str], list[str]]:
    """Loaded answers added to the current ones; an answer already given here stays (the first counts), and
    nothing current is changed. Returns the merged answers, the keys added and the keys kept as they were."""
    merged = dict(current)
    added, kept = [], []
    for key, entry in loaded.items():
        if key in merged:
            kept.append(key)
        else:
            merged[key] = entry
            added.append(key)
    return merged, added, kept


__all__ = ["COST_FIT", "EVH_DIRECTION", "FORMAT", "LESSON_EXERCISE", "Loaded", "MAX_ANSWERS", "MAX_BYTES",
           "NO_QUESTION", "PRACTICE_COUNT", "PRACTICE_MERGE", "QUESTIONS", "QUIRKS_JOIN", "QuestionFamily", "QuestionId", "READS",
           "STREAMING_WHOLE", "TOKENIZE_COUNT", "TRAIN_MERGE", "VERSION", "WAITS", "check", "describe", "from_json",
           "guess_problem", "merge", "migrate_v1_key", "to_json"]
