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
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Iterable

from .model import Tokenizer


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """What one token did to the stream: its bytes, what a naive decoder shows, what a careful one shows."""

    token_id: int
    bytes: bytes
    naive: str
    text: str
    held: int


class StreamDecoder:
    """Feed ids one at a time; get back only complete characters.

    >>> from tokenizer import train
    >>> tok = train("खबर खबर", 0).tokenizer
    >>> dec = StreamDecoder(tok)
    >>> [dec.feed(i) for i in tok.encode("ख")]
    ['', '', 'ख']
    """

    def __init__(self, tokenizer: Tokenizer | None) -> None:
        self.tokenizer = tokenizer
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, token_id: int) -> str:
        """Add one token; return the text it completes (possibly '')."""
        return self.feed_bytes(self.tokenizer.token_bytes_list([token_id])[0])

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

    def flush(self) -> str:
        """End of stream: whatever is held comes out (as ``�`` if incomplete)."""
        return self._decoder.decode(b"", final=True)


def stream(tokenizer: Tokenizer, ids: Iterable[int]) -> list[StreamEvent]:
    """Replay a stream token by token, both the naive way and the careful way."""
    dec = StreamDecoder(tokenizer)
    events = []
    for token_id in ids:
        data = tokenizer.token_bytes_list([token_id])[0]
        text = dec.feed(token_id)
        events.append(StreamEvent(token_id, data, data.decode("utf-8", errors="replace"), text, dec.held))
    return events
