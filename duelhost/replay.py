"""YGOPro replay files (``.yrp``): read, write, play through our core, freeze and compare.

The file format (as the YGOPro client writes and reads it):

* a header of little-endian uint32s: ``id`` ('yrp1' = 0x31707279 or
  'yrp2' = 0x32707279), ``version`` (the client's protocol version), ``flag``,
  ``seed``, ``datasize`` (the size of the body once uncompressed),
  ``start_time``, then 8 bytes of LZMA properties (5 used).  A 'yrp2' header
  goes on with the 8-number seed sequence given to ``create_duel_v2``,
  ``header_version`` and three reserved uint32s (80 bytes in all; 'yrp1': 32);
* the body, a raw LZMA1 stream (no container; the header holds the properties
  and the uncompressed size) when ``flag`` has COMPRESSED, else plain bytes:
  the player names (2, or 4 with TAG; each 20 UTF-16LE code units, NUL padded),
  the duel parameters (start LP, opening hand, draw count as int32, the
  ``start_duel`` options as uint32), then either the single-mode puzzle script
  name (uint16 length and ``./single/<name>``, with SINGLE_MODE) or each
  player's deck (uint32 count and codes for the Main Deck, then the same for
  the Extra Deck), in the order the cards were given to ``new_card`` (so the
  last Main Deck code is the top card; the duel does not reshuffle at start);
* then every response the players sent: a length byte and that many bytes.

How the duel's random numbers are made depends on the version:

* 'yrp2': ``create_duel_v2(seed_sequence)``, the current uniform rule (v2);
* 'yrp1' with UNIFORM: ``create_duel(first output of mt19937(seed))``, the
  v1 rule of the reference's ``create_duel``;
* 'yrp1' without UNIFORM (clients before 2021): the same seed, and the old
  "almost uniform" rule (``MTRandom.get_random_integer_old``, version 0).
  The current reference core no longer implements that rule, so such replays
  can be played by our engine but not diffed against the current reference.

``write_replay`` writes 'yrp2' files compressed the way the client does (LZMA1,
preset 5, 16 MiB dictionary, lc=3 lp=0 pb=2), which the client can open.
"""

from __future__ import annotations

import collections
import json
import lzma
import struct
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from duelhost.bindings.files import OutsideFolderError, file_in_folders
from duelhost.engine import constants as C
from duelhost.engine.duel import card_reader_from_db
from duelhost.engine.messages import MsgWin
from duelhost.engine.responses import InvalidResponse, parse_response
from duelhost.engine.rng import MTRandom

from .deckpool import _needs_script
from .driver import Driver, DuelSetup
from .play import win_words
from .state import PHASE_NAMES

__all__ = [
    "REPLAY_COMPRESSED", "REPLAY_TAG", "REPLAY_DECODED", "REPLAY_SINGLE_MODE", "REPLAY_UNIFORM",
    "REPLAY_ID_YRP1", "REPLAY_ID_YRP2", "ReplayError", "ReplayHeader", "ReplayDeck", "Replay",
    "read_replay", "parse_replay", "write_replay", "encode_replay", "ReplayRun", "play_replay",
    "freeze_state", "compare_snapshots", "replay_from_duel", "missing_cards",
]

REPLAY_COMPRESSED = 0x1
REPLAY_TAG = 0x2
REPLAY_DECODED = 0x4
REPLAY_SINGLE_MODE = 0x8
REPLAY_UNIFORM = 0x10

REPLAY_ID_YRP1 = 0x31707279
REPLAY_ID_YRP2 = 0x32707279

PRO_VERSION = 0x1362          # the client version our writer puts in the header
SEED_COUNT = 8
NAME_UNITS = 20               # a name is 20 UTF-16 code units
MAX_DECK_COUNT = 250          # the client refuses larger deck counts (MAINC_MAX)
MAX_REPLAY_SIZE = 0x80000     # the client's largest uncompressed body
MAX_COMP_SIZE = 0xFFFF - 1 - 80

_BASE = struct.Struct("<6I8s")          # id, version, flag, seed, datasize, start_time, props
_EXT = struct.Struct("<8I4I")           # seed_sequence, header_version, value1..3
_PARAMS = struct.Struct("<iiiI")

