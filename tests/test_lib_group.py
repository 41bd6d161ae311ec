"""The Group library (bindings/lib_group.py) run from Lua in a real duel (see test_lib_effect.Env)."""

from __future__ import annotations

import pytest

from duelhost.engine.group import GTYPE_DEFAULT, GTYPE_KEEP_ALIVE, GTYPE_READ_ONLY, Group
from duelhost.engine.messages import (MsgRandomSelected, MsgSelectCard, MsgSelectSum,
                                      MsgSelectUnselectCard)
from duelhost.engine.rng import MTRandom

from test_lib_effect import Env

CANCEL = b"\xff\xff\xff\xff"


def pick(*indexes: int) -> bytes:
    """A SELECT_CARD / SELECT_SUM answer: the count, then the indexes."""
    return bytes((len(indexes), *indexes))


@pytest.fixture
def env() -> Env:
    return Env()


@pytest.fixture
def four(env: Env):
    """Four Normal Monsters in player 0's Monster Zone (card-id order a < b < c < d)."""
    a = env.place(5101, seq=0)   # Level 3, 1200 ATK
    b = env.place(5102, seq=1)   # Level 4, 1500 ATK
    c = env.place(5103, seq=2)   # Level 4, 1900 ATK
    d = env.place(5104, seq=3)   # Level 6, 2400 ATK
    return a, b, c, d


# ===== making groups ==========================================================================

def test_create_from_cards_clone(env: Env, four):
    a, b, c, d = four
    n, clone_n, same, *cards = env.run(
        "local a, b=... local g=Group.FromCards(b, nil, a) local g2=g:Clone() g2:AddCard(b) g2:RemoveCard(a) "
        "return g:GetCount(), #g2, rawequal(g, g2), Cards(g)", a, b)
    assert (n, clone_n, same) == (2, 1, False)
    assert cards == [a, b]
    g = env.duel.new_group([a])
    clone = env.one("local g=... local g2=g:Clone() g2:KeepAlive() return g2", g)
    assert isinstance(clone, Group) and clone is not g and clone.container.ordered() == [a]
    assert env.one("return Group.CreateGroup():GetCount()") == 0
    assert env.error("Group.FromCards(..., 3)", a).endswith('Parameter 2 should be "Card".')


def test_iteration_is_card_id_order(env: Env, four):
    a, b, c, d = four
    codes = env.one(
        "local g=Group.CreateGroup() for _, x in ipairs({...}) do g:AddCard(x) end "
        "local t={} local tc=g:GetFirst() while tc do t[#t+1]=tc:GetCode() tc=g:GetNext() end "
        "return table.concat(t, ',')", d, b, c, a)
    assert codes == "5101,5102,5103,5104"
    n, vals = env.count("local g=Group.FromCards(...) local x=g:GetFirst() local y=g:GetNext() "
                        "return x, y, g:GetNext(), g:GetNext()", a)
    assert (n, vals) == (4, (a, None, None, None))
    assert env.count("return Group.CreateGroup():GetFirst()") == (1, (None,))


def test_get_next_needs_get_first(env: Env, four):
    a, b, c, d = four
    msg = env.error("local g=Group.FromCards(...) return g:GetNext()", a, b)
    assert msg.endswith("Called Group.GetNext without calling Group.GetFirst first.")
    msg = env.error("local g=Group.FromCards(...) g:GetFirst() g:AddCard(select(2, ...)) return g:GetNext()", a, b)
    assert msg.endswith("Called Group.GetNext without calling Group.GetFirst first.")
    # a change the engine makes (not through the library) does not stop the iteration
    g = env.one("local g=Group.FromCards(...) g:KeepAlive() g:GetFirst() return g", a, c)
    g.container.add(b)
    assert env.run("local g=... return g:GetNext(), g:GetNext()", g) == (b, c)


