"""The "Train step by step" page (AppTest) and its helpers in ui/trainview.py."""

from __future__ import annotations

import html
import io
import json
import re
import time

import pandas as pd
import pyarrow as pa
import pytest

from tests.apptest_helpers import assert_no_exception, main_text, run_page
import lessons
from tokenizer import train
from tokenizer.io import tokenizer_from_json
from ui import trainview as tv
from ui.engine import MAX_CORPUS_CHARS

PAGE = "pages/1_Train_step_by_step.py"


# --- helpers ----------------------------------------------------------------------------------


def plain(fragment: str) -> str:
    """The text of an HTML fragment, tags and the CSS block removed, spaces squeezed."""
    body = re.sub(r"<style>.*?</style>", " ", fragment, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body))).strip()


def html_texts(at) -> list[str]:
    return [plain(str(h.value)) for h in at.main.get("html")]


def all_html(at) -> str:
    return "\n".join(str(h.value) for h in at.main.get("html"))


def header(at) -> str:
    return next(t for t in html_texts(at) if t.startswith(("Merge ", "Step 0")))


def chart(at):
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1
    proto = charts[0].proto
    spec = json.loads(proto.spec)
    (dataset,) = proto.datasets
    data = pa.ipc.open_stream(dataset.data.data).read_all().to_pandas()
    return spec, data


def pair_table(at) -> pd.DataFrame:
    frames = [df for df in at.dataframe if "times seen" in df.value.columns and "pair" in df.value.columns]
    assert frames, "no pair table"
    return frames[0].value


def own_text(at, text: str):
    at.selectbox(key="train.preset").set_value("own").run()
    at.text_area(key="train.text").input(text).run()
    assert_no_exception(at)
    return at


# --- The chai walk-through (lesson 2, example D) --------------------------------------------


def test_opens_on_chai_at_step_zero() -> None:
    at = run_page(PAGE)
    assert at.selectbox(key="train.preset").value == "chai"
    assert at.radio(key="train.unit").value == "chars"
    assert at.number_input(key="train.merges").value == 7
    assert header(at).startswith("Step 0 of 7: before any merge")
    # Step 0 shows the first pair table without naming a winner.
    spec, data = chart(at)
    assert data.loc[0, "pair"] == "h + a" and data.loc[0, "count"] == 11
    assert "winner" not in set(data["status"])
    # The corpus is single characters: chai x3 -> c h a i.
    assert "c h a i ×3" in " ".join(html_texts(at))
    # Defaults stay out of the link.
    assert not {"preset", "step", "unit"} & set(at.query_params)


def test_step_forward_to_merge_3_shows_cha_plus_i() -> None:
    at = run_page(PAGE)
    for expected in (1, 2, 3):
        at.button(key="train.next").click().run()
        assert at.session_state["train.step"] == expected
    assert_no_exception(at)
    assert header(at) == "Merge 3 of 7: cha + i → chai new token id 13, seen 5 times"
    spec, data = chart(at)
    winner = data[data["status"] == tv.STATUS_WINNER]
    assert list(winner["pair"]) == ["cha + i"] and list(winner["count"]) == [5]
    table = pair_table(at)
    assert table.iloc[0]["pair"] == "cha + i" and table.iloc[0]["note"] == "winner"
    assert table.iloc[0]["times seen"] == 5
    texts = " ".join(html_texts(at))
    assert "No tie: cha + i was seen 5 times" in texts
    assert "chai ×3" in texts and "cha a t ×2" in texts  # the corpus after merge 3
    assert "ha 11 cha 12 chai 13" in texts  # tokens learned so far, with ids
    metrics = {m.label: m.value for m in at.main.get("metric")}
    assert metrics["Vocabulary"] == "14"  # 11 characters + 3 merges
    assert at.query_params["step"] == ["3"] or at.query_params["step"] == "3"


def test_slider_last_and_first_buttons() -> None:
    at = run_page(PAGE)
    at.button(key="train.last").click().run()
    assert at.slider(key="train.step").value == 7
    assert header(at).startswith("Merge 7 of 7: wa + l → wal")
    assert at.button(key="train.next").disabled
    at.slider(key="train.step").set_value(4).run()
    assert header(at).startswith("Merge 4 of 7: p + o → po")
    at.button(key="train.prev").click().run()
    assert at.session_state["train.step"] == 3
    at.button(key="train.first").click().run()
    assert header(at).startswith("Step 0 of 7")


