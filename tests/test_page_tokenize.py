"""Tokenize anything (AppTest): the picker, the counts against the engine, chips, ids, bad input."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

import lessons
from tests.apptest_helpers import assert_no_exception, main_text, run_page
from tokenizer import train
from tokenizer.io import tokenizer_to_json
from tokenizer.textstats import text_counts

PAGE = "pages/2_Tokenize_anything.py"
HINDI = "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं।"
MARKUP = "<img src=x onerror=alert(1)>"


def preset_tokenizer(preset_id: str):
    """Trained here, independently of the page's cache."""
    preset = lessons.presets()[preset_id]
    return train(preset.corpus, preset.merges, **preset.train_kwargs()).tokenizer


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.main.get("metric")}


def chips_html(at) -> str:
    """The chips' HTML (without the CSS block)."""
    htmls = [h.value for h in at.main.get("html") if 'class="tl-chips"' in h.value]
    assert len(htmls) == 1, f"expected one row of chips, got {len(htmls)}"
    return htmls[0].split("</style>", 1)[-1]


class _ChipText(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.depth = 0  # > 0 inside a chip's text span

    def handle_starttag(self, tag, attrs) -> None:
        if self.depth:
            self.depth += 1
        elif ("class", "tl-text") in attrs:
            self.depth = 1
            self.texts.append("")

    def handle_endtag(self, tag) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data) -> None:
        if self.depth:
            self.texts[-1] += data


def chip_texts(html: str) -> list[str]:
    """What each chip shows, as a reader sees it (entities decoded)."""
    parser = _ChipText()
    parser.feed(html)
    return parser.texts


def expected_metrics(tok, text: str) -> dict[str, str]:
    tokens = tok.encode_tokens(text)
    c = text_counts(text)
    out = {
        "Tokens": f"{len(tokens):,}",
        "Words": f"{c.words:,}",
        "Tokens per word": f"{len(tokens) / c.words:.2f}" if c.words else "—",
        "Characters per token": f"{c.code_points / len(tokens):.2f}" if tokens else "—",
        "Code points": f"{c.code_points:,}",
        "Grapheme clusters": f"{c.graphemes:,}",
        "UTF-8 bytes": f"{c.bytes:,}",
    }
    if tok.config.unit == "bytes":
        out["Partial tokens"] = f"{sum(not t.whole for t in tokens):,}"
    else:
        out["Unseen characters"] = f"{sum(not t.known for t in tokens):,}"
    return out


def set_text(at, text: str):
    at.text_area(key="tokenize.text").input(text).run()
    assert_no_exception(at)
    return at


def test_default_page_counts_match_the_engine() -> None:
    at = run_page(PAGE)
    assert at.selectbox(key="tokenize.tok").value == "english-hindi"
    text = at.text_area(key="tokenize.text").value
    assert HINDI in text
    assert metrics(at) == expected_metrics(preset_tokenizer("english-hindi"), text)


@pytest.mark.parametrize(
    ("preset", "text"),
    [
        ("readers", "the reader reads"),
        ("english-hindi", HINDI),
        ("english-hindi-fair", HINDI),
        ("chai", "chaipoha pohawala halwa xyz"),
        ("news", "newsroom 👩‍👩‍👧 नमस्ते"),
    ],
)
def test_pick_preset_and_type(preset: str, text: str) -> None:
    at = run_page(PAGE)
    at.selectbox(key="tokenize.tok").set_value(preset).run()
    set_text(at, text)
    assert metrics(at) == expected_metrics(preset_tokenizer(preset), text)
    assert "\ufffd" not in chips_html(at)
    # The choice is in the link, unless it is the page's default.
    assert at.query_params.get("tok") == (None if preset == "english-hindi" else preset)


def test_curriculum_numbers_on_the_page() -> None:
    # Example E: "the reader reads" is 3 words and 4 tokens.
    at = run_page(PAGE, query_params={"tok": "readers", "text": "the reader reads"})
    m = metrics(at)
    assert (m["Tokens"], m["Words"], m["Tokens per word"]) == ("4", "3", "1.33")
    # Lesson 4, k = 1: the Hindi test sentence is 69 tokens, 10 words; most tokens are partial.
    at = run_page(PAGE, query_params={"text": HINDI})
    m = metrics(at)
    assert (m["Tokens"], m["Words"], m["Tokens per word"]) == ("69", "10", "6.90")
    assert int(m["Partial tokens"]) > 34
    assert "tl-partial" in chips_html(at)


