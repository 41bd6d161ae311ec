"""The Duel library's groups, selections, targets, materials, operation info and Xyz materials
(bindings/lib_duel_select.py) run from Lua in a real duel.

Each test builds a duel over tests/data/lib_duel_b (our own tiny scripts; see
harness.py there), places cards by hand and runs snippets through the
operator card.  Groups the core makes do not outlive a script call, so
snippets hand back their cards (``Cards(g)``) and kinds (``Kind(v)``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from duelhost.bindings.errors import ScriptFailure
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.messages import MsgBecomeTarget, MsgHint, MsgSelectCard, MsgSelectTribute

_spec = importlib.util.spec_from_file_location(
    "lib_duel_b_harness", Path(__file__).resolve().parent / "data" / "lib_duel_b" / "harness.py")
h = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(h)  # type: ignore[union-attr]

Table = h.Table
A, B, C = h.MONSTER_A, h.MONSTER_B, h.MONSTER_C


def pick(*indexes: int) -> bytes:
    """A card-selection answer: count, then indexes."""
    return bytes([len(indexes), *indexes])


@pytest.fixture
def t() -> Table:
    return Table()


def field(t: Table) -> tuple:
    """Player 0: A (zone 0), B (zone 1); player 1: C (zone 2); player 0's hand: C."""
    a = t.card(A, LOCATION_MZONE, 0)
    b = t.card(B, LOCATION_MZONE, 1)
    c = t.card(C, LOCATION_MZONE, 2, player=1)
    hc = t.card(C, LOCATION_HAND)
    return a, b, c, hc


def no_value(t: Table) -> bool:
    """The last snippet got no value back (a reference function returning 0 values).

    Also accepts one nil while bootstrap.lua turns a binding's NoValue into a nil
    (see test_no_value_is_no_value)."""
    return t.results() in ((), (None,))


def no_plain_value(t: Table, src: str, *args) -> bool:
    return t.plain_count(src, *args) in ((0, ()), (1, (None,)))


def script_error(t: Table, src: str) -> str:
    with pytest.raises(ScriptFailure) as info:
        t.plain(src)
    return str(info.value)


# =========================================================================================
# field groups and matching cards
# =========================================================================================

def test_field_group_and_count(t: Table) -> None:
    a, b, c, hc = field(t)
    assert t.plain_count("return Kind(Duel.GetFieldGroup(0, LOCATION_MZONE, LOCATION_MZONE))") == (1, ("Group",))
    assert t.plain("return Cards(Duel.GetFieldGroup(0, LOCATION_MZONE, LOCATION_MZONE))") == (a, b, c)
    assert t.plain("return Cards(Duel.GetFieldGroup(1, LOCATION_MZONE, LOCATION_HAND))") == (c, hc)
    assert t.plain("return Duel.GetFieldGroupCount(0, LOCATION_ONFIELD + LOCATION_HAND, 0)") == (3,)
    # a player that is neither 0 nor 1 sees nothing
    assert t.plain("return Duel.GetFieldGroupCount(2, LOCATION_MZONE, LOCATION_MZONE)") == (0,)
    assert "3 Parameters are needed." in script_error(t, "return Duel.GetFieldGroup(0, LOCATION_MZONE)")


def test_decktop_and_extratop_groups(t: Table) -> None:
    deck = [t.card(code, LOCATION_DECK) for code in (A, B, C)]      # the last one added is on top
    assert t.plain("return Cards(Duel.GetDecktopGroup(0, 2))") == tuple(sorted(deck[1:], key=lambda c: c.cardid))
    assert t.plain("return Duel.GetDecktopGroup(0, 10):GetCount()") == (3,)
    extra = [t.card(code, LOCATION_EXTRA) for code in (h.SYNCHRO, h.XYZ)]
    pend = t.card(h.PENDULUM, LOCATION_EXTRA, pos=POS_FACEUP)
    t.duel.player[0].extra_p_count = 1
    assert t.duel.player[0].list_extra[-1] is pend
    # the face-up Pendulum Monster on top of the Extra Deck is skipped
    assert t.plain("return Cards(Duel.GetExtraTopGroup(0, 1))") == (extra[1],)
    assert t.plain("return Cards(Duel.GetExtraTopGroup(0, 5))") == tuple(extra)


