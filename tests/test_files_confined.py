"""Files named by data stay inside the folders the user gave (docs/security.md, "Files").

A secret file outside the folders stands for any file on disk: no name from a
replay, a script or a chunk may read it, and a refused name is one clear error.
Every hostile file is made here, in tmp_path.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from duelhost import Duel, paths
from duelhost.bindings.files import OutsideFolderError, confined_path, file_in_folders
from duelhost.bindings.host import LuaScriptHost
from duelhost.cli import main as cli
from duelhost.coverage import _find_file
from duelhost.replay import REPLAY_SINGLE_MODE, REPLAY_UNIFORM, Replay, ReplayHeader, encode_replay

SECRET = "SECRET-4f1d"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file outside every folder the tests give: Lua that would show its text if run."""
    secret = tmp_path / "outside" / "secret.lua"
    secret.parent.mkdir()
    secret.write_text(f'error("{SECRET}")\n')
    return secret


def _files_under(root: Path) -> dict[str, float]:
    return {str(p.relative_to(root)): p.stat().st_mtime for p in root.rglob("*")}


# ----- the rule ----------------------------------------------------------------------------


@pytest.mark.parametrize("name, why", [
    ("/etc/passwd", "an absolute path"),
    ("\\\\server\\share\\x.lua", "an absolute path"),
    ("C:\\x.lua", "an absolute path"),
    ("../x.lua", "a '..' part"),
    ("a/../../x.lua", "a '..' part"),
    ("..\\..\\x.lua", "a '..' part"),
    ("", "an empty name"),
    ("c1.lua\0.txt", "a NUL byte"),
])
def test_names_that_leave_the_folder_are_refused(tmp_path: Path, name: str, why: str) -> None:
    with pytest.raises(OutsideFolderError, match="refused: " + why.replace("(", r"\(")):
        confined_path(tmp_path, name)


def test_plain_names_and_links_inside_are_kept(tmp_path: Path, outside: Path) -> None:
    base = tmp_path / "folder"
    (base / "sub").mkdir(parents=True)
    (base / "sub" / "a.lua").write_text("-- a")
    os.symlink(base / "sub" / "a.lua", base / "inner.lua")
    assert confined_path(base, "sub/a.lua") == base / "sub" / "a.lua"
    assert confined_path(base, "./inner.lua").is_file()
    assert confined_path(base, "not-there.lua") == base / "not-there.lua"
    os.symlink(outside, base / "c1.lua")
    os.symlink(outside.parent, base / "linked")
    for name in ("c1.lua", "linked/secret.lua"):
        with pytest.raises(OutsideFolderError, match="symbolic link leading out of"):
            confined_path(base, name)
    assert file_in_folders([base / "sub", base], "a.lua") == base / "sub" / "a.lua"
    assert file_in_folders([base / "sub"], "missing.lua") is None


def test_the_quick_look_up_of_plain_names_answers_as_the_full_check(tmp_path: Path, outside: Path) -> None:
    """file_in_folders answers a plain name with one lstat; links, folders and odd names
    take the full check, so every answer is the one confined_path + is_file gives."""
    base = tmp_path / "folder"
    (base / "dir.lua").mkdir(parents=True)             # a folder with a script's name
    (base / "plain.lua").write_text("-- plain")
    os.symlink(base / "plain.lua", base / "inner.lua")  # a link inside: kept
    os.symlink(outside, base / "c1.lua")               # a link out: refused
    os.symlink(base / "gone.lua", base / "dangling.lua")
    second = tmp_path / "second"
    second.mkdir()
    (second / "dir.lua").write_text("-- the second folder's")
    folders = [base, second]
    for name in ("plain.lua", "inner.lua", "dir.lua", "missing.lua", "dangling.lua", "./plain.lua"):
        full = next((p for d in folders if (p := confined_path(d, name)).is_file()), None)
        assert file_in_folders(folders, name) == full, name
    assert file_in_folders(folders, "dir.lua") == second / "dir.lua"
    with pytest.raises(OutsideFolderError, match="symbolic link leading out of"):
        file_in_folders(folders, "c1.lua")
    with pytest.raises(OutsideFolderError, match="a '..' part"):
        file_in_folders(folders, "..")