def test_ids_table_and_csv_match_the_engine() -> None:
    at = run_page(PAGE, query_params={"tok": "english-hindi", "text": "chai खबर"})
    tokens = preset_tokenizer("english-hindi").encode_tokens("chai खबर")
    table = at.dataframe[0].value
    assert list(table.columns) == ["position", "token", "id", "bytes (hex)", "whole characters", "piece"]
    assert table["id"].tolist() == [t.id for t in tokens]
    assert table["whole characters"].tolist() == [t.whole for t in tokens]
    assert table["bytes (hex)"].tolist() == [" ".join(f"{b:02X}" for b in t.bytes) for t in tokens]
    assert table["token"].tolist() == ["c", "h", "a", "i", "·⟨E0 A4⟩", "⟨96⟩", "⟨E0 A4⟩", "⟨AC⟩", "⟨E0 A4⟩", "⟨B0⟩"]
    assert table["piece"].tolist() == [1, 1, 1, 1, 2, 2, 2, 2, 2, 2]
    assert at.get("download_button")  # the CSV button is drawn (its data is built when clicked)


def test_toggles_show_ids_and_colour_by_id_and_go_in_the_url() -> None:
    at = run_page(PAGE, query_params={"tok": "readers", "text": "reader reader"})
    assert "tl-id" not in chips_html(at)
    at.toggle(key="tokenize.ids").set_value(True).run()
    at.segmented_control(key="tokenize.colour").set_value("id").run()
    html = chips_html(at)
    assert html.count('class="tl-id"') == 2
    # Colour by id: the same token, the same colour.
    colours = re.findall(r'style="background:(#[0-9A-F]{6})"', html)
    assert len(colours) == 2 and colours[0] == colours[1]
    assert at.query_params["ids"] == "1" and at.query_params["colour"] == "id"


def test_shared_link_restores_everything() -> None:
    at = run_page(PAGE, query_params={"tok": "chai", "text": "xyz", "ids": "1", "colour": "id"})
    assert at.selectbox(key="tokenize.tok").value == "chai"
    assert at.text_area(key="tokenize.text").value == "xyz"
    assert at.toggle(key="tokenize.ids").value is True
    assert metrics(at)["Unseen characters"] == "3"
    assert chips_html(at).count("tl-unknown") == 3
    assert chip_texts(chips_html(at)) == ["x", "y", "z"]


def test_bad_url_values_fall_back() -> None:
    at = run_page(PAGE, query_params={"tok": "no-such-preset", "colour": "rainbow", "ids": "maybe"})
    assert at.selectbox(key="tokenize.tok").value == "english-hindi"
    assert at.segmented_control(key="tokenize.colour").value == "position"


def test_example_buttons_fill_the_text() -> None:
    at = run_page(PAGE)
    labels = [b.label for b in at.main.get("button")]
    assert labels[:7] == ["English", "हिन्दी", "Hinglish", "Emoji", "اردو", "Code", "Markup"]
    at.button(key="tokenize.example.1").click().run()
    assert at.text_area(key="tokenize.text").value == HINDI
    assert metrics(at) == expected_metrics(preset_tokenizer("english-hindi"), HINDI)
    at.button(key="tokenize.example.6").click().run()
    assert at.text_area(key="tokenize.text").value.startswith(MARKUP)
    assert "<img" not in chips_html(at)


def test_markup_is_text() -> None:
    at = run_page(PAGE, query_params={"tok": "chai"})
    set_text(at, MARKUP)
    html = chips_html(at)
    assert "<img" not in html and "&lt;" in html
    # Each character is a chip of its own (the chai preset has never seen them); read together
    # they spell the markup, spaces shown as ·.
    assert "".join(chip_texts(html)) == MARKUP.replace(" ", "")
    assert "Markup" in [b.label for b in at.button]


AWKWARD = [
    "👩‍👩‍👧 family",  # emoji with joiners
    "कि क्षत्रिय ठीक",  # combining marks, conjuncts
    "شہر میں گھنی دھند ہے۔ עברית",  # right to left
    "bell\x07 nul\x00 esc\x1b \u202eevil",  # controls and a bidi override
    "line one\nline two\tTabbed\r\n",
    "**bold** [link](https://x) :red[x] $x$ <b>b</b>",
    "\ufffd already broken",
]


@pytest.mark.parametrize("preset", ["english-hindi", "readers"])
def test_awkward_text_never_crashes(preset: str) -> None:
    at = run_page(PAGE, query_params={"tok": preset})
    tok = preset_tokenizer(preset)
    for text in AWKWARD:
        set_text(at, text)
        html = chips_html(at)
        assert "\ufffd" not in html
        assert "\u202e" not in html and "\x00" not in html and "\x07" not in html
        assert metrics(at) == expected_metrics(tok, text)


def test_right_to_left_note_and_line_breaks() -> None:
    at = run_page(PAGE, query_params={"tok": "english-hindi"})
    set_text(at, "شہر میں\nدھند")
    assert "Right-to-left text" in main_text(at)
    assert 'class="tl-break"' in chips_html(at)


