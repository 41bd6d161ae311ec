"""Card queries answered in Lua from a card's printed values (bootstrap.lua; Card.printed_stats).

The name and archetype queries (Card.GetCode, IsCode, IsSetCard, GetFusionCode,
IsFusionCode), the type queries (GetType, IsType) and the Level queries (GetLevel,
IsLevel, IsLevelBelow, IsLevelAbove) answer in Lua while the value they read is the
card's printed one.  What must hold: every answer equals the binding's, for every card
state and every argument list (the binding is the rule; the Lua answer only saves the
crossing); a card whose value an effect, an assumption or its status changes is asked
in Python, and the answers follow each change at once.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from duelhost.bindings import registry
from duelhost.bindings.args import Args
from duelhost.bindings.errors import ScriptFailure
from duelhost.bindings.host import LuaScriptHost
from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import (
    ASSUME_ATTRIBUTE, ASSUME_CODE, ASSUME_LEVEL, ASSUME_RACE, ASSUME_TYPE, ATTRIBUTE_DARK, ATTRIBUTE_FIRE,
    EFFECT_ADD_CODE, EFFECT_ADD_FUSION_CODE, EFFECT_ADD_RACE, EFFECT_ADD_SETCODE, EFFECT_ADD_TYPE,
    EFFECT_CHANGE_ATTRIBUTE, EFFECT_CHANGE_CODE, EFFECT_CHANGE_LEVEL, EFFECT_PRE_MONSTER, EFFECT_TYPE_EQUIP,
    EFFECT_TYPE_FIELD, EFFECT_TYPE_SINGLE, EFFECT_UPDATE_LEVEL, LOCATION_DECK, LOCATION_EXTRA, LOCATION_GRAVE,
    LOCATION_HAND, LOCATION_MZONE, LOCATION_SZONE, RACE_DRAGON, RACE_WARRIOR, RACE_ZOMBIE, TYPE_EFFECT,
    TYPE_MONSTER, TYPE_PENDULUM, TYPE_SPELL, TYPE_TRAP, TYPE_TUNER,
)

from test_lib_card import DB as CARD_DB, Env as CardEnv

# the Card queries answered from printed values (bootstrap.lua, PRINTED_QUERIES)
QUERIES = tuple("Card." + name for name in (
    "GetCode", "IsCode", "IsSetCard", "GetFusionCode", "IsFusionCode", "GetType", "IsType", "GetLevel",
    "IsLevel", "IsLevelBelow", "IsLevelAbove", "GetRace", "IsRace", "GetAttribute", "IsAttribute"))

# the lib_card cards and a second name with archetypes of its own (Marine Dolphin's
# second name is Dolphin, 17955766)
DB: dict[int, CardData] = {
    **CARD_DB,
    17955766: CardData(code=17955766, type=CARD_DB[90001].type, level=3, setcode=(0x8A, 0, 0x31)),
    90011: CardData(code=90011, type=TYPE_MONSTER | TYPE_EFFECT | TYPE_PENDULUM, level=5, lscale=2, rscale=2),
    90012: CardData(code=90012, type=TYPE_MONSTER | TYPE_EFFECT | TYPE_TUNER, level=0),
    # a Trap Monster's card: a Trap with monster stats in its record
    90013: CardData(code=90013, type=TYPE_TRAP, level=4, race=RACE_WARRIOR, attribute=ATTRIBUTE_DARK),
}


class Env(CardEnv):
    """test_lib_card's duel over DB, with scripts for its three extra cards."""

    def __init__(self, extra_scripts: Path) -> None:
        for code in (90011, 90012, 90013):
            extra_scripts.joinpath(f"c{code}.lua").write_text(
                "local s,id=GetID()\nfunction s.initial_effect(c) end\n", encoding="utf-8")
        super().__init__(db=DB, more_scripts=(extra_scripts,))


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return Env(tmp_path)


def _binding(env: Env, name: str, *args: Any) -> tuple[str, Any]:
    """What the binding itself answers for ``args``: ("ok", its values) or ("error", text)."""
    spec = registry.spec(name)
    assert spec is not None
    try:
        r = spec.fn(env.host.ctx, Args(args))
    except Exception as exc:  # noqa: BLE001 - compared with the Lua call's error
        return "error", str(exc)
    return "ok", r if type(r) is tuple else (r,)


