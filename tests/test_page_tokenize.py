"""Tokenize anything (AppTest): real and lab tokenizers side by side, counts against the engine, chips, ids,
model files, bad input."""

from __future__ import annotations

import json
import re

import pytest

import lessons
from analyses.measure import measure
from analyses.textstats import text_counts
from family import real
from tests.apptest_helpers import (
    assert_no_exception,
    html_blocks,
    main_text,
    metrics,
    page_text,
    parse_chips,
    run_page,
)
from tests.lesson_data import LESSON4
from tokenizer import train
from tokenizer.io import tokenizer_to_json
from views import tokenize as tkv

PAGE = "pages/2_Tokenize_anything.py"
HINDI = LESSON4["test_hi"]
ENGLISH = LESSON4["test_en"]
MARKUP = "<img src=x onerror=alert(1)>"


def preset_tokenizer(preset_id: str):
    """Trained here, independently of the page's cache."""
    preset = lessons.presets()[preset_id]
    return train(preset.corpus, preset.merges, **preset.config.to_dict()).tokenizer


def tokenizer(key: str):
    return preset_tokenizer(key) if key in lessons.presets() else real.load(key)



def chip_blocks(at) -> list:
    return [parse_chips(h) for h in html_blocks(at)]


def expected_metrics(tok, text: str) -> dict[str, str]:
    m = measure(tok, text)
    out = {
        "Tokens": f"{m.tokens:,}",
        "Tokens per word": f"{m.tokens / m.words:.2f}" if m.words else "—",
        "Characters per token": f"{m.code_points / m.tokens:.2f}" if m.tokens else "—",
    }
    if m.unknown:
        out["Unseen characters"] = f"{m.unknown:,}"
    else:
        out["Partial tokens"] = f"{m.partial:,}"
    return out


def set_text(at, text: str):
    at.text_area(key=tkv.TEXT.skey).input(text).run()
    assert_no_exception(at)
    return at


def test_opens_on_a_real_tokenizer_and_says_which() -> None:
    at = run_page(PAGE)
    assert at.multiselect(key=tkv.TOKS.skey).value == ["o200k_base"]
    text = at.text_area(key=tkv.TEXT.skey).value
    assert text == ENGLISH + " " + HINDI
    assert metrics(at) == expected_metrics(real.load("o200k_base"), text)
    counts = text_counts(text)
    caption = next(str(c.value) for c in at.main.get("caption") if str(c.value).startswith("The text:"))
    assert f"{counts.words} words" in caption and f"{counts.bytes} UTF-8 bytes" in caption


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("readers", "the reader reads"),
        ("english-hindi", HINDI),
        ("english-hindi-fair", HINDI),
        ("chai", "chaipoha pohawala halwa xyz"),
        ("news", "newsroom 👩‍👩‍👧 नमस्ते"),
        ("cl100k_base", HINDI),
        ("mistral-sp-v3", HINDI),
    ],
)
def test_one_tokenizer_counts_like_the_engine(key: str, text: str) -> None:
    at = run_page(PAGE, query_params={"toks": key, "text": text})
    assert metrics(at) == expected_metrics(tokenizer(key), text)
    (chips,) = chip_blocks(at)
    assert len(chips.chips) == len(tokenizer(key).encode(text))
    assert "\ufffd" not in html_blocks(at)[0]


def test_curriculum_numbers_on_the_page() -> None:
    # Example E: "the reader reads" is 3 words and 4 tokens.
    at = run_page(PAGE, query_params={"toks": "readers", "text": "the reader reads"})
    m = metrics(at)
    assert (m["Tokens"], m["Tokens per word"]) == ("4", "1.33")
    # Lesson 4, k = 1: the Hindi test sentence is 69 tokens, 10 words; most tokens are partial.
    at = run_page(PAGE, query_params={"toks": "english-hindi", "text": HINDI})
    m = metrics(at)
    assert (m["Tokens"], m["Tokens per word"]) == ("69", "6.90")
    assert int(m["Partial tokens"]) > 34
    # The lesson-4 pair on real tokenizers: cl100k 11 and 47, o200k 11 and 15.
    for text, expected in ((ENGLISH, ["11", "11"]), (HINDI, ["47", "15"])):
        at = run_page(PAGE, query_params={"toks": "cl100k_base,o200k_base", "text": text})
        table = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
        assert [str(n) for n in table["tokens"]] == expected


