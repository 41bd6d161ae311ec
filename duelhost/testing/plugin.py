"""The duelhost pytest plugin (registered through the ``pytest11`` entry point).

Installing duelhost is enough: every pytest session gets the fixtures

    duel                a fresh Scenario (duelhost.testing.scenario) for the test
    duel_factory        duel_factory(seed=..., strict=..., ...) -> another Scenario
    duelhost_settings   where scripts and cards come from, and strict mode (session)
    duelhost_db         the open card database (session, shared by all duels)

Where the scripts and the card database come from, first match wins:

    scripts   --duelhost-scripts DIR (repeatable) | ini duelhost_scripts | $YGOPRO_SCRIPTS | bundled
    cards     --duelhost-db FILE                  | ini duelhost_db      | $DUELHOST_DB    | bundled

(The bundled script folder is always searched after the given ones, so a folder
holding only your c<ID>.lua files works.)  Strict mode, the default, fails a test
on any script error; ``--duelhost-lenient`` or ini ``duelhost_strict = false``
turn it off, ``@pytest.mark.duelhost(strict=False)`` for one test.  The marker
also passes other Scenario options: ``@pytest.mark.duelhost(seed=7, auto_pass=True)``.

Nothing heavy is imported until a fixture is used, so the plugin costs nothing
in sessions that do not use it.
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from duelhost import paths
from duelhost.engine.carddb import CardDatabase
from duelhost.testing.scenario import Scenario

ENV_SCRIPTS = "YGOPRO_SCRIPTS"
ENV_DB = "DUELHOST_DB"

__all__ = ["DuelhostSettings", "resolve_settings"]


@dataclass(frozen=True)
class DuelhostSettings:
    """Where the plugin's duels get their scripts and cards, and whether script errors fail tests."""

    scripts: tuple[Path, ...]           # searched in order, then the bundled folder
    db: Path | None                     # None: the bundled cards.db
    strict: bool
    sources: dict[str, str] = field(default_factory=dict)   # "scripts"/"db"/"strict" -> where it was set

    def describe(self) -> str:
        scripts = ", ".join(map(str, self.scripts)) + " then bundled" if self.scripts else "bundled"
        db = str(self.db) if self.db is not None else "bundled cards.db"
        return (f"duelhost: scripts {scripts} ({self.sources.get('scripts', 'default')}); "
                f"cards {db} ({self.sources.get('db', 'default')}); "
                f"{'strict' if self.strict else 'lenient'} ({self.sources.get('strict', 'default')})")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("duelhost", "duelhost: testing YGOPro card scripts")
    group.addoption("--duelhost-scripts", action="append", default=None, metavar="DIR",
                    help="card-script folder for the duel fixtures (repeatable; searched in order, "
                         f"then the bundled scripts). Default: ini duelhost_scripts, ${ENV_SCRIPTS}, bundled.")
    group.addoption("--duelhost-db", default=None, metavar="FILE",
                    help=f"card database (cards.cdb schema). Default: ini duelhost_db, ${ENV_DB}, bundled cards.db.")
    group.addoption("--duelhost-html", default=None, metavar="DIR",
                    help="where a failed expectation writes its HTML page of the duel (default: "
                         "duelhost-html in pytest's temporary folder; 'no': no page).")
    group.addoption("--duelhost-lenient", action="store_true", default=False,
                    help="record script errors instead of failing the test (strict is the default)")
    parser.addini("duelhost_scripts", type="paths", default=[],
                  help="card-script folder(s) for the duel fixtures, relative to the ini file")
    parser.addini("duelhost_db", type="string", default="",
                  help="card database for the duel fixtures, relative to the ini file")
    parser.addini("duelhost_strict", type="bool", default=True,
                  help="fail a test on any script error (default true)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "duelhost(**options): options for the duel fixture's Scenario "
                   "(seed=, strict=, scripts=, db=, auto_pass=, counter_names=, ...)")


def _ini_base(config: pytest.Config) -> Path:
    inipath = getattr(config, "inipath", None)
    return Path(inipath).parent if inipath else Path(config.rootpath)


