"""Every tokenizer a page can show, behind one interface, and the widgets to pick them.

Three kinds, all :class:`tokenizer.TextTokenizer`, so a page draws them the same way:

- **real** production tokenizers (GPT-4's ``cl100k_base``, GPT-4o's ``o200k_base``,
  Mistral's…), loaded once per server from installed package data
  (:mod:`family.real`), shared read-only by every learner;
- **lab** presets: the curriculum's small BPE models, trained on first use
  and cached for everyone (:mod:`ui.training`);
- **session** models: trained on the Train page from the learner's own text,
  or uploaded as a model file; they stay in this browser session.

A choice is named by a key that can go in a link: a real tokenizer's name
(``o200k_base``), a preset id (``chai``), or, for session models, a key that
only means something in the session that made it (a link naming one from
another session says so and falls back). ``"upload"`` offers a file uploader.

A tokenizer that cannot be loaded (its data missing or failing its hash
check) is reported by name and reason; every other tokenizer keeps working.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

import lessons
from analyses.measure import Measure, measure
from i18n import N_, _, _n, decimal, number
from lessons.course import TOKENIZER_KEY, TOKENIZERS_KEY
from lessons.progress import TOKENIZE_COUNT, QuestionId
from tokenizer import TextTokenizer, Token, Tokenizer
from tokenizer.io import ModelFigures, check_model_figures, figures_of, tokenizer_from_json, tokenizer_to_json
from tokenizer.model import UNIT_NAMES
from tokenizer.pretokenize import pattern_words
from ui import state
from ui.display import md_code, md_escape
from ui.predict import Question
from ui.training import preset_trace
from ui.uploads import MODEL_UPLOAD_BYTES, MODEL_UPLOAD_MB, forget_upload, uploaded_bytes, uploaded_file

UPLOAD = "upload"
SESSION_PREFIX = "session:"
SESSION_MODELS = "lab.session_models"
MAX_SESSION_MODELS = 8
SESSION_MODELS_MB = 64
"""What one session's models (trained or uploaded) may take in the server's memory together, once built:
a model of 100,000 merges fits (about 50 MB); the lab's Train page makes models of at most 5,000 (2-3 MB)."""
BUILT_MODELS_MB = 192
"""What the built session models of every learner may take together: the least recently used are let go
(and built again from their JSON, in about a second, when a page needs one)."""


class Unavailable(ValueError):
    """A tokenizer that cannot be used here; ``str()`` says which and why, for the learner."""


# -- the catalogue ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    key: str
    title: str
    kind: str  # "real", "lab" or "session"
    note: str = ""


def _real_module():
    try:
        from family import real
    except ImportError:  # the real tokenizers' module is missing: the lab's own still work
        return None
    return real


def _real_tokenizer(name: str) -> TextTokenizer:
    """A production tokenizer, loaded once per server: a spinner in the learner's language while it loads (the
    cache's own would be English, its text fixed at import)."""
    with st.spinner(_("Loading the tokenizer (once per server)…")):
        return _load_real(name)


@st.cache_resource(show_spinner=False)
def _load_real(name: str) -> TextTokenizer:
    real = _real_module()
    if real is None:
        raise Unavailable(_("The real tokenizer {name} is not installed in this lab.", name=name))
    try:
        return real.load(name)
    except real.TokenizerUnavailable as exc:
        raise Unavailable(str(exc)) from None


def real_entries(*, featured: bool = False) -> list[Entry]:
    """Every production tokenizer the lab offers (``featured``: only the seven a page shows when it shows "every"
    one, :data:`family.real.FEATURED`)."""
    real = _real_module()
    if real is None:
        return []
    return [Entry(info.name, info.title, "real", info.models) for info in real.catalogue()
            if info.featured or not featured]


def lab_entries() -> list[Entry]:
    return [Entry(p.id, p.shown("title"), "lab", p.shown("note")) for p in lessons.presets().values()]  # in the run's language


def session_entries() -> list[Entry]:
    models = st.session_state.get(SESSION_MODELS) or {}
    return [Entry(key, m["title"], "session") for key, m in models.items()]


def entries(kinds: Sequence[str] = ("real", "lab", "session")) -> list[Entry]:
    out: list[Entry] = []
    for kind in kinds:
        out += {"real": real_entries, "lab": lab_entries, "session": session_entries}[kind]()
    return out