_LZMA_LC, _LZMA_LP, _LZMA_PB, _LZMA_DICT = 3, 0, 2, 1 << 24


class ReplayError(ValueError):
    """A replay file that cannot be read (names the file and what is wrong)."""


@dataclass
class ReplayHeader:
    id: int = REPLAY_ID_YRP2
    version: int = PRO_VERSION
    flag: int = REPLAY_UNIFORM
    seed: int = 0
    datasize: int = 0
    start_time: int = 0
    props: bytes = bytes(8)
    seed_sequence: list[int] | None = None      # yrp2 only
    header_version: int = 1
    values: tuple[int, int, int] = (0, 0, 0)

    @property
    def kind(self) -> str:
        return {REPLAY_ID_YRP1: "yrp1", REPLAY_ID_YRP2: "yrp2"}.get(self.id, hex(self.id))

    def has(self, flag: int) -> bool:
        return bool(self.flag & flag)


@dataclass
class ReplayDeck:
    main: list[int] = field(default_factory=list)     # in new_card order: the last is the top card
    extra: list[int] = field(default_factory=list)


@dataclass
class Replay:
    """Everything a replay file holds."""

    header: ReplayHeader
    players: list[str]
    start_lp: int = 8000
    start_hand: int = 5
    draw_count: int = 1
    duel_flag: int = 5 << 16
    decks: list[ReplayDeck] = field(default_factory=list)
    script_name: str | None = None        # single mode: the puzzle, without "./single/"
    responses: list[bytes] = field(default_factory=list)
    source: str = "<bytes>"

    @property
    def is_tag(self) -> bool:
        return self.header.has(REPLAY_TAG)

    @property
    def is_single(self) -> bool:
        return self.header.has(REPLAY_SINGLE_MODE)

    @property
    def rng_version(self) -> int:
        """2 (yrp2), 1 (yrp1 with UNIFORM) or 0 (yrp1 without: the old almost-uniform rule)."""
        if self.header.id == REPLAY_ID_YRP2:
            return 2
        return 1 if self.header.has(REPLAY_UNIFORM) else 0

    @property
    def duel_seed(self) -> int:
        """yrp1: the seed given to ``create_duel``: the first output of mt19937(header seed)."""
        return MTRandom(self.header.seed).rand()

    def new_card_calls(self) -> tuple[list[tuple[int, int, int, int, int, int]], list[tuple[int, int, int]]]:
        """The ``new_card`` calls (code, owner, player, location, sequence, position) and
        ``new_tag_card`` calls (code, owner, location) the client makes, in order."""
        cards: list[tuple[int, int, int, int, int, int]] = []
        tags: list[tuple[int, int, int]] = []
        if self.is_single:
            return cards, tags
        if not self.is_tag:
            for p in (0, 1):
                d = self.decks[p]
                cards.extend((c, p, p, C.LOCATION_DECK, 0, C.POS_FACEDOWN_DEFENSE) for c in d.main)
                cards.extend((c, p, p, C.LOCATION_EXTRA, 0, C.POS_FACEDOWN_DEFENSE) for c in d.extra)
            return cards, tags
        for deck_index, (p, tag) in enumerate(((0, False), (0, True), (1, False), (1, True))):
            d = self.decks[deck_index]
            if tag:
                tags.extend((c, p, C.LOCATION_DECK) for c in d.main)
                tags.extend((c, p, C.LOCATION_EXTRA) for c in d.extra)
            else:
                cards.extend((c, p, p, C.LOCATION_DECK, 0, C.POS_FACEDOWN_DEFENSE) for c in d.main)
                cards.extend((c, p, p, C.LOCATION_EXTRA, 0, C.POS_FACEDOWN_DEFENSE) for c in d.extra)
        return cards, tags


