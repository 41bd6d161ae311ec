"""The Duel library's queries (bindings/lib_duel_state.py) run from Lua in a real duel.

Same harness as test_lib_duel_actions.py (tests/data/lib_duel_a): cards placed
by hand, Lua snippets run through the test operator card, as plain calls
(where queries are usually made: conditions, filters, ``chk==0`` checks), as a
chain link's operation, or in a chain built with Duel.Activate's unit.
Checked: the values, how many there are, and their Lua types (integer vs
boolean matters to scripts).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from duelhost.bindings.errors import ScriptFailure
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.core_constants import *  # noqa: F401,F403


def _load_harness():
    name = "lib_duel_a_harness"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent / "data" / "lib_duel_a" / "harness.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


H = _load_harness()
Table, names = H.Table, H.names
A, B = H.MONSTER_A, H.MONSTER_B

# a snippet helper: every value of every call, flattened, with Lua's type names
COLLECT = """
local r, n = {}, 0
local function add(...)
    for i = 1, select("#", ...) do
        local v = (select(i, ...))
        r[n + 1] = v
        r[n + 2] = math.type(v) or type(v)
        n = n + 2
    end
end
local function all() return table.unpack(r, 1, n) end
"""


def pairs_of(values: tuple) -> list[tuple]:
    """(value, Lua type) pairs from a COLLECT snippet's results."""
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


# ===== turn, phases, LP =====================================================================

def test_turn_and_phase_queries_types():
    t = Table()
    t.duel.player[1].lp = 4321
    out = pairs_of(t.plain(COLLECT + """
        add(Duel.GetTurnPlayer(), Duel.IsTurnPlayer(0), Duel.IsTurnPlayer(1), Duel.GetTurnCount(),
            Duel.GetTurnCount(0), Duel.GetTurnCount(1), Duel.GetCurrentPhase(), Duel.IsPhase(PHASE_MAIN1),
            Duel.IsMainPhase(), Duel.IsBattlePhase(), Duel.GetLP(1), Duel.GetDrawCount(0),
            Duel.GetDrawCount(1), Duel.IsDamageCalculated())
        return all()
    """))
    assert out == [(0, "integer"), (True, "boolean"), (False, "boolean"), (1, "integer"), (1, "integer"),
                   (0, "integer"), (PHASE_MAIN1, "integer"), (True, "boolean"), (True, "boolean"),
                   (False, "boolean"), (4321, "integer"), (0, "integer"), (1, "integer"), (False, "boolean")]
    # (the first player draws nothing in the first turn)


def test_battle_phase_query():
    t = Table()
    t.duel.infos.phase = PHASE_BATTLE_STEP
    assert t.plain("return Duel.IsBattlePhase(), Duel.IsMainPhase(), Duel.IsPhase(PHASE_BATTLE_STEP)") == (
        True, False, True)


def test_check_lp_cost():
    t = Table()
    t.duel.player[0].lp = 1000
    assert t.plain("return Duel.CheckLPCost(0, 1000), Duel.CheckLPCost(0, 1001), Duel.CheckLPCost(0, 0)") == (
        True, False, False)


def test_query_argument_errors():
    t = Table()
    with pytest.raises(ScriptFailure, match="1 Parameters are needed."):
        t.plain("return Duel.GetLP()")
    with pytest.raises(ScriptFailure, match="4 Parameters are needed."):
        t.plain("return Duel.IsCanAddCounter(0, 0x3, 1)")


# ===== counters ===============================================================================

def test_counters_on_the_field():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 0)
    b = t.card(B, LOCATION_MZONE, 0, player=1)
    a.counters[0x3] = 2
    b.counters[0x3] = 1
    b.counters[0x4] = 5
    out = t.plain("""
        return Duel.GetCounter(0, 1, 0, 0x3), Duel.GetCounter(0, 1, 1, 0x3), Duel.GetCounter(1, 1, 0, 0x4),
            Duel.IsCanRemoveCounter(0, 1, 1, 0x3, 3, REASON_COST),
            Duel.IsCanRemoveCounter(0, 1, 0, 0x3, 3, REASON_COST)
    """)
    assert out == (2, 3, 5, True, False)


def test_is_can_add_counter_is_about_the_player_only():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 0)
    assert t.plain("return Duel.IsCanAddCounter(0), Duel.IsCanAddCounter(5)") == (True, False)
    # a ban on player 1 only, without a target: every placement is refused for that player
    t.run("""
        local e, tp = ...
        local pe = Effect.CreateEffect(e:GetHandler())
        pe:SetType(EFFECT_TYPE_FIELD)
        pe:SetCode(EFFECT_CANNOT_PLACE_COUNTER)
        pe:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        pe:SetTargetRange(0, 1)
        Duel.RegisterEffect(pe, tp)
    """)
    out = t.plain("return Duel.IsCanAddCounter(0), Duel.IsCanAddCounter(1), "
                  "Duel.IsCanAddCounter(1, 0x3, 1, Duel.GetFieldCard(0, LOCATION_MZONE, 0))")
    assert out == (True, False, False)
    assert a.get_counter(0x3) == 0


