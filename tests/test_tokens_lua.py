"""The tokens guide's Lua contract, function by function, from Lua snippets in a real duel.

The snippets run as the operation of the test operator card of the Duel library
tests (tests/data/lib_duel_a: ``Table.run`` runs a snippet as a chain link's
operation would, ``Table.plain`` as a condition would), with our own cards of
cards/tokens.toml (rows read from the bundled cards.db, scripts from scripts/).
What is checked, in the guide's order: Duel.CreateToken,
Duel.IsPlayerCanSpecialSummonMonster, Duel.GetLocationCount and zones,
Duel.SpecialSummon (positions, nocheck/nolimit, events), Duel.SelectPosition,
Duel.SpecialSummonStep/Complete, the effect code 59822133, and the rules of
Tokens (type, leaving the field, no Set, materials and costs).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from duelhost.bindings.errors import ScriptFailure
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.duel import card_reader_from_db
from duelhost.engine.messages import MsgMove, MsgSelectPosition
from duelhost.engine.wire import pack_i32

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _load_harness():
    name = "lib_duel_a_harness"
    if name in sys.modules:
        return sys.modules[name]
    path = HERE / "data" / "lib_duel_a" / "harness.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


H = _load_harness()
names = H.names
A = H.MONSTER_A              # Normal Monster, Level 4, FIRE Warrior 1500/1200 (harness row)

LANTERN_TOKEN = 190003002    # Fiend/DARK/Level 1/500/500, setcode 0xf05
PROCESSION_TOKEN = 190003011
FLOCK_TOKEN = 190003021
CURFEW = 190003040           # the opponent of its controller cannot Special Summon DARK Tokens
SINGLE_FILE = 190003050      # the effect code 59822133
SHUTTERED = 190003060        # its controller's opponent's zones 0 and 1 are disabled
UNKNOWN = 190003999          # no row

_READ = card_reader_from_db(CardDatabase.open(REPO / "cards.db"))
OUR_ROWS = {code: _READ(code) for code in (LANTERN_TOKEN, PROCESSION_TOKEN, FLOCK_TOKEN, CURFEW,
                                           SINGLE_FILE, SHUTTERED)}


def Table():
    return H.Table(db=OUR_ROWS)


def lua_error(t, src: str) -> str:
    with pytest.raises(ScriptFailure) as info:
        t.run(src)
    return str(info.value)


# =====================================================================================
# Duel.CreateToken
# =====================================================================================

def test_create_token_is_a_card_with_no_location_yet():
    t = Table()
    t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return tk:GetLocation(), tk:GetSequence(), tk:GetControler(), tk:GetOwner(), tk:IsOnField(),
            Duel.GetFieldGroupCount(tp, LOCATION_ONFIELD, 0), aux.GetValueType(tk)
    """ % LANTERN_TOKEN)
    assert t.results() == (0, 0, 0, 0, False, 0, "Card")


def test_create_token_reads_the_database_not_the_check_arguments():
    t = Table()
    t.run("""
        local e, tp = ...
        -- a check that describes a different monster than the row
        local ok = Duel.IsPlayerCanSpecialSummonMonster(tp, %d, 0, TYPES_TOKEN_MONSTER, 9999, 8888, 12,
            RACE_DRAGON, ATTRIBUTE_LIGHT)
        local tk = Duel.CreateToken(tp, %d)
        return ok, tk:GetCode(), tk:GetType(), tk:GetAttack(), tk:GetDefense(), tk:GetLevel(), tk:GetRace(),
            tk:GetAttribute(), tk:IsSetCard(0xf05), tk:GetOriginalCode()
    """ % (LANTERN_TOKEN, LANTERN_TOKEN))
    assert t.results() == (True, LANTERN_TOKEN, TYPES_TOKEN_MONSTER, 500, 500, 1, RACE_FIEND, ATTRIBUTE_DARK,
                           True, LANTERN_TOKEN)


