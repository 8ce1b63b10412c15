"""Each page's view: what one page draws, section by section, named after its page.

A page (``pages/N_Name.py``) reads like a table of contents and calls its view; a view builds on the UI
kit (:mod:`ui`) and the layers below it. Views never import each other's private parts or the pages.
"""
