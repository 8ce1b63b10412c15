"""A lesson link names the figure it sends the reader to see (``figure = "..."``): the field is checked when the
lesson is read, every link of the course has one, and the page the link opens draws it (``ui.layout.figure``).
The browser journey (tests/browser/journeys/test_projector.py) checks that it is on a projector's first screen."""

from __future__ import annotations

import re

import pytest

from lessons.course import LessonError, course, parse_lesson
from ui.layout import PAGES, ROOT

LESSON = """+++
id = "x"
title = "X"
minutes = 5
objectives = ["o"]
key_points = ["k"]

[[try]]
label = "Step"
page = "Train_step_by_step"
params = {{ preset = "chai" }}
{figure}
+++
Text.
"""


def test_a_link_keeps_the_figure_it_names():
    lesson = parse_lesson(LESSON.format(figure='figure = "pair-chart"'), "x.md")
    assert lesson.tries[0].figure == "pair-chart"
    assert parse_lesson(LESSON.format(figure=""), "x.md").tries[0].figure == ""


@pytest.mark.parametrize("bad", ['figure = "Pair Chart"', 'figure = 3', 'figure = "pair--chart"', 'figure = "<b>"'])
def test_a_figure_that_is_not_a_name_is_refused_naming_the_field(bad):
    with pytest.raises(LessonError, match=r"x\.md try 1: 'figure'"):
        parse_lesson(LESSON.format(figure=bad), "x.md")


def test_an_exercise_view_can_name_a_figure():
    text = LESSON.format(figure="").replace("+++\nText.", """[[exercise]]
id = "e"
prompt = "p"
answer = { op = "merge_at", preset = "chai", step = 1 }
explain = "e"
view = { page = "Train_step_by_step", params = { preset = "chai", step = "1" }, figure = "pair-chart" }
+++
Text.""")
    assert parse_lesson(text, "x.md").exercises[0].view.figure == "pair-chart"


def _drawn_figures(page_path: str) -> set[str]:
    """The figures a page draws: ``figure("name")`` in its file and in the view and kit modules it imports (every
    module of a view that is a package of parts)."""
    source = (ROOT / page_path).read_text(encoding="utf-8")
    modules = set(re.findall(r"^from ((?:ui|views)\.\w+) import", source, re.M))
    for package, names in re.findall(r"^from (ui|views) import ([\w, ]+?)(?:\s+as \w+)?(?:\s+#.*)?$", source, re.M):
        modules |= {f"{package}.{n.strip()}" for n in names.split(",")}
    files = [file for m in modules for file in (sorted((ROOT / m.replace(".", "/")).glob("*.py"))
                                                  if (ROOT / m.replace(".", "/")).is_dir()
                                                  else [ROOT / (m.replace(".", "/") + ".py")])]
    texts = [source] + [f.read_text(encoding="utf-8") for f in files if f.exists()]
    return {name for text in texts for name in re.findall(r'figure\("([a-z0-9-]+)"\)', text)}


def test_every_lesson_link_names_a_figure_its_page_draws():
    by_url = {entry.url_path: entry.path for entry in PAGES}
    problems = []
    links = [(lesson, link) for lesson in course().lessons
             for link in [*lesson.tries, *(e.view for e in lesson.exercises if e.view)]]
    assert len(links) >= 72
    for lesson, link in links:
        if not link.figure:
            problems.append(f"{lesson.file}: {link.label or link.page} names no figure")
        elif link.figure not in _drawn_figures(by_url[link.page]):
            problems.append(f"{lesson.file}: {link.label or link.page}: {link.page} draws no figure {link.figure!r}")
    assert not problems, "\n".join(problems)
