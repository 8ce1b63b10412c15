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
