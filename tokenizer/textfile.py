"""Reading a text file a person gave us, and writing output files without losing theirs.

Three rules, each one a message a learner can act on rather than a traceback:

- :func:`decode_text` turns a file's bytes into text, or says what the file
  is instead (UTF-16, UTF-32, binary, another encoding) and what to do;
- :func:`read_limited` reads at most :data:`MAX_INPUT_BYTES`, and refuses a
  device such as ``/dev/zero`` that never ends;
- :func:`write_files` writes several outputs all together or not at all, and
  names the file when a write fails.

>>> decode_text("चाय".encode("utf-8"))
'चाय'
>>> decode_text("chai".encode("utf-16-le"))
Traceback (most recent call last):
...
ValueError: this file is UTF-16 (little-endian), not UTF-8: convert it (iconv -f UTF-16LE -t UTF-8 FILE) or open it in a text editor and save it again as UTF-8.
>>> decode_text(b"chai \\xff")
Traceback (most recent call last):
...
ValueError: this file is not valid UTF-8: the byte 0xFF at offset 5 cannot start a character. It was probably saved in another encoding: save it again as UTF-8.
"""

from __future__ import annotations

import codecs
import os
import secrets
import select
import stat
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import IO

from i18n import N_, _
from i18n import number as number_of

MAX_INPUT_BYTES = 100_000_000
"""The most the command line reads from one file (100 MB): far more text than BPE needs to show
every idea, and little enough to hold in memory."""

_CHUNK = 1 << 20

_UTF8_BOM = b"\xef\xbb\xbf"

_BOMS = (  # longest first: the UTF-32 little-endian mark begins with the UTF-16 one
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
)


