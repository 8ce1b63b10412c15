"""What the Class page draws: start a class, join one, and (the teacher) show its code and see what it thinks.

The class itself is in the database (:mod:`lessons.classroom`); who this browser is there is
:mod:`ui.classroom`'s; the live questions are the class bar on every page (:mod:`ui.poll`). This page is where a
class begins and ends:

- **Start** (a teacher): a title gives a class code, a learner link and a teacher link. The teacher link is
  offered as a file to keep, never drawn on the page: the projector shows the code, the learner link and its QR
  code only.
- **Join** (a learner): the class code (from the learner link, or typed), a name, "Join". No account: a short
  resume code continues on another device.
- **The teacher link** (``?code=…&teacher=…``) makes this browser the class's teacher; the page keeps the secret
  in the session and drops it from the address bar (the browser keeps a key of its own for a reload).
- **The teacher's own questions**: a kind the lab answers itself, its blanks, the lab's answer shown before
  posing; posed at once or kept with the class; downloaded as a lesson file (:mod:`lessons.own`).
- **The dashboard** (teacher only, folded away from the projector): per question, % right at the first try and
  the commonest wrong answers; per learner, answered and right; each poll round by round; who answered what;
  the gradebook and who-answered-what CSVs and the JSON report, built when clicked. End, and an ended class's
  report.
"""

from __future__ import annotations

import html
import io
import json
from urllib.parse import urlsplit

import pandas as pd
import segno
import streamlit as st

from lessons import own
from lessons.classroom import (
    ClassError,
    ClassUnavailable,
    DatabaseUnavailable,
    answer_rows,
    as_json,
    csv_text,
    gradebook_rows,
    links,
    prompt_of,
    shown_resume,
)
from lessons.course import LessonError, exercise_from
from lessons.exercises import MAX_CORPUS_MERGES, ExerciseError
from ui import choices, classroom, poll, push, questions, state
from ui import own as uis_own
from ui.answers import DRAWN
from ui.display import answer_text, callout_html, md_escape, plural

PAGE = classroom.PAGE
CODE = state.Param(PAGE, "code", "", max_len=12)
PARAMS = (CODE,)
TITLE, JOIN_CODE, NAME, RESUME_CLASS, RESUME_CODE = (state.Key(PAGE, n) for n in (
    "title", "join_code", "name", "resume_class", "resume_code"))
START, JOIN, RESUME, LEAVE, END = (state.Key(PAGE, n) for n in ("start", "join", "resume", "leave", "end"))
TEACHER_PARAM = "teacher"
TEACHER_LINK = state.Key(PAGE, "_teacher_link")  # the link a teacher just started a class with, shown once
MESSAGE = state.Key(PAGE, "_message").skey
REMEMBER = state.Key(PAGE, "_remember").skey  # a learner just joined: the browser keeps the class for a reload


RELOADED = ("Already teaching a class? A browser that opened your teacher link stays in teacher mode after a "
            "reload (it keeps a key of its own, never the link's secret). In another browser, open your teacher link "
            "again (the file “Download my teacher link” gave you).")
"""What a teacher whose browser is not in teacher mode reads on the Class page."""


