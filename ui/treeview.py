"""Merge provenance, drawn: a token's merge tree down to its base symbols, for a lab model and a production one.

A lab token's tree comes from :func:`tokenizer.provenance.merge_tree` (the merge step that made each node and how
often its pair was seen then); a production token's from :mod:`family.merges` (each merge's rank, recovered from
the tokenizer's ranks). Each node is a chip (the one chip drawing of :mod:`ui.chips`). Leaves are the characters
or bytes the tokenizer starts from; a production token's leaves are drawn again in a row, with the letters their
bytes make written under them.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from family import merges
from i18n import N_, _, _n, number
from tokenizer import TextTokenizer, Token, Tokenizer, is_whole
from tokenizer.provenance import MergeNode, made_by_merges, merge_tree
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html
from ui.display import visible_token

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

MERGES_FROM_RANKS = N_(
    "A production tokenizer ships no list of merges, only a rank for every token: its merges are implied. A "
    "token's two parts are what BPE, merging the lowest rank first, makes of its bytes; the lab recovers them the "
    "first time you ask and keeps them."
)
"""English, marked for the catalogue: a page draws ``_(MERGES_FROM_RANKS)``."""

MAX_NODES = 200  # a very long token's tree is cut here (its first levels are what teach)


def _how(node: MergeNode, unit: str) -> str:
    """What a node says about how it was made (a lab model's merge step, or a production tokenizer's rank)."""
    if node.unreached:
        return _("found whole: BPE's merges never make it, so the tokenizer looks the whole piece up")
    if node.step is None:
        if unit == "bytes":
            return _("a byte: where every token starts")
        if unit == "chars":
            return _("a character (or a fallback byte): where every token starts")
        return _("a base symbol: where every token starts")
    if node.rank is not None:
        return _("rank {rank}: the merge of the two below (BPE merges lower ranks first)", rank=number(node.rank))
    if node.count:
        return _n("made by merge {step}, when its pair was seen {n} time",
                  "made by merge {step}, when its pair was seen {n} times", node.count, step=number(node.step))
    return _("made by merge {step}", step=number(node.step))


def production_tree(tokenizer: TextTokenizer, token_id: int) -> MergeNode:
    """A production tokenizer's token tree, its merges recovered from its ranks (:mod:`family.merges`)."""
    return merges.inside(tokenizer).tree(token_id)


def tree_html(tokenizer: TextTokenizer, token_id: int, counts: dict[int, int] | None = None) -> str:
    """The merge tree of one token as nested lists (escaped; chips for every token): a lab model's from its learned
    merges, a production tokenizer's from its ranks; then the leaves in a row, with the letters their bytes make."""
    lab = isinstance(tokenizer, Tokenizer)
    root = merge_tree(tokenizer, token_id, counts) if isinstance(tokenizer, Tokenizer) else production_tree(tokenizer, token_id)
    unit = "" if lab else tokenizer.unit
    drawn = [0]
    leaves: list[MergeNode] = []

    def whole(node_id: int) -> bool:
        return tokenizer.is_whole(node_id) if isinstance(tokenizer, Tokenizer) else is_whole(tokenizer.token_bytes(node_id))

    def node_html(node: MergeNode) -> str:
        drawn[0] += 1
        chip = Chip(node.label, node.id, whole=whole(node.id), highlight=node is root)
        if node.left is None:
            leaves.append(node)
        how = _how(node, unit)
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
    out = CHIPS_CSS + CSS + f'<div class="tl-tree" role="tree"><ul>{body}</ul></div>'
    if not lab and len(leaves) > 1 and drawn[0] < MAX_NODES:  # the leaves in order: the token's bytes
        row = [Chip(n.label, n.id, whole=whole(n.id), data=tokenizer.token_bytes(n.id)) for n in leaves]
        complete = whole(root.id)  # the letters the bytes make, written under them (none for part of a character)
        if unit == "bytes":
            said = (_n("Its {n} leaf, left to right: the token's bytes", "Its {n} leaves, left to right: the token's bytes",
                       len(row)) if complete else
                    _n("Its {n} leaf, left to right: the token's bytes, part of a character",
                       "Its {n} leaves, left to right: the token's bytes, part of a character", len(row)))
        else:
            said = (_n("Its {n} leaf, left to right: the token's characters",
                       "Its {n} leaves, left to right: the token's characters", len(row)) if complete else
                    _n("Its {n} leaf, left to right: the token's characters, part of a character",
                       "Its {n} leaves, left to right: the token's characters, part of a character", len(row)))
        out += f'<p class="tl-how">{html.escape(said, quote=False)}</p>' + chips_html(row, label=_("leaves"), runs=complete)
    return out


def tree_picker(entries: Sequence[tuple[str, TextTokenizer, Sequence[Token]]], *, tok_key: str, id_key: str,
                counts: Callable[[str], dict[int, int] | None] = lambda key: None) -> None:
    """Pick a tokenizer (when there are several) and one of its tokens, then draw the token's tree: the one
    picker Tokenize anything, Real tokenizers and Encode step by step share. ``entries``: (choice key, tokenizer,
    the tokens shown), tokenizers without trees left out; ``counts``: a lab model's pair counts by choice key."""
    import streamlit as st

    usable = [e for e in entries if has_trees(e[1])]
    if not usable:
        return
    key, tok, tokens = usable[0]
    if len({e[0] for e in usable}) > 1:
        names = {e[0]: e[1].name for e in usable}
        which = st.selectbox(_("Tokenizer"), list(names), format_func=names.__getitem__, key=tok_key)
        key, tok, tokens = next(e for e in usable if e[0] == which)
    merged = merged_ids(tok, [t.id for t in tokens if t.known])
    if not merged:
        st.caption(_("No token here was made by a merge: every one is a single character or byte."))
        return
    labels = {t.id: t.label for t in tokens}
    id_word = _("id")
    pick = st.selectbox(_("Token"), merged, key=id_key,
                        format_func=lambda i: f"{visible_token(labels.get(i, '?'))}  ({id_word} {i})")
    found = counts(key) if isinstance(tok, Tokenizer) else None
    st.html(tree_html(tok, pick, found))
    if not isinstance(tok, Tokenizer):
        st.caption(_(MERGES_FROM_RANKS))
    elif found is None:
        st.caption(_("This model came from a file, so how often each pair was seen is not known here."))


def has_trees(tokenizer: TextTokenizer) -> bool:
    """Whether the lab can draw this tokenizer's merge trees (a lab model, or a production tokenizer)."""
    if isinstance(tokenizer, Tokenizer):
        return True
    try:
        merges.inside(tokenizer)
    except ValueError:
        return False
    return True


def merged_ids(tokenizer: TextTokenizer, ids: list[int]) -> list[int]:
    """The distinct ids among ``ids`` that merges made (what has a tree worth opening), in order."""
    if isinstance(tokenizer, Tokenizer):
        return made_by_merges(tokenizer, ids)
    view = merges.inside(tokenizer)
    return [i for i in dict.fromkeys(ids) if view.rank(i) is not None]


__all__ = ["MERGES_FROM_RANKS", "has_trees", "merged_ids", "production_tree", "tree_html", "tree_picker"]
