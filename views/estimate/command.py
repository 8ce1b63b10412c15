"""The Estimate page, part 7: the command line that gives the page's numbers (``python -m tokenizer cost``, and
``count`` for a model without a price), and where the models, tokenizers and prices come from.

The command is the page's settings written as flags, one to a line (each shorter than a phone's width, so a phone
never breaks a model's name at its hyphen): each model, its price where it is not the published one (``--input-price KEY=USD``, that model's
only), the output, a reasoning budget other than the lab's, the discounts, the rate, and the input (the text itself,
or the file by its name, read as the page reads it). Tested by running it: its figures are the page's.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

import streamlit as st

from family import models as fm
from i18n import _, number
from ui import choices, state
from ui.display import and_words, md_escape

from . import settings as s
from .parts import Data, Target

CONTINUED = " \\\n  "
"""Between two flags of a printed command: a shell's line continuation, so each flag has a line of its own."""


@dataclass(frozen=True)
class Asked:
    """What the page asks, as the command line takes it."""

    output: str = "tokens"
    out_tokens: int = 300
    out_ratio: float = 0.5
    reasoning: int | None = None  # a reasoning budget other than the lab's (None: the lab's)
    requests: int = 1000
    inr: float = 88.0
    cached: float = 0.0
    batch: bool = False
    as_chat: bool = False
    extras: bool = True
    kind: str = "text"
    field: str | None = None
    column: str | None = None
    file_name: str | None = None
    text: str | None = None

    @classmethod
    def from_page(cls, file_name: str | None, text: str | None) -> Asked:
        budget = fm.reasoning_budget().value
        return cls(state.value(s.OUTPUT), int(state.value(s.OUT_TOKENS)), float(state.value(s.OUT_RATIO)),
                   None if int(state.value(s.REASONING)) == budget else int(state.value(s.REASONING)),
                   int(state.value(s.REQUESTS)), float(state.value(s.INR)), float(state.value(s.CACHED)),
                   bool(state.value(s.BATCH_PRICES)), bool(state.value(s.AS_CHAT)), bool(state.value(s.EXTRAS)),
                   state.value(s.KIND), (state.value(s.FIELD) or "").strip() or None, state.value(s.COLUMN) or None,
                   file_name, text)


def _source(asked: Asked) -> list[str]:
    """The input: the text itself (a short one-line prompt), else the file by its name (or a name to save it as)."""
    if asked.kind == "text" and asked.text is not None and len(asked.text) <= 300 and "\n" not in asked.text \
            and "\r" not in asked.text:
        return ["-- " + shlex.quote(asked.text)]  # "-5% off" is a text, not a flag
    ext = {"jsonl": "jsonl", "csv": "csv"}.get(asked.kind, "txt")
    args = ["--file " + (shlex.quote(asked.file_name) if asked.file_name else f"YOUR_FILE.{ext}")]
    if asked.kind != "text":
        args.append("--lines")
    if asked.kind == "jsonl" and asked.field:
        args.append("--field " + shlex.quote(asked.field))
    if asked.kind == "csv" and asked.column:
        args.append("--column " + shlex.quote(asked.column))
    return args


def _counting(asked: Asked) -> list[str]:
    return (["--as-chat"] if asked.as_chat else []) + ([] if asked.extras else ["--no-template-extras"])


def command_lines(models: Sequence[tuple[str, tuple[Decimal, Decimal] | None]], unpriced: Sequence[str],
                  asked: Asked) -> list[str]:
    """The commands that give the page's numbers: ``cost`` for ``models`` (each a key and the price given on the
    page, or None for the published one), ``count`` for the ``unpriced`` (no price known, none given), each flag on
    a line of its own.

    >>> print(command_lines([("gpt-4o", None), ("qwen3", (Decimal("0.2"), Decimal("0.6")))], ["llama-3"],
    ...                     Asked(requests=1000, inr=85.0, kind="jsonl", field="messages"))[0])
    python -m tokenizer cost \\
      --model gpt-4o \\
      --model qwen3 --input-price qwen3=0.2 --output-price qwen3=0.6 \\
      --output-tokens 300 \\
      --requests-per-month 1000 \\
      --inr-per-usd 85 \\
      --file YOUR_FILE.jsonl \\
      --lines \\
      --field messages
    """
    out = []
    if models:
        flags = []
        for key, price in models:
            given = (f" --input-price {key}={_number(price[0])} --output-price {key}={_number(price[1])}"
                     if price is not None else "")
            flags.append(f"--model {shlex.quote(key)}{given}")
        flags.append(f"--output-ratio {asked.out_ratio:g}" if asked.output == "ratio"
                     else f"--output-tokens {asked.out_tokens}")
        if asked.reasoning is not None:
            flags.append(f"--reasoning-tokens {asked.reasoning}")
        if asked.cached:
            flags.append(f"--cached-share {asked.cached:g}")
        if asked.batch:
            flags.append("--batch")
        flags += [f"--requests-per-month {asked.requests}", f"--inr-per-usd {asked.inr:g}"]
        out.append(CONTINUED.join(["python -m tokenizer cost", *flags, *_counting(asked), *_source(asked)]))
    if unpriced:
        flags = [f"--model {shlex.quote(key)}" for key in unpriced]
        out.append(CONTINUED.join(["python -m tokenizer count", *flags, *_counting(asked), *_source(asked)]))
    return out


