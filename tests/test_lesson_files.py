"""Broken lesson files (issue 15, item 6): each is one ``problem: FILE: field: what`` line, never a traceback; the
other lessons still load; what is read is bounded.

Each case writes a small course folder (a good lesson and the broken thing) and runs
``python -m lessons check --json --course DIR`` in a subprocess with CPU-time and address-space limits, then asserts
the exit code (2), the problem line, that the good lesson is still listed, no "Traceback", and what the check
really cost (CPU time and peak memory of the child, tests/bounded.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessons.checker import check
from lessons.course import (
    MAX_EXERCISES,
    MAX_FIGURES,
    MAX_INDEX_BYTES,
    MAX_LESSON_BYTES,
    MAX_LESSONS,
    MAX_TEXT,
    MAX_TRIES,
    load_course,
)
from lessons.lessonfile import MAX_DEPTH
from tests.bounded import ENGINE_CPU_LIMIT_S, ENGINE_MEMORY_LIMIT, run_bounded
from views import lessons as lp

ROOT = Path(__file__).resolve().parents[1]
CPU_BOUND_S = 10  # what a check may cost, generously (each measured at well under a second)
MEMORY_BOUND_MB = 600

HEAD = "+++\nid = '{id}'\ntitle = 'A lesson'\nminutes = 5\nobjectives = ['o']\nkey_points = ['k']\n"
GOOD = (HEAD.format(id="good") + "[[exercise]]\nid = 'bytes'\nprompt = 'p'\nexplain = 'x'\n"
        "answer = {op = 'utf8_bytes', text = 'चाय'}\n+++\nA good lesson.\n").encode()
INDEX = b'order = ["good", "bad"]\n'


def lesson(front: str = "", body: str = "x") -> bytes:
    """A lesson file named ``bad`` with ``front`` added to its front matter."""
    return (HEAD.format(id="bad") + front + "+++\n" + body + "\n").encode()


def exercise(answer: str) -> bytes:
    return lesson(f"[[exercise]]\nid = 'e'\nprompt = 'p'\nexplain = 'x'\nanswer = {{op = {answer}}}\n")


def figure(spec: str) -> bytes:
    return lesson(f"[figures]\nn = {{{spec}}}\n", "The figure: {{n}}.")


CANNOT = "bad.md: exercise 'e': the answer cannot be computed: "
RATIO = "{op = 'utf8_bytes', text = 'a'}"
UTF8 = "'utf8_bytes', text = 'a'"
OUTSIDE = "outside-the-course"  # a lesson file next to the course folder, which must never be read

# (id, files of the course besides good.md, the problem line expected after "problem: ")
CASES = [
    # index.toml
    ("index not UTF-8", {"index.toml": "# café\norder = ['good']\n".encode("latin-1")},
     "index.toml: not UTF-8 text (byte 0xe9 at position 5); save it as UTF-8; the lessons are shown in the order "
     "of their file names"),
    ("index binary", {"index.toml": bytes(range(256)) * 8}, "index.toml: not UTF-8 text (byte 0x80 at position 128)"),
    ("index NUL byte", {"index.toml": b'order = ["good"]\x00\n'}, "index.toml: holds a NUL character (position 16)"),
    ("index UTF-16", {"index.toml": 'order = ["good"]\n'.encode("utf-16")}, "index.toml: UTF-16 text; save it as UTF-8"),
    ("index not TOML", {"index.toml": b"order = [\n"}, "index.toml: not valid TOML"),
    ("NUL in order", {"index.toml": b'order = ["good", "bad\\u0000.md"]\n'},
     "index.toml: order: 'bad\\x00.md' is not a lesson's name"),
    ("deep nesting in order", {"index.toml": b"order = " + b"[" * 5000 + b"]" * 5000 + b"\n"},
     f"index.toml: tables or lists nest too deeply (a lesson file nests them at most {MAX_DEPTH} levels)"),
    ("nesting in order", {"index.toml": b"order = " + b"[" * 20 + b"]" * 20 + b"\n"}, "index.toml: tables or lists nest"),
    ("order not a list", {"index.toml": b'order = "good"\n'}, "index.toml: order: must be a list of lesson file names"),
    ("order names a list", {"index.toml": b'order = ["good", ["bad"]]\n'}, "index.toml: order: entry 2 is not a lesson's"),
    ("path traversal", {"index.toml": f'order = ["good", "../{OUTSIDE}"]\n'.encode()},
     f"index.toml: order: '../{OUTSIDE}' is not a lesson's name"),
    ("absolute path", {"index.toml": b'order = ["good", "/etc/hostname"]\n'},
     "index.toml: order: '/etc/hostname' is not a lesson's name"),
    ("hidden name", {"index.toml": b'order = ["good", ".bad"]\n'}, "index.toml: order: '.bad' is not a lesson's name"),
    ("link leading out", {"bad.md": ("symlink", f"../{OUTSIDE}.md")},
     "bad.md: it is a link that leads outside the course folder"),
    ("link to a device", {"bad.md": ("symlink", "/dev/zero")}, "bad.md: it is a link that leads outside"),
    ("index a link leading out", {"index.toml": ("symlink", "/etc/hostname")},
     "index.toml: it is a link that leads outside the course folder, which the lab does not read; the lessons are "
     "shown in the order of their file names"),
    ("named pipe", {"bad.md": ("fifo", "")}, "bad.md: not a regular file (a folder, a device or a pipe)"),
    ("folder", {"bad.md": ("folder", "")}, "bad.md: not a regular file"),
    ("index too big", {"index.toml": b'order = ["good"]\n' + b"#" * MAX_INDEX_BYTES},
     f"index.toml: {MAX_INDEX_BYTES + 17:,} bytes; a file of the course may be up to {MAX_INDEX_BYTES:,}"),
    ("too many lessons", {"index.toml": ("order = [\"good\"" + ", \"bad\"" * MAX_LESSONS + "]\n").encode()},
     f"index.toml: order: {MAX_LESSONS + 1} lessons; a course may have up to {MAX_LESSONS}, the first {MAX_LESSONS} "
     "are read"),
    ("missing lesson", {}, "bad.md: the index lists it, but there is no such file"),
    # a lesson's file
    ("lesson not UTF-8", {"bad.md": lesson("# café\n").replace("é".encode(), b"\xe9")}, "bad.md: not UTF-8 text (byte 0xe9"),
    ("lesson binary", {"bad.md": b"\x7fELF\x02\x01\x01\x00" + bytes(200)}, "bad.md: holds a NUL character (position 7)"),
    ("lesson too big", {"bad.md": lesson(body="x" * MAX_LESSON_BYTES)},
     f"bad.md: {len(lesson(body='x' * MAX_LESSON_BYTES)):,} bytes; a file of the course may be up to {MAX_LESSON_BYTES:,}"),
    ("deep nesting", {"bad.md": lesson("x = " + "[" * 3000 + "]" * 3000 + "\n")},
     "bad.md: front matter: tables or lists nest too deeply"),
    ("deep inline tables", {"bad.md": lesson("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")},
     "bad.md: front matter: tables or lists nest too deeply"),
    ("deep dotted keys", {"bad.md": lesson("x." + ".".join("k" * 20) + " = 1\n")}, "bad.md: front matter: tables or lists"),
    ("ratio of ratios", {"bad.md": exercise("'ratio', denominator = " + RATIO + ", numerator = "
                                            + ("{op = 'ratio', denominator = " + RATIO + ", numerator = ") * 10
                                            + RATIO + "}" * 10)}, "bad.md: front matter: tables or lists nest"),
    ("too many exercises", {"bad.md": lesson("".join(f"[[exercise]]\nid = 'e{i}'\nprompt = 'p'\nexplain = 'x'\n"
                                                     f"answer = {{op = {UTF8}}}\n" for i in range(MAX_EXERCISES + 1)))},
     f"bad.md: exercise: {MAX_EXERCISES + 1} exercises; a lesson may have up to {MAX_EXERCISES}"),
    ("too many figures", {"bad.md": lesson("[figures]\n" + "".join(f"f{i} = {{op = {UTF8}}}\n"
                                                                   for i in range(MAX_FIGURES + 1)))},
     f"bad.md: figures: {MAX_FIGURES + 1} figures; a lesson may have up to {MAX_FIGURES}"),
    ("too many links", {"bad.md": lesson("[[try]]\nlabel = 'l'\npage = 'Lessons'\n" * (MAX_TRIES + 1))},
     f"bad.md: try: {MAX_TRIES + 1} links; a lesson may have up to {MAX_TRIES}"),
    ("long text", {"bad.md": exercise(f"'utf8_bytes', text = '{'a' * (MAX_TEXT + 1)}'")},
     f"bad.md exercise 1 'e' answer: a text of {MAX_TEXT + 1:,} characters; an answer computes on texts of up to "
     f"{MAX_TEXT:,}"),
    ("tolerance nan", {"bad.md": lesson(f"[[exercise]]\nid = 'e'\nprompt = 'p'\nexplain = 'x'\ntolerance = nan\n"
                                        f"answer = {{op = {UTF8}}}\n")}, "bad.md exercise 1 'e': 'tolerance' must be"),
    # figures
    ("figure op a list", {"bad.md": figure("op = ['utf8_bytes'], text = 'a'")}, "bad.md: figures.n: must name an 'op'"),
    ("figure op a table", {"bad.md": figure("op = {utf8_bytes = 1}, text = 'a'")}, "bad.md: figures.n: must name an 'op'"),
    ("unknown format", {"bad.md": figure(f"op = {UTF8}, format = 'zz'")},
     "bad.md: figures.n: 'format' 'zz' is not one the lab writes"),
    ("format of a huge width", {"bad.md": figure(f"op = {UTF8}, format = '900000000'")},
     "bad.md: figures.n: 'format' '900000000' is not one the lab writes"),
    ("format of the wrong type", {"bad.md": figure(f"op = {UTF8}, format = 2")}, "bad.md: figures.n: 'format' 2 is not"),
    ("format that does not fit", {"bad.md": figure("op = 'split', tokenizer = 'chai', text = 'chai', format = ','")},
     "bad.md: figures.n: the format ',' does not fit its value"),
    ("figure argument type", {"bad.md": figure("op = 'merge_at', preset = 'chai', step = 1, options = [1]")},
     "bad.md: figures.n: 'options' must be a whole number, not [1]"),
    ("figure name", {"bad.md": lesson('[figures]\n"a b" = {op = "utf8_bytes", text = "a"}\n')},
     "bad.md: figures.a b: a figure's name is letters, digits and '_'"),
    # exercise arguments of the wrong type
    ("options a list", {"bad.md": exercise("'merge_at', preset = 'chai', step = 1, options = [1]")},
     "bad.md: exercise 'e': the answer cannot be computed: 'options' must be a whole number, not [1]"),
    ("ratio without op", {"bad.md": exercise("'ratio', numerator = {text = 'a'}, denominator = " + RATIO)},
     "bad.md: exercise 'e': the answer cannot be computed: 'numerator' must be a table naming its own 'op'"),
    ("ratio digits a list", {"bad.md": exercise(f"'ratio', numerator = {RATIO}, denominator = {RATIO}, digits = []")},
     CANNOT + "'digits' must be a whole number, not []"),
    ("ratio of tokens", {"bad.md": exercise(f"'ratio', numerator = {{op = 'split', tokenizer = 'chai', text = 'a'}}, "
                                            f"denominator = {RATIO}")},
     "bad.md: exercise 'e': the answer cannot be computed: 'numerator' and 'denominator' must each compute a number"),
    ("candidates a number", {"bad.md": exercise("'word_splits_into', tokenizer = 'chai', max_letters = 5, "
                                                "min_tokens = 2, candidates = 5")}, CANNOT + "'candidates' must be a list of texts"),
    ("candidates numbers", {"bad.md": exercise("'word_splits_into', tokenizer = 'chai', max_letters = 5, "
                                               "min_tokens = 2, candidates = [5]")}, CANNOT + "'candidates' must be a list of texts"),
    ("scenario a list", {"bad.md": exercise("'article_cost', scenario = [], language = 'hindi'")},
     CANNOT + "'scenario' must be text, not []"),
    ("what a list", {"bad.md": exercise("'vocab_ids', tokenizer = 'chai', what = []")}, CANNOT + "'what' must be text, not []"),
    ("flag a list", {"bad.md": exercise("'article_cost', language = 'hindi', cleaned = []")},
     CANNOT + "'cleaned' must be true or false, not []"),
]


def write_course(base: Path, files: dict) -> Path:
    """``base/course`` with good.md, index.toml (unless ``files`` has its own) and ``files``; a lesson file next to
    the folder that only a path or a link leading out could reach."""
    folder = base / "course"
    folder.mkdir()
    (base / f"{OUTSIDE}.md").write_bytes(lesson().replace(b"id = 'bad'", b"id = 'outside'"))
    (folder / "good.md").write_bytes(GOOD)
    files = {"index.toml": INDEX, **files}
    for name, content in files.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content[0] == "symlink":
            path.symlink_to(content[1])
        elif content[0] == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()
    return folder


def run_check(folder: Path) -> tuple[int, str, str, float, float]:
    """(exit code, stdout, stderr, CPU seconds, peak MB) of ``python -m lessons check --json --course folder``."""
    done = run_bounded(["-m", "lessons", "check", "--json", "--course", str(folder)], cwd=ROOT,
                       cpu_limit_s=ENGINE_CPU_LIMIT_S, memory_limit=ENGINE_MEMORY_LIMIT)
    return done.code, done.out, done.err, done.cpu_s, done.peak_mb


@pytest.mark.parametrize(("files", "problem"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_broken_lesson_file_is_one_problem_line(tmp_path: Path, files: dict, problem: str) -> None:
    code, out, err, cpu_s, peak_mb = run_check(write_course(tmp_path, files))
    assert "Traceback" not in err + out, err[-3000:]
    assert code == 2, (code, err[-2000:])
    lines = err.splitlines()
    assert lines and all(line.startswith("problem: ") for line in lines), err[-2000:]
    assert any(line.startswith("problem: " + problem) for line in lines), err[-2000:]
    report = json.loads(out)  # --json prints the problems too, and the lessons that loaded
    assert report["problems"] == [line.removeprefix("problem: ") for line in lines]
    assert "good" in [item["id"] for item in report["lessons"]], report  # every other lesson still loads
    assert "outside" not in [item["id"] for item in report["lessons"]]  # nothing outside the folder is read
    assert cpu_s < CPU_BOUND_S and peak_mb < MEMORY_BOUND_MB, (cpu_s, peak_mb)


def test_a_lesson_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    bad_with_bom = b"\xef\xbb\xbf" + lesson(body="Saved by an editor that starts UTF-8 with a BOM.")
    code, out, err, _, _ = run_check(write_course(tmp_path, {"bad.md": bad_with_bom,
                                                             "index.toml": b"\xef\xbb\xbf" + INDEX}))
    assert (code, err) == (0, ""), err
    assert [item["id"] for item in json.loads(out)["lessons"]] == ["good", "bad"]


def test_the_shipped_course_checks_clean_with_the_option_and_the_variable(tmp_path: Path) -> None:
    course = ROOT / "lessons" / "course"
    code, out, err, _, _ = run_check(course)
    assert (code, err) == (0, "") and len(json.loads(out)["lessons"]) == 10, err
    env = {**os.environ, "LAB_COURSE_DIR": str(write_course(tmp_path, {"index.toml": b'order = ["good"]\n'}))}
    done = subprocess.run([sys.executable, "-m", "lessons", "check"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "1 lesson, 1 exercise with computed answers, 0 problems")


def test_a_missing_course_folder_is_a_problem_not_a_traceback(tmp_path: Path) -> None:
    code, out, err, _, _ = run_check(tmp_path / "nowhere")
    assert code == 2 and "Traceback" not in err
    assert err == f"problem: {tmp_path / 'nowhere'}: the course folder cannot be read (no such folder)\n"


# -- any bytes: a course, never an exception ----------------------------------------------------------------------
FRONT_PIECES = st.sampled_from([
    "[[exercise]]\n", "[figures]\n", "[[try]]\n", "id = 'e'\n", "prompt = 'p'\n", "explain = 'x'\n",
    "answer = {op = 'ratio', numerator = {op = 'utf8_bytes', text = 'a'}, denominator = {op = 'code_points'}}\n",
    "answer = {op = 'merge_at', preset = 'chai', step = 1, options = 'x'}\n", "n = {op = 'split', format = ','}\n",
    "n = {op = 'utf8_bytes', text = 'a', format = '.2f'}\n", "page = 'Lessons'\n", "params = {preset = []}\n",
    "tolerance = inf\n", "kind = 'number'\n", "view = {page = 'Lessons'}\n", "label = 'l'\n", "minutes = 0\n",
    "x = [[[[[[[[[[1]]]]]]]]]]\n", "a.b.c.d.e.f.g.h = 1\n", "\x00", "\r\n", "\ufeff", "{{n}}", "+++\n", "'", '"',
])


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(index=st.one_of(st.binary(max_size=200), st.just(b'order = ["good", "bad"]\n')),
       front=st.lists(FRONT_PIECES, max_size=12), noise=st.binary(max_size=40))
def test_any_lesson_file_loads_as_lessons_and_problems(index: bytes, front: list[str], noise: bytes) -> None:
    """Whatever the index and a lesson file hold, loading and checking give lessons and one-line problems."""
    with tempfile.TemporaryDirectory() as base:
        folder = write_course(Path(base), {"index.toml": index, "bad.md": lesson("".join(front), "{{n}}") + noise})
        code, _, problems = check(load_course(folder))
    assert code in (0, 2) and all(isinstance(p, str) and p for p in problems)


# -- the Lessons page with a broken course ---------------------------------------------------------------------------
MARKUP_FIELD = '"**<b>bold</b>** :material/error: [a](https://example.com)" = 1\n'  # a field name a page must not format


@pytest.fixture
def broken_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Lessons page reading a course of a good lesson, a lesson with a markup field name, a figure that cannot
    be computed, and an index entry leading out of the folder (``LAB_COURSE_DIR``, as an operator would set it)."""
    folder = write_course(tmp_path, {
        "index.toml": f'order = ["good", "bad", "../{OUTSIDE}", "figure"]\n'.encode(),
        "bad.md": lesson(MARKUP_FIELD),
        "figure.md": lesson("[figures]\nn = {op = 'split', tokenizer = 'chai', text = 'chai', format = ','}\n",
                            "The figure: {{n}}.").replace(b"id = 'bad'", b"id = 'figure'"),
    })
    monkeypatch.setenv("LAB_COURSE_DIR", str(folder))
    return folder


