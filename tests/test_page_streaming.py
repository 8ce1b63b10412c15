"""Streaming (AppTest): the lesson-6 figure computed, the stream both ways step by step, predict, URL, bad input."""

from __future__ import annotations

import inspect

import pytest

import lessons
from analyses.measure import measure
from analyses.stream import partial_count, so_far, stream_tokens
from family import real
from tests.apptest_helpers import assert_no_exception, button, html_blocks, main_text, page_text, plain, run_page
from tests.lesson_data import LESSON4
from tests.reference_oracle import not_text_alone, reference_token_bytes
from tokenizer import hex_bytes, train
from ui import choices
from ui.display import md_escape
from views import streaming

PAGE = "pages/9_Streaming.py"
HINDI = LESSON4["test_hi"]


@pytest.fixture(scope="module")
def k1():
    preset = lessons.presets()["english-hindi"]
    return train(preset.corpus, preset.merges, **preset.train_kwargs()).tokenizer


def panels(at) -> tuple[str, str]:
    """The naive and the careful panel's text (marks as �, held bytes as 'holding …')."""
    body = html_blocks(at, 'class="tl-stream"')[0]
    naive, careful = body.split('class="tl-stream-panel tl-careful"')
    text = lambda part: plain(part.split('class="tl-stream-text">', 1)[1].split('<div class="tl-stream-foot"', 1)[0])  # noqa: E731
    return text(naive), text(careful)


def marks_in_naive(at) -> int:
    body = html_blocks(at, 'class="tl-stream"')[0]
    return body.split('tl-careful')[0].count('class="tl-bad"')


def current(at) -> str:
    blocks = html_blocks(at, 'class="tl-now"')
    return blocks[0] if blocks else ""


def test_default_states_the_lesson6_figure_computed(k1) -> None:
    at = run_page(PAGE)
    assert at.selectbox(key=choices.one_key(streaming.PAGE).skey).value == "english-hindi"
    assert at.text_area(key=streaming.TEXT.skey).value == HINDI
    events = stream_tokens(k1.encode_tokens(HINDI))
    partial, total = partial_count(events), len(events)
    # The same figure from an independent source, the textbook trainer (the curriculum: "most of the 69").
    preset = lessons.presets()["english-hindi"]
    textbook = reference_token_bytes(preset.corpus, preset.merges, HINDI, **preset.train_kwargs())
    assert (partial, total) == (sum(map(not_text_alone, textbook)), len(textbook))
    assert f"**{partial} of {total} tokens" in main_text(at)
    assert at.slider(key=streaming.STEP.skey).value == 0 and at.slider(key=streaming.STEP.skey).max == total
    assert panels(at) == ("nothing yet", "nothing yet")
    assert "Press **Next**" in main_text(at)


def test_stepping_shows_marks_where_tokens_are_partial_and_held_bytes(k1) -> None:
    events = stream_tokens(k1.encode_tokens(HINDI))
    at = run_page(PAGE)
    for k in range(1, 13):
        at.button(key=streaming.STEPPER.key("next").skey).click().run()
        assert_no_exception(at)
        event = events[k - 1]
        now = so_far(events, k)
        naive, careful = panels(at)
        assert naive.replace(" ", "") == now.naive_text.replace(" ", "")
        assert marks_in_naive(at) == now.marks
        cell = current(at)
        # The naive decoder's cell shows a marked replacement mark exactly when the token is partial.
        assert ('class="tl-bad"' in cell) == (not event.whole)
        assert hex_bytes(event.bytes) in plain(cell)
        expected = now.text + (f" holding {hex_bytes(now.held)}" if now.held else "")
        assert careful == (" ".join(expected.split()) or "nothing yet")
    assert at.query_params["step"] == "12"
    at.button(key=streaming.STEPPER.key("first").skey).click().run()
    assert at.slider(key=streaming.STEP.skey).value == 0


def test_the_end_gives_back_the_text_exactly(k1) -> None:
    at = run_page(PAGE, query_params={"step": "1"})
    assert "holding E0 A4" in panels(at)[1]  # घ is E0 A4 98: the first token holds two of its bytes
    at.button(key=streaming.STEPPER.key("last").skey).click().run()
    naive, careful = panels(at)
    assert careful == HINDI
    events = stream_tokens(k1.encode_tokens(HINDI))
    assert marks_in_naive(at) == so_far(events, len(events)).marks > 0
    success = " ".join(s.value for s in at.main.get("success"))
    assert "gave back the text exactly" in success and f"for the {partial_count(events)} tokens" in success
    assert at.button(key=streaming.STEPPER.key("next").skey).disabled


def test_the_token_row_highlights_the_current_token(k1) -> None:
    at = run_page(PAGE, query_params={"step": "7"})
    rows = [b for b in html_blocks(at) if 'class="tl-now"' not in b and "tl-stream" not in b]
    from tests.apptest_helpers import parse_chips

    chips = parse_chips(rows[-1]).chips
    events = stream_tokens(k1.encode_tokens(HINDI))  # the engine's stream: 69 tokens, 64 partial (lesson 6)
    assert len(chips) == len(events)
    assert [i for i, c in enumerate(chips) if c.highlighted] == [6]
    assert sum(c.partial for c in chips) == partial_count(events)


