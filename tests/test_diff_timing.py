"""Whose time a live-diff duel spent: each core's share, also for a duel stopped at its
time-out inside one long call (issue 12 item 7: a duel the reference itself needs minutes
for is reported as the reference's cost, not as ours)."""

from __future__ import annotations

from duelhost.diff import LiveResult, LiveWork, lost_core_seconds
from duelhost.execution import Lost


def progress(ref_ms: int, our_ms: int, side: int, since_ms: int) -> tuple[int, ...]:
    return (10, 4, 2, ref_ms, our_ms, side, since_ms, 0)


def test_the_call_running_at_the_stop_counts_for_its_core():
    # 1.5 s in the reference and 0.5 s in ours had returned; the reference was then
    # inside one call for 298 s when the duel was stopped
    assert lost_core_seconds(progress(1500, 500, 1, 1_000_000), now_ms=1_298_000) == (299.5, 0.5)
    assert lost_core_seconds(progress(1500, 500, 2, 1_000_000), now_ms=1_002_000) == (1.5, 2.5)
    assert lost_core_seconds(progress(1500, 500, 0, 1_000_000), now_ms=9_000_000) == (1.5, 0.5)
    assert lost_core_seconds((0,) * 8) == (0.0, 0.0)


def test_a_timed_out_duel_says_whose_time_it_was():
    work = LiveWork(ref_lib=None, db_path=None, scripts=None, timeout=300.0,   # type: ignore[arg-type]
                    turn_limit=0, response_limit=3000, state=object())
    from duelhost.diff import DuelSetup
    setup = DuelSetup(seed_sequence=[1], cards=[])
    import time
    now = int(time.time() * 1000)
    lost = Lost(how="timeout", progress=progress(2000, 1000, 1, now - 297_000), exitcode=None, seconds=300.2)
    r: LiveResult = work.lost(("seed-98", 98, setup, None), lost)
    assert r.status == "timeout" and r.responses == 4
    assert r.reference_seconds > 290 and 0.9 < r.our_seconds < 1.1
    assert "the reference's own time" in (r.error or "")
    assert r.cause == "timeout: the duel ran past its time-out, most of it in the reference"
    mine = work.lost(("seed-7", 7, setup, None),
                     Lost(how="timeout", progress=progress(2000, 1000, 2, now - 297_000), exitcode=None,
                          seconds=300.2))
    assert mine.cause == "timeout: the duel ran past its time-out, most of it in duelhost"
    assert "duelhost's time" in (mine.error or "")
