"""Loading the lab's content (presets, data files) from this folder. No UI code, no prose here."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from tokenizer import TrainConfig

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

    @property
    def config(self) -> TrainConfig:
        """The five trainer settings (checked: a bad preset fails when it is loaded)."""
        return TrainConfig(self.unit, self.split, self.pattern, self.end_of_word, self.ties)

    def train_kwargs(self) -> dict:
        return self.config.to_dict()


@lru_cache(maxsize=None)
def data(name: str) -> dict:
    """A JSON file from lessons/data/ (name without .json)."""
    return json.loads((HERE / "data" / f"{name}.json").read_text(encoding="utf-8"))


def _data_string(ref: str) -> str:
    file, _, key = ref.partition(":")
    value = data(file)[key]
    if not isinstance(value, str):
        raise ValueError(f"{ref} is not a string")
    return value


@lru_cache(maxsize=None)
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


@lru_cache(maxsize=None)
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


@lru_cache(maxsize=None)
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
            unit=entry.get("unit", "bytes"),
            split=entry.get("split", "regex"),
            end_of_word=entry.get("end_of_word") or None,
            merges=entry.get("merges", 10),
            ties=entry.get("ties", "first"),
            pattern=entry.get("pattern", r" ?\S+"),
            examples=tuple(entry.get("examples", ())),
            note=entry.get("note", ""),
        )
        out[entry["id"]].config  # noqa: B018 - validate the settings now, not when a page trains
    return out
