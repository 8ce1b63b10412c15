"""The Lessons page (AppTest): the reader, each exercise kind answered right and wrong, the score kept across
pages, progress files, classroom mode, generated practice."""

from __future__ import annotations

import pytest

from lessons.course import course
from lessons.exercises import compute
from lessons.progress import LESSON_EXERCISE, QuestionId, to_json
from tests.apptest_helpers import assert_no_exception, button, main_text, page_text, run_page
from ui import predict
from ui.display import md_escape
from ui.questions import exercise_question
from views import lessons as lp
from views.lessons import progress

PAGE = "pages/12_Lessons.py"


def exercise_box(at, n: int):
    """The n-th exercise's widgets: its input and its Check button (1-based, in page order)."""
    return [b for b in at.button if b.label == "Check"][n - 1]


def lesson_page(lesson_id: str, **params):
    return run_page(PAGE, query_params={"lesson": lesson_id, **params})


def test_opens_on_the_first_lesson_with_its_list_and_progress() -> None:
    at = run_page(PAGE)
    assert at.session_state[lp.LESSON.skey] == "why-tokens"
    picks = [b for b in at.button if (b.key or "").startswith(lp.pick_key("").skey)]
    assert len(picks) == 10 and picks[0].label.startswith("1. Why tokens") and picks[0].label.endswith("0/4")
    picks[1].click().run()
    assert at.session_state[lp.LESSON.skey] == "bpe-training" and at.query_params["lesson"] == "bpe-training"
    at.button(key=lp.pick_key("why-tokens").skey).click().run()
    text = page_text(at)
    assert "By the end you can:" in text and "Key points" in main_text(at)
    tries = [link.proto for link in at.main.get("page_link") if link.proto.page == "Tokenize_anything"]
    assert any(p.query_string.startswith("toks=o200k_base&text=Mera") for p in tries)
    assert "GPT-2's tokenizer has 50,257 tokens" in main_text(at)  # a figure computed in the text


def test_a_lesson_link_carries_its_settings() -> None:
    at = lesson_page("bpe-training")
    tries = [link.proto for link in at.main.get("page_link") if link.proto.page == "Train_step_by_step"]
    # the settings, then where it comes from (the page it opens links back to this lesson)
    assert any(p.query_string == "preset=chai&step=1&from=bpe-training" for p in tries)


def answer(at, kind: str, value) -> None:
    if kind == "choice":
        next(r for r in at.radio if r.label == "Your prediction" and r.value is None).set_value(value)
    elif kind == "number":
        next(n for n in at.number_input if n.label.startswith("Your prediction") and n.value is None).set_value(value)
    elif kind in ("split", "word"):
        label = "Your prediction: the tokens, separated by |" if kind == "split" else "Your answer"
        next(t for t in at.text_input if t.label == label and not t.value).input(value)
    else:
        next(m for m in at.multiselect if m.label.startswith("Your prediction")).set_value(value)


@pytest.mark.parametrize(
    ("lesson_id", "exercise_id", "wrong"),
    [
        ("bpe-training", "chai-first-merge", "a + i"),
        ("bpe-training", "xylophone-tokens", 3),
        ("bpe-training", "pohawala-split", "po | ha | wala"),
        ("bpe-training", "news-order", None),
        ("english-vs-hindi", "english-word-splits", "the"),
    ],
)
def test_each_kind_answered_right_and_wrong(lesson_id: str, exercise_id: str, wrong) -> None:
    exercise = next(e for e in course().lesson(lesson_id).exercises if e.id == exercise_id)
    computed = compute(exercise.op, exercise.args)
    number = course().lesson(lesson_id).exercises.index(exercise) + 1
    right = computed.answer if exercise.kind != "split" else " | ".join(computed.answer)
    if exercise.kind == "order":
        wrong = list(reversed(computed.answer))
    # Wrong first: the truth is shown beside the guess, and the misconception hint if there is one.
    at = lesson_page(lesson_id)
    answer(at, exercise.kind, wrong)
    at.run()
    exercise_box(at, number).click().run()
    assert_no_exception(at)
    shown = page_text(at)
    assert "Not this time" in shown
    if exercise.kind != "word":
        assert "the lab computed" in shown
    if exercise.hint:
        assert f"Remember: {exercise.hint}" in shown
    assert "Your score: 0 right of 1 answer" in main_text(at)
    # A retry does not change the score, even when right.
    button(at, "Try again").click().run()
    answer(at, exercise.kind, right)
    at.run()
    exercise_box(at, number).click().run()
    shown = page_text(at)
    assert "Right" in shown and "A retry" in shown
    assert at.session_state[predict.STORE][f"lesson:{exercise.key}"]["right"] is False


