"""The Lua runtime and its sandbox.

``LuaSandbox`` owns one lupa ``LuaRuntime`` (Lua 5.4) set up the way the
reference core sets up its ``lua_State``, plus the protections a host of
untrusted scripts needs:

- Libraries: base, string, utf8, table, math -- what the reference opens.
  Removed from the global table: io, os, debug, package/require, coroutine,
  lupa's ``python`` module, collectgarbage, dofile, loadfile.  ``load`` only
  accepts text (like ``luaL_loadbufferx(..., "t")``), so ``string.dump``
  output cannot be loaded back.  ``setmetatable(_G, ...)`` is refused (lupa
  reads globals outside protected calls; a metamethod on ``_G`` could abort
  the process).  No script in the reference corpus sets one.
- No path to Python: lupa's ``eval``/``builtins`` are off and an attribute
  filter refuses every attribute of every Python object.  Engine objects
  reach scripts only as handles, which read their class tables (handles.py).
- No script finalizer ever runs: ``__gc`` metamethods are refused (Lua runs
  finalizers with hooks off, so a looping one could not be stopped), and the
  host never sets a metatable scripts can write (class tables get one of the
  glue's own; Card/Effect/Group/Duel/Debug have protected metatables).
- Memory: ``max_memory`` bounds Lua's allocations; a runaway allocation
  fails with "not enough memory" inside the call, the garbage is collected
  and the runtime goes on.  Before each outermost call the sandbox checks
  that at least ``memory_reserve`` bytes are free (collecting if needed),
  because lupa pushes arguments outside any protected call.
- Time: a count hook on every thread that runs script code raises
  "script timeout: ..." once a call has run longer than ``time_budget``
  seconds (wall clock, time.monotonic).  The hook never fires inside the host's own glue;
  after a timeout it fires at every instruction and ``pcall``/``xpcall``
  refuse to start, so a script cannot swallow it.  The C library functions
  no hook interrupts are bounded before they start (pattern matching by a
  worst-case step count, ``pattern_limit``; ``table.sort``/``table.move`` by
  ``max_elements``; ``load`` by ``max_chunk``).  ``stop(reason)`` ends the
  running call the same way for another reason (the host uses it for errors
  that repeat through library functions).

The privileged half lives in bootstrap.lua: its functions are upvalues of
closures only Python holds.  Every call into script code goes through one
of them (``call``, ``call_field``, ``run``, ``task_start``, ``task_resume``),
which run it under ``xpcall`` with a traceback handler; none of them lets a
Lua error reach lupa.

Library functions are C closures around their Python entries (lupa's
``python.as_function``), not Lua wrappers: a script's ``return Duel.X(...)``
is a tail call, and only a C callee keeps the script's frame, which is where
the reference's ``luaL_error`` puts the error position.

Lupa facts that shape the rest (measured with lupa 2.8):

- A lupa object created while Lua runs inside a coroutine remembers that
  coroutine's ``lua_State`` and uses it when it is called, indexed or freed.
  So threads that run scripts are pooled and never freed, and Python only
  ever *calls* the privileged functions above (created on the main state);
  script values (functions, tables) are only passed back as arguments.
- lupa's item access reads ``lua_gettop`` of its state and returns every
  value on it; from inside a callback that is garbage.  Python code that may
  run inside a Lua callback never indexes Lua tables.
- A C closure made by ``python.as_function`` reaches Python as the Python
  object inside it; each library function therefore has a Lua "twin" that
  Python keeps and passes back instead (see handles.py).
- A Python exception raised inside a call from Lua becomes a Lua error whose
  value is the exception object; the message handler turns it into its text.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import codecs
import ctypes
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import lupa.lua54 as _lupa
except ImportError as exc:  # pragma: no cover - lupa is a hard dependency
    raise ImportError("duelhost needs lupa with Lua 5.4 (pip install 'lupa>=2.8')") from exc

from .errors import SandboxError

__all__ = [
    "add_sandbox_observer",
    "remove_sandbox_observer",
    "parse_line_hits",
    "YIELD_MARK",
    "LuaError",
    "LuaMemoryError",
    "LuaSandbox",
    "MemoryExhausted",
    "SandboxOptions",
    "chunk_name",
    "LuaFunction",
    "LuaObject",
    "LuaTable",
]

LuaError = _lupa.LuaError
LuaMemoryError = _lupa.LuaMemoryError
LuaRuntime = _lupa.LuaRuntime

# What a yielding binding's entry returns to its Lua wrapper to suspend the
# script (a short string: Lua compares it by pointer).
YIELD_MARK = "\x00duelhost:yield"

BOOTSTRAP_PATH = Path(__file__).with_name("bootstrap.lua")
BOOTSTRAP_NAME = "=duelhost/bootstrap.lua"
# the heap below which no collection runs (ensure_headroom)
_GC_MIN_HEAP = 8 << 20

# The reference asks its script reader for "./script/<file>"; we load under
# that name as a file chunk ("@"), so messages read ./script/c123.lua:45:
SCRIPT_PREFIX = "./script/"


class _HookApi:
    """lua_sethook / lua_gethook of lupa's Lua 5.4 library, called through ctypes.

    Through ``ctypes.PyDLL``: each call keeps Python's lock (the sandbox's own
    ``_arming`` lock makes a whole arming or disarming run as one).  Lua allows
    lua_sethook while the state runs (lua.c calls it from a signal handler; the VM
    reads the new trap at its next jump or call).  It writes the thread's hook
    fields and marks the thread's call frames in use; a collection running at the
    same time frees only frames past those.
    """

    MASK_COUNT = 8      # LUA_MASKCOUNT

    def __init__(self) -> None:
        lib = ctypes.PyDLL(_lupa.__file__)
        self.sethook = lib.lua_sethook
        self.sethook.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        self.sethook.restype = None
        self.gethook = lib.lua_gethook
        self.gethook.argtypes = [ctypes.c_void_p]
        self.gethook.restype = ctypes.c_void_p
        self.gethookmask = lib.lua_gethookmask
        self.gethookmask.argtypes = [ctypes.c_void_p]
        self.gethookmask.restype = ctypes.c_int


_HOOK_API: "_HookApi | None | bool" = False     # False: not looked for yet


def _hook_api() -> "_HookApi | None":
    """The process's _HookApi, None when lupa's library does not export it."""
    global _HOOK_API
    if _HOOK_API is False:
        try:
            _HOOK_API = _HookApi()
        except (OSError, AttributeError):  # pragma: no cover - a lupa built without the symbols
            _HOOK_API = None
    return _HOOK_API  # type: ignore[return-value]


def _thread_address(text: str) -> int:
    """The lua_State address in Lua's ``tostring`` of a thread ("thread: 0x55d0...")."""
    return int(text.rpartition(" ")[2], 16)


