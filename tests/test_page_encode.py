"""Encode step by step (AppTest): the curriculum's replays, the step controls, ready examples, bad input."""

from __future__ import annotations

import pytest

import lessons
from tests.apptest_helpers import assert_no_exception, html_blocks, main_text, parse_chips, plain, run_page
from tokenizer import train
from tokenizer.io import tokenizer_to_json
from tokenizer.replay import encode_trace
from ui.display import visible_token
from views import encode as ev

PAGE = "pages/3_Encode_step_by_step.py"


def preset_tokenizer(preset_id: str):
    preset = lessons.presets()[preset_id]
    return train(preset.corpus, preset.merges, **preset.config.to_dict()).tokenizer


def chip_rows(at) -> list[list[tuple[str, bool]]]:
    """Every row of chips in the main area, in order (not the merge line): [(text, highlighted), ...] per row."""
    rows = []
    for body in html_blocks(at):
        if 'class="tl-merge"' in body or 'class="tl-tree"' in body:
            continue
        rows.append([(c.text, c.highlighted) for c in parse_chips(body).chips])
    return rows


def texts(row) -> list[str]:
    return [text for text, _ in row]


def merge_line(at) -> list[str]:
    """The chips of the "left + right → new" line."""
    for body in html_blocks(at, 'class="tl-merge"'):
        return parse_chips(body).texts
    return []


def test_default_is_readership_at_the_start() -> None:
    at = run_page(PAGE)
    assert at.selectbox(key=ev.TOK.skey).value == "readers"
    assert at.text_input(key=ev.TEXT.skey).value == "readership"
    assert at.slider(key=ev.STEP.skey).value == 0
    assert "Start: 11 tokens" in main_text(at)
    assert texts(chip_rows(at)[0]) == list("readership") + ["</w>"]


def test_readership_steps_to_the_final_seven_tokens() -> None:
    tok = preset_tokenizer("readers")
    trace = encode_trace(tok, "readership")
    at = run_page(PAGE, query_params={"tok": "readers", "text": "readership"})
    n = int(at.slider(key=ev.STEP.skey).max)
    assert n == len(trace.steps) == 4

    fired = []
    for step in range(1, n + 1):
        at.button(key=ev.NEXT.skey).click().run()
        assert_no_exception(at)
        assert at.slider(key=ev.STEP.skey).value == step
        assert f"Step {step} of {n}" in main_text(at)
        left, right, new = merge_line(at)
        fired.append((left, right, new))
        expected = trace.steps[step - 1]
        assert (left, right, new) == (expected.left, expected.right, expected.token)
        before, after = chip_rows(at)[-2:]
        # The pair is highlighted before the merge; the new token after it.
        assert [t for t, hl in before if hl] == [expected.left, expected.right]
        assert [t for t, hl in after if hl] == [expected.token]
        assert f"Merge #{expected.rank + 1} of the 12 learned" in " ".join(h.value for h in at.main.get("html"))
    assert fired == [("e", "a", "ea"), ("ea", "d", "ead"), ("r", "ead", "read"), ("e", "r", "er")]
    # The end: the 7 tokens of the curriculum and "no merge applies any more".
    assert texts(chip_rows(at)[-1]) == ["read", "er", "s", "h", "i", "p", "</w>"]
    success = " ".join(s.value for s in at.main.get("success"))
    assert "No merge applies any more" in success and "7 tokens" in success and "4 of the 12" in success
    table = at.dataframe[0].value
    assert table["new token"].tolist() == ["ea", "ead", "read", "er"]
    assert table["pair"].tolist() == ["e + a", "ea + d", "r + ead", "e + r"]
    assert table["merge #"].tolist() == [1, 2, 4, 5]
    assert at.button(key=ev.NEXT.skey).disabled
    assert at.query_params["step"] == "4"
    # Merge #3 (e + </w>) was skipped: the page says so at step 3.
    at.button(key=ev.PREV.skey).click().run()
    assert "Skipped since the last step" in main_text(at) and "#3" in main_text(at)


def test_newsroom_on_preset_a() -> None:
    at = run_page(PAGE, query_params={"tok": "news", "text": "newsroom", "step": "99"})
    assert at.slider(key=ev.STEP.skey).value == 3  # clamped to the last step
    assert texts(chip_rows(at)[-1]) == ["news", "r", "o", "o", "m"]
    assert at.dataframe[0].value["new token"].tolist() == ["ne", "new", "news"]


