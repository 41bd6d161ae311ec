"""The reference adapter and the live diff, against a user-built reference library.

Skipped without OCGCORE_LIB (see docs/reference.md); the real-card tests also
need YGOPRO_SCRIPTS and the corpus database.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from duelhost import paths
from duelhost.deckpool import main_deck_pool, random_main_deck
from duelhost.engine.carddb import CardDatabase

GOLDEN = Path(__file__).parent / "data" / "golden"


def test_deck_pool_filters_main_deck_cards() -> None:
    db = CardDatabase.open(paths.bundled_db())
    pool = main_deck_pool(db, paths.bundled_scripts(), ot=0)
    assert pool == sorted(pool) and pool
    for code in pool:
        rec = db.find(code)
        assert rec.alias == 0 and not rec.type & (0x40 | 0x2000 | 0x800000 | 0x4000000 | 0x4000)
    deck = random_main_deck(random.Random(1), pool, size=20)
    assert len(set(deck)) == 20
    with pytest.raises(ValueError):
        random_main_deck(random.Random(1), pool[:5])


def test_missing_library_is_a_named_error(tmp_path: Path) -> None:
    from duelhost.reference import ReferenceCore, ReferenceCoreError
    with pytest.raises(ReferenceCoreError, match="does not exist"):
        ReferenceCore(tmp_path / "nope.so")
    bad = tmp_path / "bad.so"
    bad.write_bytes(b"not a library")
    with pytest.raises(ReferenceCoreError, match="cannot load"):
        ReferenceCore(bad)



def test_reference_replays_golden_vanilla_duels(ref_lib: Path) -> None:
    from duelhost.golden import load_records
    from duelhost.reference import ReferenceCore
    if not (GOLDEN / "vanilla.jsonl.gz").is_file():
        pytest.skip("golden recordings not here")
    core = ReferenceCore.load(ref_lib, db=paths.bundled_db())
    for n, rec in enumerate(load_records(GOLDEN / "vanilla.jsonl.gz")):
        if n >= 3:
            break
        # serve exactly the recorded card data
        core._card_cache.clear()
        core._card_cache.update(rec.card_data)
        with core.create_duel(rec.seed_sequence) as duel:
            for p, info in enumerate(rec.players):
                duel.set_player_info(p, info.lp, info.start_hand, info.draw)
            for c in rec.cards:
                duel.new_card(c.code, c.owner, c.player, c.location, c.sequence, c.position)
            duel.start(rec.options)
            for step in rec.steps:
                out = duel.advance()
                assert out.data == step.messages
                if step.response is not None:
                    duel.set_responseb(step.response)
            assert duel.query_field_count(0, 0x01) >= 0
            info = duel.query_field_info()
            assert info[0] == 162 and info[1] == 5          # MSG_RELOAD_FIELD, rule 5
    core._card_cache.clear()


def test_live_diff_bundled_cards_identical(ref_lib: Path) -> None:
    from duelhost.diff import play_side_by_side, random_setup
    from duelhost.reference import ReferenceCore
    db = CardDatabase.open(paths.bundled_db())
    scripts = paths.bundled_scripts()
    core = ReferenceCore.load(ref_lib, db=db, scripts=scripts)
    pool = main_deck_pool(db, scripts, ot=0)
    for seed in (1, 2):
        rng = random.Random(seed)
        setup = random_setup(rng, pool)
        r = play_side_by_side(core, db, scripts, setup, rng, seed=seed, turn_limit=6, card_pool=list(db))
        assert r.status == "identical", r.divergence.describe() if r.divergence else r.error
        assert r.end in ("cap_turns", "win") and r.agreeing == r.messages > 50


def test_replay_diff_against_reference(ref_lib: Path, tmp_path: Path) -> None:
    from duelhost import Duel, RandomPlayer
    from duelhost.replay import read_replay
    from duelhost.replay_diff import diff_replay
    db = CardDatabase.open(paths.bundled_db())
    pool = main_deck_pool(db, paths.bundled_scripts(), ot=0)
    rng = random.Random(9)
    duel = Duel(db=db, seed=9)
    duel.add_deck(0, random_main_deck(rng, pool))
    duel.add_deck(1, random_main_deck(rng, pool))
    duel.start()
    duel.run([RandomPlayer(1), RandomPlayer(2)], max_turns=5)
    rep = read_replay(duel.save_replay(tmp_path / "x.yrp"))
    res = diff_replay(rep, ref_lib, db, paths.bundled_scripts())
    assert res.identical and res.responses == duel.responses


def test_live_diff_real_cards(ref_lib: Path, real_scripts: Path, corpus_db: Path) -> None:
    from duelhost.diff import run_live_diff
    summary = run_live_diff(ref_lib, seeds=1, first_seed=3, db_path=corpus_db, scripts=real_scripts,
                            turn_limit=6)
    r = summary.results[0]
    assert r.messages > 0 and len(r.decks[0]) == 40
    data = summary.to_json()
    assert data["total"] == 1 and "median_agreeing_messages" in data


def test_live_diff_duel_timeout_reports_progress(ref_lib: Path) -> None:
    from duelhost.diff import _play_forked, random_setup
    from duelhost.reference import ReferenceCore
    db = CardDatabase.open(paths.bundled_db())
    scripts = paths.bundled_scripts()
    core = ReferenceCore.load(ref_lib, db=db, scripts=scripts)
    pool = main_deck_pool(db, scripts, ot=0)
    rng = random.Random(4)
    setup = random_setup(rng, pool)
    kwargs = dict(duel_id="t", seed=4, turn_limit=40, response_limit=3000, card_pool=list(db))
    r = _play_forked(core, db, scripts, setup, rng, 0.05, kwargs)
    assert r.status == "timeout" and not r.identical and r.error
    done = _play_forked(core, db, scripts, setup, random.Random(4), 120, dict(kwargs, turn_limit=4))
    assert done.status == "identical" and done.end == "cap_turns" and done.agreeing > 0


def test_advance_stops_at_a_prompt_written_without_the_waiting_flag() -> None:
    """ROCK_PAPER_SCISSORS is written without PROCESSOR_WAITING (operations.cpp); a host must
    still answer it before calling process() again, or the core reads a stale answer
    (found by the live diff: seed 444 looped on ties)."""
    from duelhost.engine.messages import MsgConfirmCards, MsgRockPaperScissors, MsgRetry
    from duelhost.reference import PROCESSOR_WAITING, ReferenceDuel

    def fake(outputs):
        duel = ReferenceDuel.__new__(ReferenceDuel)
        it = iter(outputs)
        pending = [b""]

        def process():
            flags, data = next(it)
            pending[0] = data
            return flags | len(data)

        def get_message():
            data, pending[0] = pending[0], b""
            return data
        duel.process, duel.get_message = process, get_message
        return duel

    rps = MsgRockPaperScissors(player=0).encode()
    out = fake([(0, MsgConfirmCards(player=0, skip_panel=0, cards=()).encode()),
                (PROCESSOR_WAITING, b""), (0, rps), (0, b"never")]).advance()
    assert [m.NAME for m in out.messages] == ["CONFIRM_CARDS", "ROCK_PAPER_SCISSORS"]
    assert out.prompt is not None and not out.ended
    out = fake([(PROCESSOR_WAITING, MsgRetry().encode()), (0, b"never")]).advance()
    assert out.retry


def test_standby_counter_scenario_matches_the_reference(ref_lib: Path, tmp_path: Path) -> None:
    """tests/test_chain_steps.py's Standby Phase scenario, played in both cores."""
    import shutil

    import test_chain_steps as T
    from duelhost.diff import DuelSetup, play_side_by_side
    from duelhost.engine import constants as C
    from duelhost.engine.carddb import CardRecord
    from duelhost.engine.messages import MsgSelectChain, MsgSelectIdleCmd
    from duelhost.engine.responses import ChainResponse, IdleCmdResponse, random_response
    from duelhost.reference import ReferenceCore

    for f in paths.bundled_scripts().glob("*.lua"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / f"c{T.COUNTER}.lua").write_text(T.COUNTER_SCRIPT)
    db = CardDatabase.from_records([
        CardRecord(code=T.COUNTER, type=C.TYPE_SPELL | C.TYPE_CONTINUOUS, name="Standby Counter"),
        CardRecord(code=T.MONSTER, type=C.TYPE_MONSTER | C.TYPE_NORMAL, level=4, attack=1000,
                   defense=1000, name="Plain Monster")])
    core = ReferenceCore.load(ref_lib, db=db, scripts=tmp_path)
    cards = [(T.MONSTER, p, p, C.LOCATION_DECK, 0, 8) for p in (0, 1) for _ in range(10)]
    cards.append((T.COUNTER, 1, 1, C.LOCATION_SZONE, 0, C.POS_FACEUP))
    setup = DuelSetup(seed_sequence=[1, 2, 3, 4, 5, 6, 7, 8], cards=cards)

    def responder(req):
        if isinstance(req, MsgSelectIdleCmd):
            return IdleCmdResponse(command=7, index=0)
        if isinstance(req, MsgSelectChain):
            return ChainResponse(index=-1)
        return random_response(req, random.Random(0))
    r = play_side_by_side(core, db, tmp_path, setup, None, turn_limit=3, responder=responder)
    assert r.identical, r.divergence.describe() if r.divergence else r.error
