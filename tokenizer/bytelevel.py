"""Byte-level tables: GPT-2's printable stand-in for each byte, and Hugging Face's numbering of base symbols.

Byte-level tokenizers (GPT-2 and its descendants, Hugging Face's ``ByteLevel``) write each of the 256
bytes as a printable character, so that a vocabulary file is text: a byte that prints stands for
itself, every other byte borrows a character from U+0100 up (a space is ``Ġ``, a newline ``Ċ``).
Hugging Face numbers a byte-level model's base symbols in the sorted order of those characters, and the
lab's ``"hf"`` tie rule ranks pairs by that numbering.

The engine's trainer (:mod:`tokenizer.train`), the Hugging Face export (:mod:`tokenizer.export`) and the
production tokenizers (:mod:`family.real`) use these tables. The textbook reference
(:mod:`tokenizer.reference`) takes the stand-in table from here too, but writes its own tie order, so
that the tests comparing the fast trainer with it still compare two independent rankings.

>>> stand_in = gpt2_byte_stand_ins()
>>> stand_in[ord(" ")], stand_in[ord("\\n")], stand_in[ord("a")], stand_in[0xE0]
('Ġ', 'Ċ', 'a', 'à')
>>> rank = hf_base_rank("bytes", None, 256)
>>> rank[ord("!")], rank[ord("a")], rank[ord(" ")]   # "!" sorts first; "Ġ" (U+0120) after every byte that prints
(0, 64, 220)
>>> hf_base_rank("chars", ["c", "h", "a", "i"], 4)  # the characters sorted: a c h i
[1, 2, 0, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache


@lru_cache(maxsize=1)
def _stand_ins() -> tuple[str, ...]:
    prints = set(range(ord("!"), ord("~") + 1)) | set(range(0xA1, 0xAD)) | set(range(0xAE, 0x100))
    table = []
    borrowed = 0x100
    for byte in range(256):
        if byte in prints:
            table.append(chr(byte))
        else:
            table.append(chr(borrowed))
            borrowed += 1
    return tuple(table)


def gpt2_byte_stand_ins() -> dict[int, str]:
    """GPT-2's ``bytes_to_unicode``: byte -> the printable character that stands for it.

    Printable bytes 33-126, 161-172 and 174-255 stand for themselves; every
    other byte, in byte order, gets the next character from U+0100 up
    (so a space, byte 32, is shown as ``Ġ``).

    >>> gpt2_byte_stand_ins()[32], gpt2_byte_stand_ins()[ord("a")]
    ('Ġ', 'a')
    """
    return dict(enumerate(_stand_ins()))


@lru_cache(maxsize=1)
def _byte_ranks() -> tuple[int, ...]:
    stand_in = _stand_ins()
    ranks = [0] * 256
    for position, byte in enumerate(sorted(range(256), key=stand_in.__getitem__)):
        ranks[byte] = position
    return tuple(ranks)


def hf_base_rank(unit: str, base: Sequence[str] | None, first_merge_id: int) -> list[int]:
    """Base id -> its number in Hugging Face's order (the ``"hf"`` tie rule): the base symbols sorted,
    bytes by their GPT-2 stand-in character, characters as they are; a byte-level end-of-word marker
    (id 256) comes after the 256 bytes. Merged tokens keep their own ids, which follow."""
    if unit == "bytes":
        return list(_byte_ranks()) + [256] * (first_merge_id - 256)
    assert base is not None
    rank = [0] * first_merge_id
    for position, i in enumerate(sorted(range(first_merge_id), key=lambda i: base[i])):
        rank[i] = position
    return rank


__all__ = ["gpt2_byte_stand_ins", "hf_base_rank"]
