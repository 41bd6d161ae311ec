"""The Duel library's hints, prompts, announcements, coins and dice, player and chain checks and
activity counters (bindings/lib_duel_query.py) run from Lua in a real duel.

The harness (tests/data/lib_duel_b/harness.py) runs snippets as the operation
of a test card's effect and answers the prompts they cause with raw answers.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from duelhost.bindings.errors import ScriptFailure
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.core_constants import CHAIN_DISABLE_EFFECT
from duelhost.engine.event import Chain
from duelhost.engine.messages import (MsgAnnounceCard, MsgAnnounceNumber, MsgAnnounceRace, MsgBecomeTarget,
                                      MsgHandRes, MsgHint, MsgSelectDisfield, MsgSelectEffectYn,
                                      MsgSelectOption, MsgSelectPlace, MsgSelectPosition, MsgSelectYesNo,
                                      MsgTossCoin, MsgTossDice)
from duelhost.engine.wire import pack_i32

_spec = importlib.util.spec_from_file_location(
    "lib_duel_b_harness", Path(__file__).resolve().parent / "data" / "lib_duel_b" / "harness.py")
h = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(h)  # type: ignore[union-attr]

Table = h.Table
A, B, C = h.MONSTER_A, h.MONSTER_B, h.MONSTER_C


@pytest.fixture
def t() -> Table:
    return Table()


def of(msgs: list, cls: type) -> list:
    return [m for m in msgs if isinstance(m, cls)]


def no_value(t: Table) -> bool:
    """No value came back (accepts one nil while bootstrap.lua turns NoValue into a nil;
    see tests/test_lib_duel_select.py::test_no_value_is_no_value)."""
    return t.results() in ((), (None,))


def script_error(t: Table, src: str, *args) -> str:
    with pytest.raises(ScriptFailure) as info:
        t.plain(src, *args)
    return str(info.value)


# =========================================================================================
# hints
# =========================================================================================

def test_hint_and_last_select_hint(t: Table) -> None:
    msgs, _ = t.run("""
        local e, tp = ...
        Duel.Hint(HINT_SELECTMSG, tp, HINTMSG_DESTROY)
        Duel.Hint(HINT_OPSELECTED, tp, 70)
        Duel.Hint(HINT_CARD, 2, 1234)
        return Duel.GetLastSelectHint(tp), Duel.GetLastSelectHint(), Duel.GetLastSelectHint(1)
    """)
    hints = [(m.type, m.player, m.data) for m in of(msgs, MsgHint)]
    # HINT_OPSELECTED goes to the other player; a bad player gets nothing
    assert hints == [(HINT_SELECTMSG, 0, HINTMSG_DESTROY), (HINT_OPSELECTED, 1, 70)]
    # without an argument: the reason player (0 while the operation runs)
    assert t.results() == (HINTMSG_DESTROY, HINTMSG_DESTROY, 0)
    assert "3 Parameters are needed." in script_error(t, "Duel.Hint(1, 0)")


def test_hint_selection(t: Table) -> None:
    a = t.card(A, LOCATION_MZONE, 3)
    t.card(B, LOCATION_MZONE, 1, player=1)
    msgs, _ = t.run("Duel.HintSelection(Duel.GetFieldGroup(0, LOCATION_MZONE, LOCATION_MZONE))")
    locs = [(m.cards[0].controller, m.cards[0].sequence) for m in of(msgs, MsgBecomeTarget)]
    assert locs == [(0, 3), (1, 1)]
    assert 'Parameter 1 should be "Group".' in script_error(t, "Duel.HintSelection(...)", a)


# =========================================================================================
# yes/no, options, positions, zones
# =========================================================================================

def test_select_yes_no(t: Table) -> None:
    t.card(A, LOCATION_MZONE, 2)
    _, prompts = t.run("local e, tp = ... return Duel.SelectYesNo(tp, 1234)", [pack_i32(1)])
    assert isinstance(prompts[0], MsgSelectYesNo) and prompts[0].description == 1234
    assert t.results() == (True,)
    t.run("local e, tp = ... return Duel.SelectEffectYesNo(tp, Duel.GetFieldCard(tp, LOCATION_MZONE, 2))",
          [pack_i32(0)])
    assert t.results() == (False,)
    _, prompts = t.run("local e, tp = ... return Duel.SelectEffectYesNo(1, Duel.GetFieldCard(0, LOCATION_MZONE, 2))")
    p = prompts[0]
    assert isinstance(p, MsgSelectEffectYn)
    assert (p.player, p.code, p.description, p.loc.sequence) == (1, A, 95, 2)     # 95: the default
    assert "Action is not allowed here." in script_error(t, "return Duel.SelectYesNo(0, 1)")


def test_select_effect_yes_no_checks(t: Table) -> None:
    with pytest.raises(ScriptFailure, match='Parameter 2 should be "Card".'):
        t.run("return Duel.SelectEffectYesNo(0, 1)")
    _, prompts = t.run("return Duel.SelectYesNo(2, 1)")
    assert prompts == [] and no_value(t)


def test_select_option_writes_the_chosen_option(t: Table) -> None:
    msgs, prompts = t.run("local e, tp = ... return Duel.SelectOption(tp, 1000, 1001, 1002)", [pack_i32(2)])
    assert isinstance(prompts[0], MsgSelectOption) and prompts[0].options == (1000, 1001, 1002)
    assert t.results() == (2,)
    assert [(m.type, m.player, m.data) for m in of(msgs, MsgHint)] == [(HINT_OPSELECTED, 0, 1002)]
    msgs, prompts = t.run("local e, tp = ... return Duel.AnnounceType(1)", [pack_i32(1)])
    assert prompts[0].player == 1 and prompts[0].options == (70, 71, 72)
    assert t.results() == (1,)
    assert [(m.type, m.player, m.data) for m in of(msgs, MsgHint)] == [(HINT_OPSELECTED, 1, 71)]
    msgs, prompts = t.run("local e, tp = ... return Duel.AnnounceCoin(tp)", [pack_i32(0)])
    assert prompts[0].options == (60, 61) and t.results() == (0,)
    assert [m.data for m in of(msgs, MsgHint)] == [60]


def test_select_position(t: Table) -> None:
    t.card(A, LOCATION_HAND)
    _, prompts = t.run("local e, tp = ... return Duel.SelectPosition(tp, Duel.GetFieldGroup(tp, LOCATION_HAND, 0)"
                       ":GetFirst(), POS_FACEUP_ATTACK + POS_FACEDOWN_DEFENSE)", [pack_i32(POS_FACEDOWN_DEFENSE)])
    p = prompts[0]
    assert isinstance(p, MsgSelectPosition)
    assert (p.player, p.code, p.positions) == (0, A, POS_FACEUP_ATTACK | POS_FACEDOWN_DEFENSE)
    assert t.results() == (POS_FACEDOWN_DEFENSE,)
    # one position: no question
    _, prompts = t.run("local e, tp = ... return Duel.SelectPosition(tp, Duel.GetFieldGroup(tp, LOCATION_HAND, 0)"
                       ":GetFirst(), POS_FACEUP_DEFENSE)")
    assert prompts == [] and t.results() == (POS_FACEUP_DEFENSE,)
    assert "Action is not allowed here." in script_error(t, "return Duel.SelectSequence()")


def test_select_disable_field(t: Table) -> None:
    t.card(A, LOCATION_MZONE, 0)
    _, prompts = t.run("local e, tp = ... return Duel.SelectDisableField(tp, 1, LOCATION_MZONE, LOCATION_MZONE, 0)",
                       [bytes([1, LOCATION_MZONE, 3])])
    p = prompts[0]
    assert isinstance(p, MsgSelectDisfield) and p.count == 1
    # own zone 0 taken; Spell & Trap Zones not offered; both Extra Monster Zones free
    assert p.flag == 0xFFE0FF81
    assert t.results() == (1 << (16 + 3),)
    # an Extra Monster Zone also marks the facing one
    t.run("local e, tp = ... return Duel.SelectDisableField(tp, 1, LOCATION_MZONE, LOCATION_MZONE, 0)",
          [bytes([0, LOCATION_MZONE, 5])])
    assert t.results() == ((1 << 5) | (1 << (16 + 6)),)
    # a filter removes zones (own Spell & Trap Zones 1-4 here)
    _, prompts = t.run("local e, tp = ... return Duel.SelectDisableField(tp, 1, LOCATION_SZONE, 0, 0x1e00)",
                       [bytes([0, LOCATION_SZONE, 0])])
    assert prompts[0].count == 1 and prompts[0].flag == 0xFFFFFEFF
    assert t.results() == (1 << 8,)
    # the count is capped by the free zones (the filter is not counted) ...
    _, prompts = t.run("local e, tp = ... return Duel.SelectDisableField(tp, 9, LOCATION_MZONE, 0, 0)",
                       [bytes([0, LOCATION_MZONE, 1, 0, LOCATION_MZONE, 2, 0, LOCATION_MZONE, 3,
                               0, LOCATION_MZONE, 4])])
    assert prompts[0].count == 4 and prompts[0].flag == 0xFFFFFF81 | 0x60
    # ... but the answer is read for the 9 zones asked: the unanswered (zero) triples read as
    # the player's Spell & Trap Zone 0, as in the reference
    assert t.results() == (0b11110 | (1 << 8),)


def test_select_field_with_hint(t: Table) -> None:
    t.card(A, LOCATION_MZONE, 0)
    msgs, prompts = t.run("local e, tp = ... return Duel.SelectField(tp, 1, LOCATION_SZONE, 0, 0, 1500)",
                          [bytes([0, LOCATION_SZONE, 2])])
    assert [(m.type, m.data) for m in of(msgs, MsgHint)][0] == (HINT_SELECTMSG, 1500)
    p = prompts[0]
    assert isinstance(p, MsgSelectPlace)
    assert p.flag == 0xFFFFC0FF     # the Spell & Trap Zones 0-4 and the Field Zone, taken or not
    assert t.results() == (1 << (8 + 2),)
    _, prompts = t.run("local e, tp = ... return Duel.SelectField(tp, 1, LOCATION_MZONE, 0, 0)",
                       [bytes([0, LOCATION_MZONE, 0])])
    assert isinstance(prompts[0], MsgSelectDisfield) and prompts[0].flag == 0xFFFFFF80
    assert t.results() == (1,)


# =========================================================================================
# announcements
# =========================================================================================

def test_announce_level_and_number(t: Table) -> None:
    msgs, prompts = t.run("local e, tp = ... return Duel.AnnounceLevel(tp, 1, 4, 2)", [pack_i32(1)])
    assert isinstance(prompts[0], MsgAnnounceNumber) and prompts[0].options == (1, 3, 4)
    assert t.results() == (3, 1)
    assert [(m.type, m.data) for m in of(msgs, MsgHint)] == [(HINT_NUMBER, 3)]
    # min and max swap; nil exclusions are ignored
    _, prompts = t.run("local e, tp = ... return Duel.AnnounceLevel(tp, 3, 1, nil)", [pack_i32(0)])
    assert prompts[0].options == (1, 2, 3)
    _, prompts = t.run("local e, tp = ... return Duel.AnnounceLevel(tp)", [pack_i32(11)])
    assert prompts[0].options == tuple(range(1, 13)) and t.results() == (12, 11)
    # nothing left to announce: no prompt, no value
    _, prompts = t.run("local e, tp = ... return Duel.AnnounceLevel(tp, 2, 2, 2)")
    assert prompts == [] and no_value(t)
    _, prompts = t.run("local e, tp = ... return Duel.AnnounceNumber(tp, 500, 1000, -1)", [pack_i32(2)])
    assert prompts[0].options == (500, 1000, 0xFFFFFFFF)
    assert t.results() == (0xFFFFFFFF, 2)      # the options are unsigned


def test_announce_card_race_attribute(t: Table) -> None:
    msgs, prompts = t.run("local e, tp = ... return Duel.AnnounceCard(tp, TYPE_MONSTER, OPCODE_ISTYPE)",
                          [pack_i32(A)])
    assert isinstance(prompts[0], MsgAnnounceCard) and prompts[0].options == (TYPE_MONSTER, OPCODE_ISTYPE)
    assert t.results() == (A,)
    assert [(m.type, m.data) for m in of(msgs, MsgHint)] == [(HINT_CODE, A)]
    _, prompts = t.run("local e, tp = ... return Duel.AnnounceCard(tp)", [pack_i32(B)])
    assert prompts[0].options == (1,)
    for bad in ("OPCODE_ADD", "1, 2", "1, OPCODE_NOT, OPCODE_AND"):
        with pytest.raises(ScriptFailure, match="Parameters are invalid."):
            t.run(f"local e, tp = ... return Duel.AnnounceCard(tp, {bad})")
    msgs, prompts = t.run("local e, tp = ... return Duel.AnnounceRace(tp, 1, RACE_WARRIOR + RACE_DRAGON)",
                          [pack_i32(RACE_DRAGON)])
    p = prompts[0]
    assert isinstance(p, MsgAnnounceRace) and (p.player, p.count, p.available) == (0, 1, RACE_WARRIOR | RACE_DRAGON)
    assert t.results() == (RACE_DRAGON,)
    t.run("local e, tp = ... return Duel.AnnounceAttribute(tp, 1, ATTRIBUTE_DARK + ATTRIBUTE_FIRE)",
          [pack_i32(ATTRIBUTE_FIRE)])
    assert t.results() == (ATTRIBUTE_FIRE,)


# =========================================================================================
# coins, dice, rock-paper-scissors
# =========================================================================================

def test_toss_coin_and_results(t: Table) -> None:
    msgs, _ = t.run("local e, tp = ... local a, b, c = Duel.TossCoin(tp, 3) return a, b, c, Duel.GetCoinResult()")
    tossed = of(msgs, MsgTossCoin)
    assert len(tossed) == 1 and tossed[0].player == 0 and len(tossed[0].results) == 3
    assert t.results() == tossed[0].results * 2
    t.run("local e, tp = ... return Duel.TossCoin(tp, 0)")
    assert no_value(t)
    t.run("Duel.SetCoinResult(1, 0, 7, 1) return Duel.GetCoinResult()")
    assert t.results() == (1, 0, 0)          # three coins were tossed last; 7 is not a coin
    assert t.duel.core.coin_result[:5] == [1, 0, 0, 1, 0]


def test_toss_dice_and_results(t: Table) -> None:
    msgs, _ = t.run("local e, tp = ... return Duel.TossDice(tp, 2, 1)")
    rolls = of(msgs, MsgTossDice)
    assert [(m.player, len(m.results)) for m in rolls] == [(0, 2), (1, 1)]
    assert t.results() == rolls[0].results + rolls[1].results
    assert all(1 <= v <= 6 for v in t.results())
    t.run("Duel.SetDiceResult(3, 0, 300, 6) return Duel.GetDiceResult()")
    assert t.results() == (3, 1, 1, 6, 1)
    t.run("local e, tp = ... return Duel.TossDice(tp, 0)")
    assert no_value(t)


def test_rock_paper_scissors(t: Table) -> None:
    msgs, prompts = t.run("return Duel.RockPaperScissors()", [pack_i32(1), pack_i32(2)])
    assert [p.player for p in prompts] == [0, 1]
    assert of(msgs, MsgHandRes)[0].result == 1 + (2 << 2)
    assert t.results() == (1,)           # rock (2) beats scissors (1)
    t.run("return Duel.RockPaperScissors(false)", [pack_i32(3), pack_i32(3)])
    assert t.results() == (PLAYER_NONE,)  # a draw is not replayed
    assert "attempt to yield from outside a coroutine" in script_error(t, "return Duel.RockPaperScissors()")


# =========================================================================================
# player checks
# =========================================================================================

CANNOT_DRAW = """
    local e0 = ...
    local e = Effect.CreateEffect(e0:GetHandler())
    e:SetType(EFFECT_TYPE_FIELD)
    e:SetCode(EFFECT_CANNOT_DRAW)
    e:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
    e:SetTargetRange(1, 0)
    Duel.RegisterEffect(e, 0)
    return e
