"""The English vs Hindi page (AppTest): lesson 4's table through the page, the prediction before the curves,
the curves over every share, merges by script, the compression curve and its cursor, the parallel set,
your own texts."""

from __future__ import annotations

import json
import re

import altair as alt
import pytest

import lessons
from analyses.experiment import SCRIPTS, compression_curve, merges_by_script, mix, parallel_cost, split_by_script
from family import real
from lessons import experiment as plain_experiment
from tests.apptest_helpers import (
    assert_no_exception,
    button,
    chart_datasets,
    html_blocks,
    main_text,
    metrics,
    parse_chips,
    run_page,
)
from tests.lesson_data import LESSON4
from tests.reference_oracle import reference_token_bytes
from tokenizer import train
from tokenizer.reference import train_reference
from ui import experiment, predict, questions
from views import english_hindi as sv

PAGE = "pages/6_English_vs_Hindi.py"
SETTINGS = lessons.presets()["english-hindi"].train_kwargs()
PAIRS = [(p["en"], p["hi"]) for p in lessons.data("parallel_en_hi")["pairs"]]
EXPECTED = {row["k"]: (row["en_tokens"], row["hi_tokens"], row["hi_tokens_per_word"]) for row in LESSON4["expected"]}


def lab_tokenizer(k: int, budget: int, english: str = LESSON4["english_block"], hindi: str = LESSON4["hindi_block"]):
    """The tokenizer the page should be showing, trained here with exactly that budget."""
    return train(mix([(english, 10), (hindi, k)]), budget, **SETTINGS).tokenizer


def textbook_tokens(k: int, budget: int, text: str) -> tuple[bytes, ...]:
    """``text``'s tokens from an independent source: the textbook trainer (tests/reference_oracle.py) on the
    lesson's mix written out by hand, English ten times, then the Hindi ``k`` times."""
    corpus = LESSON4["english_block"] * 10 + LESSON4["hindi_block"] * k
    return reference_token_bytes(corpus, budget, text, **SETTINGS)


def chips(at, label: str):
    """The chips of the block whose aria label starts with ``label``."""
    blocks = [b for b in html_blocks(at) if f'aria-label="{label}:' in b]
    assert blocks, f"no chips labelled {label}"
    return parse_chips(blocks[0]).chips


def chart(at, key: str) -> dict[str, list[dict]]:
    """A chart's named datasets, as records."""
    (found,) = [c for c in at.get("vega_lite_chart") if key in str(c.proto.id)] or [None]
    assert found is not None, key
    return {name: frame.to_dict("records") for name, frame in chart_datasets(found).items()}


def charts_by_dataset(at) -> list[dict[str, list[dict]]]:
    return [{name: frame.to_dict("records") for name, frame in chart_datasets(c).items()}
            for c in at.get("vega_lite_chart")]


def revealed(query: dict | None = None):
    at = run_page(PAGE, query_params=query)
    if not at.slider:  # still asking: skip the prediction
        button(at, "Skip, show me").click().run()
    assert_no_exception(at)
    return at


def table(at, column: str):
    return next(df.value for df in at.dataframe if column in df.value.columns)


# -- opening: the lesson's first row, then a prediction ---------------------------------------------------
def test_opens_on_the_lessons_first_row_and_asks_before_showing_the_curves() -> None:
    at = run_page(PAGE)
    m = metrics(at)
    assert (m["English tokens"], m["Hindi tokens"]) == ("13", "69")
    assert m["Tokens per word: English · Hindi"].endswith("· 6.9")
    assert len(chips(at, "English tokens")) == 13 and len(chips(at, "Hindi tokens")) == 69
    # Nothing that gives the answer away: no sliders, no charts, no table.
    assert not at.slider and not at.get("vega_lite_chart") and not at.dataframe
    text = main_text(at)
    assert "Give Hindi an equal share of the training text" in text and "And the English test sentence" in text
    assert [r.options for r in at.radio] == [["fewer", "more", "the same"]] * 2


