"""What a click changed stays in view; on a phone the sidebar gets out of the way after navigation.

Layout comes first: each page draws the result of its main control right under it (see the step
views). This module is the safety net for what layout alone cannot promise on every screen, one small
script installed once per browser tab by :func:`install` (``ui.frame.page_setup`` calls it):

- **The result of a click in view.** A control row drawn in a container keyed with :func:`action`
  (``tl-act-<name>``) and its result in a container keyed with :func:`result` (``tl-result-<name>``):
  after a click on a button of the row, once the run has finished and the result's size has settled (up to
  30 s: a run that opens a whole page takes a while; scrolling by hand, a press outside the result or another page
  meanwhile cancels it: the page never moves under a learner who has gone on; a press inside it once it is drawn and
  before it is brought holds it where it is, under the pointer, until the learner presses one of its buttons),
  the window scrolls just enough to show the whole result (or its top, when it is taller than the
  window), and not at all when it is already in view; it is brought back until it has stayed put for 8 s (30 s at most) if charts drawn after
  the run push it out. A question drawn in a container keyed with
  :func:`keep` (``tl-keep-<name>``), and a lesson exercise (keyed ``exercise-...``), is kept in view the same
  way after Check. Autoplay ticks and page loads never
  scroll: only a click does.
- **The arrow keys step.** ArrowRight and ArrowLeft press the buttons PageDown and PageUp press (a stepper's Next and
  Previous, ``ui.steps.KEYS``): a learner at a keyboard tries the arrows first, a teacher's clicker sends PageDown.
  Not while the learner types, nor where the arrows already mean something (a slider, a choice, tabs, a list, a
  table), nor with a modifier key held.
- **The sidebar closes after navigation on a narrow screen.** On a phone the sidebar covers most of
  the page; Streamlit closes it after its own page list, not after ``st.page_link``. After the address
  changes (a sidebar link, a lesson link, Back), a sidebar left open on a screen narrower than
  Streamlit's ``md`` breakpoint is closed with its own button.

Streamlit 1.67 runs the script of ``st.html(..., unsafe_allow_javascript=True)`` in the page itself (not
an iframe); the script guards itself so a second copy does nothing.
"""

from __future__ import annotations

import streamlit as st

ACTION_PREFIX = "tl-act-"
RESULT_PREFIX = "tl-result-"
KEEP_PREFIX = "tl-keep-"
#: The key prefix of a stepper's button bar (``ui.steps.Stepper.bar_key``): fixed at a phone screen's foot.
STEPBAR_PREFIX = "tl-stepbar-"
#: The keys that step (``ui.steps`` puts them on its buttons): the arrow keys press the buttons that carry them.
STEP_KEYS = {"previous": "PageUp", "next": "PageDown"}
#: Streamlit's "md" breakpoint: at or below this width the sidebar overlays the page.
NARROW_PX = 768

