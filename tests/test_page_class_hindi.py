"""The Class page and the class bar in Hindi (AppTest), and a class of mixed languages.

A class poll posed from the lab's own questions is rebuilt by the lab in each screen's language (its prompt, its
options that are the lab's own words, its explanation after Reveal), while what is voted and counted is the
poll's value: a Hindi learner and an English learner vote into one tally. A teacher's own question stays as the
teacher wrote it. Then each of the page's screens in Hindi: outside a class (join, start, the refusals), the
teacher's (the code, the own questions, the bar's steps, the dashboard, the end) and the learner's (waiting,
answering, the result, the end)."""

from __future__ import annotations

import uuid

import pytest

from i18n import _, number, using
from lessons.classroom import ClassEnded
from tests.apptest_helpers import assert_no_exception, chart_datasets, main_text, page_text, run_page
from tests.classroom.limits import fill_join_limit
from tests.test_page_class import (
    CLASS,
    LESSON,
    LESSONS,
    TRUTH,
    Q,
    bar_button,
    lab_db,
    member,
    server_side,
    start_class,
)
from ui import classroom
from ui import poll as class_bar
from ui.display import md_escape
from ui.questions import direction_questions, fit_question, lab_question
from views import classroom as cv

__all__ = ["lab_db", "server_side"]  # the fixtures, used by name

FIT = dict(window=8000, output_cap=300, margin=50)


def join_in(lang: str, code: str, name: str):
    """A learner's browser in ``lang`` that typed ``code`` and ``name`` on the Class page and pressed Join."""
    at = run_page(CLASS, query_params={"lang": lang})
    at.text_input(key=cv.JOIN_CODE.skey).set_value(code)
    at.text_input(key=cv.NAME.skey).set_value(name)
    at.button(key=cv.JOIN.skey).click().run()
    assert_no_exception(at)
    return at


def direction(lang: str):
    """English vs Hindi's "which way does the Hindi count move?" as the lab asks it in ``lang``."""
    with using(lang):
        return direction_questions()[0]


def pose(store, code: str, secret: str, q) -> None:
    """The teacher poses ``q`` (as built in the teacher's language) from another replica: what a Pose click keeps."""
    store.pose(code, secret, classroom.payload(q, ""))


def vote(at, store, code: str, value) -> None:
    """The learner picks ``value`` in the bar and sends it."""
    state = store.current(code)
    key = class_bar.answer_key(state).skey
    if state.question["kind"] == "choice":
        at.radio(key=key).set_value(value).run()
    else:
        at.number_input(key=key).set_value(value).run()
    at.button(key=class_bar.send_key(state).skey).click().run()
    assert_no_exception(at)


def hindi_words(option: str) -> str:
    with using("hi"):
        return _(option)


