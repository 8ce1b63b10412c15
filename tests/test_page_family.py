"""The family (AppTest): BPE beside WordPiece merge by merge, Unigram's pieces and samples, a real tokenizer's
pipeline, a chat template's special tokens. Every widget is driven; every figure is computed by the engine."""

from __future__ import annotations

import inspect
import json
import unicodedata

import altair as alt
import pytest

import lessons
from family import real
from family.chat import mistral_chat
from family.pipeline import stages
from family.ruletext import fmt_score
from family.unigram import minimum_vocab, train_unigram
from family.wordpiece import train_by_rule
from tests.apptest_helpers import (
    assert_no_exception,
    chart_datasets,
    html_blocks,
    main_text,
    metrics,
    page_text,
    parse_chips,
    run_page,
)
from tests.lesson_data import LESSON4
from ui import charts, choices
from ui.display import visible_token
from views import family as fv

PAGE = "pages/11_The_family.py"
CHAI = lessons.presets()["chai"]
FAMILY = lessons.data("family")


def chai_traces(merges: int = CHAI.merges):
    kw = CHAI.train_kwargs()
    return train_by_rule(CHAI.corpus, merges, rule="count", **kw), train_by_rule(CHAI.corpus, merges, rule="score", **kw)


def merge_lines(at) -> list[list[str]]:
    """The "left + right → new" lines, BPE's first."""
    return [parse_chips(body).texts for body in html_blocks(at, 'class="tl-merge"')]


def chart_rows(at) -> list:
    """Each chart's records (BPE's first), as pandas frames."""
    out = []
    for chart in at.get("vega_lite_chart"):
        out.append(next(f for f in chart_datasets(chart).values() if "status" in f.columns))
    return out


def chip_rows(at, marker: str = "") -> list[list[str]]:
    """Every row of chips (each ``tl-chips`` list) of the main area, in order; only in blocks holding ``marker``."""
    rows = []
    for body in html_blocks(at):
        if marker in body:
            rows += [parse_chips('<div class="tl-chips"' + part).texts for part in body.split('<div class="tl-chips"')[1:]]
    return rows


def callouts(at) -> list[str]:
    return [h.value for h in at.main.get("html") if "tl-note" in h.value]


def corpus_rows(at) -> list[list[str]]:
    """Every chip row of the corpus views (word rows), BPE's rows first."""
    out = []
    for body in html_blocks(at, 'class="tl-words"'):
        parsed = parse_chips(body)
        out.append(parsed.texts)
    return out


# -- part 1: BPE vs WordPiece ---------------------------------------------------------------------------
def test_opens_on_the_chai_stall_before_any_merge() -> None:
    at = run_page(PAGE)
    assert at.segmented_control(key=fv.PART.skey).value == "merges"
    assert at.selectbox(key=fv.PRESET.skey).value == "chai"
    assert at.number_input(key=fv.MERGES.skey).value == CHAI.merges
    assert at.slider(key=fv.STEP.skey).value == 0
    assert "Before merge 1 of 7" in main_text(at)
    bpe, wp = chart_rows(at)
    # Step 0 names no winner: the top pairs of each rule are marked as the top value.
    assert bpe["status"][0] == "top value (before merge 1)" and bpe["pair"][0] == "h + a" and bpe["count"][0] == 11
    assert list(wp["pair"][:2]) == ["p + o", "m + o"] and set(wp["status"][:2]) == {"top value (before merge 1)"}
    assert merge_lines(at) == []
    # Both corpora start as single characters.
    assert corpus_rows(at)[0][:4] == ["c", "h", "a", "i"]
    assert "Gage" in main_text(at) and "Sennrich" in main_text(at) and "Wang" in main_text(at)


