"""The URL-state rule (ui/state.py), in AppTest: a link with settings is the whole view.

Entering a page by a link: the URL wins for what it names, everything else takes its default. A plain page
change (the sidebar: no settings, or exactly those the learner left there) brings back what was left. A
rerun within the page keeps the widgets' values. Back links name the lesson a page was reached from.
The browser's side (history entries, Back, pasting the address) is in tests/browser/journeys/test_links.py.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import lessons
from lessons.course import course
from tests.apptest_helpers import app_test, assert_no_exception, run_page
from ui.display import md_escape
from ui.links import SKIP, page_path
from views import lessons as lp
from views import tokenize as tkv
from views import train as tv

TRAIN = "pages/1_Train_step_by_step.py"
TOKENIZE = "pages/2_Tokenize_anything.py"
LESSONS = "pages/12_Lessons.py"
HOME = "app.py"


def go(at, path: str, query: str = "") -> None:
    """Open ``path`` with this address's query in the same session (a click on a link, or a page change)."""
    at.switch_page(path)
    at.query_params.clear()
    at.query_params.update(dict(parse_qsl(query)))
    at.run()
    assert_no_exception(at)


def follow(at, link) -> None:
    """Click an st.page_link drawn by the page (its target and query, as the browser would send them)."""
    go(at, page_path(link.page), link.query_string)


def links(at, where="main"):
    return [el.proto for el in getattr(at, where).get("page_link")]


def leave_train_changed():
    """Train as the issue's learner leaves it: chai stall, 5 merges, two steps on."""
    at = run_page(TRAIN)
    at.number_input(key=tv.SETTING["merges"].skey).set_value(5).run()
    at.button(key=tv.NEXT.skey).click().run()
    at.button(key=tv.NEXT.skey).click().run()
    assert (at.session_state[tv.SETTING["merges"].skey], at.session_state[tv.STEP.skey]) == (5, 2)
    assert at.query_params == {"merges": "5", "step": "2"}
    return at


def test_a_lesson_link_opens_exactly_its_settings_after_the_page_was_changed() -> None:
    """The issue's case: lesson 2's "Watch a tie" after Train was left at 5 merges, step 2."""
    at = leave_train_changed()
    go(at, LESSONS, "lesson=bpe-training")
    tie = next(link for link in links(at) if link.page == "Train_step_by_step" and "preset=news" in link.query_string)
    follow(at, tie)
    at.button(key=SKIP.skey).click().run()  # the link asks lesson 2's tie exercise first (tests/test_ask_first.py)
    news = lessons.presets()["news"]
    assert at.session_state[tv.PRESET.skey] == "news"
    assert at.session_state[tv.SETTING["merges"].skey] == news.merges  # the preset's, not the 5 left behind
    assert at.session_state[tv.STEP.skey] == 1
    assert at.query_params == dict(parse_qsl(tie.query_string))  # nothing added: merges=5 is gone
    assert "Custom run" not in " ".join(str(c.value) for c in at.main.get("caption"))


def test_a_plain_page_change_brings_back_what_was_left() -> None:
    at = leave_train_changed()
    go(at, HOME)
    train_link = next(link for link in links(at, "sidebar") if link.page == "Train_step_by_step")
    assert dict(parse_qsl(train_link.query_string)) == {"merges": "5", "step": "2"}  # the sidebar carries it
    follow(at, train_link)
    assert (at.session_state[tv.SETTING["merges"].skey], at.session_state[tv.STEP.skey]) == (5, 2)
    go(at, HOME)
    go(at, TRAIN)  # no settings in the address at all: also a plain page change
    assert (at.session_state[tv.SETTING["merges"].skey], at.session_state[tv.STEP.skey]) == (5, 2)
    assert at.query_params == {"merges": "5", "step": "2"}