def test_create_token_for_the_other_player_and_a_bad_player():
    t = Table()
    t.run("""
        local tk = Duel.CreateToken(1, %d)
        return tk:GetControler(), tk:GetOwner(), Duel.CreateToken(2, %d), Duel.CreateToken(-1, %d)
    """ % (LANTERN_TOKEN, LANTERN_TOKEN, LANTERN_TOKEN))
    assert t.results() == (1, 1, False, False)


def test_create_token_of_a_code_with_no_row_makes_a_blank_card_and_a_warning():
    """The reference's card reader answers zeros for a code with no row, so
    Duel.CreateToken makes a blank card with that code and the duel goes on
    (issue 12 item 7); ours does the same and records a warning naming the code."""
    t = Table()
    t.run("""
        local tk = Duel.CreateToken(0, %d)
        return tk:GetCode(), tk:GetOriginalType(), tk:GetAttack(), tk:GetLevel(), tk:GetControler()
    """ % UNKNOWN)
    assert t.results() == (UNKNOWN, 0, 0, 0, 0)
    assert any(c.data.code == UNKNOWN for c in t.duel.cards)
    assert len(t.duel.warnings) == 1 and str(UNKNOWN) in t.duel.warnings[0] and "no row" in t.duel.warnings[0]


def test_create_token_needs_an_action_context():
    t = Table()
    with pytest.raises(ScriptFailure, match="Action is not allowed here"):
        t.plain("return Duel.CreateToken(0, %d)" % LANTERN_TOKEN)


# =====================================================================================
# Duel.IsPlayerCanSpecialSummonMonster
# =====================================================================================

RECORDER = """
    local e, tp = ...
    seen = {}
    local e1 = Effect.GlobalEffect()
    e1:SetType(EFFECT_TYPE_FIELD)
    e1:SetCode(EFFECT_CANNOT_SPECIAL_SUMMON)
    e1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
    e1:SetTargetRange(1, 1)
    e1:SetTarget(function(e, c, sump, sumtype, sumpos, targetp, se)
        seen[#seen + 1] = {c:GetCode(), c:GetType(), c:GetAttack(), c:GetDefense(), c:GetLevel(), c:GetRace(),
            c:GetAttribute(), c:IsSetCard(0x49), c:GetLocation(), sump, sumtype, sumpos, targetp}
        return c:IsAttribute(ATTRIBUTE_LIGHT)
    end)
    Duel.RegisterEffect(e1, 0)
"""


def seen(t, i: int = -1) -> tuple:
    return tuple(t.plain(f"return table.unpack(seen[#seen + 1 + ({i})])"))


def test_target_functions_see_the_prospective_monster_described_by_the_arguments():
    t = Table()
    t.run(RECORDER)
    r = t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d, 0x49, TYPES_TOKEN_MONSTER, 1234, 567, 7, "
                "RACE_WARRIOR, ATTRIBUTE_EARTH, POS_FACEUP_DEFENSE, 1, 0x20)" % LANTERN_TOKEN)
    assert r == (True,)
    assert seen(t) == (LANTERN_TOKEN, TYPES_TOKEN_MONSTER, 1234, 567, 7, RACE_WARRIOR, ATTRIBUTE_EARTH, True, 0,
                       0, 0x20 | SUMMON_TYPE_SPECIAL, POS_FACEUP_DEFENSE, 1)
    # the restriction refuses LIGHT: the same code described as LIGHT is refused
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d, 0, TYPES_TOKEN_MONSTER, 500, 500, 1, "
                   "RACE_FIEND, ATTRIBUTE_LIGHT)" % LANTERN_TOKEN) == (False,)


def test_omitted_and_nil_arguments_come_from_the_database_row():
    t = Table()
    t.run(RECORDER)
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d)" % LANTERN_TOKEN) == (True,)
    assert seen(t) == (LANTERN_TOKEN, TYPES_TOKEN_MONSTER, 500, 500, 1, RACE_FIEND, ATTRIBUTE_DARK, False, 0,
                       0, SUMMON_TYPE_SPECIAL, POS_FACEUP, 0)
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d, nil, nil, 800)" % LANTERN_TOKEN) == (True,)
    assert seen(t)[2:5] == (800, 500, 1)


