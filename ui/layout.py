"""The frame every page sits in: the page registry, the sidebar, large type.

Every page (and app.py) starts with one call::

    from ui.frame import page_setup

    page_setup("Train step by step")

That sets the browser tab title and icon, draws the sectioned sidebar, applies
large type when it is on, and writes the page heading (this module's
:func:`frame`); then the class bar and a lesson link's questions
(:mod:`ui.frame`, above the kit modules that draw with this one's helpers).

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
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from html import escape as html_escape
from pathlib import Path

import streamlit as st

from i18n import N_, _
from ui import language, state, viewport

APP_NAME = N_("Tokenization Lab")
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
    PageEntry("app.py", N_("Home"), ":material/home:", N_("Start")),
    PageEntry("pages/1_Train_step_by_step.py", N_("Train step by step"), ":material/school:", N_("Core labs"),
              N_("Give BPE a small corpus and watch each merge: the pair counts, the winner, the new token.")),
    PageEntry("pages/2_Tokenize_anything.py", N_("Tokenize anything"), ":material/text_fields:", N_("Core labs"),
              N_("Paste any text (English, Hindi, Hinglish, emoji, code) and compare how tokenizers cut it.")),
    PageEntry("pages/3_Encode_step_by_step.py", N_("Encode step by step"), ":material/stairs:", N_("Core labs"),
              N_("Watch a trained tokenizer split a word by applying its merges in order.")),
    PageEntry("pages/4_Bytes_per_character.py", N_("Bytes per character"), ":material/straighten:", N_("Core labs"),
              N_("See how many UTF-8 bytes each character takes, and why Devanagari takes more than English.")),
    PageEntry("pages/5_Real_tokenizers.py", N_("Real tokenizers"), ":material/compare_arrows:", N_("Languages & cost"),
              N_("GPT-4, GPT-4o, GPT-2, Llama 3, Qwen3 and Mistral on the same English and Hindi sentence: who pays "
              "more, and why.")),
    PageEntry("pages/15_Vocabulary_by_script.py", N_("Vocabulary by script"), ":material/dictionary:", N_("Languages & cost"),
              N_("Read a production tokenizer's whole vocabulary by script: how many Devanagari tokens GPT-4 and GPT-4o "
              "have, how long they are, where they rank, and search inside it.")),
    PageEntry("pages/6_English_vs_Hindi.py", N_("English vs Hindi"), ":material/balance:", N_("Languages & cost"),
              N_("Share one merge budget between English and Hindi, slide the mix, and watch who gets the cheap tokens.")),
    PageEntry("pages/7_Beyond_Hindi.py", N_("Beyond Hindi"), ":material/translate:", N_("Languages & cost"),
              N_("Many languages and scripts read the same declaration: what each pays per character over English, and "
              "how much of that is UTF-8 and how much the tokenizer.")),
    PageEntry("pages/8_Cost_and_context.py", N_("Cost, context and speed"), ":material/currency_rupee:", N_("Languages & cost"),
              N_("Turn tokens into rupees, into how many articles fit in a context window, and into decoding steps: "
              "English and Hindi side by side.")),
    PageEntry("pages/9_Streaming.py", N_("Streaming"), ":material/stream:", N_("Languages & cost"),
              N_("Send a Hindi sentence token by token: decoded one token at a time it shows �, held until each "
              "character is whole it shows the text.")),
    PageEntry("pages/10_Quirks.py", N_("Quirks"), ":material/psychology_alt:", N_("Languages & cost"),
              N_("Leading spaces, capitals, joined prompts, JSON, numbers with Indian commas, letters in strawberry: "
              "live examples where token counts surprise.")),
    PageEntry("pages/11_The_family.py", N_("The family"), ":material/family_history:", N_("Languages & cost"),
              N_("BPE beside WordPiece merge by merge, Unigram's sampled splits, and a real tokenizer's pipeline and "
              "special tokens.")),
    PageEntry("pages/14_Estimate.py", N_("Estimate"), ":material/calculate:", N_("Languages & cost"),
              N_("Paste a prompt or upload a dataset, pick models by name (GPT-4o, GPT-4, Llama 3…), and read its exact "
              "tokens and cost per request and per month in USD and INR, at dated prices you can change.")),
    # More "Languages & cost" pages go here, before the lessons.
    PageEntry("pages/12_Lessons.py", N_("Lessons"), ":material/menu_book:", N_("Lessons"),
              N_("Ten short lessons with exercises: predict first, then the lab computes the truth and keeps your "
              "score.")),
    PageEntry("pages/13_Class.py", N_("Class"), ":material/groups:", N_("Lessons"),
              N_("Predict together: a teacher starts a class, learners join with its code, the class answers the "
              "same question on their own screens, and the lab reveals the truth.")),
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

#: Panels side by side on a wide screen that a phone swipes through (:func:`swipe_columns`).
SWIPE_KEY_PREFIX = "tl-swipe-"
#: The panel a phone shows first (:func:`swipe_columns`'s ``phone_first``) is made first, so it is first in the page:
#: Streamlit draws a row's columns one by one, and the row snaps to the first one drawn, which Chromium then keeps in
#: view. (Moved first by CSS instead, it was first only once it was drawn: on a fast machine a phone opened Train's
#: step on the pair counts, not the corpus.) A wider screen puts the panels back in their order, named by the
#: row's key (``-phone-first-N``).
PHONE_FIRST_MARK = "-phone-first-"
MAX_SWIPE_PANELS = 4


def _wide_order_css() -> str:
    """On a screen wider than a phone's, each panel of a row whose panel N was made first back in its place."""
    rules = []
    for first in range(1, MAX_SWIPE_PANELS):
        made = [first] + [i for i in range(MAX_SWIPE_PANELS) if i != first]  # the panel at each place in the page
        rules += [f'[class*="st-key-{SWIPE_KEY_PREFIX}"][class*="{PHONE_FIRST_MARK}{first}"] [data-testid='
                  f'"stHorizontalBlock"] > [data-testid="stColumn"]:nth-child({place + 1}) {{ order: {panel}; }}'
                  for place, panel in enumerate(made)]
    return "\n  ".join(rules)


