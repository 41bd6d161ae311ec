"""Hostile card scripts (issue 11 items 1-3): nothing hangs, nothing crashes.

Every case runs our own hostile scripts (tests/hostile/c190099xxx.lua, database
rows made in a temporary cards.cdb) and checks how long the host took to stop
the script, the error it recorded, that the host then runs another duel, and
that nothing was written outside the temporary folder.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from duelhost import paths
from duelhost.bindings.host import LuaScriptHost
from duelhost.bindings.runtime import LuaSandbox, SandboxOptions
from duelhost.engine.carddb import CDB_SCHEMA
from duelhost.host import Duel
from duelhost.players import RandomPlayer

HOSTILE = Path(__file__).parent / "hostile"
FILLER = 190099000          # a Normal Monster with no script
HOSTILE_CODES = sorted(int(p.stem[1:]) for p in HOSTILE.glob("c*.lua"))
REPO = Path(__file__).resolve().parent.parent


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """(script folder, database) in tmp_path, the working directory meanwhile; at the
    end, nothing but them (and what a test adds to ``extra``) is in tmp_path, and
    the repository's script folders are unchanged."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "scripts"
    folder.mkdir()
    for name in ("constant.lua", "utility.lua"):
        shutil.copy(paths.bundled_scripts() / name, folder / name)
    for p in HOSTILE.glob("c*.lua"):
        shutil.copy(p, folder / p.name)
    db = tmp_path / "cards.cdb"
    con = sqlite3.connect(db)
    con.executescript(CDB_SCHEMA)
    con.execute("INSERT INTO datas VALUES (?,0,0,0,?,1000,1000,4,1,1,0)", (FILLER, 0x11))
    con.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", (FILLER, "Filler", ""))
    for code in HOSTILE_CODES:
        con.execute("INSERT INTO datas VALUES (?,0,0,0,?,1000,1000,4,1,1,0)", (code, 0x21))
        con.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", (code, f"Hostile {code}", ""))
    con.commit()
    con.close()
    before = {d: _listing(d) for d in (HOSTILE, paths.bundled_scripts())}
    extra: set[str] = set()
    yield folder, db, extra
    expected = {"scripts", "cards.cdb"} | {f"scripts/{p.name}" for p in folder.iterdir()} | extra
    assert _listing(tmp_path) <= expected, _listing(tmp_path) - expected
    assert {d: _listing(d) for d in before} == before


def new_duel(folder: Path, db: Path, **options) -> tuple[Duel, LuaScriptHost]:
    host = LuaScriptHost(folder, **options)
    return Duel(db=db, seed=3, script_host=host), host


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def plays_on(duel: Duel, steps: int = 30) -> None:
    """The duel (and so the process) is still usable: it starts and takes answers."""
    duel.add_deck(0, [FILLER] * 20, [], shuffle=True)
    duel.add_deck(1, [FILLER] * 20, [], shuffle=True)
    duel.start()
    players = [RandomPlayer(1), RandomPlayer(2)]
    for _ in range(steps):
        req = duel.advance()
        if req is None:
            break
        duel.respond(players[req.player](duel, req))
    assert duel.responses > 0


def another_duel(folder: Path, db: Path) -> None:
    duel, host = new_duel(folder, db)
    plays_on(duel)
    assert host.errors == []


# ----- item 1: a budget that covers everything a script can do -----------------------------------


def test_the_host_lookup_of_initial_effect_cannot_meet_a_script_metamethod(world):
    folder, db, _ = world
    duel, host = new_duel(folder, db)
    _, took = timed(duel.engine.new_card, 190099001)
    assert took < 0.5 and host.errors == []
    cls = host.sandbox.card_class(190099001, False)
    run = host.sandbox.lua.eval("function(s) return s.refused, s.card_mt_refused, getmetatable(s) == Card end")
    assert host.call_function(run, cls) == (True, True, True)
    # a card with no initial_effect: the lookup reads through Card (whose __index the
    # script replaced) without running it
    _, took = timed(duel.engine.new_card, 190099006 + 100)     # no row, no script: missing
    assert took < 0.5
    plays_on(duel)
    another_duel(folder, db)