def test_next_shows_both_picks_with_the_numbers_the_engine_computed() -> None:
    bpe, wp = chai_traces()
    at = run_page(PAGE)
    at.button(key=fv.STEPPER.key("next").skey).click().run()
    assert_no_exception(at)
    assert at.slider(key=fv.STEP.skey).value == 1 and at.query_params["step"] == "1"
    assert merge_lines(at) == [["h", "a", "ha"], ["p", "o", "po"]]
    b, w = bpe.steps[0].winner, wp.steps[0].winner
    # The curriculum's first merge, h + a seen 11 times; its score and WordPiece's, from the engine's counts.
    assert (b.count, b.left_count, b.right_count) == (11, 11, 21)
    why_bpe, why_wp = callouts(at)
    assert f"{b.count} ÷ ({b.left_count} × {b.right_count}) = {float(b.score):.3f}" in why_bpe
    assert f"{w.count} ÷ ({w.left_count} × {w.right_count}) = {float(w.score):.3f}" in why_wp
    assert "WordPiece would pick p + o" in why_bpe and "Every p is followed by o" in why_wp
    assert "Tie: p + o and m + o both score 0.200" in why_wp and "“poha”" in why_wp
    charts_ = chart_rows(at)
    statuses = [dict(zip(frame["pair"], frame["status"])) for frame in charts_]
    assert statuses[0]["h + a"] == "BPE merges it" and statuses[0]["p + o"] == "WordPiece would merge it"
    assert statuses[1]["p + o"] == "WordPiece merges it" and statuses[1]["h + a"] == "BPE would merge it"
    assert statuses[1]["m + o"] == charts.TIE_LOST
    assert list(charts_[1]["score"][:2]) == [pytest.approx(0.2), pytest.approx(0.2)]
    # The corpus after merge 1: BPE's ha, WordPiece's po.
    bpe_rows, wp_rows = corpus_rows(at)
    assert bpe_rows[:3] == ["c", "ha", "i"] and "po" in wp_rows and "ha" not in wp_rows
    sequences = next(df.value for df in at.dataframe if "BPE merges" in df.value.columns)
    assert sequences["BPE merges"].tolist() == ["h + a → ha"] and sequences["WordPiece merges"].tolist() == ["p + o → po"]


def test_last_step_lists_both_sequences_and_the_curriculum_merges() -> None:
    bpe, wp = chai_traces()
    at = run_page(PAGE, query_params={"step": "2"})
    at.button(key=fv.STEPPER.key("last").skey).click().run()
    assert at.slider(key=fv.STEP.skey).value == 7 and at.button(key=fv.STEPPER.key("next").skey).disabled
    table = next(df.value for df in at.dataframe if "BPE merges" in df.value.columns)
    # Lesson 2's example D, merge by merge (the BPE side), and WordPiece's own sequence.
    assert table["BPE merges"].tolist() == ["h + a → ha", "c + ha → cha", "cha + i → chai", "p + o → po",
                                            "po + ha → poha", "w + a → wa", "wa + l → wal"]
    assert table["count"].tolist() == [11, 7, 5, 4, 4, 3, 3]
    assert table["WordPiece merges"].tolist() == [f"{s.winner.left} + {s.winner.right} → {s.token}" for s in wp.steps]
    assert table["score"].tolist() == [fmt_score(float(s.winner.score)) for s in wp.steps]
    # The whole corpus, tokens after the last merge, each rule: what the engine counts.
    text = main_text(at)
    for trace in (bpe, wp):
        tokens = sum(n * len(trace.tokenizer.segment(word)) for word, n in trace.words)
        assert f"{trace.name}: the whole corpus is {tokens} tokens" in text
    at.button(key=fv.STEPPER.key("first").skey).click().run()
    assert at.slider(key=fv.STEP.skey).value == 0
    at.slider(key=fv.STEP.skey).set_value(4).run()
    assert merge_lines(at)[0] == ["p", "o", "po"]
    at.button(key=fv.STEPPER.key("prev").skey).click().run()
    assert at.slider(key=fv.STEP.skey).value == 3


def test_the_numbers_expander_the_hashes_toggle_and_autoplay() -> None:
    at = run_page(PAGE, query_params={"step": "1"})
    at.session_state[fv.NUMBERS_OPEN.skey] = True  # as a click on the expander does (it reruns the page)
    at.run()
    frames = [df.value for df in at.dataframe if "count(a)" in df.value.columns]
    assert len(frames) == 2
    bpe_numbers = frames[0].set_index("pair")
    assert tuple(bpe_numbers.loc["h + a", ["count(a b)", "count(a)", "count(b)"]]) == (11, 11, 21)
    assert bpe_numbers.loc["h + a", "score"] == pytest.approx(1 / 21)
    at.toggle(key=fv.HASHES.skey).set_value(True).run()
    assert at.query_params["hashes"] == "1"
    wp_rows = corpus_rows(at)[1]
    assert "##h" in wp_rows and wp_rows[0] == "c"
    assert "##" not in "".join(corpus_rows(at)[0])
    at.toggle(key=fv.STEPPER.autoplay_key).set_value(True).run()
    assert_no_exception(at)


