"""Progress that keeps itself: a learner's own answers kept in this browser, with nothing to press.

Where they are kept, and why there (README, "Your progress: kept in this browser"): in the browser's local storage,
through a small component of the lab's own (Streamlit's components v2: a few lines of JavaScript in the page, no
iframe, no package), rather than on the server behind a resume code as a class keeps its answers:

- a self-paced learner has no account and no class, and nothing of theirs has to be stored, guarded, bounded and
  purged on a server anyone may open; the answers stay on the learner's own device, with the learner;
- it works the same with ``scripts/run`` on a laptop and behind ``scripts/serve`` (no shared database needed);
- what is kept is the progress file's own text (:mod:`lessons.progress`): read back, it is checked and judged
  again exactly as a file is (:func:`load`), and the file stays for moving to another machine.

What keeps them apart from a class's: a class keeps its learners' answers on its server; ``ui.predict`` keeps one
store per context, so joining a class puts one's own answers aside and leaving it brings them back, and only one's
own answers (:func:`ui.predict.own_answers`) are kept here. Nothing is kept while the browser is in a class.

What it costs a visit: nothing for a browser that keeps nothing. A cookie with no data in it (``tl_progress=1``, set
by the component when it keeps something) tells the server that this browser keeps answers; only then is the
component mounted on a session's first run, to read them back (one more run of the page, once a session). Once
there is something to keep it stays mounted, and writes the answers whenever they change (the browser merges them
with what it keeps, so two tabs do not undo each other).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import streamlit as st

from i18n import _, _n
from lessons.exercises import ExerciseError
from lessons.progress import MAX_BYTES, NO_QUESTION, VERSION, check, from_json, merge, to_json
from ui import classroom, predict
from ui.display import join_words, plural
from ui.questions import resolve
from ui.state import Key

STORAGE_KEY = "tokenization-lab.progress"
"""The browser's local storage item that holds the answers: a progress file's text."""
COOKIE = "tl_progress"
"""Set (to 1, no data) while the browser keeps answers: the server mounts the component to read them only then."""
DAYS = 365
"""How long the cookie lasts without a new answer (local storage itself does not expire)."""
PAGE = "keep"
KEEPER = Key(PAGE, "keeper")
"""The component's key."""
READ = Key(PAGE, "read")
"""This session has read (or had nothing to read of) what the browser keeps."""
WRITTEN = Key(PAGE, "written")
"""(digest of the answers, the text to write): the answers as they are kept now."""
FORGET = Key(PAGE, "forget")
"""Set by "Start over": the next run tells the browser to forget what it keeps."""
NOTE = Key(PAGE, "note")
"""(kind, text) to tell the learner once: answers read back, or why the browser keeps none."""

_JS = """
export default function(component) {
  const { data, setTriggerValue } = component;
  const KEY = data.key, COOKIE = data.cookie;
  try {
    if (data.forget) {
      localStorage.removeItem(KEY);
      document.cookie = COOKIE + '=; path=/; max-age=0; SameSite=Lax';
    }
    if (data.write) {
      // this session's answers, and any this browser kept that the session has not (another tab's)
      const mine = JSON.parse(data.write);
      let kept = null;
      try { kept = JSON.parse(localStorage.getItem(KEY) || 'null'); } catch (e) { kept = null; }
      const id = (a) => a && (a.question + ' ' + JSON.stringify(a.params));
      const have = new Set(mine.answers.map(id));
      if (kept && Array.isArray(kept.answers)) {
        mine.answers = mine.answers.concat(kept.answers.filter((a) => a && !have.has(id(a))));
      }
      localStorage.setItem(KEY, JSON.stringify(mine));
      document.cookie = COOKIE + '=1; path=/; max-age=' + data.days * 86400 + '; SameSite=Lax';
    }
    if (data.read) setTriggerValue('kept', localStorage.getItem(KEY) || '');
  } catch (e) {
    setTriggerValue('problem', String(e && e.name || e));  // storage off (a private window) or full
  }
}
"""

_component = st.components.v2.component("tl_keep", js=_JS)