# -- one class, two languages, one tally ---------------------------------------------------------------------------
def test_a_hindi_and_an_english_learner_read_one_poll_each_in_theirs_and_vote_into_one_tally(lab_db, server_side):
    teacher, code, secret = start_class()  # the teacher projects in English
    asha, ben = join_in("hi", code, "Asha"), join_in("en", code, "Ben")
    english, hindi = direction("en"), direction("hi")
    assert english.prompt != hindi.prompt and english.options == hindi.options  # the words differ, the values not
    pose(server_side, code, secret, english)
    for at in (asha, ben, teacher):
        at.run()
    assert hindi.prompt in page_text(asha) and english.prompt not in page_text(asha)
    assert english.prompt in page_text(ben) and hindi.prompt not in page_text(ben)
    assert md_escape(english.prompt) in main_text(teacher)
    key = class_bar.answer_key(server_side.current(code)).skey
    with using("hi"):
        shown = [_(o) for o in english.options]
    assert asha.radio(key=key).options == shown  # the lab's own words, in Hindi: "ऊपर जाती है"…
    assert ben.radio(key=key).options == list(english.options)

    vote(asha, server_side, code, english.answer)
    vote(ben, server_side, code, english.answer)
    teacher.run()
    assert teacher.metric[0].value == "2 of 2"
    bar_button(teacher, class_bar.SHOW).click().run()
    spread = next(iter(chart_datasets(teacher.get("vega_lite_chart")[0]).values()))
    assert [(r.answer, r.votes) for r in spread.itertuples() if r.votes] == [(english.answer, 2)]  # one row, both
    assert [t.counts for t in server_side.tallies(code, server_side.current(code).poll_id)] == [{english.answer: 2}]

    bar_button(teacher, class_bar.REVEAL).click().run()
    for at in (asha, ben):
        at.run()
    with using("hi"):
        truth = _("The lab's answer: {answer}.", answer=_(english.answer))
        right = _("Your answer: {answer}: right!", answer=_(english.answer))
    said = page_text(asha)
    assert truth in said and right in said and hindi.explain in said  # the explanation too, in Hindi
    assert english.explain not in said
    assert f"The lab's answer: {english.answer}." in page_text(ben) and english.explain in page_text(ben)
    assert member(asha).learner_id != member(ben).learner_id
    kept = [a for lr in (asha, ben) for a in server_side.answers(code, member(lr).learner_id)]
    assert [(a.question_key, a.guess, a.right) for a in kept] == [(english.key, english.answer, True)] * 2


def test_a_lesson_exercise_posed_from_its_lesson_is_read_in_each_learners_language(lab_db, server_side):
    """The teacher's Pose click on a lesson's exercise (the lesson's Hindi beside its English): the Hindi learner
    reads the Hindi lesson's prompt, the English one the English; the pairs offered are the same values."""
    teacher, code, secret = start_class()
    asha, ben = join_in("hi", code, "Asha"), join_in("en", code, "Ben")
    teacher.query_params["lesson"] = LESSON
    teacher.switch_page(LESSONS).run()
    teacher.button(key=f"{classroom.PAGE}.pose.{Q.key}").click().run()
    assert_no_exception(teacher)
    with using("hi"):
        hindi = lab_question(Q.key)
    assert hindi is not None and hindi.prompt != Q.prompt and hindi.options == Q.options
    for at in (asha, ben):
        at.run()
    assert hindi.prompt in page_text(asha) and Q.prompt not in page_text(asha)
    assert Q.prompt in page_text(ben)
    for at in (asha, ben):
        vote(at, server_side, code, TRUTH)
    teacher.run()
    assert teacher.metric[0].value == "2 of 2"
    assert [t.counts for t in server_side.tallies(code, server_side.current(code).poll_id)] == [{TRUTH: 2}]


def test_a_hindi_teacher_poses_and_an_english_learner_reads_english_a_number_counted_once(lab_db, server_side):
    """The reverse: the teacher in Hindi poses Cost's window question; the English learner reads it in English, the
    Hindi one in Hindi, and their one number is one bar on the teacher's Hindi spread."""
    teacher, code, secret = start_class(lang="hi")
    ben, asha = join_in("en", code, "Ben"), join_in("hi", code, "Asha")
    from analyses.cost import window_fit

    fit = window_fit(1500, **FIT)
    with using("hi"):
        hindi = fit_question(fit)
    with using("en"):
        english = fit_question(fit)
    pose(server_side, code, secret, hindi)
    for at in (ben, asha, teacher):
        at.run()
    assert english.prompt in page_text(ben) and hindi.prompt not in page_text(ben)
    assert hindi.prompt in page_text(asha)
    for at in (ben, asha):
        vote(at, server_side, code, english.answer)
    teacher.run()
    with using("hi"):
        assert teacher.metric[0].value == _("{n} of {m}", n=number(2), m=number(2))
        assert md_escape(hindi.prompt) in main_text(teacher)
    bar_button(teacher, class_bar.SHOW).click().run()
    spread = next(iter(chart_datasets(teacher.get("vega_lite_chart")[0]).values()))
    assert [(r.answer, r.votes) for r in spread.itertuples() if r.votes] == [(str(english.answer), 2)]