def resolve_settings(config: pytest.Config, environ: dict[str, str] | None = None) -> DuelhostSettings:
    """The settings from the command line, the ini file, the environment, in that order."""
    env = os.environ if environ is None else environ
    sources: dict[str, str] = {}
    cwd = Path(config.invocation_params.dir)
    scripts: list[Path] = []
    opt = config.getoption("duelhost_scripts", default=None)
    ini_scripts = config.getini("duelhost_scripts")
    if opt:
        scripts = [(cwd / p).resolve() for p in opt]
        sources["scripts"] = "--duelhost-scripts"
    elif ini_scripts:
        scripts = [Path(p).resolve() for p in ini_scripts]
        sources["scripts"] = "ini duelhost_scripts"
    elif env.get(ENV_SCRIPTS):
        scripts = [Path(p).expanduser().resolve() for p in env[ENV_SCRIPTS].split(os.pathsep) if p]
        sources["scripts"] = f"${ENV_SCRIPTS}"
    db: Path | None = None
    opt_db = config.getoption("duelhost_db", default=None)
    ini_db = config.getini("duelhost_db")
    if opt_db:
        db = (cwd / opt_db).resolve()
        sources["db"] = "--duelhost-db"
    elif ini_db:
        db = (_ini_base(config) / ini_db).resolve()
        sources["db"] = "ini duelhost_db"
    elif env.get(ENV_DB):
        db = Path(env[ENV_DB]).expanduser().resolve()
        sources["db"] = f"${ENV_DB}"
    strict = bool(config.getini("duelhost_strict"))
    if config.getini("duelhost_strict") is not True:
        sources["strict"] = "ini duelhost_strict"
    if config.getoption("duelhost_lenient", default=False):
        strict = False
        sources["strict"] = "--duelhost-lenient"
    return DuelhostSettings(scripts=tuple(scripts), db=db, strict=strict, sources=sources)


def pytest_report_header(config: pytest.Config) -> str | None:
    try:
        return resolve_settings(config).describe()
    except Exception as exc:      # never break a session over a header line
        return f"duelhost: settings could not be read ({exc})"


@pytest.fixture(scope="session")
def duelhost_settings(pytestconfig: pytest.Config) -> DuelhostSettings:
    """Where the duel fixtures get scripts and cards (checked: missing paths fail with their source)."""
    s = resolve_settings(pytestconfig)
    for folder in s.scripts:
        if not folder.is_dir():
            pytest.fail(f"duelhost: script folder {folder} (from {s.sources.get('scripts')}) does not exist",
                        pytrace=False)
    if s.db is not None and not s.db.is_file():
        pytest.fail(f"duelhost: card database {s.db} (from {s.sources.get('db')}) does not exist", pytrace=False)
    return s


@pytest.fixture(scope="session")
def duelhost_db(duelhost_settings: DuelhostSettings) -> Any:
    """The card database, opened once per session."""
    return CardDatabase.open(duelhost_settings.db if duelhost_settings.db is not None else paths.bundled_db())


@pytest.fixture
def duel_factory(request: pytest.FixtureRequest, duelhost_settings: DuelhostSettings, duelhost_db: Any,
                 tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Make Scenarios with the session's scripts and cards: ``duel_factory(seed=1, strict=False, ...)``.

    Options come from the test's ``@pytest.mark.duelhost(...)`` marker, then the call's keywords.
    At the end of the test, a strict scenario fails the test if a script error is still unreported."""
    marker = request.node.get_closest_marker("duelhost")
    base: dict[str, Any] = dict(marker.kwargs) if marker is not None else {}
    made: list[Scenario] = []

    def make(**options: Any) -> Scenario:
        kw = {"scripts": list(duelhost_settings.scripts), "db": duelhost_db, "strict": duelhost_settings.strict}
        kw.update(base)
        kw.update(options)
        sc = Scenario(**kw)
        html = request.config.getoption("--duelhost-html")
        if html != "no":
            folder = Path(html) if html else tmp_path_factory.getbasetemp() / "duelhost-html"
            sc.html_page = folder / (_page_name(request.node.nodeid) + (f"-{len(made)}" if made else "") + ".html")
        made.append(sc)
        return sc

    yield make
    try:
        for sc in made:
            _report_engine_warnings(sc)
            if sc.strict:
                sc._check_errors("that no action reported (found at the end of the test)")
    finally:
        for sc in made:
            sc.close()


class DuelhostWarning(UserWarning):
    """What a duel went on through (the engine's warnings), e.g. a Token whose code has no
    database row (the reference makes a blank card with that code, and so does the engine)."""


def _report_engine_warnings(sc: Any) -> None:
    """Each distinct engine warning of the scenario's duel, as a pytest warning (listed in
    the run's warnings summary; ``-W error::duelhost.testing.plugin.DuelhostWarning`` makes
    them failures)."""
    engine = getattr(sc.host, "engine", None)
    for text in dict.fromkeys(getattr(engine, "warnings", ()) or ()):
        warnings.warn(DuelhostWarning(text), stacklevel=2)


def _page_name(nodeid: str) -> str:
    return re.sub(r"[^\w.-]+", "_", nodeid).strip("_")[-150:]


@pytest.fixture
def duel(duel_factory: Any) -> Any:
    """A fresh duel Scenario for this test (set up cards, ``start()``, act, expect)."""
    return duel_factory()
