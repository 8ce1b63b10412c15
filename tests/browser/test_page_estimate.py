"""Estimate in a real browser: paste a Hindi prompt and read GPT-4o's, GPT-4's and Llama 3's tokens and costs; upload
a JSONL of 10,000 chat records and read its statistics; nothing cut off on a projector (large type, classroom mode),
a laptop or a phone, and the Devanagari drawn with real glyphs.

Every expected figure is the engine's, computed here on the same input. Screenshots (LAB_SCREENSHOTS=1):
estimate-*.png.
"""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal

from playwright.sync_api import expect

from analyses import estimate as est
from family import models as fm
from family import real
from tests.browser.browser_helpers import (
    cut_off,
    element_shot,
    main_area,
    missing_glyphs,
    no_error_boxes,
    screenshot,
    settle,
    skip_without_browser,
    squeezed_labels,
    uses_devanagari_font,
)
from views import estimate as ev

skip_without_browser()

URL_PATH = "Estimate"
PROMPT = ("नमस्ते, मेरा पिछला ऑर्डर #48213 अभी तक नहीं पहुँचा है और ट्रैकिंग पेज तीन दिन से एक ही जगह दिखा रहा है। "
          "कृपया बताइए कि पैकेट कब तक मिलेगा। अगर देर होगी तो क्या मैं ऑर्डर रद्द करके पूरा पैसा वापस ले सकता हूँ?")
MODELS = ("GPT-4o", "GPT-4", "Llama 3.3 70B")


def card(page, key: str):
    return main_area(page).locator(f".st-key-{ev.card_key(key)}")


def metric(scope, label: str):
    return scope.locator('[data-testid="stMetric"]').filter(has_text=label).first.locator(
        '[data-testid="stMetricValue"]')


def engine_stats(key: str, records: list[est.Record]) -> est.RecordStats:
    """The engine's per-record statistics of one model's counts (its chat format included)."""
    model = fm.find(key)
    tok = real.load(model.tokenizer)
    builder = est.StatsBuilder()
    for r in records:
        builder.add(r.number, est.record_tokens(tok, r, model))
    return builder.result()


def bill(key: str, records: list[est.Record], requests: int = 100_000) -> tuple[str, dict[str, str]]:
    """The engine's figures for one model: its tokens (a mean for many records) and its four costs."""
    stats = engine_stats(key, records)
    c = est.cost(Decimal(stats.total) / stats.records, fm.price(key), output_tokens=300, requests_per_month=requests,
                 inr_per_usd=fm.INR_PER_USD)
    tokens = f"{stats.total:,}" if len(records) == 1 else est.mean_shown(stats.total, stats.records)
    return tokens, {"USD a request": est.usd(c.usd_per_request), "INR a request": est.inr(c.inr_per_request),
                    "USD a month": est.usd(c.usd_per_month), "INR a month": est.inr(c.inr_per_month)}


def expect_cards(page, records: list[est.Record], *, classroom: bool = False) -> None:
    for name in MODELS:
        key = fm.find(name).key
        tokens, money = bill(key, records)
        box = card(page, key)
        expect(box).to_contain_text(f"{name} · counts with")
        expect(metric(box, "Input tokens")).to_have_text(tokens)
        for label, value in money.items():
            expect(metric(box, label)).to_have_text(value)
        p = fm.price(key)
        # every price with its date (classroom mode: in one line, its source one click away)
        expect(box).to_contain_text(f"per million tokens, {p.date}" if classroom else f"published {p.date}")


def paste(page, text: str) -> None:
    box = page.get_by_role("textbox", name="Your prompt or records")
    box.fill(text)
    box.press("Control+Enter")
    settle(page)


