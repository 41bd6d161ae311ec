"""The Debug library (bindings/lib_debug.py) run from Lua in a real duel (see test_lib_effect.Env)."""

from __future__ import annotations

import pytest

from duelhost.engine.card import Card
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.messages import MsgAiName, MsgCardTarget, MsgReloadField, MsgShowHint

from test_lib_effect import Env


@pytest.fixture
def env() -> Env:
    return Env()


def test_add_card_to_zones(env: Env):
    c, where = env.run("local c=Debug.AddCard(5000, 0, 1, LOCATION_MZONE, 2, POS_FACEUP_DEFENSE, true) "
                       "return c, c:GetLocation()|(c:GetSequence()<<8)")
    assert isinstance(c, Card)
    assert c.owner == 0 and c.current.controler == 1
    assert where == LOCATION_MZONE | (2 << 8)
    assert c.current.position == POS_FACEUP_DEFENSE
    assert env.duel.player[1].list_mzone[2] is c
    assert c.is_status(STATUS_PROC_COMPLETE) and c.is_status(STATUS_EFFECT_ENABLED)
    # its own effect applies at once
    assert c.get_attack() == 1900
    h = env.one("return Debug.AddCard(5101, 1, 1, LOCATION_HAND, 0, POS_FACEDOWN)")
    assert h.current.location == LOCATION_HAND and not h.is_status(STATUS_PROC_COMPLETE)
    x = env.one("return Debug.AddCard(5200, 0, 0, LOCATION_EXTRA, 0, 0)")
    assert x.current.location == LOCATION_EXTRA and x.current.position == POS_FACEDOWN_DEFENSE


def test_add_card_face_down_on_field_stays_off(env: Env):
    c = env.one("return Debug.AddCard(5000, 0, 0, LOCATION_MZONE, 0, POS_FACEDOWN_DEFENSE)")
    assert c.current.position == POS_FACEDOWN_DEFENSE
    assert not c.is_status(STATUS_EFFECT_ENABLED)


def test_add_card_to_an_occupied_zone(env: Env):
    xyz = env.one("return Debug.AddCard(5200, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)")
    mat = env.one("return Debug.AddCard(5101, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK, true)")
    assert mat.overlay_target is xyz and xyz.xyz_materials == [mat]
    assert mat.current.location == LOCATION_OVERLAY and mat.is_status(STATUS_PROC_COMPLETE)
    env.run("Debug.AddCard(5101, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)")
    n, vals = env.count("return Debug.AddCard(5102, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)")
    assert vals[:1] in ((None,), ())      # not an Xyz Monster there: no card
    n, vals = env.count("return Debug.AddCard(5102, 0, 2, LOCATION_HAND, 0, POS_FACEUP)")
    assert vals[:1] in ((None,), ())
    cards_before = len(env.duel.cards)
    env.run("Debug.AddCard(5102, 2, 0, LOCATION_HAND, 0, POS_FACEUP)")
    assert len(env.duel.cards) == cards_before
    assert env.error("Debug.AddCard(5102, 0, 0, LOCATION_HAND, 0)").endswith("6 Parameters are needed.")


def test_set_player_info(env: Env):
    env.run("Debug.SetPlayerInfo(1, 4000, 6, 2) Debug.SetPlayerInfo(2, 1, 1, 1)")
    pl = env.duel.player[1]
    assert (pl.lp, pl.start_count, pl.draw_count) == (4000, 6, 2)
    assert env.duel.player[0].lp == 8000


def test_pre_summon(env: Env):
    c = env.place(5101)
    env.run("Debug.PreSummon(..., SUMMON_TYPE_SPECIAL)", c)
    assert c.summon_info == SUMMON_TYPE_SPECIAL
    env.run("Debug.PreSummon(..., SUMMON_TYPE_SPECIAL, LOCATION_GRAVE)", c)
    assert c.summon_info == SUMMON_TYPE_SPECIAL | (LOCATION_GRAVE << 16)
    assert env.one("return (...):IsSummonLocation(LOCATION_GRAVE)", c) is True


def test_pre_equip(env: Env):
    m = env.place(5101)
    down = env.place(5102, seq=1, position=POS_FACEDOWN_DEFENSE)
    eq = env.place(5300, location=LOCATION_SZONE)
    hand = env.place(5300, location=LOCATION_HAND)
    before = len(env.duel.messages)
    assert env.run("local eq, m, down, hand=... return Debug.PreEquip(eq, down), Debug.PreEquip(hand, m), "
                   "Debug.PreEquip(eq, m)", eq, m, down, hand) == (False, False, True)
    assert eq.equiping_target is m and eq in m.equiping_cards
    assert m in eq.effect_target_cards and eq in m.effect_target_owner
    assert len(env.duel.messages) == before   # no MSG_EQUIP


