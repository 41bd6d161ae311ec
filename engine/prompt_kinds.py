"""One object per prompt kind: everything the core and a host know about answering it.

The twenty prompt messages (engine/messages.py, ``Prompt``) are answered through
the core's 256-byte response area.  What an answer to one kind looks like, how it
is read back and checked, which answers exist and how to draw one at random are
facts about that kind, and they live in one object here, a ``PromptKind``
registered for its message class (``kind_of(prompt)``, ``KINDS``):

``encode`` / ``send_kind``
    the bytes of a typed answer and whether a host sends them with
    ``set_responsei`` ("i", one int32) or ``set_responseb`` ("b", raw bytes);
``read``
    the answer read from a response area the way the reference reads it, with the
    reference's checks: ``InvalidResponse`` (with the rule broken) exactly when the
    reference writes MSG_RETRY.  The engine's prompt units (engine/processor/
    prompts.py) check every answer with this same method, so the host's ``respond``
    and the engine cannot disagree about what is legal;
``refusal``
    the same check as a reason string, or None when the answer is accepted;
``legal`` (where ``FEW``) / ``iter_legal``
    every accepted answer: as a list where the set is small, else one by one in a
    documented order (duelhost/legal.py);
``random``
    a random accepted answer (random players, ``duelhost diff --seeds``);
``what`` / ``describe``
    the choice in words for a person ("choose 1 to 2 card(s), or cancel"), naming
    cards, texts and counters through a ``PromptWords``.

A few prompts stand for numbers that the message truncates (SELECT_SUM's ``min``
/ ``max`` / target, SELECT_COUNTER's count and counter counts, SELECT_PLACE's zone
count): the reference checks against the untruncated numbers.  A prompt the engine
makes carries them as ``exact`` (``SumLimits``, ``CounterLimits``, ``PlaceLimits``;
not on the wire, not compared), so a host answering our engine checks exactly as
the engine does; a prompt decoded from bytes has none and is checked against what
the message holds, which is the same for every value the message can hold.
"""

from __future__ import annotations

import itertools
import random as _random
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generic, Iterable, Iterator, Literal, Protocol, Sequence, TypeVar

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
from .messages import (  # noqa: F401  (SumLimits, CounterLimits, PlaceLimits re-exported)
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
    CounterLimits,
    NameOf,
    PlaceLimits,
    Prompt,
    SumLimits,
    sum_params,
)
from .wire import I32, U16, U32

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


class NoValidResponse(ValueError):
    """The prompt admits no answer the reference would accept."""


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
# Shared helpers
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


def _bytes(values: Sequence[int], what: str) -> bytes:
    try:
        return bytes(values)
    except ValueError:
        raise ValueError(f"{what}: every value must fit in a byte, got {list(values)}") from None


def _area(raw: bytes) -> bytes:
    raw = bytes(raw)
    if len(raw) == RESPONSE_SIZE:
        return raw
    if len(raw) > RESPONSE_SIZE:
        raise InvalidResponse(f"a response has at most {RESPONSE_SIZE} bytes, got {len(raw)}")
    return raw + bytes(RESPONSE_SIZE - len(raw))


def _ivalue(area: bytes) -> int:
    return int(I32.unpack_from(area, 0)[0])


def _s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - 0x100000000 if v & 0x80000000 else v


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


class _Budget:
    """How many candidate answers ``iter_legal`` may still examine (None: no limit)."""

    def __init__(self, n: int | None) -> None:
        self.left = n

    def spend(self) -> bool:
        if self.left is None:
            return True
        self.left -= 1
        return self.left >= 0


def _subsets(n: int, lo: int, hi: int) -> Iterator[tuple[int, ...]]:
    for k in range(max(lo, 0), min(hi, n) + 1):
        yield from itertools.combinations(range(n), k)


class PromptWords:
    """How ``PromptKind.what`` names what a prompt leaves to the message: card names,
    effect texts, counter names, and the state around the prompt (the phase, the chain
    so far).  This plain one knows only ``name_of`` (code -> name); a host with a duel
    at hand subclasses it (duelhost/testing/questions.py)."""

    def __init__(self, name_of: NameOf = None) -> None:
        self.name_of = name_of

    def card(self, code: int) -> str:
        code &= 0x7FFFFFFF
        name = self.name_of(code) if self.name_of is not None else None
        return f"{name} ({code})" if name else f"card {code}"

    def text(self, description: int) -> str:
        return f"text {description}" if description else ""

    def counters(self, counter_type: int, count: int) -> str:
        return f"{count} counter(s) of type {counter_type:#x}"

    def phase(self) -> str:
        return "Main Phase"

    def chain_size(self) -> int | None:
        """Links on the chain now (None: not known)."""
        return None


P = TypeVar("P", bound=Prompt)
R = TypeVar("R", bound=Response)


