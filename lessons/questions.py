"""Every predict-first question the lab asks, built from its id, in plain code: no UI.

Each builder makes the :class:`lessons.judging.Question` a page asks, with the engine's answer: Train's "which pair
does merge k pick?" (:func:`guess_question`, on a run named by :func:`run_key`), a lesson exercise
(:func:`exercise_question`), the Lessons page's generated practice (:func:`practice_merge`,
:func:`practice_count`), English vs Hindi's two directions (:func:`direction_questions`), Cost's window
(:func:`fit_question`), Encode's next merge (:func:`encode_question`). :func:`resolve` turns a saved question id
(:class:`lessons.progress.QuestionId`) back into its question, so a loaded progress file is judged without the UI
kit (tests/test_progress.py checks that judging one loads no Streamlit).

What a question costs to build (an exercise's computed answer, a preset's training, lesson 4's sweep) or what only
a session knows (a lesson file opened in it, a class's own questions) comes from its :class:`Sources`: plain and
uncached here (:data:`PLAIN`); the pages pass the UI kit's cached ones (:mod:`ui.questions`, which holds only those
caches).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import lessons
from analyses.cost import CostInputError, Fit, window_fit
from analyses.experiment import Sweep
from i18n import N_, _, _n, decimal, number
from tokenizer import Trace
from tokenizer.plaintext import pair_text, visible_token

from . import experiment as evh
from .course import Exercise, course
from .exercises import Computed, ExerciseError, compute, preset_trace, tie_explanation
from .judging import Question
from .progress import (
    COST_FIT,
    ENCODE_MERGE,
    EVH_DIRECTION,
    LESSON_EXERCISE,
    PRACTICE_COUNT,
    PRACTICE_MERGE,
    QUESTIONS,
    TRAIN_MERGE,
    WAITS,
    QuestionId,
    Waits,
    migrate_v1_key,
)

GUESS_OPTIONS = 5  # pairs offered in Train's "predict first"
TRAIN_SCOPE = QUESTIONS[TRAIN_MERGE].scope
PRACTICE_SCOPE = "practice"


# -- where the costly parts come from ----------------------------------------------------------------------------
def _computed(exercise: Exercise) -> Computed:
    return compute(exercise.op, exercise.args)


def _nowhere(lesson: str, exercise: str) -> Exercise | None:
    return None


@dataclass(frozen=True)
class Sources:
    """What building a question takes that is costly, or that only a session knows."""

    computed: Callable[[Exercise], Computed] = _computed
    """An exercise's computed answer."""
    preset_trace: Callable[[str], Trace] = preset_trace
    """A preset's training run, with its own settings (what Train shows for it)."""
    sweep: Callable[[evh.Texts], Sweep] = evh.sweep_of
    """Lesson 4's sweep over the Hindi share."""
    outside: Callable[[str, str], Exercise | None] = _nowhere
    """An exercise (lesson id, exercise id) of a lesson outside the course: a lesson file opened in this session, a
    class's own questions. None: there is none (with no session, there is none)."""


PLAIN = Sources()
"""Plain sources: computed when asked (a preset's training is kept, :func:`lessons.exercises.preset_trace`)."""


# -- Train: which pair does merge k pick? --------------------------------------------------------------
def run_key(corpus: str, config: dict[str, Any], merges: int) -> str:
    """A short id of a training run (corpus, the trainer's settings as :meth:`tokenizer.TrainConfig.to_dict` gives
    them, merges) that outlives the server: it names the run's "predict first" questions in saved progress
    (``train:<run>:<k>``, rebuilt by :func:`resolve`) and the session model Train keeps."""
    digest = hashlib.sha1(corpus.encode("utf-8", "surrogatepass"))
    digest.update(json.dumps(config | {"merges": merges}, sort_keys=True).encode())
    return digest.hexdigest()[:16]


# "seen N times" and the tie sentence (tie_explanation, times) are the engine's words for a trace, in
# lessons.exercises: one copy, used by Train and by a "which pair merges" question on a teacher's own corpus.


