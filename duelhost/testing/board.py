"""The whole board as text: turn, phase, LP, every zone with names, stats and counters.

Built on duelhost.state (the snapshot the host gives) for LP, turn and phase,
and on the engine cards themselves for what a test needs to see besides:
Field and Pendulum Zones by name, Xyz materials, equips, face-down cards (a
test sees everything), the Deck from the top.
"""

from __future__ import annotations

from typing import Any

from duelhost.engine import constants as C

from . import words

__all__ = ["draw_board", "draw_cards"]

DECK_SHOWN = 8


def draw_cards(scenario: Any, cards: Any) -> str:
    """A group of cards, one per line."""
    cards = list(cards)
    if not cards:
        return "(no cards)"
    return "\n".join(f"- {words.card_words(scenario, getattr(c, 'engine', c))}" for c in cards)


def draw_board(scenario: Any) -> str:
    """The board, player 1 on top (as a duel is usually drawn), player 0 below."""
    eng = scenario.engine
    state = scenario.host.state()
    if not scenario.started:
        lines = ["Board (set-up, before the duel starts)"]
    else:
        lines = [f"Board: turn {state.turn}, player {state.turn_player}'s {words.phase_word(state.phase)}"]
    for p in (1, 0):
        pl = eng.player[p]
        lines.append(f"Player {p}: {pl.lp} LP | hand {len(pl.list_hand)} | Deck {len(pl.list_main)} | "
                     f"Extra {len(pl.list_extra)} | GY {len(pl.list_grave)} | banished {len(pl.list_remove)}")
        rows: list[tuple[str, list[Any]]] = []
        mz = [c for c in pl.list_mzone if c is not None]
        sz = [c for c in pl.list_szone if c is not None]
        rows.append(("Monster Zones", mz))
        rows.append(("Spell & Trap Zones", sz))
        rows.append(("hand", list(pl.list_hand)))
        rows.append(("GY", list(pl.list_grave)))
        rows.append(("banished", list(pl.list_remove)))
        rows.append(("Extra Deck", list(pl.list_extra)))
        for title, cards in rows:
            if not cards:
                continue
            lines.append(f"  {title}:")
            for c in cards:
                lines.append("    " + _short(scenario, c))
        deck = list(reversed(pl.list_main))
        if deck:
            shown = ", ".join(words.card_label(scenario, c) for c in deck[:DECK_SHOWN])
            more = f", ... {len(deck) - DECK_SHOWN} more" if len(deck) > DECK_SHOWN else ""
            lines.append(f"  Deck (top first): {shown}{more}")
    chain = eng.core.current_chain
    if chain:
        lines.append("Chain: " + ", ".join(
            f"{i + 1}. {words.card_label(scenario, ch.triggering_effect.get_handler())} (player {ch.triggering_player})"
            for i, ch in enumerate(chain)))
    req = scenario.host.request
    if scenario.ended:
        lines.append(f"The duel has ended: {scenario.result_words()}")
    elif req is not None:
        lines.append(f"Waiting for: player {req.player} to answer {req.NAME}")
    return "\n".join(lines)


def _short(scenario: Any, card: Any) -> str:
    """One card in a zone listing: "#2 Name (code), face-up Attack Position, ATK 1200 / DEF 800"."""
    full = words.card_words(scenario, card)
    label = words.card_label(scenario, card)
    rest = full[len(label):]
    # drop the zone words ("player 0's Monster Zone #2") that the heading already says
    cur = card.current
    zone = words.zone_word(cur.controler, cur.location, cur.sequence, pzone=bool(card.current.pzone))
    rest = rest.replace(", " + zone, "", 1)
    tag = f"#{cur.sequence}"
    if cur.location == C.LOCATION_SZONE:
        if cur.sequence == 5:
            tag = "Field Zone"
        elif card.current.pzone:
            tag = f"#{cur.sequence} Pendulum Zone"
    elif cur.location == C.LOCATION_MZONE and cur.sequence >= 5:
        tag = f"#{cur.sequence} Extra Monster Zone"
    return f"{tag} {label}{rest}"
