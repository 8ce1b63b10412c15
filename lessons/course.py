"""The course: lesson files in ``lessons/course/``, in the order ``lessons/course/index.toml`` sets.

A lesson is one Markdown file that starts with TOML front matter between ``+++``
lines (the Carpentries shape: objectives, key points and minutes up front,
exercises as marked blocks whose answers are kept apart from the text; here
they are not kept at all: each exercise names the engine operation that
computes its answer, see :mod:`lessons.exercises`)::

    +++
    id = "bpe-training"
    title = "BPE training, one merge at a time"
    minutes = 25
    objectives = ["Count the pairs of a small corpus by hand", ...]
    key_points = ["The most frequent pair is merged first", ...]

    [[try]]                       # links into the lab, with the settings in the link
    label = "Step through the chai stall"
    page = "Train_step_by_step"   # a page's URL path
    params = {preset = "chai"}
    figure = "train-merge"        # what the link is for: in classroom mode it is on the first screen

    [[exercise]]
    id = "chai-first-merge"
    prompt = "Which pair does the chai corpus merge first?"
    answer = {op = "merge_at", preset = "chai", step = 1}
    explain = "…why, in the lesson's words…"
    hint = "…the misconception this catches…"
    view = {page = "Train_step_by_step", params = {preset = "chai", step = "1"}, label = "See merge 1"}
    +++
    The lesson's text, in Markdown.

A damaged lesson file is reported (file and field) and skipped; the others load.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .exercises import KIND_OF_OP, KINDS, OPS, UNIT_OF_OP

HERE = Path(__file__).resolve().parent
COURSE = HERE / "course"
PAGES_DIR = HERE.parent / "pages"
_FRONT = re.compile(r"\A\+\+\+[ \t]*\n(.*?)\n\+\+\+[ \t]*(?:\n|\Z)(.*)\Z", re.S)
URL_KEYS_NAMING_TOKENIZERS = ("tok", "toks", "preset")


class LessonError(ValueError):
    """A lesson file that cannot be used: the message names the file and the field."""


@dataclass(frozen=True)
class Link:
    """A link into the lab: a page's URL path, its settings, and the figure the lesson sends the reader to see
    (a name the page gives that figure, ``ui.layout.figure``: in classroom mode it is on the first screen)."""

    label: str
    page: str
    params: dict[str, str] = field(default_factory=dict)
    figure: str = ""


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


@dataclass(frozen=True)
class Course:
    lessons: tuple[Lesson, ...]
    problems: tuple[str, ...]

    def lesson(self, lesson_id: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.id == lesson_id), None)

    @property
    def exercises(self) -> tuple[Exercise, ...]:
        return tuple(e for lesson in self.lessons for e in lesson.exercises)


# -- checking fields ---------------------------------------------------------------------------------
def _text(data: dict, name: str, where: str, *, required: bool = True) -> str:
    value = data.get(name, "" if not required else None)
    if value is None:
        raise LessonError(f"{where}: '{name}' is missing")
    if not isinstance(value, str) or (required and not value.strip()):
        raise LessonError(f"{where}: '{name}' must be non-empty text")
    return value.strip()


def _texts(data: dict, name: str, where: str) -> tuple[str, ...]:
    value = data.get(name)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise LessonError(f"{where}: '{name}' must be a list of one or more texts")
    return tuple(v.strip() for v in value)


def page_paths() -> set[str]:
    """The URL paths of the lab's pages (``pages/1_Train_step_by_step.py`` -> ``Train_step_by_step``)."""
    out = set()
    for path in PAGES_DIR.glob("*.py"):
        match = re.fullmatch(r"[0-9]*[_ -]*(.*)\.py", path.name)
        if match:
            out.add(re.sub(r"[_ ]+", "_", match.group(1)).strip())
    return out


