"""Asking a player: the MSG_SELECT_* prompts and the checks on the answer.

Reference: playerop.cpp.  Each prompt is a unit: it writes the prompt
message (built from core.select_cards, core.select_chains, core.select_options
... exactly like the reference), waits for the answer, and checks it.  A bad
answer gets MSG_RETRY and the same prompt waits again; nothing else changes.
The answer is left in ``self.returns`` as the raw response area, which is
what the calling procedure reads.

Whether an answer is accepted is decided by the prompt's kind object
(engine/prompt_kinds.py), the same code a host's ``respond`` checks with; where
the message truncates a number the unit was called with (SELECT_SUM's limits,
SELECT_COUNTER's count, SELECT_PLACE's zone count) the prompt carries the number
itself as ``exact``, which the kind checks against.

With DUEL_SIMPLE_AI, player 1's prompts are answered by the core itself.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import TYPE_CHECKING, Iterable

from ..constants import (
    DUEL_SIMPLE_AI, EFFECT_FLAG_FIELD_ONLY, EFFECT_TYPE_ACTIONS, HINT_ATTRIB, HINT_CODE,
    HINT_NUMBER, HINT_OPSELECTED, HINT_RACE, HINT_SELECTMSG, LOCATION_MZONE, LOCATION_SZONE,
    OPCODE_ADD, OPCODE_AND, OPCODE_DIV, OPCODE_ISATTRIBUTE, OPCODE_ISCODE, OPCODE_ISRACE,
    OPCODE_ISSETCARD, OPCODE_ISTYPE, OPCODE_MUL, OPCODE_NEG, OPCODE_NOT, OPCODE_OR, OPCODE_SUB,
    PHASE_MAIN1, POS_FACEUP_ATTACK,
)
from ..core_constants import CHAIN_FORCED, EDESC_OPERATION, EDESC_RESET, RACES_COUNT
from ..card_effects import card_operation_key
from ..event import Chain
from ..messages import (AttackableCard, card_info, ChainOption, CounterCard, CounterLimits, EffectOption, LocInfo,
                        MsgAnnounceAttrib, MsgAnnounceCard, MsgAnnounceNumber, MsgAnnounceRace,
                        MsgHint, MsgRetry, MsgSelectBattleCmd, MsgSelectCard, MsgSelectChain,
                        MsgSelectCounter, MsgSelectDisfield, MsgSelectEffectYn, MsgSelectIdleCmd,
                        MsgSelectOption, MsgSelectPlace, MsgSelectPosition, MsgSelectSum,
                        MsgSelectTribute, MsgSelectUnselectCard, MsgSelectYesNo, MsgSortCard,
                        PlaceLimits, SelectableCard, SumCard, SumLimits, TributeCard)

from ..stdsort import std_sort
from ..field.chains import _become_target
from ..wire import i32 as _i32
from ..prompt_kinds import kind_of
from ..group import CardSet

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from .driver import Proc

UINT8_MAX = 255


def chain_operation_less(a: Chain, b: Chain) -> bool:
    """The reference's chain::chain_operation_sort: does ``a`` go before ``b``?

    Two effects of one card go by description, any other two by effect id, then
    by chain id.  This is not transitive (a cycle through description and id
    orders is possible), so the order it gives depends on the sorting
    algorithm: sort with engine.stdsort.std_sort, as the reference's std::sort.
    """
    e1, e2 = a.triggering_effect, b.triggering_effect
    if e1 is not None and e2 is not None:
        if e1.handler is e2.handler and e1.description != e2.description:
            return e1.description < e2.description
        if e1.id != e2.id:
            return e1.id < e2.id
    return a.chain_id < b.chain_id


def _chain_cmp(c1: Chain, c2: Chain) -> int:
    """The reference's chain_operation_sort as a comparison."""
    before = chain_operation_less
    if before(c1, c2):
        return -1
    if before(c2, c1):
        return 1
    return 0


chain_operation_key = cmp_to_key(_chain_cmp)


def _effect_option(ch: Chain) -> EffectOption:
    peffect = ch.triggering_effect
    c = peffect.get_handler()
    code = c.data.code if not peffect.is_flag(EFFECT_FLAG_FIELD_ONLY) else (c.data.code | 0x80000000)
    return EffectOption(code=code, controller=c.current.controler, location=c.current.location,
                        sequence=c.current.sequence, description=peffect.description & 0xFFFFFFFF)


