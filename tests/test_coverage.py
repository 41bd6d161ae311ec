"""Lua line coverage (duelhost.coverage): the hook, executable lines, reports, pytest --lua-cov, check --coverage."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from duelhost import Duel
from duelhost.bindings.runtime import LuaSandbox, SandboxOptions
from duelhost.check import check_scripts
from duelhost.cli import main
from duelhost.coverage import LuaCoverage, build_report, executable_lines
from duelhost.engine import constants as C
from duelhost.engine.responses import IdleCmdResponse

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = REPO / "scripts"
DEFENDER = 190002001            # Runelight Defender: a Spell Counter when Normal Summoned (scripts/c190002001.lua)

SAMPLE = b"""-- a comment
local x = 1

local function f(a)
  if a then
    return 1
  else
    return 2
  end
end
local t = {
  a = 1,
  b = f(true),
}
return x + t.b
"""


def _lines_of(src: str, text: str) -> set[int]:
    return {i for i, line in enumerate(src.splitlines(), 1) if text in line}


# ---- the pieces ----------------------------------------------------------------------------


def test_executable_lines_are_luas_active_lines() -> None:
    import lupa.lua54 as lupa
    assert executable_lines(SAMPLE) == {2, 5, 6, 8, 10, 11, 12, 13, 15}
    # the main chunk's part agrees with Lua's own debug.getinfo(f, "L")
    rt = lupa.LuaRuntime()
    main_lines = rt.execute("local f = load(...) local t = {} for k in pairs(debug.getinfo(f, 'L').activelines)"
                            " do t[#t + 1] = k end table.sort(t) return table.concat(t, ',')", SAMPLE.decode())
    assert {int(x) for x in main_lines.split(",")} <= executable_lines(SAMPLE)
    assert executable_lines(b"this is not lua") == set()


def test_the_hook_counts_lines_on_the_main_state_and_in_tasks() -> None:
    sb = LuaSandbox()
    sb.set_line_coverage(True)
    assert sb.run(True, SAMPLE, "@./script/sample.lua") == (True,)
    hits = sb.take_line_hits()
    assert set(hits["@./script/sample.lua"]) == {2, 5, 6, 10, 11, 12, 13, 15}     # not 8: a is true
    assert sb.take_line_hits() == {}                                             # taken: counting afresh
    fn = sb.lua.eval("function(n) local s = 0\n for i = 1, n do\n s = s + i\n end\n return s end")
    out = sb.task_start(True, 1, fn, 3)                 # a task runs on a pooled coroutine
    assert tuple(out) == (2, 6)
    task_hits = sb.take_line_hits()
    assert sum(task_hits["<python>"].values()) > 3
    assert "debug" not in sb.lua.globals()              # scripts still have no debug library


def test_off_by_default_and_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    import duelhost.bindings.runtime as runtime
    monkeypatch.setattr(runtime, "_SANDBOX_OBSERVERS", [])     # under pytest --lua-cov, too
    sb = LuaSandbox()
    sb.run(True, SAMPLE, "@./script/sample.lua")
    assert sb.take_line_hits() == {} and sb.covered_sources is None
    sb.set_line_coverage(True)
    sb.set_line_coverage(False)
    sb.run(True, SAMPLE, "@./script/sample.lua")
    assert sb.take_line_hits() == {}


@pytest.mark.parametrize("body", ["while true do end", "local n = 0\nwhile true do n = n + 1 end",
                                  "local n = 0\nwhile true do\n  n = n + 1\nend",
                                  "local ok = pcall(function() while true do end end)\nwhile true do end"])
def test_the_time_budget_still_stops_endless_loops(body: str) -> None:
    # a Lua line hook eats the count hook's events in tight loops: the glue also checks
    # the budget every so many lines
    sb = LuaSandbox(SandboxOptions(time_budget=0.2))
    sb.set_line_coverage(True)
    t0 = time.perf_counter()
    ok, msg = sb.run(True, body.encode(), "@./script/loop.lua")[:2]
    assert time.perf_counter() - t0 < 2.0
    assert ok is False and "script timeout" in msg and "loop.lua:" in msg
    hits = sb.take_line_hits()["@./script/loop.lua"]
    assert max(hits.values()) > 1000
    # still counting afterwards
    assert sb.run(True, b"local y = 1\nreturn y", "@./script/after.lua") == (True,)
    assert sb.take_line_hits()["@./script/after.lua"] == {1: 1, 2: 1}


def _summon_defender(seed: int = 0) -> Duel:
    """Normal Summon Runelight Defender: its initial_effect runs when it is created, its
    trigger's target and operation run in a coroutine task when it is summoned."""
    duel = Duel(seed=seed)
    for _ in range(5):
        duel.add_card(190000001, 0)
    duel.add_card(DEFENDER, 0, C.LOCATION_HAND)
    duel.set_player(0, start_hand=0)
    duel.set_player(1, start_hand=0)
    duel.add_card(190000002, 1)
    duel.start()
    req = duel.advance()
    duel.respond(IdleCmdResponse(command=0, index=0))
    while (req := duel.advance()) is not None and req.NAME != "SELECT_IDLECMD":
        from duelhost.players import RandomPlayer
        duel.respond(RandomPlayer(0)(duel, req))
    assert any(c is not None and c.data.code == DEFENDER for c in duel.engine.player[0].list_mzone)
    return duel


