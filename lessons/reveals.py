"""What a lesson's link shows, in the exercises' terms: the checker's model of the lab's views.

A lesson link opens a page with settings (``lessons.course.Link``), and the page computes and draws results.
:func:`shows` says what of those results an exercise could ask about, computed with the engine from the link's
settings and the page's defaults (the same lesson data the page reads), as facts:

- :class:`Tokens`: a text's tokens with a tokenizer (chips, a ladder, a stream);
- :class:`Characters`: every character of a text with its bytes (Bytes per character's table);
- :class:`Merges`: a preset's merges up to a step (Train, The family: BPE's, or WordPiece's);
- :class:`Value`: one number or answer the page states, as an exercise operation and its arguments.

:func:`answers` says whether what a link shows gives an exercise's answer away: the same question stated, or
one that can be read off what is shown (a count or a split from the tokens drawn, a direction from two counts,
a ratio from its two numbers). The lesson checker refuses a link that shows the answer of an exercise after it
unless the link asks that exercise first (``ask``, :mod:`lessons.course`); the browser journey
(tests/browser/journeys/test_links.py) checks the model against what each page draws.

Where a link leaves a tokenizer to the page's default, the model assumes any tokenizer (:data:`ANY`): it may
then ask more than the page shows, never less. A page the model does not know is said so (:class:`Unknown`).

>>> from lessons.course import Link
>>> [type(f).__name__ for f in shows(Link("", "Tokenize_anything", {"toks": "o200k_base", "text": "chai"}))]
['Tokens', 'Value', 'Value', 'Value', 'Value']
>>> answers("split", {"tokenizer": "o200k_base", "text": "chahiye!"},
...         [Tokens("o200k_base", "Mera order 20 minute late hai, refund chahiye!")])
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .course import TOKENIZER_KEY

ANY = "*"
"""A setting the model does not pin down (a tokenizer left to the page's default, any window): it matches any."""


@dataclass(frozen=True)
class Tokens:
    """The tokens ``tokenizer`` (a preset id or a production tokenizer's name, or :data:`ANY`) cuts ``text`` into."""

    tokenizer: str
    text: str


@dataclass(frozen=True)
class Characters:
    """Every character of ``text`` with its bytes: any part's bytes, code points and letters can be counted."""

    text: str


@dataclass(frozen=True)
class Merges:
    """A preset's merges 1 to ``upto`` in the order they were learned, by BPE's rule (``rule = "count"``) or
    WordPiece's (``"score"``)."""

    preset: str
    upto: int
    rule: str = "count"


@dataclass(frozen=True)
class Value:
    """A number or an answer the page states: what ``compute(op, args)`` gives (an argument may be :data:`ANY`)."""

    op: str
    args: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, op: str, **args: Any) -> Value:
        return cls(op, tuple(sorted(args.items())))

    def fits(self, op: str, args: dict) -> bool:
        mine = dict(self.args)
        return op == self.op and set(mine) == set(args) and all(v == ANY or args[k] == v for k, v in mine.items())


@dataclass(frozen=True)
class Unknown:
    """A page the model does not know: the checker says so rather than guess."""

    page: str


Fact = Tokens | Characters | Merges | Value | Unknown


# -- the engine, cached: a checker run asks the same texts of the same tokenizers many times -------------------
@lru_cache(maxsize=512)
def _token_bytes(tokenizer: str, text: str) -> tuple[bytes, ...]:
    from .exercises import tokenizer_for

    return tuple(t.bytes for t in tokenizer_for(tokenizer).encode_tokens(text))


def _contains(shown: Sequence[bytes], part: Sequence[bytes]) -> bool:
    """Whether the tokens ``part`` are drawn among ``shown``, side by side, cut the same way. The first may have a
    space before it there (``·ch`` for ``ch``): a word inside a sentence is the same word."""
    n = len(part)
    if not n:
        return False
    for i in range(len(shown) - n + 1):
        head = shown[i]
        if (head == part[0] or head == b" " + part[0]) and tuple(shown[i + 1 : i + n]) == tuple(part[1:]):
            return True
    return False