def test_four_tokenizers_side_by_side() -> None:
    keys = ["cl100k_base", "o200k_base", "mistral-tekken", "english-hindi"]
    at = run_page(PAGE, query_params={"toks": ",".join(keys), "text": HINDI})
    table = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
    assert list(table["tokenizer"]) == [tokenizer(k).name for k in keys[:3]] + ["English + Hindi news: 1 Hindi copy"]
    for key, row in zip(keys, table.itertuples()):
        m = measure(tokenizer(key), HINDI)
        assert (row.tokens, row._6) == (m.tokens, m.partial)  # tokens, partial tokens
        assert row._5 == pytest.approx(m.bytes_per_token)
    blocks = chip_blocks(at)
    assert [len(b.chips) for b in blocks] == [measure(tokenizer(k), HINDI).tokens for k in keys]
    # Each tokenizer's row is named with its count.
    heads = [h.value for h in at.main.get("html") if "tl-row-head" in h.value]
    assert any("<strong>GPT-4 (cl100k_base)</strong> · 47 tokens" in h for h in heads), heads
    # Partial tokens have the letters they make written under them.
    assert "".join(blocks[0].runs)


def test_the_choice_and_toggles_go_in_the_url() -> None:
    at = run_page(PAGE, query_params={"toks": "readers", "text": "reader reader"})
    assert not any(c.id for c in chip_blocks(at)[0].chips)
    at.toggle(key=tkv.SHOW_IDS.skey).set_value(True).run()
    at.segmented_control(key=tkv.COLOUR.skey).set_value("id").run()
    chips = chip_blocks(at)[0].chips
    assert [c.id for c in chips] == [str(i) for i in preset_tokenizer("readers").encode("reader reader")]
    colours = [re.search(r"background:(#[0-9A-F]{6})", c.style).group(1) for c in chips]
    assert len(colours) == 2 and colours[0] == colours[1]  # colour by id: the same token, the same colour
    assert at.query_params["ids"] == "1" and at.query_params["colour"] == "id"
    at.multiselect(key=tkv.TOKS.skey).set_value(["readers", "cl100k_base"]).run()
    assert at.query_params["toks"] == "readers,cl100k_base"


def test_shared_link_restores_everything() -> None:
    at = run_page(PAGE, query_params={"toks": "chai", "text": "xyz", "ids": "1", "colour": "id"})
    assert at.multiselect(key=tkv.TOKS.skey).value == ["chai"]
    assert at.text_area(key=tkv.TEXT.skey).value == "xyz"
    assert at.toggle(key=tkv.SHOW_IDS.skey).value is True
    assert metrics(at)["Unseen characters"] == "3"
    chips = chip_blocks(at)[0].chips
    assert [c.text for c in chips] == ["x", "y", "z"] and all("tl-unknown" in c.classes for c in chips)
    assert "A byte-level tokenizer never meets an unknown" in " ".join(i.value for i in at.info)


def test_an_older_link_naming_one_tokenizer_still_works() -> None:
    at = run_page(PAGE, query_params={"tok": "readers", "text": "reader"})
    assert at.multiselect(key=tkv.TOKS.skey).value == ["readers"]
    assert "tok" not in at.query_params


def test_bad_url_values_fall_back() -> None:
    at = run_page(PAGE, query_params={"toks": "no-such-tokenizer", "colour": "rainbow", "ids": "maybe"})
    assert at.multiselect(key=tkv.TOKS.skey).value == ["o200k_base"]
    assert "no\\-such\\-tokenizer" in " ".join(i.value for i in at.info)
    assert at.segmented_control(key=tkv.COLOUR.skey).value == "position"


def test_example_buttons_fill_the_text() -> None:
    at = run_page(PAGE)
    examples = lessons.examples("tokenize")
    labels = [b.label for b in at.main.get("button")]
    assert labels[: len(examples)] == [e["label"] for e in examples]
    at.button(key=tkv.example_key(1).skey).click().run()
    assert at.text_area(key=tkv.TEXT.skey).value == HINDI
    markup = next(i for i, e in enumerate(examples) if e["label"] == "Markup")
    at.button(key=tkv.example_key(markup).skey).click().run()
    assert at.text_area(key=tkv.TEXT.skey).value.startswith(MARKUP)
    assert "<img" not in html_blocks(at)[0]


def test_markup_is_text() -> None:
    at = run_page(PAGE, query_params={"toks": "chai"})
    set_text(at, MARKUP)
    html = html_blocks(at)[0]
    assert "<img" not in html and "&lt;" in html
    assert "".join(parse_chips(html).texts) == MARKUP.replace(" ", "")  # the chai model never saw these


AWKWARD = [
    "👩‍👩‍👧 family",  # emoji with joiners
    "कि क्षत्रिय ठीक",  # combining marks, conjuncts
    "شہر میں گھنی دھند ہے۔ עברית",  # right to left
    "bell\x07 nul\x00 esc\x1b \u202eevil",  # controls and a bidi override
    "line one\nline two\tTabbed\r\n",
    "**bold** [link](https://x) :red[x] $x$ <b>b</b>",
    "\ufffd already broken <|endoftext|>",
]


