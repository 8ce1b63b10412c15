"""Expected values from an independent source: the textbook trainer (tokenizer/reference.py).

It recounts every pair after every merge and encodes by replaying every merge over every word, sharing
nothing with the fast trainer and its encoder but the pre-split. A test that needs "how many tokens" or
"which tokens" for a preset compares the engine's figure with these, never with a number copied from the
engine's own output (which would only say the engine agrees with itself).
"""

from __future__ import annotations

from functools import lru_cache

from tokenizer.reference import encode_reference, train_reference


@lru_cache(maxsize=16)
def reference_token_bytes(corpus: str, merges: int, text: str, *, unit: str = "bytes", split: str = "regex",
                          pattern: str, end_of_word: str | None = None, ties: str = "first") -> tuple[bytes, ...]:
    """The bytes of each token of ``text``, trained and encoded the textbook way with these settings (a
    preset's: ``reference_token_bytes(p.corpus, p.merges, text, **p.train_kwargs())``). Byte unit only."""
    if unit != "bytes" or end_of_word:
        raise ValueError("the oracle covers the byte unit without an end-of-word marker (the lab's presets)")
    result = train_reference(corpus, merges, unit=unit, split=split, pattern=pattern, ties=ties)
    table = {i: bytes([i]) for i in range(256)}
    for step in result.steps:
        table[step.new_id] = table[step.pair[0]] + table[step.pair[1]]
    ids = encode_reference(text, result.merges, unit="bytes", split=split, pattern=pattern)
    return tuple(table[i] for i in ids)


def not_text_alone(data: bytes) -> bool:
    """True when a token's bytes are not whole characters on their own (decoding them alone fails)."""
    try:
        data.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return True
    return False