def merge_question(trace: Trace, k: int, qid: QuestionId, scope: str = TRAIN_SCOPE) -> Question:
    """"Which pair does merge k pick?": the top pairs of the table, in alphabetical order (not by count).
    A pair tied with the winner counts as right, and the answer says how the tie was broken. ``qid``: the
    question's id (Train's, a practice question's)."""
    step = trace.steps[k - 1]
    labels: list[str] = []
    by_pair: dict[tuple[int, int], str] = {}
    for pc in step.table[:GUESS_OPTIONS]:
        label = pair_text(pc.left, pc.right)
        if label in labels:  # two different pairs that look the same: tell them apart
            label += f" (ids {pc.pair[0]}, {pc.pair[1]})"  # an option's value (judged, kept): one language
        labels.append(label)
        by_pair[pc.pair] = label
    winner = by_pair.get(step.pair, pair_text(step.left, step.right))
    tied = tuple(by_pair[t.pair] for t in step.ties if t.pair in by_pair and t.pair != step.pair)
    counts = "; ".join(by_pair[pc.pair] + ": " + _n("{n} time", "{n} times", pc.count)  # times(), translated
                       for pc in step.table[:GUESS_OPTIONS])
    return Question(
        key="",
        id=qid,
        prompt=_("Which pair does merge {k} pick? Count each word as many times as it occurs.", k=number(k)),
        kind="choice",
        answer=winner,
        options=tuple(sorted(labels, key=str.casefold)),
        also_right=tied,
        explain=_("Counted before the merge: {counts}.", counts=counts),
        explain_also_right=tie_explanation(trace, k),
        scope=scope,
    )


def guess_question(run: str, trace: Trace, k: int) -> Question:
    """"Which pair does merge k pick?" on Train, for the run (:func:`run_key`) and its step k."""
    return merge_question(trace, k, QuestionId.of(TRAIN_MERGE, run=run, step=k))


# -- a lesson's exercises ------------------------------------------------------------------------------
def exercise_question(exercise: Exercise, sources: Sources = PLAIN) -> Question:
    """A lesson exercise as the predict widget asks it, with the engine's answer (raises ExerciseError when it
    cannot be computed here)."""
    c = sources.computed(exercise)
    return Question(
        key="",
        id=QuestionId.of(LESSON_EXERCISE, lesson=exercise.lesson, exercise=exercise.id),
        prompt=exercise.prompt,
        kind=exercise.kind,
        answer=c.answer,
        options=c.options,
        also_right=c.also_right,
        explain=(exercise.explain + (f" {c.facts}" if c.facts else "")).strip(),
        explain_also_right=(c.facts or exercise.explain),
        tolerance=exercise.tolerance,
        exact=c.exact,
        unit=exercise.unit,
        scope=exercise.lesson,
        hint=exercise.hint,
        check=c.check,
        more=c.more,
    )


# -- the Lessons page's generated practice ------------------------------------------------------------
PRACTICE_PRESETS = ("news", "low", "play", "chai", "readers", "lowmarker")


def practice_merge(seed: int) -> Question:
    """ "Which pair merges next?" for a preset and step picked by ``seed``, distractors from the pair table."""
    rng = random.Random(seed)
    preset_id = rng.choice(PRACTICE_PRESETS)
    step = rng.randint(1, len(preset_trace(preset_id).steps))
    return practice_merge_question(preset_id, step)


def practice_merge_question(preset_id: str, step: int) -> Question:
    """The practice question "which pair does merge ``step`` of the preset pick?" (its key names both)."""
    q = merge_question(preset_trace(preset_id), step, QuestionId.of(PRACTICE_MERGE, preset=preset_id, step=step),
                       scope=PRACTICE_SCOPE)
    title = lessons.presets()[preset_id].title
    return replace(q, prompt=_("{title}: which pair does merge {step} pick? Count each word as many times as it "
                               "occurs, in the corpus as it stands after the merges before it.", title=title,
                               step=number(step)))


def unseen_words(preset_id: str) -> list[str]:
    """Words of the parallel English sentences that the preset's corpus never had."""
    corpus = set(lessons.presets()[preset_id].corpus.lower().split())
    words: list[str] = []
    for pair in lessons.data("parallel_en_hi")["pairs"]:
        for word in re.findall(r"[A-Za-z]+", pair["en"]):
            if word.lower() not in corpus and len(word) > 3 and word.lower() not in words:
                words.append(word.lower())
    return words