def test_paste_a_hindi_prompt_and_read_three_models_bills(open_page) -> None:
    page = open_page(URL_PATH, "estimate-laptop-first", size="laptop")
    expect(main_area(page).get_by_role("heading", level=1)).to_have_text("Estimate")
    paste(page, PROMPT)
    expect(page).to_have_url(re.compile(r"[?&]text="))
    no_error_boxes(page)
    expect_cards(page, est.read_records(PROMPT, "text")[0])
    code = main_area(page).locator('[data-testid="stCode"]')
    expect(code).to_contain_text("python -m tokenizer cost")
    for key in ("gpt-4o", "gpt-4", "llama-3.3-70b"):
        expect(code).to_contain_text(f"--model {key}")
    expect(code).to_contain_text(PROMPT[:20])
    assert uses_devanagari_font(page, '[data-testid="stTextArea"] textarea')
    assert missing_glyphs(page, [PROMPT]) == []
    assert cut_off(page) == [] and squeezed_labels(page) == []
    element_shot(card(page, "gpt-4o"), "estimate-card-gpt-4o")
    screenshot(page, "estimate-laptop-1366")
    # a changed price: the card says so and the month follows
    box = card(page, "gpt-4o").get_by_label("USD per 1M input tokens")
    box.fill("5")
    box.press("Enter")
    settle(page)
    expect(card(page, "gpt-4o")).to_contain_text("your price (published")
    expect(page).to_have_url(re.compile(r"[?&]gpt-4o\.in=5"))


def chat_jsonl(n: int, seed: int = 18) -> str:
    """``n`` chat records (system, user, assistant), the user's words drawn from Hindi and English ones."""
    rnd = random.Random(seed)
    words = ["ऑर्डर", "पैसा", "वापस", "कब", "मिलेगा", "कृपया", "जल्दी", "बताइए", "delivery", "refund", "order", "status"]
    lines = []
    for _ in range(n):
        user = " ".join(rnd.choice(words) for _ in range(rnd.randint(3, 60)))
        lines.append(json.dumps({"messages": [{"role": "system", "content": "You are a helpful support agent."},
                                              {"role": "user", "content": user},
                                              {"role": "assistant", "content": "Let me check that for you."}]},
                                ensure_ascii=False))
    return "\n".join(lines) + "\n"


def test_upload_ten_thousand_chat_records_and_read_the_statistics(open_page, tmp_path) -> None:
    data = chat_jsonl(10_000)
    path = tmp_path / "support-chats.jsonl"
    path.write_text(data, encoding="utf-8")
    # large type: the statistics are a plain table (text), read as a projector shows it
    page = open_page(URL_PATH, "estimate-upload-before", query="large=1", size="projector")
    main = main_area(page)
    main.locator('[data-testid="stButtonGroup"] button', has_text="Upload a file").click()
    settle(page)
    main.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
    expect(main.locator('[data-testid="stTable"]').first).to_be_visible(timeout=120_000)
    settle(page)
    no_error_boxes(page)
    records, problems = est.read_records(data, "jsonl")
    assert len(records) == 10_000 and not problems
    expect_cards(page, records)
    table = main.locator('[data-testid="stTable"]').first
    for name in MODELS:
        model = fm.find(name)
        s = engine_stats(name, records)
        row = table.locator("tr").filter(has=page.get_by_text(name, exact=True)).first
        cells = [c.replace(",", "") for c in row.locator("td, th").all_inner_texts()]
        assert cells[2:8] == [str(s.records), str(s.total), f"{est.one_decimal(Decimal(s.total) / s.records)}",
                              f"{s.p50:.1f}", f"{s.p95:.1f}", str(s.max)], cells
        overhead = sum(est.chat_overhead(model, r.messages) for r in records)
        expect(card(page, model.key)).to_contain_text(f"{overhead:,} tokens around the messages of 10,000 chats")
    expect(main.locator('[data-testid="stVegaLiteChart"]')).to_be_visible()
    element_shot(main.locator('[data-testid="stVegaLiteChart"]').first, "estimate-histogram-large")
    expect(main.locator('[data-testid="stCode"]')).to_contain_text("--file support-chats.jsonl")
    assert "support-chats" not in page.url  # the file never goes in the link
    assert cut_off(page) == []
    screenshot(page, "estimate-upload-10000-large")


