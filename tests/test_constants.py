"""engine.constants against the reference's constant.lua, and our generated constant.lua."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import lupa
import pytest

import duelhost.engine.constants as constants
import duelhost.engine.core_constants as core_constants

REPO = Path(__file__).resolve().parent.parent
OUR_CONSTANT_LUA = REPO / "scripts" / "constant.lua"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_constant_lua", REPO / "tools" / "gen_constant_lua.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lua_globals(source: str) -> dict[str, object]:
    """The globals a Lua chunk defines, by running it in a fresh Lua 5.4."""
    runtime = lupa.LuaRuntime()
    before = set(runtime.globals().keys())
    runtime.execute(source)
    g = runtime.globals()
    return {key: g[key] for key in g.keys() if key not in before}


def module_constants(module: ModuleType) -> dict[str, int]:
    return {name: value for name, value in vars(module).items()
            if name.isupper() and not name.startswith("_") and type(value) is int}


OURS = module_constants(constants)


def test_reference_constants_all_present(real_scripts: Path) -> None:
    reference = lua_globals((real_scripts / "constant.lua").read_text(encoding="utf-8"))
    assert len(reference) > 800
    assert all(type(v) is int for v in reference.values())
    missing = sorted(set(reference) - set(OURS))
    wrong = {n: (OURS[n], v) for n, v in reference.items() if n in OURS and OURS[n] != v}
    extra = sorted(set(OURS) - set(reference))
    assert missing == [] and wrong == {} and extra == []


def test_generated_lua_matches_reference(real_scripts: Path) -> None:
    reference = lua_globals((real_scripts / "constant.lua").read_text(encoding="utf-8"))
    ours = lua_globals(OUR_CONSTANT_LUA.read_text(encoding="utf-8"))
    assert ours == reference


def test_generated_lua_is_up_to_date() -> None:
    assert OUR_CONSTANT_LUA.read_text(encoding="utf-8") == load_tool().render(), (
        "scripts/constant.lua is stale: run python tools/gen_constant_lua.py")


def test_generated_lua_defines_module_values() -> None:
    assert lua_globals(OUR_CONSTANT_LUA.read_text(encoding="utf-8")) == OURS


def test_generated_lua_keeps_hex_literals() -> None:
    text = OUR_CONSTANT_LUA.read_text(encoding="utf-8")
    assert re.search(r"^LOCATION_DECK\s+= 0x01$", text, re.M)
    assert re.search(r"^EFFECT_IMMUNE_EFFECT\s+= 1$", text, re.M)
    assert re.search(r"^LOCATION_ONFIELD\s+= 0xc$", text, re.M)  # an expression: written in hex
    assert re.search(r"^DOUBLE_DAMAGE\s+= -2147483648$", text, re.M)
    assert text.startswith("-- constant.lua") and "duelhost.engine.constants" in text.splitlines()[1]


def test_render_follows_source_order_and_sections() -> None:
    source = '"""doc"""\n# == Things ==\n# A note.\nB_ONE = 0x10\n# a plain comment\nA_TWO = B_ONE | 1\n'
    text = load_tool().render(source.replace("B_ONE", "LOCATION_DECK").replace("A_TWO", "LOCATION_HAND"))
    body = text.split("\n\n", 1)[1]
    assert body == "-- Things\n-- A note.\nLOCATION_DECK                   = 0x10\nLOCATION_HAND                   = 0x2\n"


def test_core_constants_do_not_shadow_script_constants() -> None:
    core = module_constants(core_constants)
    assert set(core).isdisjoint(OURS)
    assert core["PROCESSOR_WAITING"] == 0x10000000 and core["MSG_NEW_TURN"] == 40
    assert core["SIZE_RETURN_VALUE"] == 256
    assert core["EFFECT_TYPES_CHAIN_LINK"] == 0x07F0
    assert core_constants.SECOND_CODE[constants.CARD_MARINE_DOLPHIN] == 17955766


def test_reference_core_headers_agree(real_scripts: Path) -> None:
    """Every #define of the core headers we mirror has the same value here (when the core is at hand)."""
    core_dir = real_scripts.parent / "core"
    if not (core_dir / "common.h").is_file():
        pytest.skip(f"no reference core next to {real_scripts}")
    renamed = {"SUMMON_VALUE_FUTURE_FUSION", "CATEGORY_HANDES"}  # see core_constants' docstring
    ours = {**OURS, **module_constants(core_constants)}
    checked = 0
    for header in ("common.h", "effect.h", "field.h", "card.h"):
        for line in (core_dir / header).read_text(encoding="utf-8").splitlines():
            m = re.match(r"\s*#define\s+([A-Z][A-Z0-9_]+)\s+(0x[0-9a-fA-F]+|\d+)U?\b", line) or re.match(
                r"\s*([A-Z][A-Z0-9_]+)\s*=\s*(0x[0-9a-fA-F]+|\d+),", line)
            if not m or m.group(1) in renamed or m.group(1) in {"TRUE", "FALSE"}:
                continue
            assert ours.get(m.group(1)) == int(m.group(2), 0), f"{header}: {m.group(1)}"
            checked += 1
    assert checked > 600
