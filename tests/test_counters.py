"""The counters guide (../shared/seeds/000_ecf9eecf5016ad89.txt, docs/counters.md), statement
by statement, with our own cards (cards/counters.toml, scripts/c1900020xx.lua).

Every test plays a real duel through the host API (tests/test_counters_kit.py).  With
OCGCORE_LIB pointing at a build of the reference core, every duel of this file is also
replayed there and must give the same message bytes (the snippets' results are part of
the messages), except where a test declares a deliberate difference.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from duelhost.engine import constants as C
from duelhost.engine.messages import (MsgAddCounter, MsgMove, MsgRemoveCounter, MsgRetry, MsgSelectCounter,
                                      MsgSelectEffectYn, MsgSelectOption, encode_messages)
from duelhost.engine.responses import CounterResponse, InvalidResponse

_spec = importlib.util.spec_from_file_location("counters_kit", Path(__file__).with_name("test_counters_kit.py"))
kit = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("counters_kit", kit)
_spec.loader.exec_module(kit)

from counters_kit import (ABDUCTOR, ADEPT, AEGIS, CITADEL, COLLAPSE, DEFENDER, ECLIPSE, FAMILIAR,  # noqa: E402
                          HEX, HUSH, PROBE, RELIC, RELIQUARY, SERVANT, SPARK, SPELL, TOTEM, WITCH, chain,
                          counters, no, pick, yes)

MZONE, SZONE, HAND, GRAVE, REMOVED, DECK = (C.LOCATION_MZONE, C.LOCATION_SZONE, C.LOCATION_HAND,
                                            C.LOCATION_GRAVE, C.LOCATION_REMOVED, C.LOCATION_DECK)
FZONE_SEQ = 5


def desc(code: int, n: int) -> int:
    """aux.Stringid(code, n) as the 32-bit description the core stores."""
    return (code * 16 + n) & 0xFFFFFFFF


table = pytest.fixture(kit.table_factory, name="table")


def adds(msgs):
    return [(m.counter_type, m.controller, m.location, m.sequence, m.count) for m in msgs
            if isinstance(m, MsgAddCounter)]


def removes(msgs):
    return [(m.counter_type, m.controller, m.location, m.sequence, m.count) for m in msgs
            if isinstance(m, MsgRemoveCounter)]


def counter_msgs(msgs):
    return [m for m in msgs if isinstance(m, (MsgAddCounter, MsgRemoveCounter))]


# =============================================================================================
# The Basic Pattern: permit, limit, add in an operation, read later (Defender-style)
# =============================================================================================

def test_basic_pattern_normal_summon_places_one_counter_and_the_limit_holds(table):
    t = table("local c=C(%d) return c:GetCounter(0x1), c:IsCanAddCounter(0x1,1), c:AddCounter(0x1,1), "
              "c:GetCounter(0x1)" % DEFENDER)
    t.place(DEFENDER, 0, HAND)
    t.start()
    mark = t.mark()
    t.summon(DEFENDER)
    # the trigger's operation writes the counter: MSG_ADD_COUNTER (type, where, how many)
    assert adds(t.since(mark)) == [(SPELL, 0, MZONE, 0, 1)]
    assert t.counters(DEFENDER) == {SPELL: 1}
    state = t.duel.state()
    assert state.players[0].at(MZONE)[0].counters == {SPELL: 1}
    assert "counters 0x1:1" in str(state)
    # limit 1: the check says no and a second add fails, nothing is written
    mark = t.mark()
    assert t.run() == (1, False, False, 1)
    assert adds(t.since(mark)) == []


def test_basic_pattern_a_set_monster_gets_no_counter(table):
    t = table()
    t.place(DEFENDER, 0, HAND)
    t.start()
    t.set_monster(DEFENDER)
    assert t.counters(DEFENDER) == {}
    assert adds(t.messages) == []


def test_the_permit_and_limit_are_single_effects_of_the_card(table):
    t = table()
    c = t.place(DEFENDER, 0, HAND)
    t.start()
    (permit,) = c.single_effect.equal_range(C.EFFECT_COUNTER_PERMIT + SPELL)
    assert permit.type == C.EFFECT_TYPE_SINGLE and permit.is_flag(C.EFFECT_FLAG_SINGLE_RANGE)
    assert permit.range == MZONE
    (limit,) = c.single_effect.equal_range(C.EFFECT_COUNTER_LIMIT + SPELL)
    assert limit.value == 1


# =============================================================================================
# Counter types; card counters are not Counter Traps
# =============================================================================================

def test_a_counter_type_is_its_own_number(table):
    t = table("local c=C(%d) return c:AddCounter(0x1,1), c:GetCounter(0x1), c:GetCounter(0x37), "
              "c:IsCanRemoveCounter(0,0x37,1,REASON_COST), c:AddCounter(0x37,1), c:IsCanAddCounter(0x37,1)"
              % TOTEM)
    t.place(TOTEM, 0, MZONE)
    t.start()
    # holds 0x1 counters, has no 0x37 counters, and has no permit for 0x37
    assert t.run() == (True, 1, 0, False, False, False)
    assert t.counters(TOTEM) == {SPELL: 1}


def test_card_counters_are_not_counter_traps(table):
    t = table("local c=C(%d) c:AddCounter(0x1,1) return c:IsType(TYPE_COUNTER), TYPE_COUNTER, c:GetCounter(0x1)"
              % TOTEM)
    t.place(TOTEM, 0, MZONE)
    t.start()
    assert t.run() == (False, 0x100000, 1)


def test_counter_without_permit_and_the_unused_need_enable_flag(table):
    plain = 190000001     # a Normal Monster: no permit of any kind
    t = table("return COUNTER_WITHOUT_PERMIT, COUNTER_NEED_ENABLE",
              "local c=C(%d) return c:AddCounter(0x1,1), c:AddCounter(0x1001,2), c:GetCounter(0x1001), "
              "c:IsCanAddCounter(0x1001,1), c:IsCanHaveCounter(0x1001), c:AddCounter(0x2001,1), "
              "c:GetCounter(0x2001)" % plain)
    t.place(plain, 0, MZONE)
    t.start()
    assert t.run() == (0x1000, 0x2000)
    # 0x1000 in the type: no permit needed (and IsCanHaveCounter, a question about a permit, says
    # no); 0x2000 means nothing to the core (N/A): a permit is needed
    assert t.run() == (False, True, 2, True, False, False, 0)
    assert adds(t.messages) == [(0x1001, 0, MZONE, 0, 2)]


# =============================================================================================
# Permitting counters: default ranges, explicit ranges, the condition
# =============================================================================================

def test_default_permit_range_of_a_spell_is_spell_trap_and_field_zone(table):
    t = table("return C(%d):AddCounter(0x1,1), C(%d):AddCounter(0xf54,1)" % (CITADEL, RELIQUARY))
    citadel = t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    reliquary = t.place(RELIQUARY, 0, SZONE, 1, C.POS_FACEUP)
    t.start()
    (permit,) = citadel.single_effect.equal_range(C.EFFECT_COUNTER_PERMIT + SPELL)
    assert permit.range == SZONE | C.LOCATION_FZONE
    (permit,) = reliquary.single_effect.equal_range(C.EFFECT_COUNTER_PERMIT + RELIC)
    assert permit.range == SZONE | C.LOCATION_FZONE
    assert t.run() == (True, True)
    assert t.counters(CITADEL) == {SPELL: 1} and t.counters(RELIQUARY) == {RELIC: 1}


def test_explicit_range_pendulum_and_monster_zone(table):
    t = table("local c=C(%d) return c:IsLocation(LOCATION_PZONE), c:IsCanAddCounter(0x1,1), "
              "C(%d):IsCanAddCounter(0x1,1)" % (ABDUCTOR, SERVANT))
    abductor = t.place(ABDUCTOR, 0, HAND)
    t.place(SERVANT, 0, MZONE)
    t.start()
    (permit,) = abductor.single_effect.equal_range(C.EFFECT_COUNTER_PERMIT + SPELL)
    assert permit.range == C.LOCATION_PZONE | MZONE
    t.activate(ABDUCTOR, description=1160)          # to the Pendulum Zone
    assert t.run() == (True, True, True)


def test_permit_condition_callback(table):
    plain = 190000001
    t = table("local c=C(%d) COND=false c:EnableCounterPermit(0x2f,LOCATION_MZONE,function(e) return COND end) "
              "return c:IsCanAddCounter(0x2f,1), c:IsCanHaveCounter(0x2f), c:AddCounter(0x2f,1)" % plain,
              "local c=C(%d) COND=true return c:IsCanAddCounter(0x2f,1), c:IsCanHaveCounter(0x2f), "
              "c:AddCounter(0x2f,1), c:GetCounter(0x2f)" % plain,
              "local c=C(%d) COND=false return c:GetCounter(0x2f)" % plain)
    t.place(plain, 0, MZONE)
    t.start()
    assert t.run() == (False, False, False)
    assert t.run() == (True, True, True, 1)
    # the counters stay when the condition stops holding (nothing resets the card)
    assert t.run() == (1,)


# =============================================================================================
# Counter limits; adding several counters with singly
# =============================================================================================

def test_limit_refuses_a_normal_add_that_would_pass_it(table):
    t = table("local c=C(%d) Debug.PreAddCounter(c,0xf54,5) "
              "return c:IsCanAddCounter(0xf54,2), c:IsCanAddCounter(0xf54,3), c:AddCounter(0xf54,3), "
              "c:GetCounter(0xf54)" % RELIQUARY)
    t.place(RELIQUARY, 0, SZONE, 1, C.POS_FACEUP)
    t.start()
    assert t.run() == (True, False, False, 5)
    assert adds(t.messages) == []


def test_singly_adds_what_fits(table):
    """The World Legacy pattern: three monsters leave the Monster Zone for the GY at once, the
    Reliquary has room for two: AddCounter(0xf54,3,true) adds 2."""
    t = table("local c=C(%d) Debug.PreAddCounter(c,0xf54,5) "
              "return c:IsCanAddCounter(0xf54,3,true), c:GetCounter(0xf54)" % RELIQUARY,
              "return Duel.Destroy(Duel.GetFieldGroup(0,0,LOCATION_MZONE),REASON_EFFECT)",
              "local c=C(%d) return c:GetCounter(0xf54), c:IsCanAddCounter(0xf54,1,true), "
              "c:AddCounter(0xf54,1,true)" % RELIQUARY)
    t.place(RELIQUARY, 0, SZONE, 1, C.POS_FACEUP)
    for seq in range(3):
        t.place(190000001 + seq, 1, MZONE, seq)
    t.start()
    assert t.run() == (True, 5)
    mark = t.mark()
    assert t.run() == (3,)
    assert adds(t.since(mark)) == [(RELIC, 0, SZONE, 1, 2)]
    # full: even a singly add of one is refused
    assert t.run() == (7, False, False)


def test_reliquary_draws_at_seven(table):
    t = table("Debug.PreAddCounter(C(%d),0xf54,6) return Duel.Destroy(C(190000001),REASON_EFFECT)" % RELIQUARY)
    t.place(RELIQUARY, 0, SZONE, 1, C.POS_FACEUP)
    t.place(190000001, 1, MZONE)
    t.start()
    assert not t.can_activate(RELIQUARY)
    t.run()
    assert t.counters(RELIQUARY) == {RELIC: 7}
    t.activate(RELIQUARY)
    assert len(t.engine.player[0].list_hand) == 2


# =============================================================================================
# Checking before you add: three checks, three questions
# =============================================================================================

CHECKS = ("local r={} for tc in aux.Next(Duel.GetMatchingGroup(Card.IsCode,0,0x7f,0,nil,%d)) do "
          "r[#r+1]=tc:GetLocation() r[#r+1]=tc:IsCanAddCounter(0x1,1) r[#r+1]=tc:IsCanHaveCounter(0x1) "
          "r[#r+1]=Duel.IsCanAddCounter(0,0x1,1,tc) end return table.unpack(r)")


def test_the_three_checks_ask_three_questions(table):
    t = table(CHECKS % DEFENDER, CHECKS % ADEPT, "return Duel.IsCanAddCounter(0)")
    t.place(DEFENDER, 0, MZONE, 0)                                  # face-up: a recipient
    t.place(DEFENDER, 0, MZONE, 1, C.POS_FACEDOWN_DEFENSE)          # face-down
    t.place(DEFENDER, 0, HAND)
    t.place(DEFENDER, 0, GRAVE)
    t.place(ADEPT, 0, MZONE, 2)
    t.place(ADEPT, 0, HAND)
    t.start()
    # (location, Card.IsCanAddCounter, Card.IsCanHaveCounter, Duel.IsCanAddCounter) per Defender
    assert t.run() == (MZONE, True, True, True, MZONE, False, False, True,
                       HAND, False, True, True, GRAVE, False, True, True)
    # no permit at all: only the player's permission says yes
    assert t.run() == (MZONE, False, False, True, HAND, False, False, True)
    assert t.run() == (True,)


def test_duel_is_can_add_counter_ignores_the_card_limit(table):
    t = table("local c=C(%d) return c:GetCounter(0x1), c:IsCanAddCounter(0x1,1), Duel.IsCanAddCounter(0,0x1,1,c), "
              "Duel.IsCanAddCounter(0,0x1,99,c)" % DEFENDER)
    t.place(DEFENDER, 0, HAND)
    t.start()
    t.summon(DEFENDER)
    assert t.run() == (1, False, True, True)


def test_a_placement_ban_is_what_duel_is_can_add_counter_sees(table):
    ban = ("local e1=Effect.CreateEffect(C(%d)) e1:SetType(EFFECT_TYPE_FIELD) e1:SetCode(EFFECT_CANNOT_PLACE_COUNTER) "
           "e1:SetProperty(EFFECT_FLAG_PLAYER_TARGET) e1:SetRange(LOCATION_REMOVED) e1:SetTargetRange(1,0) "
           "e1:SetTarget(function(e,c,tp) return c:IsCode(%d) end) C(%d):RegisterEffect(e1)" % (PROBE, TOTEM, PROBE))
    t = table(ban + " local c=C(%d) local d=C(%d) return Duel.IsCanAddCounter(0), Duel.IsCanAddCounter(0,0x1,1,c), "
              "c:IsCanAddCounter(0x1,1), c:AddCounter(0x1,1), Duel.IsCanAddCounter(0,0x1,1,d), "
              "d:AddCounter(0x1,1), Duel.IsCanAddCounter(1,0x1,1,c)" % (TOTEM, DEFENDER))
    t.place(TOTEM, 0, MZONE, 0)
    t.place(DEFENDER, 0, MZONE, 1)
    t.start()
    # the one-argument form asks whether the player is banned outright: a ban with a target
    # function does not count there (is_player_can_action); with a card it asks the target
    assert t.run() == (True, False, False, False, True, True, True)


def test_select_target_with_is_can_add_counter(table):
    """Hexmark Witch targets with Card.IsCanAddCounter(c,0x10f1,1): face-up monsters below their
    limit, with or without a permit; not face-down ones, not a Totem at its limit of 3."""
    t = table("Debug.PreAddCounter(C(%d),0x10f1,3)" % TOTEM)
    t.place(WITCH, 0, MZONE, 0)
    t.place(TOTEM, 0, MZONE, 1)
    t.place(ADEPT, 1, MZONE, 0)
    t.place(DEFENDER, 1, MZONE, 1, C.POS_FACEDOWN_DEFENSE)
    t.start()
    t.run()
    seen = []

    def choose(p, _t):
        seen.extend((c.code, c.location.controller) for c in p.cards)
        return kit.CardsResponse(indices=(next(i for i, c in enumerate(p.cards) if c.code == ADEPT),))
    t.activate(WITCH, kit.Answer((kit.MsgSelectCard,), choose), description=desc(WITCH, 0))
    assert sorted(seen) == sorted([(WITCH, 0), (ADEPT, 1)])
    assert t.counters(ADEPT, 1) == {HEX: 1}
    assert t.card(ADEPT, 1).get_attack() == 1300 - 300


def test_servant_summons_a_monster_that_can_hold_counters_then_adds_one(table):
    """Card.IsCanHaveCounter + Duel.IsCanAddCounter for a card still in the hand; the
    counter is added after the Special Summon."""
    t = table("Debug.PreAddCounter(C(%d),0x1,2)" % SERVANT)
    t.place(SERVANT, 0, HAND)
    t.place(DEFENDER, 0, HAND)
    t.place(ADEPT, 0, HAND)
    t.start()
    t.activate(SERVANT, description=1160)
    t.run()
    offered = []

    def choose(p, _t):
        offered.extend(c.code for c in p.cards)
        return kit.CardsResponse(indices=(0,))
    mark = t.mark()
    t.activate(SERVANT, kit.Answer((kit.MsgSelectCard,), choose), description=desc(SERVANT, 0))
    assert offered == [DEFENDER]                   # Adept has no permit
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, 0, 2)]   # the cost, from the Pendulum Zone
    assert adds(t.since(mark)) == [(SPELL, 0, MZONE, 0, 1)]
    assert t.counters(DEFENDER) == {SPELL: 1} and t.counters(SERVANT) == {}


# =============================================================================================
# Adding counters at resolution
# =============================================================================================

def test_aegis_gains_a_counter_when_the_equipped_monster_battles(table):
    t = table()
    t.place(ADEPT, 0, MZONE)
    t.place(AEGIS, 0, HAND)
    t.place(190000001, 1, MZONE, pos=C.POS_FACEUP_DEFENSE)
    t.start()
    t.activate(AEGIS)
    assert t.card(ADEPT).equiping_target is None and t.card(AEGIS).equiping_target is t.card(ADEPT)
    t.end_turn()
    t.end_turn()                                  # player 0's turn 3
    t.to_battle()
    mark = t.mark()
    t.attack(ADEPT, target=190000001)
    assert adds(t.since(mark)) == [(SPELL, 0, SZONE, 0, 1)]
    assert t.counters(AEGIS) == {SPELL: 1}
    assert t.card(ADEPT).get_attack() == 1300 + 500


def test_servant_adds_to_every_card_that_can_take_one_rechecking_each(table):
    """The loop re-checks Card.IsCanAddCounter: Defender is at its limit, a face-down card
    and a card without a permit get nothing; Citadel, Totem and the Servant get one each."""
    t = table("Debug.PreAddCounter(C(%d),0x1,1)" % DEFENDER,
              "return C(%d):IsCanAddCounter(0x1,1)" % DEFENDER)
    t.place(SERVANT, 0, MZONE, 0)
    t.place(DEFENDER, 0, MZONE, 1)
    t.place(TOTEM, 0, MZONE, 2)
    t.place(DEFENDER, 0, MZONE, 3, C.POS_FACEDOWN_DEFENSE)
    t.place(ADEPT, 0, MZONE, 4)
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.start()
    t.run()
    assert t.run() == (False,)
    mark = t.mark()
    t.activate(SERVANT, description=desc(SERVANT, 1))
    got = {(m[2], m[3]) for m in adds(t.since(mark))}
    assert got == {(MZONE, 0), (MZONE, 2), (SZONE, FZONE_SEQ)}
    assert [m[4] for m in adds(t.since(mark))] == [1, 1, 1]


def test_a_recipient_that_stops_being_legal_before_resolution_gets_nothing(table):
    """In response to the Servant's effect, the probe turns the Totem face-down: the
    resolution's check skips it."""
    t = table("return Duel.ChangePosition(C(%d),POS_FACEDOWN_DEFENSE)" % TOTEM)
    t.place(SERVANT, 0, MZONE, 0)
    t.place(TOTEM, 0, MZONE, 2)
    t.start()
    mark = t.mark()
    t.activate(SERVANT, chain(PROBE), description=desc(SERVANT, 1))
    assert t.reports(mark) == [(1,)]
    assert [(m[2], m[3]) for m in adds(t.since(mark))] == [(MZONE, 0)]
    assert t.counters(TOTEM) == {}


