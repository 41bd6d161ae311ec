"""Card records from a ``cards.cdb``-schema SQLite database.

A card database has two tables: ``datas`` (id, ot, alias, setcode, type, atk,
def, level, race, attribute, category) and ``texts`` (id, name, desc,
str1..str16).  The reference core never reads the database itself: its host
hands it an 80-byte ``card_data`` struct per code (``card_data.h``).  This
module turns rows into :class:`CardRecord` exactly the way the YGOPro client's
reader fills that struct, so :func:`card_data_bytes` gives the bytes the
reference core was given:

* integer columns are read as SQLite 64-bit integers (text and NULL as SQLite
  converts them: a leading number, else 0) and then cut to the field's C type:
  uint32 for code/alias/type/race/attribute/level, int32 for atk/def, uint64
  for setcode and category;
* ``setcode`` is split into its non-zero 16-bit archetype codes, lowest first
  (``write_setcode``);
* ``level``: bits 0-7 are the level, rank or link rating, bits 24-31 the left
  Pendulum scale and bits 16-23 the right one (the reader keeps only the low
  byte as the level; bits 8-15 are unused in every known database);
* for a Link monster, ``def`` holds the link markers and its defense is 0;
* ``alias`` and ``rule_code``: an alias less than
  :data:`CARD_ARTWORK_VERSIONS_OFFSET` away from the code marks an alternate
  artwork, which keeps its alias (so it plays as, and runs the script of, the
  original).  Any other alias of a non-Token card is a *rule code*: the card
  is its own printed card (own script) that is treated as the aliased card's
  name in the duel; the reader moves it to ``rule_code`` and clears ``alias``.
  Alternate artworks then inherit the rule code of their original.

All rows are read once when the database is opened; each becomes a validated
:class:`CardRecord` when it is first asked for.
"""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Iterable, Iterator
from os import PathLike
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from .constants import TYPE_LINK, TYPE_TOKEN
from .core_constants import SIZE_SETCODE

__all__ = [
    "CARD_ARTWORK_VERSIONS_OFFSET",
    "CARD_BLACK_LUSTER_SOLDIER2",
    "CARD_DATA_SIZE",
    "CDB_SCHEMA",
    "SIZE_SETCODE",
    "STRING_COUNT",
    "CardDatabase",
    "CardDatabaseError",
    "CardDatabaseMissingError",
    "CardDatabaseSchemaError",
    "CardRecord",
    "NotACardDatabaseError",
    "UnknownCardError",
    "check_setcode",
    "card_data_bytes",
    "is_alternative_artwork",
    "split_setcode",
    "split_string_id",
    "string_id",
]

STRING_COUNT = 16
"""Hint strings per card: ``texts.str1`` .. ``texts.str16``."""

CARD_DATA_SIZE = 80
"""Size in bytes of the reference's ``card_data`` struct."""

CARD_ARTWORK_VERSIONS_OFFSET = 20
"""An alias closer than this to the code marks an alternate artwork (the value
ygopro-core used in ``is_alternative`` before the rule moved to the reader)."""

CARD_BLACK_LUSTER_SOLDIER2 = 5405695
"""The one card whose near alias is a rule code, not an alternate artwork."""

SYSTEM_STRING_LIMIT = 2048
"""Descriptions below this are system strings (the client's strings.conf), not card strings."""

_CARD_DATA = struct.Struct("<II16HIIIIiiIIII")
assert _CARD_DATA.size == CARD_DATA_SIZE

_U32 = 0xFFFFFFFF
_U64 = 0xFFFFFFFFFFFFFFFF

UInt32 = Annotated[int, Field(ge=0, le=_U32)]
Int32 = Annotated[int, Field(ge=-(1 << 31), le=(1 << 31) - 1)]
UInt64 = Annotated[int, Field(ge=0, le=_U64)]
SetCode = Annotated[int, Field(ge=1, le=0xFFFF)]

CDB_SCHEMA = (
    "CREATE TABLE datas(id integer primary key, ot integer, alias integer, setcode integer, "
    "type integer, atk integer, def integer, level integer, race integer, attribute integer, "
    "category integer);\n"
    "CREATE TABLE texts(id integer primary key, name text, desc text,"
    + ",".join(f"str{i} text" for i in range(1, 17))
    + ");\n"
)
"""The two tables of a ``cards.cdb``, as the YGOPro client's databases declare them."""