@pytest.mark.parametrize("step", ["3", "99"])
def test_deep_link_restores_preset_and_step(step: str) -> None:
    at = run_page(PAGE, query_params={"preset": "chai", "step": step})
    expected = min(int(step), 7)
    assert at.slider(key="train.step").value == expected
    assert header(at).startswith(f"Merge {expected} of 7")


def test_bad_link_values_fall_back() -> None:
    at = run_page(PAGE, query_params={"preset": "nope", "step": "-4", "unit": "qubits", "merges": "lots"})
    assert at.selectbox(key="train.preset").value == "chai"
    assert at.session_state["train.step"] == 0
    assert at.radio(key="train.unit").value == "chars"
    assert at.number_input(key="train.merges").value == 7


# --- Presets, settings, ties ----------------------------------------------------------------


def test_switching_presets_takes_their_settings() -> None:
    at = run_page(PAGE, query_params={"step": "3"})
    at.selectbox(key="train.preset").set_value("news").run()
    assert at.session_state["train.step"] == 0
    assert at.number_input(key="train.merges").value == 3
    assert at.query_params["preset"] in ("news", ["news"]) and "step" not in at.query_params

    at.button(key="train.next").click().run()
    texts = " ".join(html_texts(at))
    assert "Tie: n + e and e + w were both seen 10 times." in texts
    assert "Rule 'first seen'" in texts and "(news, new, newer)" in texts
    _, data = chart(at)
    assert dict(zip(data["pair"], data["status"]))["e + w"] == tv.STATUS_TIE

    at.selectbox(key="train.preset").set_value("play").run()
    assert at.selectbox(key="train.marker").value == "_"
    at.selectbox(key="train.preset").set_value("english-hindi").run()
    assert at.radio(key="train.unit").value == "bytes"
    assert at.radio(key="train.split").value == "regex"
    assert at.number_input(key="train.merges").value == 100
    at.button(key="train.next").click().run()
    assert header(at).startswith("Merge 1 of 100: ⟨E0⟩ + ⟨A4⟩ → ⟨E0 A4⟩")
    assert 'class="tl-chip tl-partial' in all_html(at)  # part of a character: dashed chip


def test_changing_a_setting_is_a_custom_run_and_reset_restores() -> None:
    at = run_page(PAGE, query_params={"preset": "news"})
    at.radio(key="train.ties").set_value("hf").run()
    assert "Custom run" in main_text(at)
    assert at.query_params["ties"] in ("hf", ["hf"])
    at.button(key="train.next").click().run()
    assert header(at).startswith("Merge 1 of 3: e + w → ew")
    assert "Rule 'hf'" in " ".join(html_texts(at))
    at.button(key="train.reset").click().run()
    assert at.radio(key="train.ties").value == "first"
    assert "Custom run" not in main_text(at)
    assert "ties" not in at.query_params


def test_three_way_tie_and_and_more() -> None:
    at = run_page(PAGE, query_params={"preset": "low", "step": "4"})
    texts = " ".join(html_texts(at))
    assert "lowe + r, lowe + s and s + t were all seen 1 time" in texts
    assert "is met first, in “lower”" in texts
    at = run_page(PAGE, query_params={"preset": "lowmarker", "step": "9"})
    assert "and 3 more pairs were all seen 1 time" in " ".join(html_texts(at))


def test_zero_merges_explains_and_shows_base_symbols() -> None:
    at = run_page(PAGE)
    at.number_input(key="train.merges").set_value(0).run()
    assert_no_exception(at)
    assert "nothing to step through" in main_text(at)
    assert "The base vocabulary: 11 symbols" in main_text(at)
    assert not at.get("vega_lite_chart")


def test_bad_regex_pattern_is_explained() -> None:
    at = run_page(PAGE)
    at.radio(key="train.split").set_value("regex").run()
    at.text_input(key="train.pattern").input("([").run()
    assert_no_exception(at)
    assert "not a valid regular expression" in " ".join(html_texts(at))


def test_custom_marker() -> None:
    at = run_page(PAGE, query_params={"preset": "news"})
    at.selectbox(key="train.marker").set_value("custom").run()
    at.text_input(key="train.marker_text").input("#").run()
    at.button(key="train.next").click().run()
    assert_no_exception(at)
    assert "# ×5" in " ".join(html_texts(at))  # every word ends in the marker
    at.text_input(key="train.marker_text").input("").run()
    assert "custom end-of-word marker is empty" in " ".join(html_texts(at))


