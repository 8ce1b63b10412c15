"""The "Train step by step" page (AppTest) and its helpers in views/train/."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

import lessons
from tests.apptest_helpers import (
    assert_no_exception,
    button,
    chart_datasets,
    chart_spec,
    html_texts,
    main_text,
    page_text,
    run_page,
)
from tokenizer import train
from tokenizer.io import tokenizer_from_json
from tokenizer.train import SHOWN_TABLE_SIZE
from ui import questions
from ui.presets import preset_settings
from ui.training import MAX_CORPUS_CHARS, Run, preset_run, trace_of
from views import train as tv

PAGE = "pages/1_Train_step_by_step.py"


# --- helpers ----------------------------------------------------------------------------------


def texts(at) -> str:
    return page_text(at)


def all_html(at) -> str:
    return "\n".join(str(h.value) for h in at.main.get("html"))


def header(at) -> str:
    return next(t for t in html_texts(at) if t.startswith(("Merge ", "Step 0")))


def facts(at) -> str:
    return next(str(c.value) for c in at.main.get("caption") if str(c.value).startswith("vocabulary "))


def chart(at):
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1
    (data,) = chart_datasets(charts[0]).values()
    return chart_spec(charts[0]), data


def predict_radio(at):
    return next(r for r in at.radio if r.label == "Your prediction")


def own_text(at, text: str):
    at.selectbox(key=tv.PRESET.skey).set_value("own").run()
    at.text_area(key=tv.TEXT.skey).input(text).run()
    assert_no_exception(at)
    return at


def preset_trace(preset_id: str, **extra):
    preset = lessons.presets()[preset_id]
    return train(preset.corpus, preset.merges, **preset.config.to_dict(), **extra)


# --- The chai walk-through (lesson 2, example D) --------------------------------------------


def test_opens_on_chai_at_step_zero() -> None:
    at = run_page(PAGE)
    assert at.selectbox(key=tv.PRESET.skey).value == "chai"
    assert at.radio(key=tv.SETTING["unit"].skey).value == "chars"
    assert at.number_input(key=tv.SETTING["merges"].skey).value == 7
    assert header(at).startswith("Step 0 of 7: before any merge")
    # Step 0 shows the first pair table without naming a winner.
    spec, data = chart(at)
    assert data.loc[0, "pair"] == "h + a" and data.loc[0, "count"] == 11
    assert "winner" not in set(data["status"])
    # The corpus is single characters, each row with its word: chai x3 -> chai: c h a i.
    assert "chai c h a i ×3" in texts(at)
    # Defaults stay out of the link.
    assert not {"preset", "step", "unit"} & set(at.query_params)


def test_the_corpus_box_is_filled_only_once_opened() -> None:
    """On a laptop the preset's corpus text sits in a closed box: nothing is drawn in it (its code block would load
    a syntax highlighter on every first visit) until the learner opens it; then it is the corpus, exactly."""
    corpus = lessons.presets()["chai"].corpus
    closed = run_page(PAGE)
    assert_no_exception(closed)
    assert [e.label for e in closed.expander if e.label.startswith("The corpus text")] == [
        f"The corpus text ({len(corpus)} characters)"]
    assert not closed.code
    opened = run_page(PAGE, session_state={tv.CORPUS_OPEN.skey: True})
    assert [c.value for c in opened.code] == [corpus]


def test_step_forward_to_merge_3_shows_cha_plus_i() -> None:
    at = run_page(PAGE)
    for expected in (1, 2, 3):
        at.button(key=tv.NEXT.skey).click().run()
        assert at.session_state[tv.STEP.skey] == expected
    assert_no_exception(at)
    assert header(at) == "Merge 3 of 7: cha + i → chai seen 5 times · new token id 13"
    spec, data = chart(at)
    winner = data[data["status"] == tv.STATUS_WINNER]
    assert list(winner["pair"]) == ["cha + i"] and list(winner["count"]) == [5]
    shown = texts(at)
    assert "No tie: cha + i was seen 5 times" in shown
    assert "chai chai ×3" in shown and "chaat cha a t ×2" in shown  # the corpus after merge 3
    assert "ha 11 cha 12 chai 13" in shown  # tokens learned so far, with ids
    assert facts(at).startswith("vocabulary 14 (11 base + 3 merged)")
    assert at.query_params["step"] == "3"


def test_first_merge_count_adds_up_word_by_word() -> None:
    at = run_page(PAGE, query_params={"step": "1"})
    assert "How 11 adds up, each word counted as often as it occurs: chai ×3 + chaiwala ×2 + chaat ×2 + poha ×3 + pohawala ×1 = 11" in texts(at)


def test_slider_last_and_first_buttons() -> None:
    at = run_page(PAGE)
    at.button(key=tv.LAST.skey).click().run()
    assert at.slider(key=tv.STEP.skey).value == 7
    assert header(at).startswith("Merge 7 of 7: wa + l → wal")
    assert at.button(key=tv.NEXT.skey).disabled
    at.slider(key=tv.STEP.skey).set_value(4).run()
    assert header(at).startswith("Merge 4 of 7: p + o → po")
    at.button(key=tv.PREV.skey).click().run()
    assert at.session_state[tv.STEP.skey] == 3
    at.button(key=tv.FIRST.skey).click().run()
    assert header(at).startswith("Step 0 of 7")


def test_after_the_last_merge_the_preset_words_are_one_click_away() -> None:
    at = run_page(PAGE, query_params={"step": "7"})
    assert "That was the last merge" in main_text(at)
    from urllib.parse import parse_qs

    links = [(link.proto.label, parse_qs(link.proto.query_string)) for link in at.main.get("page_link")
             if link.proto.page == "Encode_step_by_step"]
    words = lessons.presets()["chai"].examples
    assert [label for label, _ in links] == [f"Encode “{w}”" for w in words]
    assert [q["text"] for _, q in links] == [[w] for w in words] and all(q["tok"] == ["chai"] for _, q in links)


@pytest.mark.parametrize("step", ["3", "99"])
def test_deep_link_restores_preset_and_step(step: str) -> None:
    at = run_page(PAGE, query_params={"preset": "chai", "step": step})
    expected = min(int(step), 7)
    assert at.slider(key=tv.STEP.skey).value == expected
    assert header(at).startswith(f"Merge {expected} of 7")


def test_bad_link_values_fall_back() -> None:
    at = run_page(PAGE, query_params={"preset": "nope", "step": "-4", "unit": "qubits", "merges": "lots"})
    assert at.selectbox(key=tv.PRESET.skey).value == "chai"
    assert at.session_state[tv.STEP.skey] == 0
    assert at.radio(key=tv.SETTING["unit"].skey).value == "chars"
    assert at.number_input(key=tv.SETTING["merges"].skey).value == 7


def test_large_type_keeps_one_screen_per_step() -> None:
    """In large type the step view has no slider (the buttons do it), and chart, why and corpus sit side by side."""
    at = run_page(PAGE, query_params={"large": "1", "step": "4"})
    assert not [s for s in at.slider if s.key == tv.STEP.skey]
    assert header(at).startswith("Merge 4 of 7")
    assert "The tie, and the rule that broke it" in page_text(at)
    assert sum("rule that broke it" in h for h in html_texts(at)) == 1  # the projector's own column: one copy


def test_why_a_pair_won_sits_where_each_screen_wants_it() -> None:
    """On a wide screen the why box sits beside the chart, over the corpus; on a phone, in the chart's swipe panel
    (the corpus after the merge is the panel a phone shows first). One copy for each kind of screen, never both on
    one (the other is display:none, which also keeps a screen reader from reading it twice)."""
    at = run_page(PAGE, query_params={"preset": "chai", "step": "1"})
    boxes = [h for h in html_texts(at) if "Why this pair" in h]
    assert len(boxes) == 2 and boxes[0] == boxes[1]
    raw = [str(b.value) for b in at.main.get("html") if "Why this pair" in str(b.value)]
    assert sorted(r.split('"')[1] for r in raw) == ["tl-phone-only", "tl-wide-only"]


# --- Presets, settings, ties ----------------------------------------------------------------


def test_switching_presets_takes_their_settings() -> None:
    at = run_page(PAGE, query_params={"step": "3"})
    at.selectbox(key=tv.PRESET.skey).set_value("news").run()
    assert at.session_state[tv.STEP.skey] == 0
    assert at.number_input(key=tv.SETTING["merges"].skey).value == 3
    assert at.query_params["preset"] == "news" and "step" not in at.query_params

    at.button(key=tv.NEXT.skey).click().run()
    shown = texts(at)
    assert "Tie: n + e and e + w were both seen 10 times." in shown
    assert "Rule 'first seen'" in shown and "(news, new, newer)" in shown
    _, data = chart(at)
    assert dict(zip(data["pair"], data["status"]))["e + w"] == tv.STATUS_TIE

    at.selectbox(key=tv.PRESET.skey).set_value("play").run()
    assert at.selectbox(key=tv.SETTING["marker"].skey).value == "_"
    at.selectbox(key=tv.PRESET.skey).set_value("english-hindi").run()
    assert at.radio(key=tv.SETTING["unit"].skey).value == "bytes"
    assert at.radio(key=tv.SETTING["split"].skey).value == "regex"
    assert at.number_input(key=tv.SETTING["merges"].skey).value == 100
    at.button(key=tv.NEXT.skey).click().run()
    assert header(at).startswith("Merge 1 of 100: ⟨E0⟩ + ⟨A4⟩ → ⟨E0 A4⟩")
    assert 'class="tl-chip tl-partial' in all_html(at)  # part of a character: dashed chip


def test_byte_level_corpus_rows_say_which_word_they_are() -> None:
    at = run_page(PAGE, query_params={"preset": "english-hindi-fair", "step": "60"})
    rows = next(h for h in html_texts(at) if "×10" in h and "×20" in h)
    assert rows.startswith("roads ")  # the word, then its chips, then how often it occurs


def test_changing_a_setting_is_a_custom_run_and_reset_restores() -> None:
    at = run_page(PAGE, query_params={"preset": "news"})
    at.radio(key=tv.SETTING["ties"].skey).set_value("hf").run()
    assert "Custom run" in main_text(at)
    assert at.query_params["ties"] == "hf"
    at.button(key=tv.NEXT.skey).click().run()
    assert header(at).startswith("Merge 1 of 3: e + w → ew")
    shown = texts(at)
    assert "Rule 'hf'" in shown
    assert "Here e + w is (0, 4), n + e is (1, 0)" in shown  # e n r s w, sorted  # the numbers the rule compares, shown
    at.button(key=tv.RESET.skey).click().run()
    assert at.radio(key=tv.SETTING["ties"].skey).value == "first"
    assert "Custom run" not in main_text(at)
    assert "ties" not in at.query_params


def test_three_way_tie_and_and_more() -> None:
    at = run_page(PAGE, query_params={"preset": "low", "step": "4"})
    shown = texts(at)
    assert "lowe + r, lowe + s and s + t were all seen 1 time" in shown
    assert "is met first, in “lower”" in shown
    assert "occurs just once in the whole corpus in “lower”" in shown  # a merge that memorises a word
    at = run_page(PAGE, query_params={"preset": "lowmarker", "step": "9"})
    assert "and 3 more pairs were all seen 1 time" in texts(at)


def test_zero_merges_explains_and_shows_base_symbols() -> None:
    at = run_page(PAGE)
    at.number_input(key=tv.SETTING["merges"].skey).set_value(0).run()
    assert_no_exception(at)
    assert "nothing to step through" in main_text(at)
    assert "The base vocabulary: 11 symbols" in main_text(at)
    assert not at.get("vega_lite_chart")


def test_bad_regex_pattern_is_explained() -> None:
    at = run_page(PAGE)
    at.radio(key=tv.SETTING["split"].skey).set_value("regex").run()
    at.text_input(key=tv.SETTING["pattern"].skey).input("([").run()
    assert_no_exception(at)
    assert "not a valid regular expression" in texts(at)


def test_the_pattern_is_shown_with_its_leading_space_visible() -> None:
    at = run_page(PAGE, query_params={"preset": "english-hindi"})
    assert "With spaces shown: `·?\\S+`" in main_text(at)


def test_custom_marker() -> None:
    at = run_page(PAGE, query_params={"preset": "news"})
    at.selectbox(key=tv.SETTING["marker"].skey).set_value("custom").run()
    at.text_input(key=tv.SETTING["marker_text"].skey).input("#").run()
    at.button(key=tv.NEXT.skey).click().run()
    assert_no_exception(at)
    assert "# ×5" in texts(at)  # every word ends in the marker
    at.text_input(key=tv.SETTING["marker_text"].skey).input("").run()
    assert "custom end-of-word marker is empty" in texts(at)


def test_grammar_of_counts() -> None:
    at = run_page(PAGE, query_params={"preset": "own", "text": "ab ab", "step": "1"})
    assert "All 1 distinct pair." in main_text(at)
    assert "All 1 distinct pairs" not in main_text(at)


# --- Your own text and uploads ------------------------------------------------------------------


def test_own_text_trains_and_is_kept_for_the_other_pages() -> None:
    at = own_text(run_page(PAGE), "chai chai chai chaiwala chaiwala chaat chaat poha poha poha pohawala samosa")
    assert at.query_params["text"] in (at.session_state[tv.TEXT.skey], [at.session_state[tv.TEXT.skey]])
    assert at.number_input(key=tv.SETTING["merges"].skey).value == 20  # own text: 20 merges by default
    assert header(at).startswith("Step 0 of ")
    at.slider(key=tv.STEP.skey).set_value(3).run()
    assert header(at).startswith("Merge 3 of ")
    models = at.session_state["lab.session_models"]
    (model,) = models.values()
    assert model["title"].startswith("My text “chai chai chai chaiwala” (chars, ")
    tok = tokenizer_from_json(model["json"])
    assert [t.label for t in tok.encode_tokens("chaipoha")] == ["chai", "poha"]


def test_two_own_texts_with_the_same_settings_are_two_models() -> None:
    at = own_text(run_page(PAGE), "chai chai chaiwala")
    at.text_area(key=tv.TEXT.skey).input("poha poha pohawala").run()
    titles = [m["title"] for m in at.session_state["lab.session_models"].values()]
    assert len(titles) == 2 and titles[0] != titles[1]


def test_whitespace_split_keeps_punctuation_on_words_and_says_so() -> None:
    at = own_text(run_page(PAGE), "kal milte hain, kal milte hain")
    assert "“hain,” and “hain” are different words" in main_text(at)


def test_empty_and_huge_text_get_a_message() -> None:
    at = run_page(PAGE)
    at.selectbox(key=tv.PRESET.skey).set_value("own").run()
    assert "Type or paste some text" in main_text(at)
    assert not at.get("vega_lite_chart")
    at.text_area(key=tv.TEXT.skey).input("   \n  ").run()
    assert "Type or paste some text" in main_text(at)
    at.text_area(key=tv.TEXT.skey).input("chai " * 1_000_001).run()  # 5 MB
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
    at.button(key=tv.LAST.skey).click().run()
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
    at.selectbox(key=tv.PRESET.skey).set_value("own").run()
    at.file_uploader(key=tv.UPLOAD.skey).set_value((name, data, "text/plain")).run()
    assert_no_exception(at)
    return at


def test_upload_bad_files_say_what_to_do() -> None:
    at = upload(run_page(PAGE), "latin1.txt", "café au lait".encode("latin-1"))
    assert "not valid UTF-8" in texts(at) and "UTF-8" in texts(at)
    assert not at.get("vega_lite_chart")
    at.file_uploader(key=tv.UPLOAD.skey).set_value(("img.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "text/plain")).run()
    assert "binary" in texts(at)
    at.file_uploader(key=tv.UPLOAD.skey).set_value(("u16.txt", "chai".encode("utf-16"), "text/plain")).run()
    assert "UTF-16" in texts(at)
    at.file_uploader(key=tv.UPLOAD.skey).set_value(("big.txt", b"a" * 2_000_001, "text/plain")).run()
    assert "the limit is 2 MB" in texts(at)


def test_the_uploader_states_the_same_limit_the_page_keeps() -> None:
    at = run_page(PAGE, query_params={"preset": "own"})
    (uploader,) = at.get("file_uploader")
    assert "(up to 2 MB)" in uploader.proto.label


def test_upload_good_file_trains_on_it() -> None:
    at = upload(run_page(PAGE), "news.txt", "\ufeffखबर खबर खबरें news news\n".encode("utf-8"))
    assert "Training on the uploaded file" in main_text(at)
    at.button(key=tv.NEXT.skey).click().run()
    assert header(at).startswith("Merge 1 of ")
    (model,) = at.session_state["lab.session_models"].values()
    assert model["title"].startswith("My upload “खबर खबर खबरें news”")


def test_one_megabyte_upload_trains() -> None:
    block = "Heavy rain closed many roads in the city. भारी बारिश से शहर की कई सड़कें बंद हो गईं। "
    data = (block * (1_000_000 // len(block.encode()) + 1)).encode()
    at = upload(run_page(PAGE), "big.txt", data)
    at.button(key=tv.LAST.skey).click().run()
    assert header(at).startswith("Merge ")
    assert "distinct words" in main_text(at)


# --- Predict first, autoplay ---------------------------------------------------------------------


def test_predict_first_hides_the_winner_until_checked() -> None:
    at = run_page(PAGE, query_params={"predict": "1"})
    assert "Predict first" in main_text(at)
    assert not at.get("vega_lite_chart")  # step 0 would give merge 1 away
    at.button(key=tv.NEXT.skey).click().run()
    assert header(at) == "Merge 1 of 7: which pair wins?"
    assert not at.get("vega_lite_chart")
    guess = predict_radio(at)
    assert "h \\+ a" in guess.options and guess.value is None  # labels are escaped Markdown
    button(at, "Check").click().run()
    assert "Make a prediction first" in main_text(at)
    predict_radio(at).set_value("h + a").run()
    button(at, "Check").click().run()
    assert_no_exception(at)
    assert "Right! You predicted h + a." in texts(at)
    assert header(at).startswith("Merge 1 of 7: h + a → ha")
    assert chart(at)
    assert "your predictions: 1 of 1" in facts(at)

    at.button(key=tv.NEXT.skey).click().run()  # merge 2 is c + ha, seen 7 times; guess wrong
    assert predict_radio(at).value is None  # a fresh question
    predict_radio(at).set_value("o + ha").run()
    button(at, "Check").click().run()
    shown = texts(at)
    assert "Not this time. You predicted o + ha; the lab computed c + ha." in shown
    assert "c + ha: 7 times" in shown and "o + ha: 4 times" in shown  # the counts behind the answer
    assert "your predictions: 1 of 2" in facts(at)
    assert at.query_params["predict"] == "1"
    # The downloads would give the answers away, so they wait until predicting is off.
    assert not at.get("download_button")
    assert "Downloads are hidden while you predict" in main_text(at)


def test_a_pick_tied_with_the_winner_counts_as_right_and_the_rule_is_explained() -> None:
    """Merge 4 of the chai corpus: p + o and o + ha are both seen 4 times; the tie rule picks p + o."""
    at = run_page(PAGE, query_params={"predict": "1", "step": "4"})
    predict_radio(at).set_value("o + ha").run()
    button(at, "Check").click().run()
    shown = texts(at)
    assert "Right: o + ha ties with the lab's pick, p + o." in shown
    assert "Rule 'first seen'" in shown
    assert "your predictions: 1 of 1" in facts(at)


def test_retry_does_not_change_the_score() -> None:
    at = run_page(PAGE, query_params={"predict": "1", "step": "1"})
    predict_radio(at).set_value("a + i").run()
    button(at, "Check").click().run()
    button(at, "Try again").click().run()
    predict_radio(at).set_value("h + a").run()
    button(at, "Check").click().run()
    assert "A retry" in texts(at)
    assert "your predictions: 0 of 1" in facts(at)


def test_predicting_shows_the_corpus_length_before_the_hidden_merge() -> None:
    """The drop in corpus tokens is the winning pair's count: it must not show before the guess."""
    trace = preset_trace("chai")
    before = sum(len(w.ids) * w.count for w in trace.segmentation(0))
    at = run_page(PAGE, query_params={"predict": "1", "step": "1"})
    assert f"the corpus is {before:,} tokens before this merge" in facts(at)
    predict_radio(at).set_value("h + a").run()
    button(at, "Check").click().run()
    after = sum(len(w.ids) * w.count for w in trace.segmentation(1))
    assert f"the corpus is {after:,} tokens" in facts(at) and before - after == trace.steps[0].count


