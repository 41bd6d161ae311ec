"""Shared pytest fixtures.

Fixtures for data that lives outside the repository skip the test when the data
is not there, so that ``pytest`` passes on a bare checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

DEFAULT_CORPUS_DB = Path("/work/shared/cards/corpus.cdb")
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
    """The real card database: DUELHOST_CORPUS_DB, else /work/shared/cards/corpus.cdb."""
    path = Path(os.environ.get("DUELHOST_CORPUS_DB") or DEFAULT_CORPUS_DB)
    if not path.is_file():
        pytest.skip(f"card database {path} not found (set DUELHOST_CORPUS_DB)")
    return path
