"""Issue 3, item 5: continuous effects, with our rules cards (cards/rules.toml).

ATK/DEF update/set/final/swap in the reference's order (card::get_atk_def: a
monster's own "ATK becomes" first, then the others by timestamp, field "final"
values after, the swap last), Level/Attribute/Type/name changes, cannot-X
restrictions (summon, activate, attack, be targeted), disable, indestructibility,
immunity, a destroy replacement, and an Equip Spell.
"""

from __future__ import annotations

from duelhost.engine import constants as C
from duelhost.engine.messages import MsgChainDisabled, MsgEquip, MsgSelectCard, MsgSelectEffectYn
from duelhost.engine.responses import YesNoResponse

from rules_board import (ASCETIC, BAILIFF, BORROWED_BLADE, BRIEF_SURGE, BULWARK, CLERK, GATEKEEPER,
                         HIGH_JUDGE, IRON_GAUNTLET, LEVEL_LADDER, MAGISTRATE, MARTYR, MIMIC,
                         MIRROR_STANCE, RALLY_BANNER, RECALIBRATE, SCRIBE, SENTINEL, SILENCE_DECREE,
                         SILENCE_SEAL, SNARE_PIT, STOIC, SUDDEN_WEAKNESS, SURVIVOR, Board, pick)

LOC_HAND, LOC_GRAVE, LOC_SZONE, LOC_MZONE = C.LOCATION_HAND, C.LOCATION_GRAVE, C.LOCATION_SZONE, C.LOCATION_MZONE


def activatable(b: Board) -> list[int]:
    return [o.card_code for o in b.idle().activatable]


def atk_def(card) -> tuple[int, int]:
    return card.get_attack(), card.get_defense()


# ===== ATK / DEF =====================================================================

def test_atk_def_update_set_final_and_swap_in_the_references_order():
    b = Board()
    b.monster(BAILIFF)                         # 1500 / 1200
    b.spell(RALLY_BANNER)                      # field: +300 ATK, -300 DEF (the oldest effect)
    for code in (BRIEF_SURGE, RECALIBRATE, SUDDEN_WEAKNESS, BRIEF_SURGE, MIRROR_STANCE):
        b.hand(code)
    b.start()
    bailiff = b.field(0)[0]
    assert atk_def(bailiff) == (1800, 900)
    b.activate(BRIEF_SURGE)                    # its own +500
    assert atk_def(bailiff) == (2300, 900)
    b.activate(RECALIBRATE)                    # its own "ATK becomes 1000": applied before every update
    assert atk_def(bailiff) == (1000 + 300 + 500, 900)
    b.activate(SUDDEN_WEAKNESS)                # its own "ATK becomes 0" (final): cancels the updates before it
    assert atk_def(bailiff) == (0, 900)
    b.activate(BRIEF_SURGE)                    # an update after the final value still applies
    assert atk_def(bailiff) == (500, 900)
    b.activate(MIRROR_STANCE)                  # the swap comes last
    assert atk_def(bailiff) == (900, 500)
    b.end_turn()                               # the end-of-turn effects go
    # a monster's own "ATK becomes X (final)" removed its older own ATK effects for good
    # (card::add_effect), so "becomes 1000" and the first +500 did not come back
    assert atk_def(bailiff) == (1800, 900)


def test_field_update_applies_to_its_controllers_monsters_only_while_face_up():
    b = Board()
    b.monster(BAILIFF, 0)
    b.monster(BAILIFF, 1)
    b.hand(RALLY_BANNER)
    b.start()
    mine, theirs = b.field(0)[0], b.field(1)[0]
    b.activate(RALLY_BANNER)
    assert b.codes(0, LOC_SZONE) == [RALLY_BANNER]
    assert atk_def(mine) == (1800, 900) and atk_def(theirs) == (1500, 1200)


# ===== Level, Attribute, Type, name ==================================================

def test_level_attribute_race_changes_and_update_before_change():
    b = Board()
    b.monster(MIMIC)
    b.spell(LEVEL_LADDER)                      # +1 Level, older than the change
    b.start()
    mimic = b.field(0)[0]
    assert mimic.get_level() == 5
    b.activate(MIMIC)
    assert mimic.get_level() == 8              # a later "becomes 8" cancels the earlier +1
    assert mimic.get_attribute() == C.ATTRIBUTE_LIGHT and mimic.get_race() == C.RACE_DRAGON
    b.end_turn()
    assert (mimic.get_level(), mimic.get_attribute(), mimic.get_race()) == (5, C.ATTRIBUTE_DARK, C.RACE_FIEND)


def test_level_update_after_the_change_adds_to_it():
    b = Board()
    b.monster(MIMIC)
    b.hand(LEVEL_LADDER)
    b.start()
    mimic = b.field(0)[0]
    b.activate(MIMIC)
    b.activate(LEVEL_LADDER)
    assert mimic.get_level() == 9