# The first argument of every dispatcher: False inside a running call; for a new
# outermost call True (a budget from now) or its deadline on time.monotonic's clock.
Fresh = bool | float


def chunk_name(filename: str) -> str:
    """The chunk name a script file is loaded under: ``@./script/c123.lua``."""
    return "@" + SCRIPT_PREFIX + filename


@dataclass(frozen=True, slots=True, kw_only=True)
class SandboxOptions:
    """Limits of one Lua runtime.

    max_memory      bytes Lua may allocate on top of the empty runtime.
    memory_reserve  bytes kept free for the host's own pushes between calls.
    time_budget     seconds (wall clock) one call, or one resume of a task, may run.
    hook_interval   VM instructions between two time checks.
    pattern_limit   matching steps one string.find/match/gmatch/gsub may need at
                    worst (an upper bound computed from the pattern and the subject's
                    length before the C call; ~3.5 ns a step): above it the call fails.
    max_elements    entries one table.sort or table.move may handle.
    max_chunk       bytes of one string chunk given to ``load``.
    """

    max_memory: int = 256 << 20
    memory_reserve: int = 4 << 20
    time_budget: float = 1.0
    hook_interval: int = 10_000
    pattern_limit: float = 1e8
    max_elements: int = 1 << 21
    max_chunk: int = 4 << 20


