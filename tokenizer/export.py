"""Export a byte-level model to Hugging Face ``tokenizers``: a ``tokenizer.json`` that gives the same ids.

A model trained in the lab becomes a file that the ``tokenizers`` library loads
(``tokenizers.Tokenizer.from_file("tokenizer.json")``) and that encodes any text
to exactly the ids the lab gives. In Hugging Face's terms the model is a
byte-level BPE:

- the vocabulary maps each token to its id. Hugging Face keys it by text, so each
  byte is written as GPT-2's printable stand-in for it (byte 32, a space, is
  ``Ġ``; see :func:`tokenizer.bytelevel.gpt2_byte_stand_ins`), and a merged token
  as its bytes' stand-ins one after another. Byte ``b`` keeps id ``b``; the token
  of merge ``r`` keeps id ``256 + r``;
- the merges are listed in the order they were learned, which is the order
  Hugging Face applies them in (lowest rank first, exactly like the lab);
- the pre-tokenizer cuts the text as the lab does, then turns each piece's bytes
  into stand-ins (``ByteLevel`` with its own regex switched off);
- the decoder turns stand-ins back into bytes; there is no normalizer and no
  post-processor (no special tokens are added).

Some models cannot be written this way, and :func:`to_hf_dict` refuses them with a
ValueError that says why: a character-unit model, a model with an end-of-word
marker, two tokens with the same bytes, and a pre-split pattern that Hugging
Face's regex engine (Oniguruma) rejects or reads differently. The last is found by
trying the pattern on a set of sample texts in both engines, which needs the
``tokenizers`` package; without it only the lab's three built-in patterns (and the
whitespace split) are exported, as the lab's tests check them.

One difference no check can remove: Oniguruma knows Unicode 16, the lab's ``regex``
module Unicode 17. With a pattern that uses ``\\p{L}``, ``\\p{N}`` or ``\\w``, the few
thousand letters and digits added in Unicode 17 (2025) are classed differently.

>>> from tokenizer import train
>>> tok = train("chai chai chaiwala", 3).tokenizer
>>> hf = to_hf_dict(tok, check=False)
>>> hf["model"]["merges"][:2], hf["model"]["vocab"]["Ġ"]
([['c', 'h'], ['ch', 'a']], 32)
>>> to_hf_dict(train("chai chai", 1, unit="chars").tokenizer)
Traceback (most recent call last):
...
ValueError: This model works on characters, not bytes. ...
"""

from __future__ import annotations

import json
import os
import re
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from .bytelevel import gpt2_byte_stand_ins
from .labels import bytes_label, hex_bytes
from .model import Tokenizer
from .pretokenize import DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN, PatternTooCostly, split_text

KNOWN_PATTERNS = (DEFAULT_PATTERN, GPT2_PATTERN, GPT4_PATTERN)
"""Patterns the lab's tests check against Hugging Face: exported even without ``tokenizers``."""


def to_hf_json(tokenizer: Tokenizer, *, check: bool = True) -> str:
    """The model as the text of a Hugging Face ``tokenizer.json`` (see :func:`to_hf_dict`)."""
    return json.dumps(to_hf_dict(tokenizer, check=check), ensure_ascii=False, indent=2)


