"""This browser in a class: as a learner who joined it, or as its teacher. The kit's one door to the class store.

A class lives in the database (:mod:`lessons.classroom`: SQLite by default, PostgreSQL for several machines);
what a browser session keeps is only who it is there:

- a learner: the class code, their learner id (their key: never shown), their name and resume code; the browser
  keeps ``CODE.RESUMECODE`` in a cookie, so a reload finds the class again (or is told it has ended);
- the teacher: the class code and the teacher's secret, taken from the teacher link once and then kept in the
  session only (the Class page drops it from the address bar, so the projector never shows it); the browser
  keeps a key of its own in a cookie (never the secret), so a reload is the teacher again.

Who the client is, for the join limit, is the address the lab's own proxy saw (:func:`client`); a class that
ended says so, lastingly, in each one's words (:func:`class_ended`, :func:`ended_text`).

The predict widget (:mod:`ui.predict`) asks :func:`remember_answer` to keep a learner's answers on the server
and draws :func:`pose_button` for the teacher; the live bar (:mod:`ui.poll`) and the Class page
(:mod:`views.classroom`) use the rest. Without a class nothing here draws anything or touches a database.
"""

from __future__ import annotations

import hmac
import os
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import streamlit as st
from babel.dates import format_date

import i18n
from i18n import _
from lessons.answers import ANSWER_KINDS
from lessons.classroom import (
    ClassEnded,
    ClassError,
    Classes,
    DatabaseUnavailable,
    Learner,
    PollState,
    open_database,
)
from lessons.classroom.db import database_url
from lessons.judging import Question
from ui import viewport
from ui.display import answer_text
from ui.state import Key

PAGE = "class"
MEMBER = Key(PAGE, "member")
"""The session's :class:`Member` when this browser joined a class as a learner."""
TEACHER = Key(PAGE, "teacher")
"""The session's :class:`Teaching` when this browser holds a class's teacher secret."""
POSE_RESULT = "class-posed"
"""The viewport name (:mod:`ui.viewport`) tying each "Pose to the class" button to the class bar."""
POSED = Key(PAGE, "posed")
"""The teacher's session: poll id -> the Question posed (the lab's answer, kept here until Reveal)."""
POSED_NOW, POSE_ERROR = Key(PAGE, "_posed"), Key(PAGE, "_pose_error")
"""Per question (``POSED_NOW.of(q.key)``): "Pose to the class" just posed it; or why it could not."""
LAST_ERROR = Key(PAGE, "last_error")
"""Why the class's server did not keep a learner's answer (the session still has it)."""


@dataclass(frozen=True)
class Member:
    code: str
    learner_id: str
    name: str
    resume_code: str


@dataclass(frozen=True)
class Teaching:
    code: str
    secret: str


@st.cache_resource(show_spinner=False)
def _classes(url: str) -> Classes:
    """One store per database URL and process (SQLite: one connection; PostgreSQL: one pool)."""
    return Classes(open_database(url))


def store() -> Classes:
    """The class store of this server (``LAB_DATABASE_URL``, else ``LAB_DATA_DIR``/classes.sqlite3)."""
    return _classes(database_url())


PROXY_TOKEN = "LAB_PROXY_TOKEN"
"""The environment variable holding the token scripts/serve gives its nginx and its replicas alike."""


def client() -> str:
    """What the join limit counts wrong codes by: the learner's address as the lab's own proxy saw it, and
    nothing a client can choose.

    Behind scripts/serve, nginx sends ``X-Lab-Client`` (the address it saw, replacing any the client sent) with
    ``X-Lab-Proxy`` (the run's token, in this replica's ``LAB_PROXY_TOKEN``): the address is taken only with the
    token, so only from that nginx. Without a proxy (``scripts/run``), the connection's own address. A client's
    ``X-Forwarded-For`` is never read: one header used to give every try an address of its own."""
    headers = st.context.headers
    token = os.environ.get(PROXY_TOKEN, "")
    sent = headers.get("X-Lab-Proxy") if token else None
    if isinstance(sent, str) and hmac.compare_digest(sent.encode(), token.encode()):
        address = headers.get("X-Lab-Client")
    else:
        address = st.context.ip_address
    return address.strip() if isinstance(address, str) else ""


def member() -> Member | None:
    return st.session_state.get(MEMBER.skey)


def teaching() -> Teaching | None:
    return st.session_state.get(TEACHER.skey)


def learning_in() -> str | None:
    """The code of the class this browser is in as a learner, or None (an answer given now is the class's)."""
    who = member()
    return who.code if who else None


def in_class() -> str | None:
    """The code of the class this browser is in (as a learner or its teacher), or None."""
    who = teaching() or member()
    return who.code if who else None