def test_a_player_restriction_rejects_and_only_the_restricted_player():
    t = Table()
    t.card(CURFEW, LOCATION_SZONE, 0, POS_FACEUP, player=1)     # player 0 cannot Special Summon DARK Tokens
    dark = ("Duel.IsPlayerCanSpecialSummonMonster(%d, %d, 0, TYPES_TOKEN_MONSTER, 500, 500, 1, RACE_FIEND, "
            "ATTRIBUTE_DARK)")
    light = dark.replace("ATTRIBUTE_DARK", "ATTRIBUTE_LIGHT")
    assert t.plain("return " + ", ".join([dark % (0, LANTERN_TOKEN), light % (0, LANTERN_TOKEN),
                                          dark % (1, LANTERN_TOKEN)])) == (False, True, True)
    # a DARK Effect Monster (not a Token) is not refused by this target function
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d, 0, TYPE_MONSTER+TYPE_EFFECT, 500, 500, 1,"
                   " RACE_FIEND, ATTRIBUTE_DARK)" % LANTERN_TOKEN) == (True,)


def test_a_restriction_without_a_target_function_refuses_everything():
    t = Table()
    t.run("""
        local e1 = Effect.GlobalEffect()
        e1:SetType(EFFECT_TYPE_FIELD)
        e1:SetCode(EFFECT_CANNOT_SPECIAL_SUMMON)
        e1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        e1:SetTargetRange(1, 0)
        Duel.RegisterEffect(e1, 0)
    """)
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d), Duel.IsPlayerCanSpecialSummonMonster(1, %d)"
                   % (LANTERN_TOKEN, LANTERN_TOKEN)) == (False, True)


def test_positions_tokens_cannot_be_face_down():
    t = Table()
    q = "Duel.IsPlayerCanSpecialSummonMonster(0, %d, 0, %s, 500, 500, 1, RACE_FIEND, ATTRIBUTE_DARK, %s)"
    checks = [q % (LANTERN_TOKEN, typ, pos) for typ, pos in [
        ("TYPES_TOKEN_MONSTER", "POS_FACEUP"), ("TYPES_TOKEN_MONSTER", "POS_FACEUP_DEFENSE"),
        ("TYPES_TOKEN_MONSTER", "POS_FACEDOWN_DEFENSE"), ("TYPES_TOKEN_MONSTER", "POS_FACEDOWN"),
        ("TYPE_MONSTER+TYPE_NORMAL", "POS_FACEDOWN_DEFENSE")]]
    assert t.plain("return " + ", ".join(checks)) == (True, True, False, False, True)


def test_positions_a_position_limit_refuses_only_the_limited_position():
    t = Table()
    t.run("""
        local e1 = Effect.GlobalEffect()
        e1:SetType(EFFECT_TYPE_FIELD)
        e1:SetCode(EFFECT_LIMIT_SPECIAL_SUMMON_POSITION)
        e1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        e1:SetTargetRange(1, 0)
        e1:SetTarget(function(e, c, sump, sumtype, sumpos) return sumpos & POS_ATTACK ~= 0 end)
        Duel.RegisterEffect(e1, 0)
    """)
    q = "Duel.IsPlayerCanSpecialSummonMonster(0, %d, nil, nil, nil, nil, nil, nil, nil, %s)"
    assert t.plain("return " + ", ".join(q % (LANTERN_TOKEN, p) for p in (
        "POS_FACEUP_ATTACK", "POS_FACEUP_DEFENSE", "POS_FACEUP"))) == (False, True, True)