def _wide_encoding(data: bytes) -> str | None:
    """The name of the UTF-16 or UTF-32 encoding ``data`` is in, judged by its byte-order mark
    or, without one, by where its NUL bytes are; None when it is neither."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if b"\x00" not in head:
        return None
    n4 = len(head) - len(head) % 4
    lanes = [head[i:n4:4] for i in range(4)]
    # UTF-32: every character is four bytes, the top one always NUL, the next one at most 0x10.
    if n4 and not lanes[3].strip(b"\x00") and max(lanes[2]) <= 0x10 and lanes[0].strip(b"\x00"):
        if _decodes(head[:n4], "utf-32-le"):
            return "UTF-32 (little-endian)"
    if n4 and not lanes[0].strip(b"\x00") and max(lanes[1]) <= 0x10 and lanes[3].strip(b"\x00"):
        if _decodes(head[:n4], "utf-32-be"):
            return "UTF-32 (big-endian)"
    # UTF-16: ASCII characters (spaces, digits, Latin letters) have a NUL high byte, so NULs
    # fall on one side only (odd offsets: little-endian), and there are plenty of them.
    n2 = len(head) - len(head) % 2
    even, odd = head[0:n2:2], head[1:n2:2]
    if not even.count(0) and _looks_utf16(odd) and _decodes(head[:n2], "utf-16-le"):
        return "UTF-16 (little-endian)"
    if not odd.count(0) and _looks_utf16(even) and _decodes(head[:n2], "utf-16-be"):
        return "UTF-16 (big-endian)"
    return None


def _looks_utf16(high: bytes) -> bool:
    """Whether ``high``, every character's high byte if the text were UTF-16, looks like a text's: a NUL for at
    least one character in eight (ASCII: spaces, digits, punctuation) and either most characters ASCII (Latin
    text) or the others nearly all in one block of 256 (one script: 0x09 for Devanagari). A UTF-8 text with a
    stray NUL or two read this way has its letters for high bytes, all different: it is binary, not UTF-16."""
    units, nuls = len(high), high.count(0)
    if not units or nuls * 8 < units:
        return False
    if nuls * 2 >= units:
        return True
    others = Counter(high.replace(b"\x00", b""))
    return others.most_common(1)[0][1] * 4 >= (units - nuls) * 3


def _decodes(data: bytes, encoding: str) -> bool:
    """Whether ``data`` is the start of a text in ``encoding`` (it may end inside a character)."""
    try:
        codecs.getincrementaldecoder(encoding)().decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


def decode_text(data: bytes, what: str = "this file") -> str:
    """A text file's bytes as text, or ValueError saying, in a learner's words, what is wrong.

    UTF-8 only (a UTF-8 byte-order mark is dropped). A UTF-16 or UTF-32 file, with or
    without a byte-order mark, is named as such; a file with NUL bytes is called binary;
    any other invalid byte is given with its offset. ``what`` starts each message
    (e.g. ``"the corpus notes.txt"``). Empty data gives ``""``: whether that is allowed
    is the caller's rule.
    """
    wide = _wide_encoding(data)
    if wide is not None:
        return _refuse(_wide_message(what, wide, data))
    if b"\x00" in data:
        return _refuse(_binary_message(what, data.index(b"\x00")))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _refuse(_not_utf8(what, exc, 0))
    return text.removeprefix("\ufeff")


# The messages are the learner's, in the run's language (i18n: English on the command line, which sets none). ``what``
# is the caller's: a file's name, or one of these, marked for the catalogue and translated where the message is made.
FILE_WORDS = (N_("this file"), N_("This file"))


def _wide_message(what: str, wide: str, data: bytes) -> str:
    source = _ICONV[wide]
    if any(data.startswith(bom) for bom, _mark in _BOMS):
        source = source[:6]  # UTF-16 or UTF-32: iconv reads the byte order from the mark and drops it
    return _("{what} is {encoding}, not UTF-8: convert it (iconv -f {source} -t UTF-8 FILE) or open it in a text "
             "editor and save it again as UTF-8.", what=_(what), encoding=wide, source=source)


_ICONV = {
    "UTF-32 (little-endian)": "UTF-32LE",
    "UTF-32 (big-endian)": "UTF-32BE",
    "UTF-16 (little-endian)": "UTF-16LE",
    "UTF-16 (big-endian)": "UTF-16BE",
}


def _binary_message(what: str, offset: int) -> str:
    return _("{what} looks binary, not plain text (it has a NUL byte at offset {offset}): give a plain text file "
             "saved as UTF-8 (a {word} or PDF file will not work).", what=_(what), offset=number_of(offset),
             word="Word")  # i18n: {word} is Microsoft Word (a name, not the glossary's word)


def _not_utf8(what: str, exc: UnicodeDecodeError, base: int) -> str:
    """The message for bytes that are not UTF-8; ``base`` is the offset of ``exc.object`` in the input."""
    byte, offset = f"0x{exc.object[exc.start]:02X}", number_of(base + exc.start)
    if exc.reason == "invalid start byte":
        problem = _("the byte {byte} at offset {offset} cannot start a character", byte=byte, offset=offset)
    else:  # a byte that starts a character of several bytes, without the bytes that must follow
        problem = _("the byte {byte} at offset {offset} starts a character that the bytes after it do not complete",
                    byte=byte, offset=offset)
    return _("{what} is not valid UTF-8: {problem}. It was probably saved in another encoding: save it again as "
             "UTF-8.", what=_(what), problem=problem)


def refuse_wide_json(data: bytes, what: str = "this file") -> None:
    """ValueError when ``data`` is JSON in UTF-16 or UTF-32 (which ``json.loads`` would quietly read):
    a lab file is UTF-8, so the file is named for what it is, as a text file is by :func:`decode_text`.
    Bytes that are no JSON in any encoding are left to the JSON reader and its message."""
    wide = _wide_encoding(data)
    if wide is None:
        return
    codec = _ICONV[wide].lower()
    head = codecs.getincrementaldecoder(codec)(errors="replace").decode(data[:64], final=False)
    if head.lstrip("\ufeff \t\r\n")[:1] in ("{", "["):
        raise ValueError(_wide_message(what, wide, data))


def _refuse(message: str) -> str:
    raise ValueError(message)


PIPE_WAIT_S = 5.0
"""How long a named pipe (FIFO) given as a file may stay silent before its first byte: a pipe that no
program writes to would otherwise keep the command waiting for ever."""


def refuse_device(f: IO[bytes], what: str) -> None:
    """ValueError when ``f`` is a device (``/dev/zero`` and ``/dev/urandom`` never end, a terminal
    waits for typing): one rule for a file named on the command line and for standard input."""
    mode = os.fstat(f.fileno()).st_mode
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        if what == STDIN and f.isatty():
            raise ValueError("standard input is a terminal, which would wait for typing: pipe a text file in (- < notes.txt).")
        if what == STDIN:
            device = _device_name(f.fileno())
            raise ValueError(f"standard input is {device}, a device, not a file: pipe a text file in instead.")
        raise ValueError(f"{what} is a device, not a file: give a text file.")


STDIN = "standard input"


def _device_name(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "a device"


def open_input(path: str | os.PathLike, what: str = "this file") -> IO[bytes]:
    """A file opened for reading in binary, or ValueError for a device and for a named pipe that
    nothing writes to within :data:`PIPE_WAIT_S` (OSError is left to the caller).

    A named pipe is opened without waiting for a writer (a plain ``open`` would wait for ever),
    then given :data:`PIPE_WAIT_S` for its first byte: a pipe some program is writing to (``<(...)``,
    ``mkfifo`` with the writer started first) is read as a file is.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    f = os.fdopen(fd, "rb")
    try:
        refuse_device(f, what)
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            poll = select.poll()
            poll.register(fd, select.POLLIN)
            if not poll.poll(PIPE_WAIT_S * 1000):
                raise ValueError(
                    f"{what} is a named pipe that nothing wrote to in {PIPE_WAIT_S:g} s: give a text file, "
                    "or start the program that writes to the pipe first."
                )
        os.set_blocking(fd, True)
    except BaseException:
        f.close()
        raise
    return f