def test_the_parts_switch_and_keep_their_settings() -> None:
    at = run_page(PAGE, query_params={"preset": "news", "step": "2"})
    at.segmented_control(key=fv.PART.skey).set_value("special").run()
    assert at.query_params["part"] == "special" and "Added by the template" in metrics(at)
    at.segmented_control(key=fv.PART.skey).set_value("merges").run()
    assert at.selectbox(key=fv.PRESET.skey).value == "news" and at.slider(key=fv.STEP.skey).value == 2
    at = run_page(PAGE, query_params={"part": "nonsense"})
    assert at.segmented_control(key=fv.PART.skey).value == "merges"


def test_a_link_a_preset_change_and_the_merge_budget() -> None:
    at = run_page(PAGE, query_params={"preset": "news", "step": "99"})
    assert at.number_input(key=fv.MERGES.skey).value == 3
    assert at.slider(key=fv.STEP.skey).value == 3  # clamped to the last merge
    at.selectbox(key=fv.PRESET.skey).set_value("readers").run()
    assert at.slider(key=fv.STEP.skey).value == 0
    assert at.number_input(key=fv.MERGES.skey).value == lessons.presets()["readers"].merges
    at.number_input(key=fv.MERGES.skey).set_value(5).run()
    assert at.query_params["merges"] == "5" and at.query_params["preset"] == "readers"
    assert at.slider(key=fv.STEP.skey).max == 5
    at.number_input(key=fv.MERGES.skey).set_value(0).run()
    assert "0 merges" in main_text(at)


def test_byte_level_preset_with_hindi() -> None:
    at = run_page(PAGE, query_params={"preset": "english-hindi", "step": "1"})
    assert_no_exception(at)
    assert "8 bytes · regex" in main_text(at)  # the settings line (Markdown-escaped: UTF\\-8)
    bpe, wp = (train_by_rule(p.corpus, 1, rule=r, **p.train_kwargs())
               for p, r in ((lessons.presets()["english-hindi"], "count"), (lessons.presets()["english-hindi"], "score")))
    assert merge_lines(at)[0][2] == bpe.steps[0].token and merge_lines(at)[1][2] == wp.steps[0].token


def test_own_text_and_bad_input() -> None:
    at = run_page(PAGE, query_params={"preset": "own"})
    assert "Type or paste some text" in main_text(at)
    at.text_area(key=fv.TEXT.skey).input("aaab aab ab ab").run()
    assert_no_exception(at)
    assert at.slider(key=fv.STEP.skey).max == 3  # aa+b... every word one token after three merges
    tricky = "👩\u200d👩\u200d👧 chai क्षि " + "9" * 500 + " e\u0301 <b>x</b>"
    at.text_area(key=fv.TEXT.skey).input(tricky).run()
    assert_no_exception(at)
    at.text_area(key=fv.TEXT.skey).input("chai " * 5_000).run()  # 25,000 characters
    assert "uses the first 20,000" in main_text(at)
    at.text_area(key=fv.TEXT.skey).input("x").run()
    assert "no pair to merge" in main_text(at)


# -- part 2: Unigram -------------------------------------------------------------------------------------
def test_unigram_pieces_nbest_and_samples() -> None:
    at = run_page(PAGE, query_params={"part": "unigram"})
    vocab = fv.vocab_default("chai")
    assert at.number_input(key=fv.VOCAB.skey).value == vocab
    model = train_unigram(CHAI.corpus, vocab)
    m = metrics(at)
    assert m["Pieces asked for"] == str(vocab) and m["Pieces kept"] == str(model.vocab_size)
    table = next(df.value for df in at.dataframe if "probability" in df.value.columns)
    assert table["piece"].tolist() == [p.piece for p in model.by_score()]
    assert table["score"].tolist() == sorted(table["score"].tolist(), reverse=True)
    # The n-best list for the preset's first example, best first, each row the engine's pieces.
    word = CHAI.examples[0]
    assert at.text_input(key=fv.WORD.skey).value == word
    best = [list(s.pieces) for s in model.nbest(word, fv.NBEST)]
    assert chip_rows(at, 'aria-label="segmentation 1') == best
    samples = [list(s.pieces) for s in model.sample(word, fv.SAMPLES, alpha=0.1, seed=1)]
    assert chip_rows(at, 'aria-label="draw 1') == samples
    assert all("".join(r).replace("▁", " ").strip() == word for r in best + samples)
    # Sample again: the next seed, in the link.
    at.button(key=fv.AGAIN.skey).click().run()
    assert at.number_input(key=fv.SEED.skey).value == 2 and at.query_params["seed"] == "2"
    at.select_slider(key=fv.ALPHA.skey).set_value(1.0).run()
    assert at.query_params["alpha"] == "1.0"
    at.number_input(key=fv.SEED.skey).set_value(7).run()
    again = [list(s.pieces) for s in model.sample(word, fv.SAMPLES, alpha=1.0, seed=7)]
    assert chip_rows(at, 'aria-label="draw 1') == again and at.query_params["seed"] == "7"
    at.button(key=fv.word_example_key(1)).click().run()
    assert at.text_input(key=fv.WORD.skey).value == CHAI.examples[1]
    at.text_input(key=fv.WORD.skey).input("xyz chai").run()
    assert "never had" in main_text(at)
    chips = parse_chips(html_blocks(at, 'aria-label="segmentation 1')[0]).chips  # every n-best row
    unknown = [c.text for c in chips if "tl-unknown" in c.classes]
    assert unknown and set(unknown) == {"xyz"}