def test_zones_are_not_part_of_the_permission_check():
    # the reference's check looks at the player, the monster and positions; scripts pair it
    # with Duel.GetLocationCount
    t = Table()
    for s in range(5):
        t.card(A, LOCATION_MZONE, s)
    assert t.plain("return Duel.GetLocationCount(0, LOCATION_MZONE), Duel.IsPlayerCanSpecialSummonMonster(0, %d)"
                   % LANTERN_TOKEN) == (0, True)


def test_a_code_without_a_row_is_checked_from_the_arguments_alone():
    # unlike Duel.CreateToken, the check needs no row: it starts from a blank monster
    t = Table()
    t.run(RECORDER)
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d, 0, TYPES_TOKEN_MONSTER, 100, 200, 3, "
                   "RACE_FIEND, ATTRIBUTE_DARK)" % UNKNOWN) == (True,)
    assert seen(t)[:7] == (UNKNOWN, TYPES_TOKEN_MONSTER, 100, 200, 3, RACE_FIEND, ATTRIBUTE_DARK)
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(0, %d)" % UNKNOWN) == (True,)
    assert seen(t)[:7] == (UNKNOWN, 0, 0, 0, 0, 0, 0)


def test_bad_player_is_false():
    t = Table()
    assert t.plain("return Duel.IsPlayerCanSpecialSummonMonster(2, %d), Duel.IsPlayerCanSpecialSummonMonster(-1, %d)"
                   % (LANTERN_TOKEN, LANTERN_TOKEN)) == (False, False)


# =====================================================================================
# Duel.GetLocationCount and zones
# =====================================================================================

def test_location_count_counts_zones_other_effects_disable():
    t = Table()
    t.card(SHUTTERED, LOCATION_SZONE, 0, POS_FACEUP, player=1)
    t.card(A, LOCATION_MZONE, 4)
    t.duel.refresh_location_info_instant()
    assert t.duel.player[0].disabled_location & 0x1f == 0x3
    assert t.plain("local n, flag = Duel.GetLocationCount(0, LOCATION_MZONE) return n, flag & 0x1f, "
                   "(Duel.GetLocationCount(1, LOCATION_MZONE))") == (2, 0b10011, 5)


def test_neither_operation_info_nor_a_passed_check_reserves_a_zone():
    t = Table()
    for s in range(4):
        t.card(A, LOCATION_MZONE, s)
    t.run_chain("""
        local e, tp = ...
        local before = Duel.GetLocationCount(tp, LOCATION_MZONE)
        local ok = before > 0 and Duel.IsPlayerCanSpecialSummonMonster(tp, %d)
        Duel.SetOperationInfo(0, CATEGORY_TOKEN, nil, 1, 0, 0)
        Duel.SetOperationInfo(0, CATEGORY_SPECIAL_SUMMON, nil, 1, tp, 0)
        return before, ok, (Duel.GetLocationCount(tp, LOCATION_MZONE))
    """ % LANTERN_TOKEN)
    assert t.results() == (1, True, 1)


def test_a_stepped_token_takes_its_zone_but_is_not_on_the_field_until_completion():
    t = Table()
    t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        Duel.SpecialSummonStep(tk, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local free = Duel.GetLocationCount(tp, LOCATION_MZONE)
        local seen = Duel.IsExistingMatchingCard(Card.IsType, tp, LOCATION_MZONE, 0, 1, nil, TYPE_TOKEN)
        local count = Duel.GetFieldGroupCount(tp, LOCATION_MZONE, 0)
        local fc = Duel.GetFieldCard(tp, LOCATION_MZONE, tk:GetSequence())
        Duel.SpecialSummonComplete()
        return free, seen, count, fc, Duel.IsExistingMatchingCard(Card.IsType, tp, LOCATION_MZONE, 0, 1, nil,
            TYPE_TOKEN), Duel.GetFieldCard(tp, LOCATION_MZONE, tk:GetSequence()) == tk
    """ % LANTERN_TOKEN)
    assert t.results() == (4, False, 0, None, True, True)


# =====================================================================================
# Duel.SpecialSummon
# =====================================================================================

def test_special_summon_faceup_asks_attack_or_defense_and_returns_the_count():
    t = Table()
    w = t.watcher()
    msgs, prompts = t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP), tk:GetPosition()
    """ % LANTERN_TOKEN, answers=[bytes([0, LOCATION_MZONE, 2]), pack_i32(POS_FACEUP_DEFENSE)])
    (asked,) = [p for p in prompts if isinstance(p, MsgSelectPosition)]
    assert (asked.code, asked.positions) == (LANTERN_TOKEN, POS_FACEUP_ATTACK | POS_FACEUP_DEFENSE)
    assert t.results() == (1, POS_FACEUP_DEFENSE)
    assert t.times(w, EVENT_SPSUMMON_SUCCESS) == 1


