"""Issue 3, item 7: battle, with our rules cards (cards/rules.toml).

Attack declaration (direct attacks, attack target changes), replays, battle
damage and destruction, piercing, attack negation, the battle events scripts
listen to (battle destroying, battle damage), and the win conditions: LP 0,
deck-out and a card effect (Duel.Win).
"""

from __future__ import annotations

from duelhost.engine import constants as C
from duelhost.engine.messages import (MsgAttack, MsgAttackDisabled, MsgBattle, MsgDamage, MsgMove, MsgPosChange,
                                      MsgSelectBattleCmd, MsgSelectCard, MsgSelectEffectYn,
                                      MsgSelectYesNo, MsgWin)
from duelhost.engine.responses import ChainResponse, YesNoResponse

from rules_board import (ALARM_BELL, BAILIFF, CLERK, DECOY_SHIFT, HIGH_JUDGE, HOURGLASS, JUROR,
                         LANCER, PHANTOM, RAIDER, SPRINTER, VANISHING_ACT, VICTOR, Board, pick)

LOC_HAND, LOC_GRAVE, LOC_MZONE = C.LOCATION_HAND, C.LOCATION_GRAVE, C.LOCATION_MZONE


def battle_board(attackers: list[int], defenders: list[tuple[int, int]], **kw) -> Board:
    """Player 0's monsters ``attackers`` (face-up Attack), player 1's ``defenders``
    ((code, position)), played to player 0's Battle Phase of turn 3."""
    b = Board(**kw)
    for i, code in enumerate(attackers):
        b.monster(code, 0, i)
    for i, (code, pos) in enumerate(defenders):
        b.monster(code, 1, i, pos)
    return b


def to_battle(b: Board) -> None:
    b.start()
    b.skip_to_turn(3)
    b.to_battle()
    assert isinstance(b.request, MsgSelectBattleCmd)


def test_attack_destroys_the_weaker_monster_and_deals_the_difference():
    b = battle_board([HIGH_JUDGE], [(BAILIFF, C.POS_FACEUP_ATTACK)])
    to_battle(b)
    start = b.mark()
    b.attack(HIGH_JUDGE, BAILIFF)
    assert b.lp(1) == 8000 - (2800 - 1500)
    assert b.codes(1, LOC_GRAVE) == [BAILIFF]
    move = [m for m in b.messages(MsgMove, start) if m.code == BAILIFF][0]
    assert move.reason == C.REASON_BATTLE | C.REASON_DESTROY
    assert len(b.messages(MsgAttack, start)) == 1 and len(b.messages(MsgBattle, start)) == 1
    assert [(m.player, m.amount) for m in b.messages(MsgDamage, start)] == [(1, 1300)]
    # a monster attacks once per Battle Phase
    assert HIGH_JUDGE not in [a.code for a in b.request.attackable]


def test_attacking_a_stronger_defense_damages_the_attacker_and_destroys_nothing():
    b = battle_board([BAILIFF], [(JUROR, C.POS_FACEUP_DEFENSE)])
    to_battle(b)
    b.attack(BAILIFF, JUROR)
    assert b.lp(0) == 8000 - (2000 - 1500) and b.lp(1) == 8000
    assert b.codes(0, LOC_MZONE) == [BAILIFF] and b.codes(1, LOC_MZONE) == [JUROR]


def test_defense_position_monster_no_damage_without_piercing():
    b = battle_board([BAILIFF], [(SPRINTER, C.POS_FACEUP_DEFENSE)])
    to_battle(b)
    b.attack(BAILIFF, SPRINTER)
    assert b.codes(1, LOC_GRAVE) == [SPRINTER]
    assert b.lp(1) == 8000


def test_piercing_damage():
    b = battle_board([LANCER], [(SPRINTER, C.POS_FACEUP_DEFENSE)])
    to_battle(b)
    b.attack(LANCER, SPRINTER)
    assert b.codes(1, LOC_GRAVE) == [SPRINTER]
    assert b.lp(1) == 8000 - (1700 - 300)


def test_attacking_a_face_down_monster_flips_it():
    b = battle_board([HIGH_JUDGE], [(JUROR, C.POS_FACEDOWN_DEFENSE)])
    to_battle(b)
    start = b.mark()
    b.attack(HIGH_JUDGE, JUROR)
    battle = b.messages(MsgBattle, start)[0]
    assert b.codes(1, LOC_GRAVE) == [JUROR] and b.lp(1) == 8000
    assert (battle.attacker_atk, battle.target_def, battle.target_destroyed) == (2800, 2000, 1)
    flips = [m for m in b.messages(MsgPosChange, start) if m.code == JUROR]
    assert flips and flips[0].current_position == C.POS_FACEUP_DEFENSE


