"""LuaScriptHost: the engine's script host (engine/scripting.py's ScriptHost), on lupa.

One host serves one duel, like the reference's ``interpreter``:

    host = LuaScriptHost(Path("scripts"))           # a script folder
    duel = Duel(reader, seed_sequence=..., script=host)   # attach() runs here

At ``attach`` the host builds the sandbox (runtime.py), installs the five
libraries (registry.py) and runs ``constant.lua``, ``utility.lua`` and
``procedure.lua`` from the folder (a missing one is recorded in
``scripts_missing``, as the reference's reader failing).

Cards (``register_card``): the class table ``c<original code>`` is created on
first use; ``c<code>.lua`` runs then, with ``self_table``/``self_code`` set
(``GetID()``), only when the reference would run it (not for Normal Monsters
unless Pendulum, not for the temp card, not for codes without a database
row).  Then ``initial_effect(c)`` with STATUS_INITIALIZING set.  A code whose
file is missing is logged once; the reference then reports the failed
``initial_effect`` call, and so does the host.

Calls, with the reference's bookkeeping (``no_action``: actions refused;
``call_depth``: at 0, script groups are released and assumed types
restored):

    plain (no_action+1, call_depth+1)   check_condition -> bool, get_function_value
        -> int32, get_function_values -> [int], call_function -> tuple,
        check_filter(fn, card, *extra) -> bool, get_operation_value(fn, card,
        *extra) -> int32, call_card_function, call_code_function -> tuple
    coroutine (call_depth+1 until done)  start(fn, *args) -> task; task.resume(v)
        -> (True, op) when the script suspended on a yielding binding (op is
        its Yield: the engine runs, then resumes with op.result()), or
        (False, results) when done, (False, None) when it failed

A script error never escapes: it becomes a ``ScriptError`` in ``host.errors``
and a line in ``host.log`` (what the reference sends its message handler),
and the call returns what the reference returns after an error (False, 0,
empty results, a finished task).  ``strict=True`` raises ``ScriptFailure``
instead.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import weakref
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.card import Card
from ..engine.card_stats import NOTHING_PRINTED
from ..engine.constants import STATUS_INITIALIZING, TYPE_NORMAL, TYPE_PENDULUM
from ..engine.effect import Effect
from ..engine.group import Group
from ..engine.scripting import filter_each
from . import overrun, registry
from .args import Args, lua_tonumber
from .errors import (LuaArgError, LuaRaised, ScriptError, ScriptFailure, ScriptStopped,
                     reference_log_line)
from .files import OutsideFolderError, file_in_folders
from .handles import CardAnchor, HandleTable, NoValue
from .registry import LuaContext, format_internal_error
from .runtime import (LuaError, LuaMemoryError, LuaSandbox, MemoryExhausted, SandboxOptions,
                      chunk_name)

if TYPE_CHECKING:
    from ..engine.card import CardData
    from ..engine.duel import Duel

__all__ = ["HostOptions", "LuaScriptHost", "LuaTask", "is_load_script"]

log = logging.getLogger("duelhost.scripts")

TEMP_CARD_ID = 0
LIBRARY_SCRIPTS = ("constant.lua", "utility.lua", "procedure.lua")

_POS = re.compile(r"\./script/([^\s:\"\]]+\.lua):(\d+):")
_CARD_FILE = re.compile(r"c(\d+)\.lua$")


def is_load_script(data: "CardData") -> bool:
    """The reference's is_load_script: no script for the temp card, nor for a Normal
    Monster that is not a Pendulum."""
    if data.code == TEMP_CARD_ID:
        return False
    return not (data.type & TYPE_NORMAL) or bool(data.type & TYPE_PENDULUM)


_SLOW = object()   # _direct_query: "make the ordinary call through Lua"

# Stopping a whole call (see LuaScriptHost._nested_failure): the text every
# such error ends with, how many times one error may fail nested calls before
# it stops the call, and how many direct queries run between two clock reads.
STOPPED = "the whole call is stopped"
REPEAT_LIMIT = 100
_TICKS = 256
_monotonic = time.monotonic
_get_ident = threading.get_ident


def _int32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - 0x100000000 if v & 0x80000000 else v


def _query_value(r: Any) -> int | None:
    """A Card query's result as an operation value: an integer as int32, no value,
    nil or a boolean as 0; of several results the first (the reference asks Lua for
    one result: ``Card.GetLinkCode`` gives its first name); None for anything else
    (the call then goes through Lua)."""
    t = type(r)
    if t is tuple:
        if not r:
            return 0
        r = r[0]
        t = type(r)
    if t is int:
        return _int32(r)
    if t is bool or r is None or r is NoValue:
        return 0
    return None


def _number_to_int32(v: Any) -> int:
    """``(int32_t)lua_tonumber(L, -1)``: a float truncates toward zero; NaN and
    out-of-range values give INT32_MIN (what x86's conversion produces)."""
    n = lua_tonumber(v)
    if type(n) is int:
        return _int32(n)
    if not math.isfinite(n) or not (-2147483649.0 < n < 2147483648.0):
        return -2147483648
    return int(n)


def _number_to_int64(v: Any) -> int:
    n = lua_tonumber(v)
    if type(n) is int:
        return n
    if not math.isfinite(n) or not (-9.3e18 < n < 9.3e18):
        return -(2**63)
    return int(n)


@dataclass(frozen=True, slots=True, kw_only=True)
class HostOptions:
    """How a host runs scripts.

    strict          raise ScriptFailure on the first script error (tests) instead of
                    recording it and going on as the reference does.
    time_budget     wall-clock seconds one call / one resume may run before "script timeout"
                    (Lua code, the C functions it calls and the host's work for it).
    max_memory      bytes the Lua state may allocate.
    pattern_limit   worst-case matching steps of one string.find/match/gmatch/gsub
                    (runtime.SandboxOptions); above it the call is refused.
    card_name       code -> card name, for error records (optional).
    load_libraries  import duelhost.bindings.lib_* before installing (off: stubs only).
    record_undefined_globals  record reads of undefined ALL_CAPS globals (``duelhost check``):
                    see ``take_undefined_globals``.
    """

    strict: bool = False
    time_budget: float = 1.0
    max_memory: int = 256 << 20
    memory_reserve: int = 4 << 20
    hook_interval: int = 10_000
    pattern_limit: float = 1e8
    card_name: Callable[[int], str | None] | None = None
    load_libraries: bool = True
    record_undefined_globals: bool = False


class LuaTask:
    """A script callback running as a coroutine (engine/scripting.py's ScriptTask)."""

    __slots__ = ("host", "fn", "args", "task_id", "state", "callback", "__weakref__")

    NEW, SUSPENDED, DONE = 0, 1, 2

    def __init__(self, host: "LuaScriptHost", fn: Any, args: tuple, callback: str | None) -> None:
        self.host = host
        self.fn = fn
        self.args = args
        self.task_id: int = next(host._task_ids)
        self.state = LuaTask.NEW
        self.callback = callback

    def resume(self, value: Any = None) -> tuple[bool, Any]:
        """Run until the script suspends (True, op) or ends (False, results | None)."""
        host = self.host
        if self.state == LuaTask.DONE:
            return False, None
        handles = host.handles
        tid = self.task_id
        host.running_tasks += 1
        try:
            if self.state == LuaTask.NEW:
                largs = handles.args_to_lua(self.args)
                out = host._enter(host.sandbox.task_start, tid, tid, self.fn, *largs)
            else:
                if value is NoValue:
                    vals: tuple | list = ()
                elif type(value) is tuple:
                    vals = handles.args_to_lua(value)
                else:
                    vals = (handles.to_lua(value),)
                out = host._enter(host.sandbox.task_resume, tid, tid, *vals)
            if out[0] is False:
                out = (3,) + out[1:]
        finally:
            host.running_tasks -= 1
        status = out[0]
        if status == 1:
            self.state = LuaTask.SUSPENDED
            op = host.pending_op
            host.pending_op = None
            return True, op
        self._finish()
        if status == 2:
            return False, handles.results_from_lua(out[1:])
        host._failed((False,) + tuple(out[1:]), self.fn, self.args, self.callback)
        return False, None

    def _finish(self) -> None:
        if self.state == LuaTask.DONE:
            return
        self.state = LuaTask.DONE
        host = self.host
        ref = host.active_functions.get(id(self.fn))
        if ref is not None and ref() is self:
            del host.active_functions[id(self.fn)]
        host._leave_depth()

    def _break(self) -> None:
        """The reference erased this coroutine (a recursive start of its function)."""
        if self.state == LuaTask.SUSPENDED:
            self.host.sandbox.task_drop(self.task_id)
        self._finish()

    def __del__(self) -> None:
        # A suspended task the engine dropped: its thread is never reused.  No Lua
        # call from a finalizer: the host does the bookkeeping at its next call.
        try:
            if self.state == LuaTask.SUSPENDED:
                self.host.dropped_tasks.append(self.task_id)
                self.state = LuaTask.DONE
        except Exception:
            pass


class LuaScriptHost:
    """Runs card scripts for one duel (see the module docstring)."""

    def __init__(self, scripts: Path | str | Sequence[Path | str], options: HostOptions | None = None,
                 **overrides: Any) -> None:
        if isinstance(scripts, (str, Path)):
            self.script_dirs = [Path(scripts)]
        else:
            self.script_dirs = [Path(p) for p in scripts]
        opts = options or HostOptions()
        if overrides:
            opts = replace(opts, **overrides)
        self.options = opts
        self.strict = opts.strict
        # what the reference's message handler would have received: (type, text)
        self.log: list[tuple[int, str]] = []
        self.errors: list[ScriptError] = []
        self.scripts_read: list[str] = []
        self.scripts_missing: list[str] = []
        self.missing_card_scripts: set[int] = set()
        # the reference's interpreter counters
        self.no_action = 0
        self.call_depth = 0
        # tasks executing right now (not suspended), Lua entries in progress
        self.running_tasks = 0
        self.pending_op: Any = None
        # id(fn) -> the task running fn (weakly: a task the engine drops must die)
        self.active_functions: dict[int, weakref.ref[LuaTask]] = {}
        self.dropped_tasks: list[int | None] = []
        self.duel: Duel | None = None
        self.sandbox: LuaSandbox | None = None
        self._lua_depth = 0
        self._lua_call: Any = None          # the sandbox's Lua dispatcher for plain calls (attach)
        self._lua_call_ref: Any = None      # the same, its first argument a handle id (attach)
        # the Lua thread each nested entry runs on: a task id, None for the main thread
        self._threads: list[int | None] = []
        self._task_ids = itertools.count(1)
        self._classes: dict[int, Any] = {}
        self._read: set[str] = set()
        self._py_tb: str | None = None
        self._strict_exc: BaseException | None = None
        # the running outermost call: its deadline (time.monotonic), why it is being
        # stopped (None while it is not), how often each error failed a nested call
        self._deadline = 0.0
        self._budget = float(opts.time_budget)
        self._stopping: str | None = None
        self._repeats: dict[str, int] = {}
        self._ticks = _TICKS
        # read by the overrun watcher (bindings/overrun.py): the running call's thread,
        # and the deadline of the call it last interrupted
        self._thread_id = 0
        self._overrun_sent = -1.0
        # Lua twin of a read-only Card query -> its binding (see _direct_query)
        self.direct_queries: dict[Any, Callable[..., Any]] = {}
        # Lua twin of such a query of the card alone -> its value of a card (FunctionSpec.of_card)
        self.card_values: dict[Any, Callable[[Card], Any]] = {}
        # the Lua table of Card queries answered from printed values (registry.install)
        self.printed_answers: Any = None

    # =====================================================================================
    # set-up
    # =====================================================================================

    def attach(self, duel: "Duel") -> None:
        if self.duel is not None:
            raise RuntimeError("a LuaScriptHost serves one duel; make a new host for another duel")
        opts = self.options
        self.duel = duel
        self.sandbox = LuaSandbox(SandboxOptions(
            max_memory=opts.max_memory, memory_reserve=opts.memory_reserve,
            time_budget=opts.time_budget, hook_interval=opts.hook_interval,
            pattern_limit=opts.pattern_limit))
        self._lua_call = self.sandbox._call
        self._lua_call_ref = self.sandbox._call_ref
        names = ("Card", "Effect", "Group", "Duel", "Debug")
        self.libs = dict(zip(names, self.sandbox.new_libs()))
        self.handles = HandleTable(self.sandbox, self._class_for, self.libs["Effect"], self.libs["Group"])
        self.sandbox.set_class_resolver(self.handles.class_of_anchor)
        self.ctx = LuaContext(self, duel)
        if opts.load_libraries:
            registry.load_libraries()
        registry.install(self, self.libs)
        duel.on_printed_stats_changed = self._printed_stats_changed
        for name in LIBRARY_SCRIPTS:
            self.load_script(name)
        if opts.record_undefined_globals:
            self.sandbox.record_undefined_globals(True)
        overrun.watch(self)
        # the watcher arms the budget hook of a call that runs long (runtime.py)
        self.sandbox.enable_lazy_hooks()

    def take_undefined_globals(self) -> list[tuple[str, str, int]]:
        """Reads of undefined ALL_CAPS globals since the last call: (name, chunk, line).

        Recorded only with ``HostOptions(record_undefined_globals=True)``, from the
        moment the script library (constant/utility/procedure.lua) has loaded.
        """
        return self.sandbox.take_undefined_globals() if self.sandbox is not None else []

    def close(self) -> None:
        """Drop the Lua state now (it is also freed when the host is garbage)."""
        if self.sandbox is not None:
            for c in (self.duel.cards if self.duel is not None else ()):
                c.handle = None
            self._classes.clear()
            self.sandbox = None
            self._lua_call = self._lua_call_ref = None     # (they hold the Lua state too)
            if self.duel is not None:
                self.duel.on_printed_stats_changed = None

    # =====================================================================================
    # printed stats answered in Lua (bootstrap.lua; host.printed_answers)
    # =====================================================================================

    @staticmethod
    def printed_stats(anchor: Any) -> tuple[int, ...]:
        """The printed values of the card behind a handle (Card.printed_stats); () for a
        value that is no card (the binding answers then)."""
        if type(anchor) is CardAnchor:
            try:
                return anchor.obj.printed_stats()
            except Exception:  # noqa: BLE001 - the bindings then answer (and report) it
                return NOTHING_PRINTED
        return ()

    def _printed_stats_changed(self, card: Card | None) -> None:
        """The duel's hook (Duel.printed_stats_changed): a value a card's printed stats
        depend on changed; Lua forgets every card's printed values."""
        if self.sandbox is not None:
            self.sandbox.printed_reset()

    # =====================================================================================
    # the reference's message handler
    # =====================================================================================

    def handle_message(self, text: str, message_type: int = 1) -> None:
        """What the reference passes to its host's message handler (1: error, 2: Debug.Message)."""
        self.log.append((message_type, text))
        if message_type == 2:
            log.info("%s", text)

    # =====================================================================================
    # script files
    # =====================================================================================

    def _find(self, filename: str) -> Path | None:
        """The file ``filename`` of the script folders, confined to them (bindings/files.py);
        None when it is missing or its name is refused."""
        try:
            return file_in_folders(self.script_dirs, filename)
        except OutsideFolderError:
            return None

    def load_script(self, filename: str, cls: Any = None, code: int | None = None) -> bool:
        """Run a script file of the folder (the reference's load_script).  False when missing or failed."""
        ref_name = "./script/" + filename
        if ref_name not in self._read:
            self._read.add(ref_name)
            self.scripts_read.append(ref_name)
        try:
            path = file_in_folders(self.script_dirs, filename)
        except OutsideFolderError as exc:       # one clear error, nothing read
            self._failed((False, str(exc), "string", None), None, (), "script", kind="load",
                         card_code=code, script=filename)
            return False
        if path is None:
            self.scripts_missing.append(ref_name)
            return False
        src = path.read_bytes()
        self.no_action += 1
        try:
            out = self._enter(self.sandbox.run, None, src, chunk_name(filename), cls, code)
        finally:
            self.no_action -= 1
        if out[0]:
            return True
        self._failed(out, None, (), "script", kind="load", card_code=code, script=filename)
        return False

    def _class_for(self, code: int) -> Any:
        """The class table c<code>, created (and its script run) the first time (load_card_script)."""
        cls = self._classes.get(code)
        if cls is not None:
            return cls
        sb = self.sandbox
        cls = sb.card_class(code, False)
        if cls is None:
            cls = sb.card_class(code, True)
            self._classes[code] = cls
            data = self.duel.card_reader(code) if code != TEMP_CARD_ID else None
            if data is not None and is_load_script(data):
                filename = f"c{code}.lua"
                if not self.load_script(filename, cls, code) and self._find(filename) is None:
                    if code not in self.missing_card_scripts:
                        self.missing_card_scripts.add(code)
                        log.warning("no script c%d.lua in %s: card %d has no effects",
                                    code, ", ".join(map(str, self.script_dirs)), code)
        else:
            self._classes[code] = cls
        return cls

    def register_card(self, card: Card) -> None:
        """Give a new card its handle and run its initial_effect (interpreter::register_card)."""
        code = card.data.get_original_code()
        cls = self._class_for(code)
        self.handles.card_handle(card, cls)
        # a code with no row (a blank Token, the engine warned): the reference's call
        # fails ("attempt to call an error function") and changes nothing
        if is_load_script(card.data) and self.duel.card_reader(code) is not None:
            card.set_status(STATUS_INITIALIZING, True)
            try:
                self.call_card_function(card, "initial_effect", card)
            finally:
                card.set_status(STATUS_INITIALIZING, False)

    def release_effect(self, effect: Effect) -> None:
        self.handles.release_effect(effect)

    # =====================================================================================
    # entering Lua
    # =====================================================================================

    def _enter(self, method: Callable[..., tuple], thread: int | None, *args: Any) -> tuple:
        """Call a sandbox dispatcher running script code on ``thread`` (a task id, None
        for the main thread); the outermost call gets a fresh time budget.

        Failures of the glue itself (lupa errors, no memory left) come back as a
        failure tuple like a script error's.  While the outermost call is being
        stopped, a nested call raises ScriptStopped instead of starting.
        """
        fresh = self._lua_depth == 0
        try:
            if fresh:
                arm = self._begin_outermost()
            elif self._stopping is not None:
                raise ScriptStopped(self._stopping)
            else:
                arm = False
            self._lua_depth += 1
            self._threads.append(thread)
            try:
                out = method(arm, *args)
            finally:
                self._threads.pop()
                self._lua_depth -= 1
                if fresh and self.sandbox.hooks_armed:
                    self.sandbox.disarm_hooks()
        except (MemoryExhausted, LuaError) as exc:
            out = self._glue_failure(exc)
        if fresh and (self._stopping is not None or self._repeats):
            return self._end_stop(out, thread)
        return out

    def _begin_outermost(self) -> float:
        """An outermost call starts: drop the tasks and release the handles left over,
        make sure Lua has memory, start a fresh time budget; returns its deadline (the
        Lua side takes it as its `fresh`: one clock, read here)."""
        if self.dropped_tasks:
            self._drop_tasks()
        if self.handles.released:
            self.handles.flush_released()
        self.sandbox.ensure_headroom()
        self._deadline = arm = _monotonic() + self._budget
        self._thread_id = _get_ident()
        return arm

    def _glue_failure(self, exc: Exception) -> tuple:
        """The failure tuple of a call the glue could not make or finish (outermost or
        nested): no memory left for Lua (the heap past its limit, or an allocation
        refused inside), or a lupa error."""
        if isinstance(exc, MemoryExhausted):
            return (False, str(exc), "memory", None)
        if isinstance(exc, LuaMemoryError):
            self._collect_after_memory_error()
            return (False, "not enough memory", "string", None)
        return (False, f"Lua error in the host's glue: {exc}", "string", None)

    def _end_stop(self, out: tuple, thread: int | None) -> tuple:
        """The outermost call returned: a call being stopped fails with the stop's
        reason even if the script got back to its caller first."""
        reason, self._stopping = self._stopping, None
        self._repeats.clear()
        if reason is None:
            return out
        status = out[0]
        if status is True or (type(status) is int and status in (1, 2)):
            if status == 1 and status is not True and thread is not None:
                self.sandbox.task_drop(thread)       # a task suspended while being stopped
            return ((False if status is True else 3), reason, "string", None)
        return out

    def _stop(self, reason: str) -> None:
        """Stop the running outermost call: Lua fails at its next hook event, nested
        calls refuse to start, and this raises ScriptStopped out of the library
        function that is running."""
        if self._stopping is None:
            self._stopping = reason
            self.sandbox.stop(reason)
        raise ScriptStopped(self._stopping)

    def _nested_failure(self, out: tuple) -> None:
        """A call made from inside a library function failed.  The rule: an error
        that cannot be meant to go on stops the whole outermost call, once --
        the budget is spent (a timeout), the stack overflowed (a script recursing
        through a library function), or the same error failed REPEAT_LIMIT nested
        calls.  Any other error is recorded and the library function goes on, as in
        the reference."""
        msg = out[1] if len(out) > 1 else None
        if self._stopping is not None:
            raise ScriptStopped(self._stopping)
        if type(msg) is not str or (len(out) > 2 and out[2] in ("missing", "notfunction")):
            return
        if "script timeout:" in msg:
            self._stop(msg)
        if (msg.endswith("stack overflow") or "error in error handling" in msg
                or "maximum recursion depth exceeded" in msg):   # Lua's C stack or Python's
            self._stop(f"{msg} (a script recursing through a library function: {STOPPED})")
        n = self._repeats.get(msg, 0) + 1
        self._repeats[msg] = n
        if n >= REPEAT_LIMIT:
            self._stop(f"{msg} (the same error {n} times inside one call: {STOPPED})")

    def _tick(self) -> None:
        """Every _TICKS direct queries: the host's own work for a script counts against
        the script's budget (a group check over many cards may run without any Lua)."""
        self._ticks = _TICKS
        if self._lua_depth and (self._stopping is not None or _monotonic() > self._deadline):
            self._stop(f"{self.where()}script timeout: ran longer than the time budget of "
                       f"{self._budget:g} s (in the work of a library function)")

    def _collect_after_memory_error(self) -> None:
        try:
            if self._lua_depth == 0:
                self.sandbox.full_gc()
        except LuaError:
            pass

    def _drop_tasks(self) -> None:
        ids, self.dropped_tasks = self.dropped_tasks, []
        for tid in ids:
            if tid is not None:
                self.sandbox.task_drop(tid)
            self._leave_depth()

    def _leave_depth(self) -> None:
        self.call_depth -= 1
        if self.call_depth == 0:
            # (the emptiness tests only skip calls that would do nothing)
            if self.handles.script_groups:
                self.handles.release_script_groups()
            duel = self.duel
            if duel is not None and duel.assumes:
                duel.restore_assumes()

    def _plain(self, fn: Any, args: tuple) -> tuple:
        """A plain call with the reference's counters (no_action, call_depth).

        The engine asking a condition, a cost or a target check, or a library function
        calling a script's value, makes most calls into Lua, so this is _enter's work
        for the main thread (fresh budget and clean-up at the outermost call, the stop
        check at a nested one) written out in one frame with the counters around it."""
        sb = self.sandbox
        assert sb is not None
        fresh = self._lua_depth == 0
        self.no_action += 1
        self.call_depth += 1
        try:
            # (an engine object first -- a condition's effect, a value's card -- crosses
            # as its handle's id: bootstrap.lua's call_ref)
            first = args[0] if args else None
            t = type(first)
            if t is Effect or t is Card or t is Group:
                handles = self.handles
                hid = (first.handle or handles.push(first)).hid
                lua_args = handles.args_to_lua(args[1:])
            else:
                hid = None
                lua_args = self.handles.args_to_lua(args)
            try:
                if fresh:
                    arm = self._begin_outermost()
                elif self._stopping is not None:
                    raise ScriptStopped(self._stopping)
                else:
                    arm = False
                self._lua_depth += 1
                self._threads.append(None)
                try:
                    if hid is None:
                        out = self._lua_call(arm, fn, *lua_args)
                    else:
                        out = self._lua_call_ref(arm, fn, hid, *lua_args)
                finally:
                    self._threads.pop()
                    self._lua_depth -= 1
                    if fresh and sb.hooks_armed:
                        sb.disarm_hooks()
            except (MemoryExhausted, LuaError) as exc:
                out = self._glue_failure(exc)
            if fresh and (self._stopping is not None or self._repeats):
                out = self._end_stop(out, None)
            return out if type(out) is tuple else (out,)
        finally:
            self.no_action -= 1
            self._leave_depth()

    @property
    def can_yield(self) -> bool:
        return self.running_tasks > 0 and self.no_action == 0

    # =====================================================================================
    # ScriptHost: plain calls
    # =====================================================================================

    def check_condition(self, fn: Any, *args: Any) -> bool:
        if fn is None:
            return True
        out = self._plain(fn, args)
        if out[0]:
            v = out[1] if len(out) > 1 else None
            return v is not None and v is not False
        self._failed(out, fn, args, None, not_function='"CallFunction": attempt to call an error function')
        return False

    def get_function_value(self, fn: Any, *args: Any) -> int:
        if fn is None:
            return 0
        out = self._plain(fn, args)
        if out[0]:
            v = out[1] if len(out) > 1 else None
            if type(v) is bool:
                return int(v)
            if type(v) is int:
                return _int32(v)
            return _number_to_int32(v)
        self._failed(out, fn, args, "value", not_function='"CallFunction": attempt to call an error function')
        return 0

    def get_function_values(self, fn: Any, *args: Any) -> list[int]:
        if fn is None:
            return []
        out = self._plain(fn, args)
        if out[0]:
            res: list[int] = []
            for v in out[1:]:
                if type(v) is bool:
                    res.append(int(v))
                elif type(v) is int:
                    res.append(v)
                else:
                    res.append(_number_to_int64(v))
            return res
        self._failed(out, fn, args, "value", not_function='"CallFunction": attempt to call an error function')
        return []

    def call_function(self, fn: Any, *args: Any) -> tuple:
        if fn is None:
            self._report_simple('"CallFunction": attempt to call a null function.', "call", None)
            return ()
        out = self._plain(fn, args)
        if out[0]:
            return self.handles.results_from_lua(out[1:])
        self._failed(out, fn, args, None, not_function='"CallFunction": attempt to call an error function')
        return ()

    def _direct_query(self, query: Callable[..., Any], args: tuple) -> Any:
        """Call a read-only Card query passed as a value (``g:GetSum(Card.GetLevel)``,
        ``g:Filter(Card.IsFaceup, nil)``) straight from Python, with the counters a
        plain call keeps, instead of crossing into Lua and back for every card.

        Returns the binding's result, or ``_SLOW`` when the binding refused its
        arguments or failed: the caller then makes the ordinary call through Lua,
        which raises and reports the error exactly as the reference words it.
        """
        self._ticks -= 1
        if self._ticks <= 0:
            self._tick()
        self.no_action += 1
        self.call_depth += 1
        try:
            return query(self.ctx, Args(args))
        except ScriptFailure:
            raise
        except Exception:
            return _SLOW
        finally:
            self.no_action -= 1
            self._leave_depth()

    def check_filter(self, fn: Any, card: Card, *extra: Any) -> bool:
        if fn is None:
            return True
        query = self.direct_queries.get(fn)
        if query is not None:
            r = self._direct_query(query, (card,) + extra)
            if r is not _SLOW:
                if type(r) is tuple:
                    r = r[0] if r else None
                return r is not None and r is not False and r is not NoValue
        out = self._plain(fn, (card,) + extra)
        if out[0]:
            v = out[1] if len(out) > 1 else None
            return v is not None and v is not False
        self._failed(out, fn, (card,) + extra, "filter")
        return False

    def filter_cards(self, fn: Any, cards: list[Card], extra: tuple = (), limit: int = 0) -> list[Card]:
        """The cards that pass ``fn(card, *extra)``, in order, stopping after ``limit``
        matches (0: no limit) -- the calls check_filter would make card by card, in
        the same order, with the same counters and error reports.

        Inside a script call (the usual case: a library function's loop, such as
        Duel.GetMatchingGroup's) the calls are made in one crossing into Lua;
        outside one, or for a Card query passed as a value, card by card.
        """
        if fn is None:
            return list(cards[:limit]) if limit else list(cards)
        if (not cards or self._lua_depth == 0 or self.call_depth == 0
                or fn in self.direct_queries):
            return filter_each(self, fn, cards, extra, limit)
        card_ids = self.handles.card_ids
        lua_extra = tuple(self.handles.args_to_lua(extra))
        passed: list[Card] = []
        start = 0
        while start < len(cards):
            rest = cards[start:]
            want = limit - len(passed) if limit else 0
            self.no_action += 1
            self.call_depth += 1
            try:
                out = self._filter_batch(fn, card_ids(rest), lua_extra, want)
            finally:
                self.no_action -= 1
                self._leave_depth()
            if out is None:                       # not a function: reported card by card
                return passed + filter_each(self, fn, rest, extra, want)
            if type(out[1]) is not int:           # the glue failed before the first call
                self._failed(out, fn, (rest[0],) + extra, "filter")
                start += 1
                continue
            if out[0] is True:
                return passed + [rest[i - 1] for i in out[2:]]
            called = out[1]
            passed += [rest[i - 1] for i in out[5:]]
            self._failed((False, out[2], out[3], out[4]), fn, (rest[called - 1],) + extra, "filter")
            start += called
        return passed

    def _filter_batch(self, fn: Any, ids: list[int], extra: tuple, limit: int) -> tuple | None:
        """One batch of filter calls (LuaSandbox.filter_cards), always inside a script
        call: _enter's steps for a nested call on the main thread written out (the stop
        check, the depth; glue failures as a failure tuple)."""
        if self._stopping is not None:
            raise ScriptStopped(self._stopping)
        sb = self.sandbox
        assert sb is not None
        self._lua_depth += 1
        self._threads.append(None)
        try:
            return sb.filter_cards(fn, ids, extra, limit)
        except (MemoryExhausted, LuaError) as exc:
            return self._glue_failure(exc)
        finally:
            self._threads.pop()
            self._lua_depth -= 1

    def get_operation_value(self, fn: Any, card: Card, *extra: Any) -> int:
        if fn is None:
            return 0
        query = self.direct_queries.get(fn)
        if query is not None:
            v = self._direct_value(query, card, extra)
            if v is not None:
                return v
        return self._operation_value_in_lua(fn, card, extra)

    def operation_values(self, fn: Any, cards: list[Card], extra: tuple = ()) -> list[int]:
        """get_operation_value(fn, card, *extra) of each card, in order -- the same calls,
        with a Card query passed as a value (``g:CheckWithSumGreater(Card.GetLevel, 8)``)
        looked up once for the whole group."""
        query = self.direct_queries.get(fn) if fn is not None else None
        if query is None:
            return [self.get_operation_value(fn, c, *extra) for c in cards]
        if not extra and self.call_depth:
            of_card = self.card_values.get(fn)
            if of_card is not None:
                return self._card_values(of_card, fn, cards)
        values: list[int] = []
        for c in cards:
            v = self._direct_value(query, c, extra)
            values.append(v if v is not None else self._operation_value_in_lua(fn, c, extra))
        return values

    def _card_values(self, of_card: Callable[[Card], Any], fn: Any, cards: list[Card]) -> list[int]:
        """operation_values of a Card query of the card alone (``Card.GetLevel``) inside a
        script call: ``of_card`` of each card -- what _direct_value gets from the binding
        -- with the counters raised once for the group (at a call depth above 0 the
        per-card ones change nothing else) and the budget ticked per card."""
        values: list[int] = []
        self.no_action += 1
        self.call_depth += 1
        try:
            for c in cards:
                self._ticks -= 1
                if self._ticks <= 0:
                    self._tick()
                try:
                    r = of_card(c)
                except ScriptFailure:
                    raise
                except Exception:
                    r = _SLOW      # (as _direct_query: the ordinary call then reports it)
                v = _query_value(r)
                values.append(v if v is not None else self._operation_value_in_lua(fn, c, ()))
        finally:
            self.no_action -= 1
            self._leave_depth()
        return values

    def _direct_value(self, query: Callable[..., Any], card: Card, extra: tuple) -> int | None:
        """A Card query's value for ``card`` called from Python (see _direct_query); None
        when it must go through Lua (refused arguments, or a result that is no number)."""
        return _query_value(self._direct_query(query, (card,) + extra))

    def _operation_value_in_lua(self, fn: Any, card: Card, extra: tuple) -> int:
        out = self._plain(fn, (card,) + extra)
        if out[0]:
            v = out[1] if len(out) > 1 else None
            if type(v) is int:
                return _int32(v)
            if type(v) is bool:
                return 0
            return _number_to_int32(v)
        self._failed(out, fn, (card,) + extra, "value")
        return 0

    def call_card_function(self, card: Card, name: str, *args: Any) -> tuple:
        self.no_action += 1
        self.call_depth += 1
        try:
            to_lua = self.handles.to_lua
            out = self._enter(self.sandbox.call_field, None, self.handles.push(card), name,
                              *[to_lua(a) for a in args])
        finally:
            self.no_action -= 1
            self._leave_depth()
        if out[0]:
            return self.handles.results_from_lua(out[1:])
        code = card.data.get_original_code()
        self._failed(out, None, args, name, card_code=code,
                     missing=f'"CallCardFunction"(c{code}.{name}): attempt to call an error function')
        return ()

    def call_code_function(self, code: int, name: str, *args: Any) -> tuple:
        cls = self._class_for(code)
        self.no_action += 1
        self.call_depth += 1
        try:
            to_lua = self.handles.to_lua
            out = self._enter(self.sandbox.call_field, None, cls, name, *[to_lua(a) for a in args])
        finally:
            self.no_action -= 1
            self._leave_depth()
        if out[0]:
            return self.handles.results_from_lua(out[1:])
        self._failed(out, None, args, name, card_code=code,
                     missing='"CallCodeFunction": attempt to call an error function')
        return ()

    def lua_tostring(self, value: Any) -> str | None:
        """The script's ``tostring(value)`` (protected; None when it gives no string)."""
        out = self._enter(self.sandbox.tostring, None, self.handles.to_lua(value))
        if out[0]:
            return out[1] if len(out) > 1 else None
        self._failed(out, None, (), "tostring")
        return None

    # =====================================================================================
    # ScriptHost: coroutines and function references
    # =====================================================================================

    def start(self, fn: Any, *args: Any) -> LuaTask:
        callback = self._role(fn, args)
        task = LuaTask(self, fn, args, callback)
        if fn is None:
            self._report_simple('"CallCoroutine": attempt to call a null function', "call", callback)
            task.state = LuaTask.DONE
            return task
        old_ref = self.active_functions.get(id(fn))
        old = old_ref() if old_ref is not None else None
        if old is not None:
            # the reference erases the running coroutine and fails the new call
            old._break()
            self._report_simple("recursive event trigger detected", "recursion", callback,
                                card_code=self._card_of(args))
            task.state = LuaTask.DONE
            return task
        self.call_depth += 1
        self.active_functions[id(fn)] = weakref.ref(task)
        return task

    def release(self, fn: Any) -> None:
        """Function references are Python objects: nothing to free by hand."""
        return None

    def clone_function_ref(self, fn: Any) -> Any:
        """A distinct reference to the same Lua function (the reference's new registry ref)."""
        if fn is None:
            return None
        return self.sandbox.rehome(fn)

    # =====================================================================================
    # errors
    # =====================================================================================

    def where(self) -> str:
        """"file:line: " of the script line that called the running library function."""
        try:
            return self.sandbox.where(self._threads[-1] if self._threads else None)
        except LuaError:
            return ""

    def lua_raise(self, exc: LuaArgError) -> LuaRaised:
        """The exception a binding's entry raises for a LuaArgError (luaL_error: the
        script position, then the message; level 0: the bare message)."""
        if exc.level == 0:
            return LuaRaised(exc.message)
        return LuaRaised(self.where() + exc.message)

    def lua_raise_internal(self, name: str, exc: BaseException) -> LuaRaised:
        """The exception a binding's entry raises when the binding itself failed."""
        if isinstance(exc, ScriptFailure):
            # strict mode: a nested call failed; surface that failure, not a wrapper of it
            if self._strict_exc is None:
                self._strict_exc = exc
            return LuaRaised(self.where() + f"internal error in {name}: {exc.error.message}")
        msg, tb = format_internal_error(name, exc)
        self._py_tb = tb
        if self.strict and self._strict_exc is None:
            self._strict_exc = exc
        return LuaRaised(self.where() + msg)

    @staticmethod
    def _role(fn: Any, args: tuple) -> str | None:
        if args and type(args[0]) is Effect and fn is not None:
            e = args[0]
            if fn is e.condition:
                return "condition"
            if fn is e.cost:
                return "cost"
            if fn is e.target:
                return "target"
            if fn is e.operation:
                return "operation"
            if fn is e.value:
                return "value"
        return None

    @staticmethod
    def _card_of(args: tuple) -> int | None:
        if args:
            a = args[0]
            if type(a) is Effect:
                c = a.handler if a.handler is not None else a.owner
                if c is not None:
                    return c.data.get_original_code()
            elif type(a) is Card:
                return a.data.get_original_code()
        return None

    def _report_simple(self, text: str, kind: str, callback: str | None,
                       card_code: int | None = None) -> None:
        self._record(ScriptError(kind=kind, message=text, log_line=reference_log_line(text),
                                 card_code=card_code, card_name=self._name(card_code),
                                 callback=callback))

    def _name(self, code: int | None) -> str | None:
        if code is None or self.options.card_name is None:
            return None
        try:
            return self.options.card_name(code)
        except Exception:
            return None

    def _failed(self, out: tuple, fn: Any, args: tuple, callback: str | None, *,
                kind: str | None = None, card_code: int | None = None, script: str | None = None,
                not_function: str | None = None, missing: str | None = None) -> None:
        """Record a failure tuple (False, message|None, error type, traceback|None)."""
        if self._lua_depth:
            self._nested_failure(out)
        msg = out[1] if len(out) > 1 else None
        etype = out[2] if len(out) > 2 else "string"
        tb = out[3] if len(out) > 3 and isinstance(out[3], str) else ""
        role = self._role(fn, args) or callback
        chk = None
        if role in ("cost", "target") and len(args) >= 9 and type(args[8]) is int:
            chk = args[8]
        if card_code is None:
            card_code = self._card_of(args)
        if etype == "missing":
            text = missing or "attempt to call an error function"
            self._record(ScriptError(kind="call", message=text, log_line=reference_log_line(text),
                                     card_code=card_code, card_name=self._name(card_code),
                                     callback=role, chk=chk))
            return
        if etype == "notfunction" and not_function is not None:
            self._record(ScriptError(kind="call", message=not_function,
                                     log_line=reference_log_line(not_function), card_code=card_code,
                                     card_name=self._name(card_code), callback=role, chk=chk))
            return
        if msg is None:
            message = f"(error object is a {etype} value)"
        else:
            message = str(msg)
        if kind is None:
            if etype == "memory" or message == "not enough memory":
                kind = "memory"
            elif "script timeout:" in message:
                kind = "timeout"
            elif STOPPED in message:
                kind = "stopped"
            elif self._py_tb is not None and "internal error in " in message:
                kind = "internal"
            else:
                kind = "error"
        file, line = None, None
        m = _POS.search(message) or _POS.search(tb)
        if m:
            file, line = m.group(1), int(m.group(2))
        elif script is not None:
            file = script
        if card_code is None and file is not None:
            fm = _CARD_FILE.search(file)
            if fm:
                card_code = int(fm.group(1))
        py_tb, self._py_tb = self._py_tb, None
        err = ScriptError(kind=kind, message=message, log_line=reference_log_line(msg),
                          card_code=card_code, card_name=self._name(card_code), script=file,
                          line=line, callback=role, chk=chk, traceback=_clean_traceback(tb),
                          python_traceback=py_tb, **_effect_fields(args))
        if kind == "memory":
            self._collect_after_memory_error()
        self._record(err)

    def _record(self, err: ScriptError) -> None:
        self.errors.append(err)
        self.handle_message(err.log_line, 1)
        log.warning("script error: %s", err)
        if self.strict:
            pending, self._strict_exc = self._strict_exc, None
            if isinstance(pending, ScriptFailure):
                raise pending
            failure = ScriptFailure(err)
            if pending is not None:
                raise failure from pending
            raise failure


def _effect_fields(args: tuple) -> dict:
    """The ScriptError fields naming the effect a failed call belonged to (its first argument)."""
    if not args or type(args[0]) is not Effect:
        return {}
    e = args[0]
    index = None
    card = e.handler if e.handler is not None else e.owner
    if card is not None:
        for i, other in enumerate(card.initial_effect, 1):
            if other is e:
                index = i
                break
    return {"effect_code": e.code, "effect_type": e.type, "effect_description": e.description,
            "effect_index": index}


def _clean_traceback(tb: str) -> str:
    """A Lua traceback without the host's own frames."""
    if not tb:
        return ""
    keep = [ln for ln in tb.splitlines()
            if "duelhost/bootstrap.lua" not in ln and "'xpcall'" not in ln]
    return "\n".join(keep)
