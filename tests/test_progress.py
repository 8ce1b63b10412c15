"""Judging and progress files: exact numbers (money to the paisa), guesses checked against their questions,
a loaded file's "right" never believed, and no guess that can make judging or a later visit fail."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from lessons.course import course
from lessons.exercises import compute
from lessons.progress import FORMAT, MAX_ANSWERS, VERSION, to_json
from tests.apptest_helpers import assert_no_exception, main_text, page_text, run_page
from views import lessons as lv
from views import progress as pv
from ui.display import md_escape
from ui.predict import Question, fits, judge

PAGE = "pages/12_Lessons.py"


def exercise(key: str):
    return next(e for e in course().exercises if e.key == key)


def lesson_q(key: str) -> Question:
    return lv.question(exercise(key))


def file_of(answers: dict) -> bytes:
    return json.dumps({"format": FORMAT, "version": VERSION, "answers": answers}).encode()


# -- numbers: exact, in Decimal --------------------------------------------------------------------------
def test_cleaned_hindi_cost_rounds_the_half_paisa_either_way() -> None:
    q = lesson_q("cost-context-speed:cleaned-hindi-cost")
    assert q.exact == Decimal("2.235") and q.answer == Decimal("2.24")  # computed, shown to the paisa
    assert [judge(q, g)[0] for g in (2.23, 2.24, 2.235, 2.25, 2.22, 2.2)] == [True, True, True, False, False, False]


def test_money_compares_exactly_without_a_tolerance() -> None:
    q = Question("m", "", "number", Decimal("2.24"), exact=Decimal("2.235"), unit="rupees")
    assert judge(q, 2.23)[0] and judge(q, 2.24)[0] and judge(q, 2.235)[0]
    assert not judge(q, 2.2349)[0] and not judge(q, 2.25)[0] and not judge(q, 2.2351)[0]
    exact = Question("m", "", "number", Decimal("2.46"), unit="rupees")
    assert judge(exact, 2.46)[0] and not judge(exact, 2.45)[0] and not judge(exact, 2.47)[0]


@pytest.mark.parametrize(("answer", "tolerance", "guess", "right"), [
    (2.24, 0.01, 2.23, True),  # |2.23 - 2.24| is 0.0100000000000002 in floats: exactly 0.01 here
    (2.24, 0.01, 2.25, True),
    (2.24, 0.01, 2.2501, False),
    (1.3, 0.1, 1.2, True),
    (1.3, 0.1, 1.4, True),
    (1.3, 0.1, 1.41, False),
    (69, 6, 63, True),
    (69, 6, 62, False),
    (9, 0, 9.0, True),
    (9, 0, 9.4, False),
])
def test_a_tolerance_is_exact(answer, tolerance, guess, right) -> None:
    assert judge(Question("n", "", "number", answer, tolerance=tolerance), guess)[0] is right


# -- a guess that does not fit its question ---------------------------------------------------------
@pytest.mark.parametrize(("key", "guess", "reason"), [
    ("bpe-training:xylophone-tokens", "nine", "needs a number, not text"),  # predict.py:91 crashed
    ("why-tokens:chahiye-split", 7, "not a number"),  # :99 crashed
    ("bpe-training:news-order", 3, "needs its options in a list, not a number"),  # :108 crashed
    ("bpe-training:news-order", ["n + e", "n + e"], "appears twice"),
    ("bpe-training:news-order", ["made up"], "not one of its options"),
    ("bpe-training:chai-first-merge", "z + z", "not one of its options"),
    ("bpe-training:chai-first-merge", ["h + a"], "needs one of its options, not a list of 1"),
    ("english-vs-hindi:english-word-splits", "", "empty"),
    ("english-vs-hindi:english-word-splits", 12, "not a number"),
])
def test_a_guess_of_the_wrong_type_does_not_fit_and_is_never_right(key: str, guess, reason: str) -> None:
    q = lesson_q(key)
    problem = fits(q, guess)
    assert problem is not None and reason in problem
    right, detail, _ = judge(q, guess)
    assert right is False and detail == problem


GUESSES = hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats() | hs.text(max_size=30),
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(guess=GUESSES)
def test_judge_takes_any_guess_without_failing(guess) -> None:
    questions = [
        Question("c", "", "choice", "a", options=("a", "b")),
        Question("n", "", "number", Decimal("2.24"), exact=Decimal("2.235"), tolerance=0.01),
        Question("s", "", "split", ["po", "ha"]),
        Question("o", "", "order", ["x", "y"], options=("y", "x")),
        Question("w", "", "word", "the", check=lambda g: (g == "the", "")),
    ]
    for q in questions:
        right, _, _ = judge(q, guess)
        assert right in (True, False)
        assert not right or fits(q, guess) is None


# -- loading: checked against the questions, judged again -------------------------------------------
def test_a_loaded_right_is_never_believed() -> None:
    data = file_of({"lesson:bpe-training:chai-first-merge": {"guess": "a + i", "right": True, "scope": "x"},
                    "lesson:bpe-training:xylophone-tokens": {"guess": compute_answer("bpe-training:xylophone-tokens"),
                                                             "right": False, "scope": "y"}})
    merged, refused, summary = pv.load(data, {})
    assert not refused
    assert merged["lesson:bpe-training:chai-first-merge"] == {"guess": "a + i", "right": False, "scope": "bpe-training"}
    assert merged["lesson:bpe-training:xylophone-tokens"]["right"] is True
    assert summary.startswith("2 answers added: 1 of 2 right")


def compute_answer(key: str):
    e = exercise(key)
    return compute(e.op, e.args).answer


def test_ten_thousand_made_up_answers_add_nothing() -> None:
    made_up = {f"made-up-{i}": {"guess": "x", "right": True} for i in range(MAX_ANSWERS)}
    current = {"lesson:bpe-training:chai-first-merge": {"guess": "h + a", "right": True, "scope": "bpe-training"}}
    merged, refused, summary = pv.load(file_of(made_up), current)
    assert merged == current and len(refused) == MAX_ANSWERS and summary.startswith("0 answers added")
    text = pv.refused_text(refused)
    assert "“made-up-0”: no question in this lab has this name" in text and "and 9,995 more" in text


def test_wrong_types_are_refused_by_name_and_nothing_answered_is_replaced() -> None:
    current = {"lesson:bpe-training:news-order": {"guess": ["n + e"], "right": False, "scope": "bpe-training"}}
    data = file_of({
        "lesson:bpe-training:xylophone-tokens": {"guess": "nine", "right": True},
        "lesson:bpe-training:news-order": {"guess": compute_answer("bpe-training:news-order"), "right": True},
        "lesson:bpe-training:pohawala-split": {"guess": 5, "right": True},
        "lesson:no-such:exercise": {"guess": "x", "right": True},
    })
    merged, refused, summary = pv.load(data, current)
    assert merged == current  # the answer given here stays; nothing else fitted
    assert dict(refused) == {
        "lesson:bpe-training:xylophone-tokens": "a number question needs a number, not text",
        "lesson:bpe-training:pohawala-split": "a split question needs the tokens, typed as text, not a number",
        "lesson:no-such:exercise": "no question in this lab has this name",
    }
    assert "1 answer you had already given here kept as you gave it" in summary


def test_practice_answers_are_rebuilt_from_their_key() -> None:
    merge_q = lv.practice_merge(3)
    count_q = lv.practice_count(3)
    data = file_of({merge_q.key: {"guess": merge_q.answer}, count_q.key: {"guess": count_q.answer + 1},
                    "practice:merge:chai:99999": {"guess": "h + a"}, "practice:count:chai:notaword": {"guess": 3}})
    merged, refused, _ = pv.load(data, {})
    assert merged[merge_q.key]["right"] is True and merged[count_q.key]["right"] is False
    assert {k for k, _ in refused} == {"practice:merge:chai:99999", "practice:count:chai:notaword"}


def test_a_train_answer_on_a_preset_is_rebuilt_as_the_page_asks_it() -> None:
    at = run_page("pages/1_Train_step_by_step.py", query_params={"preset": "news", "predict": "1", "step": "1"})
    key = next(r.key for r in at.radio if (r.key or "").startswith("predict.train:"))[len("predict."):-len(".input")]
    page_q = next(r for r in at.radio if r.key == f"predict.{key}.input")
    q = pv.question_for(key)
    assert isinstance(q, Question) and q.scope == "train"
    assert [md_escape(o) for o in q.options] == list(page_q.options)  # the radio shows them escaped
    merged, refused, summary = pv.load(file_of({key: {"guess": "n + e"}, key[:-1] + "999": {"guess": "n + e"}}), {})
    assert merged == {key: {"guess": "n + e", "right": True, "scope": "train"}}
    assert refused == [(key[:-1] + "999", "no question in this lab has this name")]


def test_page_answers_wait_for_their_page_and_need_their_kinds_type() -> None:
    data = file_of({"train:0123456789abcdef:3": {"guess": "h + a", "right": True},
                    "tokenize:o200k_base:0123456789ab": {"guess": 12, "right": True},
                    "train:0123456789abcdef:4": {"guess": 4, "right": True},
                    "tokenize:o200k_base:ba9876543210": {"guess": "twelve", "right": True}})
    merged, refused, summary = pv.load(data, {})
    assert merged == {"train:0123456789abcdef:3": {"guess": "h + a", "right": None, "scope": "train"},
                      "tokenize:o200k_base:0123456789ab": {"guess": 12, "right": None, "scope": "tokenize"}}
    assert {k for k, _ in refused} == {"train:0123456789abcdef:4", "tokenize:o200k_base:ba9876543210"}
    assert "0 of 0 right" in summary and "2 answers from Tokenize anything and Train step by step will be checked" in summary


def test_save_writes_every_answer_and_it_loads_back() -> None:
    store = {"lesson:bpe-training:chai-first-merge": {"guess": "h + a", "right": True, "scope": "bpe-training"},
             "lesson:bpe-training:news-order": {"guess": ["n + e"], "right": False, "scope": "bpe-training"},
             "train:0123456789abcdef:1": {"guess": "c + h", "right": False, "scope": "train"}}
    merged, refused, _ = pv.load(to_json(store).encode(), {})
    assert not refused and set(merged) == set(store)
    assert merged["train:0123456789abcdef:1"]["right"] is None  # judged again on its page, not believed


# -- the page: a loaded answer that no longer fits is set aside, never a traceback ------------------------
def test_a_kept_answer_of_the_wrong_type_is_set_aside_on_the_lesson() -> None:
    store = {"lesson:bpe-training:xylophone-tokens": {"guess": "nine", "right": True, "scope": "bpe-training"},
             "lesson:bpe-training:news-order": {"guess": 3, "right": True, "scope": "bpe-training"},
             "lesson:bpe-training:pohawala-split": {"guess": 5, "right": True, "scope": "bpe-training"}}
    at = run_page(PAGE, query_params={"lesson": "bpe-training"}, session_state={"lab.predictions": store})
    assert_no_exception(at)
    assert page_text(at).count("Your earlier answer to this question was set aside") == 3
    assert at.session_state["lab.predictions"] == {}
    at.run()
    assert_no_exception(at)
    assert "Your score: 0 right of 0 answers" in main_text(at)


def test_a_waiting_answer_is_judged_when_its_page_asks() -> None:
    q = lesson_q("bpe-training:chai-first-merge")
    store = {q.key: {"guess": q.answer, "right": None, "scope": "elsewhere"}}
    at = run_page(PAGE, query_params={"lesson": "bpe-training"}, session_state={"lab.predictions": store})
    assert_no_exception(at)
    assert at.session_state["lab.predictions"][q.key] == {"guess": q.answer, "right": True, "scope": "bpe-training"}


def test_the_page_loads_a_hostile_file_with_a_message() -> None:
    at = run_page(PAGE, query_params={"lesson": "bpe-training"})
    bad = file_of({"lesson:bpe-training:xylophone-tokens": {"guess": "nine", "right": True},
                   "<b>x</b>": {"guess": "x", "right": True}})
    at.file_uploader(key="lessons.load").set_value(("bad.json", bad, "application/json")).run()
    assert_no_exception(at)
    text = page_text(at)
    assert "2 answers in the file were refused" in text and "“<b>x</b>”" in text
    assert "Lesson 2, exercise 6 (xylophone-tokens): a number question needs a number, not text" in text
    assert "Your score: 0 right of 0 answers" in main_text(at)


JSONISH = hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats(allow_nan=False) | hs.text(max_size=20),
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
CHAI = "lesson:bpe-training:chai-first-merge"
KEYS = hs.sampled_from([CHAI, "lesson:bpe-training:news-order",
                        "lesson:why-tokens:chahiye-split", "lesson:cost-context-speed:cleaned-hindi-cost",
                        "lesson:english-vs-hindi:english-word-splits", "train:0123456789abcdef:1",
                        "tokenize:o200k_base:0123456789ab", "practice:count:chai:made", "made-up", ""])


@settings(max_examples=150, deadline=None)
@given(answers=hs.dictionaries(KEYS, JSONISH, max_size=6) | JSONISH, raw=hs.binary(max_size=60))
def test_any_file_is_read_or_refused_with_a_message(answers, raw) -> None:
    """Whatever a file holds: a ValueError with a message, or answers that each fit their question."""
    current = {CHAI: {"guess": "h + a", "right": True, "scope": "bpe-training"}}
    for data in (file_of(answers), raw, json.dumps(answers).encode()):
        try:
            merged, refused, summary = pv.load(data, current)
        except ValueError as exc:
            assert str(exc)
            continue
        assert merged[CHAI] == current[CHAI]  # nothing answered is replaced
        for key, entry in merged.items():
            q = pv.question_for(key)
            if isinstance(q, Question):
                assert fits(q, entry["guess"]) is None and entry["right"] is judge(q, entry["guess"])[0]
            else:
                assert entry["right"] is None or key == CHAI


@pytest.mark.parametrize("module", ["ui.predict", "lessons.progress", "views.progress"])
def test_the_worked_examples_in_the_docstrings_hold(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed


def test_a_kept_answer_that_does_not_fit_keeps_trains_winner_hidden() -> None:
    key = "train:" + _news_run() + ":1"
    store = {key: {"guess": "z + z", "right": None, "scope": "train"}}
    at = run_page("pages/1_Train_step_by_step.py", query_params={"preset": "news", "predict": "1", "step": "1"},
                  session_state={"lab.predictions": store})
    assert_no_exception(at)
    text = page_text(at)
    assert "which pair wins?" in text and "set aside: “z + z” is not one of its options" in text
    assert key not in at.session_state["lab.predictions"]


def _news_run() -> str:
    import lessons
    from ui import presets
    from views import train as tv

    return tv.run_key(lessons.presets()["news"].corpus, presets.preset_settings("news"))


def test_english_vs_hindi_answers_are_rebuilt() -> None:
    from views import english_hindi

    hindi, english = english_hindi.questions()
    wrong = next(o for o in english.options if o != english.answer)
    merged, refused, _ = pv.load(file_of({hindi.key: {"guess": hindi.answer}, english.key: {"guess": wrong},
                                          "evh.other": {"guess": "goes up"}, "evh.hindi ": {"guess": "x"}}), {})
    assert merged == {hindi.key: {"guess": hindi.answer, "right": True, "scope": "evh"},
                      english.key: {"guess": wrong, "right": False, "scope": "evh"}}
    assert {k for k, _ in refused} == {"evh.other", "evh.hindi "}


def test_a_waiting_tokenize_answer_is_judged_when_the_page_asks_it() -> None:
    query = {"predict": "1", "text": "chai"}
    at = run_page("pages/2_Tokenize_anything.py", query_params=query)
    keys = [n.key[len("predict."):-len(".input")] for n in at.number_input if (n.key or "").startswith("predict.")]
    assert keys and all(pv.question_for(k) is pv.WAITING[1] for k in keys)
    merged, refused, _ = pv.load(file_of({k: {"guess": 1, "right": True} for k in keys}), {})
    assert not refused and all(e["right"] is None for e in merged.values())
    at = run_page("pages/2_Tokenize_anything.py", query_params=query, session_state={"lab.predictions": merged})
    assert_no_exception(at)
    judged = at.session_state["lab.predictions"]
    assert all(judged[k]["right"] in (True, False) and judged[k]["scope"] == "tokenize" for k in keys)
    assert "Your predictions on this page:" in page_text(at)
