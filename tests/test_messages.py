"""Round trips and layouts of every message kind (duelhost.engine.messages)."""

from __future__ import annotations

import struct

import pytest

from duelhost.engine import messages as M
from duelhost.engine.messages import (
    AttackableCard,
    CardInfo,
    ChainLinkInfo,
    ChainOption,
    CounterCard,
    EffectOption,
    LocInfo,
    MessageDecodeError,
    MonsterZoneState,
    PlayerFieldState,
    SelectableCard,
    SpellZoneState,
    SumCard,
    TributeCard,
)

L0 = LocInfo(controller=0, location=0x04, sequence=2, position=0x01)
L1 = LocInfo(controller=1, location=0x08, sequence=4, position=0x0A)
LX = LocInfo(controller=1, location=0x84, sequence=3, position=1)  # an Xyz material, index 1
CI = CardInfo(code=89631139, controller=0, location=0x02, sequence=3)
CI2 = CardInfo(code=46986414, controller=1, location=0x01, sequence=39)
EO = EffectOption(code=0x80000000 | 5318639, controller=0, location=0x08, sequence=1, description=85098100)


def _player(lp: int, *, empty: bool = False) -> PlayerFieldState:
    mz = tuple(None if empty or i % 2 else MonsterZoneState(position=1 << (i % 4), overlay_count=i) for i in range(7))
    sz = tuple(None if empty or i % 3 else SpellZoneState(position=0xA) for i in range(8))
    return PlayerFieldState(
        lp=lp,
        mzone=mz,
        szone=sz,
        deck_count=30,
        hand_count=5,
        grave_count=2,
        removed_count=1,
        extra_count=15,
        extra_p_count=1,
    )


