"""Answers: a bad answer is InvalidResponse with the reason and changes nothing
(docs/security.md, "Answers"); a fuzz run over the bundled decks (tools/fuzz_responses.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from duelhost import Duel, RandomPlayer
from duelhost.engine.messages import MsgSelectIdleCmd, MsgSelectPlace
from duelhost.engine.responses import InvalidResponse, PlaceResponse, Zone
from duelhost.engine.ydk import read_ydk

REPO = Path(__file__).resolve().parent.parent


def _load_fuzz_tool():
    name = "fuzz_responses"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / "fuzz_responses.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _duel(seed: int = 7) -> Duel:
    a, b = read_ydk(REPO / "cards" / "demo_a.ydk"), read_ydk(REPO / "cards" / "demo_b.ydk")
    duel = Duel(seed=seed)
    duel.add_deck(0, a.main, a.extra, shuffle=True)
    duel.add_deck(1, b.main, b.extra, shuffle=True)
    duel.start()
    return duel


def _until(duel: Duel, kind: type) -> object:
    player = RandomPlayer(1)
    for _ in range(2000):
        request = duel.advance()
        assert request is not None, "the duel ended first"
        if isinstance(request, kind):
            return request
        duel.respond(player(duel, request))
    raise AssertionError(f"no {kind.__name__} prompt")


def _refused(duel: Duel, answer: object, reason: str) -> None:
    """``answer`` is refused with ``reason`` and the duel is exactly as it was."""
    request = duel.advance()
    before = (len(duel.messages), duel.responses, duel.state())
    with pytest.raises(InvalidResponse, match=reason) as info:
        duel.respond(answer)  # type: ignore[arg-type]
    assert info.value.reason.startswith(type(request).NAME + ": ")
    assert duel.advance() is request
    assert (len(duel.messages), duel.responses, duel.state()) == before


def test_an_int_wider_than_32_bits_is_refused_not_masked() -> None:
    duel = _duel()
    assert isinstance(duel.advance(), MsgSelectIdleCmd)
    _refused(duel, 2**32 + 7, r"must fit in 32 bits .* got 4294967303")     # was End Phase
    _refused(duel, -(2**31) - 1, "must fit in 32 bits")
    _refused(duel, 2**64, "must fit in 32 bits")


def test_an_empty_answer_is_refused() -> None:
    duel = _duel()
    _refused(duel, b"", "an empty answer")                                   # was option 0
    _refused(duel, bytearray(), "an empty answer")


def test_a_place_answer_that_is_not_a_zone_is_refused() -> None:
    duel = _duel()
    _until(duel, MsgSelectPlace)
    _refused(duel, PlaceResponse(zones=(99,)), r"zone 0 must be a Zone")    # was AttributeError
    _refused(duel, PlaceResponse(zones=(Zone(player=0, location=4, sequence=300),)), "fit in a byte")


def test_a_typed_field_too_wide_for_its_bytes_is_refused() -> None:
    from duelhost.engine.responses import IdleCmdResponse
    duel = _duel()
    assert isinstance(duel.advance(), MsgSelectIdleCmd)
    _refused(duel, IdleCmdResponse(command=0x10007, index=0), "must fit in 16 bits")  # End Phase
    _refused(duel, IdleCmdResponse(command=0, index=1 << 16), "must fit in 16 bits")


def test_fuzz_only_invalid_response_and_no_change_on_refusal() -> None:
    """A few thousand random answers over the bundled decks (about 3 s)."""
    fuzz = _load_fuzz_tool()
    stats = fuzz.run_fuzz(3000, seed=11, per_duel=300)
    assert stats.error_count == 0, "\n".join(stats.errors)
    assert stats.steps == 3000 and stats.duels >= 5
    assert stats.refused > 1000 and stats.legal > 300 and stats.accepted > 0


def test_the_fuzz_tool_reports_its_figures(capsys) -> None:
    fuzz = _load_fuzz_tool()
    assert fuzz.main(["--steps", "200", "--seed", "3", "--quiet", "--decks", "", "--db", "",
                      "--scripts", ""]) == 0
    out = capsys.readouterr().out
    assert out.startswith("steps 200, refusals ") and "errors 0" in out and "steps/s" in out
