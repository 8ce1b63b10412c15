"""Tokenize anything in a real browser: four tokenizers on Hindi, markup shown as text, lone vowel signs named,
the letters under byte tokens, the CSV, large type.

Screenshots (LAB_SCREENSHOTS=1): tokenize-default, tokenize-four-hindi, tokenize-four-hindi-large,
tokenize-hindi-markup, tokenize-chars-model, tokenize-bad-upload, tokenize-large-type.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pandas as pd
from playwright.sync_api import expect

import lessons
from family import real
from tests.browser.browser_helpers import (
    assert_no_exception,
    downloaded,
    main_area,
    screenshot,
    settle,
    skip_without_browser,
    wait_for_streamlit,
)
from tests.lesson_data import LESSON4
from tokenizer import hex_bytes, train
from tokenizer.io import tokenizer_to_json

skip_without_browser()


URL = "Tokenize_anything"
MARKUP = "<img src=x onerror=alert(1)>"
HINDI = LESSON4["test_hi"]
FOUR = "cl100k_base,o200k_base,mistral-tekken,english-hindi"


def _type_text(page, text: str) -> None:
    """Replace the text area's content and commit it (Ctrl+Enter), then wait for the rerun."""
    area = page.get_by_label("Text", exact=True)
    area.fill(text)
    area.press("Control+Enter")
    expect(page).to_have_url(re.compile(r"[?&]text="))
    settle(page)


def _chips_text(page) -> str:
    """What the token chips show, joined (ids and names left out), with · back to spaces."""
    return "".join(page.locator(".tl-chips .tl-text").all_text_contents()).replace("·", " ")


def test_default_page_opens_on_gpt4o(open_page) -> None:
    page = open_page(URL, "tokenize-default")
    expect(page.locator(".tl-chips .tl-chip").first).to_be_visible()
    expect(page.locator('[data-testid="stMultiSelect"]')).to_contain_text("GPT-4o (o200k_base)")
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(4)
    # GPT-4o has whole Devanagari tokens for this sentence: no partial tokens, no U+FFFD.
    expect(page.locator('[data-testid="stMetric"]').filter(has_text="Partial tokens")).to_contain_text("0")
    assert "\ufffd" not in main_area(page).inner_text()


def _four_tokenizers(page, name: str) -> None:
    expect(page.locator(".tl-chips")).to_have_count(4)
    counts = {key: real.load(key).count(HINDI) for key in FOUR.split(",")[:3]}
    main = main_area(page)
    expect(main.get_by_text(f"GPT-4 (cl100k_base) · {counts['cl100k_base']} tokens")).to_be_visible()
    expect(main.get_by_text(f"GPT-4o (o200k_base) · {counts['o200k_base']} tokens")).to_be_visible()
    # the comparison table: the data grid, or in large type the same rows as text (ui/tables.py)
    expect(main.locator('[data-testid="stDataFrame"], [data-testid="stTable"]').first).to_be_visible()
    # cl100k splits Devanagari letters: dashed hex chips, the letters written under them.
    assert page.locator(".tl-chip.tl-partial").count() > 20
    assert page.locator(".tl-chip.tl-partial").first.evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
    runs = page.locator(".tl-run-text")
    expect(runs.first).to_be_visible()
    box = runs.first.bounding_box()
    assert box and box["height"] > 10
    assert "\ufffd" not in main.inner_text()
    page.evaluate("document.fonts.ready")
    screenshot(page, name)


def test_four_tokenizers_on_hindi(open_page) -> None:
    page = open_page(URL, "tokenize-four-hindi", query=f"toks={FOUR}&text={quote(HINDI)}")
    _four_tokenizers(page, "tokenize-four-hindi")


def test_four_tokenizers_on_hindi_in_large_type(open_page) -> None:
    page = open_page(URL, "tokenize-four-hindi-large", query=f"toks={FOUR}&text={quote(HINDI)}&large=1")
    size = page.locator(".tl-chip").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 20, size
    _four_tokenizers(page, "tokenize-four-hindi-large")


def test_csv_download_has_every_token(open_page, tmp_path) -> None:
    text = "chai खबर 👩‍👩‍👧"
    page = open_page(URL, "tokenize-csv", query="toks=english-hindi&text=" + quote(text))
    page.get_by_text("Ids and bytes, token by token").click()
    settle(page)  # opening the section reruns the page, which then draws the button
    button = page.get_by_role("button", name=re.compile("Download the tokens as CSV"))
    expect(button).to_be_visible()
    # the click asks the server to build the CSV (a deferred download) and then fetches it
    path = tmp_path / "tokens.csv"
    downloaded(page, button, "Tokenize anything's CSV").save_as(path)
    table = pd.read_csv(path, encoding="utf-8-sig", keep_default_na=False)
    preset = lessons.presets()["english-hindi"]
    tokens = train(preset.corpus, preset.merges, **preset.config.to_dict()).tokenizer.encode_tokens(text)
    assert table["id"].tolist() == [t.id for t in tokens]
    assert table["token"].tolist() == [t.label for t in tokens]
    assert table["bytes_hex"].tolist() == [hex_bytes(t.bytes) for t in tokens]


