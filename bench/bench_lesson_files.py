"""What the largest course the bounds let in costs to load and check (lessons/course.py's ``MAX_`` figures).

Not a test: it prints figures. It writes a course at every bound at once (``MAX_LESSONS`` lesson files, each
nearly ``MAX_LESSON_BYTES``, with ``MAX_EXERCISES`` exercises and ``MAX_FIGURES`` figures computing on texts of
``MAX_TEXT`` characters with a lab model, links up to ``MAX_TRIES``) and measures, each in a fresh process:

* loading it (``load_course``: read, parse, check every field), what the Lessons page does once per process;
* one lesson's answers and figures computed (what the page computes the first time a lesson is opened);
* the whole ``python -m lessons check`` (every answer of every lesson), with ``--check``.

    python bench/bench_lesson_files.py            # load and one lesson
    python bench/bench_lesson_files.py --check    # and the whole checker (slow: every answer of 100 lessons)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lessons.course import (
    MAX_EXERCISES,
    MAX_FIGURES,
    MAX_LESSON_BYTES,
    MAX_LESSONS,
    MAX_TEXT,
    MAX_TRIES,
)

MEASURE = """
import json, resource, sys, time
from pathlib import Path
from lessons.course import load_course, render_body
from lessons.exercises import compute
start = time.process_time()
course = load_course(Path(sys.argv[1]))
loaded = time.process_time() - start
lesson = course.lessons[0]
start = time.process_time()
render_body(lesson)
for e in lesson.exercises:
    compute(e.op, e.args)
one = time.process_time() - start
print(json.dumps({"lessons": len(course.lessons), "problems": len(course.problems), "load_s": round(loaded, 2),
                  "one_lesson_s": round(one, 2),
                  "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}))
"""


def largest_lesson(number: int) -> str:
    """A lesson at every bound: the most exercises, figures and links, each text as long as allowed."""
    text = ("चाय पीने चलो, chai peene chalo. " * 100)[:MAX_TEXT]
    room = (MAX_LESSON_BYTES - 12_000) // (MAX_EXERCISES + MAX_FIGURES)  # the file's size bounds the texts first
    while len(text.encode()) > room:
        text = text[:-10]
    parts = [f"+++\nid = 'l{number}'\ntitle = 'Lesson {number}'\nminutes = 30\nobjectives = ['o']\nkey_points = ['k']\n"]
    for i in range(MAX_TRIES):
        parts.append(f"[[try]]\nlabel = 'l'\npage = 'Train_step_by_step'\nparams = {{preset = 'chai', step = '{i}'}}\n")
    ops = ("count_tokens", "split", "partial_tokens", "tokens_per_word", "stream_silent")
    for i in range(MAX_EXERCISES):
        parts.append(f"[[exercise]]\nid = 'e{i}'\nprompt = 'p'\nexplain = 'x'\n"
                     f"answer = {{op = '{ops[i % len(ops)]}', tokenizer = 'english-hindi-fair', text = '{text}'}}\n")
    parts.append("[figures]\n")
    for i in range(MAX_FIGURES):
        parts.append(f"f{i} = {{op = 'count_tokens', tokenizer = 'english-hindi-fair', text = '{text}', format = ','}}\n")
    front = "".join(parts)
    body = " ".join(f"{{{{f{i}}}}}" for i in range(MAX_FIGURES))
    filler = MAX_LESSON_BYTES - len(front.encode()) - len(body.encode()) - 20
    return front + "+++\n" + body + "\n" + "x" * max(filler, 0) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="also time the whole python -m lessons check")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as base:
        folder = Path(base)
        names = [f"{n:03}-lesson" for n in range(MAX_LESSONS)]
        (folder / "index.toml").write_text("order = [" + ", ".join(f'"{n}"' for n in names) + "]\n")
        for number, name in enumerate(names):
            (folder / f"{name}.md").write_text(largest_lesson(number), encoding="utf-8")
        size = sum(p.stat().st_size for p in folder.iterdir())
        text = largest_lesson(0).split("text = '")[1].split("'")[0]
        print(f"course: {MAX_LESSONS} lessons, {size / 1e6:.1f} MB, each {MAX_EXERCISES} exercises and {MAX_FIGURES} "
              f"figures on texts of {len(text):,} characters ({len(text.encode()):,} bytes), {MAX_TRIES} links")
        done = subprocess.run([sys.executable, "-c", MEASURE, str(folder)], cwd=ROOT, capture_output=True, text=True)
        print(done.stdout.strip() or done.stderr[-2000:])
        if args.check:
            import resource
            import time

            start = time.time()
            done = subprocess.run([sys.executable, "-m", "lessons", "check", "--course", str(folder)], cwd=ROOT,
                                  capture_output=True, text=True)
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            print(json.dumps({"check": done.stdout.strip(), "exit": done.returncode, "wall_s": round(time.time() - start, 1),
                              "peak_mb_children": round(usage.ru_maxrss / 1024)}))


if __name__ == "__main__":
    main()