COUNT_PRESETS = ("chai", "readers", "news")


def practice_count(seed: int) -> Question:
    """ "How many tokens?" for a word the preset's corpus never had."""
    rng = random.Random(seed)
    preset_id = rng.choice(COUNT_PRESETS)
    return practice_count_question(preset_id, rng.choice(unseen_words(preset_id)))


def practice_count_question(preset_id: str, word: str) -> Question:
    """The practice question "how many tokens is ``word``?" with the preset's merges (its key names both)."""
    c = compute("count_tokens", {"tokenizer": preset_id, "text": word})
    title = lessons.presets()[preset_id].title
    return Question(
        key="", id=QuestionId.of(PRACTICE_COUNT, preset=preset_id, word=word),
        prompt=_("With the merges of “{title}”, how many tokens is “{word}”, a word its corpus never had?",
                 title=title, word=word), kind="number", answer=c.answer, unit=N_("tokens"),
        explain=_("An unseen word is cut into the pieces the merges can build: {facts}", facts=c.facts),
        scope=PRACTICE_SCOPE)


# -- English vs Hindi: which way does each count move? ------------------------------------------------
DIRECTIONS = (N_("goes down"), N_("stays the same"), N_("goes up"))
"""The options of a "which way does it move" question: kept and judged as written here, shown in the learner's
language (``Question.lab_options``, :func:`ui.answers.option_text`)."""


def direction(before: int, after: int) -> str:
    return DIRECTIONS[(after > before) - (after < before) + 1]


def _experiment_points(sources: Sources) -> tuple:
    """Lesson 4's experiment at its two presets' shares and budget: (before, after, budget) points of the sweep."""
    s = sources.sweep(evh.lesson_texts())
    lo, hi, budget = evh.preset_copies(evh.LESSON_PRESET), evh.preset_copies(evh.FAIR_PRESET), evh.lesson_budget()
    return s.point(lo, budget), s.point(hi, budget), lo, hi, budget


def experiment_why(sources: Sources = PLAIN) -> str:
    """Why both counts move when Hindi gets an equal share: where the fixed budget's merges went (plain text)."""
    before, after, _lo, _hi, budget = _experiment_points(sources)
    gained = after.by_script["Devanagari"] - before.by_script["Devanagari"]
    return _("Hindi now wins {after} of the {budget} merges instead of {before}; the budget is fixed, so those "
             "{gained} merges came out of English's share.", after=number(after.by_script["Devanagari"]),
             budget=number(budget), before=number(before.by_script["Devanagari"]), gained=number(gained))


def direction_questions(sources: Sources = PLAIN) -> tuple[Question, Question]:
    """'Give Hindi an equal share: which way does each count move?' (Hindi's, then English's), answered by the
    lesson's sweep (:func:`lessons.experiment.sweep_of`). English vs Hindi asked these before it asked lesson 4's
    own exercises (:func:`experiment_questions`); they stay, so a progress file that holds their answers still loads."""
    before, after, lo, hi, budget = _experiment_points(sources)
    setting = _("Give Hindi an equal share of the training text: {hi} copies of the Hindi paragraph instead of "
                "{lo}, as many as English has. The merge budget stays {budget}.", hi=number(hi), lo=number(lo),
                budget=number(budget))
    why = experiment_why(sources)
    hindi_q = Question(
        key="", id=QuestionId.of(EVH_DIRECTION, sentence="hindi"), scope=evh.EVH_PAGE, kind="choice",
        options=DIRECTIONS, lab_options=True, prompt=setting + " " + _("Does the Hindi sentence's token count go up or down?"),
        answer=direction(before.hindi_tokens, after.hindi_tokens),
        explain=_("The Hindi sentence goes from {before} tokens to {after} ({per_before} → {per_after} per word).",
                  before=number(before.hindi_tokens), after=number(after.hindi_tokens),
                  per_before=decimal(before.hindi_per_word, 1), per_after=decimal(after.hindi_per_word, 1)) + " " + why,
    )
    english_q = Question(
        key="", id=QuestionId.of(EVH_DIRECTION, sentence="english"), scope=evh.EVH_PAGE, kind="choice",
        options=DIRECTIONS, lab_options=True, prompt=_("And the English sentence's token count?"),
        answer=direction(before.english_tokens, after.english_tokens),
        explain=_("The English sentence goes from {before} tokens to {after} ({per_before} → {per_after} per word).",
                  before=number(before.english_tokens), after=number(after.english_tokens),
                  per_before=decimal(before.english_per_word, 2), per_after=decimal(after.english_per_word, 2))
        + " " + why,
    )
    return hindi_q, english_q


