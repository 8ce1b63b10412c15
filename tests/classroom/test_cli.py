"""``python -m lessons class start|report|end|purge``, on both databases: as a teacher runs it (subprocesses),
and every mistake exits 2 with one line on standard error."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from lessons.classroom import Classes, ClassUnavailable, open_database
from lessons.commands import main
from tests.cli_helpers import assert_one_line_error

ROOT = Path(__file__).resolve().parents[2]


def lessons(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m lessons ARGS`` as a separate process, in ``cwd``, without the caller's LAB_ settings."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("LAB_")}
    return subprocess.run([sys.executable, "-m", "lessons", *args], cwd=cwd, capture_output=True, text=True,
                          env={**base, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=120, check=False)


def in_process(capsys, *args: str) -> subprocess.CompletedProcess:
    """``python -m lessons ARGS`` in this process (the same parser and code, without a second start-up)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)


def test_start_report_end_and_purge_as_a_teacher_runs_them(db_url, tmp_path, capsys):
    """Each command a teacher runs as a real process (the text report and the first purge in this process)."""
    done = lessons("class", "start", "--title", "Week 3: BPE", "--expires", "7", "--json", "--database", db_url,
                   cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    started = json.loads(done.stdout)
    code = started["code"]
    assert set(started) == {"code", "learner_url", "teacher_url", "expires"}
    assert started["learner_url"] == f"/Class?code={code}"
    assert started["teacher_url"].startswith(f"/Class?code={code}&teacher=")
    secret = started["teacher_url"].split("&teacher=", 1)[1]
    with open_database(db_url) as db:
        classes = Classes(db)
        assert classes.is_teacher(code, secret)
        asha = classes.join(code, "Asha", client="a")
        sneaky = classes.join(code, "=cmd|' /C calc'!A0", client="b")
        classes.record_answer(code, asha.learner_id, "q1", "5", True)
        classes.record_answer(code, sneaky.learner_id, "q1", "7", False)
        poll = classes.pose(code, secret, {"id": "q9", "prompt": "How many?", "kind": "number", "choices": None})
        classes.vote(code, asha.learner_id, poll.poll_id, 1, "3", vote_id=str(uuid.uuid4()))

        done = lessons("class", "report", code, "--csv", "--database", db_url, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert list(csv.reader(io.StringIO(done.stdout))) == [  # q9: answered in a poll not revealed yet
            ["name", "answered", "right first try", "q1", "q9"], ["Asha", "2", "1", "right", "answered"],
            ["'=cmd|' /C calc'!A0", "1", "0", "wrong", ""]]  # a formula stays text in a spreadsheet

        done = lessons("class", "report", code, "--json", "--database", db_url, cwd=tmp_path)
        report = json.loads(done.stdout)
        assert (report["title"], report["joined"], report["open"]) == ("Week 3: BPE", 2, True)
        assert report["questions"] == [
            {"question": "q1", "prompt": "q1", "answered": 2, "right_first_try": 1, "percent_right": 50.0,
             "not_revealed": 0, "wrong": [{"answer": "7", "count": 1}]},
            {"question": "q9", "prompt": "How many?", "answered": 0, "right_first_try": 0, "percent_right": 0.0,
             "not_revealed": 1, "wrong": []}]
        assert report["polls"][0]["rounds"] == [{"round": 1, "answered": 1, "joined": 2, "counts": {"3": 1},
                                                 "wrong": []}]
        assert [a["question"] for a in report["learners"][0]["answers"]] == ["q1", "q9"]

        classes.reveal(code, secret, "4")  # Asha's 3 is wrong; her browser never looks again: counted all the same
        done = lessons("class", "report", code, "--answers", "--database", db_url, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert list(csv.reader(io.StringIO(done.stdout))) == [
            ["name", "question", "question id", "asked", "round", "first answer", "first answer right",
             "final answer", "final answer right", "answers sent"],
            ["Asha", "q1", "q1", "on a page", "", "5", "right", "5", "right", "1"],
            ["Asha", "How many?", "q9", "in a poll", "1", "3", "wrong", "3", "wrong", "1"],
            ["'=cmd|' /C calc'!A0", "q1", "q1", "on a page", "", "7", "wrong", "7", "wrong", "1"]]

        done = in_process(capsys, "class", "report", code.lower(), "--database", db_url)
        assert done.returncode == 0 and "Asha: 2 answered, 1 right" in done.stdout
        assert "round 1: 1 of 2 answered: '3' 1; commonest wrong: '3' x1" in done.stdout

        done = lessons("class", "end", code, "--database", db_url, cwd=tmp_path)
        assert done.returncode == 0 and f"Class {code} ended" in done.stdout
        with pytest.raises(ClassUnavailable):
            classes.join(code, "Late", client="c")

        done = in_process(capsys, "class", "purge", "--database", db_url)
        assert done.stdout.startswith("Deleted 0 expired classes")
        with db.transaction() as tx:
            tx.execute("UPDATE classes SET expires_at = 0 WHERE code = ?", (code,))
        done = lessons("class", "purge", "--database", db_url, cwd=tmp_path)
        assert done.stdout.startswith("Deleted 1 expired class ")
        with db.transaction() as tx:
            assert tx.one("SELECT COUNT(*) FROM learners")[0] == 0
    done = lessons("class", "report", code, "--database", db_url, cwd=tmp_path)
    assert_one_line_error(done.returncode, done.stderr, f"no class has the code {code}")


def test_start_prints_readable_lines_into_the_default_data_folder(tmp_path):
    done = lessons("class", "start", "--title", "आज: टोकन", cwd=tmp_path,
                   env={"LAB_DATA_DIR": str(tmp_path / "d")})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Class ") and "expires" in lines[0]
    assert any("/Class?code=" in line and "teacher=" not in line for line in lines)
    assert any("&teacher=" in line and "keep it to yourself" in line for line in lines)
    assert (tmp_path / "d" / "classes.sqlite3").is_file()
    done = lessons("class", "start", "--title", "x", "--expires", "0", cwd=tmp_path)  # a real process: no traceback
    assert_one_line_error(done.returncode, done.stderr, "--expires", "1 to 365")


@pytest.mark.parametrize(("args", "needle"), [
    (["class", "report", "ZZZZZZ"], "no class has the code ZZZZZZ"),
    (["class", "end", "' OR 1=1 --"], "no class has the code"),
    (["class", "start", "--title", "x", "--expires", "abc"], "1 to 365"),
    (["class", "start", "--title", "x", "--expires", "366"], "1 to 365"),
    (["class", "start", "--title", "   "], "title is empty"),
    (["class", "start", "--title", "T" * 81], "longer than 80"),
    (["class", "start"], "--title"),
    (["class", "report"], "code"),
    (["class", "frob"], "invalid choice"),
    (["class", "report", "ABCDEF", "--csv", "--json"], "not allowed"),
])
def test_a_mistake_exits_2_with_one_line(capsys, tmp_path, args, needle):
    database = ["--database", f"sqlite:///{tmp_path / 'c.sqlite3'}"] if len(args) > 2 else []
    done = in_process(capsys, *args, *database)
    assert done.stdout == ""
    assert_one_line_error(done.returncode, done.stderr, needle)


@pytest.mark.parametrize(("url", "needle"), [("mysql://u@h/db", "postgresql:// or sqlite:///"),
                                              ("sqlite:///", "sqlite:///PATH"),
                                              ("postgresql://u:pw@/db?host=/nonexistent&port=1", "Cannot connect")])
def test_a_bad_database_url_exits_2_with_one_line(capsys, url, needle):
    done = in_process(capsys, "class", "purge", "--database", url)
    assert assert_one_line_error(done.returncode, done.stderr, needle) and ":pw@" not in done.stderr
