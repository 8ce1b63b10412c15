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

from i18n import N_, _, _n, number
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
from lessons.judging import Question
from tokenizer.model import UNIT_NAMES
from ui import choices, classroom, poll, push, questions, state
from ui import own as uis_own
from ui.answers import DRAWN
from ui.display import answer_text, callout_html, md_escape, translated

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


RELOADED = N_("Already teaching a class? A browser that opened your teacher link stays in teacher mode after a "
              "reload (it keeps a key of its own, never the link's secret). In another browser, open your teacher "
              "link again (the file “Download my teacher link” gave you).")
"""What a teacher whose browser is not in teacher mode reads on the Class page (draw it through ``_()``)."""


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
        st.session_state[MESSAGE] = ("warning", exc.said() + " "
                                     + _("Your teacher link was not checked: open it again later."))
        return
    if teacher:
        st.session_state[MESSAGE] = ("success", _("You are this class's teacher in this browser. The teacher link "
                                                  "is no longer in the address bar, so projecting this page shows only "
                                                  "the class code."))
    else:
        st.session_state[MESSAGE] = ("warning", _("That teacher link is not one of an open class: check it, or "
                                                  "start a new class."))


def _say() -> None:
    if message := st.session_state.pop(MESSAGE, None):
        st.html(callout_html(message[1], message[0]))


# -- starting and joining ---------------------------------------------------------------------------------------
def _start() -> None:
    title = st.session_state.get(TITLE.skey, "").strip()
    if not title:
        st.session_state[MESSAGE] = ("warning", _("Give the class a title first (for example “{title}”).",
                                                  title=_("Tokenizers, week 3")))
        return
    try:
        started = classroom.store().start(title)
    except ClassError as exc:
        st.session_state[MESSAGE] = ("warning", exc.said())
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
        st.session_state[MESSAGE] = ("warning", exc.said())
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
        member = classroom.become_member(learner)
        st.session_state[REMEMBER] = True
        back = poll.restore_answers(member)
    except ClassError as exc:
        st.session_state[MESSAGE] = ("warning", exc.said())
        return
    st.session_state[CODE.skey] = learner.code
    st.session_state[MESSAGE] = ("success", _n("Welcome back, {name}: {n} answer you gave before came back with "
                                               "you.", "Welcome back, {name}: {n} answers you gave before came back "
                                               "with you.", back, name=learner.name))


def outside_section() -> None:
    """Join a class (or continue one), or start one."""
    _say()
    join, start = st.columns(2, gap="large")
    with join:
        st.subheader(_("Join a class"))
        if st.session_state.get(CODE.skey) and not st.session_state.get(JOIN_CODE.skey):
            st.session_state[JOIN_CODE.skey] = st.session_state[CODE.skey]  # from the learner link
        st.text_input(_("Class code"), key=JOIN_CODE.skey, max_chars=12, placeholder=_("6 letters and digits"))
        st.text_input(_("Your name"), key=NAME.skey, max_chars=40,
                      help=_("What your teacher sees on the dashboard (never on the projector). Nothing else is "
                             "asked."))
        st.button(_("Join"), key=JOIN.skey, type="primary", on_click=_join, icon=":material/login:")
        with st.expander(_("Continue on this device (you have a resume code)")):
            st.text_input(_("Class code"), key=RESUME_CLASS.skey, max_chars=12)
            st.text_input(_("Resume code"), key=RESUME_CODE.skey, max_chars=24, placeholder="ABCD-EFGH-JKMN-PQRS")
            st.button(_("Continue"), key=RESUME.skey, on_click=_resume)
    with start:
        st.subheader(_("Start a class (teachers)"))
        st.text_input(_("Class title"), key=TITLE.skey, max_chars=80, placeholder=_("Tokenizers, week 3"))
        st.button(_("Start a class"), key=START.skey, on_click=_start, icon=":material/add:")
        st.caption(_("You get a class code for your learners and a teacher link for you. Classes last {days} days; "
                     "ending one removes it from the learners' screens.", days=number(30))
                   + " " + classroom.data_dir_note())
        st.caption(_(RELOADED))


# -- a learner in a class -----------------------------------------------------------------------------------------
def welcome_text(who: classroom.Member) -> str:
    """The learner's box on the Class page, for as long as they are in the class (it stays through every question)."""
    return _("Welcome, {name}. When your teacher poses a question it appears at the top of every page, in the "
             "language you chose. Your resume code is {resume}: with it and the class code you can carry on from "
             "another device.", name=who.name, resume=shown_resume(who.resume_code))


