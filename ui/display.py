"""The display rules for the screen: a token as HTML, a note box, user text in Markdown.

The rules themselves (what a space, a lone vowel sign or a stray byte looks like) are written once, as
plain text, in :mod:`tokenizer.plaintext`; this module gives them their HTML and Markdown forms and
offers both to pages, so a page imports its display rules from one place. Pure Python (no Streamlit).

Markdown: Streamlit reads captions, alerts and widget labels as Markdown.
:func:`md_escape` makes user text show exactly as typed; :func:`md_code`
puts it in an inline code span. HTML: :func:`token_html` escapes everything.

>>> token_html(" कि")
'<span class="tl-ws">·</span>कि'
>>> print(md_escape("**bold** 1.5"))
\\*\\*bold\\*\\* 1\\.5
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

from i18n import _
from tokenizer.labels import plural
from tokenizer.plaintext import (
    DOTTED_CIRCLE,
    EMPTY,
    WHITESPACE,
    and_words,
    answer_text,
    code_point,
    describe_token,
    is_mark,
    join_words,
    lone_marks,
    mark_name,
    pair_text,
    quantity,
    ratio,
    readable_text,
    segments,
    tokens_text,
    visible_token,
)

_CLASSES = {"ws": "tl-ws", "code": "tl-cp", "hex": "tl-hex", "lone": "tl-lone"}


def token_html(label: str) -> str:
    """A token label as escaped HTML, each kind of segment in its own span (for chips)."""
    if not label:
        return EMPTY
    out: list[str] = []
    for kind, text in segments(label):
        if kind == "text":
            out.append(html.escape(text))
        else:
            out.append(f'<span class="{_CLASSES[kind]}">{html.escape(text)}</span>')
    return "".join(out)


# -- callouts ------------------------------------------------------------------------------------
_CALLOUT_COLOURS = {"info": "rgba(28,131,225,.12)", "warning": "rgba(255,189,69,.22)",
                    "success": "rgba(33,195,84,.14)", "error": "rgba(255,43,43,.12)"}


def callout_html(text: str, kind: str = "info", more: tuple[str, str] | None = None) -> str:
    """A coloured box holding text that may contain the learner's own words: escaped, never Markdown.
    Line breaks in ``text`` are kept. ``more`` (title, text): detail folded under it, one click away.

    >>> ">The bytes</summary>&lt;E0&gt;</details>" in callout_html("Right!", more=("The bytes", "<E0>"))
    True
    """
    role = "alert" if kind in ("warning", "error") else "status"
    folded = (f'<details class="tl-more"><summary style="cursor:pointer;font-weight:600">{html.escape(more[0])}</summary>{html.escape(more[1])}</details>'
              if more else "")
    return (
        f'<div role="{role}" class="tl-note tl-note-{kind}" style="background:{_CALLOUT_COLOURS[kind]};'
        f'border-radius:.5em;padding:.75em 1em;margin:.2em 0 .6em;line-height:1.5;white-space:pre-wrap;'
        f'overflow-wrap:anywhere">{html.escape(text)}{folded}</div>'
    )


# -- Markdown ------------------------------------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&\"'=^%@/])")
_ICON_CODE = re.compile(r":(?=material/|streamlit:)", re.IGNORECASE)


def _no_icons(text: str) -> str:
    # Streamlit turns ``:material/name:`` into an icon even inside code spans and
    # after backslashes; a word joiner after the colon stops it and is invisible.
    return _ICON_CODE.sub(":\u2060", text)


# Streamlit's Markdown (remark-gfm) makes links of "autolink literals" in plain text: http(s)://..., www.... and
# name@host.tld. It finds them in the text after backslash escapes are read, so escaping cannot stop them; its
# shortcodes (:rocket:, :red[...], :material/...:) are read there too, and so are its typographic replacements (a
# lone -- becomes an em dash, -> an arrow, <= and >= signs: "Dana -- Das" showed as "Dana — Das"). A word joiner
# (U+2060: invisible, no space, no line break) inside each of these, and nowhere else, keeps the text as typed on
# screen, and never a link, a picture or another character.
_UNLINK = re.compile(
    r"(?<=http)(?=s?://)"  # http⁠s://
    r"|(?<=www)(?=\.)"  # www⁠.
    r"|(?<=[-.\w+])@(?=[-\w]+\.)"  # name@⁠host.tld
    r"|:(?=[\w+-]+:|[a-z][a-z0-9-]*\[|material/|streamlit:)"  # :⁠rocket:  :⁠red[...]  :⁠material/...
    r"|(?:(?<=\s)|^)(?:<(?=->)|-(?=>)|<(?=-)|-(?=-)|>(?==)|<(?==)|~(?==))(?=.(?:\s|$)|->(?:\s|$))",  # -⁠- -⁠> <⁠= ...
    re.IGNORECASE)
WORD_JOINER = "\u2060"


def no_links(text: str) -> str:
    """``text`` with a word joiner wherever Streamlit's Markdown would make a link, an emoji or an icon of it
    (https://..., www...., name@host, :shortcode:) or replace its characters (a lone -- as a dash, -> as an
    arrow); it looks the same. :func:`md_escape` does this too.

    >>> no_links("see https://evil.example or www.x.org") == "see http\u2060s://evil.example or www\u2060.x.org"
    True
    >>> no_links("Dana -- Das, --input-price, a->b") == "Dana -\u2060- Das, --input-price, a->b"
    True
    """
    return _UNLINK.sub(lambda m: m.group(0) + WORD_JOINER, text)


def md_escape(text: str) -> str:
    """``text`` escaped for Streamlit Markdown (alerts, captions, labels, a radio's options): shown as typed,
    never formatted and never a link (see :func:`no_links`)."""
    return _MD_SPECIAL.sub(r"\\\1", no_links(text))


def translated(marked: Mapping[str, str]) -> dict[str, str]:
    """Choices' names (marked ``N_`` for the catalogue) in the run's language, drawn now: a widget's
    ``format_func=translated(NAMES).__getitem__`` (Streamlit may call it after the run, when no run's language is
    set).

    >>> translated({"chars": "characters", "</w>": "</w>"})
    {'chars': 'characters', '</w>': '</w>'}
    """
    return {key: _(name) for key, name in marked.items()}


def md_code(text: str, *, visible: bool = True) -> str:
    """``text`` as a Markdown inline code span: shown literally, never as Markdown or HTML.

    ``visible``: apply the token rules (spaces as ``·``…); otherwise only line breaks become spaces.
    """
    shown = visible_token(text) if visible else re.sub(r"[\r\n]+", " ", text)
    shown = _no_icons(shown) or EMPTY
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


__all__ = [
    "and_words",
    "answer_text",
    "DOTTED_CIRCLE",
    "callout_html",
    "EMPTY",
    "WHITESPACE",
    "code_point",
    "describe_token",
    "is_mark",
    "join_words",
    "lone_marks",
    "mark_name",
    "md_code",
    "md_escape",
    "no_links",
    "pair_text",
    "plural",
    "quantity",
    "ratio",
    "readable_text",
    "segments",
    "token_html",
    "tokens_text",
    "translated",
    "visible_token",
]
