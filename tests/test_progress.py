"""Judging and progress files: exact numbers (money to the paisa), guesses checked against their questions,
a loaded file's "right" never believed, and no guess that can make judging or a later visit fail."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from lessons.course import course
from lessons.exercises import compute
from lessons.judging import Question, fits, judge
from lessons.progress import (
    ENCODE_MERGE,
    FORMAT,
    LESSON_EXERCISE,
    MAX_ANSWERS,
    NO_QUESTION,
    QUESTIONS,
    TRAIN_MERGE,
    QuestionId,
    describe,
    migrate_v1_key,
    to_json,
)
from tests.apptest_helpers import assert_no_exception, main_text, page_text, run_page
from ui import predict
from ui import questions as qs
from ui.display import md_escape
from views import lessons as lp
from views.lessons import progress as pv

PAGE = "pages/12_Lessons.py"


def exercise(key: str):
    return next(e for e in course().exercises if e.key == key)


def lesson_q(key: str) -> Question:
    return qs.exercise_question(exercise(key))


def file_of(answers: dict) -> bytes:
    """A version-1 file (answers keyed by their question's old key), as the lab saved them until version 2."""
    return json.dumps({"format": FORMAT, "version": 1, "answers": answers}).encode()


def entry(key: str, guess, right, scope: str) -> dict:
    """A store entry for the question that had ``key`` in version 1."""
    return {"guess": guess, "right": right, "scope": scope, "id": migrate_v1_key(key)}


def named(key: str) -> str:
    """How a message names the question that had ``key`` in version 1."""
    qid = migrate_v1_key(key)
    return describe(qid if qid is not None else key)


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
    assert merged["lesson:bpe-training:chai-first-merge"] == entry("lesson:bpe-training:chai-first-merge", "a + i",
                                                                   False, "bpe-training")
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
    assert "10,000 answers are to a question this lab no longer has (“made-up-0”, “made-up-1”, “made-up-2”, …)" in summary
    text = pv.refused_text(refused)
    assert f"“made-up-0”: {NO_QUESTION}" in text and "and 9,995 more" in text


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
        "Lesson 2, exercise 6 (xylophone-tokens)": "a number question needs a number, not text",
        named("lesson:bpe-training:pohawala-split"): "a split question needs the tokens, typed as text, not a number",
        "exercise “exercise” of lesson “no-such”": NO_QUESTION,
    }
    assert "1 answer you had already given here kept as you gave it" in summary


def test_practice_answers_are_rebuilt_from_their_key() -> None:
    merge_q = qs.practice_merge(3)
    count_q = qs.practice_count(3)
    data = file_of({merge_q.key: {"guess": merge_q.answer}, count_q.key: {"guess": count_q.answer + 1},
                    "practice:merge:chai:99999": {"guess": "h + a"}, "practice:count:chai:notaword": {"guess": 3}})
    merged, refused, _ = pv.load(data, {})
    assert merged[merge_q.key]["right"] is True and merged[count_q.key]["right"] is False
    assert {k for k, _ in refused} == {named("practice:merge:chai:99999"), named("practice:count:chai:notaword")}
    assert {why for _, why in refused} == {NO_QUESTION}


def test_a_train_answer_on_a_preset_is_rebuilt_as_the_page_asks_it() -> None:
    at = run_page("pages/1_Train_step_by_step.py", query_params={"preset": "news", "predict": "1", "step": "1"})
    key = next(k for k in (predict.key_of_input(r.key) for r in at.radio) if k and k.startswith("train:"))
    page_q = next(r for r in at.radio if predict.key_of_input(r.key) == key)
    q = qs.resolve(migrate_v1_key(key))
    assert isinstance(q, Question) and q.scope == "train" and q.id == QuestionId.of(TRAIN_MERGE, run=key[6:22], step=1)
    assert [md_escape(o) for o in q.options] == list(page_q.options)  # the radio shows them escaped
    merged, refused, summary = pv.load(file_of({key: {"guess": "n + e"}, key[:-1] + "999": {"guess": "n + e"}}), {})
    assert merged == {key: entry(key, "n + e", True, "train")}
    assert refused == [(named(key[:-1] + "999"), NO_QUESTION)]


