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
    params = {preset = "chai", step = "1"}
    figure = "train-merge"        # what the link is for: in classroom mode it is on the first screen
    ask = ["chai-first-merge"]    # predict first: exercises whose answers the page shows, asked there first

    [[exercise]]
    id = "chai-first-merge"
    prompt = "Which pair does the chai corpus merge first?"
    answer = {op = "merge_at", preset = "chai", step = 1}
    explain = "…why, in the lesson's words…"
    hint = "…the misconception this catches…"
    view = {page = "Train_step_by_step", params = {preset = "chai", step = "1"}, label = "See merge 1"}
    former_ids = ["first-merge"]  # ids it had before: a progress file saved under one still finds it
    +++
    The lesson's text, in Markdown.

Predict first, then run: a link whose page shows the answer of one of the lesson's exercises lists it in ``ask``
(an exercise's own view link is drawn once the exercise is answered, so it leaves its own out), and the page it
opens asks those not answered yet before it shows anything (``ui.links.ask_first``). The checker computes what
each page shows (:mod:`lessons.reveals`) and refuses a link whose ``ask`` says otherwise, so a new lesson cannot
give an answer away.

A lesson's id and an exercise's id name the learner's saved answers (``lessons.progress``): rename an exercise
only with its old id in ``former_ids``, or answers saved under it are reported as to a question the lab no
longer has.

A damaged lesson file is reported (file and field) and skipped; the others load. What is read is bounded
where it is read (see the ``MAX_`` figures below): a file's size, how deep its tables nest, how many
exercises, figures and links a lesson has, how long a text an answer computes on; and only regular files
inside the course folder are read (no name in the index and no link leads out of it).
"""

from __future__ import annotations

import math
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from .exercises import KIND_OF_OP, KINDS, OPS, UNIT_OF_OP
from .exercises.cost import shown_rupees
from .lessonfile import (
    FRONT_MATTER,
    MAX_LESSON_BYTES,
    PLACEHOLDER,
    Course,
    Exercise,
    Figure,
    Lesson,
    LessonError,
    Link,
    read_file,
    read_toml,
    text_field,
)
from .overlay import in_language

HERE = Path(__file__).resolve().parent
COURSE = HERE / "course"
COURSE_ENV = "LAB_COURSE_DIR"
"""An environment variable naming another course folder (to try a course being written, and for tests)."""
PAGES_DIR = HERE.parent / "pages"
TOKENIZER_KEY = "tok"
"""The URL key naming a page's one tokenizer (``?tok=``: Encode, Streaming, Cost, Bytes' ladder...): what a lesson's
link sets, the pickers read (:func:`ui.choices.one_key`) and :mod:`lessons.reveals` reads of a link."""
TOKENIZERS_KEY = "toks"
"""The URL key naming the tokenizers a page compares (``?toks=a,b``: Tokenize anything)."""
URL_KEYS_NAMING_TOKENIZERS = (TOKENIZER_KEY, TOKENIZERS_KEY, "preset")


# -- the bounds on what is read. The shipped course: index 0.3 KB, lessons up to 12 KB, up to 11 exercises, 17
# figures and 5 links a lesson, texts of up to 47 characters, tables nested 5 deep. Each bound is far above what a
# course uses and far below what would cost a server much (a lesson's answers all computed in about a second).
MAX_INDEX_BYTES = 16 * 1024
MAX_LESSONS = 100
MAX_EXERCISES = 30
MAX_FIGURES = 30
MAX_TRIES = 20
MAX_TEXT = 2_000
"""The longest text an exercise's or a figure's answer may compute on, in characters."""
LESSON_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
"""A lesson's name in the index: its file name without ``.md``, a plain name (no folder, no leading dot)."""
FORMAT_SPEC = re.compile(r"rupees|,?(?:\.[0-9])?[df%]?")
"""The formats a figure may have: ``rupees``, or a number's format such as ``,``, ``.2f``, ``,d``, ``.1%``."""
PLACEHOLDER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# -- checking fields ---------------------------------------------------------------------------------
def _id(data: dict, name: str, where: str) -> str:
    value = text_field(data, name, where)
    if not ID.fullmatch(value):
        raise LessonError(f"{where}: '{name}' must be a plain name (up to 100 letters, digits, '-', '.', '_')")
    return value


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
    page = text_field(data, "page", where)
    if page not in page_paths():
        raise LessonError(f"{where}: 'page' {page!r} is not a page of the lab (known: {', '.join(sorted(page_paths()))})")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise LessonError(f"{where}: 'params' must be a table of settings")
    params = {str(k): str(v) for k, v in params.items()}
    _check_tokenizers(params, where)
    label = text_field(data, "label", where, required=label_required) if label_required or "label" in data else ""
    figure = text_field(data, "figure", where, required=False)
    if figure and not FIGURE_NAME.fullmatch(figure):
        raise LessonError(f"{where}: 'figure' {figure!r} must be a figure's name: lower-case letters, digits and "
                          "single hyphens, such as \"share-chart\"")
    ask = data.get("ask", [])
    if not isinstance(ask, list) or not all(isinstance(a, str) and ID.fullmatch(a) for a in ask):
        raise LessonError(f"{where}: 'ask' must be a list of the lesson's exercise ids, such as [\"chai-first-merge\"]")
    return Link(label, page, params, figure, tuple(ask))