def test_direct_attack_when_the_opponent_has_no_monster():
    b = battle_board([BAILIFF], [])
    to_battle(b)
    b.attack(BAILIFF)
    assert b.lp(1) == 6500


def test_can_attack_directly_even_when_the_opponent_has_monsters():
    b = battle_board([PHANTOM, BAILIFF], [(HIGH_JUDGE, C.POS_FACEUP_ATTACK)])
    to_battle(b)
    attackable = {a.code: a.direct_attackable for a in b.request.attackable}
    assert attackable[PHANTOM] and not attackable[BAILIFF]
    n = b.pmark()
    b.attack(PHANTOM)                             # answers "attack directly?" with yes
    assert [p.description for p in b.asked(MsgSelectYesNo, 0, n)] == [31]
    assert b.lp(1) == 7000 and b.codes(0, LOC_MZONE) == [PHANTOM, BAILIFF]


def test_attack_target_change():
    b = battle_board([HIGH_JUDGE], [(BAILIFF, C.POS_FACEUP_ATTACK), (JUROR, C.POS_FACEUP_DEFENSE)])
    b.spell(DECOY_SHIFT, 1, set_=True)
    b.chain(1, DECOY_SHIFT)
    b.expect(MsgSelectCard, pick(JUROR), player=1)
    to_battle(b)
    start = b.mark()
    b.attack(HIGH_JUDGE, BAILIFF)
    assert b.codes(1, LOC_MZONE) == [BAILIFF]
    assert sorted(b.codes(1, LOC_GRAVE)) == sorted([JUROR, DECOY_SHIFT])
    assert b.lp(1) == 8000                        # Juror was in Defense Position
    battle = b.messages(MsgBattle, start)
    assert len(battle) == 1 and battle[0].target.sequence == 1


def test_replay_when_the_attack_target_leaves_the_field():
    """The attacked monster returns to the hand: the number of the opponent's monsters
    changed, so the attacking player may choose a new target (a replay) or stop."""
    b = battle_board([HIGH_JUDGE], [(BAILIFF, C.POS_FACEUP_ATTACK), (CLERK, C.POS_FACEUP_ATTACK)])
    b.spell(VANISHING_ACT, 1, set_=True)
    b.chain(1, VANISHING_ACT)
    to_battle(b)
    n = b.pmark()
    b.expect(MsgSelectYesNo, YesNoResponse(yes=True), player=0)      # attack again?
    b.expect(MsgSelectCard, pick(CLERK), player=0)                   # the new target
    b.attack(HIGH_JUDGE, BAILIFF)
    assert not b.pending
    assert BAILIFF in b.codes(1, LOC_HAND)
    assert sorted(b.codes(1, LOC_GRAVE)) == sorted([CLERK, VANISHING_ACT])
    assert [p.description for p in b.asked(MsgSelectYesNo, 0, n)] == [30]   # "attack again?"
    assert b.lp(1) == 8000 - (2800 - 500)


def test_replay_may_be_declined():
    b = battle_board([HIGH_JUDGE], [(BAILIFF, C.POS_FACEUP_ATTACK), (CLERK, C.POS_FACEUP_ATTACK)])
    b.spell(VANISHING_ACT, 1, set_=True)
    b.chain(1, VANISHING_ACT)
    to_battle(b)
    b.expect(MsgSelectYesNo, YesNoResponse(yes=False), player=0)
    b.attack(HIGH_JUDGE, BAILIFF)
    assert not b.pending
    assert b.codes(1, LOC_MZONE) == [CLERK] and b.lp(1) == 8000
    assert HIGH_JUDGE not in [a.code for a in b.request.attackable]   # the attack was used


def test_attack_negated():
    b = battle_board([HIGH_JUDGE], [(BAILIFF, C.POS_FACEUP_ATTACK)])
    b.spell(ALARM_BELL, 1, set_=True)
    b.chain(1, ALARM_BELL)
    to_battle(b)
    start = b.mark()
    b.attack(HIGH_JUDGE, BAILIFF)
    assert len(b.messages(MsgAttackDisabled, start)) == 1
    assert b.messages(MsgBattle, start) == []
    assert b.lp(1) == 8000 and b.codes(1, LOC_MZONE) == [BAILIFF]
    assert HIGH_JUDGE not in [a.code for a in b.request.attackable]