def learner_section() -> None:
    who = classroom.member()
    assert who is not None  # the page draws this section for a class's learner only (pages/13_Class.py)
    if st.session_state.pop(REMEMBER, False):
        classroom.remember_in_browser(who)
        classroom.write_cookies()
    _say()
    st.html(callout_html(welcome_text(who), "success"))
    st.markdown(md_escape(_("You are in class {code} as {name}.", code=who.code, name=who.name)))
    st.caption(_("Your answers to the lab's questions are kept for your class, so a reload loses nothing. Your "
                 "teacher sees your name and your answers; the class sees only how many chose each answer. With the "
                 "class code and your resume code you can continue on another device (Continue on this device)."))
    st.button(_("Leave the class in this browser"), key=LEAVE.skey, on_click=classroom.leave, type="tertiary")


# -- the teacher --------------------------------------------------------------------------------------------------
def qr_png(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=8, border=2)
    return out.getvalue()


def projector_section() -> None:
    """What the projector may show: the code, the learner link and its QR code (never the teacher's secret); once
    the class has ended, that it has (the report stays below)."""
    who = classroom.teaching()
    assert who is not None  # the page draws this section for the class's teacher only (pages/13_Class.py)
    # What is said once (a message, the teacher link after Start) has a slot of its own, drawn on every run: when it
    # goes, what follows keeps its place, and a box the teacher opened below stays open (it closed at the first edit).
    once = st.container()
    with once:
        _say()
    done = classroom.ended()
    if done is None:
        try:
            info = classroom.store().info(who.code)
        except ClassUnavailable:
            done = classroom.class_ended(who.code)
        except ClassError as exc:  # the database, for now: this browser stays the teacher
            st.warning(exc.said())
            return
    if done is not None:  # the class bar above says so (ui.poll), in the teacher's words
        return
    if link := st.session_state.pop(TEACHER_LINK.skey, None):
        once.html(callout_html(_("Your class is ready. Keep your teacher link private (it is not shown here, so you "
                                 "can project this page): it lets you run this class from another browser."), "success"))
        once.download_button(_("Download my teacher link"), link + "\n", f"class-{who.code}-teacher-link.txt",
                             "text/plain", key=f"{PAGE}.teacher_link", icon=":material/key:", on_click="ignore")
    words, qr = st.columns([3, 2], gap="large")
    named = html.escape(_("class code"), quote=True)
    with words:
        st.html(f"{CSS}<div class='tl-class-title'>{html.escape(info.title)}</div>"  # big: read from the back row
                f"<div class='tl-class-code' aria-label='{named}'>"
                f"{html.escape(who.code)}</div>")
        st.markdown(_("Join at"))
        st.code(learner_url(who.code), language=None)
        st.caption(_("Open any page and press “Pose to the class” under a question: every learner gets it on their "
                     "screen, in their own language when it is one of the lab's questions, and the class bar above "
                     "shows how many answered (and how many joined, live)."))
    with qr:
        st.image(qr_png(learner_url(who.code)), caption=_("Scan to join"), width=260)


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
            st.session_state[OWN_SAID] = ("success", _("Posed to the class: see the class bar at the top of the "
                                                       "page."))
        else:
            st.session_state[OWN_SAID] = ("success", _("Kept with the class: pose it below when you are ready."))
    except ClassError as exc:
        st.session_state[OWN_SAID] = ("warning", exc.said())
    except (ExerciseError, LessonError) as exc:
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
    assert who is not None  # the page draws this section for the class's teacher only (pages/13_Class.py)
    with st.expander(_("Your own questions (the lab computes the answers)"), icon=":material/edit_note:"):
        kinds = list(own.KINDS)
        titles = {k: _(own.KINDS[k].title) for k in kinds}  # in this run's language (a format_func runs later too)
        name = st.selectbox(_("Kind of question"), kinds, key=OWN_KIND.skey, format_func=titles.__getitem__)
        kind = own.KINDS[name]
        if "tokenizer" in kind.blanks:
            options = [e.key for e in choices.entries(("real", "lab"))]
            if st.session_state.get(OWN_TOKENIZER.skey) not in options:
                st.session_state[OWN_TOKENIZER.skey] = DEFAULT_TOKENIZER if DEFAULT_TOKENIZER in options else options[0]
            labels = {k: choices.option_label(k) for k in options}
            st.selectbox(_("Tokenizer"), options, key=OWN_TOKENIZER.skey, format_func=lambda k: labels.get(k, k))
        if "text" in kind.blanks:
            st.text_area(_("Text"), key=OWN_TEXT.skey, max_chars=own.MAX_OWN_TEXT, height=80,
                         placeholder=_("for example: {text}", text="मेरा नाम आशा है, and I love chai"))
        if "texts" in kind.blanks:
            for i, key in enumerate(OWN_TEXTS):
                st.text_input(_("Text {letter} (if you want a fourth)", letter="D") if i == 3
                              else _("Text {letter}", letter="ABCD"[i]), key=key.skey, max_chars=own.MAX_CHOICE)
        if "corpus" in kind.blanks:
            st.text_area(_("Corpus (the training text)"), key=OWN_CORPUS.skey, max_chars=own.MAX_OWN_CORPUS,
                         height=100, placeholder=_("for example: {text}",
                                                   text="low low low lower lowest newer newest"))
            with st.container(horizontal=True):
                st.selectbox(_("Unit"), list(UNIT_NAMES), key=OWN_UNIT.skey, format_func=translated(UNIT_NAMES).__getitem__)
                st.selectbox(_("Split at"), list(own.SPLITS), key=OWN_SPLIT.skey,
                             format_func=translated(own.SPLITS).__getitem__)
                st.selectbox(_("Ties"), list(own.TIES), key=OWN_TIES.skey, format_func=translated(own.TIES).__getitem__)
                st.number_input(_("Which merge"), min_value=1, max_value=MAX_CORPUS_MERGES, value=1, step=1,
                                key=OWN_STEP.skey)
        table, q = None, None
        try:
            table = own.exercise(name, _own_values(kind))
            q = _own_question(table, who.code)
        except own.OwnError as exc:
            st.caption(exc.said())
        except (ExerciseError, LessonError) as exc:
            st.warning(md_escape(_("The lab cannot ask that: {why}", why=str(exc))))
        if q is not None:
            too_long = next((o for o in q.options if len(o) > own.MAX_CHOICE), None)
            st.markdown(_("**The question, as your learners will read it**"))
            st.html(callout_html(q.prompt, "info"))
            st.markdown(_("**Only you see this**"))
            st.html(callout_html(_preview(q), "success"))
            if too_long:
                st.warning(_("An option is longer than {n} characters: use a shorter text.",
                             n=number(own.MAX_CHOICE)))
            with st.container(horizontal=True):
                st.button(_("Pose it now"), key=OWN_POSE.skey, type="primary", on_click=_keep, args=(who, table),
                          kwargs={"pose_now": True}, disabled=bool(too_long), icon=":material/groups:")
                st.button(_("Keep it for later"), key=OWN_KEEP.skey, on_click=_keep, args=(who, table),
                          kwargs={"pose_now": False}, disabled=bool(too_long))
        if said := st.session_state.pop(OWN_SAID, None):
            st.html(callout_html(said[1], said[0]))
        kept_section(who)


