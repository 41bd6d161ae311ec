"""engine.ydk: parsing .ydk deck lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.engine.carddb import CardDatabase
from duelhost.engine.ydk import Deck, YdkError, parse_ydk, read_ydk

SHARED_DECKS = Path(__file__).resolve().parent.parent.parent / "shared" / "decks"


def shared_deck_files() -> list[Path]:
    return sorted(SHARED_DECKS.glob("*.ydk")) if SHARED_DECKS.is_dir() else []


def test_sections_comments_and_blank_lines() -> None:
    text = "\ufeff#created by someone\r\n#main\r\n100\r\n\r\n100\r\n  200  \r\n# a note\r\n#extra\r\n300\r\n!side\r\n400"
    assert parse_ydk(text) == Deck(main=(100, 100, 200), extra=(300,), side=(400,))


def test_sections_may_repeat_and_be_empty() -> None:
    deck = parse_ydk("#main\n1\n#extra\n!side\n#main\n2\n")
    assert deck == Deck(main=(1, 2), extra=(), side=())


def test_round_trip() -> None:
    deck = Deck(main=(5, 6, 6), extra=(7,), side=(8, 9))
    assert parse_ydk(deck.to_ydk()) == deck
    assert list(deck.codes()) == [5, 6, 6, 7, 8, 9]


@pytest.mark.parametrize(
    ("text", "line_number", "reason"),
    [
        ("#main\n123\nabc\n", 3, "expected a card code"),
        ("#main\n12 34\n", 2, "expected a card code"),
        ("#main\n-5\n", 2, "expected a card code"),
        ("#main\n0\n", 2, "card code out of range"),
        ("#main\n99999999999\n", 2, "card code out of range"),
        ("#created by x\n123\n#main\n", 2, "card code before #main"),
        ("#main\n!sidedeck\n", 2, "expected a card code"),
    ],
)
def test_bad_lines_name_file_and_line(text: str, line_number: int, reason: str) -> None:
    with pytest.raises(YdkError, match=f"^deck.ydk, line {line_number}: {reason}") as info:
        parse_ydk(text, "deck.ydk")
    assert info.value.line_number == line_number
    assert isinstance(info.value, ValueError)


def test_read_file_errors(tmp_path: Path) -> None:
    with pytest.raises(YdkError, match="missing.ydk: deck file does not exist"):
        read_ydk(tmp_path / "missing.ydk")
    bad = tmp_path / "latin1.ydk"
    bad.write_bytes(b"#main\n1\n#created by J\xf6rg\n")
    with pytest.raises(YdkError, match="latin1.ydk, line 3: not UTF-8 text"):
        read_ydk(bad)


def test_read_file(tmp_path: Path) -> None:
    path = tmp_path / "d.ydk"
    path.write_text("#main\n11\n#extra\n22\n!side\n")
    assert read_ydk(path) == Deck(main=(11,), extra=(22,))


@pytest.mark.skipif(not shared_deck_files(), reason=f"{SHARED_DECKS} not found")
def test_all_shared_decks_parse_and_exist(corpus_db: Path) -> None:
    files = shared_deck_files()
    assert len(files) == 108
    db = CardDatabase.open(corpus_db)
    for path in files:
        deck = read_ydk(path)
        assert 40 <= len(deck.main) <= 60, path.name  # one file is a card list: 35 in #extra
        missing = [code for code in deck.codes() if code not in db]
        assert missing == [], path.name