def test_is_can_add_counter_with_a_card_asks_the_ban_target():
    t = Table()
    t.card(A, LOCATION_MZONE, 0)
    t.card(B, LOCATION_MZONE, 1)
    t.run("""
        local e, tp = ...
        local pe = Effect.CreateEffect(e:GetHandler())
        pe:SetType(EFFECT_TYPE_FIELD)
        pe:SetCode(EFFECT_CANNOT_PLACE_COUNTER)
        pe:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        pe:SetTargetRange(1, 0)
        pe:SetTarget(function(te, c, p) return c:IsCode(%d) end)
        Duel.RegisterEffect(pe, tp)
    """ % A)
    out = t.plain("""
        return Duel.IsCanAddCounter(0), Duel.IsCanAddCounter(0, 0x3, 1, Duel.GetFieldCard(0, LOCATION_MZONE, 0)),
            Duel.IsCanAddCounter(0, 0x3, 1, Duel.GetFieldCard(0, LOCATION_MZONE, 1))
    """)
    assert out == (True, False, True)


# ===== zones ===================================================================================

def test_location_counts_return_count_and_unusable_mask():
    t = Table()
    t.card(A, LOCATION_MZONE, 0)
    t.card(B, LOCATION_MZONE, 1)
    t.watcher(seq=4)
    out = pairs_of(t.plain(COLLECT + """
        local a = Duel.GetFieldCard(0, LOCATION_MZONE, 0)
        local b = Duel.GetFieldCard(0, LOCATION_MZONE, 1)
        add(Duel.GetLocationCount(0, LOCATION_MZONE))
        add(Duel.GetLocationCount(0, LOCATION_SZONE))
        add(Duel.GetLocationCount(0, LOCATION_MZONE, nil, LOCATION_REASON_TOFIELD, 0x1))
        add(Duel.GetLocationCount(1, LOCATION_MZONE))
        add(Duel.GetMZoneCount(0, a))
        add(Duel.GetMZoneCount(0, Group.FromCards(a, b)))
        add(Duel.GetSZoneCount(0, Duel.GetFieldCard(0, LOCATION_SZONE, 4)))
        return all()
    """))
    assert [v for v, _ in out] == [3, 0x63, 4, 0x10, 0, 0x7F, 5, 0x60, 4, 0x62, 5, 0x60, 5, 0]
    assert all(ty == "integer" for _, ty in out)
    # the cards were only hidden while counting
    assert t.duel.player[0].list_mzone[0] is not None and t.duel.player[0].used_location & 0x3 == 0x3


def test_location_count_from_extra_deck_by_type():
    t = Table()
    t.card(A, LOCATION_MZONE, 0)
    t.card(B, LOCATION_MZONE, 1)
    out = t.plain(COLLECT + """
        add(Duel.GetLocationCountFromEx(0))
        add(Duel.GetLocationCountFromEx(0, 0, nil, TYPE_FUSION))
        add(Duel.GetLocationCountFromEx(0, 0, nil, TYPE_LINK))
        add(Duel.GetLocationCountFromEx(0, 0, Duel.GetFieldCard(0, LOCATION_MZONE, 0), TYPE_FUSION))
        add(Duel.GetUsableMZoneCount(0))
        return all()
    """)
    values = [v for v, _ in pairs_of(out)]
    # Master Rule 2020: a Link Monster needs an Extra Monster Zone (no links here);
    # a Fusion Monster may use any free zone
    assert values == [1, 0x1F, 4, 0x3, 1, 0x1F, 5, 0x2, 4]
    temp = t.duel.temp_card
    assert (temp.current.location, temp.data.type, temp.current.position) == (0, 0, 0)


def test_location_count_from_extra_deck_with_a_card():
    t = Table()
    t.card(A, LOCATION_MZONE, 0)
    t.card(H.FUSION_MON, LOCATION_EXTRA, pos=POS_FACEDOWN_DEFENSE)
    t.card(H.LINK_MON, LOCATION_EXTRA, pos=POS_FACEDOWN_DEFENSE)
    out = t.plain("""
        local f = Duel.GetFieldCard(0, LOCATION_EXTRA, 0)
        local l = Duel.GetFieldCard(0, LOCATION_EXTRA, 1)
        return Duel.GetLocationCountFromEx(0, 0, nil, f), Duel.GetLocationCountFromEx(0, 0, nil, l)
    """)
    assert out == (5, 1, 0x1F)     # the second call keeps both values: count and unusable zones


