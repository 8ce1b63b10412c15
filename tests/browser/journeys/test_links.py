"""Journeys: a link is the whole view, its page links back to its lesson, Back steps through views.

- Every lesson -> lab link (the lessons' [[try]] links and exercise ``view`` links, read from
  lessons.course.course()), followed inside ONE browser session after its page was changed away from the
  link's settings: the address is exactly the link's, the widgets are what a fresh browser shows for
  that address (the link's settings, the rest at their defaults), and the page's lesson link names the
  lesson the link came from.
- Browser Back: every press goes back one view, none is a no-op (the issue: 4 presses to leave Train).
- The address bar is a link to what is on screen: pasted into a fresh browser it opens the same view.

Screenshots (LAB_SCREENSHOTS=1): links-*.png.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import expect

import lessons
from lessons.course import course
from tests.browser.browser_helpers import (
    NO_PLACEHOLDERS,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    step_button,
    still,
    wait_for_streamlit,
)
from ui.layout import PAGES

skip_without_browser()


BACK_LINK = '[data-testid="stPageLink-NavLink"]'
COLD_MS = 120_000  # a page's first run on a new server trains and loads tokenizers (English vs Hindi: ~30 s)

# What the widgets on screen say, in page order: text fields, numbers, switches, choices, sliders, select
# boxes (Streamlit 1.67 draws one as a combobox <input> holding the chosen value: read as an input), picked tags
# and buttons, open tabs (links and exercise boxes are not settings).
SNAPSHOT_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const out = [];
  for (const el of main.querySelectorAll('input, textarea, [role="slider"], [role="tab"],'
                                          + ' button[aria-checked="true"], button[aria-pressed="true"], [data-baseweb="tag"]')) {
    if (el.closest('[class*="st-key-exercise-"]') || !el.getClientRects().length) continue;
    if (el.matches('[role="slider"]')) out.push('slider ' + el.getAttribute('aria-valuenow'));
    else if (el.matches('[role="tab"]')) { if (el.getAttribute('aria-selected') === 'true') out.push('tab ' + el.innerText); }
    else if (el.matches('[data-baseweb="tag"]')) out.push('tag ' + el.innerText.trim());
    else if (el.matches('button')) out.push('picked ' + el.innerText.trim());
    else if (el.type === 'checkbox' || el.type === 'radio') out.push(el.type + ' ' + (el.getAttribute('aria-label') || '') + ' ' + el.checked);
    else if (el.type !== 'hidden') out.push((el.getAttribute('aria-label') || el.tagName) + ' = ' + el.value);
  }
  return out;
}"""


def query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def ready(page) -> None:
    """After a click or a load: the run has finished and drawn the page (no placeholders left)."""
    settle(page)
    page.wait_for_function(f"() => ({NO_PLACEHOLDERS})() && document.querySelector('[data-testid=\"stMain\"] h1')")
    wait_for_streamlit(page)


def snapshot(page) -> list[str]:
    ready(page)
    return page.evaluate(SNAPSHOT_JS)


def lesson_links() -> list[tuple]:
    """(lesson, exercise or None, link) for every lesson -> lab link, in course order."""
    out = []
    for lesson in course().lessons:
        out += [(lesson, None, item) for item in lesson.tries]
        out += [(lesson, ex, ex.view) for ex in lesson.exercises if ex.view is not None]
    return out


def sidebar(page, title: str) -> None:
    before = page.url
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name=title, exact=True).click()
    page.wait_for_function("(u) => location.href !== u", arg=before)
    ready(page)


def click_link(page, link) -> None:
    before = page.url
    link.click()
    page.wait_for_function("(u) => location.href !== u", arg=before)
    ready(page)


def change(page, what: str) -> None:
    """Change the page's settings the way a learner does: one step on, another text or number, another
    choice in a row of buttons, or a slider moved one notch."""
    before = page.url
    main = main_area(page)
    skip = main.get_by_role("button", name="Skip, show me")  # English vs Hindi asks for a prediction first
    if skip.count():
        skip.click()
        ready(page)
    step_on = step_button(main, "Next")
    fields = main.locator("textarea:enabled:visible, input[type=text]:enabled:visible:not([role]),"
                          " input[type=number]:enabled:visible")
    choices = main.locator('[data-testid="stButtonGroup"] button:visible[aria-checked="false"]')
    sliders = main.locator("input[type=range]")
    if step_on.count() and step_on.first.is_enabled():
        step_on.first.click()
    elif fields.count():
        field = fields.first
        field.fill("7" if field.get_attribute("type") == "number" else "changed by the journey")
        field.press("Control+Enter" if field.evaluate("e => e.tagName") == "TEXTAREA" else "Enter")
    elif choices.count():
        choices.first.click()
    else:
        assert sliders.count(), f"{what}: nothing to change"
        sliders.first.press("ArrowRight")
    page.wait_for_function("(u) => location.href !== u", arg=before)  # the address follows the view
    ready(page)