# =============================================================================================
# Reading counters
# =============================================================================================

def test_atk_from_counters(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d),0x1,2)" % (ABDUCTOR, AEGIS))
    t.place(ABDUCTOR, 0, MZONE, 0)
    t.place(ADEPT, 0, MZONE, 1)
    t.place(AEGIS, 0, HAND)
    t.start()
    t.activate(AEGIS, pick(ADEPT))
    t.run()
    # 3 placed + 1 from Aegis's activation (a Spell Card resolving)
    assert t.counters(ABDUCTOR) == {SPELL: 4}
    assert t.card(ABDUCTOR).get_attack() == 1700 + 4 * 100
    assert t.card(ADEPT).get_attack() == 1300 + 2 * 500
    assert t.card(ADEPT).get_defense() == 1100 + 2 * 500
    assert t.duel.state().players[0].at(MZONE)[1].attack == 2300


def test_duel_get_counter_sides_from_a_players_view(table):
    t = table("Debug.PreAddCounter(C(%d,0),0x1,1) Debug.PreAddCounter(C(%d,0),0x1,2) "
              "Debug.PreAddCounter(C(%d,1),0x1,4) Debug.PreAddCounter(C(%d,1),0x10f1,8) "
              "Debug.PreAddCounter(C(%d,0),0x1,16)" % (DEFENDER, CITADEL, TOTEM, TOTEM, SERVANT),
              "return Duel.GetCounter(0,1,0,0x1), Duel.GetCounter(0,0,1,0x1), Duel.GetCounter(0,1,1,0x1), "
              "Duel.GetCounter(1,1,0,0x1), Duel.GetCounter(1,0,1,0x1), Duel.GetCounter(0,1,1,0x10f1), "
              "Duel.GetCounter(0,0,0,0x1), Duel.GetCounter(2,1,1,0x1)")
    t.place(DEFENDER, 0, MZONE)
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(TOTEM, 1, MZONE)
    t.place(SERVANT, 0, HAND)            # not on the field: not counted
    t.start()
    t.run()
    # 1,0 your field; 0,1 the opponent's; 1,1 both; from player 1's view the sides swap;
    # a bad player gives no value at all
    assert t.run() == (3, 4, 7, 4, 3, 8, 0)


