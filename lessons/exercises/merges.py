"""Operations on how a trainer learns: which pair merges at a step (on a preset, or on a corpus the question
gives), the merges in order, WordPiece's pick, and a tie and the rule that broke it, in words.
"""

from __future__ import annotations

from family.ruletext import listed_pairs
from i18n import _, _n
from tokenizer import Trace, train
from tokenizer.labels import plural
from tokenizer.train import SHOWN_MAX_TIES, SHOWN_TABLE_SIZE

from .base import Computed, ExerciseError, _arg, _opt, _pair, preset_trace, scrambled

MAX_LISTED_TIES = 5  # tied pairs named in the tie sentence


def times(n: int) -> str:
    """``5 times``, in the current language."""
    return _n("{n} time", "{n} times", n)


def tie_explanation(trace: Trace, k: int) -> str:
    """The tie at merge k and the rule that broke it, in plain words (plain text, in the current language): Train's
    "why this pair", and the facts of a "which pair merges" question on a corpus of the teacher's own."""
    from tokenizer.plaintext import visible_token

    s = trace.steps[k - 1]
    winner = _pair(s.left, s.right)
    if s.n_tied <= 1:
        runner = next((pc for pc in s.table if pc.pair != s.pair), None)
        if runner is None:
            return _("No tie: {winner} is the only pair left.", winner=winner)
        return _("No tie: {winner} was seen {times}, more than any other pair (next best: {runner}, {runner_times}).",
                 winner=winner, times=times(s.count), runner=_pair(runner.left, runner.right),
                 runner_times=times(runner.count))
    names = [_pair(t.left, t.right) for t in s.ties[:MAX_LISTED_TIES]]
    listed = listed_pairs(names, s.n_tied - len(names))
    head = (_("Tie: {pairs} were both seen {times}.", pairs=listed, times=times(s.count)) if s.n_tied == 2 else
            _("Tie: {pairs} were all seen {times}.", pairs=listed, times=times(s.count)))
    if trace.config.ties == "hf":
        numbered = ", ".join(
            _("{pair} is ({left}, {right})", pair=_pair(t.left, t.right), left=trace.hf_number(t.pair[0]),
              right=trace.hf_number(t.pair[1]))
            for t in s.ties[:MAX_LISTED_TIES]
        )
        return head + " " + _(
            "Rule 'hf', the order of Hugging Face tokenizers: number the base symbols in sorted order "
            "(bytes by the printable character that stands for each), and merged tokens after them in the order "
            "they were made. The tied pair whose left token has the smallest number wins (then the smallest "
            "right number). Here {numbered}. So {winner} wins.", numbered=numbered, winner=winner)
    if s.first_seen is None:
        return head + " " + _("Rule 'first seen': the tied pair met first, reading the words in order, wins: {winner}.",
                              winner=winner)
    w, position = s.first_seen
    shown = [visible_token(word) for word, _count in trace.words[: max(3, w + 1)][:6]]
    words = ", ".join(shown) + (", …" if len(trace.words) > len(shown) else "")
    word = visible_token(trace.words[w][0])
    where = (_("as the very first pair of “{word}”", word=word) if position == 0 and w == 0 else
             _("in “{word}”", word=word))
    return head + " " + _(
        "Rule 'first seen': read the words in the order they first appear ({words}), each left to right; the tied "
        "pair met first wins. {winner} is met first, {where}. So it wins.", words=words, winner=winner, where=where)


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
                        facts=_("Counted before the merge: {counts}.", counts=counts) + " "
                        + tie_explanation(trace, step))
    trace = preset_trace(_arg(args, "preset", str))
    if not 1 <= step <= len(trace.steps):
        raise ExerciseError(f"step {step} is outside the preset's {len(trace.steps)} merges")
    s = trace.steps[step - 1]
    options = sorted({_pair(pc.left, pc.right) for pc in s.table[: _opt(args, "options", int, 5)]}, key=str.casefold)
    winner = _pair(s.left, s.right)
    tied = tuple(_pair(t.left, t.right) for t in s.ties if t.pair != s.pair and _pair(t.left, t.right) in options)
    facts = _("Counted before the merge: {counts}.",
              counts="; ".join(f"{_pair(pc.left, pc.right)} {pc.count}" for pc in s.table[:5]))
    if s.n_tied > 1:
        facts += " " + _("{n} pairs share the top count; the tie rule picks the one met first reading the words in "
                         "order.", n=s.n_tied)
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
    return Computed(order, options=scrambled(order), facts=_("In order, with their counts: {counts}.", counts=counts))



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
