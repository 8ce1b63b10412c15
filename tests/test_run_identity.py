"""The one identity a training run is cached by (ui.training.Run): named by what determines it, so a cache that
takes a run hits for equal inputs (whichever object holds them) and misses for different ones. Train's steps and
The family's two rules both key their caches so."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from streamlit.runtime.caching.cache_type import CacheType
from streamlit.runtime.caching.hashing import update_hash

from ui.training import BY_RUN, Run, trace_of
from views import family as fv
from views import train as tv

CORPUS = "chai chai chaiwala chai poha"


def _hash(value: object) -> str:
    """What Streamlit's caches key an argument by, with the views' hash_funcs."""
    h = hashlib.new("md5")
    update_hash(value, h, CacheType.DATA, hash_funcs=BY_RUN)
    return h.hexdigest()


def test_equal_inputs_are_one_run_and_any_difference_is_another() -> None:
    a, b = Run.of(CORPUS, 5, {"unit": "chars", "ties": "first"}), Run.of(CORPUS, 5, {"ties": "first", "unit": "chars"})
    assert a is not b and a.name == b.name and _hash(a) == _hash(b)  # settings in any order
    others = [Run.of(CORPUS + " ", 5, {"unit": "chars", "ties": "first"}), Run.of(CORPUS, 6, {"unit": "chars", "ties": "first"}),
              Run.of(CORPUS, 5, {"unit": "bytes", "ties": "first"}), Run.of(CORPUS, 5, {"unit": "chars", "ties": "hf"})]
    names = {a.name, *(o.name for o in others)}
    assert len(names) == 5
    assert len({_hash(a), *(_hash(o) for o in others)}) == 5


def test_a_run_is_hashed_by_its_name_not_its_corpus() -> None:
    """A 2 MB corpus is read once per run object (its name), not by each cached call of a rerun."""
    run = Run.of("घना कोहरा " * 1000, 3, {})
    assert _hash(run) == _hash(Run.of("घना कोहरा " * 1000, 3, {})) != _hash(Run.of("घना कोहरा " * 999, 3, {}))
    assert "name" in vars(run)  # computed once and kept on the object


def test_trains_cache_hits_for_the_same_inputs_and_misses_for_others() -> None:
    """Train: a cache_resource on a run returns the very object it made for an equal run (a hit, even from another
    Run object, as another learner's rerun makes), and another object for other inputs (a miss)."""
    words = {"unit": "chars", "split": "whitespace"}
    first = tv.chips._top_words(Run.of(CORPUS, 3, words), 5)
    assert tv.chips._top_words(Run.of(CORPUS, 3, words), 5) is first
    other = tv.chips._top_words(Run.of("upma upma poha", 3, words), 5)
    assert other is not first and other == Counter("upma upma poha".split()).most_common()
    assert trace_of(Run.of(CORPUS, 3, {"unit": "chars"})) is trace_of(Run.of(CORPUS, 3, {"unit": "chars"}))


@pytest.mark.parametrize("rule", ["count", "score"])
def test_the_familys_cache_hits_for_the_same_inputs_and_misses_for_others(rule: str) -> None:
    """The family: both rules' traces are trained once per run; the same corpus with another preset's settings,
    or another corpus, is another run."""
    run = fv.rules_run(CORPUS, 3, "own")
    assert fv.rule_traces(fv.rules_run(CORPUS, 3, "own")) is fv.rule_traces(run)
    assert fv.rule_traces(fv.rules_run(CORPUS, 4, "own")) is not fv.rule_traces(run)
    assert fv.rule_traces(fv.rules_run("upma upma poha", 3, "own")) is not fv.rule_traces(run)
    assert fv.why(run, rule, 1) == fv.why(fv.rules_run(CORPUS, 3, "own"), rule, 1)
    assert fv.why(fv.rules_run("upma upma poha upma", 3, "own"), rule, 1) != fv.why(run, rule, 1)
