"""The Estimate page, part 5: many records summed up: each model's statistics (records, total, mean, p50, p95,
max, the chat format's tokens), the five longest records and a histogram of tokens a record."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

import altair as alt
import pandas as pd
import streamlit as st

from analyses import estimate as est
from i18n import _, _n, current
from ui import charts, state, tables
from ui.display import md_escape, readable_text
from ui.language import per_language
from ui.layout import figure
from ui.show import Show

from . import settings as s
from .counting import Counted
from .parts import Data, Target


def stats_table(targets: Sequence[Target], counts: dict[str, Counted]) -> None:
    rows = []
    for t in targets:
        c = counts[t.key]
        stats = c.stats
        mean = float(est.one_decimal(Decimal(stats.total) / stats.records)) if stats.records else 0.0
        rows.append({"model": t.label, "tokenizer": t.tokenizer_key, "records": stats.records, "tokens": stats.total,
                     "mean": mean, "p50": stats.p50, "p95": stats.p95, "max": stats.max,
                     "chat format tokens": c.overhead})
    tables.show(pd.DataFrame(rows), hide_index=True, key=s.STATS_TABLE.skey, placeholder="—", column_config={
        "model": st.column_config.TextColumn(_("model")),
        "tokenizer": st.column_config.TextColumn(_("tokenizer")),
        "records": st.column_config.NumberColumn(_("records")),
        "tokens": st.column_config.NumberColumn(_("tokens")),
        "mean": st.column_config.NumberColumn(_("mean"), format="%.1f", help=_(
            "Tokens a record, on average (halves rounded up, as on the cards).")),
        "p50": st.column_config.NumberColumn(format="%.1f", help=_("Half the records have this many tokens or fewer.")),
        "p95": st.column_config.NumberColumn(format="%.1f", help=_("95 in 100 records have this many or fewer.")),
        "max": st.column_config.NumberColumn(_("max")),
        "chat format tokens": st.column_config.NumberColumn(_("chat format tokens"), help=_(
            "What the chat template adds around the messages, in all (already in the tokens); empty: not a chat, or "
            "the format is not published.")),
    })


def _preview(record: est.Record) -> str:
    if record.messages is not None:
        text = " | ".join(f"{m[0]}: {m[1]}" for m in record.messages)
    else:
        text = record.text or ""
    return readable_text(text, limit=s.PREVIEW_CHARS)


@per_language(max_entries=32)
def histogram_spec(bins: tuple[tuple[int, int, int], ...], label: str, large: bool) -> dict:
    """Tokens a record, in bins, in the learner's language: each bar drawn from its first count to the one after its
    last (a bin of whole counts is [low, high + 1)), so the last bar, and a bin one count wide, is drawn whole."""
    data = pd.DataFrame([{"low": lo, "high": hi, "end": hi + 1, "records": n} for lo, hi, n in bins])
    chart = alt.Chart(data).mark_bar(stroke="#000", strokeWidth=1, color=charts.BLUE).encode(
        x=alt.X("low:Q", bin="binned", title=_("tokens a record ({name})", name=label),
                axis=alt.Axis(format=",d", tickCount=10),
                scale=alt.Scale(domain=[int(data["low"].min()), int(data["end"].max())], nice=False)),
        x2="end:Q",
        y=alt.Y("records:Q", title=_("records"), axis=alt.Axis(format=",d", tickMinStep=1)),
        tooltip=[alt.Tooltip("low:Q", title=_("from"), format=",d"), alt.Tooltip("high:Q", title=_("to"), format=",d"),
                 alt.Tooltip("records:Q", title=_("records"), format=",d")],
    ).properties(height=260 if large else 220)
    return charts.spec(chart, large=large, lang=current())


def records_section(show: Show, targets: Sequence[Target], counts: dict[str, Counted], data: Data) -> None:
    counted = [t for t in targets if t.key in counts]
    if not counted or len(data.records) < 2:
        return
    st.subheader(_("Your records"))
    stats_table(counted, counts)
    names = {t.key: t.label for t in counted}
    if state.value(s.RECORDS_OF) not in names:
        state.set_value(s.RECORDS_OF, counted[0].key)
    which = st.selectbox(_("The longest records and the histogram of"), list(names), key=s.RECORDS_OF.skey,
                         format_func=names.__getitem__) if len(names) > 1 else counted[0].key
    stats = counts[which].stats
    by_number = {r.number: r for r in data.records if r.number in {n for n, _tokens in stats.longest}}
    st.markdown(_n("**The {n} longest record** ({name})", "**The {n} longest records** ({name})",
                   len(stats.longest), name=md_escape(names[which])))
    tables.show(pd.DataFrame([{"line": n, "tokens": tokens, "starts": _preview(by_number[n])}
                              for n, tokens in stats.longest]),
                hide_index=True, key=s.LONGEST_TABLE.skey,
                column_config={"line": st.column_config.NumberColumn(_("line"), help=_(
                                   "The record's line (or row) in the input.")),
                               "tokens": st.column_config.NumberColumn(_("tokens")),
                               "starts": st.column_config.TextColumn(_("starts"), width="large")})
    with figure("estimate-histogram"):
        charts.draw(histogram_spec(tuple(stats.histogram(s.HISTOGRAM_BINS)), names[which], show.large),
                    key=s.HISTOGRAM.skey)


__all__ = ["histogram_spec", "records_section", "stats_table"]