# --- Your own text and uploads ------------------------------------------------------------------


def test_own_text_trains_and_is_kept_for_the_tokenize_page() -> None:
    at = own_text(run_page(PAGE), "chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa")
    assert at.query_params["text"] in (at.session_state["train.text"], [at.session_state["train.text"]])
    assert at.number_input(key="train.merges").value == 20  # own text: 20 merges by default
    assert header(at).startswith("Step 0 of ")
    at.slider(key="train.step").set_value(3).run()
    assert header(at).startswith("Merge 3 of ")
    models = at.session_state["lab.custom_models"]
    (name,) = models
    assert name.startswith("My text (chars, ")
    tok = tokenizer_from_json(models[name])
    assert [t.label for t in tok.encode_tokens("chaipoha")] == ["chai", "poha"]


def test_empty_and_huge_text_get_a_message() -> None:
    at = run_page(PAGE)
    at.selectbox(key="train.preset").set_value("own").run()
    assert "Type or paste some text" in main_text(at)
    assert not at.get("vega_lite_chart")
    at.text_area(key="train.text").input("   \n  ").run()
    assert "Type or paste some text" in main_text(at)
    at.text_area(key="train.text").input("chai " * 1_000_001).run()  # 5 MB
    assert_no_exception(at)
    assert f"up to {MAX_CORPUS_CHARS:,} characters" in main_text(at)
    assert "text" not in at.query_params  # too long for a link


def test_long_text_is_not_put_in_the_link() -> None:
    at = own_text(run_page(PAGE), "poha " * 100)
    assert "text" not in at.query_params
    assert "longer than 400 characters" in main_text(at)


@pytest.mark.parametrize(
    "text",
    [
        "👩‍👩‍👧 👩‍👩‍👧 family 👩‍👩‍👧",  # emoji with joiners
        "कि कि किताब किताब",  # combining vowel signs
        "مرحبا مرحبا دنیا اردو اردو",  # right-to-left
        "tab\tbell\x07 nul\x00 esc\x1b bell\x07",  # control characters
        '<img src=x onerror=alert(1)> <script>alert(2)</script> **bold** [x](http://e.com) :smile:',
    ],
    ids=["zwj", "combining", "rtl", "control", "markup"],
)
def test_tricky_text_never_crashes_and_is_escaped(text: str) -> None:
    at = own_text(run_page(PAGE), text)
    at.button(key="train.last").click().run()
    assert_no_exception(at)
    assert header(at).startswith("Merge ")
    raw = all_html(at)
    assert "<img" not in raw and "<script" not in raw  # shown as text, never as markup
    chart(at)  # the chart is drawn


def test_tricky_text_notes() -> None:
    notes = tv.text_notes("कि 👩‍👩‍👧 مرحبا a\x07 <b>")
    joined = " ".join(notes)
    assert "U+0007" in joined and "several code points" in joined
    assert "Right-to-left" in joined and "plain text" in joined
    assert tv.text_notes("plain words") == []


def upload(at, name: str, data: bytes):
    at.selectbox(key="train.preset").set_value("own").run()
    at.file_uploader(key="train.upload").set_value((name, data, "text/plain")).run()
    assert_no_exception(at)
    return at