def test_matching_group_filter_extra_args_and_exceptions(t: Table) -> None:
    a, b, c, hc = field(t)
    src = """
        local ex = ...
        local function f(c, lv, atk) return c:GetLevel() == lv and c:GetAttack() >= atk end
        return Cards(Duel.GetMatchingGroup(f, 0, LOCATION_MZONE + LOCATION_HAND, LOCATION_MZONE, ex, 4, 1500))
    """
    assert t.plain(src, None) == (a, c, hc)
    assert t.plain(src, a) == (c, hc)                                    # exception card
    assert t.plain("""
        local ex = Duel.GetFieldGroup(0, LOCATION_HAND, LOCATION_MZONE)
        return Cards(Duel.GetMatchingGroup(nil, 0, LOCATION_MZONE + LOCATION_HAND, LOCATION_MZONE, ex))
    """) == (a, b)                                                       # exception group, no filter
    assert t.plain("""
        return Duel.GetMatchingGroupCount(Card.IsCode, 0, LOCATION_MZONE, LOCATION_MZONE, nil, ...)
    """, C) == (1,)
    assert "Parameter 1 should be \"Function\"." in script_error(
        t, "return Duel.GetMatchingGroup(1, 0, LOCATION_MZONE, 0, nil)")
    assert "5 Parameters are needed." in script_error(
        t, "return Duel.GetMatchingGroup(nil, 0, LOCATION_MZONE, 0)")


def test_first_matching_card_and_existing(t: Table) -> None:
    a, b, c, hc = field(t)
    assert t.plain("return Duel.GetFirstMatchingCard(Card.IsCode, 1, LOCATION_MZONE, LOCATION_MZONE, nil, ...)",
                   C) == (c,)
    assert t.plain_count("return Duel.GetFirstMatchingCard(Card.IsCode, 0, LOCATION_MZONE, 0, nil, 1)") == (1, (None,))
    check = "return Duel.IsExistingMatchingCard(Card.IsLevel, 0, LOCATION_MZONE + LOCATION_HAND, 0, {}, nil, 4)"
    assert t.plain(check.format(2)) == (True,)                           # A and the C in hand
    assert t.plain(check.format(3)) == (False,)
    assert t.plain(check.format(0)) == (False,)                          # count 0 is never reached
    assert t.plain("return Duel.IsExistingMatchingCard(nil, 0, LOCATION_MZONE, 0, 2, ...)", a) == (False,)


def test_select_matching_card_prompt_and_result(t: Table) -> None:
    a, b, c, hc = field(t)
    msgs, prompts = t.run("""
        local e, tp = ...
        local g = Duel.SelectMatchingCard(tp, Card.IsLevelAbove, tp, LOCATION_MZONE, LOCATION_MZONE, 1, 2, nil, 3)
        return Kind(g), Cards(g)
    """, [pick(2, 0)])
    assert len(prompts) == 1 and isinstance(prompts[0], MsgSelectCard)
    p = prompts[0]
    assert (p.player, p.cancelable, p.min, p.max) == (0, 0, 1, 2)
    assert [sc.code for sc in p.cards] == [A, B, C]
    assert t.results() == ("Group", a, c)
    # a bad player: no prompt and no value
    _, prompts = t.run("return Duel.SelectMatchingCard(2, nil, 0, LOCATION_MZONE, 0, 1, 1, nil)")
    assert prompts == [] and no_value(t)
    # not in a plain call
    assert "Action is not allowed here." in script_error(
        t, "return Duel.SelectMatchingCard(0, nil, 0, LOCATION_MZONE, 0, 1, 1, nil)")


