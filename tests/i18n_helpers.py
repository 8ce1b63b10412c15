"""Finding visible text that did not pass through the catalogue (the pseudo-locale, ``?lang=xx``), in AppTest and in
a browser: one rule for both.

In the pseudo-locale every translated string is drawn between ⟦ ⟧. What is left of a visible string once the
marked spans are taken out must be data: the text being tokenized, tokenizer and model names, numbers, symbols.
A word (two or more letters) that is none of these is English (or Hindi) that a page drew without ``_()``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable

import lessons
from family import real
from i18n import MARKS

_MARKED = re.compile(re.escape(MARKS[0]) + "[^" + MARKS[0] + MARKS[1] + "]*" + re.escape(MARKS[1]))
# A word: letters (with their combining marks, for Devanagari), digits and underscores, with at least two letters.
_WORD = re.compile(r"[\w\u0900-\u097f]+")
_HEX_BYTE = re.compile(r"[0-9A-Fa-f]{2}|[0-9A-F]{4,6}")  # a byte in hex, or a code point's (U+FFFD)
_ICON = re.compile(r":material/[a-z_]+:")
#: Always data: what the lab writes as it is in every language.
SYMBOLS = {"UTF", "MB", "CSV", "BPE", "id", "hex", "Rs"}  # Rs: the rupee as the English pages write it


def words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text) if sum(c.isalpha() for c in w) >= 2}


def data_texts(*texts: str) -> list[str]:
    """What may be drawn untranslated: ``texts`` (what is being tokenized), the Tokenize page's examples, every
    tokenizer's and lab preset's name, and :data:`SYMBOLS`."""
    names = [info.title for info in real.catalogue()] + [p.title for p in lessons.presets().values()]
    return [*texts, *names, *(e["text"] for e in lessons.examples("tokenize")), *SYMBOLS]


def unmarked(text: str) -> str:
    """``text`` without its marked spans (nested ones too) and icon codes (``:material/home:``)."""
    text = _ICON.sub(" ", text)
    while True:
        stripped = _MARKED.sub(" ", text)
        if stripped == text:
            return text
        text = stripped


def html_text(body: str) -> str:
    """The text an HTML block shows: styles and scripts dropped, tags removed, entities decoded."""
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", body, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def untranslated(texts: Iterable[tuple[str, str]], data: list[str]) -> list[str]:
    """Each (where, text) whose unmarked rest has a word that is not data (a word, or part of one, of ``data``: a
    chip holds part of a word), as "where: words | text"."""
    corpus = "\n".join(data)
    out = []
    for where, text in texts:
        stray = sorted(w for w in words(unmarked(text)) if w not in corpus and not _HEX_BYTE.fullmatch(w))
        if stray:
            out.append(f"{where}: {stray} | {text[:160]!r}")
    return out


# -- AppTest: the visible strings of every element -------------------------------------------------------------
#: Proto fields a learner reads (labels, help, placeholders, bodies, options); values, ids, keys, icons are not.
VISIBLE_FIELDS = {"label", "help", "placeholder", "body", "content", "options", "columns"}
#: Widgets that are deliberately in both languages (the language switch names each language in itself).
BILINGUAL_KEYS = ("lang_switch",)


def _strings(message, path: str = ""):
    from google.protobuf.message import Message

    for field, value in message.ListFields():
        values = value if not isinstance(value, (str, bytes, Message)) and hasattr(value, "__iter__") else [value]
        for v in values:
            if isinstance(v, Message):
                yield from _strings(v, f"{path}.{field.name}")
            elif isinstance(v, str) and field.name in VISIBLE_FIELDS:
                yield field.name, v


def apptest_texts(at) -> list[tuple[str, str]]:
    """Every visible string of the page's sidebar and main area, as (element kind, text)."""
    out: list[tuple[str, str]] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        kind = type(node).__name__
        if proto is not None and not any(key in (getattr(proto, "id", "") or "") for key in BILINGUAL_KEYS):
            for name, text in _strings(proto):
                if kind == "Html":
                    text = html_text(text)
                elif name == "columns":  # a data grid's column config: its labels and help
                    config = json.loads(text or "{}")
                    for column in config.values():
                        out.extend((f"{kind} column", str(column.get(k, ""))) for k in ("label", "help"))
                    continue
                out.append((kind, text))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.sidebar)
    walk(at.main)
    return out
