"""The Class page and the class bar (AppTest): start a class, the teacher link, join (and its friendly refusals),
names shown as text, "Pose to the class" for the teacher only, a learner's answers kept on the server and back
after a resume, the teacher's live count and steps, the dashboard and its CSV, ending a class.

Each test has a fresh class database: ``LAB_DATA_DIR`` is the test's temporary directory (a new SQLite file; the
kit caches one store per URL, and a new directory is a new URL). The join / vote / restore journey also runs on
PostgreSQL (the session's throwaway cluster, ``postgres_server`` in tests/conftest.py). Several AppTests in one
test are several browsers: they share the store, never a session."""

from __future__ import annotations

import csv
import html
import io
import json
import uuid

import pytest

from lessons.classroom import ClassError, Classes, open_database, shown_resume
from lessons.course import course
from lessons.exercises import compute
from tests.apptest_helpers import (
    assert_no_exception,
    capture_downloads,
    chart_datasets,
    chart_spec,
    links,
    main_text,
    page_text,
    run_page,
)
from ui import charts, classroom, predict
from ui import poll as class_bar
from ui.display import md_escape
from ui.questions import exercise_question
from views import classroom as cv

CLASS = "pages/13_Class.py"
LESSONS = "pages/12_Lessons.py"
TRAIN = "pages/1_Train_step_by_step.py"
LESSON = "bpe-training"
EXERCISE = next(e for e in course().lesson(LESSON).exercises if e.id == "chai-first-merge")
Q = exercise_question(EXERCISE)
TRUTH = compute(EXERCISE.op, EXERCISE.args).answer  # the lab's answer, computed as the page computes it
WRONG = next(c for c in Q.options if c != TRUTH)


@pytest.fixture
def lab_db(monkeypatch, tmp_path) -> str:
    """A fresh SQLite class database for this test (the page's default: LAB_DATA_DIR/classes.sqlite3)."""
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("LAB_DATABASE_URL", raising=False)
    return f"sqlite:///{tmp_path / 'classes.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, monkeypatch, tmp_path) -> str:
    """A fresh class database on each backend, as the page finds it (LAB_DATA_DIR, or LAB_DATABASE_URL)."""
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    if request.param == "sqlite":
        monkeypatch.delenv("LAB_DATABASE_URL", raising=False)
        return f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    url = request.getfixturevalue("postgres_server").new_database()
    monkeypatch.setenv("LAB_DATABASE_URL", url)
    return url


@pytest.fixture
def server_side(lab_db):
    """The store as another replica sees it (its own connection to the same database)."""
    store = Classes(open_database(lab_db))
    yield store
    store.db.close()


@pytest.fixture
def downloads(monkeypatch) -> dict[str, bytes]:
    """What the page's download buttons offer, file name -> bytes (built when read, as when clicked)."""
    return capture_downloads(monkeypatch)


def everything_drawn(at) -> str:
    """Every value and label the session's elements carry (main area and sidebar), to look for a secret in."""
    return str(at._tree)


def start_class(title: str = "Tokenizers, week 3", **query):
    """A teacher's browser that started a class: (its AppTest, the class code, the teacher secret)."""
    at = run_page(CLASS, query_params=query)
    at.text_input(key=cv.TITLE.skey).set_value(title).run()
    at.button(key=cv.START.skey).click().run()
    assert_no_exception(at)
    who = at.session_state[classroom.TEACHER.skey]
    return at, who.code, who.secret


def join(code: str, name: str):
    """A learner's browser that typed ``code`` and ``name`` on the Class page and pressed Join."""
    at = run_page(CLASS)
    at.text_input(key=cv.JOIN_CODE.skey).set_value(code)
    at.text_input(key=cv.NAME.skey).set_value(name)
    at.button(key=cv.JOIN.skey).click().run()
    assert_no_exception(at)
    return at


def member(at) -> classroom.Member:
    return at.session_state[classroom.MEMBER.skey]


def pose_keys(at) -> list[str]:
    return [b.key for b in at.button if b.label == "Pose to the class"]


