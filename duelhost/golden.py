"""Golden duel transcripts recorded from the reference core.

Each ``*.jsonl.gz`` file holds one JSON object per duel: every input the
reference core got (seed, players, cards, responses) and every byte it wrote,
cut into *steps* (the stretch between two responses). This module loads them
into pydantic models; hex strings become ``bytes``. ``split_step`` splits a
step's bytes into typed messages (``duelhost.engine.messages``).

The schema is described in the golden set's own README.md.
"""

from __future__ import annotations

import gzip
import hashlib
import struct
import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from .engine.card_data import CardData
from .engine.messages import Message, Prompt, decode_messages
from .engine.responses import RESPONSE_SIZE

__all__ = [
    "GOLDEN_DIR_ENV",
    "GoldenError",
    "PlayerSetup",
    "NewCard",
    "ScriptsRead",
    "Caps",
    "Step",
    "Result",
    "StepDependence",
    "AddressDependence",
    "DuelRecord",
    "default_golden_dir",
    "golden_files",
    "load_records",
    "split_step",
    "step_prompt",
    "stream_sha256",
]

GOLDEN_DIR_ENV = "DUELHOST_GOLDEN"
"""Environment variable naming the folder with the golden ``*.jsonl.gz`` files."""

_REPO = Path(__file__).resolve().parent.parent
# the project's shared folder next to the checkout (both sets), then the set A copy in tests/
_DEFAULT_DIRS = (_REPO.parent / "shared" / "golden", _REPO / "tests" / "data" / "golden")


class GoldenError(ValueError):
    """A golden file that cannot be read or does not match the schema."""


