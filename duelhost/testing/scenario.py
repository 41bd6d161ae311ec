"""The scenario builder: a duel set up in Python, then played by the test.

    duel = Scenario()                                   # bundled cards.db and scripts
    jar = duel.add(190004001, to="spell")               # face-up in player 0's first free column
    mouse = duel.add("Cinderwood Sparkmouse", to="hand")
    duel.add(190000006, to="monster", player=1, column=2, position="defense")
    duel.start()                                        # turn 1, player 0's Main Phase 1 menu
    duel.summon(mouse)
    duel.expect(jar).has_counters(0x1901, 1)

Set-up (before ``start``) puts cards straight into zones, the way puzzles do
with the Debug library (the engine's ``debug_add_card``, ``debug_pre_add_counter``,
``debug_pre_equip``): nobody draws an opening hand, the hand and Deck are what
the test put there.  ``start(turn, player, phase)`` then begins that player's
turn at that phase: the turn counter is set so that ``turn`` is the current
turn, the phases before ``phase`` are left out (no draw, no Standby Phase
unless asked for), and the duel runs until it first waits for a decision.

Actions (activate, summon, set, attack, pass_, next_phase, end_phase, answer)
answer one prompt and run the duel on, answering every later prompt from the
scripted answers (answers.py), until the duel waits for a decision the test
did not script.  Command menus (Main/Battle Phase) and chain windows that offer
something are where the test takes over again; any other question nobody
answered fails the test with the question described in words and the board.
A chain window with nothing to chain is passed automatically.

In strict mode (the default, and the pytest plugin's default) any script error
fails the test at once, with the card, ``c<ID>.lua:line``, the effect and
callback that ran, and the Lua traceback.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from duelhost import paths
from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.messages import (MsgAddCounter, MsgChaining, MsgFlipSummoning, MsgHint, MsgMove,
                                      MsgNewTurn, MsgPosChange, MsgRemoveCounter, MsgSet, MsgSpSummoning,
                                      MsgSummoning, Prompt)
from duelhost.engine.responses import InvalidResponse, Response

from . import answers as A
from . import expect as E
from . import words
from .board import draw_board, draw_cards
from .cardref import CardRef, in_location, matches
from .errors import (AnswerMismatch, LuaEvalError, LuaScriptError, ScenarioError, UnansweredPrompt)
from .expect import CardExpectation
from .puzzle import dump_puzzle
from .questions import CONTROL_KINDS, PromptView, card_at

__all__ = ["Scenario", "CardRef", "DEFAULT_SCENARIO_OPTIONS", "WrongMoment", "UnusedAnswers", "load_puzzle"]

DEFAULT_SCENARIO_OPTIONS = (5 << 16) | C.DUEL_ATTACK_FIRST_TURN
"""Master Rule 2020; like puzzles, the first turn may attack (DUEL_ATTACK_FIRST_TURN)."""

MAX_RESPONSES_PER_ACTION = 5000


class WrongMoment(AssertionError):
    """An action that does not fit what the duel is waiting for (the message says what it waits for)."""


class UnusedAnswers(AssertionError):
    """Answers given for an action were not asked for."""


# ---- the scenario --------------------------------------------------------------------------------

def _as_list(x: Any) -> list:
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


class Scenario:
    """A duel built and played by a test (see the module docstring)."""

    def __init__(self, *, scripts: str | Path | Sequence[str | Path] | None = None,
                 db: str | Path | CardDatabase | None = None, seed: int = 0, strict: bool = True,
                 options: int = DEFAULT_SCENARIO_OPTIONS, auto_pass: bool = False,
                 counter_names: dict[int, str] | None = None, default_zones: bool = True,
                 time_budget: float = 1.0) -> None:
        """``scripts``: a script folder or several (searched in order; the bundled folder is always
        searched last, so a folder of only c<ID>.lua files works); ``db``: a cards.cdb-schema file or
        an open CardDatabase (default: the bundled cards.db).  ``strict``: any script error fails the
        test.  ``auto_pass``: also pass chain windows that offer something, unless an answer says otherwise.
        ``default_zones``: when nothing scripted answers "which zone?" (where a card is placed), take the
        asked player's own lowest free zone."""
        # lazy: the duel host (the whole engine) and the Lua runtime load with the first scenario,
        # so loading the pytest plugin and `import duelhost.testing` stay light
        from duelhost.bindings.host import HostOptions
        from duelhost.host import Duel as HostDuel
        folders = [Path(p) for p in (_as_list(scripts) if not isinstance(scripts, (str, Path)) else [scripts])]
        bundled = paths.bundled_scripts()
        if all(f.resolve() != bundled.resolve() for f in folders):
            folders.append(bundled)
        self.script_folders = folders
        self.db = db if isinstance(db, CardDatabase) else CardDatabase.open(db if db is not None
                                                                             else paths.bundled_db())
        self.script_host = _test_host_class()(folders, HostOptions(card_name=self._name_or_none,
                                                                   time_budget=time_budget))
        self.host = HostDuel(db=self.db, seed=seed, options=options, script_host=self.script_host)
        self.engine = self.host.engine
        self.strict = strict
        self.auto_pass = auto_pass
        self.default_zones = default_zones
        self.counter_names: dict[int, str] = dict(counter_names or {})
        self.answers = A.Answers()
        self._action_answers: A.Answers | None = None
        self._optional_answers: A.Answers | None = None
        self._errors_seen = 0
        self._started = False
        self._view: PromptView | None = None
        self._msg_cards: dict[int, Any] = {}
        self._refs: dict[int, CardRef] = {}
        self._names: dict[str, int] | None = None
        self.action_start = 0           # index in messages where the last action began
        self.html_page: Path | None = None   # where a failed expectation writes its page (the plugin sets it)
        self._recorder: Any = None
        for p in (0, 1):
            self.host.set_player(p, lp=8000, start_hand=0, draw=1)
        self._install_tracker()

    def __repr__(self) -> str:
        if not self._started:
            return f"<Scenario (setting up): {len(self.cards())} card(s) placed>"
        if self.ended:
            return f"<Scenario ended: {self.result_words()}>"
        req = self.host.request
        waiting = f"; waiting for player {req.player}: {req.NAME}" if req is not None else ""
        return (f"<Scenario turn {self.turn}, player {self.turn_player}'s {words.phase_word(self.phase)}"
                f"{waiting}>")

    # ----- names ---------------------------------------------------------------------------------

    def _name_or_none(self, code: int) -> str | None:
        rec = self.db.find(code & 0x7FFFFFFF)
        return rec.name if rec is not None and rec.name else None

    def card_name(self, code: int) -> str:
        return self.host.card_name(code)

    def code_of(self, card: int | str | CardRef) -> int:
        """The code of a card named by code, name or CardRef (ScenarioError for an unknown name)."""
        if isinstance(card, CardRef):
            return card.code
        if isinstance(card, int):
            if card not in self.db:
                raise ScenarioError(f"card {card} has no row in the card database {self.db.source}")
            return card
        if self._names is None:
            self._names = _name_index(self.db)
        key = card.strip().lower()
        if key not in self._names:
            close = [n for n in self._names if key in n][:5]
            hint = f"; did you mean: {', '.join(close)}" if close else ""
            raise ScenarioError(f"no card named {card!r} in {self.db.source}{hint}")
        return self._names[key]

    def ref(self, engine_card: Any) -> CardRef:
        """The CardRef of an engine card (one per card)."""
        r = self._refs.get(id(engine_card))
        if r is None or r.engine is not engine_card:
            r = self._refs[id(engine_card)] = CardRef(self, engine_card)
        return r

    def effect_index(self, effect: Any) -> int | None:
        """1-based place of an effect among its card's effects in the order initial_effect registered them."""
        card = effect.get_handler() if hasattr(effect, "get_handler") else None
        if card is None:
            return None
        for i, e in enumerate(card.initial_effect, 1):
            if e is effect:
                return i
        return None

    # ----- set-up --------------------------------------------------------------------------------

    def _setup_check(self, player: int) -> None:
        if self._started:
            raise ScenarioError("the duel has started: put cards in place before start()")
        if player not in (0, 1):
            raise ScenarioError(f"player must be 0 or 1, not {player!r}")

    def add(self, card: int | str, to: str | int = "hand", *, player: int = 0, column: int | None = None,
            position: str | int | None = None, counters: dict[int, int] | None = None,
            owner: int | None = None, bottom: bool = False, material_of: CardRef | None = None,
            equip_to: CardRef | None = None, summoned: bool = True) -> CardRef:
        """Put one card somewhere before the duel starts and return it.

        ``to``: "hand", "deck" (on top; ``bottom=True`` for the bottom), "monster" (Main Monster
        Zones 0-4, Extra Monster Zones 5-6), "spell" (Spell & Trap Zones 0-4), "field zone",
        "pendulum" (column 0 left, 1 right), "gy", "banished", "extra", "material" (with
        ``material_of=`` an Xyz Monster already placed).  ``column``: the zone's sequence (default:
        the first free one).  ``position``: "attack" (default for monsters), "defense", "set",
        "face-up" (default for Spells/Traps), "face-down".  ``counters``: {counter type: count}.
        ``equip_to``: a face-up monster this card (in a Spell & Trap Zone) is equipped to.
        ``owner``: when not ``player`` (a card on the field goes back to its owner's control at once,
        as in the reference, unless an effect gives the control).
        ``summoned``: a monster on the field counts as properly summoned (default True).
        """
        __tracebackhide__ = True
        self._setup_check(player)
        code = self.code_of(card)
        if owner is None:
            owner = player
        loc = words.location_code(to)
        eng = self.engine
        if material_of is not None or loc == C.LOCATION_OVERLAY:
            if material_of is None:
                raise ScenarioError('to="material" needs material_of=<the Xyz Monster>')
            holder = material_of.engine
            if holder.current.location != C.LOCATION_MZONE or not holder.data.type & C.TYPE_XYZ:
                raise ScenarioError(f"{material_of} is not an Xyz Monster in a Monster Zone")
            # the Debug library's way: AddCard to the Xyz Monster's zone adds a material
            pcard = eng.debug_add_card(code, owner, holder.current.controler, C.LOCATION_MZONE,
                                       holder.current.sequence, C.POS_FACEUP_ATTACK, False)
            return self._placed(pcard, code, "as material")
        if loc == words.FIELD_ZONE:
            loc, column = C.LOCATION_SZONE, 5
        pzone = loc == words.PENDULUM_ZONE
        if pzone:
            loc = C.LOCATION_PZONE
            if column is None:
                column = 0 if eng.get_field_card(player, C.LOCATION_SZONE, eng.get_pzone_sequence(0)) is None else 1
            if column not in (0, 1):
                raise ScenarioError("a Pendulum Zone column is 0 (left) or 1 (right)")
        rec = self.db.get(code)
        if position is None:
            if loc == C.LOCATION_MZONE:
                pos = C.POS_FACEUP_ATTACK
            elif loc in (C.LOCATION_SZONE, C.LOCATION_PZONE, C.LOCATION_GRAVE, C.LOCATION_REMOVED):
                pos = C.POS_FACEUP
            elif loc == C.LOCATION_EXTRA:
                pos = C.POS_FACEDOWN_DEFENSE
            elif loc == C.LOCATION_HAND:
                pos = C.POS_FACEDOWN
            else:
                pos = C.POS_FACEDOWN_DEFENSE
        else:
            pos = words.position_code(position)
            if loc == C.LOCATION_SZONE and position in ("set", "face-down defense"):
                pos = C.POS_FACEDOWN
        if loc in (C.LOCATION_MZONE, C.LOCATION_SZONE) and column is None:
            column = self._free_column(player, loc)
        if loc == C.LOCATION_DECK:
            seq = 1 if bottom else 0
        elif loc in (C.LOCATION_MZONE, C.LOCATION_SZONE, C.LOCATION_PZONE):
            seq = column  # type: ignore[assignment]
        else:
            seq = 0
        if loc == C.LOCATION_MZONE and not rec.type & C.TYPE_MONSTER:
            raise ScenarioError(f"{rec.name} ({code}) is not a monster: it cannot go to a Monster Zone")
        pcard = eng.debug_add_card(code, owner, player, loc, seq, pos,
                                   summoned and loc == C.LOCATION_MZONE)
        ref = self._placed(pcard, code, f"to {to!r} column {column}" if column is not None else f"to {to!r}",
                           player)
        assert pcard is not None                  # _placed refused a card that was not placed
        for ctype, n in (counters or {}).items():
            eng.debug_pre_add_counter(pcard, ctype, n)
        if equip_to is not None:
            if not eng.debug_pre_equip(pcard, equip_to.engine):
                raise ScenarioError(f"cannot equip {ref} to {equip_to}: the equip card must be in a Spell & "
                                    "Trap Zone and the monster face-up in a Monster Zone")
        return ref

    def _placed(self, pcard: Any, code: int, what: str, player: int | None = None) -> CardRef:
        __tracebackhide__ = True
        if pcard is None:
            who = f" of player {player}" if player is not None else ""
            raise ScenarioError(f"cannot put {self.card_name(code)} ({code}) {what}{who}: the zone is taken "
                                "or cannot be used")
        self._check_errors("while the card was created (its script and initial_effect ran)")
        return self.ref(pcard)

    def _free_column(self, player: int, loc: int) -> int:
        for seq in range(5):
            if self.engine.is_location_useable(player, loc, seq):
                return seq
        raise ScenarioError(f"player {player} has no free {words.location_word(loc)}")

    def hand(self, player: int, *cards: int | str) -> list[CardRef]:
        """Put cards in a player's hand, in this order."""
        return [self.add(c, "hand", player=player) for c in cards]

    def deck(self, player: int, *cards: int | str) -> list[CardRef]:
        """Put cards in a player's Deck: the first card named is the top card."""
        refs = [self.add(c, "deck", player=player) for c in reversed(cards)]
        return list(reversed(refs))

    def extra(self, player: int, *cards: int | str) -> list[CardRef]:
        return [self.add(c, "extra", player=player) for c in cards]

    def gy(self, player: int, *cards: int | str) -> list[CardRef]:
        return [self.add(c, "gy", player=player) for c in cards]

    def banished(self, player: int, *cards: int | str) -> list[CardRef]:
        return [self.add(c, "banished", player=player) for c in cards]

    def add_counter(self, card: CardRef, counter_type: int, count: int = 1) -> None:
        """Place counters directly (Debug.PreAddCounter: no permit check, no event)."""
        if self._started:
            raise ScenarioError("add counters before start(); during the duel, counters come from card effects")
        self.engine.debug_pre_add_counter(card.engine, counter_type, count)

    def set_lp(self, player: int, lp: int) -> None:
        """A player's LP (before start(); during the duel use Lua: duel.lua('Duel.SetLP(0, 100)'))."""
        self._setup_check(player)
        self.engine.player[player].lp = lp

    def set_draw(self, player: int, count: int) -> None:
        """Cards a player draws in each Draw Phase after the first turn (default 1)."""
        self._setup_check(player)
        self.engine.player[player].draw_count = count

    # ----- starting --------------------------------------------------------------------------------

    def start(self, *, turn: int = 1, player: int = 0, phase: str | int = "main1") -> PromptView | None:
        """Begin ``player``'s turn number ``turn`` at ``phase`` ("draw", "standby", "main1", "battle",
        "main2", "end") and run to the first decision (usually that player's Main Phase menu)."""
        __tracebackhide__ = True
        if self._started:
            raise ScenarioError("start() was already called")
        if player not in (0, 1) or turn < 1:
            raise ScenarioError("start(turn>=1, player=0 or 1, phase=...)")
        ph = words.phase_code(phase)
        if ph not in (C.PHASE_DRAW, C.PHASE_STANDBY, C.PHASE_MAIN1, C.PHASE_BATTLE_START, C.PHASE_MAIN2,
                      C.PHASE_END):
            raise ScenarioError(f"a scenario starts at the Draw, Standby, Main 1, Battle, Main 2 or End Phase, "
                                f"not {words.phase_word(ph)}")
        self.host.start()
        eng = self.engine
        units = eng.core.subunits
        if not units or getattr(units[-1], "__name__", "") != "proc_turn":
            raise ScenarioError("the engine did not queue its turn procedure as expected (engine changed?)")
        units.pop()
        eng.infos.turn_id = turn - 1
        eng.infos.turn_id_by_player[player] = (turn + 1) // 2 - 1
        eng.infos.turn_id_by_player[1 - player] = turn // 2
        eng.add_process(_scenario_turn(eng, player, ph))
        self._started = True
        self.action_start = len(eng.messages)
        return self._run()

    # ----- the loop --------------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self._started

    @property
    def ended(self) -> bool:
        return self._started and self.host.finished and self.host.request is None

    @property
    def prompt(self) -> Prompt | None:
        """The decision the duel waits for (None before start and after the end)."""
        return self.host.request if self._started else None

    @property
    def view(self) -> PromptView | None:
        """The pending prompt with its options described (see questions.PromptView)."""
        req = self.prompt
        if req is None:
            return None
        if self._view is None or self._view.prompt is not req:
            self._view = PromptView(self, req)
        return self._view

    def _pick(self, view: PromptView) -> tuple[A.Answer | None, A.Answers | None]:
        for source in (self._action_answers, self._optional_answers, self.answers):
            if source is None:
                continue
            ans = source.pick(view)
            if ans is not None:
                return ans, source
        return None, None

    def _default(self, view: PromptView) -> A.Answer | None:
        if view.kind == "place" and self.default_zones:
            return A.zone()
        if view.kind == "chain":
            acts = [o for o in view.options if o.action == "activate"]
            if view.prompt.has_forced and len(acts) == 1:  # type: ignore[attr-defined]
                return A.activate()
            if self.auto_pass and not view.prompt.has_forced:  # type: ignore[attr-defined]
                return A.pass_()
        return None

    def _run(self) -> PromptView | None:
        """Answer prompts from the scripted answers until a decision the test did not script."""
        __tracebackhide__ = True
        for _ in range(MAX_RESPONSES_PER_ACTION):
            req = self.host.advance()
            self._snap(req)
            self._check_errors()
            if req is None:
                return None
            view = self.view
            assert view is not None
            if view.kind == "chain" and not any(o.action == "activate" for o in view.options):
                self._answer(view, A.pass_(), None)   # nothing to chain: not a decision
                continue
            answer, source = self._pick(view)
            if answer is None:
                answer = self._default(view)
                if answer is None:
                    if view.kind in CONTROL_KINDS:
                        return view
                    raise UnansweredPrompt(view)
            self._answer(view, answer, source)
        raise ScenarioError(f"more than {MAX_RESPONSES_PER_ACTION} answers in one action: "
                            "the scripted answers seem to loop (a rule answering forever?)")

    def _answer(self, view: PromptView, answer: A.Answer, source: A.Answers | None) -> None:
        __tracebackhide__ = True
        out = answer.respond(view)
        if source is not None:
            source.used(answer, view)
        self._send(view, out, answer)

    def _send(self, view: PromptView, response: Any, answer: Any = None) -> None:
        __tracebackhide__ = True
        if self._recorder is not None:
            self._recorder.answered(repr(response))
        try:
            self.host.respond(response)
        except InvalidResponse as exc:
            raise AnswerMismatch(view, answer, f"the duel refuses it: {exc.reason}") from None
        self._view = None
        self._check_errors()

    def _check_errors(self, when: str = "") -> None:
        __tracebackhide__ = True
        errors = self.script_host.errors
        if len(errors) > self._errors_seen:
            new = errors[self._errors_seen:]
            self._errors_seen = len(errors)
            if self.strict:
                raise LuaScriptError(new, self, when)

    def error_effect(self, err: Any) -> dict[str, Any]:
        """Which effect a recorded script error's call belonged to (empty when not an effect's callback)."""
        return getattr(self.script_host, "error_effects", {}).get(id(err), {})

    @property
    def script_errors(self) -> list[Any]:
        """Every script error recorded so far (ScriptError records of the host)."""
        return list(self.script_host.errors)

    # ----- actions ---------------------------------------------------------------------------------

    def _need(self, kinds: Iterable[str], action: str) -> PromptView:
        __tracebackhide__ = True
        if not self._started:
            raise ScenarioError(f"{action}: call start() first")
        view = self.view
        if view is None:
            raise WrongMoment(f"{action}: the duel has ended ({self.result_words()})\n\n{self.board()}")
        kinds = tuple(kinds)
        if view.kind not in kinds:
            raise WrongMoment(f"{action} cannot be done now: the duel is not waiting for "
                              f"{' or '.join(_KIND_WORDS.get(k, k) for k in kinds)}.\n\n" + view.describe())
        return view

    def _act(self, view: PromptView, response: Any, answers: Any, action: str,
             optional: Sequence[A.Answer] = ()) -> PromptView | None:
        __tracebackhide__ = True
        self._action_answers = A.Answers().queue(*_as_list(answers)) if answers is not None else None
        self._optional_answers = A.Answers().queue(*optional) if optional else None
        self.action_start = len(self.engine.messages)
        try:
            self._send(view, response)
            result = self._run()
            left = self._action_answers.unused() if self._action_answers is not None else []
            if left:
                raise UnusedAnswers(f"{action}: these answers were never asked for: "
                                    + ", ".join(a.describe() for a in left)
                                    + "\n\nThe duel now waits for:\n" + self.waiting_words() + "\n\n"
                                    + self.recent_log())
            return result
        finally:
            self._action_answers = None
            self._optional_answers = None

    def activate(self, card: Any = None, *, desc: int | str | None = None, index: int | None = None,
                 answers: Any = None) -> PromptView | None:
        """Activate ``card``'s effect from the Main/Battle Phase menu, in a chain window, or say yes when
        asked whether to use it.  ``desc``: the effect's description number or a piece of its text;
        ``index``: the effect's place among the card's effects (1 = registered first).
        ``answers``: scripted answers for the prompts this activation leads to."""
        __tracebackhide__ = True
        view = self._need(("idle", "battle", "chain", "effect_yes_no"), "activate()")
        opt = A.pick_activation(view, card, desc, index)
        return self._act(view, opt.response, answers, "activate()")

    def _menu_card(self, view: PromptView, action: str | tuple, card: Any, what: str) -> Any:
        __tracebackhide__ = True
        actions = (action,) if isinstance(action, str) else action
        cands = [o for o in view.options if o.action in actions]
        hits = [o for o in cands if A.card_matches(view, card, o)]
        if not hits:
            raise WrongMoment(f"{what}: {A.spec_label(card)} is not offered.\n\n" + view.describe())
        return hits[0]

    def summon(self, card: Any, *, tributes: Sequence[Any] | None = None, answers: Any = None) -> PromptView | None:
        """Normal Summon ``card`` (``tributes``: the monsters to Tribute, if it needs any)."""
        __tracebackhide__ = True
        view = self._need(("idle",), "summon()")
        opt = self._menu_card(view, "summon", card, "summon()")
        extra = [A.choose(*tributes)] if tributes else []
        return self._act(view, opt.response, extra + _as_list(answers) if answers or extra else None, "summon()")

    def set(self, card: Any, *, tributes: Sequence[Any] | None = None, answers: Any = None) -> PromptView | None:
        """Set a monster (face-down Defense Position) or a Spell/Trap from the hand."""
        __tracebackhide__ = True
        view = self._need(("idle",), "set()")
        opt = self._menu_card(view, "set", card, "set()")
        extra = [A.choose(*tributes)] if tributes else []
        return self._act(view, opt.response, extra + _as_list(answers) if answers or extra else None, "set()")

    def special_summon(self, card: Any, *, answers: Any = None) -> PromptView | None:
        """Special Summon ``card`` by its own procedure (the Main Phase menu's Special Summon list)."""
        __tracebackhide__ = True
        view = self._need(("idle",), "special_summon()")
        opt = self._menu_card(view, "special_summon", card, "special_summon()")
        return self._act(view, opt.response, answers, "special_summon()")

    def change_position(self, card: Any, *, answers: Any = None) -> PromptView | None:
        """Change a monster's battle position (or Flip Summon it) from the Main Phase menu."""
        __tracebackhide__ = True
        view = self._need(("idle",), "change_position()")
        opt = self._menu_card(view, "reposition", card, "change_position()")
        return self._act(view, opt.response, answers, "change_position()")

    flip_summon = change_position

    def attack(self, attacker: Any, target: Any = None, *, answers: Any = None) -> PromptView | None:
        """Attack with ``attacker``: ``target`` a monster, or None / "direct" for a direct attack.
        From Main Phase 1 the duel first goes to the Battle Phase."""
        __tracebackhide__ = True
        view = self._need(("idle", "battle"), "attack()")
        if view.kind == "idle":
            bp = next((o for o in view.options if o.action == "battle_phase"), None)
            if bp is None:
                raise WrongMoment("attack(): the Battle Phase cannot be entered now.\n\n" + view.describe())
            self._act(view, bp.response, None, "attack() (entering the Battle Phase)")
            view = self._need(("battle",), "attack()")
        opt = self._menu_card(view, "attack", attacker, "attack()")
        if target is None or target == "direct":
            optional = [A.yes()]
        else:
            optional = [A.no(), A.choose(target)]
        return self._act(view, opt.response, answers, "attack()",
                         optional=[_Optional(optional)])

    def pass_(self, *, answers: Any = None) -> PromptView | None:
        """Do not chain (chain window) / do not use the effect (when asked)."""
        __tracebackhide__ = True
        view = self._need(("chain", "effect_yes_no"), "pass_()")
        return self._act(view, A.pass_().respond(view), answers, "pass_()")

    def _phase_action(self, view: PromptView, wanted: Sequence[str], what: str, answers: Any) -> PromptView | None:
        __tracebackhide__ = True
        for action in wanted:
            opt = next((o for o in view.options if o.action == action), None)
            if opt is not None:
                return self._act(view, opt.response, answers, what)
        raise WrongMoment(f"{what}: not possible now.\n\n" + view.describe())

    def next_phase(self, *, answers: Any = None) -> PromptView | None:
        """Main Phase 1 -> Battle Phase (else End Phase); Battle Phase -> Main Phase 2 (else End
        Phase); Main Phase 2 -> End Phase."""
        __tracebackhide__ = True
        view = self._need(("idle", "battle"), "next_phase()")
        if view.kind == "idle":
            return self._phase_action(view, ("battle_phase", "end_phase"), "next_phase()", answers)
        return self._phase_action(view, ("main2", "end_phase"), "next_phase()", answers)

    def battle_phase(self, *, answers: Any = None) -> PromptView | None:
        __tracebackhide__ = True
        view = self._need(("idle",), "battle_phase()")
        return self._phase_action(view, ("battle_phase",), "battle_phase()", answers)

    def main_phase_2(self, *, answers: Any = None) -> PromptView | None:
        __tracebackhide__ = True
        view = self._need(("battle",), "main_phase_2()")
        return self._phase_action(view, ("main2",), "main_phase_2()", answers)

    def end_phase(self, *, answers: Any = None) -> PromptView | None:
        """Go to the End Phase; the duel runs on (into the next turn) until the next decision."""
        __tracebackhide__ = True
        view = self._need(("idle", "battle"), "end_phase()")
        return self._phase_action(view, ("end_phase",), "end_phase()", answers)

    end_turn = end_phase

    def answer(self, *answers: Any) -> PromptView | None:
        """Answer the pending prompt (and the ones after it) with these answers, in order."""
        __tracebackhide__ = True
        if not answers:
            raise ScenarioError("answer() needs at least one answer")
        view = self._need(tuple(_KIND_WORDS), "answer()")
        first, rest = A.as_answer(answers[0]), answers[1:]
        if not first.fits(view):
            raise AnswerMismatch(view, first, "it does not answer this kind of prompt")
        out = first.respond(view)
        if first.sticky:
            rest = (first,) + tuple(rest)
        return self._act(view, out, list(rest) if rest else None, "answer()")

    def respond(self, response: Response | bytes) -> PromptView | None:
        """Send a raw response (duelhost.engine.responses) to the pending prompt, then run on."""
        __tracebackhide__ = True
        view = self._need(tuple(_KIND_WORDS), "respond()")
        return self._act(view, response, None, "respond()")

    # ----- looking at the duel ---------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.engine.infos.turn_id

    @property
    def turn_player(self) -> int:
        return self.engine.infos.turn_player

    @property
    def phase(self) -> int:
        return self.engine.infos.phase

    def lp(self, player: int) -> int:
        return self.engine.player[player].lp

    def cards(self, card: Any = None, *, player: int | None = None, where: str | int | None = None) -> list[CardRef]:
        """Cards in the duel (Xyz materials included), optionally by code/name/predicate, controller, location."""
        out = []
        loc = None if where is None else words.location_code(where)
        for c in self.engine.cards:
            if c.data.code == 0 or c is self.engine.temp_card or c.current.location == 0:
                continue
            ref = self.ref(c)
            if player is not None and ref.controller != player:
                continue
            if loc is not None and not in_location(ref, loc):
                continue
            if card is not None and not matches(self, card, ref):
                continue
            out.append(ref)
        return out

    def find(self, card: Any, *, player: int | None = None, where: str | int | None = None) -> CardRef:
        """The one card that matches (ScenarioError listing the candidates if none or several)."""
        __tracebackhide__ = True
        hits = self.cards(card, player=player, where=where)
        if len(hits) == 1:
            return hits[0]
        what = A.spec_label(card) + (f" of player {player}" if player is not None else "") + (
            f" in {where}" if where is not None else "")
        if not hits:
            raise ScenarioError(f"no card matches {what}\n\n{self.board()}")
        raise ScenarioError(f"{len(hits)} cards match {what}: " + "; ".join(map(str, hits))
                            + "\nsay which with player= or where=")

    def board(self) -> str:
        """The whole board as text."""
        return draw_board(self)

    def show(self, x: Any = None) -> str:
        """A card, a list of cards, or (no argument) the whole board as text."""
        if x is None:
            return self.board()
        if isinstance(x, CardRef):
            return x.show()
        if hasattr(x, "data") and hasattr(x, "current"):
            return words.card_words(self, x)
        return draw_cards(self, x)

    def waiting_words(self) -> str:
        if self.ended:
            return f"nothing: the duel has ended ({self.result_words()})"
        v = self.view
        return v.describe(board=False) if v is not None else "nothing (not started)"

    def result_words(self) -> str:
        win = self.host.win()
        if win is None:
            return "no winner yet"
        loser = "both players" if win.player == 2 else f"player {1 - win.player}"
        reasons = {0: "surrender", 1: f"{loser}'s LP reached 0",
                   2: f"{loser} had to draw from an empty Deck"}
        why = reasons.get(win.reason, f"win reason {win.reason}: a card's effect")
        if win.player == 2:
            return f"a draw ({why})"
        return f"player {win.player} won ({why})"

    @property
    def messages(self) -> list[Any]:
        return self.engine.messages

    def message_card(self, index: int) -> CardRef | None:
        """The card a message (by its index in ``messages``) was about, when the scenario could tell."""
        c = self._msg_cards.get(index)
        return None if c is None else self.ref(c)

    def log_lines(self, start: int = 0, end: int | None = None) -> list[str]:
        """Messages from ``start`` described with card names (prompts and hints left out)."""
        out = []
        for i, m in enumerate(self.engine.messages[start:end], start):
            if isinstance(m, (Prompt, MsgHint)) or m.NAME in ("RETRY", "CARD_HINT", "PLAYER_HINT", "CHAINED",
                                                              "SUMMONED", "SPSUMMONED", "FLIPSUMMONED"):
                continue
            out.append(f"[{i}] " + self._message_words(m))
        return out

    def _message_words(self, m: Any) -> str:
        name = self.card_name
        if isinstance(m, MsgMove):
            def where(loc: Any) -> str:
                if not loc.location:
                    return "nowhere (left the duel)"
                if loc.location & C.LOCATION_OVERLAY:
                    return loc.describe()
                return words.zone_word(loc.controller, loc.location, loc.sequence)
            why = f" [{words.reason_words(m.reason)}]" if m.reason else ""
            return f"MOVE {name(m.code)} ({m.code}): {where(m.previous)} -> {where(m.current)}{why}"
        if isinstance(m, MsgChaining):
            desc = words.desc_words(self, m.description)
            return (f"CHAINING link {m.chain_count}: {name(m.code)} ({m.code}) activates"
                    + (f" {desc}" if desc else ""))
        if isinstance(m, (MsgSummoning, MsgSpSummoning, MsgFlipSummoning)):
            what = {MsgSummoning: "Normal Summon", MsgSpSummoning: "Special Summon",
                    MsgFlipSummoning: "Flip Summon"}[type(m)]
            return (f"{m.NAME} {what} of {name(m.code)} ({m.code}) to "
                    f"{words.zone_word(m.loc.controller, m.loc.location, m.loc.sequence)}, "
                    f"{words.position_word(m.loc.position)}")
        if isinstance(m, (MsgAddCounter, MsgRemoveCounter)):
            card = self.engine.get_field_card(m.controller, m.location, m.sequence)
            who = f"{name(card.data.code)} ({card.data.code})" if card is not None else \
                words.zone_word(m.controller, m.location, m.sequence)
            verb = "+" if isinstance(m, MsgAddCounter) else "-"
            return f"{m.NAME} {verb}{words.counter_words(self, m.counter_type, m.count)} on {who}"
        return m.describe(name)

    def recent_log(self, n: int = 25) -> str:
        lines = self.log_lines(max(0, self.action_start - 5))
        if len(lines) > n:
            lines = [f"... {len(lines) - n} earlier"] + lines[-n:]
        return "What happened (since shortly before the last action):\n  " + "\n  ".join(lines or ["(nothing)"])

    # ----- Lua ---------------------------------------------------------------------------------------

    def lua(self, code: str, *args: Any) -> Any:
        """Run a Lua chunk inside the duel and return its result converted to Python.

        ``duel.lua("return Duel.GetLP(0)")`` -> 8000.  Cards come back as CardRef, groups as lists of
        CardRef, tables as dicts/lists; several results as a tuple.  Arguments are passed as ``...``
        (CardRef/engine cards become card handles).  The chunk runs like a condition: it may read
        anything but actions (Duel.Destroy, ...) are refused."""
        __tracebackhide__ = True
        host = self.script_host
        if host.sandbox is None:
            raise LuaEvalError("the Lua state is closed")
        loader = self._lua_loader()
        fn = None
        compile_error = ""
        for src in ("return " + code, code):       # an expression, else a chunk (like Lua's REPL)
            out = self._lua_call(loader, (src, "=duel.lua", "t"))
            fn = out[0] if out else None
            if fn is not None:
                break
            compile_error = str(out[1]) if len(out) > 1 else compile_error
        if fn is None:
            raise LuaEvalError(f"duel.lua: the chunk does not compile: {compile_error}\n{code}")
        largs = tuple(a.engine if isinstance(a, CardRef) else a for a in args)
        values = self._lua_call(fn, largs, convert=True)
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    def _lua_call(self, fn: Any, args: tuple, convert: bool = False) -> tuple:
        """A plain call through the host (actions refused, as in a condition); a failure raises
        LuaEvalError instead of counting as a script error of the duel."""
        host = self.script_host
        n_errors, n_log = len(host.errors), len(host.log)
        host.call_depth += 1            # keeps the groups the chunk returns alive until converted
        try:
            out = host.call_function(fn, *args)
            if len(host.errors) > n_errors:
                err = host.errors[n_errors]
                del host.errors[n_errors:]
                del host.log[n_log:]
                keep = [ln for ln in (err.traceback or "").splitlines()[1:]
                        if "tail calls" not in ln and ln.strip() != "stack traceback:"
                        and not ln.strip().startswith("[C]:")]
                tail = "\n".join(["stack traceback:"] + keep) if keep else ""
                raise LuaEvalError(f"duel.lua: {err.message}\n{tail}".rstrip())
            if convert:
                out = tuple(self._from_lua(v, 0) for v in out)
            return out
        finally:
            leave = getattr(host, "_leave_depth", None)
            if leave is not None:
                leave()
            else:                        # pragma: no cover - a host without the reference's counter
                host.call_depth -= 1

    def _lua_loader(self) -> Any:
        loader = getattr(self, "_loader", None)
        if loader is None:
            loader = self._loader = self.script_host.sandbox.lua.globals()["load"]
        return loader

    def _from_lua(self, v: Any, depth: int) -> Any:
        # lazy: the card model loads with the first duel, not with the pytest plugin
        from duelhost.engine.card import Card
        from duelhost.engine.group import Group
        if isinstance(v, Card):
            return self.ref(v)
        if isinstance(v, Group):
            return [self.ref(c) for c in v]
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if depth < 4 and type(v).__name__ == "_LuaTable":
            items = {}
            for k, val in v.items():
                items[self._from_lua(k, depth + 1)] = self._from_lua(val, depth + 1)
            n = len(items)
            if n and all(isinstance(k, int) for k in items) and sorted(items) == list(range(1, n + 1)):
                return [items[i] for i in range(1, n + 1)]
            return items
        return v

    # ----- expectations and dumps ------------------------------------------------------------------

    def expect(self, card: Any) -> Any:
        """Expectations about one card: ``duel.expect(card).in_gy().has_counters(0x1, 2)``."""
        __tracebackhide__ = True
        ref = card if isinstance(card, CardRef) else self.find(card)
        return CardExpectation(self, ref)

    def expect_lp(self, player: int, lp: int) -> None:
        """Player ``player`` has exactly ``lp`` LP."""
        __tracebackhide__ = True
        E.expect_lp(self, player, lp)

    def expect_phase(self, phase: str | int, *, player: int | None = None, turn: int | None = None) -> None:
        __tracebackhide__ = True
        E.expect_phase(self, phase, player=player, turn=turn)

    def expect_destroyed(self, card: Any = None, *, by: str | None = None, count: int | None = None,
                         since: str | int = "start") -> None:
        """A destroyed event for ``card`` happened (by "battle" / "effect"; ``count`` times)."""
        __tracebackhide__ = True
        E.expect_destroyed(self, card, by=by, count=count, since=since)

    def expect_moved(self, card: Any, *, to: str | int | None = None, reason: int | None = None,
                     since: str | int = "start") -> None:
        __tracebackhide__ = True
        E.expect_moved(self, card, to=to, reason=reason, since=since)

    def expect_summoned(self, card: Any = None, *, how: str | None = None, position: str | int | None = None,
                        token: bool | None = None, player: int | None = None, count: int | None = None,
                        since: str | int = "start") -> None:
        """A summon of ``card`` happened (how: "normal"/"special"/"flip"; position; a Token; ``count``)."""
        __tracebackhide__ = True
        E.expect_summoned(self, card, how=how, position=position, token=token, player=player, count=count,
                               since=since)

    def expect_chain(self, links: int, *, cards: list[Any] | None = None, since: str | int = "start") -> None:
        """A chain of exactly ``links`` links was built (``cards``: its cards, link 1 first)."""
        __tracebackhide__ = True
        E.expect_chain(self, links, cards=cards, since=since)

    def expect_activated(self, card: Any, *, desc: int | None = None, since: str | int = "start") -> None:
        __tracebackhide__ = True
        E.expect_activated(self, card, desc=desc, since=since)

    def expect_damage(self, player: int, amount: int | None = None, *, since: str | int = "start") -> None:
        __tracebackhide__ = True
        E.expect_damage(self, player, amount, since=since)

    def expect_won(self, player: int) -> None:
        __tracebackhide__ = True
        E.expect_won(self, player)

    def expect_prompt(self, kind: str, *, player: int | None = None) -> None:
        """The duel waits for this kind of decision ("idle", "chain", "card", ...)."""
        __tracebackhide__ = True
        E.expect_prompt(self, kind, player=player)

    def expect_no_script_errors(self) -> None:
        __tracebackhide__ = True
        E.expect_no_script_errors(self)

    def dump_puzzle(self, path: str | Path | None = None) -> str:
        """The board as a puzzle file (Lua, Debug library); written to ``path`` when given."""
        text = dump_puzzle(self)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    # ----- the duel as a page ----------------------------------------------------------------------

    def html_recorder(self) -> Any:
        """The recorder of this scenario's timeline (duelhost.html.Recorder), made at the first use."""
        if self._recorder is None:
            from duelhost.html import Recorder   # lazy: page writing loads only when a test asks for a page
            self._recorder = Recorder(self.engine, self.card_name, self.db)
        return self._recorder

    def _snap(self, prompt: Any) -> None:
        """One timeline step at each prompt the duel reaches (only when a page may be written)."""
        if self.html_page is None:
            return
        rec = self.html_recorder()
        if not rec.steps or rec.steps[-1]["to"] != len(self.engine.messages):
            rec.snap(prompt)

    def write_html_page(self, failure: str = "") -> Path | None:
        """Write the duel as an HTML page to ``html_page`` (board, timeline, the failure); the
        path, or None when no page is wanted or it could not be written."""
        if self.html_page is None:
            return None
        try:
            from duelhost.html import scenario_page   # lazy: as html_recorder
            return scenario_page(self, self.html_page, title=self.html_page.stem, failure=failure)
        except Exception:        # the page is a courtesy: the failure itself must still be reported
            return None

    def close(self) -> None:
        self.script_host.close()

    # ----- message tracking ----------------------------------------------------------------------

    def _install_tracker(self) -> None:
        eng = self.engine
        messages = eng.messages
        cards = self._msg_cards

        def emit(msg: Any) -> None:
            i = len(messages)
            messages.append(msg)
            try:
                c = _message_card(eng, msg)
            except Exception:      # never let bookkeeping break the duel
                c = None
            if c is not None:
                cards[i] = c
        eng.emit = emit  # type: ignore[method-assign]