def test_autoplay_advances_and_stops_at_the_end() -> None:
    at = run_page(PAGE, query_params={"step": "6"})
    at.toggle(key=tv.STEPPER.autoplay.skey).set_value(True).run()
    assert_no_exception(at)
    at.session_state[tv.STEPPER.last_tick.skey] = 0.0  # as if a tick's time had come
    at.run()
    assert at.session_state[tv.STEP.skey] == 7
    assert at.toggle(key=tv.STEPPER.autoplay.skey).value is False  # stopped at the last merge
    # Turning it on at the end starts again from the beginning.
    at.toggle(key=tv.STEPPER.autoplay.skey).set_value(True).run()
    assert at.session_state[tv.STEP.skey] == 0


# --- Downloads, the algorithm, the merges table ---------------------------------------------------


def test_downloads_hold_the_model_and_the_trace() -> None:
    at = run_page(PAGE)
    labels = [b.proto.label for b in at.main.get("download_button")]
    assert labels == ["Model (JSON)", "Trace (JSON)", "Trace (CSV)"]  # a character model has no HF export
    assert "Only a byte-level model can be written as a Hugging Face tokenizer.json" in main_text(at)
    trace = preset_trace("chai")
    tok = tokenizer_from_json(tv.tokenizer_json(preset_run("chai")))
    assert [t.label for t in tok.encode_tokens("pohawala")] == ["poha", "wal", "a"]
    assert [s["token"] for s in json.loads(tv.trace_json(trace))["steps"]][:3] == ["ha", "cha", "chai"]
    rows = pd.read_csv(io.BytesIO(tv.trace_csv(trace)), encoding="utf-8-sig")
    assert list(rows["token"]) == ["ha", "cha", "chai", "po", "poha", "wa", "wal"]


