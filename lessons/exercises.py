"""Exercise answers, computed by the engine when they are asked: never typed into a lesson file.

A lesson file names an operation and its arguments (``answer = {op = "count_tokens",
tokenizer = "readers", text = "xylophone"}``); :func:`compute` runs it with the
lab's tokenizers and returns the answer, and for a choice or an ordering the
options to offer. Every operation is small and says in its docstring what it
computes, so the lesson checker (``python -m lessons check``) can run them all.

>>> compute("count_tokens", {"tokenizer": "readers", "text": "xylophone"}).answer
9
>>> compute("merge_at", {"preset": "chai", "step": 1}).answer
'h + a'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any

from analyses.measure import measure
from analyses.textstats import text_counts
from tokenizer import TextTokenizer, Trace, train
from tokenizer.labels import is_whole, plural
from tokenizer.train import SHOWN_MAX_TIES, SHOWN_TABLE_SIZE

from .answers import KINDS  # the answer kinds: one home, with how each is judged


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
        return f"The tokens: {listed}.", None
    return (f"Word by word: {by_word}; {partial:,} of the {plural(len(tokens), 'token')} "
            f"{'is' if partial == 1 else 'are'} only part of a character."), (
        f"The {plural(len(tokens), 'token')} one by one, with their bytes", listed)


def _counts_text(c) -> str:
    return f"{plural(c.code_points, 'code point')}, {plural(c.graphemes, 'grapheme cluster')}, {plural(c.bytes, 'byte')}."


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


# -- operations ---------------------------------------------------------------------------------------
def op_count_tokens(args: dict) -> Computed:
    """How many tokens ``text`` is with ``tokenizer``."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    tokens = tok.encode_tokens(text)
    facts, more = _tokens_facts(tokens, text)
    return Computed(len(tokens), facts=facts, more=more)


