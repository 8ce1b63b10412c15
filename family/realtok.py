"""How a production tokenizer encodes, behind the lab's one tokenizer interface: :class:`RealTokenizer` and its
three kinds (tiktoken's rank-ordered byte-level BPE, Mistral's Tekken, SentencePiece). :mod:`family.real` finds,
checks and loads their data and hands out one shared instance of each (:func:`family.real.load`)."""

from __future__ import annotations

import operator
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from i18n import _
from tokenizer.bytelevel import gpt2_byte_stand_ins
from tokenizer.interface import Token
from tokenizer.labels import bytes_label, is_whole


@dataclass(frozen=True)
class RealInfo:
    """What a real tokenizer is, known without loading it.

    ``name``     the registry key, e.g. ``"cl100k_base"``.
    ``title``    what a page calls it, e.g. ``"GPT-4 (cl100k_base)"``.
    ``family``   the algorithm, e.g. ``"byte-level BPE (tiktoken)"``.
    ``unit``     what it starts from: ``"bytes"`` or ``"chars"``.
    ``licence``  the licence its vocabulary is under.
    ``provenance`` the package and version its data comes from, and how it was checked: a sentence marked for the
                 catalogue and its fields (names, versions, files; a ``(distribution, version)`` pair is a package,
                 its version None when it is not installed), put together in the run's language by :attr:`source`.
    ``models``   which models use it.
    ``featured`` one of the seven a page shows when it shows "every" one (:data:`family.real.FEATURED`).

    ``family`` is marked for the catalogue too: :attr:`algorithm` is it in the run's language.
    """

    name: str
    title: str
    family: str
    unit: str
    licence: str
    provenance: tuple[str, tuple[tuple[str, str | tuple[str, str | None]], ...]]
    models: str
    featured: bool = True

    @property
    def source(self) -> str:
        """Where the data comes from, in the run's language (English on the command line)."""
        template, fields = self.provenance
        return _(template, **{k: v if isinstance(v, str) else package_words(*v) for k, v in fields})

    @property
    def algorithm(self) -> str:
        """The algorithm (:attr:`family`), in the run's language."""
        return _(self.family)


def package_words(distribution: str, version: str | None) -> str:
    """An installed package as the provenance names it: ``quicktok-v1 1.0.2``, or not installed."""
    return f"{distribution} {version}" if version else _("{package} (not installed)", package=distribution)


SP_SPACE = "\u2581"  # ▁, SentencePiece's mark for a space

_BYTE_CHARS = [gpt2_byte_stand_ins()[b] for b in range(256)]  # GPT-2's stand-in character for each byte (Ġ: space)


