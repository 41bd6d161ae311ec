"""A duel you can look at: one self-contained HTML page (no network, no build step).

The page draws the board as the YGOPro client lays it out -- the opponent's field on
top, each side's Main Monster Zones, Spell & Trap Zones, Field Zone, Pendulum Zones,
Deck / GY / banished / Extra Deck piles, the Extra Monster Zones between the two
fields, the hands, LP and the chain -- with every card's name, ATK/DEF, Level,
position and counters.  Below it a timeline you step through (buttons, a slider or
the arrow keys): one step per decision, each message of the step in words, the
question asked and the answer given.  The data is JSON embedded in the page; a small
vanilla script draws it.

Three producers (docs/html.md):

* ``duelhost replay FILE --html OUT``: ``replay_page`` (a ``Recorder`` follows the
  replay's engine from prompt to prompt);
* ``duelhost diff ... --html DIR``: ``golden_divergence_page`` / ``live_divergence_page``,
  one page per duel that is not identical: both cores' message streams side by side
  at the first differing message, and both boards there (the last common board with
  each core's messages of that step applied, as a client applies them);
* the pytest toolkit (duelhost.testing): a failed expectation writes ``scenario_page``.

Boards at a step come from the engine itself (the true stats); the two boards of a
divergence are the common board with each stream's messages applied by
``apply_message`` (moves, positions, LP, counters, chain, turn and phase), which is
what a client can know from the messages alone.
"""

from __future__ import annotations

import html as _html
import json
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from duelhost.engine import constants as C
from duelhost.engine import messages as M
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.responses import parse_response

from . import paths
from .conformance import _first_difference, _same_unordered, build_duel
from .counter_names import counter_name
from .golden import load_records, record_card_reader
from .play import PHASE_WORDS, Words, narrate
from .replay import play_replay

__all__ = ["Recorder", "board_from_engine", "apply_message", "render_page", "replay_page",
           "golden_divergence_page", "live_divergence_page", "scenario_page", "write_page"]

NameOf = Callable[[int], str]

MZONES, SZONES = 7, 8
PILES = (("hand", C.LOCATION_HAND), ("grave", C.LOCATION_GRAVE), ("removed", C.LOCATION_REMOVED),
         ("extra", C.LOCATION_EXTRA))
_PILE_OF = {loc: name for name, loc in PILES}


# ---------------------------------------------------------------------------------------------
# boards as JSON
# ---------------------------------------------------------------------------------------------
def _card(pcard: Any, on_field: bool) -> dict[str, Any]:
    data = pcard.data
    out: dict[str, Any] = {"c": data.code, "pos": pcard.current.position, "t": data.type}
    if data.type & C.TYPE_MONSTER:
        if on_field and pcard.current.location == C.LOCATION_MZONE:
            atk, dfn = pcard.get_atk_def()
            level = (pcard.get_link() if data.type & C.TYPE_LINK else
                     pcard.get_rank() if data.type & C.TYPE_XYZ else pcard.get_level())
            out.update(a=atk, d=dfn, l=level)
        else:
            out.update(a=data.attack, d=data.defense, l=data.level & 0xFF)
        if data.type & C.TYPE_LINK:
            out.pop("d", None)
    if pcard.counters:
        out["ct"] = {str(k): v for k, v in sorted(pcard.counters.items())}
    if getattr(pcard, "xyz_materials", None):
        out["x"] = len(pcard.xyz_materials)
    return out


def board_from_engine(engine: Any) -> dict[str, Any]:
    """The board of an engine duel (duelhost.engine.duel.Duel) as JSON data."""
    players = []
    for p in (0, 1):
        pl = engine.player[p]
        side: dict[str, Any] = {"lp": pl.lp, "deck": len(pl.list_main),
                                "m": [_card(c, True) if c is not None else None for c in pl.list_mzone],
                                "s": [_card(c, True) if c is not None else None for c in pl.list_szone]}
        side["hand"] = [_card(c, False) for c in pl.list_hand]
        side["grave"] = [_card(c, False) for c in pl.list_grave]
        side["removed"] = [_card(c, False) for c in pl.list_remove]
        side["extra"] = [_card(c, False) for c in pl.list_extra]
        players.append(side)
    chain = []
    for ch in engine.core.current_chain:
        handler = ch.triggering_effect.get_handler()
        chain.append({"c": handler.data.code, "n": ch.chain_count, "p": ch.triggering_player})
    infos = engine.infos
    return {"turn": infos.turn_id, "tp": infos.turn_player, "phase": infos.phase, "p": players,
            "chain": chain}


Card = dict[str, Any]
Zones = list[Card | None]


def _copy(board: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(board))
    return out


