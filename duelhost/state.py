"""A readable snapshot of a duel: LP, turn, phase, every card with its current stats.

``Duel.state()`` returns a ``DuelState``; ``str(state)`` draws the board as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duelhost.engine import constants as C

LOCATION_NAMES = {
    C.LOCATION_DECK: "Deck", C.LOCATION_HAND: "Hand", C.LOCATION_MZONE: "Monster Zone",
    C.LOCATION_SZONE: "Spell & Trap Zone", C.LOCATION_GRAVE: "GY", C.LOCATION_REMOVED: "Banished",
    C.LOCATION_EXTRA: "Extra Deck", C.LOCATION_OVERLAY: "Material",
}
POSITION_NAMES = {
    C.POS_FACEUP_ATTACK: "face-up ATK", C.POS_FACEDOWN_ATTACK: "face-down ATK",
    C.POS_FACEUP_DEFENSE: "face-up DEF", C.POS_FACEDOWN_DEFENSE: "face-down DEF",
}
PHASE_NAMES = {
    C.PHASE_DRAW: "Draw", C.PHASE_STANDBY: "Standby", C.PHASE_MAIN1: "Main 1",
    C.PHASE_BATTLE_START: "Battle (start)", C.PHASE_BATTLE_STEP: "Battle Step",
    C.PHASE_DAMAGE: "Damage Step", C.PHASE_DAMAGE_CAL: "Damage Calculation",
    C.PHASE_BATTLE: "Battle (end)", C.PHASE_MAIN2: "Main 2", C.PHASE_END: "End",
}


@dataclass(frozen=True)
class CardState:
    code: int
    name: str
    owner: int
    controller: int
    location: int
    sequence: int
    position: int
    attack: int | None
    defense: int | None
    level: int | None
    counters: dict[int, int] = field(default_factory=dict)
    materials: tuple[int, ...] = ()

    @property
    def where(self) -> str:
        return f"{LOCATION_NAMES.get(self.location, hex(self.location))} #{self.sequence}"

    def __str__(self) -> str:
        parts = [f"{self.name} ({self.code})"]
        if self.location in (C.LOCATION_MZONE, C.LOCATION_SZONE):
            parts.append(POSITION_NAMES.get(self.position, hex(self.position)))
        if self.attack is not None:
            parts.append(f"{self.attack}/{self.defense}")
        if self.counters:
            parts.append("counters " + ", ".join(f"0x{t:x}:{n}" for t, n in sorted(self.counters.items())))
        if self.materials:
            parts.append(f"{len(self.materials)} material(s)")
        return " ".join(parts)


@dataclass(frozen=True)
class PlayerState:
    lp: int
    cards: dict[int, tuple[CardState, ...]]   # location -> cards in sequence order

    def at(self, location: int) -> tuple[CardState, ...]:
        return self.cards.get(location, ())


@dataclass(frozen=True)
class DuelState:
    turn: int
    turn_player: int
    phase: int
    players: tuple[PlayerState, PlayerState]
    chain: tuple[tuple[int, int], ...]   # (code, chain count) of each link, first link first

    def __str__(self) -> str:
        if self.turn == 0 or self.phase == 0:
            lines = [f"Turn {self.turn}, before the first turn"]
        else:
            lines = [f"Turn {self.turn}, player {self.turn_player}'s "
                     f"{PHASE_NAMES.get(self.phase, f'phase {self.phase:#x}')} Phase"]
        for p, ps in enumerate(self.players):
            lines.append(f"Player {p}: {ps.lp} LP")
            for loc in (C.LOCATION_MZONE, C.LOCATION_SZONE, C.LOCATION_HAND, C.LOCATION_GRAVE,
                        C.LOCATION_REMOVED, C.LOCATION_EXTRA):
                cards = ps.at(loc)
                if cards:
                    lines.append(f"  {LOCATION_NAMES[loc]}:")
                    lines.extend(f"    #{c.sequence} {c}" for c in cards)
            deck = ps.at(C.LOCATION_DECK)
            lines.append(f"  Deck: {len(deck)} card(s)")
        if self.chain:
            lines.append("Chain: " + ", ".join(f"{n}: {code}" for code, n in self.chain))
        return "\n".join(lines)


def card_state(duel: Any, pcard: Any) -> CardState:
    on_field_monster = pcard.current.location == C.LOCATION_MZONE
    atk = dfn = lvl = None
    if on_field_monster:
        atk, dfn = pcard.get_atk_def()
        lvl = pcard.get_level()
    return CardState(
        code=pcard.data.code, name=duel.card_name(pcard.data.code), owner=pcard.owner,
        controller=pcard.current.controler, location=pcard.current.location,
        sequence=pcard.current.sequence, position=pcard.current.position,
        attack=atk, defense=dfn, level=lvl, counters=dict(pcard.counters),
        materials=tuple(m.data.code for m in pcard.xyz_materials))


def snapshot(duel: Any) -> DuelState:
    eng = duel.engine
    players = []
    for p in (0, 1):
        pl = eng.player[p]
        piles = {
            C.LOCATION_MZONE: [c for c in pl.list_mzone if c is not None],
            C.LOCATION_SZONE: [c for c in pl.list_szone if c is not None],
            C.LOCATION_HAND: pl.list_hand, C.LOCATION_GRAVE: pl.list_grave,
            C.LOCATION_REMOVED: pl.list_remove, C.LOCATION_EXTRA: pl.list_extra,
            C.LOCATION_DECK: pl.list_main,
        }
        cards = {loc: tuple(card_state(duel, c) for c in lst) for loc, lst in piles.items()}
        players.append(PlayerState(lp=pl.lp, cards=cards))
    chain = tuple((ch.triggering_effect.get_handler().data.code, ch.chain_count)
                  for ch in eng.core.current_chain)
    return DuelState(turn=eng.infos.turn_id, turn_player=eng.infos.turn_player, phase=eng.infos.phase,
                     players=(players[0], players[1]), chain=chain)