def kept_section(who: classroom.Teaching) -> None:
    """The questions kept with the class: each with its answer and a Pose button; the lesson file they make."""
    exercises = uis_own.class_exercises(who.code)
    if not exercises:
        return
    st.markdown(_("**Kept with this class** ({n})", n=number(len(exercises))))
    for exercise in exercises:
        with st.container(border=True, key=f"own-{exercise.id}"):
            try:
                q = questions.exercise_question(exercise)
            except ExerciseError as exc:
                st.warning(md_escape(_("{prompt}: the lab cannot compute it here ({why})", prompt=exercise.prompt,
                                       why=str(exc))))
                continue
            st.html(callout_html(q.prompt + "\n" + _("The lab's answer: {answer}", answer=answer_text(q.answer)),
                                 "info"))
            st.button(_("Pose"), key=f"{PAGE}.own.pose.{exercise.id}", on_click=_pose_kept, args=(q,),
                      icon=":material/groups:")
    tables = [{"id": e.id, "prompt": e.prompt, "answer": {"op": e.op, **e.args}, "explain": e.explain}
              for e in exercises]
    title = classroom.store().about(who.code, secret=who.secret).title
    st.download_button(_("Download them as a lesson file"), own.lesson_file(who.code, title, tables),
                       f"{own.lesson_id(who.code)}.md", "text/markdown", key=f"{PAGE}.own.lesson", on_click="ignore",
                       icon=":material/download:", help=_("A lesson file: the Lessons page opens it (“Open a lesson "
                                                          "file”), and `python -m lessons check --course FILE` checks "
                                                          "it."))


def _pose_kept(q) -> None:
    try:
        classroom.pose(q, where="")
        st.session_state[OWN_SAID] = ("success", _("Posed to the class: see the class bar at the top of the page."))
    except ClassError as exc:
        st.session_state[OWN_SAID] = ("warning", exc.said())


