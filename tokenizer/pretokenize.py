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

import json
import threading
import time
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import regex

from . import searcher
from .labels import plural


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue (``python -m i18n extract`` reads ``N_("...")``), untranslated: a page
    shows it through ``i18n._``. It is i18n's ``N_`` written here, not imported, because importing :mod:`i18n`
    imports Babel and reads and compiles the Hindi catalogue (README, Speed): the core (``import tokenizer``: this
    module and :mod:`tokenizer.model`, which takes ``N_`` from here) and a pattern worker of
    :mod:`tokenizer.searcher`, which imports this module at every start, stay without it."""
    return message


SPLITS = ("regex", "whitespace")
DEFAULT_PATTERN = r" ?\S+"
# The published pre-split patterns, for learners who want to try them.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]++[\r\n]*"""
    r"""|\s*[\r\n]|\s+(?!\S)|\s+"""
)


OWN_PATTERNS = frozenset({DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN})
"""The lab's own patterns, searched in the calling process: none holds memory for the characters it passes (no group
inside a repeat, no repeat that backtracks into a piece already found), so a split's memory is its text and its
pieces. Any other pattern is searched in a worker with a capped address space (:mod:`tokenizer.searcher`)."""

#: In English, marked for the catalogue (``N_``): a page shows ``_(pattern_words(...))``.
_PATTERN_WORDS = {
    DEFAULT_PATTERN: N_("the text is cut at spaces: each word, punctuation and all, keeps the space before it"),
    GPT2_PATTERN: N_("the text is cut into words, numbers and punctuation, each keeping the space before it "
                     "(GPT-2's pattern)"),
    GPT4_PATTERN: N_("the text is cut into words, numbers of up to three digits and punctuation, a word keeping "
                     "the space or mark before it (GPT-4's pattern)"),
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
        return N_("the text is cut at spaces, and the spaces are dropped")
    return _PATTERN_WORDS.get(pattern, N_("the text is cut into the pieces a pattern of your own matches"))


# -- what a pattern may be: checked when it is read -------------------------------------------
#
# A pattern comes from anyone: a link, an uploaded model, the command line. Some constructs cost
# memory or time out of all proportion before a single character is matched, so they are refused
# when the pattern is read, from the regex module's own parse of it (an escaped "\\(?R\\)" or a class
# "[(?R)]" is text, not a call, exactly as the engine sees it). The limits and their reasons are in
# the README; the figures come from bench/bench_patterns.py.
MAX_PATTERN_CHARS = 1_000
"""The longest pattern read (GPT-4's is 108 characters; a Train link keeps at most 200)."""
MAX_NESTING = 50
"""How deeply brackets and repeats may nest (the parse tree's depth); the regex module's own parser
fails with a RecursionError at about 200 levels of ``(?:``."""
MAX_REPEAT = 1_000
"""The largest count in a counted repeat ``{n}``, ``{n,m}``: the compiled pattern grows with it
(``a{1000000}`` takes 0.5 s and 270 MB to compile, ``a{4294967294}`` 2.8 GB and a MemoryError)."""
MAX_REPEAT_PRODUCT = 10_000
"""The product of the least counts of nested counted repeats (``(a{1000}){1000}`` takes 270 MB)."""
MAX_PATTERN_COPIES = 20_000
"""The parts of the compiled pattern in all, each counted as often as the counted repeats around it copy it: the
limits above hold for each repeat, this for their sum (62 alternatives of ``(?:a{100}){100}``, 991 characters,
compiled to 170 MB and were kept for the next request). A pattern at this limit compiles to about 3 MB."""
_KEPT_PATTERNS = 16
"""Compiled patterns kept for the next request, each twice (as given and in one group): with patterns at the
limits above, what a server keeps for them stays under 100 MB, whatever its learners send."""


class UnsafePattern(ValueError):
    """A pre-split pattern the lab refuses to run, whatever the text: it recurses, matches fuzzily,
    is too long, nests too deeply or repeats too many times. A ValueError, so every caller that
    reports bad input reports this too."""


def _shown(pattern: str, limit: int = 60) -> str:
    """The pattern as the message quotes it: its repr, cut short (a message is one line)."""
    text = repr(pattern)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _parse(pattern: str):
    """The regex module's own parse tree of ``pattern``, made the way ``regex.compile`` makes it (which
    parses a second time when a flag such as ``(?x)`` is set for the whole pattern after its start).
    None when the pattern does not parse: compiling it then says what is wrong."""
    from regex import _regex_core as core

    flags = 0
    while True:
        source = core.Source(pattern)
        info = core.Info(flags, source.char_type, {})
        info.guess_encoding = core.UNICODE
        source.ignore_space = bool(info.flags & core.VERBOSE)
        try:
            return core._parse_pattern(source, info)
        except core._UnscopedFlagSet:
            flags = info.global_flags
        except core.error:
            return None


def _check_shape(pattern: str) -> None:
    """Raise :class:`UnsafePattern` for what the lab refuses to run, before it is compiled (compiling
    ``(?R)?a|\\S`` alone takes about 1 GB and ends in a MemoryError)."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise UnsafePattern(
            f"The pre-split pattern is {len(pattern):,} characters long; the lab reads patterns of up to "
            f"{MAX_PATTERN_CHARS:,} characters (GPT-4's has 108): shorten it."
        )
    too_deep = UnsafePattern(
        f"The pre-split pattern {_shown(pattern)} nests brackets and repeats more than {MAX_NESTING} deep: "
        "simplify it."
    )
    try:
        tree = _parse(pattern)
    except RecursionError:
        raise too_deep from None
    except (ImportError, AttributeError, TypeError):  # a regex release whose parser the lab does not know
        if pattern in _PATTERN_WORDS:  # the lab's own patterns are known to be safe
            return
        raise UnsafePattern(
            "The lab cannot check pre-split patterns with this version of the regex module, so it runs only "
            "its own patterns; use the default ' ?\\S+', GPT-2's or GPT-4's."
        ) from None
    if tree is None:
        return
    from regex import _regex_core as core

    stack = [(tree, 1, 1)]  # (node, depth, product of the least counts of the repeats around it)
    copies = 0  # the parts the compiled pattern has, each counted as often as the repeats around it copy it
    while stack:
        node, depth, product = stack.pop()
        copies += product
        if depth > MAX_NESTING:
            raise too_deep
        if isinstance(node, core.CallGroup):
            raise UnsafePattern(
                f"The pre-split pattern {_shown(pattern)} calls a group ((?R), (?1), (?&name) and the like): "
                "a pattern that calls itself can take all the memory there is, so the lab does not run "
                "recursive patterns or group calls. Write the group out instead."
            )
        if isinstance(node, core.Fuzzy):
            raise UnsafePattern(
                f"The pre-split pattern {_shown(pattern)} matches fuzzily ({{e<=n}} and the like): its cost grows "
                "steeply with the errors allowed, and no tokenizer pre-splits that way. Remove the {…} "
                "error limit."
            )
        if isinstance(node, core.GreedyRepeat):  # lazy and possessive repeats are kinds of it
            counts = [c for c in (node.min_count, node.max_count) if c is not None]
            if max(counts) > MAX_REPEAT:
                raise UnsafePattern(
                    f"The pre-split pattern {_shown(pattern)} repeats something {max(counts):,} times; the lab "
                    f"allows counts of up to {MAX_REPEAT:,} in {{n}} and {{n,m}} (the pattern grows with the "
                    "count): use + or * instead."
                )
            product *= max(node.min_count, 1)
            if product > MAX_REPEAT_PRODUCT:
                raise UnsafePattern(
                    f"The pre-split pattern {_shown(pattern)} nests counted repeats that make {product:,} copies "
                    f"of what they repeat; the lab allows {MAX_REPEAT_PRODUCT:,}: use + or * instead."
                )
        for value in vars(node).values():
            children = value if isinstance(value, (list, tuple)) else (value,)
            stack.extend((child, depth + 1, product) for child in children if isinstance(child, core.RegexBase))
    if copies > MAX_PATTERN_COPIES:
        raise UnsafePattern(
            f"The pre-split pattern {_shown(pattern)} repeats so much that it would compile to {copies:,} parts; the "
            f"lab allows {MAX_PATTERN_COPIES:,} (the compiled pattern grows with them): use + or * instead of "
            "counted repeats."
        )


@lru_cache(maxsize=_KEPT_PATTERNS)
def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """Compile a pre-split pattern, or raise ValueError saying what is wrong
    (:class:`UnsafePattern` for one the lab refuses to run).

    >>> compile_pattern(r"(?R)?a|\\S")
    Traceback (most recent call last):
    ...
    tokenizer.pretokenize.UnsafePattern: The pre-split pattern '(?R)?a|\\\\S' calls a group ...
    >>> compile_pattern(r"\\(?R\\)|[(?R)]").pattern  # the same characters escaped, or in a class, are text
    '\\\\(?R\\\\)|[(?R)]'
    """
    if not pattern:
        raise ValueError("The pre-split pattern is empty: give a regular expression such as ' ?\\S+'.")
    _check_shape(pattern)
    try:
        compiled = regex.compile(pattern, cache_pattern=False)  # kept once, in this function's own cache
    except regex.error as exc:
        raise ValueError(f"The pre-split pattern {_shown(pattern)} is not a valid regular expression: {exc}.") from None
    if compiled.flags & regex.REVERSE:
        raise ValueError("The pre-split pattern searches right to left ((?r)); pieces must be found left to right.")
    return compiled


# -- how long a split may take: a budget for the whole text ----------------------------------------
#
# A user's pattern can backtrack for ever on some texts, or take a second for every piece. What a
# split may cost is a budget of CPU time for the WHOLE text: a floor any text gets, plus an
# allowance for each character. It is spent as the split goes: after splitting the first N
# characters the split may have used at most floor + N x per-character, so a pattern that is slow
# from the start is stopped after about the floor, long before it has run over a whole corpus.
# The allowance is a generous multiple of what the published patterns cost (figures:
# bench/bench_patterns.py); a text the default pattern splits never comes near it. Read at every
# call, so a test (or a caller) may set them lower.
PATTERN_TIMEOUT_S = 1.0
"""The floor: CPU seconds any text may take to split, however short."""
SPLIT_S_PER_CHAR = 5e-6
"""CPU seconds each character of the text adds to the budget (5 µs: the default pattern costs about
0.5 µs a character, GPT-2's and GPT-4's about 0.6, through the whole split)."""
_MIN_ROUND_S = 0.05  # the shortest search started, so a search near its budget still gets somewhere


class PatternTooCostly(ValueError):
    """The pre-split pattern costs more on this text than the lab allows one split: too much CPU time
    (:class:`PatternTimeout`) or too much memory (:class:`PatternMemory`). A ValueError, so every caller that
    reports bad input reports these too; catch this first to say something specific."""


class PatternTimeout(PatternTooCostly):
    """The pre-split pattern used up its time budget on a text (:data:`PATTERN_TIMEOUT_S` plus
    :data:`SPLIT_S_PER_CHAR` a character): it backtracks too much."""

    def __init__(self, pattern: str, seconds: float, chars: int = 0) -> None:
        self.pattern = pattern
        self.seconds = seconds
        self.chars = chars
        shown = f"{seconds:.1f} s" if seconds >= 1 else f"{seconds:.2g} s"
        where = "before it had found a single piece" if not chars else f"for the first {plural(chars, 'character')}"
        super().__init__(
            f"The pre-split pattern {_shown(pattern)} is too slow on this text: it used up the {shown} of CPU time "
            f"the lab allows {where} (it backtracks too much). Simplify it."
        )

    def __reduce__(self):  # pickle (a cache, a worker process) rebuilds it from its fields
        return type(self), (self.pattern, self.seconds, self.chars)


class PatternMemory(PatternTooCostly):
    """A search with the pre-split pattern needed more memory than the lab allows one split
    (:data:`tokenizer.searcher.SEARCH_MEMORY_MB`): it keeps something for every character it passes."""

    def __init__(self, pattern: str, megabytes: int, chars: int = 0) -> None:
        self.pattern = pattern
        self.megabytes = megabytes
        self.chars = chars
        where = f" after the first {plural(chars, 'character')}" if chars else ""
        super().__init__(
            f"The pre-split pattern {_shown(pattern)} needs more memory on this text than the {megabytes} MB the "
            f"lab allows a split{where}: while it looks for a piece it keeps something for every character it "
            "passes (a group inside a repeat, or choices it may have to undo). Simplify it: (?:...) instead of "
            "(...) inside a repeat, fewer alternatives that start alike."
        )

    def __reduce__(self):
        return type(self), (self.pattern, self.megabytes, self.chars)


class SplitBudget:
    """The CPU time splitting may take: :data:`PATTERN_TIMEOUT_S` plus :data:`SPLIT_S_PER_CHAR` for each
    character split so far. One budget may be shared by the splits of many texts (the words of a
    word-count corpus, the parts of a streamed text), so their total is bounded, not each one. Only
    the time spent splitting counts (``with budget:`` around it), not what a caller does in between."""

    def __init__(self) -> None:
        self.used = 0.0  # CPU seconds of the splits finished so far
        self.done = 0  # characters already split, in earlier texts
        self._since: float | None = None

    def __enter__(self) -> SplitBudget:
        self._since = time.thread_time()  # CPU time of this thread: a busy server does not make a split look slow
        return self

    def __exit__(self, *exc) -> None:
        self.used = self.spent()
        self._since = None

    def spent(self) -> float:
        return self.used + (time.thread_time() - self._since if self._since is not None else 0.0)

    def allowed(self, chars: int) -> float:
        """Seconds allowed once ``chars`` more characters (after :attr:`done`) are split."""
        return PATTERN_TIMEOUT_S + SPLIT_S_PER_CHAR * (self.done + chars)


_shared = threading.local()


@contextmanager
def shared_budget() -> Iterator[SplitBudget]:
    """Every split made inside the block, in this thread, draws on one :class:`SplitBudget`: for a
    caller that splits one request's text in parts with one pattern (a stream cut into parts), so
    the request, not each part, is bounded. Not for splits with different patterns: one slow
    pattern would use up the budget of the others. A block inside another shares the outer one's.

    >>> with shared_budget() as budget:
    ...     _ = split_text("chai pani", "regex"), split_text(" chai", "regex")
    >>> budget.done
    14
    """
    outer = getattr(_shared, "budget", None)
    _shared.budget = outer or SplitBudget()
    try:
        yield _shared.budget
    finally:
        _shared.budget = outer


@lru_cache(maxsize=_KEPT_PATTERNS)
def _capturing(pattern: str) -> regex.Pattern[str] | None:
    """``pattern`` wrapped in one capture group, or None where wrapping could change its meaning."""
    compiled = compile_pattern(pattern)
    if compiled.groups or compiled.flags & regex.VERBOSE or r"\K" in pattern:
        return None  # its own groups, comments that could swallow the ")", or \K moving the match start
    try:
        wrapped = regex.compile(f"({pattern})", cache_pattern=False)
    except regex.error:
        return None
    return wrapped if wrapped.flags == compiled.flags else None


def words(text: str) -> list[str]:
    """The words of ``text``, as the lab counts words everywhere (the CLI, the pages, the lessons'
    measurements): the runs of characters between white space, ``str.split()``, punctuation glued on.
    The ``whitespace`` pre-split cuts text into exactly these.

    >>> words("  The chai, please!\\tनमस्ते\\u00a0दुनिया ")
    ['The', 'chai,', 'please!', 'नमस्ते', 'दुनिया']
    """
    return text.split()


def word_count(text: str) -> int:
    """How many :func:`words` ``text`` has: the lab's one word-count rule (tokens per word divide by it).

    >>> word_count("Mera order 20 minute late hai, refund chahiye!"), word_count(" \\n "), word_count("")
    (8, 0, 0)
    """
    return len(text.split())


def split_text(
    text: str, split: str = "regex", pattern: str = DEFAULT_PATTERN, budget: SplitBudget | None = None
) -> list[str]:
    """Cut ``text`` into pieces; with ``regex`` the pieces join back into ``text``.

    Raises :class:`PatternTimeout` when the pattern uses up its time budget on ``text`` (a fresh
    :class:`SplitBudget`, unless one is given or a :func:`shared_budget` block is open), and
    :class:`PatternMemory` when a pattern not of the lab's own needs more memory than a split may take (see
    :mod:`tokenizer.searcher`). Nothing is returned then, so nothing half split can be cached.
    """
    return split_texts([text], split, pattern, budget)[0]


def split_texts(
    texts: list[str], split: str = "regex", pattern: str = DEFAULT_PATTERN, budget: SplitBudget | None = None
) -> list[list[str]]:
    """:func:`split_text` of each text, with one budget for them all (the words of a word-count corpus): a
    pattern not of the lab's own is sent to its worker once for all of them, not once a text."""
    if split == "whitespace":
        return [words(text) for text in texts]
    if split != "regex":
        raise ValueError(f"Unknown pre-split {split!r}: use one of {', '.join(SPLITS)}.")
    compiled = compile_pattern(pattern)
    budget = budget or getattr(_shared, "budget", None) or SplitBudget()
    if pattern not in OWN_PATTERNS:
        return split_in_worker(texts, pattern, budget)
    result = []
    for text in texts:
        with budget:
            result.append(_split_regex(text, compiled, pattern, budget))
        budget.done += len(text)
    return result


