"""Chain resolution keeps the reference's step boundaries (processor.cpp solve_chain steps 2-5).

When a Continuous Spell's activation resolves, its effects are switched on and
the state is checked at once (adjust_instant).  If that check queues a
self-destruction (EFFECT_SELF_DESTROY whose condition already holds), the
reference runs it when step 2 ends: the card leaves the field *before*
MSG_CHAIN_SOLVED.  Found by `duelhost diff --seeds` (Swords of Burning Light,
Void Cauldron, Performapal Momoncarpet, ...).
"""

from __future__ import annotations

from pathlib import Path

from duelhost import Duel, paths
from duelhost.bindings.host import LuaScriptHost
from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase, CardRecord
from duelhost.engine.messages import MsgChainSolved, MsgMove, MsgSelectIdleCmd
import random

from duelhost.engine.responses import ChainResponse, IdleCmdResponse, random_response

SPELL, MONSTER = 990701, 990702

SPELL_SCRIPT = """
function c990701.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_ACTIVATE)
    e1:SetCode(EVENT_FREE_CHAIN)
    c:RegisterEffect(e1)
    local e2=Effect.CreateEffect(c)
    e2:SetType(EFFECT_TYPE_SINGLE)
    e2:SetCode(EFFECT_SELF_DESTROY)
    e2:SetProperty(EFFECT_FLAG_SINGLE_RANGE)
    e2:SetRange(LOCATION_SZONE)
    e2:SetCondition(c990701.descon)
    c:RegisterEffect(e2)
end
function c990701.descon(e)
    return Duel.GetFieldGroupCount(e:GetHandlerPlayer(),LOCATION_MZONE,0)~=0
end
"""


def test_self_destroy_queued_when_activation_resolves_runs_before_chain_solved(tmp_path: Path) -> None:
    (tmp_path / f"c{SPELL}.lua").write_text(SPELL_SCRIPT)
    db = CardDatabase.from_records([
        CardRecord(code=SPELL, type=C.TYPE_SPELL | C.TYPE_CONTINUOUS, name="Self-destroying Spell"),
        CardRecord(code=MONSTER, type=C.TYPE_MONSTER | C.TYPE_NORMAL, level=4, attack=1000, defense=1000,
                   name="Plain Monster"),
    ])
    host = LuaScriptHost([tmp_path, paths.bundled_scripts()])
    duel = Duel(db=db, script_host=host, seed=1)
    for p in (0, 1):
        duel.add_deck(p, [MONSTER] * 10)
    duel.add_card(MONSTER, 0, C.LOCATION_MZONE, 0, C.POS_FACEUP_ATTACK)
    spell = duel.add_card(SPELL, 0, C.LOCATION_HAND)
    duel.set_player(0, start_hand=0)
    duel.set_player(1, start_hand=0)
    duel.start()
    req = duel.advance()
    while not isinstance(req, MsgSelectIdleCmd):
        req = duel.respond(duel.legal_responses(req)[0])
    index = next(i for i, c in enumerate(req.activatable) if c.code & 0x7FFFFFFF == SPELL)
    mark = len(duel.messages)
    req = duel.respond(IdleCmdResponse(command=5, index=index))
    while not isinstance(req, MsgSelectIdleCmd):
        req = duel.respond(ChainResponse(index=-1) if req.NAME == "SELECT_CHAIN"
                           else random_response(req, random.Random(0)))
    msgs = duel.messages[mark:]
    moves = [i for i, m in enumerate(msgs) if isinstance(m, MsgMove) and m.code == SPELL
             and m.current.location == C.LOCATION_GRAVE]
    solved = [i for i, m in enumerate(msgs) if isinstance(m, MsgChainSolved)]
    assert moves and solved, [m.NAME for m in msgs]
    assert moves[0] < solved[0]
    assert spell.current.location == C.LOCATION_GRAVE


def test_announce_card_setcode_filter_accepts_engine_card_data() -> None:
    """The engine checks an ANNOUNCE_CARD answer against its own CardData (``setcode``, not
    the database record's ``setcodes``); an archetype filter raised AttributeError there."""
    from duelhost.engine.card import CardData
    from duelhost.engine.constants import OPCODE_ISSETCARD
    from duelhost.engine.responses import is_declarable
    data = CardData(code=123, setcode=(0x1045,), type=C.TYPE_MONSTER)
    assert is_declarable(data, [0x45, OPCODE_ISSETCARD])
    assert not is_declarable(data, [0x46, OPCODE_ISSETCARD])


SKIPPER = 990703

