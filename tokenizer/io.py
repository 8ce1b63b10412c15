"""Saving and loading models and traces as documented JSON.

A model file looks like this (format version 1)::

    {
      "format": "tokenization-lab/bpe",
      "version": 1,
      "config": {"unit": "chars", "split": "whitespace", "pattern": " ?\\\\S+",
                 "end_of_word": null, "ties": "first"},
      "base": ["c", "h", "a", "i"],      # character unit only: base symbols in id order
      "merges": [[1, 2], [0, 4]],         # in learned order; merge r makes id len(base) + r
      "vocab_size": 6                     # informative; checked on load
    }

In the byte unit ``base`` is omitted: ids 0-255 are the bytes, the
end-of-word marker (if any) is 256, and merges start after them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .model import Tokenizer, TrainConfig
from .train import Trace

FORMAT = "tokenization-lab/bpe"
VERSION = 1


def tokenizer_to_dict(tokenizer: Tokenizer) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "config": tokenizer.config.to_dict()}
    if tokenizer.config.unit == "chars":
        data["base"] = list(tokenizer.base)
    data["merges"] = [list(pair) for pair in tokenizer.merges]
    data["vocab_size"] = tokenizer.vocab_size
    return data


def tokenizer_to_json(tokenizer: Tokenizer) -> str:
    return json.dumps(tokenizer_to_dict(tokenizer), ensure_ascii=False, indent=1)


def tokenizer_from_dict(data: Any) -> Tokenizer:
    """Rebuild a tokenizer, or raise ValueError saying what is wrong with the data."""
    if not isinstance(data, dict):
        raise ValueError("This is not a Tokenization Lab model: expected a JSON object.")
    if data.get("format") != FORMAT:
        raise ValueError(f"This is not a Tokenization Lab model file (its 'format' should be {FORMAT!r}).")
    if data.get("version") != VERSION:
        raise ValueError(f"Model format version {data.get('version')!r} is not supported (this lab reads version {VERSION}).")
    config_data = data.get("config")
    if not isinstance(config_data, dict):
        raise ValueError("The model file has no 'config' object.")
    allowed = {"unit", "split", "pattern", "end_of_word", "ties"}
    unknown = set(config_data) - allowed
    if unknown:
        raise ValueError(f"The model's config has unknown settings: {', '.join(sorted(unknown))}.")
    for key in ("unit", "split", "pattern", "ties"):
        if key in config_data and not isinstance(config_data[key], str):
            raise ValueError(f"The model's config setting {key!r} must be text.")
    if config_data.get("end_of_word") is not None and not isinstance(config_data["end_of_word"], str):
        raise ValueError("The model's end-of-word marker must be text or null.")
    config = TrainConfig(**config_data)
    merges = data.get("merges")
    if not isinstance(merges, list) or not all(
        isinstance(m, list) and len(m) == 2 and all(isinstance(i, int) and not isinstance(i, bool) for i in m)
        for m in merges
    ):
        raise ValueError("The model's 'merges' must be a list of [id, id] pairs.")
    base = None
    if config.unit == "chars":
        base = data.get("base")
        if not isinstance(base, list) or not all(isinstance(s, str) and s for s in base):
            raise ValueError("A character-unit model needs 'base': the list of its base symbols.")
    tokenizer = Tokenizer(config, [tuple(m) for m in merges], base)
    size = data.get("vocab_size")
    if size is not None and size != tokenizer.vocab_size:
        raise ValueError(f"The model says its vocabulary has {size} tokens, but its merges make {tokenizer.vocab_size}.")
    return tokenizer


def tokenizer_from_json(text: str | bytes) -> Tokenizer:
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"This file is not valid JSON: {exc}.") from None
    return tokenizer_from_dict(data)


def save(tokenizer: Tokenizer, path: str | Path) -> None:
    Path(path).write_text(tokenizer_to_json(tokenizer), encoding="utf-8")


def load(path: str | Path) -> Tokenizer:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"Cannot read the model file {str(path)!r}: {exc.strerror}.") from None
    return tokenizer_from_json(raw)


def trace_to_dict(trace: Trace) -> dict[str, Any]:
    """The trace as JSON-ready data. Pairs are token strings in the character unit, ids in the byte unit."""
    tok = trace.tokenizer
    as_text = tok.config.unit == "chars"

    def pair(p: tuple[int, int]) -> list:
        return [tok.label(p[0]), tok.label(p[1])] if as_text else list(p)

    steps = []
    for s in trace.steps:
        steps.append(
            {
                "step": s.step,
                "pair": pair(s.pair),
                "token": s.token if as_text else s.token_id,
                "id": s.token_id,
                "text": s.token,
                "count": s.count,
                "ties": [pair(t.pair) for t in s.ties],
                "n_tied": s.n_tied,
            }
        )
    return {
        "config": tok.config.to_dict(),
        "requested": trace.requested,
        "stop_reason": trace.stop_reason.value if trace.stop_reason else None,
        "steps": steps,
    }


def trace_rows(trace: Trace) -> list[dict[str, Any]]:
    """One flat row per step, for a table or a CSV file."""
    return [
        {
            "step": s.step,
            "left": s.left,
            "right": s.right,
            "token": s.token,
            "token_id": s.token_id,
            "count": s.count,
            "tied_pairs": s.n_tied,
            "vocab_size": s.vocab_size,
        }
        for s in trace.steps
    ]
