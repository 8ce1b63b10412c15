"""The lessons in Hindi (issue 28): the Hindi words of a lesson in ``lessons/course/hi/<file>`` laid over the English
lesson's facts (:mod:`lessons.overlay`), loaded per language, and refused by ``python -m lessons check`` whenever the
two languages disagree."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from i18n import MARKS, decimal, number, using
from lessons.checker import check
from lessons.course import COURSE, course, load_course, render_body
from lessons.exercises import compute
from lessons.overlay import quoted

ROOT = Path(__file__).resolve().parents[1]
LESSON3 = "03-bytes-per-character"
TRANSLATED = ("01-why-tokens", "02-bpe-training", LESSON3, "04-english-vs-hindi", "05-cost-context-speed")


def hindi_files() -> set[str]:
    return {p.stem for p in (COURSE / "hi").glob("*.md")}


# -- the real course ------------------------------------------------------------------------------------------
def test_lessons_1_to_5_have_their_hindi_and_the_facts_are_the_english_ones() -> None:
    english, hindi = course("en"), course("hi")
    assert hindi.problems == () and set(TRANSLATED) <= hindi_files()
    assert [lesson.id for lesson in hindi.lessons] == [lesson.id for lesson in english.lessons]
    for en, hi in zip(english.lessons, hindi.lessons):
        assert hi.lang == ("hi" if Path(en.file).stem in hindi_files() else "en")
        assert (hi.number, hi.minutes, hi.figures, hi.file) == (en.number, en.minutes, en.figures, en.file)
        assert [(t.page, t.params, t.figure, t.ask) for t in hi.tries] == [
            (t.page, t.params, t.figure, t.ask) for t in en.tries]
        for a, b in zip(en.exercises, hi.exercises):
            assert (b.key, b.op, b.kind, b.unit, b.tolerance, b.former_ids) == (a.key, a.op, a.kind, a.unit,
                                                                               a.tolerance, a.former_ids)
            assert b.args is a.args  # one object: the Hindi file cannot hold an answer's arguments
            assert (b.view and (b.view.page, b.view.params, b.view.ask)) == (a.view and (a.view.page, a.view.params,
                                                                                         a.view.ask))
        if hi.lang == "hi":
            assert hi.title != en.title and hi.body != en.body and hi.objectives != en.objectives
    assert english.lesson("bytes-per-character").title == "Bytes per character"  # English unchanged, the default


def test_a_hindi_exercise_has_the_english_answer() -> None:
    """Every exercise of a translated lesson is judged by the engine in both languages, with one answer."""
    english = course("en")
    for lesson in course("hi").lessons:
        if lesson.lang != "hi":
            continue
        for exercise in lesson.exercises:
            source = next(e for e in english.exercises if e.key == exercise.key)
            with using("hi"):
                in_hindi = compute(exercise.op, exercise.args).answer
            assert in_hindi == compute(source.op, source.args).answer, exercise.key
            for text in quoted(source.prompt):  # the text being tokenized is quoted as it is
                assert text in exercise.prompt


def test_lesson_3_in_hindi_computes_its_figures_and_groups_them_for_hindi() -> None:
    lesson = course("hi").lesson("bytes-per-character")
    with using("hi"):
        body = render_body(lesson)
    hi_bytes = compute("utf8_bytes", {"text": "इंदौर साफ़ है"}).answer
    assert f"{number(hi_bytes, 'hi')} बाइट हैं" in body and "{{" not in body
    assert body.count("### ") == 3  # the headings under the title, as in English
    month = course("hi").lesson("cost-context-speed")
    with using("hi"):
        text = render_body(month)
    amount = compute("month_cost", {"language": "hindi"}).answer
    assert "₹" + decimal(float(amount), 0, "hi") in text.replace("**", "")  # money with the rupee sign, Indian grouping
    assert "Rs " in render_body(course("en").lesson("cost-context-speed"))


def test_the_course_is_cached_per_language() -> None:
    assert course("hi") is course("hi") and course("en") is course("en") and course("hi") is not course("en")
    with using("hi"):
        assert course() is course("hi")
    assert course() is course("en")


def test_the_pseudo_locale_marks_a_translated_lesson_and_not_the_others() -> None:
    pseudo = course("xx")
    lesson = pseudo.lesson("bytes-per-character")
    assert lesson.title.startswith(MARKS[0]) and all(o.startswith(MARKS[0]) for o in lesson.objectives)
    assert all(e.prompt.startswith(MARKS[0]) for e in lesson.exercises)
    missing = [lesson for lesson in course("en").lessons if Path(lesson.file).stem not in hindi_files()]
    for english in missing:  # not translated: shown as it is, and so found by the pseudo-locale test
        assert pseudo.lesson(english.id).title == english.title


def test_the_checker_checks_the_hindi_by_default_and_says_so() -> None:
    done = subprocess.run([sys.executable, "-m", "lessons", "check", "--json", "--lang", "hi"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["problems"] == [] and set(out["languages"]) == {"hi"}
    assert {"why-tokens", "bpe-training", "bytes-per-character", "english-vs-hindi",
            "cost-context-speed"} <= set(out["languages"]["hi"])


# -- a tampered copy of lesson 3 -------------------------------------------------------------------------------
@pytest.fixture
def lesson3(tmp_path: Path) -> Path:
    """A course of lesson 3 alone, English and Hindi, in ``tmp_path``."""
    (tmp_path / "hi").mkdir()
    shutil.copy(COURSE / f"{LESSON3}.md", tmp_path)
    shutil.copy(COURSE / "hi" / f"{LESSON3}.md", tmp_path / "hi")
    (tmp_path / "index.toml").write_text(f'order = ["{LESSON3}"]\n')
    return tmp_path


def hindi(folder: Path) -> Path:
    return folder / "hi" / f"{LESSON3}.md"


def problems(folder: Path) -> list[str]:
    code, _out, found = check(load_course(folder), translations={"hi": load_course(folder, "hi")})
    assert (code == 0) == (found == [])
    return found


def tamper(folder: Path, old: str, new: str) -> None:
    text = hindi(folder).read_text(encoding="utf-8")
    assert old in text, old
    hindi(folder).write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_copy_passes(lesson3: Path) -> None:
    assert problems(lesson3) == []
    assert load_course(lesson3, "hi").lessons[0].lang == "hi"


@pytest.mark.parametrize(("old", "new", "said"), [
    ("[exercise.ki-code-points]", "[exercise.ki-points]", "exercise 'ki-code-points' has no translation"),
    ('view = "गिनिए"\n', 'view = "गिनिए"\n[exercise.extra]\nprompt = "x"\nexplain = "y"\n',
     "exercise 'extra' is not an exercise of the English lesson"),
    ('  "किसी टेक्स्ट को UTF-8 बाइट, कोड पॉइंट और ग्रैफ़ीम क्लस्टर में गिनना",\n', "",
     "'objectives' has 2, the English 3"),
    ('key_points = [\n', 'key_points = [\n  "एक और",\n', "'key_points' has 4, the English 3"),
    ('  "एक ही वाक्य कई लिपियों में",\n', "", "'try' has 2, the English 3"),
    ("{{hi_ratio}}", "2.8", "does not use {{hi_ratio}}"),
    ("{{hi_bytes}} बाइट हैं", "{{hi_bytes}} बाइट हैं, {{gpt2_vocab}}", "uses {{gpt2_vocab}}, which the English does not"),
    ("## अक्षर, कोड पॉइंट, क्लस्टर", "### अक्षर, कोड पॉइंट, क्लस्टर", "2 sections ('## ' headings), the English 3"),
    ('explain = "तीन अक्षर', 'explanation = "तीन अक्षर', "'explanation' is not a translation's field"),
    ('hint = "मात्रा बाईं', 'note = "मात्रा बाईं', "'note' is not a translation's field"),
    ('view = "इसके बाइट देखिए"\n', 'view = "इसके बाइट देखिए"\nhint = "सोचिए"\n',
     "'hint' is translated, but the English exercise has none"),
    ('prompt = "“इंदौर साफ़ है” कितने', 'prompt = "इंदौर साफ है कितने',
     "'prompt' does not quote 'इंदौर साफ़ है' as the English does"),
    ('title = "प्रति कैरेक्टर बाइट"\n', 'title = "प्रति कैरेक्टर बाइट"\nminutes = 5\n',
     "'minutes' is not a translation's field"),
    ('[exercise.khabar-bytes]\n', '[exercise.khabar-bytes]\nanswer = { op = "utf8_bytes", text = "x" }\n',
     "'answer' is not a translation's field"),
    ('title = "प्रति कैरेक्टर बाइट"\n', "", "'title' is missing"),
    # a technical word in a form the glossary rules out, or missing its glossary form
    ("बाइट-स्तर का टोकनाइज़र 256", "बाइट-स्तर का टोकनाइजर 256", "“tokenizer” is written"),
    ('"खबर कितने UTF-8 बाइट है?"', '"खबर कितने UTF-8 बाइट्स है?"', "“byte” is written"),
    ('explain = "ASCII के छह अक्षर', 'explain = "ASCII के छह वर्ण', "“letter” is “अक्षर” in the glossary"),
])
def test_a_hindi_file_that_disagrees_with_the_english_is_refused(lesson3: Path, old: str, new: str,
                                                                 said: str) -> None:
    tamper(lesson3, old, new)
    found = problems(lesson3)
    assert len(found) == 1 and found[0].startswith(f"hi/{LESSON3}.md") and said in found[0], found
    if "glossary" not in said and "written" not in said:  # refused: the lesson falls back to English
        assert load_course(lesson3, "hi").lessons[0].lang == "en"


def test_a_missing_field_of_an_exercise_is_refused(lesson3: Path) -> None:
    text = hindi(lesson3).read_text(encoding="utf-8")
    start = text.index('explain = "यह अक्षर क')
    hindi(lesson3).write_text(text[:start] + text[text.index("\n", start) + 1:], encoding="utf-8")
    assert any("exercise 'ki-code-points': 'explain' is missing" in p for p in problems(lesson3))


def test_a_lesson_without_its_hindi_is_english_and_the_check_passes(lesson3: Path) -> None:
    hindi(lesson3).unlink()
    course_hi = load_course(lesson3, "hi")
    assert course_hi.problems == () and course_hi.lessons[0].lang == "en"
    assert course_hi.lessons[0] == load_course(lesson3).lessons[0]
    assert problems(lesson3) == []


def test_a_translation_of_no_lesson_is_refused(lesson3: Path) -> None:
    hindi(lesson3).rename(lesson3 / "hi" / "03-bytes.md")
    assert problems(lesson3) == ["hi/03-bytes.md: there is no English lesson 03-bytes.md, so it is not shown"]


def test_the_command_refuses_a_tampered_copy(lesson3: Path) -> None:
    tamper(lesson3, "{{hi_ratio}}", "2.8")
    done = subprocess.run([sys.executable, "-m", "lessons", "check", "--course", str(lesson3)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout.strip() == "1 lesson, 4 exercises with computed answers, 1 problem; in hi: 0 of 1 (the others in English)"
    assert "problem: hi/03-bytes-per-character.md: the text does not use {{hi_ratio}}" in done.stderr


def test_a_worksheet_in_hindi() -> None:
    """The worksheet and answer key of a Hindi lesson, written in Hindi around it, the answers the engine's."""
    from lessons.worksheet import answer_key_markdown, worksheet_markdown

    lesson = course("hi").lesson("bytes-per-character")
    with using("hi"):
        sheet, key = worksheet_markdown(lesson), answer_key_markdown(lesson)
    assert sheet.startswith("# प्रति कैरेक्टर बाइट\n\nटोकनाइज़ेशन लैब की वर्कशीट · लगभग 20 मिनट\n\n## आप क्या कर पाएँगे")
    assert "**1.** खबर कितने UTF-8 बाइट है?" in sheet and "**4.** “इंदौर साफ़ है” कितने UTF-8 बाइट है?" in sheet
    answer = compute("utf8_bytes", {"text": "खबर"}).answer
    assert key.startswith("# प्रति कैरेक्टर बाइट: उत्तर-कुंजी") and f"जवाब: **{answer}" in key
    assert "Answer:" not in key and "What you will" not in sheet
