"""The class suite runs on both databases: every test that takes ``db_url`` (or ``db``, ``classes``) runs once on
SQLite (a file in the test's temporary directory) and once on PostgreSQL (a throwaway cluster this test session
starts itself with Debian's ``initdb`` and ``pg_ctl``, as the ``postgres`` user when we are root, listening only
on a unix socket in its own temporary directory, stopped and deleted at the end: tests/pg_cluster.py, the
``postgres_server`` fixture of tests/conftest.py, shared with the Class page's tests). Without PostgreSQL's
programs the PostgreSQL half is skipped, except in CI (``CI=true``), where it fails."""

from __future__ import annotations

import pytest

from lessons.classroom import Classes, open_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """A URL of an empty class database, on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    return request.getfixturevalue("postgres_server").new_database()


@pytest.fixture
def db(db_url):
    database = open_database(db_url)
    yield database
    database.close()


@pytest.fixture
def classes(db) -> Classes:
    return Classes(db)
