"""Every Card function called once from Lua with plausible arguments, in a coroutine the
engine drives: none may fail (an internal error would mean a binding calls the engine
wrongly), and each gives the kind of values the reference gives."""

from __future__ import annotations

import pytest

from duelhost.bindings import registry
from duelhost.engine.constants import (EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_FIELD, EFFECT_TYPE_SINGLE,
                                       EFFECT_UPDATE_ATTACK,
                                       EVENT_FREE_CHAIN, LOCATION_FZONE, LOCATION_HAND, LOCATION_MZONE,
                                       LOCATION_SZONE)

from test_lib_card import Env

# name -> (arguments after the card, kinds of the results: "b" boolean, "i" integer,
# "c" card, "g" group, "e" effect, "n" nil, "*" anything; None: not checked)
CALLS: dict[str, tuple[str, str | None]] = {
    "GetCode": ("", "i"), "GetOriginalCode": ("", "i"), "GetOriginalCodeRule": ("", "i"),
    "GetFusionCode": ("", "i"), "GetLinkCode": ("", "i"), "IsFusionCode": ("90001", "b"),
    "IsLinkCode": ("90001", "b"), "IsSetCard": ("0x45", "b"), "IsOriginalSetCard": ("0x45", "b"),
    "IsPreviousSetCard": ("0x45", "b"), "IsFusionSetCard": ("0x45", "b"), "IsLinkSetCard": ("0x45", "b"),
    "IsSpecialSummonSetCard": ("0x45", "b"), "GetType": ("", "i"), "GetOriginalType": ("", "i"),
    "GetFusionType": ("", "i"), "GetSynchroType": ("", "i"), "GetXyzType": ("", "i"),
    "GetLinkType": ("", "i"), "GetLevel": ("", "i"), "GetRank": ("", "i"), "GetLink": ("", "i"),
    "GetSynchroLevel": ("d", "i"), "GetRitualLevel": ("d", "i"), "GetOriginalLevel": ("", "i"),
    "GetOriginalRank": ("", "i"), "IsXyzLevel": ("d, 4", "b"), "GetLeftScale": ("", "i"),
    "GetOriginalLeftScale": ("", "i"), "GetRightScale": ("", "i"), "GetOriginalRightScale": ("", "i"),
    "GetCurrentScale": ("", "i"), "IsLinkMarker": ("LINK_MARKER_TOP", "b"), "GetLinkedGroup": ("", "g"),
    "GetLinkedGroupCount": ("", "i"), "GetLinkedZone": ("", "i"), "GetMutualLinkedGroup": ("", "g"),
    "GetMutualLinkedGroupCount": ("", "i"), "GetMutualLinkedZone": ("1", "i"), "IsLinkState": ("", "b"),
    "IsExtraLinkState": ("", "b"), "GetColumnGroup": ("", "g"), "GetColumnGroupCount": ("", "i"),
    "GetColumnZone": ("LOCATION_ONFIELD", "i"), "IsAllColumn": ("", "b"), "GetAttribute": ("", "i"),
    "GetOriginalAttribute": ("", "i"), "GetFusionAttribute": ("", "i"), "GetLinkAttribute": ("0", "i"),
    "GetAttributeInGrave": ("0", "i"), "GetRace": ("", "i"), "GetOriginalRace": ("", "i"),
    "GetLinkRace": ("", "i"), "GetRaceInGrave": ("", "i"), "GetAttack": ("", "i"),
    "GetBaseAttack": ("", "i"), "GetTextAttack": ("", "i"), "GetDefense": ("", "i"),
    "GetBaseDefense": ("", "i"), "GetTextDefense": ("", "i"), "GetPreviousCodeOnField": ("", "i"),
    "GetPreviousTypeOnField": ("", "i"), "GetPreviousLevelOnField": ("", "i"),
    "GetPreviousRankOnField": ("", "i"), "GetPreviousAttributeOnField": ("", "i"),
    "GetPreviousRaceOnField": ("", "i"), "GetPreviousAttackOnField": ("", "i"),
    "GetPreviousDefenseOnField": ("", "i"), "GetPreviousOverlayCountOnField": ("", "i"),
    "GetOwner": ("", "i"), "GetControler": ("", "i"), "GetPreviousControler": ("", "i"),
    "SetReason": ("REASON_EFFECT", None), "GetReason": ("", "i"), "GetReasonCard": ("", "n"),
    "GetReasonPlayer": ("", "i"), "GetReasonEffect": ("", "n"), "GetPosition": ("", "i"),
    "GetPreviousPosition": ("", "i"), "GetBattlePosition": ("", "i"), "GetLocation": ("", "i"),
    "GetPreviousLocation": ("", "i"), "GetSequence": ("", "i"), "GetPreviousSequence": ("", "i"),
    "GetSummonType": ("", "i"), "GetSummonLocation": ("", "i"), "GetSummonPlayer": ("", "i"),
    "GetSpecialSummonInfo": ("SUMMON_INFO_CODE, SUMMON_INFO_REASON_EFFECT", "in"),
    "GetDestination": ("", "i"), "GetLeaveFieldDest": ("", "i"), "GetTurnID": ("", "i"),
    "GetFieldID": ("", "i"), "GetRealFieldID": ("", "i"), "IsOriginalCodeRule": ("90001", "b"),
    "IsCode": ("90001", "b"), "IsType": ("TYPE_MONSTER", "b"), "IsAllTypes": ("TYPE_MONSTER", "b"),
    "IsFusionType": ("TYPE_MONSTER", "b"), "IsSynchroType": ("TYPE_MONSTER", "b"),
    "IsXyzType": ("TYPE_MONSTER", "b"), "IsLinkType": ("TYPE_MONSTER", "b"), "IsLevel": ("4", "b"),
    "IsRank": ("4", "b"), "IsLink": ("2", "b"), "IsAttack": ("1800", "b"), "IsDefense": ("1000", "b"),
    "IsRace": ("RACE_WARRIOR", "b"), "IsLinkRace": ("RACE_WARRIOR", "b"),
    "IsAttribute": ("ATTRIBUTE_DARK", "b"), "IsFusionAttribute": ("ATTRIBUTE_DARK", "b"),
    "IsLinkAttribute": ("ATTRIBUTE_DARK, 0", "b"), "IsNonAttribute": ("ATTRIBUTE_DARK", "b"),
    "IsExtraDeckMonster": ("", "b"), "IsReason": ("REASON_EFFECT", "b"),
    "IsAllReasons": ("REASON_EFFECT", "b"), "IsSummonType": ("SUMMON_TYPE_NORMAL", "b"),
    "IsSummonLocation": ("LOCATION_HAND", "b"), "IsSummonPlayer": ("0", "b"),
    "IsStatus": ("STATUS_EFFECT_ENABLED", "b"), "IsNotTuner": ("d", "b"), "IsTuner": ("d", "b"),
    "IsOriginalEffectProperty": ("f", "b"), "IsEffectProperty": ("f", "b"),
    "SetStatus": ("STATUS_PROC_COMPLETE, true", None), "IsDualState": ("", "b"),
    "EnableDualState": ("", None), "SetTurnCounter": ("2", None), "GetTurnCounter": ("", "i"),
    "SetMaterial": ("g", None), "GetMaterial": ("", "g"), "GetMaterialCount": ("", "i"),
    "GetEquipGroup": ("", "g"), "GetEquipCount": ("", "i"), "GetEquipTarget": ("", "n"),
    "GetPreviousEquipTarget": ("", "n"), "CheckEquipTarget": ("d", "b"), "CheckUnionTarget": ("d", "b"),
    "GetUnionCount": ("", "ii"), "GetOverlayGroup": ("", "g"), "GetOverlayCount": ("", "i"),
    "GetOverlayTarget": ("", "n"), "CheckRemoveOverlayCard": ("0, 1, REASON_COST", "b"),
    "RemoveOverlayCard": ("0, 1, 1, REASON_COST", "i"), "GetAttackedGroup": ("", "g"),
    "GetAttackedGroupCount": ("", "i"), "GetAttackedCount": ("", "i"), "GetBattledGroup": ("", "g"),
    "GetBattledGroupCount": ("", "i"), "GetAttackAnnouncedCount": ("", "i"), "IsDirectAttacked": ("", "b"),
    "SetCardTarget": ("d", None), "GetCardTarget": ("", "g"), "GetFirstCardTarget": ("", "*"),
    "GetCardTargetCount": ("", "i"), "IsHasCardTarget": ("d", "b"), "CancelCardTarget": ("d", None),
    "GetOwnerTarget": ("", "g"), "GetOwnerTargetCount": ("", "i"), "GetActivateEffect": ("", None),
    "CheckActivateEffect": ("false, false, false", None), "GetTunerLimit": ("", None),
    "GetHandSynchro": ("", None), "RegisterEffect": ("e2", "i"), "IsHasEffect": ("EFFECT_UPDATE_ATTACK", "n"),
    "ResetEffect": ("EFFECT_UPDATE_ATTACK, RESET_CODE", None), "GetEffectCount": ("EFFECT_UPDATE_ATTACK", "i"),
    "RegisterFlagEffect": ("77, RESET_EVENT+RESETS_STANDARD, 0, 1", "e"), "GetFlagEffect": ("77", "i"),
    "ResetFlagEffect": ("77", None), "SetFlagEffectLabel": ("77, 1", "b"), "GetFlagEffectLabel": ("77", "n"),
    "CreateRelation": ("d, RESET_EVENT+RESETS_STANDARD", None), "ReleaseRelation": ("d", None),
    "CreateEffectRelation": ("e", None), "ReleaseEffectRelation": ("e", None),
    "ClearEffectRelation": ("", None), "IsRelateToEffect": ("e", "b"), "IsRelateToChain": ("1", "b"),
    "IsRelateToCard": ("d", "b"), "IsRelateToBattle": ("", "b"),
    "CopyEffect": ("90002, RESET_EVENT+RESETS_STANDARD", "i"),
    "ReplaceEffect": ("90002, RESET_EVENT+RESETS_STANDARD", "i"), "EnableReviveLimit": ("", None),
    "CompleteProcedure": ("", None), "IsDisabled": ("", "b"), "IsDestructable": ("e", "b"),
    "IsSummonableCard": ("", "b"), "IsSpecialSummonableCard": ("", "b"),
    "IsFusionSummonableCard": ("", "b"), "IsSpecialSummonable": ("", "b"),
    "IsSynchroSummonable": ("nil", "b"), "IsXyzSummonable": ("nil", "b"), "IsLinkSummonable": ("nil", "b"),
    "IsSummonable": ("true, nil", "b"), "IsMSetable": ("true, nil", "b"), "IsSSetable": ("", "b"),
    "IsCanBeSpecialSummoned": ("e, 0, 0, false, false", "b"), "IsCanBePlacedOnField": ("", "b"),
    "IsAbleToHand": ("", "b"), "IsAbleToDeck": ("", "b"), "IsAbleToExtra": ("", "b"),
    "IsAbleToGrave": ("", "b"), "IsAbleToRemove": ("0, POS_FACEDOWN", "b"), "IsAbleToHandAsCost": ("", "b"),
    "IsAbleToDeckAsCost": ("", "b"), "IsAbleToExtraAsCost": ("", "b"), "IsAbleToDeckOrExtraAsCost": ("", "b"),
    "IsAbleToGraveAsCost": ("", "b"), "IsAbleToRemoveAsCost": ("", "b"), "IsReleasable": ("", "b"),
    "IsReleasableByEffect": ("", "b"), "IsDiscardable": ("REASON_EFFECT", "b"), "IsAttackable": ("", "b"),
    "IsChainAttackable": ("", "b"), "IsFaceup": ("", "b"), "IsFaceupEx": ("", "b"), "IsAttackPos": ("", "b"),
    "IsFacedown": ("", "b"), "IsDefensePos": ("", "b"), "IsPosition": ("POS_FACEUP", "b"),
    "IsPreviousPosition": ("POS_FACEUP", "b"), "IsControler": ("0", "b"), "IsPreviousControler": ("0", "b"),
    "IsOnField": ("", "b"), "IsLocation": ("LOCATION_MZONE", "b"), "IsPreviousLocation": ("LOCATION_HAND", "b"),
    "IsLevelBelow": ("4", "b"), "IsLevelAbove": ("4", "b"), "IsRankBelow": ("4", "b"), "IsRankAbove": ("4", "b"),
    "IsLinkBelow": ("4", "b"), "IsLinkAbove": ("4", "b"), "IsAttackBelow": ("2000", "b"),
    "IsAttackAbove": ("2000", "b"), "IsDefenseBelow": ("2000", "b"), "IsDefenseAbove": ("2000", "b"),
    "IsHasLevel": ("", "b"), "IsHasDefense": ("", "b"), "IsPublic": ("", "b"), "IsForbidden": ("", "b"),
    "IsAbleToChangeControler": ("", "b"), "IsControlerCanBeChanged": ("true", "b"),
    "AddCounter": ("0x1, 1", "b"), "RemoveCounter": ("0, 0x1, 1, REASON_COST", "b"),
    "GetCounter": ("0x1", "i"), "EnableCounterPermit": ("0x1", None), "SetCounterLimit": ("0x1, 5", None),
    "IsCanChangePosition": ("", "b"), "IsCanTurnSet": ("", "b"), "IsCanAddCounter": ("0x1, 1", "b"),
    "IsCanRemoveCounter": ("0, 0x1, 1, REASON_COST", "b"), "IsCanHaveCounter": ("0x1", "b"),
    "IsCanOverlay": ("", "b"), "IsCanBeFusionMaterial": ("d", "b"), "IsCanBeSynchroMaterial": ("d", "b"),
    "IsCanBeRitualMaterial": ("d", "b"), "IsCanBeXyzMaterial": ("d", "b"), "IsCanBeLinkMaterial": ("d", "b"),
    "CheckFusionMaterial": ("g, nil, 0", "b"), "CheckFusionSubstitute": ("d", "b"),
    "IsImmuneToEffect": ("e", "b"), "IsCanBeDisabledByEffect": ("e", "b"), "IsCanBeEffectTarget": ("e", "b"),
    "IsCanBeBattleTarget": ("d", "b"),
    "AddMonsterAttribute": ("TYPE_TRAP+TYPE_MONSTER, ATTRIBUTE_DARK, RACE_FIEND, 4, 1000, 1000", None),
    "CancelToGrave": ("", None), "GetTributeRequirement": ("", "ii"), "GetBattleTarget": ("", "n"),
    "GetAttackableTarget": ("", "gb"), "SetHint": ("CHINT_NUMBER, 3", None), "ReverseInDeck": ("", None),
    "SetUniqueOnField": ("1, 0, f", None), "CheckUniqueOnField": ("0", "b"), "ResetNegateEffect": ("90001", None),
    "AssumeProperty": ("ASSUME_LEVEL, 3", None), "SetSPSummonOnce": ("90001", None),
}


