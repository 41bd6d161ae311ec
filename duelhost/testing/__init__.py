"""The script author's toolkit: test a card script in a few lines of pytest.

    from duelhost.testing import choose, yes

    def test_sower_summons_a_token(duel):           # the pytest plugin's fixture
        sower = duel.add("Seedling Sower", to="hand")
        duel.start()
        duel.summon(sower, answers=[yes()])
        duel.expect_summoned("Seedling Token", position="defense", token=True)

Modules: scenario (the builder and actions, load_puzzle), cardref (a card of a
scenario), answers (scripted answers),
expect (expectations), questions (prompts in words), board/words (printing),
puzzle (bug-report dumps), errors (failures), plugin (the pytest plugin,
registered through the ``pytest11`` entry point).  See docs/testing.md.
"""

from __future__ import annotations

from .answers import (Answer, Answers, activate, any_legal, as_answer, attribute, cancel, choose, counters,
                      declare, finish, first, keep_order, no, nth, number, option, order, pass_, position, race,
                      rps, when, yes, zone)
from .errors import (AnswerMismatch, ExpectationFailed, LuaEvalError, LuaScriptError, ScenarioError,
                     UnansweredPrompt, format_script_error)
from .puzzle import board_signature, dump_puzzle
from .questions import PromptView
from .scenario import CardRef, Scenario, UnusedAnswers, WrongMoment, load_puzzle
from .words import stringid

__all__ = [
    "Answer", "Answers", "AnswerMismatch", "CardRef", "ExpectationFailed", "LuaEvalError", "LuaScriptError",
    "PromptView", "Scenario", "ScenarioError", "UnansweredPrompt", "UnusedAnswers", "WrongMoment",
    "activate", "any_legal", "as_answer", "attribute", "board_signature", "cancel", "choose", "counters",
    "declare", "dump_puzzle", "finish", "first", "format_script_error", "keep_order", "load_puzzle", "no", "nth",
    "number", "option", "order", "pass_", "position", "race", "rps", "stringid", "when", "yes", "zone",
]
