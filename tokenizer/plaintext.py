"""The display rules as plain text: how a token, a character, a user's text or an answer is written. One copy.

Chips, tables, charts, captions and sentences all show text through this
module (through :mod:`ui.display` on pages), so a vowel sign or a space looks the same on every page. It is pure
Python (no Streamlit), so every rule is tested on its own.

The rules for a *token* (:func:`visible_token`, :func:`token_html`):

- Spaces and line breaks are drawn: ``·`` space, ``↵`` newline, ``⇥`` tab,
  ``␍`` carriage return. Any other space (no-break, thin, ideographic…) is
  shown by its code point, ``U+00A0``: it would look like nothing.
- Control characters, bidirectional controls, surrogates and a literal
  ``U+FFFD`` are shown by their code point: they are invisible, reorder
  their neighbours, or look like a broken byte.
- A zero-width joiner or other format character stays as it is between two
  visible characters (👩‍👩‍👧 stays one emoji, क्‍ष keeps its joiner); at a
  token's edge, or alone, it is shown by its code point.
- A combining mark with nothing to sit on (a Devanagari vowel sign that
  starts a token) is drawn on a dotted circle, ``◌े``, the convention of the
  Unicode charts and of Indic grammar books, and is *named* on screen where
  there is room (:func:`mark_name`: "vowel sign e"), because a projector and a
  phone have no hover. A lone variation selector is shown by its code point.
- Stray bytes of a split character arrive from the engine as ``⟨E0 A4⟩``
  and are kept as they are (hex, never ``�``).
- An empty token is ``∅``.

For a user's *text* shown as a whole (a sample sentence in a table cell),
:func:`readable_text` keeps spaces as spaces and only makes line breaks,
tabs and invisible controls visible.

Their HTML and Markdown forms (chips, captions, alerts) are :mod:`ui.display`'s;
feedback, worksheets and the lessons' checks use this module directly, so the
content layer needs no UI.

>>> visible_token(" chai\\n")
'·chai↵'
>>> visible_token("े"), mark_name("े")
('◌े', 'vowel sign e')
>>> visible_token("ं"), mark_name("ं")
('◌ं', 'anusvara')
>>> visible_token("⟨E0 A4⟩ि")
'⟨E0 A4⟩◌ि'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

from i18n import _

from .labels import character_runs, unit_word

WHITESPACE = {" ": "·", "\n": "↵", "\t": "⇥", "\r": "␍"}
DOTTED_CIRCLE = "\u25cc"
EMPTY = "∅"
# Always shown by their code point: invisible, or they would reorder the text around them.
_ALWAYS_CODE = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufffd")
_HEX_GROUP = re.compile(r"⟨[0-9A-F]{2}(?: [0-9A-F]{2})*⟩")


# -- one character -------------------------------------------------------------------------------
def code_point(ch: str) -> str:
    """``"U+0915"``."""
    return f"U+{ord(ch):04X}"


def is_mark(ch: str) -> bool:
    """A combining mark (vowel sign, virama, accent…): it draws on the character before it."""
    return unicodedata.category(ch).startswith("M")


def is_variation_selector(ch: str) -> bool:
    return 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF


_NAME_PARTS = re.compile(r"^(?:COMBINING |.*? (?=VOWEL SIGN )|.*? SIGN |.*? MARK )")


def mark_name(ch: str) -> str:
    """A combining mark's name in plain words, without its script: what a learner reads on screen.

    >>> [mark_name(c) for c in "ािंँ़्"]
    ['vowel sign aa', 'vowel sign i', 'anusvara', 'candrabindu', 'virama', 'nukta']
    >>> mark_name("\\u0301")
    'acute accent'
    """
    name = unicodedata.name(ch, "")
    if not name:
        return f"mark {code_point(ch)}"
    short = _NAME_PARTS.sub("", name) or name
    return short.lower()


def _shown_as_code(label: str, i: int) -> bool:
    """Should ``label[i]`` be drawn as its code point rather than as itself?"""
    ch = label[i]
    category = unicodedata.category(ch)
    if ch in _ALWAYS_CODE or category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp"):
        return True
    if category == "Zs" and ch != " ":
        return True
    if category == "Cf":
        # A joiner does its work between two visible characters (👩‍👧, क्‍ष); at an edge it is invisible.
        def drawn(j: int) -> bool:
            return 0 <= j < len(label) and unicodedata.category(label[j]) not in ("Cf",) and label[j] not in WHITESPACE

        return not (drawn(i - 1) and drawn(i + 1))
    return False


# -- segments: one pass, two renderers ------------------------------------------------------------
# A label is cut into (kind, text) segments:
#   "text"  drawn as it is         "ws"   a whitespace symbol (· ↵ ⇥ ␍)
#   "code"  U+XXXX                 "hex"  ⟨E0 A4⟩ stray bytes
#   "lone"  ◌ + a combining mark with nothing to sit on


def segments(label: str) -> Iterator[tuple[str, str]]:
    pos = 0
    for match in _HEX_GROUP.finditer(label):
        yield from _char_segments(label[pos : match.start()])
        yield "hex", match.group(0)
        pos = match.end()
    yield from _char_segments(label[pos:])


def _char_segments(label: str) -> Iterator[tuple[str, str]]:
    base_ok = False  # is there a drawn character for a combining mark to sit on?
    for i, ch in enumerate(label):
        if ch in WHITESPACE:
            yield "ws", WHITESPACE[ch]
            base_ok = False
        elif _shown_as_code(label, i) or (is_variation_selector(ch) and not base_ok):
            yield "code", code_point(ch)
            base_ok = False
        elif is_mark(ch) and not base_ok:
            yield "lone", DOTTED_CIRCLE + ch
            base_ok = True  # a second mark sits on the same circle
        else:
            yield "text", ch
            base_ok = True


def visible_token(label: str) -> str:
    """A token label as plain text with every rule applied (for tables, charts and sentences)."""
    if not label:
        return EMPTY
    return "".join(text for _kind, text in segments(label))


def lone_marks(label: str) -> list[str]:
    """The combining marks in ``label`` that have nothing to sit on (drawn on ◌), in order."""
    return [text[1:] for kind, text in segments(label) if kind == "lone"]


_NO_BREAK = "\u00a0"


def _glued(shown: str) -> str:
    """A shown token whose ``⟨E0 A4⟩`` groups cannot be broken across two lines (the bytes joined by no-break spaces)."""
    return _HEX_GROUP.sub(lambda m: m.group(0).replace(" ", _NO_BREAK), shown)


def tokens_text(tokens: Sequence[tuple[str, bytes | None]], separator: str = " | ") -> str:
    """Tokens as one line of plain text, by the same rules as the chips (:mod:`ui.chips`): for feedback,
    answer keys and worksheets.

    ``tokens`` are ``(label, bytes)`` pairs (the engine's ``Token.label`` and ``Token.bytes``). Each token
    is shown by :func:`visible_token` (a space as ``·``, a vowel sign on ``◌``, stray bytes as ``⟨E0 A4⟩``
    that never break across lines). Where tokens hold a character split between them, the letters they
    make follow the last of them in brackets, the text twin of the letters the chips write under a run
    (both from :func:`tokenizer.labels.character_runs`). A vowel sign or other mark with nothing to sit on,
    outside such a run, is named in brackets after it. When a token holds the separator itself, every token
    is put in quotes, so ``<|endoftext|>`` reads ``“<” | “|” | “endo”…``.

    >>> tokens_text([(" ", b" "), ("⟨E0 A4⟩", b"\\xe0\\xa4"), ("⟨98⟩", b"\\x98"), ("न", "न".encode()), ("े", "े".encode())])
    '· | ⟨E0\xa0A4⟩ | ⟨98⟩ (घ) | न | ◌े (vowel sign e)'
    """
    tokens = list(tokens)
    quote = any(separator.strip() in label for label, _data in tokens) if separator.strip() else False
    runs = {}
    if all(data is not None for _label, data in tokens):
        runs = {start: (end, text) for start, end, text in character_runs([data or b"" for _label, data in tokens])}
    out: list[str] = []
    i = 0
    while i < len(tokens):
        end, text = runs.get(i, (i + 1, None))
        shown = [_glued(visible_token(label)) for label, _data in tokens[i:end]]
        if quote:
            shown = [f"“{s}”" for s in shown]
        if text is None:
            names = [_(mark_name(m)) for m in lone_marks(tokens[i][0])]  # in the reader's language
            out.append(shown[0] + (f" ({', '.join(names)})" if names else ""))
        else:
            letters = visible_token(text.strip() or text)
            shown[-1] += f" ({letters})"
            out.extend(shown)
        i = end
    return separator.join(out)


MAX_WORDS_SHOWN = 40
"""The most words :func:`tokens_by_word` lists (a longer text ends with "…")."""


def tokens_by_word(tokens: Sequence[tuple[str, bytes | None]], text: str | None = None, separator: str = " · ",
                   ) -> str | None:
    """How many tokens each word of the text takes, the words written out: ``"घने 5 · कोहरे 9"``. The readable
    summary of a text whose tokens are mostly bytes of letters (their own list, :func:`tokens_text`, is one ⟨hex⟩
    chip each). A token belongs to the word its first letter (not a space) is in; a token of spaces only, to the
    word after it. None when the tokens do not spell out ``text`` (a tokenizer that drops spaces, one that
    normalises the text).

    >>> data = "घने घर".encode()
    >>> tokens_by_word([("", data[:4]), ("", data[4:9]), ("", data[9:13]), ("", data[13:])])
    'घने 2 · घर 2'
    >>> tokens_by_word([("a", b"a"), ("b", None)]) is None, tokens_by_word([("ab", b"ab")], "a b") is None
    (True, True)
    """
    if any(data is None for _label, data in tokens):
        return None
    data = b"".join(data or b"" for _label, data in tokens)
    try:
        spelled = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if text is not None and spelled.strip() != text.strip():  # SentencePiece adds a space before the first word
        return None
    words = [(m.start(), m.end()) for m in re.finditer(rb"\S+", data)]
    if not words:
        return None
    counts = [0] * len(words)
    at = w = 0
    for _label, chunk in tokens:
        first = at + (len(chunk or b"") - len((chunk or b"").lstrip()))  # its first byte that is not a space
        while w < len(words) - 1 and words[w][1] <= first:
            w += 1
        counts[w] += 1
        at += len(chunk or b"")
    shown = [f"{data[s:e].decode()} {n}" for (s, e), n in zip(words, counts)]
    return separator.join(shown[:MAX_WORDS_SHOWN]) + (separator + "…" if len(shown) > MAX_WORDS_SHOWN else "")


def pair_text(left: str, right: str) -> str:
    """``"c + ha"``: a pair of token labels, each shown by the token rules."""
    return f"{visible_token(left)} + {visible_token(right)}"


def describe_token(label: str) -> str:
    """A token for a screen reader or a tooltip: its visible text, and any lone mark by name."""
    shown = repr(visible_token(label))
    marks = lone_marks(label)
    if marks:
        shown += " (" + ", ".join(_("{mark} on its own", mark=_(mark_name(m))) for m in marks) + ")"
    return shown


# -- a user's text as a whole --------------------------------------------------------------------
_LINE_SYMBOLS = {"\n": "↵", "\t": "⇥", "\r": "␍"}


def readable_text(text: str, limit: int | None = None) -> str:
    """A sentence for a table cell or a caption: spaces and joiners kept (so words and emoji read
    normally), line breaks and tabs as ``↵ ⇥``, controls and direction marks by their code point.
    ``limit`` cuts it to that many characters with ``…``."""
    cut = text if limit is None or len(text) <= limit else text[:limit] + "…"
    out = []
    for ch in cut:
        if ch in _LINE_SYMBOLS:
            out.append(_LINE_SYMBOLS[ch])
        elif ch in _ALWAYS_CODE or unicodedata.category(ch) in ("Cc", "Cs"):
            out.append(code_point(ch))
        else:
            out.append(ch)
    return "".join(out)


# -- words and numbers ---------------------------------------------------------------------------
def join_words(items: Sequence[str], more: int = 0) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``; with ``more=4`` -> ``"a, b, c and 4 more"``."""
    items = list(items)
    if more:
        return ", ".join(items) + f" and {more:,} more"
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def and_words(items: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``, in the language of the run (:func:`join_words` is the command
    line's, English always).

    >>> and_words(["city", "item", "price"]), and_words(["city"])
    ('city, item and price', 'city')
    """
    items = list(items)
    return "".join(items) if len(items) <= 1 else _("{some} and {last}", some=", ".join(items[:-1]), last=items[-1])


def answer_text(value: Any) -> str:
    """An exercise's answer (or a guess) as one line: items joined by `` | ``, whole numbers with commas.

    >>> answer_text(["n + e", "ne + w"]), answer_text(7650.0), answer_text(2.46), answer_text("po")
    ('n + e | ne + w', '7,650', '2.46', 'po')
    """
    if isinstance(value, (list, tuple)):
        return " | ".join(str(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    if isinstance(value, (int, float)):
        return f"{value:,}"
    return str(value)


def quantity(value: Any, unit: str = "") -> str:
    """An answer with its unit (given in the plural, as exercises give it), by the one plural rule
    (:func:`tokenizer.labels.plural`): ``"1 token"``, ``"2 code points"``, ``"2.46 rupees"``.

    >>> quantity(1, "tokens"), quantity(7650.0, "tokens"), quantity(2.46, "rupees"), quantity("po")
    ('1 token', '7,650 tokens', '2.46 rupees', 'po')
    """
    shown = answer_text(value)
    if not unit:
        return shown
    try:
        n = float(value)
    except (TypeError, ValueError):
        return f"{shown} {unit}"
    return f"{shown} {unit_word(n, unit)}"


def ratio(a: float, b: float, digits: int = 2) -> str:
    """``a / b`` with ``digits`` decimals, or ``—`` when ``b`` is 0."""
    return f"{a / b:.{digits}f}" if b else "—"