def test_page_answers_wait_for_their_page_and_need_their_kinds_type() -> None:
    data = file_of({"train:0123456789abcdef:3": {"guess": "h + a", "right": True},
                    "tokenize:o200k_base:0123456789ab": {"guess": 12, "right": True},
                    "train:0123456789abcdef:4": {"guess": 4, "right": True},
                    "tokenize:o200k_base:ba9876543210": {"guess": "twelve", "right": True}})
    merged, refused, summary = pv.load(data, {})
    assert merged == {"train:0123456789abcdef:3": entry("train:0123456789abcdef:3", "h + a", None, "train"),
                      "tokenize:o200k_base:0123456789ab": entry("tokenize:o200k_base:0123456789ab", 12, None, "tokenize")}
    assert {k for k, _ in refused} == {named("train:0123456789abcdef:4"), named("tokenize:o200k_base:ba9876543210")}
    assert "0 of 0 right" in summary and "2 answers from Tokenize anything and Train step by step will be checked" in summary


def test_save_writes_every_answer_and_it_loads_back() -> None:
    store = {"lesson:bpe-training:chai-first-merge": entry("lesson:bpe-training:chai-first-merge", "h + a", True,
                                                           "bpe-training"),
             "lesson:bpe-training:news-order": entry("lesson:bpe-training:news-order", ["n + e"], False, "bpe-training"),
             "train:0123456789abcdef:1": entry("train:0123456789abcdef:1", "c + h", False, "train")}
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
    assert at.session_state["lab.predictions"][q.key] == {"guess": q.answer, "right": True, "scope": "bpe-training",
                                                          "id": q.id}


def test_the_page_loads_a_hostile_file_with_a_message() -> None:
    at = run_page(PAGE, query_params={"lesson": "bpe-training"})
    bad = file_of({"lesson:bpe-training:xylophone-tokens": {"guess": "nine", "right": True},
                   "<b>x</b>": {"guess": "x", "right": True}})
    at.file_uploader(key=pv.load_key(lp.PAGE).skey).set_value(("bad.json", bad, "application/json")).run()
    assert_no_exception(at)
    text = page_text(at)
    assert "2 answers in the file were refused" in text and f"“<b>x</b>”: {NO_QUESTION}" in text
    assert "1 answer is to a question this lab no longer has (“<b>x</b>”)" in text  # named, as text
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
        for key, kept in merged.items():
            if key == CHAI:
                continue
            q = qs.resolve(kept["id"])
            if isinstance(q, Question):
                assert q.key == key and fits(q, kept["guess"]) is None and kept["right"] is judge(q, kept["guess"])[0]
            else:
                assert kept["right"] is None and kept["id"].family.waits


@pytest.mark.parametrize("module", ["lessons.judging", "lessons.progress"])
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

    return qs.run_key(lessons.presets()["news"].corpus, presets.preset_settings("news"))


def test_english_vs_hindi_answers_are_rebuilt() -> None:
    hindi, english = qs.direction_questions()
    wrong = next(o for o in english.options if o != english.answer)
    merged, refused, _ = pv.load(file_of({hindi.key: {"guess": hindi.answer}, english.key: {"guess": wrong},
                                          "evh.other": {"guess": "goes up"}, "evh.hindi ": {"guess": "x"}}), {})
    assert merged == {hindi.key: {"guess": hindi.answer, "right": True, "scope": "evh", "id": hindi.id},
                      english.key: {"guess": wrong, "right": False, "scope": "evh", "id": english.id}}
    assert refused == [("“evh.other”", NO_QUESTION), ("“evh.hindi ”", NO_QUESTION)]


def test_a_waiting_tokenize_answer_is_judged_when_the_page_asks_it() -> None:
    query = {"predict": "1", "text": "chai"}
    at = run_page("pages/2_Tokenize_anything.py", query_params=query)
    keys = [k for k in (predict.key_of_input(n.key) for n in at.number_input) if k]
    assert keys and all(migrate_v1_key(k).name == "tokenize-count" and qs.resolve(migrate_v1_key(k)) is qs.WAITS
                        for k in keys)
    merged, refused, _ = pv.load(file_of({k: {"guess": 1, "right": True} for k in keys}), {})
    assert not refused and all(e["right"] is None for e in merged.values())
    at = run_page("pages/2_Tokenize_anything.py", query_params=query, session_state={"lab.predictions": merged})
    assert_no_exception(at)
    judged = at.session_state["lab.predictions"]
    assert all(judged[k]["right"] in (True, False) and judged[k]["scope"] == "tokenize" for k in keys)
    assert "Your predictions on this page:" in page_text(at)


