"""The class bar: a live strip at the top of every page for a browser in a class (nothing for anyone else).

- **A learner** sees the question their teacher posed (with a link to its page when it was posed elsewhere),
  answers it and may change their answer until the teacher closes the round; then discusses; after Reveal,
  sees the lab's answer beside their own, and how the class moved between rounds.
- **The teacher** sees "N of M answered" as votes arrive, and the buttons Show answers (the spread, as a
  chart, without names and without the truth), Vote again (round 2; round 1 is kept), Reveal (the lab's
  answer on every screen) and Close.

Live, and cheap: the bar is a fragment, rerun (not the page) the moment its class moves, pushed by the replica's
watcher (:mod:`ui.push`: a teacher's bar on any change, a learner's on the teacher's steps), and by its own timer
every :data:`POLL_S` seconds (the teacher's every :data:`TEACHER_POLL_S`) as a safety net.
Each run reads the class's version (one row by its key); only when it changed are the poll, the tally or the
learner's own vote read again. A learner's revealed answer is judged by the lab's own rules (the question is
rebuilt from its id, :mod:`ui.questions`) and kept like any answer, so it counts on the teacher's dashboard.

Each screen in its own language: a poll of the lab's own questions is rebuilt by the lab in the screen's language
(:func:`asked`: its prompt, its options that are the lab's own words, its explanation after Reveal), while what is
voted and counted is the poll's value, so a class of Hindi and English learners has one tally. A teacher's own
question is read as the teacher wrote it.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import parse_qsl

import altair as alt
import pandas as pd
import streamlit as st

import i18n
from i18n import _, number
from lessons.answers import ANSWER_KINDS
from lessons.classroom import PAGE as CLASS_PAGE
from lessons.classroom import ClassError, ClassUnavailable, DatabaseBroken, PollState, Tally, shown_resume
from lessons.exercises import ExerciseError
from lessons.judging import Question, judge
from lessons.progress import check, merge, migrate_v1_key
from ui import (
    charts,
    classroom,
    language,
    layout,
    predict,
    push,
    questions,
    viewport,
)
from ui.answers import draw_vote
from ui.display import answer_text, callout_html, md_escape
from ui.state import Key

POLL_S = 10
"""Seconds between two looks at the class on a learner's screen by its own timer: a safety net. A posed question,
Show answers and Reveal reach it at once, pushed by the replica's watcher (:mod:`ui.push`); at 1.5 s, 120 learners'
timers alone kept 0.7 of a core busy between questions."""
TEACHER_POLL_S = 3
"""Seconds between two looks on the teacher's screen by its own timer: a safety net. A vote or a join reaches "N
of M answered" at once, pushed by the replica's watcher (:mod:`ui.push`). (At 1 s, a vote waited up to a whole tick
and then the tick itself: p95 1.05-1.24 s with 120 learners, 2.12 s with a replica killed.)"""
SEEN = "class.seen"  # (code, version, poll, tallies, my vote) last read
SHOW, AGAIN, REVEAL, CLOSE = (Key(classroom.PAGE, n) for n in ("show", "again", "reveal", "close"))
"""The teacher's buttons in the class bar."""


def answer_key(poll: PollState) -> Key:
    """A learner's answer widget for the poll's current round."""
    return Key(classroom.PAGE, f"answer.{poll.poll_id}.{poll.round}")


def send_key(poll: PollState) -> Key:
    """A learner's "Send my answer" button for the poll's current round."""
    return Key(classroom.PAGE, f"send.{poll.poll_id}.{poll.round}")