def test_a_split_says_which_pieces_are_right_where_they_fall_in_the_text() -> None:
    """Lesson 1, exercise 4 (the issue's case): cha | hiye | ! gets the ! right, though it is the third piece typed."""
    at = lesson_page("why-tokens")
    answer(at, "split", "cha | hiye | !")
    at.run()
    exercise_box(at, 4).click().run()
    assert "1 of 4 pieces right (where they fall in the text): “!”" in page_text(at)


def test_score_survives_a_page_switch() -> None:
    at = lesson_page("bpe-training")
    answer(at, "choice", "h + a")
    at.run()
    exercise_box(at, 1).click().run()
    assert "Right! You predicted h + a." in page_text(at)
    at.switch_page("pages/1_Train_step_by_step.py").run()
    assert_no_exception(at)
    at.switch_page(PAGE).run()
    assert "Your score: 1 right of 1 answer" in main_text(at)
    assert at.button(key=lp.pick_key("bpe-training").skey).label.endswith("1/7")
    assert "Right! You predicted h + a." in page_text(at)  # the answer is still shown


def test_progress_file_loads_back_and_a_bad_one_is_refused() -> None:
    at = lesson_page("bpe-training")
    qid = QuestionId.of(LESSON_EXERCISE, lesson="bpe-training", exercise="chai-first-merge")
    saved = to_json({qid.key: {"guess": "h + a", "right": True, "scope": "bpe-training", "id": qid}})
    at.file_uploader(key=progress.load_key(lp.PAGE).skey).set_value(("progress.json", saved.encode(), "application/json")).run()
    assert_no_exception(at)
    assert "1 answer added: 1 of 1 right" in page_text(at)
    assert "Your score: 1 right of 1 answer" in main_text(at)
    at.file_uploader(key=progress.load_key(lp.PAGE).skey).set_value(("evil.json", b'{"format": "x"}', "application/json")).run()
    text = page_text(at)
    assert "was not loaded: This is not a progress file" in text and "Your current progress is kept" in text
    assert at.session_state[predict.STORE]["lesson:bpe-training:chai-first-merge"]["right"] is True


def test_downloads_are_offered() -> None:
    at = lesson_page("bpe-training")
    labels = [b.proto.label for b in at.main.get("download_button")]
    assert labels == ["Worksheet (Markdown)", "Answer key (Markdown)", "Save my progress"]


def test_classroom_mode_shows_one_part_per_click() -> None:
    at = lesson_page("bpe-training", classroom="1")
    assert at.session_state["_large_type_store"] is True  # classroom mode comes with large type
    assert "Part 1 of" in main_text(at) and "By the end you can:" in page_text(at)
    at.button(key=lp.STEPPER.key("next").skey).click().run()
    assert "Part 2 of" in main_text(at) and "The algorithm" in main_text(at)
    at.button(key=lp.STEPPER.key("last").skey).click().run()
    assert "Key points" in main_text(at)
    assert at.query_params["classroom"] == "1" and at.query_params["lesson"] == "bpe-training"
    assert not at.get("download_button")  # fewer controls in class


def test_generated_practice() -> None:
    at = run_page(PAGE, session_state={lp.PRACTICE_OPEN.skey: True})
    assert_no_exception(at)
    prompts = [m.value for m in at.main.get("markdown") if "which pair does merge" in str(m.value)
               or "how many tokens is" in str(m.value)]
    assert len(prompts) == 2
    button(at, "New questions").click().run()
    assert_no_exception(at)


def test_bad_link_falls_back_to_the_first_lesson() -> None:
    at = run_page(PAGE, query_params={"lesson": "nope"})
    assert at.session_state[lp.LESSON.skey] == "why-tokens"