# -- stable question ids, file version 2, and the migration from version 1 ------------------------------
V1_FILE = Path(__file__).parent / "data" / "progress-v1.json"


def test_a_version_1_file_saved_before_the_change_loads_every_answer_judged_again() -> None:
    """tests/data/progress-v1.json was saved by the lab before question ids (main at d9cbb9a)."""
    saved = json.loads(V1_FILE.read_text(encoding="utf-8"))
    assert saved["version"] == 1
    merged, refused, summary = pv.load(V1_FILE.read_bytes(), {})
    assert not refused and set(merged) == set(saved["answers"])  # every answer, under the key its page asks by
    for key, kept in merged.items():
        assert kept["guess"] == saved["answers"][key]["guess"] and kept["id"].key == key
        q = qs.resolve(kept["id"])
        if isinstance(q, Question):
            assert kept["right"] is judge(q, kept["guess"])[0]
        else:
            assert q is qs.WAITS and kept["right"] is None  # a page question: judged on its page
    # every kind of question the lab had when it wrote version 1 is in the file (Encode's came later, in version 2)
    assert {kept["id"].name for kept in merged.values()} == set(QUESTIONS) - {ENCODE_MERGE}
    assert "The file was saved by an earlier version of the lab (file format 1)" in summary
    # Saved again it is a version-2 file, which reads back to the same answers.
    again = json.loads(to_json(merged))
    assert again["version"] == 2 and len(again["answers"]) == len(merged)
    assert pv.load(to_json(merged), {})[:2] == (merged, [])


def test_a_version_2_file_names_questions_by_id_and_parameters_not_by_text() -> None:
    q = lesson_q("bpe-training:chai-first-merge")
    store = {q.key: {"guess": "h + a", "right": True, "scope": q.scope, "id": q.id}}
    saved = json.loads(to_json(store))
    assert saved["answers"] == [{"question": "lesson-exercise",
                                 "params": {"lesson": "bpe-training", "exercise": "chai-first-merge"},
                                 "guess": "h + a", "right": True}]
    assert q.prompt not in json.dumps(saved, ensure_ascii=False)
    count = qs.practice_count_question("chai", "internet")
    assert count.id.as_json() == {"question": "practice-count", "params": {"preset": "chai", "word": "internet"}}


@pytest.mark.parametrize(("answer", "why"), [
    ({"question": "lesson-exercise", "params": {"lesson": "bpe-training", "exercise": "gone"}, "guess": "x"},
     NO_QUESTION),
    ({"question": "no-such-kind", "params": {}, "guess": 1}, NO_QUESTION),
    ({"question": "practice-merge", "params": {"preset": "chai", "step": "2"}, "guess": "h + a"}, NO_QUESTION),
    ({"question": "practice-merge", "params": {"preset": "chai"}, "guess": "h + a"}, NO_QUESTION),
    ({"params": {}, "guess": 1}, "it does not name its question"),
    ("lesson:bpe-training:chai-first-merge", "it is not an answer"),
    ({"question": "lesson-exercise", "params": {"lesson": "bpe-training", "exercise": "chai-first-merge"}},
     "it has no guess"),
])
def test_a_damaged_version_2_answer_is_refused_on_its_own(answer, why: str) -> None:
    good = {"question": "lesson-exercise", "params": {"lesson": "bpe-training", "exercise": "chai-first-merge"},
            "guess": "h + a", "right": False}
    data = json.dumps({"format": FORMAT, "version": 2, "answers": [answer, good]})
    merged, refused, _ = pv.load(data, {})
    assert merged["lesson:bpe-training:chai-first-merge"]["right"] is True  # judged again, not believed
    assert [w for _, w in refused] == [why]


def test_an_answer_whose_question_is_gone_is_reported_in_words() -> None:
    answers = [{"question": "lesson-exercise", "params": {"lesson": "bpe-training", "exercise": f"old-{i}"},
                "guess": "x"} for i in range(4)]
    data = json.dumps({"format": FORMAT, "version": 2, "answers": answers})
    merged, refused, summary = pv.load(data, {})
    assert merged == {} and len(refused) == 4
    assert ("4 answers are to a question this lab no longer has (exercise “old-0” of lesson “bpe-training”, "
            "exercise “old-1” of lesson “bpe-training”, exercise “old-2” of lesson “bpe-training”, …)") in summary
    assert "• exercise “old-3” of lesson “bpe-training”: this lab has no such question" in pv.refused_text(refused)


