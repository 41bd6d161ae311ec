"""``duelhost check``: static scans, grouping, reports, the worker pool, and real loads."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from duelhost import check as chk
from duelhost.check import (FAILED, NO_DB_ROW, NO_INITIAL_EFFECT, NOT_RUN, PASSED, CardResult,
                            CheckReport, Finding, ScriptFailure, check_scripts, failure_pattern,
                            lua_tokens, needed_function, scan_script)
from duelhost.cli import main

LIBRARY = frozenset({"TYPE_MONSTER", "EFFECT_TYPE_SINGLE", "EVENT_FREE_CHAIN", "RESET_EVENT"})


# ----- the Lua tokenizer ---------------------------------------------------------------------

def test_tokens_skip_comments_and_keep_strings_and_lines() -> None:
    src = 'a = "x\\"--y" -- TYPE_X\n--[==[ TYPE_Y\n]==] b [[TYPE_Z\n]] 0x1F 1.5e3 c..d ...\ne'
    toks = list(lua_tokens(src))
    assert [t[1] for t in toks] == ["a", "=", '"x\\"--y"', "b", "[[TYPE_Z\n]]", "0x1F", "1.5e3",
                                      "c", "..", "d", "...", "e"]
    assert [t[2] for t in toks if t[0] == "name"] == [1, 3, 4, 4, 5]


def test_tokens_stop_quietly_at_an_unterminated_string() -> None:
    assert [t[1] for t in lua_tokens('a "open\nb')] == ["a"]
    assert [t[1] for t in lua_tokens("a 'open")] == ["a"]
    # an unclosed long comment or long string ends the scan too
    assert [t[1] for t in lua_tokens("x --[[ never closed\n y")] == ["x"]
    assert [t[1] for t in lua_tokens("x [==[ open\n y")] == ["x"]


def test_tokens_of_long_brackets_operators_and_blanks() -> None:
    # a long bracket closes only with its own level; "--[=x" is a line comment
    assert list(lua_tokens("a = [=[ x ]] ]=] b")) == [
        ("name", "a", 1), ("op", "=", 1), ("string", "[=[ x ]] ]=]", 1), ("name", "b", 1)]
    assert list(lua_tokens("x --[==[ a\n]=] ]==] y\nz")) == [
        ("name", "x", 1), ("name", "y", 2), ("name", "z", 3)]
    assert list(lua_tokens("--[=x\nA")) == [("name", "A", 2)]
    # blanks at the end make no token; operators of one and more characters
    assert list(lua_tokens("a  \t")) == [("name", "a", 1)]
    assert [t[1] for t in lua_tokens("a--[[x]]b.c:d(e,f)[g]~=h//2<<1 ... ::l::")] == [
        "a", "b", ".", "c", ":", "d", "(", "e", ",", "f", ")", "[", "g", "]", "~=", "h", "//", "2",
        "<<", "1", "...", "::", "l", "::"]
    assert [t[0] for t in lua_tokens("local x = 0x1F + .5")] == [
        "keyword", "name", "op", "number", "op", "number"]


# ----- static scan ----------------------------------------------------------------------------

SCRIPT = """
local s,id,o=GetID()
function s.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_SINGLEX) -- TYPE_IN_COMMENT
    e1:SetCode("EVENT_IN_STRING")
    local LOCAL_CAPS=3
    e1:SetValue(LOCAL_CAPS+ASSIGNED_LATER+TYPE_MONSTER)
    c:RegisterEffect(e1)
    if c12345678 then c12345678.filter() end
    Duel.CreateToken(tp,id+o*2)
    Duel.CreateToken(tp,777)
    c:CopyEffect(code,RESET_EVENT,1)
