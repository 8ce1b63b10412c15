"""Journeys: a link is the whole view, its page links back to its lesson, Back steps through views.

- Every lesson -> lab link (the lessons' [[try]] links and exercise ``view`` links, read from
  lessons.course.course()), lesson by lesson in the order a learner meets them, inside ONE browser session a
  lesson, after its pages were changed away from the links' settings: the address is exactly the link's, the
  widgets are what a fresh session shows for that address (the link's settings, the rest at their defaults: a fresh
  session read in AppTest, fresh_session_widgets), the page's lesson link names the lesson the link came from, and
  no page gives away an answer still to come.
- Browser Back: every press goes back one view, none is a no-op (the issue: 4 presses to leave Train).
- The address bar is a link to what is on screen: pasted into a fresh browser it opens the same view.

Screenshots (LAB_SCREENSHOTS=1): links-*.png.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import expect
from streamlit.testing.v1.element_tree import Block

import lessons
from lessons.course import course
from tests.browser.browser_helpers import (
    NO_PLACEHOLDERS,
    main_area,
    pressed,
    screenshot,
    settle,
    skip_without_browser,
    step_button,
    still,
    until,
    wait_for_streamlit,
)
from ui.layout import PAGES
from ui.links import PREDICT_FIRST
from ui.links import SKIP as LINK_SKIP
from views.english_hindi import SKIP as OWN_SKIP

skip_without_browser()


BACK_LINK = '[data-testid="stPageLink-NavLink"]'
COLD_MS = 120_000  # a page's first run on a new server trains and loads tokenizers (English vs Hindi: ~30 s)

# What the widgets on screen say, in page order: text fields, numbers, switches, choices, sliders, select
# boxes (Streamlit 1.67 draws one as a combobox <input> holding the chosen value: read as an input), a multiselect's
# chosen options (Streamlit 1.67: each a [data-tag] span named by its option; this read BaseWeb's tags before, which
# 1.67 no longer draws, so a link's tokenizers went unread), picked buttons, open tabs (links and exercise boxes are
# not settings).
SNAPSHOT_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const out = [];
  for (const el of main.querySelectorAll('input, textarea, [role="slider"], [role="tab"],'
                                          + ' button[aria-checked="true"], button[aria-pressed="true"], [data-tag]')) {
    if (el.closest('[class*="st-key-exercise-"]') || !el.getClientRects().length) continue;
    if (el.matches('[role="slider"]')) out.push('slider ' + el.getAttribute('aria-valuenow'));
    else if (el.matches('[role="tab"]')) { if (el.getAttribute('aria-selected') === 'true') out.push('tab ' + el.innerText); }
    else if (el.matches('[data-tag]')) out.push('tag ' + el.getAttribute('aria-label'));
    else if (el.matches('button')) out.push('picked ' + el.innerText.trim());
    else if (el.type === 'checkbox' || el.type === 'radio') out.push(el.type + ' ' + (el.getAttribute('aria-label') || '') + ' ' + el.checked);
    else if (el.type !== 'hidden') out.push((el.getAttribute('aria-label') || el.tagName) + ' = ' + el.value);
  }
  return out;
}"""


def _number_shown(widget) -> str:
    """A number input's value as its box shows it: its printf-style format (Streamlit's default: "%d" for a whole
    number, "%0.2f" otherwise), or nothing when it is empty."""
    value = widget.value
    if value is None:
        return ""
    return (widget.proto.format or ("%d" if isinstance(value, int) else "%0.2f")) % value


