"""The field's effect index and the lookups built on it (engine/field/effects.py, reference field.cpp)."""

from __future__ import annotations

from duelhost.engine.card import Card
from duelhost.engine.constants import (
    ACTIVITY_SPSUMMON, EFFECT_ATTACK_ALL, EFFECT_CANNOT_ACTIVATE, EFFECT_CANNOT_BE_BATTLE_TARGET,
    EFFECT_CANNOT_DIRECT_ATTACK, EFFECT_COUNT_CODE_CHAIN, EFFECT_COUNT_CODE_DUEL, EFFECT_DISABLE,
    EFFECT_EXTRA_ATTACK, EFFECT_FLAG_CLIENT_HINT, EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_FIELD_ONLY,
    EFFECT_FLAG_FUNC_VALUE, EFFECT_FLAG_OATH, EFFECT_FLAG_PLAYER_TARGET, EFFECT_LPCOST_CHANGE,
    EFFECT_LPCOST_REPLACE, EFFECT_ONLY_BE_ATTACKED, EFFECT_SELF_DESTROY, EFFECT_SPSUMMON_COUNT_LIMIT,
    EFFECT_TYPE_CONTINUOUS, EFFECT_TYPE_FIELD, EFFECT_TYPE_GRANT, EFFECT_TYPE_IGNITION,
    EFFECT_TYPE_QUICK_O, EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_F, EFFECT_UPDATE_ATTACK,
    GLOBALFLAG_SPSUMMON_COUNT, LOCATION_DECK, LOCATION_EXTRA, LOCATION_GRAVE, LOCATION_HAND,
    LOCATION_MZONE, LOCATION_REMOVED, LOCATION_SZONE, PHASE_END, PLAYER_NONE, POS_FACEDOWN_DEFENSE,
    RESET_CHAIN, RESET_DISABLE, RESET_EVENT, RESET_PHASE, RESET_SELF_TURN, STATUS_DISABLED,
    STATUS_SUMMONING, STATUS_TO_DISABLE, EFFECT_TYPE_EQUIP,
)
from duelhost.engine.core_constants import PARAM_TYPE_EFFECT, PHINT_DESC_ADD, PHINT_DESC_REMOVE
from duelhost.engine.duel import Duel, FieldEffects
from duelhost.engine.event import Event
from duelhost.engine.group import CardSet, Group
from duelhost.engine.messages import MsgPlayerHint

from test_effect_support import card_stubs, make_duel, new_effect, place


def player_effect(duel, code, p, s=1, o=0, **kw):
    """A Duel.RegisterEffect-style player effect registered to player ``p``."""
    flag = kw.pop("flag", 0) | EFFECT_FLAG_PLAYER_TARGET
    e = new_effect(duel, duel.temp_card, type=EFFECT_TYPE_FIELD, code=code, handler=None,
                   flag=flag, s_range=s, o_range=o, **kw)
    duel.add_effect(e, p)
    return e


# ----- registering ---------------------------------------------------------------------------------

def test_add_effect_makes_a_field_only_effect_and_indexes_it():
    duel, _ = make_duel()
    fid = duel.infos.field_id
    e = player_effect(duel, EFFECT_CANNOT_ACTIVATE, 1)
    assert e.is_flag(EFFECT_FLAG_FIELD_ONLY)
    assert e.handler is duel.temp_card and e.effect_owner == 1 and e.id == fid
    assert duel.effects.aura_effect.equal_range(EFFECT_CANNOT_ACTIVATE) == [e]
    assert e in duel.effects.indexer
    duel.add_effect(e, 0)  # a second registration is ignored
    assert e.effect_owner == 1 and len(duel.effects.aura_effect[EFFECT_CANNOT_ACTIVATE]) == 1
    duel.remove_effect(e)
    assert EFFECT_CANNOT_ACTIVATE not in duel.effects.aura_effect
    assert e not in duel.effects.indexer and e in duel.core.reseted_effects