def _lua(env: Env, name: str, c: Any, *args: Any) -> tuple[str, Any]:
    """The same call made from Lua as a method of the card: ("ok", its values) or ("error",
    the message, which starts with the script's position)."""
    try:
        out = env.run(f"local c = ... local r = table.pack(c:{name.partition('.')[2]}(select(2, ...))) "
                      f"return table.unpack(r, 1, r.n)", c, *args)
    except ScriptFailure as exc:
        line = str(exc).split("\n")[0].removeprefix("error: ")
        assert line.startswith("snippet:1: "), line
        return "error", line.removeprefix("snippet:1: ").split(" [card ")[0]
    return "ok", out


ARGUMENT_LISTS = [(), (None,), (90001,), (90002,), (17955766,), (78734254,), (0x45,), (0x1045,),
                  (0x45, 0x1099), (0x1045, 0x45), (None, 90002), (0x8A,), (0x31,), (0x1099,),
                  (0x99,), (0x2045,), (-1,), (1 << 32 | 90001,), (90001 - (1 << 32),), (90001.0,),
                  ("90001",), (True,), (0x45, "x"), (90001, {}), (0,),
                  # types and Levels
                  (TYPE_MONSTER,), (TYPE_EFFECT | TYPE_PENDULUM,), (0x80000000,), (1, 2), (4,), (8,), (5,),
                  (3, 4), (None, 8), (1 << 32 | 4,), (4.0,), (4.5,), (12, "x"), (13,)]


def _cards(env: Env) -> list[Card]:
    return [env.place(90001, seq=0), env.place(90002, location=LOCATION_GRAVE),
            env.place(90004, location=LOCATION_HAND), env.place(78734254, location=LOCATION_DECK),
            env.place(90003, location=LOCATION_SZONE, seq=1), env.place(90005, location=LOCATION_EXTRA),
            env.place(90006, location=LOCATION_EXTRA), env.place(90011, location=LOCATION_DECK),
            env.place(90012, location=LOCATION_DECK), env.place(90007, location=LOCATION_HAND),
            env.place(90013, location=LOCATION_HAND)]


def _assert_same_as_binding(env: Env, cards: list[Any]) -> None:
    for c in cards:
        for name in QUERIES:
            for args in ARGUMENT_LISTS:
                want = _binding(env, name, c, *args)
                assert _lua(env, name, c, *args) == want, (name, c, args)


def test_every_answer_equals_the_bindings_for_printed_values(env: Env) -> None:
    cards = _cards(env)
    assert all(c.printed_stats()[4] >= 0 for c in cards)
    # a double-name card: both names, and the archetypes of both up to each list's first zero
    assert cards[3].printed_stats() == (DB[78734254].type, 4, 0, 0, 78734254, 17955766, 0x8A)
    # an alternate artwork: the rule code and the archetypes of the card it stands for
    assert cards[2].printed_stats()[4:6] == (90001, 0)
    # an Xyz and a Link Monster have no Level (0), a printed Level 0 counts as 1, a Spell
    # or Trap has no Level, Type or Attribute (0); a Pendulum card's type is what it is now
    assert [c.printed_stats()[1] for c in cards[4:]] == [0, 0, 0, 5, 1, 0, 0]
    assert cards[0].printed_stats()[2:4] == (RACE_WARRIOR, ATTRIBUTE_DARK)
    assert cards[4].printed_stats()[:4] == (DB[90003].type, 0, 0, 0)
    assert cards[7].printed_stats()[0] == -1 and cards[8].printed_stats()[0] == DB[90012].type
    _assert_same_as_binding(env, cards)
    # the answers are the method calls' only: Card.X itself is the binding
    assert set(QUERIES) == {"Card." + k for k in env.host.printed_answers.keys()}
    for name in QUERIES:
        assert env.run(f"return Card.{name[5:]} == (...).{name[5:]}", cards[0]) == (False,)


