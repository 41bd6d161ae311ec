"""A PettingZoo AEC environment over a duelhost duel (``pip install 'duelhost[env]'``).

    from duelhost import env as duel_env

    e = duel_env.env(render_mode="ansi")          # wrapped like PettingZoo's own envs
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Two agents, ``player_0`` and ``player_1``: the agent to act is the player the duel's
pending prompt asks.  Every prompt kind is answered through one fixed action space,
``Discrete(MAX_OPTIONS)``: action *i* takes option *i* of the current prompt, and
``obs["action_mask"]`` marks the options that exist and are legal.  A prompt that asks
for several things at once (cards to select, tributes, a sum, zones, counters to
remove, an order, races or attributes to declare) is answered one choice at a time, as
ygo-agent does: pick one card (zone, counter, ...) per step, and a ``finish`` option
where the selection may stop there; the duel gets the whole answer when it is complete.
Only picks that can still end in an answer the rules accept are legal.

Observations (numpy, int32) are what the acting player may know:

* ``observation``: the board, one row per card that is visible or in a public pile
  (``CARD_FEATURES``: code, whose (0 me, 1 opponent), location, sequence, position,
  ATK, DEF, level, type, attribute, race, counters, materials); hidden cards
  (the opponent's hand and face-down cards) have code 0, Decks are counts only;
* ``global``: turn, phase, whose turn, both LPs, pile sizes, chain length, the prompt
  kind and its bounds, picks made so far (``GLOBAL_FEATURES``);
* ``options``: what each action means (``OPTION_FEATURES``: kind, code, whose,
  location, sequence, position, value, value2);
* ``action_mask``: int8, 1 for the legal actions.

``infos[agent]`` holds the typed objects: ``prompt`` (the engine's ``MsgSelect*``
message), ``options`` (a tuple of ``Option``) and ``picks`` so far, for the agent to
act (None / empty for the other).  Rewards come at the end: +1 to the winner, -1 to
the loser, 0 to both for a draw or a truncation (``max_turns``/``max_steps``).

A masked-out action raises ``IllegalActionError`` and changes nothing (``env()``
keeps PettingZoo's order-enforcing and bounds wrappers, not its illegal-move one).
``env.unwrapped.duel`` is the ``duelhost.Duel`` being played (forkable).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:     # pragma: no cover - depends on the extra
    raise ImportError(f"duelhost.env needs the 'env' extra ({exc.name} is missing): "
                      "pip install 'duelhost[env]'") from None

from duelhost import paths
from duelhost.deckpool import deck_pool, random_deck
from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.core_constants import RACES_COUNT
from duelhost.engine.messages import (LocInfo, MsgAnnounceAttrib, MsgAnnounceCard, MsgAnnounceNumber,
                                      MsgAnnounceRace, MsgRockPaperScissors, MsgSelectBattleCmd, MsgSelectCard,
                                      MsgSelectChain, MsgSelectCounter, MsgSelectDisfield, MsgSelectEffectYn,
                                      MsgSelectIdleCmd, MsgSelectOption, MsgSelectPlace, MsgSelectPosition,
                                      MsgSelectSum, MsgSelectTribute, MsgSelectUnselectCard, MsgSelectYesNo,
                                      MsgSortCard, Prompt, sum_params)
from duelhost.engine.responses import (AnnounceAttribResponse, AnnounceCardResponse, AnnounceRaceResponse,
                                       BattleCmdResponse, CardsResponse, CounterResponse, IdleCmdResponse,
                                       InvalidResponse, PlaceResponse, Response, SortResponse, SumResponse, Zone,
                                       encode_response, is_declarable, legal_responses, parse_response,
                                       random_response)
from duelhost.engine.ydk import read_ydk
from duelhost.fork import open_db
from duelhost.host import DEFAULT_OPTIONS, Duel
from duelhost.play import board_text as play_board_text
from duelhost.play import bundled_deck

__all__ = ["AGENTS", "CARD_FEATURES", "GLOBAL_FEATURES", "IllegalActionError", "MAX_CARDS", "MAX_OPTIONS",
           "OPTION_FEATURES", "Option", "OptionKind", "PROMPT_KINDS", "Decision", "DuelEnv", "env", "raw_env"]

AGENTS = ("player_0", "player_1")
MAX_OPTIONS = 128        # the action space; options past it are cut (infos[agent]["options_cut"])
MAX_CARDS = 128          # board rows
CARD_FEATURES = ("code", "whose", "location", "sequence", "position", "atk", "def", "level", "type",
                 "attribute", "race", "counters", "materials")
OPTION_FEATURES = ("kind", "code", "whose", "location", "sequence", "position", "value", "value2")
PROMPT_KINDS: tuple[type[Prompt], ...] = (
    MsgSelectIdleCmd, MsgSelectBattleCmd, MsgSelectChain, MsgSelectEffectYn, MsgSelectYesNo, MsgSelectOption,
    MsgSelectCard, MsgSelectUnselectCard, MsgSelectTribute, MsgSelectSum, MsgSelectCounter, MsgSortCard,
    MsgSelectPlace, MsgSelectDisfield, MsgSelectPosition, MsgAnnounceRace, MsgAnnounceAttrib, MsgAnnounceCard,
    MsgAnnounceNumber, MsgRockPaperScissors)
_PILES = (C.LOCATION_DECK, C.LOCATION_HAND, C.LOCATION_MZONE, C.LOCATION_SZONE, C.LOCATION_GRAVE,
          C.LOCATION_REMOVED, C.LOCATION_EXTRA)
GLOBAL_FEATURES = (("turn", "phase", "my_turn", "my_lp", "opponent_lp")
                   + tuple(f"my_{n}" for n in ("deck", "hand", "mzone", "szone", "grave", "removed", "extra"))
                   + tuple(f"opponent_{n}" for n in ("deck", "hand", "mzone", "szone", "grave", "removed",
                                                     "extra"))
                   + ("chain", "prompt_kind", "prompt_min", "prompt_max", "picks", "options"))
_I32 = np.iinfo(np.int32)


class IllegalActionError(ValueError):
    """An action that is masked out (or out of range) for the current prompt."""


class OptionKind:
    """``Option.kind`` values (the ``kind`` column of ``obs["options"]``; 0 is an empty row)."""

    COMMAND = 1      # IDLE/BATTLE command: value = command number, value2 = index in its list
    CHAIN = 2        # SELECT_CHAIN: value = index (-1: pass)
    YES_NO = 3       # value 1 yes, 0 no
    OPTION = 4       # SELECT_OPTION / ANNOUNCE_NUMBER: value = the option's number, value2 = index
    CARD = 5         # one card of a selection (SELECT_CARD/TRIBUTE/SUM/UNSELECT/COUNTER/SORT): value = index
    FINISH = 6       # stop selecting here
    CANCEL = 7       # cancel the selection (the prompt allows it)
    ZONE = 8         # SELECT_PLACE / DISFIELD: whose/location/sequence of the zone
    POSITION = 9     # value = POS_* bit
    RACE = 10        # value = the RACE_* bit
    ATTRIBUTE = 11   # value = the ATTRIBUTE_* bit
    CARD_NAME = 12   # ANNOUNCE_CARD: code = the card declared
    RPS = 13         # value 1 scissors, 2 rock, 3 paper
    DEFAULT = 14     # SORT_CARD: keep the order offered


@dataclass(frozen=True)
class Option:
    """One action of the current prompt, typed (``obs["options"]`` holds the same as numbers)."""

    kind: int
    code: int = 0
    whose: int = 0           # 0: the acting player's, 1: the opponent's
    location: int = 0
    sequence: int = 0
    position: int = 0
    value: int = 0
    value2: int = 0
    response: Response | None = field(default=None, compare=False)   # the whole answer, for one-step prompts

    def describe(self, name_of: Any = str, *, battle: bool = False) -> str:
        """The option in words (``name_of``: code -> card name)."""
        card = f" {name_of(self.code)}" if self.code else ""
        if self.kind == OptionKind.COMMAND:
            words = (_BATTLE_WORDS if battle else _IDLE_WORDS).get(self.value, f"command {self.value}")
            return f"{words}{card}"
        if self.kind == OptionKind.CHAIN:
            return "pass (no chain)" if self.value < 0 else f"chain{card}"
        if self.kind == OptionKind.YES_NO:
            return "yes" if self.value else "no"
        if self.kind == OptionKind.ZONE:
            side = "opponent's" if self.whose else "own"
            zone = "Monster Zone" if self.location == C.LOCATION_MZONE else "Spell & Trap Zone"
            return f"{side} {zone} {self.sequence + 1}"
        if self.kind in (OptionKind.RACE, OptionKind.ATTRIBUTE, OptionKind.POSITION, OptionKind.OPTION,
                         OptionKind.RPS):
            return f"{_KIND_WORDS[self.kind]} {self.value:#x}"
        return f"{_KIND_WORDS.get(self.kind, self.kind)}{card}"

    def row(self) -> tuple[int, ...]:
        return tuple(_s32(v) for v in (self.kind, self.code, self.whose, self.location, self.sequence,
                                       self.position, self.value, self.value2))


def _s32(v: int) -> int:
    """An int as the int32 the arrays hold (a 32-bit description keeps its bits)."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def _least(sum_param: int) -> int:
    values = [v for v in sum_params(sum_param) if v]
    return min(values) if values else 0