def test_the_lessons_page_shows_each_problem_as_text_and_the_other_lessons(broken_course: Path) -> None:
    from tests.apptest_helpers import assert_no_exception, main_text, run_page
    from ui.display import md_escape

    problems = load_course(broken_course).problems
    assert [p.split(":")[0] for p in problems] == ["index.toml", "bad.md"]
    at = run_page("pages/12_Lessons.py")
    assert_no_exception(at)
    warnings = [w.value for w in at.warning]
    for problem in problems:  # escaped: shown exactly as written, never as bold, HTML, an icon or a link
        assert md_escape(f"A lesson could not be loaded: {problem}") in warnings
    assert "**<b>" not in main_text(at) and "\\*\\*\\<b\\>bold" in main_text(at)
    picks = [b.key for b in at.button if (b.key or "").startswith(lp.pick_key("").skey)]
    assert picks == [lp.pick_key("good").skey, lp.pick_key("figure").skey]
    assert "A good lesson." in main_text(at) and "Two short lessons, from" in main_text(at)
    labels = [b.label for b in at.button if (b.key or "").startswith(lp.pick_key("").skey)]
    assert labels[0].startswith("1. ") and labels[1].startswith("4. ")  # each keeps its place in the index
    at.button(key=lp.pick_key("figure").skey).click().run()
    assert_no_exception(at)  # the figure that cannot be computed is said in the lesson, and its text still shown
    said = md_escape("A number in this lesson cannot be computed here: figures.n: the format ',' does not fit")
    assert any(w.value.startswith(said) for w in at.warning), [w.value for w in at.warning]
    assert "The figure: {{n}}." in main_text(at)