def standard_input(what: str = STDIN) -> IO[bytes]:
    """Standard input in binary, or ValueError when it is a device (``< /dev/zero``), a terminal or closed."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ValueError("standard input is closed: pipe a text file in.")
    try:
        stream.fileno()
    except (OSError, ValueError):  # not a real file (a test's stand-in): nothing to check
        return stream
    refuse_device(stream, what)
    return stream


def read_at_most(
    f: IO[bytes], what: str = "this file", limit: int = MAX_INPUT_BYTES, advice: str = "give a shorter extract",
    why: str = "the most the lab reads from one file",
) -> bytes:
    """The bytes of an open file, at most ``limit`` of them: ValueError at ``limit`` + 1
    (a pipe is read up to the limit, then refused; ``why`` says why that is the limit, ``advice``
    ends the message)."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = f.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        most = f"{limit / 1e6:,.0f} MB" if limit >= 1_000_000 else f"{limit:,} bytes"
        raise ValueError(f"{what} is larger than {most}, {why}: {advice}.")
    return b"".join(chunks)


def read_limited(
    path: str | os.PathLike,
    what: str = "this file",
    limit: int = MAX_INPUT_BYTES,
    advice: str = "give a shorter extract",
) -> bytes:
    """The bytes of a file, at most ``limit`` of them.

    Raises ValueError for a device (``/dev/zero`` and ``/dev/urandom`` never end; a
    terminal waits for typing), for a named pipe nothing writes to (see :func:`open_input`)
    and for a file longer than ``limit`` (a pipe is read up to the limit, then refused;
    ``advice`` ends that message). OSError (not found, not allowed, a directory) is left
    to the caller, which knows how to name the file.
    """
    with open_input(path, what) as f:
        return read_at_most(f, what, limit, advice)