def test_the_predictions_are_lesson_4s_exercises_judged_by_the_engine_and_reveal_the_lab() -> None:
    """The page asks lesson 4's own exercises 2 and 3 (not a second copy of them): an answer here is the lesson's."""
    hindi_q, english_q = questions.experiment_questions()
    assert (hindi_q.key, english_q.key) == ("lesson:english-vs-hindi:fair-share-hindi",
                                            "lesson:english-vs-hindi:fair-share-english")
    at = run_page(PAGE)
    at.radio(key=predict.input_key(hindi_q)).set_value("fewer")
    button(at, "Check").click().run()
    assert not at.slider  # one answer is not enough
    at.radio(key=predict.input_key(english_q)).set_value("fewer")
    button(at, "Check").click().run()
    assert_no_exception(at)
    notes = " ".join(h.value for h in at.main.get("html") if "tl-note" in h.value)
    assert "Right! You predicted fewer." in notes and "69 tokens before, 31 after." in notes
    assert "You predicted fewer; the lab computed more." in notes and "13 tokens before, 16 after." in notes
    assert "Hindi now wins" in main_text(at) and "came out of English" in main_text(at)  # where the merges went
    assert [s.key for s in at.slider] == [sv.COPIES.skey, sv.BUDGET.skey, sv.STEP.skey]
    assert at.session_state[predict.STORE][hindi_q.key]["right"] is True
    assert at.session_state[predict.STORE][hindi_q.key]["scope"] == "english-vs-hindi"  # lesson 4's score


def test_the_questions_answers_are_computed() -> None:
    hindi_q, english_q = questions.direction_questions()  # still built: a saved progress file may hold them
    assert (hindi_q.answer, english_q.answer) == ("goes down", "goes up")
    assert "31" in hindi_q.explain and "16" in english_q.explain
    assert [q.answer for q in questions.experiment_questions()] == ["fewer", "more"]


# -- the lesson's table, through the page -------------------------------------------------------------------
def test_the_lessons_table_through_the_page() -> None:
    at = revealed()
    rows = table(at, "Hindi tokens per word").set_index("Hindi copies k")
    for k, (en, hi, per_word) in EXPECTED.items():
        assert (rows.loc[k, "English tokens"], rows.loc[k, "Hindi tokens"], rows.loc[k, "Hindi tokens per word"]) == (
            en, hi, per_word)
    assert "the same figures lesson 4 gives" in main_text(at)


@pytest.mark.parametrize("k", sorted(EXPECTED))
def test_the_sliders_reproduce_each_row(k: int) -> None:
    at = revealed()
    at.slider(key=sv.COPIES.skey).set_value(k).run()
    en, hi, per_word = EXPECTED[k]
    m = metrics(at)
    assert (m["English tokens"], m["Hindi tokens"]) == (str(en), str(hi))
    assert m["Tokens per word: English · Hindi"].endswith(f"· {per_word}")
    assert (len(chips(at, "English tokens")), len(chips(at, "Hindi tokens"))) == (en, hi)
    assert ("k" in at.query_params) == (k != 1)  # the link keeps a share other than the lesson's first


# -- every share ------------------------------------------------------------------------------------------
def test_the_share_chart_is_the_engines_sweep_with_the_current_share_marked() -> None:
    at = revealed({"k": "4", "budget": "60"})
    shares, scripts = charts_by_dataset(at)[:2]
    points = {(r["copies"], r["language"]): r for r in shares["points"]}
    assert {c for c, _ in points} == set(range(plain_experiment.MAX_COPIES + 1))
    for k in (0, 1, 4, 10, 20):
        tok = lab_tokenizer(k, 60)
        assert points[(k, "English")]["tokens"] == len(tok.encode(LESSON4["test_en"]))
        assert points[(k, "Hindi")]["tokens"] == len(tok.encode(LESSON4["test_hi"]))
        assert points[(k, "Hindi")]["per_word"] == pytest.approx(len(tok.encode(LESSON4["test_hi"])) / 10)
    assert {r["copies"] for r in shares["cursor"]} == {4}
    assert sorted(r["above"] for r in shares["cursor"]) == [False, True]
    # Merges by script at every share: they add up to the budget.
    totals: dict[int, int] = {}
    for r in scripts["points"]:
        totals[r["copies"]] = totals.get(r["copies"], 0) + r["merges"]
    assert set(totals.values()) == {60}
    assert scripts["cursor"] == [{"copies": 4, "total": 60}]