def _widgets_in(node, at, out: list[str]) -> list[str]:
    """:func:`fresh_session_widgets`' walk: ``node``'s widgets in page order, in :data:`SNAPSHOT_JS`'s words."""
    for index in sorted(node.children):
        el = node.children[index]
        kind, key = el.type, getattr(el, "key", None)
        if kind == "popover" or (key or "").startswith("exercise-"):  # drawn only when opened; not settings
            continue
        if kind == "tab_container":  # only the open tab is on screen: the tabs' value, or the first
            tabs = [el.children[i] for i in sorted(el.children)]
            chosen = at.session_state[key] if key and key in at.session_state else tabs[0].label
            for tab in (t for t in tabs if t.label == chosen):
                out.append(f"tab {tab.label}")
                _widgets_in(tab, at, out)
        elif isinstance(el, Block):
            _widgets_in(el, at, out)  # a container, a column, a folded box (its fields have a box when closed)
        elif kind in ("text_input", "text_area"):
            out.append(f"{el.label} = {el.value or ''}")
        elif kind == "number_input":
            out.append(f"{el.label} = {_number_shown(el)}")
        elif kind in ("checkbox", "toggle"):
            out.append(f"checkbox {el.label} {str(bool(el.value)).lower()}")
        elif kind == "radio":  # a radio's options carry no label
            out += [f"radio  {str(i == el.index).lower()}" for i in range(len(el.options))]
        elif kind == "selectbox":
            out.append(f"{el.label} = {'' if el.value is None else el.format_func(el.value)}")
        elif kind == "multiselect":  # the chosen options' tags, then the box one types in
            out += [f"tag {el.format_func(v)}" for v in el.value] + [f"{el.label} = "]
        elif kind in ("slider", "select_slider"):  # a slider's input holds the value, a select slider's its index
            values = el.value if isinstance(el.value, (list, tuple)) else [el.value]
            if kind == "select_slider":
                values = [list(el.options).index(str(el.format_func(v))) for v in values]
            out += [f"{el.label} = {v}" for v in values]
        elif kind == "button_group":
            chosen = el.value if isinstance(el.value, (list, tuple)) else [] if el.value is None else [el.value]
            out += [f"picked {el.format_func(v)}" for v in chosen]
        elif kind == "file_uploader":
            out.append("file upload = ")
    return out


def fresh_session_widgets(url: str) -> list[str]:
    """What :data:`SNAPSHOT_JS` reads on ``url`` opened in a fresh browser, its questions skipped, read from a fresh
    Streamlit session of the same page in AppTest (the same script, no browser): the lab's server decides every
    widget's value, so a session that kept nothing is the reference. A browser's load costs Chromium 1-2 s of CPU,
    this run about 0.03 s once the page's caches are warm (it replaced 73 fresh browser loads).

    It cannot pass what a fresh browser would fail: the walk's page is compared with it in a browser, so a widget it
    reads otherwise than :data:`SNAPSHOT_JS` (a kind it does not know, another format) fails the walk at once, leak or
    no leak; and a session that kept nothing, in another process than the server, keeps less than a fresh browser
    could (a server-wide cache a session changed). When it was written, all 73 landing views read the same both ways
    (the walk's snapshots of two runs, and a fresh browser's). The address bar pasted into a fresh browser is still a
    browser's check: :func:`test_the_address_is_a_link_to_the_view_on_screen`."""
    from tests.apptest_helpers import run_page

    address = urlsplit(url)
    entry = next(e for e in PAGES if e.url_path == address.path.strip("/").rsplit("/", 1)[-1])
    at = run_page(entry.path, query_params=query(url), timeout=COLD_MS / 1000)
    for skip in (LINK_SKIP, OWN_SKIP):  # as past_the_questions: the link's questions, the page's own
        if any(button.key == skip.skey for button in at.main.button):
            at.button(key=skip.skey).click().run(timeout=COLD_MS / 1000)
    return _widgets_in(at.main, at, [])


def query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def ready(page) -> None:
    """After a click or a load: the run has finished and drawn the page (no placeholders left)."""
    settle(page)
    until(page, f"() => ({NO_PLACEHOLDERS})() && document.querySelector('[data-testid=\"stMain\"] h1')")
    wait_for_streamlit(page)


def snapshot(page) -> list[str]:
    ready(page)
    return page.evaluate(SNAPSHOT_JS)


SKIP_ASK = "Skip, show me the view"