# -- starting a class, the teacher link ---------------------------------------------------------------------------
def test_start_shows_the_code_and_offers_the_teacher_link_never_the_secret(lab_db, downloads) -> None:
    at, code, secret = start_class()
    text = page_text(at)
    assert code in text and "Tokenizers, week 3" in text
    assert [c.value for c in at.main.get("code")] == [f"/Class?code={code}"]  # the learner link (AppTest has no host)
    assert secret not in everything_drawn(at)  # not in any element's value, label or help
    assert "teacher" not in at.query_params
    link_file = f"class-{code}-teacher-link.txt"
    assert link_file in downloads
    assert f"?code={code}&teacher={secret}" in downloads[link_file].decode()
    assert len(at.main.get("image")) == 1  # the QR code of the learner link


def test_the_teacher_link_makes_this_session_the_teacher_and_leaves_the_address_bar(lab_db, server_side) -> None:
    started = server_side.start("Week 4")
    at = run_page(CLASS, query_params={"code": started.code, "teacher": started.teacher_secret})
    assert at.session_state[classroom.TEACHER.skey] == classroom.Teaching(started.code, started.teacher_secret)
    assert "teacher" not in at.query_params
    assert started.teacher_secret not in everything_drawn(at)
    assert "You are this class's teacher in this browser" in page_text(at)
    assert started.code in page_text(at)
    assert f"Class {started.code} · you are its teacher" in page_text(at)  # the class bar, on the link's first run


def test_a_teacher_on_another_machine_can_reveal_what_this_one_posed(lab_db, server_side) -> None:
    """Reveal rebuilds a posed question from its id when this session did not pose it (a reload, the teacher link
    on the projector's machine after posing from a laptop): the lab computes its answer again."""
    teacher, code, secret = start_class()
    teacher.query_params["lesson"] = LESSON
    teacher.switch_page(LESSONS).run()
    teacher.button(key=f"{classroom.PAGE}.pose.{Q.key}").click().run()
    other = run_page(CLASS, query_params={"code": code, "teacher": secret})  # a new session: it posed nothing
    assert not other.button(key=class_bar.REVEAL.skey).disabled
    other.button(key=class_bar.REVEAL.skey).click().run()
    assert assert_no_exception(other) is None
    assert (server_side.current(code).phase, server_side.current(code).truth) == ("revealed", TRUTH)


def test_a_wrong_teacher_link_says_so_and_the_page_works(lab_db, server_side) -> None:
    started = server_side.start("Week 4")
    at = run_page(CLASS, query_params={"code": started.code, "teacher": "not-the-secret"})
    assert classroom.TEACHER.skey not in at.session_state
    assert "That teacher link is not one of an open class" in page_text(at)
    assert "teacher" not in at.query_params
    assert at.button(key=cv.JOIN.skey)  # the page works: join or start


# -- joining ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("code", "name", "says"), [
    ("ZZZZZZ", "Asha", "No open class has that code"),
    (None, "", "name"),
    (None, "Asha\x00\x1b[31m", "name"),
])
def test_a_bad_join_gets_one_friendly_message_and_the_page_works(lab_db, server_side, code, name, says) -> None:
    started = server_side.start("Week 4")
    at = join(code or started.code, name)
    assert classroom.MEMBER.skey not in at.session_state
    warnings = [m for m in page_text(at).split("\n") if says.lower() in m.lower()]
    assert len(warnings) == 1, page_text(at)
    assert "Traceback" not in page_text(at)
    at.text_input(key=cv.JOIN_CODE.skey).set_value(started.code)
    at.text_input(key=cv.NAME.skey).set_value("Asha")
    at.button(key=cv.JOIN.skey).click().run()  # and then a good join works
    assert member(at).name == "Asha"


def test_a_name_over_40_characters_is_clipped_by_the_field(lab_db, server_side):
    started = server_side.start("Week 4")
    assert run_page(CLASS).text_input(key=cv.NAME.skey).proto.max_chars == 40
    at = join(started.code, "A" * 41)  # typed (or pasted): the field keeps 40
    assert member(at).name == "A" * 40
    with pytest.raises(ClassError, match="longer than 40 characters"):  # and the store refuses a longer one anyway
        server_side.join(started.code, "B" * 41)


