"""Shared pytest fixtures.

Fixtures for data that lives outside the repository skip the test when the data
is not there, so that ``pytest`` passes on a bare checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

SHARED = REPO_ROOT.parent / "shared"
"""The project's shared folder next to the checkout (decks, golden recordings, corpus.cdb)."""

DEFAULT_CORPUS_DB = SHARED / "cards" / "corpus.cdb"
"""Where the real card database (26,745 cards) is found unless DUELHOST_CORPUS_DB says otherwise."""


@pytest.fixture(scope="session")
def real_scripts() -> Path:
    """The real card-script folder (a ygopro-scripts checkout) named by YGOPRO_SCRIPTS."""
    value = os.environ.get("YGOPRO_SCRIPTS")
    if not value:
        pytest.skip("YGOPRO_SCRIPTS is not set (point it at a ygopro-scripts checkout)")
    path = Path(value)
    if not path.is_dir():
        pytest.skip(f"YGOPRO_SCRIPTS={value} is not a directory")
    return path


@pytest.fixture(scope="session")
def corpus_db() -> Path:
    """The real card database: DUELHOST_CORPUS_DB, else ../shared/cards/corpus.cdb next to the checkout."""
    path = Path(os.environ.get("DUELHOST_CORPUS_DB") or DEFAULT_CORPUS_DB)
    if not path.is_file():
        pytest.skip(f"card database {path} not found (set DUELHOST_CORPUS_DB)")
    return path


@pytest.fixture(scope="session")
def ref_lib() -> Path:
    """The reference core's shared library named by OCGCORE_LIB (docs/reference.md)."""
    value = os.environ.get("OCGCORE_LIB")
    if not value or not Path(value).is_file():
        pytest.skip("OCGCORE_LIB is not set (a reference core build, see docs/reference.md)")
    return Path(value)
