"""Operations on a text and its tokens: how many, where a tokenizer cuts, which text costs more, what a streaming
decoder holds back, what a vocabulary's ids are.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from analyses.measure import measure
from analyses.textstats import text_counts
from i18n import _, _n, number
from tokenizer import TextTokenizer

from .base import Computed, ExerciseError, _arg, _counts_text, _opt, _tokens_facts, _tokens_text, partly, tokenizer_for


# -- operations ---------------------------------------------------------------------------------------
def op_count_tokens(args: dict) -> Computed:
    """How many tokens ``text`` is with ``tokenizer``."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    tokens = tok.encode_tokens(text)
    facts, more = _tokens_facts(tokens, text)
    return Computed(len(tokens), facts=facts, more=more)


def op_split(args: dict) -> Computed:
    """The tokens of ``text`` with ``tokenizer``, as their labels (the learner types them separated by |)."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    from tokenizer.plaintext import visible_token

    tokens = tok.encode_tokens(_arg(args, "text", str))
    shown = [visible_token(t.label) for t in tokens]
    readable = _tokens_text(tokens)  # says more than the pieces when a token is part of a letter or a lone mark
    return Computed(shown, facts="" if readable == " | ".join(shown) else _("The tokens: {tokens}.",
                                                                                          tokens=readable))


def op_utf8_bytes(args: dict) -> Computed:
    """How many UTF-8 bytes ``text`` takes."""
    c = text_counts(_arg(args, "text", str))
    return Computed(c.bytes, facts=_counts_text(c))


def op_code_points(args: dict) -> Computed:
    """How many Unicode code points ``text`` has (what Python's len counts)."""
    text = _arg(args, "text", str)
    names = ", ".join(unicodedata.name(ch, f"U+{ord(ch):04X}").lower() for ch in text[:8])
    return Computed(len(text), facts=_("The code points: {names}.", names=names))


def op_graphemes(args: dict) -> Computed:
    """How many user-perceived characters (grapheme clusters) ``text`` has."""
    return Computed(text_counts(_arg(args, "text", str)).graphemes)


def op_whitespace_pieces(args: dict) -> Computed:
    """How many pieces ``str.split()`` cuts ``text`` into (words with their punctuation glued on)."""
    from tokenizer import split_text

    pieces = split_text(_arg(args, "text", str), "whitespace")
    return Computed(len(pieces), facts=_("The pieces: {pieces}.", pieces=" | ".join(pieces)))


def op_partial_tokens(args: dict) -> Computed:
    """How many of ``text``'s tokens with ``tokenizer`` are not whole characters on their own."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    m = measure(tok, text)
    return Computed(m.partial, facts=partly(m.partial, m.tokens))


def op_tokens_per_word(args: dict) -> Computed:
    """Tokens per word (one decimal) of ``text`` with ``tokenizer``."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    m = measure(tok, text)
    facts, more = _tokens_facts(tok.encode_tokens(text), text)
    return Computed(round(m.tokens_per_word, 1), facts=_("{tokens} for {words}.", tokens=_n("{n} token", "{n} tokens", m.tokens),
                                                                         words=_n("{n} word", "{n} words", m.words)) + " "
                    + facts, more=more)



def op_direction(args: dict) -> Computed:
    """Does ``text`` need more, fewer or the same tokens with ``after`` than with ``before``?"""
    text = _arg(args, "text", str)
    before = len(tokenizer_for(_arg(args, "before", str)).encode(text))
    after = len(tokenizer_for(_arg(args, "after", str)).encode(text))
    answer = "fewer" if after < before else "more" if after > before else "the same"
    return Computed(answer, options=("fewer", "more", "the same"), facts=_("{before} before, {after} after.", before=_n("{n} token", "{n} tokens", before),
                              after=number(after)))


def op_premium(args: dict) -> Computed:
    """Hindi tokens / English tokens (two decimals) for a sentence and its translation with ``tokenizer``."""
    from analyses.measure import premium

    p = premium(tokenizer_for(_arg(args, "tokenizer", str)), _arg(args, "en", str), _arg(args, "hi", str))
    return Computed(round(p.premium, 2), facts=_(
        "{english} English and {hindi} Hindi tokens: the UTF-8 part is {utf8}x, the tokenizer part {tokenizer}x.",
        english=p.english.tokens, hindi=p.hindi.tokens, utf8=format(p.utf8_part, ".2f"),
        tokenizer=format(p.tokenizer_part, ".2f")))


def op_word_splits_into(args: dict) -> Computed:
    """A word of at most ``max_letters`` letters that ``tokenizer`` cuts into at least ``min_tokens`` tokens
    (with ``leading_space``: as it stands inside a sentence, after a space).

    The answer shown is an example found among ``candidates``; the learner's own word is checked by the rule.
    """
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    max_letters, min_tokens = _arg(args, "max_letters", int), _arg(args, "min_tokens", int)
    space = " " if _opt(args, "leading_space", bool, False) else ""  # as the word stands inside a sentence

    def check(word: str) -> tuple[bool, str]:
        word = word.strip()
        tokens = tok.encode_tokens(space + word)
        if not word or not word.isalpha():
            return False, _("Type one word made of letters only.")
        if len(word) > max_letters:
            return False, _n("“{word}” has {n} letter: the word must have at most {most}.",
                             "“{word}” has {n} letters: the word must have at most {most}.", len(word), word=word,
                             most=max_letters)
        ok = len(tokens) >= min_tokens
        return ok, _n("“{word}” is {n} token: {tokens}.", "“{word}” is {n} tokens: {tokens}.", len(tokens), word=word,
                      tokens=_tokens_text(tokens))

    example = next((w for w in _opt(args, "candidates", list, []) if check(w)[0]), None)
    if example is None:
        raise ExerciseError("none of the candidate words meets the rule: add one that does")
    return Computed(example, check=check)


MAX_OWN_OPTIONS = 6


def op_most_tokens(args: dict) -> Computed:
    """Which of ``texts`` (2 to 6) costs the most tokens with ``tokenizer`` (the options are the texts as given;
    texts tied for the most are each right, and the facts say so)."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    texts = _arg(args, "texts", list)
    if not 2 <= len(texts) <= MAX_OWN_OPTIONS or len(set(texts)) != len(texts) or not all(t.strip() for t in texts):
        raise ExerciseError(f"'texts' must be 2 to {MAX_OWN_OPTIONS} different texts")
    counts = [len(tok.encode(t)) for t in texts]
    most = max(counts)
    winners = [t for t, n in zip(texts, counts) if n == most]
    facts = "; ".join("“" + t + "”: " + _n("{n} token", "{n} tokens", n) for t, n in zip(texts, counts)) + "."
    if len(winners) > 1:
        facts += " " + _("{n} texts tie for the most ({tokens} each): each of them is right.",
                         n=number(len(winners)), tokens=_n("{n} token", "{n} tokens", most))
    return Computed(winners[0], options=tuple(texts), also_right=tuple(winners[1:]), facts=facts)


def op_split_choice(args: dict) -> Computed:
    """Where ``tokenizer`` cuts ``text``, as a choice: its tokens (by the lab's display rules), against the way
    each of ``others`` (tokenizer names) cuts it, and against characters and words; only different cuts are
    offered, so exactly one option is right."""
    from tokenizer.plaintext import visible_token

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    text = _arg(args, "text", str)
    if not text.strip():
        raise ExerciseError("the text is empty")

    def cut(tokenizer: TextTokenizer) -> str:
        return " | ".join(visible_token(t.label) for t in tokenizer.encode_tokens(text))

    truth = cut(tok)
    others = _opt(args, "others", list, [])
    if len(others) > MAX_OWN_OPTIONS:
        raise ExerciseError(f"'others' names at most {MAX_OWN_OPTIONS} tokenizers")
    candidates = [cut(tokenizer_for(name)) for name in others]
    from analyses.textstats import graphemes

    candidates += [" | ".join(visible_token(g) for g in graphemes(text)), " | ".join(text.split())]
    wrong = list(dict.fromkeys(c for c in candidates if c and c != truth))[: MAX_OWN_OPTIONS - 1]
    if not wrong:
        raise ExerciseError("every way of cutting this text gives the same pieces: choose a longer text or "
                            "other tokenizers to compare")
    return Computed(truth, options=tuple(sorted([truth, *wrong], key=str.casefold)),
                    facts=_("The tokens: {tokens}.", tokens=_tokens_text(tok.encode_tokens(text))))


def op_compare_texts(args: dict) -> Computed:
    """Which of two texts ``first`` and ``second`` costs more tokens with ``tokenizer``?"""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    a, b = _arg(args, "first", str), _arg(args, "second", str)
    na, nb = len(tok.encode(a)), len(tok.encode(b))
    answer = "the first" if na > nb else "the second" if nb > na else "the same"
    return Computed(answer, options=("the first", "the second", "the same"),
                    facts=_("{first} for the first, {second} for the second.",
                                                  first=_n("{n} token", "{n} tokens", na), second=number(nb)))


def op_join_difference(args: dict) -> Computed:
    """count(first) + count(second) minus count(first + second): how far counting the parts is off."""
    tok = tokenizer_for(_arg(args, "tokenizer", str))
    a, b = _arg(args, "first", str), _arg(args, "second", str)
    parts, whole = len(tok.encode(a)) + len(tok.encode(b)), len(tok.encode(a + b))
    return Computed(parts - whole, facts=_("The parts: {parts} together; the joined text: {whole}.",
                                                  parts=_n("{n} token", "{n} tokens", parts), whole=number(whole)))


def op_stream_silent(args: dict) -> Computed:
    """Streaming ``text`` token by token with ``tokenizer``: after how many tokens does a careful decoder
    show nothing new (it holds bytes of an unfinished character)?"""
    from analyses.stream import stream

    tok = tokenizer_for(_arg(args, "tokenizer", str))
    events = stream(tok, tok.encode(_arg(args, "text", str)))
    silent = sum(1 for e in events if not e.text)
    return Computed(silent, facts=_n("{n} of the {of} completes no character on their own.",
                                     "{n} of the {of} complete no character on their own.", silent,
                                     of=_n("{n} token", "{n} tokens", len(events))))


def op_vocab_size(args: dict) -> Computed:
    """How many ids ``tokenizer``'s vocabulary spans: the highest id plus one (a few may be unused: see vocab_ids)."""
    return Computed(tokenizer_for(_arg(args, "tokenizer", str)).vocab_size)


@lru_cache(maxsize=16)
def _id_counts(name: str) -> tuple[int, int, int]:
    """(ids spanned, ids unused, special tokens) of a tokenizer: an id is unused when it stands for nothing."""
    tok = tokenizer_for(name)
    specials = set(getattr(tok, "special_tokens", {}).values())
    unused = 0
    for token_id in range(tok.vocab_size):
        if token_id in specials:
            continue
        try:
            tok.token_bytes(token_id)
        except ValueError:
            unused += 1
    return tok.vocab_size, unused, len(specials)


def op_vocab_ids(args: dict) -> Computed:
    """What ``tokenizer``'s ids are (``what``): ``"in_use"`` the tokens it really has, ``"unused"`` the ids between 0
    and the highest that stand for nothing, ``"special"`` its special markers (end of text…), ``"highest"`` its
    highest id."""
    spanned, unused, special = _id_counts(_arg(args, "tokenizer", str))
    what = _opt(args, "what", str, "in_use")
    values = {"in_use": spanned - unused, "unused": unused, "special": special, "highest": spanned - 1}
    if what not in values:
        raise ExerciseError(f"'what' must be one of {', '.join(values)}")
    return Computed(values[what], facts=_("Ids 0 to {highest}: {used} in use ({special}), {unused} unused.",
                                               highest=number(spanned - 1),
                                               used=_n("{n} token", "{n} tokens", spanned - unused),
                                               special=_n("{n} special marker", "{n} special markers", special),
                                               unused=number(unused)))



def op_chunks_silent(args: dict) -> Computed:
    """Feed ``text``'s UTF-8 bytes ``size`` at a time to a careful decoder: how many chunks show nothing?"""
    from analyses.stream import StreamDecoder

    data, size = _arg(args, "text", str).encode("utf-8"), _arg(args, "size", int)
    if size < 1:
        raise ExerciseError("'size' must be 1 or more")
    decoder = StreamDecoder(None)
    shown = [decoder.feed_bytes(data[i : i + size]) for i in range(0, len(data), size)]
    return Computed(sum(1 for s in shown if not s), facts=_("What each chunk shows: {shown}.", shown=", ".join(
        f"“{s}”" if s else _("nothing") for s in shown)))
