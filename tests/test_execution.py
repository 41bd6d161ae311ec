"""The execution layer (duelhost.execution) on this machine: order, deadlines, lost items,
Ctrl-C, and the --ray option's bad input that needs no cluster."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from duelhost.cli import main as cli
from duelhost.execution import Backend, ExecutionError, Lost, Work, backend_from_options, execute


class Squares(Work):
    """Item n: n*n after a delay that makes later items end first; 7 spins, 9 dies."""

    def prepare(self) -> Any:
        return {"offset": 0}

    def run(self, state: Any, n: int, progress: Any) -> Any:
        if progress is not None:
            progress[0] = n + 100
        if n == 7:
            while True:
                time.sleep(0.05)
        if n == 9:
            os._exit(9)
        time.sleep(0.02 * (10 - n))
        return n * n + state["offset"]

    def lost(self, n: int, lost: Lost) -> Any:
        return ("lost", n, lost.how, lost.progress[0], lost.exitcode)


def test_results_come_back_in_item_order_with_lost_items_described() -> None:
    seen: list[int] = []
    results, info = execute(Squares(), list(range(11)), Backend.local(3), timeout=1.0,
                            on_result=lambda i, _r: seen.append(i))
    assert results[:7] == [n * n for n in range(7)] and results[8] == 64 and results[10] == 100
    assert results[7] == ("lost", 7, "timeout", 107, -signal.SIGKILL)     # its progress, then killed
    assert results[9] == ("lost", 9, "crash", 109, 9)
    assert sorted(seen) == list(range(11)) and seen != list(range(11))   # ended out of order
    assert info.done == 11 and not info.interrupted
    assert {w["ended"] for w in info.workers} >= {"timeout", "crash", "done"}


def test_inline_backend_gives_the_same_list() -> None:
    items = [0, 1, 2, 3]
    local, _ = execute(Squares(), items, Backend.local(2), timeout=5)
    inline, info = execute(Squares(), items, Backend.inline(), timeout=None)
    assert local == inline == [0, 1, 4, 9] and info.workers[0]["items"] == 4


class Broken(Work):
    def prepare(self) -> Any:
        raise RuntimeError("no loader here")

    def run(self, state: Any, item: Any, progress: Any) -> Any:
        return item


def test_a_worker_that_cannot_start_is_one_error() -> None:
    with pytest.raises(ExecutionError, match="could not start: RuntimeError: no loader here"):
        execute(Broken(), [1, 2], Backend.local(2), timeout=5)


class Slow(Work):
    def run(self, state: Any, item: int, progress: Any) -> Any:
        time.sleep(0.05 if item < 2 else 30)
        return item


def test_ctrl_c_returns_what_was_done() -> None:
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    try:
        results, info = execute(Slow(), [0, 1, 2, 3, 4], Backend.local(1), timeout=60)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10            # the busy worker was killed, not waited for
    assert info.interrupted and results[:2] == [0, 1] and results[2:] == [None, None, None]
    assert info.notes()[-1] == "interrupted: 2 of 5 done; this report is partial"


def test_backend_from_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUELHOST_RAY_ADDRESS", raising=False)
    assert backend_from_options(None, 3) == Backend.local(3)
    assert backend_from_options(None, 0).kind == "inline"
    assert backend_from_options("", 3) == Backend.ray(None)
    assert backend_from_options("10.0.0.1:6379", 3) == Backend.ray("10.0.0.1:6379")
    monkeypatch.setenv("DUELHOST_RAY_ADDRESS", "10.0.0.2:6379")
    assert backend_from_options(None, 3) == Backend.ray("10.0.0.2:6379")
    assert backend_from_options("", 3) == Backend.ray("10.0.0.2:6379")


def _one_error_line(output: str) -> str:
    lines = [ln for ln in output.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


def _closed_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("command", [["check"], ["selfplay", "-n", "2"],
                                     ["diff", "--golden", "tests/data/golden/vanilla.jsonl.gz"]])
def test_unreachable_ray_address_is_one_error_line(command: list[str], tmp_path: Path) -> None:
    pytest.importorskip("ray")
    port = _closed_port()
    out = tmp_path / "report.txt"
    root = Path(__file__).resolve().parent.parent
    r = CliRunner().invoke(cli, [*command, "--ray", f"127.0.0.1:{port}", "--no-progress", "-o", str(out)],
                           catch_exceptions=False, env={"DUELHOST_RAY_ADDRESS": ""}) \
        if command[0] != "diff" else \
        CliRunner().invoke(cli, ["diff", "--golden", str(root / command[2]), "--ray", f"127.0.0.1:{port}",
                                 "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 2, r.output
    assert _one_error_line(r.output) == (f"Error: cannot reach the Ray cluster at 127.0.0.1:{port}: "
                                         f"Connection refused")
    assert not out.exists()


def test_a_bad_ray_address_is_one_error_line() -> None:
    pytest.importorskip("ray")
    r = CliRunner().invoke(cli, ["check", "--ray", "no-port-here", "--no-progress"])
    assert r.exit_code == 2, r.output
    assert _one_error_line(r.output) == ("Error: Ray address 'no-port-here' is not HOST:PORT "
                                         "(or ray://HOST:PORT, or auto)")


def test_ray_not_installed_is_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)          # import ray -> ImportError
    r = CliRunner().invoke(cli, ["selfplay", "-n", "2", "--ray", "--no-progress"])
    assert r.exit_code == 2, r.output
    assert _one_error_line(r.output) == "Error: --ray needs Ray on this machine: pip install 'duelhost[ray]'"