def _check_tokenizers(params: dict[str, str], where: str) -> None:
    import lessons
    from family import real

    known = {*lessons.presets(), *real.NAMES, "own"}
    for key in URL_KEYS_NAMING_TOKENIZERS:
        for name in (params.get(key) or "").split(","):
            if name and name not in known:
                raise LessonError(f"{where}: params.{key} names {name!r}, which is neither a preset nor a tokenizer")


EXERCISE_FIELDS = {"id", "prompt", "answer", "kind", "explain", "hint", "view", "unit", "tolerance", "former_ids"}
#: A lesson's or an exercise's id: a plain name, part of the question's id in a saved progress file.
ID = re.compile(r"[\w.\-]{1,100}")
LESSON_FIELDS = {"id", "title", "minutes", "objectives", "key_points", "try", "exercise", "figures"}
LINK_FIELDS = {"label", "page", "params", "figure", "ask"}
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
    ex_id = _id(data, "id", where)
    where = f"{where} '{ex_id}'"
    former = data.get("former_ids", [])
    if not isinstance(former, list) or not all(isinstance(f, str) and ID.fullmatch(f) for f in former):
        raise LessonError(f"{where}: 'former_ids' must be a list of ids (letters, digits, '-', '.', '_')")
    if ex_id in former:
        raise LessonError(f"{where}: 'former_ids' names the exercise's own id")
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
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 <= tolerance < math.inf:
        raise LessonError(f"{where}: 'tolerance' must be a number, 0 or more")
    view = _link(data["view"], f"{where} view", label_required=False) if "view" in data else None
    return Exercise(
        id=ex_id,
        lesson=lesson_id,
        kind=kind,
        prompt=text_field(data, "prompt", where),
        op=op,
        args=_bounded_args({k: v for k, v in answer.items() if k != "op"}, f"{where} answer"),
        explain=text_field(data, "explain", where),
        hint=text_field(data, "hint", where, required=False),
        view=view,
        unit=text_field(data, "unit", where, required=False) or UNIT_OF_OP.get(op, ""),
        tolerance=float(tolerance),
        former_ids=tuple(former),
    )


def exercise_from(data: Any, lesson_id: str) -> Exercise:
    """One ``[[exercise]]`` table of lesson ``lesson_id`` read as a lesson file's is (a teacher's own question,
    :mod:`lessons.own`); raises :class:`LessonError` naming the field."""
    return _exercise(data, lesson_id, f"lesson {lesson_id} exercise")


