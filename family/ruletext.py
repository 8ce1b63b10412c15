"""The sentences that explain a BPE / WordPiece step in words: the score as a sum, the tie and the rule that broke it.

Pure Python (no Streamlit): The family page and the lessons' exercise feedback say a tie the same way.
"""

from __future__ import annotations

from i18n import _, _n, number
from tokenizer.plaintext import and_words, pair_text, visible_token

from .wordpiece import Candidate, RuleStep, RuleTrace


def times(n: int) -> str:
    """``5 times``, in the current language."""
    return _n("{n} time", "{n} times", n)


def listed_pairs(names: list[str], more: int) -> str:
    """The tied pairs named, and how many more, joined in the current language (Train's tie sentence says them so
    too)."""
    if more:
        return _n("{names} and {n} more pair", "{names} and {n} more pairs", more, names=", ".join(names))
    return and_words(names)


def fmt_score(x: float) -> str:
    """A WordPiece score for reading: three decimals, or two significant digits when tiny."""
    return f"{x:.3f}" if x >= 0.001 or x == 0 else f"{x:.2g}"


def score_sum(c: Candidate) -> str:
    """``4 ÷ (4 × 5) = 0.200``."""
    return f"{number(c.count)} ÷ ({number(c.left_count)} × {number(c.right_count)}) = {fmt_score(float(c.score))}"


def _first_seen(trace: RuleTrace, step: RuleStep) -> str:
    word = trace.words[step.first_seen[0]][0]
    return _("in “{word}”", word=visible_token(word))


def tie_sentence(trace: RuleTrace, step: RuleStep) -> str:
    """The tie at this step and the rule that broke it ("" when there is none)."""
    if step.n_tied <= 1:
        return ""
    names = [pair_text(c.left, c.right) for c in step.ties[:5]]
    listed = listed_pairs(names, step.n_tied - len(names))
    if trace.rule == "count":
        head = (_("Tie: {pairs} were both seen {times}.", pairs=listed, times=times(step.winner.count))
                if step.n_tied == 2 else
                _("Tie: {pairs} were all seen {times}.", pairs=listed, times=times(step.winner.count)))
    else:
        score = fmt_score(float(step.winner.score))
        head = (_("Tie: {pairs} both score {score}.", pairs=listed, score=score) if step.n_tied == 2 else
                _("Tie: {pairs} all score {score}.", pairs=listed, score=score))
    return head + " " + _("The pair met first, reading the words in order, wins: {pair}, {where}.", pair=names[0],
                          where=_first_seen(trace, step))
