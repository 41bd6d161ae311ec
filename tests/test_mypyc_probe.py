"""benchmarks/mypyc_probe.py: its edits still apply to the engine, and its transforms
do what its docstring says (the compile itself is not run here: minutes of C)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
PROBE = REPO / "benchmarks" / "mypyc_probe.py"


def _probe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mypyc_probe", PROBE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_edit_finds_its_text_in_the_engine_and_the_bindings() -> None:
    """An engine or bindings change that moves one of these texts must update the probe too."""
    probe = _probe()
    for folder, edits in (("engine", probe.EDITS), ("bindings", probe.BINDINGS_EDITS)):
        for rel, old, _new in edits:
            text = (REPO / folder / rel).read_text()
            assert text.count(old) >= 1, f"{folder}/{rel}: {old.strip()[:60]!r}"


def test_a_missing_text_stops_with_the_file_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "card.py").write_text("class Card:\n    pass\n")
    with pytest.raises(SystemExit) as exc:
        _probe().edit(engine, "card.py", "class Duel:", "x")
    assert exc.value.code == 1
    assert "engine/card.py: text not found: 'class Duel:'" in capsys.readouterr().err


def test_one_class_hints_accept_none_but_self_and_other_hints_stay(tmp_path: Path) -> None:
    src = ('def f(self: "Card", c: Card, e: "Effect", n: int, g: Group | None) -> Card:\n'
           '    return c\n')
    (tmp_path / "m.py").write_text(src)
    assert _probe().widen_one_class(tmp_path) == 3
    out = (tmp_path / "m.py").read_text()
    assert out.startswith('def f(self: "Card", c: "Card | None", e: "Effect | None", n: int, '
                          'g: Group | None) -> "Card | None":')


def test_traits_mark_the_mixins_and_keep_effects_ordinary(tmp_path: Path) -> None:
    shutil.copytree(REPO / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    probe = _probe()
    probe.traits(tmp_path / "engine")
    zones = (tmp_path / "engine" / "field" / "zones.py").read_text()
    assert "@trait\nclass ZonesMixin" in zones and "from mypy_extensions import trait" in zones
    rules = (tmp_path / "engine" / "effect_rules.py").read_text()
    assert "@mypyc_attr(native_class=False)\nclass EffectRulesMixin" in rules
    compile(zones, "zones.py", "exec")           # the inserted import keeps the module valid
    compile(rules, "effect_rules.py", "exec")


def test_compiled_bindings_keep_ordinary_classes_and_skip_the_interpreted(tmp_path: Path) -> None:
    shutil.copytree(REPO / "bindings", tmp_path / "bindings", ignore=shutil.ignore_patterns("__pycache__"))
    probe = _probe()
    probe.ordinary_classes(tmp_path / "bindings")
    handles = (tmp_path / "bindings" / "handles.py").read_text()
    assert "@mypyc_attr(native_class=False)\nclass HandleTable" in handles
    compile(handles, "handles.py", "exec")
    registry = (tmp_path / "bindings" / "registry.py").read_text()
    assert registry == (REPO / "bindings" / "registry.py").read_text()   # stays interpreted


def test_selfplay_without_the_real_scripts_stops_before_building(tmp_path: Path) -> None:
    """--selfplay plays real-script duels: without the scripts it says so at once (exit 1)
    instead of compiling for minutes first."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k not in ("YGOPRO_SCRIPTS", "DUELHOST_CORPUS_DB")}
    proc = subprocess.run([sys.executable, str(PROBE), "--selfplay", "2", "--keep", str(tmp_path / "b")],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 1
    assert "--selfplay needs the real scripts" in proc.stderr
    assert not (tmp_path / "b").exists()
