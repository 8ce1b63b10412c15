"""``python -m deploy.warm_up URL [URL ...]``: leave no page of each replica cold before the class arrives.

Each replica runs every page of the registry (``ui.layout.PAGES``) once as its sidebar link opens it, every
lesson on the Lessons page, the Train page on every preset (and one Next) and Tokenize with text typed, so the
first learner on any page does not pay for imports, training, tokenizers read from disk or lesson figures
computed: the first visit to a page costs what the second does (``bench/bench_load.py --warmth`` measures it).

scripts/serve runs this as a child process once the replicas are healthy, and again (``--wait``) for a replica it
started again after it exited (the supervisor never imports the pages' views itself: they bring Streamlit, pandas
and altair with them). It prints one line per problem
(nothing when all went well) and exits 0; run it from the lab's folder, as scripts/serve does. Replicas are
warmed at the same time, each one's pages two at a time (:data:`VISITS_AT_ONCE`).
"""

from __future__ import annotations

import asyncio
import sys
import time
import urllib.request

import lessons
from deploy.stclient import Session, query
from lessons.course import course
from ui.layout import PAGES
from ui.links import LESSON, LESSONS_PAGE
from views import tokenize as tkv
from views import train as tv

TIMEOUT_S = 180  # a cold page on a busy machine (the first Lessons page took 16.5 s)
VISITS_AT_ONCE = 2
"""Visits a replica gets at the same time. While one visit's run computes in the replica, the next one's tab is
opened and its messages read: one replica warmed in 12.0-12.5 s with two at a time, 15.4-16.8 s one after another
(this machine, 2 cores; three at a time: 12.9 s)."""


def links() -> list[tuple[str, str]]:
    """(page, query) of every visit the warm-up makes on each replica, in order: the heavy imports first (Train,
    Tokenize), then every other page, then every lesson."""
    out = [("Train_step_by_step", query(**{tv.PRESET.name: preset})) for preset in lessons.presets()]
    out += [(entry.url_path, "") for entry in PAGES if entry.url_path != "Train_step_by_step"]
    lessons_path = next(entry.url_path for entry in PAGES if entry.url_path.lower() == LESSONS_PAGE)
    out += [(lessons_path, query(**{LESSON.name: lesson.id})) for lesson in course().lessons]
    return out


async def _warm_all(urls: list[str]) -> list[str]:
    results = await asyncio.gather(*(_warm_one(url) for url in urls), return_exceptions=True)
    problems = []
    for url, result in zip(urls, results):
        if isinstance(result, BaseException):
            problems.append(f"{url}: {type(result).__name__}: {result}")
        else:
            problems.extend(f"{url}: {p}" for p in result)
    return problems


async def _visit(url: str, path: str, qs: str) -> list[str]:
    """One fresh tab opens ``/path?qs`` and runs it; Train clicks Next once, Tokenize has text typed."""
    session = Session(url, keep_frames=False)
    name = f"/{path}" + (f"?{qs}" if qs else "")
    try:
        await session.open(path, qs, timeout=TIMEOUT_S)
        run = await session.load(timeout=TIMEOUT_S)
        if path == "Train_step_by_step" and session.enabled(tv.NEXT.skey):
            run = await session.click(tv.NEXT.skey, timeout=TIMEOUT_S)
        elif path == "Tokenize_anything" and tkv.TEXT.skey in session.ids_by_key:
            run = await session.type_text(tkv.TEXT.skey, "नमस्ते, warm-up text", timeout=TIMEOUT_S)
        return [f"{name}: {e}" for e in run.exceptions]
    finally:
        await session.close()


async def _warm_one(url: str) -> list[str]:
    """Every visit of :func:`links` on one replica, :data:`VISITS_AT_ONCE` at a time, in the list's order; the
    problems in that order."""
    gate = asyncio.Semaphore(VISITS_AT_ONCE)

    async def visit(path: str, qs: str) -> list[str]:
        async with gate:
            try:
                return await _visit(url, path, qs)
            except Exception as exc:  # noqa: BLE001 - one page that fails to warm must not leave the rest cold
                return [f"/{path}: {type(exc).__name__}: {exc}"]

    return [problem for found in await asyncio.gather(*(visit(path, qs) for path, qs in links())) for problem in found]


def _wait_healthy(urls: list[str], timeout: float = TIMEOUT_S) -> None:
    """Until every replica answers its health check (a replica started again takes a few seconds)."""
    deadline = time.monotonic() + timeout
    for url in urls:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                return  # the visits will say what is wrong
            time.sleep(0.5)


def main(argv: list[str]) -> int:
    """``[--wait] URL ...``: ``--wait`` first waits for each replica to answer (scripts/serve warms a replica it
    started again this way, in the background)."""
    urls = [a for a in argv if a != "--wait"]
    if "--wait" in argv:
        _wait_healthy(urls)
    for problem in asyncio.run(_warm_all(urls)):
        print(problem, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
