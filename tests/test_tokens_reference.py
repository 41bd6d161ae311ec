"""The tokens guide's Lua contract, checked value by value against the reference core.

The snippets run through the probe card of the counters tests' kit
(tests/test_counters_kit.py: a banished Quick Effect whose operation runs the
next snippet and writes what it returned into the message stream).  Each test
asserts the values; with OCGCORE_LIB naming a build of the reference core
(docs/reference.md) the same duel is then played on the reference and every
message byte (so every returned value too) must be the same.  The cards are
our own (cards/tokens.toml); tests/test_tokens_lua.py has the same contract in
more detail without the reference.
"""

from __future__ import annotations

import pytest

import test_counters_kit as kit
from duelhost.engine import constants as C

LANTERN_TOKEN = 190003002     # Fiend/DARK/Level 1/500/500, archetype 0xf05
FLOCK_TOKEN = 190003021       # Beast/EARTH/Level 1/0/0
CURFEW = 190003040            # the opponent of its controller cannot Special Summon DARK Tokens
SINGLE_FILE = 190003050       # the effect code 59822133
SHUTTERED = 190003060         # its controller's opponent's zones 0 and 1 are disabled
FILLER = 190000008            # Normal Monster, Level 4
MOVED_TO_NOWHERE = 0

TABLES: list[kit.Table] = []


def table(*snippets: str) -> kit.Table:
    t = kit.Table(snippets)
    TABLES.append(t)
    return t


@pytest.fixture(autouse=True)
def same_on_reference():
    TABLES.clear()
    yield
    tables, lib = list(TABLES), kit.reference_library()
    TABLES.clear()
    try:
        if lib is not None:
            for t in tables:
                problems = kit.replay_on_reference(t, lib)
                assert problems == [], "\n".join(problems)
    finally:
        for t in tables:
            t.close()


def test_create_token_values():
    t = table("""
        local tk = Duel.CreateToken(tp, %d)
        local ok = Duel.IsPlayerCanSpecialSummonMonster(tp, %d, 0, TYPES_TOKEN_MONSTER, 9999, 8888, 12,
            RACE_DRAGON, ATTRIBUTE_LIGHT)
        return tk:GetLocation(), tk:GetControler(), tk:GetOwner(), tk:GetCode(), tk:GetType(), tk:GetAttack(),
            tk:GetDefense(), tk:GetLevel(), tk:GetRace(), tk:GetAttribute(), tk:IsSetCard(0xf05), ok,
            Duel.CreateToken(2, %d)
    """ % (LANTERN_TOKEN, LANTERN_TOKEN, LANTERN_TOKEN))
    t.start()
    assert t.run() == (0, 0, 0, LANTERN_TOKEN, C.TYPES_TOKEN_MONSTER, 500, 500, 1, C.RACE_FIEND,
                       C.ATTRIBUTE_DARK, True, True, False)


def test_prospective_monster_seen_by_a_target_function():
    t = table("""
        seen = {}
        local e1 = Effect.GlobalEffect()
        e1:SetType(EFFECT_TYPE_FIELD)
        e1:SetCode(EFFECT_CANNOT_SPECIAL_SUMMON)
        e1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        e1:SetTargetRange(1, 1)
        e1:SetTarget(function(e, c, sump, sumtype, sumpos, targetp, se)
            seen = {c:GetCode(), c:GetType(), c:GetAttack(), c:GetDefense(), c:GetLevel(), c:GetRace(),
                c:GetAttribute(), c:IsSetCard(0x49), c:GetLocation(), sump, sumtype, sumpos, targetp}
            return c:IsAttribute(ATTRIBUTE_LIGHT)
        end)
        Duel.RegisterEffect(e1, 0)
        return true
    """, """
        local a = Duel.IsPlayerCanSpecialSummonMonster(0, %d, 0x49, TYPES_TOKEN_MONSTER, 1234, 567, 7,
            RACE_WARRIOR, ATTRIBUTE_EARTH, POS_FACEUP_DEFENSE, 1, 0x20)
        local b = Duel.IsPlayerCanSpecialSummonMonster(0, %d, nil, nil, nil, nil, nil, nil, ATTRIBUTE_LIGHT)
        local c = Duel.IsPlayerCanSpecialSummonMonster(0, %d, 0, TYPES_TOKEN_MONSTER, 0, 0, 1, RACE_FIEND,
            ATTRIBUTE_DARK, POS_FACEDOWN_DEFENSE)
        local d = Duel.IsPlayerCanSpecialSummonMonster(0, %d)
        return a, b, c, d, table.unpack(seen)
    """ % ((LANTERN_TOKEN,) * 4))
    t.start()
    assert t.run() == (True,)
    assert t.run() == (True, False, False, True,
                       LANTERN_TOKEN, C.TYPES_TOKEN_MONSTER, 500, 500, 1, C.RACE_FIEND, C.ATTRIBUTE_DARK, False,
                       0, 0, C.SUMMON_TYPE_SPECIAL, C.POS_FACEUP, 0)


