"""duelhost: a Python duel core that runs the real YGOPro card scripts unmodified.

The user-facing names are imported lazily, so ``import duelhost.engine`` (the
pure-Python rules) does not load the Lua runtime.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Duel": ("duelhost.host", "Duel"),
    "Outcome": ("duelhost.host", "Outcome"),
    "DuelSetupError": ("duelhost.host", "DuelSetupError"),
    "RandomPlayer": ("duelhost.players", "RandomPlayer"),
    "ScriptedPlayer": ("duelhost.players", "ScriptedPlayer"),
    "InvalidResponse": ("duelhost.engine.responses", "InvalidResponse"),
}

__all__ = sorted(_EXPORTS)


def _install_chunk_cache() -> None:
    """Keep the interpreter's freed frame-stack chunks for reuse, when the optional C
    helper was built (duelhost/_chunkcache.c, benchmarks/README.md); DUELHOST_CHUNK_CACHE=0
    leaves the interpreter's allocator alone."""
    import os
    if os.environ.get("DUELHOST_CHUNK_CACHE", "1") == "0":
        return
    try:
        from duelhost import _chunkcache
    except ImportError:                      # not built: pure Python, same behaviour
        return
    _chunkcache.install()


_install_chunk_cache()


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib
        module, attr = _EXPORTS[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'duelhost' has no attribute {name!r}")
