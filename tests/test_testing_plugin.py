"""The pytest plugin: found through its pytest11 entry point in a project that is not this repository.

Each test here writes a small project into a pytester folder (outside this
repository, so none of its conftest files apply) and runs pytest there in a
subprocess with the installed duelhost.  ``DUELHOST_FRESH_VENV=1`` also runs
one in a brand-new virtual environment (pip installs duelhost and pytest into
it: about a minute, so it is off by default).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from duelhost import paths

pytest_plugins = ("pytester",)

REPO = Path(__file__).resolve().parent.parent

A_TEST = """
from duelhost.testing import yes

def test_sower(duel):
    sower = duel.add("Seedling Sower", to="hand")
    duel.start()
    duel.summon(sower, answers=[yes()])
    duel.expect_summoned("Seedling Token", position="defense", token=True)
"""

SETTINGS_TEST = """
def test_settings(duelhost_settings, duelhost_db, duel):
    print("SCRIPTS", [str(p) for p in duelhost_settings.scripts])
    print("DB", duelhost_settings.db)
    print("STRICT", duelhost_settings.strict)
    print("SOURCES", sorted(duelhost_settings.sources.items()))
    print("FOLDERS", [str(p) for p in duel.script_folders])
"""

BROKEN_TEST = """
import pytest

def test_lantern(duel):
    lantern = duel.add("Cracked Lantern", to="hand")
    duel.add("Cinderwood Sparkmouse", to="deck")
    duel.start()
    duel.activate(lantern)
    assert [e.line for e in duel.script_errors] == [21]
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("YGOPRO_SCRIPTS", "DUELHOST_DB", "PYTEST_ADDOPTS"):
        monkeypatch.delenv(name, raising=False)
    return pytester


def run(project: pytest.Pytester, *args: str) -> pytest.RunResult:
    return project.runpytest_subprocess("-p", "no:cacheprovider", *args)


def lines_with(result: pytest.RunResult, prefix: str) -> str:
    line = next(ln for ln in result.stdout.lines if prefix + " " in ln)
    return line[line.index(prefix + " "):]


def test_the_entry_point_brings_the_plugin_to_any_project(project: pytest.Pytester) -> None:
    assert REPO not in project.path.parents
    project.makepyfile(test_sower=A_TEST)
    result = run(project, "--trace-config")
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert "duelhost.testing.plugin" in out
    assert "duelhost: scripts bundled (default); cards bundled cards.db (default); strict (default)" in out
    disabled = run(project, "-p", "no:duelhost")       # the entry point's name
    disabled.assert_outcomes(errors=1)
    assert "fixture 'duel' not found" in disabled.stdout.str()


