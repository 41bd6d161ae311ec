"""The scenario builder of duelhost.testing: set-up anywhere, start at a turn and phase, act, Lua, printing."""

from __future__ import annotations

import pytest

from duelhost.engine import constants as C
from duelhost.testing import LuaEvalError, Scenario, ScenarioError, WrongMoment, yes

SPARKMOUSE, MOSS, BEETLE, OWL, GOLEM, TORCH = (190000001, 190000002, 190000003, 190000004, 190000005,
                                               190000006)
SOWER, TOKEN, SNARE, JAR, XYZ = 190004002, 190004003, 190004004, 190004001, 190004011
ABDUCTOR = 190002002          # a Pendulum monster (Runelight, the counters guide's cards)
CITADEL = 190002003           # a Field Spell
AEGIS = 190002005             # an Equip Spell


# ----- set-up ----------------------------------------------------------------------------------------------

def test_cards_go_where_the_test_says():
    sc = Scenario()
    m = sc.add(GOLEM, to="monster", column=3, position="defense")
    s = sc.add("Thornwall Snare", to="spell", column=3, position="set")
    f = sc.add(CITADEL, to="field zone")
    p = sc.add(ABDUCTOR, to="pendulum", column=1)
    x = sc.add(XYZ, to="monster", player=1, column=0)
    mat = sc.add(SPARKMOUSE, to="material", material_of=x)
    eq = sc.add(AEGIS, to="spell", equip_to=m)
    g = sc.add(MOSS, to="gy", player=1)
    b = sc.add(BEETLE, to="banished", position="face-down")
    e = sc.add(XYZ, to="extra")
    h = sc.add(OWL, to="hand", owner=1)
    assert (m.location, m.sequence, m.position) == (C.LOCATION_MZONE, 3, C.POS_FACEUP_DEFENSE)
    assert (s.location, s.sequence, s.is_face_down) == (C.LOCATION_SZONE, 3, True)
    assert (f.location, f.sequence) == (C.LOCATION_SZONE, 5) and "Field Zone" in f.where
    assert p.location == C.LOCATION_SZONE and p.engine.current.pzone and "Pendulum Zone (right" in p.where
    assert mat.location == C.LOCATION_OVERLAY and x.materials == [mat]
    assert eq.equipped_to == m
    assert g.controller == 1 and g.location == C.LOCATION_GRAVE
    assert b.location == C.LOCATION_REMOVED and b.is_face_down
    assert e.location == C.LOCATION_EXTRA
    assert h.owner == 1 and h.controller == 0
    sc.start()
    sc.expect(eq).equipped_to(m)
    sc.expect(f).in_field_zone()
    sc.expect(p).in_pendulum_zone()
    sc.expect(mat).is_material_of(x)


def test_first_free_column_and_default_positions():
    sc = Scenario()
    a = sc.add(SPARKMOUSE, to="monster")
    b = sc.add(MOSS, to="monster")
    j = sc.add(JAR, to="spell")
    assert (a.sequence, b.sequence, j.sequence) == (0, 1, 0)
    assert a.position == C.POS_FACEUP_ATTACK and j.is_face_up


def test_deck_order_top_first_and_bottom():
    sc = Scenario()
    sc.deck(0, SPARKMOUSE, MOSS, BEETLE)
    bottom = sc.add(OWL, to="deck", bottom=True)
    sc.start()
    sc.expect(sc.find(SPARKMOUSE)).on_top_of_deck()
    assert sc.lua("Duel.GetDecktopGroup(0, 1):GetFirst():GetCode()") == SPARKMOUSE
    assert bottom.sequence == 0


def test_counters_and_lp_and_draw_count():
    sc = Scenario()
    jar = sc.add(JAR, to="spell", counters={0xf40: 2})
    sc.add_counter(jar, 0xf40)
    sc.set_lp(1, 1234)
    sc.start()
    sc.expect(jar).has_counters(0xf40, 3)
    sc.expect_lp(1, 1234)


