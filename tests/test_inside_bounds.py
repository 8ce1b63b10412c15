"""Inside views under limits (issue 26): a hostile link to Encode step by step or Vocabulary by script costs no more
than the same text costs Tokenize anything, measured in a child process with hard CPU and memory limits
(tests/bounded.py); a long text to ``encode --steps`` and ``tree`` is refused at once."""

from __future__ import annotations

import json

import pytest

from family.merges import MAX_REPLAY_CHARS
from tests.bounded import CPU_LIMIT_S, MEMORY_LIMIT, run_bounded

PAGE_RUN = """
import json, sys, time
from tests.apptest_helpers import run_page, exception_messages
page, name, text = sys.argv[1], sys.argv[2], sys.stdin.read()
start = time.process_time()
at = run_page(page, query_params={name: text, "tok": "o200k_base", "toks": "o200k_base"}, allow_exceptions=True,
              timeout=120)
print(json.dumps({"cpu_s": time.process_time() - start, "errors": exception_messages(at)}))
"""

HOSTILE = "क" * 1_000_000  # a 3 MB link: one run of a Devanagari letter, no space (one pre-split piece)


def cost(page: str, name: str) -> tuple[dict, object]:
    done = run_bounded(["-c", PAGE_RUN, page, name], stdin=HOSTILE, cpu_limit_s=CPU_LIMIT_S, memory_limit=MEMORY_LIMIT)
    assert done.code == 0, done.err[-2000:]
    report = json.loads(done.out.strip().splitlines()[-1])
    assert report["errors"] == []
    return report, done


@pytest.fixture(scope="module")
def tokenize_cost() -> tuple[dict, object]:
    """The reference: Tokenize anything given the same link, measured once in this run for both pages."""
    return cost("pages/2_Tokenize_anything.py", "text")


@pytest.mark.parametrize("page, name", [("pages/3_Encode_step_by_step.py", "text"),
                                        ("pages/15_Vocabulary_by_script.py", "find")])
def test_a_megabyte_link_costs_no_more_than_it_costs_tokenize(tokenize_cost, page, name):
    tokenize, tokenize_run = tokenize_cost
    inside, inside_run = cost(page, name)
    inside_run.assert_bounded(cpu_s=CPU_LIMIT_S, peak_mb=1500)
    # The same text read, cut to the page's limit and dropped: within 1.5 times Tokenize's cost (and a margin for
    # the page's own first load: the vocabulary page reads o200k and cl100k).
    assert inside["cpu_s"] <= 1.5 * tokenize["cpu_s"] + 3, (inside, tokenize)
    assert inside_run.peak_mb <= 1.5 * tokenize_run.peak_mb + 150, (inside_run.peak_mb, tokenize_run.peak_mb)


def test_encode_steps_and_tree_refuse_a_long_text_at_once():
    for args in (["encode", "-t", "o200k_base", "--steps", "-"], ["tree", "-t", "o200k_base", "-"]):
        done = run_bounded(["-m", "tokenizer", *args], stdin="क" * (MAX_REPLAY_CHARS + 1),
                           cpu_limit_s=CPU_LIMIT_S, memory_limit=MEMORY_LIMIT)
        assert done.code == 2 and "characters" in done.err and "Traceback" not in done.err, done.err
        done.assert_bounded(cpu_s=10, peak_mb=600)


def test_a_replay_at_its_limit_on_one_long_piece_is_bounded():
    code = ("import sys\nfrom family import real, merges\ntok = real.load('o200k_base')\n"
            "r = merges.inside(tok).replay(sys.stdin.read())\nassert r.ids == tok.encode('क' * 20000)\n"
            "print(len(r.steps))")
    done = run_bounded(["-c", code], stdin="क" * MAX_REPLAY_CHARS, cpu_limit_s=CPU_LIMIT_S, memory_limit=MEMORY_LIMIT)
    assert done.code == 0, done.err[-2000:]
    done.assert_bounded(cpu_s=20, peak_mb=800)
