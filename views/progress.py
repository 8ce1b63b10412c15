"""Save and load a learner's progress (the Lessons page's "Your progress" box).

Saving: the file is built from the session's answers while the page runs, so it
holds every first answer of the session, from every page (a callable handed to
``st.download_button`` runs outside the session and would see none).

Loading: :mod:`lessons.progress` reads the file's guesses and nothing else; each
guess is then checked against its question here and judged again by the lab:

- ``lesson:…`` (an exercise) and ``practice:…`` (a generated question): the
  question is rebuilt from its key and the engine's answer; a guess that does not
  fit it (a text for a number, an option it does not offer…) is refused and named.
- English vs Hindi's two questions (fixed: the lesson's sweep): rebuilt, as above.
- Train's "which pair does merge k pick?" on a preset trained with its own
  settings (what every lesson link opens): rebuilt and judged, as above.
- Questions a lab page makes from the learner's own input (Train on their text
  or settings, a Tokenize count, a Streaming token…): their key holds only a
  digest of that input, so the question cannot be rebuilt here. The guess must have the type of
  the page's questions; it is kept *waiting*, counted in no score, and judged when
  the page asks that question again (:func:`ui.predict.ask`), or set aside there
  if it does not fit.
- Any other key is no question of this lab: refused.

An answer already given in this session is never replaced: the first counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import streamlit as st

from lessons.course import course
from lessons.exercises import ExerciseError
from lessons.progress import from_json, merge, to_json
from ui import predict, presets, state
from ui.display import callout_html, join_words, plural
from ui.uploads import uploaded_bytes


@dataclass(frozen=True)
class Waiting:
    """A family of page questions that cannot be rebuilt from their key (it does not hold all their input):
    the kind their guesses have, their scope and the page that asks them."""

    pattern: re.Pattern
    kind: str
    scope: str
    page: str


_HEX = "[0-9a-f]"
WAITING = (
    Waiting(re.compile(rf"train:{_HEX}{{16}}:\d{{1,5}}"), "choice", "train", "Train step by step"),
    Waiting(re.compile(rf"tokenize:[\w.\-]{{1,80}}:{_HEX}{{12}}"), "number", "tokenize", "Tokenize anything"),
    Waiting(re.compile(rf"streaming-page:{_HEX}{{16}}:\d{{1,6}}"), "choice", "streaming-page", "Streaming"),
    Waiting(re.compile(rf"quirks-page:join:{_HEX}{{16}}"), "number", "quirks-page", "Quirks"),
    Waiting(re.compile(r"cost\.fit\.\d{1,12}\.\d{1,12}\.\d{1,12}\.\d{1,12}"), "number", "cost", "Cost and context"),
)
"""Page questions whose key holds only a digest of the learner's input, or not all of it (kept waiting)."""

_TRAIN = re.compile(rf"train:({_HEX}{{16}}):(\d{{1,5}})")
_PRACTICE_MERGE = re.compile(r"practice:merge:([\w-]{1,40}):(\d{1,5})")
_PRACTICE_COUNT = re.compile(r"practice:count:([\w-]{1,40}):([a-z]{1,60})")


_NO_QUESTION = object()  # a key of a known run naming a merge it does not have


def question_for(key: str) -> predict.Question | Waiting | None:
    """The question a saved answer's key names: rebuilt with its computed answer, or the :class:`Waiting`
    family of a page question, or None when no question of this lab has that key.
    Raises ExerciseError when the question exists but cannot be computed here."""
    from views import lessons as lv

    if key.startswith("lesson:"):
        exercise = next((e for e in course().exercises if f"lesson:{e.key}" == key), None)
        return lv.question(exercise) if exercise else None
    if m := _PRACTICE_MERGE.fullmatch(key):
        preset_id, step = m[1], int(m[2])
        if preset_id not in lv.PRACTICE_PRESETS or not 1 <= step <= len(lv.preset_trace(preset_id).steps):
            return None
        return lv.practice_merge_question(preset_id, step)
    if m := _PRACTICE_COUNT.fullmatch(key):
        preset_id, word = m[1], m[2]
        if preset_id not in lv.COUNT_PRESETS or word not in lv.unseen_words(preset_id):
            return None
        return lv.practice_count_question(preset_id, word)
    if key.startswith("evh."):  # English vs Hindi's two fixed questions
        from views import english_hindi

        return next((q for q in english_hindi.questions() if q.key == key), None)
    if (m := _TRAIN.fullmatch(key)) and (q := _preset_train_question(m[1], int(m[2]))) is not None:
        return None if q is _NO_QUESTION else q
    return next((w for w in WAITING if w.pattern.fullmatch(key)), None)


def _preset_train_question(run: str, k: int) -> predict.Question | object | None:
    """Train's "which pair does merge k pick?" when ``run`` is a preset trained with its own settings (what
    every lesson link opens): rebuilt as the page builds it. None when the run is not a preset's (another
    corpus or settings: the answer waits for the page); a preset's merge that does not exist: no question."""
    from views import train as tv
    from ui.training import trained

    preset = _preset_runs().get(run)
    if preset is None:
        return None
    corpus, settings = preset
    trace = trained(corpus, settings.merges, **settings.config().to_dict())
    if not 1 <= k <= len(trace.steps):
        return _NO_QUESTION
    return tv.guess_question(run, trace, k)


