"""Journey: inside the tokenizers people use (issue 26), at the three sizes people use. A learner compares GPT-4 and
GPT-4o on the Hindi sentence, opens a production token's merge tree on Tokenize anything and on Real tokenizers,
steps GPT-4o through घने on Encode step by step, reads both vocabularies' Devanagari on Vocabulary by script and
searches inside them; a teacher poses one of lesson 10's questions to a class.

Screenshots (with LAB_SCREENSHOTS=1): artifacts/screenshots/journey-inside-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from analyses import vocab
from family import merges, real
from lessons.course import course
from lessons.exercises import compute
from tests.browser.browser_helpers import (
    assert_no_exception,
    charts_drawn,
    cut_off,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    step_button,
    still,
    wait_for_streamlit,
)
from ui.questions import exercise_question

skip_without_browser()

HINDI = "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"
SIZES = ("laptop", "phone", "projector")


def _query(size: str, **params: str) -> str:
    extra = {"large": "1"} if size == "projector" else {}
    return "&".join(f"{k}={v}" for k, v in {**params, **extra}.items())


def _open_box(page, name: str):
    box = main_area(page).locator('[data-testid="stExpander"]', has_text=name).first
    box.locator("summary").first.click()
    settle(page)
    return box


@pytest.mark.parametrize("size", SIZES)
def test_a_production_tokens_tree_on_tokenize_and_real_tokenizers(size, fresh_context, visit) -> None:
    context = fresh_context(size)
    page = visit(context, "Tokenize_anything", _query(size, toks="o200k_base,cl100k_base", text=HINDI))
    box = _open_box(page, "Where does a token come from?")
    tree = box.locator(".tl-tree")
    expect(tree).to_be_visible()
    expect(tree.get_by_text(re.compile(r"rank [\d,]+: the merge of the two below")).first).to_be_visible()
    expect(box.get_by_text("the token's bytes", exact=False)).to_be_visible()
    assert "a byte: where every token starts" in tree.inner_text()
    tree.scroll_into_view_if_needed()
    still(page)
    assert cut_off(page) == [], cut_off(page)
    screenshot(page, f"journey-inside-tokenize-tree-{size}")

    page = visit(context, "Real_tokenizers", _query(size, toks="cl100k_base,o200k_base"))
    box = _open_box(page, "Where does a token come from? Its merges, down to its bytes")
    expect(box.locator(".tl-tree")).to_be_visible()
    box.scroll_into_view_if_needed()
    still(page)
    assert cut_off(page) == [], cut_off(page)
    screenshot(page, f"journey-inside-real-tree-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_gpt4o_steps_through_a_hindi_word(size, fresh_context, visit) -> None:
    tok = real.load("o200k_base")
    replay = merges.inside(tok).replay("घने")
    page = visit(fresh_context(size), "Encode_step_by_step", _query(size, tok="o200k_base", text="घने"))
    expect(main_area(page).get_by_text(f"{len(replay.steps)} merges will fire", exact=False)).to_be_visible()
    step_button(main_area(page), "Next").first.click()
    settle(page)
    still(page)
    merge = main_area(page).locator(".tl-merge").first
    expect(merge).to_be_in_viewport()  # what Next changed is on the screen
    assert f"Rank {replay.steps[0].rank:,}" in merge.inner_text()
    screenshot(page, f"journey-inside-encode-step1-{size}")
    step_button(main_area(page), "End").first.click()
    settle(page)
    expect(main_area(page).get_by_text("No merge applies any more", exact=False)).to_be_visible()
    assert cut_off(page) == [], cut_off(page)
    screenshot(page, f"journey-inside-encode-last-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_vocabulary_read_by_script(size, fresh_context, visit) -> None:
    page = visit(fresh_context(size), "Vocabulary_by_script", _query(size, vs="cl100k_base", script="Devanagari"))
    charts_drawn(page)
    gpt4o = vocab.vocabulary(real.load("o200k_base"))
    expect(main_area(page).get_by_text(vocab.DEFINITION[:50], exact=False)).to_be_visible()
    expect(main_area(page).get_by_text(f"{gpt4o.count('Devanagari'):,}").first).to_be_visible()
    assert cut_off(page) == [], cut_off(page)
    screenshot(page, f"journey-inside-vocab-{size}")
    box = main_area(page).get_by_role("textbox", name="Find tokens that contain")
    box.fill("वाला")
    box.press("Enter")
    settle(page)
    n, _ = gpt4o.search("वाला")
    said = "1 token contains it" if n == 1 else f"{n:,} tokens contain it"
    expect(main_area(page).get_by_text(said, exact=False).first).to_be_visible()
    assert cut_off(page) == [], cut_off(page)
    screenshot(page, f"journey-inside-vocab-search-{size}", full_page=size == "laptop")


def test_a_teacher_poses_a_lesson_10_question_to_the_class(streamlit_server, fresh_context) -> None:
    exercise = next(e for e in course().lesson("inside-real-tokenizers").exercises if e.id == "ghane-first-merge")
    question = exercise_question(exercise)
    truth = compute(exercise.op, exercise.args).answer
    teacher = fresh_context("projector").pages[0]  # the kept tab (a new tab costs Chromium about twice as much)
    teacher.goto(f"{streamlit_server.base_url}/Class?large=1")
    wait_for_streamlit(teacher)
    main_area(teacher).get_by_role("textbox", name="Class title").fill("Inside the tokenizers")
    main_area(teacher).get_by_role("button", name="Start a class").click()
    code_box = main_area(teacher).locator(".tl-class-code")
    expect(code_box).to_be_visible()
    settle(teacher)
    learner_link = main_area(teacher).locator('[data-testid="stCode"]').inner_text().strip()

    learner = fresh_context("phone").pages[0]
    learner.goto(learner_link)
    wait_for_streamlit(learner)
    main_area(learner).get_by_role("textbox", name="Your name").fill("Asha")
    main_area(learner).get_by_role("button", name="Join").click()
    expect(main_area(learner).get_by_text("Welcome, Asha.", exact=False)).to_be_visible()

    teacher.locator('[data-testid="stSidebar"] a[href^="Lessons"]').first.click()
    teacher.wait_for_url(re.compile("/Lessons"))
    settle(teacher)
    main_area(teacher).locator('[data-testid="stSelectbox"]').first.click()
    teacher.get_by_role("option", name=re.compile(r"^10\. Inside the tokenizers")).click()
    settle(teacher)
    box = main_area(teacher).locator(".st-key-exercise-inside-real-tokenizers-ghane-first-merge")
    box.get_by_role("button", name="Pose to the class").click()
    bar = teacher.locator(".st-key-class-bar")
    expect(bar.get_by_text("0 of 1")).to_be_visible(timeout=15_000)

    learner_bar = learner.locator(".st-key-class-bar")
    expect(learner_bar.get_by_text(question.prompt)).to_be_visible(timeout=15_000)
    learner_bar.get_by_text(truth, exact=True).click()
    learner_bar.get_by_role("button", name="Send my answer").click()
    expect(learner_bar.get_by_text(f"Your answer: {truth}.", exact=False)).to_be_visible(timeout=15_000)
    expect(bar.get_by_text("1 of 1")).to_be_visible(timeout=15_000)
    screenshot(teacher, "journey-inside-class-posed")
    bar.get_by_role("button", name="Reveal").click()
    expect(learner_bar.get_by_text(f"The lab's answer: {truth}.", exact=False)).to_be_visible(timeout=15_000)
    screenshot(learner, "journey-inside-class-phone-revealed")
    for page in (teacher, learner):
        assert_no_exception(page)