# CSS every page gets. Streamlit's own small print under a file uploader states Streamlit's
# limit, not the page's; the uploader's label says the real limit instead (ui/uploads.py).
BASE_CSS_MARKER = "/* ui.layout: base */"
_BASE_CSS = f"""
<style>
{BASE_CSS_MARKER}
[data-testid="stFileUploaderDropzoneInstructions"] {{ display: none; }}
/* Captions: Streamlit's faded grey is 3.9:1 on white (axe: colour contrast); the text colour at 80% is
   over 7:1 in the light theme and stays readable in the dark one. */
div[data-testid="stCaptionContainer"] {{ color: inherit; opacity: .8; }}
/* Less empty space above the title (Streamlit leaves 6rem; its header is 3.75rem): a page's main control and what
   it changes share the first screen of a laptop. Large type sets its own. */
[data-testid="stMainBlockContainer"] {{ padding-top: 4rem; }}
/* A phone: tab labels wrap onto a second line instead of running past the screen's edge. */
@media (max-width: 640px) {{
  [data-testid="stMain"] [data-testid="stTabs"] [role="tablist"] {{ flex-wrap: wrap; row-gap: .25rem; }}
  /* A stepper's four buttons: a bar fixed at the screen's foot, so Next stays under the thumb while the learner
     reads down the step (ui/steps.py); the page keeps room below its end for it. Its background is the page's
     (ui/viewport.py copies the theme's colour into --tl-page-bg). */
  [class*="st-key-{viewport.STEPBAR_PREFIX}"] {{
    position: fixed; left: 0; right: 0; bottom: 0; z-index: 99; width: auto !important;
    justify-content: center; padding: .5rem 1rem calc(.5rem + env(safe-area-inset-bottom));
    background: var(--tl-page-bg, #fff); box-shadow: 0 -1px 6px rgba(0, 0, 0, .18);
  }}
  [data-testid="stMainBlockContainer"]:has([class*="st-key-{viewport.STEPBAR_PREFIX}"]) {{ padding-bottom: 5.5rem; }}
  /* Swipe panels (swipe_columns): one row that scrolls sideways, a panel a screen wide, the next one's edge showing
     so the learner sees there is more; the panel made first (the phone's first) first. Only a phone shows the hint. */
  [class*="st-key-{SWIPE_KEY_PREFIX}"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"],
  [class*="st-key-{SWIPE_KEY_PREFIX}"] > [data-testid="stHorizontalBlock"] {{
    flex-wrap: nowrap !important; overflow-x: auto; scroll-snap-type: x mandatory; overscroll-behavior-x: contain;
  }}
  [class*="st-key-{SWIPE_KEY_PREFIX}"] [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {{
    flex: 0 0 92% !important; min-width: 92% !important; width: 92% !important; scroll-snap-align: start;
  }}
  /* The step bar on one line: First, Previous and Last show their icons; the words stay for screen readers. */
  [class*="st-key-{viewport.STEPBAR_PREFIX}"] :is([class*="-first"], [class*="-prev"], [class*="-last"]) button
    [data-testid="stMarkdownContainer"] {{
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
  }}
}}
/* HTML for one kind of screen (phone_only, wide_only): the other kind hides its element, gap and all (display:
   none also keeps it from screen readers, so the copy is never read twice). */
@media (min-width: 641px) {{ [data-testid="stElementContainer"]:has(.tl-phone-only) {{ display: none; }} }}
@media (min-width: 641px) {{
  {_wide_order_css()}
}}
@media (max-width: 640px) {{ [data-testid="stElementContainer"]:has(.tl-wide-only) {{ display: none; }} }}
.tl-swipe-hint {{ margin: 0; font-size: .9rem; opacity: .8; text-align: center; }}
/* A link or a button in a narrow column (a page's link to its lesson, the lesson list) wraps its label
   instead of cutting it off. */
[data-testid="stMain"] [data-testid="stPageLink-NavLink"] span,
[data-testid="stMain"] [data-testid="stPageLink-NavLink"] p,
[data-testid="stMain"] button [data-testid="stMarkdownContainer"],
[data-testid="stMain"] button [data-testid="stMarkdownContainer"] p {{
  white-space: normal;
  overflow: visible;
}}
/* A menu of buttons (a container keyed tl-menu-...) reads as a list: labels start at the left. */
[class*="st-key-tl-menu"] button,
[class*="st-key-tl-menu"] button > div {{ justify-content: flex-start; text-align: left; }}
[class*="st-key-tl-menu"] button [data-testid="stMarkdownContainer"] p {{ text-align: left; }}
/* A phone has no hover, so Streamlit shows a data grid's toolbar (columns, download, search, full screen) all the
   time, 44 px above the grid, over the end of the sentence before it: the grid leaves it room. */
@media (hover: none) {{
  [data-testid="stMain"] [data-testid="stElementContainer"]:has(> [data-testid="stFullScreenFrame"] > [data-testid="stDataFrame"]) {{
    margin-top: 2rem;
  }}
}}
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
/* What the learner types or picks is as big as what the page says. Streamlit 1.67 draws a picker's chosen value
   as its combobox's input (it drew a div before), and its open options in a list outside the page. */
[data-testid="stTextArea"] textarea,
[data-testid="stTextInput"] input,
[data-testid="stNumberInput"] input,
[data-testid="stSelectbox"] input,
[data-testid="stMultiSelect"] input,
[role="listbox"] [role="option"],
[role="listbox"] [role="option"] div {{
  font-size: 1rem;
}}
/* Nothing under 20 px on a projector: the small print Streamlit and the lab's drawings use (code in a sentence,
   a tokenizer's tag in a picker, a slider's value, a button's key, a chip's id and vowel-sign name, a byte, a code point's number)
   keeps its size relative to its text but never goes under 20 px. */
[data-testid="stMarkdownContainer"] code,
[data-testid="stCaptionContainer"] code,
[data-testid="stMultiSelectTagsContainer"] span,
[data-baseweb="tag"] span,
[data-testid="stSliderThumbValue"],
[data-testid="stSliderTickBarMin"],
[data-testid="stSliderTickBarMax"],
[data-testid="stTooltipContent"],
[data-testid="stMetricDelta"] div,
.tl-chip .tl-id, .tl-chip .tl-count, .tl-chip .tl-name, .tl-chip .tl-cp, .tl-chip .tl-hex,
.tl-b, .tl-cp .tl-code, .tl-rowlabel,
[data-testid="stMain"] button kbd,  /* a step button's key (PageDown), shown on the button */
[data-testid="stCode"] code,  /* a command to copy (Estimate's command line) */
[data-testid="stTable"] th, [data-testid="stTable"] td {{  /* ui/tables.py: large type draws tables as text */
  font-size: max(20px, .9em) !important;
}}
/* Streaming's small print (its panels' captions, the token's labels, "nothing yet", a held byte), Train's code
   view and a merge tree's notes (ui/treeview.py): each keeps its size relative to its text, never under 20 px. */
.tl-stream-foot, .tl-code, .tl-tree .tl-how {{ font-size: max(20px, .9em) !important; }}
.tl-now .tl-k {{ font-size: max(20px, .85em) !important; }}
.tl-empty {{ font-size: max(20px, .7em) !important; }}
.tl-held {{ font-size: max(20px, .62em) !important; }}
.tl-markname {{ font-size: max(20px, .6em) !important; }}
/* A metric's number is drawn inside a markdown paragraph too: keep it big. */
[data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMetricValue"] p {{
  font-size: 1.6rem;
  line-height: 1.2;
}}
</style>
"""