def test_keep_alive_and_delete(env: Env, four):
    a, *_ = four
    g = env.one("local g=Group.FromCards(...) g:KeepAlive() return g", a)
    assert g.is_readonly == GTYPE_KEEP_ALIVE
    env.run("(...):DeleteGroup()", g)
    assert g.is_readonly == GTYPE_DEFAULT
    ro = env.duel.new_group([a])
    ro.is_readonly = GTYPE_READ_ONLY
    env.run("local g=... g:KeepAlive() g:DeleteGroup()", ro)
    assert ro.is_readonly == GTYPE_READ_ONLY


def test_a_kept_group_lives_until_the_call_that_deletes_it_ends(env: Env, four):
    import gc
    a, b, *_ = four
    env.run("KEPT = Group.FromCards(...) KEPT:KeepAlive()", a, b)
    gc.collect()
    assert env.one("return #KEPT") == 2                        # kept across calls
    # deleted: still usable until that call returns, then gone
    assert env.one("KEPT:DeleteGroup() return #KEPT") == 2
    env.run("return 1")
    gc.collect()
    assert not env.host.handles.kept_groups
    assert "no longer exists" in env.error("return #KEPT")
    # kept again after a delete in the same call: stays
    env.run("KEPT2 = Group.FromCards(...) KEPT2:KeepAlive() KEPT2:DeleteGroup() KEPT2:KeepAlive()", a)
    gc.collect()
    assert env.one("return #KEPT2") == 1


def test_read_only_groups_refuse_changes(env: Env, four):
    a, b, c, d = four
    ro = env.duel.new_group([a, b])
    ro.is_readonly = GTYPE_READ_ONLY
    env.run("local g, c, o=... g:AddCard(c) g:RemoveCard(select(4, ...)) g:Merge(o) g:Sub(o) "
            "g:Remove(function() return true end, nil) g:Clear()", ro, c, env.duel.new_group([d]), a)
    assert ro.container.ordered() == [a, b]


def test_merge_sub_remove_clear(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a])
    env.run("local g, a, b, c, d=... g:Merge(Group.FromCards(c, d)) g:Sub(Group.FromCards(d)) g:AddCard(b)",
            g, a, b, c, d)
    assert g.container.ordered() == [a, b, c]
    env.run("local g, keep=... g:Remove(function(c, lv) return c:GetLevel()>=lv end, keep, 4)", g, c)
    assert g.container.ordered() == [a, c]
    env.run("local g=... g:Remove(function(c) return true end, nil)", g)
    assert len(g) == 0
    assert env.error("local g, x=... g:Merge(x)", g, a).endswith('Parameter 2 should be "Group".')
    assert env.error("local g, x=... g:Remove(aux, g)", g, a).endswith('Parameter 2 should be "Function".')
    assert env.error("local g=... g:Remove(function() end, g)", g).endswith('Parameter 3 should be "Card".')
    assert env.one("local g=Group.FromCards(...) g:Clear() return #g", a, b) == 0


# ===== filters ================================================================================

def test_filter_and_count_with_exceptions_and_extra_args(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a, b, c, d])
    f = "function(c, atk, lv) return c:GetAttack()>=atk and c:GetLevel()<=lv end"
    assert env.run(f"local g, ex=... return Cards(g:Filter({f}, ex, 1400, 4))", g, c) == (b,)
    assert env.run(f"local g, ex=... return Cards(g:Filter({f}, ex, 1000, 6))", g, env.duel.new_group([a, d])) == (b, c)
    assert env.one(f"local g=... return g:FilterCount({f}, nil, 1000, 6)", g) == 4
    assert env.one(f"local g=... return g:FilterCount({f}, 5, 2000, 6)", g) == 1
    assert env.error("local g=... return g:Filter(function() end)", g).endswith("3 Parameters are needed.")


def test_filter_visits_cards_in_order_and_new_group_each_time(env: Env, four):
    a, b, c, d = four
    order, same = env.run("local g=Group.FromCards(select(4, ...), ...) local t={} "
                          "local r=g:Filter(function(c) t[#t+1]=c:GetCode() return true end, nil) "
                          "return table.concat(t, ','), rawequal(r, g)", a, b, c, d)
    assert order == "5101,5102,5103,5104" and same is False


