"""YGOPro ``.ydk`` deck lists.

A ``.ydk`` file is plain text, one item per line:

* ``#main`` and ``#extra`` start the Main and Extra Deck sections, ``!side``
  the Side Deck section;
* any other line starting with ``#`` is a comment (``#created by ...``);
* blank lines are ignored;
* every other line is one card code (a positive decimal integer), listed once
  per copy, in deck order.

Lines may end in CRLF and the file may start with a UTF-8 byte-order mark.
Anything else (a code before the first section, a word, a code that does not
fit in 32 bits) is an error naming the file and the line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

__all__ = ["Deck", "YdkError", "parse_ydk", "read_ydk"]

_SECTIONS = {"#main": "main", "#extra": "extra", "!side": "side"}
_MAX_CODE = 0xFFFFFFFF


class YdkError(ValueError):
    """A .ydk file that cannot be read, or a line of it that is not valid."""

    def __init__(self, source: str, reason: str, line_number: int | None = None, line: str = "") -> None:
        where = source if line_number is None else f"{source}, line {line_number}"
        super().__init__(f"{where}: {reason}" + (f": {line!r}" if line else ""))
        self.source = source
        self.line_number = line_number
        self.line = line


@dataclass(frozen=True, slots=True, kw_only=True)
class Deck:
    """The card codes of a deck list, in file order, per section."""

    main: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    side: tuple[int, ...] = ()

    def codes(self) -> Iterator[int]:
        """Every code of the three sections, Main first."""
        yield from self.main
        yield from self.extra
        yield from self.side

    def to_ydk(self, created_by: str = "duelhost") -> str:
        """The deck as .ydk text (LF line ends)."""
        lines = [f"#created by {created_by}", "#main", *map(str, self.main),
                 "#extra", *map(str, self.extra), "!side", *map(str, self.side)]
        return "\n".join(lines) + "\n"


def _parse_code(text: str, source: str, number: int, line: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise YdkError(source, "expected a card code, #main, #extra, !side or a # comment", number, line)
    code = int(text)
    if not 0 < code <= _MAX_CODE:
        raise YdkError(source, "card code out of range 1..4294967295", number, line)
    return code


def parse_ydk(text: str, source: str = "<string>") -> Deck:
    """The deck written in ``text``; ``source`` names it in error messages."""
    sections: dict[str, list[int]] = {"main": [], "extra": [], "side": []}
    current: list[int] | None = None
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        item = line.strip()
        if not item:
            continue
        name = _SECTIONS.get(item.lower())
        if name is not None:
            current = sections[name]
        elif item.startswith("#"):
            continue
        else:
            code = _parse_code(item, source, number, line)
            if current is None:
                raise YdkError(source, "card code before #main, #extra or !side", number, line)
            current.append(code)
    return Deck(main=tuple(sections["main"]), extra=tuple(sections["extra"]), side=tuple(sections["side"]))


def read_ydk(path: str | PathLike[str]) -> Deck:
    """The deck in the .ydk file at ``path`` (UTF-8)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise YdkError(str(path), "deck file does not exist") from None
    except UnicodeDecodeError as exc:
        line_number = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise YdkError(str(path), "not UTF-8 text", line_number) from None
    return parse_ydk(text, str(path))
