"""Opening the class database: URLs, the default file, WAL, migrations applied once even by two processes at once,
many threads voting at once, and SQL injection in every field stored as plain text, on both backends."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from lessons.classroom import (
    Classes,
    ClassUnavailable,
    DatabaseBroken,
    DatabaseUnavailable,
    NotTeacher,
    UnknownLearner,
    database_url,
    open_database,
)
from lessons.classroom.db import migrations, without_password
from lessons.commands import main
from tests.cli_helpers import assert_one_line_error

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("url", ["mysql://u@host/db", "http://example.com", "sqlite:///", "sqlite::memory:",
                                 "sqlite:///:memory:", "data/classes.sqlite3", "postgresql://[::1/db",
                                 "postgresql://h/db?nosuchoption=1"])
def test_a_url_naming_no_database_the_lab_opens_is_a_clear_value_error(url):
    with pytest.raises(ValueError) as caught:
        open_database(url)
    assert url[:10] in str(caught.value) or "PostgreSQL" in str(caught.value)


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://ann:a@db.school/data?sslmode=require", "postgresql://ann:***@db.school/data?sslmode=require"),
    ("postgresql://ann@/data?host=/run/pg&password=s3cr3t&port=5",
     "postgresql://ann@/data?host=/run/pg&password=***&port=5"),
    ("postgresql:///data", "postgresql:///data"),
])
def test_a_database_url_is_printed_without_its_password(url, shown):
    assert without_password(url) == shown


def test_a_misspelt_url_is_refused_without_any_of_its_password():
    """The refusal quotes the URL's first 60 characters: a long password was cut there before it was masked, so
    the message showed its first characters (scripts/serve --database prints this message)."""
    password = "s3cretpassword-" * 5
    with pytest.raises(ValueError) as caught:
        open_database(f"postgresq://teacher:{password}@db.school/lab")
    assert "postgresq://teacher:***@db.school" in str(caught.value)
    assert "s3cret" not in str(caught.value)


def test_a_postgresql_server_that_is_not_there_is_said_at_once(tmp_path):
    with pytest.raises(DatabaseUnavailable) as caught:
        open_database(f"postgresql://postgres:hunter2@/db?host={tmp_path}&port=5999")
    assert "Cannot connect to the PostgreSQL database" in caught.value.detail  # for the operator
    assert "hunter2" not in caught.value.detail and "hunter2" not in str(caught.value)
    assert "PostgreSQL" not in str(caught.value) and tmp_path.name not in str(caught.value)  # the screen: neither
    assert isinstance(caught.value, ConnectionError)


def test_a_sqlite_database_locked_past_its_timeout_is_a_friendly_error(tmp_path, monkeypatch):
    monkeypatch.setattr("lessons.classroom.db.BUSY_TIMEOUT_S", 0.05)
    with open_database(f"sqlite:///{tmp_path / 'c.sqlite3'}") as db, db.transaction():
        with pytest.raises(DatabaseUnavailable), db.transaction():  # another writer holds the lock
            pass


def test_the_default_is_a_sqlite_file_in_the_data_directory_in_wal_mode(tmp_path, monkeypatch):
    monkeypatch.delenv("LAB_DATABASE_URL", raising=False)
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path / "new" / "data"))
    assert database_url() == f"sqlite:///{tmp_path / 'new' / 'data' / 'classes.sqlite3'}"
    with open_database() as db, db.transaction() as tx:
        assert (db.backend, tx.one("PRAGMA journal_mode")[0], tx.one("PRAGMA foreign_keys")[0]) == ("sqlite", "wal", 1)
    assert (tmp_path / "new" / "data" / "classes.sqlite3").is_file()
    monkeypatch.setenv("LAB_DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")
    with open_database() as db:
        assert db.url.endswith("elsewhere.sqlite3")
    monkeypatch.delenv("LAB_DATA_DIR")
    monkeypatch.delenv("LAB_DATABASE_URL")
    assert database_url("") == database_url(None) == "sqlite:///data/classes.sqlite3"
    assert database_url(" postgresql://h/db ") == "postgresql://h/db"


def test_migrations_are_numbered_sql_files_applied_once(db_url):
    found = migrations()
    assert [version for version, _, _ in found] == list(range(1, len(found) + 1))
    assert all(statements for _, _, statements in found)
    with open_database(db_url) as first:
        assert first.applied == [v for v, _, _ in found]
    with open_database(db_url) as again, again.transaction() as tx:
        assert again.applied == []
        assert tx.one("SELECT COUNT(*) FROM schema_version")[0] == len(found)


OPENER = """
import json, sys, time
from pathlib import Path
from lessons.classroom import open_database
go = Path(sys.argv[2])
while not go.exists():
    time.sleep(0.002)
