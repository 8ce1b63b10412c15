"""Predict first, everywhere: a lesson link whose page shows the answers of its lesson's exercises asks them first.

The rule, and the checker that keeps it (``python -m lessons check``, :mod:`lessons.checker`, the model of what each
page shows in :mod:`lessons.reveals`); the page side (``ui.links.ask_first``, drawn by every page's ``page_setup``)
in AppTest. The browser journey that walks every link in lesson order is tests/browser/journeys/test_links.py.
"""

from __future__ import annotations

import pytest

from lessons.checker import asks_needed, check, lesson_links, link_problems
from lessons.course import Link, course, load_course, parse_lesson
from lessons.exercises import compute
from lessons.reveals import ANY, Characters, Merges, Tokens, Unknown, Value, answers, shows
from tests.apptest_helpers import assert_no_exception, main_text, run_page
from ui import links, predict
from views import tokenize as tv

HINGLISH = "Mera order 20 minute late hai, refund chahiye!"
HINDI = "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"
TOKENIZE = "pages/2_Tokenize_anything.py"


def _exercise(lesson_id: str, exercise_id: str):
    return next(e for e in course().lesson(lesson_id).exercises if e.id == exercise_id)


# -- the model: what a page shows gives which answers away --------------------------------------------------------
def test_the_issues_three_links_give_their_exercises_away() -> None:
    """The issue's cases, read off what each page computes: lesson 1's first link shows 14 tokens and ch|ahi|ye|!
    (exercises 2 and 4, and the 8 words of exercise 1); English vs Hindi at k=1 shows lesson 4's first row (69
    tokens, their bytes: exercises 1 and 4) and asks exercises 2 and 3 itself before every share's counts; lesson 9's
    four tokenizers show exercises 1, 2 and 4 (and so 3)."""
    lesson1 = course().lesson("why-tokens")
    assert asks_needed(lesson1, lesson1.tries[0]) == ["whitespace-pieces", "hinglish-tokens", "chahiye-split"]
    lesson4 = course().lesson("english-vs-hindi")
    evh = next(t for t in lesson4.tries if t.page == "English_vs_Hindi")
    assert asks_needed(lesson4, evh) == ["hindi-k1", "partial-k1"]
    lesson9 = course().lesson("real-tokenizers")
    four = next(t for t in lesson9.tries if t.label.startswith("Four tokenizers"))
    assert asks_needed(lesson9, four) == ["gpt4-hindi", "gpt4o-hindi", "gpt4-to-gpt4o", "tekken-hindi"]


def test_what_a_page_shows_is_read_as_the_engine_computes_it() -> None:
    """Each rule reads an answer off what is drawn, computed by the engine: a split inside a sentence (its first
    token has the space before it there), a count, a direction from two counts, a ratio from its two parts, merges
    up to a step, a text's bytes from its characters; and nothing from what is not drawn."""
    sentence = [Tokens("o200k_base", HINGLISH)]
    assert answers("split", {"tokenizer": "o200k_base", "text": "chahiye!"}, sentence)
    assert answers("count_tokens", {"tokenizer": "o200k_base", "text": HINGLISH}, sentence)
    assert not answers("count_tokens", {"tokenizer": "cl100k_base", "text": HINGLISH}, sentence)  # another tokenizer
    assert not answers("split", {"tokenizer": "cl100k_base", "text": "12345"},
                       [Tokens("cl100k_base", "12345678")])  # 123|456|78: alone, 12345 is cut 123|45
    assert answers("count_tokens", {"tokenizer": "cl100k_base", "text": HINGLISH}, [Tokens(ANY, HINGLISH)])
    both = [Value.of("count_tokens", tokenizer=t, text=HINDI) for t in ("cl100k_base", "o200k_base")]
    assert answers("direction", {"before": "cl100k_base", "after": "o200k_base", "text": HINDI}, both)
    assert not answers("direction", {"before": "cl100k_base", "after": "o200k_base", "text": HINDI}, both[:1])
    assert answers("merge_at", {"preset": "news", "step": 2}, [Merges("news", 3)])
    assert not answers("merge_at", {"preset": "news", "step": 4}, [Merges("news", 3)])
    assert not answers("wordpiece_at", {"preset": "news", "step": 1}, [Merges("news", 3)])  # BPE's, not WordPiece's
    assert answers("utf8_bytes", {"text": "खबर"}, [Characters("खबर khabar")])
    window = {"op": "window_chars", "language": "mr_Deva", "tokenizer": "cl100k_base", "window": 4000}
    ratio = {"numerator": {**window, "language": "en_Latn"}, "denominator": window, "digits": 1}
    per_char = [Value.of("window_chars", language=lang, tokenizer="cl100k_base", window=ANY)
                for lang in ("en_Latn", "mr_Deva")]
    assert answers("ratio", ratio, per_char) and not answers("ratio", ratio, per_char[:1])