def test_is_exists(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a, b, c, d])
    lv4 = "function(c) return c:GetLevel()==4 end"
    assert env.run(f"local g, x=... return g:IsExists({lv4}, 2, nil), g:IsExists({lv4}, 2, x), "
                   f"g:IsExists({lv4}, 5, nil), g:IsExists({lv4}, -1, nil)", g, b) == (True, False, False, False)
    # a count of 0 still needs one card that passes
    assert env.run("local g=... return g:IsExists(function() return false end, 0, nil), "
                   "g:IsExists(function() return true end, 0, nil)", g) == (False, True)


def test_search_card(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a, b, c, d])
    assert env.count("local g=... return g:SearchCard(function(c, lv) return c:GetLevel()==lv end, 4)", g) == (1, (b,))
    # nothing found: no value at all (the reference returns 0 results)
    assert env.count("local g=... return g:SearchCard(function() return false end)", g) == (0, ())


def test_filter_errors_are_reported_and_count_as_false():
    env = Env(strict=False)
    a = env.place(5101)
    assert env.one("return Group.FromCards(...):FilterCount(function(c) error('boom') end, nil)", a) == 0
    assert "boom" in env.host.errors[-1].message


def test_equal_and_contains(env: Env, four):
    a, b, c, d = four
    assert env.run("local a, b, c=... return Group.FromCards(a, b):Equal(Group.FromCards(b, a)), "
                   "Group.FromCards(a, b):Equal(Group.FromCards(a, c)), Group.FromCards(a):Equal(Group.FromCards(a, b)), "
                   "Group.FromCards(a, b):IsContains(b), Group.FromCards(a, b):IsContains(c)", a, b, c) == \
        (True, False, False, True, False)


# ===== values =================================================================================

def test_min_max_groups(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a, b, c, d])
    assert env.run("local mg, v=(...):GetMinGroup(Card.GetLevel) return v, Cards(mg)", g) == (3, a)
    assert env.run("local mg, v=(...):GetMaxGroup(Card.GetLevel) return v, Cards(mg)", g) == (6, d)
    assert env.run("local mg, v=(...):GetMaxGroup(function(c, m) return c:GetLevel() % m end, 4) "
                   "return v, Cards(mg)", g) == (3, a)
    assert env.run("local mg, v=(...):GetMinGroup(function(c, m) return c:GetLevel() % m end, 4) "
                   "return v, Cards(mg)", g) == (0, b, c)
    assert env.count("local mg, v=Group.CreateGroup():GetMinGroup(Card.GetLevel) return mg, v") == (2, (None, None))


def test_sum_and_class_counts(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a, b, c, d])
    assert env.one("return (...):GetSum(Card.GetAttack)", g) == 1200 + 1500 + 1900 + 2400
    assert env.one("return (...):GetSum(function(c, k) return k end, 0x7fffffff)", g) == -4
    assert env.one("return (...):GetClassCount(Card.GetLevel)", g) == 3
    assert env.one("return (...):GetBinClassCount(function(c) return 1 << (c:GetLevel() - 1) end)", g) == 3
    assert env.one("return (...):GetBinClassCount(function(c) return -1 end)", g) == 32


