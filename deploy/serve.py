"""Serve the lab to a classroom: N Streamlit replicas behind nginx, in the foreground.

Run it through ``scripts/serve`` (which also prepares .venv). Streamlit runs
every session of a process on one core (one Python process, one GIL), so a
classroom needs several processes; nginx in front keeps each browser on its
replica (a cookie), passes websockets through and serves Streamlit's static
files itself, pre-compressed.

What happens, in order:

0. Arguments are checked before anything starts (ports, upstreams, sizes, the
   run directory): a bad one is one ``scripts/serve: error: ...`` line, exit 2.
   So is the class database (``--database URL``, else ``$LAB_DATABASE_URL``, else the SQLite file
   ``$LAB_DATA_DIR/classes.sqlite3`` that every replica on this machine shares): a child process opens it once
   (bringing its schema up to date) and says what is wrong in one line, the password never shown.
   What an earlier ``scripts/serve`` on the same port left behind (killed with
   SIGKILL while its reaper was killed too) is cleared, if it is provably that
   run's (see ``run_processes``); a port held by something else is refused.
1. A run directory (``--run-dir``: new, empty, or one scripts/serve made, with
   its ``.lab-serve-run`` marker; else a fresh one under /tmp, removed at
   exit) gets the nginx config (``deploy/nginx.conf.template`` filled in),
   nginx's pid file and logs, each replica's log, and (unless we are root:
   then a directory of its own under /tmp that nginx's www-data workers can
   read) nginx's temp dirs and a copy of the installed Streamlit's ``static/``
   directory with a ``.gz`` next to every text file (gzip -9, about a second).
2. N replicas: ``python -m streamlit run app.py`` on 127.0.0.1 (free ports, or
   ``--replica-port`` and up), headless, no file watcher, no usage stats.
3. nginx (``daemon off``) on ``--address:--port``.
4. Health: every replica's ``/_stcore/health`` and nginx in front must answer;
   then each replica runs the Train and Tokenize pages once (imports, the
   presets' training, the production tokenizers) so the first learner does not
   wait for that. Then it prints ``scripts/serve: ready: <url>``.
5. It watches: a replica that exits is started again on the same port (nginx
   sends its learners to the others meanwhile; their pages come back from the
   URL). If nginx exits, everything stops.
6. Ctrl-C, SIGTERM or SIGHUP: nginx and every replica are stopped (SIGTERM,
   then SIGKILL to the process group after 10 s); nothing is left behind.
   Every replica and the nginx master also get SIGKILL from the kernel if this
   process dies first (PR_SET_PDEATHSIG). nginx's workers do not: they outlive
   their master (parent 1, still listening). So a reaper process (this file,
   ``--reaper``) waits on a pipe from this process; when the pipe closes without
   a clean stop (SIGKILL, a crash), it kills what is left of the run (nginx's
   workers included) and removes the run's temporary directories. A record of
   the run per port (``/tmp/lab-serve-<uid>/port-<P>.json``) lets the next
   ``scripts/serve`` on that port do the same if the reaper was killed too.

Every replica gets ``LAB_DATABASE_URL`` when ``--database`` is given (else it inherits this process's
environment). Every child process carries ``LAB_SERVE_RUN=<run directory>`` in its
environment, so leftovers of a run can be found (tests/test_serve.py does).
nginx overwrites its own environment (its process titles), so its processes
are recognised by the master's pid and start time and the workers' process
group instead (see ``run_processes``).
"""

from __future__ import annotations

import argparse
import ctypes
import gzip
import ipaddress
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
COMPRESS = {".js", ".mjs", ".css", ".html", ".json", ".map", ".svg", ".txt"}
HEALTH_TIMEOUT_S = 120
STOP_TIMEOUT_S = 10
RESTART_LIMIT = 5  # restarts of one replica within RESTART_WINDOW_S before giving up on it
RESTART_WINDOW_S = 60
_PR_SET_PDEATHSIG = 1
REPLICA_MB = 700  # a replica with every page warm holds about 570-590 MB (its production tokenizers), plus up to 1 MB
# per session
MAX_REPLICAS = 64
MARKER = ".lab-serve-run"  # in every directory scripts/serve made (run dir, www dir): only those are reused or removed
# Characters a path in the nginx config may not hold: the config quotes every path ("..."), so a space, ; { } # are
# fine, but a quote or backslash would end or escape the quoting, $ starts a variable (root, access_log), and control
# characters (a newline) have no place in a path nginx is given.
NGINX_PATH_BAD = re.compile(r'["\\$\x00-\x1f\x7f]')


def say(message: str) -> None:
    print(f"scripts/serve: {message}", flush=True)