def test_a_lookup_the_host_makes_is_under_the_budget():
    """Defence in depth: even a table whose __index loops, looked up by the host, times out."""
    sb = LuaSandbox(SandboxOptions(time_budget=0.3))
    t = sb.lua.eval("setmetatable({}, {__index = function() while true do end end})")
    out, took = timed(sb.call_field, True, t, "initial_effect")
    assert out[0] is False and "script timeout" in out[1] and "0.3 s" in out[1]
    assert took < 0.3 + 2.0
    assert sb.call(True, sb.lua.eval("function() return 1 end")) == (True, 1)


def test_a_timeout_names_the_card_the_function_and_the_limit(world):
    folder, db, _ = world
    duel, host = new_duel(folder, db, time_budget=0.3)
    _, took = timed(duel.engine.new_card, 190099006)
    assert 0.3 <= took < 0.3 + 2.0
    (err,) = host.errors
    assert (err.kind, err.card_code, err.card_name, err.callback) == ("timeout", 190099006, None, "initial_effect")
    assert err.message == ("./script/c190099006.lua:4: script timeout: ran longer than the time budget "
                           "of 0.3 s (endless loop?) in function <./script/c190099006.lua:3>")
    assert str(err).endswith("[card 190099006, initial_effect]")
    plays_on(duel)


def test_an_exponential_pattern_is_refused_before_the_c_call(world):
    folder, db, _ = world
    duel, host = new_duel(folder, db)
    _, took = timed(duel.engine.new_card, 190099002)
    assert took < 0.5
    (err,) = host.errors
    assert err.kind == "error" and err.card_code == 190099002 and err.callback == "initial_effect"
    assert (err.script, err.line) == ("c190099002.lua", 4)
    assert "string.find: pattern too complex for a subject of 200 bytes" in err.message
    assert "100000000 matching steps" in err.message
    plays_on(duel)
    another_duel(folder, db)


@pytest.mark.parametrize("src, expected", [
    ('return ("hello world"):gsub("o", "0")', ("hell0 w0rld", 2)),
    ('return string.match("key=val", "^(%w+)=(%w+)$")', ("key", "val")),
    ('return string.find("a.b", ".", 1, true)', (2, 2)),
    ('return ("x[1]"):find("[", 1, true)', (2, 2)),
    ('local n = 0 for w in ("a bb ccc"):gmatch("%a+") do n = n + #w end return n', (6,)),
    ('return string.find(("a"):rep(1000) .. "b", "a*b")', (1, 1001)),
    ('return ("(x(y))z"):match("%b()")', ("(x(y))",)),
    ('return select(2, pcall(string.find, "x", "%"))', ("malformed pattern (ends with '%')",)),
    ('return select(2, pcall(function() return ("x"):find("%") end))', ("malformed pattern (ends with '%')",)),
    ('return select(2, pcall(function() local r = ("x"):find("%") return r end))',
     ("[string \"<python>\"]:1: malformed pattern (ends with '%')",)),
    ('local t = {3, 1, 2} table.sort(t) return t[1], t[3]', (1, 3)),
    ('return table.move({1, 2, 3}, 1, 3, 2)[3]', (2,)),
    ('local t = {1, 2} table.insert(t, 1, 0) table.insert(t, 9) return table.remove(t, 1), #t', (0, 3)),
    ('return string.rep("", 1e12), string.rep("ab", 3, ","), ("x"):rep(0)', ("", "ab,ab,ab", "")),
    ('return select(2, pcall(string.rep, "", 1.5))', ("bad argument #2 to 'rep' (number has no integer representation)",)),
])
def test_bounded_library_functions_still_give_lua_results(src, expected):
    sb = LuaSandbox()
    assert sb.call(True, sb.lua.eval("function() " + src + " end")) == (True, *expected)


