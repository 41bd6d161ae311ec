"""YGOPro replay files: the format, our writer, and playing replays through our core."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from duelhost import Duel, RandomPlayer, paths
from duelhost.cli import main as cli
from duelhost.deckpool import main_deck_pool, random_main_deck
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.messages import encode_messages
from duelhost.replay import (REPLAY_COMPRESSED, REPLAY_ID_YRP1, REPLAY_SINGLE_MODE, REPLAY_TAG,
                             REPLAY_UNIFORM, Replay, ReplayDeck, ReplayError, ReplayHeader, compare_snapshots,
                             encode_replay, parse_replay, play_replay, read_replay, replay_from_duel)

GOLDEN_VANILLA = Path(__file__).parent / "data" / "golden" / "vanilla.jsonl.gz"


@pytest.fixture(scope="module")
def bundled_db() -> CardDatabase:
    return CardDatabase.open(paths.bundled_db())


def _played_duel(db: CardDatabase, seed: int, turns: int) -> Duel:
    pool = main_deck_pool(db, paths.bundled_scripts(), ot=0)
    rng = random.Random(seed)
    duel = Duel(db=db, seed=seed)
    duel.add_deck(0, random_main_deck(rng, pool))
    duel.add_deck(1, random_main_deck(rng, pool))
    duel.start()
    duel.run([RandomPlayer(seed), RandomPlayer(seed + 1)], max_turns=turns)
    return duel


def test_round_trip_write_read_replay_identical(tmp_path: Path, bundled_db: CardDatabase) -> None:
    duel = _played_duel(bundled_db, 11, 8)
    assert duel.responses > 20
    path = duel.save_replay(tmp_path / "d.yrp", players=("Alice", "Bob"))
    rep = read_replay(path)
    assert rep.header.kind == "yrp2" and rep.header.has(REPLAY_COMPRESSED) and rep.header.has(REPLAY_UNIFORM)
    assert rep.header.seed_sequence == duel.seed_sequence
    assert rep.players == ["Alice", "Bob"]
    assert (rep.start_lp, rep.start_hand, rep.draw_count, rep.duel_flag) == (8000, 5, 1, 5 << 16)
    assert len(rep.decks) == 2 and len(rep.decks[0].main) == 40 and rep.decks[0].extra == []
    assert len(rep.responses) == duel.responses
    assert rep.rng_version == 2
    run = play_replay(rep, bundled_db, paths.bundled_scripts())
    assert run.status == "responses_exhausted"
    assert run.responses_used == duel.responses
    assert encode_messages(run.engine.messages) == duel.message_bytes()
    assert run.snapshot["lp"] == [duel.lp(0), duel.lp(1)]


def test_uncompressed_and_compressed_bodies_agree() -> None:
    rep = replay_from_duel([1, 2, 3, 4, 5, 6, 7, 8], [(10, 0, 0, 1, 0, 8), (11, 0, 0, 0x40, 0, 8),
                                                       (12, 1, 1, 1, 0, 8)],
                           [b"\x01\x00\x00\x00", b"\x02\x01\x00\x00\x00\x07"], players=("a", "b"))
    raw = encode_replay(rep, compress=False)
    comp = encode_replay(rep, compress=True)
    assert not struct.unpack_from("<I", raw, 8)[0] & REPLAY_COMPRESSED
    a, b = parse_replay(raw), parse_replay(comp)
    for r in (a, b):
        assert r.decks[0].main == [10] and r.decks[0].extra == [11] and r.decks[1].main == [12]
        assert r.responses == [b"\x01\x00\x00\x00", b"\x02\x01\x00\x00\x00\x07"]
        assert r.header.seed_sequence == [1, 2, 3, 4, 5, 6, 7, 8]
    # the header's LZMA properties: lc=3 lp=0 pb=2, 16 MiB dictionary, as the client writes them
    assert comp[24:29] == bytes([0x5D]) + (1 << 24).to_bytes(4, "little")
    assert struct.unpack_from("<I", comp, 16)[0] == len(raw) - 80   # datasize: the uncompressed body


def test_yrp1_header_rng_versions() -> None:
    body = Replay(header=ReplayHeader(id=REPLAY_ID_YRP1, flag=REPLAY_UNIFORM, seed=5489), players=["x", "y"],
                  decks=[ReplayDeck(main=[1]), ReplayDeck()])
    data = encode_replay(body)
    rep = parse_replay(data)
    assert rep.header.kind == "yrp1" and rep.header.seed_sequence is None
    assert rep.rng_version == 1
    assert rep.duel_seed == 3499211612      # the first output of std::mt19937(5489)
    old = parse_replay(encode_replay(Replay(header=ReplayHeader(id=REPLAY_ID_YRP1, flag=0, seed=1),
                                            players=["x", "y"], decks=[ReplayDeck(), ReplayDeck()])))
    assert old.rng_version == 0


def test_single_mode_and_tag_layouts() -> None:
    single = Replay(header=ReplayHeader(flag=REPLAY_UNIFORM | REPLAY_SINGLE_MODE, seed_sequence=[0] * 8),
                    players=["me", ""], duel_flag=0x80, script_name="puzzle 1.lua", responses=[b"\x00"])
    rep = parse_replay(encode_replay(single))
    assert rep.is_single and rep.script_name == "puzzle 1.lua" and rep.decks == []
    assert rep.players == ["me", ""] and rep.duel_flag == 0x80 and rep.responses == [b"\x00"]
    tag = Replay(header=ReplayHeader(flag=REPLAY_UNIFORM | REPLAY_TAG, seed_sequence=[0] * 8),
                 players=["a", "b", "c", "d"], duel_flag=(5 << 16) | 0x20,
                 decks=[ReplayDeck(main=[i]) for i in range(1, 5)])
    rep = parse_replay(encode_replay(tag))
    assert rep.is_tag and rep.players == ["a", "b", "c", "d"]
    cards, tags = rep.new_card_calls()
    assert [c[0] for c in cards] == [1, 3] and [t[0] for t in tags] == [2, 4]


def test_bad_files_are_named_errors() -> None:
    with pytest.raises(ReplayError, match="not a YGOPro replay"):
        parse_replay(b"\x00" * 40, "x.yrp")
    tag_mismatch = Replay(header=ReplayHeader(flag=REPLAY_UNIFORM | REPLAY_TAG, seed_sequence=[0] * 8),
                          players=["a", "b", "c", "d"], duel_flag=5 << 16, decks=[ReplayDeck()] * 4)
    with pytest.raises(ReplayError, match="TAG flag"):
        parse_replay(encode_replay(tag_mismatch), "t.yrp")
    good = encode_replay(replay_from_duel([0] * 8, [(10, 0, 0, 1, 0, 8)], []), compress=False)
    with pytest.raises(ReplayError, match="ends inside"):
        parse_replay(good[:-2], "cut.yrp")


def test_compare_snapshots_names_differences(bundled_db: CardDatabase) -> None:
    duel = _played_duel(bundled_db, 3, 4)
    rep = parse_replay(encode_replay(replay_from_duel(duel.seed_sequence, duel._new_cards, duel.driver.answers)))
    snap = play_replay(rep, bundled_db, paths.bundled_scripts()).snapshot
    assert compare_snapshots(snap, snap) == []
    changed = dict(snap, lp=[snap["lp"][0] - 1, snap["lp"][1]])
    diffs = compare_snapshots(snap, changed)
    assert len(diffs) == 1 and diffs[0].startswith("state.lp[0]")


def test_refused_response_stops_with_turn_and_prompt(bundled_db: CardDatabase) -> None:
    duel = _played_duel(bundled_db, 5, 3)
    responses = list(duel.driver.answers)
    responses[0] = b"\xff\x7f\x00\x00"            # no idle command has index 0x7fff
    rep = replay_from_duel(duel.seed_sequence, duel._new_cards, responses)
    run = play_replay(rep, bundled_db, paths.bundled_scripts())
    assert run.status == "refused" and run.responses_used == 1
    assert run.prompt is not None and run.refused == b"\xff\x7f\x00\x00"
    assert run.turn == 1


def test_cli_replay_freeze_and_compare(tmp_path: Path, bundled_db: CardDatabase) -> None:
    duel = _played_duel(bundled_db, 21, 6)
    path = duel.save_replay(tmp_path / "c.yrp")
    snap = tmp_path / "c.json"
    runner = CliRunner()
    res = runner.invoke(cli, ["replay", str(path), "--freeze", str(snap)])
    assert res.exit_code == 0, res.output
    assert snap.is_file() and "snapshot written" in res.output
    res = runner.invoke(cli, ["replay", str(path), "--compare", str(snap)])
    assert res.exit_code == 0 and "same end state" in res.output
    data = snap.read_text().replace('"lp": [\n  ', '"lp": [\n  1')
    snap.write_text(data)
    res = runner.invoke(cli, ["replay", str(path), "--compare", str(snap)])
    assert res.exit_code == 1 and "differs from the snapshot" in res.output


def test_golden_reference_duels_as_replays(tmp_path: Path) -> None:
    """Duels recorded from the reference, written as .yrp by us, replay to the recorded bytes."""
    if not GOLDEN_VANILLA.is_file():
        pytest.skip("the golden recordings are not here")
    from duelhost.golden import load_records, record_card_reader

    for n, record in enumerate(load_records(GOLDEN_VANILLA)):
        if n >= 2:
            break
        rep = replay_from_duel(record.seed_sequence, [tuple(c.model_dump().values()) for c in record.cards],
                               [s.response for s in record.steps if s.response is not None])
        rep = parse_replay(encode_replay(rep))
        run = play_replay(rep, None, None, card_reader=record_card_reader(record))
        assert run.status == "responses_exhausted"
        assert encode_messages(run.engine.messages) == record.stream
