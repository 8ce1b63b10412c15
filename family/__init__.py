"""The production tokenizers and the rest of the tokenizer family, beside the lab's engine.

Every one is a :class:`tokenizer.TextTokenizer` (or builds one), so pages and analyses draw them as they draw
the lab's own models. They import the engine (:mod:`tokenizer`); the engine never imports them, except its
command line, which offers them by name.
"""
