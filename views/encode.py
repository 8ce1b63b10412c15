"""What the "Encode step by step" page draws: a lab tokenizer's learned merges replayed on a word or a sentence,
one merge at a time. The page sets up and composes the sections here."""

from __future__ import annotations

import lessons
from ui import choices
from ui.state import Key, Param
from ui.steps import Stepper

PAGE = "encode"
MAX_CHARS = 200  # a word or a sentence; long text belongs on the Tokenize page
EXAMPLES = lessons.examples("encode")

# -- The page's session keys, declared once (the page, the warm-up, the benchmarks and the tests import them) --
TEXT = Param(PAGE, "text", "readership", max_len=MAX_CHARS * 2)
STEP = Param(PAGE, "step", 0, lo=0, hi=1_000_000)
PARAMS = [TEXT, STEP]
STEPPER = Stepper(STEP, names=("Start", "Previous", "Next", "End"))
FIRST, PREV, NEXT, LAST = (STEPPER.key(name) for name in ("first", "prev", "next", "last"))
TOK = choices.tok_key(PAGE)  # the lab tokenizer picked (ui.choices.pick_one)
SIGNATURE = Key(PAGE, "_signature")  # the (tokenizer, text) the step belongs to
TREE_OPEN = Key(PAGE, "tree_open")
TREE_ID = Key(PAGE, "tree_id")
STEPS_TABLE = Key(PAGE, "steps_table")


def example_key(i: int) -> Key:
    """The button of the ``i``-th ready example (from 0)."""
    return Key(PAGE, f"example.{i}")
