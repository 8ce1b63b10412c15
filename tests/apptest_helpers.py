"""AppTest helpers for page tests.

Usage in a page test::

    from tests.apptest_helpers import run_page      # or: from apptest_helpers import run_page

    def test_train_page_runs():
        at = run_page("pages/1_Train_step_by_step.py", query_params={"text": "aaabdaaabac"})
        at.button(key="run").click().run()
        assert at.session_state["merges_done"] == 3

Why pages are run through app.py
--------------------------------
`AppTest.from_file("pages/X.py")` would make the page the *entrypoint*: Streamlit
then resolves every `st.page_link("pages/...")` in the shared sidebar relative
to pages/ and the run fails with StreamlitPageNotFoundError. A real visitor's
session always has app.py as the entrypoint, so `run_page` does the same:
`AppTest.from_file(<root>/app.py)`, then `switch_page("pages/X.py")` before the
first run. For a page in the pages/ folder that lands directly on the page,
like a deep link on a fresh session (app.py's body does not run), and every
later `at.run()` reruns that page.
"""

from __future__ import annotations

import html as _html
import re as _re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
ENTRYPOINT = "app.py"

# Pages import `ui` and `tokenizer` from the project root. `streamlit run` puts
# that folder on sys.path; under pytest we do it here.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def exception_messages(at: AppTest) -> list[str]:
    """The messages of all exception elements, with their last stack line."""
    out = []
    for exc in at.exception:
        where = exc.stack_trace[-1].strip() if exc.stack_trace else ""
        out.append(f"{exc.message}\n    at {where}")
    return out


def assert_no_exception(at: AppTest) -> None:
    """Fail with the page's exception messages if it showed any."""
    messages = exception_messages(at)
    assert not messages, "the page raised:\n" + "\n".join(messages)


_COMPONENTS: BidiComponentManager | None = None


def app_test(at: AppTest) -> AppTest:
    """``at`` (a new AppTest, not run yet) sharing this process's one registry of installed components, as every
    session of a real server shares its runtime's. Left to itself, each AppTest reads the metadata of every installed
    package on its first run, looking for components (about 0.1 s: most of a simple page's run, for every AppTest of
    the suite); they are the same packages every time."""
    global _COMPONENTS
    if not hasattr(at, "_bidi_component_manager"):
        raise AssertionError("AppTest no longer keeps its components in _bidi_component_manager: mend app_test()")
    if _COMPONENTS is None:
        _COMPONENTS = BidiComponentManager()
        _COMPONENTS.discover_and_register_components(start_file_watching=False)  # as AppTest does
    at._bidi_component_manager = _COMPONENTS
    return at


def run_page(
    relative_path: str,
    query_params: Mapping[str, Any] | None = None,
    session_state: Mapping[str, Any] | None = None,
    *,
    allow_exceptions: bool = False,
    timeout: float = 30,
) -> AppTest:
    """Run one page of the app in AppTest and return it.

    relative_path:    "app.py" or a file in pages/, relative to the project root
    query_params:     set before the first run, as if they were in the link
    session_state:    values put into st.session_state before the first run
    allow_exceptions: if False (default), fail when the page shows an exception

    Rerun with `at.run()` after changing widgets; check `assert_no_exception(at)`
    again if you need to.
    """
    if not (ROOT / relative_path).is_file():
        raise FileNotFoundError(f"no page at {ROOT / relative_path}")
    at = app_test(AppTest.from_file(ROOT / ENTRYPOINT, default_timeout=timeout))
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    for name, value in (session_state or {}).items():
        at.session_state[name] = value
    if Path(relative_path).as_posix() != ENTRYPOINT:
        at.switch_page(relative_path)
    at.run()
    if not allow_exceptions:
        assert_no_exception(at)
    return at


def main_text(at: AppTest) -> str:
    """All the markdown, captions, titles and alerts of the main area, joined.

    Handy for "does the page say X" checks without caring which element holds it.
    """
    parts: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success", "error"):
        parts.extend(str(el.value) for el in at.main.get(kind))
    return "\n".join(parts)


# -- reading the chips a page drew (one parser for every test) -------------------------------------


@dataclass
class ParsedChip:
    """One chip as a browser would show it: its text (entities decoded), classes and labels."""

    text: str = ""
    classes: frozenset[str] = frozenset()
    title: str = ""
    aria: str = ""
    style: str = ""
    id: str | None = None
    name: str | None = None  # the on-screen name of a lone combining mark

    @property
    def partial(self) -> bool:
        return "tl-partial" in self.classes

    @property
    def highlighted(self) -> bool:
        return "tl-hl" in self.classes