def test_the_lessons_page_with_no_lesson_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.apptest_helpers import assert_no_exception, main_text, run_page
    from ui.display import md_escape

    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "index.toml").write_bytes(b"\xff\xfe\x00\x00binary")
    monkeypatch.setenv("LAB_COURSE_DIR", str(folder))
    at = run_page("pages/12_Lessons.py")
    assert_no_exception(at)
    assert md_escape("index.toml: UTF-16 text; save it as UTF-8") in main_text(at)
    assert "There are no lessons to show." in main_text(at)


def test_a_worksheet_of_a_lesson_with_a_broken_exercise_names_it_and_keeps_the_others(tmp_path: Path) -> None:
    from lessons.worksheet import answer_key_markdown, worksheet_markdown

    broken = lesson("".join(f"[[exercise]]\nid = 'e{i}'\nprompt = 'Question {i}'\nexplain = 'x'\nanswer = {{op = {a}}}\n"
                            for i, a in enumerate((UTF8, "'merge_at', preset = 'chai', step = 1, options = [1]", UTF8))))
    loaded = load_course(write_course(tmp_path, {"bad.md": broken}))
    bad = loaded.lesson("bad")
    for sheet in (worksheet_markdown(bad), answer_key_markdown(bad)):
        assert "Question 0" in sheet and "Question 2" in sheet
        assert "(This exercise cannot be computed here: 'options' must be a whole number, not [1].)" in sheet


