"""The tokens guide with the real cards it names (needs YGOPRO_SCRIPTS; rows from corpus.cdb).

    Number 48: Shadow Lich 1426714 (its Token 1426715)   one Token, checked at both stages
    Phantom Skyblaster 12958919 (Token 12958920)         up to N Tokens, asking to continue
    Scapegoat 73915051 (Tokens 73915052..5)               exactly 4 Tokens, each unable to be Tributed
    Blue-Eyes Spirit Dragon 59822133                      the effect code 59822133

with Ojama Trio 29843091 (three Tokens on the opponent's field) as the chained
effect that fills zones and Vanity's Emptiness 5851097 as the player
restriction.  The duels are played through the host API like tests/test_tokens.py
(its ``Board``): player 0's first turn, player 1 answering.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.messages import (MsgSelectChain, MsgSelectEffectYn, MsgSelectIdleCmd, MsgSelectPosition,
                                      MsgSelectYesNo, MsgSpSummoned, MsgSpSummoning)
from duelhost.engine.responses import YesNoResponse

from test_tokens import Board, choose_position, no_card_of, same_on_reference  # noqa: F401 (autouse fixture)

SHADOW_LICH = 1426714
PHANTOM_TOKEN = 1426715
SKYBLASTER = 12958919
SKYBLASTER_TOKEN = 12958920
SCAPEGOAT = 73915051
SHEEP = (73915052, 73915053, 73915054, 73915055)
SPIRIT_DRAGON = 59822133
OJAMA_TRIO = 29843091
OJAMA_TOKEN = 29843092
VANITY = 5851097
ELF = 15025844              # Mystical Elf, Normal Monster Level 4 (Decks and zone fillers)
DARK_MAGICIAN = 46986414    # Normal Monster Level 7 (Xyz material under the Lich)


@pytest.fixture(scope="module")
def corpus(corpus_db: Path) -> CardDatabase:
    return CardDatabase.open(corpus_db)


def real_board(corpus: CardDatabase, scripts: Path, db: CardDatabase | None = None) -> Board:
    return Board(db=db or corpus, scripts=scripts, filler=ELF)


def lich(b: Board, seq: int = 0):
    """Shadow Lich on player 1's field with one Xyz Material."""
    x = b.monster(SHADOW_LICH, player=1, seq=seq)
    x.xyz_add(b.engine.new_card(DARK_MAGICIAN))
    b.replayable = False        # no set-up call of the reference attaches Xyz Materials
    return x


def lich_offered(b: Board) -> list[MsgSelectChain]:
    return [p for p in b.asked(MsgSelectChain) if p.player == 1 and any(o.code == SHADOW_LICH for o in p.chains)]


# =====================================================================================
# Number 48: Shadow Lich, the guide's table
# =====================================================================================

def test_lich_summons_its_token_and_the_player_chooses_the_position(corpus, real_scripts):
    for position in (C.POS_FACEUP_ATTACK, C.POS_FACEUP_DEFENSE):
        b = real_board(corpus, real_scripts)
        lich(b)
        b.hand(ELF)
        b.start()
        b.chain_once[1].append(SHADOW_LICH)
        b.summon(ELF, choose_position(position))
        assert lich_offered(b)
        (asked,) = b.asked(MsgSelectPosition)
        assert (asked.player, asked.code, asked.positions) == (1, PHANTOM_TOKEN,
                                                                C.POS_FACEUP_ATTACK | C.POS_FACEUP_DEFENSE)
        token = next(c for c in b.monsters(1) if c.data.code == PHANTOM_TOKEN)
        assert token.current.position == position
        assert (token.get_type(), token.get_attack(), token.get_defense(), token.get_level()) == (
            C.TYPES_TOKEN_MONSTER, 500, 500, 1)
        assert (token.get_race(), token.get_attribute()) == (C.RACE_FIEND, C.ATTRIBUTE_DARK)
        assert b.monsters(1)[0].get_attack() == 1800 + 500     # the Lich counts its Token


def test_lich_no_usable_zone_cannot_be_activated(corpus, real_scripts):
    b = real_board(corpus, real_scripts)
    lich(b)
    b.fill(4, player=1, start=1)
    b.hand(ELF)
    b.start()
    b.chain_once[1].append(SHADOW_LICH)
    b.summon(ELF)
    assert b.asked(MsgSelectChain) and not lich_offered(b)
    assert no_card_of(b, PHANTOM_TOKEN)