def _link(data: Any, where: str, *, label_required: bool = True) -> Link:
    if not isinstance(data, dict):
        raise LessonError(f"{where}: must be a table with 'page' and 'params'")
    _no_unknown(data, LINK_FIELDS, where)
    page = _text(data, "page", where)
    if page not in page_paths():
        raise LessonError(f"{where}: 'page' {page!r} is not a page of the lab (known: {', '.join(sorted(page_paths()))})")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise LessonError(f"{where}: 'params' must be a table of settings")
    params = {str(k): str(v) for k, v in params.items()}
    _check_tokenizers(params, where)
    label = _text(data, "label", where, required=label_required) if label_required or "label" in data else ""
    figure = _text(data, "figure", where, required=False)
    if figure and not FIGURE_NAME.fullmatch(figure):
        raise LessonError(f"{where}: 'figure' {figure!r} must be a figure's name: lower-case letters, digits and "
                          "single hyphens, such as \"share-chart\"")
    return Link(label, page, params, figure)


def _check_tokenizers(params: dict[str, str], where: str) -> None:
    import lessons
    from tokenizer import real

    known = {*lessons.presets(), *real.NAMES, "own"}
    for key in URL_KEYS_NAMING_TOKENIZERS:
        for name in (params.get(key) or "").split(","):
            if name and name not in known:
                raise LessonError(f"{where}: params.{key} names {name!r}, which is neither a preset nor a tokenizer")