with open_database(sys.argv[1]) as db:
    print(json.dumps(db.applied))
"""


def test_two_processes_opening_a_new_database_at_once_apply_its_migrations_once(db_url, tmp_path):
    go = tmp_path / "go"
    openers = [subprocess.Popen([sys.executable, "-c", OPENER, db_url, str(go)], cwd=ROOT, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)]
    go.touch()  # all three start opening together
    results = [opener.communicate(timeout=120) for opener in openers]
    assert [opener.returncode for opener in openers] == [0, 0, 0], [err for _, err in results]
    applied = sorted(v for out, _ in results for v in json.loads(out))
    assert applied == [v for v, _, _ in migrations()]  # each migration by exactly one of them
    with open_database(db_url) as db, db.transaction() as tx:
        assert tx.one("SELECT COUNT(*) FROM schema_version")[0] == len(migrations())


def test_eight_threads_voting_at_once_store_every_vote_exactly_once(classes, db):
    started = classes.start("Busy class")
    code, secret = started.code, started.teacher_secret
    many = Classes(db, joins_per_minute=100)
    learners = [many.join(code, f"L{i}", client="lab") for i in range(40)]  # 5 a thread, 10 votes each
    poll = classes.pose(code, secret, {"id": "q", "prompt": "?", "kind": "choice", "choices": list("abcd"),
                                       "where": ""})
    results: list[list[bool]] = [[] for _ in range(8)]
    errors: list[BaseException] = []

    def voter(index: int) -> None:
        try:
            for n in range(50):
                vote_id, k = str(uuid.uuid4()), index * 5 + n % 5
                for _ in range(2):  # every vote sent twice, as after a reconnect
                    results[index].append(classes.vote(code, learners[k].learner_id, poll.poll_id, 1,
                                                       "abcd"[(k + n // 5) % 4], vote_id=vote_id))
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=voter, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [r.count(True) for r in results] == [50] * 8 and [r.count(False) for r in results] == [50] * 8
    with db.transaction() as tx:
        assert tx.one("SELECT COUNT(*), COUNT(DISTINCT vote_id), COUNT(DISTINCT seq) FROM votes")[:3] == (400, 400, 400)
    tally = classes.tally(code, poll.poll_id, 1)  # learner k's last (10th) vote: "abcd"[(k + 9) % 4]
    assert (tally.answered, tally.joined) == (40, 40)
    assert tally.counts == {"a": 10, "b": 10, "c": 10, "d": 10}


HOSTILE = [
    "Robert'); DROP TABLE learners;--",
    "' OR '1'='1",
    '"; DELETE FROM votes; --',
    "%s %(x)s $1 ? :name {0}",
    "\\'; SELECT pg_sleep(5); --",
    "1; UPDATE classes SET closed_at=0",
    "<script>alert(1)</script>",
    "=HYPERLINK(\"http://x\")",
]


def test_sql_injection_in_every_field_is_stored_verbatim_and_harmless(classes, db):
    bystander = classes.start("Another class")
    started = classes.start(HOSTILE[0][:80])
    code, secret = started.code, started.teacher_secret
    assert classes.info(code).title == HOSTILE[0]
    for text in HOSTILE:
        with pytest.raises(ClassUnavailable):
            classes.join(text, "Asha", client=text)
        with pytest.raises(ClassUnavailable):
            classes.version(text)
        with pytest.raises(ClassUnavailable):
            classes.current(text)
        with pytest.raises(UnknownLearner):
            classes.resume(code, text, client=text + "r")
        assert not classes.is_teacher(code, text)
        with pytest.raises(NotTeacher):
            classes.show(code, text)
    many = Classes(db, joins_per_minute=100)
    learners = [many.join(code, text, client="lab") for text in HOSTILE]
    assert [learner.name for learner in learners] == HOSTILE
    question = {"id": HOSTILE[1], "prompt": HOSTILE[2], "kind": HOSTILE[3], "choices": [HOSTILE[4]],
                "where": "/Train?q=" + HOSTILE[5]}
    poll = classes.pose(code, secret, question)
    assert classes.current(code).question == question
    poll = classes.pose(code, secret, {**question, "choices": None})
    for learner, text in zip(learners, HOSTILE):
        assert classes.vote(code, learner.learner_id, poll.poll_id, 1, text, vote_id=str(uuid.uuid4()))
        assert classes.record_answer(code, learner.learner_id, text, text, False) == 1
    assert classes.tally(code, poll.poll_id, 1).counts == {text: 1 for text in sorted(HOSTILE)}
    assert classes.reveal(code, secret, HOSTILE[5], HOSTILE[6]).truth == HOSTILE[5]
    # the answer given on a page, and the poll's (kept at Reveal for everyone who voted: its question is HOSTILE[1])
    assert [(a.question_key, a.guess) for a in classes.answers(code, learners[0].learner_id)] == sorted(
        [(HOSTILE[0], HOSTILE[0]), (HOSTILE[1], HOSTILE[0])])
    board = classes.dashboard(code, secret)
    assert sorted(q.question_key for q in board.questions) == sorted(HOSTILE)
    assert [p.name for p in board.learners] == HOSTILE
    with db.transaction() as tx:  # every table is still there, and the other class untouched
        counts = {t: tx.one(f"SELECT COUNT(*) FROM {t}")[0] for t in ("classes", "learners", "polls", "votes",
                                                                        "answers", "schema_version")}
        assert tx.one("SELECT closed_at, title FROM classes WHERE code = ?", (bystander.code,)) == (None,
                                                                                                    "Another class")
    assert counts == {"classes": 2, "learners": len(HOSTILE), "polls": 2, "votes": len(HOSTILE),
                      "answers": 2 * len(HOSTILE), "schema_version": len(migrations())}


@pytest.mark.parametrize("make", ["a file where the folder should be", "a file that is not a database"])
def test_a_sqlite_file_that_cannot_be_opened_is_said_in_one_line(tmp_path, make, capsys):
    if make.startswith("a file where"):
        (tmp_path / "data").write_text("not a folder")
        url = f"sqlite:///{tmp_path / 'data' / 'classes.sqlite3'}"
    else:
        (tmp_path / "classes.sqlite3").write_text("hello, this is text " * 100)
        url = f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    with pytest.raises(DatabaseBroken) as caught:
        open_database(url)
    assert "Cannot open the SQLite database" in caught.value.detail and str(tmp_path) in caught.value.detail
    assert str(tmp_path) not in str(caught.value)  # a learner's screen shows no path
    assert_one_line_error(main(["class", "purge", "--database", url]), capsys.readouterr().err, "Cannot open")


def test_sqlite_keeps_its_wal_between_transactions(tmp_path):
    """One connection stays open: a transaction's own connection closing is never the last one, which would
    checkpoint the WAL into the file and delete it after every transaction (slow: several fsyncs)."""
    with open_database(f"sqlite:///{tmp_path / 'c.sqlite3'}") as db:
        Classes(db).start("Week 3")
        assert (tmp_path / "c.sqlite3-wal").exists()
    assert not (tmp_path / "c.sqlite3-wal").exists()  # closed: checkpointed and tidied away


def test_the_polled_reads_use_indexes_not_scans(tmp_path, monkeypatch):
    """What screens poll every second (version, current, tally, a learner's own vote) reads by index: SQLite's
    query plans hold no full scan of a table (votes, learners and polls grow with the class)."""
    with open_database(f"sqlite:///{tmp_path / 'c.sqlite3'}") as db:
        classes = Classes(db)
        started = classes.start("Week 3")
        poll = classes.pose(started.code, started.teacher_secret, {"id": "q", "prompt": "?", "kind": "number"})
        learner = classes.join(started.code, "Asha", client="a")
        run: list[str] = []
        connect = db._connect

        def traced():
            conn = connect()
            conn.set_trace_callback(run.append)  # each statement as run, its parameters in place
            return conn

        monkeypatch.setattr(db, "_connect", traced)
        classes.version(started.code)
        classes.current(started.code)
        classes.tally(started.code, poll.poll_id, 1)
        classes.my_vote(started.code, learner.learner_id, poll.poll_id, 1)
        monkeypatch.undo()
        queries = [sql for sql in run if sql.startswith("SELECT")]
        assert len(queries) >= 5 and any("FROM votes" in sql for sql in queries)
        with db.transaction(write=False) as tx:
            for sql in queries:
                plan = [row[-1] for row in tx.rows("EXPLAIN QUERY PLAN " + sql)]
                scans = [step for step in plan if step.startswith("SCAN ") and step != "SCAN CONSTANT ROW"]
                assert scans == [], (sql, plan)


VOTER = """
import json, sys, uuid
from lessons.classroom import Classes, open_database
code, poll_id, learners, attempted, committed = json.loads(sys.argv[1])
with open_database(sys.argv[2]) as db, open(attempted, "a") as tried, open(committed, "a") as done:
    classes = Classes(db)
    for n in range(100_000):
        learner, vote_id = learners[n % len(learners)], str(uuid.uuid4())
        tried.write(json.dumps([learner, vote_id]) + "\\n")
        tried.flush()
        classes.vote(code, learner, poll_id, 1, "abcd"[n % 4], vote_id=vote_id)
        done.write(vote_id + "\\n")
        done.flush()
"""


def test_a_replica_killed_mid_round_loses_no_committed_vote_and_counts_none_twice(classes, db, db_url, tmp_path):
    """A process voting as fast as it can is killed (SIGKILL) in the middle of a round, as a replica may be.
    Every vote it had committed is in the database; the learners' screens then send again every vote they
    had sent (the one in flight included): each vote is in the database exactly once."""
    started = classes.start("Killed replica")
    learners = [Classes(db, joins_per_minute=200).join(started.code, f"L{i}", client="k").learner_id
                for i in range(100)]  # 20 votes a learner in a round at most: the 2,000th vote would be refused
    poll = classes.pose(started.code, started.teacher_secret, {"id": "q", "prompt": "?", "kind": "choice",
                                                               "choices": list("abcd")})
    attempted, committed = tmp_path / "attempted", tmp_path / "committed"
    attempted.touch()
    committed.touch()
    setup = json.dumps([started.code, poll.poll_id, learners, str(attempted), str(committed)])
    child = subprocess.Popen([sys.executable, "-c", VOTER, setup, db_url], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        while len(committed.read_text().splitlines()) < 150 and child.poll() is None:
            time.sleep(0.01)  # until it is well into the round (a wait, not a measurement)
    finally:
        child.kill()
        _, err = child.communicate(timeout=60)
    assert child.returncode == -9, err
    done = set(committed.read_text().splitlines())
    sent = [json.loads(line) for line in attempted.read_text().splitlines() if line.endswith("]")]
    with db.transaction(write=False) as tx:
        stored = {row[0] for row in tx.rows("SELECT vote_id FROM votes")}
    assert len(done) >= 150 and done <= stored  # nothing committed was lost
    resent = [classes.vote(started.code, learner, poll.poll_id, 1, "a", vote_id=vote_id) for learner, vote_id in sent]
    assert resent.count(False) >= len(done)  # every committed vote was recognised, not counted again
    with db.transaction(write=False) as tx:
        total, distinct = tx.one("SELECT COUNT(*), COUNT(DISTINCT vote_id) FROM votes")
    assert total == distinct == len({vote_id for _, vote_id in sent})


def test_a_postgresql_restart_is_survived_without_an_error(postgres_server):
    """The pool's connections all die with a restart; each is checked as it is handed out and replaced, so the
    lab's next operations simply work (the votes before the restart are there)."""
    with open_database(postgres_server.new_database()) as db:
        classes = Classes(db)
        started = classes.start("Through a restart")
        asha = classes.join(started.code, "Asha", client="a")
        poll = classes.pose(started.code, started.teacher_secret, {"id": "q", "prompt": "?", "kind": "number"})
        assert classes.vote(started.code, asha.learner_id, poll.poll_id, 1, "3", vote_id=str(uuid.uuid4()))
        postgres_server.restart()
        for _ in range(3):  # more than one pooled connection may have to be replaced
            assert classes.tally(started.code, poll.poll_id, 1).counts == {"3": 1}
        assert classes.vote(started.code, asha.learner_id, poll.poll_id, 1, "4", vote_id=str(uuid.uuid4()))
        assert classes.tally(started.code, poll.poll_id, 1).counts == {"4": 1}


def test_a_mistake_in_a_statement_stays_itself_not_busy(tmp_path):
    """Only the database's state (locked, full, unreadable) becomes DatabaseUnavailable; a wrong statement is a
    bug to see, not "try again in a moment"; either way nothing of the transaction is kept."""
    with open_database(f"sqlite:///{tmp_path / 'c.sqlite3'}") as db:
        with pytest.raises(sqlite3.OperationalError, match="no such table"), db.transaction() as tx:
            tx.execute("INSERT INTO join_attempts (client, minute, attempts) VALUES ('x', 1, 1)")
            tx.execute("SELECT * FROM no_such_table")
        with db.transaction(write=False) as tx:
            assert tx.one("SELECT COUNT(*) FROM join_attempts")[0] == 0



@pytest.mark.parametrize("how", ["deleted", "moved"])
def test_a_database_file_gone_under_a_running_lab_is_said_and_never_made_again(tmp_path, how):
    """The file goes while the lab holds the database open (deleted, or moved away): a read and a write each say
    so (DatabaseBroken, its detail naming the file and what happened), and neither makes a new, empty file where it
    was (a class watcher reads ten times a second: an empty file would look like a lab with no classes). Opening the
    database again (a restart) is what makes a new one."""
    path = tmp_path / "classes.sqlite3"
    with open_database(f"sqlite:///{path}") as db:
        classes = Classes(db)
        code = classes.start("Kept").code
        with sqlite3.connect(path) as conn:  # everything in the file itself (nothing left in the WAL)
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if how == "deleted":
            path.unlink()
        else:
            path.rename(tmp_path / "elsewhere.sqlite3")
        for act in (lambda: classes.report(code), lambda: classes.start("Another")):
            with pytest.raises(DatabaseBroken) as caught:
                act()
            assert str(path) in caught.value.detail and "the file is gone" in caught.value.detail
            assert str(tmp_path) not in str(caught.value)  # the words on a screen name no path
            assert not path.exists(), "an operation made a new database file where the old one was"
    with open_database(f"sqlite:///{path}") as db:  # a restart starts an empty one
        assert path.is_file()
        assert Classes(db).start("After the restart").code

def _damage(path: Path, how: str) -> None:
    if how == "truncated":
        os.truncate(path, path.stat().st_size // 3)
    elif how == "garbage":
        path.write_bytes(bytes((i * 37 + 11) % 256 for i in range(path.stat().st_size)))
    elif how == "a folder":
        path.unlink()
        path.mkdir()
    else:  # read-only: the folder and the file
        path.chmod(0o444)
        path.parent.chmod(0o555)


NO_DAC = ["setpriv", "--inh-caps=-dac_override,-dac_read_search,-fowner",
          "--bounding-set=-dac_override,-dac_read_search,-fowner"]


@pytest.mark.parametrize("how", ["truncated", "garbage", "a folder", "read-only"])
def test_a_broken_sqlite_file_is_named_to_the_operator_never_rewritten_and_busy_is_kept_for_busy(tmp_path, how):
    """A damaged, garbage, folder or read-only database is DatabaseBroken: its words on a screen name no path (and
    say neither "busy" nor "try again"); the command line names the file and the fault in one line; the file is
    not rewritten. A read-only folder is tried as a user who cannot write there (root without CAP_DAC_OVERRIDE)."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "classes.sqlite3"
    url = f"sqlite:///{path}"
    with open_database(url) as db:
        code = Classes(db).start("Kept").code
    _damage(path, how)
    before = path.read_bytes() if path.is_file() else None
    try:
        if how == "read-only":
            if shutil.which("setpriv") is None and os.geteuid() == 0:
                pytest.skip("setpriv is missing: root writes anywhere")
            run = subprocess.run([*(NO_DAC if os.geteuid() == 0 else []), sys.executable, "-m", "lessons", "class",
                                  "end", code, "--database", url], capture_output=True, text=True, cwd=ROOT)
            code_, err = run.returncode, run.stderr
        else:
            with pytest.raises(DatabaseBroken) as caught:
                with open_database(url) as db:
                    Classes(db).report(code)
            assert str(path) in caught.value.detail and str(tmp_path) not in str(caught.value)
            assert "busy" not in str(caught.value) and "Try again" not in str(caught.value)
            run = subprocess.run([sys.executable, "-m", "lessons", "class", "report", code, "--database", url],
                                 capture_output=True, text=True, cwd=ROOT)
            code_, err = run.returncode, run.stderr
        line = assert_one_line_error(code_, err, str(path))
        said = {"a folder": "is a folder", "read-only": "read-only", "garbage": "not a database",
                "truncated": "malformed"}[how]
        assert said in line, line
        assert "busy" not in line, line
        assert (path.read_bytes() if path.is_file() else None) == before  # never rewritten
    finally:
        folder.chmod(0o755)
        if path.is_file():
            path.chmod(0o644)