def test_the_sidebar_link_to_the_page_shown_carries_no_settings() -> None:
    """The page's own address changes as the learner works (fragments do not redraw the sidebar)."""
    at = leave_train_changed()
    own = next(link for link in links(at, "sidebar") if link.page == "Train_step_by_step")
    assert own.query_string == ""
    follow(at, own)  # clicking it changes nothing
    assert (at.session_state[tv.SETTING["merges"].skey], at.session_state[tv.STEP.skey]) == (5, 2)


def test_widgets_win_on_reruns_within_the_page() -> None:
    at = leave_train_changed()
    go(at, TRAIN, "preset=news&step=1")  # entered by a link
    at.number_input(key=tv.SETTING["merges"].skey).set_value(2).run()
    at.button(key=tv.NEXT.skey).click().run()
    assert (at.session_state[tv.PRESET.skey], at.session_state[tv.SETTING["merges"].skey], at.session_state[tv.STEP.skey]) == (
        "news", 2, 2)
    assert at.query_params == {"preset": "news", "step": "2", "merges": "2"}


def test_a_link_to_the_page_shown_is_a_new_view() -> None:
    at = leave_train_changed()
    go(at, TRAIN, "preset=low&step=4")  # same page, another address: a link followed, not a rerun
    low = lessons.presets()["low"]
    assert (at.session_state[tv.PRESET.skey], at.session_state[tv.SETTING["merges"].skey], at.session_state[tv.STEP.skey]) == (
        "low", low.merges, 4)


def test_a_link_drops_what_was_kept_for_settings_it_does_not_name() -> None:
    """After a link, a plain return does not bring back the settings the link replaced."""
    at = leave_train_changed()
    go(at, TRAIN, "preset=chai&from=bpe-training")
    go(at, HOME)
    go(at, TRAIN)
    chai = lessons.presets()["chai"]
    assert (at.session_state[tv.SETTING["merges"].skey], at.session_state[tv.STEP.skey]) == (chai.merges, 0)


def test_lessons_link_opens_its_lesson_whatever_was_viewed_last() -> None:
    at = run_page(LESSONS, query_params={"lesson": "english-vs-hindi"})
    at.button(key=lp.pick_key("bytes-per-character").skey).click().run()
    assert at.session_state[lp.LESSON.skey] == "bytes-per-character"
    go(at, "pages/10_Quirks.py")
    back = next(link for link in links(at) if link.label.startswith("In the lessons"))
    assert dict(parse_qsl(back.query_string))["lesson"] == "quirks"
    follow(at, back)
    assert at.session_state[lp.LESSON.skey] == "quirks"


def _back_link(at):
    found = [link for link in links(at) if link.label.startswith("In the lessons")]
    assert len(found) == 1, [link.label for link in found]
    return found[0]


def test_a_page_reached_from_a_lesson_links_back_to_that_lesson() -> None:
    quirks = course().lesson("quirks")
    at = run_page(TOKENIZE, query_params={"toks": "cl100k_base", "text": "12345", "from": "quirks"})
    back = _back_link(at)
    assert back.label == md_escape(f"In the lessons: {quirks.number}. {quirks.title}")
    assert dict(parse_qsl(back.query_string)) == {"lesson": "quirks"}
    at.text_area(key=tkv.TEXT.skey).input("123456").run()  # working on the page keeps the way back
    assert _back_link(at).label == back.label
    assert at.query_params["from"] == "quirks"


def test_a_page_reached_otherwise_links_to_its_own_lesson() -> None:
    at = run_page(TOKENIZE, query_params={"toks": "cl100k_base", "from": "no-such-lesson"})
    own = next(lesson for lesson in course().lessons if lesson.number == 1)
    assert dict(parse_qsl(_back_link(at).query_string)) == {"lesson": own.id}