# the announce-card opcodes that take two operands / one operand off the stack
_BINARY_OPCODES = frozenset((OPCODE_ADD, OPCODE_SUB, OPCODE_MUL, OPCODE_DIV, OPCODE_AND, OPCODE_OR))
_UNARY_OPCODES = frozenset((OPCODE_NEG, OPCODE_NOT, OPCODE_ISCODE, OPCODE_ISSETCARD, OPCODE_ISTYPE,
                            OPCODE_ISRACE, OPCODE_ISATTRIBUTE))


class PromptsMixin:
    """Methods of Duel (see engine/duel.py)."""

    def _wait_answer(self: "Duel", prompt, *, emit: bool = True) -> "Proc":
        """Write the prompt, then wait until its kind accepts the answer (MSG_RETRY otherwise).

        ``emit`` False: the prompt is not written and the player is asked with
        MSG_RETRY alone (SELECT_COUNTER with too few counters, as the reference)."""
        refusal = kind_of(prompt).refusal
        returns = self.returns
        lookup = self.card_reader
        if emit:
            self.emit(prompt)
            asked = prompt
        else:
            self.emit(MsgRetry())
            asked = MsgRetry()
        while True:
            raw = yield asked
            returns.set_raw(raw if raw is not None else b"")
            if refusal(prompt, returns.buf, card_lookup=lookup) is None:
                return
            self.emit(MsgRetry())

    def _simple_ai(self: "Duel", playerid: int) -> bool:
        return playerid == 1 and bool(self.core.duel_options & DUEL_SIMPLE_AI)

    def _sort_select_cards(self: "Duel", playerid: int) -> None:
        core = self.core
        core.selecting_player = playerid
        core.select_cards.sort(key=card_operation_key)
        if len(core.select_cards) > UINT8_MAX:
            del core.select_cards[UINT8_MAX:]

    # ----- commands ------------------------------------------------------------------------

    def proc_select_battle_command(self: "Duel", playerid: int) -> "Proc":
        core = self.core
        std_sort(core.select_chains, chain_operation_less)
        prompt = MsgSelectBattleCmd(
            player=playerid,
            activatable=tuple(_effect_option(ch) for ch in core.select_chains),
            attackable=tuple(AttackableCard(code=c.data.code, controller=c.current.controler,
                                            location=c.current.location, sequence=c.current.sequence,
                                            direct_attackable=c.direct_attackable)
                             for c in core.attackable_cards),
            can_main2=1 if core.to_m2 else 0,
            can_end_phase=1 if core.to_ep else 0)
        yield from self._wait_answer(prompt)

    def proc_select_idle_command(self: "Duel", playerid: int) -> "Proc":
        core = self.core
        infos = self.infos
        std_sort(core.select_chains, chain_operation_less)
        can_bp = infos.phase == PHASE_MAIN1 and core.to_bp
        can_shuffle = bool(infos.can_shuffle and len(self.player[playerid].list_hand) > 1)
        prompt = MsgSelectIdleCmd(
            player=playerid,
            summonable=tuple(card_info(c) for c in core.summonable_cards),
            special_summonable=tuple(card_info(c) for c in core.spsummonable_cards),
            repositionable=tuple(card_info(c) for c in core.repositionable_cards),
            monster_settable=tuple(card_info(c) for c in core.msetable_cards),
            spell_settable=tuple(card_info(c) for c in core.ssetable_cards),
            activatable=tuple(_effect_option(ch) for ch in core.select_chains),
            can_battle_phase=1 if can_bp else 0,
            can_end_phase=1 if core.to_ep else 0,
            can_shuffle=1 if can_shuffle else 0)
        yield from self._wait_answer(prompt)

    # ----- yes/no and options ----------------------------------------------------------------

    def proc_select_effect_yes_no(self: "Duel", playerid: int, description: int, pcard: "Card") -> "Proc":
        if self._simple_ai(playerid):
            self.returns.ivalue[0] = 1
            return
        prompt = MsgSelectEffectYn(player=playerid, code=pcard.data.code,
                                   loc=LocInfo.from_raw(pcard.get_info_location()),
                                   description=description & 0xFFFFFFFF)
        self.returns.ivalue[0] = -1
        yield from self._wait_answer(prompt)

    def proc_select_yes_no(self: "Duel", playerid: int, description: int) -> "Proc":
        if self._simple_ai(playerid):
            self.returns.ivalue[0] = 1
            return
        prompt = MsgSelectYesNo(player=playerid, description=description & 0xFFFFFFFF)
        self.returns.ivalue[0] = -1
        yield from self._wait_answer(prompt)

    def proc_select_option(self: "Duel", playerid: int) -> "Proc":
        core = self.core
        self.returns.ivalue[0] = -1
        if not core.select_options:
            return
        if self._simple_ai(playerid):
            self.returns.ivalue[0] = 0
            return
        prompt = MsgSelectOption(player=playerid, options=tuple(o & 0xFFFFFFFF for o in core.select_options))
        yield from self._wait_answer(prompt)

    # ----- cards ----------------------------------------------------------------------------

    def proc_select_card(self: "Duel", playerid: int, cancelable: bool | int, min_: int, max_: int) -> "Proc":
        core = self.core
        self.returns.bvalue[0] = 0
        if max_ == 0 or not core.select_cards:
            return
        self._sort_select_cards(playerid)
        if max_ > len(core.select_cards):
            max_ = len(core.select_cards)
        if min_ > max_:
            min_ = max_
        if self._simple_ai(playerid):
            self.returns.bvalue[0] = min_
            for i in range(min_):
                self.returns.bvalue[i + 1] = i
            return
        seq = [0]
        prompt = MsgSelectCard(
            player=playerid, cancelable=int(cancelable) & 0xFF, min=min_, max=max_,
            cards=tuple(SelectableCard(code=c.data.code,
                                       location=LocInfo.from_raw(c.get_select_info_location(seq)))
                        for c in core.select_cards))
        yield from self._wait_answer(prompt)

    def proc_select_unselect_card(self: "Duel", playerid: int, cancelable: bool | int, min_: int,
                                  max_: int, finishable: bool | int) -> "Proc":
        core = self.core
        self.returns.bvalue[0] = 0
        if not core.select_cards and not core.unselect_cards:
            return
        if self._simple_ai(playerid):
            self.returns.bvalue[0] = 1
            self.returns.bvalue[1] = 0
            return
        self._sort_select_cards(playerid)
        if len(core.unselect_cards) > UINT8_MAX:
            del core.unselect_cards[UINT8_MAX:]
        seq = [0]
        sel = tuple(SelectableCard(code=c.data.code, location=LocInfo.from_raw(c.get_select_info_location(seq)))
                    for c in core.select_cards)
        unsel = tuple(SelectableCard(code=c.data.code, location=LocInfo.from_raw(c.get_select_info_location(seq)))
                      for c in core.unselect_cards)
        prompt = MsgSelectUnselectCard(player=playerid, finishable=int(finishable) & 0xFF,
                                       cancelable=int(cancelable) & 0xFF, min=min_ & 0xFF, max=max_ & 0xFF,
                                       selectable=sel, unselectable=unsel)
        yield from self._wait_answer(prompt)

    def proc_select_chain(self: "Duel", playerid: int, spe_count: int) -> "Proc":
        core = self.core
        self.returns.ivalue[0] = -1
        if self._simple_ai(playerid):
            if core.select_chains:
                act = not any(ch.triggering_player == 1 for ch in core.current_chain)
                if any(ch.flag & CHAIN_FORCED for ch in core.select_chains):
                    act = True
                self.returns.ivalue[0] = 0 if act else -1
            return
        std_sort(core.select_chains, chain_operation_less)
        options = []
        for ch in core.select_chains:
            peffect = ch.triggering_effect
            pcard = peffect.get_handler()
            if peffect.is_flag(EFFECT_FLAG_FIELD_ONLY):
                mode = EDESC_OPERATION
            elif not (peffect.type & EFFECT_TYPE_ACTIONS):
                mode = EDESC_RESET
            else:
                mode = 0
            options.append(ChainOption(client_mode=mode, forced=1 if ch.flag & CHAIN_FORCED else 0,
                                       code=pcard.data.code, location=LocInfo.from_raw(pcard.get_info_location()),
                                       description=peffect.description & 0xFFFFFFFF))
        prompt = MsgSelectChain(player=playerid, special_count=spe_count & 0xFF,
                                hint_timing=core.hint_timing[playerid] & 0xFFFFFFFF,
                                other_hint_timing=core.hint_timing[1 - playerid] & 0xFFFFFFFF,
                                chains=tuple(options))
        yield from self._wait_answer(prompt)

    # ----- zones and positions ------------------------------------------------------------

    def _simple_ai_place(self: "Duel", flag: int) -> None:
        flag = ~flag & 0xFFFFFFFF
        b = self.returns.bvalue
        pzone = False
        if flag & 0x7F:
            b[0], b[1], filt = 1, LOCATION_MZONE, flag & 0x7F
        elif flag & 0x1F00:
            b[0], b[1], filt = 1, LOCATION_SZONE, (flag >> 8) & 0x1F
        elif flag & 0xC000:
            b[0], b[1], filt = 1, LOCATION_SZONE, (flag >> 14) & 0x3
            pzone = True
        elif flag & 0x7F0000:
            b[0], b[1], filt = 0, LOCATION_MZONE, (flag >> 16) & 0x7F
        elif flag & 0x1F000000:
            b[0], b[1], filt = 0, LOCATION_SZONE, (flag >> 24) & 0x1F
        else:
            b[0], b[1], filt = 0, LOCATION_SZONE, (flag >> 30) & 0x3
            pzone = True
        if not pzone:
            for bit, seq in ((0x40, 6), (0x20, 5), (0x4, 2), (0x2, 1), (0x8, 3), (0x1, 0), (0x10, 4)):
                if filt & bit:
                    b[2] = seq
                    break
        else:
            if filt & 0x1:
                b[2] = 6
            elif filt & 0x2:
                b[2] = 7

    def proc_select_place(self: "Duel", playerid: int, flag: int, count: int) -> "Proc":
        yield from self._select_place(MsgSelectPlace, playerid, flag, count)

    def proc_select_disfield(self: "Duel", playerid: int, flag: int, count: int) -> "Proc":
        yield from self._select_place(MsgSelectDisfield, playerid, flag, count)

    def _select_place(self: "Duel", cls, playerid: int, flag: int, count: int) -> "Proc":
        flag &= 0xFFFFFFFF
        if self._simple_ai(playerid):
            self._simple_ai_place(flag)
            return
        prompt = cls(player=playerid, count=count & 0xFF, flag=flag, exact=PlaceLimits(count))
        self.returns.bvalue[0] = 0
        yield from self._wait_answer(prompt)

    def proc_select_position(self: "Duel", playerid: int, code: int, positions: int) -> "Proc":
        if positions == 0:
            self.returns.ivalue[0] = POS_FACEUP_ATTACK
            return
        positions &= 0xF
        if positions in (0x1, 0x2, 0x4, 0x8):
            self.returns.ivalue[0] = positions
            return
        if self._simple_ai(playerid):
            for bit in (0x4, 0x1, 0x8):
                if positions & bit:
                    self.returns.ivalue[0] = bit
                    return
            self.returns.ivalue[0] = 0x2
            return
        prompt = MsgSelectPosition(player=playerid, code=code & 0xFFFFFFFF, positions=positions)
        self.returns.ivalue[0] = 0
        yield from self._wait_answer(prompt)

    # ----- tributes, counters, sums, sorting ----------------------------------------------------

    def proc_select_tribute(self: "Duel", playerid: int, cancelable: bool | int, min_: int, max_: int) -> "Proc":
        core = self.core
        self.returns.bvalue[0] = 0
        if max_ == 0 or not core.select_cards:
            return
        self._sort_select_cards(playerid)
        tm = sum(c.release_param for c in core.select_cards) & 0xFF
        max_ = min(max_, 5, tm)
        if min_ > max_:
            min_ = max_
        seq = [0]
        prompt = MsgSelectTribute(
            player=playerid, cancelable=int(cancelable) & 0xFF, min=min_, max=max_,
            cards=tuple(TributeCard(code=c.data.code, controller=c.current.controler,
                                    location=c.current.location, sequence=c.get_select_sequence(seq),
                                    release_param=c.release_param & 0xFF)
                        for c in core.select_cards))
        yield from self._wait_answer(prompt)

    def proc_select_counter(self: "Duel", playerid: int, countertype: int, count: int, s: int, o: int) -> "Proc":
        core = self.core
        if count == 0:
            return
        core.select_cards = []
        total = 0
        fp, avail = playerid, s
        for _ in range(2):
            if avail:
                for zone in (self.player[fp].list_mzone, self.player[fp].list_szone):
                    for pcard in zone:
                        if pcard is not None and pcard.get_counter(countertype):
                            core.select_cards.append(pcard)
                            total += pcard.get_counter(countertype)
            fp = 1 - fp
            avail = o

        def question() -> MsgSelectCounter:
            seq = [0]
            return MsgSelectCounter(
                player=playerid, counter_type=countertype & 0xFFFF, count=count & 0xFFFF,
                cards=tuple(CounterCard(code=c.data.code, controller=c.current.controler,
                                        location=c.current.location, sequence=c.get_select_sequence(seq),
                                        counter_count=c.get_counter(countertype) & 0xFFFF)
                            for c in core.select_cards),
                exact=CounterLimits(count, tuple(c.get_counter(countertype) for c in core.select_cards)))
        if count > total:
            # The reference answers with MSG_RETRY and waits without a prompt; every answer
            # then goes through the same check, which fewer counters than asked can never
            # pass: MSG_RETRY again, for ever (the script should have checked first).
            yield from self._wait_answer(question(), emit=False)
            return
        core.selecting_player = playerid
        core.select_cards.sort(key=card_operation_key)
        yield from self._wait_answer(question())

    def proc_select_sum(self: "Duel", playerid: int, acc: int, min_: int, max_: int) -> "Proc":
        """Choose cards whose values add up to ``acc`` (max 0: "at least acc", e.g. Ritual tributes)."""
        core = self.core
        self.returns.bvalue[0] = 0
        if not core.select_cards:
            return
        self._sort_select_cards(playerid)
        if len(core.must_select_cards) > UINT8_MAX:
            del core.must_select_cards[UINT8_MAX:]
        mode = 0 if max_ else 1
        shown_max = max(max_, min_)
        seq = [0]

        def sum_card(c: "Card") -> SumCard:
            return SumCard(code=c.data.code, controller=c.current.controler, location=c.current.location,
                           sequence=c.get_select_sequence(seq), sum_param=c.sum_param & 0xFFFFFFFF)
        must = tuple(sum_card(c) for c in core.must_select_cards)
        cards = tuple(sum_card(c) for c in core.select_cards)
        prompt = MsgSelectSum(player=playerid, mode=mode, target=acc & 0xFFFFFFFF, min=min_ & 0xFF,
                              max=shown_max & 0xFF, must_cards=must, cards=cards,
                              exact=SumLimits(min_, max_, acc))
        yield from self._wait_answer(prompt)

    def proc_sort_card(self: "Duel", playerid: int) -> "Proc":
        core = self.core
        self.returns.bvalue[0] = 0
        if self._simple_ai(playerid):
            self.returns.bvalue[0] = 0xFF
            return
        if not core.select_cards:
            return
        if len(core.select_cards) > UINT8_MAX:
            del core.select_cards[UINT8_MAX:]
        prompt = MsgSortCard(player=playerid, cards=tuple(card_info(c) for c in core.select_cards))
        yield from self._wait_answer(prompt)

    # ----- announcements --------------------------------------------------------------------

    def proc_announce_race(self: "Duel", playerid: int, count: int, available: int) -> "Proc":
        scount = bin(available & ((1 << RACES_COUNT) - 1)).count("1")
        if scount <= count:
            count = scount
        prompt = MsgAnnounceRace(player=playerid, count=count & 0xFF, available=available & 0xFFFFFFFF)
        yield from self._wait_answer(prompt)
        self.emit(MsgHint(type=HINT_RACE, player=playerid, data=self.returns.ivalue[0] & 0xFFFFFFFF))

    def proc_announce_attribute(self: "Duel", playerid: int, count: int, available: int) -> "Proc":
        scount = bin(available & 0x7F).count("1")
        if scount <= count:
            count = scount
        prompt = MsgAnnounceAttrib(player=playerid, count=count & 0xFF, available=available & 0xFFFFFFFF)
        yield from self._wait_answer(prompt)
        self.emit(MsgHint(type=HINT_ATTRIB, player=playerid, data=self.returns.ivalue[0] & 0xFFFFFFFF))

    def proc_announce_card(self: "Duel", playerid: int) -> "Proc":
        core = self.core
        prompt = MsgAnnounceCard(player=playerid, options=tuple(o & 0xFFFFFFFF for o in core.select_options))
        yield from self._wait_answer(prompt)
        self.emit(MsgHint(type=HINT_CODE, player=playerid, data=self.returns.ivalue[0] & 0xFFFFFFFF))

    def proc_announce_number(self: "Duel", playerid: int) -> "Proc":
        core = self.core
        if len(core.select_options) > UINT8_MAX:
            del core.select_options[UINT8_MAX:]
        prompt = MsgAnnounceNumber(player=playerid, options=tuple(o & 0xFFFFFFFF for o in core.select_options))
        yield from self._wait_answer(prompt)
        self.emit(MsgHint(type=HINT_NUMBER, player=playerid,
                          data=core.select_options[self.returns.ivalue[0]] & 0xFFFFFFFF))

    def _selected_cards(self: "Duel"):
        """The cards a proc_select_card answer chose (indexes into core.select_cards)."""
        b = self.returns.bvalue
        return CardSet(self.core.select_cards[b[i + 1]] for i in range(b[0]))

    # ----- hints to a player (Duel.Hint, HintSelection) ---------------------------------

    def hint(self: "Duel", htype: int, playerid: int, desc: int) -> None:
        """Duel.Hint: MSG_HINT to ``playerid`` (to the other player for HINT_OPSELECTED).

        A HINT_SELECTMSG is remembered as the player's last selection hint.
        """
        if htype == HINT_OPSELECTED:
            playerid = 1 - playerid
        if htype == HINT_SELECTMSG:
            self.core.last_select_hint[playerid] = _i32(desc)
        self.emit(MsgHint(type=htype & 0xFF, player=playerid & 0xFF, data=desc & 0xFFFFFFFF))

    def hint_selection(self: "Duel", cards: Iterable["Card"]) -> None:
        """Duel.HintSelection: show cards as selected (one MSG_BECOME_TARGET each)."""
        for pcard in cards:
            _become_target(self, pcard)

    def hint_option_selected(self: "Duel", playerid: int) -> int:
        """After an option prompt: tell the opponent which option was chosen (HINT_OPSELECTED
        with the option's string, written for ``playerid`` as the reference does) and return
        the chosen index."""
        idx = self.returns.ivalue[0]
        opts = self.core.select_options
        # with no options the reference reads before the list (undefined); we write no hint
        if 0 <= idx < len(opts):
            self.emit(MsgHint(type=HINT_OPSELECTED, player=playerid & 0xFF, data=opts[idx] & 0xFFFFFFFF))
        return idx

    # ----- the options of the announce prompts (Duel.AnnounceLevel, AnnounceCard) -------

    def set_announce_level_options(self: "Duel", min_: int, max_: int,
                                   excluded: list[int] | None) -> int:
        """Duel.AnnounceLevel: the Levels ``min_``..``max_`` (swapped if reversed) that are
        not ``excluded`` become core.select_options; returns how many.

        ``excluded`` None means the script gave no exclusion arguments.
        """
        if min_ > max_:
            min_, max_ = max_, min_
        opts = self.core.select_options
        opts.clear()
        for i in range(min_, max_ + 1):
            if excluded is not None and i in excluded:
                continue
            opts.append(i & 0xFFFFFFFF)
        return len(opts)

    def check_announce_card_options(self: "Duel") -> bool:
        """Is core.select_options a well-formed Duel.AnnounceCard filter?

        Read as a stack program (values push, binary opcodes pop one,
        unary opcodes keep the depth); it is well-formed when the depth is
        exactly 1 at the first point it drops to 0 or below, or at the end.
        """
        stack_size = 0
        for it in self.core.select_options:
            if it in _BINARY_OPCODES:
                stack_size -= 1
            elif it not in _UNARY_OPCODES:
                stack_size += 1
            if stack_size <= 0:
                break
        return stack_size == 1