# =========================================================================================
# release groups and tributes
# =========================================================================================

def test_release_groups(t: Table) -> None:
    a, b, c, hc = field(t)
    assert t.plain("return Cards(Duel.GetReleaseGroup(0))") == (a, b)
    assert t.plain("return Cards(Duel.GetReleaseGroup(0, true))") == (a, b, hc)
    assert t.plain("return Duel.GetReleaseGroupCount(0, true)") == (3,)
    assert no_plain_value(t, "return Duel.GetReleaseGroup(3)")
    assert t.plain("return Duel.CheckReleaseGroup(0, Card.IsLevel, 2, nil, 4)") == (False,)
    assert t.plain("return Duel.CheckReleaseGroup(0, nil, 2, nil)") == (True,)
    assert t.plain("return Duel.CheckReleaseGroup(0, nil, 2, ...)", a) == (False,)
    assert t.plain("return Duel.CheckReleaseGroupEx(0, Card.IsLevel, 2, REASON_COST, true, nil, 4)") == (True,)
    assert t.plain("return Duel.CheckReleaseGroupEx(0, Card.IsLevel, 2, REASON_COST, false, nil, 4)") == (False,)
    # the required cards set by SetSelectedCard are consumed by the check
    assert t.plain("Duel.SetSelectedCard(...) local r = Duel.CheckReleaseGroup(0, nil, 1, nil) "
                   "return r, Duel.GrabSelectedCard():GetCount()", c) == (False, 0)


def test_select_release_group(t: Table) -> None:
    a, b, c, hc = field(t)
    msgs, prompts = t.run("""
        local e, tp = ...
        return Cards(Duel.SelectReleaseGroup(tp, Card.IsLevelBelow, 1, 1, nil, 3))
    """, [pick(0)])
    assert [m for m in msgs if isinstance(m, MsgHint)][0].data == HINTMSG_RELEASE
    assert [sc.code for sc in prompts[0].cards] == [B]
    assert t.results() == (b,)
    _, prompts = t.run("""
        local e, tp = ...
        return Cards(Duel.SelectReleaseGroupEx(tp, nil, 2, 2, REASON_COST, true, nil))
    """, [pick(0, 2)])
    # offered in card-operation order: the hand before the Monster Zone
    assert [sc.code for sc in prompts[0].cards] == [C, A, B]
    assert t.results() == (b, hc)


def test_tributes(t: Table) -> None:
    a, b, c, hc = field(t)
    big = t.card(h.BIG, LOCATION_HAND)
    assert t.plain("return Cards(Duel.GetTributeGroup(...))", big) == (a, b)
    assert t.plain("return Duel.GetTributeCount(...)", big) == (2,)
    assert t.plain("return Duel.GetTributeCount(..., nil, true)", big) == (3,)   # opponent's monsters too
    assert t.plain("return Duel.CheckTribute(..., 1)", big) == (True,)
    assert t.plain("return Duel.CheckTribute(..., 3)", big) == (False,)
    assert t.plain("return Duel.CheckTribute(..., 1, 1, Duel.GetFieldGroup(1, LOCATION_MZONE, 0))", big) == (False,)
    assert 'Parameter 1 should be "Card".' in script_error(t, "return Duel.GetTributeCount(1)")
    _, prompts = t.run("""
        local e, tp = ...
        return Cards(Duel.SelectTribute(tp, Duel.GetFieldCard(tp, LOCATION_HAND, 1), 1, 1))
    """, [pick(1)])
    assert len(prompts) == 1 and isinstance(prompts[0], MsgSelectTribute)
    assert [tc.code for tc in prompts[0].cards] == [A, B]
    assert t.results() == (b,)


# =========================================================================================
# targets
# =========================================================================================