def test_predict_first_hides_the_token_until_answered(k1) -> None:
    events = stream_tokens(k1.encode_tokens(HINDI))
    at = run_page(PAGE)
    at.toggle(key=streaming.PREDICT.skey).set_value(True).run()
    assert at.toggle(key=streaming.STEPPER.autoplay_key).disabled
    at.button(key=streaming.STEPPER.key("next").skey).click().run()
    assert at.query_params["predict"] == "1"
    assert current(at) == ""  # token 1 is hidden until the learner answers
    assert panels(at) == ("nothing yet", "nothing yet")
    radio = at.radio[0]
    assert list(radio.options) == [md_escape(streaming.WHOLE), md_escape(streaming.BROKEN)]
    radio.set_value(streaming.WHOLE).run()
    button(at, "Check").click().run()
    assert_no_exception(at)
    assert not events[0].whole
    text = page_text(at)
    assert "Not this time" in text and "E0 A4" in text
    assert "holding E0 A4" in panels(at)[1]  # revealed
    # Token 2 completes घ: the question says what is held.
    at.button(key=streaming.STEPPER.key("next").skey).click().run()
    assert "holding E0 A4" in main_text(at)
    at.radio[0].set_value(streaming.BROKEN).run()
    button(at, "Check").click().run()
    assert "Right!" in page_text(at)
    assert "1 of 2" in main_text(at)


def test_examples_and_url_state() -> None:
    at = run_page(PAGE, query_params={"step": "3"})
    labels = [e["label"] for e in lessons.examples("stream")]
    at.button(key=streaming.example_key(labels.index('खबर')).skey).click().run()
    assert at.text_area(key=streaming.TEXT.skey).value == "खबर"
    assert at.slider(key=streaming.STEP.skey).value == 0
    assert at.query_params["text"] == "खबर"
    # A shared link opens the same view.
    again = run_page(PAGE, query_params={"text": "खबर", "step": "2", "tok": "english-hindi"})
    assert again.slider(key=streaming.STEP.skey).value == 2
    assert "Token 2 of" in plain(current(again))


def test_any_real_tokenizer_and_any_text() -> None:
    if real.status("cl100k_base"):
        pytest.skip(real.status("cl100k_base"))
    text = "Family 👩‍👩‍👧 at the chai stall ☕"
    at = run_page(PAGE, query_params={"tok": "cl100k_base", "text": text, "step": "999"})
    m = measure(real.load("cl100k_base"), text)
    assert f"**{m.partial} of {m.tokens} tokens" in main_text(at)
    assert panels(at)[1] == text
    assert "gave back the text exactly" in " ".join(s.value for s in at.main.get("success"))


def test_sentencepiece_adds_a_space_and_the_page_says_why() -> None:
    if real.status("mistral-sp-v3"):
        pytest.skip(real.status("mistral-sp-v3"))
    at = run_page(PAGE, query_params={"tok": "mistral-sp-v3", "text": "खबर", "step": "999"})
    assert "SentencePiece adds one at the start" in main_text(at)


def test_a_character_model_never_breaks_a_character() -> None:
    at = run_page(PAGE, query_params={"tok": "chai", "text": "chai खबर", "step": "2"})
    assert "**0 of" in main_text(at) and "works on characters" in main_text(at)


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("", "Type some text"),
        ("क्‍ष ि 👩‍👩‍👧 \u200d", "tokens"),  # joiners, a lone vowel sign, emoji
        ("9" * 500, "tokens"),
    ],
)
def test_bad_and_odd_input(text: str, expect: str) -> None:
    at = run_page(PAGE, query_params={"step": "999"})
    at.text_area(key=streaming.TEXT.skey).set_value(text).run()
    assert_no_exception(at)
    assert expect in main_text(at)


def test_a_1mb_paste_is_refused_politely() -> None:
    at = run_page(PAGE)
    at.text_area(key=streaming.TEXT.skey).set_value("घ" * 400_000).run()
    assert_no_exception(at)
    assert "1.2 MB" in main_text(at) and "up to 1 MB" in main_text(at)


def test_a_long_text_streams_its_first_tokens_and_counts_all() -> None:
    at = run_page(PAGE)
    at.text_area(key=streaming.TEXT.skey).set_value(HINDI * 10).run()
    assert "Streaming the first 300 of 690 tokens" in main_text(at)
    assert at.slider(key=streaming.STEP.skey).max == 300


def test_whitespace_only_with_a_whitespace_model() -> None:
    at = run_page(PAGE, query_params={"tok": "chai"})
    at.text_area(key=streaming.TEXT.skey).set_value("   ").run()
    assert "makes no tokens" in main_text(at)


def test_large_type_has_no_slider_and_keeps_the_stream() -> None:
    at = run_page(PAGE, query_params={"large": "1", "step": "5"})
    assert not at.main.get("slider")
    assert "5 of 69" in plain(current(at))