def test_unigram_vocabulary_too_small_says_what_to_do() -> None:
    least = minimum_vocab(CHAI.corpus)
    at = run_page(PAGE, query_params={"part": "unigram", "vocab": "5"})
    assert f"Ask for at least {least}" in page_text(at)
    at.button(key=fv.USE_MINIMUM.skey).click().run()
    assert at.number_input(key=fv.VOCAB.skey).value == least
    assert metrics(at)["Pieces kept"] == str(least)
    at = run_page(PAGE, query_params={"part": "unigram", "preset": "english-hindi-fair"})
    assert_no_exception(at)
    assert at.text_input(key=fv.WORD.skey).value == LESSON4["test_en"]


# -- part 3: the pipeline --------------------------------------------------------------------------------
def test_pipeline_for_gpt4_on_the_hindi_sentence() -> None:
    at = run_page(PAGE, query_params={"part": "pipeline"})
    assert at.selectbox(key=choices.one_key(fv.PAGE).skey).value == "cl100k_base"
    tok = real.load("cl100k_base")
    s = stages(tok, LESSON4["test_hi"])
    blocks = [parse_chips(b).texts for b in html_blocks(at)]
    pieces, tokens, raw = blocks[:3]
    assert pieces == [visible_token(p) for p in s.pieces]  # a vowel sign cut off its letter is drawn on ◌
    assert "".join(s.pieces) == LESSON4["test_hi"]
    assert len(tokens) == len(tok.encode(LESSON4["test_hi"])) == 47  # the curriculum's figure for GPT-4
    assert raw == [tok.raw_piece(i) for i in s.ids] and any(r.startswith("Ġ") for r in raw)
    ids = next(c.value for c in at.main.get("code"))
    assert ids == ", ".join(str(i) for i in tok.encode(LESSON4["test_hi"]))
    assert "Ids: 47 tokens" in main_text(at) and "Nothing changed" in main_text(at)
    marked = sum(1 for piece in s.pieces if unicodedata.category(piece[0]).startswith("M"))
    assert marked and f"{marked} pieces here start with a combining mark" in main_text(at)


def test_pipeline_qwen_nfc_sentencepiece_and_examples() -> None:
    at = run_page(PAGE, query_params={"part": "pipeline", "tok": "qwen3"})
    example = next(i for i, e in enumerate(lessons.examples("family")) if "\u095c" in e["text"])
    at.button(key=fv.ptext_example_key(example)).click().run()
    assert "U+095C" in main_text(at) and "U+0921 U+093C" in main_text(at)
    at.selectbox(key=choices.one_key(fv.PAGE).skey).set_value("mistral-sp-v3").run()
    assert "segments the whole normalised text" in main_text(at)
    assert any("▁" in t for b in html_blocks(at) for t in parse_chips(b).texts)
    at.text_area(key=fv.PTEXT.skey).input("").run()
    assert "Type some text" in main_text(at)
    at.text_area(key=fv.PTEXT.skey).input("x" * 3_000).run()
    assert "first 2,000 characters" in main_text(at)


