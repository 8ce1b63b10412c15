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

This module is the command line (the arguments, their checks, the class database's check, ``main``); the work is in
``deploy.nginx_config`` (nginx's binary, the static files, the config), ``deploy.replicas`` (the run's
directories, nginx and the replicas started, watched, restarted and stopped) and ``deploy.runs`` (a run's
processes, its record per port, the reaper).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script (scripts/serve runs python deploy/serve.py): the checkout's packages
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deploy.nginx_config import NGINX_PATH_BAD, ROOT, find_nginx, network, render_config
from deploy.replicas import Server
from deploy.runs import (
    MARKER,
    clear_run,
    cmdline,
    free_port,
    ours,
    proc_start,
    process_tree,
    read_record,
    reaper_main,
    record_path,
    run_processes,
    same_process,
    say,
    streamlit_cmd,
)

REPLICA_MB = 700  # a replica with every page warm holds about 570-590 MB (its production tokenizers), plus up to 1 MB
# per session
MAX_REPLICAS = 64


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
    if not ours(path):
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
        if network(address) is None:
            return f"--trust-proxy {address!r}: an IP address or network (e.g. 10.0.0.5 or 10.0.0.0/24)"
    if args.run_dir is not None:
        return check_run_dir(args.run_dir)
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
    if record is not None and path is not None:  # a record was read from its path
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


# What the tests, the benchmarks and the browser fixtures import from here (one copy with scripts/serve).
__all__ = ["check_args", "cmdline", "find_nginx", "free_port", "main", "parse_args", "proc_start", "process_tree",
           "record_path", "render_config", "run_processes", "streamlit_cmd"]


if __name__ == "__main__":
    sys.exit(main())
