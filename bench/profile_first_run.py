"""Where a new session's first run spends its time: a profile of fresh visitors' first runs on a warm server, by
CPU time, beside another commit's when asked (a benchmark tool, not a test).

One Streamlit process of the checkout (as ``scripts/run`` starts it, through ``bench/_profiled_streamlit.py``,
which profiles every script run with cProfile on its own thread) is warmed up as ``scripts/serve``'s warm-up
does (``deploy.warm_up`` of *this* tree: every preset on Train, every page once), and the link is opened once
more; then ``--visits`` fresh sessions (each a new browser tab: HTML, health, host-config, websocket, the first
run) open the link one after another. Printed for each: the server process's CPU per visit (all its threads:
the websocket, the session's set-up, the messages, the run), the script thread's CPU and wall time of the first
run, and the functions that take it, summed over the visits (cumulative and own time).

    .venv/bin/python bench/profile_first_run.py                         # Train on the chai preset, 10 visits
    .venv/bin/python bench/profile_first_run.py --vs e062fb1            # the same for that commit, side by side
    .venv/bin/python bench/profile_first_run.py --link Lessons --link "" --visits 5 --top 40
    .venv/bin/python bench/profile_first_run.py --timer wall            # wall time instead of CPU time

``--vs REV`` runs that commit's code from ``git archive REV`` in a temporary folder with this interpreter (the
same Streamlit), driven by this tree's client and warm-up. CPU time, not wall time, is what a busy shared
machine disturbs least; a profile's own figures are inflated by cProfile (several times for small calls), so
compare them with each other, and the unprofiled per-visit CPU with ``bench/bench_load.py``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.serve import free_port  # noqa: E402
from deploy.stclient import Session  # noqa: E402

HOOK = Path(__file__).resolve().parent / "_profiled_streamlit.py"
CLK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def checkout(rev: str, into: Path) -> Path:
    """``git archive rev`` extracted into ``into``: that commit's code as committed."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def split_link(link: str) -> tuple[str, str]:
    path, _, query = link.partition("?")
    return path.strip("/"), query


class Server:
    def __init__(self, tree: Path, prof: Path, timer: str) -> None:
        self.port, self.prof = free_port(), prof
        self.url = f"http://127.0.0.1:{self.port}"
        prof.mkdir(parents=True)
        self.phase("warm-up")
        env = {**os.environ, "PROFILE_DIR": str(prof), "PROFILE_TIMER": timer, "PYTHONUNBUFFERED": "1"}
        env.pop("LAB_DATABASE_URL", None)
        env["LAB_DATA_DIR"] = str(prof / "data")  # the class store of this run, not the lab's own
        self.log = open(prof / "server.log", "w", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, str(HOOK), "run", "app.py", "--server.headless", "true", "--server.address",
             "127.0.0.1", "--server.port", str(self.port), "--server.fileWatcherType", "none"],
            cwd=tree, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {(prof / 'server.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not answer within 120 s") from None
                time.sleep(0.2)

    def phase(self, name: str) -> None:
        (self.prof / "phase").write_text(name)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


async def visit(url: str, link: str) -> tuple[float, str]:
    """One fresh tab: the page, the websocket, the first run. (Wall time to script_finished, its status.)"""
    path, query = split_link(link)
    session = Session(url, keep_frames=False)
    try:
        await session.open(path, query, timeout=120)
        run = await session.load(timeout=120)
        return (run.finished or time.perf_counter()) - run.sent, run.status + (
            f" ({run.exceptions[0][:100]})" if run.exceptions else "")
    finally:
        await session.close()


def warm(server: Server, links: list[str]) -> None:
    """scripts/serve's warm-up (this tree's), then each link once (its first visit after the warm-up)."""
    out = subprocess.run([sys.executable, "-m", "deploy.warm_up", server.url], cwd=ROOT, capture_output=True,
                         text=True, timeout=900)
    for line in (out.stdout + out.stderr).splitlines():
        if "No runtime found" not in line:  # the views' caches imported outside Streamlit say so: noise
            print(f"   warm-up: {line}")
    server.phase("first")
    for link in links:
        asyncio.run(visit(server.url, link))


async def visits_in_turn(server: Server, links: list[str], visits: int) -> dict:
    """Fresh visits one after another, while one other tab stays connected (as in a class: with no session left,
    Streamlit empties its compiled-script cache, and each lone visit would pay for compiling the page again)."""
    keeper = Session(server.url, keep_frames=False)
    await keeper.open("")
    await keeper.load(timeout=120)
    server.phase("visits")  # from here on, every run is profiled
    per_link = {}
    try:
        for link in links:
            cpus, walls, statuses = [], [], []
            for _ in range(visits):
                await asyncio.sleep(0.3)
                before = process_cpu(server.process.pid)
                wall, status = await visit(server.url, link)
                await asyncio.sleep(0.3)  # the server's last messages and bookkeeping
                cpus.append(process_cpu(server.process.pid) - before)
                walls.append(wall)
                statuses.append(status)
            per_link[link] = {"process_cpu": cpus, "wall": walls, "statuses": statuses}
    finally:
        await keeper.close()
    return per_link


def measure(name: str, tree: Path, links: list[str], visits: int, timer: str, work: Path) -> dict:
    print(f"\n== {name} ({tree}): starting", flush=True)
    server = Server(tree, work / f"prof-{name}", timer)
    try:
        start = time.perf_counter()
        warm(server, links)
        print(f"   warmed up in {time.perf_counter() - start:.1f} s", flush=True)
        per_link = asyncio.run(visits_in_turn(server, links, visits))
        server.phase("done")
    finally:
        server.stop()
    runs = [json.loads(line) for line in (server.prof / "runs.jsonl").read_text().splitlines()]
    result = {"name": name, "links": {}}
    for link in links:
        path, query = split_link(link)
        mine = [r for r in runs if r["phase"] == "visits" and r["first"] and r["page"] == path and r["query"] == query]
        cold = [r for r in runs if r["phase"] == "first" and r["first"] and r["page"] == path and r["query"] == query]
        figures = per_link[link]
        result["links"][link] = {
            "visits": len(figures["wall"]),
            "process_cpu_ms": 1000 * statistics.median(figures["process_cpu"]),
            "run_cpu_ms": 1000 * statistics.median(r["cpu_s"] for r in mine) if mine else float("nan"),
            "run_wall_ms": 1000 * statistics.median(r["wall_s"] for r in mine) if mine else float("nan"),
            "client_wall_ms": 1000 * statistics.median(figures["wall"]),
            "statuses": sorted(set(figures["statuses"])),
            "profiles": [str(server.prof / f"{r['n']}.prof") for r in mine if (server.prof / f"{r['n']}.prof").exists()],
            "cold_run_cpu_ms": 1000 * cold[0]["cpu_s"] if cold else float("nan"),
            "cold_run_wall_ms": 1000 * cold[0]["wall_s"] if cold else float("nan"),
        }
    return result


def short(func: tuple[str, int, str], trees: list[Path]) -> str:
    filename, line, name = func
    for tree in trees:
        if filename.startswith(str(tree) + "/"):
            filename = filename[len(str(tree)) + 1:]
            break
    else:
        if "site-packages/" in filename:
            filename = filename.split("site-packages/", 1)[1]
        elif filename.startswith("<"):
            return f"{filename}:{name}"
        else:
            filename = filename.rsplit("/lib/python3", 1)[-1]
    return f"{filename}:{line}({name})"


def top(stats: pstats.Stats, key: str, n: int, visits: int, trees: list[Path]) -> list[str]:
    index = {"cumulative": 3, "tottime": 2}[key]
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][index], reverse=True)
    out = []
    for func, (_cc, nc, tt, ct, _callers) in rows[:n]:
        value = ct if key == "cumulative" else tt
        out.append(f"{1000 * value / visits:8.1f} ms {nc / visits:9.0f}x  {short(func, trees)}")
    return out