# ---- puzzle files --------------------------------------------------------------------------------

def load_puzzle(source: str | Path, **scenario_options: Any) -> Scenario:
    """Run a puzzle file (a path, or its text) in a new Scenario and start the duel.

    Like the reference's single mode: the script runs first (Debug.ReloadFieldBegin
    starts over with an empty duel), then the duel starts at player 0's Draw Phase
    of turn 1 and runs to the first decision.  ``scenario_options`` go to Scenario
    (scripts=, db=, seed=, strict=, ...)."""
    text: str
    if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and source.endswith(".lua")):
        path = Path(source)
        text = path.read_text(encoding="utf-8")
        name = path.name
    else:
        text, name = str(source), "puzzle.lua"
    scenario_options.setdefault("options", 0)   # the rule and flags come from Debug.ReloadFieldBegin
    sc = Scenario(**scenario_options)
    host = sc.script_host
    with tempfile.TemporaryDirectory(prefix="duelhost-puzzle-") as tmp:
        folder = Path(tmp)
        (folder / name).write_text(text, encoding="utf-8")
        host.script_dirs.insert(0, folder)
        try:
            ok = host.load_script(name)
        finally:
            host.script_dirs.remove(folder)
    if not ok:
        errors = sc.script_errors
        if errors:
            raise LuaScriptError(errors, sc, f"while running the puzzle file {name}")
        raise ScenarioError(f"the puzzle file {name} could not be run")
    sc._check_errors(f"while running the puzzle file {name}")
    sc.start(turn=1, player=0, phase="draw")
    return sc