def test_conditional_name_change():
    b = Board()
    b.monster(MIMIC, 0, 0)
    b.hand(CLERK)
    b.start()
    mimic = b.field(0)[0]
    assert mimic.get_code() == MIMIC
    b.summon(CLERK)
    assert mimic.get_code() == BAILIFF         # "while you control another monster"


# ===== restrictions ======================================================================

def test_cannot_attack_cannot_be_targeted_and_opponent_cannot_summon_level_5():
    b = Board()
    b.monster(GATEKEEPER, 0)
    b.monster(SCRIBE, 0, 1)
    b.spell(SNARE_PIT, 1, set_=True)
    b.monster(CLERK, 1, 0)
    b.hand(MAGISTRATE, 1)
    b.hand(BAILIFF, 1)
    b.start()
    b.end_turn()
    idle = b.idle(1)
    assert MAGISTRATE not in [c.code for c in idle.summonable]       # Level 6: cannot be Normal Summoned
    assert MAGISTRATE in [c.code for c in idle.monster_settable]     # but it can be Set
    assert BAILIFF in [c.code for c in idle.summonable]
    # Snare Pit may target Scribe or Clerk, never Gatekeeper
    n = b.pmark()
    b.expect(MsgSelectCard, pick(SCRIBE), player=1)
    b.activate(SNARE_PIT)
    offered = [c.code for c in b.asked(MsgSelectCard, 1, n)[0].cards]
    assert GATEKEEPER not in offered and SCRIBE in offered
    assert SCRIBE in b.codes(0, LOC_GRAVE)
    b.end_turn()                               # turn 3: player 0's Battle Phase
    b.to_battle()
    attackers = [a.code for a in b.request.attackable]
    assert attackers == [] or GATEKEEPER not in attackers


def test_cannot_attack():
    b = Board()
    b.monster(GATEKEEPER, 0, 0)
    b.monster(SCRIBE, 0, 1)
    b.start()
    b.skip_to_turn(3)
    b.to_battle()
    attackers = [a.code for a in b.request.attackable]
    assert GATEKEEPER not in attackers and SCRIBE in attackers


def test_player_cannot_activate_trap_cards():
    b = Board()
    b.spell(SILENCE_DECREE, 0)
    b.spell(SNARE_PIT, 1, set_=True)
    b.monster(BAILIFF, 0)
    b.start()
    b.end_turn()
    assert SNARE_PIT not in activatable(b)
    b.end_turn()
    # the owner of the Decree is not restricted
    assert b.duel.turn_player == 0


# ===== indestructibility, immunity, disable ===========================================

def test_indestructible_by_battle():
    b = Board()
    b.monster(HIGH_JUDGE, 0)
    b.monster(BULWARK, 1, 0, C.POS_FACEUP_ATTACK)
    b.start()
    b.skip_to_turn(3)
    b.to_battle()
    b.attack(HIGH_JUDGE, BULWARK)
    assert b.codes(1, LOC_MZONE) == [BULWARK]
    assert b.lp(1) == 8000 - (2800 - 800)      # battle damage still happens


def test_indestructible_by_effects():
    b = Board()
    b.monster(STOIC, 1)
    b.spell(SNARE_PIT, 0, set_=True)
    b.start()
    b.activate(SNARE_PIT)
    assert b.codes(1, LOC_MZONE) == [STOIC]


def test_indestructible_once_per_turn():
    b = Board()
    b.monster(SURVIVOR, 1)
    b.spell(SNARE_PIT, 0, 0, set_=True)
    b.spell(SNARE_PIT, 0, 1, set_=True)
    b.start()
    b.activate(SNARE_PIT)
    assert b.codes(1, LOC_MZONE) == [SURVIVOR]
    b.activate(SNARE_PIT)
    assert b.codes(1, LOC_GRAVE) == [SURVIVOR]


def test_immune_to_spell_effects_but_not_to_traps():
    b = Board()
    b.monster(ASCETIC, 0, 0)
    b.monster(BAILIFF, 0, 1)
    b.spell(RALLY_BANNER, 0)
    b.hand(SUDDEN_WEAKNESS)
    b.spell(SNARE_PIT, 0, 1, set_=True)
    b.start()
    ascetic = b.field(0)[0]
    assert ascetic.get_attack() == 1400 and b.field(0)[1].get_attack() == 1800
    b.expect(MsgSelectCard, pick(ASCETIC))
    b.activate(SUDDEN_WEAKNESS)
    assert ascetic.get_attack() == 1400
    b.expect(MsgSelectCard, pick(ASCETIC))
    b.activate(SNARE_PIT)
    assert ASCETIC in b.codes(0, LOC_GRAVE)


