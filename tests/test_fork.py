"""Issue 15: Duel.fork(), snapshot()/restore() and pickling (duelhost/fork.py).

Random duels (our bundled rules decks with Tally Keeper added; real decks when
YGOPRO_SCRIPTS is set) are forked at random decision points; both branches are
played on with different seeded random answers and each branch's message bytes
must be exactly those of a fresh duel fed the same answers from the start.
Tally Keeper (cards/fork.toml, scripts/c190005001.lua) keeps an effect label, a
flag effect and a global Lua table; the LP it gives depends on all three, so a
fork that lost any of them writes other bytes.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from duelhost import Duel
from duelhost.engine import constants as C
from duelhost.engine.messages import MsgAnnounceCard, MsgRecover, MsgRetry, MsgSelectIdleCmd
from duelhost.engine.responses import IdleCmdResponse, random_response
from duelhost.engine.card_effects import flag_effect_code
from duelhost.engine.ydk import read_ydk
from duelhost.fork import DuelSnapshot, ForkError, load_puzzle

REPO = Path(__file__).resolve().parent.parent
TALLY = 190005001
FILLER = 190000001
RULES_A = read_ydk(REPO / "cards" / "rules_a.ydk")
RULES_B = read_ydk(REPO / "cards" / "rules_b.ydk")
DECK_A = list(RULES_A.main[6:]) + [TALLY] * 6         # Tally Keeper in every random duel
DECK_B = list(RULES_B.main[6:]) + [TALLY] * 6


# ----- helpers ----------------------------------------------------------------------------------

def bundled_duel(seed: int) -> Duel:
    duel = Duel(seed=seed)
    duel.add_deck(0, DECK_A, RULES_A.extra, shuffle=True)
    duel.add_deck(1, DECK_B, RULES_B.extra, shuffle=True)
    duel.start()
    return duel


def play(duel: Duel, rng: random.Random, count: int) -> None:
    """Up to ``count`` seeded random legal answers (fewer when the duel ends)."""
    pool = None
    for _ in range(count):
        req = duel.advance()
        if req is None:
            return
        if isinstance(req, MsgAnnounceCard) and pool is None:
            pool = list(duel.db)
        duel.respond(random_response(req, rng, card_pool=pool if isinstance(req, MsgAnnounceCard) else None))


def fresh_bytes(make: Any, answers: tuple[bytes, ...]) -> bytes:
    """The message bytes of a new duel fed ``answers`` from the start (checked answers)."""
    duel = make()
    duel.advance()
    for raw in answers:
        duel.respond(raw)
    out = duel.message_bytes()
    duel.close()
    return out


def branch_check(make: Any, seed: int, *, first: int, then: int) -> None:
    rng = random.Random(seed)
    original = make()
    play(original, rng, rng.randint(0, first))
    if original.finished:
        pytest.skip("the duel ended before the fork point")
    point = original.snapshot()
    fork = original.fork()
    assert fork.message_bytes() == original.message_bytes()
    assert fork.request == original.request and fork.responses == original.responses
    play(original, random.Random(seed * 2 + 1), then)
    play(fork, random.Random(seed * 2 + 2), then)
    a, b = original.snapshot().answers, fork.snapshot().answers
    assert a[:len(point.answers)] == b[:len(point.answers)] == point.answers
    if len(a) > len(point.answers) + 20 and len(b) > len(point.answers) + 20:
        assert a != b, "the two branches were meant to be answered differently"
    assert original.message_bytes() == fresh_bytes(make, a)
    assert fork.message_bytes() == fresh_bytes(make, b)
    fork.close()
    original.close()


# ----- branches against fresh duels ---------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_both_branches_of_a_fork_write_what_a_fresh_duel_writes(seed: int) -> None:
    branch_check(lambda: bundled_duel(seed), seed, first=250, then=200)


def test_a_fork_of_a_fork_and_the_original_unchanged() -> None:
    duel = bundled_duel(11)
    play(duel, random.Random(11), 80)
    before, snap = duel.message_bytes(), duel.snapshot()
    rng_state = duel.engine.random.getstate()
    f1 = duel.fork()
    play(f1, random.Random(1), 60)
    f2 = f1.fork()
    play(f2, random.Random(2), 60)
    play(f1, random.Random(3), 60)
    # the forks' play changed nothing in the original
    assert duel.message_bytes() == before and duel.snapshot() == snap
    assert duel.engine.random.getstate() == rng_state
    # ... which goes on as a duel that was never forked
    play(duel, random.Random(4), 100)
    assert duel.message_bytes() == fresh_bytes(lambda: bundled_duel(11), duel.snapshot().answers)
    assert f2.message_bytes() == fresh_bytes(lambda: bundled_duel(11), f2.snapshot().answers)


def test_forks_share_no_mutable_state() -> None:
    duel = bundled_duel(12)
    play(duel, random.Random(12), 40)
    fork = duel.fork()
    assert fork.engine is not duel.engine and fork.script_host is not duel.script_host
    assert fork.script_host.sandbox.lua is not duel.script_host.sandbox.lua
    assert fork.messages is not duel.messages and fork.driver.answers is not duel.driver.answers
    assert fork.request is not duel.request and fork.request == duel.request
    ours = {id(c) for c in duel.engine.cards}
    assert not ours & {id(c) for c in fork.engine.cards}
    fork.engine.player[0].lp = 1          # behind the fork's back: the original does not see it
    assert duel.lp(0) != 1


def test_a_fork_before_the_start_shuffles_alike() -> None:
    a = Duel(seed=5)
    a.add_deck(0, DECK_A, shuffle=True)
    b = a.fork()
    for d in (a, b):
        d.add_deck(1, DECK_B, shuffle=True)    # the set-up generator is carried over
        d.start()
        d.advance()
    assert [c.data.code for c in a.engine.player[1].list_main] == \
        [c.data.code for c in b.engine.player[1].list_main]
    assert a.message_bytes() == b.message_bytes()


def test_a_tag_duel_forks_like_any_other() -> None:
    def make() -> Duel:
        duel = Duel(seed=7, options=(5 << 16) | C.DUEL_TAG_MODE)
        for seat, (main, extra) in enumerate([(DECK_A, RULES_A.extra), (DECK_B, RULES_B.extra),
                                              (DECK_B, RULES_B.extra), (DECK_A, RULES_A.extra)]):
            (duel.add_deck if seat < 2 else duel.add_tag_deck)(seat % 2, main, extra, shuffle=True)
        duel.start()
        return duel
    branch_check(make, 7, first=300, then=200)


def test_refused_raw_answers_are_replayed_too() -> None:
    duel = bundled_duel(13)
    play(duel, random.Random(13), 30)
    while not isinstance(duel.advance(), MsgSelectIdleCmd):
        play(duel, random.Random(13), 1)
    mark = len(duel.messages)
    duel.respond_raw((99).to_bytes(4, "little"))       # no command 99: MSG_RETRY, asked again
    assert any(isinstance(m, MsgRetry) for m in duel.messages[mark:])
    fork = duel.fork()
    assert fork.message_bytes() == duel.message_bytes() and fork.request == duel.request
    play(fork, random.Random(1), 50)
    play(duel, random.Random(1), 50)
    assert fork.message_bytes() == duel.message_bytes()


# ----- the scripts' own state ---------------------------------------------------------------------

def tally_duel() -> Duel:
    duel = Duel(seed=1)
    duel.add_deck(0, [TALLY] * 20)
    duel.add_deck(1, [FILLER] * 20)
    duel.start()
    return duel


def tally_policy(req: Any) -> Any:
    """Player 0 activates Tally Keeper whenever it can, else summons, else ends the turn."""
    if isinstance(req, MsgSelectIdleCmd):
        if req.player == 0:
            for i, c in enumerate(req.activatable):
                if c.code == TALLY:
                    return IdleCmdResponse(command=5, index=i)
            if req.summonable:
                return IdleCmdResponse(command=0, index=0)
        return IdleCmdResponse(command=7, index=0)
    return random_response(req, random.Random(0))


def play_until_turn(duel: Duel, turn: int) -> None:
    while (req := duel.advance()) is not None and duel.turn < turn:
        duel.respond(tally_policy(req))


def recovers(duel: Duel, start: int = 0) -> list[int]:
    return [m.amount for m in duel.messages[start:] if isinstance(m, MsgRecover)]


CONTAINERS = ("single_effect", "field_effect", "equip_effect", "target_effect", "xmaterial_effect")


def effect_state(duel: Duel) -> list[Any]:
    """Every card's effects with their labels and counts left (flag effects are single
    effects of the card): what scripts set with e:SetLabel and c:RegisterFlagEffect."""
    return [(c.cardid, c.data.code, c.current.location, c.current.sequence,
             [(name, e.code, tuple(e.label), e.count_limit, e.reset_count)
              for name in CONTAINERS for e in getattr(c, name).all_effects()])
            for c in duel.engine.cards]


def tally(duel: Duel) -> tuple[list[tuple[int, ...]], list[int], tuple[int, int]]:
    """Tally Keeper's script state: its effects' labels, its flag counts, the global ledger."""
    labels, flags = [], []
    for c in duel.engine.cards:
        if c.data.code == TALLY and c.current.location == C.LOCATION_MZONE:
            labels.extend(tuple(e.label) for e in c.single_effect.all_effects() + c.field_effect.all_effects()
                          if e.type & C.EFFECT_TYPE_IGNITION)
            flags.append(c.get_flag_effect(flag_effect_code(TALLY)))
    ledger = duel.script_host.sandbox.lua.eval("TallyLedger")
    return labels, flags, (ledger[0], ledger[1])


def test_script_state_is_carried_into_the_fork() -> None:
    duel = tally_duel()
    play_until_turn(duel, 4)
    # turn 1: 1x100 + 1 flag x10 + ledger 1; turn 3: 222, and a second copy 113
    assert recovers(duel) == [111, 222, 113]
    labels, flags, ledger = tally(duel)
    assert sorted(labels) == [(1,), (2,)] and sorted(flags) == [1, 2] and ledger == (3, 0)
    fork = duel.fork()
    assert tally(fork) == tally(duel)
    assert effect_state(fork) == effect_state(duel)
    mark = len(duel.messages)
    play_until_turn(duel, 6)
    play_until_turn(fork, 6)
    # turn 5 uses the carried label, flags and ledger: 3x100+3x10+4, 2x100+2x10+5, a third copy 116
    assert recovers(duel, mark) == recovers(fork, mark) == [334, 225, 116]
    assert fork.message_bytes() == duel.message_bytes()
    # the fork's own use does not reach the original
    other = duel.fork()
    play_until_turn(other, 8)
    assert tally(duel)[2] == (6, 0) and tally(other)[2][0] > 6


def test_a_fork_without_the_script_state_would_differ() -> None:
    """The check above can fail: a duel whose global table was reset writes other amounts."""
    duel = tally_duel()
    play_until_turn(duel, 4)
    fork = duel.fork()
    fork.script_host.sandbox.lua.execute("TallyLedger[0] = 0")
    mark = len(duel.messages)
    play_until_turn(duel, 6)
    play_until_turn(fork, 6)
    assert recovers(duel, mark) != recovers(fork, mark)


# ----- snapshots, restore, pickle -----------------------------------------------------------------

def test_snapshot_restore_back_and_forth() -> None:
    duel = bundled_duel(21)
    play(duel, random.Random(1), 50)
    s1, b1 = duel.snapshot(), duel.message_bytes()
    play(duel, random.Random(2), 70)
    s2, b2 = duel.snapshot(), duel.message_bytes()
    assert s2.extends(s1) and not s1.extends(s2)
    duel.restore(s1)                                   # back: rebuilt
    assert duel.message_bytes() == b1 and duel.snapshot() == s1
    play(duel, random.Random(3), 40)                   # another line from s1
    s3 = duel.snapshot()
    assert not s3.extends(s2)
    duel.restore(s2)                                   # across to the first line
    assert duel.message_bytes() == b2
    duel.restore(s1)
    engine = duel.engine
    duel.restore(s3)                                   # forward along the line: in place
    assert duel.engine is engine
    assert duel.message_bytes() == fresh_bytes(lambda: bundled_duel(21), s3.answers)


def test_restoring_another_duels_snapshot_is_refused_and_changes_nothing() -> None:
    duel, other = bundled_duel(22), bundled_duel(23)
    play(duel, random.Random(1), 30)
    play(other, random.Random(1), 30)
    before = duel.message_bytes()
    with pytest.raises(ForkError, match="another duel.*seed"):
        duel.restore(other.snapshot())
    with pytest.raises(ForkError, match="not a duel snapshot"):
        duel.restore("turn 3")           # type: ignore[arg-type]
    assert duel.message_bytes() == before
    play(duel, random.Random(2), 30)
    assert duel.message_bytes() == fresh_bytes(lambda: bundled_duel(22), duel.snapshot().answers)


def test_pickle_round_trips() -> None:
    duel = bundled_duel(31)
    play(duel, random.Random(31), 90)
    snap = duel.snapshot()
    data = pickle.dumps(snap)
    assert len(data) < 20_000                         # set-up and answers, no engine state
    back = pickle.loads(data)
    assert isinstance(back, DuelSnapshot) and back == snap
    rebuilt = Duel.from_snapshot(back)
    assert rebuilt.message_bytes() == duel.message_bytes() and rebuilt.request == duel.request
    whole = pickle.loads(pickle.dumps(duel))           # a Duel pickles as its snapshot
    copied = copy.deepcopy(duel)
    for d in (whole, copied):
        assert d.message_bytes() == duel.message_bytes()
        play(d, random.Random(5), 60)
    play(duel, random.Random(5), 60)
    assert whole.message_bytes() == copied.message_bytes() == duel.message_bytes()


def test_a_snapshot_is_rebuilt_in_a_worker_process() -> None:
    import concurrent.futures
    import multiprocessing
    duel = bundled_duel(32)
    play(duel, random.Random(32), 60)
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        worker_bytes = pool.submit(_rebuild_and_play, duel.snapshot(), 7).result(timeout=120)
    play(duel, random.Random(7), 40)
    assert worker_bytes == duel.message_bytes()


def _rebuild_and_play(snapshot: DuelSnapshot, seed: int) -> bytes:
    duel = Duel.from_snapshot(snapshot)
    play(duel, random.Random(seed), 40)
    return duel.message_bytes()


# ----- what cannot be forked ----------------------------------------------------------------------

def test_forking_a_finished_duel_is_refused() -> None:
    duel = Duel(seed=1)
    duel.add_deck(0, [FILLER] * 5)
    duel.add_deck(1, [FILLER] * 5)
    duel.start()
    play(duel, random.Random(1), 2000)
    assert duel.finished
    before = duel.message_bytes()
    with pytest.raises(ForkError, match="ended"):
        duel.fork()
    assert duel.message_bytes() == before
    assert Duel.from_snapshot(duel.snapshot()).message_bytes() == before   # a snapshot still works


def test_a_scenario_duel_cannot_be_forked() -> None:
    from duelhost.testing.scenario import Scenario
    sc = Scenario()
    sc.hand(FILLER)
    sc.start()
    with pytest.raises(ForkError, match="Scenario"):
        sc.host.fork()


def test_a_puzzle_loaded_behind_the_hosts_back_is_refused_and_the_forkable_loader_works() -> None:
    from duelhost.puzzle import load_puzzle as plain_load
    puzzle = REPO / "samples" / "two_blows.lua"
    duel = plain_load(puzzle)
    duel.advance()
    with pytest.raises(ForkError, match="duelhost.fork.load_puzzle"):
        duel.fork()
    duel = load_puzzle(puzzle)
    duel.advance()
    fork = duel.fork()
    assert fork.message_bytes() == duel.message_bytes()
    assert {c.data.code for c in fork.engine.cards} == {c.data.code for c in duel.engine.cards}


def test_a_duel_changed_through_its_engine_is_refused() -> None:
    duel = bundled_duel(41)
    play(duel, random.Random(41), 20)
    duel.engine.get_next_integer(0, 9)                # a draw the answers do not explain
    with pytest.raises(ForkError, match="does not match the original"):
        duel.fork()


# ----- real decks ---------------------------------------------------------------------------------

def _real_decks(real_scripts: Path, corpus_db: Path) -> tuple[Any, list[Any]]:
    from duelhost.deckpool import read_deck_folder
    from duelhost.fork import open_db
    folder = REPO.parent / "shared" / "decks"
    if not folder.is_dir():
        pytest.skip(f"no deck folder {folder}")
    db = open_db(str(corpus_db))
    decks = [d for d in read_deck_folder(folder, db) if d.problem is None]
    if len(decks) < 2:
        pytest.skip(f"fewer than two playable decks in {folder}")
    return db, decks


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_real_deck_branches_match_fresh_duels(seed: int, real_scripts: Path, corpus_db: Path) -> None:
    db, decks = _real_decks(real_scripts, corpus_db)
    a, b = random.Random(seed).sample(range(len(decks)), 2)

    def make() -> Duel:
        duel = Duel(db=db, scripts=real_scripts, seed=seed)
        duel.add_deck(0, decks[a].main, decks[a].extra, shuffle=True)
        duel.add_deck(1, decks[b].main, decks[b].extra, shuffle=True)
        duel.start()
        return duel

    branch_check(make, seed, first=600, then=400)


def test_real_scripts_state_in_a_fork(real_scripts: Path, corpus_db: Path) -> None:
    """A real-deck duel played long enough that scripts set labels and flags: every
    effect's label and every card's flag effects are the same in the fork."""
    db, decks = _real_decks(real_scripts, corpus_db)
    duel = Duel(db=db, scripts=real_scripts, seed=9)
    duel.add_deck(0, decks[0].main, decks[0].extra, shuffle=True)
    duel.add_deck(1, decks[1].main, decks[1].extra, shuffle=True)
    duel.start()
    play(duel, random.Random(9), 250)
    if duel.finished:
        pytest.skip("the duel ended early")
    fork = duel.fork()
    state = effect_state(duel)
    assert any(labels for *_, effects in state for (_, _, labels, _, _) in effects), "no script set a label"
    assert effect_state(fork) == state
    play(duel, random.Random(10), 100)
    play(fork, random.Random(10), 100)
    assert fork.message_bytes() == duel.message_bytes()


if os.environ.get("DUELHOST_FORK_SOAK"):
    @pytest.mark.parametrize("seed", range(100, 140))
    def test_soak(seed: int) -> None:
        branch_check(lambda: bundled_duel(seed), seed, first=400, then=300)


def test_the_combo_search_example_solves_the_bundled_puzzle() -> None:
    """examples/combo_search.py: a depth-limited search with fork() finds a winning line,
    and that line played from a fresh load of the puzzle wins."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("combo_search", REPO / "examples" / "combo_search.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    import sys
    sys.modules["combo_search"] = mod          # (its dataclass looks its module up)
    try:
        spec.loader.exec_module(mod)
    finally:
        del sys.modules["combo_search"]
    puzzle = REPO / "samples" / "two_blows.lua"
    start = load_puzzle(puzzle)
    before = start.message_bytes()
    result = mod.search(start, 8)
    assert result.line is not None and result.positions > 0
    assert any(step.startswith("attack with") for step in result.line)
    assert start.message_bytes() == before                # the search played forks only
    replay = load_puzzle(puzzle)
    replay.advance()
    for raw in result.answers:
        replay.respond(raw)
    win = replay.win()
    assert replay.finished and win is not None and win.player == 0 and replay.lp(1) <= 0
    shallow = mod.search(load_puzzle(puzzle), 2)          # too shallow: the puzzle needs a summon and attacks
    assert shallow.line is None
