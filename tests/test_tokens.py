"""The tokens guide, played through the host API with our own bundled cards.

Every row of the guide's "Try These Cases" table and every case of its batch
example is a test here (docs/tokens.md lists which test proves which
statement).  The cards are in cards/tokens.toml and scripts/c1900030*.lua:

    190003001 Lantern Summons          the one-Token Spell (Lantern Token 190003002, 500/500 DARK Fiend)
    190003003 Lantern Summons: Stance  the same Spell with Duel.SelectPosition
    190003010 Lantern Procession       up to 3 Procession Tokens, asking to continue
    190003020 Lantern Flock            exactly 3 Flock Tokens in Defense, unable to be Tributed
    190003030 Crowding Lanterns        Trap: 1 Crowd Token on the opponent's field
    190003040 Lantern Curfew           Continuous Trap: the opponent cannot Special Summon DARK Tokens
    190003041 Narrow Lanes             Continuous Spell: no Token while 3 or fewer zones are unused
    190003050 Single File Decree       Continuous Spell: the effect code 59822133
    190003060 Shuttered Lanterns       Continuous Trap: the opponent's two leftmost Monster Zones are disabled

``Board`` sets up a duel (``duelhost.Duel``) on player 0's first Main Phase and
plays it with a small policy: pass every chain unless told to chain a card,
first free zone, the lowest position offered, "no" to questions unless told.
With OCGCORE_LIB set, every Board duel is played again on the reference core
(same set-up calls, same answers) and must give the same message bytes.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from duelhost import Duel
from duelhost.bindings.host import LuaScriptHost
from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase, CardRecord
from duelhost.engine.messages import (Message, MsgChainEnd, MsgChaining, MsgMove, MsgSelectCard, MsgSelectChain,
                                      MsgSelectIdleCmd,
                                      MsgSelectPlace, MsgSelectPosition, MsgSelectTribute, MsgSelectYesNo,
                                      MsgSpSummoned, MsgSpSummoning)
from duelhost.engine.messages import decode_messages, encode_messages
from duelhost.engine.responses import (CardsResponse, ChainResponse, IdleCmdResponse, PlaceResponse,
                                       PositionResponse, Response, YesNoResponse, Zone, encode_response)

REPO = Path(__file__).resolve().parent.parent

LANTERN_SUMMONS = 190003001
LANTERN_TOKEN = 190003002
STANCE = 190003003
PROCESSION = 190003010
PROCESSION_TOKEN = 190003011
FLOCK = 190003020
FLOCK_TOKENS = (190003021, 190003022, 190003023)
CROWDING = 190003030
CROWD_TOKEN = 190003031
CURFEW = 190003040
NARROW_LANES = 190003041
SINGLE_FILE = 190003050
SHUTTERED = 190003060

OPERATOR = 991001          # the Duel library tests' snippet runner (tests/data/lib_duel_a/c991001.lua)
OPERATOR_DIR = REPO / "tests" / "data" / "lib_duel_a"

FILLER = 190000008          # Normal Monster, Level 4 (the Decks and the monsters that fill zones)
LEVEL5 = 190000014          # Normal Monster, Level 5 (needs one Tribute)

Policy = Callable[[Message], "Response | None"]

BOARDS: list["Board"] = []
"""The Boards of the running test (replayed on the reference core afterwards, see below)."""


class Board:
    """A duel between two players with 10-card Decks and no opening hand, ready
    to be set up by hand; ``start()`` runs to player 0's first Main Phase."""

    def __init__(self, *, db: Any = None, scripts: Any = None, filler: int = FILLER, seed: int = 1,
                 lua: bool = False) -> None:
        """``lua``: also give player 0 the Duel library tests' operator card (banished, with an
        Ignition Effect that runs a Lua snippet: ``run_lua``; ``plain`` runs one as a condition)."""
        folder = Path(scripts) if scripts else REPO / "scripts"
        db = db if db is not None else REPO / "cards.db"
        if lua:
            base = db if isinstance(db, CardDatabase) else CardDatabase.open(db)
            operator = CardRecord(code=OPERATOR, type=C.TYPE_MONSTER | C.TYPE_EFFECT, level=4, name="operator")
            db = CardDatabase.from_records([*base, operator], source="cards.db + the test operator")
            self._tmp = tempfile.TemporaryDirectory(prefix="duelhost-tokens-")
            combined = Path(self._tmp.name)
            for f in [*folder.iterdir(), OPERATOR_DIR / f"c{OPERATOR}.lua"]:
                if f.suffix == ".lua":
                    shutil.copyfile(f, combined / f.name)   # copies: a symlink out of the folder is refused
            folder = combined
        self.db, self.scripts = db, folder
        self.duel = Duel(db=db, scripts=folder, seed=seed,
                         script_host=LuaScriptHost(folder, strict=True) if lua else None)
        self.filler = filler
        self.setup: list[tuple] = []           # what the reference's set-up calls would be
        self.responses: list[bytes] = []       # every answer, as bytes
        self.chunks: list[int] = []            # where each step's messages start
        # the reference's API can express the set-up and the answers (not the snippets given to the
        # operator from Python, nor Xyz Materials put under a card by hand)
        self.replayable = not lua
        for p in (0, 1):
            self.duel.set_player(p, start_hand=0)
            self.setup.append(("player", p, 8000, 0, 1))
            for _ in range(10):
                self.add(filler, p, C.LOCATION_DECK, 0, C.POS_FACEDOWN_DEFENSE)
        self.operator = self.add(OPERATOR, 0, C.LOCATION_REMOVED, 0, C.POS_FACEUP) if lua else None
        self.prompts: list[Message] = []
        # per player, what to chain when offered, once each: a code, or (code, after) to chain
        # ``code`` only in response to an effect of ``after`` already on the chain
        self.chain_once: dict[int, list[int | tuple[int, int]]] = {0: [], 1: []}
        BOARDS.append(self)

    # ----- set-up ------------------------------------------------------------------------

    def add(self, code: int, player: int, location: int, seq: int, pos: int):
        card = self.duel.add_card(code, player, location, seq, pos)
        self.setup.append(("card", code, player, player, location, seq, pos))
        return card

    def hand(self, code: int, player: int = 0):
        return self.add(code, player, C.LOCATION_HAND, 0, C.POS_FACEDOWN_DEFENSE)

    def monster(self, code: int | None = None, player: int = 0, seq: int = 0,
                pos: int = C.POS_FACEUP_ATTACK):
        return self.add(code or self.filler, player, C.LOCATION_MZONE, seq, pos)

    def fill(self, count: int, player: int = 0, start: int = 0) -> list:
        return [self.monster(player=player, seq=s) for s in range(start, start + count)]

    def spell(self, code: int, player: int = 0, seq: int = 0, facedown: bool = False):
        """A Spell/Trap in a Spell & Trap Zone: face-up (its continuous effects apply) or Set."""
        return self.add(code, player, C.LOCATION_SZONE, seq, C.POS_FACEDOWN if facedown else C.POS_FACEUP)

    def start(self) -> MsgSelectIdleCmd:
        self.duel.start()
        self.chunks.append(0)
        req = self.play()
        assert isinstance(req, MsgSelectIdleCmd) and req.player == 0
        return req

    # ----- playing ------------------------------------------------------------------------

    @property
    def engine(self):
        return self.duel.engine

    def idle(self) -> MsgSelectIdleCmd:
        req = self.duel.request
        assert isinstance(req, MsgSelectIdleCmd), req
        return req

    def activatable(self) -> list[int]:
        return [opt.code for opt in self.idle().activatable]

    def activate(self, code: int, policy: Policy | None = None, *, chain: Iterable[tuple[int, int]] = ()
                 ) -> Message | None:
        """Activate ``code`` from player 0's idle menu, then play until the next idle
        menu. ``chain``: (player, code) pairs to chain when offered, once each (see
        ``chain_once``)."""
        idle = self.idle()
        codes = [opt.code for opt in idle.activatable]
        assert code in codes, f"{code} cannot be activated: {codes}"
        for player, c in chain:
            self.chain_once[player].append(c)
        self.respond(IdleCmdResponse(command=5, index=codes.index(code)))
        return self.play(policy)

    def summon(self, code: int, policy: Policy | None = None) -> Message | None:
        idle = self.idle()
        codes = [info.code for info in idle.summonable]
        assert code in codes, f"{code} cannot be Normal Summoned: {codes}"
        self.respond(IdleCmdResponse(command=0, index=codes.index(code)))
        return self.play(policy)

    def respond(self, response: Response) -> Message | None:
        raw = encode_response(self.duel.advance(), response)
        self.chunks.append(len(self.duel.messages))
        self.responses.append(raw)
        return self.duel.respond(raw)

    def play(self, policy: Policy | None = None) -> Message | None:
        """Answer every prompt until the next idle menu (returned)."""
        req = self.duel.advance()
        while req is not None and not isinstance(req, MsgSelectIdleCmd):
            self.prompts.append(req)
            assert len(self.prompts) < 500, f"prompt loop at {req}"
            answer = policy(req) if policy is not None else None
            req = self.respond(answer if answer is not None else self.default(req))
        return req

    def default(self, req: Message) -> Response:
        if isinstance(req, MsgSelectChain):
            wanted = self.chain_once[req.player]
            on_chain = self.on_chain()
            for i, opt in enumerate(req.chains):
                for w in wanted:
                    code, after = w if isinstance(w, tuple) else (w, None)
                    if opt.code == code and (after is None or after in on_chain):
                        wanted.remove(w)
                        return ChainResponse(index=i)
            return ChainResponse(index=None)
        if isinstance(req, MsgSelectPlace):
            return PlaceResponse(zones=(first_free_zone(req),))
        if isinstance(req, MsgSelectPosition):
            return PositionResponse(position=req.positions & -req.positions)
        if isinstance(req, MsgSelectYesNo):
            return YesNoResponse(yes=False)
        if isinstance(req, (MsgSelectTribute, MsgSelectCard)):
            return CardsResponse(indices=tuple(range(req.min)))
        raise AssertionError(f"the test gives no answer to {req}")

    def run_lua(self, src: str, policy: Policy | None = None) -> tuple:
        """Activate the operator's effect from the idle menu with ``src`` as its operation
        (it gets ``e, tp, ...``); play to the next idle menu; what the snippet returned."""
        host = self.duel.script_host
        host.call_card_function(self.operator, "define", src)
        self.activate(OPERATOR, policy)
        return tuple(host.call_card_function(self.operator, "results"))

    def plain(self, src: str, *args: Any) -> tuple:
        """Run ``src`` as a plain call (a condition's context: no actions)."""
        return tuple(self.duel.script_host.call_card_function(self.operator, "plain", src, *args))

    # ----- looking ------------------------------------------------------------------------

    def on_chain(self) -> list[int]:
        """Codes of the cards whose effects are on the chain being built."""
        codes: list[int] = []
        for m in self.duel.messages:
            if isinstance(m, MsgChainEnd):
                codes = []
            elif isinstance(m, MsgChaining):
                codes.append(m.code)
        return codes

    def monsters(self, player: int = 0) -> list:
        return [c for c in self.engine.player[player].list_mzone if c is not None]

    def codes_on_field(self, player: int = 0) -> list[int]:
        return [c.data.code for c in self.monsters(player)]

    def asked(self, kind: type) -> list:
        return [p for p in self.prompts if isinstance(p, kind)]

    def messages(self, kind: type) -> list:
        return [m for m in self.duel.messages if isinstance(m, kind)]


