"""The lab in Hindi in a real browser (issue 28): a browser that asks for Hindi opens in Hindi, the switch and the
address keep the language through a reload and the lab's links; Home and Tokenize anything set in Devanagari at a
laptop's and a phone's size (a real font, line height that keeps the vowel signs clear, nothing cut off); and in
the pseudo-locale no visible text on them bypasses the catalogue.

Screenshots (LAB_SCREENSHOTS=1): hindi-home-laptop, hindi-home-phone, hindi-tokenize-laptop, hindi-tokenize-phone,
hindi-tokenize-phone-sidebar, hindi-tokenize-large.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PAGE_TIMEOUT_MS,
    SIZES,
    assert_no_exception,
    cut_off,
    screenshot,
    settle,
    skip_without_browser,
    squeezed_labels,
    uses_devanagari_font,
    wait_for_streamlit,
    watch,
)
from tests.i18n_helpers import data_texts, untranslated

skip_without_browser()

TOKENIZE = "Tokenize_anything"
HEADING_HI = "कुछ भी टोकनाइज़ कीजिए"


@pytest.fixture()
def hindi_browser(playwright_driver, streamlit_server):
    """A fresh browser whose language is Hindi first (Accept-Language: hi-IN,hi;q=0.9,en;q=0.8)."""
    browser = playwright_driver.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    context = browser.new_context(locale="hi-IN", extra_http_headers={"Accept-Language": "hi-IN,hi;q=0.9,en;q=0.8"},
                                  viewport=SIZES["laptop"]["viewport"])
    watch(context)
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    try:
        yield context
    finally:
        context.close()
        browser.close()


def _heading(page) -> str:
    return page.locator("h1").first.inner_text().strip()


def test_a_browser_that_asks_for_hindi_opens_in_hindi_and_a_reload_keeps_it(hindi_browser, streamlit_server) -> None:
    page = hindi_browser.new_page()
    page.goto(f"{streamlit_server.base_url}/{TOKENIZE}")
    wait_for_streamlit(page)
    assert_no_exception(page)
    assert _heading(page) == HEADING_HI
    expect(page).to_have_url(re.compile(r"[?&]lang=hi"))  # the address says it: a shared link opens in Hindi
    page.reload()
    wait_for_streamlit(page)
    assert _heading(page) == HEADING_HI
    # English chosen in a Hindi browser: the address says so, and a reload keeps it
    page.locator('[data-testid="stSidebar"] button').filter(has_text="English").click()
    settle(page)
    expect(page).to_have_url(re.compile(r"[?&]lang=en"))
    assert _heading(page) == "Tokenize anything"
    page.reload()
    wait_for_streamlit(page)
    assert _heading(page) == "Tokenize anything"


def test_the_switch_and_the_labs_links_carry_the_language(open_page) -> None:
    page = open_page(TOKENIZE, "english-tokenize", size="laptop")
    assert _heading(page) == "Tokenize anything" and "lang=" not in page.url  # an English browser: nothing added
    page.locator('[data-testid="stSidebar"] button').filter(has_text="हिन्दी").click()
    settle(page)
    expect(page).to_have_url(re.compile(r"[?&]lang=hi"))
    assert _heading(page) == HEADING_HI
    page.reload()
    wait_for_streamlit(page)
    assert _heading(page) == HEADING_HI
    page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]').filter(has_text="होम").click()
    settle(page)
    expect(page).to_have_url(re.compile(r"[?&]lang=hi"))
    assert _heading(page) == "टोकनाइज़ेशन लैब"
    page.locator('[data-testid="stMain"] [data-testid="stPageLink"]').filter(has_text=HEADING_HI).click()  # a card
    settle(page)
    assert _heading(page) == HEADING_HI and "lang=hi" in page.url


#: Devanagari text set for reading: at least this line height, relative to the font size (Streamlit's own is 1.6
#: for paragraphs; a heading's 1.2 would put a line's vowel signs against the next line's).
MIN_LINE_HEIGHT = 1.35


def _tight_devanagari(page) -> list[str]:
    """Visible elements with Devanagari text whose line height is under MIN_LINE_HEIGHT of their font size, or whose
    box is shorter than their content (a clipped matra)."""
    return page.evaluate(
        """(min) => {
            const out = [];
            const all = document.querySelectorAll('[data-testid="stMain"] *, [data-testid="stSidebar"] *');
            for (const el of all) {
                const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('');
                if (!/[\\u0900-\\u097f]/.test(own) || !el.checkVisibility()) continue;
                const box = el.getBoundingClientRect();
                if (box.width <= 1 || box.height <= 1) continue;  // hidden for the eye until focused (the skip link)
                const s = getComputedStyle(el), size = parseFloat(s.fontSize);
                const lh = s.lineHeight === 'normal' ? 1.4 * size : parseFloat(s.lineHeight);
                const lines = Math.max(1, Math.round(el.getBoundingClientRect().height / lh));
                if (lh / size < min && lines > 1) out.push(`${el.tagName} ${(lh / size).toFixed(2)}: ${own.slice(0, 40)}`);
                if ((s.overflow === 'hidden' || s.overflowY === 'hidden') && el.scrollHeight > el.clientHeight + 1)
                    out.push(`${el.tagName} clipped ${el.scrollHeight} > ${el.clientHeight}: ${own.slice(0, 40)}`);
            }
            return out;
        }""",
        MIN_LINE_HEIGHT,
    )


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize(("url", "name"), [("", "home"), (TOKENIZE, "tokenize")])
def test_hindi_is_set_for_reading(open_page, url: str, name: str, size: str) -> None:
    page = open_page(url, f"hindi-{name}-{size}", query="lang=hi", size=size)
    assert uses_devanagari_font(page, "h1")
    assert uses_devanagari_font(page, '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p')
    assert cut_off(page) == []
    assert squeezed_labels(page) == []
    assert _tight_devanagari(page) == []
    if name == "tokenize" and size == "phone":  # the sidebar, opened: the switch and every page's name
        page.locator('[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapsedControl"] button').first.click()
        page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]').first.wait_for()
        page.wait_for_timeout(500)
        screenshot(page, "hindi-tokenize-phone-sidebar")
        assert _tight_devanagari(page) == []


def test_hindi_in_large_type(open_page) -> None:
    page = open_page(TOKENIZE, "hindi-tokenize-large", query="lang=hi&large=1", size="projector")
    assert cut_off(page) == [] and squeezed_labels(page) == [] and _tight_devanagari(page) == []


def _visible_texts(page) -> list[tuple[str, str]]:
    """Every line of visible text of the main area and the sidebar (as the browser lays it out: innerText), with
    Material icons (drawn from ligature names) and the language switch (both languages, by design) hidden while it
    is read; and every placeholder."""
    return [tuple(x) for x in page.evaluate(
        """() => {
            const hide = document.createElement('style');
            hide.textContent = '[data-testid="stIconMaterial"], [data-testid="stExpanderIcon"], [translate="no"], .st-key-lang_switch { display: none !important; }';
            document.head.appendChild(hide);
            const out = [];
            for (const root of document.querySelectorAll('[data-testid="stMain"], [data-testid="stSidebar"]')) {
                const where = root.dataset.testid;
                for (const line of root.innerText.split('\\n')) if (line.trim()) out.push([where, line]);
                for (const el of root.querySelectorAll('[placeholder]')) out.push(['placeholder', el.placeholder]);
            }
            hide.remove();
            return out;
        }"""
    )]


@pytest.mark.parametrize(("url", "query"), [
    ("", "lang=xx"),
    (TOKENIZE, "lang=xx"),
    (TOKENIZE, "lang=xx&toks=o200k_base%2Cr50k_base%2Cchai&text=%E0%A4%95%E0%A4%BF%E0%A4%A4%E0%A4%BE%E0%A4%AC%E0%A5%87%E0%A4%82"),
])
def test_nothing_visible_bypasses_the_catalogue_in_chromium(open_page, url: str, query: str) -> None:
    """In the pseudo-locale every string the page drew is marked; what is left is data (the text, tokenizer names,
    numbers) or Streamlit's own chrome, which the lab does not draw: this test lists it by name."""
    page = open_page(url, f"pseudo-{url or 'home'}", query=query, size="laptop")
    area = page.locator('[data-testid="stTextArea"] textarea')
    typed = area.input_value() if area.count() else ""
    assert untranslated(_visible_texts(page), data_texts(typed, "किताबें")) == []