def test_special_summon_faceup_defense_forces_defense():
    t = Table()
    _, prompts = t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP_DEFENSE), tk:GetPosition()
    """ % LANTERN_TOKEN)
    assert not any(isinstance(p, MsgSelectPosition) for p in prompts)
    assert t.results() == (1, POS_FACEUP_DEFENSE)


def test_special_summon_a_token_face_down_fails():
    t = Table()
    t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEDOWN_DEFENSE), tk:GetLocation()
    """ % LANTERN_TOKEN)
    assert t.results() == (0, 0)


def test_special_summon_to_the_other_player():
    t = Table()
    t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return Duel.SpecialSummon(tk, 0, tp, 1 - tp, false, false, POS_FACEUP_DEFENSE), tk:GetControler(),
            tk:GetOwner(), tk:GetSummonPlayer()
    """ % LANTERN_TOKEN)
    assert t.results() == (1, 1, 0, 0)


def test_nocheck_and_nolimit_do_not_bypass_a_player_restriction():
    t = Table()
    t.card(CURFEW, LOCATION_SZONE, 0, POS_FACEUP, player=1)
    t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return Duel.SpecialSummon(tk, 0, tp, tp, true, true, POS_FACEUP), tk:GetLocation()
    """ % LANTERN_TOKEN)
    assert t.results() == (0, 0)


def test_nocheck_ignores_the_summoning_condition():
    t = Table()
    src = """
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        local e1 = Effect.CreateEffect(tk)
        e1:SetType(EFFECT_TYPE_SINGLE)
        e1:SetProperty(EFFECT_FLAG_CANNOT_DISABLE + EFFECT_FLAG_UNCOPYABLE)
        e1:SetCode(EFFECT_SPSUMMON_CONDITION)
        e1:SetValue(aux.FALSE)
        tk:RegisterEffect(e1)
        return Duel.SpecialSummon(tk, 0, tp, tp, %s, false, POS_FACEUP_ATTACK)
    """
    t.run(src % (LANTERN_TOKEN, "false"))
    assert t.results() == (0,)
    t.run(src % (LANTERN_TOKEN, "true"))
    assert t.results() == (1,)


def test_nolimit_ignores_the_revive_limit():
    t = Table()
    a = t.card(A, LOCATION_GRAVE)
    src = """
        local e, tp = ...
        local c = Duel.GetFieldCard(0, LOCATION_GRAVE, 0)
        if not c:IsHasEffect(EFFECT_REVIVE_LIMIT) then c:EnableReviveLimit() end
        return Duel.SpecialSummon(c, 0, tp, tp, false, %s, POS_FACEUP_ATTACK)
    """
    t.run(src % "false")
    assert t.results() == (0,) and a.current.location == LOCATION_GRAVE
    t.run(src % "true")
    assert t.results() == (1,) and a.current.location == LOCATION_MZONE


