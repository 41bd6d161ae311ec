"""The reference core's message stream, as typed Python objects.

The reference core reports everything that happens in a duel as a stream of
messages: one type byte (``MSG_*``) and a body whose layout depends on the
type. Bodies carry no length of their own and the stream has no framing, so a
reader must know each type's layout to find where the next message starts.
Every multi-byte integer is little-endian.

Each message kind is one frozen dataclass whose ``ID`` is the reference's
``MSG_*`` number. ``encode()`` gives the type byte plus the body exactly as the
reference writes it; ``decode_messages`` splits a raw stream back into objects.
Values are kept raw (a code with the high bit that the core ORs in, a flag byte,
an unsigned description) so that decode -> encode is byte-identical; properties
give the meaning.

The twenty kinds that wait for a player's answer (``MSG_SELECT_*``,
``MSG_SORT_CARD``, ``MSG_ANNOUNCE_*``, ``MSG_ROCK_PAPER_SCISSORS``) derive from
``Prompt``, which has ``player``: the player who must answer.

Layouts were read from the reference's writer sites (field.cpp, processor.cpp,
operations.cpp, playerop.cpp, libduel.cpp, libdebug.cpp, libcard.cpp,
libgroup.cpp, card.cpp). Where several sites write one kind they agree on the
layout, so one decoder per kind splits the stream. Twists worth knowing:

* the high bit of a code means "face-up" in DRAW, DECK_TOP and TAG_SWAP, but
  "field-only effect" in the IDLECMD/BATTLECMD effect lists;
* SELECT_SUM's first body byte is the mode, the player comes second;
* CONFIRM_CARDS has a skip-panel byte before the count (CONFIRM_DECKTOP and
  CONFIRM_EXTRATOP do not);
* MISSED_EFFECT writes the location before the code (all others: code first);
* SELECT_UNSELECT_CARD writes "finishable" before "cancelable";
* TAG_SWAP writes the hand count after the Extra Deck counts, but the hand
  codes before the Extra Deck codes;
* ATTACK / BATTLE write 0 for a missing target (``None`` here);
* SHUFFLE_SET_CARD writes two lists of ``count`` locations (before, and the
  new location of cards with Xyz materials or 0);
* AI_NAME / SHOW_HINT: u16 length, text, then a NUL not counted in the length;
* RELOAD_FIELD has a variable-size entry per zone (flag byte, then position
  and, for Monster Zones, the material count when the flag is 1);
* MSG_CUSTOM_MSG (180) is defined but never written, so it has no layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from struct import Struct, error as StructError, pack as _struct_pack, unpack_from as _struct_unpack_from
from typing import Any, Callable, ClassVar, Iterable, NamedTuple, Sequence, Sized, TypeVar

from .constants import LOCATION_OVERLAY
from .core_constants import (  # message numbers (common.h)
    MSG_RETRY,
    MSG_HINT,
    MSG_WIN,
    MSG_SELECT_BATTLECMD,
    MSG_SELECT_IDLECMD,
    MSG_SELECT_EFFECTYN,
    MSG_SELECT_YESNO,
    MSG_SELECT_OPTION,
    MSG_SELECT_CARD,
    MSG_SELECT_CHAIN,
    MSG_SELECT_PLACE,
    MSG_SELECT_POSITION,
    MSG_SELECT_TRIBUTE,
    MSG_SELECT_COUNTER,
    MSG_SELECT_SUM,
    MSG_SELECT_DISFIELD,
    MSG_SORT_CARD,
    MSG_SELECT_UNSELECT_CARD,
    MSG_CONFIRM_DECKTOP,
    MSG_CONFIRM_CARDS,
    MSG_SHUFFLE_DECK,
    MSG_SHUFFLE_HAND,
    MSG_SWAP_GRAVE_DECK,
    MSG_SHUFFLE_SET_CARD,
    MSG_REVERSE_DECK,
    MSG_DECK_TOP,
    MSG_SHUFFLE_EXTRA,
    MSG_NEW_TURN,
    MSG_NEW_PHASE,
    MSG_CONFIRM_EXTRATOP,
    MSG_MOVE,
    MSG_POS_CHANGE,
    MSG_SET,
    MSG_SWAP,
    MSG_FIELD_DISABLED,
    MSG_SUMMONING,
    MSG_SUMMONED,
    MSG_SPSUMMONING,
    MSG_SPSUMMONED,
    MSG_FLIPSUMMONING,
    MSG_FLIPSUMMONED,
    MSG_CHAINING,
    MSG_CHAINED,
    MSG_CHAIN_SOLVING,
    MSG_CHAIN_SOLVED,
    MSG_CHAIN_END,
    MSG_CHAIN_NEGATED,
    MSG_CHAIN_DISABLED,
    MSG_RANDOM_SELECTED,
    MSG_BECOME_TARGET,
    MSG_DRAW,
    MSG_DAMAGE,
    MSG_RECOVER,
    MSG_EQUIP,
    MSG_LPUPDATE,
    MSG_CARD_TARGET,
    MSG_CANCEL_TARGET,
    MSG_PAY_LPCOST,
    MSG_ADD_COUNTER,
    MSG_REMOVE_COUNTER,
    MSG_ATTACK,
    MSG_BATTLE,
    MSG_ATTACK_DISABLED,
    MSG_DAMAGE_STEP_START,
    MSG_DAMAGE_STEP_END,
    MSG_MISSED_EFFECT,
    MSG_TOSS_COIN,
    MSG_TOSS_DICE,
    MSG_ROCK_PAPER_SCISSORS,
    MSG_HAND_RES,
    MSG_ANNOUNCE_RACE,
    MSG_ANNOUNCE_ATTRIB,
    MSG_ANNOUNCE_CARD,
    MSG_ANNOUNCE_NUMBER,
    MSG_CARD_HINT,
    MSG_TAG_SWAP,
    MSG_RELOAD_FIELD,
    MSG_AI_NAME,
    MSG_SHOW_HINT,
    MSG_PLAYER_HINT,
    MSG_MATCH_KILL,
    MSG_CUSTOM_MSG,
)
from .wire import U8, U16, U32, need

__all__ = [
    # errors and helpers
    "MessageDecodeError",
    "Message",
    "Prompt",
    "MESSAGE_TYPES",
    "PROMPT_TYPES",
    "decode_message",
    "decode_messages",
    "encode_messages",
    "describe_location",
    # sub-records
    "LocInfo",
    "CardInfo",
    "EffectOption",
    "AttackableCard",
    "ChainOption",
    "SelectableCard",
    "TributeCard",
    "CounterCard",
    "SumCard",
    "ChainLinkInfo",
    "MonsterZoneState",
    "SpellZoneState",
    "PlayerFieldState",
]

NameOf = Callable[[int], str] | None
M = TypeVar("M", bound="Message")

CODE_HIGH_BIT = 0x80000000
"""The bit the core ORs into a card code: "face-up" in DRAW / DECK_TOP /
TAG_SWAP lists, "field-only (operation) effect" in IDLECMD / BATTLECMD options."""

_LOCATION_NAMES = {
    0x01: "DECK",
    0x02: "HAND",
    0x04: "MZONE",
    0x08: "SZONE",
    0x10: "GRAVE",
    0x20: "REMOVED",
    0x40: "EXTRA",
    0x80: "OVERLAY",
}
_POSITION_NAMES = {
    0x1: "face-up ATK",
    0x2: "face-down ATK",
    0x4: "face-up DEF",
    0x8: "face-down DEF",
    0x5: "face-up",
    0xA: "face-down",
    0x3: "ATK",
    0xC: "DEF",
}
_REASON_NAMES = (
    (0x1, "DESTROY"),
    (0x2, "RELEASE"),
    (0x4, "TEMPORARY"),
    (0x8, "MATERIAL"),
    (0x10, "SUMMON"),
    (0x20, "BATTLE"),
    (0x40, "EFFECT"),
    (0x80, "COST"),
    (0x100, "ADJUST"),
    (0x200, "LOST_TARGET"),
    (0x400, "RULE"),
    (0x800, "SPSUMMON"),
    (0x1000, "DISSUMMON"),
    (0x2000, "FLIP"),
    (0x4000, "DISCARD"),
    (0x8000, "RDAMAGE"),
    (0x10000, "RRECOVER"),
    (0x20000, "RETURN"),
    (0x40000, "FUSION"),
    (0x80000, "SYNCHRO"),
    (0x100000, "RITUAL"),
    (0x200000, "XYZ"),
    (0x1000000, "REPLACE"),
    (0x2000000, "DRAW"),
    (0x4000000, "REDIRECT"),
    (0x8000000, "REVEAL"),
    (0x10000000, "LINK"),
    (0x20000000, "LOST_OVERLAY"),
    (0x40000000, "MAINTENANCE"),
    (0x80000000, "ACTION"),
)
_PHASE_NAMES = {
    0x01: "DRAW",
    0x02: "STANDBY",
    0x04: "MAIN1",
    0x08: "BATTLE_START",
    0x10: "BATTLE_STEP",
    0x20: "DAMAGE",
    0x40: "DAMAGE_CAL",
    0x80: "BATTLE",
    0x100: "MAIN2",
    0x200: "END",
}
_HINT_NAMES = {
    1: "EVENT",
    2: "MESSAGE",
    3: "SELECTMSG",
    4: "OPSELECTED",
    5: "EFFECT",
    6: "RACE",
    7: "ATTRIB",
    8: "CODE",
    9: "NUMBER",
    10: "CARD",
    11: "ZONE",
}
_CHINT_NAMES = {1: "TURN", 2: "CARD", 3: "RACE", 4: "ATTRIBUTE", 5: "NUMBER", 6: "DESC_ADD", 7: "DESC_REMOVE"}
_PHINT_NAMES = {6: "DESC_ADD", 7: "DESC_REMOVE"}
_WIN_REASONS = {0: "surrender", 1: "LP", 2: "deck-out", 3: "timeout", 4: "connection lost"}
_RPS_NAMES = {1: "scissors", 2: "rock", 3: "paper"}


class MessageDecodeError(ValueError):
    """A byte stream that is not a sequence of reference messages.

    ``offset`` is where the offending message starts in the stream and
    ``msg_type`` its type byte (``None`` when the stream ended before it).
    """

    def __init__(self, reason: str, *, offset: int, msg_type: int | None) -> None:
        name = _type_name(msg_type) if msg_type is not None else "?"
        super().__init__(f"{reason} (message {name} at offset {offset})")
        self.reason = reason
        self.offset = offset
        self.msg_type = msg_type


# ---------------------------------------------------------------------------
# Description helpers
# ---------------------------------------------------------------------------
def _type_name(msg_type: int) -> str:
    cls = MESSAGE_TYPES.get(msg_type)
    return f"MSG_{cls.NAME}" if cls is not None else f"type {msg_type}"


def _loc_name(location: int) -> str:
    name = _LOCATION_NAMES.get(location)
    if name is not None:
        return name
    if location & LOCATION_OVERLAY and (location & 0x7F) in _LOCATION_NAMES:
        return _LOCATION_NAMES[location & 0x7F] + "+OVERLAY"
    return f"LOC{location:#x}"


def _pos_name(position: int) -> str:
    name = _POSITION_NAMES.get(position & 0x7F)
    text = name if name is not None else f"pos {position & 0x7f:#x}"
    if position & 0x80:
        text += " revealed"
    return text


def _reason_name(reason: int) -> str:
    if reason == 0:
        return "0"
    names = [name for bit, name in _REASON_NAMES if reason & bit]
    rest = reason & ~sum(bit for bit, _ in _REASON_NAMES) & 0xFFFFFFFF
    if rest:
        names.append(f"{rest:#x}")
    return "|".join(names)


def _phase_name(phase: int) -> str:
    return _PHASE_NAMES.get(phase, f"{phase:#x}")


def _card(code: int, name_of: NameOf) -> str:
    if code & CODE_HIGH_BIT:
        base = code & 0x7FFFFFFF
        text = f"{base}(+hi)"
    else:
        base = code
        text = str(code)
    if name_of is not None and base:
        try:
            name = name_of(base)
        except Exception:  # a description must never fail
            name = ""
        if name:
            text += f" {name}"
    return text


def _place(controller: int, location: int, sequence: int) -> str:
    return f"P{controller} {_loc_name(location)}#{sequence}"


def describe_location(controller: int, location: int, sequence: int, position: int | None = None) -> str:
    """``P0 MZONE#1 face-up ATK``: position shown for the field zones only."""
    text = _place(controller, location, sequence)
    if position is not None and location & 0x0C and not location & LOCATION_OVERLAY:
        text += " " + _pos_name(position)
    return text