@pytest.mark.parametrize(("link", "kind"), [
    (Link("", "Tokenize_anything", {"toks": "o200k_base", "text": "chai"}), Tokens),
    (Link("", "Train_step_by_step", {"preset": "chai", "step": "2"}), Merges),
    (Link("", "Bytes_per_character", {"text": "खबर"}), Characters),
    (Link("", "Cost_and_context", {"part": "window", "predict": "0"}), Value),
    (Link("", "Made_up_page", {}), Unknown),
])
def test_every_page_a_lesson_links_to_has_a_model(link: Link, kind: type) -> None:
    assert any(isinstance(fact, kind) for fact in shows(link))


def test_a_premium_stated_on_other_texts_gives_the_same_number_away() -> None:
    """Estimate states each model's Hindi premium on its own example; GPT-4o's is the news sentence's too (within
    the exercise's tolerance), so lesson 5's link to Estimate asks that exercise first."""
    estimate = shows(Link("", "Estimate", {}))
    gpt4o = _exercise("cost-context-speed", "news-hindi-gpt4o")
    assert answers(gpt4o.op, gpt4o.args, estimate, gpt4o.tolerance)
    assert "news-hindi-gpt4o" in next(t for t in course().lesson("cost-context-speed").tries if t.page == "Estimate").ask


def test_a_production_replay_and_a_vocabulary_give_their_figures_away() -> None:
    """Encode step by step with GPT-4o says how many merges fire from step 0 ("Step 1 of 7") and names each merge
    only once it is reached (not the one a learner predicts); Vocabulary by script states every script's count for
    each tokenizer it reads (so the band a count falls in), and with two side by side lesson 4's sentence pair's
    counts (so GPT-4's premium); with nothing beside it, only its own."""
    text = "घने"
    steps = compute("replay_steps", {"tokenizer": "o200k_base", "text": text}).answer
    first = {"tokenizer": "o200k_base", "text": text, "step": 1}
    start = shows(Link("", "Encode_step_by_step", {"tok": "o200k_base", "text": text}))
    assert answers("replay_steps", {"tokenizer": "o200k_base", "text": text}, start)
    assert not answers("replay_merge", first, start)
    assert not answers("count_tokens", {"tokenizer": "o200k_base", "text": text}, start)
    one = shows(Link("", "Encode_step_by_step", {"tok": "o200k_base", "text": text, "step": "1"}))
    assert answers("replay_merge", first, one) and not answers("replay_merge", {**first, "step": 2}, one)
    asking = shows(Link("", "Encode_step_by_step", {"tok": "o200k_base", "text": text, "step": "1", "predict": "1"}))
    assert not answers("replay_merge", first, asking)
    end = shows(Link("", "Encode_step_by_step", {"tok": "o200k_base", "text": text, "step": str(steps)}))
    assert answers("count_tokens", {"tokenizer": "o200k_base", "text": text}, end)

    gpt4 = {"tokenizer": "cl100k_base", "script": "Devanagari"}
    both = shows(Link("", "Vocabulary_by_script", {"vs": "cl100k_base", "script": "Devanagari"}))
    assert answers("script_band", gpt4, both) and answers("script_tokens", {**gpt4, "script": "Latin"}, both)
    premium = _exercise("inside-real-tokenizers", "cl100k-premium")
    assert answers(premium.op, premium.args, both, premium.tolerance)
    alone = shows(Link("", "Vocabulary_by_script", {"tok": "o200k_base", "vs": "none"}))
    assert not answers("script_band", gpt4, alone) and not answers(premium.op, premium.args, alone, premium.tolerance)
    assert answers("script_band", {**gpt4, "tokenizer": "o200k_base"}, alone)


