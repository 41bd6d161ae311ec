"""Playing a duel by hand: prompts turned into numbered choices and back.

This module is the logic of ``duelhost play`` and ``duelhost puzzle``,
without any terminal: ``duelhost.tui`` only reads lines and prints text.
Everything goes through the same host API that tests use (``duelhost.Duel``:
``advance()`` gives the next prompt, ``respond()`` answers it), so what a
person can do here a test can do too.

    session = PlaySession(duel, ["human", RandomPlayer(7)])
    q = session.next_question()        # runs the random player, collects the log
    print(session.take_log()); print(session.board_text()); print(q.render())
    session.answer(q, "3")             # "3", "1 4", "0", a card name ... (see Question)

A ``Question`` lists every legal option of a prompt with a number:

- one choice (menus, chains, yes/no, options, positions, numbers, ...): type
  its number;
- several cards or zones (card selection, tributes, sums, zones, races and
  attributes): type the numbers separated by spaces or commas; ``0`` cancels
  or finishes when the prompt allows it;
- counters to remove: one number per counter removed (``1 1 3`` takes two from
  option 1 and one from option 3);
- an order (sorting cards): the option numbers in the new order, ``0`` keeps
  the order offered;
- a card name to declare: type part of the name (or a code); the matching
  cards that may be declared come back as a numbered list.

An answer the rules refuse raises ``AnswerError`` with the reason (the same
check ``Duel.respond`` makes) and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duelhost.engine import constants as C
from duelhost.engine.messages import (
    CardInfo,
    LocInfo,
    Message,
    MsgAddCounter,
    MsgAiName,
    MsgBecomeTarget,
    MsgCancelTarget,
    MsgCardTarget,
    MsgConfirmDecktop,
    MsgConfirmExtratop,
    MsgFieldDisabled,
    MsgHandRes,
    MsgMissedEffect,
    MsgRemoveCounter,
    MsgShuffleDeck,
    MsgSwap,
    MsgSwapGraveDeck,
    MsgAnnounceAttrib,
    MsgAnnounceCard,
    MsgAnnounceNumber,
    MsgAnnounceRace,
    MsgAttack,
    MsgBattle,
    MsgChainEnd,
    MsgChaining,
    MsgChainNegated,
    MsgChainDisabled,
    MsgConfirmCards,
    MsgDamage,
    MsgDraw,
    MsgEquip,
    MsgFlipSummoning,
    MsgHint,
    MsgLpUpdate,
    MsgMove,
    MsgNewPhase,
    MsgNewTurn,
    MsgPayLpCost,
    MsgPosChange,
    MsgRecover,
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
    MsgSet,
    MsgShowHint,
    MsgSortCard,
    MsgSpSummoning,
    MsgSummoning,
    MsgTossCoin,
    MsgTossDice,
    MsgWin,
    Prompt,
    sum_params,
)
from duelhost.engine.prompt_kinds import ANNOUNCE_RACE, SELECT_DISFIELD, MaskKind, free_zones, kind_of
from duelhost.engine.responses import (
    AnnounceCardResponse,
    BattleCmdResponse,
    CardsResponse,
    ChainResponse,
    CounterResponse,
    IdleCmdResponse,
    InvalidResponse,
    PlaceResponse,
    Response,
    SortResponse,
    SumResponse,
    UnselectCardResponse,
    YesNoResponse,
    is_declarable,
)

__all__ = [
    "AnswerError",
    "Choice",
    "PlaySession",
    "Question",
    "card_text",
    "question_for",
]


class AnswerError(ValueError):
    """A typed answer that is not a legal choice; the message says why."""


# =========================================================================================
# words
# =========================================================================================

LOCATION_WORDS = {
    C.LOCATION_DECK: "Deck", C.LOCATION_HAND: "hand", C.LOCATION_MZONE: "Monster Zone",
    C.LOCATION_SZONE: "Spell & Trap Zone", C.LOCATION_GRAVE: "GY", C.LOCATION_REMOVED: "banishment",
    C.LOCATION_EXTRA: "Extra Deck", C.LOCATION_OVERLAY: "Xyz materials",
}
POSITION_WORDS = {
    C.POS_FACEUP_ATTACK: "face-up Attack Position", C.POS_FACEDOWN_ATTACK: "face-down Attack Position",
    C.POS_FACEUP_DEFENSE: "face-up Defense Position", C.POS_FACEDOWN_DEFENSE: "face-down Defense Position",
    C.POS_FACEUP: "face-up", C.POS_FACEDOWN: "face-down",
}
SHORT_POSITION = {
    C.POS_FACEUP_ATTACK: "ATK", C.POS_FACEDOWN_ATTACK: "set ATK",
    C.POS_FACEUP_DEFENSE: "DEF", C.POS_FACEDOWN_DEFENSE: "set DEF",
    C.POS_FACEUP: "face-up", C.POS_FACEDOWN: "set",
}
# How a monster came to the field (the high byte of its summon type), as the client says it.
SUMMON_KIND_WORDS = {
    C.SUMMON_TYPE_NORMAL >> 24: "Normal Summoned", C.SUMMON_TYPE_ADVANCE >> 24: "Tribute Summoned",
    C.SUMMON_TYPE_DUAL >> 24: "Normal Summoned (Gemini)", C.SUMMON_TYPE_FLIP >> 24: "Flip Summoned",
    C.SUMMON_TYPE_SPECIAL >> 24: "Special Summoned", C.SUMMON_TYPE_FUSION >> 24: "Fusion Summoned",
    C.SUMMON_TYPE_RITUAL >> 24: "Ritual Summoned", C.SUMMON_TYPE_SYNCHRO >> 24: "Synchro Summoned",
    C.SUMMON_TYPE_XYZ >> 24: "Xyz Summoned", C.SUMMON_TYPE_PENDULUM >> 24: "Pendulum Summoned",
    C.SUMMON_TYPE_LINK >> 24: "Link Summoned",
}
PHASE_WORDS = {
    C.PHASE_DRAW: "Draw Phase", C.PHASE_STANDBY: "Standby Phase", C.PHASE_MAIN1: "Main Phase 1",
    C.PHASE_BATTLE_START: "Battle Phase", C.PHASE_BATTLE_STEP: "Battle Step",
    C.PHASE_DAMAGE: "Damage Step", C.PHASE_DAMAGE_CAL: "damage calculation",
    C.PHASE_BATTLE: "end of the Battle Phase", C.PHASE_MAIN2: "Main Phase 2", C.PHASE_END: "End Phase",
}
WIN_WORDS = {0: "surrender", 1: "LP reached 0", 2: "could not draw", 3: "time-out", 4: "connection lost"}


def win_words(reason: int) -> str:
    """Why a duel was won, in words (reasons from 0x10 on are a card's effect)."""
    if reason in WIN_WORDS:
        return WIN_WORDS[reason]
    return f"a card's effect (reason {reason:#x})" if reason >= 0x10 else f"reason {reason}"


def phase_words(turn: int, phase: int) -> str:
    """The phase by name; before the first turn (turn 0) there is none yet."""
    if turn == 0 or phase == 0:
        return "before the first turn"
    return PHASE_WORDS.get(phase, f"phase {phase:#x}")


def counters_words(counters: dict[int, int]) -> str:
    """ "2 Spell Counters, 1 Hex Counter" (counter_names: our own table)."""
    from .counter_names import counter_name
    parts = []
    for t, n in sorted(counters.items()):
        name = counter_name(t)
        parts.append(f"{n} {name}" + ("s" if n != 1 and name.endswith("Counter") else ""))
    return ", ".join(parts)


def grouped(names: Sequence[str]) -> str:
    """Names in order, repeated ones once with their count: "Petrel ×3, Hound"."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return ", ".join(n if k == 1 else f"{n} \u00d7{k}" for n, k in counts.items())


def _flag_names(prefix: str, skip: tuple[str, ...] = ()) -> dict[int, str]:
    """Single-bit constants of engine.constants with a prefix, as readable words."""
    out: dict[int, str] = {}
    for name, value in vars(C).items():
        if not name.startswith(prefix) or name in skip or not isinstance(value, int):
            continue
        if value <= 0 or value & (value - 1):
            continue
        out.setdefault(value, name[len(prefix):].replace("_", " ").title())
    return out


RACE_WORDS = _flag_names("RACE_", ("RACE_ALL",))
RACE_WORDS.update({C.RACE_WINDBEAST: "Winged Beast", C.RACE_BEASTWARRIOR: "Beast-Warrior",
                   C.RACE_SEASERPENT: "Sea Serpent", C.RACE_PSYCHO: "Psychic",
                   C.RACE_CREATORGOD: "Creator God"})
ATTRIBUTE_WORDS = _flag_names("ATTRIBUTE_", ("ATTRIBUTE_ALL",))
TYPE_WORDS = _flag_names("TYPE_")
TYPE_WORDS.update({C.TYPE_TRAPMONSTER: "Trap Monster", C.TYPE_QUICKPLAY: "Quick-Play",
                   C.TYPE_SPSUMMON: "Special Summon only"})

# What a selection hint (HINT_SELECTMSG) asks for, in our words.
SELECT_HINT_WORDS = {
    C.HINTMSG_RELEASE: "to Tribute", C.HINTMSG_DISCARD: "to discard", C.HINTMSG_DESTROY: "to destroy",
    C.HINTMSG_REMOVE: "to banish", C.HINTMSG_TOGRAVE: "to send to the GY",
    C.HINTMSG_RTOHAND: "to return to the hand", C.HINTMSG_ATOHAND: "to add to the hand",
    C.HINTMSG_TODECK: "to return to the Deck", C.HINTMSG_SUMMON: "to Normal Summon",
    C.HINTMSG_SPSUMMON: "to Special Summon", C.HINTMSG_SET: "to Set",
    C.HINTMSG_FMATERIAL: "as Fusion Material", C.HINTMSG_SMATERIAL: "as Synchro Material",
    C.HINTMSG_XMATERIAL: "as Xyz Material", C.HINTMSG_FACEUP: "(face-up)",
    C.HINTMSG_FACEDOWN: "(face-down)", C.HINTMSG_ATTACK: "(Attack Position)",
    C.HINTMSG_DEFENSE: "(Defense Position)", C.HINTMSG_EQUIP: "to equip",
    C.HINTMSG_REMOVEXYZ: "to detach material from", C.HINTMSG_CONTROL: "to take control of",
    C.HINTMSG_DESREPLACE: "to destroy instead", C.HINTMSG_FACEUPATTACK: "(face-up Attack Position)",
    C.HINTMSG_FACEUPDEFENSE: "(face-up Defense Position)",
    C.HINTMSG_FACEDOWNATTACK: "(face-down Attack Position)",
    C.HINTMSG_FACEDOWNDEFENSE: "(face-down Defense Position)", C.HINTMSG_CONFIRM: "to reveal",
    C.HINTMSG_TOFIELD: "to place on the field", C.HINTMSG_POSCHANGE: "to change position",
    C.HINTMSG_SELF: "of your own", C.HINTMSG_OPPO: "of your opponent's", C.HINTMSG_TRIBUTE: "to Tribute",
    C.HINTMSG_DEATTACHFROM: "to detach material from", C.HINTMSG_LMATERIAL: "as Link Material",
    C.HINTMSG_ATTACKTARGET: "to attack", C.HINTMSG_EFFECT: "whose effect to apply",
    C.HINTMSG_TARGET: "to target", C.HINTMSG_COIN: "(coin)", C.HINTMSG_DICE: "(die)",
    C.HINTMSG_CARDTYPE: "(card type)", C.HINTMSG_OPTION: "(option)",
    C.HINTMSG_RESOLVEEFFECT: "whose effect resolves", C.HINTMSG_SELECT: "",
    C.HINTMSG_POSITION: "(position)", C.HINTMSG_ATTRIBUTE: "(Attribute)", C.HINTMSG_RACE: "(Type)",
    C.HINTMSG_CODE: "(card name)", C.HINTMSG_NUMBER: "(number)", C.HINTMSG_LVRANK: "(Level/Rank)",
}

# A few system descriptions that scripts and the rules use often (ours, not strings.conf).
SYSTEM_DESC_WORDS = {
    30: "Attack again (the possible targets changed)?", 31: "Attack directly?",
    94: "Use the effect now?", 96: "Use this effect instead (replace the destruction)?",
    221: "Activate this effect?", 1104: "Return it to the hand",
    1150: "Activate", 1151: "Normal Summon", 1152: "Special Summon", 1153: "Set",
}

RPS_WORDS = {1: "Scissors", 2: "Rock", 3: "Paper"}


def _mask_words(mask: int, words: dict[int, str]) -> str:
    parts = [w for bit, w in sorted(words.items()) if mask & bit]
    return "/".join(parts) if parts else "-"


NameOf = Callable[[int], str]


# =========================================================================================
# choices and questions
# =========================================================================================

@dataclass(frozen=True)
class Choice:
    """One numbered option: what the person reads, the card it is about (for
    ``? N``), and what picking it means (a Response, or an index the question
    turns into one)."""

    key: int
    label: str
    code: int | None = None
    value: Any = None


ONE, MANY, REPEAT, ORDER, SEARCH = "one", "many", "repeat", "order", "search"


@dataclass
class Question:
    """A prompt as numbered choices; ``answer(text)`` gives the Response (or a
    narrower Question for a card-name search)."""

    prompt: Prompt
    title: str
    choices: list[Choice]
    mode: str = ONE
    min: int = 1
    max: int = 1
    cancel: Response | None = None          # what "0" answers (None: 0 is not allowed)
    cancel_label: str = "cancel"
    build: Callable[[list[Any]], Response] | None = None
    search: Callable[[str], "Question | Response"] | None = None
    check: Callable[[Response], None] | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def player(self) -> int:
        return self.prompt.player

    def choice(self, key: int) -> Choice | None:
        for c in self.choices:
            if c.key == key:
                return c
        return None

    def how(self) -> str:
        """One line that says how to answer."""
        zero = f"; 0 = {self.cancel_label}" if self.cancel is not None else ""
        if self.mode == ONE:
            return f"Type a number{zero}."
        if self.mode == MANY:
            if self.max == 1:
                return f"Type {'a number' if self.min == 1 else 'a number (or nothing)'}{zero}."
            n = f"{self.min}" if self.min == self.max else f"{self.min} to {self.max}"
            return f"Type {n} numbers separated by spaces{zero}."
        if self.mode == REPEAT:
            return (f"Type one number per counter to remove ({self.min} in all); "
                    f"repeat a number to take several from one card.")
        if self.mode == ORDER:
            return f"Type the numbers in the new order (first = first){zero}."
        return "Type part of a card name (or its code)."

    def render(self) -> str:
        lines = [self.title]
        lines.extend(self.notes)
        width = len(str(max((c.key for c in self.choices), default=0)))
        if self.cancel is not None and self.mode != ONE:
            lines.append(f"  {'0'.rjust(width)}. {self.cancel_label}")
        for c in self.choices:
            lines.append(f"  {str(c.key).rjust(width)}. {c.label}")
        if self.cancel is not None and self.mode == ONE:
            lines.append(f"  {'0'.rjust(width)}. {self.cancel_label}")
        lines.append(self.how())
        return "\n".join(lines)

    # ----- answering ------------------------------------------------------------------

    def answer(self, text: str) -> "Response | Question":
        text = text.strip()
        if self.mode == SEARCH:
            if not text:
                raise AnswerError("type part of a card name or a card code")
            assert self.search is not None
            out = self.search(text)
            if isinstance(out, Response):
                self._check(out)
            return out
        numbers = _numbers(text)
        if numbers == [0] and self.cancel is not None:
            return self.cancel
        if self.mode == ONE:
            if len(numbers) != 1:
                raise AnswerError("type exactly one number")
            c = self.choice(numbers[0])
            if c is None:
                raise AnswerError(f"{numbers[0]} is not one of the options")
            return self._checked(c.value)
        if 0 in numbers:
            raise AnswerError("0 cannot be combined with other numbers"
                              if self.cancel is not None else "0 is not one of the options")
        picked = []
        for n in numbers:
            c = self.choice(n)
            if c is None:
                raise AnswerError(f"{n} is not one of the options")
            picked.append(c.value)
        if self.mode == MANY:
            if len(set(numbers)) != len(numbers):
                raise AnswerError("a number was given twice")
            if not self.min <= len(numbers) <= self.max:
                want = f"{self.min}" if self.min == self.max else f"{self.min} to {self.max}"
                raise AnswerError(f"choose {want}, not {len(numbers)}")
        elif self.mode == REPEAT:
            if len(numbers) != self.min:
                raise AnswerError(f"remove exactly {self.min} counter(s), not {len(numbers)}")
        elif self.mode == ORDER:
            if sorted(numbers) != sorted(c.key for c in self.choices):
                raise AnswerError("give every number exactly once")
        assert self.build is not None
        return self._checked(self.build(picked))

    def _checked(self, response: Response) -> Response:
        self._check(response)
        return response

    def _check(self, response: Response) -> None:
        if self.check is not None:
            try:
                self.check(response)
            except InvalidResponse as exc:
                raise AnswerError(f"not allowed: {exc.reason}") from None


def _numbers(text: str) -> list[int]:
    parts = [p for p in re.split(r"[\s,;]+", text) if p]
    if not parts:
        raise AnswerError("type a number")
    out = []
    for p in parts:
        if not p.isdigit():
            raise AnswerError(f"{p!r} is not a number")
        out.append(int(p))
    return out


# =========================================================================================
# card words
# =========================================================================================

class Words:
    """Names, places and descriptions as one player sees them."""

    def __init__(self, duel: Any, viewer: int | None) -> None:
        self.duel = duel
        self.db = duel.db
        self.viewer = viewer

    def name(self, code: int) -> str:
        code &= 0x7FFFFFFF
        if not code:
            return "a card"
        return str(self.duel.card_name(code))

    def whose(self, controller: int) -> str:
        if self.viewer is None:
            return f"P{controller}'s"
        return "your" if controller == self.viewer else "opponent's"

    def place(self, controller: int, location: int, sequence: int) -> str:
        loc = location & 0x7F
        who = self.whose(controller)
        if location & C.LOCATION_OVERLAY:
            return f"material of {who} M{sequence + 1}"
        if loc == C.LOCATION_MZONE:
            return f"{who} M{sequence + 1}" if sequence < 5 else f"{who} Extra Monster Zone {sequence - 4}"
        if loc == C.LOCATION_SZONE:
            if sequence == 5:
                return f"{who} Field Zone"
            if sequence >= 6:
                return f"{who} Pendulum Zone {sequence - 5}"
            return f"{who} S{sequence + 1}"
        return f"{who} {LOCATION_WORDS.get(loc, hex(loc))}"

    def loc(self, loc: LocInfo) -> str:
        return self.place(loc.controller, loc.location, loc.sequence)

    def hidden(self, controller: int, location: int, position: int | None) -> bool:
        """A card this viewer may not see: the opponent's hand, Deck, Extra Deck,
        or a face-down card of the opponent on the field or banished."""
        if self.viewer is None or controller == self.viewer:
            return False
        loc = location & 0x7F
        if loc in (C.LOCATION_HAND, C.LOCATION_DECK, C.LOCATION_EXTRA):
            return True
        if loc in (C.LOCATION_MZONE, C.LOCATION_SZONE, C.LOCATION_REMOVED) and position is not None:
            return bool(position & C.POS_FACEDOWN) and not location & C.LOCATION_OVERLAY
        return False

    def card_at(self, code: int, controller: int, location: int, sequence: int,
                position: int | None = None) -> str:
        where = self.place(controller, location, sequence)
        if not code or self.hidden(controller, location, position):
            if location & 0x7F in (C.LOCATION_MZONE, C.LOCATION_SZONE):
                return f"a Set card ({where})"          # as the client names the opponent's Set cards
            return f"a face-down card ({where})"
        return f"{self.name(code)} ({where})"

    def desc(self, description: int, code: int | None = None) -> str:
        """An effect description: a card's string, or one of the system texts we know."""
        if description == 0:
            return ""
        try:
            text = self.db.hint_string(description)
        except Exception:
            text = None
        if text:
            return str(text)
        if description in SYSTEM_DESC_WORDS:
            return SYSTEM_DESC_WORDS[description]
        if description >= 2048:
            owner = description >> 4
            if owner in self.db:
                return f"effect {description & 0xF} of {self.name(owner)}"
            # aux.Stringid of a code above 268435455 does not fit the 32-bit description
            return f"(description {description})"
        return f"(system text {description})"


def card_text(db: Any, code: int) -> str:
    """A card's full text from the database: name, kind, stats, and rules text."""
    rec = db.find(code & 0x7FFFFFFF)
    if rec is None:
        return f"card {code}: not in the database"
    lines = [f"{rec.name} [{rec.code}]"]
    kinds = _mask_words(rec.type, TYPE_WORDS)
    if rec.type & C.TYPE_MONSTER:
        if rec.type & C.TYPE_LINK:
            level = f"Link {rec.level & 0xFF}"
        elif rec.type & C.TYPE_XYZ:
            level = f"Rank {rec.level & 0xFF}"
        else:
            level = f"Level {rec.level & 0xFF}"
        stats = f"ATK {rec.attack if rec.attack >= 0 else '?'}"
        if not rec.type & C.TYPE_LINK:
            stats += f" / DEF {rec.defense if rec.defense >= 0 else '?'}"
        lines.append(f"{kinds} | {_mask_words(rec.attribute, ATTRIBUTE_WORDS)} "
                     f"{_mask_words(rec.race, RACE_WORDS)} | {level} | {stats}")
        if rec.type & C.TYPE_PENDULUM:
            lines.append(f"Pendulum Scale {rec.lscale}/{rec.rscale}")
    else:
        lines.append(kinds)
    if rec.desc:
        lines.append(rec.desc.replace("\r\n", "\n"))
    return "\n".join(lines)


# =========================================================================================
# prompt -> question
# =========================================================================================

def question_for(duel: Any, prompt: Prompt, *, viewer: int | None = None,
                 hint: int | None = None) -> Question:
    """The numbered choices for ``prompt`` (``hint``: the HINT_SELECTMSG sent before it)."""
    w = Words(duel, prompt.player if viewer is None else viewer)
    builder = _BUILDERS.get(type(prompt))
    if builder is None:
        raise TypeError(f"{type(prompt).__name__} is not a prompt this module knows")
    q = builder(prompt, w, hint)
    if q.check is None:
        kind = kind_of(prompt)

        def check(resp: Response, _p: Prompt = prompt) -> None:
            kind.validate(_p, resp, card_lookup=duel.db.find)
        q.check = check
    return q


def _who(w: Words, p: Prompt) -> str:
    if w.viewer is None or w.viewer != p.player:
        return f"Player {p.player}"
    return "You"


def _hint_words(w: Words, hint: int | None) -> str:
    if hint is None:
        return ""
    if hint in SELECT_HINT_WORDS:
        return SELECT_HINT_WORDS[hint]
    if hint >= 2048 or hint > 10000:
        text = w.desc(hint)
        return f"({text})" if text else ""
    return ""


def _want(lo: int, hi: int, noun: str) -> str:
    if lo == hi:
        return _count(lo, noun)
    return f"{lo}-{hi} {noun}s"


def _card_label(w: Words, info: CardInfo) -> str:
    return w.card_at(info.code, info.controller, info.location, info.sequence)


def _q_idle(p: MsgSelectIdleCmd, w: Words, hint: int | None) -> Question:
    choices: list[Choice] = []
    verbs = ("Normal Summon", "Special Summon", "Change the battle position of",
             "Set (monster)", "Set (Spell/Trap)")
    for cmd, lst in enumerate(p.card_lists):
        for i, info in enumerate(lst):
            choices.append(Choice(len(choices) + 1, f"{verbs[cmd]} {_card_label(w, info)}", info.code,
                                  IdleCmdResponse(command=cmd, index=i)))
    for i, e in enumerate(p.activatable):
        d = w.desc(e.description)
        label = f"Activate {w.card_at(e.card_code, e.controller, e.location, e.sequence)}"
        if d:
            label += f": {d}"
        choices.append(Choice(len(choices) + 1, label, e.card_code, IdleCmdResponse(command=5, index=i)))
    if p.can_battle_phase:
        choices.append(Choice(len(choices) + 1, "Go to the Battle Phase", None, IdleCmdResponse(command=6)))
    if p.can_end_phase:
        choices.append(Choice(len(choices) + 1, "End the turn", None, IdleCmdResponse(command=7)))
    if p.can_shuffle:
        choices.append(Choice(len(choices) + 1, "Shuffle your hand", None, IdleCmdResponse(command=8)))
    return Question(p, f"{_who(w, p)}: Main Phase -- what next?", _group_copies(choices))


def _group_copies(choices: list[Choice]) -> list[Choice]:
    """One option for copies that read the same ("Special Summon Sprouting Xyz (your Extra
    Deck)" three times: one line ending "×3"); picking it picks the first copy, which the
    rules treat like any other.  The options are numbered again."""
    counts: dict[str, int] = {}
    for c in choices:
        counts[c.label] = counts.get(c.label, 0) + 1
    out: list[Choice] = []
    seen: set[str] = set()
    for c in choices:
        if c.label in seen:
            continue
        seen.add(c.label)
        label = c.label if counts[c.label] == 1 else f"{c.label} \u00d7{counts[c.label]}"
        out.append(Choice(len(out) + 1, label, c.code, c.value))
    return out


def _q_battle(p: MsgSelectBattleCmd, w: Words, hint: int | None) -> Question:
    choices: list[Choice] = []
    for i, e in enumerate(p.activatable):
        d = w.desc(e.description)
        label = f"Activate {w.card_at(e.card_code, e.controller, e.location, e.sequence)}"
        if d:
            label += f": {d}"
        choices.append(Choice(len(choices) + 1, label, e.card_code, BattleCmdResponse(command=0, index=i)))
    for i, a in enumerate(p.attackable):
        direct = " (can attack directly)" if a.direct_attackable else ""
        choices.append(Choice(len(choices) + 1,
                              f"Attack with {w.card_at(a.code, a.controller, a.location, a.sequence)}{direct}",
                              a.code, BattleCmdResponse(command=1, index=i)))
    if p.can_main2:
        choices.append(Choice(len(choices) + 1, "Go to Main Phase 2", None, BattleCmdResponse(command=2)))
    if p.can_end_phase:
        choices.append(Choice(len(choices) + 1, "End the turn", None, BattleCmdResponse(command=3)))
    return Question(p, f"{_who(w, p)}: Battle Phase -- what next?", choices)


def _q_chain(p: MsgSelectChain, w: Words, hint: int | None) -> Question:
    choices: list[Choice] = []
    for i, ch in enumerate(p.chains):
        d = w.desc(ch.description)
        forced = " (must be activated)" if ch.forced else ""
        label = f"Activate {w.card_at(ch.code, ch.location.controller, ch.location.location, ch.location.sequence)}"
        if d:
            label += f": {d}"
        choices.append(Choice(len(choices) + 1, label + forced, ch.code, ChainResponse(index=i)))
    if not p.has_forced:
        choices.append(Choice(len(choices) + 1, "Do not chain (pass)", None, ChainResponse(index=None)))
    return Question(p, f"{_who(w, p)}: activate an effect in response?", choices)


def _yes_no(p: Prompt, w: Words, title: str, code: int | None = None) -> Question:
    return Question(p, title, [Choice(1, "Yes", code, YesNoResponse(yes=True)),
                               Choice(2, "No", code, YesNoResponse(yes=False))])


def _q_effect_yn(p: MsgSelectEffectYn, w: Words, hint: int | None) -> Question:
    d = w.desc(p.description) if p.description else ""
    where = w.card_at(p.code, p.loc.controller, p.loc.location, p.loc.sequence)
    title = f"{_who(w, p)}: use the effect of {where}?"
    if d:
        title += f" -- {d}"
    return _yes_no(p, w, title, p.code)


def _q_yes_no(p: MsgSelectYesNo, w: Words, hint: int | None) -> Question:
    return _yes_no(p, w, f"{_who(w, p)}: {w.desc(p.description) or 'yes or no?'}")


def _q_option(p: MsgSelectOption, w: Words, hint: int | None) -> Question:
    choices = [Choice(i + 1, w.desc(d) or f"option {i + 1}", (d >> 4) if d >= 2048 else None, r)
               for i, (d, r) in enumerate(zip(p.options, kind_of(p).legal(p)))]
    return Question(p, f"{_who(w, p)}: choose an option", choices)


def _selectable_label(w: Words, c: Any) -> str:
    loc = c.location
    return w.card_at(c.code, loc.controller, loc.location, loc.sequence, loc.position)


def _visible_code(w: Words, code: int, loc: LocInfo) -> int | None:
    if not code or w.hidden(loc.controller, loc.location, loc.position):
        return None
    return code


def _q_card(p: MsgSelectCard, w: Words, hint: int | None) -> Question:
    choices = [Choice(i + 1, _selectable_label(w, c), _visible_code(w, c.code, c.location), i)
               for i, c in enumerate(p.cards)]
    title = f"{_who(w, p)}: choose {_want(p.min, p.max, 'card')} {_hint_words(w, hint)}".rstrip()
    return Question(p, title, choices, mode=MANY, min=p.min, max=min(p.max, len(p.cards)),
                    cancel=CardsResponse(indices=None) if p.cancelable else None,
                    build=lambda idx: CardsResponse(indices=tuple(idx)))


def _q_unselect(p: MsgSelectUnselectCard, w: Words, hint: int | None) -> Question:
    choices: list[Choice] = []
    for i, c in enumerate(p.selectable):
        choices.append(Choice(len(choices) + 1, f"add {_selectable_label(w, c)}",
                              _visible_code(w, c.code, c.location), UnselectCardResponse(index=i)))
    for j, c in enumerate(p.unselectable):
        choices.append(Choice(len(choices) + 1, f"remove {_selectable_label(w, c)} (chosen)",
                              _visible_code(w, c.code, c.location),
                              UnselectCardResponse(index=len(p.selectable) + j)))
    cancel = None
    label = "cancel"
    if p.finishable or p.cancelable:
        cancel = UnselectCardResponse(index=None)
        label = "finish" if p.finishable else "cancel"
    title = (f"{_who(w, p)}: choose {_want(p.min, p.max, 'card')}, one at a time "
             f"{_hint_words(w, hint)}").rstrip()
    return Question(p, title, choices, cancel=cancel, cancel_label=label)


def _zone_label(w: Words, player: int, zp: int, loc: int, seq: int) -> str:
    return w.place(zp, loc, seq)


def _q_place(p: MsgSelectPlace | MsgSelectDisfield, w: Words, hint: int | None) -> Question:
    choices = [Choice(i + 1, _zone_label(w, p.player, z.player, z.location, z.sequence), None, z)
               for i, z in enumerate(free_zones(p))]
    n = max(1, p.count)
    what = _count(n, "zone") + (" to disable" if kind_of(p) is SELECT_DISFIELD else "")
    about = ""
    if hint is not None and hint > 10000:
        about = f" for {w.name(hint)}"
    title = f"{_who(w, p)}: choose {what}{about}"
    return Question(p, title, choices, mode=MANY, min=n, max=n,
                    build=lambda zones: PlaceResponse(zones=tuple(zones)))


def _q_position(p: MsgSelectPosition, w: Words, hint: int | None) -> Question:
    choices = [Choice(i + 1, POSITION_WORDS[r.position], p.code, r) for i, r in enumerate(kind_of(p).legal(p))]
    return Question(p, f"{_who(w, p)}: choose a position for {w.name(p.code)}", choices)


def _q_tribute(p: MsgSelectTribute, w: Words, hint: int | None) -> Question:
    choices = []
    for i, c in enumerate(p.cards):
        worth = f" (counts as {c.release_param})" if c.release_param != 1 else ""
        choices.append(Choice(i + 1, w.card_at(c.code, c.controller, c.location, c.sequence) + worth,
                              c.code or None, i))
    title = f"{_who(w, p)}: choose Tributes worth at least {p.min} (at most {p.max} cards)"
    return Question(p, title, choices, mode=MANY, min=1 if p.min else 0, max=min(p.max, len(p.cards)),
                    cancel=CardsResponse(indices=None) if p.cancelable else None,
                    build=lambda idx: CardsResponse(indices=tuple(idx)))


def _q_counter(p: MsgSelectCounter, w: Words, hint: int | None) -> Question:
    choices = [Choice(i + 1, f"{w.card_at(c.code, c.controller, c.location, c.sequence)}: "
                             f"{c.counter_count} counter(s)", c.code, i)
               for i, c in enumerate(p.cards)]

    def build(picked: list[int]) -> Response:
        counts = [0] * len(p.cards)
        for i in picked:
            counts[i] += 1
        return CounterResponse(counts=tuple(counts))

    title = f"{_who(w, p)}: remove {p.count} counter(s) (type {p.counter_type:#x})"
    return Question(p, title, choices, mode=REPEAT, min=p.count, max=p.count, build=build)


def _q_sum(p: MsgSelectSum, w: Words, hint: int | None) -> Question:
    def value(sp: int) -> str:
        a, b = sum_params(sp)
        return f"{a} or {b}" if b else f"{a}"

    choices = [Choice(i + 1, f"{w.card_at(c.code, c.controller, c.location, c.sequence)} = {value(c.sum_param)}",
                      c.code, i) for i, c in enumerate(p.cards)]
    notes = [f"  (always included: {w.card_at(c.code, c.controller, c.location, c.sequence)}"
             f" = {value(c.sum_param)})" for c in p.must_cards]
    if p.mode == 0:
        lo, hi = p.card_count_range()
        title = f"{_who(w, p)}: choose cards adding up to exactly {p.target} ({lo}-{hi} cards)"
    else:
        title = f"{_who(w, p)}: choose cards adding up to at least {p.target}, none of them superfluous"
        lo, hi = 0 if p.must_cards else 1, len(p.cards)
    return Question(p, f"{title} {_hint_words(w, hint)}".rstrip(), choices, mode=MANY, min=lo,
                    max=min(hi, len(p.cards)), build=lambda idx: SumResponse(indices=tuple(idx)),
                    notes=notes)


def _q_sort(p: MsgSortCard, w: Words, hint: int | None) -> Question:
    choices = [Choice(i + 1, _card_label(w, c), c.code, i) for i, c in enumerate(p.cards)]

    def build(picked: list[int]) -> Response:
        order = [0] * len(p.cards)
        for place, card_index in enumerate(picked):
            order[card_index] = place
        return SortResponse(order=tuple(order))

    return Question(p, f"{_who(w, p)}: put these cards in order", choices, mode=ORDER,
                    min=len(p.cards), max=len(p.cards), cancel=SortResponse(order=None),
                    cancel_label="keep this order", build=build)


def _q_mask(p: MsgAnnounceRace | MsgAnnounceAttrib, w: Words, hint: int | None) -> Question:
    kind = kind_of(p)
    assert isinstance(kind, MaskKind)
    is_race = kind is ANNOUNCE_RACE
    words = RACE_WORDS if is_race else ATTRIBUTE_WORDS
    choices: list[Choice] = []
    for bit, word in sorted(words.items()):
        if p.available & bit:
            choices.append(Choice(len(choices) + 1, word, None, bit))

    def build(bits: list[int]) -> Response:
        mask = 0
        for b in bits:
            mask |= b
        answer: Response = kind.answer(mask)
        return answer

    what = "Type(s)" if is_race else "Attribute(s)"
    return Question(p, f"{_who(w, p)}: declare {p.count} {what}", choices, mode=MANY, min=p.count,
                    max=p.count, build=build)


def _q_number(p: MsgAnnounceNumber, w: Words, hint: int | None) -> Question:
    choices = [Choice(i + 1, str(v), None, r) for i, (v, r) in enumerate(zip(p.options, kind_of(p).legal(p)))]
    return Question(p, f"{_who(w, p)}: declare a number", choices)


def _q_rps(p: MsgRockPaperScissors, w: Words, hint: int | None) -> Question:
    choices = [Choice(r.choice, RPS_WORDS[r.choice], None, r) for r in kind_of(p).legal(p)]
    return Question(p, f"{_who(w, p)}: rock, paper, scissors!", choices)


SEARCH_LIMIT = 30


def _q_announce_card(p: MsgAnnounceCard, w: Words, hint: int | None) -> Question:
    db = w.db

    def search(text: str) -> Question | Response:
        t = text.strip()
        if t.isdigit():
            rec = db.find(int(t))
            if rec is None:
                raise AnswerError(f"no card {t} in the database")
            if not is_declarable(rec, p.options):
                raise AnswerError(f"{rec.name} cannot be declared here")
            return AnnounceCardResponse(code=rec.code)
        low = t.lower()
        found = [rec for rec in db if rec.name and low in rec.name.lower() and is_declarable(rec, p.options)]
        if not found:
            raise AnswerError(f"no card that may be declared here has {t!r} in its name")
        exact = [rec for rec in found if rec.name.lower() == low]
        if len(exact) == 1:
            return AnnounceCardResponse(code=exact[0].code)
        shown = found[:SEARCH_LIMIT]
        more = f" (first {SEARCH_LIMIT} of {len(found)}: type more of the name to narrow)" \
            if len(found) > SEARCH_LIMIT else ""
        choices = [Choice(i + 1, f"{rec.name} [{rec.code}]", rec.code, AnnounceCardResponse(code=rec.code))
                   for i, rec in enumerate(shown)]
        return Question(p, f"Cards matching {t!r}{more}:", choices)

    return Question(p, f"{_who(w, p)}: declare a card name", [], mode=SEARCH, search=search)


_BUILDERS: dict[type, Callable[[Any, Words, int | None], Question]] = {
    MsgSelectIdleCmd: _q_idle,
    MsgSelectBattleCmd: _q_battle,
    MsgSelectChain: _q_chain,
    MsgSelectEffectYn: _q_effect_yn,
    MsgSelectYesNo: _q_yes_no,
    MsgSelectOption: _q_option,
    MsgSelectCard: _q_card,
    MsgSelectUnselectCard: _q_unselect,
    MsgSelectPlace: _q_place,
    MsgSelectDisfield: _q_place,
    MsgSelectPosition: _q_position,
    MsgSelectTribute: _q_tribute,
    MsgSelectCounter: _q_counter,
    MsgSelectSum: _q_sum,
    MsgSortCard: _q_sort,
    MsgAnnounceRace: _q_mask,
    MsgAnnounceAttrib: _q_mask,
    MsgAnnounceCard: _q_announce_card,
    MsgAnnounceNumber: _q_number,
    MsgRockPaperScissors: _q_rps,
}


# =========================================================================================
# the log
# =========================================================================================

def narrate(msg: Message, w: Words) -> str | None:
    """One readable line for a message (None for the ones a player does not need to read)."""
    if msg.IS_PROMPT:
        return None
    if isinstance(msg, MsgNewTurn):
        return f"=== Turn: {_player_words(w, msg.player)} ==="
    if isinstance(msg, MsgNewPhase):
        return f"-- {PHASE_WORDS.get(msg.phase, f'phase {msg.phase:#x}')}"
    if isinstance(msg, MsgDraw):
        if w.hidden(msg.player, C.LOCATION_HAND, None):
            return f"{_says(w, msg.player, 'draw')} {_count(len(msg.codes), 'card')}"
        return f"{_says(w, msg.player, 'draw')}: " + ", ".join(w.name(c) for c in msg.codes)
    if isinstance(msg, MsgMove):
        prev, cur = msg.previous, msg.current
        code = msg.code
        if w.hidden(cur.controller, cur.location, cur.position) and \
                w.hidden(prev.controller, prev.location, prev.position):
            code = 0
        name = w.name(code) if code else "a card"
        return f"{name}: {w.loc(prev)} -> {w.loc(cur)}"
    if isinstance(msg, (MsgSummoning, MsgSpSummoning, MsgFlipSummoning)):
        verb = {MsgSummoning: "Normal Summoned", MsgSpSummoning: "Special Summoned",
                MsgFlipSummoning: "Flip Summoned"}[type(msg)]
        if not isinstance(msg, MsgFlipSummoning):
            verb = _summon_kind(w, msg.code, msg.loc) or verb
        return f"{w.name(msg.code)} is {verb} to {w.loc(msg.loc)}"
    if isinstance(msg, MsgSet):
        if msg.code and not w.hidden(msg.loc.controller, msg.loc.location, C.POS_FACEDOWN):
            return f"{w.name(msg.code)} is Set in {w.loc(msg.loc)}"
        return f"a card is Set in {w.loc(msg.loc)}"
    if isinstance(msg, MsgPosChange):
        return (f"{w.name(msg.code)} ({w.place(msg.controller, msg.location, msg.sequence)}) changes to "
                f"{POSITION_WORDS.get(msg.current_position & 0x7F, f'position {msg.current_position:#x}')}")
    if isinstance(msg, MsgChaining):
        d = w.desc(msg.description)
        return (f"Chain Link {msg.chain_count}: {w.name(msg.code)} ({w.loc(msg.loc)}) activates"
                + (f": {d}" if d else ""))
    if isinstance(msg, MsgChainNegated):
        return f"Chain Link {msg.chain_count} is negated"
    if isinstance(msg, MsgChainDisabled):
        return f"the effect of Chain Link {msg.chain_count} is negated"
    if isinstance(msg, MsgChainEnd):
        return "the chain has resolved"
    if isinstance(msg, MsgDamage):
        return f"{_says(w, msg.player, 'take')} {msg.amount} damage"
    if isinstance(msg, MsgRecover):
        return f"{_says(w, msg.player, 'gain')} {msg.amount} LP"
    if isinstance(msg, MsgPayLpCost):
        return f"{_says(w, msg.player, 'pay')} {msg.amount} LP"
    if isinstance(msg, MsgLpUpdate):
        return f"{_player_words(w, msg.player)}: LP set to {msg.lp}"
    if isinstance(msg, MsgAttack):
        target = "directly" if msg.target is None else _field_card(w, msg.target)
        return f"{_field_card(w, msg.attacker)} attacks {target}"
    if isinstance(msg, MsgBattle):
        a = f"{msg.attacker_atk}/{msg.attacker_def}"
        if msg.target is None:
            return None
        out = f"battle: {a} vs {msg.target_atk}/{msg.target_def}"
        lost = [x for x, d in (("attacker", msg.attacker_destroyed), ("defender", msg.target_destroyed)) if d]
        if lost:
            out += " -- " + " and ".join(lost) + " destroyed"
        return out
    if isinstance(msg, MsgEquip):
        return f"{_field_card(w, msg.card)} is equipped to {_field_card(w, msg.target)}"
    if isinstance(msg, MsgTossCoin):
        return "coin toss: " + ", ".join("heads" if r else "tails" for r in msg.results)
    if isinstance(msg, MsgTossDice):
        return "die roll: " + ", ".join(str(r) for r in msg.results)
    if isinstance(msg, (MsgConfirmCards, MsgConfirmDecktop, MsgConfirmExtratop)):
        return "revealed: " + ", ".join(f"{w.name(c.code)} ({w.place(c.controller, c.location, c.sequence)})"
                                        for c in msg.cards)
    if isinstance(msg, (MsgAddCounter, MsgRemoveCounter)):
        verb = "gets" if isinstance(msg, MsgAddCounter) else "loses"
        return (f"{_field_card(w, LocInfo(controller=msg.controller, location=msg.location, sequence=msg.sequence, position=0))}"
                f" {verb} {counters_words({msg.counter_type: msg.count})}")
    if isinstance(msg, (MsgCardTarget, MsgCancelTarget)):
        verb = "now targets" if isinstance(msg, MsgCardTarget) else "no longer targets"
        return f"{_field_card(w, msg.card)} {verb} {_field_card(w, msg.target)}"
    if isinstance(msg, MsgBecomeTarget):
        return "targeted: " + ", ".join(_field_card(w, c) for c in msg.cards)
    if isinstance(msg, MsgSwap):
        return f"{w.name(msg.code1)} ({w.loc(msg.loc1)}) and {w.name(msg.code2)} ({w.loc(msg.loc2)}) swap places"
    if isinstance(msg, MsgMissedEffect):
        return f"the effect of {w.name(msg.code)} missed its timing"
    if isinstance(msg, MsgShuffleDeck):
        return f"{_player_words(w, msg.player)}: Deck shuffled"
    if isinstance(msg, MsgSwapGraveDeck):
        return f"{_player_words(w, msg.player)}: Deck and GY swapped"
    if isinstance(msg, MsgHandRes):
        h0, h1 = msg.hands
        return f"rock, paper, scissors: P0 {RPS_WORDS.get(h0, h0)}, P1 {RPS_WORDS.get(h1, h1)}"
    if isinstance(msg, MsgFieldDisabled):
        return "disabled zones changed"
    if isinstance(msg, MsgShowHint):
        return f"hint: {msg.text}"
    if isinstance(msg, MsgAiName):
        return f"your opponent: {msg.text}"
    if isinstance(msg, MsgWin):
        if msg.player == 2:
            return "*** The duel is a draw ***"
        return f"*** {_says(w, msg.player, 'win')} ({win_words(msg.reason)}) ***"
    if isinstance(msg, MsgHint):
        if msg.type == C.HINT_OPSELECTED:
            return f"{_says(w, msg.player, 'choose', 'chose')}: {w.desc(msg.data)}"
        if msg.type in (C.HINT_CARD,) and msg.data:
            return f"effect of {w.name(msg.data)}"
        if msg.type == C.HINT_NUMBER:
            return f"declared: {msg.data}"
        if msg.type == C.HINT_CODE:
            return f"declared: {w.name(msg.data)}"
        if msg.type == C.HINT_RACE:
            return f"declared: {_mask_words(msg.data, RACE_WORDS)}"
        if msg.type == C.HINT_ATTRIB:
            return f"declared: {_mask_words(msg.data, ATTRIBUTE_WORDS)}"
        return None
    return None


def _says(w: Words, player: int, verb: str, past: str | None = None) -> str:
    """Subject and verb: "You draw", "Opponent draws", "Player 1 draws" (or the past form)."""
    who = _player_words(w, player)
    if past is not None:
        return f"{who} {past}"
    if who == "You":
        return f"You {verb}"
    return f"{who} {verb}es" if verb.endswith(("s", "sh", "ch")) else f"{who} {verb}s"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _player_words(w: Words, player: int) -> str:
    if w.viewer is None:
        return f"Player {player}"
    return "You" if player == w.viewer else "Opponent"


def _engine_card(w: Words, controller: int, location: int, sequence: int) -> Any:
    """The engine card at a place (field zone or the index of a pile), or None."""
    eng = w.duel.engine
    loc = location & 0x7F
    if loc in (C.LOCATION_MZONE, C.LOCATION_SZONE) and not location & C.LOCATION_OVERLAY:
        return eng.get_field_card(controller, loc, sequence)
    pl = eng.player[controller]
    pile = {C.LOCATION_GRAVE: pl.list_grave, C.LOCATION_REMOVED: pl.list_remove,
            C.LOCATION_HAND: pl.list_hand, C.LOCATION_EXTRA: pl.list_extra,
            C.LOCATION_DECK: pl.list_main}.get(loc)
    if pile is None or not 0 <= sequence < len(pile):
        return None
    return pile[sequence]


def _summon_kind(w: Words, code: int, loc: LocInfo) -> str | None:
    """How the card at ``loc`` was summoned ("Synchro Summoned"), from its summon type."""
    card = _engine_card(w, loc.controller, loc.location, loc.sequence)
    if card is None or card.data.code != code:
        return None
    return SUMMON_KIND_WORDS.get((card.summon_info & 0xFF000000) >> 24)


def _field_card(w: Words, loc: LocInfo) -> str:
    card = _engine_card(w, loc.controller, loc.location, loc.sequence)
    if card is not None and not w.hidden(loc.controller, loc.location, card.current.position):
        return f"{w.name(card.data.code)} ({w.loc(loc)})"
    return w.loc(loc)


# =========================================================================================
# the board
# =========================================================================================

def board_text(duel: Any, viewer: int | None = None) -> str:
    """The board as text, from ``viewer``'s side (None: everything shown)."""
    w = Words(duel, viewer)
    st = duel.state()
    phase = phase_words(st.turn, st.phase)
    lines = [f"Turn {st.turn} -- {_player_words(w, st.turn_player)} ({'P' + str(st.turn_player)}) -- {phase}"]
    order = (1 - viewer, viewer) if viewer in (0, 1) else (1, 0)
    for p in order:
        ps = st.players[p]
        counts = (f"hand {len(ps.at(C.LOCATION_HAND))} | deck {len(ps.at(C.LOCATION_DECK))} | "
                  f"GY {len(ps.at(C.LOCATION_GRAVE))} | banished {len(ps.at(C.LOCATION_REMOVED))} | "
                  f"extra {len(ps.at(C.LOCATION_EXTRA))}")
        who = _player_words(w, p)
        lines.append(f"[P{p}] {who}: LP {ps.lp} | {counts}")
        for loc, tag in ((C.LOCATION_MZONE, "M"), (C.LOCATION_SZONE, "S")):
            for c in ps.at(loc):
                lines.append("    " + _board_card(w, c, tag))
        hand = ps.at(C.LOCATION_HAND)
        if hand and not w.hidden(p, C.LOCATION_HAND, None):
            lines.append("    hand: " + grouped([c.name for c in hand]))
        extra = ps.at(C.LOCATION_EXTRA)
        if extra and not w.hidden(p, C.LOCATION_EXTRA, None):
            lines.append("    Extra Deck: " + grouped([c.name for c in extra]))
        grave = ps.at(C.LOCATION_GRAVE)
        if grave:
            lines.append("    GY: " + grouped([c.name for c in grave]))
        removed = ps.at(C.LOCATION_REMOVED)
        if removed:
            lines.append("    banished: " + grouped([
                "(face-down)" if w.hidden(p, C.LOCATION_REMOVED, c.position) else c.name for c in removed]))
    if st.chain:
        lines.append("Chain: " + ", ".join(f"{n}: {w.name(code)}" for code, n in st.chain))
    return "\n".join(lines)


def _board_card(w: Words, c: Any, tag: str) -> str:
    seq = c.sequence
    if tag == "M":
        slot = f"M{seq + 1}" if seq < 5 else f"EMZ{seq - 4}"
    else:
        slot = "FZ" if seq == 5 else (f"PZ{seq - 5}" if seq >= 6 else f"S{seq + 1}")
    facedown = bool(c.position & C.POS_FACEDOWN)
    if w.hidden(c.controller, c.location, c.position):
        # the opponent's Set card: the client shows its back, nothing more
        return f"{slot:>4}  Set card" + ("  [set DEF]" if c.position == C.POS_FACEDOWN_DEFENSE else "")
    text = f"{slot:>4}  " + (f"Set card: {c.name}" if facedown else c.name)
    if c.attack is not None:
        text += f"  {c.attack}/{c.defense}"
    if c.level:
        text += f"  L{c.level}"
    if c.location == C.LOCATION_MZONE:
        text += f"  [{SHORT_POSITION.get(c.position, f'position {c.position:#x}')}]"
    if c.counters:
        text += "  counters: " + counters_words(c.counters)
    if c.materials:
        text += f"  ({_count(len(c.materials), 'material')})"
    if tag == "S":
        card = w.duel.engine.get_field_card(c.controller, C.LOCATION_SZONE, seq)
        target = getattr(card, "equiping_target", None)
        if target is not None:
            tl = target.current
            text += f"  (equipped to {w.place(tl.controler, tl.location, tl.sequence)})"
    return text


# =========================================================================================
# a session: who answers what
# =========================================================================================

HUMAN = "human"
PlayerSpec = Any   # "human" or a callable (duel, prompt) -> Response


class PlaySession:
    """A duel in which some players are people (``"human"``) and the others
    callables such as ``RandomPlayer``.  ``next_question()`` runs the duel to the
    next decision a person must make; ``answer()`` sends their answer."""

    def __init__(self, duel: Any, players: Sequence[PlayerSpec], *, auto_pass_empty_chain: bool = True,
                 max_responses: int | None = None, viewer: int | None = -1) -> None:
        if len(players) != 2:
            raise ValueError("a session needs two players")
        self.duel = duel
        self.players = list(players)
        self.auto_pass = auto_pass_empty_chain
        self.max_responses = max_responses
        self._seen = 0
        self._log: list[str] = []
        self.last_hint: dict[int, int] = {}
        self.question: Question | None = None
        humans = [i for i, p in enumerate(self.players) if p == HUMAN]
        if viewer == -1:
            # one person: their side; two people at one terminal: whoever is asked
            viewer = humans[0] if len(humans) == 1 else None
        self.viewer: int | None = viewer
        self.stopped: str | None = None
        self._host_log_seen = 0

    # ----- the log ------------------------------------------------------------------------

    def _collect(self) -> None:
        msgs = self.duel.messages
        while self._seen < len(msgs):
            m = msgs[self._seen]
            self._seen += 1
            if isinstance(m, MsgHint) and m.type == C.HINT_SELECTMSG:
                self.last_hint[m.player] = m.data
            line = narrate(m, Words(self.duel, self.viewer))
            if line:
                self._log.append(line)
        host = self.duel.script_host
        log = getattr(host, "log", None)
        if log is not None:
            while self._host_log_seen < len(log):
                kind, text = log[self._host_log_seen]
                self._host_log_seen += 1
                self._log.append(f"message: {text}" if kind == 2 else f"script error: {text}")

    def take_log(self) -> list[str]:
        """Log lines written since the last call."""
        self._collect()
        out, self._log = self._log, []
        return out

    # ----- playing ------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.duel.finished or self.stopped is not None

    def next_question(self) -> Question | None:
        """Run until a person must decide; None when the duel is over (or stopped)."""
        while True:
            if self.stopped is not None:
                return None
            req = self.duel.advance()
            self._collect()
            if req is None:
                return None
            if self.max_responses is not None and self.duel.responses >= self.max_responses:
                self.stopped = "response_limit"
                return None
            who = self.players[req.player]
            if who != HUMAN:
                self.duel.respond(who(self.duel, req))
                continue
            if (self.auto_pass and isinstance(req, MsgSelectChain) and not req.chains):
                self.duel.respond(ChainResponse(index=None))
                continue
            # the question is worded for whoever answers it (in a puzzle the person also
            # answers the prompts the core leaves to player 1); the board keeps its side
            self.question = question_for(self.duel, req, viewer=req.player, hint=self.last_hint.get(req.player))
            return self.question

    def answer(self, question: Question, text: str) -> Question | None:
        """Answer ``question`` with typed text.  Returns a narrower question when the
        text was a search (a card name), else None.  Raises AnswerError."""
        out = question.answer(text)
        if isinstance(out, Question):
            self.question = out
            return out
        self.respond(out)
        return None

    def respond(self, response: Response) -> None:
        self.duel.respond(response)
        self.question = None

    def board_text(self, viewer: int | None = None) -> str:
        v = viewer if viewer is not None else (self.viewer if self.viewer is not None else
                                               (self.question.player if self.question else None))
        return board_text(self.duel, v)

    def result_text(self) -> str:
        win = self.duel.win()
        w = Words(self.duel, self.viewer)
        if win is None:
            return "The duel was stopped before it ended." if self.stopped else "The duel has not ended."
        if win.player == 2:
            return "The duel ended in a draw."
        return f"{_player_words(w, win.player)} (P{win.player}) won: {win_words(win.reason)}."


# =========================================================================================
# setting a duel up from deck files
# =========================================================================================

DEMO_DECKS = ("demo_a.ydk", "demo_b.ydk")


def bundled_deck(name: str) -> Path:
    """A deck file shipped with duelhost (cards/demo_a.ydk, demo_b.ydk)."""
    import sysconfig

    here = Path(__file__).resolve().parent.parent / "cards" / name
    for cand in (here, Path(sysconfig.get_path("data")) / "share" / "duelhost" / "cards" / name):
        if cand.is_file():
            return cand
    raise FileNotFoundError(f"the bundled deck {name} was not found")


def duel_from_decks(decks: Sequence[str | Path] = (), *, scripts: str | Path | None = None,
                    db: Any = None, seed: int = 0, shuffle: bool = True, lp: int = 8000) -> Any:
    """A started duel: player 0 gets the first deck, player 1 the second (one deck: both
    players use it; none: the bundled demo decks).  Decks are shuffled from ``seed``."""
    from duelhost.engine.ydk import read_ydk
    from duelhost.host import Duel

    files = [Path(d) for d in decks]
    if not files:
        files = [bundled_deck(n) for n in DEMO_DECKS]
    elif len(files) == 1:
        files = files * 2
    elif len(files) > 2:
        raise ValueError("give at most two decks (player 0's, then player 1's)")
    duel = Duel(db=db, scripts=scripts, seed=seed)
    for p, f in enumerate(files):
        deck = read_ydk(f)
        missing = [c for c in deck.main + deck.extra if c not in duel.db]
        if missing:
            raise ValueError(f"{f}: card(s) {', '.join(map(str, sorted(set(missing))))} are not in "
                             f"the card database {duel.db.source}")
        duel.set_player(p, lp=lp)
        duel.add_deck(p, deck.main, deck.extra, shuffle=shuffle)
    duel.start()
    return duel
