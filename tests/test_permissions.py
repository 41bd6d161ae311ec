"""Player permissions (engine/field/permissions.py): the is_player_can_* checks.

Effects are real Effect objects registered on a face-up monster; their target
and value functions are Python callables run by a small script host, so the
tests can see exactly which arguments the reference passes to scripts.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F403
from duelhost.engine.duel import Duel

from fake_script_host import FakeScript

NORMAL = TYPE_MONSTER | TYPE_NORMAL
DB: dict[int, CardData] = {
    100: CardData(code=100, type=NORMAL, level=4, attack=1500, defense=1000),
    200: CardData(code=200, type=TYPE_MONSTER | TYPE_FUSION, level=6, attack=2000, defense=2000),
    300: CardData(code=300, type=TYPE_MONSTER | TYPE_LINK, level=1, attack=1000,
                  link_marker=LINK_MARKER_BOTTOM),
    900: CardData(code=900, type=TYPE_MONSTER | TYPE_TOKEN | TYPE_NORMAL, level=1),
}


@pytest.fixture
def duel() -> Duel:
    d = Duel(DB.get, seed_sequence=[1, 2, 3, 4, 5, 6, 7, 8], script=FakeScript())  # type: ignore[arg-type]
    d.core.duel_rule = 5
    return d


def holder(d: Duel, p: int = 0, seq: int = 0) -> Card:
    return d.new_card_at(100, p, p, LOCATION_MZONE, seq, POS_FACEUP_ATTACK)


def player_effect(d: Duel, code: int, *, on: Card, s: int = 1, o: int = 0,
                  target: Callable[..., Any] | None = None, value: Any = 0) -> Any:
    """A field effect on players (EFFECT_FLAG_PLAYER_TARGET) held by ``on``."""
    e = d.new_effect()
    e.type = EFFECT_TYPE_FIELD
    e.code = code
    e.flag[0] = EFFECT_FLAG_PLAYER_TARGET | (EFFECT_FLAG_FUNC_VALUE if callable(value) else 0)
    e.s_range, e.o_range = s, o
    e.range = LOCATION_MZONE
    e.owner = on
    e.target = target
    e.value = value
    on.add_effect(e)
    return e


def test_cannot_draw_applies_to_its_target_player_only(duel: Duel) -> None:
    h = holder(duel)
    assert duel.is_player_can_draw(0)
    player_effect(duel, EFFECT_CANNOT_DRAW, on=h)
    assert not duel.is_player_can_draw(0) and duel.is_player_can_draw(1)


def test_discard_deck_needs_enough_cards(duel: Duel) -> None:
    for _ in range(2):
        duel.new_card_at(100, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    assert duel.is_player_can_discard_deck(0, 2)
    assert not duel.is_player_can_discard_deck(0, 3)
    assert not duel.is_player_can_discard_deck(0, -1)
    player_effect(duel, EFFECT_CANNOT_DISCARD_DECK, on=holder(duel))
    assert not duel.is_player_can_discard_deck(0, 1)


def test_summon_target_gets_the_references_arguments(duel: Duel) -> None:
    h = holder(duel)
    card = duel.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    seen: list[tuple] = []

    def target(*args: Any) -> bool:
        seen.append(args)
        return args[1] is card

    e = player_effect(duel, EFFECT_CANNOT_SUMMON, on=h, target=target)
    assert not duel.is_player_can_summon(SUMMON_TYPE_ADVANCE, 0, card, 0)
    assert seen == [(e, card, 0, SUMMON_TYPE_ADVANCE | SUMMON_TYPE_NORMAL, POS_FACEUP, 0)]
    assert duel.is_player_can_summon(0, 0, h, 0)
    e2 = player_effect(duel, EFFECT_CANNOT_MSET, on=h, target=target)
    seen.clear()
    assert not duel.is_player_can_mset(0, 0, card, 1)
    assert seen == [(e2, card, 0, SUMMON_TYPE_NORMAL, POS_FACEDOWN, 1)]


def test_a_targetless_effect_forbids_everything(duel: Duel) -> None:
    h = holder(duel)
    player_effect(duel, EFFECT_CANNOT_SSET, on=h)
    player_effect(duel, EFFECT_CANNOT_FLIP_SUMMON, on=h, s=0, o=1)
    assert not duel.is_player_can_sset(0, h)
    assert duel.is_player_can_flipsummon(0, h)
    assert not duel.is_player_can_flipsummon(1, h)
    assert duel.is_player_can_action(0, EFFECT_CANNOT_FLIP_SUMMON)
    assert not duel.is_player_can_action(1, EFFECT_CANNOT_FLIP_SUMMON)


def test_special_summon_at_all(duel: Duel) -> None:
    h = holder(duel)
    player_effect(duel, EFFECT_CANNOT_SPECIAL_SUMMON, on=h, target=lambda *a: True)
    assert duel.is_player_can_spsummon(0)            # a targeted ban does not stop all
    player_effect(duel, EFFECT_CANNOT_SPECIAL_SUMMON, on=h, s=0, o=1)
    assert not duel.is_player_can_spsummon(1)


def test_left_spsummon_count_value_gets_reason_effect_and_player(duel: Duel) -> None:
    h = holder(duel)
    seen: list[tuple] = []

    def value(*args: Any) -> int:
        seen.append(args)
        return 1

    e = player_effect(duel, EFFECT_LEFT_SPSUMMON_COUNT, on=h, value=value)
    assert duel.is_player_can_spsummon_count(0, 1)
    assert not duel.is_player_can_spsummon_count(0, 2)
    assert seen[0] == (e, None, 0)


@pytest.fixture
def payable(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Record EFFECT_SPSUMMON_COST checks and let them pass."""
    calls: list[tuple] = []

    def check_cost_condition(self: Card, ecode: int, playerid: int, sumtype: int | None = None) -> bool:
        calls.append((self, ecode, playerid, sumtype))
        return True

    monkeypatch.setattr(Card, "check_cost_condition", check_cost_condition)
    return calls


