"""A teacher's own questions (issue 23, part 4): the kinds the lab answers itself, the answer computed by the engine
and shown to the teacher before posing, choices with exactly one right (or a tie, accepted and explained), posed
at once or kept with the class, and downloaded as a lesson file that ``python -m lessons check`` accepts and the
Lessons page opens (AppTest, each test with a fresh class database)."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from lessons import own
from lessons.classroom import Classes, open_database
from lessons.course import exercise_from, parse_lesson
from lessons.exercises import compute
from lessons.judging import judge
from tests.apptest_helpers import ROOT, assert_no_exception, capture_downloads, html_texts, links, page_text, run_page
from ui import classroom
from ui import poll as class_bar
from ui.questions import exercise_question
from views import classroom as cv
from views.lessons import opened

CLASS = "pages/13_Class.py"
LESSONS = "pages/12_Lessons.py"


@pytest.fixture
def lab_db(monkeypatch, tmp_path) -> str:
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("LAB_DATABASE_URL", raising=False)
    return f"sqlite:///{tmp_path / 'classes.sqlite3'}"


@pytest.fixture
def server_side(lab_db):
    store = Classes(open_database(lab_db))
    yield store
    store.db.close()


def teacher_page():
    at = run_page(CLASS)
    at.text_input(key=cv.TITLE.skey).set_value("Week 3 [x](https://evil.example)").run()
    at.button(key=cv.START.skey).click().run()
    who = at.session_state[classroom.TEACHER.skey]
    return at, who.code, who.secret


def write(at, kind: str, **blanks) -> None:
    """The teacher picks a kind and fills in its blanks (each widget as the page draws it)."""
    at.selectbox(key=cv.OWN_KIND.skey).set_value(kind).run()
    for name, value in blanks.items():
        if name == "texts":
            for key, text in zip(cv.OWN_TEXTS, value, strict=False):
                at.text_input(key=key.skey).set_value(text)
        elif name in ("text", "corpus"):
            at.text_area(key=getattr(cv, f"OWN_{name.upper()}").skey).set_value(value)
        elif name == "step":
            at.number_input(key=cv.OWN_STEP.skey).set_value(value)
        else:
            at.selectbox(key=getattr(cv, f"OWN_{name.upper()}").skey).set_value(value)
    at.run()
    assert_no_exception(at)


def preview(at) -> str:
    return next(t for t in html_texts(at) if t.startswith("The lab's answer"))


CASES = [
    ("count", {"tokenizer": "o200k_base", "text": "मेरा नाम आशा है"}, "count_tokens"),
    ("bytes", {"text": "नमस्ते, chai"}, "utf8_bytes"),
    ("characters", {"text": "नमस्ते"}, "graphemes"),
    ("split", {"tokenizer": "cl100k_base", "text": "tokenization"}, "split_choice"),
    ("most", {"tokenizer": "cl100k_base", "texts": ["hello world", "नमस्ते दुनिया", "chai"]}, "most_tokens"),
    ("merge", {"corpus": "low low low lower lowest newer", "unit": "chars", "split": "whitespace", "ties": "first",
               "step": 2}, "merge_at"),
]


@pytest.mark.parametrize(("kind", "blanks", "op"), CASES)
def test_each_kind_shows_the_engines_answer_before_posing_and_is_answered_in_the_class(lab_db, server_side, kind,
                                                                                       blanks, op) -> None:
    """The teacher sees the lab's answer (computed here independently, by the same operation) before posing; posed
    at once, a learner answers it in the class bar, and Reveal judges the answer by the lab's rule."""
    teacher, code, secret = teacher_page()
    learner = server_side.join(code, "Asha", client="a")
    write(teacher, kind, **blanks)
    table = own.exercise(kind, blanks)
    assert table["answer"]["op"] == op
    computed = compute(op, {k: v for k, v in table["answer"].items() if k != "op"})  # the engine, here
    truth = computed.answer
    shown = preview(teacher)
    assert f"The lab's answer: {truth}" in shown, shown
    if computed.options:  # exactly one marked right, unless a tie (then each tied one, and it says so)
        assert shown.count("✓") == 1 + len(computed.also_right), shown
        assert sum(judge(exercise_question(exercise_from(table, own.lesson_id(code))), o)[0]
                   for o in computed.options) == 1 + len(computed.also_right)
    teacher.button(key=cv.OWN_POSE.skey).click().run()
    assert_no_exception(teacher)
    poll = server_side.current(code)
    assert poll.question["prompt"] == table["prompt"] and poll.question["where"] == ""
    answer = truth if isinstance(truth, str) else str(truth)
    assert server_side.vote(code, learner.learner_id, poll.poll_id, 1, answer, vote_id=uuid.uuid4().hex)
    teacher.run()
    teacher.button(key=class_bar.REVEAL.skey).click().run()  # rebuilt from the kept question, judged by its rule
    assert_no_exception(teacher)
    revealed = server_side.current(code)
    assert revealed.phase == "revealed" and revealed.verdicts == {answer: True}
    assert [q.question_key for q in server_side.report(code).questions] == [
        f"lesson:{own.lesson_id(code)}:{table['id']}"]