def _register(env: Env, card: Card, kind: int, code: int, value: int, **fields: Any) -> Any:
    """A new effect of ``card`` registered from Lua (as a script does); its handle."""
    src = ("local c, t, code, v, r, tr = ... local e = Effect.CreateEffect(c) e:SetType(t) "
           "e:SetCode(code) e:SetValue(v) if r then e:SetRange(r) e:SetTargetRange(tr, 0) end "
           "c:RegisterEffect(e) return e")
    (e,) = env.run(src, card, kind, code, value, fields.get("range"), fields.get("target_range"))
    return e


def _reset(env: Env, e: Any) -> None:
    env.run("local e = ... e:Reset()", e)


def test_an_effect_on_the_card_itself_is_asked_in_python_and_followed_at_once(env: Env) -> None:
    cards = _cards(env)
    c = cards[0]
    assert env.run("return (...):IsCode(90001)", c) == (True,)       # printed names, kept in Lua
    e = _register(env, c, EFFECT_TYPE_SINGLE, EFFECT_CHANGE_CODE, 90002)
    assert c.printed_stats()[4:] == (-1,)
    assert env.run("return (...):IsCode(90001), (...):IsCode(90002), (...):GetCode()", c) == (False, True, 90002)
    _assert_same_as_binding(env, cards)
    _reset(env, e)
    assert c.printed_stats()[4] == 90001
    assert env.run("return (...):IsCode(90001), (...):IsCode(90002)", c) == (True, False)
    for code, value, query, args in ((EFFECT_ADD_CODE, 90007, "IsCode", (90007,)),
                                     (EFFECT_ADD_SETCODE, 0x77, "IsSetCard", (0x77,)),
                                     (EFFECT_ADD_FUSION_CODE, 90005, "IsFusionCode", (90005,)),
                                     (EFFECT_ADD_TYPE, TYPE_TUNER, "IsType", (TYPE_TUNER,)),
                                     (EFFECT_UPDATE_LEVEL, 2, "IsLevel", (6,)),
                                     (EFFECT_CHANGE_LEVEL, 1, "IsLevelBelow", (1,)),
                                     (EFFECT_ADD_RACE, RACE_ZOMBIE, "IsRace", (RACE_ZOMBIE,)),
                                     (EFFECT_CHANGE_ATTRIBUTE, ATTRIBUTE_FIRE, "IsAttribute", (ATTRIBUTE_FIRE,))):
        assert env.run(f"return (...):{query}(select(2, ...))", c, *args) == (False,)
        e = _register(env, c, EFFECT_TYPE_SINGLE, code, value)
        assert env.run(f"return (...):{query}(select(2, ...))", c, *args) == (True,), query
        _assert_same_as_binding(env, cards)
        _reset(env, e)
        assert env.run(f"return (...):{query}(select(2, ...))", c, *args) == (False,), query


def test_an_effect_reaching_other_cards_turns_every_card_to_python(env: Env) -> None:
    cards = _cards(env)
    hand = cards[2]
    assert env.run("return (...):IsSetCard(0x77)", hand) == (False,)
    # a field effect: every card of player 0's hand is also archetype 0x77
    e = _register(env, cards[0], EFFECT_TYPE_FIELD, EFFECT_ADD_SETCODE, 0x77,
                  range=LOCATION_MZONE, target_range=LOCATION_HAND)
    assert env.duel.stat_effects_elsewhere == {EFFECT_ADD_SETCODE}
    assert all(x.printed_stats()[4:] == (-1,) for x in cards)
    assert all(x.printed_stats()[0] >= 0 for x in cards[:4])
    assert env.run("return (...):IsSetCard(0x77)", hand) == (True,)
    _assert_same_as_binding(env, cards)
    _reset(env, e)
    assert not env.duel.stat_effects_elsewhere
    assert env.run("return (...):IsSetCard(0x77)", hand) == (False,)
    # an Equip Spell's equip effect gives its target another name
    target = cards[0]
    equip = env.place(90003, location=LOCATION_SZONE, seq=2)
    equip.equiping_target = target
    target.equiping_cards.add(equip)
    e = _register(env, equip, EFFECT_TYPE_EQUIP, EFFECT_CHANGE_CODE, 90006)
    assert env.duel.stat_effects_elsewhere == {EFFECT_CHANGE_CODE}
    assert env.run("return (...):GetCode(), (...):IsCode(90006)", target) == (90006, True)
    _assert_same_as_binding(env, cards)
    _reset(env, e)
    assert env.run("return (...):GetCode(), (...):IsCode(90006)", target) == (90001, False)


