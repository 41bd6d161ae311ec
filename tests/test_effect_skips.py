"""The look-ups skipped when no card or aura holds an effect code (FieldEffects.holds)
give what the full rule gives, at every step of recorded duels.

The recorded duels already show that the skips change no message; this compares the
skipped paths with the full ones directly: at each prompt of the bundled recordings,
every card's release list for a Tribute Summon and its type are computed twice, once
with the skips and once with ``holds`` and ``holds_any`` answering "held" for every code
(the full walk of the reference's rule), and must agree -- release list, count and
release_param.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.conformance import build_duel
from duelhost.engine.duel import FieldEffects
from duelhost.engine.group import CardSet
from duelhost.golden import load_records, record_card_reader

SET_A = Path(__file__).resolve().parent / "data" / "golden" / "vanilla.jsonl.gz"


def _release_lists(duel: object, card: object) -> list[tuple]:
    out = []
    for ex in (0, 1):
        for releasable in (0xFF00FF, 0x30003):
            release, ex_list, oneof = CardSet(), CardSet(), CardSet()
            count = duel.get_summon_release_list(card, release, ex_list, oneof, None, ex, releasable)
            out.append((ex, releasable, count, sorted(c.cardid for c in release),
                        sorted(c.cardid for c in ex_list), sorted(c.cardid for c in oneof),
                        sorted((c.cardid, c.release_param) for c in _monsters(duel))))
    return out


def _monsters(duel: object) -> list:
    return [c for p in (0, 1) for c in duel.player[p].list_mzone if c is not None]


def _observe(duel: object) -> list:
    cards = [c for p in (0, 1) for c in (*duel.player[p].list_hand, *_monsters(duel))]
    return [(c.cardid, c.get_type(), _release_lists(duel, c)) for c in cards]


@pytest.mark.parametrize("index", range(0, 40, 10))
def test_skipped_look_ups_agree_with_the_full_rule(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    record = list(load_records(SET_A))[index]
    driver = build_duel(record, record_card_reader(record), None)
    skipping, skipping_any = FieldEffects.holds, FieldEffects.holds_any
    compared = 0
    response = None
    for step in record.steps:
        driver.step(response)
        duel = driver.engine
        if not duel.finished:
            quick = _observe(duel)
            monkeypatch.setattr(FieldEffects, "holds", lambda self, *codes: True)
            monkeypatch.setattr(FieldEffects, "holds_any", lambda self, codes: True)
            full = _observe(duel)
            monkeypatch.setattr(FieldEffects, "holds", skipping)
            monkeypatch.setattr(FieldEffects, "holds_any", skipping_any)
            assert quick == full, f"step {compared}"
            compared += 1
        response = step.response_area
    assert compared > 20
