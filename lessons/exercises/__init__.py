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

A package by what it holds (:func:`compute` and the table of operations here; the operations in modules):

``base``    what every operation shares: :class:`ExerciseError`, :class:`Computed`, the tokenizers by name, arguments
``tokens``  a text and its tokens: counts, cuts, comparisons, streaming, a vocabulary's ids
``merges``  how a trainer learns: the pair merged at a step, the merges in order, WordPiece's pick, ties in words
``cost``    lesson 5: cost, context and speed
``inside``  lesson 10: inside the production tokenizers, tokens per script, a parallel set's bytes
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from i18n import N_

from ..answers import KINDS  # the answer kinds: one home, with how each is judged
from .base import Computed, ExerciseError, _arg, _opt, preset_trace, scrambled, tokenizer_for
from .cost import (
    op_article_cost,
    op_decoding_steps,
    op_month_cost,
    op_presend,
    op_presend_cost,
    op_presend_tokens,
    op_window_chars,
    op_window_fit,
)
from .inside import (
    SCRIPT_BUCKETS,
    op_parallel_bytes,
    op_replay_merge,
    op_replay_steps,
    op_script_band,
    op_script_tokens,
    op_token_parts,
)
from .merges import (
    MAX_CORPUS_MERGES,
    MAX_LISTED_TIES,
    op_merge_at,
    op_merge_order,
    op_wordpiece_at,
    tie_explanation,
    times,
)
from .tokens import (
    op_chunks_silent,
    op_code_points,
    op_compare_texts,
    op_count_tokens,
    op_direction,
    op_graphemes,
    op_join_difference,
    op_most_tokens,
    op_partial_tokens,
    op_premium,
    op_split,
    op_split_choice,
    op_stream_silent,
    op_tokens_per_word,
    op_utf8_bytes,
    op_vocab_ids,
    op_vocab_size,
    op_whitespace_pieces,
    op_word_splits_into,
)


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
    "count_tokens": N_("tokens"), "utf8_bytes": N_("bytes"), "code_points": N_("code points"), "graphemes": N_("grapheme clusters"),
    "whitespace_pieces": N_("pieces"), "partial_tokens": N_("tokens"), "join_difference": N_("tokens"), "stream_silent": N_("tokens"),
    "chunks_silent": N_("chunks"), "vocab_size": N_("ids"), "vocab_ids": N_("tokens"),
    "article_cost": N_("rupees"), "month_cost": N_("rupees"), "presend_cost": N_("rupees"), "presend_tokens": N_("tokens"), "window_fit": N_("articles"),
    "decoding_steps": N_("steps"), "window_chars": N_("characters"), "replay_steps": N_("merges"), "script_tokens": N_("tokens"),
}
"""The unit a number answer is counted in, unless the exercise says otherwise (marked for the catalogue: drawn through
``_()``, as a page question's unit is)."""


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


__all__ = [
    "Computed", "ExerciseError", "KINDS", "KIND_OF_OP", "MAX_CORPUS_MERGES", "MAX_LISTED_TIES", "OPS", "SCRIPT_BUCKETS", "UNIT_OF_OP", "compute", "preset_trace", "scrambled", "tie_explanation", "times", "tokenizer_for",
]