def test_an_assumed_name_is_asked_in_python_until_the_assumptions_end(env: Env) -> None:
    cards = _cards(env)
    c = cards[1]
    assert env.run("return (...):IsCode(90002)", c) == (True,)
    # the assumption holds while the call runs and ends with it (call depth back to 0)
    assert env.run("local c = ... c:AssumeProperty(ASSUME_CODE, 90003) "
                   "return c:IsCode(90003), c:IsCode(90002), c:GetCode()", c) == (True, False, 90003)
    assert env.run("return (...):IsCode(90002), (...):IsCode(90003)", c) == (True, False)
    # another kind of assumption leaves the names alone; replacing an assumed name ends it
    assert env.run("local c = ... c:AssumeProperty(ASSUME_CODE, 90003) c:AssumeProperty(ASSUME_LEVEL, 1) "
                   "return c:IsCode(90002), c:GetLevel()", c) == (True, 1)
    c.assume_property(ASSUME_CODE, 90005)
    assert env.run("return (...):GetCode()", c) == (90005,)
    env.duel.restore_assumes()
    assert env.run("return (...):GetCode()", c) == (90002,)
    # an assumed type or Level likewise
    for assumed, value, src, during, after in (
            (ASSUME_TYPE, TYPE_MONSTER, "return (...):IsType(TYPE_FUSION), (...):GetType()",
             (False, TYPE_MONSTER), (True, DB[90002].type)),
            (ASSUME_LEVEL, 3, "return (...):IsLevel(3), (...):IsLevelAbove(8)", (True, False), (False, True)),
            (ASSUME_RACE, RACE_ZOMBIE, "return (...):IsRace(RACE_ZOMBIE), (...):GetRace()",
             (True, RACE_ZOMBIE), (False, DB[90002].race)),
            (ASSUME_ATTRIBUTE, ATTRIBUTE_FIRE, "return (...):IsAttribute(ATTRIBUTE_FIRE), (...):GetAttribute()",
             (True, ATTRIBUTE_FIRE), (False, DB[90002].attribute))):
        assert env.run(src, c) == after
        c.assume_property(assumed, value)
        assert env.run(src, c) == during
        _assert_same_as_binding(env, cards)
        env.duel.restore_assumes()
        assert env.run(src, c) == after


def test_a_status_or_a_pendulum_zone_that_changes_a_value_is_followed(env: Env) -> None:
    cards = _cards(env)
    # a Trap treated as a monster (EFFECT_PRE_MONSTER, as Trap Monsters are) has its Level
    trap = cards[10]
    assert env.run("return (...):GetLevel(), (...):IsRace(RACE_WARRIOR)", trap) == (0, False)
    e = _register(env, trap, EFFECT_TYPE_SINGLE, EFFECT_PRE_MONSTER, TYPE_MONSTER)
    assert env.run("return (...):GetLevel(), (...):IsRace(RACE_WARRIOR)", trap) == (4, True)
    _assert_same_as_binding(env, cards)
    _reset(env, e)
    assert env.run("return (...):GetLevel(), (...):IsRace(RACE_WARRIOR)", trap) == (0, False)
    c = cards[0]
    # a monster that loses its Level (a script's Card.SetStatus), and gets it back
    assert env.run("return (...):GetLevel()", c) == (4,)
    env.run("(...):SetStatus(STATUS_NO_LEVEL, true)", c)
    assert env.run("return (...):GetLevel(), (...):IsLevelBelow(12)", c) == (0, False)
    _assert_same_as_binding(env, cards)
    env.run("(...):SetStatus(STATUS_NO_LEVEL, false)", c)
    assert env.run("return (...):GetLevel(), (...):IsLevelBelow(12)", c) == (4, True)
    # a card that is no Pendulum card put into a Pendulum Zone is a Pendulum Spell there
    spell = cards[4]
    assert env.run("return (...):IsType(TYPE_PENDULUM)", spell) == (False,)
    env.duel.remove_card(spell)
    env.duel.add_card(0, spell, LOCATION_SZONE, 0, pzone=True)
    assert env.run("return (...):IsType(TYPE_PENDULUM), (...):GetType()", spell) == (True, TYPE_PENDULUM | TYPE_SPELL)
    _assert_same_as_binding(env, cards)