SKIPPER_SCRIPT = """
function c990703.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_ACTIVATE)
    e1:SetCode(EVENT_FREE_CHAIN)
    c:RegisterEffect(e1)
    local e2=Effect.CreateEffect(c)
    e2:SetType(EFFECT_TYPE_QUICK_O)
    e2:SetRange(LOCATION_SZONE)
    e2:SetCode(EVENT_FREE_CHAIN)
    e2:SetCountLimit(1,EFFECT_COUNT_CODE_CHAIN)
    e2:SetCondition(c990703.condition)
    e2:SetOperation(c990703.operation)
    c:RegisterEffect(e2)
end
function c990703.condition(e,tp,eg,ep,ev,re,r,rp)
    return Duel.GetCurrentPhase()>=PHASE_BATTLE_START and Duel.GetCurrentPhase()<PHASE_BATTLE
end
function c990703.operation(e,tp,eg,ep,ev,re,r,rp)
    Duel.SkipPhase(Duel.GetTurnPlayer(),PHASE_BATTLE,RESET_PHASE+PHASE_BATTLE_STEP,1)
end
"""


def test_phase_window_closes_when_an_effect_in_it_skips_the_phase(tmp_path: Path) -> None:
    """The Battle Phase start window re-checks EFFECT_SKIP_BP each time it reopens (the
    reference's process_phase_event step 0): a Quick Effect resolved there that skips the
    Battle Phase leads straight to Main Phase 2, with no further phase window (HINT_EVENT)
    and no battle command.  Found by the live diff (Scrubbed Raid, seeds 17 and 69)."""
    from duelhost.engine.messages import (MsgChainEnd, MsgHint, MsgNewPhase, MsgSelectBattleCmd,
                                          MsgSelectChain)
    (tmp_path / f"c{SKIPPER}.lua").write_text(SKIPPER_SCRIPT)
    db = CardDatabase.from_records([
        CardRecord(code=SKIPPER, type=C.TYPE_TRAP | C.TYPE_CONTINUOUS, name="Battle Skipper"),
        CardRecord(code=MONSTER, type=C.TYPE_MONSTER | C.TYPE_NORMAL, level=4, attack=1000, defense=1000,
                   name="Plain Monster"),
    ])
    host = LuaScriptHost([tmp_path, paths.bundled_scripts()])
    duel = Duel(db=db, script_host=host, seed=2)
    for p in (0, 1):
        duel.add_deck(p, [MONSTER] * 10)
    duel.add_card(SKIPPER, 0, C.LOCATION_SZONE, 0, C.POS_FACEUP)
    duel.start()
    rng = random.Random(3)
    used = None
    req = duel.advance()
    for _ in range(200):
        if isinstance(req, MsgSelectIdleCmd):
            if duel.turn == 1:
                req = duel.respond(IdleCmdResponse(command=7, index=0))     # End Phase
                continue
            if used is not None:
                break                                                       # back in a Main Phase
            assert req.can_battle_phase
            req = duel.respond(IdleCmdResponse(command=6, index=0))         # Battle Phase
            continue
        if isinstance(req, MsgSelectChain):
            mine = [i for i, c in enumerate(req.chains) if c.code & 0x7FFFFFFF == SKIPPER]
            if mine and used is None and duel.turn == 2:
                used = len(duel.messages)
                req = duel.respond(ChainResponse(index=mine[0]))
            else:
                req = duel.respond(ChainResponse(index=-1))
            continue
        assert not isinstance(req, MsgSelectBattleCmd), "the Battle Phase was not skipped"
        req = duel.respond(random_response(req, rng))
    assert used is not None and duel.turn == 2
    after = duel.messages[used:]
    end = next(i for i, m in enumerate(after) if isinstance(m, MsgChainEnd))
    assert not any(isinstance(m, MsgHint) and m.type == C.HINT_EVENT for m in after[end:]), [m.NAME for m in after]
    assert any(isinstance(m, MsgNewPhase) and m.phase == C.PHASE_MAIN2 for m in after[end:])


COUNTER = 990704

COUNTER_SCRIPT = """
function c990704.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_ACTIVATE)
    e1:SetCode(EVENT_FREE_CHAIN)
    c:RegisterEffect(e1)
    local e2=Effect.CreateEffect(c)
    e2:SetType(EFFECT_TYPE_FIELD+EFFECT_TYPE_CONTINUOUS)
    e2:SetCode(EVENT_PHASE_START+PHASE_STANDBY)
    e2:SetRange(LOCATION_SZONE)
    e2:SetOperation(c990704.op)
    c:RegisterEffect(e2)
end
function c990704.op(e,tp,eg,ep,ev,re,r,rp)
    if tp~=Duel.GetTurnPlayer() then return end
    local c=e:GetHandler()
    c:SetTurnCounter(c:GetTurnCounter()+1)
end
"""