def _end(who: classroom.Teaching) -> None:
    try:
        classroom.store().end(who.code, who.secret)
    except ClassError as exc:
        st.session_state[MESSAGE] = ("warning", exc.said())
        return
    classroom.class_ended(who.code)
    st.session_state[JUST_ENDED] = True


JUST_ENDED = state.Key(PAGE, "_just_ended").skey
REFRESH = state.Key(PAGE, "refresh")


def dashboard_section() -> None:
    """The teacher's dashboard (names: folded away from the projector): the report, then its downloads and End (or,
    once ended, Leave)."""
    with st.expander(_("Teacher's dashboard (names: not for the projector)"), expanded=classroom.ended() is not None):
        _report()
        _downloads()


REPORT_WORDS = state.Key(PAGE, "_report_words").skey


def _report_words() -> dict[str, str]:
    """The report's words for its questions, in the teacher's language: the report adds to them each time it runs,
    and the who-answered-what download reads them when it is clicked, outside any run (one dict for the session)."""
    return st.session_state.setdefault(REPORT_WORDS, {})


def _follow_the_end() -> None:
    """After End or Leave (their callbacks run before the fragment that drew them): the whole page, so the projector's
    part says the class has ended."""
    if st.session_state.pop(JUST_ENDED, False):
        st.rerun()


@st.fragment
def _report() -> None:
    """The report as the class stands now: a fragment that a teacher's step (a push) and "Refresh" run again without
    the page."""
    _follow_the_end()
    who = classroom.teaching()
    if who is None:
        return
    store = classroom.store()
    try:
        board = store.dashboard(who.code, who.secret)
        now = store.versions([who.code]).get(who.code)
    except ClassError as exc:
        st.warning(exc.said())
        return
    if now is not None:  # the teacher's steps (a Reveal keeps everyone's answers) bring the report up to date
        push.watch(who.code, teacher=False, seen=now, name="report")
    seen: dict[str, Question | None] = {}  # each of the lab's questions rebuilt once for the tables and the words
    report_tables(board, seen)
    words = _report_words()
    words.update({key: _words(key, prompt, seen) for key, prompt in
                  {(r.question_key, r.prompt) for r in board.answers} | {(q.question_key, q.prompt) for q in board.questions}})
    st.button(_("Refresh"), key=REFRESH.skey, icon=":material/refresh:", type="tertiary",
              help=_("Read the report again (the downloads are always as the class stands when you click them)."))


@st.fragment
def _downloads() -> None:
    """The report's downloads, each built from the database when it is clicked, so it holds every answer given until
    then; then End (or Leave). A fragment of their own, which the report's pushes do not run again: Streamlit forgets a
    download made at the click as soon as its button is drawn again, so a teacher who clicked while a push redrew the
    report got a failed download. Drawn without reading the database (the report has read it)."""
    _follow_the_end()
    who, done = classroom.teaching(), classroom.ended()
    if who is None:
        return
    store, code, secret, words = classroom.store(), who.code, who.secret, _report_words()

    def fresh():  # at the click, not when the page last ran (a Reveal since then has kept more answers)
        return store.dashboard(code, secret)

    def named(key: str, prompt: str) -> str:
        return words.get(key) or prompt_of(key, prompt)

    with st.container(horizontal=True):
        st.download_button(_("Download the gradebook (CSV)"), lambda: csv_text(gradebook_rows(fresh())),
                           f"class-{code}.csv", "text/csv", key=f"{PAGE}.csv", on_click="ignore",
                           icon=":material/download:",
                           help=_("One row per learner: answered, right at the first try, each question."))
        st.download_button(_("Download who answered what (CSV)"), lambda: csv_text(answer_rows(fresh(), named)),
                           f"class-{code}-answers.csv", "text/csv", key=f"{PAGE}.answers_csv",
                           on_click="ignore", icon=":material/download:",
                           help=_("One row per learner, question and round: their first and final answer, right "
                                  "or not."))
        st.download_button(_("Download the report (JSON)"),
                           lambda: json.dumps(as_json(fresh()), ensure_ascii=False, indent=1),
                           f"class-{code}.json", "application/json", key=f"{PAGE}.json", on_click="ignore",
                           icon=":material/data_object:")
    if done is None:
        with st.container(horizontal=True):
            st.button(_("End the class"), key=END.skey, on_click=_end, args=(who,),
                      help=_("Learners can no longer answer and their names are replaced by “Learner 1”, “Learner "
                             "2”…; everything they answered stays in this report until the class expires."))
            st.button(_("Leave teacher mode in this browser"), key=LEAVE.skey, on_click=_leave,
                      type="tertiary", help=_("This browser forgets the class (a shared projector, say); the class "
                                              "goes on, and your teacher link still works."))
    else:
        st.button(_("Leave this class in this browser"), key=LEAVE.skey, on_click=_leave, args=(True,),
                  type="tertiary", help=_("The report stays on the server until the class expires: open your "
                                          "teacher link again to see it."))