_KIND_WORDS = {
    "idle": "the Main Phase menu", "battle": "the Battle Phase menu", "chain": "a chain window",
    "effect_yes_no": "a 'use the effect?' question", "yes_no": "a yes/no question", "option": "an option",
    "card": "a card selection", "unselect_card": "a card selection", "place": "a zone", "disfield": "a zone",
    "position": "a position", "tribute": "Tributes", "counter": "counters to remove", "sum": "a sum selection",
    "sort": "an order", "race": "a Type", "attribute": "an Attribute", "announce_card": "a card name",
    "number": "a number", "rps": "rock-paper-scissors",
}


class _Optional(A.Answer):
    """Answers an action may need or not (an attack's target): used when they fit, never 'left over'."""

    def __init__(self, answers: list[A.Answer]) -> None:
        self.answers = answers

    def fits(self, view: PromptView) -> bool:
        return any(a.fits(view) for a in self.answers)

    def respond(self, view: PromptView) -> Any:
        __tracebackhide__ = True
        for a in self.answers:
            if a.fits(view):
                return a.respond(view)
        raise AssertionError("unreachable")

    def done(self, view: PromptView) -> bool:
        return False

    def describe(self) -> str:
        return " / ".join(a.describe() for a in self.answers)


_TEST_HOST: Any = None


