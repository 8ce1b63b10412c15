"""Production tokenizers, offline, behind the lab's one tokenizer interface.

The lab's own BPE models are small and readable. The tokenizers real models
use are the same idea at scale: GPT-4's ``cl100k_base`` has 100,000 merges.
This module loads them from data that came with installed packages (nothing
is downloaded at run time), checks that data, and wraps each one as a
:class:`~tokenizer.interface.TextTokenizer`, so every page draws them like
the lab's own models.

=================  ======================  ===================================  ==============================
name               what                    data (an installed package)          licence of the vocabulary
=================  ======================  ===================================  ==============================
``cl100k_base``    GPT-4, GPT-3.5-turbo    quicktok-v1 ``data/cl100k.vocab``    MIT (OpenAI tiktoken data)
``o200k_base``     GPT-5, GPT-4o, o1, o3   quicktok-v1 ``data/o200k.vocab``     MIT (OpenAI tiktoken data)
``r50k_base``      GPT-2, GPT-3            openai-whisper ``gpt2.tiktoken``     MIT (OpenAI tiktoken data)
``llama3``         Llama 3, 3.1, 3.2, 3.3  quicktok-v1 ``data/llama3.vocab``    Meta Llama 3 Community License
``qwen3``          Qwen (qwen.tiktoken)    quicktok-v1 ``data/qwen3.vocab``     Apache-2.0 (Qwen)
``mistral-tekken`` Mistral NeMo, Pixtral   mistral-common ``tekken_240911``     Apache-2.0 (Mistral AI)
``mistral-sp-v3``  Mistral 7B v0.3         mistral-common ``...model.v3``       Apache-2.0 (Mistral AI)
``o200k_harmony``  GPT-OSS                 quicktok-v1 ``data/o200k.vocab``     MIT (OpenAI tiktoken data)
``whisper``        Whisper (multilingual)  openai-whisper ``multilingual...``   MIT (OpenAI Whisper)
``mistral-tekken-  Mistral NeMo (first)    mistral-common ``tekken_240718``     Apache-2.0 (Mistral AI)
240718``
``mistral-sp-v1``  Mistral 7B v0.1         mistral-common ``tokenizer.model.v1`` Apache-2.0 (Mistral AI)
``mistral-sp-v2``  Mistral (Feb. 2024)     mistral-common ``...model.v2``       Apache-2.0 (Mistral AI)
``mistral-sp-v7``  Mistral Large 24.11     mistral-common ``...model.v7``       Apache-2.0 (Mistral AI)
=================  ======================  ===================================  ==============================

The first seven are :data:`FEATURED` (what a page shows when it shows "every" one); all are in every picker.

Every data file is checked by sha256 before use. The OpenAI rank files are
rebuilt in tiktoken's text format and must match the hashes tiktoken itself
publishes (``tiktoken_ext/openai_public.py``); Llama 3 and Qwen must match
the hashes Hugging Face lists for Meta's ``tokenizer.model`` and Qwen's
``qwen.tiktoken``; Mistral's files must match the copies this lab was
tested with. A tokenizer whose data is missing or damaged is *unavailable*
(:class:`TokenizerUnavailable`, with the reason); the others keep working.

Importing this module is cheap: tiktoken, sentencepiece and mistral_common
are imported only when a tokenizer is loaded.

>>> [info.name for info in catalogue()][:3]
['cl100k_base', 'o200k_base', 'r50k_base']
>>> catalogue()[0].title
'GPT-4 (cl100k_base)'
>>> status("gpt-5")
'unknown tokenizer; known: cl100k_base, o200k_base, r50k_base, llama3, qwen3, mistral-tekken, mistral-sp-v3, o200k_harmony, whisper, mistral-tekken-240718, mistral-sp-v1, mistral-sp-v2, mistral-sp-v7'

Using one (it is loaded once per process, then shared):

>>> gpt4 = load("cl100k_base")
>>> gpt4.count("Thick fog closed schools")
5
>>> [(t.label, t.piece) for t in gpt4.encode_tokens("घने")]   # घ is split across two tokens
[('⟨E0 A4⟩', 0), ('⟨98⟩', 0), ('न', 0), ('े', 1)]
>>> [gpt4.raw_piece(t) for t in gpt4.encode(" fog")]        # as tiktoken's GPT-2 stand-ins write it
['Ġfog']
>>> gpt4.pieces("Thick fog, 12345")                     # its pre-split, before any merge
['Thick', ' fog', ',', ' ', '123', '45']
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import struct
import sys
import threading
import types
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from family.realtok import RealInfo, RealTokenizer, _SentencePieceTokenizer, _TekkenTokenizer, _TiktokenTokenizer
from i18n import N_

# -- the checked hashes ----------------------------------------------------------------------

TIKTOKEN_SHA256 = {
    # As published by tiktoken in tiktoken_ext/openai_public.py (a test reads that file and compares).
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    # GPT-OSS's encoding is o200k_base's ranks with its own special tokens (tiktoken_ext's o200k_harmony).
    "o200k_harmony": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}
"""sha256 of each OpenAI encoding's rank file in tiktoken's text format."""

LLAMA3_SHA256 = "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"
"""sha256 of Meta's Llama 3 ``original/tokenizer.model`` (2,183,982 bytes), as Hugging Face lists it."""

