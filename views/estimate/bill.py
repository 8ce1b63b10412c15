"""The Estimate page, part 4: the bill. Its settings (the output you expect, a reasoning budget, requests a month,
discounts, the exchange rate), each model's price (published, dated, editable), and a card a model: the input tokens
(measured), and what a request and a month cost, the input, the output and any reasoning apart."""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import nullcontext
from decimal import Decimal

import streamlit as st

import i18n
from analyses import estimate as est
from family import models as fm
from i18n import N_, _, _n, number
from ui import state
from ui.display import and_words, md_escape, translated
from ui.layout import figure
from ui.show import Show

from . import settings as s
from .counting import Counted
from .parts import Data, Target

PARTS = {"input": N_("Input"), "cached input": N_("Cached input"), "output": N_("Output"), "reasoning": N_("Reasoning")}


def usd(amount: Decimal) -> str:
    """Dollars as the engine writes them (:func:`analyses.estimate.usd`: cents, or three significant digits below
    ten cents), grouped for the learner's language by :func:`i18n.money`: ``$12,34,567.89`` in Hindi."""
    written = est.usd(amount)
    if i18n.current() != "hi":
        return written
    value = written.replace("$", "").replace(",", "")
    return i18n.money(float(value), "USD", len(value.partition(".")[2]))


def inr(amount: Decimal) -> str:
    """Rupees as the engine writes them (:func:`analyses.estimate.inr`: Indian grouping, paise below Rs 1,000),
    ``Rs 1,23,456`` in English and ``₹1,23,456`` in Hindi (:func:`i18n.money`)."""
    written = est.inr(amount)
    if i18n.current() != "hi":
        return written
    value = written.replace("Rs ", "").replace(",", "")
    return i18n.money(float(value), "INR", len(value.partition(".")[2]))


# -- the settings of the bill -----------------------------------------------------------------------------------
def bill_settings(show: Show, targets: Sequence[Target]) -> None:
    """What the bill assumes, yours to change: the output, requests a month, the exchange rate; a reasoning budget
    when a reasoning model is picked; the discounts a provider publishes."""
    with show.folded(_("Change the numbers: output, reasoning, requests, discounts, the exchange rate")):
        c1, c2, c3, c4 = (*st.columns(2), *st.columns(2)) if show.large else st.columns(4)
        with c1:
            st.segmented_control(_("Expected output"), tuple(s.OUTPUTS), key=s.OUTPUT.skey,
                                 format_func=translated(s.OUTPUTS).__getitem__, required=True,
                                 help=_("What the model writes back (an assumption: yours): a number of tokens a "
                                        "request, or a ratio of the input (0.5: half as many tokens as the request)."))
        with c2:
            if state.value(s.OUTPUT) == "ratio":
                st.number_input(_("Output ÷ input"), key=s.OUT_RATIO.skey, min_value=0.0, step=0.1, format="%.2f")
            else:
                st.number_input(_("Output tokens a request"), key=s.OUT_TOKENS.skey, min_value=0, step=50)
        with c3:
            st.number_input(_("Requests a month"), key=s.REQUESTS.skey, min_value=0, step=1000)
        with c4:
            st.number_input(_("INR per USD"), key=s.INR.skey, min_value=0.0, step=0.5, format="%.4f",
                            help=_("The default is {rate} ({date}, {source}).", rate=fm.INR_PER_USD,
                                   date=fm.INR_DATE, source=fm.exchange_source()))
        places = iter(st.columns(3 if show.large else 4))  # reasoning (for a reasoning model), cache, batch
        if any(t.reasoning for t in targets):
            budget = fm.reasoning_budget()
            next(places).number_input(
                _("Reasoning tokens a request (assumed)"), key=s.REASONING.skey, min_value=0, step=500,
                help=_("Hidden tokens a reasoning model thinks in, billed as output. The lab's reasoning budget: "
                       "{value} ({date}), {basis}.", value=number(budget.value), date=budget.date, basis=budget.shown("basis")))
        next(places).number_input(_("Share of the input cached"), key=s.CACHED.skey, min_value=0.0, max_value=1.0,
                                  step=0.1, format="%.2f", help=_("The part of each request's input the provider "
                                  "reads from its prompt cache (a long system prompt sent again), at its published "
                                  "cached-input price."))
        next(places).toggle(_("Batch prices"), key=s.BATCH_PRICES.skey, help=_("The provider's batch API (results "
                            "within a day), at its published batch prices; a model without them stays at its list "
                            "price."))


