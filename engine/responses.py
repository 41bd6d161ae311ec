"""Players' answers to prompts, as typed objects, with the reference's checks.

A host answers a prompt by filling the core's 256-byte response area, either
with one int32 (``set_responsei``, which overwrites only the first 4 bytes) or
with raw bytes (``set_responseb``, which copies all 256). Which one is natural
depends on the prompt; ``encode_response`` gives the bytes and
``response_kind`` says which call a host would use ("i" or "b").

``parse_response`` reads the response area the way the reference reads it for
that prompt and applies the same checks; whenever the reference would refuse
the answer (write MSG_RETRY and ask again) it raises ``InvalidResponse`` with a
reason that names the rule broken. ``legal_responses`` lists every answer where
the set is small and finite; ``random_response`` draws a valid answer for any
prompt (used by random players and tests).

Each of these asks the prompt's kind object (engine/prompt_kinds.py, one per
prompt kind), which is also what the engine checks an answer with: this module
is the stable, prompt-first spelling of those methods and the home of the
answer types' names.
"""

from __future__ import annotations

import random as _random
from typing import Literal, Sequence

from .constants import (  # noqa: F401  (re-exported: the ANNOUNCE_CARD filter opcodes)
    OPCODE_ADD,
    OPCODE_AND,
    OPCODE_DIV,
    OPCODE_ISATTRIBUTE,
    OPCODE_ISCODE,
    OPCODE_ISRACE,
    OPCODE_ISSETCARD,
    OPCODE_ISTYPE,
    OPCODE_MUL,
    OPCODE_NEG,
    OPCODE_NOT,
    OPCODE_OR,
    OPCODE_SUB,
)
from .messages import Prompt
from .prompt_kinds import (  # noqa: F401  (re-exported)
    ATTRIBUTES_END,
    BATTLE_ACTIVATE,
    BATTLE_ATTACK,
    BATTLE_END_PHASE,
    BATTLE_MAIN2,
    IDLE_ACTIVATE,
    IDLE_BATTLE_PHASE,
    IDLE_END_PHASE,
    IDLE_MSET,
    IDLE_REPOSITION,
    IDLE_SHUFFLE,
    IDLE_SPSUMMON,
    IDLE_SSET,
    IDLE_SUMMON,
    INT_RESPONSE_MAX,
    INT_RESPONSE_MIN,
    KINDS,
    RESPONSE_SIZE,
    SECOND_CODE_CARDS,
    AnnounceAttribResponse,
    AnnounceCardResponse,
    AnnounceNumberResponse,
    AnnounceRaceResponse,
    BattleCmdResponse,
    CardLookup,
    CardsResponse,
    ChainResponse,
    CounterResponse,
    DeclarableCard,
    IdleCmdResponse,
    InvalidResponse,
    NoValidResponse,
    OptionResponse,
    PlaceResponse,
    PositionResponse,
    Response,
    RpsResponse,
    SortResponse,
    SumResponse,
    TributeResponse,
    UnselectCardResponse,
    YesNoResponse,
    Zone,
    _s32,
    int_response,
    is_declarable,
    kind_of,
)

__all__ = [
    "RESPONSE_SIZE",
    "InvalidResponse",
    "NoValidResponse",
    "Response",
    "IdleCmdResponse",
    "BattleCmdResponse",
    "ChainResponse",
    "YesNoResponse",
    "OptionResponse",
    "CardsResponse",
    "UnselectCardResponse",
    "Zone",
    "PlaceResponse",
    "PositionResponse",
    "TributeResponse",
    "CounterResponse",
    "SumResponse",
    "SortResponse",
    "AnnounceRaceResponse",
    "AnnounceAttribResponse",
    "AnnounceCardResponse",
    "AnnounceNumberResponse",
    "RpsResponse",
    "DeclarableCard",
    "RESPONSE_TYPES",
    "encode_response",
    "response_kind",
    "response_area",
    "parse_response",
    "validate_response",
    "legal_responses",
    "random_response",
    "int_response",
    "is_declarable",
    "kind_of",
]

RESPONSE_TYPES: dict[type[Prompt], type[Response]] = {cls: k.response_type for cls, k in KINDS.items()}
"""Which response class answers which prompt class."""


def encode_response(prompt: Prompt, response: Response) -> bytes:
    """The bytes a host sends for ``response``: 4 bytes (an int32) for the
    kinds a host sends with ``set_responsei``, else the raw bytes for
    ``set_responseb`` (without the zero padding up to 256)."""
    return kind_of(prompt).encode(prompt, response)


def response_kind(prompt: Prompt, response: Response) -> Literal["i", "b"]:
    """"i" when a host sends ``response`` with ``set_responsei``, "b" for ``set_responseb``."""
    return kind_of(prompt).send_kind(prompt, response)


def response_area(prompt: Prompt, response: Response) -> bytes:
    """The 256-byte response area after a host sent ``response`` to a zeroed area."""
    data = encode_response(prompt, response)
    return data + bytes(RESPONSE_SIZE - len(data))


def parse_response(prompt: Prompt, raw: bytes, *, card_lookup: CardLookup | None = None) -> Response:
    """Read ``raw`` (the response area; shorter input is zero-padded to 256
    bytes) as the reference reads it for ``prompt``, and check it the same way.

    Raises ``InvalidResponse`` exactly when the reference would write MSG_RETRY.
    ANNOUNCE_CARD's database checks run only when ``card_lookup`` (code ->
    card record or None) is given; without it only code 0 is refused."""
    result: Response = kind_of(prompt).read(prompt, raw, card_lookup=card_lookup)
    return result


def validate_response(prompt: Prompt, response: Response, *, card_lookup: CardLookup | None = None) -> None:
    """Raise ``InvalidResponse`` if the reference would refuse ``response``."""
    kind_of(prompt).validate(prompt, response, card_lookup=card_lookup)


def legal_responses(prompt: Prompt) -> list[Response]:
    """Every accepted answer, for the prompts where that set is small:
    IDLECMD, BATTLECMD, CHAIN, EFFECTYN, YESNO, OPTION, POSITION (and
    ANNOUNCE_NUMBER, UNSELECT_CARD, ROCK_PAPER_SCISSORS). Commands that take
    no index are listed once, with index 0.  ValueError for the others
    (duelhost.legal lists those)."""
    return list(kind_of(prompt).legal(prompt))


def random_response(
    prompt: Prompt,
    rng: _random.Random,
    *,
    card_pool: Sequence[DeclarableCard] | None = None,
) -> Response:
    """A random answer the reference accepts (``parse_response`` accepts it).

    For ANNOUNCE_CARD pass ``card_pool``: the cards that may be named."""
    result: Response = kind_of(prompt).random(prompt, rng, card_pool=card_pool)
    return result
