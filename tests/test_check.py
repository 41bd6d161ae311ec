"""``duelhost check``: static scans, grouping, reports, the worker pool, and real loads."""

from __future__ import annotations

import json
import os
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
    assert s["with_db_row"] == 4 and s["pass_rate_with_row"] == 0.5
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
    assert "2/4 scripts with a database row (50.0%)" in text
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
