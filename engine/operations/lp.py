"""Life points: damage, recovery and paying LP as a cost (reference: operations.cpp).

Damage and recovery can be reversed into each other (EFFECT_REVERSE_DAMAGE,
EFFECT_REVERSE_RECOVER), damage can be reflected to the other player, changed
or replaced.  "Simultaneous" damage/recovery (Duel.Damage/Recover with
``is_step``) is worked out at once but applied only when the script calls
Duel.RDComplete: the unit parks itself in core.recover_damage_reserve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import (
    EFFECT_CHANGE_DAMAGE, EFFECT_LPCOST_CHANGE, EFFECT_LPCOST_REPLACE, EFFECT_MATCH_KILL,
    EFFECT_REFLECT_DAMAGE, EFFECT_REPLACE_DAMAGE, EFFECT_REVERSE_DAMAGE, EFFECT_REVERSE_RECOVER,
    EVENT_BATTLE_DAMAGE, EVENT_DAMAGE, EVENT_PAY_LPCOST, EVENT_RECOVER, REASON_BATTLE,
    REASON_EFFECT, REASON_RDAMAGE, REASON_RRECOVER, TIMING_DAMAGE, TIMING_RECOVER,
)
from ..event import Event
from ..messages import MsgDamage, MsgLpUpdate, MsgMatchKill, MsgPayLpCost, MsgRecover
from ..processor.driver import Suspend
from .move import i32, u32
from ..wire import i32 as _i32, u32 as _u32

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from ..effect import Effect
    from ..processor.driver import Proc

INT32_MAX = 0x7FFFFFFF


class LifePointsMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ----- adders -----------------------------------------------------------------------

    def damage(self: "Duel", reason_effect: "Effect | None", reason: int, reason_player: int,
               reason_card: "Card | None", playerid: int, amount: int,
               is_step: bool | int = False) -> None:
        """Inflict ``amount`` damage on ``playerid``.

        Battle damage (REASON_BATTLE) carries the card that caused it and no
        effect; other damage carries the effect and no card.  Players are
        2-bit fields of the reference's unit, ``is_step`` one bit.
        """
        reason_player &= 0x3
        playerid &= 0x3
        is_step = int(bool(is_step))
        if reason & REASON_BATTLE:
            self.add_process(self.proc_damage(None, reason, reason_player, reason_card, playerid,
                                              amount, is_step))
        else:
            self.add_process(self.proc_damage(reason_effect, reason, reason_player, None, playerid,
                                              amount, is_step))

    def recover(self: "Duel", reason_effect: "Effect | None", reason: int, reason_player: int,
                playerid: int, amount: int, is_step: bool | int = False) -> None:
        """``playerid`` gains ``amount`` LP."""
        self.add_process(self.proc_recover(reason_effect, reason, reason_player & 0x3, playerid & 0x3,
                                           amount, int(bool(is_step))))

    # ----- units ------------------------------------------------------------------------

    def proc_damage(self: "Duel", reason_effect: "Effect | None", reason: int, reason_player: int,
                    reason_card: "Card | None", playerid: int, amount: int,
                    is_step: bool | int = False) -> "Proc":
        """Inflict damage.

        Nothing for an amount of 0 or less.  Unless this damage already comes
        from a reversal, an EFFECT_REVERSE_DAMAGE on the player turns it into
        recovery.  An EFFECT_REFLECT_DAMAGE sends it to the other player; then
        the EFFECT_CHANGE_DAMAGE and EFFECT_REPLACE_DAMAGE values on the player
        who takes it apply in turn (0 ends it).  With ``is_step`` the unit waits
        in core.recover_damage_reserve until Duel.RDComplete.  The damage:
        MSG_DAMAGE, EVENT_DAMAGE, and for battle damage EVENT_BATTLE_DAMAGE (and
        MSG_MATCH_KILL for a direct attack that wins with EFFECT_MATCH_KILL).

        returns.ivalue[0]: the damage dealt -- 0 when reflected or when it was
        a reversed recovery; the changed amount when it is parked.
        """
        core = self.core
        amount = i32(amount)
        self.returns.ivalue[0] = amount
        if amount <= 0:
            return
        if not (reason & REASON_RDAMAGE):
            for peffect in self.filter_player_effect(playerid, EFFECT_REVERSE_DAMAGE):
                if peffect.check_value_condition(reason_effect, reason, reason_player, reason_card):
                    self.recover(reason_effect, (reason & REASON_RRECOVER) | REASON_RDAMAGE | REASON_EFFECT,
                                 reason_player, playerid, amount, is_step)
                    yield
                    self.returns.ivalue[0] = 0
                    return
        is_reflect = False
        for peffect in self.filter_player_effect(playerid, EFFECT_REFLECT_DAMAGE):
            if peffect.check_value_condition(reason_effect, amount, reason, reason_player, reason_card):
                playerid = 1 - playerid
                is_reflect = True
                break
        val = amount
        for code in (EFFECT_CHANGE_DAMAGE, EFFECT_REPLACE_DAMAGE):
            for peffect in self.filter_player_effect(playerid, code):
                val = i32(peffect.get_value(None, reason_effect, val, reason, reason_player, reason_card))
                self.returns.ivalue[0] = val
                if val == 0:
                    return
        amount = val
        if is_step:
            yield Suspend(core.recover_damage_reserve.append)
        core.hint_timing[playerid] |= TIMING_DAMAGE
        self.player[playerid].lp = i32(self.player[playerid].lp - amount)
        self.emit(MsgDamage(player=playerid, amount=u32(amount)))
        self.raise_event(reason_card, EVENT_DAMAGE, reason_effect, reason, reason_player, playerid, u32(amount))
        if reason == REASON_BATTLE and reason_card is not None:
            if (self.player[playerid].lp <= 0 and core.attack_target is None
                    and reason_card.is_affected_by_effect(EFFECT_MATCH_KILL)):
                self.emit(MsgMatchKill(code=reason_card.data.code))
            self.raise_single_event(reason_card, None, EVENT_BATTLE_DAMAGE, None, 0, reason_player,
                                    playerid, u32(amount))
            self.raise_event(reason_card, EVENT_BATTLE_DAMAGE, None, 0, reason_player, playerid, u32(amount))
            self.process_single_event()
        self.process_instant_event()
        yield
        if is_reflect or (reason & REASON_RRECOVER):
            self.returns.ivalue[0] = 0
        else:
            self.returns.ivalue[0] = amount

    def proc_recover(self: "Duel", reason_effect: "Effect | None", reason: int, reason_player: int,
                     playerid: int, amount: int, is_step: bool | int = False) -> "Proc":
        """Gain LP.

        Nothing for an amount of 0 or less.  Unless this recovery already comes
        from a reversal, an EFFECT_REVERSE_RECOVER on the player turns it into
        damage.  With ``is_step`` the unit waits in core.recover_damage_reserve
        until Duel.RDComplete.  LP stop at the int32 maximum (and a player at 0
        LP or less gains nothing); MSG_RECOVER shows the LP actually gained,
        EVENT_RECOVER the amount asked.

        returns.ivalue[0]: the amount, or 0 when it was a reversed damage or
        was itself reversed.
        """
        core = self.core
        amount = i32(amount)
        self.returns.ivalue[0] = amount
        if amount <= 0:
            return
        if not (reason & REASON_RRECOVER):
            for peffect in self.filter_player_effect(playerid, EFFECT_REVERSE_RECOVER):
                if peffect.check_value_condition(reason_effect, reason, reason_player):
                    self.damage(reason_effect, (reason & REASON_RDAMAGE) | REASON_RRECOVER | REASON_EFFECT,
                                reason_player, None, playerid, amount, is_step)
                    yield
                    self.returns.ivalue[0] = 0
                    return
        if is_step:
            yield Suspend(core.recover_damage_reserve.append)
        core.hint_timing[playerid] |= TIMING_RECOVER
        lp = self.player[playerid].lp
        limit = INT32_MAX - lp if lp > 0 else 0
        val = min(amount, limit)
        self.player[playerid].lp = lp + val
        self.emit(MsgRecover(player=playerid, amount=u32(val)))
        self.raise_event(None, EVENT_RECOVER, reason_effect, reason, reason_player, playerid, u32(amount))
        self.process_instant_event()
        yield
        self.returns.ivalue[0] = 0 if (reason & REASON_RDAMAGE) else amount

    def proc_pay_lp_cost(self: "Duel", playerid: int, cost: int, must_pay: bool | int = False) -> "Proc":
        """Pay LP as a cost.

        The cost is first changed by EFFECT_LPCOST_CHANGE (a cost of 0 or less
        is not paid).  The player may pay if they have enough LP; unless
        ``must_pay``, an EFFECT_LPCOST_REPLACE usable now is offered as another
        way (a yes/no question when it is the only alternative to paying, else
        a list of options).  If there is no way, nothing happens.  Paying:
        MSG_PAY_LPCOST and EVENT_PAY_LPCOST; a replacement runs its operation.
        """
        core = self.core
        playerid &= 0xFF
        val = i32(cost)
        for peffect in self.filter_player_effect(playerid, EFFECT_LPCOST_CHANGE):
            val = i32(peffect.get_value(None, core.reason_effect, playerid, val))
        if val <= 0:
            return
        cost = val
        core.select_options.clear()
        core.select_effects.clear()
        if val <= self.player[playerid].lp:
            core.select_options.append(11)
            core.select_effects.append(None)
        if must_pay:
            if not core.select_options:
                return
            self.returns.ivalue[0] = 0
        else:
            e = Event(event_cards=None, event_player=playerid, event_value=u32(val), reason=0,
                      reason_effect=core.reason_effect, reason_player=playerid)
            for peffect in self.effects.continuous_effect.equal_range(EFFECT_LPCOST_REPLACE):
                if peffect.is_activateable(peffect.get_handler_player(), e):
                    core.select_options.append(peffect.description)
                    core.select_effects.append(peffect)
            if not core.select_options:
                return
            if len(core.select_options) == 1:
                self.returns.ivalue[0] = 0
            elif core.select_effects[0] is None and len(core.select_effects) == 2:
                self.add_process(self.proc_select_effect_yes_no(playerid, 218, core.select_effects[1].handler))
            else:
                self.add_process(self.proc_select_option(playerid))
        yield
        peffect = core.select_effects[self.returns.ivalue[0]]
        if peffect is None:
            self.player[playerid].lp = i32(self.player[playerid].lp - cost)
            self.emit(MsgPayLpCost(player=playerid, amount=u32(cost)))
            self.raise_event(None, EVENT_PAY_LPCOST, core.reason_effect, 0, playerid, playerid, u32(cost))
            self.process_instant_event()
            return
        e = Event(event_cards=None, event_player=playerid, event_value=u32(cost), reason=0,
                  reason_effect=core.reason_effect, reason_player=playerid)
        self.solve_continuous(playerid, peffect, e)

    # ----- setting LP, the damage/recovery held back with is_step (Duel.SetLP, RDComplete) ---

    def set_lp(self: "Duel", playerid: int, lp: int) -> None:
        """Duel.SetLP: set ``playerid``'s LP (negative becomes 0) and tell the client (MSG_LPUPDATE)."""
        lp = _i32(lp)
        if lp < 0:
            lp = 0
        self.player[playerid].lp = lp
        self.emit(MsgLpUpdate(player=playerid & 0xFF, lp=_u32(lp)))

    def rd_complete(self: "Duel") -> None:
        """Duel.RDComplete: run the damage/recovery units held back with is_step=true."""
        reserve = self.core.recover_damage_reserve
        for unit in reserve:
            self.add_process(unit)
        reserve.clear()
