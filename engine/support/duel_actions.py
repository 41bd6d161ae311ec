"""Rules behind Duel.* functions for card actions, LP, chains, battle and turn state (reference: libduel.cpp, first half).

The reference writes some rules directly inside its Lua functions (libduel.cpp)
instead of in the field/processor code.  They live here, as Duel methods, so
the bindings (bindings/lib_duel_actions.py, bindings/lib_duel_state.py) stay
thin: read the arguments, call one of these or an adder, return the values.

Each method states which Lua function it serves.  Arguments are already
decoded (players, masks, cards, groups); the methods do what the reference
does after its argument checks, in the same order, so messages and events come
out identically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ..card import Card
from ..constants import (
    CHAININFO_CHAIN_COUNT, CHAININFO_CHAIN_ID, CHAININFO_DISABLE_PLAYER, CHAININFO_DISABLE_REASON,
    CHAININFO_EXTTYPE, CHAININFO_TARGET_CARDS, CHAININFO_TARGET_PARAM, CHAININFO_TARGET_PLAYER,
    CHAININFO_TRIGGERING_ATTACK, CHAININFO_TRIGGERING_ATTRIBUTE, CHAININFO_TRIGGERING_CODE,
    CHAININFO_TRIGGERING_CODE2, CHAININFO_TRIGGERING_CONTROLER, CHAININFO_TRIGGERING_DEFENSE,
    CHAININFO_TRIGGERING_EFFECT, CHAININFO_TRIGGERING_LEVEL, CHAININFO_TRIGGERING_LOCATION,
    CHAININFO_TRIGGERING_PLAYER, CHAININFO_TRIGGERING_POSITION, CHAININFO_TRIGGERING_RACE,
    CHAININFO_TRIGGERING_RANK, CHAININFO_TRIGGERING_SEQUENCE, CHAININFO_TYPE,
    EFFECT_CANNOT_DIRECT_ATTACK, EFFECT_CHANGE_ENVIRONMENT, EFFECT_DISABLE_CHAIN,
    EFFECT_EXTRA_SUMMON_COUNT, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_EFFECT,
    EFFECT_FLAG_FIELD_ONLY, EFFECT_FLAG_PLAYER_TARGET, EFFECT_SKIP_BP, EFFECT_SKIP_DP,
    EFFECT_SKIP_M1, EFFECT_SKIP_M2, EFFECT_SKIP_SP, EFFECT_TYPE_FIELD, EFFECT_TYPE_SINGLE,
    EVENT_BE_BATTLE_TARGET, EVENT_EQUIP, EVENT_FLIP_SUMMON, EVENT_FLIP_SUMMON_NEGATED, EVENT_MOVE,
    EVENT_SPSUMMON, EVENT_SPSUMMON_NEGATED, EVENT_SUMMON, EVENT_SUMMON_NEGATED,
    GLOBALFLAG_DECK_REVERSE_CHECK, LOCATION_EXTRA, LOCATION_FZONE, LOCATION_GRAVE, LOCATION_MZONE,
    LOCATION_ONFIELD, LOCATION_REASON_TOFIELD, LOCATION_SZONE, PHASE_BATTLE, PHASE_DAMAGE,
    PHASE_DRAW, PHASE_END, PHASE_MAIN1, PHASE_MAIN2, PHASE_STANDBY, PLAYER_ALL, PLAYER_NONE,
    POS_FACEDOWN_DEFENSE, POS_FACEUP, POS_FACEUP_DEFENSE, REASON_EFFECT, REASON_REPLACE,
    REASON_RULE, RESET_CHAIN, RESET_EVENT, RESET_OPPO_TURN, RESET_PHASE, RESET_SELF_TURN,
    STATUS_ATTACK_CANCELED, STATUS_FLIP_SUMMONING, STATUS_FLIP_SUMMON_DISABLED,
    STATUS_PROC_COMPLETE, STATUS_SUMMONING, STATUS_SUMMON_DISABLED, SUMMON_TYPE_DUAL,
    SUMMON_TYPE_FLIP, SUMMON_TYPE_NORMAL, SUMMON_TYPE_SPECIAL, TIMING_EQUIP, TYPE_MONSTER,
    TYPE_PENDULUM, TYPE_SPELL, TYPE_TRAP,
)
from ..core_constants import EFFECT_SKIP_EP, MAX_CARD_ID
from ..group import CardSet, Group
from ..messages import (CardInfo, LocInfo, MsgAttack, MsgConfirmCards, MsgConfirmDecktop,
                        MsgConfirmExtratop, MsgDeckTop, MsgLpUpdate, MsgShuffleSetCard)
from ..wire import i32 as _i32, u32 as _u32

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect
    from ..event import Chain
    from ..processor.driver import Proc


def flag_effect_code(code: int) -> int:
    """The effect code a player's (or card's) flag effect is stored under:
    the id's low 28 bits plus EFFECT_FLAG_EFFECT."""
    return (code & MAX_CARD_ID) | EFFECT_FLAG_EFFECT