def test_merges_by_script_add_up_to_the_budget_and_show_which() -> None:
    for budget in (1, 100, 180):
        at = revealed({"k": "10", "budget": str(budget)})
        groups = merges_by_script(lab_tokenizer(10, budget))
        line = next(m.value for m in at.main.get("markdown") if "Devanagari ·" in m.value)
        shown = {script: int(n.replace(",", "")) for n, script in re.findall(r"\*\*([\d,]+)\*\* (\w+)", line)}
        assert list(shown) == ["Latin", "Devanagari", "mixed", "other"]
        assert shown == {script: len(ids) for script, ids in groups.items()}
        assert line.endswith({1: " (of 1 merge)", 100: " (of 100 merges)", 180: " (of 180 merges)"}[budget])
        assert sum(len(ids) for ids in groups.values()) == budget
        tok = lab_tokenizer(10, budget)
        for script in SCRIPTS:  # which tokens: one chip each, in the order learned
            if groups[script]:
                shown = chips(at, f"{script} tokens")
                ids = [int(re.search(r", id (\d+)\.", c.title).group(1)) for c in shown]
                assert ids == list(groups[script])
                assert all(c.title.endswith(f"merge {i - 255}") for i, c in zip(ids, shown))
            else:
                assert not [b for b in html_blocks(at) if f'aria-label="{script} tokens:' in b]
        assert tok.vocab_size == 256 + budget


# -- the compression curve ------------------------------------------------------------------------------------
def test_the_curve_ends_at_the_encoding_and_never_rises() -> None:
    at = revealed({"k": "1", "budget": "100"})
    data = charts_by_dataset(at)[2]
    tok = lab_tokenizer(1, 100)
    for language, text in (("English", LESSON4["test_en"]), ("Hindi", LESSON4["test_hi"])):
        curve = [r["tokens"] for r in sorted((r for r in data["curve"] if r["language"] == language),
                                             key=lambda r: r["merge"])]
        assert len(curve) == 101
        assert curve == list(compression_curve(tok, text))
        assert curve[0] == len(text.encode("utf-8")) and curve[-1] == len(tok.encode(text))
        assert all(a >= b for a, b in zip(curve, curve[1:]))
    # The cursor starts at the end of the budget.
    assert {r["merge"] for r in data["cursor"]} == {100}
    assert {r["language"]: r["tokens"] for r in data["cursor"]} == {
        "English": len(textbook_tokens(1, 100, LESSON4["test_en"])),
        "Hindi": len(textbook_tokens(1, 100, LESSON4["test_hi"])),
    }


def test_dragging_the_cursor_moves_the_mark_and_the_chips() -> None:
    at = revealed()
    at.slider(key=sv.STEP.skey).set_value(40).run()
    data = charts_by_dataset(at)[2]
    tok = lab_tokenizer(1, 40)
    counts = {"English": len(tok.encode(LESSON4["test_en"])), "Hindi": len(tok.encode(LESSON4["test_hi"]))}
    assert {r["language"]: (r["merge"], r["tokens"]) for r in data["cursor"]} == {
        lang: (40, n) for lang, n in counts.items()}
    assert len(chips(at, "English tokens at this step")) == counts["English"]
    assert len(chips(at, "Hindi tokens at this step")) == counts["Hindi"]
    assert [c.text for c in chips(at, "English tokens at this step")] == [
        t.label.replace(" ", "·") for t in tok.encode_tokens(LESSON4["test_en"])]
    # The top panel still shows the whole budget.
    assert metrics(at)["Hindi tokens"] == str(len(textbook_tokens(1, 100, LESSON4["test_hi"])))


def test_a_new_budget_puts_the_cursor_at_its_end() -> None:
    at = revealed()
    at.slider(key=sv.STEP.skey).set_value(10).run()
    at.slider(key=sv.BUDGET.skey).set_value(150).run()
    assert at.slider(key=sv.STEP.skey).value == 150
    assert int(at.slider(key=sv.STEP.skey).max) == 150
    # The budget goes as far as there is anything left to merge: every word of the lesson's text is one token by then.
    textbook = train_reference(LESSON4["english_block"] * 10 + LESSON4["hindi_block"], 10_000, **SETTINGS)
    assert int(at.slider(key=sv.BUDGET.skey).max) == len(textbook.steps)