def _codes(codes: Iterable[int], name_of: NameOf) -> str:
    return "[" + ", ".join(_card(c, name_of) for c in codes) + "]"


# ---------------------------------------------------------------------------
# Sub-records
# ---------------------------------------------------------------------------
_LOC_CACHE: dict[int, "LocInfo"] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class LocInfo:
    """The 4-byte location the core writes for a card (``card::get_info_location``).

    Byte 0 controller, 1 location, 2 sequence, 3 position. For an Xyz material
    the location has ``LOCATION_OVERLAY`` (0x80) added to the holder's location,
    the sequence is the holder's sequence and the fourth byte is the material's
    own index among the materials (not a position).
    """

    controller: int
    location: int
    sequence: int
    position: int

    @property
    def raw(self) -> int:
        return self.controller | (self.location << 8) | (self.sequence << 16) | (self.position << 24)

    @classmethod
    def from_raw(cls, raw: int) -> LocInfo:
        """Decode the little-endian u32 the core writes (instances are shared)."""
        loc = _LOC_CACHE.get(raw)
        if loc is None:
            loc = cls(
                controller=raw & 0xFF,
                location=(raw >> 8) & 0xFF,
                sequence=(raw >> 16) & 0xFF,
                position=(raw >> 24) & 0xFF,
            )
            if len(_LOC_CACHE) < 65536:
                _LOC_CACHE[raw] = loc
        return loc

    @property
    def is_overlay(self) -> bool:
        return bool(self.location & LOCATION_OVERLAY)

    @property
    def overlay_index(self) -> int | None:
        """For an Xyz material, its index among the holder's materials."""
        return self.position if self.location & LOCATION_OVERLAY else None

    def describe(self) -> str:
        if self.location & LOCATION_OVERLAY:
            return f"{_place(self.controller, self.location & 0x7F, self.sequence)} overlay#{self.position}"
        return describe_location(self.controller, self.location, self.sequence, self.position)


def _loc_or_none(raw: int) -> LocInfo | None:
    return None if raw == 0 else LocInfo.from_raw(raw)


def _raw_loc(loc: LocInfo | None) -> int:
    return 0 if loc is None else loc.raw


def _desc_loc(loc: LocInfo | None) -> str:
    return "-" if loc is None else loc.describe()


class _Record:
    """Base of fixed-size list entries: ``_S`` packs ``_values()``; ``_make`` reads."""

    __slots__ = ()
    _S: ClassVar[Struct]

    def _values(self) -> tuple[int, ...]:
        raise NotImplementedError

    @classmethod
    def _make(cls, values: tuple[int, ...]) -> _Record:
        raise NotImplementedError


@dataclass(frozen=True, slots=True, kw_only=True)
class CardInfo(_Record):
    """A card named by code plus controller, location, sequence (7 bytes).

    Used by the IDLECMD lists, SORT_CARD and the CONFIRM_* messages."""

    code: int
    controller: int
    location: int
    sequence: int
    _S: ClassVar[Struct] = Struct("<IBBB")

    def _values(self) -> tuple[int, ...]:
        return (self.code, self.controller, self.location, self.sequence)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> CardInfo:
        return cls(code=v[0], controller=v[1], location=v[2], sequence=v[3])

    def describe(self, name_of: NameOf = None) -> str:
        return f"{_card(self.code, name_of)}@{_place(self.controller, self.location, self.sequence)}"


def card_info(pcard: Any) -> CardInfo:
    """The CardInfo of a card where it is now: its code, controller, location and
    sequence, written as the reference writes them (a uint32 and three bytes)."""
    cur = pcard.current
    return CardInfo(code=pcard.data.code & 0xFFFFFFFF, controller=cur.controler & 0xFF,
                    location=cur.location & 0xFF, sequence=cur.sequence & 0xFF)


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectOption(_Record):
    """An activatable effect in IDLECMD / BATTLECMD (11 bytes).

    ``code`` is raw: the core sets the high bit when the effect has
    EFFECT_FLAG_FIELD_ONLY (the client shows it as an "operation")."""

    code: int
    controller: int
    location: int
    sequence: int
    description: int
    _S: ClassVar[Struct] = Struct("<IBBBI")

    @property
    def card_code(self) -> int:
        return self.code & 0x7FFFFFFF

    @property
    def field_only(self) -> bool:
        return bool(self.code & CODE_HIGH_BIT)

    def _values(self) -> tuple[int, ...]:
        return (self.code, self.controller, self.location, self.sequence, self.description)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> EffectOption:
        return cls(code=v[0], controller=v[1], location=v[2], sequence=v[3], description=v[4])

    def describe(self, name_of: NameOf = None) -> str:
        op = " op" if self.field_only else ""
        return (
            f"{_card(self.card_code, name_of)}@{_place(self.controller, self.location, self.sequence)}"
            f" desc {self.description}{op}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackableCard(_Record):
    """A monster that may attack, in BATTLECMD (8 bytes)."""

    code: int
    controller: int
    location: int
    sequence: int
    direct_attackable: int
    _S: ClassVar[Struct] = Struct("<IBBBB")

    def _values(self) -> tuple[int, ...]:
        return (self.code, self.controller, self.location, self.sequence, self.direct_attackable)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> AttackableCard:
        return cls(code=v[0], controller=v[1], location=v[2], sequence=v[3], direct_attackable=v[4])

    def describe(self, name_of: NameOf = None) -> str:
        direct = " (direct ok)" if self.direct_attackable else ""
        return f"{_card(self.code, name_of)}@{_place(self.controller, self.location, self.sequence)}{direct}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainOption(_Record):
    """An effect offered in SELECT_CHAIN (14 bytes).

    ``client_mode``: EDESC_OPERATION (1) for a field-only effect, EDESC_RESET (2)
    for an effect that is not an action, else 0. ``forced``: 1 when the effect
    must be chained (then passing is refused)."""

    client_mode: int
    forced: int
    code: int
    location: LocInfo
    description: int
    _S: ClassVar[Struct] = Struct("<BBIII")

    def _values(self) -> tuple[int, ...]:
        return (self.client_mode, self.forced, self.code, self.location.raw, self.description)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> ChainOption:
        return cls(
            client_mode=v[0], forced=v[1], code=v[2], location=LocInfo.from_raw(v[3]), description=v[4]
        )

    def describe(self, name_of: NameOf = None) -> str:
        forced = " forced" if self.forced else ""
        mode = f" mode {self.client_mode}" if self.client_mode else ""
        return f"{_card(self.code, name_of)}@{self.location.describe()} desc {self.description}{forced}{mode}"


@dataclass(frozen=True, slots=True, kw_only=True)
class SelectableCard(_Record):
    """A card in SELECT_CARD / SELECT_UNSELECT_CARD: code and location (8 bytes).

    For Deck cards the sequence may be a running counter instead of the real
    one (when the Deck order is hidden from the selecting player)."""

    code: int
    location: LocInfo
    _S: ClassVar[Struct] = Struct("<II")

    def _values(self) -> tuple[int, ...]:
        return (self.code, self.location.raw)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> SelectableCard:
        return cls(code=v[0], location=LocInfo.from_raw(v[1]))

    def describe(self, name_of: NameOf = None) -> str:
        return f"{_card(self.code, name_of)}@{self.location.describe()}"


@dataclass(frozen=True, slots=True, kw_only=True)
class TributeCard(_Record):
    """A card in SELECT_TRIBUTE with how many tributes it counts as (8 bytes)."""

    code: int
    controller: int
    location: int
    sequence: int
    release_param: int
    _S: ClassVar[Struct] = Struct("<IBBBB")

    def _values(self) -> tuple[int, ...]:
        return (self.code, self.controller, self.location, self.sequence, self.release_param)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> TributeCard:
        return cls(code=v[0], controller=v[1], location=v[2], sequence=v[3], release_param=v[4])

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"{_card(self.code, name_of)}@{_place(self.controller, self.location, self.sequence)}"
            f" x{self.release_param}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class CounterCard(_Record):
    """A card in SELECT_COUNTER with its current number of counters (9 bytes)."""

    code: int
    controller: int
    location: int
    sequence: int
    counter_count: int
    _S: ClassVar[Struct] = Struct("<IBBBH")

    def _values(self) -> tuple[int, ...]:
        return (self.code, self.controller, self.location, self.sequence, self.counter_count)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> CounterCard:
        return cls(code=v[0], controller=v[1], location=v[2], sequence=v[3], counter_count=v[4])

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"{_card(self.code, name_of)}@{_place(self.controller, self.location, self.sequence)}"
            f" has {self.counter_count}"
        )


def sum_params(sum_param: int) -> tuple[int, int]:
    """Split a card's sum parameter into its one or two values (field::get_sum_params).

    Low 16 bits are the first value, high 16 bits the second; when bit 31 is set
    the whole low 31 bits are one value and there is no second."""
    op1 = sum_param & 0xFFFF
    op2 = (sum_param >> 16) & 0xFFFF
    if op2 & 0x8000:
        return sum_param & 0x7FFFFFFF, 0
    return op1, op2