def past_the_questions(page, *, own: bool = True) -> bool:
    """A link that asks its lesson's exercises first (ui.links.ask_first): skip them, to see the view, and (``own``)
    English vs Hindi's own two questions too (lesson 4's, asked whatever the link sets). Whether it asked."""
    asked = False
    for name in (SKIP_ASK, "Skip, show me")[: 2 if own else 1]:
        skip = main_area(page).get_by_role("button", name=name, exact=True)
        if skip.count():
            skip.click()
            ready(page)
            asked = True
    return asked


def lesson_links() -> list[tuple]:
    """(lesson, exercise or None, link) for every lesson -> lab link, in course order."""
    out = []
    for lesson in course().lessons:
        out += [(lesson, None, item) for item in lesson.tries]
        out += [(lesson, ex, ex.view) for ex in lesson.exercises if ex.view is not None]
    return out


def sidebar(page, title: str) -> None:
    before = page.url
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name=title, exact=True).click()
    until(page, "(u) => location.href !== u", arg=before)
    ready(page)


#: How long a followed link may take to change the address before the click is taken as lost (a rerun that
#: redraws the page just as the link is clicked swallows the click) and made once more.
NAVIGATION_MS = 30_000


def click_link(page, link, where: str = "") -> None:
    """Follow ``link`` (a locator): the address changes (a click a redraw swallowed is made once more:
    browser_helpers.pressed), then the page's run ends; ``where`` names the link in a failure."""
    before = page.url
    try:
        pressed(page, link.click,
                lambda: until(page, "(u) => location.href !== u", arg=before, timeout=NAVIGATION_MS),
                f"{where or 'a link'}: following it")
    except Exception:  # noqa: BLE001 - Playwright's timeout: say which link
        pytest.fail(f"{where or link}: following the link did not change the address ({page.url})")
    ready(page)


def change(page, what: str) -> None:
    """Change the page's settings the way a learner does: one step on, another text or number, another
    choice in a row of buttons, or a slider moved one notch."""
    before = page.url
    main = main_area(page)
    skip = main.get_by_role("button", name="Skip, show me")  # English vs Hindi asks for a prediction first
    if skip.count():
        skip.click()
        ready(page)
    step_on = step_button(main, "Next")
    fields = main.locator("textarea:enabled:visible, input[type=text]:enabled:visible:not([role]),"
                          " input[type=number]:enabled:visible")
    choices = main.locator('[data-testid="stButtonGroup"] button:visible[aria-checked="false"]')
    sliders = main.locator("input[type=range]")
    if step_on.count() and step_on.first.is_enabled():
        step_on.first.click()
    elif fields.count():
        field = fields.first
        field.fill("7" if field.get_attribute("type") == "number" else "changed by the journey")
        field.press("Control+Enter" if field.evaluate("e => e.tagName") == "TEXTAREA" else "Enter")
    elif choices.count():
        choices.first.click()
    else:
        assert sliders.count(), f"{what}: nothing to change"
        sliders.first.press("ArrowRight")
    until(page, "(u) => location.href !== u", arg=before)  # the address follows the view
    ready(page)


def answer(page, lesson, exercise) -> None:
    """Answer an exercise (any answer): its link into the lab is shown with the verdict."""
    box = main_area(page).locator(f".st-key-exercise-{lesson.id}-{exercise.id}")
    if box.locator(BACK_LINK).count():
        return
    if exercise.kind == "choice":
        box.locator('[data-testid="stRadioOption"]').first.click()
    elif exercise.kind == "order":
        box.locator('[data-testid="stMultiSelect"] input').click()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")  # the first option
        page.keyboard.press("Escape")
    else:
        field = box.locator("input").first
        field.fill("1" if exercise.kind == "number" else "x")
        field.press("Enter")
    settle(page)
    main_area(page).locator(f".st-key-exercise-{lesson.id}-{exercise.id}").get_by_role(
        "button", name="Check", exact=True).click()
    settle(page)


