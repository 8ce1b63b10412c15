"""Loading the lab's content (presets, data files) from this folder. No UI code, no prose here."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tokenizer import TrainConfig
from tokenizer.model import DEFAULTS

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Preset:
    """A training corpus with its trainer settings."""

    id: str
    title: str
    lesson: int
    corpus: str
    unit: str
    split: str
    end_of_word: str | None
    merges: int
    ties: str
    pattern: str
    examples: tuple[str, ...]
    note: str
    hi: dict[str, str] = field(default_factory=dict, compare=False)
    """The title and note in Hindi (``hi = { title = ..., note = ... }`` in presets.toml), read by
    :meth:`shown`."""

    def shown(self, name: str) -> str:
        """The preset's ``title`` or ``note`` in the current language (its Hindi beside the English)."""
        from i18n import localized

        return str(localized({name: getattr(self, name), "hi": self.hi})[name])

    @property
    def config(self) -> TrainConfig:
        """The five trainer settings (checked: a bad preset fails when it is loaded)."""
        return TrainConfig(self.unit, self.split, self.pattern, self.end_of_word, self.ties)

    def train_kwargs(self) -> dict:
        return self.config.to_dict()


@cache
def data(name: str) -> dict:
    """A JSON file from lessons/data/ (name without .json)."""
    return json.loads((HERE / "data" / f"{name}.json").read_text(encoding="utf-8"))


def cost_scenarios() -> dict[str, dict]:
    """The cost scenarios (``lessons/data/cost_scenarios.json``: inputs only), by id, in file order."""
    return {s["id"]: s for s in data("cost_scenarios")["scenarios"]}


def _data_string(ref: str) -> str:
    file, _, key = ref.partition(":")
    value = data(file)[key]
    if not isinstance(value, str):
        raise ValueError(f"{ref} is not a string")
    return value


@cache
def examples(section: str) -> tuple[dict, ...]:
    """The ready examples of one page (``lessons/examples.toml``), each a dict; a ``data`` reference
    is resolved into ``text``."""
    raw = tomllib.loads((HERE / "examples.toml").read_text(encoding="utf-8"))
    out = []
    for entry in raw.get(section, ()):
        entry = dict(entry)
        if "data" in entry:
            entry["text"] = _data_string(entry.pop("data"))
        out.append(entry)
    return tuple(out)


def _resolve(value):
    """A ``{ data = "file:key" }`` table becomes that string; tables and lists are resolved inside."""
    if isinstance(value, dict):
        if set(value) == {"data"}:
            return _data_string(value["data"])
        return {k: _resolve(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v) for v in value]
    return value


@cache
def content(name: str) -> dict:
    """A page's content file, ``lessons/<name>.toml``, with every ``{ data = "file:key" }`` resolved."""
    raw = tomllib.loads((HERE / f"{name}.toml").read_text(encoding="utf-8"))
    return _resolve(raw)


def _corpus(entry: dict) -> str:
    if "text" in entry:
        return entry["text"]
    if "words" in entry:
        return " ".join(" ".join([word] * count) for word, count in entry["words"])
    if "parts" in entry:
        return "".join((part["text"] if "text" in part else _data_string(part["data"])) * part["times"] for part in entry["parts"])
    raise ValueError(f"Preset {entry.get('id')!r} has no corpus (text, words or parts).")


@cache
def presets() -> dict[str, Preset]:
    """Every training preset, by id, in file order."""
    raw = tomllib.loads((HERE / "presets.toml").read_text(encoding="utf-8"))
    out: dict[str, Preset] = {}
    for entry in raw["preset"]:
        out[entry["id"]] = Preset(
            id=entry["id"],
            title=entry["title"],
            lesson=entry.get("lesson", 0),
            corpus=_corpus(entry),
            unit=entry.get("unit", DEFAULTS.unit),
            split=entry.get("split", DEFAULTS.split),
            end_of_word=entry.get("end_of_word") or None,
            merges=entry.get("merges", 10),
            ties=entry.get("ties", DEFAULTS.ties),
            pattern=entry.get("pattern", DEFAULTS.pattern),
            examples=tuple(entry.get("examples", ())),
            note=entry.get("note", ""),
            hi=dict(entry.get("hi", {})),
        )
        out[entry["id"]].config  # noqa: B018 - validate the settings now, not when a page trains
    return out


# -- lesson 4's experiment: English and Hindi sharing one training text ----------------------------------------
LESSON4_PRESET, LESSON4_FAIR_PRESET = "english-hindi", "english-hindi-fair"
"""The experiment's two presets: one copy of the Hindi paragraph, and as many as English has."""
ENGLISH_COPIES = 10
"""The English paragraph's copies in every mix of the experiment (the presets'; tests check they agree)."""
MAX_HINDI_COPIES = 20
"""The Hindi copies the experiment's sweep goes up to: 0 (English only) to twice the fair share."""