def test_select_target_in_a_chain(t: Table) -> None:
    a, b, c, hc = field(t)
    msgs, prompts = t.in_chain("""
        local e, tp = ...
        local g = Duel.SelectTarget(tp, nil, tp, LOCATION_MZONE, LOCATION_MZONE, 1, 2, nil)
        return Kind(g), Cards(g)
    """, [pick(2, 0)])
    assert [sc.code for sc in prompts[0].cards] == [A, B, C]
    assert t.results() == ("Group", a, c)
    # one MSG_BECOME_TARGET per card, in the order chosen
    bt = [m for m in msgs if isinstance(m, MsgBecomeTarget)]
    assert [(m.cards[0].controller, m.cards[0].sequence) for m in bt] == [(1, 2), (0, 0)]
    ch = t.chain
    assert set(ch.target_cards.container) == {a, c}
    assert a.is_has_relation(ch) and c.is_has_relation(ch) and not b.is_has_relation(ch)


def test_select_target_untargetable_and_without_chain(t: Table) -> None:
    a, b, c, hc = field(t)
    t.plain("""
        local c = ...
        local e = Effect.CreateEffect(c)
        e:SetType(EFFECT_TYPE_SINGLE)
        e:SetCode(EFFECT_CANNOT_BE_EFFECT_TARGET)
        e:SetValue(1)
        c:RegisterEffect(e)
    """, b)
    t.in_chain("local e, tp = ... return Duel.GetTargetCount(nil, tp, LOCATION_MZONE, LOCATION_MZONE, nil), "
               "Duel.IsExistingTarget(Card.IsCode, tp, LOCATION_MZONE, 0, 1, nil, ...), "
               "Duel.GetMatchingGroupCount(nil, tp, LOCATION_MZONE, LOCATION_MZONE, nil)")
    t.duel.core.current_chain.clear()
    t.in_chain("local e, tp = ... return Duel.GetTargetCount(nil, tp, LOCATION_MZONE, LOCATION_MZONE, nil), "
               f"Duel.IsExistingTarget(Card.IsCode, tp, LOCATION_MZONE, 0, 1, nil, {B}), "
               "Duel.GetMatchingGroupCount(nil, tp, LOCATION_MZONE, LOCATION_MZONE, nil)")
    assert t.results() == (2, False, 3)
    t.duel.core.current_chain.clear()
    # no chain link: no prompt, no value
    _, prompts = t.run("local e, tp = ... return Duel.SelectTarget(tp, nil, tp, LOCATION_MZONE, 0, 1, 1, nil)")
    assert prompts == [] and no_value(t)


def test_select_target_without_target_flag_and_continuous(t: Table) -> None:
    a, b, c, hc = field(t)
    msgs, _ = t.in_chain("""
        local e, tp = ...
        return Cards(Duel.SelectTarget(tp, nil, tp, LOCATION_MZONE, 0, 1, 1, nil))
    """, [pick(1)], targeting=False)
    assert t.results() == (b,)
    assert not [m for m in msgs if isinstance(m, MsgBecomeTarget)]
    assert b.is_has_relation(t.chain)
    link = t.chain
    # a continuous effect's pseudo-link (while a chain exists): the script gets the link's
    # whole target group, nothing is related to the chain link
    t.continuous("""
        local e, tp = ...
        Duel.SetTargetCard((Duel.GetFieldCard(tp, LOCATION_MZONE, 0)))
        local g = Duel.SelectTarget(tp, nil, tp, LOCATION_MZONE, 0, 1, 1, nil)
        return Kind(g), Cards(g)
    """, [pick(1)])
    assert t.results() == ("Group", a, b)
    assert set(t.chain.target_cards.container) == {a, b}
    assert not a.is_has_relation(link)
    # without any chain link even a continuous effect gets nothing
    t.duel.core.current_chain.clear()
    _, prompts = t.continuous("local e, tp = ... return Duel.SelectTarget(tp, nil, tp, LOCATION_MZONE, 0, 1, 1, nil)")
    assert prompts == [] and no_value(t)


