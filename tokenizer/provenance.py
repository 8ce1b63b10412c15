"""Where a token comes from: its merge tree, down to single characters or bytes.

Every token a BPE model made is the merge of two older tokens, learned at
one step of training, when that pair was the most frequent. Unfolding the
merges gives a tree whose leaves are the base symbols:

>>> from tokenizer import train
>>> trace = train("chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa", 7,
...               unit="chars", split="whitespace")
>>> tok = trace.tokenizer
>>> tree = merge_tree(tok, tok.encode("chai")[0], {s.token_id: s.count for s in trace.steps})
>>> print(render_text(tree))
chai  (merge 3, seen 5 times)
├─ cha  (merge 2, seen 7 times)
│  ├─ c
│  └─ ha  (merge 1, seen 11 times)
│     ├─ h
│     └─ a
└─ i
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .labels import plural
from .model import Tokenizer


@dataclass(frozen=True)
class MergeNode:
    """A token and how it was made: ``step`` and ``count`` are None for a base symbol (a leaf).

    A production tokenizer's tree (:mod:`family.merges`) has no learned step: ``rank`` is its merge's place in the
    merge order (``step`` holds it too); ``unreached`` marks a token BPE cannot make by merges (found whole).
    """

    id: int
    label: str
    step: int | None
    count: int | None
    left: MergeNode | None = None
    right: MergeNode | None = None
    rank: int | None = None
    unreached: bool = False

    @property
    def is_base(self) -> bool:
        return self.step is None

    def depth(self) -> int:
        """Merges on the longest path down to a base symbol (0 for a base symbol)."""
        if self.left is None or self.right is None:
            return 0
        return 1 + max(self.left.depth(), self.right.depth())

    def steps(self) -> list[int]:
        """Every merge step in the tree, in the order they were learned."""
        if self.left is None or self.right is None:
            return []
        return sorted({*self.left.steps(), *self.right.steps(), self.step or 0})


def merge_tree(tokenizer: Tokenizer, token_id: int, counts: Mapping[int, int] | None = None) -> MergeNode:
    """The tree of merges that made ``token_id``; ``counts`` (token id -> its pair count when learned,
    from the training trace) adds how often each pair was seen."""
    label = tokenizer.label(token_id)  # checks the id
    rank = token_id - tokenizer.first_merge_id
    if rank < 0:
        return MergeNode(token_id, label, None, None)
    a, b = tokenizer.merges[rank]
    count = counts.get(token_id) if counts is not None else None
    return MergeNode(token_id, label, rank + 1, count, merge_tree(tokenizer, a, counts), merge_tree(tokenizer, b, counts))


def made_by_merges(tokenizer: Tokenizer, ids: Iterable[int]) -> list[int]:
    """The distinct ids among ``ids`` that a merge made (not base symbols, not unseen characters), in order."""
    first = tokenizer.first_merge_id
    return list(dict.fromkeys(i for i in ids if i >= first))


def render_text(node: MergeNode) -> str:
    """The tree as indented text (for a terminal or a test)."""
    lines: list[str] = []

    def walk(n: MergeNode, prefix: str, tail: str) -> None:
        note = ""
        if n.step is not None:
            note = f"  (merge {n.step}" + (f", seen {plural(n.count, 'time')})" if n.count else ")")
        lines.append(f"{tail}{n.label}{note}")
        children = [c for c in (n.left, n.right) if c is not None]
        for i, child in enumerate(children):
            last = i == len(children) - 1
            walk(child, prefix + ("   " if last else "│  "), prefix + ("└─ " if last else "├─ "))

    walk(node, "", "")
    return "\n".join(lines)


__all__ = ["MergeNode", "made_by_merges", "merge_tree", "render_text"]