def default_replicas() -> int:
    """Two replicas per core, as memory allows. One Streamlit process does not keep a core busy (its script
    threads and its event loop take turns on the GIL): on 2 cores with 40 learners, 4 replicas kept 1.54 cores
    busy and answered clicks in 0.58 s (median), 2 replicas 1.42 cores and 1.71 s (bench/bench_load.py)."""
    cores = os.cpu_count() or 1
    try:
        with open("/proc/meminfo") as f:
            avail_mb = next(int(line.split()[1]) // 1024 for line in f if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        return 2 * cores
    return max(1, min(2 * cores, (avail_mb - 1024) // REPLICA_MB))


def find_nginx() -> str | None:
    """$LAB_NGINX if set, else nginx on PATH, else where Debian puts it (/usr/sbin is not on a user's PATH)."""
    if os.environ.get("LAB_NGINX"):
        return os.environ["LAB_NGINX"] if os.access(os.environ["LAB_NGINX"], os.X_OK) else None
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None)


def streamlit_static_dir() -> Path:
    from streamlit import file_util

    return Path(file_util.get_static_dir())


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((address, 0))
        return sock.getsockname()[1]


def streamlit_cmd(port: int, python: str = sys.executable) -> list[str]:
    """``streamlit run app.py`` as scripts/run starts it (the checkout's .streamlit/config.toml applies: run it
    with the checkout as the working directory), headless on 127.0.0.1:``port``, no file watcher."""
    return [python, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.address", "127.0.0.1",
            "--server.port", str(port), "--server.fileWatcherType", "none"]


def process_tree(root: int) -> list[int]:
    """The live process ``root`` and all its descendants, from /proc (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        if os.path.exists(f"/proc/{pid}"):
            out.append(pid)
            todo.extend(children.get(pid, []))
    return out


def _die_with_parent() -> None:
    """In the child, before exec: the kernel sends SIGKILL when scripts/serve dies, however it dies."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


# --- What a run leaves: its record, its processes, its directories ----------------------------


def _stat_fields(pid: int) -> list[bytes] | None:
    """/proc/PID/stat after the command name: [state, ppid, pgrp, ...] (field 3 onwards); None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def proc_start(pid: int) -> int | None:
    """When the process started (clock ticks since boot): with the pid, it names one process, never a later one."""
    fields = _stat_fields(pid)
    try:
        return int(fields[19]) if fields else None
    except (IndexError, ValueError):
        return None


def alive(pid: int) -> bool:
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] != b"Z"


def same_process(pid: int | None, start: int | None) -> bool:
    return bool(pid) and start is not None and alive(pid) and proc_start(pid) == start


def registry_dir() -> Path | None:
    """Where runs are recorded, one file per port: /tmp/lab-serve-<uid>, ours alone (0700, our own, no symlink).
    None if it cannot be (someone else made it): then only the reaper clears a killed run."""
    path = Path(tempfile.gettempdir()) / f"lab-serve-{os.geteuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        return None
    return path


def record_path(port: int) -> Path | None:
    folder = registry_dir()
    return folder / f"port-{port}.json" if folder else None


def read_record(path: Path | None) -> dict | None:
    if path is None:
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("run_dir"), str) else None


def cmdline(pid: int) -> bytes:
    """A process's command line as /proc holds it (NUL-separated), or b'' when it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def run_processes(record: dict) -> list[int]:
    """The live processes that provably belong to the run ``record`` describes, and nothing else:

    - its replicas (and the reaper): ``LAB_SERVE_RUN=<run dir>`` in their environment;
    - its nginx master: the recorded pid with the recorded start time (nginx rewrites its environment);
    - nginx's workers: in the master's process group (a pid is not given again while a group of that number
      lives), running the recorded nginx binary, titled ``nginx: ...``, started after the master.
    """
    marker = f"LAB_SERVE_RUN={record['run_dir']}".encode()
    nginx_pid, nginx_start = record.get("nginx_pid"), record.get("nginx_start")
    nginx_bin = os.path.realpath(record["nginx_bin"]) if record.get("nginx_bin") else None
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        pid = int(entry)
        fields = _stat_fields(pid)
        if not fields or fields[0] == b"Z":
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if marker in f.read().split(b"\0"):
                    found.append(pid)
                    continue
        except OSError:
            pass
        if not nginx_pid or nginx_start is None:
            continue
        if pid == nginx_pid:
            if proc_start(pid) == nginx_start:
                found.append(pid)
            continue
        try:
            pgrp, start = int(fields[2]), int(fields[19])
            exe = os.readlink(f"/proc/{pid}/exe")
        except (OSError, IndexError, ValueError):
            continue
        if pgrp == nginx_pid and start >= nginx_start and exe == nginx_bin and cmdline(pid).startswith(b"nginx: "):
            found.append(pid)
    return found


def _ours(path: str | None) -> bool:
    """A directory scripts/serve made: it holds our marker file (a regular file, not a link)."""
    return bool(path) and os.path.isdir(path) and os.path.isfile(os.path.join(path, MARKER)) \
        and not os.path.islink(os.path.join(path, MARKER))


def clear_run(record: dict) -> str:
    """Kill what is left of the run ``record`` describes and remove its temporary directories. Returns a summary."""
    pids = run_processes(record)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    removed = []
    for key in ("www_dir", "run_dir"):
        path = record.get(key)
        if key == "run_dir" and not record.get("remove_run_dir"):
            continue
        if _ours(path) and path not in removed:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    left = [p for p in pids if alive(p)]
    summary = (f"stopped {len(pids) - len(left)} process(es) of its run ({record['run_dir']})"
               + (f", removed {', '.join(removed)}" if removed else "")
               + (f"; STILL ALIVE: {left}" if left else ""))
    return summary


def reaper_main(argv: list[str]) -> int:
    """``serve.py --reaper RECORD``: read the run's record (JSON lines) from standard input, a pipe only
    scripts/serve holds open. "stopped" means a clean stop; end of input without it means scripts/serve died
    (SIGKILL, a crash): then clear the run. Started in a session of its own, so a Ctrl-C does not reach it."""
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    record_file = Path(argv[0]) if argv and argv[0] else None
    record, stopped = None, False
    for line in sys.stdin:
        line = line.strip()
        if line == "stopped":
            stopped = True
        elif line:
            try:
                record = json.loads(line)
            except ValueError:
                pass
    if stopped or record is None:
        return 0
    say(f"reaper: scripts/serve pid {record.get('serve_pid')} died; " + clear_run(record))
    if record_file is not None and (read_record(record_file) or {}).get("serve_pid") == record.get("serve_pid"):
        record_file.unlink(missing_ok=True)
    return 0


# --- Checking the arguments -------------------------------------------------------------------


def _port(text: str) -> int | None:
    return int(text) if re.fullmatch(r"[0-9]{1,5}", text) and 1 <= int(text) <= 65535 else None


def _host(text: str) -> bool:
    """An IPv4 or bracketed IPv6 address, or a host name (letters, digits, - and .)."""
    if text.startswith("[") and text.endswith("]"):
        try:
            return ipaddress.ip_address(text[1:-1]).version == 6
        except ValueError:
            return False
    return bool(re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?", text)) \
        and len(text) <= 253


def listen_address(address: str, port: int) -> str:
    """address:port as nginx's listen takes it (an IPv6 address in brackets)."""
    if ":" in address and not address.startswith("["):
        address = f"[{address}]"
    return f"{address}:{port}"


def check_run_dir(path: str) -> str | None:
    """Why ``--run-dir path`` cannot be used, or None. scripts/serve writes its config, logs and pid file there and
    (default run dirs) removes it at exit, so it takes only a directory that is new, empty, or its own (the marker
    file it writes in every directory it makes); never, say, /etc/nginx, whose nginx.conf it would replace."""
    if NGINX_PATH_BAD.search(os.path.realpath(path)):  # as nginx's config will name it (links followed)
        return (f"--run-dir {path!r}: a quote, backslash, $ or control character cannot be written in nginx's "
                "config; choose another directory name")
    if os.path.lexists(path) and not os.path.isdir(path):
        return f"--run-dir {path}: exists and is not a directory"
    if not os.path.isdir(path):
        return None
    try:
        entries = os.listdir(path)
    except OSError as exc:
        return f"--run-dir {path}: cannot be read ({exc.strerror})"
    if not entries:
        return None
    if not _ours(path):
        return (f"--run-dir {path}: not empty, and not made by scripts/serve (no {MARKER} in it); "
                "give a new or empty directory")
    try:
        mark = json.loads(Path(path, MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        mark = {}
    if isinstance(mark, dict) and same_process(mark.get("serve_pid"), mark.get("serve_start")):
        return f"--run-dir {path}: in use by scripts/serve pid {mark['serve_pid']}; stop it or give another directory"
    return None


def port_problem(address: str, port: int, what: str) -> str | None:
    """Why nginx (or a replica) could not listen on address:port, or None. Checked before anything starts."""
    family = socket.AF_INET6 if ":" in address.strip("[]") else socket.AF_INET
    host = address.strip("[]")
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as nginx does: TIME_WAIT is no obstacle
            sock.bind((host, port))
    except PermissionError:
        return f"{what} {port}: a port below 1024 needs root; choose a port from 1024 up"
    except OSError as exc:
        if exc.errno == 98:  # EADDRINUSE
            return f"{what} {port}: {host}:{port} is in use by another program; choose another port"
        return f"{what} {port} on {host}: {exc.strerror}"
    return None


# --- Static files -----------------------------------------------------------------------------


def _gzip_file(path: Path) -> None:
    data = path.read_bytes()
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, 9, mtime=0))


def prepare_static(target: Path) -> tuple[int, int]:
    """Copy Streamlit's static/ to ``target``, with a .gz next to every text file. Returns (files, .gz files)."""
    shutil.copytree(streamlit_static_dir(), target)
    texts = [p for p in target.rglob("*") if p.is_file() and p.suffix in COMPRESS]
    with ThreadPoolExecutor(max(2, os.cpu_count() or 2)) as pool:  # zlib releases the GIL
        list(pool.map(_gzip_file, texts))
    for path in [target, *target.rglob("*")]:  # readable by nginx's workers (www-data when started as root)
        path.chmod(0o755 if path.is_dir() else 0o644)
    return sum(1 for p in target.rglob("*") if p.is_file()), len(texts)


# --- nginx config -----------------------------------------------------------------------------


def upstream_blocks(upstreams: list[str]) -> dict[str, str]:
    """The generated parts of the nginx config: one upstream per replica (r1, r2, ...; the others as backups),
    lab_pick and lab_any (round robin over all), and the maps between cookie, upstream and address."""
    names = [f"r{i}" for i in range(1, len(upstreams) + 1)]
    server = "        server {} max_fails=1 fail_timeout=3s;"
    blocks = []
    for block in ("lab_pick", "lab_any"):
        blocks.append(f"    upstream {block} {{\n        zone {block} 64k;\n"
                      + "\n".join(server.format(u) for u in upstreams) + "\n        keepalive 16;\n    }")
    for name, address in zip(names, upstreams):
        lines = [server.format(address)] + [f"        server {u} backup;" for u in upstreams if u != address]
        blocks.append(f"    upstream lab_{name} {{\n        zone lab_{name} 64k;\n" + "\n".join(lines)
                      + "\n        keepalive 16;\n    }")
    last = [f'"~(^|[ ,]){re.escape(u)}$"' for u in upstreams]  # the address that answered: the last one tried
    return {
        "UPSTREAMS": "\n".join(blocks),
        "COOKIE_TO_UPSTREAM": "\n".join(f"        {n} lab_{n};" for n in names),
        "ADDRESS_TO_NAME": "\n".join(f"        {pattern} {n};" for n, pattern in zip(names, last)),
        "ADDRESS_TO_LABEL": "\n".join(f"        {pattern} replica-{i};" for i, pattern in enumerate(last, 1)),
    }


def real_ip_lines(trusted: list[str]) -> str:
    """nginx's realip settings for ``--trust-proxy``: from those addresses (a front in front of this machine), the
    client's address is the X-Lab-Client they set; from anyone else, the connection's own address."""
    if not trusted:
        return "        # (no --trust-proxy: the client's address is the connection's own)"
    lines = [f"        set_real_ip_from {address};" for address in trusted]
    return "\n".join([*lines, "        real_ip_header X-Lab-Client;", "        real_ip_recursive off;"])


def render_config(*, run_dir: Path, www_dir: Path, static_root: Path, listen: str, upstreams: list[str],
                  workers: str, user_line: str, access_log: str, max_body: str, cookie: str, proxy_token: str,
                  trusted: list[str] | None = None) -> str:
    """The nginx config. Paths go in double quotes (the template quotes them); one that a quoted nginx string cannot
    hold as it is (a quote, backslash, $, control character) is refused here, as --run-dir is before we start."""
    for path in (run_dir, www_dir, static_root):
        if NGINX_PATH_BAD.search(str(path)):
            raise ValueError(f"{path!r}: a quote, backslash, $ or control character cannot go in nginx's config")
    if not re.fullmatch(r"[0-9a-f]{32,128}", proxy_token):
        raise ValueError("the proxy token is hex digits, made by scripts/serve")
    text = TEMPLATE.read_text(encoding="utf-8")
    for name, value in {
        "USER_LINE": user_line,
        "WORKERS": workers,
        "RUN_DIR": str(run_dir),
        "WWW_DIR": str(www_dir),
        "STATIC_ROOT": str(static_root),
        "LISTEN": listen,
        "ACCESS_LOG": access_log,
        "MAX_BODY": max_body,
        "COOKIE": cookie,
        "PROXY_TOKEN": proxy_token,
        "REAL_IP": real_ip_lines([str(_network(a)) for a in trusted or []]),
        **upstream_blocks(upstreams),
    }.items():
        text = text.replace(f"@@{name}@@", value)
    leftover = [part.split("@@")[0] for part in text.split("@@")[1::2]]
    if leftover:
        raise ValueError(f"{TEMPLATE}: placeholders not filled: {leftover}")
    return text


def nginx_user_line() -> str:
    """As root, nginx's workers drop to www-data (Debian's nginx user), else nobody; otherwise they stay us."""
    if os.geteuid() != 0:
        return "# not root: the workers run as the user who started scripts/serve"
    for user in ("www-data", "nobody"):
        try:
            pwd.getpwnam(user)
            return f"user {user};"
        except KeyError:
            continue
    return "user root;"


# --- Processes --------------------------------------------------------------------------------


@dataclass
class Replica:
    index: int
    port: int
    log: Path
    process: subprocess.Popen | None = None
    restarts: list[float] = field(default_factory=list)
    given_up: bool = False
    warming: subprocess.Popen | None = None  # the warm-up of a replica started again

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


class Server:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.python = args.python
        self.nginx_bin = find_nginx()
        self.own_run_dir = args.run_dir is None
        self.run_dir = Path(args.run_dir or tempfile.mkdtemp(prefix="lab-serve-")).resolve()
        self.replicas: list[Replica] = []
        self.nginx: subprocess.Popen | None = None
        self.stopping = False
        # nginx sends this token with every request (X-Lab-Proxy): a replica trusts the client's address nginx
        # gives (X-Lab-Client) only with it, so nobody else (another local user, a client) can choose that address.
        self.proxy_token = secrets.token_hex(32)
        self.env = {**os.environ, "LAB_SERVE_RUN": str(self.run_dir), "PYTHONUNBUFFERED": "1",
                    "LAB_PROXY_TOKEN": self.proxy_token,
                    **({"LAB_DATABASE_URL": args.database} if args.database else {})}
        self._www: Path | None = None
        self.record_file = record_path(args.port)
        self.record = {"serve_pid": os.getpid(), "serve_start": proc_start(os.getpid()), "port": args.port,
                       "run_dir": str(self.run_dir), "remove_run_dir": self.own_run_dir and not args.keep_run_dir,
                       "www_dir": None, "nginx_pid": None, "nginx_start": None, "nginx_bin": self.nginx_bin}
        self.reaper: subprocess.Popen | None = None
        self._to_reaper = None

    def www_dir(self) -> Path:
        """What nginx's workers read and write (static files, temp files). As root the workers are www-data,
        who may not enter the run directory (e.g. under a 0700 /tmp/pytest-of-root), so then it is a directory
        of its own under /tmp, removed at exit; otherwise it is inside the run directory."""
        if self._www is None:
            if os.geteuid() == 0:
                self._www = Path(tempfile.mkdtemp(prefix="lab-serve-www-", dir="/tmp" if os.path.isdir("/tmp") else None))
                self._www.chmod(0o755)
                self._mark(self._www)
                self.record["www_dir"] = str(self._www)
                self._save_record()
            else:
                self._www = self.run_dir
        return self._www

    # -- the run's record and its reaper -------------------------------------------------------
    def _mark(self, folder: Path) -> None:
        """Mark a directory as made by scripts/serve (so --run-dir may reuse it, and a reaper may remove it)."""
        (folder / MARKER).write_text(json.dumps({"made_by": "scripts/serve", "serve_pid": os.getpid(),
                                                 "serve_start": proc_start(os.getpid())}) + "\n", encoding="utf-8")

    def _save_record(self) -> None:
        """Tell the reaper (a JSON line) and the record file for this port what the run is now."""
        line = json.dumps(self.record)
        if self._to_reaper is not None:
            try:
                self._to_reaper.write(line + "\n")
                self._to_reaper.flush()
            except OSError:
                say("WARNING: the reaper is gone; if this process is killed, the next scripts/serve on this port "
                    "clears what it leaves")
                self._to_reaper = None
        if self.record_file is not None:
            tmp = self.record_file.with_name(self.record_file.name + f".{os.getpid()}")
            try:
                tmp.write_text(line + "\n", encoding="utf-8")
                tmp.replace(self.record_file)
            except OSError:
                pass

    def start_reaper(self) -> None:
        """The reaper waits for the end of a pipe only this process holds (the kernel closes it however we die)."""
        read_end, write_end = os.pipe()
        try:
            self.reaper = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--reaper", str(self.record_file or "")],
                cwd=ROOT, stdin=read_end, env=self.env, start_new_session=True)
        finally:
            os.close(read_end)
        self._to_reaper = os.fdopen(write_end, "w", encoding="utf-8")
        self._save_record()

    def stop_reaper(self) -> None:
        """A clean stop: the reaper has nothing to do; the record for this port goes."""
        if self._to_reaper is not None:
            try:
                self._to_reaper.write("stopped\n")
                self._to_reaper.close()
            except OSError:
                pass
            self._to_reaper = None
        if self.reaper is not None:
            try:
                self.reaper.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.reaper.kill()
        if self.record_file is not None and (read_record(self.record_file) or {}).get("serve_pid") == os.getpid():
            self.record_file.unlink(missing_ok=True)

    # -- starting ---------------------------------------------------------------------------
    def _spawn(self, cmd: list[str], log: Path) -> subprocess.Popen:
        with open(log, "ab") as out:
            return subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    env=self.env, start_new_session=True, preexec_fn=_die_with_parent)

    def replica_cmd(self, replica: Replica) -> list[str]:
        return [*streamlit_cmd(replica.port, self.python), "--server.runOnSave", "false", *self.args.streamlit_args]

    def start_replica(self, replica: Replica) -> None:
        replica.process = self._spawn(self.replica_cmd(replica), replica.log)
        say(f"replica {replica.index} starting: pid {replica.process.pid} on {replica.address} (log {replica.log})")

    def start(self) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self._mark(self.run_dir)
        self.start_reaper()
        say(f"run directory {self.run_dir}")
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.www_dir() / "tmp" / sub).mkdir(parents=True, exist_ok=True)
        ports = list(range(self.args.replica_port, self.args.replica_port + self.args.replicas)) \
            if self.args.replica_port else [free_port() for _ in range(self.args.replicas)]
        for i, port in enumerate(ports, 1):
            replica = Replica(i, port, self.run_dir / f"replica-{i}.log")
            self.replicas.append(replica)
            self.start_replica(replica)

        start = time.monotonic()
        static_root = self.www_dir() / "static"
        files, gz = prepare_static(static_root)
        say(f"static files: {files} from {streamlit_static_dir()} ({gz} pre-compressed) in {time.monotonic() - start:.1f} s")

        upstreams = [r.address for r in self.replicas] + list(self.args.upstream)
        conf = self.run_dir / "nginx.conf"
        # Only this user reads it: it holds the proxy token (X-Lab-Proxy), with which anyone on this machine could
        # talk to a replica directly and choose the address the join limit counts. nginx's master reads it before
        # its workers drop to another user.
        conf.touch(mode=0o600)
        conf.chmod(0o600)
        conf.write_text(render_config(
            run_dir=self.run_dir, www_dir=self.www_dir(), static_root=static_root,
            listen=listen_address(self.args.address, self.args.port),
            upstreams=upstreams, workers=str(self.args.nginx_workers), user_line=nginx_user_line(),
            access_log=f'"{self.run_dir}/access.log" lab' if self.args.access_log else "off",
            max_body=self.args.max_body, cookie=self.args.cookie, proxy_token=self.proxy_token,
            trusted=self.args.trust_proxy,
        ), encoding="utf-8")
        nginx_cmd = [self.nginx_bin, "-p", str(self.run_dir), "-c", str(conf), "-e", str(self.run_dir / "nginx-error.log")]
        check = subprocess.run([*nginx_cmd, "-t", "-q"], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx rejected {conf}:\n{check.stderr.strip()}")
        self.nginx = self._spawn(nginx_cmd, self.run_dir / "nginx-stdout.log")
        self.record.update(nginx_pid=self.nginx.pid, nginx_start=proc_start(self.nginx.pid))
        self._save_record()
        say(f"nginx starting: pid {self.nginx.pid} on http://{self.args.address}:{self.args.port}/ "
            f"(config {conf}, {len(upstreams)} upstream(s))")

    # -- health ------------------------------------------------------------------------------
    def wait_healthy(self) -> None:
        deadline = time.monotonic() + HEALTH_TIMEOUT_S
        pending = {r.index for r in self.replicas}
        front = f"http://{_connect_host(self.args.address)}:{self.args.port}"
        front_ok = False
        while pending or not front_ok:
            if self.stopping:
                raise KeyboardInterrupt
            for replica in self.replicas:
                code = replica.process.poll() if replica.process else None
                if code is not None:
                    raise RuntimeError(f"replica {replica.index} exited with code {code} before it was healthy:\n"
                                       + _tail(replica.log))
                if replica.index in pending and _healthy(f"http://{replica.address}/_stcore/health"):
                    pending.discard(replica.index)
                    say(f"replica {replica.index} healthy ({replica.address})")
            if self.nginx and self.nginx.poll() is not None:
                raise RuntimeError(f"nginx exited with code {self.nginx.returncode}:\n"
                                   + _tail(self.run_dir / "nginx-error.log") + _tail(self.run_dir / "nginx-stdout.log"))
            if not pending and not front_ok:  # through nginx: a replica, and the page's HTML from the static copy
                front_ok = _healthy(f"{front}/_stcore/health") and _healthy(f"{front}/")
            if time.monotonic() > deadline:
                raise RuntimeError(f"not healthy after {HEALTH_TIMEOUT_S} s: replicas {sorted(pending)}, nginx ok={front_ok}")
            time.sleep(0.2)

    def warm_up(self) -> None:
        """Each replica runs every page, every lesson and Train on every preset once (deploy/warm_up.py): imports,
        training, tokenizers read from disk, lesson figures; the first learner on a page pays no more than the next."""
        start = time.monotonic()

        # in a child process: the warm-up imports the pages' views (their keys) and with them Streamlit, pandas and
        # altair, ~110 MB this supervisor would otherwise hold for the whole lesson
        # (its stderr, Streamlit's warnings about running without a server, goes to warm-up.log in the run directory)
        with open(self.run_dir / "warm-up.log", "w", encoding="utf-8") as errors:
            child = subprocess.Popen([sys.executable, "-m", "deploy.warm_up",
                                      *(f"http://{r.address}" for r in self.replicas)],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=errors, text=True)
        while child.poll() is None and not self.stopping:
            time.sleep(0.2)
        if child.poll() is None:
            child.kill()
            problems = ["stopped before the warm-up finished"]
        else:
            output = child.stdout.read() if child.stdout else ""
            problems = [line for line in output.splitlines() if line.strip()]
            if child.returncode and not problems:
                problems = [f"the warm-up exited with code {child.returncode}: "
                            + _tail(self.run_dir / "warm-up.log").strip().replace("\n", " | ")[-300:]]
        if child.stdout:
            child.stdout.close()
        for problem in problems:
            say(f"WARNING: warm-up: {problem}")
        say(f"replicas warmed up in {time.monotonic() - start:.1f} s")

    def rewarm(self, replica: Replica) -> None:
        """Warm a replica started again, in the background (a child that waits for it to answer; its problems go to
        warm-up.log): nginx sends it new learners as soon as it is healthy, so this cannot come first for them, but
        every page they have not opened yet is warm when they do."""
        if replica.warming is not None and replica.warming.poll() is None:
            os.killpg(replica.warming.pid, signal.SIGKILL)  # the last warm-up's replica is gone
            replica.warming.wait()
        replica.warming = self._spawn([sys.executable, "-m", "deploy.warm_up", "--wait", f"http://{replica.address}"],
                                      self.run_dir / "warm-up.log")

    # -- running -----------------------------------------------------------------------------
    def watch(self) -> int:
        while not self.stopping:
            if self.nginx and self.nginx.poll() is not None:
                say(f"nginx exited with code {self.nginx.returncode}; stopping\n" + _tail(self.run_dir / "nginx-error.log"))
                return 1
            for replica in self.replicas:
                if replica.given_up or replica.process is None or replica.process.poll() is None:
                    continue
                code = replica.process.returncode
                now = time.monotonic()
                replica.restarts = [t for t in replica.restarts if now - t < RESTART_WINDOW_S] + [now]
                if len(replica.restarts) > RESTART_LIMIT:
                    replica.given_up = True
                    say(f"replica {replica.index} exited (code {code}) {RESTART_LIMIT} times in {RESTART_WINDOW_S} s; "
                        "not restarting it (nginx sends its learners to the others)")
                    continue
                say(f"replica {replica.index} exited (code {code}); starting it again on {replica.address}")
                self.start_replica(replica)
                if self.args.warm_up:  # its next learners find its pages warm again (the others' are)
                    self.rewarm(replica)
            for replica in self.replicas:
                if replica.warming is not None and replica.warming.poll() is not None:
                    code, replica.warming = replica.warming.returncode, None
                    say(f"replica {replica.index} warmed up again" + (f" (the warm-up exited with code {code}; see "
                                                                       "warm-up.log)" if code else ""))
            time.sleep(0.5)
        return 0

    # -- stopping ----------------------------------------------------------------------------
    def stop(self) -> None:
        self.stopping = True
        procs = [p for p in [self.nginx] + [r.process for r in self.replicas] + [r.warming for r in self.replicas]
                 if p is not None]
        for proc in procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)  # each child leads its own process group
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for proc in procs:  # stragglers, and anything they started in their group
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                say(f"WARNING: pid {proc.pid} did not exit")
        say("stopped nginx and " + (f"{len(self.replicas)} replica(s)" if self.replicas else "no replicas"))
        if self._www is not None and self._www != self.run_dir:
            shutil.rmtree(self._www, ignore_errors=True)
        if self.own_run_dir and not self.args.keep_run_dir:
            shutil.rmtree(self.run_dir, ignore_errors=True)
        else:
            say(f"logs kept in {self.run_dir}")
        self.stop_reaper()