def test_predict_first_on_a_page_hides_what_it_asks() -> None:
    """Train with Predict first at merge 1 shows no merge yet; Cost asks the Hindi window first unless switched off;
    a link that changes the scenario's numbers shows figures of other inputs than the lesson's."""
    assert not answers("merge_at", {"preset": "chai", "step": 1},
                       shows(Link("", "Train_step_by_step", {"preset": "chai", "predict": "1", "step": "1"})))
    fit = {"language": "hindi"}
    assert not answers("window_fit", fit, shows(Link("", "Cost_and_context", {"part": "window"})))
    assert answers("window_fit", fit, shows(Link("", "Cost_and_context", {"part": "window", "predict": "0"})))
    assert not answers("article_cost", {"language": "hindi"}, shows(Link("", "Cost_and_context", {"price_in": "2"})))


# -- the checker: a new lesson cannot give an answer away ------------------------------------------------------------
LESSON = """+++
id = "x"
title = "X"
minutes = 5
objectives = ["o"]
key_points = ["k"]

[[try]]
label = "Tokenize it"
page = "Tokenize_anything"
params = {{ toks = "o200k_base", text = "Mera order 20 minute late hai, refund chahiye!" }}
{ask}

[[exercise]]
id = "count"
prompt = "How many tokens?"
answer = {{ op = "count_tokens", tokenizer = "o200k_base", text = "Mera order 20 minute late hai, refund chahiye!" }}
explain = "e"

[[exercise]]
id = "bytes"
prompt = "How many bytes is chai?"
answer = {{ op = "utf8_bytes", text = "chai" }}
explain = "e"
+++
Text.
"""


def test_the_checker_refuses_a_link_that_shows_an_answer_before_it_is_asked(tmp_path) -> None:
    (tmp_path / "index.toml").write_text('order = ["x"]\n')
    (tmp_path / "x.md").write_text(LESSON.format(ask=""), encoding="utf-8")
    code, _, problems = check(load_course(tmp_path))
    assert code == 2 and len(problems) == 1
    assert problems[0].startswith("x.md: try 1: 'Tokenize it' opens a page that shows the answer of exercise 1 "
                                  "('count') without asking it first: add it to the link's 'ask' (ask = ['count'])")
    (tmp_path / "x.md").write_text(LESSON.format(ask='ask = ["count"]'), encoding="utf-8")
    assert check(load_course(tmp_path))[0] == 0
    (tmp_path / "x.md").write_text(LESSON.format(ask='ask = ["count", "bytes"]'), encoding="utf-8")
    assert check(load_course(tmp_path))[2] == ["x.md: try 1: 'ask' names 'bytes', whose answer its page does not "
                                                "show: leave it out"]


def test_an_ask_that_names_no_exercise_of_the_lesson_is_refused_by_field() -> None:
    from lessons.course import LessonError

    with pytest.raises(LessonError, match=r"x\.md try 1: 'ask' names 'gone', which is not one of the lesson's"):
        parse_lesson(LESSON.format(ask='ask = ["gone"]'), "x.md")
    with pytest.raises(LessonError, match=r"x\.md try 1: 'ask' must be a list of the lesson's exercise ids"):
        parse_lesson(LESSON.format(ask='ask = "count"'), "x.md")


def test_a_page_the_model_does_not_know_is_a_problem_not_a_pass() -> None:
    lesson = parse_lesson(LESSON.format(ask='ask = ["count"]'), "x.md")
    unknown = Link("Somewhere", "Made_up_page", {})
    from dataclasses import replace

    problems = link_problems(replace(lesson, tries=(unknown,)))
    assert problems == ["x.md: try 1: the checker does not know what page 'Made_up_page' shows (lessons/reveals.py "
                        "PAGES), so it cannot tell which answers the link gives away"]


def test_the_course_keeps_the_rule() -> None:
    """Every lesson: each link asks exactly the exercises its page gives away (an exercise's own view link leaves
    its own out: it is drawn once that one is answered)."""
    for lesson in course().lessons:
        assert link_problems(lesson) == [], lesson.file
        for where, link, own in lesson_links(lesson):
            assert own not in link.ask, (lesson.file, where)


# -- the page: it asks first, then shows ----------------------------------------------------------------------------
def _lesson1_link(**extra) -> dict:
    link = course().lesson("why-tokens").tries[0]
    return {**link.params, "from": "why-tokens", **extra}