# -- a hostile translation (lessons/course/hi/, lessons.overlay): read with the same bounds -----------------------
# The check reads each lesson's Hindi file beside the English one (the course folder has hi/), as the Lessons page
# does in Hindi: whatever that file holds, the English lesson is still listed, the Hindi file is one problem line
# ("...; the lesson is shown in English"), and what it costs is bounded like an English file's.
LONG_FIGURE = "n = {op = 'split', tokenizer = 'chai', text = '" + ("चाय " * 500)[:MAX_TEXT - 10] + "'}\n"
"""A figure whose value is long: the tokens of a text of the longest an answer computes on (8 KB as the text shows
them; 20 KB with GPT-4's tokenizer)."""
ENGLISH = (HEAD.format(id="good") + "[[exercise]]\nid = 'bytes'\nprompt = 'How many bytes is `चाय`?'\nexplain = 'x'\n"
           "answer = {op = 'utf8_bytes', text = 'चाय'}\n[figures]\n" + LONG_FIGURE + "+++\nThe figure: {{n}}.\n")
HINDI_HEAD = "+++\ntitle = 'पाठ'\nobjectives = ['उ']\nkey_points = ['मु']\n"


def hindi(front: str = "", body: str = "आकृति: {{n}}", prompt: str = "`चाय` कितने बाइट है?") -> bytes:
    """A Hindi file of the English lesson ``good``, with ``front`` added to its front matter (before its exercise's
    table)."""
    return (HINDI_HEAD + front + f"[exercise.bytes]\nprompt = '{prompt}'\nexplain = 'क्यों'\n+++\n{body}\n").encode()


