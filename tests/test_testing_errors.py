"""Readable script errors in duelhost.testing: the card, c<ID>.lua:line, the effect and callback (with chk),
the Lua traceback, the reference's log line; strict and lenient scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.testing import LuaScriptError, Scenario, format_script_error

PROBE_DIR = Path(__file__).resolve().parent / "data" / "testing_probe"
LANTERN = 190004010           # Cracked Lantern: its bundled script fails in its operation
SPARKMOUSE = 190000001


def test_an_operation_error_says_everything():
    sc = Scenario()
    lantern = sc.add(LANTERN, to="hand")
    sc.add(SPARKMOUSE, to="deck")
    sc.start()
    with pytest.raises(LuaScriptError) as exc:
        sc.activate(lantern)
    text = str(exc.value)
    assert text.startswith("1 script error:")
    assert 'Lua error in card 190004010 "Cracked Lantern" at c190004010.lua:21' in text
    assert ("while running the operation function of effect #1 of 1 (activation of the card, EVENT_FREE_CHAIN)"
            in text)
    assert "message: ./script/c190004010.lua:21: attempt to index a nil value (local 'tc')" in text
    assert "Lua traceback:\n    ./script/c190004010.lua:21: in function <./script/c190004010.lua:19>" in text
    assert "Board: turn 1" in text
    assert exc.value.log_lines == [
        "[string \"./script/c190004010.lua\"]:21: attempt to index a nil value (local 'tc')"]
    err = exc.value.errors[0]
    assert (err.card_code, err.line, err.callback) == (LANTERN, 21, "operation")
    assert sc.error_effect(err)["effect_index"] == 1


def probe(kind: str, **kw) -> tuple[Scenario, object]:
    sc = Scenario(scripts=[PROBE_DIR], **kw)
    card = sc.add(LANTERN, to="hand")
    sc.lua(f'PROBE = "{kind}"')
    return sc, card


def test_a_target_error_names_chk():
    sc, card = probe("target_error")
    sc.start()
    with pytest.raises(LuaScriptError, match=r"while running the target function with chk=1 of effect #1") as exc:
        sc.activate(card)
    assert "attempt to index a nil value (local 'x')" in str(exc.value)


def test_a_check_error_while_building_the_menu_names_chk_0():
    sc, card = probe("check_error")
    with pytest.raises(LuaScriptError, match=r"the target function with chk=0 of effect #1 of 1"):
        sc.start()


def test_a_condition_error():
    sc, card = probe("condition_error")
    with pytest.raises(LuaScriptError, match=r"while running the condition function of effect #1") as exc:
        sc.start()
    assert "the condition broke" in str(exc.value)


def test_errors_while_a_card_is_created(tmp_path: Path):
    (tmp_path / f"c{LANTERN}.lua").write_text(
        "local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e=nil\n\te:SetCode(1)\nend\n")
    sc = Scenario(scripts=[tmp_path])
    with pytest.raises(LuaScriptError) as exc:
        sc.add(LANTERN)
    text = str(exc.value)
    assert "while the card was created" in text
    assert 'Lua error in card 190004010 "Cracked Lantern" at c190004010.lua:4' in text
    assert "while running initial_effect (registering the card's effects)" in text
    (tmp_path / f"c{LANTERN}.lua").write_text("local s,id=GetID()\nfunction s.initial_effect(c)\n")
    sc2 = Scenario(scripts=[tmp_path])
    with pytest.raises(LuaScriptError, match="script load error in card 190004010") as exc2:
        sc2.add(LANTERN)
    assert "the script file itself (loading it)" in str(exc2.value)


def test_lenient_scenarios_record_and_go_on():
    sc = Scenario(strict=False)
    lantern = sc.add(LANTERN, to="hand")
    sc.add(SPARKMOUSE, to="deck")
    sc.start()
    view = sc.activate(lantern)                 # the duel goes on, as the reference does
    assert view.kind == "idle"
    [err] = sc.script_errors
    assert err.line == 21
    text = format_script_error(err, sc)
    assert text.splitlines()[0] == 'Lua error in card 190004010 "Cracked Lantern" at c190004010.lua:21'
    assert sc.script_host.log[-1] == (1, err.log_line)
    with pytest.raises(LuaScriptError, match="1 script error"):
        sc.expect_no_script_errors()


def test_format_without_a_scenario():
    sc = Scenario(strict=False)
    lantern = sc.add(LANTERN, to="hand")
    sc.add(SPARKMOUSE, to="deck")              # its activation needs a card to draw
    sc.start()
    sc.activate(lantern)
    text = format_script_error(sc.script_errors[0])
    assert "Cracked Lantern" in text and "reference log line:" in text