def _read(code: str, learner_id: str | None, secret: str | None = None
          ) -> tuple[PollState | None, list[Tally], str | None, list[str]]:
    """The class as this screen shows it (the poll, its tallies, this learner's vote; for the teacher, who has
    joined), read again only when the class's version moved (a join moves it too: the count is live)."""
    store = classroom.store()
    now = store.versions([code]).get(code)
    if now is None:
        raise ClassUnavailable()
    version = now[0]
    push.watch(code, teacher=secret is not None, seen=now)  # rerun this bar when the class moves (ui.push)
    seen = st.session_state.get(SEEN)
    if seen and seen[0] == code and seen[1] == version:
        return seen[2:]
    poll = store.current(code)
    tallies = store.tallies(code, poll.poll_id) if poll else []
    mine = store.my_vote(code, learner_id, poll.poll_id, poll.round) if poll and learner_id else None
    names = store.learners(code, secret) if secret is not None else []
    st.session_state[SEEN] = (code, version, poll, tallies, mine, names)
    return poll, tallies, mine, names


SPREAD_LARGE = charts.Sizes(label=28, title=24, mark=28, step=40, small=24)
"""The spread on a projector, read from the back of the room: its answers and counts larger than the page's large
type (22 px)."""


def _spread(tallies: list[Tally], choices: list[str] | None, right: tuple[str, ...] = (), *,
            large: bool = False, lab_options: bool = False) -> alt.LayerChart:
    """Each answer's votes, one bar per round (the shift between rounds), no names. On each bar its count and
    share of that round ("12 · 40%", and "round 2: " before it when there are rounds to tell apart: never by
    colour alone; round 2's bars are dashed too); after Reveal the right answers are marked "✓" and outlined
    heavily. In the lab's chart look (:mod:`ui.charts`: black text, colour-blind-safe colours). Its words are the
    screen's language; an answer that is the lab's own words (``lab_options``) is too: one bar, whoever voted it."""
    size = SPREAD_LARGE if large else charts.sizes(False)
    several = len(tallies) > 1
    answers = list(choices or [])
    for t in tallies:
        answers += [a for a in t.counts if a not in answers]
    if not choices:
        answers.sort(key=str.casefold)
    words = {a: _(a) if lab_options else a for a in answers}  # the value stays the bar's; its words, the screen's
    shown = {a: (f"✓ {words[a]}" if a in right else words[a]) for a in answers}
    rows = []
    for t in tallies:
        for a in answers:
            votes = t.counts.get(a, 0)
            share = round(100 * votes / t.answered) if t.answered else 0
            count = f"{number(votes)} · {number(share)}%"
            label = (_("round {round}: {count}", round=number(t.round), count=count) if several else count) \
                if votes else ""
            rows.append({"answer": shown[a], "round": _("round {round}", round=number(t.round)), "votes": votes,
                         "right": a in right, "label": label})  # (nobody's answer: no words on an empty bar)
    data = pd.DataFrame(rows or [{"answer": _("(no votes yet)"), "round": _("round {round}", round=number(1)),
                                  "votes": 0, "right": False, "label": ""}])
    top = max(1, int(data["votes"].max()))
    base = alt.Chart(data).encode(
        y=alt.Y("answer:N", sort=[shown[a] for a in answers] or None, title=None,
                axis=alt.Axis(labelFontSize=size.label, labelLimit=600, labelFontWeight="bold")),
        yOffset=alt.YOffset("round:N"),
    )
    bars = base.mark_bar(stroke=charts.TEXT).encode(
        x=alt.X("votes:Q", title=None, scale=alt.Scale(domain=[0, top], nice=False),
                axis=alt.Axis(tickMinStep=1, format="d", labelFontSize=size.label)),  # (the bars say "learners")
        color=alt.Color("round:N", title=None, legend=alt.Legend(orient="bottom", labelFontSize=size.label)
                        if several else None, scale=alt.Scale(range=[charts.BLUE, charts.ORANGE, charts.TEAL])),
        strokeWidth=alt.condition(alt.datum.right, alt.value(4), alt.value(1)),
        strokeDash=alt.StrokeDash("round:N", legend=None, scale=alt.Scale(range=[[1, 0], [8, 4], [2, 2]])),
        tooltip=[alt.Tooltip("answer:N", title=_("Answer")), alt.Tooltip("round:N", title=_("Round")),
                 alt.Tooltip("votes:Q", title=_("Votes")), alt.Tooltip("label:N", title=_("Count and share"))],
    )
    text = base.mark_text(align="left", dx=6, fontSize=size.mark, fontWeight="bold").encode(
        x="votes:Q", text="label:N")
    return (bars + text).properties(height=alt.Step(size.step))  # one screen: Train's figure still shows under it


