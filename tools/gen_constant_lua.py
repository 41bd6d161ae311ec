"""Write scripts/constant.lua from duelhost.engine.constants.

Every public upper-case constant of ``engine/constants.py`` becomes one Lua
global, in the module's order.  A value written as a number literal in the
module is written the same way in Lua (so hex stays hex, as in the reference);
a value written as an expression (``LOCATION_MZONE | LOCATION_SZONE``) is
written as its value in hex.  Section comments (``# == Title ==``) and the
comment lines right after them become Lua comments; other comments are left out.

    python tools/gen_constant_lua.py           # (re)write scripts/constant.lua
    python tools/gen_constant_lua.py --check   # exit 1 if it is out of date
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "engine" / "constants.py"
TARGET = REPO / "scripts" / "constant.lua"
MODULE = "duelhost.engine.constants"

HEADER = (
    "-- constant.lua: the constants card scripts see.\n"
    f"-- Generated from {MODULE} (engine/constants.py) by tools/gen_constant_lua.py;\n"
    "-- edit that module and run the tool instead of editing this file.\n"
)


def _is_literal(node: ast.expr) -> bool:
    """A plain int literal, possibly negated."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _lua_value(node: ast.expr, source: str, value: int) -> str:
    if _is_literal(node):
        text = ast.get_source_segment(source, node)
        assert text is not None
        return text.replace("_", "")
    return hex(value) if value >= 0 else str(value)


def _section_comment(line: str) -> str | None:
    """``# == Title ==`` -> ``-- Title``; None for any other line."""
    text = line.strip()
    if text.startswith("# ==") and text.endswith("=="):
        return "-- " + text.strip("#= ").strip()
    return None


def render(source: str | None = None) -> str:
    """The text of constant.lua for the constants module's current source."""
    source = SOURCE.read_text(encoding="utf-8") if source is None else source
    values = vars(importlib.import_module(MODULE))
    lines = source.splitlines()
    assigns = {
        node.lineno: node
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper()
    }
    out = [HEADER]
    lineno, in_section_note = 1, False
    while lineno <= len(lines):
        line = lines[lineno - 1]
        node = assigns.get(lineno)
        if node is not None:
            name = node.targets[0].id  # type: ignore[attr-defined]
            out.append(f"{name:<32}= {_lua_value(node.value, source, values[name])}\n")
            lineno = node.end_lineno or lineno
            in_section_note = False
        elif (title := _section_comment(line)) is not None:
            out.append(f"\n{title}\n")
            in_section_note = True
        elif in_section_note and line.startswith("# "):
            out.append(f"-- {line[2:]}\n")
        else:
            in_section_note = False
        lineno += 1
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file is up to date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else None
        if current != text:
            print(f"{TARGET} is out of date; run: python tools/gen_constant_lua.py", file=sys.stderr)
            return 1
        return 0
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