def test_set_up_mistakes_are_named():
    sc = Scenario()
    with pytest.raises(ScenarioError, match="no card named 'Cinderwood Sparkmous'.*did you mean: "
                                            "cinderwood sparkmouse"):
        sc.add("Cinderwood Sparkmous")
    with pytest.raises(ScenarioError, match="card 12345 has no row"):
        sc.add(12345)
    with pytest.raises(ScenarioError, match="not a monster"):
        sc.add(JAR, to="monster")
    sc.add(GOLEM, to="monster", column=2)
    with pytest.raises(ScenarioError, match="the zone is taken"):
        sc.add(MOSS, to="monster", column=2)
    with pytest.raises(ScenarioError, match="not an Xyz Monster"):
        sc.add(MOSS, to="material", material_of=sc.find(GOLEM))
    with pytest.raises(ValueError, match="unknown location 'graveyardd'"):
        sc.add(MOSS, to="graveyardd")
    sc.start()
    with pytest.raises(ScenarioError, match="before start"):
        sc.add(MOSS)


# ----- turns and phases ----------------------------------------------------------------------------------

@pytest.mark.parametrize("phase, kind, phase_value", [
    ("main1", "idle", C.PHASE_MAIN1), ("battle", "battle", C.PHASE_BATTLE_STEP), ("main2", "idle", C.PHASE_MAIN2),
    ("draw", "idle", C.PHASE_MAIN1), ("standby", "idle", C.PHASE_MAIN1)])
def test_start_at_a_phase(phase, kind, phase_value):
    sc = Scenario()
    sc.add(GOLEM, to="monster")
    view = sc.start(phase=phase)
    assert view.kind == kind and view.player == 0
    assert sc.phase == phase_value and sc.turn == 1


def test_start_at_the_opponents_turn_with_its_draw():
    sc = Scenario()
    sc.deck(1, MOSS, SPARKMOUSE)
    view = sc.start(turn=4, player=1, phase="draw")
    assert (view.kind, view.player, sc.turn, sc.turn_player) == ("idle", 1, 4, 1)
    sc.expect(sc.find(MOSS)).in_hand(1)
    assert sc.lua("Duel.GetTurnCount()") == 4
    assert sc.lua("Duel.GetTurnPlayer()") == 1
    phases = [m.phase for m in sc.messages if m.NAME == "NEW_PHASE"]
    assert phases == [C.PHASE_DRAW, C.PHASE_STANDBY, C.PHASE_MAIN1]


def test_start_at_main1_skips_draw_and_standby():
    sc = Scenario()
    sc.deck(0, MOSS)
    sc.start(turn=3)
    assert [m.phase for m in sc.messages if m.NAME == "NEW_PHASE"] == [C.PHASE_MAIN1]
    sc.expect(sc.find(MOSS)).in_deck()


def test_end_phase_start_goes_on_to_the_next_turn():
    sc = Scenario()
    sc.deck(1, MOSS)
    view = sc.start(phase="end")
    assert (view.kind, view.player, sc.turn) == ("idle", 1, 2)


def test_the_turns_go_on_and_a_deck_out_ends_the_duel():
    sc = Scenario()
    sc.deck(1, MOSS)
    sc.start()
    sc.end_turn()
    assert (sc.turn, sc.turn_player) == (2, 1)
    assert sc.end_turn() is None                         # player 0 has no card to draw
    assert sc.ended
    sc.expect_won(1)
    assert "player 0 had to draw from an empty Deck" in sc.result_words()
    with pytest.raises(WrongMoment, match="the duel has ended"):
        sc.next_phase()


# ----- actions ---------------------------------------------------------------------------------------------

def test_summon_set_and_flip():
    sc = Scenario()
    golem = sc.add(GOLEM, to="hand")
    moss = sc.add(MOSS, to="hand")
    spark = sc.add(SPARKMOUSE, to="monster", position="set")
    snare = sc.add(SNARE, to="hand")
    sc.start()
    sc.set(moss)
    sc.set(snare)
    sc.change_position(spark)                            # a Flip Summon
    sc.expect(moss).in_monster_zone().face_down().in_defense_position()
    sc.expect(snare).in_spell_zone().face_down()
    sc.expect(spark).face_up().in_attack_position()
    sc.expect_summoned(SPARKMOUSE, how="flip")
    with pytest.raises(WrongMoment, match="is not offered"):
        sc.summon(golem)                                 # the Normal Summon was used by the Set