QWEN_SHA256 = "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"
"""sha256 of Qwen's ``qwen.tiktoken`` (2,561,218 bytes), as Hugging Face lists it (the file Qwen published with Qwen-7B)."""

MISTRAL_SHA256 = {
    # The copies shipped in mistral-common (unchanged from 1.12.0 to 1.13.1).
    "mistral-tekken": "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316",
    "mistral-sp-v3": "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
    "mistral-tekken-240718": "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516",
    "mistral-sp-v1": "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055",
    "mistral-sp-v2": "37f00374dea48658ee8f5d0f21895b9bc55cb0103939607c8185bfd1c6ca1f89",
    "mistral-sp-v7": "1b968b8dc352f42192367337c78ccc61e1eaddc6d641a579372d4f20694beb7a",
}

WHISPER_SHA256 = "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126"
"""sha256 of openai-whisper 20250625's ``assets/multilingual.tiktoken`` (the copy this lab was tested with)."""

WHISPER_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
"""Whisper's pre-split (``whisper/tokenizer.py``): GPT-2's."""

# Pre-split patterns of the open models (tiktoken_ext has the OpenAI ones).
LLAMA3_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
"""Meta's Llama 3 ``tokenizer.py`` pattern: numbers in groups of up to three digits."""

QWEN_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
"""Qwen2's pattern (Qwen2.5 and Qwen3 keep it): like Llama 3's, but every digit is its own piece."""

GPT2_SHARE = Path("share") / "tokenization-lab" / "whisper"
"""Where scripts/install-data puts openai-whisper (no dependencies), under the environment's prefix."""

GPT2_ENV = "LAB_GPT2_TIKTOKEN"
"""An environment variable that can point at another copy of ``gpt2.tiktoken``."""


# -- what the lab knows ------------------------------------------------------------------------

NAMES = ("cl100k_base", "o200k_base", "r50k_base", "llama3", "qwen3", "mistral-tekken", "mistral-sp-v3",
         "o200k_harmony", "whisper", "mistral-tekken-240718", "mistral-sp-v1", "mistral-sp-v2", "mistral-sp-v7")
"""The registry names, in display order (the order of :func:`catalogue`)."""

FEATURED = NAMES[:7]
"""The seven a page compares when it shows "every" production tokenizer (Real tokenizers, English vs Hindi's
costs, Quirks' digit rules): the others are older or sibling vocabularies, each offered in every picker, loaded
only when picked (a tokenizer takes 16-140 MB of a server's memory)."""