@pytest.mark.parametrize("name", ["<b>x</b>", "**x**", "[x](http://e)"])
def test_a_name_with_markup_is_shown_as_text(lab_db, server_side, name) -> None:
    started = server_side.start("Week 4")
    at = join(started.code, name)
    assert member(at).name == name
    shown = [m.value for m in at.main.get("markdown") if "You are in class" in m.value]
    assert len(shown) == 1
    markdown = shown[0]
    assert md_escape(name) in markdown  # every markup character escaped: drawn as itself, not bold or a link
    welcome = next(str(h.value) for h in at.main.get("html") if "Welcome" in str(h.value))
    assert html.escape(name, quote=False) in welcome and "<b>x" not in welcome  # HTML: escaped, and HTML has no Markdown


HOSTILE = ["[X](https://evil.example/a)", "see https://evil.example/b now", "www.evil.example", "m@evil.example",
           ":rocket: <a href='https://evil.example/c'>c</a>"]


def test_posed_text_names_and_titles_are_never_links_on_any_screen(lab_db, server_side) -> None:
    """A question's prompt and choices, a learner's name and the class's title come from people (a teacher's own
    question, another session's store): every screen shows them as typed, never a link, a picture or markup."""
    teacher, code, secret = start_class(title="Week [3](https://evil.example/t)")
    learner = join(code, "[Dana](https://evil.example/n) -- Das")
    server_side.pose(code, secret, {"id": "own.hostile", "prompt": "Which? " + " ".join(HOSTILE), "kind": "choice",
                                    "choices": HOSTILE, "where": ""})
    for at in (learner, teacher):
        at.run()
        assert_no_exception(at)
        assert not links(at, "evil"), links(at, "evil")
        assert not links(at, ":rocket:"), links(at, ":rocket:")
        assert not links(at, "--"), links(at, "--")  # "Dana -- Das" is not "Dana — Das"
    radio = learner.radio(key=class_bar.answer_key(server_side.current(code)).skey)
    assert list(radio.options) == [md_escape(c) for c in HOSTILE]  # shown escaped...
    radio.set_value(HOSTILE[0]).run()  # ...and the value sent is the choice itself
    learner.button(key=class_bar.send_key(server_side.current(code)).skey).click().run()
    assert server_side.tally(code, server_side.current(code).poll_id, 1).counts == {HOSTILE[0]: 1}


# -- "Pose to the class": the teacher's only ------------------------------------------------------------------------
def test_pose_to_the_class_is_under_every_question_for_the_teacher_only(lab_db) -> None:
    teacher, code, _ = start_class()
    learner = join(code, "Asha")
    visitor = run_page(CLASS)
    for page, query in ((LESSONS, {"lesson": LESSON}), (TRAIN, {"predict": "1", "step": "1"})):
        for at in (teacher, learner, visitor):
            for name, value in query.items():
                at.query_params[name] = value
            at.switch_page(page).run()
            assert_no_exception(at)
        checks = [b for b in teacher.button if b.label == "Check"]
        assert checks, f"{page} asks no question"
        assert len(pose_keys(teacher)) == len(checks), page  # one under each question
        assert pose_keys(learner) == [] and pose_keys(visitor) == [], page
    assert f"{classroom.PAGE}.pose.{Q.key}" not in pose_keys(teacher)  # (the last page was Train)


# -- a learner's answers are kept on the server -------------------------------------------------------------------
def check_exercise(at, guess: str) -> None:
    """Answer the Lessons page's first exercise with ``guess`` and press Check."""
    at.radio(key=predict.input_key(Q)).set_value(guess).run()
    next(b for b in at.button if b.label == "Check").click().run()
    assert_no_exception(at)


