"""Helpers of the counters tests (tests/test_counters*.py); no tests of its own.

``Table`` is a real duel through the host API (``duelhost.Duel``) over the bundled
cards.db and scripts/, plus an optional *probe*: a test-only card (code PROBE, face-up
in player 0's banished zone) whose quick effect runs the next of a list of Lua
snippets as its operation, i.e. as a resolving chain link with the probe's effect as
reason effect and player 0 as reason player.  A snippet reports values with
``return``; the probe writes them into the message stream as MSG_HINT of private
types (REPORT_*), so they are read back from the messages and compared like every
other byte when the same duel is replayed on the reference core.

The probe script exists only in a temporary folder made for one Table (searched
before the script folder) and its database row only in a copy of the database.

Driving: ``t.summon(code)``, ``t.activate(code)``, ``t.run()`` (the next snippet;
``chain(PROBE)`` runs it as a chain link in response to something else),
``t.attack(code, target)`` ... each answer the idle/battle menu, then ``settle``
answers every further prompt until the turn player is back at a menu: first with
the ``answers`` given (each used once, on the first prompt it fits), else with a
default (pass on chains unless forced, first cards, first free zone, "yes").
``t.responses`` keeps every answer sent as raw bytes, so ``replay_on_reference``
can play the same duel on the reference core (OCGCORE_LIB) and compare bytes.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from duelhost import Duel
from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase, CardRecord
from duelhost.engine.core_constants import QUERY_CODE as C_QUERY_CODE
from duelhost.engine.core_constants import QUERY_COUNTERS as C_QUERY_COUNTERS
from duelhost.engine.core_constants import QUERY_POSITION as C_QUERY_POSITION
from duelhost.engine.messages import (Message, MsgHint, MsgSelectBattleCmd, MsgSelectCard, MsgSelectChain,
                                      MsgSelectCounter, MsgSelectEffectYn, MsgSelectIdleCmd, MsgSelectOption,
                                      MsgSelectPlace, MsgSelectPosition, MsgSelectTribute,
                                      MsgSelectUnselectCard, MsgSelectYesNo, Prompt, encode_messages)
from duelhost.engine.responses import (BattleCmdResponse, CardsResponse, ChainResponse, CounterResponse,
                                       IdleCmdResponse, OptionResponse, PlaceResponse, PositionResponse,
                                       Response, UnselectCardResponse, YesNoResponse, Zone, encode_response)

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = REPO / "scripts"

# ----- our cards (cards/counters.toml) -----------------------------------------------------------
DEFENDER = 190002001
ABDUCTOR = 190002002
CITADEL = 190002003
RELIQUARY = 190002004
AEGIS = 190002005
WITCH = 190002006
TOTEM = 190002007
SERVANT = 190002008
FAMILIAR = 190002009
SPARK = 190002010
ADEPT = 190002011
COLLAPSE = 190002012
HUSH = 190002013
ECLIPSE = 190002014
PROBE = 190002999          # test-only, never in cards.db

FILLER = list(range(190000001, 190000011))   # Normal Monsters of the demo decks

SPELL = 0x1                # Spell Counter
RELIC = 0xf54              # Relic Counter (Reliquary)
HEX = 0x10f1               # Hex Counter: 0x1000 (COUNTER_WITHOUT_PERMIT) is part of the type

# private MSG_HINT types the probe writes its results with
REPORT_COUNT, REPORT_INT, REPORT_BOOL, REPORT_NIL, REPORT_CARD, REPORT_OTHER = 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5
REPORT_TYPES = range(0xE0, 0xE6)

PROBE_PRELUDE = """--test probe (tests/test_counters_kit.py): runs snippet n at its n-th activation
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_QUICK_O)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetRange(LOCATION_REMOVED)
	e1:SetCondition(function() return s.snippets[s.next]~=nil end)
	e1:SetOperation(s.operation)
	c:RegisterEffect(e1)
