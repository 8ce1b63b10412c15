"""How a token's bytes are shown to a person.

A byte-level token can end in the middle of a multi-byte UTF-8 character.
Decoding such a token on its own would give the replacement mark ``�``,
which hides what the token really holds. Instead we show the whole
characters as text and the stray bytes as hex inside ``⟨ ⟩``:

>>> bytes_label("खबर".encode())
'खबर'
>>> bytes_label("ख".encode()[:2])
'⟨E0 A4⟩'
>>> bytes_label(" न".encode() + b"\\xe0")
' न⟨E0⟩'
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence

import regex

_GRAPHEME = regex.compile(r"\X")

PARTIAL_OPEN, PARTIAL_CLOSE = "⟨", "⟩"


def is_whole(data: bytes) -> bool:
    """True when ``data`` is complete UTF-8 text on its own."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def hex_bytes(data: bytes) -> str:
    """``b'\\xe0\\xa4'`` -> ``'E0 A4'``."""
    return " ".join(f"{byte:02X}" for byte in data)


def bytes_label(data: bytes) -> str:
    """Whole characters as text, stray bytes as ``⟨hex⟩``."""
    out: list[str] = []
    rest = data
    while rest:
        try:
            out.append(rest.decode("utf-8"))
            break
        except UnicodeDecodeError as exc:
            out.append(rest[: exc.start].decode("utf-8"))
            bad_end = exc.end
            # Gather consecutive undecodable bytes into one ⟨…⟩ group.
            while bad_end < len(rest):
                try:
                    rest[bad_end:].decode("utf-8")
                    break
                except UnicodeDecodeError as nxt:
                    if nxt.start != 0:
                        break
                    bad_end += nxt.end
            out.append(PARTIAL_OPEN + hex_bytes(rest[exc.start : bad_end]) + PARTIAL_CLOSE)
            rest = rest[bad_end:]
    return "".join(out)


# -- counts in words: the one plural rule (the app's pages, the lessons and the command line) -------------
_SINGULAR = {"matches": "match", "boxes": "box", "pieces": "piece"}


def plural(n: int, singular: str, many: str | None = None) -> str:
    """``plural(1, "distinct pair")`` -> ``"1 distinct pair"``; ``plural(2, ...)`` -> ``"2 distinct pairs"``.

    >>> plural(1, "time"), plural(1200, "token"), plural(2, "match", "matches"), plural(0, "code point")
    ('1 time', '1,200 tokens', '2 matches', '0 code points')
    """
    word = singular if n == 1 else (many or singular + "s")
    return f"{n:,} {word}"


def unit_word(n: float, unit: str) -> str:
    """A unit given in the plural (an exercise's ``unit``: "code points", "rupees") as it goes with ``n``: the
    same rule as :func:`plural`, singular for exactly one.

    >>> unit_word(1, "code points"), unit_word(2, "code points"), unit_word(1.0, "rupees"), unit_word(1, "matches")
    ('code point', 'code points', 'rupee', 'match')
    """
    if n != 1 or not unit.endswith("s"):
        return unit
    return _SINGULAR.get(unit, unit[:-1])


def character_runs(chunks: Sequence[bytes]) -> list[tuple[int, int, str]]:
    """Where stray bytes become letters again.

    ``chunks`` are consecutive tokens' bytes. Returns ``(start, end, text)``
    for every run of tokens ``chunks[start:end]`` that holds a character split
    across tokens: the run starts and ends where a reader's character (a
    grapheme cluster) starts and ends, and ``text`` is what it makes. Tokens
    that are whole characters on their own, outside such runs, are left out.

    >>> data = "घने".encode()          # 9 bytes: घ, न and the vowel sign े, 3 bytes each
    >>> character_runs([data[:2], data[2:4], data[4:6], data[6:]])
    [(0, 4, 'घने')]
    >>> character_runs([b"ab", "क".encode(), "ि".encode()])   # nothing split: no run
    []
    """
    data = b"".join(chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _code_point_runs(chunks)
    bounds = {0}
    offset = 0
    for cluster in _GRAPHEME.findall(text):
        offset += len(cluster.encode("utf-8", errors="surrogatepass"))
        bounds.add(offset)
    runs: list[tuple[int, int, str]] = []
    start = offset = 0
    partial = False
    for i, chunk in enumerate(chunks):
        offset += len(chunk)
        partial = partial or not is_whole(chunk)
        if offset in bounds:
            if partial:
                runs.append((start, i + 1, b"".join(chunks[start : i + 1]).decode("utf-8")))
            start, partial = i + 1, False
    return runs


def _code_point_runs(chunks: Sequence[bytes]) -> list[tuple[int, int, str]]:
    """:func:`character_runs` for bytes that are not valid UTF-8 as a whole: cut at code points."""
    runs: list[tuple[int, int, str]] = []
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    start = 0
    text: list[str] = []
    partial = False
    for i, chunk in enumerate(chunks):
        text.append(decoder.decode(chunk))
        partial = partial or not is_whole(chunk)
        if not decoder.getstate()[0]:  # a character boundary: nothing is held back
            if partial:
                runs.append((start, i + 1, "".join(text)))
            start, text, partial = i + 1, [], False
    if start < len(chunks) and partial:
        runs.append((start, len(chunks), "".join(text) + decoder.decode(b"", final=True)))
    return runs