INSTANCES: dict[type[M.Message], list[M.Message]] = {
    M.MsgRetry: [M.MsgRetry()],
    M.MsgHint: [M.MsgHint(type=3, player=0, data=504), M.MsgHint(type=10, player=1, data=89631139)],
    M.MsgWin: [M.MsgWin(player=1, reason=2)],
    M.MsgSelectBattleCmd: [
        M.MsgSelectBattleCmd(
            player=0,
            activatable=(EO,),
            attackable=(
                AttackableCard(code=89631139, controller=0, location=4, sequence=0, direct_attackable=1),
                AttackableCard(code=46986414, controller=0, location=4, sequence=2, direct_attackable=0),
            ),
            can_main2=1,
            can_end_phase=1,
        ),
        M.MsgSelectBattleCmd(player=1, activatable=(), attackable=(), can_main2=0, can_end_phase=1),
    ],
    M.MsgSelectIdleCmd: [
        M.MsgSelectIdleCmd(
            player=0,
            summonable=(CI,),
            special_summonable=(),
            repositionable=(CardInfo(code=1, controller=0, location=4, sequence=0),),
            monster_settable=(CI,),
            spell_settable=(CI2, CI),
            activatable=(EO, EffectOption(code=1234, controller=0, location=2, sequence=0, description=0)),
            can_battle_phase=1,
            can_end_phase=1,
            can_shuffle=0,
        )
    ],
    M.MsgSelectEffectYn: [M.MsgSelectEffectYn(player=1, code=5318639, loc=L1, description=85098100)],
    M.MsgSelectYesNo: [M.MsgSelectYesNo(player=0, description=0x7FFFFFFF)],
    M.MsgSelectOption: [M.MsgSelectOption(player=0, options=(1, 2, 3)), M.MsgSelectOption(player=1, options=())],
    M.MsgSelectCard: [
        M.MsgSelectCard(
            player=0,
            cancelable=1,
            min=1,
            max=2,
            cards=(SelectableCard(code=1, location=L0), SelectableCard(code=2, location=LX)),
        )
    ],
    M.MsgSelectChain: [
        M.MsgSelectChain(
            player=1,
            special_count=1,
            hint_timing=0x10000,
            other_hint_timing=0x20,
            chains=(
                ChainOption(client_mode=0, forced=1, code=1, location=L0, description=16),
                ChainOption(client_mode=2, forced=0, code=2, location=L1, description=32),
            ),
        ),
        M.MsgSelectChain(player=0, special_count=0, hint_timing=0, other_hint_timing=0, chains=()),
    ],
    M.MsgSelectPlace: [M.MsgSelectPlace(player=0, count=1, flag=0xFFFFFFE0)],
    M.MsgSelectPosition: [M.MsgSelectPosition(player=0, code=89631139, positions=0x5)],
    M.MsgSelectTribute: [
        M.MsgSelectTribute(
            player=1,
            cancelable=0,
            min=2,
            max=2,
            cards=(
                TributeCard(code=1, controller=1, location=4, sequence=0, release_param=1),
                TributeCard(code=2, controller=1, location=4, sequence=1, release_param=2),
            ),
        )
    ],
    M.MsgSelectCounter: [
        M.MsgSelectCounter(
            player=0,
            counter_type=0x1,
            count=3,
            cards=(CounterCard(code=1, controller=0, location=8, sequence=2, counter_count=5),),
        )
    ],
    M.MsgSelectSum: [
        M.MsgSelectSum(
            player=1,
            mode=0,
            target=7,
            min=1,
            max=6,
            must_cards=(SumCard(code=2009101, controller=1, location=4, sequence=1, sum_param=3),),
            cards=(SumCard(code=49003716, controller=1, location=4, sequence=2, sum_param=(4 << 16) | 2),),
        ),
        M.MsgSelectSum(player=0, mode=1, target=2000, min=0, max=0, must_cards=(), cards=()),
    ],
    M.MsgSelectDisfield: [M.MsgSelectDisfield(player=1, count=2, flag=0x00FF00FF)],
    M.MsgSortCard: [M.MsgSortCard(player=0, cards=(CI, CI2))],
    M.MsgSelectUnselectCard: [
        M.MsgSelectUnselectCard(
            player=0,
            finishable=1,
            cancelable=0,
            min=1,
            max=3,
            selectable=(SelectableCard(code=7, location=L0),),
            unselectable=(SelectableCard(code=8, location=L1), SelectableCard(code=9, location=LX)),
        )
    ],
    M.MsgConfirmDecktop: [M.MsgConfirmDecktop(player=0, cards=(CI2,))],
    M.MsgConfirmCards: [M.MsgConfirmCards(player=1, skip_panel=1, cards=(CI, CI2))],
    M.MsgShuffleDeck: [M.MsgShuffleDeck(player=1)],
    M.MsgShuffleHand: [M.MsgShuffleHand(player=0, codes=(1, 2, 3, 4, 5))],
    M.MsgSwapGraveDeck: [M.MsgSwapGraveDeck(player=0)],
    M.MsgShuffleSetCard: [
        M.MsgShuffleSetCard(location=0x04, previous=(L0, LX), current=(None, L1)),
        M.MsgShuffleSetCard(location=0x08, previous=(), current=()),
    ],
    M.MsgReverseDeck: [M.MsgReverseDeck()],
    M.MsgDeckTop: [M.MsgDeckTop(player=0, sequence=1, code=0x80000000 | 89631139)],
    M.MsgShuffleExtra: [M.MsgShuffleExtra(player=1, codes=(44508094,))],
    M.MsgNewTurn: [M.MsgNewTurn(player=1)],
    M.MsgNewPhase: [M.MsgNewPhase(phase=0x200)],
    M.MsgConfirmExtratop: [M.MsgConfirmExtratop(player=1, cards=(CI,))],
    M.MsgMove: [
        M.MsgMove(code=89631139, previous=LocInfo(controller=0, location=2, sequence=2, position=0xA), current=L0, reason=0x10),
        M.MsgMove(code=0, previous=LX, current=LocInfo(controller=1, location=0x10, sequence=0, position=5), reason=0x20000008),
    ],
    M.MsgPosChange: [
        M.MsgPosChange(code=1, controller=0, location=4, sequence=1, previous_position=8, current_position=1)
    ],
    M.MsgSet: [M.MsgSet(code=1, loc=L1)],
    M.MsgSwap: [M.MsgSwap(code1=1, loc1=L0, code2=2, loc2=L1)],
    M.MsgFieldDisabled: [M.MsgFieldDisabled(flags=0x00010020)],
    M.MsgSummoning: [M.MsgSummoning(code=89631139, loc=L0)],
    M.MsgSummoned: [M.MsgSummoned()],
    M.MsgSpSummoning: [M.MsgSpSummoning(code=1, loc=LocInfo(controller=0, location=4, sequence=5, position=0x81))],
    M.MsgSpSummoned: [M.MsgSpSummoned()],
    M.MsgFlipSummoning: [M.MsgFlipSummoning(code=1, loc=L0)],
    M.MsgFlipSummoned: [M.MsgFlipSummoned()],
    M.MsgChaining: [
        M.MsgChaining(
            code=5318639,
            loc=L1,
            triggering_controller=1,
            triggering_location=8,
            triggering_sequence=4,
            description=85098100,
            chain_count=1,
        )
    ],
    M.MsgChained: [M.MsgChained(chain_count=1)],
    M.MsgChainSolving: [M.MsgChainSolving(chain_count=2)],
    M.MsgChainSolved: [M.MsgChainSolved(chain_count=2)],
    M.MsgChainEnd: [M.MsgChainEnd()],
    M.MsgChainNegated: [M.MsgChainNegated(chain_count=1)],
    M.MsgChainDisabled: [M.MsgChainDisabled(chain_count=3)],
    M.MsgRandomSelected: [M.MsgRandomSelected(player=0, cards=(L0, L1))],
    M.MsgBecomeTarget: [M.MsgBecomeTarget(cards=(L1,))],
    M.MsgDraw: [M.MsgDraw(player=0, codes=(1, 0x80000002)), M.MsgDraw(player=1, codes=())],
    M.MsgDamage: [M.MsgDamage(player=1, amount=1500)],
    M.MsgRecover: [M.MsgRecover(player=0, amount=500)],
    M.MsgEquip: [M.MsgEquip(card=L1, target=L0)],
    M.MsgLpUpdate: [M.MsgLpUpdate(player=0, lp=4000)],
    M.MsgCardTarget: [M.MsgCardTarget(card=L1, target=L0)],
    M.MsgCancelTarget: [M.MsgCancelTarget(card=L1, target=L0)],
    M.MsgPayLpCost: [M.MsgPayLpCost(player=0, amount=1000)],
    M.MsgAddCounter: [M.MsgAddCounter(counter_type=0x1, controller=0, location=8, sequence=2, count=1)],
    M.MsgRemoveCounter: [M.MsgRemoveCounter(counter_type=0x1, controller=0, location=8, sequence=2, count=3)],
    M.MsgAttack: [M.MsgAttack(attacker=L0, target=None), M.MsgAttack(attacker=L0, target=L1)],
    M.MsgBattle: [
        M.MsgBattle(
            attacker=L0,
            attacker_atk=3000,
            attacker_def=2500,
            attacker_destroyed=0,
            target=L1,
            target_atk=1000,
            target_def=1000,
            target_destroyed=1,
        ),
        M.MsgBattle(
            attacker=L0,
            attacker_atk=3000,
            attacker_def=2500,
            attacker_destroyed=0,
            target=None,
            target_atk=0,
            target_def=0,
            target_destroyed=0,
        ),
    ],
    M.MsgAttackDisabled: [M.MsgAttackDisabled()],
    M.MsgDamageStepStart: [M.MsgDamageStepStart()],
    M.MsgDamageStepEnd: [M.MsgDamageStepEnd()],
    M.MsgMissedEffect: [M.MsgMissedEffect(loc=L0, code=1)],
    M.MsgTossCoin: [M.MsgTossCoin(player=0, results=(1, 0, 1))],
    M.MsgTossDice: [M.MsgTossDice(player=1, results=(6,))],
    M.MsgRockPaperScissors: [M.MsgRockPaperScissors(player=1)],
    M.MsgHandRes: [M.MsgHandRes(result=1 + (3 << 2))],
    M.MsgAnnounceRace: [M.MsgAnnounceRace(player=0, count=1, available=0x3FFFFFF)],
    M.MsgAnnounceAttrib: [M.MsgAnnounceAttrib(player=1, count=2, available=0x7F)],
    M.MsgAnnounceCard: [M.MsgAnnounceCard(player=0, options=(0x1, 0x40000102))],
    M.MsgAnnounceNumber: [M.MsgAnnounceNumber(player=0, options=(1, 2, 3, 4, 5, 6))],
    M.MsgCardHint: [M.MsgCardHint(loc=L0, type=6, value=0x4785EF53)],
    M.MsgTagSwap: [
        M.MsgTagSwap(
            player=0,
            deck_count=35,
            extra_p_count=1,
            deck_top=0,
            hand=(1, 0x80000002),
            extra=(3, 4, 0x80000005),
        )
    ],
    M.MsgReloadField: [
        M.MsgReloadField(
            duel_rule=5,
            players=(_player(8000), _player(100, empty=True)),
            chain=(
                ChainLinkInfo(
                    code=1,
                    location=L1,
                    triggering_controller=1,
                    triggering_location=8,
                    triggering_sequence=4,
                    description=16,
                ),
            ),
        )
    ],
    M.MsgAiName: [M.MsgAiName(text="Windbot"), M.MsgAiName(text="")],
    M.MsgShowHint: [M.MsgShowHint(text="héllo \udcff")],
    M.MsgPlayerHint: [M.MsgPlayerHint(player=1, type=6, value=1234)],
    M.MsgMatchKill: [M.MsgMatchKill(code=1)],
}