@pytest.mark.parametrize(
    ("index", "preset", "word", "final"),
    [
        (0, "news", "newsroom", ["news", "r", "o", "o", "m"]),
        (1, "readers", "readership", ["read", "er", "s", "h", "i", "p", "</w>"]),
        (2, "readers", "xylophone", ["x", "y", "l", "o", "p", "h", "o", "n", "e</w>"]),
    ],
)
def test_ready_examples(index: int, preset: str, word: str, final: list[str]) -> None:
    at = run_page(PAGE, query_params={"tok": "chai", "text": "chai", "step": "1"})
    at.button(key=ev.example_key(index).skey).click().run()
    assert_no_exception(at)
    assert at.selectbox(key=ev.TOK.skey).value == preset
    assert at.text_input(key=ev.TEXT.skey).value == word
    assert at.slider(key=ev.STEP.skey).value == 0
    at.button(key=ev.LAST.skey).click().run()
    assert texts(chip_rows(at)[-1]) == final


def test_hindi_example_replays_the_engine() -> None:
    at = run_page(PAGE)
    at.button(key=ev.example_key(3).skey).click().run()
    assert at.selectbox(key=ev.TOK.skey).value == "english-hindi-fair"
    trace = encode_trace(preset_tokenizer("english-hindi-fair"), "स्कूलों")
    assert int(at.slider(key=ev.STEP.skey).max) == len(trace.steps)
    at.button(key=ev.LAST.skey).click().run()
    assert texts(chip_rows(at)[-1]) == [visible_token(label) for label in trace.labels_at(len(trace.steps))[0]]
    # The letters the byte tokens make are written under them.
    assert parse_chips(html_blocks(at)[-1]).runs == ["स्कू"]
    html = " ".join(h.value for h in at.main.get("html"))
    assert "\ufffd" not in html and "tl-partial" in html


def test_a_sentence_marks_where_merges_fire() -> None:
    tok = preset_tokenizer("readers")
    trace = encode_trace(tok, "the reader reads")
    at = run_page(PAGE, query_params={"tok": "readers", "text": "the reader reads", "step": "1"})
    step = trace.steps[0]
    assert f"fired at {len(step.places)} place" in " ".join(h.value for h in at.main.get("html"))
    at.button(key=ev.LAST.skey).click().run()
    final = [label for piece in trace.labels_at(len(trace.steps)) for label in piece]
    assert texts(chip_rows(at)[-1]) == final and len(final) == 4


def test_changing_the_text_starts_again() -> None:
    at = run_page(PAGE, query_params={"tok": "readers", "text": "readership", "step": "3"})
    assert at.slider(key=ev.STEP.skey).value == 3
    at.text_input(key=ev.TEXT.skey).input("reader").run()
    assert at.slider(key=ev.STEP.skey).value == 0


def test_no_merge_fires() -> None:
    at = run_page(PAGE, query_params={"tok": "news", "text": "xyz"})
    assert "None of the 3 learned merges" in main_text(at)
    assert texts(chip_rows(at)[0]) == ["x", "y", "z"]
    assert not at.slider


AWKWARD = ["", "   ", "👩‍👩‍👧", "कि", "<img src=x onerror=alert(1)>", "bell\x07 \u202e", "شہر", "x" * 5000]


@pytest.mark.parametrize("preset", ["readers", "english-hindi"])
def test_awkward_input_never_crashes(preset: str) -> None:
    at = run_page(PAGE, query_params={"tok": preset})
    for text in AWKWARD:
        at.text_input(key=ev.TEXT.skey).input(text).run()
        assert_no_exception(at)
        html = " ".join(h.value for h in at.main.get("html"))
        assert "<img" not in html and "\ufffd" not in html and "\u202e" not in html
        if not text.strip():
            assert "Type a word or a sentence" in main_text(at)
        if len(text) > 200:
            assert "first 200 characters" in main_text(at)


def test_upload_choice_without_file() -> None:
    at = run_page(PAGE, query_params={"tok": "upload"})
    assert "Upload a model file" in main_text(at)
    assert not at.slider


def test_a_link_to_a_model_from_another_session_says_what_it_shows_instead() -> None:
    at = run_page(PAGE, query_params={"tok": "trained:Someone's model", "text": "chai"})
    notes = " ".join(i.value for i in at.info)
    assert "is not here" in notes and "readers and leaders" in notes