def test_a_teachers_own_question_stays_as_the_teacher_wrote_it(lab_db, server_side):
    """A question the teacher wrote (in Hindi) is not the lab's to rebuild: an English learner reads it as written."""
    teacher, code, _secret = start_class(lang="hi")
    ben = join_in("en", code, "Ben")
    teacher.selectbox(key=cv.OWN_KIND.skey).set_value("bytes").run()
    teacher.text_area(key=cv.OWN_TEXT.skey).set_value("नमस्ते").run()
    teacher.button(key=cv.OWN_POSE.skey).click().run()
    assert_no_exception(teacher)
    posed = server_side.current(code).question["prompt"]
    with using("hi"):
        assert posed == _("How many UTF-8 bytes is “{text}”?", text="नमस्ते")
    ben.run()
    assert posed in page_text(ben)


# -- the page in Hindi: outside a class ----------------------------------------------------------------------------
def test_joining_and_starting_in_hindi(lab_db, server_side):
    at = run_page(CLASS, query_params={"lang": "hi"})
    assert [s.value for s in at.subheader] == ["कक्षा में शामिल होइए", "कक्षा शुरू कीजिए (शिक्षकों के लिए)"]
    assert at.text_input(key=cv.JOIN_CODE.skey).label == "कक्षा कोड"
    assert at.text_input(key=cv.NAME.skey).label == "आपका नाम"
    assert at.button(key=cv.JOIN.skey).label == "शामिल होइए"
    assert at.text_input(key=cv.TITLE.skey).label == "कक्षा का शीर्षक"
    assert "कक्षा 30 दिन चलती है" in main_text(at)
    at.button(key=cv.START.skey).click().run()  # no title yet
    assert "पहले कक्षा का शीर्षक लिखिए" in page_text(at)


def test_the_refusals_in_hindi(lab_db, server_side):
    """A wrong code, too many tries, a closed class: each said in Hindi, and the page keeps working."""
    started = server_side.start("Week 4")
    at = join_in("hi", started.code, "")
    assert "नाम ख़ाली है।" in page_text(at)
    at = join_in("hi", "ZZZZZZ", "Asha")
    assert "इस कोड की कोई खुली कक्षा नहीं है।" in page_text(at)
    fill_join_limit(server_side.db, "")  # the join limit, counted per client (an AppTest's client is "")
    at = join_in("hi", "ZZZZZZ", "Asha")
    assert "इस नेटवर्क से बहुत ज़्यादा ग़लत कोड आए हैं।" in page_text(at), page_text(at)
    assert classroom.MEMBER.skey not in at.session_state
    ended = server_side.start("Week 5")
    server_side.end(ended.code, ended.teacher_secret)
    learner = server_side.join(started.code, "Ben", client="Ben's phone")
    server_side.end(started.code, started.teacher_secret)
    with pytest.raises(ClassEnded) as refused:
        server_side.resume(started.code, learner.resume_code, client="elsewhere")
    with using("hi"):
        assert refused.value.said() == "आपकी कक्षा “Week 4” ख़त्म हो गई है।"


def test_an_ended_class_in_hindi(lab_db, server_side):
    teacher, code, secret = start_class(lang="hi")
    asha = join_in("hi", code, "Asha")
    teacher.button(key=cv.END.skey).click().run()
    assert_no_exception(teacher)
    assert f"कक्षा {code} (“Tokenizers, week 3”) ख़त्म हो गई है" in page_text(teacher)
    asha.run()
    assert "Asha, आपकी कक्षा “Tokenizers, week 3” ख़त्म हो गई है।" in page_text(asha)
    assert "लैब पहले की तरह काम करती है।" in page_text(asha)