@st.cache_data(max_entries=256, show_spinner=False)
def _spread_spec(counts: tuple[tuple[int, int, tuple[tuple[str, int], ...]], ...], choices: tuple[str, ...] | None,
                 right: tuple[str, ...], large: bool, lang: str = "en", lab_options: bool = False) -> dict:
    """The spread's Vega-Lite spec, built once per tallies and language for every screen: after Reveal every
    learner's bar draws the same chart in the same second (built and validated on each of 120 screens, it took
    seconds of the server's CPU)."""
    tallies = [Tally(r, answered, 0, dict(c)) for r, answered, c in counts]
    with i18n.using(lang):
        return charts.spec(_spread(tallies, list(choices) if choices else None, right, large=large,
                                   lab_options=lab_options), large=large, lang=lang)


def _draw_spread(poll: PollState, tallies: list[Tally]) -> None:
    counts = tuple((t.round, t.answered, tuple(t.counts.items())) for t in tallies)
    choices = poll.question.get("choices")
    right = tuple(sorted({a for a, ok in poll.verdicts.items() if ok}
                         | ({poll.truth} if poll.truth is not None else set()))) if poll.phase == "revealed" else ()
    charts.draw(_spread_spec(counts, tuple(choices) if choices else None, right, layout.large_type_on(),
                             i18n.current(), bool(poll.question.get("lab_options"))))


ASKED = "class.asked"  # (poll id, language) -> the posed question as the lab rebuilt it in that language (or None)


def asked(poll: PollState) -> Question | None:
    """The posed question as the lab asks it in this screen's language, when the lab can rebuild it from its id (one
    of the lab's own questions: not a teacher's own, which stays as the teacher wrote it), and it offers the same
    answers the poll does; else None (the poll's own words are shown). The votes are the poll's values either
    way (an option's value, a number): a Hindi and an English learner vote into one tally."""
    seen = st.session_state.setdefault(ASKED, {})
    key = (poll.poll_id, i18n.current())
    if key not in seen:
        q = questions.lab_question(poll.question.get("id", ""))
        offered = classroom.payload(q, "") if q is not None else {}
        if q is not None and (q.kind != poll.question.get("kind") or any(
                offered.get(f) != poll.question.get(f) for f in ("choices", "items", "lab_options"))):
            q = None  # not the question that was posed (another version of the lab): the poll's words
        seen[key] = q
    return seen[key]


def prompt(poll: PollState) -> str:
    """The posed question's prompt in this screen's language (the lab's own question), else as it was posed."""
    q = asked(poll)
    return q.prompt if q is not None else poll.question.get("prompt", "")


def answer_words(poll: PollState, value: str | None) -> str:
    """A vote or the lab's answer (a value, as kept) as this screen reads it: the lab's own words in its language."""
    if value is None:
        return _("none")
    return _(value) if poll.question.get("lab_options") else value


def _guess(text: str, q: Question) -> Any:
    """A vote (text) as the answer widget of its question's kind gives it, for judging (lessons.answers)."""
    return ANSWER_KINDS[q.kind].from_vote(text)


def _judge_revealed(poll: PollState, who: classroom.Member) -> tuple[bool | None, str | None]:
    """After Reveal, once per poll: whether the learner's latest vote is right (the verdict the teacher's Reveal
    made for the whole class and the poll keeps; None without a vote) and that vote, kept for the bar's later
    ticks. The server kept their first answer at Reveal already: this session only learns it too (so the page's
    own question shows it answered), unless it answered that question first."""
    judged = st.session_state.setdefault("class.judged", {})
    if poll.poll_id in judged:
        return judged[poll.poll_id]
    store = classroom.store()
    votes = [v for r in range(1, poll.round + 1)
             if (v := store.my_vote(who.code, who.learner_id, poll.poll_id, r)) is not None]
    first, latest = (votes[0], votes[-1]) if votes else (None, None)
    right = poll.verdicts.get(latest) if latest is not None else None
    q = questions.from_key(poll.question["id"])
    if q is not None and first is not None and not predict.answered(q.key):
        predict.record(q, _guess(first, q), kept=True)
    judged[poll.poll_id] = (right, latest)
    return right, latest