def test_attacks_direct_and_on_a_monster():
    sc = Scenario()
    golem = sc.add(GOLEM, to="monster")                  # 800 ATK
    spark = sc.add(SPARKMOUSE, to="monster")             # 300 ATK
    torch = sc.add(TORCH, to="monster", player=1, position="defense")   # DEF 800
    sc.start()
    sc.attack(spark, torch)                              # 300 vs DEF 800: 500 damage to player 0
    sc.expect_lp(0, 7500)
    sc.expect_damage(0, 500)
    sc.attack(golem, torch)                              # 800 vs 800: nothing destroyed
    sc.expect(torch).in_monster_zone()
    sc.next_phase()                                      # Main Phase 2
    assert sc.phase == C.PHASE_MAIN2
    sc2 = Scenario()
    golem2 = sc2.add(GOLEM, to="monster")
    sc2.start()
    sc2.attack(golem2)                                   # nothing to attack: a direct attack
    sc2.expect_lp(1, 7200)


def test_next_phase_order():
    sc = Scenario()
    sc.deck(1, MOSS)
    sc.start()
    sc.next_phase()
    assert sc.view.kind == "battle"
    sc.next_phase()
    assert sc.phase == C.PHASE_MAIN2
    sc.next_phase()
    assert (sc.turn, sc.turn_player, sc.phase) == (2, 1, C.PHASE_MAIN1)


def test_a_chain_window_that_offers_something_returns_to_the_test():
    sc = Scenario()
    sower = sc.add(SOWER, to="hand")
    sc.add(SNARE, to="spell", player=1, position="set")
    sc.start()
    view = sc.summon(sower, answers=[yes()])
    assert view.kind == "chain" and view.player == 1 and "Thornwall Snare" in str(view)
    sc.pass_()
    sc.expect_summoned(TOKEN)


def test_auto_pass_passes_every_unanswered_chain_window():
    sc = Scenario(auto_pass=True)
    sower = sc.add(SOWER, to="hand")
    sc.add(SNARE, to="spell", player=1, position="set")
    sc.start()
    view = sc.summon(sower, answers=[yes()])
    assert view.kind == "idle"


def test_activate_by_description_text_and_effect_index():
    sc = Scenario()
    jar = sc.add(JAR, to="spell", counters={0xf40: 2})
    torch = sc.add(TORCH, to="monster", player=1)
    sc.start()
    sc.activate(jar, desc="Remove 2 Lumen", answers=["first"])
    sc.expect(torch).in_gy()
    sc2 = Scenario()
    jar2 = sc2.add(JAR, to="spell", counters={0xf40: 2})
    sc2.add(TORCH, to="monster", player=1)
    sc2.start()
    with pytest.raises(AssertionError, match="as its effect #1"):
        sc2.activate(jar2, index=1)                      # the counter permit and limit come first
    sc2.activate(jar2, index=7, answers=["first"])


# ----- looking -----------------------------------------------------------------------------------------------

def test_lua_values_groups_tables_and_errors():
    sc = Scenario()
    golem = sc.add(GOLEM, to="monster")
    sc.start()
    assert sc.lua("Duel.GetLP(1)") == 8000
    assert sc.lua("Duel.GetFieldGroup(0, LOCATION_MZONE, 0)") == [golem]
    assert sc.lua("{1, 2, 3}") == [1, 2, 3]
    assert sc.lua("{a = 1}") == {"a": 1}
    assert sc.lua("local x = 2 return x * 21") == 42
    assert sc.lua("(...):GetLevel() + select(2, ...)", golem, 10) == 13
    assert sc.lua("nil") is None
    with pytest.raises(LuaEvalError, match="Action is not allowed here"):
        sc.lua("Duel.Destroy(Duel.GetFieldGroup(0, LOCATION_MZONE, 0), REASON_EFFECT)")
    with pytest.raises(LuaEvalError, match="attempt to index a nil value"):
        sc.lua("nothing.here")
    with pytest.raises(LuaEvalError, match="does not compile"):
        sc.lua("return return")
    assert sc.script_errors == []
    sc.expect(golem).on_field()                          # the duel is untouched


