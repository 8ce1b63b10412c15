"""Journey: answer on three pages, save, read the file itself, load it in a fresh browser; and damaged or
hostile progress files refused with a message, nothing replaced, no traceback.

Moving between pages inside one browser session goes through the app's own links (the sidebar, a lesson's
link): a new page load (``page.goto``) would start a new session.
Screenshots (with LAB_SCREENSHOTS=1): artifacts/screenshots/journey-progress-*.png.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from lessons.progress import QuestionId
from tests.browser.browser_helpers import (
    assert_no_exception,
    downloaded,
    main_area,
    pressed,
    screenshot,
    settle,
    sidebar_to,
    skip_without_browser,
    step_button,
    still,
    until,
)

skip_without_browser()


CHAI = "lesson:bpe-training:chai-first-merge"
XYLOPHONE = "lesson:bpe-training:xylophone-tokens"
CLEANED = "lesson:cost-context-speed:cleaned-hindi-cost"


def _box(page, lesson: str, exercise: str):
    return main_area(page).locator(f".st-key-exercise-{lesson}-{exercise}")


#: What the helpers below find by its words, in the learner's language: an exercise's Check, the expander that holds
#: the progress file, a text inside the progress part of it, its save button.
WORDS = {"en": ("Check", "Worksheets and your progress", "Your progress", "Save my progress"),
         "hi": ("जाँचिए", "वर्कशीट और आपकी प्रगति", "आपकी प्रगति", "मेरी प्रगति सहेजिए")}


def _check(page, box, lang: str = "en") -> None:
    box.get_by_role("button", name=WORDS[lang][0], exact=True).click()
    settle(page)


def _number(page, box, value: str) -> None:
    field = box.locator("input[type=number]")
    field.fill(value)
    field.press("Enter")
    settle(page)


def _pick_lesson(page, title: str) -> None:
    main_area(page).get_by_role("button", name=re.compile("^" + re.escape(title))).click()
    settle(page)
    expect(main_area(page).get_by_role("heading", name=title)).to_be_visible()


def _progress_box(page, *, open_it: bool = True, lang: str = "en"):
    _, takeaway, progress, _ = WORDS[lang]
    if open_it:
        main_area(page).get_by_text(takeaway).click()
    return main_area(page).locator('[data-testid="stExpander"]', has_text=progress)


def _save(page, progress, lang: str = "en") -> dict:
    """Save my progress (in ``progress``, the open box): the downloaded file, read."""
    settle(page)  # a run still under way redraws the button under the click
    button = progress.get_by_role("button", name=re.compile(WORDS[lang][3]))
    return json.loads(Path(downloaded(page, button, "Save my progress").path()).read_text(encoding="utf-8"))


def _load(page, box, name: str, data: bytes) -> None:
    box.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(
        {"name": name, "mimeType": "application/json", "buffer": data})
    expect(main_area(page).get_by_text(f"“{name}”", exact=False).first).to_be_visible()
    settle(page)


def _score(page) -> str:
    text = main_area(page).get_by_text("Your score:", exact=False).first.inner_text()
    return text[text.index("Your score:"):]


def test_answers_on_three_pages_are_saved_and_come_back_in_a_fresh_browser(fresh_context, visit, tmp_path) -> None:
    # 1. Train, predict first: merge 1 of the news corpus.
    first = fresh_context("laptop")
    page = visit(first, "Train_step_by_step", "preset=news&predict=1")
    step_button(main_area(page), "Next").click()
    settle(page)
    still(page)  # Next brings its step into view once its run has settled: a click during that scroll lands elsewhere
    pick = main_area(page).get_by_text("n + e", exact=True)
    # a whole-suite run once lost this pick (Check then said "Make a prediction first"); alone and under two CPU hogs
    # none of 20 was: a second press is said as a warning, as any lost press is
    pressed(page, pick.click, lambda: expect(main_area(page).get_by_role("radio", name="n + e")).to_be_checked(
        timeout=10_000), "Train's pick of n + e")
    settle(page)  # the choice's own run first: a Check pressed during it can be lost on a busy machine
    main_area(page).get_by_role("button", name="Check", exact=True).click()
    settle(page)
    expect(main_area(page).get_by_text("Right! You predicted n + e", exact=False)).to_be_visible(timeout=30_000)
    settle(page)

    # 2. Lessons, lesson 2: two exercises (a choice, a number); lesson 5: the money answer that rounds down.
    sidebar_to(page, "Lessons")
    _pick_lesson(page, "2. BPE training, one merge at a time")
    box = _box(page, "bpe-training", "chai-first-merge")
    box.get_by_text("h + a", exact=True).click()
    _check(page, box)
    _number(page, _box(page, "bpe-training", "xylophone-tokens"), "9")
    _check(page, _box(page, "bpe-training", "xylophone-tokens"))
    _pick_lesson(page, "5. Cost, context window and speed")
    _number(page, _box(page, "cost-context-speed", "cleaned-hindi-cost"), "2.23")
    _check(page, _box(page, "cost-context-speed", "cleaned-hindi-cost"))
    expect(_box(page, "cost-context-speed", "cleaned-hindi-cost")).to_contain_text("Right! You predicted 2.23")
    assert _score(page).startswith("Your score: 4 right of 4 answers")

    # 3. Save, and read the downloaded file itself.
    progress = _progress_box(page)
    saved = _save(page, progress)
    assert saved["version"] == 2  # each answer by its question's id and parameters, read back as the page's key
    answers = {QuestionId.of(a["question"], **a["params"]).key: a for a in saved["answers"]}
    train_keys = [k for k in answers if k.startswith("train:")]
    assert len(answers) == 4 and len(train_keys) == 1, answers
    assert answers[CHAI]["guess"] == "h + a" and answers[XYLOPHONE]["guess"] == 9
    assert answers[CLEANED]["guess"] == 2.23 and answers[train_keys[0]]["guess"] == "n + e"
    file = tmp_path / "progress.json"
    file.write_bytes(json.dumps(saved).encode())

    # 4. A fresh browser: nothing answered; load the file.
    second = fresh_context("laptop")
    page = visit(second, "Lessons", "lesson=bpe-training")
    assert _score(page).startswith("Your score: 0 right of 0 answers")
    _load(page, _progress_box(page), "progress.json", file.read_bytes())
    expect(main_area(page).get_by_text("4 answers added: 4 of 4 right", exact=False)).to_be_visible()
    expect(_box(page, "bpe-training", "chai-first-merge")).to_contain_text("Right! You predicted h + a.")
    expect(_box(page, "bpe-training", "xylophone-tokens")).to_contain_text("Right! You predicted 9 tokens.")
    assert _score(page).startswith("Your score: 4 right of 4 answers"), _score(page)  # Train's answer too
    _progress_box(page, open_it=False).locator(".tl-note").last.scroll_into_view_if_needed()
    screenshot(page, "journey-progress-loaded")
    _pick_lesson(page, "5. Cost, context window and speed")
    expect(_box(page, "cost-context-speed", "cleaned-hindi-cost")).to_contain_text("Right! You predicted 2.23")

    # 5. Train shows its verdict for the loaded answer (the lesson's link, predict first).
    _pick_lesson(page, "2. BPE training, one merge at a time")
    main_area(page).get_by_role("link", name=re.compile("Watch a tie: news, new, newer")).click()
    page.wait_for_url(re.compile("/Train_step_by_step"))
    settle(page)
    main_area(page).get_by_role("button", name="Skip, show me the view").click()  # the link asks lesson 2's tie first
    settle(page)
    main_area(page).get_by_text("Predict first", exact=True).click()
    settle(page)
    expect(main_area(page).get_by_text("Right! You predicted n + e", exact=False)).to_be_visible()
    sidebar_to(page, "Lessons")
    assert _score(page).startswith("Your score: 4 right of 4 answers"), _score(page)
    assert_no_exception(page)


def _file(answers) -> bytes:
    """A version-1 file (answers by key), as the lab saved them before question ids: read by the migration."""
    return json.dumps({"format": "tokenization-lab/progress", "version": 1, "answers": answers}).encode()


HOSTILE = [
    ("not-json.json", b"{this is not json", "not valid JSON"),
    ("picture.json", b"\x89PNG\r\n\x1a\n\x00\x00", "not text"),
    ("huge.json", b" " * 2_100_000 + b"{}", "far bigger"),
    ("wrong-types.json", _file({
        "lesson:bpe-training:xylophone-tokens": {"guess": "nine", "right": True},  # text for a number
        "lesson:bpe-training:news-order": {"guess": 3, "right": True},  # a number for an order
        "lesson:bpe-training:pohawala-split": {"guess": ["po", 1], "right": True},  # not a list of texts
        "lesson:bpe-training:news-tie": {"guess": "nobody", "right": True},  # not one of its options
        "lesson:english-vs-hindi:english-word-splits": {"guess": {"a": 1}, "right": True},  # a table for a word
    }), "5 answers in the file were refused"),
    ("made-up.json", _file({f"made-up:{i}": {"guess": "x", "right": True} for i in range(10_000)}),
     "10,000 answers in the file were refused"),
    ("lies.json", _file({"lesson:bpe-training:chai-first-merge": {"guess": "a + i", "right": True},
                         "lesson:bpe-training:news-tie": {"guess": "w + s", "right": True}}),
     "1 answer added: 0 of 1 right"),
]


def test_damaged_and_hostile_progress_files_are_refused_and_nothing_is_replaced(fresh_context, visit) -> None:
    page = visit(fresh_context("laptop"), "Lessons", "lesson=bpe-training")
    box = _box(page, "bpe-training", "chai-first-merge")
    box.get_by_text("h + a", exact=True).click()
    _check(page, box)
    progress = _progress_box(page)
    for name, data, message in HOSTILE:
        _load(page, progress, name, data)
        assert_no_exception(page)
        expect(main_area(page).get_by_text(message, exact=False).first).to_be_visible()
        if name == "wrong-types.json":
            progress.locator(".tl-note").last.scroll_into_view_if_needed()
            screenshot(page, "journey-progress-refused")
        # The answer given here stays, and nothing in the file counts as right.
        expect(_box(page, "bpe-training", "chai-first-merge")).to_contain_text("Right! You predicted h + a.")
        tried = "2 answers" if name == "lies.json" else "1 answer"
        assert _score(page).startswith(f"Your score: 1 right of {tried} ·"), (name, _score(page))
    # "right": true on a wrong guess not answered here: loaded as the wrong answer it is.
    expect(_box(page, "bpe-training", "news-tie")).to_contain_text("Not this time. You predicted w + s")
    # A later visit to the lesson shows no traceback.
    sidebar_to(page, "Train_step_by_step")
    sidebar_to(page, "Lessons")
    assert_no_exception(page)


# -- progress that keeps itself ------------------------------------------------------------------------------------
def _cookie_once_written(context, page, name: str) -> str | None:
    """The browser's cookie ``name`` (its value, None when it has none) once the page's last write of it has reached the
    browser's store: a page's ``document.cookie`` write gets there on its own, after the local storage the same script
    wrote next to it (CI saw the cookie still there when the storage was already empty). Read again until it is what
    the page itself sees, for up to 5 s."""
    mine = f"""() => {{ const c = document.cookie.split('; ').find((c) => c.startsWith('{name}='));
                        return c === undefined ? null : c.slice({len(name) + 1}); }}"""
    for _ in range(100):
        stored = next((c["value"] for c in context.cookies() if c["name"] == name), None)
        if stored == page.evaluate(mine):
            return stored
        page.wait_for_timeout(50)
    return stored


def _browser(playwright_driver, profile, size: str = "laptop"):
    """The learner's own browser: a profile on disk, as a person's browser keeps its storage and cookies between
    one day and the next (closing it ends every session with the server)."""
    from tests.browser.browser_helpers import CHROMIUM, CHROMIUM_ARGS, PAGE_TIMEOUT_MS, SIZES, watch

    context = playwright_driver.chromium.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, accept_downloads=True,
        **SIZES[size])
    watch(context)
    context.add_init_script(RUNS)
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    return context


RUNS = """(() => { window.__tlRuns = 0; let running = false;
  new MutationObserver(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    const now = !!app && app.getAttribute('data-test-script-state') === 'running';
    if (now && !running) window.__tlRuns += 1;
    running = now;
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-test-script-state']}); })();"""
"""How many runs of the page this tab has seen start."""


def test_answers_survive_closing_the_browser_without_saving(playwright_driver, streamlit_server, tmp_path) -> None:
    """The issue's journey: a self-paced learner answers three exercises on two lessons, never presses Save, closes
    the browser, opens the lab again on the same device: the three are answered, verdicts and score, and nothing
    was sent to the server to keep them (the browser keeps a progress file's text). A first visit with nothing kept
    mounts nothing and runs the page once."""
    from tests.browser.browser_helpers import wait_for_streamlit
    from ui.keep import COOKIE, STORAGE_KEY

    profile = tmp_path / "profile"
    url = f"{streamlit_server.base_url}/Lessons?lesson=bpe-training"
    browser = _browser(playwright_driver, profile)
    page = browser.pages[0] if browser.pages else browser.new_page()
    page.goto(url)
    wait_for_streamlit(page)
    settle(page)
    assert page.locator('[class*="st-key-keep-keeper"]').count() == 0  # a first visit: nothing mounted
    assert page.evaluate("window.__tlRuns") == 1, "a first visit with nothing kept ran the page again"
    box = _box(page, "bpe-training", "chai-first-merge")
    box.get_by_text("h + a", exact=True).click()
    settle(page)
    _check(page, box)
    _number(page, _box(page, "bpe-training", "xylophone-tokens"), "7")  # wrong: 9
    _check(page, _box(page, "bpe-training", "xylophone-tokens"))
    _pick_lesson(page, "5. Cost, context window and speed")
    _number(page, _box(page, "cost-context-speed", "cleaned-hindi-cost"), "2.23")
    _check(page, _box(page, "cost-context-speed", "cleaned-hindi-cost"))
    assert _score(page).startswith("Your score: 2 right of 3 answers")
    until(page, f"() => (localStorage.getItem('{STORAGE_KEY}') || '').split('\"question\"').length > 3")
    kept = json.loads(page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')"))
    assert {a["params"]["exercise"] for a in kept["answers"]} == {"chai-first-merge", "xylophone-tokens",
                                                                 "cleaned-hindi-cost"}
    assert _cookie_once_written(browser, page, COOKIE) == "1"  # no data in it
    browser.close()  # the learner closes the browser: every session with the lab ends

    again = _browser(playwright_driver, profile)
    page = again.pages[0] if again.pages else again.new_page()
    page.goto(url)
    wait_for_streamlit(page)
    settle(page)
    expect(_box(page, "bpe-training", "chai-first-merge")).to_contain_text("Right! You predicted h + a.")
    expect(_box(page, "bpe-training", "xylophone-tokens")).to_contain_text("Not this time. You predicted 7 tokens")
    assert page.evaluate("window.__tlRuns") <= 2  # reading them back costs one run, once a session
    assert _score(page).startswith("Your score: 2 right of 3 answers"), _score(page)
    screenshot(page, "journey-progress-kept")
    _pick_lesson(page, "5. Cost, context window and speed")
    expect(_box(page, "cost-context-speed", "cleaned-hindi-cost")).to_contain_text("Right! You predicted 2.23")

    # Start over (a computer others use): forgotten here and in the browser.
    progress = _progress_box(page)
    progress.get_by_role("button", name="Start over").click()
    settle(page)
    # forgetting can take a second run (the browser's copy is removed, then the page drawn without it): wait for it
    expect(main_area(page).get_by_text("Your score: 0 right of 0 answers", exact=False).first).to_be_visible()
    until(page, f"() => localStorage.getItem('{STORAGE_KEY}') === null")
    assert _cookie_once_written(again, page, COOKIE) is None
    again.close()


@pytest.mark.parametrize("kept", ["{not json", json.dumps({"format": "tokenization-lab/progress", "version": 2,
                                                         "answers": [{"question": "made-up", "params": {}, "guess": 1}]}),
                                  "x" * 2_100_000])
def test_what_a_browser_kept_that_is_damaged_or_hostile_is_refused_with_a_word(playwright_driver, streamlit_server,
                                                                             tmp_path, kept) -> None:
    """Local storage is the learner's to change: what it holds is read as a progress file is (bounded, checked,
    judged again), a damaged one is said so once and replaced by the next answer, and the page works."""
    from tests.browser.browser_helpers import wait_for_streamlit
    from ui.keep import COOKIE, STORAGE_KEY

    browser = _browser(playwright_driver, tmp_path / "profile")
    page = browser.pages[0] if browser.pages else browser.new_page()
    page.goto(f"{streamlit_server.base_url}/")
    wait_for_streamlit(page)
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [STORAGE_KEY, kept])
    browser.add_cookies([{"name": COOKIE, "value": "1", "url": streamlit_server.base_url}])
    page.goto(f"{streamlit_server.base_url}/Lessons?lesson=bpe-training")
    wait_for_streamlit(page)
    settle(page)
    assert_no_exception(page)
    if kept.startswith("{not") or len(kept) > 1_000_000:
        expect(page.get_by_text("The answers this browser kept could not be read", exact=False)).to_be_visible()
    assert _score(page).startswith("Your score: 0 right of 0 answers")
    box = _box(page, "bpe-training", "chai-first-merge")
    box.get_by_text("h + a", exact=True).click()
    settle(page)
    _check(page, box)
    until(page, f"() => (localStorage.getItem('{STORAGE_KEY}') || '').includes('chai-first-merge')")
    assert json.loads(page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')"))["answers"]
    browser.close()


def test_a_class_and_ones_own_answers_are_kept_apart_in_the_browser(playwright_driver, streamlit_server, fresh_context,
                                                                   tmp_path) -> None:
    """A learner answers on their own (kept in the browser), joins a class and answers the same exercise otherwise
    there (the class keeps it, on its server): what the browser keeps is still only their own answer, a browser
    closed and opened again in the class shows the class's, and leaving the class brings their own back."""
    from tests.browser.browser_helpers import wait_for_streamlit
    from ui.keep import STORAGE_KEY

    def kept(page) -> list:
        text = page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')")
        return [(a["params"]["exercise"], a["guess"]) for a in json.loads(text)["answers"]] if text else []

    def open_url(context, path: str):
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"{streamlit_server.base_url}/{path}")
        wait_for_streamlit(page)
        settle(page)
        assert_no_exception(page)
        return page

    profile = tmp_path / "profile"
    learner = _browser(playwright_driver, profile)
    page = open_url(learner, "Lessons?lesson=bpe-training")
    box = _box(page, "bpe-training", "chai-first-merge")
    box.get_by_text("h + a", exact=True).click()
    settle(page)
    _check(page, box)
    until(page, f"() => (localStorage.getItem('{STORAGE_KEY}') || '').includes('chai-first-merge')")
    assert kept(page) == [("chai-first-merge", "h + a")]

    teacher = open_url(fresh_context("laptop"), "Class")
    main_area(teacher).get_by_role("textbox", name="Class title").fill("Week 3")
    main_area(teacher).get_by_role("button", name="Start a class").click()
    code_box = main_area(teacher).locator(".tl-class-code")
    expect(code_box).to_be_visible()
    code = code_box.inner_text().strip()

    page = open_url(learner, f"Class?code={code}")
    main_area(page).get_by_role("textbox", name="Your name").fill("Asha")
    main_area(page).get_by_role("button", name="Join").click()
    expect(main_area(page).get_by_text("Welcome, Asha.", exact=False)).to_be_visible()
    settle(page)
    sidebar_to(page, "Lessons")
    _pick_lesson(page, "2. BPE training, one merge at a time")
    box = _box(page, "bpe-training", "chai-first-merge")
    expect(box.get_by_role("button", name="Check", exact=True)).to_be_visible()  # asked afresh in the class
    wrong = box.locator('[data-testid="stRadioOption"]').filter(has_not_text="h + a").first
    given = wrong.inner_text().strip()
    wrong.click()
    settle(page)
    _check(page, box)
    expect(box).to_contain_text(f"You predicted {given}")
    page.wait_for_timeout(1_000)  # what the browser would write, it would have written by now
    assert kept(page) == [("chai-first-merge", "h + a")]  # the class's answer is the class's, not the browser's
    learner.close()

    learner = _browser(playwright_driver, profile)  # the next day, the same browser: still in the class
    page = open_url(learner, "Lessons?lesson=bpe-training")
    expect(_box(page, "bpe-training", "chai-first-merge")).to_contain_text(f"You predicted {given}")
    assert kept(page) == [("chai-first-merge", "h + a")]
    sidebar_to(page, "Class")
    main_area(page).get_by_role("button", name=re.compile(r"^Leave (the|this) class in this browser")).click()
    settle(page)
    sidebar_to(page, "Lessons")
    _pick_lesson(page, "2. BPE training, one merge at a time")
    expect(_box(page, "bpe-training", "chai-first-merge")).to_contain_text("Right! You predicted h + a.")
    screenshot(page, "journey-progress-class-apart")
    learner.close()
