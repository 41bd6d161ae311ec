"""A new user's first hour: every command of the README's first steps, and every
command with no options, run as a user runs them (a subprocess of the installed
``duelhost``, the exit code, the first lines of what it prints)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PUZZLE_SOLUTION = "1\n1\n3\n1\n1\n1\n"        # the README's answer to samples/two_blows.lua


def _duelhost() -> list[str]:
    exe = Path(sys.executable).parent / "duelhost"
    if exe.is_file():
        return [str(exe)]
    return [sys.executable, "-c", "import sys; from duelhost.cli import main; sys.exit(main())"]


def run(args: list[str], *, cwd: Path = REPO, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("YGOPRO_SCRIPTS", "OCGCORE_LIB")}
    return subprocess.run(_duelhost() + args, cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=env)


def first_steps() -> list[str]:
    """The commands of the README's "First steps" block, comments stripped."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## First steps", 1)[1].split("\n## ", 1)[0]
    return [line.split("#", 1)[0].strip() for line in section.splitlines()
            if line.startswith("    duelhost ")]


def test_readme_setup_commands_are_the_ones_tested() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/pip install -e . && .venv/bin/duelhost check" in text
    assert ".venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest -q" in text
    assert first_steps()[:3] == ["duelhost check", "duelhost selfplay", "duelhost diff"]


@pytest.mark.parametrize("command", first_steps())
def test_readme_first_step(command: str, tmp_path: Path) -> None:
    args = shlex.split(command)[1:]
    (tmp_path / "samples").symlink_to(REPO / "samples")   # writes (--html) go to tmp_path
    stdin = PUZZLE_SOLUTION if args[0] == "puzzle" else "q\n" if args[0] == "play" else ""
    res = run(args, cwd=tmp_path, stdin=stdin)
    out = res.stdout.splitlines()
    expected_rc = 1 if args[0] == "play" else 0
    assert res.returncode == expected_rc, (command, res.stdout[-3000:], res.stderr[-3000:])
    assert "Traceback" not in res.stderr
    if args[0] == "check":
        # informational sections (a bundled card keeps a global table on purpose: the fork
        # tests) come before the summary; nothing in them is a failure heading
        assert any(ln.startswith("== duelhost check: ") for ln in out)
        assert not [ln for ln in out if ln.startswith("== failure")]
        assert out[-1] == "  result: OK"
        assert not [ln for ln in out if "note:" in ln]       # nothing reads like a fault
    elif args[0] == "selfplay":
        assert out[0].startswith("selfplay: 100 duels, seed 0")
        assert out[1] == "finished: 100/100 (100.0%) with no error"
    elif args[0] == "diff":
        assert out[-1].startswith("40 / 40 duels identical")
    elif args[0] == "replay":
        assert out[0] == "samples/demo.yrp: yrp2, flag 0x11, players Rules A / Rules B, 182 responses"
        assert out[1] == "samples/demo.yrp: finished: player 0 won: a card's effect (reason 0x51)"
        if "--html" in args:
            page = tmp_path / args[args.index("--html") + 1]
            assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    elif args[0] == "puzzle":
        assert out[0] == "duelhost puzzle -- two_blows.lua"
        assert out[-1] == "You (P0) won: LP reached 0."
    elif args[0] == "play":
        assert out[0].startswith("duelhost play -- seed ")
        assert any(ln.startswith("Turn 1 -- You (P0) -- ") for ln in out)
        assert out[-1].endswith("You left the duel.")
    else:   # pragma: no cover - a new README command needs its own checks here
        pytest.fail(f"no checks for {command!r}")


def test_duelhost_with_no_arguments_prints_the_help() -> None:
    res = run([])
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0].startswith("Usage: duelhost")
    for name in ("check", "diff", "play", "puzzle", "replay", "selfplay"):
        assert re.search(rf"^  {name} ", res.stdout, re.M), name


@pytest.mark.parametrize("name", ["check", "diff", "play", "puzzle", "replay", "selfplay"])
def test_every_command_has_help(name: str) -> None:
    res = run([name, "--help"])
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(f"Usage: duelhost {name} ")


@pytest.mark.parametrize("name", ["replay", "puzzle"])
def test_commands_that_need_a_file_say_so(name: str) -> None:
    res = run([name])
    assert res.returncode == 2
    assert "Missing argument" in res.stderr and "Traceback" not in res.stderr


def _real_card_replay(tmp_path: Path) -> Path:
    from duelhost.replay import read_replay, write_replay
    rep = read_replay(REPO / "samples" / "demo.yrp")
    rep.decks[0].main[:3] = [89631139, 46986414, 89631139]     # cards we do not bundle
    return write_replay(rep, tmp_path / "real.yrp")


def test_replay_of_cards_not_in_the_database_says_which_up_front(tmp_path: Path) -> None:
    res = run(["replay", str(_real_card_replay(tmp_path))])
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(f"Error: {tmp_path / 'real.yrp'}: 2 card(s) not in ")
    assert "(89631139, 46986414)" in lines[0] and "--db and --scripts" in lines[0]
    assert res.stdout == ""


def test_replay_of_cards_with_no_script_says_which_up_front(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts"
    shutil.copytree(REPO / "scripts", scripts)
    removed = sorted(scripts.glob("c19000*.lua"))[0]
    removed.unlink()
    from duelhost.replay import read_replay, write_replay
    rep = read_replay(REPO / "samples" / "demo.yrp")
    code = int(removed.stem[1:])
    rep.decks[0].main[0] = code
    path = write_replay(rep, tmp_path / "x.yrp")
    res = run(["replay", str(path), "--scripts", str(scripts)])
    assert res.returncode == 2
    assert f"1 card(s) with no script in {scripts} ({code})" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_puzzle_of_cards_not_in_the_database_says_which_up_front(tmp_path: Path) -> None:
    text = (REPO / "samples" / "two_blows.lua").read_text(encoding="utf-8")
    puzzle = tmp_path / "real.lua"
    puzzle.write_text(text.replace("Debug.AddCard(190000011,", "Debug.AddCard(89631139,"), encoding="utf-8")
    res = run(["puzzle", str(puzzle)])
    assert res.returncode == 2
    assert res.stderr.strip() == (f"Error: {puzzle}: 1 card(s) not in {REPO / 'cards.db'} (89631139)"
                                  " -- pass the --db and --scripts they were made with")


def test_puzzle_codes_reads_literal_add_card_codes_outside_comments(tmp_path: Path) -> None:
    from duelhost.puzzle import puzzle_codes
    f = tmp_path / "p.lua"
    f.write_text("--[[ Debug.AddCard(1, 0) ]]\n-- Debug.AddCard(2, 0)\nDebug.AddCard( 0x10, 0)\n"
                 "local c = Debug.AddCard(190000011,0,0,LOCATION_HAND,0,POS_FACEDOWN)\nDebug.AddCard(16, 1)\n")
    assert puzzle_codes(f) == [16, 190000011]


def test_selfplay_pool_of_the_bundled_folder_leaves_out_the_card_broken_on_purpose() -> None:
    from duelhost import paths
    from duelhost.selfplay import _prepare, default_config
    setup = _prepare(default_config(duels=1))
    assert paths.BROKEN_ON_PURPOSE and not set(setup.pool.main) & paths.BROKEN_ON_PURPOSE
    assert 190004001 in setup.pool.main          # the other testing-guide cards stay
