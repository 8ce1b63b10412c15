"""Special tokens: what a chat template adds around each message, counted with a real template.

A model never reads a chat as plain text. A *chat template* wraps every
message in special tokens (begin of text, the start and end of a turn, role
markers) that no typed text can produce. They cost tokens too, on every
message, and they are why ``<|endoftext|>`` typed into a prompt is not the
end-of-text token: typed, it is ordinary characters, cut like any other
text; only the template (or a server) puts the real special token in.

The template counted here is an authoritative one that works offline:
Mistral's instruct format for its SentencePiece v3 tokenizer, as
``mistral-common`` (Mistral AI's own library) encodes a chat completion
request. Its control tokens are ``<s>`` (begin of text), ``[INST]`` and
``[/INST]`` around each user message, and ``</s>`` after each assistant
reply. Other models use other templates (ChatML's ``<|im_start|>``, Llama 3's
``<|start_header_id|>``…): the overhead differs, the idea does not.

``mistral_common`` is imported only when a chat is encoded.

>>> chat = mistral_chat([("user", "Ek cup chai kitne ki hai?"), ("assistant", "Bees rupaye."), ("user", "Aur samosa?")])
>>> [t.piece for t in chat.tokens if t.special]
['<s>', '[INST]', '[/INST]', '</s>', '[INST]', '[/INST]']
>>> chat.added == chat.total - sum(chat.content)
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from i18n import N_, _

ROLES = ("user", "assistant", "system")
TEMPLATE_TOKENIZER = "mistral-sp-v3"
"""The real tokenizer (:mod:`family.real`) whose checked data file the template tokenizer reads."""


@dataclass(frozen=True, slots=True)
class ChatToken:
    """One token of the templated chat: its id, its piece as the tokenizer writes it (``▁`` for a
    space, ``<0xE0>`` for a byte), whether it is a special (control) token that only the template
    can put in, and the bytes of text it stands for (none for a special token)."""

    id: int
    piece: str
    special: bool
    bytes: bytes = b""


@dataclass(frozen=True)
class ChatCount:
    """A chat wrapped in a real template and counted.

    ``tokens``   the whole templated chat, as the model reads it;
    ``content``  each message's own tokens, counted alone (no template);
    ``template`` which model's template this is, and the library that applied it.
    """

    template: str
    roles: tuple[str, ...]
    tokens: tuple[ChatToken, ...]
    content: tuple[int, ...]

    @property
    def total(self) -> int:
        return len(self.tokens)

    @property
    def added(self) -> int:
        """How many tokens the template adds to the messages' own."""
        return self.total - sum(self.content)

    @property
    def per_message(self) -> float:
        return self.added / len(self.content) if self.content else 0.0

    def specials(self) -> list[tuple[str, int]]:
        """Each special token the template used, with how many times, in order of first use."""
        counts = Counter(t.piece for t in self.tokens if t.special)
        return list(counts.items())


@lru_cache(maxsize=4)
def _mistral(name: str = TEMPLATE_TOKENIZER, finetuning: bool = False) -> Any:
    """Mistral's instruct tokenizer for real tokenizer ``name`` (``mistral-sp-v3`` or ``mistral-tekken``), read
    from the data file family.real has checked (sha256); ``finetuning``: its mode that takes a chat ending in
    an assistant's reply (a training record) instead of a user's message (a request)."""
    from mistral_common.protocol.instruct.validator import ValidationMode
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    from . import real
    real.load(name)  # raises TokenizerUnavailable if the file is missing or damaged
    mode = ValidationMode.finetuning if finetuning else ValidationMode.test
    return MistralTokenizer.from_file(str(real.data_file(name)), mode=mode)


def template_name() -> str:
    """``"Mistral instruct v3 (mistral-common 1.13.1)"``: which template :func:`mistral_chat` applies."""
    from importlib import metadata

    try:
        version = metadata.version("mistral-common")
    except metadata.PackageNotFoundError:  # pragma: no cover - the lab's requirements install it
        version = "not installed"
    return f"Mistral instruct v3 for Mistral 7B v0.3 (mistral-common {version})"


