"""The sentences that explain a BPE / WordPiece step in words: the score as a sum, the tie and the rule that broke it.

Pure Python (no Streamlit): The family page and the lessons' exercise feedback say a tie the same way.
"""

from __future__ import annotations

from tokenizer.labels import plural
from tokenizer.plaintext import join_words, pair_text, visible_token

from .wordpiece import Candidate, RuleStep, RuleTrace


def times(n: int) -> str:
    return plural(n, "time")


def fmt_score(x: float) -> str:
    """A WordPiece score for reading: three decimals, or two significant digits when tiny."""
    return f"{x:.3f}" if x >= 0.001 or x == 0 else f"{x:.2g}"


def score_sum(c: Candidate) -> str:
    """``4 ÷ (4 × 5) = 0.200``."""
    return f"{c.count:,} ÷ ({c.left_count:,} × {c.right_count:,}) = {fmt_score(float(c.score))}"


def _first_seen(trace: RuleTrace, step: RuleStep) -> str:
    word = trace.words[step.first_seen[0]][0]
    return f"in “{visible_token(word)}”"


def tie_sentence(trace: RuleTrace, step: RuleStep) -> str:
    """The tie at this step and the rule that broke it ("" when there is none)."""
    if step.n_tied <= 1:
        return ""
    names = [pair_text(c.left, c.right) for c in step.ties[:5]]
    more = step.n_tied - len(names)
    listed = join_words(names, more) + ("" if not more else " pair" if more == 1 else " pairs")
    both = "both" if step.n_tied == 2 else "all"
    if trace.rule == "count":
        shared = f"were {both} seen {times(step.winner.count)}"
    else:
        shared = f"{both} score {fmt_score(float(step.winner.score))}"
    return (f"Tie: {listed} {shared}. The pair met first, reading the words in order, wins: "
            f"{names[0]}, {_first_seen(trace, step)}.")