def become_member(learner: Learner) -> Member:
    """This session is ``learner``'s in their class from now; returns the member it keeps."""
    st.session_state.pop(ENDED.skey, None)  # a class of its own now: an ended one is behind it
    who = Member(learner.code, learner.learner_id, learner.name, learner.resume_code)
    st.session_state[MEMBER.skey] = who
    return who


def become_teacher(code: str, secret: str) -> bool:
    """Keep the teacher's secret in this session if it is the class's; False (and nothing kept) if not. A database
    that cannot be used raises its :class:`DatabaseUnavailable` (saying so, not "not your class")."""
    try:
        ok = store().is_teacher(code, secret)
    except DatabaseUnavailable:
        raise
    except ClassError:
        ok = False
    if ok:
        st.session_state.pop(ENDED.skey, None)
        st.session_state[TEACHER.skey] = Teaching(code.strip().upper(), secret)
        _remember_teacher(code.strip().upper(), secret)
    return ok


def leave(*, forget: bool = True) -> None:
    """Forget the class in this browser (the class and the answers stay on the server). ``forget=False``: the
    browser's cookie stays (a class that ended: a reload says so again, until the learner dismisses it). A
    teacher's browser forgets its key too (the key stops working; the teacher link still works)."""
    if member() is not None and forget:
        _set_cookie(COOKIE, "", 0)
    who = teaching()
    if who is not None and forget:
        key = st.session_state.pop(TEACHER_KEY, None)
        if key:
            try:
                store().forget_browser(who.code, key)
            except ClassError:
                pass
        _set_cookie(TEACHER_COOKIE, "", 0)
    for key in (MEMBER, TEACHER, POSED):
        st.session_state.pop(key.skey, None)


# -- a class that ended: said lastingly, to each in their own words -------------------------------------------
ENDED = Key(PAGE, "ended")
"""The session's :class:`Ended` once its class has ended (it stays until dismissed)."""


@dataclass(frozen=True)
class Ended:
    code: str
    title: str
    teacher: bool
    name: str = ""
    expires: datetime | None = None
    refused: bool = False
    """A learner's answer reached the class after it ended (it was not counted)."""


def ended() -> Ended | None:
    return st.session_state.get(ENDED.skey)


def class_ended(code: str, *, refused: bool = False) -> Ended:
    """This browser's class has ended (found by the class bar, a vote, a reload, or the teacher's own End): keep
    saying so in this session. A learner leaves it (their browser's cookie stays, so a reload says so again); the
    teacher keeps the class's secret, for its report (the Class page's dashboard and downloads)."""
    who_teaches, who_learns = teaching(), member()
    title, expires = "", None
    try:
        info = store().about(code, secret=who_teaches.secret) if who_teaches else \
            store().about(code, learner_id=who_learns.learner_id) if who_learns else None
        title, expires = (info.title, info.expires) if info else ("", None)
    except ClassError:
        pass
    done = Ended(code, title, who_teaches is not None, who_learns.name if who_learns else "", expires, refused)
    st.session_state[ENDED.skey] = done
    if who_teaches is None:
        leave(forget=False)
    return done


def dismiss_ended() -> None:
    """The learner (or teacher) has read it: forget the ended class in this browser, cookie and all."""
    done = st.session_state.pop(ENDED.skey, None)
    if done is not None and not done.teacher:
        _set_cookie(COOKIE, "", 0)
    if done is not None and done.teacher:
        leave()


def long_date(when: datetime) -> str:
    """A date as the language writes it in a sentence: 5 January 2027; ५ जनवरी २०२७ is not the lab's (digits stay
    the Latin ones, as every number the lab writes): 5 जनवरी 2027."""
    if i18n.current() == "hi":
        return format_date(when, "d MMMM y", locale="hi_IN")
    return f"{when.day} {when:%B %Y}"


def ended_text(done: Ended, *, here: bool = False) -> str:
    """What an ended class says to this browser (plain text: the display rules draw it). ``here``: on the Class
    page, where the teacher's report is."""
    title = f"“{done.title}”" if done.title else done.code
    if done.teacher:
        where = (_("below: the dashboard and its downloads") if here
                 else _("on the Class page (its dashboard and downloads)"))
        ended = _("Class {code} ({title}) has ended: learners can no longer send answers, and their names are now "
                  "“Learner 1”, “Learner 2”…", code=done.code, title=title)
        kept = (_("Everything the class answered is in its report, {where}, kept until {date}; then it is deleted.",
                  where=where, date=long_date(done.expires)) if done.expires else
                _("Everything the class answered is in its report, {where}; then it is deleted.", where=where))
        return ended + " " + kept
    ended = (_("Your class {title} has ended, {name}.", title=title, name=done.name) if done.name
             else _("Your class {title} has ended.", title=title))
    parts = [ended, _("Everything you answered before the end was kept for your teacher's report; nothing more can "
                      "be sent to it.")]
    if done.refused:
        parts.append(_("Your last answer arrived after the end, so it was not counted."))
    return " ".join([*parts, _("The lab works as before.")])