QUERY_SNIPPETS = [
    "return (...):GetSum(Card.GetLevel)",
    "return (...):GetSum(Card.GetCode)",                  # two results: the first counts
    "return (...):GetClassCount(Card.GetLinkCode), (...):GetClassCount(Card.GetFusionCode)",
    "return (...):GetSum(Card.IsFaceup)",                 # a boolean counts 0
    "return #(...):Filter(Card.IsLevelAbove, nil, 4)",
    "return #(...):Filter(Card.GetLevel, nil)",           # 0 is true in Lua
    "return (...):IsExists(Card.IsCode, 1, nil, 5104)",
    "return (...):FilterCount(Card.GetOverlayGroup, nil)",  # a Group is true
    "return (...):IsExists(Card.IsAttackAbove, 1, nil)",  # too few arguments: an error
    # a group's values of a query of the card alone (host._card_values)
    "return (...):CheckWithSumGreater(Card.GetLevel, 10), (...):CheckWithSumGreater(Card.GetLevel, 18)",
    "return (...):CheckWithSumEqual(Card.GetAttack, 2700, 2, 2), (...):CheckWithSumEqual(Card.GetDefense, 0, 1, 4)",
    "return (...):CheckWithSumGreater(Card.GetRank, 1), (...):CheckWithSumEqual(Card.GetLink, 0, 1, 1)",
    "return (...):CheckWithSumEqual(Card.GetLevel, 7, 2, 2, 1)",   # an extra argument: card by card
    "local g=... local e=Effect.CreateEffect(g:GetFirst()) e:SetType(EFFECT_TYPE_SINGLE) "
    "e:SetCode(EFFECT_UPDATE_LEVEL) e:SetValue(5) g:GetFirst():RegisterEffect(e) "
    "return g:CheckWithSumEqual(Card.GetLevel, 12, 2, 2), g:CheckWithSumEqual(Card.GetLevel, 7, 2, 2)",
]


@pytest.mark.parametrize("src", QUERY_SNIPPETS)
def test_card_queries_passed_as_values_match_the_call_through_lua(four, src):
    """Group functions call Card.Is*/Get* queries passed as values straight from
    Python (host._direct_query); results and errors equal the call through Lua."""
    outcomes = []
    for direct in (True, False):
        env = Env(strict=False)
        cards = [env.place(code, seq=i) for i, code in enumerate((5101, 5102, 5103, 5104))]
        if not direct:
            env.host.direct_queries.clear()
        else:
            assert env.host.direct_queries
        result = env.run(src, env.duel.new_group(cards))
        outcomes.append((result, [(e.kind, e.message) for e in env.host.errors]))
    assert outcomes[0] == outcomes[1]


def test_a_query_of_several_results_is_answered_without_lua(env: Env, four, monkeypatch):
    """A query passed as a value that gives several results (Card.GetLinkCode: each
    name) counts its first, from Python: no call through Lua per card."""
    through_lua = []
    real = env.host._operation_value_in_lua
    monkeypatch.setattr(env.host, "_operation_value_in_lua",
                        lambda fn, card, extra: through_lua.append(card) or real(fn, card, extra))
    g = env.duel.new_group(list(four))
    assert env.one("return (...):GetClassCount(Card.GetLinkCode)", g) == len({c.data.code for c in four})
    assert env.one("return (...):GetClassCount(function(c) return c:GetLinkCode() end)", g) == len(
        {c.data.code for c in four})
    assert len(through_lua) == len(four)         # only the Lua function's calls


def test_a_query_of_the_card_alone_gives_what_its_binding_gives(env: Env, four):
    """FunctionSpec.of_card (host._card_values calls it for a whole group) equals the
    binding called with that one card, for monsters, an Xyz Monster, a face-down card and a Spell."""
    from duelhost.bindings.args import Args
    from duelhost.bindings.registry import _REGISTRY
    from duelhost.engine.constants import LOCATION_SZONE, POS_FACEDOWN_DEFENSE
    cards = [*four, env.place(5101, seq=4, position=POS_FACEDOWN_DEFENSE), env.place(5200, p=1),
             env.place(5300, location=LOCATION_SZONE, seq=0)]
    specs = [spec for spec in _REGISTRY.values() if spec.of_card is not None]
    assert {"Card.GetLevel", "Card.GetAttack"} <= {spec.name for spec in specs}
    for spec in specs:
        for c in cards:
            assert spec.of_card(c) == spec.fn(env.host.ctx, Args((c,))), (spec.name, c.data.code)
    assert len(env.host.card_values) == len(specs)


