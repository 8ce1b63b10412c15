"""Step controls: First / Previous / Next / Last, a slider, and autoplay. One copy for every page that steps.

A page that walks through something one step at a time (training merges,
encoding merges, a stream of tokens, a lesson) makes one :class:`Stepper`
and calls :meth:`Stepper.draw` where the buttons go; it returns the step to
show. The step lives in the URL (``?step=3``) through :mod:`ui.state`, so a
link opens on the same step.

Put the stepper and the view of the step inside one ``st.fragment``: a click
on Next then reruns only that part of the page, which keeps a classroom's
clicks cheap. Autoplay uses the same fragment: the page passes
:meth:`Stepper.run_every` as the fragment's ``run_every``, and each tick moves
one step on. A fragment's ``run_every`` is fixed when the whole page runs, and
the Autoplay switch sits inside the fragment (a click on it reruns only the
fragment), so the stepper asks for one whole-page rerun when autoplay starts
or stops: the fragment is then registered again, ticking or not.

Semantics every page keeps: step 0 is the start (nothing has happened yet),
step ``n`` the end; Next at the end and Previous at the start are disabled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from i18n import N_, _
from ui import state
from ui.layout import SKIP_TARGET
from ui.viewport import STEP_KEYS, STEPBAR_PREFIX

#: The keys that step (Streamlit's ``shortcut=``, drawn on the button): what a presentation clicker sends, and
#: what moves a slide in a slideshow. Streamlit ignores them while the learner types in a text box. ArrowRight and
#: ArrowLeft press the same buttons (ui/viewport.py's script), except where the arrows move something else.
KEYS = STEP_KEYS
#: The names of a stepper's buttons (``Stepper.key(name)`` is each one's session key).
BUTTONS = ("first", "prev", "next", "last")
# The anchor the skip link lands on. The key on a button is in its label's colour, a little lighter (Streamlit's
# own faded tint on the primary button is 3.2:1, under axe-core's 4.5:1); a phone has no keys: not named there.
_ANCHOR_HTML = f"""<style>[data-testid="stMain"] button kbd[aria-label^="Shortcut "] {{ color: inherit; opacity: .85; }}
@media (max-width: 640px) {{ [data-testid="stMain"] button kbd[aria-label^="Shortcut "] {{ display: none; }} }}</style>
<span class="tl-anchor" id="{SKIP_TARGET}"></span>"""


@dataclass(frozen=True)
class Stepper:
    """Step controls for one page. ``param`` is the page's step setting (kept in the URL)."""

    param: state.Param
    autoplay_seconds: float = 1.5
    #: English, marked for the catalogue (``N_``): each is translated where its button is drawn.
    names: tuple[str, str, str, str] = (N_("First"), N_("Previous"), N_("Next"), N_("Last"))

    @property
    def page(self) -> str:
        return self.param.page

    def key(self, name: str) -> state.Key:
        """The :class:`ui.state.Key` of one of its buttons, by name: "first", "prev", "next" or "last"."""
        if name not in (*BUTTONS, "autoplay"):
            raise KeyError(f"a stepper has no button {name!r}; its buttons are {', '.join(BUTTONS)}")
        return state.Key(self.page, name)

    @property
    def autoplay(self) -> state.Key:
        """The Autoplay switch's key."""
        return state.Key(self.page, "autoplay")

    @property
    def last_tick(self) -> state.Key:
        """When autoplay last moved a step on (``time.monotonic()``)."""
        return state.Key(self.page, "_autoplay_last")

    @property
    def autoplay_key(self) -> str:
        return self.autoplay.skey

    @property
    def _last_tick(self) -> str:
        return self.last_tick.skey

    # -- state ------------------------------------------------------------------------------
    def value(self) -> int:
        step = st.session_state.get(self.param.skey, 0)
        return step if isinstance(step, int) and step >= 0 else 0

    def set(self, step: int) -> None:
        st.session_state[self.param.skey] = max(0, int(step))

    def reset(self) -> None:
        """Back to step 0, autoplay off (call from on_change of whatever defines the steps)."""
        self.set(0)
        st.session_state[self.autoplay_key] = False

    def clamp(self, n_steps: int) -> int:
        """Keep the step inside 0..n_steps (a link or a smaller budget can push it out)."""
        step = min(self.value(), n_steps)
        self.set(step)
        return step

    def playing(self) -> bool:
        return bool(st.session_state.get(self.autoplay_key))

    @property
    def _ticking(self) -> str:
        return f"{self.page}._ticking"

    @property
    def _stopped_note(self) -> str:
        return f"{self.page}._autoplay_stopped"

    def run_every(self) -> float | None:
        """The ``run_every`` for the fragment that holds this stepper: ticks only while autoplay is on.

        Call it when the fragment is created (each whole-page run); the stepper remembers whether the
        fragment it draws in is ticking.
        """
        st.session_state[self._ticking] = self.playing()
        return self.autoplay_seconds if self.playing() else None

    def _sync_ticking(self, stopped: str | None) -> None:
        """Autoplay was switched on or off inside the fragment: rerun the whole page, so the fragment
        starts (or stops) ticking. A page that never called :meth:`run_every` is left alone."""
        ticking = st.session_state.get(self._ticking)
        if ticking is None or ticking == self.playing():
            return
        if stopped:
            st.session_state[self._stopped_note] = stopped  # shown after the rerun
        st.session_state[self._ticking] = self.playing()
        st.rerun(scope="app")

    # -- callbacks -----------------------------------------------------------------------------
    def _go(self, target: str, n_steps: int) -> None:
        step = self.value()
        new = {"first": 0, "previous": step - 1, "next": step + 1, "last": n_steps}[target]
        self.set(max(0, min(n_steps, new)))

    def _autoplay_changed(self, n_steps: int) -> None:
        """Turning autoplay on at the end starts again from the beginning."""
        if self.playing():
            if self.value() >= n_steps:
                self.set(0)
            st.session_state[self._last_tick] = time.monotonic()

    def _tick(self, n_steps: int) -> str | None:
        """While autoplay is on, move one step on per tick; stop at the end. Returns a message when it stops."""
        if not self.playing():
            return None
        now = time.monotonic()
        if now - st.session_state.get(self._last_tick, 0.0) >= self.autoplay_seconds * 0.8:
            st.session_state[self._last_tick] = now
            if self.value() < n_steps:
                self.set(self.value() + 1)
        if self.value() >= n_steps:
            st.session_state[self.autoplay_key] = False
            return _("Autoplay stopped at the end.")
        return None

    # -- drawing -------------------------------------------------------------------------------
    @property
    def bar_key(self) -> str:
        """The key of the container around the four buttons: on a phone it is a bar fixed at the screen's foot, so
        Next stays under the thumb while the learner reads down the step (``ui.layout``'s base CSS)."""
        return STEPBAR_PREFIX + self.page

    def _buttons(self, step: int, n_steps: int) -> None:
        first, previous, nxt, last = (_(name) for name in self.names)
        st.button(first, key=self.key("first").skey, icon=":material/first_page:", on_click=self._go,
                  args=("first", n_steps), disabled=step == 0)
        st.button(previous, key=self.key("prev").skey, icon=":material/chevron_left:", on_click=self._go,
                  args=("previous", n_steps), disabled=step == 0, shortcut=KEYS["previous"])
        st.button(nxt, key=self.key("next").skey, icon=":material/chevron_right:", on_click=self._go,
                  args=("next", n_steps), disabled=step >= n_steps, type="primary", shortcut=KEYS["next"])
        st.button(last, key=self.key("last").skey, icon=":material/last_page:", on_click=self._go,
                  args=("last", n_steps), disabled=step >= n_steps)

    def draw(
        self,
        n_steps: int,
        *,
        slider: str | None = None,
        autoplay: bool = True,
        autoplay_disabled: bool = False,
        extra: Callable[[], None] | None = None,
        label: str = "",
    ) -> int:
        """Draw the buttons (and a slider with the label ``slider``, if given); return the step to show.

        ``extra`` draws more controls on the same row (e.g. a "Predict first" toggle).
        ``label`` is written at the start of the row (e.g. "Merge 3 of 7").
        """
        stopped = self._tick(n_steps) if autoplay and not autoplay_disabled else None
        if autoplay_disabled:
            st.session_state[self.autoplay_key] = False
        self._sync_ticking(stopped)
        stopped = stopped or st.session_state.pop(self._stopped_note, None)
        step = self.clamp(n_steps)
        st.html(_ANCHOR_HTML)  # the skip link lands here (ui/layout.py)
        with st.container(horizontal=True, vertical_alignment="center", gap="small"):
            if label:
                st.markdown(label, width="content")
            with st.container(horizontal=True, vertical_alignment="center", gap="small", width="content",
                              key=self.bar_key):  # on a phone: a bar fixed at the screen's foot (ui/layout.py)
                self._buttons(step, n_steps)
            if extra is not None:
                extra()
            if autoplay:
                st.toggle(
                    _("Autoplay"),
                    key=self.autoplay_key,
                    on_change=self._autoplay_changed,
                    args=(n_steps,),
                    disabled=autoplay_disabled,
                    help=_("Step forward every {seconds} seconds until the end.",
                           seconds=format(self.autoplay_seconds, "g"))  # 1.5: never grouped
                    + (_(" (Off while you predict.)") if autoplay_disabled else ""),
                )
        if slider and n_steps > 0:
            st.slider(slider, min_value=0, max_value=n_steps, key=self.param.skey)
            step = min(self.value(), n_steps)
        if stopped:
            st.toast(stopped)
        return step


__all__ = ["Stepper"]