def _take(board: dict[str, Any], loc: M.LocInfo, code: int) -> dict[str, Any] | None:
    """Remove and return the card at ``loc`` (a placeholder when the board does not hold it)."""
    side = board["p"][loc.controller & 1]
    where = loc.location & 0x7F
    if loc.location & C.LOCATION_OVERLAY:
        holder = side["m"][loc.sequence] if loc.sequence < MZONES else None
        if holder is not None and holder.get("x"):
            holder["x"] -= 1
        return {"c": code, "pos": C.POS_FACEUP, "t": 0}
    if (where == C.LOCATION_MZONE and loc.sequence < MZONES) or (where == C.LOCATION_SZONE and loc.sequence < SZONES):
        zones: Zones = side["m" if where == C.LOCATION_MZONE else "s"]
        card = zones[loc.sequence]
        zones[loc.sequence] = None
        return card
    if where == C.LOCATION_DECK:
        side["deck"] = max(0, side["deck"] - 1)
        return {"c": code, "pos": C.POS_FACEDOWN, "t": 0}
    pile = _PILE_OF.get(where)
    if pile is not None:
        cards: list[Card] = side[pile]
        if 0 <= loc.sequence < len(cards):
            return cards.pop(loc.sequence)
        for i, c in enumerate(cards):
            if c["c"] == code:
                return cards.pop(i)
    return None


def _put(board: dict[str, Any], loc: M.LocInfo, card: dict[str, Any]) -> None:
    side = board["p"][loc.controller & 1]
    where = loc.location & 0x7F
    card = dict(card)
    card["pos"] = loc.position
    if loc.location & C.LOCATION_OVERLAY:
        holder = side["m"][loc.sequence] if loc.sequence < MZONES else None
        if holder is not None:
            holder["x"] = holder.get("x", 0) + 1
        return
    if where == C.LOCATION_MZONE and loc.sequence < MZONES:
        side["m"][loc.sequence] = card
    elif where == C.LOCATION_SZONE and loc.sequence < SZONES:
        side["s"][loc.sequence] = card
    elif where == C.LOCATION_DECK:
        side["deck"] += 1
    elif where in _PILE_OF:
        card.pop("ct", None)
        cards = side[_PILE_OF[where]]
        cards.insert(min(loc.sequence, len(cards)), card)


def _field(board: dict[str, Any], controller: int, location: int, sequence: int) -> dict[str, Any] | None:
    side = board["p"][controller & 1]
    zones: Zones | None = None
    if location & 0x7F == C.LOCATION_MZONE and sequence < MZONES:
        zones = side["m"]
    elif location & 0x7F == C.LOCATION_SZONE and sequence < SZONES:
        zones = side["s"]
    return zones[sequence] if zones is not None else None


def apply_message(board: dict[str, Any], msg: M.Message, card_type: Callable[[int], int] | None = None) -> None:
    """Change ``board`` (JSON data, in place) as a client does on reading ``msg``: moves,
    draws, positions, LP, counters, the chain, the turn and the phase.  Stats are the ones
    the board had (a client learns new stats from queries, which are not messages)."""
    if isinstance(msg, M.MsgMove):
        prev, cur = msg.previous, msg.current
        card = _take(board, prev, msg.code) if prev.location else None
        if card is None:
            card = {"c": msg.code, "pos": cur.position, "t": card_type(msg.code) if card_type else 0}
        if msg.code:
            card["c"] = msg.code
        if cur.location:
            _put(board, cur, card)
    elif isinstance(msg, M.MsgDraw):
        side = board["p"][msg.player & 1]
        for code in msg.codes:
            side["deck"] = max(0, side["deck"] - 1)
            side["hand"].append({"c": code & 0x7FFFFFFF, "pos": C.POS_FACEDOWN, "t":
                                 card_type(code & 0x7FFFFFFF) if card_type else 0})
    elif isinstance(msg, M.MsgPosChange):
        card = _field(board, msg.controller, msg.location, msg.sequence)
        if card is not None:
            card["pos"] = msg.current_position
    elif isinstance(msg, (M.MsgDamage, M.MsgPayLpCost)):
        board["p"][msg.player & 1]["lp"] = max(0, board["p"][msg.player & 1]["lp"] - msg.amount)
    elif isinstance(msg, M.MsgRecover):
        board["p"][msg.player & 1]["lp"] += msg.amount
    elif isinstance(msg, M.MsgLpUpdate):
        board["p"][msg.player & 1]["lp"] = msg.lp
    elif isinstance(msg, (M.MsgAddCounter, M.MsgRemoveCounter)):
        card = _field(board, msg.controller, msg.location, msg.sequence)
        if card is not None:
            counters = card.setdefault("ct", {})
            key = str(msg.counter_type)
            n = counters.get(key, 0) + (msg.count if isinstance(msg, M.MsgAddCounter) else -msg.count)
            if n > 0:
                counters[key] = n
            else:
                counters.pop(key, None)
    elif isinstance(msg, M.MsgChaining):
        board["chain"].append({"c": msg.code, "n": msg.chain_count, "p": msg.loc.controller})
    elif isinstance(msg, M.MsgChainEnd):
        board["chain"] = []
    elif isinstance(msg, M.MsgNewTurn):
        board["turn"] += 1
        board["tp"] = msg.player & 1
    elif isinstance(msg, M.MsgNewPhase):
        board["phase"] = msg.phase


