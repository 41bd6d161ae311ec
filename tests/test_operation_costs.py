"""benchmarks/operation_costs.py on the bundled scripts and cards (no reference, no real scripts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "operation_costs.py"
ENV = {k: v for k, v in os.environ.items() if k not in ("YGOPRO_SCRIPTS", "OCGCORE_LIB", "DUELHOST_CORPUS_DB")}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120, env=ENV)


def test_prints_a_time_per_operation_as_json() -> None:
    proc = _run("--calls", "200", "--rounds", "1", "--only", "#g", "g:IsExists(f,1,nil), 5 cards",
                "Duel.GetMZoneCount(0,g)", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["rows"]
    assert [r["operation"] for r in rows] == ["#g", "g:IsExists(f,1,nil), 5 cards", "Duel.GetMZoneCount(0,g)"]
    assert all(type(r["duelhost_ns"]) is int and r["duelhost_ns"] >= 0 and "reference_ns" not in r for r in rows)


def test_an_operation_that_fails_names_itself_and_exits_1(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The loop really runs in the card's initial_effect: a failing body is reported."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import operation_costs
    finally:
        sys.path.remove(str(SCRIPT.parent))
    monkeypatch.setitem(operation_costs.OPERATIONS, "#g", "local k=#nil")
    for var in ("YGOPRO_SCRIPTS", "OCGCORE_LIB", "DUELHOST_CORPUS_DB"):
        monkeypatch.delenv(var, raising=False)
    assert operation_costs.main(["--calls", "3", "--rounds", "1", "--only", "#g"]) == 1
    err = capsys.readouterr().err
    assert "duelhost: local k=#nil" in err and "attempt to get length" in err


@pytest.mark.parametrize("name", ["g:CheckSubGroup(f2,2,2) (utility.lua)",
                                  "g:CheckSubGroup, c58827995's cost search (utility.lua)"])
def test_the_real_utility_operations_need_the_real_scripts(name: str) -> None:
    proc = _run("--only", name)
    assert proc.returncode == 2 and "needs the real scripts" in proc.stderr
