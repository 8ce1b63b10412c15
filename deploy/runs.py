"""The processes of a ``scripts/serve`` run and what a run leaves behind: a child that dies with us, a process's
tree, the run's record per port, the run's processes found again (nginx's workers too), and the reaper that
clears a run killed without a clean stop (see deploy/serve.py's docstring, steps 5 and 6).
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import socket
import stat
import sys
import tempfile
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1
MARKER = ".lab-serve-run"  # in every directory scripts/serve made (run dir, www dir): only those are reused or removed


def say(message: str) -> None:
    print(f"scripts/serve: {message}", flush=True)



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


def die_with_parent() -> None:
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
    return bool(fields and fields[0] != b"Z")


def same_process(pid: int | None, start: int | None) -> bool:
    if not pid or start is None:
        return False
    return alive(pid) and proc_start(pid) == start


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


def ours(path: str | None) -> bool:
    """A directory scripts/serve made: it holds our marker file (a regular file, not a link)."""
    if not path:
        return False
    return os.path.isdir(path) and os.path.isfile(os.path.join(path, MARKER)) and not os.path.islink(os.path.join(path, MARKER))


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
    removed: list[str] = []
    for key in ("www_dir", "run_dir"):
        path = record.get(key)
        if key == "run_dir" and not record.get("remove_run_dir"):
            continue
        if isinstance(path, str) and ours(path) and path not in removed:
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