# ---------------------------------------------------------------------------------------------
# messages in words
# ---------------------------------------------------------------------------------------------
class _View:
    """What duelhost.play's Words needs of a duel: the engine, the database, card names."""

    def __init__(self, engine: Any, name_of: NameOf, db: Any) -> None:
        self.engine = engine
        self.card_name = name_of
        self.db = db if db is not None else _NoDb()


class _NoDb:
    def hint_string(self, description: int) -> None:
        return None

    def __contains__(self, code: object) -> bool:
        return False


def message_words(msg: M.Message, words: Any, name_of: NameOf) -> str:
    """One line for a message: duelhost play's log line, else the message's own description."""
    try:
        text = narrate(msg, words)
    except Exception:          # words are a courtesy: never lose the page for one line
        text = None
    if text:
        return text
    try:
        return msg.describe(name_of)
    except Exception:
        return msg.NAME


def db_namer(db: Any) -> NameOf:
    """card code -> name from a card database (``#code`` for a card it does not have)."""
    def name_of(code: int) -> str:
        code &= 0x7FFFFFFF
        rec = db.find(code) if db is not None else None
        return rec.name if rec is not None and rec.name else f"#{code}"
    return name_of


class Recorder:
    """Follows an engine duel from prompt to prompt: after each, ``snap()`` stores the
    board and the words of the messages written since the last one."""

    def __init__(self, engine: Any, name_of: NameOf, db: Any = None) -> None:
        self.engine = engine
        self.name_of = name_of
        self.words = Words(_View(engine, name_of, db), None)
        self.messages: list[dict[str, Any]] = []
        self.steps: list[dict[str, Any]] = []
        self.codes: set[int] = set()
        self._seen = 0

    def _narrate(self, upto: int) -> None:
        for m in self.engine.messages[self._seen:upto]:
            self.messages.append({"k": m.NAME, "w": message_words(m, self.words, self.name_of)})
        self._seen = upto

    def snap(self, prompt: Any = None, answer: str | None = None) -> None:
        """Record the step that ends now (at ``prompt``, None at the end of the duel)."""
        start = self._seen
        self._narrate(len(self.engine.messages))
        board = board_from_engine(self.engine)
        self._collect_codes(board)
        ask = None
        if prompt is not None:
            try:
                ask = prompt.describe(self.name_of)
            except Exception:
                ask = prompt.NAME
        self.steps.append({"from": start, "to": self._seen, "board": board, "ask": ask, "answer": None})
        if answer is not None and len(self.steps) >= 2:
            self.steps[-2]["answer"] = answer

    def answered(self, text: str) -> None:
        """The answer given to the last recorded step's prompt."""
        if self.steps:
            self.steps[-1]["answer"] = text

    def _collect_codes(self, board: dict[str, Any]) -> None:
        for side in board["p"]:
            for group in (side["m"], side["s"], side["hand"], side["grave"], side["removed"], side["extra"]):
                for c in group:
                    if c is not None:
                        self.codes.add(c["c"])
        for link in board["chain"]:
            self.codes.add(link["c"])

    def data(self) -> dict[str, Any]:
        return {"messages": self.messages, "steps": self.steps}


def answer_words(prompt: Any, raw: bytes, db: Any = None) -> str:
    """A recorded answer in words (the typed response), or its bytes when it does not parse."""
    try:
        return repr(parse_response(prompt, raw, card_lookup=getattr(db, "find", None)))
    except Exception:
        return f"bytes {raw.rstrip(bytes(1)).hex() or '00'}"


# ---------------------------------------------------------------------------------------------
# the page
# ---------------------------------------------------------------------------------------------
def _names(codes: Iterable[int], name_of: NameOf) -> dict[str, str]:
    return {str(c): name_of(c) for c in sorted(set(codes)) if c}


def _type_table(codes: Iterable[int], card_type: Callable[[int], int]) -> dict[str, int]:
    return {str(c): card_type(c) for c in sorted(set(codes)) if c}