def _tokens_drawn(tokenizer: str, text: str, shown: Iterable[Fact]) -> bool:
    """Whether ``text``'s tokens with ``tokenizer`` can be read off what is shown: stated, or drawn."""
    from .exercises import ExerciseError

    for fact in shown:
        if isinstance(fact, Tokens) and fact.tokenizer in (tokenizer, ANY) and text in fact.text:
            try:
                if fact.text == text or _contains(_token_bytes(tokenizer, fact.text), _token_bytes(tokenizer, text)):
                    return True
            except ExerciseError:  # a tokenizer not installed here: it shows nothing here either
                continue
    return False


def _count_known(tokenizer: str, text: str, shown: Sequence[Fact]) -> bool:
    return _stated("count_tokens", {"tokenizer": tokenizer, "text": text}, shown) or _tokens_drawn(tokenizer, text, shown)


def _stated(op: str, args: dict, shown: Iterable[Fact]) -> bool:
    return any(isinstance(f, Value) and f.fits(op, args) for f in shown)


# -- from what is shown to an answer: one rule per operation --------------------------------------------------
def _by_tokens(args: dict, shown: Sequence[Fact]) -> bool:
    return _tokens_drawn(args.get("tokenizer", ""), args.get("text", ""), shown)


def _direction(args: dict, shown: Sequence[Fact]) -> bool:
    return all(_count_known(args.get(k, ""), args.get("text", ""), shown) for k in ("before", "after"))


def _compare(args: dict, shown: Sequence[Fact]) -> bool:
    tok = args.get("tokenizer", "")
    return all(_count_known(tok, args.get(k, ""), shown) for k in ("first", "second"))


def _join(args: dict, shown: Sequence[Fact]) -> bool:
    tok, a, b = args.get("tokenizer", ""), args.get("first", ""), args.get("second", "")
    return all(_count_known(tok, text, shown) for text in (a, b, a + b))


def _premium(args: dict, shown: Sequence[Fact], tolerance: float = 0.0) -> bool:
    """Both counts shown; or a Hindi premium stated for the same tokenizer, on any texts, that is the answer (as
    the learner may type it: within the exercise's tolerance): a tokenizer's premium reads as one number."""
    from .exercises import ExerciseError, compute

    tok = args.get("tokenizer", "")
    if all(_count_known(tok, args.get(k, ""), shown) for k in ("en", "hi")):
        return True
    try:
        answer = compute("premium", args).answer
    except ExerciseError:
        return False
    for fact in shown:
        stated = dict(fact.args) if isinstance(fact, Value) and fact.op == "premium" else None
        if stated is None or stated.get("tokenizer") not in (tok, ANY):
            continue
        try:
            value = compute("premium", {**stated, "tokenizer": tok}).answer
        except ExerciseError:
            continue
        if abs(value - answer) <= max(tolerance, 0.005):
            return True
    return False


def _ratio(args: dict, shown: Sequence[Fact]) -> bool:
    parts = [args.get("numerator"), args.get("denominator")]
    return all(isinstance(p, dict) and answers(p.get("op", ""), {k: v for k, v in p.items() if k != "op"}, shown)
               for p in parts)


def _merges(rule: str, count_arg: str) -> Callable[[dict, Sequence[Fact]], bool]:
    def rule_shown(args: dict, shown: Sequence[Fact]) -> bool:
        need = args.get(count_arg)
        return any(isinstance(f, Merges) and f.rule == rule and f.preset == args.get("preset")
                   and isinstance(need, int) and f.upto >= need for f in shown)
    return rule_shown


def _characters(args: dict, shown: Sequence[Fact]) -> bool:
    text = args.get("text", "")
    return bool(text) and any(isinstance(f, Characters) and text in f.text for f in shown)


def _word(args: dict, shown: Sequence[Fact]) -> bool:
    """A word that meets the rule, drawn with the exercise's tokenizer's tokens (a page that leaves the tokenizer to
    its default shows another's): the example the exercise asks for."""
    from .exercises import ExerciseError, compute

    tok = args.get("tokenizer", "")
    try:
        check = compute("word_splits_into", args).check
    except ExerciseError:
        return False
    for fact in shown:
        if isinstance(fact, Tokens) and fact.tokenizer == tok:  # that tokenizer's tokens, not another's
            for word in {w.strip(".,!?;:“”\"'()") for w in fact.text.split()}:
                if word and check is not None and check(word)[0] and _tokens_drawn(tok, word, [fact]):
                    return True
    return False