def test_a_query_of_the_card_alone_called_from_lua_answers_as_its_binding(env: Env, four):
    """Such a query called from Lua with a card first skips the Args (registry.py); with
    extra arguments, or anything but a card first, it answers and fails as the binding does."""
    from duelhost.bindings.errors import ScriptFailure
    from duelhost.bindings.registry import _REGISTRY
    from duelhost.engine.constants import POS_FACEDOWN_DEFENSE
    cards = [*four, env.place(5101, seq=4, position=POS_FACEDOWN_DEFENSE)]
    names = sorted(spec.name.partition(".")[2] for spec in _REGISTRY.values() if spec.of_card is not None)
    assert {"IsFaceup", "IsFacedown", "IsOnField", "GetControler"} <= set(names)
    for name in names:
        spec = _REGISTRY["Card." + name]
        for c in cards:
            assert env.run(f"return Card.{name}(...)", c) == (spec.of_card(c),), name
            assert env.run(f"local c = ... return c:{name}(7, nil)", c) == (spec.of_card(c),), name
        with pytest.raises(ScriptFailure, match='Parameter 1 should be "Card"'):
            env.run(f"return Card.{name}(nil)")


def test_a_query_of_a_card_and_an_integer_answers_as_its_binding(env: Env, four):
    """FunctionSpec.of_card_int (Card.IsType(c, t) & co.): called from Lua with a card and
    an integer first it skips the Args; its answer equals the binding's for every card and
    integer tried, and anything else (a float, nil, a missing argument, no card) goes
    through the binding, which answers or fails as before."""
    from duelhost.bindings.args import Args
    from duelhost.bindings.errors import ScriptFailure
    from duelhost.bindings.registry import _REGISTRY
    from duelhost.engine.constants import LOCATION_SZONE, POS_FACEDOWN_DEFENSE
    cards = [*four, env.place(5101, seq=4, position=POS_FACEDOWN_DEFENSE),
             env.place(5300, location=LOCATION_SZONE, seq=0)]
    specs = [spec for spec in _REGISTRY.values() if spec.of_card_int is not None]
    assert {"Card.IsType", "Card.IsLinkType", "Card.IsLocation", "Card.IsStatus", "Card.IsSetCard",
            "Card.IsCode", "Card.IsLevel", "Card.IsAttackBelow"} <= {s.name for s in specs}
    # (and each card's own codes, archetypes, Levels and ATK/DEF, so those queries say yes too)
    numbers = [0, 1, 0x1, 0x21, 0x4, 0xC, 0x5, -1, 1 << 32 | 1, 0x80000000,
               *{c.data.code for c in cards}, *{sc for c in cards for sc in c.data.setcode if sc},
               *{v for c in cards for v in (c.data.level, c.data.attack, c.data.defense)}]
    for spec in specs:
        name = spec.name.partition(".")[2]
        for c in cards:
            for n in numbers:
                want = spec.fn(env.host.ctx, Args((c, n)))
                assert spec.of_card_int(c, n) == want, (name, c.data.code, n)
                assert env.run(f"return Card.{name}(...)", c, n) == (want,), (name, n)
            assert env.run(f"local c = ... return c:{name}(1.0)", c) == (spec.fn(env.host.ctx, Args((c, 1))),)
            # more than one integer: the binding itself (IsSetCard and IsCode take several)
            for n in numbers:
                want = spec.fn(env.host.ctx, Args((c, 0x7FF, n)))
                assert env.run(f"local c, n = ... return c:{name}(0x7FF, n)", c, n) == (want,), (name, n)
        with pytest.raises(ScriptFailure, match='Parameter 1 should be "Card"'):
            env.run(f"return Card.{name}(nil, 1)")
        with pytest.raises(ScriptFailure, match="2 Parameters are needed"):
            env.run(f"return Card.{name}(...)", cards[0])


