"""duelhost.play / duelhost.tui: every prompt kind as numbered choices, a session, the terminal layer."""

from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner

from duelhost import Duel, RandomPlayer
from duelhost.cli import main
from duelhost.engine import constants as C
from duelhost.engine.messages import (
    CardInfo,
    ChainOption,
    CounterCard,
    LocInfo,
    MsgAnnounceAttrib,
    MsgAnnounceCard,
    MsgAnnounceNumber,
    MsgAnnounceRace,
    MsgRockPaperScissors,
    MsgSelectCard,
    MsgSelectChain,
    MsgSelectCounter,
    MsgSelectDisfield,
    MsgSelectEffectYn,
    MsgSelectIdleCmd,
    MsgSelectOption,
    MsgSelectPlace,
    MsgSelectPosition,
    MsgSelectSum,
    MsgSelectTribute,
    MsgSelectUnselectCard,
    MsgSelectYesNo,
    MsgSortCard,
    SelectableCard,
    SumCard,
    TributeCard,
)
from duelhost.engine.responses import (
    AnnounceAttribResponse,
    AnnounceCardResponse,
    AnnounceNumberResponse,
    AnnounceRaceResponse,
    CardsResponse,
    ChainResponse,
    CounterResponse,
    IdleCmdResponse,
    OptionResponse,
    PlaceResponse,
    PositionResponse,
    RpsResponse,
    SortResponse,
    SumResponse,
    UnselectCardResponse,
    YesNoResponse,
    Zone,
)
from duelhost.play import (
    MANY,
    ONE,
    ORDER,
    REPEAT,
    SEARCH,
    AnswerError,
    PlaySession,
    Question,
    board_text,
    card_text,
    duel_from_decks,
    question_for,
)
from duelhost.tui import Terminal, run

SPARKMOUSE, MOSS, BEETLE, OWL, GOLEM = 190000001, 190000002, 190000003, 190000004, 190000005
HOUND, RAPTOR, PETREL = 190000008, 190000011, 190000026


@pytest.fixture(scope="module")
def duel() -> Duel:
    """A duel only used for its card names and database (no scripts needed)."""
    return Duel(scripts=False)


def loc(controller: int, location: int, sequence: int, position: int = C.POS_FACEUP_ATTACK) -> LocInfo:
    return LocInfo(controller=controller, location=location, sequence=sequence, position=position)


def labels(q: Question) -> list[str]:
    return [c.label for c in q.choices]


# ---- one prompt kind at a time ----------------------------------------------------------------


def test_select_card_many(duel: Duel) -> None:
    p = MsgSelectCard(player=0, cancelable=1, min=1, max=2, cards=(
        SelectableCard(code=SPARKMOUSE, location=loc(0, C.LOCATION_HAND, 0)),
        SelectableCard(code=MOSS, location=loc(0, C.LOCATION_GRAVE, 0)),
        SelectableCard(code=BEETLE, location=loc(1, C.LOCATION_MZONE, 2))))
    q = question_for(duel, p, hint=C.HINTMSG_DESTROY)
    assert q.mode == MANY and "to destroy" in q.title
    assert labels(q) == ["Cinderwood Sparkmouse (your hand)", "Cinderwood Moss Sprite (your GY)",
                         "Cinderwood Ember Beetle (opponent's M3)"]
    assert q.answer("1 3") == CardsResponse(indices=(0, 2))
    assert q.answer("2") == CardsResponse(indices=(1,))
    assert q.answer("0") == CardsResponse(indices=None)
    with pytest.raises(AnswerError, match="choose 1 to 2, not 3"):
        q.answer("1 2 3")
    with pytest.raises(AnswerError, match="4 is not one of the options"):
        q.answer("4")
    with pytest.raises(AnswerError, match="twice"):
        q.answer("1 1")
    with pytest.raises(AnswerError, match="not a number"):
        q.answer("one")
    assert "0. cancel" in q.render()


