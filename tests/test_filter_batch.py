"""Script filters over many cards in one crossing (LuaScriptHost.filter_cards).

Duel.GetMatchingGroup, IsExistingMatchingCard and the Group filters call the
script filter once per card.  Inside a script call the host makes those calls
in one crossing into Lua; these tests check that nothing a script can see
changes: which cards the filter is called for, in which order, where the walk
stops, what passes, and the errors recorded -- compared with the same Lua run
card by card (the host's batch turned off).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.engine.constants import STATUS_BATTLE_DESTROYED
from duelhost.testing.scenario import Scenario

CARD = 190000201          # a bundled Effect Monster; its script is replaced here
SCRIPT = """
local s,id=GetID()
function s.initial_effect(c) end
function s.run()
  s.log = {}
  local function f(c, tag)
    s.log[#s.log + 1] = tag .. c:GetFieldID()
    if #s.log == 3 or #s.log == 11 then error("boom " .. #s.log) end
    return c:GetFieldID() % 2 == 0
  end
  local g = Duel.GetMatchingGroup(f, 0, LOCATION_GRAVE, LOCATION_GRAVE, nil, "m")
  local n = g:FilterCount(f, nil, "c")
  local e2 = Duel.IsExistingMatchingCard(f, 0, LOCATION_GRAVE, 0, 2, nil, "e")
  local e0 = g:IsExists(f, 0, nil, "x")
  local first = g:SearchCard(f, "s")
  local sub = g:Filter(f, g:GetFirst(), "f")
  local one = Duel.GetFirstMatchingCard(f, 1, LOCATION_GRAVE, 0, nil, "1")
  return table.concat(s.log, ","), #g, n, e2, e0, first and first:GetFieldID() or -1, #sub,
         one and one:GetFieldID() or -1
end
function s.notfn()
  return Duel.GetMatchingGroupCount(42, 0, LOCATION_GRAVE, 0, nil)
end
"""


def _run(tmp_path: Path, batched: bool, fn: str = "run", script: str = SCRIPT,
         per_gy: int = 4) -> tuple[tuple, list[tuple]]:
    folder = tmp_path / ("batched" if batched else "each")
    folder.mkdir()
    (folder / f"c{CARD}.lua").write_text(script, encoding="utf-8")
    s = Scenario(scripts=folder, strict=False)
    for p in (0, 1):
        for _ in range(per_gy):
            s.add(CARD, to="gy", player=p)
    s.start()
    host = s.script_host
    if not batched:
        host.filter_cards = None          # scripting.filter_cards: one check_filter per card
    out = host.call_code_function(CARD, fn)
    errors = [(e.card_code, e.callback, e.message.split(": ")[-1]) for e in host.errors]
    return out, errors


def test_batched_filters_make_the_same_calls_in_the_same_order(tmp_path):
    batched = _run(tmp_path, True)
    each = _run(tmp_path, False)
    assert batched == each
    out, errors = batched
    log = out[0].split(",")
    # every card of both GYs for GetMatchingGroup (8 calls, one failed), then the rest
    assert [t[0] for t in log[:8]] == ["m"] * 8
    assert [m for _, _, m in errors] == ["boom 3", "boom 11"]
    assert all(code == CARD for code, _, _ in errors)
    # IsExistingMatchingCard(count 2) stops at the second match, IsExists(0) at the first
    e_calls = [t for t in log if t[0] == "e"]
    x_calls = [t for t in log if t[0] == "x"]
    assert out[3] is True and len(e_calls) <= 4
    assert out[4] is True and len(x_calls) <= 2


def test_a_filter_that_is_not_a_function_is_reported_as_card_by_card(tmp_path):
    assert _run(tmp_path, True, "notfn") == _run(tmp_path, False, "notfn")


@pytest.mark.parametrize("batched", [True, False])
def test_the_filter_sees_extra_arguments_and_results_are_counted(tmp_path, batched):
    out, _ = _run(tmp_path, batched)
    log, n_group, n_count = out[0].split(","), out[1], out[2]
    # every filter got its extra argument (the tag each call logs first)
    assert {t[0] for t in log} == set("mcexsf1")
    assert n_group >= 1 and 0 <= n_count <= n_group


TARGET_SCRIPT = """
local s,id=GetID()
function s.initial_effect(c)
  local e=Effect.CreateEffect(c)
  e:SetType(EFFECT_TYPE_SINGLE)
  e:SetCode(EFFECT_UPDATE_ATTACK)
  e:SetValue(0)
  c:RegisterEffect(e)
end
function s.targets()
  s.log = {}
  local function f(c, tag)
    s.log[#s.log + 1] = tag .. c:GetFieldID()
    if #s.log == 5 then error("boom 5") end
    return c:GetFieldID() % 3 ~= 0
  end
  local a = Duel.IsExistingTarget(f, 0, LOCATION_GRAVE, LOCATION_GRAVE, 1, nil, "a")
  local b = Duel.IsExistingTarget(f, 0, LOCATION_GRAVE, LOCATION_GRAVE, 3, nil, "b")
  local c = Duel.IsExistingTarget(f, 0, LOCATION_GRAVE, LOCATION_GRAVE, 20, nil, "c")
  local n = Duel.GetTargetCount(f, 0, LOCATION_GRAVE, LOCATION_GRAVE, nil, "n")
  return table.concat(s.log, ","), a, b, c, n
end
"""


def _run_targets(tmp_path: Path, batched: bool) -> tuple[tuple, list[str], bool]:
    folder = tmp_path / ("batched" if batched else "each")
    folder.mkdir()
    (folder / f"c{CARD}.lua").write_text(TARGET_SCRIPT, encoding="utf-8")
    s = Scenario(scripts=folder, strict=False)
    cards = [s.add(CARD, to="gy", player=p) for p in (0, 1) for _ in range(5)]
    s.start()
    duel = s.engine
    # two cards that cannot be targeted (destroyed by battle): the target check fails after
    # the filter passed them
    for ref in (cards[1], cards[6]):
        ref.engine.set_status(STATUS_BATTLE_DESTROYED, True)
    host = s.script_host
    duel.core.reason_effect = next(iter(host.handles.effects))
    took_batch = duel._target_check_runs_no_script()
    if not batched:
        duel._target_check_runs_no_script = lambda: False     # the card-by-card walk,
        host.filter_cards = None                              # one check_filter per card
    out = host.call_code_function(CARD, "targets")
    return out, [e.message.split(": ")[-1] for e in host.errors], took_batch


def test_batched_target_filters_make_the_same_calls_in_the_same_order(tmp_path):
    """Duel.IsExistingTarget / GetTargetCount: with no effect that could make the target
    check run a script, the filter calls are batched and the target check follows; the
    calls, their order, where each walk stops and the results are the card-by-card walk's."""
    batched = _run_targets(tmp_path, True)
    each = _run_targets(tmp_path, False)
    assert batched[2] is True                      # the batched path was taken
    assert batched[:2] == each[:2]
    (log, a, b, c, n), errors, _ = batched
    assert errors == ["boom 5"]
    assert (a, b, c) == (True, True, False)
    assert 1 <= n < 10
    calls = log.split(",")
    assert [t for t in calls if t[0] == "n"] and len([t for t in calls if t[0] == "c"]) == 10


IDENTITY_SCRIPT = """
local s,id=GetID()
function s.initial_effect(c) end
function s.identity()
  local seen, n = {}, 0
  Duel.GetMatchingGroup(function(c)
      seen[c] = type(c) == "userdata" and getmetatable(c)
      n = n + 1
      return true
    end, 0, LOCATION_GRAVE, LOCATION_GRAVE, nil)
  local same = 0
  for c in aux.Next(Duel.GetFieldGroup(0, LOCATION_GRAVE, LOCATION_GRAVE)) do
    if seen[c] and rawequal(seen[c], getmetatable(c)) then
      same = same + 1
    end
  end
  return n, same
end
"""


@pytest.mark.parametrize("batched", [True, False])
def test_a_batched_filter_gets_each_cards_own_handle(tmp_path, batched):
    """The batch passes cards to Lua by handle id; the filter must still get the one
    userdata of each card (a table key elsewhere finds it, its class as metatable)."""
    out, errors = _run(tmp_path, batched, "identity", IDENTITY_SCRIPT, per_gy=3)
    assert errors == [] and out == (6, 6)


EXTRAS_SCRIPT = """
local s,id=GetID()
function s.initial_effect(c) end
function s.extras()
  local log = {}
  local function f(c, ...)
    local n = select("#", ...)
    local parts = {tostring(n)}
    for i = 1, n do parts[#parts + 1] = tostring((select(i, ...))) end
    log[#log + 1] = table.concat(parts, "/")
    return false
  end
  Duel.GetMatchingGroup(f, 0, LOCATION_GRAVE, 0, nil)
  Duel.GetMatchingGroup(f, 0, LOCATION_GRAVE, 0, nil, false)
  Duel.GetMatchingGroup(f, 0, LOCATION_GRAVE, 0, nil, nil)
  Duel.GetMatchingGroup(f, 0, LOCATION_GRAVE, 0, nil, 7)
  Duel.GetMatchingGroup(f, 0, LOCATION_GRAVE, 0, nil, 1, nil, false)
  Duel.GetMatchingGroup(f, 0, LOCATION_GRAVE, 0, nil, "a", "b", nil)
  return table.concat(log, ",")
end
"""


def test_a_batched_filter_gets_its_extra_arguments_as_given(tmp_path):
    """None, one (false and nil included: the one-extra path must not turn false into
    nil) or several, trailing nils counted: the same as card by card."""
    batched, _ = _run(tmp_path, True, "extras", EXTRAS_SCRIPT, per_gy=2)
    each, _ = _run(tmp_path, False, "extras", EXTRAS_SCRIPT, per_gy=2)
    assert batched == each
    assert batched[0].split(",") == (["0"] * 2 + ["1/false"] * 2 + ["1/nil"] * 2 + ["1/7"] * 2
                                     + ["3/1/nil/false"] * 2 + ["3/a/b/nil"] * 2)