# ---------------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------------
def _lzma_filters(props: bytes) -> list[dict[str, Any]]:
    b0 = props[0]
    if b0 >= 9 * 5 * 5:
        raise ValueError(f"bad LZMA properties byte 0x{b0:02x}")
    lc = b0 % 9
    lp = (b0 // 9) % 5
    pb = b0 // 45
    dict_size = int.from_bytes(props[1:5], "little")
    return [{"id": lzma.FILTER_LZMA1, "lc": lc, "lp": lp, "pb": pb, "dict_size": max(dict_size, 4096)}]


class _Reader:
    def __init__(self, data: bytes, source: str) -> None:
        self.data = data
        self.pos = 0
        self.source = source

    def take(self, n: int, what: str) -> bytes:
        if n > len(self.data) - self.pos:
            raise ReplayError(f"{self.source}: the body ends inside {what} (offset {self.pos})")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def u32(self, what: str) -> int:
        return int.from_bytes(self.take(4, what), "little")

    def u16(self, what: str) -> int:
        return int.from_bytes(self.take(2, what), "little")


def _decode_name(raw: bytes) -> str:
    units = struct.unpack(f"<{NAME_UNITS}H", raw)
    n = units.index(0) if 0 in units else NAME_UNITS
    return raw[:2 * n].decode("utf-16-le", "replace")


def parse_replay(data: bytes, source: str = "<bytes>") -> Replay:
    """A replay from the bytes of a .yrp file."""
    if len(data) < _BASE.size:
        raise ReplayError(f"{source}: {len(data)} bytes, too short for a replay header")
    rid, version, flag, seed, datasize, start_time, props = _BASE.unpack_from(data, 0)
    if rid not in (REPLAY_ID_YRP1, REPLAY_ID_YRP2):
        raise ReplayError(f"{source}: not a YGOPro replay (id 0x{rid:08x}, expected 'yrp1' or 'yrp2')")
    header = ReplayHeader(id=rid, version=version, flag=flag, seed=seed, datasize=datasize,
                          start_time=start_time, props=props)
    off = _BASE.size
    if rid == REPLAY_ID_YRP2:
        if len(data) < off + _EXT.size:
            raise ReplayError(f"{source}: a 'yrp2' header needs {off + _EXT.size} bytes, the file has {len(data)}")
        ext = _EXT.unpack_from(data, off)
        header.seed_sequence = list(ext[:8])
        header.header_version = ext[8]
        header.values = tuple(ext[9:12])
        off += _EXT.size
    payload = data[off:]
    if flag & REPLAY_COMPRESSED:
        if datasize > MAX_REPLAY_SIZE:
            raise ReplayError(f"{source}: body size {datasize} is over the client's limit {MAX_REPLAY_SIZE}")
        try:
            dec = lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=_lzma_filters(props))
            body = dec.decompress(payload, max_length=datasize)
        except (lzma.LZMAError, ValueError) as exc:
            raise ReplayError(f"{source}: the LZMA body cannot be decompressed: {exc}") from None
        if len(body) != datasize:
            raise ReplayError(f"{source}: the LZMA body gave {len(body)} bytes, the header says {datasize}")
    else:
        body = payload
    r = _Reader(body, source)
    tag = bool(flag & REPLAY_TAG)
    players = [_decode_name(r.take(2 * NAME_UNITS, "a player name")) for _ in range(4 if tag else 2)]
    start_lp, start_hand, draw_count, duel_flag = _PARAMS.unpack(r.take(_PARAMS.size, "the duel parameters"))
    if tag != bool(duel_flag & C.DUEL_TAG_MODE):
        raise ReplayError(f"{source}: the TAG flag and the duel options disagree (options 0x{duel_flag:x})")
    replay = Replay(header=header, players=players, start_lp=start_lp, start_hand=start_hand,
                    draw_count=draw_count, duel_flag=duel_flag, source=source)
    if flag & REPLAY_SINGLE_MODE:
        n = r.u16("the puzzle name length")
        if n == 0 or n > 255:
            raise ReplayError(f"{source}: puzzle name length {n}")
        name = r.take(n, "the puzzle name").decode("utf-8", "replace")
        replay.script_name = name[len("./single/"):] if name.startswith("./single/") else name
    else:
        for p in range(len(players)):
            deck = ReplayDeck()
            for part in ("main", "extra"):
                count = r.u32(f"player {p}'s {part} deck count")
                if count > MAX_DECK_COUNT:
                    raise ReplayError(f"{source}: player {p}'s {part} deck has {count} cards (limit {MAX_DECK_COUNT})")
                raw = r.take(4 * count, f"player {p}'s {part} deck")
                setattr(deck, part, list(struct.unpack(f"<{count}I", raw)))
            replay.decks.append(deck)
    while r.pos < len(body):
        n = body[r.pos]
        r.pos += 1
        replay.responses.append(r.take(n, f"response {len(replay.responses)}"))
    return replay


