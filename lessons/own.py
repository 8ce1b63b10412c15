"""A teacher's own questions: the kinds the lab can answer itself, each made into a lesson exercise.

A teacher picks a kind and fills in its blanks (a tokenizer, a text, a corpus and its settings); :func:`exercise`
makes the ``[[exercise]]`` table a lesson file would hold: the prompt in words, and ``answer = {op = ...}`` naming
the engine operation that computes it (:mod:`lessons.exercises`), never the answer itself. From there nothing is
new: :func:`lessons.course.exercise_from` reads it as it reads any lesson's exercise, the lab computes its answer
and options (``ui.questions.exercise_question``), judges guesses by the same rules (:mod:`lessons.judging`), and a
class poses it like any question. :func:`lesson_file` writes the class's questions as a lesson file that ``python
-m lessons check`` accepts and the Lessons page opens.

Each kind is one line of :data:`KINDS`: its name, what the teacher reads, the operation, the blanks it needs and
the prompt's words (every string a teacher or learner reads is here, in one place).

>>> table = exercise("count", {"tokenizer": "chai", "text": "chai"})
>>> table["answer"]
{'op': 'count_tokens', 'tokenizer': 'chai', 'text': 'chai'}
>>> print(table["prompt"])
How many tokens does the lab's model “D · chai stall” make of “chai”?
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from i18n import N_, Refusal, _, number
from tokenizer.model import UNIT_NAMES
from tokenizer.plaintext import readable_text

from .exercises import KIND_OF_OP, MAX_CORPUS_MERGES

MAX_OWN_TEXT = 300
"""The longest text (or corpus line) a teacher's question holds: a sentence or two, short enough to read on a
projector and to offer as a choice."""
MAX_OWN_CORPUS = 2_000
"""The longest corpus of a "which pair merges" question (a lesson file's own bound on a text an answer computes on)."""
MAX_OWN_QUESTIONS = 50
"""The most questions a class keeps of its teacher's own."""
MAX_CHOICE = 200
"""The longest choice a class poll offers (:data:`lessons.classroom.checks.MAX_ANSWER`)."""


@dataclass(frozen=True)
class OwnKind:
    """One kind of question a teacher may write: ``op`` computes its answer; ``blanks`` are what the teacher
    fills in (``tokenizer``, ``text``, ``texts``, ``corpus`` with ``unit``/``split``/``ties``/``step``);
    ``prompt`` is the question's words (``{tokenizer}`` is the tokenizer's title)."""

    name: str
    title: str
    op: str
    blanks: tuple[str, ...]
    prompt: str
    explain: str


KINDS: dict[str, OwnKind] = {k.name: k for k in (
    OwnKind("count", N_("How many tokens does a tokenizer make of a text?"), "count_tokens", ("tokenizer", "text"),
            N_("How many tokens does {tokenizer} make of “{text}”?"),
            N_("Counted by the lab with {tokenizer}.")),
    OwnKind("split", N_("Where does a tokenizer cut a text?"), "split_choice", ("tokenizer", "text"),
            N_("Where does {tokenizer} cut “{text}”? (A | marks each cut; · is a space.)"),
            N_("Cut by the lab with {tokenizer}; the other options are how other tokenizers, characters and words "
               "cut it.")),
    OwnKind("most", N_("Which text costs the most tokens?"), "most_tokens", ("tokenizer", "texts"),
            N_("Which of these costs the most tokens with {tokenizer}?"),
            N_("Counted by the lab with {tokenizer}.")),
    OwnKind("merge", N_("Which pair merges first in a corpus?"), "merge_at",
            ("corpus", "unit", "split", "ties", "step"),
            N_("In the corpus “{corpus}”, trained on {unit} split at {split}, which pair does merge {step} pick? "
               "Count each word as many times as it occurs."),
            N_("Trained by the lab on the corpus.")),
    OwnKind("bytes", N_("How many UTF-8 bytes is a text?"), "utf8_bytes", ("text",),
            N_("How many UTF-8 bytes is “{text}”?"),
            N_("Counted by the lab.")),
    OwnKind("characters", N_("How many characters (as a reader counts them) has a text?"), "graphemes", ("text",),
            N_("How many characters, as a reader counts them (grapheme clusters), has “{text}”?"),
            N_("Counted by the lab, by Unicode's rules for what a reader sees as one character.")),
)}
"""The kinds (their titles, prompts and explanations marked ``N_``: a question is written in the language of the
teacher who makes it, and kept as written)."""
SPLITS = {"whitespace": N_("spaces"), "regex": N_("the lab's pre-split pattern")}
TIES = {"first": N_("first seen"), "hf": N_("Hugging Face's order")}
OTHERS = ("cl100k_base", "o200k_base", "r50k_base", "chai")
"""The tokenizers whose cuts a "where does it cut" question offers against the right one (each only if it differs)."""


class OwnError(Refusal, ValueError):
    """A blank the teacher must fill in again: the message says which and why, for the teacher (a sentence marked
    ``N_`` with its fields apart, an :class:`i18n.Refusal`: ``error.said()`` draws it translated)."""


def tokenizer_title(name: str) -> str:
    """A tokenizer as a question names it: a preset's title, a real tokenizer's title, else its name."""
    import lessons

    presets = lessons.presets()
    if name in presets:
        return _("the lab's model “{title}”", title=presets[name].title)
    try:
        from family import real

        return next((info.title for info in real.catalogue() if info.name == name), name)
    except ImportError:
        return name


def _text(values: dict, name: str, limit: int, what: str) -> str:
    value = values.get(name)
    if not isinstance(value, str) or not value.strip():
        raise OwnError(N_("Write the {what} first."), what=what)
    value = value.strip()
    if len(value) > limit:
        raise OwnError(N_("The {what} is {n} characters long; a question holds at most {limit}."), what=what,
                       n=len(value), limit=limit)
    if any(ord(c) < 32 and c not in "\n\t" for c in value):
        raise OwnError(N_("The {what} has a control character in it."), what=what)
    return value


def arguments(kind: OwnKind, values: dict[str, Any]) -> dict[str, Any]:
    """The operation's arguments from the teacher's blanks, each checked (OwnError says which to fix)."""
    args: dict[str, Any] = {}
    if "tokenizer" in kind.blanks:
        name = values.get("tokenizer")
        if not isinstance(name, str) or not name:
            raise OwnError(N_("Choose a tokenizer."))
        args["tokenizer"] = name
    if "text" in kind.blanks:
        args["text"] = _text(values, "text", MAX_OWN_TEXT, N_("text"))
    if "texts" in kind.blanks:
        texts = [t.strip() for t in values.get("texts") or [] if isinstance(t, str) and t.strip()]
        if len(texts) < 2:
            raise OwnError(N_("Write at least two texts to compare."))
        if len(set(texts)) != len(texts):
            raise OwnError(N_("Two of the texts are the same: each must be different."))
        for t in texts:
            if len(t) > MAX_CHOICE:
                raise OwnError(N_("A text to compare holds at most {n} characters (it is also a choice)."),
                               n=MAX_CHOICE)
        args["texts"] = texts
    if "corpus" in kind.blanks:
        args["corpus"] = _text(values, "corpus", MAX_OWN_CORPUS, N_("corpus"))
        for blank, known, what in (("unit", UNIT_NAMES, N_("unit")), ("split", SPLITS, N_("place to split")),
                                   ("ties", TIES, N_("ties"))):
            value = values.get(blank) or next(iter(known))
            if value not in known:
                raise OwnError(N_("Choose the {what} from the list."), what=what)
            args[blank] = value
        step = values.get("step", 1)
        if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= MAX_CORPUS_MERGES:
            raise OwnError(N_("The merge to ask about is a number from 1 to {n}."), n=MAX_CORPUS_MERGES)
        args["step"] = step
    if kind.op == "split_choice":
        args["others"] = [o for o in OTHERS if o != args["tokenizer"]]
    return args


def _short(text: str, limit: int = 120) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def exercise(kind_name: str, values: dict[str, Any]) -> dict[str, Any]:
    """The ``[[exercise]]`` table for one question of ``kind_name`` with the teacher's blanks: ``id`` (named by
    what it asks, so the same question is the same id in every class and file), ``prompt``, ``answer`` (the
    operation and its arguments) and ``explain``. OwnError for a blank to fix."""
    kind = KINDS.get(kind_name)
    if kind is None:
        raise OwnError(N_("Choose a kind of question."))
    args = arguments(kind, values)
    # the text as the lab's display rules write a sentence (a line break as ↵, a tab as ⇥): a prompt is one line
    words = {"tokenizer": tokenizer_title(args.get("tokenizer", "")), "text": readable_text(args.get("text", "")),
             "corpus": readable_text(args.get("corpus", ""), 120),
             "unit": _(UNIT_NAMES[args["unit"]]) if "unit" in args else "",
             "split": _(SPLITS[args["split"]]) if "split" in args else "", "step": number(args.get("step", 1))}
    answer = {"op": kind.op, **args}
    digest = hashlib.sha1(json.dumps(answer, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:12]
    prompt = _(kind.prompt, **words)  # in the language of the teacher who writes it, and kept so
    if kind.op == "merge_at" and args.get("ties") == "hf":
        prompt += " " + _("(Ties: Hugging Face's order.)")
    assert KIND_OF_OP[kind.op]  # every kind's operation is one the lesson files know
    return {"id": f"q-{digest}", "prompt": prompt, "answer": answer, "explain": _(kind.explain, **words)}


def lesson_id(code: str) -> str:
    """The id of a class's own lesson: its questions are that lesson's exercises (``lesson:class-abc234:q-...``)."""
    return f"class-{code.lower()}"


def code_of(lesson: str) -> str | None:
    """The class code a class's own lesson id names, or None."""
    m = re.fullmatch(r"class-([a-z2-9]{6})", lesson)
    return m.group(1).upper() if m else None


# -- a lesson file: TOML front matter written by hand (the standard library reads TOML but does not write it) --
def _toml(value: Any) -> str:
    """``value`` as TOML: a basic string (every character that needs it escaped), a whole number, true/false, an
    array, or an inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        out = []
        for c in value:
            if c in '"\\':
                out.append("\\" + c)
            elif ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF:
                out.append(f"\\u{ord(c):04X}")
            else:
                out.append(c)
        return '"' + "".join(out) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"{type(value).__name__} has no TOML form here")


def lesson_file(code: str, title: str, exercises: list[dict[str, Any]]) -> str:
    """The class's own questions as a lesson file (front matter and a short text): ``python -m lessons check
    --course FILE`` accepts it, and the Lessons page opens it ("Open a lesson file")."""
    lines = ["+++", f"id = {_toml(lesson_id(code))}", f"title = {_toml(_short(title, 80) + ': our own questions')}",
             f"minutes = {max(5, min(240, 3 * len(exercises)))}",
             f"objectives = {_toml(['Predict what a tokenizer does with the texts of this class, then check it'])}",
             f"key_points = {_toml(['Every answer here is computed by the lab, when the question is asked'])}"]
    for ex in exercises:
        lines += ["", "[[exercise]]"] + [f"{k} = {_toml(ex[k])}" for k in ("id", "prompt", "answer", "explain")]
    lines += ["+++", f"Questions written for class {code}: predict each answer first; the lab computes it with its "
              "own tokenizers.", ""]
    return "\n".join(lines)


__all__ = ["KINDS", "MAX_OWN_CORPUS", "MAX_OWN_QUESTIONS", "MAX_OWN_TEXT", "OTHERS", "OwnError", "OwnKind", "SPLITS",
           "TIES", "arguments", "code_of", "exercise", "lesson_file", "lesson_id", "tokenizer_title"]