def to_hf_dict(tokenizer: Tokenizer, *, check: bool = True) -> dict[str, Any]:
    """The model as a Hugging Face ``tokenizer.json`` object, or ValueError saying why it cannot be one.

    With ``check`` (the default) the pattern is tried in Hugging Face's own regex engine
    and the exported tokenizer must give the lab's ids on a set of sample texts.
    """
    if not isinstance(tokenizer, Tokenizer):
        raise ValueError("Only a model trained in the lab (a tokenizer.Tokenizer) can be exported.")
    config = tokenizer.config
    if config.unit != "bytes":
        raise ValueError(
            "This model works on characters, not bytes. A Hugging Face byte-level tokenizer starts from "
            "the 256 bytes, so it can write any text; a character model only knows the characters it saw "
            "in training, and the lab gives any other character the id -1 and keeps its text. Hugging Face "
            "has no id -1: it would need an 'unknown' token, which turns every unseen character into the "
            "same token and loses it, so the ids would not match. Train with the byte unit to export."
        )
    if config.end_of_word is not None:
        raise ValueError(
            f"This model has an end-of-word marker ({config.end_of_word!r}). In the lab the marker is a "
            "token of its own (id 256) after the last byte of each word, and merges can join it to the "
            "bytes before it. Hugging Face's end-of-word suffix is not a token: it is glued to the last "
            "symbol of each word before any merge, so the same merges would give other tokens. Train "
            "without a marker to export."
        )
    stand_in = gpt2_byte_stand_ins()
    vocab: dict[str, int] = {}
    for token_id in range(tokenizer.vocab_size):
        data = tokenizer.token_bytes(token_id)
        text = "".join(stand_in[b] for b in data)
        other = vocab.get(text)
        if other is not None:
            raise ValueError(
                f"Tokens {other} and {token_id} both stand for the bytes {hex_bytes(data)} "
                f"({bytes_label(data)!r}). A Hugging Face vocabulary lists each token by its text, "
                "so it cannot hold two tokens with the same text: one id would be lost."
            )
        vocab[text] = token_id
    strings = list(vocab)  # id order: vocab was filled by id
    merges = [[strings[a], strings[b]] for a, b in tokenizer.merges]
    hf: dict[str, object] = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {
            "type": "Sequence",
            "pretokenizers": [
                _split_step(config.split, config.pattern),
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
            ],
        },
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,  # True would take a whole word from the vocabulary, skipping the merges
            "vocab": vocab,
            "merges": merges,
        },
    }
    if check:
        _check_with_hf(tokenizer, hf)
    return hf


def _split_step(split: str, pattern: str) -> dict[str, Any]:
    """Hugging Face's pre-tokenizer step for the lab's pre-split."""
    if split == "whitespace":
        # Python's str.split() also splits at the four separators U+001C-U+001F, which Rust's
        # whitespace (and so HF's WhitespaceSplit) does not: list Python's own characters.
        return {
            "type": "Split",
            "pattern": {"Regex": f"[{_python_whitespace_class()}]+"},
            "behavior": "Removed",
            "invert": False,
        }
    # "Isolated" keeps each match as a piece and the text between matches as pieces too, as the lab does.
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}


@lru_cache(maxsize=1)
def _python_whitespace_class() -> str:
    """Every character ``str.isspace()`` is true for, as the inside of an Oniguruma ``[...]``."""
    return "".join(f"\\x{{{ord(ch):X}}}" for ch in map(chr, range(0x110000)) if ch.isspace())


# -- checking the export in Hugging Face itself --------------------------------------------------
_SAMPLES = (
    "Hello world! It's 2024, isn't it? I'M FINE, you'll see; we'd've gone. 'S 'T 'Re 'LL 'VE",
    "  leading spaces\tand\ttabs\r\nCRLF lines\n\n\nblank lines   \n  ",
    "घने कोहरे से शहर में स्कूल और सड़कें बंद रहीं। क्षत्रिय ज़्ञान, नमस्ते!",
    "joiners: क्\u200dष क्\u200cष 👨\u200d👩\u200d👧 👍🏽 🇮🇳 e\u0301 a\u0300\u0301",
    "invisible: \u200b\ufeff\u00ad\u2060 \u200e\u200f \u2066x\u2069",
    "digits: 0123456789 ١٢٣ ०१२३४५ ¹²³ ½ Ⅻ 1,000.50 ₹500 12345678901234567890",
    "chai☕tea ñandú Straße İstanbul ΣΑΣ ς 中文字符 日本語のテキスト 한국어 العربية עברית ﬁ Ǆ",
    "punct: ()[]{}<>!?.,;:'\"`~@#$%^&*-_=+|\\/ …—–«»„“”‘’ ..!!??",
    "a\tb\nc\x0bd\x0ce\rf\x1cg\x1dh\x1ei\x1fj k\x85l\xa0m",
    "\u1680n\u2000o\u200ap\u2028q\u2029r\u202fs\u205ft\u3000u  \t \u3000\n",
    "\x00\x01\x07\x1b\x7f controls\x00",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛 😀😃 𐍈 \U0010fffd \U000e0041",
    "a" * 40 + "b",
    "aaaa " * 10,
    " " * 40 + "x",
    "\n" * 20 + "x\n",
    "1" * 30 + "a",
    "!" * 30 + " ",
    "ab" * 30 + "!",
    "x",
    " ",
    "\n",
)