@lru_cache(maxsize=1)
def _preset_runs() -> dict[str, tuple]:
    """Train's run key of every preset with its own settings -> (corpus, settings)."""
    import lessons
    from views import train as tv

    runs = {}
    for preset_id, preset in lessons.presets().items():
        settings = presets.preset_settings(preset_id)
        runs[tv.run_key(preset.corpus, settings)] = (preset.corpus, settings)
    return runs


def check(guesses: dict[str, Any]) -> tuple[dict[str, dict], list[tuple[str, str]]]:
    """Each loaded guess checked against its question: (store entries for those that fit, judged by the lab,
    or waiting; refused (key, why) for the rest)."""
    entries: dict[str, dict] = {}
    refused: list[tuple[str, str]] = []
    for key, guess in guesses.items():
        try:
            q = question_for(key)
        except ExerciseError as exc:
            refused.append((key, f"its question cannot be computed here ({exc})"))
            continue
        if q is None:
            refused.append((key, "no question in this lab has this name"))
            continue
        if isinstance(q, Waiting):  # the guess's type only; judged on its page
            shape = predict.Question(key, "", q.kind, 0 if q.kind == "number" else guess)
            problem = predict.fits(shape, guess)
            entry = {"guess": guess, "right": None, "scope": q.scope}
        else:
            problem = predict.fits(q, guess)
            entry = {"guess": guess, "right": predict.judge(q, guess)[0], "scope": q.scope}
        if problem:
            refused.append((key, problem))
        else:
            entries[key] = entry
    return entries, refused


def load(data: bytes | str, current: dict[str, dict]) -> tuple[dict[str, dict], list[tuple[str, str]], str]:
    """A progress file's answers added to ``current``: (the new store, what was refused, a sentence saying
    what was added). Raises ValueError (with the reason) when the file is not a progress file."""
    loaded = from_json(data)
    entries, refused = check(loaded.guesses)
    refused = loaded.refused + refused
    merged, added, kept = merge(current, entries)
    right = sum(1 for k in added if merged[k]["right"] is True)
    judged = sum(1 for k in added if merged[k]["right"] is not None)
    parts = [f"{plural(len(added), 'answer')} added: {right} of {judged} right, as the lab judges them now"]
    if judged < len(added):
        pages = sorted({w.page for k in added if merged[k]["right"] is None
                        for w in WAITING if w.pattern.fullmatch(k)})
        parts.append(f"{plural(len(added) - judged, 'answer')} from {join_words(pages)} will be checked when you "
                     "open that page with the same text and settings")
    if kept:
        parts.append(f"{plural(len(kept), 'answer')} you had already given here kept as you gave "
                     f"{'it' if len(kept) == 1 else 'them'}")
    return merged, refused, "; ".join(parts) + "."


def name(key: str) -> str:
    """An answer's key as a learner reads it: a lesson exercise by its lesson and number, else the key itself.

    >>> name("lesson:bpe-training:xylophone-tokens"), name("made-up")
    ('Lesson 2, exercise 6 (xylophone-tokens)', '“made-up”')
    """
    for lesson in course().lessons:
        for number, exercise in enumerate(lesson.exercises, start=1):
            if key == f"lesson:{exercise.key}":
                return f"Lesson {lesson.number}, exercise {number} ({exercise.id})"
    return f"“{key[:80]}{'…' if len(key) > 80 else ''}”"


def refused_text(refused: list[tuple[str, str]], show: int = 5) -> str:
    """The refused answers, named (the first few), for a message."""
    lines = [f"• {name(key)}: {why}" for key, why in refused[:show]]
    if len(refused) > show:
        lines.append(f"… and {len(refused) - show:,} more.")
    return (f"{plural(len(refused), 'answer')} in the file {'was' if len(refused) == 1 else 'were'} refused "
            "(nothing you had answered is changed):\n" + "\n".join(lines))


def load_key(page: str) -> state.Key:
    """The progress file box on ``page``."""
    return state.Key(page, "load")


def draw(page: str) -> None:
    """The save button and the load box (inside the page's "Worksheets and your progress" expander). The file's
    text is made now, while the page runs in the session: a callable given to st.download_button would run
    outside it and see no answers."""
    store = st.session_state.get(predict.STORE, {})
    st.download_button("Save my progress", to_json(store), "tokenization-lab-progress.json", "application/json",
                       key=f"{page}.save", on_click="ignore", icon=":material/save:",
                       help=f"A file with your {plural(len(store), 'answer')} in this browser session, from every "
                       "page.")

    def _load() -> None:
        file = st.session_state.get(load_key(page).skey)
        if file is None:
            return
        try:
            merged, refused, summary = load(file.getvalue(), st.session_state.get(predict.STORE, {}))
        except ValueError as exc:
            st.session_state[f"{page}._load_message"] = [("warning", f"“{file.name}” was not loaded: {exc} "
                                                          "Your current progress is kept as it was.")]
            return
        grew = len(merged) > len(st.session_state.get(predict.STORE, {}))
        st.session_state[predict.STORE] = merged
        messages = [("success" if grew else "info", f"Loaded “{file.name}”: {summary}")]
        if refused:
            messages.append(("warning", refused_text(refused)))
        st.session_state[f"{page}._load_message"] = messages

    uploaded_bytes("Load a progress file", key=load_key(page).skey, types=["json"], limit_mb=2, on_change=_load)
    for kind, text in st.session_state.pop(f"{page}._load_message", []):
        st.html(callout_html(text, kind))


__all__ = ["WAITING", "Waiting", "check", "draw", "load", "name", "question_for", "refused_text"]