def test_get_counter_zero_is_the_number_of_counter_types(table):
    t = table("local c=C(%d) c:AddCounter(0x1,2) c:AddCounter(0x10f1,3) "
              "return c:GetCounter(0), c:GetCounter(0x1)+c:GetCounter(0x10f1)" % TOTEM,
              # a type added with count 0 is a type on the card with no counters
              "local d=C(%d) return d:AddCounter(0x1,0), d:GetCounter(0), d:GetCounter(0x1)" % DEFENDER)
    t.place(TOTEM, 0, MZONE, 0)
    t.place(DEFENDER, 0, MZONE, 1)
    t.start()
    assert t.run() == (2, 5)
    mark = t.mark()
    assert t.run() == (True, 1, 0)
    assert adds(t.since(mark)) == [(SPELL, 0, MZONE, 1, 0)]


# =============================================================================================
# Removing counters from one card
# =============================================================================================

def test_abductor_pays_three_counters_as_a_cost_in_either_zone(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,2)" % ABDUCTOR,
              "Debug.PreAddCounter(C(%d),0x1,1)" % ABDUCTOR,
              "local c=C(%d) return c:IsCanRemoveCounter(0,0x1,3,REASON_COST), c:GetCounter(0x1)" % ABDUCTOR)
    t.place(ABDUCTOR, 0, HAND)
    t.start()
    t.activate(ABDUCTOR, description=1160)                 # Pendulum Zone
    t.run()
    assert t.counters(ABDUCTOR) == {SPELL: 2}
    assert not t.can_activate(ABDUCTOR)                    # 2 counters: the cost cannot be paid
    t.run()
    assert t.run() == (True, 3)
    mark = t.mark()
    t.activate(ABDUCTOR)
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, 0, 3)]
    assert t.counters(ABDUCTOR) == {}
    assert len(t.engine.player[0].list_hand) == 1          # drew 1