def first_free_zone(req: MsgSelectPlace) -> Zone:
    for side, player in ((0, req.player), (16, 1 - req.player)):
        for shift, location in ((0, C.LOCATION_MZONE), (8, C.LOCATION_SZONE)):
            for s in range(8):
                if not req.flag & (1 << (s + shift + side)):
                    return Zone(player=player, location=location, sequence=s)
    raise AssertionError(f"no free zone in {req}")


def answer_yes_no(*answers: bool) -> Policy:
    """Answer the SELECT_YESNO prompts with ``answers`` in order (then fail)."""
    queue = list(answers)

    def policy(req: Message) -> Response | None:
        if isinstance(req, MsgSelectYesNo):
            assert queue, f"asked once more than expected: {req}"
            return YesNoResponse(yes=queue.pop(0))
        return None
    return policy


def choose_position(position: int) -> Policy:
    def policy(req: Message) -> Response | None:
        if isinstance(req, MsgSelectPosition):
            return PositionResponse(position=position)
        return None
    return policy


def no_card_of(board: Board, code: int) -> bool:
    """No card of ``code`` was ever created in the duel."""
    return all(c.data.code != code for c in board.engine.cards)


# ----- the same duels on the reference core ---------------------------------------------------

def replay_on_reference(board: Board, lib: Path) -> list[str]:
    """Play ``board``'s set-up and answers on the reference core (duelhost.reference): the
    first step whose message bytes differ, and the reference's script errors; empty when
    every byte is the same."""
    from duelhost.reference import ReferenceCore
    core = ReferenceCore.load(lib, db=board.db, scripts=board.scripts)
    errors_before = len(core.errors)
    ref = core.create_duel(board.duel.seed_sequence)
    problems: list[str] = []
    try:
        for item in board.setup:
            if item[0] == "player":
                ref.set_player_info(*item[1:])
            else:
                ref.new_card(*item[1:])
        ref.start(board.duel.options)
        messages = board.duel.messages
        bounds = board.chunks + [len(messages)]
        for step in range(len(board.responses) + 1):
            out = ref.advance()
            mine = messages[bounds[step]:bounds[step + 1]]
            if out.data != encode_messages(mine):
                theirs = decode_messages(out.data)
                k = next((i for i, (a, b) in enumerate(zip(theirs, mine)) if a != b), min(len(theirs), len(mine)))
                problems.append(f"step {step}: first difference at message {k}: reference "
                                f"{theirs[k] if k < len(theirs) else None} / ours {mine[k] if k < len(mine) else None}")
                break
            if step < len(board.responses):
                ref.set_responseb(board.responses[step])
        problems += [f"reference script error: {e}" for e in core.errors[errors_before:]]
        return problems
    finally:
        ref.end()


