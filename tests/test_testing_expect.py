"""Expectations of duelhost.testing: each holds when it should, and fails with the board when not."""

from __future__ import annotations

import pytest

from duelhost.engine import constants as C
from duelhost.testing import ExpectationFailed, Scenario, choose, yes

GOLEM, TORCH, MOSS = 190000005, 190000006, 190000002
SOWER, TOKEN, SNARE, JAR, XYZ = 190004002, 190004003, 190004004, 190004001, 190004011


@pytest.fixture
def played() -> Scenario:
    """Sower summoned with its Token (chain of 2 with the Snare), then the Jar destroys the Torch Bearer."""
    sc = Scenario(counter_names={0xf40: "Lumen Counter"})
    jar = sc.add(JAR, to="spell", column=1)
    sower = sc.add(SOWER, to="hand")
    sc.add(SNARE, to="spell", player=1, position="set")
    torch = sc.add(TORCH, to="monster", player=1, column=2)
    sc.deck(0, MOSS)
    sc.start()
    sc.summon(sower, answers=[yes()])
    sc.activate(sc.find(SNARE))
    sc.activate(jar, answers=[choose(torch)])
    return sc


def fails(fn, *args, match: str = "", **kw) -> str:
    with pytest.raises(ExpectationFailed) as exc:
        fn(*args, **kw)
    text = str(exc.value)
    assert "Board: turn" in text and "What happened" in text
    if match:
        assert match in text, text
    return text


def test_card_expectations_hold(played: Scenario):
    sc = played
    jar, sower, torch, token = sc.find(JAR), sc.find(SOWER), sc.find(TORCH), sc.find(TOKEN)
    sc.expect(jar).in_spell_zone(1, player=0).face_up().on_field(0).has_no_counters()
    sc.expect(sower).in_gy(0).not_on_field()
    sc.expect(torch).in_gy(1).is_in("gy", player=1)
    sc.expect(token).in_monster_zone().in_defense_position().in_position("defense").face_up().has_atk(0)
    sc.expect(token).has_def(0).has_level(1).controlled_by(0)
    sc.expect(sc.find(MOSS)).in_deck(0).on_top_of_deck(0)
    sc.expect(sc.find(SNARE)).in_gy(1)


def test_card_expectations_fail_with_what_is_true(played: Scenario):
    sc = played
    jar = sc.find(JAR)
    text = fails(sc.expect(jar).in_gy)
    assert ("Expected Lumen Jar (190004001) to be in gy,\n"
            "but it is: Lumen Jar (190004001), player 0's Spell & Trap Zone #1") in text
    fails(sc.expect(jar).has_counters, 0xf40, 2, match="to have 2 x Lumen Counter,\nbut it is: 0 of them")
    fails(sc.expect(sc.find(TOKEN)).has_atk, 100, match="to have 100 ATK,\nbut it is: ATK 0")
    fails(sc.expect(sc.find(TOKEN)).in_attack_position, match="to be in Attack Position")
    fails(sc.expect(jar).in_spell_zone, 3, match="to be in spell #3")
    fails(sc.expect(jar).controlled_by, 1, match="to be controlled by player 1")
    fails(sc.expect(jar).face_down, match="to be face-down")


def test_event_expectations_hold(played: Scenario):
    sc = played
    sc.expect_summoned(SOWER, how="normal", position="attack", player=0)
    sc.expect_summoned(TOKEN, how="special", position="defense", token=True, count=1)
    sc.expect_summoned(count=2)
    sc.expect_destroyed(SOWER, by="effect")
    sc.expect_destroyed(sc.find(TORCH), by="effect")
    sc.expect_destroyed(count=2)
    sc.expect_destroyed(TORCH, since="action")
    sc.expect_chain(links=2, cards=[SOWER, SNARE])
    sc.expect_chain(links=1, cards=[JAR])
    sc.expect_activated(SNARE)
    sc.expect_moved(sc.find(TORCH), to="gy", reason=C.REASON_DESTROY)
    sc.expect_lp(0, 8000)
    sc.expect_phase("main1", player=0, turn=1)
    sc.expect_prompt("idle", player=0)
    sc.expect_no_script_errors()


def test_event_expectations_fail_with_what_happened(played: Scenario):
    sc = played
    fails(sc.expect_destroyed, SOWER, by="battle",
          match="Expected a destroyed event for the card with code 190004002 by battle, found 0.\n"
                "Destroyed since then: "
                "Seedling Sower (190004002)")
    fails(sc.expect_destroyed, SOWER, since="action", match="found 0")
    fails(sc.expect_summoned, TOKEN, position="attack", match="Summons since then: Normal Summon of Seedling Sower")
    fails(sc.expect_summoned, SOWER, token=True, match="of a Token")
    fails(sc.expect_chain, 3, match="Chains built: 2 link(s): Seedling Sower (190004002), "
                                    "Thornwall Snare (190004004) | "
                                    "1 link(s): Lumen Jar (190004001)")
    fails(sc.expect_activated, MOSS, match="activated: Seedling Sower")
    fails(sc.expect_lp, 1, 100, match="Expected player 1 to have 100 LP, but they have 8000 LP")
    fails(sc.expect_phase, "battle", match="Expected the Battle Phase (start step), but it is turn 1")
    fails(sc.expect_damage, 0, match="damage taken: none")
    fails(sc.expect_won, 0, match="no winner yet")
    fails(sc.expect_prompt, "chain", match="Expected the duel to wait for a chain decision")
    fails(sc.expect_moved, MOSS, to="hand", match="Expected the card with code 190000002 to move to hand")


def test_the_xyz_and_equip_expectations():
    sc = Scenario()
    x = sc.add(XYZ, to="monster")
    m = sc.add(GOLEM, to="material", material_of=x)
    sc.start()
    sc.expect(x).has_materials(1)
    sc.expect(m).is_material_of(x).is_in("material")
    fails(sc.expect(x).has_materials, 2, match="to have 2 Xyz material(s),\nbut it is: 1")
    fails(sc.expect(m).on_field, match="to be on the field")


def test_plain_asserts_on_cards(played: Scenario):
    token = played.find(TOKEN)
    assert (token.atk, token.defense, token.level, token.is_token) == (0, 0, 1, True)
    assert token.where == "player 0's Monster Zone #0" or token.where.startswith("player 0's Monster Zone")
    assert played.find(JAR).counters == {}
    assert played.lp(1) == 8000