def _split_regex(text: str, compiled: regex.Pattern[str], pattern: str, budget: SplitBudget) -> list[str]:
    # Fast path: ``split`` with the pattern in one capture group returns, in one
    # call made in C, gap, match, gap, ..., gap. Keeping the non-empty ones gives
    # the pieces, as long as no match is empty (those are skipped below). It gets
    # half the floor of the budget: a text it cannot split in that time is split
    # by the path below, which keeps account of the budget as it goes.
    wrapped = _capturing(pattern)
    fast = min(PATTERN_TIMEOUT_S / 2, budget.allowed(0) - budget.spent())
    if wrapped is not None and fast > 0:
        try:
            parts = wrapped.split(text, timeout=fast)
        except TimeoutError:
            pass
        else:
            if "" not in parts[1::2]:
                return list(filter(None, parts))
    return _split_by_matches(text, compiled, pattern, budget=budget)


def _split_by_matches(
    text: str, compiled: regex.Pattern[str], pattern: str, restart_every: int | None = None,
    budget: SplitBudget | None = None,
) -> list[str]:
    """The pieces, from the pattern's matches; empty matches are skipped.

    The search runs in rounds, each with the time the budget still allows for the part of the
    text already split. When a round ends, the search starts again where the last non-empty
    match ended: a search started there finds exactly the matches the first one would have found
    (``^`` and lookbehinds still see the whole text, and an empty match is allowed right after a
    non-empty one in both). A pattern that has used more CPU time than the budget allows for what
    it has split so far raises :class:`PatternTimeout`. (The regex module's ``timeout`` is CPU time,
    so a busy machine does not cut a round short.) ``restart_every`` (for tests) also ends a round
    after that many matches.
    """
    if budget is None:
        with SplitBudget() as budget:
            return _split_by_matches(text, compiled, pattern, restart_every, budget)
    pieces: list[str] = []
    pos = 0  # the end of the last non-empty match: everything before it is in ``pieces``
    while True:
        allowed = budget.allowed(pos)
        if budget.spent() > allowed:
            raise PatternTimeout(pattern, allowed, budget.done + pos)
        found = 0
        try:
            timeout = max(allowed - budget.spent(), _MIN_ROUND_S)
            for match in compiled.finditer(text, pos, timeout=timeout):
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
            continue  # the next round starts where this one got to, if the budget still allows it
    if pos < len(text):
        pieces.append(text[pos:])
    return pieces


