"""The server-wide cache of built session models (ui/choices.py ``_BuiltModels``): one build per distinct model
text, a weight budget in bytes, least recently used out first, safe under concurrent learners."""

from __future__ import annotations

import threading

from tokenizer import train
from tokenizer.io import tokenizer_to_json
from ui.choices import _BuiltModels


def _model_text(corpus: str, merges: int = 3) -> str:
    return tokenizer_to_json(train(corpus, merges, unit="chars", split="whitespace").tokenizer)


A, B, C = (_model_text(c) for c in ("chai chai chaiwala", "poha poha pohawala", "dosa dosa dosawala"))


def _weight(cache: _BuiltModels, text: str) -> int:
    return cache._items[text][1]


def test_a_model_is_built_once_and_encodes_as_its_file_says() -> None:
    cache = _BuiltModels(budget=10_000_000)
    first = cache.get(A)
    assert cache.get(A) is first  # the second learner gets the built one
    expected = train("chai chai chaiwala", 3, unit="chars", split="whitespace").tokenizer
    assert first.encode("chaiwala chai") == expected.encode("chaiwala chai")
    assert cache.weight == _weight(cache, A) > 2 * len(A)  # the model's figures plus its text, counted twice


def test_the_least_recently_used_go_first_when_the_budget_is_passed() -> None:
    probe = _BuiltModels(budget=10_000_000)
    for text in (A, B, C):
        probe.get(text)
    room = _weight(probe, A) + _weight(probe, B) + _weight(probe, C) - 1  # all three do not fit
    cache = _BuiltModels(budget=room)
    cache.get(A)
    cache.get(B)
    cache.get(A)  # A is used again: B is now the oldest
    cache.get(C)
    assert list(cache._items) == [A, C]
    assert cache.weight == _weight(cache, A) + _weight(cache, C) <= room


def test_one_model_over_the_budget_is_kept_alone_and_replacing_counts_once() -> None:
    cache = _BuiltModels(budget=1)
    cache.get(A)
    cache.get(B)
    assert list(cache._items) == [B]  # the one in use stays; everything else goes
    tok = cache.get(B)
    cache.put(B, tok, weight=123)
    assert cache.weight == 123 + 2 * len(B)
    cache.clear()
    assert cache.weight == 0 and not cache._items


def test_concurrent_learners_leave_the_books_balanced() -> None:
    cache = _BuiltModels(budget=10_000_000)
    texts = [A, B, C] * 20
    threads = [threading.Thread(target=cache.get, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(cache._items) == {A, B, C}
    assert cache.weight == sum(w for _, w in cache._items.values())
