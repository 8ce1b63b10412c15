"""What the "Tokenize anything" page draws: any text cut by one or more tokenizers, side by side, with counts and
ids. The page sets up and composes the sections here."""

from __future__ import annotations

import lessons
from ui import choices
from ui.state import Key, Param

PAGE = "tokenize"
MAX_TEXT_BYTES = 1_000_000  # a bigger paste is refused politely
MAX_CHIPS = 2_000  # chips drawn per tokenizer; every token is still counted, and listed in the CSV
MAX_TABLE_ROWS = 5_000
DEFAULT_TOKENIZERS = ("o200k_base",)
FALLBACK_TOKENIZERS = ("english-hindi",)  # when no real tokenizer is installed
EXAMPLES = lessons.examples("tokenize")
DEFAULT_TEXT = EXAMPLES[0]["text"] + " " + EXAMPLES[1]["text"]

# -- The page's session keys, declared once (the page, the warm-up, the benchmarks and the tests import them) --
TEXT = Param(PAGE, "text", DEFAULT_TEXT, max_len=1000)
SHOW_IDS = Param(PAGE, "ids", False)
COLOUR = Param(PAGE, "colour", "position", choices=("position", "id"))
PREDICT = Param(PAGE, "predict", False)
PARAMS = [TEXT, SHOW_IDS, COLOUR, PREDICT]
TOKS = choices.toks_key(PAGE)  # the tokenizers picked (ui.choices.pick_many)
UPLOAD = choices.upload_key(PAGE)
COMPARE = Key(PAGE, "compare")
IDS_OPEN = Key(PAGE, "ids_open")
IDS_TOK = Key(PAGE, "ids_tok")
IDS_TABLE = Key(PAGE, "ids_table")
DOWNLOAD = Key(PAGE, "download")
TREE_OPEN = Key(PAGE, "tree_open")
TREE_TOK = Key(PAGE, "tree_tok")
TREE_ID = Key(PAGE, "tree_id")


def example_key(i: int) -> Key:
    """The button of the ``i``-th example (from 0)."""
    return Key(PAGE, f"example.{i}")
