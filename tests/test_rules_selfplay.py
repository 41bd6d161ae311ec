"""Issue 3, acceptance: random play with the bundled decks, determinism, and selfplay.

* 200 seeded random duels with the bundled decks (cards/*.ydk: the demo decks and
  the rules decks) to the end or a turn cap, with no Python exception, no script
  error (strict script host), every request the engine asks legal (it encodes
  and decodes to itself, has at least one legal answer, and each answer listed
  by ``legal_responses`` is accepted by ``parse_response``) and every random
  answer accepted.
* Determinism: the same seed, decks and answers give a byte-identical message
  stream, and replaying the recorded answers into a fresh duel reproduces it.
* ``duelhost selfplay`` on the bundled cards: the report, its JSON, determinism
  across worker processes, and ``--only`` replaying one duel of a run.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from duelhost import Duel, RandomPlayer, ScriptedPlayer
from duelhost.bindings.host import LuaScriptHost
from duelhost import paths
from duelhost.engine.messages import MsgAnnounceCard, Prompt, decode_messages
from duelhost.engine.responses import encode_response, legal_responses, parse_response, random_response
from duelhost.engine.ydk import read_ydk
from duelhost.deckpool import deck_pool, random_deck
from duelhost.selfplay import default_config, run_selfplay

REPO = Path(__file__).resolve().parent.parent
DECKS = sorted((REPO / "cards").glob("*.ydk"))
PAIRS = [(a, b) for a in DECKS for b in DECKS]
DUELS = 200
TURN_CAP = 10
"""Turns per duel: 200 duels of 10 turns (about 35,000 answers) took 30-40 s on the shared
development machine (2 cores, busy with other work)."""


def check_request(req: Prompt, db) -> None:
    """The request is well formed and admits a legal answer."""
    assert req.player in (0, 1), req
    assert decode_messages(req.encode()) == [req], req
    try:
        options = legal_responses(req)
    except ValueError:
        options = None
    if options is not None:
        assert options, f"no legal answer to {req}"
        for r in options:
            assert parse_response(req, encode_response(req, r), card_lookup=db.find) == r


def test_the_bundled_decks_include_the_rules_decks():
    names = {p.name for p in DECKS}
    assert {"rules_a.ydk", "rules_b.ydk", "demo_a.ydk", "demo_b.ydk"} <= names


def test_200_random_duels_with_the_bundled_decks():
    decks = {p: read_ydk(p) for p in DECKS}
    started = time.perf_counter()
    prompts = responses = finished = 0
    for i in range(DUELS):
        a, b = PAIRS[i % len(PAIRS)]
        host = LuaScriptHost(paths.bundled_scripts(), strict=True)
        duel = Duel(seed=1000 + i, script_host=host)
        duel.add_deck(0, decks[a].main, decks[a].extra, shuffle=True)
        duel.add_deck(1, decks[b].main, decks[b].extra, shuffle=True)
        duel.start()
        rng = random.Random(i)
        pool = list(duel.db)
        while True:
            req = duel.advance()
            if req is None or duel.turn > TURN_CAP:
                break
            prompts += 1
            check_request(req, duel.db)
            answer = random_response(req, rng, card_pool=pool if isinstance(req, MsgAnnounceCard) else None)
            duel.respond(answer)                  # InvalidResponse would fail the test
            responses += 1
        assert host.errors == [], f"duel {i}: {host.errors[0]}"
        finished += duel.finished
    elapsed = time.perf_counter() - started
    assert responses == prompts and responses > DUELS * 50
    print(f"\n{DUELS} duels, {responses} responses, {finished} won before turn {TURN_CAP}, "
          f"{elapsed:.1f} s ({responses / elapsed:.0f} responses/s)")


def _play(seed: int, deck_a: Path, deck_b: Path, players) -> Duel:
    da, db_ = read_ydk(deck_a), read_ydk(deck_b)
    duel = Duel(seed=seed, script_host=LuaScriptHost(paths.bundled_scripts(), strict=True))
    duel.add_deck(0, da.main, da.extra, shuffle=True)
    duel.add_deck(1, db_.main, db_.extra, shuffle=True)
    duel.run(players, max_turns=16)
    return duel


def test_same_seed_decks_and_answers_give_the_same_bytes_and_replays_reproduce_them():
    a, b = REPO / "cards" / "rules_a.ydk", REPO / "cards" / "rules_b.ydk"
    first = _play(77, a, b, [RandomPlayer(1), RandomPlayer(2)])
    second = _play(77, a, b, [RandomPlayer(1), RandomPlayer(2)])
    assert first.message_bytes() == second.message_bytes()
    assert first.responses > 30
    # replay the answers the first duel got, as raw bytes, into a fresh duel
    answers = list(first.driver.answers)
    replay = ScriptedPlayer(answers)
    third = _play(77, a, b, [replay, replay])
    assert replay.used == len(answers)
    assert third.message_bytes() == first.message_bytes()
    # another seed gives another duel
    other = _play(78, a, b, [RandomPlayer(1), RandomPlayer(2)])
    assert other.message_bytes() != first.message_bytes()


# ----- duelhost selfplay on the bundled cards -------------------------------------------

def test_random_decks_from_the_bundled_scripts_respect_the_deck_rules():
    from duelhost.engine.carddb import CardDatabase
    from duelhost.engine import constants as C
    db = CardDatabase.open(paths.bundled_db())
    pool = deck_pool(db, paths.bundled_scripts(), ot=0)
    assert 190001010 in pool.main
    assert 190001004 in pool.main            # a Normal Monster needs no script (the reference loads none)
    for code in pool.main:
        t = db.get(code).type
        assert not t & (C.TYPE_FUSION | C.TYPE_SYNCHRO | C.TYPE_XYZ | C.TYPE_LINK | C.TYPE_TOKEN)
    for code in pool.extra:
        assert db.get(code).type & (C.TYPE_FUSION | C.TYPE_SYNCHRO | C.TYPE_XYZ | C.TYPE_LINK)
    rng = random.Random(3)
    for _ in range(20):
        main, extra = random_deck(rng, pool)
        assert len(main) == 40 and len(set(main)) == 40
        assert len(extra) == min(15, len(pool.extra)) and set(extra) <= set(pool.extra)
        assert random_deck(rng, pool, main_only=True)[1] == []


def test_selfplay_reports_and_is_deterministic_across_workers():
    """Random decks from the bundled scripts (a pool other families add to: a card
    that fails on purpose may be drawn, so script errors are allowed here)."""
    cfg = default_config(duels=4, seed=5, turn_limit=8)
    one = run_selfplay(cfg, jobs=1)
    two = run_selfplay(cfg, jobs=2)
    assert [(d.status, d.turns, d.responses, d.winner) for d in one.duels] == \
           [(d.status, d.turns, d.responses, d.winner) for d in two.duels]
    assert one.count("engine_error") == 0
    assert all(d.status in ("win", "turn_cap", "script_error") for d in one.duels)
    text = one.to_text()
    assert f"finished: {one.completed}/4" in text and "responses/s" in text
    data = one.to_json()
    assert data["summary"]["duels"] == 4 and data["summary"]["engine_error"] == 0
    assert {d["index"] for d in data["duels"]} == {0, 1, 2, 3}
    # --only replays one duel of the run exactly
    only = run_selfplay(default_config(duels=4, seed=5, turn_limit=8, only=[2]), jobs=1)
    assert (only.duels[0].status, only.duels[0].responses) == (one.duels[2].status, one.duels[2].responses)


def test_selfplay_with_the_rules_decks_finishes_cleanly():
    cfg = default_config(duels=4, seed=3, turn_limit=10,
                         decks=[REPO / "cards" / "rules_a.ydk", REPO / "cards" / "rules_b.ydk"])
    res = run_selfplay(cfg, jobs=1)
    assert res.completed == 4 and res.exit_code == 0
    assert res.responses == sum(d.responses for d in res.duels) > 0


def test_selfplay_groups_script_errors_with_the_card():
    """The bundled Cracked Lantern (190004010) fails on purpose when it resolves."""
    from duelhost.selfplay import DuelReport, ErrorInfo, SelfplayResult
    cfg = default_config(duels=0)
    err = ErrorInfo(kind="script", cause="error: attempt to index a nil value (local 'tc') at c190004010.lua:21",
                    message="./script/c190004010.lua:21: attempt to index a nil value (local 'tc')",
                    card_code=190004010, card_name="Cracked Lantern", traceback="stack traceback: ...")
    duels = [DuelReport(index=i, seed=i, decks=("a", "b"), status="script_error", error=err) for i in range(2)]
    res = SelfplayResult(config=cfg, duels=duels, wall_seconds=1.0, jobs=1)
    text = res.to_text()
    assert "stopped by a script error: 2" in text
    assert "[2 duel(s)] error: attempt to index a nil value" in text and "190004010 (Cracked Lantern)" in text
    assert res.to_json()["errors"]["script"][0]["cards"] == [190004010]


def test_selfplay_command_with_deck_files(tmp_path: Path):
    from duelhost.cli import main
    out = tmp_path / "report.json"
    res = CliRunner().invoke(main, ["selfplay", "--duels", "3", "--seed", "1", "--turn-limit", "6",
                                    "--deck", str(REPO / "cards" / "rules_a.ydk"),
                                    "--deck", str(REPO / "cards" / "rules_b.ydk"),
                                    "--report", "json", "-o", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "finished: 3/3" in res.output
    data = json.loads(out.read_text())
    assert [d["decks"] for d in data["duels"]] == [["rules_a.ydk", "rules_b.ydk"], ["rules_b.ydk", "rules_a.ydk"],
                                                  ["rules_a.ydk", "rules_b.ydk"]]


def test_selfplay_reports_an_engine_error_with_its_cause(monkeypatch: pytest.MonkeyPatch):
    """A Python exception inside the engine stops the duel and is grouped by cause."""
    from duelhost.engine.duel import Duel as EngineDuel
    original = EngineDuel.draw

    def broken(self, *args, **kwargs):
        if self.infos.turn_id >= 2:
            raise RuntimeError("draw is broken")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(EngineDuel, "draw", broken)
    res = run_selfplay(default_config(duels=2, seed=1, turn_limit=6,
                                      decks=[REPO / "cards" / "demo_a.ydk"]), jobs=1)
    assert res.count("engine_error") == 2 and res.exit_code == 1
    groups = res.error_groups("engine")
    assert len(groups) == 1
    cause, items = groups[0]
    assert cause.startswith("RuntimeError: draw is broken at ") and "test_rules_selfplay.py" not in cause
    assert "Traceback" in items[0][1].traceback
    assert "Engine errors: 1 cause(s)" in res.to_text()


def test_selfplay_usage_errors():
    from duelhost.cli import main
    res = CliRunner().invoke(main, ["selfplay", "--duels", "1", "--scripts", str(REPO / "tools")])
    assert res.exit_code == 2 and "Main Deck cards with a script" in res.output