def test_find_and_cards():
    sc = Scenario()
    a = sc.add(SPARKMOUSE, to="monster")
    b = sc.add(SPARKMOUSE, to="hand")
    c = sc.add(SPARKMOUSE, to="gy", player=1)
    assert sc.cards(SPARKMOUSE) == [a, b, c]
    assert sc.find("cinderwood sparkmouse", where="hand") == b
    assert sc.find(SPARKMOUSE, player=1) == c
    assert sc.cards(where="monster") == [a]
    with pytest.raises(ScenarioError, match="3 cards match"):
        sc.find(SPARKMOUSE)
    with pytest.raises(ScenarioError, match="no card matches"):
        sc.find(MOSS)


def test_the_board_in_words():
    sc = Scenario(counter_names={0xf40: "Lumen Counter"})
    x = sc.add(XYZ, to="monster", column=2)
    sc.add(SPARKMOUSE, to="material", material_of=x)
    sc.add(JAR, to="spell", counters={0xf40: 1})
    sc.add(CITADEL, to="field zone", player=1)
    sc.add(ABDUCTOR, to="pendulum", player=1)
    sc.add(SNARE, to="spell", player=1, position="set")
    sc.deck(0, MOSS, OWL)
    sc.add(BEETLE, to="banished", position="face-down")
    board_before = sc.board()
    assert board_before.startswith("Board (set-up, before the duel starts)")
    sc.start()
    board = sc.board()
    for text in ("Board: turn 1, player 0's Main Phase 1", "Player 1: 8000 LP",
                 "#2 Sprouting Xyz (190004011), face-up Attack Position, ATK 1900 / DEF 1200, Rank 3, "
                 "materials: Cinderwood Sparkmouse (190000001)",
                 "Lumen Jar (190004001), face-up, counters: 1 x Lumen Counter",
                 "Field Zone Runelight Citadel (190002003), face-up",
                 "Pendulum Zone Runelight Abductor (190002002)", "Thornwall Snare (190004004), face-down",
                 "Deck (top first): Cinderwood Moss Sprite (190000002), Cinderwood Hearth Owl (190000004)",
                 "Cinderwood Ember Beetle (190000003), face-down",
                 "Waiting for: player 0 to answer SELECT_IDLECMD"):
        assert text in board, text
    assert sc.show(x).startswith("Sprouting Xyz (190004011), player 0's Monster Zone #2")
    assert sc.show([x]).startswith("- Sprouting Xyz")
    assert "Waiting for" in sc.show()
    assert repr(sc) == "<Scenario turn 1, player 0's Main Phase 1; waiting for player 0: SELECT_IDLECMD>"
    assert "Main Phase menu" in str(sc.view)


# ----- the real scripts ---------------------------------------------------------------------------------------

POT_OF_GREED = 55144522
DARK_HOLE = 53129443


def test_real_cards(real_scripts, corpus_db):
    sc = Scenario(scripts=real_scripts, db=corpus_db)
    pot = sc.add("Pot of Greed", to="hand")
    hole = sc.add(DARK_HOLE, to="hand")
    sc.deck(0, 89631139, 46986414, 38033121)            # Blue-Eyes, Dark Magician, Dark Magician Girl
    sc.add(89631139, to="monster", player=1)
    sc.start()
    sc.activate(pot)
    assert len(sc.cards(where="hand", player=0)) == 3
    sc.expect(pot).in_gy()
    sc.activate(hole)
    sc.expect_destroyed(89631139, by="effect")
    assert sc.script_errors == []