class _Place(TypedDict, total=False):
    whose: int
    location: int
    sequence: int
    position: int


def _where(obj: Any, me: int) -> _Place:
    loc = getattr(obj, "location", None)
    if isinstance(loc, LocInfo):
        return {"whose": int(loc.controller != me), "location": loc.location, "sequence": loc.sequence,
                "position": loc.position}
    return {"whose": int(getattr(obj, "controller", me) != me), "location": int(loc or 0),
            "sequence": int(getattr(obj, "sequence", 0))}


# ----- one prompt as a sequence of single choices -------------------------------------------------

class Decision:
    """The current prompt as single choices: ``options`` now legal, ``choose(i)`` -> the whole
    Response when the answer is complete, else None (then ``options`` are the next ones)."""

    def __init__(self, prompt: Prompt, *, card_codes: Sequence[int] = (), db: Any = None,
                 rng: random.Random | None = None) -> None:
        self.prompt = prompt
        self.me = prompt.player
        self.picks: list[int] = []
        self._card_codes = card_codes
        self._db = db
        self._rng = rng or random.Random(0)
        self._sum_cache: dict[tuple[int, ...], bool] = {}
        self.options: tuple[Option, ...] = ()
        self.cut = 0
        self._refresh()

    # the answer of a multi-choice prompt when the picks are a whole answer (None if not)
    def _complete(self) -> Response | None:
        p, picks = self.prompt, self.picks
        if isinstance(p, (MsgSelectCard, MsgSelectTribute)):
            resp: Response = CardsResponse(indices=tuple(picks))
        elif isinstance(p, MsgSelectSum):
            resp = SumResponse(indices=tuple(picks))
        elif isinstance(p, MsgSelectCounter):
            counts = [0] * len(p.cards)
            for i in picks:
                counts[i] += 1
            resp = CounterResponse(counts=tuple(counts))
        elif isinstance(p, MsgSortCard):
            if len(picks) < len(p.cards):
                return None
            order = [0] * len(p.cards)
            for place, i in enumerate(picks):
                order[i] = place
            resp = SortResponse(order=tuple(order))
        elif isinstance(p, (MsgSelectPlace, MsgSelectDisfield)):
            if len(picks) < max(1, p.count):
                return None
            resp = PlaceResponse(zones=tuple(self._zones[i] for i in picks))
        elif isinstance(p, (MsgAnnounceRace, MsgAnnounceAttrib)):
            if len(picks) < p.count:
                return None
            mask = 0
            for b in picks:
                mask |= b
            resp = (AnnounceRaceResponse(races=mask) if isinstance(p, MsgAnnounceRace)
                    else AnnounceAttribResponse(attributes=mask))
        else:
            return None
        return resp if self._accepted(resp) else None

    def _accepted(self, resp: Response) -> bool:
        try:
            parse_response(self.prompt, encode_response(self.prompt, resp))
        except (InvalidResponse, ValueError, TypeError):
            return False
        return True

    def _refresh(self) -> None:
        opts = self._build()
        if not opts:         # never expected; keeps an agent from being stuck
            resp = random_response(self.prompt, self._rng, card_pool=self._pool())
            opts = [Option(OptionKind.DEFAULT, response=resp)]
        self.cut = max(0, len(opts) - MAX_OPTIONS)
        self.options = tuple(opts[:MAX_OPTIONS])

    def _pool(self) -> list[Any]:
        return [self._db.find(c) for c in self._card_codes if self._db is not None and self._db.find(c)] \
            or list(self._db or ())

    def _build(self) -> list[Option]:
        p, me = self.prompt, self.me
        if isinstance(p, MsgSelectIdleCmd):
            out = []
            for cmd, lst in enumerate(p.card_lists):
                out += [Option(OptionKind.COMMAND, c.code, value=cmd, value2=i, **_where(c, me))
                        for i, c in enumerate(lst)]
            out += [Option(OptionKind.COMMAND, c.code & 0x7FFFFFFF, value=5, value2=i, **_where(c, me))
                    for i, c in enumerate(p.activatable)]
            out += [Option(OptionKind.COMMAND, value=cmd) for cmd, ok in
                    ((6, p.can_battle_phase), (7, p.can_end_phase), (8, p.can_shuffle)) if ok]
            return [self._with_response(o) for o in out]
        if isinstance(p, MsgSelectBattleCmd):
            out = [Option(OptionKind.COMMAND, c.code & 0x7FFFFFFF, value=0, value2=i, **_where(c, me))
                   for i, c in enumerate(p.activatable)]
            out += [Option(OptionKind.COMMAND, c.code, value=1, value2=i, **_where(c, me))
                    for i, c in enumerate(p.attackable)]
            out += [Option(OptionKind.COMMAND, value=cmd) for cmd, ok in ((2, p.can_main2), (3, p.can_end_phase))
                    if ok]
            return [self._with_response(o) for o in out]
        if not isinstance(p, (MsgSelectCard, MsgSelectTribute, MsgSelectSum, MsgSelectCounter, MsgSortCard,
                              MsgSelectPlace, MsgSelectDisfield, MsgAnnounceRace, MsgAnnounceAttrib,
                              MsgAnnounceCard)):
            return self._listed()
        return self._multi()

    def _with_response(self, o: Option) -> Option:
        cls = IdleCmdResponse if isinstance(self.prompt, MsgSelectIdleCmd) else BattleCmdResponse
        return Option(o.kind, o.code, o.whose, o.location, o.sequence, o.position, o.value, o.value2,
                      response=cls(command=o.value, index=o.value2))

    def _listed(self) -> list[Option]:
        """Prompts whose every answer is one choice (engine.responses.legal_responses)."""
        p, me = self.prompt, self.me
        out = []
        for r in legal_responses(p):
            if isinstance(p, MsgSelectChain):
                idx = r.index  # type: ignore[attr-defined]
                if idx is None:
                    out.append(Option(OptionKind.CHAIN, value=-1, response=r))
                else:
                    c = p.chains[idx]
                    out.append(Option(OptionKind.CHAIN, c.code & 0x7FFFFFFF, value=idx, value2=c.description,
                                      response=r, **_where(c, me)))
            elif isinstance(p, (MsgSelectEffectYn, MsgSelectYesNo)):
                out.append(Option(OptionKind.YES_NO, getattr(p, "code", 0), value=int(r.yes),  # type: ignore[attr-defined]
                                  value2=p.description, response=r))
            elif isinstance(p, (MsgSelectOption, MsgAnnounceNumber)):
                i = r.index  # type: ignore[attr-defined]
                out.append(Option(OptionKind.OPTION, value=p.options[i], value2=i, response=r))
            elif isinstance(p, MsgSelectPosition):
                out.append(Option(OptionKind.POSITION, p.code, position=r.position,  # type: ignore[attr-defined]
                                  value=r.position, response=r))  # type: ignore[attr-defined]
            elif isinstance(p, MsgSelectUnselectCard):
                i = r.index  # type: ignore[attr-defined]
                if i is None:
                    out.append(Option(OptionKind.FINISH if p.finishable else OptionKind.CANCEL, response=r))
                else:
                    cards = p.selectable + p.unselectable
                    out.append(Option(OptionKind.CARD, cards[i].code, value=i,
                                      value2=int(i >= len(p.selectable)), response=r, **_where(cards[i], me)))
            elif isinstance(p, MsgRockPaperScissors):
                out.append(Option(OptionKind.RPS, value=r.choice, response=r))  # type: ignore[attr-defined]
        return out

    def _multi(self) -> list[Option]:
        p, me, picks = self.prompt, self.me, self.picks
        out: list[Option] = []
        if isinstance(p, (MsgSelectCard, MsgSelectTribute, MsgSelectSum)):
            if not picks and not isinstance(p, MsgSelectSum) and p.cancelable:
                out.append(Option(OptionKind.CANCEL, response=CardsResponse(indices=None)))
            for i, c in enumerate(p.cards):
                if i not in picks and self._can_pick(i):
                    out.append(Option(OptionKind.CARD, getattr(c, "code"), value=i,
                                      value2=getattr(c, "release_param", getattr(c, "sum_param", 0)),
                                      **_where(c, me)))
            done = self._complete()
            if done is not None:
                out.append(Option(OptionKind.FINISH, response=done))
            return out
        if isinstance(p, MsgSelectCounter):
            for i, c in enumerate(p.cards):
                if picks.count(i) < c.counter_count:
                    out.append(Option(OptionKind.CARD, c.code, value=i, value2=c.counter_count - picks.count(i),
                                      **_where(c, me)))
            return out
        if isinstance(p, MsgSortCard):
            if not picks:
                out.append(Option(OptionKind.DEFAULT, response=SortResponse(order=None)))
            out += [Option(OptionKind.CARD, c.code, value=i, **_where(c, me))
                    for i, c in enumerate(p.cards) if i not in picks]
            return out
        if isinstance(p, (MsgSelectPlace, MsgSelectDisfield)):
            self._zones = self._zone_list()
            selected = 0
            for i in picks:
                selected |= self._zone_bits(self._zones[i])
            for i, z in enumerate(self._zones):
                if i not in picks and not self._zone_bits(z) & selected:
                    out.append(Option(OptionKind.ZONE, whose=int(z.player != me), location=z.location,
                                      sequence=z.sequence, value=i))
            if not out and p.count == 0 and not picks:
                out.append(Option(OptionKind.FINISH, response=PlaceResponse(
                    zones=(Zone(player=me, location=0, sequence=0),))))
            return out
        if isinstance(p, (MsgAnnounceRace, MsgAnnounceAttrib)):
            kind = OptionKind.RACE if isinstance(p, MsgAnnounceRace) else OptionKind.ATTRIBUTE
            end = 1 << RACES_COUNT if kind == OptionKind.RACE else 0x80
            b = 1
            while b < end:
                if b & p.available and b not in picks:
                    out.append(Option(kind, value=b))
                b <<= 1
            return out
        if isinstance(p, MsgAnnounceCard):
            seen = set()
            for code in self._card_codes:
                rec = self._db.find(code) if self._db is not None else None
                if rec is not None and code not in seen and is_declarable(rec, p.options):
                    seen.add(code)
                    out.append(Option(OptionKind.CARD_NAME, code, response=AnnounceCardResponse(code=code)))
            if not out and self._db is not None:      # nobody's card fits: the first in the database that does
                for rec in self._db:
                    if rec.code and is_declarable(rec, p.options):
                        out.append(Option(OptionKind.CARD_NAME, rec.code,
                                          response=AnnounceCardResponse(code=rec.code)))
                        break
            return out
        return out

    def _zone_list(self) -> list[Zone]:
        p, me = self.prompt, self.me
        zones = []
        for zp in (me, 1 - me):
            for loc, n in ((C.LOCATION_MZONE, 7), (C.LOCATION_SZONE, 8)):
                for s in range(n):
                    if not self._zone_bits(Zone(player=zp, location=loc, sequence=s), raw=True) & getattr(p, "flag"):
                        zones.append(Zone(player=zp, location=loc, sequence=s))
        return zones

    def _zone_bits(self, z: Zone, raw: bool = False) -> int:
        sel = 1 << ((z.sequence + (0 if z.player == self.me else 16)
                     + (0 if z.location == C.LOCATION_MZONE else 8)) & 31)
        if not raw:
            if sel & (1 << 5):
                sel |= 1 << 22
            if sel & (1 << 6):
                sel |= 1 << 21
        return sel

    def _can_pick(self, i: int) -> bool:
        """Whether some whole answer holds the picks so far and card ``i``."""
        p, picks = self.prompt, self.picks
        if isinstance(p, MsgSelectCard):
            return len(picks) < min(p.max, len(p.cards))
        if isinstance(p, MsgSelectTribute):
            if len(picks) >= p.max:
                return False
            chosen = picks + [i]
            rest = sorted((c.release_param for j, c in enumerate(p.cards) if j not in chosen), reverse=True)
            best = sum(p.cards[j].release_param for j in chosen) + sum(rest[:p.max - len(chosen)])
            return best >= p.min
        assert isinstance(p, MsgSelectSum)
        return self._sum_feasible(tuple(sorted(picks + [i])))

    def _sum_feasible(self, chosen: tuple[int, ...]) -> bool:
        cached = self._sum_cache.get(chosen)
        if cached is not None:
            return cached
        p = self.prompt
        assert isinstance(p, MsgSelectSum)
        n = len(p.cards)
        hi = min(p.max if p.mode == 0 else n, n)
        must = [c.sum_param for c in p.must_cards]
        rest = [j for j in range(n) if j not in chosen]
        budget = [5000]

        def ok(sel: list[int]) -> bool:
            return self._accepted(SumResponse(indices=tuple(sel)))

        def dfs(start: int, sel: list[int]) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if ok(sel):
                return True
            if len(sel) >= hi:
                return False
            if p.mode == 0 and sum(_least(s) for s in must + [p.cards[j].sum_param for j in sel]) > p.target:
                return False     # exact sum: even the smallest values overshoot
            for k in range(start, len(rest)):
                sel.append(rest[k])
                if dfs(k + 1, sel):
                    return True
                sel.pop()
            return False

        result = dfs(0, list(chosen))
        self._sum_cache[chosen] = result
        return result

    def choose(self, action: int) -> Response | None:
        """Take option ``action``: the whole Response when the answer is complete, else None."""
        o = self.options[action]
        if o.response is not None:
            return o.response
        p = self.prompt
        if o.kind == OptionKind.CARD or o.kind == OptionKind.ZONE or o.kind in (OptionKind.RACE,
                                                                                OptionKind.ATTRIBUTE):
            self.picks.append(o.value)
        done = self._complete()
        if done is not None:
            if isinstance(p, (MsgSelectCard, MsgSelectTribute, MsgSelectSum)):
                self._refresh()
                # no further pick possible: the selection is complete
                if not any(x.kind == OptionKind.CARD for x in self.options):
                    return done
                return None
            return done
        self._refresh()
        return None