@cache
def hindi_copies(preset_id: str) -> int | None:
    """How many Hindi copies a preset's corpus holds when it is a mix of lesson 4's experiment (the English paragraph
    :data:`ENGLISH_COPIES` times, then the Hindi one k times, k up to :data:`MAX_HINDI_COPIES`); None when it is
    not one."""
    from analyses.experiment import mix

    block, corpus = data("lesson4_english_hindi"), presets()[preset_id].corpus
    for k in range(MAX_HINDI_COPIES + 1):
        if mix([(block["english_block"], ENGLISH_COPIES), (block["hindi_block"], k)]) == corpus:
            return k
    return None


def experiment_exercises(exercises) -> tuple | None:
    """The exercises (of ``exercises``, a course's) that ask lesson 4's experiment question: which way the Hindi test
    sentence's count moves from the one-copy preset to the fair-share one, then the English one's; None when the
    course has no such pair. English vs Hindi asks these first (``ui.questions.experiment_questions``)."""
    pair = data("lesson4_english_hindi")
    found: dict[str, object] = {}
    for exercise in exercises:
        args = exercise.args
        if (exercise.op == "direction" and args.get("before") == LESSON4_PRESET
                and args.get("after") == LESSON4_FAIR_PRESET and args.get("text") in (pair["test_hi"], pair["test_en"])):
            found.setdefault(args["text"], exercise)
    return (found[pair["test_hi"]], found[pair["test_en"]]) if len(found) == 2 else None


# -- the Beyond Hindi page's languages -----------------------------------------------------------


@dataclass(frozen=True)
class LanguageSample:
    """One language's sample text (a line of the Universal Declaration of Human Rights)."""

    id: str  # gflanguages id, e.g. "hi_Deva"
    label: str  # the name the page shows, e.g. "Hindi"
    native: str  # the language's own name for itself, e.g. "हिन्दी"
    group: str  # a key of languages.json "groups", or "" for English
    passage: str  # which part of the Declaration the line is from
    script: str  # the script's name, from gflanguages
    line: str  # the one-line "tester" sample
    text: str  # the line and the longer passages (languages.json "fields"), one a line


class SamplesUnavailable(RuntimeError):
    """The sample texts cannot be read here; ``str()`` says why and what to install."""


def language_samples() -> tuple[tuple[LanguageSample, ...], tuple[str, ...]]:
    """(English first, then every language of ``languages.json`` that has a sample text; the ids that do not).

    Reads the installed ``gflanguages`` package, only the records of these languages and their scripts (0.07 s; its
    own loader parses all 1,693 languages, 1.2 s): call it once per server and keep the result (the page caches it
    with ``st.cache_resource``).
    """
    spec = data("languages")
    entries = [spec["english"], *spec["languages"]]
    try:
        known = _gflanguages_records("languages", [e["id"] for e in entries])
        scripts = _gflanguages_records("scripts", sorted({lang.script for lang in known.values()}))
    except ImportError:
        raise SamplesUnavailable(
            "The sample texts come from the gflanguages package, which is not installed here "
            "(pip install -r requirements.txt)."
        ) from None
    except Exception as exc:  # a damaged package must not take the page down
        raise SamplesUnavailable(f"The gflanguages package could not be read ({type(exc).__name__}).") from None
    out: list[LanguageSample] = []
    missing: list[str] = []
    for entry in entries:
        lang = known.get(entry["id"])
        sample = lang.sample_text if lang is not None and lang.HasField("sample_text") else None
        line = sample.tester.strip() if sample is not None else ""
        if lang is None or not line:
            missing.append(entry["id"])
            continue
        lines = [ln.strip() for f in spec["fields"] for ln in getattr(sample, f, "").splitlines()]
        found = list(dict.fromkeys(ln for ln in lines if ln))
        passages = [p for p in found if not any(p != other and p in other for other in found)]  # no text twice
        script = scripts[lang.script].name if lang.script in scripts else lang.script
        out.append(LanguageSample(entry["id"], entry["label"], entry["native"], entry.get("group", ""),
                                  entry["passage"], script, line, "\n".join(passages)))
    if not out or out[0].id != spec["english"]["id"]:
        raise SamplesUnavailable("The gflanguages package has no English sample text, the yardstick of this page.")
    return tuple(out), tuple(missing)


def _gflanguages_records(kind: str, ids: list[str]) -> dict:
    """gflanguages' records of ``kind`` ("languages" or "scripts") for ``ids``, as its ``LoadLanguages`` and
    ``LoadScripts`` give them (id -> record; an id with no record left out), each read from its own file
    (``data/<kind>/<id>.textproto``). When one is not where its id says (another layout of the package), the whole set
    is read with gflanguages' own loader."""
    from importlib.resources import files

    from gflanguages import LanguageProto, LoadLanguages, LoadScripts, ScriptProto, text_format

    proto, load_all = {"languages": (LanguageProto, LoadLanguages), "scripts": (ScriptProto, LoadScripts)}[kind]
    folder = files("gflanguages.data").joinpath(kind)
    found = {}
    for record_id in ids:
        record_file = folder.joinpath(f"{record_id}.textproto")
        record = text_format.Parse(record_file.read_text(encoding="utf-8"), proto()) if record_file.is_file() else None
        if record is None or record.id != record_id:
            return {i: r for i, r in load_all().items() if i in ids}
        found[record_id] = record
    return found