def test_a_token_already_on_the_field_cannot_be_special_summoned_again():
    t = Table()
    t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        return tk:IsCanBeSpecialSummoned(e, 0, tp, false, false), Duel.SpecialSummon(tk, 0, tp, tp, true, true,
            POS_FACEUP_ATTACK), Duel.GetFieldGroupCount(tp, LOCATION_MZONE, 0)
    """ % LANTERN_TOKEN)
    assert t.results() == (False, 0, 1)


# =====================================================================================
# Duel.SelectPosition
# =====================================================================================

def test_select_position_takes_a_card_and_returns_the_answer():
    t = Table()
    msgs, prompts = t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        local pos = Duel.SelectPosition(tp, tk, POS_FACEUP_ATTACK + POS_FACEUP_DEFENSE)
        return pos, math.type(pos), tk:GetLocation()
    """ % LANTERN_TOKEN, answers=[pack_i32(POS_FACEUP_DEFENSE)])
    (asked,) = prompts
    assert isinstance(asked, MsgSelectPosition)
    assert (asked.player, asked.code, asked.positions) == (0, LANTERN_TOKEN, POS_FACEUP_ATTACK | POS_FACEUP_DEFENSE)
    assert t.results() == (POS_FACEUP_DEFENSE, "integer", 0)


def test_select_position_with_one_position_does_not_ask():
    t = Table()
    _, prompts = t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return Duel.SelectPosition(tp, tk, POS_FACEUP_DEFENSE), Duel.SelectPosition(tp, tk, 0)
    """ % LANTERN_TOKEN)
    # an empty mask gives face-up Attack, as the reference's select_position
    assert prompts == [] and t.results() == (POS_FACEUP_DEFENSE, POS_FACEUP_ATTACK)


def test_select_position_refuses_a_code():
    t = Table()
    err = lua_error(t, "local e, tp = ... return Duel.SelectPosition(tp, %d, POS_FACEUP)" % LANTERN_TOKEN)
    assert 'Parameter 2 should be "Card".' in err


# =====================================================================================
# Duel.SpecialSummonStep / Duel.SpecialSummonComplete
# =====================================================================================

def test_step_returns_booleans_never_numbers():
    t = Table()
    for s in range(4):
        t.card(A, LOCATION_MZONE, s)
    t.run("""
        local e, tp = ...
        local ok1 = Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local ok2 = Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local n = Duel.SpecialSummonComplete()
        return ok1, type(ok1), ok2, type(ok2), ok2 ~= 0, n, math.type(n)
    """ % (LANTERN_TOKEN, LANTERN_TOKEN))
    # false ~= 0 is true in Lua: a numeric test of the result would be wrong
    assert t.results() == (True, "boolean", False, "boolean", True, 1, "integer")


def test_complete_raises_the_summon_events_once_for_the_whole_group():
    t = Table()
    w = t.watcher()
    msgs, _ = t.run("""
        local e, tp = ...
        for i = 1, 3 do
            Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        end
        return Duel.SpecialSummonComplete()
    """ % PROCESSION_TOKEN)
    assert t.results() == (3,)
    assert names(msgs).count("SPSUMMONING") == 3 and names(msgs).count("SPSUMMONED") == 1
    assert names(msgs).index("SPSUMMONED") > max(i for i, n in enumerate(names(msgs)) if n == "SPSUMMONING")
    assert t.times(w, EVENT_SPSUMMON_SUCCESS) == 1
    eg = t.seen(w, EVENT_SPSUMMON_SUCCESS).label_object
    assert sorted(c.data.code for c in eg.container) == [PROCESSION_TOKEN] * 3


def test_a_batch_with_a_failed_step_still_completes():
    t = Table()
    w = t.watcher()
    t.card(CURFEW, LOCATION_SZONE, 0, POS_FACEUP, player=1)   # DARK Tokens refused, EARTH ones not
    t.run("""
        local e, tp = ...
        local a = Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        local b = Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        local c = Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        return a, b, c, Duel.SpecialSummonComplete()
    """ % (FLOCK_TOKEN, LANTERN_TOKEN, FLOCK_TOKEN))
    assert t.results() == (True, False, True, 2)
    assert t.times(w, EVENT_SPSUMMON_SUCCESS) == 1
    assert len(t.seen(w, EVENT_SPSUMMON_SUCCESS).label_object.container) == 2
    assert not any(c.is_status(STATUS_SPSUMMON_STEP) for c in t.duel.player[0].list_mzone if c)


def test_returning_after_a_step_leaves_an_unfinished_batch():
    # the guide: break, never return, after a successful step.  Without the completion the
    # chain link ends with the Token placed but never Summoned: no SPSUMMONED, no Summon
    # event, and it stays "in a step" (not on the field for matching, still taking its zone)
    t = Table()
    w = t.watcher()
    msgs, _ = t.run_chain("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        if Duel.SpecialSummonStep(tk, 0, tp, tp, false, false, POS_FACEUP_ATTACK) then return end
        Duel.SpecialSummonComplete()
    """ % LANTERN_TOKEN)
    assert "SPSUMMONING" in names(msgs) and "SPSUMMONED" not in names(msgs)
    assert t.times(w, EVENT_SPSUMMON_SUCCESS) == 0
    (tk,) = [c for c in t.duel.player[0].list_mzone if c is not None]
    assert tk.is_status(STATUS_SPSUMMON_STEP)
    assert t.plain("return Duel.IsExistingMatchingCard(nil, 0, LOCATION_MZONE, 0, 1, nil), "
                   "(Duel.GetLocationCount(0, LOCATION_MZONE))") == (False, 4)