def _long_text(value: Any) -> str | None:
    """The first text longer than :data:`MAX_TEXT` in an answer's arguments (their depth is already bounded)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and len(item) > MAX_TEXT:
            return item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _bounded_args(args: dict, where: str) -> dict:
    long = _long_text(args)
    if long is not None:
        raise LessonError(f"{where}: a text of {len(long):,} characters; an answer computes on texts of up to "
                          f"{MAX_TEXT:,}")
    return args


def _at_most(items: list, limit: int, what: str, where: str) -> None:
    if len(items) > limit:
        raise LessonError(f"{where}: {len(items):,} {what}; a lesson may have up to {limit:,}")


def parse_lesson(text: str, file: str, number: int = 0) -> Lesson:
    """One lesson from its file's text (raises :class:`LessonError` naming the file and the field)."""
    match = FRONT_MATTER.match(text.removeprefix("\ufeff").replace("\r\n", "\n"))
    if not match:
        raise LessonError(f"{file}: the file must start with front matter between two '+++' lines")
    data = read_toml(match.group(1), f"{file}: front matter")
    _no_unknown(data, LESSON_FIELDS, file)
    lesson_id = _id(data, "id", file)
    title = text_field(data, "title", file)
    minutes = data.get("minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 240:
        raise LessonError(f"{file}: 'minutes' must be a whole number from 1 to 240")
    tries = data.get("try", [])
    exercises = data.get("exercise", [])
    if not isinstance(tries, list) or not isinstance(exercises, list):
        raise LessonError(f"{file}: 'try' and 'exercise' must be lists of tables ([[try]], [[exercise]])")
    _at_most(exercises, MAX_EXERCISES, "exercises", f"{file}: exercise")
    _at_most(tries, MAX_TRIES, "links", f"{file}: try")
    parsed = tuple(_exercise(e, lesson_id, f"{file} exercise {i + 1}") for i, e in enumerate(exercises))
    ids = [e.id for e in parsed]
    if len(set(ids)) != len(ids):
        raise LessonError(f"{file}: two exercises share an id")
    names = [name for e in parsed for name in (e.id, *e.former_ids)]
    if len(set(names)) != len(names):
        raise LessonError(f"{file}: an exercise's former id is another exercise's id or former id")
    tries = tuple(_link(t, f"{file} try {i + 1}") for i, t in enumerate(tries))
    for where, link in [*((f"try {i + 1}", t) for i, t in enumerate(tries)),
                        *((f"exercise '{e.id}' view", e.view) for e in parsed if e.view is not None)]:
        unknown = next((a for a in link.ask if a not in ids), None)
        if unknown is not None:
            raise LessonError(f"{file} {where}: 'ask' names {unknown!r}, which is not one of the lesson's exercises")
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
        tries=tries,
        exercises=parsed,
        file=file,
        figures=figures,
    )


def _figures(data: Any, file: str) -> tuple[Figure, ...]:
    if not isinstance(data, dict):
        raise LessonError(f"{file}: [figures] must be a table of name = {{op = ..., ...}}")
    _at_most(list(data), MAX_FIGURES, "figures", f"{file}: figures")
    out = []
    for name, spec in data.items():
        where = f"{file}: figures.{name}"
        if not PLACEHOLDER_NAME.fullmatch(name):
            raise LessonError(f"{where}: a figure's name is letters, digits and '_', as {{{{name}}}} uses it")
        if not isinstance(spec, dict) or not isinstance(spec.get("op"), str) or spec["op"] not in OPS:
            raise LessonError(f"{where}: must name an 'op' (one of {', '.join(sorted(OPS))})")
        fmt = spec.get("format", "")
        if not isinstance(fmt, str) or not FORMAT_SPEC.fullmatch(fmt):
            raise LessonError(f"{where}: 'format' {fmt!r} is not one the lab writes: ',' (thousands), '.2f' (two "
                              "decimals), ',d', '.1%', or 'rupees'")
        args = {k: v for k, v in spec.items() if k not in ("op", "format")}
        out.append(Figure(name, spec["op"], _bounded_args(args, where), fmt))
    return tuple(out)


