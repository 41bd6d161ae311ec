"""Scripted answers of duelhost.testing: every kind of prompt answered, and the failures.

The prompts come from a probe script (tests/data/testing_probe/c190004010.lua,
in front of the bundled scripts) that asks the question the test names in the
Lua global PROBE when its card is activated, and stores the answer in RESULT.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.engine import constants as C
from duelhost.engine.responses import OptionResponse
from duelhost.testing import (AnswerMismatch, Scenario, UnansweredPrompt, UnusedAnswers, WrongMoment, activate,
                              any_legal, attribute, cancel, choose, counters, declare, first, keep_order, no, nth,
                              number, option, order, pass_, position, race, rps, when, yes, zone)

PROBE_DIR = Path(__file__).resolve().parent / "data" / "testing_probe"
PROBE = 190004010
SPARKMOUSE, MOSS, BEETLE, OWL, GOLEM = 190000001, 190000002, 190000003, 190000004, 190000005
SUNHORN = 190000014          # Level 5: one Tribute
SOWER, SNARE, JAR = 190004002, 190004004, 190004001


def probe(kind: str, *, hand=(), deck=(), **kw) -> tuple[Scenario, object]:
    sc = Scenario(scripts=[PROBE_DIR], **kw)
    card = sc.add(PROBE, to="hand")
    for code in hand:
        sc.add(code, to="hand")
    sc.deck(0, *deck)
    sc.start()
    sc.lua(f'PROBE = "{kind}"')
    return sc, card


def result(sc: Scenario):
    return sc.lua("RESULT")


# ----- each kind of prompt ------------------------------------------------------------------------

def test_option_by_index_text_and_nth():
    for answer, want in ((option(1), 1), (option("Normal Summon"), 1), (nth(3), 2), (first(), 0),
                         (OptionResponse(index=2), 2)):
        sc, card = probe("option")
        sc.activate(card, answers=[answer])
        assert result(sc) == want


def test_yes_no_and_words():
    for answer, want in ((yes(), True), (no(), False), ("yes", True), ("no", False)):
        sc, card = probe("yesno")
        sc.activate(card, answers=[answer])
        assert result(sc) is want


def test_effect_yes_no_by_activate_and_pass():
    sc, card = probe("effectyn")
    sc.activate(card, answers=[activate(PROBE)])
    assert result(sc) is True
    sc, card = probe("effectyn")
    sc.activate(card, answers=[pass_()])
    assert result(sc) is False


def test_number_race_attribute_announce_rps():
    cases = (("number", number(5), 5), ("race", race("Dragon"), C.RACE_DRAGON),
             ("attribute", attribute("LIGHT"), C.ATTRIBUTE_LIGHT),
             ("announce", declare("Cinderwood Sparkmouse"), SPARKMOUSE),
             ("announce", declare(GOLEM), GOLEM))
    for kind, answer, want in cases:
        sc, card = probe(kind)
        sc.activate(card, answers=[answer])
        if want is not None:
            assert result(sc) == want, kind


def test_rock_paper_scissors_asks_both_players():
    sc, card = probe("rps")
    sc.activate(card, answers=[rps("paper"), rps("rock")])     # player 0, then player 1
    assert result(sc) == 0                                     # paper beats rock: player 0 wins


def test_position():
    sc, card = probe("position")
    sc.activate(card, answers=[position("defense")])
    assert result(sc) == C.POS_FACEUP_DEFENSE


def test_zone_choice_own_and_opponent():
    sc, card = probe("place")
    sc.activate(card, answers=[zone(3, location="monster")])   # zone(3) alone would also fit where
    assert result(sc) == 1 << 3                                # the Spell itself is put
    sc, card = probe("disfield")
    sc.activate(card, answers=[zone(2, player=1, location="monster")])
    assert result(sc) == 1 << (16 + 2)


def test_choose_by_code_name_card_and_predicate():
    sc, card = probe("select", hand=(SPARKMOUSE, MOSS, BEETLE))
    sc.activate(card, answers=[choose(MOSS, "Cinderwood Ember Beetle")])
    assert result(sc) == [MOSS, BEETLE]
    sc, card = probe("select", hand=(SPARKMOUSE, MOSS))
    moss = sc.find(MOSS)
    sc.activate(card, answers=[choose(moss)])
    assert result(sc) == [MOSS]
    sc, card = probe("select", hand=(SPARKMOUSE, MOSS))
    sc.activate(card, answers=[choose(lambda c: c.name.endswith("Sparkmouse"))])
    assert result(sc) == [SPARKMOUSE]


def test_choose_one_at_a_time_then_finish():
    sc, card = probe("unselect", hand=(SPARKMOUSE, MOSS, BEETLE, OWL))
    sc.activate(card, answers=[choose(OWL, SPARKMOUSE)])
    assert result(sc) == [SPARKMOUSE, OWL]


def test_choose_one_at_a_time_until_the_maximum():
    sc, card = probe("unselect", hand=(SPARKMOUSE, MOSS, BEETLE, OWL))
    sc.activate(card, answers=[choose(OWL, SPARKMOUSE, MOSS)])
    assert result(sc) == [SPARKMOUSE, MOSS, OWL]


def test_choose_for_a_sum_and_cancel():
    sc, card = probe("sum", hand=(SPARKMOUSE, MOSS, BEETLE, OWL))     # Levels 1, 1, 2, 2
    sc.activate(card, answers=[choose(BEETLE, OWL)])
    assert result(sc) == [BEETLE, OWL]
    sc, card = probe("cancel", hand=(SPARKMOUSE,))
    sc.activate(card, answers=[cancel()])
    assert result(sc) == "cancelled"


def test_sort_and_keep_order():
    sc, card = probe("sort", deck=(SPARKMOUSE, MOSS, BEETLE))          # Sparkmouse on top
    sc.activate(card, answers=[order(BEETLE, SPARKMOUSE, MOSS)])
    got = result(sc)
    assert sorted(got) == sorted([SPARKMOUSE, MOSS, BEETLE]) and got != [SPARKMOUSE, MOSS, BEETLE]
    sc, card = probe("sort", deck=(SPARKMOUSE, MOSS, BEETLE))
    sc.activate(card, answers=[keep_order()])
    assert result(sc) == [SPARKMOUSE, MOSS, BEETLE]


def test_remove_counters_from_named_cards():
    sc = Scenario(scripts=[PROBE_DIR])
    card = sc.add(PROBE, to="hand")
    jar1 = sc.add(JAR, to="spell", counters={0xf40: 2})
    jar2 = sc.add(JAR, to="spell", counters={0xf40: 1})
    sc.start()
    sc.lua('PROBE = "counter"')
    sc.activate(card, answers=[counters({jar1: 1, jar2: 1})])
    assert (jar1.counter(0xf40), jar2.counter(0xf40)) == (1, 0)


def test_tributes_for_a_tribute_summon():
    sc = Scenario()
    ram = sc.add(SUNHORN, to="hand")
    sc.add(SPARKMOUSE, to="monster")
    moss = sc.add(MOSS, to="monster")
    sc.start()
    sc.summon(ram, tributes=[moss])
    sc.expect(moss).in_gy()
    sc.expect(ram).in_monster_zone()


def test_functions_and_any_legal():
    sc, card = probe("option")
    sc.activate(card, answers=[when("option", lambda view: option(len(view.options) - 1))])
    assert result(sc) == 2
    sc, card = probe("two")

    def answer(view):
        return yes() if view.kind == "yes_no" else option(1)
    sc.activate(card, answers=[answer, answer])           # one function, two questions
    assert result(sc) == [True, 1]
    sc, card = probe("race")
    sc.activate(card, answers=[any_legal(seed=3)])
    assert bin(result(sc)).count("1") == 1
    sc, card = probe("announce")
    sc.activate(card, answers=[any_legal(seed=3)])
    assert result(sc) in sc.db


# ----- queue, rules, order ----------------------------------------------------------------------------

def test_queue_is_used_in_order_across_prompts():
    sc, card = probe("two")
    sc.answers.queue(no(), option(1))
    sc.activate(card)
    assert result(sc) == [False, 1]
    assert sc.answers.pending() == []


def test_rules_by_kind_and_times():
    sc, card = probe("two")
    sc.answers.on("yes_no", yes()).on("SELECT_OPTION", option(1), times=1)
    sc.activate(card)
    assert result(sc) == [True, 1]
    assert sc.answers._rules[1][2] == 0


def test_rules_for_the_opponent_and_chain_windows():
    sc = Scenario()
    sower = sc.add(SOWER, to="hand")
    sc.add(SNARE, to="spell", player=1, position="set")
    sc.start()
    sc.answers.on("chain", "pass").on("effect_yes_no", "yes")
    sc.summon(sower)                       # player 1's chain window is passed by the rule
    sc.expect(sower).in_monster_zone()
    sc.expect_summoned("Seedling Token")


# ----- failures -------------------------------------------------------------------------------------------

def test_an_unanswered_question_fails_with_the_question_in_words():
    sc, card = probe("select", hand=(SPARKMOUSE, MOSS))
    with pytest.raises(UnansweredPrompt) as exc:
        sc.activate(card)
    text = str(exc.value)
    assert "Player 0 (the turn player) must choose 1 to 2 card(s)" in text
    assert "prompt: SELECT_CARD" in text
    assert "1. Cinderwood Sparkmouse (190000001), player 0's hand #0" in text
    assert "2. Cinderwood Moss Sprite (190000002), player 0's hand #1" in text
    assert "Board: turn 1, player 0's Main Phase 1" in text
    assert "What happened" in text and "CHAINING link 1: Cracked Lantern (190004010)" in text


def test_an_unanswered_opponent_question():
    sc, card = probe("opponent")
    with pytest.raises(UnansweredPrompt, match=r"Player 1 \(the non-turn player\) must answer yes or no"):
        sc.activate(card)


def test_an_answer_matching_no_option_fails_with_the_options():
    sc, card = probe("select", hand=(SPARKMOUSE,))
    with pytest.raises(AnswerMismatch) as exc:
        sc.activate(card, answers=[choose("Cinderwood Forest King")])
    text = str(exc.value)
    assert "'choose \"Cinderwood Forest King\"' does not fit" in text and "is not among the options" in text
    assert "1. Cinderwood Sparkmouse (190000001)" in text


def test_too_few_cards_for_the_minimum():
    sc, card = probe("select2", hand=(SPARKMOUSE, MOSS))
    with pytest.raises(AnswerMismatch, match="names 1 card"):
        sc.activate(card, answers=[choose(MOSS)])


def test_a_queued_answer_of_another_kind_is_shown():
    sc, card = probe("yesno")
    sc.answers.queue(position("attack"))
    with pytest.raises(UnansweredPrompt, match=r"Queued answers \(none fits this prompt\): position 'attack'"):
        sc.activate(card)


def test_answers_never_asked_for_fail_the_action():
    sc, card = probe("yesno")
    with pytest.raises(UnusedAnswers, match="never asked for: option index 0"):
        sc.activate(card, answers=[yes(), option(0)])


def test_an_action_at_the_wrong_moment_says_what_the_duel_waits_for():
    sc = Scenario()
    sower = sc.add(SOWER, to="hand")
    snare = sc.add(SNARE, to="spell", player=1, position="set")
    sc.start()
    view = sc.summon(sower, answers=[yes()])
    assert view.kind == "chain" and view.player == 1
    with pytest.raises(WrongMoment, match="summon\\(\\) cannot be done now") as exc:
        sc.summon(sower)
    assert "activate Thornwall Snare (190004004)" in str(exc.value)
    sc.pass_()
    sc.expect(snare).in_spell_zone()


def test_activate_what_cannot_be_activated():
    sc = Scenario()
    jar = sc.add(JAR, to="spell")
    sc.start()
    with pytest.raises(AnswerMismatch, match="cannot be activated here"):
        sc.activate(jar)


def test_answer_answers_the_pending_prompt():
    sc = Scenario()
    sower = sc.add(SOWER, to="hand")
    sc.add(SNARE, to="spell", player=1, position="set")
    sc.start()
    sc.summon(sower, answers=[yes()])
    sc.answer(pass_())
    sc.expect_summoned("Seedling Token", position="defense")
    assert sc.view.kind == "idle"