OVERLAY_CASES = [
    ("too big", hindi(body="{{n}}" + "x" * MAX_LESSON_BYTES), "bytes; a file of the course may be up to"),
    ("not UTF-8", hindi("# café\n").replace("é".encode(), b"\xe9"), "not UTF-8 text (byte 0xe9"),
    ("binary", b"\x7fELF\x02\x01\x01\x00" + bytes(200), "holds a NUL character (position 7)"),
    ("UTF-16", hindi().decode().encode("utf-16"), "UTF-16 text; save it as UTF-8"),
    ("deep nesting", hindi("x = " + "[" * 3000 + "]" * 3000 + "\n"),
     "hi/good.md: front matter: tables or lists nest too deeply"),
    ("deep inline tables", hindi("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n"),
     "hi/good.md: front matter: tables or lists nest too deeply"),
    ("deep exercise tables", hindi("[exercise.bytes." + ".".join("k" * 20) + "]\n"),
     "hi/good.md: front matter: tables or lists nest too deeply"),
    ("thousands of tables", hindi("".join(f"[exercise.e{i}]\nprompt = 'p'\n" for i in range(4000))),
     "hi/good.md: exercise 'e0' is not an exercise of the English lesson"),
    ("a list of thousands", hindi("try = [" + "'l', " * 20_000 + "]\n"), "hi/good.md: 'try' has 20000, the English 0"),
    ("named pipe", ("fifo", ""), "not a regular file (a folder, a device or a pipe)"),
    ("folder", ("folder", ""), "not a regular file"),
    ("link leading out", ("symlink", f"../../{OUTSIDE}.md"), "it is a link that leads outside the course folder"),
]


