"""Current stats of a card: code, type, level, attribute, race, ATK/DEF with continuous effects (reference: card.cpp).

Every getter here follows the same pattern as the reference:

* an *assumed* value (``assume_type``/``assume_value``, set while the rules ask
  "what if this card had ..." questions) wins over everything;
* outside the places where continuous effects apply, the printed value is used;
* otherwise the printed value is the start and the card's effects of the
  relevant codes are applied in effect order (``effect_sort_key``).

While effects are being applied, the value computed so far is kept in
``self.temp``.  A value function that asks for the same stat again (an effect
whose value depends on the card's own ATK, say) then gets that partial value
instead of recursing forever; ``temp`` goes back to "unknown" (all ones, or -1
for ATK/DEF) when the computation ends.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from .constants import (
    ASSUME_ATTACK, ASSUME_ATTRIBUTE, ASSUME_CODE, ASSUME_DEFENSE, ASSUME_LEVEL, ASSUME_RACE,
    ASSUME_RANK, ASSUME_TYPE, EFFECT_ADD_ATTRIBUTE, EFFECT_ADD_CODE, EFFECT_ADD_FUSION_CODE,
    EFFECT_ADD_FUSION_SETCODE, EFFECT_ADD_LINK_ATTRIBUTE, EFFECT_ADD_LINK_CODE,
    EFFECT_ADD_LINK_RACE, EFFECT_ADD_RACE, EFFECT_ADD_SETCODE, EFFECT_ADD_TYPE,
    EFFECT_CHANGE_ATTRIBUTE, EFFECT_CHANGE_CODE, EFFECT_CHANGE_FUSION_ATTRIBUTE,
    EFFECT_CHANGE_GRAVE_ATTRIBUTE, EFFECT_CHANGE_GRAVE_RACE, EFFECT_CHANGE_LEVEL,
    EFFECT_CHANGE_LSCALE, EFFECT_CHANGE_RACE, EFFECT_CHANGE_RANK, EFFECT_CHANGE_RSCALE,
    EFFECT_CHANGE_TYPE, EFFECT_FLAG2_OPTION, EFFECT_FLAG2_REPEAT_UPDATE, EFFECT_FLAG2_WICKED,
    EFFECT_FLAG_SINGLE_RANGE, EFFECT_PRE_MONSTER, EFFECT_REMOVE_ATTRIBUTE, EFFECT_REMOVE_RACE,
    EFFECT_REMOVE_TYPE, EFFECT_REVEAL_ONFIELD, EFFECT_REVERSE_UPDATE, EFFECT_RITUAL_LEVEL,
    EFFECT_RITUAL_LEVEL_EX, EFFECT_SET_ATTACK, EFFECT_SET_ATTACK_FINAL, EFFECT_SET_BASE_ATTACK,
    EFFECT_SET_BASE_ATTACK_FINAL, EFFECT_SET_BASE_DEFENSE, EFFECT_SET_BASE_DEFENSE_FINAL,
    EFFECT_SET_BATTLE_ATTACK, EFFECT_SET_BATTLE_DEFENSE, EFFECT_SET_DEFENSE,
    EFFECT_SET_DEFENSE_FINAL, EFFECT_SWAP_AD, EFFECT_SWAP_BASE_AD, EFFECT_SYNCHRO_LEVEL,
    EFFECT_SYNCHRO_LEVEL_EX, EFFECT_TYPE_SINGLE, EFFECT_UPDATE_ATTACK, EFFECT_UPDATE_DEFENSE,
    EFFECT_UPDATE_LEVEL, EFFECT_UPDATE_LSCALE, EFFECT_UPDATE_RANK, EFFECT_UPDATE_RSCALE,
    EFFECT_XYZ_LEVEL, EFFECT_XYZ_MIN_COUNT, LINK_MARKER_BOTTOM, LINK_MARKER_BOTTOM_LEFT,
    LINK_MARKER_BOTTOM_RIGHT, LINK_MARKER_LEFT, LINK_MARKER_RIGHT, LINK_MARKER_TOP,
    LINK_MARKER_TOP_LEFT, LINK_MARKER_TOP_RIGHT, LOCATION_DECK, LOCATION_GRAVE, LOCATION_HAND,
    LOCATION_MZONE, LOCATION_ONFIELD, LOCATION_PZONE, LOCATION_SZONE, MAX_XYZ_LEVEL,
    NEW_MASTER_RULE, POS_FACEUP, STATUS_ACTIVATE_DISABLED, STATUS_DISABLED, STATUS_FORBIDDEN,
    STATUS_NO_LEVEL, STATUS_PROC_COMPLETE, STATUS_SPSUMMON_STEP, STATUS_SUMMONING,
    STATUS_SUMMON_DISABLED, SUMMON_INFO_ATTACK, SUMMON_INFO_ATTRIBUTE, SUMMON_INFO_CODE,
    SUMMON_INFO_CODE2, SUMMON_INFO_DEFENSE, SUMMON_INFO_LEVEL, SUMMON_INFO_RACE, SUMMON_INFO_RANK,
    SUMMON_INFO_REASON_EFFECT, SUMMON_INFO_REASON_PLAYER, SUMMON_INFO_TYPE, TYPE_LINK, TYPE_MONSTER,
    TYPE_PENDULUM, TYPE_SPELL, TYPE_TOKEN, TYPE_XYZ,
)
from .core_constants import (
    POS_REVEAL, QUERY_ALIAS, QUERY_ATTACK, QUERY_ATTRIBUTE, QUERY_BASE_ATTACK, QUERY_BASE_DEFENSE,
    QUERY_CODE, QUERY_COUNTERS, QUERY_DEFENSE, QUERY_EQUIP_CARD, QUERY_LEVEL, QUERY_LINK,
    QUERY_LSCALE, QUERY_OVERLAY_CARD, QUERY_OWNER, QUERY_POSITION, QUERY_RACE, QUERY_RANK,
    QUERY_REASON, QUERY_REASON_CARD, QUERY_RSCALE, QUERY_STATUS, QUERY_TARGET_CARD, QUERY_TYPE,
    SECOND_CODE,
)
from .wire import i32 as _i32, u32 as _u32
from .card_data import CardData
from .effect_rules import effect_sort_key
from .group import CardSet

if TYPE_CHECKING:
    from .card import Card
    from .effect import Effect

UINT32_MAX = 0xFFFFFFFF

_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")


def check_setcode(setcode: int, value: int) -> bool:
    """One 16-bit archetype code against an archetype query.

    Matches when the low 12 bits are equal and the code carries every
    sub-archetype bit (0xf000) the query asks for; a zero code never matches.
    """
    settype = value & 0x0FFF
    setsubtype = value & 0xF000
    return bool(setcode) and (setcode & 0x0FFF) == settype and (setcode & setsubtype) == setsubtype


def setcode_list(value: int) -> tuple[int, ...]:
    """The archetype list a 64-bit setcode value stands for (the reference's write_setcode).

    Each non-zero 16-bit chunk, from the low end, is one archetype code.
    """
    value &= 0xFFFFFFFFFFFFFFFF
    out: list[int] = []
    while value:
        if value & 0xFFFF:
            out.append(value & 0xFFFF)
        value >>= 16
    return tuple(out)


# The effects that make a card's names and archetypes, type, Level, Type or Attribute
# differ from its printed ones (Card.GetCode, IsCode, IsSetCard...; GetType, IsType;
# GetLevel, IsLevel...; GetRace, IsRace; GetAttribute, IsAttribute), and the
# assumptions (Card.AssumeProperty) that do.  While none of a kind reaches a card, those
# queries answer from its printed data (printed_stats); the duel tells its script host
# whenever that may change (Duel.printed_stats_changed).
NAME_EFFECTS = frozenset({EFFECT_CHANGE_CODE, EFFECT_ADD_CODE, EFFECT_ADD_SETCODE,
                          EFFECT_ADD_FUSION_CODE, EFFECT_ADD_FUSION_SETCODE, EFFECT_ADD_LINK_CODE})
TYPE_EFFECTS = frozenset({EFFECT_ADD_TYPE, EFFECT_REMOVE_TYPE, EFFECT_CHANGE_TYPE})
LEVEL_EFFECTS = frozenset({EFFECT_UPDATE_LEVEL, EFFECT_CHANGE_LEVEL})
RACE_EFFECTS = frozenset({EFFECT_ADD_RACE, EFFECT_REMOVE_RACE, EFFECT_CHANGE_RACE})
ATTRIBUTE_EFFECTS = frozenset({EFFECT_ADD_ATTRIBUTE, EFFECT_REMOVE_ATTRIBUTE, EFFECT_CHANGE_ATTRIBUTE})
MONSTER_EFFECTS = frozenset({EFFECT_PRE_MONSTER})   # a Spell or Trap treated as a monster
PRINTED_STAT_EFFECTS = (NAME_EFFECTS | TYPE_EFFECTS | LEVEL_EFFECTS | RACE_EFFECTS | ATTRIBUTE_EFFECTS
                        | MONSTER_EFFECTS)
PRINTED_ASSUMES = frozenset({ASSUME_CODE, ASSUME_TYPE, ASSUME_LEVEL, ASSUME_RACE, ASSUME_ATTRIBUTE})
# printed_stats of a card none of whose values is printed
NOTHING_PRINTED = (-1, -1, -1, -1, -1)


def _archetypes(setcode: tuple[int, ...]) -> tuple[int, ...]:
    """A printed archetype list as CardData.is_setcode reads it: up to the first zero."""
    for i, sc in enumerate(setcode):
        if not sc:
            return setcode[:i]
    return setcode


# the statuses of a card "treated as not on the field": being summoned, or its summon or
# activation negated (Card.is_treated_as_not_on_field; the searches of the field skip it)
NOT_ON_FIELD_STATUS = (STATUS_SUMMONING | STATUS_SUMMON_DISABLED | STATUS_ACTIVATE_DISABLED
                       | STATUS_SPSUMMON_STEP)


class CardStatsMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()

    # ----- printed data of other codes ---------------------------------------------------

    def _read_card(self: "Card", code: int) -> "CardData":
        """The database row of ``code``; an unknown code reads as an all-zero row."""
        data = self.duel.card_reader(code)
        return data if data is not None else CardData()

    def check_card_setcode(self: "Card", code: int, value: int) -> bool:
        """True when the card printed with ``code`` belongs to archetype ``value``."""
        return self._read_card(code).is_setcode(value)

    # ----- the host's view of a card (query_card) ----------------------------------------

    def get_public_info_location(self: "Card") -> int:
        """The packed location the host is shown: a face-down card on the field
        under EFFECT_REVEAL_ONFIELD carries the POS_REVEAL bit."""
        info = self.get_info_location()
        if (self.current.location & LOCATION_ONFIELD) and self.is_affected_by_effect(EFFECT_REVEAL_ONFIELD):
            info |= POS_REVEAL << 24
        return info

    def get_infos(self: "Card", query_flag: int, use_cache: int | bool = True) -> bytes:
        """The bytes of one card query, as the reference writes them.

        Layout: int32 total length, uint32 flags actually present, then one field
        per flag in flag order.  With ``use_cache``, a value equal to what the host
        was last told (``q_cache``) is left out and its flag cleared; a changed
        position invalidates the whole cache first.
        """
        out: list[bytes] = []
        u32 = lambda v: out.append(_U32.pack(_u32(v)))  # noqa: E731
        i32 = lambda v: out.append(_I32.pack(_i32(v)))  # noqa: E731
        qc = self.q_cache
        # ATK/DEF are computed once, before anything is written
        atk_def = (-10, -10)
        base_atk_def = (-10, -10)
        if query_flag & (QUERY_ATTACK | QUERY_DEFENSE):
            atk_def = self.get_atk_def()
        if query_flag & (QUERY_BASE_ATTACK | QUERY_BASE_DEFENSE):
            base_atk_def = self.get_base_atk_def()
        if query_flag & QUERY_CODE:
            u32(self.data.code)
        if query_flag & QUERY_POSITION:
            tdata = self.get_public_info_location()
            u32(tdata)
            if qc.info_location != tdata:
                qc.clear_cache()
                qc.info_location = tdata
                use_cache = 0
        # (flag, cache attribute, getter, signed)
        stats: list[tuple[int, str, Any, bool]] = [
            (QUERY_ALIAS, "current_code", self.get_code, False),
            (QUERY_TYPE, "type", self.get_type, False),
            (QUERY_LEVEL, "level", self.get_level, False),
            (QUERY_RANK, "rank", self.get_rank, False),
            (QUERY_ATTRIBUTE, "attribute", self.get_attribute, False),
            (QUERY_RACE, "race", self.get_race, False),
            (QUERY_ATTACK, "attack", lambda: atk_def[0], True),
            (QUERY_DEFENSE, "defense", lambda: atk_def[1], True),
            (QUERY_BASE_ATTACK, "base_attack", lambda: base_atk_def[0], True),
            (QUERY_BASE_DEFENSE, "base_defense", lambda: base_atk_def[1], True),
            (QUERY_REASON, "reason", lambda: self.current.reason, False),
        ]
        for flag, attr, getter, signed in stats:
            if not (query_flag & flag):
                continue
            tdata = _i32(getter()) if signed else _u32(getter())
            if use_cache and tdata == getattr(qc, attr):
                query_flag &= ~flag
                continue
            setattr(qc, attr, tdata)
            (i32 if signed else u32)(tdata)
        if query_flag & QUERY_REASON_CARD:
            rc = self.current.reason_card
            u32(rc.get_info_location() if rc is not None else 0)
        if query_flag & QUERY_EQUIP_CARD:
            if self.equiping_target is not None:
                u32(self.equiping_target.get_info_location())
            else:
                query_flag &= ~QUERY_EQUIP_CARD
        if query_flag & QUERY_TARGET_CARD:
            i32(len(self.effect_target_cards))
            for pcard in self.effect_target_cards:
                u32(pcard.get_info_location())
        if query_flag & QUERY_OVERLAY_CARD:
            i32(len(self.xyz_materials))
            for xcard in self.xyz_materials:
                u32(xcard.data.code)
        if query_flag & QUERY_COUNTERS:
            i32(len(self.counters))
            for ctype in sorted(self.counters):
                u32(ctype | (self.counters[ctype] << 16))
        if query_flag & QUERY_OWNER:
            i32(self.owner)
        if query_flag & QUERY_STATUS:
            tdata = self.status & (STATUS_DISABLED | STATUS_FORBIDDEN | STATUS_PROC_COMPLETE)
            if not use_cache or tdata != qc.status:
                qc.status = tdata
                u32(tdata)
            else:
                query_flag &= ~QUERY_STATUS
        for flag, attr, getter in ((QUERY_LSCALE, "lscale", self.get_lscale),
                                   (QUERY_RSCALE, "rscale", self.get_rscale)):
            if not (query_flag & flag):
                continue
            tdata = _u32(getter())
            if use_cache and tdata == getattr(qc, attr):
                query_flag &= ~flag
                continue
            setattr(qc, attr, tdata)
            u32(tdata)
        if query_flag & QUERY_LINK:
            link = _u32(self.get_link())
            link_marker = _u32(self.get_link_marker())
            if use_cache and link == qc.link and link_marker == qc.link_marker:
                query_flag &= ~QUERY_LINK
            else:
                qc.link = link
                qc.link_marker = link_marker
                u32(link)
                u32(link_marker)
        body = b"".join(out)
        return _I32.pack(8 + len(body)) + _U32.pack(_u32(query_flag)) + body

    # ----- names and archetypes ----------------------------------------------------------

    def get_original_code(self: "Card") -> int:
        """The code printed on the card (the alias for an alternate artwork)."""
        return self.data.get_original_code()

    def get_original_code_rule(self: "Card") -> tuple[int, int]:
        """The card's names in the duel before effects: (first name, second name or 0).

        A double-name card keeps its printed code and gets its second name; any
        other card uses its rule code when it has one.
        """
        orig = self.data.get_original_code()
        second = SECOND_CODE.get(orig)
        if second is not None:
            return orig, second
        return self.data.get_duel_code(), 0

    def printed_stats(self: "Card") -> tuple[int, ...]:
        """(type, Level, Type (race), Attribute, name, second name or 0, archetype
        codes...): the values the card's stats have now when they are its printed
        ones; -1 for one that is not (the names: -1 alone, no archetypes).

        A kind of value is printed while no effect of that kind (TYPE_EFFECTS,
        LEVEL_EFFECTS, RACE_EFFECTS, ATTRIBUTE_EFFECTS, NAME_EFFECTS) is among the
        card's own single effects or anywhere else it could come from (an Equip
        Card's, a lasting targeter's, a material's, a field effect:
        ``duel.stat_effects_elsewhere``), none is assumed for the card and none is
        being computed.  Then no effect look-up finds anything and no script runs:

        * the type is the printed type (not for a Pendulum card, or a card in a
          Pendulum Zone: that is a Pendulum Spell);
        * a monster card's Level, Type and Attribute are the printed ones, the Level
          at least 1 (0 for an Xyz or Link Monster, always; not printed for a card
          without a Level, STATUS_NO_LEVEL);
        * a Spell or Trap whose type is printed and that nothing treats as a monster
          (EFFECT_PRE_MONSTER) has no Level, Type or Attribute (0);
        * the names are get_original_code_rule, the archetypes those of these names
          (is_set_card), and the Fusion names the same names.

        The duel's placeholder card (whose data changes) has none of them here.
        """
        duel = self.duel
        if self is duel.temp_card:
            return NOTHING_PRINTED
        data = self.data
        single = self.single_effect
        elsewhere = duel.stat_effects_elsewhere
        temp = self.temp
        assumed = self.assume_type

        def untouched(codes: frozenset[int]) -> bool:
            return codes.isdisjoint(elsewhere) and not any(code in single for code in codes)

        ctype = -1
        if (not (data.type & TYPE_PENDULUM) and not self.current.pzone and temp.type == UINT32_MAX
                and assumed != ASSUME_TYPE and untouched(TYPE_EFFECTS)):
            ctype = data.type
        level = race = attribute = -1
        if data.type & TYPE_MONSTER:
            if data.type & (TYPE_XYZ | TYPE_LINK):
                level = 0
            elif (not (self.status & STATUS_NO_LEVEL) and temp.level == UINT32_MAX
                    and assumed != ASSUME_LEVEL and untouched(LEVEL_EFFECTS)):
                level = max(_i32(data.level), 1)
            if temp.race == UINT32_MAX and assumed != ASSUME_RACE and untouched(RACE_EFFECTS):
                race = data.race
            if temp.attribute == UINT32_MAX and assumed != ASSUME_ATTRIBUTE and untouched(ATTRIBUTE_EFFECTS):
                attribute = data.attribute
        elif ctype >= 0 and untouched(MONSTER_EFFECTS):
            level = 0
            race = 0 if assumed != ASSUME_RACE else -1
            attribute = 0 if assumed != ASSUME_ATTRIBUTE else -1
        if temp.code != UINT32_MAX or assumed == ASSUME_CODE or not untouched(NAME_EFFECTS):
            return (ctype, level, race, attribute, -1)
        code1, code2 = self.get_original_code_rule()
        named = data if code1 == data.code else self._read_card(code1)
        out = (ctype, level, race, attribute, code1, code2) + _archetypes(named.setcode)
        if code2:
            out += _archetypes(self._read_card(code2).setcode)
        return out

    def get_code(self: "Card") -> int:
        """The card's current name: the last EFFECT_CHANGE_CODE wins over the printed one."""
        if self.assume_type == ASSUME_CODE:
            return self.assume_value
        if self.temp.code != UINT32_MAX:  # asked again while computing: the value so far
            return self.temp.code
        code = self.get_original_code_rule()[0]
        self.temp.code = code
        effects = self.filter_effect(EFFECT_CHANGE_CODE)
        if effects:
            code = _u32(effects[-1].get_value(self))
        self.temp.code = UINT32_MAX
        return code

    def get_another_code(self: "Card") -> int:
        """The card's second name, or 0.

        A card whose name was changed keeps a second name only if the new name is
        itself a double-name card.  Otherwise the last EFFECT_ADD_CODE gives the
        second name, unless it equals the first name.
        """
        code1 = self.get_code()
        if self.is_affected_by_effect(EFFECT_CHANGE_CODE):
            return SECOND_CODE.get(code1, 0)
        code2 = self.get_original_code_rule()[1]
        eset = self.filter_effect(EFFECT_ADD_CODE)
        if not eset:
            return code2
        otcode = _u32(eset[-1].get_value(self))
        if code1 != otcode:
            return otcode
        return 0

    def _unchanged_names(self: "Card") -> tuple[int, int] | None:
        """The names before effects when they are also the current names: no
        EFFECT_CHANGE_CODE or EFFECT_ADD_CODE anywhere, no assumed code, no name being
        computed; else None.  (Only skips work: get_code and get_another_code then
        find no effect and give the same two values.)"""
        if (self.assume_type != ASSUME_CODE and self.temp.code == UINT32_MAX
                and not self.duel.effects.holds(EFFECT_CHANGE_CODE, EFFECT_ADD_CODE)):
            return self.get_original_code_rule()
        return None

    def names(self: "Card") -> tuple[int, int]:
        """(get_code(), get_another_code()): the current name and the second name (0: none)."""
        plain = self._unchanged_names()
        if plain is not None:
            return plain
        return self.get_code(), self.get_another_code()

    def is_set_card(self: "Card", set_code: int) -> bool:
        """Archetype membership now: by current name, second name, or EFFECT_ADD_SETCODE."""
        # (only skips work: with no name or archetype effect anywhere, no assumed code and
        # no name being computed, the names are the printed ones and nothing adds an archetype)
        no_effects = (self.assume_type != ASSUME_CODE and self.temp.code == UINT32_MAX
                      and not self.duel.effects.holds(EFFECT_CHANGE_CODE, EFFECT_ADD_CODE, EFFECT_ADD_SETCODE))
        plain = self.get_original_code_rule() if no_effects else self._unchanged_names()
        code1 = self.get_code() if plain is None else plain[0]
        if code1 == self.data.code:
            if self.data.is_setcode(set_code):
                return True
        elif self.check_card_setcode(code1, set_code):
            return True
        code2 = self.get_another_code() if plain is None else plain[1]
        if code2 and self.check_card_setcode(code2, set_code):
            return True
        if no_effects:
            return False
        for peffect in self.filter_effect(EFFECT_ADD_SETCODE):
            if check_setcode(peffect.get_value(self) & 0xFFFF, set_code):
                return True
        return False

    def is_origin_set_card(self: "Card", set_code: int) -> bool:
        """Archetype membership as printed (including a double-name card's second name)."""
        if self.data.is_setcode(set_code):
            return True
        code2 = self.get_original_code_rule()[1]
        return bool(code2) and self.check_card_setcode(code2, set_code)

    def is_pre_set_card(self: "Card", set_code: int) -> bool:
        """Archetype membership as the card was before its last move (``previous``)."""
        code = self.previous.code
        if code == self.data.code:
            if self.data.is_setcode(set_code):
                return True
        elif self.check_card_setcode(code, set_code):
            return True
        code2 = self.previous.code2
        if code2 and self.check_card_setcode(code2, set_code):
            return True
        return any(check_setcode(sc, set_code) for sc in self.previous.setcode)

    def is_fusion_set_card(self: "Card", set_code: int) -> bool:
        """Archetype membership as a Fusion Material: also EFFECT_ADD_FUSION_CODE/_SETCODE
        (those do not count while the rules check "not as material")."""
        if self.is_set_card(set_code):
            return True
        if self.duel.core.not_material:
            return False
        for peffect in self.filter_effect(EFFECT_ADD_FUSION_CODE):
            if self.check_card_setcode(_u32(peffect.get_value(self)), set_code):
                return True
        for peffect in self.filter_effect(EFFECT_ADD_FUSION_SETCODE):
            if check_setcode(peffect.get_value(self) & 0xFFFF, set_code):
                return True
        return False

    def is_link_set_card(self: "Card", set_code: int) -> bool:
        """Archetype membership as a Link Material: also EFFECT_ADD_LINK_CODE."""
        if self.is_set_card(set_code):
            return True
        for peffect in self.filter_effect(EFFECT_ADD_LINK_CODE):
            if self.check_card_setcode(_u32(peffect.get_value(self)), set_code):
                return True
        return False

    def is_special_summon_set_card(self: "Card", set_code: int) -> bool:
        """Archetype membership as recorded when the card was Special Summoned (``spsummon``)."""
        if self.check_card_setcode(self.spsummon.code, set_code):
            return True
        code2 = self.spsummon.code2
        if code2 and self.check_card_setcode(code2, set_code):
            return True
        return any(check_setcode(sc, set_code) for sc in self.spsummon.setcode)

    # ----- card type ---------------------------------------------------------------------

    def get_type(self: "Card") -> int:
        """The card's current type.

        Effects apply only on the field, in the hand and in the GY; a card in a
        Pendulum Zone is a Pendulum Spell.  EFFECT_ADD_TYPE / REMOVE_TYPE /
        CHANGE_TYPE apply in effect order; a Token stays a Token.
        """
        if self.assume_type == ASSUME_TYPE:
            return self.assume_value
        cur = self.current
        if not (cur.location & (LOCATION_ONFIELD | LOCATION_HAND | LOCATION_GRAVE)):
            return self.data.type
        if cur.pzone and cur.location == LOCATION_SZONE:     # (is_location(LOCATION_PZONE))
            return TYPE_PENDULUM + TYPE_SPELL
        if self.temp.type != UINT32_MAX:
            return self.temp.type
        ctype = self.data.type
        if not self.duel.effects.holds(EFFECT_ADD_TYPE, EFFECT_REMOVE_TYPE, EFFECT_CHANGE_TYPE):
            return ctype    # (only skips look-ups; a Token keeps TYPE_TOKEN)
        self.temp.type = self.data.type
        effects = self.filter_effect(EFFECT_ADD_TYPE, sort=False)
        self.filter_effect(EFFECT_REMOVE_TYPE, effects, sort=False)
        self.filter_effect(EFFECT_CHANGE_TYPE, effects)
        for peffect in effects:
            if peffect.code == EFFECT_ADD_TYPE:
                ctype |= _u32(peffect.get_value(self))
            elif peffect.code == EFFECT_REMOVE_TYPE:
                ctype &= ~_u32(peffect.get_value(self))
            else:
                ctype = _u32(peffect.get_value(self))
            ctype = _u32(ctype)
            self.temp.type = ctype
        self.temp.type = UINT32_MAX
        if self.data.type & TYPE_TOKEN:
            ctype |= TYPE_TOKEN
        return ctype

    def get_fusion_type(self: "Card") -> int:
        """Type as a Fusion Material: a monster card in a Spell & Trap Zone counts as printed."""
        if (self.current.location == LOCATION_SZONE and (self.data.type & TYPE_MONSTER)
                and not self.duel.core.not_material):
            return self.data.type
        return self.get_type()

    def get_synchro_type(self: "Card") -> int:
        """Type as a Synchro Material: a monster card in a Spell & Trap Zone counts as printed."""
        if self.current.location == LOCATION_SZONE and (self.data.type & TYPE_MONSTER):
            return self.data.type
        return self.get_type()

    def get_xyz_type(self: "Card") -> int:
        """Type as an Xyz Material: a monster card in a Spell & Trap Zone counts as printed."""
        if self.current.location == LOCATION_SZONE and (self.data.type & TYPE_MONSTER):
            return self.data.type
        return self.get_type()

    def get_link_type(self: "Card") -> int:
        """Type as a Link Material: any card in a Spell & Trap Zone counts as a monster."""
        if self.current.location == LOCATION_SZONE:
            return self.data.type | TYPE_MONSTER
        return self.get_type()

    # ----- ATK / DEF ---------------------------------------------------------------------

    def _is_treated_as_monster(self: "Card") -> bool:
        """A monster card, a card that is currently a monster, or one under EFFECT_PRE_MONSTER."""
        return bool((self.data.type & TYPE_MONSTER) or (self.get_type() & TYPE_MONSTER)
                    or self.is_affected_by_effect(EFFECT_PRE_MONSTER))

    def _printed_atk_def(self) -> tuple[int, int]:
        """Printed ATK/DEF; a Link Monster has no DEF (0)."""
        data = self.data  # type: ignore[attr-defined]
        return data.attack, (0 if data.type & TYPE_LINK else data.defense)

    def get_base_atk_def(self: "Card") -> tuple[int, int]:
        """Original ATK/DEF after the effects that set them.

        Only monsters in the Monster Zone (not while being summoned) are
        affected.  Single effects of EFFECT_SET_BASE_ATTACK/DEFENSE apply first;
        then, in effect order, the remaining SET_BASE_* (and *_FINAL) effects and
        EFFECT_SWAP_BASE_AD.  Values below 0 become 0.  Link Monsters ignore the
        DEF-related effects.
        """
        if not self._is_treated_as_monster():
            return 0, 0
        ret = self._printed_atk_def()
        if self.current.location != LOCATION_MZONE or self.get_status(STATUS_SUMMONING | STATUS_SPSUMMON_STEP):
            return ret
        if self.temp.base_attack != -1:
            return self.temp.base_attack, self.temp.base_defense
        is_link = bool(self.data.type & TYPE_LINK)
        batk = max(self.data.attack, 0)
        bdef = 0 if is_link else max(self.data.defense, 0)
        temp = self.temp
        temp.base_attack = batk
        temp.base_defense = bdef
        eset = self.filter_effect(EFFECT_SET_BASE_ATTACK, sort=False)
        self.filter_effect(EFFECT_SET_BASE_ATTACK_FINAL, eset, sort=False)
        if not is_link:
            self.filter_effect(EFFECT_SWAP_BASE_AD, eset, sort=False)
            self.filter_effect(EFFECT_SET_BASE_DEFENSE, eset, sort=False)
            self.filter_effect(EFFECT_SET_BASE_DEFENSE_FINAL, eset, sort=False)
        eset.sort(key=effect_sort_key)
        # the card's own single "set base" effects first
        rest: list[Effect] = []
        for peffect in eset:
            if peffect.type & EFFECT_TYPE_SINGLE and peffect.code == EFFECT_SET_BASE_ATTACK:
                batk = max(peffect.get_value(self), 0)
                temp.base_attack = batk
            elif peffect.type & EFFECT_TYPE_SINGLE and peffect.code == EFFECT_SET_BASE_DEFENSE:
                bdef = max(peffect.get_value(self), 0)
                temp.base_defense = bdef
            else:
                rest.append(peffect)
        for peffect in rest:
            code = peffect.code
            if code in (EFFECT_SET_BASE_ATTACK, EFFECT_SET_BASE_ATTACK_FINAL):
                batk = max(peffect.get_value(self), 0)
            elif code in (EFFECT_SET_BASE_DEFENSE, EFFECT_SET_BASE_DEFENSE_FINAL):
                bdef = max(peffect.get_value(self), 0)
            elif code == EFFECT_SWAP_BASE_AD:
                batk, bdef = bdef, batk
            temp.base_attack = batk
            temp.base_defense = bdef
        temp.base_attack = -1
        temp.base_defense = -1
        return batk, bdef

    def get_atk_def(self: "Card") -> tuple[int, int]:
        """Current ATK/DEF.

        Only monsters in the Monster Zone (not while being summoned) are
        affected.  Order of application, each step clamped at 0:

        1. the original values (get_base_atk_def);
        2. single EFFECT_SET_ATTACK/DEFENSE of the card itself, in effect order;
        3. the rest in effect order: EFFECT_UPDATE_* add up (the card's own
           single effects and the others counted apart, so that a SET on the card
           itself only cancels its own updates), EFFECT_SET_* reset, single
           EFFECT_SET_*_FINAL set and cancel all updates, EFFECT_SWAP_AD toggles a
           final swap; EFFECT_REVERSE_UPDATE turns updates into decreases;
        4. updates flagged EFFECT_FLAG2_REPEAT_UPDATE;
        5. the other EFFECT_SET_*_FINAL, then the swap;
        6. EFFECT_SET_*_FINAL flagged EFFECT_FLAG2_WICKED, then EFFECT_FLAG2_OPTION.
        """
        if self.assume_type == ASSUME_ATTACK:
            return self.assume_value, 0
        if self.assume_type == ASSUME_DEFENSE:
            return (0, 0) if self.data.type & TYPE_LINK else (0, self.assume_value)
        if not self._is_treated_as_monster():
            return 0, 0
        ret = self._printed_atk_def()
        if self.current.location != LOCATION_MZONE or self.get_status(STATUS_SUMMONING | STATUS_SPSUMMON_STEP):
            return ret
        temp = self.temp
        if temp.attack != -1:
            return temp.attack, temp.defense
        is_link = bool(self.data.type & TYPE_LINK)
        temp.attack = max(self.data.attack, 0)
        temp.defense = 0 if is_link else max(self.data.defense, 0)
        atk, dfn = self.get_base_atk_def()
        temp.attack = atk
        temp.defense = dfn
        eset = self.filter_effect(EFFECT_UPDATE_ATTACK, sort=False)
        self.filter_effect(EFFECT_SET_ATTACK, eset, sort=False)
        self.filter_effect(EFFECT_SET_ATTACK_FINAL, eset, sort=False)
        if not is_link:
            self.filter_effect(EFFECT_SWAP_AD, eset, sort=False)
            self.filter_effect(EFFECT_UPDATE_DEFENSE, eset, sort=False)
            self.filter_effect(EFFECT_SET_DEFENSE, eset, sort=False)
            self.filter_effect(EFFECT_SET_DEFENSE_FINAL, eset, sort=False)
        eset.sort(key=effect_sort_key)
        rev = self.is_affected_by_effect(EFFECT_REVERSE_UPDATE) is not None
        # step 2: the card's own single SET_ATTACK / SET_DEFENSE
        rest: list[Effect] = []
        for peffect in eset:
            if peffect.type & EFFECT_TYPE_SINGLE and peffect.code == EFFECT_SET_ATTACK:
                atk = max(peffect.get_value(self), 0)
                temp.attack = atk
            elif peffect.type & EFFECT_TYPE_SINGLE and peffect.code == EFFECT_SET_DEFENSE:
                dfn = max(peffect.get_value(self), 0)
                temp.defense = dfn
            else:
                rest.append(peffect)
        # step 3
        up_atk = upc_atk = up_def = upc_def = 0
        swap_final = False
        repeat_atk: list[Effect] = []
        repeat_def: list[Effect] = []
        final_atk: list[Effect] = []
        final_def: list[Effect] = []
        wicked_atk: list[Effect] = []
        wicked_def: list[Effect] = []
        option_atk: list[Effect] = []
        option_def: list[Effect] = []
        for peffect in rest:
            code = peffect.code
            own_single = bool(peffect.type & EFFECT_TYPE_SINGLE) and not peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE)
            if code == EFFECT_UPDATE_ATTACK:
                if peffect.is_flag2(EFFECT_FLAG2_REPEAT_UPDATE):
                    repeat_atk.append(peffect)
                elif own_single:
                    up_atk += peffect.get_value(self)
                else:
                    upc_atk += peffect.get_value(self)
            elif code == EFFECT_SET_ATTACK:
                atk = max(peffect.get_value(self), 0)
                up_atk = 0
            elif code == EFFECT_SET_ATTACK_FINAL:
                if own_single:
                    atk = max(peffect.get_value(self), 0)
                    up_atk = 0
                    upc_atk = 0
                elif peffect.is_flag2(EFFECT_FLAG2_OPTION):
                    option_atk.append(peffect)
                elif peffect.is_flag2(EFFECT_FLAG2_WICKED):
                    wicked_atk.append(peffect)
                else:
                    final_atk.append(peffect)
            elif code == EFFECT_UPDATE_DEFENSE:
                if peffect.is_flag2(EFFECT_FLAG2_REPEAT_UPDATE):
                    repeat_def.append(peffect)
                elif own_single:
                    up_def += peffect.get_value(self)
                else:
                    upc_def += peffect.get_value(self)
            elif code == EFFECT_SET_DEFENSE:
                dfn = max(peffect.get_value(self), 0)
                up_def = 0
            elif code == EFFECT_SET_DEFENSE_FINAL:
                if own_single:
                    dfn = max(peffect.get_value(self), 0)
                    up_def = 0
                    upc_def = 0
                elif peffect.is_flag2(EFFECT_FLAG2_OPTION):
                    option_def.append(peffect)
                elif peffect.is_flag2(EFFECT_FLAG2_WICKED):
                    wicked_def.append(peffect)
                else:
                    final_def.append(peffect)
            elif code == EFFECT_SWAP_AD:
                swap_final = not swap_final
            if not rev:
                temp.attack = _i32(atk + up_atk + upc_atk)
                temp.defense = _i32(dfn + up_def + upc_def)
            else:
                temp.attack = _i32(atk - up_atk - upc_atk)
                temp.defense = _i32(dfn - up_def - upc_def)
            if temp.attack < 0:
                temp.attack = 0
            if temp.defense < 0:
                temp.defense = 0
        # step 4
        for peffect in repeat_atk:
            temp.attack = max(_i32(temp.attack + peffect.get_value(self)), 0)
        for peffect in repeat_def:
            temp.defense = max(_i32(temp.defense + peffect.get_value(self)), 0)
        # steps 5 and 6: each list in order, the last one wins
        for peffect in final_atk:
            temp.attack = max(peffect.get_value(self), 0)
        for peffect in final_def:
            temp.defense = max(peffect.get_value(self), 0)
        if swap_final:
            temp.attack, temp.defense = temp.defense, temp.attack
        for peffect in wicked_atk:
            temp.attack = max(peffect.get_value(self), 0)
        for peffect in wicked_def:
            temp.defense = max(peffect.get_value(self), 0)
        for peffect in option_atk:
            temp.attack = max(peffect.get_value(self), 0)
        for peffect in option_def:
            temp.defense = max(peffect.get_value(self), 0)
        ret = (temp.attack, temp.defense)
        temp.attack = -1
        temp.defense = -1
        return ret

    def get_base_attack(self: "Card") -> int:
        return self.get_base_atk_def()[0]

    def get_attack(self: "Card") -> int:
        return self.get_atk_def()[0]

    def get_base_defense(self: "Card") -> int:
        return self.get_base_atk_def()[1]

    def get_defense(self: "Card") -> int:
        return self.get_atk_def()[1]

    def get_battle_attack(self: "Card") -> int:
        """ATK used for damage calculation: the last EFFECT_SET_BATTLE_ATTACK, else the ATK."""
        eset = self.filter_effect(EFFECT_SET_BATTLE_ATTACK)
        if eset:
            return max(eset[-1].get_value(self), 0)
        return self.get_atk_def()[0]

    def get_battle_defense(self: "Card") -> int:
        """DEF used for damage calculation: the last EFFECT_SET_BATTLE_DEFENSE, else the DEF."""
        eset = self.filter_effect(EFFECT_SET_BATTLE_DEFENSE)
        if eset:
            return max(eset[-1].get_value(self), 0)
        return self.get_atk_def()[1]

    # ----- Level / Rank / Link -----------------------------------------------------------

    def _level_like(self: "Card", start: int, update_code: int, change_code: int) -> int:
        """Apply UPDATE (adds) and CHANGE (sets, dropping earlier adds) effects; at least 1.

        Uses ``temp.level`` as the recursion guard (Level and Rank share it, as
        in the reference).
        """
        if not self.duel.effects.holds(update_code, change_code):
            value = _i32(start)       # (only skips look-ups that find nothing)
            return value if value >= 1 else 1
        value = start
        self.temp.level = value
        up = 0
        effects = self.filter_effect(update_code, sort=False)
        self.filter_effect(change_code, effects)
        for peffect in effects:
            if peffect.code == update_code:
                up += peffect.get_value(self)
            elif peffect.code == change_code:
                value = peffect.get_value(self)
                up = 0
            self.temp.level = _u32(value + up)
        value = _i32(value + up)
        if value < 1:
            value = 1
        self.temp.level = UINT32_MAX
        return value

    def get_level(self: "Card") -> int:
        """Current Level: 0 for Xyz/Link monsters, STATUS_NO_LEVEL and non-monsters;
        else the printed Level with EFFECT_UPDATE_LEVEL / CHANGE_LEVEL, at least 1."""
        if ((self.data.type & (TYPE_XYZ | TYPE_LINK)) or (self.status & STATUS_NO_LEVEL)
                or not self._is_treated_as_monster()):
            return 0
        if self.assume_type == ASSUME_LEVEL:
            return self.assume_value
        if self.temp.level != UINT32_MAX:
            return self.temp.level
        return self._level_like(self.data.level, EFFECT_UPDATE_LEVEL, EFFECT_CHANGE_LEVEL)

    def get_rank(self: "Card") -> int:
        """Current Rank of an Xyz monster: printed outside the Monster Zone, else with
        EFFECT_UPDATE_RANK / CHANGE_RANK, at least 1.  0 for other cards."""
        if not (self.data.type & TYPE_XYZ):
            return 0
        if self.assume_type == ASSUME_RANK:
            return self.assume_value
        if not (self.current.location & LOCATION_MZONE):
            return self.data.level
        if self.temp.level != UINT32_MAX:
            return self.temp.level
        return self._level_like(self.data.level, EFFECT_UPDATE_RANK, EFFECT_CHANGE_RANK)

    def get_link(self: "Card") -> int:
        """Link Rating (stored in the level field); 0 for non-Link cards."""
        if not (self.data.type & TYPE_LINK):
            return 0
        return self.data.level

    def get_mat_level_from_effect(self: "Card", pcard: "Card | None", effect_code: int) -> int:
        """The first non-zero value (for material of ``pcard``) among this card's effects of ``effect_code``."""
        if not effect_code:
            return 0
        for peffect in self.filter_effect(effect_code):
            lev = _u32(peffect.get_value(pcard))
            if lev:
                return lev
        return 0

    def get_mat_level(self: "Card", pcard: "Card | None", level_effect_code: int,
                      allow_effect_code: int = 0) -> int:
        """Level as material for ``pcard``.

        A card without a Level (Xyz, Link, STATUS_NO_LEVEL) has one only through
        ``allow_effect_code``; others use ``level_effect_code`` first, then their Level.
        """
        if (self.data.type & (TYPE_XYZ | TYPE_LINK)) or (self.status & STATUS_NO_LEVEL):
            return self.get_mat_level_from_effect(pcard, allow_effect_code)
        lv = self.get_mat_level_from_effect(pcard, level_effect_code)
        if lv:
            return lv
        return self.get_level()

    def get_synchro_level(self: "Card", pcard: "Card | None") -> int:
        return self.get_mat_level(pcard, EFFECT_SYNCHRO_LEVEL, EFFECT_SYNCHRO_LEVEL_EX)

    def get_ritual_level(self: "Card", pcard: "Card | None") -> int:
        return self.get_mat_level(pcard, EFFECT_RITUAL_LEVEL, EFFECT_RITUAL_LEVEL_EX)

    def check_xyz_level(self: "Card", pcard: "Card", lv: int) -> int:
        """Can this card be an Xyz Material of Level ``lv`` for ``pcard``?

        Returns 0 for no, else the level in the low 12 bits and, in bits 12-15,
        how many materials this card counts as (the largest EFFECT_XYZ_MIN_COUNT,
        at most 15).  EFFECT_XYZ_LEVEL values may offer two levels, one per 16-bit
        half, each with its own count in its bits 12-15.
        """
        if self.status & STATUS_NO_LEVEL:
            return 0
        min_count = 0
        for peffect in self.filter_effect(EFFECT_XYZ_MIN_COUNT):
            count = peffect.get_value(self, pcard)
            if count > min_count:
                min_count = count
        if min_count > 0xF:
            min_count = 0xF
        eset = self.filter_effect(EFFECT_XYZ_LEVEL)
        if not eset:
            card_lv = self.get_level()
            if card_lv == lv:
                return (card_lv & MAX_XYZ_LEVEL) | (min_count << 12)
            return 0
        for peffect in eset:
            lev = _u32(peffect.get_value(self, pcard))
            for half in (lev & 0xFFFF, lev >> 16):
                lv1 = half & MAX_XYZ_LEVEL
                count1 = (half & 0xF000) >> 12
                if count1 < min_count:
                    count1 = min_count
                if lv1 == lv:
                    return lv1 | (count1 << 12)
        return 0

    # ----- Attribute / Type (race) -------------------------------------------------------

    def _add_remove_change(self: "Card", start: int, guard: str, add_code: int,
                           remove_code: int, change_code: int) -> int:
        """Apply ADD (or), REMOVE (and-not) and CHANGE (set) effects in effect order,
        keeping the partial value in ``temp.<guard>`` while doing so."""
        if not self.duel.effects.holds(add_code, remove_code, change_code):
            return start              # (only skips look-ups that find nothing)
        value = start
        setattr(self.temp, guard, start)
        effects = self.filter_effect(add_code, sort=False)
        self.filter_effect(remove_code, effects, sort=False)
        self.filter_effect(change_code, effects)
        for peffect in effects:
            if peffect.code == add_code:
                value |= _u32(peffect.get_value(self))
            elif peffect.code == remove_code:
                value &= ~_u32(peffect.get_value(self))
            elif peffect.code == change_code:
                value = _u32(peffect.get_value(self))
            value = _u32(value)
            setattr(self.temp, guard, value)
        setattr(self.temp, guard, UINT32_MAX)
        return value

    def get_attribute(self: "Card") -> int:
        """Current Attribute (0 for non-monsters)."""
        if self.assume_type == ASSUME_ATTRIBUTE:
            return self.assume_value
        if not self._is_treated_as_monster():
            return 0
        if self.temp.attribute != UINT32_MAX:
            return self.temp.attribute
        return self._add_remove_change(self.data.attribute, "attribute", EFFECT_ADD_ATTRIBUTE,
                                       EFFECT_REMOVE_ATTRIBUTE, EFFECT_CHANGE_ATTRIBUTE)

    def get_fusion_attribute(self: "Card", playerid: int) -> int:
        """Attribute as a Fusion Material: the last EFFECT_CHANGE_FUSION_ATTRIBUTE, if any."""
        effects = self.filter_effect(EFFECT_CHANGE_FUSION_ATTRIBUTE)
        if not effects or self.duel.core.not_material:
            return self.get_attribute()
        attribute = 0
        for peffect in effects:
            attribute = _u32(peffect.get_value(self, playerid))
        return attribute

    def get_link_attribute(self: "Card", playerid: int) -> int:
        """Attribute as a Link Material: the Attribute plus EFFECT_ADD_LINK_ATTRIBUTE."""
        effects = self.filter_effect(EFFECT_ADD_LINK_ATTRIBUTE)
        attribute = self.get_attribute()
        for peffect in effects:
            attribute |= _u32(peffect.get_value(self, playerid))
        return attribute

    def _grave_value(self: "Card", playerid: int, printed: int, code: int) -> int:
        """A monster's Attribute/Type "if it were in the GY": the player's
        EFFECT_CHANGE_GRAVE_* effects whose target accepts it apply in order."""
        value = printed
        for peffect in self.duel.filter_player_effect(playerid, code):
            if not peffect.target:
                value = _u32(peffect.get_value(self))
            elif self.duel.script.check_condition(peffect.target, peffect, self):
                value = _u32(peffect.get_value(self))
        return value

    def get_grave_attribute(self: "Card", playerid: int) -> int:
        if not (self.data.type & TYPE_MONSTER):
            return 0
        if self.current.is_location(LOCATION_GRAVE):
            return self.get_attribute()
        return self._grave_value(playerid, self.data.attribute, EFFECT_CHANGE_GRAVE_ATTRIBUTE)

    def get_race(self: "Card") -> int:
        """Current monster Type (race) (0 for non-monsters)."""
        if self.assume_type == ASSUME_RACE:
            return self.assume_value
        if not self._is_treated_as_monster():
            return 0
        if self.temp.race != UINT32_MAX:
            return self.temp.race
        return self._add_remove_change(self.data.race, "race", EFFECT_ADD_RACE,
                                       EFFECT_REMOVE_RACE, EFFECT_CHANGE_RACE)

    def get_link_race(self: "Card", playerid: int) -> int:
        """Type as a Link Material: the Type plus EFFECT_ADD_LINK_RACE."""
        effects = self.filter_effect(EFFECT_ADD_LINK_RACE)
        race = self.get_race()
        for peffect in effects:
            race |= _u32(peffect.get_value(self, playerid))
        return race

    def get_grave_race(self: "Card", playerid: int) -> int:
        if not (self.data.type & TYPE_MONSTER):
            return 0
        if self.current.is_location(LOCATION_GRAVE):
            return self.get_race()
        return self._grave_value(playerid, self.data.race, EFFECT_CHANGE_GRAVE_RACE)

    # ----- Pendulum Scales ---------------------------------------------------------------

    def _scale(self: "Card", printed: int, guard: str, update_code: int, change_code: int) -> int:
        """A Pendulum Scale in a Pendulum Zone: CHANGE sets it and drops the card's own
        earlier single updates, UPDATE adds; never below 0 in a Pendulum Zone."""
        current = getattr(self.temp, guard)
        if current != UINT32_MAX:
            return current
        value = printed
        setattr(self.temp, guard, printed)
        up = upc = 0
        effects = self.filter_effect(update_code, sort=False)
        self.filter_effect(change_code, effects)
        for peffect in effects:
            if peffect.code == update_code:
                if peffect.type & EFFECT_TYPE_SINGLE and not peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE):
                    up += peffect.get_value(self)
                else:
                    upc += peffect.get_value(self)
            else:
                value = peffect.get_value(self)
                up = 0
            # the reference stores the scale without the pending updates here
            setattr(self.temp, guard, _u32(value))
        value = _i32(value + up + upc)
        if value < 0 and self.current.pzone:
            value = 0
        setattr(self.temp, guard, UINT32_MAX)
        return _u32(value)

    def get_lscale(self: "Card") -> int:
        if not self.current.is_location(LOCATION_PZONE):
            return self.data.lscale
        return self._scale(self.data.lscale, "lscale", EFFECT_UPDATE_LSCALE, EFFECT_CHANGE_LSCALE)

    def get_rscale(self: "Card") -> int:
        if not self.current.is_location(LOCATION_PZONE):
            return self.data.rscale
        return self._scale(self.data.rscale, "rscale", EFFECT_UPDATE_RSCALE, EFFECT_CHANGE_RSCALE)

    # ----- Link Arrows and linked zones --------------------------------------------------

    def get_link_marker(self: "Card") -> int:
        if not (self.data.type & TYPE_LINK):
            return 0
        return self.data.link_marker

    def is_link_marker(self: "Card", dir: int) -> int:
        return self.get_link_marker() & dir

    def get_linked_zone(self: "Card") -> int:
        """Zones this Link Monster points to, as a zone mask.

        Bits 0-6 are its controller's Monster Zones (5 and 6 the Extra Monster
        Zones), bits 16-22 the opponent's, seen from the opponent's side (so the
        opponent's zone i sits opposite this player's zone 4 - i).
        """
        if (not (self.data.type & TYPE_LINK) or self.current.location != LOCATION_MZONE
                or self.is_treated_as_not_on_field()):
            return 0
        mark = self.is_link_marker
        zones = 0
        s = self.current.sequence
        if 0 < s <= 4 and mark(LINK_MARKER_LEFT):
            zones |= 1 << (s - 1)
        if s <= 3 and mark(LINK_MARKER_RIGHT):
            zones |= 1 << (s + 1)
        if ((s == 0 and mark(LINK_MARKER_TOP_RIGHT)) or (s == 1 and mark(LINK_MARKER_TOP))
                or (s == 2 and mark(LINK_MARKER_TOP_LEFT))):
            zones |= (1 << 5) | (1 << (16 + 6))
        if ((s == 2 and mark(LINK_MARKER_TOP_RIGHT)) or (s == 3 and mark(LINK_MARKER_TOP))
                or (s == 4 and mark(LINK_MARKER_TOP_LEFT))):
            zones |= (1 << 6) | (1 << (16 + 5))
        if s in (5, 6):
            # the Extra Monster Zones point down to three Main Monster Zones and
            # up into three of the opponent's
            below = 0 if s == 5 else 2
            above = 4 if s == 5 else 2
            if mark(LINK_MARKER_BOTTOM_LEFT):
                zones |= 1 << below
            if mark(LINK_MARKER_BOTTOM):
                zones |= 1 << (below + 1)
            if mark(LINK_MARKER_BOTTOM_RIGHT):
                zones |= 1 << (below + 2)
            if mark(LINK_MARKER_TOP_LEFT):
                zones |= 1 << (16 + above)
            if mark(LINK_MARKER_TOP):
                zones |= 1 << (16 + above - 1)
            if mark(LINK_MARKER_TOP_RIGHT):
                zones |= 1 << (16 + above - 2)
        return zones

    def _cards_in_zones(self: "Card", zones: int, mzone: bool = True) -> "CardSet":
        """Cards in a two-sided zone mask (bits 16+ are the opponent's)."""
        cset = CardSet()
        p = self.current.controler
        loc = LOCATION_MZONE if mzone else LOCATION_SZONE
        self.duel.get_cards_in_zone(cset, zones, p, loc)
        self.duel.get_cards_in_zone(cset, zones >> 16, 1 - p, loc)
        return cset

    def get_linked_cards(self: "Card") -> "CardSet":
        """Monsters this Link Monster points to."""
        if not (self.data.type & TYPE_LINK) or self.current.location != LOCATION_MZONE:
            return CardSet()
        return self._cards_in_zones(self.get_linked_zone())

    def get_mutual_linked_zone(self: "Card") -> int:
        """Zones of the Link Monsters that this one points to and that point back."""
        if (not (self.data.type & TYPE_LINK) or self.current.location != LOCATION_MZONE
                or self.is_treated_as_not_on_field()):
            return 0
        zones = 0
        p = self.current.controler
        s = self.current.sequence
        linked_zone = self.get_linked_zone()
        player = self.duel.player
        for i in range(7):
            if linked_zone & (1 << i):
                pcard = player[p].list_mzone[i]
                if pcard is not None and (pcard.get_linked_zone() & (1 << s)):
                    zones |= 1 << i
        for i in range(7):
            if linked_zone & (1 << (16 + i)):
                pcard = player[1 - p].list_mzone[i]
                if pcard is not None and (pcard.get_linked_zone() & (1 << (s + 16))):
                    zones |= 1 << (16 + i)
        return zones

    def get_mutual_linked_cards(self: "Card") -> "CardSet":
        if not (self.data.type & TYPE_LINK) or self.current.location != LOCATION_MZONE:
            return CardSet()
        return self._cards_in_zones(self.get_mutual_linked_zone())

    def is_link_state(self: "Card") -> bool:
        """A monster that a Link Monster points to, or a Link Monster pointing to a monster."""
        if self.current.location != LOCATION_MZONE:
            return False
        if self.get_linked_cards():
            return True
        linked_zone = self.duel.get_linked_zone(self.current.controler)
        return bool((linked_zone >> self.current.sequence) & 1)

    def is_extra_link_state(self: "Card") -> bool:
        """In a chain of mutually linked monsters that connects both Extra Monster Zones.

        Walks the mutual links outward from this card (lowest zone bit first),
        merging each reached card's mutual links (an opponent's card's mask is
        turned to this side's view by swapping its halves), until both Extra
        Monster Zones are reached or nothing new is left.
        """
        if self.current.location != LOCATION_MZONE:
            return False
        checked = 1 << self.current.sequence
        linked_zone = self.get_mutual_linked_zone()
        list_mzone0 = self.duel.player[self.current.controler].list_mzone
        list_mzone1 = self.duel.player[1 - self.current.controler].list_mzone
        while True:
            left = (linked_zone >> 5) | (linked_zone >> (16 + 6))
            right = (linked_zone >> 6) | (linked_zone >> (16 + 5))
            if left & right & 1:
                return True
            checking = linked_zone & ~checked
            if not checking:
                return False
            rightmost = checking & -checking
            checked |= rightmost
            if rightmost < 0x10000:
                pcard = list_mzone0[rightmost.bit_length() - 1]
                linked_zone |= pcard.get_mutual_linked_zone()
            else:
                pcard = list_mzone1[(rightmost >> 16).bit_length() - 1]
                zone = pcard.get_mutual_linked_zone()
                linked_zone |= ((zone << 16) | (zone >> 16)) & 0xFFFFFFFF

    # ----- columns -----------------------------------------------------------------------

    def get_column_zone(self: "Card", location: int) -> int:
        """Zones in this card's column, as a mask (bits 0-7 own Monster Zones, 8-15 own
        Spell & Trap Zones, 16+ the opponent's, mirrored); the card's own zone is
        not included.  The Extra Monster Zones are in the columns of Main Monster
        Zones 1 and 3.  A card in the Field Zone (S/T sequence 5 or more) has no column.
        """
        zones = 0
        seq = self.current.sequence
        loc = self.current.location
        if (not (location & LOCATION_ONFIELD) or not (loc & LOCATION_ONFIELD)
                or (loc == LOCATION_SZONE and seq >= 5)):
            return 0
        if seq <= 4:
            if location & LOCATION_MZONE:
                if not (loc & LOCATION_MZONE):
                    zones |= 1 << seq
                zones |= 1 << (16 + (4 - seq))
                if seq == 1:
                    zones |= (1 << 5) | (1 << (16 + 6))
                if seq == 3:
                    zones |= (1 << 6) | (1 << (16 + 5))
            if location & LOCATION_SZONE:
                if not (loc & LOCATION_SZONE):
                    zones |= 1 << (seq + 8)
                zones |= 1 << (16 + 8 + (4 - seq))
        if seq == 5:
            if location & LOCATION_MZONE:
                zones |= (1 << 1) | (1 << (16 + 3))
            if location & LOCATION_SZONE:
                zones |= (1 << (8 + 1)) | (1 << (16 + 8 + 3))
        if seq == 6:
            if location & LOCATION_MZONE:
                zones |= (1 << 3) | (1 << (16 + 1))
            if location & LOCATION_SZONE:
                zones |= (1 << (8 + 3)) | (1 << (16 + 8 + 1))
        return zones

    def get_column_cards(self: "Card") -> "CardSet":
        """The other cards in this card's column (both players, both rows)."""
        cset = CardSet()
        if not (self.current.location & LOCATION_ONFIELD):
            return cset
        p = self.current.controler
        column_mzone = self.get_column_zone(LOCATION_MZONE)
        column_szone = self.get_column_zone(LOCATION_SZONE)
        get = self.duel.get_cards_in_zone
        get(cset, column_mzone, p, LOCATION_MZONE)
        get(cset, column_mzone >> 16, 1 - p, LOCATION_MZONE)
        get(cset, column_szone >> 8, p, LOCATION_SZONE)
        get(cset, column_szone >> 24, 1 - p, LOCATION_SZONE)
        return cset

    def is_all_column(self: "Card") -> bool:
        """Every other zone of this card's column is occupied (3 zones, 4 in a column
        with an Extra Monster Zone under Master Rule 4 and later)."""
        if not (self.current.location & LOCATION_ONFIELD):
            return False
        full = 3
        if self.duel.core.duel_rule >= NEW_MASTER_RULE and self.current.sequence in (1, 3):
            full += 1
        return len(self.get_column_cards()) == full

    # ----- locations as prompts show them ------------------------------------------------

    def get_select_sequence(self: "Card", deck_seq_pointer: list[int]) -> int:
        """The sequence a selection prompt shows: when the selecting player may not see
        Deck order, Deck cards get consecutive numbers from ``deck_seq_pointer[0]``
        (which is advanced, like the reference's pointer)."""
        if self.current.location == LOCATION_DECK and self.duel.is_select_hide_deck_sequence(self.current.controler):
            seq = deck_seq_pointer[0]
            deck_seq_pointer[0] = (seq + 1) & 0xFF
            return seq
        return self.current.sequence

    def get_select_info_location(self: "Card", deck_seq_pointer: list[int]) -> int:
        """get_info_location with the sequence of get_select_sequence for Deck cards."""
        if self.current.location == LOCATION_DECK:
            c = self.current.controler
            l = self.current.location
            s = self.get_select_sequence(deck_seq_pointer)
            ss = self.current.position
            return c + (l << 8) + (s << 16) + (ss << 24)
        return self.get_info_location()

    def is_treated_as_not_on_field(self: "Card") -> int:
        """Being summoned, or a summon/activation of it negated: not yet (or no longer) really on the field."""
        return self.status & NOT_ON_FIELD_STATUS

    # ----- names as scripts ask for them ------------------------------------------------

    def _codes_with(self: "Card", extra_code: int | None) -> list[int]:
        """The current name, the second name (if any), then the values of the card's
        effects of ``extra_code`` (None: no extra names)."""
        code, otcode = self.names()
        codes = [code]
        if otcode:
            codes.append(otcode)
        if extra_code is not None:
            codes.extend(_i32(peffect.get_value(self)) for peffect in self.filter_effect(extra_code))
        return codes

    def get_fusion_codes(self: "Card") -> list[int]:
        """Card.GetFusionCode: the names the card has as a Fusion Material -- its
        name(s), then each EFFECT_ADD_FUSION_CODE value (not while the rules check
        "not as material")."""
        return self._codes_with(None if self.duel.core.not_material else EFFECT_ADD_FUSION_CODE)

    def get_link_codes(self: "Card") -> list[int]:
        """Card.GetLinkCode: the name(s), then each EFFECT_ADD_LINK_CODE value."""
        return self._codes_with(EFFECT_ADD_LINK_CODE)

    def is_code(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsCode: does either of the card's names equal one of ``codes``
        (None entries -- nil arguments -- are skipped)?"""
        code1, code2 = self.names()
        for tcode in codes:
            if tcode is None:
                continue
            if code1 == tcode or (code2 and code2 == tcode):
                return True
        return False

    def is_original_code_rule(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsOriginalCodeRule: is_code against the names before effects."""
        code1, code2 = self.get_original_code_rule()
        for tcode in codes:
            if tcode is None:
                continue
            if code1 == tcode or (code2 and code2 == tcode):
                return True
        return False

    def _is_code_with(self: "Card", extra_code: int, codes: list[int | None], skip: bool) -> bool:
        eset = self.filter_effect(extra_code)
        if not eset or skip:
            return self.is_code(codes)
        code1, code2 = self.names()
        fcode = {code1}
        if code2:
            fcode.add(code2)
        for peffect in eset:
            fcode.add(peffect.get_value(self) & 0xFFFFFFFF)
        return any(tcode is not None and tcode in fcode for tcode in codes)

    def is_fusion_code(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsFusionCode: is_code, also matching EFFECT_ADD_FUSION_CODE names
        (which do not count while the rules check "not as material")."""
        return self._is_code_with(EFFECT_ADD_FUSION_CODE, codes, self.duel.core.not_material)

    def is_link_code(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsLinkCode: is_code, also matching EFFECT_ADD_LINK_CODE names."""
        return self._is_code_with(EFFECT_ADD_LINK_CODE, codes, False)

    # ----- stats as scripts see them ----------------------------------------------------

    def is_monster_for_stats(self: "Card") -> bool:
        """Does the card have monster stats now (a monster card, currently a monster,
        or under EFFECT_PRE_MONSTER)?  Card.IsAttack & co. answer no otherwise."""
        return bool((self.data.type & TYPE_MONSTER) or (self.get_type() & TYPE_MONSTER)
                    or self.is_affected_by_effect(EFFECT_PRE_MONSTER))

    def has_defense_for_stats(self: "Card") -> bool:
        """A monster (see is_monster_for_stats) that is not a Link Monster."""
        return not (self.data.type & TYPE_LINK) and self.is_monster_for_stats()

    def get_current_scale(self: "Card") -> int:
        """Card.GetCurrentScale: in the left Pendulum Zone the left scale, in the
        right one the right scale; elsewhere the printed left scale."""
        if self.current.pzone:
            if self.current.sequence == self.duel.get_pzone_sequence(0):
                return self.get_lscale()
            return self.get_rscale()
        return self.data.lscale

    def get_special_summon_info(self: "Card", flag: int) -> Any:
        """One value recorded when the card was Special Summoned (SUMMON_INFO_*):
        unsigned stats, signed ATK/DEF, the reason effect (or None) and player;
        None for an unknown flag."""
        sp = self.spsummon
        unsigned = {SUMMON_INFO_CODE: sp.code, SUMMON_INFO_CODE2: sp.code2, SUMMON_INFO_TYPE: sp.type,
                    SUMMON_INFO_LEVEL: sp.level, SUMMON_INFO_RANK: sp.rank,
                    SUMMON_INFO_ATTRIBUTE: sp.attribute, SUMMON_INFO_RACE: sp.race}
        if flag in unsigned:
            return unsigned[flag] & 0xFFFFFFFF
        if flag == SUMMON_INFO_ATTACK:
            return _i32(sp.attack)
        if flag == SUMMON_INFO_DEFENSE:
            return _i32(sp.defense)
        if flag == SUMMON_INFO_REASON_EFFECT:
            return sp.reason_effect
        if flag == SUMMON_INFO_REASON_PLAYER:
            return sp.reason_player & 0xFF
        return None

    # ----- where the card is, as scripts see it -----------------------------------------

    def get_script_location(self: "Card") -> int:
        """Card.GetLocation: 0 while the card is treated as not on the field (being
        summoned, or its summon/activation negated), else its location."""
        if self.is_treated_as_not_on_field():
            return 0
        return self.current.location

    def is_script_location(self: "Card", loc: int) -> bool:
        """Card.IsLocation: never while treated as not on the field; a card in the
        Spell & Trap Zone also matches LOCATION_FZONE / LOCATION_PZONE."""
        if self.is_treated_as_not_on_field():
            return False
        if self.current.location == LOCATION_MZONE:
            return bool(loc & LOCATION_MZONE)
        if self.current.location == LOCATION_SZONE:
            return self.current.is_location(loc)
        return bool(self.current.location & loc)

    def is_script_onfield(self: "Card") -> bool:
        """Card.IsOnField: on the field and not treated as not on the field."""
        return bool(self.current.location & LOCATION_ONFIELD) and not self.is_treated_as_not_on_field()

    def is_faceup_ex(self: "Card") -> bool:
        """Card.IsFaceupEx: face-up, or in the hand, GY or Deck."""
        return bool(self.is_position(POS_FACEUP)
                    or (self.current.location & (LOCATION_HAND | LOCATION_GRAVE | LOCATION_DECK)))