@pytest.mark.parametrize("key", ["english-hindi", "readers", "cl100k_base", "mistral-sp-v3"])
def test_awkward_text_never_crashes(key: str) -> None:
    at = run_page(PAGE, query_params={"toks": key})
    tok = tokenizer(key)
    for text in AWKWARD:
        set_text(at, text)
        html = html_blocks(at)[0]
        assert "\ufffd" not in html
        assert "\u202e" not in html and "\x00" not in html and "\x07" not in html
        assert metrics(at) == expected_metrics(tok, text)


def test_special_token_text_is_plain_text() -> None:
    at = run_page(PAGE, query_params={"toks": "cl100k_base", "text": "<|endoftext|>"})
    assert int(metrics(at)["Tokens"]) > 1  # typed as text, it is not the one special token


def test_right_to_left_note_and_line_breaks() -> None:
    at = run_page(PAGE, query_params={"toks": "english-hindi"})
    set_text(at, "شہر میں\nدھند")
    assert "Right-to-left text" in main_text(at)
    assert 'class="tl-break"' in html_blocks(at)[0]


def test_lone_vowel_signs_are_explained() -> None:
    at = run_page(PAGE, query_params={"toks": "chai", "text": "ेके"})
    assert "its name is written under it" in main_text(at)


def test_empty_text_and_no_tokenizer_say_what_to_do() -> None:
    at = run_page(PAGE)
    set_text(at, "")
    assert "Type or paste some text" in main_text(at)
    assert not at.main.get("metric")
    at.multiselect(key=tkv.TOKS.skey).set_value([]).run()
    assert "Pick at least one tokenizer" in main_text(at)


def test_spaces_only_with_whitespace_split() -> None:
    at = run_page(PAGE, query_params={"toks": "readers"})
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
    at = run_page(PAGE, query_params={"toks": "english-hindi"})
    set_text(at, text)
    assert metrics(at)["Tokens"] == f"{len(preset_tokenizer('english-hindi').encode(text)):,}"
    assert len(chip_blocks(at)[0].chips) == 2000
    assert "Showing the first 2,000" in main_text(at)
    assert "too long to put in the page's link" in main_text(at)
    assert "text" not in at.query_params


def test_ids_table_matches_the_engine() -> None:
    at = run_page(PAGE, query_params={"toks": "english-hindi", "text": "chai खबर"},
                  session_state={tkv.IDS_OPEN.skey: True})
    tokens = preset_tokenizer("english-hindi").encode_tokens("chai खबर")
    table = next(df.value for df in at.dataframe if "bytes (hex)" in df.value.columns)
    assert list(table.columns) == ["position", "token", "id", "bytes (hex)", "whole characters", "piece"]
    assert table["id"].tolist() == [t.id for t in tokens]
    assert table["whole characters"].tolist() == [t.whole for t in tokens]
    assert table["token"].tolist() == ["c", "h", "a", "i", "·⟨E0 A4⟩", "⟨96⟩", "⟨E0 A4⟩", "⟨AC⟩", "⟨E0 A4⟩", "⟨B0⟩"]
    assert table["piece"].tolist() == [1, 1, 1, 1, 2, 2, 2, 2, 2, 2]
    assert at.get("download_button")  # the CSV button is drawn (its data is built when clicked)


def test_a_lab_token_opens_its_merge_tree() -> None:
    at = run_page(PAGE, query_params={"toks": "chai", "text": "chaipoha"}, session_state={tkv.TREE_OPEN.skey: True})
    tree = html_blocks(at, 'class="tl-tree"')[0]
    assert parse_chips(tree).texts[:2] == ["chai", "cha"]
    assert "made by merge 3, when its pair was seen 5 times" in tree


def test_a_production_token_opens_its_merge_tree_from_the_ranks() -> None:
    """GPT-4o's " कोहरे"-piece tokens: the tree of the first drawn merged token ends in its UTF-8 bytes, each rank
    printed, the leaves drawn again with the letters they make (issue 26)."""
    at = run_page(PAGE, query_params={"toks": "o200k_base", "text": "घने कोहरे"}, session_state={tkv.TREE_OPEN.skey: True})
    assert_no_exception(at)
    tok = real.load("o200k_base")
    first = tok.encode("घने कोहरे")[0]
    assert at.selectbox(key=tkv.TREE_ID.skey).value == first
    tree = html_blocks(at, 'class="tl-tree"')[0]
    assert parse_chips(tree).texts[0] == "घ"
    assert f"rank {first:,}: the merge of the two below" in tree
    assert "a byte: where every token starts" in tree
    assert "the token's bytes" in tree
    assert "merges are implied" in main_text(at)