# -- a user's pattern, searched in a worker (tokenizer.searcher: the processes and the frames) ---------------------
def split_in_worker(texts: list[str], pattern: str, budget: SplitBudget) -> list[list[str]]:
    """Each text's pieces under ``pattern``, searched in a worker of :mod:`tokenizer.searcher` (whose address space
    is capped); ``budget`` is charged with the worker's CPU time and the characters split. Raises what the split in
    this process would raise, and :class:`PatternMemory` when a search needs more than
    :data:`tokenizer.searcher.SEARCH_MEMORY_MB`."""
    used = budget.spent()
    header = {"pattern": pattern, "used": used, "done": budget.done, "count": len(texts),
              "floor": PATTERN_TIMEOUT_S, "per_char": SPLIT_S_PER_CHAR}
    frames = [json.dumps(header).encode(), *(text.encode("utf-8", "surrogatepass") for text in texts)]
    allowed = budget.allowed(sum(map(len, texts)))
    wall_s = 3 * max(allowed - used, 0.1) + 10  # CPU seconds on a busy machine, and the worker's start
    answer = searcher.ask(frames, len(texts), wall_s)
    if answer is None:
        raise PatternTimeout(pattern, allowed, budget.done)
    reply, cuts = answer
    error = reply.get("error")
    if error == "timeout":
        budget.used = max(budget.used, reply["seconds"])
        raise PatternTimeout(pattern, reply["seconds"], reply["chars"])
    if error == "memory":
        raise PatternMemory(pattern, searcher.SEARCH_MEMORY_MB, reply["chars"])
    if error == "unsafe":
        raise UnsafePattern(reply["message"])
    if error is not None:
        raise ValueError(reply["message"])
    budget.used, budget.done = reply["used"], reply["done"]
    result = []
    for text, frame in zip(texts, cuts, strict=True):
        ends = array("q")
        ends.frombytes(frame)
        starts = [0, *ends[:-1]]
        result.append([text[a:b] for a, b in zip(starts, ends)])
    return result