def test_abductor_pays_in_the_monster_zone_too(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,4)" % ABDUCTOR)
    t.place(ABDUCTOR, 0, MZONE)
    t.start()
    t.run()
    mark = t.mark()
    t.activate(ABDUCTOR)
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 3)]
    assert t.counters(ABDUCTOR) == {SPELL: 1}


def test_card_remove_counter_needs_enough_and_takes_all_or_nothing(table):
    t = table("local c=C(%d) Debug.PreAddCounter(c,0x1,2) "
              "return c:IsCanRemoveCounter(0,0x1,3,REASON_EFFECT), c:RemoveCounter(0,0x1,3,REASON_EFFECT), "
              "c:GetCounter(0x1), c:RemoveCounter(0,0x1,2,REASON_EFFECT), c:GetCounter(0x1), c:GetCounter(0)"
              % DEFENDER)
    t.place(DEFENDER, 0, MZONE)
    t.start()
    mark = t.mark()
    assert t.run() == (False, False, 2, True, 0, 0)
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 2)]


def test_remove_counter_type_zero_clears_every_type_and_returns_no_value(table):
    """Card.RemoveCounter(c,p,0,count,reason): every type comes off (one MSG_REMOVE_COUNTER
    per type, in type order, whatever ``count`` says) and no Lua value comes back.
    Deliberate difference: the reference at db4fd16 returns a boolean here."""
    t = table("local c=C(%d) Debug.PreAddCounter(c,0x10f1,3) Debug.PreAddCounter(c,0x1,2) "
              "return select('#',c:RemoveCounter(0,0,1,REASON_EFFECT)), c:GetCounter(0x1), c:GetCounter(0x10f1), "
              "c:GetCounter(0)" % TOTEM)
    t.reference_difference = "Card.RemoveCounter with type 0 returns a boolean in the reference"
    t.place(TOTEM, 0, MZONE)
    t.start()
    mark = t.mark()
    assert t.run() == (0, 0, 0, 0)
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 2), (HEX, 0, MZONE, 0, 3)]


# =============================================================================================
# Removing counters from the field: Duel.RemoveCounter and the counter selection
# =============================================================================================

def test_defender_replaces_destruction_with_counters_from_the_field(table):
    t = table("WATCH(EVENT_REMOVE_COUNTER+0x1)", "return SEEN()")
    t.place(ADEPT, 0, MZONE, 1)
    t.place(DEFENDER, 0, HAND)
    t.place(COLLAPSE, 0, HAND)
    t.start()
    t.summon(DEFENDER)
    t.run()
    mark = t.mark()
    prompts = len(t.prompts)
    t.activate(COLLAPSE, pick(ADEPT), yes(), counters(1))
    asked = [p for p in t.prompts[prompts:] if isinstance(p, (MsgSelectEffectYn, MsgSelectCounter))]
    # "use Defender's effect?" then, although only Defender has counters, the counter selection
    assert isinstance(asked[0], MsgSelectEffectYn) and asked[0].code == DEFENDER
    sel = asked[1]
    assert isinstance(sel, MsgSelectCounter)
    assert (sel.player, sel.counter_type, sel.count) == (0, SPELL, 1)
    assert [(c.code, c.controller, c.location, c.sequence, c.counter_count) for c in sel.cards] == [
        (DEFENDER, 0, MZONE, 0, 1)]
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 1)]
    assert t.card(ADEPT).current.location == MZONE            # not destroyed
    assert not [m for m in t.since(mark, MsgMove) if m.code == ADEPT]
    # Duel.RemoveCounter raised EVENT_REMOVE_COUNTER+0x1 once: ev = count, ep = the player, r = the reason
    assert t.seen() == [(C.EVENT_REMOVE_COUNTER + SPELL, 1, 0, C.REASON_COST, 0)]


def test_defender_declined_or_without_counters_lets_the_monster_go(table):
    t = table("return C(%d):GetCounter(0x1)" % DEFENDER)
    t.place(ADEPT, 0, MZONE, 1)
    t.place(DEFENDER, 0, HAND)
    t.place(COLLAPSE, 0, HAND)
    t.place(COLLAPSE, 0, HAND)
    t.start()
    t.summon(DEFENDER)
    t.activate(COLLAPSE, pick(ADEPT), no())
    assert t.card(ADEPT).current.location == GRAVE
    assert t.run() == (1,)


def test_aegis_replacement_removes_with_reason_effect_and_replace(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,1) Debug.PreAddCounter(C(%d),0x1,1) WATCH(EVENT_REMOVE_COUNTER+0x1)"
              % (AEGIS, DEFENDER), "return SEEN()")
    t.place(ADEPT, 0, MZONE, 1)
    t.place(DEFENDER, 0, MZONE, 2)
    t.place(AEGIS, 0, HAND)
    t.place(COLLAPSE, 0, HAND)
    t.start()
    t.activate(AEGIS, pick(ADEPT))
    t.run()
    mark = t.mark()
    # Defender's own replacement is offered first (declined), then Aegis's; the counter comes off Defender
    t.activate(COLLAPSE, pick(ADEPT), no(), yes(), counters(1, 0))
    assert t.card(ADEPT).current.location == MZONE
    (sel,) = t.since(mark, MsgSelectCounter)
    assert [(c.code, c.location, c.sequence) for c in sel.cards] == [(DEFENDER, MZONE, 2), (AEGIS, SZONE, 0)]
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 2, 1)]
    assert t.seen() == [(C.EVENT_REMOVE_COUNTER + SPELL, 1, 0, C.REASON_EFFECT | C.REASON_REPLACE, 0)]


def test_field_removal_sides_and_the_selection_order(table):
    t = table("Debug.PreAddCounter(C(%d,0),0x10f1,1) Debug.PreAddCounter(C(%d,1),0x10f1,2) "
              "Debug.PreAddCounter(C(%d,1),0x10f1,1)" % (ADEPT, ADEPT, TOTEM),
              "return Duel.IsCanRemoveCounter(0,1,0,0x10f1,2,REASON_COST), "
              "Duel.IsCanRemoveCounter(0,0,1,0x10f1,3,REASON_COST), "
              "Duel.IsCanRemoveCounter(0,1,1,0x10f1,4,REASON_COST), "
              "Duel.IsCanRemoveCounter(1,1,0,0x10f1,3,REASON_COST)",
              "return Duel.RemoveCounter(0,0,1,0x10f1,3,REASON_EFFECT)")
    t.place(ADEPT, 0, MZONE, 2)
    t.place(ADEPT, 1, MZONE, 0)
    t.place(TOTEM, 1, MZONE, 3)
    t.start()
    t.run()
    assert t.run() == (False, True, True, True)
    mark = t.mark()
    assert t.run(counters(2, 1)) == (True,)
    (sel,) = t.since(mark, MsgSelectCounter)
    # only the opponent's cards (o=1), in the reference's card order; counts as they are
    assert [(c.code, c.controller, c.sequence, c.counter_count) for c in sel.cards] == [
        (ADEPT, 1, 0, 2), (TOTEM, 1, 3, 1)]
    assert t.counters(ADEPT, 1) == {} and t.counters(TOTEM, 1) == {} and t.counters(ADEPT, 0) == {HEX: 1}


def test_witch_pays_hex_counters_from_anywhere_on_the_field(table):
    t = table("Debug.PreAddCounter(C(%d,0),0x10f1,1) Debug.PreAddCounter(C(%d,1),0x10f1,1)" % (ADEPT, ADEPT))
    t.place(WITCH, 0, MZONE, 0)
    t.place(ADEPT, 0, MZONE, 1)
    t.place(ADEPT, 1, MZONE, 0)
    t.place(190000001, 1, MZONE, 1)
    t.start()
    t.run()
    assert t.card(ADEPT, 1).get_attack() == 1000
    t.activate(WITCH, counters(1, 1), pick(190000001), description=desc(WITCH, 1))
    assert t.card(190000001).current.location == GRAVE
    assert t.counters(ADEPT, 0) == {} and t.counters(ADEPT, 1) == {}
    assert t.card(ADEPT, 1).get_attack() == 1300


