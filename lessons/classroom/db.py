"""The class database: one SQLite file (the default, nothing to install) or PostgreSQL (several machines).

The store writes plain SQL with ``?`` placeholders and its values as parameters, never in the text; on
PostgreSQL each ``?`` becomes psycopg's ``%s``. Nothing else differs: the schema (``migrations/*.sql``) is
SQL both read. Which database :func:`open_database` opens:

- ``postgresql://...`` (or ``postgres://``): PostgreSQL through psycopg 3, with a pool of connections
  (``$LAB_DATABASE_POOL`` connections at most, default 10).
- ``sqlite:///PATH``: a SQLite file (``sqlite:///data/x.sqlite3`` is relative, ``sqlite:////tmp/x`` absolute).
- nothing: ``$LAB_DATABASE_URL`` if it is set, else ``$LAB_DATA_DIR/classes.sqlite3`` (``./data`` by default).

SQLite runs in WAL mode (readers never wait for the writer) with a busy timeout, so every replica of
``scripts/serve`` on one machine shares the file; each operation opens its own short-lived connection, so a
thread (Streamlit runs each session in one) never shares one. Only opening the database makes the file; an
operation opens the file that is there and never makes a new one: a file moved or deleted under a running lab is
said to the operator (:class:`DatabaseBroken`), not replaced by an empty class list. Writes take the write lock at once
(``BEGIN IMMEDIATE``): two writers queue instead of failing half-way. The schema's migrations are applied at
open, once, inside a transaction that holds a lock (SQLite's write lock, a PostgreSQL advisory lock), so
several processes may open the same database at the same moment.
"""

from __future__ import annotations

import logging
import os
import random
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, closing, contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import DatabaseBroken, DatabaseUnavailable

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_S = 5.0
"""How long a SQLite writer waits for another's write to finish before it gives up."""
WAL_TRIES = 100
DEFAULT_POOL = 10
CONNECT_TIMEOUT_S = 5
PG_LOCK_KEY = 7_170_017
"""The PostgreSQL advisory lock held while migrations are applied (any fixed number the lab alone uses)."""
_MIGRATION_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