@pytest.fixture(autouse=True)
def same_on_reference():
    """With OCGCORE_LIB naming a build of the reference core, every duel a test played is
    played again there with the same set-up and answers; every message byte must match."""
    BOARDS.clear()
    yield
    boards = [b for b in BOARDS if b.replayable and b.chunks]
    BOARDS.clear()
    lib = os.environ.get("OCGCORE_LIB")
    if not lib or not Path(lib).is_file():
        return
    for b in boards:
        problems = replay_on_reference(b, Path(lib))
        assert problems == [], "\n".join(problems)


# =====================================================================================
# The one-Token Spell: "Try These Cases"
# =====================================================================================

def test_one_token_spell_summons_the_database_token():
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.start()
    b.activate(LANTERN_SUMMONS)
    (token,) = b.monsters()
    assert token.data.code == LANTERN_TOKEN
    assert token.get_type() == C.TYPES_TOKEN_MONSTER
    assert (token.get_attack(), token.get_defense(), token.get_level()) == (500, 500, 1)
    assert (token.get_race(), token.get_attribute()) == (C.RACE_FIEND, C.ATTRIBUTE_DARK)
    assert len(b.messages(MsgSpSummoned)) == 1


def test_row_no_usable_zone_at_activation_the_spell_cannot_be_activated():
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.fill(5)
    b.start()
    assert LANTERN_SUMMONS not in b.activatable()
    # the same card can still be Set: only its activation is refused
    assert LANTERN_SUMMONS in [i.code for i in b.idle().spell_settable]