def _clean(text: str) -> str:
    """Lone surrogates (which are not text) become U+FFFD, as tiktoken does; everything else is kept."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


class RealTokenizer:
    """A production tokenizer behind the lab's :class:`~tokenizer.interface.TextTokenizer` interface.

    Get one with :func:`load`. It is read-only and shared by every caller
    (its caches only ever gain entries that are the same for everyone).
    Besides the interface it offers ``count(text)``, ``raw_piece(id)`` (the
    token as the tokenizer itself writes it) and ``info`` (its
    :class:`RealInfo`).
    """

    _split: Any = None  # the compiled pre-split pattern (``regex``), for the kinds that have one
    #: Its pre-split never joins across :func:`tokenizer.chunked.cut_text`'s cut places (tested for every one).
    cuts_safely = True

    def __init__(self, info: RealInfo, vocab_size: int) -> None:
        self.info = info
        self._vocab_size = vocab_size
        self._labels: dict[int, tuple[str, bool]] = {}

    # -- who it is ----------------------------------------------------------------------------
    @property
    def key(self) -> str:
        """The registry name, e.g. ``"cl100k_base"``."""
        return self.info.name

    @property
    def name(self) -> str:
        return self.info.title

    @property
    def family(self) -> str:
        return self.info.algorithm  # in the run's language

    @property
    def unit(self) -> str:
        return self.info.unit

    @property
    def vocab_size(self) -> int:
        return self._vocab_size

    @property
    def source(self) -> str:
        return self.info.source

    @property
    def licence(self) -> str:
        return self.info.licence

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.name}: {self.info.title}, vocabulary {self._vocab_size:,}>"

    # -- what each kind provides -------------------------------------------------------------
    def _prepare(self, text: str) -> str:
        """The text the tokenizer really reads (after any normalisation)."""
        return _clean(text)

    def _encode_prepared(self, text: str) -> list[int]:
        raise NotImplementedError

    def _bytes_many(self, ids: Sequence[int]) -> list[bytes]:
        return [self.token_bytes(i) for i in ids]

    def _pieces(self, text: str, ids: Sequence[int], data: Sequence[bytes]) -> Iterable[int]:
        """Each token's piece index (the kinds with a pre-split pattern; SentencePiece has its own)."""
        return _regex_piece_indices(self._split.finditer(text), data)

    def token_bytes(self, token_id: int) -> bytes:
        raise NotImplementedError

    def raw_piece(self, token_id: int) -> str:
        """The token as the tokenizer itself writes it (``Ġ`` for a space in byte-level BPE, ``▁`` in SentencePiece)."""
        raise NotImplementedError

    def decode(self, ids: Iterable[int]) -> str:
        raise NotImplementedError

    def _check_id(self, token_id: int) -> int:
        """The id as a Python int, or ValueError when it is not in the vocabulary."""
        try:
            number = operator.index(token_id)
        except TypeError:
            number = -1
        if not 0 <= number < self._vocab_size:
            raise ValueError(f"Id {token_id!r} is not in the {self.name} vocabulary (0 to {self._vocab_size - 1}).")
        return number

    # -- the interface -----------------------------------------------------------------------
    def encode(self, text: str) -> list[int]:
        """Text to ids. Special tokens typed as text (``<|endoftext|>``, ``<s>``) are ordinary text."""
        return self._encode_prepared(self._prepare(text))

    def count(self, text: str) -> int:
        """How many tokens ``text`` is."""
        return len(self.encode(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """How many tokens each text is (:meth:`count` of each, in as few calls as the library allows: millions of
        short records cost little more than their text)."""
        encode = self._encode_prepared
        prepare = self._prepare
        return [len(encode(prepare(text))) for text in texts]

    @property
    def pattern(self) -> str | None:
        """The pre-split regular expression this tokenizer cuts text with before any merge
        (``None`` for SentencePiece, which has none)."""
        return None if self._split is None else self._split.pattern

    def pieces(self, text: str) -> list[str]:
        """The pre-split pieces of ``text``, in order: the matches of the tokenizer's own pattern
        (for SentencePiece, which has none, its words: from one ``▁`` to the next). BPE never merges
        across two pieces, so each token lies inside one; ``Token.piece`` is the piece's index.

        >>> load("cl100k_base").pieces("घने कोहरे")      # vowel signs are not letters to its pattern
        ['घन', 'े', ' क', 'ोहर', 'े']
        >>> load("o200k_base").pieces("घने कोहरे")       # marks stay with their letters
        ['घने', ' कोहरे']
        """
        prepared = self._prepare(text)
        if self._split is not None:
            return [match.group() for match in self._split.finditer(prepared)]
        grouped: dict[int, bytearray] = {}
        for token in self.encode_tokens(text):
            grouped.setdefault(token.piece, bytearray()).extend(token.bytes)
        return [bytes(data).decode("utf-8", errors="replace") for data in grouped.values()]

    # -- the pipeline, stage by stage ---------------------------------------------------------
    def normalize(self, text: str) -> str:
        """The text the model part reads: after normalisation (Qwen3: NFC; SentencePiece: a ``▁`` for
        every space and one in front), before the pre-split."""
        return self._prepare(text)

    @property
    def special_tokens(self) -> dict[str, int]:
        """The special tokens that :meth:`encode_special` can read from text, text -> id ({} if none)."""
        return {}

    def encode_special(self, text: str) -> list[int]:
        """Text to ids with special-token text (``<|endoftext|>``) read as the special token itself:
        what a chat template or a server does, never what a user's text gets (see :meth:`encode`)."""
        raise ValueError(f"The {self.name} tokenizer here has no special tokens to read from text.")

    def encode_tokens(self, text: str, *, limit: int | None = None) -> list[Token]:
        """Text to :class:`Token` objects; ``limit`` keeps only the first ``limit`` (the same as slicing).

        The whole text is encoded (that is fast), but Token objects are built only for the tokens kept.
        """
        text = self._prepare(text)
        ids = self._encode_prepared(text)
        if limit is not None:
            ids = ids[:limit]
        data = self._bytes_many(ids)
        labels = self._labels
        out: list[Token] = []
        append = out.append
        for token_id, token_bytes, piece in zip(ids, data, self._pieces(text, ids, data)):
            label = labels.get(token_id)
            if label is None:
                label = labels[token_id] = (bytes_label(token_bytes), is_whole(token_bytes))
            append(Token(token_id, label[0], token_bytes, label[1], True, piece))
        return out


class _TiktokenTokenizer(RealTokenizer):
    """Byte-level BPE run by ``tiktoken.Encoding``; pieces are the matches of its pattern."""

    def __init__(self, info: RealInfo, encoding: Any, pattern: str, specials: dict[str, int], *,
                 nfc: bool = False, ranks: dict[bytes, int] | None = None) -> None:
        import regex

        super().__init__(info, encoding.n_vocab)
        self._enc = encoding
        # The ranks tiktoken was built from (the same dict it keeps: no second copy): bytes -> rank, and rank = id.
        self._ranks = ranks if ranks is not None else encoding._mergeable_ranks
        self._split = regex.compile(pattern)
        self._nfc = nfc
        self._special_ids = {token_id: text for text, token_id in specials.items()}

    def _prepare(self, text: str) -> str:
        text = _clean(text)
        if self._nfc and not unicodedata.is_normalized("NFC", text):
            text = unicodedata.normalize("NFC", text)
        return text

    def _encode_prepared(self, text: str) -> list[int]:
        return self._enc.encode_ordinary(text)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        # tiktoken's encode_ordinary makes a lone surrogate U+FFFD itself, as _clean does; only NFC is ours to do.
        encode = self._enc.encode_ordinary
        if self._nfc:
            prepare = self._prepare
            return [len(encode(prepare(text))) for text in texts]
        return [len(encode(text)) for text in texts]

    def _bytes_many(self, ids: Sequence[int]) -> list[bytes]:
        return self._enc.decode_tokens_bytes(ids)

    def token_bytes(self, token_id: int) -> bytes:
        token_id = self._check_id(token_id)
        try:
            return self._enc.decode_single_token_bytes(token_id)
        except KeyError:
            raise ValueError(f"Id {token_id} is an unused id in the {self.name} vocabulary.") from None

    def raw_piece(self, token_id: int) -> str:
        if token_id in self._special_ids:
            return self._special_ids[token_id]
        return "".join(_BYTE_CHARS[b] for b in self.token_bytes(token_id))

    @property
    def special_tokens(self) -> dict[str, int]:
        return {name: token_id for token_id, name in self._special_ids.items()}

    def encode_special(self, text: str) -> list[int]:
        return self._enc.encode(self._prepare(text), allowed_special="all")

    def merge_ranks(self) -> tuple[dict[bytes, int], int]:
        """The rank of every mergeable token's bytes, and what to add to a rank to get its id (0 here)."""
        return self._ranks, 0

    def decode(self, ids: Iterable[int]) -> str:
        ids = [self._check_id(token_id) for token_id in ids]
        try:
            return self._enc.decode(ids, errors="replace")
        except KeyError as exc:
            raise ValueError(f"Id {exc.args[0]} is an unused id in the {self.name} vocabulary.") from None


def _regex_piece_indices(matches: Iterator[Any], data: Sequence[bytes]) -> Iterator[int]:
    """For each token (its bytes, in order), the index of the pre-split piece it starts in.

    BPE never merges across pieces, so each token lies inside one piece;
    walking both by byte offsets finds it without re-encoding anything.
    """
    index, end, position = -1, 0, 0
    for token_bytes in data:
        while position >= end:
            match = next(matches, None)
            if match is None:  # cannot happen: the pieces cover the text
                break
            index += 1
            end += len(match.group().encode("utf-8"))
        yield max(index, 0)
        position += len(token_bytes)


class _TekkenTokenizer(RealTokenizer):
    """Mistral's Tekken: byte-level BPE through mistral_common's Tekkenizer; ids 0-999 are its special tokens."""

    def __init__(self, info: RealInfo, tekkenizer: Any) -> None:
        import regex

        super().__init__(info, tekkenizer.n_words)
        self._tk = tekkenizer
        self._specials = tekkenizer.num_special_tokens
        # Tekkenizer.encode runs this tiktoken Encoding (its only tokenizer), so its pattern is the pre-split.
        self._split = regex.compile(tekkenizer._model._pat_str)
        self._bytes: dict[int, bytes] = {}

    def merge_ranks(self) -> tuple[dict[bytes, int], int]:
        """The rank of every mergeable token's bytes (the dict mistral_common's tiktoken Encoding keeps), and
        what to add to a rank to get its id: Tekken's special tokens come first."""
        return self._tk._model._mergeable_ranks, self._specials

    def _encode_prepared(self, text: str) -> list[int]:
        return self._tk.encode(text, bos=False, eos=False)

    def token_bytes(self, token_id: int) -> bytes:
        cached = self._bytes.get(token_id)
        if cached is None:
            token_id = self._check_id(token_id)
            from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy

            cached = self._bytes[token_id] = self._tk.id_to_byte_piece(token_id, SpecialTokenPolicy.KEEP)
        return cached

    def raw_piece(self, token_id: int) -> str:
        data = self.token_bytes(token_id)
        if token_id < self._specials:
            return data.decode("utf-8")
        return "".join(_BYTE_CHARS[b] for b in data)

    def decode(self, ids: Iterable[int]) -> str:
        return self._tk.decode([self._check_id(token_id) for token_id in ids])


class _SentencePieceTokenizer(RealTokenizer):
    """A SentencePiece model: ``▁`` marks a space, a dummy ``▁`` starts the text, ``<0xE0>`` is one byte.

    There is no regex pre-split: a token's piece is its word, and a new word
    starts at every token that begins with ``▁``. The first token carries the
    dummy space SentencePiece adds in front of the text, so the tokens' bytes
    join into ``" " + text`` (and ``decode`` takes that space off again). It
    is lossless but for one character: a ``▁`` typed in the text is read,
    and decoded, as a space.
    """

    def __init__(self, info: RealInfo, processor: Any) -> None:
        size = processor.vocab_size()
        super().__init__(info, size)
        self._sp = processor
        self._pieces_text = [processor.id_to_piece(i) for i in range(size)]
        self._starts_word = [piece.startswith(SP_SPACE) for piece in self._pieces_text]
        self._merge_pieces: tuple[dict[str, int], list[float], list[int]] | None = None
        self._bytes_table: list[bytes] = []
        for i, piece in enumerate(self._pieces_text):
            if processor.is_byte(i):
                self._bytes_table.append(bytes([int(piece[3:5], 16)]))  # "<0xE0>"
            elif processor.is_control(i) or processor.is_unknown(i):
                self._bytes_table.append(piece.encode("utf-8"))  # "<s>", "[INST]": their written form
            else:
                self._bytes_table.append(piece.replace(SP_SPACE, " ").encode("utf-8"))

    def _prepare(self, text: str) -> str:
        # SentencePiece writes a space as ▁, so it reads a ▁ typed in the text as a space too.
        return _clean(text).replace(SP_SPACE, " ")

    def normalize(self, text: str) -> str:
        # SentencePiece's own normaliser: its rules, then ▁ for each space and one in front.
        return self._sp.normalize(self._prepare(text))

    def _encode_prepared(self, text: str) -> list[int]:
        return self._sp.encode(text)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        prepare = self._prepare
        return [len(ids) for ids in self._sp.encode([prepare(text) for text in texts])]  # one call for them all

    def _bytes_many(self, ids: Sequence[int]) -> list[bytes]:
        table = self._bytes_table
        return [table[i] for i in ids]

    def _pieces(self, text: str, ids: Sequence[int], data: Sequence[bytes]) -> Iterator[int]:
        starts = self._starts_word
        word = -1
        for token_id in ids:
            if starts[token_id] or word < 0:
                word += 1
            yield word

    def token_bytes(self, token_id: int) -> bytes:
        return self._bytes_table[self._check_id(token_id)]

    def merge_pieces(self) -> tuple[dict[str, int], list[float], list[int]]:
        """What its merge rule reads: every normal piece's text (``▁`` for a space) -> id, every id's score (the
        pair whose joined piece scores highest merges first) and the id of each byte's fallback token ``<0xE0>``."""
        sp = self._sp
        if self._merge_pieces is None:
            normal = {piece: i for i, piece in enumerate(self._pieces_text)
                      if not (sp.is_byte(i) or sp.is_control(i) or sp.is_unknown(i) or sp.is_unused(i))}
            scores = [sp.get_score(i) for i in range(self._vocab_size)]
            fallback = [sp.piece_to_id(f"<0x{b:02X}>") for b in range(256)]
            self._merge_pieces = (normal, scores, fallback)
        return self._merge_pieces

    def user_symbols(self) -> list[str]:
        """Its user-defined symbols (``[REFERENCE_DOC_0]``...): found whole in a text before any merge."""
        from sentencepiece import sentencepiece_model_pb2

        proto = sentencepiece_model_pb2.ModelProto()
        proto.ParseFromString(self._sp.serialized_model_proto())
        user_defined = sentencepiece_model_pb2.ModelProto.SentencePiece.USER_DEFINED
        return [p.piece for p in proto.pieces if p.type == user_defined]

    def raw_piece(self, token_id: int) -> str:
        return self._pieces_text[self._check_id(token_id)]

    def decode(self, ids: Iterable[int]) -> str:
        return self._sp.decode([self._check_id(token_id) for token_id in ids])
