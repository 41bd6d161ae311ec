"""Issue 3, item 3: the turn structure, with our rules cards (cards/rules.toml).

Start of the duel (opening hands), the phases and their messages, no draw and no
Battle Phase on the first turn, the draw count, turn players switching, a
phase-skipping effect, and the idle command's legality rules: one Normal Summon
or Set per turn, Tribute Summons, Flip Summons, changing battle positions.
"""

from __future__ import annotations

from duelhost.engine import constants as C
from duelhost.engine.messages import (MsgDraw, MsgFlipSummoning, MsgNewPhase, MsgNewTurn, MsgSelectBattleCmd,
                                      MsgSelectIdleCmd, MsgSelectTribute, MsgSet, MsgSummoning)

from rules_board import BAILIFF, CLERK, HIGH_JUDGE, JUROR, MAGISTRATE, SPRINTER, STALL_ORDER, Board

LOC_HAND, LOC_MZONE, LOC_DECK = C.LOCATION_HAND, C.LOCATION_MZONE, C.LOCATION_DECK


def codes(lst) -> list[int]:
    return [c.code for c in lst]


def test_opening_hands_and_the_first_turns_phases():
    b = Board(deck_size=0)
    for p in (0, 1):
        b.duel.set_player(p, start_hand=5)
        b.duel.add_deck(p, [CLERK] * 10 + [BAILIFF] * 5)    # the last added are on top
    b.duel.start()
    req = b.run()
    draws = b.messages(MsgDraw)
    assert [(m.player, m.codes) for m in draws[:2]] == [(0, (BAILIFF,) * 5), (1, (BAILIFF,) * 5)]
    assert len(draws) == 2                         # no draw in the first turn
    assert [m.player for m in b.messages(MsgNewTurn)] == [0]
    assert [m.phase for m in b.messages(MsgNewPhase)] == [C.PHASE_DRAW, C.PHASE_STANDBY, C.PHASE_MAIN1]
    assert isinstance(req, MsgSelectIdleCmd) and req.player == 0
    assert not req.can_battle_phase and req.can_end_phase       # no Battle Phase in the first turn


def test_turns_alternate_with_a_draw_each_and_the_phases_in_order():
    b = Board()
    b.start()
    start = b.mark()
    b.end_turn()
    assert (b.duel.turn, b.duel.turn_player) == (2, 1)
    assert [m.phase for m in b.messages(MsgNewPhase, start)] == [
        C.PHASE_END, C.PHASE_DRAW, C.PHASE_STANDBY, C.PHASE_MAIN1]
    assert [(m.player, len(m.codes)) for m in b.messages(MsgDraw, start)] == [(1, 1)]
    assert b.idle(1).can_battle_phase
    start = b.mark()
    b.to_battle()
    b.main2()
    b.end_turn()
    # with no attack, Main Phase 2 follows the start of the Battle Phase directly
    assert [m.phase for m in b.messages(MsgNewPhase, start)] == [
        C.PHASE_BATTLE_START, C.PHASE_MAIN2, C.PHASE_END, C.PHASE_DRAW, C.PHASE_STANDBY, C.PHASE_MAIN1]
    assert (b.duel.turn, b.duel.turn_player) == (3, 0)


def test_draw_count():
    b = Board()
    b.duel.set_player(1, start_hand=0, draw=2)
    b.start()
    start = b.mark()
    b.end_turn()
    assert [(m.player, len(m.codes)) for m in b.messages(MsgDraw, start)] == [(1, 2)]


def test_one_normal_summon_or_set_per_turn():
    b = Board()
    b.hand(BAILIFF)
    b.hand(JUROR)
    b.hand(SPRINTER)
    b.start()
    idle = b.idle(0)
    assert sorted(codes(idle.summonable)) == sorted([BAILIFF, JUROR, SPRINTER])
    assert sorted(codes(idle.monster_settable)) == sorted([BAILIFF, JUROR, SPRINTER])
    start = b.mark()
    b.summon(BAILIFF)
    assert [m.code for m in b.messages(MsgSummoning, start)] == [BAILIFF]
    idle = b.idle(0)
    assert codes(idle.summonable) == [] and codes(idle.monster_settable) == []
    b.skip_to_turn(3)
    start = b.mark()
    b.set_monster(JUROR)
    assert [m.code for m in b.messages(MsgSet, start)] == [JUROR]
    juror = [c for c in b.field(0) if c.data.code == JUROR][0]
    assert juror.current.position == C.POS_FACEDOWN_DEFENSE
    assert codes(b.idle(0).summonable) == []