@pytest.mark.parametrize("src, text", [
    ('string.find(("a"):rep(30000), "a*b")', "string.find: pattern too complex for a subject of 30000 bytes"),
    ('string.match(("a"):rep(200), ("a?"):rep(40) .. "b")', "string.match: pattern too complex"),
    ('for x in ("a"):rep(3000):gmatch("a-a-a-b") do end', "string.gmatch: pattern too complex"),
    ('string.gsub(("a"):rep(200), ("(a*)"):rep(5) .. "%1b", "")', "string.gsub: pattern too complex"),
    ('string.find(("a"):rep(1e7), ("a"):rep(1000) .. "b", 1, true)', "string.find: pattern too complex"),
    ('local t = {} for i = 1, (1 << 21) + 1 do t[i] = i end table.sort(t)', "table.sort: 2097153 entries"),
    ('table.sort(setmetatable({}, {__len = function() return 1e9 end}))', "table.sort: a table with __len"),
    ('table.move({}, 1, 1 << 40, 2)', "table.move: 1099511627776 entries"),
    ('table.insert(setmetatable({}, {__len = function() return math.maxinteger - 1 end}), 1, 0)',
     "table.insert: a table with a __len metamethod"),
    ('table.remove(setmetatable({}, {__len = function() return math.maxinteger - 1 end}), 1)',
     "table.remove: a table with a __len metamethod"),
    ('assert(load(("x = 1 "):rep(1e6)))', "chunk of 6000000 bytes: more than the limit of 4194304"),
])
def test_long_c_calls_are_refused_at_the_script_line(src, text):
    sb = LuaSandbox(SandboxOptions(time_budget=5.0))
    fn = sb.lua.execute("return load(...)", "local _ = 0\n" + src, "@./script/c1.lua")
    out, took = timed(sb.call, True, fn)
    assert out[0] is False and text in out[1], out
    assert out[1].startswith("./script/c1.lua:2:")
    assert took < 2.0


def test_a_filter_recursing_through_a_library_function_is_stopped_once(world):
    folder, db, _ = world
    duel, host = new_duel(folder, db)
    _, took = timed(duel.add_deck, 0, [FILLER, 190099003])
    assert took < 2.0
    (err,) = host.errors                           # not one per nested call
    assert err.kind == "stopped" and err.card_code == 190099003 and err.callback == "initial_effect"
    # Lua's C stack or Python's recursion limit, whichever the nesting meets first
    assert ("C stack overflow" in err.message or "maximum recursion depth exceeded" in err.message)
    assert "the whole call is stopped" in err.message
    assert err.script == "c190099003.lua"
    plays_on(duel)
    another_duel(folder, db)


def test_the_same_recursion_under_pcall_in_a_loop_stops_at_the_budget(world):
    folder, db, _ = world
    duel, host = new_duel(folder, db, time_budget=0.5)
    _, took = timed(duel.add_deck, 0, [FILLER, 190099004])
    assert took < 0.5 + 2.0
    assert len(host.errors) <= 3                   # not ~400,000
    last = host.errors[-1]
    assert last.kind in ("timeout", "stopped") and last.card_code == 190099004
    assert last.callback == "initial_effect"
    assert "0.5 s" in last.message or "the whole call is stopped" in last.message
    plays_on(duel)
    another_duel(folder, db)


def test_the_same_error_repeated_through_host_functions_stops_the_call(world):
    """Any error failing REPEAT_LIMIT nested calls of one call stops that call, once."""
    from duelhost.bindings import host as host_module

    folder, db, _ = world
    duel, host = new_duel(folder, db)
    duel.add_deck(0, [FILLER] * 10)
    fn = host.sandbox.lua.eval("""function()
        local f = function(c) error("bad filter") end
        for i = 1, 1000 do Duel.IsExistingMatchingCard(f, 0, 0xff, 0xff, 1, nil) end
        return "went on"
    end""")
    before = len(host.errors)
    assert host.call_function(fn) == ()
    errs = host.errors[before:]
    assert len(errs) == host_module.REPEAT_LIMIT       # the first ones, then one for the call
    assert errs[-1].kind == "stopped" and "the same error 100 times inside one call" in errs[-1].message


