"""The lessons' corpus presets as pages offer them: ids, titles, and the training settings each one uses.

Train step by step and The family both offer the presets (:func:`lessons.presets`) plus "your own text";
both name them, and set their widgets from them, through this module.
"""

from __future__ import annotations

from dataclasses import dataclass

import lessons
from i18n import N_, _, _n
from tokenizer import DEFAULT_PATTERN, TrainConfig
from tokenizer.model import UNIT_NAMES
from tokenizer.plaintext import visible_token

OWN = "own"  # the preset id of "your own text"

MARKERS = {"none": None, "</w>": "</w>", "_": "_"}
MARKER_CHOICES = ("none", "</w>", "_", "custom")
DEFAULT_CUSTOM_MARKER = "<end>"

SPLIT_NAMES = {"whitespace": N_("whitespace"), "regex": N_("regex pattern")}
TIE_NAMES = {"first": N_("first seen"), "hf": N_("hf (Hugging Face)")}
MARKER_NAMES = {"none": N_("none"), "</w>": "</w>", "_": "_", "custom": N_("custom…")}
"""The settings' names in English, marked for the catalogue (the units' are the engine's, ``tokenizer.model``): a page
that translates draws them through ``_()`` (a marker that is itself, ``</w>``, is the same in every language)."""



@dataclass(frozen=True)
class Settings:
    """The five training choices plus the merge budget, as the widgets hold them."""

    unit: str
    split: str
    pattern: str
    marker: str  # a MARKER_CHOICES entry
    marker_text: str  # the custom marker (used when marker == "custom")
    ties: str
    merges: int

    @property
    def end_of_word(self) -> str | None:
        if self.marker == "custom":
            return self.marker_text or None
        return MARKERS.get(self.marker)

    def config(self) -> TrainConfig:
        """The engine's settings (raises ValueError, in words, for a pattern that does not compile)."""
        return TrainConfig(self.unit, self.split, self.pattern, self.end_of_word, self.ties)

    def summary(self) -> str:
        """``characters · whitespace split · no marker · ties: first seen · 7 merges`` (plain text, in the current
        language)."""
        split = (_("whitespace split") if self.split == "whitespace" else
                 _("regex {pattern}", pattern=visible_token(self.pattern)))
        marker = _("marker {marker}", marker=self.end_of_word) if self.end_of_word else _("no marker")
        ties = _("ties: {rule}", rule=_(TIE_NAMES[self.ties]))
        return " · ".join((_(UNIT_NAMES[self.unit]), split, marker, ties, _n("{n} merge", "{n} merges", self.merges)))


OWN_DEFAULTS = Settings("chars", "whitespace", DEFAULT_PATTERN, "none", DEFAULT_CUSTOM_MARKER, "first", 20)


def preset_ids() -> tuple[str, ...]:
    return (*lessons.presets(), OWN)


def preset_title(preset_id: str) -> str:
    """A preset's name in the current language (its Hindi beside the English in presets.toml)."""
    if preset_id == OWN:
        return _("Your own text (type, paste or upload)")
    preset = lessons.presets().get(preset_id)
    return preset.shown("title") if preset else preset_id


def preset_titles() -> dict[str, str]:
    """Every preset's name (and "your own text"'s) in the current language: the corpus picker's
    ``format_func=preset_titles().__getitem__`` (Train step by step and The family)."""
    return {p: preset_title(p) for p in preset_ids()}


def preset_settings(preset_id: str) -> Settings:
    """The settings a preset trains with (the defaults for "your own text")."""
    preset = lessons.presets().get(preset_id)
    if preset is None:
        return OWN_DEFAULTS
    marker = preset.end_of_word
    if marker is None:
        choice, text = "none", DEFAULT_CUSTOM_MARKER
    elif marker in MARKERS:
        choice, text = marker, DEFAULT_CUSTOM_MARKER
    else:
        choice, text = "custom", marker
    return Settings(preset.unit, preset.split, preset.pattern, choice, text, preset.ties, preset.merges)