def test_where_scripts_and_cards_come_from(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project.path
    for d in ("env_scripts", "ini_scripts", "cli_scripts"):
        (root / d).mkdir()
    for f in ("env.cdb", "ini.cdb", "cli.cdb"):
        shutil.copy(paths.bundled_db(), root / f)
    project.makepyfile(test_settings=SETTINGS_TEST)

    result = run(project, "-s")                                            # bundled
    assert lines_with(result, "SCRIPTS") == "SCRIPTS []" and lines_with(result, "DB") == "DB None"
    assert lines_with(result, "FOLDERS") == f"FOLDERS [{str(paths.bundled_scripts())!r}]"

    monkeypatch.setenv("YGOPRO_SCRIPTS", str(root / "env_scripts"))
    monkeypatch.setenv("DUELHOST_DB", str(root / "env.cdb"))
    result = run(project, "-s")                                            # environment
    assert lines_with(result, "SCRIPTS") == f"SCRIPTS [{str(root / 'env_scripts')!r}]"
    assert lines_with(result, "DB") == f"DB {root / 'env.cdb'}"
    assert "('db', '$DUELHOST_DB'), ('scripts', '$YGOPRO_SCRIPTS')" in lines_with(result, "SOURCES")
    assert lines_with(result, "FOLDERS") == (f"FOLDERS [{str(root / 'env_scripts')!r}, "
                                             f"{str(paths.bundled_scripts())!r}]")

    project.makeini("[pytest]\nduelhost_scripts = ini_scripts\nduelhost_db = ini.cdb\n")
    result = run(project, "-s")                                            # ini beats environment
    assert lines_with(result, "SCRIPTS") == f"SCRIPTS [{str(root / 'ini_scripts')!r}]"
    assert lines_with(result, "DB") == f"DB {root / 'ini.cdb'}"

    result = run(project, "-s", "--duelhost-scripts", "cli_scripts", "--duelhost-db", "cli.cdb")
    assert lines_with(result, "SCRIPTS") == f"SCRIPTS [{str(root / 'cli_scripts')!r}]"   # command line beats all
    assert lines_with(result, "DB") == f"DB {root / 'cli.cdb'}"
    header = "duelhost: scripts " + str(root / "cli_scripts") + " then bundled (--duelhost-scripts)"
    assert header in result.stdout.str()


def test_a_missing_folder_or_database_names_its_source(project: pytest.Pytester,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    project.makepyfile(test_sower=A_TEST)
    monkeypatch.setenv("YGOPRO_SCRIPTS", "/nonexistent/scripts")
    result = run(project)
    result.assert_outcomes(errors=1)
    assert "duelhost: script folder /nonexistent/scripts (from $YGOPRO_SCRIPTS) does not exist" in result.stdout.str()
    monkeypatch.delenv("YGOPRO_SCRIPTS")
    result = run(project, "--duelhost-db", "nope.cdb")
    result.assert_outcomes(errors=1)
    assert "nope.cdb (from --duelhost-db) does not exist" in result.stdout.str()


def test_strict_by_default_lenient_on_request(project: pytest.Pytester) -> None:
    project.makepyfile(test_lantern=BROKEN_TEST)
    result = run(project)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert 'Lua error in card 190004010 "Cracked Lantern" at c190004010.lua:21' in out
    run(project, "--duelhost-lenient").assert_outcomes(passed=1)
    project.makeini("[pytest]\nduelhost_strict = false\n")
    run(project).assert_outcomes(passed=1)


def test_the_marker_and_the_factory(project: pytest.Pytester) -> None:
    project.makepyfile(test_marker=BROKEN_TEST.replace(
        "def test_lantern(duel):", "@pytest.mark.duelhost(strict=False)\ndef test_lantern(duel):") + """

@pytest.mark.duelhost(seed=7, auto_pass=True)
def test_options(duel, duel_factory):
    assert duel.host.seed == 7 and duel.auto_pass
    other = duel_factory(seed=9)
    assert other is not duel and other.host.seed == 9 and other.auto_pass
""")
    run(project).assert_outcomes(passed=2)


def test_an_error_no_action_reported_fails_at_teardown(project: pytest.Pytester) -> None:
    project.makepyfile(test_direct="""
import random
from duelhost.engine.responses import IdleCmdResponse, random_response

def test_driving_the_host_directly(duel):
    duel.add("Cracked Lantern", to="hand")
    duel.add("Cinderwood Sparkmouse", to="deck")
    duel.start()
    req = duel.host.respond(IdleCmdResponse(command=5, index=0))   # not through the scenario
    while req.NAME != "SELECT_IDLECMD":
        req = duel.host.respond(random_response(req, random.Random(0)))
""")
    result = run(project)
    result.assert_outcomes(passed=1, errors=1)
    assert "that no action reported (found at the end of the test)" in result.stdout.str()


@pytest.mark.skipif(os.environ.get("DUELHOST_FRESH_VENV") != "1",
                    reason="set DUELHOST_FRESH_VENV=1 to install duelhost into a new virtual environment (slow)")
def test_a_fresh_virtual_environment(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(REPO), "pytest"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    project_dir = tmp_path / "my_cards"
    project_dir.mkdir()
    (project_dir / "test_sower.py").write_text(A_TEST)
    env = {k: v for k, v in os.environ.items()
           if k not in ("YGOPRO_SCRIPTS", "DUELHOST_DB", "PYTEST_ADDOPTS", "PYTHONPATH")}
    out = subprocess.run([str(python), "-m", "pytest", "-p", "no:cacheprovider", "-q"], cwd=project_dir,
                         env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 passed" in out.stdout
    assert sys.prefix != str(env_dir)


LANTERN_TEST = """
def test_lantern(duel):
    lantern = duel.add(190003001, to="hand")
    duel.start()
    duel.activate(lantern)          # resolves: a blank Token of the code with no row
"""


def test_an_engine_warning_reaches_the_run_as_a_pytest_warning(project: pytest.Pytester) -> None:
    """Issue 12 item 7: a Token whose code has no database row is made blank, as the
    reference does, and the duel goes on; the toolkit says so in the run's warnings
    summary (and ``-W error::...DuelhostWarning`` makes it a failure)."""
    folder = project.path / "my_scripts"
    folder.mkdir()
    text = (paths.bundled_scripts() / "c190003001.lua").read_text()
    (folder / "c190003001.lua").write_text(text.replace("local TOKEN=id+1", "local TOKEN=99999901"))
    project.makeini("[pytest]\nduelhost_scripts = my_scripts\n")
    project.makepyfile(test_lantern=LANTERN_TEST)
    result = run(project)
    result.assert_outcomes(passed=1, warnings=1)
    out = result.stdout.str()
    assert "DuelhostWarning" in out and "99999901" in out and "no row" in out
    strict = run(project, "-W", "error::duelhost.testing.plugin.DuelhostWarning")
    assert strict.ret != 0