def read_replay(path: str | Path) -> Replay:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ReplayError(f"{p}: cannot read: {exc}") from None
    return parse_replay(data, str(p))


# ---------------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------------
def _encode_name(name: str) -> bytes:
    raw = name.encode("utf-16-le")[:2 * (NAME_UNITS - 1)]
    return raw + bytes(2 * NAME_UNITS - len(raw))


def _body(replay: Replay) -> bytes:
    out = bytearray()
    for name in replay.players:
        out += _encode_name(name)
    out += _PARAMS.pack(replay.start_lp, replay.start_hand, replay.draw_count, replay.duel_flag & 0xFFFFFFFF)
    if replay.is_single:
        script = ("./single/" + (replay.script_name or "")).encode("utf-8")
        out += struct.pack("<H", len(script)) + script
    else:
        for deck in replay.decks:
            for part in (deck.main, deck.extra):
                out += struct.pack(f"<I{len(part)}I", len(part), *part)
    for resp in replay.responses:
        resp = bytes(resp)[:255]
        out.append(len(resp))
        out += resp
    return bytes(out)


def encode_replay(replay: Replay, *, compress: bool = True) -> bytes:
    """The .yrp bytes of a replay (a 'yrp2' header when it has a seed sequence)."""
    h = replay.header
    body = _body(replay)
    flag = h.flag & ~REPLAY_COMPRESSED
    props = bytes(8)
    payload = body
    if compress:
        flag |= REPLAY_COMPRESSED
        filters = [{"id": lzma.FILTER_LZMA1, "preset": 5, "dict_size": _LZMA_DICT,
                    "lc": _LZMA_LC, "lp": _LZMA_LP, "pb": _LZMA_PB, "nice_len": 32, "mf": lzma.MF_BT4}]
        payload = lzma.compress(body, format=lzma.FORMAT_RAW, filters=filters)
        props = bytes([(_LZMA_PB * 5 + _LZMA_LP) * 9 + _LZMA_LC]) + _LZMA_DICT.to_bytes(4, "little") + bytes(3)
    head = _BASE.pack(h.id, h.version, flag, h.seed & 0xFFFFFFFF, len(body), h.start_time & 0xFFFFFFFF, props)
    if h.id == REPLAY_ID_YRP2:
        seeds = list(h.seed_sequence or [0] * SEED_COUNT)
        head += _EXT.pack(*seeds, h.header_version, *h.values)
    return head + payload


def write_replay(replay: Replay, path: str | Path, *, compress: bool = True) -> Path:
    p = Path(path)
    p.write_bytes(encode_replay(replay, compress=compress))
    return p


def replay_from_duel(seed_sequence: Sequence[int], cards: Sequence[Sequence[int]], responses: Sequence[bytes], *,
                     players: Sequence[str] = ("duelhost 0", "duelhost 1"),
                     params: Sequence[int] = (8000, 5, 1), options: int = 5 << 16) -> Replay:
    """A 'yrp2' replay of a duel set up with ``new_card`` calls on the Deck/Extra Deck and played
    with ``responses`` (each the bytes sent; trailing zeros may be dropped)."""
    decks = [ReplayDeck(), ReplayDeck()]
    for code, owner, player, location, _seq, _pos in cards:
        if location == C.LOCATION_DECK:
            decks[player].main.append(code)
        elif location == C.LOCATION_EXTRA:
            decks[player].extra.append(code)
        else:
            raise ReplayError(f"a replay holds Deck and Extra Deck cards only, not location 0x{location:x}")
    header = ReplayHeader(id=REPLAY_ID_YRP2, flag=REPLAY_UNIFORM, seed_sequence=list(seed_sequence),
                          start_time=int(time.time()))
    return Replay(header=header, players=list(players), start_lp=params[0], start_hand=params[1],
                  draw_count=params[2], duel_flag=options, decks=decks,
                  responses=[_trim(r) for r in responses])


