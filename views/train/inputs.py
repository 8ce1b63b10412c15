"""What the learner chooses, drawn first: the corpus (a preset, or their own text typed or uploaded), the
trainer's settings, training itself, and what a shared link leaves out.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

import lessons
from i18n import N_, _, _n, number
from tokenizer.model import UNIT_NAMES
from ui import state
from ui.display import and_words, callout_html, md_code, md_escape, translated
from ui.links import lesson_link
from ui.presets import (
    MARKER_CHOICES,
    MARKER_NAMES,
    SPLIT_NAMES,
    TIE_NAMES,
    Settings,
    preset_ids,
    preset_settings,
    preset_titles,
)
from ui.show import Show
from ui.state import Param
from ui.training import MAX_CORPUS_CHARS, MAX_TRAIN_MERGES, Run, trained_with_progress
from ui.uploads import TEXT_UPLOAD_MB, decode_text_file, uploaded_bytes

from .settings import (
    CORPUS_OPEN,
    PRESET,
    RESET,
    STEPPER,
    TEXT,
    TEXT_IN_LINK,
    UPLOAD,
    apply_preset,
    changed_settings,
    current_settings,
    setting_params,
)
from .text import marker_problem, text_notes, text_problem

MY_TEXT, MY_UPLOAD = N_("My text"), N_("My upload")
"""Where a learner's own corpus came from (the session model's name starts with it): marked, drawn through _()."""


def intro(show: Show) -> None:
    if not show.large:
        st.caption(_(
            "BPE starts from single characters (or bytes). It counts which two neighbours occur together most "
            "often, glues that pair into one new token, and repeats. Pick a corpus, then step through the merges."
        ))



def settings_section(show: Show) -> tuple[str, Settings]:
    """The corpus box, the preset's note and lesson, the trainer's settings (hidden in classroom mode: the
    preset's are used) and, when they differ from the preset's, a way back. Returns (preset id, settings)."""
    preset_id = st.session_state[PRESET.skey]
    preset_defaults = preset_settings(preset_id)
    params = setting_params(preset_defaults)
    pick, about = st.columns([2, 3] if show.large else [3, 2], vertical_alignment="bottom")
    pick.selectbox(
        _("Corpus"),
        preset_ids(),
        key=PRESET.skey,
        format_func=preset_titles().__getitem__,  # named in this run's language
        on_change=apply_preset,
        help=_("Presets A to F are small worked examples of BPE training; the English + Hindi news presets are the "
               "experiment on who gets the cheap tokens when the merge budget is shared."),
    )
    preset = lessons.presets().get(preset_id)
    if preset is not None and preset.note and not show.large:
        about.html(callout_html(preset.shown("note")))
    with about:  # back to the lesson that linked here, else the preset's own (in classroom mode too)
        lesson_link(preset.lesson if preset is not None else None)

    settings = current_settings(params)
    changed = changed_settings(settings, preset_defaults) if preset is not None else []
    if show.classroom:
        about.caption(md_escape(_("Trainer settings: {summary}", summary=settings.summary())))
    else:
        with (about if show.large else st).expander(_("Trainer settings: {summary}",
                                                      summary=md_escape(settings.summary())),
                                               expanded=bool(changed) or preset is None, icon=":material/tune:"):
            settings_widgets(params, settings, show)
    settings = current_settings(params)
    if changed:
        note, reset = st.columns([4, 1], vertical_alignment="center")
        note.caption(_(
            "**Custom run**: you changed {changed}. The numbers below are for your settings, not the worked "
            "example's.", changed=and_words(changed)))
        reset.button(_("Use the preset's settings"), key=RESET.skey, on_click=apply_preset)
    return preset_id, settings


def settings_widgets(params: dict[str, Param], settings: Settings, show: Show) -> None:
    """The five trainer settings and the merge budget."""
    if show.large:  # two rows, so the labels are not squeezed letter by letter
        c_unit, c_split, c_marker = st.columns(3)
        c_ties, c_merges, _spare = st.columns(3)
    else:
        c_unit, c_split, c_marker, c_ties, c_merges = st.columns([1.1, 1.5, 1.4, 1.3, 1])
    c_unit.radio(
        _("Unit"),
        ("chars", "bytes"),
        key=params["unit"].skey,
        format_func=translated(UNIT_NAMES).__getitem__,
        help=_("What BPE starts from: Unicode characters (code points), or the UTF-8 bytes of the text (ids 0-255)."),
    )
    split = c_split.radio(
        _("Pre-split"),
        ("whitespace", "regex"),
        key=params["split"].skey,
        format_func=translated(SPLIT_NAMES).__getitem__,
        horizontal=True,
        help=_("BPE merges only inside the pieces the text is first cut into. Whitespace drops the spaces; "
               "the regex keeps what the pattern matches (the default ` ?\\S+` keeps one space before each word)."),
    )
    c_split.text_input(
        _("Pattern"),
        key=params["pattern"].skey,
        disabled=split != "regex",
        help=_("A regular expression (Python `regex` module). Each match is one piece; text between matches "
               "becomes pieces of its own."),
    )
    if split == "regex":
        c_split.caption(_("With spaces shown:") + " " + md_code(settings.pattern))
    marker = c_marker.selectbox(
        _("End-of-word marker"),
        MARKER_CHOICES,
        key=params["marker"].skey,
        format_func=translated(MARKER_NAMES).__getitem__,
        help=_("A symbol added to the end of every word, so a token can mean 'at the end of a word'."),
    )
    c_marker.text_input(_("Custom marker"), key=params["marker_text"].skey, disabled=marker != "custom",
                        max_chars=12)
    c_ties.radio(
        _("Ties"),
        ("first", "hf"),
        key=params["ties"].skey,
        format_func=translated(TIE_NAMES).__getitem__,
        help=_("When pairs share the top count. First seen: the pair met first reading the words in order. "
               "hf: the order Hugging Face tokenizers use."),
    )
    c_merges.number_input(_("Merges"), min_value=0, max_value=MAX_TRAIN_MERGES, step=1, key=params["merges"].skey)


def corpus_section(preset_id: str, show: Show) -> tuple[str | None, str]:
    """The preset's corpus, or the learner's own text (typed or uploaded). Returns (the corpus, or None when there
    is nothing to train on yet; where it came from)."""
    preset = lessons.presets().get(preset_id)
    if preset is not None:
        if not show.large and not show.classroom:
            with st.expander(_n("The corpus text ({n} character)", "The corpus text ({n} characters)",
                                len(preset.corpus)), icon=":material/article:", key=CORPUS_OPEN.skey,
                             on_change="rerun") as box:
                if box.open:
                    st.code(preset.corpus, language=None, wrap_lines=True,
                            height=min(400, 40 + 24 * (1 + len(preset.corpus) // 120)))
        return preset.corpus, MY_TEXT
    corpus: str | None = None
    source = MY_TEXT
    typed, uploaded = st.columns([3, 2])
    typed.text_area(
        _("Your text"),
        key=TEXT.skey,
        height=150,
        placeholder=_("chai chai chai chaiwala, poha poha pohawala... any language, any script."),
        on_change=STEPPER.reset,
        help=_("Up to {max} characters. Texts up to {link} characters are kept in the link when you share it.",
               max=number(MAX_CORPUS_CHARS), link=number(TEXT_IN_LINK)),
    )
    data, _size = uploaded_bytes(
        _("…or upload a .txt file (UTF-8)"), key=UPLOAD.skey, types=["txt"], limit_mb=TEXT_UPLOAD_MB,
        on_change=STEPPER.reset, container=uploaded,
    )
    if data is not None:
        text, error = decode_text_file(data)
        if error:
            st.html(callout_html(error, "warning"))
        elif text is not None:
            corpus = text
            source = MY_UPLOAD
            uploaded.caption(_n(
                "Training on the uploaded file ({n} character). Remove it to train on the text box.",
                "Training on the uploaded file ({n} characters). Remove it to train on the text box.", len(text)))
    else:
        corpus = st.session_state.get(TEXT.skey, "")
    if corpus is not None:
        problem = text_problem(corpus)
        if problem:
            (st.warning if problem[0] == "warning" else st.info)(problem[1])
            corpus = None
        else:
            for note in text_notes(corpus):
                st.caption(note)
    return corpus, source


def training_section(corpus: str | None, settings: Settings) -> Run | None:
    """Train (cached for every learner; a progress bar for a big corpus): the run, or None and why not."""
    if corpus is None:
        return None
    problem = marker_problem(settings)
    if problem:
        st.html(callout_html(problem, "warning"))
        return None
    try:
        run = Run.of(corpus, settings.merges, settings.config().to_dict())
        trained_with_progress(run)
        return run
    except ValueError as exc:  # e.g. a regex pattern that does not compile, or a corpus with no words
        st.html(callout_html(_("Cannot train with these settings: {why}", why=exc), "warning"))
        return None



def link_notes(params: Sequence[Param], preset_id: str) -> None:
    """After the settings are published: what a shared link leaves out (too long, or an uploaded file)."""
    left_out = {p.name for p in params if p.name not in st.query_params and state.value(p) != p.default}
    if "text" in left_out:
        st.caption(_(
            "Your text is longer than {n} characters, so a shared link keeps the settings and step but not the text.",
            n=number(TEXT_IN_LINK)))
    if left_out - {"text"}:
        st.caption(_("Too long to keep in a shared link: {names}.", names=", ".join(sorted(left_out - {"text"}))))
    if preset_id not in lessons.presets() and st.session_state.get(UPLOAD.skey) is not None:
        st.caption(_("An uploaded file is not part of a shared link: the link keeps the settings and step only."))