def find_link(page, lesson, exercise, item):
    """The lesson's link on the Lessons page: a [[try]] link in the lesson, or an exercise's (answered first)."""
    label = item.label or ("See it in the lab" if exercise else "Open it in the lab")
    if exercise is not None:
        answer(page, lesson, exercise)
        candidates = main_area(page).locator(f".st-key-exercise-{lesson.id}-{exercise.id}").locator(BACK_LINK).all()
    else:
        candidates = [el for el in main_area(page).locator(BACK_LINK).all()
                      if not el.evaluate("e => !!e.closest('[class*=\"st-key-exercise-\"]')")]
    found = [el for el in candidates if el.inner_text().strip().removesuffix(PREDICT_FIRST).strip().endswith(label)]
    assert found, f"{lesson.id}: no link “{label}”"
    return found[0]


def back_link(page, says: str = "In the lessons"):
    """The page's one link back to the lesson it was opened from (``says``: its words, in the page's language)."""
    links = main_area(page).locator(BACK_LINK, has_text=says)
    expect(links).to_have_count(1)
    return links.first


def test_back_steps_through_each_view_once(fresh_context, visit) -> None:
    """The issue's journey: Train changed, Lessons from the sidebar, lesson 2, "Watch a tie", a step; then
    Back, again and again: each press shows the view before, none is a no-op."""
    context = fresh_context("laptop")
    context.set_default_timeout(COLD_MS)
    page = visit(context, "Train_step_by_step")
    main = main_area(page)
    views = [page.url]

    def did(action) -> None:
        length = page.evaluate("history.length")
        action()
        settle(page)
        still(page)  # the next click must not land where a scrolling page has just moved something else
        assert page.evaluate("history.length") == length + 1, f"not one history entry: {page.url}"
        views.append(page.url)

    def set_merges() -> None:
        main.get_by_text("Trainer settings", exact=False).first.click()
        box = main.get_by_label("Merges")
        box.fill("5")
        box.press("Enter")

    did(set_merges)
    did(lambda: step_button(main, "Next").click())
    did(lambda: step_button(main, "Next").click())
    assert query(page.url) == {"merges": "5", "step": "2"}
    did(lambda: page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Lessons", exact=True).click())
    did(lambda: main.get_by_role("button", name=re.compile(r"^2\. BPE training")).click())
    did(lambda: main.get_by_role("link", name=re.compile("^Watch a tie")).click())
    length = page.evaluate("history.length")
    past_the_questions(page)  # it asks lesson 2's tie exercise first: skipping it is no new view
    assert page.evaluate("history.length") == length
    news = lessons.presets()["news"]
    expect(main.get_by_text(f"Merge 1 of {news.merges}", exact=False)).to_be_visible()
    expect(main.get_by_text("Custom run", exact=False)).to_have_count(0)
    assert query(page.url) == {"preset": "news", "step": "1", "from": "bpe-training"}
    screenshot(page, "links-watch-a-tie")
    did(lambda: step_button(main, "Next").click())

    shown = {}
    for url in reversed(views[:-1]):
        page.go_back()
        page.wait_for_url(url)
        settle(page)
        shown[url] = query(page.url)
        if "Train_step_by_step" in url:  # the view is the address's: the step and merges it names
            q = query(url)
            step = int(q.get("step", 0))
            merges = int(q.get("merges", news.merges if q.get("preset") == "news" else lessons.presets()["chai"].merges))
            expect(main.get_by_text(f"Merge {step} of {merges}" if step else "Step 0 of", exact=False).first
                   ).to_be_visible()
    assert list(shown) == list(reversed(views[:-1]))  # one press per view, in order, and none repeated


@pytest.mark.parametrize("size", ["projector"])
def test_the_address_is_a_link_to_the_view_on_screen(fresh_context, visit, size) -> None:
    """Classroom mode on a projector: a lesson part's link to English vs Hindi, then a change there; the
    address, pasted into a fresh browser, opens the same view with the same way back to the lesson part."""
    context, other = fresh_context(size), fresh_context(size)
    for c in (context, other):
        c.set_default_timeout(COLD_MS)
    page = visit(context, "Lessons", "lesson=english-vs-hindi&classroom=1")
    main = main_area(page)
    for _ in range(40):
        link = main.get_by_role("link", name=re.compile("^Slide the share of Hindi"))
        if link.count():
            break
        step_button(main, "Next").click()
        settle(page)
    part = query(page.url)["step"]
    click_link(page, link)
    past_the_questions(page)
    landed = query(page.url)
    assert landed == {"k": "1", "budget": "100", "from": f"english-vs-hindi.{part}", "classroom": "1", "large": "1"}
    back = back_link(page)
    assert query(back.get_attribute("href")) == {"lesson": "english-vs-hindi", "step": part, "classroom": "1",
                                                 "large": "1"}
    screenshot(page, "links-classroom-landed")
    main.locator('input[type=range][aria-label^="Hindi copies k"]').press("ArrowRight")  # a notch more Hindi
    settle(page)
    assert query(page.url) == {**landed, "k": "2"}
    widgets, address = snapshot(page), page.url

    pasted = visit(other, urlsplit(address).path, urlsplit(address).query)
    past_the_questions(pasted)
    assert query(pasted.url) == query(address)
    screenshot(pasted, "links-classroom-pasted")
    assert snapshot(pasted) == widgets
    assert query(back_link(pasted).get_attribute("href")) == query(back.get_attribute("href"))

    click_link(page, back)  # and the way back opens that part of the lesson
    expect(main.get_by_text(f"Part {int(part) + 1} of", exact=False)).to_be_visible()


# -- predict first: no link shows the answer of an exercise after it --------------------------------------------------
READ_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const away = (el) => !el.getClientRects().length
    || el.closest('[class*="st-key-exercise-"], .st-key-tl-ask-first, [data-testid="stSidebar"]');
  const text = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (el && n.textContent.trim() && !away(el) && !el.closest('style,script')) text.push(n.textContent);
  }
  const rows = [...main.querySelectorAll('.tl-chips[role="list"]')].filter(r => !away(r))
    .map(r => [...r.querySelectorAll('.tl-chip .tl-text')].map(t => t.textContent));
  const metrics = [...main.querySelectorAll('[data-testid="stMetric"]')].filter(m => !away(m)).map(m => [
    (m.querySelector('[data-testid="stMetricLabel"]') || m).innerText.trim(),
    (m.querySelector('[data-testid="stMetricValue"]') || m).innerText.trim()]);
  const tables = [...main.querySelectorAll('[data-testid="stTable"] tr')].filter(r => !away(r))
    .map(r => [...r.cells].map(c => c.innerText.trim()));
  const merges = [...main.querySelectorAll('.tl-step, .tl-merge')].filter(m => !away(m))
    .map(m => [...m.querySelectorAll('.tl-chip .tl-text')].map(t => t.textContent));
  return {text: text.join(' '), rows, metrics, tables, merges};
}"""

#: Exercise operations whose answer the journey cannot read off a page's text (a word meeting a rule, a silent count
#: in a stream, a check's verdict, a ratio of characters per window): they are left to the checker's model.
UNREAD = {"word_splits_into", "stream_silent", "chunks_silent", "presend", "decoding_steps", "window_chars", "ratio"}


def _shown_tokens(tokenizer: str, text: str) -> list[str]:
    from lessons.exercises import tokenizer_for
    from tokenizer.plaintext import visible_token

    return [visible_token(t.label) for t in tokenizer_for(tokenizer).encode_tokens(text)]


def _in_rows(tokens: list[str], rows: list[list[str]]) -> bool:
    """The tokens drawn side by side in a row of chips (the first may carry the space before it, ·)."""
    n = len(tokens)
    for row in rows:
        for i in range(len(row) - n + 1):
            if row[i].lstrip("·") == tokens[0].lstrip("·") and row[i + 1 : i + n] == tokens[1:]:
                return True
    return False


def _character_column(tables: list[list[str]]) -> list[list[str]]:
    """Bytes per character's table of code points, one per row: its "character" column, as one row of text."""
    header = next((i for i, row in enumerate(tables) if "character" in row), None)
    if header is None:
        return []
    col = tables[header].index("character")
    return [[row[col] for row in tables[header + 1:] if len(row) > col]]