def judge_for(q: Question):
    """The lab's rule for a poll's answers (text, as the class sent them): what Reveal judges every vote by."""
    return lambda text: judge(q, _guess(text, q))[0]


def _link_to(where: str) -> None:
    """"Open the question's page", when it was posed on another page than this one (in-app: the session and
    its class stay)."""
    path, _sep, query = where.partition("?")
    entry = next((e for e in layout.PAGES if "/" + e.url_path == path), None)
    if entry is None or path == classroom.where_now().split("?", 1)[0]:
        return
    st.page_link(entry.path, label=_("Open the question's page: {page}", page=_(entry.title)),
                 icon=":material/arrow_forward:",
                 query_params=_own_settings(query))


def _own_settings(query: str) -> dict[str, str]:
    """The page's settings the teacher posed from, with this screen's own language and type size (not the
    teacher's: a Hindi learner opens it in Hindi)."""
    mine = (layout.LARGE_TYPE_PARAM, layout.CLASSROOM.param, language.PARAM)
    return {k: v for k, v in parse_qsl(query) if k not in mine} | (layout.link_params() or {})


def restore_answers(who: classroom.Member) -> int:
    """A learner who joins again (a reload, another device): the answers the server kept come back into this
    session, each checked against its question and judged by the lab as a loaded progress file's are; what this
    session has already answered stays. Returns how many came back."""
    kept = [a for a in classroom.store().answers(who.code, who.learner_id) if a.attempt == 1]
    loaded, rebuilt = [], {}
    for answer in kept:
        qid = migrate_v1_key(answer.question_key)
        if qid is None:
            continue
        q = rebuilt[qid.key] = questions.from_key(answer.question_key)
        loaded.append((qid, _guess(answer.guess, q) if q else answer.guess))

    def resolve(qid):  # each question rebuilt once: check() asks again for the one just rebuilt
        q = rebuilt.get(qid.key)
        return q if q is not None else questions.resolve(qid)

    entries, _problems = check(loaded, resolve, (ExerciseError,))
    entries = {key: entry | {"class": who.code} for key, entry in entries.items()}  # the class's, not the browser's own
    merged, added, _kept = merge(predict.store(), entries)  # and in the store of the class's context
    predict.set_store(merged)
    return len(added)


