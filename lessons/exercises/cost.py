"""Lesson 5's operations: cost, context and speed (the arithmetic is analyses.cost's).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

import i18n
from analyses.measure import measure
from i18n import _, number

from .base import Computed, ExerciseError, _arg, _opt, tokenizer_for


# -- lesson 5: cost, context and speed (the arithmetic is analyses.cost's) ----------------------------
def _scenario(args: dict) -> dict:
    import lessons

    found = lessons.cost_scenarios()
    name = _opt(args, "scenario", str, next(iter(found)))
    if name not in found:
        raise ExerciseError(f"there is no cost scenario {name!r} (known: {', '.join(found)})")
    return found[name]


def _language(scenario: dict, args: dict) -> dict:
    name = _arg(args, "language", str)
    if name not in scenario["languages"]:
        raise ExerciseError(f"the scenario has no language {name!r} (known: {', '.join(scenario['languages'])})")
    return scenario["languages"][name]


def _article(args: dict):
    from analyses import cost

    sc = _scenario(args)
    lang = _language(sc, args)
    prices = cost.Prices(sc["price_input_per_1000"], sc["price_output_per_1000"])
    tokens = lang["input_tokens"]
    if _opt(args, "cleaned", bool, False):
        tokens = cost.cleaned(tokens, sc["cleaning_percent"])
    return sc, prices, tokens, cost.article_cost(tokens, lang["output_tokens"], prices)


def shown_rupees(amount) -> str:
    """Money as :func:`analyses.cost.rupees` writes it, "Rs 2.46" (₹2.46 for a Hindi reader, as the Cost page): the
    facts of a cost exercise, and a lesson's figure of format ``rupees`` (:mod:`lessons.course`)."""
    from analyses.cost import rupees

    written = rupees(amount)
    return written.replace("Rs ", "₹", 1) if i18n.current() == "hi" else written


def op_article_cost(args: dict) -> Computed:
    """What one article costs in ``language`` in the scenario, in rupees (``part``: total, input or output;
    ``cleaned = true``: after cleaning its input by the scenario's percentage)."""
    sc, prices, tokens, a = _article(args)
    part = _opt(args, "part", str, "total")
    if part not in ("total", "input", "output"):
        raise ExerciseError("'part' must be total, input or output")
    out = _language(sc, args)["output_tokens"]
    facts = _("{tokens} input tokens at {price_in} per 1,000 = {input}; {out} output tokens at {price_out} per 1,000 "
              "= {output}; together {total}.", tokens=number(tokens), price_in=shown_rupees(prices.input_per_1000),
              input=shown_rupees(a.input), out=number(out), price_out=shown_rupees(prices.output_per_1000), output=shown_rupees(a.output),
              total=shown_rupees(a.total))
    value = {"total": a.total, "input": a.input, "output": a.output}[part]
    return Computed(value.quantize(Decimal("0.01"), ROUND_HALF_UP), facts=facts,  # to the paisa, as rupees() shows it
                    exact=value)


def op_month_cost(args: dict) -> Computed:
    """What the scenario's articles cost in ``language`` over its days, in whole rupees."""
    from analyses.cost import monthly_cost

    sc, _prices, _tokens, a = _article(args)
    month = monthly_cost(a.total, articles_per_day=sc["articles_per_day"], days=sc["days"])
    facts = _("{each} an article × {per_day} a day × {days} days = {month}.", each=shown_rupees(a.total),
              per_day=number(sc["articles_per_day"]), days=sc["days"], month=shown_rupees(month))
    return Computed(int(month), facts=facts)


def op_window_fit(args: dict) -> Computed:
    """How many whole ``language`` articles fit in the scenario's context window, with room kept for the reply
    (the output cap) and the safety margin (``what = "used"``: how many tokens they take; ``"room"``: the room)."""
    from analyses.cost import window_fit

    sc = _scenario(args)
    fit = window_fit(_language(sc, args)["input_tokens"], window=sc["window"], output_cap=sc["output_cap"],
                     margin=sc["margin"])
    facts = _("{window} − {cap} for the reply − {margin} margin leaves {room} tokens; {room} ÷ {each} = {exact}, so "
              "{count} whole articles ({used} tokens).", window=number(fit.window), cap=number(fit.output_cap),
              margin=number(fit.margin), room=number(fit.room), each=number(fit.each), exact=format(fit.exact, ".1f"),
              count=fit.count, used=number(fit.used))
    what = _opt(args, "what", str, "count")
    if what not in ("count", "used", "room"):
        raise ExerciseError("'what' must be count, used or room")
    return Computed({"count": fit.count, "used": fit.used, "room": fit.room}[what], facts=facts)