def test_only_read_only_card_queries_are_called_directly(env: Env):
    from duelhost.bindings.registry import _REGISTRY, is_direct_query
    direct = {n for n, spec in _REGISTRY.items() if is_direct_query(spec)}
    assert {"Card.GetLevel", "Card.IsCode", "Card.IsCanBeSpecialSummoned"} <= direct
    assert not direct & {"Card.RegisterEffect", "Card.AddCounter", "Duel.GetLP", "Group.GetSum"}
    assert all(not _REGISTRY[n].yields and not _REGISTRY[n].checks_action for n in direct)
    assert len(env.host.direct_queries) == len(direct)


def test_check_with_sum(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a, b, c, d])
    assert env.run("local g=... return g:CheckWithSumEqual(Card.GetLevel, 7, 2, 2), "
                   "g:CheckWithSumEqual(Card.GetLevel, 8, 2, 2), g:CheckWithSumEqual(Card.GetLevel, 11, 1, 2), "
                   "g:CheckWithSumEqual(Card.GetLevel, 11, 3, 3)", g) == (True, True, False, True)
    assert env.run("local g=... return g:CheckWithSumGreater(Card.GetLevel, 10), "
                   "g:CheckWithSumGreater(Card.GetLevel, 18)", g) == (True, False)
    # must-select cards are used and then forgotten
    env.duel.core.must_select_cards = [d]
    assert env.one("local g=... return g:CheckWithSumEqual(Card.GetLevel, 7, 1, 1)", g) is False
    assert env.duel.core.must_select_cards == []
    assert env.one("local g=... return g:CheckWithSumEqual(Card.GetLevel, 7, 2, 2)", g) is True


# ===== metamethods ============================================================================

def test_metamethods(env: Env, four):
    a, b, c, d = four
    pre = "local a, b, c, d=... local g1=Group.FromCards(a, b) local g2=Group.FromCards(b, c) "
    assert env.one(pre + "return #g1", a, b, c, d) == 2
    for expr, expected in (("g1+g2", (a, b, c)), ("g1|d", (a, b, d)), ("g1-g2", (a,)), ("g1-a", (b,)),
                           ("g1&g2", (b,)), ("g1&b", (b,)), ("g1~g2", (a, c)), ("g1~a", (b,)),
                           ("a+g2", (a, b, c)), ("c-g2", ()), ("d&g1", ()), ("a~g2", (a, b, c))):
        assert env.run(pre + f"local r={expr} assert(not rawequal(r, g1) and not rawequal(r, g2)) "
                       "return Cards(r)", a, b, c, d) == expected, expr
    # two cards: the Card metatable has no __add (nor has the reference's)
    assert "arithmetic" in env.error("local a, b=... return a+b", a, b)


def test_metamethod_operand_errors(env: Env, four):
    a, *_ = four
    assert env.error("local g=Group.FromCards(...) return g+1", a).endswith(
        'Parameter 2 should be "Card" or "Group".')
    assert env.error("local g=Group.FromCards(...) return {}-g", a).endswith(
        'Parameter 1 should be "Card" or "Group".')


# ===== random selection =======================================================================

def test_random_select(env: Env, four):
    a, b, c, d = four
    g = env.duel.new_group([a, b, c, d])
    before = len(env.duel.messages)
    r = env.run("return Cards((...):RandomSelect(1, 2))", g)
    rng = MTRandom(7)
    cv = [a, b, c, d]
    for i in range(2):
        j = rng.get_random_integer_v1(i, 3)
        cv[i], cv[j] = cv[j], cv[i]
    expected = sorted(cv[:2], key=lambda x: x.cardid)
    assert list(r) == expected
    msgs = env.duel.messages[before:]
    assert len(msgs) == 1 and isinstance(msgs[0], MsgRandomSelected)
    assert msgs[0].player == 1
    assert [loc.raw for loc in msgs[0].cards] == [x.get_info_location() for x in expected]
    # all of them, or more: no random number, same cards
    assert env.run("return Cards((...):RandomSelect(0, 9))", g) == (a, b, c, d)
    # none: no message
    before = len(env.duel.messages)
    assert env.one("return #(...):RandomSelect(0, 0)", g) == 0
    assert len(env.duel.messages) == before