def answer(page, lesson, exercise) -> None:
    """Answer an exercise (any answer): its link into the lab is shown with the verdict."""
    box = main_area(page).locator(f".st-key-exercise-{lesson.id}-{exercise.id}")
    if box.locator(BACK_LINK).count():
        return
    if exercise.kind == "choice":
        box.locator('[data-testid="stRadioOption"]').first.click()
    elif exercise.kind == "order":
        box.locator('[data-testid="stMultiSelect"] input').click()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")  # the first option
        page.keyboard.press("Escape")
    else:
        field = box.locator("input").first
        field.fill("1" if exercise.kind == "number" else "x")
        field.press("Enter")
    settle(page)
    main_area(page).locator(f".st-key-exercise-{lesson.id}-{exercise.id}").get_by_role(
        "button", name="Check", exact=True).click()
    settle(page)


def find_link(page, lesson, exercise, item):
    """The lesson's link on the Lessons page: a [[try]] link in the lesson, or an exercise's (answered first)."""
    label = item.label or ("See it in the lab" if exercise else "Open it in the lab")
    if exercise is not None:
        answer(page, lesson, exercise)
        candidates = main_area(page).locator(f".st-key-exercise-{lesson.id}-{exercise.id}").locator(BACK_LINK).all()
    else:
        candidates = [el for el in main_area(page).locator(BACK_LINK).all()
                      if not el.evaluate("e => !!e.closest('[class*=\"st-key-exercise-\"]')")]
    found = [el for el in candidates if el.inner_text().strip().endswith(label)]
    assert found, f"{lesson.id}: no link “{label}”"
    return found[0]


def back_link(page):
    links = main_area(page).locator(BACK_LINK, has_text="In the lessons")
    expect(links).to_have_count(1)
    return links.first


def test_every_lesson_link_opens_its_whole_view_and_links_back(fresh_context, visit, streamlit_server) -> None:
    links = lesson_links()
    assert len(links) >= 60, "the course has fewer lesson -> lab links than it had (72)"
    context = fresh_context("laptop")
    context.set_default_timeout(COLD_MS)
    page = visit(context, "Lessons", f"lesson={links[0][0].id}")

    # Every page a lesson links to is first changed away from its defaults (and so from most links).
    for url_path in dict.fromkeys(item.page for _, _, item in links):
        sidebar(page, next(e.title for e in PAGES if e.url_path == url_path))
        change(page, url_path)

    landed: dict[str, list[str]] = {}  # address -> widgets
    sidebar(page, "Lessons")
    for i, (lesson, exercise, item) in enumerate(links):
        where = f"{lesson.id} → {item.page} {item.params} ({item.label})"
        shown = main_area(page).get_by_role("heading", name=f"{lesson.number}. {lesson.title}", exact=True)
        if not shown.count():
            main_area(page).get_by_role("button", name=re.compile(rf"^{lesson.number}\. ")).click()
            settle(page)
            expect(shown).to_be_visible()
        click_link(page, find_link(page, lesson, exercise, item))

        # The address is exactly the link: its settings and where it came from, nothing kept from before.
        assert urlsplit(page.url).path.endswith("/" + item.page), where
        assert query(page.url) == {**item.params, "from": lesson.id}, where
        landed.setdefault(page.url, snapshot(page))
        assert snapshot(page) == landed[page.url], where
        back = back_link(page)
        expect(back).to_contain_text(f"In the lessons: {lesson.number}. {lesson.title}")
        assert query(back.get_attribute("href")) == {"lesson": lesson.id}, where
        if i == 0:
            screenshot(page, "links-landed")

        # The next link to this page has the same settings: change the page away from them first.
        following = next((it for _, _, it in links[i + 1:] if it.page == item.page), None)
        if following is not None and following.params == item.params:
            change(page, where)
        click_link(page, back_link(page))
        assert query(page.url)["lesson"] == lesson.id, where
        expect(shown).to_be_visible()

    # A fresh browser shows the same widgets for each address: the landing views were the links' settings
    # with everything else at its default, not what the session had kept.
    fresh = fresh_context("laptop")
    fresh.set_default_timeout(COLD_MS)
    for url, widgets in landed.items():
        reference = fresh.new_page()
        reference.goto(url)
        settle(reference)
        assert snapshot(reference) == widgets, url
        reference.close()