def renamed_course(monkeypatch) -> None:
    """The course with chai-first-merge renamed, its old id kept as a former id (as a lesson file would say)."""
    import dataclasses

    import lessons.course as lc
    import lessons.questions as lq

    real = course()
    lessons_ = tuple(dataclasses.replace(lesson, exercises=tuple(
        dataclasses.replace(e, id="first-merge-of-chai", former_ids=("chai-first-merge",))
        if e.key == "bpe-training:chai-first-merge" else e for e in lesson.exercises)) for lesson in real.lessons)
    changed = dataclasses.replace(real, lessons=lessons_)
    for module in (lc, lq, qs, lp):  # where each looks the course up (lessons.questions rebuilds the question)
        monkeypatch.setattr(module, "course", lambda: changed)


def test_a_renamed_exercise_finds_answers_saved_under_its_former_id(monkeypatch) -> None:
    v1 = V1_FILE.read_bytes()
    v2 = json.dumps({"format": FORMAT, "version": 2, "answers": [
        {"question": "lesson-exercise", "params": {"lesson": "bpe-training", "exercise": "chai-first-merge"},
         "guess": "h + a"}]})
    renamed_course(monkeypatch)
    for data in (v1, v2):
        merged, refused, _ = pv.load(data, {})
        assert not refused
        assert "lesson:bpe-training:chai-first-merge" not in merged
        kept = merged["lesson:bpe-training:first-merge-of-chai"]
        assert kept["right"] is True and kept["id"] == QuestionId.of(LESSON_EXERCISE, lesson="bpe-training",
                                                                     exercise="first-merge-of-chai")
    assert describe(QuestionId.of(LESSON_EXERCISE, lesson="bpe-training", exercise="chai-first-merge")) == (
        "Lesson 2, exercise 1 (first-merge-of-chai)")


def test_without_its_former_id_a_renamed_exercise_reports_the_answer(monkeypatch) -> None:
    import dataclasses

    renamed_course(monkeypatch)
    import lessons.course as lc
    import lessons.questions as lq

    changed = lc.course()
    stripped = dataclasses.replace(changed, lessons=tuple(dataclasses.replace(lesson, exercises=tuple(
        dataclasses.replace(e, former_ids=()) for e in lesson.exercises)) for lesson in changed.lessons))
    for module in (lc, lq, qs, lp):
        monkeypatch.setattr(module, "course", lambda: stripped)
    merged, refused, summary = pv.load(V1_FILE.read_bytes(), {})
    assert refused == [("exercise “chai-first-merge” of lesson “bpe-training”", NO_QUESTION)]
    assert "1 answer is to a question this lab no longer has (exercise “chai-first-merge” of lesson “bpe-training”)" in summary
    assert len(merged) == 14


