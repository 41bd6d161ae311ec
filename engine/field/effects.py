"""Where field effects are indexed and which effects apply to a card or player (reference: field.cpp).

Effects that are not attached to one card's own containers -- field effects of
cards on the field, effects registered to a player with Duel.RegisterEffect,
activated effects waiting for their events -- are indexed here, in
``self.effects`` (engine/duel.py FieldEffects):

- ``aura_effect``: non-activated effects (field, player, equip-like auras), by code;
- ``ignition_effect`` ... ``continuous_effect``: activated effects by kind and code;
- ``indexer``: effect -> (container, code) where it is stored;
- ``oath``, ``pheff``, ``cheff``, ``rechargeable``, ``spsummon_count_eff``:
  bookkeeping for Duel.RegisterEffect effects (oath effects, phase/chain
  resets, count limits, special-summon count limits);
- ``grant_effect``: EFFECT_TYPE_GRANT effects and the copies they gave to cards.

Containers the reference keys by pointer (unordered_map/unordered_set of
effect*) are Python dicts iterated in insertion order.  Card sets are CardSets
(card-id order, like the reference's card_set).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..constants import (
    ACTIVITY_ATTACK, ACTIVITY_BATTLE_PHASE, ACTIVITY_CHAIN, ACTIVITY_FLIPSUMMON,
    ACTIVITY_NORMALSUMMON, ACTIVITY_SPSUMMON, ACTIVITY_SUMMON, DUEL_REVEAL_DECK_SEQ,
    EFFECT_ATTACK_ALL, EFFECT_CANNOT_BE_BATTLE_TARGET, EFFECT_CANNOT_BE_EFFECT_TARGET,
    EFFECT_CANNOT_DIRECT_ATTACK, EFFECT_CANNOT_DISABLE,
    EFFECT_DISABLE, EFFECT_FORBIDDEN, EFFECT_IMMUNE_EFFECT,
    EFFECT_CANNOT_SELECT_BATTLE_TARGET, EFFECT_CANNOT_SELECT_EFFECT_TARGET,
    EFFECT_CHANGE_ENVIRONMENT, EFFECT_COUNT_CODE_CHAIN,
    EFFECT_COUNT_CODE_DUEL, EFFECT_DIRECT_ATTACK, EFFECT_EXTRA_ATTACK, EFFECT_EXTRA_ATTACK_MONSTER,
    EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CLIENT_HINT, EFFECT_FLAG_COUNT_LIMIT,
    EFFECT_FLAG_FIELD_ONLY, EFFECT_FLAG_OATH, EFFECT_FLAG_PLAYER_TARGET, EFFECT_FLAG_SPSUM_PARAM,
    EFFECT_IGNORE_BATTLE_TARGET, EFFECT_LPCOST_CHANGE, EFFECT_LPCOST_REPLACE,
    EFFECT_MUST_ATTACK_MONSTER, EFFECT_ONLY_ATTACK_MONSTER, EFFECT_ONLY_BE_ATTACKED,
    EFFECT_SELF_DESTROY, EFFECT_SELF_TOGRAVE, EFFECT_SPSUMMON_COUNT_LIMIT, EFFECT_TYPE_ACTIONS,
    EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS, EFFECT_TYPE_FIELD, EFFECT_TYPE_GRANT,
    EFFECT_TYPE_IGNITION, EFFECT_TYPE_QUICK_F, EFFECT_TYPE_QUICK_O, EFFECT_TYPE_TRIGGER_F,
    EFFECT_TYPE_TRIGGER_O, EFFECT_UNIQUE_CHECK, GLOBALFLAG_SELF_TOGRAVE, GLOBALFLAG_SPSUMMON_COUNT,
    LOCATION_DECK, LOCATION_EXTRA, LOCATION_FZONE, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE,
    LOCATION_ONFIELD, LOCATION_PZONE, LOCATION_REMOVED, LOCATION_SZONE, PLAYER_ALL, PLAYER_NONE,
    POS_FACEUP, RESET_CHAIN, RESET_DISABLE, RESET_EVENT, RESET_OPPO_TURN, RESET_PHASE,
    RESET_SELF_TURN, STATUS_BATTLE_DESTROYED, STATUS_DISABLED, STATUS_EFFECT_ENABLED,
    STATUS_FORBIDDEN, STATUS_SPSUMMON_STEP, STATUS_SUMMONING, STATUS_TO_DISABLE, STATUS_TO_ENABLE,
)
from ..core_constants import (
    EFFECT_TYPES_CHAIN_LINK, PARAM_TYPE_EFFECT, PHINT_DESC_ADD, PHINT_DESC_REMOVE,
)
from ..effect_rules import effect_sort_key
from ..event import Event
from ..group import CardSet, Group
from ..messages import MsgPlayerHint
from ..scripting import filter_cards
from ..wire import i32 as _i32, u32 as _u32
from ..card_effects import flag_effect_code
from ..card_stats import NOT_ON_FIELD_STATUS, PRINTED_STAT_EFFECTS

if TYPE_CHECKING:
    from ..card import Card, EffectContainer
    from ..duel import Duel
    from ..effect import Effect


# a monster being summoned: Duel.GetFieldGroup skips it in the Monster Zone
_SUMMONING = STATUS_SUMMONING | STATUS_SPSUMMON_STEP
# the zones _location_cards visits again under their own bit after LOCATION_SZONE
_SZONE_AGAIN = LOCATION_FZONE | LOCATION_PZONE


# the statuses a negation re-check can change or acts on (adjust_disable_check_list)
_NEGATION_MARKS = STATUS_DISABLED | STATUS_FORBIDDEN | STATUS_TO_ENABLE | STATUS_TO_DISABLE


def _check_playerid(p: int) -> bool:
    return p == 0 or p == 1


def _eset_and_sort(sort: Any, eset: "list[Effect] | None") -> "tuple[bool, list[Effect]]":
    """Accept both ``(sort, eset=...)`` and the reference's ``(eset, sort)`` argument order."""
    if isinstance(sort, list):
        sort, eset = (True if eset is None else bool(eset)), sort
    return bool(sort), ([] if eset is None else eset)


class FieldEffectsMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ----- registering effects on the field -----------------------------------------------

    def _actions_container(self: "Duel", peffect: "Effect") -> "EffectContainer | None":
        """The container of an activated effect, chosen by its first matching kind."""
        effects = self.effects
        t = peffect.type
        if t & EFFECT_TYPE_IGNITION:
            return effects.ignition_effect
        if t & EFFECT_TYPE_TRIGGER_O:
            return effects.trigger_o_effect
        if t & EFFECT_TYPE_TRIGGER_F:
            return effects.trigger_f_effect
        if t & EFFECT_TYPE_QUICK_O:
            return effects.quick_o_effect
        if t & EFFECT_TYPE_QUICK_F:
            return effects.quick_f_effect
        if t & EFFECT_TYPE_ACTIVATE:
            return effects.activate_effect
        if t & EFFECT_TYPE_CONTINUOUS:
            return effects.continuous_effect
        return None

    def _emit_player_hints(self: "Duel", peffect: "Effect", owner_player: int, hint: int) -> None:
        """MSG_PLAYER_HINT for a client-hint player effect: to the players it affects, 0 first."""
        if not (peffect.is_flag(EFFECT_FLAG_PLAYER_TARGET) and peffect.is_flag(EFFECT_FLAG_CLIENT_HINT)):
            return
        if not _check_playerid(owner_player):
            return  # the reference indexes out of bounds here; no script does it
        target_player = [False, False]
        if peffect.s_range:
            target_player[owner_player] = True
        if peffect.o_range:
            target_player[1 - owner_player] = True
        for p in (0, 1):
            if target_player[p]:
                self.emit(MsgPlayerHint(player=p, type=hint, value=peffect.description & 0xFFFFFFFF))

    def add_effect(self: "Duel", peffect: "Effect | None", owner_player: int = PLAYER_NONE) -> None:
        """Index an effect on the field (Duel.RegisterEffect, and a card's field effects).

        Non-activated effects go to aura_effect, activated ones to the container
        of their kind; an effect of another kind is not indexed.  An effect
        registered to a player (no handler yet) becomes a field-only effect:
        its handler is its owner card, its player ``owner_player``, and it gets a
        field id.  Field-only effects are then booked for disable checks, oath
        cleanup, phase/chain resets and count recharges, and a client-hint
        player effect is announced with MSG_PLAYER_HINT.
        """
        if peffect is None:
            return
        effects = self.effects
        if peffect in effects.indexer:
            return
        if (peffect.type & EFFECT_TYPES_CHAIN_LINK) and peffect.owner is self.temp_card:
            return
        if not (peffect.type & EFFECT_TYPE_ACTIONS):
            container = effects.aura_effect
            if peffect.code == EFFECT_SPSUMMON_COUNT_LIMIT:
                effects.spsummon_count_eff[peffect] = None
            if peffect.type & EFFECT_TYPE_GRANT:
                effects.grant_effect.setdefault(peffect, {})
        else:
            container = self._actions_container(peffect)
            if container is None:
                return
        container.add(peffect.code, peffect)
        if peffect.code in PRINTED_STAT_EFFECTS and container is effects.aura_effect:
            self.printed_stats_changed(None)
        if peffect.handler is None:
            peffect.flag[0] |= EFFECT_FLAG_FIELD_ONLY
            peffect.handler = peffect.owner
            peffect.effect_owner = owner_player
            peffect.id = self.infos.field_id
            self.infos.field_id += 1
        peffect.card_type = peffect.owner.data.type
        # the reference keeps the multimap iterator; (container, code) finds the same entry
        effects.indexer[peffect] = (container, peffect.code)
        if peffect.is_flag(EFFECT_FLAG_FIELD_ONLY):
            if peffect.is_disable_related():
                self.update_disable_check_list(peffect)
            if peffect.is_flag(EFFECT_FLAG_OATH):
                effects.oath.setdefault(peffect, self.core.reason_effect)
            if peffect.reset_flag & RESET_PHASE:
                effects.pheff[peffect] = None
            if peffect.reset_flag & RESET_CHAIN:
                effects.cheff[peffect] = None
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
                effects.rechargeable[peffect] = None
            self._emit_player_hints(peffect, owner_player, PHINT_DESC_ADD)

    def remove_effect(self: "Duel", peffect: "Effect") -> None:
        """Take an effect off the field index (the reverse of add_effect).

        A granting effect takes back every copy it gave.  A removed field-only
        effect is remembered in core.reseted_effects and its client hint is
        withdrawn.
        """
        effects = self.effects
        entry = effects.indexer.get(peffect)
        if entry is None:
            return
        container, code = entry
        container.discard(code, peffect)
        if code in PRINTED_STAT_EFFECTS and container is effects.aura_effect:
            self.printed_stats_changed(None)
        if not (peffect.type & EFFECT_TYPE_ACTIONS):
            if peffect.code == EFFECT_SPSUMMON_COUNT_LIMIT:
                effects.spsummon_count_eff.pop(peffect, None)
            if peffect.type & EFFECT_TYPE_GRANT:
                self.erase_grant_effect(peffect)
        effects.indexer.pop(peffect, None)
        if peffect.is_flag(EFFECT_FLAG_FIELD_ONLY):
            if peffect.is_disable_related():
                self.update_disable_check_list(peffect)
            if peffect.is_flag(EFFECT_FLAG_OATH):
                effects.oath.pop(peffect, None)
            if peffect.reset_flag & RESET_PHASE:
                effects.pheff.pop(peffect, None)
            if peffect.reset_flag & RESET_CHAIN:
                effects.cheff.pop(peffect, None)
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
                effects.rechargeable.pop(peffect, None)
            self.core.reseted_effects[peffect] = None
            self._emit_player_hints(peffect, peffect.effect_owner, PHINT_DESC_REMOVE)

    def printed_stats_changed(self: "Duel", card: "Card | None") -> None:
        """Something a card's printed stats depend on changed (Card.printed_stats): an
        effect of PRINTED_STAT_EFFECTS was added to or removed from ``card``'s own
        single effects, one of those values was assumed for it or no longer is
        (PRINTED_ASSUMES), it lost or got STATUS_NO_LEVEL, it went to a Pendulum Zone; ``card`` None: such an
        effect was added or removed anywhere else.  Recounts ``stat_effects_elsewhere``
        (those effects in the field's auras or on an Equip Card, a lasting targeter
        or a material) and tells the script host (``on_printed_stats_changed``),
        which may have kept cards' printed stats.
        """
        if card is None:
            aura = self.effects.aura_effect
            found = {code for code in PRINTED_STAT_EFFECTS if code in aura}
            for pcard in self.cards:
                for container in (pcard.equip_effect, pcard.target_effect, pcard.xmaterial_effect):
                    if container:
                        found.update(code for code in PRINTED_STAT_EFFECTS if code in container)
            self.stat_effects_elsewhere = frozenset(found)
        hook = self.on_printed_stats_changed
        if hook is not None:
            hook(card)

    def _remove_registered(self: "Duel", peffect: "Effect") -> None:
        """Remove a field-only effect from the field, any other from its handler card."""
        if peffect.is_flag(EFFECT_FLAG_FIELD_ONLY):
            self.remove_effect(peffect)
        else:
            peffect.handler.remove_effect(peffect)

    def remove_oath_effect(self: "Duel", reason_effect: "Effect") -> None:
        """Remove every oath effect ("you cannot ... the turn you activate this") created by
        the activation of ``reason_effect`` (its activation was negated)."""
        oath = self.effects.oath
        for peffect in list(oath):
            # tested when visited: an earlier removal may have changed the map
            if peffect in oath and oath[peffect] is reason_effect:
                self._remove_registered(peffect)

    def release_oath_relation(self: "Duel", reason_effect: "Effect") -> None:
        """The activation of ``reason_effect`` resolved: its oath effects stay for good."""
        oath = self.effects.oath
        for peffect, reason in list(oath.items()):
            if reason is reason_effect:
                oath[peffect] = None

    def reset_phase(self: "Duel", phase: int) -> None:
        """Count down the phase resets of field-only effects; remove those that expire."""
        pheff = self.effects.pheff
        for peffect in list(pheff):
            if peffect not in pheff:
                continue
            if peffect.reset(phase, RESET_PHASE):
                self._remove_registered(peffect)

    def reset_chain(self: "Duel") -> None:
        """Remove every field-only effect that lasts until the end of the chain."""
        cheff = self.effects.cheff
        for peffect in list(cheff):
            if peffect in cheff:
                self._remove_registered(peffect)

    # ----- count-limit codes ----------------------------------------------------------------

    def _effect_count_map(self: "Duel", code: int, playerid: int) -> dict[int, int]:
        """The usage map of a count code: per duel, per chain, or (default) per turn."""
        core = self.core
        if code & EFFECT_COUNT_CODE_DUEL:
            return core.effect_count_code_duel[playerid]
        if code & EFFECT_COUNT_CODE_CHAIN:
            return core.effect_count_code_chain[playerid]
        return core.effect_count_code[playerid]

    def add_effect_code(self: "Duel", code: int, playerid: int) -> None:
        """Count one use of a shared count-limit code by ``playerid`` (PLAYER_NONE: per card)."""
        if playerid < 0 or playerid > PLAYER_NONE:
            return
        count_map = self._effect_count_map(code, playerid)
        count_map[code] = count_map.get(code, 0) + 1

    def get_effect_code(self: "Duel", code: int, playerid: int) -> int:
        """How many times ``playerid`` used the count-limit code."""
        if playerid < 0 or playerid > PLAYER_NONE:
            return 0
        return self._effect_count_map(code, playerid).get(code, 0)

    def dec_effect_code(self: "Duel", code: int, playerid: int) -> None:
        """Give back one use of a count-limit code (never below 0)."""
        if playerid < 0 or playerid > PLAYER_NONE:
            return
        count_map = self._effect_count_map(code, playerid)
        if count_map.get(code, 0) > 0:
            count_map[code] -= 1

    # ----- which effects apply ----------------------------------------------------------------

    def filter_field_effect(self: "Duel", code: int, sort: Any = True,
                            eset: "list[Effect] | None" = None) -> "list[Effect]":
        """The available aura effects with ``code``, in application order.

        Walks aura_effect's effects of this code in registration order, keeps
        the available ones (is_available, which may give an effect a new id),
        then -- with ``sort`` -- sorts the whole list by effect_sort_key.  With
        ``eset`` the effects are appended to it (and it is the list sorted and
        returned); the reference's ``(code, eset, sort)`` order is accepted too.
        """
        aura = self.effects.aura_effect
        if code not in aura and eset is None and not isinstance(sort, list):
            return []      # (the common case, answered before the argument juggling)
        sort, eset = _eset_and_sort(sort, eset)
        if code in aura:
            for peffect in aura.equal_range(code):
                if peffect.is_available():
                    eset.append(peffect)
        if sort and len(eset) > 1:
            eset.sort(key=effect_sort_key)
        return eset

    def filter_player_effect(self: "Duel", playerid: int, code: int, sort: Any = True,
                             eset: "list[Effect] | None" = None) -> "list[Effect]":
        """The available aura effects with ``code`` that affect player ``playerid``.

        Same walk and order as filter_field_effect; is_target_player is asked
        before is_available (so an effect on the other player does not run its
        condition).
        """
        aura = self.effects.aura_effect
        if code not in aura and eset is None and not isinstance(sort, list):
            return []      # (the common case, answered before the argument juggling)
        sort, eset = _eset_and_sort(sort, eset)
        if code in aura:
            for peffect in aura.equal_range(code):
                if peffect.is_target_player(playerid) and peffect.is_available():
                    eset.append(peffect)
        if sort and len(eset) > 1:
            eset.sort(key=effect_sort_key)
        return eset

    def is_player_affected_by_effect(self: "Duel", playerid: int, code: int) -> "Effect | None":
        """The first available aura effect with ``code`` affecting ``playerid`` (registration order)."""
        aura = self.effects.aura_effect
        if code not in aura:
            return None
        for peffect in aura.equal_range(code):
            if peffect.is_target_player(playerid) and peffect.is_available():
                return peffect
        return None

    def _range_lists(self: "Duel", self_player: int, s_range: int, o_range: int) -> "list[list[Card | None]]":
        """The zone lists covered by a self/opponent location range, in the reference's order:
        own side first (Monster, S/T, GY, banished, hand, Deck, Extra), then the other side."""
        out: list[list[Card | None]] = []
        rng = s_range
        p = self_player
        for _ in range(2):
            pl = self.player[p]
            if rng & LOCATION_MZONE:
                out.append(pl.list_mzone)
            if rng & LOCATION_SZONE:
                out.append(pl.list_szone)
            if rng & LOCATION_GRAVE:
                out.append(pl.list_grave)
            if rng & LOCATION_REMOVED:
                out.append(pl.list_remove)
            if rng & LOCATION_HAND:
                out.append(pl.list_hand)
            if rng & LOCATION_DECK:
                out.append(pl.list_main)
            if rng & LOCATION_EXTRA:
                out.append(pl.list_extra)
            rng = o_range
            p = 1 - p
        return out

    def filter_affected_cards(self: "Duel", peffect: "Effect", cset: CardSet | None = None) -> CardSet:
        """The cards a field effect applies to: every card in its ranges that is_target accepts.

        Activated, non-field, player-target and EFFECT_FLAG_SPSUM_PARAM effects
        affect no cards.  Cards are asked zone by zone (see _range_lists); the
        result is a CardSet (added to ``cset`` when given).
        """
        if cset is None:
            cset = CardSet()
        if (peffect.type & EFFECT_TYPE_ACTIONS) or not (peffect.type & EFFECT_TYPE_FIELD):
            return cset
        if peffect.is_flag(EFFECT_FLAG_PLAYER_TARGET | EFFECT_FLAG_SPSUM_PARAM):
            return cset
        self_player = peffect.get_handler_player()
        if not _check_playerid(self_player):
            return cset
        for cards in self._range_lists(self_player, peffect.s_range, peffect.o_range):
            for pcard in list(cards):
                if pcard is not None and peffect.is_target(pcard):
                    cset.add(pcard)
        return cset

    def filter_inrange_cards(self: "Duel", peffect: "Effect", cset: CardSet | None = None) -> CardSet:
        """The cards in an effect's ranges that its target function accepts.

        Unlike filter_affected_cards, face-down cards count and only the target
        function is asked; cards on the field that are treated as not being
        there (being summoned...) are left out.
        """
        if cset is None:
            cset = CardSet()
        if peffect.is_flag(EFFECT_FLAG_PLAYER_TARGET | EFFECT_FLAG_SPSUM_PARAM):
            return cset
        self_player = peffect.get_handler_player()
        if not _check_playerid(self_player):
            return cset
        for cards in self._range_lists(self_player, peffect.s_range, peffect.o_range):
            for pcard in list(cards):
                if pcard is None:
                    continue
                if ((not (pcard.current.location & LOCATION_ONFIELD)
                        or not pcard.is_treated_as_not_on_field())
                        and peffect.is_fit_target_function(pcard)):
                    cset.add(pcard)
        return cset

    # ----- searching the field -----------------------------------------------------------------

    def _location_cards(self: "Duel", p: int, location: int, mzone_skip: int = 0,
                        szone_skip: int = 0) -> "list[Card]":
        """The cards of player ``p`` in ``location``, in the order the reference visits them.

        Monster Zones, S/T Zones, Field Zone, Pendulum Zones, then the Deck (top
        first), Extra Deck (last added first), hand, GY and banished (newest first).
        A card in the Field or a Pendulum Zone is visited again under that bit
        when LOCATION_SZONE is asked too, as in the reference.  A card found in a
        Monster Zone with a status of ``mzone_skip``, or in a Spell & Trap, Field or
        Pendulum Zone with one of ``szone_skip``, is left out.
        """
        pl = self.player[p]
        out: list[Card] = []
        if location & LOCATION_MZONE:
            for c in pl.list_mzone:
                if c is not None and not (c.status & mzone_skip):
                    out.append(c)
        if location & (LOCATION_SZONE | LOCATION_FZONE | LOCATION_PZONE):
            szone = pl.list_szone
            if location & LOCATION_SZONE:
                for c in szone:
                    if c is not None and not (c.status & szone_skip):
                        out.append(c)
            if location & LOCATION_FZONE:
                c = szone[5]
                if c is not None and not (c.status & szone_skip):
                    out.append(c)
            if location & LOCATION_PZONE:
                for i in range(2):
                    c = szone[self.get_pzone_sequence(i)]
                    if c is not None and c.current.pzone and not (c.status & szone_skip):
                        out.append(c)
        # (the piles at C speed: no card in them is skipped)
        if location & LOCATION_DECK:
            out.extend(reversed(pl.list_main))
        if location & LOCATION_EXTRA:
            out.extend(reversed(pl.list_extra))
        if location & LOCATION_HAND:
            out.extend(pl.list_hand)
        if location & LOCATION_GRAVE:
            out.extend(reversed(pl.list_grave))
        if location & LOCATION_REMOVED:
            out.extend(reversed(pl.list_remove))
        return out

    def filter_matching_card(self: "Duel", filter_fn: Any, extra_args: tuple, self_player: int,
                             location1: int, location2: int, pgroup: Group | None = None,
                             pexception: "Card | None" = None, pexgroup: Group | None = None,
                             pret: "list[Card] | None" = None, fcount: int = 0,
                             is_target: bool = False) -> bool:
        """Find cards in ``location1`` of ``self_player`` and ``location2`` of the other
        player that a script filter accepts (Duel.GetMatchingGroup, IsExistingMatchingCard,
        IsExistingTarget, ...).

        Each card (visited as in _location_cards; cards on the field that
        are treated as not there are skipped) must not be ``pexception`` nor in
        ``pexgroup``, must pass ``filter_fn(card, *extra_args)`` and, with
        ``is_target``, be targetable by core.reason_effect.  With ``pret`` (a
        list) the first match is appended to it and True returned at once; with
        ``fcount`` True is returned as soon as that many matched.  Otherwise the
        matches are added to ``pgroup`` and False is returned.
        """
        if self_player != 0 and self_player != 1:
            return False
        candidates = self._matching_candidates(self_player, location1, location2, pexception, pexgroup)
        # (a Field or Pendulum Zone card is visited twice when LOCATION_SZONE is asked with its bit)
        distinct = (not (location1 & LOCATION_SZONE and location1 & _SZONE_AGAIN
                         or location2 & LOCATION_SZONE and location2 & _SZONE_AGAIN)
                    or len(set(candidates)) == len(candidates))
        if distinct and not is_target:
            return self._filter_candidates(filter_fn, extra_args, candidates, pgroup, pret, fcount)
        return self._filter_walk(filter_fn, extra_args, candidates, pgroup, pret, fcount, is_target,
                                 batched=distinct and self._target_check_runs_no_script())

    def _matching_candidates(self: "Duel", self_player: int, location1: int, location2: int,
                             pexception: "Card | None", pexgroup: Group | None) -> "list[Card]":
        """The cards filter_matching_card offers its filter, in its order: those of
        _location_cards (cards on the field treated as not there left out), minus
        ``pexception`` and the cards of ``pexgroup``."""
        skip = NOT_ON_FIELD_STATUS
        candidates = self._location_cards(self_player, location1, skip, skip)
        if location2:
            candidates += self._location_cards(1 - self_player, location2, skip, skip)
        if pexception is not None or pexgroup is not None:
            excluded = pexgroup.container if pexgroup is not None else ()
            candidates = [c for c in candidates if c is not pexception and c not in excluded]
        return candidates

    def _filter_candidates(self: "Duel", filter_fn: Any, extra_args: tuple, candidates: "list[Card]",
                           pgroup: Group | None, pret: "list[Card] | None", fcount: int) -> bool:
        """filter_matching_card without the target check, for distinct candidates: the
        filter over them in order (scripting.filter_cards), stopping where the
        card-by-card walk would."""
        limit = 1 if pret is not None else fcount
        passed = filter_cards(self.script, filter_fn, candidates, extra_args, limit)
        if pret is not None:
            if passed:
                pret.append(passed[0])
                return True
            return False
        if fcount and len(passed) >= fcount:
            return True
        if pgroup is not None:
            pgroup.container.update(passed)
        return False

    def _target_check_runs_no_script(self: "Duel") -> bool:
        """Would is_capable_be_effect_target, for any card, call no script code?  True
        when the reason effect is set and no card or aura holds EFFECT_CANNOT_BE_EFFECT_TARGET
        or EFFECT_CANNOT_SELECT_EFFECT_TARGET: the check then reads only statuses and
        locations, so it may run after the filter calls instead of between them."""
        return (self.core.reason_effect is not None
                and not self.effects.holds(EFFECT_CANNOT_BE_EFFECT_TARGET, EFFECT_CANNOT_SELECT_EFFECT_TARGET))

    def _filter_walk(self: "Duel", filter_fn: Any, extra_args: tuple, candidates: "list[Card]",
                     pgroup: Group | None, pret: "list[Card] | None", fcount: int, is_target: bool,
                     batched: bool) -> bool:
        """filter_matching_card's walk: each candidate in order through the filter and,
        with ``is_target``, the target check, stopping at the first match (``pret``) or
        at ``fcount`` matches.

        Card by card, the target check of a card comes before the next filter call
        (it may run a script).  ``batched`` (distinct candidates, and a target check
        that runs no script): the filter over as many cards as the card-by-card walk
        calls it for (scripting.filter_cards, stopping after as many matches as are
        still wanted), then the target check of each match -- the same script calls
        in the same order, and the same result.
        """
        core = self.core
        script = self.script
        result = CardSet()
        start = 0
        while start < len(candidates):
            wanted = 1 if pret is not None else (fcount - len(result) if fcount else 0)
            if batched:
                rest = candidates[start:]
                passed = filter_cards(script, filter_fn, rest, extra_args, wanted)
            else:
                card = candidates[start]
                ok = filter_fn is None or script.check_filter(filter_fn, card, *extra_args)
                passed = [card] if ok else []
            for pcard in passed:
                if is_target and not pcard.is_capable_be_effect_target(core.reason_effect, core.reason_player):
                    continue
                if pret is not None:
                    pret.append(pcard)
                    return True
                result.add(pcard)
                if fcount and len(result) >= fcount:
                    return True
            if not batched:
                start += 1
            elif not wanted or len(passed) < wanted:
                break           # the filter saw every remaining card
            else:
                start += rest.index(passed[-1]) + 1
        if pgroup is not None:
            pgroup.container.update(result)
        return False

    def filter_field_card(self: "Duel", self_player: int, location1: int, location2: int,
                          pgroup: Group | None = None) -> CardSet:
        """Every card in ``location1`` of ``self_player`` and ``location2`` of the other player
        (Duel.GetFieldGroup / GetFieldGroupCount).  Monsters still being summoned are left
        out.  Returns the CardSet (also added to ``pgroup`` when given); the reference's
        count is its length."""
        result = CardSet()
        if self_player != 0 and self_player != 1:
            return result
        result.update(self._location_cards(self_player, location1, _SUMMONING),
                      self._location_cards(1 - self_player, location2, _SUMMONING))
        if pgroup is not None:
            pgroup.container.update(result)
        return result

    # ----- negation bookkeeping -----------------------------------------------------------------

    def update_disable_check_list(self: "Duel", peffect: "Effect") -> None:
        """Queue every card a disable-related field effect affects for a negation re-check."""
        for pcard in self.filter_affected_cards(peffect):
            self.add_to_disable_check_list(pcard)

    def add_to_disable_check_list(self: "Duel", pcard: "Card") -> None:
        """Queue a card for a negation re-check (once)."""
        effects = self.effects
        if pcard in effects.disable_check_set:
            return
        effects.disable_check_set.add(pcard)
        effects.disable_check_list.append(pcard)

    def adjust_disable_check_list(self: "Duel") -> None:
        """Re-check negation of the queued cards until nothing changes.

        Each queued card refreshes its disabled/forbidden status.  A card whose
        status changed while its effects are enabled queues the cards its own
        effects touch (filter_disable_related_cards) and is marked TO_ENABLE or
        TO_DISABLE; a marked card is not re-checked in the same round (this
        stops loops).  After each round, cards that became negated lose their
        RESET_DISABLE effects, and the marks are cleared.
        """
        effects = self.effects
        queued = effects.disable_check_list
        if not queued:
            return
        if (not effects.holds(EFFECT_IMMUNE_EFFECT, EFFECT_FORBIDDEN, EFFECT_DISABLE, EFFECT_CANNOT_DISABLE)
                and not any(c.status & _NEGATION_MARKS for c in queued)):
            # (only skips work: no card is or was negated and no effect could make one so,
            # so each refresh would just give the card an empty immunity list)
            for c in queued:
                c.immune_effect = []
            queued.clear()
            effects.disable_check_set.clear()
            return
        while True:
            checked = CardSet()
            while effects.disable_check_list:
                checking = effects.disable_check_list.pop(0)
                effects.disable_check_set.discard(checking)
                checked.add(checking)
                if checking.is_status(STATUS_TO_ENABLE | STATUS_TO_DISABLE):
                    continue
                pre_disable = checking.get_status(STATUS_DISABLED | STATUS_FORBIDDEN)
                checking.refresh_disable_status()
                new_disable = checking.get_status(STATUS_DISABLED | STATUS_FORBIDDEN)
                if pre_disable != new_disable and checking.is_status(STATUS_EFFECT_ENABLED):
                    checking.filter_disable_related_cards()  # queues more cards
                    if pre_disable:
                        checking.set_status(STATUS_TO_ENABLE, True)
                    else:
                        checking.set_status(STATUS_TO_DISABLE, True)
            for pcard in checked:
                if (pcard.is_status(STATUS_DISABLED) and pcard.is_status(STATUS_TO_DISABLE)
                        and not pcard.is_status(STATUS_TO_ENABLE)):
                    pcard.reset(RESET_DISABLE, RESET_EVENT)
                pcard.set_status(STATUS_TO_ENABLE | STATUS_TO_DISABLE, False)
            if not effects.disable_check_list:
                break

    # ----- unique-on-field and self-destroy ------------------------------------------------------

    @staticmethod
    def _unique_cards_ordered(cards: Any) -> "list[Card]":
        # The reference's unique_cards is an unordered_set keyed by pointer; card-id
        # order is our stable stand-in (results below only depend on it through
        # which unique_effect is returned, and the self-destroy queue is re-sorted).
        return sorted(cards, key=attrgetter("cardid")) if cards else []

    def adjust_self_destroy_set(self: "Duel") -> None:
        """Queue the state-based self-destructions: unique-on-field violations, then
        EFFECT_SELF_DESTROY and EFFECT_SELF_TOGRAVE.

        Nothing happens while such destructions are pending or self-destroy checks
        are disabled.  Unique cards are checked turn player first; a unique card
        with exactly one copy in play remembers that copy's field id; a card seeing
        two or more is queued (by field id) for destruction.  Then every face-up
        card on the field (not destroyed by battle, for monsters) affected by
        EFFECT_SELF_DESTROY / EFFECT_SELF_TOGRAVE (the latter only when some script
        set GLOBALFLAG_SELF_TOGRAVE) is collected and their units are queued.
        """
        core = self.core
        if (core.selfdes_disabled or core.unique_destroy_set or core.self_destroy_set
                or core.self_tograve_set):
            return
        if core.unique_cards[0] or core.unique_cards[1]:
            self._queue_unique_violations()
        tograve = bool(core.global_flag & GLOBALFLAG_SELF_TOGRAVE)
        if not self.effects.holds(EFFECT_SELF_DESTROY) and not (
                tograve and self.effects.holds(EFFECT_SELF_TOGRAVE)):
            return      # (only skips look-ups that find nothing)
        cset = CardSet()
        for p in (0, 1):
            for pcard in self.player[p].list_mzone:
                if pcard is not None and pcard.is_position(POS_FACEUP) and not pcard.is_status(STATUS_BATTLE_DESTROYED):
                    cset.add(pcard)
            for pcard in self.player[p].list_szone:
                if pcard is not None and pcard.is_position(POS_FACEUP):
                    cset.add(pcard)
        for pcard in cset:
            if pcard.is_affected_by_effect(EFFECT_SELF_DESTROY):
                core.self_destroy_set.add(pcard)
        if tograve:
            for pcard in cset:
                if pcard.is_affected_by_effect(EFFECT_SELF_TOGRAVE):
                    core.self_tograve_set.add(pcard)
        if core.self_destroy_set:
            self.add_process(self.proc_self_destroy_effect())  # the reference's step 10
        if core.self_tograve_set:
            self.add_process(self.proc_self_tograve())  # the reference's step 20

    def _queue_unique_violations(self: "Duel") -> None:
        """The unique-on-field part of adjust_self_destroy_set, turn player first: a
        unique card seeing no copy forgets its field id, one copy remembers it, two or
        more queue the card's destruction (in field-id order)."""
        core = self.core
        check_player = self.infos.turn_player
        for _ in range(2):
            uniq_set: list[Card] = []
            for ucard in self._unique_cards_ordered(core.unique_cards[check_player]):
                if (ucard.is_position(POS_FACEUP) and ucard.get_status(STATUS_EFFECT_ENABLED)
                        and not ucard.get_status(STATUS_DISABLED | STATUS_FORBIDDEN)):
                    cset = ucard.get_unique_target(check_player)
                    if len(cset) == 0:
                        ucard.unique_fieldid = 0
                    elif len(cset) == 1:
                        ucard.unique_fieldid = next(iter(cset)).fieldid
                    else:
                        uniq_set.append(ucard)
            uniq_set.sort(key=lambda c: c.fieldid)
            for pcard in uniq_set:
                self.add_process(self.proc_self_destroy(pcard, check_player))
                core.unique_destroy_set.add(pcard)
            check_player = 1 - check_player

    def add_unique_card(self: "Duel", pcard: "Card") -> None:
        """Start watching a card with a unique-on-field condition, on the sides it covers."""
        con = pcard.current.controler
        if pcard.unique_pos[0]:
            self.core.unique_cards[con].add(pcard)
        if pcard.unique_pos[1]:
            self.core.unique_cards[1 - con].add(pcard)
        pcard.unique_fieldid = 0

    def remove_unique_card(self: "Duel", pcard: "Card") -> None:
        con = pcard.current.controler
        if not _check_playerid(con):
            return
        if pcard.unique_pos[0]:
            self.core.unique_cards[con].discard(pcard)
        if pcard.unique_pos[1]:
            self.core.unique_cards[1 - con].discard(pcard)

    def check_unique_onfield(self: "Duel", pcard: "Card", controler: int, location: int,
                             icard: "Card | None" = None) -> "Effect | None":
        """Would ``pcard`` in ``location`` of ``controler`` break a unique-on-field rule?

        Returns the unique effect of the rule broken, else None: first a
        face-up, working unique card watching that side (other than ``pcard`` and
        ``icard``) whose code rule matches ``pcard``; then ``pcard``'s own rule,
        broken when it would see two or more copies (itself included).
        """
        for ucard in self._unique_cards_ordered(self.core.unique_cards[controler]):
            if (ucard is not pcard and ucard is not icard and ucard.is_position(POS_FACEUP)
                    and ucard.get_status(STATUS_EFFECT_ENABLED)
                    and not ucard.get_status(STATUS_DISABLED | STATUS_FORBIDDEN)
                    and ucard.unique_fieldid and ucard.check_unique_code(pcard)
                    and (ucard.unique_location & location)):
                return ucard.unique_effect
        if (not pcard.unique_code or not (pcard.unique_location & location)
                or pcard.get_status(STATUS_DISABLED | STATUS_FORBIDDEN)):
            return None
        cset = CardSet(pcard.get_unique_target(controler, icard))
        if pcard.check_unique_code(pcard):
            cset.add(pcard)
        if len(cset) >= 2:
            return pcard.unique_effect
        return None

    def check_spsummon_once(self: "Duel", pcard: "Card", playerid: int) -> bool:
        """May ``playerid`` still Special Summon a card with this once-per-turn summon code?"""
        if pcard.spsummon_code == 0:
            return True
        return self.core.spsummon_once_map[playerid].get(pcard.spsummon_code, 0) == 0

    # ----- granted effects ------------------------------------------------------------------

    def erase_grant_effect(self: "Duel", peffect: "Effect") -> None:
        """Take back every copy a granting effect gave, and forget it."""
        gains = self.effects.grant_effect.get(peffect)
        if gains is None:
            return
        for pcard, ceffect in list(gains.items()):
            pcard.remove_effect(ceffect)
        self.effects.grant_effect.pop(peffect, None)

    def adjust_grant_effect(self: "Duel") -> bool:
        """Bring the copies given by EFFECT_TYPE_GRANT effects up to date; True if any changed.

        A granting effect's label object is the effect it grants (grants of
        grant effects and of unique-on-field checks are ignored).  Cards it
        affects now (when it is available) and that accept it get a fresh copy
        owned by the card; cards that no longer qualify lose theirs.  Granting
        effects are visited in registration order (the reference: pointer hash
        order), cards in card-id order.
        """
        adjusted = False
        grant_effect = self.effects.grant_effect
        for peffect in list(grant_effect):
            gains = grant_effect.get(peffect)
            if gains is None:
                continue
            if peffect.object_type != PARAM_TYPE_EFFECT:
                continue
            geffect = peffect.get_label_object()
            if geffect.type & EFFECT_TYPE_GRANT:
                continue
            if geffect.code == EFFECT_UNIQUE_CHECK:
                continue
            cset = CardSet()
            if peffect.is_available():
                self.filter_affected_cards(peffect, cset)
            add_set = CardSet()
            for pcard in cset:
                if pcard.is_affect_by_effect(peffect) and pcard not in gains:
                    add_set.add(pcard)
            remove_set = CardSet()
            for pcard in list(gains):
                if not pcard.is_affect_by_effect(peffect) or pcard not in cset:
                    remove_set.add(pcard)
            for pcard in add_set:
                ceffect = geffect.clone()
                ceffect.owner = pcard
                pcard.add_effect(ceffect)
                gains[pcard] = ceffect
            for pcard in remove_set:
                ceffect = gains.pop(pcard)
                pcard.remove_effect(ceffect)
            if add_set or remove_set:
                adjusted = True
        return adjusted

    # ----- activity counters (Duel.AddCustomActivityCounter) -------------------------------------

    def _activity_counter_map(self: "Duel", counter_type: int) -> dict[int, list[Any]]:
        core = self.core
        if counter_type == ACTIVITY_SUMMON:
            return core.summon_counter
        if counter_type == ACTIVITY_NORMALSUMMON:
            return core.normalsummon_counter
        if counter_type == ACTIVITY_SPSUMMON:
            return core.spsummon_counter
        if counter_type == ACTIVITY_FLIPSUMMON:
            return core.flipsummon_counter
        return core.attack_counter

    def check_card_counter(self: "Duel", cards: "Card | Group", counter_type: int, playerid: int) -> None:
        """Count an activity (summon, attack, ...) of ``playerid`` for custom activity counters.

        Both reference overloads: ``cards`` is one Card or a Group.  A counter
        counts (low 16 bits for player 0, high 16 for player 1) when its filter
        rejects the card -- for a group, when it rejects any card.  Counters that
        already counted for this player are not asked again.
        """
        members = list(cards.container) if isinstance(cards, Group) else [cards]
        for info in self._activity_counter_map(counter_type).values():
            if playerid == 0 and (info[1] & 0xFFFF) != 0:
                continue
            if playerid == 1 and (info[1] & 0xFFFF0000) != 0:
                continue
            if info[0] is None:
                continue
            for pcard in members:
                if not self.script.check_condition(info[0], pcard):
                    info[1] = (info[1] + (0x1 if playerid == 0 else 0x10000)) & 0xFFFFFFFF
                    break

    def check_chain_counter(self: "Duel", peffect: "Effect", playerid: int, chainid: int,
                            cancel: bool = False) -> None:
        """Count (or, with ``cancel``, uncount) a chain activation for custom chain counters.

        A counter counts when its filter rejects ``(e, tp, chainid)``.
        """
        for info in self.core.chain_counter.values():
            if info[0] is None:
                continue
            if self.script.check_condition(info[0], peffect, playerid, chainid):
                continue
            if playerid == 0:
                if not cancel:
                    info[1] = (info[1] + 0x1) & 0xFFFFFFFF
                elif info[1] & 0xFFFF:
                    info[1] -= 0x1
            else:
                if not cancel:
                    info[1] = (info[1] + 0x10000) & 0xFFFFFFFF
                elif info[1] & 0xFFFF0000:
                    info[1] -= 0x10000

    # ----- special summon counts ---------------------------------------------------------------

    def set_spsummon_counter(self: "Duel", playerid: int) -> None:
        """``playerid`` Special Summoned: count it, and count it on every card with a
        working EFFECT_SPSUMMON_COUNT_LIMIT that covers that player (even if negated)."""
        core = self.core
        core.spsummon_state_count[playerid] += 1
        if core.global_flag & GLOBALFLAG_SPSUMMON_COUNT:
            for peffect in list(self.effects.spsummon_count_eff):
                pcard = peffect.get_handler()
                if peffect.limit_counter_is_available():
                    own = playerid == pcard.current.controler
                    if (own and peffect.s_range) or (not own and peffect.o_range):
                        pcard.spsummon_counter[playerid] = (pcard.spsummon_counter[playerid] + 1) & 0xFFFF

    def check_spsummon_counter(self: "Duel", playerid: int, ct: int = 1) -> bool:
        """May ``playerid`` Special Summon ``ct`` more times under every available
        EFFECT_SPSUMMON_COUNT_LIMIT (value = the limit)?"""
        if self.core.global_flag & GLOBALFLAG_SPSUMMON_COUNT:
            for peffect in list(self.effects.spsummon_count_eff):
                pcard = peffect.get_handler()
                val = peffect.value & 0xFFFF
                if peffect.is_available():
                    if pcard.spsummon_counter[playerid] + ct > val:
                        return False
        return True

    def is_select_hide_deck_sequence(self: "Duel", playerid: int) -> bool:
        """Should the Deck order be hidden from ``playerid`` in a selection?"""
        core = self.core
        return (not core.select_deck_sequence_revealed
                and not (core.duel_options & DUEL_REVEAL_DECK_SEQ)
                and playerid == core.selecting_player)

    # ----- life point costs ---------------------------------------------------------------------

    def check_lp_cost(self: "Duel", playerid: int, cost: int, must_pay: bool = False) -> bool:
        """Can ``playerid`` pay ``cost`` LP?

        The cost goes through the player's EFFECT_LPCOST_CHANGE effects in order
        (each value function gets ``(e, reason_effect, tp, cost_so_far)``).  A cost
        of 0 or less can be paid unless ``must_pay``.  Unless ``must_pay``, a usable
        EFFECT_LPCOST_REPLACE makes it payable.  Otherwise the LP must cover it.
        """
        core = self.core
        val = cost
        for peffect in self.filter_player_effect(playerid, EFFECT_LPCOST_CHANGE):
            val = peffect.get_value(None, core.reason_effect, playerid, val)
        if val <= 0:
            return not must_pay
        if not must_pay:
            e = Event(event_code=0, event_cards=None, reason_effect=core.reason_effect, reason=0,
                      reason_player=playerid, event_player=playerid, event_value=cost)
            if self.effect_replace_check(EFFECT_LPCOST_REPLACE, e):
                return True
        return val <= self.player[playerid].lp

    def save_lp_cost(self: "Duel") -> None:
        """Nothing: the reference keeps this hook (for accumulated LP costs) as a no-op."""

    def restore_lp_cost(self: "Duel") -> None:
        """Nothing: see save_lp_cost."""

    # ----- counters and overlays ---------------------------------------------------------------

    def get_field_counter(self: "Duel", self_player: int, s: int, o: int, countertype: int) -> int:
        """Total counters of ``countertype`` on the Monster and S/T Zones of the chosen sides."""
        count = 0
        p = self_player
        c = s
        for _ in range(2):
            if c:
                for pcard in self.player[p].list_mzone:
                    if pcard is not None:
                        count += pcard.get_counter(countertype)
                for pcard in self.player[p].list_szone:
                    if pcard is not None:
                        count += pcard.get_counter(countertype)
            p = 1 - p
            c = o
        return count & 0xFFFFFFFF

    def get_overlay_group(self: "Duel", self_player: int, s: int, o: int,
                          pset: CardSet | None = None) -> CardSet:
        """Every Xyz material attached to monsters on the chosen sides."""
        if pset is None:
            pset = CardSet()
        if not _check_playerid(self_player):
            return pset
        p = self_player
        c = s
        for _ in range(2):
            if c:
                for pcard in self.player[p].list_mzone:
                    if pcard is not None and not pcard.is_treated_as_not_on_field() and pcard.xyz_materials:
                        pset.update(pcard.xyz_materials)
            p = 1 - p
            c = o
        return pset

    def get_overlay_count(self: "Duel", self_player: int, s: int, o: int) -> int:
        """How many Xyz materials are attached to monsters on the chosen sides."""
        if not _check_playerid(self_player):
            return 0
        count = 0
        p = self_player
        c = s
        for _ in range(2):
            if c:
                for pcard in self.player[p].list_mzone:
                    if pcard is not None and not pcard.is_treated_as_not_on_field():
                        count += len(pcard.xyz_materials)
            p = 1 - p
            c = o
        return count

    # ----- replacement checks -------------------------------------------------------------------

    def effect_replace_check(self: "Duel", code: int, e: Event) -> bool:
        """Is some continuous effect with ``code`` usable by its handler's player for ``e``?"""
        for peffect in self.effects.continuous_effect.equal_range(code):
            if peffect.is_activateable(peffect.get_handler_player(), e):
                return True
        return False

    # ----- attack targets -----------------------------------------------------------------------

    def _attack_candidates(self: "Duel", pcard: "Card") -> "tuple[int, list[Card | None] | None]":
        """Which monsters ``pcard`` must/may choose from: (atype, list or None).

        atype 1: an opponent's monster must be attacked (EFFECT_ONLY_BE_ATTACKED),
        usable only when exactly one does; 2: the attacker may only attack
        certain monsters, usable when exactly one qualifies; 3: it must attack
        certain monsters, usable when any qualifies; 4: any monster.  The list is
        None when the attack has no valid choice.
        """
        p = pcard.current.controler
        auto_attack: list[Card] = []
        only_attack: list[Card] = []
        must_attack: list[Card] = []
        for atarget in list(self.player[1 - p].list_mzone):
            if atarget is None:
                continue
            if atarget.is_affected_by_effect(EFFECT_ONLY_BE_ATTACKED):
                auto_attack.append(atarget)
            if pcard.is_affected_by_effect(EFFECT_ONLY_ATTACK_MONSTER, atarget):
                only_attack.append(atarget)
            if pcard.is_affected_by_effect(EFFECT_MUST_ATTACK_MONSTER, atarget):
                must_attack.append(atarget)
        if auto_attack:
            return 1, (auto_attack if len(auto_attack) == 1 else None)
        if pcard.is_affected_by_effect(EFFECT_ONLY_ATTACK_MONSTER):
            return 2, (only_attack if len(only_attack) == 1 else None)
        if pcard.is_affected_by_effect(EFFECT_MUST_ATTACK_MONSTER):
            return 3, (must_attack if must_attack else None)
        return 4, list(self.player[1 - p].list_mzone)

    @staticmethod
    def _max_effect_value(pcard: "Card", code: int) -> int:
        best = 0
        for peffect in pcard.filter_effect(code):
            val = peffect.get_value(pcard)
            if val > best:
                best = val
        return best

    def _selectable_target(self: "Duel", pcard: "Card", atarget: "Card", atype: int,
                           select_target: bool) -> bool:
        """The "may be chosen" tests for a monster of types 2 and 4 when selecting."""
        if select_target and (atype == 2 or atype == 4):
            if atarget.is_affected_by_effect(EFFECT_CANNOT_BE_BATTLE_TARGET, pcard):
                return False
            if pcard.is_affected_by_effect(EFFECT_CANNOT_SELECT_BATTLE_TARGET, atarget):
                return False
        return True

    def get_attack_target(self: "Duel", pcard: "Card", v: "list[Card]", chain_attack: bool = False,
                          select_target: bool = True) -> int:
        """The monsters ``pcard`` can attack now (appended to ``v``); returns the atype
        (see _attack_candidates) and sets ``pcard.direct_attackable``.

        When the attacker used up its attacks (announce count above its
        EFFECT_EXTRA_ATTACK count and, if it has EFFECT_EXTRA_ATTACK_MONSTER,
        above that too or it attacked directly), only EFFECT_ATTACK_ALL can give
        more targets: each monster its value condition accepts and that it
        attacked fewer times than the value.  Otherwise every candidate not
        ignoring it as a battle target is counted, and (for chain attacks) only
        the required target kept.  Direct attacks are possible (atype 4) with no
        counted monster, EFFECT_DIRECT_ATTACK or core.attack_player set, unless
        EFFECT_CANNOT_DIRECT_ATTACK, an extra attack that must target monsters,
        or a chain attack on a set target.
        """
        pcard.direct_attackable = 0
        atype, pv = self._attack_candidates(pcard)
        if pv is None:
            return atype
        extra_count = self._max_effect_value(pcard, EFFECT_EXTRA_ATTACK)
        extra_count_m = self._max_effect_value(pcard, EFFECT_EXTRA_ATTACK_MONSTER)
        core = self.core
        if (not chain_attack and pcard.announce_count > extra_count
                and (not extra_count_m or pcard.announce_count > extra_count_m
                     or pcard.announced_cards.findcard(None))):
            peffect = pcard.is_affected_by_effect(EFFECT_ATTACK_ALL)
            if peffect is not None and pcard.attack_all_target:
                for atarget in pv:
                    if atarget is None:
                        continue
                    if not peffect.check_value_condition(atarget):
                        continue
                    # the reference compares unsigned
                    if pcard.announced_cards.findcard(atarget) >= (peffect.get_value(atarget) & 0xFFFFFFFF):
                        continue
                    if atype >= 2 and atarget.is_affected_by_effect(EFFECT_IGNORE_BATTLE_TARGET, pcard):
                        continue
                    if not self._selectable_target(pcard, atarget, atype, select_target):
                        continue
                    v.append(atarget)
            return atype
        # a chain attack, or attacks left
        mcount = 0
        for atarget in pv:
            if atarget is None:
                continue
            if atype >= 2 and atarget.is_affected_by_effect(EFFECT_IGNORE_BATTLE_TARGET, pcard):
                continue
            mcount += 1
            if chain_attack and core.chain_attack_target is not None and atarget is not core.chain_attack_target:
                continue
            if not self._selectable_target(pcard, atarget, atype, select_target):
                continue
            v.append(atarget)
        if atype <= 3:
            return atype
        if ((mcount == 0 or pcard.is_affected_by_effect(EFFECT_DIRECT_ATTACK) or core.attack_player)
                and not pcard.is_affected_by_effect(EFFECT_CANNOT_DIRECT_ATTACK)
                and not (not chain_attack and extra_count_m and pcard.announce_count > extra_count)
                and not (chain_attack and core.chain_attack_target is not None)):
            pcard.direct_attackable = 1
        return atype

    def confirm_attack_target(self: "Duel") -> bool:
        """Is the declared attack (core.attacker on core.attack_target, or direct) still possible?"""
        core = self.core
        cv: list[Card] = []
        self.get_attack_target(core.attacker, cv, core.chain_attack, False)
        if core.attack_target is not None:
            return core.attack_target in cv
        return bool(core.attacker.direct_attackable)

    def attack_all_target_check(self: "Duel") -> None:
        """Keep EFFECT_ATTACK_ALL usable only if its value accepts the current attack target
        (a direct attack ends it).  An approximation the reference makes too."""
        core = self.core
        if core.attacker is None:
            return
        if core.attack_target is None:
            core.attacker.attack_all_target = 0
            return
        peffect = core.attacker.is_affected_by_effect(EFFECT_ATTACK_ALL)
        if peffect is None:
            return
        if not peffect.get_value(core.attack_target):
            core.attacker.attack_all_target = 0

    # ----- flag effects on players (Duel.RegisterFlagEffect & co.) ----------------------

    def register_flag_effect(self: "Duel", playerid: int, code: int, reset: int, flag: int,
                             count: int, label: int = 0) -> "Effect":
        """Duel.RegisterFlagEffect: give ``playerid`` a flag effect (a field effect on the
        player with no function, used by scripts as a marker).

        A reset count of 0 means 1; a phase reset without a turn side resets on
        either player's turn.  The flag effect cannot be negated, targets the
        player, exists only on the field's effect list and keeps ``label``.
        """
        if count == 0:
            count = 1
        reset = _i32(reset)
        if (reset & RESET_PHASE) and not (reset & (RESET_SELF_TURN | RESET_OPPO_TURN)):
            reset |= RESET_SELF_TURN | RESET_OPPO_TURN
        peffect = self.new_effect()
        peffect.effect_owner = playerid
        peffect.owner = self.temp_card
        peffect.handler = None
        peffect.type = EFFECT_TYPE_FIELD
        peffect.code = flag_effect_code(code)
        peffect.reset_flag = _u32(reset)
        peffect.flag[0] = _u32(flag | EFFECT_FLAG_CANNOT_DISABLE | EFFECT_FLAG_PLAYER_TARGET
                               | EFFECT_FLAG_FIELD_ONLY)
        peffect.s_range = 1
        peffect.o_range = 0
        peffect.reset_count = _i32(count)
        peffect.label.append(label)
        self.add_effect(peffect, playerid)
        return peffect

    def get_player_flag_effects(self: "Duel", playerid: int, code: int) -> list["Effect"]:
        """The flag effects of id ``code`` on ``playerid`` (Duel.GetFlagEffect & co.)."""
        return self.filter_player_effect(playerid, flag_effect_code(code))

    def reset_player_flag_effect(self: "Duel", playerid: int, code: int) -> None:
        """Duel.ResetFlagEffect: remove ``playerid``'s flag effects of id ``code``."""
        fcode = flag_effect_code(code)
        for peffect in self.effects.aura_effect.equal_range(fcode):
            if peffect.code == fcode and peffect.is_target_player(playerid):
                self.remove_effect(peffect)

    # ----- the environment (Duel.IsEnvironment) -----------------------------------------

    def is_environment(self: "Duel", code: int, playerid: int = PLAYER_ALL,
                       loc: int = LOCATION_ONFIELD) -> bool:
        """Duel.IsEnvironment: is a face-up ``code`` in ``loc`` on ``playerid``'s side
        (PLAYER_ALL: either)?

        The Field Zones are looked at for LOCATION_SZONE or LOCATION_FZONE, then
        the Spell & Trap Zones, the Monster Zones and the GY (any position).  When
        no face-up Field Spell exists at all, the last EFFECT_CHANGE_ENVIRONMENT
        (its value is the code; its holder's side) counts as well.
        """
        code &= 0xFFFFFFFF
        ret = False
        fc = False
        if loc & (LOCATION_FZONE + LOCATION_SZONE):
            for p in (0, 1):
                pcard = self.player[p].list_szone[5]
                if pcard is not None and pcard.is_position(POS_FACEUP):
                    fc = True
                    if code == pcard.get_code() and playerid in (p, PLAYER_ALL):
                        ret = True
        sides = [p for p in (0, 1) if playerid in (p, PLAYER_ALL)]
        if not ret and (loc & LOCATION_SZONE):
            for p in sides:
                for pcard in self.player[p].list_szone:
                    if pcard is not None and pcard.is_position(POS_FACEUP) and code == pcard.get_code():
                        ret = True
        if not ret and (loc & LOCATION_MZONE):
            for p in sides:
                for pcard in self.player[p].list_mzone:
                    if pcard is not None and pcard.is_position(POS_FACEUP) and code == pcard.get_code():
                        ret = True
        if not ret and (loc & LOCATION_GRAVE):
            for p in sides:
                for pcard in self.player[p].list_grave:
                    if code == pcard.get_code():
                        ret = True
        if not fc:
            eset = self.filter_field_effect(EFFECT_CHANGE_ENVIRONMENT)
            if eset:
                peffect = eset[-1]
                if (code == _u32(peffect.get_value())
                        and (playerid == peffect.get_handler_player() or playerid == PLAYER_ALL)):
                    ret = True
        return ret

    # ----- activity counts (Duel.GetActivityCount, custom activity counters) ------------

    def get_activity_count(self: "Duel", playerid: int, activity_type: int) -> int:
        """Duel.GetActivityCount: how often ``playerid`` did an ACTIVITY_* this turn (0 for
        other types).  The reference keeps these counts in bytes."""
        core = self.core
        counts = {
            ACTIVITY_SUMMON: core.summon_state_count,
            ACTIVITY_NORMALSUMMON: core.normalsummon_state_count,
            ACTIVITY_SPSUMMON: core.spsummon_state_count,
            ACTIVITY_FLIPSUMMON: core.flipsummon_state_count,
            ACTIVITY_ATTACK: core.attack_state_count,
            ACTIVITY_BATTLE_PHASE: core.battle_phase_count,
        }.get(activity_type)
        return 0 if counts is None else counts[playerid] & 0xFF

    def _custom_counter_map(self: "Duel", activity_type: int) -> dict | None:
        core = self.core
        return {
            ACTIVITY_SUMMON: core.summon_counter,
            ACTIVITY_NORMALSUMMON: core.normalsummon_counter,
            ACTIVITY_SPSUMMON: core.spsummon_counter,
            ACTIVITY_FLIPSUMMON: core.flipsummon_counter,
            ACTIVITY_ATTACK: core.attack_counter,
            ACTIVITY_CHAIN: core.chain_counter,
        }.get(activity_type)

    def add_custom_activity_counter(self: "Duel", counter_id: int, activity_type: int,
                                    filter_fn: Any) -> bool:
        """Duel.AddCustomActivityCounter: count the activities of one type its filter rejects.

        A counter id already registered for that type keeps its first filter
        (and count); False then, and for types without custom counters
        (including ACTIVITY_BATTLE_PHASE).
        """
        counters = self._custom_counter_map(activity_type)
        if counters is None or counter_id in counters:
            return False
        counters[counter_id] = [filter_fn, 0]
        return True

    def get_custom_activity_count(self: "Duel", counter_id: int, playerid: int,
                                  activity_type: int) -> int:
        """Duel.GetCustomActivityCount: the count of one custom counter for a player
        (low 16 bits for player 0, high 16 bits for any other player number)."""
        counters = self._custom_counter_map(activity_type)
        val = 0
        if counters is not None and counter_id in counters:
            val = counters[counter_id][1] & 0xFFFFFFFF
        return val & 0xFFFF if playerid == 0 else (val >> 16) & 0xFFFF