def _leave(ended: bool = False) -> None:
    classroom.dismiss_ended() if ended else classroom.leave()
    st.session_state[JUST_ENDED] = True  # (the whole page follows)


def _lab(key: str, seen: dict[str, Question | None]) -> Question | None:
    """The lab's own question ``key`` names, in this run's language (once per key and report: ``seen``)."""
    if key not in seen:
        seen[key] = questions.lab_question(key)
    return seen[key]


def _words(key: str, prompt: str, seen: dict[str, Question | None]) -> str:
    """A question as the report names it: the lab's own question in the teacher's language now (a learner may have
    read it in another), else as it was posed or kept."""
    q = _lab(key, seen)
    return (q.prompt if q is not None else "") or prompt or question_text(key)


def report_tables(board, seen: dict[str, Question | None] | None = None) -> None:
    """The dashboard's tables: each question, each learner, each round of each poll, and who answered what. The
    lab's own questions are named in the teacher's language, and their answers that are the lab's own words too
    (whichever language a learner answered in, the answer is one value: one count)."""
    if not board.questions:
        st.caption(_("No answers yet."))
        return
    seen = {} if seen is None else seen

    def said(key: str, answer: str | None) -> str:
        q = _lab(key, seen)
        return _(answer) if answer and q is not None and q.lab_options else (answer or "")

    def counts(key: str, pairs) -> str:
        return "; ".join(f"{said(key, a)} ({number(n)})" for a, n in pairs)

    st.dataframe(pd.DataFrame([{
        _("question"): _short(_words(q.question_key, q.prompt, seen)), _("answered"): q.answered,
        _("right at first try (%)"): q.percent_right, _("commonest wrong answers"): counts(q.question_key, q.wrong),
        _("not revealed yet"): q.pending} for q in board.questions]), hide_index=True, width="stretch")
    if board.learners:
        st.dataframe(pd.DataFrame([{_("learner"): lr.name, _("answered"): lr.answered,
                                    _("right at first try"): lr.right}
                                   for lr in board.learners]), hide_index=True, width="stretch")
    if board.polls:
        st.markdown(_("**Each poll, round by round**"))
        st.dataframe(pd.DataFrame([{
            _("question"): _words(p.question_id, p.prompt, seen), _("round"): t.round,
            _("answered"): _("{n} of {m}", n=number(t.answered), m=number(t.joined)),
            _("answers"): counts(p.question_id, t.counts.items()),
            _("commonest wrong"): counts(p.question_id, p.wrong[i] if i < len(p.wrong) else []),
            _("lab's answer"): said(p.question_id, p.truth) if p.truth else _("not revealed")}
            for p in board.polls for i, t in enumerate(p.rounds)]), hide_index=True, width="stretch")
    if board.answers:
        st.markdown(_("**Who answered what**"))
        st.dataframe(pd.DataFrame([{
            _("learner"): r.name, _("question"): _words(r.question_key, r.prompt, seen), _("asked"): _(r.asked),
            _("round"): "" if r.round is None else r.round, _("first answer"): said(r.question_key, r.first),
            _("final answer"): said(r.question_key, r.final),
            _("final answer right"): "" if r.final_right is None else _("yes") if r.final_right else _("no"), _("sent"): r.sent}
            for r in board.answers]), hide_index=True, width="stretch")


def question_text(key: str) -> str:
    """A question's prompt for the dashboard, or its key when the lab cannot rebuild it here."""
    q = questions.from_key(key)
    return (q.prompt if q else "") or key


def _short(words: str) -> str:
    """A question's words as the per-question table shows them: at most 90 characters."""
    return words if len(words) <= 90 else words[:89] + "…"


CSS = """<style>
.tl-class-title { font-size: 2.2rem; font-weight: 700; line-height: 1.25; overflow-wrap: anywhere; }
.tl-class-code { font-size: 4rem; font-weight: 700; letter-spacing: .3rem; font-family: monospace; }
</style>"""


__all__ = ["CODE", "CSS", "PARAMS", "dashboard_section", "learner_section", "outside_section",
           "own_questions_section", "projector_section", "take_teacher_link"]