def test_no_counters_and_no_replacement_removes_nothing_without_asking(table):
    t = table("return Duel.IsCanRemoveCounter(0,1,1,0x1,1,REASON_EFFECT), "
              "Duel.RemoveCounter(0,1,1,0x1,1,REASON_EFFECT)",
              "return rawget(Duel,'SelectCounter')==nil, rawget(Duel,'RemoveCounter')~=nil")
    t.place(DEFENDER, 0, MZONE)
    t.start()
    mark = t.mark()
    assert t.run() == (False, False)
    assert not t.since(mark, MsgSelectCounter)
    # the selection is internal to Duel.RemoveCounter: there is no Duel.SelectCounter (reading the
    # name is an error here, our libraries refuse names the reference does not have)
    assert t.run() == (True, True)


def test_removing_more_than_the_field_has_without_checking_first_locks_the_duel(table):
    """Duel.RemoveCounter only asks that the field has *some* counters of the type.  With
    fewer than asked, the selection writes MSG_RETRY without a prompt and no answer can
    satisfy it (the reference does the same): check with Duel.IsCanRemoveCounter first."""
    t = table("Debug.PreAddCounter(C(%d),0x1,1) return Duel.RemoveCounter(0,1,0,0x1,3,REASON_EFFECT)" % DEFENDER)
    t.place(DEFENDER, 0, MZONE)
    t.start()
    p = t.idle()
    t.send(kit.IdleCmdResponse(command=5, index=0))
    p = t.settle(until=lambda p: isinstance(p, MsgRetry))
    assert isinstance(p, MsgRetry) and isinstance(t.messages[-1], MsgRetry)
    for answer in (b"\x01\x00", b"\x03\x00", b"\x00\x00"):
        p = t.send(answer, check=False)
        assert isinstance(p, MsgRetry) and isinstance(t.messages[-1], MsgRetry)
    assert t.counters(DEFENDER) == {SPELL: 1}


def test_counter_selection_answers_are_validated(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,1) Debug.PreAddCounter(C(%d),0x1,3)" % (DEFENDER, CITADEL),
              "return Duel.RemoveCounter(0,1,0,0x1,2,REASON_EFFECT)")
    t.place(DEFENDER, 0, MZONE)
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.start()
    t.run()
    t.idle()
    t.send(kit.IdleCmdResponse(command=5, index=0))
    sel = t.settle(until=lambda p: isinstance(p, MsgSelectCounter))
    assert [(c.code, c.counter_count) for c in sel.cards] == [(DEFENDER, 1), (CITADEL, 3)]
    messages = len(t.messages)
    for bad, reason in (((1, 0), "must be exactly 2"), ((2, 0), "cannot remove 2"), ((0, 3), "must be exactly 2"),
                        ((0, 0), "must be exactly 2")):
        with pytest.raises(InvalidResponse, match=reason):
            t.duel.respond(CounterResponse(counts=bad))
        assert len(t.messages) == messages and t.request is sel       # nothing changed
    # raw bytes the reference refuses: MSG_RETRY, then the same question again
    p = t.send(b"\x02\x00\x00\x00", check=False)
    assert isinstance(t.messages[-1], MsgRetry) and p is t.request
    mark = t.mark()
    t.send(CounterResponse(counts=(1, 1)))
    t.settle()
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 1), (SPELL, 0, SZONE, FZONE_SEQ, 1)]
    assert t.counters(DEFENDER) == {} and t.counters(CITADEL) == {SPELL: 2}


# =============================================================================================
# Removal replacement: EFFECT_RCOUNTER_REPLACE + type (Citadel-style)
# =============================================================================================

def test_citadel_replaces_a_cost_removal_when_its_owner_agrees(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d),0x1,3) WATCH(EVENT_REMOVE_COUNTER+0x1)"
              % (CITADEL, ABDUCTOR), "return SEEN()")
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(ABDUCTOR, 0, MZONE)
    t.start()
    t.run()
    mark = t.mark()
    prompts = len(t.prompts)
    t.activate(ABDUCTOR, yes())
    (q,) = [p for p in t.prompts[prompts:] if isinstance(p, MsgSelectEffectYn)]
    # the normal way and one replacement: "use the effect of <Citadel>?" (string 220)
    assert (q.player, q.code, q.description) == (0, CITADEL, 220)
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, FZONE_SEQ, 3)]
    assert t.counters(ABDUCTOR) == {SPELL: 3} and t.counters(CITADEL) == {}
    assert len(t.engine.player[0].list_hand) == 1           # the draw happened: the cost was paid
    # a replaced removal raises no EVENT_REMOVE_COUNTER (neither does Citadel's own typed removal)
    assert t.seen() == []


def test_citadel_replacement_declined(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d),0x1,3)" % (CITADEL, ABDUCTOR))
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(ABDUCTOR, 0, MZONE)
    t.start()
    t.run()
    mark = t.mark()
    t.activate(ABDUCTOR, no())
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 3)]
    assert t.counters(CITADEL) == {SPELL: 3}


def test_replacement_counts_when_checking_and_is_the_only_way(table):
    """With no counters of its own, the Abductor can still pay: Card.IsCanRemoveCounter sees
    the replacement (checking), and the removal uses it without asking (resolving)."""
    t = table("Debug.PreAddCounter(C(%d),0x1,3) return C(%d):IsCanRemoveCounter(0,0x1,3,REASON_COST)"
              % (CITADEL, ABDUCTOR))
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(ABDUCTOR, 0, MZONE)
    t.start()
    # checking: the snippet runs as an activated effect, so Citadel's condition holds
    assert t.run() == (True,)
    assert t.can_activate(ABDUCTOR)       # the same for the Abductor's cost check
    mark = t.mark()
    prompts = len(t.prompts)
    t.activate(ABDUCTOR)
    assert not [p for p in t.prompts[prompts:] if isinstance(p, (MsgSelectEffectYn, MsgSelectOption))]
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, FZONE_SEQ, 3)]
    assert len(t.engine.player[0].list_hand) == 1


def _asked_220(t, since_prompt):
    return [p for p in t.prompts[since_prompt:] if isinstance(p, (MsgSelectEffectYn, MsgSelectOption))]


def test_citadel_condition_ev_more_than_its_counters(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,2) Debug.PreAddCounter(C(%d),0x1,3)" % (CITADEL, ABDUCTOR))
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(ABDUCTOR, 0, MZONE)
    t.start()
    t.run()
    mark, prompts = t.mark(), len(t.prompts)
    t.activate(ABDUCTOR)                                  # ev = 3, Citadel has 2: not offered
    assert _asked_220(t, prompts) == []
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 3)]


def test_citadel_condition_r_without_cost_and_ep_not_its_owner(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d,1),0x1,1)"
              % (CITADEL, ABDUCTOR, TOTEM),
              "return C(%d):RemoveCounter(0,0x1,3,REASON_EFFECT)" % ABDUCTOR,
              "return Duel.RemoveCounter(1,1,0,0x1,1,REASON_COST)")
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(ABDUCTOR, 0, MZONE)
    t.place(TOTEM, 1, MZONE)
    t.start()
    t.run()
    mark, prompts = t.mark(), len(t.prompts)
    assert t.run() == (True,)                             # r = REASON_EFFECT: not offered
    assert t.run(counters(1)) == (True,)                  # ep = 1, Citadel's owner is 0: not offered
    assert _asked_220(t, prompts) == []
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 3), (SPELL, 1, MZONE, 0, 1)]
    assert t.counters(CITADEL) == {SPELL: 3}