def test_join_vote_and_restore_on_both_databases(any_db) -> None:
    """A learner joins, answers an exercise (kept on the server), votes on the teacher's posed question (counted on
    the teacher's bar), then continues in a fresh browser with the resume code: the answer comes back."""
    teacher, code, _ = start_class()
    learner = join(code, "Asha")
    who = member(learner)
    assert f"Your resume code is {shown_resume(who.resume_code)}" in page_text(learner)

    learner.query_params["lesson"] = LESSON
    learner.switch_page(LESSONS).run()
    check_exercise(learner, WRONG)
    kept = classroom._classes(any_db).answers(code, who.learner_id)
    assert [(a.question_key, a.guess, a.right, a.attempt) for a in kept] == [(Q.key, WRONG, False, 1)]
    assert learner.session_state[predict.STORE][Q.key]["class"] == code  # the class's answer, told apart

    teacher.query_params["lesson"] = LESSON
    teacher.switch_page(LESSONS).run()
    teacher.button(key=f"{classroom.PAGE}.pose.{Q.key}").click().run()
    assert_no_exception(teacher)
    assert md_escape(Q.prompt) in main_text(teacher)  # in the bar at once (the click acts before the run)
    assert teacher.metric[0].value == "0 of 1"

    learner.run()  # the bar's next look at the class
    assert "Your teacher asks" in main_text(learner)
    state = classroom._classes(any_db).current(code)
    learner.radio(key=class_bar.answer_key(state).skey).set_value(TRUTH).run()
    learner.button(key=class_bar.send_key(state).skey).click().run()
    assert_no_exception(learner)
    assert md_escape(f"Your answer: {TRUTH}.") in main_text(learner)
    teacher.run()
    assert teacher.metric[0].value == "1 of 1"

    again = run_page(CLASS)  # another device, a fresh session
    again.text_input(key=cv.RESUME_CLASS.skey).set_value(code)
    again.text_input(key=cv.RESUME_CODE.skey).set_value(who.resume_code)
    again.button(key=cv.RESUME.skey).click().run()
    assert "Welcome back, Asha: 1 answer you gave before came back" in page_text(again)
    again.query_params["lesson"] = LESSON
    again.switch_page(LESSONS).run()
    assert again.session_state[predict.STORE][Q.key]["guess"] == WRONG  # the first answer counts, as kept
    assert again.session_state[predict.STORE][Q.key]["class"] == code
    outside = run_page(LESSONS, query_params={"lesson": LESSON})  # a browser outside any class
    check_exercise(outside, TRUTH)
    assert "class" not in outside.session_state[predict.STORE][Q.key]
    assert "Your score: 0 right of 1 answer" in main_text(again)


# -- the teacher's bar: live count, Show / Vote again / Reveal ----------------------------------------------------
def bar_button(at, key) -> object:
    return at.button(key=key.skey)


def test_the_teacher_counts_votes_and_steps_the_rounds(lab_db, server_side) -> None:
    teacher, code, secret = start_class()
    learners = [server_side.join(code, name) for name in ("Asha", "Ben", "Chitra")]
    teacher.query_params["lesson"] = LESSON
    teacher.switch_page(LESSONS).run()
    teacher.button(key=f"{classroom.PAGE}.pose.{Q.key}").click().run()
    poll = server_side.current(code)
    for lr, vote in zip(learners[:2], (WRONG, TRUTH), strict=True):  # votes arriving through other replicas
        server_side.vote(code, lr.learner_id, poll.poll_id, 1, vote, vote_id=uuid.uuid4().hex)
    teacher.run()
    assert teacher.metric[0].value == "2 of 3"
    assert not teacher.get("vega_lite_chart")  # no spread before Show answers

    bar_button(teacher, class_bar.SHOW).click().run()
    assert server_side.current(code).phase == "shown"
    charts = teacher.get("vega_lite_chart")
    assert len(charts) == 1
    spread = next(iter(chart_datasets(charts[0]).values()))
    assert {(r.answer, r.votes) for r in spread.itertuples() if r.votes} == {(WRONG, 1), (TRUTH, 1)}
    assert not {"Asha", "Ben", "Chitra"} & {str(v) for v in spread.to_numpy().ravel()}  # no names
    assert "The lab's answer" not in page_text(teacher)  # and not the truth before Reveal

    bar_button(teacher, class_bar.AGAIN).click().run()
    poll = server_side.current(code)
    assert (poll.round, poll.phase) == (2, "open")
    server_side.vote(code, learners[0].learner_id, poll.poll_id, 2, TRUTH, vote_id=uuid.uuid4().hex)  # Asha changes her mind
    teacher.run()
    assert teacher.metric[0].value == "1 of 3"

    bar_button(teacher, class_bar.REVEAL).click().run()
    poll = server_side.current(code)
    assert (poll.phase, poll.truth) == ("revealed", TRUTH)
    assert f"The lab's answer: {TRUTH}." in page_text(teacher)
    rounds = next(iter(chart_datasets(teacher.get("vega_lite_chart")[0]).values()))
    assert set(rounds["round"]) == {"round 1", "round 2"}  # the shift between rounds

    learner = run_page(CLASS)  # Asha, on her screen: the lab's answer beside hers
    learner.text_input(key=cv.RESUME_CLASS.skey).set_value(code)
    learner.text_input(key=cv.RESUME_CODE.skey).set_value(learners[0].resume_code)
    learner.button(key=cv.RESUME.skey).click().run()
    learner.run()
    assert f"The lab's answer: {TRUTH}. Your answer: {TRUTH}: right!" in page_text(learner)
    assert secret not in everything_drawn(teacher)