def _connect_host(address: str) -> str:
    return "127.0.0.1" if address in ("0.0.0.0", "", "*") else ("[::1]" if address in ("::", "[::]") else address)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return resp.status == 200
    except OSError:
        return False


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]) + "\n"
    except OSError:
        return ""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2 (argparse's own prints the whole usage first)
        print(f"scripts/serve: error: {message} (scripts/serve --help lists the options)", file=sys.stderr, flush=True)
        raise SystemExit(2)


def _ascii_int(text: str) -> int:
    """A whole number in ASCII digits (int() would also take "٣" or "３")."""
    if not re.fullmatch(r"[0-9]{1,9}", text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (digits 0-9)")
    return int(text)


def check_args(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments (one line), or None: checked before any process starts, so a bad value is
    never found by `nginx -t` after the replicas started."""
    if not 1 <= args.port <= 65535:
        return f"--port {args.port}: a port is 1-65535"
    if not (_host(args.address) or args.address in ("*", "::") or _ipv6(args.address)):
        return f"--address {args.address!r}: not an IP address or host name"
    if args.replicas > MAX_REPLICAS:
        return f"--replicas {args.replicas}: at most {MAX_REPLICAS} on one machine"
    if args.replicas < 0 or (args.replicas == 0 and not args.upstream):
        return "--replicas must be at least 1 (or 0 with --upstream)"
    if args.replica_port and not (1 <= args.replica_port and args.replica_port + args.replicas - 1 <= 65535):
        return f"--replica-port {args.replica_port}: the replicas' ports must lie in 1-65535"
    if args.replica_port and args.replica_port <= args.port < args.replica_port + args.replicas:
        return f"--replica-port {args.replica_port}: the replicas' ports include nginx's --port {args.port}"
    for upstream in args.upstream:
        host, _, port = upstream.rpartition(":")
        if not host or _port(port) is None or not _host(host):
            return f"--upstream {upstream!r}: give HOST:PORT (e.g. 192.168.1.20:8080), a port 1-65535"
    if len(set(args.upstream)) != len(args.upstream):
        return "--upstream: the same address twice"
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", args.cookie):
        return "--cookie: letters, digits and _ only"
    if not (args.nginx_workers == "auto" or re.fullmatch(r"[0-9]{1,3}", args.nginx_workers)
            and 1 <= int(args.nginx_workers) <= 256):
        return f"--nginx-workers {args.nginx_workers!r}: auto or a number from 1 to 256"
    if not re.fullmatch(r"[0-9]{1,6}[kKmMgG]?", args.max_body):
        return f"--max-body {args.max_body!r}: a size such as 200m, 500k or 1g"
    for address in args.trust_proxy:
        if _network(address) is None:
            return f"--trust-proxy {address!r}: an IP address or network (e.g. 10.0.0.5 or 10.0.0.0/24)"
    if args.run_dir is not None:
        return check_run_dir(args.run_dir)
    return None


def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """An address or network as nginx's set_real_ip_from takes it, or None."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return None


def _ipv6(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 6
    except ValueError:
        return False


def clear_earlier_run(args: argparse.Namespace) -> str | None:
    """Before starting on a port: if the record of an earlier scripts/serve on it names a live one, refuse (one
    line); if that one is dead (killed with its reaper), clear what it left. Then the port must be free."""
    path = record_path(args.port)
    record = read_record(path)
    if record is not None:
        if same_process(record.get("serve_pid"), record.get("serve_start")):
            return (f"--port {args.port}: scripts/serve pid {record['serve_pid']} is serving it (run directory "
                    f"{record['run_dir']}); stop it first (Ctrl-C there, or kill {record['serve_pid']})")
        say(f"an earlier scripts/serve on port {args.port} (pid {record.get('serve_pid')}) was killed: "
            + clear_run(record))
        path.unlink(missing_ok=True)
    problem = port_problem(args.address, args.port, "--port")
    if problem is None and args.replica_port:
        for port in range(args.replica_port, args.replica_port + args.replicas):
            problem = problem or port_problem("127.0.0.1", port, "--replica-port")
    return problem


def _mask(text: str, url: str) -> str:
    """``text`` with every password ``url`` holds (``user:PASSWORD@``, ``password=...``) replaced by ***: also
    where a message quotes the URL cut short, so the masking in the URL's own form would miss it."""
    from urllib.parse import parse_qs, unquote, urlsplit

    found = set()
    try:
        parts = urlsplit(url)
        if parts.password:
            found |= {parts.password, unquote(parts.password)}
        for key, values in parse_qs(parts.query).items():
            if key.lower() == "password":
                found |= set(values)
    except ValueError:
        pass
    for match in re.finditer(r"(?i)(?:://[^/@:]*:([^/@]*)@|password=([^&\s]*))", url):
        found |= {g for g in match.groups() if g}
    for secret in sorted((s for s in found if s), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def check_database(python: str, url: str | None) -> tuple[str | None, str | None]:
    """Open the class database the replicas will use (``url``, else their environment's default), in a child
    process running the replicas' Python (this supervisor never loads the store or psycopg). Returns (where it
    is, None) when it opens, else (None, what is wrong): one line each, without the password."""
    env = {**os.environ, **({"LAB_DATABASE_URL": url} if url else {})}  # in the environment: never in `ps`
    try:
        result = subprocess.run([python, "-m", "deploy.serve", "--check-database"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"the class database could not be checked: {exc}"
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    last = _mask(lines[-1], env.get("LAB_DATABASE_URL", "")) if lines else ""
    if result.returncode == 0:
        return last or "class database: ?", None
    return None, last or f"the class database check exited with code {result.returncode}"


def check_database_main() -> int:
    """``python -m deploy.serve --check-database``: open ``$LAB_DATABASE_URL`` (or the default SQLite file) as a
    replica will; exit 0 and print where, or print one line and exit 2."""
    import logging

    from lessons.classroom.db import database_url, open_database, without_password

    logging.getLogger("lab.classes").disabled = True  # its fault is printed below, in the one line asked for
    url = database_url()
    try:
        db = open_database(url)
    except (ValueError, ConnectionError, OSError) as exc:
        said = getattr(exc, "detail", None) or str(exc)  # the class store's errors: the operator's words
        print(_mask(f"--database {without_password(url)}: {' '.join(said.split())}", url), flush=True)
        return 2
    try:
        print(f"class database: {db.url}", flush=True)
    finally:
        db.close()
    return 0


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = _Parser(
        prog="scripts/serve",
        description="Serve the lab to a classroom: N Streamlit replicas behind nginx (sticky sessions, "
        "static files from nginx), in the foreground. Ctrl-C stops everything.",
        epilog="Arguments after -- go to every `streamlit run` (e.g. -- --server.maxUploadSize 50).",
    )
    parser.add_argument("--replicas", type=_ascii_int, default=default_replicas(),
                        help="Streamlit processes on this machine (default %(default)s: two per core, as memory "
                        f"allows at {REPLICA_MB} MB each)")
    parser.add_argument("--port", type=_ascii_int, default=8080, help="nginx's port (default %(default)s)")
    parser.add_argument("--address", default="0.0.0.0",
                        help="nginx's address (default %(default)s: every interface, so laptops on the LAN reach it)")
    parser.add_argument("--replica-port", type=_ascii_int, default=0,
                        help="first replica port (the others follow); default: free ports on 127.0.0.1")
    parser.add_argument("--upstream", action="append", default=[], metavar="HOST:PORT",
                        help="also send learners to a replica (or another machine's scripts/serve) at HOST:PORT; repeatable")
    parser.add_argument("--cookie", default="lab_replica",
                        help="the affinity cookie's name (default %(default)s; a front scripts/serve in front of "
                        "others' needs a name of its own, e.g. lab_machine)")
    parser.add_argument("--trust-proxy", action="append", default=[], metavar="ADDRESS",
                        help="a proxy in front of this nginx (an IP address or network; repeatable) whose X-Lab-Client "
                        "header names the learner's address (e.g. another scripts/serve as the front); without it "
                        "every learner behind that proxy counts as its one address in the join limit")
    parser.add_argument("--nginx-workers", default="auto", help="nginx worker processes (default %(default)s)")
    parser.add_argument("--max-body", default="200m", help="largest upload nginx lets through (default %(default)s, "
                        "Streamlit's own limit)")
    parser.add_argument("--run-dir", help="directory for the config, logs and static copy (kept at exit): a new or "
                        f"empty one, or one scripts/serve made before (it holds {MARKER}); default: a new one under "
                        "/tmp, removed at exit")
    parser.add_argument("--keep-run-dir", action="store_true", help="keep the default run directory at exit")
    parser.add_argument("--no-access-log", dest="access_log", action="store_false",
                        help="no nginx access log (it names each request's replica)")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="skip running the pages once on each replica before saying ready")
    parser.add_argument("--database", metavar="URL",
                        help="the class database every replica uses: postgresql://USER:PASSWORD@HOST/DB (several "
                        "machines share one) or sqlite:///FILE (default: $LAB_DATABASE_URL if set, else "
                        "$LAB_DATA_DIR/classes.sqlite3, ./data by default, shared by this machine's replicas)")
    parser.add_argument("--python", default=sys.executable, help="Python that runs Streamlit (default: this one)")
    streamlit_args: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, streamlit_args = argv[:cut], argv[cut + 1:]
    args = parser.parse_args(argv)
    args.streamlit_args = streamlit_args
    problem = check_args(args)
    if problem:
        parser.error(problem)
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--reaper"]:
        return reaper_main(argv[1:])
    if argv == ["--check-database"]:
        return check_database_main()
    args = parse_args(argv)
    if find_nginx() is None:
        say("nginx is missing. Install Debian's package, then run scripts/serve again:")
        say("    sudo apt-get install nginx      (as root: apt-get install -y nginx)")
        say("(or use scripts/run for one Streamlit process without nginx)")
        return 3
    where, problem = check_database(args.python, args.database) if args.replicas else (None, None)
    problem = problem or clear_earlier_run(args)
    if problem:
        print(f"scripts/serve: error: {problem}", file=sys.stderr, flush=True)
        return 2
    if where:
        say(where)
    server = Server(args)

    def on_signal(signum, _frame):
        if not server.stopping:
            say(f"{signal.Signals(signum).name}: stopping")
        server.stopping = True

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    code = 0
    try:
        server.start()
        server.wait_healthy()
        if args.warm_up and server.replicas and not server.stopping:
            server.warm_up()
        if not server.stopping:
            host = "localhost" if args.address in ("0.0.0.0", "::") else args.address
            say(f"ready: http://{host}:{args.port}/ ({len(server.replicas)} replica(s)"
                + (f" + {len(args.upstream)} upstream(s)" if args.upstream else "") + "). Ctrl-C stops everything.")
            if args.address in ("0.0.0.0", "::"):
                say("learners on the same network open http://<this machine's address>:" f"{args.port}/")
            code = server.watch()
    except KeyboardInterrupt:
        code = 0
    except Exception as exc:  # noqa: BLE001 - report, then stop everything
        say(f"FAILED: {exc}")
        code = 1
    finally:
        server.stop()
    return code


if __name__ == "__main__":
    sys.exit(main())
