"""duelhost play's board and log read as the client tells them: Set cards (named for their
owner, hidden for the opponent), targets by name, summon kinds by name, copies grouped
"×3", counters by name, the turn and phase by name.  The last test drives
``duelhost puzzle`` through tmux, as tests/test_play_tmux.py does."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from duelhost import Duel
from duelhost.counter_names import counter_name
from duelhost.engine import constants as C
from duelhost.engine.messages import LocInfo, MsgBecomeTarget, MsgSpSummoning, MsgSummoning
from duelhost.play import PlaySession, Words, board_text, grouped, narrate, phase_words
from duelhost.puzzle import load_puzzle

REPO = Path(__file__).resolve().parent.parent
BOARD_PUZZLE = REPO / "tests" / "data" / "puzzles" / "board_words.lua"


@pytest.fixture()
def board() -> Duel:
    duel = load_puzzle(BOARD_PUZZLE)
    duel.advance()
    return duel


def test_set_cards_are_named_for_their_owner_and_hidden_for_the_opponent(board: Duel) -> None:
    mine = board_text(board, 0).splitlines()
    assert "      S1  Set card: Snare Pit" in mine
    assert "      M1  Set card: Gavel Clerk  500/500  L1  [set DEF]" in mine
    assert "      S2  Set card" in mine and "      M4  Set card  [set DEF]" in mine
    text = "\n".join(mine)
    assert "Rebuke" not in text and "Gavel Juror" not in text and "0xa" not in text
    theirs = board_text(board, 1)
    assert "S2  Set card: Rebuke" in theirs and "Snare Pit" not in theirs
    assert "S1  Set card: Snare Pit" in board_text(board, None)   # the hot-seat / full view


def test_copies_are_grouped_and_counters_named(board: Duel) -> None:
    text = board_text(board, 0)
    assert "    Extra Deck: Sprouting Xyz \u00d73" in text.splitlines()
    assert "    GY: Gavel Bailiff \u00d73" in text.splitlines()
    assert "counters: 1 Spell Counter" in text
    assert "Extra Deck" not in board_text(board, 0).split("[P0]")[0]      # the opponent's stays hidden
    assert grouped(["A", "B", "A", "A"]) == "A \u00d73, B"


def test_counter_names_table() -> None:
    assert counter_name(0x1) == "Spell Counter"
    assert counter_name(0x3) == "Bushido Counter"
    assert counter_name(0xf40) == "Lumen Counter"          # our own Lumen Jar
    assert counter_name(0x10f1) == "Hex Counter"           # our own, with the without-permit bit
    assert counter_name(0x2001) == "Spell Counter"         # the permit flag is not part of the name
    assert counter_name(0xabc) == "Counter 0xabc"


def test_targets_in_the_gy_are_named(board: Duel) -> None:
    w = Words(board, 0)
    gy = LocInfo(controller=0, location=C.LOCATION_GRAVE, sequence=1, position=C.POS_FACEUP)
    assert narrate(MsgBecomeTarget(cards=(gy,)), w) == "targeted: Gavel Bailiff (your GY)"


def test_summon_kinds_by_name(board: Duel) -> None:
    w = Words(board, 0)
    card = board.engine.get_field_card(0, C.LOCATION_MZONE, 2)          # Runelight Defender
    at = LocInfo(controller=0, location=C.LOCATION_MZONE, sequence=2, position=C.POS_FACEUP_DEFENSE)
    for kind, words in ((C.SUMMON_TYPE_SYNCHRO, "Synchro Summoned"), (C.SUMMON_TYPE_XYZ, "Xyz Summoned"),
                        (C.SUMMON_TYPE_LINK, "Link Summoned"), (C.SUMMON_TYPE_FUSION, "Fusion Summoned"),
                        (C.SUMMON_TYPE_RITUAL, "Ritual Summoned"), (C.SUMMON_TYPE_PENDULUM, "Pendulum Summoned"),
                        (C.SUMMON_TYPE_SPECIAL, "Special Summoned")):
        card.summon_info = kind | (C.LOCATION_EXTRA << 16)
        assert narrate(MsgSpSummoning(code=190002001, loc=at), w) == \
            f"Runelight Defender is {words} to your M3", kind
    card.summon_info = C.SUMMON_TYPE_ADVANCE | (C.LOCATION_HAND << 16)
    assert narrate(MsgSummoning(code=190002001, loc=at), w) == "Runelight Defender is Tribute Summoned to your M3"
    # a message about a card that has moved on since: the plain word
    assert narrate(MsgSpSummoning(code=190001001, loc=at), w) == "Gavel Clerk is Special Summoned to your M3"


def test_turn_and_phase_by_name() -> None:
    duel = Duel(seed=1)
    duel.set_player(0, start_hand=0)
    duel.set_player(1, start_hand=0)
    duel.start()
    duel.advance()
    first = board_text(duel, 0).splitlines()[0]
    assert "0x" not in first and "Turn " in first
    assert phase_words(0, 0) == "before the first turn"
    assert str(Duel(seed=1).state()).splitlines()[0] == "Turn 0, before the first turn"   # not "0x0 Phase"
    assert phase_words(1, C.PHASE_MAIN2) == "Main Phase 2"


def test_a_chain_is_logged_with_names(board: Duel) -> None:
    session = PlaySession(board, ["human", "human"], viewer=0)
    q = session.next_question()
    session.take_log()
    session.answer(q, str(next(c.key for c in q.choices if "Activate Revival Rite" in c.label)))
    q = session.next_question()
    while "zone" in q.title:
        session.answer(q, "1")
        q = session.next_question()
    session.answer(q, "1")                                     # the first Gavel Bailiff
    session.next_question()
    log = session.take_log()
    assert "targeted: Gavel Bailiff (your GY)" in log
    assert not [line for line in log if "0x" in line], log


TMUX = shutil.which("tmux")


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_board_words_in_tmux(tmp_path: Path) -> None:
    from test_play_tmux import Pane, option_number
    pane = Pane(tmp_path / "tmux.sock", [sys.executable, "-m", "duelhost.cli", "puzzle", str(BOARD_PUZZLE)], REPO)
    try:
        text = pane.wait_for(r"^P0> ")
        for line in ("S1  Set card: Snare Pit", "M1  Set card: Gavel Clerk  500/500  L1  [set DEF]",
                     "S2  Set card", "M4  Set card  [set DEF]", "Extra Deck: Sprouting Xyz \u00d73",
                     "GY: Gavel Bailiff \u00d73", "counters: 1 Spell Counter", "Turn 1 -- You (P0) -- Main Phase 1"):
            assert line in text, line
        prompts = text.count("P0> ")
        pane.send(str(option_number(text, "Activate Revival Rite")))
        text = pane.wait_prompt(prompts)
        while "choose 1 zone" in text[text.rfind("-" * 72):]:
            prompts = text.count("P0> ")
            pane.send("1")
            text = pane.wait_prompt(prompts)
        prompts = text.count("P0> ")
        pane.send("1")
        text = pane.wait_for(r"targeted: Gavel Bailiff \(your GY\)")
        pane.send("q")
        pane.wait_for(r"You left the duel\.")
    finally:
        pane.close()


def test_copies_in_a_menu_are_one_option(board: Duel) -> None:
    """Three copies that read the same (the same card from the same pile) are one line "×3"."""
    import dataclasses

    from duelhost.engine.messages import CardInfo
    from duelhost.engine.responses import IdleCmdResponse
    from duelhost.play import question_for
    prompt = board.advance()
    extra = tuple(CardInfo(code=190004011, controller=0, location=C.LOCATION_EXTRA, sequence=i) for i in range(3))
    # Special Summon: three Sprouting Xyz
    q = question_for(board, dataclasses.replace(prompt, special_summonable=extra), viewer=0)
    labels = [c.label for c in q.choices]
    assert labels.count("Special Summon Sprouting Xyz (your Extra Deck) \u00d73") == 1
    assert not [x for x in labels if x == "Special Summon Sprouting Xyz (your Extra Deck)"]
    assert [c.key for c in q.choices] == list(range(1, len(q.choices) + 1))
    pick = next(c for c in q.choices if "Sprouting Xyz" in c.label)
    assert q.answer(str(pick.key)) == IdleCmdResponse(command=1, index=0)
