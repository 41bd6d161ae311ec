"""Rules behind Duel.* functions for groups, targets, materials, prompts and player checks (reference: libduel.cpp, second half).

The reference writes some rule logic directly in its Lua library functions
(libduel.cpp, duel_get_field_group ... duel_majestic_copy) or in its processor
dispatcher (PROCESSOR_SELECT_FUSION).  That logic lives here, as Duel methods,
so the bindings stay thin: a binding reads its arguments, calls one of these
(or an existing engine method) and converts the result.

Integer arguments arrive already converted to the C types of the reference
(the bindings mask them); methods here mask again where the reference narrows
a value inside the function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ..constants import (
    ACTIVITY_ATTACK, ACTIVITY_BATTLE_PHASE, ACTIVITY_CHAIN, ACTIVITY_FLIPSUMMON,
    ACTIVITY_NORMALSUMMON, ACTIVITY_SPSUMMON, ACTIVITY_SUMMON, EFFECT_FLAG_CARD_TARGET,
    EFFECT_FLAG_DELAY, EFFECT_FLAG_INITIAL, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS,
    EFFECT_TYPE_QUICK_F, EFFECT_TYPE_QUICK_O, EFFECT_TYPE_TRIGGER_F, EFFECT_TYPE_TRIGGER_O,
    EFFECT_TYPE_XMATERIAL, HINT_OPSELECTED, HINT_SELECTMSG, LOCATION_MZONE, LOCATION_SZONE,
    NEW_MASTER_RULE, OPCODE_ADD, OPCODE_AND, OPCODE_DIV, OPCODE_ISATTRIBUTE, OPCODE_ISCODE,
    OPCODE_ISRACE, OPCODE_ISSETCARD, OPCODE_ISTYPE, OPCODE_MUL, OPCODE_NEG, OPCODE_NOT, OPCODE_OR,
    OPCODE_SUB, PHASE_END, PLAYER_NONE, POS_FACEUP, RESETS_STANDARD, RESET_EVENT, RESET_OPPO_TURN,
    RESET_PHASE, RESET_SELF_TURN,
)
from ..core_constants import EFFECT_TYPES_CHAIN_LINK
from ..event import Event, OpTarget
from ..group import GTYPE_READ_ONLY, CardSet, Group
from ..messages import LocInfo, MsgBecomeTarget, MsgHint
from ..wire import i32 as _i32

if TYPE_CHECKING:
    from ..card import Card, CardData
    from ..duel import Duel
    from ..effect import Effect
    from ..event import Chain
    from ..processor.driver import Proc


def _become_target(duel: "Duel", pcard: "Card") -> None:
    """MSG_BECOME_TARGET for one card (the reference always writes one card per message)."""
    duel.emit(MsgBecomeTarget(cards=(LocInfo.from_raw(pcard.get_info_location() & 0xFFFFFFFF),)))


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


# the announce-card opcodes that take two operands / one operand off the stack
_BINARY_OPCODES = frozenset((OPCODE_ADD, OPCODE_SUB, OPCODE_MUL, OPCODE_DIV, OPCODE_AND, OPCODE_OR))
_UNARY_OPCODES = frozenset((OPCODE_NEG, OPCODE_NOT, OPCODE_ISCODE, OPCODE_ISSETCARD, OPCODE_ISTYPE,
                            OPCODE_ISRACE, OPCODE_ISATTRIBUTE))


class DuelQueriesSupportMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ===== groups ======================================================================

    def get_decktop_group(self: "Duel", playerid: int, count: int) -> CardSet:
        """The top ``count`` cards of ``playerid``'s Deck (Duel.GetDecktopGroup)."""
        pile = self.player[playerid].list_main
        return CardSet(pile[len(pile) - 1 - i] for i in range(min(count, len(pile))))

    def get_extratop_group(self: "Duel", playerid: int, count: int) -> CardSet:
        """The top ``count`` face-down cards of ``playerid``'s Extra Deck (Duel.GetExtraTopGroup).

        The face-up Pendulum Monsters, kept at the top of the pile, are skipped.
        """
        pl = self.player[playerid]
        pile = pl.list_extra
        start = len(pile) - 1 - pl.extra_p_count
        out = CardSet()
        i = start
        while len(out) < count and i >= 0:
            out.add(pile[i])
            i -= 1
        return out

    # ===== targets and operation info ==================================================

    def _target_group_of(self: "Duel", ch: "Chain") -> Group:
        if ch.target_cards is None:
            ch.target_cards = self.new_group()
            ch.target_cards.is_readonly = GTYPE_READ_ONLY
        return ch.target_cards

    def take_selected_targets(self: "Duel") -> Group | None:
        """Make the cards just chosen in core.select_cards the targets of the current chain link.

        (The continuation of Duel.SelectTarget.)  No chain link: None.  For a
        continuous effect's pseudo-link the cards are only added to its target
        group, which is what the script gets.  Otherwise each card, in the
        order chosen, joins the targets, is related to the link and -- when
        the effect targets (EFFECT_FLAG_CARD_TARGET) -- is shown with
        MSG_BECOME_TARGET; the script gets a new group of the chosen cards.
        """
        core = self.core
        ch = self.get_chain(0)
        if ch is None:
            return None
        tg = self._target_group_of(ch)
        peffect = ch.triggering_effect
        b = self.returns.bvalue
        chosen = [core.select_cards[b[i + 1]] for i in range(b[0])]
        if peffect.type & EFFECT_TYPE_CONTINUOUS:
            tg.container.update(chosen)
            return tg
        pgroup = self.new_group()
        for pcard in chosen:
            tg.container.add(pcard)
            pgroup.container.add(pcard)
            pcard.create_relation(ch)
            if peffect.is_flag(EFFECT_FLAG_CARD_TARGET):
                _become_target(self, pcard)
        return pgroup

    def set_target_card(self: "Duel", targets: "Card | Group") -> None:
        """Duel.SetTargetCard: make a card or a group targets of the current chain link.

        For a continuous effect's pseudo-link a card is added, a group
        replaces the targets.  Otherwise the cards are added and related to
        the link, and shown with MSG_BECOME_TARGET (one message per card, in
        card order) when the effect targets.
        """
        ch = self.get_chain(0)
        if ch is None:
            return
        tg = self._target_group_of(ch)
        peffect = ch.triggering_effect
        cards = list(targets.container) if isinstance(targets, Group) else [targets]
        if peffect.type & EFFECT_TYPE_CONTINUOUS:
            if isinstance(targets, Group):
                tg.container = targets.container.copy()
            else:
                tg.container.add(targets)
            return
        for pcard in cards:
            tg.container.add(pcard)
            pcard.create_relation(ch)
        if peffect.is_flag(EFFECT_FLAG_CARD_TARGET):
            for pcard in cards:
                _become_target(self, pcard)

    def clear_target_card(self: "Duel") -> None:
        """Duel.ClearTargetCard: the current chain link has no target cards any more."""
        ch = self.get_chain(0)
        if ch is not None and ch.target_cards is not None:
            ch.target_cards.container.clear()

    def set_operation_info(self: "Duel", chaincount: int, category: int,
                           targets: "Card | Group | None", count: int, playerid: int,
                           param: int) -> None:
        """Duel.SetOperationInfo: record what chain link ``chaincount`` will do in ``category``.

        The cards are copied into a new read-only group.  A previous entry of
        the same category is replaced (its place in the order is kept, as a
        map keeps it).  The count and player are bytes, the parameter an int32.
        """
        ch = self.get_chain(chaincount)
        if ch is None:
            return
        pg: Group | None = None
        if targets is not None:
            pg = self.new_group(targets.container if isinstance(targets, Group) else targets)
            pg.is_readonly = GTYPE_READ_ONLY
        old = ch.opinfos.get(category)
        if old is not None and old.op_cards is not None:
            self.delete_group(old.op_cards)
        ch.opinfos[category] = OpTarget(op_cards=pg, op_count=count & 0xFF,
                                        op_player=playerid & 0xFF, op_param=_i32(param))

    def clear_operation_info(self: "Duel", chaincount: int) -> None:
        """Duel.ClearOperationInfo: forget every operation info of chain link ``chaincount``."""
        ch = self.get_chain(chaincount)
        if ch is None:
            return
        for opt in ch.opinfos.values():
            if opt.op_cards is not None:
                self.delete_group(opt.op_cards)
        ch.opinfos.clear()

    def check_chain_uniqueness(self: "Duel") -> bool:
        """Duel.CheckChainUniqueness: no two links of the current chain come from cards with
        the same code."""
        chain = self.core.current_chain
        if not chain:
            return True
        codes = {ch.triggering_effect.get_handler().get_code() for ch in chain}
        return len(codes) == len(chain)

    # ===== materials ===================================================================

    def get_synchro_material_group(self: "Duel", playerid: int, facedown: bool) -> CardSet:
        """Duel.GetSynchroMaterial: the Synchro material candidates, without face-down
        monsters unless ``facedown``."""
        out = CardSet()
        for pcard in self.get_synchro_material(playerid, CardSet()):
            if pcard.current.location == LOCATION_MZONE and not pcard.is_position(POS_FACEUP) and not facedown:
                continue
            out.add(pcard)
        return out

    def select_synchro_material(self: "Duel", playerid: int, pcard: "Card", filter1: Any,
                                filter2: Any, min_: int, max_: int, smat: "Card | None",
                                mg: Group | None, out: list) -> None:
        """Duel.SelectSynchroMaterial: offer the Tuners that work and queue the selection.

        The Tuners come from ``mg`` (``smat`` is then ignored) or from the
        player's Synchro material candidates; each must allow a Synchro Summon
        of ``pcard`` (check_tuner_material).  The unit appends the chosen
        group (or None when canceled) to ``out``; nothing when no Tuner works.
        """
        core = self.core
        select_cards = CardSet()
        packed = (min_ + (max_ << 16)) & 0xFFFFFFFF
        umin, umax = packed & 0xFFFF, packed >> 16
        if mg is not None:
            for pm in mg.container:
                if self.check_tuner_material(pcard, pm, filter1, filter2, min_, max_, None, mg):
                    select_cards.add(pm)
            core.select_cards = list(select_cards)
            self.add_process(self.proc_select_synchro_material(playerid & 0xFF, pcard, umin, umax, None, mg,
                                                               filter1, filter2, out))
        else:
            for tuner in self.get_synchro_material(playerid, CardSet()):
                if self.check_tuner_material(pcard, tuner, filter1, filter2, min_, max_, smat, None):
                    select_cards.add(tuner)
            core.select_cards = list(select_cards)
            self.add_process(self.proc_select_synchro_material(playerid & 0xFF, pcard, umin, umax, smat, None,
                                                               filter1, filter2, out))

    def select_tuner_material(self: "Duel", playerid: int, pcard: "Card", tuner: "Card",
                              filter1: Any, filter2: Any, min_: int, max_: int,
                              mg: Group | None, out: list) -> bool:
        """Duel.SelectTunerMaterial: with ``tuner`` fixed, queue the choice of the other materials.

        False (nothing queued) when ``tuner`` cannot be used for ``pcard``.
        """
        if not self.check_tuner_material(pcard, tuner, filter1, filter2, min_, max_, None, mg):
            return False
        packed = (min_ + (max_ << 16)) & 0xFFFFFFFF
        self.add_process(self.proc_select_tuner_material(playerid & 0xFF, pcard, tuner, packed & 0xFFFF,
                                                         packed >> 16, mg, filter1, filter2, out))
        return True

    def select_xyz_material(self: "Duel", playerid: int, scard: "Card", filter_fn: Any, lv: int,
                            minc: int, maxc: int, mg: Group | None, out: list) -> bool:
        """Duel.SelectXyzMaterial: list the Xyz material candidates and queue the selection.

        False (nothing queued) when ``scard`` cannot be Xyz Summoned with
        them (check_xyz_material).  The player and the Rank travel packed in
        one word as in the reference (player: its low byte).
        """
        if not self.check_xyz_material(scard, filter_fn, _i32(lv), _i32(minc), _i32(maxc), mg):
            return False
        self.get_xyz_material(scard, filter_fn, lv & 0xFFFFFFFF, _i32(maxc), mg)
        arg1 = (playerid + (lv << 16)) & 0xFFFFFFFF
        self.add_process(self.proc_select_xyz_material(arg1 & 0xFF, arg1 >> 16, scard, minc, maxc, out))
        return True

    def proc_select_fusion(self: "Duel", peffect: "Effect | None", matgroup: Group | None,
                           arg1: int, not_material: int | bool, cg: "Card | None") -> "Proc":
        """Choose Fusion Materials by running the Fusion Monster's EFFECT_FUSION_MATERIAL
        operation (PROCESSOR_SELECT_FUSION).

        ``arg1`` is ``playerid + (chkf << 16)``.  core.fusion_materials is
        emptied first; without such an effect nothing else happens.  The
        operation sees an event whose cards are the offered materials, reason
        effect the material effect and reason player the player, and gets
        (cg, chkf) after the usual arguments; it leaves its choice in
        core.fusion_materials (Duel.SetFusionMaterial).  core.not_material is
        set while it runs.
        """
        core = self.core
        arg1 &= 0xFFFFFFFF
        e = Event(event_cards=matgroup, reason_effect=peffect, reason_player=arg1 & 0xFF)
        core.fusion_materials.clear()
        if peffect is None:
            return
        core.not_material = bool(not_material)
        core.sub_solving_event.append(e)
        self.add_process(self.proc_execute_operation(peffect, arg1 & 0xFF, cg, arg1 >> 16))
        yield
        core.not_material = False

    def get_selected_fusion_materials(self: "Duel", cg: "Card | None") -> Group:
        """What Duel.SelectFusionMaterial hands back: core.fusion_materials, plus ``cg``."""
        pgroup = self.new_group(self.core.fusion_materials)
        if cg is not None:
            pgroup.container.add(cg)
        return pgroup

    # ===== zones =======================================================================

    def get_disable_field_flag(self: "Duel", playerid: int, count: int, location1: int,
                               location2: int, filter_: int) -> tuple[int, int]:
        """Duel.SelectDisableField: the unselectable-zone flag and how many zones to choose.

        Only free, usable zones are offered: the Main Monster / Spell & Trap
        Zones of ``location1`` on ``playerid``'s side and ``location2`` on the
        other (Extra Monster Zones when both sides' Monster Zones are asked,
        Master Rule 4 on), minus ``filter_``.  ``count`` is capped by the
        number of such zones (unsigned arithmetic as in the reference).
        """
        ct = [0, 0, 0, 0]
        flag = 0xFFFFFFFF
        plist = [0]
        if location1 & LOCATION_MZONE:
            ct[0] = self.get_useable_count(None, playerid, LOCATION_MZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFFFFFF00) | (plist[0] & 0xFFFFFFFF)
        if location1 & LOCATION_SZONE:
            ct[1] = self.get_useable_count(None, playerid, LOCATION_SZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFFFF00FF) | ((plist[0] << 8) & 0xFFFFFFFF)
        if location2 & LOCATION_MZONE:
            ct[2] = self.get_useable_count(None, 1 - playerid, LOCATION_MZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFF00FFFF) | ((plist[0] << 16) & 0xFFFFFFFF)
        if location2 & LOCATION_SZONE:
            ct[3] = self.get_useable_count(None, 1 - playerid, LOCATION_SZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFFFFFF) | ((plist[0] << 24) & 0xFFFFFFFF)
        if ((location1 & LOCATION_MZONE) and (location2 & LOCATION_MZONE)
                and self.core.duel_rule >= NEW_MASTER_RULE):
            if self.is_location_useable(playerid, LOCATION_MZONE, 5):
                flag &= ~(0x1 << 5)
                ct[0] += 1
            if self.is_location_useable(playerid, LOCATION_MZONE, 6):
                flag &= ~(0x1 << 6)
                ct[0] += 1
        flag = (flag | filter_ | 0xE080E080) & 0xFFFFFFFF
        total = sum(c & 0xFFFFFFFF for c in ct) & 0xFFFFFFFF
        count &= 0xFFFFFFFF
        if count > total:
            count = total
        return flag, count

    def get_select_field_flag(self: "Duel", location1: int, location2: int, filter_: int) -> int:
        """Duel.SelectField: the unselectable-zone flag (free or not, every zone of the locations).

        Main Monster Zones and Spell & Trap Zones (with the Pendulum Zones
        under Master Rule 3) of ``location1`` on the chooser's side and
        ``location2`` on the other; the Extra Monster Zones when both sides'
        Monster Zones are asked (Master Rule 4 on); minus ``filter_``.
        """
        rule3 = self.core.duel_rule == 3
        flag = 0xFFFFFFFF
        if location1 & LOCATION_MZONE:
            flag &= 0xFFFFFF80
        if location1 & LOCATION_SZONE:
            flag &= 0xFFFF00FF if rule3 else 0xFFFFC0FF
        if location2 & LOCATION_MZONE:
            flag &= 0xFF80FFFF
        if location2 & LOCATION_SZONE:
            flag &= 0x00FFFFFF if rule3 else 0xC0FFFFFF
        if ((location1 & LOCATION_MZONE) and (location2 & LOCATION_MZONE)
                and self.core.duel_rule >= NEW_MASTER_RULE):
            flag &= 0xFFFFFF9F
        return (flag | filter_ | 0x00800080) & 0xFFFFFFFF

    def get_selected_field_flag(self: "Duel", playerid: int, count: int) -> int:
        """The zones a place selection chose, as a zone flag from ``playerid``'s view.

        Reads ``count`` (player, location, sequence) answers from returns
        (the byte index wraps like the reference's uint8_t); an Extra Monster
        Zone also marks the facing zone on the other side.  Returned as the
        reference's int32.
        """
        b = self.returns.bvalue
        dfflag = 0
        pa = 0
        # the answer bytes repeat after 256 triples, so more passes add nothing
        for _ in range(min(count & 0xFFFFFFFF, 256)):
            p, l, s = b[pa], b[(pa + 1) & 0xFF], b[(pa + 2) & 0xFF]
            shift = s + (0 if p == playerid else 16) + (0 if l == LOCATION_MZONE else 8)
            dfflag |= 0x1 << (shift & 31)
            pa = (pa + 3) & 0xFF
        if dfflag & (0x1 << 5):
            dfflag |= 0x1 << (16 + 6)
        if dfflag & (0x1 << 6):
            dfflag |= 0x1 << (16 + 5)
        return _i32(dfflag)

    # ===== hints and announcements =====================================================

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

    # ===== player checks ===============================================================

    def prospective_card_data(self: "Duel", code: int) -> "CardData":
        """The data of card ``code`` from the database (blank when unknown) with that code,
        to be adjusted for Duel.IsPlayerCanSpecialSummonMonster."""
        from ..card import CardData
        data = self.card_reader(code) if code else None
        data = data.copy() if data is not None else CardData()
        data.code = code
        return data

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

    # ===== misc ========================================================================

    def majestic_copy(self: "Duel", pcard: "Card", copy_target: "Card") -> None:
        """Duel.MajesticCopy: ``pcard`` gains the monster effects of ``copy_target`` that start
        chain links, until the End Phase.

        Each of the target's initial effects that is a trigger, quick or
        ignition effect (not a card activation, not an Xyz-material effect) and
        applies from the Monster Zone is cloned: owned by ``pcard``, no longer
        initial, no effect owner, reset at the End Phase (or when ``pcard``
        leaves), its count limit refilled.  Mandatory triggers become optional
        (and "when ... you can"), mandatory quick effects optional.
        """
        for peffect in list(copy_target.initial_effect):
            if not (peffect.type & (EFFECT_TYPES_CHAIN_LINK & ~EFFECT_TYPE_ACTIVATE)):
                continue
            if peffect.type & EFFECT_TYPE_XMATERIAL:
                continue
            if not peffect.is_monster_effect():
                continue
            ceffect = peffect.clone()
            ceffect.owner = pcard
            ceffect.flag[0] &= ~EFFECT_FLAG_INITIAL
            ceffect.effect_owner = PLAYER_NONE
            ceffect.reset_flag = (RESET_EVENT | RESETS_STANDARD | RESET_PHASE | PHASE_END
                                  | RESET_SELF_TURN | RESET_OPPO_TURN)
            ceffect.reset_count = 1
            ceffect.recharge()
            if ceffect.type & EFFECT_TYPE_TRIGGER_F:
                ceffect.type &= ~EFFECT_TYPE_TRIGGER_F
                ceffect.type |= EFFECT_TYPE_TRIGGER_O
                ceffect.flag[0] |= EFFECT_FLAG_DELAY
            if ceffect.type & EFFECT_TYPE_QUICK_F:
                ceffect.type &= ~EFFECT_TYPE_QUICK_F
                ceffect.type |= EFFECT_TYPE_QUICK_O
            pcard.add_effect(ceffect)
