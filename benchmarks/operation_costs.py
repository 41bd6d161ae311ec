"""What one script operation costs, in duelhost and in the reference core (issue 10).

A card script's ``initial_effect`` runs one operation (``#g``, ``c:IsType(TYPE_MONSTER)``,
``g:IsExists(f, 1, nil)``...) in a loop; the card is created in a duel with five Normal
Monsters in player 0's GY, once with the loop and once without, in each core.  The time
of one operation is the difference divided by the loop's length; the ratio is ours /
the reference's.  These are the small steps a procedure check of procedure.lua or a
``CheckSubGroup`` search is made of, so the table says where the gap of the set-B replay
comes from.

    YGOPRO_SCRIPTS=... OCGCORE_LIB=... .venv/bin/python benchmarks/operation_costs.py
    .venv/bin/python benchmarks/operation_costs.py --calls 20000 --only '#g' --json

With the real scripts (``YGOPRO_SCRIPTS`` or ``--scripts``) it uses their database
(``DUELHOST_CORPUS_DB`` or ``--db``, default ../shared/cards/corpus.cdb); without them, the
bundled scripts and cards.db (ours alone, and without the operations of the real
utility.lua).  Without a reference library (``OCGCORE_LIB`` or ``--reference``) it prints
ours alone.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# (the card whose script is replaced: an Effect Monster, as a Normal Monster's script is
# never run; five Normal Monsters in the GY)
REAL_CODES = (23434538, 46986414)          # Maxx "C", Dark Magician
BUNDLED_CODES = (190000201, 190000001)     # of the bundled cards.db
SEARCH = "g:CheckSubGroup, c58827995's cost search (utility.lua)"
REAL_ONLY = {"g:CheckSubGroup(f2,2,2) (utility.lua)", SEARCH}
# rows whose one operation is a whole search: their loops are this many times shorter
SHORTER = {SEARCH: 100}


def loop_length(name: str, calls: int) -> int:
    """The loop length of row ``name`` in duelhost, ``calls`` being --calls."""
    return max(1, calls // SHORTER.get(name, 1))
LOCATION_GRAVE = 0x10
POS_FACEUP_ATTACK = 0x1

# name -> the loop's body (g: the GY group, c: its first card, f: a Lua filter that
# refuses every card, n: the loop's length); the reference's constants are there
OPERATIONS: dict[str, str] = {
    "a Lua function call": "f(c)",
    "Duel.GetTurnPlayer()": "Duel.GetTurnPlayer()",
    "#g": "local k=#g",
    "c:IsFaceup()": "c:IsFaceup()",
    "c:GetLevel()": "c:GetLevel()",
    "c:IsType(TYPE_MONSTER)": "c:IsType(TYPE_MONSTER)",
    "c:IsCode(<the GY card>)": "c:IsCode(GY_CODE)",
    "c:IsCanBeLinkMaterial(nil)": "c:IsCanBeLinkMaterial(nil)",
    "g:IsContains(c)": "g:IsContains(c)",
    "g:GetFirst()": "g:GetFirst()",
    "sg:AddCard(c) sg:RemoveCard(c)": "sg:AddCard(c) sg:RemoveCard(c)",
    "g:Clone()": "local x=g:Clone()",
    "g:IsExists(f,1,nil), 5 cards": "g:IsExists(f,1,nil)",
    "g:Filter(Card.IsType,nil,TYPE_MONSTER), 5 cards": "g:Filter(Card.IsType,nil,TYPE_MONSTER)",
    "Duel.GetMatchingGroup(f,0,LOCATION_GRAVE,0,nil)": "Duel.GetMatchingGroup(f,0,LOCATION_GRAVE,0,nil)",
    "g:CheckWithSumEqual(Card.GetLevel,14,2,2)": "g:CheckWithSumEqual(Card.GetLevel,14,2,2)",
    "g:CheckSubGroup(f2,2,2) (utility.lua)": "g:CheckSubGroup(f2,2,2)",
    "Duel.GetMZoneCount(0,g)": "local k=Duel.GetMZoneCount(0,g)",
    # the search that runs past the script budget in the live diff's seed 98 (card 58827995,
    # Armored Dragon Ritual): every subgroup of the five GY cards is tried (the sum is never
    # reached), each try selecting the subgroup, summing Levels and counting free zones
    SEARCH: ("local fs=function(sg,tp) Duel.SetSelectedCard(sg) "
             "return sg:CheckWithSumGreater(Card.GetLevel,100) and Duel.GetMZoneCount(tp,sg)>0 end "
             "local r=g:CheckSubGroup(fs,1,#g,0)"),
}


def bench_script(body: str, calls: int, gy_code: int) -> bytes:
    """The replaced card's script: ``body`` run ``calls`` times by initial_effect."""
    return (f"local s,id=GetID()\nlocal GY_CODE={gy_code}\n"
            f"function s.initial_effect(c)\n"
            f"  local g=Duel.GetFieldGroup(0,LOCATION_GRAVE,0)\n"
            f"  local c=g:GetFirst()\n"
            f"  local sg=Group.CreateGroup()\n"
            f"  local f=function(x) return false end\n"
            f"  local f2=function(x) return false end\n"
            f"  for i=1,{calls} do {body} end\n"
            f"end\n").encode("utf-8")


@functools.lru_cache(maxsize=None)
def _database(db: Path) -> Any:
    """The card database, opened once (a fresh one per run would leave garbage whose
    collection lands inside the timed loops)."""
    from duelhost.engine.carddb import CardDatabase
    return CardDatabase.open(db)


