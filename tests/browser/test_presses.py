"""A press that brings nothing (browser_helpers.pressed, downloaded): pressed once more, and said as a warning that
reports where the first press was lost (press_report): whether the browser saw the click, whether the tab sent the
server anything after it and heard anything back, the script's state and the messages on the page. Whole-suite runs lose a press now and then,
never a file run alone, and the cause is not found: the next warning says which side lost it."""

from __future__ import annotations

import warnings

import pytest
from playwright.sync_api import expect

import lessons
from tests.browser.browser_helpers import RUN_MS, main_area, pressed, settle, skip_without_browser, step_button

skip_without_browser()


def test_a_lost_press_is_made_once_more_and_its_warning_says_where_it_was_lost(open_page) -> None:
    page = open_page("Train_step_by_step", "presses-train", query="preset=chai")
    main = main_area(page)
    presses: list[str] = []

    def press() -> None:
        # The first press is lost in the browser: a click on the page's heading, which asks nothing of the server.
        target = main.get_by_role("heading", level=1) if not presses else step_button(main, "Next")
        presses.append("heading" if not presses else "Next")
        target.click()

    def arrived() -> None:  # the lost press is given 1 s (it brings nothing); the real one a run's time, on a busy machine
        expect(main.get_by_text("Merge 1 of", exact=False).first).to_be_visible(
            timeout=1_000 if presses == ["heading"] else RUN_MS)

    with pytest.warns(UserWarning) as said:
        pressed(page, press, arrived, "Train's Next")
    settle(page)
    assert presses == ["heading", "Next"]
    report = str(said[0].message)
    assert report.startswith("Train's Next: the first press asked the server for no run in 5 s, pressed once more; "), report
    assert "the browser saw a click, the tab sent the server nothing (no run asked), heard nothing back" in report, report
    assert "the script is notRunning" in report, report
    # and what the page says (here the preset's note; a press whose run drew a warning would show it)
    assert report.endswith(f"; the page says: {lessons.presets()['chai'].note}"), report



def test_a_press_that_asked_for_a_run_is_left_to_what_it_waits_for(open_page) -> None:
    """A press that did ask the server for a run is never taken as lost early: it is given what ``arrived`` allows (a
    cold replica's first run takes long). Here ``arrived`` waits for something the run does not bring, and the press
    moved the address, so the miss is raised, once, and nothing is pressed again."""
    page = open_page("Train_step_by_step", "presses-train-asked", query="preset=chai")
    main = main_area(page)
    presses: list[str] = []

    def press() -> None:
        presses.append("Next")
        step_button(main, "Next").click()

    def arrived() -> None:
        expect(main.get_by_text("Merge 0 of", exact=False).first).to_be_visible(timeout=3_000)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "pressed once more"
        with pytest.raises(AssertionError, match="Merge 0 of"):
            pressed(page, press, arrived, "Train's Next")
    settle(page)
    assert presses == ["Next"]
    expect(main.get_by_text("Merge 1 of", exact=False).first).to_be_visible()
