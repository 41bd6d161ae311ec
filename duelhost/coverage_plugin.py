"""pytest --lua-cov: Lua line coverage of the card scripts a test session ran.

Registered through the ``pytest11`` entry point (``duelhost-coverage``), so
installing duelhost is enough:

    pytest --lua-cov                               # table at the end + lua-coverage.json
    pytest --lua-cov --lua-cov-report=lcov:cov/lua.lcov --lua-cov-report=xml:cov/lua.xml
    pytest --lua-cov --lua-cov-report=term-missing --lua-cov-fail-under=80

Every Lua runtime created during the session (each duel's script host) gets
the line hook of duelhost.coverage; at the end the counts are merged per
script file.  Off by default: the hook costs time (docs/coverage.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .coverage import LuaCoverage

_KEY = pytest.StashKey["LuaCoverage"]()
_REPORT_KEY = pytest.StashKey["Any"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("duelhost-lua-cov", "duelhost: Lua line coverage of card scripts")
    group.addoption("--lua-cov", action="store_true", default=False,
                    help="count which lines of the card scripts (c<ID>.lua, utility.lua, ...) the "
                         "tests ran; print a table and write lua-coverage.json")
    group.addoption("--lua-cov-report", action="append", default=None, metavar="TYPE[:PATH]",
                    help="term (the table, default), term-missing (with missed lines), json[:PATH], "
                         "lcov[:PATH], xml[:PATH] (Cobertura); repeatable.  Default: term and json.")
    group.addoption("--lua-cov-source", action="append", default=None, metavar="DIR",
                    help="folder where script files are looked up for the report's paths (repeatable; "
                         "the folders of the duels' script hosts are used anyway)")
    group.addoption("--lua-cov-fail-under", type=float, default=None, metavar="PERCENT",
                    help="fail the session when the total line coverage is below PERCENT")
    group.addoption("--lua-cov-table", type=int, default=50, metavar="N",
                    help="list at most N files in the table (the least covered); 0 for all")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("lua_cov", default=False):
        cov = LuaCoverage()
        for d in config.getoption("lua_cov_source") or ():
            cov.search_dirs.append(Path(d))
        config.stash[_KEY] = cov.start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    cov = config.stash.get(_KEY, None)
    if cov is None:
        return
    cov.stop()
    report = cov.report()
    config.stash[_REPORT_KEY] = report
    limit = config.getoption("lua_cov_fail_under")
    if limit is not None and report.percent < limit and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    report = config.stash.get(_REPORT_KEY, None)
    if report is None:
        return
    specs = config.getoption("lua_cov_report") or ["term", "json"]
    tr = terminalreporter
    tr.write_sep("-", "Lua line coverage (duelhost)")
    if any(s.split(":")[0] in ("term", "term-missing") for s in specs):
        n = config.getoption("lua_cov_table")
        missing = any(s.split(":")[0] == "term-missing" for s in specs)
        tr.write_line(report.to_text(limit=n or None, missing=missing))
    else:
        tr.write_line(f"total {report.percent:.1f}% of {report.executable} lines in {len(report.files)} files")
    for spec in specs:
        try:
            path = report.write(spec)
        except ValueError as exc:
            tr.write_line(f"--lua-cov-report: {exc}", red=True)
            continue
        if path is not None:
            tr.write_line(f"Lua coverage written to {path}")
    limit = config.getoption("lua_cov_fail_under")
    if limit is not None:
        ok = report.percent >= limit
        tr.write_line(f"Lua coverage {report.percent:.1f}% {'>=' if ok else '<'} required {limit:g}%",
                      red=not ok, green=ok)