def _trim(resp: bytes) -> bytes:
    """Drop trailing zero bytes past the first 4 (the core zero-fills the rest of its area)."""
    resp = bytes(resp)
    end = len(resp)
    while end > 4 and resp[end - 1] == 0:
        end -= 1
    return resp[:end]


# ---------------------------------------------------------------------------------------------
# playing through our engine
# ---------------------------------------------------------------------------------------------
@dataclass
class ReplayRun:
    """How a replay went through our engine."""

    source: str
    status: str                    # finished / responses_exhausted / refused / error
    responses_used: int
    responses_total: int
    turn: int
    phase: int
    winner: int | None = None
    reason: int | None = None
    refused: bytes | None = None   # the response the engine refused
    refused_because: str | None = None
    prompt: Any = None             # the prompt it answered
    error: str | None = None
    snapshot: dict[str, Any] = field(default_factory=dict)
    engine: Any = None

    def to_text(self, name_of: Any = None) -> str:
        phase = PHASE_NAMES.get(self.phase, f"phase {self.phase:#x}") if self.phase else "before the first"
        if self.winner == 2:
            ended = "finished: a draw"
        else:
            ended = f"finished: player {self.winner} won: {win_words(self.reason or 0)}"
        head = {
            "finished": ended,
            "responses_exhausted": "all recorded responses used; the duel waits for more",
            "refused": f"the core refused response {self.responses_used}",
            "error": "engine error",
        }.get(self.status, self.status)
        lines = [f"{self.source}: {head}",
                 f"  turn {self.turn}, {phase} Phase, {self.responses_used}/{self.responses_total} responses"]
        if self.prompt is not None:
            lines.append(f"  prompt: {self.prompt.describe(name_of)}")
        if self.refused is not None:
            lines.append(f"  response: {self.refused.hex()} ({self.refused_because or 'MSG_RETRY'})")
        if self.error:
            lines.append(self.error)
        lp = self.snapshot.get("lp")
        if lp:
            lines.append(f"  LP: {lp[0]} / {lp[1]}")
        return "\n".join(lines)


def _script_host(scripts: Path | None, replay: Replay, puzzle_dir: Path | None, time_budget: float) -> Any:
    if scripts is None:
        return None
    from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime, for a replay with scripts
    dirs = [scripts]
    if puzzle_dir is not None:
        dirs.append(puzzle_dir)
    return LuaScriptHost(dirs, time_budget=time_budget)


def _run_puzzle(script: Any, replay: Replay) -> None:
    """Run a single-mode replay's puzzle script.  Its name is data: it must be a file of the
    script or puzzle folders (bindings/files.py); refused, missing or failing is one
    ReplayError line."""
    name = replay.script_name or ""
    if script is None:
        raise ReplayError(f"{replay.source}: single-mode replay of puzzle {name!r} needs a script folder")
    try:
        found = file_in_folders(script.script_dirs, name)
    except OutsideFolderError as exc:
        raise ReplayError(f"{replay.source}: puzzle {exc}") from None
    if found is None:
        where = ", ".join(str(d) for d in script.script_dirs)
        raise ReplayError(f"{replay.source}: puzzle script {name!r} not found in {where} "
                          f"(pass --puzzles DIR, the folder of the puzzle scripts)")
    errors_before = len(script.errors)
    if not script.load_script(name):
        detail = "; ".join(e.message for e in script.errors[errors_before:]) or "it did not run"
        raise ReplayError(f"{replay.source}: puzzle script {name!r} failed: {detail}")


def replay_setup(replay: Replay, *, own_rng: bool = True) -> DuelSetup:
    """The set-up the client gives the core for this replay (a duelhost.driver.DuelSetup):
    a 'yrp2' replay's seed sequence, or a 'yrp1' replay's single seed, with the generator
    mapping of the replay's time when ``own_rng`` (our engine has the older ones; the
    reference, and so a side-by-side diff, only the v1 rule); the players' settings and
    the ``new_card`` / ``new_tag_card`` calls in the client's order."""
    cards, tags = replay.new_card_calls()
    seed = rng_version = None
    if replay.header.id != REPLAY_ID_YRP2:
        seed = replay.duel_seed
        rng_version = replay.rng_version if own_rng else None
    return DuelSetup(seed_sequence=list(replay.header.seed_sequence or []), cards=cards, tag_cards=tags,
                     seed=seed, rng_version=rng_version,
                     players=[(replay.start_lp, replay.start_hand, replay.draw_count)] * 2,
                     options=replay.duel_flag, decks=[list(d.main) for d in replay.decks])