def _codes_of_board(board: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for side in board["p"]:
        for group in (side["m"], side["s"], side["hand"], side["grave"], side["removed"], side["extra"]):
            out.update(c["c"] for c in group if c is not None)
    out.update(link["c"] for link in board["chain"])
    return out


def _tables(codes: set[int], name_of: NameOf) -> dict[str, Any]:
    counters: dict[str, str] = {}
    return {"names": _names(codes, name_of), "phases": {str(k): v for k, v in PHASE_WORDS.items()},
            "counters": counters}


def _counter_table(boards: Iterable[dict[str, Any]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for b in boards:
        for side in b["p"]:
            for group in (side["m"], side["s"]):
                for c in group:
                    if c is not None:
                        for k in c.get("ct", {}):
                            out[k] = counter_name(int(k))
    return out


def render_page(title: str, data: dict[str, Any]) -> str:
    """The HTML page for ``data`` ({"title", "timeline": {messages, steps}, "names", ...,
    optionally "divergence"}).  Self-contained: the style, the script and the data are inline."""
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    payload = payload.replace("</", "<\\/")          # no "</script>" inside the script element
    return (_TEMPLATE.replace("@@TITLE@@", _html.escape(title))
            .replace("@@DATA@@", payload)
            .replace("@@STYLE@@", _STYLE).replace("@@SCRIPT@@", _SCRIPT))


def write_page(path: str | Path, title: str, data: dict[str, Any]) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(title, data), encoding="utf-8")
    return path


def _page_data(title: str, recorder: Recorder, name_of: NameOf, *, summary: str,
               divergence: dict[str, Any] | None = None, extra_codes: Iterable[int] = ()) -> dict[str, Any]:
    codes = set(recorder.codes) | set(extra_codes)
    boards = [s["board"] for s in recorder.steps]
    if divergence is not None:
        boards += [divergence["boards"]["reference"], divergence["boards"]["duelhost"]]
        for b in divergence["boards"].values():
            codes |= _codes_of_board(b)
    data = {"title": title, "summary": summary, "timeline": recorder.data(), **_tables(codes, name_of)}
    data["counters"] = _counter_table(boards)
    if divergence is not None:
        data["divergence"] = divergence
    return data


# ---------------------------------------------------------------------------------------------
# producers
# ---------------------------------------------------------------------------------------------
def replay_page(replay: Any, db: Any, scripts: Path | None, out: str | Path, *,
                puzzle_dir: Path | None = None) -> Path:
    """Play a replay (duelhost.replay.Replay) through our engine and write its page."""
    name_of = db_namer(db)
    holder: dict[str, Any] = {}

    def on_step(engine: Any, prompt: Any, raw: bytes | None) -> None:
        rec = holder.get("r")
        if rec is None:
            rec = holder["r"] = Recorder(engine, name_of, db)
        prev = holder.get("prompt")
        rec.snap(prompt, answer_words(prev, raw, db) if raw is not None and prev is not None else None)
        holder["prompt"] = prompt

    run = play_replay(replay, db, scripts, puzzle_dir=puzzle_dir, on_step=on_step)
    rec = holder.get("r")
    if rec is None:
        raise ValueError(f"{replay.source}: the duel could not be set up ({run.status})")
    title = f"{Path(str(replay.source)).name}: {' / '.join(replay.players)}"
    summary = run.to_text(name_of).splitlines()[0] if run.to_text(name_of) else run.status
    return write_page(out, title, _page_data(title, rec, name_of, summary=summary))


def _divergence_data(common: dict[str, Any], ref_msgs: Sequence[M.Message], our_msgs: Sequence[M.Message],
                     index: int, words: Any, name_of: NameOf, card_type: Callable[[int], int],
                     *, where: str, context: int = 60) -> dict[str, Any]:
    """Both streams of the divergent step in words, and both boards at the first differing
    message (``common`` with each stream's messages up to and including it applied)."""
    boards = {}
    for side, msgs in (("reference", ref_msgs), ("duelhost", our_msgs)):
        b = _copy(common)
        for m in msgs[:index + 1]:
            apply_message(b, m, card_type)
        boards[side] = b

    def lines(msgs: Sequence[M.Message]) -> list[dict[str, Any]]:
        return [{"k": m.NAME, "w": message_words(m, words, name_of), "hex": m.encode().hex()}
                for m in msgs[:index + context]]
    return {"index": index, "where": where, "reference": lines(ref_msgs), "duelhost": lines(our_msgs),
            "boards": boards}


def _card_type_of(db: Any, reader: Any = None) -> Callable[[int], int]:
    def card_type(code: int) -> int:
        if reader is not None:
            try:
                return int(reader(code).type)
            except Exception:
                pass
        rec = db.find(code) if db is not None else None
        return rec.type if rec is not None else 0
    return card_type


def golden_divergence_page(record: Any, out: str | Path, *, scripts: Path | None = None,
                           db: Any = None) -> Path | None:
    """Replay a recorded duel (duelhost.golden.DuelRecord) and, when our stream differs
    from the recording, write the page of the duel up to the divergence (None when identical)."""
    if db is None:
        db = CardDatabase.open(paths.bundled_db())
    name_of = db_namer(db)
    script = None
    if record.scripts is not None and scripts is not None:
        from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime, for a duel with scripts
        script = LuaScriptHost(scripts)
    reader = record_card_reader(record)
    card_type = _card_type_of(db, reader)
    driver = build_duel(record, reader, script)
    rec = Recorder(driver.engine, name_of, db)
    response: bytes | None = None
    rec_prompt: Any = None
    prev_board = board_from_engine(driver.engine)
    prompt = None
    for k, step in enumerate(record.steps):
        error = None
        try:
            prompt = driver.step(response)
        except Exception as exc:           # an engine error: the page shows where
            error = f"{type(exc).__name__}: {exc}"
        mark = driver.mark
        produced = driver.new_messages()
        got = M.encode_messages(produced)
        if error is not None or (got != step.messages and not _same_unordered(record, k, got, step.messages)):
            expected = M.decode_messages(step.messages)
            i = _first_difference(expected, produced)
            rec._seen = mark          # the divergent step is shown side by side, not in the timeline
            div = _divergence_data(prev_board, expected, produced, i, rec.words, name_of, card_type,
                                   where=f"step {k}, message {i} of the step" + (f"; {error}" if error else ""))
            div["step"] = len(rec.steps)
            title = f"{record.id}: first difference at step {k}"
            summary = (f"{record.id}: differs from the reference at step {k}, message {i}: "
                       f"reference {expected[i].NAME if i < len(expected) else '(end)'}, "
                       f"duelhost {produced[i].NAME if i < len(produced) else '(end)'}")
            return write_page(out, title, _page_data(title, rec, name_of, summary=summary, divergence=div))
        rec.snap(prompt, answer_words(rec_prompt, response, db)
                 if response is not None and rec_prompt is not None else None)
        rec_prompt = prompt
        prev_board = rec.steps[-1]["board"]
        response = step.response_area
    return None


def live_divergence_page(result: Any, ref_lib: Any, db: Any, scripts: Path | None, out: str | Path) -> Path | None:
    """The page of a live-diff duel (duelhost.diff.LiveResult) that is not identical: the
    duel is played again in both cores with the same set-up and answers (``result.sent``)."""
    # lazy: the reference core's ctypes adapter and the diff machinery load for this page only
    # (duelhost diff --html), not for the scenario and replay pages
    from .diff import set_up_both, settle_hint_order
    from .reference import ReferenceCore

    setup = result.setup
    if setup is None:
        return None
    name_of = db_namer(db)
    card_type = _card_type_of(db)
    core = ReferenceCore.load(ref_lib, db=db, scripts=scripts)
    ref = core.create_duel(seed=setup.seed) if setup.seed is not None else core.create_duel(setup.seed_sequence)
    script = None
    if scripts is not None:
        from duelhost.bindings.host import LuaScriptHost   # lazy: as in golden_divergence_page
        script = LuaScriptHost(scripts)
    try:
        ours = set_up_both(ref, db, setup, script)
        ref.start(setup.options)
        ours.start(setup.options)
        rec = Recorder(ours.engine, name_of, db)
        prev_board = board_from_engine(ours.engine)
        raw: bytes | None = None
        answers = list(result.sent)
        prompt = None
        for k in range(len(answers) + 1):
            out_ref = ref.advance()
            error = None
            try:
                nxt = ours.step(raw)
            except Exception as exc:
                error, nxt = f"{type(exc).__name__}: {exc}", None
            mark = ours.mark
            mine, _ = settle_hint_order(out_ref.messages, ours.new_messages())
            theirs = out_ref.messages
            differs = error is not None or len(mine) != len(theirs) or any(
                a.encode() != b.encode() for a, b in zip(theirs, mine))
            if differs:
                i = next((j for j, (a, b) in enumerate(zip(theirs, mine)) if a.encode() != b.encode()),
                         min(len(theirs), len(mine)))
                rec._seen = mark
                div = _divergence_data(prev_board, theirs, mine, i, rec.words, name_of, card_type,
                                       where=f"after {k} responses, message {i} of the step"
                                       + (f"; {error}" if error else ""))
                div["step"] = len(rec.steps)
                title = f"{result.id}: first difference after {k} responses"
                summary = f"{result.id} (seed {result.seed}): {result.cause or result.status}"
                return write_page(out, title, _page_data(title, rec, name_of, summary=summary, divergence=div))
            rec.snap(nxt, answer_words(prompt, raw, db) if raw is not None and prompt is not None else None)
            prompt = out_ref.prompt or prompt
            prev_board = rec.steps[-1]["board"]
            if out_ref.ended or k >= len(answers):
                break
            raw = answers[k]
            ref.set_responseb(raw)
        title = f"{result.id}: {result.status}"
        return write_page(out, title, _page_data(title, rec, name_of, summary=f"{result.id}: {result.cause}"))
    finally:
        ref.end()


def scenario_page(scenario: Any, out: str | Path, *, title: str, failure: str) -> Path:
    """The page of a pytest scenario (duelhost.testing.Scenario) at a failed expectation."""
    rec: Recorder = scenario.html_recorder()
    if not rec.steps or rec.steps[-1]["to"] != len(scenario.engine.messages):
        rec.snap(scenario.prompt)
    name_of = scenario.card_name
    data = _page_data(title, rec, name_of, summary=failure.splitlines()[0] if failure else title)
    data["failure"] = failure
    return write_page(out, title, data)


# ---------------------------------------------------------------------------------------------
# template, style, script
# ---------------------------------------------------------------------------------------------
_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title>
<style>@@STYLE@@</style>
</head><body>
<header><h1 id="title"></h1><p id="summary"></p><pre id="failure" hidden></pre></header>
<main>
<section id="boards"></section>
<section id="controls">
<button id="first" title="first step (Home)">first</button>
<button id="prev" title="previous step (&#x2190;)">&#x25C0;</button>
<input id="slider" type="range" min="0" value="0">
<button id="next" title="next step (&#x2192;)">&#x25B6;</button>
<button id="last" title="last step (End)">last</button>
<button id="todiv" hidden>first difference</button>
<span id="where"></span>
</section>
<section id="step"></section>
<section id="streams" hidden></section>
</main>
<script id="duel-data" type="application/json">@@DATA@@</script>
<script>@@SCRIPT@@</script>
</body></html>
"""

_STYLE = """
body{font:14px/1.35 system-ui,sans-serif;margin:0;background:#1d2330;color:#e8ecf3}
header{padding:8px 16px;background:#141926}h1{font-size:18px;margin:4px 0}
#summary{margin:2px 0;color:#b8c2d6}#failure{white-space:pre-wrap;background:#3a1f25;padding:8px;
border-radius:4px;max-height:14em;overflow:auto}
main{padding:8px 16px}
#boards{display:flex;gap:16px;flex-wrap:wrap}
.board{background:#25304a;border-radius:6px;padding:8px;min-width:640px}
.board h2{font-size:15px;margin:0 0 6px}
.info{display:flex;gap:12px;align-items:baseline;margin:2px 0}
.lp{font-weight:bold;font-size:16px}.turn{color:#ffd479}
.side{display:grid;grid-template-columns:repeat(7,86px);gap:4px;margin:4px 0}
.emz{display:grid;grid-template-columns:repeat(7,86px);gap:4px;margin:6px 0}
.zone{height:104px;border:1px dashed #56627d;border-radius:4px;position:relative;font-size:11px;
overflow:hidden}
.zone .label{position:absolute;bottom:1px;right:3px;color:#7d89a3;font-size:10px}
.pile{border-style:solid;background:#2d3956;padding:3px}
.card{position:absolute;inset:3px;border-radius:3px;padding:3px;color:#111;overflow:hidden}
.card .nm{font-weight:600;display:block;line-height:1.1;max-height:3.4em;overflow:hidden}
.card .st{display:block}.card .ct{display:block;color:#5a0a70;font-weight:600}
.card.def{transform:rotate(-90deg) scale(.82)}
.card.set{outline:3px solid #2a2a2a;opacity:.78;background-image:repeating-linear-gradient(45deg,
rgba(0,0,0,.08) 0 6px,transparent 6px 12px)}
.t-normal{background:#e9d28a}.t-effect{background:#e6a86c}.t-fusion{background:#b99ad6}
.t-synchro{background:#eeeeee}.t-xyz{background:#6f6f6f;color:#fff}.t-link{background:#6d9fd6}
.t-ritual{background:#8fc0e8}.t-spell{background:#6fc0a8}.t-trap{background:#d68ab0}
.t-token{background:#c8c8c8}.t-unknown{background:#aab}
.hand{display:flex;flex-wrap:wrap;gap:4px;min-height:24px;margin:4px 0}
.chip{border-radius:3px;padding:2px 5px;font-size:11px;color:#111}
.chain{margin-top:6px;color:#ffd479}
#controls{display:flex;gap:6px;align-items:center;margin:10px 0}#slider{flex:1}
button{background:#3b4a6b;color:#fff;border:0;border-radius:4px;padding:4px 10px;cursor:pointer}
#step{background:#25304a;border-radius:6px;padding:8px}
.msg{padding:1px 4px;border-radius:3px}.msg .k{color:#7d89a3;font-size:11px;margin-right:6px}
.ask{color:#ffd479;margin-top:6px}.ans{color:#9fe0a0}
#streams{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:12px}
.stream{background:#25304a;border-radius:6px;padding:8px;max-height:32em;overflow:auto}
.msg.diff{background:#7a2430}.msg.after{opacity:.55}
"""

_SCRIPT = r"""
(function(){
const D = JSON.parse(document.getElementById('duel-data').textContent);
const T = D.timeline, steps = T.steps;
const $ = id => document.getElementById(id);
const el = (tag, cls, text) => {const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; return e;};
const name = c => D.names[String(c)] || ('#' + c);
const POS = {1:'ATK',2:'set ATK',4:'DEF',8:'set DEF',5:'face-up',10:'set'};
function kind(t){
  if (!t) return 'unknown';
  if (t & 0x4000) return 'token'; if (t & 0x4000000) return 'link'; if (t & 0x800000) return 'xyz';
  if (t & 0x2000) return 'synchro'; if (t & 0x40) return 'fusion'; if (t & 0x80) return 'ritual';
  if (t & 0x2) return 'spell'; if (t & 0x4) return 'trap'; if (t & 0x20) return 'effect';
  return 'normal';
}
function counters(ct){
  return Object.entries(ct || {}).map(([k, n]) => n + ' ' + (D.counters[k] || ('Counter 0x' + Number(k).toString(16))) + (n !== 1 ? 's' : '')).join(', ');
}
function cardBox(c, label){
  const z = el('div', 'zone'); z.appendChild(el('span', 'label', label));
  if (!c) return z;
  const d = el('div', 'card t-' + kind(c.t));
  if (c.pos & 0xa) d.classList.add('set');
  if ((c.pos & 0xc) && (c.t & 1)) d.classList.add('def');
  d.appendChild(el('span', 'nm', name(c.c)));
  if (c.a !== undefined) d.appendChild(el('span', 'st', (c.l ? (c.t & 0x4000000 ? 'LINK-' : (c.t & 0x800000 ? 'R' : 'L')) + c.l + ' ' : '') + c.a + (c.d !== undefined ? '/' + c.d : '')));
  d.appendChild(el('span', 'st', POS[c.pos] || ''));
  if (c.ct && Object.keys(c.ct).length) d.appendChild(el('span', 'ct', counters(c.ct)));
  if (c.x) d.appendChild(el('span', 'st', c.x + ' material(s)'));
  d.title = name(c.c) + (c.ct ? ' ' + counters(c.ct) : '');
  z.appendChild(d); return z;
}
function pile(label, cards, count){
  const z = el('div', 'zone pile');
  const n = count !== undefined ? count : cards.length;
  z.appendChild(el('b', null, label + ' ' + n));
  if (cards && cards.length) {
    const top = cards[cards.length - 1];
    z.appendChild(el('div', null, name(top.c)));
  }
  z.title = (cards || []).map(c => name(c.c)).join('\n');
  return z;
}
function chips(cards){
  const h = el('div', 'hand');
  const groups = [];
  for (const c of cards) { const g = groups.find(x => x.c === c.c); if (g) g.n++; else groups.push({c: c.c, t: c.t, n: 1}); }
  for (const g of groups) h.appendChild(el('span', 'chip t-' + kind(g.t), name(g.c) + (g.n > 1 ? ' \u00d7' + g.n : '')));
  return h;
}
function sideRows(s, p, top){
  // the client's layout for one player: Monster row next to the middle, Spell & Trap row outside
  const mrow = el('div', 'side'), srow = el('div', 'side');
  mrow.appendChild(s.s[5] ? cardBox(s.s[5], 'Field') : cardBox(null, 'Field'));
  for (let i = 0; i < 5; i++) mrow.appendChild(cardBox(s.m[i], 'M' + (i + 1)));
  mrow.appendChild(pile('GY', s.grave));
  srow.appendChild(pile('Extra', s.extra));
  for (let i = 0; i < 5; i++) srow.appendChild(cardBox(s.s[i], i === 0 && s.s[6] ? 'S1' : 'S' + (i + 1)));
  srow.appendChild(pile('Deck', [], s.deck));
  if (top) {   // the opponent's field is turned round, as the client shows it
    for (const row of [mrow, srow]) Array.from(row.children).reverse().forEach(c => row.appendChild(c));
  }
  const pz = el('div', 'info');
  if (s.s[6] || s.s[7]) pz.appendChild(el('span', null, 'Pendulum Zones: ' + [6, 7].map(i => s.s[i] ? name(s.s[i].c) : '-').join(' | ')));
  if (s.removed.length) pz.appendChild(el('span', null, 'banished: ' + s.removed.map(c => name(c.c)).join(', ')));
  const info = el('div', 'info');
  info.appendChild(el('span', 'lp', 'P' + p + ' LP ' + s.lp));
  info.appendChild(el('span', null, 'hand ' + s.hand.length + ' | deck ' + s.deck + ' | GY ' + s.grave.length + ' | banished ' + s.removed.length + ' | extra ' + s.extra.length));
  const hand = chips(s.hand);
  const wrap = el('div', 'player');
  const parts = top ? [info, hand, srow, mrow, pz] : [pz, mrow, srow, hand, info];
  for (const x of parts) wrap.appendChild(x);
  return wrap;
}
function drawBoard(b, heading){
  const box = el('div', 'board');
  box.appendChild(el('h2', null, heading));
  const t = el('div', 'info');
  t.appendChild(el('span', 'turn', 'Turn ' + b.turn + ' \u2014 P' + b.tp + ' \u2014 ' + (b.turn ? (D.phases[String(b.phase)] || ('phase 0x' + b.phase.toString(16))) : 'before the first turn')));
  box.appendChild(t);
  box.appendChild(sideRows(b.p[1], 1, true));
  const emz = el('div', 'emz');
  emz.appendChild(el('div')); emz.appendChild(el('div'));
  emz.appendChild(cardBox(b.p[0].m[5] || b.p[1].m[6], 'EMZ 1'));
  emz.appendChild(el('div'));
  emz.appendChild(cardBox(b.p[0].m[6] || b.p[1].m[5], 'EMZ 2'));
  box.appendChild(emz);
  box.appendChild(sideRows(b.p[0], 0, false));
  if (b.chain.length) box.appendChild(el('div', 'chain', 'Chain: ' + b.chain.map(l => l.n + ': ' + name(l.c) + ' (P' + l.p + ')').join(', ')));
  return box;
}
function msgLine(m, cls){
  const d = el('div', 'msg' + (cls ? ' ' + cls : ''));
  d.appendChild(el('span', 'k', m.k)); d.appendChild(document.createTextNode(m.w));
  if (m.hex) d.title = m.hex;
  return d;
}
let at = 0;
const DV = D.divergence;
const last = steps.length - 1 + (DV ? 1 : 0);
function show(i){
  at = Math.max(0, Math.min(last, i));
  $('slider').value = at;
  const boards = $('boards'); boards.textContent = '';
  const st = $('step'); st.textContent = '';
  const streams = $('streams');
  if (DV && at === steps.length) {
    boards.appendChild(drawBoard(DV.boards.reference, 'reference core at the first difference'));
    boards.appendChild(drawBoard(DV.boards.duelhost, 'duelhost at the first difference'));
    $('where').textContent = 'first difference: ' + DV.where;
    streams.hidden = false; streams.textContent = '';
    for (const side of ['reference', 'duelhost']) {
      const col = el('div', 'stream'); col.appendChild(el('h2', null, side));
      DV[side].forEach((m, j) => col.appendChild(msgLine(m, j === DV.index ? 'diff' : (j > DV.index ? 'after' : ''))));
      streams.appendChild(col);
    }
    st.appendChild(el('div', null, 'The step where the two cores first wrote different messages: both streams below, the first difference highlighted; each board is the last common board with that core\u2019s messages up to the difference applied.'));
    return;
  }
  streams.hidden = true;
  const s = steps[at];
  boards.appendChild(drawBoard(s.board, 'step ' + at + ' of ' + (steps.length - 1)));
  $('where').textContent = 'step ' + at + ' / ' + (steps.length - 1) + ' \u2014 messages ' + s.from + '\u2013' + s.to;
  for (let j = s.from; j < s.to; j++) st.appendChild(msgLine(T.messages[j]));
  if (s.ask) st.appendChild(el('div', 'ask', 'asked: ' + s.ask));
  if (s.answer) st.appendChild(el('div', 'ans', 'answer: ' + s.answer));
}
$('title').textContent = D.title; $('summary').textContent = D.summary || '';
if (D.failure) { $('failure').hidden = false; $('failure').textContent = D.failure; }
$('slider').max = last;
$('first').onclick = () => show(0); $('last').onclick = () => show(last);
$('prev').onclick = () => show(at - 1); $('next').onclick = () => show(at + 1);
$('slider').oninput = e => show(Number(e.target.value));
if (DV) { $('todiv').hidden = false; $('todiv').onclick = () => show(steps.length); }
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') show(at + 1); else if (e.key === 'ArrowLeft') show(at - 1);
  else if (e.key === 'Home') show(0); else if (e.key === 'End') show(last);
});
const start = location.hash.match(/^#step=(\d+)$/);
show(start ? Number(start[1]) : (DV ? steps.length : last));
document.body.dataset.rendered = 'yes';
})();
"""


def divergence_pages(summary: Any, folder: str | Path, *, golden_file: Path | None = None,
                     scripts: Path | None = None, db_path: Path | None = None,
                     ref_lib: Path | None = None) -> list[Path]:
    """One page per duel of a ``duelhost diff`` summary that is not identical, in ``folder``
    (``<duel id>.html``); returns the pages written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    db = CardDatabase.open(db_path if db_path is not None else paths.bundled_db())
    written: list[Path] = []
    bad = [r for r in summary.results if not r.identical]

    def page_name(duel_id: str) -> Path:
        return folder / (re.sub(r"[^\w.-]+", "_", str(duel_id)) + ".html")

    if golden_file is not None:
        wanted = {r.id for r in bad}
        for record in load_records(golden_file):
            if record.id in wanted:
                page = golden_divergence_page(record, page_name(record.id), scripts=scripts, db=db)
                if page is not None:
                    written.append(page)
        return written
    for r in bad:
        page = live_divergence_page(r, ref_lib, db, scripts, page_name(r.id))
        if page is not None:
            written.append(page)
    return written