@dataclass
class ParsedChips:
    tags: list[str] = field(default_factory=list)
    chips: list[ParsedChip] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)  # the text written under each run of partial tokens
    attrs: list[dict] = field(default_factory=list)  # every element's attributes

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.chips]


class _ChipParser(HTMLParser):
    _FIELDS = {"tl-text": "text", "tl-id": "id", "tl-name": "name"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out = ParsedChips()
        self.stack: list[str | None] = []  # per open element: the field its text goes to

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        self.out.tags.append(tag)
        self.out.attrs.append(attrs)
        classes = set((attrs.get("class") or "").split())
        target = self.stack[-1] if self.stack else None
        if "tl-chip" in classes:
            self.out.chips.append(ParsedChip(classes=frozenset(classes), title=attrs.get("title", ""),
                                             aria=attrs.get("aria-label", ""), style=attrs.get("style", "")))
            target = None
        elif "tl-run-text" in classes:
            self.out.runs.append("")
            target = "run"
        else:
            for cls, name in self._FIELDS.items():
                if cls in classes and self.out.chips:
                    target = name
                    if name != "text":
                        setattr(self.out.chips[-1], name, "")
        self.stack.append(target)

    def handle_endtag(self, tag) -> None:
        if self.stack:
            self.stack.pop()

    def handle_data(self, data) -> None:
        target = self.stack[-1] if self.stack else None
        if target == "run":
            self.out.runs[-1] += data
        elif target is not None and self.out.chips:
            chip = self.out.chips[-1]
            setattr(chip, target, (getattr(chip, target) or "") + data)


def parse_chips(html: str) -> ParsedChips:
    """The chips (and runs) in a block of chip HTML."""
    parser = _ChipParser()
    parser.feed(html)
    return parser.out


def html_blocks(at: AppTest, marker: str = 'class="tl-chips"') -> list[str]:
    """The st.html blocks of the main area that contain ``marker`` (CSS stripped)."""
    return [h.value.split("</style>")[-1] for h in at.main.get("html") if marker in h.value]


# -- what a page shows, as text ---------------------------------------------------------------------


def plain(fragment: str) -> str:
    """The text of an HTML fragment, tags and CSS blocks removed, entities decoded, spaces squeezed."""
    body = _re.sub(r"<style>.*?</style>", " ", fragment, flags=_re.S)
    return _re.sub(r"\s+", " ", _html.unescape(_re.sub(r"<[^>]+>", " ", body))).strip()


def html_texts(at: AppTest) -> list[str]:
    """Each st.html block of the main area as plain text."""
    return [plain(str(h.value)) for h in at.main.get("html")]


def page_text(at: AppTest) -> str:
    """Everything the main area says: its HTML blocks as text, then its Markdown, captions and alerts."""
    return " ".join(html_texts(at)) + " " + main_text(at)


def metrics(at: AppTest) -> dict[str, str]:
    """The main area's metrics, label -> value."""
    return {m.label: m.value for m in at.main.get("metric")}


def button(at: AppTest, label: str):
    """The first button with this label (for buttons without a key, such as the predict widget's)."""
    return next(b for b in at.button if b.label == label)


def chart_datasets(chart) -> dict[str, Any]:
    """A ``vega_lite_chart`` element's named datasets as pandas frames (Streamlit sends each as an Arrow IPC stream),
    in the order the page gave them."""
    import pyarrow as pa

    return {d.name: pa.ipc.open_stream(d.data.data).read_all().to_pandas() for d in chart.proto.datasets}


def chart_spec(chart) -> dict:
    """A ``vega_lite_chart`` element's Vega-Lite spec, as the page sent it (without its datasets)."""
    import json

    return json.loads(chart.proto.spec)


# -- what Streamlit's Markdown would make a link of -------------------------------------------------------------
# Elements whose text Streamlit draws as Markdown: an element's body (markdown, caption, alerts, toasts), every
# label (widgets, expanders, tabs, page links) and help tooltip, and a radio's or a button group's options. Not
# Markdown: st.html (escaped HTML), code, st.text, a metric's value, a select box's options, a text input's value.
_MARKDOWN_BODIES = {"Markdown", "Alert", "Toast"}
_LINK_SYNTAX = _re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\s*[(\[]|(?<!\\)<\s*(?:https?|mailto|ftp|www)|<a\b", _re.I)
# The literals remark-gfm links in text once escapes are read (mdast-util-gfm-autolink-literal, as Streamlit 1.67's
# frontend bundles it; JavaScript's \w is ASCII, hence re.ASCII).
_AUTOLINK = _re.compile(r"(https?://|www(?=\.))[-.\w]+", _re.I | _re.A)
_EMAIL = _re.compile(r"(?<![-.\w+])[-.\w+]+@[-\w]+(?:\.[-\w]+)+", _re.A)
_SHORTCODE = _re.compile(r"(?<!\\):[\w+-]+:|(?<!\\):material/", _re.A)
# Streamlit's typographic replacements in text (after escapes): a lone -- as an em dash, -> as an arrow...
_TYPOGRAPHY = _re.compile(r"(?:(?<=\s)|^)(?:<->|->|<-|--|>=|<=|~=)(?=\s|$)")


def _walk(node):
    yield node
    kids = getattr(node, "children", None) or {}
    for kid in kids.values() if isinstance(kids, dict) else kids:
        yield from _walk(kid)


def markdown_texts(at: AppTest) -> list[str]:
    """Every text of the session (main area and sidebar) that Streamlit draws as Markdown."""
    out = []
    for node in _walk(at._tree):
        proto = getattr(node, "proto", None)
        if proto is None or not hasattr(proto, "ListFields"):
            continue
        for field_desc, value in proto.ListFields():
            name = field_desc.name
            if name in ("label", "help") and isinstance(value, str):
                out.append(value)
            elif name == "body" and isinstance(value, str) and type(proto).__name__ in _MARKDOWN_BODIES:
                out.append(value)
            elif name == "options" and type(proto).__name__ == "Radio":
                out.extend(str(v) for v in value)
            elif name == "options" and type(proto).__name__ == "ButtonGroup":
                out.extend(str(getattr(v, "content", "")) for v in value)
    return out


def links_in_markdown(text: str) -> list[str]:
    """What Streamlit's Markdown would draw from ``text`` as a link, a picture or an icon, or as other characters:
    link syntax that is not escaped, and the autolink literals, shortcodes and typographic replacements (-- as a
    dash) Streamlit finds in the text once its escapes are read."""
    found = [m.group(0) for m in _LINK_SYNTAX.finditer(text)]
    read = _re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)  # what the text says after Markdown reads its escapes
    found += [m.group(0) for m in _AUTOLINK.finditer(read)]
    found += [m.group(0) for m in _EMAIL.finditer(read)]
    found += [m.group(0) for m in _SHORTCODE.finditer(text)]
    found += [m.group(0) for m in _TYPOGRAPHY.finditer(read)]
    return found


def links(at: AppTest, needle: str = "") -> list[str]:
    """Links (and pictures, icons) the session's Markdown would draw, each with its text; only those whose text
    holds ``needle`` when given (a page's own links, such as a lesson's, are not user text)."""
    return [f"{hit!r} in {text[:120]!r}" for text in markdown_texts(at) for hit in links_in_markdown(text)
            if needle in hit]


# -- what a page's download buttons offer ------------------------------------------------------------------------
class Downloads(dict):
    """File name -> bytes of every download button the session drew. A button whose data is built when clicked (a
    callable: Streamlit's deferred download) is clicked when the test reads it, as a person clicks it then."""

    def __getitem__(self, name: str) -> bytes:
        value = super().__getitem__(name)
        if callable(value):
            value = value()
            value = value.encode("utf-8") if isinstance(value, str) else value
        return value


def capture_downloads(monkeypatch) -> Downloads:
    """Catch what download buttons offer where Streamlit stores a download (its data, or its callable)."""
    from streamlit.runtime.media_file_manager import MediaFileManager
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    offered = Downloads()
    keep = MemoryMediaFileStorage.load_and_get_id
    keep_deferred = MediaFileManager.add_deferred

    def spy(self, path_or_data, mimetype, kind, filename=None):
        if filename:
            offered[filename] = path_or_data if isinstance(path_or_data, bytes) else str(path_or_data).encode()
        return keep(self, path_or_data, mimetype, kind, filename)

    def spy_deferred(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        if file_name:
            offered[file_name] = data_callable
        return keep_deferred(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", spy)
    monkeypatch.setattr(MediaFileManager, "add_deferred", spy_deferred)
    return offered
