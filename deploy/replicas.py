"""The replicas and their supervision: a run's directories, nginx and N Streamlit processes started, their
health awaited, each warmed up once, watched and started again when one exits, and everything stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from deploy.nginx_config import (
    ROOT,
    find_nginx,
    listen_address,
    nginx_user_line,
    prepare_static,
    render_config,
    streamlit_static_dir,
)
from deploy.runs import MARKER, die_with_parent, free_port, proc_start, read_record, record_path, say, streamlit_cmd

HEALTH_TIMEOUT_S = 120
STOP_TIMEOUT_S = 10
RESTART_LIMIT = 5  # restarts of one replica within RESTART_WINDOW_S before giving up on it
RESTART_WINDOW_S = 60


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
        self._to_reaper: TextIO | None = None

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
                [sys.executable, str(ROOT / "deploy" / "serve.py"), "--reaper", str(self.record_file or "")],
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
                                    env=self.env, start_new_session=True, preexec_fn=die_with_parent)

    def replica_cmd(self, replica: Replica) -> list[str]:
        """A replica's ``streamlit run``: no run on save, and no error's details on a learner's screen (an error the lab
        did not foresee shows Streamlit's redacted message; the replica's log keeps the traceback for whoever runs the
        lab: a traceback names the server's files and can carry what was being read). Arguments after ``--`` come
        last, and win."""
        return [*streamlit_cmd(replica.port, self.python), "--server.runOnSave", "false",
                "--client.showErrorDetails", "none", *self.args.streamlit_args]

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
        if self.nginx_bin is None:  # scripts/serve says so before it starts anything
            raise RuntimeError("nginx is missing (as root: apt-get install nginx)")
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