def test_the_replay_counts_symbols_when_there_is_an_end_of_word_marker() -> None:
    preset = lessons.presets()["readers"]
    tok = train(preset.corpus, preset.merges, **preset.config.to_dict()).tokenizer
    n_start = len(encode_trace(tok, "xyz").start[0])  # x y z and the marker </w>, which is no character
    at = run_page(PAGE, query_params={"tok": "readers", "text": "xyz"})
    assert f"its {n_start} starting symbols" in main_text(at)


def test_an_unseen_character_is_explained_with_the_byte_level_fix() -> None:
    at = run_page(PAGE, query_params={"tok": "chai", "text": "xyz"})
    note = " ".join(i.value for i in at.info)
    assert "never seen in training" in note and "A byte-level model never meets an unknown" in note


def test_a_token_opens_its_merge_tree() -> None:
    at = run_page(PAGE, query_params={"tok": "readers", "text": "readership", "step": "4"})
    at.session_state[ev.TREE_OPEN.skey] = True
    at.run()
    assert_no_exception(at)
    tree = next(h for h in html_blocks(at, 'class="tl-tree"'))
    parsed = parse_chips(tree)
    assert parsed.texts[0] == "read"  # the chosen token first, then what it was made of
    assert {"r", "e", "a", "d"} <= set(parsed.texts)
    trace = train(lessons.presets()["readers"].corpus, 12, unit="chars", split="whitespace", end_of_word="</w>")
    assert f"made by merge 4, when its pair was seen {trace.steps[3].count} times" in tree


def test_a_model_of_this_session_can_be_replayed() -> None:
    tok = train("chai chai chaiwala", 3, unit="chars", split="whitespace").tokenizer
    models = {"session:abc": {"title": "My text “chai”", "json": tokenizer_to_json(tok), "source": "test",
                              "counts": [3, 3, 3]}}
    at = run_page(PAGE, query_params={"tok": "session:abc", "text": "chai"}, session_state={"lab.session_models": models})
    at.button(key=ev.LAST.skey).click().run()
    assert texts(chip_rows(at)[-1]) == ["chai"]


# --- A production tokenizer, its merges from its ranks (issue 26) ------------------------------------------


def test_gpt4o_steps_through_a_hindi_word_to_its_librarys_ids() -> None:
    from family import merges, real

    tok = real.load("o200k_base")
    replay = merges.inside(tok).replay("घने कोहरे")
    at = run_page(PAGE, query_params={"tok": "o200k_base", "text": "घने कोहरे"})
    assert_no_exception(at)
    assert f"{len(replay.steps)} merges will fire" in main_text(at)
    at.button(key=ev.NEXT.skey).click().run()
    first = replay.steps[0]
    assert merge_line(at) == [first.left, first.right, first.token]
    assert f"Rank {first.rank:,} of {replay.n_learned:,} merges" in " ".join(html_blocks(at, 'class="tl-merge"'))
    at.button(key=ev.LAST.skey).click().run()
    final = [t for t in chip_rows(at)[-1]]
    assert [c for c, _ in final] == [visible_token(tok.token_bytes(i).decode()) for i in tok.encode("घने कोहरे")]
    assert "No merge applies any more" in main_text(at)


def test_a_text_the_library_cuts_otherwise_is_said_with_both_counts() -> None:
    """A letter added to Unicode in 2025: the replay (the lab's pre-split) and GPT-4o's library part
    (tests/test_inside.py); the page says so above the steps, with both counts. A usual text says nothing."""
    from family import merges, real
    from tests.test_inside import NEWER_THAN_THE_LIBRARY as text

    replay = merges.inside(real.load("o200k_base")).replay(text)
    assert not replay.agrees
    at = run_page(PAGE, query_params={"tok": "o200k_base", "text": text})
    assert_no_exception(at)
    said = [w.value for w in at.warning if "do not end in the ids" in w.value]
    assert len(said) == 1, [w.value for w in at.warning]
    assert f"here {len(replay.ids)} tokens, there {len(replay.library)}" in said[0]
    at = run_page(PAGE, query_params={"tok": "o200k_base", "text": "घने कोहरे"})
    assert not [w for w in at.warning if "do not end in the ids" in w.value]


