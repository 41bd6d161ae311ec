"""The host API: create a duel, set it up, and drive it from Python.

    from duelhost import Duel, RandomPlayer

    duel = Duel(seed=7)                       # bundled cards.db and scripts/
    duel.add_deck(0, main=[...], extra=[...], shuffle=True)
    duel.add_deck(1, main=[...])
    duel.start()
    outcome = duel.run([RandomPlayer(1), RandomPlayer(2)])

or step by step:

    request = duel.advance()                  # the next decision (a typed prompt) or None
    duel.respond(IdleCmdResponse(command=7, index=0))

A *request* is the reference's prompt message (MsgSelectIdleCmd, MsgSelectCard,
...): who must answer (``request.player``), what kind of choice, and the legal
options.  A *response* is a typed answer (duelhost.engine.responses) or the
raw response bytes.  An answer that is not legal raises ``InvalidResponse``
with the reason and changes nothing.  Every message the duel wrote is in
``duel.messages`` (typed) and ``duel.message_bytes()`` (the reference's bytes).

The engine duel is stepped by ``duel.driver``, a duelhost.driver.Driver (the one
object every tool drives duels with); it also has the messages of the last step
(``duel.driver.new_messages()``) and every answer sent (``duel.driver.answers``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase, UnknownCardError
from duelhost.engine.duel import card_reader_from_db
from duelhost.engine.messages import Message, MsgWin, Prompt, encode_messages
from duelhost.engine.responses import InvalidResponse, Response, encode_response, int_response, parse_response

from . import paths
from . import snapshot as _snapshot
from .driver import Driver
from .puzzle_file import run_lua_file
from .snapshot import DuelSnapshot, ForkError, file_sha256, open_db
from .legal import legal_responses as _legal_responses
from .state import snapshot as _board_snapshot

DEFAULT_OPTIONS = 5 << 16   # Master Rule 2020, no option flags (as the recorded reference duels)

_OUTSIDE_SETUP = ("its engine was set up behind the host's back (cards or player settings changed "
                  "through duel.engine or a Lua file such as a puzzle loaded by duelhost.puzzle.load_puzzle; "
                  "load puzzles with duelhost.fork.load_puzzle or Duel.run_setup_lua)")

Player = Callable[["Duel", Prompt], "Response | bytes"]


class DuelSetupError(ValueError):
    """The duel cannot be set up as asked (bad player, zone, or a card with no database row)."""


@dataclass(frozen=True)
class Outcome:
    """How a run ended."""

    finished: bool          # a player won (or the duel was a draw)
    winner: int | None      # 0, 1, 2 (draw) or None when stopped early
    reason: int | None      # MSG_WIN reason (1 = LP, 2 = deck-out, other values from card effects)
    turns: int
    responses: int
    stopped_by: str | None = None   # "turn_limit" / "response_limit" when stopped early


def _seed_sequence(seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(32) for _ in range(8)]


class Duel:
    """One duel between two players, set up and driven from Python."""

    def __init__(self, *, db: str | Path | CardDatabase | None = None,
                 scripts: str | Path | bool | None = None, seed: int = 0,
                 seed_sequence: Sequence[int] | None = None, options: int = DEFAULT_OPTIONS,
                 script_host: Any = None) -> None:
        """``db``: a cards.cdb-schema file or CardDatabase (default: the bundled cards.db).
        ``scripts``: a script folder (default: the bundled scripts/); ``False`` runs no
        Lua at all (enough for Normal Monsters).  ``seed`` derives the reference's
        8-number seed sequence (or pass ``seed_sequence`` directly)."""
        if isinstance(db, CardDatabase):
            self.db = db
        else:
            db = db if db is not None else paths.bundled_db()
            self.db = CardDatabase.open(db)
        # what fork()/snapshot() rebuild the duel from (duelhost.fork); None: it can be rebuilt
        self._fork_problem: str | None = None
        self._fork_db_path = _snapshot.db_path_of(self.db, db if not isinstance(db, CardDatabase) else None)
        self._fork_scripts: tuple[str, ...] | None = None
        self._fork_host_options: Any = None
        if script_host is None and scripts is not False:
            from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime, for a duel with scripts
            folder = Path(scripts) if isinstance(scripts, (str, Path)) else paths.bundled_scripts()
            script_host = LuaScriptHost(folder)
        if script_host is not None:
            self._note_script_host(script_host)
        self.script_host = script_host
        self.seed = seed
        self.seed_sequence = list(seed_sequence) if seed_sequence is not None else _seed_sequence(seed)
        self.options = options
        self._deck_rng = random.Random(seed)
        # the engine duel and its stepping (duelhost.driver); set up card by card on its engine
        self.driver = Driver(card_reader_from_db(self.db), seed_sequence=self.seed_sequence, script=script_host)
        self.engine = self.driver.engine
        self._started = False
        # what a replay file needs: the set-up and every answer sent (see save_replay)
        self._player_info: list[tuple[int, int, int]] = [(8000, 5, 1), (8000, 5, 1)]
        self._new_cards: list[tuple[int, int, int, int, int, int]] = []
        self._setup_steps: list[_snapshot.Step] = []
        self._fingerprint = self._setup_fingerprint()

    def _note_script_host(self, host: Any) -> None:
        """Remember how to rebuild the script host (a fresh plain LuaScriptHost), or why not."""
        from duelhost.bindings.host import LuaScriptHost   # lazy: as in __init__ (a script host exists here)
        if type(host) is not LuaScriptHost:
            self._fork_problem = (f"it runs its scripts in a {type(host).__name__} given by its creator "
                                  "(the pytest toolkit's Scenario, a test double), which fork() cannot rebuild")
        elif host.duel is not None or host.scripts_read:
            self._fork_problem = "its LuaScriptHost had already run scripts before the duel was created"
        else:
            self._fork_scripts = tuple(str(Path(d).resolve()) for d in host.script_dirs)
            self._fork_host_options = host.options

    def _setup_fingerprint(self) -> tuple[Any, ...]:
        eng = self.engine
        return (len(eng.cards),) + tuple((pl.lp, pl.start_count, pl.draw_count) for pl in eng.player)

    # ----- set-up ------------------------------------------------------------------------

    def set_player(self, player: int, *, lp: int = 8000, start_hand: int = 5, draw: int = 1) -> None:
        """A player's starting LP, opening hand size and cards drawn each turn."""
        self._check_setup(player)
        self.engine.set_player_info(player, lp, start_hand, draw)
        self._player_info[player] = (lp, start_hand, draw)
        self._record_step(("player", player, lp, start_hand, draw))

    def add_card(self, code: int, player: int, location: int = C.LOCATION_DECK, sequence: int = 0,
                 position: int = C.POS_FACEDOWN_DEFENSE, owner: int | None = None):
        """Put one card somewhere before the duel starts (the reference's new_card).

        In the Deck, sequence 0 puts the card on top (the last card added is the
        top card) and 1 at the bottom.  Returns the engine card.
        """
        self._check_setup(player)
        if owner is None:
            owner = player
        if code not in self.db:
            raise UnknownCardError(code, str(self.db))
        card = self.engine.new_card_at(code, owner, player, location, sequence, position)
        if card is None:
            raise DuelSetupError(f"cannot put card {code} at player {player} location "
                                 f"0x{location:x} sequence {sequence}: the zone is taken or invalid")
        self._new_cards.append((code, owner, player, location, sequence, position))
        self._record_step(("card", code, owner, player, location, sequence, position))
        return card

    def add_deck(self, player: int, main: Iterable[int], extra: Iterable[int] = (), *,
                 shuffle: bool = False) -> None:
        """Add a Main Deck (the last card listed ends on top) and an Extra Deck.

        With ``shuffle`` the Main Deck order is shuffled first by a generator
        seeded from the duel's seed (the reference itself does not shuffle at start).
        """
        cards = list(main)
        if shuffle:
            cards = self._deck_rng.sample(cards, len(cards))
            self._record_step(("shuffle", len(cards)))
        for code in cards:
            self.add_card(code, player, C.LOCATION_DECK)
        for code in extra:
            self.add_card(code, player, C.LOCATION_EXTRA)

    def add_tag_deck(self, player: int, main: Iterable[int], extra: Iterable[int] = (), *,
                     shuffle: bool = False) -> None:
        """Tag Duel: the Main and Extra Deck of ``player``'s partner (the reference's
        new_tag_card), who takes over from the side's second turn on.  The duel's
        options need DUEL_TAG_MODE (0x20) for the partner to play."""
        self._check_setup(player)
        cards = list(main)
        if shuffle:
            cards = self._deck_rng.sample(cards, len(cards))
            self._record_step(("shuffle", len(cards)))
        for location, codes in ((C.LOCATION_DECK, cards), (C.LOCATION_EXTRA, list(extra))):
            for code in codes:
                if code not in self.db:
                    raise UnknownCardError(code, str(self.db))
                self._add_tag_card(code, player, location)

    def _add_tag_card(self, code: int, player: int, location: int) -> None:
        self.engine.new_tag_card_at(code, player, location)
        self._record_step(("tag", code, player, location))

    def run_setup_lua(self, path: str | Path) -> None:
        """Run a Lua file (a puzzle's Debug-API set-up) in the duel's script state before
        start(), as a recorded set-up step that fork() replays (duelhost.puzzle.run_lua_file
        runs it; the file must stay unchanged while the duel is forked)."""
        if self._started:
            raise DuelSetupError("the duel has already started: set it up before start()")
        if self.script_host is None or not hasattr(self.script_host, "load_script"):
            raise DuelSetupError("running a Lua set-up file needs a Lua script host")
        self._guard_setup()
        path = Path(path).resolve()
        digest = file_sha256(path)
        run_lua_file(self.script_host, path)
        self._record_step(("lua", str(path), digest))

    def _record_step(self, step: _snapshot.Step) -> None:
        self._setup_steps.append(step)
        self._fingerprint = self._setup_fingerprint()

    def _guard_setup(self) -> None:
        """Note (for fork()) a set-up made behind the host's back since its last set-up call."""
        if self._fingerprint != self._setup_fingerprint():
            self._fork_problem = self._fork_problem or _OUTSIDE_SETUP

    def start(self) -> None:
        """Draw the opening hands and begin the first turn."""
        if self._started:
            raise DuelSetupError("the duel has already started")
        self._guard_setup()
        self._started = True
        self.driver.start(self.options)

    def _check_setup(self, player: int) -> None:
        if self._started:
            raise DuelSetupError("the duel has already started: set it up before start()")
        if player not in (0, 1):
            raise DuelSetupError(f"player must be 0 or 1, not {player!r}")
        self._guard_setup()

    # ----- playing -----------------------------------------------------------------------

    @property
    def request(self) -> Prompt | None:
        """The decision the duel is waiting for (None when it has not asked yet or has ended)."""
        return self.driver.prompt

    @property
    def finished(self) -> bool:
        return self._started and self.driver.ended

    @property
    def responses(self) -> int:
        """Answers sent so far."""
        return len(self.driver.answers)

    def advance(self) -> Prompt | None:
        """Run until the next decision and return it (None when the duel has ended)."""
        if not self._started:
            raise DuelSetupError("call start() first")
        driver = self.driver
        if driver.prompt is None and not driver.ended:
            return driver.step(None)
        return driver.prompt

    def legal_responses(self, request: Prompt | None = None, *, limit: int | None = 256) -> list[Response]:
        """Legal answers to the pending request (or ``request``), at every prompt kind: all of
        them where the choices are few (commands, chain, yes/no, ...), the first ``limit`` in a
        documented order where they can be very many (cards, sums, zones: duelhost.legal)."""
        return _legal_responses(request if request is not None else self._need_request(), limit=limit, cards=self.db)

    def respond(self, response: Response | bytes | int) -> Prompt | None:
        """Answer the pending request; return the next one (None when the duel has ended).

        An illegal answer raises InvalidResponse (with the reason) and changes nothing.
        """
        prompt = self._need_request()
        try:
            raw = self._response_bytes(prompt, response)
        except (TypeError, ValueError) as exc:     # a Response of the wrong kind, a value that does not fit
            raise InvalidResponse(f"{prompt.NAME}: {exc}") from None
        parse_response(prompt, raw, card_lookup=self.db.find)  # type: ignore[arg-type]  # raises InvalidResponse
        return self.driver.step(raw)

    def respond_raw(self, raw: bytes) -> Prompt | None:
        """Send bytes as the reference's set_responseb would, unchecked: a bad answer
        makes the engine write MSG_RETRY and wait again, as the reference does."""
        self._need_request()
        return self.driver.step(bytes(raw))

    def _need_request(self) -> Prompt:
        req = self.advance()
        if req is None:
            raise DuelSetupError("the duel has ended: there is nothing to answer")
        return req

    @staticmethod
    def _response_bytes(prompt: Prompt, response: Response | bytes | int) -> bytes:
        """The bytes of an answer: raw bytes (1 to 256 of them), an int that fits in 32 bits
        (engine.responses.int_response), or a typed Response; anything else is InvalidResponse."""
        if isinstance(response, (bytes, bytearray)):
            if not response:
                raise InvalidResponse("an empty answer (no bytes)")
            return bytes(response)
        if isinstance(response, int):
            return int_response(response)
        if isinstance(response, Response):
            return encode_response(prompt, response)
        raise InvalidResponse(f"a response must be a Response, bytes or int, not {type(response).__name__}")

    def run(self, players: Sequence[Player], *, max_turns: int | None = None,
            max_responses: int | None = None) -> Outcome:
        """Play until the duel ends (or a limit), asking ``players[p](duel, request)`` for answers."""
        if len(players) != 2:
            raise ValueError("run() needs two players")
        if not self._started:
            self.start()
        stopped = None
        while True:
            req = self.advance()
            if req is None:
                break
            if max_turns is not None and self.engine.infos.turn_id > max_turns:
                stopped = "turn_limit"
                break
            if max_responses is not None and self.responses >= max_responses:
                stopped = "response_limit"
                break
            self.respond(players[req.player](self, req))
        return self.outcome(stopped)

    def outcome(self, stopped_by: str | None = None) -> Outcome:
        win = self.win()
        return Outcome(finished=win is not None, winner=win.player if win else None,
                       reason=win.reason if win else None, turns=self.engine.infos.turn_id,
                       responses=self.responses, stopped_by=stopped_by)

    def win(self) -> MsgWin | None:
        for m in reversed(self.engine.messages):
            if isinstance(m, MsgWin):
                return m
        return None

    # ----- forks and snapshots (duelhost.fork) -------------------------------------------------

    def _replay_answer(self, raw: bytes) -> None:
        """Send an answer the original duel accepted, unchecked (fork replay)."""
        self.driver.step(raw)

    def _fork_setup(self) -> _snapshot.DuelSetup:
        if self._fork_problem is not None:
            raise ForkError(f"this duel cannot be forked or snapshotted: {self._fork_problem}")
        return _snapshot.DuelSetup(
            db_path=self._fork_db_path, scripts=self._fork_scripts, host_options=self._fork_host_options,
            seed=self.seed, seed_sequence=tuple(self.seed_sequence), options=self.options,
            steps=tuple(self._setup_steps), db=self.db)

    def snapshot(self) -> DuelSnapshot:
        """This duel's position as a small immutable, picklable value (its set-up and the
        answers sent so far); ``Duel.from_snapshot`` / ``restore`` return to it."""
        if not self._started:
            self._guard_setup()
        return DuelSnapshot(
            setup=self._fork_setup(),
            started=self._started,
            advanced=self.driver.steps > 0,
            answers=tuple(self.driver.answers))

    @classmethod
    def from_snapshot(cls, snapshot: DuelSnapshot) -> Duel:
        """A new duel at the position of ``snapshot`` (replayed from its set-up)."""
        return build_duel(snapshot)

    def fork(self) -> Duel:
        """An independent duel in exactly this duel's state (board, chain, pending events,
        RNG, Lua state and script globals), waiting for the same prompt.  Answering one
        never changes the other; answered alike, both write the same bytes.

        Built by replaying this duel's set-up and answers (duelhost.fork); raises
        ForkError when the duel has ended or cannot be replayed (the message says why)."""
        if self.finished:
            raise ForkError("the duel has ended: there is nothing to fork")
        return build_duel(self.snapshot(), check_against=self)

    def restore(self, snapshot: DuelSnapshot) -> None:
        """Move this duel to the position of ``snapshot``, a snapshot of this duel (the
        same set-up) taken earlier or later on any line of play.

        Going forward along the line played so far only sends the missing answers;
        anything else rebuilds the duel's engine and script state (``duel.engine`` and
        ``duel.script_host`` are then new objects).  A snapshot of another duel raises
        ForkError and changes nothing."""
        if not isinstance(snapshot, DuelSnapshot):
            raise ForkError(f"not a duel snapshot: {type(snapshot).__name__} (use Duel.snapshot())")
        here = self.snapshot()
        if snapshot.setup != here.setup:
            raise ForkError("the snapshot belongs to another duel (its set-up differs: "
                            + _snapshot.setup_difference(snapshot.setup, here.setup) + ")")
        if here.started and here.advanced and snapshot.extends(here):
            for raw in snapshot.answers[len(here.answers):]:
                self._replay_answer(raw)
            return
        new = build_duel(snapshot)
        old_host = self.script_host
        self.__dict__.update(new.__dict__)
        new.__dict__.clear()
        if old_host is not None and old_host is not self.script_host and hasattr(old_host, "close"):
            old_host.close()

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle (and copy.copy / copy.deepcopy) go through the snapshot: a rebuilt duel
        return (build_duel, (self.snapshot(),))

    def close(self) -> None:
        """Free the duel's Lua state now (forks each have one; it is also freed when
        the duel is garbage).  The duel cannot be played after this."""
        host = self.script_host
        if host is not None and hasattr(host, "close"):
            host.close()

    # ----- what happened ----------------------------------------------------------------------

    def save_replay(self, path: str | Path, *, players: Sequence[str] = ("duelhost 0", "duelhost 1")) -> Path:
        """Write the duel so far as a YGOPro replay file ('yrp2', see duelhost.replay).

        The YGOPro client can open it when every card was put in a Deck or
        Extra Deck and both players have the same LP, hand and draw settings.
        """
        # lazy: the replay format (with play.py's words and the deck pool) loads when a duel saves one
        from .replay import ReplayError, replay_from_duel, write_replay
        if self._player_info[0] != self._player_info[1]:
            raise ReplayError("a replay file holds one LP/hand/draw setting for both players")
        rep = replay_from_duel(self.seed_sequence, self._new_cards, self.driver.answers, players=players,
                               params=self._player_info[0], options=self.options)
        return write_replay(rep, path)

    @property
    def messages(self) -> list[Message]:
        """Every message the duel wrote, typed."""
        return self.engine.messages

    def message_bytes(self, start: int = 0) -> bytes:
        """The messages from index ``start`` on, as the reference's bytes."""
        return encode_messages(self.engine.messages[start:])

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

    def state(self):
        """A snapshot of the whole board (see duelhost.state)."""
        return _board_snapshot(self)

    def card_name(self, code: int) -> str:
        rec = self.db.find(code & 0x7FFFFFFF)
        return rec.name if rec is not None and rec.name else str(code)