# -- part 4: special tokens ------------------------------------------------------------------------------
def test_special_tokens_of_the_chat_and_endoftext() -> None:
    at = run_page(PAGE, query_params={"part": "special"})
    messages = [(m["role"], m["content"]) for m in FAMILY["chat"]]
    chat = mistral_chat(messages)
    m = metrics(at)
    assert m["Tokens the model reads"] == str(chat.total)
    assert m["The messages alone"] == str(sum(chat.content))
    assert m["Added by the template"] == str(chat.added) == str(1 + 2 * 2 + 1)
    chips = parse_chips(html_blocks(at)[0]).chips
    assert [c.text for c in chips if c.highlighted] == ["<s>", "[INST]", "[/INST]", "</s>", "[INST]", "[/INST]"]
    assert "Mistral instruct v3" in main_text(at)
    # <|endoftext|> typed: GPT-4 cuts it into ordinary tokens; the special token is one id.
    typed, special = (parse_chips(b) for b in html_blocks(at)[1:3])
    tok = real.load("cl100k_base")
    assert typed.texts == [t.label for t in tok.encode_tokens("<|endoftext|>")] and len(typed.texts) == 7
    assert special.texts == ["<|endoftext|>"] and special.chips[0].id == "100257"
    at.selectbox(key=fv.STOK.skey).set_value("llama3").run()
    assert at.selectbox(key=fv.SPECIAL.skey).value == next(iter(real.load("llama3").special_tokens))
    at.selectbox(key=fv.SPECIAL.skey).set_value("<|eot_id|>").run()
    assert parse_chips(html_blocks(at)[2]).texts == ["<|eot_id|>"]
    assert at.query_params["stok"] == "llama3"


def test_editing_the_chat() -> None:
    at = run_page(PAGE, query_params={"part": "special"})
    at.text_input(key=fv.MESSAGES[1].skey).input("Bees rupaye.").run()
    assert at.query_params["m1"] == "Bees rupaye."
    chat = mistral_chat([(m["role"], m["content"] if i != 1 else "Bees rupaye.") for i, m in enumerate(FAMILY["chat"])])
    assert metrics(at)["Tokens the model reads"] == str(chat.total)
    at.text_input(key=fv.MESSAGES[0].skey).input(" ").run()
    assert "Write something in every message" in main_text(at)
    at.button(key=fv.CHAT_RESET.skey).click().run()
    assert at.text_input(key=fv.MESSAGES[0].skey).value == FAMILY["chat"][0]["content"]


# -- every part in large type; charts ------------------------------------------------------------------
@pytest.mark.parametrize("part", fv.PARTS)
def test_large_type(part: str) -> None:
    at = run_page(PAGE, query_params={"part": part, "large": "1", "step": "1"})
    assert_no_exception(at)
    if part == "merges":
        assert "Gage" not in main_text(at)  # the long notes stay out of a projected screen
        assert len(chart_rows(at)[1]) == fv.LARGE_TOP_PAIRS + 1  # and the other rule's pick, further down


@pytest.mark.parametrize("large", [False, True])
def test_chart_specs_are_valid_and_readable(large: bool) -> None:
    bpe, wp = chai_traces()
    for trace in (bpe, wp):
        rows = fv.pair_rows(trace.steps[0], trace.rule, reveal=True, limit=fv.TOP_PAIRS)
        spec = fv.chart_spec(fv.rows_key(rows), trace.rule, large)
        alt.Chart.from_dict(spec)
        assert spec["config"]["axis"]["labelFontSize"] == (20 if large else 13)
        records = spec["datasets"][fv.CHART_DATA]
        top = max(r["count" if trace.rule == "count" else "score"] for r in records)
        assert spec["layer"][0]["encoding"]["x"]["scale"]["domain"][1] > top
    assert json.dumps(spec)  # plain JSON: cached and sent as is


def test_the_pipeline_keeps_provenance_in_the_about_box() -> None:
    """The pipeline part names the real tokenizer plainly; where its data comes from is in the About box."""
    at = run_page(PAGE, query_params={"part": "pipeline"}, session_state={fv.ABOUT_OPEN.skey: True})
    assert_no_exception(at)
    (about,) = [e for e in at.main.expander if e.label.startswith("About these tokenizers")]
    assert "sha256" in " ".join(str(m.value) for m in about.markdown).replace("\\", "")