def load(data: bytes | str, current: dict[str, dict]) -> tuple[dict[str, dict], list[tuple[str, str]], str]:
    """A progress file's answers (or what the browser kept, the same text) added to ``current``: (the new store,
    what was refused as (which, why), a sentence saying what was added). Raises ValueError (with the reason) when
    it is not a progress file. Every guess is checked against its question and judged by the lab
    (:func:`lessons.progress.check`); an answer already given stays as it was."""
    loaded = from_json(data)
    entries, refused = check(loaded.answers, resolve, (ExerciseError,))
    refused = loaded.refused + refused
    merged, added, kept = merge(current, entries)
    right = sum(1 for k in added if merged[k]["right"] is True)
    judged = sum(1 for k in added if merged[k]["right"] is not None)
    parts = [f"{plural(len(added), 'answer')} added: {right} of {judged} right, as the lab judges them now"]
    if judged < len(added):
        pages = sorted({merged[k]["id"].family.page for k in added if merged[k]["right"] is None})
        parts.append(f"{plural(len(added) - judged, 'answer')} from {join_words(pages)} will be checked when you "
                     "open that page with the same text and settings")
    if kept:
        parts.append(f"{plural(len(kept), 'answer')} you had already given here kept as you gave "
                     f"{'it' if len(kept) == 1 else 'them'}")
    gone = [which for which, why in refused if why == NO_QUESTION]
    if gone:
        parts.append(f"{plural(len(gone), 'answer')} {'is' if len(gone) == 1 else 'are'} to a question this lab no "
                     f"longer has ({', '.join(gone[:3]) + ', …' if len(gone) > 3 else join_words(gone)})")
    text = "; ".join(parts) + "."
    if loaded.version < VERSION:
        text += f" The file was saved by an earlier version of the lab (file format {loaded.version}) and read as such."
    return merged, refused, text


def _digest(answers: dict[str, dict[str, Any]]) -> str:
    rows = sorted((e["id"].key, json.dumps(e.get("guess"), sort_keys=True)) for e in answers.values()
                  if e.get("id") is not None)
    return hashlib.sha1(json.dumps(rows).encode("utf-8", "surrogatepass")).hexdigest()


def _read_back() -> None:
    """on_kept_change: what the browser kept, back into the learner's own answers (judged as a file's are)."""
    st.session_state[READ.skey] = True
    text = getattr(st.session_state.get(KEEPER.skey), "kept", None)
    if not text:
        return
    try:
        merged, _refused, _said = load(text, predict.own_answers())
    except ValueError as exc:
        st.session_state[NOTE.skey] = ("warning", _("The answers this browser kept could not be read ({problem}); "
                                                    "new answers are kept from now on.", problem=exc))
        return
    added = len(merged) - len(predict.own_answers())
    predict.set_own_answers(merged)
    if added:
        st.session_state[NOTE.skey] = ("info", _n("Welcome back: {n} answer this browser kept is here again.",
                                                  "Welcome back: {n} answers this browser kept are here again.", added))


def _problem() -> None:
    st.session_state[READ.skey] = True
    st.session_state[NOTE.skey] = ("warning", _("This browser does not keep your answers (its storage is off or "
                                                "full, as in a private window): save them as a file on the Lessons "
                                                "page."))


def forget() -> None:
    """"Start over": the learner's own answers are forgotten, here and in this browser."""
    predict.set_own_answers({})
    st.session_state[FORGET.skey] = True
    st.session_state.pop(WRITTEN.skey, None)


def sync() -> None:
    """Keep the learner's own answers in this browser (``page_setup`` calls it on every page, in the sidebar): read
    back what it kept on a session's first run, if it keeps anything (its cookie says so); write the answers when
    they change. Nothing at all while the browser is in a class (the class keeps its answers), nor for a browser
    that keeps nothing and has no answer yet."""
    note = st.session_state.pop(NOTE.skey, None)
    if note is not None:
        st.toast(note[1], icon=":material/history:" if note[0] == "info" else ":material/warning:")
    if classroom.in_class():
        return
    if READ.skey not in st.session_state and st.context.cookies.get(COOKIE) != "1":
        st.session_state[READ.skey] = True  # nothing kept: nothing to read, and nothing mounted
    answers = predict.own_answers()
    forgetting = st.session_state.pop(FORGET.skey, False)
    reading = not st.session_state.get(READ.skey)
    if not (answers or reading or forgetting or WRITTEN.skey in st.session_state):
        return
    digest = _digest(answers)
    written = st.session_state.get(WRITTEN.skey)
    if written is None or written[0] != digest:
        text = to_json(answers) if answers else ""
        if len(text.encode("utf-8")) > MAX_BYTES:
            text = ""  # more than a progress file holds: the file is the way to keep it
        written = st.session_state[WRITTEN.skey] = (digest, text)
    _component(key=KEEPER.skey, data={"key": STORAGE_KEY, "cookie": COOKIE, "days": DAYS, "write": written[1] or None,
                                      "read": reading, "forget": forgetting},
               on_kept_change=_read_back, on_problem_change=_problem, width="content", height=0)


__all__ = ["COOKIE", "DAYS", "STORAGE_KEY", "forget", "load", "sync"]