def test_add_effect_sorts_actions_by_kind_and_skips_temp_card_chain_links():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    q = new_effect(duel, c, type=EFFECT_TYPE_QUICK_O, code=1002)
    t = new_effect(duel, c, type=EFFECT_TYPE_TRIGGER_F | EFFECT_TYPE_FIELD, code=1014)
    cont = new_effect(duel, c, type=EFFECT_TYPE_CONTINUOUS | EFFECT_TYPE_FIELD, code=1014)
    for e in (q, t, cont):
        duel.add_effect(e)
    assert duel.effects.quick_o_effect.equal_range(1002) == [q]
    assert duel.effects.trigger_f_effect.equal_range(1014) == [t]
    assert duel.effects.continuous_effect.equal_range(1014) == [cont]
    assert not q.is_flag(EFFECT_FLAG_FIELD_ONLY) and q.card_type == c.data.type
    ig = new_effect(duel, duel.temp_card, type=EFFECT_TYPE_IGNITION, handler=None)
    duel.add_effect(ig, 0)
    assert ig not in duel.effects.indexer


def test_client_hint_messages_on_add_and_remove():
    duel, _ = make_duel()
    e = player_effect(duel, EFFECT_CANNOT_ACTIVATE, 1, s=1, o=1, flag=EFFECT_FLAG_CLIENT_HINT,
                      description=0x1234)
    assert duel.messages == [MsgPlayerHint(player=0, type=PHINT_DESC_ADD, value=0x1234),
                             MsgPlayerHint(player=1, type=PHINT_DESC_ADD, value=0x1234)]
    duel.messages.clear()
    f = player_effect(duel, EFFECT_CANNOT_ACTIVATE, 1, s=0, o=1, flag=EFFECT_FLAG_CLIENT_HINT,
                      description=7)
    assert duel.messages == [MsgPlayerHint(player=0, type=PHINT_DESC_ADD, value=7)]
    duel.messages.clear()
    duel.remove_effect(f)
    duel.remove_effect(e)
    assert duel.messages == [MsgPlayerHint(player=0, type=PHINT_DESC_REMOVE, value=7),
                             MsgPlayerHint(player=0, type=PHINT_DESC_REMOVE, value=0x1234),
                             MsgPlayerHint(player=1, type=PHINT_DESC_REMOVE, value=0x1234)]


def test_bookkeeping_sets_and_resets():
    duel, _ = make_duel()
    duel.core.reason_effect = reason = new_effect(duel, duel.temp_card)
    ph = player_effect(duel, 200, 0, reset_flag=RESET_PHASE | PHASE_END | RESET_SELF_TURN,
                       reset_count=1)
    ch = player_effect(duel, 201, 0, reset_flag=RESET_CHAIN)
    oath = player_effect(duel, 202, 0, flag=EFFECT_FLAG_OATH)
    lim = player_effect(duel, 203, 0, flag=EFFECT_FLAG_COUNT_LIMIT)
    fx = duel.effects
    assert list(fx.pheff) == [ph] and list(fx.cheff) == [ch] and list(fx.rechargeable) == [lim]
    assert fx.oath == {oath: reason}
    duel.infos.turn_player = 1
    duel.reset_phase(PHASE_END)
    assert ph in fx.indexer
    duel.infos.turn_player = 0
    duel.reset_phase(PHASE_END)
    assert ph not in fx.indexer and not fx.pheff
    duel.reset_chain()
    assert ch not in fx.indexer and not fx.cheff
    duel.release_oath_relation(reason)
    assert fx.oath == {oath: None}
    duel.remove_oath_effect(reason)
    assert oath in fx.indexer
    fx.oath[oath] = reason
    duel.remove_oath_effect(reason)
    assert oath not in fx.indexer and not fx.oath
    assert list(duel.core.reseted_effects) == [ph, ch, oath]


