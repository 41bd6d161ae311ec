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
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Callable, ClassVar, Literal, Protocol, Sequence

from .messages import (
    MsgAnnounceAttrib,
    MsgAnnounceCard,
    MsgAnnounceNumber,
    MsgAnnounceRace,
    MsgRockPaperScissors,
    MsgSelectBattleCmd,
    MsgSelectCard,
    MsgSelectChain,
    MsgSelectCounter,
    MsgSelectDisfield,
    MsgSelectEffectYn,
    MsgSelectIdleCmd,
    MsgSelectOption,
    MsgSelectPlace,
    MsgSelectPosition,
    MsgSelectSum,
    MsgSelectTribute,
    MsgSelectUnselectCard,
    MsgSelectYesNo,
    MsgSortCard,
    Prompt,
    sum_params,
)
from .constants import (
    LOCATION_MZONE,
    LOCATION_SZONE,
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
    TYPE_TOKEN,
)
from .core_constants import RACES_COUNT, SECOND_CODE, SIZE_RETURN_VALUE
from .wire import I32, U16, U32

__all__ = [
    "RESPONSE_SIZE",
    "InvalidResponse",
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
    "is_declarable",
]

RESPONSE_SIZE = SIZE_RETURN_VALUE
"""Size of the reference's response area (``SIZE_RETURN_VALUE``, 256)."""

ATTRIBUTES_END = 0x80  # attribute bits are 0x01 .. 0x40 (the reference loops to 0x80)

IDLE_SUMMON, IDLE_SPSUMMON, IDLE_REPOSITION, IDLE_MSET, IDLE_SSET = 0, 1, 2, 3, 4
IDLE_ACTIVATE, IDLE_BATTLE_PHASE, IDLE_END_PHASE, IDLE_SHUFFLE = 5, 6, 7, 8
BATTLE_ACTIVATE, BATTLE_ATTACK, BATTLE_MAIN2, BATTLE_END_PHASE = 0, 1, 2, 3

# Cards whose printed name is also another name: they stay declarable
# although they have a rule code.
SECOND_CODE_CARDS = frozenset(SECOND_CODE)


class InvalidResponse(ValueError):
    """The reference would refuse this answer (MSG_RETRY); ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------------
# Response objects
# ---------------------------------------------------------------------------
class Response:
    """Base of all answers."""

    __slots__ = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class IdleCmdResponse(Response):
    """Main Phase menu choice: ``command`` 0 summon, 1 special summon, 2 change
    position, 3 set monster, 4 set Spell/Trap, 5 activate (``index`` into that
    list), 6 Battle Phase, 7 End Phase, 8 shuffle hand (``index`` ignored).
    Sent as the int32 ``(index << 16) | command``."""

    command: int
    index: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class BattleCmdResponse(Response):
    """Battle Phase menu choice: ``command`` 0 activate, 1 attack (``index``
    into that list), 2 Main Phase 2, 3 End Phase. Sent like IdleCmdResponse."""

    command: int
    index: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainResponse(Response):
    """Index of the effect to chain, or ``None`` to pass (sent as -1)."""

    index: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class YesNoResponse(Response):
    """Answer to SELECT_EFFECTYN and SELECT_YESNO (sent as 1 or 0)."""

    yes: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionResponse(Response):
    """Index into SELECT_OPTION's options."""

    index: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsResponse(Response):
    """Chosen card indexes for SELECT_CARD and SELECT_TRIBUTE, or ``None`` to
    cancel (sent as the int32 -1). Sent as a count byte then one byte each."""

    indices: tuple[int, ...] | None


TributeResponse = CardsResponse