def _formatted(value: Any, fmt: str) -> str:
    """A figure as the text shows it: a format spec (``,``, ``.2f``), or ``rupees`` for money (Rs 2.46, Rs 73,800).
    In a language whose numbers are grouped otherwise (Hindi), a grouped figure is written by :func:`i18n.number` or
    :func:`i18n.decimal` (12,34,567) and money with the rupee sign (₹2.46, :func:`lessons.exercises.cost.shown_rupees`);
    English is as Python writes it."""
    import i18n
    from i18n.numbers import BABEL_LOCALES

    lang = i18n.current()
    if fmt == "rupees":
        return shown_rupees(value)  # grouped the Indian way in every language, as a cost exercise's facts
    if lang in BABEL_LOCALES and fmt.startswith(",") and isinstance(value, (int, float)) and not isinstance(value, bool):
        places = re.fullmatch(r",\.([0-9])f", fmt)
        if places:
            return i18n.decimal(value, int(places.group(1)))
        if fmt in (",", ",d") and (isinstance(value, int) or value == int(value)):
            return i18n.number(value)
    return format(value, fmt)


def render_body(lesson: Lesson) -> str:
    """The lesson's text with every ``{{figure}}`` computed by the engine (raises ExerciseError if one cannot be),
    its headings two levels down so they sit under the lesson's title."""
    from .exercises import ExerciseError, compute

    values = {}
    for f in lesson.figures:
        try:
            value = compute(f.op, f.args).answer
        except ExerciseError as exc:
            raise ExerciseError(f"figures.{f.name}: {exc}") from None
        try:
            values[f.name] = _formatted(value, f.format)
        except (ValueError, TypeError):  # a format that does not fit the value (',' for a list of tokens)
            raise ExerciseError(f"figures.{f.name}: the format {f.format!r} does not fit its value, "
                                f"{str(value)[:80]}") from None
    text = PLACEHOLDER.sub(lambda m: values[m.group(1)], lesson.body)
    return re.sub(r"(?m)^(#{1,4}) ", lambda m: "#" * min(len(m.group(1)) + 2, 6) + " ", text)  # under the title


def course_folder() -> Path:
    """The course folder: ``$LAB_COURSE_DIR`` if set, else the lab's own ``lessons/course``."""
    return Path(os.environ.get(COURSE_ENV) or COURSE)


def _order(folder: Path, problems: list[str]) -> list[str | None]:
    """The lesson names ``index.toml`` lists (None for one that is not a lesson's name: it keeps its number); if
    the index cannot be read, every lesson file by name."""
    try:
        data = read_toml(read_file(folder, "index.toml", MAX_INDEX_BYTES), "index.toml")
        order = data.get("order")
        if not isinstance(order, list):
            raise LessonError("index.toml: order: must be a list of lesson file names, such as [\"01-why-tokens\"]")
    except LessonError as exc:
        names: list[str | None] = [*sorted(path.stem for path in folder.glob("*.md"))[:MAX_LESSONS]]
        problems.append(f"{exc}" + ("; the lessons are shown in the order of their file names" if names else ""))
        return names
    if len(order) > MAX_LESSONS:
        problems.append(f"index.toml: order: {len(order):,} lessons; a course may have up to {MAX_LESSONS}, the "
                        f"first {MAX_LESSONS} are read")
        order = order[:MAX_LESSONS]
    names = []  # a name that is not one: None, in its place
    for number, name in enumerate(order, start=1):
        if not isinstance(name, str) or not LESSON_NAME.fullmatch(name) or ".." in name:
            shown = repr(name) if isinstance(name, str) and len(name) <= 100 else f"entry {number}"
            problems.append(f"index.toml: order: {shown} is not a lesson's name: its file name in the course folder "
                            "without '.md' (letters, digits, '-', '_' and '.'; no folder)")
            name = None
        names.append(name)
    return names