def test_lich_last_zones_filled_by_a_chained_effect_no_token(corpus, real_scripts):
    # Lich + 1 monster: 3 zones free; Ojama Trio, chained, puts 3 Ojama Tokens there first
    b = real_board(corpus, real_scripts)
    lich(b)
    b.monster(player=1, seq=1)
    b.spell(OJAMA_TRIO, player=0, facedown=True)
    b.hand(ELF)
    b.start()
    b.chain_once[1].append(SHADOW_LICH)
    b.chain_once[0].append((OJAMA_TRIO, SHADOW_LICH))
    b.summon(ELF)
    assert lich_offered(b)
    assert sorted(c.data.code for c in b.monsters(1)) == sorted([SHADOW_LICH, ELF, OJAMA_TOKEN, OJAMA_TOKEN + 1,
                                                               OJAMA_TOKEN + 2])
    assert no_card_of(b, PHANTOM_TOKEN)
    assert not b.monsters(1)[0].xyz_materials                  # the cost was paid all the same


def test_lich_player_restriction_rejects_at_activation(corpus, real_scripts):
    b = real_board(corpus, real_scripts)
    lich(b)
    b.spell(VANITY, player=0)
    b.hand(ELF)
    b.start()
    b.summon(ELF)
    assert b.asked(MsgSelectChain) and not lich_offered(b)


def test_lich_player_restriction_chained_rejects_at_resolution(corpus, real_scripts):
    b = real_board(corpus, real_scripts)
    lich(b)
    b.spell(VANITY, player=0, facedown=True)
    b.hand(ELF)
    b.start()
    b.chain_once[1].append(SHADOW_LICH)
    b.chain_once[0].append((VANITY, SHADOW_LICH))
    b.summon(ELF)
    assert lich_offered(b)
    assert b.engine.player[0].list_szone[0].is_position(C.POS_FACEUP)
    assert no_card_of(b, PHANTOM_TOKEN)


def test_lich_wrong_database_row_the_token_follows_the_database(corpus, real_scripts):
    rows = [r.model_copy(update={"attack": 1700, "level": 2}) if r.code == PHANTOM_TOKEN else r for r in corpus]
    b = real_board(corpus, real_scripts, db=CardDatabase.from_records(rows, source="corpus, changed Token row"))
    lich(b)
    b.hand(ELF)
    b.start()
    b.chain_once[1].append(SHADOW_LICH)
    b.summon(ELF)
    token = next(c for c in b.monsters(1) if c.data.code == PHANTOM_TOKEN)
    assert (token.get_attack(), token.get_level()) == (1700, 2)


# =====================================================================================
# Phantom Skyblaster: up to N, continue or stop
# =====================================================================================

def skyblaster(corpus, scripts, others: int, *, spirit_dragon: bool = False) -> Board:
    b = real_board(corpus, scripts)
    b.fill(others)
    if spirit_dragon:
        b.monster(SPIRIT_DRAGON, player=1)
    b.hand(SKYBLASTER)
    b.start()
    return b


def summon_skyblaster(b: Board, *yes_no: bool) -> None:
    questions = list(yes_no)

    def policy(req):
        if isinstance(req, MsgSelectEffectYn) and req.code == SKYBLASTER:
            return YesNoResponse(yes=True)
        if isinstance(req, MsgSelectYesNo):
            assert questions, f"asked once more than expected: {req}"
            return YesNoResponse(yes=questions.pop(0))
        return None
    b.chain_once[0].append(SKYBLASTER)
    b.summon(SKYBLASTER, policy)
    assert not questions, "a question the test expected was not asked"


def test_skyblaster_stop_after_one(corpus, real_scripts):
    b = skyblaster(corpus, real_scripts, 2)
    summon_skyblaster(b, False)
    assert b.codes_on_field().count(SKYBLASTER_TOKEN) == 1
    assert [q.description for q in b.asked(MsgSelectYesNo)] == [SKYBLASTER * 16 + 2]
    assert len(b.messages(MsgSpSummoned)) == 1


def test_skyblaster_accept_every_offer_stops_at_its_count(corpus, real_scripts):
    # 3 monsters after the Summon, 2 free zones: at most 2 Tokens, one question
    b = skyblaster(corpus, real_scripts, 2)
    summon_skyblaster(b, True)
    assert b.codes_on_field().count(SKYBLASTER_TOKEN) == 2
    assert len(b.asked(MsgSelectYesNo)) == 1
    summons = [m for m in b.duel.messages if isinstance(m, (MsgSpSummoning, MsgSpSummoned))]
    assert [type(m) for m in summons] == [MsgSpSummoning, MsgSpSummoning, MsgSpSummoned]
    token = next(c for c in b.monsters() if c.data.code == SKYBLASTER_TOKEN)
    assert (token.get_level(), token.get_attack(), token.is_set_card(0x49)) == (4, 500, True)