# ----- the script host ---------------------------------------------------------------------


def _script_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "scripts"
    shutil.copytree(paths.bundled_scripts(), folder)
    return folder


def test_script_host_refuses_names_out_of_its_folders(tmp_path: Path, outside: Path) -> None:
    folder = _script_copy(tmp_path)
    os.symlink(outside, folder / "linked.lua")
    host = LuaScriptHost(folder)
    Duel(seed=1, script_host=host)
    for name in (str(outside), f"../outside/{outside.name}", "linked.lua"):
        assert host.load_script(name) is False
    messages = [e.message for e in host.errors]
    assert len(messages) == 3 and all("refused" in m for m in messages)
    assert not any(SECRET in m for m in messages)           # never read, never run


def test_a_card_script_linked_out_of_the_folder_is_not_run(tmp_path: Path, outside: Path) -> None:
    folder = _script_copy(tmp_path)
    victim = next(iter(sorted(folder.glob("c*.lua"))))
    victim.unlink()
    os.symlink(outside, victim)
    r = CliRunner().invoke(cli, ["check", "--scripts", str(folder), "--jobs", "0", "--no-progress"])
    assert r.exit_code == 1, r.output
    assert "symbolic link leading out of" in r.output and SECRET not in r.output


# ----- replays name their puzzle -------------------------------------------------------------


def _single_replay(path: Path, puzzle: str) -> Path:
    rep = Replay(header=ReplayHeader(flag=REPLAY_UNIFORM | REPLAY_SINGLE_MODE, seed_sequence=[0] * 8),
                 players=["me", ""], duel_flag=0x80, script_name=puzzle, responses=[b"\x00"])
    path.write_bytes(encode_replay(rep))
    return path


@pytest.mark.parametrize("kind", ["absolute", "dots", "symlink", "missing"])
def test_replay_puzzle_names_are_confined(tmp_path: Path, outside: Path, kind: str) -> None:
    puzzles = tmp_path / "puzzles"
    puzzles.mkdir()
    os.symlink(outside, puzzles / "linked.lua")
    depth = len(puzzles.resolve().parts)
    name = {"absolute": str(outside), "dots": "../" * depth + str(outside.resolve())[1:],
            "symlink": "linked.lua", "missing": "nope.lua"}[kind]
    replay = _single_replay(tmp_path / f"{kind}.yrp", name)
    before = _files_under(tmp_path)
    r = CliRunner().invoke(cli, ["replay", str(replay), "--puzzles", str(puzzles)])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {replay}: puzzle")
    assert SECRET not in r.output and "Traceback" not in r.output
    expected = {"absolute": "an absolute path", "dots": "a '..' part",
                "symlink": "symbolic link leading out of", "missing": "not found in"}[kind]
    assert expected in lines[0]
    assert _files_under(tmp_path) == before                 # nothing written


def test_replay_puzzle_without_a_puzzle_folder_says_so(tmp_path: Path) -> None:
    replay = _single_replay(tmp_path / "p.yrp", "puzzle 1.lua")
    r = CliRunner().invoke(cli, ["replay", str(replay)])
    assert r.exit_code == 2
    assert "puzzle script 'puzzle 1.lua' not found" in r.output and "--puzzles DIR" in r.output


# ----- chunk names (coverage) ----------------------------------------------------------------


def test_coverage_never_maps_a_chunk_to_a_file_outside(tmp_path: Path, outside: Path) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "c1.lua").write_text("-- one")
    assert _find_file("c1.lua", [folder], None) == (folder / "c1.lua").resolve()
    assert _find_file(str(outside), [folder], None) is None
    assert _find_file("../outside/secret.lua", [folder], None) is None
