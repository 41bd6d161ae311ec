"""Every byte of the golden transcripts splits into typed messages and re-encodes
identically (duelhost.golden + duelhost.engine.messages)."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from duelhost import golden as G
from duelhost.engine import messages as M

# The README's table: message types seen per set.
EXPECTED_KINDS = {"vanilla": 24, "real": 58}
EXPECTED_TOTALS = {"vanilla": (59144, 867650), "real": (66626, 915788)}


def _golden_path(name: str) -> Path:
    try:
        folder = G.default_golden_dir()
    except G.GoldenError as exc:
        pytest.skip(str(exc))
    path = folder / f"{name}.jsonl.gz"
    if not path.exists():
        pytest.skip(f"{path} not present")
    return path


@pytest.fixture(scope="module", params=["vanilla", "real"])
def golden_set(request: pytest.FixtureRequest) -> tuple[str, list[G.DuelRecord]]:
    return request.param, list(G.load_records(_golden_path(request.param)))


def test_records_load(golden_set: tuple[str, list[G.DuelRecord]]) -> None:
    name, records = golden_set
    assert len(records) == 40
    for rec in records:
        assert rec.set_name == name
        assert rec.core == "Fluorohydride/ygopro-core@db4fd16"
        assert G.stream_sha256(rec) == rec.result.sha256
        assert rec.steps[-1].response is None
        assert all(s.response is not None and s.kind in ("i", "b") for s in rec.steps[:-1])
        assert rec.result.responses == len(rec.steps) - 1


def test_every_step_splits_and_reencodes(golden_set: tuple[str, list[G.DuelRecord]]) -> None:
    name, records = golden_set
    kinds: collections.Counter[str] = collections.Counter()
    total_msgs = total_bytes = 0
    for rec in records:
        rec_msgs = 0
        turns = 0
        wins: list[M.MsgWin] = []
        for k, step in enumerate(rec.steps):
            msgs = G.split_step(step)  # raises on leftover or truncated bytes
            assert M.encode_messages(msgs) == step.messages, f"{rec.id} step {k}"
            for m in msgs:
                kinds[m.NAME] += 1
            rec_msgs += len(msgs)
            turns += sum(isinstance(m, M.MsgNewTurn) for m in msgs)
            step_wins = [m for m in msgs if isinstance(m, M.MsgWin)]
            wins += step_wins
            # a prompt is only ever the last message of its buffer
            assert not any(m.IS_PROMPT for m in msgs[:-1]), f"{rec.id} step {k}: prompt before the end"
            last = msgs[-1]
            if step.response is not None:
                assert last.IS_PROMPT, f"{rec.id} step {k}: answered step ends with {last.NAME}"
            elif rec.result.end == "win":
                assert step_wins and isinstance(last, M.MsgWin), f"{rec.id}: last step ends with {last.NAME}"
            else:
                assert rec.result.end.startswith("cap") and last.IS_PROMPT
        assert rec_msgs == rec.result.messages
        assert turns == rec.result.turns
        if rec.result.end == "win":
            assert len(wins) == 1
            assert (wins[0].player, wins[0].reason) == (rec.result.winner, rec.result.reason)
        else:
            assert not wins
        total_msgs += rec_msgs
        total_bytes += len(rec.stream)
    assert (total_msgs, total_bytes) == EXPECTED_TOTALS[name]
    seen = sorted(kinds)
    never = sorted(cls.NAME for cls in M.MESSAGE_TYPES.values() if cls.NAME not in kinds)
    print(f"\n{name}: {len(seen)} kinds seen: {', '.join(seen)}\n{name}: never seen: {', '.join(never)}")
    assert len(seen) == EXPECTED_KINDS[name], f"{name}: kinds seen {seen}"


def test_prompts_answered_match_readme(golden_set: tuple[str, list[G.DuelRecord]]) -> None:
    name, records = golden_set
    answered = set()
    for rec in records:
        for step in rec.steps[:-1]:
            prompt = G.step_prompt(G.split_step(step))
            assert prompt is not None
            answered.add(prompt.NAME)
    assert len(answered) == {"vanilla": 6, "real": 13}[name], sorted(answered)


def test_response_area_is_zero_padded(golden_set: tuple[str, list[G.DuelRecord]]) -> None:
    _, records = golden_set
    step = records[0].steps[0]
    area = step.response_area
    assert area is not None and len(area) == 256 and area.startswith(step.response or b"")


def test_bad_golden_line_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"set": "vanilla"}\n')
    with pytest.raises(G.GoldenError, match="bad.jsonl:1"):
        list(G.load_records(bad))