class MemoryExhausted(Exception):
    """The runtime is out of memory even after a full collection; no call was made."""


# Lua strings are bytes.  Scripts are UTF-8, but a script may build any byte
# string; lupa decodes strictly, and a decoding error inside a call would hand
# the script a Python exception object.  This codec decodes UTF-8 with
# surrogateescape, so every Lua string reaches Python and goes back unchanged.
CODEC_NAME = "duelhost_lua_utf8"


def _codec_search(name: str) -> codecs.CodecInfo | None:
    if name != CODEC_NAME:
        return None

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return text.encode("utf-8", "surrogateescape"), len(text)

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return bytes(data).decode("utf-8", "surrogateescape"), len(data)

    return codecs.CodecInfo(encode, decode, name=CODEC_NAME)


codecs.register(_codec_search)


def _refuse_attribute(obj: Any, attr_name: Any, is_setting: bool) -> Any:
    raise AttributeError("scripts cannot access attributes of host objects")


class _Anchor:
    """A probe: its lupa userdata shows bootstrap.lua lupa's metatable for Python objects."""

    __slots__ = ()


def _tuple(r: Any) -> tuple:
    return r if type(r) is tuple else (r,)


class CompiledChunks:
    """Bytecode of the text chunks sandboxes compiled, by (chunk name, source text),
    shared by every sandbox of the process; the oldest go past ``max_bytes``."""

    def __init__(self, max_bytes: int = 16 << 20) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._dumps: "OrderedDict[tuple[str, bytes], bytes]" = OrderedDict()

    def get(self, chunkname: str, source: bytes) -> bytes | None:
        key = (chunkname, source)
        dump = self._dumps.get(key)
        if dump is not None:
            self._dumps.move_to_end(key)
        return dump

    def put(self, chunkname: str, source: bytes, dump: bytes) -> None:
        self._dumps[(chunkname, source)] = dump
        self.size += len(dump) + len(source)
        while self.size > self.max_bytes and self._dumps:
            (_, src), old = self._dumps.popitem(last=False)
            self.size -= len(old) + len(src)

    def clear(self) -> None:
        self._dumps.clear()
        self.size = 0


COMPILED = CompiledChunks()


