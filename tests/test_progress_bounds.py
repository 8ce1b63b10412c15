"""A progress file is an upload every learner of a shared server can send: what the worst one costs is bounded.

The bounds are by design where the file is read (lessons/progress.py: 2 MB, 10,000 answers, short guesses) and
where it is checked (ui/questions.py: a key names a question the lab computes once, or a page question that
waits). This test loads the costliest files a learner could make, in a subprocess with a hard CPU-time and
address-space limit, and reads what the load really took.
"""

from __future__ import annotations

import json

import pytest

from lessons.progress import FORMAT, MAX_ANSWERS, MAX_BYTES, VERSION, migrate_v1_key
from tests.bounded import CPU_LIMIT_S, MEMORY_LIMIT, run_bounded

LOAD = """
import json, sys, time
from views.lessons import progress
data = sys.stdin.buffer.read()
start = time.process_time()
try:
    merged, refused, summary = progress.load(data, {})
    outcome = f"{len(merged)} kept, {len(refused)} refused"
except ValueError as exc:
    outcome = f"refused: {exc}"
print(json.dumps({"outcome": outcome, "cpu_s": time.process_time() - start}))
"""


def _file(answers: dict) -> bytes:
    """A version-1 file (answers by key): the migration reads each key against every kind of question."""
    return json.dumps({"format": FORMAT, "version": 1, "answers": answers}).encode()


def _file_v2(answers: dict) -> bytes:
    """The same answers in a version-2 file (by question id; a key that names no question as a made-up id)."""
    listed = []
    for key, entry in answers.items():
        qid = migrate_v1_key(key)
        named = qid.as_json() if qid else {"question": "made-up", "params": {"key": key}}
        listed.append(named | entry)
    return json.dumps({"format": FORMAT, "version": VERSION, "answers": listed}).encode()


def _costliest_answers() -> dict:
    """10,000 answers aimed at the work a key can cause: every merge question of every preset run (rebuilt and
    judged), every practice question, every lesson exercise with a wrong type, 1,000 of Cost's fit questions
    at the largest numbers a key holds (rebuilt and judged), page questions that wait, and
    made-up keys; long guesses where a guess may be long."""
    import lessons
    from ui import presets
    from ui.questions import COUNT_PRESETS, PRACTICE_PRESETS, run_key, unseen_words

    answers = {}
    for preset_id, preset in lessons.presets().items():
        run = run_key(preset.corpus, presets.preset_settings(preset_id))
        for k in range(1, preset.merges + 2):
            answers[f"train:{run}:{k}"] = {"guess": "x" * 190}
    for preset_id in PRACTICE_PRESETS:
        for k in range(1, 40):
            answers[f"practice:merge:{preset_id}:{k}"] = {"guess": "a + b"}
    for preset_id in COUNT_PRESETS:
        for word in unseen_words(preset_id):
            answers[f"practice:count:{preset_id}:{word}"] = {"guess": 3}
    from lessons.course import course

    for exercise in course().exercises:
        answers[f"lesson:{exercise.key}"] = {"guess": ["?"] * 400}
    big = 10**29  # Cost's "how many articles fit?" is rebuilt from the numbers in its key: the biggest a key may hold
    for i in range(1_000):
        answers[f"cost.fit.{big + i}.{big // 3}.{i}.{i + 1}"] = {"guess": big}
    i = 0
    while len(answers) < MAX_ANSWERS:
        answers[f"tokenize:o200k_base:{i:012x}"] = {"guess": 7}
        answers[f"made-up-{i}"] = {"guess": "y" * 150}
        i += 1
    return dict(list(answers.items())[:MAX_ANSWERS])


def _nested() -> bytes:
    """Just under the size limit, JSON nested far deeper than Python's recursion limit."""
    depth = (MAX_BYTES - 100) // 2
    return b'{"format": "tokenization-lab/progress", "answers": ' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("name", ["costliest answers", "costliest answers, version 2", "deep nesting",
                                  "too many answers"])
def test_the_worst_progress_file_loads_within_its_bounds(name: str) -> None:
    if name == "costliest answers":
        data = _file(_costliest_answers())
    elif name == "costliest answers, version 2":
        data = _file_v2(_costliest_answers())
    elif name == "deep nesting":
        data = _nested()
    else:
        data = _file({f"made-up-{i}": {"guess": 1} for i in range(MAX_ANSWERS + 1)})
    assert len(data) <= MAX_BYTES + 200_000  # the size a learner can upload (the uploader stops at 2 MB)
    done = run_bounded(["-c", LOAD], stdin=data, cpu_limit_s=CPU_LIMIT_S, memory_limit=MEMORY_LIMIT)
    assert done.code == 0, done.err[-2000:]
    report = json.loads(done.out.strip().splitlines()[-1])
    if name.startswith("costliest answers"):
        assert report["outcome"].endswith("refused") and "kept" in report["outcome"], report
    else:
        assert report["outcome"].startswith("refused: "), report
    assert report["cpu_s"] < CPU_LIMIT_S / 2, report  # the load itself, well inside the limit
    done.assert_bounded(cpu_s=CPU_LIMIT_S, peak_mb=1500)  # Python with pandas and Streamlit, and the whole file
