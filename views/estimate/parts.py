"""What the Estimate page's parts hand each other: the input as read (:class:`Data`, from part 1) and the things to
count it with (:class:`Target`, from part 2). Plain values, below every part, so each part imports them at its top
and no part needs another's module to describe what it takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyses import estimate as est
from family import models as fm
from tokenizer import TextTokenizer


@dataclass
class Data:
    """The input as read: its identity (for the session's counts), the records, the broken ones, what it is."""

    ident: str
    records: list[est.Record]
    problems: list[est.Problem]  # the first MAX_LISTED_PROBLEMS
    characters: int
    file_name: str | None
    problem_count: int = -1  # all the broken ones (-1: as many as listed)
    more: bool = False  # more than MAX_RECORDS records: reading stopped there

    @property
    def broken(self) -> int:
        return len(self.problems) if self.problem_count < 0 else self.problem_count


@dataclass(frozen=True)
class Target:
    """One thing to count with: a product model (``model``) or one of the lab's own tokenizers (``model`` None)."""

    key: str  # the model's key, or the lab tokenizer's choice key
    label: str  # "GPT-4o"
    tokenizer_key: str
    tok: TextTokenizer
    model: fm.Model | None

    @property
    def lab(self) -> bool:
        return self.model is None

    @property
    def reasoning(self) -> bool:
        return self.model is not None and self.model.reasoning