# Classroom mode: the screen is the slide. The sidebar starts closed (frame), so the page has the whole width;
# opened, it is no wider than in normal type.
CLASSROOM_CSS_MARKER = "/* ui.layout: classroom */"
_CLASSROOM_CSS = f"""
<style>
{CLASSROOM_CSS_MARKER}
/* With the sidebar closed, Streamlit's header bar (only the button that opens it) would cover the page's title. */
[data-testid="stHeader"] {{ background: transparent; }}
@media (min-width: 1100px) {{
  [data-testid="stSidebar"][data-collapsed="false"] {{
    width: 300px !important;
    min-width: 300px !important;
  }}
}}
</style>
"""

#: A figure a lesson sends the reader to see is drawn in ``figure(name)``: its element carries the class
#: ``st-key-tl-fig-<name>``, the name a lesson link's ``figure`` field gives (lessons/course.py), so a test can find it.
FIGURE_KEY_PREFIX = "tl-fig-"


def figure(name: str):
    """A container for the figure ``name`` (``with figure("share-chart"): ...``): what a lesson link points at."""
    return st.container(key=FIGURE_KEY_PREFIX + name)


def figure_selector(name: str) -> str:
    """The CSS selector of the figure ``name`` on the page."""
    return f".st-key-{FIGURE_KEY_PREFIX}{name}"


