"""A card script's print goes to the duel's log, never to the host's standard output
(docs/security.md, "Script output")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from duelhost import Duel, paths
from duelhost.engine.ydk import read_ydk

REPO = Path(__file__).resolve().parent.parent
DECK_A = REPO / "cards" / "rules_a.ydk"      # cards with scripts
DECK_B = REPO / "cards" / "rules_b.ydk"


def test_print_reaches_the_message_handler_not_stdout(capfd) -> None:
    duel = Duel(seed=1)
    host = duel.script_host
    host.sandbox.lua.execute('print("to the log", 1, nil, true) print()')
    out, err = capfd.readouterr()
    assert out == "" and "to the log" not in err
    # as Debug.Message reaches the reference's handler: type 2, tostring of each, tab-separated
    assert host.log[-2:] == [(2, "to the log\t1\tnil\ttrue"), (2, "")]


def _printing_scripts(tmp_path: Path) -> Path:
    """The bundled scripts, with every card of deck A printing when its script loads and
    when its initial_effect runs."""
    folder = tmp_path / "scripts"
    shutil.copytree(paths.bundled_scripts(), folder)
    for code in set(read_ydk(DECK_A).main):
        f = folder / f"c{code}.lua"
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            f.write_text(f'print("hostile output c{code}")\n' + text, encoding="utf-8")
    return folder


def test_selfplay_json_on_stdout_stays_json(tmp_path: Path) -> None:
    scripts = _printing_scripts(tmp_path)
    duel = Duel(seed=3, scripts=scripts)            # the scripts do print: into the duel's log
    deck = read_ydk(DECK_A)
    duel.add_deck(0, deck.main, deck.extra)
    duel.add_deck(1, deck.main, deck.extra)
    duel.start()
    assert any(t == 2 and text.startswith("hostile output c") for t, text in duel.script_host.log)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    res = subprocess.run([sys.executable, "-m", "duelhost.cli", "selfplay", "--scripts", str(scripts),
                          "--deck", str(DECK_A), "--deck", str(DECK_B), "--duels", "2", "--jobs", "1",
                          "--turn-limit", "4", "--report", "json", "--no-progress"],
                         capture_output=True, text=True, cwd=work, env=env, timeout=300)
    assert res.returncode in (0, 1), res.stderr
    report = json.loads(res.stdout)                 # nothing but the report on stdout
    assert report["summary"]["duels"] == 2
    assert "hostile output" not in res.stdout and "hostile output" not in res.stderr
    assert list(work.iterdir()) == []               # nothing written where it ran


def test_debug_message_and_print_share_the_log() -> None:
    duel = Duel(seed=1)
    host = duel.script_host
    host.sandbox.lua.execute('Debug.Message("a") print("b", "c")')
    assert host.log[-2:] == [(2, "a"), (2, "b\tc")]
