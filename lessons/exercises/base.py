"""What every answer operation shares: the error it raises, what it returns, the lab's tokenizers by name, its
arguments read and checked, text as a learner reads it, and options offered in an order that gives nothing away.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from i18n import _, _n
from tokenizer import TextTokenizer, Trace, train
from tokenizer.train import SHOWN_MAX_TIES, SHOWN_TABLE_SIZE


class ExerciseError(ValueError):
    """An exercise whose answer cannot be computed: the message names what is wrong."""


@dataclass(frozen=True)
class Computed:
    """What the engine computed for one exercise.

    ``answer``      the truth (a number, an option, the list of tokens, the options in order, an example word);
    ``options``     what a choice or an ordering offers (in a fixed order that gives nothing away);
    ``also_right``  other options as good as the answer (a pair tied with the winner);
    ``facts``       a sentence of computed facts to show with the truth (counts behind a choice…);
    ``check``       for kind "word": the rule a learner's word must meet, returning (right, what it does);
    ``exact``       for a number shown rounded (money to the paisa): the unrounded value, judged against;
    ``more``        (title, text): detail one click away under the facts (every token with its bytes, when the
                    facts lead with the words and their counts).
    """

    answer: Any
    options: tuple[str, ...] = ()
    also_right: tuple[Any, ...] = ()
    facts: str = ""
    check: Callable[[str], tuple[bool, str]] | None = field(default=None, compare=False)
    exact: Any = None
    more: tuple[str, str] | None = None


# -- tokenizers by name ------------------------------------------------------------------------------
@lru_cache(maxsize=32)
def preset_trace(preset_id: str) -> Trace:
    import lessons

    presets = lessons.presets()
    if preset_id not in presets:
        raise ExerciseError(f"there is no preset {preset_id!r} (known: {', '.join(presets)})")
    p = presets[preset_id]
    return train(p.corpus, p.merges, **p.config.to_dict(), table_size=SHOWN_TABLE_SIZE, max_ties=SHOWN_MAX_TIES)


def tokenizer_for(name: str) -> TextTokenizer:
    """A preset id (the lab's model) or a production tokenizer's name (``o200k_base``)."""
    import lessons

    if name in lessons.presets():
        return preset_trace(name).tokenizer
    from family import real

    if name in real.NAMES:
        try:
            return real.load(name)
        except real.TokenizerUnavailable as exc:
            raise ExerciseError(str(exc)) from None
    raise ExerciseError(f"there is no tokenizer {name!r}: use a preset id or one of {', '.join(real.NAMES)}")


def _pair(left: str, right: str) -> str:
    """A pair as a learner reads it, by the lab's display rules (a leading space as ·)."""
    from tokenizer.plaintext import pair_text

    return pair_text(left, right)


def _tokens_text(tokens) -> str:
    """The engine's tokens as a learner reads them in text, by the display rules the chips follow (letters in
    brackets after the bytes that make them, a vowel sign on ◌ and named, a space as ·)."""
    from tokenizer.plaintext import tokens_text

    return tokens_text([(t.label, t.bytes) for t in tokens])


def _tokens_facts(tokens, text: str) -> tuple[str, tuple[str, str] | None]:
    """The tokens for feedback: listed when every token is text (``Th | ick | ·fog``); when some are only bytes of a
    letter (a chip each, ``⟨E0 A4⟩``), the words and how many tokens each takes come first, and the tokens one by one
    with their bytes are one click away (``more``)."""
    from tokenizer.plaintext import tokens_by_word

    listed = _tokens_text(tokens)
    partial = sum(1 for t in tokens if not t.whole)
    by_word = tokens_by_word([(t.label, t.bytes) for t in tokens], text) if partial else None
    if by_word is None:
        return _("The tokens: {tokens}.", tokens=listed), None
    return (_("Word by word: {words}; ", words=by_word) + partly(partial, len(tokens)),
            (_n("The {n} token one by one, with their bytes", "The {n} tokens one by one, with their bytes",
                len(tokens)), listed))


def partly(partial: int, tokens: int) -> str:
    """"5 of the 69 tokens are only part of a character." in the reader's language."""
    of = _n("{n} token", "{n} tokens", tokens)
    return _n("{n} of the {of} is only part of a character.", "{n} of the {of} are only part of a character.",
              partial, of=of)


def _counts_text(c) -> str:
    return _("{code_points}, {graphemes}, {bytes}.", code_points=_n("{n} code point", "{n} code points", c.code_points),
             graphemes=_n("{n} grapheme cluster", "{n} grapheme clusters", c.graphemes),
             bytes=_n("{n} byte", "{n} bytes", c.bytes))


def _arg(args: dict, name: str, kind: type) -> Any:
    if name not in args:
        raise ExerciseError(f"the answer needs {name!r}")
    return _typed(args[name], name, kind)


def _opt(args: dict, name: str, kind: type, default: Any) -> Any:
    """An argument the answer may leave out (``default``), of the right type when it is there."""
    return _typed(args[name], name, kind) if name in args else default


def _typed(value: Any, name: str, kind: type) -> Any:
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ExerciseError(f"{name!r} must be a whole number, not {_shown(value)}")
    if kind is str and not isinstance(value, str):
        raise ExerciseError(f"{name!r} must be text, not {_shown(value)}")
    if kind is bool and not isinstance(value, bool):
        raise ExerciseError(f"{name!r} must be true or false, not {_shown(value)}")
    if kind is list and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
        raise ExerciseError(f"{name!r} must be a list of texts, not {_shown(value)}")
    if kind is dict and (not isinstance(value, dict) or not isinstance(value.get("op"), str)):
        raise ExerciseError(f"{name!r} must be a table naming its own 'op', not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."




def scrambled(items: list[str]) -> tuple[str, ...]:
    """``items`` in a fixed order that is never the right one (so offering them gives nothing away).

    >>> scrambled(["n + e", "ne + w", "new + s"]) != ("n + e", "ne + w", "new + s")
    True
    """
    import hashlib

    out = sorted(items, key=lambda item: hashlib.sha1(item.encode()).hexdigest())
    if out == list(items):
        out = out[1:] + out[:1]
    return tuple(out)