def test_a_budget_of_zero_is_bytes() -> None:
    at = revealed({"budget": "0"})
    m = metrics(at)
    assert (m["English tokens"], m["Hindi tokens"]) == (str(len(LESSON4["test_en"].encode())),
                                                        str(len(LESSON4["test_hi"].encode())))
    assert "With a budget of 0 merges" in main_text(at)


# -- the parallel set -----------------------------------------------------------------------------------------
def test_the_parallel_set_table_is_the_engines_counts() -> None:
    at = revealed({"k": "10", "budget": "100"})
    rows = table(at, "Hindi ÷ English tokens").set_index("tokenizer")
    lab = parallel_cost(lab_tokenizer(10, 100), PAIRS)
    row = rows.loc["Lab BPE: k = 10, 100 merges"]
    assert (row["English tokens"], row["Hindi tokens"]) == (lab.english_tokens, lab.hindi_tokens)
    assert row["English tokens per word"] == pytest.approx(lab.english_per_word)
    assert row["Hindi tokens per word"] == pytest.approx(lab.hindi_per_word)
    assert row["Hindi ÷ English tokens"] == pytest.approx(lab.ratio)
    names = {info.title: info.name for info in real.catalogue() if info.featured}  # the featured seven
    assert set(names) <= set(rows.index)
    for title, name in names.items():
        cost = parallel_cost(real.load(name), PAIRS)
        assert (rows.loc[title, "English tokens"], rows.loc[title, "Hindi tokens"]) == (
            cost.english_tokens, cost.hindi_tokens)
        assert rows.loc[title, "Hindi tokens per word"] == pytest.approx(cost.hindi_per_word)
        assert rows.loc[title, "Hindi ÷ English tokens"] == pytest.approx(cost.ratio)
    chart_rows = {(r["tokenizer"], r["language"]): r["per_word"] for r in charts_by_dataset(at)[3]["points"]}
    assert chart_rows[("GPT-4o (o200k_base)", "Hindi")] == pytest.approx(rows.loc["GPT-4o (o200k_base)", "Hindi tokens per word"])
    text = main_text(at)
    assert "Petrov" in text and "FLORES" in text


def test_the_published_findings_are_cited() -> None:
    at = revealed()
    notes = " ".join(h.value for h in at.main.get("html") if "tl-note" in h.value)
    assert "up to 15 times" in notes and "Petrov" in notes and "NeurIPS 2023" in notes
    assert "overcharged" in notes and "Ahia" in notes and "EMNLP 2023" in notes


# -- your own texts ---------------------------------------------------------------------------------------------
def test_your_own_sentence_pair() -> None:
    at = revealed()
    at.text_input(key=sv.TEST_EN.skey).set_value("The city is clean.").run()
    at.text_input(key=sv.TEST_HI.skey).set_value("शहर साफ़ है।").run()
    tok = lab_tokenizer(1, 100)
    m = metrics(at)
    assert (m["English tokens"], m["Hindi tokens"]) == (str(len(tok.encode("The city is clean."))),
                                                        str(len(tok.encode("शहर साफ़ है।"))))
    # The lesson's table stays the lesson's.
    assert table(at, "Hindi tokens per word").set_index("Hindi copies k").loc[10, "Hindi tokens"] == 31
    at.text_input(key=sv.TEST_HI.skey).set_value("   ").run()
    assert "Type a sentence in both languages" in main_text(at)
    assert metrics(at)["Hindi tokens"] == "69"
    at.button(key=sv.RESET_PAIR.skey).click().run()
    assert at.text_input(key=sv.TEST_EN.skey).value == LESSON4["test_en"]


