"""Progress that keeps itself (ui/keep.py, AppTest): a learner's own answers written to the browser as a progress
file's text, nothing mounted for a browser that keeps nothing, and a class's answers kept apart from one's own.
Reading them back after the browser was closed is the journey's (tests/browser/journeys/test_progress.py)."""

from __future__ import annotations

import json

import pytest

from lessons.course import course
from lessons.progress import from_json
from tests.apptest_helpers import assert_no_exception, main_text, run_page
from ui import classroom, keep, predict
from ui.questions import exercise_question
from views import classroom as cv

LESSONS, CLASS = "pages/12_Lessons.py", "pages/13_Class.py"
EXERCISE = course().lesson("bpe-training").exercises[0]  # which pair merges first (h + a)
Q = exercise_question(EXERCISE)


def keeper(at):
    """The keeping component, or None when the page mounted none (its data, as the browser gets it)."""
    found = [e for e in at.sidebar if getattr(e, "key", None) == keep.KEEPER.skey]
    return json.loads(found[0].proto.json) if found else None


def answer(at, guess: str) -> None:
    at.radio(key=predict.input_key(Q)).set_value(guess).run()
    next(b for b in at.button if b.label == "Check").click().run()
    assert_no_exception(at)


def test_a_browser_that_keeps_nothing_gets_nothing_mounted() -> None:
    """First-visit cost: no cookie, no answer: no component, no extra run (the journey counts the runs)."""
    at = run_page(LESSONS, query_params={"lesson": "bpe-training"})
    assert keeper(at) is None


def test_an_answer_is_written_to_the_browser_as_a_progress_files_text() -> None:
    at = run_page(LESSONS, query_params={"lesson": "bpe-training"})
    answer(at, "h + a")
    data = keeper(at)
    assert data["key"] == keep.STORAGE_KEY and data["cookie"] == keep.COOKIE and not data["read"]
    loaded = from_json(data["write"])  # the file's own format, read by the file's own reader
    assert [(qid.key, guess) for qid, guess in loaded.answers] == [(Q.key, "h + a")]
    written = data["write"]
    at.run()  # nothing new: the same text (the browser is not rewritten with a new timestamp each run)
    assert keeper(at)["write"] == written


def test_start_over_forgets_here_and_tells_the_browser() -> None:
    at = run_page(LESSONS, query_params={"lesson": "bpe-training"})
    answer(at, "h + a")
    at.button(key="lessons.forget").click().run()
    assert predict.STORE not in at.session_state or at.session_state[predict.STORE] == {}
    data = keeper(at)
    assert data["forget"] and data["write"] is None
    assert "Your score: 0 right of 0 answers" in main_text(at)


@pytest.fixture
def lab_db(monkeypatch, tmp_path) -> str:
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("LAB_DATABASE_URL", raising=False)
    return f"sqlite:///{tmp_path / 'classes.sqlite3'}"


def test_answers_in_a_class_and_on_ones_own_never_mix(lab_db) -> None:
    """A learner answered on their own (kept in the browser); in a class the same exercise is asked afresh (its
    answer goes to the class's server, never to the browser's own answers), and the browser keeps nothing meanwhile;
    leaving the class brings their own answers back as they were."""
    teacher = run_page(CLASS)
    teacher.text_input(key=cv.TITLE.skey).set_value("Week 3").run()
    teacher.button(key=cv.START.skey).click().run()
    code = teacher.session_state[classroom.TEACHER.skey].code

    at = run_page(LESSONS, query_params={"lesson": "bpe-training"})
    answer(at, "h + a")  # on their own: right
    at.switch_page(CLASS).run()
    at.text_input(key=cv.JOIN_CODE.skey).set_value(code)
    at.text_input(key=cv.NAME.skey).set_value("Asha")
    at.button(key=cv.JOIN.skey).click().run()
    assert_no_exception(at)
    at.query_params["lesson"] = "bpe-training"
    at.switch_page(LESSONS).run()
    assert "Check" in [b.label for b in at.button]  # asked afresh in the class
    assert keeper(at) is None  # the class keeps its answers; the browser writes nothing meanwhile
    wrong = next(o for o in Q.options if o != "h + a")
    answer(at, wrong)
    who = at.session_state[classroom.MEMBER.skey]
    assert [a.guess for a in classroom.store().answers(code, who.learner_id)] == [wrong]
    assert at.session_state[predict.STORE][Q.key]["guess"] == wrong

    at.switch_page(CLASS).run()
    at.button(key=cv.LEAVE.skey).click().run()
    at.switch_page(LESSONS).run()
    assert at.session_state[predict.STORE][Q.key]["guess"] == "h + a"  # their own, as they gave it
    assert "Right! You predicted h + a." in " ".join(h.value for h in at.main.get("html"))
    data = keeper(at)
    assert [guess for _, guess in from_json(data["write"]).answers] == ["h + a"]  # the class's answer is not theirs


def test_an_answer_marked_with_a_class_is_never_the_browsers(lab_db) -> None:
    """The class marks an answer given in it (or brought back from it) with its code: that mark alone keeps it out of
    what the browser keeps, whichever store it is in (here one's own, as a session that left the class mid-run
    would have it)."""
    at = run_page(LESSONS, query_params={"lesson": "bpe-training"})
    answer(at, "h + a")
    other = course().lesson("bpe-training").exercises[1]
    marked = {**at.session_state[predict.STORE][Q.key], "class": "ABC234"}
    at.session_state[predict.STORE][exercise_question(other).key] = {**marked, "id": exercise_question(other).id}
    at.run()
    assert [qid.key for qid, _ in from_json(keeper(at)["write"]).answers] == [Q.key]
