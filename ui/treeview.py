"""Merge provenance, drawn: a lab token's merge tree down to its base symbols.

The tree comes from :func:`tokenizer.provenance.merge_tree`; each node is a
chip (the one chip drawing of :mod:`ui.chips`) with the merge step that made
it and how often its pair was seen then. Leaves are the characters or bytes
the model started from.
"""

from __future__ import annotations

import html

from tokenizer import Tokenizer
from tokenizer.provenance import MergeNode, merge_tree
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html
from ui.display import plural

CSS = """
<style>
.tl-tree ul{list-style:none;margin:0;padding-left:1.4em;border-left:2px solid #888}
.tl-tree>ul{border-left:none;padding-left:0}
.tl-tree li{margin:.15em 0;position:relative}
.tl-tree li>ul{margin-left:.6em}
.tl-tree .tl-node{display:flex;align-items:center;gap:.5em;flex-wrap:wrap}
.tl-tree .tl-node .tl-chips{margin:0}
.tl-tree .tl-how{font-size:.9em}
</style>
"""

MAX_NODES = 200  # a very long token's tree is cut here (its first levels are what teach)


def tree_html(tokenizer: Tokenizer, token_id: int, counts: dict[int, int] | None = None) -> str:
    """The merge tree of one token as nested lists (escaped; chips for every token)."""
    root = merge_tree(tokenizer, token_id, counts)
    drawn = [0]

    def node_html(node: MergeNode) -> str:
        drawn[0] += 1
        chip = Chip(node.label, node.id, whole=tokenizer.is_whole(node.id), highlight=node is root)
        if node.step is None:
            how = "a base symbol: where every token starts"
        else:
            how = f"made by merge {node.step}" + (f", when its pair was seen {plural(node.count, 'time')}"
                                                  if node.count else "")
        out = [f'<li><div class="tl-node">{chips_html([chip], show_ids=True, label="token", runs=False)}'
               f'<span class="tl-how">{html.escape(how)}</span></div>']
        children = [c for c in (node.left, node.right) if c is not None]
        if children and drawn[0] < MAX_NODES:
            out.append("<ul>" + "".join(node_html(c) for c in children) + "</ul>")
        elif children:
            out.append('<ul><li>…</li></ul>')
        out.append("</li>")
        return "".join(out)

    body = node_html(root)
    return CHIPS_CSS + CSS + f'<div class="tl-tree" role="tree"><ul>{body}</ul></div>'


__all__ = ["tree_html"]