# -- the dashboard, the CSV, the end of a class --------------------------------------------------------------------
def test_the_dashboard_its_csv_and_ending_the_class(lab_db, server_side, downloads) -> None:
    teacher, code, secret = start_class()
    asha, ben = (join(code, name) for name in ("Asha", "Ben"))
    for at, guess in ((asha, TRUTH), (ben, WRONG)):
        at.query_params["lesson"] = LESSON
        at.switch_page(LESSONS).run()
        check_exercise(at, guess)
    teacher.run()
    tables = [t.value for t in teacher.dataframe]
    assert len(tables) == 3  # each question, each learner, who answered what (no poll yet: no rounds)
    per_question, per_learner, who_what = tables
    assert per_question.to_dict("records") == [{
        "question": Q.prompt, "answered": 2, "right at first try (%)": 50, "commonest wrong answers": f"{WRONG} (1)",
        "not revealed yet": 0}]
    assert sorted(per_learner.to_dict("records"), key=lambda r: r["learner"]) == [
        {"learner": "Asha", "answered": 1, "right at first try": 1},
        {"learner": "Ben", "answered": 1, "right at first try": 0}]
    assert [(r["learner"], r["asked"], r["first answer"], r["final answer right"]) for r in who_what.to_dict("records")] == [
        ("Asha", "on a page", TRUTH, "yes"), ("Ben", "on a page", WRONG, "no")]
    rows = list(csv.reader(io.StringIO(downloads[f"class-{code}.csv"].decode())))
    assert rows == [["name", "answered", "right first try", Q.key], ["Asha", "1", "1", "right"],
                    ["Ben", "1", "0", "wrong"]]
    answers = list(csv.DictReader(io.StringIO(downloads[f"class-{code}-answers.csv"].decode())))
    assert [(a["name"], a["question"], a["first answer"], a["first answer right"]) for a in answers] == [
        ("Asha", Q.prompt, TRUTH, "right"), ("Ben", Q.prompt, WRONG, "wrong")]

    teacher.button(key=cv.END.skey).click().run()
    assert_no_exception(teacher)
    said = page_text(teacher)
    assert f"Class {code} (“Tokenizers, week 3”) has ended" in said and "Everything the class answered" in said
    assert "stay in this browser" not in said  # a learner's sentence, not the teacher's
    assert teacher.session_state[classroom.TEACHER.skey].code == code  # the report stays on the page
    assert len(teacher.dataframe) == 3 and f"class-{code}.csv" in downloads
    with pytest.raises(ClassError):
        server_side.join(code, "Late", client="late")
    asha.run()  # the bar's next look: the class has ended, and it says so in her words, lastingly
    for _ in range(3):
        assert_no_exception(asha)
        said = page_text(asha) + main_text(asha)
        assert "Your class “Tokenizers, week 3” has ended, Asha" in said, said
        assert "You are in class" not in said  # the Class page no longer says she is in it
        asha.run()
    assert classroom.MEMBER.skey not in asha.session_state
    with pytest.raises(ClassError, match="has ended"):  # the teacher is told it ended, not "no open class"
        server_side.pose(code, secret, {"id": "late", "prompt": "?", "kind": "choice", "choices": ["a"]})
    assert secret not in everything_drawn(teacher)


