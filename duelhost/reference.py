"""The reference core (Fluorohydride/ygopro-core) driven through its C API.

The user builds the reference core as a shared library (see docs/reference.md)
and points ``OCGCORE_LIB`` (or the ``lib`` argument / ``--ref-lib`` option) at
it.  ``ReferenceCore`` loads it with ctypes and serves it the same card
database and script folder our engine uses:

* the *card reader* callback answers ``read_card(code, card_data*)`` with the
  80-byte ``card_data`` struct built from a ``cards.cdb``-schema database;
* the *script reader* callback answers ``read_script("./script/<name>")`` with
  the file ``<name>`` of our chosen script folder (the core asks for
  ``constant.lua``, ``utility.lua``, ``procedure.lua`` and ``c<ID>.lua``);
* the *message handler* callback collects script error texts
  (``get_log_message``).

The callbacks are process-wide in the reference (static function pointers), so
one ``ReferenceCore`` per library serves every duel created through it; the
ctypes callback objects are kept on the instance so they stay alive.

``ReferenceDuel`` wraps one duel handle: ``set_player_info``, ``new_card``,
``start``, ``process``/``get_message``, ``set_responseb``/``set_responsei``,
the ``query_*`` calls and ``end``.  ``advance()`` runs the reference the way a
host does: ``process()`` until a prompt (or MSG_RETRY) waits for an answer, a
MSG_WIN is written or the duel ends, and returns the bytes written on the way.
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from duelhost.bindings.files import OutsideFolderError, confined_path
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.messages import Message, MsgRetry, MsgWin, Prompt, decode_messages

__all__ = [
    "OCGCORE_LIB_ENV",
    "ReferenceCoreError",
    "ReferenceCore",
    "ReferenceDuel",
    "StepOutput",
    "reference_library_path",
]

OCGCORE_LIB_ENV = "OCGCORE_LIB"
"""Environment variable naming the reference core's shared library."""

PROCESSOR_BUFFER_LEN = 0x0FFFFFFF
PROCESSOR_WAITING = 0x10000000
PROCESSOR_END = 0x20000000
SEED_COUNT = 8
RESPONSE_SIZE = 256
CARD_DATA_SIZE = 80
_MESSAGE_BUFFER = 0x100000   # the reference's own message buffers never come near this
_QUERY_BUFFER = 0x40000
_LOG_BUFFER = 1024

_SCRIPT_READER = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int))
_CARD_READER = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_uint32, ctypes.c_void_p)
_MESSAGE_HANDLER = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32)


class ReferenceCoreError(RuntimeError):
    """The reference library cannot be found, loaded or used as asked."""


def reference_library_path(path: str | os.PathLike[str] | None = None) -> Path | None:
    """``path`` if given, else ``$OCGCORE_LIB``, else None."""
    if path is not None:
        return Path(path)
    env = os.environ.get(OCGCORE_LIB_ENV)
    return Path(env) if env else None


_FUNCTIONS: dict[str, tuple[Any, list[Any]]] = {
    "set_script_reader": (None, [_SCRIPT_READER]),
    "set_card_reader": (None, [_CARD_READER]),
    "set_message_handler": (None, [_MESSAGE_HANDLER]),
    "create_duel": (ctypes.c_void_p, [ctypes.c_uint32]),
    "create_duel_v2": (ctypes.c_void_p, [ctypes.POINTER(ctypes.c_uint32)]),
    "start_duel": (None, [ctypes.c_void_p, ctypes.c_uint32]),
    "end_duel": (None, [ctypes.c_void_p]),
    "set_player_info": (None, [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32,
                               ctypes.c_int32]),
    "get_log_message": (None, [ctypes.c_void_p, ctypes.c_char_p]),
    "get_message": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_void_p]),
    "process": (ctypes.c_uint32, [ctypes.c_void_p]),
    "new_card": (None, [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint8, ctypes.c_uint8,
                        ctypes.c_uint8, ctypes.c_uint8, ctypes.c_uint8]),
    "new_tag_card": (None, [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint8, ctypes.c_uint8]),
    "query_card": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_uint8, ctypes.c_uint8, ctypes.c_uint8,
                                    ctypes.c_uint32, ctypes.c_void_p, ctypes.c_int32]),
    "query_field_count": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_uint8, ctypes.c_uint8]),
    "query_field_card": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_uint8, ctypes.c_uint8,
                                          ctypes.c_uint32, ctypes.c_void_p, ctypes.c_int32]),
    "query_field_info": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_void_p]),
    "set_responsei": (None, [ctypes.c_void_p, ctypes.c_int32]),
    "set_responseb": (None, [ctypes.c_void_p, ctypes.c_void_p]),
    "preload_script": (ctypes.c_int32, [ctypes.c_void_p, ctypes.c_char_p]),
}