def test_citadel_condition_re_not_activated(table):
    """Defender's destroy replacement pays its cost from a continuous effect (re is not
    activated): Citadel is not offered, the counter selection comes at once."""
    t = table("Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d),0x1,1)" % (CITADEL, DEFENDER))
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(DEFENDER, 0, MZONE, 0)
    t.place(ADEPT, 0, MZONE, 1)
    t.place(COLLAPSE, 0, HAND)
    t.start()
    t.run()
    mark, prompts = t.mark(), len(t.prompts)
    t.activate(COLLAPSE, pick(ADEPT), yes(), counters(1, 0))
    asked = [p for p in t.prompts[prompts:] if isinstance(p, (MsgSelectEffectYn, MsgSelectOption))]
    assert [(p.code, p.description) for p in asked] == [(DEFENDER, 96)]   # Defender's own question only
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 1)]
    assert t.card(ADEPT).current.location == MZONE


def test_citadel_replaces_a_cost_of_any_activated_effect_once_per_turn(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d),0x1,3)" % (CITADEL, DEFENDER),
              "return C(%d):RemoveCounter(0,0x1,1,REASON_COST)" % DEFENDER,
              "return C(%d):RemoveCounter(0,0x1,1,REASON_COST)" % DEFENDER)
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(DEFENDER, 0, MZONE)
    t.start()
    t.run()
    mark, prompts = t.mark(), len(t.prompts)
    assert t.run(yes()) == (True,)                         # re = the probe's activated effect: offered
    assert len(_asked_220(t, prompts)) == 1
    prompts = len(t.prompts)
    assert t.run() == (True,)                              # its count limit is used up
    assert _asked_220(t, prompts) == []
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, FZONE_SEQ, 1), (SPELL, 0, MZONE, 0, 1)]
    assert t.counters(CITADEL) == {SPELL: 2} and t.counters(DEFENDER) == {SPELL: 2}


def test_citadel_gains_counters_from_other_spells(table):
    t = table()
    t.place(CITADEL, 0, HAND)
    t.place(SPARK, 0, HAND)
    t.place(SPARK, 0, HAND)
    t.start()
    t.activate(CITADEL)
    assert t.counters(CITADEL) == {}                       # its own activation does not count
    t.activate(SPARK)
    t.activate(SPARK)
    assert t.counters(CITADEL) == {SPELL: 2}
    assert t.duel.lp(0) == 9000


# =============================================================================================
# Counter events
# =============================================================================================

def test_add_counter_raises_its_event_on_the_card_only_after_the_change(table):
    """Card.AddCounter writes MSG_ADD_COUNTER, then raises EVENT_ADD_COUNTER+type as a
    *single* event: the Totem's own effect sees it (300 LP per counter, ev = the count
    placed); a field effect of another card (the probe's watcher) does not."""
    t = table("WATCH(EVENT_ADD_COUNTER+0x10f1) WATCH(EVENT_ADD_COUNTER+0x1)",
              "local c=C(%d) return c:AddCounter(0x10f1,2), c:AddCounter(0x1,1)" % TOTEM,
              "return SEEN()")
    t.place(TOTEM, 0, MZONE)
    t.start()
    t.run()
    mark = t.mark()
    assert t.run() == (True, True)
    # the event's effect runs once the snippet (the operation placing the counters) is done
    names = [m.NAME for m in t.since(mark) if m.NAME in ("ADD_COUNTER", "RECOVER")]
    assert names == ["ADD_COUNTER", "ADD_COUNTER", "RECOVER"]
    assert t.duel.lp(0) == 8000 + 2 * 300
    assert t.seen() == []


def test_remove_counter_event_comes_only_from_duel_remove_counter(table):
    t = table("WATCH(EVENT_REMOVE_COUNTER+0x1) WATCH(EVENT_REMOVE_COUNTER+0x10f1) "
              "local c=C(%d) Debug.PreAddCounter(c,0x1,2) Debug.PreAddCounter(c,0x10f1,3)" % TOTEM,
              "return C(%d):RemoveCounter(0,0x1,1,REASON_EFFECT)" % TOTEM,          # typed, one card: no event
              "return Duel.RemoveCounter(0,1,0,0x10f1,2,REASON_EFFECT)",              # field: the event
              "return SEEN()")
    t.place(TOTEM, 0, MZONE)
    t.start()
    t.run()
    assert t.run() == (True,)
    assert t.run() == (True,)
    assert t.seen() == [(C.EVENT_REMOVE_COUNTER + HEX, 2, 0, C.REASON_EFFECT, 0)]
    assert t.counters(TOTEM) == {SPELL: 1, HEX: 1}


def test_a_script_can_raise_the_remove_event_itself(table):
    t = table("WATCH(EVENT_REMOVE_COUNTER+0x1) local c=C(%d) Debug.PreAddCounter(c,0x1,2) "
              "c:RemoveCounter(0,0x1,1,REASON_EFFECT) "
              "Duel.RaiseEvent(c,EVENT_REMOVE_COUNTER+0x1,e,REASON_EFFECT,0,0,1)" % TOTEM,
              "return SEEN()")
    t.place(TOTEM, 0, MZONE)
    t.start()
    t.run()
    assert t.seen() == [(C.EVENT_REMOVE_COUNTER + SPELL, 1, 0, C.REASON_EFFECT, 1)]


# =============================================================================================
# Lifecycle: counters belong to the card's current stay on the field
# =============================================================================================

LOAD = "WATCH(EVENT_REMOVE_COUNTER+0x1) WATCH(EVENT_REMOVE_COUNTER+0x10f1) " \
       "local c=C(%d) Debug.PreAddCounter(c,0x1,2) Debug.PreAddCounter(c,0x10f1,3) return c:GetCounter(0)" % TOTEM


@pytest.mark.parametrize("move, where", [
    ("Duel.SendtoHand(c,nil,REASON_EFFECT)", HAND),
    ("Duel.SendtoDeck(c,nil,SEQ_DECKSHUFFLE,REASON_EFFECT)", DECK),
    ("Duel.SendtoGrave(c,REASON_EFFECT)", GRAVE),
    ("Duel.Destroy(c,REASON_EFFECT)", GRAVE),
    ("Duel.Remove(c,POS_FACEUP,REASON_EFFECT)", REMOVED),
    ("Duel.Overlay(C(%d),Group.FromCards(c))" % ADEPT, C.LOCATION_OVERLAY),
    ("Duel.Equip(0,c,C(%d))" % ADEPT, SZONE),                                 # monster -> Spell & Trap Zone
    ("Duel.ChangePosition(c,POS_FACEDOWN_DEFENSE)", MZONE),                   # turned face-down
    ("Duel.Remove(c,POS_FACEUP,REASON_EFFECT+REASON_TEMPORARY) Duel.ReturnToField(c)", MZONE),
])
def test_counters_vanish_silently_when_the_card_moves(table, move, where):
    t = table(LOAD, "local c=C(%d) %s return c:GetLocation(), c:GetCounter(0x1), c:GetCounter(0x10f1), "
                    "c:GetCounter(0)" % (TOTEM, move), "return SEEN()")
    t.place(TOTEM, 0, MZONE, 0)
    t.place(ADEPT, 0, MZONE, 1)
    t.start()
    assert t.run() == (2,)
    mark = t.mark()
    assert t.run() == (where, 0, 0, 0)
    assert counter_msgs(t.since(mark)) == []          # no MSG_REMOVE_COUNTER
    assert t.seen() == []                             # no EVENT_REMOVE_COUNTER
    assert t.counters(TOTEM) == {}


def test_a_change_of_control_keeps_the_counters(table):
    t = table(LOAD, "local c=C(%d) return Duel.GetControl(c,1), c:GetControler(), c:GetCounter(0x1), "
                    "c:GetCounter(0x10f1)" % TOTEM)
    t.place(TOTEM, 0, MZONE, 0)
    t.start()
    t.run()
    mark = t.mark()
    assert t.run() == (True, 1, 2, 3)
    assert counter_msgs(t.since(mark)) == []


