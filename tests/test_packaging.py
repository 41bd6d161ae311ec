"""The distribution ships every package, the bundled data, and the console script."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
ROOTS = {"duelhost": REPO / "duelhost", "duelhost.engine": REPO / "engine",
         "duelhost.bindings": REPO / "bindings"}


def _packages_on_disk() -> set[str]:
    found = set()
    for name, root in ROOTS.items():
        for init in root.rglob("__init__.py"):
            rel = init.parent.relative_to(root)
            parts = [p for p in rel.parts if p]
            if "__pycache__" in parts:
                continue
            found.add(".".join([name, *parts]))
    return found


def test_every_package_folder_is_listed_in_pyproject() -> None:
    assert set(SETUPTOOLS["packages"]) == _packages_on_disk()


def test_the_three_folders_map_to_one_import_package() -> None:
    assert SETUPTOOLS["package-dir"] == {"duelhost": "duelhost", "duelhost.engine": "engine",
                                         "duelhost.bindings": "bindings"}


def test_bundled_lua_and_database_are_shipped() -> None:
    data = SETUPTOOLS["data-files"]
    assert data["share/duelhost"] == ["cards.db"]
    assert data["share/duelhost/scripts"] == ["scripts/*.lua"]
    assert "*.lua" in SETUPTOOLS["package-data"]["duelhost.bindings"]
    assert (REPO / "scripts" / "constant.lua").is_file()
    assert (REPO / "cards.db").is_file()


def test_console_script_and_pytest_plugin_entry_points() -> None:
    assert PYPROJECT["project"]["scripts"]["duelhost"] == "duelhost.cli:main"
    assert "duelhost" in PYPROJECT["project"]["entry-points"]["pytest11"]