def test_zones_disabled_restrictions_and_59822133():
    t = table("""
        local n, flag = Duel.GetLocationCount(0, LOCATION_MZONE)
        return n, flag & 0x1f, (Duel.GetLocationCount(1, LOCATION_MZONE)),
            Duel.IsPlayerCanSpecialSummonMonster(0, %d), Duel.IsPlayerCanSpecialSummonMonster(0, %d),
            Duel.IsPlayerCanSpecialSummonMonster(1, %d), Duel.IsPlayerAffectedByEffect(0, 59822133) ~= nil,
            Duel.IsPlayerAffectedByEffect(1, 59822133) ~= nil
    """ % (LANTERN_TOKEN, FLOCK_TOKEN, LANTERN_TOKEN))
    t.place(SHUTTERED, 1, C.LOCATION_SZONE, 0, C.POS_FACEUP)
    t.place(CURFEW, 1, C.LOCATION_SZONE, 1, C.POS_FACEUP)
    t.place(SINGLE_FILE, 1, C.LOCATION_SZONE, 2, C.POS_FACEUP)
    t.place(FILLER, 0, C.LOCATION_MZONE, 4)
    t.start()
    assert t.run() == (2, 0b10011, 5, False, True, True, True, True)


def test_special_summon_positions_and_the_two_flags():
    t = table("""
        local tk = Duel.CreateToken(tp, %d)
        local down = Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEDOWN_DEFENSE)
        local e1 = Effect.CreateEffect(tk)
        e1:SetType(EFFECT_TYPE_SINGLE)
        e1:SetProperty(EFFECT_FLAG_CANNOT_DISABLE + EFFECT_FLAG_UNCOPYABLE)
        e1:SetCode(EFFECT_SPSUMMON_CONDITION)
        e1:SetValue(aux.FALSE)
        tk:RegisterEffect(e1)
        local cond = Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        local nocheck = Duel.SpecialSummon(tk, 0, tp, tp, true, false, POS_FACEUP_DEFENSE)
        local again = Duel.SpecialSummon(tk, 0, tp, tp, true, true, POS_FACEUP_ATTACK)
        return down, cond, nocheck, tk:GetPosition(), again
    """ % FLOCK_TOKEN, """
        local c = C(%d, 0)
        c:EnableReviveLimit()
        local limited = Duel.SpecialSummon(c, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local nolimit = Duel.SpecialSummon(c, 0, tp, tp, false, true, POS_FACEUP_ATTACK)
        return limited, nolimit
    """ % FILLER, """
        local tk = Duel.CreateToken(tp, %d)
        return Duel.SpecialSummon(tk, 0, tp, tp, true, true, POS_FACEUP), tk:GetLocation()
    """ % LANTERN_TOKEN)
    t.place(FILLER, 0, C.LOCATION_GRAVE)
    t.place(CURFEW, 1, C.LOCATION_SZONE, 0, C.POS_FACEUP)   # DARK Tokens refused, EARTH ones not
    t.start()
    assert t.run() == (0, 0, 1, C.POS_FACEUP_DEFENSE, 0)
    assert t.run() == (0, 1)
    # nocheck and nolimit do not let the DARK Token past the player's restriction
    assert t.run() == (0, 0)


def test_select_position_and_special_summon_faceup():
    t = table("""
        local tk = Duel.CreateToken(tp, %d)
        local chosen = Duel.SelectPosition(tp, tk, POS_FACEUP_ATTACK + POS_FACEUP_DEFENSE)
        local single = Duel.SelectPosition(tp, tk, POS_FACEUP_DEFENSE)
        local empty = Duel.SelectPosition(tp, tk, 0)
        local ok = pcall(Duel.SelectPosition, tp, %d, POS_FACEUP)
        local n = Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP)
        return chosen, single, empty, ok, n, tk:GetPosition()
    """ % (LANTERN_TOKEN, LANTERN_TOKEN))
    t.start()
    pos = kit.Answer((kit.MsgSelectPosition,), lambda p, t: kit.PositionResponse(position=C.POS_FACEUP_DEFENSE))
    pos2 = kit.Answer((kit.MsgSelectPosition,), lambda p, t: kit.PositionResponse(position=C.POS_FACEUP_ATTACK))
    assert t.run(pos, pos2) == (C.POS_FACEUP_DEFENSE, C.POS_FACEUP_DEFENSE, C.POS_FACEUP_ATTACK, False, 1,
                                C.POS_FACEUP_ATTACK)
    asked = [p for p in t.prompts if isinstance(p, kit.MsgSelectPosition)]
    assert [(p.code, p.positions) for p in asked] == [(LANTERN_TOKEN, 0x5)] * 2


