"""Journey: a class in two languages, in Chromium. The teacher projects in Hindi (1920x1080, large type), a learner
on a phone reads Hindi (390x844) and one on a laptop English: the teacher poses Cost's window question (one of the
lab's own), each learner reads it in their language, both send the same number, and the projector counts them in
one bar; after Reveal each reads the lab's answer in theirs. Devanagari drawn with a Devanagari font, nothing cut off
on the projector or the phone. Screenshots (with LAB_SCREENSHOTS=1): artifacts/screenshots/journey-class-hindi-*.png.
"""

from __future__ import annotations

from playwright.sync_api import expect

from analyses.cost import window_fit
from i18n import using
from tests.browser.browser_helpers import (
    CLASS_LIVE_MS,
    class_bar,
    cut_off,
    join_class,
    main_area,
    open_in,
    screenshot,
    settle,
    skip_without_browser,
    uses_devanagari_font,
    wait_for_streamlit,
)
from ui.questions import fit_question

skip_without_browser()

LIVE_MS = CLASS_LIVE_MS


def test_a_class_in_two_languages(streamlit_server, fresh_context) -> None:
    server = streamlit_server
    teacher = open_in(fresh_context("projector"), server, "Class?large=1&lang=hi")
    main_area(teacher).get_by_role("textbox", name="कक्षा का शीर्षक").fill("टोकनाइज़र, हफ़्ता 3")
    main_area(teacher).get_by_role("button", name="कक्षा शुरू कीजिए").click()
    code_box = main_area(teacher).locator(".tl-class-code")
    expect(code_box).to_be_visible()
    settle(teacher)
    code = code_box.inner_text().strip()
    expect(main_area(teacher).get_by_text("आपकी कक्षा तैयार है।", exact=False)).to_be_visible()
    assert uses_devanagari_font(teacher, ".tl-class-title")
    assert cut_off(teacher) == []
    teacher.evaluate("document.fonts.ready")
    screenshot(teacher, "journey-class-hindi-projector-started")

    asha = open_in(fresh_context("phone"), server, f"Class?code={code}&lang=hi")
    join_class(asha, "Asha", code, "hi")
    expect(main_area(asha).get_by_text("स्वागत है, Asha।", exact=False)).to_be_visible(timeout=LIVE_MS)
    ben = open_in(fresh_context("laptop"), server, f"Class?code={code}")
    join_class(ben, "Ben", code)
    expect(main_area(ben).get_by_text("Welcome, Ben.", exact=False)).to_be_visible(timeout=LIVE_MS)
    asha.evaluate("document.fonts.ready")
    screenshot(asha, "journey-class-hindi-phone-joined")
    assert cut_off(asha) == []

    # The teacher opens Cost and context (in Hindi) and poses its window question.
    teacher.goto(f"{server.base_url}/Cost_and_context?large=1&lang=hi")
    wait_for_streamlit(teacher)
    # (a new page load is a new session: the teacher's browser is the teacher again by its own key, a cookie)
    pose = main_area(teacher).get_by_role("button", name="कक्षा से पूछिए").first
    pose.click()
    settle(teacher)
    fit = window_fit(1500, window=8000, output_cap=300, margin=50)
    with using("hi"):
        hindi = fit_question(fit)
    with using("en"):
        english = fit_question(fit)
    expect(class_bar(teacher).get_by_text("2 में से 0")).to_be_visible(timeout=LIVE_MS)

    expect(class_bar(asha).get_by_text(hindi.prompt[:40], exact=False)).to_be_visible(timeout=LIVE_MS)
    expect(class_bar(ben).get_by_text(english.prompt[:40], exact=False)).to_be_visible(timeout=LIVE_MS)
    assert hindi.prompt[:40] not in class_bar(ben).inner_text()
    for page, send in ((asha, "मेरा जवाब भेजिए"), (ben, "Send my answer")):
        class_bar(page).locator("input").first.fill(str(english.answer))
        class_bar(page).locator("input").first.press("Enter")
        settle(page)
        class_bar(page).get_by_role("button", name=send).click()
        settle(page)
    expect(class_bar(asha).get_by_text("आपका जवाब:", exact=False)).to_be_visible(timeout=LIVE_MS)
    asha.evaluate("document.fonts.ready")
    screenshot(asha, "journey-class-hindi-phone-answered")
    assert cut_off(asha) == []
    expect(class_bar(teacher).get_by_text("2 में से 2")).to_be_visible(timeout=LIVE_MS)
    class_bar(teacher).get_by_role("button", name="जवाब दिखाइए").click()
    expect(class_bar(teacher).locator('[data-testid="stVegaLiteChart"]')).to_be_visible(timeout=LIVE_MS)
    class_bar(teacher).get_by_role("button", name="सही जवाब बताइए").click()
    expect(class_bar(teacher).get_by_text(f"लैब का जवाब: {english.answer}।")).to_be_visible(timeout=LIVE_MS)
    teacher.evaluate("document.fonts.ready")
    screenshot(teacher, "journey-class-hindi-projector-revealed")
    assert cut_off(teacher) == []
    expect(class_bar(asha).get_by_text(f"लैब का जवाब: {english.answer}।", exact=False)).to_be_visible(timeout=LIVE_MS)
    expect(class_bar(ben).get_by_text(f"The lab's answer: {english.answer}.", exact=False)).to_be_visible(timeout=LIVE_MS)
    asha.evaluate("document.fonts.ready")
    screenshot(asha, "journey-class-hindi-phone-revealed")
    assert cut_off(asha) == []

    # Back on the Class page: the teacher's own questions and the dashboard, in Hindi, on the projector.
    teacher.goto(f"{server.base_url}/Class?large=1&lang=hi")
    wait_for_streamlit(teacher)
    main_area(teacher).get_by_text("आपके अपने सवाल (जवाब लैब निकालती है)").click()
    main_area(teacher).get_by_role("textbox", name="टेक्स्ट").fill("नमस्ते, chai")
    main_area(teacher).get_by_role("textbox", name="टेक्स्ट").press("Control+Enter")
    settle(teacher)
    expect(main_area(teacher).get_by_text("सवाल, जैसा आपके विद्यार्थी पढ़ेंगे")).to_be_visible(timeout=LIVE_MS)
    teacher.evaluate("document.fonts.ready")
    screenshot(teacher, "journey-class-hindi-projector-own-question", full_page=True)
    assert cut_off(teacher) == []
    main_area(teacher).get_by_text("शिक्षक का डैशबोर्ड (नाम: प्रोजेक्टर के लिए नहीं)").click()
    expect(main_area(teacher).locator('[data-testid="stDataFrame"]').first).to_be_visible(timeout=LIVE_MS)
    main_area(teacher).get_by_text("**हर पोल, दौर-दर-दौर**".strip("*")).scroll_into_view_if_needed()
    teacher.evaluate("document.fonts.ready")
    screenshot(teacher, "journey-class-hindi-projector-dashboard")
    assert cut_off(teacher) == []
