"""Helpers for the effect tests: a duel with a fake script host and hand-placed cards.

The fake host runs plain Python callables as "script functions" and records
every call, so tests can check which function ran with which arguments.
No tests live here.
"""

from __future__ import annotations

from typing import Any, Callable

from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import (
    EFFECT_TYPE_ACTIONS, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS, EFFECT_TYPE_FIELD,
    EFFECT_TYPE_IGNITION, EFFECT_TYPE_QUICK_F, EFFECT_TYPE_QUICK_O, LOCATION_FZONE,
    LOCATION_DECK, LOCATION_EXTRA, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE, LOCATION_REMOVED,
    LOCATION_SZONE, POS_FACEUP_ATTACK, STATUS_EFFECT_ENABLED,
)
from duelhost.engine.core_constants import EFFECT_TYPES_CHAIN_LINK
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect

from fake_script_host import FakeScript


DB = {
    1000: CardData(code=1000, type=0x21, level=4, attack=1800, defense=1000),   # effect monster
    2000: CardData(code=2000, type=0x2, level=0),                                # normal spell
    2001: CardData(code=2001, type=0x10002),                                     # quick-play spell
    3000: CardData(code=3000, type=0x4),                                         # normal trap
    3001: CardData(code=3001, type=0x100004),                                    # counter trap
    4000: CardData(code=4000, type=0x80002),                                     # field spell
}


def make_duel() -> tuple[Duel, FakeScript]:
    script = FakeScript()
    duel = Duel(lambda code: DB.get(code), script=script)
    return duel, script


_LISTS = {
    LOCATION_DECK: "list_main", LOCATION_HAND: "list_hand", LOCATION_GRAVE: "list_grave",
    LOCATION_REMOVED: "list_remove", LOCATION_EXTRA: "list_extra",
}


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
    c.fieldid = c.fieldid_r = c.activate_count_id = duel.infos.field_id
    duel.infos.field_id += 1
    return c


def script_type(v: int) -> int:
    """The type Effect.SetType stores for ``v`` (the reference adds FIELD/ACTIONS bits)."""
    if v & EFFECT_TYPE_ACTIVATE:
        v = EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE
    elif v & (EFFECT_TYPE_IGNITION | EFFECT_TYPE_QUICK_O | EFFECT_TYPE_QUICK_F):
        v |= EFFECT_TYPE_FIELD
    if v & (EFFECT_TYPES_CHAIN_LINK | EFFECT_TYPE_CONTINUOUS):
        v |= EFFECT_TYPE_ACTIONS
    else:
        v &= ~EFFECT_TYPE_ACTIONS
    return v


def new_effect(duel: Duel, owner: Card | None, **fields: Any) -> Effect:
    """An Effect with the given fields; ``owner`` becomes owner and handler unless told otherwise.

    ``type`` is normalised as Effect.SetType does (script_type).
    """
    if "type" in fields:
        fields["type"] = script_type(fields["type"])
        if fields["type"] & EFFECT_TYPE_ACTIVATE:
            fields.setdefault("range", LOCATION_SZONE | LOCATION_FZONE | LOCATION_HAND)
    e = duel.new_effect()
    e.owner = owner
    e.handler = fields.pop("handler", owner)
    flag = fields.pop("flag", 0)
    e.flag = [flag, fields.pop("flag2", 0)]
    for k, v in fields.items():
        setattr(e, k, v)
    return e


def card_stubs(monkeypatch, **methods: Callable) -> None:
    """Give Card the methods other parts of the engine will provide, as test doubles."""
    defaults: dict[str, Callable] = {
        "is_treated_as_not_on_field": lambda self: False,
        "is_affected_by_effect": lambda self, code, target=None: None,
        "get_type": lambda self: self.data.type,
        "filter_effect": lambda self, code, eset=None, sort=True: [] if eset is None else eset,
    }
    defaults.update(methods)
    for name, fn in defaults.items():
        monkeypatch.setattr(Card, name, fn, raising=False)