def test_hindi_and_markup_are_shown_as_text(open_page) -> None:
    # Preset D (chai stall, character unit) has never seen Devanagari or "<": every such
    # character stands as a token of its own, with its own text, so the chips spell out the input.
    page = open_page(URL, "tokenize-before-typing", query="toks=chai")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    _type_text(page, f"{HINDI} {MARKUP}")
    expect(page.locator(".tl-chips")).to_have_count(1)
    expect(page.get_by_label("Text", exact=True)).to_have_value(f"{HINDI} {MARKUP}")
    # Whitespace pre-split drops the spaces; a vowel sign alone in a chip sits on a dotted circle.
    shown = _chips_text(page).replace("◌", "").replace(" ", "")
    assert HINDI.replace(" ", "") in shown and MARKUP.replace(" ", "") in shown, shown
    # No element was made from the user's markup: no img in the chips, nor anywhere with src=x.
    assert page.locator(".tl-chips img").count() == 0
    assert page.locator('img[src="x"]').count() == 0
    assert dialogs == []
    expect(page.locator(".tl-chips").get_by_text("onerror=alert(1)>", exact=False).first).to_be_visible()
    box = page.locator(".tl-chip").filter(has_text="स").first.bounding_box()
    assert box and box["width"] > 8 and box["height"] > 8
    screenshot(page, "tokenize-hindi-markup")


def test_lone_vowel_signs_are_drawn_once_on_a_circle_and_named(open_page) -> None:
    # A character-unit model with a few merges: many vowel signs stay tokens of their own.
    block = LESSON4["hindi_block"]
    model = tokenizer_to_json(train(block, 8, unit="chars", split="whitespace").tokenizer)
    page = open_page(URL, "tokenize-upload-empty", query="text=" + quote("किताबें स्कूलों में"))
    page.get_by_text("Add a model of yours").click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "hindi-chars.json", "mimeType": "application/json", "buffer": model.encode("utf-8")}]
    )
    expect(page.locator(".tl-chips")).to_have_count(2)
    wait_for_streamlit(page)
    # A chip holding only a vowel sign shows it on one dotted circle (the font must not add a second),
    # with the sign's name on screen: "vowel sign e", never just a stroke like a backtick.
    names = page.locator(".tl-chip .tl-name").all_text_contents()
    assert "vowel sign e" in names, names
    widths = page.evaluate(
        """() => {
            const out = [];
            for (const el of document.querySelectorAll('.tl-chips .tl-text')) {
                const t = el.textContent;
                if (t.length !== 2 || t[0] !== '\\u25cc') continue;
                const two = el.cloneNode(false);  // the same mark on two circles: what a doubled circle would be
                two.textContent = '\\u25cc\\u25cc' + t[1];
                const one = el.cloneNode(false);
                one.textContent = '\\u25cc';
                el.parentNode.append(two, one);
                out.push([t, el.getBoundingClientRect().width, one.getBoundingClientRect().width,
                          two.getBoundingClientRect().width]);
                two.remove();
                one.remove();
            }
            return out;
        }"""
    )
    assert widths, "expected some chips that hold a vowel sign alone"
    for text, ours, circle, doubled in widths:
        assert circle > 4 and ours < doubled - circle / 2, (text, ours, circle, doubled)
    expect(page.get_by_text("its name is written under it", exact=False)).to_be_visible()
    screenshot(page, "tokenize-chars-model")


def test_bad_upload_says_what_to_do(open_page) -> None:
    page = open_page(URL, "tokenize-upload-empty-2")
    page.get_by_text("Add a model of yours").click()
    expect(page.get_by_text("(up to 5 MB)")).to_be_visible()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "picture.json", "mimeType": "application/json", "buffer": b"\x89PNG\r\n\x1a\n\x00\x00"}]
    )
    expect(page.locator('[data-testid="stAlertContentWarning"]')).to_contain_text("not UTF-8")
    wait_for_streamlit(page)
    assert_no_exception(page)
    # Streamlit's own small print ("Limit 50MB per file") is not shown: the label says the real limit.
    expect(page.get_by_text("50MB per file", exact=False)).to_be_hidden()
    screenshot(page, "tokenize-bad-upload")


def test_large_type(open_page) -> None:
    page = open_page(URL, "tokenize-large-type", query="large=1&ids=1")
    expect(page.locator(".tl-chip .tl-id").first).to_be_visible()
    size = page.locator(".tl-chip").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 20, size
    # The counts take one row above the chips, not four.
    metrics = page.locator('[data-testid="stMetric"]')
    expect(metrics.first).to_be_visible()  # on a busy machine the chips can be drawn before the counts
    tops = {round(metrics.nth(i).bounding_box()["y"]) for i in range(metrics.count())}
    assert len(tops) == 1, tops
    screenshot(page, "tokenize-large-type")
