"""engine.carddb: reading cards.cdb files into CardRecord and card_data bytes."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sqlite3
from collections import Counter
from pathlib import Path
from types import ModuleType

import pydantic
import pytest

from duelhost.engine.carddb import (
    CDB_SCHEMA,
    CardDatabase,
    CardDatabaseError,
    CardDatabaseMissingError,
    CardDatabaseSchemaError,
    CardRecord,
    NotACardDatabaseError,
    UnknownCardError,
    card_data_bytes,
    check_setcode,
    split_setcode,
    split_string_id,
    string_id,
)
from duelhost.engine.constants import (
    LINK_MARKER_BOTTOM,
    LINK_MARKER_TOP,
    TYPE_EFFECT,
    TYPE_LINK,
    TYPE_MONSTER,
    TYPE_NORMAL,
    TYPE_PENDULUM,
    TYPE_SPELL,
    TYPES_TOKEN_MONSTER,
)
from duelhost.engine.ydk import read_ydk

GOLDEN = Path(__file__).resolve().parent.parent.parent / "shared" / "golden"


def make_cdb(path: Path, datas: list[tuple], texts: list[tuple] | None = None) -> Path:
    """A cards.cdb at ``path`` with the given datas rows and (id, name, desc, *strs) texts rows."""
    con = sqlite3.connect(path)
    con.executescript(CDB_SCHEMA)
    con.executemany("INSERT INTO datas VALUES (?,?,?,?,?,?,?,?,?,?,?)", datas)
    if texts is None:
        texts = [(row[0], f"Card {row[0]}", "") for row in datas]
    for row in texts:
        padded = tuple(row) + (None,) * (19 - len(row))
        con.execute(f"INSERT INTO texts VALUES ({','.join('?' * 19)})", padded)
    con.commit()
    con.close()
    return path


def datas_row(code: int, *, ot: int = 3, alias: int = 0, setcode: int = 0, type_: int = 0x11,
              atk: int = 1000, def_: int = 1000, level: int = 4, race: int = 1, attribute: int = 1,
              category: object = 0) -> tuple:
    return (code, ot, alias, setcode, type_, atk, def_, level, race, attribute, category)


# -- the exact test against the reference's recorded card_data ----------------------


def golden_card_data() -> dict[str, str]:
    found: dict[str, str] = {}
    for name in ("vanilla.jsonl.gz", "real.jsonl.gz"):
        path = GOLDEN / name
        if not path.is_file():
            pytest.skip(f"golden file {path} not found")
        with gzip.open(path, "rt") as fh:
            for line in fh:
                found.update(json.loads(line)["card_data"])
    return found


def test_card_data_matches_golden_records(corpus_db: Path) -> None:
    expected = golden_card_data()
    db = CardDatabase.open(corpus_db)
    wrong = [code for code, hexdata in expected.items()
             if card_data_bytes(db.get(int(code))).hex() != hexdata]
    assert len(expected) > 1700
    assert wrong == []


def test_corpus_reads_every_card_and_validates(corpus_db: Path) -> None:
    db = CardDatabase.open(corpus_db)
    assert len(db) == 26745
    records = list(db)
    assert [r.code for r in records] == list(db.codes()) == sorted(db.codes())
    for record in records[::500]:  # a round trip through the full validator
        assert CardRecord.model_validate(record.model_dump()) == record


def test_corpus_rule_code_and_alias(corpus_db: Path) -> None:
    db = CardDatabase.open(corpus_db)
    alternate = db.get(73915053)  # an alternate artwork: alias kept, plays as its original
    assert (alternate.alias, alternate.rule_code, alternate.original_code) == (73915052, 0, 73915052)
    renamed = db.get(2819435)  # "always treated as Umi": far alias becomes the rule code
    assert (renamed.alias, renamed.rule_code) == (0, 22702055)
    assert (renamed.original_code, renamed.duel_code) == (2819435, 22702055)
    token = db.get(22110648)  # a Token keeps even a far alias
    assert (token.alias, token.rule_code) == (31533705, 0)


def test_corpus_card_without_texts_row(corpus_db: Path) -> None:
    record = CardDatabase.open(corpus_db).get(13790411)
    assert record.name == "" and record.strings == ("",) * 16


# -- conversions, on small databases ---------------------------------------------------


def test_row_conversions(tmp_path: Path) -> None:
    link = datas_row(1001, type_=TYPE_MONSTER | TYPE_EFFECT | TYPE_LINK, atk=2000,
                     def_=LINK_MARKER_TOP | LINK_MARKER_BOTTOM, level=2)
    pendulum = datas_row(1002, type_=TYPE_MONSTER | TYPE_NORMAL | TYPE_PENDULUM,
                         level=(1 << 24) | (8 << 16) | 7)
    odd = datas_row(1003, setcode=(0x0001 << 32) | 0x0002, atk=-2, def_=-2, race=1 << 32,
                    category="", level=0)
    db = CardDatabase.open(make_cdb(tmp_path / "c.cdb", [link, pendulum, odd]))
    r = db.get(1001)
    assert (r.level, r.defense, r.link_marker, r.attack) == (2, 0, 0x82, 2000)
    r = db.get(1002)
    assert (r.level, r.lscale, r.rscale) == (7, 1, 8)
    r = db.get(1003)
    assert r.setcodes == (0x0002, 0x0001)  # zero chunks skipped, lowest first
    assert (r.attack, r.defense) == (-2, -2)  # "?" stays -2 (int32)
    assert r.race == 0  # cut to uint32, as the C reader does
    assert r.category == 0  # an empty text reads as 0


def test_alias_rules(tmp_path: Path) -> None:
    rows = [
        datas_row(5000),  # an original ...
        datas_row(5001, alias=5000),  # ... and its alternate artwork
        datas_row(5019, alias=5000),  # 19 away: still an alternate
        datas_row(5020, alias=5000),  # 20 away: a rule code
        datas_row(7000, alias=9000),  # far alias: rule code
        datas_row(7001, alias=7000),  # alternate of a renamed card inherits its rule code
        datas_row(9000),
        datas_row(8000, alias=9000, type_=TYPES_TOKEN_MONSTER),  # a Token keeps its alias
        datas_row(5405696),
        datas_row(5405695, alias=5405696),  # the one near alias that is a rule code
    ]
    db = CardDatabase.open(make_cdb(tmp_path / "a.cdb", rows))

    def alias_rule(code: int) -> tuple[int, int]:
        record = db.get(code)
        return record.alias, record.rule_code

    assert alias_rule(5001) == (5000, 0)
    assert alias_rule(5019) == (5000, 0)
    assert alias_rule(5020) == (0, 5000)
    assert alias_rule(7000) == (0, 9000)
    assert alias_rule(7001) == (7000, 9000)
    assert db.get(7001).original_code == 7000 and db.get(7001).duel_code == 9000
    assert alias_rule(8000) == (9000, 0)
    assert alias_rule(5405695) == (0, 5405696)


def test_texts_and_hint_strings(tmp_path: Path) -> None:
    texts = [(4000, "Name", "Text", "first", None, "third")]
    db = CardDatabase.open(make_cdb(tmp_path / "t.cdb", [datas_row(4000)], texts))
    record = db.get(4000)
    assert (record.name, record.desc) == ("Name", "Text")
    assert record.strings[:3] == ("first", "", "third") and len(record.strings) == 16
    assert db.hint_string(string_id(4000, 2)) == "third"
    assert record.string(0) == "first"
    assert db.hint_string(1160) is None  # a system string, not the database's
    assert split_string_id(string_id(4000, 15)) == (4000, 15)
    with pytest.raises(ValueError):
        string_id(4000, 16)


def test_card_data_layout(tmp_path: Path) -> None:
    row = datas_row(0x01020304, alias=0x01020300, setcode=0x0005_0004_0003_0002, type_=0x21,
                    atk=-2, def_=500, level=(3 << 24) | (5 << 16) | 4, race=0x10, attribute=0x20)
    data = CardDatabase.open(make_cdb(tmp_path / "l.cdb", [row])).card_data(0x01020304)
    assert len(data) == 80
    assert data[:8] == bytes.fromhex("04030201" "00030201")
    assert data[8:16] == bytes.fromhex("0200030004000500") and data[16:40] == bytes(24)
    assert data[40:] == bytes.fromhex(
        "21000000" "04000000" "20000000" "10000000" "feffffff" "f4010000"
        "03000000" "05000000" "00000000" "00000000")


# -- setcodes --------------------------------------------------------------------------


def test_setcode_rules() -> None:
    assert split_setcode(0x8F_0054_0000_0059) == (0x59, 0x54, 0x8F)
    assert split_setcode(-1) == (0xFFFF,) * 4  # a negative 64-bit column is read as uint64
    assert check_setcode(0x1048, 0x48)  # a sub-archetype belongs to its archetype
    assert check_setcode(0x1048, 0x1048)
    assert not check_setcode(0x0048, 0x1048)  # but not the other way round
    assert not check_setcode(0x2048, 0x1048)
    assert not check_setcode(0, 0)
    record = CardRecord(code=1, setcodes=(0x1048, 0x8F))
    assert record.is_setcode(0x48) and record.is_setcode(0x8F) and not record.is_setcode(0x49)


# -- records ---------------------------------------------------------------------------


def test_record_is_frozen_and_validated() -> None:
    record = CardRecord(code=10, type=TYPE_SPELL)
    assert record.is_type(TYPE_SPELL) and not record.is_type(TYPE_MONSTER)
    with pytest.raises(pydantic.ValidationError):
        record.code = 11  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        CardRecord(code=-1)
    with pytest.raises(pydantic.ValidationError):
        CardRecord(code=1, attack=1 << 31)
    with pytest.raises(pydantic.ValidationError):
        CardRecord(code=1, strings=("a",))
    with pytest.raises(pydantic.ValidationError):
        CardRecord(code=1, setcodes=(0,))
    with pytest.raises(pydantic.ValidationError):
        CardRecord(code=1, unknown_field=2)  # type: ignore[call-arg]


# -- errors ------------------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.cdb"
    with pytest.raises(CardDatabaseMissingError, match="nope.cdb does not exist"):
        CardDatabase.open(path)


def test_not_a_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "text.cdb"
    path.write_text("this is not a database\n" * 100)
    with pytest.raises(NotACardDatabaseError, match="text.cdb"):
        CardDatabase.open(path)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("", "table 'datas' is missing"),
        ("CREATE TABLE datas(id integer);", "table 'datas' lacks column\\(s\\) ot, alias"),
        (CDB_SCHEMA.split(";")[0] + ";", "table 'texts' is missing"),
        (CDB_SCHEMA.replace(",str16 text", ""), "table 'texts' lacks column\\(s\\) str16"),
    ],
    ids=["empty", "datas-columns", "no-texts", "texts-column"],
)
def test_wrong_schema(tmp_path: Path, sql: str, message: str) -> None:
    path = tmp_path / "bad.cdb"
    con = sqlite3.connect(path)
    con.executescript(sql or "CREATE TABLE other(x);")
    con.close()
    with pytest.raises(CardDatabaseSchemaError, match=message):
        CardDatabase.open(path)


def test_unknown_code(tmp_path: Path) -> None:
    path = make_cdb(tmp_path / "one.cdb", [datas_row(1234)])
    db = CardDatabase.open(path)
    with pytest.raises(UnknownCardError, match=f"no row for card code 99 in {path}") as info:
        db.get(99)
    assert info.value.code == 99
    assert db.find(99) is None and 99 not in db
    assert 1234 in db and db.find(1234) is db.get(1234)
    assert isinstance(info.value, CardDatabaseError) and isinstance(info.value, ValueError)


def test_bad_utf8_text_is_replaced(tmp_path: Path) -> None:
    path = make_cdb(tmp_path / "u.cdb", [datas_row(1)], texts=[])
    con = sqlite3.connect(path)
    con.execute("INSERT INTO texts(id, name, desc) VALUES (1, CAST(X'41FF42' AS TEXT), '')")
    con.commit()
    con.close()
    assert CardDatabase.open(path).get(1).name == "A\ufffdB"


def test_from_records() -> None:
    db = CardDatabase.from_records([CardRecord(code=3), CardRecord(code=1)], source="mine")
    assert db.codes() == (1, 3) and len(db) == 2
    with pytest.raises(UnknownCardError, match="no row for card code 2 in mine"):
        db.get(2)


# -- our own cards: cards/cards.toml -> cards.db ------------------------------------------

REPO = Path(__file__).resolve().parent.parent


def load_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_cards_db", REPO / "tools" / "build_cards_db.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cards_db_is_up_to_date_with_toml() -> None:
    builder = load_builder()
    assert builder.read_rows(REPO / "cards.db") == builder.build_rows(REPO / "cards"), (
        "cards.db is stale: run python tools/build_cards_db.py")


def test_cards_db_contents() -> None:
    db = CardDatabase.open(REPO / "cards.db")
    assert all(190000001 <= code <= 190099999 for code in db.codes())
    demo = [r for r in db if r.code < 190000200]      # cards.toml's demo cards (other families add more)
    normals = [r for r in demo if r.type == TYPE_MONSTER | TYPE_NORMAL]
    assert len(normals) == 40
    assert {r.level for r in normals} == set(range(1, 9))
    assert len({(r.race, r.attribute) for r in normals}) >= 10
    tokens = [r for r in demo if r.type == TYPES_TOKEN_MONSTER]
    assert len(tokens) == 2
    link = db.get(190000208)
    assert (link.level, link.defense, link.link_marker) == (2, 0, 0x5)
    pendulum = db.get(190000207)
    assert (pendulum.level, pendulum.lscale, pendulum.rscale) == (4, 2, 7)
    assert db.get(190000201).is_setcode(0xF01) and db.get(190000201).strings[0]


def test_cards_db_schema_and_codes_against_corpus(corpus_db: Path) -> None:
    def schema(path: Path) -> list[str]:
        con = sqlite3.connect(path)
        try:
            return [row[0] for row in con.execute("SELECT sql FROM sqlite_master ORDER BY name")]
        finally:
            con.close()

    assert schema(REPO / "cards.db") == schema(corpus_db)
    corpus = CardDatabase.open(corpus_db)
    ours = CardDatabase.open(REPO / "cards.db")
    assert [code for code in ours.codes() if code in corpus] == []
    corpus_names = {record.name for record in corpus}
    assert [r.name for r in ours if r.name in corpus_names] == []


def test_demo_decks() -> None:
    db = CardDatabase.open(REPO / "cards.db")
    seen: set[int] = set()
    for name in ("demo_a.ydk", "demo_b.ydk"):
        deck = read_ydk(REPO / "cards" / name)
        assert len(deck.main) == 40 and deck.extra == () and deck.side == ()
        assert max(Counter(deck.main).values()) <= 3
        assert all(db.get(code).type == TYPE_MONSTER | TYPE_NORMAL for code in deck.main)
        seen |= set(deck.main)
    assert len(seen) == 40


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ('code = 190000001\nname = "X"\ntype = "MONSTRE"', "card #1 \\(code 190000001, 'X'\\): type: .*unknown name 'MONSTRE'"),
        ('code = 190000001\nname = "X"\ntype = ["MONSTER", "LINK"]\ndef = 100', "a Link monster has no def"),
        ('code = 12345\nname = "X"\ntype = "SPELL"', "code outside our range"),
        ('code = 190000001\nname = "X"\ntype = "SPELL"\ncolour = 1', "colour: Extra inputs are not permitted"),
        ('code = 190000001\nname = "X"\ntype = "SPELL"\n[[card]]\ncode = 190000001\nname = "Y"\ntype = "TRAP"',
         "card #2 .*code already used in cards.toml card #1"),
    ],
    ids=["unknown-name", "link-def", "foreign-code", "unknown-field", "duplicate"],
)
def test_builder_errors_name_the_card(tmp_path: Path, card: str, message: str) -> None:
    builder = load_builder()
    source = tmp_path / "cards.toml"
    source.write_text("[[card]]\n" + card + "\n")
    with pytest.raises(builder.CardsTomlError, match=message):
        builder.build_rows(source)


def test_builder_writes_a_readable_database(tmp_path: Path) -> None:
    builder = load_builder()
    source = tmp_path / "cards.toml"
    source.write_text('[[card]]\ncode = 190000002\nname = "P"\ntype = ["MONSTER", "NORMAL", "PENDULUM"]\n'
                      'level = 3\nlscale = 1\nrscale = 9\nsetcodes = [0x10, 0x20]\natk = -2\ndef = 0\n'
                      'attribute = ["LIGHT", "DARK"]\nrace = 0x4\n')
    target = tmp_path / "out.db"
    assert builder.main(["--source", str(source), "--output", str(target)]) == 0
    assert builder.main(["--source", str(source), "--output", str(target), "--check"]) == 0
    record = CardDatabase.open(target).get(190000002)
    assert (record.level, record.lscale, record.rscale, record.setcodes) == (3, 1, 9, (0x10, 0x20))
    assert (record.attack, record.attribute, record.race, record.ot) == (-2, 0x30, 0x4, 4)