CASES = [(cls, msg) for cls, msgs in INSTANCES.items() for msg in msgs]


def test_81_kinds_and_20_prompts() -> None:
    assert len(M.MESSAGE_TYPES) == 81
    assert len(M.PROMPT_TYPES) == 20
    assert M.MSG_CUSTOM_MSG not in M.MESSAGE_TYPES


@pytest.mark.parametrize("cls", sorted(M.MESSAGE_TYPES.values(), key=lambda c: c.ID), ids=lambda c: c.__name__)
def test_every_class_has_an_instance(cls: type[M.Message]) -> None:
    assert INSTANCES.get(cls), f"{cls.__name__} has no test instance"


@pytest.mark.parametrize("cls,msg", CASES, ids=[f"{c.__name__}-{i}" for i, (c, _) in enumerate(CASES)])
def test_round_trip(cls: type[M.Message], msg: M.Message) -> None:
    data = msg.encode()
    assert data[0] == cls.ID
    assert M.decode_messages(data) == [msg]
    assert cls.decode(data) == msg
    assert M.decode_messages(data)[0].encode() == data
    # inside a stream, between other messages
    stream = M.MsgNewTurn(player=0).encode() + data + M.MsgRetry().encode()
    assert M.decode_messages(stream) == [M.MsgNewTurn(player=0), msg, M.MsgRetry()]
    # every strict prefix is refused (no silent short read)
    for cut in range(1, len(data)):
        with pytest.raises(MessageDecodeError) as err:
            M.decode_messages(data[:cut])
        assert err.value.offset == 0 and err.value.msg_type == cls.ID


