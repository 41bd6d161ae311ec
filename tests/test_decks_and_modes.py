"""Issue 12 items 1-4: random decks with an Extra Deck, deck folders paired, whole
duels, and duel modes (Master Rule, DUEL_* flags, Tag Duels) for diff and selfplay.

The bundled cards show the deck rules, the pairing, the bad-input lines and Tag
Duels in our engine; the live comparisons need the reference library
(OCGCORE_LIB) and are skipped without it.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from duelhost import RandomPlayer, paths
from duelhost.deckpool import (DeckPool, banned_types, deck_pairs, deck_pool, random_deck,
                               random_main_deck, read_deck_folder)
from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase
from duelhost.modes import DuelMode, mode_from_options

REPO = Path(__file__).resolve().parent.parent
DECKS = sorted((REPO / "cards").glob("*.ydk"))


@pytest.fixture(scope="module")
def db() -> CardDatabase:
    return CardDatabase.open(paths.bundled_db())


# ----- decks ---------------------------------------------------------------------------------

def test_pendulum_cards_need_master_rule_3_and_link_monsters_master_rule_4():
    pend, link, fusion, spell = 1, 2, 3, 4
    pool = DeckPool(main=(pend, spell), extra=(fusion, link),
                    types={pend: C.TYPE_MONSTER | C.TYPE_PENDULUM | C.TYPE_EFFECT, spell: C.TYPE_SPELL,
                           fusion: C.TYPE_MONSTER | C.TYPE_FUSION, link: C.TYPE_MONSTER | C.TYPE_LINK})
    assert banned_types(1) == banned_types(2) == C.TYPE_PENDULUM | C.TYPE_LINK
    assert banned_types(3) == C.TYPE_LINK and banned_types(4) == banned_types(5) == 0
    assert pool.for_rule(2) == ([spell], [fusion])
    assert pool.for_rule(3) == ([pend, spell], [fusion])
    assert pool.for_rule(5) == ([pend, spell], [fusion, link])


def test_random_decks_have_40_main_and_15_extra_cards_and_main_only_keeps_the_old_decks(db):
    pool = deck_pool(db, paths.bundled_scripts(), ot=0)
    assert pool.extra and all(db.get(c).type & (C.TYPE_FUSION | C.TYPE_SYNCHRO | C.TYPE_XYZ | C.TYPE_LINK)
                              for c in pool.extra)
    main, extra = random_deck(random.Random(7), pool)
    assert len(set(main)) == 40 and set(main) <= set(pool.main)
    assert len(set(extra)) == min(15, len(pool.extra)) and set(extra) <= set(pool.extra)
    # --main-only: the very deck the measurements before issue 12 drew from the same generator
    assert random_deck(random.Random(7), pool, main_only=True) == (random_main_deck(random.Random(7),
                                                                                    pool.main), [])


def test_deck_pairs_meet_deck_k_and_k_plus_m():
    assert deck_pairs(6) == [(0, 3), (1, 4), (2, 5), (3, 0), (4, 1), (5, 2)]
    assert deck_pairs(5, offset=1)[:2] == [(0, 1), (1, 2)]
    assert deck_pairs(8, size=4)[0] == (0, 2, 4, 6)
    assert deck_pairs(1) == []


def _deck_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    for p in DECKS:
        shutil.copy(p, folder / p.name)
    (folder / "broken.ydk").write_text("#main\nnot-a-code\n", encoding="utf-8")
    (folder / "unknown.ydk").write_text("#main\n190001001\n999999999\n", encoding="utf-8")
    return folder


def test_a_deck_folder_reads_each_file_or_says_in_one_line_why_not(tmp_path, db):
    files = read_deck_folder(_deck_folder(tmp_path), db)
    assert [f.name for f in files] == sorted([p.name for p in DECKS] + ["broken.ydk", "unknown.ydk"])
    problems = {f.name: f.problem for f in files if f.problem}
    assert set(problems) == {"broken.ydk", "unknown.ydk"}
    assert "unreadable: line 2" in problems["broken.ydk"] and "not-a-code" in problems["broken.ydk"]
    assert problems["unknown.ydk"] == "1 card(s) with no row in the database: 999999999"
    assert all(len(f.main) == 40 for f in files if not f.problem)


# ----- modes ---------------------------------------------------------------------------------

def test_duel_modes_make_the_start_duel_options():
    assert DuelMode().options == 5 << 16
    mode = mode_from_options(3, attack_first_turn=True, pseudo_shuffle=True, tag=True)
    assert mode.options == (3 << 16) | C.DUEL_ATTACK_FIRST_TURN | C.DUEL_PSEUDO_SHUFFLE | C.DUEL_TAG_MODE
    assert mode.decks == 4 and mode.describe() == "Master Rule 3, attack on the first turn, pseudo shuffle, Tag Duel"
    # no rule in the high bits: rule 1 with DUEL_OBSOLETE_RULING, else the current rule
    assert mode_from_options(0, obsolete_ruling=True).effective_rule == 1
    assert DuelMode(rule=0).effective_rule == 5 and DuelMode(rule=9).effective_rule == 5


def test_a_tag_setup_gives_the_partners_decks_with_new_tag_card(db):
    from duelhost.diff import random_setup
    pool = deck_pool(db, paths.bundled_scripts(), ot=0)
    setup = random_setup(random.Random(2), pool, mode=DuelMode(rule=4, flags=C.DUEL_TAG_MODE))
    assert setup.options == (4 << 16) | C.DUEL_TAG_MODE and len(setup.decks) == 4
    assert {c[1] for c in setup.cards} == {0, 1} and {t[1] for t in setup.tag_cards} == {0, 1}
    assert sum(1 for t in setup.tag_cards if t[2] == C.LOCATION_DECK) == 80


def test_a_tag_duel_in_our_engine_swaps_the_partners():
    from duelhost import Duel
    from duelhost.engine.messages import MsgTagSwap
    from duelhost.engine.ydk import read_ydk
    decks = [read_ydk(p) for p in DECKS]
    duel = Duel(seed=3, options=(5 << 16) | C.DUEL_TAG_MODE)
    for seat, deck in enumerate(decks):
        add = duel.add_deck if seat < 2 else duel.add_tag_deck
        add(seat % 2, deck.main, deck.extra, shuffle=True)
    duel.start()
    duel.run([RandomPlayer(1), RandomPlayer(2)], max_turns=4)
    swaps = [m for m in duel.messages if isinstance(m, MsgTagSwap)]
    assert [m.player for m in swaps[:2]] == [1, 0] and swaps[0].deck_count > 20


# ----- selfplay ------------------------------------------------------------------------------

def test_selfplay_pairs_a_deck_folder_and_goes_on_past_bad_decks(tmp_path):
    from duelhost.cli import main
    res = CliRunner().invoke(main, ["selfplay", "--decks", str(_deck_folder(tmp_path)), "--turn-limit", "0",
                                    "--response-limit", "3000", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "skipped deck broken.ydk: unreadable" in res.output
    assert "skipped deck unknown.ydk: 1 card(s) with no row in the database: 999999999" in res.output
    assert f"selfplay: {len(DECKS)} duels" in res.output and f"finished: {len(DECKS)}/{len(DECKS)}" in res.output
    assert "at the turn cap: 0" in res.output


def test_selfplay_plays_tag_duels_under_an_old_master_rule():
    from duelhost.selfplay import default_config, run_selfplay
    res = run_selfplay(default_config(duels=2, seed=4, turn_limit=8, decks=DECKS,
                                      mode=DuelMode(rule=2, flags=C.DUEL_TAG_MODE)), jobs=0)
    assert [len(d.decks) for d in res.duels] == [4, 4]
    assert res.count("engine_error") == 0 and "Master Rule 2, Tag Duel" in res.to_text()


# ----- live, against the reference -------------------------------------------------------------


@pytest.mark.parametrize("mode", [DuelMode(rule=5, flags=C.DUEL_TAG_MODE), DuelMode(rule=1),
                                  DuelMode(rule=3, flags=C.DUEL_ATTACK_FIRST_TURN | C.DUEL_PSEUDO_SHUFFLE)],
                         ids=["tag", "rule1", "rule3-flags"])
def test_live_diff_of_a_deck_folder_in_each_mode_is_identical(ref_lib, tmp_path, mode):
    from duelhost.diff import run_live_diff
    summary = run_live_diff(ref_lib, seeds=1, db_path=paths.bundled_db(), scripts=paths.bundled_scripts(),
                            deck_dir=_deck_folder(tmp_path), mode=mode, turn_limit=0, response_limit=1500,
                            duel_timeout=None)
    assert len(summary.problems) == 2 and summary.total == len(DECKS)
    bad = [summary.line(r) for r in summary.results if not r.identical]
    assert not bad, bad[0]
    assert all(r.end in ("win", "cap_responses") for r in summary.results)
    assert "all duels ended:" in summary.to_text() and "skipped deck broken.ydk" in summary.to_text()
