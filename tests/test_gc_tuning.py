"""The collector thresholds the duelhost commands use (duelhost/gc_tuning.py)."""

from __future__ import annotations

import gc
import subprocess
import sys

from duelhost.gc_tuning import THROUGHPUT_THRESHOLDS, tune_for_throughput


def test_tuning_sets_the_thresholds_and_returns_the_old_ones():
    before = gc.get_threshold()
    try:
        assert tune_for_throughput() == before
        assert gc.get_threshold() == THROUGHPUT_THRESHOLDS
    finally:
        gc.set_threshold(*before)


def test_the_commands_run_with_the_tuned_thresholds(tmp_path):
    code = ("import gc, click\n"
            "from duelhost.cli import main\n"
            "@main.command('gc-probe')\n"
            "def probe():\n"
            "    click.echo(repr(gc.get_threshold()))\n"
            "main(['gc-probe'])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip() == repr(THROUGHPUT_THRESHOLDS), out.stderr
