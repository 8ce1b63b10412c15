"""Real browser: the "Train step by step" page by deep link, stepping, predicting, own Hindi text.

With LAB_SCREENSHOTS=1 screenshots land in artifacts/screenshots/train-*.png.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from playwright.sync_api import expect

from tests.browser.browser_helpers import (
    assert_no_exception,
    charts_drawn,
    cut_off,
    main_area,
    pressed,
    screenshot,
    settle,
    skip_without_browser,
    step_button,
    wait_for_streamlit,
)

skip_without_browser()


URL_PATH = "Train_step_by_step"


def _step_header(page):
    return main_area(page).locator(".tl-step")


def _settle(page, name: str | None = None) -> None:
    """Wait until the widgets and the chart are drawn (not loading placeholders), then
    (re)take the screenshot."""
    charts_drawn(page, first_only=True)
    expect(step_button(main_area(page), "Next")).to_be_visible()
    if name:
        screenshot(page, name)


def test_deep_link_then_step_forward(open_page) -> None:
    page = open_page(URL_PATH, "train-chai-step3", query="preset=chai&step=3")
    _settle(page, "train-chai-step3")
    expect(_step_header(page)).to_contain_text("Merge 3 of 7:")
    expect(_step_header(page)).to_contain_text("seen 5 times")
    expect(_step_header(page).locator(".tl-chip")).to_have_count(3)  # cha + i -> chai
    expect(main_area(page).locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    # the why box is drawn for each kind of screen (one shown): the one this screen shows
    expect(main_area(page).get_by_text("No tie: cha + i was seen 5 times", exact=False).filter(visible=True)).to_have_count(1)

    step_button(main_area(page), "Next").click()
    expect(_step_header(page)).to_contain_text("Merge 4 of 7:")
    wait_for_streamlit(page)
    assert_no_exception(page)
    expect(page).to_have_url(re.compile(r"[?&]step=4"))
    expect(main_area(page).get_by_text("Tie: p + o and o + ha were both seen 4 times", exact=False)
           .filter(visible=True)).to_have_count(1)
    _settle(page, "train-chai-step4")


def test_predict_first(open_page) -> None:
    page = open_page(URL_PATH, "train-predict-step0", query="preset=news&predict=1")
    _settle(page, "train-predict-step0")
    step_button(main_area(page), "Next").click()
    expect(_step_header(page)).to_contain_text("which pair wins?")
    wait_for_streamlit(page)
    expect(main_area(page).locator('[data-testid="stVegaLiteChart"]')).to_have_count(0)
    main_area(page).get_by_text("n + e", exact=True).click()  # a radio option, drawn from escaped markdown
    main_area(page).get_by_role("button", name="Check", exact=True).click()
    expect(main_area(page).get_by_text("Right! You predicted n + e", exact=False)).to_be_visible()
    wait_for_streamlit(page)
    assert_no_exception(page)
    expect(main_area(page).locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    _settle(page, "train-predict-checked")


def test_own_hindi_text_and_markup(open_page) -> None:
    text = "खबर खबर खबरें <b>news</b> news कि कि"
    page = open_page(URL_PATH, "train-own-text", query=f"preset=own&text={quote(text)}&step=4")
    expect(_step_header(page)).to_contain_text("Merge 4 of ")
    assert main_area(page).locator("b", has_text="news").count() == 0  # markup shown as text, not run
    expect(main_area(page).locator(".tl-chip", has_text="खबर").first).to_be_visible()
    _settle(page, "train-own-text")


def test_large_type(open_page) -> None:
    page = open_page(URL_PATH, "train-large-type", query="large=1&preset=readers&step=3")
    expect(_step_header(page)).to_contain_text("Merge 3 of 12:")
    expect(main_area(page).get_by_text("and 1 more pair were all seen 12 times", exact=False)).to_be_visible()
    _settle(page, "train-large-type")


def _one_screen(open_page, query: str, name: str) -> dict:
    """Open the Train page at 1920x1080 in large type; the layout's key boxes, in page pixels."""
    page = open_page(URL_PATH, name, query=query, size="projector")
    _settle(page, name)
    main = main_area(page)
    boxes = {
        "next": step_button(main, "Next").bounding_box(),
        "header": _step_header(page).bounding_box(),
        "chart": main.locator('[data-testid="stVegaLiteChart"]').first.bounding_box(),
        "why": main.locator(".tl-note").first.bounding_box(),
        "corpus": main.locator(".tl-words").first.bounding_box(),
    }
    page.close()
    return boxes