end
ASSIGNED_LATER=1
"""


def test_scan_finds_undefined_caps_references_and_initial_effect() -> None:
    info = scan_script(SCRIPT, 555, LIBRARY)
    assert info.defines_initial_effect
    assert [(f.name, f.line) for f in info.undefined_constants] == [("EFFECT_TYPE_SINGLEX", 5)]
    refs = {(f.code, f.detail, f.line) for f in info.references}
    assert refs == {(12345678, "script table", 10), (557, "CreateToken(557)", 11),
                    (777, "CreateToken(777)", 12)}


def test_scan_legacy_table_name_and_missing_initial_effect() -> None:
    src = "function c100.initial_effect(c)\nend\nfunction c100.filter(c) return c100.x end\n"
    info = scan_script(src, 100, LIBRARY)
    assert info.defines_initial_effect and not info.references
    info = scan_script("function c100.init(c)\nend\n", 100, LIBRARY)
    assert not info.defines_initial_effect


def test_scan_ignores_locals_named_like_script_tables() -> None:
    src = "function s.f(c1234,c2)\n return c1234:IsCode(1) and c2\nend\nlocal c9999=1\nreturn c9999"
    assert scan_script(src, 1, LIBRARY).references == ()


def test_missing_references_consult_the_folder_and_what_needs_a_script() -> None:
    info = scan_script(SCRIPT, 555, LIBRARY)
    out = chk.missing_references(info, available=lambda c: c == 777, needs_script=lambda c: c != 557)
    assert [f.code for f in out] == [12345678]
    out = chk.missing_references(info, available=lambda c: False, needs_script=lambda c: True)
    assert sorted(f.code for f in out) == [557, 777, 12345678]


# ----- grouping ---------------------------------------------------------------------------------

def test_failure_pattern_groups_by_message_kind() -> None:
    a = failure_pattern("c123456.lua:12: attempt to call a nil value (method 'IsFoo')\nstack traceback:")
    b = failure_pattern("./script/c999.lua:80: attempt to call a nil value (method 'IsFoo')")
    assert a == b == "attempt to call a nil value (method 'IsFoo')"
    assert failure_pattern("bad argument #2 to 'SetValue' (number expected, got 15)") == \
        "bad argument #2 to 'SetValue' (number expected, got <N>)"
    assert failure_pattern("c12.lua:3: c77777 is nil") == "c<ID> is nil"


def test_needed_function_names_the_library() -> None:
    def f(msg: str) -> ScriptFailure:
        return ScriptFailure(message=msg, callback="initial_effect")
    assert needed_function(f("not implemented: Card.IsFoo")) == "Card.IsFoo"
    assert needed_function(f("x.lua:3: attempt to call a nil value (field 'Bar')"),
                           "\tif Duel.Bar(tp) then") == "Duel.Bar"
    assert needed_function(f("attempt to call a nil value (field 'Baz')"),
                           "aux.Baz(c)") == "aux.Baz"
    assert needed_function(f("attempt to call a nil value (method 'SetX')"), "e1:SetX(3)") == "Effect:SetX"
    assert needed_function(f("attempt to call a nil value (method 'Y')"), "sg:Y()") == "Group:Y"
    assert needed_function(f("attempt to call a nil value (method 'Z')"), "tc:Z()") == "Card:Z"
    assert needed_function(f("attempt to compare number with nil")) is None


# ----- reports ----------------------------------------------------------------------------------

def _sample_report() -> CheckReport:
    fail = ScriptFailure(message="c2.lua:5: attempt to call a nil value (method 'IsFoo')",
                         callback="initial_effect", file="c2.lua", line=5,
                         traceback="stack traceback:\n\tc2.lua:5: in function 'initial_effect'",
                         needs="Card:IsFoo")
    results = [
        CardResult(code=1, file="c1.lua", status=PASSED, name="One"),
        CardResult(code=2, file="c2.lua", status=FAILED, name="Two <&>", failures=[fail]),
        CardResult(code=3, file="c3.lua", status=NO_DB_ROW, reason="no database row for card code 3"),
        CardResult(code=4, file="c4.lua", status=NO_INITIAL_EFFECT, name="Four", failures=[
            ScriptFailure(message="no initial_effect", callback="initial_effect", kind="no_initial_effect")]),
        CardResult(code=5, file="c5.lua", status=PASSED, name="Five", findings=[
            Finding(kind="undefined_constant", name="TYPE_MONSTR", line=3, detail="runtime"),
            Finding(kind="missing_reference", name="c9", code=9, line=4, detail="script table")]),
    ]
    return CheckReport(scripts="dir", db="cards.db", results=results, seconds=1.0, jobs=2)


def test_report_counts_and_exit_code() -> None:
    r = _sample_report()
    s = r.summary()
    assert (s["total"], s[PASSED], s[FAILED], s[NO_INITIAL_EFFECT], s[NO_DB_ROW]) == (5, 2, 1, 1, 1)
    assert s["with_db_row"] == 4 and s["run"] == 4 and s["pass_rate"] == 0.5
    assert s["missing_references"] == 1 and s["undefined_constants"] == 1
    assert r.exit_code == 1
    assert r.causes()[0][1] == 1 and r.needed_functions() == [("Card:IsFoo", 1, [2])]
    ok = CheckReport(scripts="d", db="b", results=[r.results[0], r.results[4]])
    assert ok.exit_code == 0
    ok.strict = True
    assert ok.exit_code == 1


def test_text_report_lists_failures_findings_and_summary() -> None:
    text = _sample_report().to_text()
    assert 'c2 "Two <&>" [c2.lua]' in text
    assert "at c2.lua:5" in text and "[initial_effect]" in text and "stack traceback" in text
    assert "missing: Card:IsFoo" in text
    assert "TYPE_MONSTR (line 3)" in text and "c9.lua is not in the folder" in text
    assert "no database row" in text and "(skipped, not failures)" in text
    assert "2/4 scripts with a database row that the engine runs (50.0%)" in text
    assert text.rstrip().endswith("result: FAILED")


def test_json_and_junit_reports() -> None:
    r = _sample_report()
    data = json.loads(json.dumps(r.to_json()))
    cards = {c["code"]: c for c in data["cards"]}
    assert cards[2]["failures"][0]["line"] == 5 and cards[3]["status"] == "no_db_row"
    assert data["needed_functions"][0]["function"] == "Card:IsFoo"
    root = ET.fromstring(r.to_junit())
    suite = root.find("testsuite")
    assert suite is not None and suite.get("tests") == "5" and suite.get("failures") == "2"
    assert suite.get("skipped") == "1"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    fail = cases["c2 Two <&>"].find("failure")
    assert fail is not None and "IsFoo" in fail.get("message", "") and "stack traceback" in (fail.text or "")
    assert cases["c3"].find("skipped") is not None
    assert "TYPE_MONSTR" in (cases["c5 Five"].findtext("system-out") or "")


# ----- the worker pool (a stand-in loader) ------------------------------------------------------

class _FakeLoader:
    constants_check = "static"
    notes = ("fake loader",)

    def __init__(self, spec: chk.LoaderSpec) -> None:
        self.spec = spec

    def run(self, code: int) -> CardResult:
        if code == 3:
            os._exit(3)
        if code == 4:
            time.sleep(60)
        status = FAILED if code == 2 else PASSED
        failures = [ScriptFailure(message="boom", callback="load")] if code == 2 else []
        return CardResult(code=code, file=f"c{code}.lua", status=status, failures=failures,
                          extra={"pid": os.getpid()})


def _fake_folder(tmp_path: Path, codes: list[int]) -> tuple[Path, Path]:
    folder = tmp_path / "scripts"
    folder.mkdir()
    for c in codes:
        (folder / f"c{c}.lua").write_text("-- fake\n")
    db = tmp_path / "x.db"
    db.write_bytes(b"")
    return folder, db


def test_pool_survives_crash_and_timeout(tmp_path: Path) -> None:
    folder, db = _fake_folder(tmp_path, [1, 2, 3, 4, 5, 6, 7, 8])
    seen: list[int] = []
    report = check_scripts(folder, db, jobs=2, timeout=1.5, loader_factory=_FakeLoader,
                           progress=lambda r: seen.append(r.code))
    by = {r.code: r for r in report.results}
    assert sorted(seen) == list(by) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [by[c].status for c in (1, 5, 6, 7, 8)] == [PASSED] * 5
    assert by[2].status == FAILED and by[2].failures[0].message == "boom"
    assert by[3].failures[0].kind == "crash" and "exit code 3" in by[3].failures[0].message
    assert by[4].failures[0].kind == "timeout"
    assert report.notes == ["fake loader"]
    assert sum(w["cards"] for w in report.workers) == 6    # the crash and the time-out are not counted
    assert {w["ended"] for w in report.workers} >= {"crash", "timeout", "done"}


def test_in_process_run_and_selection(tmp_path: Path) -> None:
    folder, db = _fake_folder(tmp_path, [1, 2, 5, 6])
    report = check_scripts(folder, db, jobs=0, loader_factory=_FakeLoader, limit=3)
    assert [r.code for r in report.results] == [1, 2, 5]
    assert {r.extra["pid"] for r in report.results} == {os.getpid()}
    report = check_scripts(folder, db, jobs=0, loader_factory=_FakeLoader, only=[6, 1])
    assert [r.code for r in report.results] == [1, 6]
    with pytest.raises(chk.CheckError, match="c7.lua"):
        check_scripts(folder, db, jobs=0, loader_factory=_FakeLoader, only=[7])


# ----- real loads: a folder of broken scripts -------------------------------------------------

BROKEN = {
    # passes
    190090001: """