# ----- the environment ---------------------------------------------------------------------------

DeckSpec = tuple[Sequence[int], Sequence[int]]


def _default_decks(db: Any) -> list[DeckSpec]:
    """The bundled rules decks (cards/rules_a.ydk, rules_b.ydk) from a source checkout; where
    they are not installed, two random 40-card decks of the bundled cards (seed 0)."""
    try:
        return [(tuple(d.main), tuple(d.extra)) for d in (read_ydk(bundled_deck(n))
                                                         for n in ("rules_a.ydk", "rules_b.ydk"))]
    except FileNotFoundError:
        pool = deck_pool(db, paths.bundled_scripts(), ot=0xFF)
        rng = random.Random(0)
        return [tuple(tuple(x) for x in random_deck(rng, pool)) for _ in range(2)]  # type: ignore[misc]


def _read_decks(decks: Iterable[Any], db: Any) -> list[DeckSpec]:
    out: list[DeckSpec] = []
    for d in decks:
        if isinstance(d, (str, Path)):
            path = Path(d)
            files = sorted(path.glob("*.ydk")) if path.is_dir() else [path]
            for f in files:
                y = read_ydk(f)
                if all(c in db for c in (*y.main, *y.extra)) and y.main:
                    out.append((tuple(y.main), tuple(y.extra)))
        elif hasattr(d, "main"):
            out.append((tuple(d.main), tuple(getattr(d, "extra", ()))))
        else:
            main, extra = d
            out.append((tuple(main), tuple(extra)))
    if not out:
        raise ValueError("no playable deck was given")
    return out