def test_steps_booleans_one_completion_and_an_unfinished_batch():
    t = table("""
        WATCH(EVENT_SPSUMMON_SUCCESS)
        return true
    """, """
        local a = Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        local tk = Duel.CreateToken(tp, %d)
        local b = Duel.SpecialSummonStep(tk, 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        local e1 = Effect.CreateEffect(e:GetHandler())
        e1:SetType(EFFECT_TYPE_SINGLE)
        e1:SetCode(EFFECT_UNRELEASABLE_SUM)
        e1:SetProperty(EFFECT_FLAG_CANNOT_DISABLE)
        e1:SetValue(1)
        e1:SetReset(RESET_EVENT + RESETS_STANDARD)
        tk:RegisterEffect(e1, true)
        local c = Duel.SpecialSummonStep(Duel.CreateToken(tp, %d), 0, tp, tp, false, false, POS_FACEUP_DEFENSE)
        local free = Duel.GetLocationCount(tp, LOCATION_MZONE)
        local visible = Duel.GetFieldGroupCount(tp, LOCATION_MZONE, 0)
        local n = Duel.SpecialSummonComplete()
        return a, b, c, type(b) == "boolean", free, visible, n, Duel.GetFieldGroupCount(tp, LOCATION_MZONE, 0),
            tk:IsHasEffect(EFFECT_UNRELEASABLE_SUM) ~= nil
    """ % (FLOCK_TOKEN, FLOCK_TOKEN, LANTERN_TOKEN), """
        local tk = Duel.CreateToken(tp, %d)
        if Duel.SpecialSummonStep(tk, 0, tp, tp, false, false, POS_FACEUP_ATTACK) then return true end
        Duel.SpecialSummonComplete()
        return false
    """ % FLOCK_TOKEN, """
        return Duel.GetFieldGroupCount(tp, LOCATION_MZONE, 0), (Duel.GetLocationCount(tp, LOCATION_MZONE))
    """, "return SEEN()")
    t.place(CURFEW, 1, C.LOCATION_SZONE, 0, C.POS_FACEUP)     # the DARK Lantern Token's step fails
    t.start()
    assert t.run() == (True,)
    assert t.run() == (True, True, False, True, 3, 0, 2, 2, True)
    assert t.run() == (True,)
    # the unfinished batch: the Token is placed (its zone is used) but not on the field for matching
    assert t.run() == (2, 2)
    # one Summon event for the whole batch (event player PLAYER_NONE, 2 cards), none for the unfinished one
    seen = t.run()
    assert [seen[i:i + 5] for i in range(0, len(seen), 5)] == [(C.EVENT_SPSUMMON_SUCCESS, 0, 2, 0, 2)]


@pytest.mark.parametrize("how", [
    "Duel.Destroy(tk, REASON_EFFECT)",
    "Duel.SendtoHand(tk, nil, REASON_EFFECT)",
    "Duel.SendtoDeck(tk, nil, SEQ_DECKSHUFFLE, REASON_EFFECT)",
    "Duel.Remove(tk, POS_FACEUP, REASON_EFFECT)",
])
def test_a_token_leaving_the_field_ceases_to_exist(how):
    t = table("""
        local tk = Duel.CreateToken(tp, %d)
        Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local n = %s
        return n, tk:GetLocation(), Duel.IsExistingMatchingCard(Card.IsCode, tp, 0xff, 0xff, 1, nil, %d)
    """ % (LANTERN_TOKEN, how, LANTERN_TOKEN))
    t.start()
    n, location, exists = t.run()
    assert (location, exists) == (MOVED_TO_NOWHERE, False)


def test_tokens_cannot_be_set_and_their_materials_and_costs():
    t = table("""
        local tk = Duel.CreateToken(tp, %d)
        Duel.SpecialSummon(tk, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local set = tk:IsCanTurnSet()
        local n = Duel.ChangePosition(tk, POS_FACEDOWN_DEFENSE)
        return set, n, tk:GetPosition(), tk:IsCanBeXyzMaterial(nil), tk:IsCanOverlay(), tk:IsAbleToGraveAsCost(),
            tk:IsAbleToHandAsCost(), tk:IsAbleToDeckAsCost(), tk:IsCanBeLinkMaterial(nil),
            tk:IsCanBeSynchroMaterial(), tk:IsAbleToRemoveAsCost(), tk:IsAbleToHand(), tk:IsAbleToDeck(),
            tk:IsCanBeSpecialSummoned(e, 0, tp, true, true)
    """ % LANTERN_TOKEN)
    t.start()
    assert t.run() == (False, 1, C.POS_FACEUP_DEFENSE, False, False, False, False, False, True, True, True,
                       True, True, False)