def test_tribute_summons_need_one_or_two_tributes():
    b = Board()
    b.hand(MAGISTRATE)                             # Level 6: 1 Tribute
    b.hand(HIGH_JUDGE)                             # Level 8: 2 Tributes
    b.monster(CLERK, 0, 0)
    b.start()
    idle = b.idle(0)
    assert codes(idle.summonable) == [MAGISTRATE]  # one monster: not enough for the Level 8
    n = b.pmark()
    b.summon(MAGISTRATE)
    tribute = b.asked(MsgSelectTribute, 0, n)
    assert tribute and (tribute[0].min, tribute[0].max) == (1, 1)
    assert b.codes(0, LOC_MZONE) == [MAGISTRATE] and CLERK in b.codes(0, C.LOCATION_GRAVE)
    clerk = b.engine.player[0].list_grave[0]
    assert clerk.current.reason & C.REASON_RELEASE and clerk.current.reason & C.REASON_SUMMON


def test_flip_summon_not_in_the_turn_it_was_set_and_position_changes():
    b = Board()
    b.hand(JUROR)
    b.monster(BAILIFF, 0, 1)
    b.start()
    b.set_monster(JUROR)
    idle = b.idle(0)
    # the Set monster cannot be flipped this turn; Bailiff was not summoned this turn, it may change
    assert codes(idle.repositionable) == [BAILIFF]
    b.reposition(BAILIFF)
    bailiff = [c for c in b.field(0) if c.data.code == BAILIFF][0]
    assert bailiff.current.position == C.POS_FACEUP_DEFENSE
    assert codes(b.idle(0).repositionable) == []   # once per turn
    b.skip_to_turn(3)
    idle = b.idle(0)
    assert sorted(codes(idle.repositionable)) == sorted([JUROR, BAILIFF])
    start = b.mark()
    b.reposition(JUROR)                            # a Flip Summon
    assert [m.code for m in b.messages(MsgFlipSummoning, start)] == [JUROR]
    juror = [c for c in b.field(0) if c.data.code == JUROR][0]
    assert juror.current.position == C.POS_FACEUP_ATTACK


def test_a_monster_summoned_this_turn_cannot_change_its_position():
    b = Board()
    b.hand(BAILIFF)
    b.start()
    b.summon(BAILIFF)
    assert codes(b.idle(0).repositionable) == []


def test_a_monster_that_attacked_cannot_change_its_position_in_main_phase_2():
    b = Board()
    b.monster(BAILIFF, 0)
    b.start()
    b.skip_to_turn(3)
    assert codes(b.idle(0).repositionable) == [BAILIFF]
    b.to_battle()
    b.attack(BAILIFF)
    b.main2()
    assert codes(b.idle(0).repositionable) == []


def test_skipping_the_opponents_battle_phase():
    """EFFECT_SKIP_BP: the player may still choose to go to the Battle Phase (the idle
    menu offers it), but the Battle Phase is entered and skipped at once, straight to
    the End Phase (no Main Phase 2); the following Battle Phase is normal again."""
    b = Board()
    b.hand(STALL_ORDER)
    b.monster(BAILIFF, 1)
    b.start()
    b.activate(STALL_ORDER)
    b.end_turn()
    assert b.duel.turn_player == 1 and b.idle(1).can_battle_phase
    start = b.mark()
    b.to_battle()
    assert [m.phase for m in b.messages(MsgNewPhase, start)][:2] == [C.PHASE_BATTLE_START, C.PHASE_END]
    assert b.duel.turn == 3
    b.end_turn()
    start = b.mark()
    b.to_battle()
    assert b.duel.turn == 4 and isinstance(b.request, MsgSelectBattleCmd)
    assert [m.phase for m in b.messages(MsgNewPhase, start)] == [C.PHASE_BATTLE_START]
    assert [a.code for a in b.request.attackable] == [BAILIFF]
