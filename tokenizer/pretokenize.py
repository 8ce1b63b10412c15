"""Pre-splitting: cutting text into the pieces ("words") that BPE works inside.

BPE never merges across a piece boundary, so the pre-split decides what a
token *can* be. Two rules are offered, the two the curriculum uses:

``whitespace``
    ``str.split()``: pieces are runs of non-space characters. The spaces
    themselves are dropped, so text split this way does not round-trip
    (decoding cannot know where the spaces were unless an end-of-word marker
    records it).

``regex``
    Pieces are the matches of a pattern. The default `` ?\\S+`` lets each word
    keep the one space before it, the way GPT-2 style tokenizers do. Whatever
    the pattern does not match (a run of spaces, a newline) is kept as a piece
    of its own, so the pieces always join back into the exact text.

>>> split_text("Mera order 20 minute late hai, refund chahiye!", "whitespace")[-2:]
['refund', 'chahiye!']
>>> split_text("chai  pani\\n", "regex")
['chai', ' ', ' pani', '\\n']
"""

from __future__ import annotations

from functools import lru_cache

import regex

SPLITS = ("regex", "whitespace")
DEFAULT_PATTERN = r" ?\S+"
# The published pre-split patterns, for learners who want to try them.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*"""
    r"""|\s*[\r\n]|\s+(?!\S)|\s+"""
)


_PATTERN_WORDS = {
    DEFAULT_PATTERN: "the text is cut at spaces: each word, punctuation and all, keeps the space before it",
    GPT2_PATTERN: "the text is cut into words, numbers and punctuation, each keeping the space before it "
                  "(GPT-2's pattern)",
    GPT4_PATTERN: "the text is cut into words, numbers of up to three digits and punctuation, a word keeping "
                  "the space or mark before it (GPT-4's pattern)",
}


def pattern_words(split: str, pattern: str = DEFAULT_PATTERN) -> str:
    """What a pre-split does, in plain words for a learner (the pattern itself means little to most readers).

    >>> pattern_words("regex", r" ?\\S+")
    'the text is cut at spaces: each word, punctuation and all, keeps the space before it'
    >>> pattern_words("whitespace")
    'the text is cut at spaces, and the spaces are dropped'
    >>> pattern_words("regex", r"\\d+|\\D+")
    'the text is cut into the pieces a pattern of your own matches'
    """
    if split == "whitespace":
        return "the text is cut at spaces, and the spaces are dropped"
    return _PATTERN_WORDS.get(pattern, "the text is cut into the pieces a pattern of your own matches")


@lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """Compile a pre-split pattern, or raise ValueError saying what is wrong."""
    if not pattern:
        raise ValueError("The pre-split pattern is empty: give a regular expression such as ' ?\\S+'.")
    try:
        compiled = regex.compile(pattern)
    except regex.error as exc:
        raise ValueError(f"The pre-split pattern {pattern!r} is not a valid regular expression: {exc}.") from None
    if compiled.flags & regex.REVERSE:
        raise ValueError("The pre-split pattern searches right to left ((?r)); pieces must be found left to right.")
    return compiled


# A user's pattern can backtrack for ever on some inputs; stop it with a clear message.
# The limit is on finding ONE piece, not on the whole text: a long corpus that is
# merely big is split to the end, however long that takes. Read at every call, so a
# test (or a caller) may set it lower.
PATTERN_TIMEOUT_S = 3.0


class PatternTimeout(ValueError):
    """The pre-split pattern spent more than :data:`PATTERN_TIMEOUT_S` seconds looking for one
    piece of a text: it backtracks too much. A ValueError, so every caller that reports bad input
    reports this too; catch it first to say something specific."""

    def __init__(self, pattern: str, seconds: float) -> None:
        self.pattern = pattern
        self.seconds = seconds
        shown = f"{seconds:.0f} s" if seconds >= 1 else f"{seconds:g} s"
        super().__init__(
            f"The pre-split pattern {pattern!r} took more than {shown} to find one piece of this text "
            "(it backtracks too much): simplify it."
        )

    def __reduce__(self):  # pickle (a cache, a worker process) rebuilds it from its two fields
        return type(self), (self.pattern, self.seconds)


@lru_cache(maxsize=64)
def _capturing(pattern: str) -> regex.Pattern[str] | None:
    """``pattern`` wrapped in one capture group, or None where wrapping could change its meaning."""
    compiled = compile_pattern(pattern)
    if compiled.groups or compiled.flags & regex.VERBOSE or r"\K" in pattern:
        return None  # its own groups, comments that could swallow the ")", or \K moving the match start
    try:
        wrapped = regex.compile(f"({pattern})")
    except regex.error:
        return None
    return wrapped if wrapped.flags == compiled.flags else None


def split_text(text: str, split: str = "regex", pattern: str = DEFAULT_PATTERN) -> list[str]:
    """Cut ``text`` into pieces; with ``regex`` the pieces join back into ``text``.

    Raises :class:`PatternTimeout` when the pattern backtracks too much on ``text``.
    """
    if split == "whitespace":
        return text.split()
    if split != "regex":
        raise ValueError(f"Unknown pre-split {split!r}: use one of {', '.join(SPLITS)}.")
    # Fast path: ``split`` with the pattern in one capture group returns, in one
    # call made in C, gap, match, gap, ..., gap. Keeping the non-empty ones gives
    # the pieces, as long as no match is empty (those are skipped below). Its
    # time limit is for the whole text; when it runs out, the slower path below
    # tells a big text from a pattern that backtracks.
    wrapped = _capturing(pattern)
    if wrapped is not None:
        try:
            parts = wrapped.split(text, timeout=PATTERN_TIMEOUT_S)
        except TimeoutError:
            pass
        else:
            if "" not in parts[1::2]:
                return list(filter(None, parts))
    return _split_by_matches(text, compile_pattern(pattern), pattern)


def _split_by_matches(
    text: str, compiled: regex.Pattern[str], pattern: str, restart_every: int | None = None
) -> list[str]:
    """The pieces, from the pattern's matches; empty matches are skipped.

    The search runs under a time limit. When the limit is reached after at least
    one piece was found, the search starts again where the last non-empty match
    ended, with a fresh limit: a search started there finds exactly the matches the
    first one would have found (``^`` and lookbehinds still see the whole text, and
    an empty match is allowed right after a non-empty one in both). Only a search
    that finds no piece at all in the limit is a pattern that backtracks.
    ``restart_every`` (for tests) also restarts after that many matches.
    """
    pieces: list[str] = []
    pos = 0  # the end of the last non-empty match: everything before it is in ``pieces``
    while True:
        found = 0
        try:
            for match in compiled.finditer(text, pos, timeout=PATTERN_TIMEOUT_S):
                start, end = match.span()
                if start == end:  # a pattern that can match nothing must not make empty pieces
                    continue
                if start > pos:
                    pieces.append(text[pos:start])
                pieces.append(text[start:end])
                pos = end
                found += 1
                if restart_every is not None and found >= restart_every:
                    raise TimeoutError
            break
        except TimeoutError:
            if not found:
                raise PatternTimeout(pattern, PATTERN_TIMEOUT_S) from None
    if pos < len(text):
        pieces.append(text[pos:])
    return pieces
