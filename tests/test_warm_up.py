"""scripts/serve's warm-up leaves no page cold: it visits every page of the registry, every lesson and every
Train preset on each replica (deploy/warm_up.py). What each visit costs, cold and warm, is a benchmark figure
(``bench/bench_load.py --warmth``); here, that nothing a learner can open is left out of the list, now or when a
page, a lesson or a preset is added."""

from __future__ import annotations

from urllib.parse import parse_qs

import lessons
from deploy.warm_up import links
from lessons.course import course
from ui.layout import PAGES
from ui.links import LESSON
from views import train as tv


def test_every_page_of_the_registry_is_warmed() -> None:
    warmed = {path for path, _ in links()}
    assert {entry.url_path for entry in PAGES} <= warmed
    assert "" in warmed  # the home page: what a plain address opens


def test_every_lesson_and_every_train_preset_is_warmed() -> None:
    visits = [(path, parse_qs(qs)) for path, qs in links()]
    lessons_warmed = {q[LESSON.name][0] for path, q in visits if path == "Lessons" and LESSON.name in q}
    presets_warmed = {q[tv.PRESET.name][0] for path, q in visits if path == "Train_step_by_step" and tv.PRESET.name in q}
    assert lessons_warmed == {lesson.id for lesson in course().lessons}
    assert presets_warmed == set(lessons.presets())


def test_each_link_is_visited_once() -> None:
    assert len(links()) == len(set(links()))