def _test_host_class() -> Any:
    """LuaScriptHost that also remembers which effect each failed script call belonged to."""
    global _TEST_HOST
    if _TEST_HOST is None:
        from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime (as Scenario.__init__)

        class TestScriptHost(LuaScriptHost):
            def _failed(self, out: Any, fn: Any, args: Any, *rest: Any, **kw: Any) -> None:
                n = len(self.errors)
                try:
                    super()._failed(out, fn, args, *rest, **kw)
                finally:
                    if len(self.errors) > n:
                        info = effect_fields(args)
                        if info:
                            if not hasattr(self, "error_effects"):
                                self.error_effects = {}
                            self.error_effects[id(self.errors[-1])] = info
        _TEST_HOST = TestScriptHost
    return _TEST_HOST


def effect_fields(args: Any) -> dict[str, Any]:
    """The effect a failed call belonged to (its first argument): code, type, description and
    its place among the effects its card's initial_effect registered."""
    from duelhost.engine.effect import Effect   # lazy: only a failing script call asks (as _from_lua)
    if not isinstance(args, tuple) or not args or type(args[0]) is not Effect:
        return {}
    e = args[0]
    index = count = None
    card = e.handler if e.handler is not None else e.owner
    if card is not None:
        initial = list(card.initial_effect)
        count = len(initial) or None
        for i, other in enumerate(initial, 1):
            if other is e:
                index = i
                break
    return {"effect_code": e.code, "effect_type": e.type, "effect_description": e.description,
            "effect_index": index, "effect_count": count}