def test_projector_large_type_and_classroom(open_page) -> None:
    page = open_page(URL_PATH, "estimate-projector-first", query="large=1&classroom=1", size="projector")
    card(page, "gpt-4o").wait_for()
    no_error_boxes(page)
    assert squeezed_labels(page) == [] and cut_off(page) == []
    expect_cards(page, est.read_records(ev.EXAMPLE["text"], "text")[0], classroom=True)
    screenshot(page, "estimate-projector-1920")
    # The prompt and the models are one click away, in a closed box: opened, the prompt is drawn in a real font.
    main_area(page).get_by_text("Your prompt, the models, and how to read them").click()
    settle(page)
    assert uses_devanagari_font(page, '[data-testid="stTextArea"] textarea')


def test_phone_cuts_nothing_off(open_page) -> None:
    page = open_page(URL_PATH, "estimate-phone-first", size="phone")
    card(page, "gpt-4o").wait_for()
    no_error_boxes(page)
    assert cut_off(page) == [] and squeezed_labels(page) == []
    expect_cards(page, est.read_records(ev.EXAMPLE["text"], "text")[0])
    element_shot(card(page, "gpt-4"), "estimate-phone-card")
    screenshot(page, "estimate-phone-390")
    # "Read it as": its four choices in one row, whole (they wrapped, a button clipped)
    assert cut_off(page, '[data-testid="stButtonGroup"] button') == []
    group = main_area(page).locator('[data-testid="stButtonGroup"]').filter(has_text="One prompt")
    tops = {round(box["y"]) for box in (b.bounding_box() for b in group.locator("button[aria-checked]").all())}
    assert len(tops) == 1, tops
    # The printed command: a flag a line, each drawn on one line of the phone's screen (a model's name broke at
    # its hyphen), and the block does not scroll sideways
    code = main_area(page).locator('[data-testid="stCode"] pre').first
    code.scroll_into_view_if_needed()
    assert code.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert broken_flag_lines(code) == []
    element_shot(main_area(page).locator('[data-testid="stCode"]').first, "estimate-phone-command")


BROKEN_FLAG_LINES = """el => {
    const nodes = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let text = '';
    for (let n = walker.nextNode(); n; n = walker.nextNode()) { nodes.push([n, text.length]); text += n.textContent; }
    const at = i => { let k = nodes.length - 1; while (k > 0 && nodes[k][1] > i) k--; return [nodes[k][0], i - nodes[k][1]]; };
    const out = [];
    for (const m of text.matchAll(/--[a-z-]+ [^\\n\\\\]*/g)) {
        const range = document.createRange();
        range.setStart(...at(m.index));
        range.setEnd(...at(m.index + m[0].trimEnd().length - 1));
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1 && !m[0].startsWith('-- ')) out.push(m[0]);
    }
    return out;
}"""


def broken_flag_lines(code) -> list[str]:
    """The flags of a printed command (``--model gpt-4o-mini``) drawn on more than one line of the screen."""
    return code.evaluate(BROKEN_FLAG_LINES)


def test_typing_a_model_and_enter_picks_that_model(open_page) -> None:
    """"GPT-4.1" + Enter in the model box picked "Select 3 matches" (GPT-4.1, mini and nano)."""
    page = open_page(URL_PATH, "estimate-pick-by-typing", query="models=gpt-4o", size="laptop")
    picker = main_area(page).locator('[data-testid="stMultiSelect"]').first
    picker.locator("input").click()
    page.keyboard.type("GPT-4.1")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    settle(page)
    expect(page).to_have_url(re.compile(r"[?&]models=gpt-4o%2Cgpt-4\.1(&|$)"))
