"""How long does each page take to rerun on the server? (a benchmark, not a test)

Every Streamlit interaction reruns the page script. This script opens each
registered page in Streamlit's AppTest with a few deep links (presets,
texts), then reruns it, clicks its "Next" button (or just reruns it, on pages or parts without one), and
prints the median and worst time per interaction. The bar
is 200 ms per interaction on the presets. The first run of a page pays for
imports and for training (cached afterwards), so it is shown apart.

Then the class bar's poll (AppTest runs no fragment timer, so this part uses a real server: one Streamlit
process on a SQLite file in a temporary folder, a teacher and a learner as protocol clients,
deploy/stclient.py, and 29 more learners joined through the store): the cost of one tick of the bar's
``run_every`` fragment on the learner's and on the teacher's screen, with nothing changed (one read of the
class's version) and after a new vote (the poll, the tally and the learner's own vote read again). Time is
the tick's wall time as the client sees it; CPU is the server process's, over all the ticks.

    .venv/bin/python bench/bench_pages.py [--reruns 15] 2>/dev/null   (AppTest warns on stderr)
    .venv/bin/python bench/bench_pages.py --page Class --polls 40 2>/dev/null   (only the class bar)
    .venv/bin/python bench/bench_pages.py --lang hi --polls 0 2>/dev/null   (every deep link in Hindi)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import logging

from tests.apptest_helpers import exception_messages, run_page
from ui.layout import PAGES
from views import encode as encode_view
from views import real as real_view
from views import tokenize as tokenize_view
from views import train as train_view

for _name in list(logging.root.manager.loggerDict):  # AppTest's bare-mode warnings are noise here
    if _name.startswith("streamlit"):
        logging.getLogger(_name).setLevel(logging.ERROR)

# The keys clicked and dragged below, as the pages declare them (imported here, after the logging is quieted, so
# their caches' bare-mode warnings stay quiet; a page's first run no longer includes importing these three views).
from views import english_hindi as ev
from views import family as fv
from views import streaming as sv

# Deep links worth timing, per page file (query parameters). The empty dict is the page as opened.
SCENARIOS: dict[str, list[dict[str, str]]] = {
    "pages/1_Train_step_by_step.py": [
        {"preset": "chai", "step": "3"},
        {"preset": "chai", "step": "3", "large": "1"},
        {"preset": "readers", "step": "12"},
        {"preset": "english-hindi", "step": "50"},
        {"preset": "chai", "step": "1", "predict": "1"},
    ],
    "pages/2_Tokenize_anything.py": [
        {"toks": "english-hindi", "text": "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"},
        {"toks": "cl100k_base,o200k_base,mistral-tekken,english-hindi",
         "text": "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"},
        {"toks": "readers", "text": "the reader reads"},
        {"predict": "1", "toks": "o200k_base,cl100k_base"},
        {"lang": "hi"},  # in Hindi (issue 28): the page as opened, and four tokenizers on the Hindi sentence
        {"lang": "hi", "toks": "cl100k_base,o200k_base,mistral-tekken,english-hindi",
         "text": "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"},
    ],
    "pages/3_Encode_step_by_step.py": [
        {"tok": "readers", "text": "readership"},
        {"tok": "english-hindi", "text": "Thick fog closed schools and roads in the city."},
        {"tok": "o200k_base", "text": "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"},  # a production tokenizer's merges
        {"tok": "cl100k_base", "text": "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।", "large": "1"},
        {"tok": "o200k_base", "text": "घने कोहरे", "step": "1", "predict": "1"},
    ],
    "pages/4_Bytes_per_character.py": [
        {"text": "इंदौर साफ़ है"},
        {"sample": "hindi", "tok": "cl100k_base"},
    ],
    "pages/5_Real_tokenizers.py": [
        {"toks": "cl100k_base,o200k_base"},
    ],
    "pages/15_Vocabulary_by_script.py": [
        {"vs": "cl100k_base", "script": "Devanagari"},
        {"tok": "llama3", "vs": "qwen3", "script": "CJK", "find": "中"},
        {"script": "Latin", "large": "1"},
    ],
    "pages/6_English_vs_Hindi.py": [
        {"k": "1"},
        {"k": "10", "budget": "200", "step": "40"},
        {"k": "10", "large": "1"},
    ],
    "pages/7_Beyond_Hindi.py": [
        {"group": "india", "per": "grapheme"},
        {"toks": "o200k_base,cl100k_base,llama3,english-hindi-fair", "chart": "llama3"},
        {"large": "1", "sample": "line"},
    ],
    "pages/8_Cost_and_context.py": [
        {"predict": "0"},
        {"predict": "0", "prompt": "7700", "large": "1"},
        {"predict": "0", "source": "parallel", "tok": "cl100k_base"},
        {"predict": "0", "source": "own", "tok": "o200k_base"},
    ],
    "pages/9_Streaming.py": [
        {"step": "30"},
        {"step": "30", "large": "1"},
        {"tok": "cl100k_base", "step": "10"},
        {"step": "5", "predict": "1"},
    ],
    "pages/10_Quirks.py": [
        {"quirk": "Capitals"},
        {"quirk": "Joining"},
        {"quirk": "Joining", "predict": "0"},
        {"quirk": "Formatting"},
        {"quirk": "Numbers"},
        {"quirk": "Numbers", "number": "9" * 500},
        {"quirk": "Letters"},
        {"quirk": "Pre-split"},
        {"quirk": "Pre-split", "large": "1", "toks": "cl100k_base,o200k_base,llama3,mistral-tekken"},
    ],
    "pages/12_Lessons.py": [  # a lesson's text with the engine's figures, its exercises, classroom mode's slides
        {"lesson": "bpe-training"},
        {"lesson": "cost-context-speed"},
        {"lesson": "quirks", "classroom": "1", "large": "1"},
    ],
    "pages/13_Class.py": [  # a learner link whose class does not exist (the class bar's ticks: --polls)
        {"code": "ABCDEF"},
    ],
    "pages/11_The_family.py": [
        {"preset": "chai", "step": "1"},
        {"preset": "chai", "step": "1", "large": "1"},
        {"preset": "english-hindi", "step": "1"},
        {"part": "unigram"},
        {"part": "unigram", "preset": "english-hindi-fair"},
        {"part": "pipeline"},
        {"part": "special"},
    ],
}


# A click worth timing, per page file: the button key; each rerun clicks it once.
CLICKS: dict[str, str] = {
    "pages/1_Train_step_by_step.py": train_view.NEXT.skey,
    "pages/3_Encode_step_by_step.py": encode_view.NEXT.skey,
    "pages/9_Streaming.py": sv.STEPPER.key("next").skey,
    "pages/11_The_family.py": fv.STEPPER.key("next").skey,
}

# Sliders worth dragging, per page file: (deep link, slider key). Each rerun moves the slider one
# step on (wrapping at its end), as a learner dragging it does.
SLIDES: dict[str, list[tuple[dict[str, str], str]]] = {
    "pages/6_English_vs_Hindi.py": [
        ({"k": "1"}, ev.COPIES.skey),  # every share: the sweep is read, one tokenizer per new share is trained
        ({"k": "1"}, ev.BUDGET.skey),
        ({"k": "10"}, ev.STEP.skey),  # the compression curve's cursor (a fragment in the browser)
    ],
}
PAST_THE_QUESTIONS: dict[str, dict] = {"pages/6_English_vs_Hindi.py": {ev.REVEALED.skey: True}}
"""Session state of a learner past a page's own predict-first questions, which come first whatever the link sets:
the sliders are drawn only then."""


# Deep links with a box opened (session state set before the first run), per page file: a production token's
# merge tree (issue 26), drawn on every rerun.
OPENED: dict[str, list[tuple[dict[str, str], dict]]] = {
    "pages/2_Tokenize_anything.py": [
        ({"toks": "o200k_base,cl100k_base", "text": "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"},
         {tokenize_view.TREE_OPEN.skey: True}),
    ],
    "pages/5_Real_tokenizers.py": [({"toks": "cl100k_base,o200k_base"}, {real_view.TREE_OPEN.skey: True})],
    "pages/3_Encode_step_by_step.py": [
        ({"tok": "o200k_base", "text": "घने कोहरे से शहर", "step": "3"}, {encode_view.TREE_OPEN.skey: True}),
    ],
}


def time_page(path: str, params: dict[str, str], reruns: int, slide: str | None = None,
              state: dict | None = None) -> tuple[float, list[float], int]:
    """The first run (through app.py, as a deep link does), then ``reruns`` interactions: a click, a
    slider moved one step (``slide``), or a plain rerun."""
    start = time.perf_counter()
    at = run_page(path, query_params=params, allow_exceptions=True, timeout=120, session_state=state or None)
    first = time.perf_counter() - start
    click = CLICKS.get(path)
    times = []
    for _ in range(reruns):
        start = time.perf_counter()
        if slide:
            slider = at.slider(key=slide)
            slider.set_value(int(slider.value) + 1 if slider.value < slider.max else int(slider.min)).run()
        elif click and any(b.key == click for b in at.button) and not at.button(key=click).disabled:
            at.button(key=click).click().run()
        else:
            at.run()
        times.append(time.perf_counter() - start)
    return first, times, len(exception_messages(at))


async def _class_bar_ticks(url: str, db_url: str, polls: int, server_pids,
                           lang: str = "") -> list[tuple[str, list[float], float]]:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    from bench.bench_load import cpu_seconds
    from deploy.stclient import Session, query
    from lessons.classroom import Classes, open_database
    from ui.poll import answer_key, send_key
    from views import classroom as cv

    with open_database(db_url) as db:
        classes = Classes(db, joins_per_minute=1000)
        started = classes.start("Class bar bench")
        code, secret = started.code, started.teacher_secret
        teacher, learner = Session(url), Session(url)
        await teacher.open("Class", query(code=code, teacher=secret))
        await teacher.load()
        await teacher.rerun(widgets=list(teacher.widgets.values()))  # the bar appears on the run after the link
        await learner.open("Class", query(code=code, **({"lang": lang} if lang else {})))
        await learner.load()
        await learner.type_text(cv.NAME.skey, "Asha")
        await learner.click(cv.JOIN.skey)
        others = [classes.join(code, f"L{i}", client="bench").learner_id for i in range(29)]
        if lang:  # one of the lab's own questions, which the learner's screen rebuilds in its language every tick
            from lessons.questions import direction_questions
            from ui.classroom import payload

            question = direction_questions()[0]
            posed = payload(question, "")
        else:
            posed = {"id": "bench.q", "prompt": "Which word?", "kind": "choice",
                     "choices": ["apple", "mango", "tiger", "river"]}
        poll = classes.pose(code, secret, posed)
        mine, theirs = (posed["choices"][1], posed["choices"][::2][:2])
        await learner.tick()
        await teacher.tick()
        wid = learner.widget_id(answer_key(poll).skey)
        learner.widgets[wid] = WidgetState(id=wid, string_value=mine)
        await learner.click(send_key(poll).skey)  # the learner has voted: their bar shows their answer
        out = []
        for label, session, change in [("learner, nothing changed", learner, False),
                                       ("teacher, nothing changed", teacher, False),
                                       ("learner, after a new vote", learner, True),
                                       ("teacher, after a new vote", teacher, True)]:
            await session.tick()
            times, cpu0 = [], sum(cpu_seconds(server_pids()).values())
            for i in range(polls):
                if change:
                    classes.vote(code, others[i % len(others)], poll.poll_id, 1, theirs[i % len(theirs)],
                                 vote_id=f"bench-{label[:7]}-{i}")
                run = await session.tick()
                times.append(run.duration)
            cpu = (sum(cpu_seconds(server_pids()).values()) - cpu0) / polls
            out.append((label, times, cpu))
        await teacher.close()
        await learner.close()
    return out


def class_bar_poll(polls: int, lang: str = "") -> None:
    """The class bar's poll on a real server (see the module's text)."""
    import asyncio
    import os
    import subprocess
    import tempfile

    from bench.bench_load import _wait_healthy
    from deploy.serve import free_port, process_tree, streamlit_cmd

    with tempfile.TemporaryDirectory(prefix="bench-bar-") as tmp:
        db_url, port = f"sqlite:///{Path(tmp) / 'classes.sqlite3'}", free_port()
        env = {**os.environ, "LAB_DATABASE_URL": db_url}
        with open(Path(tmp) / "server.log", "w") as log:
            server = subprocess.Popen(streamlit_cmd(port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(url, server)
            rows = asyncio.run(_class_bar_ticks(url, db_url, polls, lambda: process_tree(server.pid), lang))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"\nclass bar: one poll (a tick of its run_every fragment), {polls} each, one Streamlit process, SQLite"
          + (f"; the learner in {lang}, the poll one of the lab's questions" if lang else ""))
    for label, times, cpu in rows:
        print(f"  {label:28} median {statistics.median(times) * 1000:6.1f} ms  worst {max(times) * 1000:6.1f} ms  "
              f"server CPU {cpu * 1000:5.1f} ms a poll")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=15)
    parser.add_argument("--page", default="", help="only the pages whose file name contains this")
    parser.add_argument("--polls", type=int, default=40, help="class-bar polls timed per case (0: skip them)")
    parser.add_argument("--lang", default="", help="every deep link in this language too (hi: ?lang=hi added)")
    args = parser.parse_args()
    print(f"{'page':34} {'deep link':48} {'first':>8} {'median':>8} {'worst':>8}  verdict")
    worst_all = 0.0
    for entry in PAGES:
        if args.page not in entry.path:
            continue
        runs = [(params, None, None) for params in [{}] + SCENARIOS.get(entry.path, [])]
        runs += [(params, slide, PAST_THE_QUESTIONS.get(entry.path)) for params, slide in SLIDES.get(entry.path, [])]
        runs += [(params, None, state) for params, state in OPENED.get(entry.path, [])]
        if args.lang:  # the same deep links in the asked language (issue 28: translation costs no rerun time)
            runs = [({**params, "lang": args.lang}, slide, state) for params, slide, state in runs]
        for params, slide, state in runs:
            first, times, errors = time_page(entry.path, params, args.reruns, slide, state)
            median, worst = statistics.median(times), max(times)
            worst_all = max(worst_all, median)
            link = "&".join(f"{k}={v}" for k, v in params.items()) + (f" drag {slide}" if slide else "")
            link += " +tree" if state and not slide else ""
            link = link[:48] or "(as opened)"
            verdict = "ok" if median < 0.2 else "SLOW"
            if errors:
                verdict += f", {errors} exception(s)!"
            print(f"{entry.title:34} {link:48} {first * 1000:7.0f}ms {median * 1000:7.0f}ms {worst * 1000:7.0f}ms  {verdict}")
    print(f"\nslowest median rerun: {worst_all * 1000:.0f} ms (bar: 200 ms)")
    if args.polls and args.page.lower() in "class":
        class_bar_poll(args.polls, args.lang)


if __name__ == "__main__":
    main()
