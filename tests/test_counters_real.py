"""The counters guide's scenarios with the real cards it names (YGOPRO_SCRIPTS and the real
card database; skipped without them): Defender, the Magical Knight; Magical Abductor; The
Kaiju Files; Arcane Barrier; The World Legacy; Servant of Endymion; Power of the Guardians;
Magical Citadel of Endymion.  With OCGCORE_LIB set, each duel is replayed on the reference
core too and must give the same message bytes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from duelhost.engine import constants as C
from duelhost.engine.messages import MsgAddCounter, MsgRemoveCounter, MsgSelectCounter

_spec = importlib.util.spec_from_file_location("counters_kit", Path(__file__).with_name("test_counters_kit.py"))
kit = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("counters_kit", kit)
_spec.loader.exec_module(kit)

from counters_kit import counters, pick, yes  # noqa: E402

DEFENDER = 2525268          # Defender, the Magical Knight
ABDUCTOR = 10239627         # Magical Abductor
KAIJU_FILES = 11163040      # The Kaiju Files
BARRIER = 17896384          # Arcane Barrier
LEGACY = 92562411           # The World Legacy
SERVANT = 92559258          # Servant of Endymion
GUARDIANS = 1118137         # Power of the Guardians
CITADEL = 39910367          # Magical Citadel of Endymion

DARK_MAGICIAN = 46986414    # Normal Spellcaster, Level 7
ELF = 15025844              # Mystical Elf: Normal Spellcaster, Level 4, ATK 800
SKULL = 70781052            # Summoned Skull: Normal Fiend, Level 6
GAMECIEL = 55063751         # Gameciel, the Sea Turtle Kaiju (archetype 0xd3)
POT = 55144522              # Pot of Greed: a Spell Card to activate

MZONE, SZONE, HAND, GRAVE = C.LOCATION_MZONE, C.LOCATION_SZONE, C.LOCATION_HAND, C.LOCATION_GRAVE
FZONE_SEQ = 5
SPELL = 0x1


@pytest.fixture
def table(real_scripts, corpus_db):
    gen = kit.table_factory()
    make = next(gen)

    def real(*snippets: str, **kw):
        kw.setdefault("db", corpus_db)
        kw.setdefault("scripts", real_scripts)
        kw.setdefault("filler", [ELF] * 10)
        return make(*snippets, **kw)
    yield real
    for _ in gen:
        pass


def adds(msgs):
    return [(m.counter_type, m.controller, m.location, m.sequence, m.count) for m in msgs
            if isinstance(m, MsgAddCounter)]


def removes(msgs):
    return [(m.counter_type, m.controller, m.location, m.sequence, m.count) for m in msgs
            if isinstance(m, MsgRemoveCounter)]


def test_defender_counter_on_normal_summon_limit_and_field_removal(table):
    t = table("local c=C(%d) return c:GetCounter(0x1), c:IsCanAddCounter(0x1,1), c:AddCounter(0x1,1)" % DEFENDER,
              "WATCH(EVENT_REMOVE_COUNTER+0x1) return Duel.Destroy(C(%d),REASON_EFFECT)" % DARK_MAGICIAN,
              "return SEEN()")
    t.place(DEFENDER, 0, HAND)
    t.place(DARK_MAGICIAN, 0, MZONE, 2)
    t.start()
    mark = t.mark()
    t.summon(DEFENDER)
    assert adds(t.since(mark)) == [(SPELL, 0, MZONE, 0, 1)]
    assert t.run() == (1, False, False)                    # SetCounterLimit(0x1,1)
    mark = t.mark()
    assert t.run(yes(), counters(1)) == (0,)                # replaced: nothing destroyed
    (sel,) = t.since(mark, MsgSelectCounter)                # asked although one card has counters
    assert [(c.code, c.counter_count) for c in sel.cards] == [(DEFENDER, 1)]
    assert removes(t.since(mark)) == [(SPELL, 0, MZONE, 0, 1)]
    assert t.card(DARK_MAGICIAN).current.location == MZONE
    assert t.seen() == [(C.EVENT_REMOVE_COUNTER + SPELL, 1, 0, C.REASON_COST, 0)]


def test_abductor_counters_in_the_pendulum_zone_paid_as_a_cost(table):
    t = table("Debug.PreAddCounter(C(%d,0),0x1,2)" % ABDUCTOR)
    t.place(ABDUCTOR, 0, HAND)
    t.place(POT, 0, HAND)
    t.deck(0, [ABDUCTOR] + [ELF] * 9)                       # a Pendulum monster at the bottom to search
    t.start()
    t.activate(ABDUCTOR, description=1160)
    abductor = [c for c in t.engine.cards if c.data.code == ABDUCTOR and c.current.location == SZONE][0]
    assert abductor.current.is_location(C.LOCATION_PZONE)
    t.activate(POT)                                         # a Spell resolves: +1 Spell Counter
    assert abductor.counters == {SPELL: 1}
    assert not t.can_activate(ABDUCTOR)
    t.run()
    mark = t.mark()
    t.activate(ABDUCTOR, pick(ABDUCTOR))                    # cost: 3 counters; add a Pendulum monster
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, abductor.current.sequence, 3)]
    assert abductor.counters == {}
    assert [c.data.code for c in t.engine.player[0].list_hand].count(ABDUCTOR) == 1


def test_abductor_atk_in_the_monster_zone(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,4)" % ABDUCTOR)
    t.place(ABDUCTOR, 0, MZONE)
    t.start()
    t.run()
    assert t.card(ABDUCTOR).get_attack() == 1700 + 400


def test_kaiju_files_limit_of_five(table):
    t = table("return Duel.SpecialSummon(C(%d),0,0,1,false,false,POS_FACEUP), C(%d):GetCounter(0x37)"
              % (GAMECIEL, KAIJU_FILES),
              "local c=C(%d) Debug.PreAddCounter(c,0x37,3) return c:AddCounter(0x37,1), c:GetCounter(0x37), "
              "c:IsCanAddCounter(0x37,1), c:AddCounter(0x37,1), c:AddCounter(0x37,2,true), c:GetCounter(0x37)"
              % KAIJU_FILES)
    t.place(KAIJU_FILES, 0, SZONE, 1, C.POS_FACEUP)
    t.place(GAMECIEL, 0, HAND)
    t.start()
    assert t.run() == (1, 1)                                # a Kaiju Special Summoned from the hand
    assert t.run() == (True, 5, False, False, False, 5)


def test_arcane_barrier_limit_of_four(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3) return Duel.Destroy(C(%d),REASON_EFFECT)" % (BARRIER, ELF),
              "return Duel.Destroy(C(%d),REASON_EFFECT), C(%d):GetCounter(0x1)" % (DARK_MAGICIAN, BARRIER))
    t.place(BARRIER, 0, SZONE, 1, C.POS_FACEUP)
    t.place(ELF, 1, MZONE, 0)
    t.place(DARK_MAGICIAN, 1, MZONE, 1)
    t.start()
    mark = t.mark()
    assert t.run() == (1,)
    assert adds(t.since(mark)) == [(SPELL, 0, SZONE, 1, 1)]
    mark = t.mark()
    assert t.run() == (1, 4)                                # full: the next add fails silently
    assert adds(t.since(mark)) == []


def test_world_legacy_adds_singly_up_to_seven(table):
    t = table("Debug.PreAddCounter(C(%d),0x54,5) return Duel.Destroy(Duel.GetFieldGroup(0,0,LOCATION_MZONE),"
              "REASON_EFFECT)" % LEGACY)
    t.place(LEGACY, 0, SZONE, 1, C.POS_FACEUP)
    for seq in range(3):
        t.place(SKULL, 1, MZONE, seq)
    t.start()
    mark = t.mark()
    assert t.run() == (3,)
    assert adds(t.since(mark)) == [(0x54, 0, SZONE, 1, 2)]   # 3 monsters, 2 places left
    assert t.counters(LEGACY) == {0x54: 7}


def test_servant_restores_its_counters_in_the_pendulum_zone(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,2) return Duel.Destroy(C(%d),REASON_EFFECT)" % (SERVANT, SERVANT))
    t.place(SERVANT, 0, MZONE)
    t.start()
    mark = t.mark()
    assert t.run(yes()) == (1,)                             # "place it in the Pendulum Zone?"
    servant = t.card(SERVANT)
    assert servant.current.is_location(C.LOCATION_PZONE)
    assert removes(t.since(mark)) == []
    assert adds(t.since(mark)) == [(SPELL, 0, SZONE, servant.current.sequence, 2)]


def test_servant_special_summons_monsters_that_can_hold_counters(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3)" % SERVANT)
    t.place(SERVANT, 0, HAND)
    t.deck(0, [ELF] * 8 + [DEFENDER])
    t.start()
    t.activate(SERVANT, description=1160)
    t.run()
    offered = []

    def choose(p, _t):
        offered.extend(c.code for c in p.cards)
        return kit.CardsResponse(indices=(0,))
    mark = t.mark()
    t.activate(SERVANT, kit.Answer((kit.MsgSelectCard,), choose), description=(SERVANT * 16) & 0xFFFFFFFF)
    assert offered == [DEFENDER]                            # Mystical Elf: no permit, ATK 800
    assert sorted(m[0] for m in adds(t.since(mark))) == [SPELL, SPELL]
    assert t.counters(DEFENDER) == {SPELL: 1} and t.counters(SERVANT) == {SPELL: 1}


def test_power_of_the_guardians_counter_on_battle_and_destroy_replacement(table):
    t = table("return Duel.Destroy(C(%d),REASON_EFFECT)" % DARK_MAGICIAN)
    t.place(DARK_MAGICIAN, 0, MZONE)
    t.place(GUARDIANS, 0, HAND)
    t.place(ELF, 1, MZONE, pos=C.POS_FACEUP_DEFENSE)
    t.start()
    t.activate(GUARDIANS)
    t.end_turn()
    t.end_turn()
    t.to_battle()
    t.attack(DARK_MAGICIAN, target=ELF)
    assert t.counters(GUARDIANS) == {SPELL: 1}
    assert t.card(DARK_MAGICIAN).get_attack() == 2500 + 500
    t.main2()
    mark = t.mark()
    assert t.run(yes(), counters(1)) == (0,)                # REASON_EFFECT+REASON_REPLACE removal
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, 0, 1)]
    assert t.card(DARK_MAGICIAN).current.location == MZONE


def test_magical_citadel_replaces_the_abductors_cost(table):
    t = table("Debug.PreAddCounter(C(%d),0x1,3) Debug.PreAddCounter(C(%d,0),0x1,3)" % (CITADEL, ABDUCTOR))
    t.place(CITADEL, 0, SZONE, FZONE_SEQ, C.POS_FACEUP)
    t.place(ABDUCTOR, 0, HAND)
    t.deck(0, [ABDUCTOR] + [ELF] * 9)
    t.start()
    t.activate(ABDUCTOR, description=1160)
    t.run()
    mark = t.mark()
    assert t.counters(CITADEL) == {SPELL: 4}       # 3 placed + 1: the Abductor's activation is a Spell's
    t.activate(ABDUCTOR, yes(), pick(ABDUCTOR))
    assert removes(t.since(mark)) == [(SPELL, 0, SZONE, FZONE_SEQ, 3)]
    assert t.counters(CITADEL) == {SPELL: 1}
    assert [c for c in t.engine.cards if c.data.code == ABDUCTOR and c.current.location == SZONE][0].counters \
        == {SPELL: 3}


CELL_A = 2561846            # Corruption Cell "A": an A-Counter (0x100e) on an opponent's monster
CLEANER = 38834303          # Counter Cleaner: Card.RemoveCounter(tp,0,0,0) on every card, then raises the event


def test_a_counters_flag_bit_type_and_counter_cleaner(table):
    """0x100e carries COUNTER_WITHOUT_PERMIT: Corruption Cell "A" places it on a monster with no
    permit.  Counter Cleaner, the one real user of the type-0 removal, clears every type with
    it (not using the return value) and raises EVENT_REMOVE_COUNTER+0x100e itself."""
    t = table("WATCH(EVENT_REMOVE_COUNTER+0x100e) Debug.PreAddCounter(C(%d),0x1,1)" % DEFENDER,
              "return SEEN()")
    t.place(CELL_A, 0, HAND)
    t.place(CLEANER, 0, HAND)
    t.place(ELF, 1, MZONE)
    t.place(DEFENDER, 1, MZONE, 1)
    t.start()
    t.activate(CELL_A, pick(ELF))
    assert t.counters(ELF, 1) == {0x100e: 1}
    t.run()
    mark = t.mark()
    t.activate(CLEANER)
    assert sorted(removes(t.since(mark))) == [(SPELL, 1, MZONE, 1, 1), (0x100e, 1, MZONE, 0, 1)]
    assert t.counters(ELF, 1) == {} and t.counters(DEFENDER, 1) == {}
    assert t.duel.lp(0) == 7500
    assert t.seen() == [(C.EVENT_REMOVE_COUNTER + 0x100e, 1, 0, C.REASON_EFFECT, 1)]