def build_engine(replay: Replay, db: Any, scripts: Path | None, *, puzzle_dir: Path | None = None,
                 time_budget: float = 60.0, card_reader: Any = None) -> Driver:
    """Our duel (a duelhost.driver.Driver), set up and started exactly as the client sets up
    the reference for this replay (a single-mode replay's puzzle run before the start).

    ``card_reader`` (code -> CardData) replaces the one built from ``db``."""
    script = _script_host(scripts, replay, puzzle_dir, time_budget)
    reader = card_reader if card_reader is not None else card_reader_from_db(db)
    setup = replay_setup(replay)
    driver = Driver.from_setup(reader, setup, script)
    if replay.is_single:
        _run_puzzle(script, replay)
    driver.start(setup.options)
    return driver


def play_replay(replay: Replay, db: Any, scripts: Path | None, *, puzzle_dir: Path | None = None,
                time_budget: float = 60.0, card_reader: Any = None, on_step: Any = None) -> ReplayRun:
    """Play a replay's recorded responses through our engine; stop at the first one it refuses.

    ``on_step(engine, prompt, raw)``, when given, is called after every engine step: the
    prompt reached (None at the end) and the response just sent (None before the first);
    duelhost.html records the duel's timeline with it.
    Raises ReplayError when the replay cannot be set up (a puzzle refused, missing or failing)."""
    run = ReplayRun(source=replay.source, status="responses_exhausted", responses_used=0,
                    responses_total=len(replay.responses), turn=0, phase=0)
    duel = None
    try:
        driver = build_engine(replay, db, scripts, puzzle_dir=puzzle_dir, time_budget=time_budget,
                              card_reader=card_reader)
        run.engine = duel = driver.engine
        prompt = driver.step(None)
        if on_step is not None:
            on_step(duel, prompt, None)
        while True:
            if prompt is None or driver.ended:
                run.status = "finished"
                break
            if run.responses_used >= len(replay.responses):
                run.prompt = prompt
                break
            raw = replay.responses[run.responses_used]
            run.responses_used += 1
            nxt = driver.step(raw)
            if on_step is not None:
                on_step(duel, nxt, raw)
            if driver.retried():
                run.status = "refused"
                run.prompt = prompt
                run.refused = raw
                try:
                    parse_response(prompt, raw, card_lookup=getattr(db, "find", None))
                except InvalidResponse as exc:
                    run.refused_because = str(exc)
                break
            prompt = nxt
    except ReplayError:     # bad input (the puzzle of a single-mode replay), not an engine error
        raise
    except Exception:
        run.status = "error"
        run.error = traceback.format_exc()
    if duel is not None:
        for m in reversed(duel.messages):
            if isinstance(m, MsgWin):
                run.winner, run.reason = m.player, m.reason
                break
        run.turn = duel.infos.turn_id
        run.phase = duel.infos.phase
        run.snapshot = freeze_state(duel, run)
    return run


# ---------------------------------------------------------------------------------------------
# snapshots: a regression suite made of recorded duels
# ---------------------------------------------------------------------------------------------
_PILES = (("deck", C.LOCATION_DECK, "list_main"), ("hand", C.LOCATION_HAND, "list_hand"),
          ("mzone", C.LOCATION_MZONE, "list_mzone"), ("szone", C.LOCATION_SZONE, "list_szone"),
          ("grave", C.LOCATION_GRAVE, "list_grave"), ("removed", C.LOCATION_REMOVED, "list_remove"),
          ("extra", C.LOCATION_EXTRA, "list_extra"))