class DuelEnv(AECEnv):
    """The AEC environment (see the module docstring).  ``raw_env(...)`` makes one.

    ``decks``: (main, extra) code lists, .ydk files or folders of them (default: the
    bundled rules decks); each reset draws two of them (the same deck twice when only
    one is given).  ``db`` / ``scripts``: the card database and script folder (default:
    the bundled ones).  ``max_turns`` / ``max_steps``: truncate a duel past that turn or
    after that many env steps (None: play to the end)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "duelhost_v0", "is_parallelizable": False}

    def __init__(self, *, decks: Iterable[Any] | None = None, db: Any = None, scripts: Any = None,
                 options: int | None = None, max_turns: int | None = None, max_steps: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        modes: Any = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        if isinstance(db, CardDatabase):
            self.db = db
        else:
            self.db = open_db(str(db if db is not None else paths.bundled_db()))
        self.scripts = scripts
        self.decks = _read_decks(decks, self.db) if decks is not None else _default_decks(self.db)
        self.duel_options = DEFAULT_OPTIONS if options is None else options
        self.max_turns = max_turns
        self.max_steps = max_steps
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        obs_space = spaces.Dict({
            "observation": spaces.Box(_I32.min, _I32.max, (MAX_CARDS, len(CARD_FEATURES)), np.int32),
            "global": spaces.Box(_I32.min, _I32.max, (len(GLOBAL_FEATURES),), np.int32),
            "options": spaces.Box(_I32.min, _I32.max, (MAX_OPTIONS, len(OPTION_FEATURES)), np.int32),
            "action_mask": spaces.Box(0, 1, (MAX_OPTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(MAX_OPTIONS) for a in AGENTS}
        self._rng = random.Random()
        self.duel: Any = None
        self.decision: Decision | None = None
        self.steps = 0
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----- episode ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new duel.  ``seed`` fixes the decks drawn, the duel's seed and the shuffles;
        ``options`` may hold ``decks`` (two (main, extra) pairs for this duel only)."""
        if seed is not None:
            self._rng = random.Random(seed)
        if self.duel is not None:
            self.duel.close()
        decks = self.decks
        if options and options.get("decks") is not None:
            decks = _read_decks(options["decks"], self.db)
        pair = [decks[0], decks[0]] if len(decks) == 1 else self._rng.sample(decks, 2)
        duel = Duel(db=self.db, scripts=self.scripts, seed=self._rng.getrandbits(32), options=self.duel_options)
        for p, (main, extra) in enumerate(pair):
            duel.add_deck(p, main, extra, shuffle=True)
        duel.start()
        self.duel = duel
        self._codes = sorted({c.data.code for c in duel.engine.cards if c.data.code})
        self.agents = list(AGENTS)
        self.steps = 0
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self._next(duel.advance())

    def _next(self, prompt: Prompt | None) -> None:
        """Move on to ``prompt`` (None: the duel ended) or end the episode."""
        duel = self.duel
        if prompt is None:
            win = duel.win()
            if win is not None and win.player in (0, 1):
                self.rewards[AGENTS[win.player]] = 1.0
                self.rewards[AGENTS[1 - win.player]] = -1.0
            self.terminations = {a: True for a in self.agents}
            self.decision = None
            self._set_infos()
            return
        if ((self.max_turns is not None and duel.turn > self.max_turns)
                or (self.max_steps is not None and self.steps >= self.max_steps)):
            self.truncations = {a: True for a in self.agents}
            self.decision = None
            self._set_infos()
            return
        self.decision = Decision(prompt, card_codes=self._codes, db=self.db, rng=self._rng)
        self.agent_selection = AGENTS[prompt.player]
        self._set_infos()

    def _set_infos(self) -> None:
        d = self.decision
        for a in self.agents:
            info: dict[str, Any]
            if d is not None and a == self.agent_selection:
                info = {"prompt": d.prompt, "options": d.options, "picks": tuple(d.picks), "options_cut": d.cut}
            else:
                info = {"prompt": None, "options": (), "picks": (), "options_cut": 0}
            info["turn"] = self.duel.turn if self.duel is not None else 0
            self.infos[a] = info
        if d is None:
            win = self.duel.win() if self.duel is not None else None
            for a in self.agents:
                self.infos[a]["winner"] = win.player if win is not None else None

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        d = self.decision
        if d is None:
            raise IllegalActionError("reset() the environment first")
        if action is None or not 0 <= int(action) < len(d.options):
            legal = ", ".join(map(str, range(len(d.options))))
            raise IllegalActionError(f"action {action!r} is not legal for {d.prompt.NAME} "
                                     f"(legal actions: {legal})")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        resp = d.choose(int(action))
        self.steps += 1
        if resp is None:
            if self.max_steps is not None and self.steps >= self.max_steps:
                self.truncations = {a: True for a in self.agents}
                self.decision = None
            self._set_infos()
        else:
            self._next(self.duel.respond(resp))
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ----- observations -------------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, Any]:
        me = AGENTS.index(agent)
        cards = np.zeros((MAX_CARDS, len(CARD_FEATURES)), np.int32)
        glob = np.zeros(len(GLOBAL_FEATURES), np.int32)
        opts = np.zeros((MAX_OPTIONS, len(OPTION_FEATURES)), np.int32)
        mask = np.zeros(MAX_OPTIONS, np.int8)
        duel = self.duel
        if duel is None:
            return {"observation": cards, "global": glob, "options": opts, "action_mask": mask}
        eng = duel.engine
        row = 0
        for who, p in ((0, me), (1, 1 - me)):
            pl = eng.player[p]
            piles = [(C.LOCATION_MZONE, [c for c in pl.list_mzone if c is not None]),
                     (C.LOCATION_SZONE, [c for c in pl.list_szone if c is not None]),
                     (C.LOCATION_HAND, pl.list_hand), (C.LOCATION_GRAVE, pl.list_grave),
                     (C.LOCATION_REMOVED, pl.list_remove)]
            if who == 0:
                piles.append((C.LOCATION_EXTRA, pl.list_extra))
            for loc, lst in piles:
                for c in lst:
                    if row >= MAX_CARDS:
                        break
                    cards[row] = self._card_row(c, who, loc)
                    row += 1
        infos = eng.infos
        g = [infos.turn_id, infos.phase, int(infos.turn_player == me), eng.player[me].lp, eng.player[1 - me].lp]
        for p in (me, 1 - me):
            pl = eng.player[p]
            g += [len(pl.list_main), len(pl.list_hand), sum(c is not None for c in pl.list_mzone),
                  sum(c is not None for c in pl.list_szone), len(pl.list_grave), len(pl.list_remove),
                  len(pl.list_extra)]
        d = self.decision
        g.append(len(eng.core.current_chain))
        if d is not None and agent == self.agent_selection:
            pr = d.prompt
            kind = PROMPT_KINDS.index(type(pr)) + 1 if type(pr) in PROMPT_KINDS else 0
            g += [kind, int(getattr(pr, "min", 0)), int(getattr(pr, "max", getattr(pr, "count", 0))),
                  len(d.picks), len(d.options)]
            for i, o in enumerate(d.options):
                opts[i] = o.row()
                mask[i] = 1
        else:
            g += [0, 0, 0, 0, 0]
        glob[:] = np.clip(np.asarray(g, np.int64), _I32.min, _I32.max)
        return {"observation": cards, "global": glob, "options": opts, "action_mask": mask}

    @staticmethod
    def _card_row(c: Any, who: int, loc: int) -> list[int]:
        pos = c.current.position
        hidden = who == 1 and (loc == C.LOCATION_HAND or (pos & C.POS_FACEDOWN and loc != C.LOCATION_GRAVE))
        if hidden:
            return [0, who, loc, c.current.sequence, pos, 0, 0, 0, 0, 0, 0, 0, len(c.xyz_materials)]
        atk = dfn = lvl = 0
        if loc == C.LOCATION_MZONE:
            atk, dfn = c.get_atk_def()
            lvl = c.get_level()
        else:
            atk, dfn, lvl = c.data.attack, c.data.defense, c.data.level
        return [c.data.code, who, loc, c.current.sequence, pos, atk, dfn, lvl, c.data.type,
                c.data.attribute, c.data.race, sum(c.counters.values()), len(c.xyz_materials)]

    # ----- text ---------------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        text = self.board_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def board_text(self) -> str:
        """The board from the acting player's side, the prompt and the legal actions."""
        if self.duel is None:
            return "(no duel: call reset())"
        d = self.decision
        viewer = d.prompt.player if d is not None else None
        lines = [play_board_text(self.duel, viewer)]
        if d is None:
            win = self.duel.win()
            lines.append("Duel over: " + (f"player {win.player} wins (reason {win.reason})"
                                          if win is not None and win.player in (0, 1) else
                                          "a draw" if win is not None else "truncated"))
        else:
            lines.append(f"{self.agent_selection} to answer: {d.prompt.describe(self.duel.card_name)}"
                         + (f" (picked {list(d.picks)})" if d.picks else ""))
            battle = isinstance(d.prompt, MsgSelectBattleCmd)
            for i, o in enumerate(d.options):
                lines.append(f"  {i}: {o.describe(self.duel.card_name, battle=battle)}")
        return "\n".join(lines)

    def close(self) -> None:
        if self.duel is not None:
            self.duel.close()
            self.duel = None


_KIND_WORDS = {v: k.lower().replace("_", " ") for k, v in vars(OptionKind).items() if k.isupper()}
_IDLE_WORDS = {0: "Normal Summon", 1: "Special Summon", 2: "change position", 3: "Set monster",
               4: "Set Spell/Trap", 5: "activate", 6: "go to the Battle Phase", 7: "end the turn",
               8: "shuffle the hand"}
_BATTLE_WORDS = {0: "activate", 1: "attack with", 2: "go to Main Phase 2", 3: "end the turn"}


def raw_env(**kwargs: Any) -> DuelEnv:
    """The environment without PettingZoo's wrappers (see DuelEnv for the arguments)."""
    return DuelEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (bounds check, order enforcing)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
