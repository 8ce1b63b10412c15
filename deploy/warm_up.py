"""``python -m deploy.warm_up URL [URL ...]``: run each replica's Train page (every preset) and Tokenize once.

scripts/serve runs this as a child process once the replicas are healthy, so the first learners do not pay
for imports, training and tokenizers. It prints one line per problem (nothing when all went well) and exits
0 (run from the lab's folder, as scripts/serve does); the supervisor never imports the pages' views itself (they bring Streamlit, pandas and altair with them).
"""

from __future__ import annotations

import asyncio
import sys

import lessons
from deploy.stclient import Session, query
from views import tokenize as tkv
from views import train as tv


async def _warm_all(urls: list[str]) -> list[str]:
    results = await asyncio.gather(*(_warm_one(url) for url in urls), return_exceptions=True)
    problems = []
    for url, result in zip(urls, results):
        if isinstance(result, BaseException):
            problems.append(f"{url}: {type(result).__name__}: {result}")
        else:
            problems.extend(f"{url}: {p}" for p in result)
    return problems


async def _warm_one(url: str) -> list[str]:
    problems = []
    for preset in lessons.presets():
        session = Session(url, keep_frames=False)
        try:
            await session.open("Train_step_by_step", query(preset=preset))
            run = await session.load(timeout=120)
            if session.enabled(tv.NEXT.skey):
                run = await session.click(tv.NEXT.skey, timeout=120)
            problems += [f"Train preset={preset}: {e}" for e in run.exceptions]
        finally:
            await session.close()
    session = Session(url, keep_frames=False)
    try:
        await session.open("Tokenize_anything")
        run = await session.load(timeout=120)
        run = await session.type_text(tkv.TEXT.skey, "नमस्ते, warm-up text", timeout=120)
        problems += [f"Tokenize: {e}" for e in run.exceptions]
    finally:
        await session.close()
    return problems


def main(argv: list[str]) -> int:
    for problem in asyncio.run(_warm_all(argv)):
        print(problem, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