# -- the teacher's screens and the learner's, in Hindi --------------------------------------------------------------
def test_the_teachers_screens_in_hindi(lab_db, server_side):
    teacher, code, secret = start_class(lang="hi")
    said = page_text(teacher)
    assert "आपकी कक्षा तैयार है।" in said and "यहाँ शामिल होइए" in said and code in said
    assert teacher.get("download_button")[0].proto.label == "मेरा शिक्षक लिंक डाउनलोड कीजिए"
    assert teacher.selectbox(key=cv.OWN_KIND.skey).label == "सवाल का प्रकार"
    assert teacher.button(key=cv.END.skey).label == "कक्षा ख़त्म कीजिए"
    assert "अभी कोई जवाब नहीं।" in main_text(teacher)
    asha = join_in("hi", code, "Asha")
    pose(server_side, code, secret, direction("hi"))
    teacher.run()
    with using("hi"):
        assert teacher.metric[0].value == _("{n} of {m}", n=number(0), m=number(1))
    assert [teacher.button(key=k.skey).label for k in (class_bar.SHOW, class_bar.AGAIN, class_bar.REVEAL,
                                                         class_bar.CLOSE)] == [
        "जवाब दिखाइए", "फिर से वोट", "सही जवाब बताइए", "बंद कीजिए"]
    asha.run()
    vote(asha, server_side, code, direction("en").answer)
    bar_button(teacher, class_bar.SHOW).click().run()
    bar_button(teacher, class_bar.REVEAL).click().run()
    teacher.run()
    assert_no_exception(teacher)
    spread = next(iter(chart_datasets(teacher.get("vega_lite_chart")[0]).values()))
    with using("hi"):
        words = _(direction("en").answer)
    assert set(spread["answer"]) >= {f"✓ {words}"} and set(spread["round"]) == {"दौर 1"}
    tables = [t.value for t in teacher.dataframe]
    assert list(tables[0].columns) == ["सवाल", "जवाब दिए", "पहली बार में सही (%)", "सबसे आम ग़लत जवाब",
                                       "अभी बताए नहीं गए"]
    assert tables[0]["सवाल"][0].startswith(direction("hi").prompt[:40])  # the lab's question, in the teacher's words
    polls = tables[2]
    assert polls["जवाब"][0] == f"{words} (1)" and polls["लैब का जवाब"][0] == words


def test_the_learners_screens_in_hindi(lab_db, server_side):
    teacher, code, secret = start_class()
    asha = join_in("hi", code, "Asha")
    said = page_text(asha)
    assert "स्वागत है, Asha।" in said and "आप कक्षा" in said
    assert "आपके शिक्षक के सवाल की प्रतीक्षा है" in main_text(asha)
    pose(server_side, code, secret, direction("en"))
    asha.run()
    assert "**आपके शिक्षक पूछते हैं** (दौर 1):" in [m.value for m in asha.markdown]
    state = server_side.current(code)
    assert asha.button(key=class_bar.send_key(state).skey).label == "मेरा जवाब भेजिए"
    asha.button(key=class_bar.send_key(state).skey).click().run()  # nothing chosen
    assert "पहले कोई जवाब चुनिए या लिखिए, फिर उसे भेजिए।" in main_text(asha)
    words = hindi_words(direction("en").answer)
    vote(asha, server_side, code, direction("en").answer)
    assert md_escape(f"आपका जवाब: {words}।") in main_text(asha)
    server_side.show(code, secret)
    asha.run()
    assert "वोटिंग बंद हो गई है।" in main_text(asha)
    server_side.vote_again(code, secret)
    server_side.vote(code, member(asha).learner_id, server_side.current(code).poll_id, 2, direction("en").answer,
                     vote_id=uuid.uuid4().hex)
    teacher.run()
    bar_button(teacher, class_bar.REVEAL).click().run()
    asha.run()
    assert f"लैब का जवाब: {words}।" in page_text(asha)
    assert [e.label for e in asha.expander if "कक्षा ने कैसे वोट दिया" in e.label]