class LuaSandbox:
    """One sandboxed Lua 5.4 state with the host's privileged glue loaded."""

    def __init__(self, options: SandboxOptions | None = None) -> None:
        self.options = options or SandboxOptions()
        opt = self.options
        self.lua = LuaRuntime(
            encoding=CODEC_NAME,
            source_encoding="UTF-8",
            overflow_handler=float,
            register_eval=False,
            register_builtins=False,
            unpack_returned_tuples=True,
            attribute_filter=_refuse_attribute,
            max_memory=opt.max_memory + opt.memory_reserve,
        )
        if self.lua.lua_version != (5, 4):
            raise SandboxError(f"lupa.lua54 runs Lua {self.lua.lua_version}, expected 5.4")
        cfg = self.lua.table_from({
            "yield_mark": YIELD_MARK,
            "budget": float(opt.time_budget),
            "clock": time.monotonic,
            "interval": int(opt.hook_interval),
            "pattern_limit": float(opt.pattern_limit),
            "max_elements": int(opt.max_elements),
            "max_chunk": int(opt.max_chunk),
        })
        src = BOOTSTRAP_PATH.read_bytes()
        m = self.lua.execute(src, cfg, name=BOOTSTRAP_NAME, mode="t")
        # Every privileged function is fetched once, here: later, Python may
        # be running inside a Lua callback, where lupa item access is unsafe.
        self._call = m.call
        self._call_ref = m.call_ref
        self._call_field = m.call_field
        self._filter_cards = m.filter_cards
        self._run = m.run
        self._compile = m.compile
        self._run_compiled = m.run_compiled
        self._tostring = m.tostring
        self._task_start = m.task_start
        self._task_resume = m.task_resume
        self.task_drop = m.task_drop
        self._task_stats = m.task_stats
        self.adopt = m.adopt
        self._set_resolver = m.set_resolver
        self._resolved_count = m.resolved_count
        self._forget_class = m.forget_class
        self._record_undefined_globals = m.record_undefined_globals
        self._take_undefined_globals = m.take_undefined_globals
        self._release = m.release
        self._card_class = m.card_class
        self._set_function = m.set_function
        self._set_functions = m.set_functions
        self._strict = m.strict
        self._answer_printed = m.answer_printed
        self.printed_reset = m.printed_reset
        self._where = m.where
        self._new_table = m.new_table
        self._identity = m.identity
        self._full_gc = m.full_gc
        self._count_handles = m.count_handles
        self._set_budget = m.set_budget
        self._stop = m.stop
        self._new_libs = m.new_libs
        self._coverage = m.coverage
        self._set_lazy = m.set_lazy
        self._main_thread = m.main_thread
        # lazy hooks (enable_lazy_hooks): the threads' addresses, the hook function
        # Lua's debug library registered, whether the hooks are armed now (never
        # while line coverage is on: its line hook is armed all the time)
        self._lazy_supported: bool = False
        self._coverage_on: bool = False
        self._threads_addr: list[int] = []
        self._hookf: int = 0
        self.hooks_armed: bool = False
        # arming (the watching thread) and disarming (the host) each run whole
        self._arming = threading.Lock()
        self._coverage_take = m.coverage_take
        m.setup_handles(_Anchor())
        m.seal()
        self._soft_limit = opt.max_memory
        # Lua's incremental collector is off (bootstrap.lua, stop_auto_gc): ensure_headroom
        # collects in full when the heap has grown past this since the last collection
        m.stop_auto_gc()
        self._auto_gc_running = m.auto_gc_running
        self._set_gc_limit = m.set_gc_limit
        self._next_gc = max(_GC_MIN_HEAP, 2 * self.memory_used())
        self._set_gc_limit(self._next_gc, _GC_MIN_HEAP)
        # line coverage: chunk name -> the source text that ran (None while off)
        self.covered_sources: dict[str, bytes] | None = None
        for observer in tuple(_SANDBOX_OBSERVERS):
            observer(self)

    # ----- set-up ---------------------------------------------------------------------

    def new_libs(self) -> tuple[Any, Any, Any, Any, Any]:
        """Create the global Card, Effect, Group, Duel, Debug tables (reference layout)."""
        return tuple(self._new_libs())  # type: ignore[return-value]

    def set_function(self, lib: Any, name: str, entry: Any, may_yield: bool) -> Any:
        """Install ``lib[name]`` calling the Python ``entry``; returns its Lua twin."""
        return self._set_function(lib, name, entry, may_yield)

    def set_functions(self, lib: Any, items: list[tuple[str | bytes, Any, bool]]) -> tuple:
        """set_function for each (name, entry, may_yield) of one library, in one crossing;
        their Lua twins in the same order."""
        flat: list[Any] = []
        for item in items:
            flat += item
        return _tuple(self._set_functions(lib, *flat))

    def answer_printed(self, card_lib: Any, printed_stats: Callable[[Any], tuple]) -> Any:
        """Card queries called as methods (``c:IsCode(code)``, ``c:GetLevel()``...) answered
        in Lua for a card whose printed values they read (``printed_stats(handle)``: type,
        Level, Type, Attribute, names and archetypes, -1 for one that is not printed;
        bootstrap.lua, "printed stats answered in Lua"); returns the Lua table of those
        answers by name.  ``printed_reset()`` forgets every card's values."""
        return self._answer_printed(card_lib, printed_stats)

    def make_strict(self, lib: Any, libname: str) -> None:
        """Reading an absent name of ``lib`` raises "<lib>.<name> is not a function of the reference core"."""
        self._strict(lib, libname)

    def where(self, task_id: int | None) -> str:
        """"file:line: " of the script line that called the running library function
        (the task's thread, or the main thread for None); "" when unknown."""
        return self._where(task_id)

    def set_time_budget(self, seconds: float) -> None:
        self._set_budget(float(seconds))

    def stop(self, reason: str) -> None:
        """Stop the running call: until the outermost call returns, the script fails
        with ``reason`` at its next hook event and pcall/xpcall refuse to start."""
        self._stop(reason)
        self.arm_hooks()

    # ----- the budget hook, armed from outside ------------------------------------------

    def enable_lazy_hooks(self) -> bool:
        """From now on the count hook that keeps the time budget is not armed while
        a call runs: the host arms it (``arm_hooks``) once a call has run long
        enough to matter, from its watching thread (overrun.py), and disarms it when
        the outermost call returns (``disarm_hooks``).  Lua checks for a hook on
        every VM instruction while one is armed (luaG_traceexec), which made the
        scripts' own Lua up to twice as slow; short calls now run without it.

        False (nothing changes) when lupa's library does not export lua_sethook.
        """
        api = _hook_api()
        if api is None:
            return False
        main = _thread_address(self._main_thread())
        hookf = api.gethook(main)        # the debug library's hook, armed by seal()
        if not hookf:
            return False
        self._hookf = hookf
        self._threads_addr = [_thread_address(t) for t in _tuple(self._set_lazy(self._register_thread))]
        self._lazy_supported = True
        return True

    def _register_thread(self, text: str) -> None:
        """Lua made a thread (a task's coroutine): arm it at once if the call is armed."""
        addr = _thread_address(text)
        with self._arming:
            self._threads_addr.append(addr)
            if self.hooks_armed:
                api = _HOOK_API
                assert isinstance(api, _HookApi)
                api.sethook(addr, self._hookf, _HookApi.MASK_COUNT, self.options.hook_interval)

    def arm_hooks(self) -> None:
        """Arm the count hook of every thread (the running call is long, or stopped)."""
        if not self._lazy_supported or self._coverage_on or self.hooks_armed:
            return
        api = _HOOK_API
        assert isinstance(api, _HookApi)
        with self._arming:
            if self.hooks_armed:
                return
            self.hooks_armed = True
            hookf, interval = self._hookf, self.options.hook_interval
            for addr in self._threads_addr:
                api.sethook(addr, hookf, _HookApi.MASK_COUNT, interval)

    def disarm_hooks(self) -> None:
        """The outermost call returned: no thread's hook is armed."""
        if not self.hooks_armed:
            return
        api = _HOOK_API
        assert isinstance(api, _HookApi)
        with self._arming:
            self.hooks_armed = False
            hookf = self._hookf
            for addr in self._threads_addr:
                api.sethook(addr, hookf, 0, 0)

    def heap_past_gc_limit(self) -> bool:
        """Whether the heap has grown past the size at which the next collection is due
        (read from any thread: lupa keeps the count outside the Lua state)."""
        return (self.lua.get_memory_used() or 0) > self._next_gc

    def armed_threads(self) -> int:
        """How many threads have a hook armed now (tests)."""
        api = _hook_api()
        if api is None or not self._lazy_supported:
            return -1
        return sum(1 for addr in self._threads_addr if api.gethookmask(addr))

    # ----- memory ---------------------------------------------------------------------

    def memory_used(self) -> int:
        return int(self.lua.get_memory_used() or 0)

    def full_gc(self) -> None:
        self._full_gc()

    def auto_gc_running(self) -> bool:
        """Whether Lua's own (incremental) collector runs: never, see ensure_headroom."""
        return bool(self._auto_gc_running())

    def ensure_headroom(self) -> None:
        """Make sure an outermost call can start; raise MemoryExhausted when it cannot.

        Also Lua's garbage collection: a full collection, here between script calls,
        each time the heap has doubled since the last one (the pause of Lua's own
        collector, which is stopped; see bootstrap.lua, stop_auto_gc).  Inside a long
        call the count hook collects in full past the same limit (collect_in_call).
        """
        used = self.lua.get_memory_used()
        if used > self._next_gc or used > self._soft_limit:
            self._full_gc()
            used = self.lua.get_memory_used()
            self._next_gc = max(_GC_MIN_HEAP, 2 * used)
            self._set_gc_limit(self._next_gc, _GC_MIN_HEAP)
            if used > self._soft_limit:
                raise MemoryExhausted(
                    f"Lua memory exhausted: {self.memory_used()} bytes in use, "
                    f"limit {self._soft_limit}")

    # ----- calls (each returns a tuple whose first element is the status) --------------

    def call(self, fresh: Fresh, fn: Any, *args: Any) -> tuple:
        """(True, results...) or (False, message|None, error type, traceback|None)."""
        return _tuple(self._call(fresh, fn, *args))

    def filter_cards(self, fn: Any, ids: list[int], extra: tuple, limit: int) -> tuple | None:
        """Call ``fn(card, *extra)`` for each card handle id (HandleTable.card_ids) in one
        crossing (nested calls only): (True, called, matched indexes...) or (False,
        called, message, error type, traceback, matched indexes...); None when ``fn`` is
        not a function."""
        r = self._filter_cards(fn, len(ids), limit, *ids, *extra)
        return None if r is None else _tuple(r)

    def call_field(self, fresh: Fresh, obj: Any, name: str, *args: Any) -> tuple:
        """Call ``obj[name](...)``; error type "missing" when that is not a function."""
        return _tuple(self._call_field(fresh, obj, name, *args))

    def run(self, fresh: Fresh, source: bytes, chunkname: str, cls: Any = None,
            code: int | None = None) -> tuple:
        """Compile and run a text chunk; with ``cls``, self_table/self_code are set meanwhile.

        The compiled chunk is kept for the process (COMPILED, 16 MiB), so the same script in
        the next duel is not parsed again; a chunk that does not compile runs the
        ordinary way, which reports the syntax error.
        """
        if self.covered_sources is not None:
            self.covered_sources[chunkname] = bytes(source)
        dump = COMPILED.get(chunkname, source)
        if dump is None:
            made = self._compile(source, chunkname)   # (a str: the codec keeps every byte)
            if type(made) is not str:
                return _tuple(self._run(fresh, source, chunkname, cls, code))
            dump = made.encode("utf-8", "surrogateescape")   # bytes reach Lua as they are
            COMPILED.put(chunkname, source, dump)
        return _tuple(self._run_compiled(fresh, dump, chunkname, cls, code))

    def run_file(self, path: Path | str, chunkname: str | None = None, cls: Any = None,
                 code: int | None = None) -> tuple:
        """Run a script file (chunk name ``@./script/<file name>`` unless given)."""
        p = Path(path)
        return self.run(True, p.read_bytes(), chunkname or chunk_name(p.name), cls, code)

    def tostring(self, fresh: Fresh, value: Any) -> tuple:
        return _tuple(self._tostring(fresh, value))

    def task_start(self, fresh: Fresh, task_id: int, fn: Any, *args: Any) -> tuple:
        """(status, ...): 1 suspended, 2 finished + results, 3 failed + error."""
        return _tuple(self._task_start(fresh, task_id, fn, *args))

    def task_resume(self, fresh: Fresh, task_id: int, *args: Any) -> tuple:
        return _tuple(self._task_resume(fresh, task_id, *args))

    def task_stats(self) -> tuple[int, int, int]:
        """(pooled idle threads, running tasks, threads kept after failures/abandonment)."""
        return tuple(self._task_stats())  # type: ignore[return-value]

    # ----- objects -------------------------------------------------------------------------

    def card_class(self, code: int, create: bool) -> Any:
        """The card class table ``c<code>`` (created like the reference when ``create``)."""
        return self._card_class(code, create)

    def set_class_resolver(self, fn: Any) -> None:
        """``fn(anchor) -> class table | None``: the class of a handle lupa wrapped twice."""
        self._set_resolver(fn)

    def resolved_handles(self) -> int:
        """How many times a second userdata of a handle had to be given its class."""
        return int(self._resolved_count())

    def record_undefined_globals(self, on: bool) -> None:
        """Record every read of an undefined ALL_CAPS global (for ``duelhost check``)."""
        self._record_undefined_globals(bool(on))

    def take_undefined_globals(self) -> list[tuple[str, str, int]]:
        """The reads recorded since the last call: (name, chunk, line), oldest first."""
        flat = self._take_undefined_globals()
        if flat is None:
            return []
        if not isinstance(flat, tuple):
            flat = (flat,)
        return [(str(flat[i]), str(flat[i + 1]), int(flat[i + 2])) for i in range(0, len(flat), 3)]

    def forget_class(self, anchor: Any) -> None:
        """For tests: drop a handle's class entry, as a second lupa wrapper would lack it."""
        self._forget_class(anchor)

    def release_handles(self, ids: list[int]) -> None:
        """Stop keeping the handles with these ids alive (their engine objects are gone)."""
        for i in range(0, len(ids), 100):
            self._release(*ids[i:i + 100])

    def count_handles(self) -> int:
        return int(self._count_handles())

    def new_table(self, values: tuple = (), fields: dict | None = None) -> Any:
        """A Lua table with ``values`` as its sequence and ``fields`` as keyed entries.

        Values must already be Lua-ready (handles, not engine objects)."""
        flat: list[Any] = []
        if fields:
            for k, v in fields.items():
                flat.append(k)
                flat.append(v)
        return self._new_table(len(values), *values, *flat)

    def rehome(self, value: Any) -> Any:
        """A second Python reference to a Lua value, bound to the main Lua state."""
        return self._identity(value)

    # ----- line coverage (duelhost.coverage) ------------------------------------------

    def set_line_coverage(self, on: bool) -> None:
        """Count the lines of script chunks that run (a line hook on every thread of
        this runtime, installed by the privileged glue), or stop counting.  The
        source text of every chunk run while it is on is kept in ``covered_sources``."""
        if on and self.covered_sources is None:
            self.covered_sources = {}
        self.disarm_hooks()
        self._coverage(bool(on))
        self._coverage_on = bool(on)

    def take_line_hits(self) -> dict[str, dict[int, int]]:
        """The lines counted since the last call, per chunk name (``@./script/c1.lua``),
        and start afresh.  Call it between script calls, not from inside one."""
        return parse_line_hits(self._coverage_take())

    def close(self) -> None:
        """Drop the runtime (Lua state freed once nothing references it)."""
        self.__dict__.clear()