def test_back_steps_through_each_view_once(fresh_context, visit) -> None:
    """The issue's journey: Train changed, Lessons from the sidebar, lesson 2, "Watch a tie", a step; then
    Back, again and again: each press shows the view before, none is a no-op."""
    context = fresh_context("laptop")
    context.set_default_timeout(COLD_MS)
    page = visit(context, "Train_step_by_step")
    main = main_area(page)
    views = [page.url]

    def did(action) -> None:
        length = page.evaluate("history.length")
        action()
        settle(page)
        still(page)  # the next click must not land where a scrolling page has just moved something else
        assert page.evaluate("history.length") == length + 1, f"not one history entry: {page.url}"
        views.append(page.url)

    def set_merges() -> None:
        main.get_by_text("Trainer settings", exact=False).first.click()
        box = main.get_by_label("Merges")
        box.fill("5")
        box.press("Enter")

    did(set_merges)
    did(lambda: step_button(main, "Next").click())
    did(lambda: step_button(main, "Next").click())
    assert query(page.url) == {"merges": "5", "step": "2"}
    did(lambda: page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Lessons", exact=True).click())
    did(lambda: main.get_by_role("button", name=re.compile(r"^2\. BPE training")).click())
    did(lambda: main.get_by_role("link", name=re.compile("^Watch a tie")).click())
    news = lessons.presets()["news"]
    expect(main.get_by_text(f"Merge 1 of {news.merges}", exact=False)).to_be_visible()
    expect(main.get_by_text("Custom run", exact=False)).to_have_count(0)
    assert query(page.url) == {"preset": "news", "step": "1", "from": "bpe-training"}
    screenshot(page, "links-watch-a-tie")
    did(lambda: step_button(main, "Next").click())

    shown = {}
    for url in reversed(views[:-1]):
        page.go_back()
        page.wait_for_url(url)
        settle(page)
        shown[url] = query(page.url)
        if "Train_step_by_step" in url:  # the view is the address's: the step and merges it names
            q = query(url)
            step = int(q.get("step", 0))
            merges = int(q.get("merges", news.merges if q.get("preset") == "news" else lessons.presets()["chai"].merges))
            expect(main.get_by_text(f"Merge {step} of {merges}" if step else "Step 0 of", exact=False).first
                   ).to_be_visible()
    assert list(shown) == list(reversed(views[:-1]))  # one press per view, in order, and none repeated


@pytest.mark.parametrize("size", ["projector"])
def test_the_address_is_a_link_to_the_view_on_screen(fresh_context, visit, size) -> None:
    """Classroom mode on a projector: a lesson part's link to English vs Hindi, then a change there; the
    address, pasted into a fresh browser, opens the same view with the same way back to the lesson part."""
    context, other = fresh_context(size), fresh_context(size)
    for c in (context, other):
        c.set_default_timeout(COLD_MS)
    page = visit(context, "Lessons", "lesson=english-vs-hindi&classroom=1")
    main = main_area(page)
    for _ in range(40):
        link = main.get_by_role("link", name=re.compile("^Slide the share of Hindi"))
        if link.count():
            break
        step_button(main, "Next").click()
        settle(page)
    part = query(page.url)["step"]
    click_link(page, link)
    landed = query(page.url)
    assert landed == {"k": "1", "budget": "100", "from": f"english-vs-hindi.{part}", "classroom": "1", "large": "1"}
    back = back_link(page)
    assert query(back.get_attribute("href")) == {"lesson": "english-vs-hindi", "step": part, "classroom": "1",
                                                 "large": "1"}
    screenshot(page, "links-classroom-landed")
    main.locator('input[type=range][aria-label^="Hindi copies k"]').press("ArrowRight")  # a notch more Hindi
    settle(page)
    assert query(page.url) == {**landed, "k": "2"}
    widgets, address = snapshot(page), page.url

    pasted = visit(other, urlsplit(address).path, urlsplit(address).query)
    assert query(pasted.url) == query(address)
    screenshot(pasted, "links-classroom-pasted")
    assert snapshot(pasted) == widgets
    assert query(back_link(pasted).get_attribute("href")) == query(back.get_attribute("href"))

    click_link(page, back)  # and the way back opens that part of the lesson
    expect(main.get_by_text(f"Part {int(part) + 1} of", exact=False)).to_be_visible()