def test_effect_codes_per_turn_duel_chain():
    duel, _ = make_duel()
    duel.add_effect_code(55, 0)
    duel.add_effect_code(55, 0)
    duel.add_effect_code(55 | EFFECT_COUNT_CODE_DUEL, 1)
    duel.add_effect_code(55 | EFFECT_COUNT_CODE_CHAIN, PLAYER_NONE)
    duel.add_effect_code(55, 3)  # no such player: ignored
    assert duel.get_effect_code(55, 0) == 2 and duel.get_effect_code(55, 1) == 0
    assert duel.core.effect_count_code_duel[1] == {55 | EFFECT_COUNT_CODE_DUEL: 1}
    assert duel.get_effect_code(55 | EFFECT_COUNT_CODE_CHAIN, PLAYER_NONE) == 1
    duel.dec_effect_code(55, 0)
    duel.dec_effect_code(55, 0)
    duel.dec_effect_code(55, 0)
    assert duel.get_effect_code(55, 0) == 0
    assert duel.get_effect_code(55, -1) == 0


# ----- lookups ---------------------------------------------------------------------------------------

def test_filter_field_effect_order(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    state = {"late": False}
    a = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_UPDATE_ATTACK, range=LOCATION_MZONE)
    late = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_UPDATE_ATTACK,
                      range=LOCATION_MZONE, condition=lambda e: state["late"])
    b = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_UPDATE_ATTACK, range=LOCATION_MZONE)
    off = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_UPDATE_ATTACK, range=LOCATION_GRAVE)
    duel.infos.field_id = 100
    for e, i in ((a, 30), (late, 10), (b, 20), (off, 1)):
        e.id = i
        duel.add_effect(e)
    assert duel.filter_field_effect(EFFECT_UPDATE_ATTACK) == [b, a]
    assert duel.filter_field_effect(EFFECT_UPDATE_ATTACK, False) == [a, b]
    state["late"] = True
    # the late effect became available: it gets a new id and sorts last
    assert duel.filter_field_effect(EFFECT_UPDATE_ATTACK) == [b, a, late]
    eset = [off]
    out = duel.filter_field_effect(EFFECT_UPDATE_ATTACK, eset)  # the reference's (code, eset) order
    assert out is eset and eset == [off, b, a, late]
    assert duel.filter_field_effect(EFFECT_UPDATE_ATTACK, eset=[]) == [b, a, late]
    assert duel.filter_field_effect(999) == []


def test_filter_player_effect_and_is_player_affected():
    duel, script = make_duel()
    checked = []
    e0 = player_effect(duel, 300, 0, s=1, o=0, condition=lambda e: checked.append(e) or True)
    e1 = player_effect(duel, 300, 1, s=1, o=1)
    # e0's condition passes for the first time: it gets a new id and sorts after e1
    assert duel.filter_player_effect(0, 300) == [e1, e0]
    assert duel.filter_player_effect(1, 300) == [e1]
    assert checked == [e0]  # e0 does not target player 1: its condition is not asked
    eset = [e0]
    assert duel.filter_player_effect(1, 300, eset, False) is eset and eset == [e0, e1]
    assert duel.is_player_affected_by_effect(1, 300) is e1
    assert duel.is_player_affected_by_effect(0, 301) is None


