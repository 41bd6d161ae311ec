"""Expectations that read like the rules, with failure messages that show the board.

    duel.expect(jar).in_spell_zone().face_up().has_counters(LUMEN, 2)
    duel.expect(golem).in_gy()
    duel.expect_lp(1, 7200)
    duel.expect_destroyed(golem, by="effect")
    duel.expect_chain(links=2)
    duel.expect_summoned("Seedling Token", position="defense", token=True)

A card expectation checks the card's state now.  The event expectations
(``expect_destroyed``, ``expect_summoned``, ``expect_chain``, ``expect_activated``,
``expect_damage``, ``expect_moved``) read the duel's message log: by default
everything since ``start()`` (``since="action"``: only since the last action
began; or a message index).  Every failure raises ``ExpectationFailed``
(an AssertionError) saying what was expected, what is true instead, what
happened lately, and the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from duelhost.engine import constants as C
from duelhost.engine.messages import (MsgChainEnd, MsgChaining, MsgDamage, MsgFlipSummoning, MsgMove,
                                      MsgPayLpCost, MsgSpSummoning, MsgSummoning)

from . import words
from .answers import spec_label
from .cardref import CardRef, in_location, matches
from .errors import ExpectationFailed, LuaScriptError
from .questions import kind_of

if TYPE_CHECKING:
    from .scenario import Scenario

__all__ = ["CardExpectation", "expect_lp", "expect_phase", "expect_destroyed", "expect_moved",
           "expect_summoned", "expect_chain", "expect_activated", "expect_damage", "expect_won",
           "expect_prompt", "expect_no_script_errors"]


def _fail(scenario: "Scenario", text: str) -> None:
    __tracebackhide__ = True
    page = scenario.write_html_page(text)
    raise ExpectationFailed(f"{text}\n\n{scenario.recent_log()}\n\n{scenario.board()}"
                            + (f"\n\nThe duel step by step (HTML): {page}" if page is not None else ""))


class CardExpectation:
    """Checks about one card; each returns the expectation, so checks chain."""

    def __init__(self, scenario: "Scenario", card: "CardRef") -> None:
        self.scenario = scenario
        self.card = card

    def _now(self) -> str:
        return self.card.show()

    def _check(self, ok: bool, expected: str, actual: str | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        if not ok:
            label = words.card_label(self.scenario, self.card.engine)
            _fail(self.scenario, f"Expected {label} {expected},\nbut it is: {actual or self._now()}")
        return self

    # ----- where ---------------------------------------------------------------------------------

    def is_in(self, where: str | int, *, player: int | None = None, column: int | None = None) -> "CardExpectation":
        """In this location ("hand", "gy", "monster", "field zone", ...), of this player, in this column."""
        __tracebackhide__ = True
        loc = words.location_code(where)
        ok = in_location(self.card, loc)
        if ok and player is not None:
            ok = self.card.controller == player
        if ok and column is not None:
            ok = self.card.sequence == column
        what = f"to be in {where}" + (f" of player {player}" if player is not None else "") + (
            f" #{column}" if column is not None else "")
        return self._check(ok, what)

    def in_hand(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("hand", player=player)

    def in_deck(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("deck", player=player)

    def on_top_of_deck(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        c = self.card
        pl = self.scenario.engine.player[c.controller]
        return self._check(c.location == C.LOCATION_DECK and bool(pl.list_main) and pl.list_main[-1] is c.engine
                           and (player is None or c.controller == player), "to be the top card of the Deck")

    def in_gy(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("gy", player=player)

    def banished(self, *, face_down: bool | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        self.is_in("banished")
        if face_down is not None:
            side = "face-down" if face_down else "face-up"
            self._check(self.card.is_face_down == face_down, f"to be banished {side}")
        return self

    def in_extra_deck(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("extra", player=player)

    def in_monster_zone(self, column: int | None = None, *, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("monster", player=player, column=column)

    def in_spell_zone(self, column: int | None = None, *, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("spell", player=player, column=column)

    def in_field_zone(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("field zone", player=player)

    def in_pendulum_zone(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self.is_in("pendulum", player=player)

    def on_field(self, player: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.on_field and (player is None or self.card.controller == player),
                           "to be on the field" + (f" under player {player}'s control" if player is not None else ""))

    def not_on_field(self) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(not self.card.on_field, "not to be on the field")

    def is_material_of(self, xyz: "CardRef | None" = None) -> "CardExpectation":
        __tracebackhide__ = True
        holder = self.card.engine.overlay_target
        ok = holder is not None and (xyz is None or holder is xyz.engine)
        return self._check(ok, "to be an Xyz material" + (f" of {xyz}" if xyz is not None else ""))

    def controlled_by(self, player: int) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.controller == player, f"to be controlled by player {player}")

    # ----- position --------------------------------------------------------------------------------

    def face_up(self) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.is_face_up, "to be face-up")

    def face_down(self) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.is_face_down, "to be face-down")

    def in_attack_position(self) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.location == C.LOCATION_MZONE and self.card.is_attack_position,
                           "to be in Attack Position")

    def in_defense_position(self) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.location == C.LOCATION_MZONE and self.card.is_defense_position,
                           "to be in Defense Position")

    def in_position(self, position: str | int) -> "CardExpectation":
        __tracebackhide__ = True
        pos = words.position_code(position)
        return self._check(bool(self.card.position & pos) and not self.card.position & ~pos & 0xF,
                           f"to be in {words.position_word(pos)}")

    # ----- stats and counters --------------------------------------------------------------------------

    def has_atk(self, atk: int) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.atk == atk, f"to have {atk} ATK", f"ATK {self.card.atk}: {self._now()}")

    def has_def(self, defense: int) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.defense == defense, f"to have {defense} DEF",
                           f"DEF {self.card.defense}: {self._now()}")

    def has_level(self, level: int) -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.level == level, f"to be Level {level}", f"Level {self.card.level}: {self._now()}")

    def has_counters(self, counter_type: int, count: int) -> "CardExpectation":
        __tracebackhide__ = True
        n = self.card.counter(counter_type)
        return self._check(n == count, f"to have {words.counter_words(self.scenario, counter_type, count)}",
                           f"{n} of them: {self._now()}")

    def has_no_counters(self, counter_type: int | None = None) -> "CardExpectation":
        __tracebackhide__ = True
        if counter_type is None:
            return self._check(not self.card.counters, "to have no counters")
        return self.has_counters(counter_type, 0)

    def has_materials(self, count: int) -> "CardExpectation":
        __tracebackhide__ = True
        n = len(self.card.engine.xyz_materials)
        return self._check(n == count, f"to have {count} Xyz material(s)", f"{n}: {self._now()}")

    def equipped_to(self, target: "CardRef") -> "CardExpectation":
        __tracebackhide__ = True
        return self._check(self.card.engine.equiping_target is target.engine, f"to be equipped to {target}")


# ---- the duel -------------------------------------------------------------------------------------

def expect_lp(scenario: "Scenario", player: int, lp: int) -> None:
    """Player ``player`` has exactly ``lp`` LP."""
    __tracebackhide__ = True
    now = scenario.lp(player)
    if now != lp:
        _fail(scenario, f"Expected player {player} to have {lp} LP, but they have {now} LP")


def expect_phase(scenario: "Scenario", phase: str | int, *, player: int | None = None,
                 turn: int | None = None) -> None:
    """The duel is in this phase (of this player's turn / this turn number)."""
    __tracebackhide__ = True
    ph = words.phase_code(phase)
    eng = scenario.engine
    ok = eng.infos.phase == ph and (player is None or eng.infos.turn_player == player) and (
        turn is None or eng.infos.turn_id == turn)
    if not ok:
        want = words.phase_word(ph) + (f" of player {player}" if player is not None else "") + (
            f" in turn {turn}" if turn is not None else "")
        _fail(scenario, f"Expected the {want}, but it is turn {eng.infos.turn_id}, player "
                        f"{eng.infos.turn_player}'s {words.phase_word(eng.infos.phase)}")


def _since(scenario: "Scenario", since: str | int) -> int:
    if isinstance(since, int):
        return since
    if since == "start":
        return 0
    if since == "action":
        return scenario.action_start
    raise ValueError('since= "start", "action" or a message index')


def _card_matches(scenario: "Scenario", spec: Any, index: int, code: int) -> bool:
    if spec is None:
        return True
    ref = scenario.message_card(index)
    if isinstance(spec, CardRef):
        if ref is not None:
            return ref.engine is spec.engine
        return code == spec.code
    if isinstance(spec, int):
        return code == spec
    if isinstance(spec, str):
        return scenario.card_name(code).lower() == spec.strip().lower()
    if ref is not None:
        return matches(scenario, spec, ref)
    return False


def _spec_words(scenario: "Scenario", spec: Any) -> str:
    return "any card" if spec is None else spec_label(spec)


def _moves(scenario: "Scenario", since: str | int) -> list[tuple[int, MsgMove]]:
    start = _since(scenario, since)
    return [(i, m) for i, m in enumerate(scenario.messages[start:], start) if isinstance(m, MsgMove)]


def _move_words(scenario: "Scenario", m: MsgMove) -> str:
    return (f"{scenario.card_name(m.code)} ({m.code}): {m.previous.describe()} -> {m.current.describe()} "
            f"[{words.reason_words(m.reason)}]")


_BY = {"battle": C.REASON_BATTLE, "effect": C.REASON_EFFECT, "cost": C.REASON_COST, "rule": C.REASON_RULE}


def expect_destroyed(scenario: "Scenario", card: Any = None, *, by: str | None = None, count: int | None = None,
                     since: str | int = "start") -> None:
    """A destroyed event for ``card`` (a move with REASON_DESTROY), optionally by "battle" or "effect"."""
    __tracebackhide__ = True
    reason = C.REASON_DESTROY | (_BY[by] if by else 0)
    hits = [(i, m) for i, m in _moves(scenario, since)
            if m.reason & reason == reason and _card_matches(scenario, card, i, m.code)]
    if (count is None and not hits) or (count is not None and len(hits) != count):
        all_destroyed = [_move_words(scenario, m) for _, m in _moves(scenario, since) if m.reason & C.REASON_DESTROY]
        want = f"{count} destroyed event(s)" if count is not None else "a destroyed event"
        _fail(scenario, f"Expected {want} for {_spec_words(scenario, card)}"
                        + (f" by {by}" if by else "") + f", found {len(hits)}.\nDestroyed since then: "
                        + ("; ".join(all_destroyed) or "nothing"))


def expect_moved(scenario: "Scenario", card: Any, *, to: str | int | None = None, reason: int | None = None,
                 since: str | int = "start") -> None:
    """``card`` moved (to this location, with these REASON_* bits)."""
    __tracebackhide__ = True
    loc = None if to is None else words.location_code(to)
    hits = []
    for i, m in _moves(scenario, since):
        if not _card_matches(scenario, card, i, m.code):
            continue
        if reason is not None and m.reason & reason != reason:
            continue
        if loc is not None and loc > 0 and not m.current.location & loc:
            continue
        hits.append(m)
    if not hits:
        moved = [_move_words(scenario, m) for _, m in _moves(scenario, since)]
        _fail(scenario, f"Expected {_spec_words(scenario, card)} to move" + (f" to {to}" if to else "")
              + (f" with reason {words.reason_words(reason)}" if reason else "") + ", but it did not.\nMoves: "
              + ("; ".join(moved[-15:]) or "none"))


_HOW = {"normal": (MsgSummoning,), "special": (MsgSpSummoning,), "flip": (MsgFlipSummoning,)}


def expect_summoned(scenario: "Scenario", card: Any = None, *, how: str | None = None,
                    position: str | int | None = None, token: bool | None = None, player: int | None = None,
                    count: int | None = None, since: str | int = "start") -> None:
    """A summon of ``card`` (how: "normal", "special", "flip"; position; a Token or not; by player).
    ``count``: exactly that many such summons."""
    __tracebackhide__ = True
    kinds = _HOW[how] if how else (MsgSummoning, MsgSpSummoning, MsgFlipSummoning)
    pos = None if position is None else words.position_code(position)
    start = _since(scenario, since)
    hits, seen = [], []
    for i, m in enumerate(scenario.messages[start:], start):
        if not isinstance(m, (MsgSummoning, MsgSpSummoning, MsgFlipSummoning)):
            continue
        kind = {MsgSummoning: "Normal", MsgSpSummoning: "Special", MsgFlipSummoning: "Flip"}[type(m)]
        seen.append(f"{kind} Summon of {scenario.card_name(m.code)} ({m.code}) to {m.loc.describe()}")
        if not isinstance(m, kinds) or not _card_matches(scenario, card, i, m.code):
            continue
        if pos is not None and not (m.loc.position & pos and not m.loc.position & ~pos & 0xF):
            continue
        if player is not None and m.loc.controller != player:
            continue
        if token is not None:
            rec = scenario.db.find(m.code)
            is_token = bool(rec is not None and rec.type & C.TYPE_TOKEN)
            if is_token != token:
                continue
        hits.append(m)
    if (count is None and not hits) or (count is not None and len(hits) != count):
        want = (f"{count} " if count is not None else "a ") + (f"{how} " if how else "") + "summon(s)"
        detail = []
        if position is not None:
            detail.append(f"in {words.position_word(pos)}")  # type: ignore[arg-type]
        if token is not None:
            detail.append("of a Token" if token else "of a non-Token")
        if player is not None:
            detail.append(f"by player {player}")
        _fail(scenario, f"Expected {want} of {_spec_words(scenario, card)} {' '.join(detail)}, found {len(hits)}."
                        f"\nSummons since then: " + ("; ".join(seen) or "none"))


def chains(scenario: "Scenario", since: str | int = "start") -> list[list[str]]:
    """The chains built (each a list of its links' card labels, link 1 first)."""
    start = _since(scenario, since)
    out: list[list[str]] = []
    current: list[str] = []
    for i, m in enumerate(scenario.messages[start:], start):
        if isinstance(m, MsgChaining):
            label = f"{scenario.card_name(m.code)} ({m.code})"
            if m.chain_count == 1 and current:
                out.append(current)
                current = []
            current.append(label)
        elif isinstance(m, MsgChainEnd) and current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def expect_chain(scenario: "Scenario", links: int, *, cards: list[Any] | None = None,
                 since: str | int = "start") -> None:
    """A chain of exactly ``links`` links was built (``cards``: its links' cards, link 1 first)."""
    __tracebackhide__ = True
    built = chains(scenario, since)
    ok = [c for c in built if len(c) == links]
    if ok and cards is not None:
        want = [f"{scenario.card_name(scenario.code_of(c))} ({scenario.code_of(c)})" for c in cards]
        ok = [c for c in ok if c == want]
    if not ok:
        seen = " | ".join(f"{len(c)} link(s): " + ", ".join(c) for c in built) or "no chain at all"
        _fail(scenario, f"Expected a chain of {links} link(s)" + (f" ({cards})" if cards else "")
                        + f".\nChains built: {seen}")


def expect_activated(scenario: "Scenario", card: Any, *, desc: int | None = None,
                     since: str | int = "start") -> None:
    """``card`` activated an effect (it went on a chain)."""
    __tracebackhide__ = True
    start = _since(scenario, since)
    for i, m in enumerate(scenario.messages[start:], start):
        if isinstance(m, MsgChaining) and _card_matches(scenario, card, i, m.code) and (
                desc is None or m.description == desc):
            return
    seen = " | ".join(", ".join(c) for c in chains(scenario, since)) or "nothing"
    _fail(scenario, f"Expected {_spec_words(scenario, card)} to activate an effect; activated: {seen}")


def expect_damage(scenario: "Scenario", player: int, amount: int | None = None, *,
                  since: str | int = "start") -> None:
    """Player ``player`` took damage (``amount``: the total damage taken, costs not counted)."""
    __tracebackhide__ = True
    start = _since(scenario, since)
    took = [m.amount for m in scenario.messages[start:] if isinstance(m, MsgDamage) and m.player == player]
    paid = sum(m.amount for m in scenario.messages[start:] if isinstance(m, MsgPayLpCost) and m.player == player)
    if not took or (amount is not None and sum(took) != amount):
        _fail(scenario, f"Expected player {player} to take {amount if amount is not None else 'some'} damage; "
                        f"damage taken: {took or 'none'}" + (f" (LP paid as costs: {paid})" if paid else ""))


def expect_won(scenario: "Scenario", player: int) -> None:
    """The duel ended with ``player`` winning."""
    __tracebackhide__ = True
    win = scenario.host.win()
    if win is None or win.player != player:
        _fail(scenario, f"Expected player {player} to win; {scenario.result_words()}")


def expect_prompt(scenario: "Scenario", kind: str, *, player: int | None = None) -> None:
    """The duel waits for this kind of decision ("idle", "chain", "card", ...)."""
    __tracebackhide__ = True
    k = kind_of(kind)
    view = scenario.view
    if view is None or view.kind != k or (player is not None and view.player != player):
        _fail(scenario, f"Expected the duel to wait for a {k} decision"
                        + (f" of player {player}" if player is not None else "")
                        + f"; it waits for: {scenario.waiting_words()}")


def expect_no_script_errors(scenario: "Scenario") -> None:
    """No script error at all so far (useful with strict=False)."""
    __tracebackhide__ = True
    if scenario.script_errors:
        raise LuaScriptError(scenario.script_errors, scenario)