# one loaded core per library file: the reference's callbacks are process-wide
_CORES: dict[str, "ReferenceCore"] = {}


class ReferenceCore:
    """A loaded reference library with our card database and script folder behind it."""

    def __init__(self, lib: str | os.PathLike[str] | None = None, *,
                 db: CardDatabase | str | os.PathLike[str] | None = None,
                 scripts: str | os.PathLike[str] | None = None) -> None:
        path = reference_library_path(lib)
        if path is None:
            raise ReferenceCoreError(f"no reference library: pass its path or set {OCGCORE_LIB_ENV}")
        if not path.is_file():
            raise ReferenceCoreError(f"reference library {path} does not exist")
        try:
            self.lib = ctypes.CDLL(str(path.resolve()))
        except OSError as exc:
            raise ReferenceCoreError(f"cannot load reference library {path}: {exc}") from None
        for name, (restype, argtypes) in _FUNCTIONS.items():
            try:
                fn = getattr(self.lib, name)
            except AttributeError:
                raise ReferenceCoreError(f"{path} does not export {name}(): is it a ygopro-core build?") from None
            fn.restype = restype
            fn.argtypes = argtypes
        self.path = path
        self.db: CardDatabase | None = None
        self.scripts: Path | None = None
        self._card_cache: dict[int, bytes] = {}
        self._script_cache: dict[str, bytes | None] = {}
        self._script_buffer: Any = None          # the last script served, kept alive for the core
        self.scripts_read: list[str] = []        # every name the core asked for, in order
        self.scripts_missing: list[str] = []
        self.cards_missing: list[int] = []
        self.errors: list[str] = []              # script error texts (message handler)
        self._log = ctypes.create_string_buffer(_LOG_BUFFER)
        # the ctypes callback objects must outlive every call the core makes through them
        self._script_reader = _SCRIPT_READER(self._read_script)
        self._card_reader = _CARD_READER(self._read_card)
        self._message_handler = _MESSAGE_HANDLER(self._handle_message)
        self.lib.set_script_reader(self._script_reader)
        self.lib.set_card_reader(self._card_reader)
        self.lib.set_message_handler(self._message_handler)
        self.use(db=db, scripts=scripts)

    @classmethod
    def load(cls, lib: str | os.PathLike[str] | None = None, *,
             db: CardDatabase | str | os.PathLike[str] | None = None,
             scripts: str | os.PathLike[str] | None = None) -> "ReferenceCore":
        """The core for this library file (loaded once per process), serving ``db`` and ``scripts``."""
        path = reference_library_path(lib)
        if path is None:
            raise ReferenceCoreError(f"no reference library: pass its path or set {OCGCORE_LIB_ENV}")
        key = str(path.resolve())
        core = _CORES.get(key)
        if core is None:
            core = _CORES[key] = cls(path, db=db, scripts=scripts)
        else:
            core.use(db=db, scripts=scripts)
        return core

    def use(self, *, db: CardDatabase | str | os.PathLike[str] | None = None,
            scripts: str | os.PathLike[str] | None = None) -> None:
        """Serve this database and script folder from now on."""
        if db is not None:
            new_db = db if isinstance(db, CardDatabase) else CardDatabase.open(db)
            if new_db is not self.db:
                self.db = new_db
                self._card_cache.clear()
        if scripts is not None:
            folder = Path(scripts)
            if folder != self.scripts:
                self.scripts = folder
                self._script_cache.clear()

    # ----- callbacks (exceptions must not cross into C) -----------------------------------

    def _read_script(self, name: bytes, length: Any) -> int | None:
        try:
            text = name.decode("utf-8", "replace")
            self.scripts_read.append(text)
            data = self.script_source(text)
            if data is None:
                self.scripts_missing.append(text)
                return None
            self._script_buffer = ctypes.create_string_buffer(data, len(data))
            length[0] = len(data)
            return ctypes.addressof(self._script_buffer)
        except Exception as exc:  # pragma: no cover - a bug here must not crash the core
            self.errors.append(f"script reader: {exc!r}")
            return None

    def provide_script(self, name: str, data: bytes) -> None:
        """Serve ``data`` when the core asks for exactly ``name`` (a puzzle file given
        to ``preload_script``, which lives outside the script folder)."""
        self._script_cache[name] = bytes(data)

    def script_source(self, name: str) -> bytes | None:
        """The bytes served for a script name the core asks for (``./script/c123.lua``)."""
        if name in self._script_cache:
            return self._script_cache[name]
        data = None
        if self.scripts is not None:
            base = name.replace("\\", "/").rsplit("/", 1)[-1]
            try:
                p = confined_path(self.scripts, base)     # no symlink out of the folder
            except OutsideFolderError as exc:
                self.errors.append(f"script reader: {exc}")
            else:
                if p.is_file():
                    data = p.read_bytes()
        self._script_cache[name] = data
        return data

    def _read_card(self, code: int, data: int) -> int:
        try:
            raw = self._card_cache.get(code)
            if raw is None:
                db = self.db
                rec = db.find(code) if db is not None else None
                if rec is None or db is None:
                    self.cards_missing.append(code)
                    raw = bytes(CARD_DATA_SIZE)
                else:
                    raw = db.card_data(code)
                self._card_cache[code] = raw
            ctypes.memmove(data, raw, CARD_DATA_SIZE)
        except Exception as exc:  # pragma: no cover
            self.errors.append(f"card reader: {exc!r}")
        return 0

    def _handle_message(self, pduel: int, msg_type: int) -> int:
        try:
            if msg_type == 1 and pduel:
                self.lib.get_log_message(pduel, self._log)
                self.errors.append(self._log.value.decode("utf-8", "replace"))
        except Exception:  # pragma: no cover
            pass
        return 0

    # ----- duels ----------------------------------------------------------------------

    def create_duel(self, seed_sequence: Sequence[int] | None = None, *, seed: int | None = None) -> "ReferenceDuel":
        """``create_duel_v2(seed_sequence)`` (8 uint32, rng v2) or ``create_duel(seed)`` (rng v1)."""
        if seed_sequence is not None:
            seeds = list(seed_sequence)
            if len(seeds) != SEED_COUNT:
                raise ReferenceCoreError(f"a seed sequence has {SEED_COUNT} numbers, got {len(seeds)}")
            arr = (ctypes.c_uint32 * SEED_COUNT)(*[s & 0xFFFFFFFF for s in seeds])
            handle = self.lib.create_duel_v2(arr)
        else:
            handle = self.lib.create_duel((seed or 0) & 0xFFFFFFFF)
        if not handle:
            raise ReferenceCoreError("the reference core did not create a duel")
        return ReferenceDuel(self, handle)


