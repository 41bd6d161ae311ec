"""Bug reports: the current board as a puzzle file.

``dump_puzzle(duel)`` writes the Lua a puzzle file of YGOPro is made of (the
Debug library: SetPlayerInfo, AddCard, PreSummon, PreEquip, PreSetTarget,
PreAddCounter, ReloadFieldBegin/End, then aux.BeginPuzzle), so that running
it (``duelhost puzzle FILE``, or the reference's single mode) rebuilds the
board: every card with its owner, controller, zone, position, counters, Xyz
materials, equip target, card targets and summon type, and both players' LP.
A puzzle always begins at player 0's turn 1; the turn, phase and chain of the
dumped duel are written as a comment at the top.

The way back, ``load_puzzle(file)`` (a new Scenario running a puzzle file the
way the reference's single mode does: script first, then the duel starts at
player 0's Draw Phase), is in scenario.py, which this module does not import:
the dump reads a scenario it is given, so scenario.py imports this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from duelhost.engine import constants as C

from . import words

if TYPE_CHECKING:
    from .scenario import Scenario

__all__ = ["dump_puzzle", "board_signature"]

_LOC_NAMES = {C.LOCATION_DECK: "LOCATION_DECK", C.LOCATION_HAND: "LOCATION_HAND", C.LOCATION_MZONE: "LOCATION_MZONE",
              C.LOCATION_SZONE: "LOCATION_SZONE", C.LOCATION_GRAVE: "LOCATION_GRAVE",
              C.LOCATION_REMOVED: "LOCATION_REMOVED", C.LOCATION_EXTRA: "LOCATION_EXTRA",
              C.LOCATION_PZONE: "LOCATION_PZONE"}
_POS_NAMES = {C.POS_FACEUP_ATTACK: "POS_FACEUP_ATTACK", C.POS_FACEDOWN_ATTACK: "POS_FACEDOWN_ATTACK",
              C.POS_FACEUP_DEFENSE: "POS_FACEUP_DEFENSE", C.POS_FACEDOWN_DEFENSE: "POS_FACEDOWN_DEFENSE",
              C.POS_FACEUP: "POS_FACEUP", C.POS_FACEDOWN: "POS_FACEDOWN"}


def _pos(position: int) -> str:
    return _POS_NAMES.get(position & 0xF, f"0x{position & 0xF:x}")


def _name_comment(scenario: Any, code: int) -> str:
    name = scenario.card_name(code)
    return "" if name == str(code) else f" --{name}"


def dump_puzzle(scenario: "Scenario", *, simple_ai: bool = True, attack_first_turn: bool = True) -> str:
    """The board of ``scenario`` as the text of a puzzle file (see the module docstring)."""
    eng = scenario.engine
    infos = eng.infos
    core = eng.core
    flags = []
    if attack_first_turn:
        flags.append("DUEL_ATTACK_FIRST_TURN")
    if simple_ai:
        flags.append("DUEL_SIMPLE_AI")
    lines = ["--[[message",
             "Board dumped by duelhost (duelhost.testing.dump_puzzle).",
             f"Dumped at turn {infos.turn_id}, player {infos.turn_player}'s {words.phase_word(infos.phase)}"
             + (f", with a chain of {len(core.current_chain)} link(s) in progress" if core.current_chain else "")
             + ".",
             "As a puzzle it starts at player 0's Main Phase 1 of turn 1.",
             "]]", "",
             f"Debug.ReloadFieldBegin({'+'.join(flags) or '0'},{core.duel_rule})"]
    for p in (0, 1):
        lines.append(f"Debug.SetPlayerInfo({p},{eng.player[p].lp},0,0)")
    lines.append("local c={}")
    index: dict[int, int] = {}      # id(engine card) -> index in c
    later: list[str] = []

    def add(card: Any, player: int, location: str, seq: int, position: int, *, comment: str = "") -> None:
        i = len(index) + 1
        index[id(card)] = i
        proc = ",true" if card.get_status(C.STATUS_PROC_COMPLETE) else ""
        lines.append(f"c[{i}]=Debug.AddCard({card.data.code},{card.owner},{player},{location},{seq},"
                     f"{_pos(position)}{proc}){_name_comment(scenario, card.data.code)}{comment}")
        for ctype, n in sorted(card.counters.items()):
            if n:
                lines.append(f"Debug.PreAddCounter(c[{i}],0x{ctype:x},{n})")
        if card.summon_info and location == "LOCATION_MZONE":
            stype = card.summon_info & 0xFF00FFFF
            sloc = (card.summon_info >> 16) & 0xFF
            lines.append(f"Debug.PreSummon(c[{i}],0x{stype:x}" + (f",0x{sloc:x})" if sloc else ")"))

    card: Any                                       # each pile's cards, then the zones' (None: empty)
    for p in (0, 1):
        pl = eng.player[p]
        lines.append("")
        lines.append(f"--player {p}")
        for card in pl.list_extra:
            add(card, p, "LOCATION_EXTRA", 0, card.current.position)
        for card in pl.list_main:                   # bottom first: each AddCard goes on top
            add(card, p, "LOCATION_DECK", 0, card.current.position)
        for card in pl.list_hand:
            add(card, p, "LOCATION_HAND", 0, card.current.position)
        for seq, card in enumerate(pl.list_mzone):
            if card is None:
                continue
            add(card, p, "LOCATION_MZONE", seq, card.current.position)
            for mat in card.xyz_materials:
                # AddCard to an occupied Monster Zone adds an Xyz material to the monster there
                add(mat, p, "LOCATION_MZONE", seq, C.POS_FACEUP_ATTACK, comment=" (Xyz material)")
        for seq, card in enumerate(pl.list_szone):
            if card is None:
                continue
            if card.current.pzone:
                pseq = 0 if seq in (0, 6) else 1
                add(card, p, "LOCATION_PZONE", pseq, card.current.position)
            else:
                add(card, p, "LOCATION_SZONE", seq, card.current.position)
        for card in pl.list_grave:
            add(card, p, "LOCATION_GRAVE", 0, card.current.position)
        for card in pl.list_remove:
            add(card, p, "LOCATION_REMOVED", 0, card.current.position)
    for p in (0, 1):
        for card in eng.player[p].list_szone:
            if card is None or id(card) not in index:
                continue
            target = card.equiping_target
            if target is not None and id(target) in index:
                later.append(f"Debug.PreEquip(c[{index[id(card)]}],c[{index[id(target)]}])")
    for card in eng.cards:
        if id(card) not in index:
            continue
        for t in card.effect_target_cards:
            if t is card.equiping_target or id(t) not in index:
                continue
            later.append(f"Debug.PreSetTarget(c[{index[id(card)]}],c[{index[id(t)]}])")
    if later:
        lines.append("")
        lines.extend(later)
    lines += ["", "Debug.ReloadFieldEnd()", "aux.BeginPuzzle()", ""]
    return "\n".join(lines)


def board_signature(scenario: Any) -> dict[str, Any]:
    """The board as plain data (LP; per player and location: code, owner, zone, position, counters,
    materials, equip target), for comparing two boards.  Takes a Scenario or a duelhost.Duel."""
    eng = scenario.engine

    def card(c: Any) -> tuple[Any, ...]:
        eq = c.equiping_target
        return (c.data.code, c.owner, c.current.location, c.current.sequence if c.current.location & 0x0C else None,
                c.current.position & 0xF if c.current.location != C.LOCATION_HAND else None,
                tuple(sorted((t, n) for t, n in c.counters.items() if n)),
                tuple(m.data.code for m in c.xyz_materials),
                None if eq is None else (eq.current.controler, eq.current.location, eq.current.sequence),
                bool(c.current.pzone))
    out: dict[str, Any] = {}
    for p in (0, 1):
        pl = eng.player[p]
        out[f"lp{p}"] = pl.lp
        out[f"mzone{p}"] = [card(c) if c is not None else None for c in pl.list_mzone]
        out[f"szone{p}"] = [card(c) if c is not None else None for c in pl.list_szone]
        for name, lst in (("hand", pl.list_hand), ("deck", pl.list_main), ("grave", pl.list_grave),
                          ("removed", pl.list_remove), ("extra", pl.list_extra)):
            out[f"{name}{p}"] = [card(c) for c in lst]
    return out
