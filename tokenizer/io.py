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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model import SETTINGS, Tokenizer, TrainConfig
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

# -- what a model may make -------------------------------------------------------------------------
# Each limit is checked while the file is read, before the tokenizer (or anything as big) is built,
# and has a wide margin over what models need: GPT-4o's o200k_base has 199,998 tokens, the longest
# 128 bytes, 1.4 MB of tokens in all, none more than 10 merges deep; a lab model of 5,000 merges of
# the 1 MB bench corpus: longest token 46 bytes, 15 deep, 36 KB in all (figures: bench/bench_model_bounds.py).
MAX_MODEL_FILE_BYTES = 16_000_000
"""A model file is read up to this size (a model at every limit below, as the lab saves it, is ~10 MB)."""
MAX_MODEL_MERGES = 250_000
"""Merges in one model: more than o200k_base's 199,742; each merge costs the tokenizer about 1 KB."""
MAX_BASE_SYMBOLS = 1 << 18
"""Base symbols of a character-level model (262,144): every character Unicode has assigned (~160,000) fits."""
MAX_TOKEN_BYTES = 1 << 16
"""The longest token, in bytes (65,536): real tokenizers' longest is 128 bytes; a corpus that repeats a
whole page without a space makes a token of a few KB."""
MAX_MERGE_DEPTH = 256
"""How many merges deep a token may be built (a merge's depth is one more than its deeper part's):
real tokenizers and the lab's own models stay under 25; the merge-tree view walks the tree by recursion."""
MAX_VOCAB_BYTES = 1 << 24
"""All tokens' bytes added up (16 MiB): 12 times o200k_base's 1.4 MB. The tokenizer holds each token's
bytes and its label, and an export writes each twice: this is what bounds its memory."""
MAX_MARKER_CHARS = 32
"""The end-of-word marker ("</w>") is part of the label of every token that ends a word."""
_MAX_JSON_VALUES = 3 * MAX_MODEL_MERGES + 2 * MAX_BASE_SYMBOLS + 1_000
"""A model file at every limit has about this many JSON values (a merge is three: the pair and two ids)."""


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
    real text, every id in range. The checks go from cheap to costly, so a file far over
    a limit is refused before anything as big is built.
    """
    _check_header(data)
    config_data = _config_data(data)
    merges, base = data.get("merges"), data.get("base")
    _check_sizes(merges, base)
    config = TrainConfig(**config_data)
    _check_merges(merges)
    _check_base(config, base)
    model_figures(config.unit, base, config.end_of_word, merges)
    tokenizer = Tokenizer(config, [tuple(m) for m in merges], base)
    _check_vocab_size(data.get("vocab_size"), tokenizer)
    return tokenizer


def _check_header(data: Any) -> None:
    """A JSON object that says it is a lab model of the version this lab reads."""
    if not isinstance(data, dict):
        raise ValueError("This is not a Tokenization Lab model: expected a JSON object.")
    if data.get("format") != FORMAT:
        raise ValueError(f"This is not a Tokenization Lab model file (its 'format' should be {FORMAT!r}).")
    version = data.get("version")
    if not _is_whole_number(version):
        raise ValueError(f"The model's 'version' must be the number {VERSION}, not {_show(version)}.")
    if version != VERSION:
        raise ValueError(f"Model format version {version} is not supported (this lab reads version {VERSION}).")


def _config_data(data: dict) -> dict:
    """The 'config' object: only the trainer's settings, each text (the marker text or null), the marker short."""
    config_data = data.get("config")
    if not isinstance(config_data, dict):
        raise ValueError("The model file has no 'config' object.")
    unknown = set(config_data) - set(SETTINGS)
    if unknown:
        raise ValueError(f"The model's config has unknown settings: {_show(', '.join(sorted(unknown)), 80)}.")
    for key in SETTINGS:
        if key != "end_of_word" and key in config_data and not _is_text(config_data[key]):
            raise ValueError(f"The model's config setting {key!r} must be text, not {_show(config_data[key])}.")
    marker = config_data.get("end_of_word")
    if marker is not None and not _is_text(marker):
        raise ValueError(f"The model's end-of-word marker must be text or null, not {_show(marker)}.")
    if marker is not None and len(marker) > MAX_MARKER_CHARS:
        raise ValueError(
            f"The model's end-of-word marker is {len(marker):,} characters long; the lab reads markers of up to "
            f"{MAX_MARKER_CHARS} (such as '</w>'), as it is part of the label of every token that ends a word."
        )
    return config_data