def experiment_questions(sources: Sources = PLAIN) -> tuple[Question, Question]:
    """What English vs Hindi asks first: lesson 4's own exercises on its experiment, the Hindi sentence's direction
    and then the English one's (the course's exercises whose answer is which way a test sentence's count moves from
    the one-copy preset to the fair-share one), so an answer there is the lesson's answer and no question is asked
    twice. A course without them: the page's own :func:`direction_questions`."""
    found = lessons.experiment_exercises(course().exercises)
    if found is None:
        return direction_questions(sources)
    try:
        return exercise_question(found[0], sources), exercise_question(found[1], sources)
    except ExerciseError:
        return direction_questions(sources)


def fit_question(fit: Fit) -> Question:
    """Cost's "how many whole articles fit in the window?" for one window, reply cap, margin and article size: all
    numbers, so a loaded answer is judged at once (:func:`resolve`), not when the page asks again."""
    return Question(
        key="", id=QuestionId.of(COST_FIT, window=fit.window, output_cap=fit.output_cap, margin=fit.margin,
                                 each=fit.each),
        prompt=_("How many whole Hindi articles of {each} tokens fit in a {window}-token window, keeping {cap} tokens "
                 "for the reply and a {margin}-token margin?", each=number(fit.each), window=number(fit.window),
                 cap=number(fit.output_cap), margin=number(fit.margin)),
        kind="number", answer=fit.count, unit=N_("articles"), scope="cost",
        explain=_n("{room} tokens of room ÷ {each} tokens an article = {exact}, so {n} whole article ({used} tokens).",
                   "{room} tokens of room ÷ {each} tokens an article = {exact}, so {n} whole articles ({used} tokens).",
                   fit.count, room=number(fit.room), each=number(fit.each), exact=decimal(fit.exact, 2),
                   used=number(fit.used)),
    )


# -- Encode step by step: which pair merges next? ------------------------------------------------------
ENCODE_OPTIONS = 5


def encode_question(tokenizer_key: str, trace: Any, step: int, text_digest: str) -> Question:
    """"Which pair merges next?" before merge ``step`` of a replay (a lab model's :class:`tokenizer.replay.EncodeTrace`
    or a production tokenizer's :class:`family.merges.Replay`): the neighbouring pairs of the text (of the piece being
    merged, for a production tokenizer), the one that fires among them; its id keeps the text's digest (12 hex
    digits), never the text."""
    candidates = trace.candidates(step)[:ENCODE_OPTIONS]
    labels: list[str] = []
    for _rank, left, right, left_label, right_label in candidates:
        label = pair_text(left_label, right_label)
        if label in labels:
            label += f" (ids {left}, {right})"
        labels.append(label)
    s = trace.steps[step - 1]
    answer = labels[[(c[1], c[2]) for c in candidates].index(s.pair)]
    production = hasattr(trace, "inside")
    ranks = "; ".join(label + ": " + ((_("rank {rank}", rank=number(c[0])) if production
                                       else _("merge #{n}", n=number(c[0] + 1))) if c[0] is not None
                                      else _("no merge")) for label, c in zip(labels, candidates))
    rule = (_("BPE merges the pair whose joined token has the lowest rank first, inside one pre-split piece at a "
              "time.") if production else _("The merges fire in the order they were learned."))
    piece = visible_token(trace.pieces[s.piece]) if production and len(trace.pieces) > 1 else None
    return Question(
        key="", id=QuestionId.of(ENCODE_MERGE, tokenizer=tokenizer_key, text=text_digest, step=step),
        prompt=(_("Step {step}: which pair merges next in “{piece}”?", step=number(step), piece=piece) if piece
                else _("Step {step}: which pair merges next?", step=number(step))), kind="choice", answer=answer,
        options=tuple(sorted(labels, key=str.casefold)), scope=QUESTIONS[ENCODE_MERGE].scope,
        explain=rule + " " + _("Here: {ranks}.", ranks=ranks),
        hint=_("A common pair was merged early: its rank is low. Bytes of one letter join before letters join."),
    )