def load_course(folder: Path | None = None, lang: str = "en") -> Course:
    """Every lesson in the index's order; a lesson that cannot be read is a problem, not a crash. In another
    language (``lang="hi"``), each lesson with its translation in ``<folder>/<lang>/`` has its words from there over
    the English facts (:func:`translated`)."""
    english = _load_english(folder)
    return english if lang == "en" else translated(english, folder, lang)


def translated(english: Course, folder: Path | None, lang: str) -> Course:
    """``english`` in ``lang``: each lesson with its translation in ``<folder>/<lang>/`` has its words from there
    laid over its English facts, the same objects (:mod:`lessons.overlay`); one without, or whose translation cannot
    be used (a problem, named), is in English."""
    try:
        folder = (folder or course_folder()).resolve(strict=True)
    except (OSError, RuntimeError):
        return english
    base = folder.parent if folder.is_file() else folder
    lessons, problems = [], list(english.problems)
    for lesson in english.lessons:
        try:
            lessons.append(in_language(lesson, base, lang))
        except LessonError as exc:
            problems.append(str(exc) + "; the lesson is shown in English")
            lessons.append(lesson)
    if folder.is_dir():  # a translation of no lesson: a file renamed on one side only
        for path in sorted((base / lang).glob("*.md"))[: MAX_LESSONS * 2]:
            if not (base / path.name).exists():
                problems.append(f"{lang}/{path.name}: there is no English lesson {path.name}, so it is not shown")
    return Course(tuple(lessons), tuple(problems))


def _load_english(folder: Path | None) -> Course:
    problems: list[str] = []
    try:
        folder = (folder or course_folder()).resolve(strict=True)
    except (OSError, RuntimeError):
        return Course((), (f"{folder or course_folder()}: the course folder cannot be read (no such folder)",))
    if folder.is_file() and folder.suffix == ".md":  # one lesson file (a class's own questions, say): its course
        try:
            return Course((parse_lesson(read_file(folder.parent, folder.name, MAX_LESSON_BYTES), folder.name, 1),), ())
        except LessonError as exc:
            return Course((), (str(exc),))
    order = _order(folder, problems)
    lessons: list[Lesson] = []
    for number, name in enumerate(order, start=1):  # a lesson's number is its place in the index, loaded or not
        if name is None:
            continue
        file = f"{name}.md"
        try:
            lesson = parse_lesson(read_file(folder, file, MAX_LESSON_BYTES), file, number)
        except LessonError as exc:
            problems.append(str(exc).replace(f"{file}: there is no such file",
                                             f"{file}: the index lists it, but there is no such file"))
            continue
        if any(other.id == lesson.id for other in lessons):
            problems.append(f"{file}: the id {lesson.id!r} is used by another lesson")
            continue
        lessons.append(lesson)
    listed = {f"{name}.md" for name in order if name is not None}
    for path in sorted(folder.glob("*.md"))[: MAX_LESSONS * 2]:
        if path.name not in listed:
            problems.append(f"{path.name}: not in index.toml, so it is not shown")
    return Course(tuple(lessons), tuple(problems))


@lru_cache(maxsize=8)
def _course(folder: str, lang: str) -> Course:
    if lang == "en":
        return load_course(Path(folder))
    return translated(_course(folder, "en"), Path(folder), lang)  # the English course's objects: one set of facts


def course(lang: str | None = None) -> Course:
    """The course (of :func:`course_folder`) in ``lang`` (default: the run's language, :func:`i18n.current`), read
    once per process and language. Its ids, answers and links are the same in every language; only its words
    differ."""
    import i18n

    return _course(str(course_folder()), lang or i18n.current())


__all__ = ["Course", "Exercise", "Figure", "Lesson", "render_body", "LessonError", "Link", "course", "course_folder",
           "exercise_from", "load_course", "page_paths", "parse_lesson", "read_file"]