def iter_text(f: IO[bytes], what: str = "this file", chunk: int = _CHUNK) -> Iterator[str]:
    """The text of an open file as it is read, ``chunk`` bytes at a time, in constant memory.

    UTF-8 is decoded incrementally (a character cut between two reads is completed by the
    next); the same problems as :func:`decode_text` raise the same ValueError (a UTF-16 or
    UTF-32 file named from its first 4 KB, a NUL byte, an invalid byte with its offset).
    A UTF-8 byte-order mark at the start is dropped, as :func:`decode_text` drops it: it marks the
    encoding (an editor's), it is not text, so every way the lab reads a file gives the same text.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    head = b""
    while len(head) < 4096:  # enough to recognise UTF-16 or UTF-32 by its NUL bytes
        data = f.read(chunk)
        if not data:
            break
        head += data
    wide = _wide_encoding(head)
    if wide is not None:
        raise ValueError(_wide_message(what, wide, head))
    offset = 0  # bytes given to the decoder so far
    if head.startswith(_UTF8_BOM):
        head, offset = head[len(_UTF8_BOM):], len(_UTF8_BOM)
    data = head
    while data:
        if b"\x00" in data:
            raise ValueError(_binary_message(what, offset + data.index(b"\x00")))
        pending = len(decoder.getstate()[0])
        try:
            text = decoder.decode(data)
        except UnicodeDecodeError as exc:
            raise ValueError(_not_utf8(what, exc, offset - pending)) from None
        offset += len(data)
        if text:
            yield text
        data = f.read(chunk)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise ValueError(_not_utf8(what, exc, offset - len(exc.object))) from None


def _is_regular_or_new(path: str | os.PathLike) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def same_regular_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """True when ``a`` and ``b`` name one regular file (existing or to be created): the same
    path spelt differently (``x``, ``./x``), a symbolic or hard link. Two names for one
    device (``/dev/null``) do not count: writing twice there loses nothing."""
    if not (_is_regular_or_new(a) and _is_regular_or_new(b)):
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist yet: compare where they lead
        return os.path.realpath(a) == os.path.realpath(b)


def write_files(outputs: Sequence[tuple[str | os.PathLike, str]]) -> None:
    """Write each ``(path, text)`` as UTF-8, all of them or none.

    A regular file (or a new one) is first written to a temporary file beside it,
    and every temporary file is renamed into place only once all were written, so
    a failure leaves every existing file as it was. A symbolic link keeps pointing
    where it did (its target is replaced). A device such as ``/dev/stdout`` is
    written directly, last. An OSError always names the file it was about
    (``filename`` set), never a temporary one.
    """
    staged: list[tuple[str, str]] = []  # (temporary, final)
    direct: list[tuple[str | os.PathLike, bytes]] = []
    try:
        for path, text in outputs:
            data = text.encode("utf-8")
            if not _is_regular_or_new(path):
                direct.append((path, data))
                continue
            final = os.path.realpath(path)
            folder, name = os.path.split(final)
            temp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _mode_of(final))
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
            staged.append((temp, final))
            try:
                if os.path.exists(final):
                    os.fchmod(fd, _mode_of(final))
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
        for path, data in direct:
            try:
                with open(path, "wb") as f:
                    f.write(data)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
        for temp, final in staged:
            try:
                os.replace(temp, final)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, final) from None
    finally:
        for temp, _final in staged:
            if os.path.lexists(temp):
                os.unlink(temp)


def _mode_of(final: str) -> int:
    """The permissions for the new file: those of the file it replaces, else the usual ones
    (``os.open`` applies the umask to 0o666)."""
    try:
        return stat.S_IMODE(os.stat(final).st_mode)
    except OSError:
        return 0o666


def write_file(path: str | os.PathLike, text: str) -> None:
    """:func:`write_files` for one file."""
    write_files([(path, text)])


__all__ = [
    "MAX_INPUT_BYTES",
    "PIPE_WAIT_S",
    "STDIN",
    "decode_text",
    "iter_text",
    "open_input",
    "read_at_most",
    "read_limited",
    "refuse_device",
    "refuse_wide_json",
    "same_regular_file",
    "standard_input",
    "write_file",
    "write_files",
]
