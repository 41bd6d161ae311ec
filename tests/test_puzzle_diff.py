"""duelhost diff --puzzle: puzzle files played side by side in the reference core and ours.

The checks of the puzzle files (card codes, unreadable files) and the command's
usage errors need nothing; the side-by-side runs need the reference library
(OCGCORE_LIB) and use our own puzzle samples/two_blows.lua, made of
the bundled cards.  The native puzzle collection of the YGOPro client (its
``single/`` folder) lives outside the repository: DUELHOST_SINGLE_PUZZLES names
the folder, and that test also needs YGOPRO_SCRIPTS and the corpus database.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duelhost import paths
from duelhost.cli import main
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.messages import MsgAiName, MsgNewTurn, MsgReloadField, MsgShowHint
from duelhost.puzzle import PuzzleError
from duelhost.puzzle_diff import card_codes, puzzle_files, puzzle_problem, run_puzzle_diff

TWO_BLOWS = Path(__file__).resolve().parent.parent / "samples" / "two_blows.lua"


# ---- without the reference ---------------------------------------------------------------------


def test_card_codes_reads_the_add_card_calls() -> None:
    source = """
    Debug.AddCard(07459013,0,0,LOCATION_DECK,0,POS_FACEDOWN)   -- leading zero: decimal in Lua
    local c = Debug.AddCard( 0x10 , 1, 1, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    -- Debug.AddCard(11111111,0,0,LOCATION_HAND,0,POS_FACEDOWN)
    --[[ Debug.AddCard(22222222,0,0,LOCATION_HAND,0,POS_FACEDOWN) ]]
    Debug.AddCard(33333333,0,0,LOCATION_HAND,0,POS_FACEDOWN)
    """
    assert card_codes(source) == [7459013, 16, 33333333]


def test_puzzle_problem_names_missing_cards_and_unreadable_files(tmp_path: Path) -> None:
    db = CardDatabase.open(paths.bundled_db())
    assert puzzle_problem(TWO_BLOWS, db) is None
    missing = tmp_path / "missing.lua"
    missing.write_text(TWO_BLOWS.read_text() + "\nDebug.AddCard(99999991,0,0,LOCATION_HAND,0,POS_FACEDOWN)\n")
    assert puzzle_problem(missing, db) == "1 card(s) missing from the database: 99999991"
    assert puzzle_problem(tmp_path / "gone.lua", db).startswith("cannot be read")
    clash = tmp_path / "utility.lua"
    clash.write_text(TWO_BLOWS.read_text())
    assert puzzle_problem(clash, db, paths.bundled_scripts()).startswith("named like a file of the script folder")
    assert puzzle_problem(clash, db) is None


def test_puzzle_files_of_a_folder_in_name_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    for name in ("b/x.lua", "a.lua", "c.lua", "notes.txt"):
        (tmp_path / name).write_text("")
    assert [p.relative_to(tmp_path).as_posix() for p in puzzle_files(tmp_path)] == ["a.lua", "b/x.lua", "c.lua"]
    assert puzzle_files(TWO_BLOWS) == [TWO_BLOWS]


@pytest.mark.parametrize("extra", [["--tag"], ["--rule", "3"], ["--golden", str(TWO_BLOWS)]])
def test_puzzle_takes_no_mode_options(extra: list[str]) -> None:
    r = CliRunner().invoke(main, ["diff", "--puzzle", str(TWO_BLOWS), "--ref-lib", str(TWO_BLOWS), *extra])
    assert r.exit_code == 2 and "--puzzle takes no" in r.output


def test_puzzle_needs_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OCGCORE_LIB", raising=False)
    r = CliRunner().invoke(main, ["diff", "--puzzle", str(TWO_BLOWS)])
    assert r.exit_code == 2 and "needs the reference library" in r.output


# ---- side by side (OCGCORE_LIB) ----------------------------------------------------------------


def test_diff_puzzle_identical(ref_lib: Path) -> None:
    r = CliRunner().invoke(main, ["diff", "--puzzle", str(TWO_BLOWS), "--seeds", "3", "--ref-lib", str(ref_lib),
                                  "--report", "json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)
    assert (report["identical"], report["total"]) == (3, 3)
    assert [d["id"] for d in report["duels"]] == ["two_blows.lua@1", "two_blows.lua@2", "two_blows.lua@3"]
    assert {d["puzzle"] for d in report["duels"]} == {"two_blows.lua"} and report["solved"] == 0
    for d in report["duels"]:
        # the puzzle's board was built (MSG_RELOAD_FIELD ...) and the duel played to its end
        assert d["end"] == "win" and d["reference_messages"] > 5 and d["responses"] >= 1
    assert report["skipped_puzzles"] == []


def test_the_keen_player_solves_the_puzzle_in_both_cores(ref_lib: Path) -> None:
    """The keen player gets past the first moves: some runs end with player 0's win,
    identical in both cores; the uniform player ends the turn and loses on these seeds."""
    keen = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                           seeds=6, duel_timeout=None, player="keen")
    assert (keen.identical, keen.total) == (6, 6)
    assert keen.solved >= 1
    assert all(r.identical for r in keen.results if r.winner == 0)
    assert "keen player" in keen.source and f"solved (player 0 won): {keen.solved} of 6 runs" in keen.to_text()
    plain = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                            seeds=6, duel_timeout=None)
    assert (plain.identical, plain.total) == (6, 6)
    assert plain.solved < keen.solved


def test_a_puzzle_run_past_its_deadline_is_killed_and_the_next_runs_go_on(ref_lib: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run is an item of the execution layer (duelhost.execution) with the per-run deadline:
    a run that is late is a ``timeout`` result with the progress it wrote, the next seed runs."""
    import time

    from duelhost import puzzle_diff

    real = puzzle_diff._play_one

    def slow_first_seed(*args, **kwargs):        # seed 1 hangs, as an endless script would
        if args[4] == 1:
            time.sleep(30)
        return real(*args, **kwargs)
    monkeypatch.setattr(puzzle_diff, "_play_one", slow_first_seed)
    got = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                          seeds=2, duel_timeout=3)
    assert [(r.id, r.status) for r in got.results] == [("two_blows.lua@1", "timeout"), ("two_blows.lua@2", "identical")]
    assert "took longer than 3 s" in got.results[0].error and got.results[0].seconds >= 3


