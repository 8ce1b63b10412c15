"""The class bar's fragment keeps one place on the page, so a browser runs one timer for it.

A teacher's first run writes the teacher cookie (``ui.classroom.write_cookies``); when that script took a place of
its own on that run only, the bar's fragment had another place, so another id, on the next run, and the browser
kept a second, stale 3 s timer whose ticks the server never answers. The protocol client (deploy/stclient.py) counts
the timers the page asks the browser for, as the frontend keeps them (a ``stop_auto_rerun`` ends one).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from deploy.stclient import Session, query
from lessons.classroom import Classes, open_database
from tests.browser.browser_helpers import running_server


async def _timers(base_url: str, link: dict[str, str]) -> dict[str, float]:
    page = Session(base_url)
    try:
        await page.open("Class", query(**link))
        await page.load()
        await page.rerun(widgets=list(page.widgets.values()))  # the run after the link: the bar is drawn
        await page.rerun(widgets=list(page.widgets.values()))
        return dict(page.auto_reruns)
    finally:
        await page.close()


def test_a_teachers_page_runs_one_timer_for_the_class_bar(tmp_path) -> None:
    db_url = f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    with running_server(tmp_path / "server.log", {"LAB_DATABASE_URL": db_url}) as server, \
            open_database(db_url) as db:
        started = Classes(db).start("One timer")
        link = {"code": started.code, "teacher": started.teacher_secret}
        with ThreadPoolExecutor(1) as pool:  # a thread of its own: Playwright's sync API may hold this one's loop
            teacher = pool.submit(asyncio.run, _timers(server.base_url, link)).result()
        assert len(teacher) == 1, teacher
