"""Library queries passed as values: ``g:GetSum(Card.GetLevel)``, ``g:Filter(Card.IsFaceup,nil)``.

Group checks in utility.lua and in card scripts pass Card queries as values to
Group functions, and the group function calls them once per card.  The host
calls those queries straight from Python (bindings/host.py, _direct_query);
the ordinary path goes Python -> Lua -> Python for every card.  This script
runs the same Lua loop both ways in one process and prints calls per second of
each and their ratio.

    .venv/bin/python benchmarks/query_values.py [--cards 10] [--rounds 2000] [--json]

Each round does one GetSum(Card.GetLevel), one Filter(Card.IsType,nil,TYPE_MONSTER)
and one IsExists(Card.IsLevelAbove,1,nil,99) (false, so every card is visited)
over a group of --cards monsters: 3 x cards query calls per round.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

BENCH_CARD = 190000201          # a bundled Effect Monster; its script is replaced here
BENCH_SCRIPT = """
local s,id=GetID()
function s.initial_effect(c) end
function s.bench(rounds)
  local g=Duel.GetFieldGroup(0,LOCATION_GRAVE,0)
  local total=0
  for i=1,rounds do
    total=total+g:GetSum(Card.GetLevel)
    total=total+#g:Filter(Card.IsType,nil,TYPE_MONSTER)
    if g:IsExists(Card.IsLevelAbove,1,nil,99) then total=total+1 end
  end
  return total
end
"""


def measure(cards: int, rounds: int, direct: bool) -> tuple[float, int]:
    """(seconds, result) of one run of s.bench(rounds) with ``cards`` monsters in the GY."""
    from duelhost.testing.scenario import Scenario
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, f"c{BENCH_CARD}.lua").write_text(BENCH_SCRIPT, encoding="utf-8")
        s = Scenario(scripts=tmp, time_budget=600)
        for _ in range(cards):
            s.add(BENCH_CARD, to="gy")
        s.start()
        host = s.script_host
        if not direct:
            host.direct_queries.clear()
        t0 = time.perf_counter()
        out = host.call_code_function(BENCH_CARD, "bench", rounds)
        seconds = time.perf_counter() - t0
        if host.errors:
            raise SystemExit(f"the benchmark script failed: {host.errors[0]}")
        return seconds, int(out[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    calls = 3 * a.cards * a.rounds
    slow_s, slow_r = measure(a.cards, a.rounds, direct=False)
    fast_s, fast_r = measure(a.cards, a.rounds, direct=True)
    if slow_r != fast_r:
        raise SystemExit(f"the two paths disagree: {slow_r} through Lua, {fast_r} direct")
    result = {"query_calls": calls, "through_lua_calls_per_s": round(calls / slow_s),
              "direct_calls_per_s": round(calls / fast_s), "speedup": round(slow_s / fast_s, 2)}
    if a.json:
        print(json.dumps(result))
    else:
        print(f"{calls} query calls: through Lua {result['through_lua_calls_per_s']}/s, "
              f"direct {result['direct_calls_per_s']}/s, speed-up {result['speedup']}x")


if __name__ == "__main__":
    main()
