"""A small driver for the rules scenario tests (tests/test_rules_*.py).

``Board`` builds a duel with the bundled cards.db and scripts (our rules
cards, cards/rules.toml) through the host API, with a strict script host (a
script error fails the test), no opening hands and 10-card Decks of a Normal
Monster, so each test places exactly the cards it is about.  It then plays the
duel with a simple policy that a test can override prompt by prompt:

* ``b.expect(kind, answer, player=, when=)`` queues an answer for the next
  prompt of that class (asked of that player, for which ``when(prompt)`` holds);
  ``answer`` is a Response, or ``f(prompt) -> Response``; each prompt takes the
  first queued answer that fits it, and a test can check ``b.pending`` is empty
  at the end;
* ``b.chain(player, code)`` chains that card's effect the next time it is
  offered to that player;
* otherwise: pass every chain (take a forced one), "yes" to "use the effect?",
  "no" to other questions, the first cards of a selection, the first free
  zone, face-up Attack Position.

Every prompt met is kept in ``b.prompts`` (with who was asked), every message
in ``b.duel.messages``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from duelhost import Duel
from duelhost.bindings.host import LuaScriptHost
from duelhost import paths
from duelhost.engine import constants as C
from duelhost.engine.messages import (Message, MsgAnnounceNumber, MsgSelectBattleCmd, MsgSelectCard,
                                      MsgSelectChain, MsgSelectEffectYn, MsgSelectIdleCmd,
                                      MsgSelectOption, MsgSelectPlace, MsgSelectPosition,
                                      MsgSelectTribute, MsgSelectUnselectCard, MsgSelectYesNo,
                                      MsgSortCard, Prompt)
from duelhost.engine.responses import (AnnounceNumberResponse, BattleCmdResponse, CardsResponse,
                                       ChainResponse, IdleCmdResponse, OptionResponse, PlaceResponse,
                                       PositionResponse, Response, SortResponse, UnselectCardResponse,
                                       YesNoResponse, Zone)

# --- the rules cards (cards/rules.toml) ---------------------------------------------------
CLERK, BAILIFF, JUROR, MAGISTRATE, HIGH_JUDGE, SPRINTER = (190001001, 190001002, 190001003,
                                                           190001004, 190001005, 190001006)
SPARK_BOLT, QUICK_MEND, SNARE_PIT, REBUKE, HUSH, ECHO_CHAMBER = (190001010, 190001011, 190001012,
                                                                 190001013, 190001014, 190001015)
SCRIBE, SENTINEL, HERALD, SEEDLING, SAPLING, WATCHMAN, TOLL_GATE = (190001020, 190001021, 190001022,
                                                                   190001023, 190001024, 190001025,
                                                                   190001026)
ARCHIVIST, LEDGER, TALLY, OATH = 190001030, 190001031, 190001032, 190001033
BRIEF_SURGE, LASTING_SURGE, STEADFAST_VERDICT, TITHE_COLLECTOR = 190001041, 190001042, 190001043, 190001044
MARK_OF_THE_HUNTED, SECOND_WIND, GRAVE_CENSUS, SIGNAL_FLARE, FLARE_WATCHER = (190001045, 190001046,
                                                                               190001047, 190001048,
                                                                               190001049)
RALLY_BANNER, SUDDEN_WEAKNESS, RECALIBRATE, MIRROR_STANCE = 190001050, 190001051, 190001052, 190001053
MIMIC, LEVEL_LADDER, GATEKEEPER, SILENCE_DECREE = 190001054, 190001055, 190001056, 190001057
BULWARK, STOIC, SURVIVOR, ASCETIC, SILENCE_SEAL, MARTYR, IRON_GAUNTLET = (190001058, 190001059,
                                                                          190001060, 190001061,
                                                                          190001062, 190001063,
                                                                          190001064)
SCOUTS_REPORT, RECALL_ORDER, DEEP_BURIAL, EXILE_GATE, TRIBUTE_ALTAR = (190001070, 190001071, 190001072,
                                                                       190001073, 190001074)
BORROWED_BLADE, POSTURE_SHIFT, BANNER_BEARER, REVIVAL_RITE, BLOOD_PACT = (190001075, 190001076, 190001077,
                                                                      190001078, 190001079)
CARD_SHREDDER, OPEN_HAND = 190001080, 190001081
PHANTOM, LANCER, DECOY_SHIFT, VANISHING_ACT, ALARM_BELL = (190001090, 190001091, 190001092,
                                                           190001093, 190001094)
VICTOR, RAIDER, HOURGLASS, STALL_ORDER = 190001095, 190001096, 190001097, 190001098

FILLER = CLERK

IDLE_SUMMON, IDLE_SPSUMMON, IDLE_REPOS, IDLE_MSET, IDLE_SSET, IDLE_ACTIVATE = 0, 1, 2, 3, 4, 5
IDLE_BATTLE, IDLE_END = 6, 7
BATTLE_ACTIVATE, BATTLE_ATTACK, BATTLE_MAIN2, BATTLE_END = 0, 1, 2, 3

Answer = "Response | Callable[[Prompt], Response]"


def pick(*codes: int) -> Callable[[Prompt], Response]:
    """An answer choosing the offered cards with these codes (for SELECT_CARD/TRIBUTE)."""
    def answer(req: Prompt) -> Response:
        assert isinstance(req, (MsgSelectCard, MsgSelectTribute)), req
        chosen: list[int] = []
        for code in codes:
            i = next((i for i, c in enumerate(req.cards) if c.code == code and i not in chosen), None)
            assert i is not None, f"{code} is not offered in {req}"
            chosen.append(i)
        return CardsResponse(indices=tuple(chosen))
    return answer


def pick_card(card: Any) -> Callable[[Prompt], Response]:
    """An answer choosing one particular engine card (by its place) in SELECT_CARD."""
    def answer(req: Prompt) -> Response:
        assert isinstance(req, (MsgSelectCard, MsgSelectTribute)), req
        loc = card.current
        for i, c in enumerate(req.cards):
            li = c.location
            if (c.code == card.data.code and li.controller == loc.controler and li.location == loc.location
                    and li.sequence == loc.sequence):
                return CardsResponse(indices=(i,))
        raise AssertionError(f"{card.data.code} at {loc.location}/{loc.sequence} is not offered in {req}")
    return answer


class Board:
    """A duel set up by hand, played by the test (see the module docstring)."""

    def __init__(self, *, seed: int = 1, deck: int = FILLER, deck_size: int = 10, strict: bool = True,
                 lp: int = 8000) -> None:
        host = LuaScriptHost(paths.bundled_scripts(), strict=strict)
        self.duel = Duel(seed=seed, script_host=host)
        for p in (0, 1):
            self.duel.set_player(p, lp=lp, start_hand=0)
            self.duel.add_deck(p, [deck] * deck_size)
        self.prompts: list[Prompt] = []
        self.pending: list[tuple[type, Any]] = []
        self.to_chain: list[tuple[int, int]] = []
        self.trace = False

    # ----- set-up (before start) ----------------------------------------------------------
    def hand(self, code: int, player: int = 0):
        return self.duel.add_card(code, player, C.LOCATION_HAND)

    def monster(self, code: int, player: int = 0, seq: int = 0, pos: int = C.POS_FACEUP_ATTACK):
        return self.duel.add_card(code, player, C.LOCATION_MZONE, seq, pos)

    def spell(self, code: int, player: int = 0, seq: int = 0, *, set_: bool = False):
        """A Spell/Trap in a zone: face-up (applying) or Set (``set_``)."""
        return self.duel.add_card(code, player, C.LOCATION_SZONE, seq,
                                  C.POS_FACEDOWN if set_ else C.POS_FACEUP)

    def grave(self, code: int, player: int = 0):
        return self.duel.add_card(code, player, C.LOCATION_GRAVE, 0, C.POS_FACEUP)

    def deck_top(self, code: int, player: int = 0):
        return self.duel.add_card(code, player, C.LOCATION_DECK, 0)

    def start(self) -> Prompt:
        """Start the duel and play to player 0's first Main Phase (turn 1)."""
        self.duel.start()
        req = self.run()
        assert isinstance(req, MsgSelectIdleCmd) and req.player == 0, req
        return req

    # ----- answers --------------------------------------------------------------------
    def expect(self, kind: type, answer: Any, *, player: int | None = None,
               when: Callable[[Prompt], bool] | None = None) -> Board:
        """Answer the next prompt of class ``kind`` (asked of ``player``, matching ``when``)."""
        self.pending.append((kind, answer, player, when))
        return self

    def _match(self, req: Prompt) -> int | None:
        """The index of the first queued answer that fits ``req``."""
        for i, (kind, _, player, when) in enumerate(self.pending):
            if isinstance(req, kind) and (player is None or req.player == player) and (when is None or when(req)):
                return i
        return None

    def _queued(self, req: Prompt) -> bool:
        return self._match(req) is not None

    def chain(self, player: int, code: int) -> Board:
        self.to_chain.append((player, code))
        return self

    def default(self, req: Prompt) -> Response:
        if isinstance(req, MsgSelectChain):
            for i, opt in enumerate(req.chains):
                if (req.player, opt.code) in self.to_chain:
                    self.to_chain.remove((req.player, opt.code))
                    return ChainResponse(index=i)
            if req.has_forced:
                return ChainResponse(index=next(i for i, o in enumerate(req.chains) if o.forced))
            return ChainResponse(index=None)
        if isinstance(req, MsgSelectEffectYn):
            return YesNoResponse(yes=True)
        if isinstance(req, MsgSelectYesNo):
            return YesNoResponse(yes=False)
        if isinstance(req, (MsgSelectCard, MsgSelectTribute)):
            return CardsResponse(indices=tuple(range(req.min)))
        if isinstance(req, MsgSelectUnselectCard):
            if req.finishable or req.cancelable:
                return UnselectCardResponse(index=None)
            return UnselectCardResponse(index=0)
        if isinstance(req, MsgSelectPlace):
            return PlaceResponse(zones=(first_free_zone(req),))
        if isinstance(req, MsgSelectPosition):
            return PositionResponse(position=req.positions & -req.positions)
        if isinstance(req, MsgSelectOption):
            return OptionResponse(index=0)
        if isinstance(req, MsgAnnounceNumber):
            return AnnounceNumberResponse(index=0)
        if isinstance(req, MsgSortCard):
            return SortResponse(order=None)
        raise AssertionError(f"the test gives no answer to {req.describe(self.duel.card_name)}")

    def answer_for(self, req: Prompt) -> Response:
        i = self._match(req)
        if i is not None:
            ans = self.pending.pop(i)[1]
            return ans(req) if callable(ans) else ans
        return self.default(req)

    # ----- running ----------------------------------------------------------------------
    def run(self, until: type | tuple[type, ...] = (), player: int | None = None) -> Prompt | None:
        """Answer prompts until a menu (idle/battle command) or a prompt of class ``until``
        (asked of ``player`` if given) that no queued answer is for; return it (None when
        the duel ended)."""
        req = self.duel.advance()
        while req is not None:
            queued = self._queued(req)
            if not queued and (isinstance(req, (MsgSelectIdleCmd, MsgSelectBattleCmd)) or (
                    isinstance(req, until) and (player is None or req.player == player))):
                return req
            self.prompts.append(req)
            assert len(self.prompts) < 2000, "prompt loop"
            answer = self.answer_for(req)
            if self.trace:
                print(req.describe(self.duel.card_name), "->", answer)
            req = self.duel.respond(answer)
        return None

    @property
    def request(self) -> Prompt | None:
        return self.duel.request

    def idle(self, player: int | None = None) -> MsgSelectIdleCmd:
        req = self.duel.request
        assert isinstance(req, MsgSelectIdleCmd), req
        if player is not None:
            assert req.player == player, req
        return req

    def _idle_do(self, command: int, code: int, lst: tuple) -> Prompt | None:
        codes = [getattr(c, "card_code", c.code) for c in lst]
        assert code in codes, f"{code} is not offered for command {command}: {codes}"
        self.duel.respond(IdleCmdResponse(command=command, index=codes.index(code)))
        return self.run()

    def activate(self, code: int) -> Prompt | None:
        """Activate ``code`` from the idle menu (first entry of that code), then play on."""
        return self._idle_do(IDLE_ACTIVATE, code, self.idle().activatable)

    def activate_at(self, code: int, description: int) -> Prompt | None:
        idle = self.idle()
        for i, o in enumerate(idle.activatable):
            if o.card_code == code and o.description == description:
                self.duel.respond(IdleCmdResponse(command=IDLE_ACTIVATE, index=i))
                return self.run()
        raise AssertionError(f"{code} with description {description} not offered")

    def summon(self, code: int) -> Prompt | None:
        return self._idle_do(IDLE_SUMMON, code, self.idle().summonable)

    def set_monster(self, code: int) -> Prompt | None:
        return self._idle_do(IDLE_MSET, code, self.idle().monster_settable)

    def set_spell(self, code: int) -> Prompt | None:
        return self._idle_do(IDLE_SSET, code, self.idle().spell_settable)

    def reposition(self, code: int) -> Prompt | None:
        return self._idle_do(IDLE_REPOS, code, self.idle().repositionable)

    def to_battle(self) -> Prompt | None:
        self.duel.respond(IdleCmdResponse(command=IDLE_BATTLE))
        return self.run()

    def end_turn(self) -> Prompt | None:
        """End Phase from the idle or battle menu; play on to the next menu."""
        req = self.duel.request
        if isinstance(req, MsgSelectBattleCmd):
            self.duel.respond(BattleCmdResponse(command=BATTLE_END))
        else:
            self.duel.respond(IdleCmdResponse(command=IDLE_END))
        return self.run()

    def pass_turn(self) -> Prompt | None:
        """End this turn and play to the next player's first menu of their Main Phase 1."""
        return self.end_turn()

    def skip_to_turn(self, turn: int) -> Prompt | None:
        """End turns (passing every prompt) until the Main Phase 1 of turn ``turn``."""
        req = self.duel.request
        while self.duel.turn < turn:
            req = self.end_turn()
            assert req is not None, "the duel ended"
        return req

    def attack(self, code: int, target: int | None = None) -> Prompt | None:
        """Declare an attack with ``code`` on the monster ``target`` (a code), or directly
        (``target`` None), then play on."""
        req = self.duel.request
        assert isinstance(req, MsgSelectBattleCmd), req
        codes = [a.code for a in req.attackable]
        assert code in codes, f"{code} cannot attack: {codes}"
        self.duel.respond(BattleCmdResponse(command=BATTLE_ATTACK, index=codes.index(code)))
        req = self.duel.advance()
        if isinstance(req, MsgSelectYesNo) and req.description == 31:    # "attack directly?"
            self.prompts.append(req)
            req = self.duel.respond(YesNoResponse(yes=target is None))
        if isinstance(req, MsgSelectCard) and req.player == self.duel.turn_player:
            assert target is not None, f"asked for an attack target: {req}"
            self.prompts.append(req)
            self.duel.respond(pick(target)(req))
        return self.run()

    def battle_end(self) -> Prompt | None:
        self.duel.respond(BattleCmdResponse(command=BATTLE_END))
        return self.run()

    def main2(self) -> Prompt | None:
        self.duel.respond(BattleCmdResponse(command=BATTLE_MAIN2))
        return self.run()

    # ----- looking ------------------------------------------------------------------------
    @property
    def engine(self):
        return self.duel.engine

    def lp(self, player: int) -> int:
        return self.duel.lp(player)

    def field(self, player: int = 0) -> list:
        return [c for c in self.engine.player[player].list_mzone if c is not None]

    def codes(self, player: int, location: int) -> list[int]:
        pl = self.engine.player[player]
        piles = {C.LOCATION_MZONE: [c for c in pl.list_mzone if c is not None],
                 C.LOCATION_SZONE: [c for c in pl.list_szone if c is not None],
                 C.LOCATION_HAND: pl.list_hand, C.LOCATION_GRAVE: pl.list_grave,
                 C.LOCATION_REMOVED: pl.list_remove, C.LOCATION_DECK: pl.list_main,
                 C.LOCATION_EXTRA: pl.list_extra}
        return [c.data.code for c in piles[location]]

    def messages(self, kind: type | tuple[type, ...], start: int = 0) -> list:
        return [m for m in self.duel.messages[start:] if isinstance(m, kind)]

    def mark(self) -> int:
        """The index of the next message (for ``messages(kind, start=mark)``)."""
        return len(self.duel.messages)

    def asked(self, kind: type, player: int | None = None, start: int = 0) -> list:
        """The prompts of class ``kind`` met (from prompt number ``start`` on, see ``pmark``)."""
        return [p for p in self.prompts[start:] if isinstance(p, kind) and (player is None or p.player == player)]

    def pmark(self) -> int:
        """The number of prompts met so far (for ``asked(..., start=pmark)``)."""
        return len(self.prompts)

    def chain_offers(self, player: int | None = None, start: int = 0) -> list[list[int]]:
        """The codes offered in each SELECT_CHAIN met (optionally to one player, from ``start``)."""
        return [[o.code for o in p.chains] for p in self.asked(MsgSelectChain, player, start)]


def first_free_zone(req: Any) -> Zone:
    for side, player in ((0, req.player), (16, 1 - req.player)):
        for shift, location in ((0, C.LOCATION_MZONE), (8, C.LOCATION_SZONE)):
            for s in range(8):
                if not req.flag & (1 << (s + shift + side)):
                    return Zone(player=player, location=location, sequence=s)
    raise AssertionError(f"no free zone in {req}")


def message_names(msgs: list[Message]) -> list[str]:
    return [m.NAME for m in msgs]