def _check_sizes(merges: Any, base: Any) -> None:
    """At most MAX_MODEL_MERGES merges and MAX_BASE_SYMBOLS base symbols, counted before either is read."""
    if isinstance(merges, list) and len(merges) > MAX_MODEL_MERGES:
        raise ValueError(
            f"The model has {len(merges):,} merges; the lab reads models of up to {MAX_MODEL_MERGES:,} merges "
            "(GPT-4o's tokenizer has 199,742)."
        )
    if isinstance(base, list) and len(base) > MAX_BASE_SYMBOLS:
        raise ValueError(
            f"The model has {len(base):,} base symbols; the lab reads models of up to {MAX_BASE_SYMBOLS:,} "
            "(more than every character Unicode has assigned)."
        )


def _check_merges(merges: Any) -> None:
    """A list of [id, id] pairs of whole numbers (their range is checked by :func:`model_figures`)."""
    if not isinstance(merges, list) or not all(
        isinstance(m, list) and len(m) == 2 and all(_is_whole_number(i) for i in m) for m in merges
    ):
        raise ValueError("The model's 'merges' must be a list of [id, id] pairs.")


def _check_base(config: TrainConfig, base: Any) -> None:
    """A character-unit model lists its base symbols (one character each, and the marker where the trainer puts
    it); a byte-level model has none (its base is the 256 bytes)."""
    if config.unit != "chars":
        if base is not None:
            raise ValueError("A byte-level model has no 'base' list (its base is the 256 bytes): remove it.")
        return
    if not isinstance(base, list) or not all(isinstance(s, str) and s for s in base):
        raise ValueError("A character-unit model needs 'base': the list of its base symbols.")
    bad = next((s for s in base if not _is_text(s)), None)
    if bad is not None:
        raise ValueError(f"The model's base symbol {bad!r} is not a character (a lone surrogate).")
    long = next((s for s in base if len(s) != 1 and s != config.end_of_word), None)
    if long is not None:
        raise ValueError(
            f"The model's base symbol {_show(long)} ({len(long):,} characters) is not one character "
            "(nor the end-of-word marker)."
        )
    if config.end_of_word is not None and config.end_of_word not in base:
        # The trainer lists the marker among the base symbols, right after the first word's characters.
        raise ValueError(
            f"The model's end-of-word marker {config.end_of_word!r} is not among its base symbols, "
            "where the trainer always puts it: this file was not saved by the lab."
        )


def _check_vocab_size(size: Any, tokenizer: Tokenizer) -> None:
    """The vocabulary size the file states (it may leave it out) is the one its merges make."""
    if size is not None and not _is_whole_number(size):
        raise ValueError(f"The model's 'vocab_size' must be a whole number, not {_show(size)}.")
    if size is not None and size != tokenizer.vocab_size:
        raise ValueError(f"The model says its vocabulary has {size} tokens, but its merges make {tokenizer.vocab_size}.")


@dataclass(frozen=True)
class ModelFigures:
    """What a model's merges make, in the terms of the limits above."""

    merges: int
    base: int
    longest_token: int  # bytes
    depth: int  # merges deep, of the deepest token
    vocab_bytes: int  # every token's bytes, added up