def _count_shown(tokenizer: str, text: str, seen: dict) -> bool:
    from lessons.exercises import tokenizer_for

    n, name = len(_shown_tokens(tokenizer, text)), tokenizer_for(tokenizer).name
    in_table = any(any(tokenizer in cell or name in cell for cell in row) and f"{n:,}" in row
                   for row in seen["tables"])
    return in_table or _in_rows(_shown_tokens(tokenizer, text), seen["rows"])


def _merge_shown(pair: str, seen: dict) -> bool:
    """A merge announced (Train's step, a merge line: [left] + [right] → [new]) or listed in a table of merges."""
    left, _, right = pair.partition(" + ")
    return (any(chips[:2] == [left, right] for chips in seen["merges"])
            or any(pair in row for row in seen["tables"]))


def _pair_in_prose(args: dict, text: str) -> bool:
    """Both counts of a premium said in a sentence ("costs 47 tokens in GPT-4 (cl100k_base) … (English: 11 …)")."""
    tok = args["tokenizer"]
    hi, en = (len(_shown_tokens(tok, args[k])) for k in ("hi", "en"))
    return (re.search(rf"\b{hi:,} tokens? in [^,.;]*\({re.escape(tok)}\)", text) is not None
            and re.search(rf"\(English: [^)]*\b{en:,}\b", text) is not None)