# ===== selections =============================================================================

def test_selections_need_a_task(env: Env, four):
    a, *_ = four
    assert env.error("return Group.FromCards(...):Select(0, 1, 1, nil)", a).endswith("Action is not allowed here.")
    assert env.error("return Group.FromCards(...):FilterSelect(0, aux, 1, 1, nil)", a).endswith(
        "Action is not allowed here.")


def test_filter_select(env: Env):
    # card ids in the reverse order of the zones: the prompt lists cards by zone, and
    # the answer's indexes refer to that order
    d = env.place(5104, seq=3)
    c = env.place(5103, seq=2)
    b = env.place(5102, seq=1)
    a = env.place(5101, seq=0)
    out, prompts = env.task("local a, b, c, d=... return Cards(Group.FromCards(a, b, c, d):FilterSelect(1, "
                            "function(x, lv) return x:GetLevel()<=lv end, 1, 2, c, 6))",
                            a, b, c, d, answers=(pick(0, 2),))
    p = prompts[0]
    assert isinstance(p, MsgSelectCard)
    assert (p.player, p.cancelable, p.min, p.max) == (1, 0, 1, 2)
    # c is the exception; the filter gets the extra argument (6: d passes)
    assert [x.code for x in p.cards] == [5101, 5102, 5104]
    assert out == (d, a)   # Cards() lists a group in card-id order
    assert env.error("local a=... Group.FromCards(a):FilterSelect(0, nil, 1, 1, nil)", a).endswith(
        "Action is not allowed here.")


def test_select_excludes_and_packs_min_max(env: Env, four):
    a, b, c, d = four
    out, prompts = env.task("local a, b, c, d=... local g=Group.FromCards(a, b, c, d) "
                            "return Cards(g:Select(0, 2, 3, Group.FromCards(b)))", a, b, c, d, answers=(pick(2, 0),))
    p = prompts[0]
    assert (p.player, p.min, p.max) == (0, 2, 3)
    assert [x.code for x in p.cards] == [5101, 5103, 5104]
    assert out == (a, d)
    # the reference packs min + (max << 16) in 32 bits and reads both back as bytes
    _, prompts = env.task("return #Group.FromCards(...):Select(0, 0x10101, 0x102, nil)", a, b, c,
                          answers=(pick(0),))
    assert (prompts[0].min, prompts[0].max) == (1, 3)
    # max 0: nothing asked, an empty group
    out, prompts = env.task("return #Group.FromCards(...):Select(0, 1, 0, nil)", a, b)
    assert prompts == [] and out == (0,)
    # an invalid player: nothing asked, no group
    out, prompts = env.task("return (Group.FromCards(...):Select(2, 1, 1, nil))", a)
    assert out == (None,) and prompts == []


def test_select_retries_a_wrong_answer(env: Env, four):
    a, b, *_ = four
    out, prompts = env.task("return Cards(Group.FromCards(...):Select(0, 1, 1, nil))", a, b,
                            answers=(CANCEL, pick(1)))
    assert len(prompts) == 2
    assert out == (b,)


def test_cancelable_select(env: Env, four):
    a, b, *_ = four
    out, prompts = env.task("return Group.FromCards(...):CancelableSelect(0, 1, 1, nil)", a, b, answers=(CANCEL,))
    assert prompts[0].cancelable == 1
    assert out == (None,)
    out, _ = env.task("return Cards(Group.FromCards(...):CancelableSelect(0, 1, 1, nil))", a, b, answers=(pick(0),))
    assert out == (a,)


