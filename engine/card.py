"""A card in the duel: its printed data, where it is, and the effects attached to it.

The state model follows the reference core (card.h): a card has three location
snapshots -- ``current`` (where it is now), ``previous`` (where it was before its
last move) and ``temp`` (scratch copies used during some procedures) -- plus a
``spsummon`` snapshot of its stats when it was Special Summoned.  Statuses are
bit flags (STATUS_*).  Effects attached to the card live in containers keyed by
effect code, in registration order (the reference uses multimaps, whose equal
keys keep insertion order).

Methods that compute current stats (ATK/DEF with continuous effects, level,
type, ...) and the rule checks ("can this card be Normal Summoned?") live in the
mixins imported below, one file per area of the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .card_data import CardBase, CardData, CardState
from .card_stats import PRINTED_ASSUMES, CardStatsMixin
from .group import CardSet
from .card_checks import NULL_INFO, CardChecksMixin, MaterialInfo
from .card_effects import NO_TARGET, CardEffectsMixin, card_operation_key, card_operation_sort
from .constants import (
    GLOBALFLAG_SPSUMMON_ONCE, LOCATION_DECK, PLAYER_NONE, POS_FACEUP_DEFENSE, STATUS_COPYING_EFFECT,
    STATUS_LEAVE_CONFIRMED, STATUS_NO_LEVEL,
)
from .core_constants import CHINT_DESC_ADD
from .messages import LocInfo, MsgCardHint, MsgDeckTop

__all__ = ["Card", "CardData", "CardState", "QueryCache", "SendtoParam", "AttackerMap",
           "EffectContainer", "MaterialInfo", "NULL_INFO", "NO_TARGET", "card_operation_key",
           "card_operation_sort"]

if TYPE_CHECKING:
    from .duel import Duel
    from .effect import Effect


# The location bit used by the core helpers here (full set in constants.py).
_LOCATION_OVERLAY = 0x80


class QueryCache:
    """What the host was last told about a card (used by query_card with caching)."""

    __slots__ = ("info_location", "current_code", "type", "level", "rank", "link",
                 "attribute", "race", "attack", "defense", "base_attack", "base_defense",
                 "reason", "status", "lscale", "rscale", "link_marker")

    def __init__(self) -> None:
        self.clear_cache()

    def clear_cache(self) -> None:
        self.info_location = 0xFFFFFFFF
        self.current_code = 0xFFFFFFFF
        self.type = 0xFFFFFFFF
        self.level = 0xFFFFFFFF
        self.rank = 0xFFFFFFFF
        self.link = 0xFFFFFFFF
        self.attribute = 0xFFFFFFFF
        self.race = 0xFFFFFFFF
        self.attack = -1
        self.defense = -1
        self.base_attack = -1
        self.base_defense = -1
        self.reason = 0xFFFFFFFF
        self.status = 0xFFFFFFFF
        self.lscale = 0xFFFFFFFF
        self.rscale = 0xFFFFFFFF
        self.link_marker = 0xFFFFFFFF


class SendtoParam:
    """Where a card is about to be sent (filled before a move, read by the move)."""

    __slots__ = ("playerid", "position", "location", "sequence")

    def __init__(self) -> None:
        self.clear()

    def set(self, p: int, pos: int, loc: int, seq: int = 0) -> None:
        self.playerid = p
        self.position = pos
        self.location = loc
        self.sequence = seq

    def clear(self) -> None:
        self.playerid = 0
        self.position = 0
        self.location = 0
        self.sequence = 0


class AttackerMap(dict):
    """Cards a monster attacked / was attacked by / battled, keyed by field id.

    Maps fieldid_r (0 for a direct attack) to [card, count].
    """

    def addcard(self, pcard: "Card | None") -> None:
        fid = pcard.fieldid_r if pcard is not None else 0
        entry = self.get(fid)
        if entry is None:
            self[fid] = [pcard, 1]
        else:
            entry[1] += 1

    def findcard(self, pcard: "Card | None") -> int:
        fid = pcard.fieldid_r if pcard is not None else 0
        entry = self.get(fid)
        return 0 if entry is None else entry[1]


class EffectContainer(dict):
    """Effects keyed by code; each key keeps its effects in registration order.

    ``codes``, when given, is a count per code shared by many containers (the
    duel's FieldEffects.card_codes): a look-up for a code no card holds can then
    stop before visiting any card.
    """

    __slots__ = ("codes",)

    def __init__(self, codes: "dict[int, int] | None" = None) -> None:
        super().__init__()
        self.codes = codes

    def add(self, code: int, peffect: "Effect") -> None:
        lst = self.get(code)
        if lst is None:
            self[code] = [peffect]
        else:
            lst.append(peffect)
        codes = self.codes
        if codes is not None:
            codes[code] = codes.get(code, 0) + 1

    def discard(self, code: int, peffect: "Effect") -> None:
        lst = self.get(code)
        if lst is not None:
            try:
                lst.remove(peffect)
            except ValueError:
                return
            if not lst:
                del self[code]
            codes = self.codes
            if codes is not None:
                left = codes[code] - 1
                if left:
                    codes[code] = left
                else:
                    del codes[code]

    def equal_range(self, code: int) -> list["Effect"]:
        """A snapshot of the effects with this code (safe to iterate while changing)."""
        lst = self.get(code)
        return list(lst) if lst else []

    def items(self) -> list[tuple[int, "Effect"]]:  # type: ignore[override]
        """(code, effect) pairs in key order then registration order (a multimap walk)."""
        out: list[tuple[int, Effect]] = []
        for code in sorted(self.keys()):
            out.extend((code, e) for e in dict.__getitem__(self, code))
        return out

    def all_effects(self) -> list["Effect"]:
        """Every effect, in key order then registration order (like a multimap walk)."""
        out: list[Effect] = []
        for code in sorted(self):
            out.extend(self[code])
        return out


class Card(CardStatsMixin, CardChecksMixin, CardEffectsMixin, CardBase):
    """A card: printed data, location snapshots, statuses, counters and attached effects."""

    __slots__ = (
        "duel", "data", "previous", "temp", "current", "spsummon", "q_cache", "owner",
        "summon_player", "summon_info", "status", "sendto_param", "release_param",
        "sum_param", "position_param", "spsummon_param", "to_field_param",
        "attack_announce_count", "direct_attackable", "announce_count", "attacked_count",
        "attack_all_target", "attack_controler", "cardid", "fieldid", "fieldid_r",
        "activate_count_id", "turnid", "turn_counter", "unique_pos", "unique_fieldid",
        "unique_code", "unique_location", "unique_function", "unique_effect",
        "spsummon_code", "spsummon_counter", "assume_type", "assume_value",
        "equiping_target", "pre_equip_target", "overlay_target", "relations", "counters",
        "indestructable_effects", "announced_cards", "attacked_cards", "battled_cards",
        "equiping_cards", "material_cards", "effect_target_owner", "effect_target_cards",
        "xyz_materials", "xyz_materials_previous_count_onfield", "single_effect",
        "field_effect", "equip_effect", "target_effect", "xmaterial_effect", "indexer",
        "relate_effect", "immune_effect", "initial_effect", "owning_effect", "handle",
        "__weakref__",
    )

    def __init__(self, duel: "Duel", data: CardData) -> None:
        self.duel = duel
        self.data = data
        self.previous = CardState()
        self.temp = CardState()
        self.temp.init_state()
        self.current = CardState()
        self.spsummon = CardState()
        self.q_cache = QueryCache()
        self.owner = PLAYER_NONE
        self.summon_player = PLAYER_NONE
        self.summon_info = 0
        self.status = 0
        self.sendto_param = SendtoParam()
        self.release_param = 0
        self.sum_param = 0
        self.position_param = 0
        self.spsummon_param = 0
        self.to_field_param = 0
        self.attack_announce_count = 0
        self.direct_attackable = 0
        self.announce_count = 0
        self.attacked_count = 0
        self.attack_all_target = 0
        self.attack_controler = 0
        self.cardid = 0
        self.fieldid = 0
        self.fieldid_r = 0
        self.activate_count_id = 0
        self.turnid = 0
        self.turn_counter = 0
        self.unique_pos = [0, 0]
        self.unique_fieldid = 0
        self.unique_code = 0
        self.unique_location = 0
        self.unique_function: Any = None
        self.unique_effect: Effect | None = None
        self.spsummon_code = 0
        self.spsummon_counter = [0, 0]
        self.assume_type = 0
        self.assume_value = 0
        self.equiping_target: Card | None = None
        self.pre_equip_target: Card | None = None
        self.overlay_target: Card | None = None
        # card -> reset flags of the relation (create_relation(card, reset))
        self.relations: dict[Card, int] = {}
        # counter type (16 bit) -> count; walk it sorted by type (the reference uses a std::map)
        self.counters: dict[int, int] = {}
        # effect id -> times this turn it kept the card from being destroyed
        self.indestructable_effects: dict[int, int] = {}
        self.announced_cards = AttackerMap()
        self.attacked_cards = AttackerMap()
        self.battled_cards = AttackerMap()
        self.equiping_cards = CardSet()
        self.material_cards = CardSet()
        self.effect_target_owner = CardSet()
        self.effect_target_cards = CardSet()
        self.xyz_materials: list[Card] = []
        self.xyz_materials_previous_count_onfield = 0
        codes = duel.effects.card_codes
        self.single_effect = EffectContainer(codes)
        self.field_effect = EffectContainer()
        self.equip_effect = EffectContainer(codes)
        self.target_effect = EffectContainer(codes)
        self.xmaterial_effect = EffectContainer(codes)
        # effect -> the container it was stored in
        self.indexer: dict[Effect, EffectContainer] = {}
        # (effect, chain id or 0) pairs this card is related to
        self.relate_effect: dict[tuple[Effect, int], None] = {}
        self.immune_effect: list[Effect] = []
        self.initial_effect: dict[Effect, None] = {}
        self.owning_effect: dict[Effect, None] = {}
        # the Lua-side handle (set by the script host); None when no scripts run
        self.handle: Any = None

    # ----- identity -------------------------------------------------------------------

    def __repr__(self) -> str:
        return (f"<Card {self.data.code} id={self.cardid} p{self.current.controler} "
                f"loc=0x{self.current.location:x} seq={self.current.sequence}>")

    def __lt__(self, other: "Card") -> bool:
        """Cards sort by creation order (the reference's card_sort)."""
        return self.cardid < other.cardid

    # ----- statuses ---------------------------------------------------------------------

    def set_status(self, x: int, enabled: bool | int) -> None:
        if enabled:
            self.status |= x
        else:
            self.status &= ~x

    def get_status(self, x: int) -> int:
        """The subset of flags ``x`` that are set."""
        return self.status & x

    def is_status(self, x: int) -> bool:
        """True when every flag of ``x`` is set."""
        return (self.status & x) == x

    def is_position(self, pos: int) -> bool:
        return bool(self.current.position & pos)

    def is_extra_deck_monster(self) -> bool:
        return bool(self.data.type & (0x40 | 0x2000 | 0x800000 | 0x4000000))

    # ----- location encoding (what messages carry) -----------------------------------

    def get_info_location(self) -> int:
        """Controller, location, sequence and position packed in 32 bits, as messages carry them.

        An Xyz material reports its holder's controller and zone with the
        overlay bit, its own index as the position byte.
        """
        if self.overlay_target is not None:
            c = self.overlay_target.current.controler
            l = self.overlay_target.current.location | _LOCATION_OVERLAY
            s = self.overlay_target.current.sequence
            p = self.current.sequence
            return c + (l << 8) + (s << 16) + (p << 24)
        c = self.current.controler
        l = self.current.location
        s = self.current.sequence
        p = self.current.position
        return c + (l << 8) + (s << 16) + (p << 24)

    # ----- statuses set by scripts ------------------------------------------------------

    def set_status_by_script(self: "Card", status: int, enabled: bool) -> None:
        """Card.SetStatus: ignored while the card is copying effects."""
        if self.status & STATUS_COPYING_EFFECT:
            return
        before = self.status
        self.set_status(status, enabled)
        if (before ^ self.status) & STATUS_NO_LEVEL:
            self.duel.printed_stats_changed(self)

    def set_spsummon_once(self: "Card", code: int) -> None:
        """Card.SetSPSummonOnce: only one Special Summon of cards with this code per
        turn (turns on the duel's check); ignored while copying effects."""
        if self.status & STATUS_COPYING_EFFECT:
            return
        self.spsummon_code = code
        self.duel.core.global_flag |= GLOBALFLAG_SPSUMMON_ONCE

    def cancel_to_grave(self: "Card", cancel: bool = True) -> None:
        """Card.CancelToGrave: a card that was going to the GY after resolving stays
        (``cancel``), or is marked to be sent there (added to leave_confirmed)."""
        if cancel:
            self.set_status(STATUS_LEAVE_CONFIRMED, False)
        else:
            self.duel.core.leave_confirmed.add(self)
            self.set_status(STATUS_LEAVE_CONFIRMED, True)

    def assume_property(self: "Card", assume_type: int, assume_value: int) -> None:
        """Card.AssumeProperty: answer stat questions with ``assume_value`` for one
        ASSUME_* stat until the duel restores the assumptions."""
        was = self.assume_type
        self.assume_type = assume_type & 0xFF
        self.assume_value = assume_value & 0xFFFFFFFF
        self.duel.assumes.add(self)
        if was in PRINTED_ASSUMES or self.assume_type in PRINTED_ASSUMES:
            self.duel.printed_stats_changed(self)

    def set_hint(self: "Card", hint_type: int, value: int) -> None:
        """Card.SetHint: show a hint on the card (MSG_CARD_HINT); the description
        hints (CHINT_DESC_ADD and above) are only written by the core."""
        if hint_type >= CHINT_DESC_ADD:
            return
        self.duel.emit(MsgCardHint(loc=LocInfo.from_raw(self.get_info_location()),
                                   type=hint_type & 0xFF, value=value & 0xFFFFFFFF))

    def reverse_in_deck(self: "Card") -> None:
        """Card.ReverseInDeck: turn a Deck card face-up; if it is the top card, the
        top of the Deck is shown (MSG_DECK_TOP)."""
        if self.current.location != LOCATION_DECK:
            return
        self.current.position = POS_FACEUP_DEFENSE
        p = self.current.controler
        if self.current.sequence == len(self.duel.player[p].list_main) - 1:
            self.duel.emit(MsgDeckTop(player=p, sequence=0, code=(self.data.code | 0x80000000) & 0xFFFFFFFF))