def test_predict_first_asks_which_pair_merges_next_before_showing_it() -> None:
    at = run_page(PAGE, query_params={"tok": "o200k_base", "text": "चाय", "predict": "true", "step": "1"})
    assert_no_exception(at)
    radios = [r for r in at.radio if r.key and r.key.startswith("predict.encode:o200k_base:")]
    assert radios, main_text(at)
    assert not merge_line(at)  # the merge stays hidden until answered
    from family import merges, real
    from ui.questions import encode_question

    replay = merges.inside(real.load("o200k_base")).replay("चाय")
    question = encode_question("o200k_base", replay, 1, "चाय")
    radios[0].set_value(question.answer).run()
    at.button(key=f"predict.{question.key}.check").click().run()
    assert "Right!" in " ".join(h.value for h in at.html)
    assert merge_line(at)  # now shown


def test_predict_first_works_for_a_lab_model_too() -> None:
    at = run_page(PAGE, query_params={"tok": "readers", "text": "readership", "predict": "true", "step": "1"})
    assert_no_exception(at)
    assert any(r.key and r.key.startswith("predict.encode:readers:") for r in at.radio)
    assert "Step 1 of 4: predict first" in main_text(at)


def test_a_llama3_piece_bpe_never_reaches_is_found_whole() -> None:
    from family import real

    word = real.load("llama3").token_bytes(100769).decode()
    at = run_page(PAGE, query_params={"tok": "llama3", "text": word})
    assert_no_exception(at)
    at.button(key=ev.LAST.skey).click().run()
    assert "found whole, not by a merge" in " ".join(html_blocks(at, 'class="tl-merge"'))


def test_a_production_token_opens_its_tree_on_encode() -> None:
    at = run_page(PAGE, query_params={"tok": "cl100k_base", "text": " hello", "step": "5"},
                  session_state={ev.TREE_OPEN.skey: True})
    assert_no_exception(at)
    tree = html_blocks(at, 'class="tl-tree"')[0]
    assert "rank 24,748" in tree


def test_encode_in_hindi() -> None:
    """?lang=hi: the page's words in Hindi, its step controls too, and GPT-4o's 1,99,742 merges grouped the Indian
    way (the figures are the replay's own)."""
    from family import merges, real
    from i18n import number

    text = "घने कोहरे"
    tok = real.load("o200k_base")
    replay = merges.inside(tok).replay(text, limit=ev.MAX_CHARS)
    at = run_page(PAGE, query_params={"lang": "hi", "tok": "o200k_base", "text": text, "step": "1"})
    assert_no_exception(at)
    assert at.title[0].value == "क़दम-दर-क़दम एनकोड"
    assert at.text_input(key=ev.TEXT.skey).label == "एक शब्द या एक वाक्य"
    assert [at.button(key=k.skey).label for k in (ev.FIRST, ev.PREV, ev.NEXT, ev.LAST)] == [
        "शुरुआत", "पिछला", "अगला", "अंत"]
    assert at.slider(key=ev.STEP.skey).label == "क़दम"
    said = main_text(at)
    assert f"{len(replay.steps)} में से क़दम 1" in said
    assert f"टोकन आईडी 0 से {number(tok.vocab_size - 1, 'hi')} तक" in said
    merge = " ".join(plain(b) for b in html_blocks(at, 'class="tl-merge"'))
    rank = f"{number(replay.n_learned, 'hi')} मर्ज में से रैंक {replay.steps[0].rank}:"
    assert rank in merge and number(replay.n_learned, "hi").count(",") == 2  # 1,99,742: Indian grouping
    assert "इसलिए यह पहले मर्ज होती है" in merge
    assert "Step" not in said and "Rank" not in merge


def test_encode_in_hindi_from_the_start_to_the_end() -> None:
    """A lab preset in Hindi: the start's sentence with its plurals, then the end's."""
    at = run_page(PAGE, query_params={"lang": "hi"})
    said = main_text(at)
    assert "शुरुआत: 11 टोकन" in said and "हर शब्द के अंत में निशान `</w>` लगता है। 4 मर्ज होंगे।" in said
    at.button(key=ev.LAST.skey).click().run()
    said = main_text(at)
    assert "**बाद में: आख़िरी टोकन**" in said and "11 शुरुआती चिह्न से 7 टोकन" in said
