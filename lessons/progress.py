"""A learner's progress as a file: answers and scores that survive a reload or a new machine.

The predict widget keeps every first answer in the browser session as
``{key: {"guess": ..., "right": bool, "scope": str}}``. :func:`to_json` writes
that as a small JSON file to download; :func:`from_json` reads one back, and
refuses a damaged or foreign file with a message that says what is wrong, so
the current progress is never replaced by nonsense.

>>> text = to_json({"bpe-training:chai-first-merge": {"guess": "h + a", "right": True, "scope": "bpe-training"}})
>>> from_json(text)["bpe-training:chai-first-merge"]["right"]
True
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

FORMAT = "tokenization-lab/progress"
VERSION = 1
MAX_BYTES = 2_000_000
MAX_ANSWERS = 10_000


def to_json(answers: dict[str, dict[str, Any]]) -> str:
    """The answers as the progress file's text."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "saved": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "answers": answers,
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def _guess_ok(guess: Any) -> bool:
    if isinstance(guess, bool):
        return False
    if isinstance(guess, (str, int, float)):
        return not isinstance(guess, str) or len(guess) <= 2_000
    return isinstance(guess, list) and len(guess) <= 500 and all(isinstance(g, str) and len(g) <= 200 for g in guess)


def from_json(data: bytes | str) -> dict[str, dict[str, Any]]:
    """The answers in a progress file, or ValueError saying why the file cannot be used."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise ValueError("This file is far bigger than a progress file from this lab.")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError("This file is not text (not UTF-8), so it is not a progress file from this lab.") from None
    try:
        parsed = json.loads(data)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise ValueError("This file is not valid JSON: it may be damaged, or not a progress file.") from None
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise ValueError("This is not a progress file from the Tokenization Lab.")
    version = parsed.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise ValueError(f"This progress file has version {version!r}; this lab reads version {VERSION}.")
    answers = parsed.get("answers")
    if not isinstance(answers, dict) or len(answers) > MAX_ANSWERS:
        raise ValueError("This progress file's answers are damaged (expected a table of answers).")
    out: dict[str, dict[str, Any]] = {}
    for key, entry in answers.items():
        if (not isinstance(key, str) or not key or len(key) > 300 or not isinstance(entry, dict)
                or not isinstance(entry.get("right"), bool) or not isinstance(entry.get("scope", ""), str)
                or not _guess_ok(entry.get("guess"))):
            raise ValueError(f"This progress file's answer {str(key)[:60]!r} is damaged.")
        out[key] = {"guess": entry["guess"], "right": entry["right"], "scope": entry.get("scope", "")}
    return out


def merge(current: dict[str, dict[str, Any]], loaded: dict[str, dict[str, Any]]) -> tuple[dict, int]:
    """Loaded answers added to the current ones; an answer already given here stays (the first counts).
    Returns the merged answers and how many were added."""
    merged = dict(current)
    added = 0
    for key, entry in loaded.items():
        if key not in merged:
            merged[key] = entry
            added += 1
    return merged, added


__all__ = ["FORMAT", "VERSION", "from_json", "merge", "to_json"]