def title(key: str) -> str:
    if key == UPLOAD:
        return _("Upload a model file…")
    for entry in entries():
        if entry.key == key:
            return entry.title
    return key


def option_label(key: str) -> str:
    """What a picker lists: the kind, then the title."""
    if key == UPLOAD:
        return _("Upload a model file…")
    for entry in entries():
        if entry.key == key:
            prefix = {"real": _("Real"), "lab": _("Lab"), "session": _("Yours")}[entry.kind]
            return f"{prefix} · {entry.title}"
    return key


# -- loading ---------------------------------------------------------------------------------------
def load(key: str) -> TextTokenizer:
    """The tokenizer for a key, or :class:`Unavailable` saying why not."""
    presets = lessons.presets()
    if key in presets:
        return preset_trace(key).tokenizer.named(presets[key].title, source=N_("a lab preset, trained here"))
    models = st.session_state.get(SESSION_MODELS) or {}
    if key in models:
        model = models[key]
        try:
            return _model_from_json(model["json"]).named(model["title"], source=model["source"])
        except ValueError as exc:  # kept models were checked; this is only a safety net
            raise Unavailable(_("Your model “{title}” cannot be used here: {why}", title=model["title"],
                                why=exc)) from None
    if any(e.key == key for e in real_entries()):
        return _real_tokenizer(key)
    raise Unavailable(_("There is no tokenizer called “{key}” here.", key=key))


def trace_counts(key: str) -> dict[int, int] | None:
    """Token id -> its pair count when it was learned, for lab models whose training this lab saw."""
    presets = lessons.presets()
    if key in presets:
        trace = preset_trace(key)
        return {s.token_id: s.count for s in trace.steps}
    model = (st.session_state.get(SESSION_MODELS) or {}).get(key)
    if model and model.get("counts"):
        try:
            tok = _model_from_json(model["json"])
        except ValueError:
            return None
        return {tok.first_merge_id + r: c for r, c in enumerate(model["counts"])}
    return None


def model_weight(figures: ModelFigures) -> int:
    """What a lab model takes in memory once built, in bytes, as measured (bench/bench_model_bounds.py): about
    500 bytes for each id (its tables) and three for each byte of its tokens (the bytes and the label)."""
    return 500 * (figures.base + figures.merges) + 3 * figures.vocab_bytes


class _BuiltModels:
    """Session models, built, for every learner: keyed by their JSON text (the very string the session keeps, so
    this holds no second copy of it), at most ``budget`` bytes of them; the least recently used go first."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._lock = threading.Lock()
        self._items: OrderedDict[str, tuple[Tokenizer, int]] = OrderedDict()
        self._weight = 0

    def get(self, text: str) -> Tokenizer:
        with self._lock:
            item = self._items.get(text)
            if item is not None:
                self._items.move_to_end(text)
                return item[0]
        tok = tokenizer_from_json(text)  # outside the lock: two learners may build one model at once
        self.put(text, tok)
        return tok

    def put(self, text: str, tok: Tokenizer, weight: int | None = None) -> None:
        weight = (weight if weight is not None else model_weight(figures_of(tok))) + 2 * len(text)
        with self._lock:
            old = self._items.pop(text, None)
            if old is not None:
                self._weight -= old[1]
            self._items[text] = (tok, weight)
            self._weight += weight
            while self._weight > self.budget and len(self._items) > 1:
                _text, (_tok, gone) = self._items.popitem(last=False)
                self._weight -= gone

    @property
    def weight(self) -> int:
        return self._weight

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._weight = 0


_built = _BuiltModels(BUILT_MODELS_MB * 1_000_000)


def _model_from_json(text: str) -> Tokenizer:
    """A lab model once per distinct JSON text (raises ValueError with a friendly message)."""
    return _built.get(text)


def load_model_file(data: bytes) -> Tokenizer:
    """A model from an uploaded file's bytes, or ValueError saying what is wrong and what to do."""
    if len(data) > MODEL_UPLOAD_BYTES:
        raise ValueError(
            f"This file is {len(data) / 1e6:.1f} MB; a model file from this lab is far smaller "
            f"(the limit here is {MODEL_UPLOAD_MB} MB). Upload the .json file the Train page downloads."
        )
    if not data.strip():
        raise ValueError("This file is empty. Upload the .json file the Train page downloads.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(
            "This file is not text (it is not UTF-8), so it cannot be a model file. "
            "Upload the .json file the Train page downloads."
        ) from None
    try:
        return tokenizer_from_json(text)  # kept (and built once) only if it is kept for the session
    except ValueError as exc:
        raise ValueError(f"{exc} Upload the .json file the Train page downloads.") from None
    except RecursionError:
        raise ValueError(
            "This JSON is nested too deeply to be a model file. Upload the .json file the Train page downloads."
        ) from None
    except Exception as exc:  # a model file must never crash the page
        raise ValueError(f"This file could not be read as a model ({type(exc).__name__}).") from None


