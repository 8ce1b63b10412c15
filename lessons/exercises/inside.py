"""Inside the production tokenizers (lesson 10): a token's parts and its merge replayed, tokens per script, and
bytes across a parallel set.
"""

from __future__ import annotations

from analyses.textstats import text_counts
from i18n import N_, _, _n, number
from tokenizer.labels import is_whole

from .base import Computed, ExerciseError, _arg, _opt, _pair, tokenizer_for


# -- inside the production tokenizers (lesson 10) ------------------------------------------------------
def _inside(args: dict):
    from family import merges

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    try:
        return tok, merges.inside(tok)
    except ValueError:
        raise ExerciseError(f"{tok.name} is not a production tokenizer whose merges the lab reads") from None


def op_token_parts(args: dict) -> Computed:
    """The two tokens a merge joined to make ``text`` (one token of ``tokenizer``), recovered from its ranks; the
    options are every way to cut the token into two tokens of the vocabulary."""
    tok, view = _inside(args)
    text = _arg(args, "text", str)
    ids = tok.encode(text)
    if len(ids) != 1:
        raise ExerciseError(f"{text!r} is {len(ids)} tokens of {tok.name}, not one")
    parts = view.parts(ids[0])
    if parts is None:
        raise ExerciseError(f"{text!r} is not made by a merge in {tok.name}")
    data = tok.token_bytes(ids[0])
    cuts = []
    for k in range(1, len(data)):
        left, right = data[:k], data[k:]
        if view.known(left) and view.known(right) and is_whole(left) and is_whole(right):
            cuts.append(_pair(left.decode(), right.decode()))
    answer = _pair(view.label(parts[0]), view.label(parts[1]))
    ranks = _("rank {left} and {right}, the token itself {itself}", left=number(view.rank(parts[0]) or 0),
              right=number(view.rank(parts[1]) or 0), itself=number(view.rank(ids[0])))
    return Computed(answer, options=tuple(sorted({*cuts, answer}, key=str.casefold)),
                    facts=_("BPE with only the merges ranked below it makes {answer} of its bytes ({ranks}).",
                            answer=answer, ranks=ranks))


def op_replay_merge(args: dict) -> Computed:
    """Which pair ``tokenizer`` merges at ``step`` (1 = first) while encoding ``text``, among the neighbouring pairs
    of that step's piece."""
    _tok, view = _inside(args)
    replay = view.replay(_arg(args, "text", str))
    step = _arg(args, "step", int)
    if not 1 <= step <= len(replay.steps):
        raise ExerciseError(f"step {step} is outside the {len(replay.steps)} merges of this text")
    found = replay.candidates(step)[: _opt(args, "options", int, 5)]
    labels = [_pair(c[3], c[4]) for c in found]
    s = replay.steps[step - 1]
    answer = _pair(s.left, s.right)
    facts = _("The ranks: {ranks}. The lowest rank merges first.", ranks="; ".join(
        f"{label} {number(c[0])}" if c[0] is not None else label + " " + _("none") for label, c in zip(labels, found)))
    return Computed(answer, options=tuple(sorted(set(labels), key=str.casefold)), facts=facts)


def op_replay_steps(args: dict) -> Computed:
    """How many merges ``tokenizer`` applies while encoding ``text``."""
    tok, view = _inside(args)
    text = _arg(args, "text", str)
    replay = view.replay(text)
    n = len(tok.encode(text))
    start = sum(len(p) for p in replay.start)
    return Computed(len(replay.steps), facts=_("From {start} to {tokens}: each merge makes one token of two.",
                                               start=_n("{n} starting byte", "{n} starting bytes", start),
                                               tokens=_n("{n} token", "{n} tokens", n)))


SCRIPT_BUCKETS = ("fewer than 100", "100 to 999", "1,000 to 9,999", "10,000 or more")


def op_script_tokens(args: dict) -> Computed:
    """How many of ``tokenizer``'s tokens are of ``script`` (a kind of analyses.vocab: a script, "partial UTF-8"…)."""
    from analyses import vocab

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    script = _arg(args, "script", str)
    if script not in vocab.KINDS:
        raise ExerciseError(f"unknown script {script!r} (known: {', '.join(vocab.KINDS)})")
    try:
        v = vocab.vocabulary(tok)
    except (ValueError, AttributeError):
        raise ExerciseError(f"{tok.name} is not a production tokenizer whose vocabulary the lab reads") from None
    n = v.count(script)
    return Computed(n, facts=_("{name} has {n} {script} tokens of its {all} ({share}).", name=tok.name, n=number(n),
                               script=script, all=number(v.tokens), share=format(n / v.tokens, ".2%")))


def op_script_band(args: dict) -> Computed:
    """Which of :data:`SCRIPT_BUCKETS` the count of ``tokenizer``'s ``script`` tokens falls in (a choice)."""
    c = op_script_tokens(args)
    n = c.answer
    return Computed(SCRIPT_BUCKETS[(n >= 100) + (n >= 1000) + (n >= 10_000)], options=SCRIPT_BUCKETS, facts=c.facts)


PARALLEL_SETS = {"parallel": N_("The lab's parallel set"), "lesson-4": N_("Lesson 4's two paragraphs")}


def _parallel_texts(name: str) -> list[tuple[str, str]]:
    """(English, Hindi) pairs of a parallel set: the lab's sentence pairs (``lessons/data/parallel_en_hi.json``, the
    set English vs Hindi and Cost measure on) or lesson 4's two paragraphs."""
    import lessons

    if name == "parallel":
        return [(p["en"], p["hi"]) for p in lessons.data("parallel_en_hi")["pairs"]]
    if name == "lesson-4":
        data = lessons.data("lesson4_english_hindi")
        return [(data["english_block"], data["hindi_block"])]
    raise ExerciseError(f"there is no parallel set {name!r} (known: {', '.join(PARALLEL_SETS)})")


def op_parallel_bytes(args: dict) -> Computed:
    """Over a parallel ``set`` (``"parallel"``: the lab's sentence pairs; ``"lesson-4"``: lesson 4's paragraphs):
    the Hindi text's UTF-8 bytes ÷ the English text's (``what = "ratio"``, to ``digits`` decimals), or how many
    pairs the set has (``what = "pairs"``)."""
    name = _opt(args, "set", str, "parallel")
    pairs = _parallel_texts(name)
    english = sum(text_counts(en).bytes for en, _hi in pairs)
    hindi = sum(text_counts(hi).bytes for _en, hi in pairs)
    what = _opt(args, "what", str, "ratio")
    if what not in ("ratio", "pairs"):
        raise ExerciseError("'what' must be ratio or pairs")
    ratio = round(hindi / english, _opt(args, "digits", int, 2))
    facts = _("{set}, {pairs}: {hindi} bytes of Hindi for {english} of English, {ratio} times as many.",
              set=_(PARALLEL_SETS[name]), pairs=_n("{n} pair", "{n} pairs", len(pairs)), hindi=number(hindi),
              english=number(english), ratio=format(ratio, ","))
    return Computed(len(pairs) if what == "pairs" else ratio, facts=facts)