def phone_only(html: str) -> str:
    """``html`` (for ``st.html``) shown only on a phone-sized screen (640 px wide or less)."""
    return f'<div class="tl-phone-only">{html}</div>'


def wide_only(html: str) -> str:
    """``html`` (for ``st.html``) shown only on a screen wider than a phone's; with :func:`phone_only`, one thing can
    sit where each kind of screen wants it (e.g. beside a chart on a laptop, under it in a phone's swipe panel)."""
    return f'<div class="tl-wide-only">{html}</div>'


def swipe_columns(name: str, spec, *, phone_first: int | None = None, hint: str = "", **kwargs) -> list:
    """``st.columns(spec, **kwargs)`` that a phone shows as panels side by side, one screen wide each, which the
    learner swipes through (Streamlit would stack them: a step's result then takes one and a half screens).
    ``phone_first`` is the index of the column a phone shows first; ``hint`` is a line only a phone shows, above
    the panels (e.g. "Swipe for the pair counts"). Returns the columns."""
    n = spec if isinstance(spec, int) else len(spec)
    if n > MAX_SWIPE_PANELS or (phone_first is not None and not 0 <= phone_first < n):
        raise ValueError(f"swipe_columns: {n} panels (at most {MAX_SWIPE_PANELS}), phone_first={phone_first}")
    made = list(range(n)) if not phone_first else [phone_first] + [i for i in range(n) if i != phone_first]
    box = st.container(key=SWIPE_KEY_PREFIX + name + (f"{PHONE_FIRST_MARK}{phone_first}" if phone_first else ""))
    if hint:
        box.html(phone_only(f'<p class="tl-swipe-hint">{html_escape(hint)}</p>'))
    drawn = box.columns(n if isinstance(spec, int) else [spec[i] for i in made], **kwargs)
    columns: list = [None] * n
    for place, panel in enumerate(made):
        columns[panel] = drawn[place]
    return columns