def test_a_number_feedback_says_1_code_point_not_1_code_points() -> None:
    """One plural rule: a guess of 1 for "how many code points is कि?" reads "1 code point", the truth "2 code points"."""
    lesson = course().lesson("bytes-per-character")
    exercise = next(e for e in lesson.exercises if e.id == "ki-code-points")
    truth = compute(exercise.op, exercise.args).answer
    at = lesson_page(lesson.id)
    at.number_input(key=predict.input_key(exercise_question(exercise))).set_value(1).run()
    exercise_box(at, lesson.exercises.index(exercise) + 1).click().run()
    shown = page_text(at)
    assert f"Not this time. You predicted 1 code point; the lab computed {truth} code points." in shown
    assert "1 code points" not in shown


def test_the_tied_wordpiece_pair_is_right_and_the_feedback_names_the_tie() -> None:
    """m + o scores exactly what p + o scores: picking it is right, and the feedback says it ties (not "the top
    count", which WordPiece does not use) and which rule broke the tie."""
    lesson = course().lesson("the-family")
    exercise = next(e for e in lesson.exercises if e.id == "wordpiece-first")
    at = lesson_page(lesson.id)
    at.radio(key=predict.input_key(exercise_question(exercise))).set_value("m + o").run()
    exercise_box(at, lesson.exercises.index(exercise) + 1).click().run()
    shown = page_text(at)
    assert "Right: m + o ties with the lab's pick, p + o." in shown
    assert "Tie: p + o and m + o both score 0.200. The pair met first, reading the words in order, wins" in shown
    assert "top count" not in shown


def test_the_pages_chrome_in_hindi() -> None:
    """?lang=hi: the page's own words (the menu, the lesson's frame, the score, the worksheets, the progress box,
    classroom mode's parts and steps) in Hindi; the lessons' own text is in test_a_lesson_in_hindi."""
    from i18n import using

    n = len(course().lessons)
    at = lesson_page("bpe-training", lang="hi")
    assert_no_exception(at)
    text, shown = main_text(at), page_text(at)
    assert "**पाठ**" in text and "### मुख्य बातें" in text and "### पहले अनुमान, फिर चलाइए" in text
    assert "आख़िर तक आप ये कर पाएँगे:" in shown
    lesson = course().lesson("bpe-training")
    assert f"लगभग {lesson.minutes} मिनट · {len(lesson.exercises)} अभ्यासों में से 0 के जवाब दिए, 0 सही" in text
    with using("hi"):
        count = lp.lesson_count(n)
    assert n == 10 and count == "दस छोटे पाठ"
    assert f"{count}, टोकन क्या है से लेकर" in text and "आपका स्कोर: 0 जवाब में से 0 सही" in text
    assert [b.proto.label for b in at.main.get("download_button")] == [
        "वर्कशीट (Markdown)", "उत्तर-कुंजी (Markdown)", "मेरी प्रगति सहेजिए"]
    assert "फिर से शुरू कीजिए" in [b.label for b in at.button]
    assert lp.progress_label(lesson).startswith(f"{lesson.number}. {lesson.title}")  # outside a run: English
    at = lesson_page("bpe-training", lang="hi", classroom="1")
    assert at.selectbox(key=lp.LESSON.skey).label == "पाठ"
    assert "में से भाग 1" in main_text(at)
    assert at.button(key=lp.STEPPER.key("prev").skey).label == "पीछे"


