"""Bad input gives one line naming the file and what is wrong, and exit code 2
(docs/security.md, "Bad input and exit codes").  Every bad file is made here, in tmp_path."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from duelhost import paths
from duelhost.cli import main as cli
from duelhost.replay import Replay, ReplayDeck, ReplayHeader, encode_replay

REPO = Path(__file__).resolve().parent.parent
GOLDEN_VANILLA = REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"


def _one_error_line(output: str) -> str:
    """The output is exactly one line, ``Error: ...``; return it."""
    lines = [ln for ln in output.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, output
    assert lines[0].startswith("Error: ") and "Traceback" not in output, output
    return lines[0]


def _files_under(root: Path) -> dict[str, float]:
    return {str(p.relative_to(root)): p.stat().st_mtime for p in root.rglob("*")}


# ----- card databases ------------------------------------------------------------------------


def _bad_database(tmp_path: Path, kind: str) -> tuple[Path, str]:
    """A database file that cannot be used, and the words its error must say."""
    path = tmp_path / f"{kind}.cdb"
    if kind == "not_sqlite":
        path.write_text("this is not a database\n" * 50)
        return path, "not a SQLite database"
    if kind == "empty":
        path.write_bytes(b"")
        return path, "an empty file"
    if kind == "wrong_schema":
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE cards (id INTEGER)")
        con.commit()
        con.close()
        return path, "table 'datas' is missing"
    if kind == "missing_column":
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE datas (id INTEGER)")
        con.execute("CREATE TABLE texts (id INTEGER, name TEXT)")
        con.commit()
        con.close()
        return path, "lacks column(s)"
    assert kind == "truncated"
    data = paths.bundled_db().read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path, "damaged or truncated SQLite database"


DB_KINDS = ["not_sqlite", "empty", "wrong_schema", "missing_column", "truncated"]


def _replay_file(tmp_path: Path) -> Path:
    path = tmp_path / "duel.yrp"
    path.write_bytes(encode_replay(Replay(header=ReplayHeader(seed_sequence=[0] * 8), players=["a", "b"],
                                          decks=[ReplayDeck(main=[], extra=[]) for _ in (0, 1)],
                                          responses=[])))
    return path


@pytest.mark.parametrize("kind", DB_KINDS)
@pytest.mark.parametrize("command", ["check", "puzzle", "replay", "play", "selfplay"])
def test_a_bad_card_database_is_one_line(tmp_path: Path, command: str, kind: str) -> None:
    db, says = _bad_database(tmp_path, kind)
    puzzle = tmp_path / "p.lua"
    puzzle.write_text("Debug.ReloadFieldBegin(0)\nDebug.ReloadFieldEnd()\n")
    args = {"check": ["check", "--jobs", "0", "--no-progress"],
            "puzzle": ["puzzle", str(puzzle)],
            "replay": ["replay", str(_replay_file(tmp_path))],
            "play": ["play"],
            "selfplay": ["selfplay", "--duels", "1", "--no-progress"]}[command]
    before = _files_under(tmp_path)
    r = CliRunner().invoke(cli, [*args, "--db", str(db)])
    assert r.exit_code == 2, r.output
    line = _one_error_line(r.output)
    assert str(db) in line and says in line
    assert _files_under(tmp_path) == before


# ----- golden files --------------------------------------------------------------------------


def _bad_golden(tmp_path: Path, kind: str) -> tuple[Path, str]:
    path = tmp_path / f"{kind}.jsonl.gz"
    good = GOLDEN_VANILLA.read_bytes()
    if kind == "not_gzip":
        path.write_text('{"set": "vanilla"}\n')
        return path, "not a gzip file"
    if kind == "bad_json":
        path.write_bytes(gzip.compress(b'{"set": "vanilla", oops\n'))
        return path, ":1: bad JSON"
    if kind == "missing_fields":
        path.write_bytes(gzip.compress(b'{"set": "vanilla", "id": "x"}\n'))
        return path, ":1: not a duel record: seed: Field required (and "
    if kind == "truncated":
        path.write_bytes(good[: len(good) // 2])
        return path, "truncated after line"
    assert kind == "damaged"
    damaged = bytearray(good)
    for i in range(len(damaged) // 3, len(damaged) // 3 + 64):
        damaged[i] ^= 0x5A
    path.write_bytes(bytes(damaged))
    return path, ""     # damaged deflate data: "damaged after line N", or the bad line it made


@pytest.mark.parametrize("kind", ["not_gzip", "bad_json", "missing_fields", "truncated", "damaged"])
def test_a_bad_golden_file_is_one_line(tmp_path: Path, kind: str) -> None:
    golden, says = _bad_golden(tmp_path, kind)
    before = _files_under(tmp_path)
    r = CliRunner().invoke(cli, ["diff", "--golden", str(golden)])
    assert r.exit_code == 2, r.output
    line = _one_error_line(r.output[r.output.find("Error: "):])     # after any duels already run
    assert str(golden) in line and says in line
    if kind == "damaged":
        assert any(w in line for w in ("damaged after line", "bad JSON", "not UTF-8", "not a duel record"))
    assert "Aborted" not in r.output and "ValidationError" not in r.output
    assert _files_under(tmp_path) == before


def test_a_golden_duel_that_needs_scripts_is_one_line(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl.gz"
    import json
    with gzip.open(GOLDEN_VANILLA, "rt", encoding="utf-8") as fh:
        record = json.loads(fh.readline())
    record["scripts"] = "ygopro-scripts"
    real.write_bytes(gzip.compress((json.dumps(record) + "\n").encode()))
    r = CliRunner().invoke(cli, ["diff", "--golden", str(real)])
    assert r.exit_code == 2
    assert "needs card scripts: pass --scripts DIR" in _one_error_line(r.output)


# ----- check of a folder with no card scripts --------------------------------------------------


@pytest.mark.parametrize("contents", [[], ["constant.lua", "utility.lua", "notes.txt", "c12x.lua"]])
def test_check_of_a_folder_without_card_scripts_fails(tmp_path: Path, contents: list[str]) -> None:
    folder = tmp_path / "scripts"
    folder.mkdir()
    for name in contents:
        (folder / name).write_text("-- nothing\n")
    r = CliRunner().invoke(cli, ["check", "--scripts", str(folder), "--jobs", "0", "--no-progress"])
    assert r.exit_code == 2, r.output
    assert _one_error_line(r.output) == f"Error: {folder}: no card scripts (c<ID>.lua) in this folder"


# ----- Ctrl-C during check --------------------------------------------------------------------


def test_ctrl_c_during_check_stops_cleanly_and_writes_the_partial_report(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group (the parent and its workers): the workers are
    stopped, the report of the cards done so far is written, one line, exit 130."""
    folder = tmp_path / "scripts"
    shutil.copytree(paths.bundled_scripts(), folder)
    for f in folder.glob("c*.lua"):          # every card spins until stopped: the check runs long
        f.write_text("while true do end\n" + f.read_text(encoding="utf-8"), encoding="utf-8")
    total = len([f for f in folder.glob("c*.lua") if f.stem[1:].isdigit()])
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "duelhost.cli", "check", "--scripts", str(folder),
                             "--jobs", "2", "--progress", "--timeout", "30", "--report", "json",
                             "-o", "partial.json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=work, start_new_session=True)
    try:
        assert proc.stderr is not None
        seen = proc.stderr.read(len("checking scripts"))   # the command is running
        assert seen == b"checking scripts"
        time.sleep(1.5)                                     # the workers are busy with cards
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    last = text.strip().splitlines()[-1]
    m = re.fullmatch(rf"interrupted: check stopped after (\d+) of {total}; the report is partial", last)
    assert m is not None, last
    report = json.loads((work / "partial.json").read_text())
    done = int(m.group(1))
    assert done < total and len(report["cards"]) == done and report["execution"]["interrupted"] is True
    assert report["notes"][-1] == f"interrupted: {done} of {total} done; this report is partial"
    assert f"interrupted: {done} of {total} done" in out.decode()        # the summary says it too
    assert [p.name for p in work.iterdir()] == ["partial.json"]
