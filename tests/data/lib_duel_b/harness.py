"""A real duel with the Lua host for tests/test_lib_duel_select.py and tests/test_lib_duel_query.py.

``Table`` builds a duel (Master Rule 2020, player 0's Main Phase 1 of turn 1)
over this folder's test scripts and the project's constant.lua, places cards
by hand and runs Lua snippets through the operator card 992001:

    t = Table()
    a = t.card(MONSTER_A, LOCATION_MZONE)
    msgs, prompts = t.run("local e, tp = ... return Duel.SelectYesNo(tp, 30)", [pack_i32(1)])
    assert t.results() == (True,)

``run`` executes the snippet as the operation of the operator's ignition
effect (a coroutine with core.reason_effect/reason_player set); ``in_chain``
does the same while that effect is chain link 1 (optionally targeting);
``continuous`` runs it as the operator's continuous effect (a pseudo chain
link).  Prompts are answered by the given raw answers in order, or a default
choice.  ``plain`` runs a snippet as a plain call (actions not allowed).  The
host is strict: a script error raises with the Lua message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from duelhost.bindings.host import LuaScriptHost
from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect
from duelhost.engine.event import Chain, Event
from duelhost.engine.messages import Message
from duelhost.engine.wire import pack_i32

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
CONSTANTS = REPO / "scripts"

OPERATOR = 992001       # runs the snippets (c992001.lua)
MONSTER_A = 992002      # Normal Monster, Level 4, FIRE Warrior 1500/1200
MONSTER_B = 992003      # Normal Monster, Level 3, WATER Aqua 1000/800
MONSTER_C = 992004      # Normal Monster, Level 4, DARK Fiend 1800/600, archetype 0x45
TUNER = 992005          # Tuner, Level 2, 800/400
SYNCHRO = 992006        # Synchro Monster, Level 6, 2400/2000
XYZ = 992007            # Xyz Monster, Rank 4, 2500/2000
BIG = 992008            # Level 6 Normal Monster (one Tribute)
TOKEN = 992010          # Token, Level 1, 0/0
PENDULUM = 992011       # Pendulum Monster, Level 4
FUSION = 992050         # Fusion Monster with a scripted Fusion Material effect (c992050.lua)
COPYABLE = 992060       # Effect Monster with effects for MajesticCopy (c992060.lua)

NORMAL = TYPE_MONSTER | TYPE_NORMAL
EFFECT_MONSTER = TYPE_MONSTER | TYPE_EFFECT

DB: dict[int, CardData] = {
    OPERATOR: CardData(code=OPERATOR, type=EFFECT_MONSTER, level=4, attack=1000, defense=1000),
    MONSTER_A: CardData(code=MONSTER_A, type=NORMAL, level=4, attribute=ATTRIBUTE_FIRE,
                        race=RACE_WARRIOR, attack=1500, defense=1200),
    MONSTER_B: CardData(code=MONSTER_B, type=NORMAL, level=3, attribute=ATTRIBUTE_WATER,
                        race=RACE_AQUA, attack=1000, defense=800),
    MONSTER_C: CardData(code=MONSTER_C, type=NORMAL, level=4, attribute=ATTRIBUTE_DARK,
                        race=RACE_FIEND, attack=1800, defense=600, setcode=(0x45,)),
    TUNER: CardData(code=TUNER, type=NORMAL | TYPE_TUNER, level=2, attribute=ATTRIBUTE_LIGHT,
                    race=RACE_MACHINE, attack=800, defense=400),
    SYNCHRO: CardData(code=SYNCHRO, type=EFFECT_MONSTER | TYPE_SYNCHRO, level=6,
                      attribute=ATTRIBUTE_WIND, race=RACE_DRAGON, attack=2400, defense=2000),
    XYZ: CardData(code=XYZ, type=EFFECT_MONSTER | TYPE_XYZ, level=4, attribute=ATTRIBUTE_EARTH,
                  race=RACE_ROCK, attack=2500, defense=2000),
    BIG: CardData(code=BIG, type=NORMAL, level=6, attribute=ATTRIBUTE_FIRE, race=RACE_DRAGON,
                  attack=2300, defense=2000),
    TOKEN: CardData(code=TOKEN, type=NORMAL | TYPE_TOKEN, level=1, attribute=ATTRIBUTE_EARTH,
                    race=RACE_ROCK, attack=0, defense=0),
    PENDULUM: CardData(code=PENDULUM, type=NORMAL | TYPE_PENDULUM, level=4, lscale=3, rscale=3,
                       attack=1400, defense=1400),
    FUSION: CardData(code=FUSION, type=EFFECT_MONSTER | TYPE_FUSION, level=7, attack=2600, defense=2100),
    COPYABLE: CardData(code=COPYABLE, type=EFFECT_MONSTER, level=4, attack=1700, defense=1000),
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
    if name in ("SELECT_YESNO", "SELECT_EFFECTYN", "SELECT_OPTION", "ANNOUNCE_NUMBER"):
        return pack_i32(0)
    if name == "SELECT_CHAIN":
        return pack_i32(-1)
    raise AssertionError(f"the test gives no answer to {p}")


class Table:
    """A duel with the Lua host (see the module docstring)."""

    def __init__(self, db: dict[int, CardData] | None = None) -> None:
        data = dict(DB)
        if db:
            data.update(db)
        self.host = LuaScriptHost([HERE, CONSTANTS], strict=True)
        self.duel = d = Duel(data.get, seed=11, script=self.host)
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
        if location not in (LOCATION_MZONE, LOCATION_SZONE):
            seq = 0
        pcard = self.duel.new_card_at(code, player if owner is None else owner, player, location, seq, pos)
        assert pcard is not None, f"cannot place {code} at {location:#x}/{seq}"
        return pcard

    def operator_effect(self, player: int = 0, continuous: bool = False) -> Effect:
        kind = EFFECT_TYPE_CONTINUOUS if continuous else EFFECT_TYPE_IGNITION
        return next(e for e in self.operators[player].indexer if e.type & kind)

    # ----- running snippets ----------------------------------------------------------------

    def run(self, src: str, answers: Iterable[bytes] | Answer | None = None, player: int = 0,
            continuous: bool = False) -> tuple[list[Message], list[Message]]:
        """Run ``src`` as the operation of ``player``'s operator effect, answering prompts.

        Returns (messages written meanwhile, prompts asked).
        """
        d = self.duel
        self.host.call_card_function(self.operators[player], "define", src)
        d.core.sub_solving_event.append(Event())
        d.add_process(d.proc_execute_operation(self.operator_effect(player, continuous), player))
        return self.drive(answers)

    def in_chain(self, src: str, answers: Iterable[bytes] | Answer | None = None, player: int = 0,
                 targeting: bool = True) -> tuple[list[Message], list[Message]]:
        """Like ``run`` while the operator's ignition effect is chain link 1 (with
        EFFECT_FLAG_CARD_TARGET when ``targeting``)."""
        d = self.duel
        peffect = self.operator_effect(player)
        if targeting:
            peffect.flag[0] |= EFFECT_FLAG_CARD_TARGET
        else:
            peffect.flag[0] &= ~EFFECT_FLAG_CARD_TARGET
        ch = Chain()
        ch.triggering_effect = peffect
        ch.triggering_player = player
        ch.chain_id = 1
        ch.chain_count = 1
        d.core.current_chain.append(ch)
        self.chain = ch
        return self.run(src, answers, player)

    def continuous(self, src: str, answers: Iterable[bytes] | Answer | None = None,
                   player: int = 0) -> tuple[list[Message], list[Message]]:
        """Like ``run`` for the operator's continuous effect, with its pseudo chain link."""
        d = self.duel
        ch = Chain()
        ch.triggering_effect = self.operator_effect(player, continuous=True)
        ch.triggering_player = player
        d.core.continuous_chain.append(ch)
        self.chain = ch
        return self.run(src, answers, player, continuous=True)

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

    def plain_count(self, src: str, *args: Any) -> tuple[int, tuple]:
        """(number of values, values) of a plain snippet."""
        out = self.host.call_card_function(self.operators[0], "plain_count", src, *args)
        return out[0], tuple(out[1:])


def names(messages: list[Message]) -> list[str]:
    return [m.NAME for m in messages]