# -- a reload: the browser remembers the class ----------------------------------------------------------------
COOKIE = "tl_class"
"""A learner's browser keeps ``CODE.RESUMECODE`` (their resume code: what they could type anyway) so that a
reload, which starts a new session, finds them in their class again."""
TEACHER_COOKIE = "tl_teacher"
"""A teacher's browser keeps ``CODE.KEY``: a key of its own (:meth:`Classes.teacher_browser`), never the class's
secret, so that a reload is the teacher again without the teacher link (or the secret in the address bar)."""
TEACHER_KEY = Key(PAGE, "_teacher_key").skey
COOKIES = Key(PAGE, "_cookies").skey
REJOINED = Key(PAGE, "_rejoined").skey
COOKIE_DAYS = 30
_COOKIE_VALUE = re.compile(r"[A-Za-z0-9._-]{0,200}")


def _set_cookie(name: str, value: str, max_age: int) -> None:
    """Ask the browser to keep (or, with ``max_age`` 0, forget) a cookie: written by :func:`write_cookies` in the
    next run of the page (a callback draws nothing)."""
    if _COOKIE_VALUE.fullmatch(value):  # codes and keys the lab made: nothing that could end the script's string
        st.session_state.setdefault(COOKIES, {})[name] = (value, max_age)


def write_cookies() -> None:
    """The cookies asked for since the last run, as the one script that sets them (the class bar calls this)."""
    pending = st.session_state.pop(COOKIES, None)
    slot = st.empty()  # on every run, written or not: what follows (the class bar's fragment) keeps its place, so its
    # id, and the browser runs one timer for it, not a second, stale one from the run that wrote a cookie
    if pending:
        script = "".join(f"document.cookie = '{name}={value}; path=/; max-age={max_age}; SameSite=Strict';"
                         for name, (value, max_age) in pending.items())
        slot.html(f"<script>{script}</script>", unsafe_allow_javascript=True)


def remember_in_browser(who: Member) -> None:
    """After joining: this browser finds the class again after a reload (a cookie for 30 days)."""
    _set_cookie(COOKIE, f"{who.code}.{who.resume_code}", COOKIE_DAYS * 86_400)


def _remember_teacher(code: str, secret: str) -> None:
    """This browser is the class's teacher: a key of its own in a cookie (until the class expires), so a reload
    finds teacher mode again. Nothing is kept if the database cannot make one (the teacher link still works)."""
    try:
        key = store().teacher_browser(code, secret)
        expires = store().about(code, secret=secret).expires
    except ClassError:
        return
    st.session_state[TEACHER_KEY] = key
    seconds = max(60, int((expires - datetime.now(expires.tzinfo)).total_seconds()))
    _set_cookie(TEACHER_COOKIE, f"{code}.{key}", seconds)


def _rejoin_teacher() -> bool:
    """A reload of a teacher's browser: teacher mode again, with its key (the secret is not in the browser)."""
    value = st.context.cookies.get(TEACHER_COOKIE)
    if not isinstance(value, str):
        return False
    code, _sep, key = value.partition(".")
    if not (code.isalnum() and len(code) <= 12 and _COOKIE_VALUE.fullmatch(key) and key):
        return False
    try:
        ok = store().is_teacher(code, key)
    except DatabaseUnavailable:
        st.session_state[REJOINED] = False
        return False
    except ClassError:
        ok = False
    if not ok:
        _set_cookie(TEACHER_COOKIE, "", 0)
        return False
    st.session_state[TEACHER.skey] = Teaching(code.upper(), key)
    st.session_state[TEACHER_KEY] = key
    return True


def rejoin_from_browser() -> Learner | None:
    """A new session (a reload) of a browser that joined a class: the learner again (once per session), or None
    (the teacher's browser: teacher mode again, and None). The code and resume code are only the cookie's if they
    have the shapes the store gives (letters and digits), and the store checks them like typed ones (a wrong one
    counts against the join limit)."""
    if st.session_state.get(REJOINED):
        return None
    st.session_state[REJOINED] = True
    if _rejoin_teacher():
        return None
    value = st.context.cookies.get(COOKIE)
    if not isinstance(value, str):  # no cookie (or no browser: AppTest)
        return None
    code, _sep, resume = value.partition(".")
    if not (code.isalnum() and resume.isalnum() and len(code) <= 12 and len(resume) <= 20):
        return None
    try:
        learner = store().resume(code, resume, client=client())
    except DatabaseUnavailable:
        st.session_state[REJOINED] = False  # the database, not the cookie: the next run looks again
        return None
    except ClassEnded as exc:  # their class ended: say so (the cookie is theirs: no stranger's guess)
        st.session_state[ENDED.skey] = Ended(code.upper(), exc.title, teacher=False)
        return None
    except ClassError:
        return None
    become_member(learner)
    return learner


