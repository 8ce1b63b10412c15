"""A learner's own text: why it cannot be trained on, friendly notes on tricky text, the session model's name.
"""

from __future__ import annotations

import unicodedata

import regex

from i18n import _, _n, number
from tokenizer import Trace
from ui.language import per_language
from ui.presets import Settings
from ui.training import MAX_CORPUS_CHARS


def text_problem(text: str) -> tuple[str, str] | None:
    """("info" | "warning", message) when the text cannot be trained on, else None."""
    if len(text) > MAX_CORPUS_CHARS:
        return "warning", _(
            "This text is {n} characters long; the lab trains on up to {max} characters (about 2 MB). Paste a "
            "shorter extract: a few pages already show every idea.", n=number(len(text)), max=number(MAX_CORPUS_CHARS))
    if not text.strip():
        return "info", _(
            "Type or paste some text above, or upload a .txt file, to train on it. "
            "A few sentences are enough; repeated words make the merges easy to follow."
        )
    return None


@per_language(max_entries=64)
def text_notes(text: str) -> list[str]:
    """Friendly notes about tricky text (nothing here stops training), in the current language."""
    sample = text[:100_000]
    notes = []
    controls = sorted({ch for ch in sample if unicodedata.category(ch) == "Cc" and ch not in "\n\t\r"})
    if controls:
        shown = ", ".join(f"U+{ord(ch):04X}" for ch in controls[:3])
        notes.append(_(
            "Your text has control characters ({codes}). They are kept as they are and shown by their code "
            "point in the chips; delete them if they got in by accident.", codes=shown))
    if any(len(g) > 1 for g in regex.findall(r"\X", sample) if not g.isspace()):
        notes.append(_(
            "Some characters you see are built from several code points: a letter with a combining mark "
            "(such as a Devanagari vowel sign), or an emoji joined with U+200D. BPE starts from code points "
            "(or bytes), so it has to learn to glue those back together; until it does, one character you see "
            "can be split across chips."
        ))
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in sample):
        notes.append(_(
            "Right-to-left text (Arabic, Urdu, Hebrew): each chip shows its letters in reading order, "
            "and the chips of a word are laid out left to right in the order BPE stores them."
        ))
    if "<" in sample and ">" in sample:
        notes.append(_("Markup such as HTML tags is treated as plain text: it is counted and shown, never run."))
    return notes


def punctuation_note(trace: Trace) -> str | None:
    """With the whitespace split, "hain," and "hain" are different words: say so when it happens."""
    if trace.config.split != "whitespace":
        return None
    words = {w for w, _count in trace.words[:20_000]}
    for word in words:
        bare = word.strip(".,!?;:'\"()[]«»“”‘’।")
        if bare and bare != word and bare in words:
            return _(
                "With the whitespace split, “{word}” and “{bare}” are different words: punctuation stays glued "
                "to the word before it, so BPE counts them apart (a regex pre-split can cut it off).",
                word=word, bare=bare)
    return None


def marker_problem(settings: Settings) -> str | None:
    """A custom marker the learner has not finished typing, in words. (A marker that clashes with
    the text is refused by the engine, whose message the page shows.)"""
    if settings.marker == "custom" and not settings.marker_text:
        return _("The custom end-of-word marker is empty: type one (such as </w>), or choose none.")
    if settings.marker == "custom" and any(ch.isspace() for ch in settings.marker_text):
        return _("An end-of-word marker cannot contain spaces: type one without spaces (such as </w>).")
    return None


def session_model_title(source: str, text: str, settings: Settings, n_merges: int) -> str:
    """A session model's name in the current language: where it came from (``source``, a message marked N_), the
    start of its text, its settings."""
    start = " ".join(text.split()[:4])
    if len(start) > 32:
        start = start[:32] + "…"
    unit = _("chars") if settings.unit == "chars" else _("bytes")
    return _("{source} “{start}” ({unit}, {merges})", source=_(source), start=start, unit=unit,
             merges=_n("{n} merge", "{n} merges", n_merges))
