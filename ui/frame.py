"""``page_setup``: the first call on every page (and app.py), the top of the kit.

It draws the frame (:func:`ui.layout.frame`: the tab's title, the sidebar, large type, the heading), then, for a
browser in a class, the class bar (:func:`ui.poll.bar`), and, for a lesson's link that would give answers away,
its questions first (:func:`ui.links.ask_first`). Those two draw with the layout's helpers (its page registry, large
type), so they import :mod:`ui.layout`; this module imports all three, and nothing in the kit imports it: no
circle (tests/test_import_purity.py finds any).
"""

from __future__ import annotations

from i18n.catalog import read_all
from ui import layout, links, poll

read_all()  # the catalogues, once a process, before any learner's run: the first learner in Hindi does not wait


def page_setup(title: str, *, heading: bool = True) -> None:
    """Call this first on every page.

    Sets the browser tab title and icon (the registry icon for ``title``, or the
    app icon), draws the sectioned sidebar with the large-type toggle, applies
    large type if it is on, writes ``title`` as the page heading (``heading=False``
    to draw your own), then the class bar and a lesson link's questions.
    """
    entry = layout.frame(title, heading=heading)
    poll.bar()  # in a class: the live class bar (the posed question, the votes); nothing otherwise
    layout.skip_anchor()  # where the skip link lands with no steps
    links.ask_first(entry.url_path if entry else "")  # a lesson's link that gives answers away asks them first


__all__ = ["page_setup"]