def test_spsummon_card_passes_position_type_and_reason_to_the_ban(duel: Duel, payable: list) -> None:
    h = holder(duel)
    fusion = duel.new_card_at(200, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    re = duel.new_effect()
    seen: list[tuple] = []
    e = player_effect(duel, EFFECT_CANNOT_SPECIAL_SUMMON, on=h,
                      target=lambda *a: seen.append(a) and False)
    assert duel.is_player_can_spsummon_card(re, SUMMON_TYPE_FUSION, POS_FACEUP, 0, 0, fusion)
    assert payable == [(fusion, EFFECT_SPSUMMON_COST, 0, SUMMON_TYPE_FUSION | SUMMON_TYPE_SPECIAL)]
    assert seen == [(e, fusion, 0, SUMMON_TYPE_FUSION | SUMMON_TYPE_SPECIAL, POS_FACEUP, 0, re)]


def test_divine_light_shows_face_down_positions_as_face_up(duel: Duel, payable: list) -> None:
    h = holder(duel)
    card = duel.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    player_effect(duel, EFFECT_DIVINE_LIGHT, on=h)
    seen: list[int] = []
    player_effect(duel, EFFECT_CANNOT_SPECIAL_SUMMON, on=h, target=lambda *a: seen.append(a[4]))
    duel.is_player_can_spsummon_card(None, 0, POS_FACEDOWN_DEFENSE, 0, 0, card)
    assert seen == [POS_FACEUP_DEFENSE]


def test_spsummon_card_refusals(duel: Duel, payable: list) -> None:
    token = duel.new_card_at(900, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    assert not duel.is_player_can_spsummon_card(None, 0, POS_FACEUP, 0, 0, token)
    link = duel.new_card_at(300, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    assert not duel.is_player_can_spsummon_card(None, 0, POS_DEFENSE, 0, 0, link)
    assert duel.is_player_can_spsummon_card(None, 0, POS_FACEUP, 0, 0, link)
    link.set_status(STATUS_FORBIDDEN, True)
    assert not duel.is_player_can_spsummon_card(None, 0, POS_FACEUP, 0, 0, link)


def test_spsummon_monster_uses_the_placeholder_card(duel: Duel, payable: list) -> None:
    token_data = CardData(code=900, type=TYPE_MONSTER | TYPE_TOKEN | TYPE_NORMAL, level=1)
    assert duel.is_player_can_spsummon_monster(0, 0, POS_FACEUP, 0, token_data)
    assert payable[0][0] is duel.temp_card
    assert duel.temp_card.data.code == 0 and duel.temp_card.data.type == 0


def test_discard_hand_only_from_the_hand(duel: Duel) -> None:
    h = holder(duel)
    card = duel.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    re = duel.new_effect()
    assert not duel.is_player_can_discard_hand(0, h, re, REASON_EFFECT)
    seen: list[tuple] = []
    e = player_effect(duel, EFFECT_CANNOT_DISCARD_HAND, on=h,
                      target=lambda *a: seen.append(a) or True)
    assert not duel.is_player_can_discard_hand(0, card, re, REASON_COST)
    assert seen == [(e, card, re, REASON_COST)]


def test_remove_defaults_to_the_current_reason_effect(duel: Duel) -> None:
    h = holder(duel)
    seen: list[tuple] = []
    e = player_effect(duel, EFFECT_CANNOT_REMOVE, on=h, target=lambda *a: seen.append(a) and False)
    re = duel.new_effect()
    duel.core.reason_effect = re
    assert duel.is_player_can_remove(0, h, REASON_EFFECT)
    assert seen == [(e, h, 0, REASON_EFFECT, re)]


def test_extra_deck_monster_to_hand_must_be_able_to_go_to_the_deck(duel: Duel) -> None:
    h = holder(duel)
    fusion = duel.new_card_at(200, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    normal = duel.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    seen: list[tuple] = []
    player_effect(duel, EFFECT_CANNOT_TO_HAND, on=h, target=lambda *a: seen.append(a) and False)
    player_effect(duel, EFFECT_CANNOT_TO_DECK, on=h, target=lambda e, c, p: c is fusion)
    assert duel.is_player_can_send_to_hand(0, normal)
    assert not duel.is_player_can_send_to_hand(0, fusion)
    assert len(seen[0]) == 4 and seen[0][3] is None      # (e, card, player, reason effect)
    assert duel.is_player_can_send_to_grave(0, fusion) and duel.is_player_can_release(0, h, REASON_COST)


def test_counters_and_overlays_present(duel: Duel) -> None:
    h = holder(duel)
    h.counters[0x1001] = 2
    assert duel.is_player_can_remove_counter(0, h, 0, 0, 0x1001, 2, REASON_COST)
    assert not duel.is_player_can_remove_counter(0, h, 0, 0, 0x1001, 3, REASON_COST)
    assert duel.is_player_can_remove_counter(0, None, 1, 0, 0x1001, 2, REASON_COST)
    assert not duel.is_player_can_remove_counter(1, None, 1, 0, 0x1001, 1, REASON_COST)
    assert not duel.is_player_can_remove_overlay_card(0, h, 0, 0, 1, REASON_COST)
    assert duel.is_player_can_remove_overlay_card(0, h, 0, 0, 0, REASON_COST)
    assert duel.is_player_can_place_counter(0, h, 0x1001, 1)


def test_discard_deck_as_cost_and_grave_redirects(duel: Duel) -> None:
    h = holder(duel)
    for _ in range(3):
        duel.new_card_at(100, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    assert duel.is_player_can_discard_deck_as_cost(0, 2)
    redirect = duel.new_effect()
    redirect.type = EFFECT_TYPE_FIELD
    redirect.code = EFFECT_TO_GRAVE_REDIRECT
    redirect.s_range, redirect.o_range = LOCATION_DECK, 0
    redirect.range = LOCATION_MZONE
    redirect.value = LOCATION_REMOVED
    redirect.owner = h
    h.add_effect(redirect)
    assert not duel.is_player_can_discard_deck_as_cost(0, 2)   # they would be banished
    assert duel.is_player_can_discard_deck_as_cost(1, 0)       # covers player 0's Deck only
    player_effect(duel, EFFECT_CANNOT_REMOVE, on=h)
    assert duel.is_player_can_discard_deck_as_cost(0, 2)       # ...but player 0 cannot banish


def test_enter_battle_phase(duel: Duel) -> None:
    duel.infos.turn_id = 1
    duel.infos.phase = PHASE_MAIN1
    assert not duel.is_able_to_enter_bp()
    duel.core.duel_options |= DUEL_ATTACK_FIRST_TURN
    assert duel.is_able_to_enter_bp()
    duel.infos.phase = PHASE_BATTLE_START
    assert not duel.is_able_to_enter_bp()
    duel.infos.phase = PHASE_MAIN1
    player_effect(duel, EFFECT_CANNOT_BP, on=holder(duel))
    assert not duel.is_able_to_enter_bp()


def test_spsummon_card_with_the_real_cost_check(duel: Duel) -> None:
    fusion = duel.new_card_at(200, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    assert duel.is_player_can_spsummon_card(None, SUMMON_TYPE_FUSION, POS_FACEUP, 0, 0, fusion)
    assert not duel.is_player_can_spsummon_card(None, SUMMON_TYPE_FUSION, 0, 0, 0, fusion)  # no position
