"""Keyboard and screen reader: the skip link, the step keys, and axe-core on every page.

- Tab from a page's load reaches "Skip to the main controls" first (shown while it has focus); following it,
  the next Tab is on the page's main control: Next where the page steps.
- The step keys (ui/steps.py KEYS: what a clicker sends) step Train, are shown on the buttons, and do nothing
  while the learner types in a text box.
- axe-core (axe-playwright-python bundles it: nothing is downloaded): no serious or critical violation. A new one
  fails with its rule, impact and nodes. It runs where each page is already opened at a size: every page in normal
  type on a laptop (tests/browser/test_browser_smoke.py's deep links), in large type on a projector (test_projector's
  large-type walk) and on a phone (test_laptop_phone's every-page walk); here, the views past a page's first screen
  (a lesson open on a slide) and Train after a step.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.browser_helpers import (
    NO_PLACEHOLDERS,
    axe_serious,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    step_button,
    until,
)
from ui.layout import SKIP_TARGET
from ui.steps import KEYS

skip_without_browser()


TRAIN = "Train_step_by_step"
ENCODE = "Encode_step_by_step"

_FOCUSED = """() => { const e = document.activeElement, r = e.getBoundingClientRect();
  return {text: (e.innerText || '').trim(), cls: e.className || '', in_main: !!e.closest('[data-testid="stMain"]'),
          in_view: r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight}; }"""


def _step(page) -> int:
    """The step in the address bar (0 when it names none)."""
    match = re.search(r"[?&]step=(\d+)", page.url)
    return int(match.group(1)) if match else 0


def _drawn(page) -> None:
    """Wait until the page is drawn: the sidebar with the skip link, no widget still a placeholder."""
    page.locator(".tl-skip").wait_for(state="attached")
    until(page, NO_PLACEHOLDERS)


def _first_tab(page) -> dict:
    """Press Tab once the page is drawn; what has focus."""
    _drawn(page)
    page.keyboard.press("Tab")
    return page.evaluate(_FOCUSED)


def _after_key(page, key: str) -> None:
    page.keyboard.press(key)
    settle(page)


# -- the skip link ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_tab_reaches_the_skip_link_first_then_the_main_control(fresh_context, visit, size: str) -> None:
    context = fresh_context(size)
    page = visit(context, TRAIN)
    expect(step_button(main_area(page), "Next")).to_be_visible()
    focused = _first_tab(page)
    assert focused["text"] == "Skip to the main controls" and "tl-skip" in focused["cls"], focused
    assert focused["in_view"], f"the skip link has focus but is not on screen: {focused}"
    screenshot(page, f"a11y-skip-link-{size}")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(step_button(main_area(page), "Next")).to_be_focused()  # one Tab, not 29-48

    # A page without steps: the link lands under the heading, on the page's first control, not in the sidebar.
    page = visit(context, "Tokenize_anything")
    assert _first_tab(page)["text"] == "Skip to the main controls"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate(_FOCUSED)["in_main"], page.evaluate(_FOCUSED)
    assert page.url.endswith(f"#{SKIP_TARGET}")


# -- the step keys -----------------------------------------------------------------------------------------------
def test_step_keys_step_train_and_are_shown(fresh_context, visit) -> None:
    context = fresh_context("laptop")
    page = visit(context, TRAIN, "preset=chai")
    main = main_area(page)
    expect(step_button(main, "Next")).to_contain_text(KEYS["next"])  # the key is on the button
    expect(step_button(main, "Previous")).to_contain_text(KEYS["previous"])
    assert _step(page) == 0
    _after_key(page, KEYS["next"])
    expect(main.locator(".tl-step")).to_contain_text("Merge 1 of")
    assert _step(page) == 1
    _after_key(page, KEYS["next"])
    expect(main.locator(".tl-step")).to_contain_text("Merge 2 of")
    _after_key(page, KEYS["previous"])
    expect(main.locator(".tl-step")).to_contain_text("Merge 1 of")
    assert _step(page) == 1
    screenshot(page, "a11y-train-after-keys")
    _no_serious_violations(page, "Train after a step (a merge shown)")


def test_step_keys_do_nothing_while_typing(fresh_context, visit) -> None:
    context = fresh_context("laptop")
    page = visit(context, ENCODE)
    box = main_area(page).get_by_role("textbox", name="A word or a sentence")
    box.click()
    _after_key(page, KEYS["next"])
    assert _step(page) == 0, "a key typed in the text box stepped the page"
    page.keyboard.press("Escape")
    page.locator("h1").first.click()  # out of the box: now the key steps
    _after_key(page, KEYS["next"])
    expect(step_button(main_area(page), "Previous")).to_be_enabled()
    assert _step(page) == 1


def test_arrow_keys_step_like_pagedown_and_pageup_but_not_while_typing_or_on_a_slider(fresh_context, visit) -> None:
    """A learner at a keyboard tries the arrows first: ArrowRight and ArrowLeft press Next and Previous, on Train and
    on a lesson's slides; not in a text box, and not on a control where the arrows move something (a slider)."""
    context = fresh_context("laptop")
    page = visit(context, TRAIN, "preset=chai")
    main = main_area(page)
    page.locator("h1").first.click()
    _after_key(page, "ArrowRight")
    expect(main.locator(".tl-step")).to_contain_text("Merge 1 of")
    _after_key(page, "ArrowRight")
    expect(main.locator(".tl-step")).to_contain_text("Merge 2 of")
    _after_key(page, "ArrowLeft")
    expect(main.locator(".tl-step")).to_contain_text("Merge 1 of")
    assert _step(page) == 1
    slider = main.get_by_role("slider", name=re.compile("^Step"))  # Train's step slider: the arrows move the slider,
    slider.focus()  # one step, not two
    _after_key(page, "ArrowRight")
    assert _step(page) == 2
    expect(main.locator(".tl-step")).to_contain_text("Merge 2 of")

    page = visit(context, ENCODE)
    box = main_area(page).get_by_role("textbox", name="A word or a sentence")
    box.click()
    _after_key(page, "ArrowRight")
    assert _step(page) == 0, "an arrow typed in the text box stepped the page"

    page = visit(context, "Lessons", "lesson=bpe-training&classroom=1")
    expect(main_area(page).get_by_text("Part 1 of", exact=False)).to_be_visible()
    page.evaluate("document.activeElement && document.activeElement.blur()")
    _after_key(page, "ArrowRight")
    expect(main_area(page).get_by_text("Part 2 of", exact=False)).to_be_visible()
    _after_key(page, "ArrowLeft")
    expect(main_area(page).get_by_text("Part 1 of", exact=False)).to_be_visible()


# -- axe-core ----------------------------------------------------------------------------------------------------
def _no_serious_violations(page, where: str) -> None:
    found = axe_serious(page)
    assert not found, f"axe-core on {where}: {len(found)} serious or critical\n" + "\n".join(found)


#: Views past a page's first screen: a lesson open on a slide.
MORE_VIEWS = (("Lessons", "lesson=english-vs-hindi&step=2"),)


def test_axe_views_past_the_first_screen_in_normal_type(fresh_context, visit) -> None:
    """The views no page opens with, on a laptop in normal type (every page as it opens: see the module's
    docstring)."""
    context = fresh_context("laptop")
    problems = []
    for path, view_query in MORE_VIEWS:
        page = visit(context, path, view_query)
        _drawn(page)
        problems += [f"/{path}?{view_query}: {line}" for line in axe_serious(page)]
    assert not problems, f"axe-core, normal type: {len(problems)} serious or critical\n" + "\n".join(problems)