def answer_shown(exercise, seen: dict) -> bool:
    """Whether what a page draws (``READ_JS``) gives ``exercise``'s answer away, read as a learner reads it: the
    tokens in a row of chips, a count in a table row beside its tokenizer, a figure as the lab writes it, a merge's
    pair, a text's characters in the code-point table."""
    from analyses.cost import rupees
    from lessons.exercises import compute
    from tokenizer.plaintext import visible_token

    op, args = exercise.op, exercise.args
    answer = compute(op, args).answer
    if op in ("count_tokens", "split", "tokens_per_word", "partial_tokens"):
        drawn = _in_rows(_shown_tokens(args["tokenizer"], args["text"]), seen["rows"])
        if op == "count_tokens":
            drawn = drawn or _count_shown(args["tokenizer"], args["text"], seen)
        if op == "partial_tokens":
            drawn = drawn or any(("Partial" in label or "Not whole" in label) and value == f"{answer:,}"
                                 for label, value in seen["metrics"])
        return drawn
    if op == "direction":
        return all(_count_shown(args[k], args["text"], seen) for k in ("before", "after"))
    if op == "compare_texts":
        return all(_count_shown(args["tokenizer"], args[k], seen) for k in ("first", "second"))
    if op == "join_difference":
        a, b = args["first"], args["second"]
        return all(_count_shown(args["tokenizer"], t, seen) for t in (a, b, a + b))
    if op == "premium":
        return f"{answer:.2f}×" in seen["text"] or _pair_in_prose(args, seen["text"])
    if op in ("merge_at", "wordpiece_at", "replay_merge", "token_parts"):
        return _merge_shown(answer, seen)
    if op == "replay_steps":
        return re.search(rf"\bStep \d+ of {answer}\b|\b{answer} merges? will fire", seen["text"]) is not None
    if op in ("script_tokens", "script_band"):
        n = compute("script_tokens", args).answer
        return any(args["tokenizer"] in label and label.endswith(f"{args['script']} tokens") and value == f"{n:,}"
                   for label, value in seen["metrics"])
    if op == "merge_order":
        return all(_merge_shown(pair, seen) for pair in answer)
    if op in ("utf8_bytes", "code_points", "graphemes"):
        label = {"utf8_bytes": "UTF-8 bytes", "code_points": "Code points", "graphemes": "Grapheme clusters"}[op]
        stated = any(lbl == label and value == f"{answer:,}" for lbl, value in seen["metrics"])
        return stated or _in_rows([visible_token(ch) for ch in args["text"]], _character_column(seen["tables"]))
    if op == "whitespace_pieces":
        return f"{answer:,} word" in seen["text"]
    if op in ("article_cost", "month_cost", "presend_cost"):
        return rupees(answer) in seen["text"]
    if op == "window_fit":
        lang = {"hindi": "Hindi", "english": "English"}[args["language"]]
        return any(label.startswith(lang) and "fit" in label and value == f"{answer:,}"
                   for label, value in seen["metrics"])
    raise AssertionError(f"the journey reads no answer of op {op!r}: add it to answer_shown or UNREAD")