def test_your_own_training_text() -> None:
    at = revealed()
    at.radio(key=sv.SOURCE.skey).set_value("own").run()
    assert at.text_area(key=sv.OWN_EN.skey).value == LESSON4["english_block"]  # a start to edit
    english, hindi = "chai is ready. the chai stall is open. ", "चाय तैयार है। चाय की दुकान खुली है। "
    at.text_area(key=sv.OWN_EN.skey).set_value(english).run()
    at.text_area(key=sv.OWN_HI.skey).set_value(hindi + "\n").run()
    at.slider(key=sv.COPIES.skey).set_value(3).run()
    assert_no_exception(at)
    budget = at.slider(key=sv.BUDGET.skey).value
    assert budget == min(100, int(at.slider(key=sv.BUDGET.skey).max))
    tok = lab_tokenizer(3, budget, english, hindi)
    m = metrics(at)
    assert (m["English tokens"], m["Hindi tokens"]) == (str(len(tok.encode(LESSON4["test_en"]))),
                                                        str(len(tok.encode(LESSON4["test_hi"]))))
    assert "Your own texts do not change this table" in main_text(at)
    at.text_area(key=sv.OWN_HI.skey).set_value("  ").run()
    assert "Type a Hindi part" in main_text(at)


def upload(at, name: str, data: bytes):
    at.radio(key=sv.SOURCE.skey).set_value("own").run()
    at.file_uploader(key=sv.UPLOAD.skey).set_value((name, data, "text/plain")).run()
    assert_no_exception(at)
    return at


def test_one_file_with_both_languages() -> None:
    text = "Heavy rain closed the roads.\nभारी बारिश से सड़कें बंद हुईं।\nThe schools are open.\nस्कूल खुले हैं।\n"
    at = upload(revealed(), "news.txt", text.encode("utf-8"))
    english, hindi = split_by_script(text)
    assert f"From news\\.txt: {len(english)} characters of English, {len(hindi)} of Hindi." in main_text(at)
    budget = at.slider(key=sv.BUDGET.skey).value
    tok = lab_tokenizer(1, budget, english, hindi)
    assert metrics(at)["Hindi tokens"] == str(len(tok.encode(LESSON4["test_hi"])))


def test_uploads_that_cannot_be_used_say_why() -> None:
    at = upload(revealed(), "latin1.txt", "café au lait".encode("latin-1"))
    assert "UTF-8" in " ".join(h.value for h in at.main.get("html"))
    at.file_uploader(key=sv.UPLOAD.skey).set_value(("big.txt", b"a " * 600_000, "text/plain")).run()
    assert "the limit is 1 MB" in " ".join(h.value for h in at.main.get("html"))
    at.file_uploader(key=sv.UPLOAD.skey).set_value(("only.txt", b"only English here", "text/plain")).run()
    assert "Type a Hindi part" in main_text(at)
    uploader = at.get("file_uploader")[0]
    assert "(up to 1 MB)" in uploader.proto.label


def test_a_long_file_is_cut_to_the_limit_with_a_note() -> None:
    line_en, line_hi = "The rain came early this year. ", "इस साल बारिश जल्दी आई। "
    text = "\n".join([line_en * 20, line_hi * 20] * 20)
    at = upload(revealed(), "long.txt", text.encode("utf-8"))
    note = main_text(at)
    assert f"The English and Hindi parts are cut to their first {sv.OWN_PART_CHARS:,} characters" in note
    assert_no_exception(at)


# -- links, large type -------------------------------------------------------------------------------------------
def test_a_link_with_settings_asks_first_too_then_opens_on_them() -> None:
    """The issue: ?k=1&budget=100 skipped the questions and drew every share (their answers). A link asks first like
    the plain page, and keeps its settings for when the page opens."""
    at = run_page(PAGE, query_params={"k": "10", "budget": "100", "step": "20"})
    assert not at.slider and not at.get("vega_lite_chart")
    assert at.query_params["k"] == "10"  # the link's settings stay in the address meanwhile
    button(at, "Skip, show me").click().run()
    assert at.slider(key=sv.COPIES.skey).value == 10 and at.slider(key=sv.STEP.skey).value == 20
    assert metrics(at)["Hindi tokens"] == "31"
    at = revealed({"k": "99", "budget": "-4"})  # out of range: clamped
    assert (at.slider(key=sv.COPIES.skey).value, at.slider(key=sv.BUDGET.skey).value) == (plain_experiment.MAX_COPIES, 0)