# ---------------------------------------------------------------------------
# The kind object
# ---------------------------------------------------------------------------
class PromptKind(Generic[P, R]):
    """What one prompt kind means (see the module docstring).

    ``name`` is the kind's short name ("card", "sum", "place", ...), ``prompt_type``
    its message class, ``response_type`` the class of its answers.  ``FEW``: the
    accepted answers are few enough for ``legal`` to list them all."""

    FEW: ClassVar[bool] = False
    response_type: ClassVar[type[Response]] = Response

    def __init__(self, name: str, prompt_type: type[P]) -> None:
        self.name = name
        self.prompt_type = prompt_type

    def __repr__(self) -> str:
        return f"<PromptKind {self.name} ({self.prompt_type.NAME})>"

    # ----- the answer's layout ----------------------------------------------------------

    def _check_type(self, response: Response) -> R:
        if not isinstance(response, self.response_type):
            raise TypeError(f"{self.prompt_type.__name__} is answered by {self.response_type.__name__}, "
                            f"not {type(response).__name__}")
        return response  # type: ignore[return-value]

    def encode(self, prompt: P, response: Response) -> bytes:
        """The bytes a host sends for ``response`` (4 for an int answer; raw bytes
        without the zero padding up to 256 otherwise).  TypeError for an answer of
        another kind, ValueError for a value the layout cannot hold."""
        return self._encode(prompt, self._check_type(response))

    def _encode(self, prompt: P, response: R) -> bytes:
        raise NotImplementedError

    def send_kind(self, prompt: P, response: Response) -> Literal["i", "b"]:
        """"i" when a host sends ``response`` with ``set_responsei``, "b" for ``set_responseb``."""
        return self._send_kind(self._check_type(response))

    def _send_kind(self, response: R) -> Literal["i", "b"]:
        return "i"

    # ----- reading and checking -----------------------------------------------------------

    def read(self, prompt: P, raw: bytes, *, card_lookup: CardLookup | None = None) -> R:
        """``raw`` (the response area; shorter input is zero-padded to 256 bytes) read
        as the reference reads it for this kind, with the same checks: raises
        ``InvalidResponse`` exactly when the reference writes MSG_RETRY.

        ``card_lookup`` (code -> card record or None) is ANNOUNCE_CARD's database."""
        return self._read(prompt, _area(raw), card_lookup)

    def _read(self, p: P, area: bytes, card_lookup: CardLookup | None) -> R:
        raise NotImplementedError

    def refusal(self, prompt: P, raw: bytes, *, card_lookup: CardLookup | None = None) -> str | None:
        """Why the reference refuses ``raw`` (MSG_RETRY), or None when it accepts it."""
        try:
            self._read(prompt, _area(raw), card_lookup)
        except InvalidResponse as exc:
            return exc.reason
        return None

    def validate(self, prompt: P, response: Response, *, card_lookup: CardLookup | None = None) -> None:
        """Raise ``InvalidResponse`` if the reference would refuse ``response``."""
        try:
            data = self.encode(prompt, response)
        except ValueError as exc:
            raise InvalidResponse(f"{prompt.NAME}: cannot be encoded: {exc}") from None
        if len(data) > RESPONSE_SIZE:
            raise InvalidResponse(f"{prompt.NAME}: {len(data)} bytes do not fit the response area")
        parsed = self.read(prompt, data, card_lookup=card_lookup)
        if parsed != response:
            # e.g. an index above 0xffff in an IdleCmdResponse, or SumResponse
            # encodings that read back differently
            raise InvalidResponse(f"{prompt.NAME}: {response!r} reads back as {parsed!r}")

    # ----- legal and random answers -------------------------------------------------------

    def legal(self, prompt: P) -> list[R]:
        """Every accepted answer, for the kinds whose answers are few (``FEW``)."""
        raise ValueError(f"{prompt.NAME}: the set of answers is not listed; use random_response")

    def iter_legal(self, prompt: P, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[R]:
        """Every accepted answer, one by one, in this kind's documented order
        (duelhost/legal.py); ``budget``: examine at most that many candidates;
        ``cards``: ANNOUNCE_CARD's nameable cards."""
        yield from self.legal(prompt)

    def _accepted(self, prompt: P, candidates: Iterable[R], budget: _Budget) -> Iterator[R]:
        for r in candidates:
            if not budget.spend():
                return
            try:
                self.validate(prompt, r)
            except InvalidResponse:
                continue
            yield r

    def random(self, prompt: P, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> R:
        """A random answer the reference accepts (``read`` accepts it)."""
        options = self.legal(prompt)
        if not options:
            raise NoValidResponse(f"{prompt.NAME}: no answer is accepted")
        return rng.choice(options)

    # ----- words --------------------------------------------------------------------------

    def describe(self, prompt: P, words: PromptWords | None = None) -> str:
        """One sentence for a person: who must choose what."""
        return f"Player {prompt.player} must {self.what(prompt, words)}."

    def what(self, prompt: P, words: PromptWords | None = None) -> str:
        """What kind of choice, in words ("choose 1 to 2 card(s), or cancel")."""
        return self._what(prompt, words if words is not None else PromptWords())

    def _what(self, p: P, w: PromptWords) -> str:
        raise NotImplementedError


def _choose_cards(p: Any, what: str) -> str:
    count = f"{p.min}" if p.min == p.max else f"{p.min} to {p.max}"
    cancel = ", or cancel" if p.cancelable else ""
    return f"choose {count} {what}{cancel}"


# ----- commands --------------------------------------------------------------------------

_IDLE_NAMES = ("summon", "special summon", "reposition", "monster set", "spell/trap set", "activate")


class IdleCmdKind(PromptKind[MsgSelectIdleCmd, IdleCmdResponse]):
    FEW = True
    response_type = IdleCmdResponse

    def _encode(self, prompt: MsgSelectIdleCmd, r: IdleCmdResponse) -> bytes:
        if not (0 <= r.command <= 0xFFFF and 0 <= r.index <= 0xFFFF):
            # masked, command 0x10007 would be another answer (the End Phase)
            raise ValueError(f"command and index must fit in 16 bits each, got {r.command}, {r.index}")
        return int_response((r.index << 16) | r.command)

    def _read(self, p: MsgSelectIdleCmd, area: bytes, card_lookup: CardLookup | None) -> IdleCmdResponse:
        v = _ivalue(area) & 0xFFFFFFFF
        t, s = v & 0xFFFF, v >> 16
        if t > 8:
            raise InvalidResponse(f"IDLECMD: command {t} does not exist (0-8)")
        if t <= 5:
            lst = p.card_lists[t] if t < 5 else p.activatable
            if s >= len(lst):
                raise InvalidResponse(f"IDLECMD: {_IDLE_NAMES[t]} index {s} out of range ({len(lst)} entries)")
        elif t == 6 and not p.can_battle_phase:
            raise InvalidResponse("IDLECMD: going to the Battle Phase is not allowed now")
        elif t == 7 and not p.can_end_phase:
            raise InvalidResponse("IDLECMD: going to the End Phase is not allowed now")
        elif t == 8 and not p.can_shuffle:
            raise InvalidResponse("IDLECMD: shuffling the hand is not allowed now")
        return IdleCmdResponse(command=t, index=s)

    def legal(self, p: MsgSelectIdleCmd) -> list[IdleCmdResponse]:
        """Commands that take no index are listed once, with index 0."""
        out: list[IdleCmdResponse] = []
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

    def _what(self, p: MsgSelectIdleCmd, w: PromptWords) -> str:
        return f"choose what to do in the {w.phase()} (the Main Phase menu)"


class BattleCmdKind(PromptKind[MsgSelectBattleCmd, BattleCmdResponse]):
    FEW = True
    response_type = BattleCmdResponse

    def _encode(self, prompt: MsgSelectBattleCmd, r: BattleCmdResponse) -> bytes:
        if not (0 <= r.command <= 0xFFFF and 0 <= r.index <= 0xFFFF):
            raise ValueError(f"command and index must fit in 16 bits each, got {r.command}, {r.index}")
        return int_response((r.index << 16) | r.command)

    def _read(self, p: MsgSelectBattleCmd, area: bytes, card_lookup: CardLookup | None) -> BattleCmdResponse:
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

    def legal(self, p: MsgSelectBattleCmd) -> list[BattleCmdResponse]:
        out = [BattleCmdResponse(command=BATTLE_ACTIVATE, index=i) for i in range(len(p.activatable))]
        out.extend(BattleCmdResponse(command=BATTLE_ATTACK, index=i) for i in range(len(p.attackable)))
        if p.can_main2:
            out.append(BattleCmdResponse(command=BATTLE_MAIN2))
        if p.can_end_phase:
            out.append(BattleCmdResponse(command=BATTLE_END_PHASE))
        return out

    def _what(self, p: MsgSelectBattleCmd, w: PromptWords) -> str:
        return "choose what to do in the Battle Phase (the Battle Phase menu)"


class ChainKind(PromptKind[MsgSelectChain, ChainResponse]):
    FEW = True
    response_type = ChainResponse

    def _encode(self, prompt: MsgSelectChain, r: ChainResponse) -> bytes:
        return int_response(-1 if r.index is None else r.index)

    def _read(self, p: MsgSelectChain, area: bytes, card_lookup: CardLookup | None) -> ChainResponse:
        v = _ivalue(area)
        if v == -1:
            if p.has_forced:
                raise InvalidResponse("CHAIN: cannot pass, an effect must be chained")
            return ChainResponse(index=None)
        if v < 0 or v >= len(p.chains):
            raise InvalidResponse(f"CHAIN: index {v} out of range ({len(p.chains)} effects; -1 passes)")
        return ChainResponse(index=v)

    def legal(self, p: MsgSelectChain) -> list[ChainResponse]:
        out = [] if p.has_forced else [ChainResponse(index=None)]
        out.extend(ChainResponse(index=i) for i in range(len(p.chains)))
        return out

    def _what(self, p: MsgSelectChain, w: PromptWords) -> str:
        if p.has_forced:
            return "choose which mandatory effect to put on the chain"
        n = w.chain_size()
        at = "" if n is None else f" (chain link {n + 1})" if n else " (a new chain)"
        return f"chain an effect{at} or pass"


# ----- yes/no, options, positions, numbers -------------------------------------------------

class YesNoKind(PromptKind[Any, YesNoResponse]):
    """SELECT_YESNO (and, with another sentence, SELECT_EFFECTYN): 1 or 0."""

    FEW = True
    response_type = YesNoResponse

    def _encode(self, prompt: Any, r: YesNoResponse) -> bytes:
        return int_response(1 if r.yes else 0)

    def _read(self, p: Any, area: bytes, card_lookup: CardLookup | None) -> YesNoResponse:
        v = _ivalue(area)
        if v not in (0, 1):
            raise InvalidResponse(f"{p.NAME}: answer must be 0 or 1, got {v}")
        return YesNoResponse(yes=v == 1)

    def legal(self, p: Any) -> list[YesNoResponse]:
        return [YesNoResponse(yes=False), YesNoResponse(yes=True)]

    def _what(self, p: MsgSelectYesNo, w: PromptWords) -> str:
        return f"answer yes or no: {w.text(p.description) or 'no text'}"


class EffectYnKind(YesNoKind):
    def _what(self, p: MsgSelectEffectYn, w: PromptWords) -> str:
        return f"decide whether to use the effect of {w.card(p.code)} (yes/no)"


class _IndexKind(PromptKind[Any, Any]):
    """SELECT_OPTION and ANNOUNCE_NUMBER: an index into ``options``."""

    FEW = True
    _label: ClassVar[str] = ""

    def _encode(self, prompt: Any, r: Any) -> bytes:
        return int_response(r.index)

    def _read(self, p: Any, area: bytes, card_lookup: CardLookup | None) -> Any:
        v = _ivalue(area)
        if v < 0 or v >= len(p.options):
            raise InvalidResponse(f"{self._label}: index {v} out of range ({len(p.options)} options)")
        return self.response_type(index=v)  # type: ignore[call-arg]

    def legal(self, p: Any) -> list[Any]:
        return [self.response_type(index=i) for i in range(len(p.options))]  # type: ignore[call-arg]


class OptionKind(_IndexKind):
    response_type = OptionResponse
    _label = "OPTION"

    def _what(self, p: MsgSelectOption, w: PromptWords) -> str:
        return f"choose 1 of {len(p.options)} options"


class NumberKind(_IndexKind):
    response_type = AnnounceNumberResponse
    _label = "ANNOUNCE_NUMBER"

    def _what(self, p: MsgAnnounceNumber, w: PromptWords) -> str:
        return "declare a number"


_POSITIONS = (1, 2, 4, 8)


class PositionKind(PromptKind[MsgSelectPosition, PositionResponse]):
    FEW = True
    response_type = PositionResponse

    def _encode(self, prompt: MsgSelectPosition, r: PositionResponse) -> bytes:
        return int_response(r.position)

    def _read(self, p: MsgSelectPosition, area: bytes, card_lookup: CardLookup | None) -> PositionResponse:
        pos = _ivalue(area) & 0xFFFFFFFF
        if pos not in _POSITIONS:
            raise InvalidResponse(f"POSITION: {pos:#x} is not exactly one POS_* bit")
        if not pos & p.positions:
            raise InvalidResponse(f"POSITION: {pos:#x} is not among the allowed positions {p.positions:#x}")
        return PositionResponse(position=pos)

    def legal(self, p: MsgSelectPosition) -> list[PositionResponse]:
        return [PositionResponse(position=b) for b in _POSITIONS if p.positions & b]

    def _what(self, p: MsgSelectPosition, w: PromptWords) -> str:
        return f"choose a battle position for {w.card(p.code)}"


class RpsKind(PromptKind[MsgRockPaperScissors, RpsResponse]):
    FEW = True
    response_type = RpsResponse

    def _encode(self, prompt: MsgRockPaperScissors, r: RpsResponse) -> bytes:
        return int_response(r.choice)

    def _read(self, p: MsgRockPaperScissors, area: bytes, card_lookup: CardLookup | None) -> RpsResponse:
        return RpsResponse(choice=_ivalue(area))  # the reference does not check it

    def legal(self, p: MsgRockPaperScissors) -> list[RpsResponse]:
        return [RpsResponse(choice=c) for c in (1, 2, 3)]

    def _what(self, p: MsgRockPaperScissors, w: PromptWords) -> str:
        return "choose rock, paper or scissors"


# ----- cards ------------------------------------------------------------------------------

class _CardsKind(PromptKind[Any, CardsResponse]):
    """SELECT_CARD and SELECT_TRIBUTE: a count byte and the indexes, or -1 to cancel."""

    response_type = CardsResponse

    def _encode(self, prompt: Any, r: CardsResponse) -> bytes:
        if r.indices is None:
            return int_response(-1)
        return _bytes((len(r.indices), *r.indices), "card indexes")

    def _send_kind(self, r: CardsResponse) -> Literal["i", "b"]:
        return "i" if r.indices is None else "b"


class SelectCardKind(_CardsKind):

    def _read(self, p: MsgSelectCard, area: bytes, card_lookup: CardLookup | None) -> CardsResponse:
        if _ivalue(area) == -1:
            if p.cancelable:
                return CardsResponse(indices=None)
            raise InvalidResponse("SELECT_CARD: cannot cancel this selection")
        return CardsResponse(indices=_check_indices(area, len(p.cards), p.min, p.max, "SELECT_CARD"))

    def iter_legal(self, p: MsgSelectCard, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[CardsResponse]:
        """Cancel first (when cancelable), then the index sets of ``min`` .. ``max``
        cards, smaller sets first, each in ascending index order."""
        if p.cancelable:
            yield CardsResponse(indices=None)
        yield from self._accepted(p, (CardsResponse(indices=s) for s in _subsets(len(p.cards), p.min, p.max)),
                                  _Budget(budget))

    def random(self, p: MsgSelectCard, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> CardsResponse:
        if p.cancelable and rng.random() < 0.1:
            return CardsResponse(indices=None)
        n = len(p.cards)
        lo, hi = p.min, min(p.max, n)
        if lo > hi:
            if p.cancelable:
                return CardsResponse(indices=None)
            raise NoValidResponse(f"SELECT_CARD: cannot choose {p.min} of {n} cards")
        return CardsResponse(indices=tuple(rng.sample(range(n), rng.randint(lo, hi))))

    def _what(self, p: MsgSelectCard, w: PromptWords) -> str:
        return _choose_cards(p, "card(s)")


class TributeKind(_CardsKind):

    def _read(self, p: MsgSelectTribute, area: bytes, card_lookup: CardLookup | None) -> CardsResponse:
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

    def iter_legal(self, p: MsgSelectTribute, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[CardsResponse]:
        """Cancel first (when cancelable), then the index sets of 0 .. ``max`` cards
        whose tribute values reach ``min``."""
        if p.cancelable:
            yield CardsResponse(indices=None)
        yield from self._accepted(p, (CardsResponse(indices=s) for s in _subsets(len(p.cards), 0, p.max)),
                                  _Budget(budget))

    def random(self, p: MsgSelectTribute, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> CardsResponse:
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

    def _what(self, p: MsgSelectTribute, w: PromptWords) -> str:
        return _choose_cards(p, "monster(s) to Tribute")


class UnselectCardKind(PromptKind[MsgSelectUnselectCard, UnselectCardResponse]):
    FEW = True
    response_type = UnselectCardResponse

    def _encode(self, prompt: MsgSelectUnselectCard, r: UnselectCardResponse) -> bytes:
        if r.index is None:
            return int_response(-1)
        return _bytes((1, r.index), "card index")

    def _send_kind(self, r: UnselectCardResponse) -> Literal["i", "b"]:
        return "i" if r.index is None else "b"

    def _read(self, p: MsgSelectUnselectCard, area: bytes, card_lookup: CardLookup | None) -> UnselectCardResponse:
        if _ivalue(area) == -1:
            if p.cancelable or p.finishable:
                return UnselectCardResponse(index=None)
            raise InvalidResponse("SELECT_UNSELECT_CARD: cannot finish or cancel now")
        total = len(p.selectable) + len(p.unselectable)
        (idx,) = _check_indices(area, total, 1, 1, "SELECT_UNSELECT_CARD")
        return UnselectCardResponse(index=idx)

    def legal(self, p: MsgSelectUnselectCard) -> list[UnselectCardResponse]:
        out = [UnselectCardResponse(index=None)] if (p.cancelable or p.finishable) else []
        total = len(p.selectable) + len(p.unselectable)
        out.extend(UnselectCardResponse(index=i) for i in range(total))
        return out

    def _what(self, p: MsgSelectUnselectCard, w: PromptWords) -> str:
        flags = [w for w, on in (("may finish now", p.finishable), ("may cancel", p.cancelable)) if on]
        extra = f" ({', '.join(flags)})" if flags else ""
        return f"choose cards one at a time, {p.min} to {p.max} in all{extra}"


# ----- zones ------------------------------------------------------------------------------

def _zone_bit(player: int, zone_player: int, location: int, sequence: int) -> int:
    return 1 << ((sequence + (0 if zone_player == player else 16) + (0 if location == LOCATION_MZONE else 8)) & 31)


def free_zones(p: Any) -> list[Zone]:
    """The zones ``flag`` lets ``p.player`` choose: own Monster Zones, own Spell & Trap
    Zones, then the opponent's."""
    return [Zone(player=zp, location=loc, sequence=s)
            for zp in (p.player, 1 - p.player)
            for loc, seqs in ((LOCATION_MZONE, 7), (LOCATION_SZONE, 8))
            for s in range(seqs)
            if not _zone_bit(p.player, zp, loc, s) & p.flag]


class PlaceKind(PromptKind[Any, PlaceResponse]):
    """SELECT_PLACE and SELECT_DISFIELD (same layout, same answer)."""

    response_type = PlaceResponse

    def _encode(self, prompt: Any, r: PlaceResponse) -> bytes:
        out = bytearray()
        for i, z in enumerate(r.zones):
            if not isinstance(z, Zone):
                raise TypeError(f"zone {i} must be a Zone(player=, location=, sequence=), not {z!r}")
            out += _bytes((z.player, z.location, z.sequence), "zone")
        return bytes(out)

    def _send_kind(self, r: PlaceResponse) -> Literal["i", "b"]:
        return "b"

    def _read(self, p: Any, area: bytes, card_lookup: CardLookup | None) -> PlaceResponse:
        """The reference reads max(1, count) zones of 3 bytes. A zone is refused if
        the player byte is not 0/1, the location is not MZONE/SZONE, its bit is
        set in ``flag`` or it was already chosen; choosing own Extra Monster Zone
        5 (6) also takes the opponent's 6 (5). With ``count`` 0, a first zone whose
        location byte is 0 is accepted as "no zone"."""
        name = p.NAME
        count = p.count if p.exact is None else p.exact.count
        selected = 0
        zones = []
        for i in range(max(1, count)):
            pl, loc, seq = area[3 * i], area[3 * i + 1], area[3 * i + 2]
            # The reference computes 1u << shift in 32 bits; x86 uses shift mod 32.
            sel = _zone_bit(p.player, pl, loc, seq)
            if not (count == 0 and i == 0 and loc == 0):
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

    def iter_legal(self, p: Any, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[PlaceResponse]:
        """The sets of ``max(1, count)`` zones that may be chosen, in zone order; "no
        zone" when ``count`` is 0 and none is free."""
        b = _Budget(budget)
        every = [Zone(player=zp, location=loc, sequence=s)
                 for zp in (p.player, 1 - p.player)
                 for loc, n in ((LOCATION_MZONE, 7), (LOCATION_SZONE, 8))
                 for s in range(n)]
        found = False
        for combo in itertools.combinations(every, max(1, p.count)):
            if not b.spend():
                return
            r = PlaceResponse(zones=combo)
            try:
                self.validate(p, r)
            except InvalidResponse:
                continue
            found = True
            yield r
        if not found and p.count == 0:
            yield PlaceResponse(zones=(Zone(player=p.player, location=0, sequence=0),))

    def random(self, p: Any, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> PlaceResponse:
        candidates = free_zones(p)
        zones: list[Zone] = []
        selected = 0
        for _ in range(max(1, p.count)):
            free = [z for z in candidates if not _zone_bit(p.player, z.player, z.location, z.sequence) & selected]
            if not free:
                if p.count == 0:
                    return PlaceResponse(zones=(Zone(player=p.player, location=0, sequence=0),))
                raise NoValidResponse(f"{p.NAME}: not enough free zones for {p.count}")
            z = rng.choice(free)
            zones.append(z)
            sel = _zone_bit(p.player, z.player, z.location, z.sequence)
            if sel & (1 << 5):
                sel |= 1 << 22
            if sel & (1 << 6):
                sel |= 1 << 21
            selected |= sel
        return PlaceResponse(zones=tuple(zones))

    def _what(self, p: Any, w: PromptWords) -> str:
        verb = "choose" if self.name == "place" else "choose, to disable,"
        return f"{verb} {max(1, p.count)} zone(s)"


# ----- counters, sums, order --------------------------------------------------------------

def _counter_splits(caps: list[int], total: int) -> Iterator[tuple[int, ...]]:
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for first in range(min(caps[0], total) + 1):
        if total - first <= rest:
            for tail in _counter_splits(caps[1:], total - first):
                yield (first, *tail)


class CounterKind(PromptKind[MsgSelectCounter, CounterResponse]):
    response_type = CounterResponse

    def _encode(self, prompt: MsgSelectCounter, r: CounterResponse) -> bytes:
        if any(not 0 <= c <= 0xFFFF for c in r.counts):
            raise ValueError(f"counter counts must fit in 16 bits, got {list(r.counts)}")
        return b"".join([U16.pack(c) for c in r.counts])

    def _send_kind(self, r: CounterResponse) -> Literal["i", "b"]:
        return "b"

    def _read(self, p: MsgSelectCounter, area: bytes, card_lookup: CardLookup | None) -> CounterResponse:
        if p.exact is None:
            want, caps = p.count, [c.counter_count for c in p.cards]
        else:
            want, caps = p.exact.count, list(p.exact.caps)
        counts = []
        total = 0
        for i, cap in enumerate(caps):
            c = area[2 * i] | (area[2 * i + 1] << 8)
            if c > cap:
                raise InvalidResponse(f"SELECT_COUNTER: card {i} has {cap} counters, cannot remove {c}")
            counts.append(c)
            total += c
        if total != want:
            raise InvalidResponse(f"SELECT_COUNTER: removes {total} counters in all, must be exactly {want}")
        return CounterResponse(counts=tuple(counts))

    def iter_legal(self, p: MsgSelectCounter, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[CounterResponse]:
        """Every way to remove exactly ``count`` counters, the first card's count varying slowest."""
        caps = [c.counter_count for c in p.cards]
        yield from self._accepted(p, (CounterResponse(counts=s) for s in _counter_splits(caps, p.count)),
                                  _Budget(budget))

    def random(self, p: MsgSelectCounter, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> CounterResponse:
        counts = [0] * len(p.cards)
        if sum(c.counter_count for c in p.cards) < p.count:
            raise NoValidResponse("SELECT_COUNTER: not enough counters on the cards")
        for _ in range(p.count):
            room = [i for i, c in enumerate(p.cards) if counts[i] < c.counter_count]
            counts[rng.choice(room)] += 1
        return CounterResponse(counts=tuple(counts))

    def _what(self, p: MsgSelectCounter, w: PromptWords) -> str:
        return f"remove {w.counters(p.counter_type, p.count)} in all from these cards"


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


def _sum_reason(mode: int, target: int, params: Sequence[int]) -> str | None:
    """Why the full list of sum parameters (must cards first) fails, or None."""
    if mode == 0:
        if not _sum_check_exact(params, 0, target, 0xFFFF):
            return f"the chosen values cannot add up to exactly {target}"
        return None
    if not _sum_greater_ok(params, target):
        return f"the chosen cards must reach {target} and none may be superfluous"
    return None


class SumKind(PromptKind[MsgSelectSum, SumResponse]):
    response_type = SumResponse

    def _encode(self, prompt: MsgSelectSum, r: SumResponse) -> bytes:
        must = len(prompt.must_cards)
        return _bytes((must + len(r.indices), *([0] * must), *r.indices), "sum selection")

    def _send_kind(self, r: SumResponse) -> Literal["i", "b"]:
        return "b"

    @staticmethod
    def limits(p: MsgSelectSum) -> SumLimits:
        """The question's numbers as the message gives them (``card_count_range``)."""
        lo, hi = p.card_count_range()
        return SumLimits(lo, hi, p.target)

    def _read(self, p: MsgSelectSum, area: bytes, card_lookup: CardLookup | None) -> SumResponse:
        lim = p.exact if p.exact is not None else self.limits(p)
        mcount = len(p.must_cards)
        count = area[0]
        lo, hi = lim.min, lim.max
        if p.mode == 0 and (count < lo + mcount or count > hi + mcount):
            raise InvalidResponse(
                f"SELECT_SUM: count byte {count} must be {lo + mcount} to {hi + mcount}"
                f" ({lo}-{hi} cards plus {mcount} must-select cards)"
            )
        seen: set[int] = set()
        indices = []
        params = [c.sum_param for c in p.must_cards]
        if p.mode == 0 and count < mcount:
            # The exact-sum check runs over the first ``count`` entries of the answer, the
            # must-select cards first: with a count byte below their number (allowed only
            # by a negative ``min``) the last of them do not count (the reference's
            # select_sum_check1 over returns.bvalue[0] values).
            params = params[:count]
        for i in range(mcount, count):
            v = area[i + 1]
            if v >= len(p.cards):
                raise InvalidResponse(f"SELECT_SUM: index {v} out of range (there are {len(p.cards)} cards)")
            if v in seen:
                raise InvalidResponse(f"SELECT_SUM: index {v} chosen twice")
            seen.add(v)
            indices.append(v)
            params.append(p.cards[v].sum_param)
        reason = _sum_reason(p.mode, lim.target, params)
        if reason is not None:
            raise InvalidResponse(f"SELECT_SUM: {reason}")
        return SumResponse(indices=tuple(indices))

    def iter_legal(self, p: MsgSelectSum, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[SumResponse]:
        """The index sets (must-select cards implied) the sum check accepts, smaller sets first."""
        n = len(p.cards)
        lo, hi = (p.min, p.max) if p.mode == 0 else (0, n)
        yield from self._accepted(p, (SumResponse(indices=s) for s in _subsets(n, lo, hi)), _Budget(budget))

    def random(self, p: MsgSelectSum, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> SumResponse:
        must = [c.sum_param for c in p.must_cards]
        n = len(p.cards)
        lo, hi = p.card_count_range() if p.mode == 0 else (0, n)
        hi = min(hi, n)

        def fails(params: list[int]) -> str | None:
            return _sum_reason(p.mode, p.target, params)

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
                if fails(must + [p.cards[j].sum_param for j in pick]) is None:
                    return SumResponse(indices=tuple(pick))
        # Exhaustive search in a random order (with a budget).
        order = rng.sample(range(n), n)
        left = [200000]
        result: list[int] | None = None

        def dfs(start: int, pick: list[int]) -> bool:
            nonlocal result
            left[0] -= 1
            if left[0] < 0:
                return False
            if lo <= len(pick) <= hi and fails(must + [p.cards[j].sum_param for j in pick]) is None:
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

    def _what(self, p: MsgSelectSum, w: PromptWords) -> str:
        if p.mode == 0:
            lo, hi = p.card_count_range()
            return (f"choose cards whose values add up to exactly {p.target}"
                    f" ({lo} to {hi} cards besides the always-included ones)")
        return f"choose cards whose values reach at least {p.target}"


class SortKind(PromptKind[MsgSortCard, SortResponse]):
    response_type = SortResponse

    def _encode(self, prompt: MsgSortCard, r: SortResponse) -> bytes:
        if r.order is None:
            return b"\xff"
        return _bytes(r.order, "sort order")

    def _send_kind(self, r: SortResponse) -> Literal["i", "b"]:
        return "b"

    def _read(self, p: MsgSortCard, area: bytes, card_lookup: CardLookup | None) -> SortResponse:
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

    def iter_legal(self, p: MsgSortCard, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[SortResponse]:
        """Keep the order (``None``), then every permutation."""
        b = _Budget(budget)
        yield SortResponse(order=None)
        for o in itertools.permutations(range(len(p.cards))):
            if not b.spend():
                return
            yield SortResponse(order=o)

    def random(self, p: MsgSortCard, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> SortResponse:
        if rng.random() < 0.25:
            return SortResponse(order=None)
        n = len(p.cards)
        return SortResponse(order=tuple(rng.sample(range(n), n)))

    def _what(self, p: MsgSortCard, w: PromptWords) -> str:
        return "put these cards in order (or keep their order)"


# ----- declarations -----------------------------------------------------------------------

def _mask_bits(available: int, end: int) -> list[int]:
    bits = []
    b = 1
    while b < end:
        if b & available:
            bits.append(b)
        b <<= 1
    return bits


class MaskKind(PromptKind[Any, Any]):
    """ANNOUNCE_RACE and ANNOUNCE_ATTRIB: a mask of exactly ``count`` available bits."""

    _end: ClassVar[int] = 0
    _label: ClassVar[str] = ""
    _field: ClassVar[str] = ""
    _noun: ClassVar[str] = ""

    def _encode(self, prompt: Any, r: Any) -> bytes:
        return int_response(getattr(r, self._field))

    def answer(self, mask: int) -> Any:
        """The answer declaring ``mask``."""
        return self.response_type(**{self._field: mask})  # type: ignore[call-arg]

    def _read(self, p: Any, area: bytes, card_lookup: CardLookup | None) -> Any:
        value = _ivalue(area)
        sel = 0
        bit = 1
        while bit < self._end:
            if value & bit:
                if not bit & p.available:
                    raise InvalidResponse(f"{self._label}: {bit:#x} is not available (mask {p.available:#x})")
                sel += 1
            bit <<= 1
        if sel != p.count:
            raise InvalidResponse(f"{self._label}: declared {sel}, must declare exactly {p.count}")
        return self.answer(value)

    def iter_legal(self, p: Any, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[Any]:
        """Every mask of exactly ``count`` available bits."""
        bits = _mask_bits(p.available, self._end)
        masks = (self.answer(sum(combo)) for combo in itertools.combinations(bits, p.count))
        yield from self._accepted(p, masks, _Budget(budget))

    def random(self, p: Any, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> Any:
        bits = _mask_bits(p.available, self._end)
        if p.count > len(bits):
            raise NoValidResponse(f"cannot declare {p.count} of {len(bits)} available")
        value = 0
        for b in rng.sample(bits, p.count):
            value |= b
        return self.answer(value)

    def _what(self, p: Any, w: PromptWords) -> str:
        return f"declare {p.count} {self._noun}(s)"


class RaceKind(MaskKind):
    response_type = AnnounceRaceResponse
    _end = 1 << RACES_COUNT
    _label = "ANNOUNCE_RACE"
    _field = "races"
    _noun = "Type"


class AttributeKind(MaskKind):
    response_type = AnnounceAttribResponse
    _end = ATTRIBUTES_END
    _label = "ANNOUNCE_ATTRIB"
    _field = "attributes"
    _noun = "Attribute"


def _is_setcode(setcodes: Sequence[int], value: int) -> bool:
    settype = value & 0x0FFF
    subtype = value & 0xF000
    for sc in setcodes:
        if not sc:
            return False
        if (sc & 0x0FFF) == settype and (sc & subtype) == subtype:
            return True
    return False


_BINARY_OPS = (OPCODE_ADD, OPCODE_SUB, OPCODE_MUL, OPCODE_DIV, OPCODE_AND, OPCODE_OR)
_UNARY_OPS = (OPCODE_NEG, OPCODE_NOT, OPCODE_ISCODE, OPCODE_ISSETCARD, OPCODE_ISTYPE, OPCODE_ISRACE,
              OPCODE_ISATTRIBUTE)


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
        if op in _BINARY_OPS:
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
        elif op in _UNARY_OPS:
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
                    setcodes = card.setcodes if hasattr(card, "setcodes") else card.setcode  # type: ignore[attr-defined]
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


class AnnounceCardKind(PromptKind[MsgAnnounceCard, AnnounceCardResponse]):
    response_type = AnnounceCardResponse

    def _encode(self, prompt: MsgAnnounceCard, r: AnnounceCardResponse) -> bytes:
        return int_response(r.code)

    def _read(self, p: MsgAnnounceCard, area: bytes, card_lookup: CardLookup | None) -> AnnounceCardResponse:
        """Without ``card_lookup`` only code 0 is refused (the database checks need it)."""
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

    def iter_legal(self, p: MsgAnnounceCard, *, cards: Iterable[Any] | None = None,
                   budget: int | None = None) -> Iterator[AnnounceCardResponse]:
        """Every card of ``cards`` the filter allows, in their order (none without ``cards``)."""
        for rec in cards or ():
            if rec.code and is_declarable(rec, p.options):
                yield AnnounceCardResponse(code=_s32(rec.code))

    def random(self, p: MsgAnnounceCard, rng: _random.Random, *,
               card_pool: Sequence[DeclarableCard] | None = None) -> AnnounceCardResponse:
        """``card_pool``: the cards that may be named (needed)."""
        if not card_pool:
            raise NoValidResponse("ANNOUNCE_CARD: a random answer needs card_pool (the cards that may be named)")
        ok = [c for c in card_pool if c.code and is_declarable(c, p.options)]
        if not ok:
            raise NoValidResponse("ANNOUNCE_CARD: no card in card_pool fits the declaration filter")
        return AnnounceCardResponse(code=_s32(rng.choice(ok).code))

    def _what(self, p: MsgAnnounceCard, w: PromptWords) -> str:
        return "declare a card name (any card the declaration filter allows)"


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------
SELECT_IDLECMD = IdleCmdKind("idle", MsgSelectIdleCmd)
SELECT_BATTLECMD = BattleCmdKind("battle", MsgSelectBattleCmd)
SELECT_CHAIN = ChainKind("chain", MsgSelectChain)
SELECT_EFFECTYN = EffectYnKind("effect_yes_no", MsgSelectEffectYn)
SELECT_YESNO = YesNoKind("yes_no", MsgSelectYesNo)
SELECT_OPTION = OptionKind("option", MsgSelectOption)
SELECT_CARD = SelectCardKind("card", MsgSelectCard)
SELECT_UNSELECT_CARD = UnselectCardKind("unselect_card", MsgSelectUnselectCard)
SELECT_PLACE = PlaceKind("place", MsgSelectPlace)
SELECT_DISFIELD = PlaceKind("disfield", MsgSelectDisfield)
SELECT_POSITION = PositionKind("position", MsgSelectPosition)
SELECT_TRIBUTE = TributeKind("tribute", MsgSelectTribute)
SELECT_COUNTER = CounterKind("counter", MsgSelectCounter)
SELECT_SUM = SumKind("sum", MsgSelectSum)
SORT_CARD = SortKind("sort", MsgSortCard)
ANNOUNCE_RACE = RaceKind("race", MsgAnnounceRace)
ANNOUNCE_ATTRIB = AttributeKind("attribute", MsgAnnounceAttrib)
ANNOUNCE_CARD = AnnounceCardKind("announce_card", MsgAnnounceCard)
ANNOUNCE_NUMBER = NumberKind("number", MsgAnnounceNumber)
ROCK_PAPER_SCISSORS = RpsKind("rps", MsgRockPaperScissors)

KINDS: dict[type[Prompt], PromptKind[Any, Any]] = {
    k.prompt_type: k
    for k in (SELECT_IDLECMD, SELECT_BATTLECMD, SELECT_CHAIN, SELECT_EFFECTYN, SELECT_YESNO, SELECT_OPTION,
              SELECT_CARD, SELECT_UNSELECT_CARD, SELECT_PLACE, SELECT_DISFIELD, SELECT_POSITION,
              SELECT_TRIBUTE, SELECT_COUNTER, SELECT_SUM, SORT_CARD, ANNOUNCE_RACE, ANNOUNCE_ATTRIB,
              ANNOUNCE_CARD, ANNOUNCE_NUMBER, ROCK_PAPER_SCISSORS)
}
"""The kind object of every prompt message class."""

KINDS_BY_NAME: dict[str, PromptKind[Any, Any]] = {k.name: k for k in KINDS.values()}
"""The kind objects by short name ("card", "sum", ...)."""


def kind_of(prompt: Prompt | type[Prompt]) -> PromptKind[Any, Any]:
    """The kind object of a prompt (or prompt class); TypeError for anything else."""
    cls = prompt if isinstance(prompt, type) else type(prompt)
    try:
        return KINDS[cls]
    except KeyError:
        raise TypeError(f"{cls.__name__} is not a prompt") from None