function c190090001.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_SINGLE)
    e1:SetCode(EFFECT_UPDATE_ATTACK)
    e1:SetValue(100)
    c:RegisterEffect(e1)
end
""",
    # syntax error (line 3)
    190090002: """
function c190090002.initial_effect(c)
    local e1=Effect.CreateEffect(c
end
""",
    # runtime error in initial_effect (line 4)
    190090003: """
function c190090003.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    c:NoSuchMethodAnywhere(e1)
end
""",
    # reads an undefined ALL_CAPS constant: loads, but is reported
    190090004: """
function c190090004.initial_effect(c)
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_SINGEL)
    c:RegisterEffect(e1)
end
""",
    # references the script table of a card that has no script in the folder
    190090005: """
function c190090005.initial_effect(c)
end
function c190090005.filter(c)
    return c190099999 and c190099999.filter(c)
end
""",
    # no initial_effect
    190090006: """
function c190090006.init(c)
end
""",
    # no database row
    190090007: """
function c190090007.initial_effect(c)
end
""",
    # no database row and no initial_effect
    190090011: """
function c190090011.initial(c)
end
""",
    # a Normal Monster: the engine runs no script for it
    190090008: """
function c190090008.initial_effect(c)
    error("never run")
end
""",
    # an error raised by the script itself, deep in a helper
    190090009: """
