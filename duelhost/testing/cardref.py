"""A card of a scenario (``CardRef``) and how a test names one.

Used by scenario.py (which makes the references), expect.py (which checks
them) and answers.py's callers; it needs neither of them, so each imports it at
load time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from duelhost.engine import constants as C

from . import words

if TYPE_CHECKING:
    from .scenario import Scenario

__all__ = ["CardRef", "in_location", "matches"]


class CardRef:
    """A card of the scenario: stays the same card wherever it moves (its engine card is ``engine``)."""

    __slots__ = ("scenario", "engine")

    def __init__(self, scenario: "Scenario", engine_card: Any) -> None:
        self.scenario = scenario
        self.engine = engine_card

    # identity
    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardRef) and other.engine is self.engine

    def __hash__(self) -> int:
        return id(self.engine)

    def __repr__(self) -> str:
        return f"<{words.card_words(self.scenario, self.engine)}>"

    __str__ = __repr__

    # what it is
    @property
    def code(self) -> int:
        return self.engine.data.code

    @property
    def name(self) -> str:
        return self.scenario.card_name(self.code)

    @property
    def owner(self) -> int:
        return self.engine.owner

    @property
    def controller(self) -> int:
        return self.engine.current.controler

    @property
    def location(self) -> int:
        """LOCATION_* (LOCATION_OVERLAY for an Xyz material)."""
        if self.engine.overlay_target is not None:
            return C.LOCATION_OVERLAY
        return self.engine.current.location

    @property
    def sequence(self) -> int:
        return self.engine.current.sequence

    column = sequence

    @property
    def position(self) -> int:
        return self.engine.current.position

    @property
    def where(self) -> str:
        """Where the card is, in words."""
        c = self.engine
        if c.overlay_target is not None:
            return f"Xyz material of {words.card_label(self.scenario, c.overlay_target)}"
        return words.zone_word(c.current.controler, c.current.location, c.current.sequence, pzone=bool(c.current.pzone))

    @property
    def is_face_up(self) -> bool:
        return bool(self.engine.current.position & C.POS_FACEUP)

    @property
    def is_face_down(self) -> bool:
        return bool(self.engine.current.position & C.POS_FACEDOWN)

    @property
    def is_attack_position(self) -> bool:
        return bool(self.engine.current.position & C.POS_ATTACK)

    @property
    def is_defense_position(self) -> bool:
        return bool(self.engine.current.position & C.POS_DEFENSE)

    @property
    def on_field(self) -> bool:
        return self.engine.overlay_target is None and bool(
            self.engine.current.location & (C.LOCATION_MZONE | C.LOCATION_SZONE))

    @property
    def atk(self) -> int:
        """Current ATK (the printed ATK off the field)."""
        if self.engine.current.location == C.LOCATION_MZONE:
            return self.engine.get_atk_def()[0]
        return self.engine.data.attack

    @property
    def defense(self) -> int:
        if self.engine.current.location == C.LOCATION_MZONE:
            return self.engine.get_atk_def()[1]
        return self.engine.data.defense

    def_ = defense

    @property
    def level(self) -> int:
        return self.engine.get_level()

    @property
    def rank(self) -> int:
        return self.engine.get_rank()

    @property
    def counters(self) -> dict[int, int]:
        return {t: n for t, n in sorted(self.engine.counters.items()) if n}

    def counter(self, counter_type: int) -> int:
        """How many counters of this type (the engine's get_counter)."""
        return self.engine.get_counter(counter_type)

    @property
    def materials(self) -> list["CardRef"]:
        return [self.scenario.ref(m) for m in self.engine.xyz_materials]

    @property
    def equipped_to(self) -> "CardRef | None":
        t = self.engine.equiping_target
        return None if t is None else self.scenario.ref(t)

    @property
    def is_token(self) -> bool:
        return bool(self.engine.data.type & C.TYPE_TOKEN)

    def show(self) -> str:
        return words.card_words(self.scenario, self.engine)


def in_location(ref: CardRef, loc: int) -> bool:
    """Whether the card is in ``loc`` (a LOCATION_* mask, words.FIELD_ZONE or words.PENDULUM_ZONE)."""
    c = ref.engine
    if loc == C.LOCATION_OVERLAY:
        return c.overlay_target is not None
    if c.overlay_target is not None:
        return False
    if loc == words.FIELD_ZONE:
        return c.current.location == C.LOCATION_SZONE and c.current.sequence == 5
    if loc == words.PENDULUM_ZONE:
        return c.current.location == C.LOCATION_SZONE and bool(c.current.pzone)
    return bool(c.current.location & loc)


def matches(scenario: Any, spec: Any, ref: CardRef) -> bool:
    """Whether ``spec`` (a CardRef, a code, a name or a predicate on a CardRef) names the card."""
    if isinstance(spec, CardRef):
        return spec.engine is ref.engine
    if isinstance(spec, int):
        return ref.code == spec
    if isinstance(spec, str):
        return ref.name.lower() == spec.strip().lower()
    if callable(spec):
        return bool(spec(ref))
    return False