def report(results: list[dict], top_n: int, trees: list[Path]) -> None:
    links = list(results[0]["links"])
    print("\nper fresh visit (median): server process CPU (every thread) | first run's script thread CPU, wall | "
          "client's wall to script_finished")
    for link in links:
        print(f"  /{link}")
        for res in results:
            f = res["links"][link]
            print(f"    {res['name']:>10}: process {f['process_cpu_ms']:6.0f} ms | run CPU {f['run_cpu_ms']:6.0f} ms,"
                  f" wall {f['run_wall_ms']:6.0f} ms | client {f['client_wall_ms']:6.0f} ms   ({f['visits']} visits;"
                  f" {', '.join(f['statuses'])})")
            print(f"    {'':>10}  its first visit after the warm-up: run CPU {f['cold_run_cpu_ms']:6.0f} ms, wall "
                  f"{f['cold_run_wall_ms']:6.0f} ms (unprofiled)")
        if len(results) == 2:
            a, b = (res["links"][link] for res in results)
            print(f"    {'ratio':>10}: process {a['process_cpu_ms'] / b['process_cpu_ms']:.2f}x, run CPU "
                  f"{a['run_cpu_ms'] / b['run_cpu_ms']:.2f}x ({results[0]['name']} / {results[1]['name']})")
    for link in links:
        for res in results:
            f = res["links"][link]
            if not f["profiles"]:
                continue
            stats = pstats.Stats(*f["profiles"])
            visits = len(f["profiles"])
            print(f"\n-- {res['name']}: /{link}, {visits} first runs, per run (profiled: cProfile inflates small calls)")
            print("   cumulative:")
            for line in top(stats, "cumulative", top_n, visits, trees):
                print("     " + line)
            print("   own time:")
            for line in top(stats, "tottime", max(10, top_n // 2), visits, trees):
                print("     " + line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vs", help="also profile this commit (its code from git archive), side by side")
    parser.add_argument("--link", action="append",
                        help="a page and query to open, e.g. 'Train_step_by_step?preset=chai' (the default), "
                        "'' for Home; repeat for more")
    parser.add_argument("--visits", type=int, default=10, help="fresh sessions per link (default %(default)s)")
    parser.add_argument("--top", type=int, default=30, help="functions to list (default %(default)s)")
    parser.add_argument("--timer", choices=("cpu", "wall", "none"), default="cpu",
                        help="what the profile counts: the thread's CPU time (default) or wall time; none: no "
                        "profile, only each first run's CPU and wall time (without cProfile's overhead)")
    parser.add_argument("--keep", help="keep the profiles in this folder (default: a temporary one, removed)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args()
    links = args.link if args.link is not None else ["Train_step_by_step?preset=chai"]
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="profile-first-run-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        trees = [("this tree", ROOT)]
        if args.vs:
            trees.append((args.vs, checkout(args.vs, work / f"tree-{args.vs}")))
        results = [measure(name.replace(" ", "-"), tree, links, args.visits, args.timer, work)
                   for name, tree in trees]
        report(results, args.top, [tree for _, tree in trees])
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