# ----- a duel rebuilt from a snapshot (duelhost.fork) ----------------------------------------

class _Quiet(logging.Filter):
    """Drop the engine's warnings and the scripts' log lines while a replay repeats them
    (the original logged them once; the fork's own lists still get them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


def build_duel(snapshot: DuelSnapshot, *, check_against: Duel | None = None) -> Duel:
    """A new duel at the snapshot's position (see the module docstring).

    ``check_against``: the duel being forked; the new one must have written as many
    messages and be at the same RNG state, else ``ForkError``."""
    if not isinstance(snapshot, DuelSnapshot):
        raise ForkError(f"not a duel snapshot: {type(snapshot).__name__} (use Duel.snapshot())")
    setup = snapshot.setup
    db = setup.db if setup.db is not None else None
    if db is None:
        if setup.db_path is None:
            raise ForkError("the snapshot's in-memory card database was not kept")
        try:
            db = open_db(setup.db_path)
        except OSError as exc:
            raise ForkError(f"card database {setup.db_path}: {exc.strerror or exc}") from None
    if setup.scripts is None:
        duel = Duel(db=db, scripts=False, seed=setup.seed, seed_sequence=setup.seed_sequence,
                    options=setup.options)
    else:
        from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime, for a duel with scripts
        for folder in setup.scripts:
            if not Path(folder).is_dir():
                raise ForkError(f"script folder {folder} of the snapshot does not exist here")
        host = LuaScriptHost([Path(p) for p in setup.scripts], setup.host_options)
        duel = Duel(db=db, seed=setup.seed, seed_sequence=setup.seed_sequence, options=setup.options,
                    script_host=host)
    duel._fork_db_path = setup.db_path
    quiet = _Quiet()
    logs = [logging.getLogger(name) for name in ("duelhost.engine", "duelhost.scripts")]
    for log in logs:
        log.addFilter(quiet)
    try:
        for step in setup.steps:
            kind = step[0]
            if kind == "player":
                duel.set_player(step[1], lp=step[2], start_hand=step[3], draw=step[4])
            elif kind == "card":
                code, owner, player, location, sequence, position = step[1:]
                duel.add_card(code, player, location, sequence, position, owner)
            elif kind == "shuffle":      # add_deck(shuffle=True): the same draws from the generator
                duel._deck_rng.sample(range(step[1]), step[1])
                duel._record_step(step)
            elif kind == "tag":
                duel._add_tag_card(step[1], step[2], step[3])
            elif kind == "lua":
                path = Path(step[1])
                if not path.is_file() or file_sha256(path) != step[2]:
                    raise ForkError(f"set-up file {path} is missing or changed since the duel was built")
                duel.run_setup_lua(path)
            else:
                raise ForkError(f"unknown set-up step {kind!r} in the snapshot")
        if snapshot.started:
            duel.start()
            if snapshot.advanced:
                duel.advance()
            for raw in snapshot.answers:
                duel._replay_answer(raw)
    finally:
        for log in logs:
            log.removeFilter(quiet)
    if check_against is not None:
        ours, theirs = duel.engine, check_against.engine
        if (len(ours.messages) != len(theirs.messages)
                or ours.random.getstate() != theirs.random.getstate()):
            duel.close()
            raise ForkError("the replayed duel does not match the original (it wrote "
                            f"{len(ours.messages)} messages, the original {len(theirs.messages)}): "
                            "the original was changed outside the Duel's methods (through duel.engine?)")
    return duel