def _card_json(card: Any) -> dict[str, Any]:
    cur = card.current
    out: dict[str, Any] = {"code": card.data.code, "owner": card.owner, "controller": cur.controler,
                           "location": cur.location, "sequence": cur.sequence, "position": cur.position}
    if cur.location == C.LOCATION_MZONE:
        atk, dfn = card.get_atk_def()
        out.update(attack=atk, defense=dfn, level=card.get_level())
    if card.counters:
        out["counters"] = {f"0x{k:x}": v for k, v in sorted(card.counters.items())}
    if card.xyz_materials:
        out["materials"] = [m.data.code for m in card.xyz_materials]
    return out


def freeze_state(duel: Any, run: ReplayRun | None = None) -> dict[str, Any]:
    """The end state of a duel as plain JSON data: LP, every card's place and stats, the message kinds."""
    players = []
    for p in (0, 1):
        pl = duel.player[p]
        piles = {}
        for name, _loc, attr in _PILES:
            piles[name] = [_card_json(c) for c in getattr(pl, attr) if c is not None]
        players.append(piles)
    kinds = collections.Counter(m.NAME for m in duel.messages)
    snap: dict[str, Any] = {
        "turn": duel.infos.turn_id, "turn_player": duel.infos.turn_player, "phase": duel.infos.phase,
        "lp": [duel.player[0].lp, duel.player[1].lp],
        "players": players,
        "messages": len(duel.messages),
        "message_kinds": dict(sorted(kinds.items())),
    }
    if run is not None:
        snap.update(status=run.status, responses_used=run.responses_used, winner=run.winner, reason=run.reason)
    return snap


def compare_snapshots(expected: dict[str, Any], actual: dict[str, Any], limit: int = 20) -> list[str]:
    """The differences between two frozen states (empty when they agree)."""
    out: list[str] = []

    def walk(a: Any, b: Any, path: str) -> None:
        if len(out) >= limit:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b), key=str):
                if k not in a:
                    out.append(f"{path}.{k}: not in the snapshot, now {b[k]!r}")
                elif k not in b:
                    out.append(f"{path}.{k}: {a[k]!r} in the snapshot, now missing")
                else:
                    walk(a[k], b[k], f"{path}.{k}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                out.append(f"{path}: {len(a)} entries in the snapshot, now {len(b)}")
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{path}[{i}]")
        elif a != b:
            out.append(f"{path}: {a!r} in the snapshot, now {b!r}")

    walk(expected, actual, "state")
    return out


def save_snapshot(snapshot: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(snapshot, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def load_snapshot(path: str | Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError) as exc:
        raise ReplayError(f"{path}: not a snapshot: {exc}") from None


def missing_cards(codes: Sequence[int], database: Any, scripts: str | Path, *, db_name: str | Path = "the database",
                  source: str | Path = "") -> str | None:
    """One line saying which of ``codes`` have no row in ``database`` or no ``c<ID>.lua``
    in ``scripts`` (a non-Pendulum Normal Monster needs no script, as in the reference),
    or None when every card is there.  ``duelhost replay`` and ``duelhost puzzle`` check
    this before they play, so a replay of real cards run against the bundled cards says
    so up front instead of failing at its first effect."""
    folder = Path(scripts)
    no_row: list[int] = []
    no_script: list[int] = []
    for code in dict.fromkeys(codes):
        rec = database.find(code)
        if rec is None:
            no_row.append(code)
        elif _needs_script(rec.type) and not (folder / f"c{code}.lua").is_file():
            no_script.append(code)
    if not no_row and not no_script:
        return None

    def some(values: list[int]) -> str:
        shown = ", ".join(map(str, values[:8]))
        return shown + (f" and {len(values) - 8} more" if len(values) > 8 else "")

    parts = []
    if no_row:
        parts.append(f"{len(no_row)} card(s) not in {db_name} ({some(no_row)})")
    if no_script:
        parts.append(f"{len(no_script)} card(s) with no script in {folder} ({some(no_script)})")
    where = f"{source}: " if source else ""
    return where + "; ".join(parts) + " -- pass the --db and --scripts they were made with"


def replay_codes(rep: Replay) -> list[int]:
    """Every card code of the replay's decks (Main and Extra, every player)."""
    return [c for d in rep.decks for c in (*d.main, *d.extra)]