DERIVED: dict[str, Callable[[dict, Sequence[Fact]], bool]] = {
    "count_tokens": _by_tokens, "split": _by_tokens, "tokens_per_word": _by_tokens, "partial_tokens": _by_tokens,
    "direction": _direction, "compare_texts": _compare, "join_difference": _join, "premium": _premium,
    "ratio": _ratio, "merge_at": _merges("count", "step"), "merge_order": _merges("count", "count"),
    "wordpiece_at": _merges("score", "step"), "utf8_bytes": _characters, "code_points": _characters,
    "graphemes": _characters, "word_splits_into": _word,
    "script_band": lambda args, shown: _stated("script_tokens", args, shown),
}
"""How an answer is read off what a page draws, by operation (an operation not here is given away only when the
page states it: a :class:`Value`)."""


def answers(op: str, args: dict, shown: Sequence[Fact], tolerance: float = 0.0) -> bool:
    """Whether what is ``shown`` gives away the answer of the exercise ``op(args)`` (``tolerance``: the exercise's,
    for a figure that reads as one number whatever it was measured on)."""
    if _stated(op, args, shown):
        return True
    if op == "premium":
        return _premium(args, shown, tolerance)
    rule = DERIVED.get(op)
    return bool(rule and rule(args, shown))


# -- the pages -------------------------------------------------------------------------------------------------
def _int(params: dict, name: str, default: int) -> int:
    try:
        return int(params[name]) if name in params else default
    except ValueError:
        return default


def _on(params: dict, name: str, default: bool) -> bool:
    return params[name].lower() in ("1", "true", "yes", "on") if name in params else default


def _names(params: dict, name: str) -> list[str]:
    """The tokenizers a link names (``toks=a,b``), or [:data:`ANY`] when it leaves them to the page."""
    named = [n for n in params.get(name, "").split(",") if n and n != "own"]
    return named or [ANY]


def _pair() -> dict:
    import lessons

    return lessons.data("lesson4_english_hindi")


def _text_facts(text: str) -> list[Fact]:
    """A text's own counts, as Tokenize anything states them under the text."""
    return [Value.of(op, text=text) for op in ("whitespace_pieces", "code_points", "graphemes", "utf8_bytes")]


def _tokenize(params: dict) -> list[Fact]:
    """Tokenize anything: every tokenizer's tokens of the text, and the text's counts."""
    text = params.get("text")
    if text is None:
        import lessons

        examples = lessons.examples("tokenize")
        text = examples[0]["text"] + " " + examples[1]["text"]
    return [*(Tokens(name, text) for name in _names(params, "toks")), *_text_facts(text)]


def _preset_run(params: dict) -> str | None:
    """The preset whose own run the page trains (None when the link changes its corpus or its settings)."""
    import lessons

    preset = params.get("preset", "chai")
    own = {"text", "unit", "split", "pattern", "marker", "marker_text", "ties", "merges"} & set(params)
    return preset if preset in lessons.presets() and not own else None


def _train(params: dict) -> list[Fact]:
    """Train: the merges up to the step (while predicting, the step's own merge is asked first; before merge 1 the
    chart's top pair is merge 1's); at the last merge, the corpus cut by every merge, so each corpus word's tokens."""
    import lessons

    from .exercises import preset_trace

    preset = _preset_run(params)
    if preset is None:
        return []
    n = len(preset_trace(preset).steps)
    step, predicting = min(_int(params, "step", 0), n), _on(params, "predict", False)
    upto = step - 1 if predicting and step else (step if predicting else max(step, 1))
    facts: list[Fact] = [Merges(preset, upto)]
    if step == n and not predicting:
        facts += [Tokens(preset, word) for word in dict.fromkeys(lessons.presets()[preset].corpus.split())]
    return facts


def _encode(params: dict) -> list[Fact]:
    """Encode step by step: the tokens after the step's merges; the final tokens once no merge is left (or none
    fires at all). A production tokenizer's replay also states how many merges fire ("Step 2 of 5") and names each
    merge up to the step (while predicting, the step's own merge is asked first)."""
    from tokenizer import Tokenizer
    from tokenizer.replay import encode_trace

    from .exercises import ExerciseError, tokenizer_for

    tok, text = params.get(TOKENIZER_KEY, "readers"), params.get("text", "readership")
    step = _int(params, "step", 0)
    try:
        model = tokenizer_for(tok)
    except ExerciseError:
        model = None
    if not isinstance(model, Tokenizer):  # not a lab model: a production tokenizer's replay, or none
        return _replay(tok, text, step, _on(params, "predict", False))
    n = len(encode_trace(model, text).steps)
    return [Tokens(tok, text)] if step >= n else []


