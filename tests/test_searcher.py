"""The search worker (tokenizer/searcher.py): a user's pattern is searched in a child process with capped memory.

What it must keep: the same pieces as a search in the calling process, for any text; the split's CPU budget; a
worker that dies or runs out of memory costs only that request; threads share at most MAX_WORKERS workers.
The memory bound itself, at two CPU speeds, is proven in tests/test_pattern_bounds.py.
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer import PatternMemory, PatternTimeout, UnsafePattern, pretokenize, searcher, split_text, train
from tokenizer.pretokenize import OWN_PATTERNS, split_texts

USER_PATTERNS = [
    r"\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+|\s+",
    r"\w+|\W",
    r"(?:ab|a)+|.",  # alternatives that backtrack
    r"(?<=a)b|\S+",  # a lookbehind: it must see the text before the piece, as in one search
    r"^\S+|\s+\S+$|\S+",  # anchors
    r"(?:x?)",  # matches nothing everywhere: no empty pieces
]


def in_process(text: str, pattern: str) -> list[str]:
    compiled = pretokenize.compile_pattern(pattern)
    with pretokenize.SplitBudget() as budget:
        return pretokenize._split_regex(text, compiled, pattern, budget)


def test_the_labs_own_patterns_are_searched_here_and_others_in_a_worker(monkeypatch) -> None:
    sent = []
    real = pretokenize.split_in_worker
    monkeypatch.setattr(pretokenize, "split_in_worker", lambda texts, pattern, budget: sent.append(pattern) or
                        real(texts, pattern, budget))
    for pattern in OWN_PATTERNS:
        split_text("chai pani", "regex", pattern)
    assert sent == []
    split_text("chai pani", "regex", USER_PATTERNS[0])
    assert sent == [USER_PATTERNS[0]]


@pytest.mark.parametrize("pattern", USER_PATTERNS)
@settings(max_examples=25, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab x\n!1") + ["च", "ा", "य", "\u094d", "🙂", "\ud800"]), max_size=40))
def test_the_workers_pieces_are_the_pieces_of_one_search_here(pattern: str, text: str) -> None:
    """Any text (Devanagari, emoji, a lone surrogate): the worker's pieces are what the search in this process
    finds, and they join back into the text."""
    pieces = split_text(text, "regex", pattern)
    assert pieces == in_process(text, pattern)
    assert "".join(pieces) == text and "" not in pieces


def test_many_texts_go_in_one_request_with_one_budget() -> None:
    texts = ["chai pani", "", "घने कोहरे से", "a" * 10_000]
    assert split_texts(texts, "regex", USER_PATTERNS[1]) == [in_process(t, USER_PATTERNS[1]) for t in texts]
    budget = pretokenize.SplitBudget()
    split_texts(texts, "regex", USER_PATTERNS[1], budget)
    assert budget.done == sum(map(len, texts))  # the characters split count towards the budget, as here
    assert 0 < budget.used < 1  # and so does the worker's CPU time


def test_the_budget_holds_in_the_worker(monkeypatch) -> None:
    """The caller's figures go with the request (a test or a caller may set them lower)."""
    monkeypatch.setattr(pretokenize, "PATTERN_TIMEOUT_S", 0.2)
    with pytest.raises(PatternTimeout, match="too slow on this text"):
        split_text("chai " + "a" * 40 + "b", "regex", r"(a|aa)+$")
    # a budget already spent by earlier texts is spent in the worker too
    spent = pretokenize.SplitBudget()
    spent.used = 5.0
    with pytest.raises(PatternTimeout):
        split_texts(["chai pani"], "regex", USER_PATTERNS[1], spent)


def test_a_search_out_of_memory_costs_only_its_request() -> None:
    long_piece = r"\s|b|(?:" + "(" * 16 + "a" + ")" * 16 + ")*"
    with pytest.raises(PatternMemory, match=f"than the {searcher.SEARCH_MEMORY_MB} MB the lab allows") as info:
        split_text("b " * 10 + "a" * 400_000, "regex", long_piece)
    assert isinstance(info.value, ValueError) and "Simplify it" in str(info.value)
    assert split_text("chai pani", "regex", USER_PATTERNS[0]) == ["chai", " ", "pani"]  # the next request works
    with pytest.raises(PatternMemory):  # and a model with that pattern says the same
        train("b " * 10 + "a" * 400_000, 3, pattern=long_piece)


def test_a_worker_that_died_is_replaced() -> None:
    split_text("chai", "regex", USER_PATTERNS[1])
    with searcher._lock:
        idle = list(searcher._idle)
    assert idle
    for worker in idle:
        worker.process.kill()
        worker.process.wait()
    assert split_text("chai pani", "regex", USER_PATTERNS[1]) == ["chai", " ", "pani"]


def test_threads_share_at_most_max_workers() -> None:
    """A server's sessions are threads: each search takes a worker, at most MAX_WORKERS at once, the rest wait."""
    results, started = {}, []
    real_worker = searcher._Worker

    class Counted(real_worker):
        def __init__(self) -> None:
            started.append(self)
            super().__init__()

    searcher.stop_all()
    searcher._Worker = Counted
    try:
        text = "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं। " * 2000

        def split(i: int) -> None:
            results[i] = split_text(text + str(i), "regex", USER_PATTERNS[0])

        threads = [threading.Thread(target=split, args=(i,)) for i in range(3 * searcher.MAX_WORKERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        searcher._Worker = real_worker
    assert sorted(results) == list(range(3 * searcher.MAX_WORKERS))
    assert all(results[i] == in_process(text + str(i), USER_PATTERNS[0]) for i in results)
    assert 1 <= len(started) <= 3 * searcher.MAX_WORKERS
    assert sum(w.alive() for w in started) <= searcher._KEPT_IDLE  # the others ended when their search was done
    assert searcher._busy == 0


def test_a_pattern_refused_when_read_never_reaches_a_worker(monkeypatch) -> None:
    monkeypatch.setattr(pretokenize, "split_in_worker", lambda *a: pytest.fail("sent to a worker"))
    with pytest.raises(UnsafePattern, match="calls a group"):
        split_text("chai", "regex", r"(?R)?a|\S")