DATAS_COLUMNS = (
    "id", "ot", "alias", "setcode", "type", "atk", "def", "level", "race", "attribute", "category",
)
TEXTS_COLUMNS = ("id", "name", "desc", *(f"str{i}" for i in range(1, STRING_COUNT + 1)))


class CardRecord(BaseModel):
    """One card as the reference core sees it, plus its texts.

    Fields mirror ``card_data`` (``code`` .. ``rule_code``) with ``setcodes`` as
    the non-zero archetype codes only; ``ot``, ``category``, ``name``, ``desc``
    and ``strings`` are the rest of the row.  ``level`` is the level, rank or
    link rating; a Link monster has ``defense`` 0 and its arrows in
    ``link_marker``.  Records read from a database are built by
    :class:`CardDatabase`; building one directly validates every field
    (strictly: ints must be ints in their C type's range, tuples must be tuples).
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    code: UInt32
    alias: UInt32 = 0
    setcodes: Annotated[tuple[SetCode, ...], Field(max_length=SIZE_SETCODE)] = ()
    type: UInt32 = 0
    level: UInt32 = 0
    attribute: UInt32 = 0
    race: UInt32 = 0
    attack: Int32 = 0
    defense: Int32 = 0
    lscale: UInt32 = 0
    rscale: UInt32 = 0
    link_marker: UInt32 = 0
    rule_code: UInt32 = 0
    ot: UInt32 = 0
    category: UInt64 = 0
    name: str = ""
    desc: str = ""
    strings: Annotated[
        tuple[str, ...], Field(min_length=STRING_COUNT, max_length=STRING_COUNT)
    ] = ("",) * STRING_COUNT

    @property
    def original_code(self) -> int:
        """The printed code: the alias if there is one, else the code.

        This is the code whose script (``c<code>.lua``) the card runs; an
        alternate artwork runs its original's script.
        """
        return self.alias or self.code

    @property
    def duel_code(self) -> int:
        """The code the card counts as in the duel: the rule code if set, else :attr:`original_code`."""
        return self.rule_code or self.alias or self.code

    def is_type(self, mask: int) -> bool:
        """Whether any of the ``TYPE_*`` bits in ``mask`` is set."""
        return bool(self.type & mask)

    def is_setcode(self, value: int) -> bool:
        """Whether the card belongs to archetype ``value`` (``card_data::is_setcode``).

        An archetype code matches when its low 12 bits equal ``value``'s and it
        has every sub-archetype bit (bits 12-15) that ``value`` has.
        """
        return any(check_setcode(code, value) for code in self.setcodes)

    def string(self, index: int) -> str:
        """Hint string ``index`` (0-15), the text of ``aux.Stringid(code, index)``."""
        if not 0 <= index < STRING_COUNT:
            raise IndexError(f"card {self.code} has hint strings 0..15, not {index}")
        return self.strings[index]


def check_setcode(setcode: int, value: int) -> bool:
    """One archetype code against a queried one (``check_setcode`` in card_data.h)."""
    settype = value & 0x0FFF
    subtype = value & 0xF000
    return bool(setcode) and (setcode & 0x0FFF) == settype and (setcode & subtype) == subtype


def split_setcode(value: int) -> tuple[int, ...]:
    """The non-zero 16-bit chunks of a 64-bit setcode column, lowest first (``write_setcode``)."""
    value &= _U64
    chunks = []
    while value:
        if value & 0xFFFF:
            chunks.append(value & 0xFFFF)
        value >>= 16
    return tuple(chunks)


def is_alternative_artwork(code: int, alias: int) -> bool:
    """Whether ``alias`` marks ``code`` as an alternate artwork of the aliased card.

    True when the two differ by less than :data:`CARD_ARTWORK_VERSIONS_OFFSET`,
    except for :data:`CARD_BLACK_LUSTER_SOLDIER2`.
    """
    if code == CARD_BLACK_LUSTER_SOLDIER2:
        return False
    return bool(alias) and abs(code - alias) < CARD_ARTWORK_VERSIONS_OFFSET


def string_id(code: int, index: int) -> int:
    """The description number of a card's hint string: ``code * 16 + index`` (``aux.Stringid``)."""
    if not 0 <= index < STRING_COUNT:
        raise ValueError(f"hint string index must be 0..15, got {index}")
    return code * 16 + index