def controls(label: str, *, icon: str = ":material/tune:", classroom: bool | None = None) -> AbstractContextManager:
    """Where a page's controls go (its text boxes, pickers, settings): in classroom mode a closed box with ``label``
    (the slide is the result, whole on the projector's first screen; the teacher opens the box to change something),
    otherwise the page itself. ``classroom``: whether classroom mode is on, when the caller knows (a
    :class:`ui.show.Show` does); read from the sidebar and the address otherwise. The one rule: ``Show.folded`` is
    this."""
    on = classroom_on() if classroom is None else classroom
    return st.expander(label, icon=icon) if on else nullcontext()


class Slides:
    """A page cut into parts: ``part = Slides({"bill": "The bill", ...}, PART)``, then ``with part("bill"): ...``.
    ``param`` is the part on screen, a :class:`ui.state.Param` whose choices are the parts' names and "" (its
    default: every part). The parts are tabs (made where the first part is drawn) in classroom mode, one slide each,
    and wherever the setting names a part (a lesson's "see the window" link opens on the window, the rest one click
    away); a click on a tab sets the setting, so the address says the part on screen and a link opens it. Otherwise
    every part is drawn on the page itself, in order. ``first``: the tab opened in classroom mode when the setting
    names none (the first part, unless given)."""

    def __init__(self, labels: Mapping[str, str], param: state.Param, first: str | None = None) -> None:
        self.labels, self.param = dict(labels), param
        self.first = first if first in self.labels else next(iter(self.labels))
        self.tabs: dict[str, AbstractContextManager] = {}

    @property
    def tab_key(self) -> state.Key:
        """The tabs' own key: their value is the open tab's label (the part's name is the setting's value)."""
        return state.Key(self.param.page, f"{self.param.name}_tab")

    def tabbed(self) -> bool:
        """Whether the parts are tabs: in classroom mode, or when the setting names one."""
        return classroom_on() or state.value(self.param) in self.labels

    def _picked(self) -> None:
        label = st.session_state.get(self.tab_key.skey)
        part = next((name for name, text in self.labels.items() if text == label), None)
        if part is not None:
            state.set_value(self.param, part)

    def __call__(self, name: str) -> AbstractContextManager:
        if self.tabbed() and not self.tabs:
            part = state.value(self.param)
            label = self.labels[part if part in self.labels else self.first]
            st.session_state[self.tab_key.skey] = label  # the tab the setting names (a link, Back, a rerun)
            made = st.tabs(list(self.labels.values()), key=self.tab_key.skey, on_change=self._picked)  # no default=:
            # the value set above is the one (both would be a warning)
            self.tabs = dict(zip(self.labels, made))
        return self.tabs.get(name) or nullcontext()

    def open(self, name: str) -> bool:
        """Whether part ``name`` is drawn in this run: its tab is the open one (the tabs know which, so a page may
        skip the others' work), or the parts are not tabs. Call it inside ``with part(name)``."""
        tab = self.tabs.get(name)
        return tab is None or getattr(tab, "open", None) is not False