def test_a_byte_level_preset_offers_the_hugging_face_export() -> None:
    at = run_page(PAGE, query_params={"preset": "english-hindi"})
    labels = [b.proto.label for b in at.main.get("download_button")]
    assert "Hugging Face tokenizer.json" in labels


def test_the_algorithm_is_shown_with_this_steps_values() -> None:
    at = run_page(PAGE, query_params={"step": "1"})
    at.session_state[tv.CODE_OPEN.skey] = True
    at.run()
    code = next(h for h in html_texts(at) if "count_pairs" in h)
    assert "best = h + a, seen 11 times" in code
    assert "new_id = 11: the token ha" in code


def test_the_merges_table_uses_plain_words() -> None:
    at = run_page(PAGE, query_params={"step": "4"})
    at.session_state[tv.TABLE_OPEN.skey] = True
    at.run()
    frame = next(df.value for df in at.dataframe if "times seen" in df.value.columns)
    assert list(frame.columns) == ["step", "left", "right", "token", "new id", "times seen",
                                   "other pairs with that count", "vocabulary size"]
    assert pd.isna(frame.loc[0, "other pairs with that count"])  # no tie at merge 1
    assert frame.loc[3, "other pairs with that count"] == 1  # merge 4: one other pair tied


# --- Helpers ---------------------------------------------------------------------------------------