def split_string_id(desc: int) -> tuple[int, int]:
    """``(code, index)`` of a card-string description: the code is bits 4-31, the index bits 0-3."""
    return (desc >> 4) & 0x0FFFFFFF, desc & 0xF


def card_data_bytes(record: CardRecord) -> bytes:
    """The 80-byte little-endian ``card_data`` struct the reference core reads for ``record``."""
    setcodes = record.setcodes + (0,) * (SIZE_SETCODE - len(record.setcodes))
    return _CARD_DATA.pack(
        record.code, record.alias, *setcodes, record.type, record.level, record.attribute,
        record.race, record.attack, record.defense, record.lscale, record.rscale,
        record.link_marker, record.rule_code,
    )


# -- errors -----------------------------------------------------------------------


class CardDatabaseError(ValueError):
    """Base of every error about a card database."""


class CardDatabaseMissingError(CardDatabaseError):
    """The database file does not exist."""


class NotACardDatabaseError(CardDatabaseError):
    """The file is not a SQLite database."""


class CardDatabaseSchemaError(CardDatabaseError):
    """A table or column the cards.cdb schema needs is missing."""


class UnknownCardError(CardDatabaseError):
    """No row for a card code."""

    def __init__(self, code: int, source: str) -> None:
        super().__init__(f"no row for card code {code} in {source}")
        self.code = code
        self.source = source


# -- reading rows -------------------------------------------------------------------


def _as_int(column: str) -> str:
    """SQL reading a column as sqlite3_column_int64 does (NULL -> 0, text -> leading number)."""
    return f"IFNULL(CAST({column} AS INTEGER), 0)"


def _as_text(column: str) -> str:
    return f"IFNULL(CAST({column} AS TEXT), '')"


_SELECT_ROWS = (
    "SELECT "
    + ", ".join(_as_int(f"d.{c}") for c in DATAS_COLUMNS)
    + ", "
    + ", ".join(_as_text(f"t.{c}") for c in TEXTS_COLUMNS[1:])
    + " FROM datas AS d LEFT JOIN texts AS t ON t.id = d.id ORDER BY d.id"
)


def _signed32(value: int) -> int:
    value &= _U32
    return value - (1 << 32) if value & 0x80000000 else value


def _row_fields(row: tuple) -> dict[str, Any]:
    """The record fields of one row, with the row's own alias/rule_code rewrite.

    Inheriting an original's rule code needs the other row; see
    :meth:`CardDatabase._fields`.
    """
    code, ot, alias, setcode, type_, atk, def_, level, race, attribute, category = row[:11]
    code &= _U32
    alias &= _U32
    type_ &= _U32
    level &= _U32
    defense = _signed32(def_)
    link_marker = 0
    if type_ & TYPE_LINK:
        link_marker, defense = defense & _U32, 0
    rule_code = 0
    if alias and (code == CARD_BLACK_LUSTER_SOLDIER2
                  or (not type_ & TYPE_TOKEN and not is_alternative_artwork(code, alias))):
        rule_code, alias = alias, 0
    return {
        "code": code, "alias": alias, "setcodes": split_setcode(setcode), "type": type_,
        "level": level & 0xFF, "attribute": attribute & _U32, "race": race & _U32,
        "attack": _signed32(atk), "defense": defense, "lscale": (level >> 24) & 0xFF,
        "rscale": (level >> 16) & 0xFF, "link_marker": link_marker, "rule_code": rule_code,
        "ot": ot & _U32, "category": category & _U64, "name": row[11], "desc": row[12],
        "strings": tuple(row[13:29]),
    }


def _check_schema(con: sqlite3.Connection, source: str) -> None:
    for table, needed in (("datas", DATAS_COLUMNS), ("texts", TEXTS_COLUMNS)):
        present = {row[1] for row in con.execute(f"PRAGMA table_info({table})")}
        if not present:
            raise CardDatabaseSchemaError(f"{source}: table '{table}' is missing")
        missing = [c for c in needed if c not in present]
        if missing:
            raise CardDatabaseSchemaError(
                f"{source}: table '{table}' lacks column(s) {', '.join(missing)}")


def _decode_text(raw: bytes) -> str:
    """Texts are UTF-8; a bad byte becomes U+FFFD instead of failing the whole database."""
    return raw.decode("utf-8", errors="replace")