def test_the_per_step_caches_are_keyed_by_the_run_itself() -> None:
    """The per-step caches once took a caller-made run key and skipped the trace (``_trace``): a key that did not
    match its trace returned another run's text. They take the run (ui.training.Run: corpus, merges, settings) now,
    so two runs that differ only in their text can never share an entry."""
    for cached in (fv.why, fv.corpus_html, fv.corpus_tokens):
        assert not [name for name in inspect.signature(cached).parameters if name.startswith("_")], cached
    first, second = fv.rules_run("aaab aab ab ab", 3, "own"), fv.rules_run("xxxy xxy xy xy", 3, "own")
    assert fv.why(first, "count", 1) != fv.why(second, "count", 1)
    assert fv.why(second, "count", 1).startswith("x + y is seen 4 times")  # xy is in all four words
    own = fv.settings_for("own")
    for run, other in ((first, second), (second, first)):
        for rule in ("count", "score"):
            trace = train_by_rule(run.corpus, run.merges, rule=rule, **own)
            tok = trace.tokenizer
            assert fv.corpus_tokens(run, rule, 1) == sum(n * len(tok.segment(w, 1)) for w, n in trace.words)
            assert fv.corpus_html(run, rule, 2, 5) != fv.corpus_html(other, rule, 2, 5)



# --- In Hindi (issue 28) ----------------------------------------------------------------------------------------


def test_family_in_hindi() -> None:
    """?lang=hi: every part's headings, controls, sentences, charts and metrics in Hindi, while the address keeps the
    parts' English names; the page's content (family.json) has its Hindi beside the English; the figures are the
    engine's (family.wordpiece, family.chat), numbers grouped the Indian way."""
    from i18n import using

    at = run_page(PAGE, query_params={"lang": "hi", "step": "1"})
    assert_no_exception(at)
    assert at.title[0].value == "परिवार"
    part = at.segmented_control(key=fv.PART.skey)
    assert part.options == ["BPE बनाम WordPiece", "Unigram", "पाइपलाइन", "ख़ास टोकन"] and part.value == "merges"
    assert at.selectbox(key=fv.PRESET.skey).label == "कॉर्पस" and at.number_input(key=fv.MERGES.skey).label == "मर्ज"
    assert at.button(key=fv.STEPPER.key("next").skey).label == "अगला"
    text = main_text(at)
    assert f"#### {CHAI.merges} में से मर्ज 1" in text and "BPE सबसे ज़्यादा बार दिखी जोड़ी मर्ज करता है" in text
    bpe, wp = chai_traces()
    with using("hi"):
        why = fv.why(fv.rules_run(CHAI.corpus, CHAI.merges, "chai"), "count", 1)
    assert why.startswith(f"{bpe.steps[0].winner.left} + {bpe.steps[0].winner.right} ") and "दिखी" in why
    assert any(why.split("\n")[0][:40] in c for c in callouts(at))
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["layer"][0]["encoding"]["x"]["title"] == "कितनी बार दिखी: count(a b)"
    assert spec["config"]["locale"]["number"]["grouping"][:2] == [3, 2]
    assert "BPE इसे मर्ज करता है" in set(chart_rows(at)[0]["status"])
    # the special tokens: the chat's counts from family.chat, the special token's id grouped the Indian way
    at = run_page(PAGE, query_params={"lang": "hi", "part": "special"})
    assert_no_exception(at)
    c = mistral_chat(fv.settings.CHAT)
    shown = metrics(at)
    assert shown["मॉडल जितने टोकन पढ़ता है"] == str(c.total) and shown["टेम्पलेट ने जोड़े"] == str(c.added)
    assert shown["प्रति संदेश"] == f"{c.per_message:.1f}"
    endoftext = real.load("cl100k_base").encode_special("<|endoftext|>")[0]
    assert endoftext == 100_257 and "आईडी 1,00,257" in main_text(at)  # 100,257 in English
    assert at.text_input(key=fv.MESSAGES[0].skey).label == "यूज़र का संदेश"
    # Unigram and the pipeline
    at.segmented_control(key=fv.PART.skey).set_value("unigram").run()
    assert at.query_params["part"] == "unigram"  # the address keeps the part's English name
    assert "माँगे गए टुकड़े" in metrics(at) and "**टुकड़े, सबसे संभावित पहले**" in main_text(at)
    assert at.button(key=fv.AGAIN.skey).label == "फिर से निकालिए"
    at = run_page(PAGE, query_params={"lang": "hi", "part": "pipeline"})
    assert_no_exception(at)
    assert "#### 1 · नॉर्मलाइज़" in main_text(at) and "#### 2 · प्री-स्प्लिट" in main_text(at)
    assert "कोई नॉर्मलाइज़ेशन नहीं" in main_text(at) and "टेक्स्ट ठीक वैसा पढ़ता है" in main_text(at)
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert "id 100,257" not in main_text(at) and "#### 1 · Normalise" in main_text(at)