def test_upload_bad_files_say_what_to_do() -> None:
    at = upload(run_page(PAGE), "latin1.txt", "café au lait".encode("latin-1"))
    assert "not valid UTF-8: the byte at offset 3 (0xE9)" in " ".join(html_texts(at))
    assert "Save it as UTF-8" in " ".join(html_texts(at))
    assert not at.get("vega_lite_chart")

    at.file_uploader(key="train.upload").set_value(("img.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "text/plain")).run()
    assert "looks binary" in " ".join(html_texts(at))
    at.file_uploader(key="train.upload").set_value(("u16.txt", "chai".encode("utf-16"), "text/plain")).run()
    assert "UTF-16" in " ".join(html_texts(at))
    at.file_uploader(key="train.upload").set_value(("big.txt", b"a" * (tv.UPLOAD_LIMIT_BYTES + 1), "text/plain")).run()
    assert "the limit is 2 MB" in " ".join(html_texts(at))


def test_upload_good_file_trains_on_it() -> None:
    at = upload(run_page(PAGE), "news.txt", "\ufeffखबर खबर खबरें news news\n".encode("utf-8"))
    assert "Training on the uploaded file" in main_text(at)
    at.button(key="train.next").click().run()
    assert header(at).startswith("Merge 1 of ")
    assert "My upload (chars, " in next(iter(at.session_state["lab.custom_models"]))


def test_one_megabyte_upload_trains() -> None:
    block = "Heavy rain closed many roads in the city. भारी बारिश से शहर की कई सड़कें बंद हो गईं। "
    data = (block * (1_000_000 // len(block.encode()) + 1)).encode()
    at = upload(run_page(PAGE), "big.txt", data)
    at.button(key="train.last").click().run()
    assert header(at).startswith("Merge ")
    assert "distinct words" in main_text(at)


# --- Predict first, autoplay ---------------------------------------------------------------------


def test_predict_first_hides_the_winner_until_checked() -> None:
    at = run_page(PAGE, query_params={"predict": "1"})
    assert "Predict first" in main_text(at)
    assert not at.get("vega_lite_chart")  # step 0 would give merge 1 away
    at.button(key="train.next").click().run()
    assert header(at) == "Merge 1 of 7: which pair wins?"
    assert not at.get("vega_lite_chart")
    guess = at.radio(key=tv.GUESS_KEY)
    assert tv.md_escape("h + a") in guess.options and guess.value is None  # labels are escaped markdown
    at.button(key=tv.CHECK_KEY).click().run()
    assert "Pick a pair first" in main_text(at)
    at.radio(key=tv.GUESS_KEY).set_value("h + a").run()
    at.button(key=tv.CHECK_KEY).click().run()
    assert_no_exception(at)
    assert "Right! You predicted h + a" in " ".join(html_texts(at))
    assert header(at).startswith("Merge 1 of 7: h + a → ha")
    assert chart(at)
    metrics = {m.label: m.value for m in at.main.get("metric")}
    assert metrics["Your predictions"] == "1 of 1"

    at.button(key="train.next").click().run()  # merge 2 is c + ha, seen 7 times; guess wrong
    assert at.radio(key=tv.GUESS_KEY).value is None  # a fresh question
    at.radio(key=tv.GUESS_KEY).set_value("o + ha").run()
    at.button(key=tv.CHECK_KEY).click().run()
    texts = " ".join(html_texts(at))
    assert "Not this time: you predicted o + ha (seen 4 times). The winner is c + ha, seen 7 times." in texts
    metrics = {m.label: m.value for m in at.main.get("metric")}
    assert metrics["Your predictions"] == "1 of 2"
    assert at.query_params["predict"] in ("1", ["1"])
    # The downloads would give the answers away, so they wait until predicting is off.
    assert not at.get("download_button")
    assert "Downloads are hidden while you predict" in main_text(at)


def test_autoplay_advances_and_stops_at_the_end() -> None:
    at = run_page(PAGE, query_params={"step": "6"})
    at.toggle(key=tv.AUTOPLAY_KEY).set_value(True).run()
    assert_no_exception(at)
    assert at.session_state["train.step"] == 6  # the page's own run does not step
    at.session_state[tv.AUTOPLAY_PENDING] = True  # what the timer does every tick
    at.run()
    assert at.session_state["train.step"] == 7
    assert at.toggle(key=tv.AUTOPLAY_KEY).value is False  # stopped at the last merge
    # Turning it on at the end starts again from the beginning.
    at.toggle(key=tv.AUTOPLAY_KEY).set_value(True).run()
    assert at.session_state["train.step"] == 0


# --- Downloads and speed ------------------------------------------------------------------------


def test_downloads_hold_the_model_and_the_trace() -> None:
    at = run_page(PAGE)
    labels = [b.proto.label for b in at.main.get("download_button")]
    assert labels == ["Model (JSON)", "Trace (JSON)", "Trace (CSV)"]
    preset = lessons.presets()["chai"]
    trace = train(preset.corpus, preset.merges, **preset.train_kwargs())
    tok = tokenizer_from_json(tv.tokenizer_json("test-chai", trace))
    assert [t.label for t in tok.encode_tokens("pohawala")] == ["poha", "wal", "a"]
    as_json, as_csv = tv.trace_files("test-chai", trace)
    assert [s["token"] for s in json.loads(as_json)["steps"]][:3] == ["ha", "cha", "chai"]
    rows = pd.read_csv(io.BytesIO(as_csv), encoding="utf-8-sig")
    assert list(rows["token"]) == ["ha", "cha", "chai", "po", "poha", "wa", "wal"]


def test_rerun_on_a_preset_is_fast() -> None:
    at = run_page(PAGE)
    at.button(key="train.next").click().run()  # warm
    start = time.perf_counter()
    for _ in range(5):
        at.button(key="train.next").click().run()
    assert (time.perf_counter() - start) / 5 < 1.0  # generous: AppTest overhead, busy CI; the script takes ~20-90 ms


# --- Helpers ---------------------------------------------------------------------------------------


def test_decode_upload() -> None:
    assert tv.decode_upload("\ufeffनमस्ते".encode()) == ("नमस्ते", None)
    text, error = tv.decode_upload(b"ok \xff")
    assert text is None and "offset 3 (0xFF)" in error


def test_visible_labels() -> None:
    assert tv.visible(" ⟨E0 A4⟩x\ty") == "·⟨E0 A4⟩x⇥y"
    assert tv.visible("a\u200db\x07") == "aU+200DbU+0007"
    assert tv.visible("\u093f") == "◌\u093f"
    assert tv.join_words(["a", "b", "c"]) == "a, b and c"
    assert tv.join_words(["a", "b"], more=3) == "a, b and 3 more"


def test_chart_spec_marks_winner_and_ties() -> None:
    preset = lessons.presets()["news"]
    trace = train(preset.corpus, preset.merges, **preset.train_kwargs(), table_size=12)
    rows = tv.pair_rows(trace.steps[0])
    spec = tv.pair_chart(rows).to_dict()
    bar = spec["layer"][0]
    assert bar["encoding"]["color"]["scale"]["range"][:2] == [tv.WINNER_COLOUR, tv.TIE_COLOUR]
    assert bar["encoding"]["y"]["sort"][:2] == ["1. n + e", "2. e + w"]
    assert [r["status"] for r in rows[:3]] == [tv.STATUS_WINNER, tv.STATUS_TIE, tv.STATUS_OTHER]
    marks = list(pd.DataFrame(next(iter(spec["datasets"].values())))["mark"])
    assert marks[:2] == ["10  ← winner", "10  tie"]


def test_guess_options_hide_the_ranking() -> None:
    preset = lessons.presets()["chai"]
    trace = train(preset.corpus, preset.merges, **preset.train_kwargs(), table_size=12)
    options = tv.guess_options(trace.steps[0])
    assert len(options) == tv.GUESS_OPTIONS and "h + a" in options
    assert options == sorted(options, key=str.casefold)


# --- Found in review ------------------------------------------------------------------------------


def test_predicting_shows_the_corpus_length_before_the_hidden_merge() -> None:
    """The drop in corpus tokens is the winning pair's count: it must not show before the guess."""
    preset = lessons.presets()["chai"]
    trace = train(preset.corpus, preset.merges, **preset.train_kwargs())
    before = sum(len(w.ids) * w.count for w in trace.segmentation(0))
    at = run_page(PAGE, query_params={"predict": "1", "step": "1"})
    metrics = {m.label: m.value for m in at.main.get("metric")}
    assert metrics["Corpus tokens"] == f"{before:,}"
    at.radio(key=tv.GUESS_KEY).set_value("h + a").run()
    at.button(key=tv.CHECK_KEY).click().run()
    after = sum(len(w.ids) * w.count for w in trace.segmentation(1))
    metrics = {m.label: m.value for m in at.main.get("metric")}
    assert metrics["Corpus tokens"] == f"{after:,}" and before - after == trace.steps[0].count


def test_new_own_text_starts_again_at_step_zero() -> None:
    at = run_page(PAGE, query_params={"preset": "own", "text": "aaab aaab aab ab", "step": "2"})
    assert at.session_state["train.step"] == 2
    at.text_area(key=tv.TEXT.skey).input("chai chai chaiwala").run()
    assert_no_exception(at)
    assert at.session_state["train.step"] == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "This file is empty"),
        (b"  \n ", "This file is empty"),
        (b"a" * (tv.UPLOAD_LIMIT_BYTES + 1), f"the limit is {tv.UPLOAD_LIMIT_MB} MB"),
    ],
)
def test_empty_and_too_big_uploads_say_so(data: bytes, message: str) -> None:
    text, error = tv.decode_upload(data)
    assert text is None and message in error
