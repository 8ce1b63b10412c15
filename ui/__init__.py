"""Shared Streamlit UI code for the Tokenization Lab pages.

`ui.layout` holds the page registry and `page_setup()`, which every page calls
first. The engine (`tokenizer/`) never imports from here.
"""