# -- session models --------------------------------------------------------------------------------
def keep_session_model(tok: Tokenizer, title: str, *, source: str, counts: Sequence[int] = (), ident: str = "") -> str:
    """Keep a model for this session's pickers; returns its key. ``ident`` tells two models apart
    (e.g. a hash of corpus and settings); the same ident replaces, a new one is added.

    The session keeps one copy, the model's JSON; the built model is shared (:class:`_BuiltModels`). A session
    keeps at most :data:`MAX_SESSION_MODELS` models and :data:`SESSION_MODELS_MB` of them (the oldest go first);
    a model bigger than the lab reads from a file, or than a session may keep, is refused (ValueError, saying why).
    """
    check_model_figures(tok)  # what a session keeps, the lab must be able to read back
    weight = model_weight(figures_of(tok))
    if weight > SESSION_MODELS_MB * 1_000_000:
        raise ValueError(
            f"This model would take about {weight / 1e6:,.0f} MB of the server's memory; the models of one "
            f"session may take up to {SESSION_MODELS_MB} MB together (a model of about 100,000 merges)."
        )
    models = st.session_state.setdefault(SESSION_MODELS, {})
    if ident:
        key = SESSION_PREFIX + ident[:12]
        old = models.get(key)
        if old is not None and old.get("weight") == weight and old["title"] == title:
            if _built.get(old["json"]).merges == tok.merges:  # the same model as before: nothing to redo
                models[key] = models.pop(key)  # but it is the newest now (the oldest go first)
                return key
    text = tokenizer_to_json(tok)
    key = SESSION_PREFIX + (ident[:12] if ident else state.digest(text, length=12))
    models.pop(key, None)
    models[key] = {"title": title, "json": text, "source": source, "counts": list(counts), "weight": weight}
    _built.put(text, tok, weight)
    while len(models) > MAX_SESSION_MODELS or (
        len(models) > 1 and sum(m.get("weight", 0) for m in models.values()) > SESSION_MODELS_MB * 1_000_000
    ):
        models.pop(next(iter(models)))
    return key


# -- describing ------------------------------------------------------------------------------------
def summary_md(tok: TextTokenizer) -> str:
    """One line about a tokenizer for a learner, as safe Markdown: what it is and how big, in plain words.
    Where its data comes from (package, file, hash) is for the "About these tokenizers" box (:func:`about_box`)."""
    if isinstance(tok, Tokenizer):
        c = tok.config
        marker = _("; a word's last piece ends in {marker}", marker=md_code(c.end_of_word)) if c.end_of_word else ""
        unit = _(UNIT_NAMES.get(c.unit, c.unit))
        return _("The lab's BPE on {unit}. Before merging, {split}{marker} · {merges} · vocabulary of {tokens}",
                 unit=unit, split=md_escape(_(pattern_words(c.split, c.pattern))), marker=marker,
                 merges=_n("{n} merge", "{n} merges", len(tok.merges)),
                 tokens=_n("{n} token", "{n} tokens", tok.vocab_size))
    # a few ids may be unused: "ids", not "tokens"
    return _("{family} · token ids 0 to {last}", family=md_escape(tok.family), last=number(tok.vocab_size - 1))


OFFLINE_NOTE = N_("Everything is offline: the vocabularies come from installed packages and are checked (sha256) "
                  "before use where a published hash exists. Nothing is downloaded while you use the lab.")
"""English, marked for the catalogue: :func:`about_box` draws its ``note`` through ``_()``."""