def overlay_course(base: Path, hindi_file: bytes | tuple[str, str], english: bytes = ENGLISH.encode()) -> Path:
    """``base/course``: the lesson ``good`` (``english``) and its Hindi file ``hi/good.md`` (bytes, or a link, a
    pipe or a folder, as :func:`write_course` makes them)."""
    folder = write_course(base, {"index.toml": b'order = ["good"]\n', "good.md": english})
    (folder / "hi").mkdir()
    path = folder / "hi" / "good.md"
    if isinstance(hindi_file, bytes):
        path.write_bytes(hindi_file)
    elif hindi_file[0] == "symlink":
        path.symlink_to(hindi_file[1])
    elif hindi_file[0] == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    return folder


@pytest.mark.parametrize(("hindi_file", "problem"), [case[1:] for case in OVERLAY_CASES],
                         ids=[case[0] for case in OVERLAY_CASES])
def test_a_hostile_translation_is_one_problem_line_and_the_lesson_is_english(tmp_path: Path, hindi_file,
                                                                             problem: str) -> None:
    code, out, err, cpu_s, peak_mb = run_check(overlay_course(tmp_path, hindi_file))
    assert "Traceback" not in err + out, err[-3000:]
    assert code == 2, (code, err[-2000:])
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("problem: "), err[-2000:]
    assert problem in lines[0] and lines[0].endswith("; the lesson is shown in English"), lines[0][:2000]
    report = json.loads(out)
    assert [item["id"] for item in report["lessons"]] == ["good"] and report["languages"] == {"hi": []}
    assert cpu_s < CPU_BOUND_S and peak_mb < MEMORY_BOUND_MB, (cpu_s, peak_mb)