def test_opponents_hidden_cards_are_not_named(duel: Duel) -> None:
    p = MsgSelectCard(player=0, cancelable=0, min=1, max=1, cards=(
        SelectableCard(code=SPARKMOUSE, location=loc(1, C.LOCATION_SZONE, 1, C.POS_FACEDOWN_ATTACK)),
        SelectableCard(code=MOSS, location=loc(1, C.LOCATION_HAND, 0)),
        SelectableCard(code=BEETLE, location=loc(0, C.LOCATION_SZONE, 0, C.POS_FACEDOWN_ATTACK))))
    q = question_for(duel, p)
    assert labels(q)[:2] == ["a Set card (opponent's S2)", "a face-down card (opponent's hand)"]
    assert labels(q)[2] == "Cinderwood Ember Beetle (your S1)"      # your own set card
    assert [c.code for c in q.choices] == [None, None, BEETLE]
    assert q.cancel is None
    with pytest.raises(AnswerError):
        q.answer("0")


def test_unselect_card(duel: Duel) -> None:
    p = MsgSelectUnselectCard(player=0, finishable=1, cancelable=0, min=1, max=3, selectable=(
        SelectableCard(code=SPARKMOUSE, location=loc(0, C.LOCATION_HAND, 0)),), unselectable=(
        SelectableCard(code=MOSS, location=loc(0, C.LOCATION_HAND, 1)),))
    q = question_for(duel, p)
    assert q.mode == ONE and q.cancel_label == "finish"
    assert labels(q) == ["add Cinderwood Sparkmouse (your hand)", "remove Cinderwood Moss Sprite (your hand) (chosen)"]
    assert q.answer("2") == UnselectCardResponse(index=1)
    assert q.answer("0") == UnselectCardResponse(index=None)


def test_chain_pass_and_forced(duel: Duel) -> None:
    opt = ChainOption(client_mode=0, forced=0, code=BEETLE, location=loc(0, C.LOCATION_MZONE, 0), description=0)
    q = question_for(duel, MsgSelectChain(player=0, special_count=0, hint_timing=0, other_hint_timing=0,
                                          chains=(opt,)))
    assert labels(q) == ["Activate Cinderwood Ember Beetle (your M1)", "Do not chain (pass)"]
    assert q.answer("2") == ChainResponse(index=None)
    forced = ChainOption(client_mode=0, forced=1, code=BEETLE, location=loc(0, C.LOCATION_MZONE, 0),
                         description=0)
    q = question_for(duel, MsgSelectChain(player=0, special_count=1, hint_timing=0, other_hint_timing=0,
                                          chains=(forced,)))
    assert labels(q) == ["Activate Cinderwood Ember Beetle (your M1) (must be activated)"]


def test_yes_no_option_position_number_rps(duel: Duel) -> None:
    q = question_for(duel, MsgSelectEffectYn(player=0, code=OWL, loc=loc(0, C.LOCATION_MZONE, 1), description=221))
    assert "Cinderwood Hearth Owl (your M2)" in q.title
    assert q.answer("1") == YesNoResponse(yes=True) and q.answer("2") == YesNoResponse(yes=False)
    q = question_for(duel, MsgSelectYesNo(player=1, description=31), viewer=0)
    assert q.title.startswith("Player 1:") and "Attack directly?" in q.title
    q = question_for(duel, MsgSelectOption(player=0, options=(SPARKMOUSE * 16, SPARKMOUSE * 16 + 1)))
    assert len(q.choices) == 2 and q.answer("2") == OptionResponse(index=1)
    q = question_for(duel, MsgSelectPosition(player=0, code=GOLEM, positions=C.POS_FACEUP_ATTACK | C.POS_FACEDOWN_DEFENSE))
    assert labels(q) == ["face-up Attack Position", "face-down Defense Position"]
    assert q.answer("2") == PositionResponse(position=C.POS_FACEDOWN_DEFENSE)
    q = question_for(duel, MsgAnnounceNumber(player=0, options=(1, 3, 6)))
    assert labels(q) == ["1", "3", "6"] and q.answer("3") == AnnounceNumberResponse(index=2)
    q = question_for(duel, MsgRockPaperScissors(player=0))
    assert labels(q) == ["Scissors", "Rock", "Paper"] and q.answer("2") == RpsResponse(choice=2)