def test_row_no_usable_zone_counts_zones_other_effects_disable():
    # Shuttered Lanterns (player 1) disables player 0's zones 0 and 1: three monsters fill the rest
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.spell(SHUTTERED, player=1)
    b.fill(3, start=2)
    b.start()
    assert b.engine.player[0].disabled_location & 0x3 == 0x3
    assert LANTERN_SUMMONS not in b.activatable()


def test_disabled_zones_leave_one_zone_and_the_token_goes_there():
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.spell(SHUTTERED, player=1)
    b.fill(2, start=2)
    b.start()
    b.activate(LANTERN_SUMMONS)
    place = [p for p in b.asked(MsgSelectPlace) if p.player == 0 and p.flag & 0xff != 0xff][-1]
    assert place.flag & 0x1f == 0b01111        # only zone 4 may be chosen
    assert b.engine.player[0].list_mzone[4].data.code == LANTERN_TOKEN


def test_row_last_zone_filled_by_a_chained_effect_resolution_creates_no_token():
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.fill(4)
    b.spell(CROWDING, player=1, facedown=True)
    b.start()
    assert LANTERN_SUMMONS in b.activatable()
    b.activate(LANTERN_SUMMONS, chain=[(1, CROWDING)])
    # the Trap could be activated with the Spell on the chain: its check passed, and
    # the Spell's successful check had reserved nothing
    offers = [p for p in b.asked(MsgSelectChain) if p.player == 1 and p.chains]
    assert offers and offers[0].chains[0].code == CROWDING
    assert sorted(b.codes_on_field(0)) == sorted([FILLER] * 4 + [CROWD_TOKEN])
    assert no_card_of(b, LANTERN_TOKEN)
    assert [m.code for m in b.messages(MsgSpSummoning)] == [CROWD_TOKEN]