def about_box(chosen: Sequence[tuple[str, TextTokenizer]], *, key: str, note: str = "") -> None:
    """The "About these tokenizers" box: each chosen tokenizer's model, licence and where its data comes from
    (:func:`about_md`), then ``note``; closed until opened, and only then filled."""
    with st.expander(_("About these tokenizers: models, licences, where the data comes from"),
                     icon=":material/info:", key=key, on_change="rerun") as about:
        if about.open:  # describing every real tokenizer loads them to say which is missing: only when asked
            for block in about_md(chosen):
                st.markdown(block)
            if note:
                st.caption(_(note))


def describe_md(tok: TextTokenizer) -> str:
    """One line about a tokenizer, as safe Markdown (user text such as a pattern shown as code): everything,
    where it came from too (for the "About these tokenizers" box)."""
    if isinstance(tok, Tokenizer):
        c = tok.config
        split = (_("whitespace pre-split") if c.split == "whitespace"
                 else _("regex pre-split {pattern} ({words})", pattern=md_code(c.pattern),
                        words=md_escape(_(pattern_words(c.split, c.pattern)))))
        marker = (_("end-of-word marker {marker}", marker=md_code(c.end_of_word)) if c.end_of_word
                  else _("no end-of-word marker"))
        unit = _(UNIT_NAMES.get(c.unit, c.unit))
        return _("Lab BPE · unit: {unit} · {split} · {marker} · {merges} · vocabulary of {tokens} · {source}",
                 unit=unit, split=split, marker=marker, merges=_n("{n} merge", "{n} merges", len(tok.merges)),
                 tokens=_n("{n} token", "{n} tokens", tok.vocab_size), source=md_escape(_(tok.source)))
    # some ids may be unused
    parts = [md_escape(tok.family), _("token ids 0 to {last}", last=number(tok.vocab_size - 1))]
    if tok.licence:
        parts.append(_("licence: {licence}", licence=md_escape(tok.licence)))
    parts.append(md_escape(tok.source))
    return " · ".join(parts)


# -- pickers ---------------------------------------------------------------------------------------
def upload_error_key(page: str) -> state.Key:
    """Where the uploader beside a picker on ``page`` leaves its refusal for the next run to show."""
    return state.Key(page, "_upload_error")


def _param(key: state.Key, default: str) -> state.Param:
    return state.Param(key.page, key.name, default, max_len=400)


def one_key(page: str) -> state.Key:
    """The key of :func:`pick_one`'s select box on ``page`` (its ``?tok=``)."""
    return state.Key(page, TOKENIZER_KEY)


def many_key(page: str) -> state.Key:
    """The key of :func:`pick_many`'s multiselect on ``page`` (its list; the URL keeps ``?toks=``)."""
    return state.Key(page, "toks_list")


def upload_key(page: str) -> state.Key:
    """The key of the model uploader beside a picker on ``page``."""
    return state.Key(page, "upload")


def _take_upload(page: str, upload_key: str) -> str | None:
    """Read the file in the uploader, keep its model for the session and let the file go; returns the model's key,
    or None (the reason waits in the session for the page to show). A refused file leaves nothing behind."""
    file = uploaded_file(upload_key)
    if file is None:
        return None
    name = file.name
    try:
        tok = load_model_file(file.getvalue())
        del file
        key = keep_session_model(tok, f"Uploaded: {name}", source=f"uploaded file {name}")
    except ValueError as exc:
        st.session_state[upload_error_key(page).skey] = f"“{name}” is not a model this lab can use. {exc}"
        key = None
    forget_upload(upload_key)
    return key


def _upload_into_choice(page: str, upload_key: str, choice_key: str) -> None:
    """on_change of pick_one's model uploader: keep the model and choose it."""
    key = _take_upload(page, upload_key)
    if key is not None:
        st.session_state[choice_key] = key


def _upload(page: str, choice_key: str) -> None:
    """The model uploader; a good file becomes a model of the session, chosen in the picker."""
    uploaded_bytes(
        "Model file (.json from the Train page)", key=upload_key(page).skey, types=["json"], limit_mb=MODEL_UPLOAD_MB,
        help="On the Train page, train a model and download it as JSON; upload that file here.",
        on_change=_upload_into_choice, args=(page, upload_key(page).skey, choice_key),
    )
    error = st.session_state.pop(upload_error_key(page).skey, None)
    if error:
        st.warning(md_escape(error), icon=":material/warning:")
    st.info(
        _("Upload a model file: the .json the Train page downloads after training. Or pick another tokenizer."),
        icon=":material/upload_file:",
    )