end
s.next=1
--the first face-up-or-not card with this code (controller p if given) anywhere
function C(code,p)
	local g=Duel.GetMatchingGroup(Card.IsCode,0,0x7f,0x7f,nil,code)
	if p then g=g:Filter(Card.IsControler,nil,p) end
	return g:GetFirst()
end
--watchers on the probe: WATCH(code) records every event of that code the probe sees
--(as a field effect); SEEN() returns code, ev, ep, r, #eg for each, in order
W={}
function WATCH(code)
	local e1=Effect.CreateEffect(C(id))
	e1:SetType(EFFECT_TYPE_FIELD+EFFECT_TYPE_CONTINUOUS)
	e1:SetCode(code)
	e1:SetRange(LOCATION_REMOVED)
	e1:SetOperation(function(e,tp,eg,ep,ev,re,r,rp)
		table.insert(W,{code,ev,ep,r,eg and eg:GetCount() or 0})
	end)
	C(id):RegisterEffect(e1)
end
function SEEN()
	local out={}
	for _,w in ipairs(W) do
		for _,v in ipairs(w) do out[#out+1]=v end
	end
	return table.unpack(out)
end
local function report(n,...)
	Duel.Hint(0xE0,0,n)
	for i=1,n do
		local v=select(i,...)
		local t=type(v)
		if t=="boolean" then Duel.Hint(0xE2,0,v and 1 or 0)
		elseif t=="number" then Duel.Hint(0xE1,0,v)
		elseif t=="nil" then Duel.Hint(0xE3,0,0)
		elseif t=="userdata" and v.GetCode then Duel.Hint(0xE4,0,v:GetCode())
		else Duel.Hint(0xE5,0,0) end
	end
end
function s.operation(e,tp,eg,ep,ev,re,r,rp)
	local f=s.snippets[s.next]
	s.next=s.next+1
	local t=table.pack(f(e,tp,eg,ep,ev,re,r,rp))
	report(t.n,table.unpack(t,1,t.n))
end
"""


def probe_script(snippets: Iterable[str]) -> str:
    parts = [PROBE_PRELUDE, "s.snippets={"]
    for i, src in enumerate(snippets, 1):
        parts.append(f"[{i}]=function(e,tp,eg,ep,ev,re,r,rp)\n{src}\nend,")
    parts.append("}\n")
    return "\n".join(parts)


def probe_record() -> CardRecord:
    return CardRecord(code=PROBE, type=C.TYPE_MONSTER | C.TYPE_EFFECT, level=1, name="Counter Probe",
                      strings=("",) * 16)


_DBS: dict[str, CardDatabase] = {}


def _with_probe(db: Any) -> CardDatabase:
    """The card database plus the probe's row (one copy per database file)."""
    key = str(db.source) if isinstance(db, CardDatabase) else str(Path(db).resolve())
    if key not in _DBS:
        base = db if isinstance(db, CardDatabase) else CardDatabase.open(db)
        _DBS[key] = CardDatabase.from_records([*base, probe_record()], source=key)
    return _DBS[key]


# ----- answers --------------------------------------------------------------------------------

@dataclass
class Answer:
    """One answer for the first prompt of ``kinds`` it fits (``fits`` may refuse a prompt)."""

    kinds: tuple[type, ...]
    make: Callable[[Any, "Table"], Response | bytes]
    fits: Callable[[Any], bool] = lambda p: True


def _card_index(cards: Iterable[Any], code: int, player: int | None = None) -> int:
    for i, c in enumerate(cards):
        if c.code == code and (player is None or _controller(c) == player):
            return i
    raise AssertionError(f"card {code} is not offered: {[c.code for c in cards]}")


def _controller(c: Any) -> int:
    loc = getattr(c, "location", None)
    if loc is not None and not isinstance(loc, int):
        return loc.controller
    return c.controller


def pick(*codes: int, player: int | None = None) -> Answer:
    """SELECT_CARD: the cards with these codes (one each, in order)."""
    def make(p: MsgSelectCard, t: "Table") -> Response:
        return CardsResponse(indices=tuple(_card_index(p.cards, c, player) for c in codes))
    return Answer((MsgSelectCard,), make)


def yes(answer: bool = True) -> Answer:
    """SELECT_EFFECTYN / SELECT_YESNO."""
    return Answer((MsgSelectEffectYn, MsgSelectYesNo), lambda p, t: YesNoResponse(yes=answer))


def no() -> Answer:
    return yes(False)


def option(index: int) -> Answer:
    return Answer((MsgSelectOption,), lambda p, t: OptionResponse(index=index))


def counters(*counts: int) -> Answer:
    """SELECT_COUNTER: how many to remove from each offered card."""
    return Answer((MsgSelectCounter,), lambda p, t: CounterResponse(counts=counts))


def chain(code: int) -> Answer:
    """SELECT_CHAIN: chain the effect of the card with this code."""
    def make(p: MsgSelectChain, t: "Table") -> Response:
        return ChainResponse(index=_card_index(p.chains, code))
    return Answer((MsgSelectChain,), make, lambda p: any(c.code == code for c in p.chains))


def raw(kind: type, data: bytes) -> Answer:
    return Answer((kind,), lambda p, t: data)


def default_response(p: Prompt) -> Response:
    if isinstance(p, MsgSelectChain):
        forced = [i for i, c in enumerate(p.chains) if c.forced]
        return ChainResponse(index=forced[0] if forced else None)
    if isinstance(p, (MsgSelectEffectYn, MsgSelectYesNo)):
        return YesNoResponse(yes=True)
    if isinstance(p, MsgSelectOption):
        return OptionResponse(index=0)
    if isinstance(p, (MsgSelectCard, MsgSelectTribute)):
        return CardsResponse(indices=tuple(range(p.min)))
    if isinstance(p, MsgSelectUnselectCard):
        return UnselectCardResponse(index=0 if p.selectable else None)
    if isinstance(p, MsgSelectPosition):
        return PositionResponse(position=p.positions & -p.positions)
    if isinstance(p, MsgSelectPlace):
        for side in (0, 16):
            for shift in (0, 8):
                for s in range(8):
                    if not p.flag & (1 << (s + shift + side)):
                        player = p.player if side == 0 else 1 - p.player
                        loc = C.LOCATION_MZONE if shift == 0 else C.LOCATION_SZONE
                        return PlaceResponse(zones=(Zone(player=player, location=loc, sequence=s),))
    if isinstance(p, MsgSelectCounter):
        left, counts = p.count, []
        for c in p.cards:
            n = min(left, c.counter_count)
            counts.append(n)
            left -= n
        return CounterResponse(counts=tuple(counts))
    raise AssertionError(f"no default answer for {p}")


# ----- the table ------------------------------------------------------------------------------

class Table:
    """A duel for the counters tests: set up, then driven menu by menu."""

    def __init__(self, snippets: Iterable[str] = (), *, seed: int = 7, db: Any = None,
                 scripts: Path | None = None, start_hand: int = 0, filler: Iterable[int] = FILLER) -> None:
        self.snippets = list(snippets)
        self._tmp = tempfile.TemporaryDirectory(prefix="counters-")
        folder = Path(self._tmp.name)
        (folder / f"c{PROBE}.lua").write_text(probe_script(self.snippets), encoding="utf-8")
        self.probe_folder = folder
        self.scripts = Path(scripts or SCRIPTS)
        self.db = _with_probe(db or REPO / "cards.db")
        from duelhost.bindings.host import LuaScriptHost
        self.duel = Duel(db=self.db, seed=seed, script_host=LuaScriptHost([folder, self.scripts]))
        self.setup: list[tuple] = []
        self.responses: list[bytes] = []
        self.prompts: list[Prompt] = []
        self.chunks: list[int] = []      # where each step's messages start (0, then before each answer)
        self.start_hand = start_hand
        self.filler = list(filler)
        self.reference_difference: str | None = None   # why this duel must differ on the reference
        for p in (0, 1):
            self.duel.set_player(p, start_hand=start_hand)
            self.setup.append(("player", p, 8000, start_hand, 1))
        if self.snippets:
            self.place(PROBE, 0, C.LOCATION_REMOVED, pos=C.POS_FACEUP)

    def close(self) -> None:
        self._tmp.cleanup()

    # set-up (before start) ------------------------------------------------------------------
    def place(self, code: int, player: int = 0, location: int = C.LOCATION_HAND, seq: int = 0,
              pos: int | None = None):
        if pos is None:
            pos = C.POS_FACEUP_ATTACK if location & C.LOCATION_ONFIELD else C.POS_FACEDOWN_DEFENSE
        if location == C.LOCATION_SZONE and pos == C.POS_FACEUP_ATTACK:
            pos = C.POS_FACEUP
        card = self.duel.add_card(code, player, location, seq, pos)
        self.setup.append(("card", code, player, player, location, seq, pos))
        return card

    def deck(self, player: int, codes: Iterable[int] = FILLER) -> None:
        for code in codes:
            self.place(code, player, C.LOCATION_DECK, pos=C.POS_FACEDOWN_DEFENSE)

    def start(self, settle: bool = True) -> Prompt | None:
        """Start the duel; with ``settle``, answer by default until player 0's first menu."""
        for p in (0, 1):
            if not self.duel.engine.player[p].list_main:
                self.deck(p, self.filler)
        self.duel.start()
        self.chunks.append(0)
        return self.settle() if settle else self.advance()

    # state ----------------------------------------------------------------------------------
    @property
    def engine(self):
        return self.duel.engine

    @property
    def messages(self) -> list[Message]:
        return self.duel.messages

    def card(self, code: int, player: int | None = None):
        """The engine card with this code (the only one, or player's)."""
        found = [c for c in self.engine.cards if c.data.code == code
                 and (player is None or c.current.controler == player)]
        assert found, f"no card {code}"
        return found[0]

    def counters(self, code: int, player: int | None = None) -> dict[int, int]:
        return dict(self.card(code, player).counters)

    def mark(self) -> int:
        return len(self.messages)

    def since(self, mark: int, kind: type | tuple[type, ...] | None = None) -> list[Message]:
        msgs = self.messages[mark:]
        return [m for m in msgs if kind is None or isinstance(m, kind)]

    def reports(self, mark: int = 0) -> list[tuple]:
        """The values every snippet run since ``mark`` returned, one tuple per run."""
        out: list[tuple] = []
        cur: list[Any] | None = None
        want = 0
        for m in self.messages[mark:]:
            if not isinstance(m, MsgHint) or m.type not in REPORT_TYPES:
                continue
            if m.type == REPORT_COUNT:
                cur, want = [], m.data
                if want == 0:
                    out.append(())
                continue
            assert cur is not None
            v: Any
            if m.type == REPORT_INT:
                v = m.data - (1 << 32) if m.data >= 1 << 31 else m.data
            elif m.type == REPORT_BOOL:
                v = bool(m.data)
            elif m.type == REPORT_NIL:
                v = None
            elif m.type == REPORT_CARD:
                v = ("card", m.data)
            else:
                v = ("other",)
            cur.append(v)
            if len(cur) == want:
                out.append(tuple(cur))
        return out

    # driving --------------------------------------------------------------------------------
    @property
    def request(self) -> Prompt | None:
        return self.duel.request

    def advance(self) -> Prompt | None:
        p = self.duel.advance()
        if p is not None and (not self.prompts or self.prompts[-1] is not p):
            self.prompts.append(p)
        return p

    def send(self, response: Response | bytes, *, check: bool = True) -> Prompt | None:
        """Answer the pending prompt (validated like Duel.respond, or raw with check=False)."""
        p = self.advance()
        assert p is not None, "the duel has ended"
        data = response if isinstance(response, bytes) else encode_response(p, response)
        before = len(self.messages)
        if check:
            self.duel.respond(data)       # raises InvalidResponse, changing nothing
        else:
            self.duel.respond_raw(data)
        self.chunks.append(before)
        self.responses.append(data)
        return self.advance()

    def settle(self, *answers: Answer, until: Callable[[Prompt], bool] | None = None) -> Prompt | None:
        """Answer prompts until the turn player is at a menu (or ``until`` says stop)."""
        todo = list(answers)
        stop = until or (lambda p: isinstance(p, (MsgSelectIdleCmd, MsgSelectBattleCmd)))
        for _ in range(200):
            p = self.advance()
            if p is None or stop(p):
                assert not todo, f"answers not used: {todo} (now at {p})"
                return p
            for a in todo:
                if isinstance(p, a.kinds) and a.fits(p):
                    todo.remove(a)
                    self.send(a.make(p, self))
                    break
            else:
                self.send(default_response(p))
        raise AssertionError("settle: too many prompts")

    def idle(self) -> MsgSelectIdleCmd:
        p = self.advance()
        assert isinstance(p, MsgSelectIdleCmd), f"not at the Main Phase menu: {p}"
        return p

    def _idle_card(self, command: int, code: int, *answers: Answer) -> Prompt | None:
        p = self.idle()
        idx = _card_index(p.card_lists[command], code)
        self.send(IdleCmdResponse(command=command, index=idx))
        return self.settle(*answers)

    def summon(self, code: int, *answers: Answer) -> Prompt | None:
        return self._idle_card(0, code, *answers)

    def set_monster(self, code: int, *answers: Answer) -> Prompt | None:
        return self._idle_card(3, code, *answers)

    def can_activate(self, code: int, description: int | None = None) -> bool:
        p = self.advance()
        opts = p.activatable if isinstance(p, (MsgSelectIdleCmd, MsgSelectBattleCmd)) else ()
        return any((o.code & 0x7FFFFFFF) == code and (description is None or o.description == description)
                   for o in opts)

    def activate(self, code: int, *answers: Answer, description: int | None = None) -> Prompt | None:
        p = self.advance()
        assert isinstance(p, (MsgSelectIdleCmd, MsgSelectBattleCmd)), f"not at a menu: {p}"
        for i, o in enumerate(p.activatable):
            if (o.code & 0x7FFFFFFF) == code and (description is None or o.description == description):
                cmd = IdleCmdResponse(command=5, index=i) if isinstance(p, MsgSelectIdleCmd) \
                    else BattleCmdResponse(command=0, index=i)
                self.send(cmd)
                return self.settle(*answers)
        raise AssertionError(f"{code} (desc {description}) cannot be activated: {p.activatable}")

    def seen(self) -> list[tuple[int, int, int, int, int]]:
        """Run a snippet ``return SEEN()``: what the probe's watchers saw, as
        (event code, ev, ep, r, number of cards in eg) tuples."""
        flat = self.run()
        return [tuple(flat[i:i + 5]) for i in range(0, len(flat), 5)]

    def run(self, *answers: Answer) -> tuple:
        """Activate the probe: the next snippet runs; its returned values."""
        mark = self.mark()
        self.activate(PROBE, *answers)
        got = self.reports(mark)
        assert len(got) == 1, f"the snippet did not report (errors: {self.script_errors()})"
        return got[0]

    def to_battle(self) -> Prompt | None:
        self.idle()
        self.send(IdleCmdResponse(command=6))
        return self.settle()

    def attack(self, code: int, *answers: Answer, target: int | None = None) -> Prompt | None:
        p = self.advance()
        assert isinstance(p, MsgSelectBattleCmd), f"not in the Battle Phase: {p}"
        self.send(BattleCmdResponse(command=1, index=_card_index(p.attackable, code)))
        if target is not None:
            answers = (pick(target),) + answers
        return self.settle(*answers)

    def main2(self, *answers: Answer) -> Prompt | None:
        p = self.advance()
        assert isinstance(p, MsgSelectBattleCmd), f"not in the Battle Phase: {p}"
        self.send(BattleCmdResponse(command=2))
        return self.settle(*answers)

    def end_turn(self, *answers: Answer) -> Prompt | None:
        p = self.advance()
        if isinstance(p, MsgSelectBattleCmd):
            self.send(BattleCmdResponse(command=3))
        else:
            self.send(IdleCmdResponse(command=7))
        return self.settle(*answers)

    def script_errors(self) -> list[str]:
        host = self.duel.script_host
        return [e.message for e in getattr(host, "errors", [])]


# ----- the same duel on the reference core ---------------------------------------------------------

def reference_library() -> Path | None:
    value = os.environ.get("OCGCORE_LIB")
    if value and Path(value).is_file():
        return Path(value)
    return None


def replay_on_reference(t: Table, lib: Path) -> list[str]:
    """Play ``t``'s set-up and answers on the reference core; the differences
    (empty when every message byte is the same), one line per step that differs."""
    from duelhost.engine.messages import decode_messages
    from duelhost.reference import ReferenceCore
    core = ReferenceCore.load(lib, db=t.db, scripts=t.scripts)
    errors_before = len(core.errors)
    # serve the probe's script from its own folder, every other name from the script folder
    probe_name = f"c{PROBE}.lua"
    probe_source = (t.probe_folder / probe_name).read_bytes()
    served = core.script_source

    def script_source(name: str) -> bytes | None:
        if name.replace("\\", "/").rsplit("/", 1)[-1] == probe_name:
            return probe_source
        return served(name)
    core.script_source = script_source        # an instance attribute: ReferenceCore's callback looks it up
    ref = core.create_duel(t.duel.seed_sequence)
    try:
        for item in t.setup:
            if item[0] == "player":
                ref.set_player_info(*item[1:])
            else:
                ref.new_card(*item[1:])
        ref.start(t.duel.options)
        problems: list[str] = []
        bounds = t.chunks + [len(t.messages)]
        for step in range(len(t.responses) + 1):
            out = ref.advance()
            ours = encode_messages(t.messages[bounds[step]:bounds[step + 1]])
            if out.data != ours:
                theirs = decode_messages(out.data)
                mine = t.messages[bounds[step]:bounds[step + 1]]
                k = next((i for i, (a, b) in enumerate(zip(theirs, mine)) if a != b), min(len(theirs), len(mine)))
                problems.append(f"step {step}: first difference at message {k}: reference "
                                f"{theirs[k] if k < len(theirs) else None} / ours {mine[k] if k < len(mine) else None}")
                break
            if step < len(t.responses):
                ref.set_responseb(t.responses[step])
        if not problems:
            # the counters as the query API reports them (QUERY_COUNTERS), every zone of the field
            flags = C_QUERY_CODE | C_QUERY_POSITION | C_QUERY_COUNTERS
            for p in (0, 1):
                for loc in (C.LOCATION_MZONE, C.LOCATION_SZONE):
                    mine = t.engine.query_field_card(p, loc, flags, False)
                    theirs = ref.query_field_card(p, loc, flags, False)
                    if mine != theirs:
                        problems.append(f"query of player {p} location {loc:#x}: reference {theirs.hex()} / "
                                        f"ours {mine.hex()}")
        problems += [f"reference script error: {e}" for e in core.errors[errors_before:]]
        return problems
    finally:
        ref.end()
        del core.script_source


def table_factory():
    """The body of the tests' ``table`` fixture: make Tables; afterwards replay each on the
    reference core when OCGCORE_LIB is set (a Table whose ``reference_difference`` names a
    deliberate difference must differ there)."""
    made: list[Table] = []

    def make(*snippets: str, **kw: Any) -> Table:
        t = Table(snippets, **kw)
        made.append(t)
        return t

    yield make
    try:
        lib = reference_library()
        if lib is not None:
            for t in made:
                if not t.responses:
                    continue
                problems = replay_on_reference(t, lib)
                if t.reference_difference:
                    assert problems, f"expected the reference to differ: {t.reference_difference}"
                else:
                    assert problems == []
    finally:
        for t in made:
            t.close()