def test_back_to_the_lesson() -> None:
    at = revealed({"k": "7", "budget": "30"})
    at.button(key=sv.BACK.skey).click().run()
    assert (at.slider(key=sv.COPIES.skey).value, at.slider(key=sv.BUDGET.skey).value, at.slider(key=sv.STEP.skey).value) == (1, 100, 100)


def test_large_type() -> None:
    at = revealed({"large": "1", "k": "10"})
    assert_no_exception(at)
    assert metrics(at)["Hindi tokens"] == "31"


@pytest.mark.parametrize("large", [False, True])
def test_every_chart_template_is_valid_vega_lite(large: bool) -> None:
    for name in ("shares", "scripts", "curve", "cost"):
        alt.Chart.from_dict(json.loads(sv._template(name, large)))  # validates against the schema


def test_english_alone_runs_out_of_pairs_before_the_budget() -> None:
    at = revealed({"k": "0", "budget": "200"})
    learned = len(train(mix([(LESSON4["english_block"], 10)]), 200, **SETTINGS).steps)
    assert learned < 200
    line = next(m.value for m in at.main.get("markdown") if "Devanagari ·" in m.value)
    assert line == f"**{learned}** Latin · **0** Devanagari · **0** mixed · **0** other (of {learned} merges)"
    assert f"training stops after {learned} merges" in main_text(at)
    assert metrics(at)["Hindi tokens"] == str(len(LESSON4["test_hi"].encode()))  # no Hindi merge: bytes


def test_the_pre_split_pattern_is_said_in_plain_words() -> None:
    """The pattern shown to learners comes with what it does (`·?\\S+` alone means nothing to most readers)."""
    from tokenizer.pretokenize import pattern_words

    at = run_page(PAGE)
    captions = " ".join(str(c.value) for c in at.main.caption)
    assert f"before merging, {pattern_words('regex', plain_experiment.settings()['pattern'])}" in captions
    assert "· standing for the space" in captions


def test_english_vs_hindi_in_hindi() -> None:
    """?lang=hi, the questions skipped: the heading, sliders, metrics, charts (axes and the languages in their
    data) and the researchers' findings in Hindi; the figures are the engine's, as the English page has them."""
    from i18n import decimal, number, using
    from tests.apptest_helpers import chart_spec

    at = run_page(PAGE, query_params={"lang": "hi"}, session_state={sv.REVEALED.skey: True})
    assert_no_exception(at)
    assert at.title[0].value == "अंग्रेज़ी बनाम हिन्दी"
    point = experiment.sweep_of(plain_experiment.lesson_texts()).point(sv.LESSON_K, sv.LESSON_BUDGET)
    assert at.subheader[0].value == f"हिन्दी की {sv.LESSON_K} प्रति, {sv.LESSON_BUDGET} मर्ज"
    assert at.slider(key=sv.COPIES.skey).label == "हिन्दी की प्रतियाँ k (अंग्रेज़ी: 10 प्रतियाँ)"
    assert at.slider(key=sv.BUDGET.skey).label == "मर्ज का बजट"
    said = metrics(at)
    assert said["अंग्रेज़ी टोकन"] == number(point.english_tokens, "hi")
    assert said["हिन्दी टोकन"] == number(point.hindi_tokens, "hi")
    assert said["हिन्दी ÷ अंग्रेज़ी"] == f"{decimal(point.ratio, 1, 'hi')}×"
    charts = at.get("vega_lite_chart")
    text = json.dumps([chart_spec(c) for c in charts], ensure_ascii=False)
    assert "ट्रेनिंग टेक्स्ट में हिन्दी की प्रतियाँ (अंग्रेज़ी: 10 प्रतियाँ)" in text and "मर्ज के बाद" in text
    assert "copies in the" not in text and "tokens per word" not in text
    assert {r["language"] for r in chart_datasets(charts[0])[sv.POINTS].to_dict("records")} == {"अंग्रेज़ी", "हिन्दी"}
    with using("hi"):
        finding = sv.localized(lessons.data("published_language_costs")["findings"][0])["finding"]
    assert finding.startswith("अनुवाद") and any(finding in b for b in html_blocks(at, "tl-note"))
    assert "शोधकर्ताओं ने क्या पाया" in main_text(at) and "What researchers found" not in main_text(at)