def test_a_duel_counts_initial_effect_and_the_trigger_that_ran() -> None:
    cov = LuaCoverage().start()
    try:
        duel = _summon_defender()
        counters = [c.counters for c in duel.engine.player[0].list_mzone if c is not None]
        assert counters == [{0x1: 1}]
    finally:
        cov.stop()
    report = cov.report()
    f = report.file("c190002001.lua")
    assert f is not None and f.path == (SCRIPTS / "c190002001.lua").resolve()
    src = (SCRIPTS / "c190002001.lua").read_text()
    assert _lines_of(src, "c:EnableCounterPermit(0x1)") <= f.covered          # initial_effect
    assert _lines_of(src, "c:AddCounter(0x1,1)") <= f.covered                 # the operation (a task)
    assert _lines_of(src, "function s.repop") and not (_lines_of(src, "Duel.RemoveCounter(tp") & f.covered)
    assert report.file("utility.lua") is not None and report.file("constant.lua") is not None
    assert 0 < f.percent < 100
    # a duel created after stop() is not counted
    assert cov.take_hits() != {}
    _summon_defender(1)
    assert cov.take_hits() == {}


def test_reports(tmp_path: Path) -> None:
    src = (SCRIPTS / "c190002001.lua").read_bytes()
    exe = executable_lines(src)
    hit = sorted(exe)[:5]
    report = build_report({"@./script/c190002001.lua": {ln: 2 for ln in hit}},
                          sources={"@./script/c190002001.lua": src}, search_dirs=[SCRIPTS])
    (f,) = report.files
    assert f.covered == set(hit) and f.missed == exe - set(hit)
    text = report.to_text()
    assert "c190002001.lua" in text and f"{len(exe):>6}" in text and "TOTAL" in text
    data = json.loads(Path(report.write(f"json:{tmp_path}/c.json")).read_text())
    assert data["summary"] == {"files": 1, "lines": len(exe), "covered": 5,
                               "percent": round(500 / len(exe), 2)}
    assert data["files"][0]["executed_lines"] == hit and data["files"][0]["path"].endswith("c190002001.lua")
    lcov = Path(report.write(f"lcov:{tmp_path}/c.lcov")).read_text().splitlines()
    assert lcov[1] == f"SF:{(SCRIPTS / 'c190002001.lua').resolve()}"
    assert f"DA:{hit[0]},2" in lcov and f"LH:5" in lcov and f"LF:{len(exe)}" in lcov
    root = ET.parse(report.write(f"xml:{tmp_path}/c.xml")).getroot()
    assert root.tag == "coverage" and root.get("lines-covered") == "5"
    lines = root.findall(".//class/lines/line")
    assert len(lines) == len(exe) and sum(1 for ln in lines if ln.get("hits") != "0") == 5
    with pytest.raises(ValueError, match="unknown coverage report"):
        report.write("html")


# ---- duelhost check --coverage ---------------------------------------------------------------


def test_check_coverage_in_process() -> None:
    report = check_scripts(SCRIPTS, REPO / "cards.db", jobs=0, only=[DEFENDER, 190002002], coverage=True)
    cov = report.coverage
    assert cov is not None
    names = {f.name for f in cov.files}
    assert {"c190002001.lua", "c190002002.lua", "constant.lua", "utility.lua"} <= names
    f = cov.file("c190002001.lua")
    src = (SCRIPTS / "c190002001.lua").read_text()
    assert _lines_of(src, "c:EnableCounterPermit(0x1)") <= f.covered
    assert not (_lines_of(src, "c:AddCounter(0x1,1)") & f.covered)          # loading runs no operation
    assert all("lua_lines" not in r.extra and "lua_exec" not in r.extra for r in report.results)