def test_host_work_for_a_script_counts_against_its_budget(world):
    """Direct queries (Card.GetLevel passed as a value) run without Lua: the host's
    own clock check stops a call that only loops over them."""
    folder, db, _ = world
    duel, host = new_duel(folder, db, time_budget=0.5, hook_interval=1 << 30)
    duel.add_deck(0, [FILLER] * 40)
    fn = host.sandbox.lua.eval("""function()
        local g = Duel.GetFieldGroup(0, 0xff, 0xff)
        while true do g:GetSum(Card.GetLevel) end
    end""")
    before = len(host.errors)
    _, took = timed(host.call_function, fn)
    assert took < 0.5 + 2.0
    (err,) = host.errors[before:]
    assert err.kind == "timeout" and "in the work of a library function" in err.message
    assert "0.5 s" in err.message
    assert host.call_function(host.sandbox.lua.eval("function() return 7 end")) == (7,)
    plays_on(duel)


# ----- item 2: no script finalizer ever runs ----------------------------------------------------------

_FREE = textwrap.dedent("""
    import gc, sys
    from duelhost.bindings.host import LuaScriptHost
    from duelhost.host import Duel
    folder, db = sys.argv[1], sys.argv[2]
    host = LuaScriptHost(folder)
    duel = Duel(db=db, seed=1, script_host=host)
    duel.engine.new_card(190099005)
    for code in (190099001, 190099003, 190099006):
        host.sandbox.card_class(code, True)        # classes made after the __gc went in
    host.sandbox.full_gc()
    log = list(host.log)
    del duel, host
    gc.collect()
    print("freed", log)
""")


def test_a_finalizer_put_in_card_never_runs_when_the_duel_is_freed(world):
    folder, db, extra = world
    env = dict(os.environ, PYTHONPATH=str(REPO))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _FREE, str(folder), str(db)], capture_output=True,
                          text=True, timeout=60, env=env)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])   # 139 was a segfault
    assert "freed" in proc.stdout and "finalizer ran" not in proc.stdout + proc.stderr
    assert time.perf_counter() - t0 < 30


def test_library_metatables_are_out_of_reach(world):
    folder, db, _ = world
    duel, host = new_duel(folder, db)
    duel.engine.new_card(190099005)                # __gc and __mode put in Card
    assert host.errors == []
    lua = host.sandbox.lua
    probe = lua.eval("""function()
        local out = {}
        for _, lib in ipairs({Card, Effect, Group, Duel, Debug}) do
            out[#out + 1] = getmetatable(lib) == nil and not pcall(setmetatable, lib, {})
        end
        return table.unpack(out)
    end""")
    assert host.call_function(probe) == (True,) * 5
    # __mode in Card made no class weak: classes made afterwards keep their functions
    duel.engine.new_card(190099001)
    host.sandbox.full_gc()
    keeps = lua.eval("function() return type(c190099001.initial_effect) end")
    assert host.call_function(keeps) == ("function",)
    plays_on(duel)
    another_duel(folder, db)


# ----- item 3: per-duel deadlines that always fire ---------------------------------------------------


