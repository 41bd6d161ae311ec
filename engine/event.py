"""Events and chain links.

An ``Event`` (the reference's tevent) is something that happened that effects
can respond to: a code (EVENT_*), the cards involved, the effect and player
that caused it, and a value.  A ``Chain`` is a chain link being built or
resolved: the activated effect, who activated it and from where, its targets
and operation info.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .card_data import CardState
from .constants import PLAYER_NONE

if TYPE_CHECKING:
    from .card import Card
    from .effect import Effect
    from .group import Group

_LOCATION_SZONE = 0x08
_LOCATION_FZONE = 0x100
_LOCATION_PZONE = 0x200


class Event:
    __slots__ = ("trigger_card", "event_cards", "reason_effect", "event_code", "event_value",
                 "reason", "event_player", "reason_player")

    def __init__(self, event_code: int = 0, event_cards: "Group | None" = None,
                 reason_effect: "Effect | None" = None, reason: int = 0,
                 reason_player: int = PLAYER_NONE, event_player: int = PLAYER_NONE,
                 event_value: int = 0, trigger_card: "Card | None" = None) -> None:
        self.trigger_card = trigger_card
        self.event_cards = event_cards
        self.reason_effect = reason_effect
        self.event_code = event_code
        self.event_value = event_value
        self.reason = reason
        self.event_player = event_player
        self.reason_player = reason_player

    def copy(self) -> "Event":
        return Event(self.event_code, self.event_cards, self.reason_effect, self.reason,
                     self.reason_player, self.event_player, self.event_value, self.trigger_card)

    def key(self) -> tuple:
        """Identity of an event's contents (the reference compares events bytewise)."""
        return (id(self.trigger_card), id(self.event_cards), id(self.reason_effect),
                self.event_code, self.event_value, self.reason, self.event_player,
                self.reason_player)

    def __repr__(self) -> str:
        return f"<Event code={self.event_code} ep={self.event_player} ev={self.event_value}>"


class OpTarget:
    """Operation info of one category on a chain link (Duel.SetOperationInfo)."""

    __slots__ = ("op_cards", "op_count", "op_player", "op_param")

    def __init__(self, op_cards: "Group | None" = None, op_count: int = 0,
                 op_player: int = PLAYER_NONE, op_param: int = 0) -> None:
        self.op_cards = op_cards
        self.op_count = op_count
        self.op_player = op_player
        self.op_param = op_param


class Chain:
    """A chain link (or a candidate for one)."""

    __slots__ = ("chain_id", "chain_count", "triggering_player", "triggering_controler",
                 "triggering_location", "triggering_sequence", "triggering_position",
                 "triggering_state", "triggering_effect", "target_cards", "replace_op",
                 "target_player", "target_param", "disable_reason", "disable_player",
                 "evt", "opinfos", "flag", "required_handorset_effects")

    def __init__(self) -> None:
        self.chain_id = 0
        self.chain_count = 0
        self.triggering_player = PLAYER_NONE
        self.triggering_controler = PLAYER_NONE
        self.triggering_location = 0
        self.triggering_sequence = 0
        self.triggering_position = 0
        self.triggering_state = CardState()
        self.triggering_effect: Effect | None = None
        self.target_cards: Group | None = None
        self.replace_op: Any = None
        self.target_player = PLAYER_NONE
        self.target_param = 0
        self.disable_reason: Effect | None = None
        self.disable_player = PLAYER_NONE
        self.evt = Event()
        # category -> OpTarget, in insertion order
        self.opinfos: dict[int, OpTarget] = {}
        self.flag = 0
        self.required_handorset_effects: list[Effect] = []

    def copy(self) -> "Chain":
        """A copy as the reference copies chain structs (shallow: groups are shared)."""
        c = Chain.__new__(Chain)
        for name in Chain.__slots__:
            setattr(c, name, getattr(self, name))
        st = CardState()
        st.copy_from(self.triggering_state)
        c.triggering_state = st
        c.evt = self.evt.copy()
        c.opinfos = dict(self.opinfos)
        c.required_handorset_effects = list(self.required_handorset_effects)
        return c

    def set_triggering_state(self, pcard: "Card") -> None:
        """Record where the activating card is and its stats at this moment."""
        self.triggering_controler = pcard.current.controler
        if pcard.current.is_location(_LOCATION_FZONE):
            self.triggering_location = _LOCATION_SZONE | _LOCATION_FZONE
        elif pcard.current.is_location(_LOCATION_PZONE):
            self.triggering_location = _LOCATION_SZONE | _LOCATION_PZONE
        else:
            self.triggering_location = pcard.current.location
        self.triggering_sequence = pcard.current.sequence
        self.triggering_position = pcard.current.position
        st = self.triggering_state
        st.code = pcard.get_code()
        st.code2 = pcard.get_another_code()
        st.level = pcard.get_level()
        st.rank = pcard.get_rank()
        st.attribute = pcard.get_attribute()
        st.race = pcard.get_race()
        st.attack, st.defense = pcard.get_atk_def()

    def __repr__(self) -> str:
        return f"<Chain id={self.chain_id} #{self.chain_count} {self.triggering_effect!r}>"