def test_select_unselect(env: Env, four):
    a, b, c, d = four
    (x,), prompts = env.task("local a, b, c=... return Group.FromCards(a, b):SelectUnselect(Group.FromCards(c), 0, true, false, 1, 2)",
                             a, b, c, answers=(pick(2),))
    p = prompts[0]
    assert isinstance(p, MsgSelectUnselectCard)
    assert (p.finishable, p.cancelable, p.min, p.max) == (1, 0, 1, 2)
    assert [x.code for x in p.selectable] == [5101, 5102] and [x.code for x in p.unselectable] == [5103]
    assert x is c
    out, _ = env.task("local a, b=... return Group.FromCards(a, b):SelectUnselect(nil, 0, true)", a, b, answers=(CANCEL,))
    assert out == (None,)
    (x,), prompts = env.task("local a, b=... return Group.FromCards(a, b):SelectUnselect(nil, 0)", a, b,
                             answers=(pick(1),))
    assert x is b and (prompts[0].min, prompts[0].max) == (1, 1)
    assert (prompts[0].finishable, prompts[0].cancelable) == (0, 0)
    # min above max is lowered
    _, prompts = env.task("local a, b=... return Group.FromCards(a, b):SelectUnselect(nil, 0, false, true, 5, 2)", a, b,
                          answers=(pick(0),))
    assert (prompts[0].min, prompts[0].max, prompts[0].cancelable) == (2, 2, 1)
    # nothing to choose from, a card in both groups, or a bad player: nothing asked, no value
    # (the reference returns 0 results there)
    for src in ("return Group.CreateGroup():SelectUnselect(Group.CreateGroup(), 0)",
                "local a=... return Group.FromCards(a):SelectUnselect(Group.FromCards(a), 0)",
                "local a=... return Group.FromCards(a):SelectUnselect(nil, 3)"):
        assert env.task(src, a) == ((), [])


def test_select_with_sum_equal(env: Env, four):
    a, b, c, d = four
    out, prompts = env.task("return Cards(Group.FromCards(...):SelectWithSumEqual(0, Card.GetLevel, 7, 2, 2))",
                            a, b, c, d, answers=(pick(0, 1),))
    p = prompts[0]
    assert isinstance(p, MsgSelectSum)
    assert (p.mode, p.player, p.target, p.min, p.max) == (0, 0, 7, 2, 2)
    assert [x.sum_param for x in p.cards] == [3, 4, 4, 6]
    assert out == (a, b)
    # impossible: an empty group, nothing asked
    out, prompts = env.task("return #Group.FromCards(...):SelectWithSumEqual(0, Card.GetLevel, 100, 1, 4)", a, b, c, d)
    assert prompts == [] and out == (0,)
    msg = env.error("return Group.FromCards(...):SelectWithSumEqual(0, Card.GetLevel, 7, 1, 256)", a)
    assert msg.endswith("Action is not allowed here.")


def test_select_with_sum_max_limit_is_checked(env: Env):
    a = env.place(5101)
    out, _ = env.task("return pcall(Group.SelectWithSumEqual, Group.FromCards(...), 0, Card.GetLevel, 3, 1, 256)", a)
    assert out[0] is False and out[1].endswith('Parameter "max" exceeded 255.')


def test_select_with_sum_greater_and_must_cards(env: Env, four):
    a, b, c, d = four
    env.duel.core.must_select_cards = [d]
    out, prompts = env.task("return Cards(Group.FromCards(...):SelectWithSumGreater(0, Card.GetLevel, 9))",
                            a, b, c, d, answers=(pick(0, 0),))
    p = prompts[0]
    assert p.mode == 1 and [x.code for x in p.must_cards] == [5104]
    assert [x.code for x in p.cards] == [5101, 5102, 5103]
    # the answer lists the must card first; the result leaves it out
    assert out == (a,)
    assert env.duel.core.must_select_cards == []


def test_no_value_returns(env: Env, four):
    a, b, *_ = four
    g = env.duel.new_group([a, b])
    assert env.count("return (...):SearchCard(function() return false end)", g) == (0, ())
    assert env.count("return Group.CreateGroup():GetMinGroup(Card.GetLevel)") == (0, ())
    assert env.count("local g, c = ...; return g:AddCard(c)", g, a) == (0, ())
    assert env.task("return select('#', Group.FromCards(...):Select(2, 1, 1, nil))", a) == ((0,), [])
