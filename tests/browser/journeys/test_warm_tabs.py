"""The suite's browser contexts and tabs kept warm from test to test (browser_helpers.WarmTab): what a test gets is
what a new context or tab would give it, only the browser's cache of the lab's scripts kept. Not a journey; here for
the journeys' fixtures."""

from __future__ import annotations

from tests.browser.browser_helpers import SIZES, VIEWPORT, WarmTab, wait_for_streamlit

LEAVE_TRACES = """async () => {
  localStorage.setItem('left', '1');
  sessionStorage.setItem('left', '1');
  document.cookie = 'left=1; path=/; max-age=3600';
  await new Promise((done) => { const r = indexedDB.open('left'); r.onsuccess = () => { r.result.close(); done(); }; });
}"""
#: What a page finds of the tests before it, by name (the values of Streamlit's own cookie differ from visit to visit).
TRACES = """async () => ({local: Object.keys(localStorage).sort(), session: Object.keys(sessionStorage).sort(),
  cookies: document.cookie.split('; ').map((c) => c.split('=')[0]).filter(Boolean).sort(),
  databases: (await indexedDB.databases()).map((d) => d.name).sort()})"""


def _traces(page, url: str) -> dict:
    page.goto(url)
    wait_for_streamlit(page)
    return page.evaluate(TRACES)


def test_a_context_given_back_keeps_nothing_of_the_test_before(warm_contexts, browser, streamlit_server) -> None:
    url = f"{streamlit_server.base_url}/Tokenize_anything"
    new = browser.new_context(**SIZES["phone"])
    try:
        fresh = _traces(new.new_page(), url)  # what a new context finds
    finally:
        new.close()

    warm = warm_contexts.take("phone")
    tab = warm.context.pages[0]
    for path in ("Tokenize_anything", "Train_step_by_step"):
        tab.goto(f"{streamlit_server.base_url}/{path}")
        wait_for_streamlit(tab)
    tab.evaluate(LEAVE_TRACES)
    tab.set_viewport_size({"width": 500, "height": 500})
    warm.context.new_page().goto(f"{streamlit_server.base_url}/Bytes_per_character")
    warm.context.set_default_timeout(123_456)
    warm_contexts.give_back(warm)

    again = warm_contexts.take("phone")
    try:
        assert again is warm and again.context.pages == [tab]  # the same context and tab: kept warm
        assert tab.url == "about:blank" and again.context.cookies() == []
        assert tab.viewport_size == SIZES["phone"]["viewport"]
        assert _traces(tab, url) == fresh
        assert tab.evaluate("history.length") == 2  # about:blank, then this page: nothing of the test before
    finally:
        warm_contexts.give_back(again)


def test_a_context_a_test_changed_for_good_is_not_kept(warm_contexts) -> None:
    for change in (lambda context: context.add_init_script("window.changed = 1"),
                   lambda context: context.route_web_socket("**/never", lambda ws: None),
                   lambda context: context.pages[0].on("dialog", lambda dialog: dialog.dismiss()),
                   lambda context: context.close()):
        warm = warm_contexts.take("laptop")
        change(warm.context)
        warm_contexts.give_back(warm)
        again = warm_contexts.take("laptop")
        assert again is not warm and warm.closed
        warm_contexts.give_back(again)


def test_open_pages_first_tab_is_kept_and_emptied(open_page, warm_tab, streamlit_server) -> None:
    """open_page's tabs share one context, whose cookies and local storage the tests have always shared: the kept
    tab is emptied of what is the tab's own (its session storage, history and size)."""
    page = open_page("Tokenize_anything", "warm-tab-first")
    assert warm_tab and page is warm_tab[0].tab  # a test's first tab is the one kept
    assert open_page("Tokenize_anything", "warm-tab-second") is not page  # its second is a new one
    page.evaluate("() => sessionStorage.setItem('left', '1')")
    page.goto(f"{streamlit_server.base_url}/Train_step_by_step")
    page.set_viewport_size({"width": 500, "height": 500})
    warm_tab[0].reset(clear_storage=False)
    assert page.url == "about:blank" and page.viewport_size == VIEWPORT
    page.goto(f"{streamlit_server.base_url}/Tokenize_anything")
    wait_for_streamlit(page)
    assert page.evaluate("() => [sessionStorage.length, history.length]") == [0, 2]  # about:blank, this page


def test_a_tab_a_test_gave_an_event_handler_is_not_kept(browser_context) -> None:
    warm = WarmTab(browser_context, SIZES["laptop"]["viewport"], own_context=False)
    assert warm.reusable()
    warm.tab.on("dialog", lambda dialog: dialog.dismiss())
    assert not warm.reusable()
    warm.tab.close()