def test_row_player_restriction_the_activation_check_rejects():
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.hand(FLOCK)
    b.spell(CURFEW, player=1)
    b.start()
    # Lantern Curfew forbids DARK Tokens: the DARK Lantern Token is refused, the EARTH Flock Tokens are not
    assert LANTERN_SUMMONS not in b.activatable()
    assert FLOCK in b.activatable()


def test_row_player_restriction_imposed_by_a_chained_effect_the_resolution_check_rejects():
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.spell(CURFEW, player=1, facedown=True)
    b.start()
    b.activate(LANTERN_SUMMONS, chain=[(1, CURFEW)])
    assert b.engine.player[1].list_szone[0].is_position(C.POS_FACEUP)    # the Curfew resolved first
    assert b.monsters(0) == []
    assert no_card_of(b, LANTERN_TOKEN)


def test_restriction_is_checked_again_by_the_summon_itself():
    # the Curfew also stops Lantern Procession's Tokens: its checks reject before any step
    b = Board()
    b.hand(PROCESSION)
    b.spell(CURFEW, player=1, facedown=True)
    b.start()
    b.activate(PROCESSION, chain=[(1, CURFEW)])
    assert b.monsters(0) == [] and no_card_of(b, PROCESSION_TOKEN)


@pytest.mark.parametrize("position", [C.POS_FACEUP_ATTACK, C.POS_FACEUP_DEFENSE])
def test_row_both_faceup_positions_legal_the_player_chooses(position):
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.start()
    b.activate(LANTERN_SUMMONS, choose_position(position))
    (asked,) = b.asked(MsgSelectPosition)
    assert asked.player == 0 and asked.code == LANTERN_TOKEN
    assert asked.positions == C.POS_FACEUP_ATTACK | C.POS_FACEUP_DEFENSE
    (token,) = b.monsters()
    assert token.current.position == position


def test_pos_faceup_defense_forces_defense_and_asks_nothing():
    b = Board()
    b.hand(FLOCK)
    b.start()
    b.activate(FLOCK)
    assert b.asked(MsgSelectPosition) == []
    assert [t.current.position for t in b.monsters()] == [C.POS_FACEUP_DEFENSE] * 3


def test_row_wrong_database_row_the_created_card_follows_the_database(tmp_path):
    # the Spell's checks still say 500/500 Level 1 Fiend DARK; the row now says otherwise
    db = tmp_path / "cards.db"
    shutil.copy(REPO / "cards.db", db)
    con = sqlite3.connect(db)
    con.execute("UPDATE datas SET atk=1500, def=100, level=3, race=?, attribute=? WHERE id=?",
                (C.RACE_WARRIOR, C.ATTRIBUTE_LIGHT, LANTERN_TOKEN))
    con.commit()
    con.close()
    b = Board(db=db)
    b.hand(LANTERN_SUMMONS)
    b.start()
    b.activate(LANTERN_SUMMONS)
    (token,) = b.monsters()
    assert (token.get_attack(), token.get_defense(), token.get_level()) == (1500, 100, 3)
    assert (token.get_race(), token.get_attribute()) == (C.RACE_WARRIOR, C.ATTRIBUTE_LIGHT)