def test_chart_spec_marks_winner_and_ties() -> None:
    import altair as alt

    trace = preset_trace("news", table_size=SHOWN_TABLE_SIZE)
    rows = tv.pair_rows(trace.steps[0])
    spec = tv.pair_chart_spec(tv.rows_key(rows), False)
    alt.Chart.from_dict(spec)  # a valid Vega-Lite spec (the template is filled, not rebuilt, per step)
    bar = spec["layer"][0]["encoding"]
    assert bar["color"]["scale"]["range"][:2] == [tv.WINNER_COLOUR, tv.TIE_COLOUR]
    assert bar["color"]["legend"]["values"] == [tv.STATUS_WINNER, tv.STATUS_TIE, tv.STATUS_OTHER]
    records = spec["datasets"][tv.CHART_DATA]
    assert [r["bar"] for r in records[:2]] == ["1. n + e", "2. e + w"]
    assert [r["status"] for r in rows[:3]] == [tv.STATUS_WINNER, tv.STATUS_TIE, tv.STATUS_OTHER]
    assert [r["mark"] for r in records[:2]] == ["10  ← winner", "10  tie"]
    assert bar["x"]["scale"]["domain"] == [0, 13.0]  # room after the longest bar for its label


@pytest.mark.parametrize("large", [False, True])
def test_chart_text_is_black_and_grows_with_large_type(large: bool) -> None:
    rows = tv.pair_rows(preset_trace("chai", table_size=SHOWN_TABLE_SIZE).steps[0])
    spec = tv.pair_chart_spec(tv.rows_key(rows), large)
    axis = spec["config"]["axis"]
    assert axis["labelColor"] == axis["titleColor"] == "#000000"
    assert axis["labelFontSize"] == (20 if large else 13)