def _replay(tok: str, text: str, step: int, predicting: bool) -> list[Fact]:
    from .exercises import ExerciseError, compute

    try:
        n = compute("replay_steps", {"tokenizer": tok, "text": text}).answer
    except ExerciseError:  # nothing the page can replay
        return []
    shown = min(step, n) - (1 if predicting and step else 0)
    facts: list[Fact] = [Value.of("replay_steps", tokenizer=tok, text=text)]
    facts += [Value.of("replay_merge", tokenizer=tok, text=text, step=k) for k in range(1, shown + 1)]
    return [*facts, Tokens(tok, text)] if step >= n else facts


def _bytes(params: dict) -> list[Fact]:
    """Bytes per character: every character of the text with its bytes (each view of it shows them: the table, the
    grapheme ladder, the byte ladder), the byte ladder's tokens and its count of tokens that are not whole characters
    (the worked examples, lesson 3's answers, are folded away)."""
    import lessons

    samples = {e["id"]: e["text"] for key in ("examples", "samples") for e in lessons.data("sample_texts")[key]}
    text = params.get("text", samples.get(params.get("sample", "indore-hi"), samples["indore-hi"]))
    tok = params.get(TOKENIZER_KEY, ANY)
    facts: list[Fact] = [Characters(text)]
    if params.get("part", "") in ("", "ladder"):
        facts += [Tokens(tok, text), Value.of("partial_tokens", tokenizer=tok, text=text)]
    return facts


def _real(params: dict) -> list[Fact]:
    """Real tokenizers: each tokenizer's count of the English and the Hindi sentence, and the premium."""
    pair = _pair()
    en, hi = params.get("en", pair["test_en"]), params.get("hi", pair["test_hi"])
    facts: list[Fact] = []
    for name in _names(params, "toks"):
        facts += [Value.of("count_tokens", tokenizer=name, text=en), Value.of("count_tokens", tokenizer=name, text=hi),
                  Value.of("premium", tokenizer=name, en=en, hi=hi)]
    return facts


def _english_hindi(params: dict) -> list[Fact]:
    """English vs Hindi (lesson 4's experiment, on the lesson's texts). It asks its two questions first, whatever the
    link sets: lesson 4's own exercises on the experiment (so the course need not ask them again), and until they
    are answered it shows only the lesson's first row, both test sentences' tokens with the one-copy preset. A
    course without those exercises: the page asks its own questions, and then shows every share's counts at the
    budget (the chart), and both sentences' tokens at the share on screen."""
    import lessons

    from .course import course

    if params.get("train", "lesson") != "lesson" or {"own_en", "own_hi", "en", "hi"} & set(params):
        return []
    lesson = lessons.presets()[lessons.LESSON4_PRESET]
    pair = _pair()
    first_row: list[Fact] = [Tokens(lessons.LESSON4_PRESET, pair["test_en"]),
                             Tokens(lessons.LESSON4_PRESET, pair["test_hi"])]
    if lessons.experiment_exercises(course().exercises) is not None:
        return first_row
    k = _int(params, "k", lessons.hindi_copies(lessons.LESSON4_PRESET) or 0)
    budget = _int(params, "budget", lesson.merges)
    facts: list[Fact] = list(first_row)
    for preset_id, preset in lessons.presets().items():
        copies = lessons.hindi_copies(preset_id)
        if copies is None or preset.merges != budget or preset.config != lesson.config:
            continue
        for text in (pair["test_en"], pair["test_hi"]):
            facts.append(Tokens(preset_id, text) if copies == k else Value.of("count_tokens", tokenizer=preset_id,
                                                                               text=text))
    return facts


def _beyond_hindi(params: dict) -> list[Fact]:
    """Beyond Hindi: for each language of the group (and English) and each tokenizer, tokens per character of its
    sample, so the characters any window holds (per character, on the long passages: the page's defaults)."""
    import lessons

    if params.get("per", "char") != "char" or params.get("sample", "long") != "long":
        return []
    spec, group = lessons.data("languages"), params.get("group", "all")
    ids = [spec["english"]["id"]] + [e["id"] for e in spec["languages"] if group == "all" or e.get("group") == group]
    return [Value.of("window_chars", language=lang, tokenizer=name, window=ANY)
            for lang in ids for name in _names(params, "toks")]


