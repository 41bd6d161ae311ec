"""A real duel with the Lua host, for the Duel library tests (tests/test_lib_duel_*.py).

``Table`` builds a duel over this folder's test scripts and the project's
constant.lua, places cards by hand (``new_card_at``) and runs Lua snippets
through the test operator card 991001 (see c991001.lua):

    t = Table()
    t.card(A, LOCATION_MZONE, player=1)
    msgs, prompts = t.run("local e, tp = ... ; return Duel.Destroy(Duel.GetFieldCard(1, LOCATION_MZONE, 0), REASON_EFFECT)")
    assert t.results() == (1,)

``run`` executes the snippet as the operation of the operator's effect (a
coroutine with core.reason_effect/reason_player set, exactly like a chain
link's operation), driving the processor like a host: each prompt is answered
by the next of ``answers`` (raw bytes) or a default choice.  ``plain`` runs a
snippet as a plain call (a condition/filter context).  The host is strict:
a script error fails the test with the Lua message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from duelhost.bindings.host import LuaScriptHost
from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect
from duelhost.engine.event import Event
from duelhost.engine.messages import Message
from duelhost.engine.wire import pack_i32

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
CONSTANTS = REPO / "scripts"

OPERATOR = 991001       # runs the snippets
MONSTER_A = 991002      # Normal Monster, Level 4, 1500/1200
MONSTER_B = 991003      # Normal Monster, Level 3, 1000/800
EFFECT_MON = 991004     # Effect Monster without effects, Level 4, 1800/600
TOKEN = 991010          # Token, Level 1, 0/0
FIELD_SPELL = 991020
NORMAL_SPELL = 991021
WATCHER = 991030        # Continuous Spell counting events (c991030.lua)
EQUIP_SPELL = 991040
FUSION_MON = 991050     # Fusion Monster, Level 6, 2400/2000
LINK_MON = 991060       # Link-2 Monster (left, right), 1600
UNKNOWN = 991999        # no database row

DB: dict[int, CardData] = {
    OPERATOR: CardData(code=OPERATOR, type=TYPE_MONSTER | TYPE_EFFECT, level=4, attack=1000, defense=1000),
    MONSTER_A: CardData(code=MONSTER_A, type=TYPE_MONSTER | TYPE_NORMAL, level=4, attribute=ATTRIBUTE_FIRE,
                        race=RACE_WARRIOR, attack=1500, defense=1200),
    MONSTER_B: CardData(code=MONSTER_B, type=TYPE_MONSTER | TYPE_NORMAL, level=3, attribute=ATTRIBUTE_WATER,
                        race=RACE_AQUA, attack=1000, defense=800),
    EFFECT_MON: CardData(code=EFFECT_MON, type=TYPE_MONSTER | TYPE_EFFECT, level=4, attribute=ATTRIBUTE_DARK,
                         race=RACE_FIEND, attack=1800, defense=600),
    TOKEN: CardData(code=TOKEN, type=TYPE_MONSTER | TYPE_NORMAL | TYPE_TOKEN, level=1,
                    attribute=ATTRIBUTE_EARTH, race=RACE_ROCK, attack=0, defense=0),
    FIELD_SPELL: CardData(code=FIELD_SPELL, type=TYPE_SPELL | TYPE_FIELD),
    NORMAL_SPELL: CardData(code=NORMAL_SPELL, type=TYPE_SPELL),
    WATCHER: CardData(code=WATCHER, type=TYPE_SPELL | TYPE_CONTINUOUS),
    EQUIP_SPELL: CardData(code=EQUIP_SPELL, type=TYPE_SPELL | TYPE_EQUIP),
    FUSION_MON: CardData(code=FUSION_MON, type=TYPE_MONSTER | TYPE_EFFECT | TYPE_FUSION, level=6,
                         attack=2400, defense=2000),
    LINK_MON: CardData(code=LINK_MON, type=TYPE_MONSTER | TYPE_EFFECT | TYPE_LINK, level=2, attack=1600,
                       link_marker=LINK_MARKER_LEFT | LINK_MARKER_RIGHT),
}

Answer = Callable[[Message], "bytes | None"]


def default_answer(p: Message) -> bytes:
    """The first legal choice; never chains; the lowest position offered."""
    name = p.NAME
    if name in ("SELECT_PLACE", "SELECT_DISFIELD"):
        for side in (0, 16):
            for shift in (0, 8):
                for s in range(8):
                    if not p.flag & (1 << (s + shift + side)):
                        player = p.player if side == 0 else 1 - p.player
                        return bytes([player, LOCATION_MZONE if shift == 0 else LOCATION_SZONE, s])
        raise AssertionError(f"no free place in {p}")
    if name == "SELECT_POSITION":
        return pack_i32(p.positions & -p.positions)
    if name in ("SELECT_TRIBUTE", "SELECT_CARD", "SELECT_SUM"):
        return bytes([p.min] + list(range(p.min)))
    if name in ("SELECT_YESNO", "SELECT_EFFECTYN", "SELECT_OPTION"):
        return pack_i32(0)
    if name == "SELECT_CHAIN":
        return pack_i32(-1)
    raise AssertionError(f"the test gives no answer to {p}")


class Table:
    """A duel (Master Rule 2020, player 0's Main Phase 1 of turn 1) with the Lua host."""

    def __init__(self, db: dict[int, CardData] | None = None) -> None:
        data = dict(DB)
        if db:
            data.update(db)
        self.db = data
        self.host = LuaScriptHost([HERE, CONSTANTS], strict=True)
        self.duel = d = Duel(data.get, seed=7, script=self.host)
        d.core.duel_rule = 5
        d.infos.turn_player = 0
        d.infos.turn_id = 1
        d.infos.turn_id_by_player[0] = 1
        d.infos.phase = PHASE_MAIN1
        self.operators = [self.card(OPERATOR, LOCATION_REMOVED, player=p, pos=POS_FACEUP) for p in (0, 1)]

    # ----- set-up ---------------------------------------------------------------------

    def card(self, code: int, location: int, seq: int = 0, pos: int = POS_FACEUP_ATTACK,
             player: int = 0, owner: int | None = None) -> Card:
        """A card placed by hand (no messages); ``seq`` is the zone for the field."""
        if location in (LOCATION_DECK, LOCATION_HAND, LOCATION_GRAVE, LOCATION_REMOVED, LOCATION_EXTRA):
            seq = 0
        pcard = self.duel.new_card_at(code, player if owner is None else owner, player, location, seq, pos)
        assert pcard is not None, f"cannot place {code} at {location:#x}/{seq}"
        return pcard

    def watcher(self, player: int = 0, seq: int = 4) -> Card:
        return self.card(WATCHER, LOCATION_SZONE, seq, POS_FACEUP, player=player)

    @staticmethod
    def seen(watcher: Card, code: int) -> Effect:
        """The watcher's effect for event ``code``: label [times, ev, ep, r, rp], label_object eg."""
        for e in watcher.indexer:
            if e.code == code:
                return e
        raise KeyError(code)

    @staticmethod
    def times(watcher: Card, code: int) -> int:
        e = Table.seen(watcher, code)
        return e.label[0] if e.label else 0

    # ----- running snippets ----------------------------------------------------------------

    def operator_effect(self, player: int = 0) -> Effect:
        return next(e for e in self.operators[player].indexer if e.type & EFFECT_TYPE_IGNITION)

    def run(self, src: str, answers: Iterable[bytes] | Answer | None = None, player: int = 0,
            ) -> tuple[list[Message], list[Message]]:
        """Run ``src`` as the operation of ``player``'s operator effect, answering prompts.

        Returns (messages written meanwhile, prompts asked).
        """
        d = self.duel
        op = self.operators[player]
        self.host.call_card_function(op, "define", src)
        d.core.sub_solving_event.append(Event())
        d.add_process(d.proc_execute_operation(self.operator_effect(player), player))
        return self.drive(answers)

    def run_chain(self, src: str, answers: Iterable[bytes] | Answer | None = None, player: int = 0,
                  ) -> tuple[list[Message], list[Message]]:
        """Activate ``player``'s operator effect as chain link 1 (Duel.Activate's unit) and let it
        resolve: ``src`` then runs as a chain link's operation.  Nobody chains to it."""
        d = self.duel
        self.host.call_card_function(self.operators[player], "define", src)
        d.add_process(d.proc_activate_effect(self.operator_effect(player)))
        return self.drive(answers)

    def drive(self, answers: Iterable[bytes] | Answer | None = None) -> tuple[list[Message], list[Message]]:
        """Run the queued units to the end like a host."""
        d = self.duel
        if answers is None or callable(answers):
            queue: list[bytes] = []
            fn = answers
        else:
            queue = list(answers)
            fn = None
        d.finished = False
        d._runner = None
        start = len(d.messages)
        prompts: list[Message] = []
        p = d.step()
        while p is not None:
            prompts.append(p)
            assert len(prompts) < 100, f"prompt loop: {p}"
            raw = fn(p) if fn is not None else (queue.pop(0) if queue else None)
            p = d.step(raw if raw is not None else default_answer(p))
        return d.messages[start:], prompts

    def results(self, player: int = 0) -> tuple:
        """What the snippet returned (engine objects as themselves)."""
        return tuple(self.host.call_card_function(self.operators[player], "results"))

    def count(self, player: int = 0) -> int:
        """How many values the snippet returned (tells "no value" from nil)."""
        return self.host.call_card_function(self.operators[player], "count")[0]

    def plain(self, src: str, *args: Any) -> tuple:
        """Run ``src`` as a plain call (no actions allowed); its results."""
        return tuple(self.host.call_card_function(self.operators[0], "plain", src, *args))


def names(messages: list[Message]) -> list[str]:
    return [m.NAME for m in messages]
