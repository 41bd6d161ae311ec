"""The plain data of a card: its printed data and one snapshot of its place and stats.

``CardData`` is the reference's card_data (card_data.h), ``CardState`` its
card_state (card.h).  They live apart from ``Card`` (engine/card.py) because
the modules ``Card`` is composed of (card_stats.py, ...) and event.py (a chain
link keeps a ``CardState``) need them at import time, while card.py imports
those modules; engine/card.py re-exports both names.  ``CardBase``, the base
class every ``Card`` has, is here for the same reason: group.py and the card_*
modules tell a card from anything else without importing card.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import PLAYER_NONE

if TYPE_CHECKING:
    from .card import Card
    from .effect import Effect

# Location bits used by CardState (full set in constants.py).
_LOCATION_MZONE = 0x04
_LOCATION_SZONE = 0x08
_LOCATION_FZONE = 0x100
_LOCATION_PZONE = 0x200


class CardBase:
    """The base class of ``engine.card.Card`` and of nothing else: ``isinstance(x,
    CardBase)`` is "x is a card" for the modules card.py imports (group.py, the
    card_* mixins), which cannot import the class they are part of."""

    __slots__ = ()


class CardData:
    """The printed data of a card as the core uses it (the reference's 80-byte card_data).

    Mutable on purpose: a few effects and the Debug library change it.
    """

    __slots__ = ("code", "alias", "setcode", "type", "level", "attribute", "race",
                 "attack", "defense", "lscale", "rscale", "link_marker", "rule_code")

    def __init__(self, code: int = 0, alias: int = 0, setcode: tuple[int, ...] = (),
                 type: int = 0, level: int = 0, attribute: int = 0, race: int = 0,
                 attack: int = 0, defense: int = 0, lscale: int = 0, rscale: int = 0,
                 link_marker: int = 0, rule_code: int = 0) -> None:
        self.code = code
        self.alias = alias
        self.setcode = tuple(setcode)
        self.type = type
        self.level = level
        self.attribute = attribute
        self.race = race
        self.attack = attack
        self.defense = defense
        self.lscale = lscale
        self.rscale = rscale
        self.link_marker = link_marker
        self.rule_code = rule_code

    def is_setcode(self, value: int) -> bool:
        """True when one of the card's archetype codes matches ``value``.

        An archetype code matches when its low 12 bits equal the value's low 12
        bits and it carries every sub-archetype bit (0xf000) the value asks for.
        """
        settype = value & 0x0FFF
        setsubtype = value & 0xF000
        for sc in self.setcode:
            if not sc:
                return False
            if (sc & 0x0FFF) == settype and (sc & setsubtype) == setsubtype:
                return True
        return False

    def get_original_code(self) -> int:
        """The code printed on the card: the alias for an alternate artwork, else the code."""
        return self.alias if self.alias else self.code

    def get_duel_code(self) -> int:
        return self.rule_code if self.rule_code else self.get_original_code()

    def copy(self) -> "CardData":
        return CardData(self.code, self.alias, self.setcode, self.type, self.level,
                        self.attribute, self.race, self.attack, self.defense,
                        self.lscale, self.rscale, self.link_marker, self.rule_code)

class CardState:
    """One snapshot of a card's place and stats (the reference's card_state)."""

    __slots__ = ("code", "code2", "setcode", "type", "level", "rank", "link", "lscale",
                 "rscale", "attribute", "race", "attack", "defense", "base_attack",
                 "base_defense", "controler", "location", "sequence", "position",
                 "reason", "reason_card", "reason_effect", "reason_player", "pzone")

    def __init__(self) -> None:
        self.code = 0
        self.code2 = 0
        self.setcode: tuple[int, ...] = ()
        self.type = 0
        self.level = 0
        self.rank = 0
        self.link = 0
        self.lscale = 0
        self.rscale = 0
        self.attribute = 0
        self.race = 0
        self.attack = 0
        self.defense = 0
        self.base_attack = 0
        self.base_defense = 0
        self.controler = PLAYER_NONE
        self.location = 0
        self.sequence = 0
        self.position = 0
        self.reason = 0
        self.reason_card: Card | None = None
        self.reason_effect: Effect | None = None
        self.reason_player = PLAYER_NONE
        self.pzone = False

    def is_location(self, loc: int) -> bool:
        """Location test that understands the Field Zone and Pendulum Zones.

        The Field Zone is Spell & Trap Zone sequence 5; a Pendulum Zone is a
        Spell & Trap Zone flagged ``pzone``.
        """
        if (loc & _LOCATION_FZONE) and self.location == _LOCATION_SZONE and self.sequence == 5:
            return True
        if (loc & _LOCATION_PZONE) and self.location == _LOCATION_SZONE and self.pzone:
            return True
        return bool(self.location & loc)

    def is_main_mzone(self) -> bool:
        return self.location == _LOCATION_MZONE and 0 <= self.sequence <= 4

    def is_stzone(self) -> bool:
        return self.location == _LOCATION_SZONE and 0 <= self.sequence <= 4

    def init_state(self) -> None:
        """Mark every stat unknown (the reference fills them with all-ones)."""
        self.code = 0xFFFFFFFF
        self.code2 = 0xFFFFFFFF
        self.type = 0xFFFFFFFF
        self.level = 0xFFFFFFFF
        self.rank = 0xFFFFFFFF
        self.link = 0xFFFFFFFF
        self.lscale = 0xFFFFFFFF
        self.rscale = 0xFFFFFFFF
        self.attribute = 0xFFFFFFFF
        self.race = 0xFFFFFFFF
        self.attack = -1
        self.defense = -1
        self.base_attack = -1
        self.base_defense = -1
        self.controler = 0xFF
        self.location = 0xFF
        self.sequence = 0xFF
        self.position = 0xFF
        self.reason = 0xFFFFFFFF
        self.reason_player = 0xFF

    def copy_from(self, other: "CardState") -> None:
        for name in CardState.__slots__:
            setattr(self, name, getattr(other, name))
