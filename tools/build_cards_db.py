"""Build cards.db (the bundled card database) from cards/*.toml.

Each TOML file of cards/ lists our own cards as ``[[card]]`` tables (one file
per family of cards: cards.toml for the demo decks, others for the cards the
tests and guides use).  Fields:

    code          int, required; our own codes are 190000001..190099999
    name, desc    str (name required)
    type          required: an int, a name ("MONSTER" means TYPE_MONSTER) or a list of them
    attribute     int, name or list (ATTRIBUTE_*)
    race          int, name or list (RACE_*)
    level         int: level, rank, or link rating of a Link monster
    atk, def      int (-2 for "?"); a Link monster has no def
    lscale        int, rscale int: Pendulum scales
    link_marker   int, name or list (LINK_MARKER_*): a Link monster's arrows
    setcodes      list of 16-bit archetype codes (at most 4)
    category      int, name or list (CATEGORY_*)
    strings       list of up to 16 hint strings (aux.Stringid(code, 0..15))
    alias         int: the card this one is an alternate artwork of
    ot            int: availability flags (default 4, the client's "custom")

Rows are written in the cards.cdb layout the YGOPro client reads (see
duelhost.engine.carddb): level | rscale << 16 | lscale << 24 in ``level``, link
markers in ``def``, archetype codes packed lowest-first in ``setcode``.  Output
is deterministic: a fresh file, rows in code order.

    python tools/build_cards_db.py            # write cards.db
    python tools/build_cards_db.py --check    # exit 1 if cards.db differs from cards.toml
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tomllib
from pathlib import Path
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from duelhost.engine import constants
from duelhost.engine.carddb import CDB_SCHEMA

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "cards"
TARGET = REPO / "cards.db"

OWN_CODES = range(190000001, 190100000)
"""Codes reserved for our own cards."""

DEFAULT_OT = 0x4
"""Availability flags of our cards: 0x4 is what the YGOPro client calls "custom"."""

Flags = Union[int, str, list[Union[int, str]]]


class CardsTomlError(ValueError):
    """cards.toml has a card that cannot be built, named in the message."""


def resolve_flags(value: Flags, prefix: str) -> int:
    """An int, or the OR of ints and constant names.

    A name may leave out ``prefix``: with prefix ``ATTRIBUTE_``, ``"FIRE"`` means ATTRIBUTE_FIRE.
    """
    items = value if isinstance(value, list) else [value]
    result = 0
    for item in items:
        if isinstance(item, int):
            result |= item
            continue
        name = item.upper()
        name = name if name.startswith(prefix) else prefix + name
        number = getattr(constants, name, None)
        if type(number) is not int:
            raise ValueError(f"unknown name {item!r} ({name} is not a constant)")
        result |= number
    return result


class CardEntry(BaseModel):
    """One ``[[card]]`` table of cards.toml, with names resolved to numbers."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    code: int = Field(ge=1, le=0xFFFFFFFF)
    name: str = Field(min_length=1)
    desc: str = ""
    type: int = Field(ge=1, le=0xFFFFFFFF)
    attribute: int = Field(0, ge=0, le=0xFFFFFFFF)
    race: int = Field(0, ge=0, le=0xFFFFFFFF)
    level: int = Field(0, ge=0, le=0xFF)
    atk: int = Field(0, ge=-2, le=0x7FFFFFFF)
    defense: int | None = Field(None, alias="def", ge=-2, le=0x7FFFFFFF)
    lscale: int = Field(0, ge=0, le=0xFF)
    rscale: int = Field(0, ge=0, le=0xFF)
    link_marker: int = Field(0, ge=0, le=0x1FF)
    setcodes: list[int] = Field(default_factory=list, max_length=4)
    category: int = Field(0, ge=0, le=0xFFFFFFFFFFFFFFFF)
    strings: list[str] = Field(default_factory=list, max_length=16)
    alias: int = Field(0, ge=0, le=0xFFFFFFFF)
    ot: int = Field(DEFAULT_OT, ge=0, le=0xFFFFFFFF)

    @field_validator("type", "attribute", "race", "link_marker", "category", mode="before")
    @classmethod
    def _names(cls, value: Any, info: Any) -> Any:
        prefix = {"type": "TYPE_", "attribute": "ATTRIBUTE_", "race": "RACE_",
                  "link_marker": "LINK_MARKER_", "category": "CATEGORY_"}[info.field_name]
        return resolve_flags(value, prefix) if isinstance(value, (str, list)) else value

    @field_validator("setcodes")
    @classmethod
    def _archetypes(cls, value: list[int]) -> list[int]:
        if any(not 0 < code <= 0xFFFF for code in value):
            raise ValueError("archetype codes are 1..0xffff")
        return value

    @model_validator(mode="after")
    def _shape(self) -> CardEntry:
        is_link = bool(self.type & constants.TYPE_LINK)
        if is_link and self.defense is not None:
            raise ValueError("a Link monster has no def (its arrows go in link_marker)")
        if self.link_marker and not is_link:
            raise ValueError("link_marker is only for Link monsters")
        if (self.lscale or self.rscale) and not self.type & constants.TYPE_PENDULUM:
            raise ValueError("lscale/rscale are only for Pendulum monsters")
        return self

    def datas_row(self) -> tuple[int, ...]:
        """The row of table ``datas``."""
        setcode = 0
        for shift, code in enumerate(self.setcodes):
            setcode |= code << (16 * shift)
        def_column = self.link_marker if self.type & constants.TYPE_LINK else (self.defense or 0)
        level_column = self.level | self.rscale << 16 | self.lscale << 24
        return (self.code, self.ot, self.alias, setcode, self.type, self.atk, def_column,
                level_column, self.race, self.attribute, self.category)

    def texts_row(self) -> tuple[int | str, ...]:
        """The row of table ``texts``: id, name, desc and 16 strings (empty when unused)."""
        return (self.code, self.name, self.desc, *self.strings, *[""] * (16 - len(self.strings)))