EXERCISE_FIELDS = {"id", "prompt", "answer", "kind", "explain", "hint", "view", "unit", "tolerance"}
LESSON_FIELDS = {"id", "title", "minutes", "objectives", "key_points", "try", "exercise", "figures"}
LINK_FIELDS = {"label", "page", "params", "figure"}
#: A figure's name, as a page draws it (``ui.layout.figure(name)``) and a link names it.
FIGURE_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _no_unknown(data: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise LessonError(f"{where}: unknown field '{unknown[0]}' (the fields are: {', '.join(sorted(allowed))})")


def _exercise(data: Any, lesson_id: str, where: str) -> Exercise:
    if not isinstance(data, dict):
        raise LessonError(f"{where}: an exercise must be a table")
    _no_unknown(data, EXERCISE_FIELDS, where)
    ex_id = _text(data, "id", where)
    where = f"{where} '{ex_id}'"
    answer = data.get("answer")
    if not isinstance(answer, dict) or not isinstance(answer.get("op"), str):
        raise LessonError(f"{where}: 'answer' must be a table naming its 'op' (one of {', '.join(sorted(OPS))})")
    op = answer["op"]
    if op not in OPS:
        raise LessonError(f"{where}: answer op {op!r} is unknown (known: {', '.join(sorted(OPS))})")
    kind = data.get("kind", KIND_OF_OP[op])
    if kind not in KINDS or kind != KIND_OF_OP[op]:
        raise LessonError(f"{where}: 'kind' {kind!r} does not fit op {op!r} (it gives a {KIND_OF_OP[op]})")
    tolerance = data.get("tolerance", 0)
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or tolerance < 0:
        raise LessonError(f"{where}: 'tolerance' must be a number, 0 or more")
    view = _link(data["view"], f"{where} view", label_required=False) if "view" in data else None
    return Exercise(
        id=ex_id,
        lesson=lesson_id,
        kind=kind,
        prompt=_text(data, "prompt", where),
        op=op,
        args={k: v for k, v in answer.items() if k != "op"},
        explain=_text(data, "explain", where),
        hint=_text(data, "hint", where, required=False),
        view=view,
        unit=_text(data, "unit", where, required=False) or UNIT_OF_OP.get(op, ""),
        tolerance=float(tolerance),
    )


def parse_lesson(text: str, file: str, number: int = 0) -> Lesson:
    """One lesson from its file's text (raises :class:`LessonError` naming the file and the field)."""
    match = _FRONT.match(text.replace("\r\n", "\n"))
    if not match:
        raise LessonError(f"{file}: the file must start with front matter between two '+++' lines")
    try:
        data = tomllib.loads(match.group(1))
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{file}: the front matter is not valid TOML ({exc})") from None
    _no_unknown(data, LESSON_FIELDS, file)
    lesson_id = _text(data, "id", file)
    title = _text(data, "title", file)
    minutes = data.get("minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 240:
        raise LessonError(f"{file}: 'minutes' must be a whole number from 1 to 240")
    tries = data.get("try", [])
    exercises = data.get("exercise", [])
    if not isinstance(tries, list) or not isinstance(exercises, list):
        raise LessonError(f"{file}: 'try' and 'exercise' must be lists of tables ([[try]], [[exercise]])")
    parsed = tuple(_exercise(e, lesson_id, f"{file} exercise {i + 1}") for i, e in enumerate(exercises))
    ids = [e.id for e in parsed]
    if len(set(ids)) != len(ids):
        raise LessonError(f"{file}: two exercises share an id")
    body = match.group(2).strip()
    if not body:
        raise LessonError(f"{file}: the lesson has no text after its front matter")
    figures = _figures(data.get("figures", {}), file)
    missing = sorted(set(PLACEHOLDER.findall(body)) - {f.name for f in figures})
    if missing:
        raise LessonError(f"{file}: the text uses {{{{{missing[0]}}}}}, which [figures] does not define")
    return Lesson(
        id=lesson_id,
        number=number,
        title=title,
        minutes=minutes,
        objectives=_texts(data, "objectives", file),
        key_points=_texts(data, "key_points", file),
        body=body,
        tries=tuple(_link(t, f"{file} try {i + 1}") for i, t in enumerate(tries)),
        exercises=parsed,
        file=file,
        figures=figures,
    )


PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def _figures(data: Any, file: str) -> tuple[Figure, ...]:
    if not isinstance(data, dict):
        raise LessonError(f"{file}: [figures] must be a table of name = {{op = ..., ...}}")
    out = []
    for name, spec in data.items():
        where = f"{file} figures.{name}"
        if not isinstance(spec, dict) or spec.get("op") not in OPS:
            raise LessonError(f"{where}: must name an 'op' (one of {', '.join(sorted(OPS))})")
        fmt = spec.get("format", "")
        if not isinstance(fmt, str):
            raise LessonError(f"{where}: 'format' must be a format spec such as ',' or '.2f', or 'rupees'")
        out.append(Figure(name, spec["op"], {k: v for k, v in spec.items() if k not in ("op", "format")}, fmt))
    return tuple(out)


def _formatted(value: Any, fmt: str) -> str:
    """A figure as the text shows it: a format spec (``,``, ``.2f``), or ``rupees`` for money (Rs 2.46, Rs 73,800)."""
    if fmt == "rupees":
        from tokenizer.cost import rupees

        return rupees(value)
    return format(value, fmt)


def render_body(lesson: Lesson) -> str:
    """The lesson's text with every ``{{figure}}`` computed by the engine (raises ExerciseError if one cannot be),
    its headings two levels down so they sit under the lesson's title."""
    from .exercises import compute

    values = {f.name: _formatted(compute(f.op, f.args).answer, f.format) for f in lesson.figures}
    text = PLACEHOLDER.sub(lambda m: values[m.group(1)], lesson.body)
    return re.sub(r"(?m)^(#{1,4}) ", lambda m: "#" * min(len(m.group(1)) + 2, 6) + " ", text)  # under the title


def load_course(folder: Path = COURSE) -> Course:
    """Every lesson in the index's order; a lesson that cannot be read is a problem, not a crash."""
    problems: list[str] = []
    index_path = folder / "index.toml"
    try:
        order = tomllib.loads(index_path.read_text(encoding="utf-8")).get("order", [])
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return Course((), (f"{index_path.name}: cannot read the lesson order ({exc})",))
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
        return Course((), (f"{index_path.name}: 'order' must be a list of lesson file names",))
    lessons: list[Lesson] = []
    for number, name in enumerate(order, start=1):
        path = folder / f"{name}.md"
        try:
            lesson = parse_lesson(path.read_text(encoding="utf-8"), path.name, number)
        except OSError:
            problems.append(f"{path.name}: the index lists it, but there is no such file")
            continue
        except (LessonError, UnicodeDecodeError) as exc:
            problems.append(str(exc))
            continue
        if any(other.id == lesson.id for other in lessons):
            problems.append(f"{path.name}: the id {lesson.id!r} is used by another lesson")
            continue
        lessons.append(lesson)
    listed = {f"{name}.md" for name in order}
    for path in sorted(folder.glob("*.md")):
        if path.name not in listed:
            problems.append(f"{path.name}: not in index.toml, so it is not shown")
    return Course(tuple(lessons), tuple(problems))


@lru_cache(maxsize=1)
def course() -> Course:
    """The course, read once per process."""
    return load_course()


__all__ = ["Course", "Exercise", "Figure", "Lesson", "render_body", "LessonError", "Link", "course", "load_course", "page_paths", "parse_lesson"]
