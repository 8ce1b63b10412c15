"""How a page is shown, as one object a view passes down (rather than a ``large`` flag threaded through its
functions and ``classroom_on()`` read here and there): large type (laid out for a 1920x1080 projector) and classroom
mode (fewer controls: the results are the slide, the settings folded away).

    show = Show.now()                  # in the page, once
    with show.folded("Change the numbers"):
        ...                            # a closed box in classroom mode, in place otherwise
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass


@dataclass(frozen=True)
class Show:
    """``large``: large type is on (a projector); ``classroom``: classroom mode is on (large type, fewer controls)."""

    large: bool = False
    classroom: bool = False

    @classmethod
    def now(cls) -> Show:
        """How this run of the page is shown (the sidebar's switches, or ``?large=1`` / ``?classroom=1``)."""
        from ui.layout import classroom_on, large_type_on

        return cls(large_type_on(), classroom_on())

    def folded(self, what: str, icon: str = ":material/tune:") -> AbstractContextManager:
        """Where secondary settings go: in classroom mode a closed box called ``what`` (the slide shows the
        results), otherwise in place (:func:`ui.layout.controls`, the one rule for every page)."""
        from ui.layout import controls

        return controls(what, icon=icon, classroom=self.classroom)

    def height(self, normal: int, large: int) -> int:
        """A chart's height in pixels: ``large`` in large type, else ``normal``."""
        return large if self.large else normal


__all__ = ["Show"]
