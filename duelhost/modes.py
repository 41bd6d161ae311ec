"""Duel modes: the rule number and the DUEL_* flags a duel starts with.

One home for the options ``duelhost diff`` and ``duelhost selfplay`` give
``start_duel``.  The reference reads them from one 32-bit number
(ocgapi.cpp ``start_duel``): the Master Rule in the high 16 bits (1 to 5; any
other number gives rule 1 with DUEL_OBSOLETE_RULING, else the current rule)
and the flags in the low 16:

* ``DUEL_ATTACK_FIRST_TURN`` (0x02): the first player may attack on turn 1;
* ``DUEL_OBSOLETE_RULING`` (0x08): rule 1 when the high bits name no rule (old replays);
* ``DUEL_PSEUDO_SHUFFLE`` (0x10): shuffling a Deck leaves it in order (the hand is still shuffled);
* ``DUEL_TAG_MODE`` (0x20): a Tag Duel: each side has a partner whose Deck and
  Extra Deck are given with ``new_tag_card``; the partners take turns from the
  side's second turn on (MSG_TAG_SWAP).

``mode_options`` adds the same command-line options to both commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import click

from duelhost.engine import constants as C
from duelhost.engine.core_constants import CURRENT_RULE

__all__ = ["DuelMode", "mode_options", "mode_from_options"]

_FLAG_NAMES = ((C.DUEL_ATTACK_FIRST_TURN, "attack on the first turn"),
               (C.DUEL_OBSOLETE_RULING, "obsolete ruling"),
               (C.DUEL_PSEUDO_SHUFFLE, "pseudo shuffle"),
               (C.DUEL_TAG_MODE, "Tag Duel"))


@dataclass(frozen=True)
class DuelMode:
    """A Master Rule (1-5, or 0: none in the high bits) and the DUEL_* flags."""

    rule: int = CURRENT_RULE
    flags: int = 0

    @property
    def options(self) -> int:
        """The 32-bit ``start_duel`` argument."""
        return (self.rule << 16) | self.flags

    @property
    def tag(self) -> bool:
        return bool(self.flags & C.DUEL_TAG_MODE)

    @property
    def decks(self) -> int:
        """Decks one duel needs: 4 in a Tag Duel, else 2."""
        return 4 if self.tag else 2

    @property
    def effective_rule(self) -> int:
        """The rule the core plays (ocgapi.cpp start_duel's choice)."""
        if 1 <= self.rule <= CURRENT_RULE:
            return self.rule
        return 1 if self.flags & C.DUEL_OBSOLETE_RULING else CURRENT_RULE

    def describe(self) -> str:
        """``Master Rule 4, Tag Duel`` and the like."""
        parts = [f"Master Rule {self.effective_rule}"]
        parts += [name for bit, name in _FLAG_NAMES if self.flags & bit]
        other = self.flags & ~sum(bit for bit, _ in _FLAG_NAMES)
        if other:
            parts.append(f"flags 0x{other:x}")
        return ", ".join(parts)


def mode_from_options(rule: int, attack_first_turn: bool = False, pseudo_shuffle: bool = False,
                      obsolete_ruling: bool = False, tag: bool = False, duel_flags: int = 0) -> DuelMode:
    """A DuelMode from the command-line options (``duel_flags``: any other DUEL_* bits)."""
    flags = duel_flags & 0xFFFF
    for on, bit in ((attack_first_turn, C.DUEL_ATTACK_FIRST_TURN), (pseudo_shuffle, C.DUEL_PSEUDO_SHUFFLE),
                    (obsolete_ruling, C.DUEL_OBSOLETE_RULING), (tag, C.DUEL_TAG_MODE)):
        if on:
            flags |= bit
    return DuelMode(rule=rule, flags=flags)


def _hex(value: str) -> int:
    try:
        return int(value, 0)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a number (0x.. for hexadecimal)") from None


def mode_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Click options --rule, --attack-first-turn, --pseudo-shuffle, --obsolete-ruling,
    --tag and --duel-flags; the command gets one ``mode: DuelMode`` argument."""
    import functools

    @click.option("--rule", type=click.IntRange(0, 0xFFFF), default=CURRENT_RULE, show_default=True,
                  help="Master Rule 1-5 (the high 16 bits of the options; 0 with --obsolete-ruling: rule 1).")
    @click.option("--attack-first-turn", is_flag=True, help="DUEL_ATTACK_FIRST_TURN: attacks on turn 1.")
    @click.option("--pseudo-shuffle", is_flag=True, help="DUEL_PSEUDO_SHUFFLE: Deck shuffles keep the order.")
    @click.option("--obsolete-ruling", is_flag=True, help="DUEL_OBSOLETE_RULING (old replays).")
    @click.option("--tag", is_flag=True, help="Tag Duels: four decks, the partners' given with new_tag_card.")
    @click.option("--duel-flags", type=_hex, default="0", help="Other DUEL_* flag bits to set (e.g. 0x80).")
    @functools.wraps(fn)
    def wrapper(*args: Any, rule: int, attack_first_turn: bool, pseudo_shuffle: bool,
                obsolete_ruling: bool, tag: bool, duel_flags: int, **kwargs: Any) -> Any:
        kwargs["mode"] = mode_from_options(rule, attack_first_turn, pseudo_shuffle, obsolete_ruling,
                                           tag, duel_flags)
        return fn(*args, **kwargs)
    return wrapper