def test_places_and_disfield(duel: Duel) -> None:
    # every zone blocked but your M3 and M5 and the opponent's S1
    free = (1 << 2) | (1 << 4) | (1 << 24)
    p = MsgSelectPlace(player=0, count=1, flag=0xFFFFFFFF & ~free)
    q = question_for(duel, p, hint=HOUND)
    assert labels(q) == ["your M3", "your M5", "opponent's S1"]
    assert "for Cinderwood Ashen Hound" in q.title
    assert q.answer("2") == PlaceResponse(zones=(Zone(player=0, location=C.LOCATION_MZONE, sequence=4),))
    d = MsgSelectDisfield(player=0, count=2, flag=0xFFFFFFFF & ~free)
    q = question_for(duel, d)
    assert q.min == q.max == 2 and "2 zones to disable" in q.title
    assert q.answer("1 3") == PlaceResponse(zones=(Zone(player=0, location=C.LOCATION_MZONE, sequence=2),
                                                   Zone(player=1, location=C.LOCATION_SZONE, sequence=0)))
    with pytest.raises(AnswerError, match="choose 2, not 1"):
        q.answer("1")


def test_tributes_checked_by_the_rules(duel: Duel) -> None:
    p = MsgSelectTribute(player=0, cancelable=1, min=2, max=2, cards=(
        TributeCard(code=SPARKMOUSE, controller=0, location=C.LOCATION_MZONE, sequence=0, release_param=1),
        TributeCard(code=MOSS, controller=0, location=C.LOCATION_MZONE, sequence=1, release_param=2)))
    q = question_for(duel, p)
    assert labels(q)[1].endswith("(counts as 2)")
    assert q.answer("2") == CardsResponse(indices=(1,))          # one card worth two
    with pytest.raises(AnswerError, match="count as 1 tributes, 2 needed"):
        q.answer("1")
    assert q.answer("0") == CardsResponse(indices=None)


def test_counters_one_number_per_counter(duel: Duel) -> None:
    p = MsgSelectCounter(player=0, counter_type=0x1, count=3, cards=(
        CounterCard(code=OWL, controller=0, location=C.LOCATION_MZONE, sequence=0, counter_count=2),
        CounterCard(code=GOLEM, controller=0, location=C.LOCATION_SZONE, sequence=1, counter_count=1)))
    q = question_for(duel, p)
    assert q.mode == REPEAT and "remove 3 counter" in q.title
    assert labels(q) == ["Cinderwood Hearth Owl (your M1): 2 counter(s)",
                         "Cinderwood Pebble Golem (your S2): 1 counter(s)"]
    assert q.answer("1 2 1") == CounterResponse(counts=(2, 1))
    with pytest.raises(AnswerError, match="remove exactly 3"):
        q.answer("1 1")
    with pytest.raises(AnswerError, match="cannot remove 2"):
        q.answer("2 2 1")


def test_sum_exact(duel: Duel) -> None:
    def sc(code: int, seq: int, value: int) -> SumCard:
        return SumCard(code=code, controller=0, location=C.LOCATION_HAND, sequence=seq, sum_param=value)
    p = MsgSelectSum(player=0, mode=0, target=5, min=1, max=3, must_cards=(sc(OWL, 4, 2),),
                     cards=(sc(SPARKMOUSE, 0, 1), sc(BEETLE, 1, 3), sc(GOLEM, 2, 2)))
    q = question_for(duel, p)
    assert any("always included: Cinderwood Hearth Owl" in n for n in q.notes)
    assert q.answer("2") == SumResponse(indices=(1,))              # 2 + 3
    assert q.answer("1 3") == SumResponse(indices=(0, 2))          # 2 + 1 + 2
    with pytest.raises(AnswerError, match="exactly 5"):
        q.answer("1")


def test_sort(duel: Duel) -> None:
    p = MsgSortCard(player=0, cards=tuple(CardInfo(code=c, controller=0, location=C.LOCATION_DECK, sequence=i)
                                          for i, c in enumerate((SPARKMOUSE, MOSS, BEETLE))))
    q = question_for(duel, p)
    assert q.mode == ORDER
    # card 3 first, then card 1, then card 2: card i's new place
    assert q.answer("3 1 2") == SortResponse(order=(1, 2, 0))
    assert q.answer("0") == SortResponse(order=None)
    with pytest.raises(AnswerError, match="exactly once"):
        q.answer("1 1 2")


def test_races_and_attributes(duel: Duel) -> None:
    q = question_for(duel, MsgAnnounceRace(player=0, count=2,
                                           available=C.RACE_DRAGON | C.RACE_WINDBEAST | C.RACE_FISH))
    assert labels(q) == ["Winged Beast", "Dragon", "Fish"]
    assert q.answer("1 3") == AnnounceRaceResponse(races=C.RACE_WINDBEAST | C.RACE_FISH)
    q = question_for(duel, MsgAnnounceAttrib(player=0, count=1, available=C.ATTRIBUTE_ALL))
    assert labels(q) == ["Earth", "Water", "Fire", "Wind", "Light", "Dark", "Divine"]
    assert q.answer("5") == AnnounceAttribResponse(attributes=C.ATTRIBUTE_LIGHT)