def _learner(who: classroom.Member) -> None:
    poll, tallies, mine, _names = _read(who.code, who.learner_id)
    if poll is None:
        st.caption(md_escape(_("Class {code} · {name} · waiting for your teacher's question. Your resume code: "
                               "{resume}", code=who.code, name=who.name, resume=shown_resume(who.resume_code))))
        return
    st.markdown(_("**Your teacher asks** (round {round}):", round=number(poll.round)))
    st.html(callout_html(prompt(poll), "info"))
    _link_to(poll.question.get("where") or "")
    if poll.phase == "open":
        answer = draw_vote(poll.question, answer_key(poll).skey)  # by its answer kind (ui.answers)
        if st.button(_("Send my answer"), key=send_key(poll).skey, type="primary"):
            if answer is None or str(answer).strip() == "":
                st.warning(_("Choose or type an answer first, then send it."))
            else:
                text = answer_text(answer) if not isinstance(answer, str) else answer
                try:
                    classroom.store().vote(who.code, who.learner_id, poll.poll_id, poll.round, text,
                                           vote_id=uuid.uuid4().hex)
                    st.session_state.pop(SEEN, None)
                    mine = text
                except ClassError as exc:
                    st.warning(exc.said())
        st.caption(md_escape(_("Your answer: {answer}. You can change it until your teacher closes the round.",
                               answer=answer_words(poll, mine)))
                   if mine else _("Nobody sees who answered what: your teacher sees only how many chose each answer."))
    elif poll.phase == "shown":
        st.caption(md_escape(_("Votes are closed. Your answer: {answer}. Talk it over with your neighbour: why might "
                               "the lab say otherwise?", answer=answer_words(poll, mine))))
    else:
        right, mine = _judge_revealed(poll, who)
        q = asked(poll)  # its explanation in this screen's language, when the lab can rebuild it
        explanation = q.explain if q is not None else poll.explanation
        truth = answer_words(poll, poll.truth)
        said = _("The lab's answer: {answer}.", answer=truth)
        if mine is not None:
            said += "\n" + (_("Your answer: {answer}: right!", answer=answer_words(poll, mine)) if right
                            else _("Your answer: {answer}.", answer=answer_words(poll, mine)))
        st.html(callout_html(said + (f"\n{explanation}" if explanation else ""), "success" if right else "info"))
        with st.expander(_("How the class voted")):  # folded: on a phone the spread was taller than the screen
            _draw_spread(poll, tallies)


STEP_ERROR = f"{classroom.PAGE}._step_error"


def _step(action: str, who: classroom.Teaching, *args: str, **kwargs: Any) -> None:
    """A teacher's button (Show answers, Vote again, Reveal, Close), before the bar's run: the bar then draws the
    new state. (A callback, not ``if st.button(): ...; st.rerun(scope="fragment")``: that rerun raises when the
    click arrives in a full run of the page, not the fragment's own.)"""
    try:
        getattr(classroom.store(), action)(who.code, who.secret, *args, **kwargs)
    except ClassError as exc:
        st.session_state[STEP_ERROR] = exc.said()
    st.session_state.pop(SEEN, None)


def _joined(names: list[str], *, metric: bool = True) -> None:
    """How many joined (live: a join moves the class's version) and, for the teacher to open, who: the names are
    folded away, never drawn on the projector unless asked. ``metric=False``: the count is already in "N of M
    answered" (M is who joined), so only the names."""
    if metric:
        st.metric(_("Joined"), number(len(names)), width="content")
    with st.popover(_("Who is here"), icon=":material/group:", help=_("The learners' names, in the order they "
                    "joined (only on your screen; open it when the projector is not showing it).")):
        if names:
            st.markdown("\n".join(f"{number(i)}. {md_escape(name)}" for i, name in enumerate(names, 1)))
        else:
            st.caption(_("Nobody has joined yet."))


def _teacher(who: classroom.Teaching) -> None:
    poll, tallies, _mine, names = _read(who.code, None, who.secret)
    if poll is None:
        with st.container(horizontal=True, vertical_alignment="center", gap="small"):
            st.caption(md_escape(_("Class {code} · you are its teacher. Every question in the lab has a “Pose to "
                                   "the class” button.", code=who.code)))
            _joined(names)
        return
    now = tallies[-1] if tallies else None
    # The lab's own question in this screen's language (the teacher may have switched since posing; kept per poll and
    # language: not rebuilt on every tick), else the one this session posed, else rebuilt (another session posed it).
    mine, posed = asked(poll), classroom.posed_question(poll.poll_id)
    q = (mine if mine is not None and (posed is None or posed.id == mine.id)
         else posed or questions.from_key(poll.question.get("id", "")))
    # Compact, so the page's own figure stays on the projector's first screen: the count and the four steps in
    # one row (it wraps on a narrow screen), and once answers are shown, the spread beside them, not under them.
    words, spread = st.columns([2, 3]) if poll.phase != "open" else (st.container(), None)
    with words:
        st.markdown(md_escape(_("Posed (round {round}): {prompt}", round=number(poll.round), prompt=prompt(poll))))
        with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
            st.metric(_("Answered"), _("{n} of {m}", n=number(now.answered), m=number(now.joined)) if now
                      else number(0), width="content", help=_("N of M: M is how many joined (live)."))
            st.button(_("Show answers"), key=SHOW.skey, disabled=poll.phase != "open", on_click=_step,
                      args=("show", who))
            st.button(_("Vote again"), key=AGAIN.skey, disabled=poll.phase != "shown", on_click=_step,
                      args=("vote_again", who))
            st.button(_("Reveal"), key=REVEAL.skey, disabled=poll.phase == "revealed" or q is None, on_click=_step,
                      args=("reveal", who, answer_text(q.answer), q.explain[:2000]) if q else ("reveal", who),
                      kwargs={"judge": judge_for(q)} if q else None,
                      help=None if q else _("This question was made from the text on the page that posed it: pose "
                                            "it again from there to reveal its answer."))
            st.button(_("Close"), key=CLOSE.skey, on_click=_step, args=("close_poll", who))
            _joined(names, metric=False)
        if problem := st.session_state.pop(STEP_ERROR, None):
            st.warning(problem)
        if poll.phase == "revealed":
            st.html(callout_html(_("The lab's answer: {answer}.", answer=answer_words(poll, poll.truth)), "success"))
    if spread is not None:
        with spread:
            _draw_spread(poll, tallies)


