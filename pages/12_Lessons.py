"""Lessons: the course, one lesson at a time, with exercises answered before the lab shows the truth.

The lessons are Markdown files in lessons/course/ (read by lessons.course); every
exercise's answer is computed by the engine when it is asked (lessons.exercises).
In classroom mode a lesson is shown one part per click, with the shared step controls.
"""

import streamlit as st

from ui.layout import classroom_on, large_type_on, page_setup
from lessons.course import course, render_body
from lessons.exercises import ExerciseError
from lessons.worksheet import answer_key_markdown, worksheet_markdown
from views import lessons as lv
from ui import predict, state
from views import progress
from ui.display import callout_html, md_escape
from ui.steps import Stepper
from ui.links import link

page_setup("Lessons")


PAGE = "lessons"
COURSE = course()
LARGE = large_type_on()
CLASSROOM = classroom_on()
IDS = tuple(lesson.id for lesson in COURSE.lessons)
LESSON = state.Param(PAGE, "lesson", IDS[0] if IDS else "", choices=IDS)
STEP = state.Param(PAGE, "step", 0, lo=0, hi=200)
STEPPER = Stepper(STEP, names=("Start", "Back", "Next", "End"))
state.restore([LESSON, STEP])

for problem in COURSE.problems:  # a damaged lesson file is named; the others still work
    st.warning(md_escape(f"A lesson could not be loaded: {problem}"), icon=":material/error:")
if not COURSE.lessons:
    st.info("There are no lessons to show.")
    st.stop()


def lesson_count(n: int) -> str:
    """``9`` -> ``"Nine short lessons"``: the lessons that loaded (a damaged lesson file is not counted)."""
    words = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve")
    return (words[n] if n < len(words) else f"{n:,}") + (" short lesson" if n == 1 else " short lessons")


if not CLASSROOM:
    st.caption(
        f"{lesson_count(len(COURSE.lessons))}, from what a token is to what a Hindi product's tokens cost. "
        "Every exercise asks you to "
        "commit to a prediction first; then the lab computes the truth with its own tokenizers and shows it beside "
        "your guess. " + lv.score_line()
    )

left, right = (st.container(), st.container()) if (LARGE or CLASSROOM) else st.columns([1, 3], gap="large")


def _pick(lesson_id: str) -> None:
    state.set_value(LESSON, lesson_id)
    STEPPER.reset()


with left:
    titles = {i: f"{COURSE.lesson(i).number}. {COURSE.lesson(i).title}" for i in IDS}  # fixed labels: a widget
    if LARGE or CLASSROOM:  # whose labels change with the score would be a new widget, and forget its value
        st.selectbox("Lesson", IDS, key=LESSON.skey, format_func=titles.get, on_change=STEPPER.reset)
    else:
        st.markdown("**Lessons**")
        with st.container(key="tl-menu-lessons"):  # ui/layout.py: a menu's labels wrap, from the left
            for i in IDS:  # buttons: their labels can carry the progress
                st.button(lv.progress_label(COURSE.lesson(i)), key=f"{PAGE}.pick.{i}", on_click=_pick, args=(i,),
                          type="primary" if i == st.session_state.get(LESSON.skey) else "tertiary",
                          width="stretch")
lesson = COURSE.lesson(state.value(LESSON)) or COURSE.lessons[0]


def draw_tries() -> None:
    if lesson.tries:
        st.markdown("**Try it in the lab**")
        for item in lesson.tries:
            link(item)


def body() -> str:
    try:
        return render_body(lesson)
    except ExerciseError as exc:
        st.warning(md_escape(f"A number in this lesson cannot be computed here: {exc}"), icon=":material/error:")
        return lesson.body


def draw_lesson() -> None:
    st.subheader(f"{lesson.number}. {lesson.title}")
    answered, right, total = lv.progress(lesson)
    st.caption(f"About {lesson.minutes} minutes · {answered} of {total} exercises answered, {right} right")
    st.html(callout_html("By the end you can:\n" + "\n".join(f"• {o}" for o in lesson.objectives)))
    st.markdown(body())
    draw_tries()
    if lesson.exercises:
        st.markdown("### Predict, then run")
    for number, exercise in enumerate(lesson.exercises, start=1):
        lv.draw_exercise(exercise, number, len(lesson.exercises))
    st.markdown("### Key points")
    st.markdown("\n".join(f"- {md_escape(point)}" for point in lesson.key_points))


def draw_slides() -> None:
    """Classroom mode: one part of the lesson per click (objectives, each section, the links, each exercise)."""
    slides: list = [("objectives", None), *[("text", part) for part in lv.sections(body())]]
    if lesson.tries:
        slides.append(("tries", None))
    slides += [("exercise", (n, e)) for n, e in enumerate(lesson.exercises, start=1)]
    slides.append(("key points", None))
    k = STEPPER.draw(len(slides) - 1, autoplay=False, label=f"**{lesson.number}. {md_escape(lesson.title)}**")
    state.publish([STEP])
    kind, item = slides[k]
    st.caption(f"Part {k + 1} of {len(slides)}")
    if kind == "objectives":
        st.html(callout_html(f"{lesson.title}\n\nBy the end you can:\n" + "\n".join(f"• {o}" for o in lesson.objectives)))
    elif kind == "text":
        st.markdown(item)
    elif kind == "tries":
        draw_tries()
    elif kind == "exercise":
        lv.draw_exercise(item[1], item[0], len(lesson.exercises))
    else:
        st.markdown("### Key points")
        st.markdown("\n".join(f"- {md_escape(point)}" for point in lesson.key_points))


with right:
    if CLASSROOM:
        st.fragment(draw_slides)()
    else:
        draw_lesson()

state.publish([LESSON] if not CLASSROOM else [LESSON, STEP])

if CLASSROOM:
    st.stop()

# -- practice: questions made for any corpus and step ------------------------------------------------------
with st.expander("More practice: questions the lab makes up for you", key=f"{PAGE}.practice_open",
                 on_change="rerun", icon=":material/casino:") as box:
    if box.open:
        seed = st.session_state.setdefault(f"{PAGE}.seed", 1)
        st.button("New questions", key=f"{PAGE}.reroll", icon=":material/refresh:",
                  on_click=lambda: st.session_state.update({f"{PAGE}.seed": seed + 1}))
        with st.container(border=True):
            predict.ask(lv.practice_merge(seed))
        with st.container(border=True):
            predict.ask(lv.practice_count(seed))

# -- take it with you ----------------------------------------------------------------------------------
with st.expander("Worksheets and your progress", icon=":material/download:"):
    st.markdown("**A printable worksheet for this lesson**, and its answer key apart (both computed now).")
    with st.container(horizontal=True):
        st.download_button("Worksheet (Markdown)", lambda: worksheet_markdown(lesson), f"{lesson.id}-worksheet.md",
                           "text/markdown", key=f"{PAGE}.worksheet", on_click="ignore", icon=":material/description:")
        st.download_button("Answer key (Markdown)", lambda: answer_key_markdown(lesson), f"{lesson.id}-answers.md",
                           "text/markdown", key=f"{PAGE}.answers", on_click="ignore", icon=":material/key:")
    st.markdown("**Your progress**: your answers and score in this browser session. Save them as a file to carry "
                "them to another day or another machine, then load the file back here.")
    progress.draw(PAGE)