local function helper(x)
    error("bad helper argument " .. tostring(x))
end
function c190090009.initial_effect(c)
    helper(42)
end
""",
}


def _broken_folder(tmp_path: Path) -> tuple[Path, Path]:
    import sqlite3

    from duelhost import paths
    from duelhost.engine.carddb import CDB_SCHEMA

    folder = tmp_path / "scripts"
    folder.mkdir()
    shutil.copy(paths.bundled_scripts() / "constant.lua", folder / "constant.lua")
    for code, src in BROKEN.items():
        (folder / f"c{code}.lua").write_text(src, encoding="utf-8")
    db = tmp_path / "cards.cdb"
    con = sqlite3.connect(db)
    con.executescript(CDB_SCHEMA)
    for code in BROKEN:
        if code in (190090007, 190090011):
            continue
        type_ = 0x11 if code == 190090008 else 0x21     # Normal / Effect Monster
        con.execute("INSERT INTO datas VALUES (?,0,0,0,?,1000,1000,4,1,1,0)", (code, type_))
        con.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", (code, f"Broken {code % 100}", ""))
    con.commit()
    con.close()
    return folder, db


def _expect_broken(report: CheckReport) -> None:
    by = {r.code: r for r in report.results}
    assert by[190090001].status == PASSED and not by[190090001].findings
    syntax = by[190090002]
    assert syntax.status == FAILED and syntax.failures[0].callback == "load"
    assert syntax.failures[0].file == "c190090002.lua" and syntax.failures[0].line == 4
    assert len(syntax.failures) == 1       # its missing initial_effect is a consequence, not reported
    rt = by[190090003]
    assert rt.status == FAILED and rt.failures[0].callback == "initial_effect"
    assert (rt.failures[0].file, rt.failures[0].line) == ("c190090003.lua", 4)
    assert "NoSuchMethodAnywhere" in rt.failures[0].message
    assert rt.failures[0].needs == "Card:NoSuchMethodAnywhere"
    assert "c190090003.lua:4" in rt.failures[0].traceback
    undefined = by[190090004]
    assert undefined.status == PASSED
    assert [(f.kind, f.name) for f in undefined.findings] == [("undefined_constant", "EFFECT_TYPE_SINGEL")]
    missing = by[190090005]
    assert missing.status == PASSED
    assert [(f.kind, f.code) for f in missing.findings] == [("missing_reference", 190099999)]
    assert by[190090006].status == NO_INITIAL_EFFECT
    assert by[190090007].status == NO_DB_ROW and not by[190090007].findings
    assert by[190090011].status == NO_DB_ROW
    assert [f.kind for f in by[190090011].findings] == ["no_initial_effect"]
    assert by[190090008].status == NOT_RUN
    deep = by[190090009]
    assert deep.status == FAILED and "bad helper argument 42" in deep.failures[0].message
    assert (deep.failures[0].file, deep.failures[0].line) == ("c190090009.lua", 3)
    assert "c190090009.lua:6" in deep.failures[0].traceback
    s = report.summary()
    assert (s["total"], s[PASSED], s[FAILED], s[NO_INITIAL_EFFECT], s[NO_DB_ROW], s[NOT_RUN]) == \
        (10, 3, 3, 1, 2, 1)
    assert s["with_db_row"] == 8 and s["run"] == 7
    assert report.exit_code == 1


def test_broken_scripts_in_process(tmp_path: Path) -> None:
    folder, db = _broken_folder(tmp_path)
    report = check_scripts(folder, db, jobs=0)
    _expect_broken(report)
    assert any("utility.lua" in n for n in report.notes)


def test_broken_scripts_cli_text_json_junit(tmp_path: Path) -> None:
    folder, db = _broken_folder(tmp_path)
    runner = CliRunner()
    base = ["check", "--scripts", str(folder), "--db", str(db), "--jobs", "2", "--no-progress"]
    res = runner.invoke(main, base)
    assert res.exit_code == 1, res.output
    out = res.output
    assert 'c190090003 "Broken 3" [c190090003.lua]' in out
    assert "[initial_effect]" in out and "at c190090003.lua:4" in out and "stack traceback" in out
    assert "[load]" in out and "at c190090002.lua:4" in out
    assert "EFFECT_TYPE_SINGEL (line 4)" in out
    assert "references c190099999 (script table) (line 5), but c190099999.lua is not in the folder" in out
    assert re.search(r"no initial_effect +1\n", out)
    assert re.search(r"no database row +2  \(skipped, not failures\)", out)
    assert "== scripts not run that define no initial_effect (1) ==\n  c190090011" in out
    assert "3/7 scripts with a database row that the engine runs" in out

    jpath = tmp_path / "r.json"
    res = runner.invoke(main, base + ["--report", "json", "--output", str(jpath)])
    assert res.exit_code == 1 and "result: FAILED" in res.output
    data = json.loads(jpath.read_text())
    cards = {c["code"]: c for c in data["cards"]}
    assert cards[190090002]["failures"][0]["callback"] == "load"
    assert cards[190090003]["failures"][0]["line"] == 4
    assert cards[190090004]["findings"][0]["name"] == "EFFECT_TYPE_SINGEL"
    assert cards[190090005]["findings"][0]["code"] == 190099999
    assert cards[190090006]["status"] == "no_initial_effect"
    assert cards[190090007]["status"] == "no_db_row"
    assert data["summary"]["failed"] == 3 and data["summary"]["no_db_row"] == 2
    assert {c["function"] for c in data["needed_functions"]} == {"Card:NoSuchMethodAnywhere"}

    xpath = tmp_path / "r.xml"
    res = runner.invoke(main, base + ["--report", "junit", "-o", str(xpath)])
    assert res.exit_code == 1
    suite = ET.parse(xpath).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("10", "4", "3")
    cases = {c.get("name", "").split()[0]: c for c in suite.iter("testcase")}
    for code in (190090002, 190090003, 190090006, 190090009):
        fail = cases[f"c{code}"].find("failure")
        assert fail is not None and fail.get("message")
    assert "stack traceback" in (cases["c190090003"].find("failure").text or "")  # type: ignore[union-attr]
    assert cases["c190090007"].find("skipped") is not None
    assert cases["c190090008"].find("skipped") is not None
    assert cases["c190090001"].find("failure") is None
    assert "EFFECT_TYPE_SINGEL" in (cases["c190090004"].findtext("system-out") or "")

    res = runner.invoke(main, base + ["--only", "c190090001.lua,190090004"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, base + ["--only", "190090001,190090004", "--strict"])
    assert res.exit_code == 1
    res = runner.invoke(main, base + ["--only", "12"])
    assert res.exit_code == 2 and "c12.lua" in res.output


def test_reset_isolation_restores_globals(tmp_path: Path) -> None:
    """A script that breaks a shared global does not change the next card's result."""
    folder, db = _broken_folder(tmp_path)
    (folder / "c190090010.lua").write_text(
        "function c190090010.initial_effect(c)\n  Effect.CreateEffect = nil\n"
        "  EFFECT_TYPE_SINGLE = nil\n  Duel.Draw = print\n  NEW_GLOBAL = 1\nend\n")
    import sqlite3
    con = sqlite3.connect(db)
    con.execute("INSERT INTO datas VALUES (190090010,0,0,0,33,0,0,4,1,1,0)")
    con.commit()
    con.close()
    report = check_scripts(folder, db, jobs=0, only=[190090010, 190090001, 190090004])
    by = {r.code: r for r in report.results}
    assert by[190090010].status == PASSED
    assert {(f.name, f.detail) for f in by[190090010].findings if f.kind == "global_write"} == {
        ("EFFECT_TYPE_SINGLE", "replaced"), ("Effect.CreateEffect", "replaced"),
        ("Duel.Draw", "replaced"), ("NEW_GLOBAL", "added")}
    # ran after it in the same host, and still fine
    assert by[190090001].status == PASSED and by[190090004].status == PASSED