@dataclass(frozen=True)
class _Switch:
    """A session-wide on/off setting with a sidebar toggle and a URL parameter (large type, classroom mode).

    Streamlit forgets a widget's value when you move to another page, so the value
    also lives under a plain key (``store``) and is copied back into the widget key
    before the toggle is drawn on every page; the URL carries it (``?large=1``).
    """

    key: str
    param: str
    store: str
    label: str
    help: str

    def on(self) -> bool:
        return bool(st.session_state.get(self.store, False))

    def remember(self) -> None:  # on_change: runs before the script, so the rerun sees the new value
        st.session_state[self.store] = bool(st.session_state[self.key])  # (classroom mode brings large type: frame)

    def in_url(self) -> bool:
        return st.query_params.get(self.param, "") in ("1", "true", "on", "yes")

    def sync(self, *, implied: bool = False) -> bool:
        """Decide the value for this run, restore the widget value, mirror the URL.

        The link decides on the first run of a browser session and when Back or Forward brought this address
        (the URL is then the view). ``implied``: another switch brings this one (classroom mode brings large
        type), so the address need not say it.
        """
        if self.store not in st.session_state or state.history_navigation():
            st.session_state[self.store] = self.in_url()
        if implied:
            st.session_state[self.store] = True
        on = self.on()
        st.session_state[self.key] = on  # the toggle is created without value=: no double-default warning
        if on and not implied and not self.in_url():
            st.query_params[self.param] = "1"
            state.note_address()
        elif not on and self.param in st.query_params:
            del st.query_params[self.param]
            state.note_address()
        return on


LARGE = _Switch(LARGE_TYPE_KEY, LARGE_TYPE_PARAM, _LARGE_TYPE_STORE, N_("Large type (classroom)"),
                N_("Bigger text for projecting in class. Adds ?large=1 to the link, so a link you share opens in "
                   "large type too."))
CLASSROOM = _Switch("classroom_mode", "classroom", "_classroom_store", N_("Classroom mode"),
                    N_("Large type and fewer controls, one step per click: for a projector. Adds ?classroom=1 to the "
                       "link, so the link you put on a slide opens the same way."))


def large_type_on() -> bool:
    """Whether classroom large type is on for this session.

    Pages can use it, e.g. to draw charts with bigger labels.
    """
    return LARGE.on()


def classroom_on() -> bool:
    """Whether classroom mode is on: pages then hide secondary controls (settings, downloads, tables)."""
    return CLASSROOM.on()


def link_params(page: str | None = None) -> dict[str, str] | None:
    """Query params to put on links to other pages, so large type, classroom mode and the language travel with them.

    ``page`` (a page's URL path): the link also carries the settings the learner left on that page (the
    sidebar, the home page's cards), so the click brings that view back in one history entry, with an
    address that is a link to it. Use with st.page_link(..., query_params=link_params()).
    """
    params = state.kept_address(page) if page is not None else {}
    if large_type_on():
        params[LARGE_TYPE_PARAM] = "1"
    if classroom_on():
        params[CLASSROOM.param] = "1"
    params.update(language.link_param())
    return params or None