# the kinds of a call's results, as one string (worked out in Lua: groups made for a
# script do not outlive the script call)
_KINDS = """
local function Kinds(...)
  local t = table.pack(...)
  local s = ""
  for i = 1, t.n do
    local v = t[i]
    local ty = type(v)
    if v == nil then s = s .. "n"
    elseif ty == "boolean" then s = s .. "b"
    elseif ty == "number" then s = s .. "i"
    elseif ty == "userdata" then
      local mt = getmetatable(v)
      s = s .. (mt == Group and "g" or mt == Effect and "e" or "c")
    else s = s .. "?" end
  end
  return s
end
"""


def test_the_smoke_table_covers_every_card_function():
    names = sorted(n[5:] for n in registry.reference_api() if n.startswith("Card."))
    assert sorted(CALLS) == names


@pytest.mark.parametrize("name", sorted(CALLS))
def test_each_card_function_runs(name):
    env = Env(strict=False)
    c = env.place(90002)                       # Fusion monster with a counter permit (its script)
    d = env.place(90001, seq=1)
    env.place(90003, location=LOCATION_SZONE)
    source = env.effect(d, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN,
                        range=LOCATION_SZONE | LOCATION_FZONE | LOCATION_HAND)
    d.add_effect(source)
    e2 = env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=100)
    g = env.duel.new_group([d])
    args, kinds = CALLS[name]
    src = f"local c,d,e,e2,g=... local f=function() return true end return Kinds(c:{name}({args}))"
    out = env.task(_KINDS + src, c, d, source, e2, g)
    assert not env.host.errors, env.host.errors[0].message
    if kinds is not None and kinds != "*":
        assert out == (kinds,)
    assert c.current.location in (LOCATION_MZONE, 0)