@pytest.mark.parametrize(("url", "query"), [
    ("Train_step_by_step", "lang=xx&preset=news&step=1"),  # a tie: the step line, the chart, why, the corpus
    ("The_family", "lang=xx&step=1"),  # both rules' merge 1
    ("The_family", "lang=xx&part=special"),  # the chat template, the special token
])
def test_train_and_the_family_bypass_nothing_in_chromium(open_page, url: str, query: str) -> None:
    """Train and The family in the pseudo-locale, as the browser lays them out: what is left unmarked is data (the
    presets' corpora, the rules' names, the chat's tokens as Mistral's vocabulary writes them)."""
    from tests.test_i18n_pages import family_shown, train_shown

    page = open_page(url, f"pseudo-{url}", query=query, size="laptop")
    params = dict(p.split("=", 1) for p in query.split("&"))
    shown = [*train_shown(), *(family_shown(params) if url == "The_family" else [])]
    chrome = ["PageUp", "PageDown", "Choose an option"]  # Streamlit's: the step keys' hints, a select box's placeholder
    assert untranslated(_visible_texts(page), data_texts(*shown, *chrome)) == []


def test_the_check_sees_english_in_chromium(open_page) -> None:
    """The same check on the English page finds its strings: the pseudo-locale test above is not vacuous."""
    page = open_page(TOKENIZE, "english-tokenize-laptop", size="laptop")
    typed = page.locator('[data-testid="stTextArea"] textarea').input_value()
    stray = untranslated(_visible_texts(page), data_texts(typed))
    assert len(stray) > 20 and any("Tokenizers (add more to compare them)" in s for s in stray)