@pytest.mark.parametrize("cls,msg", CASES, ids=[f"{c.__name__}-{i}" for i, (c, _) in enumerate(CASES)])
def test_describe_is_one_line(cls: type[M.Message], msg: M.Message) -> None:
    text = msg.describe()
    assert text and "\n" not in text
    assert text.startswith(cls.NAME)
    named = msg.describe(lambda code: "Some Card")
    assert "\n" not in named


def test_prompts_have_player() -> None:
    for cls in M.PROMPT_TYPES.values():
        assert issubclass(cls, M.Prompt)
        assert cls.IS_PROMPT
        assert "player" in cls.__dataclass_fields__
    assert not M.MsgMove.IS_PROMPT


def test_messages_are_frozen() -> None:
    msg = M.MsgNewTurn(player=0)
    with pytest.raises(AttributeError):
        msg.player = 1  # type: ignore[misc]


def test_locinfo_bytes() -> None:
    loc = LocInfo(controller=1, location=0x84, sequence=3, position=2)
    assert loc.raw == 0x02038401
    assert LocInfo.from_raw(0x02038401) == loc
    assert loc.is_overlay and loc.overlay_index == 2
    assert L0.overlay_index is None


def test_move_layout_matches_reference() -> None:
    # MSG_MOVE: code u32, previous info u32, current info u32, reason u32
    msg = M.MsgMove(
        code=89631139,
        previous=LocInfo(controller=0, location=2, sequence=2, position=0xA),
        current=LocInfo(controller=0, location=4, sequence=1, position=1),
        reason=0x10,
    )
    assert msg.encode() == struct.pack("<BIBBBBBBBBI", 50, 89631139, 0, 2, 2, 0xA, 0, 4, 1, 1, 0x10)
    text = msg.describe(lambda c: "Blue-Eyes" if c == 89631139 else "")
    assert text == "MOVE 89631139 Blue-Eyes: P0 HAND#2 -> P0 MZONE#1 face-up ATK, reason SUMMON"


