"""Tributes and materials: release lists, tribute checks, Synchro/Xyz/Fusion/Ritual materials, sums.

Reference: field.cpp (get_release_list ... check_xyz_material).

Script filters
--------------
Where the reference takes a Lua filter as a stack index plus a count of extra
arguments, we take the function (None: no filter) and, where the reference
passes extra arguments, a tuple of them: ``filter_fn, extra_args``.  A filter
is called as ``filter_fn(card, *extra_args)`` through
``self.script.check_filter``; no function means every card passes, as in the
reference.  The Synchro material filter (``filter2``) always gets the Synchro
Monster as its extra argument, the tuner filter (``filter1``) and the Xyz
filter none.

Card-set out-parameters are CardSets the caller passes (None where the
reference accepts a null pointer); the functions fill them.

Xyz material list
-----------------
``core.xmaterial_lst`` is the reference's multimap from "material count" (the
bits 12-15 of check_xyz_level) to card, greatest key first, cards with equal
keys in insertion order.  Here it is a list of ``(key, card)`` pairs kept in
that order; it is always changed in place, because the Xyz procedure reads it
after check_xyz_material.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..constants import (
    EFFECT_ADD_EXTRA_TRIBUTE, EFFECT_CANNOT_RELEASE, EFFECT_DOUBLE_TRIBUTE, EFFECT_EXTRA_FUSION_MATERIAL,
    EFFECT_EXTRA_RELEASE, EFFECT_EXTRA_RELEASE_NONSUM, EFFECT_EXTRA_RELEASE_SUM,
    EFFECT_EXTRA_RITUAL_MATERIAL, EFFECT_EXTRA_SYNCHRO_MATERIAL, EFFECT_FLAG_COUNT_LIMIT,
    EFFECT_FLAG_SPSUM_PARAM, EFFECT_MUST_BE_SMATERIAL, EFFECT_MUST_BE_XMATERIAL,
    EFFECT_OVERLAY_RITUAL_MATERIAL, EFFECT_RITUAL_LEVEL_EX, EFFECT_SCRAP_CHIMERA,
    EFFECT_SYNCHRO_CHECK, EFFECT_SYNCHRO_MATERIAL_CUSTOM, EFFECT_TRIBUTE_LIMIT, EFFECT_TUNER_MATERIAL_LIMIT,
    EFFECT_TUNE_MAGICIAN_X, EFFECT_UNRELEASABLE_SUM, EFFECT_XYZ_MATERIAL, GLOBALFLAG_SCRAP_CHIMERA, GLOBALFLAG_TUNE_MAGICIAN,
    GLOBALFLAG_XMAT_COUNT_LIMIT, LOCATION_DECK, LOCATION_EXTRA, LOCATION_GRAVE, LOCATION_HAND,
    LOCATION_MZONE, LOCATION_OVERLAY, LOCATION_PZONE, LOCATION_REASON_TOFIELD, LOCATION_REMOVED,
    LOCATION_SZONE, PLAYER_NONE, POS_FACEUP, REASON_EFFECT, REASON_MATERIAL, REASON_RITUAL,
    STATUS_SUMMONING, TYPE_MONSTER,
)
from ..group import CardSet
from ..messages import sum_params
from ..scripting import operation_values

# every effect a Tribute Summon's release list looks up (get_summon_release_list,
# is_releasable_by_summon): with none of them anywhere the plain rule applies
_TRIBUTE_EFFECTS = (EFFECT_ADD_EXTRA_TRIBUTE, EFFECT_CANNOT_RELEASE, EFFECT_UNRELEASABLE_SUM,
                    EFFECT_TRIBUTE_LIMIT, EFFECT_DOUBLE_TRIBUTE, EFFECT_EXTRA_RELEASE,
                    EFFECT_EXTRA_RELEASE_SUM)

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from ..effect import Effect
    from ..group import Group

XMat = list[tuple[int, "Card"]]

# The builtins, under names that survive the reference's ``min``/``max`` parameters.
min_ = min
max_ = max


def _xmat_insert(lst: XMat, key: int, pcard: "Card") -> None:
    """Insert into a descending (key, card) list after every pair with a key >= ``key``."""
    i = len(lst)
    while i > 0 and lst[i - 1][0] < key:
        i -= 1
    lst.insert(i, (key, pcard))


def _xmat_drop_above(lst: XMat, maxc: int) -> None:
    """Remove the pairs whose key is greater than ``maxc`` (they lead the list)."""
    lst[:] = [pair for pair in lst if pair[0] <= maxc]


def _is_facedown_monster(pcard: "Card") -> bool:
    return pcard.current.location == LOCATION_MZONE and not pcard.is_position(POS_FACEUP)


# opmin passed by the reference's sum checks ("no card is superfluous" starts unbounded)
_SUM_OPMIN = 0xFFFF


class MaterialsMixin:
    """Methods of Duel (see engine/duel.py)."""

    def _check_filter(self: "Duel", filter_fn: Any, pcard: "Card", *extra_args: Any) -> bool:
        """A script card filter; no function accepts every card."""
        if filter_fn is None:
            return True
        return bool(self.script.check_filter(filter_fn, pcard, *extra_args))

    # ===== tributes ====================================================================

    def get_release_list(self: "Duel", playerid: int, release_list: CardSet | None,
                         ex_list: CardSet | None, ex_list_oneof: CardSet | None,
                         use_con: bool | int, use_hand: bool | int, filter_fn: Any,
                         extra_args: tuple, exc: "Card | None", exg: "Group | None",
                         reason: int) -> int:
        """Cards ``playerid`` can Tribute other than for a summon; returns how many.

        Own monsters (and, with ``use_hand``, cards in hand) that can be
        released for ``reason`` (and by the current reason effect when the
        reason is REASON_EFFECT) and pass the filter when ``use_con`` go to
        ``release_list``.  Opponent's monsters must also be face-up when
        ``use_con``: those under EFFECT_EXTRA_RELEASE go to ``ex_list``; those
        under a usable EFFECT_EXTRA_RELEASE_NONSUM whose value condition
        accepts (reason effect, reason, reason player) go to ``ex_list_oneof``
        and add at most 1 to the count all together.  ``exc`` / ``exg`` are
        left out.  Every counted card gets release_param 1.
        """
        re = self.core.reason_effect

        def can_release(pcard: "Card | None", need_faceup: bool = False) -> bool:
            return (pcard is not None and pcard is not exc
                    and not (exg is not None and exg.has_card(pcard))
                    and (not need_faceup or pcard.is_position(POS_FACEUP) or not use_con)
                    and pcard.is_releasable_by_nonsummon(playerid, reason)
                    and (reason != REASON_EFFECT or pcard.is_releasable_by_effect(playerid, re))
                    and (not use_con or self._check_filter(filter_fn, pcard, *extra_args)))

        rcount = 0
        own = list(self.player[playerid].list_mzone)
        if use_hand:
            own += self.player[playerid].list_hand
        for pcard in own:
            if can_release(pcard):
                if release_list is not None:
                    release_list.add(pcard)
                pcard.release_param = 1
                rcount += 1
        ex_oneof_max = 0
        for pcard in self.player[1 - playerid].list_mzone:
            if not can_release(pcard, need_faceup=True):
                continue
            pcard.release_param = 1
            if pcard.is_affected_by_effect(EFFECT_EXTRA_RELEASE) is not None:
                if ex_list is not None:
                    ex_list.add(pcard)
                rcount += 1
                continue
            peffect = pcard.is_affected_by_effect(EFFECT_EXTRA_RELEASE_NONSUM)
            if peffect is None or (peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) and peffect.count_limit == 0):
                continue
            if not peffect.check_value_condition(self.core.reason_effect, reason, self.core.reason_player):
                continue
            if ex_list_oneof is not None:
                ex_list_oneof.add(pcard)
            ex_oneof_max = 1
        return rcount + ex_oneof_max

    def check_release_list(self: "Duel", playerid: int, count: int, use_con: bool | int,
                           use_hand: bool | int, filter_fn: Any, extra_args: tuple,
                           exc: "Card | None", exg: "Group | None", reason: int) -> bool:
        """Can ``playerid`` Tribute ``count`` cards (see get_release_list)?

        Cards in ``core.must_select_cards`` must be among them; at most one of
        those may be an "one of" opponent's monster.  The "one of" group adds 1
        when none of it is already required.
        """
        relcard = CardSet()
        relcard_oneof = CardSet()
        self.get_release_list(playerid, relcard, relcard, relcard_oneof, use_con, use_hand,
                              filter_fn, extra_args, exc, exg, reason)
        has_oneof = False
        for pcard in self.core.must_select_cards:
            if pcard in relcard:
                relcard.discard(pcard)
            elif not has_oneof and pcard in relcard_oneof:
                has_oneof = True
            else:
                return False
        rcount = len(relcard)
        if not has_oneof and relcard_oneof:
            rcount += 1
        return rcount >= count

    def get_summon_release_list(self: "Duel", target: "Card", release_list: "set[Card] | None",
                                ex_list: "set[Card] | None", ex_list_oneof: "set[Card] | None",
                                mg: "Group | None" = None, ex: bool | int = 0,
                                releasable: int = 0xFF00FF, pos: int = 0x1) -> int:
        """Tributes available for a Tribute Summon of ``target``; returns the most they are worth.

        Own monsters in ``releasable`` zones (low bits) that may be released
        for this summon (and are in ``mg`` if given) go to ``release_list``.
        Opponent's monsters in ``releasable`` zones (bits 16+): to
        ``release_list`` when ``ex`` is set or an EFFECT_ADD_EXTRA_TRIBUTE of
        ``target`` (for position ``pos``) covers them, else to ``ex_list``
        under EFFECT_EXTRA_RELEASE, else to ``ex_list_oneof`` under a usable
        EFFECT_EXTRA_RELEASE_SUM (only the best one of these counts).
        Monsters elsewhere covered by EFFECT_ADD_EXTRA_TRIBUTE are added too.
        A monster under EFFECT_DOUBLE_TRIBUTE for ``target`` is worth 2
        (release_param), others 1.
        """
        p = target.current.controler
        if not self.effects.holds_any(_TRIBUTE_EFFECTS):
            return self._plain_release_list(p, release_list, mg, ex, releasable)
        ex_tribute = CardSet()
        for peffect in target.filter_effect(EFFECT_ADD_EXTRA_TRIBUTE):
            if peffect.get_value() & pos:
                self.filter_inrange_cards(peffect, ex_tribute)

        # (only skips work: with no EFFECT_DOUBLE_TRIBUTE anywhere every monster is worth 1)
        doubles = self.effects.holds(EFFECT_DOUBLE_TRIBUTE)

        def set_worth(pcard: "Card") -> None:
            double = doubles and pcard.is_affected_by_effect(EFFECT_DOUBLE_TRIBUTE, target) is not None
            pcard.release_param = 2 if double else 1

        rcount = 0
        for pcard in self.player[p].list_mzone:
            if (pcard is not None and (releasable >> pcard.current.sequence) & 1
                    and pcard.is_releasable_by_summon(p, target)):
                if mg is not None and not mg.has_card(pcard):
                    continue
                if release_list is not None:
                    release_list.add(pcard)
                set_worth(pcard)
                rcount += pcard.release_param
        ex_oneof_max = 0
        for pcard in self.player[1 - p].list_mzone:
            if (pcard is None or not (releasable >> (pcard.current.sequence + 16)) & 1
                    or not pcard.is_releasable_by_summon(p, target)):
                continue
            if mg is not None and not mg.has_card(pcard):
                continue
            set_worth(pcard)
            if ex or pcard in ex_tribute:
                if release_list is not None:
                    release_list.add(pcard)
                rcount += pcard.release_param
            elif pcard.is_affected_by_effect(EFFECT_EXTRA_RELEASE) is not None:
                if ex_list is not None:
                    ex_list.add(pcard)
                rcount += pcard.release_param
            else:
                peffect = pcard.is_affected_by_effect(EFFECT_EXTRA_RELEASE_SUM)
                if peffect is None or (peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) and peffect.count_limit == 0):
                    continue
                if ex_list_oneof is not None:
                    ex_list_oneof.add(pcard)
                ex_oneof_max = max(ex_oneof_max, pcard.release_param)
        for pcard in ex_tribute:
            if pcard.current.location == LOCATION_MZONE or not pcard.is_releasable_by_summon(p, target):
                continue
            if release_list is not None:
                release_list.add(pcard)
            set_worth(pcard)
            rcount += pcard.release_param
        return rcount + ex_oneof_max

    def _plain_release_list(self: "Duel", p: int, release_list: "set[Card] | None", mg: "Group | None",
                            ex: bool | int, releasable: int) -> int:
        """get_summon_release_list when no effect of _TRIBUTE_EFFECTS exists anywhere.

        Then no look-up it makes can find anything, so the rule is only: a monster
        in a ``releasable`` zone that is not being summoned and is no Xyz material
        (and is in ``mg`` if given) is a Tribute worth 1; an opponent's one only
        when ``ex`` (no extra-release effect can exist).  Every card it looks at
        gets release_param 1, as the full walk gives it.
        """
        rcount = 0
        for side, shift in ((p, 0), (1 - p, 16)):
            for pcard in filter(None, self.player[side].list_mzone):     # (the occupied zones)
                if (not (releasable >> (pcard.current.sequence + shift)) & 1
                        or pcard.status & STATUS_SUMMONING or pcard.overlay_target is not None
                        or pcard.current.location & (LOCATION_GRAVE | LOCATION_REMOVED)):
                    continue
                if mg is not None and not mg.has_card(pcard):
                    continue
                pcard.release_param = 1
                if shift and not ex:
                    continue
                if release_list is not None:
                    release_list.add(pcard)
                rcount += 1
        return rcount

    def check_tribute(self: "Duel", pcard: "Card", min: int, max: int, mg: "Group | None",
                      toplayer: int, zone: int = 0x1F, releasable: int = 0xFF00FF,
                      pos: int = 0x1) -> bool:
        """Can ``pcard`` be Tribute Summoned to ``toplayer``'s ``zone`` with min..max Tributes?

        Enough Tributes must exist; after releasing them a zone in ``zone``
        must be free (a released monster of ``toplayer`` in ``zone`` frees
        one); and if the summoner is over their EFFECT_MAX_MZONE limit, enough
        of ``toplayer``'s own monsters must be among the Tributes to get back
        under it.  ``ex_list`` monsters (extra releases) do not count towards
        that.
        """
        sumplayer = pcard.current.controler
        ex = toplayer == 1 - sumplayer
        # (only counted here, never iterated in order: plain sets, cheaper to make than CardSets)
        release_list: set[Card] = set()
        ex_list: set[Card] = set()
        m = self.get_summon_release_list(pcard, release_list, ex_list, None, mg, ex, releasable, pos)
        if max > m:
            max = m
        if min > max:
            return False
        zone &= 0x1F
        s = 0
        ct = self.get_tofield_count(pcard, toplayer, LOCATION_MZONE, sumplayer,
                                    LOCATION_REASON_TOFIELD, zone)
        if ct <= 0 and max <= 0:
            return False
        for release_card in release_list:
            if release_card.current.location == LOCATION_MZONE and release_card.current.controler == toplayer:
                s += 1
                if (zone >> release_card.current.sequence) & 1:
                    ct += 1
        if ct <= 0:
            return False
        max -= len(ex_list)
        fcount = self.get_mzone_limit(toplayer, sumplayer, LOCATION_REASON_TOFIELD)
        if s < -fcount + 1:
            return False
        if max < 0:
            max = 0
        if max < -fcount + 1:
            return False
        return True

    # ===== Ritual and Fusion ===========================================================

    def get_ritual_material(self: "Duel", playerid: int, peffect: "Effect | None",
                            material: CardSet, no_level: bool | int = False) -> CardSet:
        """Cards ``playerid`` may use as Ritual materials for ``peffect``.

        Own monsters the effect can affect and release; materials of own Xyz
        Monsters under EFFECT_OVERLAY_RITUAL_MATERIAL; face-up opponent's
        monsters under EFFECT_EXTRA_RELEASE the effect can affect and release;
        monsters in hand that can be released; monsters in the GY under
        EFFECT_EXTRA_RITUAL_MATERIAL that can be banished; Extra Deck cards
        under EFFECT_EXTRA_RITUAL_MATERIAL.  Unless ``no_level``, field, GY and
        Extra Deck cards need a Level (or EFFECT_RITUAL_LEVEL_EX).
        """
        def has_level(pcard: "Card", holder: "Card | None" = None) -> bool:
            # for an Xyz material the reference asks its holder about EFFECT_RITUAL_LEVEL_EX
            holder = pcard if holder is None else holder
            return bool(no_level or pcard.get_level() > 0
                        or holder.is_affected_by_effect(EFFECT_RITUAL_LEVEL_EX) is not None)

        def releasable(pcard: "Card") -> bool:
            return (pcard.is_releasable_by_nonsummon(playerid, REASON_EFFECT)
                    and pcard.is_releasable_by_effect(playerid, peffect))

        pl = self.player[playerid]
        for pcard in pl.list_mzone:
            if pcard is None:
                continue
            if pcard.is_affect_by_effect(peffect) and releasable(pcard) and has_level(pcard):
                material.add(pcard)
            if pcard.is_affected_by_effect(EFFECT_OVERLAY_RITUAL_MATERIAL) is not None:
                for mcard in pcard.xyz_materials:
                    if has_level(mcard, holder=pcard):
                        material.add(mcard)
        for pcard in self.player[1 - playerid].list_mzone:
            if (pcard is not None and pcard.is_affect_by_effect(peffect)
                    and pcard.is_affected_by_effect(EFFECT_EXTRA_RELEASE) is not None
                    and pcard.is_position(POS_FACEUP) and releasable(pcard) and has_level(pcard)):
                material.add(pcard)
        for pcard in pl.list_hand:
            if (pcard.data.type & TYPE_MONSTER) and pcard.is_releasable_by_nonsummon(playerid, REASON_EFFECT):
                material.add(pcard)
        for pcard in pl.list_grave:
            if ((pcard.data.type & TYPE_MONSTER)
                    and pcard.is_affected_by_effect(EFFECT_EXTRA_RITUAL_MATERIAL) is not None
                    and pcard.is_removeable(playerid, POS_FACEUP, REASON_EFFECT) and has_level(pcard)):
                material.add(pcard)
        for pcard in pl.list_extra:
            if pcard.is_affected_by_effect(EFFECT_EXTRA_RITUAL_MATERIAL) is not None and has_level(pcard):
                material.add(pcard)
        return material

    def get_fusion_material(self: "Duel", playerid: int, material_all: CardSet,
                            material_base: CardSet, location: int) -> None:
        """Fusion material candidates of ``playerid``.

        ``material_base``: the monsters in the locations asked for (field
        monsters only when they count as on the field; for LOCATION_SZONE /
        LOCATION_PZONE, monster cards there).  ``material_all``: those plus
        cards in the Spell & Trap Zones and GY under
        EFFECT_EXTRA_FUSION_MATERIAL.
        """
        pl = self.player[playerid]

        def monster(pcard: "Card | None") -> bool:
            return pcard is not None and bool(pcard.data.type & TYPE_MONSTER)

        if location & LOCATION_MZONE:
            for pcard in pl.list_mzone:
                if pcard is not None and not pcard.is_treated_as_not_on_field():
                    material_base.add(pcard)
        for loc, pile in ((LOCATION_HAND, pl.list_hand), (LOCATION_GRAVE, pl.list_grave),
                          (LOCATION_REMOVED, pl.list_remove), (LOCATION_DECK, pl.list_main),
                          (LOCATION_EXTRA, pl.list_extra)):
            if location & loc:
                for pcard in pile:
                    if monster(pcard):
                        material_base.add(pcard)
        if location & LOCATION_SZONE:
            for pcard in pl.list_szone:
                if monster(pcard) and not pcard.is_treated_as_not_on_field():
                    material_base.add(pcard)
        if location & LOCATION_PZONE:
            for pcard in pl.list_szone:
                if monster(pcard) and pcard.current.pzone and not pcard.is_treated_as_not_on_field():
                    material_base.add(pcard)
        for pcard in pl.list_szone:
            if pcard is not None and pcard.is_affected_by_effect(EFFECT_EXTRA_FUSION_MATERIAL) is not None:
                material_all.add(pcard)
        for pcard in pl.list_grave:
            if pcard.is_affected_by_effect(EFFECT_EXTRA_FUSION_MATERIAL) is not None:
                material_all.add(pcard)
        material_all.update(material_base)

    def ritual_release(self: "Duel", material: CardSet) -> None:
        """Use Ritual materials: GY ones are banished, Xyz materials and Extra Deck cards are
        sent to the GY, the rest are Tributed.

        Queued in the reference's order: to GY, release, banish.
        """
        rel, rem, tgy = CardSet(), CardSet(), CardSet()
        for pcard in material:
            if pcard.current.location == LOCATION_GRAVE:
                rem.add(pcard)
            elif pcard.current.location in (LOCATION_OVERLAY, LOCATION_EXTRA):
                tgy.add(pcard)
            else:
                rel.add(pcard)
        reason = REASON_RITUAL + REASON_EFFECT + REASON_MATERIAL
        re, rp = self.core.reason_effect, self.core.reason_player
        self.send_to(tgy, re, reason, rp, PLAYER_NONE, LOCATION_GRAVE, 0, POS_FACEUP)
        self.release(rel, re, reason, rp)
        self.send_to(rem, re, reason, rp, PLAYER_NONE, LOCATION_REMOVED, 0, POS_FACEUP)

    # ===== "must be used as material" ==================================================

    def get_must_material_list(self: "Duel", playerid: int, limit: int,
                               must_list: CardSet) -> int:
        """Cards whose ``limit`` effect (e.g. EFFECT_MUST_BE_SMATERIAL) makes them required material."""
        for peffect in self.filter_player_effect(playerid, limit):
            must_list.add(peffect.handler)
        return len(must_list)

    def check_must_material(self: "Duel", mg: "Group | None", playerid: int, limit: int) -> bool:
        """Every required material (see get_must_material_list) is in ``mg``."""
        must_list = CardSet()
        if self.get_must_material_list(playerid, limit, must_list) <= 0:
            return True
        if mg is None:
            return False
        return all(mg.has_card(pcard) for pcard in must_list)

    # ===== Synchro =====================================================================

    def get_synchro_material(self: "Duel", playerid: int, material: CardSet,
                             tuner_limit: "Effect | None" = None) -> CardSet:
        """Synchro material candidates of ``playerid``.

        With a tuner's EFFECT_TUNER_MATERIAL_LIMIT whose value is a location:
        own monsters (on the field) and/or cards in hand, as that value says.
        Otherwise: own monsters on the field, opponent's monsters and own cards
        in hand under EFFECT_EXTRA_SYNCHRO_MATERIAL.
        """
        pl = self.player[playerid]
        # scripts always give EFFECT_TUNER_MATERIAL_LIMIT a location value
        limit_loc = tuner_limit.value if tuner_limit is not None else 0
        if limit_loc:
            location = limit_loc if isinstance(limit_loc, int) else 0
            if location & LOCATION_MZONE:
                for pcard in pl.list_mzone:
                    if pcard is not None and not pcard.is_treated_as_not_on_field():
                        material.add(pcard)
            if location & LOCATION_HAND:
                for pcard in pl.list_hand:
                    material.add(pcard)
            return material
        for pcard in pl.list_mzone:
            if pcard is not None and not pcard.is_treated_as_not_on_field():
                material.add(pcard)
        for pcard in self.player[1 - playerid].list_mzone:
            if (pcard is not None and pcard.is_affected_by_effect(EFFECT_EXTRA_SYNCHRO_MATERIAL) is not None
                    and not pcard.is_treated_as_not_on_field()):
                material.add(pcard)
        for pcard in pl.list_hand:
            if pcard.is_affected_by_effect(EFFECT_EXTRA_SYNCHRO_MATERIAL) is not None:
                material.add(pcard)
        return material

    def check_synchro_material(self: "Duel", pcard: "Card", filter1: Any, filter2: Any,
                               min: int, max: int, smat: "Card | None",
                               mg: "Group | None") -> bool:
        """Can ``pcard`` be Synchro Summoned: some tuner (from ``mg``, or the field) works?"""
        if mg is not None:
            return any(self.check_tuner_material(pcard, tuner, filter1, filter2, min, max, None, mg)
                       for tuner in mg.container)
        material = self.get_synchro_material(pcard.current.controler, CardSet())
        return any(self.check_tuner_material(pcard, tuner, filter1, filter2, min, max, smat, None)
                   for tuner in material)

    def check_tuner_material(self: "Duel", pcard: "Card", tuner: "Card | None", filter1: Any,
                             filter2: Any, min: int, max: int, smat: "Card | None",
                             mg: "Group | None") -> bool:
        """Can ``pcard`` be Synchro Summoned with ``tuner`` and min..max non-tuners?

        ``filter1`` must accept the tuner, ``filter2`` (with ``pcard``) each
        non-tuner; ``smat`` must be among the materials; materials come from
        ``mg`` or the field.  The tuner's effects can take over
        (EFFECT_SYNCHRO_MATERIAL_CUSTOM) or restrict the non-tuners
        (EFFECT_TUNER_MATERIAL_LIMIT); EFFECT_SYNCHRO_CHECK may assume another
        Level for each card looked at; required materials
        (EFFECT_MUST_BE_SMATERIAL) must be used.  If no Monster Zone would be
        free, one of the materials must leave a zone the Synchro Monster can
        use.  Finally the materials' Synchro Levels must add up to
        ``pcard``'s Level.  Assumed stats are undone afterwards (except on the
        two early exits where the reference does not undo them).
        """
        result = self._tuner_material_result(pcard, tuner, filter1, filter2, min, max, smat, mg)
        if result is None:
            return False
        self.restore_assumes()
        return result

    def _tuner_material_result(self: "Duel", pcard: "Card", tuner: "Card | None", filter1: Any,
                               filter2: Any, min: int, max: int, smat: "Card | None",
                               mg: "Group | None") -> bool | None:
        """check_tuner_material's answer; None for "no" without undoing assumed stats."""
        if (tuner is None or _is_facedown_monster(tuner) or not tuner.is_tuner(pcard)
                or not tuner.is_can_be_synchro_material(pcard)):
            return None
        pcheck = tuner.is_affected_by_effect(EFFECT_SYNCHRO_CHECK)
        if pcheck is not None:
            pcheck.get_value(tuner)
        if (mg is not None and not mg.has_card(tuner)) or not self._check_filter(filter1, tuner):
            return False
        pcustom = tuner.is_affected_by_effect(EFFECT_SYNCHRO_MATERIAL_CUSTOM, pcard)
        if pcustom is not None:
            if pcustom.target is None:
                return False
            return bool(self.script.check_condition(pcustom.target, pcustom, pcard, filter2, min, max))
        playerid = pcard.current.controler
        must_list = CardSet()
        self.get_must_material_list(playerid, EFFECT_MUST_BE_SMATERIAL, must_list)
        must_list.discard(tuner)
        location_count = self.get_spsummonable_count(pcard, playerid)
        handover_zone_cards = CardSet()
        if location_count <= 0:
            handover_zone_cards = self._handover_zone_cards(playerid, pcard)
            if tuner in handover_zone_cards:
                location_count += 1
        location = LOCATION_MZONE
        tuner_limit = tuner.is_affected_by_effect(EFFECT_TUNER_MATERIAL_LIMIT)
        if tuner_limit is not None:
            if tuner_limit.get_integer_value():
                location = tuner_limit.get_integer_value()
            if tuner_limit.is_flag(EFFECT_FLAG_SPSUM_PARAM):
                if tuner_limit.s_range and tuner_limit.s_range > min:
                    min = tuner_limit.s_range
                if tuner_limit.o_range and tuner_limit.o_range < max:
                    max = tuner_limit.o_range
            if min > max:
                return False
        extra_effect = tuner.is_affected_by_effect(EFFECT_EXTRA_SYNCHRO_MATERIAL)
        if extra_effect is not None:
            # the reference returns here without undoing assumed stats
            if not extra_effect.check_count_limit(playerid):
                return None
            if extra_effect.get_value(pcard) <= 0:
                return None
        mzone_limit = self.get_mzone_limit(playerid, playerid, LOCATION_REASON_TOFIELD)
        if mzone_limit < 0:
            if location == LOCATION_HAND:
                return False
            min = max_(min, -mzone_limit)
            if min > max:
                return False
        lv = pcard.get_level()
        nsyn: list[Card] = [tuner]
        mcount = 1
        tuner.sum_param = tuner.get_synchro_level(pcard)

        def limit_rejects(mat: "Card", check_location: Any) -> bool:
            """EFFECT_TUNER_MATERIAL_LIMIT refuses ``mat`` (target function, then location)."""
            if tuner_limit is None:
                return False
            if tuner_limit.target is not None and not self.script.get_function_value(
                    tuner_limit.target, tuner_limit, mat):
                return True
            return bool(check_location and not (mat.current.location & location))

        if smat is not None:
            if pcheck is not None:
                pcheck.get_value(smat)
            if _is_facedown_monster(smat) or not smat.is_can_be_synchro_material(pcard, tuner):
                return False
            if not self._check_filter(filter2, smat, pcard):
                return False
            if limit_rejects(smat, tuner_limit is not None and tuner_limit.get_integer_value()):
                return False
            min -= 1
            max -= 1
            nsyn.append(smat)
            smat.sum_param = smat.get_synchro_level(pcard)
            mcount += 1
            must_list.discard(smat)
            if location_count <= 0 and smat in handover_zone_cards:
                location_count += 1
            if min == 0:
                if (location_count > 0 and not must_list
                        and self.check_with_sum_limit_m(nsyn, lv, 0, 0, 0, 0xFFFF, 2)):
                    return True
                if max == 0:
                    return False
        for mcard in must_list:
            if mg is not None and not mg.has_card(mcard):
                return False
            if pcheck is not None:
                pcheck.get_value(mcard)
            if _is_facedown_monster(mcard) or not mcard.is_can_be_synchro_material(pcard, tuner):
                return False
            if not self._check_filter(filter2, mcard, pcard):
                return False
            # here the reference tests the effect's raw value, not its integer value
            if limit_rejects(mcard, tuner_limit is not None and tuner_limit.value):
                return False
            min -= 1
            max -= 1
            nsyn.append(mcard)
            mcard.sum_param = mcard.get_synchro_level(pcard)
            mcount += 1
        self._add_other_synchro_candidates(nsyn, pcard, tuner, smat, must_list, mg, pcheck,
                                           tuner_limit, filter2, limit_rejects)
        if location_count > 0:
            return bool(self.check_other_synchro_material(nsyn, lv, min, max, mcount))
        # No free zone: one more material must leave a zone the Synchro Monster can use.
        # Try each such candidate as the first optional material.
        start = mcount
        for i in range(start, len(nsyn)):
            if nsyn[i] not in handover_zone_cards:
                continue
            if start != i:
                nsyn[start], nsyn[i] = nsyn[i], nsyn[start]
            if self.check_other_synchro_material(nsyn, lv, min - 1, max - 1, mcount + 1):
                return True
            if start != i:
                nsyn[start], nsyn[i] = nsyn[i], nsyn[start]
        return False

    def _add_other_synchro_candidates(self: "Duel", nsyn: list["Card"], pcard: "Card",
                                      tuner: "Card", smat: "Card | None", must_list: CardSet,
                                      mg: "Group | None", pcheck: "Effect | None",
                                      tuner_limit: "Effect | None", filter2: Any,
                                      limit_rejects: Any) -> None:
        """Append the optional non-tuner candidates to ``nsyn`` and set their sum_param.

        From ``mg`` the tuner's location limit is checked per card; from the
        field the candidate list already follows it.  The order of the checks
        (limit, then EFFECT_SYNCHRO_CHECK, then face-up, then the filter) is
        the reference's: it decides which script calls happen.
        """
        if mg is not None:
            candidates = list(mg.container)
            check_location = tuner_limit is not None and tuner_limit.get_integer_value()
        else:
            candidates = list(self.get_synchro_material(pcard.current.controler, CardSet(), tuner_limit))
            check_location = False
        for pm in candidates:
            if (pm is None or pm is tuner or pm is smat or pm in must_list
                    or not pm.is_can_be_synchro_material(pcard, tuner)):
                continue
            if limit_rejects(pm, check_location):
                continue
            if pcheck is not None:
                pcheck.get_value(pm)
            if _is_facedown_monster(pm):
                continue
            if not self._check_filter(filter2, pm, pcard):
                continue
            nsyn.append(pm)
            pm.sum_param = pm.get_synchro_level(pcard)

    def _handover_zone_cards(self: "Duel", playerid: int, pcard: "Card") -> CardSet:
        """Own monsters whose zone ``pcard`` (from the Extra Deck) could take once they leave."""
        must_use_zone_flag = self.filter_must_use_mzone(playerid, playerid, LOCATION_REASON_TOFIELD,
                                                        pcard, 0)
        handover_zone = self.get_rule_zone_fromex(playerid, pcard) & ~must_use_zone_flag
        return self.get_cards_in_zone(CardSet(), handover_zone, playerid, LOCATION_MZONE)

    def check_other_synchro_material(self: "Duel", nsyn: list["Card"], lv: int, min: int,
                                     max: int, mcount: int) -> bool:
        """Do the first ``mcount`` materials plus min..max of the rest sum to Level ``lv``?

        Scrap Chimera (EFFECT_SCRAP_CHIMERA, when GLOBALFLAG_SCRAP_CHIMERA is
        on): if a candidate carries it, either the materials its value refuses
        are left out (allowed only if none of the fixed ones is refused), or
        the Scrap Chimera cards themselves are left out (allowed only if none
        of the fixed ones is one).
        """
        def fits(mats: list["Card"]) -> bool:
            return bool(self.check_with_sum_limit_m(mats, lv, 0, min, max, 0xFFFF, mcount))

        if not (self.core.global_flag & GLOBALFLAG_SCRAP_CHIMERA):
            return fits(nsyn)
        pscrap = None
        for pm in nsyn:
            pscrap = pm.is_affected_by_effect(EFFECT_SCRAP_CHIMERA)
            if pscrap is not None:
                break
        if pscrap is None:
            return fits(nsyn)
        nsyn_filtered = [pm for pm in nsyn if not pscrap.get_value(pm)]
        if len(nsyn_filtered) == len(nsyn):
            return fits(nsyn)
        mfiltered = True
        for i in range(mcount):  # every fixed material is asked, no early stop
            if pscrap.get_value(nsyn[i]):
                mfiltered = False
        if mfiltered and fits(nsyn_filtered):
            return True
        for i in range(mcount):
            if nsyn[i].is_affected_by_effect(EFFECT_SCRAP_CHIMERA) is not None:
                return False
        nsyn_removed = [pm for pm in nsyn if pm.is_affected_by_effect(EFFECT_SCRAP_CHIMERA) is None]
        return fits(nsyn_removed)

    # ===== sums (Synchro Levels, Ritual Levels, Group.CheckWithSum*) ===================

    # A card's two possible values in a sum (field::get_sum_params): the one
    # definition, engine.messages.sum_params, which SELECT_SUM's check uses too.
    get_sum_params = staticmethod(sum_params)

    @staticmethod
    def check_with_sum_limit(mats: list["Card"], acc: int, index: int, count: int, min: int,
                             max: int, opmin: int) -> bool:
        """Can ``count`` cards so far plus some of ``mats[index:]`` make exactly ``acc``, using
        min..max cards in all, with no card superfluous?

        "No card superfluous": the smallest value used (``opmin``) must be
        needed, i.e. the sum minus it falls short.
        """
        if count > max:
            return False
        get = MaterialsMixin.get_sum_params
        rec = MaterialsMixin.check_with_sum_limit
        while index < len(mats):
            op1, op2 = get(mats[index].sum_param)
            if ((op1 == acc and acc + opmin > op1) or (op2 and op2 == acc and acc + opmin > op2)) and count >= min:
                return True
            index += 1
            if acc > op1 and rec(mats, acc - op1, index, count + 1, min, max, min_(opmin, op1)):
                return True
            if op2 and acc > op2 and rec(mats, acc - op2, index, count + 1, min, max, min_(opmin, op2)):
                return True
        return False

    @staticmethod
    def check_with_sum_limit_m(mats: list["Card"], acc: int, index: int, min: int, max: int,
                               opmin: int, must_count: int) -> bool:
        """check_with_sum_limit where the first ``must_count`` cards must all be used."""
        if acc == 0:
            return index == must_count and 0 >= min and 0 <= max
        if index == must_count:
            return MaterialsMixin.check_with_sum_limit(mats, acc, index, 1, min, max, opmin)
        if index >= len(mats):
            return False
        op1, op2 = MaterialsMixin.get_sum_params(mats[index].sum_param)
        rec = MaterialsMixin.check_with_sum_limit_m
        if acc >= op1 and rec(mats, acc - op1, index + 1, min, max, min_(opmin, op1), must_count):
            return True
        if op2 and acc >= op2 and rec(mats, acc - op2, index + 1, min, max, min_(opmin, op2), must_count):
            return True
        return False

    @staticmethod
    def check_with_sum_greater_limit(mats: list["Card"], acc: int, index: int, opmin: int) -> bool:
        """Can some of ``mats[index:]`` reach at least ``acc`` with no card superfluous?"""
        get = MaterialsMixin.get_sum_params
        rec = MaterialsMixin.check_with_sum_greater_limit
        while index < len(mats):
            op1, op2 = get(mats[index].sum_param)
            if (acc <= op1 and acc + opmin > op1) or (op2 and acc <= op2 and acc + opmin > op2):
                return True
            index += 1
            if rec(mats, acc - op1, index, min_(opmin, op1)):
                return True
            if op2 and rec(mats, acc - op2, index, min_(opmin, op2)):
                return True
        return False

    @staticmethod
    def check_with_sum_greater_limit_m(mats: list["Card"], acc: int, index: int, opmin: int,
                                       must_count: int) -> bool:
        """check_with_sum_greater_limit where the first ``must_count`` cards must all be used."""
        if acc <= 0:
            return index == must_count and acc + opmin > 0
        if index == must_count:
            return MaterialsMixin.check_with_sum_greater_limit(mats, acc, index, opmin)
        if index >= len(mats):
            return False
        op1, op2 = MaterialsMixin.get_sum_params(mats[index].sum_param)
        rec = MaterialsMixin.check_with_sum_greater_limit_m
        if rec(mats, acc - op1, index + 1, min_(opmin, op1), must_count):
            return True
        if op2 and rec(mats, acc - op2, index + 1, min_(opmin, op2), must_count):
            return True
        return False

    # ===== Xyz =========================================================================

    def get_xyz_material(self: "Duel", scard: "Card", filter_fn: Any, lv: int, maxc: int,
                         mg: "Group | None") -> XMat:
        """Fill ``core.xmaterial_lst`` with the Xyz material candidates for ``scard`` of Rank ``lv``.

        From ``mg``, or else the face-up monsters on ``scard``'s controller's
        field and the opponent's under EFFECT_XYZ_MATERIAL (not those treated
        as not on the field).  Each must be able to be Xyz material for
        ``scard``, have a suitable Level and pass the filter; it is keyed by
        how many materials it counts as.  With GLOBALFLAG_XMAT_COUNT_LIMIT the
        ones counting as more than ``maxc`` (capped to the number found) are
        dropped.
        """
        lst = self.core.xmaterial_lst
        lst.clear()

        def consider(pcard: "Card", need_xyz_material_effect: bool) -> None:
            if not pcard.is_can_be_xyz_material(scard):
                return
            xyz_level = pcard.check_xyz_level(scard, lv)
            if not xyz_level:
                return
            if need_xyz_material_effect and pcard.is_affected_by_effect(EFFECT_XYZ_MATERIAL) is None:
                return
            if filter_fn is not None and not self._check_filter(filter_fn, pcard):
                return
            _xmat_insert(lst, (xyz_level >> 12) & 0xF, pcard)

        if mg is not None:
            for pcard in mg.container:
                consider(pcard, False)
        else:
            playerid = scard.current.controler
            for p, opponent in ((playerid, False), (1 - playerid, True)):
                for pcard in self.player[p].list_mzone:
                    if (pcard is not None and pcard.is_position(POS_FACEUP)
                            and not pcard.is_treated_as_not_on_field()):
                        consider(pcard, opponent)
        if self.core.global_flag & GLOBALFLAG_XMAT_COUNT_LIMIT:
            _xmat_drop_above(lst, min_(maxc, len(lst)))
        return lst

    def check_xyz_material(self: "Duel", scard: "Card", filter_fn: Any, lv: int, min: int,
                           max: int, mg: "Group | None") -> bool:
        """Can ``scard`` be Xyz Summoned with min..max materials of Rank ``lv``?

        Builds core.xmaterial_lst (get_xyz_material).  If no Monster Zone would
        be free, a material must leave a zone ``scard`` can use; if the player
        is at their EFFECT_MAX_MZONE limit, enough materials must come from the
        field.  Required materials (EFFECT_MUST_BE_XMATERIAL) must all be
        candidates.  With Tune Magician (GLOBALFLAG_TUNE_MAGICIAN) materials
        that cannot be used together (EFFECT_TUNE_MAGICIAN_X) are split into
        compatible groups, and one group must be big enough.
        """
        lst = self.get_xyz_material(scard, filter_fn, lv, max, mg)
        playerid = scard.current.controler
        ct = self.get_spsummonable_count(scard, playerid)
        handover_zone_cards = CardSet()
        if ct <= 0:
            handover_zone_cards = self._handover_zone_cards(playerid, scard)
            ft = ct + sum(1 for _, pcard in lst if pcard in handover_zone_cards)
            if ft <= 0:
                return False
        mzone_limit = self.get_mzone_limit(playerid, playerid, LOCATION_REASON_TOFIELD)
        if mzone_limit <= 0:
            min = max_(min, -mzone_limit + 1)
            if min > max:
                return False
        mcset = CardSet()
        mct = self.get_must_material_list(playerid, EFFECT_MUST_BE_XMATERIAL, mcset)
        if mct > 0:
            if ct == 0 and not any(pcard in handover_zone_cards for pcard in mcset):
                mct += 1
            if mct > max:
                return False
        if not (self.core.global_flag & GLOBALFLAG_TUNE_MAGICIAN):
            listed = {pcard for _, pcard in lst}
            if any(pcard not in listed for pcard in mcset):
                return False
            return len(lst) >= min
        return self._check_xyz_tune_magician(lst, mcset, mct, ct, handover_zone_cards, min, max)

    def _check_xyz_tune_magician(self: "Duel", lst: XMat, mcset: CardSet, mct: int, ct: int,
                                 handover_zone_cards: CardSet, min: int, max: int) -> bool:
        """check_xyz_material's end when a Tune Magician is in the duel.

        Each material under EFFECT_TUNE_MAGICIAN_X gets its own bit (a
        "digit"); every card it can be used with gets that bit too; cards
        without the effect get bit 1.  Each bit's group is then checked on its
        own.  Required materials come out of the list first (raising ``min``
        to the count they stand for).
        """
        # required materials rule out the materials their Tune Magician effect refuses
        for pcard in mcset:
            peffect = pcard.is_affected_by_effect(EFFECT_TUNE_MAGICIAN_X)
            if peffect is not None:
                lst[:] = [(k, c) for (k, c) in lst if not (c is not pcard and peffect.get_value(c))]
        for pcard in mcset:
            index = next((i for i, (_, c) in enumerate(lst) if c is pcard), None)
            if index is None:
                return False
            min = max_(min, lst[index][0])
            del lst[index]
        for _, pcard in lst:
            pcard.sum_param = 0
        digit = 1
        i = 0
        while i < len(lst):
            pcard = lst[i][1]
            peffect = pcard.is_affected_by_effect(EFFECT_TUNE_MAGICIAN_X)
            if peffect is None:
                pcard.sum_param |= 1
                i += 1
                continue
            if any(peffect.get_value(mcard) for mcard in mcset):
                del lst[i]
                continue
            digit <<= 1
            for _, other in lst:
                if not peffect.get_value(other):
                    other.sum_param |= digit
            pcard.sum_param |= digit
            i += 1
        ct += sum(1 for pcard in mcset if pcard in handover_zone_cards)
        icheck = 1
        while icheck <= digit:
            mat = [pair for pair in lst if pair[1].sum_param & icheck]
            if self.core.global_flag & GLOBALFLAG_XMAT_COUNT_LIMIT:
                _xmat_drop_above(mat, min_(max, len(mat) + mct))
            usable = True
            if ct <= 0:
                ft = ct + sum(1 for _, pcard in mat if pcard in handover_zone_cards)
                usable = ft > 0
            if usable and len(mat) + mct >= min:
                return True
            icheck <<= 1
        return False

    # ===== material groups handed to scripts (Duel.GetSynchroMaterial, SelectFusionMaterial) ===

    def get_synchro_material_group(self: "Duel", playerid: int, facedown: bool) -> CardSet:
        """Duel.GetSynchroMaterial: the Synchro material candidates, without face-down
        monsters unless ``facedown``."""
        out = CardSet()
        for pcard in self.get_synchro_material(playerid, CardSet()):
            if pcard.current.location == LOCATION_MZONE and not pcard.is_position(POS_FACEUP) and not facedown:
                continue
            out.add(pcard)
        return out

    def get_selected_fusion_materials(self: "Duel", cg: "Card | None") -> Group:
        """What Duel.SelectFusionMaterial hands back: core.fusion_materials, plus ``cg``."""
        pgroup = self.new_group(self.core.fusion_materials)
        if cg is not None:
            pgroup.container.add(cg)
        return pgroup

    # ===== sums over a group (Group.CheckWithSum*, SelectWithSum*) ====================

    def _sum_candidates(self: "Duel", cards: Iterable["Card"], fn: Any, extra: tuple) -> tuple[list["Card"], int]:
        """The must-select cards first, then the other cards of the group; returns the list
        and how many must-select cards lead it.

        As the reference's Group.CheckWithSum* do: core.must_select_cards is
        consumed (emptied) first, then every candidate gets its ``sum_param``
        from the value function ``fn(card, *extra)``.
        """
        must = self.core.must_select_cards
        mcount = len(must)
        if mcount:
            cv = list(must)
            cv += [pcard for pcard in cards if pcard not in must]
        else:
            cv = list(cards)
        self.core.must_select_cards = []
        for pcard, value in zip(cv, operation_values(self.script, fn, cv, extra)):
            pcard.sum_param = value
        return cv, mcount

    def check_group_sum_equal(self: "Duel", cards: Iterable["Card"], fn: Any, acc: int, min_: int,
                              max_: int, extra: tuple = ()) -> bool:
        """Group.CheckWithSumEqual: can min..max of the cards (plus every card of
        core.must_select_cards, which is consumed) have values adding up to
        exactly ``acc``, with no card superfluous?

        A card's value is ``fn(card, *extra)``; its two halves are two possible
        values (see MaterialsMixin.get_sum_params).  ``min_`` below 0 counts as 0,
        ``max_`` below ``min_`` as ``min_``.
        """
        if min_ < 0:
            min_ = 0
        if max_ < min_:
            max_ = min_
        cv, mcount = self._sum_candidates(cards, fn, extra)
        return self.check_with_sum_limit_m(cv, acc, 0, min_, max_, _SUM_OPMIN, mcount)

    def check_group_sum_greater(self: "Duel", cards: Iterable["Card"], fn: Any, acc: int,
                                extra: tuple = ()) -> bool:
        """Group.CheckWithSumGreater: can some of the cards (plus every card of
        core.must_select_cards, which is consumed) reach at least ``acc`` with no
        card superfluous?"""
        cv, mcount = self._sum_candidates(cards, fn, extra)
        return self.check_with_sum_greater_limit_m(cv, acc, 0, _SUM_OPMIN, mcount)

    def prepare_group_select_sum(self: "Duel", cards: Iterable["Card"], fn: Any, acc: int,
                                 min_: int, max_: int, greater: bool, extra: tuple = ()) -> bool:
        """Set up Group.SelectWithSumEqual (``greater`` False) or SelectWithSumGreater.

        core.select_cards becomes the group's cards (card-id order) minus the
        must-select cards; every candidate gets its sum value from
        ``fn(card, *extra)``.  When no selection can succeed,
        core.must_select_cards is cleared and False is returned (the script gets
        an empty group without being asked).  Otherwise True: the caller queues
        ``proc_select_sum`` and reads the answer with
        ``group_select_sum_result``.  ``min_``/``max_`` must already be clamped.
        """
        core = self.core
        must = core.must_select_cards
        core.select_cards = [c for c in cards if c not in must]
        cv = list(must) + core.select_cards
        mcount = len(must)
        for pcard, value in zip(cv, operation_values(self.script, fn, cv, extra)):
            pcard.sum_param = value
        if greater:
            ok = self.check_with_sum_greater_limit_m(cv, acc, 0, _SUM_OPMIN, mcount)
        else:
            ok = self.check_with_sum_limit_m(cv, acc, 0, min_, max_, _SUM_OPMIN, mcount)
        if not ok:
            core.must_select_cards = []
        return ok

    def group_select_sum_result(self: "Duel") -> CardSet:
        """The cards chosen in a select-sum prompt, without the must-select cards
        (which the answer lists first); core.must_select_cards is cleared."""
        core = self.core
        b = self.returns.bvalue
        chosen = CardSet()
        for i in range(len(core.must_select_cards), b[0]):
            chosen.add(core.select_cards[b[i + 1]])
        core.must_select_cards = []
        return chosen
