"""Each page's view: what one page draws, section by section, named after its page.

A page (``pages/N_Name.py``) reads like a table of contents and calls its view; a view builds on the UI
kit (:mod:`ui`) and the layers below it. A view never imports another page's view (a view package, such as
:mod:`views.lessons`, imports its own submodules) nor the pages: what two pages share is in the kit.
"""
