r"""A lesson file as the lab reads it: what a lesson is (:class:`Lesson`, its :class:`Exercise`\ s, :class:`Link`\ s and
:class:`Figure`\ s, a :class:`Course` of them), the bounded reader of a course's files (:func:`read_file`,
:func:`read_toml`), the reader of a text field (:func:`text_field`) and the error that names what is wrong
(:class:`LessonError`).

Below both :mod:`lessons.course` (which parses the English lessons and loads the course) and :mod:`lessons.overlay`
(which lays a translation's words over them), so neither imports the other's reader: the course imports the overlay,
and the overlay only this.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FRONT_MATTER = re.compile(r"\A\+\+\+[ \t]*\n(.*?)\n\+\+\+[ \t]*(?:\n|\Z)(.*)\Z", re.S)
"""A lesson file: TOML front matter between two ``+++`` lines, then the markdown body."""
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
"""A figure's place in a lesson's text: ``{{name}}``."""
MAX_LESSON_BYTES = 128 * 1024
MAX_DEPTH = 8
"""How deep tables and lists may nest in a lesson's front matter or the index, the whole file counted as 1 (an
exercise's ratio of two counts, or a link's settings, is 5; a ratio of ratios 6)."""


class LessonError(ValueError):
    """A lesson file that cannot be used: the message names the file and the field."""


@dataclass(frozen=True)
class Link:
    """A link into the lab: a page's URL path, its settings, the figure the lesson sends the reader to see
    (a name the page gives that figure, ``ui.layout.figure``: in classroom mode it is on the first screen), and
    the ids of the lesson's exercises whose answers that page shows (``ask``: it asks them first)."""

    label: str
    page: str
    params: dict[str, str] = field(default_factory=dict)
    figure: str = ""
    ask: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exercise:
    id: str
    lesson: str
    kind: str
    prompt: str
    op: str
    args: dict[str, Any]
    explain: str
    hint: str = ""
    view: Link | None = None
    unit: str = ""
    tolerance: float = 0.0
    former_ids: tuple[str, ...] = ()
    """Ids the exercise had before (``former_ids = ["old-id"]``): a progress file saved under one of them still
    finds it."""

    @property
    def key(self) -> str:
        """The exercise's id across the course (``lesson:exercise``)."""
        return f"{self.lesson}:{self.id}"


@dataclass(frozen=True)
class Figure:
    """A number the lesson's text shows, computed by an engine operation (``{{name}}`` in the text)."""

    name: str
    op: str
    args: dict[str, Any]
    format: str = ""


@dataclass(frozen=True)
class Lesson:
    id: str
    number: int
    title: str
    minutes: int
    objectives: tuple[str, ...]
    key_points: tuple[str, ...]
    body: str
    tries: tuple[Link, ...]
    exercises: tuple[Exercise, ...]
    file: str
    figures: tuple[Figure, ...] = ()
    lang: str = "en"
    """The language of its words: ``en``, or the language of the translation laid over it (:mod:`lessons.overlay`)."""


@dataclass(frozen=True)
class Course:
    lessons: tuple[Lesson, ...]
    problems: tuple[str, ...]

    def lesson(self, lesson_id: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.id == lesson_id), None)

    @property
    def exercises(self) -> tuple[Exercise, ...]:
        return tuple(e for lesson in self.lessons for e in lesson.exercises)


def _depth(value: Any) -> int:
    """How deep tables and lists nest in ``value`` (a text or a number: 0; ``{"a": [1]}``: 2), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if level <= MAX_DEPTH:  # deeper than that is refused: no need to walk all of it
            stack.extend((child, level + 1) for child in children)
    return deepest


def read_toml(text: str, where: str) -> dict:
    """TOML ``text`` read within the bounds (raises :class:`LessonError` starting ``where: ``)."""
    deep = f"{where}: tables or lists nest too deeply (a lesson file nests them at most {MAX_DEPTH} levels)"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:  # tomllib reads nested lists and tables recursively: Python's own limit stops it
        raise LessonError(deep) from None
    if _depth(data) > MAX_DEPTH:
        raise LessonError(deep)
    return data


def text_field(data: dict, name: str, where: str, *, required: bool = True) -> str:
    """The text ``data[name]``, stripped: a field of a lesson file (:mod:`lessons.course`) or of its translation
    (:mod:`lessons.overlay`). Raises :class:`LessonError` starting ``where: `` when it is missing (unless not
    ``required``: then ``""``) or not text, or empty when ``required``."""
    value = data.get(name, "" if not required else None)
    if value is None:
        raise LessonError(f"{where}: '{name}' is missing")
    if not isinstance(value, str) or (required and not value.strip()):
        raise LessonError(f"{where}: '{name}' must be non-empty text")
    return value.strip()


def read_file(folder: Path, name: str, limit: int) -> str:
    """The text of file ``name`` in ``folder`` (resolved): a regular file inside the folder, no link leading out of it,
    at most ``limit`` bytes of UTF-8 (a byte order mark is dropped). Raises :class:`LessonError` naming the file."""
    path = folder / name
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise LessonError(f"{name}: there is no such file") from None
    except (OSError, RuntimeError) as exc:  # a loop of links, a name the system refuses
        raise LessonError(f"{name}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if real.parent != folder:
        raise LessonError(f"{name}: it is a link that leads outside the course folder, which the lab does not read")
    try:  # not blocking: a named pipe must not hang the reader
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise LessonError(f"{name}: cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise LessonError(f"{name}: not a regular file (a folder, a device or a pipe), so it is not read")
        if info.st_size > limit:
            raise LessonError(f"{name}: {info.st_size:,} bytes; a file of the course may be up to {limit:,}")
        chunks, size = [], 0
        while size <= limit:  # at most limit + 1 bytes, whatever the file says its size is
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise LessonError(f"{name}: more than {limit:,} bytes; a file of the course may be up to {limit:,}")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LessonError(f"{name}: UTF-16 text; save it as UTF-8")
    try:
        text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LessonError(f"{name}: not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start:,}); "
                          "save it as UTF-8") from None
    if "\x00" in text:
        raise LessonError(f"{name}: holds a NUL character (position {text.index(chr(0)):,}): a binary file, not text")
    return text