def test_mzone_count_rejects_other_objects():
    t = Table()
    with pytest.raises(ScriptFailure, match='Parameter 2 should be "Card" or "Group".'):
        t.plain("return Duel.GetMZoneCount(0, 5)")
    with pytest.raises(ScriptFailure, match='Parameter 3 should be "Card" or "Group".'):
        t.plain("return Duel.GetLocationCountFromEx(0, 0, 5)")


def test_field_card_and_check_location():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 2, player=1)
    t.card(H.FIELD_SPELL, LOCATION_SZONE, 5, pos=POS_FACEUP)
    out = t.plain("""
        return Duel.GetFieldCard(1, LOCATION_MZONE, 2), Duel.GetFieldCard(0, LOCATION_FZONE, 0):GetCode(),
            Duel.CheckLocation(1, LOCATION_MZONE, 2), Duel.CheckLocation(1, LOCATION_MZONE, 3),
            Duel.CheckLocation(0, LOCATION_FZONE, 0), Duel.GetFieldCard(0, LOCATION_MZONE, 2) == nil
    """)
    assert out == (a, H.FIELD_SPELL, False, True, False, True)


def test_field_card_hides_monsters_being_summoned():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 0)
    a.set_status(STATUS_SUMMONING, True)
    assert t.plain("return Duel.GetFieldCard(0, LOCATION_MZONE, 0) == nil") == (True,)


def test_linked_zones_and_groups():
    t = Table()
    link = t.card(H.LINK_MON, LOCATION_MZONE, 1)        # left and right arrows: zones 0 and 2
    a = t.card(A, LOCATION_MZONE, 0)
    t.card(B, LOCATION_MZONE, 3)
    out = t.plain("""
        local g = Duel.GetLinkedGroup(0, 1, 0)
        return Duel.GetLinkedZone(0), Duel.GetLinkedGroupCount(0, 1, 0), g:GetCount(),
            g:IsContains(Duel.GetFieldCard(0, LOCATION_MZONE, 0)), Duel.GetLinkedGroupCount(0, 0, 1)
    """)
    assert out == (0x5, 1, 1, True, 0)
    assert link.get_linked_zone() == 0x5
    assert a.current.sequence == 0


def test_is_environment():
    t = Table()
    t.card(H.FIELD_SPELL, LOCATION_SZONE, 5, player=1, pos=POS_FACEUP)
    t.card(A, LOCATION_GRAVE)
    out = t.plain("""
        return Duel.IsEnvironment(%d), Duel.IsEnvironment(%d, 0), Duel.IsEnvironment(%d, 1),
            Duel.IsEnvironment(%d, PLAYER_ALL, LOCATION_GRAVE), Duel.IsEnvironment(%d)
    """ % (H.FIELD_SPELL, H.FIELD_SPELL, H.FIELD_SPELL, A, A))
    assert out == (True, False, True, True, False)


def test_is_environment_face_down_field_spell_does_not_count():
    t = Table()
    t.card(H.FIELD_SPELL, LOCATION_SZONE, 5, pos=POS_FACEDOWN)
    assert t.plain("return Duel.IsEnvironment(%d)" % H.FIELD_SPELL) == (False,)


# ===== summon counts, flag effects, events ==========================================================

def test_check_summoned_count_follows_the_summon_count():
    t = Table()
    t.run("return Duel.CheckSummonedCount()")
    assert t.results() == (True,)
    t.duel.core.summon_count[0] = 1
    t.run("return Duel.CheckSummonedCount()")
    assert t.results() == (False,)


def test_flag_effect_queries_as_plain_calls():
    t = Table()
    t.run("local e, tp = ... ; Duel.RegisterFlagEffect(1, 777, 0, 0, 1, -5)")
    out = t.plain("return Duel.GetFlagEffect(1, 777), Duel.GetFlagEffectLabel(1, 777), "
                  "Duel.GetFlagEffect(0, 777), Duel.GetFlagEffectLabel(0, 777)")
    assert out == (1, -5, 0, None)


def test_check_event_with_event_info_inside_an_event():
    t = Table()
    w = t.watcher()
    t.card(A, LOCATION_MZONE, 0, player=1)
    t.run("""
        local e, tp = ...
        Duel.Destroy(Duel.GetFieldCard(1, LOCATION_MZONE, 0), REASON_EFFECT)
    """)
    # after the action, the events of that point are still checked by CheckEvent
    out = t.plain(COLLECT + """
        add(Duel.CheckEvent(EVENT_DESTROYED))
        add(Duel.CheckEvent(EVENT_TO_GRAVE, true))
        add(Duel.CheckEvent(EVENT_SUMMON_SUCCESS, true))
        return all()
    """)
    p = pairs_of(out)
    assert p[0] == (True, "boolean")
    assert [ty for _, ty in p[1:8]] == ["boolean", "userdata", "integer", "integer", "userdata",
                                       "integer", "integer"]
    assert p[1][0] is True and p[6][0] == REASON_EFFECT | REASON_DESTROY and p[7][0] == 0
    assert p[8] == (False, "boolean") and len(p) == 9
    assert t.times(w, EVENT_DESTROYED) == 1