class Tx:
    """One transaction: run statements with ``?`` placeholders and parameters."""

    def __init__(self, cursor: Any, translate: bool) -> None:
        self._cursor = cursor
        self._translate = translate

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        self._cursor.execute(_pg(sql) if self._translate else sql, tuple(params))
        return self._cursor.rowcount

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        """Run a query (or a statement with ``RETURNING``); all its rows."""
        self._cursor.execute(_pg(sql) if self._translate else sql, tuple(params))
        return [tuple(row) for row in self._cursor.fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple | None:
        """Run a query; its first row, or None."""
        rows = self.rows(sql, params)
        return rows[0] if rows else None

    def row(self, sql: str, params: Sequence[Any] = ()) -> tuple:
        """Run a query that always has a row (of a record the caller knows exists); its first row."""
        found = self.one(sql, params)
        if found is None:
            raise LookupError(f"no row where one was known to be: {sql.split(' WHERE ')[0]}")
        return found

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run a query of one value that always has a row (``SELECT COUNT(*) ...``, ``COALESCE(MAX(...), 0)``)."""
        return self.row(sql, params)[0]


@lru_cache(maxsize=256)
def _pg(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` (and a literal ``%`` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


class Database(ABC):
    """An open class database. ``backend`` is ``"sqlite"`` or ``"postgresql"``; ``url`` says which one
    (without a password). Use :meth:`transaction` for everything; :meth:`close` when done."""

    backend: str
    url: str
    applied: list[int]
    """The migrations this opening applied (none when another process or an earlier start had)."""

    @abstractmethod
    def transaction(self, write: bool = True) -> AbstractContextManager[Tx]:
        """A transaction: committed when the block ends, rolled back if it raises. ``write=False`` for one
        that only reads: on SQLite it then never waits for a writer (WAL gives it a snapshot)."""

    @abstractmethod
    def close(self) -> None:
        """Release the database (the pool's connections)."""

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SQLiteDatabase(Database):
    """A SQLite file; a short-lived connection per transaction."""

    backend = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        # One connection is held open while the database is, having read it (so it holds the WAL open): the
        # last connection to close checkpoints the WAL into the file and deletes it (fsyncs), which would
        # otherwise happen after every short-lived transaction (measured: 5 ms a transaction instead of 0.3).
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._anchor = self._connect(create=True)
            self._wal()
            self._anchor.execute("SELECT COUNT(*) FROM sqlite_master").fetchall()
        except (OSError, sqlite3.Error) as exc:  # a data folder that is a file, a file that is no database...
            if isinstance(exc, sqlite3.Error) and _kind(exc) == "busy":
                raise DatabaseUnavailable(detail=f"The SQLite database {path} stayed busy: {_one_line(exc)}") from None
            raise broken(f"Cannot open the SQLite database {path}: {_why(path, exc)}") from None

    def _wal(self) -> None:
        """Put the file in WAL mode. Two processes creating the file at once may both ask: SQLite then answers
        one "busy" at once, without waiting (waiting could deadlock), so that one asks again a little later."""
        for attempt in range(WAL_TRIES):
            try:
                self._anchor.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if _kind(exc) != "busy" or attempt == WAL_TRIES - 1:
                    raise
                time.sleep(0.01 + 0.04 * random.random())

    def _connect(self, *, create: bool = False) -> sqlite3.Connection:
        """A connection to the file; ``create`` (opening the database) makes it when it is missing. Any other
        connection opens only a file that is there (``mode=rw``): a read made while the file is gone must not make
        a new, empty one in its place."""
        conn = sqlite3.connect(self.path if create else self.path.absolute().as_uri() + "?mode=rw",
                               uri=not create, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        # In WAL mode NORMAL loses nothing committed when a process dies; a power cut may lose the last commits.
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[Tx]:
        """A transaction on its own connection: a writer takes the write lock at once (``BEGIN IMMEDIATE``).
        The database's state becomes :class:`DatabaseUnavailable` (busy: try again) or :class:`DatabaseBroken`
        (damaged, not a database, read-only...: someone must mend it); a mistake in a statement stays itself."""
        try:
            conn = self._connect()
        except sqlite3.Error as exc:
            raise self._state_error(exc) from exc
        with closing(conn):
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield Tx(conn.cursor(), translate=False)
                conn.commit()
            except BaseException as exc:
                if conn.in_transaction:
                    try:
                        conn.rollback()
                    except sqlite3.Error:  # a file that went bad under the transaction: its error says more
                        pass
                if isinstance(exc, sqlite3.Error) and _kind(exc) is not None:
                    raise self._state_error(exc) from exc
                raise

    def _state_error(self, exc: sqlite3.Error) -> DatabaseUnavailable:
        if _kind(exc) == "busy":
            return DatabaseUnavailable(detail=f"The SQLite database {self.path} stayed busy: {_one_line(exc)}")
        return broken(f"The SQLite database {self.path} cannot be used: {_why(self.path, exc)}")

    def close(self) -> None:
        """Close the connection that keeps the WAL open (each transaction closed its own)."""
        self._anchor.close()


class PostgresDatabase(Database):
    """PostgreSQL through a psycopg 3 connection pool."""

    backend = "postgresql"

    def __init__(self, url: str, max_size: int) -> None:
        # Imported here, not at the top: a lab on SQLite (the default) never loads psycopg (a quarter second).
        import psycopg
        import psycopg_pool
        from psycopg.conninfo import conninfo_to_dict

        self._errors = (psycopg.OperationalError, psycopg_pool.PoolTimeout)
        try:
            conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            raise ValueError(f"the database URL is not a PostgreSQL URL psycopg reads: {_one_line(exc)}") from None
        self.url = without_password(url)
        try:  # once, directly: a wrong address fails now with libpq's own words, not after the pool's retries
            psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S).close()
        except psycopg.Error as exc:
            raise DatabaseUnavailable(detail=f"Cannot connect to the PostgreSQL database {self.url}: "
                                      f"{_one_line(exc)}") from None
        # What no retry mends: no right to the tables, a read-only server, a schema another program changed.
        self._broken = (psycopg.errors.InsufficientPrivilege, psycopg.errors.ReadOnlySqlTransaction,
                        psycopg.errors.UndefinedTable, psycopg.errors.UndefinedColumn, psycopg.errors.DiskFull)
        # Each connection is checked as it is handed out: after a server restart, a stale one is replaced.
        self._pool = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=max_size, open=True, name="lab-classes", timeout=CONNECT_TIMEOUT_S,
            check=psycopg_pool.ConnectionPool.check_connection, kwargs={"connect_timeout": CONNECT_TIMEOUT_S})

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[Tx]:
        """A transaction on a connection from the pool (reads and writes alike: PostgreSQL's readers never
        wait for its writers)."""
        try:
            with self._pool.connection() as conn, conn.cursor() as cursor:
                yield Tx(cursor, translate=True)
        except self._errors as exc:  # the server went away, or no connection came free in time
            raise DatabaseUnavailable(detail=f"The PostgreSQL database {self.url}: {_one_line(exc)}") from exc
        except self._broken as exc:
            raise broken(f"The PostgreSQL database {self.url} cannot be used: {_one_line(exc)}") from exc

    def close(self) -> None:
        """Close the pool's connections."""
        self._pool.close()


_BUSY = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_PROTOCOL")
_BROKEN = ("SQLITE_IOERR", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_CORRUPT", "SQLITE_NOTADB",
           "SQLITE_PERM", "SQLITE_AUTH")


def _kind(exc: sqlite3.Error) -> str | None:
    """Whether a SQLite error is the database's state: "busy" (locked past the timeout: it passes), "broken" (a
    damaged file, not a database, read-only, a full disk, a folder where the file should be: it stays until
    someone mends it), or None: a mistake in a statement (which stays the error it is)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(_BUSY):
        return "busy"
    return "broken" if name.startswith(_BROKEN) else None


def _why(path: Path, exc: BaseException) -> str:
    """What is wrong with the SQLite file at ``path``, in words an operator acts on, with SQLite's own."""
    name = getattr(exc, "sqlite_errorname", None)
    said = f"{_one_line(exc)}" + (f" ({name})" if name else "")
    if path.is_dir():
        return f"it is a folder, not a database file; {said}"
    if path.parent.exists() and not path.parent.is_dir():
        return f"{path.parent} is a file, not a folder; {said}"
    if path.parent.is_dir() and not os.access(path.parent, os.W_OK):
        return f"its folder {path.parent} is read-only (SQLite writes its journal beside the file); {said}"
    if path.exists() and not os.access(path, os.W_OK):
        return f"the file is read-only; {said}"
    if not path.exists():
        return (f"the file is gone (moved or deleted while the lab ran; the lab never makes a new one in its place: "
                f"put it back, or restart the lab to start an empty one); {said}")
    return said


_LOGGED: dict[str, float] = {}
_LOG_EVERY_S = 60.0
_LOG = logging.getLogger("lab.classes")


def broken(detail: str) -> DatabaseBroken:
    """A :class:`DatabaseBroken` saying ``detail`` to the operator: written to the server's log (once a minute for
    the same words, however many screens ask meanwhile), never on a learner's screen."""
    now = time.monotonic()
    if now - _LOGGED.get(detail, -_LOG_EVERY_S) >= _LOG_EVERY_S:
        if len(_LOGGED) > 100:
            _LOGGED.clear()
        _LOGGED[detail] = now
        _LOG.error("class database: %s", detail)
    return DatabaseBroken(detail=detail)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def without_password(url: str) -> str:
    """``url`` fit to print: a password in it (``user:PASSWORD@`` or ``password=``) as ``***``."""
    url = re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", url)
    return re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", url)


def database_url(url: str | None = None) -> str:
    """The URL :func:`open_database` opens for ``url`` (None: the environment's, else the default file)."""
    if url is None or not url.strip():
        url = os.environ.get("LAB_DATABASE_URL", "").strip()
    if not url:
        data_dir = Path(os.environ.get("LAB_DATA_DIR", "").strip() or "data")
        return f"sqlite:///{data_dir / 'classes.sqlite3'}"
    return url.strip()


def open_database(url: str | None = None) -> Database:
    """Open the class database at ``url`` (see the module's text) and bring its schema up to date.

    A URL that names no database this lab opens raises ValueError saying so; a PostgreSQL server that
    cannot be reached raises DatabaseUnavailable (a ConnectionError)."""
    url = database_url(url)
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme in ("postgresql", "postgres"):
        pool = os.environ.get("LAB_DATABASE_POOL", "").strip()
        if pool and not (pool.isdigit() and 1 <= int(pool) <= 200):
            raise ValueError(f"LAB_DATABASE_POOL must be a whole number from 1 to 200, not {pool!r}")
        db: Database = PostgresDatabase(url, int(pool) if pool else DEFAULT_POOL)
    elif scheme == "sqlite":
        if not url.startswith("sqlite:///") or url[len("sqlite:///"):] in ("", ":memory:"):
            raise ValueError(f"a SQLite database URL is sqlite:///PATH (a file), not {url!r}")
        db = SQLiteDatabase(Path(url[len("sqlite:///"):]))
    else:
        # masked before it is cut short: a password cut in two would no longer look like one
        raise ValueError(f"the database URL must start with postgresql:// or sqlite:///, not "
                         f"{without_password(url)[:60]!r}")
    try:
        db.applied = migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def migrations() -> list[tuple[int, str, list[str]]]:
    """The schema's migrations in order: (version, file name, statements)."""
    found = []
    for path in sorted(MIGRATIONS.glob("*.sql")):
        match = _MIGRATION_NAME.fullmatch(path.name)
        if not match:
            raise ValueError(f"a migration's file name is NNNN_words.sql, not {path.name}")
        found.append((int(match.group(1)), path.name, statements(path.read_text(encoding="utf-8"))))
    return found


def statements(script: str) -> list[str]:
    """A migration file's statements: ``--`` comment lines dropped, split at a ``;`` ending a line."""
    text = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("--"))
    return [s.strip() for s in re.split(r";[ \t]*$", text, flags=re.MULTILINE) if s.strip()]


def migrate(db: Database) -> list[int]:
    """Apply the migrations this database lacks, in one transaction under a lock; the versions applied."""
    applied = []
    with db.transaction() as tx:
        if db.backend == "postgresql":
            tx.execute("SELECT pg_advisory_xact_lock(?)", (PG_LOCK_KEY,))
        tx.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                   "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)")
        done = {row[0] for row in tx.rows("SELECT version FROM schema_version")}
        for version, name, sqls in migrations():
            if version in done:
                continue
            for sql in sqls:
                tx.execute(sql)
            tx.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                       (version, name, int(time.time())))
            applied.append(version)
    return applied