def test_every_question_the_lab_asks_has_a_stable_id() -> None:
    """Each Question built in pages, views, the UI kit and the question builders below it (lessons/questions.py)
    names its id (the key comes from it), so its answer is saved; none types a key of its own."""
    import ast

    root = Path(__file__).parents[1]
    calls = []
    for path in [*root.glob("pages/*.py"), *root.glob("views/**/*.py"), *root.glob("ui/*.py"),
                 *root.glob("lessons/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "Question":
                calls.append((path.name, {k.arg: k.value for k in node.keywords}))
    made = [(name, kw) for name, kw in calls if name != "predict.py"]
    assert len(made) >= 8
    for name, kw in made:
        assert "id" in kw, name
        assert isinstance(kw.get("key"), ast.Constant) and kw["key"].value == "", name


def test_a_key_that_is_not_its_ids_is_refused() -> None:
    qid = QuestionId.of(TRAIN_MERGE, run="0123456789abcdef", step=3)
    assert Question("", "", "choice", "a", id=qid).key == "train:0123456789abcdef:3"
    with pytest.raises(ValueError, match="not its id's"):
        Question("train:x:3", "", "choice", "a", id=qid)
    with pytest.raises(ValueError, match="not a question id"):
        QuestionId.of(TRAIN_MERGE, run="not hex", step=3)


def test_a_count_on_an_uploaded_model_has_an_id_too() -> None:
    """Tokenize names an uploaded model ``session:<digest>``: its count question has an id, and the key reads back."""
    from lessons.progress import TOKENIZE_COUNT

    qid = QuestionId.of(TOKENIZE_COUNT, tokenizer="session:0123456789ab", text="ba9876543210")
    assert qid.key == "tokenize:session:0123456789ab:ba9876543210" and migrate_v1_key(qid.key) == qid


def test_a_loaded_cost_fit_answer_is_judged_at_once_by_the_engine() -> None:
    """Cost's "how many articles fit?" keeps all its numbers in its id: a loaded answer is judged on load (it used
    to wait for the Cost page to ask the same numbers again); numbers no page could ask about are refused."""
    from analyses.cost import window_fit

    fit = window_fit(550, window=8000, output_cap=300, margin=50)  # the engine's answer, not a typed one
    right_id = QuestionId.of("cost-articles-fit", window=8000, output_cap=300, margin=50, each=550)
    wrong_id = QuestionId.of("cost-articles-fit", window=16000, output_cap=300, margin=50, each=550)
    impossible = QuestionId.of("cost-articles-fit", window=100, output_cap=300, margin=50, each=550)
    data = to_json({right_id.key: {"guess": fit.count, "right": False, "scope": "cost", "id": right_id},
                    wrong_id.key: {"guess": fit.count, "right": True, "scope": "cost", "id": wrong_id},
                    impossible.key: {"guess": 1, "right": True, "scope": "cost", "id": impossible}})
    merged, refused, summary = pv.load(data, {})
    assert merged[right_id.key]["right"] is True and merged[wrong_id.key]["right"] is False
    assert [which for which, _ in refused] == [describe(impossible)]
    assert "1 of 2 right" in summary and "will be checked" not in summary
    at = run_page("pages/8_Cost_and_context.py", session_state={"lab.predictions": merged})
    assert_no_exception(at)


def test_a_progress_file_is_judged_without_the_ui_kit() -> None:
    """Judging a loaded progress file is plain code (lessons.progress with lessons.questions' builders): in a fresh
    interpreter it loads no UI library, and it judges each answer as a page does. The file holds the answers the
    pages' own questions (ui.questions, with their caches) give as right, and one wrong choice."""
    import subprocess
    import sys

    import lessons
    from analyses.cost import window_fit
    from ui import training

    exercise = course().exercises[0]
    asked = [qs.exercise_question(exercise), qs.practice_merge_question("news", 2),
             qs.practice_count_question("chai", qs.unseen_words("chai")[0]), *qs.direction_questions(),
             qs.fit_question(window_fit(550, window=8000, output_cap=300, margin=50)),
             qs.guess_question(_news_run(), training.preset_trace("news"), 1)]
    assert all(isinstance(q, Question) for q in asked) and lessons.presets()["news"]
    wrong = next(o for o in asked[1].options if o != asked[1].answer and o not in asked[1].also_right)
    store = {q.key: {"guess": q.answer, "right": True, "scope": q.scope, "id": q.id} for q in asked}
    store["wrong"] = {"guess": wrong, "right": True, "scope": "practice",  # the same question again: the first counts
                      "id": QuestionId.of("practice-merge", preset="news", step=2)}
    waiting = QuestionId.of("tokenize-count", tokenizer="o200k_base", text="0123456789ab")
    store[waiting.key] = {"guess": 7, "right": None, "scope": "tokenize", "id": waiting}
    text = to_json(store)
    code = (
        "import json, sys\n"
        "from lessons.exercises import ExerciseError\n"
        "from lessons.progress import check, from_json\n"
        "from lessons.questions import resolve\n"
        "entries, refused = check(from_json(sys.stdin.read()).answers, resolve, (ExerciseError,))\n"
        "ui = [m for m in ('streamlit', 'pandas', 'altair', 'ui') if m in sys.modules]\n"
        "print(json.dumps([{k: e['right'] for k, e in entries.items()}, refused, ui]))\n")
    result = subprocess.run([sys.executable, "-c", code], input=text, cwd=Path(__file__).parents[1],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    judged, refused, ui = json.loads(result.stdout.strip().splitlines()[-1])
    assert ui == [] and refused == []
    assert judged == {**{q.key: True for q in asked}, waiting.key: None}
    # and the wrong choice, on its own, is judged wrong the same way
    alone = {"wrong": store["wrong"]}
    result = subprocess.run([sys.executable, "-c", code], input=to_json(alone), cwd=Path(__file__).parents[1],
                            capture_output=True, text=True, timeout=300, check=False)
    assert json.loads(result.stdout.strip().splitlines()[-1])[0] == {asked[1].key: False}