def test_a_lesson_in_hindi() -> None:
    """Lesson 3 in Hindi: its title, objectives, text with the engine's figures in it, links, exercises and key points
    from lessons/course/hi/03-bytes-per-character.md; an answer given in Hindi is the same answer in English."""
    hi_chars = compute("code_points", {"text": "इंदौर साफ़ है"}).answer
    hi_bytes = compute("utf8_bytes", {"text": "इंदौर साफ़ है"}).answer
    at = lesson_page("bytes-per-character", lang="hi")
    assert_no_exception(at)
    text, shown = main_text(at), page_text(at)
    assert at.subheader[0].value == md_escape("3. प्रति कैरेक्टर बाइट")
    assert at.button(key=lp.pick_key("bytes-per-character").skey).label == "3. प्रति कैरेक्टर बाइट · 0/4"
    assert f"में {hi_chars} कोड पॉइंट और {hi_bytes} बाइट हैं" in text  # a figure computed by the engine, in Hindi
    assert "#### टेक्स्ट बाइट में रखा जाता है" in text and "Text is stored as bytes" not in text
    assert "किसी टेक्स्ट को UTF-8 बाइट, कोड पॉइंट और ग्रैफ़ीम क्लस्टर में गिनना" in shown  # an objective
    assert md_escape("खबर कितने UTF-8 बाइट है?") in text  # the exercises' prompts
    assert md_escape("“इंदौर साफ़ है” कितने UTF-8 बाइट है?") in text
    assert "- " + md_escape("UTF-8 में ASCII का हर कैरेक्टर एक बाइट लेता है") in text  # a key point
    labels = [link.proto.label for link in at.main.get("page_link") if link.proto.page == "Bytes_per_character"]
    assert [label.partition(md_escape(" ("))[0] for label in labels[:3]] == [  # (predict first), while it asks
        md_escape(t) for t in ("खबर और khabar, बाइट-दर-बाइट", "एक ही वाक्य कई लिपियों में",
                               "एक हिन्दी वाक्य के बाइट पर GPT-4 के टोकन")]
    # answered in Hindi: the explanation and view link in Hindi, the answer kept under the same id
    exercise = course("en").lesson("bytes-per-character").exercises[0]
    right = compute(exercise.op, exercise.args).answer
    next(n for n in at.number_input if n.value is None).set_value(right)
    at.run()
    next(b for b in at.button if b.label == "जाँचिए").click().run()
    shown = page_text(at)
    assert "UTF-8 में देवनागरी का हर कोड पॉइंट तीन बाइट लेता है" in shown
    assert "इसके बाइट देखिए" in [link.proto.label for link in at.main.get("page_link")]
    store = at.session_state[predict.STORE]
    assert store[f"lesson:{exercise.key}"]["right"] is True
    saved = to_json(store)  # the progress file, saved in Hindi, loaded in English: the same answer
    english = lesson_page("bytes-per-character")
    english.file_uploader(key=progress.load_key(lp.PAGE).skey).set_value(
        ("progress.json", saved.encode(), "application/json")).run()
    assert "1 answer added: 1 of 1 right" in page_text(english)
    assert "Your score: 1 right of 1 answer" in main_text(english)
    assert english.button(key=lp.pick_key("bytes-per-character").skey).label == "3. Bytes per character · 1/4"
    assert "every Devanagari code point takes three bytes in UTF-8" in page_text(english)


def test_a_lesson_without_its_hindi_is_shown_in_english(tmp_path, monkeypatch) -> None:
    """A half-translated course works: a lesson with no file in hi/ is its English, in the Hindi page's frame."""
    import shutil

    from lessons.course import COURSE, COURSE_ENV

    shutil.copytree(COURSE, tmp_path / "course")
    for path in (tmp_path / "course" / "hi").glob("*.md"):
        if not path.name.startswith("03-"):
            path.unlink()
    monkeypatch.setenv(COURSE_ENV, str(tmp_path / "course"))
    at = lesson_page("why-tokens", lang="hi")
    assert_no_exception(at)
    assert at.subheader[0].value == md_escape("1. Why tokens: words, characters, subwords")
    assert "### मुख्य बातें" in main_text(at)  # the page's own words stay Hindi
    assert at.button(key=lp.pick_key("bytes-per-character").skey).label.startswith("3. प्रति कैरेक्टर बाइट")


def test_a_page_links_back_to_its_lesson_in_hindi() -> None:
    """The lesson link other pages draw (ui.links.lesson_link) names the lesson in the learner's language."""
    at = run_page("pages/4_Bytes_per_character.py", query_params={"lang": "hi"})
    labels = [link.proto.label for link in at.main.get("page_link") if link.proto.page == "Lessons"]
    assert md_escape("पाठों में: 3. प्रति कैरेक्टर बाइट") in labels