def test_filter_affected_and_inrange_cards(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    src = place(duel, 1000, 0, LOCATION_MZONE, 0)
    mine = place(duel, 1000, 0, LOCATION_MZONE, 1)
    theirs = place(duel, 1000, 1, LOCATION_MZONE, 0)
    down = place(duel, 1000, 1, LOCATION_MZONE, 2, position=POS_FACEDOWN_DEFENSE)
    grave = place(duel, 1000, 1, LOCATION_GRAVE)
    e = new_effect(duel, src, type=EFFECT_TYPE_FIELD, range=LOCATION_MZONE, s_range=LOCATION_MZONE,
                   o_range=LOCATION_MZONE, target=lambda e, c: c is not mine)
    assert list(duel.filter_affected_cards(e)) == [src, theirs]
    assert list(duel.filter_inrange_cards(e)) == [src, theirs, down]
    e.flag[0] |= EFFECT_FLAG_PLAYER_TARGET
    assert not duel.filter_affected_cards(e) and not duel.filter_inrange_cards(e)
    single = new_effect(duel, src, type=EFFECT_TYPE_SINGLE)
    assert not duel.filter_affected_cards(single)
    assert grave not in duel.filter_inrange_cards(e)


def _deck(duel, p, n, code=1000):
    return [place(duel, code, p, LOCATION_DECK) for _ in range(n)]


def test_filter_matching_card_order_and_stops(monkeypatch):
    card_stubs(monkeypatch, is_capable_be_effect_target=lambda self, re, rp: self.current.location != LOCATION_GRAVE)
    monkeypatch.setattr(Duel, "get_pzone_sequence", lambda self, i: 0 if i == 0 else 4, raising=False)
    duel, script = make_duel()
    deck = _deck(duel, 0, 3)                       # deck[-1] is the top card
    g = [place(duel, 1000, 0, LOCATION_GRAVE) for _ in range(2)]
    opp_hand = [place(duel, 1000, 1, LOCATION_HAND) for _ in range(2)]
    visited = []
    flt = lambda c, a, b: visited.append(c) or (a, b) == (1, "x")
    pg = Group(duel)
    assert duel.filter_matching_card(flt, (1, "x"), 0, LOCATION_DECK | LOCATION_GRAVE, LOCATION_HAND, pg) is False
    assert visited == [deck[2], deck[1], deck[0], g[1], g[0], opp_hand[0], opp_hand[1]]
    assert set(pg.container) == set(deck + g + opp_hand)
    visited.clear()
    pret = []
    assert duel.filter_matching_card(flt, (1, "x"), 0, LOCATION_GRAVE, 0, pret=pret) is True
    assert pret == [g[1]] and visited == [g[1]]
    visited.clear()
    assert duel.filter_matching_card(flt, (1, "x"), 0, LOCATION_DECK, 0, pexception=deck[2], fcount=2)
    assert visited == [deck[1], deck[0]]
    visited.clear()
    ex = Group(duel, [deck[1]])
    pg2 = Group(duel)
    duel.filter_matching_card(flt, (1, "x"), 0, LOCATION_DECK | LOCATION_GRAVE, 0, pg2, pexgroup=ex,
                              is_target=True)
    assert list(pg2.container) == [deck[0], deck[2]]
    assert not duel.filter_matching_card(flt, (1, "x"), 2, LOCATION_DECK, 0, pret=[])
    pg3 = Group(duel)
    duel.filter_matching_card(None, (), 1, 0, LOCATION_GRAVE, pg3)
    assert list(pg3.container) == g


def test_filter_field_card(monkeypatch):
    monkeypatch.setattr(Duel, "get_pzone_sequence", lambda self, i: 0 if i == 0 else 4, raising=False)
    duel, _ = make_duel()
    m = place(duel, 1000, 0, LOCATION_MZONE, 0)
    summoning = place(duel, 1000, 0, LOCATION_MZONE, 1)
    summoning.set_status(STATUS_SUMMONING, True)
    f = place(duel, 4000, 0, LOCATION_SZONE, 5)
    h = place(duel, 1000, 1, LOCATION_HAND)
    grp = Group(duel)
    out = duel.filter_field_card(0, LOCATION_MZONE | LOCATION_SZONE, LOCATION_HAND, grp)
    assert list(out) == [m, f, h] and set(grp.container) == {m, f, h}
    assert len(duel.filter_field_card(1, LOCATION_HAND, 0)) == 1
    assert not duel.filter_field_card(2, LOCATION_HAND, LOCATION_HAND)


# ----- negation bookkeeping -------------------------------------------------------------------------

def test_disable_check_is_skipped_only_when_nothing_is_or_can_be_negated(monkeypatch):
    """No EFFECT_DISABLE / FORBIDDEN / CANNOT_DISABLE / IMMUNE_EFFECT anywhere and no
    queued card negated or marked: the round only empties the queue and the cards'
    immunity lists.  A card still marked negated makes the full round run."""
    log = []
    card_stubs(monkeypatch, refresh_disable_status=lambda self: log.append(self.cardid))
    duel, _ = make_duel()
    a = place(duel, 1000, 0, LOCATION_MZONE, 0)
    b = place(duel, 1000, 1, LOCATION_MZONE, 0)
    a.immune_effect = ["stale"]
    duel.add_to_disable_check_list(a)
    duel.add_to_disable_check_list(b)
    duel.adjust_disable_check_list()
    assert log == [] and a.immune_effect == [] and not duel.effects.disable_check_list
    assert not duel.effects.disable_check_set
    b.set_status(STATUS_DISABLED, True)         # negated by an effect that has just gone
    duel.add_to_disable_check_list(a)
    duel.add_to_disable_check_list(b)
    duel.adjust_disable_check_list()
    assert log == [a.cardid, b.cardid]


def test_disable_check_list(monkeypatch):
    # the stubbed refresh negates a card with no effect behind it: the full loop must run
    # (with no negation-related effect anywhere, the check is skipped: test below)
    monkeypatch.setattr(FieldEffects, "holds", lambda self, *codes: True)
    log = []

    def refresh(self):
        log.append(("refresh", self.cardid))
        self.set_status(STATUS_DISABLED, self.cardid == a.cardid)

    card_stubs(monkeypatch, refresh_disable_status=refresh,
               filter_disable_related_cards=lambda self: duel.add_to_disable_check_list(b),
               reset=lambda self, level, rtype: log.append(("reset", self.cardid, level, rtype)))
    duel, _ = make_duel()
    a = place(duel, 1000, 0, LOCATION_MZONE, 0)
    b = place(duel, 1000, 1, LOCATION_MZONE, 0)
    duel.add_to_disable_check_list(a)
    duel.add_to_disable_check_list(a)
    assert duel.effects.disable_check_list == [a]
    duel.adjust_disable_check_list()
    assert log == [("refresh", a.cardid), ("refresh", b.cardid),
                   ("reset", a.cardid, RESET_DISABLE, RESET_EVENT)]
    assert not a.is_status(STATUS_TO_DISABLE) and not duel.effects.disable_check_set
    # a field-only disable-related effect queues what it affects
    src = place(duel, 1000, 0, LOCATION_MZONE, 1)
    dis = new_effect(duel, src, type=EFFECT_TYPE_FIELD, code=EFFECT_DISABLE, handler=None,
                     o_range=LOCATION_MZONE)
    duel.add_effect(dis, 0)
    assert duel.effects.disable_check_list == [b]


# ----- unique, self-destroy -----------------------------------------------------------------------

def test_check_unique_onfield(monkeypatch):
    card_stubs(monkeypatch,
               check_unique_code=lambda self, c: c.data.code == 1000,
               get_unique_target=lambda self, p, icard=None: CardSet(
                   x for x in duel.player[p].list_mzone if x is not None and x is not icard
                   and x.data.code == 1000))
    duel, _ = make_duel()
    u = place(duel, 1000, 0, LOCATION_MZONE, 0)
    other = duel.new_card(1000)
    u.unique_pos = [1, 0]
    u.unique_code = 1000
    u.unique_location = LOCATION_MZONE
    u.unique_effect = ue = new_effect(duel, u)
    duel.add_unique_card(u)
    assert duel.core.unique_cards[0] == {u}
    u.unique_fieldid = 5
    assert duel.check_unique_onfield(other, 0, LOCATION_MZONE) is ue
    assert duel.check_unique_onfield(other, 0, LOCATION_SZONE) is None
    assert duel.check_unique_onfield(other, 1, LOCATION_MZONE) is None
    assert duel.check_unique_onfield(u, 0, LOCATION_MZONE) is None  # only itself
    second = place(duel, 1000, 0, LOCATION_MZONE, 1)
    assert duel.check_unique_onfield(u, 0, LOCATION_MZONE) is ue
    assert duel.check_unique_onfield(u, 0, LOCATION_MZONE, icard=second) is None
    duel.remove_unique_card(u)
    assert not duel.core.unique_cards[0]


def test_adjust_self_destroy_set(monkeypatch):
    # the stubbed look-up finds an EFFECT_SELF_DESTROY no container holds: say it is held
    monkeypatch.setattr(FieldEffects, "holds", lambda self, *codes: True)
    card_stubs(monkeypatch,
               get_unique_target=lambda self, p, icard=None: CardSet(
                   x for x in duel.player[p].list_mzone if x is not None),
               is_affected_by_effect=lambda self, code, target=None:
                   object() if (code == EFFECT_SELF_DESTROY and self is doomed) else None)
    queued = []
    monkeypatch.setattr(Duel, "proc_self_destroy", lambda self, c, p: ("unique", c, p), raising=False)
    monkeypatch.setattr(Duel, "proc_self_destroy_effect", lambda self: ("effect",), raising=False)
    monkeypatch.setattr(Duel, "proc_self_tograve", lambda self: ("tograve",), raising=False)
    monkeypatch.setattr(Duel, "add_process", lambda self, proc: queued.append(proc))
    duel, _ = make_duel()
    u1 = place(duel, 1000, 0, LOCATION_MZONE, 0)
    u2 = place(duel, 1000, 0, LOCATION_MZONE, 1)
    doomed = place(duel, 1000, 1, LOCATION_MZONE, 0)
    for u in (u1, u2):
        u.unique_pos = [1, 0]
        duel.core.unique_cards[0].add(u)
    u2.fieldid, u1.fieldid = 3, 9
    duel.adjust_self_destroy_set()
    assert queued == [("unique", u2, 0), ("unique", u1, 0), ("effect",)]
    assert set(duel.core.unique_destroy_set) == {u1, u2}
    assert list(duel.core.self_destroy_set) == [doomed]
    queued.clear()
    duel.adjust_self_destroy_set()  # pending: nothing new
    assert queued == []


# ----- grants -----------------------------------------------------------------------------------

def test_adjust_grant_effect(monkeypatch):
    added, removed = [], []
    card_stubs(monkeypatch, is_affect_by_effect=lambda self, e: True,
               add_effect=lambda self, e: added.append((self, e)),
               remove_effect=lambda self, e: removed.append((self, e)))
    duel, _ = make_duel()
    src = place(duel, 1000, 0, LOCATION_MZONE, 0)
    a = place(duel, 1000, 0, LOCATION_MZONE, 1)
    b = place(duel, 1000, 0, LOCATION_MZONE, 2)
    granted = new_effect(duel, src, type=EFFECT_TYPE_IGNITION, description=9)
    grant = new_effect(duel, src, type=EFFECT_TYPE_FIELD | EFFECT_TYPE_GRANT, range=LOCATION_MZONE,
                       s_range=LOCATION_MZONE, target=lambda e, c: c is not src)
    grant.label_object = granted
    grant.object_type = PARAM_TYPE_EFFECT
    duel.add_effect(grant)
    assert duel.effects.grant_effect == {grant: {}}
    assert duel.adjust_grant_effect() is True
    gains = duel.effects.grant_effect[grant]
    assert list(gains) == [a, b]
    assert [c for c, _ in added] == [a, b]
    assert all(e.owner is c and e.description == 9 and e is not granted for c, e in added)
    assert duel.adjust_grant_effect() is False
    duel.player[0].list_mzone[2] = None
    b.current.location = LOCATION_GRAVE
    assert duel.adjust_grant_effect() is True
    assert removed == [(b, added[1][1])] and list(gains) == [a]
    duel.remove_effect(grant)
    assert removed[-1] == (a, added[0][1]) and not duel.effects.grant_effect


# ----- counters -----------------------------------------------------------------------------------

def test_activity_and_chain_counters():
    duel, script = make_duel()
    c1 = duel.new_card(1000)
    c2 = duel.new_card(2000)
    only_monsters = lambda c: c.data.code == 1000
    duel.core.spsummon_counter[7] = [only_monsters, 0]
    duel.check_card_counter(c1, ACTIVITY_SPSUMMON, 0)
    assert duel.core.spsummon_counter[7][1] == 0
    duel.check_card_counter(c2, ACTIVITY_SPSUMMON, 1)
    assert duel.core.spsummon_counter[7][1] == 0x10000
    duel.check_card_counter(c2, ACTIVITY_SPSUMMON, 1)  # already counted for player 1
    assert duel.core.spsummon_counter[7][1] == 0x10000
    duel.check_card_counter(Group(duel, [c1, c2]), ACTIVITY_SPSUMMON, 0)
    assert duel.core.spsummon_counter[7][1] == 0x10001
    e = new_effect(duel, c1)
    seen = []
    duel.core.chain_counter[1] = [lambda re, tp, chainid: seen.append((re, tp, chainid)) or False, 0]
    duel.check_chain_counter(e, 1, 3)
    duel.check_chain_counter(e, 1, 3)
    assert duel.core.chain_counter[1][1] == 0x20000 and seen[0] == (e, 1, 3)
    duel.check_chain_counter(e, 1, 3, cancel=True)
    duel.check_chain_counter(e, 0, 3, cancel=True)
    assert duel.core.chain_counter[1][1] == 0x10000


def test_spsummon_count_limit(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    lim = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_SPSUMMON_COUNT_LIMIT,
                     range=LOCATION_MZONE, s_range=1, o_range=0, value=2,
                     flag=EFFECT_FLAG_PLAYER_TARGET)
    duel.add_effect(lim)
    assert list(duel.effects.spsummon_count_eff) == [lim]
    duel.set_spsummon_counter(0)
    assert duel.core.spsummon_state_count == [1, 0] and c.spsummon_counter == [0, 0]
    duel.core.global_flag |= GLOBALFLAG_SPSUMMON_COUNT
    duel.set_spsummon_counter(0)
    duel.set_spsummon_counter(1)
    assert c.spsummon_counter == [1, 0]
    assert duel.check_spsummon_counter(0) and not duel.check_spsummon_counter(0, 2)
    assert duel.check_spsummon_counter(1, 2)
    duel.remove_effect(lim)
    assert not duel.effects.spsummon_count_eff


def test_field_counter_and_overlays(monkeypatch):
    card_stubs(monkeypatch, get_counter=lambda self, t: 2 if t == 0x1041 else 0)
    duel, _ = make_duel()
    place(duel, 1000, 0, LOCATION_MZONE, 0)
    place(duel, 2000, 0, LOCATION_SZONE, 0)
    xyz = place(duel, 1000, 1, LOCATION_MZONE, 0)
    mats = [duel.new_card(1000), duel.new_card(1000)]
    xyz.xyz_materials = mats
    assert duel.get_field_counter(0, 1, 0, 0x1041) == 4
    assert duel.get_field_counter(0, 1, 1, 0x1041) == 6
    assert duel.get_field_counter(0, 0, 1, 0x1041) == 2
    assert duel.get_overlay_count(0, 0, 1) == 2 and duel.get_overlay_count(0, 1, 0) == 0
    assert list(duel.get_overlay_group(1, 1, 0)) == mats
    assert duel.get_overlay_count(2, 1, 1) == 0


# ----- LP costs, replacements ------------------------------------------------------------------------

def test_check_lp_cost(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    duel.player[0].lp = 1000
    assert duel.check_lp_cost(0, 1000) and not duel.check_lp_cost(0, 1001)
    assert duel.check_lp_cost(0, 0) and not duel.check_lp_cost(0, 0, True)
    seen = []
    player_effect(duel, EFFECT_LPCOST_CHANGE, 0, flag=EFFECT_FLAG_FUNC_VALUE,
                  value=lambda e, re, tp, val: seen.append((re, tp, val)) or val // 2)
    duel.core.reason_effect = re = new_effect(duel, duel.temp_card)
    assert duel.check_lp_cost(0, 2000)
    assert seen == [(re, 0, 2000)]
    assert not duel.check_lp_cost(0, 4000)
    rep = new_effect(duel, duel.temp_card, type=EFFECT_TYPE_CONTINUOUS | EFFECT_TYPE_FIELD,
                     code=EFFECT_LPCOST_REPLACE, handler=None,
                     condition=lambda e, tp, eg, ep, ev, re, r, rp: ev == 4000 and ep == 0)
    duel.add_effect(rep, 0)
    assert duel.check_lp_cost(0, 4000)
    assert not duel.check_lp_cost(0, 4000, True)
    assert duel.effect_replace_check(EFFECT_LPCOST_REPLACE, Event(event_player=0, event_value=4000))
    assert not duel.effect_replace_check(EFFECT_LPCOST_REPLACE, Event(event_player=0, event_value=1))


# ----- attack targets ------------------------------------------------------------------------------

def _battle_duel(monkeypatch, affected):
    """``affected`` maps (card, code) -> effect or None; target-specific keys use (card, code, target)."""
    def is_affected(self, code, target=None):
        if target is not None and (self, code, target) in affected:
            return affected[(self, code, target)]
        return affected.get((self, code))

    def filter_effect(self, code, eset=None, sort=True):
        e = affected.get((self, code))
        return [e] if e is not None else []

    card_stubs(monkeypatch, is_affected_by_effect=is_affected, filter_effect=filter_effect)


def test_attack_targets_and_direct_attack(monkeypatch):
    affected = {}
    _battle_duel(monkeypatch, affected)
    duel, _ = make_duel()
    duel.core.attack_player = 0  # as at the start of a Battle Phase
    att = place(duel, 1000, 0, LOCATION_MZONE, 0)
    v = []
    assert duel.get_attack_target(att, v) == 4
    assert v == [] and att.direct_attackable == 1
    m1 = place(duel, 1000, 1, LOCATION_MZONE, 3)
    m2 = place(duel, 1000, 1, LOCATION_MZONE, 1)
    v = []
    assert duel.get_attack_target(att, v) == 4
    assert v == [m2, m1] and att.direct_attackable == 0
    affected[(m1, EFFECT_CANNOT_BE_BATTLE_TARGET, att)] = object()
    v = []
    duel.get_attack_target(att, v)
    assert v == [m2]
    v = []
    duel.get_attack_target(att, v, select_target=False)
    assert v == [m2, m1]
    affected[(m2, EFFECT_ONLY_BE_ATTACKED)] = object()
    v = []
    assert duel.get_attack_target(att, v) == 1 and v == [m2]
    affected[(m1, EFFECT_ONLY_BE_ATTACKED)] = object()
    v = []
    assert duel.get_attack_target(att, v) == 1 and v == []
    # out of attacks
    del affected[(m1, EFFECT_ONLY_BE_ATTACKED)], affected[(m2, EFFECT_ONLY_BE_ATTACKED)]
    att.announce_count = 1
    v = []
    assert duel.get_attack_target(att, v) == 4 and v == [] and att.direct_attackable == 0
    affected[(att, EFFECT_EXTRA_ATTACK)] = new_effect(duel, att, value=1)
    v = []
    duel.get_attack_target(att, v)
    assert v == [m2]


def test_attack_all_and_cannot_direct(monkeypatch):
    affected = {}
    _battle_duel(monkeypatch, affected)
    duel, _ = make_duel()
    duel.core.attack_player = 0
    att = place(duel, 1000, 0, LOCATION_MZONE, 0)
    affected[(att, EFFECT_CANNOT_DIRECT_ATTACK)] = object()
    v = []
    duel.get_attack_target(att, v)
    assert att.direct_attackable == 0
    del affected[(att, EFFECT_CANNOT_DIRECT_ATTACK)]
    m1 = place(duel, 1000, 1, LOCATION_MZONE, 0)
    m2 = place(duel, 1000, 1, LOCATION_MZONE, 1)
    att.announce_count = 1
    att.attack_all_target = 1
    att.announced_cards.addcard(m1)
    affected[(att, EFFECT_ATTACK_ALL)] = new_effect(duel, att, value=1)
    v = []
    duel.get_attack_target(att, v)
    assert v == [m2]  # m1 was already attacked once
    duel.core.attacker, duel.core.attack_target = att, m2
    assert duel.confirm_attack_target()
    duel.core.attack_target = m1
    assert not duel.confirm_attack_target()
    affected[(att, EFFECT_ATTACK_ALL)] = new_effect(duel, att, flag=EFFECT_FLAG_FUNC_VALUE,
                                                    value=lambda e, c: 0)
    duel.attack_all_target_check()
    assert att.attack_all_target == 0
    att.attack_all_target = 1
    duel.core.attack_target = None
    duel.attack_all_target_check()
    assert att.attack_all_target == 0