def _damage(exc: sqlite3.DatabaseError) -> str:
    """What a SQLite error says about the file: damaged (truncated) or not SQLite at all."""
    text = str(exc)
    if "malformed" in text or "disk I/O" in text:
        return "a damaged or truncated SQLite database"
    if "not a database" in text:
        return "not a SQLite database"
    return "cannot be read as a card database"


def _read_rows(path: Path) -> list[tuple]:
    """Every ``datas`` row joined with its ``texts`` row (empty texts if there is none)."""
    source = str(path)
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise NotACardDatabaseError(f"{source}: cannot open as SQLite ({exc})") from exc
    try:
        try:
            _check_schema(con, source)
            try:
                return con.execute(_SELECT_ROWS).fetchall()
            except sqlite3.OperationalError:  # a text that is not UTF-8: read again, leniently
                con.text_factory = _decode_text
                return con.execute(_SELECT_ROWS).fetchall()
        except sqlite3.DatabaseError as exc:
            raise NotACardDatabaseError(f"{source}: {_damage(exc)} ({exc})") from exc
    finally:
        con.close()


class CardDatabase:
    """All cards of one database, looked up by code.

    Opening reads every row at once (one query); a row becomes a validated
    :class:`CardRecord` the first time it is asked for, and stays cached.
    """

    __slots__ = ("_rows", "_records", "_codes", "source")

    def __init__(self, rows: dict[int, tuple], records: dict[int, CardRecord], source: str) -> None:
        self._rows = rows
        self._records = records
        self._codes = tuple(sorted(rows.keys() | records.keys()))
        self.source = source

    @classmethod
    def open(cls, path: str | PathLike[str]) -> CardDatabase:
        """Read every card of the ``cards.cdb``-schema file at ``path``."""
        path = Path(path)
        if not path.is_file():
            raise CardDatabaseMissingError(f"card database {path} does not exist")
        if path.stat().st_size == 0:
            raise NotACardDatabaseError(f"{path}: an empty file, not a card database")
        rows = {row[0] & _U32: row for row in _read_rows(path)}
        return cls(rows, {}, str(path))

    @classmethod
    def from_records(cls, records: Iterable[CardRecord], source: str = "<memory>") -> CardDatabase:
        """A database of the given records (a later record replaces an earlier one with its code)."""
        return cls({}, {r.code: r for r in records}, source)

    def get(self, code: int) -> CardRecord:
        """The record of ``code``; :class:`UnknownCardError` if there is none."""
        record = self._records.get(code)
        if record is None:
            row = self._rows.get(code)
            if row is None:
                raise UnknownCardError(code, self.source)
            record = self._records[code] = CardRecord(**self._fields(row))
        return record

    def find(self, code: int) -> CardRecord | None:
        """The record of ``code``, or None."""
        return self.get(code) if code in self else None

    def _fields(self, row: tuple) -> dict[str, Any]:
        """A row's fields; an alternate artwork (alias kept, not a Token) takes its original's rule code."""
        fields = _row_fields(row)
        if fields["alias"] and not fields["rule_code"] and not fields["type"] & TYPE_TOKEN:
            original = self._rows.get(fields["alias"])
            if original is not None:
                fields["rule_code"] = _row_fields(original)["rule_code"]
        return fields

    def card_data(self, code: int) -> bytes:
        """The 80-byte ``card_data`` of ``code`` (:class:`UnknownCardError` if none)."""
        return card_data_bytes(self.get(code))

    def hint_string(self, desc: int) -> str | None:
        """The text of card-string description ``desc`` (``aux.Stringid(code, n)``).

        None for a system string (``desc`` below 2048), which lives in the
        client's strings.conf, not in the database.
        """
        if desc < SYSTEM_STRING_LIMIT:
            return None
        code, index = split_string_id(desc)
        return self.get(code).strings[index]

    def codes(self) -> tuple[int, ...]:
        """Every code, ascending."""
        return self._codes

    def __contains__(self, code: object) -> bool:
        return code in self._records or code in self._rows

    def __iter__(self) -> Iterator[CardRecord]:
        """Records in ascending code order."""
        return map(self.get, self._codes)

    def __len__(self) -> int:
        return len(self._codes)

    def __repr__(self) -> str:
        return f"<CardDatabase {self.source}: {len(self)} cards>"