def test_the_chk0_branch_runs_whenever_the_engine_looks_for_actions():
    # the guide: keep choices out of chk==0, it may run many times.  A restriction that
    # refuses nothing counts how often the Spell's permission check ran
    b = Board(lua=True)
    b.hand(LANTERN_SUMMONS)
    b.start()
    b.run_lua("""
        checks = 0
        local e1 = Effect.GlobalEffect()
        e1:SetType(EFFECT_TYPE_FIELD)
        e1:SetCode(EFFECT_CANNOT_SPECIAL_SUMMON)
        e1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        e1:SetTargetRange(1, 1)
        e1:SetTarget(function(e, c) if c:IsCode(%d) then checks = checks + 1 end return false end)
        Duel.RegisterEffect(e1, 0)
    """ % LANTERN_TOKEN)
    after_one_menu = b.plain("return checks")[0]
    b.run_lua("")
    after_two_menus = b.plain("return checks")[0]
    assert 0 < after_one_menu < after_two_menus
    b.activate(LANTERN_SUMMONS)
    # the check ran again at activation and at resolution; the player was asked once
    assert b.plain("return checks")[0] >= after_two_menus + 2
    assert len(b.asked(MsgSelectPosition)) == 1 and b.codes_on_field() == [LANTERN_TOKEN]


# =====================================================================================
# Duel.SelectPosition: the explicit choice
# =====================================================================================

@pytest.mark.parametrize("position", [C.POS_FACEUP_ATTACK, C.POS_FACEUP_DEFENSE])
def test_select_position_asks_about_the_created_token_and_the_summon_uses_the_answer(position):
    b = Board()
    b.hand(STANCE)
    b.start()
    b.activate(STANCE, choose_position(position))
    # one question (from Duel.SelectPosition); the Summon with one position asks nothing more
    (asked,) = b.asked(MsgSelectPosition)
    assert asked.code == LANTERN_TOKEN and asked.positions == C.POS_FACEUP_ATTACK | C.POS_FACEUP_DEFENSE
    (token,) = b.monsters()
    assert token.data.code == LANTERN_TOKEN and token.current.position == position


# =====================================================================================
# The batch: "up to" a number, continue or stop
# =====================================================================================

def test_batch_stop_after_one():
    b = Board()
    b.hand(PROCESSION)
    b.start()
    b.activate(PROCESSION, answer_yes_no(False))
    assert b.codes_on_field() == [PROCESSION_TOKEN]
    assert len(b.asked(MsgSelectYesNo)) == 1
    assert len(b.messages(MsgSpSummoned)) == 1


def test_batch_accept_every_offer_never_asks_beyond_the_legal_count():
    b = Board()
    b.hand(PROCESSION)
    b.start()
    b.activate(PROCESSION, answer_yes_no(True, True))
    assert b.codes_on_field() == [PROCESSION_TOKEN] * 3
    questions = b.asked(MsgSelectYesNo)
    assert len(questions) == 2                       # before the 2nd and the 3rd Token, not after the 3rd
    # aux.Stringid(id, 0), narrowed to 32 bits as the reference's SelectYesNo does (our 9-digit
    # codes are above 2^28, so the description does not map back to the card: see docs/tokens.md)
    assert all(q.description == (PROCESSION * 16) & 0xFFFFFFFF for q in questions)
    # the whole group is Summoned together: one SPSUMMONED after the three SPSUMMONINGs
    tail = [m for m in b.duel.messages if isinstance(m, (MsgSpSummoning, MsgSpSummoned))]
    assert [type(m) for m in tail] == [MsgSpSummoning] * 3 + [MsgSpSummoned]


def test_batch_bounded_by_zones_asks_no_more_than_the_free_zones_allow():
    b = Board()
    b.hand(PROCESSION)
    b.fill(3)
    b.start()
    b.activate(PROCESSION, answer_yes_no(True))
    assert b.codes_on_field().count(PROCESSION_TOKEN) == 2
    assert len(b.asked(MsgSelectYesNo)) == 1


def test_batch_one_available_zone_one_token_and_no_question():
    b = Board()
    b.hand(PROCESSION)
    b.fill(4)
    b.start()
    b.activate(PROCESSION)
    assert b.codes_on_field().count(PROCESSION_TOKEN) == 1
    assert b.asked(MsgSelectYesNo) == []
    assert len(b.messages(MsgSpSummoned)) == 1