def _presend(args: dict):
    from analyses import cost

    sc = _scenario(args)
    prices = cost.Prices(sc["price_input_per_1000"], sc["price_output_per_1000"])
    return cost.presend_check(_arg(args, "prompt", int), window=sc["window"], output_cap=sc["output_cap"],
                              margin=sc["margin"], prices=prices)


def _presend_facts(c) -> str:
    sums = _("{prompt} + {cap} reply + {margin} margin = {needed}", prompt=number(c.prompt), cap=number(c.output_cap),
             margin=number(c.margin), needed=number(c.needed))
    if c.accepted:
        return _("{sums}, within the {window}-token window; at worst it costs {worst}.", sums=sums,
                 window=number(c.window), worst=shown_rupees(c.worst_case))
    return _("{sums}: {over} over the {window}-token window, so it is never sent.", sums=sums, over=number(c.over_by),
             window=number(c.window))


def op_presend(args: dict) -> Computed:
    """The pre-send check of a ``prompt`` of that many tokens in the scenario: accepted or rejected."""
    c = _presend(args)
    return Computed("accepted" if c.accepted else "rejected", options=("accepted", "rejected"), facts=_presend_facts(c))


def op_presend_cost(args: dict) -> Computed:
    """The worst-case cost in rupees of an accepted ``prompt`` (the prompt plus the longest reply allowed)."""
    c = _presend(args)
    if not c.accepted:
        raise ExerciseError(f"a {c.prompt:,}-token prompt is rejected, so it has no cost")
    return Computed(c.worst_case, facts=_presend_facts(c))


def op_presend_tokens(args: dict) -> Computed:
    """The tokens the pre-send check adds up for a ``prompt`` (``what = "needed"``: prompt + reply cap + margin) or
    how far they are over the window (``what = "over_by"``: 0 when the prompt is accepted)."""
    c = _presend(args)
    what = _opt(args, "what", str, "needed")
    if what not in ("needed", "over_by"):
        raise ExerciseError("'what' must be needed or over_by")
    return Computed(c.needed if what == "needed" else c.over_by, facts=_presend_facts(c))


def op_decoding_steps(args: dict) -> Computed:
    """How many decoding steps (one per output token) the reply in ``language`` takes in the scenario."""
    from analyses.cost import speed

    sc = _scenario(args)
    lang = _language(sc, args)
    s = speed(lang["input_tokens"], lang["output_tokens"])
    return Computed(s.decoding_steps, facts=_("One step per output token: {n} steps.", n=number(s.decoding_steps)))


@lru_cache(maxsize=8)
def _language_sample(language: str):
    import lessons

    try:
        found, _missing = lessons.language_samples()
    except lessons.SamplesUnavailable as exc:
        raise ExerciseError(str(exc)) from None
    for sample in found:
        if sample.id == language:
            return sample
    raise ExerciseError(f"there is no sample text for {language!r} (known: {', '.join(s.id for s in found)})")


def op_window_chars(args: dict) -> Computed:
    """How many characters of ``language``'s sample text (a gflanguages id, e.g. ``mr_Deva``) fit in a ``window``
    of that many tokens with ``tokenizer``, at the tokens per character the sample is measured at (to the
    nearest ten)."""
    sample = _language_sample(_arg(args, "language", str))
    window = _arg(args, "window", int)
    if window < 1:
        raise ExerciseError("'window' must be 1 or more")
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    m = measure(tok, sample.text)
    chars = int(round(window * m.code_points / m.tokens, -1))
    facts = _("{language}'s sample is {chars_in} characters in {tokens} tokens ({rate} tokens a character), so "
              "{window} tokens hold about {chars} characters.", language=sample.label, chars_in=number(m.code_points),
              tokens=number(m.tokens), rate=format(m.tokens / m.code_points, ".2f"), window=number(window),
              chars=number(chars))
    return Computed(int(chars), facts=facts)