def test_announce_card_by_name(duel: Duel) -> None:
    p = MsgAnnounceCard(player=0, options=(C.TYPE_MONSTER, C.OPCODE_ISTYPE))
    q = question_for(duel, p)
    assert q.mode == SEARCH
    assert q.answer("cinderwood sparkmouse") == AnnounceCardResponse(code=SPARKMOUSE)
    assert q.answer(str(MOSS)) == AnnounceCardResponse(code=MOSS)
    narrower = q.answer("Tidehollow S")
    assert isinstance(narrower, Question) and narrower.mode == ONE
    assert "Tidehollow Shell Sentinel [190000025]" in labels(narrower)
    pick = next(c for c in narrower.choices if "Sea Sovereign" in c.label)
    assert narrower.answer(str(pick.key)) == AnnounceCardResponse(code=190000040)
    with pytest.raises(AnswerError, match="no card that may be declared"):
        q.answer("no such card name")


def test_idle_menu_from_a_real_duel() -> None:
    duel = duel_from_decks(seed=5)
    q = question_for(duel, duel.advance())
    assert isinstance(q.prompt, MsgSelectIdleCmd)
    texts = labels(q)
    assert any(t.startswith("Normal Summon Cinderwood") and t.endswith("(your hand)") for t in texts)
    assert texts[-2:] == ["End the turn", "Shuffle your hand"]
    summon = next(c for c in q.choices if c.label.startswith("Normal Summon"))
    assert q.answer(str(summon.key)) == IdleCmdResponse(command=0, index=0)
    assert card_text(duel.db, summon.code).startswith(duel.card_name(summon.code))


def test_card_text() -> None:
    duel = Duel(scripts=False)
    text = card_text(duel.db, HOUND)
    assert text.splitlines()[0] == "Cinderwood Ashen Hound [190000008]"
    assert "Level 4" in text and "ATK 1700 / DEF 1000" in text and "Fire" in text
    assert card_text(duel.db, 1) == "card 1: not in the database"


# ---- a session, the log, the board ------------------------------------------------------


def _first_legal(q: Question) -> str:
    """An answer that is always legal: the first option(s)."""
    if q.mode == ONE:
        return str(q.choices[0].key)
    if q.mode == ORDER:
        return "0"
    if q.mode == SEARCH:
        return "Cinderwood"
    keys = [c.key for c in q.choices]
    if q.mode == REPEAT:
        return " ".join([str(keys[0])] * q.min)
    return " ".join(map(str, keys[:max(q.min, 1)]))


def test_session_plays_to_the_end_against_the_random_player() -> None:
    duel = duel_from_decks(seed=11)
    session = PlaySession(duel, ["human", RandomPlayer(11)])
    log: list[str] = []
    asked = 0
    while (q := session.next_question()) is not None:
        log.extend(session.take_log())
        assert q.player == 0                      # only the person is asked
        assert not (isinstance(q.prompt, MsgSelectChain) and not q.prompt.chains)   # empty chains auto-pass
        out = session.answer(q, _first_legal(q))
        while out is not None:
            out = session.answer(out, "1")
        asked += 1
    log.extend(session.take_log())
    assert session.finished and duel.win() is not None
    assert asked > 20
    text = "\n".join(log)
    assert "=== Turn: You ===" in text and "=== Turn: Opponent ===" in text
    assert "Opponent draws 1 card" in text                   # hidden: no card names
    assert re.search(r"Cinderwood [A-Z][a-z]+", text)        # names, not codes
    assert not re.search(r"\b1900000\d\d\b", text)
    assert "won" in session.result_text()