def test_the_lab_models_pattern_is_said_in_plain_words() -> None:
    """The line under the picker says what the pre-split does, not only its pattern (`·?\\S+` means nothing to most)."""
    at = run_page(PAGE)
    captions = " ".join(str(c.value) for c in at.main.caption).replace("\\", "")  # Markdown escapes off
    assert "regex pre-split" not in captions
    assert "Before merging, the text is cut at spaces: each word, punctuation and all, keeps the space before it" in captions


def test_a_production_tokenizer_has_its_provenance_in_the_about_box() -> None:
    """Streaming with GPT-4's tokenizer: where its data comes from is in the "About these tokenizers" box, filled
    when opened; a lab model, whose line under the picker already says what it is, has no such box."""
    about = [e for e in run_page(PAGE, query_params={"tok": "cl100k_base"}).main.expander
             if e.label.startswith("About these tokenizers")]
    assert len(about) == 1
    opened = run_page(PAGE, query_params={"tok": "cl100k_base"}, session_state={streaming.ABOUT_OPEN.skey: True})
    (about,) = [e for e in opened.main.expander if e.label.startswith("About these tokenizers")]
    assert "cl100k" in " ".join(str(m.value) for m in about.markdown)
    lab = run_page(PAGE)
    assert not [e for e in lab.main.expander if e.label.startswith("About these tokenizers")]


def test_the_events_cache_is_keyed_by_everything_it_depends_on() -> None:
    """The events cache once skipped its tokens (``_tokens``): a caller passing another text's tokens under this
    key got them back for every learner. It reads the tokens itself now, so two texts never share an entry."""
    assert not [name for name in inspect.signature(streaming._events).parameters if name.startswith("_")]
    cl100k = real.load("cl100k_base")
    for text in ("नमस्ते", "hello", HINDI):
        enc, events = streaming.events_for("cl100k_base", text, 300)
        assert events == tuple(stream_tokens(cl100k.encode_tokens(text, limit=300)))
        assert enc.measure.tokens == len(cl100k.encode(text))



def test_streaming_in_hindi(k1) -> None:
    """?lang=hi: the page's words, both panels, the token row, the question and its verdict in Hindi; the figure and
    the counts from the engine (analyses.stream), a long text's count grouped the Indian way."""
    from i18n import number, using

    events = stream_tokens(k1.encode_tokens(HINDI))
    partial, total = partial_count(events), len(events)
    at = run_page(PAGE, query_params={"lang": "hi"})
    assert_no_exception(at)
    assert at.text_area(key=streaming.TEXT.skey).label == "स्ट्रीम करने के लिए टेक्स्ट"
    assert at.selectbox(key=choices.one_key(streaming.PAGE).skey).label == "टोकनाइज़र"
    assert f"**{total} में से {partial} टोकन (" in main_text(at)
    assert at.slider(key=streaming.STEP.skey).label == "स्ट्रीम हुए टोकन"
    assert [b.label for b in at.button if b.key and b.key.startswith("stream.example.")][:3] == [
        "हिन्दी ख़बर", "खबर", "इमोजी"]
    at.button(key=streaming.STEPPER.key("next").skey).click().run()
    body = html_blocks(at, 'class="tl-stream"')[0]
    assert "सीधा डिकोडर: हर टोकन अकेले डिकोड" in body and "1 बाइट रोके हुए" not in body
    assert f"{hex_bytes(events[0].held_bytes)} रोके हुए" in plain(body)
    assert "अब तक 1 रिप्लेसमेंट निशान" in plain(body)
    assert f"{total} में से 1" in plain(current(at)) and "सावधान डिकोडर जोड़ता है" in plain(current(at))
    assert "अभी कुछ नहीं" in plain(current(at))  # token 1 is part of a character: the careful decoder adds nothing yet
    # predict first: the question and its options in Hindi, the kept value the page's own
    at.toggle(key=streaming.PREDICT.skey).set_value(True).run()
    at.button(key=streaming.STEPPER.key("next").skey).click().run()
    assert any("टोकन 2 आता है" in str(m.value) for m in at.main.get("markdown"))
    radio = at.radio[0]
    assert list(radio.options) == [md_escape("पूरे कैरेक्टर: साफ़ दिखता है"),
                                   md_escape("कैरेक्टर का हिस्सा: सीधा डिकोडर � दिखाता है")]
    with using("hi"):  # AppTest finds the option by the radio's format_func: the learner's language
        radio.set_value(streaming.BROKEN if not events[1].whole else streaming.WHOLE).run()
        button(at, "जाँचिए").click().run()
    assert_no_exception(at)
    assert "सही! आपका अनुमान था" in page_text(at)
    # a long text: the count grouped the Indian way
    long = "घने कोहरे " * 12_000
    at = run_page(PAGE, query_params={"lang": "hi", "tok": "r50k_base"})
    at.text_area(key=streaming.TEXT.skey).input(long).run()
    assert_no_exception(at)
    n = measure(real.load("r50k_base"), long).tokens
    assert n >= 100_000 and f"{number(n, 'hi')} में से पहले {streaming.MAX_STREAM} टोकन" in main_text(at)