def test_a_puzzle_run_sends_its_worker_a_small_item(ref_lib: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card pool and the cores are inherited by the forked worker; what goes through the
    pipe per run is the file, the seed and a few settings (a whole card pool per run made a
    native-collection run four times slower)."""
    import pickle

    from duelhost import puzzle_diff

    sizes: list[int] = []
    real = puzzle_diff.execute

    def measuring(work, items, backend, **kw):      # type: ignore[no-untyped-def]
        sizes.extend(len(pickle.dumps(item)) for item in items)
        return real(work, items, backend, **kw)
    monkeypatch.setattr(puzzle_diff, "execute", measuring)
    got = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(), seeds=2)
    assert [r.status for r in got.results] == ["identical", "identical"]
    assert len(sizes) == 2 and max(sizes) < 2000, sizes


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "puzzles"
    folder.mkdir()
    shutil.copy(TWO_BLOWS, folder / "two_blows.lua")
    (folder / "broken.lua").write_text("Debug.ReloadFieldBegin(DUEL_SIMPLE_AI, 5\n")      # does not parse
    (folder / "missing.lua").write_text(
        TWO_BLOWS.read_text().replace("190000021", "99999991"))                     # no database row
    (folder / "edopro.lua").write_text("Debug.ReloadFieldBegin(DUEL_SIMPLE_AI, 5)\n"
                                       "Duel.LoadScript('proc_rush.lua')\n")          # not the reference's
    (folder / "indirect.lua").write_text(                                       # a computed code
        TWO_BLOWS.read_text().replace("Debug.AddCard(190000021", "local c = 99999900 + 92\nDebug.AddCard(c"))
    return folder


def test_diff_puzzle_folder_reports_bad_puzzles_and_goes_on(ref_lib: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["diff", "--puzzle", str(_folder(tmp_path)), "--seeds", "2",
                                  "--ref-lib", str(ref_lib)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    skipped = [ln for ln in lines if ln.startswith("skipped puzzle ")]
    assert len(skipped) == 4, r.output
    assert skipped[0].startswith("skipped puzzle missing.lua: 1 card(s) missing from the database: 99999991")
    broken = next(ln for ln in skipped if ln.startswith("skipped puzzle broken.lua:"))
    assert "does not run in the reference either" in broken and "duelhost:" in broken
    edo = next(ln for ln in skipped if ln.startswith("skipped puzzle edopro.lua:"))
    assert "does not run in the reference either" in edo and "LoadScript" in edo
    assert "two_blows.lua@1: identical" in r.output and "two_blows.lua@2: identical" in r.output
    assert "skipped puzzle indirect.lua: 1 card(s) missing from the database: 99999992" in skipped
    assert "2 / 2 puzzle runs identical" in r.output and "4 puzzle(s) left out" in r.output


def test_nothing_compared_is_no_success(ref_lib: Path, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "two_blows.lua").unlink()
    r = CliRunner().invoke(main, ["diff", "--puzzle", str(folder), "--ref-lib", str(ref_lib)])
    assert r.exit_code == 1 and "0 / 0 puzzle runs identical" in r.output and "4 puzzle(s) left out" in r.output


def test_a_folder_without_puzzles_is_bad_input(ref_lib: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["diff", "--puzzle", str(tmp_path), "--ref-lib", str(ref_lib)])
    assert r.exit_code == 2 and "no .lua puzzle files" in r.output


def _one_more_hint_in_ours(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Our side runs a second Lua file after each puzzle: one Debug.ShowHint the reference
    never writes."""
    import duelhost.puzzle_diff as pd
    extra = tmp_path / "extra" / "only_ours.lua"
    extra.parent.mkdir()
    extra.write_text('Debug.ShowHint("only in duelhost")\n')
    original = pd.run_lua_file

    def run_both(host: Any, path: Path) -> None:
        original(host, path)
        original(host, extra)
    monkeypatch.setattr(pd, "run_lua_file", run_both)


def test_a_divergence_names_the_puzzle_response_and_message(ref_lib: Path, monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    """Our core writes one message more at the end of the puzzle's set-up: the report gives
    the puzzle run, the message index, the responses sent and both messages."""
    _one_more_hint_in_ours(monkeypatch, tmp_path)
    s = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                        seeds=1, duel_timeout=None)
    assert (s.identical, s.total) == (0, 1)
    r = s.results[0]
    assert r.id == "two_blows.lua@1" and r.status == "diverged"
    d = r.divergence
    assert d.response == 0 and "only in duelhost" in d.ours.describe()
    assert isinstance(d.reference, MsgNewTurn)                           # the reference starts the duel
    assert [type(m) for m in d.context] == [MsgAiName, MsgReloadField, MsgShowHint]   # the set-up agreed
    text = s.to_text()
    assert "two_blows.lua@1: differs at message" in text and "after 0 responses" in text


def test_a_divergent_run_saved_as_a_single_mode_replay_diverges_again(
        ref_lib: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from duelhost.replay import read_replay
    from duelhost.replay_diff import diff_replay
    _one_more_hint_in_ours(monkeypatch, tmp_path)
    saved = tmp_path / "saved"
    s = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                        seeds=1, duel_timeout=None, save_dir=saved)
    assert [p.name for p in saved.iterdir()] == ["two_blows@1.yrp"]
    rep = read_replay(saved / "two_blows@1.yrp")
    assert rep.is_single and rep.script_name == "two_blows.lua"
    again = diff_replay(rep, ref_lib, CardDatabase.open(paths.bundled_db()), paths.bundled_scripts(),
                        puzzle_dir=TWO_BLOWS.parent)
    assert again.status == "diverged" and again.divergence.index == s.results[0].divergence.index


def test_a_puzzle_run_replays_identically_from_its_single_mode_replay(ref_lib: Path, tmp_path: Path) -> None:
    """replay --diff of a single-mode replay: the puzzle preloaded in both cores, the recorded
    answers fed to both -- the same stream as the puzzle run that made it."""
    from duelhost.puzzle_diff import puzzle_replay
    from duelhost.replay import write_replay
    s = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                        seeds=1, first_seed=2, duel_timeout=None, player="keen")
    run = s.results[0]
    assert run.identical and run.responses >= 3
    path = write_replay(puzzle_replay(run, TWO_BLOWS.name), tmp_path / "run.yrp")
    r = CliRunner().invoke(main, ["replay", str(path), "--diff", "--puzzles", str(TWO_BLOWS.parent),
                                  "--ref-lib", str(ref_lib)])
    assert r.exit_code == 0, r.output
    assert f"identical to the reference ({run.messages} messages, {run.responses} responses)" in r.output
    missing = CliRunner().invoke(main, ["replay", str(path), "--diff", "--ref-lib", str(ref_lib)])
    assert missing.exit_code == 2 and "puzzle script 'two_blows.lua' not found" in missing.output


