"""User text is shown as text, never as a link or markup, on every page (AppTest).

A link's values are the easiest text to plant: every setting a page reads from its address is set to hostile text
(a bare URL, ``www.``, an e-mail address, Markdown link syntax, an emoji shortcode), and nothing the page then
draws as Markdown may hold a link, a picture or an icon made of it (``tests.apptest_helpers.links``: what
Streamlit's Markdown makes a link of, remark-gfm's autolink literals included, which backslash escapes do not
stop). The same hostile texts in the class (a posed question's prompt and choices, a name, a title) are checked
in tests/test_page_class.py, and in Chromium through scripts/serve's nginx in tests/test_serve_class.py.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from tests.apptest_helpers import ROOT, assert_no_exception, links, links_in_markdown, markdown_texts, run_page
from ui import state
from ui.display import md_escape, no_links

HOSTILE = ("see https://evil.example/login now, www.evil.example, m@evil.example, "
           "[X](https://evil.example/md) and :rocket: -- evil -> here")
SHORT = ("www.evil.ex", "m@evil.ex", "http://e.ex")
"""For settings that hold only a few characters (a class code holds 12)."""
PAGES = sorted(p.name for p in (ROOT / "pages").glob("*.py"))


def page_params(page: str) -> list[str]:
    """The settings a page reads from its address: every ``state.Param`` of its view module, and the tokenizer
    pickers' ``tok`` and ``toks`` (made by ui.choices when the page runs)."""
    source = (ROOT / "pages" / page).read_text(encoding="utf-8")
    module = re.search(r"^from views import (\w+)", source, re.M) or re.search(r"^from views\.(\w+) import", source, re.M)
    names = {"tok", "toks"}
    if module:
        view = importlib.import_module(f"views.{module.group(1)}")
        stack = list(vars(view).values())
        while stack:
            item = stack.pop()
            if isinstance(item, state.Param):
                names.add(item.name)
            elif isinstance(item, (tuple, list)) and len(item) < 50:
                stack.extend(item)
            elif isinstance(item, dict) and len(item) < 50:
                stack.extend(item.values())
    return sorted(names)


def test_the_checker_finds_what_streamlit_would_link() -> None:
    """The checker itself: plain Markdown of the hostile text is full of links; the display rule's is free of them."""
    assert len(links_in_markdown(HOSTILE)) >= 5
    escaped = md_escape(HOSTILE)
    assert links_in_markdown(escaped.replace("\u2060", "")), "backslash escapes alone leave autolinks"
    assert links_in_markdown(escaped) == []
    assert no_links(HOSTILE).replace("\u2060", "") == HOSTILE  # the text itself is unchanged on screen


@pytest.mark.parametrize("page", PAGES)
def test_no_setting_in_a_link_becomes_a_link_on_the_page(page: str) -> None:
    params = page_params(page)
    for values in ({name: HOSTILE for name in params},
                   {name: SHORT[i % len(SHORT)] for i, name in enumerate(params)}):
        at = run_page(f"pages/{page}", query_params=values, allow_exceptions=True, timeout=120)
        assert_no_exception(at)
        assert not links(at, "evil"), f"{page} with {sorted(values)}: " + "; ".join(links(at, "evil"))
        assert not links(at, ":rocket:"), links(at, ":rocket:")
        assert not [hit for hit in links(at) if "--" in hit and "evil" in hit], links(at)


def test_the_hostile_text_is_still_shown_as_typed() -> None:
    """Not a link, and not hidden: a link's unknown tokenizer is named as it was written (the word joiners are
    invisible)."""
    at = run_page("pages/2_Tokenize_anything.py", query_params={"toks": HOSTILE})
    shown = [re.sub(r"\\(.)", r"\1", t).replace("\u2060", "") for t in markdown_texts(at)]
    assert any("https://evil.example/login" in t for t in shown), shown


def test_every_page_is_swept() -> None:
    assert len(PAGES) >= 14 and all(Path(ROOT / "pages" / p).is_file() for p in PAGES)
