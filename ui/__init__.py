"""Shared Streamlit UI code for the Tokenization Lab pages.

`ui.layout` holds the page registry and the frame; `ui.frame.page_setup()` is what every page calls
first. The engine (`tokenizer/`) never imports from here.
"""