def _number(value: Decimal) -> str:
    """A price as the command line takes it: its digits, no exponent, no trailing zeros (20, 0.15)."""
    return f"{value.normalize():f}"


def given_price(key: str) -> tuple[tuple[Decimal, Decimal] | None, bool]:
    """The price of model ``key`` as the command line takes it: (None, True) for the published one, ((in, out),
    True) for one given on the page, (None, False) for none at all."""
    p_in, p_out = s.price_params(key)
    v_in, v_out = state.value(p_in), state.value(p_out)
    if v_in is None or v_out is None:
        return None, False
    if fm.price(key) is not None and v_in == p_in.default and v_out == p_out.default:
        return None, True
    return (Decimal(str(v_in)), Decimal(str(v_out))), True


def page_commands(keys: Sequence[str], file_name: str | None, text: str | None) -> list[str]:
    """The commands for the models ``keys`` at the page's settings and prices."""
    priced: list[tuple[str, tuple[Decimal, Decimal] | None]] = []
    unpriced: list[tuple[str, tuple[Decimal, Decimal] | None]] = []
    for key in keys:
        price, known = given_price(key)
        (priced if known else unpriced).append((key, price))
    return command_lines(priced, [key for key, _price in unpriced], Asked.from_page(file_name, text))


def too_big_for_page(message: str, file_name: str | None) -> None:
    """The one message for input bigger than the page reads: the command that counts any size."""
    st.warning(md_escape(message + " " + _("The command line counts a file of any size, streaming it, with the same "
                                           "numbers:")), icon=":material/terminal:")
    keys = s.chosen_model_keys()
    lines = page_commands(keys, file_name, None) if keys else []
    count = [CONTINUED.join(["python -m tokenizer count", *(f"--model {shlex.quote(k)}" for k in keys),
                             *_source(Asked.from_page(file_name, None))])] if keys else []
    st.code("\n".join(dict.fromkeys([*count, *lines])) or "python -m tokenizer count --model MODEL --file YOUR_FILE",
            language=None, wrap_lines=True)


def command_section(targets: Sequence[Target], data: Data) -> None:
    models = [t for t in targets if not t.lab]
    st.markdown(_("**The same numbers on the command line**"))
    if not models:
        st.caption(_("The command line prices product models: pick one above."))
        return
    text = data.records[0].text if state.value(s.SOURCE) == "paste" and state.value(s.KIND) == "text" else None
    lines = page_commands([t.key for t in models], data.file_name, text)
    # Plain text (large type reaches it), wrapped (a block that scrolls sideways cannot be reached by keyboard), a
    # flag a line: each is shorter than a phone's width, so only a long text wraps, never a model's name.
    st.code("\n".join(lines), language=None, wrap_lines=True)
    notes = []
    if any("YOUR_FILE" in line for line in lines):
        notes.append(_("Save your text as the file named."))
    if any(t.lab for t in targets):
        notes.append(_("The lab's own models are not on the command line."))
    no_price = [t.label for t in models if not given_price(t.key)[1]]
    if no_price:
        notes.append(_("{models}: no price, so counted only (count); give one above, or --input-price KEY=USD "
                       "--output-price KEY=USD, to cost it.", models=and_words(no_price)))
    if notes:
        st.caption(md_escape(" ".join(notes)))


def about_section(targets: Sequence[Target]) -> None:
    with st.expander(_("Where the models, tokenizers and prices come from"), icon=":material/info:"):
        for t in targets:
            if t.model is None:
                continue
            p = fm.price(t.key)
            st.markdown(md_escape(_("{name} ({vendor}) uses {tokenizer}: {source}.", name=t.model.name,
                                    vendor=t.model.vendor, tokenizer=t.model.tokenizer,
                                    source=t.model.shown("source")))
                        + "  \n" + md_escape(_("Price: ${input} / ${output} per million tokens, {date}, {source}.",
                                                input=p.input_per_m, output=p.output_per_m, date=p.date,
                                                source=p.shown("source")) if p else _("Price: none published here.")))
        for m in fm.uncountable():
            st.markdown(md_escape(_("Not here: {name} ({vendor}). {why}; instead, {instead}.", name=m.name,
                                    vendor=m.vendor, why=m.shown("why"), instead=m.shown("instead"))))
        budget = fm.reasoning_budget()
        st.caption(md_escape(_("Reasoning models bill hidden reasoning tokens as output; the reasoning budget ({n} "
                               "tokens a request, {date}) is {basis}.", n=number(budget.value), date=budget.date,
                               basis=budget.shown("basis"))))
        st.caption(s.limits())
        st.caption(md_escape(_("Prices change: check each provider's page before you budget. Exchange rate: {rate} "
                               "({date}, {source}).", rate=fm.INR_PER_USD, date=fm.INR_DATE, source=fm.exchange_source())
                             + " " + _(choices.OFFLINE_NOTE)))


__all__ = ["CONTINUED", "Asked", "about_section", "command_lines", "command_section", "given_price", "page_commands",
           "too_big_for_page"]