def rate_shown(rate: float) -> str:
    """The exchange rate as entered, to four decimals at most (88.6923 is not shown as 88.69).

    >>> rate_shown(88.6923), rate_shown(88.0), rate_shown(90.5)
    ('88.6923', '88', '90.5')
    """
    value = Decimal(repr(float(rate))).quantize(Decimal("0.0001")).normalize()
    return f"{value:,f}"


_NAMED_LINK = re.compile(r"(?P<name>.*?)\s*\((?P<url>https://[^\s()]+)\)")


def source_link(source: str) -> str:
    """A source as Markdown: "Name (https://...)" as the name linked to its address, so the parenthesis around
    the address and the sentence's own closing one after it are not read as part of the link (a bare address
    is linked by Streamlit's Markdown up to the next space, "))." and "))।" included); other text escaped.

    >>> source_link("Reserve Bank of India, reference rate (https://www.rbi.org.in/x.aspx)")
    '[Reserve Bank of India, reference rate](https://www.rbi.org.in/x.aspx)'
    >>> source_link("set on this page")
    'set on this page'
    """
    found = _NAMED_LINK.fullmatch(source)
    if found is None or not found["name"]:
        return md_escape(source)
    return f"[{md_escape(found['name'])}]({found['url']})"


def exchange_note() -> str:
    """The exchange rate used, dated (the lab's default) or said to be yours."""
    rate = state.value(s.INR)
    shown = rate_shown(rate)
    if i18n.current() == "hi":  # ₹ and the Indian grouping, the same digits
        shown = i18n.money(float(shown.replace(",", "")), "INR", len(shown.partition(".")[2]))
    else:
        shown = "Rs " + shown
    if Decimal(str(rate)) == fm.INR_PER_USD:
        return _("Exchange rate: {rupees} a dollar (the lab's default, {date}: {source}).", rupees=shown,
                 date=fm.INR_DATE, source=source_link(fm.exchange_source()))
    return _("Exchange rate: {rupees} a dollar (yours).", rupees=shown)


def _output_kwargs() -> dict:
    if state.value(s.OUTPUT) == "ratio":
        return {"output_ratio": float(state.value(s.OUT_RATIO))}
    return {"output_tokens": float(state.value(s.OUT_TOKENS))}


# -- prices ------------------------------------------------------------------------------------------------------
def price_of(target: Target) -> tuple[fm.Price | None, str]:
    """The price in the boxes (the published one, or yours), and where it comes from, in words. Yours keeps the
    published discounts (cached input, batch), as the command line does."""
    p_in, p_out = s.price_params(target.key)
    v_in, v_out = state.value(p_in), state.value(p_out)
    known = fm.price(target.key) if target.model is not None else None
    if v_in is None or v_out is None:
        return None, ""
    if known is not None and v_in == p_in.default and v_out == p_out.default:
        return known, _("published {date}: {source}", date=known.date, source=known.shown("source"))
    discounts = (known.cached_input_per_m, known.batch_input_per_m, known.batch_output_per_m) if known else ()
    price = fm.Price(target.key, Decimal(str(v_in)), Decimal(str(v_out)), "yours", "set on this page", *discounts)
    if known is None:
        return price, _("your price")
    return price, _("your price (published {date}: ${input} / ${output})", date=known.date, input=known.input_per_m,
                    output=known.output_per_m)


def price_inputs(target: Target) -> None:
    p_in, p_out = s.price_params(target.key)
    a, b = st.columns(2)
    a.number_input(_("USD per 1M input tokens"), key=p_in.skey, min_value=0.0, step=0.05, format="%.3f",
                   placeholder=_("enter a price"))
    b.number_input(_("USD per 1M output tokens"), key=p_out.skey, min_value=0.0, step=0.05, format="%.3f",
                   placeholder=_("enter a price"))


def bill_of(target: Target, stats: est.RecordStats, price: fm.Price) -> est.Cost:
    """What a request and a month cost: the mean record (exact), the settings of the bill, ``price``."""
    mean = Decimal(stats.total) / stats.records if stats.records else Decimal(0)
    reasoning = int(state.value(s.REASONING)) if target.reasoning else 0
    return est.cost(mean, price, requests_per_month=int(state.value(s.REQUESTS)),
                    inr_per_usd=Decimal(str(state.value(s.INR))), reasoning_tokens=reasoning,
                    cached_share=Decimal(str(state.value(s.CACHED))), batch=bool(state.value(s.BATCH_PRICES)),
                    **_output_kwargs())