def _deck(path: Path, main: list[int]) -> Path:
    path.write_text("#main\n" + "\n".join(map(str, main)) + "\n#extra\n!side\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("hostile, budget", [(190099006, 600.0), (190099007, 600.0)])
def test_selfplay_kills_a_duel_that_never_returns_and_goes_on(world, hostile, budget):
    """An endless loop, or engine work with no Lua in it, under a time budget longer
    than the duel's deadline: the duel's process is killed at its deadline, the
    report says how far it got, and the next duel is played."""
    from duelhost.selfplay import KILL_GRACE, SelfplayConfig, run_selfplay

    folder, db, extra = world
    decks = [_deck(Path(f"d{i}.ydk"), main) for i, main in
             enumerate([[hostile] * 20 + [FILLER] * 20, [FILLER] * 40, [FILLER] * 40])]
    extra.update(p.name for p in decks)
    cfg = SelfplayConfig(scripts=folder, db=db, duels=3, seed=1, decks=decks, turn_limit=3,
                         timeout=2.0, script_time_budget=budget)
    t0 = time.perf_counter()
    res = run_selfplay(cfg, jobs=1)
    took = time.perf_counter() - t0
    by = {d.index: d for d in res.duels}
    killed = [by[0], by[2]]                        # the two duels with the hostile deck
    for d in killed:
        assert d.status == "engine_error"
        assert d.error.cause == "timeout: the duel took more than 2 s"
        assert "its process was killed at turn 0 after 0 responses" in d.error.message
        assert d.decks[0].startswith("d") and 2.0 <= d.seconds < 2.0 + KILL_GRACE + 2.0
    assert by[1].completed, by[1]                   # the run went on
    assert took < 2 * (2.0 + KILL_GRACE + 2.0) + 20


def test_selfplay_with_two_jobs_kills_the_late_duel_only(world):
    from duelhost.selfplay import SelfplayConfig, run_selfplay

    folder, db, extra = world
    decks = [_deck(Path(f"d{i}.ydk"), main) for i, main in
             enumerate([[190099006] * 20 + [FILLER] * 20, [FILLER] * 40, [FILLER] * 40])]
    extra.update(p.name for p in decks)
    cfg = SelfplayConfig(scripts=folder, db=db, duels=3, seed=1, decks=decks, turn_limit=3, timeout=2.0,
                         script_time_budget=600.0)
    res = run_selfplay(cfg, jobs=2)
    assert [d.status for d in res.duels] == ["engine_error", "turn_cap", "engine_error"], res.duels
    assert all("killed" in res.duels[i].error.message for i in (0, 2))


def test_diff_golden_replays_each_duel_under_a_deadline(world):
    from duelhost.diff import run_golden_diff

    golden = REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"
    ok = run_golden_diff(golden, limit=2, duel_timeout=60.0)
    assert [r.status for r in ok.results] == ["identical", "identical"]
    late = run_golden_diff(golden, limit=2, duel_timeout=0.05)
    for r in late.results:
        if r.status != "identical":        # a fast machine may finish within 0.05 s
            assert r.error.startswith("timeout: no result after 0.05 s; its process was killed at step ")


def test_check_kills_a_card_that_never_returns_and_goes_on(world):
    """check's workers have a per-card deadline of their own (--timeout), kept by
    the parent: here shorter than the 1 s budget, so the worker must be killed."""
    from duelhost.check import FAILED, PASSED, check_scripts

    folder, db, _ = world
    for p in folder.glob("c*.lua"):
        if p.name not in ("c190099006.lua", "c190099001.lua", "c190099002.lua"):
            p.unlink()
    t0 = time.perf_counter()
    report = check_scripts(folder, db, jobs=1, timeout=0.3)
    assert time.perf_counter() - t0 < 0.3 + 20
    by = {r.code: r for r in report.results}
    (lost,) = by[190099006].failures
    assert by[190099006].status == FAILED and lost.kind == "timeout"
    assert "no result after 0.3 s" in lost.message and "killed" in lost.message
    assert by[190099001].status == PASSED                 # the check went on
    assert "pattern too complex" in by[190099002].failures[0].message


def test_engine_work_that_never_returns_is_stopped_in_the_process(world):
    """The sum check of c190099007 runs in the engine with no Lua and no Card query
    in it: the overrun watcher interrupts it GRACE after the budget."""
    from duelhost.bindings.overrun import GRACE, PERIOD

    folder, db, _ = world
    duel, host = new_duel(folder, db, time_budget=0.5)
    duel.add_deck(0, [FILLER] * 30)
    _, took = timed(duel.add_deck, 1, [190099007])
    assert 0.5 + GRACE <= took < 0.5 + GRACE + PERIOD + 1.0
    (err,) = host.errors
    assert err.kind == "timeout" and err.card_code == 190099007 and err.callback == "initial_effect"
    assert "time budget of 0.5 s (in engine work for a library function" in err.message
    assert (err.script, err.line) == ("c190099007.lua", 6)
    plays_on(duel)
    another_duel(folder, db)