def test_guess_options_hide_the_ranking() -> None:
    q = questions.guess_question("0123456789abcdef", preset_trace("chai", table_size=SHOWN_TABLE_SIZE), 1)
    assert len(q.options) == questions.GUESS_OPTIONS and q.answer == "h + a"
    assert list(q.options) == sorted(q.options, key=str.casefold)


def test_new_own_text_starts_again_at_step_zero() -> None:
    at = run_page(PAGE, query_params={"preset": "own", "text": "aaab aaab aab ab", "step": "2"})
    assert at.session_state[tv.STEP.skey] == 2
    at.text_area(key=tv.TEXT.skey).input("chai chai chaiwala").run()
    assert_no_exception(at)
    assert at.session_state[tv.STEP.skey] == 0


# --- Caches keyed by what they depend on -----------------------------------------------------------


def test_two_runs_never_share_a_cache_entry() -> None:
    """Every cached drawing takes the run it draws (its corpus, merges and settings: ui.training.Run), never a name
    the caller makes up: two different runs get their own output, in either order (keyed by a ``run`` string, the
    second once got the first's)."""
    runs = [Run.of("chai chai chaiwala chai", 4, {"unit": "bytes"}), Run.of("poha poha pohawala upma", 4, {"unit": "bytes"})]
    for run, other in (runs, runs[::-1]):
        trace = train(run.corpus, run.merges, unit="bytes")  # the engine itself, outside every cache
        step = trace.steps[0]
        assert tv.explain(run, 1).startswith(questions.tie_explanation(trace, 1))  # uncached: this run's own sentence
        assert tv.count_breakdown(run, 1).startswith(f"How {step.count:,} adds up")
        mine, theirs = ("chaiwala", "pohawala") if run is runs[0] else ("pohawala", "chaiwala")
        assert mine in tv.corpus_html(run, 0) and theirs not in tv.corpus_html(run, 0)
        assert tv.corpus_tokens(run, 1) == sum(w.count * len(w.ids) for w in trace.segmentation(1))
        assert f"seen {questions.times(step.count)}" in tv.step_header_html(run, 1)
        assert list(tv.merges_frame(run, 2)["token"]) == [s.token for s in trace.steps[:2]]
        model = tokenizer_from_json(tv.tokenizer_json(run))
        assert model.merges == trace.tokenizer.merges
        hf, _ = tv.hf_export(run)
        assert json.loads(hf)["model"]["merges"] == json.loads(tv.hf_export(run)[0])["model"]["merges"]
        assert hf != tv.hf_export(other)[0]