"""


def test_player_affected_and_can_draw(t: Table) -> None:
    for code in (A, B, C):
        t.card(code, LOCATION_DECK, player=1)
    t.run(CANNOT_DRAW)
    eff = t.results()[0]
    assert t.plain("return Duel.IsPlayerAffectedByEffect(0, EFFECT_CANNOT_DRAW)") == (eff,)
    assert t.plain("return Duel.IsPlayerAffectedByEffect(1, EFFECT_CANNOT_DRAW)") == (None,)
    assert t.plain("return Duel.IsPlayerAffectedByEffect(2, EFFECT_CANNOT_DRAW)") == (None,)
    assert t.plain("return Duel.IsPlayerCanDraw(0), Duel.IsPlayerCanDraw(1), Duel.IsPlayerCanDraw(1, 3), "
                   "Duel.IsPlayerCanDraw(1, 4), Duel.IsPlayerCanDraw(2)") == (False, True, True, False, False)
    assert t.plain("return Duel.IsPlayerCanDiscardDeck(1, 3), Duel.IsPlayerCanDiscardDeck(1, 4), "
                   "Duel.IsPlayerCanDiscardDeckAsCost(1, 2), Duel.IsPlayerCanDiscardDeck(5, 0)"
                   ) == (True, False, True, False)


def test_player_can_summon_family(t: Table) -> None:
    a = t.card(A, LOCATION_HAND)
    assert t.plain("local c = ... return Duel.IsPlayerCanSummon(0), Duel.IsPlayerCanSummon(0, 0, c), "
                   "Duel.IsPlayerCanMSet(0, 0, c), Duel.IsPlayerCanSSet(0, c), Duel.IsPlayerCanFlipSummon(0, c), "
                   "Duel.IsPlayerCanSpecialSummon(0), Duel.IsPlayerCanSpecialSummon(0, 0, POS_FACEUP, 0, c), "
                   "Duel.IsPlayerCanRelease(0, c), Duel.IsPlayerCanRemove(0, c), Duel.IsPlayerCanSendtoHand(0, c), "
                   "Duel.IsPlayerCanSendtoGrave(0, c), Duel.IsPlayerCanSendtoDeck(0, c), "
                   "Duel.IsPlayerCanAdditionalSummon(0), Duel.IsPlayerCanSpecialSummonCount(0, 2)", a
                   ) == (True,) * 14
    assert t.plain("return Duel.IsPlayerCanSummon(3), Duel.IsPlayerCanRemove(-1)") == (False, False)
    assert "3 Parameters are needed." in script_error(t, "return Duel.IsPlayerCanSummon(0, 0)")
    assert 'Parameter 5 should be "Card".' in script_error(t, "return Duel.IsPlayerCanSpecialSummon(0, 0, 0, 0, 0)")
    # a card-less EFFECT_CANNOT_SPECIAL_SUMMON with a target: the one-argument form stays true
    t.run("""
        local e0 = ...
        local e = Effect.CreateEffect(e0:GetHandler())
        e:SetType(EFFECT_TYPE_FIELD)
        e:SetCode(EFFECT_CANNOT_SPECIAL_SUMMON)
        e:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        e:SetTargetRange(1, 0)
        e:SetTarget(function(e, c) return c:GetAttack() >= 2000 or c:IsSetCard(0x45) end)
        Duel.RegisterEffect(e, 0)
    """)
    assert t.plain("return Duel.IsPlayerCanSpecialSummon(0)") == (True,)
    monster = "return Duel.IsPlayerCanSpecialSummonMonster(0, {code}, {rest})"
    assert t.plain(monster.format(code=h.TOKEN, rest="nil, TYPES_TOKEN_MONSTER, 0, 0, 1, RACE_ROCK, ATTRIBUTE_EARTH")
                   ) == (True,)
    assert t.plain(monster.format(code=h.TOKEN, rest="nil, TYPES_TOKEN_MONSTER, 2500, 0, 1, RACE_ROCK, ATTRIBUTE_EARTH")
                   ) == (False,)
    assert t.plain(monster.format(code=h.TOKEN, rest="0x45, TYPES_TOKEN_MONSTER, 0, 0, 1")) == (False,)
    assert t.plain(monster.format(code=h.TOKEN, rest="0x10045")) == (False,)   # several archetypes
    assert t.plain(monster.format(code=h.XYZ, rest="nil")) == (False,)         # the database's 2500 ATK
    assert t.plain(monster.format(code=h.XYZ, rest="nil, nil, 100")) == (True,)
    assert t.plain(monster.format(code=h.XYZ, rest="nil, nil, 100, nil, nil, nil, nil, POS_FACEUP, 1")) == (True,)
    assert t.plain(monster.format(code=h.TOKEN, rest="nil").replace("(0,", "(1,")) == (True,)   # player 1
    # the placeholder card is blank again afterwards
    assert t.duel.temp_card.data.code == 0 and t.duel.temp_card.data.attack == 0


# =========================================================================================
# chain checks and activity
# =========================================================================================

def test_chain_checks(t: Table) -> None:
    assert t.plain("return Duel.IsChainSolving(), Duel.IsChainNegatable(0), Duel.IsChainDisablable(0), "
                   "Duel.IsChainDisabled(0), Duel.CheckChainUniqueness()") == (False, True, True, False, True)
    assert "1 Parameters are needed." in script_error(t, "return Duel.IsChainDisablable()")
    a = t.card(A, LOCATION_MZONE)
    ops = t.operators
    for op in (ops[0], ops[1]):
        ch = Chain()
        ch.triggering_effect = next(e for e in op.indexer if e.type & EFFECT_TYPE_IGNITION)
        ch.chain_count = len(t.duel.core.current_chain) + 1
        t.duel.core.current_chain.append(ch)
    # two links from cards with the same code
    assert t.plain("return Duel.CheckChainUniqueness()") == (False,)
    t.duel.core.current_chain.pop()
    assert t.plain("return Duel.CheckChainUniqueness()") == (True,)
    t.duel.core.chain_solving = True
    assert t.plain("return Duel.IsChainSolving(), Duel.IsChainDisablable(1), Duel.IsChainDisabled(1), "
                   "Duel.IsChainDisabled(0)") == (True, True, False, False)
    t.duel.core.current_chain[0].flag |= CHAIN_DISABLE_EFFECT
    assert t.plain("return Duel.IsChainDisabled(1)") == (True,)
    # the target check of a link whose effect does not target
    assert t.plain("return Duel.CheckChainTarget(1, ...)", a) == (False,)


def test_activity_counts(t: Table) -> None:
    core = t.duel.core
    core.summon_state_count[0] = 2
    core.spsummon_state_count[0] = 1
    core.attack_state_count[1] = 3
    core.battled_count[1] = 4
    assert t.plain("return Duel.GetActivityCount(0, ACTIVITY_SUMMON, ACTIVITY_SPSUMMON, 99, ACTIVITY_ATTACK)"
                   ) == (2, 1, 0, 0)
    assert t.plain("return Duel.GetActivityCount(1, ACTIVITY_ATTACK)") == (3,)
    assert t.plain("return Duel.GetBattledCount(1), Duel.CheckPhaseActivity()") == (4, False)
    assert t.plain_count("return Duel.GetActivityCount(2, 1)") in ((0, ()), (1, (None,)))
    a = t.card(A, LOCATION_MZONE)
    b = t.card(B, LOCATION_MZONE, 1)
    t.plain("""
        Duel.AddCustomActivityCounter(7, ACTIVITY_SUMMON, function(c) return c:IsLevelBelow(3) end)
        Duel.AddCustomActivityCounter(7, ACTIVITY_SUMMON, function(c) return false end)   -- kept: the first
    """)
    t.duel.check_card_counter(a, ACTIVITY_SUMMON, 1)     # level 4: counts for player 1
    t.duel.check_card_counter(b, ACTIVITY_SUMMON, 0)     # level 3: the filter accepts it
    assert t.plain("return Duel.GetCustomActivityCount(7, 0, ACTIVITY_SUMMON), "
                   "Duel.GetCustomActivityCount(7, 1, ACTIVITY_SUMMON), "
                   "Duel.GetCustomActivityCount(8, 1, ACTIVITY_SUMMON), "
                   "Duel.GetCustomActivityCount(7, 1, ACTIVITY_SPSUMMON)") == (0, 1, 0, 0)
    assert 'Parameter 3 should be "Function".' in script_error(
        t, "Duel.AddCustomActivityCounter(1, ACTIVITY_CHAIN, nil)")


def test_enter_bp_swap_and_majestic_copy(t: Table) -> None:
    assert t.plain("return Duel.IsAbleToEnterBP()") == (False,)       # the first turn
    t.duel.infos.turn_id = 2
    assert t.plain("return Duel.IsAbleToEnterBP()") == (True,)
    deck = t.card(A, LOCATION_DECK)
    grave = t.card(B, LOCATION_GRAVE)
    t.run("local e, tp = ... Duel.SwapDeckAndGrave(tp)")
    assert deck.current.location == LOCATION_GRAVE and grave.current.location == LOCATION_DECK
    assert "Action is not allowed here." in script_error(t, "Duel.SwapDeckAndGrave(0)")
    src = t.card(h.COPYABLE, LOCATION_MZONE, 0)
    dst = t.card(A, LOCATION_MZONE, 1)
    before = set(dst.indexer)
    t.plain("local c, tc = ... Duel.MajesticCopy(c, tc)", dst, src)
    copied = sorted((e for e in dst.indexer if e not in before), key=lambda e: e.serial)
    kinds = (EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_TRIGGER_F | EFFECT_TYPE_QUICK_O | EFFECT_TYPE_QUICK_F
             | EFFECT_TYPE_IGNITION)
    # the mandatory trigger and quick effects became optional; the continuous effect is not copied
    assert [e.type & kinds for e in copied] == [EFFECT_TYPE_TRIGGER_O, EFFECT_TYPE_QUICK_O, EFFECT_TYPE_IGNITION]
    assert copied[0].is_flag(EFFECT_FLAG_DELAY)
    for e in copied:
        assert e.owner is dst and e.handler is dst and not e.is_flag(EFFECT_FLAG_INITIAL)
        assert e.reset_flag == (RESET_EVENT | RESETS_STANDARD | RESET_PHASE | PHASE_END
                                | RESET_SELF_TURN | RESET_OPPO_TURN)
        assert e.reset_count == 1
    assert copied[2].count_limit == 1
