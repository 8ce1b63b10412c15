"""A teacher projecting the lab: classroom mode (large type + fewer controls) at 1920x1080.

Every lesson link, opened as a slide (a lesson's slides one after another in one session, as a class goes through
them: :class:`Slides`), shows the figure its lesson names (the link's ``figure`` field in
lessons/course/*.md, drawn by the page in ``ui.layout.figure``) whole on the first screen (a chart sized to the
screen, the controls and the rest one click away), and still does after the page's primary click (Next, Sample
again, Back to the lesson, a Try button). In large type nothing on any page is
drawn under 20 px. Screenshots (with LAB_SCREENSHOTS=1): artifacts/screenshots/projector-*.png.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from lessons.course import course
from tests.browser.browser_helpers import (
    NO_PLACEHOLDERS,
    axe_serious,
    key_class,
    open_in,
    open_in_session,
    press_inside_when_drawn,
    screenshot,
    settle,
    until,
    wait_for_streamlit,
)
from ui import viewport
from ui.layout import PAGES, figure_selector
from views import cost as cost_view
from views import encode as encode_view
from views import english_hindi as english_hindi_view
from views import family as family_view
from views import streaming as streaming_view
from views import train as train_view
from views.train.settings import PAGE as TRAIN_PAGE

SCREEN_HEIGHT = 1080  # the projector size in tests/browser/journeys/conftest.py
MIN_TEXT_PX = 20
#: A cold server loads every production tokenizer on the first visit to Real tokenizers: give a page that long.
COLD_PAGE_MS = 90_000
#: How long a figure is given to be brought into view after a click (ui/viewport.py gives up after 30 s).
BROUGHT_MS = 30_000

#: A page's primary click, where it has one: the stepper's Next, or the button a teacher presses on that slide.
PRIMARY_CLICK = {
    "Train_step_by_step": key_class(train_view.NEXT) + " button",
    "Encode_step_by_step": key_class(encode_view.NEXT) + " button",
    "Streaming": key_class(streaming_view.STEPPER.key("next")) + " button",
    "English_vs_Hindi": key_class(english_hindi_view.BACK) + " button",
}
PRIMARY_CLICK_BY_FIGURE = {
    "merge-rules": key_class(family_view.STEPPER.key("next")) + " button",
    "unigram-pieces": key_class(family_view.AGAIN) + " button",
    "presend-check": f'[class*="{key_class(cost_view.TRY.of(""))[1:]}"] button',
}


def _lesson_links():
    """Every lesson -> lab link (the lessons' [[try]] links and exercise views), each view once."""
    out, seen = [], set()
    for lesson in course().lessons:
        for link in [*lesson.tries, *(e.view for e in lesson.exercises if e.view)]:
            view = (link.page, tuple(sorted(link.params.items())), link.figure)
            if view in seen:
                continue
            seen.add(view)
            out.append(pytest.param(lesson.number, link, id=f"{lesson.number}-{link.page}-{link.figure}-{len(out)}"))
    return out


LINKS = _lesson_links()


def _settled_large(page) -> None:
    """The run finished, large type applied (its CSS arrives with the run: wait for it, not a fixed time) and every
    element drawn: on a busy machine Streamlit shows grey placeholders for seconds after the run, and a page of
    placeholders has no text to measure."""
    wait_for_streamlit(page)
    until(page, "getComputedStyle(document.documentElement).fontSize === '22px'")
    until(page, NO_PLACEHOLDERS)
    page.evaluate("document.fonts.ready")
    settle(page)


def _figure_problem(page, name: str, *, brought_ms: int = 0) -> str | None:
    """Why the figure is not whole on the first screen (None when it is): drawn, visible, and all of it within the
    screen's 1,080 px. ``brought_ms`` after a click: the page brings a click's result into view itself once the run
    has ended and the result's size has settled (ui/viewport.py, up to 30 s on a busy machine), after the run that
    settle() waits for: the figure is given that long to be whole on screen (looked at every 100 ms)."""
    problem = _figure_problem_now(page, name)
    deadline = time.monotonic() + brought_ms / 1000
    while problem is not None and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        problem = _figure_problem_now(page, name)
    return problem


def _figure_problem_now(page, name: str) -> str | None:
    selector = figure_selector(name)
    try:
        page.locator(selector).first.wait_for(state="attached", timeout=10_000)
    except Exception:  # noqa: BLE001 - Playwright's timeout: the message says what is missing
        return f"the page draws no figure {name!r} ({selector})"
    box = page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                     return {top: r.top, bottom: r.bottom, height: r.height}; }""",
        selector,
    )
    if box["height"] < 1:
        return f"the figure {name!r} is drawn but not visible"
    if box["top"] < -1 or box["bottom"] > SCREEN_HEIGHT + 1:
        shown = min(box["bottom"], SCREEN_HEIGHT) - max(box["top"], 0)
        return (f"the figure {name!r} spans y={box['top']:.0f}-{box['bottom']:.0f}: only {max(shown, 0):.0f} px of "
                f"its {box['height']:.0f} on the {SCREEN_HEIGHT}-px screen")
    return None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


class Slides:
    """One projector tab that shows a lesson's slides one after another, in one Streamlit session, as a teacher opens
    them in class: a lesson's first slide is a new page load (a new session: the first visit), the next ones are
    opened in that session (browser_helpers.open_in_session). A slide whose test failed leaves the session to no one:
    the next slide is a new load. The large-type walk through every page (:data:`EVERY_PAGE`) goes the same way, as
    a teacher goes from page to page in the sidebar."""

    def __init__(self, warm, server) -> None:
        self.warm, self.server = warm, server
        self.lesson: int | None = None  # the lesson whose slide the session shows, when its test passed

    def open(self, lesson_number: int, url_path: str, query: str):
        context = self.warm.context
        if self.lesson == lesson_number:
            page = context.pages[0]
            open_in_session(page, f"/{url_path}?{query}")
        else:
            page = open_in(context, self.server, f"{url_path}?{query}")
        self.lesson = None
        return page

    def passed(self, lesson_number: int) -> None:
        self.lesson = lesson_number


@pytest.fixture(scope="module")
def slides(warm_contexts, streamlit_server) -> Iterator[Slides]:
    warm = warm_contexts.take("projector")
    warm.context.set_default_timeout(COLD_PAGE_MS)  # once: every slide opens in this context (give_back resets it)
    yield Slides(warm, streamlit_server)
    warm_contexts.give_back(warm)


@pytest.mark.parametrize("lesson_number, link", LINKS)
def test_lesson_link_shows_its_figure_on_the_first_screen(slides, lesson_number, link):
    assert link.figure, f"lesson {lesson_number}'s link {link.label!r} names no figure"
    page = slides.open(lesson_number, link.page, urlencode({**link.params, "classroom": "1"}))
    _settled_large(page)
    own = page.locator('[data-testid="stMain"]').get_by_role("button", name="Skip, show me", exact=True)
    if own.count():  # a page that asks its own questions first (English vs Hindi): the class has answered
        screenshot(page, f"projector-{lesson_number}-{_slug(link.page)}-asks-first")
        own.click()
        settle(page)
        _settled_large(page)
    name = f"projector-{lesson_number}-{_slug(link.page)}-{link.figure}"
    screenshot(page, name)
    sidebar = page.locator('[data-testid="stSidebar"]').bounding_box()
    assert sidebar is None or sidebar["x"] + sidebar["width"] <= 1, f"classroom mode leaves the sidebar open: {sidebar}"
    problem = _figure_problem(page, link.figure)
    assert problem is None, f"lesson {lesson_number}, {link.label!r} ({link.page}?{urlencode(link.params)}): {problem}"

    selector = PRIMARY_CLICK_BY_FIGURE.get(link.figure) or PRIMARY_CLICK.get(link.page)
    button = page.locator(selector).last if selector else None
    if button is not None and button.count() and button.is_enabled():
        button.click()
        settle(page)
        _settled_large(page)
        screenshot(page, name + "-clicked")
        problem = _figure_problem(page, link.figure, brought_ms=BROUGHT_MS)
        assert problem is None, f"after the primary click on {link.page} ({selector}): {problem}"
    slides.passed(lesson_number)


@pytest.mark.parametrize("at_once", [False, True], ids=["picked-after-the-step-is-brought", "pressed-at-once"])
def test_train_predict_first_keeps_the_chart_on_screen_after_check(fresh_context, visit, at_once):
    """Predict first on Train, as lesson 2's link opens it: Next, pick a pair, Check: the pair-count chart (and the
    corpus after the merge) are on the first screen; also when the teacher pressed inside the step the moment it was
    drawn, before the page brought it (ui/viewport.py then holds it where it is until Check: a whole-suite run, where
    the pick came that early, once left the chart 107 px below the screen)."""
    context = fresh_context("projector")
    context.set_default_timeout(COLD_PAGE_MS)
    page = visit(context, "Train_step_by_step", "preset=chai&predict=1&classroom=1")
    _settled_large(page)
    if at_once:
        press_inside_when_drawn(page, viewport.result(TRAIN_PAGE))
    page.locator(PRIMARY_CLICK["Train_step_by_step"]).click()
    settle(page)
    page.locator('[data-testid="stRadio"] [role="radiogroup"] label').first.click()
    settle(page)
    page.locator('[class*="st-key-predict-"][class*="-check"] button').click()
    settle(page)
    _settled_large(page)
    screenshot(page, "projector-train-predict-checked")
    for name in ("pair-chart", "train-corpus"):
        problem = _figure_problem(page, name, brought_ms=BROUGHT_MS)
        assert problem is None, problem


SMALL_TEXT_JS = """(min) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || seen.has(el)) continue;
    seen.add(el);
    if (el.closest('style,script,noscript,[aria-hidden="true"]')) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) continue;
    const size = parseFloat(cs.fontSize);
    if (size + 0.05 < min) {
      const owner = el.closest('[data-testid]');
      out.push(`${(owner && owner.getAttribute('data-testid')) || ''} ${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''}`
               + ` ${size.toFixed(1)}px: ${n.textContent.trim().slice(0, 30)}`);
    }
  }
  // A form field's text is no text node: a picker's chosen value (Streamlit 1.67 draws it as the input's value),
  // what the learner typed, a placeholder.
  for (const el of document.querySelectorAll('input, textarea')) {
    const text = el.value || el.placeholder;
    if (['hidden', 'radio', 'checkbox', 'range'].includes(el.type) || !text.trim()) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden') continue;
    const size = parseFloat(cs.fontSize);
    if (size + 0.05 < min) {
      const owner = el.closest('[data-testid^="st"]');
      out.push(`${(owner && owner.getAttribute('data-testid')) || ''} ${el.tagName.toLowerCase()}`
               + `[${el.getAttribute('aria-label') || ''}] ${size.toFixed(1)}px: ${text.trim().slice(0, 30)}`);
    }
  }
  return out;
}"""


def small_text(page, minimum: float = MIN_TEXT_PX) -> list[str]:
    """Every visible text element (HTML and the charts' SVG) and form field with text drawn under ``minimum`` px,
    described."""
    return page.evaluate(SMALL_TEXT_JS, minimum)


def _interactions(page) -> list[str]:
    """What a learner does on a page, one step at a time, for :func:`test_large_type_no_text_under_20_px_as_opened_and_after_interaction`:
    Next twice where the page steps (Streamlit's PageDown button), "Skip, show me" where it asks first, every tab in
    turn, every closed box opened; the verdict of a lesson's first exercise, its tokens unfolded. Yields a name for
    each step once it is done."""
    main = page.locator('[data-testid="stMain"]')
    nxt = main.locator('button:has(kbd[aria-label="Shortcut PageDown"])')
    for i in range(2):
        if nxt.count() and nxt.first.is_enabled():
            nxt.first.click()
            yield f"Next ({i + 1})"
    skip = main.get_by_role("button", name="Skip, show me")
    if skip.count():
        skip.first.click()
        yield "Skip, show me"
    for tab in main.get_by_role("tab").all()[:8]:
        if tab.is_visible() and tab.get_attribute("aria-selected") != "true":
            name = tab.inner_text().strip()
            tab.click()
            yield f"tab {name}"
    for box in main.locator('[data-testid="stExpander"] details:not([open]) > summary').all()[:8]:
        if box.is_visible():
            name = box.inner_text().strip()[:40]
            box.click()
            yield f"opened {name}"
    check = main.locator('[class*="st-key-exercise-"]').first
    if check.count():
        field = check.locator("input[type=number], input[type=text]").first
        if field.count():
            field.fill("1")
            field.press("Enter")
            settle(page)
        else:
            check.locator('[data-testid="stRadioOption"]').first.click()
            settle(page)
        check.get_by_role("button", name="Check", exact=True).click()
        yield "an exercise checked"
        if check.locator("details summary").count():
            check.locator("details summary").first.click()
            yield "its tokens unfolded"


#: The walk of :func:`test_large_type_no_text_under_20_px_as_opened_and_after_interaction` (no lesson has number 0).
EVERY_PAGE = 0


@pytest.mark.parametrize("entry", PAGES, ids=lambda e: e.url_path or "Home")
def test_large_type_no_text_under_20_px_as_opened_and_after_interaction(slides, entry):
    """Every page in large type draws no text under 20 px as it opens (nor anything axe-core finds serious or
    critical: test_a11y's check, in large type), and (the issue's case: Streaming drew its
    token's labels at 18.7 px once a learner stepped) after every interaction it offers (steps, tabs, boxes opened,
    an exercise checked); the Lessons page's with a lesson open. The pages are opened one after another in one
    session (:class:`Slides`), as a teacher goes through them: a new load each cost Chromium about 1.2 CPU-s more."""
    page = slides.open(EVERY_PAGE, entry.url_path, "large=1")
    _settled_large(page)
    screenshot(page, f"projector-large-{entry.url_path or 'Home'}")
    small = small_text(page)
    assert not small, f"{entry.title} in large type draws text under {MIN_TEXT_PX} px:\n" + "\n".join(small[:25])
    found = axe_serious(page)  # test_a11y's check in large type, here where the page is open in it
    assert not found, f"axe-core on {entry.title} in large type: {len(found)} serious or critical\n" + "\n".join(found)
    if entry.url_path == "Lessons":
        open_in_session(page, f"/{entry.url_path}?large=1&lesson=english-vs-hindi")
        _settled_large(page)
    done = []
    for step in _interactions(page):
        settle(page)
        _settled_large(page)
        done.append(step)
        small = small_text(page)
        assert not small, (f"{entry.title} in large type, after {', '.join(done)}, draws text under {MIN_TEXT_PX} px:\n"
                           + "\n".join(small[:25]))
    screenshot(page, f"projector-large-interacted-{entry.url_path or 'Home'}")
    slides.passed(EVERY_PAGE)


def test_large_type_open_picker_options_are_not_small(fresh_context, visit):
    """An open picker's options (drawn in a popover outside the page) are as large as the page's text."""
    context = fresh_context("projector")
    page = visit(context, "Train_step_by_step", "large=1")
    _settled_large(page)
    page.locator('[data-testid="stMain"] [data-testid="stSelectbox"] input').first.click()
    options = page.get_by_role("option")
    options.first.wait_for()
    assert options.count() > 1
    screenshot(page, "projector-large-train-corpus-picker-open")
    small = small_text(page)
    assert not small, "an open picker in large type draws text under {} px:\n{}".format(MIN_TEXT_PX, "\n".join(small[:25]))


def test_large_type_leaves_no_small_text_on_chips_and_bytes(fresh_context, visit):
    """The drawings with the smallest print: vowel-sign names and ids under chips, bytes and code points."""
    context = fresh_context("projector")
    context.set_default_timeout(COLD_PAGE_MS)
    for path, query in (("Tokenize_anything", "toks=english-hindi&ids=1&text=घने कोहरे से शहर में"),
                        ("Bytes_per_character", "sample=hindi&tok=cl100k_base"),
                        ("Encode_step_by_step", "tok=readers&text=readership")):
        page = visit(context, path, query + "&large=1")
        _settled_large(page)
        small = small_text(page)
        assert not small, f"{path} in large type draws text under {MIN_TEXT_PX} px:\n" + "\n".join(small[:25])