def test_a_learner_who_closes_the_tab_before_reveal_still_counts(lab_db, server_side, downloads) -> None:
    """Three learners vote; one closes the tab (their session never runs again) before the teacher reveals. The
    tally said 3 of 3, and now so do the dashboard, the gradebook and who-answered-what: the server kept every
    answer when the teacher revealed, not when each learner's browser looked again."""
    teacher, code, _ = start_class()
    browsers = {name: join(code, name) for name in ("Asha", "Ben", "Chitra")}
    teacher.query_params["lesson"] = LESSON
    teacher.switch_page(LESSONS).run()
    teacher.button(key=f"{classroom.PAGE}.pose.{Q.key}").click().run()
    poll = server_side.current(code)
    for name, answer in (("Asha", TRUTH), ("Ben", WRONG), ("Chitra", TRUTH)):
        at = browsers[name]
        at.run()
        at.radio(key=class_bar.answer_key(poll).skey).set_value(answer).run()
        at.button(key=class_bar.send_key(poll).skey).click().run()
    del browsers["Chitra"]  # she closes the tab (or her phone locks): her browser never looks again
    teacher.run()
    assert teacher.metric[0].value == "3 of 3"
    teacher.button(key=class_bar.REVEAL.skey).click().run()
    board = server_side.report(code)
    assert [(lr.name, lr.answered, lr.right) for lr in board.learners] == [("Asha", 1, 1), ("Ben", 1, 0),
                                                                           ("Chitra", 1, 1)]
    assert (board.questions[0].answered, board.questions[0].right_first) == (3, 2)
    assert board.polls[0].rounds[0].answered == 3
    teacher.switch_page(CLASS).run()
    rows = list(csv.reader(io.StringIO(downloads[f"class-{code}.csv"].decode())))
    assert sorted(rows[1:]) == [["Asha", "1", "1", "right"], ["Ben", "1", "0", "wrong"], ["Chitra", "1", "1", "right"]]
    answers = list(csv.DictReader(io.StringIO(downloads[f"class-{code}-answers.csv"].decode())))
    assert sorted((a["name"], a["asked"], a["round"], a["final answer"], a["final answer right"]) for a in answers) == [
        ("Asha", "in a poll", "1", TRUTH, "right"), ("Ben", "in a poll", "1", WRONG, "wrong"),
        ("Chitra", "in a poll", "1", TRUTH, "right")]
    report = json.loads(downloads[f"class-{code}.json"])
    assert [(p["name"], p["answered"], p["right"], [(a["round"], a["final"], a["final_right"]) for a in p["answers"]])
            for p in report["learners"]] == [("Asha", 1, 1, [(1, TRUTH, True)]), ("Ben", 1, 0, [(1, WRONG, False)]),
                                             ("Chitra", 1, 1, [(1, TRUTH, True)])]
    assert report["polls"][0]["rounds"][0]["counts"] == {TRUTH: 2, WRONG: 1}
    browsers["Asha"].run()  # a learner still here sees the lab's answer, and her session learns it, kept once
    assert f"The lab's answer: {TRUTH}. Your answer: {TRUTH}: right!" in page_text(browsers["Asha"])
    assert [a.attempt for a in server_side.answers(code, member(browsers["Asha"]).learner_id)] == [1]


def test_a_vote_sent_after_the_end_is_refused_and_said(lab_db, server_side) -> None:
    teacher, code, secret = start_class()
    eli = join(code, "Eli")
    server_side.pose(code, secret, {"id": "q", "prompt": "Which?", "kind": "choice", "choices": ["a", "b"]})
    eli.run()
    poll = server_side.current(code)
    eli.radio(key=class_bar.answer_key(poll).skey).set_value("a").run()
    server_side.end(code, secret)  # the teacher ends it while Eli's finger is on "Send"
    eli.button(key=class_bar.send_key(poll).skey).click().run()
    assert_no_exception(eli)
    said = page_text(eli)
    assert "has ended, Eli" in said and "arrived after the end, so it was not counted" in said, said
    assert server_side.report(code).polls[0].rounds[0].answered == 0
    eli.run()
    assert "has ended, Eli" in page_text(eli)  # and it stays