def _hex(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return bytes.fromhex(value)
        except ValueError:
            raise ValueError(f"not a hex string: {value[:40]!r}") from None
    return value


HexBytes = Annotated[bytes, BeforeValidator(_hex)]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class PlayerSetup(BaseModel):
    """``set_player_info`` arguments of one player."""

    model_config = _FROZEN
    lp: int
    start_hand: int
    draw: int


class NewCard(BaseModel):
    """One ``new_card`` call: ``[code, owner, player, location, sequence, position]``."""

    model_config = _FROZEN
    code: int
    owner: int
    player: int
    location: int
    sequence: int
    position: int

    @classmethod
    def _from_list(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            if len(value) != 6:
                raise ValueError(f"a card entry has 6 numbers, got {len(value)}")
            keys = ("code", "owner", "player", "location", "sequence", "position")
            return dict(zip(keys, value))
        return value


NewCardEntry = Annotated[NewCard, BeforeValidator(NewCard._from_list)]


class ScriptsRead(BaseModel):
    """Script names the core asked for, by phase: create, setup, duel."""

    model_config = _FROZEN
    create: list[str]
    setup: list[str]
    duel: list[str]


class Caps(BaseModel):
    model_config = _FROZEN
    turns: int
    responses: int


class Step(BaseModel):
    """The bytes the core wrote between two responses, and the next response.

    ``kind`` "i": ``response`` is the int32 given to ``set_responsei`` (4 bytes,
    little-endian); "b": the bytes given to ``set_responseb`` (zero-padded to
    256 by the host). The last step has no response."""

    model_config = _FROZEN
    messages: HexBytes
    response: HexBytes | None
    kind: Literal["i", "b"] | None
    process: list[int]

    @property
    def response_area(self) -> bytes | None:
        """The response as the core's 256-byte area holds it (zero-padded)."""
        if self.response is None:
            return None
        return self.response + bytes(RESPONSE_SIZE - len(self.response))


class Result(BaseModel):
    model_config = _FROZEN
    end: Literal["win", "cap_turns", "cap_responses"]
    winner: int | None
    reason: int | None
    turns: int
    responses: int
    messages: int
    bytes: int
    sha256: str


class StepDependence(BaseModel):
    """How a step's bytes changed when the reference's heap layout changed."""

    model_config = _FROZEN
    order_only: bool
    parted: bool
    messages: list[str]


class AddressDependence(BaseModel):
    model_config = _FROZEN
    replays: int
    steps: dict[int, StepDependence]


class DuelRecord(BaseModel):
    """One recorded duel (one line of a golden file)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    set_name: Literal["vanilla", "real"] = Field(alias="set")
    id: str
    seed: int
    core: str
    scripts: str | None
    decks: list[str] | None
    seed_sequence: list[int] = Field(min_length=8, max_length=8)
    options: int
    players: list[PlayerSetup] = Field(min_length=2, max_length=2)
    cards: list[NewCardEntry]
    card_data: dict[int, HexBytes]
    cards_missing_from_db: list[int]
    scripts_read: ScriptsRead
    scripts_missing: list[str]
    script_errors: list[str]
    caps: Caps
    steps: list[Step]
    result: Result
    address_dependent_steps: list[int]
    address_dependence: AddressDependence

    @field_validator("card_data")
    @classmethod
    def _card_data_size(cls, value: dict[int, bytes]) -> dict[int, bytes]:
        for code, data in value.items():
            if len(data) != 80:
                raise ValueError(f"card_data for {code}: {len(data)} bytes, expected 80")
        return value

    @property
    def stream(self) -> bytes:
        """All steps' message bytes concatenated (what ``result.sha256`` covers)."""
        return b"".join(s.messages for s in self.steps)


def stream_sha256(record: DuelRecord) -> str:
    return hashlib.sha256(record.stream).hexdigest()


def default_golden_dir() -> Path:
    """``$DUELHOST_GOLDEN`` if set, else ../shared/golden next to the checkout, else the
    Normal-Monster set kept in tests/data/golden."""
    env = os.environ.get(GOLDEN_DIR_ENV)
    if env:
        return Path(env)
    for d in _DEFAULT_DIRS:
        if d.is_dir():
            return d
    raise GoldenError(f"no golden folder: set {GOLDEN_DIR_ENV} to the folder with the *.jsonl.gz files")


def golden_files(folder: str | os.PathLike[str] | None = None) -> list[Path]:
    """The ``*.jsonl.gz`` files of a golden folder, sorted by name."""
    d = Path(folder) if folder is not None else default_golden_dir()
    return sorted(d.glob("*.jsonl.gz"))


def _validation_text(exc: ValidationError) -> str:
    """A pydantic ValidationError in one line: how many fields are wrong, and the first."""
    errors = exc.errors()
    first = errors[0] if errors else {"loc": (), "msg": str(exc)}
    where = ".".join(str(part) for part in first.get("loc", ())) or "the record"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"not a duel record: {where}: {first.get('msg', '')}{more}"


def load_records(path: str | os.PathLike[str]) -> Iterator[DuelRecord]:
    """Yield the duels of one golden ``.jsonl.gz`` (or plain ``.jsonl``) file.

    Whatever is wrong with the file (not gzip, truncated, not UTF-8, bad JSON, a
    record with missing or wrong fields) is a GoldenError of one line naming the
    file and the line."""
    p = Path(path)
    opener = gzip.open if p.suffix == ".gz" else open
    try:
        fh = opener(p, "rt", encoding="utf-8")
    except OSError as exc:
        raise GoldenError(f"{p}: cannot open: {exc}") from None
    lineno = 0
    with fh:
        while True:
            try:
                line = fh.readline()
            except EOFError:
                raise GoldenError(f"{p}: truncated after line {lineno} (the gzip stream ends early)") from None
            except (OSError, zlib.error) as exc:
                raise GoldenError(f"{p}: not a gzip file ({exc})" if lineno == 0
                                  else f"{p}: damaged after line {lineno} ({exc})") from None
            except UnicodeDecodeError as exc:
                raise GoldenError(f"{p}:{lineno + 1}: not UTF-8 text ({exc.reason})") from None
            if not line:
                return
            lineno += 1
            if not line.strip():
                continue
            try:
                yield DuelRecord.model_validate(json.loads(line))
            except ValidationError as exc:
                raise GoldenError(f"{p}:{lineno}: {_validation_text(exc)}") from None
            except (ValueError, TypeError) as exc:
                raise GoldenError(f"{p}:{lineno}: bad JSON: {exc}") from None


def split_step(step: Step) -> list[Message]:
    """The step's bytes as typed messages (raises MessageDecodeError on bad bytes)."""
    return decode_messages(step.messages)


def step_prompt(messages: list[Message]) -> Prompt | None:
    """The prompt a step ends at (its last message), or None."""
    if messages and isinstance(messages[-1], Prompt):
        return messages[-1]
    return None


_CARD_DATA = struct.Struct("<II16HIIIIiiIIII")


def card_data_from_bytes(raw: bytes) -> CardData:
    """The reference's 80-byte card_data struct as the engine's CardData."""
    v = _CARD_DATA.unpack(raw)
    setcodes = tuple(x for x in v[2:18] if x)
    (type_, level, attribute, race, attack, defense, lscale, rscale, link_marker,
     rule_code) = v[18:28]
    return CardData(code=v[0], alias=v[1], setcode=setcodes, type=type_, level=level,
                    attribute=attribute, race=race, attack=attack, defense=defense,
                    lscale=lscale, rscale=rscale, link_marker=link_marker, rule_code=rule_code)


def record_card_reader(record: DuelRecord):
    """A card reader serving exactly the card data the reference got in this recording."""
    table = {code: card_data_from_bytes(raw) for code, raw in record.card_data.items()}
    return table.get
