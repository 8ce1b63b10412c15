"""A press that brings nothing (browser_helpers.pressed, downloaded): pressed once more, and said as a warning that
reports where the first press was lost (press_report): whether the browser saw the click, whether the tab sent the
server anything after it and heard anything back, the script's state and the messages on the page. Whole-suite runs lose a press now and then,
never a file run alone, and the cause is not found: the next warning says which side lost it."""

from __future__ import annotations

import re
import time
import warnings

import pytest
from playwright.sync_api import expect

import lessons
from tests.browser.browser_helpers import (
    ASK_MS,
    RUN_MS,
    main_area,
    page_clock,
    pressed,
    settle,
    skip_without_browser,
    step_button,
    until,
)

skip_without_browser()


def test_a_lost_press_is_made_once_more_and_its_warning_says_where_it_was_lost(open_page) -> None:
    page = open_page("Train_step_by_step", "presses-train", query="preset=chai")
    main = main_area(page)
    presses: list[str] = []

    def press() -> None:
        # The first press is lost in the browser: a click on the page's heading, which asks nothing of the server.
        target = main.get_by_role("heading", level=1) if not presses else step_button(main, "Next")
        if not presses:  # the page moves just before it, as ui/viewport.py scrolls a result into view
            page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollBy(0, 40)")
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
    # where the click landed (the heading, which asks nothing) and that the page had just scrolled under it (its
    # layout may or may not have moved since the page was drawn), then what the tab did
    assert re.search(r'the browser saw a click \(on h1 in \w+ "Train step by step" at \d+ px from the window\'s top; '
                     r"the page last scrolled (\d+) ms before it \(to (-?\d+ px -?\d+ ms(, )?)+ before\); "
                     r"its layout (had not moved|last moved \d+ ms before it[^;]*)\), the tab sent the "
                     r"server nothing \(no run asked\), heard nothing back", report), report
    assert int(re.search(r"last scrolled (\d+) ms", report).group(1)) < 2_000, report
    assert "the script is notRunning" in report, report
    # and what the page says (here the preset's note; a press whose run drew a warning would show it)
    assert f"; the page says: {lessons.presets()['chai'].note}; its expanders: Trainer settings" in report, report
    assert report.endswith(": closed"), report  # each folded box, open or closed (Train's are all closed here)



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


def _back_msg(**client_state) -> list[int]:
    """A rerun_script BackMsg as Streamlit's own protobuf classes write it (the bytes a tab sends)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.rerun_script.query_string = "preset=chai"
    for key, value in client_state.items():
        setattr(msg.rerun_script, key, value)
    return list(msg.SerializeToString())


def test_the_watch_tells_a_timers_run_from_the_pages_own(open_page) -> None:
    """RUN_WATCH reads Streamlit's messages as they are written: a rerun a fragment's timer asks for (run_every:
    is_auto_rerun) is told from one the page asks for, whatever comes before the flag in the message."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    page = open_page("Train_step_by_step", "presses-watch-kinds", query="preset=chai")
    heartbeat = BackMsg()
    heartbeat.app_heartbeat = True
    cases = {
        "a timer's tick": (_back_msg(fragment_id="f" * 32, is_auto_rerun=True, page_script_hash="p" * 32), True),
        "a press": (_back_msg(page_script_hash="p" * 32), False),
        "a press inside a fragment": (_back_msg(fragment_id="f" * 32, page_script_hash="p" * 32), False),
        "a heartbeat": (list(heartbeat.SerializeToString()), False),
    }
    read = {name: page.evaluate("(b) => window.__tlAutoRerun(new Uint8Array(b).buffer)", data)
            for name, (data, _) in cases.items()}
    assert read == {name: auto for name, (_, auto) in cases.items()}


def test_a_press_lost_while_a_timer_asks_for_runs_is_told_at_once(open_page) -> None:
    """A teacher's class bar asks the server for a run every few seconds (its timer, ui/poll.TEACHER_POLL_S): a press
    lost meanwhile is told in ASK_MS by the runs the page itself asked for, and pressed once more, instead of waiting
    out what it waits for (the class journey's Pose it now waited 33 s so in whole runs, the timer's runs taken for
    its own)."""
    page = open_page("Class", "presses-class-ticking", size="laptop")
    main = main_area(page)
    main.get_by_role("textbox", name="Class title").fill("Presses")
    main.get_by_role("button", name="Start a class").click()
    expect(main.locator(".tl-class-code")).to_be_visible()
    settle(page)
    until(page, "(m) => window.__tlWatch.ticked > m", arg=page_clock(page))  # the bar's timer is asking
    presses: list[str] = []

    def press() -> None:  # the first press is lost in the browser: a click on the heading, which asks nothing
        target = (main.get_by_role("heading", level=1) if not presses
                  else page.locator('[data-testid="stSidebar"]').get_by_text("Large type (classroom)", exact=True))
        presses.append("heading" if not presses else "Large type")
        target.click()

    def arrived() -> None:
        page.wait_for_url(re.compile(r"[?&]large=1"), timeout=RUN_MS)

    started = time.monotonic()
    with pytest.warns(UserWarning) as said:
        pressed(page, press, arrived, "Large type's switch")
    settle(page)
    assert presses == ["heading", "Large type"]
    report = str(said[0].message)
    assert report.startswith("Large type's switch: the first press asked the server for no run in 5 s, pressed once "
                             "more; "), report
    assert "(no run asked, a timer's run asked)" in report, report
    assert time.monotonic() - started < (ASK_MS + RUN_MS) / 1000  # told in ASK_MS, not after the ceiling


def test_a_box_just_opened_is_open_at_once_in_a_test_browser(open_page) -> None:
    """browser_helpers.NO_MOTION: Streamlit grows a folded box over 500 ms once opened (the Web Animations API, its foot
    clipped meanwhile); the test browsers end that at once, so a press right after opening lands on the box's button
    (the progress journey's Start over, pressed so, was lost in a whole run)."""
    page = open_page("Train_step_by_step", "presses-box-opened", query="preset=chai")
    box = main_area(page).locator('[data-testid="stExpander"]', has_text="Take it with you")
    box.locator("summary").click()
    assert page.evaluate("document.getAnimations().filter(a => a.playState === 'running').length") == 0
    assert box.locator("details").evaluate("d => d.open && getComputedStyle(d).overflow !== 'hidden'")
    expect(box.get_by_role("button", name=re.compile("Model \\(JSON\\)"))).to_be_visible()