def test_the_placeholder_card_never_answers_from_printed_values(env: Env) -> None:
    """The duel's placeholder card wears the data of the monster being asked about
    (Duel.IsPlayerCanSpecialSummonMonster): its names always come from its data now."""
    temp = env.duel.temp_card
    assert temp.printed_stats() == (-1, -1, -1, -1, -1)
    temp.data = DB[90002].copy()
    assert env.run("return (...):GetCode(), (...):IsSetCard(0x1045)", temp) == (90002, True)
    temp.data = DB[90001].copy()
    assert env.run("return (...):GetCode(), (...):IsSetCard(0x1045)", temp) == (90001, False)


def test_a_plain_cards_queries_never_cross_into_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saving itself: after a card's first question its name queries run no binding."""
    calls: list[str] = []
    for name in QUERIES:
        spec = registry.spec(name)
        assert spec is not None

        def counted(ctx: Any, args: Args, _fn: Any = spec.fn, _name: str = name) -> Any:
            calls.append(_name)
            return _fn(ctx, args)
        monkeypatch.setitem(registry._REGISTRY, name, dataclasses.replace(spec, fn=counted, of_card=None, of_card_int=None))
    env = Env(tmp_path)
    plain, changed = env.place(90001, seq=0), env.place(90002, seq=1)
    _register(env, changed, EFFECT_TYPE_SINGLE, EFFECT_CHANGE_CODE, 90003)
    _register(env, changed, EFFECT_TYPE_SINGLE, EFFECT_ADD_TYPE, TYPE_TUNER)
    _register(env, changed, EFFECT_TYPE_SINGLE, EFFECT_UPDATE_LEVEL, 1)
    _register(env, changed, EFFECT_TYPE_SINGLE, EFFECT_ADD_RACE, RACE_ZOMBIE)
    _register(env, changed, EFFECT_TYPE_SINGLE, EFFECT_CHANGE_ATTRIBUTE, ATTRIBUTE_FIRE)
    src = ("local c = ... return c:GetCode(), c:IsCode(1, 90001), c:IsSetCard(0x45), c:GetFusionCode(), "
           "c:IsFusionCode(2), c:GetType(), c:IsType(TYPE_TUNER), c:GetLevel(), c:IsLevel(4, 9), "
           "c:IsLevelBelow(4), c:IsLevelAbove(9), c:GetRace(), c:IsRace(RACE_ZOMBIE), c:GetAttribute(), "
           "c:IsAttribute(ATTRIBUTE_FIRE)")
    assert env.run(src, plain) == (90001, True, True, 90001, False, DB[90001].type, False, 4, True, True, False,
                                   RACE_WARRIOR, False, ATTRIBUTE_DARK, False)
    assert calls == []
    assert env.run(src, changed) == (90003, False, False, 90003, False, DB[90002].type | TYPE_TUNER, True,
                                     9, True, False, True, RACE_DRAGON | RACE_ZOMBIE, True, ATTRIBUTE_FIRE, True)
    assert sorted(calls) == sorted(QUERIES)


# ----- random duels, every answer checked against the binding at the moment it is given --------

