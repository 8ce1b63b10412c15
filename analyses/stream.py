"""Streaming decode: turning token ids into text as they arrive.

A model writes one token at a time. With a byte-level tokenizer a token
can end in the middle of a character (every Devanagari letter is 3 bytes),
so decoding each token on its own shows ``�``. The fix is to hold the
bytes back until a character is complete, which Python's incremental
UTF-8 decoder does for us:

>>> import codecs
>>> dec = codecs.getincrementaldecoder("utf-8")()
>>> data = "खबर".encode()
>>> [dec.decode(data[i:i + 2]) for i in range(0, len(data), 2)]
['', 'ख', 'ब', '', 'र']

:func:`stream` (ids of any tokenizer) and :func:`stream_tokens` (the
:class:`~tokenizer.interface.Token` objects of any tokenizer) replay a
stream both ways at once, one :class:`StreamEvent` per token;
:func:`so_far` says what each decoder shows after the first ``k`` tokens.

>>> events = stream_bytes([b"\\xe0\\xa4", b"\\x96\\xe0", b"\\xa4\\xac"])   # खब, cut badly
>>> [(e.naive, e.text, e.held_bytes.hex(" ")) for e in events]
[('�', '', 'e0 a4'), ('��', 'ख', 'e0'), ('��', 'ब', '')]
>>> partial_count(events)
3
"""

from __future__ import annotations

import builtins
import codecs
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tokenizer.interface import TextTokenizer, Token
from tokenizer.labels import is_whole

REPLACEMENT = "\ufffd"
"""The replacement mark a decoder writes for bytes that are not a character."""


def naive_parts(data: bytes) -> tuple[tuple[str, bytes], ...]:
    """Decode ``data`` on its own, as a naive stream does, keeping track of what went wrong.

    Returns ``(text, bad)`` parts: ``bad`` is empty for text decoded as it is, and holds
    the bytes that became one replacement mark ``�`` otherwise (Python's rule: one mark
    for each maximal run of bytes that cannot start or finish a character). Joined, the
    texts are exactly ``data.decode("utf-8", errors="replace")``.

    >>> naive_parts("ख".encode()[:2])
    (('�', b'\\xe0\\xa4'),)
    >>> naive_parts(b" \\xe0\\xa4")
    ((' ', b''), ('�', b'\\xe0\\xa4'))
    >>> naive_parts("ब".encode()[2:] + "र".encode())
    (('�', b'\\xac'), ('र', b''))
    """
    parts: list[tuple[str, bytes]] = []
    rest = data
    while rest:
        try:
            parts.append((rest.decode("utf-8"), b""))
            break
        except UnicodeDecodeError as exc:
            if exc.start:
                parts.append((rest[: exc.start].decode("utf-8"), b""))
            parts.append((REPLACEMENT, rest[exc.start : exc.end]))
            rest = rest[exc.end :]
    return tuple(parts)


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """What one token did to the stream.

    ``bytes``        the token's bytes.
    ``naive``        what a naive decoder shows for this token alone (``�`` for broken bytes).
    ``naive_parts``  the same, as ``(text, bad bytes)`` parts (see :func:`naive_parts`).
    ``text``         what a careful (incremental) decoder shows now: the characters this token completes.
    ``held``         how many bytes the careful decoder is holding after this token.
    ``held_bytes``   those bytes (the start of a character still to come).
    """

    token_id: int
    bytes: bytes
    naive: str
    text: str
    held: int
    held_bytes: builtins.bytes = b""  # builtins.: the field above is named bytes
    naive_parts: tuple[tuple[str, builtins.bytes], ...] = ()

    @property
    def whole(self) -> bool:
        """True when the token's bytes are whole characters on their own (a naive decoder shows it cleanly)."""
        return is_whole(self.bytes)