@pytest.mark.xfail(strict=True, reason="a lesson's text with its figures written in is not bounded but by the file's "
                   "size times a figure's length: 26,000 placeholders of a 20 KB figure are 530 MB of text, 1.09 GB "
                   "at the peak, in English as in Hindi (render_body); a bound on it is a change of behaviour, "
                   "reported by the review of issue 28 (rv-lessons), not made")
def test_a_translation_of_placeholders_only_is_bounded(tmp_path: Path) -> None:
    """A Hindi body of nothing but ``{{n}}`` (some 26,000 of them, up to the size bound), each the tokens GPT-4's
    tokenizer makes of the longest text a figure computes on: the check writes the text within the bounds."""
    english = ENGLISH.replace("tokenizer = 'chai'", "tokenizer = 'cl100k_base'")
    room = MAX_LESSON_BYTES - len(hindi(body=""))
    code, out, err, cpu_s, peak_mb = run_check(overlay_course(tmp_path, hindi(body="{{n}}" * (room // 5)),
                                                              english.encode()))
    assert (code, err) == (0, ""), err[-2000:]
    assert json.loads(out)["languages"] == {"hi": ["good"]}  # used: the same placeholders as the English
    assert cpu_s < CPU_BOUND_S and peak_mb < MEMORY_BOUND_MB, (cpu_s, peak_mb)


def test_a_translation_that_must_quote_thousands_of_texts_is_bounded(tmp_path: Path) -> None:
    """An English prompt quoting 10,000 texts (each must be quoted as it is in the translation's prompt) and a
    Hindi prompt quoting all but the last, after 30 KB of other words: every text is looked for in the whole prompt,
    within the bounds."""
    texts = [f"a{i:05d}" for i in range(10_000)]
    english = ENGLISH.replace("'How many bytes is `चाय`?'", "'" + " ".join(f"`{t}`" for t in texts) + "'")
    translation = hindi(prompt="a" * 30_000 + " ".join(f"`{t}`" for t in reversed(texts[:-1])))
    assert len(translation) <= MAX_LESSON_BYTES and len(english.encode()) <= MAX_LESSON_BYTES
    code, out, err, cpu_s, peak_mb = run_check(overlay_course(tmp_path, translation, english.encode()))
    assert code == 2 and "Traceback" not in err, err[-2000:]
    assert err.startswith("problem: hi/good.md exercise 'bytes': 'prompt' does not quote 'a09999' as the English does")
    assert cpu_s < CPU_BOUND_S and peak_mb < MEMORY_BOUND_MB, (cpu_s, peak_mb)