# -- a saved id, back to its question ------------------------------------------------------------------
def resolve(qid: QuestionId, sources: Sources = PLAIN) -> Question | Waits | None:
    """The question ``qid`` names as the lab asks it now (with its computed answer), or :data:`WAITS` for a
    question made from the learner's input (judged on its page), or None when the lab has no such question.
    Raises ExerciseError when the question exists but cannot be computed here."""
    if qid.name == LESSON_EXERCISE:
        lesson, ex_id = qid.param("lesson"), qid.param("exercise")
        exercise = next((e for e in course().exercises if e.lesson == lesson and e.id == ex_id), None) or next(
            (e for e in course().exercises if e.lesson == lesson and ex_id in e.former_ids), None)
        if exercise is None and course().lesson(lesson) is None:  # a lesson file opened here, the class's own
            exercise = sources.outside(lesson, ex_id)
        return exercise_question(exercise, sources) if exercise else None
    if qid.name == PRACTICE_MERGE:
        preset_id, step = qid.param("preset"), qid.param("step")
        if preset_id not in PRACTICE_PRESETS or not 1 <= step <= len(preset_trace(preset_id).steps):
            return None
        return practice_merge_question(preset_id, step)
    if qid.name == PRACTICE_COUNT:
        preset_id, word = qid.param("preset"), qid.param("word")
        if preset_id not in COUNT_PRESETS or word not in unseen_words(preset_id):
            return None
        return practice_count_question(preset_id, word)
    if qid.name == EVH_DIRECTION:
        return next((q for q in direction_questions(sources) if q.id == qid), None)
    if qid.name == TRAIN_MERGE:
        return _preset_train_question(qid.param("run"), qid.param("step"), sources)
    if qid.name == COST_FIT:
        try:
            fit = window_fit(qid.param("each"), window=qid.param("window"), output_cap=qid.param("output_cap"),
                             margin=qid.param("margin"))
        except CostInputError:  # no window a page could ask about
            return None
        return fit_question(fit)
    return WAITS if qid.family.waits else None


def from_key(key: str, sources: Sources = PLAIN) -> Question | None:
    """The question a saved key names (a class poll's id, an answer kept on the server), rebuilt by the lab with
    its computed answer; None when it cannot be rebuilt here (no such question, one made from the learner's own
    input that waits for its page, or one that cannot be computed)."""
    qid = migrate_v1_key(key)
    try:
        q = resolve(qid, sources) if qid else None
    except ExerciseError:
        return None
    return q if isinstance(q, Question) else None


def _preset_train_question(run: str, k: int, sources: Sources) -> Question | Waits | None:
    """Train's "which pair does merge k pick?" when ``run`` is a preset trained with its own settings (what
    every lesson link opens): rebuilt as the page builds it. WAITS when the run is not a preset's (another
    corpus or settings: the answer waits for the page); a preset's merge that does not exist: None."""
    preset_id = preset_runs().get(run)
    if preset_id is None:
        return WAITS
    trace = sources.preset_trace(preset_id)
    if not 1 <= k <= len(trace.steps):
        return None
    return guess_question(run, trace, k)


@lru_cache(maxsize=1)
def preset_runs() -> dict[str, str]:
    """Train's run key of every preset with its own settings -> the preset's id."""
    return {run_key(p.corpus, p.train_kwargs(), p.merges): preset_id for preset_id, p in lessons.presets().items()}


__all__ = ["COUNT_PRESETS", "DIRECTIONS", "ENCODE_OPTIONS", "GUESS_OPTIONS", "PLAIN", "PRACTICE_PRESETS",
           "PRACTICE_SCOPE", "TRAIN_SCOPE", "Sources", "direction", "direction_questions", "encode_question",
           "exercise_question", "experiment_questions", "experiment_why", "fit_question", "from_key",
           "guess_question", "merge_question", "practice_count", "practice_count_question", "practice_merge",
           "practice_merge_question", "preset_runs", "resolve", "run_key", "unseen_words"]