class TokenizerUnavailable(Exception):
    """A real tokenizer that cannot be used here: its package or data file is missing or damaged.

    ``name`` is the registry key asked for, ``reason`` why it is unavailable;
    ``str(exc)`` is one sentence naming both.
    """

    def __init__(self, name: str, reason: str, title: str | None = None) -> None:
        self.name = name
        self.reason = reason
        self.title = title or name
        super().__init__(name, reason)

    def __str__(self) -> str:
        if self.reason.startswith("unknown tokenizer"):
            return f"There is no tokenizer called {self.name!r}: {self.reason}."
        return f"The {self.title} tokenizer is unavailable: {self.reason}."


class _DataError(Exception):
    """Raised inside a loader; becomes TokenizerUnavailable with this reason."""


def _version(distribution: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _package_dir(module: str) -> Path | None:
    """The folder of an installed package, found without importing it."""
    from importlib.util import find_spec

    try:
        spec = find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def _whisper_version() -> str | None:
    base = Path(sys.prefix) / GPT2_SHARE
    found = sorted(base.glob("openai_whisper-*.dist-info"))
    return found[-1].name[len("openai_whisper-") : -len(".dist-info")] if found else None


def _pkg(distribution: str) -> tuple[str, str | None]:
    """A package as a provenance names it: its distribution and installed version (None: not installed)."""
    return distribution, _version(distribution)


def catalogue() -> list[RealInfo]:
    """Every real tokenizer the lab knows, in display order (nothing is loaded)."""
    return list(_catalogue())


# Where each tokenizer's data comes from: sentences marked for the catalogue, put together in the run's language
# (RealInfo.source); the names, versions, files and hashes in them are fields, as they are.
_REBUILT = N_("{package} package data ({file}), rebuilt in tiktoken's format, sha256 checked against tiktoken's "
              "published hash")
_REBUILT_HARMONY = N_("{package} package data ({file}), rebuilt in tiktoken's format, sha256 checked against "
                      "tiktoken's published hash; special tokens from tiktoken's {special}")
_REBUILT_HF = N_("{package} package data ({file}), rebuilt in tiktoken's format, sha256 checked against the hash "
                 "Hugging Face lists for {owner}'s {published}")
_ASSET_PUBLISHED = N_("{package} asset {file} (installed without dependencies by {script}), sha256 checked against "
                      "tiktoken's published hash")
_ASSET_TESTED = N_("{package} asset {file} (installed without dependencies by {script}), sha256 checked against the "
                   "copy this lab was tested with")
_TEKKEN = N_("{package} ({file}, read by its Tekkenizer), sha256 checked against the copy this lab was tested with")
_SENTENCEPIECE = N_("{package} ({file}, read by {reader}), sha256 checked against the copy this lab was tested with")
# The algorithms, descriptions (the names in them, tiktoken, SentencePiece, Tekken, stay): RealInfo.algorithm.
_BYTE_BPE = N_("byte-level BPE (tiktoken)")
_BYTE_BPE_NFC = N_("byte-level BPE after NFC normalisation (tiktoken)")
_BYTE_BPE_TEKKEN = N_("byte-level BPE (tiktoken, Mistral Tekken)")
_SP_BPE = N_("SentencePiece BPE with byte fallback")


def _from(template: str, **fields: str | tuple[str, str | None]) -> tuple[str, tuple[tuple[str, str | tuple[str, str | None]], ...]]:
    return template, tuple(fields.items())


@lru_cache(maxsize=1)
def _catalogue() -> tuple[RealInfo, ...]:
    quicktok = _pkg("quicktok-v1")
    mistral = _pkg("mistral-common")
    whisper = "openai-whisper", _whisper_version()
    sentencepiece = _pkg("sentencepiece")
    script = "scripts/install-data"
    bpe = _BYTE_BPE
    openai = "MIT (OpenAI tiktoken data)"
    return (
        RealInfo("cl100k_base", "GPT-4 (cl100k_base)", bpe, "bytes", openai,
                 _from(_REBUILT, package=quicktok, file="cl100k.vocab"),
                 "GPT-4, GPT-4 Turbo, GPT-3.5-turbo, text-embedding-3"),
        RealInfo("o200k_base", "GPT-4o (o200k_base)", bpe, "bytes", openai,
                 _from(_REBUILT, package=quicktok, file="o200k.vocab"),
                 "GPT-5, GPT-4o, GPT-4o mini, GPT-4.1, o1, o3, o4-mini"),
        RealInfo("r50k_base", "GPT-2 (r50k_base)", bpe, "bytes", openai,
                 _from(_ASSET_PUBLISHED, package=whisper, file="gpt2.tiktoken", script=script),
                 "GPT-2, GPT-3 (davinci, curie, babbage, ada)"),
        RealInfo("llama3", "Llama 3", bpe, "bytes", "Meta Llama 3 Community License",
                 _from(_REBUILT_HF, package=quicktok, file="llama3.vocab", owner="Meta",
                       published="original/tokenizer.model"),
                 "Llama 3, 3.1, 3.2, 3.3"),
        RealInfo("qwen3", "Qwen3", _BYTE_BPE_NFC, "bytes",
                 "Apache-2.0 (Qwen)",
                 _from(_REBUILT_HF, package=quicktok, file="qwen3.vocab", owner="Qwen", published="qwen.tiktoken"),
                 "Qwen (the vocabulary Qwen published as qwen.tiktoken; the quicktok package ships it as Qwen3's)"),
        RealInfo("mistral-tekken", "Mistral Tekken", _BYTE_BPE_TEKKEN, "bytes",
                 "Apache-2.0 (Mistral AI)",
                 _from(_TEKKEN, package=mistral, file="tekken_240911.json"),
                 "Mistral NeMo, Pixtral 12B, Ministral 8B, Mistral Small 24.09"),
        RealInfo("mistral-sp-v3", "Mistral SentencePiece v3", _SP_BPE, "chars",
                 "Apache-2.0 (Mistral AI)",
                 _from(_SENTENCEPIECE, package=mistral, file="mistral_instruct_tokenizer_240323.model.v3",
                       reader=sentencepiece),
                 "Mistral 7B v0.3, Mixtral 8x22B, Codestral 22B, Mistral Large 24.07"),
        RealInfo("o200k_harmony", "GPT-OSS (o200k_harmony)", bpe, "bytes", openai,
                 _from(_REBUILT_HARMONY, package=quicktok, file="o200k.vocab", special="o200k_harmony"),
                 "gpt-oss-20b, gpt-oss-120b (o200k_base's merges, the harmony chat format's special tokens)",
                 featured=False),
        RealInfo("whisper", "Whisper multilingual", bpe, "bytes", "MIT (OpenAI Whisper)",
                 _from(_ASSET_TESTED, package=whisper, file="multilingual.tiktoken", script=script),
                 "Whisper speech recognition (its text side), all sizes but the English-only ones", featured=False),
        RealInfo("mistral-tekken-240718", "Mistral Tekken (240718)", _BYTE_BPE_TEKKEN,
                 "bytes", "Apache-2.0 (Mistral AI)",
                 _from(_TEKKEN, package=mistral, file="tekken_240718.json"),
                 "Mistral NeMo's first release (July 2024)", featured=False),
        RealInfo("mistral-sp-v1", "Mistral SentencePiece v1", _SP_BPE, "chars",
                 "Apache-2.0 (Mistral AI)",
                 _from(_SENTENCEPIECE, package=mistral, file="tokenizer.model.v1", reader=sentencepiece),
                 "Mistral 7B v0.1, Mixtral 8x7B", featured=False),
        RealInfo("mistral-sp-v2", "Mistral SentencePiece v2", _SP_BPE, "chars",
                 "Apache-2.0 (Mistral AI)",
                 _from(_SENTENCEPIECE, package=mistral, file="mistral_instruct_tokenizer_240216.model.v2",
                       reader=sentencepiece),
                 "Mistral Small and Large (February 2024)", featured=False),
        RealInfo("mistral-sp-v7", "Mistral SentencePiece v7", _SP_BPE, "chars",
                 "Apache-2.0 (Mistral AI)",
                 _from(_SENTENCEPIECE, package=mistral, file="mistral_instruct_tokenizer_241114.model.v7",
                       reader=sentencepiece),
                 "Mistral Large 24.11 (v7 instruct format)", featured=False),
    )  # fmt: skip


def _info(name: str) -> RealInfo:
    for info in _catalogue():
        if info.name == name:
            return info
    raise _unknown(name)


def _unknown(name: str) -> TokenizerUnavailable:
    known = ", ".join(NAMES)
    return TokenizerUnavailable(name, f"unknown tokenizer; known: {known}")


# -- where the data is -------------------------------------------------------------------------

_DATA_FILES = {
    "cl100k_base": ("quicktok", "data/cl100k.vocab"),
    "o200k_base": ("quicktok", "data/o200k.vocab"),
    "llama3": ("quicktok", "data/llama3.vocab"),
    "qwen3": ("quicktok", "data/qwen3.vocab"),
    "mistral-tekken": ("mistral_common", "data/tekken_240911.json"),
    "mistral-sp-v3": ("mistral_common", "data/mistral_instruct_tokenizer_240323.model.v3"),
    "o200k_harmony": ("quicktok", "data/o200k.vocab"),
    "mistral-tekken-240718": ("mistral_common", "data/tekken_240718.json"),
    "mistral-sp-v1": ("mistral_common", "data/tokenizer.model.v1"),
    "mistral-sp-v2": ("mistral_common", "data/mistral_instruct_tokenizer_240216.model.v2"),
    "mistral-sp-v7": ("mistral_common", "data/mistral_instruct_tokenizer_241114.model.v7"),
}
_INSTALL_HINT = {
    "quicktok": "install the lab's requirements (quicktok-v1)",
    "mistral_common": "install the lab's requirements (mistral-common)",
}


def gpt2_default_path() -> Path:
    """Where scripts/install-data puts GPT-2's rank file: under the environment's prefix, out of site-packages."""
    return Path(sys.prefix) / GPT2_SHARE / "whisper" / "assets" / "gpt2.tiktoken"


def data_file(name: str) -> Path:
    """The data file tokenizer ``name`` is loaded from (found without importing any package).

    Raises :class:`TokenizerUnavailable` when the package that carries it is not installed.
    """
    if name == "r50k_base":
        override = os.environ.get(GPT2_ENV)
        return Path(override) if override else gpt2_default_path()
    if name == "whisper":
        return gpt2_default_path().with_name("multilingual.tiktoken")
    if name not in _DATA_FILES:
        raise _unknown(name)
    module, relative = _DATA_FILES[name]
    folder = _package_dir(module)
    if folder is None:
        raise TokenizerUnavailable(name, f"the package {module} is not installed ({_INSTALL_HINT[module]})",
                                   _info(name).title)
    return folder / relative


# -- reading and checking the data ---------------------------------------------------------------


def _read(path: Path, name: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if name == "r50k_base":
            raise _DataError(
                f"its rank file {path} is not installed (run scripts/install-data, which installs "
                "openai-whisper==20250625 without dependencies; or set LAB_GPT2_TIKTOKEN to a copy of gpt2.tiktoken)"
            ) from None
        raise _DataError(f"its data file {path} is missing (reinstall the lab's requirements)") from None
    except OSError as exc:
        raise _DataError(f"its data file {path} cannot be read ({exc.strerror})") from None


def _check_sha256(data: bytes, expected: str, path: Path, against: str) -> None:
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise _DataError(
            f"its data {path} fails the sha256 check against {against} (expected {expected[:12]}…, "
            f"got {actual[:12]}…): the file is damaged or from another release"
        )


def quicktok_ranks(data: bytes) -> dict[bytes, int]:
    """Parse a quicktok ``.vocab`` file: u32 LE count, then per token a u16 LE length, its bytes, a u32 LE rank.

    >>> quicktok_ranks(b"\\x02\\x00\\x00\\x00" b"\\x01\\x00a\\x00\\x00\\x00\\x00" b"\\x02\\x00ab\\x01\\x00\\x00\\x00")
    {b'a': 0, b'ab': 1}
    """
    try:
        (count,) = struct.unpack_from("<I", data, 0)
        offset = 4
        ranks: dict[bytes, int] = {}
        for _step in range(count):
            (length,) = struct.unpack_from("<H", data, offset)
            token = data[offset + 2 : offset + 2 + length]
            (rank,) = struct.unpack_from("<I", data, offset + 2 + length)
            ranks[token] = rank
            offset += 6 + length
    except struct.error:
        raise _DataError("its data file is cut short (not a complete quicktok vocabulary)") from None
    if offset != len(data) or len(ranks) != count:
        raise _DataError("its data file is not a well-formed quicktok vocabulary")
    return ranks


def tiktoken_text(ranks: dict[bytes, int]) -> bytes:
    """The ranks in tiktoken's file format: ``base64(token) rank`` per line, in rank order.

    >>> tiktoken_text({b"a": 0, b" b": 1})
    b'YQ== 0\\nIGI= 1\\n'
    """
    ordered = sorted(ranks.items(), key=lambda item: item[1])
    # one %-format a token, into a list: 2.5 times as fast as concatenating in a generator (0.08 s against 0.21 s
    # for o200k_base's 200,000 tokens), and every production tokenizer's load pays it
    b64 = binascii.b2a_base64
    return b"".join([b"%s %d\n" % (b64(token, newline=False), rank) for token, rank in ordered])


def parse_tiktoken_text(data: bytes) -> dict[bytes, int]:
    """The inverse of :func:`tiktoken_text` (tiktoken's ``load_tiktoken_bpe`` without its download)."""
    ranks: dict[bytes, int] = {}
    try:
        for line in data.splitlines():
            if line:
                token, rank = line.split()
                ranks[base64.b64decode(token)] = int(rank)
    except ValueError:
        raise _DataError("its rank file is not in tiktoken's format") from None
    return ranks


def _quicktok_specials(path: Path, first_id: int, count: int, first: str) -> dict[str, int]:
    """A quicktok ``.special`` file: u32 LE count, then per token a u32 LE id, a u16 LE length, its text."""
    data = _read(path, "")
    try:
        (n,) = struct.unpack_from("<I", data, 0)
        offset, specials = 4, {}
        for _step in range(n):
            token_id, length = struct.unpack_from("<IH", data, offset)
            specials[data[offset + 6 : offset + 6 + length].decode("utf-8")] = token_id
            offset += 6 + length
    except (struct.error, UnicodeDecodeError):
        raise _DataError(f"its special-token file {path} is damaged") from None
    if sorted(specials.values()) != list(range(first_id, first_id + count)) or specials.get(first) != first_id:
        raise _DataError(f"its special-token file {path} does not list the {count} special tokens expected")
    return specials


# -- loaders: data file -> tokenizer ------------------------------------------------------------


def _openai_spec(name: str, ranks: dict[bytes, int]) -> dict:
    """tiktoken_ext's own constructor for ``name`` (pattern, special tokens), fed our checked ranks.

    The constructor would download its rank file; a copy of the function
    that finds our ``load_tiktoken_bpe`` in its globals gets the ranks
    instead. Nothing in tiktoken is changed, so this is safe in any thread.
    Our stand-in also checks that the hash tiktoken expects is the one we
    checked the data against.
    """
    from tiktoken_ext import openai_public

    def load_tiktoken_bpe(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        if expected_hash != TIKTOKEN_SHA256[name]:
            raise _DataError(f"the installed tiktoken expects another sha256 for {name} ({expected_hash})")
        return ranks

    patched: dict = {**vars(openai_public), "load_tiktoken_bpe": load_tiktoken_bpe}
    for key, value in vars(openai_public).items():  # o200k_harmony calls o200k_base: it must find ours too
        if isinstance(value, types.FunctionType) and value.__module__ == openai_public.__name__:
            patched[key] = types.FunctionType(value.__code__, patched, value.__name__)
    return patched[name]()


def _load_openai(name: str, path: Path) -> RealTokenizer:
    import tiktoken

    data = _read(path, name)
    if name == "r50k_base":
        _check_sha256(data, TIKTOKEN_SHA256[name], path, "tiktoken's published r50k_base hash")
        ranks = parse_tiktoken_text(data)
    else:
        ranks = quicktok_ranks(data)
        published = "o200k_base" if name == "o200k_harmony" else name
        _check_sha256(tiktoken_text(ranks), TIKTOKEN_SHA256[name], path, f"tiktoken's published {published} hash")
    spec = _openai_spec(name, ranks)
    encoding = tiktoken.Encoding(
        name=spec["name"],
        pat_str=spec["pat_str"],
        mergeable_ranks=spec["mergeable_ranks"],
        special_tokens=spec["special_tokens"],
        explicit_n_vocab=spec.get("explicit_n_vocab"),
    )
    return _TiktokenTokenizer(_info(name), encoding, spec["pat_str"], spec["special_tokens"],
                              ranks=spec["mergeable_ranks"])


def _load_quicktok_open(name: str, path: Path) -> RealTokenizer:
    import tiktoken

    data = _read(path, name)
    ranks = quicktok_ranks(data)
    if name == "llama3":
        expected, against, pattern, specials = LLAMA3_SHA256, "Meta's tokenizer.model", LLAMA3_PATTERN, (256, "<|begin_of_text|>")
    else:
        expected, against, pattern, specials = QWEN_SHA256, "Qwen's qwen.tiktoken", QWEN_PATTERN, (26, "<|endoftext|>")
    _check_sha256(tiktoken_text(ranks), expected, path, against)
    special_tokens = _quicktok_specials(path.with_suffix(".special"), len(ranks), *specials)
    encoding = tiktoken.Encoding(name=name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special_tokens)
    return _TiktokenTokenizer(_info(name), encoding, pattern, special_tokens, nfc=(name == "qwen3"), ranks=ranks)


def _whisper_specials(path: Path, first_id: int, languages: int = 99) -> dict[str, int]:
    """Whisper's special tokens, as ``whisper/tokenizer.py``'s get_encoding makes them (its language list read from
    that file's LANGUAGES literal, without importing whisper, which needs torch)."""
    import ast

    source = _read(path.parent.parent / "tokenizer.py", "whisper").decode("utf-8")
    found = next((node.value for node in ast.parse(source).body if isinstance(node, ast.Assign)
                  and any(getattr(t, "id", None) == "LANGUAGES" for t in node.targets)), None)
    if found is None:
        raise _DataError("whisper/tokenizer.py has no LANGUAGES list")
    codes = list(ast.literal_eval(found))[:languages]
    names = ["<|endoftext|>", "<|startoftranscript|>", *[f"<|{c}|>" for c in codes], "<|translate|>",
             "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>", "<|notimestamps|>",
             *[f"<|{i * 0.02:.2f}|>" for i in range(1501)]]
    return {text: first_id + i for i, text in enumerate(names)}


def _load_whisper(name: str, path: Path) -> RealTokenizer:
    import tiktoken

    data = _read(path, name)
    _check_sha256(data, WHISPER_SHA256, path, "the copy this lab was tested with")
    ranks = parse_tiktoken_text(data)
    specials = _whisper_specials(path, len(ranks))
    encoding = tiktoken.Encoding(name="multilingual", pat_str=WHISPER_PATTERN, mergeable_ranks=ranks,
                                 special_tokens=specials, explicit_n_vocab=len(ranks) + len(specials))
    return _TiktokenTokenizer(_info(name), encoding, WHISPER_PATTERN, specials, ranks=ranks)


def _load_tekken(name: str, path: Path) -> RealTokenizer:
    data = _read(path, name)
    _check_sha256(data, MISTRAL_SHA256[name], path, "the copy this lab was tested with")
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    return _TekkenTokenizer(_info(name), Tekkenizer.from_file(path))


def _load_sentencepiece(name: str, path: Path) -> RealTokenizer:
    data = _read(path, name)
    _check_sha256(data, MISTRAL_SHA256[name], path, "the copy this lab was tested with")
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(model_proto=data)
    return _SentencePieceTokenizer(_info(name), processor)


_LOADERS: dict[str, Callable[[str, Path], RealTokenizer]] = {
    "cl100k_base": _load_openai,
    "o200k_base": _load_openai,
    "r50k_base": _load_openai,
    "llama3": _load_quicktok_open,
    "qwen3": _load_quicktok_open,
    "mistral-tekken": _load_tekken,
    "mistral-sp-v3": _load_sentencepiece,
    "o200k_harmony": _load_openai,
    "whisper": _load_whisper,
    "mistral-tekken-240718": _load_tekken,
    "mistral-sp-v1": _load_sentencepiece,
    "mistral-sp-v2": _load_sentencepiece,
    "mistral-sp-v7": _load_sentencepiece,
}


def build(name: str, path: str | Path | None = None) -> RealTokenizer:
    """Load tokenizer ``name`` afresh (no cache) from ``path`` (default: :func:`data_file`).

    Raises :class:`TokenizerUnavailable` with the reason when it cannot be
    used. Pages use :func:`load`; this is for tests and benchmarks.
    """
    info = _info(name)
    try:
        file = Path(path) if path is not None else data_file(name)
        return _LOADERS[name](name, file)
    except TokenizerUnavailable:
        raise
    except _DataError as exc:
        raise TokenizerUnavailable(name, str(exc), info.title) from None
    except ImportError as exc:
        raise TokenizerUnavailable(name, f"a package it needs is not installed ({exc.name or exc})", info.title) from None
    except Exception as exc:  # a library refusing damaged data: report it in one line, never crash a page
        detail = " ".join(str(exc).split())[:200]
        raise TokenizerUnavailable(name, f"its data could not be loaded ({type(exc).__name__}: {detail})", info.title) from None


# -- the shared registry --------------------------------------------------------------------------


class Registry:
    """Loads each real tokenizer once and shares it; remembers why one is unavailable.

    ``locate(name) -> Path`` says where each tokenizer's data is (default
    :func:`data_file`); tests give their own to point one tokenizer at a
    damaged copy without touching the installed packages.
    """

    def __init__(self, locate: Callable[[str], Path] | None = None) -> None:
        self._locate = locate or data_file
        self._lock = threading.Lock()
        self._name_locks: dict[str, threading.Lock] = {}
        self._loaded: dict[str, RealTokenizer] = {}
        self._failed: dict[str, TokenizerUnavailable] = {}

    def load(self, name: str) -> RealTokenizer:
        """The tokenizer ``name``, loaded once (thread-safe), or :class:`TokenizerUnavailable`."""
        found = self._loaded.get(name)
        if found is not None:
            return found
        if name not in _LOADERS:
            raise _unknown(name)
        with self._lock:
            name_lock = self._name_locks.setdefault(name, threading.Lock())
        with name_lock:
            if name in self._loaded:
                return self._loaded[name]
            failed = self._failed.get(name)
            if failed is None:
                try:
                    self._loaded[name] = tok = build(name, self._locate(name))
                    return tok
                except TokenizerUnavailable as exc:
                    self._failed[name] = failed = exc
        raise TokenizerUnavailable(failed.name, failed.reason, failed.title)

    def status(self, name: str) -> str | None:
        """None if ``name`` loads, else the reason it is unavailable (loads it to find out; remembered)."""
        try:
            self.load(name)
        except TokenizerUnavailable as exc:
            return exc.reason
        return None


_REGISTRY = Registry()


def load(name: str) -> RealTokenizer:
    """The real tokenizer ``name`` (see :func:`catalogue`), loaded once per process and shared.

    Raises :class:`TokenizerUnavailable` (with ``name`` and ``reason``) for an
    unknown name or when its package or data is missing or damaged.
    """
    return _REGISTRY.load(name)


def status(name: str) -> str | None:
    """None if tokenizer ``name`` loads, else the reason it is unavailable."""
    return _REGISTRY.status(name)


__all__ = [
    "FEATURED",
    "NAMES",
    "RealInfo",
    "RealTokenizer",
    "Registry",
    "TokenizerUnavailable",
    "build",
    "catalogue",
    "data_file",
    "load",
    "status",
]