def model_figures(
    unit: str, base: Sequence[str] | None, end_of_word: str | None, merges: Sequence[Sequence[int]], *, check: bool = True
) -> ModelFigures:
    """Walk the merges once, in order, with two numbers per id (its bytes and its depth): every merge
    joins two ids that exist before it, and no pair is merged twice; with ``check``, stop (ValueError)
    at the first merge that makes more than the lab reads, saying which limit and what the file has."""
    if unit == "bytes":
        lengths = [1] * 256 + ([0] if end_of_word is not None else [])
    else:
        assert base is not None
        lengths = [0 if s == end_of_word else len(s.encode("utf-8", "surrogatepass")) for s in base]
    depths = [0] * len(lengths)
    total = sum(lengths)
    longest = max(lengths, default=0)
    deepest = 0
    seen: dict[int, int] = {}
    stride = len(lengths) + len(merges)
    for rank, (a, b) in enumerate(merges):
        new = len(lengths)
        for i in (a, b):
            if i < 0:
                raise ValueError(f"Merge {rank + 1} uses id {i}: ids are 0 or more.")
            if i >= new:
                raise ValueError(f"Merge {rank + 1} uses id {i}, which does not exist yet (ids so far: 0 to {new - 1}).")
        first = seen.setdefault(a * stride + b, rank)
        if first != rank:
            raise ValueError(f"Merge {rank + 1} merges the pair ({a}, {b}) again (merge {first + 1} already did).")
        size = lengths[a] + lengths[b]
        depth = 1 + max(depths[a], depths[b])
        lengths.append(size)
        depths.append(depth)
        total += size
        longest = max(longest, size)
        deepest = max(deepest, depth)
        if not check:
            continue
        if size > MAX_TOKEN_BYTES:
            raise ValueError(
                f"The model's merge {rank + 1} joins tokens that add up to more than {MAX_TOKEN_BYTES:,} bytes "
                f"({size:,}), the longest token the lab reads (the longest of real tokenizers is 128 bytes)."
            )
        if depth > MAX_MERGE_DEPTH:
            raise ValueError(
                f"The model's merge {rank + 1} makes a token {depth:,} merges deep; the lab reads tokens up to "
                f"{MAX_MERGE_DEPTH} merges deep (real tokenizers stay under 25)."
            )
        if total > MAX_VOCAB_BYTES:
            raise ValueError(
                f"The model's tokens add up to more than {MAX_VOCAB_BYTES:,} bytes (by merge {rank + 1}), the most "
                "the lab reads (GPT-4o's 200,000 tokens are 1.4 MB)."
            )
    return ModelFigures(len(merges), len(lengths) - len(merges), longest, deepest, total)


def figures_of(tokenizer: Tokenizer) -> ModelFigures:
    """The figures of a tokenizer that is already built (e.g. one just trained)."""
    c = tokenizer.config
    return model_figures(c.unit, tokenizer.base or None, c.end_of_word, tokenizer.merges, check=False)


def check_model_figures(tokenizer: Tokenizer) -> None:
    """ValueError, as on reading, when a tokenizer (e.g. one just trained) makes more than the lab reads."""
    c = tokenizer.config
    model_figures(c.unit, tokenizer.base or None, c.end_of_word, tokenizer.merges)


def _count_values(text: str | bytes) -> int:
    """An upper bound on the JSON values in a text, in C speed: each value after a container's first is
    preceded by a comma, and each container opens with a bracket."""
    if isinstance(text, (bytes, bytearray)):
        return text.count(b",") + text.count(b"[") + text.count(b"{")
    return text.count(",") + text.count("[") + text.count("{")


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
    values = _count_values(text)
    if values > _MAX_JSON_VALUES:
        raise ValueError(
            f"This model file is too big: it lists {values:,} values (counting commas and brackets), and a model "
            f"the lab reads has at most about {_MAX_JSON_VALUES:,} ({MAX_MODEL_MERGES:,} merges of two ids, "
            f"{MAX_BASE_SYMBOLS:,} base symbols)."
        )
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
    """Read a model file, or ValueError saying what is wrong (it reads at most :data:`MAX_MODEL_FILE_BYTES`)."""
    try:
        raw = read_limited(path, f"The model file {str(path)!r}", MAX_MODEL_FILE_BYTES,
                           advice="a model saved by the lab is far smaller")
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