def pick_one(
    page: str, *, default: str, kinds: Sequence[str] = ("real", "lab", "session"), label: str = "Tokenizer",
    upload: bool = True,
) -> tuple[str, TextTokenizer | None]:
    """A select box over the chosen kinds (plus "Upload a model file…"); returns (key, tokenizer).

    The choice is kept in the URL as ``?tok=``. A tokenizer that cannot be used is reported and
    ``None`` returned (the page says what to do next).
    """
    param = _param(one_key(page), default)
    options = [e.key for e in entries(kinds)] + ([UPLOAD] if upload else [])
    linked = st.query_params.get(param.name)
    if param.skey not in st.session_state and linked is not None and linked not in options:
        st.info(
            _("This link asked for the tokenizer “{linked}”, which is not here (a model trained or uploaded in "
              "another session stays there). Showing “{default}” instead.", linked=md_escape(linked),
              default=md_escape(title(default))),
            icon=":material/link_off:",
        )
    state.restore([param])
    if st.session_state.get(param.skey) not in options:
        state.set_value(param, default)
    labels = {k: option_label(k) for k in options}  # resolved now: the format function must not read the session
    key = st.selectbox(label, options, key=param.skey, format_func=lambda k: labels.get(k, k),
                       help=_("Real tokenizers of production models, the lab's small presets, or a model of "
                              "yours (trained on the Train page, or uploaded)."))
    state.publish([param])
    if key == UPLOAD:
        _upload(page, param.skey)
        return UPLOAD, None
    try:
        tok = load(key)
    except Unavailable as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return key, None
    st.caption(summary_md(tok))
    return key, tok


def _upload_into_selection(page: str, upload_key: str, selection_key: str) -> None:
    """on_change of the model uploader beside a multiselect: keep the model and add it to the selection."""
    key = _take_upload(page, upload_key)
    if key is None:
        return
    chosen = list(st.session_state.get(selection_key) or [])
    if key not in chosen:
        chosen.append(key)
    st.session_state[selection_key] = chosen


def pick_many(
    page: str, *, default: Sequence[str], kinds: Sequence[str] = ("real", "lab", "session"), label: str | None = None,
    upload: bool = True,
) -> list[tuple[str, TextTokenizer]]:
    """A multiselect of tokenizers to compare; returns the usable ones, in the order chosen.

    Kept in the URL as ``?toks=a,b``. Each one that cannot be loaded is named with its reason.
    ``upload``: offer a model file uploader too (a model downloaded from the Train page).
    """
    options = [e.key for e in entries(kinds)]
    param = _param(state.Key(page, TOKENIZERS_KEY), ",".join(k for k in default if k in options))
    skey = many_key(page).skey
    if skey not in st.session_state or state.entering() == "link":  # a link is the whole view: its tokenizers
        if param.name not in st.query_params and TOKENIZER_KEY in st.query_params:  # an older link: one tokenizer
            st.query_params[param.name] = st.query_params[TOKENIZER_KEY]
            del st.query_params[TOKENIZER_KEY]
        state.restore([param])
        wanted = [k for k in str(st.session_state.get(param.skey) or "").split(",") if k]
        unknown = [k for k in wanted if k not in options]
        if unknown:
            st.info(_("Not here (a model from another session, or a typo): {keys}.", keys=md_escape(", ".join(unknown))),
                    icon=":material/link_off:")
        st.session_state[skey] = [k for k in wanted if k in options] or [k for k in default if k in options]
    st.session_state[skey] = [k for k in st.session_state[skey] if k in options]
    labels = {k: option_label(k) for k in options}
    chosen = st.multiselect(label or _("Tokenizers"), options, key=skey, format_func=lambda k: labels.get(k, k),
                            placeholder=_("Pick one or more tokenizers"),
                            help=_("Real tokenizers of production models, the lab's presets, and models of yours."))
    st.session_state[param.skey] = ",".join(chosen)
    state.publish([param])
    if upload:
        with st.expander(_("Add a model of yours: the .json file the Train page downloads"), icon=":material/upload_file:"):
            uploaded_bytes(_("Model file"), key=upload_key(page).skey, types=["json"], limit_mb=MODEL_UPLOAD_MB,
                           on_change=_upload_into_selection, args=(page, upload_key(page).skey, skey))
            error = st.session_state.pop(upload_error_key(page).skey, None)
            if error:
                st.warning(md_escape(error), icon=":material/warning:")
    out = []
    for key in chosen:
        try:
            out.append((key, load(key)))
        except Unavailable as exc:
            st.warning(md_escape(str(exc)), icon=":material/error:")
    return out