@dataclass
class StepOutput:
    """What the reference wrote between two answers."""

    data: bytes                          # every byte get_message returned, concatenated
    messages: list[Message] = field(default_factory=list)
    flags: list[int] = field(default_factory=list)     # each process() return value
    ended: bool = False                  # PROCESSOR_END, or MSG_WIN written

    @property
    def prompt(self) -> Prompt | None:
        if self.messages and isinstance(self.messages[-1], Prompt):
            return self.messages[-1]
        return None

    @property
    def retry(self) -> bool:
        return bool(self.messages) and isinstance(self.messages[-1], MsgRetry)


class ReferenceDuel:
    """One duel in the reference core (a ``duel*`` handle)."""

    def __init__(self, core: ReferenceCore, handle: int) -> None:
        self.core = core
        self.lib = core.lib
        self.handle = ctypes.c_void_p(handle)
        self._buf = ctypes.create_string_buffer(_MESSAGE_BUFFER)
        self._response = ctypes.create_string_buffer(RESPONSE_SIZE)
        self._query = ctypes.create_string_buffer(_QUERY_BUFFER)
        self.closed = False
        self.ended = False

    # set-up
    def set_player_info(self, player: int, lp: int = 8000, start_hand: int = 5, draw: int = 1) -> None:
        self.lib.set_player_info(self.handle, player, lp, start_hand, draw)

    def new_card(self, code: int, owner: int, player: int, location: int, sequence: int = 0,
                 position: int = 8) -> None:
        self.lib.new_card(self.handle, code, owner, player, location, sequence, position)

    def new_tag_card(self, code: int, owner: int, location: int) -> None:
        self.lib.new_tag_card(self.handle, code, owner, location)

    def start(self, options: int) -> None:
        self.lib.start_duel(self.handle, options & 0xFFFFFFFF)

    def preload_script(self, name: str) -> int:
        return self.lib.preload_script(self.handle, name.encode())

    # running
    def process(self) -> int:
        return self.lib.process(self.handle)

    def get_message(self) -> bytes:
        n = self.lib.get_message(self.handle, self._buf)
        return ctypes.string_at(self._buf, n) if n > 0 else b""   # not .raw: that copies the whole 1 MiB

    def set_responseb(self, data: bytes) -> None:
        data = bytes(data)[:RESPONSE_SIZE]
        ctypes.memset(self._response, 0, RESPONSE_SIZE)
        ctypes.memmove(self._response, data, len(data))
        self.lib.set_responseb(self.handle, self._response)

    def set_responsei(self, value: int) -> None:
        value &= 0xFFFFFFFF
        if value >= 1 << 31:
            value -= 1 << 32
        self.lib.set_responsei(self.handle, value)

    def advance(self, max_calls: int = 100000) -> StepOutput:
        """``process()`` until an answer is awaited, MSG_WIN is written or the duel ends."""
        out = StepOutput(b"")
        chunks = []
        for _ in range(max_calls):
            flags = self.process()
            out.flags.append(flags)
            data = self.get_message()
            if data:
                chunks.append(data)
                out.messages.extend(decode_messages(data))
            if flags & PROCESSOR_END:
                out.ended = True
                break
            if out.messages and isinstance(out.messages[-1], MsgWin):
                out.ended = True
                break
            if out.messages and isinstance(out.messages[-1], Prompt):
                # ROCK_PAPER_SCISSORS comes without PROCESSOR_WAITING: the core would go on
                # reading a stale answer, so a host answers every prompt before process()
                break
            if flags & PROCESSOR_WAITING and out.messages and isinstance(out.messages[-1], MsgRetry):
                break
        else:
            raise ReferenceCoreError(f"the reference core ran {max_calls} process() calls without a prompt")
        out.data = b"".join(chunks)
        self.ended = out.ended
        return out

    # queries
    def query_card(self, player: int, location: int, sequence: int, flags: int, use_cache: bool = False) -> bytes:
        n = self.lib.query_card(self.handle, player, location, sequence, flags, self._query, int(use_cache))
        return ctypes.string_at(self._query, n) if n > 0 else b""

    def query_field_count(self, player: int, location: int) -> int:
        return self.lib.query_field_count(self.handle, player, location)

    def query_field_card(self, player: int, location: int, flags: int, use_cache: bool = False) -> bytes:
        n = self.lib.query_field_card(self.handle, player, location, flags, self._query, int(use_cache))
        return ctypes.string_at(self._query, n) if n > 0 else b""

    def query_field_info(self) -> bytes:
        n = self.lib.query_field_info(self.handle, self._query)
        return ctypes.string_at(self._query, n) if n > 0 else b""

    def end(self) -> None:
        if not self.closed:
            self.closed = True
            self.lib.end_duel(self.handle)

    def __enter__(self) -> "ReferenceDuel":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.end()

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self.end()
        except Exception:
            pass