# -- the cards ---------------------------------------------------------------------------------------------------
def card_key(key: str) -> str:
    """The container key of a model's card (its element carries the class ``st-key-<this>``).

    >>> card_key("gpt-4.1"), card_key("session:ab12")
    ('tl-card-gpt-4-1', 'tl-card-session-ab12')
    """
    return "tl-card-" + re.sub(r"[^a-z0-9-]", "-", key.lower())


def cards(show: Show, targets: Sequence[Target], counts: dict[str, Counted], data: Data) -> None:
    """A card a model, in what lesson 5 links to (the figure "estimate-cost"); classroom mode: side by side, three a
    row, the whole figure on the projector's first screen."""
    shown = [t for t in targets if t.key in counts]
    with figure("estimate-cost"):
        places = [col for _row in range(0, len(shown), 3) for col in st.columns(3)] if show.classroom else None
        for i, t in enumerate(shown):
            with (places[i] if places else nullcontext()), st.container(border=True, key=card_key(t.key)), \
                    state.published(list(s.price_params(t.key))):
                model_card(show, t, counts[t.key])


def model_card(show: Show, target: Target, counted: Counted) -> est.Cost | None:
    """One model's card: its input tokens (measured), its price (dated, editable), what a request and a month cost,
    and what the bill is made of (the input, the output and any reasoning apart, each measured or assumed)."""
    st.markdown(_("**{name}** · counts with {tokenizer}", name=md_escape(target.label),
                  tokenizer=md_escape(target.tok.name))
                + ("" if target.model is None else f" · {md_escape(target.model.vendor)}"))
    slide = show.classroom  # three cards a row, one screen: the price in a line, its boxes and the rest at the foot
    if not slide:
        price_inputs(target)
    price, where = price_of(target)
    source = (md_escape(_("${input} / ${output} per million input / output tokens: {where}.",
                          input=price.input_per_m, output=price.output_per_m, where=where))
              if price is not None else "")
    if price is None:
        st.info(md_escape(_("No published price for {name} is known here: enter one (USD per million tokens, input "
                            "and output) to see its cost.", name=target.label)), icon=":material/edit:")
    elif slide:
        st.caption(md_escape(_("${input} / ${output} per million tokens, {date}", input=price.input_per_m,
                               output=price.output_per_m, date=price.date) if price.date != "yours" else
                             _("${input} / ${output} per million tokens, yours", input=price.input_per_m,
                               output=price.output_per_m)))
    else:
        st.caption(source)
    bill = None
    if price is not None:
        try:
            bill = bill_of(target, counted.stats, price)
        except (ValueError, est.EstimateInputError) as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
    card_metrics(counted.stats, bill, slide)
    if slide:
        with show.folded(_("Its price, its source, and what the bill is made of")):
            price_inputs(target)
            st.caption(source)
            if bill is not None:
                st.markdown(made_of(target, bill, counted.stats))
    elif bill is not None:
        st.markdown(made_of(target, bill, counted.stats))
    say_chats(target, counted)
    return bill


def card_metrics(stats: est.RecordStats, bill: est.Cost | None, slide: bool = False) -> None:
    many = stats.records > 1
    tokens_col, request_col, month_col = (st.container(), *st.columns(2)) if slide else st.columns(3)
    tokens_col.metric(_("Input tokens a request (mean)") if many else _("Input tokens"),
                      mean_shown(stats.total, stats.records) if many else number(stats.total),
                      help=_("Measured: counted exactly with the model's tokenizer; {total} in all {n} records.",
                             total=number(stats.total), n=number(stats.records)) if many else
                      _("Measured: counted exactly with the model's tokenizer."))
    if bill is None:
        return
    request_col.metric(_("USD a request"), usd(bill.usd_per_request))
    request_col.metric(_("INR a request"), inr(bill.inr_per_request))
    month_col.metric(_("USD a month"), usd(bill.usd_per_month))
    month_col.metric(_("INR a month"), inr(bill.inr_per_month))