@dataclass(frozen=True, slots=True, kw_only=True)
class UnselectCardResponse(Response):
    """One index into SELECT_UNSELECT_CARD's selectable + unselectable lists
    (in that order), or ``None`` to finish / cancel (sent as -1)."""

    index: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Zone:
    """A zone as the response names it: player, location (MZONE/SZONE), sequence."""

    player: int
    location: int
    sequence: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceResponse(Response):
    """Zones chosen for SELECT_PLACE / SELECT_DISFIELD, 3 bytes each."""

    zones: tuple[Zone, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionResponse(Response):
    """One POS_* bit."""

    position: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CounterResponse(Response):
    """How many counters to remove from each card of SELECT_COUNTER (u16 each)."""

    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SumResponse(Response):
    """Indexes into SELECT_SUM's ``cards`` (the must-select cards are implied).

    Sent as a count byte that includes the must-select cards, one ignored byte
    per must-select card (we send 0), then the indexes."""

    indices: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SortResponse(Response):
    """For each card of SORT_CARD its new place (a permutation of 0..n-1), or
    ``None`` to keep the order (sent as the byte 0xff)."""

    order: tuple[int, ...] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class AnnounceRaceResponse(Response):
    """A mask of exactly ``count`` declared races (int32)."""

    races: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AnnounceAttribResponse(Response):
    """A mask of exactly ``count`` declared attributes (int32)."""

    attributes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AnnounceCardResponse(Response):
    """The declared card code (int32)."""

    code: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AnnounceNumberResponse(Response):
    """Index into ANNOUNCE_NUMBER's options (not the number itself)."""

    index: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RpsResponse(Response):
    """Rock-paper-scissors hand: 1 scissors, 2 rock, 3 paper. The reference
    does not check this value at all."""

    choice: int


RESPONSE_TYPES: dict[type[Prompt], type[Response]] = {
    MsgSelectIdleCmd: IdleCmdResponse,
    MsgSelectBattleCmd: BattleCmdResponse,
    MsgSelectChain: ChainResponse,
    MsgSelectEffectYn: YesNoResponse,
    MsgSelectYesNo: YesNoResponse,
    MsgSelectOption: OptionResponse,
    MsgSelectCard: CardsResponse,
    MsgSelectTribute: CardsResponse,
    MsgSelectUnselectCard: UnselectCardResponse,
    MsgSelectPlace: PlaceResponse,
    MsgSelectDisfield: PlaceResponse,
    MsgSelectPosition: PositionResponse,
    MsgSelectCounter: CounterResponse,
    MsgSelectSum: SumResponse,
    MsgSortCard: SortResponse,
    MsgAnnounceRace: AnnounceRaceResponse,
    MsgAnnounceAttrib: AnnounceAttribResponse,
    MsgAnnounceCard: AnnounceCardResponse,
    MsgAnnounceNumber: AnnounceNumberResponse,
    MsgRockPaperScissors: RpsResponse,
}
"""Which response class answers which prompt class."""


class DeclarableCard(Protocol):
    """What ANNOUNCE_CARD's check needs to know about a card (engine.carddb.CardRecord fits)."""

    code: int
    alias: int
    setcodes: Sequence[int]
    type: int
    race: int
    attribute: int
    rule_code: int


CardLookup = Callable[[int], "DeclarableCard | None"]


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------
INT_RESPONSE_MIN, INT_RESPONSE_MAX = -(1 << 31), (1 << 32) - 1


def int_response(value: int) -> bytes:
    """The 4 bytes of an int answer, as ``set_responsei`` takes it: a 32-bit value
    (-2**31 .. 2**32-1, a negative one as two's complement).  A wider value is
    InvalidResponse: masking it would turn 2**32 + 7 into 7, another answer."""
    if not INT_RESPONSE_MIN <= value <= INT_RESPONSE_MAX:
        raise InvalidResponse(f"an int answer must fit in 32 bits ({INT_RESPONSE_MIN} .. "
                              f"{INT_RESPONSE_MAX}), got {value}")
    return U32.pack(value & 0xFFFFFFFF)




def _check_type(prompt: Prompt, response: Response) -> None:
    expected = RESPONSE_TYPES.get(type(prompt))
    if expected is None:
        raise TypeError(f"{type(prompt).__name__} is not a prompt")
    if not isinstance(response, expected):
        raise TypeError(f"{type(prompt).__name__} is answered by {expected.__name__}, not {type(response).__name__}")


def _bytes(values: Sequence[int], what: str) -> bytes:
    try:
        return bytes(values)
    except ValueError:
        raise ValueError(f"{what}: every value must fit in a byte, got {list(values)}") from None


def encode_response(prompt: Prompt, response: Response) -> bytes:
    """The bytes a host sends for ``response``: 4 bytes (an int32) for the
    kinds a host sends with ``set_responsei``, else the raw bytes for
    ``set_responseb`` (without the zero padding up to 256)."""
    _check_type(prompt, response)
    r = response
    if isinstance(r, (IdleCmdResponse, BattleCmdResponse)):
        if not (0 <= r.command <= 0xFFFF and 0 <= r.index <= 0xFFFF):
            # masked, command 0x10007 would be another answer (the End Phase)
            raise ValueError(f"command and index must fit in 16 bits each, got {r.command}, {r.index}")
        return int_response((r.index << 16) | r.command)
    if isinstance(r, ChainResponse):
        return int_response(-1 if r.index is None else r.index)
    if isinstance(r, YesNoResponse):
        return int_response(1 if r.yes else 0)
    if isinstance(r, (OptionResponse, AnnounceNumberResponse)):
        return int_response(r.index)
    if isinstance(r, CardsResponse):
        if r.indices is None:
            return int_response(-1)
        return _bytes((len(r.indices), *r.indices), "card indexes")
    if isinstance(r, UnselectCardResponse):
        if r.index is None:
            return int_response(-1)
        return _bytes((1, r.index), "card index")
    if isinstance(r, PlaceResponse):
        out = bytearray()
        for i, z in enumerate(r.zones):
            if not isinstance(z, Zone):
                raise TypeError(f"zone {i} must be a Zone(player=, location=, sequence=), not {z!r}")
            out += _bytes((z.player, z.location, z.sequence), "zone")
        return bytes(out)
    if isinstance(r, PositionResponse):
        return int_response(r.position)
    if isinstance(r, CounterResponse):
        if any(not 0 <= c <= 0xFFFF for c in r.counts):
            raise ValueError(f"counter counts must fit in 16 bits, got {list(r.counts)}")
        return b"".join([U16.pack(c) for c in r.counts])
    if isinstance(r, SumResponse):
        assert isinstance(prompt, MsgSelectSum)
        must = len(prompt.must_cards)
        return _bytes((must + len(r.indices), *([0] * must), *r.indices), "sum selection")
    if isinstance(r, SortResponse):
        if r.order is None:
            return b"\xff"
        return _bytes(r.order, "sort order")
    if isinstance(r, AnnounceRaceResponse):
        return int_response(r.races)
    if isinstance(r, AnnounceAttribResponse):
        return int_response(r.attributes)
    if isinstance(r, AnnounceCardResponse):
        return int_response(r.code)
    if isinstance(r, RpsResponse):
        return int_response(r.choice)
    raise TypeError(f"unknown response {r!r}")  # pragma: no cover


def response_kind(prompt: Prompt, response: Response) -> Literal["i", "b"]:
    """"i" when a host sends ``response`` with ``set_responsei``, "b" for ``set_responseb``."""
    _check_type(prompt, response)
    if isinstance(response, CardsResponse):
        return "i" if response.indices is None else "b"
    if isinstance(response, UnselectCardResponse):
        return "i" if response.index is None else "b"
    if isinstance(response, (PlaceResponse, CounterResponse, SumResponse, SortResponse)):
        return "b"
    return "i"


def response_area(prompt: Prompt, response: Response) -> bytes:
    """The 256-byte response area after a host sent ``response`` to a zeroed area."""
    data = encode_response(prompt, response)
    return data + bytes(RESPONSE_SIZE - len(data))


# ---------------------------------------------------------------------------
# Parsing with the reference's checks
# ---------------------------------------------------------------------------
def _area(raw: bytes) -> bytes:
    raw = bytes(raw)
    if len(raw) > RESPONSE_SIZE:
        raise InvalidResponse(f"a response has at most {RESPONSE_SIZE} bytes, got {len(raw)}")
    return raw + bytes(RESPONSE_SIZE - len(raw))


def _ivalue(area: bytes) -> int:
    return I32.unpack_from(area, 0)[0]


def _check_indices(area: bytes, size: int, lo: int, hi: int, what: str) -> tuple[int, ...]:
    """A count byte in [lo, hi], then that many distinct indexes below ``size``
    (field::check_response)."""
    count = area[0]
    if count < lo or count > hi:
        raise InvalidResponse(f"{what}: chose {count} cards, must choose {lo} to {hi}")
    seen: set[int] = set()
    for i in range(count):
        idx = area[1 + i]
        if idx >= size:
            raise InvalidResponse(f"{what}: index {idx} out of range (there are {size} cards)")
        if idx in seen:
            raise InvalidResponse(f"{what}: index {idx} chosen twice")
        seen.add(idx)
    return tuple(area[1 : 1 + count])


def _parse_idle(p: MsgSelectIdleCmd, area: bytes) -> IdleCmdResponse:
    v = _ivalue(area) & 0xFFFFFFFF
    t, s = v & 0xFFFF, v >> 16
    if t > 8:
        raise InvalidResponse(f"IDLECMD: command {t} does not exist (0-8)")
    if t <= 5:
        lst = p.card_lists[t] if t < 5 else p.activatable
        names = ("summon", "special summon", "reposition", "monster set", "spell/trap set", "activate")
        if s >= len(lst):
            raise InvalidResponse(f"IDLECMD: {names[t]} index {s} out of range ({len(lst)} entries)")
    elif t == 6 and not p.can_battle_phase:
        raise InvalidResponse("IDLECMD: going to the Battle Phase is not allowed now")
    elif t == 7 and not p.can_end_phase:
        raise InvalidResponse("IDLECMD: going to the End Phase is not allowed now")
    elif t == 8 and not p.can_shuffle:
        raise InvalidResponse("IDLECMD: shuffling the hand is not allowed now")
    return IdleCmdResponse(command=t, index=s)


def _parse_battle(p: MsgSelectBattleCmd, area: bytes) -> BattleCmdResponse:
    v = _ivalue(area) & 0xFFFFFFFF
    t, s = v & 0xFFFF, v >> 16
    if t > 3:
        raise InvalidResponse(f"BATTLECMD: command {t} does not exist (0-3)")
    if t == 0 and s >= len(p.activatable):
        raise InvalidResponse(f"BATTLECMD: activate index {s} out of range ({len(p.activatable)} effects)")
    if t == 1 and s >= len(p.attackable):
        raise InvalidResponse(f"BATTLECMD: attack index {s} out of range ({len(p.attackable)} attackers)")
    if t == 2 and not p.can_main2:
        raise InvalidResponse("BATTLECMD: going to Main Phase 2 is not allowed now")
    if t == 3 and not p.can_end_phase:
        raise InvalidResponse("BATTLECMD: going to the End Phase is not allowed now")
    return BattleCmdResponse(command=t, index=s)


def _parse_chain(p: MsgSelectChain, area: bytes) -> ChainResponse:
    v = _ivalue(area)
    if v == -1:
        if p.has_forced:
            raise InvalidResponse("CHAIN: cannot pass, an effect must be chained")
        return ChainResponse(index=None)
    if v < 0 or v >= len(p.chains):
        raise InvalidResponse(f"CHAIN: index {v} out of range ({len(p.chains)} effects; -1 passes)")
    return ChainResponse(index=v)


def _parse_yesno(p: Prompt, area: bytes) -> YesNoResponse:
    v = _ivalue(area)
    if v not in (0, 1):
        raise InvalidResponse(f"{type(p).NAME}: answer must be 0 or 1, got {v}")
    return YesNoResponse(yes=v == 1)


def _parse_option(p: MsgSelectOption, area: bytes) -> OptionResponse:
    v = _ivalue(area)
    if v < 0 or v >= len(p.options):
        raise InvalidResponse(f"OPTION: index {v} out of range ({len(p.options)} options)")
    return OptionResponse(index=v)


def _parse_card(p: MsgSelectCard, area: bytes) -> CardsResponse:
    if _ivalue(area) == -1:
        if p.cancelable:
            return CardsResponse(indices=None)
        raise InvalidResponse("SELECT_CARD: cannot cancel this selection")
    return CardsResponse(indices=_check_indices(area, len(p.cards), p.min, p.max, "SELECT_CARD"))


def _parse_unselect(p: MsgSelectUnselectCard, area: bytes) -> UnselectCardResponse:
    if _ivalue(area) == -1:
        if p.cancelable or p.finishable:
            return UnselectCardResponse(index=None)
        raise InvalidResponse("SELECT_UNSELECT_CARD: cannot finish or cancel now")
    total = len(p.selectable) + len(p.unselectable)
    (idx,) = _check_indices(area, total, 1, 1, "SELECT_UNSELECT_CARD")
    return UnselectCardResponse(index=idx)


def _parse_place(p: MsgSelectPlace | MsgSelectDisfield, area: bytes) -> PlaceResponse:
    """The reference reads max(1, count) zones of 3 bytes. A zone is refused if
    the player byte is not 0/1, the location is not MZONE/SZONE, its bit is
    set in ``flag`` or it was already chosen; choosing own Extra Monster Zone
    5 (6) also takes the opponent's 6 (5). With ``count`` 0, a first zone whose
    location byte is 0 is accepted as "no zone"."""
    name = type(p).NAME
    n = max(1, p.count)
    selected = 0
    zones = []
    for i in range(n):
        pl, loc, seq = area[3 * i], area[3 * i + 1], area[3 * i + 2]
        # The reference computes 1u << shift in 32 bits; x86 uses shift mod 32.
        shift = (seq + (0 if pl == p.player else 16) + (0 if loc == LOCATION_MZONE else 8)) & 31
        sel = 1 << shift
        if not (p.count == 0 and i == 0 and loc == 0):
            if pl not in (0, 1):
                raise InvalidResponse(f"{name}: zone {i}: player byte {pl} is not 0 or 1")
            if loc not in (LOCATION_MZONE, LOCATION_SZONE):
                raise InvalidResponse(f"{name}: zone {i}: location {loc:#x} is not MZONE (4) or SZONE (8)")
            if sel & p.flag:
                raise InvalidResponse(f"{name}: zone {i}: P{pl} location {loc:#x} sequence {seq} may not be chosen")
            if sel & selected:
                raise InvalidResponse(f"{name}: zone {i}: P{pl} location {loc:#x} sequence {seq} chosen twice")
        if sel & (1 << 5):
            sel |= 1 << (16 + 6)
        if sel & (1 << 6):
            sel |= 1 << (16 + 5)
        selected |= sel
        zones.append(Zone(player=pl, location=loc, sequence=seq))
    return PlaceResponse(zones=tuple(zones))


def _parse_position(p: MsgSelectPosition, area: bytes) -> PositionResponse:
    pos = _ivalue(area) & 0xFFFFFFFF
    if pos not in (1, 2, 4, 8):
        raise InvalidResponse(f"POSITION: {pos:#x} is not exactly one POS_* bit")
    if not pos & p.positions:
        raise InvalidResponse(f"POSITION: {pos:#x} is not among the allowed positions {p.positions:#x}")
    return PositionResponse(position=pos)


def _parse_tribute(p: MsgSelectTribute, area: bytes) -> CardsResponse:
    if _ivalue(area) == -1:
        if p.cancelable:
            return CardsResponse(indices=None)
        raise InvalidResponse("SELECT_TRIBUTE: cannot cancel this selection")
    count = area[0]
    if count > p.max:
        raise InvalidResponse(f"SELECT_TRIBUTE: chose {count} cards, at most {p.max} allowed")
    seen: set[int] = set()
    total = 0
    for i in range(count):
        idx = area[1 + i]
        if idx >= len(p.cards):
            raise InvalidResponse(f"SELECT_TRIBUTE: index {idx} out of range (there are {len(p.cards)} cards)")
        if idx in seen:
            raise InvalidResponse(f"SELECT_TRIBUTE: index {idx} chosen twice")
        seen.add(idx)
        total += p.cards[idx].release_param
    if total < p.min:
        raise InvalidResponse(f"SELECT_TRIBUTE: the chosen cards count as {total} tributes, {p.min} needed")
    return CardsResponse(indices=tuple(area[1 : 1 + count]))


def _parse_counter(p: MsgSelectCounter, area: bytes) -> CounterResponse:
    counts = []
    total = 0
    for i, card in enumerate(p.cards):
        c = area[2 * i] | (area[2 * i + 1] << 8)
        if c > card.counter_count:
            raise InvalidResponse(
                f"SELECT_COUNTER: card {i} has {card.counter_count} counters, cannot remove {c}"
            )
        counts.append(c)
        total += c
    if total != p.count:
        raise InvalidResponse(f"SELECT_COUNTER: removes {total} counters in all, must be exactly {p.count}")
    return CounterResponse(counts=tuple(counts))


def _sum_check_exact(values: Sequence[int], index: int, acc: int, opmin: int) -> bool:
    """Whether the cards from ``index`` on can give exactly ``acc``, each card
    using its first or (if it has one) second value, with every partial sum
    staying strictly below ``acc`` and no zero value (select_sum_check1)."""
    if acc == 0 or index == len(values):
        return False
    o1, o2 = sum_params(values[index])
    if index == len(values) - 1:
        return (acc == o1 and acc + opmin > o1) or bool(o2 and acc == o2 and acc + opmin > o2)
    return (acc > o1 and _sum_check_exact(values, index + 1, acc - o1, min(o1, opmin))) or (
        o2 > 0 and acc > o2 and _sum_check_exact(values, index + 1, acc - o2, min(o2, opmin))
    )


def _sum_greater_ok(params: Sequence[int], target: int) -> bool:
    """Mode 1: the largest possible total reaches ``target`` and leaving out the
    card with the smallest (minimum) value would fall short."""
    total = most = 0
    smallest = 0x7FFFFFFF
    for sp in params:
        o1, o2 = sum_params(sp)
        ms = o2 if (o2 and o2 < o1) else o1
        total += ms
        most += max(o1, o2)
        smallest = min(smallest, ms)
    return not (most < target or total - smallest >= target)


def _sum_reason(p: MsgSelectSum, params: Sequence[int]) -> str | None:
    """Why the full list of sum parameters (must cards first) fails, or None."""
    if p.mode == 0:
        if not _sum_check_exact(params, 0, p.target, 0xFFFF):
            return f"the chosen values cannot add up to exactly {p.target}"
        return None
    if not _sum_greater_ok(params, p.target):
        return f"the chosen cards must reach {p.target} and none may be superfluous"
    return None


def _parse_sum(p: MsgSelectSum, area: bytes) -> SumResponse:
    mcount = len(p.must_cards)
    count = area[0]
    lo, hi = p.card_count_range()
    if p.mode == 0 and (count < lo + mcount or count > hi + mcount):
        raise InvalidResponse(
            f"SELECT_SUM: count byte {count} must be {lo + mcount} to {hi + mcount}"
            f" ({lo}-{hi} cards plus {mcount} must-select cards)"
        )
    seen: set[int] = set()
    indices = []
    params = [c.sum_param for c in p.must_cards]
    for i in range(mcount, count):
        v = area[i + 1]
        if v >= len(p.cards):
            raise InvalidResponse(f"SELECT_SUM: index {v} out of range (there are {len(p.cards)} cards)")
        if v in seen:
            raise InvalidResponse(f"SELECT_SUM: index {v} chosen twice")
        seen.add(v)
        indices.append(v)
        params.append(p.cards[v].sum_param)
    reason = _sum_reason(p, params)
    if reason is not None:
        raise InvalidResponse(f"SELECT_SUM: {reason}")
    return SumResponse(indices=tuple(indices))


def _parse_sort(p: MsgSortCard, area: bytes) -> SortResponse:
    if area[0] == 0xFF:
        return SortResponse(order=None)
    m = len(p.cards)
    seen: set[int] = set()
    for i in range(m):
        v = area[i]
        if v >= m:
            raise InvalidResponse(f"SORT_CARD: place {v} of card {i} out of range ({m} cards)")
        if v in seen:
            raise InvalidResponse(f"SORT_CARD: place {v} given twice")
        seen.add(v)
    return SortResponse(order=tuple(area[:m]))


def _count_mask(value: int, available: int, end: int, what: str, count: int) -> None:
    sel = 0
    bit = 1
    while bit < end:
        if value & bit:
            if not bit & available:
                raise InvalidResponse(f"ANNOUNCE_{what}: {bit:#x} is not available (mask {available:#x})")
            sel += 1
        bit <<= 1
    if sel != count:
        raise InvalidResponse(f"ANNOUNCE_{what}: declared {sel}, must declare exactly {count}")


def _parse_race(p: MsgAnnounceRace, area: bytes) -> AnnounceRaceResponse:
    v = _ivalue(area)
    _count_mask(v, p.available, 1 << RACES_COUNT, "RACE", p.count)
    return AnnounceRaceResponse(races=v)


def _parse_attrib(p: MsgAnnounceAttrib, area: bytes) -> AnnounceAttribResponse:
    v = _ivalue(area)
    _count_mask(v, p.available, ATTRIBUTES_END, "ATTRIB", p.count)
    return AnnounceAttribResponse(attributes=v)


def _s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - 0x100000000 if v & 0x80000000 else v


def _is_setcode(setcodes: Sequence[int], value: int) -> bool:
    settype = value & 0x0FFF
    subtype = value & 0xF000
    for sc in setcodes:
        if not sc:
            return False
        if (sc & 0x0FFF) == settype and (sc & subtype) == subtype:
            return True
    return False


def is_declarable(card: DeclarableCard, program: Sequence[int]) -> bool:
    """Whether ``card`` may be declared for ANNOUNCE_CARD with this filter.

    The program is postfix: OPCODE_* values pop their operands (binary ones
    need two, unary ones one; with too few the opcode does nothing), anything
    else is pushed as a number; arithmetic is 32-bit. The card qualifies when
    exactly one non-zero value remains, it has no alias, and it is neither a
    rule-code card nor a Token (unless it is one of the double-name cards)."""
    if card.alias:
        return False
    stack: list[int] = []
    code = card.code & 0xFFFFFFFF
    for op in program:
        if op in (OPCODE_ADD, OPCODE_SUB, OPCODE_MUL, OPCODE_DIV, OPCODE_AND, OPCODE_OR):
            if len(stack) >= 2:
                rhs = stack.pop()
                lhs = stack.pop()
                if op == OPCODE_ADD:
                    r = lhs + rhs
                elif op == OPCODE_SUB:
                    r = lhs - rhs
                elif op == OPCODE_MUL:
                    r = lhs * rhs
                elif op == OPCODE_DIV:
                    r = 0 if rhs == 0 else int(abs(lhs) // abs(rhs)) * (1 if (lhs < 0) == (rhs < 0) else -1)
                elif op == OPCODE_AND:
                    r = int(bool(lhs) and bool(rhs))
                else:
                    r = int(bool(lhs) or bool(rhs))
                stack.append(_s32(r))
        elif op in (OPCODE_NEG, OPCODE_NOT, OPCODE_ISCODE, OPCODE_ISSETCARD, OPCODE_ISTYPE, OPCODE_ISRACE, OPCODE_ISATTRIBUTE):
            if stack:
                val = stack.pop()
                if op == OPCODE_NEG:
                    r = -val
                elif op == OPCODE_NOT:
                    r = int(not val)
                elif op == OPCODE_ISCODE:
                    r = int(code == (val & 0xFFFFFFFF))
                elif op == OPCODE_ISSETCARD:
                    # a CardRecord has ``setcodes``, the engine's CardData ``setcode``
                    setcodes = card.setcodes if hasattr(card, "setcodes") else card.setcode
                    r = int(_is_setcode(setcodes, val & 0xFFFFFFFF))
                elif op == OPCODE_ISTYPE:
                    r = card.type & val
                elif op == OPCODE_ISRACE:
                    r = card.race & val
                else:
                    r = card.attribute & val
                stack.append(_s32(r))
        else:
            stack.append(_s32(op))
    if len(stack) != 1 or stack[0] == 0:
        return False
    if code not in SECOND_CODE_CARDS and (card.rule_code or card.type & TYPE_TOKEN):
        return False
    return True


def _parse_announce_card(p: MsgAnnounceCard, area: bytes, card_lookup: CardLookup | None) -> AnnounceCardResponse:
    code = _ivalue(area)
    if code == 0:
        raise InvalidResponse("ANNOUNCE_CARD: code 0 is not a card")
    if card_lookup is not None:
        card = card_lookup(code & 0xFFFFFFFF)
        if card is None or not card.code:
            raise InvalidResponse(f"ANNOUNCE_CARD: no card {code & 0xFFFFFFFF} in the database")
        if not is_declarable(card, p.options):
            raise InvalidResponse(f"ANNOUNCE_CARD: card {card.code} does not fit the declaration filter")
    return AnnounceCardResponse(code=code)


def _parse_number(p: MsgAnnounceNumber, area: bytes) -> AnnounceNumberResponse:
    v = _ivalue(area)
    if v < 0 or v >= len(p.options):
        raise InvalidResponse(f"ANNOUNCE_NUMBER: index {v} out of range ({len(p.options)} options)")
    return AnnounceNumberResponse(index=v)


def parse_response(prompt: Prompt, raw: bytes, *, card_lookup: CardLookup | None = None) -> Response:
    """Read ``raw`` (the response area; shorter input is zero-padded to 256
    bytes) as the reference reads it for ``prompt``, and check it the same way.

    Raises ``InvalidResponse`` exactly when the reference would write MSG_RETRY.
    ANNOUNCE_CARD's database checks run only when ``card_lookup`` (code ->
    card record or None) is given; without it only code 0 is refused."""
    area = _area(raw)
    p = prompt
    if isinstance(p, MsgSelectIdleCmd):
        return _parse_idle(p, area)
    if isinstance(p, MsgSelectChain):
        return _parse_chain(p, area)
    if isinstance(p, MsgSelectBattleCmd):
        return _parse_battle(p, area)
    if isinstance(p, (MsgSelectEffectYn, MsgSelectYesNo)):
        return _parse_yesno(p, area)
    if isinstance(p, MsgSelectOption):
        return _parse_option(p, area)
    if isinstance(p, MsgSelectCard):
        return _parse_card(p, area)
    if isinstance(p, MsgSelectUnselectCard):
        return _parse_unselect(p, area)
    if isinstance(p, (MsgSelectPlace, MsgSelectDisfield)):
        return _parse_place(p, area)
    if isinstance(p, MsgSelectPosition):
        return _parse_position(p, area)
    if isinstance(p, MsgSelectTribute):
        return _parse_tribute(p, area)
    if isinstance(p, MsgSelectCounter):
        return _parse_counter(p, area)
    if isinstance(p, MsgSelectSum):
        return _parse_sum(p, area)
    if isinstance(p, MsgSortCard):
        return _parse_sort(p, area)
    if isinstance(p, MsgAnnounceRace):
        return _parse_race(p, area)
    if isinstance(p, MsgAnnounceAttrib):
        return _parse_attrib(p, area)
    if isinstance(p, MsgAnnounceCard):
        return _parse_announce_card(p, area, card_lookup)
    if isinstance(p, MsgAnnounceNumber):
        return _parse_number(p, area)
    if isinstance(p, MsgRockPaperScissors):
        return RpsResponse(choice=_ivalue(area))
    raise TypeError(f"{type(p).__name__} is not a prompt")


def validate_response(prompt: Prompt, response: Response, *, card_lookup: CardLookup | None = None) -> None:
    """Raise ``InvalidResponse`` if the reference would refuse ``response``."""
    try:
        data = encode_response(prompt, response)
    except ValueError as exc:
        raise InvalidResponse(f"{type(prompt).NAME}: cannot be encoded: {exc}") from None
    if len(data) > RESPONSE_SIZE:
        raise InvalidResponse(f"{type(prompt).NAME}: {len(data)} bytes do not fit the response area")
    parsed = parse_response(prompt, data, card_lookup=card_lookup)
    if parsed != response:
        # e.g. an index above 0xffff in an IdleCmdResponse, or SumResponse
        # encodings that read back differently
        raise InvalidResponse(f"{type(prompt).NAME}: {response!r} reads back as {parsed!r}")


# ---------------------------------------------------------------------------
# Legal and random responses
# ---------------------------------------------------------------------------
def legal_responses(prompt: Prompt) -> list[Response]:
    """Every accepted answer, for the prompts where that set is small:
    IDLECMD, BATTLECMD, CHAIN, EFFECTYN, YESNO, OPTION, POSITION (and
    ANNOUNCE_NUMBER, UNSELECT_CARD, ROCK_PAPER_SCISSORS). Commands that take
    no index are listed once, with index 0."""
    p = prompt
    out: list[Response] = []
    if isinstance(p, MsgSelectIdleCmd):
        for cmd, lst in enumerate(p.card_lists):
            out.extend(IdleCmdResponse(command=cmd, index=i) for i in range(len(lst)))
        out.extend(IdleCmdResponse(command=IDLE_ACTIVATE, index=i) for i in range(len(p.activatable)))
        if p.can_battle_phase:
            out.append(IdleCmdResponse(command=IDLE_BATTLE_PHASE))
        if p.can_end_phase:
            out.append(IdleCmdResponse(command=IDLE_END_PHASE))
        if p.can_shuffle:
            out.append(IdleCmdResponse(command=IDLE_SHUFFLE))
        return out
    if isinstance(p, MsgSelectBattleCmd):
        out.extend(BattleCmdResponse(command=BATTLE_ACTIVATE, index=i) for i in range(len(p.activatable)))
        out.extend(BattleCmdResponse(command=BATTLE_ATTACK, index=i) for i in range(len(p.attackable)))
        if p.can_main2:
            out.append(BattleCmdResponse(command=BATTLE_MAIN2))
        if p.can_end_phase:
            out.append(BattleCmdResponse(command=BATTLE_END_PHASE))
        return out
    if isinstance(p, MsgSelectChain):
        if not p.has_forced:
            out.append(ChainResponse(index=None))
        out.extend(ChainResponse(index=i) for i in range(len(p.chains)))
        return out
    if isinstance(p, (MsgSelectEffectYn, MsgSelectYesNo)):
        return [YesNoResponse(yes=False), YesNoResponse(yes=True)]
    if isinstance(p, MsgSelectOption):
        return [OptionResponse(index=i) for i in range(len(p.options))]
    if isinstance(p, MsgSelectPosition):
        return [PositionResponse(position=b) for b in (1, 2, 4, 8) if p.positions & b]
    if isinstance(p, MsgAnnounceNumber):
        return [AnnounceNumberResponse(index=i) for i in range(len(p.options))]
    if isinstance(p, MsgSelectUnselectCard):
        if p.cancelable or p.finishable:
            out.append(UnselectCardResponse(index=None))
        total = len(p.selectable) + len(p.unselectable)
        out.extend(UnselectCardResponse(index=i) for i in range(total))
        return out
    if isinstance(p, MsgRockPaperScissors):
        return [RpsResponse(choice=c) for c in (1, 2, 3)]
    raise ValueError(f"{type(p).NAME}: the set of answers is not listed; use random_response")


class NoValidResponse(ValueError):
    """The prompt admits no answer the reference would accept."""


def _zone_bit(player: int, zone_player: int, location: int, sequence: int) -> int:
    return 1 << ((sequence + (0 if zone_player == player else 16) + (0 if location == LOCATION_MZONE else 8)) & 31)


def _random_place(p: MsgSelectPlace | MsgSelectDisfield, rng: _random.Random) -> PlaceResponse:
    candidates = []
    for zp in (p.player, 1 - p.player):
        for loc, seqs in ((LOCATION_MZONE, range(7)), (LOCATION_SZONE, range(8))):
            for s in seqs:
                if not _zone_bit(p.player, zp, loc, s) & p.flag:
                    candidates.append(Zone(player=zp, location=loc, sequence=s))
    need_n = max(1, p.count)
    zones: list[Zone] = []
    selected = 0
    for _ in range(need_n):
        free = [z for z in candidates if not _zone_bit(p.player, z.player, z.location, z.sequence) & selected]
        if not free:
            if p.count == 0:
                return PlaceResponse(zones=(Zone(player=p.player, location=0, sequence=0),))
            raise NoValidResponse(f"{type(p).NAME}: not enough free zones for {p.count}")
        z = rng.choice(free)
        zones.append(z)
        sel = _zone_bit(p.player, z.player, z.location, z.sequence)
        if sel & (1 << 5):
            sel |= 1 << 22
        if sel & (1 << 6):
            sel |= 1 << 21
        selected |= sel
    return PlaceResponse(zones=tuple(zones))


def _random_tribute(p: MsgSelectTribute, rng: _random.Random) -> CardsResponse:
    n = len(p.cards)
    if p.cancelable and rng.random() < 0.1:
        return CardsResponse(indices=None)
    for _ in range(64):
        k = rng.randint(0, min(p.max, n))
        pick = rng.sample(range(n), k)
        if sum(p.cards[i].release_param for i in pick) >= p.min:
            return CardsResponse(indices=tuple(pick))
    # Greedy fallback: largest release values first.
    order = sorted(range(n), key=lambda i: (-p.cards[i].release_param, rng.random()))
    pick, total = [], 0
    for i in order:
        if total >= p.min or len(pick) >= p.max:
            break
        pick.append(i)
        total += p.cards[i].release_param
    if total < p.min:
        if p.cancelable:
            return CardsResponse(indices=None)
        raise NoValidResponse("SELECT_TRIBUTE: no selection reaches the required tributes")
    return CardsResponse(indices=tuple(pick))


def _random_sum(p: MsgSelectSum, rng: _random.Random) -> SumResponse:
    must = [c.sum_param for c in p.must_cards]
    n = len(p.cards)
    lo, hi = p.card_count_range() if p.mode == 0 else (0, n)
    hi = min(hi, n)
    # Random tries first: they give varied answers when many exist.
    for _ in range(64):
        order = rng.sample(range(n), n)
        if p.mode == 1:
            pick: list[int] = []
            for i in order:
                if _sum_greater_ok(must + [p.cards[j].sum_param for j in pick], p.target):
                    break
                pick.append(i)
            if _sum_greater_ok(must + [p.cards[j].sum_param for j in pick], p.target):
                return SumResponse(indices=tuple(pick))
        else:
            if lo > hi:
                break
            k = rng.randint(lo, hi)
            pick = order[:k]
            if _sum_reason(p, must + [p.cards[j].sum_param for j in pick]) is None:
                return SumResponse(indices=tuple(pick))
    # Exhaustive search in a random order (with a budget).
    order = rng.sample(range(n), n)
    budget = [200000]
    result: list[int] | None = None

    def dfs(start: int, pick: list[int]) -> bool:
        nonlocal result
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if lo <= len(pick) <= hi and _sum_reason(p, must + [p.cards[j].sum_param for j in pick]) is None:
            result = list(pick)
            return True
        if len(pick) >= hi:
            return False
        for pos in range(start, n):
            pick.append(order[pos])
            if dfs(pos + 1, pick):
                return True
            pick.pop()
        return False

    if dfs(0, []) and result is not None:
        return SumResponse(indices=tuple(result))
    raise NoValidResponse(f"SELECT_SUM: found no selection for target {p.target}")


def _random_counter(p: MsgSelectCounter, rng: _random.Random) -> CounterResponse:
    counts = [0] * len(p.cards)
    if sum(c.counter_count for c in p.cards) < p.count:
        raise NoValidResponse("SELECT_COUNTER: not enough counters on the cards")
    for _ in range(p.count):
        room = [i for i, c in enumerate(p.cards) if counts[i] < c.counter_count]
        counts[rng.choice(room)] += 1
    return CounterResponse(counts=tuple(counts))


def _random_mask(available: int, end: int, count: int, rng: _random.Random) -> int:
    bits = []
    b = 1
    while b < end:
        if b & available:
            bits.append(b)
        b <<= 1
    if count > len(bits):
        raise NoValidResponse(f"cannot declare {count} of {len(bits)} available")
    value = 0
    for b in rng.sample(bits, count):
        value |= b
    return value


def random_response(
    prompt: Prompt,
    rng: _random.Random,
    *,
    card_pool: Sequence[DeclarableCard] | None = None,
) -> Response:
    """A random answer the reference accepts (``parse_response`` accepts it).

    For ANNOUNCE_CARD pass ``card_pool``: the cards that may be named."""
    p = prompt
    if isinstance(p, MsgSelectCard):
        if p.cancelable and rng.random() < 0.1:
            return CardsResponse(indices=None)
        n = len(p.cards)
        lo, hi = p.min, min(p.max, n)
        if lo > hi:
            if p.cancelable:
                return CardsResponse(indices=None)
            raise NoValidResponse(f"SELECT_CARD: cannot choose {p.min} of {n} cards")
        return CardsResponse(indices=tuple(rng.sample(range(n), rng.randint(lo, hi))))
    if isinstance(p, MsgSelectTribute):
        return _random_tribute(p, rng)
    if isinstance(p, (MsgSelectPlace, MsgSelectDisfield)):
        return _random_place(p, rng)
    if isinstance(p, MsgSelectCounter):
        return _random_counter(p, rng)
    if isinstance(p, MsgSelectSum):
        return _random_sum(p, rng)
    if isinstance(p, MsgSortCard):
        if rng.random() < 0.25:
            return SortResponse(order=None)
        n = len(p.cards)
        return SortResponse(order=tuple(rng.sample(range(n), n)))
    if isinstance(p, MsgAnnounceRace):
        return AnnounceRaceResponse(races=_random_mask(p.available, 1 << RACES_COUNT, p.count, rng))
    if isinstance(p, MsgAnnounceAttrib):
        return AnnounceAttribResponse(attributes=_random_mask(p.available, ATTRIBUTES_END, p.count, rng))
    if isinstance(p, MsgAnnounceCard):
        if not card_pool:
            raise NoValidResponse("ANNOUNCE_CARD: a random answer needs card_pool (the cards that may be named)")
        ok = [c for c in card_pool if c.code and is_declarable(c, p.options)]
        if not ok:
            raise NoValidResponse("ANNOUNCE_CARD: no card in card_pool fits the declaration filter")
        return AnnounceCardResponse(code=_s32(rng.choice(ok).code))
    options = legal_responses(p)
    if not options:
        raise NoValidResponse(f"{type(p).NAME}: no answer is accepted")
    return rng.choice(options)
