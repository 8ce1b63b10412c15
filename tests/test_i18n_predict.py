"""The predict-first widget and its questions in Hindi (issue 28): the question, its input, the Check button, the
verdict, the explanation and the score line in the learner's language, with numbers grouped the Indian way; the
answers themselves (the options' values, a kept guess) in one language, so a guess given in Hindi is judged as in
English; and the cache of an exercise's computed answer keyed by the language, so an English and a Hindi learner on
one server each get their own."""

from __future__ import annotations

from analyses import cost
from analyses.measure import measure
from family import real
from i18n import _, number, using
from lessons import questions as plain
from lessons.answers import ANSWER_KINDS, split_detail
from lessons.exercises import Computed
from tests.apptest_helpers import assert_no_exception, html_texts, run_page
from tests.i18n_helpers import apptest_texts, data_texts, untranslated
from tests.lesson_data import LESSON4
from ui import predict
from ui import questions as cached

TOKENIZE = "pages/2_Tokenize_anything.py"
COST = "pages/8_Cost_and_context.py"
HINDI = LESSON4["test_hi"]


def _check(at, label: str) -> None:
    next(b for b in at.button if b.label == label).click().run()
    assert_no_exception(at)


def test_a_count_question_in_hindi_says_its_verdict_in_hindi_with_indian_grouping() -> None:
    at = run_page(TOKENIZE, query_params={"lang": "hi", "predict": "1", "toks": "o200k_base", "text": HINDI})
    assert_no_exception(at)
    truth = measure(real.load("o200k_base"), HINDI).tokens
    assert any(str(m.value).startswith("GPT\\-4o \\(o200k\\_base\\) इस टेक्स्ट को कितने टोकन में काटेगा?") for m in at.main.get("markdown"))
    box = next(n for n in at.number_input if n.value is None)
    assert box.label == "आपका अनुमान (टोकन)" and box.proto.placeholder == "संख्या लिखिए"
    _check(at, "जाँचिए")  # nothing typed yet
    assert "पहले अनुमान लगाइए, फिर **जाँचिए** दबाइए।" in [w.value for w in at.warning]
    next(n for n in at.number_input if n.value is None).set_value(1_234_567).run()
    _check(at, "जाँचिए")
    verdict = " ".join(html_texts(at))
    assert f"इस बार नहीं। आपका अनुमान था 12,34,567 टोकन; लैब ने {number(truth, 'hi')} टोकन निकाला।" in verdict
    assert "याद रखिए: शब्द नहीं, टुकड़े गिनिए" in verdict  # the hint, when wrong
    assert "GPT-4o" in verdict and " शब्द और " in verdict  # the explanation: its counts
    with using("hi"):
        score = _("Your predictions on this page: {score}.", score=_("{right} of {tried}", right=0, tried=1))
    assert score in [c.value for c in at.caption] and "1 में से 0" in score
    assert [b.label for b in at.button if b.key and b.key.endswith(".retry")] == ["फिर से कोशिश कीजिए"]


def test_the_window_question_in_hindi_groups_the_window_the_indian_way() -> None:
    """Cost's window question, its prompt and explanation in Hindi, figures from analyses.cost."""
    window = 200_000
    at = run_page(COST, query_params={"lang": "hi", "window": str(window)})
    assert_no_exception(at)
    prompt = next(str(m.value) for m in at.main.get("markdown") if "विंडो में आते हैं" in str(m.value))
    assert "2,00,000 टोकन की विंडो" in prompt
    fit = cost.window_fit(1500, window=window, output_cap=300, margin=50)
    with using("hi"):
        question = plain.fit_question(fit)
    at.number_input(key=predict.input_key(question)).set_value(fit.count + 1).run()
    _check(at, "जाँचिए")
    verdict = " ".join(html_texts(at))
    assert (f"इस बार नहीं। आपका अनुमान था {number(fit.count + 1, 'hi')} लेख; लैब ने {number(fit.count, 'hi')} लेख "
            "निकाला।") in verdict
    assert f"{number(fit.room, 'hi')} टोकन की जगह ÷ प्रति लेख 1,500 टोकन = " in verdict
    assert number(fit.room, "hi") != f"{fit.room:,}"  # grouped the Indian way, not as English does


def test_a_pseudo_locale_verdict_has_nothing_unmarked() -> None:
    """The question, its input, the verdict, the explanation and the score line all go through the catalogue."""
    at = run_page(TOKENIZE, query_params={"lang": "xx", "predict": "1", "toks": "o200k_base", "text": HINDI})
    next(n for n in at.number_input if n.value is None).set_value(3).run()
    next(b for b in at.button if b.key and b.key.endswith(".check")).click().run()
    assert_no_exception(at)
    assert any("⟦" in t for t in html_texts(at))
    assert untranslated(apptest_texts(at), data_texts(HINDI)) == []


def test_a_direction_is_shown_in_hindi_and_kept_as_the_question_gives_it() -> None:
    """English vs Hindi's options are the lab's own words: the value judged and kept is the question's, the learner
    reads it in their language."""
    from ui.answers import option_text
    from ui.display import md_escape

    with using("hi"):
        hindi_q, _english_q = plain.direction_questions()
        assert hindi_q.options == plain.DIRECTIONS  # the values: one language
        assert [option_text(hindi_q, o) for o in hindi_q.options] == ["घटती है", "उतनी ही रहती है", "बढ़ती है"]
        pair = plain.practice_merge(1)  # a pair is data: shown as it is
        assert not pair.lab_options and [option_text(pair, o) for o in pair.options] == [
            md_escape(o) for o in pair.options]
        assert hindi_q.prompt.startswith("ट्रेनिंग टेक्स्ट में हिन्दी को बराबर हिस्सा दीजिए")
    assert ANSWER_KINDS["choice"].judge(hindi_q, hindi_q.answer)[0]


def test_judging_details_are_in_the_learners_language() -> None:
    with using("hi"):
        assert split_detail(["cha", "hiye", "!"], ["ch", "ahi", "ye", "!"], (False, False, True)) == (
            "4 में से 1 टुकड़े सही (टेक्स्ट में जहाँ वे पड़ते हैं): “!”; आपने 3 टुकड़े लिखे, टोकनाइज़र ने 4 बनाए")
        assert ANSWER_KINDS["number"].fits(None, "x") == "संख्या वाले सवाल का जवाब एक संख्या होता है, टेक्स्ट नहीं"
    assert ANSWER_KINDS["number"].fits(None, "x") == "a number question needs a number, not text"


def test_an_exercises_computed_answer_is_cached_per_language(monkeypatch) -> None:
    """The server's cache of a computed answer (ui.questions.CACHED) is keyed by the language: its facts are
    sentences, so a Hindi learner never gets the English ones from the cache, and back."""
    calls = []

    def compute(op, args):
        calls.append(op)
        return Computed(answer=1, facts=_("Check"))

    monkeypatch.setattr(cached, "compute", compute)
    cached._computed.clear()
    exercise = next(e for e in cached.course().exercises if e.kind == "number")
    try:
        with using("en"):
            english = cached.computed(exercise).facts
        with using("hi"):
            hindi = cached.computed(exercise).facts
        with using("en"):
            again = cached.computed(exercise).facts
    finally:
        cached._computed.clear()
    assert (english, hindi, again) == ("Check", "जाँचिए", "Check") and len(calls) == 2