def test_a_permit_that_goes_away_takes_its_counters_with_a_message(table):
    """A permit is an effect like any other: when it is reset, the card loses the counters of
    its type, and the core writes MSG_REMOVE_COUNTER (no event)."""
    plain = 190000001
    t = table("WATCH(EVENT_REMOVE_COUNTER+0x2f) local c=C(%d) local e1=Effect.CreateEffect(c) "
              "e1:SetType(EFFECT_TYPE_SINGLE) e1:SetCode(EFFECT_COUNTER_PERMIT+0x2f) "
              "e1:SetProperty(EFFECT_FLAG_SINGLE_RANGE) e1:SetRange(LOCATION_MZONE) "
              "e1:SetReset(RESET_EVENT+RESETS_STANDARD+RESET_PHASE+PHASE_END) c:RegisterEffect(e1) "
              "return c:AddCounter(0x2f,2)" % plain,
              "return C(%d):GetCounter(0x2f), SEEN()" % plain)
    t.place(plain, 0, MZONE, 0)
    t.start()
    assert t.run() == (True,)
    mark = t.mark()
    t.end_turn()
    assert removes(t.since(mark)) == [(0x2f, 0, MZONE, 0, 2)]
    t.end_turn()
    assert t.run() == (0,)


def test_counters_on_a_card_off_the_field_go_when_it_reaches_the_field(table):
    t = table("local c=C(%d) Debug.PreAddCounter(c,0x1,2) return c:GetLocation(), c:GetCounter(0x1)" % TOTEM)
    t.place(TOTEM, 0, HAND)
    t.start()
    assert t.run() == (HAND, 2)                        # Debug.PreAddCounter puts them anywhere
    mark = t.mark()
    t.summon(TOTEM)
    assert t.counters(TOTEM) == {} and counter_msgs(t.since(mark)) == []


def test_pendulum_zone_to_monster_zone_is_a_new_stay(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,2)" % ABDUCTOR,
              "local c=C(%d) Duel.SpecialSummon(c,0,0,0,false,false,POS_FACEUP) return c:GetLocation(), "
              "c:GetCounter(0x1)" % ABDUCTOR)
    t.place(ABDUCTOR, 0, HAND)
    t.start()
    t.activate(ABDUCTOR, description=1160)
    t.run()
    assert t.run() == (MZONE, 0)


def test_eclipse_turns_it_face_down_and_the_counters_go(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,1)" % DEFENDER,
              "return Duel.ChangePosition(C(%d),POS_FACEUP_ATTACK), C(%d):GetCounter(0x1)" % (DEFENDER, DEFENDER))
    t.place(DEFENDER, 1, MZONE)
    t.place(ECLIPSE, 0, HAND)
    t.start()
    t.run()
    mark = t.mark()
    t.activate(ECLIPSE)
    assert t.card(DEFENDER).current.position == C.POS_FACEDOWN_DEFENSE
    assert t.counters(DEFENDER) == {} and counter_msgs(t.since(mark)) == []
    assert t.run() == (1, 0)                         # face-up again: still none


def test_disable_reset_removes_permit_counters_and_keeps_without_permit_ones(table):
    t = table("WATCH(EVENT_REMOVE_COUNTER+0x1) WATCH(EVENT_REMOVE_COUNTER+0x10f1) "
              "local c=C(%d) Debug.PreAddCounter(c,0x1,2) Debug.PreAddCounter(c,0x10f1,3)" % TOTEM,
              "return SEEN()")
    t.place(TOTEM, 1, MZONE, 2)
    t.place(HUSH, 0, HAND)
    t.start()
    t.run()
    mark = t.mark()
    t.activate(HUSH)
    assert t.card(TOTEM).is_status(C.STATUS_DISABLED)
    # the reset writes MSG_REMOVE_COUNTER for the permitted type, raises no event
    assert removes(t.since(mark)) == [(SPELL, 1, MZONE, 2, 2)]
    assert t.counters(TOTEM) == {HEX: 3}
    assert t.seen() == []


def test_servant_records_its_counters_and_restores_them_in_the_pendulum_zone(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,2)" % SERVANT)
    t.place(SERVANT, 0, MZONE)
    t.place(COLLAPSE, 0, HAND)
    t.start()
    t.run()
    mark = t.mark()
    t.activate(COLLAPSE, pick(SERVANT), yes())
    servant = t.card(SERVANT)
    assert servant.current.location == SZONE and servant.current.sequence in (0, 4)
    msgs = t.since(mark)
    assert removes(msgs) == []                                          # destroyed silently
    assert adds(msgs) == [(SPELL, 0, SZONE, servant.current.sequence, 2)]  # restored: 2
    assert t.counters(SERVANT) == {SPELL: 2}


# =============================================================================================
# Debug.PreAddCounter, and counters in the state query and the messages
# =============================================================================================

def test_debug_pre_add_counter(table):
    t = table("WATCH(EVENT_ADD_COUNTER+0x1) local c=C(%d) Debug.PreAddCounter(c,0x1) Debug.PreAddCounter(c,0x1,2) "
              "Debug.PreAddCounter(c,0x2345,7) Debug.PreAddCounter(C(%d),0x1,3) "
              "return c:GetCounter(0x1), c:GetCounter(0x2345), c:GetCounter(0), C(%d):GetCounter(0x1)"
              % (ADEPT, DEFENDER, DEFENDER),
              "return SEEN()")
    t.place(ADEPT, 0, MZONE)
    t.place(DEFENDER, 0, MZONE, 1)
    t.start()
    mark = t.mark()
    # no permit needed, no limit (Defender holds 1), the count defaults to 1; no message, no event
    assert t.run() == (3, 7, 2, 3)
    assert counter_msgs(t.since(mark)) == []
    assert t.seen() == []


def test_counters_in_the_state_and_the_card_query(table):
    from duelhost.engine.core_constants import QUERY_COUNTERS
    t = table("local c=C(%d) c:AddCounter(0x1,2) c:AddCounter(0x10f1,1)" % TOTEM)
    t.place(TOTEM, 1, MZONE, 3)
    t.start()
    t.run()
    card = t.duel.state().players[1].at(MZONE)[0]
    assert (card.code, card.counters) == (TOTEM, {SPELL: 2, HEX: 1})
    assert "counters 0x1:2, 0x10f1:1" in str(t.duel.state())
    raw = t.engine.query_card(1, MZONE, 3, QUERY_COUNTERS, False)
    # length, flags, then the number of types and one u32 per type: type | count << 16, by type
    assert raw[4:8] == QUERY_COUNTERS.to_bytes(4, "little")
    assert raw[8:] == (2).to_bytes(4, "little") + (SPELL | 2 << 16).to_bytes(4, "little") + \
        (HEX | 1 << 16).to_bytes(4, "little")


def test_counter_messages_bytes(table):
    from duelhost.engine.core_constants import MSG_ADD_COUNTER, MSG_REMOVE_COUNTER
    t = table("local c=C(%d) c:AddCounter(0x10f1,2) return c:RemoveCounter(0,0x10f1,1,REASON_EFFECT)" % TOTEM)
    t.place(TOTEM, 1, MZONE, 3)
    t.start()
    mark = t.mark()
    t.run()
    add, rem = counter_msgs(t.since(mark))
    # MSG_ADD_COUNTER / MSG_REMOVE_COUNTER: type u16, controller, location, sequence, count u16
    assert encode_messages([add]) == bytes([MSG_ADD_COUNTER]) + HEX.to_bytes(2, "little") + \
        bytes([1, MZONE, 3]) + (2).to_bytes(2, "little")
    assert encode_messages([rem]) == bytes([MSG_REMOVE_COUNTER]) + HEX.to_bytes(2, "little") + \
        bytes([1, MZONE, 3]) + (1).to_bytes(2, "little")


# =============================================================================================
# Common Pitfalls: each row's wrong way and right way, and the difference they make
# =============================================================================================