def test_set_and_clear_target_card_player_param(t: Table) -> None:
    a, b, c, hc = field(t)
    msgs, _ = t.in_chain("""
        local e, tp = ...
        Duel.SetTargetCard(Duel.GetFieldGroup(tp, LOCATION_MZONE, 0))
        Duel.SetTargetPlayer(1 - tp)
        Duel.SetTargetParam(1200)
        local _, p, v = Duel.GetChainInfo(0, CHAININFO_TARGET_CARDS, CHAININFO_TARGET_PLAYER,
            CHAININFO_TARGET_PARAM)
        return p, v
    """)
    assert t.results() == (1, 1200)
    assert set(t.chain.target_cards.container) == {a, b}
    assert len([m for m in msgs if isinstance(m, MsgBecomeTarget)]) == 2
    assert a.is_has_relation(t.chain)
    t.run("Duel.ClearTargetCard()")
    assert len(t.chain.target_cards.container) == 0
    with pytest.raises(ScriptFailure, match='Parameter 1 should be "Card" or "Group".'):
        t.run("Duel.SetTargetCard(1)")
    # the action permission is checked first
    assert "Action is not allowed here." in script_error(t, "Duel.SetTargetCard(1)")
    assert "Action is not allowed here." in script_error(t, "Duel.SetTargetPlayer(0)")


# =========================================================================================
# operation info
# =========================================================================================

def test_operation_info(t: Table) -> None:
    a, b, c, hc = field(t)
    t.in_chain("""
        local e, tp = ...
        local g = Duel.GetFieldGroup(tp, LOCATION_MZONE, 0)
        Duel.SetOperationInfo(0, CATEGORY_DESTROY, g, 2, 0, 0)
        Duel.SetOperationInfo(0, CATEGORY_TOHAND, nil, 1, tp, LOCATION_DECK)
        Duel.SetOperationInfo(0, CATEGORY_TOHAND, (Duel.GetFieldCard(1, LOCATION_MZONE, 2)), 1, 1, -5)
        local ok, og, ct, p, param = Duel.GetOperationInfo(0, CATEGORY_DESTROY)
        local ok2, og2, ct2, p2, param2 = Duel.GetOperationInfo(1, CATEGORY_TOHAND)
        g:Clear()
        return ok, og:GetCount(), ct, p, param, ok2, og2:GetFirst(), ct2, p2, param2,
            Duel.GetOperationCount(0), Duel.GetOperationInfo(0, CATEGORY_REMOVE)
    """)
    # the group was copied; a later change of the script's group does not show
    assert t.results() == (True, 2, 2, 0, 0, True, c, 1, 1, -5, 2, False)
    t.run("Duel.ClearOperationInfo(0) return Duel.GetOperationCount(0)")
    assert t.results() == (0,)
    t.duel.core.current_chain.clear()
    t.run("return Duel.GetOperationCount(0)")
    assert no_value(t)


# =========================================================================================
# materials
# =========================================================================================