def test_bundled_scripts_pass() -> None:
    """The main job of README.md: the bundled scripts load cleanly."""
    res = CliRunner().invoke(main, ["check", "--jobs", "0", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "result: OK" in res.output


# ----- the real corpus (YGOPRO_SCRIPTS) ---------------------------------------------------------

def test_real_corpus_sample(real_scripts: Path, corpus_db: Path) -> None:
    codes = sorted(chk.script_files(real_scripts))
    sample = codes[:: max(1, len(codes) // 60)][:60]
    report = check_scripts(real_scripts, corpus_db, jobs=0, only=sample)
    assert report.total == len(sample)
    from duelhost.engine.carddb import CardDatabase
    db = CardDatabase.open(corpus_db)
    for r in report.results:
        assert (r.status == NO_DB_ROW) == (r.code not in db)
        # failures come from scripts or bindings, never from the check itself
        assert all(f.callback != "check" for f in r.failures), r.failures
        for f in r.failures:
            assert f.message and f.callback in ("load", "initial_effect") or f.kind in ("engine",)
    assert report.with_row > 0


def test_real_corpus_static_scan_is_quiet(real_scripts: Path) -> None:
    """No false alarms on the reference corpus: every ALL_CAPS name is defined,
    and every c<ID> table a script names exists."""
    library = chk.library_globals(real_scripts)
    assert {"TYPE_MONSTER", "RESET_EVENT", "RESETS_STANDARD", "NULL_VALUE"} <= library
    files = chk.script_files(real_scripts)
    for code in list(files)[:: max(1, len(files) // 800)]:
        info = scan_script(chk.read_lua(files[code]), code, library)
        assert info.defines_initial_effect, code
        assert info.undefined_constants == (), (code, info.undefined_constants)
        assert all(f.code in files for f in info.references if f.detail == "script table"), code


def test_real_known_cards_load(real_scripts: Path, corpus_db: Path) -> None:
    """Cards that must load: a legacy-style script and a GetID()-style one."""
    report = check_scripts(real_scripts, corpus_db, jobs=0, only=[10000, 70058649])
    assert [r.status for r in report.results] == [PASSED, PASSED], report.to_text()


def test_check_names_a_token_code_with_no_database_row(tmp_path: Path) -> None:
    """Issue 12 item 7: a Token the script would create with a code that has no row (the
    reference, and the engine, make a blank card then: the duel goes on) is listed by the
    check, in one line naming the card, the code and the line, and it is not a failure."""
    from duelhost import paths
    folder = tmp_path / "scripts"
    shutil.copytree(paths.bundled_scripts(), folder)
    lantern = folder / "c190003001.lua"
    lantern.write_text(lantern.read_text().replace("Duel.CreateToken(tp,TOKEN)", "Duel.CreateToken(tp,99999901)"))
    res = CliRunner().invoke(main, ["check", "--scripts", str(folder), "--only", "190003001"])
    assert res.exit_code == 0, res.output
    line = next(ln for ln in res.output.splitlines() if ln.startswith("c190003001"))
    assert "CreateToken(99999901)" in line
    assert "99999901" in line and "no database row" in line
    assert "result: OK" in res.output
