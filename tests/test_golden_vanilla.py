"""Conformance: the 40 recorded Normal-Monster duels replay byte-identically.

Set A of the golden transcripts (tests/data/golden/vanilla.jsonl.gz, recorded
from the reference core) needs no card scripts: every message byte of every
step must equal the reference's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.conformance import replay_record
from duelhost.golden import load_records, record_card_reader

GOLDEN = Path(__file__).parent / "data" / "golden" / "vanilla.jsonl.gz"
RECORDS = list(load_records(GOLDEN))


def test_the_set_has_forty_duels() -> None:
    assert len(RECORDS) == 40


@pytest.mark.parametrize("record", RECORDS, ids=[r.id for r in RECORDS])
def test_vanilla_duel_is_byte_identical(record) -> None:
    result = replay_record(record, record_card_reader(record))
    assert result.error is None, result.error
    assert result.identical, result.divergence.describe()
    assert result.steps == len(record.steps)