def unavailable_real() -> list[tuple[str, str]]:
    """(title, reason) for every featured real tokenizer that cannot be loaded here (the others are loaded, and
    reported, only when picked)."""
    out = []
    for entry in real_entries(featured=True):
        try:
            _real_tokenizer(entry.key)
        except Unavailable as exc:
            out.append((entry.title, str(exc)))
    return out


def about_md(chosen: Sequence[tuple[str, TextTokenizer]]) -> list[str]:
    """The "about these tokenizers" text, a markdown block each: every chosen tokenizer described (model,
    licence, data), then the real ones that cannot be loaded here and why."""
    out = [f"**{md_escape(tok.name)}**  \n" + describe_md(tok) for _key, tok in chosen]
    missing = unavailable_real()
    if missing:
        out.append(_("**Not available here**") + "\n\n"
                   + "\n".join(f"- {md_escape(n)}: {md_escape(r)}" for n, r in missing))
    return out


def count_question(key: str, tok: TextTokenizer, text: str, m: Measure, *, scope: str) -> Question:
    """"How many tokens will this tokenizer cut the text into?", for predict-first mode: the answer is the
    measure's count, and a guess within a tenth of it (at least exact) counts as right."""
    digest = state.digest(text, length=12)
    tolerance = m.tokens // 10
    prompt = (_n("How many tokens will {name} cut this text into (within {n} token counts as right)?",
                 "How many tokens will {name} cut this text into (within {n} tokens counts as right)?", tolerance,
                 name=tok.name) if tolerance
              else _("How many tokens will {name} cut this text into?", name=tok.name))
    each = decimal(m.code_points / m.tokens if m.tokens else 0, 2)
    explain = _("{name} reads {words} and {chars} as {tokens}: ", name=tok.name,
                words=_n("{n} word", "{n} words", m.words), chars=_n("{n} character", "{n} characters", m.code_points),
                tokens=_n("{n} token", "{n} tokens", m.tokens))
    explain += (_("{per_word} a word, {each} characters a token.", per_word=decimal(m.tokens_per_word, 2), each=each)
                if m.words else _("{each} characters a token.", each=each))
    return Question(
        key="", id=QuestionId.of(TOKENIZE_COUNT, tokenizer=key, text=digest), scope=scope, kind="number", answer=m.tokens, tolerance=tolerance,
        unit=N_("tokens"), prompt=prompt, explain=explain,
        hint=_("Count pieces, not words: a common English word is one token with its space, a rare word several, "
               "and a script the tokenizer saw little of can take a token a letter or more."),
    )


@dataclass(frozen=True)
class Encoded:
    """A text encoded by one tokenizer: its measures and its first tokens (for drawing)."""

    measure: Measure
    tokens: tuple[Token, ...]
    round_trips: bool
    """Whether decoding the ids gives back the text exactly (a whitespace pre-split drops the spaces)."""


@st.cache_data(max_entries=256, show_spinner=False)
def encoded(key: str, text: str, limit: int) -> Encoded:
    """Encode ``text`` with the tokenizer ``key`` once per (tokenizer, text), for every learner.

    Raises ValueError (with the engine's words) when the tokenizer cannot encode it, e.g. a lab
    model whose pre-split pattern takes too long on this text.
    """
    tok = load(key)
    ids = tok.encode(text)
    m = measure(tok, text, ids)
    try:
        round_trips = not m.unknown and tok.decode(ids) == text
    except ValueError:
        round_trips = False
    return Encoded(m, tuple(tok.encode_tokens(text, limit=limit)), round_trips)


__all__ = [
    "about_md",
    "count_question",
    "Encoded",
    "Entry",
    "encoded",
    "Unavailable",
    "UPLOAD",
    "about_box",
    "describe_md",
    "summary_md",
    "entries",
    "keep_session_model",
    "load",
    "load_model_file",
    "many_key",
    "one_key",
    "option_label",
    "pick_many",
    "pick_one",
    "title",
    "trace_counts",
    "unavailable_real",
    "upload_key",
]
