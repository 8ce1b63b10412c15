"""A learner's progress as a file: answers that survive a reload or a new machine.

The predict widget keeps every first answer in the browser session as
``{key: {"guess": ..., "right": bool | None, "scope": str}}``. :func:`to_json`
writes that as a small JSON file to download; :func:`from_json` reads one back.

Nothing in a file is believed: only the guesses are read. A file that is not a
progress file (not text, not JSON, another format or version, too big) is refused
whole, with a message saying what is wrong; an answer that is damaged (no guess,
a guess no question takes) is refused on its own and named. The guesses that are
read are then checked against their questions and judged again by the lab
(``views/progress.py``): a file's ``right`` and ``scope`` are never used.

>>> text = to_json({"lesson:bpe-training:chai-first-merge": {"guess": "h + a", "right": True, "scope": "bpe-training"}})
>>> from_json(text).guesses
{'lesson:bpe-training:chai-first-merge': 'h + a'}
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

FORMAT = "tokenization-lab/progress"
VERSION = 1
MAX_BYTES = 2_000_000
MAX_ANSWERS = 10_000
MAX_KEY = 300
MAX_TEXT = 2_000
MAX_PIECES = 500


@dataclass
class Loaded:
    """What a progress file holds: its guesses by question key, and the answers refused as (key, why)."""

    guesses: dict[str, Any] = field(default_factory=dict)
    refused: list[tuple[str, str]] = field(default_factory=list)


def to_json(answers: dict[str, dict[str, Any]]) -> str:
    """The answers as the progress file's text."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "saved": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "answers": {key: {"guess": entry.get("guess"), "right": entry.get("right"), "scope": entry.get("scope", "")}
                    for key, entry in answers.items()},
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def guess_problem(guess: Any) -> str | None:
    """None when ``guess`` is something an answer can be (text, a finite number, a list of short texts), else why
    not. Whether it fits its question is checked later, by the question's kind.

    >>> guess_problem("h + a"), guess_problem(3), guess_problem({"x": 1}), guess_problem(float("nan"))
    (None, None, 'the guess is not text, a number or a list of texts', 'the guess is not a finite number')
    """
    if isinstance(guess, bool) or guess is None:
        return "there is no guess" if guess is None else "the guess is true/false, which no question takes"
    if isinstance(guess, str):
        return None if len(guess) <= MAX_TEXT else f"the guess is longer than {MAX_TEXT:,} characters"
    if isinstance(guess, int):
        return None if abs(guess) < 10**18 else "the guess is too big a number"
    if isinstance(guess, float):
        return None if math.isfinite(guess) else "the guess is not a finite number"
    if isinstance(guess, list):
        if len(guess) > MAX_PIECES or not all(isinstance(g, str) and len(g) <= 200 for g in guess):
            return "the guess is a list, but not of short texts"
        return None
    return "the guess is not text, a number or a list of texts"


def from_json(data: bytes | str) -> Loaded:
    """The guesses in a progress file (and the damaged answers, refused), or ValueError saying why the whole
    file cannot be used."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise ValueError("This file is far bigger than a progress file from this lab.")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError("This file is not text (not UTF-8), so it is not a progress file from this lab.") from None
    elif len(data) > MAX_BYTES:
        raise ValueError("This file is far bigger than a progress file from this lab.")
    try:
        parsed = json.loads(data)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise ValueError("This file is not valid JSON: it may be damaged, or not a progress file.") from None
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise ValueError("This is not a progress file from the Tokenization Lab.")
    version = parsed.get("version")
    if isinstance(version, bool) or version != VERSION:
        shown = repr(version) if isinstance(version, (int, float, bool, type(None))) else "unknown"
        raise ValueError(f"This progress file has version {shown[:20]}; this lab reads version {VERSION}.")
    answers = parsed.get("answers")
    if not isinstance(answers, dict):
        raise ValueError("This progress file's answers are damaged (expected a table of answers).")
    if len(answers) > MAX_ANSWERS:
        raise ValueError(f"This progress file holds {len(answers):,} answers; a progress file from this lab holds "
                         f"at most {MAX_ANSWERS:,}.")
    loaded = Loaded()
    for key, entry in answers.items():
        if not key or len(key) > MAX_KEY:
            loaded.refused.append((key[:MAX_KEY], "its name is empty or far too long"))
            continue
        if not isinstance(entry, dict) or "guess" not in entry:
            loaded.refused.append((key, "it has no guess"))
            continue
        problem = guess_problem(entry["guess"])
        if problem:
            loaded.refused.append((key, problem))
            continue
        loaded.guesses[key] = entry["guess"]
    return loaded


def merge(current: dict[str, dict[str, Any]], loaded: dict[str, dict[str, Any]]) -> tuple[dict, list[str], list[str]]:
    """Loaded answers added to the current ones; an answer already given here stays (the first counts), and
    nothing current is changed. Returns the merged answers, the keys added and the keys kept as they were."""
    merged = dict(current)
    added, kept = [], []
    for key, entry in loaded.items():
        if key in merged:
            kept.append(key)
        else:
            merged[key] = entry
            added.append(key)
    return merged, added, kept


__all__ = ["FORMAT", "Loaded", "MAX_ANSWERS", "MAX_BYTES", "VERSION", "from_json", "guess_problem", "merge", "to_json"]