def test_battle_destroying_trigger():
    b = battle_board([VICTOR], [(CLERK, C.POS_FACEUP_ATTACK)])
    to_battle(b)
    b.attack(VICTOR, CLERK)
    assert b.lp(0) == 8500 and b.lp(1) == 8000 - 1100


def test_battle_damage_trigger_is_optional():
    for use in (True, False):
        b = battle_board([RAIDER], [])
        to_battle(b)
        hand = len(b.codes(0, LOC_HAND))
        b.expect(MsgSelectEffectYn, YesNoResponse(yes=use), player=0)
        b.attack(RAIDER)
        assert not b.pending
        assert b.lp(1) == 6600
        assert len(b.codes(0, LOC_HAND)) == hand + (1 if use else 0)


def test_win_by_lp():
    b = battle_board([BAILIFF], [])
    b.duel.set_player(1, lp=1000, start_hand=0)
    to_battle(b)
    req = b.attack(BAILIFF)
    assert req is None and b.duel.finished
    win = b.duel.win()
    assert (win.player, win.reason) == (0, 1)
    assert b.lp(1) == 1000 - 1500                  # the reference does not floor LP at 0


def test_win_by_deck_out():
    b = Board(deck_size=0)
    b.duel.add_deck(0, [CLERK] * 5)
    b.start()
    req = b.end_turn()                             # player 1 cannot draw at the start of turn 2
    assert req is None
    win = b.duel.win()
    assert (win.player, win.reason) == (0, 2)
    assert b.duel.turn == 2


def test_win_by_a_card_effect():
    """Hourglass of Fate turns in each of its controller's Standby Phases (its label and
    turn counter) and wins the Duel (Duel.Win, reason 0x51) at the fifth turn."""
    b = Board(deck_size=20)
    b.spell(HOURGLASS, 0)
    b.start()                                      # turned once in the Standby Phase of turn 1
    hourglass = [c for c in b.engine.player[0].list_szone if c is not None][0]
    assert hourglass.turn_counter == 1
    b.skip_to_turn(7)
    assert hourglass.turn_counter == 4
    req = b.end_turn()
    req = b.end_turn() if req is not None else req
    assert req is None and b.duel.turn == 9
    win = b.duel.win()
    assert (win.player, win.reason) == (0, 0x51)
    assert b.messages(MsgWin)[-1] == win


def test_battle_step_and_damage_step_windows():
    """In the Battle Step both players may respond with any quick effect; in the Damage
    Step only effects that may be used there (EFFECT_FLAG_DAMAGE_STEP, such as Brief
    Surge) are offered: Sentinel's quick effect is not."""
    from duelhost.engine.messages import MsgSelectChain
    from rules_board import BRIEF_SURGE, SENTINEL
    b = battle_board([BAILIFF], [(SENTINEL, C.POS_FACEUP_ATTACK)])
    b.spell(BRIEF_SURGE, 1, set_=True)
    to_battle(b)
    phases: list[tuple[int, list[int]]] = []

    def chain_in_damage_step(req):
        phases.append((b.duel.phase, [o.code for o in req.chains]))
        if b.duel.phase == C.PHASE_DAMAGE and BRIEF_SURGE in [o.code for o in req.chains]:
            return ChainResponse(index=[o.code for o in req.chains].index(BRIEF_SURGE))
        return ChainResponse(index=None)

    for _ in range(12):
        b.expect(MsgSelectChain, chain_in_damage_step, player=1,
                 when=lambda req: not any(p == C.PHASE_DAMAGE and BRIEF_SURGE in c for p, c in phases))
    b.expect(MsgSelectCard, pick(SENTINEL), player=1)
    b.attack(BAILIFF, SENTINEL)
    b.pending.clear()
    battle_step = [codes for phase, codes in phases if phase == C.PHASE_BATTLE_STEP]
    damage_step = [codes for phase, codes in phases if phase == C.PHASE_DAMAGE]
    assert any(SENTINEL in codes and BRIEF_SURGE in codes for codes in battle_step)
    assert damage_step and all(SENTINEL not in codes for codes in damage_step)
    assert any(BRIEF_SURGE in codes for codes in damage_step)
    # Sentinel (1400 + 500) destroyed the attacking Bailiff (1500)
    assert b.codes(0, LOC_GRAVE) == [BAILIFF] and b.codes(1, LOC_MZONE) == [SENTINEL]
    assert b.lp(0) == 8000 - (1900 - 1500)
