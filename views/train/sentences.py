"""One step in words: the big step line, how the merge's count adds up, why this pair won.
"""

from __future__ import annotations

import html

from i18n import _, _n, number
from tokenizer import Trace
from ui.chips import CSS as CHIPS_CSS
from ui.chips import Chip, chips_html
from ui.display import pair_text, visible_token
from ui.language import per_language
from ui.questions import tie_explanation, times
from ui.training import BY_RUN, Run, trace_of

from .chips import _cut

MAX_SOURCES = 6  # words named in "how the count adds up"



def step_summary(trace: Trace, k: int) -> str:
    """ "Merge 3 of 7: cha + i → chai, seen 5 times." (plain text, in the current language)."""
    s = trace.steps[k - 1]
    return _("Merge {k} of {n}: {pair} → {token}, seen {times}.", k=number(k), n=number(len(trace.steps)),
             pair=pair_text(_cut(s.left), _cut(s.right)), token=visible_token(_cut(s.token)), times=times(s.count))


@per_language(max_entries=512, hash_funcs=BY_RUN)
def count_breakdown(run: Run, k: int) -> str:
    """How merge k's count adds up, word by word: "chai ×3 + chaiwala ×2 + … = 11" (cached per run, step and
    language)."""
    trace = trace_of(run)
    s = trace.steps[k - 1]
    sources, complete = trace.pair_sources(k)
    terms = []
    for src in sources[:MAX_SOURCES]:
        word = visible_token(_cut(src.word))
        terms.append(f"{word} ×{src.word_count}" if src.in_word == 1 else f"{word} {src.in_word}×{src.word_count}")
    rest = sources[MAX_SOURCES:]
    rest_sum = s.count - sum(src.adds for src in sources[:MAX_SOURCES])
    if rest or not complete:
        n_more = len(rest) if complete else None
        more = (_n("{n} more word", "{n} more words", n_more) if n_more is not None else _("the other words"))
        terms.append(_("{count} from {more}", count=number(rest_sum), more=more))
    twice = next((src for src in sources[:MAX_SOURCES] if src.in_word > 1), None)
    total = number(s.count)
    if twice is None:
        head = _("How {count} adds up, each word counted as often as it occurs:", count=total)
    else:
        in_word = f"{twice.in_word}×{twice.word_count}"
        head = _("How {count} adds up, each word counted as often as it occurs (“{word} {twice}”: the pair is in it "
                 "{in_word}, and it occurs {occurs}):", count=total, word=visible_token(_cut(twice.word)),
                 twice=in_word, in_word=times(twice.in_word),
                 occurs=times(twice.word_count))
    return f"{head}\n{' + '.join(terms)} = {total}"


@per_language(max_entries=512, hash_funcs=BY_RUN)
def explain(run: Run, k: int) -> str:
    """:func:`tie_explanation` with notes, cached per run, step and language."""
    trace = trace_of(run)
    text = tie_explanation(trace, k)
    s = trace.steps[k - 1]
    if s.count == 1:
        sources, _count = trace.pair_sources(k, max_words=5_000)
        if sources:
            once = _("This pair occurs just once in the whole corpus in “{word}”: merging it memorises part of "
                     "one word rather than learning a piece that many words share.",
                     word=visible_token(_cut(sources[0].word)))
        else:
            once = _("This pair occurs just once in the whole corpus: merging it memorises part of one word "
                     "rather than learning a piece that many words share.")
        text += "\n" + once
    return text



# The step's line is big; on a phone a little less, so the merge and what it changed share the screen.
STEP_HEADER_CSS = """<style>
.tl-step { display: flex; flex-wrap: wrap; align-items: center; gap: .4em; font-size: 1.3em; }
@media (max-width: 640px) { .tl-step { font-size: 1.05em; gap: .3em; } }
</style>"""


@per_language(max_entries=512, hash_funcs=BY_RUN)
def step_header_html(run: Run, k: int, *, hide_winner: bool = False) -> str:
    """A big line: "Merge 3 of 7: [cha] + [i] → [chai] seen 5 times" (chips for the tokens), in the current language
    (cached per run, step and language)."""
    trace = trace_of(run)
    n = number(len(trace.steps))
    box = STEP_HEADER_CSS + '<div class="tl-step">'
    if k == 0:
        start = (_("Every word is still single characters.") if trace.config.unit == "chars" else
                 _("Every word is still single bytes."))
        before = html.escape(_("Step 0 of {n}: before any merge.", n=n))
        body = f"<strong>{before}</strong><span>{html.escape(start)}</span>"
        return CHIPS_CSS + box + body + "</div>"
    s = trace.steps[k - 1]
    if hide_winner:
        which = html.escape(_("Merge {k} of {n}: which pair wins?", k=number(k), n=n))
        return CHIPS_CSS + box + f"<strong>{which}</strong></div>"
    tok = trace.tokenizer

    def chip(label: str, token_id: int, hl: bool = False) -> str:
        c = Chip(_cut(label), token_id, whole=tok.is_whole(token_id), highlight=hl)
        return chips_html([c], label=_("token"), runs=False)

    title = html.escape(_cut(step_summary(trace, k)), quote=True)
    merge = html.escape(_("Merge {k} of {n}:", k=number(k), n=n))
    seen = html.escape(_("seen {times}", times=times(s.count)))
    new_id = html.escape(_("new token id {id}", id=s.token_id))
    return (
        CHIPS_CSS + box.replace('class="tl-step"', f'class="tl-step" title="{title}"')
        + f"<strong>{merge}</strong>"
        + chip(s.left, s.pair[0]) + "<span>+</span>" + chip(s.right, s.pair[1]) + "<span>→</span>"
        + chip(s.token, s.token_id, True)
        + f"<span><strong>{seen}</strong> · {new_id}</span></div>"
    )