def test_batch_failed_step_still_completes_once():
    # Narrow Lanes: no Token while 3 or fewer zones are unused.  Two steps pass (5, then 4
    # unused zones); after them 3 are unused, the third step is refused
    # (SpecialSummonStep returns false) and the loop stops
    b = Board()
    b.hand(PROCESSION)
    b.spell(NARROW_LANES, player=1)
    b.start()
    b.activate(PROCESSION, answer_yes_no(True, True))
    assert b.codes_on_field() == [PROCESSION_TOKEN] * 2
    assert len(b.asked(MsgSelectYesNo)) == 2          # no question after the failed step
    assert len(b.messages(MsgSpSummoning)) == 2 and len(b.messages(MsgSpSummoned)) == 1
    # the failed Token was created but never placed
    tokens = [c for c in b.engine.cards if c.data.code == PROCESSION_TOKEN]
    assert len(tokens) == 3 and sorted(t.current.location for t in tokens) == [0, C.LOCATION_MZONE, C.LOCATION_MZONE]
    # the Summoned Tokens are complete (no longer in the middle of a step) and the duel goes on
    assert not any(t.is_status(C.STATUS_SPSUMMON_STEP) for t in b.monsters())
    assert isinstance(b.duel.request, MsgSelectIdleCmd)


def test_batch_59822133_limits_to_one_and_asks_nothing():
    b = Board()
    b.hand(PROCESSION)
    b.spell(SINGLE_FILE, player=1)
    b.start()
    b.activate(PROCESSION)
    assert b.codes_on_field() == [PROCESSION_TOKEN]
    assert b.asked(MsgSelectYesNo) == []


# =====================================================================================
# The exact-count batch (Scapegoat pattern)
# =====================================================================================

def test_exact_count_batch_summons_the_group_once_with_per_token_restrictions():
    b = Board()
    b.hand(FLOCK)
    b.hand(LEVEL5)
    b.start()
    b.activate(FLOCK)
    tokens = b.monsters()
    assert [t.data.code for t in tokens] == list(FLOCK_TOKENS)
    assert all(t.current.position == C.POS_FACEUP_DEFENSE for t in tokens)
    assert len(b.messages(MsgSpSummoning)) == 3 and len(b.messages(MsgSpSummoned)) == 1
    # each Token got its own "cannot be Tributed for a Tribute Summon" between its step and the completion
    assert all(t.is_affected_by_effect(C.EFFECT_UNRELEASABLE_SUM) for t in tokens)
    assert LEVEL5 not in [i.code for i in b.idle().summonable]


def test_exact_count_batch_needs_every_zone_at_activation():
    b = Board()
    b.hand(FLOCK)
    b.fill(3)
    b.start()
    assert FLOCK not in b.activatable()


def test_exact_count_batch_refused_under_59822133():
    b = Board()
    b.hand(FLOCK)
    b.spell(SINGLE_FILE, player=1)
    b.start()
    assert FLOCK not in b.activatable()


def test_tributing_an_ordinary_token_is_allowed():
    # the restriction is the Flock's own, not a rule of Tokens: a Lantern Token can be Tributed
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.hand(LEVEL5)
    b.start()
    b.activate(LANTERN_SUMMONS)
    b.summon(LEVEL5)
    assert b.codes_on_field() == [LEVEL5]
    assert no_card_of(b, LANTERN_TOKEN) is False
    token = next(c for c in b.engine.cards if c.data.code == LANTERN_TOKEN)
    assert token.current.location == 0                # Tributed: it ceased to exist
    moves = [m for m in b.messages(MsgMove) if m.code == LANTERN_TOKEN]
    assert moves[-1].current.location == 0


# =====================================================================================
# Tokens leave the field and cease to exist
# =====================================================================================

def test_a_token_that_leaves_the_field_is_not_in_any_pile():
    b = Board()
    b.hand(LANTERN_SUMMONS)
    b.hand(LEVEL5)
    b.start()
    b.activate(LANTERN_SUMMONS)
    b.summon(LEVEL5)
    p = b.engine.player[0]
    assert all(c.data.code != LANTERN_TOKEN for c in p.list_grave + p.list_remove + p.list_hand + p.list_main)
