"""Content a learner reads: Hindi tokens in exercise feedback are letters, as on the pages.

Screenshots (LAB_SCREENSHOTS=1): content-*.png.
"""

from __future__ import annotations

import re

from tests.browser.browser_helpers import element_shot, main_area, missing_glyphs, settle, uses_devanagari_font


def test_hindi_token_feedback_shows_the_letters(fresh_context, visit) -> None:
    """A learner answers lesson 9's "how many GPT-4 tokens is the Hindi sentence?": the feedback leads with each
    word and how many tokens it takes (no bytes); one click lists the tokens with the letters their bytes make
    (⟨E0 A4⟩ | ⟨98⟩ (घ)), a vowel sign on ◌ and named, and no byte pair broken across two lines."""
    context = fresh_context("laptop")
    page = visit(context, "Lessons", "lesson=real-tokenizers")
    box = main_area(page).locator(".st-key-exercise-real-tokenizers-gpt4-hindi")
    number = box.locator("input[type=number]")
    number.fill("30")
    number.press("Enter")
    settle(page)
    box.get_by_role("button", name="Check", exact=True).click()
    settle(page)
    note = box.locator(".tl-note")
    text = note.inner_text()
    assert "Not this time" in text and "Word by word: घने " in text
    assert "⟨" not in text  # the bytes are folded away
    element_shot(note, "content-hindi-feedback-folded")
    note.locator("summary").click()
    text = note.inner_text()
    assert "⟨98⟩ (घ)" in text and "◌े (vowel sign e)" in text and "(में)" in text
    assert uses_devanagari_font(page, ".st-key-exercise-real-tokenizers-gpt4-hindi .tl-note")
    assert missing_glyphs(page, ["घ", "में", "◌े", "⟨E0 A4⟩"]) == []
    # A byte group is one unbreakable piece: each ⟨…⟩ sits on a single line of the box.
    split_groups = page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel), out = [];
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (const m of node.data.matchAll(/⟨[^⟩]*⟩/g)) {
                    const range = document.createRange();
                    range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                    if (range.getClientRects().length > 1) out.push(m[0]);
                }
            }
            return out;
        }""",
        ".st-key-exercise-real-tokenizers-gpt4-hindi .tl-note",
    )
    assert split_groups == []
    element_shot(note, "content-hindi-feedback")


def test_cost_page_says_what_the_tokenizer_is_and_keeps_provenance_in_the_about_box(fresh_context, visit) -> None:
    """Measuring on the parallel set with GPT-4o: no package names or hashes in the learner's view until the
    "About these tokenizers" box is opened."""
    context = fresh_context("laptop")
    page = visit(context, "Cost_and_context", "source=parallel&tok=o200k_base&predict=0")
    main = main_area(page)
    assert "quicktok" not in main.inner_text() and "sha256" not in main.inner_text()
    about = main.get_by_text("About these tokenizers", exact=False).first
    about.scroll_into_view_if_needed()
    element_shot(main.locator('[data-testid="stExpander"]').first, "content-cost-about-closed")
    about.click()
    settle(page)
    assert "quicktok" in main.inner_text()
    element_shot(main.locator('[data-testid="stExpander"]').first, "content-cost-about-open")


def test_patterns_shown_to_learners_say_what_they_do(fresh_context, visit) -> None:
    """Streaming and English vs Hindi: where the pre-split pattern is shown, the words say what it does."""
    context = fresh_context("laptop")
    for url, name in (("Streaming", "content-streaming-caption"), ("English_vs_Hindi", "content-evh-caption")):
        page = visit(context, url)
        caption = main_area(page).get_by_text(re.compile("before merging", re.IGNORECASE)).first
        assert "cut at spaces" in caption.inner_text()
        assert "regex pre-split" not in main_area(page).inner_text()
        element_shot(caption, name)
