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
