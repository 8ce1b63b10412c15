"""The frame every page sits in: the page registry, the sidebar, large type.

Every page (and app.py) starts with one call::

    from ui.layout import page_setup

    page_setup("Train step by step")

That sets the browser tab title and icon, draws the sectioned sidebar, applies
large type when it is on, and writes the page heading.

How navigation works (Streamlit 1.67)
-------------------------------------
Pages live in ``pages/`` and Streamlit discovers them by file name; the URL path
is the file name without its number prefix and ``.py``
(``pages/1_Train_step_by_step.py`` -> ``/Train_step_by_step``). We do NOT use
``st.navigation``: next to a ``pages/`` folder it breaks deep links and AppTest
reruns. ``.streamlit/config.toml`` hides Streamlit's own page list
(``client.showSidebarNavigation = false``) and ``PAGES`` below drives the
sidebar instead, so sections and order are ours.

Adding a page: create ``pages/<N>_<Name>.py`` that calls ``page_setup(...)``,
then add one ``PageEntry`` line to ``PAGES``. ``tests/test_navigation.py``
checks that the registry and the folder agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

APP_NAME = "Tokenization Lab"
APP_ICON = ":material/token:"

#: The project root (the folder that holds app.py and pages/).
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class PageEntry:
    """One page in the sidebar.

    path:    file path relative to the project root, e.g. "pages/1_Train_step_by_step.py"
    title:   what the sidebar link, the heading and the browser tab say
    icon:    a Material icon shortcode, e.g. ":material/school:"
    section: the sidebar section the link sits under
    blurb:   one sentence for the home page's card: what you do there
    """

    path: str
    title: str
    icon: str
    section: str
    blurb: str = ""

    @property
    def url_path(self) -> str:
        """The URL path Streamlit serves this page at ("" for the home page).

        Mirrors Streamlit's pages-folder rule: drop the leading number and
        separators, and ".py"; runs of spaces/underscores become one "_".
        """
        if self.path == "app.py":
            return ""
        match = re.fullmatch(r"[0-9]*[_ -]*(.*)\.py", Path(self.path).name)
        assert match is not None, self.path
        return re.sub(r"[_ ]+", "_", match.group(1)).strip()


# The sidebar, in order. Sections appear in the order of their first page.
# Adding a page is one line here (plus its file in pages/).
PAGES: tuple[PageEntry, ...] = (
    PageEntry("app.py", "Home", ":material/home:", "Start"),
    PageEntry("pages/1_Train_step_by_step.py", "Train step by step", ":material/school:", "Core labs",
              "Give BPE a small corpus and watch each merge: the pair counts, the winner, the new token."),
    PageEntry("pages/2_Tokenize_anything.py", "Tokenize anything", ":material/text_fields:", "Core labs",
              "Paste any text (English, Hindi, Hinglish, emoji, code) and compare how tokenizers cut it."),
    PageEntry("pages/3_Encode_step_by_step.py", "Encode step by step", ":material/stairs:", "Core labs",
              "Watch a trained tokenizer split a word by applying its merges in order."),
    PageEntry("pages/4_Bytes_per_character.py", "Bytes per character", ":material/straighten:", "Core labs",
              "See how many UTF-8 bytes each character takes, and why Devanagari takes more than English."),
    PageEntry("pages/5_Real_tokenizers.py", "Real tokenizers", ":material/compare_arrows:", "Languages & cost",
              "GPT-4, GPT-4o, GPT-2, Llama 3, Qwen3 and Mistral on the same English and Hindi sentence: who pays "
              "more, and why."),
    PageEntry("pages/7_Beyond_Hindi.py", "Beyond Hindi", ":material/translate:", "Languages & cost",
              "Many languages and scripts read the same declaration: what each pays per character over English, and "
              "how much of that is UTF-8 and how much the tokenizer."),
    PageEntry("pages/8_Cost_and_context.py", "Cost, context and speed", ":material/currency_rupee:", "Languages & cost",
              "Turn tokens into rupees, into how many articles fit in a context window, and into decoding steps: "
              "English and Hindi side by side."),
    # Later waves: more "Languages & cost" pages, then "Lessons".
)


def sections() -> list[tuple[str, list[PageEntry]]]:
    """The registry grouped by section, keeping registry order."""
    grouped: dict[str, list[PageEntry]] = {}
    for entry in PAGES:
        grouped.setdefault(entry.section, []).append(entry)
    return list(grouped.items())


def find_page(title: str) -> PageEntry | None:
    """The registry entry with this title, or None."""
    return next((entry for entry in PAGES if entry.title == title), None)


# --- Large type (classroom mode) ---------------------------------------------
#
# The toggle's widget key is LARGE_TYPE_KEY. Streamlit forgets a widget's value
# when you move to another page (each page is a new script run and unrendered
# widget keys are cleaned up), so the on/off value also lives under a plain,
# non-widget key, _LARGE_TYPE_STORE, and is copied back into the widget key
# before the toggle is drawn on every page. The URL carries it as ?large=1 so a
# shared link opens in large type.

LARGE_TYPE_KEY = "large_type"
LARGE_TYPE_PARAM = "large"
_LARGE_TYPE_STORE = "_large_type_store"

# CSS every page gets: Streamlit's own small print under a file uploader states Streamlit's
# limit, not the page's; the uploader's label says the real limit instead (ui/uploads.py).
BASE_CSS_MARKER = "/* ui.layout: base */"
_BASE_CSS = f"""
<style>
{BASE_CSS_MARKER}
[data-testid="stFileUploaderDropzoneInstructions"] small {{ display: none; }}
</style>
"""

# One place for the classroom CSS. Streamlit sizes most text in rem, so scaling
# the root font size scales body text, widgets, tables and headings together;
# a few elements with fixed sizes are nudged explicitly.
LARGE_TYPE_CSS_MARKER = "/* ui.layout: large type */"
_LARGE_TYPE_CSS = f"""
<style>
{LARGE_TYPE_CSS_MARKER}
html {{ font-size: 22px; }}
/* One screen per step on a projector: less empty space above the page. */
[data-testid="stMainBlockContainer"] {{ padding-top: 2.2rem; padding-bottom: 2rem; }}
h1 {{ padding-top: .1rem !important; padding-bottom: .2rem !important; font-size: 2.1rem !important; }}
/* The sidebar has a fixed pixel width; on a wide screen, widen it so the bigger links fit. */
@media (min-width: 1100px) {{
  [data-testid="stSidebar"][data-collapsed="false"] {{
    width: 380px !important;
    min-width: 380px !important;
  }}
}}
/* A narrow window (a laptop on a projector): a little less large, so columns keep their words whole. */
@media (max-width: 1099px) {{
  html {{ font-size: 19px; }}
}}
[data-testid="stMarkdownContainer"] p,
[data-testid="stMarkdownContainer"] li,
[data-testid="stCaptionContainer"],
[data-testid="stWidgetLabel"] p,
[data-testid="stPageLink"] span,
[data-testid="stAlertContentInfo"] p {{
  font-size: 1rem;
  line-height: 1.5;
}}
/* What the learner types is as big as what the page says. */
[data-testid="stTextArea"] textarea,
[data-testid="stTextInput"] input {{
  font-size: 1rem;
}}
/* A metric's number is drawn inside a markdown paragraph too: keep it big. */
[data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMetricValue"] p {{
  font-size: 1.6rem;
  line-height: 1.2;
}}
</style>
"""


def large_type_on() -> bool:
    """Whether classroom large type is on for this session.

    Pages can use it, e.g. to draw charts with bigger labels.
    """
    return bool(st.session_state.get(_LARGE_TYPE_STORE, False))


def link_params() -> dict[str, str] | None:
    """Query params to put on links to other pages, so large type travels with them.

    Use with st.page_link(..., query_params=link_params()).
    """
    return {LARGE_TYPE_PARAM: "1"} if large_type_on() else None


def _large_type_from_url() -> bool:
    return st.query_params.get(LARGE_TYPE_PARAM, "") in ("1", "true", "on", "yes")


def _remember_large_type() -> None:
    # on_change callback: runs before the script, so the page that reruns
    # already sees the new value.
    st.session_state[_LARGE_TYPE_STORE] = bool(st.session_state[LARGE_TYPE_KEY])


def _sync_large_type() -> bool:
    """Decide large type for this run, restore the widget value, mirror the URL."""
    if _LARGE_TYPE_STORE not in st.session_state:
        # First run of this browser session: the link decides.
        st.session_state[_LARGE_TYPE_STORE] = _large_type_from_url()
    on = large_type_on()
    # Restore the widget value (lost on page switches). The toggle is created
    # without value=..., so this does not trigger Streamlit's
    # "default value and Session State" warning.
    st.session_state[LARGE_TYPE_KEY] = on
    # Keep the address bar shareable. Our page links carry ?large=1 (see
    # link_params), but a link without it, or st.switch_page, drops it: put it back.
    if on and st.query_params.get(LARGE_TYPE_PARAM) != "1":
        st.query_params[LARGE_TYPE_PARAM] = "1"
    elif not on and LARGE_TYPE_PARAM in st.query_params:
        del st.query_params[LARGE_TYPE_PARAM]
    return on


def _draw_sidebar() -> None:
    with st.sidebar:
        for section, entries in sections():
            st.caption(f"**{section.upper()}**")
            for entry in entries:
                st.page_link(
                    entry.path, label=entry.title, icon=entry.icon, query_params=link_params()
                )
        st.divider()
        st.toggle(
            "Large type (classroom)",
            key=LARGE_TYPE_KEY,
            on_change=_remember_large_type,
            help="Bigger text for projecting in class. Adds ?large=1 to the link, "
            "so a link you share opens in large type too.",
        )


def page_setup(title: str, *, heading: bool = True) -> None:
    """Call this first on every page.

    Sets the browser tab title and icon (the registry icon for ``title``, or the
    app icon), draws the sectioned sidebar with the large-type toggle, applies
    large type if it is on, and writes ``title`` as the page heading
    (``heading=False`` to draw your own).
    """
    entry = find_page(title)
    st.set_page_config(
        page_title=title if title == APP_NAME else f"{title} · {APP_NAME}",
        page_icon=entry.icon if entry else APP_ICON,
        layout="wide",
    )
    on = _sync_large_type()
    _draw_sidebar()
    st.html(_BASE_CSS)
    if on:
        # A style-only st.html goes to Streamlit's invisible "event" container,
        # so it takes no space and is not in at.main / at.sidebar in AppTest.
        st.html(_LARGE_TYPE_CSS)
    if heading:
        st.title(title)