@dataclass(frozen=True, slots=True, kw_only=True)
class SumCard(_Record):
    """A card in SELECT_SUM with its sum parameter (11 bytes); see ``sum_params``."""

    code: int
    controller: int
    location: int
    sequence: int
    sum_param: int
    _S: ClassVar[Struct] = Struct("<IBBBI")

    @property
    def values(self) -> tuple[int, int]:
        return sum_params(self.sum_param)

    def _values(self) -> tuple[int, ...]:
        return (self.code, self.controller, self.location, self.sequence, self.sum_param)

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> SumCard:
        return cls(code=v[0], controller=v[1], location=v[2], sequence=v[3], sum_param=v[4])

    def describe(self, name_of: NameOf = None) -> str:
        o1, o2 = self.values
        val = f"{o1}/{o2}" if o2 else f"{o1}"
        return f"{_card(self.code, name_of)}@{_place(self.controller, self.location, self.sequence)} ={val}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainLinkInfo(_Record):
    """A chain link in RELOAD_FIELD (15 bytes): the handler card, where the
    effect was activated, and its description."""

    code: int
    location: LocInfo
    triggering_controller: int
    triggering_location: int
    triggering_sequence: int
    description: int
    _S: ClassVar[Struct] = Struct("<IIBBBI")

    def _values(self) -> tuple[int, ...]:
        return (
            self.code,
            self.location.raw,
            self.triggering_controller,
            self.triggering_location,
            self.triggering_sequence,
            self.description,
        )

    @classmethod
    def _make(cls, v: tuple[int, ...]) -> ChainLinkInfo:
        return cls(
            code=v[0],
            location=LocInfo.from_raw(v[1]),
            triggering_controller=v[2],
            triggering_location=v[3],
            triggering_sequence=v[4],
            description=v[5],
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class MonsterZoneState:
    """An occupied Monster Zone in RELOAD_FIELD."""

    position: int
    overlay_count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SpellZoneState:
    """An occupied Spell & Trap Zone in RELOAD_FIELD."""

    position: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerFieldState:
    """One player's part of RELOAD_FIELD: LP, the 7 Monster Zones and 8 Spell &
    Trap Zones (``None`` = empty), and the pile sizes."""

    lp: int
    mzone: tuple[MonsterZoneState | None, ...]
    szone: tuple[SpellZoneState | None, ...]
    deck_count: int
    hand_count: int
    grave_count: int
    removed_count: int
    extra_count: int
    extra_p_count: int


def _read_records(rec: type[_Record], buf: bytes, off: int, count: int) -> tuple[tuple, int]:
    size = rec._S.size * count
    need(buf, off, size)
    make = rec._make
    items = tuple([make(v) for v in rec._S.iter_unpack(buf[off : off + size])])
    return items, off + size


def _pack_records(records: Sequence[_Record]) -> bytes:
    if not records:
        return b""
    pack = type(records[0])._S.pack
    return b"".join([pack(*r._values()) for r in records])


def _read_u32s(buf: bytes, off: int, count: int) -> tuple[tuple[int, ...], int]:
    size = 4 * count
    need(buf, off, size)
    return _struct_unpack_from(f"<{count}I", buf, off), off + size


def _pack_u32s(values: Sequence[int]) -> bytes:
    return _struct_pack(f"<{len(values)}I", *values)


def _read_u8s(buf: bytes, off: int, count: int) -> tuple[tuple[int, ...], int]:
    need(buf, off, count)
    return tuple(buf[off : off + count]), off + count


def _read_locs(buf: bytes, off: int, count: int) -> tuple[tuple[LocInfo, ...], int]:
    raws, off = _read_u32s(buf, off, count)
    return tuple([LocInfo.from_raw(r) for r in raws]), off


def _u8_count(items: Sized, what: str) -> int:
    n = len(items)
    if n > 255:
        raise ValueError(f"{what}: {n} entries do not fit the count byte")
    return n


# ---------------------------------------------------------------------------
# Message base classes and registry
# ---------------------------------------------------------------------------
MESSAGE_TYPES: dict[int, type["Message"]] = {}
PROMPT_TYPES: dict[int, type["Prompt"]] = {}
_READERS: list[Callable[[bytes, int], tuple["Message", int]] | None] = [None] * 256


class Message:
    """One message of the reference's stream (type byte + body)."""

    __slots__ = ()
    ID: ClassVar[int]
    NAME: ClassVar[str]
    IS_PROMPT: ClassVar[bool] = False

    def encode(self) -> bytes:
        """Type byte and body, little-endian, exactly as the reference writes them."""
        raise NotImplementedError

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        """Read the body starting at ``off`` (just after the type byte)."""
        raise NotImplementedError

    @classmethod
    def decode(cls: type[M], data: bytes) -> M:
        """Decode one whole message of this kind (type byte included, nothing after it)."""
        data = bytes(data)
        msg, end = decode_message(data, 0)
        if not isinstance(msg, cls):
            raise MessageDecodeError(f"expected MSG_{cls.NAME}", offset=0, msg_type=data[0])
        if end != len(data):
            raise MessageDecodeError(f"{len(data) - end} bytes left after the message", offset=0, msg_type=data[0])
        return msg

    def describe(self, name_of: NameOf = None) -> str:
        """One line for people (diff reports); ``name_of(code)`` adds card names."""
        parts = []
        for f in fields(self):  # type: ignore[arg-type]
            parts.append(f"{f.name}={getattr(self, f.name)!r}")
        return f"{self.NAME} " + " ".join(parts) if parts else self.NAME


@dataclass(frozen=True, slots=True, kw_only=True)
class Prompt(Message):
    """A message that waits for ``player`` to answer (see engine.responses)."""

    player: int
    IS_PROMPT: ClassVar[bool] = True


def _register(cls: type[M]) -> type[M]:
    if cls.ID in MESSAGE_TYPES:
        raise RuntimeError(f"two classes for message {cls.ID}")
    MESSAGE_TYPES[cls.ID] = cls
    if issubclass(cls, Prompt):
        PROMPT_TYPES[cls.ID] = cls
    _READERS[cls.ID] = cls._read
    return cls


def _fixed(cls: type[M]) -> type[M]:
    """Give a fixed-layout message ``encode`` and ``_read`` from its ``_LAYOUT``.

    ``_LAYOUT`` is a tuple of (field, kind); kind is a struct code ("B", "H",
    "I"), "loc" (LocInfo as u32) or "loc?" (LocInfo or None, written as 0)."""
    layout: tuple[tuple[str, str], ...] = cls._LAYOUT  # type: ignore[attr-defined]
    names = tuple(n for n, _ in layout)
    kinds = tuple(k for _, k in layout)
    codes = "".join("I" if k.startswith("loc") else k for k in kinds)
    full = Struct("<B" + codes)
    body = Struct("<" + codes)
    msg_id = cls.ID
    loc_idx = tuple(i for i, k in enumerate(kinds) if k == "loc")
    opt_idx = tuple(i for i, k in enumerate(kinds) if k == "loc?")

    if not names:
        encoded = bytes([msg_id])
        instance_cache: list[Message] = []

        def encode(self: Message) -> bytes:
            return encoded

        def _read(buf: bytes, off: int) -> tuple[Message, int]:
            if not instance_cache:
                instance_cache.append(cls())
            return instance_cache[0], off

    else:
        getter = attrgetter(*names)
        single = len(names) == 1
        pack = full.pack
        unpack_from = body.unpack_from
        size = body.size

        if not loc_idx and not opt_idx:
            if single:

                def encode(self: Message) -> bytes:
                    return pack(msg_id, getter(self))

            else:

                def encode(self: Message) -> bytes:
                    return pack(msg_id, *getter(self))

            def _read(buf: bytes, off: int) -> tuple[Message, int]:
                return cls(**dict(zip(names, unpack_from(buf, off)))), off + size

        else:

            def encode(self: Message) -> bytes:
                values = list(getter(self)) if not single else [getter(self)]
                for i in loc_idx:
                    values[i] = values[i].raw
                for i in opt_idx:
                    v = values[i]
                    values[i] = 0 if v is None else v.raw
                return pack(msg_id, *values)

            from_raw = LocInfo.from_raw

            def _read(buf: bytes, off: int) -> tuple[Message, int]:
                values = list(unpack_from(buf, off))
                for i in loc_idx:
                    values[i] = from_raw(values[i])
                for i in opt_idx:
                    v = values[i]
                    values[i] = None if v == 0 else from_raw(v)
                return cls(**dict(zip(names, values))), off + size

    cls.encode = encode  # type: ignore[method-assign]
    cls._read = staticmethod(_read)  # type: ignore[method-assign,assignment]
    return _register(cls)


# ---------------------------------------------------------------------------
# Messages without a body
# ---------------------------------------------------------------------------
@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgRetry(Message):
    """The last response was refused; the same prompt is asked again."""

    ID: ClassVar[int] = MSG_RETRY
    NAME: ClassVar[str] = "RETRY"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgReverseDeck(Message):
    ID: ClassVar[int] = MSG_REVERSE_DECK
    NAME: ClassVar[str] = "REVERSE_DECK"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSummoned(Message):
    ID: ClassVar[int] = MSG_SUMMONED
    NAME: ClassVar[str] = "SUMMONED"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSpSummoned(Message):
    ID: ClassVar[int] = MSG_SPSUMMONED
    NAME: ClassVar[str] = "SPSUMMONED"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgFlipSummoned(Message):
    ID: ClassVar[int] = MSG_FLIPSUMMONED
    NAME: ClassVar[str] = "FLIPSUMMONED"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgChainEnd(Message):
    ID: ClassVar[int] = MSG_CHAIN_END
    NAME: ClassVar[str] = "CHAIN_END"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAttackDisabled(Message):
    ID: ClassVar[int] = MSG_ATTACK_DISABLED
    NAME: ClassVar[str] = "ATTACK_DISABLED"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgDamageStepStart(Message):
    ID: ClassVar[int] = MSG_DAMAGE_STEP_START
    NAME: ClassVar[str] = "DAMAGE_STEP_START"
    _LAYOUT: ClassVar = ()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgDamageStepEnd(Message):
    ID: ClassVar[int] = MSG_DAMAGE_STEP_END
    NAME: ClassVar[str] = "DAMAGE_STEP_END"
    _LAYOUT: ClassVar = ()


# ---------------------------------------------------------------------------
# Small fixed-layout messages
# ---------------------------------------------------------------------------
@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgHint(Message):
    """A hint for a player's client. ``type`` is HINT_*; ``data`` a string id,
    a card code, a race/attribute mask or a number, depending on the type."""

    type: int
    player: int
    data: int
    ID: ClassVar[int] = MSG_HINT
    NAME: ClassVar[str] = "HINT"
    _LAYOUT: ClassVar = (("type", "B"), ("player", "B"), ("data", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        kind = _HINT_NAMES.get(self.type, str(self.type))
        data = _card(self.data, name_of) if self.type in (8, 10) else str(self.data)
        return f"HINT {kind} P{self.player} {data}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgWin(Message):
    """``player`` won (2 = draw); ``reason`` 1 = LP, 2 = deck-out, others by card effects."""

    player: int
    reason: int
    ID: ClassVar[int] = MSG_WIN
    NAME: ClassVar[str] = "WIN"
    _LAYOUT: ClassVar = (("player", "B"), ("reason", "B"))

    def describe(self, name_of: NameOf = None) -> str:
        who = "draw" if self.player == 2 else f"P{self.player}"
        return f"WIN {who}, reason {_WIN_REASONS.get(self.reason, self.reason)}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgShuffleDeck(Message):
    player: int
    ID: ClassVar[int] = MSG_SHUFFLE_DECK
    NAME: ClassVar[str] = "SHUFFLE_DECK"
    _LAYOUT: ClassVar = (("player", "B"),)

    def describe(self, name_of: NameOf = None) -> str:
        return f"SHUFFLE_DECK P{self.player}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSwapGraveDeck(Message):
    player: int
    ID: ClassVar[int] = MSG_SWAP_GRAVE_DECK
    NAME: ClassVar[str] = "SWAP_GRAVE_DECK"
    _LAYOUT: ClassVar = (("player", "B"),)

    def describe(self, name_of: NameOf = None) -> str:
        return f"SWAP_GRAVE_DECK P{self.player}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgDeckTop(Message):
    """The card ``sequence`` places below the top of ``player``'s Deck is now
    visible on top. ``code`` is raw: the high bit means it is face-up."""

    player: int
    sequence: int
    code: int
    ID: ClassVar[int] = MSG_DECK_TOP
    NAME: ClassVar[str] = "DECK_TOP"
    _LAYOUT: ClassVar = (("player", "B"), ("sequence", "B"), ("code", "I"))

    @property
    def card_code(self) -> int:
        return self.code & 0x7FFFFFFF

    @property
    def face_up(self) -> bool:
        return bool(self.code & CODE_HIGH_BIT)

    def describe(self, name_of: NameOf = None) -> str:
        up = " face-up" if self.face_up else ""
        return f"DECK_TOP P{self.player} +{self.sequence}: {_card(self.card_code, name_of)}{up}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgNewTurn(Message):
    player: int
    ID: ClassVar[int] = MSG_NEW_TURN
    NAME: ClassVar[str] = "NEW_TURN"
    _LAYOUT: ClassVar = (("player", "B"),)

    def describe(self, name_of: NameOf = None) -> str:
        return f"NEW_TURN P{self.player}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgNewPhase(Message):
    phase: int
    ID: ClassVar[int] = MSG_NEW_PHASE
    NAME: ClassVar[str] = "NEW_PHASE"
    _LAYOUT: ClassVar = (("phase", "H"),)

    def describe(self, name_of: NameOf = None) -> str:
        return f"NEW_PHASE {_phase_name(self.phase)}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgMove(Message):
    """A card moved. ``code`` is 0 when the mover hides it (Deck sorting);
    ``current`` may carry POS_REVEAL (0x80) in its position byte."""

    code: int
    previous: LocInfo
    current: LocInfo
    reason: int
    ID: ClassVar[int] = MSG_MOVE
    NAME: ClassVar[str] = "MOVE"
    _LAYOUT: ClassVar = (("code", "I"), ("previous", "loc"), ("current", "loc"), ("reason", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"MOVE {_card(self.code, name_of)}: {self.previous.describe()} -> {self.current.describe()},"
            f" reason {_reason_name(self.reason)}"
        )


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgPosChange(Message):
    code: int
    controller: int
    location: int
    sequence: int
    previous_position: int
    current_position: int
    ID: ClassVar[int] = MSG_POS_CHANGE
    NAME: ClassVar[str] = "POS_CHANGE"
    _LAYOUT: ClassVar = (
        ("code", "I"),
        ("controller", "B"),
        ("location", "B"),
        ("sequence", "B"),
        ("previous_position", "B"),
        ("current_position", "B"),
    )

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"POS_CHANGE {_card(self.code, name_of)} {_place(self.controller, self.location, self.sequence)}:"
            f" {_pos_name(self.previous_position)} -> {_pos_name(self.current_position)}"
        )


class _CodeLoc(Message):
    """Shared describe for the (code, LocInfo) messages."""

    __slots__ = ()

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} {_card(self.code, name_of)} at {self.loc.describe()}"  # type: ignore[attr-defined]


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSet(_CodeLoc):
    code: int
    loc: LocInfo
    ID: ClassVar[int] = MSG_SET
    NAME: ClassVar[str] = "SET"
    _LAYOUT: ClassVar = (("code", "I"), ("loc", "loc"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSummoning(_CodeLoc):
    code: int
    loc: LocInfo
    ID: ClassVar[int] = MSG_SUMMONING
    NAME: ClassVar[str] = "SUMMONING"
    _LAYOUT: ClassVar = (("code", "I"), ("loc", "loc"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSpSummoning(_CodeLoc):
    """``loc`` is the public location (may carry POS_REVEAL)."""

    code: int
    loc: LocInfo
    ID: ClassVar[int] = MSG_SPSUMMONING
    NAME: ClassVar[str] = "SPSUMMONING"
    _LAYOUT: ClassVar = (("code", "I"), ("loc", "loc"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgFlipSummoning(_CodeLoc):
    code: int
    loc: LocInfo
    ID: ClassVar[int] = MSG_FLIPSUMMONING
    NAME: ClassVar[str] = "FLIPSUMMONING"
    _LAYOUT: ClassVar = (("code", "I"), ("loc", "loc"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSwap(Message):
    """Two cards on the field swapped places (both kept their sequences)."""

    code1: int
    loc1: LocInfo
    code2: int
    loc2: LocInfo
    ID: ClassVar[int] = MSG_SWAP
    NAME: ClassVar[str] = "SWAP"
    _LAYOUT: ClassVar = (("code1", "I"), ("loc1", "loc"), ("code2", "I"), ("loc2", "loc"))

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"SWAP {_card(self.code1, name_of)} at {self.loc1.describe()}"
            f" <-> {_card(self.code2, name_of)} at {self.loc2.describe()}"
        )


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgFieldDisabled(Message):
    """Zones now disabled: bits of player 0 in the low 16, player 1 in the high 16
    (bits 0-6 Monster Zones, 8-12 Spell & Trap Zones)."""

    flags: int
    ID: ClassVar[int] = MSG_FIELD_DISABLED
    NAME: ClassVar[str] = "FIELD_DISABLED"
    _LAYOUT: ClassVar = (("flags", "I"),)

    def describe(self, name_of: NameOf = None) -> str:
        return f"FIELD_DISABLED {self.flags:#010x}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgChaining(Message):
    """An effect was activated as chain link ``chain_count``. ``loc`` is the
    handler's current location; ``triggering_*`` where it was activated."""

    code: int
    loc: LocInfo
    triggering_controller: int
    triggering_location: int
    triggering_sequence: int
    description: int
    chain_count: int
    ID: ClassVar[int] = MSG_CHAINING
    NAME: ClassVar[str] = "CHAINING"
    _LAYOUT: ClassVar = (
        ("code", "I"),
        ("loc", "loc"),
        ("triggering_controller", "B"),
        ("triggering_location", "B"),
        ("triggering_sequence", "B"),
        ("description", "I"),
        ("chain_count", "B"),
    )

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"CHAINING #{self.chain_count} {_card(self.code, name_of)} at {self.loc.describe()}"
            f" (from {_place(self.triggering_controller, self.triggering_location, self.triggering_sequence)})"
            f" desc {self.description}"
        )


class _ChainCount(Message):
    __slots__ = ()

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} #{self.chain_count}"  # type: ignore[attr-defined]


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgChained(_ChainCount):
    chain_count: int
    ID: ClassVar[int] = MSG_CHAINED
    NAME: ClassVar[str] = "CHAINED"
    _LAYOUT: ClassVar = (("chain_count", "B"),)


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgChainSolving(_ChainCount):
    chain_count: int
    ID: ClassVar[int] = MSG_CHAIN_SOLVING
    NAME: ClassVar[str] = "CHAIN_SOLVING"
    _LAYOUT: ClassVar = (("chain_count", "B"),)


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgChainSolved(_ChainCount):
    chain_count: int
    ID: ClassVar[int] = MSG_CHAIN_SOLVED
    NAME: ClassVar[str] = "CHAIN_SOLVED"
    _LAYOUT: ClassVar = (("chain_count", "B"),)


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgChainNegated(_ChainCount):
    chain_count: int
    ID: ClassVar[int] = MSG_CHAIN_NEGATED
    NAME: ClassVar[str] = "CHAIN_NEGATED"
    _LAYOUT: ClassVar = (("chain_count", "B"),)


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgChainDisabled(_ChainCount):
    chain_count: int
    ID: ClassVar[int] = MSG_CHAIN_DISABLED
    NAME: ClassVar[str] = "CHAIN_DISABLED"
    _LAYOUT: ClassVar = (("chain_count", "B"),)


class _PlayerAmount(Message):
    __slots__ = ()

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} P{self.player} {self.amount}"  # type: ignore[attr-defined]


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgDamage(_PlayerAmount):
    player: int
    amount: int
    ID: ClassVar[int] = MSG_DAMAGE
    NAME: ClassVar[str] = "DAMAGE"
    _LAYOUT: ClassVar = (("player", "B"), ("amount", "I"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgRecover(_PlayerAmount):
    player: int
    amount: int
    ID: ClassVar[int] = MSG_RECOVER
    NAME: ClassVar[str] = "RECOVER"
    _LAYOUT: ClassVar = (("player", "B"), ("amount", "I"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgPayLpCost(_PlayerAmount):
    player: int
    amount: int
    ID: ClassVar[int] = MSG_PAY_LPCOST
    NAME: ClassVar[str] = "PAY_LPCOST"
    _LAYOUT: ClassVar = (("player", "B"), ("amount", "I"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgLpUpdate(Message):
    """``player``'s LP were set to ``lp`` (Duel.SetLP)."""

    player: int
    lp: int
    ID: ClassVar[int] = MSG_LPUPDATE
    NAME: ClassVar[str] = "LPUPDATE"
    _LAYOUT: ClassVar = (("player", "B"), ("lp", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        return f"LPUPDATE P{self.player} = {self.lp}"


class _TwoCards(Message):
    __slots__ = ()

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} {self.card.describe()} -> {self.target.describe()}"  # type: ignore[attr-defined]


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgEquip(_TwoCards):
    """``card`` was equipped to ``target``."""

    card: LocInfo
    target: LocInfo
    ID: ClassVar[int] = MSG_EQUIP
    NAME: ClassVar[str] = "EQUIP"
    _LAYOUT: ClassVar = (("card", "loc"), ("target", "loc"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgCardTarget(_TwoCards):
    """``card`` now targets ``target`` (a lasting card target)."""

    card: LocInfo
    target: LocInfo
    ID: ClassVar[int] = MSG_CARD_TARGET
    NAME: ClassVar[str] = "CARD_TARGET"
    _LAYOUT: ClassVar = (("card", "loc"), ("target", "loc"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgCancelTarget(_TwoCards):
    card: LocInfo
    target: LocInfo
    ID: ClassVar[int] = MSG_CANCEL_TARGET
    NAME: ClassVar[str] = "CANCEL_TARGET"
    _LAYOUT: ClassVar = (("card", "loc"), ("target", "loc"))


class _Counter(Message):
    __slots__ = ()

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"{self.NAME} {self.counter_type:#x} x{self.count} at "  # type: ignore[attr-defined]
            f"{_place(self.controller, self.location, self.sequence)}"  # type: ignore[attr-defined]
        )


_COUNTER_LAYOUT = (
    ("counter_type", "H"),
    ("controller", "B"),
    ("location", "B"),
    ("sequence", "B"),
    ("count", "H"),
)


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAddCounter(_Counter):
    counter_type: int
    controller: int
    location: int
    sequence: int
    count: int
    ID: ClassVar[int] = MSG_ADD_COUNTER
    NAME: ClassVar[str] = "ADD_COUNTER"
    _LAYOUT: ClassVar = _COUNTER_LAYOUT


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgRemoveCounter(_Counter):
    counter_type: int
    controller: int
    location: int
    sequence: int
    count: int
    ID: ClassVar[int] = MSG_REMOVE_COUNTER
    NAME: ClassVar[str] = "REMOVE_COUNTER"
    _LAYOUT: ClassVar = _COUNTER_LAYOUT


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAttack(Message):
    """``attacker`` attacks ``target``; ``None`` (written as 0) = a direct attack."""

    attacker: LocInfo
    target: LocInfo | None
    ID: ClassVar[int] = MSG_ATTACK
    NAME: ClassVar[str] = "ATTACK"
    _LAYOUT: ClassVar = (("attacker", "loc"), ("target", "loc?"))

    def describe(self, name_of: NameOf = None) -> str:
        target = "directly" if self.target is None else self.target.describe()
        return f"ATTACK {self.attacker.describe()} -> {target}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgBattle(Message):
    """Damage calculation: each side's location, ATK, DEF and whether it is
    destroyed by the battle. With no defender its four fields are written as 0."""

    attacker: LocInfo
    attacker_atk: int
    attacker_def: int
    attacker_destroyed: int
    target: LocInfo | None
    target_atk: int
    target_def: int
    target_destroyed: int
    ID: ClassVar[int] = MSG_BATTLE
    NAME: ClassVar[str] = "BATTLE"
    _LAYOUT: ClassVar = (
        ("attacker", "loc"),
        ("attacker_atk", "I"),
        ("attacker_def", "I"),
        ("attacker_destroyed", "B"),
        ("target", "loc?"),
        ("target_atk", "I"),
        ("target_def", "I"),
        ("target_destroyed", "B"),
    )

    def describe(self, name_of: NameOf = None) -> str:
        a = f"{self.attacker.describe()} {self.attacker_atk}/{self.attacker_def}"
        if self.attacker_destroyed:
            a += " destroyed"
        if self.target is None:
            return f"BATTLE {a} vs nobody"
        t = f"{self.target.describe()} {self.target_atk}/{self.target_def}"
        if self.target_destroyed:
            t += " destroyed"
        return f"BATTLE {a} vs {t}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgMissedEffect(Message):
    """An optional "when" trigger missed its timing. Note the order: location first, then code."""

    loc: LocInfo
    code: int
    ID: ClassVar[int] = MSG_MISSED_EFFECT
    NAME: ClassVar[str] = "MISSED_EFFECT"
    _LAYOUT: ClassVar = (("loc", "loc"), ("code", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        return f"MISSED_EFFECT {_card(self.code, name_of)} at {self.loc.describe()}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgHandRes(Message):
    """Rock-paper-scissors result: player 0's hand in bits 0-1, player 1's in bits 2-3."""

    result: int
    ID: ClassVar[int] = MSG_HAND_RES
    NAME: ClassVar[str] = "HAND_RES"
    _LAYOUT: ClassVar = (("result", "B"),)

    @property
    def hands(self) -> tuple[int, int]:
        return self.result & 3, (self.result >> 2) & 3

    def describe(self, name_of: NameOf = None) -> str:
        h0, h1 = self.hands
        return f"HAND_RES P0 {_RPS_NAMES.get(h0, h0)}, P1 {_RPS_NAMES.get(h1, h1)}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgCardHint(Message):
    """A hint shown on a card; ``type`` is CHINT_*."""

    loc: LocInfo
    type: int
    value: int
    ID: ClassVar[int] = MSG_CARD_HINT
    NAME: ClassVar[str] = "CARD_HINT"
    _LAYOUT: ClassVar = (("loc", "loc"), ("type", "B"), ("value", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        kind = _CHINT_NAMES.get(self.type, str(self.type))
        value = _card(self.value, name_of) if self.type == 2 else f"{self.value:#x}" if self.type >= 6 else str(self.value)
        return f"CARD_HINT {kind} {self.loc.describe()} {value}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgPlayerHint(Message):
    """A hint shown on a player; ``type`` is PHINT_*."""

    player: int
    type: int
    value: int
    ID: ClassVar[int] = MSG_PLAYER_HINT
    NAME: ClassVar[str] = "PLAYER_HINT"
    _LAYOUT: ClassVar = (("player", "B"), ("type", "B"), ("value", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        return f"PLAYER_HINT {_PHINT_NAMES.get(self.type, self.type)} P{self.player} {self.value:#x}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgMatchKill(Message):
    code: int
    ID: ClassVar[int] = MSG_MATCH_KILL
    NAME: ClassVar[str] = "MATCH_KILL"
    _LAYOUT: ClassVar = (("code", "I"),)

    def describe(self, name_of: NameOf = None) -> str:
        return f"MATCH_KILL {_card(self.code, name_of)}"


# ---------------------------------------------------------------------------
# Variable-length messages
# ---------------------------------------------------------------------------
_HDR_B = Struct("<BB")  # type byte + one u8
_HDR_BB = Struct("<BBB")  # type byte + two u8
_HDR_BBB = Struct("<BBBB")


class _PlayerCodes(Message):
    """player u8, count u8, count x code u32."""

    __slots__ = ()

    def encode(self) -> bytes:
        codes = self.codes  # type: ignore[attr-defined]
        return _HDR_BB.pack(self.ID, self.player, _u8_count(codes, self.NAME)) + _pack_u32s(codes)  # type: ignore[attr-defined]

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, count = buf[off], buf[off + 1]
        codes, off = _read_u32s(buf, off + 2, count)
        return cls(player=player, codes=codes), off  # type: ignore[call-arg]

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} P{self.player} {_codes(self.codes, name_of)}"  # type: ignore[attr-defined]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgDraw(_PlayerCodes):
    """``player`` drew these cards, top first. Codes are raw: the high bit means
    the card was face-up in the Deck (so the opponent may see it)."""

    player: int
    codes: tuple[int, ...]
    ID: ClassVar[int] = MSG_DRAW
    NAME: ClassVar[str] = "DRAW"

    @property
    def cards(self) -> tuple[tuple[int, bool], ...]:
        """(code, face_up) for each drawn card."""
        return tuple((c & 0x7FFFFFFF, bool(c & CODE_HIGH_BIT)) for c in self.codes)

    def describe(self, name_of: NameOf = None) -> str:
        cards = ", ".join(
            _card(code, name_of) + (" (face-up)" if up else "") for code, up in self.cards
        )
        return f"DRAW P{self.player} [{cards}]"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgShuffleHand(_PlayerCodes):
    """The hand after a shuffle, in its new order."""

    player: int
    codes: tuple[int, ...]
    ID: ClassVar[int] = MSG_SHUFFLE_HAND
    NAME: ClassVar[str] = "SHUFFLE_HAND"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgShuffleExtra(_PlayerCodes):
    """The whole Extra Deck after a shuffle (face-up Pendulums included, unshuffled)."""

    player: int
    codes: tuple[int, ...]
    ID: ClassVar[int] = MSG_SHUFFLE_EXTRA
    NAME: ClassVar[str] = "SHUFFLE_EXTRA"


class _PlayerResults(Message):
    """player u8, count u8, count x result u8."""

    __slots__ = ()

    def encode(self) -> bytes:
        results = self.results  # type: ignore[attr-defined]
        return _HDR_BB.pack(self.ID, self.player, _u8_count(results, self.NAME)) + bytes(results)  # type: ignore[attr-defined]

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, count = buf[off], buf[off + 1]
        results, off = _read_u8s(buf, off + 2, count)
        return cls(player=player, results=results), off  # type: ignore[call-arg]

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} P{self.player} {list(self.results)}"  # type: ignore[attr-defined]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgTossCoin(_PlayerResults):
    """Coin results: 1 = heads, 0 = tails."""

    player: int
    results: tuple[int, ...]
    ID: ClassVar[int] = MSG_TOSS_COIN
    NAME: ClassVar[str] = "TOSS_COIN"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgTossDice(_PlayerResults):
    player: int
    results: tuple[int, ...]
    ID: ClassVar[int] = MSG_TOSS_DICE
    NAME: ClassVar[str] = "TOSS_DICE"


class _PlayerCardInfos(Message):
    """player u8, count u8, count x CardInfo."""

    __slots__ = ()

    def encode(self) -> bytes:
        cards = self.cards  # type: ignore[attr-defined]
        return _HDR_BB.pack(self.ID, self.player, _u8_count(cards, self.NAME)) + _pack_records(cards)  # type: ignore[attr-defined]

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, count = buf[off], buf[off + 1]
        cards, off = _read_records(CardInfo, buf, off + 2, count)
        return cls(player=player, cards=cards), off  # type: ignore[call-arg]

    def describe(self, name_of: NameOf = None) -> str:
        cards = ", ".join(c.describe(name_of) for c in self.cards)  # type: ignore[attr-defined]
        return f"{self.NAME} P{self.player} [{cards}]"  # type: ignore[attr-defined]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgConfirmDecktop(_PlayerCardInfos):
    """The top cards of ``player``'s Deck are shown, top first."""

    player: int
    cards: tuple[CardInfo, ...]
    ID: ClassVar[int] = MSG_CONFIRM_DECKTOP
    NAME: ClassVar[str] = "CONFIRM_DECKTOP"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgConfirmExtratop(_PlayerCardInfos):
    """The top face-down cards of ``player``'s Extra Deck are shown."""

    player: int
    cards: tuple[CardInfo, ...]
    ID: ClassVar[int] = MSG_CONFIRM_EXTRATOP
    NAME: ClassVar[str] = "CONFIRM_EXTRATOP"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgConfirmCards(Message):
    """``player`` is shown these cards. ``skip_panel`` (Duel.ConfirmCards' third
    argument) asks the client not to open a panel. Note the byte between the
    player and the count."""

    player: int
    skip_panel: int
    cards: tuple[CardInfo, ...]
    ID: ClassVar[int] = MSG_CONFIRM_CARDS
    NAME: ClassVar[str] = "CONFIRM_CARDS"

    def encode(self) -> bytes:
        return _HDR_BBB.pack(self.ID, self.player, self.skip_panel, _u8_count(self.cards, self.NAME)) + _pack_records(
            self.cards
        )

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, skip, count = buf[off], buf[off + 1], buf[off + 2]
        cards, off = _read_records(CardInfo, buf, off + 3, count)
        return cls(player=player, skip_panel=skip, cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        cards = ", ".join(c.describe(name_of) for c in self.cards)
        skip = " (no panel)" if self.skip_panel else ""
        return f"CONFIRM_CARDS to P{self.player}{skip} [{cards}]"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgShuffleSetCard(Message):
    """Set cards in ``location`` (MZONE or SZONE) were shuffled among their zones.

    ``previous``: each card's location before the shuffle. ``current``: for each
    card, its new location if it has Xyz materials, else ``None`` (written as 0);
    the core always writes ``None`` here for Spell/Trap sets."""

    location: int
    previous: tuple[LocInfo, ...]
    current: tuple[LocInfo | None, ...]
    ID: ClassVar[int] = MSG_SHUFFLE_SET_CARD
    NAME: ClassVar[str] = "SHUFFLE_SET_CARD"

    def encode(self) -> bytes:
        if len(self.current) != len(self.previous):
            raise ValueError("SHUFFLE_SET_CARD: previous and current must have the same length")
        return (
            _HDR_BB.pack(self.ID, self.location, _u8_count(self.previous, self.NAME))
            + _pack_u32s([loc.raw for loc in self.previous])
            + _pack_u32s([_raw_loc(loc) for loc in self.current])
        )

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        location, count = buf[off], buf[off + 1]
        previous, off = _read_locs(buf, off + 2, count)
        raws, off = _read_u32s(buf, off, count)
        current = tuple([_loc_or_none(r) for r in raws])
        return cls(location=location, previous=previous, current=current), off

    def describe(self, name_of: NameOf = None) -> str:
        prev = ", ".join(loc.describe() for loc in self.previous)
        cur = ", ".join(_desc_loc(loc) for loc in self.current)
        return f"SHUFFLE_SET_CARD {_loc_name(self.location)} [{prev}] -> [{cur}]"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgRandomSelected(Message):
    """Cards chosen at random by ``player`` (Group.RandomSelect)."""

    player: int
    cards: tuple[LocInfo, ...]
    ID: ClassVar[int] = MSG_RANDOM_SELECTED
    NAME: ClassVar[str] = "RANDOM_SELECTED"

    def encode(self) -> bytes:
        return _HDR_BB.pack(self.ID, self.player, _u8_count(self.cards, self.NAME)) + _pack_u32s(
            [loc.raw for loc in self.cards]
        )

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, count = buf[off], buf[off + 1]
        cards, off = _read_locs(buf, off + 2, count)
        return cls(player=player, cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        return f"RANDOM_SELECTED P{self.player} [{', '.join(c.describe() for c in self.cards)}]"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgBecomeTarget(Message):
    """Cards shown as targeted. The reference always writes one card per message."""

    cards: tuple[LocInfo, ...]
    ID: ClassVar[int] = MSG_BECOME_TARGET
    NAME: ClassVar[str] = "BECOME_TARGET"

    def encode(self) -> bytes:
        return _HDR_B.pack(self.ID, _u8_count(self.cards, self.NAME)) + _pack_u32s([loc.raw for loc in self.cards])

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        count = buf[off]
        cards, off = _read_locs(buf, off + 1, count)
        return cls(cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        return f"BECOME_TARGET [{', '.join(c.describe() for c in self.cards)}]"


_TAG_HDR = Struct("<BBBBBBI")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgTagSwap(Message):
    """Tag duel: ``player``'s partner takes over. Counts of the new Deck, Extra
    Deck (and its face-up part) and hand; the Deck's top code when the Deck is
    reversed, else 0; then the hand and Extra Deck codes (high bit = face-up).

    The hand count is written after the Extra Deck counts but the hand codes
    come before the Extra Deck codes."""

    player: int
    deck_count: int
    extra_p_count: int
    deck_top: int
    hand: tuple[int, ...]
    extra: tuple[int, ...]
    ID: ClassVar[int] = MSG_TAG_SWAP
    NAME: ClassVar[str] = "TAG_SWAP"

    def encode(self) -> bytes:
        return (
            _TAG_HDR.pack(
                self.ID,
                self.player,
                self.deck_count,
                _u8_count(self.extra, self.NAME),
                self.extra_p_count,
                _u8_count(self.hand, self.NAME),
                self.deck_top,
            )
            + _pack_u32s(self.hand)
            + _pack_u32s(self.extra)
        )

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        _, player, deck_count, extra_count, extra_p, hand_count, top = _TAG_HDR.unpack_from(buf, off - 1)
        off += _TAG_HDR.size - 1
        hand, off = _read_u32s(buf, off, hand_count)
        extra, off = _read_u32s(buf, off, extra_count)
        return (
            cls(player=player, deck_count=deck_count, extra_p_count=extra_p, deck_top=top, hand=hand, extra=extra),
            off,
        )

    def describe(self, name_of: NameOf = None) -> str:
        return (
            f"TAG_SWAP P{self.player} deck {self.deck_count}, hand {_codes(self.hand, name_of)},"
            f" extra {_codes(self.extra, name_of)} ({self.extra_p_count} face-up)"
        )


_RELOAD_COUNTS = Struct("<6B")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgReloadField(Message):
    """The whole visible field (Debug.ReloadFieldEnd): the duel rule, each
    player's state, and the current chain."""

    duel_rule: int
    players: tuple[PlayerFieldState, PlayerFieldState]
    chain: tuple[ChainLinkInfo, ...]
    ID: ClassVar[int] = MSG_RELOAD_FIELD
    NAME: ClassVar[str] = "RELOAD_FIELD"

    def encode(self) -> bytes:
        out = bytearray((self.ID, self.duel_rule))
        if len(self.players) != 2:
            raise ValueError("RELOAD_FIELD: exactly two players")
        for p in self.players:
            if len(p.mzone) != 7 or len(p.szone) != 8:
                raise ValueError("RELOAD_FIELD: 7 Monster Zones and 8 Spell & Trap Zones per player")
            out += U32.pack(p.lp)
            for mz in p.mzone:
                out += b"\x00" if mz is None else bytes((1, mz.position, mz.overlay_count))
            for sz in p.szone:
                out += b"\x00" if sz is None else bytes((1, sz.position))
            out += _RELOAD_COUNTS.pack(
                p.deck_count, p.hand_count, p.grave_count, p.removed_count, p.extra_count, p.extra_p_count
            )
        out.append(_u8_count(self.chain, self.NAME))
        out += _pack_records(self.chain)
        return bytes(out)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        need(buf, off, 1)
        duel_rule = buf[off]
        off += 1
        players = []
        for _ in range(2):
            (lp,) = U32.unpack_from(buf, off)
            off += 4
            mzone: list[MonsterZoneState | None] = []
            for _z in range(7):
                need(buf, off, 1)
                flag = buf[off]
                if flag == 0:
                    mzone.append(None)
                    off += 1
                elif flag == 1:
                    need(buf, off, 3)
                    mzone.append(MonsterZoneState(position=buf[off + 1], overlay_count=buf[off + 2]))
                    off += 3
                else:
                    raise ValueError(f"zone flag {flag} is neither 0 nor 1")
            szone: list[SpellZoneState | None] = []
            for _z in range(8):
                need(buf, off, 1)
                flag = buf[off]
                if flag == 0:
                    szone.append(None)
                    off += 1
                elif flag == 1:
                    need(buf, off, 2)
                    szone.append(SpellZoneState(position=buf[off + 1]))
                    off += 2
                else:
                    raise ValueError(f"zone flag {flag} is neither 0 nor 1")
            counts = _RELOAD_COUNTS.unpack_from(buf, off)
            off += 6
            players.append(
                PlayerFieldState(
                    lp=lp,
                    mzone=tuple(mzone),
                    szone=tuple(szone),
                    deck_count=counts[0],
                    hand_count=counts[1],
                    grave_count=counts[2],
                    removed_count=counts[3],
                    extra_count=counts[4],
                    extra_p_count=counts[5],
                )
            )
        need(buf, off, 1)
        count = buf[off]
        chain, off = _read_records(ChainLinkInfo, buf, off + 1, count)
        return cls(duel_rule=duel_rule, players=(players[0], players[1]), chain=chain), off

    def describe(self, name_of: NameOf = None) -> str:
        p0, p1 = self.players
        return f"RELOAD_FIELD rule {self.duel_rule}, LP {p0.lp}/{p1.lp}, chain {len(self.chain)}"


class _Text(Message):
    """u16 length, the bytes, then a NUL (not counted in the length)."""

    __slots__ = ()

    def encode(self) -> bytes:
        data = self.text.encode("utf-8", "surrogateescape")  # type: ignore[attr-defined]
        if len(data) > 0xFFFF:
            raise ValueError(f"{self.NAME}: text too long")
        return bytes((self.ID,)) + U16.pack(len(data)) + data + b"\x00"

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        (length,) = U16.unpack_from(buf, off)
        off += 2
        need(buf, off, length + 1)
        data = buf[off : off + length]
        if buf[off + length] != 0:
            raise ValueError("text is not followed by its NUL byte")
        return cls(text=data.decode("utf-8", "surrogateescape")), off + length + 1  # type: ignore[call-arg]

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} {self.text!r}"  # type: ignore[attr-defined]


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAiName(_Text):
    """Debug.SetAIName; the core cuts the text to 127 bytes."""

    text: str
    ID: ClassVar[int] = MSG_AI_NAME
    NAME: ClassVar[str] = "AI_NAME"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgShowHint(_Text):
    """Debug.ShowHint; the core cuts the text to 1023 bytes."""

    text: str
    ID: ClassVar[int] = MSG_SHOW_HINT
    NAME: ClassVar[str] = "SHOW_HINT"


# ---------------------------------------------------------------------------
# Prompts
# ---------------------------------------------------------------------------
_BC_FLAGS = Struct("<BB")
U8_U8_pack = Struct("<BB").pack


# A few prompts write numbers narrower than the ones the core was called with and
# checks the answer against (engine/prompt_kinds.py).  A prompt the engine makes
# carries them as ``exact`` (not on the wire, not compared); a decoded prompt has
# None and its answer is checked against what the message holds.
class SumLimits(NamedTuple):
    """SELECT_SUM as the core was asked: how many cards besides the must-select
    cards (``min`` may be negative, ``max`` 0 means "at least the target") and the
    target; the message holds ``min`` and ``max`` as bytes."""

    min: int
    max: int
    target: int


class CounterLimits(NamedTuple):
    """SELECT_COUNTER as the core was asked: counters to remove, and each card's count."""

    count: int
    caps: tuple[int, ...]


class PlaceLimits(NamedTuple):
    """SELECT_PLACE / SELECT_DISFIELD as the core was asked: how many zones."""

    count: int


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectBattleCmd(Prompt):
    """Battle Phase menu: effects to activate, monsters that can attack, and
    whether going to Main Phase 2 / End Phase is allowed."""

    activatable: tuple[EffectOption, ...]
    attackable: tuple[AttackableCard, ...]
    can_main2: int
    can_end_phase: int
    ID: ClassVar[int] = MSG_SELECT_BATTLECMD
    NAME: ClassVar[str] = "SELECT_BATTLECMD"

    def encode(self) -> bytes:
        return b"".join(
            (
                _HDR_BB.pack(self.ID, self.player, _u8_count(self.activatable, self.NAME)),
                _pack_records(self.activatable),
                U8.pack(_u8_count(self.attackable, self.NAME)),
                _pack_records(self.attackable),
                _BC_FLAGS.pack(self.can_main2, self.can_end_phase),
            )
        )

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, count = buf[off], buf[off + 1]
        activatable, off = _read_records(EffectOption, buf, off + 2, count)
        need(buf, off, 1)
        attackable, off = _read_records(AttackableCard, buf, off + 1, buf[off])
        m2, ep = _BC_FLAGS.unpack_from(buf, off)
        return (
            cls(player=player, activatable=activatable, attackable=attackable, can_main2=m2, can_end_phase=ep),
            off + 2,
        )

    def describe(self, name_of: NameOf = None) -> str:
        act = "; ".join(e.describe(name_of) for e in self.activatable)
        atk = "; ".join(a.describe(name_of) for a in self.attackable)
        flags = "".join((" M2" if self.can_main2 else "", " EP" if self.can_end_phase else ""))
        return f"SELECT_BATTLECMD P{self.player} activate [{act}] attack [{atk}]{flags}"


_IDLE_FLAGS = Struct("<BBB")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectIdleCmd(Prompt):
    """Main Phase menu: five card lists (Normal Summon, Special Summon, change
    position, set monster, set Spell/Trap), effects to activate, and whether
    Battle Phase / End Phase / shuffling the hand are allowed."""

    summonable: tuple[CardInfo, ...]
    special_summonable: tuple[CardInfo, ...]
    repositionable: tuple[CardInfo, ...]
    monster_settable: tuple[CardInfo, ...]
    spell_settable: tuple[CardInfo, ...]
    activatable: tuple[EffectOption, ...]
    can_battle_phase: int
    can_end_phase: int
    can_shuffle: int
    ID: ClassVar[int] = MSG_SELECT_IDLECMD
    NAME: ClassVar[str] = "SELECT_IDLECMD"

    @property
    def card_lists(self) -> tuple[tuple[CardInfo, ...], ...]:
        """The five card lists, indexed by the command number 0-4."""
        return (self.summonable, self.special_summonable, self.repositionable, self.monster_settable, self.spell_settable)

    def encode(self) -> bytes:
        parts = [U8_U8_pack(self.ID, self.player)]
        for lst in self.card_lists:
            parts.append(U8.pack(_u8_count(lst, self.NAME)))
            parts.append(_pack_records(lst))
        parts.append(U8.pack(_u8_count(self.activatable, self.NAME)))
        parts.append(_pack_records(self.activatable))
        parts.append(_IDLE_FLAGS.pack(self.can_battle_phase, self.can_end_phase, self.can_shuffle))
        return b"".join(parts)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        need(buf, off, 1)
        player = buf[off]
        off += 1
        lists = []
        for _ in range(5):
            need(buf, off, 1)
            lst, off = _read_records(CardInfo, buf, off + 1, buf[off])
            lists.append(lst)
        need(buf, off, 1)
        activatable, off = _read_records(EffectOption, buf, off + 1, buf[off])
        bp, ep, sh = _IDLE_FLAGS.unpack_from(buf, off)
        return (
            cls(
                player=player,
                summonable=lists[0],
                special_summonable=lists[1],
                repositionable=lists[2],
                monster_settable=lists[3],
                spell_settable=lists[4],
                activatable=activatable,
                can_battle_phase=bp,
                can_end_phase=ep,
                can_shuffle=sh,
            ),
            off + 3,
        )

    def describe(self, name_of: NameOf = None) -> str:
        names = ("summon", "spsummon", "repos", "mset", "sset")
        parts = []
        for label, lst in zip(names, self.card_lists):
            if lst:
                parts.append(f"{label} [{', '.join(c.describe(name_of) for c in lst)}]")
        if self.activatable:
            parts.append(f"activate [{'; '.join(e.describe(name_of) for e in self.activatable)}]")
        flags = "".join(
            (" BP" if self.can_battle_phase else "", " EP" if self.can_end_phase else "", " shuffle" if self.can_shuffle else "")
        )
        return f"SELECT_IDLECMD P{self.player} {' '.join(parts)}{flags}".rstrip()


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectEffectYn(Prompt):
    """Ask whether to use the effect of the card ``code`` at ``loc``."""

    code: int
    loc: LocInfo
    description: int
    ID: ClassVar[int] = MSG_SELECT_EFFECTYN
    NAME: ClassVar[str] = "SELECT_EFFECTYN"
    _LAYOUT: ClassVar = (("player", "B"), ("code", "I"), ("loc", "loc"), ("description", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        return f"SELECT_EFFECTYN P{self.player} {_card(self.code, name_of)} at {self.loc.describe()} desc {self.description}"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectYesNo(Prompt):
    description: int
    ID: ClassVar[int] = MSG_SELECT_YESNO
    NAME: ClassVar[str] = "SELECT_YESNO"
    _LAYOUT: ClassVar = (("player", "B"), ("description", "I"))

    def describe(self, name_of: NameOf = None) -> str:
        return f"SELECT_YESNO P{self.player} desc {self.description}"


class _PlayerOptions(Prompt):
    """player u8, count u8, count x u32."""

    __slots__ = ()

    def encode(self) -> bytes:
        opts = self.options  # type: ignore[attr-defined]
        return _HDR_BB.pack(self.ID, self.player, _u8_count(opts, self.NAME)) + _pack_u32s(opts)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, count = buf[off], buf[off + 1]
        options, off = _read_u32s(buf, off + 2, count)
        return cls(player=player, options=options), off  # type: ignore[call-arg]

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} P{self.player} {list(self.options)}"  # type: ignore[attr-defined]


# _PlayerOptions has no fields of its own but derives from the Prompt dataclass;
# subclasses declare ``options``.


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectOption(_PlayerOptions):
    """Choose one of ``options`` (string ids); the answer is the index."""

    options: tuple[int, ...]
    ID: ClassVar[int] = MSG_SELECT_OPTION
    NAME: ClassVar[str] = "SELECT_OPTION"


_SEL_HDR = Struct("<BBBBBB")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectCard(Prompt):
    """Choose between ``min`` and ``max`` of ``cards`` (or cancel if ``cancelable``)."""

    cancelable: int
    min: int
    max: int
    cards: tuple[SelectableCard, ...]
    ID: ClassVar[int] = MSG_SELECT_CARD
    NAME: ClassVar[str] = "SELECT_CARD"

    def encode(self) -> bytes:
        return _SEL_HDR.pack(
            self.ID, self.player, self.cancelable, self.min, self.max, _u8_count(self.cards, self.NAME)
        ) + _pack_records(self.cards)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        _, player, cancelable, mn, mx, count = _SEL_HDR.unpack_from(buf, off - 1)
        cards, off = _read_records(SelectableCard, buf, off + 5, count)
        return cls(player=player, cancelable=cancelable, min=mn, max=mx, cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        cancel = " cancelable" if self.cancelable else ""
        cards = ", ".join(c.describe(name_of) for c in self.cards)
        return f"SELECT_CARD P{self.player} {self.min}-{self.max}{cancel} [{cards}]"


_UNSEL_HDR = Struct("<BBBBBB")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectUnselectCard(Prompt):
    """Pick one card at a time: ``selectable`` cards can be added, ``unselectable``
    (already chosen) ones removed; ``finishable`` lets the player stop now.
    Note the order on the wire: finishable before cancelable."""

    finishable: int
    cancelable: int
    min: int
    max: int
    selectable: tuple[SelectableCard, ...]
    unselectable: tuple[SelectableCard, ...]
    ID: ClassVar[int] = MSG_SELECT_UNSELECT_CARD
    NAME: ClassVar[str] = "SELECT_UNSELECT_CARD"

    def encode(self) -> bytes:
        return b"".join(
            (
                _UNSEL_HDR.pack(
                    self.ID,
                    self.player,
                    self.finishable,
                    self.cancelable,
                    self.min,
                    self.max,
                ),
                U8.pack(_u8_count(self.selectable, self.NAME)),
                _pack_records(self.selectable),
                U8.pack(_u8_count(self.unselectable, self.NAME)),
                _pack_records(self.unselectable),
            )
        )

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        _, player, finishable, cancelable, mn, mx = _UNSEL_HDR.unpack_from(buf, off - 1)
        off += 5
        need(buf, off, 1)
        selectable, off = _read_records(SelectableCard, buf, off + 1, buf[off])
        need(buf, off, 1)
        unselectable, off = _read_records(SelectableCard, buf, off + 1, buf[off])
        return (
            cls(
                player=player,
                finishable=finishable,
                cancelable=cancelable,
                min=mn,
                max=mx,
                selectable=selectable,
                unselectable=unselectable,
            ),
            off,
        )

    def describe(self, name_of: NameOf = None) -> str:
        flags = "".join((" finishable" if self.finishable else "", " cancelable" if self.cancelable else ""))
        sel = ", ".join(c.describe(name_of) for c in self.selectable)
        unsel = ", ".join(c.describe(name_of) for c in self.unselectable)
        return f"SELECT_UNSELECT_CARD P{self.player} {self.min}-{self.max}{flags} select [{sel}] unselect [{unsel}]"


_CHAIN_HDR = Struct("<BBBBII")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectChain(Prompt):
    """Offer effects to chain (or pass, unless one is forced). ``special_count``
    is the processor's count of special (forced/trigger) options; the two hint
    timings are the player's own and the opponent's."""

    special_count: int
    hint_timing: int
    other_hint_timing: int
    chains: tuple[ChainOption, ...]
    ID: ClassVar[int] = MSG_SELECT_CHAIN
    NAME: ClassVar[str] = "SELECT_CHAIN"

    @property
    def has_forced(self) -> bool:
        return any(c.forced for c in self.chains)

    def encode(self) -> bytes:
        return _CHAIN_HDR.pack(
            self.ID,
            self.player,
            _u8_count(self.chains, self.NAME),
            self.special_count,
            self.hint_timing,
            self.other_hint_timing,
        ) + _pack_records(self.chains)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        _, player, count, spe, ht, oht = _CHAIN_HDR.unpack_from(buf, off - 1)
        chains, off = _read_records(ChainOption, buf, off + _CHAIN_HDR.size - 1, count)
        return (
            cls(player=player, special_count=spe, hint_timing=ht, other_hint_timing=oht, chains=chains),
            off,
        )

    def describe(self, name_of: NameOf = None) -> str:
        chains = "; ".join(c.describe(name_of) for c in self.chains)
        return f"SELECT_CHAIN P{self.player} [{chains}] timing {self.hint_timing:#x}/{self.other_hint_timing:#x}"


class _PlaceBase(Prompt):
    __slots__ = ()

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} P{self.player} count {self.count} blocked {self.flag:#010x}"  # type: ignore[attr-defined]


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectPlace(_PlaceBase):
    """Choose ``count`` zones. ``flag`` has a bit set for every zone that may
    NOT be chosen, seen from ``player``: bits 0-6 own Monster Zones, 8-15 own
    Spell & Trap Zones, 16-22 and 24-31 the opponent's."""

    count: int
    flag: int
    exact: PlaceLimits | None = field(default=None, compare=False, repr=False)
    ID: ClassVar[int] = MSG_SELECT_PLACE
    NAME: ClassVar[str] = "SELECT_PLACE"
    _LAYOUT: ClassVar = (("player", "B"), ("count", "B"), ("flag", "I"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectDisfield(_PlaceBase):
    """Same layout and answer as SELECT_PLACE (choosing zones to disable)."""

    count: int
    flag: int
    exact: PlaceLimits | None = field(default=None, compare=False, repr=False)
    ID: ClassVar[int] = MSG_SELECT_DISFIELD
    NAME: ClassVar[str] = "SELECT_DISFIELD"
    _LAYOUT: ClassVar = (("player", "B"), ("count", "B"), ("flag", "I"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectPosition(Prompt):
    """Choose one position among the POS_* bits of ``positions``."""

    code: int
    positions: int
    ID: ClassVar[int] = MSG_SELECT_POSITION
    NAME: ClassVar[str] = "SELECT_POSITION"
    _LAYOUT: ClassVar = (("player", "B"), ("code", "I"), ("positions", "B"))

    def describe(self, name_of: NameOf = None) -> str:
        allowed = ", ".join(_pos_name(b) for b in (1, 2, 4, 8) if self.positions & b)
        return f"SELECT_POSITION P{self.player} {_card(self.code, name_of)} [{allowed}]"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectTribute(Prompt):
    """Choose tributes worth at least ``min`` (each card counts ``release_param``),
    at most ``max`` cards."""

    cancelable: int
    min: int
    max: int
    cards: tuple[TributeCard, ...]
    ID: ClassVar[int] = MSG_SELECT_TRIBUTE
    NAME: ClassVar[str] = "SELECT_TRIBUTE"

    def encode(self) -> bytes:
        return _SEL_HDR.pack(
            self.ID, self.player, self.cancelable, self.min, self.max, _u8_count(self.cards, self.NAME)
        ) + _pack_records(self.cards)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        _, player, cancelable, mn, mx, count = _SEL_HDR.unpack_from(buf, off - 1)
        cards, off = _read_records(TributeCard, buf, off + 5, count)
        return cls(player=player, cancelable=cancelable, min=mn, max=mx, cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        cancel = " cancelable" if self.cancelable else ""
        cards = ", ".join(c.describe(name_of) for c in self.cards)
        return f"SELECT_TRIBUTE P{self.player} {self.min}-{self.max}{cancel} [{cards}]"


_COUNTER_HDR = Struct("<BBHHB")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectCounter(Prompt):
    """Remove exactly ``count`` counters of ``counter_type`` spread over ``cards``."""

    counter_type: int
    count: int
    cards: tuple[CounterCard, ...]
    exact: CounterLimits | None = field(default=None, compare=False, repr=False)
    ID: ClassVar[int] = MSG_SELECT_COUNTER
    NAME: ClassVar[str] = "SELECT_COUNTER"

    def encode(self) -> bytes:
        return _COUNTER_HDR.pack(
            self.ID, self.player, self.counter_type, self.count, _u8_count(self.cards, self.NAME)
        ) + _pack_records(self.cards)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        _, player, ctype, count, n = _COUNTER_HDR.unpack_from(buf, off - 1)
        cards, off = _read_records(CounterCard, buf, off + _COUNTER_HDR.size - 1, n)
        return cls(player=player, counter_type=ctype, count=count, cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        cards = ", ".join(c.describe(name_of) for c in self.cards)
        return f"SELECT_COUNTER P{self.player} remove {self.count} x {self.counter_type:#x} from [{cards}]"


_SUM_HDR = Struct("<BBBIBBB")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSelectSum(Prompt):
    """Choose cards whose values add up to ``target``.

    ``mode`` 0: the sum must be exactly ``target``, with between ``min`` and
    ``max`` cards besides ``must_cards``. ``mode`` 1: the sum must reach
    ``target`` and no card may be left out without falling short (min/max not
    used). ``must_cards`` are always part of the selection. Unlike every other
    prompt, the first body byte is the mode and the player comes second."""

    mode: int
    target: int
    min: int
    max: int
    must_cards: tuple[SumCard, ...]
    cards: tuple[SumCard, ...]
    exact: SumLimits | None = field(default=None, compare=False, repr=False)
    ID: ClassVar[int] = MSG_SELECT_SUM
    NAME: ClassVar[str] = "SELECT_SUM"

    def card_count_range(self) -> tuple[int, int]:
        """How many cards besides ``must_cards`` an exact-sum answer may choose.

        The reference writes ``min`` and ``max`` as single bytes after raising ``max``
        to ``min``, but checks the answer against the untruncated numbers; a ``min``
        byte above the ``max`` byte is therefore a negative ``min`` (a script's
        ``SelectWithSumEqual(tp, f, sum, min - #must, max)``), which allows any count
        from none up to ``max``.
        """
        lo = self.min - 0x100 if self.min > self.max else self.min
        return max(lo, 0), self.max

    def encode(self) -> bytes:
        return b"".join(
            (
                _SUM_HDR.pack(
                    self.ID,
                    self.mode,
                    self.player,
                    self.target,
                    self.min,
                    self.max,
                    _u8_count(self.must_cards, self.NAME),
                ),
                _pack_records(self.must_cards),
                U8.pack(_u8_count(self.cards, self.NAME)),
                _pack_records(self.cards),
            )
        )

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        _, mode, player, target, mn, mx, mcount = _SUM_HDR.unpack_from(buf, off - 1)
        must, off = _read_records(SumCard, buf, off + _SUM_HDR.size - 1, mcount)
        need(buf, off, 1)
        cards, off = _read_records(SumCard, buf, off + 1, buf[off])
        return cls(player=player, mode=mode, target=target, min=mn, max=mx, must_cards=must, cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        how = f"= {self.target} with {self.min}-{self.max}" if self.mode == 0 else f">= {self.target}"
        must = ", ".join(c.describe(name_of) for c in self.must_cards)
        cards = ", ".join(c.describe(name_of) for c in self.cards)
        return f"SELECT_SUM P{self.player} {how} must [{must}] from [{cards}]"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgSortCard(Prompt):
    """Put ``cards`` in an order (or keep the default)."""

    cards: tuple[CardInfo, ...]
    ID: ClassVar[int] = MSG_SORT_CARD
    NAME: ClassVar[str] = "SORT_CARD"

    def encode(self) -> bytes:
        return _HDR_BB.pack(self.ID, self.player, _u8_count(self.cards, self.NAME)) + _pack_records(self.cards)

    @classmethod
    def _read(cls, buf: bytes, off: int) -> tuple[Message, int]:
        player, count = buf[off], buf[off + 1]
        cards, off = _read_records(CardInfo, buf, off + 2, count)
        return cls(player=player, cards=cards), off

    def describe(self, name_of: NameOf = None) -> str:
        return f"SORT_CARD P{self.player} [{', '.join(c.describe(name_of) for c in self.cards)}]"


class _AnnounceMask(Prompt):
    __slots__ = ()

    def describe(self, name_of: NameOf = None) -> str:
        return f"{self.NAME} P{self.player} choose {self.count} of {self.available:#x}"  # type: ignore[attr-defined]


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAnnounceRace(_AnnounceMask):
    """Declare exactly ``count`` races among the ``available`` mask."""

    count: int
    available: int
    ID: ClassVar[int] = MSG_ANNOUNCE_RACE
    NAME: ClassVar[str] = "ANNOUNCE_RACE"
    _LAYOUT: ClassVar = (("player", "B"), ("count", "B"), ("available", "I"))


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAnnounceAttrib(_AnnounceMask):
    """Declare exactly ``count`` attributes among the ``available`` mask."""

    count: int
    available: int
    ID: ClassVar[int] = MSG_ANNOUNCE_ATTRIB
    NAME: ClassVar[str] = "ANNOUNCE_ATTRIB"
    _LAYOUT: ClassVar = (("player", "B"), ("count", "B"), ("available", "I"))


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAnnounceCard(_PlayerOptions):
    """Declare a card name; ``options`` is a postfix filter program (OPCODE_*
    values and operands) that the declared card must satisfy."""

    options: tuple[int, ...]
    ID: ClassVar[int] = MSG_ANNOUNCE_CARD
    NAME: ClassVar[str] = "ANNOUNCE_CARD"


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgAnnounceNumber(_PlayerOptions):
    """Declare one of ``options``; the answer is the index."""

    options: tuple[int, ...]
    ID: ClassVar[int] = MSG_ANNOUNCE_NUMBER
    NAME: ClassVar[str] = "ANNOUNCE_NUMBER"


@_fixed
@dataclass(frozen=True, slots=True, kw_only=True)
class MsgRockPaperScissors(Prompt):
    """Choose a hand: 1 scissors, 2 rock, 3 paper (player 0 is asked, then player 1)."""

    ID: ClassVar[int] = MSG_ROCK_PAPER_SCISSORS
    NAME: ClassVar[str] = "ROCK_PAPER_SCISSORS"
    _LAYOUT: ClassVar = (("player", "B"),)

    def describe(self, name_of: NameOf = None) -> str:
        return f"ROCK_PAPER_SCISSORS P{self.player}"


# ---------------------------------------------------------------------------
# Stream functions
# ---------------------------------------------------------------------------
def decode_message(data: bytes, offset: int = 0) -> tuple[Message, int]:
    """Decode the message starting at ``offset``; return it and the offset after it."""
    try:
        msg_type = data[offset]
    except IndexError:
        raise MessageDecodeError("stream ends where a message should start", offset=offset, msg_type=None) from None
    reader = _READERS[msg_type]
    if reader is None:
        if msg_type == MSG_CUSTOM_MSG:
            reason = "MSG_CUSTOM_MSG (180) has no layout: the reference never writes it"
        else:
            reason = f"unknown message type {msg_type}"
        raise MessageDecodeError(reason, offset=offset, msg_type=msg_type)
    try:
        return reader(data, offset + 1)
    except (StructError, IndexError) as exc:
        raise MessageDecodeError(f"truncated body: {exc}", offset=offset, msg_type=msg_type) from None
    except ValueError as exc:
        raise MessageDecodeError(f"bad body: {exc}", offset=offset, msg_type=msg_type) from None


def decode_messages(data: bytes | bytearray | memoryview) -> list[Message]:
    """Split a raw message stream (as ``get_message`` returns it) into messages.

    Raises ``MessageDecodeError`` (with the offset and type) on an unknown type
    byte or a body that runs past the end of the data."""
    buf = bytes(data)
    end = len(buf)
    out: list[Message] = []
    append = out.append
    readers = _READERS
    off = 0
    while off < end:
        msg_type = buf[off]
        reader = readers[msg_type]
        if reader is None:
            decode_message(buf, off)  # raises with the right reason
        try:
            msg, off = reader(buf, off + 1)  # type: ignore[misc]
        except (StructError, IndexError, ValueError):
            decode_message(buf, off)  # re-read to raise with the offset and type
            raise  # pragma: no cover
        append(msg)
    return out


def encode_messages(msgs: Iterable[Message]) -> bytes:
    """Concatenate the encodings (the stream the reference would write)."""
    return b"".join([m.encode() for m in msgs])