def test_select_sum_puts_mode_before_player() -> None:
    msg = M.MsgSelectSum(player=1, mode=0, target=7, min=1, max=6, must_cards=(), cards=())
    assert msg.encode() == bytes([23, 0, 1]) + struct.pack("<I", 7) + bytes([1, 6, 0, 0])


def test_confirm_cards_has_skip_panel_byte() -> None:
    msg = M.MsgConfirmCards(player=1, skip_panel=0, cards=(CI,))
    assert msg.encode() == bytes([31, 1, 0, 1]) + struct.pack("<IBBB", CI.code, 0, 2, 3)


def test_tag_swap_counts_and_list_order() -> None:
    msg = INSTANCES[M.MsgTagSwap][0]
    data = msg.encode()
    # player, deck, extra count, extra face-up count, hand count, top code
    assert data[:6] == bytes([161, 0, 35, 3, 1, 2])
    assert data[10:14] == struct.pack("<I", 1)  # hand codes first


def test_reload_field_size() -> None:
    msg = INSTANCES[M.MsgReloadField][0]
    p0, p1 = msg.players
    occupied_m = sum(z is not None for z in p0.mzone) + sum(z is not None for z in p1.mzone)
    occupied_s = sum(z is not None for z in p0.szone) + sum(z is not None for z in p1.szone)
    size = 1 + 1 + 2 * (4 + 7 + 8 + 6) + 2 * occupied_m + occupied_s + 1 + 15 * len(msg.chain)
    assert len(msg.encode()) == size


def test_text_messages_end_with_nul() -> None:
    assert M.MsgAiName(text="AI").encode() == bytes([163, 2, 0]) + b"AI\x00"
    with pytest.raises(MessageDecodeError, match="NUL"):
        M.decode_messages(bytes([163, 2, 0]) + b"AI!")


def test_high_bit_properties() -> None:
    draw = M.MsgDraw(player=0, codes=(1, 0x80000002))
    assert draw.cards == ((1, False), (2, True))
    top = M.MsgDeckTop(player=0, sequence=0, code=0x80000000 | 5)
    assert top.face_up and top.card_code == 5
    assert EO.field_only and EO.card_code == 5318639


def test_unknown_type_is_refused_with_offset() -> None:
    stream = M.MsgNewTurn(player=0).encode() + bytes([3])
    with pytest.raises(MessageDecodeError) as err:
        M.decode_messages(stream)
    assert err.value.offset == 2 and err.value.msg_type == 3
    assert "unknown message type 3" in str(err.value)


def test_custom_msg_is_refused_with_reason() -> None:
    with pytest.raises(MessageDecodeError, match="never writes it"):
        M.decode_messages(bytes([180]))


def test_truncated_stream_names_type_and_offset() -> None:
    stream = M.MsgNewTurn(player=0).encode() + M.MsgMove(code=1, previous=L0, current=L1, reason=0).encode()[:-1]
    with pytest.raises(MessageDecodeError) as err:
        M.decode_messages(stream)
    assert err.value.offset == 2 and err.value.msg_type == M.MSG_MOVE
    assert "MSG_MOVE" in str(err.value)


def test_decode_one_refuses_leftover_and_other_kind() -> None:
    data = M.MsgNewTurn(player=0).encode()
    with pytest.raises(MessageDecodeError, match="left after"):
        M.MsgNewTurn.decode(data + b"\x01")
    with pytest.raises(MessageDecodeError, match="expected MSG_MOVE"):
        M.MsgMove.decode(data)


def test_encode_messages_concatenates() -> None:
    msgs = [m for _, m in CASES]
    data = M.encode_messages(msgs)
    assert M.decode_messages(data) == msgs


def test_count_overflow_is_refused_on_encode() -> None:
    with pytest.raises(ValueError, match="count byte"):
        M.MsgShuffleHand(player=0, codes=tuple(range(256))).encode()