class Shadow:
    """Wraps each query answered in Lua so that every call also asks the binding
    (in Python, with the same arguments, at the same moment) and records any difference."""

    def __init__(self) -> None:
        self.checked = 0
        self.differences: list[tuple[str, tuple, Any, Any]] = []
        self.host: Any = None

    def check(self, name: str, n: int, packed: Any, *args: Any) -> None:
        self.checked += 1
        got = tuple(packed[i] for i in range(2, n + 1)) if packed[1] else "error"
        try:
            want = registry.spec(name).fn(self.host.ctx, Args(args))  # type: ignore[union-attr]
            want = want if type(want) is tuple else (want,)
        except Exception:  # noqa: BLE001 - an error on both sides is the same answer
            want = "error"
        if got != want:
            self.differences.append((name, args, got, want))

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from duelhost.bindings.runtime import LuaSandbox
        answer_printed = LuaSandbox.answer_printed
        attach = LuaScriptHost.attach
        shadow = self

        def shadowed(sb: Any, card_lib: Any, printed: Any) -> Any:
            make = sb.lua.eval("""function(name, fast, check)
              return function(...)
                local r = table.pack(pcall(fast, ...))
                check(name, r.n, r, ...)
                if r[1] then return table.unpack(r, 2, r.n) end
                error(r[2], 0)
              end
            end""")
            check = sb.set_function(sb.lua.table(), "check", shadow.check, False)
            answers = answer_printed(sb, card_lib, printed)
            for name in QUERIES:
                short = name.partition(".")[2]
                answers[short] = make(name, answers[short], check)
            return answers

        def attached(host: Any, duel: Any) -> None:
            shadow.host = host
            attach(host, duel)

        monkeypatch.setattr(LuaSandbox, "answer_printed", shadowed)
        monkeypatch.setattr(LuaScriptHost, "attach", attached)


def _play_random(db: Any, scripts: Any, pool: Any, seed: int, responses: int) -> int:
    import random

    from duelhost.deckpool import random_deck
    from duelhost.engine.responses import NoValidResponse, random_response
    from duelhost.host import Duel as HostDuel
    rng = random.Random(seed)
    duel = HostDuel(db=db, scripts=scripts, seed=seed)
    try:
        for p in (0, 1):
            main, extra = random_deck(rng, pool)
            duel.add_deck(p, main, extra, shuffle=True)
        duel.start()
        while duel.responses < responses:
            prompt = duel.advance()
            if prompt is None:
                break
            try:
                duel.respond(random_response(prompt, rng, card_pool=list(db)))
            except NoValidResponse:
                break
        return duel.responses
    finally:
        duel.script_host.close()


def test_random_duels_with_the_bundled_cards_answer_as_the_bindings(monkeypatch: pytest.MonkeyPatch) -> None:
    from duelhost import paths
    from duelhost.deckpool import deck_pool
    from duelhost.engine.carddb import CardDatabase
    shadow = Shadow()
    shadow.install(monkeypatch)
    db = CardDatabase.open(paths.bundled_db())
    scripts = paths.bundled_scripts()
    pool = deck_pool(db, scripts, ot=0)
    played = sum(_play_random(db, scripts, pool, seed, 200) for seed in range(1, 7))
    assert played > 300, played
    assert shadow.checked > 100, shadow.checked
    assert shadow.differences == []


def test_random_duels_with_real_scripts_answer_as_the_bindings(monkeypatch: pytest.MonkeyPatch,
                                                               real_scripts: Any, corpus_db: Any) -> None:
    from duelhost.deckpool import deck_pool
    from duelhost.engine.carddb import CardDatabase
    shadow = Shadow()
    shadow.install(monkeypatch)
    db = CardDatabase.open(corpus_db)
    pool = deck_pool(db, real_scripts)
    for seed in range(1, 4):
        _play_random(db, real_scripts, pool, seed, 400)
    assert shadow.checked > 1000, shadow.checked
    assert shadow.differences == []


def test_a_script_that_replaces_a_query_of_card_gets_it_for_the_method_call_too(env: Env) -> None:
    cards = _cards(env)
    src = ("local c = ... local old = Card.IsCode "
           "Card.IsCode = function(card, code) return code == 12345 end "
           "local r1, r2 = c:IsCode(12345), c:IsCode(90001) "
           "Card.IsCode = old return r1, r2, c:IsCode(90001)")
    assert env.run(src, cards[0]) == (True, False, True)


def test_a_card_whose_printed_values_cannot_be_read_is_asked_in_python(env: Env,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """If reading a card's printed values fails, every query goes to its binding."""
    def broken(self: Card) -> tuple[int, ...]:
        raise RuntimeError("no printed values")
    monkeypatch.setattr(Card, "printed_stats", broken)
    _assert_same_as_binding(env, _cards(env)[:2])
