"""Where the bundled scripts and card database are.

From a source checkout (or an editable install) they are the repository's
``scripts/`` folder and ``cards.db``; a wheel installs cards.db and the scripts
under ``<prefix>/share/duelhost``.
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def _share() -> Path:
    return Path(sysconfig.get_path("data")) / "share" / "duelhost"


def bundled_scripts() -> Path:
    """The folder of our own bundled Lua scripts."""
    for cand in (_REPO / "scripts", _share() / "scripts"):
        if (cand / "constant.lua").is_file():
            return cand
    raise FileNotFoundError("the bundled scripts folder was not found (reinstall duelhost)")


def bundled_db() -> Path:
    """The bundled card database (cards.db)."""
    for cand in (_REPO / "cards.db", _share() / "cards.db", Path(sys.prefix) / "share" / "duelhost" / "cards.db"):
        if cand.is_file():
            return cand
    raise FileNotFoundError("the bundled cards.db was not found (reinstall duelhost)")


BROKEN_ON_PURPOSE: frozenset[int] = frozenset({190004010})
"""Bundled cards whose script fails on purpose (Cracked Lantern: the testing guide shows
the error it gives).  Random decks drawn from the bundled folder leave them out."""


def is_bundled_scripts(folder: str | Path) -> bool:
    """Whether ``folder`` is the bundled scripts folder."""
    try:
        return Path(folder).resolve() == bundled_scripts().resolve()
    except FileNotFoundError:
        return False


def bundled_golden() -> Path | None:
    """The recorded duels of a checkout (tests/data/golden/vanilla.jsonl.gz), or None
    (an installed wheel has no tests folder)."""
    cand = _REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"
    return cand if cand.is_file() else None
