"""Journey: a learner in Hindi, in one browser session, at each size people use (a projector in large type, a laptop,
a phone): Tokenize anything changed, then Lessons, lesson 1; an exercise answered in Hindi; its link into the lab opens
Tokenize anything on the link's settings (not the changed text), its lesson link back reads in Hindi and returns to the
lesson, the verdict still there; the progress saved, and loaded in a fresh browser, where the answer is found.

The English journeys this walks again (test_links.py, test_progress.py) lend their helpers; the answer is the engine's
(lessons.exercises.compute). Screenshots (LAB_SCREENSHOTS=1): journey-hindi-<size>-*.png.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from lessons.course import course
from lessons.exercises import compute
from tests.browser.browser_helpers import (
    cut_off,
    main_area,
    screenshot,
    sidebar_to,
    skip_without_browser,
    uses_devanagari_font,
)
from tests.browser.journeys.test_links import back_link, change, click_link, find_link, query
from tests.browser.journeys.test_progress import _box, _check, _load, _number, _progress_box, _save

skip_without_browser()

LESSON = course("hi").lesson("why-tokens")
EXERCISE = next(e for e in LESSON.exercises if e.id == "english-per-word")  # a number; its link: Tokenize anything
ANSWER = compute(EXERCISE.op, EXERCISE.args).answer
RIGHT = "सही! आपका अनुमान था"
BACK = f"पाठों में: {LESSON.number}. {LESSON.title}"
DEVANAGARI = '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p'


def _looks_right(page, name: str) -> None:
    """Devanagari drawn with a Devanagari font, nothing past the window's edge; a screenshot to look at."""
    assert uses_devanagari_font(page, DEVANAGARI)
    assert cut_off(page) == [], name
    screenshot(page, name)


@pytest.mark.parametrize("size", ["projector", "laptop", "phone"])
def test_a_learner_in_hindi_follows_a_lesson_link_and_takes_the_answer_home(fresh_context, visit, size) -> None:
    lang = {"lang": "hi", **({"large": "1"} if size == "projector" else {})}
    address = "&".join(f"{k}={v}" for k, v in lang.items())
    page = visit(fresh_context(size), "Tokenize_anything", address)
    change(page, "Tokenize_anything")  # another text: the link must not keep it

    sidebar_to(page, "Lessons")  # lesson 1 is the one shown first
    expect(main_area(page).get_by_role("heading", name=f"{LESSON.number}. {LESSON.title}")).to_be_visible()
    box = _box(page, LESSON.id, EXERCISE.id)
    _number(page, box, str(ANSWER))
    _check(page, box, "hi")
    expect(box).to_contain_text(RIGHT)

    click_link(page, find_link(page, LESSON, EXERCISE, EXERCISE.view))  # its link, shown with the verdict
    assert query(page.url) == {**EXERCISE.view.params, "from": LESSON.id, **lang}
    expect(main_area(page).locator("textarea").first).to_have_value(EXERCISE.view.params["text"])
    back = back_link(page, BACK)
    _looks_right(page, f"journey-hindi-{size}-landed")
    click_link(page, back)
    assert query(page.url)["lesson"] == LESSON.id
    expect(_box(page, LESSON.id, EXERCISE.id)).to_contain_text(RIGHT)  # back at the lesson, the answer kept

    saved = _save(page, _progress_box(page, lang="hi"), "hi")
    assert [a["params"]["exercise"] for a in saved["answers"]] == [EXERCISE.id]
    page = visit(fresh_context(size), "Lessons", address)  # another browser: nothing answered until the file
    _load(page, _progress_box(page, lang="hi"), "progress.json", json.dumps(saved).encode())
    box = _box(page, LESSON.id, EXERCISE.id)
    expect(box).to_contain_text(RIGHT)
    box.scroll_into_view_if_needed()
    _looks_right(page, f"journey-hindi-{size}-loaded")