def origin() -> str:
    """The lab's address as this browser sees it (for the learner link and its QR code)."""
    parts = urlsplit(st.context.url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def learner_url(code: str) -> str:
    return origin() + links(code)


def take_teacher_link() -> None:
    """A teacher link: keep its secret in this session (if it is the class's) and take it off the address bar."""
    secret = st.query_params.get(TEACHER_PARAM)
    if secret is None:
        return
    code = st.query_params.get(CODE.name, "")
    del st.query_params[TEACHER_PARAM]
    try:
        teacher = classroom.become_teacher(code, secret)
    except DatabaseUnavailable as exc:  # the link may be right: say what is wrong instead
        st.session_state[MESSAGE] = ("warning", f"{exc} Your teacher link was not checked: open it again later.")
        return
    if teacher:
        st.session_state[MESSAGE] = ("success", "You are this class's teacher in this browser. The teacher link is "
                                     "no longer in the address bar, so projecting this page shows only the class code.")
    else:
        st.session_state[MESSAGE] = ("warning", "That teacher link is not one of an open class: check it, or "
                                     "start a new class.")


def _say() -> None:
    if message := st.session_state.pop(MESSAGE, None):
        st.html(callout_html(message[1], message[0]))


# -- starting and joining ---------------------------------------------------------------------------------------
def _start() -> None:
    title = st.session_state.get(TITLE.skey, "").strip()
    if not title:
        st.session_state[MESSAGE] = ("warning", "Give the class a title first (for example “Tokenizers, week 3”).")
        return
    try:
        started = classroom.store().start(title)
    except ClassError as exc:
        st.session_state[MESSAGE] = ("warning", str(exc))
        return
    classroom.leave()
    classroom.become_teacher(started.code, started.teacher_secret)
    st.session_state[TEACHER_LINK.skey] = origin() + links(started.code, started.teacher_secret)
    st.session_state[CODE.skey] = started.code


def _join() -> None:
    code = st.session_state.get(JOIN_CODE.skey, "")
    name = st.session_state.get(NAME.skey, "")
    try:
        learner = classroom.store().join(code, name, client=classroom.client())
    except ClassError as exc:
        st.session_state[MESSAGE] = ("warning", str(exc))
        return
    classroom.leave()
    classroom.become_member(learner)
    st.session_state[REMEMBER] = True
    st.session_state[CODE.skey] = learner.code


def _resume() -> None:
    code = st.session_state.get(RESUME_CLASS.skey, "")
    try:
        learner = classroom.store().resume(code, st.session_state.get(RESUME_CODE.skey, ""), client=classroom.client())
        classroom.leave()
        classroom.become_member(learner)
        st.session_state[REMEMBER] = True
        back = poll.restore_answers(classroom.member())
    except ClassError as exc:
        st.session_state[MESSAGE] = ("warning", str(exc))
        return
    st.session_state[CODE.skey] = learner.code
    st.session_state[MESSAGE] = ("success", f"Welcome back, {learner.name}: {plural(back, 'answer')} you gave "
                                 "before came back with you.")


def outside_section() -> None:
    """Join a class (or continue one), or start one."""
    _say()
    join, start = st.columns(2, gap="large")
    with join:
        st.subheader("Join a class")
        if st.session_state.get(CODE.skey) and not st.session_state.get(JOIN_CODE.skey):
            st.session_state[JOIN_CODE.skey] = st.session_state[CODE.skey]  # from the learner link
        st.text_input("Class code", key=JOIN_CODE.skey, max_chars=12, placeholder="6 letters and digits")
        st.text_input("Your name", key=NAME.skey, max_chars=40,
                      help="What your teacher sees on the dashboard (never on the projector). Nothing else is asked.")
        st.button("Join", key=JOIN.skey, type="primary", on_click=_join, icon=":material/login:")
        with st.expander("Continue on this device (you have a resume code)"):
            st.text_input("Class code", key=RESUME_CLASS.skey, max_chars=12)
            st.text_input("Resume code", key=RESUME_CODE.skey, max_chars=24, placeholder="ABCD-EFGH-JKMN-PQRS")
            st.button("Continue", key=RESUME.skey, on_click=_resume)
    with start:
        st.subheader("Start a class (teachers)")
        st.text_input("Class title", key=TITLE.skey, max_chars=80, placeholder="Tokenizers, week 3")
        st.button("Start a class", key=START.skey, on_click=_start, icon=":material/add:")
        st.caption("You get a class code for your learners and a teacher link for you. Classes last 30 days; "
                   "ending one removes it from the learners' screens. " + classroom.data_dir_note())
        st.caption(RELOADED)


# -- a learner in a class -----------------------------------------------------------------------------------------
def welcome_text(who: classroom.Member) -> str:
    """The learner's box on the Class page, for as long as they are in the class (it stays through every question)."""
    return (f"Welcome, {who.name}. When your teacher poses a question it appears at the top of every page. Your "
            f"resume code is {shown_resume(who.resume_code)}: with it and the class code you can carry on from "
            "another device.")


def learner_section() -> None:
    who = classroom.member()
    if st.session_state.pop(REMEMBER, False):
        classroom.remember_in_browser(who)
        classroom.write_cookies()
    _say()
    st.html(callout_html(welcome_text(who), "success"))
    st.markdown(md_escape(f"You are in class {who.code} as {who.name}."))
    st.caption("Your answers to the lab's questions are kept for your class, so a reload loses nothing. Your "
               "teacher sees your name and your answers; the class sees only how many chose each answer. With the "
               "class code and your resume code you can continue on another device (Continue on this device).")
    st.button("Leave the class in this browser", key=LEAVE.skey, on_click=classroom.leave, type="tertiary")


# -- the teacher --------------------------------------------------------------------------------------------------
def qr_png(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=8, border=2)
    return out.getvalue()


def projector_section() -> None:
    """What the projector may show: the code, the learner link and its QR code (never the teacher's secret); once
    the class has ended, that it has (the report stays below)."""
    who = classroom.teaching()
    _say()
    done = classroom.ended()
    if done is None:
        try:
            info = classroom.store().info(who.code)
        except ClassUnavailable:
            done = classroom.class_ended(who.code)
        except ClassError as exc:  # the database, for now: this browser stays the teacher
            st.warning(str(exc))
            return
    if done is not None:  # the class bar above says so (ui.poll), in the teacher's words
        return
    if link := st.session_state.pop(TEACHER_LINK.skey, None):
        st.html(callout_html("Your class is ready. Keep your teacher link private (it is not shown here, so you "
                             "can project this page): it lets you run this class from another browser.", "success"))
        st.download_button("Download my teacher link", link + "\n", f"class-{who.code}-teacher-link.txt",
                           "text/plain", key=f"{PAGE}.teacher_link", icon=":material/key:", on_click="ignore")
    words, qr = st.columns([3, 2], gap="large")
    with words:
        st.html(f"{CSS}<div class='tl-class-title'>{html.escape(info.title)}</div>"  # big: read from the back row
                f"<div class='tl-class-code' aria-label='class code'>{html.escape(who.code)}</div>")
        st.markdown("Join at")
        st.code(learner_url(who.code), language=None)
        st.caption("Open any page and press “Pose to the class” under a question: every learner gets it on their "
                   "screen, and the class bar above shows how many answered (and how many joined, live).")
    with qr:
        st.image(qr_png(learner_url(who.code)), caption="Scan to join", width=260)


# -- the teacher's own questions ------------------------------------------------------------------------------------
OWN_KIND, OWN_TOKENIZER, OWN_TEXT, OWN_CORPUS, OWN_UNIT, OWN_SPLIT, OWN_TIES, OWN_STEP, OWN_POSE, OWN_KEEP = (
    state.Key(PAGE, f"own.{n}") for n in ("kind", "tokenizer", "text", "corpus", "unit", "split", "ties", "step",
                                           "pose", "keep"))
OWN_TEXTS = tuple(state.Key(PAGE, f"own.text{i}") for i in range(4))
OWN_SAID = state.Key(PAGE, "_own_said").skey
DEFAULT_TOKENIZER = "o200k_base"


def _own_values(kind: own.OwnKind) -> dict:
    get = st.session_state.get
    return {"tokenizer": get(OWN_TOKENIZER.skey), "text": get(OWN_TEXT.skey, ""), "corpus": get(OWN_CORPUS.skey, ""),
            "texts": [get(k.skey, "") for k in OWN_TEXTS], "unit": get(OWN_UNIT.skey), "split": get(OWN_SPLIT.skey),
            "ties": get(OWN_TIES.skey), "step": get(OWN_STEP.skey, 1)}


def _own_question(table: dict, code: str):
    """The teacher's question as the lab asks it: read as a lesson file's exercise, its answer computed."""
    return questions.exercise_question(exercise_from(table, own.lesson_id(code)))


def _keep(who: classroom.Teaching, table: dict, *, pose_now: bool) -> None:
    try:
        classroom.store().keep_question(who.code, who.secret, table)
        uis_own.forget_cached()
        if pose_now:
            classroom.pose(_own_question(table, who.code), where="")
            st.session_state[OWN_SAID] = ("success", "Posed to the class: see the class bar at the top of the page.")
        else:
            st.session_state[OWN_SAID] = ("success", "Kept with the class: pose it below when you are ready.")
    except (ClassError, ExerciseError, LessonError) as exc:
        st.session_state[OWN_SAID] = ("warning", str(exc))


def _preview(q) -> str:
    """What the teacher sees before posing: the lab's answer, each option marked, and why (plain text)."""
    lines = DRAWN[q.kind].preview(q)  # by its answer kind (ui.answers)
    if q.explain:
        lines.append(q.explain)
    return "\n".join(lines)


def own_questions_section() -> None:
    """The teacher's own questions: a kind the lab can answer itself, its blanks, the lab's answer before posing;
    pose it at once or keep it with the class; the kept ones, and the lesson file they make."""
    who = classroom.teaching()
    with st.expander("Your own questions (the lab computes the answers)", icon=":material/edit_note:"):
        kinds = list(own.KINDS)
        name = st.selectbox("Kind of question", kinds, key=OWN_KIND.skey, format_func=lambda k: own.KINDS[k].title)
        kind = own.KINDS[name]
        if "tokenizer" in kind.blanks:
            options = [e.key for e in choices.entries(("real", "lab"))]
            if st.session_state.get(OWN_TOKENIZER.skey) not in options:
                st.session_state[OWN_TOKENIZER.skey] = DEFAULT_TOKENIZER if DEFAULT_TOKENIZER in options else options[0]
            labels = {k: choices.option_label(k) for k in options}
            st.selectbox("Tokenizer", options, key=OWN_TOKENIZER.skey, format_func=lambda k: labels.get(k, k))
        if "text" in kind.blanks:
            st.text_area("Text", key=OWN_TEXT.skey, max_chars=own.MAX_OWN_TEXT, height=80,
                         placeholder="for example: मेरा नाम आशा है, and I love chai")
        if "texts" in kind.blanks:
            for i, key in enumerate(OWN_TEXTS):
                st.text_input(f"Text {'ABCD'[i]}" + (" (if you want a fourth)" if i == 3 else ""), key=key.skey,
                              max_chars=own.MAX_CHOICE)
        if "corpus" in kind.blanks:
            st.text_area("Corpus (the training text)", key=OWN_CORPUS.skey, max_chars=own.MAX_OWN_CORPUS, height=100,
                         placeholder="for example: low low low lower lowest newer newest")
            with st.container(horizontal=True):
                st.selectbox("Unit", list(own.UNITS), key=OWN_UNIT.skey, format_func=own.UNITS.get)
                st.selectbox("Split at", list(own.SPLITS), key=OWN_SPLIT.skey, format_func=own.SPLITS.get)
                st.selectbox("Ties", list(own.TIES), key=OWN_TIES.skey, format_func=own.TIES.get)
                st.number_input("Which merge", min_value=1, max_value=MAX_CORPUS_MERGES, value=1, step=1,
                                key=OWN_STEP.skey)
        table, q = None, None
        try:
            table = own.exercise(name, _own_values(kind))
            q = _own_question(table, who.code)
        except own.OwnError as exc:
            st.caption(str(exc))
        except (ExerciseError, LessonError) as exc:
            st.warning(md_escape(f"The lab cannot ask that: {exc}"))
        if q is not None:
            too_long = next((o for o in q.options if len(o) > own.MAX_CHOICE), None)
            st.markdown("**The question, as your learners will read it**")
            st.html(callout_html(q.prompt, "info"))
            st.markdown("**Only you see this**")
            st.html(callout_html(_preview(q), "success"))
            if too_long:
                st.warning(f"An option is longer than {own.MAX_CHOICE} characters: use a shorter text.")
            with st.container(horizontal=True):
                st.button("Pose it now", key=OWN_POSE.skey, type="primary", on_click=_keep, args=(who, table),
                          kwargs={"pose_now": True}, disabled=bool(too_long), icon=":material/groups:")
                st.button("Keep it for later", key=OWN_KEEP.skey, on_click=_keep, args=(who, table),
                          kwargs={"pose_now": False}, disabled=bool(too_long))
        if said := st.session_state.pop(OWN_SAID, None):
            st.html(callout_html(said[1], said[0]))
        kept_section(who)


def kept_section(who: classroom.Teaching) -> None:
    """The questions kept with the class: each with its answer and a Pose button; the lesson file they make."""
    exercises = uis_own.class_exercises(who.code)
    if not exercises:
        return
    st.markdown(f"**Kept with this class** ({len(exercises)})")
    for exercise in exercises:
        with st.container(border=True, key=f"own-{exercise.id}"):
            try:
                q = questions.exercise_question(exercise)
            except ExerciseError as exc:
                st.warning(md_escape(f"{exercise.prompt}: the lab cannot compute it here ({exc})"))
                continue
            st.html(callout_html(f"{q.prompt}\nThe lab's answer: {answer_text(q.answer)}", "info"))
            st.button("Pose", key=f"{PAGE}.own.pose.{exercise.id}", on_click=_pose_kept, args=(q,),
                      icon=":material/groups:")
    tables = [{"id": e.id, "prompt": e.prompt, "answer": {"op": e.op, **e.args}, "explain": e.explain}
              for e in exercises]
    title = classroom.store().about(who.code, secret=who.secret).title
    st.download_button("Download them as a lesson file", own.lesson_file(who.code, title, tables),
                       f"{own.lesson_id(who.code)}.md", "text/markdown", key=f"{PAGE}.own.lesson", on_click="ignore",
                       icon=":material/download:", help="A lesson file: the Lessons page opens it (“Open a lesson "
                       "file”), and `python -m lessons check --course FILE` checks it.")


def _pose_kept(q) -> None:
    try:
        classroom.pose(q, where="")
        st.session_state[OWN_SAID] = ("success", "Posed to the class: see the class bar at the top of the page.")
    except ClassError as exc:
        st.session_state[OWN_SAID] = ("warning", str(exc))


def _end(who: classroom.Teaching) -> None:
    try:
        classroom.store().end(who.code, who.secret)
    except ClassError as exc:
        st.session_state[MESSAGE] = ("warning", str(exc))
        return
    classroom.class_ended(who.code)
    st.session_state[JUST_ENDED] = True


JUST_ENDED = state.Key(PAGE, "_just_ended").skey
REFRESH = state.Key(PAGE, "refresh")


def dashboard_section() -> None:
    """The teacher's dashboard (names: folded away from the projector) and its downloads; End (or, once ended,
    Leave)."""
    with st.expander("Teacher's dashboard (names: not for the projector)", expanded=classroom.ended() is not None):
        _report()


@st.fragment
def _report() -> None:
    """The report as the class stands now (a fragment: "Refresh" reads it again without the page), and its
    downloads, each built from the database when it is clicked, so it holds every answer given until then."""
    if st.session_state.pop(JUST_ENDED, False):
        st.rerun()  # the whole page: the projector's part says the class has ended
    who, done = classroom.teaching(), classroom.ended()
    if who is None:
        return
    store = classroom.store()
    try:
        board = store.dashboard(who.code, who.secret)
        now = store.versions([who.code]).get(who.code)
    except ClassError as exc:
        st.warning(str(exc))
        return
    if now is not None:  # the teacher's steps (a Reveal keeps everyone's answers) bring the report up to date
        push.watch(who.code, teacher=False, seen=now, name="report")
    report_tables(board)
    words = {key: _words(key, prompt) for key, prompt in
             {(r.question_key, r.prompt) for r in board.answers} | {(q.question_key, q.prompt) for q in board.questions}}
    code, secret = who.code, who.secret

    def fresh():  # at the click, not when the page last ran (a Reveal since then has kept more answers)
        return store.dashboard(code, secret)

    def named(key: str, prompt: str) -> str:
        return words.get(key) or prompt_of(key, prompt)

    with st.container(horizontal=True):
        st.button("Refresh", key=REFRESH.skey, icon=":material/refresh:", type="tertiary",
                  help="Read the report again (the downloads are always as the class stands when you click them).")
        st.download_button("Download the gradebook (CSV)", lambda: csv_text(gradebook_rows(fresh())),
                           f"class-{code}.csv", "text/csv", key=f"{PAGE}.csv", on_click="ignore",
                           icon=":material/download:",
                           help="One row per learner: answered, right at the first try, each question.")
        st.download_button("Download who answered what (CSV)", lambda: csv_text(answer_rows(fresh(), named)),
                           f"class-{code}-answers.csv", "text/csv", key=f"{PAGE}.answers_csv",
                           on_click="ignore", icon=":material/download:",
                           help="One row per learner, question and round: their first and final answer, "
                           "right or not.")
        st.download_button("Download the report (JSON)",
                           lambda: json.dumps(as_json(fresh()), ensure_ascii=False, indent=1),
                           f"class-{code}.json", "application/json", key=f"{PAGE}.json", on_click="ignore",
                           icon=":material/data_object:")
    if done is None:
        with st.container(horizontal=True):
            st.button("End the class", key=END.skey, on_click=_end, args=(who,),
                      help="Learners can no longer answer and their names are replaced by “Learner 1”, “Learner "
                      "2”…; everything they answered stays in this report until the class expires.")
            st.button("Leave teacher mode in this browser", key=LEAVE.skey, on_click=_leave,
                      type="tertiary", help="This browser forgets the class (a shared projector, say); the class "
                      "goes on, and your teacher link still works.")
    else:
        st.button("Leave this class in this browser", key=LEAVE.skey, on_click=_leave, args=(True,),
                  type="tertiary", help="The report stays on the server until the class expires: open your "
                  "teacher link again to see it.")


def _leave(ended: bool = False) -> None:
    classroom.dismiss_ended() if ended else classroom.leave()
    st.session_state[JUST_ENDED] = True  # (the whole page follows)


def _words(key: str, prompt: str) -> str:
    return prompt or question_text(key, full=True)


def report_tables(board) -> None:
    """The dashboard's tables: each question, each learner, each round of each poll, and who answered what."""
    if not board.questions:
        st.caption("No answers yet.")
        return
    st.dataframe(pd.DataFrame([{
        "question": q.prompt or question_text(q.question_key), "answered": q.answered,
        "right at first try (%)": q.percent_right, "commonest wrong answers": "; ".join(f"{a} ({n})" for a, n in q.wrong),
        "not revealed yet": q.pending} for q in board.questions]), hide_index=True, width="stretch")
    if board.learners:
        st.dataframe(pd.DataFrame([{"learner": lr.name, "answered": lr.answered, "right": lr.right}
                                   for lr in board.learners]), hide_index=True, width="stretch")
    if board.polls:
        st.markdown("**Each poll, round by round**")
        st.dataframe(pd.DataFrame([{
            "question": p.prompt, "round": t.round, "answered": f"{t.answered} of {t.joined}",
            "answers": "; ".join(f"{a} ({n})" for a, n in t.counts.items()),
            "commonest wrong": "; ".join(f"{a} ({n})" for a, n in (p.wrong[i] if i < len(p.wrong) else [])),
            "lab's answer": p.truth or "not revealed"} for p in board.polls for i, t in enumerate(p.rounds)]),
            hide_index=True, width="stretch")
    if board.answers:
        st.markdown("**Who answered what**")
        st.dataframe(pd.DataFrame([{
            "learner": r.name, "question": _words(r.question_key, r.prompt), "asked": r.asked,
            "round": "" if r.round is None else r.round, "first answer": r.first, "final answer": r.final,
            "right": "" if r.final_right is None else "yes" if r.final_right else "no", "sent": r.sent}
            for r in board.answers]), hide_index=True, width="stretch")


def question_text(key: str, *, full: bool = False) -> str:
    """A question's prompt (shortened, unless ``full``) for the dashboard, or its key when the lab cannot rebuild
    it here."""
    q = questions.from_key(key)
    prompt = q.prompt if q else ""
    if not prompt:
        return key
    return prompt if full or len(prompt) <= 90 else prompt[:89] + "…"


CSS = """<style>
.tl-class-title { font-size: 2.2rem; font-weight: 700; line-height: 1.25; overflow-wrap: anywhere; }
.tl-class-code { font-size: 4rem; font-weight: 700; letter-spacing: .3rem; font-family: monospace; }
</style>"""


__all__ = ["CODE", "CSS", "PARAMS", "dashboard_section", "learner_section", "outside_section",
           "own_questions_section", "projector_section", "take_teacher_link"]