def test_in_classroom_mode_the_back_link_names_the_part() -> None:
    at = run_page(TRAIN, query_params={"preset": "news", "step": "1", "from": "bpe-training.6", "classroom": "1"})
    back = _back_link(at)  # Train in classroom mode has its lesson link too
    assert dict(parse_qsl(back.query_string)) == {"lesson": "bpe-training", "step": "6", "large": "1",
                                                 "classroom": "1"}
    assert "part 7" in back.label
    follow(at, back)
    assert (at.session_state[lp.LESSON.skey], at.session_state[lp.LESSON_STEP.skey]) == ("bpe-training", 6)


def test_a_lesson_part_in_classroom_mode_is_where_its_links_come_from() -> None:
    at = run_page(LESSONS, query_params={"lesson": "bpe-training", "classroom": "1"})
    for _ in range(30):  # Next until the part with the lab links
        tries = [link for link in links(at) if link.page == "Train_step_by_step"]
        if tries:
            break
        at.button(key=lp.STEPPER.key("next").skey).click().run()
    step = at.session_state[lp.LESSON_STEP.skey]
    assert tries and all(dict(parse_qsl(t.query_string))["from"] == f"bpe-training.{step}" for t in tries)


def test_the_address_keeps_what_the_link_said() -> None:
    """English vs Hindi's ?k=1&budget=100 (the lesson's defaults) stays in the address, and classroom mode
    does not add large=1: the address is the link that was opened."""
    at = run_page("pages/6_English_vs_Hindi.py", query_params={"k": "1", "budget": "100", "classroom": "1"})
    assert at.query_params == {"k": "1", "budget": "100", "classroom": "1"}
    assert at.toggle(key="large_type").value is True  # classroom mode brings large type


def _published_script() -> None:
    import streamlit as st

    from ui import state

    stop_early = state.Param("demo", "stop", False)
    merges = state.Param("demo", "merges", 3, lo=0, hi=10)
    with state.published([stop_early, merges]):
        st.number_input("Merges", key=merges.skey, min_value=0, max_value=10)
        st.checkbox("Stop early", key=stop_early.skey)
        if state.value(stop_early):
            state.stop()  # an early exit: the settings are published first
        st.write("the rest of the page")


def test_published_writes_the_address_however_the_page_ends() -> None:
    """``state.published`` publishes when its block ends, and ``state.stop`` publishes before it stops the
    page: the address says what is on screen without a publish call before every exit."""
    from streamlit.testing.v1 import AppTest

    at = app_test(AppTest.from_function(_published_script, default_timeout=30))
    at.run()
    at.number_input(key="demo.merges").set_value(7).run()
    assert at.query_params["merges"] == "7"
    at.checkbox(key="demo.stop").check().run()
    assert "the rest of the page" not in [m.value for m in at.markdown]
    assert at.query_params["stop"] == "1" and at.query_params["merges"] == "7"
    at.number_input(key="demo.merges").set_value(5).run()  # a change made while the page stops early
    assert at.query_params["merges"] == "5"


def _returning_script() -> None:
    import streamlit as st

    from ui import state

    merges = state.Param("demo", "merges", 3, lo=0, hi=10)

    def section() -> None:
        st.number_input("Merges", key=merges.skey, min_value=0, max_value=10)
        if state.value(merges) > 5:
            return  # a section that ends early
        st.write("small budget")

    with state.published([merges]):
        section()


def test_published_writes_the_address_when_a_section_returns_early() -> None:
    from streamlit.testing.v1 import AppTest

    at = app_test(AppTest.from_function(_returning_script, default_timeout=30))
    at.run()
    at.number_input(key="demo.merges").set_value(8).run()
    assert at.query_params["merges"] == "8"



def test_no_page_or_view_stops_without_publishing() -> None:
    """Pages and views end early with ``state.stop()`` (or a return), never ``st.stop()``, which would leave
    the address behind what is on screen."""
    from pathlib import Path

    root = Path(__file__).parents[1]
    offenders = [f"{path.relative_to(root)}:{n}" for folder in ("pages", "views")
                 for path in sorted((root / folder).rglob("*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "st.stop()" in line]
    assert offenders == []
