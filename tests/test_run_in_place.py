"""Units run in place with ``yield from`` give their caller the result (issue 13).

The idle command, the battle command and the send to the GY inside
proc_remove_overlay_card return their result to the unit that runs them; the
value the reference leaves in ``returns`` is still left there, because the
reference reads the buffer where nothing just wrote it (docs/architecture.md,
"What stays on the returns buffer").
"""

from __future__ import annotations

import struct
from typing import Any

from engine_run import run_units
from test_card_support import FakeScript
from test_move_ops import DB

from duelhost.engine.constants import (LOCATION_GRAVE, LOCATION_MZONE, PHASE_BATTLE_STEP, PHASE_MAIN1,
                                       POS_FACEUP, POS_FACEUP_ATTACK, REASON_COST)
from duelhost.engine.duel import Duel
from duelhost.engine.group import CardSet
from duelhost.engine.messages import MsgSelectBattleCmd, MsgSelectChain, MsgSelectIdleCmd


def _duel() -> Duel:
    d = Duel(DB.get, seed_sequence=[1, 2, 3, 4, 5, 6, 7, 8], script=FakeScript())
    d.infos.turn_id = 2
    d.infos.turn_player = 0
    return d


def _drive(d: Duel, unit: Any, menu_answer: int) -> tuple[Any, list]:
    """Run ``unit`` inside a caller that takes its result; answer the menu with
    ``menu_answer`` and every chain window with "pass"."""
    got: list = []

    def caller() -> Any:
        got.append((yield from unit))

    def answer(prompt: Any) -> bytes:
        if isinstance(prompt, (MsgSelectIdleCmd, MsgSelectBattleCmd)):
            return struct.pack("<i", menu_answer)
        if isinstance(prompt, MsgSelectChain):
            return struct.pack("<i", -1)
        raise AssertionError(f"unexpected prompt {prompt!r}")

    prompts = run_units(d, caller(), answer=answer)
    assert got, "the caller did not get the result"
    return got[0], prompts


def test_idle_command_returns_the_choice_and_leaves_it_in_returns() -> None:
    for choice in (6, 7):
        d = _duel()
        d.infos.phase = PHASE_MAIN1
        d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
        result, prompts = _drive(d, d.proc_idle_command(), choice)
        assert isinstance(prompts[0], MsgSelectIdleCmd)
        assert result == choice
        assert d.returns.ivalue[0] == choice


def test_battle_command_returns_where_the_turn_goes_and_leaves_it_in_returns() -> None:
    for choice in (2, 3):
        d = _duel()
        d.infos.phase = PHASE_BATTLE_STEP
        result, prompts = _drive(d, d.proc_battle_command(), choice)
        assert isinstance(prompts[0], MsgSelectBattleCmd)
        assert result == (choice, 0)
        assert (d.returns.ivalue[0], d.returns.ivalue[1]) == (choice, 0)


def test_send_to_run_in_place_returns_the_count_it_leaves_in_returns() -> None:
    d = _duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    ng = d._send_to_group(CardSet((a, b)), None, REASON_COST, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    result, prompts = _drive(d, d.proc_send_to(ng, None, REASON_COST, 0), 0)
    assert prompts == []
    assert result == 2 and d.returns.ivalue[0] == 2
    assert a.current.location == LOCATION_GRAVE and b.current.location == LOCATION_GRAVE
    assert set(d.core.operated_set) == {a, b}