def test_the_welcome_box_stays_through_every_question(lab_db, server_side) -> None:
    """The learner's Welcome box (what the bar is, the resume code) was said once and gone at the next run of the
    page; it stays on the Class page through a question posed, answered, revealed and another posed."""
    teacher, code, secret = start_class()
    eli = join(code, "Eli")
    welcome = html.escape(cv.welcome_text(member(eli)), quote=False)

    def shown() -> bool:
        return any(welcome in str(h.value) for h in eli.main.get("html"))

    assert shown()
    server_side.pose(code, secret, {"id": "q", "prompt": "Which?", "kind": "choice", "choices": ["a", "b"]})
    eli.run()
    assert shown()
    poll = server_side.current(code)
    eli.radio(key=class_bar.answer_key(poll).skey).set_value("a").run()
    eli.button(key=class_bar.send_key(poll).skey).click().run()
    assert shown()
    server_side.reveal(code, secret, "a")
    eli.run()
    assert "The lab's answer: a." in page_text(eli) and shown()
    server_side.pose(code, secret, {"id": "q2", "prompt": "And?", "kind": "choice", "choices": ["c", "d"]})
    for _ in range(2):
        eli.run()
        assert_no_exception(eli)
        assert shown()


def test_a_learners_reload_after_the_end_says_it_ended_not_a_blank_join_form(lab_db, server_side) -> None:
    started = server_side.start("Week 5")
    eli = server_side.join(started.code, "Eli", client="e")
    server_side.end(started.code, started.teacher_secret)
    from unittest import mock

    with mock.patch.object(classroom, "st") as fake:  # the browser's cookie, as a reload sends it
        fake.session_state = {}
        fake.context.cookies = {classroom.COOKIE: f"{started.code}.{eli.resume_code}"}
        fake.context.headers = {}
        fake.context.ip_address = None
        assert classroom.rejoin_from_browser() is None
        done = fake.session_state[classroom.ENDED.skey]
    assert (done.code, done.title, done.teacher) == (started.code, "Week 5", False)
    at = run_page(CLASS, session_state={classroom.ENDED.skey: done})
    assert "Your class “Week 5” has ended" in page_text(at)


def test_the_spread_is_readable_on_the_projector(lab_db, server_side) -> None:
    """In large type the spread is read from the back of the room: answers and the text on the bars larger than
    the page's large type (22 px), each bar's count and share written on it, both rounds told apart by words and
    dashes as well as colour, and after Reveal the right answer marked ✓ with a heavy outline."""
    teacher, code, secret = start_class(large="1")  # a projector: large type
    learners = [server_side.join(code, name) for name in ("Asha", "Ben", "Chitra")]
    teacher.query_params["lesson"] = LESSON
    teacher.switch_page(LESSONS).run()
    teacher.button(key=f"{classroom.PAGE}.pose.{Q.key}").click().run()
    poll = server_side.current(code)
    for lr, vote in zip(learners, (WRONG, WRONG, TRUTH), strict=True):
        server_side.vote(code, lr.learner_id, poll.poll_id, 1, vote, vote_id=uuid.uuid4().hex)
    teacher.button(key=class_bar.SHOW.skey).click().run()
    (chart,) = teacher.get("vega_lite_chart")
    spec = chart_spec(chart)
    bars, text = spec["layer"]
    assert bars["encoding"]["y"]["axis"]["labelFontSize"] > 22 and text["mark"]["fontSize"] > 22
    assert bars["mark"]["stroke"] == charts.TEXT
    # the axis ends at the longest bar: its label lies beyond, and Vega's "fit" makes room for it in pixels on any
    # screen (room as a share of the axis cut "round 2: 8 · 67%" off a phone's 290 px chart)
    assert bars["encoding"]["x"]["scale"]["domain"] == [0, 2]
    data = next(iter(chart_datasets(chart).values()))
    assert {(r.answer, r.label) for r in data.itertuples() if r.votes} == {(WRONG, "2 · 67%"), (TRUTH, "1 · 33%")}
    teacher.button(key=class_bar.AGAIN.skey).click().run()
    server_side.vote(code, learners[0].learner_id, poll.poll_id, 2, TRUTH, vote_id=uuid.uuid4().hex)
    teacher.button(key=class_bar.REVEAL.skey).click().run()
    (chart,) = teacher.get("vega_lite_chart")
    spec = chart_spec(chart)
    data = next(iter(chart_datasets(chart).values()))
    assert {(r.answer, r.label) for r in data.itertuples() if r.votes} == {
        (WRONG, "round 1: 2 · 67%"), (f"✓ {TRUTH}", "round 1: 1 · 33%"), (f"✓ {TRUTH}", "round 2: 1 · 100%")}
    assert set(data[data.right]["answer"]) == {f"✓ {TRUTH}"}  # the right answer, marked, and only it
    assert spec["layer"][0]["encoding"]["strokeDash"]["field"] == "round"  # rounds: dashes as well as colour


