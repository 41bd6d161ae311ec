"""benchmarks/bench.py --short runs and prints its fields (one tiny set-A duel, no reference)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"


def test_short_benchmark_prints_its_fields() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--short", "--limit", "1", "--runs", "1", "--json",
                           "--reference", ""], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    results = out["results"]
    assert set(results) == {"golden_a", "setup", "startup", "crossings"}
    golden = results["golden_a"]["ours"]
    assert golden["duels"] == golden["identical"] == 1 and golden["rate"] > 0 and golden["peak_rss_mib"] > 0
    assert results["setup"]["ours"]["seconds"] > 0
    assert {"import_seconds", "help_seconds"} <= set(results["startup"]["ours"])
    assert results["crossings"]["ours"]["python_to_lua_per_response"] >= 0
    assert any("reference" in s for s in out["skipped"])

    text = _bench_module().text_report(out)          # the text form of the same figures
    assert "golden set A replay" in text and "responses/s" in text and "skipped:" in text


def _bench_module() -> object:
    """benchmarks/bench.py imported from its path (benchmarks/ is not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
