"""duelhost.driver: the one object that steps an engine duel, for every tool.

host.Duel and the tools that send recorded answers (golden replays, ``duelhost
replay``, the live / replay / puzzle diffs, the HTML pages) all step the engine
through a Driver; these tests pin what the Driver says about a step (its messages,
their bytes, a refused answer, the end) and that nothing else in duelhost steps the
engine itself.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

from duelhost import Duel, paths
from duelhost.driver import Driver, DuelSetup
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.duel import card_reader_from_db
from duelhost.engine.messages import MsgDraw, MsgRetry, MsgShowHint, encode_messages
from duelhost.bindings.host import LuaScriptHost
from duelhost.engine.responses import encode_response, random_response
from duelhost.engine.ydk import read_ydk
from duelhost.puzzle import DRAW_COUNT, START_HAND, START_LP, run_lua_file

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "duelhost"
RULES_A = read_ydk(REPO / "cards" / "rules_a.ydk")
RULES_B = read_ydk(REPO / "cards" / "rules_b.ydk")

# modules that may create the engine's Duel class itself, with the reason (every other one
# drives duels through duelhost.driver.Driver or host.Duel)
ENGINE_DUEL_ALLOWED = {
    "driver.py": "the driver: it owns and steps the engine duel",
    "check/loader.py": "duelhost check only creates cards in a duel to load their scripts; it never steps one",
}


def _played_host_duel(seed: int, answers: int) -> Duel:
    duel = Duel(seed=seed)
    duel.add_deck(0, RULES_A.main, RULES_A.extra, shuffle=True)
    duel.add_deck(1, RULES_B.main, RULES_B.extra, shuffle=True)
    duel.start()
    rng = random.Random(seed)
    pool = list(duel.db)
    for _ in range(answers):
        req = duel.advance()
        if req is None:
            break
        duel.respond(random_response(req, rng, card_pool=pool))
    return duel


def test_only_the_driver_creates_engine_duels() -> None:
    """No module of duelhost but the documented ones imports the engine's Duel (to step it
    behind the driver's back): the tools go through duelhost.driver or host.Duel."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.ImportFrom) and (node.module or "").endswith("engine.duel")
                    and any(a.name == "Duel" for a in node.names)):
                found.append(rel)
    assert sorted(set(found)) == sorted(ENGINE_DUEL_ALLOWED), found


def test_the_steps_of_a_set_up_duel_give_the_host_duels_bytes_step_by_step() -> None:
    """The same set-up and answers through Driver.from_setup give the host's message bytes;
    each step's messages follow on from the previous step's (none lost, none twice)."""
    duel = _played_host_duel(5, 150)
    setup = DuelSetup(seed_sequence=list(duel.seed_sequence), cards=list(duel._new_cards))
    driver = Driver.from_setup(card_reader_from_db(duel.db), setup, LuaScriptHost(paths.bundled_scripts()))
    driver.start(setup.options)
    pieces = []
    prompt = driver.step(None)
    pieces.append(driver.new_bytes())
    assert isinstance(driver.new_messages()[0], MsgDraw) and prompt is driver.prompt is not None
    for raw in duel.driver.answers:
        driver.step(raw)
        assert driver.new_bytes() == encode_messages(driver.new_messages())
        pieces.append(driver.new_bytes())
    assert b"".join(pieces) == duel.message_bytes()
    assert driver.answers == duel.driver.answers and driver.steps == len(duel.driver.answers) + 1
    assert driver.seconds > 0
    duel.close()


def test_a_refused_answer_is_a_retry_and_the_duel_asks_again() -> None:
    duel = _played_host_duel(3, 0)
    req = duel.advance()
    assert req is not None and not duel.driver.retried()
    again = duel.respond_raw(b"\xff\xff\xff\x7f")
    assert duel.driver.retried() and any(isinstance(m, MsgRetry) for m in duel.driver.new_messages())
    assert type(again) is type(req) and again.player == req.player
    duel.respond(random_response(again, random.Random(1)))
    assert not duel.driver.retried()
    duel.close()


def test_the_driver_knows_when_the_duel_has_ended() -> None:
    duel = _played_host_duel(2, 5000)
    assert duel.finished and duel.driver.ended and duel.driver.prompt is None
    assert duel.win() is not None and duel.driver.new_messages()[-1] is duel.win()
    duel.close()


def test_what_the_set_up_wrote_comes_with_the_first_step() -> None:
    """A puzzle's Debug.ShowHint runs before the start: its message is part of the first
    step's, as the reference's first get_message returns it."""
    script = LuaScriptHost(paths.bundled_scripts())
    setup = DuelSetup(seed_sequence=[1] * 8, cards=[], players=[(START_LP, START_HAND, DRAW_COUNT)] * 2,
                      options=0)
    driver = Driver.from_setup(card_reader_from_db(CardDatabase.open(paths.bundled_db())), setup, script)
    run_lua_file(script, REPO / "samples" / "two_blows.lua")
    written = len(driver.messages)
    assert written >= 1 and any(isinstance(m, MsgShowHint) for m in driver.messages)
    driver.start(setup.options)
    driver.step(None)
    first = driver.new_messages()
    assert driver.mark == 0 and first[:written] == driver.messages[:written]
    prompt = driver.prompt
    assert prompt is not None
    driver.step(encode_response(prompt, random_response(prompt, random.Random(0))))
    assert driver.mark == len(first)
    script.close()
