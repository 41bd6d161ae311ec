"""The engine's shape: one definition per name, every file on the map, no hidden import circles.

``Duel`` and ``Card`` are composed of mixins, one file per area of the rules.
Python resolves a name defined in two of them silently through the method
order, so a second definition is dead code that looks alive (``is_able_to_enter_bp``
once existed in field/permissions.py and field/chains.py).  These tests make
such a collision, a file missing from the map in engine/duel.py, and a new
import inside a function fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from duelhost.engine.card import Card
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect

ENGINE = Path(__file__).resolve().parent.parent / "engine"

# A name two bases may both define, with the reason the design needs it.  Empty:
# every collision found so far was a dead duplicate and was removed.
ALLOWED_OVERRIDES: dict[tuple[str, str], str] = {}

# Imports inside functions that stay, with the reason (docs/architecture.md lists them too).
ALLOWED_FUNCTION_IMPORTS: dict[tuple[str, str], str] = {
    ("card_effects.py", "_is_card"):
        "Card is composed of the card_* mixins, so a mixin module cannot import it at load time",
    ("group.py", "_card_class"):
        "card.py imports group.py (CardSet) before Card exists",
}


def _collisions(cls: type) -> list[str]:
    owners: dict[str, list[str]] = {}
    for base in cls.__mro__:
        if base is object:
            continue
        for name in vars(base):
            if name.startswith("__") and name.endswith("__"):
                continue
            owners.setdefault(name, []).append(f"{base.__module__}.{base.__qualname__}")
    return [f"{name}: {', '.join(where)}" for name, where in sorted(owners.items())
            if len(where) > 1 and (cls.__name__, name) not in ALLOWED_OVERRIDES]


@pytest.mark.parametrize("cls", [Duel, Card, Effect], ids=lambda c: c.__name__)
def test_no_two_bases_define_the_same_name(cls: type) -> None:
    assert _collisions(cls) == []


def test_the_collision_check_sees_a_shadowed_method() -> None:
    class A:
        def f(self) -> int:
            return 1

    class B:
        def f(self) -> int:
            return 2

    class C(A, B):
        pass

    assert _collisions(C) == [f"f: {__name__}.{A.__qualname__}, {__name__}.{B.__qualname__}"]


def test_every_engine_file_is_on_the_map_in_duel_py() -> None:
    doc = ast.get_docstring(ast.parse((ENGINE / "duel.py").read_text(encoding="utf-8"))) or ""
    listed = {word for line in doc.splitlines() for word in line.split() if word.endswith(".py")}
    files = {p.relative_to(ENGINE).as_posix() for p in ENGINE.rglob("*.py")
             if p.name != "__init__.py"}
    missing = sorted(f for f in files if f not in listed)
    stale = sorted(f for f in listed if f not in files)
    assert (missing, stale) == ([], [])


def _function_imports(path: Path) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []

    def visit(node: ast.AST, fn: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
            elif isinstance(child, (ast.Import, ast.ImportFrom)) and fn is not None:
                found.append((path.relative_to(ENGINE).as_posix(), fn))
            else:
                visit(child, fn)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found


def test_no_imports_inside_engine_functions_but_the_documented_ones() -> None:
    found = sorted({key for p in ENGINE.rglob("*.py") for key in _function_imports(p)})
    assert found == sorted(ALLOWED_FUNCTION_IMPORTS)
    doc = (ENGINE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for file, fn in ALLOWED_FUNCTION_IMPORTS:
        assert f"{file}" in doc and f"`{fn}`" in doc, f"docs/architecture.md does not explain {file} {fn}"


def test_no_module_redefines_the_shared_constants_and_casts() -> None:
    offenders = []
    for root in (ENGINE, ENGINE.parent / "bindings"):
        for p in root.rglob("*.py"):
            tree = ast.parse(p.read_text(encoding="utf-8"))
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and node.name in ("_i32", "_u32", "i32", "u32") \
                        and p.name != "wire.py":
                    offenders.append(f"{p.name}: def {node.name}")
                if isinstance(node, ast.Assign) and p.name != "constants.py" and any(
                        isinstance(t, ast.Name) and t.id == "PLAYER_NONE" for t in node.targets):
                    offenders.append(f"{p.name}: PLAYER_NONE =")
                if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                    offenders.append(f"{p.name}: from {node.module} import *")
    assert offenders == []