def test_synchro_materials(t: Table) -> None:
    tuner = t.card(h.TUNER, LOCATION_MZONE, 0)
    a = t.card(A, LOCATION_MZONE, 1)
    b = t.card(B, LOCATION_MZONE, 2, pos=POS_FACEDOWN_DEFENSE)
    syn = t.card(h.SYNCHRO, LOCATION_EXTRA)
    assert t.plain("return Cards(Duel.GetSynchroMaterial(0))") == (tuner, a)
    assert t.plain("return Cards(Duel.GetSynchroMaterial(0, true))") == (tuner, a, b)
    assert t.plain("return Duel.CheckSynchroMaterial(..., nil, nil, 1, 1)", syn) == (True,)
    assert t.plain("return Duel.CheckSynchroMaterial(..., nil, function(c) return c:IsLevel(3) end, 1, 1)",
                   syn) == (False,)
    assert t.plain("local s, tu = ... return Duel.CheckTunerMaterial(s, tu, nil, nil, 1, 1)", syn, tuner) == (True,)
    assert t.plain("local s, tu = ... return Duel.CheckTunerMaterial(s, tu, nil, nil, 1, 1)", syn, a) == (False,)
    msgs, prompts = t.run("""
        local e, tp = ...
        local g = Duel.SelectSynchroMaterial(tp, Duel.GetFieldCard(tp, LOCATION_EXTRA, 0), nil, nil, 1, 1)
        return Kind(g), Cards(g)
    """, [pick(0), bytes([2, 0, 0])])
    assert [m.data for m in msgs if isinstance(m, MsgHint)][0] == HINTMSG_SMATERIAL
    assert [sc.code for sc in prompts[0].cards] == [h.TUNER]
    assert t.results() == ("Group", tuner, a)
    # SelectTunerMaterial with a monster that is no Tuner: no prompt, no value
    _, prompts = t.run("""
        local e, tp = ...
        return Duel.SelectTunerMaterial(tp, Duel.GetFieldCard(tp, LOCATION_EXTRA, 0),
            Duel.GetFieldCard(tp, LOCATION_MZONE, 1), nil, nil, 1, 1)
    """)
    assert prompts == [] and no_value(t)
    t.run("""
        local e, tp = ...
        return Cards(Duel.SelectTunerMaterial(tp, Duel.GetFieldCard(tp, LOCATION_EXTRA, 0),
            Duel.GetFieldCard(tp, LOCATION_MZONE, 0), nil, nil, 1, 1))
    """, [bytes([2, 0, 0])])
    assert t.results() == (tuner, a)


def test_xyz_materials_overlay_and_detach(t: Table) -> None:
    a = t.card(A, LOCATION_MZONE, 0)
    c = t.card(C, LOCATION_MZONE, 1)
    b = t.card(B, LOCATION_MZONE, 2)
    xyz = t.card(h.XYZ, LOCATION_EXTRA)
    assert t.plain("return Duel.CheckXyzMaterial(..., nil, 4, 2, 2, nil)", xyz) == (True,)
    assert t.plain("return Duel.CheckXyzMaterial(..., nil, 4, 3, 3, nil)", xyz) == (False,)
    assert t.plain("return Duel.CheckXyzMaterial(..., function(c) return c:IsSetCard(0x45) end, 4, 2, 2, nil)",
                   xyz) == (False,)
    _, prompts = t.run("""
        local e, tp = ...
        local g = Duel.SelectXyzMaterial(tp, Duel.GetFieldCard(tp, LOCATION_EXTRA, 0), nil, 4, 2, 2)
        return Kind(g), Cards(g)
    """)
    assert all(sc.code in (A, C) for p in prompts for sc in p.cards)
    assert t.results() == ("Group", a, c)
    # a Rank with no materials: no value
    _, prompts = t.run("""
        local e, tp = ...
        return Duel.SelectXyzMaterial(tp, Duel.GetFieldCard(tp, LOCATION_EXTRA, 0), nil, 7, 2, 2)
    """)
    assert prompts == [] and no_value(t)
    # attach A and C to B, then detach
    msgs, _ = t.run("""
        local e, tp = ...
        local target = Duel.GetFieldCard(tp, LOCATION_MZONE, 2)
        local mats = Duel.GetFieldGroup(tp, LOCATION_MZONE, 0):Filter(Card.IsLevel, nil, 4)
        Duel.Overlay(target, mats)
        return Duel.GetOverlayCount(tp, 1, 0), Duel.GetOverlayCount(tp, 0, 1), Cards(Duel.GetOverlayGroup(tp, 1, 1))
    """)
    assert t.results() == (2, 0, a, c)
    assert b.xyz_materials and set(b.xyz_materials) == {a, c}
    assert t.plain("return Duel.CheckRemoveOverlayCard(0, 1, 0, 2, REASON_COST), "
                   "Duel.CheckRemoveOverlayCard(0, 1, 0, 3, REASON_COST), "
                   "Duel.CheckRemoveOverlayCard(1, 1, 0, 1, REASON_COST)") == (True, False, False)
    msgs, prompts = t.run("local e, tp = ... return Duel.RemoveOverlayCard(tp, 1, 0, 1, 2, REASON_COST)",
                          [pick(0, 1)])
    assert [m.data for m in msgs if isinstance(m, MsgHint) and m.type == HINT_SELECTMSG] == [519]
    assert (prompts[-1].min, prompts[-1].max) == (1, 2)
    assert t.results() == (2,)
    assert a.current.location == LOCATION_GRAVE and c.current.location == LOCATION_GRAVE
    assert no_plain_value(t, "return Duel.GetOverlayCount(2, 1, 1)")


