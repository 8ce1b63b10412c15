"""Lessons in a real browser: a lesson, one exercise of each kind answered, classroom mode on a projector.

Screenshots (LAB_SCREENSHOTS=1): lessons-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from lessons.course import course
from tests.browser.browser_helpers import (
    cut_off,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    squeezed_labels,
    step_button,
    uses_devanagari_font,
)

skip_without_browser()


URL = "Lessons"


IDS = {"bpe-training": ["chai-first-merge", "news-tie", "news-order", "low-tie", "pohawala-split",
                         "xylophone-tokens", "readable-tokens"],
       "cost-context-speed": ["news-hindi-gpt4", "news-hindi-gpt4o", "hindi-article-cost"],
       "english-vs-hindi": ["hindi-k1", "fair-share-hindi", "fair-share-english", "partial-k1", "english-word-splits"],
       "bytes-per-character": ["khabar-bytes", "khabar-latin-bytes", "ki-code-points", "indore-bytes"]}


def _exercise(page, n: int, lesson: str = "bpe-training"):
    return main_area(page).locator(f".st-key-exercise-{lesson}-{IDS[lesson][n - 1]}")


def _check(page, box) -> None:
    box.get_by_role("button", name="Check", exact=True).click()
    settle(page)


def test_a_lesson_and_one_exercise_of_each_kind(open_page) -> None:
    page = open_page(URL, "lessons-bpe", query="lesson=bpe-training")
    expect(main_area(page).get_by_role("heading", name="2. BPE training, one merge at a time")).to_be_visible()

    # choice: which pair merges first
    box = _exercise(page, 1)
    box.get_by_text("h + a", exact=True).click()
    _check(page, box)
    expect(_exercise(page, 1)).to_contain_text("Right! You predicted h + a.")

    # order: the first three merges of the news corpus
    for item in ("n + e", "ne + w", "new + s"):  # each pick reruns the page: wait for it before the next
        _exercise(page, 3).locator('[data-testid="stMultiSelect"]').click()
        page.get_by_role("option", name=item, exact=True).click()
        page.keyboard.press("Escape")
        settle(page)
    _check(page, _exercise(page, 3))
    expect(_exercise(page, 3)).to_contain_text("Right! You predicted n + e | ne + w | new + s.")

    # split: pohawala
    box = _exercise(page, 5)
    field = box.get_by_label("Your prediction: the tokens, separated by |")
    field.fill("poha | wala")
    field.press("Enter")
    settle(page)
    _check(page, _exercise(page, 5))
    expect(_exercise(page, 5)).to_contain_text("Not this time")
    expect(_exercise(page, 5)).to_contain_text("Merges apply in learned order")

    # number: xylophone
    box = _exercise(page, 6)
    number = box.locator("input[type=number]")
    number.fill("9")
    number.press("Enter")
    settle(page)
    _check(page, _exercise(page, 6))
    expect(_exercise(page, 6)).to_contain_text("Right! You predicted 9 tokens.")
    screenshot(page, "lessons-bpe-answered")


def test_the_lesson_list_shows_whole_titles_and_progress(open_page) -> None:
    """The narrow lesson list wraps each title and its progress ("1. Why tokens: ... · 0/4"), never an ellipsis."""
    page = open_page(URL, "lessons-list", query="lesson=bpe-training")
    menu = main_area(page).locator('[class*="st-key-tl-menu-lessons"]')
    expect(menu.get_by_role("button")).to_have_count(len(course().lessons))
    expect(menu.get_by_role("button", name=re.compile(r"^1\. Why tokens: words, characters, subwords · 0.\d+$"))).to_be_visible()
    assert cut_off(page, 'button [data-testid="stMarkdownContainer"]') == []


def test_a_word_exercise(open_page) -> None:
    page = open_page(URL, "lessons-evh", query="lesson=english-vs-hindi")
    box = _exercise(page, 5, "english-vs-hindi")
    field = box.get_by_label("Your answer")
    field.fill("xylophone")
    field.press("Enter")
    settle(page)
    _check(page, _exercise(page, 5, "english-vs-hindi"))
    expect(_exercise(page, 5, "english-vs-hindi")).to_contain_text("Right!")
    screenshot(page, "lessons-word")


def test_a_money_answer_takes_paise(open_page) -> None:
    """A number with decimals can be typed and is read as typed: Rs 2.46 for a Hindi article of lesson 5."""
    page = open_page(URL, "lessons-cost", query="lesson=cost-context-speed")
    box = _exercise(page, 3, "cost-context-speed")
    number = box.locator("input[type=number]")
    number.fill("2.46")
    number.press("Enter")
    settle(page)
    _check(page, _exercise(page, 3, "cost-context-speed"))
    expect(_exercise(page, 3, "cost-context-speed")).to_contain_text("Right! You predicted 2.46 rupees.")
    expect(_exercise(page, 3, "cost-context-speed")).to_contain_text("together Rs 2.46")
    expect(main_area(page)).to_contain_text("Over a month that is Rs 73,800 against Rs 26,100")
    screenshot(page, "lessons-cost-answered")


def test_classroom_mode_on_a_projector(open_page) -> None:
    page = open_page(URL, "lessons-classroom-first", query="lesson=english-vs-hindi&classroom=1", size="projector")
    settle(page)
    expect(main_area(page).get_by_text("Part 1 of", exact=False)).to_be_visible()
    step_button(main_area(page), "Next").click()
    settle(page)
    expect(main_area(page).get_by_text("Part 2 of", exact=False)).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]step=1"))
    screenshot(page, "lessons-classroom")


@pytest.mark.parametrize("size", ["laptop", "phone", "projector"])
def test_a_lesson_in_hindi_is_set_for_reading(open_page, size: str) -> None:
    """Lesson 3 in Hindi (its own text, lessons/course/hi/): the heading and the text in Devanagari, the engine's
    figures in it, nothing cut off, at a laptop's and a phone's size and on a projector in large type."""
    from i18n import using
    from lessons.exercises import compute

    query = "lang=hi&lesson=bytes-per-character" + ("&large=1" if size == "projector" else "")
    page = open_page(URL, f"lessons-hindi-{size}", query=query, size=size)
    main = main_area(page)
    expect(main.get_by_role("heading", name="3. प्रति कैरेक्टर बाइट")).to_be_visible()
    with using("hi"):
        hi_bytes = compute("utf8_bytes", {"text": "इंदौर साफ़ है"}).answer
    expect(main).to_contain_text(f"{hi_bytes} बाइट हैं")
    expect(main).to_contain_text("खबर कितने UTF-8 बाइट है?")
    assert uses_devanagari_font(page, '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p')
    assert cut_off(page) == [] and squeezed_labels(page) == []
    box = _exercise(page, 4, "bytes-per-character")  # an exercise's box: its prompt, input and button in Hindi
    box.scroll_into_view_if_needed()
    expect(box.get_by_role("button", name="जाँचिए", exact=True)).to_be_visible()
    screenshot(page, f"lessons-hindi-{size}-exercise")