def test_disabled_monster_loses_its_continuous_effects():
    b = Board()
    b.monster(STOIC, 1)
    b.spell(SILENCE_SEAL, 0, 0, set_=True)
    b.spell(SNARE_PIT, 0, 1, set_=True)
    b.start()
    stoic = b.field(1)[0]
    b.activate(SILENCE_SEAL)
    assert stoic.is_status(C.STATUS_DISABLED)
    b.activate(SNARE_PIT)
    assert b.codes(1, LOC_GRAVE) == [STOIC]


def test_disabled_monster_may_activate_but_its_effect_is_negated_at_resolution():
    """The reference lets a monster whose effects are negated activate its effect; the
    effect then resolves as negated (MSG_CHAIN_DISABLED), as for any related link
    whose card is disabled."""
    b = Board()
    b.monster(SENTINEL, 1)
    b.spell(SILENCE_SEAL, 0, set_=True)
    b.hand(BRIEF_SURGE)
    b.monster(BAILIFF, 0)
    b.start()
    b.activate(SILENCE_SEAL)
    b.chain(1, SENTINEL)
    b.expect(MsgSelectCard, pick(BAILIFF), player=0)
    b.expect(MsgSelectCard, pick(BAILIFF), player=1)
    start = b.mark()
    b.activate(BRIEF_SURGE)
    assert [m.chain_count for m in b.messages(MsgChainDisabled, start)] == [2]
    assert b.field(0)[0].get_attack() == 2000             # +500, and no -500
    b.end_turn()
    assert SENTINEL in activatable(b)                      # a new turn: negation over, count recharged


# ===== destroy replacement ===========================================================

def test_destroy_replacement_accepted():
    b = Board()
    b.monster(MARTYR, 1)
    b.hand(CLERK, 1)
    b.spell(SNARE_PIT, 0, set_=True)
    b.start()
    b.activate(SNARE_PIT)                      # the default policy says yes to "use the effect?"
    asked = [p for p in b.prompts if isinstance(p, MsgSelectEffectYn) and p.code == MARTYR]
    assert asked and asked[0].player == 1
    assert b.codes(1, LOC_MZONE) == [MARTYR]
    assert b.codes(1, LOC_GRAVE) == [CLERK]


def test_destroy_replacement_declined_or_impossible():
    b = Board()
    b.monster(MARTYR, 1)
    b.hand(CLERK, 1)
    b.spell(SNARE_PIT, 0, set_=True)
    b.start()
    b.expect(MsgSelectEffectYn, YesNoResponse(yes=False), player=1)
    b.activate(SNARE_PIT)
    assert b.codes(1, LOC_GRAVE) == [MARTYR]
    assert b.codes(1, LOC_HAND) == [CLERK]
    # with an empty hand the replacement is not offered at all
    b2 = Board()
    b2.monster(MARTYR, 1)
    b2.spell(SNARE_PIT, 0, set_=True)
    b2.start()
    b2.activate(SNARE_PIT)
    assert not [p for p in b2.prompts if isinstance(p, MsgSelectEffectYn)]
    assert b2.codes(1, LOC_GRAVE) == [MARTYR]


# ===== equip cards ==================================================================

def test_equip_spell_gives_atk_and_goes_when_the_monster_goes():
    b = Board()
    b.monster(BAILIFF, 0)
    b.hand(IRON_GAUNTLET)
    b.spell(SNARE_PIT, 1, set_=True)
    b.start()
    start = b.mark()
    b.activate(IRON_GAUNTLET)
    bailiff = b.field(0)[0]
    gauntlet = [c for c in b.engine.player[0].list_szone if c is not None][0]
    assert gauntlet.equiping_target is bailiff and bailiff.get_attack() == 1900
    eq = b.messages(MsgEquip, start)
    assert len(eq) == 1 and eq[0].card.location == LOC_SZONE and eq[0].target.location == LOC_MZONE
    b.end_turn()
    b.activate(SNARE_PIT)                      # player 1 destroys the equipped monster
    assert sorted(b.codes(0, LOC_GRAVE)) == sorted([BAILIFF, IRON_GAUNTLET])
    assert gauntlet.current.reason & C.REASON_LOST_TARGET


def test_equip_limit_sends_the_equip_away_when_control_changes():
    b = Board()
    b.monster(BAILIFF, 0)
    b.hand(IRON_GAUNTLET)
    b.hand(BORROWED_BLADE, 1)
    b.start()
    b.activate(IRON_GAUNTLET)
    b.end_turn()
    b.activate(BORROWED_BLADE)
    assert b.codes(1, LOC_MZONE) == [BAILIFF]
    assert IRON_GAUNTLET in b.codes(0, LOC_GRAVE)
    assert b.field(1)[0].get_attack() == 1500