SCRIPT = """
<script>
(() => {
  if (window.__tlViewport) return;
  window.__tlViewport = true;
  const STAY_MS = 8000, NARROW = %(narrow)d, ACT = 'st-key-%(act)s', RES = 'st-key-%(res)s';
  const KEEP = ['st-key-%(keep)s', 'st-key-exercise-'];
  const keyOf = (el, prefix) => el && [...el.classList].find(c => c.startsWith(prefix));

  // -- the result of a click in view ------------------------------------------------------------------
  let pending = null;
  document.addEventListener('click', (event) => {
    // Streamlit's own buttons only (Next, Check, an example, a segmented control's choice): not a select box's
    // or a chart's little buttons
    const button = event.target.closest && event.target.closest('[data-testid="stMain"] button[data-testid^="stBaseButton"]'
      + ', [data-testid="stMain"] [data-testid="stButtonGroup"] button');
    if (!button) return;
    const act = button.closest('[class*="' + ACT + '"]');
    let target = null;
    if (act) target = '.' + RES + keyOf(act, ACT).slice(ACT.length).split('--')[0];  // many rows, one result
    else for (const prefix of KEEP) {
      const keep = button.closest('[class*="' + prefix + '"]');
      if (keep) { target = '.' + keyOf(keep, prefix); break; }
    }
    const control = act ? '.' + keyOf(act, ACT) : null;
    if (target) pending = wait(target, control);
    // Check pressed in a result held (below): its run's result is followed as the click's own would be
    else if (pending && pending.held && button.closest(pending.target)) pending = wait(pending.target, pending.control);
  }, true);

  // the click's run starting (seen by the looks below, by the app's run state: looks 80 ms apart miss a run of
  // 50 ms, a Next on a warm server; and by the result drawn anew): the 30 s count from the end of the run, and the
  // result is looked at anew
  const running = () => { pending.ran = true; pending.still = 0; pending.since = Date.now(); pending.brought = 0; };
  const scriptRunning = () => {  // the app's own run state (Streamlit's running icon can outlast it: see idle())
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.getAttribute('data-test-script-state') === 'running';
  };
  const app = document.querySelector('[data-testid="stApp"]');
  if (app) new MutationObserver(() => {
    if (pending && scriptRunning()) running();
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  // ...or by what it drew: a run's messages that reach a busy tab in one go are drawn in one render, and the run
  // state is never "running" on the page (a press inside the step a moment later was then not held). Watched from a
  // click until its run is seen, not while a page loads.
  const drawnInto = (records) => records.some(r => {
    const node = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
    return node && node.closest(pending.target);
  });
  const drawing = new MutationObserver((records) => {
    if (pending && !pending.ran && drawnInto(records)) running();
    if (!pending || pending.ran) drawing.disconnect();
  });
  const wait = (target, control) => {
    drawing.observe(document.body, {childList: true, characterData: true, subtree: true});
    return {target, control, since: Date.now(), clicked: Date.now(), ran: false, last: null, still: 0};
  };

  // the learner scrolls on their own meanwhile, or presses something elsewhere (a link, another button: its own
  // click, if it has a result, starts a new wait): leave the page where they put it, never move it under their
  // pointer. A press inside the result (a pair picked and checked on the step Next showed) is the learner working
  // on it: while the run is going or once the result has been brought, it is kept in view; drawn but not yet brought,
  // the learner is working on it where it is: it is held there, not moved from under the pointer, until the learner
  // presses one of its buttons (Check: what that run draws is brought into view as the click's own result would be).
  for (const type of ['wheel', 'touchmove', 'keydown']) {
    document.addEventListener(type, () => { pending = null; }, {capture: true, passive: true});
  }
  // (the run is over for the learner once the app's run state says so: Streamlit's running icon in the corner can
  // stay a moment longer on a busy machine, and a press then, on the step already drawn, was not held)
  document.addEventListener('pointerdown', (event) => {
    const inside = pending && event.target.closest && event.target.closest(pending.target);
    if (!inside) pending = null;
    else if (!pending.brought && !scriptRunning() && (pending.ran || Date.now() - pending.clicked >= 700)) pending.held = true;
  }, {capture: true, passive: true});

  const scroller = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const oy = getComputedStyle(p).overflowY;
      if ((oy === 'auto' || oy === 'scroll') && p.scrollHeight > p.clientHeight) return p;
    }
    return document.scrollingElement;
  };

  // Streamlit's header lies over the top of the page: what is under it is not in view
  const headerBottom = () => {
    const header = document.querySelector('[data-testid="stHeader"]');
    return header ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
  };

  // a phone's step bar is fixed at the screen's foot (ui/layout.py): what is under it is not in view either, and
  // Next is on screen whatever the scroll
  const stepBar = () => {
    const bar = document.querySelector('[class*="%(bar)s"]');
    return bar && getComputedStyle(bar).position === 'fixed' ? bar : null;
  };

  const bring = (el, controlSel) => {
    const bar = stepBar(), gap = 8, top = headerBottom();
    const r = el.getBoundingClientRect(), h = bar ? Math.min(window.innerHeight, bar.getBoundingClientRect().top)
      : window.innerHeight;
    if (r.top >= top && r.bottom <= h) return;
    // the whole result when it fits; when it is taller than the window, its top, with the control row above it
    // when that still leaves the result's start on screen (not needed when the step bar is fixed)
    let dy = Math.min(r.bottom - h + gap, r.top - top - gap);
    const control = !bar && controlSel && document.querySelector(controlSel);
    if (r.height > h - top - 2 * gap && control) {
      const c = control.getBoundingClientRect();
      if (c.top > top && r.top - c.top < h / 2) dy = Math.min(dy, c.top - top - gap);
    }
    if (dy > 0 || r.top < top) scroller(el).scrollBy({top: dy, left: 0, behavior: 'instant'});
  };

  const idle = () => !!document.querySelector('[data-testid="stApp"]') && !scriptRunning()
    && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]');

  setInterval(() => {
    if (!pending) return;
    if (Date.now() - pending.since > 30000) { pending = null; return; }  // no run, or a result that never settles
    if (pending.held) return;  // the learner is working on the result where it is (above)
    // the 30 s count from the end of the run: on a busy server a run that opens a whole page can take longer
    // (a click can lead to more than one run, e.g. a state change and then the page it opens: follow each)
    if (!idle()) { running(); return; }
    if (!pending.ran && Date.now() - pending.since < 700) return;  // the run has not started yet
    const el = document.querySelector(pending.target);
    if (!el) return;
    const r = el.getBoundingClientRect(), now = Math.round(r.top) + ':' + Math.round(r.height);
    pending.still = now === pending.last ? pending.still + 1 : 0;
    pending.last = now;
    if (pending.still < 2) return;  // unchanged three looks: settled
    bring(el, pending.control);
    // charts draw after the run has ended and can push the result down again, seconds later on a busy machine:
    // keep it in view until it has stayed put for STAY_MS (30 s at most; scrolling by hand or a press elsewhere ends this)
    const t = Date.now(), kept = el.getBoundingClientRect(), at = Math.round(kept.top) + ':' + Math.round(kept.height);
    pending.brought = pending.brought || t;
    if (at !== pending.kept) { pending.kept = at; pending.keptSince = t; }
    // done once it has stayed put for STAY_MS after the click's run (charts on a loaded 2-core machine drew more
    // than 2 s after the run); a run slow to start (a busy server) is waited for up to 30 s
    const started = pending.ran || t - pending.clicked > 30000;
    if ((started && t - pending.keptSince > STAY_MS) || t - pending.brought > 30000) pending = null;
  }, 80);

  // -- the arrow keys step: ArrowRight and ArrowLeft press what PageDown and PageUp press ------------------------
  const ARROWS = {ArrowRight: '%(next)s', ArrowLeft: '%(prev)s'};
  const OWN_ARROWS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="slider"], '
    + '[role="radiogroup"], [role="radio"], [role="tablist"], [role="tab"], [role="listbox"], [role="option"], '
    + '[role="combobox"], [role="menu"], [role="menuitem"], [role="grid"], [role="spinbutton"], '
    + '[data-testid="stDataFrame"], [data-testid="stVegaLiteChart"], canvas';
  document.addEventListener('keydown', (event) => {
    const key = ARROWS[event.key];
    if (!key || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (target && target.closest && target.closest(OWN_ARROWS)) return;  // typing, or the arrows move something there
    const button = [...document.querySelectorAll('[data-testid="stMain"] button')].find(
      b => b.querySelector('kbd[aria-label="Shortcut ' + key + '"]') && b.getClientRects().length);
    if (!button || button.disabled) return;
    event.preventDefault();  // the page does not scroll sideways as well
    button.click();
  });

  // -- a narrow screen: close the sidebar after navigation ---------------------------------------------
  let path = location.pathname, moved = 0, pageBg = '';
  setInterval(() => {
    const app = document.querySelector('[data-testid="stApp"]');  // the page's colour, for the fixed step bar
    const bg = app ? getComputedStyle(app).backgroundColor : '';
    if (bg && bg !== pageBg) {  // set once, and again only when the theme changes
      pageBg = bg;
      document.documentElement.style.setProperty('--tl-page-bg', bg);
    }
    if (location.pathname !== path) { path = location.pathname; moved = Date.now(); pending = null; }  // another page
    if (!moved || Date.now() - moved > 4000 || window.innerWidth > NARROW) return;
    const bar = document.querySelector('[data-testid="stSidebar"]');
    if (!bar || bar.getAttribute('data-collapsed') !== 'false') return;
    const close = bar.querySelector('[data-testid="stSidebarCollapseButton"] button')
      || document.querySelector('[data-testid="stSidebarCollapseButton"] button');
    if (close) { close.click(); moved = 0; }
  }, 100);
})();
</script>
""" % {  # noqa: UP031 - a JavaScript body is all braces
    "narrow": NARROW_PX, "act": ACTION_PREFIX, "res": RESULT_PREFIX, "keep": KEEP_PREFIX, "bar": STEPBAR_PREFIX,
    "next": STEP_KEYS["next"], "prev": STEP_KEYS["previous"]}


def action(name: str) -> str:
    """The container key for a page's main control row: a click there brings :func:`result` into view. Several
    rows may share one result: ``name--anything`` brings ``result(name)`` (each "Pose to the class" button brings
    the class bar)."""
    return ACTION_PREFIX + name


def result(name: str) -> str:
    """The container key for what the control row named ``name`` changes."""
    return RESULT_PREFIX + name


def keep(name: str) -> str:
    """The container key for a question and its verdict: after a click on one of its buttons (Check), it stays in
    view, wherever the run moved it."""
    return KEEP_PREFIX + name


def install() -> None:
    """Install the script (once per browser tab; call it in the sidebar, where it takes no room)."""
    st.html(SCRIPT, unsafe_allow_javascript=True)


__all__ = ["action", "install", "keep", "result"]
