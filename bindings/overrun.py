"""The budget from outside: stopping engine work a script started that never returns.

Inside a script call the budget is kept by the Lua hook, by bounds on the C
library functions and by the host's clock checks (host.py).  One thing none
of them reaches: a library function whose engine work runs for long without
calling any script code or Card query -- ``Group.CheckWithSumEqual`` over 40
cards is an exponential search in the engine, as in the reference.

The rule: one daemon thread per process looks at every live host every ``PERIOD``
seconds.  When a host's call has run ``GRACE`` seconds past its deadline and its
thread is, at that moment, executing engine code (a frame of the
``duelhost.engine`` package on top of its stack), the thread gets an
asynchronous ``EngineOverrun`` (a ScriptStopped: CPython raises it at that
thread's next bytecode).  It leaves the engine, becomes a Lua error in the
library function that called it, and the call ends as a timeout, once.  Only
engine code is interrupted this way: the host's own bookkeeping, lupa and Lua
never see an exception they do not expect (a C call cannot be interrupted at
all; its bounds are in bootstrap.lua).  Pure checks are what runs that long
inside a script call; an action the engine was in the middle of could be left
half done, which is why this fires only well past the budget.

The same thread arms the Lua hook that keeps the budget inside Lua: while no
hook is armed Lua runs without checking for one on every instruction, so the
host leaves it unarmed (runtime.py, ``enable_lazy_hooks``) and this thread arms
it when a running call's deadline is ``ARM_BEFORE`` away or its heap has grown
past the size at which a collection is due (the hook collects inside long
calls).  A call that ends sooner never has it armed; the host disarms it when
the outermost call returns.  ``LuaSandbox.stop`` arms it too.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
import weakref
from typing import Any

from .. import engine
from .errors import ScriptStopped

__all__ = ["ARM_BEFORE", "EngineOverrun", "GRACE", "PERIOD", "watch"]

GRACE = 1.0      # seconds past a call's deadline before engine work is interrupted
PERIOD = 0.05    # seconds between two looks
ARM_BEFORE = 2 * PERIOD   # a call's budget hook is armed this long before its deadline

_ENGINE_DIR: str | None = None    # the engine package's folder (found on first use)

# thread id -> the message of the EngineOverrun about to be raised in it
_REASONS: dict[int, str] = {}


class EngineOverrun(ScriptStopped):
    """Raised asynchronously in a thread whose script call overran its budget while
    in engine code (CPython makes it with no arguments: the text comes from _REASONS)."""

    def __init__(self) -> None:
        super().__init__(_REASONS.get(threading.get_ident(),
                                      "script timeout: ran longer than the time budget"))


def _engine_dir() -> str:
    global _ENGINE_DIR
    if _ENGINE_DIR is None:
        _ENGINE_DIR = os.path.dirname(os.path.abspath(engine.__file__))
    return _ENGINE_DIR


class _Watch:
    """The process's watching thread and the hosts it looks at."""

    def __init__(self) -> None:
        self.hosts: weakref.WeakSet[Any] = weakref.WeakSet()
        self.pid = os.getpid()
        self.thread = threading.Thread(target=self.run, name="duelhost-overrun", daemon=True)
        self.thread.start()

    def run(self) -> None:
        while True:
            time.sleep(PERIOD)
            now = time.monotonic()
            for host in list(self.hosts):
                try:
                    self.look(host, now)
                except Exception:  # noqa: BLE001 - a watcher must never die
                    pass

    def look(self, host: Any, now: float) -> None:
        """Arm the budget hook of ``host``'s running call when its deadline is near or
        its heap has grown past the collection limit (runtime.py, arm_hooks);
        interrupt it if it is GRACE past its deadline inside engine code."""
        deadline = host._deadline
        if host._lua_depth:
            sandbox = host.sandbox
            if not sandbox.hooks_armed and (now >= deadline - ARM_BEFORE or sandbox.heap_past_gc_limit()):
                sandbox.arm_hooks()
        if not host._lua_depth or now < deadline + GRACE or host._overrun_sent == deadline:
            return
        tid = host._thread_id
        frame = sys._current_frames().get(tid)
        if frame is None or not frame.f_code.co_filename.startswith(_engine_dir()):
            return
        host._overrun_sent = deadline
        _REASONS[tid] = (f"script timeout: ran longer than the time budget of {host._budget:g} s "
                         f"(in engine work for a library function, stopped {GRACE:g} s after it)")
        host._stopping = _REASONS[tid]
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), ctypes.py_object(EngineOverrun))


_WATCH: _Watch | None = None
_LOCK = threading.Lock()


def _restart_in_child() -> None:
    """After os.fork in the child: the watching thread did not survive; a new one
    looks at the hosts the parent had (a forked worker may use them)."""
    global _WATCH, _LOCK
    _LOCK = threading.Lock()
    old = _WATCH
    if old is not None:
        _WATCH = _Watch()
        for host in list(old.hosts):
            _WATCH.hosts.add(host)


os.register_at_fork(after_in_child=_restart_in_child)


def watch(host: Any) -> None:
    """Look at ``host`` from now on (its attributes: _lua_depth, _deadline, _budget,
    _thread_id, _stopping, _overrun_sent; see LuaScriptHost)."""
    global _WATCH
    with _LOCK:
        if _WATCH is None or _WATCH.pid != os.getpid():     # threads do not survive a fork
            _WATCH = _Watch()
        _WATCH.hosts.add(host)