def test_a_tie_is_accepted_and_explained(lab_db) -> None:
    teacher, code, _ = teacher_page()
    write(teacher, "most", tokenizer="cl100k_base", texts=["cat", "dog", "a cat sat"])
    shown = preview(teacher)
    assert "tie for the most" not in shown  # one winner here
    write(teacher, "most", tokenizer="cl100k_base", texts=["cat", "dog", "sun"])
    shown = preview(teacher)
    assert "3 texts tie for the most (1 token each): each of them is right." in shown
    assert shown.count("✓") >= 3 and "3 options are right (a tie)" in shown
    write(teacher, "merge", corpus="low low lower newest", unit="chars", split="whitespace", ties="first", step=1)
    shown = preview(teacher)
    assert "Tie: l + o and o + w were both seen" in shown and "Rule 'first seen'" in shown


@pytest.mark.parametrize(("kind", "blanks", "says"), [
    ("count", {"tokenizer": "o200k_base", "text": "   "}, "Write the text first."),
    ("most", {"tokenizer": "o200k_base", "texts": ["same", "same"]}, "Two of the texts are the same"),
    ("split", {"tokenizer": "chai", "text": "a"}, "every way of cutting this text gives the same pieces"),
    ("merge", {"corpus": "a", "unit": "chars", "split": "whitespace", "ties": "first", "step": 1}, "merge"),
])
def test_a_question_the_lab_cannot_ask_says_why_and_offers_no_pose(lab_db, kind, blanks, says) -> None:
    teacher, _, _ = teacher_page()
    write(teacher, kind, **blanks)
    assert says in page_text(teacher), page_text(teacher)[-600:]
    assert not [b for b in teacher.button if b.key == cv.OWN_POSE.skey]


@pytest.fixture
def downloads(monkeypatch) -> dict[str, bytes]:
    """What the page's download buttons offer, file name -> bytes (built when read, as when clicked)."""
    return capture_downloads(monkeypatch)