COST_INPUTS = {
    "article_cost": {"price_in", "price_out", "en_in", "hi_in", "en_out", "hi_out", "clean", "source"},
    "month_cost": {"price_in", "price_out", "en_in", "hi_in", "en_out", "hi_out", "per_day", "days", "source"},
    "window_fit": {"window", "cap", "margin", "en_in", "hi_in", "source"},
    "presend": {"window", "cap", "margin"}, "presend_cost": {"window", "cap", "margin", "price_in", "price_out"},
    "presend_tokens": {"window", "cap", "margin"},
    "decoding_steps": {"en_out", "hi_out", "source"},
}
"""The Cost page's settings each of its figures is computed from: a link that sets one of them shows that figure
for other inputs than the scenario's (the lesson's), so it gives none of the lesson's answers away."""


COST_PARTS = {"bill": {"article_cost", "month_cost"}, "window": {"window_fit"},
              "presend": {"presend", "presend_cost", "presend_tokens"}, "speed": {"decoding_steps"},
              "cleaning": {"article_cost:cleaned"}, "planning": set()}
"""The figures each part of the Cost page shows (a link that names a part opens it as a tab, the rest one click
away; with no part named, every part is on the page)."""


def _cost(params: dict) -> list[Fact]:
    """Cost, context and speed on the scenario: the figures of the part the link names, or of every part; the Hindi
    window only once predicted (predict first is on by default), the pre-send check for the link's prompt."""
    import lessons

    scenario = next(iter(lessons.cost_scenarios().values()))
    prompt = _int(params, "prompt", scenario["prompts"][0])
    part = params.get("part", "")
    drawn = COST_PARTS.get(part) if part else {f for figures in COST_PARTS.values() for f in figures}
    facts: list[Fact] = []

    def free(op: str) -> bool:
        return op in (drawn or ()) and not (COST_INPUTS[op.split(":")[0]] & set(params))

    for lang in scenario["languages"]:
        if free("article_cost"):
            facts += [Value.of("article_cost", language=lang, part=p) for p in ("total", "input", "output")]
            facts.append(Value.of("article_cost", language=lang))
        if free("article_cost:cleaned"):
            facts.append(Value.of("article_cost", language=lang, cleaned=True))
        if free("month_cost"):
            facts.append(Value.of("month_cost", language=lang))
        if free("window_fit") and (lang != "hindi" or not _on(params, "predict", True)):
            facts += [Value.of("window_fit", language=lang, what=what) for what in ("count", "used", "room")]
            facts.append(Value.of("window_fit", language=lang))
        if free("decoding_steps"):
            facts.append(Value.of("decoding_steps", language=lang))
    if free("presend"):
        facts.append(Value.of("presend", prompt=prompt))
        facts += [Value.of("presend_tokens", prompt=prompt, what=w) for w in ("needed", "over_by")]
        facts.append(Value.of("presend_tokens", prompt=prompt))
    if free("presend_cost"):
        facts.append(Value.of("presend_cost", prompt=prompt))
    return facts


def _streaming(params: dict) -> list[Fact]:
    """Streaming: how many of the text's tokens there are and how many are not whole characters (always stated), and
    the tokens (hidden while the learner predicts)."""
    text = params.get("text", _pair()["test_hi"])
    tok = params.get(TOKENIZER_KEY, ANY)
    stated: list[Fact] = [Value.of("partial_tokens", tokenizer=tok, text=text),
                          Value.of("count_tokens", tokenizer=tok, text=text)]
    return stated if _on(params, "predict", False) else [Tokens(tok, text), *stated]  # predicting: the chips wait