def test_board_hides_the_opponents_hand() -> None:
    duel = duel_from_decks(seed=2)
    duel.advance()
    mine = board_text(duel, 0)
    assert "[P1] Opponent: LP 8000 | hand 5" in mine and "[P0] You: LP 8000" in mine
    hand0 = [duel.card_name(c.data.code) for c in duel.engine.player[0].list_hand]
    hand1 = [duel.card_name(c.data.code) for c in duel.engine.player[1].list_hand]
    from duelhost.play import grouped
    assert hand0.count("Cinderwood Sunhorn Ram") == 2       # two copies: one entry "×2"
    assert "hand: " + grouped(hand0) in mine and "Cinderwood Sunhorn Ram \u00d72" in mine
    assert "hand: " + grouped(hand1) not in mine
    assert "hand: " + grouped(hand1) in board_text(duel, None)


def test_two_people_are_each_asked() -> None:
    duel = duel_from_decks(seed=4)
    session = PlaySession(duel, ["human", "human"])
    seen = set()
    for _ in range(60):
        q = session.next_question()
        if q is None:
            break
        seen.add(q.player)
        session.answer(q, _first_legal(q))
    assert seen == {0, 1}


def test_max_responses_stops_a_session() -> None:
    duel = duel_from_decks(seed=1)
    session = PlaySession(duel, [RandomPlayer(1), RandomPlayer(2)], max_responses=30)
    assert session.next_question() is None
    assert session.stopped == "response_limit" and duel.responses == 30
    assert "stopped" in session.result_text()


# ---- the terminal layer ---------------------------------------------------------------------


def _run_tui(lines: list[str], seed: int = 5) -> tuple[int, str]:
    duel = duel_from_decks(seed=seed)
    session = PlaySession(duel, ["human", RandomPlayer(seed)])
    out = io.StringIO()
    feed = iter(lines)

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return run(session, Terminal(stdout=out, read=read), title="test"), out.getvalue()


def test_tui_commands_and_errors() -> None:
    code, text = _run_tui(["h", "? 1", "card 190000008", "99", "b", "log", "q"])
    assert code == 1
    assert "Turn 1 -- You (P0) -- Main Phase 1" in text            # the board
    assert "You: Main Phase -- what next?" in text and "   1. Normal Summon" in text
    assert "Commands:" in text                                      # help
    assert "Cinderwood Ashen Hound [190000008]" in text             # card CODE
    assert "! 99 is not one of the options" in text
    assert "You left the duel." in text


def test_tui_end_of_input_leaves() -> None:
    code, text = _run_tui([])
    assert code == 1 and "end of input" in text


def test_tui_plays_a_few_turns() -> None:
    # normal summon the first card, first zone, then end the turn; again on the next turn
    code, text = _run_tui(["1", "1", "1", "1", "1", "1", "1", "1", "q"], seed=5)
    assert "is Normal Summoned to your M1" in text
    assert "=== Turn: Opponent ===" in text


def test_cli_play_and_quit() -> None:
    r = CliRunner().invoke(main, ["play", "--seed", "9"], input="1\n1\nq\n")
    assert r.exit_code == 1, r.output
    assert "duelhost play -- seed 9 -- the demo decks" in r.output
    assert "is Normal Summoned" in r.output


def test_cli_play_bad_deck(tmp_path) -> None:
    deck = tmp_path / "bad.ydk"
    deck.write_text("#main\n12345\n")
    r = CliRunner().invoke(main, ["play", "--deck", str(deck)])
    assert r.exit_code == 2 and "12345" in r.output and "not in the card database" in r.output


def test_log_of_a_chain_and_counters() -> None:
    """Normal Summon Runelight Defender (scripts/c190002001.lua): its trigger puts a Spell Counter on it."""
    duel = Duel(seed=0)
    for _ in range(5):
        duel.add_card(SPARKMOUSE, 0)
    duel.add_card(190002001, 0, C.LOCATION_HAND)
    duel.set_player(0, start_hand=0)
    duel.set_player(1, start_hand=0)
    duel.add_card(MOSS, 1)
    duel.start()
    session = PlaySession(duel, ["human", RandomPlayer(1)])
    session.answer(session.next_question(), "1")         # Normal Summon Runelight Defender
    session.answer(session.next_question(), "1")         # in M1
    q = session.next_question()
    log = session.take_log()
    assert "Runelight Defender is Normal Summoned to your M1" in log
    assert any(line.startswith("Chain Link 1: Runelight Defender (your M1) activates") for line in log)
    assert "Runelight Defender (your M1) gets 1 Spell Counter" in log
    assert "the chain has resolved" in log
    assert "counters: 1 Spell Counter" in session.board_text()
    assert isinstance(q.prompt, MsgSelectIdleCmd)
