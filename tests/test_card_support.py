"""Helpers for the card tests: a duel with a fake script host, hand-placed cards and effects.

Script functions are plain Python callables; the fake host records every call
so tests can check the arguments a card rule passes to a script.  No tests live here.
"""

from __future__ import annotations

from typing import Any, Callable

from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import (
    EFFECT_FLAG_FUNC_VALUE, LOCATION_DECK, LOCATION_EXTRA, LOCATION_GRAVE, LOCATION_HAND,
    LOCATION_MZONE, LOCATION_REMOVED, LOCATION_SZONE, POS_FACEUP_ATTACK, STATUS_EFFECT_ENABLED,
    TYPE_EFFECT, TYPE_MONSTER,
)
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect

from fake_script_host import FakeScript


MONSTER = TYPE_MONSTER | TYPE_EFFECT

DB: dict[int, CardData] = {
    1000: CardData(code=1000, type=MONSTER, level=4, attribute=0x10, race=0x1, attack=1800, defense=1000),
    1001: CardData(code=1001, type=MONSTER, level=7, attribute=0x20, race=0x2, attack=2500, defense=2100,
                   setcode=(0x1045,)),
    1002: CardData(code=1002, type=0x11, level=3, attack=1200, defense=800, setcode=(0x45,)),
    2000: CardData(code=2000, type=0x2),                       # Normal Spell
    3000: CardData(code=3000, type=0x4),                       # Normal Trap
    4000: CardData(code=4000, type=0x800021, level=4, attack=2000, defense=1500),   # Xyz
    5000: CardData(code=5000, type=0x4000021, level=2, attack=1600, link_marker=0x1A8),  # Link: L, R, T, TR
    6000: CardData(code=6000, type=0x1000021, level=4, attack=1500, defense=1000, lscale=3, rscale=3),  # Pendulum
    7000: CardData(code=7000, type=0x4011, level=1),           # Token
    8000: CardData(code=8000, type=0x41 | 0x20, level=8, attack=3000, defense=2500),  # Fusion
    78734254: CardData(code=78734254, type=MONSTER, level=4, attack=1000),          # Marine Dolphin
    17955766: CardData(code=17955766, type=MONSTER, level=4, attack=900, setcode=(0x10,)),
}

_LISTS = {
    LOCATION_DECK: "list_main", LOCATION_HAND: "list_hand", LOCATION_GRAVE: "list_grave",
    LOCATION_REMOVED: "list_remove", LOCATION_EXTRA: "list_extra",
}


def make_duel(db: dict[int, CardData] | None = None) -> tuple[Duel, FakeScript]:
    script = FakeScript()
    table = DB if db is None else db
    duel = Duel(lambda code: table.get(code), script=script)
    return duel, script


def place(duel: Duel, code: int, p: int, location: int, seq: int = 0,
          position: int = POS_FACEUP_ATTACK, enabled: bool = True) -> Card:
    """Create a card and put it by hand into a zone (no messages, no events)."""
    c = duel.new_card(code)
    c.owner = p
    c.current.controler = p
    c.current.location = location
    c.current.position = position
    if location in (LOCATION_MZONE, LOCATION_SZONE):
        zone = duel.player[p].list_mzone if location == LOCATION_MZONE else duel.player[p].list_szone
        zone[seq] = c
        c.current.sequence = seq
    else:
        lst = getattr(duel.player[p], _LISTS[location])
        c.current.sequence = len(lst)
        lst.append(c)
    if enabled:
        c.set_status(STATUS_EFFECT_ENABLED, True)
    return c


def new_effect(duel: Duel, owner: Card | None, **fields: Any) -> Effect:
    """An Effect with the given fields (owner and handler default to ``owner``).

    ``value`` given as a callable makes it a value function (EFFECT_FLAG_FUNC_VALUE).
    """
    e = duel.new_effect()
    e.owner = owner
    e.handler = fields.pop("handler", owner)
    flag = fields.pop("flag", 0)
    e.flag = [flag, fields.pop("flag2", 0)]
    if callable(fields.get("value")):
        e.flag[0] |= EFFECT_FLAG_FUNC_VALUE
    for k, v in fields.items():
        setattr(e, k, v)
    return e


class Recorder:
    """Replaces duel methods with recorders: ``calls`` lists (name, args)."""

    def __init__(self, duel: Duel, *names: str) -> None:
        self.calls: list[tuple[str, tuple]] = []
        for name in names:
            setattr(duel, name, self._make(name))

    def _make(self, name: str) -> Callable[..., None]:
        def rec(*args: Any) -> None:
            self.calls.append((name, args))
        return rec

    def names(self) -> list[str]:
        return [n for n, _ in self.calls]