def test_complete_with_nothing_stepped_is_harmless():
    t = Table()
    w = t.watcher()
    msgs, _ = t.run("return Duel.SpecialSummonComplete()")
    assert t.results() == (0,)
    assert "SPSUMMONED" not in names(msgs) and t.times(w, EVENT_SPSUMMON_SUCCESS) == 0


def test_effects_registered_between_a_step_and_the_completion_stay():
    # the Scapegoat pattern: each Token gets its restriction right after its own step
    t = Table()
    t.run("""
        local e, tp = ...
        local tokens = {}
        for i = 1, 2 do
            local tk = Duel.CreateToken(tp, %d)
            Duel.SpecialSummonStep(tk, 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
            local e1 = Effect.CreateEffect(e:GetHandler())
            e1:SetType(EFFECT_TYPE_SINGLE)
            e1:SetCode(EFFECT_UNRELEASABLE_SUM)
            e1:SetProperty(EFFECT_FLAG_CANNOT_DISABLE)
            e1:SetValue(1)
            e1:SetReset(RESET_EVENT + RESETS_STANDARD)
            tk:RegisterEffect(e1, true)
            tokens[i] = tk
        end
        Duel.SpecialSummonComplete()
        return tokens[1]:IsHasEffect(EFFECT_UNRELEASABLE_SUM) ~= nil,
            tokens[2]:IsHasEffect(EFFECT_UNRELEASABLE_SUM) ~= nil,
            tokens[1]:IsReleasable(), Duel.CheckTribute(Duel.CreateToken(tp, %d), 1)
    """ % (FLOCK_TOKEN, FLOCK_TOKEN))
    assert t.results() == (True, True, True, False)


# =====================================================================================
# The effect code 59822133
# =====================================================================================

def test_59822133_is_read_through_is_player_affected_by_effect():
    t = Table()
    assert t.plain("return Duel.IsPlayerAffectedByEffect(0, 59822133)") == (None,)
    decree = t.card(SINGLE_FILE, LOCATION_SZONE, 0, POS_FACEUP, player=1)
    e0, e1 = t.plain("return Duel.IsPlayerAffectedByEffect(0, 59822133), Duel.IsPlayerAffectedByEffect(1, 59822133)")
    assert e0 is e1 and e0.code == 59822133 and e0.get_handler() is decree


# =====================================================================================
# The rules of Tokens
# =====================================================================================

SUMMON_ONE = """
    local e, tp = ...
    local tk = Duel.CreateToken(tp, %d)
    Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
""" % LANTERN_TOKEN


def token_on_field(t):
    (tk,) = [c for c in t.duel.player[0].list_mzone if c is not None]
    return tk