def _quirks(params: dict) -> list[Fact]:
    """Quirks: the open tab's texts, with each tokenizer picked (only the open tab is drawn)."""
    import lessons

    c = lessons.content("quirks")
    tab = params.get("quirk", c["spaces"]["tab"])
    names = _names(params, "toks")
    texts: list[str] = []
    if tab == c["spaces"]["tab"]:
        word = params.get("space_word", c["spaces"]["word"])
        texts = [word, " " + word, "\n" + word]
    elif tab == c["case"]["tab"]:
        word = params.get("case_word", c["case"]["word"])
        texts = [word.lower(), word.capitalize(), word.upper()]
    elif tab == c["join"]["tab"]:
        a, b = params.get("a", c["join"]["a"]), params.get("b", c["join"]["b"])
        texts = [a, b] + ([] if _on(params, "predict", True) else [a + b])
    elif tab == c["numbers"]["tab"]:
        texts = [params.get("number", c["numbers"]["number"])]
    elif tab == c["letters"]["tab"]:
        texts = [params.get("word", c["letters"]["word"])]
    elif tab == c["presplit"]["tab"]:
        texts = [params.get("sentence", c["presplit"]["text"])]
    return [Tokens(name, text) for name in names for text in texts]


def _family(params: dict) -> list[Fact]:
    """The family: the merges part shows BPE's and WordPiece's merges up to the step (before merge 1, each chart's
    top pair); the pipeline part a real tokenizer's tokens of its text; the special part how many tokens a special
    token's text is, typed."""
    import lessons

    part = params.get("part", "merges")
    if part == "merges":
        preset = params.get("preset", "chai")
        if preset not in lessons.presets() or {"text", "merges"} & set(params):
            return []
        upto = max(_int(params, "step", 0), 1)
        return [Merges(preset, upto, "count"), Merges(preset, upto, "score")]
    if part == "pipeline":
        return [Tokens(params.get(TOKENIZER_KEY, ANY), params.get("ptext", _pair()["test_hi"]))]
    if part == "special":
        return [Tokens(params.get("stok", ANY), params.get("special", "<|endoftext|>"))]
    return []


def _estimate(params: dict) -> list[Fact]:
    """Estimate: each model's count of the prompt and of its English version, and its Hindi premium on them."""
    import lessons

    example = lessons.examples("estimate")[0]
    text, english = params.get("text", example["text"]), params.get("en", example["english"])
    facts: list[Fact] = []
    for name in _names(params, "toks"):
        facts += [Value.of("count_tokens", tokenizer=name, text=text),
                  Value.of("count_tokens", tokenizer=name, text=english),
                  Value.of("premium", tokenizer=name, en=english, hi=text)]
    return facts


def _vocabulary(params: dict) -> list[Fact]:
    """Vocabulary by script: each chosen tokenizer's count of tokens of every script (the table, the script's
    metric); with two side by side on Devanagari, each one's count of lesson 4's sentence pair."""
    pair = _pair()
    names = [params.get(TOKENIZER_KEY, ANY)] + ([] if params.get("vs") == "none" else [params.get("vs", ANY)])
    facts: list[Fact] = [Value.of("script_tokens", tokenizer=name, script=ANY) for name in names]
    if len(names) == 2 and params.get("script", "Devanagari") == "Devanagari":
        facts += [Value.of("count_tokens", tokenizer=name, text=pair[k]) for name in names
                  for k in ("test_en", "test_hi")]
    return facts


PAGES: dict[str, Callable[[dict], list[Fact]]] = {
    "Tokenize_anything": _tokenize, "Train_step_by_step": _train, "Encode_step_by_step": _encode,
    "Bytes_per_character": _bytes, "Real_tokenizers": _real, "English_vs_Hindi": _english_hindi,
    "Beyond_Hindi": _beyond_hindi, "Cost_and_context": _cost, "Streaming": _streaming, "Quirks": _quirks,
    "The_family": _family, "Estimate": _estimate, "Vocabulary_by_script": _vocabulary,
    "Lessons": lambda params: [], "Class": lambda params: [],
}
"""What each page shows, by its URL path."""


def shows(link) -> list[Fact]:
    """What the page ``link`` opens shows (a ``lessons.course.Link``), as facts; [:class:`Unknown`] for a page the
    model does not know."""
    model = PAGES.get(link.page)
    return [Unknown(link.page)] if model is None else model(dict(link.params))


def exercise_answered_by(link, exercise) -> bool:
    """Whether the page ``link`` opens gives away the answer of ``exercise`` (a ``lessons.course.Exercise``)."""
    return answers(exercise.op, exercise.args, shows(link), exercise.tolerance)


__all__ = ["ANY", "Characters", "Fact", "Merges", "PAGES", "Tokens", "Unknown", "Value", "answers",
           "exercise_answered_by", "shows"]