# --- Keyboard: a skip link to the page's main controls ------------------------------------------
#
# The first thing Tab reaches on every page (Streamlit's own "Skip to main content", which only reaches
# the page's top, is hidden in favour of it): a link, shown when it has focus, to the anchor
# SKIP_TARGET. A page's step buttons (ui/steps.py) carry that id; every page also has
# <a name=SKIP_TARGET> under its heading, which the browser uses only when no element has the id (an id
# wins over a name, wherever it is). So the link lands on the steps where there are steps, else on the
# page's first control. It sits first in the sidebar, the first thing in the page after Streamlit's
# link; when the sidebar is closed (a phone) it is still there, and shows at the window's left edge.
SKIP_TARGET = "tl-controls"
_SKIP_HTML = f"""
<style>
[data-testid="stSkipToContent"] {{ display: none; }}
.stElementContainer:has(.tl-skip), .stElementContainer:has(> .stHtml > .tl-anchor) {{
  position: absolute; width: 1px; height: 1px; margin: 0; }}
.tl-skip {{ position: absolute; left: -10000px; top: 0; width: 1px; height: 1px; overflow: hidden; }}
.tl-skip:focus {{ position: fixed; left: .5rem; top: .5rem; width: auto; height: auto; overflow: visible;
  z-index: 1000100; padding: .5rem 1rem; background: #fff; color: #000; border: 3px solid #000;
  border-radius: .4rem; font-weight: 600; text-decoration: underline; white-space: nowrap; }}
/* A closed sidebar is moved off by its width (300px unless dragged wider) and, being transformed, holds the
   fixed link: move the link back by that much. */
[data-testid="stSidebar"][data-collapsed="true"] .tl-skip:focus {{ left: calc(300px + .5rem); }}
</style>
<a class="tl-skip" href="#{SKIP_TARGET}">{{skip}}</a>
"""


def _draw_sidebar() -> None:
    with st.sidebar:
        st.html(_SKIP_HTML.replace("{skip}", html_escape(_("Skip to the main controls"))))  # the first thing Tab reaches
        language.switch()  # English / हिन्दी: each named in itself
        for section, entries in sections():
            st.caption(f"**{_(section).upper()}**")
            for entry in entries:
                st.page_link(
                    entry.path, label=_(entry.title), icon=entry.icon, query_params=link_params(entry.url_path)
                )
        st.divider()
        for switch in (LARGE, CLASSROOM):
            st.toggle(_(switch.label), key=switch.key, on_change=switch.remember, help=_(switch.help))
        viewport.install()  # a click's result in view; a phone's sidebar closed after navigation
        language.document()  # <html lang>, and Devanagari's line height in Hindi
        from ui import keep  # (it asks ui.questions, which draws with this module's helpers)

        keep.sync()  # one's own answers kept in this browser (nothing mounted for a browser that keeps none)


def frame(title: str, *, heading: bool = True) -> PageEntry | None:
    """The frame's own part of :func:`ui.frame.page_setup`, first on every page: returns the page's registry entry.

    Sets the browser tab title and icon (the registry icon for ``title``, or the
    app icon), draws the sectioned sidebar with the large-type toggle, applies
    large type if it is on, and writes ``title`` as the page heading
    (``heading=False`` to draw your own).
    """
    entry = find_page(title)
    state.begin_run(entry.url_path if entry else "", shared=(LARGE.param, CLASSROOM.param, language.PARAM))
    classroom = CLASSROOM.sync()
    language.sync()  # this run's language, before any text: every string below is drawn in it
    shown = _(title)
    st.set_page_config(
        page_title=shown if title == APP_NAME else f"{shown} · {_(APP_NAME)}",
        page_icon=entry.icon if entry else APP_ICON,
        layout="wide",
        initial_sidebar_state="collapsed" if classroom else "auto",  # classroom: the slide has the whole screen
    )
    on = LARGE.sync(implied=classroom)  # classroom mode comes with large type
    _draw_sidebar()
    st.html(_BASE_CSS)
    if on:
        # A style-only st.html goes to Streamlit's invisible "event" container,
        # so it takes no space and is not in at.main / at.sidebar in AppTest.
        st.html(_LARGE_TYPE_CSS)
    if classroom:
        st.html(_CLASSROOM_CSS)
    if heading:
        st.title(shown)
    return entry


def skip_anchor() -> None:
    """Where the skip link lands on a page with no steps (:data:`SKIP_TARGET`)."""
    st.html(f'<a class="tl-anchor" name="{SKIP_TARGET}"></a>')