def _message_card(eng: Any, msg: Any) -> Any:
    if isinstance(msg, MsgMove):
        if msg.current.location:
            return card_at(eng, msg.current)
        return card_at(eng, msg.previous)
    if isinstance(msg, (MsgSummoning, MsgSpSummoning, MsgFlipSummoning, MsgSet, MsgChaining)):
        return card_at(eng, msg.loc)
    if isinstance(msg, (MsgAddCounter, MsgRemoveCounter, MsgPosChange)):
        return eng.get_field_card(msg.controller, msg.location, msg.sequence)
    return None


def _name_index(db: CardDatabase) -> dict[str, int]:
    """Lower-case name -> code (the lowest code when several cards share a name)."""
    index: dict[str, int] = {}
    src = Path(db.source)
    if src.is_file():
        try:
            con = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
            try:
                for code, name in con.execute("SELECT id, name FROM texts ORDER BY id"):
                    if name and code in db:
                        index.setdefault(str(name).lower(), code)
            finally:
                con.close()
            return index
        except sqlite3.Error:
            index.clear()
    for rec in db:
        if rec.name:
            index.setdefault(rec.name.lower(), rec.code)
    return index


def _scenario_turn(eng: Any, tp: int, phase: int) -> Any:
    """The turn procedure, starting ``tp``'s turn at ``phase``, then the usual alternating turns."""
    eng._start_of_turn(tp)
    eng.emit(MsgNewTurn(player=tp))
    if phase <= C.PHASE_DRAW:
        yield from eng._draw_phase(tp)
    if phase <= C.PHASE_STANDBY:
        yield from eng._standby_phase(tp)
    go_main2 = True
    skip_m2 = False
    if phase <= C.PHASE_MAIN1:
        to_battle = yield from eng._main_phase_1(tp)
    else:
        to_battle = phase == C.PHASE_BATTLE_START
        go_main2 = phase <= C.PHASE_MAIN2
    if to_battle:
        skip_m2 = yield from eng._battle_phases(tp)
        if skip_m2 is None:
            go_main2 = False
    elif phase <= C.PHASE_MAIN1:
        go_main2 = False
    if go_main2 and phase <= C.PHASE_MAIN2:
        yield from eng._main_phase_2(tp, bool(skip_m2))
    yield from eng._end_phase(tp)
    yield from eng._turn_end(tp)
    yield from eng.proc_turn(1 - tp)