def ours(scripts: Path, db: Path, codes: tuple[int, int], body: str, calls: int) -> float:
    """Seconds of one bench card's creation (its initial_effect looping ``calls`` times);
    ``codes``: the bench card's and the GY cards'."""
    bench_code, gy_code = codes
    from duelhost.bindings.host import LuaScriptHost
    from duelhost.engine.duel import Duel, card_reader_from_db
    reader = card_reader_from_db(_database(db))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, f"c{bench_code}.lua").write_bytes(bench_script(body, calls, gy_code))
        host = LuaScriptHost([Path(tmp), scripts], time_budget=600)
        duel = Duel(reader, seed_sequence=list(range(1, 9)), script=host)
        for seq in range(5):
            duel.new_card_at(gy_code, 0, 0, LOCATION_GRAVE, seq, POS_FACEUP_ATTACK)
        reader(bench_code)
        gc.collect()
        t0 = time.perf_counter()
        duel.new_card_at(bench_code, 0, 0, 0x01, 0, 8)
        seconds = time.perf_counter() - t0
        if host.errors:
            raise RuntimeError(f"duelhost: {body}: {host.errors[0]}")
        return seconds


def reference(lib: str, scripts: Path, db: Path, codes: tuple[int, int], body: str,
              calls: int) -> float:
    """The same in the reference core (its script reader serves the bench script under the
    name the core asks for, ``./script/c<code>.lua``)."""
    from duelhost.reference import ReferenceCore
    bench_code, gy_code = codes
    core = ReferenceCore.load(lib, db=_database(db), scripts=scripts)
    core.provide_script(f"./script/c{bench_code}.lua", bench_script(body, calls, gy_code))
    duel = core.create_duel(list(range(1, 9)))
    try:
        for seq in range(5):
            duel.new_card(gy_code, 0, 0, LOCATION_GRAVE, seq, POS_FACEUP_ATTACK)
        gc.collect()
        t0 = time.perf_counter()
        duel.new_card(bench_code, 0, 0, 0x01, 0, 8)
        seconds = time.perf_counter() - t0
    finally:
        duel.end()
    if core.errors:
        raise RuntimeError(f"reference: {body}: {core.errors[0]}")
    return seconds


def per_call(run: Any, calls: int, rounds: int) -> float:
    """Nanoseconds per operation: median over ``rounds`` of (loop of ``calls``) - (no loop)."""
    samples = []
    for _ in range(rounds):
        full = run(calls)
        empty = run(0)
        samples.append(max(full - empty, 0.0) / calls * 1e9)
    return statistics.median(samples)


def measure(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    names = args.only or [n for n in OPERATIONS if args.real or n not in REAL_ONLY]
    for name in names:
        body = OPERATIONS[name]
        calls = loop_length(name, args.calls)
        row: dict[str, Any] = {"operation": name}
        row["duelhost_ns"] = round(per_call(lambda n: ours(args.scripts, args.db, args.codes, body, n),
                                            calls, args.rounds))
        if args.reference:
            row["reference_ns"] = round(per_call(
                lambda n: reference(args.reference, args.scripts, args.db, args.codes, body, n),
                calls * args.reference_factor, args.rounds))
            if row["reference_ns"] > 0:
                row["ratio"] = round(row["duelhost_ns"] / row["reference_ns"], 1)
        rows.append(row)
        if not args.json:
            print(_line(row), flush=True)
    return rows


def _line(row: dict[str, Any]) -> str:
    ref = f"{row['reference_ns']:>10,}" if "reference_ns" in row else f"{'-':>10}"
    ratio = f"{row['ratio']:>7.1f}x" if "ratio" in row else f"{'-':>8}"
    return f"{row['operation']:<52} {ref} {row['duelhost_ns']:>10,} {ratio}"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scripts", type=Path, default=os.environ.get("YGOPRO_SCRIPTS"))
    ap.add_argument("--db", type=Path, default=os.environ.get("DUELHOST_CORPUS_DB"))
    ap.add_argument("--reference", default=os.environ.get("OCGCORE_LIB"))
    ap.add_argument("--calls", type=int, default=20000, help="loop length in duelhost")
    ap.add_argument("--reference-factor", type=int, default=10,
                    help="the reference's loop is this many times longer (it is that much faster)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", nargs="+", choices=list(OPERATIONS), metavar="OPERATION")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    a.real = a.scripts is not None
    a.codes = REAL_CODES if a.real else BUNDLED_CODES
    if not a.real:                      # the bundled scripts and cards, ours alone
        a.scripts, a.db, a.reference = REPO / "scripts", REPO / "cards.db", None
    elif a.db is None:
        a.db = REPO.parent / "shared" / "cards" / "corpus.cdb"
    if not Path(a.scripts, "utility.lua").is_file():
        ap.error(f"{a.scripts}: not a script folder (no utility.lua)")
    if not Path(a.db).is_file():
        ap.error(f"{a.db}: no card database (set DUELHOST_CORPUS_DB or pass --db)")
    if a.only and not a.real and set(a.only) & REAL_ONLY:
        ap.error(f"{', '.join(sorted(set(a.only) & REAL_ONLY))}: needs the real scripts (YGOPRO_SCRIPTS)")
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    if not a.json:
        print(f"one operation, ns (median of {a.rounds}; loop of {a.calls:,} in duelhost, "
              f"{a.calls * a.reference_factor:,} in the reference; a whole search's "
              f"{loop_length(SEARCH, a.calls):,} and {loop_length(SEARCH, a.calls) * a.reference_factor:,}); "
              "ratio = duelhost / reference"
              + ("" if a.reference else "; no reference library: ours alone")
              + ("" if a.real else "; the bundled scripts and cards"))
        print(f"{'operation':<52} {'reference':>10} {'duelhost':>10} {'ratio':>8}")
    try:
        rows = measure(a)
    except RuntimeError as exc:
        print(f"operation_costs.py: {exc}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps({"calls": a.calls, "rounds": a.rounds, "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