def test_check_coverage_cli_with_workers(tmp_path: Path) -> None:
    out = tmp_path / "cov.lcov"
    r = CliRunner().invoke(main, ["check", "--jobs", "2", "--only", f"{DEFENDER},190002002,190002003",
                                  "--coverage", "--coverage-report", f"lcov:{out}",
                                  "--coverage-report", f"json:{tmp_path}/cov.json", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "Lua line coverage" in r.output and "c190002003.lua" in r.output
    assert f"Lua coverage written to {out}" in r.output
    data = json.loads((tmp_path / "cov.json").read_text())
    assert {f["name"] for f in data["files"]} >= {"c190002001.lua", "c190002002.lua", "c190002003.lua"}
    assert "SF:" in out.read_text()
    # a JSON check report on standard output stays JSON: the table goes to standard error
    import inspect
    separate = "mix_stderr" in inspect.signature(CliRunner.__init__).parameters
    runner = CliRunner(mix_stderr=False) if separate else CliRunner()      # click < 8.2 / >= 8.2
    r = runner.invoke(main, ["check", "--jobs", "0", "--only", str(DEFENDER), "--report", "json", "--coverage",
                             "--coverage-report", f"json:{tmp_path}/c2.json", "--no-progress"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["summary"]["passed"] == 1
    assert "Lua line coverage" in r.stderr and "Lua line coverage" not in r.stdout


# ---- pytest --lua-cov ----------------------------------------------------------------------------


def test_pytest_lua_cov(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_card="""
        from duelhost import Duel
        from duelhost.engine import constants as C

        def test_create():
            duel = Duel()
            duel.add_card(190002001, 0, C.LOCATION_HAND)
    """)
    result = pytester.runpytest_subprocess("--lua-cov",
                                           "--lua-cov-report=term-missing", "--lua-cov-report=json:out/cov.json",
                                           "--lua-cov-report=xml")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*Lua line coverage (duelhost)*", "File * Lines * Hit * Miss * Cover * Missing",
                                 "c190002001.lua *", "TOTAL *", "Lua coverage written to out*cov.json"])
    data = json.loads((pytester.path / "out" / "cov.json").read_text())
    f = next(f for f in data["files"] if f["name"] == "c190002001.lua")
    assert 0 < f["covered"] < f["lines"]
    assert (pytester.path / "lua-coverage.xml").is_file()


def test_pytest_lua_cov_fail_under(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_card="""
        from duelhost import Duel
        from duelhost.engine import constants as C

        def test_create():
            Duel().add_card(190002001, 0, C.LOCATION_HAND)
    """)
    result = pytester.runpytest_subprocess("--lua-cov",
                                           "--lua-cov-fail-under=99")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*Lua coverage * < required 99%*"])
    result = pytester.runpytest_subprocess()    # no --lua-cov: no report
    assert result.ret == 0 and "Lua line coverage" not in result.stdout.str()


@pytest.mark.skipif(not os.environ.get("YGOPRO_SCRIPTS"), reason="YGOPRO_SCRIPTS is not set")
def test_real_scripts_hit_lines_are_executable(real_scripts: Path, corpus_db: Path) -> None:
    """Every line the hook saw in a real duel is one the compiled chunk can stop at."""
    from duelhost import RandomPlayer
    from duelhost.play import duel_from_decks
    decks = sorted((Path(__file__).resolve().parent.parent.parent / "shared" / "decks").glob("*.ydk"))[:2]
    if len(decks) < 2:
        pytest.skip("no real decks")
    cov = LuaCoverage().start()
    try:
        duel = duel_from_decks(decks, scripts=real_scripts, db=corpus_db, seed=3)
        duel.run([RandomPlayer(1), RandomPlayer(2)], max_responses=400)
    finally:
        cov.stop()
    report = cov.report()
    assert len(report.files) > 20
    sources = cov.sources
    for f in report.files:
        hit = {ln for ln, n in f.hits.items() if n}
        assert hit <= executable_lines(sources[f.chunk]), f.name


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