def lesson_walk(lesson) -> list[tuple[str, object, object]]:
    """A lesson in the order a learner meets it: its links into the lab, then each exercise and its own link."""
    out = [("link", link, None) for link in lesson.tries]
    for exercise in lesson.exercises:
        out.append(("exercise", None, exercise))
        if exercise.view is not None:
            out.append(("link", exercise.view, exercise))
    return out


#: Pages that ask their own questions before their view (views/english_hindi.py's "Skip, show me"), for the session.
ASKS_ITS_OWN = ("English_vs_Hindi",)


def test_the_course_has_its_lesson_links() -> None:
    assert len(lesson_links()) >= 60, "the course has fewer lesson -> lab links than it had (72)"


@pytest.mark.parametrize("lesson", course().lessons, ids=lambda lesson: lesson.id)
def test_every_link_in_lesson_order_is_its_whole_view_gives_no_answer_away_and_links_back(
        fresh_context, visit, lesson) -> None:
    """The issue's journeys, lesson by lesson as a learner walks it, inside ONE browser session (1920x1080, large
    type: tables as text). Each page the lesson links to is first changed away from its defaults (and so from most
    links); then each link is followed in turn and each exercise answered when it comes.

    - The address is exactly the link's (its settings, where it came from, large type kept), nothing kept from the
      changed page; the page's link back names the lesson and opens it; a fresh session shows the same widgets
      for that address (the link's settings, the rest at their defaults: fresh_session_widgets).
    - A link whose page shows answers asks exactly the exercises of its `ask` not answered yet, before the page draws
      anything else; its view (skipped to, to look) shows every one of them it can be read off, and no answer of an
      exercise still to come that it does not ask. A link that asks nothing shows no such answer either."""
    walk = lesson_walk(lesson)
    links = [item for kind, item, _ in walk if kind == "link"]
    pages = list(dict.fromkeys(item.page for item in links))
    context = fresh_context("projector")
    context.set_default_timeout(COLD_MS)
    page = visit(context, "Lessons", f"lesson={lesson.id}&large=1")
    heading = main_area(page).get_by_role("heading", name=f"{lesson.number}. {lesson.title}", exact=True)
    landed: dict[str, list[str]] = {}  # address -> widgets

    def change_then_back(changed: list[str]) -> None:
        for url_path in changed:
            sidebar(page, next(e.title for e in PAGES if e.url_path == url_path))
            change(page, url_path)
        sidebar(page, "Lessons")
        if not heading.count():
            main_area(page).get_by_role("button", name=re.compile(rf"^{lesson.number}\. ")).click()
            settle(page)
        expect(heading).to_be_visible(timeout=COLD_MS)  # the lesson's first run: long on a busy machine (CI)

    def look_and_go_back(item, where: str) -> None:
        """On a followed link's page: its questions skipped, the address is still the link's, the widgets are
        what this address showed before; the link back names the lesson and opens it. A page that asks its own
        questions keeps them during the walk (its widgets are looked at in the second pass)."""
        address = {**item.params, "from": lesson.id, "large": "1"}
        if item.page not in ASKS_ITS_OWN or item.page not in pending:
            past_the_questions(page)  # English vs Hindi's own two questions too, to see its widgets
            assert query(page.url) == address, where
            shown = snapshot(page)
            assert landed.setdefault(page.url, shown) == shown, where
        assert query(page.url) == address, where
        back = back_link(page)
        expect(back).to_contain_text(f"In the lessons: {lesson.number}. {lesson.title}")
        assert query(back.get_attribute("href")) == {"lesson": lesson.id, "large": "1"}, where

    def back_to_the_lesson(where: str) -> None:
        click_link(page, back_link(page), f"{where}, back")
        assert query(page.url)["lesson"] == lesson.id, where
        expect(heading).to_be_visible(timeout=COLD_MS)

    # A page that asks its own questions first shows the view they are about until they are answered or skipped,
    # for the session: it is changed (its questions skipped) after the walk, and its links followed again.
    pending = [p for p in pages if p in ASKS_ITS_OWN]
    change_then_back([p for p in pages if p not in pending])

    answered: set[str] = set()
    for at, (kind, item, exercise) in enumerate(walk):
        if kind == "exercise":
            answer(page, lesson, exercise)
            answered.add(exercise.id)
            continue
        where = f"{lesson.id} → {item.page} {item.params} ({item.label})"
        click_link(page, find_link(page, lesson, exercise, item), where)
        assert urlsplit(page.url).path.endswith("/" + item.page), where
        assert query(page.url) == {**item.params, "from": lesson.id, "large": "1"}, where

        asked = [e for e in lesson.exercises if e.id in item.ask and e.id not in answered]
        gate = main_area(page).locator(".st-key-tl-ask-first")
        if asked:
            try:
                gate.wait_for(state="visible", timeout=10_000)
            except Exception:  # noqa: BLE001 - Playwright's timeout: say which link
                pytest.fail(f"{where}: the page did not ask {[e.id for e in asked]} first ({page.url})")
            boxes = gate.locator('[class*="st-key-exercise-"]')
            expect(boxes).to_have_count(len(asked))
            for box, e in zip(boxes.all(), asked):
                assert f"st-key-exercise-{lesson.id}-{e.id}" in box.get_attribute("class"), where
            seen = page.evaluate(READ_JS)
            assert not seen["rows"] and not seen["metrics"] and not seen["tables"], f"{where}: drawn before asking"
            if lesson.number == 1 and item is lesson.tries[0]:
                screenshot(page, "links-predict-first")
            past_the_questions(page, own=False)  # to look at the view; a page's own questions stay (they ask first)
        else:
            expect(gate).to_have_count(0)
        seen = page.evaluate(READ_JS)
        own = exercise.id if exercise is not None else ""
        for e in lesson.exercises:
            if e.id in answered or e.id == own or e.op in UNREAD:
                continue
            shown = answer_shown(e, seen)
            if e in asked:
                assert shown, f"{where}: asks exercise {e.id!r}, but its view does not show its answer"
            else:
                assert not shown, f"{where}: shows the answer of exercise {e.id!r}, which comes after it, unasked"

        look_and_go_back(item, where)
        if item is links[0]:
            screenshot(page, f"links-landed-{lesson.id}")
        # The next link to this page has the same settings: change the page away from them first.
        following = next((it for k, it, _ in walk[at + 1:] if k == "link" and it.page == item.page), None)
        if following is not None and following.params == item.params:
            change(page, where)
        back_to_the_lesson(where)

    later, pending[:] = list(pending), []
    if later:
        change_then_back(later)
        for kind, item, exercise in walk:
            if kind == "link" and item.page in later:
                where = f"{lesson.id} → {item.page} {item.params} ({item.label}), after {item.page} was changed"
                click_link(page, find_link(page, lesson, exercise, item), where)
                look_and_go_back(item, where)
                back_to_the_lesson(where)

    # A fresh session shows the same widgets for each address: the landing views were the links' settings with
    # everything else at its default, not what the session had kept (fresh_session_widgets: a fresh session in AppTest).
    for url, widgets in landed.items():
        assert fresh_session_widgets(url) == widgets, url