def test_token_type_is_types_token_monster():
    t = Table()
    t.run(SUMMON_ONE + "return tk:GetType(), tk:IsType(TYPE_TOKEN), tk:GetOriginalType()")
    assert t.results() == (TYPES_TOKEN_MONSTER, True, TYPES_TOKEN_MONSTER)
    assert TYPES_TOKEN_MONSTER == TYPE_MONSTER | TYPE_NORMAL | TYPE_TOKEN


@pytest.mark.parametrize("how", [
    "Duel.Destroy(tk, REASON_EFFECT)",
    "Duel.Remove(tk, POS_FACEUP, REASON_EFFECT)",
    "Duel.SendtoGrave(tk, REASON_EFFECT)",
    "Duel.SendtoHand(tk, nil, REASON_EFFECT)",
    "Duel.SendtoDeck(tk, nil, SEQ_DECKSHUFFLE, REASON_EFFECT)",
    "Duel.Release(tk, REASON_EFFECT)",
])
def test_a_token_that_leaves_the_field_ceases_to_exist(how):
    t = Table()
    w = t.watcher()
    msgs, _ = t.run(SUMMON_ONE + how + """
        return tk:GetLocation(), Duel.IsExistingMatchingCard(Card.IsCode, tp, 0xff, 0xff, 1, nil, %d)
    """ % LANTERN_TOKEN)
    assert t.results() == (0, False)
    p = t.duel.player[0]
    assert all(c.data.code != LANTERN_TOKEN for c in p.list_hand + p.list_main + p.list_grave + p.list_remove)
    move = [m for m in msgs if isinstance(m, MsgMove) and m.previous.location == LOCATION_MZONE][-1]
    assert move.code == LANTERN_TOKEN and move.current.location == 0
    # it did leave the field (the events of leaving were raised)
    assert t.times(w, EVENT_MOVE) >= 1


def test_tokens_cannot_be_set():
    # a Token told to turn face-down becomes face-up Defense Position instead (the reference's change_position)
    t = Table()
    t.run(SUMMON_ONE + """
        local can = tk:IsCanTurnSet()
        local n = Duel.ChangePosition(tk, POS_FACEDOWN_DEFENSE)
        return can, n, tk:GetPosition(), tk:IsSSetable(), tk:IsMSetable(true, nil)
    """)
    assert t.results() == (False, 1, POS_FACEUP_DEFENSE, False, False)
    assert token_on_field(t).current.position == POS_FACEUP_DEFENSE


def test_tokens_as_materials_and_costs_follow_the_reference():
    # not Xyz material, never attached as material, never a cost that sends it to the GY,
    # hand or Deck; Link and Synchro material and banishing as a cost are allowed
    t = Table()
    t.run(SUMMON_ONE + """
        return tk:IsCanBeXyzMaterial(nil), tk:IsCanOverlay(), tk:IsAbleToGraveAsCost(), tk:IsAbleToHandAsCost(),
            tk:IsAbleToDeckAsCost(), tk:IsAbleToExtraAsCost(), tk:IsCanBeLinkMaterial(nil), tk:IsCanBeSynchroMaterial(),
            tk:IsCanBeFusionMaterial(), tk:IsAbleToRemoveAsCost(), tk:IsReleasable()
    """)
    assert t.results() == (False, False, False, False, False, False, True, True, True, True, True)


def test_tokens_can_be_sent_to_hand_or_deck_by_an_effect_and_then_vanish():
    # is_capable_send_to_hand/deck do not refuse Tokens; the move itself makes them cease to exist
    t = Table()
    t.run(SUMMON_ONE + """
        local h, d = tk:IsAbleToHand(), tk:IsAbleToDeck()
        Duel.SendtoHand(tk, nil, REASON_EFFECT)
        return h, d, tk:GetLocation(), Duel.GetFieldGroupCount(tp, LOCATION_HAND, 0)
    """)
    assert t.results() == (True, True, 0, 0)