def test_a_run_is_named_by_its_inputs_as_its_saved_questions_are() -> None:
    """The caches' key for a run is the digest its "predict first" questions are saved under
    (ui.questions.run_key): the same settings give the same name, and the page's trace is that run's."""
    preset = lessons.presets()["chai"]
    page = preset_settings("chai")
    run = Run.of(preset.corpus, page.merges, page.config().to_dict())
    assert run.name == questions.run_key(preset.corpus, page)
    assert trace_of(run).tokenizer.merges == train(preset.corpus, page.merges, **page.config().to_dict()).tokenizer.merges


# --- In Hindi (issue 28) ----------------------------------------------------------------------------------------


def test_train_in_hindi() -> None:
    """?lang=hi: the headings, settings, step controls, the step's sentences and the chart in Hindi; the tie and its
    rule are the engine's (tie_explanation, said in Hindi); the preset's name and note have their Hindi beside the
    English in presets.toml."""
    from i18n import using

    at = run_page(PAGE, query_params={"lang": "hi", "preset": "news", "step": "1"})
    assert_no_exception(at)
    assert at.title[0].value == "क़दम-दर-क़दम ट्रेनिंग"
    corpus = at.selectbox(key=tv.PRESET.skey)
    assert corpus.label == "कॉर्पस" and corpus.value == "news" and "D · चाय की दुकान" in corpus.options
    assert at.radio(key=tv.SETTING["unit"].skey).options == ["कैरेक्टर", "UTF-8 बाइट"]
    assert at.radio(key=tv.SETTING["ties"].skey).label == "बराबरी"
    assert [at.button(key=k.skey).label for k in (tv.FIRST, tv.PREV, tv.NEXT)][2] == "अगला"
    assert at.toggle(key=tv.PREDICT.skey).label == "पहले अनुमान लगाइए"
    trace = preset_trace("news")
    step = trace.steps[0]
    assert step.n_tied > 1  # the very first merge is a tie
    with using("hi"):
        tie = questions.tie_explanation(trace, 1)
    said = texts(at)
    assert tie.startswith("बराबरी: ") and tie.split(" नियम ‘पहले दिखी’")[0] in said
    head = next(t for t in html_texts(at) if "में से मर्ज 1:" in t)
    assert f"{len(trace.steps)} में से मर्ज 1:" in head and f"{step.count} बार दिखी" in head
    assert "पहला ही मर्ज बराबरी पर है: देखिए कि विजेता कौन-सा नियम चुनता है।" in said  # the preset's note
    assert "**मर्ज 1 से पहले जोड़ियों की गिनती**" in main_text(at) and "बराबरी, और उसे तोड़ने वाला नियम" in said
    spec, data = chart(at)
    assert spec["layer"][0]["encoding"]["x"]["title"] == "इस मर्ज से पहले कितनी बार दिखी"
    assert "विजेता" in set(data["status"]) and "बराबरी में हारी" in set(data["status"])
    assert spec["config"]["locale"]["number"]["grouping"][:2] == [3, 2]  # the axis grouped the Indian way
    # the address keeps the English settings; English is unchanged
    assert at.query_params["preset"] == "news" and at.query_params["lang"] == "hi"


def test_train_in_hindi_groups_numbers_the_indian_way() -> None:
    """1,10,000 words of one kind: the corpus's counts grouped the Indian way in Hindi (110,000 in English), as the
    engine counts them."""
    text = "ab " * 110_000
    trace = train(text, 20, unit="chars", split="whitespace")  # "your own text"'s settings
    assert trace.total_words == 110_000 and len(trace.steps) == 1  # one merge: then every word is one token
    at = run_page(PAGE, query_params={"lang": "hi", "preset": "own"})
    at.text_area(key=tv.TEXT.skey).input(text).run()
    at.button(key=tv.NEXT.skey).click().run()
    assert_no_exception(at)
    said = texts(at)
    assert "आपके माँगे 20 मर्ज में से 1 के बाद ट्रेनिंग रुक गई" in said
    assert "कुल 1,10,000" in said and "कॉर्पस 1,10,000 टोकन का है" in said
    _spec, data = chart(at)
    assert list(data["mark"])[0] == "1,10,000  ← विजेता"  # a + b, once in each word
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert "110,000 in all" in texts(at)