def test_fusion_material_selection(t: Table) -> None:
    a = t.card(A, LOCATION_MZONE, 0)
    b = t.card(B, LOCATION_MZONE, 1)
    hc = t.card(C, LOCATION_HAND)
    t.card(h.FUSION, LOCATION_EXTRA)
    base = t.plain("local all, base = Duel.GetFusionMaterial(0) return Kind(base), Cards(base)")
    assert base == ("Group", a, b, hc)
    assert t.plain("local all, base = Duel.GetFusionMaterial(0, LOCATION_HAND) return Cards(base)") == (hc,)
    t.run("""
        local e, tp = ...
        local fc = Duel.GetFieldCard(tp, LOCATION_EXTRA, 0)
        local mg = Duel.GetFusionMaterial(tp)
        local g = Duel.SelectFusionMaterial(tp, fc, mg, Duel.GetFieldCard(tp, LOCATION_MZONE, 1), tp)
        local s = getmetatable(fc)
        return Kind(g), s.seen_gc, s.seen_chkf, s.seen_tp, s.seen_rp, Kind(s.seen_re), Cards(g)
    """)
    # the material effect's operation got (gc, chkf); gc is added to what it chose
    assert t.results() == ("Group", b, 0, 0, 0, "Effect", a, b, hc)
    assert not t.duel.core.not_material


def test_must_materials_ritual_and_selected_cards(t: Table) -> None:
    a, b, c, hc = field(t)
    assert t.plain("return Duel.GetMustMaterial(0, EFFECT_MUST_BE_SMATERIAL):GetCount(), "
                   "Duel.CheckMustMaterial(0, nil, EFFECT_MUST_BE_SMATERIAL)") == (0, True)
    assert no_plain_value(t, "return Duel.GetMustMaterial(2, EFFECT_MUST_BE_SMATERIAL)")
    t.run("local e, tp = ... return Cards(Duel.GetRitualMaterial(tp))")
    assert t.results() == (a, b, hc)
    t.run("local e, tp = ... return Cards(Duel.GetRitualMaterialEx(tp))")
    assert t.results() == (a, b, hc)
    assert t.plain("Duel.SetSelectedCard(Duel.GetFieldGroup(0, LOCATION_MZONE, 0)) "
                   "local g = Duel.GrabSelectedCard() return Duel.GrabSelectedCard():GetCount(), Cards(g)") == (0, a, b)
    assert t.plain("return Duel.IsSummonCancelable()") == (False,)
    assert "Parameter 1 should be \"Card\" or \"Group\"." in script_error(t, "Duel.SetSelectedCard(nil)")


def test_no_value_is_no_value(t: Table) -> None:
    assert t.plain_count("return Duel.GetReleaseGroup(3)") == (0, ())
    t.run("return Duel.SelectMatchingCard(2, nil, 0, LOCATION_MZONE, 0, 1, 1, nil)")
    assert t.count() == 0