class StreamDecoder:
    """Feed ids one at a time; get back only complete characters.

    >>> from tokenizer import train
    >>> tok = train("खबर खबर", 0).tokenizer
    >>> dec = StreamDecoder(tok)
    >>> [dec.feed(i) for i in tok.encode("ख")]
    ['', '', 'ख']
    """

    def __init__(self, tokenizer: TextTokenizer | None) -> None:
        self.tokenizer = tokenizer
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, token_id: int) -> str:
        """Add one token; return the text it completes (possibly '')."""
        return self.feed_bytes(_token_bytes(self.tokenizer, token_id))

    def feed_bytes(self, data: bytes) -> str:
        """Add raw bytes (a token's, or any chunk); return the text they complete (possibly '').

        >>> dec = StreamDecoder(None)
        >>> data = "खबर".encode()
        >>> [dec.feed_bytes(data[i:i + 2]) for i in range(0, len(data), 2)]
        ['', 'ख', 'ब', '', 'र']
        """
        return self._decoder.decode(data)

    @property
    def held(self) -> int:
        """How many bytes are waiting for the rest of their character."""
        return len(self._decoder.getstate()[0])

    @property
    def held_bytes(self) -> bytes:
        """The bytes waiting for the rest of their character.

        >>> dec = StreamDecoder(None)
        >>> dec.feed_bytes("ख".encode()[:2]), dec.held_bytes
        ('', b'\\xe0\\xa4')
        """
        return bytes(self._decoder.getstate()[0])

    def flush(self) -> str:
        """End of stream: whatever is held comes out (as ``�`` if incomplete)."""
        return self._decoder.decode(b"", final=True)


def _token_bytes(tokenizer: TextTokenizer | None, token_id: int) -> bytes:
    if tokenizer is None:
        raise ValueError("This decoder has no tokenizer: feed it bytes with feed_bytes().")
    many = getattr(tokenizer, "token_bytes_list", None)  # a lab model with an end-of-word marker adds its space
    return many([token_id])[0] if many is not None else tokenizer.token_bytes(token_id)


def stream_bytes(chunks: Iterable[bytes], ids: Iterable[int] | None = None) -> list[StreamEvent]:
    """Replay a stream of byte chunks (one per token), the naive way and the careful way.

    ``ids`` are the tokens' ids, for the events (``-1`` each when not given).
    """
    dec = StreamDecoder(None)
    events = []
    id_list = list(ids) if ids is not None else None
    for i, data in enumerate(chunks):
        text = dec.feed_bytes(data)
        parts = naive_parts(data)
        held = dec.held_bytes
        events.append(StreamEvent(id_list[i] if id_list is not None else -1, data, "".join(t for t, _ in parts),
                                  text, len(held), held, parts))
    return events


def stream(tokenizer: TextTokenizer, ids: Iterable[int]) -> list[StreamEvent]:
    """Replay a stream of ids token by token, both the naive way and the careful way."""
    ids = list(ids)
    return stream_bytes((_token_bytes(tokenizer, token_id) for token_id in ids), ids)


def stream_tokens(tokens: Iterable[Token]) -> list[StreamEvent]:
    """:func:`stream` for tokens already encoded (``encode_tokens``): works for any tokenizer,
    an unseen character of a character-level model included."""
    tokens = list(tokens)
    return stream_bytes((t.bytes for t in tokens), (t.id for t in tokens))


def partial_count(events: Sequence[StreamEvent]) -> int:
    """How many tokens of a stream are not whole characters on their own (a naive decoder breaks each)."""
    return sum(1 for e in events if not e.whole)


@dataclass(frozen=True, slots=True)
class SoFar:
    """What each decoder has shown after the first ``step`` tokens of a stream.

    ``naive``  the naive decoder's output, as ``(text, bad bytes)`` parts (neighbouring text joined).
    ``text``   the careful decoder's output.
    ``held``   the bytes the careful decoder is holding back (the start of a character).
    ``marks``  how many replacement marks the naive output holds.
    """

    step: int
    naive: tuple[tuple[str, bytes], ...]
    text: str
    held: bytes
    marks: int

    @property
    def naive_text(self) -> str:
        return "".join(t for t, _ in self.naive)


def so_far(events: Sequence[StreamEvent], step: int) -> SoFar:
    """Both decoders' output after ``step`` tokens (0: nothing yet; clamped to the stream's length).

    >>> s = so_far(stream_bytes([b"\\xe0\\xa4", b"\\x96 a"]), 2)
    >>> s.naive_text, s.text, s.held, s.marks
    ('�� a', 'ख a', b'', 2)
    """
    step = max(0, min(step, len(events)))
    parts: list[tuple[str, bytes]] = []
    for event in events[:step]:
        for text, bad in event.naive_parts:
            if not bad and parts and not parts[-1][1]:
                parts[-1] = (parts[-1][0] + text, b"")
            else:
                parts.append((text, bad))
    marks = sum(1 for _, bad in parts if bad)
    text = "".join(e.text for e in events[:step])
    held = events[step - 1].held_bytes if step else b""
    return SoFar(step, tuple(parts), text, held, marks)


__all__ = ["REPLACEMENT", "SoFar", "StreamDecoder", "StreamEvent", "naive_parts", "partial_count", "so_far", "stream",
           "stream_bytes", "stream_tokens"]