# --- Model files --------------------------------------------------------------


def upload(at, name: str, data: bytes):
    at.file_uploader(key=tkv.UPLOAD.skey).set_value((name, data, "application/json")).run()
    assert_no_exception(at)
    return at


def test_upload_a_model_file_adds_it_to_the_comparison() -> None:
    block = LESSON4["hindi_block"]
    tok = train(block, 20, unit="chars", split="whitespace").tokenizer
    at = upload(run_page(PAGE, query_params={"text": "किताबें स्कूलों में"}), "hindi.json",
                tokenizer_to_json(tok).encode())
    chosen = at.multiselect(key=tkv.TOKS.skey).value
    assert chosen[0] == "o200k_base" and chosen[1].startswith("session:")
    table = next(df.value for df in at.dataframe if "tokens per word" in df.value.columns)
    assert list(table["tokenizer"]) == ["GPT-4o (o200k_base)", "Uploaded: hindi.json"]
    assert table["tokens"].tolist()[1] == len(tok.encode("किताबें स्कूलों में"))


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
                     "pattern": "(", "end_of_word": None, "ties": "first"}, "merges": []}).encode(),
         "not a valid regular expression"),
        (json.dumps({"format": "tokenization-lab/bpe", "version": 1, "config": {"unit": "bytes"},
                     "merges": [[0, 999]]}).encode(), "does not exist yet"),
        (b"x" * 5_000_001, "MB"),
    ],
    ids=["png", "utf16", "empty", "broken-json", "hf-json", "list", "deep", "bad-pattern", "bad-merge", "huge"],
)
def test_bad_model_file_gets_a_friendly_message(content: bytes, message: str) -> None:
    at = upload(run_page(PAGE), "model.json", content)
    warnings = " ".join(w.value for w in at.main.get("warning")).replace("\\", "")
    assert "is not a model this lab can use" in warnings
    assert message in warnings, warnings
    assert at.multiselect(key=tkv.TOKS.skey).value == ["o200k_base"]  # the page goes on as it was
    assert metrics(at)


def test_models_trained_on_the_train_page_are_offered() -> None:
    tok = train("chai chai chai poha poha", 3, unit="chars", split="whitespace").tokenizer
    models = {"session:abc": {"title": "My text “chai”", "json": tokenizer_to_json(tok), "source": "test", "counts": []}}
    at = run_page(PAGE, session_state={"lab.session_models": models})
    box = at.multiselect(key=tkv.TOKS.skey)
    assert "Yours · My text “chai”" in box.options
    box.set_value(["session:abc"]).run()
    set_text(at, "chaipoha")
    assert metrics(at) == expected_metrics(tok, "chaipoha")


def _predict_box(at, value: int) -> None:
    next(n for n in at.number_input if n.label.startswith("Your prediction") and n.value is None).set_value(value)
    next(b for b in at.button if b.label == "Check").click().run()
    assert_no_exception(at)


def test_predict_first_hides_the_counts_until_each_is_guessed() -> None:
    """Predict mode: a count question per tokenizer, answered by the engine; nothing is shown before."""
    at = run_page(PAGE, {"predict": "1", "toks": "o200k_base,english-hindi", "text": HINDI})
    assert_no_exception(at)
    assert chip_blocks(at) == [] and metrics(at) == {}
    prompts = [m.value for m in at.main.get("markdown") if str(m.value).startswith("How many tokens will")]
    assert len(prompts) == 2 and "GPT\\-4o" in prompts[0]  # markdown-escaped
    truth = {key: measure(tokenizer(key), HINDI).tokens for key in ("o200k_base", "english-hindi")}

    _predict_box(at, truth["o200k_base"])  # right
    assert chip_blocks(at) == []  # one count still to predict
    assert "Right! You predicted" in page_text(at)

    _predict_box(at, truth["english-hindi"] * 3)  # far off
    text = page_text(at)
    assert f"the lab computed {truth['english-hindi']:,} tokens" in text
    assert "Your predictions on this page: 1 of 2" in text
    assert [len(c.texts) for c in chip_blocks(at)] == [truth["o200k_base"], truth["english-hindi"]]


def test_predict_first_counts_a_near_guess_on_a_long_text() -> None:
    text = " ".join([ENGLISH] * 20)
    at = run_page(PAGE, {"predict": "1", "toks": "o200k_base", "text": text})
    n = measure(real.load("o200k_base"), text).tokens
    _predict_box(at, n + n // 10)  # within a tenth
    assert "Right! You predicted" in page_text(at)
    assert metrics(at)["Tokens"] == f"{n:,}"