def test_the_teachers_bar_counts_who_joined_live_and_only_the_teacher_sees_the_names(lab_db, server_side) -> None:
    teacher, code, secret = start_class()
    assert [m.value for m in teacher.metric if m.label == "Joined"] == ["0"]
    for name in ("Asha", "Ben", "Chitra"):
        server_side.join(code, name)  # through other replicas
    teacher.run()  # the bar's next tick: no full page run is needed for the count
    assert [m.value for m in teacher.metric if m.label == "Joined"] == ["3"]
    assert [m.value for m in teacher.markdown if "Chitra" in m.value] == [  # in "Who is here", folded away
        "\n".join(f"{i}. {md_escape(n)}" for i, n in enumerate(("Asha", "Ben", "Chitra"), 1))]
    learner = join(code, "Dev")
    assert not [m for m in learner.metric if m.label == "Joined"] and "Chitra" not in str(learner._tree)


@pytest.mark.parametrize(("lesson_id", "exercise_id"), [
    ("bpe-training", "chai-first-merge"),  # choice
    ("bpe-training", "xylophone-tokens"),  # number
    ("bpe-training", "pohawala-split"),  # split
    ("bpe-training", "news-order"),  # order
    ("english-vs-hindi", "english-word-splits"),  # word
])
def test_every_kind_of_question_is_answered_in_the_bar_and_judged_on_reveal(lab_db, lesson_id, exercise_id) -> None:
    """The learner's bar has an answer widget for each kind; the right answer, sent from it, is right on Reveal
    and kept as the learner's answer to the question (on the server too)."""
    exercise = next(e for e in course().lesson(lesson_id).exercises if e.id == exercise_id)
    q = exercise_question(exercise)
    truth = compute(exercise.op, exercise.args).answer
    teacher, code, _ = start_class()
    learner = join(code, "Asha")
    teacher.query_params["lesson"] = lesson_id
    teacher.switch_page(LESSONS).run()
    teacher.button(key=f"{classroom.PAGE}.pose.{q.key}").click().run()
    learner.run()
    state = classroom._classes(lab_db).current(code)
    key = class_bar.answer_key(state).skey
    if exercise.kind == "choice":
        learner.radio(key=key).set_value(truth).run()
    elif exercise.kind == "number":
        learner.number_input(key=key).set_value(truth).run()
    elif exercise.kind == "order":
        learner.multiselect(key=key).set_value(list(truth)).run()
    else:
        learner.text_input(key=key).input(" | ".join(truth) if exercise.kind == "split" else str(truth)).run()
    learner.button(key=class_bar.send_key(state).skey).click().run()
    assert_no_exception(learner)
    assert md_escape("Your answer:") in main_text(learner), main_text(learner)
    teacher.run()
    assert teacher.metric[0].value == "1 of 1"
    teacher.button(key=class_bar.REVEAL.skey).click().run()
    learner.run()
    assert_no_exception(learner)
    assert ": right!" in page_text(learner), page_text(learner)
    assert learner.session_state[predict.STORE][q.key]["right"] is True
    kept = classroom._classes(lab_db).answers(code, member(learner).learner_id)
    assert [(a.question_key, a.right) for a in kept] == [(q.key, True)]


def test_a_teacher_whose_page_was_reloaded_is_told_how_to_get_back(lab_db) -> None:
    """A reload is a new session without the secret (kept nowhere in the browser): the page says how to return."""
    _, code, secret = start_class()
    reloaded = run_page(CLASS, query_params={"code": code})  # the address the teacher's page had
    assert classroom.TEACHER.skey not in reloaded.session_state
    assert "open your teacher link again" in page_text(reloaded)
    back = run_page(CLASS, query_params={"code": code, "teacher": secret})
    assert back.session_state[classroom.TEACHER.skey].code == code