def test_check_timing():
    t = Table()
    t.duel.core.hint_timing[1] = TIMING_SPSUMMON
    assert t.plain("return Duel.CheckTiming(TIMING_SPSUMMON), Duel.CheckTiming(TIMING_SUMMON)") == (True, False)


# ===== the chain =================================================================================

def test_chain_queries_inside_a_chain_link():
    t = Table()
    t.run_chain(COLLECT + """
        local e, tp = ...
        add(Duel.GetCurrentChain(), Duel.GetReadyChain())
        local te, p, loc, ct = Duel.GetChainInfo(0, CHAININFO_TRIGGERING_EFFECT, CHAININFO_TRIGGERING_PLAYER,
            CHAININFO_TRIGGERING_LOCATION, CHAININFO_CHAIN_COUNT)
        add(te == e, p, loc, ct)
        add(Duel.GetChainInfo(1, CHAININFO_TRIGGERING_CODE, 0x80000000, CHAININFO_TYPE))
        add(select("#", Duel.GetChainEvent(1)))
        add(Duel.GetTargetsRelateToChain():GetCount())
        return all()
    """)
    out = pairs_of(t.results())
    assert out == [(1, "integer"), (1, "integer"), (True, "boolean"), (0, "integer"),
                   (LOCATION_REMOVED, "integer"), (1, "integer"), (H.OPERATOR, "integer"), (None, "nil"),
                   (TYPE_MONSTER, "integer"), (6, "integer"), (0, "integer")]


def test_chain_changes_are_seen_by_chain_info():
    t = Table()
    msgs, _ = t.run_chain("""
        Duel.ChangeTargetParam(0, 1234)
        Duel.ChangeTargetPlayer(0, 1)
        local prm, pl = Duel.GetChainInfo(0, CHAININFO_TARGET_PARAM, CHAININFO_TARGET_PLAYER)
        local ne = Duel.NegateEffect(0)
        local dp = Duel.GetChainInfo(0, CHAININFO_DISABLE_PLAYER)
        return prm, pl, ne, dp
    """)
    assert t.results() == (1234, 1, True, 0)
    assert "CHAIN_DISABLED" in names(msgs)


def test_no_chain_no_chain_info():
    t = Table()
    out = t.plain("return Duel.GetCurrentChain(), Duel.GetReadyChain(), Duel.GetChainInfo(0, CHAININFO_CHAIN_ID) == nil,"
                  " Duel.GetFirstTarget() == nil, Duel.GetTargetsRelateToChain():GetCount()")
    assert out == (0, 0, True, True, 0)


# ===== the battle =================================================================================

def test_battle_queries_outside_a_battle():
    t = Table()
    out = t.plain("""
        local a, b = Duel.GetBattleMonster(0)
        return Duel.GetAttacker() == nil, Duel.GetAttackTarget() == nil, a == nil, b == nil, Duel.GetBattleDamage(0)
    """)
    assert out == (True, True, True, True, 0)


def test_calculate_damage_in_a_chain_and_battle_queries():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 0)
    b = t.card(B, LOCATION_MZONE, 0, player=1)
    msgs, _ = t.run_chain("""
        local e, tp = ...
        local a = Duel.GetFieldCard(0, LOCATION_MZONE, 0)
        local b = Duel.GetFieldCard(1, LOCATION_MZONE, 0)
        Duel.CalculateDamage(a, b)
        local m0, m1 = Duel.GetBattleMonster(1)
        return Duel.GetLP(1), Duel.IsDamageCalculated(), Duel.GetAttacker() == a, Duel.GetAttackTarget() == b,
            m0 == b, m1 == a
    """)
    assert t.results() == (7500, True, True, True, True, True)
    n = names(msgs)
    assert n.index("ATTACK") < n.index("DAMAGE_STEP_START") < n.index("BATTLE") < n.index("DAMAGE")
    assert b.current.location == LOCATION_GRAVE and a.current.location == LOCATION_MZONE
    assert t.duel.core.effect_damage_step == 0


def test_queries_that_return_nothing_give_zero_values():
    t = Table()
    out = t.plain("""
        return select("#", Duel.GetLP(5)), select("#", Duel.GetChainInfo(1)), select("#", Duel.GetFirstTarget()),
            select("#", Duel.GetFieldCard(0, LOCATION_MZONE, 0)), select("#", Duel.GetLocationCount(7, LOCATION_MZONE))
    """)
    assert out == (0, 0, 0, 0, 0)