@lru_cache(maxsize=1)
def _samples() -> tuple[str, ...]:
    """The sample texts: the hand-picked ones, then every assigned character in chunks, when
    Python's Unicode is not newer than Hugging Face's (else the newest letters would differ)."""
    out = list(_SAMPLES)
    if int(unicodedata.unidata_version.split(".")[0]) <= 16:
        chars = [
            ch
            for ch in map(chr, range(0x110000))
            if unicodedata.category(ch) not in ("Cn", "Cs", "Co")
        ]
        out.extend("".join(chars[i : i + 4096]) for i in range(0, len(chars), 4096))
    return tuple(out)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send file descriptor 2 to /dev/null: Hugging Face's regex engine prints a Rust panic there
    before raising it as a Python exception, and a command line must print one line only."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        sys.stderr.flush()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _check_with_hf(tokenizer: Tokenizer, hf: dict[str, Any]) -> None:
    config = tokenizer.config
    try:
        import tokenizers
    except ImportError:
        if config.split == "regex" and config.pattern not in KNOWN_PATTERNS:
            raise ValueError(
                "This model's pre-split pattern is its own, and only Hugging Face's regex engine can say "
                "whether it reads the pattern the same way: install the 'tokenizers' package "
                "(pip install tokenizers) and export again."
            ) from None
        return
    what = f"pattern {_short(config.pattern)}" if config.split == "regex" else "whitespace split"
    try:
        with _quiet_stderr():
            theirs = tokenizers.Tokenizer.from_str(json.dumps(hf))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        raise ValueError(
            f"Hugging Face's regex engine (Oniguruma) does not accept the pre-split {what}: "
            f"{_first_line(exc)}. Train with a pattern it accepts, such as ' ?\\S+'."
        ) from None
    split_step = tokenizers.pre_tokenizers.Split(
        tokenizers.Regex(hf["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"]),
        behavior=hf["pre_tokenizer"]["pretokenizers"][0]["behavior"].lower(),
    )
    for sample in _samples():
        try:
            ours = split_text(sample, config.split, config.pattern)
            our_ids = tokenizer.encode(sample)
        except PatternTooCostly as exc:
            raise ValueError(f"{exc} A pattern that slow cannot be exported.") from None
        try:
            with _quiet_stderr():
                their_pieces = [piece for piece, _ in split_step.pre_tokenize_str(sample)]
                their_ids = theirs.encode(sample, add_special_tokens=False).ids
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:
            raise ValueError(
                f"Hugging Face's regex engine gives up on the pre-split {what} "
                f"({_first_line(exc)}): it backtracks too much on some texts. Simplify the pattern to export."
            ) from None
        if their_pieces != ours:
            pairs = zip(ours, their_pieces)  # noqa: B905 - one list may be longer
            where = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(ours), len(their_pieces)))
            text = "".join(ours[max(0, where - 1) : where + 2])
            raise ValueError(
                f"Hugging Face's regex engine cuts text differently with the pre-split {what}: on {_short(text)} "
                f"the lab gives pieces {_pieces(ours, where)}, Hugging Face {_pieces(their_pieces, where)}, "
                "so the ids would differ. "
                "Patterns that can match an empty string (such as a* or \\b) and some character classes "
                "(such as \\w) are read differently; try ' ?\\S+' or one of the lab's GPT patterns."
            )
        if their_ids != our_ids:  # the pieces agree, so this is a bug in the export itself
            raise ValueError(
                f"The exported tokenizer gives other ids than the lab on {_short(sample)}: "
                "this is a bug in the lab's export; please report it."
            )


def _short(text: str, width: int = 60) -> str:
    shown = repr(text)
    return shown if len(shown) <= width else shown[: width - 2] + "…" + shown[-1]


def _pieces(pieces: list[str], where: int) -> str:
    return "[" + ", ".join(_short(p, 20) for p in pieces[max(0, where - 1) : where + 2]) + ", …]"


def _first_line(exc: BaseException) -> str:
    """The first line of an error from ``tokenizers``, without where in our JSON it was found."""
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else type(exc).__name__
    text = re.sub(r" at line \d+ column \d+$", "", text)
    return text[:200].rstrip(".")


__all__ = ["KNOWN_PATTERNS", "to_hf_dict", "to_hf_json"]