def _describe(index: int, raw: dict[str, Any]) -> str:
    return f"card #{index + 1} (code {raw.get('code', '?')}, {raw.get('name', '?')!r})"


def _toml_files(path: Path) -> list[Path]:
    return sorted(path.glob("*.toml")) if path.is_dir() else [path]


def load_entries(path: Path = SOURCE) -> list[CardEntry]:
    """Every card of the TOML file(s), validated, in code order; CardsTomlError names a bad card.

    ``path`` is a TOML file or a folder of them (all ``*.toml``, in name order).
    """
    entries, seen = [], {}
    for file in _toml_files(path):
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CardsTomlError(f"{file}: not valid TOML: {exc}") from exc
        for index, raw in enumerate(data.get("card", [])):
            try:
                entry = CardEntry.model_validate(raw)
            except ValidationError as exc:
                problems = "; ".join(
                    f"{'.'.join(map(str, e['loc'])) or 'card'}: {e['msg']}" for e in exc.errors())
                raise CardsTomlError(f"{file}: {_describe(index, raw)}: {problems}") from None
            if entry.code not in OWN_CODES:
                raise CardsTomlError(f"{file}: {_describe(index, raw)}: code outside our range "
                                     f"{OWN_CODES.start}..{OWN_CODES.stop - 1}")
            if entry.code in seen:
                raise CardsTomlError(
                    f"{file}: {_describe(index, raw)}: code already used in {seen[entry.code]}")
            seen[entry.code] = f"{file.name} card #{index + 1}"
            entries.append(entry)
    return sorted(entries, key=lambda e: e.code)


def build_rows(path: Path = SOURCE) -> tuple[list[tuple], list[tuple]]:
    """``(datas rows, texts rows)`` of cards.toml, in code order."""
    entries = load_entries(path)
    return [e.datas_row() for e in entries], [e.texts_row() for e in entries]


def read_rows(db_path: Path) -> tuple[list[tuple], list[tuple]]:
    """``(datas rows, texts rows)`` of an existing database, in code order."""
    con = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return (con.execute("SELECT * FROM datas ORDER BY id").fetchall(),
                con.execute("SELECT * FROM texts ORDER BY id").fetchall())
    finally:
        con.close()


def write_db(datas: list[tuple], texts: list[tuple], target: Path) -> None:
    """Write a fresh cards.cdb-schema file at ``target`` (replacing any old one)."""
    partial = target.with_name(target.name + ".tmp")
    partial.unlink(missing_ok=True)
    con = sqlite3.connect(partial)
    try:
        con.executescript(CDB_SCHEMA)
        con.executemany(f"INSERT INTO datas VALUES ({','.join('?' * 11)})", datas)
        con.executemany(f"INSERT INTO texts VALUES ({','.join('?' * 19)})", texts)
        con.commit()
    finally:
        con.close()
    partial.replace(target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="a cards TOML file or a folder of them (default: cards/)")
    parser.add_argument("--output", type=Path, default=TARGET, help="database to write (default: cards.db)")
    parser.add_argument("--check", action="store_true", help="only check that the database is up to date")
    args = parser.parse_args(argv)
    try:
        datas, texts = build_rows(args.source)
    except CardsTomlError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if not args.output.is_file() or read_rows(args.output) != (datas, texts):
            print(f"{args.output} is out of date; run: python tools/build_cards_db.py", file=sys.stderr)
            return 1
        return 0
    write_db(datas, texts, args.output)
    print(f"wrote {args.output}: {len(datas)} cards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
