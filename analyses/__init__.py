"""The lessons' analyses: measurements and experiments built on the engine.

Each module answers one lesson's question (how many tokens a word, what a prompt costs, where counts
surprise) with the engine's tokenizers. They import the engine and the family; neither imports them.
Pure Python: no Streamlit.
"""