def test_kept_questions_stay_with_the_class_and_make_a_lesson_file_check_and_the_lessons_page_open(
        lab_db, server_side, tmp_path, downloads) -> None:
    teacher, code, secret = teacher_page()
    for kind, blanks, _ in CASES:
        write(teacher, kind, **blanks)
        teacher.button(key=cv.OWN_KEEP.skey).click().run()
        assert_no_exception(teacher)
    assert server_side.current(code) is None  # kept, not posed
    again = run_page(CLASS, query_params={"code": code, "teacher": secret})  # another browser of the teacher
    kept = [b for b in again.button if b.key and b.key.startswith(f"{cv.PAGE}.own.pose.")]
    assert len(kept) == len(CASES)
    kept[0].click().run()
    assert server_side.current(code).question["prompt"] == own.exercise(*CASES[0][:2])["prompt"]
    text = downloads[f"{own.lesson_id(code)}.md"].decode("utf-8")  # what "Download them as a lesson file" gives
    path = tmp_path / f"{own.lesson_id(code)}.md"
    path.write_text(text, encoding="utf-8")
    checked = subprocess.run([sys.executable, "-m", "lessons", "check", "--course", str(path)], cwd=ROOT,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert f"1 lesson, {len(CASES)} exercises with computed answers, 0 problems" in checked.stdout
    lesson = parse_lesson(text, path.name)
    assert [e.id for e in lesson.exercises] == [own.exercise(k, b)["id"] for k, b, _ in CASES]

    page = run_page(LESSONS)  # a learner at home opens the file on the Lessons page
    page.file_uploader(key=opened.UPLOAD.skey).set_value((path.name, text.encode(), "text/markdown")).run()
    assert_no_exception(page)
    assert "Opened “Week 3 [x](https://evil.example): our own questions”" in page_text(page)
    assert not links(page, "evil")  # the file's title is text
    box = f"predict.lesson:{own.lesson_id(code)}:{lesson.exercises[0].id}.input"
    q = exercise_question(lesson.exercises[0])
    page.number_input(key=box).set_value(q.answer).run()
    next(b for b in page.button if b.key == f"predict.{q.key}.check").click().run()
    assert "Right!" in page_text(page)


def test_a_file_that_is_not_a_lesson_or_shadows_the_course_is_refused_by_name(lab_db) -> None:
    page = run_page(LESSONS)
    page.file_uploader(key=opened.UPLOAD.skey).set_value(("x.md", b"\xff\xfe not text", "text/markdown")).run()
    assert "That file cannot be opened as a lesson: x.md: not UTF-8 text" in page_text(page)
    shadow = (ROOT / "lessons" / "course" / "02-bpe-training.md").read_bytes()
    page.file_uploader(key=f"{opened.UPLOAD.skey}.1").set_value(("b.md", shadow, "text/markdown")).run()
    assert "is a lesson of the course already" in page_text(page)


# -- the lesson file: written by hand, read by the course's own parser ----------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80).filter(lambda t: t.strip())


@settings(max_examples=60, deadline=None)
@given(text=TEXT, title=st.text(min_size=1, max_size=90).filter(lambda t: t.strip()))
def test_any_text_survives_the_lesson_file_exactly(text, title) -> None:
    """Whatever a teacher types (quotes, backslashes, Devanagari, a control character, TOML's own syntax) is
    written so that the course's parser reads back exactly the question asked."""
    clean = text.strip()
    if any(ord(c) < 32 and c not in "\n\t" for c in clean):
        with pytest.raises(own.OwnError):
            own.exercise("bytes", {"text": text})
        return
    table = own.exercise("bytes", {"text": text})
    lesson = parse_lesson(own.lesson_file("ABC234", title, [table]), "class-abc234.md")
    (exercise,) = lesson.exercises
    assert exercise.args == {"text": clean} and exercise.prompt == table["prompt"] and exercise.id == table["id"]


def test_the_same_question_has_the_same_id_everywhere_and_another_another() -> None:
    a = own.exercise("count", {"tokenizer": "chai", "text": "chai"})
    assert a == own.exercise("count", {"tokenizer": "chai", "text": " chai "})  # as kept: stripped
    assert a["id"] != own.exercise("count", {"tokenizer": "news", "text": "chai"})["id"]
    assert own.code_of(own.lesson_id("ABC234")) == "ABC234" and own.code_of("bpe-training") is None


def test_a_text_of_several_lines_is_asked_on_one_line_and_posed(lab_db, server_side) -> None:
    """A line break counts (it is a token, or part of one): the prompt shows it as the lab's display rules do (↵),
    on one line a poll takes, and the operation counts the text as it was typed."""
    table = own.exercise("count", {"tokenizer": "o200k_base", "text": "chai\npani"})
    assert "chai↵pani" in table["prompt"] and table["answer"]["text"] == "chai\npani"
    teacher, code, _ = teacher_page()
    write(teacher, "count", tokenizer="o200k_base", text="chai\npani")
    teacher.button(key=cv.OWN_POSE.skey).click().run()
    assert_no_exception(teacher)
    assert server_side.current(code).question["prompt"] == table["prompt"]


# -- what one lesson file of such questions may cost -------------------------------------------------------------
def test_the_costliest_lesson_file_of_own_questions_is_refused_or_computed_within_bounds(tmp_path) -> None:
    """A lesson file is someone's upload (the Lessons page opens it): 30 exercises (a lesson's most) of the new
    operations at their largest, and over them (10,000 tokenizers to cut with, a corpus trained for a billion
    merges, 10,000 texts to compare), are checked in a child under CPU and memory limits: each either
    computes or is one problem line, in bounded time and memory."""
    from lessons.course import MAX_TEXT
    from tests.bounded import run_bounded

    text = ("मेरा नाम आशा है and I love chai. " * 80)[:MAX_TEXT]
    corpus = " ".join(f"w{i % 97}x{i % 13}" for i in range(400))[:MAX_TEXT]
    heavy = [own.exercise("split", {"tokenizer": "o200k_base", "text": text[: own.MAX_OWN_TEXT]}),
             {"id": "q-000000000001", "prompt": "p", "explain": "x", "answer": {
                 "op": "split_choice", "tokenizer": "o200k_base", "text": text, "others": list(own.OTHERS)}},
             {"id": "q-000000000002", "prompt": "p", "explain": "x", "answer": {
                 "op": "merge_at", "corpus": corpus, "step": 50, "unit": "bytes", "split": "regex"}},
             {"id": "q-000000000003", "prompt": "p", "explain": "x", "answer": {
                 "op": "most_tokens", "tokenizer": "o200k_base", "texts": [text[:200] + str(i) for i in range(6)]}}]
    over = [{"id": "q-000000000004", "prompt": "p", "explain": "x", "answer": {
                "op": "split_choice", "tokenizer": "o200k_base", "text": text, "others": ["o200k_base"] * 2_000}},
            {"id": "q-000000000005", "prompt": "p", "explain": "x", "answer": {
                "op": "merge_at", "corpus": corpus, "step": 10**9}},
            {"id": "q-000000000006", "prompt": "p", "explain": "x", "answer": {
                "op": "most_tokens", "tokenizer": "o200k_base", "texts": [f"t{i}" for i in range(2_000)]}}]
    tables = list(over)
    for i in range(27):  # as many heavy ones as a lesson file holds (30 exercises, 128 KB)
        more = tables + [dict(heavy[i % len(heavy)], id=f"q-{i + 16:012x}")]
        if len(own.lesson_file("ABC234", "Heavy", more).encode()) > 127 * 1024:
            break
        tables = more
    path = tmp_path / "class-abc234.md"
    path.write_text(own.lesson_file("ABC234", "Heavy", tables), encoding="utf-8")
    assert len(tables) >= 20 and path.stat().st_size < 128 * 1024  # within a lesson file's own bound
    done = run_bounded(["-m", "lessons", "check", "--course", str(path)], cpu_limit_s=60, memory_limit=3 * 1024**3)
    done.assert_bounded(cpu_s=20, peak_mb=900)
    problems = [line for line in done.err.splitlines() if line.startswith("problem:")]
    assert len(problems) == 3 and all("cannot be computed" in p for p in problems), done.err
    assert "'others' names at most 6 tokenizers" in done.err and "'step' must be 1 to 50" in done.err
    assert "'texts' must be 2 to 6 different texts" in done.err
