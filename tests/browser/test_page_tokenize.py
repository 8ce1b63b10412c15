"""Tokenize anything in a real browser: Hindi, markup shown as text, lone vowel signs, screenshots.

Screenshots (artifacts/screenshots/): tokenize-default, tokenize-hindi-markup,
tokenize-chars-model (a character-unit model uploaded as a file: lone Devanagari
vowel signs), tokenize-large-type.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pandas as pd

from tests.browser.browser_helpers import assert_no_exception, skip_without_browser, screenshot, wait_for_streamlit

skip_without_browser()

from playwright.sync_api import expect  # noqa: E402

import lessons  # noqa: E402
from tokenizer import hex_bytes, train  # noqa: E402
from tokenizer.io import tokenizer_to_json  # noqa: E402

URL = "Tokenize_anything"
MARKUP = "<img src=x onerror=alert(1)>"
HINDI = "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"


def _type_text(page, text: str) -> None:
    """Replace the text area's content and commit it (Ctrl+Enter), then wait for the rerun."""
    area = page.get_by_label("Text", exact=True)
    area.fill(text)
    area.press("Control+Enter")
    expect(page).to_have_url(re.compile(r"[?&]text="))
    page.wait_for_timeout(300)
    wait_for_streamlit(page)
    assert_no_exception(page)


def _chips_text(page) -> str:
    """What the token chips show, joined (the ids hidden), with · back to spaces."""
    return "".join(page.locator(".tl-chips .tl-text").all_text_contents()).replace("·", " ")