def test_continuous_effect_at_standby_start_resolves_before_the_window_check(tmp_path: Path) -> None:
    """The reference ends the Standby Phase's first step after raising EVENT_PHASE_START +
    PHASE_STANDBY, so a continuous effect on it resolves before the check whether that
    event alone is pending; after it resolved, the point window opens (SELECT_CHAIN for
    both players) before the phase's own window.  Found by the live diff (Wave-Motion
    Cannon, seed 242)."""
    from duelhost.engine.messages import MsgNewPhase, MsgSelectChain
    (tmp_path / f"c{COUNTER}.lua").write_text(COUNTER_SCRIPT)
    db = CardDatabase.from_records([
        CardRecord(code=COUNTER, type=C.TYPE_SPELL | C.TYPE_CONTINUOUS, name="Standby Counter"),
        CardRecord(code=MONSTER, type=C.TYPE_MONSTER | C.TYPE_NORMAL, level=4, attack=1000, defense=1000,
                   name="Plain Monster"),
    ])
    host = LuaScriptHost([tmp_path, paths.bundled_scripts()])
    duel = Duel(db=db, script_host=host, seed=5)
    for p in (0, 1):
        duel.add_deck(p, [MONSTER] * 10)
    duel.add_card(COUNTER, 1, C.LOCATION_SZONE, 0, C.POS_FACEUP)
    duel.start()
    req = duel.advance()
    while duel.turn < 2 or not isinstance(req, MsgSelectIdleCmd):
        if isinstance(req, MsgSelectIdleCmd):
            req = duel.respond(IdleCmdResponse(command=7, index=0))
        elif isinstance(req, MsgSelectChain):
            req = duel.respond(ChainResponse(index=-1))
        else:
            req = duel.respond(random_response(req, random.Random(0)))
    msgs = duel.messages
    standby = max(i for i, m in enumerate(msgs) if isinstance(m, MsgNewPhase) and m.phase == C.PHASE_STANDBY)
    main1 = max(i for i, m in enumerate(msgs) if isinstance(m, MsgNewPhase) and m.phase == C.PHASE_MAIN1)
    between = msgs[standby + 1:main1]
    assert [m.NAME for m in between if isinstance(m, MsgSelectChain)] == ["SELECT_CHAIN", "SELECT_CHAIN"], \
        [m.describe() for m in between]


EQUIP, DRAGON, CHANGER = 990705, 990706, 990707

EQUIP_SCRIPT = """
function c990705.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetCategory(CATEGORY_EQUIP)
    e1:SetType(EFFECT_TYPE_ACTIVATE)
    e1:SetCode(EVENT_FREE_CHAIN)
    e1:SetProperty(EFFECT_FLAG_CARD_TARGET)
    e1:SetTarget(c990705.target)
    e1:SetOperation(c990705.operation)
    c:RegisterEffect(e1)
    local e2=Effect.CreateEffect(c)
    e2:SetType(EFFECT_TYPE_SINGLE)
    e2:SetCode(EFFECT_EQUIP_LIMIT)
    e2:SetProperty(EFFECT_FLAG_CANNOT_DISABLE)
    e2:SetValue(c990705.eqlimit)
    c:RegisterEffect(e2)
end
function c990705.eqlimit(e,c)
    return c:IsRace(RACE_DRAGON)
end
function c990705.filter(c)
    return c:IsFaceup() and c:IsRace(RACE_DRAGON)
end
function c990705.target(e,tp,eg,ep,ev,re,r,rp,chk,chkc)
    if chkc then return chkc:IsLocation(LOCATION_MZONE) and c990705.filter(chkc) end
    if chk==0 then return Duel.IsExistingTarget(c990705.filter,tp,LOCATION_MZONE,0,1,nil) end
    Duel.SelectTarget(tp,c990705.filter,tp,LOCATION_MZONE,0,1,1,nil)
    Duel.SetOperationInfo(0,CATEGORY_EQUIP,e:GetHandler(),1,0,0)
end
function c990705.operation(e,tp,eg,ep,ev,re,r,rp)
    local c=e:GetHandler()
    local tc=Duel.GetFirstTarget()
    if c:IsRelateToEffect(e) and tc:IsRelateToEffect(e) and tc:IsFaceup() then
        Duel.Equip(tp,c,tc)
    end
end
"""

