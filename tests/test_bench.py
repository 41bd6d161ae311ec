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


def test_rounds_give_the_median_ratio_of_the_rounds() -> None:
    """--rounds N: each side's median run is shown and the ratio is the median of the
    N per-round ratios (a drifting machine moves both sides of a round alike)."""
    bench = _bench_module()
    rounds = [{"ours": {"rate": ours, "peak_rss_mib": rss}, "reference": {"rate": ref, "peak_rss_mib": 50.0}}
              for ours, ref, rss in ((100.0, 1000.0, 60.0), (200.0, 1200.0, 70.0), (50.0, 900.0, 65.0))]
    entry = bench._median_round("golden_a", rounds)
    assert entry["round_ratios"] == [10.0, 6.0, 18.0]
    assert entry["ours"]["rate"] == 100.0 and entry["reference"]["rate"] == 1000.0   # the median runs
    assert entry["ours"]["peak_rss_mib"] == 70.0                                      # the highest peak
    results = {"golden_a": entry}
    bench.ratios(results)
    assert results["golden_a"]["ratio"] == 10.0          # not 1000 / 100 by accident: median of 10, 6, 18
    rounds[0]["ours"]["rate"] = 150.0                    # now the ratios are 6.67, 6, 18 -> 6.67
    results = {"golden_a": bench._median_round("golden_a", rounds)}
    bench.ratios(results)
    assert results["golden_a"]["ratio"] == 6.67
    assert "ratio of each round" in "\n".join(bench._details(results))
    failed = bench._median_round("setup", [{"ours": {"error": "exit code 1: boom"}}])
    assert failed["ours"]["error"].startswith("exit code 1") and failed["round_ratios"] == []
