"""Bug-report dumps: the board as a puzzle file (Debug library), loaded back through the host."""

from __future__ import annotations

import pytest

from duelhost.testing import LuaScriptError, Scenario, board_signature, choose, dump_puzzle, load_puzzle, yes

SPARKMOUSE, MOSS, BEETLE, OWL, GOLEM, TORCH = (190000001, 190000002, 190000003, 190000004, 190000005,
                                               190000006)
SOWER, TOKEN, SNARE, JAR, XYZ = 190004002, 190004003, 190004004, 190004001, 190004011
ABDUCTOR, CITADEL, AEGIS = 190002002, 190002003, 190002005


def rich_board() -> Scenario:
    sc = Scenario()
    x = sc.add(XYZ, to="monster", column=1, position="defense")
    sc.add(GOLEM, to="material", material_of=x)
    sc.add(TORCH, to="material", material_of=x)
    m = sc.add(OWL, to="monster", column=3)
    sc.add(AEGIS, to="spell", column=2, equip_to=m)
    sc.add(JAR, to="spell", column=3, counters={0xf40: 2})
    sc.add(CITADEL, to="field zone")
    sc.add(ABDUCTOR, to="pendulum", column=0)
    sc.add(SNARE, to="spell", player=1, position="set")
    sc.add(SPARKMOUSE, to="monster", player=1, column=4, position="set")
    sc.add(MOSS, to="hand", player=1, owner=0)        # (a monster would go back to its owner at once)
    sc.deck(0, MOSS, BEETLE, OWL)
    sc.add(SPARKMOUSE, to="deck", bottom=True)
    sc.hand(0, SOWER, JAR)
    sc.hand(1, SPARKMOUSE)
    sc.gy(1, BEETLE, OWL)
    sc.banished(0, GOLEM)
    sc.add(TORCH, to="banished", player=1, position="face-down")
    sc.extra(0, XYZ)
    sc.set_lp(1, 4000)
    sc.start()
    return sc


def test_a_dump_round_trips():
    sc = rich_board()
    text = sc.dump_puzzle()
    again = load_puzzle(text)
    assert board_signature(again) == board_signature(sc)
    assert again.view.kind == "idle" and again.turn == 1


def test_the_dump_is_a_puzzle_file():
    sc = rich_board()
    text = dump_puzzle(sc)
    assert text.startswith("--[[message\n")
    assert "Dumped at turn 1, player 0's Main Phase 1." in text
    assert "Debug.ReloadFieldBegin(DUEL_ATTACK_FIRST_TURN+DUEL_SIMPLE_AI,5)" in text
    assert "Debug.SetPlayerInfo(1,4000,0,0)" in text
    assert "Debug.AddCard(190004011,0,0,LOCATION_MZONE,1,POS_FACEUP_DEFENSE,true) --Sprouting Xyz" in text
    assert ("Debug.AddCard(190000005,0,0,LOCATION_MZONE,1,POS_FACEUP_ATTACK) "
            "--Cinderwood Pebble Golem (Xyz material)") in text
    assert "Debug.PreAddCounter(c[" in text and ",0xf40,2)" in text
    assert "Debug.PreEquip(c[" in text
    assert "LOCATION_PZONE,0,POS_FACEUP) --Runelight Abductor" in text
    assert "Debug.AddCard(190000002,0,1,LOCATION_HAND,0,POS_FACEDOWN)" in text     # owner 0, player 1
    assert text.rstrip().endswith("Debug.ReloadFieldEnd()\naux.BeginPuzzle()")


def test_a_dump_after_play_round_trips(tmp_path):
    sc = Scenario()
    jar = sc.add(JAR, to="spell")
    sower = sc.add(SOWER, to="hand")
    torch = sc.add(TORCH, to="monster", player=1)
    sc.start()
    sc.summon(sower, answers=[yes()])                    # a Token and 2 counters
    sc.activate(jar, answers=[choose(torch)])
    path = tmp_path / "after.lua"
    sc.dump_puzzle(path)
    again = load_puzzle(path)
    assert board_signature(again) == board_signature(sc)
    again.expect(again.find(TOKEN)).in_defense_position()
    assert "PreSummon" in path.read_text()


def test_a_loaded_puzzle_plays_like_single_mode():
    text = "\n".join([
        "Debug.ReloadFieldBegin(DUEL_ATTACK_FIRST_TURN+DUEL_SIMPLE_AI,5)",
        "Debug.SetPlayerInfo(0,8000,0,0)",
        "Debug.SetPlayerInfo(1,800,0,0)",
        "Debug.AddCard(190000005,0,0,LOCATION_MZONE,2,POS_FACEUP_ATTACK,true)",
        "Debug.ReloadFieldEnd()",
        "aux.BeginPuzzle()", ""])
    sc = load_puzzle(text)
    golem = sc.find(GOLEM)
    assert sc.turn == 1 and sc.view.kind == "idle"
    assert sc.attack(golem) is None                      # 800 damage: the puzzle is solved
    sc.expect_won(0)


def test_a_broken_puzzle_fails_readably():
    with pytest.raises(LuaScriptError, match="while running the puzzle file puzzle.lua"):
        load_puzzle("Debug.ReloadFieldBegin(DUEL_ATTACK_FIRST_TURN,5)\nDebug.AddCard(\n")


def test_duelhost_puzzle_loads_the_dump_too(tmp_path):
    from duelhost.puzzle import load_puzzle as puzzle_command_loader      # what `duelhost puzzle FILE` runs
    sc = rich_board()
    path = tmp_path / "bug.lua"
    sc.dump_puzzle(path)
    duel = puzzle_command_loader(path)
    assert board_signature(duel) == board_signature(sc)