@st.fragment(run_every=TEACHER_POLL_S)
def _teacher_bar() -> None:
    _bar()


@st.fragment(run_every=POLL_S)
def _learner_bar() -> None:
    _bar()


def _bar() -> None:
    who_teaches, who_learns = classroom.teaching(), classroom.member()
    who = who_teaches or who_learns
    if who is None:
        return
    with st.container(border=True, key="class-bar"):
        try:
            if who_teaches is not None:
                _teacher(who_teaches)
            elif who_learns is not None:
                _learner(who_learns)
        except ClassUnavailable:  # ended (here, by the command line, on another screen) or expired: say so, lastingly
            seen = st.session_state.get(SEEN)
            poll = seen[2] if seen else None
            refused = bool(poll is not None and who_learns is not None and st.session_state.get(send_key(poll).skey))
            classroom.class_ended(who.code, refused=refused)
            st.rerun()  # the whole page: the Class page's "You are in class ..." goes too
        except DatabaseBroken as exc:
            st.warning(exc.said(), icon=":material/error:")
        except ClassError as exc:
            st.caption(md_escape(_("The class is out of reach for a moment ({why}); trying again…",
                                   why=exc.said())))


ENDED_OK = Key(classroom.PAGE, "ended_ok")


def _ended(done: classroom.Ended) -> None:
    """An ended class, said where the class bar was, on every page, until this browser dismisses it (no timer)."""
    here = classroom.where_now().split("?", 1)[0] == CLASS_PAGE  # the Class page: its report is just below
    with st.container(border=True, key="class-bar"):
        st.html(callout_html(classroom.ended_text(done, here=here), "info"))
        if not done.teacher:
            st.button(_("Forget this class in this browser"), key=ENDED_OK.skey, on_click=classroom.dismiss_ended,
                      type="tertiary")


def bar() -> None:
    """Draw the class bar (only in a class: a browser outside a class gets no fragment and no timer). A reload
    of a learner's browser finds their class again, with their answers, or that it has ended."""
    if not classroom.in_class() and classroom.rejoin_from_browser() and (rejoined := classroom.member()) is not None:
        restore_answers(rejoined)
    classroom.write_cookies()  # a join, a teacher link, a leave: what the browser keeps for its next reload
    done = classroom.ended()
    if done is not None and (done.teacher or not classroom.in_class()):
        _ended(done)
        return
    if classroom.in_class():
        with st.container(key=viewport.result(classroom.POSE_RESULT)):  # "Pose to the class" brings it into view
            if classroom.teaching() is not None:
                _teacher_bar()
            else:
                _learner_bar()


__all__ = ["POLL_S", "TEACHER_POLL_S", "bar", "restore_answers"]