def _card_info(pcard: Card) -> CardInfo:
    cur = pcard.current
    return CardInfo(code=pcard.data.code & 0xFFFFFFFF, controller=cur.controler & 0xFF,
                    location=cur.location & 0xFF, sequence=cur.sequence & 0xFF)


class DuelActionsSupportMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ===== the "wait" unit =================================================================

    def proc_wait(self: "Duel") -> "Proc":
        """PROCESSOR_WAIT: the reference hands control back to the host here (after
        Duel.ConfirmCards / ConfirmDecktop / ConfirmExtratop) without asking
        anything, then goes on.  The host loop has nothing to answer, so the unit
        only marks the point in the queue where the script resumes."""
        return
        yield  # pragma: no cover -- makes this a generator

    # ===== LP, winning =======================================================================

    def set_lp(self: "Duel", playerid: int, lp: int) -> None:
        """Duel.SetLP: set ``playerid``'s LP (negative becomes 0) and tell the client (MSG_LPUPDATE)."""
        lp = _i32(lp)
        if lp < 0:
            lp = 0
        self.player[playerid].lp = lp
        self.emit(MsgLpUpdate(player=playerid & 0xFF, lp=_u32(lp)))

    # ===== flag effects on players ============================================================

    # ===== tokens ==============================================================================

    def create_token(self: "Duel", playerid: int, code: int) -> Card:
        """Duel.CreateToken: a new card of ``code`` owned and controlled by ``playerid``,
        in no location yet (Duel.SpecialSummon puts it on the field).

        Its name, type and stats are the database record's.  A code with no
        record makes a blank card with that code, as the reference does (its
        card reader answers zeros), and a warning names the code.
        """
        if self.card_reader(code) is None:
            self.warn(f"Duel.CreateToken: no row for card code {code} in the card database: "
                      f"a blank card was made, as the reference does")
        pcard = self.new_card(code)
        pcard.owner = playerid
        pcard.current.location = 0
        pcard.current.controler = playerid
        return pcard

    # ===== showing cards ========================================================================

    def confirm_decktop(self: "Duel", playerid: int, count: int) -> None:
        """Duel.ConfirmDecktop: show the top ``count`` cards of ``playerid``'s Deck (top first).

        With the reversed-Deck check on (GLOBALFLAG_DECK_REVERSE_CHECK) and the
        Deck reversed, the card below the shown ones is announced first
        (MSG_DECK_TOP).  Then the host gets control back (PROCESSOR_WAIT).
        """
        deck = self.player[playerid].list_main
        count &= 0xFFFFFFFF
        if count >= len(deck):
            count = len(deck)
        elif (self.core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK) and self.core.deck_reversed:
            pcard = deck[len(deck) - 1 - count]
            code = pcard.data.code
            if pcard.current.position == POS_FACEUP_DEFENSE:
                code |= 0x80000000
            self.emit(MsgDeckTop(player=playerid, sequence=count & 0xFF, code=_u32(code)))
        shown = deck[len(deck) - count:][::-1] if count else []
        self.emit(MsgConfirmDecktop(player=playerid, cards=tuple(_card_info(c) for c in shown)))
        self.add_process(self.proc_wait())

    def confirm_extratop(self: "Duel", playerid: int, count: int) -> None:
        """Duel.ConfirmExtratop: show the top ``count`` face-down cards of ``playerid``'s
        Extra Deck (the face-up Pendulums lie on top and are skipped)."""
        pl = self.player[playerid]
        extra = pl.list_extra
        facedown = len(extra) - pl.extra_p_count
        count &= 0xFFFFFFFF
        if count >= facedown:
            count = facedown
        end = len(extra) - pl.extra_p_count
        shown = extra[max(0, end - count):end][::-1] if count > 0 else []
        self.emit(MsgConfirmExtratop(player=playerid, cards=tuple(_card_info(c) for c in shown)))
        self.add_process(self.proc_wait())

    def confirm_cards(self: "Duel", playerid: int, cards: "Card | Iterable[Card]",
                      skip_panel: bool | int = False) -> None:
        """Duel.ConfirmCards: show cards to ``playerid`` (MSG_CONFIRM_CARDS, in card order
        for a group), then give the host control (PROCESSOR_WAIT)."""
        if isinstance(cards, Card):
            lst = [cards]
        else:
            lst = list(cards)
        self.emit(MsgConfirmCards(player=playerid, skip_panel=1 if skip_panel else 0,
                                  cards=tuple(_card_info(c) for c in lst)))
        self.add_process(self.proc_wait())

    # ===== environment ============================================================================

    # ===== moving cards inside a zone =================================================================

    # ===== equips ===================================================================================

    def equip_complete(self: "Duel") -> None:
        """Duel.EquipComplete: finish the equips made with Duel.Equip(..., is_step=true).

        The face-up equip cards' effects start; EVENT_EQUIP is raised for each
        equipped monster (with all equip cards) and for the field; both players
        get TIMING_EQUIP.
        """
        core = self.core
        etargets = CardSet()
        for equip_card in core.equiping_cards:
            if equip_card.is_position(POS_FACEUP):
                equip_card.enable_field_effect(True)
            etargets.add(equip_card.equiping_target)
        self.adjust_instant()
        for equip_target in etargets:
            self.raise_single_event(equip_target, core.equiping_cards, EVENT_EQUIP, core.reason_effect,
                                    0, core.reason_player, PLAYER_NONE, 0)
        self.raise_event(core.equiping_cards, EVENT_EQUIP, core.reason_effect, 0, core.reason_player,
                         PLAYER_NONE, 0)
        core.hint_timing[0] |= TIMING_EQUIP
        core.hint_timing[1] |= TIMING_EQUIP
        self.process_single_event()
        self.process_instant_event()

    # ===== LP damage/recover reserved with is_step ================================================

    def rd_complete(self: "Duel") -> None:
        """Duel.RDComplete: run the damage/recovery units held back with is_step=true."""
        reserve = self.core.recover_damage_reserve
        for unit in reserve:
            self.add_process(unit)
        reserve.clear()

    # ===== the battle ==================================================================================

    # ===== chains ===================================================================================

    def negate_related_chain(self: "Duel", pcard: Card, reset_flag: int) -> None:
        """Duel.NegateRelatedChain: negate the effects ``pcard`` activated in the current chain
        (only with at least two links, and if the reason effect reaches it).

        Each such link still related to the card gets an EFFECT_DISABLE_CHAIN on
        the card, reset with the chain (and ``reset_flag``).
        """
        core = self.core
        if len(core.current_chain) < 2:
            return
        if not pcard.is_affect_by_effect(core.reason_effect):
            return
        for ch in reversed(list(core.current_chain)):
            if ch.triggering_effect.get_handler() is pcard and pcard.is_has_relation(ch):
                negeff = self.new_effect()
                negeff.owner = core.reason_effect.get_handler()
                negeff.type = EFFECT_TYPE_SINGLE
                negeff.code = EFFECT_DISABLE_CHAIN
                negeff.value = ch.chain_id
                negeff.reset_flag = _u32(RESET_CHAIN | RESET_EVENT | reset_flag)
                pcard.add_effect(negeff)

    # ===== negating summons =============================================================================

    def negate_summon(self: "Duel", target: "Card | Group") -> None:
        """Duel.NegateSummon: negate the summon now being made (the event at this point
        tells which kind: Normal -- Gemini when is_gemini_summoning --, Flip, or Special).

        A Normal/Flip Summon negation needs exactly one card.  Each card whose
        summon can be negated by the reason effect loses its "summoning"
        status and is marked negated; nothing happens when none can be.  Then
        EVENT_SUMMON_NEGATED / EVENT_FLIP_SUMMON_NEGATED / EVENT_SPSUMMON_NEGATED.
        """
        core = self.core
        pcard: Card | None = target if isinstance(target, Card) else None
        pgroup: Group | None = None if isinstance(target, Card) else target
        if self.check_event(EVENT_SUMMON):
            sumtype = SUMMON_TYPE_DUAL if core.is_gemini_summoning else SUMMON_TYPE_NORMAL
        elif self.check_event(EVENT_FLIP_SUMMON):
            sumtype = SUMMON_TYPE_FLIP
        elif self.check_event(EVENT_SPSUMMON):
            sumtype = SUMMON_TYPE_SPECIAL
        else:
            return
        if (sumtype & SUMMON_TYPE_NORMAL) or (sumtype & SUMMON_TYPE_FLIP):
            if pgroup is not None and len(pgroup.container) != 1:
                return
            if pcard is None:
                pcard = pgroup.container.first()
        sumplayer = PLAYER_NONE
        reason_effect = core.reason_effect
        negated = CardSet()
        if sumtype == SUMMON_TYPE_DUAL or (sumtype & SUMMON_TYPE_FLIP):
            if not pcard.is_summon_negatable(sumtype, reason_effect):
                return
            sumplayer = pcard.summon_player
            pcard.set_status(STATUS_FLIP_SUMMONING, False)
            pcard.set_status(STATUS_FLIP_SUMMON_DISABLED, True)
        elif pcard is not None:
            if not pcard.is_summon_negatable(sumtype, reason_effect):
                return
            sumplayer = pcard.summon_player
            pcard.set_status(STATUS_SUMMONING, False)
            pcard.set_status(STATUS_SUMMON_DISABLED, True)
            pcard.set_status(STATUS_PROC_COMPLETE, False)
        else:
            for gcard in pgroup.container:
                if not gcard.is_summon_negatable(sumtype, reason_effect):
                    continue
                sumplayer = gcard.summon_player
                gcard.set_status(STATUS_SUMMONING, False)
                gcard.set_status(STATUS_SUMMON_DISABLED, True)
                gcard.set_status(STATUS_PROC_COMPLETE, False)
                negated.add(gcard)
            if not negated:
                return
        core.is_summon_negated = True
        event_code = 0
        if sumtype & SUMMON_TYPE_NORMAL:
            event_code = EVENT_SUMMON_NEGATED
        elif sumtype & SUMMON_TYPE_FLIP:
            event_code = EVENT_FLIP_SUMMON_NEGATED
        elif sumtype & SUMMON_TYPE_SPECIAL:
            event_code = EVENT_SPSUMMON_NEGATED
        # the event carries the card, or the whole group given (negated or not)
        cards: Any = pcard if pcard is not None else pgroup.container
        self.raise_event(cards, event_code, reason_effect, REASON_EFFECT, core.reason_player, sumplayer, 0)
        self.process_instant_event()

    # ===== summon counts ==============================================================================

    def increase_summon_count(self: "Duel", pcard: Card | None = None) -> None:
        """Duel.IncreaseSummonedCount: use up a Normal Summon of the reason player, or the
        card's EFFECT_EXTRA_SUMMON_COUNT (its value function is called with the card)."""
        core = self.core
        playerid = core.reason_player
        pextra = pcard.is_affected_by_effect(EFFECT_EXTRA_SUMMON_COUNT) if pcard is not None else None
        if pextra is not None:
            pextra.get_value(pcard)
        elif playerid in (0, 1):
            # (no reason player: the reference writes past its two-player array; we do nothing)
            core.summon_count[playerid] += 1

    def check_summon_count(self: "Duel", pcard: Card | None = None) -> bool:
        """Duel.CheckSummonedCount: can the reason player still Normal Summon (or ``pcard``
        use an EFFECT_EXTRA_SUMMON_COUNT)?"""
        core = self.core
        playerid = core.reason_player
        if pcard is not None and pcard.is_affected_by_effect(EFFECT_EXTRA_SUMMON_COUNT) is not None:
            return True
        if playerid not in (0, 1):
            # no reason player (a plain call outside any effect): the reference reads past
            # its two-player array; we answer "no"
            return False
        return core.summon_count[playerid] < self.get_summon_count_limit(playerid)

    # ===== zone counts as if some cards had left ===================================================

    # ===== phases ================================================================================

    # ===== adjusting ================================================================================

