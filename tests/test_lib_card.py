"""The Card library (bindings/lib_card*.py) run from Lua in a real duel.

Each test makes a Duel with the LuaScriptHost over tests/data/lib_card (our
own tiny test scripts) and the project's constant.lua, places cards by hand,
and runs Lua snippets through the test card 90001 (``s.run`` / ``s.count``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from duelhost.bindings import registry
from duelhost.bindings.host import LuaScriptHost
from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.core_constants import *  # noqa: F401,F403
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect
from duelhost.engine.messages import MsgAddCounter, MsgCardHint, MsgDeckTop, MsgRemoveCounter

REPO = Path(__file__).resolve().parent.parent
TEST_SCRIPTS = REPO / "tests" / "data" / "lib_card"
CONSTANTS = REPO / "scripts"

EFFECT_MONSTER = TYPE_MONSTER | TYPE_EFFECT

DB: dict[int, CardData] = {
    90001: CardData(code=90001, type=EFFECT_MONSTER, level=4, attribute=ATTRIBUTE_DARK, race=RACE_WARRIOR,
                    attack=1800, defense=1000, setcode=(0x45, 0x1099)),
    90002: CardData(code=90002, type=EFFECT_MONSTER | TYPE_FUSION, level=8, attribute=ATTRIBUTE_LIGHT,
                    race=RACE_DRAGON, attack=3000, defense=2500, setcode=(0x1045,)),
    90003: CardData(code=90003, type=TYPE_SPELL | TYPE_CONTINUOUS),
    90004: CardData(code=90004, alias=90001, type=EFFECT_MONSTER, level=4, attribute=ATTRIBUTE_DARK,
                    race=RACE_WARRIOR, attack=1800, defense=1000, setcode=(0x45, 0x1099)),
    90005: CardData(code=90005, type=EFFECT_MONSTER | TYPE_XYZ, level=4, attack=2500, defense=2000),
    90006: CardData(code=90006, type=EFFECT_MONSTER | TYPE_LINK, level=2, attack=1600,
                    link_marker=LINK_MARKER_LEFT | LINK_MARKER_RIGHT),
    90007: CardData(code=90007, type=TYPE_TRAP),
    # a double-name card of the reference's list (Marine Dolphin / Dolphin)
    78734254: CardData(code=78734254, type=EFFECT_MONSTER, level=4, attack=1000),
}

_LISTS = {LOCATION_DECK: "list_main", LOCATION_HAND: "list_hand", LOCATION_GRAVE: "list_grave",
          LOCATION_REMOVED: "list_remove", LOCATION_EXTRA: "list_extra"}


class Env:
    """A duel with the Lua host and a runner card."""

    def __init__(self, strict: bool = True, db: dict[int, CardData] | None = None,
                 more_scripts: tuple[Path, ...] = ()) -> None:
        self.host = LuaScriptHost([*more_scripts, TEST_SCRIPTS, CONSTANTS], strict=strict)
        self.duel = Duel((DB if db is None else db).get, seed=1, script=self.host)
        self.runner = self.duel.new_card(90001)
        self.duel.core.reason_player = 0

    def place(self, code: int, p: int = 0, location: int = LOCATION_MZONE, seq: int = 0,
              position: int = POS_FACEUP_ATTACK) -> Card:
        """Create a card and put it into a zone by hand (no messages, no events)."""
        c = self.duel.new_card(code)
        c.owner = p
        c.current.controler = p
        c.current.location = location
        c.current.position = position
        if location in (LOCATION_MZONE, LOCATION_SZONE):
            zone = self.duel.player[p].list_mzone if location == LOCATION_MZONE else self.duel.player[p].list_szone
            zone[seq] = c
            c.current.sequence = seq
        else:
            lst = getattr(self.duel.player[p], _LISTS[location])
            c.current.sequence = len(lst)
            lst.append(c)
        c.set_status(STATUS_EFFECT_ENABLED, True)
        return c

    def run(self, src: str, *args: Any) -> tuple:
        """Run a Lua snippet as a plain call; its results."""
        return self.host.call_card_function(self.runner, "run", src, *args)

    def one(self, src: str, *args: Any) -> Any:
        out = self.run(src, *args)
        assert len(out) == 1, out
        return out[0]

    def count(self, src: str, *args: Any) -> tuple[int, tuple]:
        """(number of values, values) of a snippet (tells "no value" apart from nil)."""
        out = self.host.call_card_function(self.runner, "count", src, *args)
        return out[0], tuple(out[1:])

    def task(self, src: str, *args: Any) -> tuple | None:
        """Run a snippet as a coroutine the engine drives (yielding functions work);
        its results, None when it failed."""
        fn = self.one("return RunSnippet")
        task = self.host.start(fn, src, *args)
        results: list[Any] = []

        def unit():
            value: Any = None
            while True:
                suspended, out = task.resume(value)
                if not suspended:
                    results.append(out)
                    return
                yield
                value = out.result()

        self.duel.add_process(unit())
        self.duel.finished = False
        for prompt in self.duel.run_processor():   # runs the queued units to the end
            raise AssertionError(f"unexpected prompt {prompt!r}")
        return None if results[0] is None else tuple(results[0])

    def effect(self, owner: Card | None, **fields: Any) -> Effect:
        e = self.duel.new_effect()
        e.owner = owner
        for k, v in fields.items():
            setattr(e, k, v)
        return e


@pytest.fixture
def env() -> Env:
    return Env()


# ----- registration ----------------------------------------------------------------------

def test_every_card_function_of_the_reference_is_registered():
    registry.load_libraries()
    card_names = [n for n in registry.reference_api() if n.startswith("Card.")]
    assert len(card_names) == 276
    assert [n for n in registry.missing() if n.startswith("Card.")] == []
    assert {n: registry.spec(n).yields for n in ("Card.RemoveCounter", "Card.RemoveOverlayCard")} == {
        "Card.RemoveCounter": True, "Card.RemoveOverlayCard": True}


# ----- loading a card: what initial_effect calls --------------------------------------------

def test_initial_effect_reads_printed_data_and_registers_its_set_up_effects(env):
    c = env.place(90002)
    assert env.one("return c90002.loaded") == 1
    assert env.run("return c90002.code, c90002.original, c90002.is_self, c90002.is_set") == (90002, 90002, True, True)
    assert env.run("return c90002.level, c90002.attack, c90002.monster, c90002.initializing") == (8, 3000, True, True)
    # EnableReviveLimit: an uncopyable, uncancellable single effect registered as initial
    (revive,) = c.single_effect.equal_range(EFFECT_REVIVE_LIMIT)
    assert revive.is_flag(EFFECT_FLAG_UNCOPYABLE) and revive.is_flag(EFFECT_FLAG_CANNOT_DISABLE)
    assert revive.is_flag(EFFECT_FLAG_INITIAL) and revive in c.initial_effect
    # EnableCounterPermit on a monster: range Monster Zone, single-range
    (permit,) = c.single_effect.equal_range(EFFECT_COUNTER_PERMIT + 1)
    assert permit.range == LOCATION_MZONE and permit.is_flag(EFFECT_FLAG_SINGLE_RANGE)
    (limit,) = c.single_effect.equal_range(EFFECT_COUNTER_LIMIT + 1)
    assert limit.value == 3
    # SetUniqueOnField / SetSPSummonOnce
    assert (c.unique_pos, c.unique_code, c.unique_location) == ([1, 0], 90002, LOCATION_ONFIELD)
    assert c.single_effect.equal_range(EFFECT_UNIQUE_CHECK) == [c.unique_effect]
    assert c.spsummon_code == 90002 and env.duel.core.global_flag & GLOBALFLAG_SPSUMMON_ONCE


def test_counter_permit_of_a_spell_defaults_to_the_spell_and_field_zones(env):
    c = env.place(90003, location=LOCATION_SZONE, seq=2)
    (permit,) = c.single_effect.equal_range(EFFECT_COUNTER_PERMIT + 2)
    assert permit.range == LOCATION_SZONE | LOCATION_FZONE


def test_enable_revive_limit_does_nothing_while_copying(env):
    c = env.place(90001)
    c.set_status(STATUS_COPYING_EFFECT, True)
    env.run("local c=... c:EnableReviveLimit() c:SetStatus(STATUS_PROC_COMPLETE,true)", c)
    assert not c.single_effect.equal_range(EFFECT_REVIVE_LIMIT)
    assert not c.is_status(STATUS_PROC_COMPLETE)   # SetStatus is ignored while copying too
    c.set_status(STATUS_COPYING_EFFECT, False)
    env.run("local c=... c:EnableReviveLimit() c:SetStatus(STATUS_PROC_COMPLETE,true)", c)
    assert c.single_effect.equal_range(EFFECT_REVIVE_LIMIT) and c.is_status(STATUS_PROC_COMPLETE)


# ----- names and archetypes -------------------------------------------------------------------

def test_codes_of_alternate_artworks_and_double_names(env):
    alt = env.place(90004)
    assert env.run("local c=... return c:GetCode(), c:GetOriginalCode(), c:GetOriginalCodeRule()", alt) == (
        90001, 90001, 90001)
    dolphin = env.place(78734254, seq=1)
    assert env.count("return (...):GetCode()", dolphin) == (2, (78734254, 17955766))
    assert env.count("return (...):GetOriginalCodeRule()", dolphin) == (2, (78734254, 17955766))
    assert env.count("return (...):GetFusionCode()", dolphin) == (2, (78734254, 17955766))


def test_is_code_takes_several_codes_and_skips_nils(env):
    c = env.place(90001)
    assert env.one("return (...):IsCode(1, nil, 90001)", c) is True
    assert env.one("return (...):IsCode(nil)", c) is False
    assert env.one("return (...):IsCode(90001.0)", c) is True
    assert env.one("return (...):IsCode('90001')", c) is True
    assert env.one("return (...):IsOriginalCodeRule(5, 90001)", c) is True


def test_is_set_card_checks_each_set_code_and_sub_archetypes(env):
    c = env.place(90001)       # set codes 0x45 and 0x1099
    assert env.one("return (...):IsSetCard(0x45)", c) is True
    assert env.one("return (...):IsSetCard(0x99)", c) is True
    assert env.one("return (...):IsSetCard(0x1045)", c) is False     # no 0x1000 sub-archetype on 0x45
    assert env.one("return (...):IsSetCard(0x1045, nil, 0x2099)", c) is False
    assert env.one("return (...):IsSetCard(0x1045, nil, 0x1099)", c) is True
    assert env.one("return (...):IsOriginalSetCard(0x45, 0x46)", c) is True


def test_fusion_and_link_codes_include_added_codes(env):
    c = env.place(90001)
    c.add_effect(env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_ADD_FUSION_CODE, value=1234))
    c.add_effect(env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_ADD_LINK_CODE, value=5678))
    assert env.count("return (...):GetFusionCode()", c) == (2, (90001, 1234))
    assert env.count("return (...):GetLinkCode()", c) == (2, (90001, 5678))
    assert env.run("local c=... return c:IsFusionCode(1234), c:IsCode(1234), c:IsLinkCode(5678, 1)", c) == (
        True, False, True)
    env.duel.core.not_material = True
    assert env.count("return (...):GetFusionCode()", c) == (1, (90001,))
    assert env.one("return (...):IsFusionCode(1234)", c) is False


# ----- types and stats ------------------------------------------------------------------------

def test_type_level_rank_link_getters(env):
    m = env.place(90001)
    x = env.place(90005, seq=1)
    lk = env.place(90006, seq=2)
    assert env.run("local c=... return c:GetType(), c:GetOriginalType(), c:IsType(TYPE_XYZ), "
                   "c:IsAllTypes(TYPE_MONSTER+TYPE_EFFECT)", m) == (EFFECT_MONSTER, EFFECT_MONSTER, False, True)
    assert env.run("local c=... return c:GetLevel(), c:GetRank(), c:GetLink(), c:GetOriginalLevel()", m) == (4, 0, 0, 4)
    assert env.run("local c=... return c:GetLevel(), c:GetRank(), c:GetOriginalRank(), c:IsHasLevel()", x) == (
        0, 4, 4, False)
    assert env.run("local c=... return c:GetLink(), c:IsLink(1, 2), c:IsLinkBelow(2), c:IsLinkAbove(3)", lk) == (
        2, True, True, False)
    assert env.run("local c=... return c:IsLevel(3, nil, 4), c:IsLevelBelow(4), c:IsLevelAbove(5), c:IsRankBelow(9)",
                   m) == (True, True, False, False)        # no Rank: IsRankBelow is false
    assert env.run("local c=... return c:IsLinkMarker(LINK_MARKER_LEFT), c:IsLinkMarker(LINK_MARKER_TOP)", lk) == (
        True, False)


def test_attribute_race_and_their_checks(env):
    c = env.place(90001)
    assert env.run("local c=... return c:GetAttribute(), c:GetRace(), c:GetOriginalAttribute(), c:GetOriginalRace()",
                   c) == (ATTRIBUTE_DARK, RACE_WARRIOR, ATTRIBUTE_DARK, RACE_WARRIOR)
    assert env.run("local c=... return c:IsAttribute(ATTRIBUTE_DARK+ATTRIBUTE_LIGHT), c:IsRace(RACE_DRAGON), "
                   "c:IsNonAttribute(ATTRIBUTE_DARK), c:IsNonAttribute(ATTRIBUTE_LIGHT)", c) == (
        True, False, False, True)
    c.set_status(STATUS_NO_LEVEL, True)
    assert env.run("local c=... return c:GetOriginalAttribute(), c:GetTextAttack()", c) == (0, 0)


def test_attack_and_defense_follow_continuous_effects(env):
    c = env.place(90001)
    c.add_effect(env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=-2500))
    c.add_effect(env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_DEFENSE, value=300))
    assert env.run("local c=... return c:GetAttack(), c:GetDefense(), c:GetBaseAttack(), c:GetTextAttack()", c) == (
        0, 1300, 1800, 1800)
    assert env.run("local c=... return c:IsAttack(0), c:IsDefense(1000, 1300), c:IsAttackBelow(0), "
                   "c:IsAttackAbove(1), c:IsDefenseAbove(1300), c:IsDefenseBelow(1299)", c) == (
        True, True, True, False, True, False)


def test_stat_checks_answer_no_for_cards_without_those_stats(env):
    spell = env.place(90003, location=LOCATION_SZONE)
    link = env.place(90006, seq=1)
    assert env.run("local c=... return c:IsAttack(0), c:IsAttackAbove(0), c:IsHasDefense(), c:GetAttack()",
                   spell) == (False, False, False, 0)
    assert env.run("local c=... return c:IsDefense(0), c:IsDefenseBelow(5000), c:IsHasDefense(), c:IsAttack(1600)",
                   link) == (False, False, False, True)


# ----- places --------------------------------------------------------------------------------------

def test_a_card_being_summoned_is_not_on_the_field_for_scripts(env):
    c = env.place(90001)
    assert env.run("local c=... return c:GetLocation(), c:IsLocation(LOCATION_MZONE), c:IsOnField()", c) == (
        LOCATION_MZONE, True, True)
    c.set_status(STATUS_SUMMONING, True)
    assert env.run("local c=... return c:GetLocation(), c:IsLocation(LOCATION_MZONE), c:IsOnField()", c) == (
        0, False, False)


def test_field_and_pendulum_zones_and_positions(env):
    field = env.place(90003, location=LOCATION_SZONE, seq=5)
    assert env.run("local c=... return c:IsLocation(LOCATION_FZONE), c:IsLocation(LOCATION_PZONE), "
                   "c:IsLocation(LOCATION_SZONE)", field) == (True, False, True)
    c = env.place(90001, position=POS_FACEDOWN_DEFENSE)
    assert env.run("local c=... return c:IsFaceup(), c:IsFacedown(), c:IsDefensePos(), c:IsPosition(POS_FACEDOWN), "
                   "c:GetPosition(), c:IsControler(0), c:IsControler(1)", c) == (
        False, True, True, True, POS_FACEDOWN_DEFENSE, True, False)
    h = env.place(90001, location=LOCATION_HAND, position=POS_FACEDOWN_DEFENSE)
    assert env.run("local c=... return c:IsFaceup(), c:IsFaceupEx(), c:IsPublic()", h) == (False, True, False)


# ----- effects -------------------------------------------------------------------------------------

def test_register_effect_returns_the_id_or_minus_one_when_already_registered(env):
    c = env.place(90001)
    e = env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=100,
                   category=CATEGORY_COIN | CATEGORY_FUSION_SUMMON)
    first = env.duel.infos.field_id
    assert env.count("local c,e=... return c:RegisterEffect(e)", c, e) == (1, (first,))
    assert e.handler is c and e.is_flag(EFFECT_FLAG_COIN) and e.is_flag(EFFECT_FLAG_FUSION_SUMMON)
    assert not e.is_flag(EFFECT_FLAG_DICE)
    assert env.count("local c,e=... return c:RegisterEffect(e)", c, e) == (1, (-1,))
    assert env.one("return (...):GetAttack()", c) == 1900


def test_register_effect_refused_by_an_effect_the_card_is_immune_to(env):
    c = env.place(90001)
    source = env.place(90001, seq=1)
    reason = env.effect(source, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    source.add_effect(reason)
    immune = env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_IMMUNE_EFFECT, range=LOCATION_MZONE,
                        flag=[EFFECT_FLAG_SINGLE_RANGE, 0], value=1)
    c.add_effect(immune)
    c.filter_immune_effect()
    env.duel.core.reason_effect = reason
    e = env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=100)
    env.run("local c,e=... c:RegisterEffect(e)", c, e)
    assert e.handler is None and e in env.duel.core.reseted_effects
    # forced registration ignores the immunity
    assert env.count("local c,e=... return c:RegisterEffect(e, true)", c, e)[1][0] > 0


def test_is_has_effect_returns_every_effect_or_nil(env):
    c = env.place(90001)
    assert env.count("return (...):IsHasEffect(EFFECT_CANNOT_ATTACK)", c) == (1, (None,))
    e1 = env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_CANNOT_ATTACK)
    e2 = env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_CANNOT_ATTACK)
    c.add_effect(e1)
    c.add_effect(e2)
    assert env.count("return (...):IsHasEffect(EFFECT_CANNOT_ATTACK)", c) == (2, (e1, e2))
    assert env.one("return (...):GetEffectCount(EFFECT_CANNOT_ATTACK)", c) == 2
    env.run("(...):ResetEffect(EFFECT_CANNOT_ATTACK, RESET_CODE)", c)
    assert env.one("return (...):GetEffectCount(EFFECT_CANNOT_ATTACK)", c) == 0


def test_flag_effects(env):
    c = env.place(90001)
    e = env.one("return (...):RegisterFlagEffect(1234, RESET_EVENT+RESETS_STANDARD+RESET_PHASE+PHASE_END, 0, 1, 77)",
                c)
    assert isinstance(e, Effect) and e.code == EFFECT_FLAG_EFFECT | 1234
    assert e.reset_flag & (RESET_SELF_TURN | RESET_OPPO_TURN) == RESET_SELF_TURN | RESET_OPPO_TURN
    assert e.is_flag(EFFECT_FLAG_CANNOT_DISABLE) and e.label == [77] and e.effect_owner == 0
    env.run("(...):RegisterFlagEffect(1234, 0, 0, 0)", c)
    assert env.one("return (...):GetFlagEffect(1234)", c) == 2
    assert env.count("return (...):GetFlagEffectLabel(1234)", c) == (2, (77, 0))
    assert env.one("return (...):SetFlagEffectLabel(1234, 5)", c) is True
    assert env.count("return (...):GetFlagEffectLabel(1234)", c) == (2, (5, 0))
    env.run("(...):ResetFlagEffect(1234)", c)
    assert env.one("return (...):GetFlagEffect(1234)", c) == 0
    assert env.count("return (...):GetFlagEffectLabel(1234)", c) == (1, (None,))
    assert env.one("return (...):SetFlagEffectLabel(1234, 5)", c) is False


def test_relations(env):
    c = env.place(90001)
    d = env.place(90001, seq=1)
    e = env.effect(c, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    assert env.run("local c,d,e=... c:CreateRelation(d, RESET_EVENT+RESET_TOGRAVE) c:CreateEffectRelation(e) "
                   "return c:IsRelateToCard(d), d:IsRelateToCard(c), c:IsRelateToEffect(e), c:IsRelateToChain()",
                   c, d, e) == (True, False, True, False)
    assert env.run("local c,d,e=... c:ReleaseRelation(d) c:ReleaseEffectRelation(e) "
                   "return c:IsRelateToCard(d), c:IsRelateToEffect(e)", c, d, e) == (False, False)


# ----- counters ------------------------------------------------------------------------------------

def test_counters_add_limit_and_remove_all(env):
    c = env.place(90002)                     # permit for 0x1 (limit 3) from its script
    assert env.run("local c=... return c:IsCanHaveCounter(0x1), c:IsCanHaveCounter(0x2), "
                   "c:IsCanAddCounter(0x1, 3), c:IsCanAddCounter(0x1, 4), c:IsCanAddCounter(0x2, 1)", c) == (
        True, False, True, False, False)
    assert env.one("return (...):AddCounter(0x1, 2)", c) is True
    assert env.one("return (...):AddCounter(0x1, 2)", c) is False        # over the limit
    assert env.one("return (...):AddCounter(0x1, 2, true)", c) is True   # singly: capped at the limit
    assert env.run("local c=... return c:GetCounter(0x1), c:GetCounter(0)", c) == (3, 1)
    adds = [m for m in env.duel.messages if isinstance(m, MsgAddCounter)]
    assert [(m.counter_type, m.count) for m in adds] == [(1, 2), (1, 1)]
    assert env.one("return (...):IsCanRemoveCounter(0, 0x1, 3, REASON_COST)", c) is True
    # counter type 0: every counter comes off; no Lua value (as the counters guide says;
    # the reference at db4fd16 returns a boolean: docs/counters.md)
    c.counters[0x2] = 4
    env.duel.messages.clear()
    assert env.task("return (...):RemoveCounter(0, 0, 1, REASON_EFFECT)", c) == ()
    assert c.counters == {}
    rem = [m for m in env.duel.messages if isinstance(m, MsgRemoveCounter)]
    assert [(m.counter_type, m.count) for m in rem] == [(1, 3), (2, 4)]
    assert env.task("return (...):RemoveCounter(0, 0, 1, REASON_EFFECT)", c) == ()


def test_remove_counter_of_one_type_is_processed_by_the_engine(env):
    c = env.place(90002)
    c.counters[0x1] = 3
    assert env.task("return (...):RemoveCounter(0, 0x1, 2, REASON_COST)", c) == (True,)
    assert c.counters == {0x1: 1}
    assert env.task("return (...):RemoveCounter(0, 0x1, 2, REASON_COST)", c) == (False,)


def test_actions_are_refused_inside_plain_calls():
    env = Env(strict=False)
    c = env.place(90002)
    c.counters[0x1] = 3
    assert env.run("return (...):RemoveCounter(0, 0x1, 2, REASON_COST)", c) == ()
    assert "Action is not allowed here." in env.host.errors[-1].message
    assert c.counters == {0x1: 3}


def test_add_counter_needs_the_reason_effect_to_reach_the_card(env):
    c = env.place(90002)
    reason = env.effect(c, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    c.set_status(STATUS_SUMMONING, True)
    env.duel.core.reason_effect = reason
    assert env.one("return (...):AddCounter(0x1, 1)", c) is False


def test_functions_without_results_return_no_value(env):
    c = env.place(90001)
    source = env.place(90001, seq=1)
    assert env.count("return (...):SetReason(REASON_EFFECT)", c) == (0, ())
    assert env.count("return (...):GetActivateEffect()", c) == (0, ())
    assert env.count("return (...):GetSpecialSummonInfo()", c) == (0, ())
    assert env.count("return (...):IsCanRemoveCounter(2, 0x1, 3, REASON_COST)", c) == (0, ())
    # RegisterEffect refused because the card is unaffected by the effect being applied
    reason = env.effect(source, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    source.add_effect(reason)
    c.set_status(STATUS_SUMMONING, True)
    env.duel.core.reason_effect = reason
    e = env.effect(c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=100)
    assert env.count("local c,e=... return c:RegisterEffect(e)", c, e) == (0, ())


# ----- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize("src, message", [
    ("Card.GetCode()", "1 Parameters are needed."),
    ("Card.IsCode((...))", "2 Parameters are needed."),
    ("Card.GetCode(5)", 'Parameter 1 should be "Card".'),
    ("local c=... c:IsRelateToEffect(c)", 'Parameter 2 should be "Effect".'),
    ("local c=... c:GetSynchroLevel(nil)", 'Parameter 2 should be "Card".'),
    ("local c=... c:SetMaterial(c)", 'Parameter 2 should be "Group".'),
    ("local c=... c:IsEffectProperty(1)", 'Parameter 2 should be "Function".'),
    ("local c=... c:IsDestructable(nil)", 'Parameter 2 should be "Effect".'),
    ("local c=... c:CheckEquipTarget()", 'Parameter 2 should be "Card".'),
])
def test_bad_arguments_raise_the_reference_messages(src, message):
    env = Env(strict=False)
    c = env.place(90001)
    env.run(src, c)
    assert env.host.errors and env.host.errors[-1].message.endswith(message), env.host.errors[-1].message
    assert "snippet:1:" in env.host.errors[-1].message


# ----- hints, deck, misc ---------------------------------------------------------------------------

def test_set_hint_writes_a_card_hint_except_description_hints(env):
    c = env.place(90001, seq=3)
    env.duel.messages.clear()
    env.run("local c=... c:SetHint(CHINT_NUMBER, 7) c:SetHint(CHINT_DESC, 1)", c)
    (m,) = [m for m in env.duel.messages if isinstance(m, MsgCardHint)]
    assert (m.type, m.value, m.loc.sequence) == (CHINT_NUMBER, 7, 3)


def test_reverse_in_deck_shows_the_top_card(env):
    bottom = env.place(90001, location=LOCATION_DECK)
    top = env.place(90002, location=LOCATION_DECK)
    env.duel.messages.clear()
    env.run("local a,b=... a:ReverseInDeck() b:ReverseInDeck()", bottom, top)
    assert bottom.current.position == top.current.position == POS_FACEUP_DEFENSE
    (m,) = [m for m in env.duel.messages if isinstance(m, MsgDeckTop)]
    assert (m.player, m.sequence, m.code) == (0, 0, 90002 | 0x80000000)


def test_special_summon_info_values(env):
    c = env.place(90001)
    c.spsummon.code = 1234
    c.spsummon.attack = -5
    c.spsummon.reason_player = 1
    assert env.count("return (...):GetSpecialSummonInfo(SUMMON_INFO_CODE, SUMMON_INFO_ATTACK, 0, "
                     "SUMMON_INFO_REASON_PLAYER)", c) == (4, (1234, -5, None, 1))


def test_zones_seen_from_the_opponent_swap_halves(env):
    lk = env.place(90006, seq=2)          # Link Monster with Left/Right arrows in zone 2
    assert env.one("return (...):GetLinkedZone()", lk) == 0b1010
    assert env.one("return (...):GetLinkedZone(1)", lk) == 0b1010 << 16
    assert env.one("return (...):GetColumnZone(LOCATION_MZONE)", lk) == 1 << (16 + 2)
    assert env.one("return (...):GetColumnZone(LOCATION_MZONE, 1)", lk) == 1 << 2


def test_cancel_to_grave_and_assume_property(env):
    c = env.place(90001)
    env.run("(...):CancelToGrave(false)", c)
    assert c.is_status(STATUS_LEAVE_CONFIRMED) and c in env.duel.core.leave_confirmed
    env.run("(...):CancelToGrave()", c)
    assert not c.is_status(STATUS_LEAVE_CONFIRMED)
    assert env.one("local c=... c:AssumeProperty(ASSUME_LEVEL, 9) return c:GetLevel()", c) == 9
    assert c.get_level() == 4                 # restored when the outermost script call ended


def test_activate_effects_and_the_event_they_would_respond_to(env):
    from duelhost.engine.event import Event
    s = env.place(90003, location=LOCATION_SZONE, seq=1, position=POS_FACEDOWN_DEFENSE)
    activate_range = LOCATION_SZONE | LOCATION_FZONE | LOCATION_HAND
    free = env.effect(s, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN, range=activate_range)
    on_summon = env.effect(s, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_SUMMON_SUCCESS,
                           range=activate_range)
    s.add_effect(on_summon)
    s.add_effect(free)
    # container order: by code (EVENT_FREE_CHAIN 1002 before EVENT_SUMMON_SUCCESS 1100)
    assert env.count("return (...):GetActivateEffect()", s) == (2, (free, on_summon))
    env.duel.core.reason_effect = env.effect(s, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    assert env.count("return (...):CheckActivateEffect(false, false, true)", s) == (1, (free,))
    s.remove_effect(free)
    summoned = env.place(90001, p=1)
    eg = env.duel.new_group([summoned])
    env.duel.core.point_event.append(Event(EVENT_SUMMON_SUCCESS, eg, None, REASON_RULE, 1, 1, 5))
    _, values = env.count("local e,eg,ep,ev,re,r,rp=(...):CheckActivateEffect(false, false, true) "
                          "return e, eg:GetFirst(), ep, ev, re, r, rp", s)
    assert values == (on_summon, summoned, 1, 5, None, REASON_RULE, 1)
    assert env.count("return (...):CheckActivateEffect(false, false, false)", s) == (1, (on_summon,))


def test_battle_queries_read_the_current_attack(env):
    attacker = env.place(90001, p=0)
    target = env.place(90001, p=1)
    bystander = env.place(90001, p=1, seq=1)
    attacker.fieldid = attacker.fieldid_r = 10
    target.fieldid = target.fieldid_r = 11
    bystander.fieldid = bystander.fieldid_r = 12
    core = env.duel.core
    core.attacker, core.attack_target, core.pre_field = attacker, target, [10, 11]
    core.attack_player = 0          # as the Battle Phase sets it (the initial PLAYER_NONE allows direct attacks)
    env.duel.infos.turn_player = 0
    env.duel.infos.phase = PHASE_BATTLE_STEP
    assert env.run("local a,t,b=... local g,direct=a:GetAttackableTarget() "
                   "return g:IsContains(t), g:IsContains(b), #g, direct", attacker, target, bystander) == (
        True, True, 2, False)
    assert env.run("local a,t,b=... return a:GetBattleTarget()==t, t:GetBattleTarget()==a, b:GetBattleTarget(), "
                   "a:IsRelateToBattle(), b:IsRelateToBattle()", attacker, target, bystander) == (
        True, True, None, True, False)
    # IsChainAttackable asks about the attacker whatever card it is called on
    assert env.run("local a,t,b=... return a:IsChainAttackable(), b:IsChainAttackable(0, true)",
                   attacker, target, bystander) == (True, True)
    attacker.announce_count = 2
    assert env.run("local a=... return a:IsChainAttackable(), a:IsChainAttackable(3), a:IsChainAttackable(0)",
                   attacker) == (False, True, True)
    core.attacker = None
    assert env.one("return (...):IsChainAttackable()", attacker) is False