# -- the predict widget's two hooks -------------------------------------------------------------------------
def remember_answer(q: Question, guess: Any, right: bool) -> None:
    """A learner in a class: keep this answer on the server too (first answer counts there as here), so a
    reload, a restart or another device loses nothing. Questions without a stable id stay in the session."""
    who = member()
    if who is None or q.id is None:
        return
    try:
        store().record_answer(who.code, who.learner_id, q.id.key, answer_text(guess), bool(right))
    except ClassError as exc:  # the class ended, the database is busy: the session still has the answer
        st.session_state[LAST_ERROR.skey] = exc.said()


def payload(q: Question, where: str) -> dict:
    """What a posed question shows on every screen: its prompt, kind and choices, never its answer. ``choices``
    are the answers the store accepts (a choice question's options); an order question's options are ``items``:
    its answer is the items in an order (as choices, every vote was refused as "not one of the choices")."""
    options = ANSWER_KINDS[q.kind].posed_options(q.options)  # by its answer kind (lessons.answers)
    return {"id": q.key, "prompt": q.prompt, "kind": q.kind, **options, "where": where, "unit": q.unit,
            "lab_options": q.lab_options}  # the options are the lab's own words: each screen reads its language


def where_now() -> str:
    """The page and settings on screen, as a path inside the lab (for "take me to the question")."""
    url = st.context.url or ""
    path = "/" + url.split("://", 1)[-1].split("/", 1)[-1] if "://" in url else "/"
    query = "&".join(f"{k}={v}" for k, v in st.query_params.items())
    path = path.split("?", 1)[0]
    return path + (f"?{query}" if query else "")


def pose(q: Question, where: str | None = None) -> PollState:
    """Pose ``q`` to the teacher's class (raises ClassError). ``where``: the page a learner may open for it (by
    default the one on screen; "" for none, as for the teacher's own questions, asked on the Class page)."""
    who = teaching()
    assert who is not None
    state = store().pose(who.code, who.secret, payload(q, (where_now() if where is None else where)[:1000]))
    st.session_state.setdefault(POSED.skey, {})[state.poll_id] = q
    return state


def _pose_clicked(q: Question) -> None:
    """"Pose to the class", before the page's run: the class bar, drawn at the top of the page, shows the question
    in the same run (posed in the run, after the bar was drawn, it showed only at the bar's next tick)."""
    try:
        pose(q)
        st.session_state[POSED_NOW.of(q.key)] = True  # the toast is drawn with the button: a callback that
    except ClassError as exc:  # draws is refused in a fragment's rerun (a question on a slide is in one)
        st.session_state[POSE_ERROR.of(q.key)] = exc.said()


def pose_button(q: Question) -> None:
    """For the teacher: "Pose to the class" beside a question (nothing for anyone else)."""
    if teaching() is None:
        return
    # A click brings the class bar (the count, the teacher's buttons) into view: the question may be far down the page.
    with st.container(key=viewport.action(f"{POSE_RESULT}--{re.sub(r'[^A-Za-z0-9_-]', '-', q.key)}")):
        st.button(_("Pose to the class"), key=f"{PAGE}.pose.{q.key}", icon=":material/groups:",
                  on_click=_pose_clicked, args=(q,),
                  help=_("Every learner in your class gets this question on their screen, in their own language "
                         "when it is one of the lab's questions; you see how many answered and, when you choose, how "
                         "they answered (no names), then reveal the truth."))
    if st.session_state.pop(POSED_NOW.of(q.key), False):
        st.toast(_("Posed to the class: see the class bar at the top of the page."))
    if problem := st.session_state.pop(POSE_ERROR.of(q.key), None):
        st.error(problem)


def posed_question(poll_id: str) -> Question | None:
    return st.session_state.get(POSED.skey, {}).get(poll_id)


def data_dir_note() -> str:
    """Where the class data lives, in words (for the Class page's footnote)."""
    url = database_url()
    if url.startswith("sqlite"):
        return _("Classes are kept in {file} on this server (SQLite).", file=os.path.basename(url))
    return _("Classes are kept in this lab's PostgreSQL database.")


__all__ = ["ENDED", "MEMBER", "POSED", "TEACHER", "Ended", "Member", "Teaching", "become_member", "become_teacher",
           "class_ended", "client", "dismiss_ended", "ended", "ended_text", "long_date",
           "data_dir_note", "in_class", "leave", "rejoin_from_browser", "remember_in_browser", "write_cookies", "member", "payload", "pose", "pose_button", "posed_question",
           "remember_answer", "store", "teaching", "where_now"]
