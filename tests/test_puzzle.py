"""duelhost puzzle: puzzle files run the way the reference client's single mode runs them.

The bundled tests use tests/data/puzzles (our own puzzle, bundled cards).  With
YGOPRO_SCRIPTS set, real puzzle files from a public collection are played too;
they live outside the repository: DUELHOST_PUZZLES names the folder (a
checkout of ProjectIgnis/Puzzles); without it those tests are skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from duelhost import RandomPlayer
from duelhost.cli import main
from duelhost.engine import constants as C
from duelhost.engine.messages import MsgReloadField
from duelhost.play import PlaySession, Question
from duelhost.puzzle import PuzzleError, load_puzzle, play_puzzle, puzzle_texts

DATA = Path(__file__).resolve().parent / "data" / "puzzles"
TWO_BLOWS = Path(__file__).resolve().parent.parent / "samples" / "two_blows.lua"   # the README's sample


def solve(session: PlaySession, steps: list[str]) -> None:
    """Answer each question with the option whose label contains the step's text
    (``=text`` types the text itself); fail if the duel asks something else."""
    for step in steps:
        q = session.next_question()
        assert q is not None, f"the duel ended before {step!r}: {session.result_text()}"
        session.answer(q, step[1:] if step.startswith("=") else str(_key(q, step)))


def _key(q: Question, text: str) -> int:
    for c in q.choices:
        if text.lower() in c.label.lower():
            return c.key
    raise AssertionError(f"no option {text!r} in:\n{q.render()}")


# ---- our own puzzle ----------------------------------------------------------------------------


def test_the_puzzle_builds_its_board() -> None:
    duel = load_puzzle(TWO_BLOWS)
    eng = duel.engine
    assert duel.lp(0) == 100 and duel.lp(1) == 1700
    assert [duel.card_name(c.data.code) for c in eng.player[0].list_hand] == ["Cinderwood Coal Raptor"]
    hound = eng.player[0].list_mzone[1]
    assert hound.data.code == 190000008 and hound.current.position == C.POS_FACEUP_ATTACK
    assert hound.summon_info & 0xFFFF0000 == C.SUMMON_TYPE_NORMAL & 0xFFFF0000
    assert eng.player[0].list_mzone[3].counters == {0x1: 1}                 # Debug.PreAddCounter
    assert eng.player[1].list_mzone[2].current.position == C.POS_FACEUP_DEFENSE
    assert eng.core.duel_options & C.DUEL_SIMPLE_AI and eng.core.duel_rule == 5
    assert any(isinstance(m, MsgReloadField) for m in duel.messages)
    ai, hints = puzzle_texts(duel)
    assert ai == "Tidehollow Keeper" and hints == ("Win this turn!", "puzzle loaded")


def test_the_puzzle_solved() -> None:
    duel = load_puzzle(TWO_BLOWS)
    session = PlaySession(duel, ["human", "human"], viewer=0)
    solve(session, ["Normal Summon Cinderwood Coal Raptor", "your M1", "Battle Phase",
                    "Attack with Cinderwood Coal Raptor", "Storm Petrel", "Attack with Cinderwood Ashen Hound"])
    assert session.next_question() is None
    win = duel.win()
    assert win is not None and win.player == 0 and duel.lp(1) == 0


def test_the_puzzle_failed_when_the_turn_ends() -> None:
    duel = load_puzzle(TWO_BLOWS)
    session = PlaySession(duel, ["human", "human"], viewer=0)
    solve(session, ["End the turn"])
    assert session.next_question() is None
    win = duel.win()
    assert win is not None and win.player == 1 and duel.lp(0) == 0        # aux.BeginPuzzle's end of turn
    log = "\n".join(session.take_log())
    assert "-- Draw Phase" not in log                                      # skipped (EFFECT_SKIP_DP)


def test_random_player_plays_the_puzzle_to_a_result() -> None:
    for seed in range(5):
        result = play_puzzle(load_puzzle(TWO_BLOWS, seed=seed), RandomPlayer(seed))
        assert result.outcome.finished and result.outcome.turns == 1
        assert result.ai_name == "Tidehollow Keeper" and not result.script_errors


def test_missing_and_broken_puzzles(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError, match="does not exist"):
        load_puzzle(tmp_path / "nope.lua")
    bad = tmp_path / "bad.lua"
    bad.write_text("Debug.ReloadFieldBegin(DUEL_ATTACK_FIRST_TURN)\nlocal x = nil + 1\n")
    with pytest.raises(PuzzleError, match=r"bad\.lua:2: attempt to perform arithmetic on a nil value"):
        load_puzzle(bad)


def test_a_dumped_board_runs_as_a_puzzle(tmp_path: Path) -> None:
    testing = pytest.importorskip("duelhost.testing.puzzle")
    from duelhost.testing.scenario import Scenario
    sc = Scenario()
    sc.add(190000008, to="monster", column=1)
    defender = sc.add(190002001, to="monster", column=3, position="defense")
    sc.add_counter(defender, 0x1, 1)
    sc.add(190000011, to="hand")
    sc.add(190000026, to="monster", player=1, column=2, position="defense")
    sc.set_lp(1, 1700)
    path = tmp_path / "dump.lua"
    path.write_text(testing.dump_puzzle(sc), encoding="utf-8")
    duel = load_puzzle(path)
    assert testing.board_signature(duel) == testing.board_signature(sc)
    assert play_puzzle(duel, RandomPlayer(1)).outcome.finished


def test_cli_puzzle_random_and_human() -> None:
    r = CliRunner().invoke(main, ["puzzle", str(TWO_BLOWS), "--player", "random", "--seed", "3"])
    assert r.exit_code in (0, 1), r.output
    assert "your opponent: Tidehollow Keeper" in r.output and "hint: Win this turn!" in r.output
    assert "message: puzzle loaded" in r.output
    assert ("won: LP reached 0" in r.output)
    steps = ["1", "1", "3", "1", "1", "1"]        # summon Raptor, M1, Battle Phase, attack, Petrel, Hound
    r = CliRunner().invoke(main, ["puzzle", str(TWO_BLOWS)], input="\n".join(steps) + "\n")
    assert r.exit_code == 0, r.output
    assert "You (P0) won: LP reached 0." in r.output


def test_cli_puzzle_load_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.lua"
    bad.write_text("error('broken puzzle')\n")
    r = CliRunner().invoke(main, ["puzzle", str(bad)])
    assert r.exit_code == 2 and "broken puzzle" in r.output


# ---- real puzzles (YGOPRO_SCRIPTS) ----------------------------------------------------------


@pytest.fixture(scope="module")
def real_puzzles() -> Path:
    value = os.environ.get("DUELHOST_PUZZLES")
    if not value:
        pytest.skip("DUELHOST_PUZZLES is not set (a checkout of ProjectIgnis/Puzzles)")
    folder = Path(value)
    if not folder.is_dir():
        pytest.skip(f"no puzzle collection at {folder} (DUELHOST_PUZZLES)")
    return folder


WCS = "World Championship"
REAL = [
    f"{WCS}/[WCS2006]01_Warriors of Darkness.lua",
    f"{WCS}/[WCS2006]10_Equip Power.lua",
    f"{WCS}/[WCS2006]13_The Elemental Hero.lua",
    f"{WCS}/[WCS2006]20_Beginning of the End.lua",
    f"{WCS}/[WCS2006]30_Trio of Sheep.lua",
]


@pytest.mark.parametrize("name", REAL)
def test_real_puzzle_plays_to_a_result(real_scripts: Path, corpus_db: Path, real_puzzles: Path,
                                       name: str) -> None:
    path = real_puzzles / name
    if not path.is_file():
        pytest.skip(f"{path} not found")
    for seed in (1, 2):
        duel = load_puzzle(path, scripts=real_scripts, db=corpus_db, seed=seed)
        result = play_puzzle(duel, RandomPlayer(seed))
        assert result.outcome.finished, result
        assert result.ai_name and result.hints
        assert not result.script_errors, result.script_errors


def test_real_puzzle_solved(real_scripts: Path, corpus_db: Path, real_puzzles: Path) -> None:
    """[WCS2006] 10 "Equip Power", solved with the solution written in the file."""
    path = real_puzzles / REAL[1]
    if not path.is_file():
        pytest.skip(f"{path} not found")
    duel = load_puzzle(path, scripts=real_scripts, db=corpus_db, seed=1)
    session = PlaySession(duel, ["human", "human"], viewer=0)
    solve(session, ["Normal Summon Gilford the Legend"])
    q = session.next_question()
    assert q is not None and "Tributes" in q.title                     # both Tributes at once
    session.answer(q, f"{_key(q, 'Gearfried')} {_key(q, 'Ben Kei')}")
    solve(session, ["your M1", "Yes",                                    # Gilford's trigger
                    "Divine Sword - Phoenix Blade", "Hayabusa Knight", "your S1",
                    "Fusion Sword Murasame Blade", "Hayabusa Knight", "your S3",
                    "Battle Phase", "Attack with Hayabusa Knight", "Despair from the Dark",
                    "Attack with Hayabusa Knight", "Attack with Gilford the Legend"])
    assert session.next_question() is None
    assert duel.win() is not None and duel.win().player == 0
