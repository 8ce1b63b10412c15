"""The algorithm, shown: the reference trainer's loop with the current step's values beside it.

The code is read from :func:`tokenizer.reference.train_reference` itself (the
function the tests check the fast trainer against), so what a learner reads
is what the lab runs. Each line of the loop body that does something visible
gets a note with this step's values: the pairs counted, the winner, the new
id, what happened to the words.
"""

from __future__ import annotations

import html
import inspect
from functools import lru_cache

from i18n import _, _n, number
from tokenizer import Trace
from tokenizer.reference import train_reference
from ui.display import pair_text, visible_token

CSS = """
<style>
.tl-code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em;line-height:1.55;background:#FAFAFA;
 color:#000;border:1px solid #BBB;border-radius:.4em;padding:.6em .2em;overflow-x:auto;margin:.2em 0 .6em}
.tl-code .tl-ln{display:grid;grid-template-columns:2.6em minmax(28em,max-content) minmax(14em,1fr);gap:.8em;
 padding:0 .5em;white-space:pre}
.tl-code .tl-ln .tl-no{color:#444;text-align:right;user-select:none}
.tl-code .tl-ln.tl-hot{background:#FFF3B0}
.tl-code .tl-note{font-family:"Noto Sans","Noto Sans Devanagari",sans-serif;white-space:normal;color:#000;
 font-style:italic}
</style>
"""


@lru_cache(maxsize=1)
def loop_lines() -> tuple[int, tuple[str, ...]]:
    """(first line number, lines) of the training loop in ``train_reference``."""
    lines, start = inspect.getsourcelines(train_reference)
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("for step in range(merges)"))
    last = next(i for i, line in enumerate(lines) if line.strip().startswith("steps.append("))
    body = [line.rstrip("\n") for line in lines[first : last + 1]]
    indent = min(len(line) - len(line.lstrip()) for line in body if line.strip())
    return start + first, tuple(line[indent:] for line in body)


def _notes(trace: Trace, k: int) -> dict[str, str]:
    """Line marker -> the note for merge ``k`` (1-based)."""
    s = trace.steps[k - 1]
    top = ", ".join(f"{pair_text(pc.left, pc.right)}: {number(pc.count)}" for pc in s.table[:3])
    pair = pair_text(s.left, s.right)
    tie = (
        _n("{n} pair shares the top count; the tie rule picks {pair}",
           "{n} pairs share the top count; the tie rule picks {pair}", s.n_tied, pair=pair)
        if s.n_tied > 1 else _n("{pair}, seen {n} time", "{pair}, seen {n} times", s.count, pair=pair)
    )
    return {
        "for step in range(merges)": _("step = {step}: this is merge {k} of {n}", step=k - 1, k=number(k),
                                       n=number(len(trace.steps))),
        "counts, first_met = count_pairs": _n("{n} distinct pair; the most frequent: {top}",
                                              "{n} distinct pairs; the most frequent: {top}", s.n_pairs, top=top),
        "best = ranked[0]": f"best = {tie}",
        "new_id = first_merge_id + step": _("new_id = {id}: the token {token}", id=s.token_id,
                                            token=visible_token(s.token)),
        "words = [(merge(symbols, best, new_id)": _("every {pair} in every word becomes {token}", pair=pair,
                                                    token=visible_token(s.token)),
    }


def algorithm_html(trace: Trace, k: int) -> str:
    """The loop, with merge ``k``'s values beside the lines that produce them (``k`` 0: no values yet)."""
    first_no, lines = loop_lines()
    notes = _notes(trace, k) if k else {}
    out = [CSS, '<div class="tl-code" role="figure" aria-label="' + html.escape(_("the training loop of the reference trainer")) + '">']
    for i, line in enumerate(lines):
        note = next((text for marker, text in notes.items() if line.strip().startswith(marker)), "")
        hot = " tl-hot" if note else ""
        out.append(
            f'<div class="tl-ln{hot}"><span class="tl-no">{first_no + i}</span><span>{html.escape(line) or " "}'
            f'</span><span class="tl-note">{html.escape(note)}</span></div>'
        )
    out.append("</div>")
    return "".join(out)


__all__ = ["algorithm_html", "loop_lines"]
