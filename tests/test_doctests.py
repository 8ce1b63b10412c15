"""The worked examples in the engine's docstrings run as tests (they are documentation that must stay true)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tokenizer

MODULES = sorted(
    f"tokenizer.{info.name}" for info in pkgutil.iter_modules(tokenizer.__path__) if not info.name.startswith("_")
) + ["tokenizer", "ui.tables", "ui.display", "ui.state"]  # and the UI kit's pure helpers that carry examples
MODULES += ["family.models", "analyses.records", "analyses.estimate", "analyses.tally"]  # the estimate (issues 18, 25)
MODULES += ["family.real", "family.merges", "analyses.vocab"]  # the production tokenizers, inside them (issue 26)
MODULES += ["lessons.own"]  # a teacher's own questions (issue 23)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_the_engine_has_docstring_examples() -> None:
    """At least the core modules carry worked examples (so the test above tests something)."""
    finder = doctest.DocTestFinder()
    with_examples = {
        name for name in MODULES if any(t.examples for t in finder.find(importlib.import_module(name)))
    }
    assert {"tokenizer", "tokenizer.reference", "tokenizer.train", "tokenizer.vocab", "tokenizer.interface"} <= with_examples