def mistral_chat(messages: Sequence[tuple[str, str]]) -> ChatCount:
    """Encode a chat with Mistral's instruct v3 template, and each message's content alone.

    ``messages`` are (role, content) pairs: ``"user"`` and ``"assistant"`` taking turns, starting
    and ending with ``"user"`` (a ``"system"`` message first is allowed: Mistral's template puts it
    into the last user message). Raises ValueError, in words, for a chat the template refuses.
    """
    mistral = _mistral()
    encoded = _encode(mistral, messages)
    sp = mistral.instruct_tokenizer.tokenizer
    from . import real
    text_bytes = real.load(TEMPLATE_TOKENIZER).token_bytes  # the same vocabulary, read by the lab
    tokens = tuple(
        ChatToken(i, sp.id_to_piece(i), special, b"" if special else text_bytes(i))
        for i, special in ((i, bool(sp.is_special(i))) for i in encoded)
    )
    content = tuple(len(sp.encode(text, bos=False, eos=False)) for _role, text in messages)
    return ChatCount(template_name(), tuple(role for role, _text in messages), tokens, content)


def _encode(mistral: Any, messages: Sequence[tuple[str, str]]) -> list[int]:
    """The ids of ``messages`` in ``mistral``'s template; ValueError, in words, for a chat it refuses."""
    if not messages:
        raise ValueError(_("A chat needs at least one message."))
    for role, _text in messages:
        if role not in ROLES:
            raise ValueError(_("Unknown role {role}: use user, assistant or system.", role=repr(role)))
    from mistral_common.exceptions import MistralCommonException
    from mistral_common.protocol.instruct.messages import AssistantMessage, SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    kinds = {"user": UserMessage, "assistant": AssistantMessage, "system": SystemMessage}
    try:
        request = ChatCompletionRequest(messages=[kinds[role](content=text) for role, text in messages])
        return mistral.encode_chat_completion(request).tokens
    except (MistralCommonException, ValueError) as exc:
        raise ValueError(_("Mistral's template refuses this chat: {why}", why=refusal(str(exc)))) from None


# mistral-common's reasons (1.13) for the chats a learner can write (roles user, assistant and system), each its own
# English word for word, so the English is the library's; a reason not here is shown as the library gives it.
_REASONS = frozenset({
    N_("Conversation must start with a user message or system message"),
    N_("Assistant message must have either content or tool_calls, but not both."),
})
_ROLE_AFTER = re.compile(r"Unexpected role '(\w+)' after role '(\w+)'")


def refusal(reason: str) -> str:
    """mistral-common's ``reason`` for refusing a chat, in the run's language where the lab knows it (the roles,
    data, as they are; in English, the library's words), else as the library gives it (on one line, at most 200
    characters).

    >>> refusal("Unexpected role 'system' after role 'assistant'")
    "Unexpected role 'system' after role 'assistant'"
    """
    reason = " ".join(reason.split())
    if reason in _REASONS:
        return _(reason)
    found = _ROLE_AFTER.fullmatch(reason)
    if found:
        return _("Unexpected role {role} after role {after}", role=repr(found[1]), after=repr(found[2]))
    return reason[:200]


def mistral_total(messages: Sequence[tuple[str, str]], tokenizer: str = TEMPLATE_TOKENIZER) -> int:
    """How many tokens ``messages`` are in Mistral's instruct template for real tokenizer ``tokenizer``:
    ``"mistral-sp-v3"`` (Mistral 7B v0.3) or ``"mistral-tekken"`` (Mistral NeMo), both applied by mistral-common
    offline from the data files family.real checks.

    A chat that ends with an assistant's reply (a training record) is encoded in mistral-common's fine-tuning
    mode, which takes it; one that ends with a user's message (a request) in its serving mode. ValueError, in
    words, for a chat the template refuses (an unknown role, a chat that starts with an assistant's reply...).
    """
    return len(_encode(_mistral(tokenizer, finetuning=bool(messages) and messages[-1][0] == "assistant"), messages))


__all__ = ["ChatCount", "ChatToken", "ROLES", "TEMPLATE_TOKENIZER", "mistral_chat", "mistral_total", "refusal", "template_name"]