def test_pitfall_add_counter_without_a_permit(table):
    plain = 190000001
    t = table("local c=C(%d) return c:AddCounter(0x1,1), c:GetCounter(0x1)" % plain,            # wrong
              "local c=C(%d) c:EnableCounterPermit(0x1) return c:AddCounter(0x1,1), c:GetCounter(0x1)" % plain,
              "local c=C(%d) return c:AddCounter(0x1001,1), c:GetCounter(0x1001)" % ADEPT)   # or a 0x1000 type
    t.place(plain, 0, MZONE, 0)
    t.place(ADEPT, 0, MZONE, 1)
    t.start()
    mark = t.mark()
    assert t.run() == (False, 0)
    assert counter_msgs(t.since(mark)) == []
    assert t.run() == (True, 1)
    assert t.run() == (True, 1)


def test_pitfall_default_permit_range_on_a_pendulum_monster(table):
    """Familiar keeps the default range (Monster Zone): in the Pendulum Zone its counter
    effect places nothing; Abductor, with LOCATION_PZONE+LOCATION_MZONE, gets the counter."""
    t = table()
    t.place(FAMILIAR, 0, HAND)
    t.place(ABDUCTOR, 0, HAND)
    t.place(SPARK, 0, HAND)
    t.start()
    t.activate(FAMILIAR, description=1160)
    t.activate(ABDUCTOR, description=1160)
    assert t.card(FAMILIAR).current.sequence != t.card(ABDUCTOR).current.sequence
    mark = t.mark()
    t.activate(SPARK)
    assert t.counters(FAMILIAR) == {}                              # wrong way
    assert t.counters(ABDUCTOR) == {SPELL: 1}                      # right way
    assert [(m[0], m[2]) for m in adds(t.since(mark))] == [(SPELL, SZONE)]


def test_pitfall_default_range_still_works_in_the_monster_zone(table):
    t = table()
    t.place(FAMILIAR, 0, MZONE)
    t.place(SPARK, 0, HAND)
    t.start()
    t.activate(SPARK)
    assert t.counters(FAMILIAR) == {SPELL: 1}


def test_pitfall_duel_is_can_add_counter_is_not_a_card_check(table):
    wrong = "function(c) return Duel.IsCanAddCounter(0,0x1,1,c) end"
    right = "function(c) return c:IsCanHaveCounter(0x1) and Duel.IsCanAddCounter(0,0x1,1,c) end"
    summon = ("local g=Duel.GetMatchingGroup(%s,0,LOCATION_HAND,0,nil) local n=#g local tc=C(%d,0) "
              "local ok=g:IsContains(tc) Duel.SpecialSummon(tc,0,0,0,false,false,POS_FACEUP) "
              "return n, ok, tc:AddCounter(0x1,1), tc:GetCounter(0x1)")
    t = table(summon % (wrong, ADEPT), summon % (right, DEFENDER),
              # on the field: a Defender at its limit passes Duel.IsCanAddCounter, not Card.IsCanAddCounter
              "local c=C(%d,0) return Duel.IsCanAddCounter(0,0x1,1,c), c:IsCanAddCounter(0x1,1)" % DEFENDER)
    t.place(ADEPT, 0, HAND)
    t.place(DEFENDER, 0, HAND)
    t.start()
    # wrong: both hand monsters pass, the Adept is summoned and the counter cannot be placed
    assert t.run() == (2, True, False, 0)
    # right: only the Defender passes; it is summoned and takes the counter
    assert t.run() == (1, True, True, 1)
    assert t.run() == (True, False)


def test_pitfall_forgetting_counter_limits(table):
    plain = 190000001
    t = table("local c=C(%d) c:EnableCounterPermit(0xf54) return c:AddCounter(0xf54,9), c:GetCounter(0xf54)" % plain,
              "local c=C(%d) Debug.PreAddCounter(c,0xf54,5) return c:AddCounter(0xf54,3), c:GetCounter(0xf54), "
              "c:AddCounter(0xf54,3,true), c:GetCounter(0xf54)" % RELIQUARY)
    t.place(plain, 0, MZONE)
    t.place(RELIQUARY, 0, SZONE, 1, C.POS_FACEUP)
    t.start()
    assert t.run() == (True, 9)                 # no limit: nothing stops the count
    assert t.run() == (False, 5, True, 7)       # the limit refuses 3 of 2 free; singly adds the 2 that fit


def test_pitfall_reading_get_counter_zero_as_a_total(table):
    t = table("local c=C(%d) Debug.PreAddCounter(c,0x1,2) Debug.PreAddCounter(c,0x10f1,3) "
              "return c:GetCounter(0), c:GetCounter(0x1), c:GetCounter(0x10f1)" % TOTEM)
    t.place(TOTEM, 0, MZONE)
    t.start()
    assert t.run() == (2, 2, 3)                 # 2 types, not 5 counters


def test_pitfall_removing_counters_from_the_wrong_place(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,1) Debug.PreAddCounter(C(%d),0x1,2)" % (DEFENDER, CITADEL),
              # a pool spread over two cards: one card alone cannot pay 3
              "return C(%d):IsCanRemoveCounter(0,0x1,3,REASON_EFFECT), C(%d):RemoveCounter(0,0x1,3,REASON_EFFECT)"
              % (CITADEL, CITADEL),
              "return Duel.IsCanRemoveCounter(0,1,0,0x1,3,REASON_EFFECT), "
              "Duel.RemoveCounter(0,1,0,0x1,3,REASON_EFFECT)",
              "Debug.PreAddCounter(C(%d),0x1,1) Debug.PreAddCounter(C(%d),0x1,2)" % (DEFENDER, CITADEL),
              # one known card: Duel.RemoveCounter lets the player take them from another card
              "return Duel.RemoveCounter(0,1,0,0x1,1,REASON_EFFECT), C(%d):GetCounter(0x1)" % DEFENDER,
              "return C(%d):RemoveCounter(0,0x1,1,REASON_EFFECT), C(%d):GetCounter(0x1)" % (DEFENDER, DEFENDER))
    t.place(DEFENDER, 0, MZONE)
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.start()
    t.run()
    assert t.run() == (False, False)
    assert t.run(counters(1, 2)) == (True, True)
    assert t.counters(DEFENDER) == {} and t.counters(CITADEL) == {}
    t.run()
    assert t.run(counters(0, 1)) == (True, 1)   # meant Defender's; the counter came off Citadel
    assert t.run() == (True, 0)


def test_pitfall_expecting_counters_to_survive_a_move(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,2) Debug.PreAddCounter(C(%d),0x1,2)" % (SERVANT, ABDUCTOR),
              # wrong: move the Abductor (no record) to the GY and back to the Pendulum Zone
              "local c=C(%d) Duel.Destroy(c,REASON_EFFECT) Duel.MoveToField(c,0,0,LOCATION_PZONE,POS_FACEUP,true) "
              "return c:GetLocation(), c:GetCounter(0x1)" % ABDUCTOR)
    t.place(SERVANT, 0, MZONE, 0)
    t.place(ABDUCTOR, 0, MZONE, 1)
    t.place(COLLAPSE, 0, HAND)
    t.start()
    t.run()
    assert t.run() == (SZONE, 0)
    # right: the Servant recorded its 2 counters before leaving and adds them back
    t.activate(COLLAPSE, pick(SERVANT), yes())
    assert t.card(SERVANT).current.location == SZONE and t.counters(SERVANT) == {SPELL: 2}


# =============================================================================================
# Random play with decks of our counter cards (with OCGCORE_LIB: the same bytes as the reference)
# =============================================================================================

@pytest.mark.parametrize("seed", [1, 2, 4])
def test_random_play_with_counter_decks(table, seed):
    import random

    from duelhost.players import RandomPlayer
    rng = random.Random(seed)
    t = table(seed=seed, start_hand=5)
    ours = list(range(DEFENDER, ECLIPSE + 1))
    for p in (0, 1):
        deck = [c for c in ours for _ in range(2)] + rng.sample(range(190000001, 190000021), 12)
        rng.shuffle(deck)
        t.deck(p, deck)
    t.start(settle=False)
    players = [RandomPlayer(seed * 2), RandomPlayer(seed * 2 + 1)]
    for _ in range(500):
        p = t.advance()
        if p is None:
            break
        t.send(players[p.player](t.duel, p))
    assert t.script_errors() == []
    assert adds(t.messages)                   # counters were placed