def op_split(args: dict) -> Computed:
    """The tokens of ``text`` with ``tokenizer``, as their labels (the learner types them separated by |)."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    from tokenizer.plaintext import visible_token

    tokens = tok.encode_tokens(_arg(args, "text", str))
    shown = [visible_token(t.label) for t in tokens]
    readable = _tokens_text(tokens)  # says more than the pieces when a token is part of a letter or a lone mark
    return Computed(shown, facts="" if readable == " | ".join(shown) else f"The tokens: {readable}.")


def op_utf8_bytes(args: dict) -> Computed:
    """How many UTF-8 bytes ``text`` takes."""
    c = text_counts(_arg(args, "text", str))
    return Computed(c.bytes, facts=_counts_text(c))


def op_code_points(args: dict) -> Computed:
    """How many Unicode code points ``text`` has (what Python's len counts)."""
    text = _arg(args, "text", str)
    names = ", ".join(unicodedata.name(ch, f"U+{ord(ch):04X}").lower() for ch in text[:8])
    return Computed(len(text), facts=f"The code points: {names}.")


def op_graphemes(args: dict) -> Computed:
    """How many user-perceived characters (grapheme clusters) ``text`` has."""
    return Computed(text_counts(_arg(args, "text", str)).graphemes)


def op_whitespace_pieces(args: dict) -> Computed:
    """How many pieces ``str.split()`` cuts ``text`` into (words with their punctuation glued on)."""
    from tokenizer import split_text

    pieces = split_text(_arg(args, "text", str), "whitespace")
    return Computed(len(pieces), facts="The pieces: " + " | ".join(pieces) + ".")


def op_partial_tokens(args: dict) -> Computed:
    """How many of ``text``'s tokens with ``tokenizer`` are not whole characters on their own."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    m = measure(tok, text)
    return Computed(m.partial, facts=f"{m.partial:,} of the {plural(m.tokens, 'token')} {'is' if m.partial == 1 else 'are'} only part of a character.")


def op_tokens_per_word(args: dict) -> Computed:
    """Tokens per word (one decimal) of ``text`` with ``tokenizer``."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    m = measure(tok, text)
    facts, more = _tokens_facts(tok.encode_tokens(text), text)
    return Computed(round(m.tokens_per_word, 1), facts=f"{plural(m.tokens, 'token')} for {plural(m.words, 'word')}. "
                    + facts, more=more)


MAX_LISTED_TIES = 5  # tied pairs named in the tie sentence


def times(n: int) -> str:
    return plural(n, "time")


def tie_explanation(trace: Trace, k: int) -> str:
    """The tie at merge k and the rule that broke it, in plain words (plain text): Train's "why this pair", and
    the facts of a "which pair merges" question on a corpus of the teacher's own."""
    from tokenizer.plaintext import join_words, visible_token

    s = trace.steps[k - 1]
    winner = _pair(s.left, s.right)
    if s.n_tied <= 1:
        runner = next((pc for pc in s.table if pc.pair != s.pair), None)
        if runner is None:
            return f"No tie: {winner} is the only pair left."
        return (
            f"No tie: {winner} was seen {times(s.count)}, more than any other pair "
            f"(next best: {_pair(runner.left, runner.right)}, {times(runner.count)})."
        )
    names = [_pair(t.left, t.right) for t in s.ties[:MAX_LISTED_TIES]]
    more = s.n_tied - len(names)
    listed = join_words(names, more) + ("" if not more else " pair" if more == 1 else " pairs")
    both = "both" if s.n_tied == 2 else "all"
    head = f"Tie: {listed} were {both} seen {times(s.count)}."
    if trace.config.ties == "hf":
        numbered = ", ".join(
            f"{_pair(t.left, t.right)} is ({trace.hf_number(t.pair[0])}, {trace.hf_number(t.pair[1])})"
            for t in s.ties[:MAX_LISTED_TIES]
        )
        return (
            f"{head} Rule 'hf', the order of Hugging Face tokenizers: number the base symbols in sorted order "
            f"(bytes by the printable character that stands for each), and merged tokens after them in the order "
            f"they were made. The tied pair whose left token has the smallest number wins (then the smallest "
            f"right number). Here {numbered}. So {winner} wins."
        )
    if s.first_seen is None:
        return f"{head} Rule 'first seen': the tied pair met first, reading the words in order, wins: {winner}."
    w, position = s.first_seen
    shown = [visible_token(word) for word, _ in trace.words[: max(3, w + 1)][:6]]
    words = ", ".join(shown) + (", …" if len(trace.words) > len(shown) else "")
    word = visible_token(trace.words[w][0])
    where = f"as the very first pair of “{word}”" if position == 0 and w == 0 else f"in “{word}”"
    return (
        f"{head} Rule 'first seen': read the words in the order they first appear ({words}), each left to "
        f"right; the tied pair met first wins. {winner} is met first, {where}. So it wins."
    )


MAX_CORPUS_MERGES = 50
"""The most merges a "which pair merges" question trains on a corpus given in the question itself."""


def _corpus_trace(args: dict, step: int) -> Trace:
    """The trace of ``step`` merges on the question's own ``corpus``, with its settings: ``unit`` (chars or
    bytes), ``split`` (whitespace, or regex: the lab's default pattern), ``ties`` (first or hf),
    ``end_of_word`` (a marker, or none)."""
    from tokenizer.model import TrainConfig

    corpus = _arg(args, "corpus", str)
    if not corpus.strip():
        raise ExerciseError("the corpus is empty")
    if not 1 <= step <= MAX_CORPUS_MERGES:
        raise ExerciseError(f"'step' must be 1 to {MAX_CORPUS_MERGES} on a corpus of the question's own")
    try:
        config = TrainConfig(unit=_opt(args, "unit", str, "chars"), split=_opt(args, "split", str, "whitespace"),
                             ties=_opt(args, "ties", str, "first"), end_of_word=_opt(args, "end_of_word", str, "") or None)
    except ValueError as exc:
        raise ExerciseError(str(exc)) from None
    return train(corpus, step, **config.to_dict(), table_size=SHOWN_TABLE_SIZE, max_ties=SHOWN_MAX_TIES)


def op_merge_at(args: dict) -> Computed:
    """Which pair the trainer merges at ``step`` (options: the top pairs of the table before it), for a
    ``preset``, or for a ``corpus`` given in the question with its settings (``unit``, ``split``, ``ties``,
    ``end_of_word``; a tie is right for each tied pair offered, and the facts say how the rule broke it)."""
    step = _arg(args, "step", int)
    if "corpus" in args:
        trace = _corpus_trace(args, step)
        if len(trace.steps) < step:
            raise ExerciseError(f"the corpus has only {plural(len(trace.steps), 'merge')} to make")
        s = trace.steps[step - 1]
        options = sorted({_pair(pc.left, pc.right) for pc in s.table[: _opt(args, "options", int, 5)]},
                         key=str.casefold)
        if len(options) < 2:
            raise ExerciseError("only one pair can merge there: give the corpus more words")
        winner = _pair(s.left, s.right)
        tied = tuple(_pair(t.left, t.right) for t in s.ties if t.pair != s.pair and _pair(t.left, t.right) in options)
        counts = "; ".join(f"{_pair(pc.left, pc.right)} {pc.count}" for pc in s.table[:5])
        return Computed(winner, options=tuple(options), also_right=tied,
                        facts=f"Counted before the merge: {counts}. {tie_explanation(trace, step)}")
    trace = preset_trace(_arg(args, "preset", str))
    if not 1 <= step <= len(trace.steps):
        raise ExerciseError(f"step {step} is outside the preset's {len(trace.steps)} merges")
    s = trace.steps[step - 1]
    options = sorted({_pair(pc.left, pc.right) for pc in s.table[: _opt(args, "options", int, 5)]}, key=str.casefold)
    winner = _pair(s.left, s.right)
    tied = tuple(_pair(t.left, t.right) for t in s.ties if t.pair != s.pair and _pair(t.left, t.right) in options)
    facts = "Counted before the merge: " + "; ".join(f"{_pair(pc.left, pc.right)} {pc.count}" for pc in s.table[:5]) + "."
    if s.n_tied > 1:
        facts += f" {s.n_tied} pairs share the top count; the tie rule picks the one met first reading the words in order."
    return Computed(winner, options=tuple(options), also_right=tied, facts=facts)


def op_merge_order(args: dict) -> Computed:
    """The preset's first ``count`` merges in the order they were learned (offered in alphabetical order)."""
    trace = preset_trace(_arg(args, "preset", str))
    count = _arg(args, "count", int)
    if not 2 <= count <= len(trace.steps):
        raise ExerciseError(f"count must be 2 to {len(trace.steps)}")
    order = [_pair(s.left, s.right) for s in trace.steps[:count]]
    if len(set(order)) != len(order):
        raise ExerciseError("two merges look the same: pick another count")
    counts = "; ".join(f"{p} ({s.count})" for p, s in zip(order, trace.steps))
    return Computed(order, options=scrambled(order), facts=f"In order, with their counts: {counts}.")


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


def op_direction(args: dict) -> Computed:
    """Does ``text`` need more, fewer or the same tokens with ``after`` than with ``before``?"""
    text = _arg(args, "text", str)
    before = len(tokenizer_for(_arg(args, "before", str)).encode(text))
    after = len(tokenizer_for(_arg(args, "after", str)).encode(text))
    answer = "fewer" if after < before else "more" if after > before else "the same"
    return Computed(answer, options=("fewer", "more", "the same"), facts=f"{plural(before, 'token')} before, {after:,} after.")


def op_premium(args: dict) -> Computed:
    """Hindi tokens / English tokens (two decimals) for a sentence and its translation with ``tokenizer``."""
    from analyses.measure import premium

    p = premium(tokenizer_for(_arg(args, "tokenizer", str)), _arg(args, "en", str), _arg(args, "hi", str))
    return Computed(round(p.premium, 2), facts=(
        f"{p.english.tokens} English and {p.hindi.tokens} Hindi tokens: the UTF-8 part is {p.utf8_part:.2f}x, "
        f"the tokenizer part {p.tokenizer_part:.2f}x."))


def op_word_splits_into(args: dict) -> Computed:
    """A word of at most ``max_letters`` letters that ``tokenizer`` cuts into at least ``min_tokens`` tokens
    (with ``leading_space``: as it stands inside a sentence, after a space).

    The answer shown is an example found among ``candidates``; the learner's own word is checked by the rule.
    """
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    max_letters, min_tokens = _arg(args, "max_letters", int), _arg(args, "min_tokens", int)
    space = " " if _opt(args, "leading_space", bool, False) else ""  # as the word stands inside a sentence

    def check(word: str) -> tuple[bool, str]:
        word = word.strip()
        tokens = tok.encode_tokens(space + word)
        if not word or not word.isalpha():
            return False, "Type one word made of letters only."
        if len(word) > max_letters:
            return False, f"“{word}” has {plural(len(word), 'letter')}: the word must have at most {max_letters}."
        ok = len(tokens) >= min_tokens
        return ok, f"“{word}” is {plural(len(tokens), 'token')}: {_tokens_text(tokens)}."

    example = next((w for w in _opt(args, "candidates", list, []) if check(w)[0]), None)
    if example is None:
        raise ExerciseError("none of the candidate words meets the rule: add one that does")
    return Computed(example, check=check)


MAX_OWN_OPTIONS = 6


def op_most_tokens(args: dict) -> Computed:
    """Which of ``texts`` (2 to 6) costs the most tokens with ``tokenizer`` (the options are the texts as given;
    texts tied for the most are each right, and the facts say so)."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    texts = _arg(args, "texts", list)
    if not 2 <= len(texts) <= MAX_OWN_OPTIONS or len(set(texts)) != len(texts) or not all(t.strip() for t in texts):
        raise ExerciseError(f"'texts' must be 2 to {MAX_OWN_OPTIONS} different texts")
    counts = [len(tok.encode(t)) for t in texts]
    most = max(counts)
    winners = [t for t, n in zip(texts, counts) if n == most]
    facts = "; ".join(f"“{t}”: {plural(n, 'token')}" for t, n in zip(texts, counts)) + "."
    if len(winners) > 1:
        facts += (f" {len(winners)} texts tie for the most ({plural(most, 'token')} each): "
                  "each of them is right.")
    return Computed(winners[0], options=tuple(texts), also_right=tuple(winners[1:]), facts=facts)


def op_split_choice(args: dict) -> Computed:
    """Where ``tokenizer`` cuts ``text``, as a choice: its tokens (by the lab's display rules), against the way
    each of ``others`` (tokenizer names) cuts it, and against characters and words; only different cuts are
    offered, so exactly one option is right."""
    from tokenizer.plaintext import visible_token

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    if not text.strip():
        raise ExerciseError("the text is empty")

    def cut(tokenizer: TextTokenizer) -> str:
        return " | ".join(visible_token(t.label) for t in tokenizer.encode_tokens(text))

    truth = cut(tok)
    others = _opt(args, "others", list, [])
    if len(others) > MAX_OWN_OPTIONS:
        raise ExerciseError(f"'others' names at most {MAX_OWN_OPTIONS} tokenizers")
    candidates = [cut(tokenizer_for(name)) for name in others]
    from analyses.textstats import graphemes

    candidates += [" | ".join(visible_token(g) for g in graphemes(text)), " | ".join(text.split())]
    wrong = list(dict.fromkeys(c for c in candidates if c and c != truth))[: MAX_OWN_OPTIONS - 1]
    if not wrong:
        raise ExerciseError("every way of cutting this text gives the same pieces: choose a longer text or "
                            "other tokenizers to compare")
    return Computed(truth, options=tuple(sorted([truth, *wrong], key=str.casefold)),
                    facts=f"The tokens: {_tokens_text(tok.encode_tokens(text))}.")


def op_compare_texts(args: dict) -> Computed:
    """Which of two texts ``first`` and ``second`` costs more tokens with ``tokenizer``?"""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    a, b = _arg(args, "first", str), _arg(args, "second", str)
    na, nb = len(tok.encode(a)), len(tok.encode(b))
    answer = "the first" if na > nb else "the second" if nb > na else "the same"
    return Computed(answer, options=("the first", "the second", "the same"),
                    facts=f"{plural(na, 'token')} for the first, {nb:,} for the second.")


def op_join_difference(args: dict) -> Computed:
    """count(first) + count(second) minus count(first + second): how far counting the parts is off."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    a, b = _arg(args, "first", str), _arg(args, "second", str)
    parts, whole = len(tok.encode(a)) + len(tok.encode(b)), len(tok.encode(a + b))
    return Computed(parts - whole, facts=f"The parts: {plural(parts, 'token')} together; the joined text: {whole:,}.")


def op_stream_silent(args: dict) -> Computed:
    """Streaming ``text`` token by token with ``tokenizer``: after how many tokens does a careful decoder
    show nothing new (it holds bytes of an unfinished character)?"""
    from analyses.stream import stream

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    events = stream(tok, tok.encode(_arg(args, "text", str)))
    silent = sum(1 for e in events if not e.text)
    return Computed(silent, facts=f"{silent:,} of the {plural(len(events), 'token')} complete{'s' if silent == 1 else ''} no character on their own.")


def op_vocab_size(args: dict) -> Computed:
    """How many ids ``tokenizer``'s vocabulary spans: the highest id plus one (a few may be unused: see vocab_ids)."""
    return Computed(tokenizer_for(_arg(args, "tokenizer", str)).vocab_size)


@lru_cache(maxsize=16)
def _id_counts(name: str) -> tuple[int, int, int]:
    """(ids spanned, ids unused, special tokens) of a tokenizer: an id is unused when it stands for nothing."""
    tok = tokenizer_for(name)
    specials = set(getattr(tok, "special_tokens", {}).values())
    unused = 0
    for token_id in range(tok.vocab_size):
        if token_id in specials:
            continue
        try:
            tok.token_bytes(token_id)
        except ValueError:
            unused += 1
    return tok.vocab_size, unused, len(specials)


def op_vocab_ids(args: dict) -> Computed:
    """What ``tokenizer``'s ids are (``what``): ``"in_use"`` the tokens it really has, ``"unused"`` the ids between 0
    and the highest that stand for nothing, ``"special"`` its special markers (end of text…), ``"highest"`` its
    highest id."""
    spanned, unused, special = _id_counts(_arg(args, "tokenizer", str))
    what = _opt(args, "what", str, "in_use")
    values = {"in_use": spanned - unused, "unused": unused, "special": special, "highest": spanned - 1}
    if what not in values:
        raise ExerciseError(f"'what' must be one of {', '.join(values)}")
    return Computed(values[what], facts=(f"Ids 0 to {spanned - 1:,}: {plural(spanned - unused, 'token')} in use "
                                         f"({plural(special, 'special marker')}), {unused:,} unused."))


def op_ratio(args: dict) -> Computed:
    """``numerator`` / ``denominator`` of two other operations (each a table with its own ``op``), rounded to
    ``digits``; e.g. bytes per character of a text."""
    num, den = _arg(args, "numerator", dict), _arg(args, "denominator", dict)
    top = compute(num["op"], {k: v for k, v in num.items() if k != "op"})
    bottom = compute(den["op"], {k: v for k, v in den.items() if k != "op"})
    a, b = top.answer, bottom.answer
    if not all(isinstance(x, (int, float, Decimal)) and not isinstance(x, bool) for x in (a, b)):
        raise ExerciseError("'numerator' and 'denominator' must each compute a number")
    if not b:
        raise ExerciseError("the denominator is 0")
    value = round(float(a) / float(b), _opt(args, "digits", int, 2))
    facts = " ".join(dict.fromkeys(f for f in (top.facts, bottom.facts) if f))  # one text's facts said once
    return Computed(value, facts=f"{facts} {a:,} ÷ {b:,} = {value:,}." if facts else "")


def op_chunks_silent(args: dict) -> Computed:
    """Feed ``text``'s UTF-8 bytes ``size`` at a time to a careful decoder: how many chunks show nothing?"""
    from analyses.stream import StreamDecoder

    data, size = _arg(args, "text", str).encode("utf-8"), _arg(args, "size", int)
    if size < 1:
        raise ExerciseError("'size' must be 1 or more")
    decoder = StreamDecoder(None)
    shown = [decoder.feed_bytes(data[i : i + size]) for i in range(0, len(data), size)]
    return Computed(sum(1 for s in shown if not s), facts="What each chunk shows: " + ", ".join(
        f"“{s}”" if s else "nothing" for s in shown) + ".")


def op_wordpiece_at(args: dict) -> Computed:
    """Which pair WordPiece's rule, count(ab) / (count(a) x count(b)), merges at ``step`` of the preset's corpus
    (options: the pairs BPE and WordPiece would pick, and the top pairs by that score)."""
    import lessons
    from family.wordpiece import train_by_rule

    preset_id = _arg(args, "preset", str)
    presets = lessons.presets()
    if preset_id not in presets:
        raise ExerciseError(f"there is no preset {preset_id!r}")
    p = presets[preset_id]
    step = _arg(args, "step", int)
    trace = train_by_rule(p.corpus, step, rule="score", **p.config.to_dict())
    if len(trace.steps) < step:
        raise ExerciseError(f"the preset has no merge {step}")
    s = trace.steps[step - 1]
    pair = _pair(s.winner.left, s.winner.right)
    tied = tuple(_pair(c.left, c.right) for c in s.ties if (c.left, c.right) != (s.winner.left, s.winner.right))
    options = {pair, _pair(s.other.left, s.other.right), *tied}
    for c in s.by_score[:6]:
        if len(options) >= 5:
            break
        options.add(_pair(c.left, c.right))
    from family.ruletext import score_sum, tie_sentence, times

    facts = (f"WordPiece scores {pair} as {score_sum(s.winner)}; "
             f"BPE would take {_pair(s.other.left, s.other.right)}, seen {times(s.other.count)}.")
    tie = tie_sentence(trace, s)  # the tie and the rule that broke it, said as The family page says it
    if tie:
        facts += " " + tie
    return Computed(pair, options=tuple(sorted(options, key=str.casefold)), also_right=tied, facts=facts)


# -- lesson 5: cost, context and speed (the arithmetic is analyses.cost's) ----------------------------
def _scenario(args: dict) -> dict:
    import lessons

    found = lessons.cost_scenarios()
    name = _opt(args, "scenario", str, next(iter(found)))
    if name not in found:
        raise ExerciseError(f"there is no cost scenario {name!r} (known: {', '.join(found)})")
    return found[name]


def _language(scenario: dict, args: dict) -> dict:
    name = _arg(args, "language", str)
    if name not in scenario["languages"]:
        raise ExerciseError(f"the scenario has no language {name!r} (known: {', '.join(scenario['languages'])})")
    return scenario["languages"][name]


def _article(args: dict):
    from analyses import cost

    sc = _scenario(args)
    lang = _language(sc, args)
    prices = cost.Prices(sc["price_input_per_1000"], sc["price_output_per_1000"])
    tokens = lang["input_tokens"]
    if _opt(args, "cleaned", bool, False):
        tokens = cost.cleaned(tokens, sc["cleaning_percent"])
    return sc, prices, tokens, cost.article_cost(tokens, lang["output_tokens"], prices)


def op_article_cost(args: dict) -> Computed:
    """What one article costs in ``language`` in the scenario, in rupees (``part``: total, input or output;
    ``cleaned = true``: after cleaning its input by the scenario's percentage)."""
    from analyses.cost import rupees

    sc, prices, tokens, a = _article(args)
    part = _opt(args, "part", str, "total")
    if part not in ("total", "input", "output"):
        raise ExerciseError("'part' must be total, input or output")
    out = _language(sc, args)["output_tokens"]
    facts = (f"{tokens:,} input tokens at {rupees(prices.input_per_1000)} per 1,000 = {rupees(a.input)}; "
             f"{out:,} output tokens at {rupees(prices.output_per_1000)} per 1,000 = {rupees(a.output)}; "
             f"together {rupees(a.total)}.")
    value = {"total": a.total, "input": a.input, "output": a.output}[part]
    return Computed(value.quantize(Decimal("0.01"), ROUND_HALF_UP), facts=facts,  # to the paisa, as rupees() shows it
                    exact=value)


def op_month_cost(args: dict) -> Computed:
    """What the scenario's articles cost in ``language`` over its days, in whole rupees."""
    from analyses.cost import monthly_cost, rupees

    sc, _, _, a = _article(args)
    month = monthly_cost(a.total, articles_per_day=sc["articles_per_day"], days=sc["days"])
    facts = f"{rupees(a.total)} an article × {sc['articles_per_day']:,} a day × {sc['days']} days = {rupees(month)}."
    return Computed(int(month), facts=facts)


def op_window_fit(args: dict) -> Computed:
    """How many whole ``language`` articles fit in the scenario's context window, with room kept for the reply
    (the output cap) and the safety margin (``what = "used"``: how many tokens they take; ``"room"``: the room)."""
    from analyses.cost import window_fit

    sc = _scenario(args)
    fit = window_fit(_language(sc, args)["input_tokens"], window=sc["window"], output_cap=sc["output_cap"],
                     margin=sc["margin"])
    facts = (f"{fit.window:,} − {fit.output_cap:,} for the reply − {fit.margin:,} margin leaves {fit.room:,} tokens; "
             f"{fit.room:,} ÷ {fit.each:,} = {fit.exact:.1f}, so {fit.count} whole articles ({fit.used:,} tokens).")
    what = _opt(args, "what", str, "count")
    if what not in ("count", "used", "room"):
        raise ExerciseError("'what' must be count, used or room")
    return Computed({"count": fit.count, "used": fit.used, "room": fit.room}[what], facts=facts)


def _presend(args: dict):
    from analyses import cost

    sc = _scenario(args)
    prices = cost.Prices(sc["price_input_per_1000"], sc["price_output_per_1000"])
    return cost.presend_check(_arg(args, "prompt", int), window=sc["window"], output_cap=sc["output_cap"],
                              margin=sc["margin"], prices=prices)


def _presend_facts(c) -> str:
    from analyses.cost import rupees

    sums = f"{c.prompt:,} + {c.output_cap:,} reply + {c.margin:,} margin = {c.needed:,}"
    if c.accepted:
        return f"{sums}, within the {c.window:,}-token window; at worst it costs {rupees(c.worst_case)}."
    return f"{sums}: {c.over_by:,} over the {c.window:,}-token window, so it is never sent."


def op_presend(args: dict) -> Computed:
    """The pre-send check of a ``prompt`` of that many tokens in the scenario: accepted or rejected."""
    c = _presend(args)
    return Computed("accepted" if c.accepted else "rejected", options=("accepted", "rejected"), facts=_presend_facts(c))


def op_presend_cost(args: dict) -> Computed:
    """The worst-case cost in rupees of an accepted ``prompt`` (the prompt plus the longest reply allowed)."""
    c = _presend(args)
    if not c.accepted:
        raise ExerciseError(f"a {c.prompt:,}-token prompt is rejected, so it has no cost")
    return Computed(c.worst_case, facts=_presend_facts(c))


def op_presend_tokens(args: dict) -> Computed:
    """The tokens the pre-send check adds up for a ``prompt`` (``what = "needed"``: prompt + reply cap + margin) or
    how far they are over the window (``what = "over_by"``: 0 when the prompt is accepted)."""
    c = _presend(args)
    what = _opt(args, "what", str, "needed")
    if what not in ("needed", "over_by"):
        raise ExerciseError("'what' must be needed or over_by")
    return Computed(c.needed if what == "needed" else c.over_by, facts=_presend_facts(c))


def op_decoding_steps(args: dict) -> Computed:
    """How many decoding steps (one per output token) the reply in ``language`` takes in the scenario."""
    from analyses.cost import speed

    sc = _scenario(args)
    lang = _language(sc, args)
    s = speed(lang["input_tokens"], lang["output_tokens"])
    return Computed(s.decoding_steps, facts=f"One step per output token: {s.decoding_steps:,} steps.")


@lru_cache(maxsize=8)
def _language_sample(language: str):
    import lessons

    try:
        found, _ = lessons.language_samples()
    except lessons.SamplesUnavailable as exc:
        raise ExerciseError(str(exc)) from None
    for sample in found:
        if sample.id == language:
            return sample
    raise ExerciseError(f"there is no sample text for {language!r} (known: {', '.join(s.id for s in found)})")


def op_window_chars(args: dict) -> Computed:
    """How many characters of ``language``'s sample text (a gflanguages id, e.g. ``mr_Deva``) fit in a ``window``
    of that many tokens with ``tokenizer``, at the tokens per character the sample is measured at (to the
    nearest ten)."""
    sample = _language_sample(_arg(args, "language", str))
    window = _arg(args, "window", int)
    if window < 1:
        raise ExerciseError("'window' must be 1 or more")
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    m = measure(tok, sample.text)
    chars = int(round(window * m.code_points / m.tokens, -1))
    facts = (f"{sample.label}'s sample is {m.code_points:,} characters in {m.tokens:,} tokens "
             f"({m.tokens / m.code_points:.2f} tokens a character), so {window:,} tokens hold about {chars:,} characters.")
    return Computed(int(chars), facts=facts)



# -- inside the production tokenizers (lesson 10) ------------------------------------------------------
def _inside(args: dict):
    from family import merges

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    try:
        return tok, merges.inside(tok)
    except ValueError:
        raise ExerciseError(f"{tok.name} is not a production tokenizer whose merges the lab reads") from None


def op_token_parts(args: dict) -> Computed:
    """The two tokens a merge joined to make ``text`` (one token of ``tokenizer``), recovered from its ranks; the
    options are every way to cut the token into two tokens of the vocabulary."""
    tok, view = _inside(args)
    text = _arg(args, "text", str)
    ids = tok.encode(text)
    if len(ids) != 1:
        raise ExerciseError(f"{text!r} is {len(ids)} tokens of {tok.name}, not one")
    parts = view.parts(ids[0])
    if parts is None:
        raise ExerciseError(f"{text!r} is not made by a merge in {tok.name}")
    data = tok.token_bytes(ids[0])
    cuts = []
    for k in range(1, len(data)):
        left, right = data[:k], data[k:]
        if view.known(left) and view.known(right) and is_whole(left) and is_whole(right):
            cuts.append(_pair(left.decode(), right.decode()))
    answer = _pair(view.label(parts[0]), view.label(parts[1]))
    ranks = f"rank {view.rank(parts[0]) or 0:,} and {view.rank(parts[1]) or 0:,}, the token itself {view.rank(ids[0]):,}"
    return Computed(answer, options=tuple(sorted({*cuts, answer}, key=str.casefold)),
                    facts=f"BPE with only the merges ranked below it makes {answer} of its bytes ({ranks}).")


def op_replay_merge(args: dict) -> Computed:
    """Which pair ``tokenizer`` merges at ``step`` (1 = first) while encoding ``text``, among the neighbouring pairs
    of that step's piece."""
    _, view = _inside(args)
    replay = view.replay(_arg(args, "text", str))
    step = _arg(args, "step", int)
    if not 1 <= step <= len(replay.steps):
        raise ExerciseError(f"step {step} is outside the {len(replay.steps)} merges of this text")
    found = replay.candidates(step)[: _opt(args, "options", int, 5)]
    labels = [_pair(c[3], c[4]) for c in found]
    s = replay.steps[step - 1]
    answer = _pair(s.left, s.right)
    facts = "The ranks: " + "; ".join(f"{label} {c[0]:,}" if c[0] is not None else f"{label} none"
                                      for label, c in zip(labels, found)) + ". The lowest rank merges first."
    return Computed(answer, options=tuple(sorted(set(labels), key=str.casefold)), facts=facts)


def op_replay_steps(args: dict) -> Computed:
    """How many merges ``tokenizer`` applies while encoding ``text``."""
    tok, view = _inside(args)
    text = _arg(args, "text", str)
    replay = view.replay(text)
    n = len(tok.encode(text))
    return Computed(len(replay.steps), facts=f"From {plural(sum(len(p) for p in replay.start), 'starting byte')} to "
                    f"{plural(n, 'token')}: each merge makes one token of two.")


SCRIPT_BUCKETS = ("fewer than 100", "100 to 999", "1,000 to 9,999", "10,000 or more")


def op_script_tokens(args: dict) -> Computed:
    """How many of ``tokenizer``'s tokens are of ``script`` (a kind of analyses.vocab: a script, "partial UTF-8"…)."""
    from analyses import vocab

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    script = _arg(args, "script", str)
    if script not in vocab.KINDS:
        raise ExerciseError(f"unknown script {script!r} (known: {', '.join(vocab.KINDS)})")
    try:
        v = vocab.vocabulary(tok)
    except (ValueError, AttributeError):
        raise ExerciseError(f"{tok.name} is not a production tokenizer whose vocabulary the lab reads") from None
    n = v.count(script)
    return Computed(n, facts=f"{tok.name} has {n:,} {script} tokens of its {v.tokens:,} ({n / v.tokens:.2%}).")


def op_script_band(args: dict) -> Computed:
    """Which of :data:`SCRIPT_BUCKETS` the count of ``tokenizer``'s ``script`` tokens falls in (a choice)."""
    c = op_script_tokens(args)
    n = c.answer
    return Computed(SCRIPT_BUCKETS[(n >= 100) + (n >= 1000) + (n >= 10_000)], options=SCRIPT_BUCKETS, facts=c.facts)


PARALLEL_SETS = {"parallel": "the lab's parallel set", "lesson-4": "lesson 4's two paragraphs"}


def _parallel_texts(name: str) -> list[tuple[str, str]]:
    """(English, Hindi) pairs of a parallel set: the lab's sentence pairs (``lessons/data/parallel_en_hi.json``, the
    set English vs Hindi and Cost measure on) or lesson 4's two paragraphs."""
    import lessons

    if name == "parallel":
        return [(p["en"], p["hi"]) for p in lessons.data("parallel_en_hi")["pairs"]]
    if name == "lesson-4":
        data = lessons.data("lesson4_english_hindi")
        return [(data["english_block"], data["hindi_block"])]
    raise ExerciseError(f"there is no parallel set {name!r} (known: {', '.join(PARALLEL_SETS)})")


def op_parallel_bytes(args: dict) -> Computed:
    """Over a parallel ``set`` (``"parallel"``: the lab's sentence pairs; ``"lesson-4"``: lesson 4's paragraphs):
    the Hindi text's UTF-8 bytes ÷ the English text's (``what = "ratio"``, to ``digits`` decimals), or how many
    pairs the set has (``what = "pairs"``)."""
    name = _opt(args, "set", str, "parallel")
    pairs = _parallel_texts(name)
    english = sum(text_counts(en).bytes for en, _ in pairs)
    hindi = sum(text_counts(hi).bytes for _, hi in pairs)
    what = _opt(args, "what", str, "ratio")
    if what not in ("ratio", "pairs"):
        raise ExerciseError("'what' must be ratio or pairs")
    ratio = round(hindi / english, _opt(args, "digits", int, 2))
    facts = (f"{PARALLEL_SETS[name][0].upper()}{PARALLEL_SETS[name][1:]}, {plural(len(pairs), 'pair')}: "
             f"{hindi:,} bytes of Hindi for {english:,} of English, {ratio:,} times as many.")
    return Computed(len(pairs) if what == "pairs" else ratio, facts=facts)


OPS: dict[str, Callable[[dict], Computed]] = {
    "count_tokens": op_count_tokens,
    "split": op_split,
    "utf8_bytes": op_utf8_bytes,
    "code_points": op_code_points,
    "graphemes": op_graphemes,
    "whitespace_pieces": op_whitespace_pieces,
    "partial_tokens": op_partial_tokens,
    "tokens_per_word": op_tokens_per_word,
    "merge_at": op_merge_at,
    "merge_order": op_merge_order,
    "direction": op_direction,
    "premium": op_premium,
    "word_splits_into": op_word_splits_into,
    "compare_texts": op_compare_texts,
    "most_tokens": op_most_tokens,
    "split_choice": op_split_choice,
    "join_difference": op_join_difference,
    "stream_silent": op_stream_silent,
    "vocab_size": op_vocab_size,
    "vocab_ids": op_vocab_ids,
    "ratio": op_ratio,
    "chunks_silent": op_chunks_silent,
    "wordpiece_at": op_wordpiece_at,
    "article_cost": op_article_cost,
    "month_cost": op_month_cost,
    "window_fit": op_window_fit,
    "presend": op_presend,
    "presend_cost": op_presend_cost,
    "presend_tokens": op_presend_tokens,
    "decoding_steps": op_decoding_steps,
    "window_chars": op_window_chars,
    "token_parts": op_token_parts,
    "replay_merge": op_replay_merge,
    "replay_steps": op_replay_steps,
    "script_tokens": op_script_tokens,
    "script_band": op_script_band,
    "parallel_bytes": op_parallel_bytes,
}

KIND_OF_OP = {
    "count_tokens": "number", "utf8_bytes": "number", "code_points": "number", "graphemes": "number",
    "whitespace_pieces": "number", "partial_tokens": "number", "tokens_per_word": "number", "premium": "number",
    "split": "split", "merge_at": "choice", "direction": "choice", "merge_order": "order",
    "word_splits_into": "word", "compare_texts": "choice", "most_tokens": "choice", "split_choice": "choice", "join_difference": "number", "stream_silent": "number",
    "vocab_size": "number", "vocab_ids": "number", "ratio": "number", "chunks_silent": "number",
    "wordpiece_at": "choice",
    "article_cost": "number", "month_cost": "number", "window_fit": "number", "presend": "choice",
    "presend_cost": "number", "presend_tokens": "number", "decoding_steps": "number", "window_chars": "number",
    "token_parts": "choice", "replay_merge": "choice", "replay_steps": "number", "script_tokens": "number",
    "script_band": "choice",
    "parallel_bytes": "number",
}


UNIT_OF_OP = {
    "count_tokens": "tokens", "utf8_bytes": "bytes", "code_points": "code points", "graphemes": "grapheme clusters",
    "whitespace_pieces": "pieces", "partial_tokens": "tokens", "join_difference": "tokens", "stream_silent": "tokens",
    "chunks_silent": "chunks", "vocab_size": "ids", "vocab_ids": "tokens",
    "article_cost": "rupees", "month_cost": "rupees", "presend_cost": "rupees", "presend_tokens": "tokens", "window_fit": "articles",
    "decoding_steps": "steps", "window_chars": "characters", "replay_steps": "merges", "script_tokens": "tokens",
}
"""The unit a number answer is counted in, unless the exercise says otherwise."""


def compute(op: str, args: dict) -> Computed:
    """Run an answer operation (raises :class:`ExerciseError` saying what is wrong)."""
    if op not in OPS:
        raise ExerciseError(f"unknown answer operation {op!r} (known: {', '.join(sorted(OPS))})")
    try:
        return OPS[op](args)
    except ExerciseError:
        raise
    except ValueError as exc:  # the engine's own words, e.g. a pattern or a text it refuses
        raise ExerciseError(str(exc)) from None
    except (TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        # Arguments are data from a lesson file: one of a type no check above foresaw is that file's problem,
        # said as one, never a traceback on the page or in the checker.
        raise ExerciseError(f"its arguments do not fit op {op!r} ({type(exc).__name__}: {str(exc)[:100]})") from None


__all__ = ["Computed", "ExerciseError", "KINDS", "KIND_OF_OP", "MAX_CORPUS_MERGES", "MAX_LISTED_TIES", "OPS", "UNIT_OF_OP", "compute",
           "preset_trace", "scrambled", "tie_explanation", "times", "tokenizer_for"]
