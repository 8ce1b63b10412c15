"""A throwaway PostgreSQL cluster for tests: Debian's ``initdb`` and ``pg_ctl`` in a temporary directory, as the
``postgres`` user when we are root, listening only on a unix socket in that directory, stopped and deleted at the end.
One per test session (the ``postgres_server`` fixture in tests/conftest.py): the class store's tests, the Class
page's AppTests and the class journey in Chromium (a second Streamlit server with ``LAB_DATABASE_URL``) share it."""

from __future__ import annotations

import glob
import itertools
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg


def _postgres_bin() -> Path | None:
    """The folder holding initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/*/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A running throwaway cluster: :meth:`new_database` makes an empty database and gives its URL."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="labpg-"))  # short: a unix socket's path is at most 107 bytes
        self.as_root = os.geteuid() == 0
        if self.as_root:  # PostgreSQL refuses to run as root: the cluster is the postgres user's
            shutil.chown(self.root, "postgres", "postgres")
        self.port = _free_port()
        self._names = itertools.count(1)
        data = self.root / "data"
        self._run("initdb", "-D", str(data), "--auth=trust", "--username=postgres", "--encoding=UTF8",
                  "--locale=C", "--no-sync")
        self.data = data
        self._pg_ctl("start")

    def _pg_ctl(self, action: str, *more: str) -> None:
        # fsync off and the like: a throwaway cluster need not survive a power cut (it does survive -m fast).
        options = (f"-p {self.port} -k {self.root} -c listen_addresses='' -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-t", "60", "-o", options,
                  *more, action)

    def restart(self) -> None:
        """Restart the server, as an administrator may while the lab runs: every connection is dropped."""
        self._pg_ctl("restart", "-m", "fast")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self.as_root:  # as the postgres user: runuser (util-linux), else su
            runuser = shutil.which("runuser") or next((p for p in ("/usr/sbin/runuser", "/sbin/runuser")
                                                       if Path(p).exists()), None)
            command = ([runuser, "-u", "postgres", "--", *command] if runuser
                       else ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command)])
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{program} failed: {result.stdout}\n{result.stderr}")

    def url(self, schema: str | None = None) -> str:
        """The cluster's ``postgres`` database; with ``schema``, its tables made and found in that schema."""
        options = f"&options=-csearch_path%3D{schema}" if schema else ""
        return f"postgresql://postgres@/postgres?host={self.root}&port={self.port}{options}"

    def new_database(self) -> str:
        """An empty database of our own: a new schema (much faster to make than a database: each test has one)."""
        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")  # a name this fixture made (t1, t2...), not input
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start_or_skip() -> PostgresServer:
    """A new cluster; without PostgreSQL's programs a skip (a failure in CI, which must run both backends)."""
    import pytest

    bindir = _postgres_bin()
    if bindir is None:
        message = "PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI must run the class suite on PostgreSQL too")
        pytest.skip(message)
    return PostgresServer(bindir)