def mean_shown(total: int, records: int) -> str:
    """The mean as the engine writes it (:func:`analyses.estimate.mean_shown`: one decimal, halves up), grouped for
    the learner's language."""
    if not records or total % records == 0:
        return number(total // records if records else 0)
    return i18n.decimal(float(est.one_decimal(Decimal(total) / records)), 1)


def made_of(target: Target, bill: est.Cost, stats: est.RecordStats) -> str:
    """What the bill is made of, a line a part (Markdown, escaped): its tokens a request, measured or assumed, and
    what it costs a request and a month."""
    budget = fm.reasoning_budget()
    changed = int(state.value(s.REASONING)) != budget.value
    why = {"input": (_("measured by {tokenizer}, the mean record", tokenizer=target.tok.name) if stats.records > 1
                     else _("measured by {tokenizer}", tokenizer=target.tok.name)),
           "cached input": _("measured, the share read from the cache"),
           "output": _("assumed: yours (Change the numbers)"),
           "reasoning": (_("assumed: the lab's reasoning budget ({date}), billed as output, changed", date=budget.date)
                         if changed else
                         _("assumed: the lab's reasoning budget ({date}), billed as output", date=budget.date))}
    lines = []
    for part in bill.parts:
        month = bill.month(part.usd_per_request)
        lines.append(md_escape(_("{part}: {tokens} tokens a request, {why} · {usd} a request, {usd_month} a month "
                                 "({inr_month})", part=_(PARTS[part.what]), tokens=_tokens(part.tokens),
                                 why=why[part.what], usd=usd(part.usd_per_request), usd_month=usd(month),
                                 inr_month=inr(bill.inr(month)))))
    assumed = sum((p.usd_per_request for p in bill.parts if not p.measured), Decimal(0))
    share = f"{assumed / bill.usd_per_request:.0%}" if bill.usd_per_request else "0%"
    notes = [md_escape((said := _(note))[0].upper() + said[1:] + ".") for note in bill.notes]
    extra = (" " + _("All {n} records once: {usd} ({inr}).", n=number(stats.records),
                     usd=usd(bill.usd_per_request * stats.records), inr=inr(bill.inr_per_request * stats.records))
             if stats.records > 1 else "")
    return (_("**What the bill is made of** ({share} of it assumed):", share=share) + "  \n"
            + "  \n".join(lines) + "  \n"
            + md_escape(_n("× {n} request a month.", "× {n} requests a month.", int(state.value(s.REQUESTS))) + extra)
            + ("  \n" + "  \n".join(notes) if notes else ""))


def _tokens(value: Decimal) -> str:
    """Tokens a request as the card writes them: whole numbers whole, a mean to one decimal, halves up.

    >>> _tokens(Decimal(300)), _tokens(Decimal(93) / 4)
    ('300', '23.3')
    """
    if value == value.to_integral_value():
        return number(int(value))
    return i18n.decimal(float(est.one_decimal(value)), 1)


def say_chats(target: Target, counted: Counted) -> None:
    """A chat's format tokens (and what the official template adds besides), and the chats a template refuses."""
    if counted.refused:
        first, lines = counted.refused[0], [str(p.number) for p in counted.refused]
        shown, more = lines[:s.MAX_LISTED_PROBLEMS], max(0, len(lines) - s.MAX_LISTED_PROBLEMS)
        which = _("{some} and {n} more", some=", ".join(shown), n=number(more)) if more else and_words(shown)
        st.warning(md_escape(_n(
            "{name}'s chat template refuses {n} record, left out of its count: line {which} (line {first}: {why}).",
            "{name}'s chat template refuses {n} records, left out of its count: lines {which} (line {first}: {why}).",
            len(lines), name=target.label, which=which, first=number(first.number), why=first.reason)),
            icon=":material/rule:")
    if not counted.chats:
        return
    if counted.overhead is None or target.model is None:  # a lab tokenizer (no model) has no format to count
        st.caption(md_escape(_("{name}'s chat format is not published here: the tokens it adds around each message "
                               "are not counted (the contents are).", name=target.label)))
        return
    said = _("Chat format ({chat}): {tokens} around the messages of {chats}, counted in the input.",
             chat=target.model.chat, tokens=_n("{n} token", "{n} tokens", counted.overhead),
             chats=_n("{n} chat", "{n} chats", counted.chats))
    template = target.model.template
    if template is not None and state.value(s.EXTRAS):
        said += " " + _("{n} of them are {what}.", n=number(counted.extras), what=_(est.TEMPLATES[template]))
    elif template is not None:
        said += " " + _("Left out (switched off above): {what}.", what=_(est.TEMPLATES[template]))
    st.caption(md_escape(said))


__all__ = ["PARTS", "bill_of", "bill_settings", "card_key", "cards", "exchange_note", "made_of", "model_card",
           "price_of", "rate_shown", "source_link"]