_SANDBOX_OBSERVERS: list[Any] = []


def add_sandbox_observer(fn: Any) -> None:
    """Call ``fn(sandbox)`` for every LuaSandbox created from now on (after its glue is
    sealed, before any script runs).  duelhost.coverage uses it to switch line hooks on."""
    if fn not in _SANDBOX_OBSERVERS:
        _SANDBOX_OBSERVERS.append(fn)


def remove_sandbox_observer(fn: Any) -> None:
    if fn in _SANDBOX_OBSERVERS:
        _SANDBOX_OBSERVERS.remove(fn)


def parse_line_hits(text: str | None) -> dict[str, dict[int, int]]:
    """Read the text ``coverage_take`` of the glue writes: ``source<TAB>line:count ...`` lines."""
    out: dict[str, dict[int, int]] = {}
    if not text:
        return out
    for row in text.split("\n"):
        src, _, pairs = row.partition("\t")
        lines = out.setdefault(src, {})
        for pair in pairs.split():
            line, _, count = pair.partition(":")
            lines[int(line)] = lines.get(int(line), 0) + int(count)
    return out


def _lupa_types() -> tuple[type, type, type]:
    probe = LuaRuntime()
    return type(probe.eval("print")), type(probe.eval("{}")), type(probe.eval("print")).__mro__[1]


# The classes lupa gives Lua functions and tables in Python (not exported by lupa).
LuaFunction, LuaTable, LuaObject = _lupa_types()