def test_empty_text_says_what_to_do() -> None:
    at = run_page(PAGE)
    set_text(at, "")
    assert "Type or paste some text" in main_text(at)
    assert not at.main.get("metric")


def test_spaces_only_with_whitespace_split() -> None:
    at = run_page(PAGE, query_params={"tok": "readers"})
    set_text(at, "   \n  ")
    assert metrics(at)["Tokens"] == "0"
    assert "drops the spaces" in main_text(at)


def test_huge_paste_is_refused_politely() -> None:
    at = run_page(PAGE)
    set_text(at, "chai " * 1_100_000)  # 5.5 MB
    assert "MB of text" in main_text(at)
    assert not at.main.get("metric")
    assert "text" not in at.query_params


def test_long_text_is_counted_in_full_and_drawn_in_part() -> None:
    text = "The city council approved a new budget for roads and schools. " * 300
    at = run_page(PAGE, query_params={"tok": "english-hindi"})
    set_text(at, text)
    tokens = preset_tokenizer("english-hindi").encode_tokens(text)
    assert metrics(at)["Tokens"] == f"{len(tokens):,}"
    assert chips_html(at).count('role="listitem"') == 2000
    assert "Showing the first 2,000" in main_text(at)
    assert "too long to put in the page's link" in main_text(at)
    assert "text" not in at.query_params


# --- Model files --------------------------------------------------------------


def _choose_upload(at):
    at.selectbox(key="tokenize.tok").set_value("upload").run()
    assert_no_exception(at)
    return at


def test_upload_choice_without_file_says_what_to_do() -> None:
    at = _choose_upload(run_page(PAGE))
    assert "Upload a model file" in main_text(at)
    assert not at.main.get("metric")
    assert at.query_params["tok"] == "upload"


def test_upload_a_model_file() -> None:
    block = lessons.data("lesson4_english_hindi")["hindi_block"]
    tok = train(block, 20, unit="chars", split="whitespace").tokenizer
    at = _choose_upload(run_page(PAGE))
    at.file_uploader(key="tokenize.upload").set_value(("hindi.json", tokenizer_to_json(tok).encode(), "application/json")).run()
    assert_no_exception(at)
    set_text(at, "किताबें स्कूलों में")
    assert metrics(at) == expected_metrics(tok, "किताबें स्कूलों में")
    # The upload is kept for the session: other pages can pick it.
    assert "hindi.json" in at.session_state["lab.uploaded_models"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8"),
        ("नमस्ते".encode("utf-16"), "not UTF-8"),
        (b"", "empty"),
        (b"{not json", "not valid JSON"),
        (json.dumps({"model": {"type": "BPE", "vocab": {}}}).encode(), "not a Tokenization Lab model"),
        (json.dumps([1, 2, 3]).encode(), "expected a JSON object"),
        (b"[" * 100_000, "nested too deeply"),
        (json.dumps({"format": "tokenization-lab/bpe", "version": 1, "config": {"unit": "bytes", "split": "regex",
                     "pattern": "(", "end_of_word": None, "ties": "first"}, "merges": []}).encode(), "not a valid regular expression"),
        (json.dumps({"format": "tokenization-lab/bpe", "version": 1, "config": {"unit": "bytes"},
                     "merges": [[0, 999]]}).encode(), "does not exist yet"),
        (b"x" * 5_000_001, "MB"),
    ],
    ids=["png", "utf16", "empty", "broken-json", "hf-json", "list", "deep", "bad-pattern", "bad-merge", "huge"],
)
def test_bad_model_file_gets_a_friendly_message(content: bytes, message: str) -> None:
    at = _choose_upload(run_page(PAGE))
    at.file_uploader(key="tokenize.upload").set_value(("model.json", content, "application/json")).run()
    assert_no_exception(at)
    warnings = " ".join(w.value for w in at.main.get("warning"))
    assert "is not a model this lab can use" in warnings
    assert message.replace(" ", "\\ ") in warnings or message in warnings.replace("\\", ""), warnings
    assert "Upload the" in warnings.replace("\\", "") or "nested" in warnings
    assert not at.main.get("metric")


def test_models_trained_on_the_train_page_are_offered() -> None:
    tok = train("chai chai chai poha poha", 3, unit="chars", split="whitespace").tokenizer
    at = run_page(PAGE, session_state={"lab.custom_models": {"my chai": tokenizer_to_json(tok)}})
    box = at.selectbox(key="tokenize.tok")
    assert "trained:my chai" in box.options or any("my chai" in o for o in box.options)
    box.set_value("trained:my chai").run()
    set_text(at, "chaipoha")
    assert metrics(at) == expected_metrics(tok, "chaipoha")
