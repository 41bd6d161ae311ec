"""Summon operations (engine/operations/summon.py and special_summon.py).

Each test builds a small duel with new_card_at, queues one operation with its
adder (or its unit), and drives the processor like a host: every prompt is
answered (by a test-specific answer, else a default one), and the messages
and the resulting state are checked.  Script functions, where needed, are
Python callables run by a tiny script host.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F403
from duelhost.engine.core_constants import *  # noqa: F403
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect
from duelhost.engine.group import CardSet, Group
from duelhost.engine.messages import (Message, MsgConfirmCards, MsgFlipSummoning, MsgHint,
                                      MsgSelectCard, MsgSelectChain, MsgSelectPlace, MsgSelectTribute,
                                      MsgSet, MsgShuffleSetCard, MsgSpSummoning, MsgSummoning)
from duelhost.engine.operations.summon import _extra_count_values, _pack_min_max
from duelhost.engine.processor.driver import Suspend
from duelhost.engine.wire import pack_i32

from fake_script_host import FakeScript

NORMAL = TYPE_MONSTER | TYPE_NORMAL
DB: dict[int, CardData] = {
    100: CardData(code=100, type=NORMAL, level=4, attack=1500, defense=1000),
    101: CardData(code=101, type=NORMAL, level=3, attack=1200, defense=800),
    105: CardData(code=105, type=NORMAL, level=5, attack=2100, defense=1000),
    107: CardData(code=107, type=NORMAL, level=7, attack=2500, defense=2000),
    110: CardData(code=110, type=TYPE_MONSTER | TYPE_EFFECT, level=7, attack=2500, defense=1000),
    201: CardData(code=201, type=TYPE_MONSTER | TYPE_XYZ, level=4, attack=2500, defense=2000),
    500: CardData(code=500, type=TYPE_SPELL),
    501: CardData(code=501, type=TYPE_SPELL),
}


Answer = Callable[[Message], "bytes | None"]


def default_answer(p: Message) -> bytes:
    """A host that takes the first legal choice and never chains."""
    name = p.NAME
    if name == "SELECT_PLACE":
        for side in (0, 16):                # own zones, then the opponent's
            for shift in (0, 8):
                for s in range(8):
                    if not p.flag & (1 << (s + shift + side)):
                        player = p.player if side == 0 else 1 - p.player
                        return bytes([player, LOCATION_MZONE if shift == 0 else LOCATION_SZONE, s])
        raise AssertionError(f"no free place in {p}")
    if name == "SELECT_POSITION":
        return pack_i32(p.positions & -p.positions)
    if name in ("SELECT_TRIBUTE", "SELECT_CARD", "SELECT_SUM"):
        return bytes([p.min] + list(range(p.min)))
    if name in ("SELECT_YESNO", "SELECT_OPTION"):
        return pack_i32(0)
    return pack_i32(-1)     # SELECT_CHAIN: no chain


class Table:
    """A duel set up by hand, driven like a host."""

    def __init__(self, script: Any = None) -> None:
        self.duel = Duel(DB.get, seed=1, script=script)
        self.duel.core.duel_rule = 5
        self.duel.infos.phase = PHASE_MAIN1
        self.duel.infos.turn_player = 0

    def card(self, code: int, location: int, seq: int = 0, pos: int = POS_FACEDOWN,
             player: int = 0) -> Card:
        pcard = self.duel.new_card_at(code, player, player, location, seq, pos)
        assert pcard is not None
        return pcard

    def run(self, answer: Answer | None = None) -> tuple[list[Message], list[Message]]:
        """Run the queued units until none is left; returns (messages, prompts)."""
        d = self.duel
        d.finished = False
        d._runner = None
        start = len(d.messages)
        prompts: list[Message] = []
        p = d.step()
        while p is not None:
            prompts.append(p)
            assert len(prompts) < 200, f"prompt loop: {p}"
            raw = answer(p) if answer is not None else None
            p = d.step(raw if raw is not None else default_answer(p))
        return d.messages[start:], prompts


def by_effect(table: "Table") -> Effect:
    """Make the next operations happen "by a card effect" (core.reason_effect), as in a chain link."""
    d = table.duel
    e = d.new_effect()
    e.type = EFFECT_TYPE_SINGLE
    e.code = 0
    e.owner = e.handler = table.card(500, LOCATION_GRAVE, 0, POS_FACEUP)
    d.core.reason_effect = e
    d.core.reason_player = 0
    return e


def kinds(messages: list[Message], *, chains: bool = False) -> list[str]:
    return [m.NAME for m in messages if chains or not isinstance(m, MsgSelectChain)]


def procedure(owner: Card, value: int = 1, **fields: Any) -> Effect:
    """An EFFECT_SPSUMMON_PROC usable from the hand, registered on ``owner``."""
    d = owner.duel
    e = d.new_effect()
    e.type = EFFECT_TYPE_FIELD
    e.code = EFFECT_SPSUMMON_PROC
    e.range = LOCATION_HAND
    e.flag[0] = EFFECT_FLAG_UNCOPYABLE | EFFECT_FLAG_CANNOT_DISABLE
    e.description = 1234
    e.value = value
    e.owner = owner
    for k, v in fields.items():
        if k == "flag":
            e.flag[0] |= v
        else:
            setattr(e, k, v)
    owner.add_effect(e)
    return e


# ===== small helpers ===================================================================

def test_pack_min_max_reads_bytes_like_the_reference():
    assert _pack_min_max(1, 2) == (1, 2)
    assert _pack_min_max(300, 2) == (300 & 0xFF, 2)      # one byte of each half
    assert _pack_min_max(0x10001, 2) == (1, 3)           # a huge minimum carries into the maximum
    assert _pack_min_max(-1, 2) == (0xFF, 1)             # a negative minimum borrows


def test_extra_count_values_defaults_and_relative_releasable():
    assert _extra_count_values([]) == (0, 0x1F, 0xFF00FF)
    assert _extra_count_values([1, 0x3]) == (1, 0x3, 0xFF00FF)
    assert _extra_count_values([0, 0x1F, -0xFF]) == (0, 0x1F, 0xFF0000)
    assert _extra_count_values([0, 0x1F, 0x1]) == (0, 0x1F, 0x1)


# ===== Normal Summon ===================================================================

def test_normal_summon_from_hand():
    t = Table()
    c = t.card(100, LOCATION_HAND)
    t.duel.summon(0, c, None, 0, 0)
    msgs, _ = t.run()
    assert kinds(msgs) == ["HINT", "SELECT_PLACE", "MOVE", "SUMMONING", "SUMMONED"]
    summoning = next(m for m in msgs if isinstance(m, MsgSummoning))
    assert summoning.code == 100
    assert (summoning.loc.location, summoning.loc.position) == (LOCATION_MZONE, POS_FACEUP_ATTACK)
    core = t.duel.core
    assert c.current.location == LOCATION_MZONE and c.current.position == POS_FACEUP_ATTACK
    assert c.summon_info == SUMMON_TYPE_NORMAL | (LOCATION_HAND << 16)
    assert c.summon_player == 0 and c.current.reason == REASON_SUMMON
    assert core.summon_count == [1, 0]
    assert core.summon_state_count == [1, 0] and core.normalsummon_state_count == [1, 0]
    assert c.is_status(STATUS_SUMMON_TURN | STATUS_CANNOT_CHANGE_FORM)
    assert not c.get_status(STATUS_SUMMONING | STATUS_FLIP_SUMMONING)
    assert core.summon_depth == 0


def test_normal_summon_windows_order():
    """EVENT_SUMMON window (both players) before MSG_SUMMONED; the TIMING_SUMMON window after."""
    t = Table()
    c = t.card(100, LOCATION_HAND)
    t.duel.summon(0, c, None, 0, 0)
    msgs, _ = t.run()
    names = kinds(msgs, chains=True)
    i = names.index("SUMMONING")
    assert names[i + 1:i + 4] == ["SELECT_CHAIN", "SELECT_CHAIN", "SUMMONED"]
    last = [m for m in msgs if isinstance(m, MsgSelectChain)][-2:]
    assert [m.hint_timing for m in last] == [TIMING_SUMMON, 0]


def test_summon_refused_when_count_used():
    t = Table()
    c = t.card(100, LOCATION_HAND)
    t.duel.core.summon_count[0] = 1
    t.duel.summon(0, c, None, 0, 0)
    msgs, prompts = t.run()
    assert msgs == [] and prompts == []
    assert c.current.location == LOCATION_HAND


def test_summon_ignoring_count_does_not_use_it():
    t = Table()
    c = t.card(100, LOCATION_HAND)
    t.duel.core.summon_count[0] = 1
    t.duel.summon(0, c, None, 1, 0)
    msgs, _ = t.run()
    assert "SUMMONED" in kinds(msgs)
    assert t.duel.core.summon_count == [1, 0]


def test_tribute_summon_releases_the_chosen_monster():
    t = Table()
    a = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    b = t.card(101, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    c = t.card(105, LOCATION_HAND)

    def answer(p: Message) -> bytes | None:
        if isinstance(p, MsgSelectTribute):
            assert (p.min, p.max) == (1, 1)
            assert [tc.code for tc in p.cards] == [100, 101]
            return bytes([1, 1])            # the second: card 101
        return None

    t.duel.summon(0, c, None, 0, 0)
    msgs, _ = t.run(answer)
    names = kinds(msgs)
    assert names[:3] == ["HINT", "SELECT_TRIBUTE", "MOVE"]
    hint = msgs[0]
    assert isinstance(hint, MsgHint) and (hint.type, hint.data) == (HINT_SELECTMSG, HINTMSG_RELEASE)
    assert names.index("MOVE") < names.index("SUMMONING")
    assert b.current.location == LOCATION_GRAVE and a.current.location == LOCATION_MZONE
    assert b.current.reason & (REASON_SUMMON | REASON_MATERIAL) == REASON_SUMMON | REASON_MATERIAL
    assert b.current.reason_card is c
    assert list(c.material_cards) == [b]
    assert c.summon_info == SUMMON_TYPE_ADVANCE | (LOCATION_HAND << 16)
    assert c.current.location == LOCATION_MZONE


def test_tribute_summon_of_level_7_takes_two():
    t = Table()
    t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    t.card(101, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    c = t.card(107, LOCATION_HAND)
    seen: list[tuple[int, int]] = []

    def answer(p: Message) -> bytes | None:
        if isinstance(p, MsgSelectTribute):
            seen.append((p.min, p.max))
        return None

    t.duel.summon(0, c, None, 0, 0)
    t.run(answer)
    assert seen == [(2, 2)]
    assert len(c.material_cards) == 2
    assert all(m.current.location == LOCATION_GRAVE for m in c.material_cards)


def test_tribute_for_a_zone_asks_for_the_monster_in_it_first():
    """With only zone 0 allowed and taken, the tribute must be the monster there (SELECT_CARD)."""
    t = Table()
    a = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    t.card(101, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    c = t.card(105, LOCATION_HAND)
    offered: list[list[int]] = []

    def answer(p: Message) -> bytes | None:
        if isinstance(p, MsgSelectCard):
            offered.append([sc.code for sc in p.cards])
        assert not isinstance(p, MsgSelectTribute)
        return None

    t.duel.summon(0, c, None, 0, 0, 0x1)
    t.run(answer)
    assert offered == [[100]]
    assert a.current.location == LOCATION_GRAVE
    assert (c.current.location, c.current.sequence) == (LOCATION_MZONE, 0)


def test_canceled_tribute_leaves_everything_as_it_was():
    t = Table()
    a = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    c = t.card(105, LOCATION_HAND)
    t.duel.core.summon_cancelable = True

    def answer(p: Message) -> bytes | None:
        if isinstance(p, MsgSelectTribute):
            assert p.cancelable
            return pack_i32(-1)
        return None

    t.duel.summon(0, c, None, 0, 0)
    msgs, _ = t.run(answer)
    assert kinds(msgs) == ["HINT", "SELECT_TRIBUTE"]
    assert c.current.location == LOCATION_HAND and a.current.location == LOCATION_MZONE
    assert t.duel.core.summon_depth == 0 and t.duel.core.summon_count == [0, 0]


def test_summon_during_a_chain_waits_until_requeued():
    t = Table()
    c = t.card(100, LOCATION_HAND)
    d = t.duel
    d.summon(0, c, None, 0, 0, 0x1F, SUMMON_IN_CHAIN)
    msgs, prompts = t.run()
    assert msgs == [] and prompts == []
    assert d.core.summoning_card is c
    assert d.core.summon_reserved is not None
    d.add_process(d.core.summon_reserved)
    msgs, _ = t.run()
    names = kinds(msgs, chains=True)
    assert names[-1] == "SUMMONED"          # no action window after it: the chain goes on
    assert c.current.location == LOCATION_MZONE


def test_reserve_summon_is_a_suspend_storing_the_unit():
    t = Table()
    c = t.card(100, LOCATION_HAND)
    s = t.duel._reserve_summon(c)
    assert isinstance(s, Suspend)
    sentinel = object()
    s.store(sentinel)  # type: ignore[arg-type]
    assert t.duel.core.summon_reserved is sentinel and t.duel.core.summoning_card is c


# ===== Set, Flip Summon ================================================================

def test_mset_sets_face_down_and_counts_as_normal_summon():
    t = Table()
    c = t.card(100, LOCATION_HAND)
    t.duel.mset(0, c, None, 0, 0)
    msgs, _ = t.run()
    assert kinds(msgs) == ["HINT", "SELECT_PLACE", "MOVE", "SET"]
    mset = next(m for m in msgs if isinstance(m, MsgSet))
    assert mset.loc.position == POS_FACEDOWN_DEFENSE
    core = t.duel.core
    assert c.current.position == POS_FACEDOWN_DEFENSE
    assert core.summon_count == [1, 0]
    assert core.normalsummon_state_count == [1, 0] and core.summon_state_count == [0, 0]
    assert c.is_status(STATUS_SUMMON_TURN)


def test_mset_with_tribute():
    t = Table()
    a = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    c = t.card(105, LOCATION_HAND)
    t.duel.mset(0, c, None, 0, 0)
    msgs, _ = t.run()
    assert "SELECT_TRIBUTE" in kinds(msgs)
    assert a.current.location == LOCATION_GRAVE
    assert c.current.position == POS_FACEDOWN_DEFENSE
    assert c.summon_info == SUMMON_TYPE_ADVANCE | (LOCATION_HAND << 16)


def test_flip_summon():
    t = Table()
    c = t.card(100, LOCATION_MZONE, 2, POS_FACEDOWN_DEFENSE)
    field_id = t.duel.infos.field_id
    t.duel.add_process(t.duel.proc_flip_summon(0, c, SUMMON_IN_IDLE))
    msgs, _ = t.run()
    names = kinds(msgs, chains=True)
    assert names[0] == "FLIPSUMMONING"
    assert names[-3:] == ["FLIPSUMMONED", "SELECT_CHAIN", "SELECT_CHAIN"]
    fs = msgs[0]
    assert isinstance(fs, MsgFlipSummoning)
    assert (fs.code, fs.loc.sequence, fs.loc.position) == (100, 2, POS_FACEUP_ATTACK)
    assert c.current.position == POS_FACEUP_ATTACK
    assert c.previous.position == POS_FACEDOWN_DEFENSE
    assert c.summon_info & SUMMON_TYPE_FLIP
    assert c.fieldid == field_id and t.duel.infos.field_id == field_id + 1
    assert t.duel.core.flipsummon_state_count == [1, 0]
    assert c.is_status(STATUS_FLIP_SUMMON_TURN | STATUS_CANNOT_CHANGE_FORM)
    assert not c.is_status(STATUS_FLIP_SUMMONING)


def test_flip_summon_of_a_face_up_monster_does_nothing():
    t = Table()
    c = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    t.duel.add_process(t.duel.proc_flip_summon(0, c, SUMMON_IN_IDLE))
    msgs, prompts = t.run()
    assert msgs == [] and prompts == []


# ===== Spell/Trap Set ==================================================================

def test_sset_puts_the_card_where_chosen():
    t = Table()
    c = t.card(500, LOCATION_HAND)

    def answer(p: Message) -> bytes | None:
        if isinstance(p, MsgSelectPlace):
            assert p.flag & 0xFF00 == 0xE000        # own zones 0-4 free, 5-7 never
            return bytes([0, LOCATION_SZONE, 2])
        return None

    t.duel.add_process(t.duel.proc_sset(0, 0, c, None))
    msgs, _ = t.run(answer)
    assert kinds(msgs) == ["HINT", "SELECT_PLACE", "MOVE", "SET"]
    assert msgs[0] == MsgHint(type=HINT_SELECTMSG, player=0, data=500)
    assert (c.current.location, c.current.sequence, c.current.position) == (LOCATION_SZONE, 2, POS_FACEDOWN)
    assert c.is_status(STATUS_SET_TURN)


def test_sset_g_shuffles_the_cards_into_the_chosen_zones():
    t = Table()
    a = t.card(500, LOCATION_HAND)
    b = t.card(501, LOCATION_HAND)
    zones = iter([3, 1])

    def answer(p: Message) -> bytes | None:
        if isinstance(p, MsgSelectPlace):
            return bytes([0, LOCATION_SZONE, next(zones)])
        return None

    t.duel.add_process(t.duel.proc_sset_g(0, 0, t.duel.new_group([a, b]), 1, None))
    msgs, _ = t.run(answer)
    assert kinds(msgs) == ["HINT", "SELECT_PLACE", "HINT", "SELECT_PLACE", "MOVE", "SET", "MOVE",
                           "SET", "CONFIRM_CARDS", "SHUFFLE_SET_CARD"]
    # placed in the lowest chosen zones first, then each card takes its chosen zone
    sets = [m for m in msgs if isinstance(m, MsgSet)]
    assert [(m.code, m.loc.sequence) for m in sets] == [(500, 1), (501, 3)]
    confirm = next(m for m in msgs if isinstance(m, MsgConfirmCards))
    assert confirm.player == 0 and [ci.code for ci in confirm.cards] == [500, 501]
    shuffle = next(m for m in msgs if isinstance(m, MsgShuffleSetCard))
    assert shuffle.location == LOCATION_SZONE
    assert [loc.sequence for loc in shuffle.previous] == [1, 3]
    assert shuffle.current == (None, None)
    assert (a.current.sequence, b.current.sequence) == (3, 1)
    szone = t.duel.player[0].list_szone
    assert szone[3] is a and szone[1] is b
    assert t.duel.returns.ivalue[0] == 2
    assert list(t.duel.core.operated_set) == [a, b]


def test_sset_g_skips_monsters_and_reports_zero():
    t = Table()
    m = t.card(100, LOCATION_HAND)
    t.duel.add_process(t.duel.proc_sset_g(0, 0, t.duel.new_group([m]), 1, None))
    msgs, prompts = t.run()
    assert msgs == [] and prompts == []
    assert t.duel.returns.ivalue[0] == 0


# ===== Special Summon by effect ========================================================

def test_special_summon_by_effect():
    t = Table()
    by_effect(t)
    c = t.card(100, LOCATION_HAND)
    t.duel.special_summon(c, 0, 0, 0, 0, 0, POS_FACEUP_DEFENSE)
    msgs, _ = t.run()
    assert kinds(msgs) == ["HINT", "SELECT_PLACE", "MOVE", "SPSUMMONING", "SPSUMMONED"]
    sp = next(m for m in msgs if isinstance(m, MsgSpSummoning))
    assert sp.loc.position == POS_FACEUP_DEFENSE
    assert c.current.location == LOCATION_MZONE and c.current.position == POS_FACEUP_DEFENSE
    assert c.summon_info == SUMMON_TYPE_SPECIAL | (LOCATION_HAND << 16)
    assert c.is_status(STATUS_SPSUMMON_TURN | STATUS_CANNOT_CHANGE_FORM)
    assert not c.is_status(STATUS_SPSUMMON_STEP)
    assert t.duel.returns.ivalue[0] == 1
    assert list(t.duel.core.operated_set) == [c]


def test_special_summon_without_a_zone_sends_to_the_graveyard():
    t = Table()
    by_effect(t)
    for seq in range(5):
        t.card(101, LOCATION_MZONE, seq, POS_FACEUP_ATTACK)
    c = t.card(100, LOCATION_HAND)
    g = t.card(100, LOCATION_GRAVE, 0, POS_FACEUP)
    t.duel.special_summon(t.duel.new_group([c, g]), 0, 0, 0, 0, 0, POS_FACEUP)
    msgs, _ = t.run()
    assert kinds(msgs) == ["MOVE"]                  # only the hand card moves: to the GY
    assert c.current.location == LOCATION_GRAVE and g.current.location == LOCATION_GRAVE
    assert c.current.reason & REASON_RULE
    assert t.duel.returns.ivalue[0] == 0 and not t.duel.core.unable_tofield_set


def test_failed_special_summon_gets_its_reason_back():
    t = Table()
    by_effect(t)
    c = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    c.current.reason = REASON_SUMMON
    t.duel.special_summon(c, 0, 0, 0, 0, 0, POS_FACEUP)
    t.run()
    assert c.current.reason == REASON_SUMMON
    assert t.duel.returns.ivalue[0] == 0


def test_special_summon_step_then_complete():
    t = Table()
    reason = by_effect(t)
    a = t.card(100, LOCATION_HAND)
    b = t.card(101, LOCATION_HAND)
    d = t.duel
    d.special_summon_step(a, 0, 0, 0, 0, 0, POS_FACEUP_ATTACK)
    msgs, _ = t.run()
    assert kinds(msgs)[-1] == "SPSUMMONING"
    assert d.returns.ivalue[0] == 1
    assert a.is_status(STATUS_SPSUMMON_STEP) and list(d.core.special_summoning) == [a]
    d.special_summon_step(b, 0, 0, 0, 0, 0, POS_FACEUP_ATTACK)
    t.run()
    d.special_summon_complete(reason, 0)
    msgs, _ = t.run()
    assert kinds(msgs) == ["SPSUMMONED"]
    assert not d.core.special_summoning
    assert d.returns.ivalue[0] == 2
    assert not a.is_status(STATUS_SPSUMMON_STEP) and b.is_status(STATUS_SPSUMMON_TURN)


def test_special_summon_moves_cards_in_operation_order():
    """Cards are moved in card_operation_sort order (hand position), not creation order."""
    t = Table()
    by_effect(t)
    a = t.card(100, LOCATION_HAND)
    b = t.card(101, LOCATION_HAND)
    hand = t.duel.player[0].list_hand
    hand.reverse()
    for i, pcard in enumerate(hand):
        pcard.current.sequence = i
    t.duel.special_summon(t.duel.new_group([a, b]), 0, 0, 0, 0, 0, POS_FACEUP_ATTACK)
    msgs, _ = t.run()
    assert [m.code for m in msgs if isinstance(m, MsgSpSummoning)] == [101, 100]
    assert t.duel.returns.ivalue[0] == 2


# ===== Special Summon by procedure =====================================================

def test_special_summon_rule_by_procedure():
    t = Table()
    c = t.card(110, LOCATION_HAND)
    proc = procedure(c)
    t.duel.special_summon_rule(0, c, 0)
    msgs, _ = t.run()
    assert kinds(msgs) == ["HINT", "SELECT_PLACE", "SELECT_POSITION", "MOVE", "SPSUMMONING",
                           "SPSUMMONED"]
    assert c.current.location == LOCATION_MZONE
    assert c.summon_info == SUMMON_TYPE_SPECIAL | (LOCATION_HAND << 16) | 1
    assert c.current.reason == REASON_SPSUMMON and c.current.reason_effect is proc
    assert c.is_status(STATUS_PROC_COMPLETE | STATUS_SPSUMMON_TURN | STATUS_CANNOT_CHANGE_FORM)
    assert not c.is_status(STATUS_SUMMONING)
    assert t.duel.core.spsummon_state_count[0] == 1


def test_special_summon_rule_with_position_and_side_parameters():
    t = Table()
    c = t.card(110, LOCATION_HAND)
    procedure(c, flag=EFFECT_FLAG_SPSUM_PARAM, s_range=POS_FACEUP_DEFENSE, o_range=1)
    t.duel.special_summon_rule(0, c, 0)
    msgs, _ = t.run()
    assert "SELECT_POSITION" not in kinds(msgs)
    assert c.current.controler == 1 and c.current.position == POS_FACEUP_DEFENSE
    assert c.summon_player == 0


def test_special_summon_rule_runs_target_and_operation_with_the_card():
    calls: list[tuple[str, tuple]] = []
    t = Table(FakeScript())
    c = t.card(110, LOCATION_HAND)
    mat = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)

    def target(*args: Any) -> bool:
        calls.append(("target", args))
        return True

    def operation(*args: Any) -> None:
        calls.append(("operation", args))
        e, tp, c_ = args[0], args[1], args[8]
        c_.set_material([mat])
        t.duel.send_to(mat, e, REASON_MATERIAL, tp, PLAYER_NONE, LOCATION_GRAVE, 0, POS_FACEUP)

    proc = procedure(c, target=target, operation=operation)
    t.duel.special_summon_rule(0, c, 0)
    msgs, _ = t.run()
    assert [name for name, _ in calls] == ["target", "operation"]
    # (e, tp, eg, ep, ev, re, r, rp, chk, c) and (e, tp, eg, ep, ev, re, r, rp, c)
    assert calls[0][1][0] is proc and calls[0][1][8] == 1 and calls[0][1][9] is c
    assert calls[1][1][0] is proc and calls[1][1][8] is c and len(calls[1][1]) == 9
    names = kinds(msgs)
    assert names.index("MOVE") < names.index("SPSUMMONING")   # the material leaves first
    assert mat.current.location == LOCATION_GRAVE
    assert list(c.material_cards) == [mat]


def test_special_summon_rule_refused_by_target_clears_limits():
    t = Table(FakeScript())
    c = t.card(110, LOCATION_HAND)
    procedure(c, target=lambda *args: False)
    d = t.duel
    d.core.limit_tuner = c
    d.special_summon_rule(0, c, 0)
    msgs, _ = t.run()
    assert msgs == []
    assert c.current.location == LOCATION_HAND and d.core.limit_tuner is None


def test_special_summon_rule_without_procedure_does_nothing():
    t = Table()
    c = t.card(110, LOCATION_HAND)
    t.duel.special_summon_rule(0, c, 0)
    msgs, prompts = t.run()
    assert msgs == [] and prompts == []


def test_group_procedure_summons_the_group():
    """An EFFECT_SPSUMMON_PROC_G (Pendulum-like): its operation fills the group."""
    t = Table(FakeScript())
    c = t.card(110, LOCATION_HAND)
    a = t.card(100, LOCATION_HAND)
    b = t.card(101, LOCATION_HAND)
    spell = t.card(500, LOCATION_HAND)

    def operation(*args: Any) -> None:
        sg: Group = args[9]
        sg.container.update([a, b, spell])      # the Spell is dropped by the rule

    e = procedure(c, code=EFFECT_SPSUMMON_PROC_G, operation=operation, value=SUMMON_TYPE_PENDULUM)
    assert e.code == EFFECT_SPSUMMON_PROC_G
    t.duel.special_summon_rule(0, c, 0)
    msgs, _ = t.run()
    names = kinds(msgs)
    assert names.count("SPSUMMONING") == 2 and names.count("SPSUMMONED") == 1
    assert names[-1] == "SPSUMMONED"
    assert a.current.location == LOCATION_MZONE and b.current.location == LOCATION_MZONE
    assert spell.current.location == LOCATION_HAND and c.current.location == LOCATION_HAND
    assert a.summon_info == SUMMON_TYPE_PENDULUM | (LOCATION_HAND << 16)
    assert a.is_status(STATUS_SPSUMMON_TURN) and not a.is_status(STATUS_SUMMONING)


# ===== choosing tributes for costs =====================================================

def test_select_release_cards_leaves_the_answer_in_card_order():
    t = Table()
    a = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    b = t.card(101, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    c = t.card(105, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    d = t.duel
    d.core.release_cards = CardSet([a, b, c])

    def answer(p: Message) -> bytes | None:
        assert isinstance(p, MsgSelectCard) and (p.min, p.max) == (1, 2)
        return bytes([2, 2, 0])

    d.add_process(d.proc_select_release_cards(0, 0, 1, 2))
    msgs, _ = t.run(answer)
    assert kinds(msgs) == ["HINT", "SELECT_CARD"]
    assert msgs[0] == MsgHint(type=HINT_SELECTMSG, player=0, data=HINTMSG_RELEASE)
    picked = [d.core.select_cards[d.returns.bvalue[i + 1]] for i in range(d.returns.bvalue[0])]
    assert picked == [a, c]


def test_select_release_cards_opponent_first():
    t = Table()
    own = t.card(100, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    opp = t.card(101, LOCATION_MZONE, 0, POS_FACEUP_ATTACK, player=1)
    d = t.duel
    d.core.release_cards = CardSet([own])
    d.core.release_cards_ex = CardSet([opp])
    offered: list[list[Card]] = []

    def answer(p: Message) -> bytes | None:
        offered.append(list(d.core.select_cards))
        return bytes([1, 0])

    d.add_process(d.proc_select_release_cards(0, 0, 2, 2))
    t.run(answer)
    assert offered == [[opp], [own]]
    picked = {d.core.select_cards[d.returns.bvalue[i + 1]] for i in range(d.returns.bvalue[0])}
    assert picked == {own, opp}


# ===== material selection ==============================================================

def test_xyz_material_selection_hands_the_group_to_the_script():
    t = Table()
    x = t.card(201, LOCATION_EXTRA)
    mats = [t.card(100, LOCATION_MZONE, s, POS_FACEUP_ATTACK) for s in range(3)]
    d = t.duel
    d.core.xmaterial_lst = [(0, m) for m in mats]
    out: list = []

    def answer(p: Message) -> bytes | None:
        assert isinstance(p, MsgSelectCard) and (p.min, p.max) == (2, 2)
        return bytes([2, 0, 2])

    d.add_process(d.proc_select_xyz_material(0, 4, x, 2, 2, out))
    msgs, _ = t.run(answer)
    assert msgs[0] == MsgHint(type=HINT_SELECTMSG, player=0, data=HINTMSG_XMATERIAL)
    assert len(out) == 1 and isinstance(out[0], Group)
    assert list(out[0].container) == [mats[0], mats[2]]


def test_xyz_material_selection_canceled_gives_nil():
    t = Table()
    x = t.card(201, LOCATION_EXTRA)
    mats = [t.card(100, LOCATION_MZONE, s, POS_FACEUP_ATTACK) for s in range(2)]
    d = t.duel
    d.core.xmaterial_lst = [(0, m) for m in mats]
    d.core.summon_cancelable = True
    out: list = []
    d.add_process(d.proc_select_xyz_material(0, 4, x, 2, 2, out))
    t.run(lambda p: pack_i32(-1))
    assert out == [None]


def test_xyz_material_must_material_first_then_more():
    """An EFFECT_MUST_BE_XMATERIAL card is picked first; then "more?" is asked once the minimum is met."""
    t = Table()
    x = t.card(201, LOCATION_EXTRA)
    mats = [t.card(100, LOCATION_MZONE, s, POS_FACEUP_ATTACK) for s in range(3)]
    d = t.duel
    must = d.new_effect()
    must.type = EFFECT_TYPE_FIELD
    must.code = EFFECT_MUST_BE_XMATERIAL
    must.range = LOCATION_MZONE
    must.s_range = 1
    must.flag[0] = EFFECT_FLAG_PLAYER_TARGET
    must.owner = mats[1]
    mats[1].add_effect(must)
    d.core.xmaterial_lst = [(0, m) for m in mats]
    out: list = []
    seen: list[str] = []

    def answer(p: Message) -> bytes | None:
        seen.append(p.NAME)
        if p.NAME == "SELECT_YESNO":
            return pack_i32(0)            # no more
        return None

    d.add_process(d.proc_select_xyz_material(0, 4, x, 1, 3, out))
    t.run(answer)
    assert seen == ["SELECT_CARD", "SELECT_YESNO"]
    assert list(out[0].container) == [mats[1]]


def test_synchro_material_without_tuners_hands_back_nothing():
    t = Table()
    s = t.card(201, LOCATION_EXTRA)
    d = t.duel
    d.core.select_cards = []
    out: list = []
    d.add_process(d.proc_select_synchro_material(0, s, 1, 1, None, None, None, None, out))
    msgs, prompts = t.run()
    assert out == [] and msgs == [] and prompts == []


def test_synchro_material_single_way_needs_no_question():
    t = Table()
    s = t.card(201, LOCATION_EXTRA)
    mats = [t.card(100, LOCATION_MZONE, i, POS_FACEUP_ATTACK) for i in range(3)]
    d = t.duel
    d.core.select_cards = [mats[0]]
    d.core.summon_cancelable = False
    d.core.limit_tuner = mats[0]
    out: list = []
    mg = d.new_group(mats)
    d.add_process(d.proc_select_synchro_material(0, s, 2, 2, None, mg, None, None, out))
    msgs, prompts = t.run()
    assert prompts == []
    assert len(out) == 1 and list(out[0].container) == mats
    assert d.core.limit_tuner is None


def test_synchro_material_tuner_canceled():
    t = Table()
    s = t.card(201, LOCATION_EXTRA)
    tuner = t.card(101, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d = t.duel
    d.core.select_cards = [tuner]
    d.core.summon_cancelable = True
    out: list = []
    d.add_process(d.proc_select_synchro_material(0, s, 1, 1, None, None, None, None, out))
    msgs, _ = t.run(lambda p: pack_i32(-1))
    assert msgs[0] == MsgHint(type=HINT_SELECTMSG, player=0, data=HINTMSG_SMATERIAL)
    assert out == [None]


@pytest.mark.parametrize("sumtype, matreason", [(0, REASON_SPSUMMON)])
def test_material_reason_default(sumtype: int, matreason: int):
    from duelhost.engine.operations.special_summon import _material_reason
    e = Table().duel.new_effect()
    e.value = sumtype
    assert _material_reason(e) == matreason
    e.value = SUMMON_TYPE_XYZ
    assert _material_reason(e) == REASON_XYZ
    e.value = SUMMON_TYPE_SYNCHRO
    assert _material_reason(e) == REASON_SYNCHRO
    e.value = SUMMON_TYPE_LINK
    assert _material_reason(e) == REASON_LINK


def test_extra_normal_summon_is_used_when_the_count_is_spent():
    """EFFECT_EXTRA_SUMMON_COUNT: with the turn's summon used, the extra one is taken (HINT_CARD)."""
    t = Table()
    giver = t.card(500, LOCATION_SZONE, 0, POS_FACEUP)
    c = t.card(100, LOCATION_HAND)
    d = t.duel
    e = d.new_effect()
    e.type = EFFECT_TYPE_FIELD
    e.code = EFFECT_EXTRA_SUMMON_COUNT
    e.range = LOCATION_SZONE
    e.s_range = LOCATION_HAND
    e.description = 777
    e.owner = giver
    giver.add_effect(e)
    d.core.summon_count[0] = 1
    d.summon(0, c, None, 0, 0)
    msgs, prompts = t.run()
    assert "SELECT_OPTION" not in [p.NAME for p in prompts]    # the only way: no question
    assert MsgHint(type=HINT_CARD, player=0, data=500) in msgs
    assert kinds(msgs)[-1] == "SUMMONED"
    assert d.core.extra_summon == [True, False] and d.core.summon_count == [1, 0]


def test_extra_normal_summon_offered_next_to_the_regular_one():
    t = Table()
    giver = t.card(500, LOCATION_SZONE, 0, POS_FACEUP)
    c = t.card(100, LOCATION_HAND)
    d = t.duel
    e = d.new_effect()
    e.type = EFFECT_TYPE_FIELD
    e.code = EFFECT_EXTRA_SUMMON_COUNT
    e.range = LOCATION_SZONE
    e.s_range = LOCATION_HAND
    e.description = 777
    e.owner = giver
    giver.add_effect(e)
    options: list[tuple[int, ...]] = []

    def answer(p: Message) -> bytes | None:
        if p.NAME == "SELECT_OPTION":
            options.append(tuple(p.options))
            return pack_i32(0)              # the regular Normal Summon
        return None

    d.summon(0, c, None, 0, 0)
    t.run(answer)
    assert options == [(1, 777)]
    assert d.core.extra_summon == [False, False] and d.core.summon_count == [1, 0]