def test_default_page_shows_chips_and_counts(open_page) -> None:
    page = open_page(URL, "tokenize-default")
    expect(page.locator(".tl-chips .tl-chip").first).to_be_visible()
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(8)
    expect(page.locator('[data-testid="stMetricLabel"]').filter(has_text="Grapheme clusters")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"]')).to_be_visible()
    # The partial tokens of the Hindi half are hex with a dashed border, never U+FFFD.
    assert page.locator(".tl-chip.tl-partial").count() > 10
    assert page.locator(".tl-chip.tl-partial").first.evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
    assert "\ufffd" not in page.locator('[data-testid="stMain"]').inner_text()
    screenshot(page, "tokenize-default")


def test_csv_download_has_every_token(open_page, tmp_path) -> None:
    text = "chai खबर 👩‍👩‍👧"
    page = open_page(URL, "tokenize-csv", query="tok=english-hindi&text=" + quote(text))
    with page.expect_download() as info:
        page.get_by_role("button", name=re.compile("Download the tokens as CSV")).click()
    path = tmp_path / "tokens.csv"
    info.value.save_as(path)
    table = pd.read_csv(path, encoding="utf-8-sig", keep_default_na=False)
    preset = lessons.presets()["english-hindi"]
    tokens = train(preset.corpus, preset.merges, **preset.train_kwargs()).tokenizer.encode_tokens(text)
    assert table["id"].tolist() == [t.id for t in tokens]
    assert table["token"].tolist() == [t.label for t in tokens]
    assert table["bytes_hex"].tolist() == [hex_bytes(t.bytes) for t in tokens]


def test_hindi_and_markup_are_shown_as_text(open_page) -> None:
    # Preset D (chai stall, character unit) has never seen Devanagari or "<": every such
    # character stands as a token of its own, with its own text, so the chips spell out the input.
    page = open_page(URL, "tokenize-before-typing", query="tok=chai")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    _type_text(page, f"{HINDI} {MARKUP}")
    expect(page.locator(".tl-chips")).to_have_count(1)
    expect(page.get_by_label("Text", exact=True)).to_have_value(f"{HINDI} {MARKUP}")
    # Whitespace pre-split drops the spaces; a vowel sign alone in a chip sits on a no-break space.
    shown = _chips_text(page).replace("\xa0", "").replace(" ", "")
    assert HINDI.replace(" ", "") in shown and MARKUP.replace(" ", "") in shown, shown
    # No element was made from the user's markup: no img in the chips, nor anywhere with src=x.
    assert page.locator(".tl-chips img").count() == 0
    assert page.locator('img[src="x"]').count() == 0
    assert dialogs == []
    # The literal markup is on screen, and the Devanagari has real glyphs (non-zero size).
    expect(page.locator(".tl-chips").get_by_text("onerror=alert(1)>", exact=False).first).to_be_visible()
    box = page.locator(".tl-chip").filter(has_text="स").first.bounding_box()
    assert box and box["width"] > 8 and box["height"] > 8
    screenshot(page, "tokenize-hindi-markup")


def test_chars_model_upload_draws_lone_vowel_signs_without_dotted_circles(open_page, tmp_path) -> None:
    # A character-unit model with a few merges: many vowel signs stay tokens of their own.
    block = lessons.data("lesson4_english_hindi")["hindi_block"]
    model = tokenizer_to_json(train(block, 8, unit="chars", split="whitespace").tokenizer)
    page = open_page(URL, "tokenize-upload-empty", query="tok=upload")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "hindi-chars.json", "mimeType": "application/json", "buffer": model.encode("utf-8")}]
    )
    expect(page.locator('[data-testid="stMetricLabel"]').filter(has_text="Unseen characters")).to_be_visible()
    wait_for_streamlit(page)
    _type_text(page, "किताबें स्कूलों में")
    wait_for_streamlit(page)
    # Chips that start with a combining mark hold it on a no-break space. If the browser
    # still drew a dotted circle, the text would be as wide as "◌" + the mark; it is not.
    widths = page.evaluate(
        """() => {
            const out = [];
            for (const el of document.querySelectorAll('.tl-chips .tl-text')) {
                const t = el.textContent;
                if (t.length < 2 || t[0] !== '\\u00a0' || !/\\p{M}/u.test(t[1])) continue;
                const probe = el.cloneNode(false);  // the same markup, with a dotted circle for the base
                probe.innerHTML = el.innerHTML.replace('&nbsp;', '\\u25cc');  // innerHTML writes NBSP as &nbsp;
                const bare = el.cloneNode(false);  // control: the mark with no base at all
                bare.innerHTML = el.innerHTML.replace('&nbsp;', '');
                el.parentNode.appendChild(probe);
                el.parentNode.appendChild(bare);
                out.push([t, el.getBoundingClientRect().width, probe.getBoundingClientRect().width,
                          bare.getBoundingClientRect().width]);
                probe.remove();
                bare.remove();
            }
            return out;
        }"""
    )
    assert widths, "expected some chips that start with a vowel sign"
    for text, ours, with_circle, bare in widths:
        assert ours < with_circle - 2, (text, ours, with_circle)
        # The check has teeth: a bare mark does get the dotted circle, as wide as the explicit one.
        assert abs(bare - with_circle) < 1.5, (text, bare, with_circle)
    assert page.get_by_text("is drawn on a blank space", exact=False).count() == 1
    screenshot(page, "tokenize-chars-model")


def test_bad_upload_says_what_to_do(open_page) -> None:
    page = open_page(URL, "tokenize-upload-empty-2", query="tok=upload")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "picture.json", "mimeType": "application/json", "buffer": b"\x89PNG\r\n\x1a\n\x00\x00"}]
    )
    expect(page.locator('[data-testid="stAlertContentWarning"]')).to_contain_text("not UTF-8")
    wait_for_streamlit(page)
    assert_no_exception(page)
    screenshot(page, "tokenize-bad-upload")


def test_large_type(open_page) -> None:
    page = open_page(URL, "tokenize-large-type", query="large=1&ids=1")
    expect(page.locator(".tl-chip .tl-id").first).to_be_visible()
    size = page.locator(".tl-chip").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 20, size
    screenshot(page, "tokenize-large-type")