def test_large_type_one_screen_per_step_on_a_projector(open_page) -> None:
    """At 1920x1080 in large type, the controls, the merge, why it won, the chart and the corpus after it
    are all on the first screen: the teacher presses Next and never scrolls."""
    for query, name in (("large=1&preset=chai&step=4", "train-projector-chai"),
                        ("large=1&preset=readers&step=3", "train-projector-readers")):
        boxes = _one_screen(open_page, query, name)
        for what, box in boxes.items():
            assert box is not None, what
            assert box["y"] >= 0 and box["y"] + box["height"] <= 1080, (query, what, box)
        assert boxes["next"]["y"] < boxes["header"]["y"] < boxes["chart"]["y"]  # the controls sit by the merge


def test_corpus_words_are_never_cut_mid_word(open_page) -> None:
    page = open_page(URL_PATH, "train-lesson4-corpus", query="preset=english-hindi-fair&step=100")
    _settle(page)
    broken = page.evaluate(
        """() => [...document.querySelectorAll('.tl-words .tl-chip .tl-text')]
              .filter(el => el.getClientRects().length > 1 ||
                            el.getBoundingClientRect().height > 2.2 * parseFloat(getComputedStyle(el).fontSize))
              .map(el => el.textContent)"""
    )
    assert broken == []
    # The count follows its word's chips on the same row.
    rows = page.evaluate(
        """() => [...document.querySelectorAll('.tl-words .tl-chips')].map(c => {
              const chips = c.querySelectorAll('.tl-chip'), count = c.querySelector('.tl-word-count');
              const last = chips[chips.length - 1].getBoundingClientRect(), n = count.getBoundingClientRect();
              return n.left >= last.right - 1 && Math.abs(n.top + n.height / 2 - (last.top + last.height / 2)) < last.height;
          })"""
    )
    assert rows and all(rows)


def test_the_corpus_box_opens_on_the_corpus_with_its_copy_button(open_page) -> None:
    """The corpus text's box is filled when the learner opens it (views/train/settings.CORPUS_OPEN): the corpus, in
    a code block with Streamlit's copy button, and the page stays where the learner is."""
    import lessons

    corpus = lessons.presets()["chai"].corpus
    page = open_page(URL_PATH, "train-corpus-box", size="laptop")
    _settle(page)
    box = main_area(page).locator('[data-testid="stExpander"]', has_text="The corpus text")
    code = box.locator('[data-testid="stCode"]')
    expect(code).to_have_count(0)  # closed: nothing drawn in it
    top = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTop")
    pressed(page, box.locator("summary").click, lambda: code.wait_for(), "the corpus box: opening it")
    settle(page)
    expect(code).to_be_visible()
    assert " ".join(code.inner_text().split()) == " ".join(corpus.split())
    code.hover()
    expect(box.get_by_role("button", name="Copy to clipboard")).to_have_count(1)
    assert page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTop") == top
    screenshot(page, "train-corpus-box-open")


def test_the_lesson_link_is_never_cut_off(open_page) -> None:
    """The link to the lesson sits in the narrow column beside the corpus: its label wraps, whole."""
    page = open_page(URL_PATH, "train-lesson-link", query="preset=chai&step=3")
    _settle(page)
    link = main_area(page).locator('[data-testid="stPageLink-NavLink"]', has_text="In the lessons")
    expect(link).to_be_visible()
    assert cut_off(page, '[data-testid="stPageLink-NavLink"] span', '[data-testid="stPageLink-NavLink"] p') == []


def test_pair_chart_bars_are_drawn_in_rank_order(open_page) -> None:
    """The pair-count chart lists its pairs 1, 2, ..., 10, 11, 12 from the top, not as text sorts
    ("1.", "10.", "11.", "12.", "2.", ...). Read from the drawn SVG's axis labels, top to bottom."""
    page = open_page(URL_PATH, "train-chart-order", query="preset=chai&step=3")
    _settle(page)
    labels = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')]
              .map(el => [el.getBoundingClientRect().top, el.textContent])
              .filter(([, text]) => /^\\d+\\. /.test(text))
              .sort((a, b) => a[0] - b[0]).map(([, text]) => parseInt(text))"""
    )
    assert len(labels) >= 10, labels  # 14 distinct pairs before merge 3: the top 12 are drawn
    assert labels == list(range(1, len(labels) + 1))


def test_no_developer_toolbar_for_visitors(open_page) -> None:
    page = open_page(URL_PATH, "train-no-toolbar")
    _settle(page)
    expect(page.get_by_role("button", name="Deploy")).to_have_count(0)


def test_server_log_is_clean_after_train_page(streamlit_server) -> None:
    bad = [line for line in streamlit_server.log().splitlines()
           if re.search(r"warning|error|traceback|exception", line, re.IGNORECASE)]
    assert not bad, "server log has warnings or errors:\n" + "\n".join(bad)