CHANGER_SCRIPT = """
function c990707.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_FIELD)
    e1:SetCode(EFFECT_CHANGE_RACE)
    e1:SetRange(LOCATION_MZONE)
    e1:SetTargetRange(LOCATION_MZONE,0)
    e1:SetValue(RACE_PLANT)
    c:RegisterEffect(e1)
end
"""


def test_equip_check_waits_while_self_destruction_is_disabled(tmp_path: Path) -> None:
    """In the Damage Step (self-destruction disabled) the reference's adjust skips the equip
    check as well: an Equip Spell whose limit fails when the attacked monster is flipped
    (it turns its controller's monsters into Plants) is not destroyed before the battle
    confirmation window.  Found by the live diff (Dragon Treasure and Naturia Pineapple,
    seed 437)."""
    from duelhost.engine.messages import MsgHint, MsgPosChange, MsgSelectBattleCmd, MsgSelectChain
    from duelhost.engine.responses import BattleCmdResponse
    (tmp_path / f"c{EQUIP}.lua").write_text(EQUIP_SCRIPT)
    (tmp_path / f"c{CHANGER}.lua").write_text(CHANGER_SCRIPT)
    db = CardDatabase.from_records([
        CardRecord(code=EQUIP, type=C.TYPE_SPELL | C.TYPE_EQUIP, name="Dragon Gear"),
        CardRecord(code=DRAGON, type=C.TYPE_MONSTER | C.TYPE_NORMAL, level=4, attack=1500, defense=1000,
                   race=C.RACE_DRAGON, name="Plain Dragon"),
        CardRecord(code=CHANGER, type=C.TYPE_MONSTER | C.TYPE_EFFECT, level=4, attack=0, defense=3000,
                   race=C.RACE_PLANT, name="Plant Maker"),
        CardRecord(code=MONSTER, type=C.TYPE_MONSTER | C.TYPE_NORMAL, level=4, attack=1000, defense=1000,
                   name="Plain Monster"),
    ])
    host = LuaScriptHost([tmp_path, paths.bundled_scripts()])
    duel = Duel(db=db, script_host=host, seed=6)
    for p in (0, 1):
        duel.add_deck(p, [MONSTER] * 10)
    duel.add_card(DRAGON, 0, C.LOCATION_MZONE, 0, C.POS_FACEUP_ATTACK)
    changer = duel.add_card(CHANGER, 0, C.LOCATION_MZONE, 1, C.POS_FACEDOWN_DEFENSE)
    equip = duel.add_card(EQUIP, 0, C.LOCATION_HAND)
    duel.add_card(MONSTER, 1, C.LOCATION_MZONE, 0, C.POS_FACEUP_ATTACK)
    duel.set_player(0, start_hand=0)
    duel.set_player(1, start_hand=0)
    duel.start()
    rng = random.Random(1)
    req = duel.advance()
    for _ in range(300):
        if isinstance(req, MsgSelectIdleCmd):
            if duel.turn == 1:
                mine = [i for i, c in enumerate(req.activatable) if c.code & 0x7FFFFFFF == EQUIP]
                req = duel.respond(IdleCmdResponse(command=5, index=mine[0]) if mine
                                   else IdleCmdResponse(command=7, index=0))
            elif req.can_battle_phase:
                req = duel.respond(IdleCmdResponse(command=6, index=0))
            else:
                break
        elif isinstance(req, MsgSelectBattleCmd):
            if req.attackable and not any(isinstance(m, MsgPosChange) for m in duel.messages[-200:]):
                req = duel.respond(BattleCmdResponse(command=1, index=0))
            else:
                break
        elif isinstance(req, MsgSelectChain):
            req = duel.respond(ChainResponse(index=-1))
        elif req.NAME == "SELECT_CARD" and duel.turn == 2:
            index = next(i for i, c in enumerate(req.cards) if c.code == CHANGER)
            req = duel.respond(bytes([1, index]))
        else:
            req = duel.respond(random_response(req, rng))
    msgs = duel.messages
    flip = next(i for i, m in enumerate(msgs) if isinstance(m, MsgPosChange) and m.code == CHANGER)
    confirm = next(i for i, m in enumerate(msgs) if i > flip and isinstance(m, MsgHint) and m.data == 41)
    equip_moves = [i for i, m in enumerate(msgs) if isinstance(m, MsgMove) and m.code == EQUIP
                   and m.current.location == C.LOCATION_GRAVE]
    assert changer.is_position(C.POS_FACEUP)
    assert equip_moves and equip_moves[0] > confirm, [m.describe() for m in msgs[flip:flip + 6]]
