"""The Tokenization Lab's BPE engine: pure Python, no UI.

>>> from tokenizer import train
>>> trace = train("news " * 5 + "new " * 3 + "newer " * 2, 3, unit="chars", split="whitespace")
>>> [s.token for s in trace.steps]
['ne', 'new', 'news']
>>> [t.label for t in trace.tokenizer.encode_tokens("newsroom")]
['news', 'r', 'o', 'o', 'm']
"""

from .interface import UNKNOWN_ID, TextTokenizer, Token
from .labels import bytes_label, hex_bytes, is_whole
from .model import TIES, UNITS, Tokenizer, TrainConfig
from .pretokenize import (
    DEFAULT_PATTERN,
    GPT2_PATTERN,
    GPT4_PATTERN,
    SPLITS,
    PatternMemory,
    PatternTimeout,
    PatternTooCostly,
    UnsafePattern,
    split_text,
    word_count,
)
from .train import MergeStep, PairCount, StopReason, Trace, WordSplit, count_words, train
from .vocab import Vocabulary

__all__ = [
    "DEFAULT_PATTERN",
    "GPT2_PATTERN",
    "GPT4_PATTERN",
    "MergeStep",
    "PairCount",
    "PatternMemory",
    "PatternTimeout",
    "PatternTooCostly",
    "UnsafePattern",
    "SPLITS",
    "StopReason",
    "TIES",
    "TextTokenizer",
    "Token",
    "Tokenizer",
    "Trace",
    "TrainConfig",
    "UNITS",
    "UNKNOWN_ID",
    "Vocabulary",
    "WordSplit",
    "bytes_label",
    "count_words",
    "hex_bytes",
    "is_whole",
    "split_text",
    "train",
    "word_count",
]