def test_skyblaster_one_available_zone(corpus, real_scripts):
    b = skyblaster(corpus, real_scripts, 3)
    summon_skyblaster(b)
    assert b.codes_on_field().count(SKYBLASTER_TOKEN) == 1
    assert b.asked(MsgSelectYesNo) == []


def test_skyblaster_under_blue_eyes_spirit_dragon_summons_one(corpus, real_scripts):
    b = skyblaster(corpus, real_scripts, 2, spirit_dragon=True)
    summon_skyblaster(b)
    assert b.codes_on_field().count(SKYBLASTER_TOKEN) == 1
    assert b.asked(MsgSelectYesNo) == []


# =====================================================================================
# Scapegoat: exactly four, per-Token restrictions, one completion
# =====================================================================================

def test_scapegoat_four_tokens_in_one_batch(corpus, real_scripts):
    b = real_board(corpus, real_scripts)
    b.hand(SCAPEGOAT)
    b.hand(ELF)
    b.start()
    b.activate(SCAPEGOAT)
    tokens = b.monsters()
    assert [t.data.code for t in tokens] == list(SHEEP)
    assert all(t.current.position == C.POS_FACEUP_DEFENSE for t in tokens)
    assert all(t.is_affected_by_effect(C.EFFECT_UNRELEASABLE_SUM) for t in tokens)
    assert len(b.messages(MsgSpSummoning)) == 4 and len(b.messages(MsgSpSummoned)) == 1
    assert b.asked(MsgSelectPosition) == []
    # Scapegoat's own turn-long restriction: no Normal Summon after it
    assert ELF not in [i.code for i in b.idle().summonable]


def test_scapegoat_needs_four_zones(corpus, real_scripts):
    b = real_board(corpus, real_scripts)
    b.hand(SCAPEGOAT)
    b.fill(2)
    b.start()
    assert SCAPEGOAT not in b.activatable()


def test_scapegoat_refused_under_blue_eyes_spirit_dragon(corpus, real_scripts):
    b = real_board(corpus, real_scripts)
    b.hand(SCAPEGOAT)
    b.monster(SPIRIT_DRAGON, player=1)
    b.start()
    assert SCAPEGOAT not in b.activatable()
    assert isinstance(b.duel.request, MsgSelectIdleCmd)


# =====================================================================================
# Random play with decks built around the corpus's token-making cards
# =====================================================================================

def token_makers(corpus: CardDatabase, scripts: Path) -> tuple[list[int], list[int]]:
    """Main Deck and Extra Deck cards with a row whose script calls Duel.CreateToken."""
    extra_types = C.TYPE_FUSION | C.TYPE_SYNCHRO | C.TYPE_XYZ | C.TYPE_LINK
    main, extra = [], []
    for path in sorted(scripts.glob("c*.lua")):
        code = int(path.stem[1:]) if path.stem[1:].isdigit() else 0
        rec = corpus.find(code)
        if rec is None or rec.type & C.TYPE_TOKEN or "CreateToken" not in path.read_text(errors="replace"):
            continue
        (extra if rec.type & extra_types else main).append(code)
    return main, extra


def test_random_play_with_token_decks_raises_no_engine_error(corpus, real_scripts):
    import random

    from duelhost import Duel, RandomPlayer

    main, extra = token_makers(corpus, real_scripts)
    assert len(main) > 150 and len(extra) > 15
    rng = random.Random(5)
    tokens = 0
    for seed in range(2):
        d = Duel(db=corpus, scripts=real_scripts, seed=seed)
        for p in (0, 1):
            deck = [c for c in rng.sample(main, 20) for _ in range(2)]
            d.add_deck(p, deck, rng.sample(extra, 15), shuffle=True)
        d.run([RandomPlayer(seed), RandomPlayer(seed + 10)], max_turns=12)
        # the only script errors allowed: Tokens the corpus database has no row for
        errors = [e for e in d.script_host.errors if "no row for card code" not in e.message]
        assert errors == []
        tokens += sum(1 for m in d.messages if isinstance(m, MsgSpSummoning)
                      and corpus.get(m.code).type & C.TYPE_TOKEN)
    assert tokens > 0
