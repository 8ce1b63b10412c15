"""The trainer's defaults and the bounds of a trace each have one home.

- The five choices default to :data:`tokenizer.model.DEFAULTS` (TrainConfig's fields) in every trainer: the
  fast one, the textbook reference and the BPE / WordPiece comparison.
- ``table_size`` and ``max_ties`` default to ``TABLE_SIZE`` and ``MAX_TIES``; the lab's pages and its
  exercises both keep ``SHOWN_TABLE_SIZE`` / ``SHOWN_MAX_TIES``, so an exercise reads the trace a page draws.
"""

from __future__ import annotations

import inspect

import pytest

import lessons
from family.wordpiece import train_by_rule
from lessons.exercises import preset_trace
from tokenizer import train
from tokenizer.model import DEFAULTS
from tokenizer.reference import encode_reference, train_reference
from tokenizer.train import MAX_TIES, SHOWN_MAX_TIES, SHOWN_TABLE_SIZE, TABLE_SIZE


def test_the_defaults_are_the_curriculums_lab_settings():
    """Byte level, the `` ?\\S+`` pre-split, no marker, the pair met first wins (the curriculum's table)."""
    assert DEFAULTS.to_dict() == {"unit": "bytes", "split": "regex", "pattern": r" ?\S+", "end_of_word": None,
                                  "ties": "first"}


@pytest.mark.parametrize("trainer", [train, train_reference, train_by_rule, encode_reference])
def test_every_trainer_takes_its_defaults_from_the_one_home(trainer):
    params = inspect.signature(trainer).parameters
    given = {name: params[name].default for name in DEFAULTS.to_dict()
             if name in params and params[name].default is not inspect.Parameter.empty}
    assert len(given) >= 3  # encode_reference must be told the unit, which a trained model knows
    assert given == {name: value for name, value in DEFAULTS.to_dict().items() if name in given}
    if "table_size" in params:
        assert (params["table_size"].default, params["max_ties"].default) == (TABLE_SIZE, MAX_TIES)


def test_a_trace_with_no_settings_is_a_trace_with_the_defaults():
    text = "chai chai chaiwala poha  pohawala\n"
    bare = train(text, 6)
    assert bare.tokenizer.config == DEFAULTS
    assert bare.steps == train(text, 6, **DEFAULTS.to_dict(), table_size=TABLE_SIZE, max_ties=MAX_TIES).steps
    assert [s.pair for s in train_reference(text, 6).steps] == [s.pair for s in bare.steps]


@pytest.mark.parametrize("preset_id", ["chai", "readers"])
def test_an_exercise_reads_the_trace_the_page_draws(preset_id):
    """The chai preset's pair table has up to 16 rows, the readers' 20: more than the 12 shown, so other
    bounds on either side would give other steps."""
    from ui.training import _train

    p = lessons.presets()[preset_id]
    page = _train(p.corpus, p.merges, **p.config.to_dict())
    assert preset_trace(preset_id).steps == page.steps
    assert max(len(s.table) for s in page.steps) == SHOWN_TABLE_SIZE
    assert all(len(s.ties) <= SHOWN_MAX_TIES for s in page.steps)


def test_the_command_lines_train_takes_the_same_defaults():
    from cli import parser

    args = parser().parse_args(["train", "corpus.txt", "--merges", "3", "-o", "model.json"])
    assert {name: getattr(args, name) for name in DEFAULTS.to_dict()} == DEFAULTS.to_dict()