def test_pre_set_target(env: Env):
    a = env.place(5101)
    b = env.place(5102, seq=1)
    env.run("Debug.PreSetTarget(...)", a, b)
    assert b in a.effect_target_cards and a in b.effect_target_owner
    assert isinstance(env.duel.messages[-1], MsgCardTarget)


def test_pre_add_counter(env: Env):
    c = env.place(5101)
    env.run("local c=... Debug.PreAddCounter(c, 0x1041) Debug.PreAddCounter(c, 0x1041, 2) "
            "Debug.PreAddCounter(c, 0x10003, 0x10005)", c)
    assert c.counters == {0x1041: 3, 0x3: 5}
    assert env.one("return (...):GetCounter(0x1041)", c) == 3


def test_reload_field(env: Env):
    old = env.place(5101)
    env.duel.player[0].lp = 100
    env.run("Debug.ReloadFieldBegin(DUEL_ATTACK_FIRST_TURN+DUEL_SIMPLE_AI, 3)")
    duel = env.duel
    assert duel.cards == [duel.temp_card] and duel.temp_card.cardid == 1
    assert duel.player[0].lp == 8000 and duel.player[0].list_mzone[0] is None
    assert duel.core.duel_options == DUEL_ATTACK_FIRST_TURN | DUEL_SIMPLE_AI
    assert duel.core.duel_rule == 3
    assert duel.player[0].szone_size == 8 and duel.player[1].szone_size == 8
    assert old not in duel.cards
    c = env.one("Debug.SetPlayerInfo(0, 2000, 0, 0) "
                "local c=Debug.AddCard(5200, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK) "
                "Debug.AddCard(5101, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK) "
                "Debug.AddCard(5102, 1, 1, LOCATION_DECK, 0, POS_FACEDOWN) "
                "Debug.ReloadFieldEnd() return c")
    assert c.cardid == 2
    msg = duel.messages[-1]
    assert isinstance(msg, MsgReloadField)
    assert msg.duel_rule == 3 and msg.players[0].lp == 2000
    assert msg.players[0].mzone[0].overlay_count == 1
    assert msg.players[1].deck_count == 1
    assert msg.chain == ()


def test_reload_field_rule_defaults(env: Env):
    env.run("Debug.ReloadFieldBegin(0)")
    assert env.duel.core.duel_rule == 5 and env.duel.player[0].szone_size == 6
    env.run("Debug.ReloadFieldBegin(DUEL_OBSOLETE_RULING)")
    assert env.duel.core.duel_rule == 1
    assert env.duel.core.duel_options == DUEL_OBSOLETE_RULING


def test_texts(env: Env):
    env.run("Debug.SetAIName('Bot') Debug.ShowHint(12) Debug.SetAIName(string.rep('n', 200)) "
            "Debug.ShowHint('a\\0b')")
    msgs = env.duel.messages[-4:]
    assert msgs[0] == MsgAiName(text="Bot")
    assert msgs[1] == MsgShowHint(text="12")
    assert msgs[2] == MsgAiName(text="n" * 127)
    assert msgs[3] == MsgShowHint(text="a")
    assert env.error("Debug.SetAIName({})").endswith('Parameter 1 should be "String".')
    assert env.error("Debug.ShowHint()").endswith("1 Parameters are needed.")
    long = env.one("Debug.ShowHint(string.rep('x', 2000)) return 1")
    assert long == 1 and env.duel.messages[-1] == MsgShowHint(text="x" * 1023)


def test_message_goes_to_the_host_log(env: Env):
    c = env.place(5101)
    env.run("Debug.Message('hello') Debug.Message(nil) Debug.Message(1, 2.5) Debug.Message(string.rep('y', 300))")
    assert env.host.log[-4:] == [(2, "hello"), (2, "nil"), (2, "2.5"), (2, "y" * 255)]
    env.run("Debug.Message(...)", c)
    kind, text = env.host.log[-1]
    assert kind == 2 and text.startswith("userdata")


def test_debug_functions_are_plain(env: Env):
    """Puzzles call Debug functions from plain script code: nothing yields."""
    cond = env.compile("return Debug.AddCard(5101, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)~=nil")
    assert env.host.check_condition(cond) is True
    assert env.duel.player[0].list_grave[-1].data.code == 5101