def test_a_puzzle_that_loads_in_the_reference_only_is_a_divergence(ref_lib: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import duelhost.puzzle_diff as pd

    def fail(host, path):
        raise PuzzleError(f"puzzle {path}: simulated failure")
    monkeypatch.setattr(pd, "run_lua_file", fail)
    s = run_puzzle_diff(ref_lib, TWO_BLOWS, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                        seeds=2, duel_timeout=None)
    assert (s.identical, s.total) == (0, 2) and not s.problems
    assert all(r.status == "error" and "runs in the reference but not in duelhost: simulated failure" in r.error
               for r in s.results)


# ---- the native collection (DUELHOST_SINGLE_PUZZLES) --------------------------------------------


@pytest.fixture(scope="module")
def single_puzzles() -> Path:
    value = os.environ.get("DUELHOST_SINGLE_PUZZLES")
    if not value:
        pytest.skip("DUELHOST_SINGLE_PUZZLES is not set (the single/ folder of a YGOPro client)")
    folder = Path(value)
    if not folder.is_dir():
        pytest.skip(f"no puzzle folder at {folder} (DUELHOST_SINGLE_PUZZLES)")
    return folder


@pytest.mark.parametrize("player", ["random", "keen"])
def test_native_puzzles_identical(ref_lib: Path, real_scripts: Path, corpus_db: Path,
                                  single_puzzles: Path, player: str) -> None:
    s = run_puzzle_diff(ref_lib, single_puzzles, db_path=corpus_db, scripts=real_scripts, seeds=1,
                        player=player)
    assert s.total >= 1
    assert not s.problems, s.problems
    assert s.identical == s.total, s.to_text()


# ---- a divergence class found with a public replay -----------------------------------------------


@pytest.mark.parametrize("name", ["pow", "ldexp", "frexp", "cosh", "sinh", "tanh", "log10"])
def test_scripts_see_the_math_library_of_the_clients_lua(name: str) -> None:
    """The client builds Lua 5.4 from source without LUA_COMPAT_5_3, so math.pow and the other
    5.2 math functions are nil there, as here.  A reference built on a distribution's liblua5.4
    (Debian's has LUA_COMPAT_5_3) has them: a 2018 replay whose Mekk-Knight script calls
    math.pow diverged only for that reason (docs/reference.md, "Measured for issue 12")."""
    from duelhost.bindings.runtime import LuaSandbox, SandboxOptions
    sb = LuaSandbox(SandboxOptions(time_budget=0.3, max_memory=32 << 20))
    fn = sb.lua.eval(f"function() return math.{name} == nil, math.floor ~= nil end")
    assert sb.call(True, fn) == (True, True, True)
