"""benchmarks/instructions.py: what it runs, how it refuses bad input, and that it reports a
replay that is no longer identical (valgrind itself is too slow for the test suite)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))
try:
    import instructions
finally:
    sys.path.remove(str(BENCH))


def test_the_replay_child_runs_plainly_and_counts_identical_replays() -> None:
    """The child the counts are made of replays the recorded duels (here 2 of set A)."""
    assert instructions.count(instructions.REPO, instructions.SET_A, 2, "", valgrind=False) == (0, 2)
    assert instructions.count(instructions.REPO, instructions.SET_A, 0, "", valgrind=False) == (0, 0)


def test_a_child_that_fails_is_reported_with_its_error(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match=r"the replay run plainly failed: .*(No such file|FileNotFound)"):
        instructions.count(instructions.REPO, tmp_path / "missing.jsonl.gz", 1, "", valgrind=False)


def test_a_tree_without_a_venv_runs_on_this_interpreter_with_the_tree_first(tmp_path: Path) -> None:
    python, env = instructions.tree_python(tmp_path)
    assert python == sys.executable
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(tmp_path)
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").write_text("")
    assert instructions.tree_python(tmp_path)[0] == str(tmp_path / ".venv" / "bin" / "python")


@pytest.mark.parametrize("argv, says", [
    (["--duels", "0"], "--duels must be at least 1"),
    (["--tree", "."], "not a duelhost checkout"),
    (["--set", "C"], "invalid choice"),
])
def test_bad_arguments_are_refused(argv: list[str], says: str, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        instructions.parse_args(argv)
    assert exc.value.code == 2
    assert says in capsys.readouterr().err


def test_without_valgrind_it_says_so_and_exits_2(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    assert instructions.main([]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_set_b_without_scripts_is_skipped_and_a_differing_replay_fails(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """No figure is printed for a tree whose replays differ from the recording (exit 1)."""
    calls: list[tuple[Any, ...]] = []

    def fake_count(tree: Path, golden: Path, duels: int, scripts: str, valgrind: bool = True) -> tuple[int, int]:
        calls.append((golden.name, duels, valgrind))
        return (5_000_000_000 if duels else 1_000_000_000), max(duels - 1, 0)

    monkeypatch.setattr(instructions.shutil, "which", lambda name: "/bin/true")
    monkeypatch.setattr(instructions, "count", fake_count)
    monkeypatch.delenv("YGOPRO_SCRIPTS", raising=False)
    assert instructions.main(["--set", "A", "B", "--duels", "2"]) == 1
    out = capsys.readouterr().out
    assert "1 replay(s) no longer identical" in out and "G instructions" not in out
    assert "skipped: set B (no real script folder" in out
    assert calls == [("vanilla.jsonl.gz", 1, False), ("vanilla.jsonl.gz", 2, True), ("vanilla.jsonl.gz", 0, True)]