def warm_up() -> None:
    """In a worker: load what a search needs (the regex module's compiler) before its memory cap is measured."""
    compile_pattern(DEFAULT_PATTERN)


def answer_search(header: dict, texts: list[bytes]) -> list[bytes]:
    """In a worker: split each text with the header's pattern and budget; the answer's frames (a JSON header, then
    each text's piece ends as 64-bit integers; or one JSON frame saying what stopped the search)."""
    global PATTERN_TIMEOUT_S, SPLIT_S_PER_CHAR
    budget = SplitBudget()
    budget.used, budget.done = header["used"], header["done"]
    PATTERN_TIMEOUT_S, SPLIT_S_PER_CHAR = header["floor"], header["per_char"]  # as the caller reads them now
    try:
        compiled = compile_pattern(header["pattern"])
        cuts = []
        for raw in texts:
            text = raw.decode("utf-8", "surrogatepass")
            with budget:
                pieces = _split_regex(text, compiled, header["pattern"], budget)
            ends = array("q")
            at = 0
            for piece in pieces:
                at += len(piece)
                ends.append(at)
            del pieces
            cuts.append(ends.tobytes())
            budget.done += len(text)
    except PatternTimeout as exc:
        return [json.dumps({"error": "timeout", "seconds": exc.seconds, "chars": exc.chars}).encode()]
    except MemoryError:
        return [json.dumps({"error": "memory", "chars": budget.done}).encode()]
    except UnsafePattern as exc:
        return [json.dumps({"error": "unsafe", "message": str(exc)}).encode()]
    except ValueError as exc:
        return [json.dumps({"error": "value", "message": str(exc)}).encode()]
    return [json.dumps({"used": budget.used, "done": budget.done}).encode(), *cuts]
