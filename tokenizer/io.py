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
from .textfile import read_limited, refuse_wide_json, write_file
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


# A model's numbers are ids and counts: none has more digits than this. A longer number is
# refused while the file is parsed, before Python's own limit (4,300 digits) and its advice.
_MAX_DIGITS = 18
# The tokens of a model, added up, are at most this many base symbols long. A model trained
# in the lab is far below it (a token is never longer than a word of its corpus); a file
# whose merges double a token again and again would otherwise fill the memory.
MAX_TOTAL_TOKEN_LENGTH = 1 << 28


class _Refused(Exception):
    """Raised from inside the JSON parser: the file is refused for the reason given."""


def _show(value: Any, width: int = 40) -> str:
    """A value from the file as it is written in JSON, cut short if it is long."""
    text = json.dumps(value, ensure_ascii=False)
    if not _is_text(text):  # a lone surrogate cannot be printed: write it as its escape
        text = json.dumps(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _is_text(value: Any) -> bool:
    """A str that is real text: no lone surrogate (which a ``\\ud800`` escape in JSON can make)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_whole_number(value: Any) -> bool:
    """An int that is not a bool (JSON ``true`` is a bool, and a bool is an int in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def tokenizer_from_dict(data: Any) -> Tokenizer:
    """Rebuild a tokenizer, or raise ValueError saying what is wrong with the data.

    Accepts exactly what :func:`tokenizer_to_dict` writes for a model the trainer can
    make: every setting of the right type (``true`` is not the number 1), every text
    real text, every id in range.
    """
    if not isinstance(data, dict):
        raise ValueError("This is not a Tokenization Lab model: expected a JSON object.")
    if data.get("format") != FORMAT:
        raise ValueError(f"This is not a Tokenization Lab model file (its 'format' should be {FORMAT!r}).")
    version = data.get("version")
    if not _is_whole_number(version):
        raise ValueError(f"The model's 'version' must be the number {VERSION}, not {_show(version)}.")
    if version != VERSION:
        raise ValueError(f"Model format version {version} is not supported (this lab reads version {VERSION}).")
    config_data = data.get("config")
    if not isinstance(config_data, dict):
        raise ValueError("The model file has no 'config' object.")
    allowed = {"unit", "split", "pattern", "end_of_word", "ties"}
    unknown = set(config_data) - allowed
    if unknown:
        raise ValueError(f"The model's config has unknown settings: {_show(', '.join(sorted(unknown)), 80)}.")
    for key in ("unit", "split", "pattern", "ties"):
        if key in config_data and not _is_text(config_data[key]):
            raise ValueError(f"The model's config setting {key!r} must be text, not {_show(config_data[key])}.")
    marker = config_data.get("end_of_word")
    if marker is not None and not _is_text(marker):
        raise ValueError(f"The model's end-of-word marker must be text or null, not {_show(marker)}.")
    config = TrainConfig(**config_data)
    merges = data.get("merges")
    if not isinstance(merges, list) or not all(
        isinstance(m, list) and len(m) == 2 and all(_is_whole_number(i) for i in m) for m in merges
    ):
        raise ValueError("The model's 'merges' must be a list of [id, id] pairs.")
    base = data.get("base")
    if config.unit == "chars":
        if not isinstance(base, list) or not all(isinstance(s, str) and s for s in base):
            raise ValueError("A character-unit model needs 'base': the list of its base symbols.")
        bad = next((s for s in base if not _is_text(s)), None)
        if bad is not None:
            raise ValueError(f"The model's base symbol {bad!r} is not a character (a lone surrogate).")
        if config.end_of_word is not None and config.end_of_word not in base:
            # The trainer lists the marker among the base symbols, right after the first word's characters.
            raise ValueError(
                f"The model's end-of-word marker {config.end_of_word!r} is not among its base symbols, "
                "where the trainer always puts it: this file was not saved by the lab."
            )
    elif base is not None:
        raise ValueError("A byte-level model has no 'base' list (its base is the 256 bytes): remove it.")
    _check_merge_ids(config, base, merges)
    tokenizer = Tokenizer(config, [tuple(m) for m in merges], base)
    size = data.get("vocab_size")
    if size is not None and not _is_whole_number(size):
        raise ValueError(f"The model's 'vocab_size' must be a whole number, not {_show(size)}.")
    if size is not None and size != tokenizer.vocab_size:
        raise ValueError(f"The model says its vocabulary has {size} tokens, but its merges make {tokenizer.vocab_size}.")
    return tokenizer


def _check_merge_ids(config: TrainConfig, base: list[str] | None, merges: list[list[int]]) -> None:
    """Every merge joins two ids that exist before it, and the tokens stay a sane length."""
    if config.unit == "bytes":
        lengths = [1] * 256 + ([0] if config.end_of_word is not None else [])
    else:
        assert base is not None
        lengths = [0 if s == config.end_of_word else 1 for s in base]
    total = sum(lengths)
    for rank, (a, b) in enumerate(merges):
        new = len(lengths)
        for i in (a, b):
            if i < 0:
                raise ValueError(f"Merge {rank + 1} uses id {i}: ids are 0 or more.")
            if i >= new:
                raise ValueError(f"Merge {rank + 1} uses id {i}, which does not exist yet (ids so far: 0 to {new - 1}).")
        lengths.append(lengths[a] + lengths[b])
        total += lengths[-1]
        if total > MAX_TOTAL_TOKEN_LENGTH:
            raise ValueError(
                f"The model's merges build tokens that add up to more than {MAX_TOTAL_TOKEN_LENGTH:,} symbols "
                f"(by merge {rank + 1}): no corpus the lab trains on gives that, so this file was not saved by the lab."
            )


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > _MAX_DIGITS:
        raise _Refused(f"it has a number {digits:,} digits long, and no id or count in a model is that large")
    return int(text)


def _parse_constant(name: str) -> float:
    raise _Refused(f"{name} is not a number in JSON")


def tokenizer_from_json(text: str | bytes) -> Tokenizer:
    """Parse a model file's text (or bytes) and rebuild the tokenizer; ValueError if it is not one."""
    if isinstance(text, (bytes, bytearray)):
        refuse_wide_json(bytes(text), "This file")  # json.loads would read UTF-16 and UTF-32 too
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except _Refused as exc:
        raise ValueError(f"This is not a valid model file: {exc}.") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"This file is not valid JSON: {exc}.") from None
    except RecursionError:
        raise ValueError("This file is nested too deeply to be a model file.") from None
    return tokenizer_from_dict(data)


def save(tokenizer: Tokenizer, path: str | Path) -> None:
    """Write the model as JSON; the file is replaced only once the whole model is written
    (an OSError names ``path``)."""
    write_file(path, tokenizer_to_json(tokenizer))


def load(path: str | Path) -> Tokenizer:
    """Read a model file, or ValueError saying what is wrong (it reads at most 100 MB)."""
    try:
        raw = read_limited(path, f"The model file {str(path)!r}", advice="a model saved by the lab is far smaller")
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