def _answer_all(at) -> None:
    """Answer lesson 1's exercises 1, 2 and 4 as the page asks them (the truth for 1 and 2, a wrong split for 4)."""
    for exercise_id in ("whitespace-pieces", "hinglish-tokens"):
        e = _exercise("why-tokens", exercise_id)
        at.number_input(key=f"predict.{links.exercise_key(e)}.input").set_value(compute(e.op, e.args).answer).run()
        at.button(key=f"predict.{links.exercise_key(e)}.check").click().run()
    split = _exercise("why-tokens", "chahiye-split")
    at.text_input(key=f"predict.{links.exercise_key(split)}.input").input("cha | hiye | !").run()
    at.button(key=f"predict.{links.exercise_key(split)}.check").click().run()


def test_a_lesson_link_asks_its_exercises_first_then_shows_the_view() -> None:
    at = run_page(TOKENIZE, query_params=_lesson1_link())
    text = main_text(at)
    assert "Predict first." in text and "exercises 1, 2 and 4 of lesson 1" in text
    assert "How many tokens does GPT" in text
    assert not at.metric and not [h for h in at.main.get("html") if "tl-chip" in h.value]  # nothing given away
    assert dict(at.query_params) == _lesson1_link()  # the address is still the link
    _answer_all(at)
    assert_no_exception(at)
    assert at.metric  # the view, now: the count and the chips
    assert any("tl-chip" in h.value for h in at.main.get("html"))
    assert at.text_area(key=tv.TEXT.skey).value == HINGLISH
    assert [e.label for e in at.expander if e.label.startswith("Your predictions")] == ["Your predictions: 2 of 3 right"]
    assert at.session_state[predict.STORE][links.exercise_key(_exercise("why-tokens", "chahiye-split"))][
        "right"] is False


def test_once_answered_the_link_opens_plainly_and_the_link_says_predict_first_until_then() -> None:
    at = run_page("pages/12_Lessons.py", query_params={"lesson": "why-tokens"})
    first = next(link.proto for link in at.main.get("page_link") if link.proto.page == "Tokenize_anything")
    assert first.label.startswith("Tokenize a Hinglish complaint") and "predict first" in first.label
    assert not first.help  # a tooltip would make Streamlit draw a hidden second copy of the link
    at.switch_page(TOKENIZE)
    at.query_params.clear()
    at.query_params.update(_lesson1_link())
    at.run()
    _answer_all(at)
    at.switch_page("pages/12_Lessons.py")
    at.query_params.clear()
    at.query_params.update({"lesson": "why-tokens"})
    at.run()
    assert not any("predict first" in link.proto.label for link in at.main.get("page_link"))
    at.switch_page(TOKENIZE)
    at.query_params.clear()
    at.query_params.update(_lesson1_link())
    at.run()
    assert "Predict first." not in main_text(at) and at.metric


def test_skip_shows_the_view_and_leaves_the_exercises_unanswered() -> None:
    at = run_page(TOKENIZE, query_params=_lesson1_link())
    at.button(key=links.SKIP.skey).click().run()
    assert at.metric and "Predict first." not in main_text(at)
    kept = at.session_state[predict.STORE] if predict.STORE in at.session_state else {}
    assert links.exercise_key(_exercise("why-tokens", "hinglish-tokens")) not in kept


@pytest.mark.parametrize("query", [
    {"toks": "o200k_base", "text": HINGLISH},  # not from a lesson: the page is the learner's
    {"toks": "o200k_base", "text": HINGLISH + " more", "from": "why-tokens"},  # not the link's settings any more
    {"toks": "o200k_base", "text": HINGLISH, "from": "bpe-training"},  # another lesson's link has no such ask
])
def test_only_the_links_own_view_asks(query: dict) -> None:
    at = run_page(TOKENIZE, query_params=query)
    assert "Predict first." not in main_text(at) and at.metric


def test_the_link_decides_the_view_after_the_questions_not_what_the_session_kept() -> None:
    """A learner who changed the page before keeps nothing of it when a lesson's link asks first and then shows:
    the link is the whole view (the run that asked did not restore the page's settings; the next one enters)."""
    at = run_page(TOKENIZE, query_params={"text": "changed by the learner", "toks": "cl100k_base"})
    at.switch_page(TOKENIZE)
    at.query_params.clear()
    at.query_params.update(_lesson1_link())
    at.run()
    assert "Predict first." in main_text(at)
    _answer_all(at)
    assert at.text_area(key=tv.TEXT.skey).value == HINGLISH
    assert dict(at.query_params) == _lesson1_link()
