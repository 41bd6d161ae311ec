"""Invariants checked after every answer of seeded random duels (OpenSpiel's random-simulation test).

After each answer, in duels between random players:

* every card the duel started with is in exactly one place (one pile of one
  player, or the materials of one Xyz Monster), at the (location, sequence)
  it believes it is at; only cards made during the duel (Tokens) come and go;
* no two cards share a zone, and each player's zones hold no more cards than
  there are zones; the used-zone bits say which zones are taken;
* LP are ints;
* the prompt's options are unique, every legal answer ``legal_responses``
  lists passes the host's answer check, and the engine accepts the answer sent
  (no MSG_RETRY);
* ``Duel.state()`` and the message log agree on what occupies each Monster and
  Spell & Trap Zone and on each GY and banished pile, in order (MSG_MOVE /
  MSG_SWAP / MSG_SHUFFLE_SET_CARD replayed from the starting position).

A broken invariant names the duel, the step, the card and the last messages.
CI plays the bundled cards; with YGOPRO_SCRIPTS set, real decks
(../shared/decks, the corpus database) play too.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from duelhost import paths
from duelhost.deckpool import deck_pool, random_deck, read_deck_folder
from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.messages import (MsgAnnounceCard, MsgMove, MsgRetry, MsgShuffleSetCard, MsgSwap,
                                      MsgSwapGraveDeck)
from duelhost.engine.responses import (NoValidResponse, encode_response, legal_responses, parse_response,
                                       random_response)
from duelhost.host import Duel



SEEDS = 20
MAX_RESPONSES = 250
REAL_DUELS = 6

_PILES = (("list_hand", C.LOCATION_HAND), ("list_grave", C.LOCATION_GRAVE),
          ("list_remove", C.LOCATION_REMOVED), ("list_extra", C.LOCATION_EXTRA),
          ("list_main", C.LOCATION_DECK))
_ZONES = (("list_mzone", C.LOCATION_MZONE), ("list_szone", C.LOCATION_SZONE))
# piles whose every change the message log shows (MSG_MOVE in and out)
_LOGGED_PILES = (("list_grave", C.LOCATION_GRAVE), ("list_remove", C.LOCATION_REMOVED))


class Broken(AssertionError):
    pass


class Watch:
    """Checks one duel after each answer."""

    def __init__(self, duel: Duel, label: str) -> None:
        self.duel = duel
        self.label = label
        eng = duel.engine
        self.initial = [c for c in eng.cards if c is not eng.temp_card]
        self.step = 0
        # the message log replayed: what occupies each zone, and the GY and banished piles
        self.seen = len(duel.messages)
        self.zones: dict[tuple[int, int, int], int | None] = {}   # (player, location, seq) -> code
        self.piles: dict[tuple[int, int], list[int | None]] = {
            (p, loc): [c.data.code for c in getattr(eng.player[p], attr)]
            for p in (0, 1) for attr, loc in _LOGGED_PILES}
        for p in (0, 1):
            for attr, loc in _ZONES:
                for seq, c in enumerate(getattr(eng.player[p], attr)):
                    if c is not None:
                        self.zones[(p, loc, seq)] = c.data.code

    # ----- reporting -------------------------------------------------------------------

    def fail(self, what: str, card: Any = None) -> None:
        msgs = self.duel.messages[-8:]
        name = ""
        if card is not None:
            name = f" card {card.data.code} ({self.duel.card_name(card.data.code)})"
        lines = "\n".join("    " + m.describe(self.duel.card_name) for m in msgs)
        raise Broken(f"{self.label}, step {self.step}:{name}: {what}\n  last messages:\n{lines}")

    # ----- the invariants ----------------------------------------------------------------

    def check_places(self) -> None:
        eng = self.duel.engine
        where: dict[int, str] = {}
        taken: dict[tuple[int, int, int], Any] = {}

        def place(card: Any, desc: str, player: int, location: int, seq: int) -> None:
            if id(card) in where:
                self.fail(f"in two places: {where[id(card)]} and {desc}", card)
            where[id(card)] = desc
            cur = card.current
            if (cur.controler, cur.location, cur.sequence) != (player, location, seq):
                self.fail(f"listed at {desc} but believes it is at player {cur.controler} "
                          f"location 0x{cur.location:x} sequence {cur.sequence}", card)
            if location & (C.LOCATION_MZONE | C.LOCATION_SZONE):
                key = (player, location, seq)
                if key in taken:
                    self.fail(f"shares {desc} with {taken[key].data.code}", card)
                taken[key] = card

        def materials(card: Any) -> None:
            for i, mat in enumerate(card.xyz_materials):
                if mat.overlay_target is not card:
                    self.fail(f"material {i} of {card.data.code} has another holder", mat)
                # as in the reference, a material belongs to no player and its sequence is its index
                place(mat, f"material {i} of {card.data.code}", C.PLAYER_NONE, C.LOCATION_OVERLAY, i)

        for p in (0, 1):
            pl = eng.player[p]
            for attr, loc in _ZONES:
                zone = getattr(pl, attr)
                size = 7 if loc == C.LOCATION_MZONE else 8
                if len(zone) != size:
                    self.fail(f"player {p} has {len(zone)} zones at 0x{loc:x}, not {size}")
                shift = 0 if loc == C.LOCATION_MZONE else 8
                for seq, card in enumerate(zone):
                    used = bool(pl.used_location & (1 << (seq + shift)))
                    if seq < 7 and card is not None and not used:
                        self.fail(f"player {p} zone 0x{loc:x} #{seq} holds a card but is not marked used",
                                  card)
                    if card is None:
                        continue
                    place(card, f"player {p} 0x{loc:x} #{seq}", p, loc, seq)
                    materials(card)
            for attr, loc in _PILES:
                for seq, card in enumerate(getattr(pl, attr)):
                    place(card, f"player {p} 0x{loc:x} #{seq}", p, loc, seq)
                    materials(card)     # an Xyz Monster gets them while still in the Extra Deck
            if type(pl.lp) is not int:
                self.fail(f"player {p}'s LP {pl.lp!r} is a {type(pl.lp).__name__}, not an int")
        for card in self.initial:
            if id(card) not in where:
                holder = card.overlay_target
                extra = (f", material of {holder.data.code} at 0x{holder.current.location:x} listing it: "
                         f"{card in holder.xyz_materials}") if holder is not None else ""
                self.fail(f"is nowhere (location 0x{card.current.location:x}{extra})", card)
        for card in eng.cards:
            if card is not eng.temp_card and id(card) not in where and card.current.location:
                self.fail(f"believes it is at location 0x{card.current.location:x} but no pile lists it",
                          card)

    def check_log_vs_state(self) -> None:
        msgs = self.duel.messages
        zones = self.zones
        piles = self.piles
        resync: set[tuple[int, int]] = set()
        for msg in msgs[self.seen:]:
            if isinstance(msg, MsgMove):
                for loc, add in ((msg.previous, False), (msg.current, True)):
                    if loc.location in (C.LOCATION_MZONE, C.LOCATION_SZONE):
                        key = (loc.controller, loc.location, loc.sequence)
                        if add:
                            zones[key] = msg.code or None
                        else:
                            zones.pop(key, None)
                    elif loc.location in (C.LOCATION_GRAVE, C.LOCATION_REMOVED):
                        pkey = (loc.controller, loc.location)
                        if pkey in resync:
                            continue
                        pile = piles[pkey]
                        if add:
                            pile.insert(loc.sequence, msg.code or None)
                        elif loc.sequence < len(pile):
                            del pile[loc.sequence]
                        else:
                            self.fail(f"MSG_MOVE takes card {msg.code} out of {pkey} #{loc.sequence}, "
                                      f"which the log says holds {len(pile)} card(s)")
            elif isinstance(msg, MsgSwapGraveDeck):
                resync.add((msg.player, C.LOCATION_GRAVE))    # the log does not say which cards
            elif isinstance(msg, MsgSwap):
                k1 = (msg.loc1.controller, msg.loc1.location, msg.loc1.sequence)
                k2 = (msg.loc2.controller, msg.loc2.location, msg.loc2.sequence)
                zones[k1], zones[k2] = msg.code2, msg.code1
            elif isinstance(msg, MsgShuffleSetCard):
                for loc in msg.previous:           # the same zones, in an order the log hides
                    zones[(loc.controller, loc.location, loc.sequence)] = None
        self.seen = len(msgs)
        state = self.duel.state()
        have: dict[tuple[int, int, int], int] = {}
        for p, ps in enumerate(state.players):
            for loc in (C.LOCATION_MZONE, C.LOCATION_SZONE):
                for cs in ps.at(loc):
                    have[(p, loc, cs.sequence)] = cs.code
        if set(have) != set(zones):
            extra = sorted(set(have) - set(zones))
            gone = sorted(set(zones) - set(have))
            self.fail(f"state() and the message log disagree on which zones are taken: "
                      f"only in state() {extra}, only in the log {gone}")
        for key, code in zones.items():
            if code is not None and have[key] != code:
                self.fail(f"zone {key}: state() has {have[key]}, the last message put {code} there")
        for (p, loc), pile in piles.items():
            codes = [cs.code for cs in state.players[p].at(loc)]
            if (p, loc) in resync:
                pile[:] = codes
            elif len(codes) != len(pile) or any(c is not None and c != s for c, s in zip(pile, codes)):
                self.fail(f"player {p}'s pile 0x{loc:x}: state() has {codes}, the message log {pile}")

    def check_prompt(self, prompt: Any) -> list[Any]:
        cards = getattr(prompt, "cards", None)
        if isinstance(cards, tuple) and len(set(cards)) != len(cards):
            self.fail(f"{prompt.NAME} lists an option twice: {prompt.describe(self.duel.card_name)}")
        try:
            legal = legal_responses(prompt)
        except (TypeError, ValueError, NotImplementedError):
            legal = []
        raws = []
        for r in legal:
            raw = encode_response(prompt, r)
            try:
                parse_response(prompt, raw, card_lookup=self.duel.db.find)
            except Exception as exc:  # noqa: BLE001 - the report names it
                self.fail(f"legal answer {r!r} to {prompt.NAME} is refused: {exc}")
            raws.append(raw)
        if len(set(raws)) != len(raws):
            self.fail(f"{prompt.NAME}: legal_responses lists an answer twice")
        return legal

    def check_all(self) -> None:
        self.check_places()
        self.check_log_vs_state()


def random_answer(duel: Duel, prompt: Any, rng: random.Random) -> Any:
    """What RandomPlayer answers: a random legal answer (any card of the database to declare)."""
    pool = list(duel.db) if isinstance(prompt, MsgAnnounceCard) else None
    return random_response(prompt, rng, card_pool=pool)


def play(duel: Duel, label: str, seed: int, max_responses: int = MAX_RESPONSES) -> int:
    """Play with random answers, checking the invariants after each; the number of answers."""
    rng = random.Random(seed)
    watch = Watch(duel, label)
    watch.check_all()
    while duel.responses < max_responses:
        prompt = duel.advance()
        watch.check_all()
        if prompt is None:
            break
        legal = watch.check_prompt(prompt)
        try:
            answer = rng.choice(legal) if legal else random_answer(duel, prompt, rng)
        except NoValidResponse:
            break
        before = len(duel.messages)
        duel.respond(answer)
        watch.step += 1
        if any(isinstance(m, MsgRetry) for m in duel.messages[before:]):
            watch.fail(f"the engine refused the answer {answer!r} to {prompt.NAME}")
    return duel.responses


def _random_duel(db: CardDatabase, scripts: Path, pool: Any, seed: int) -> Duel:
    rng = random.Random(seed)
    duel = Duel(db=db, scripts=scripts, seed=seed)
    for p in (0, 1):
        main, extra = random_deck(rng, pool)
        duel.add_deck(p, main, extra, shuffle=True)
    duel.start()
    return duel


@pytest.fixture(scope="module")
def bundled() -> tuple[CardDatabase, Path, Any]:
    db = CardDatabase.open(paths.bundled_db())
    scripts = paths.bundled_scripts()
    return db, scripts, deck_pool(db, scripts, ot=0)


def test_invariants_hold_in_random_duels_with_the_bundled_cards(bundled: Any) -> None:
    db, scripts, pool = bundled
    total = 0
    for seed in range(1, SEEDS + 1):
        duel = _random_duel(db, scripts, pool, seed)
        try:
            total += play(duel, f"bundled seed {seed}", seed)
        finally:
            duel.script_host.close()
    assert total > SEEDS * 20       # the duels really were played


def test_a_broken_invariant_names_the_step_the_card_and_the_last_messages(bundled: Any) -> None:
    db, scripts, pool = bundled
    duel = _random_duel(db, scripts, pool, 1)
    try:
        play(duel, "bundled seed 1", 1, max_responses=5)
        hand = duel.engine.player[0].list_hand
        hand.append(hand[0])                 # one card in two places
        watch = Watch(duel, "bundled seed 1")
        watch.step = 5
        with pytest.raises(Broken) as err:
            watch.check_places()
    finally:
        duel.script_host.close()
    text = str(err.value)
    assert "step 5" in text and "in two places" in text and f"card {hand[0].data.code}" in text
    assert "last messages:" in text and len(text.splitlines()) > 2


def test_the_log_check_sees_a_card_that_moved_without_a_message(bundled: Any) -> None:
    db, scripts, pool = bundled
    for seed in range(1, SEEDS + 1):
        duel = _random_duel(db, scripts, pool, seed)
        try:
            watch = Watch(duel, f"seed {seed}")
            while duel.responses < MAX_RESPONSES:
                prompt = duel.advance()
                if prompt is None:
                    break
                watch.check_log_vs_state()
                pl = duel.engine.player[prompt.player]
                seq = next((i for i, c in enumerate(pl.list_mzone[:5]) if c is not None), None)
                free = next((i for i, c in enumerate(pl.list_mzone[:5]) if c is None), None)
                if seq is not None and free is not None:
                    card = pl.list_mzone[seq]
                    pl.list_mzone[seq], pl.list_mzone[free] = None, card
                    card.current.sequence = free
                    with pytest.raises(Broken, match="disagree on which zones are taken"):
                        watch.check_log_vs_state()
                    return
                duel.respond(random_answer(duel, prompt, random.Random(duel.responses)))
        finally:
            duel.script_host.close()
    pytest.fail("no duel put a monster on the field")


def test_invariants_hold_with_real_decks(real_scripts: Path, corpus_db: Path) -> None:
    scripts = real_scripts
    db = CardDatabase.open(corpus_db)
    folder = Path(__file__).resolve().parent.parent.parent / "shared" / "decks"   # next to the checkout
    if not folder.is_dir():
        pytest.skip(f"no deck folder {folder}")
    decks = [d for d in read_deck_folder(folder, db) if not d.problem]
    if len(decks) < 2:
        pytest.skip(f"{folder}: fewer than two playable decks")
    step = max(1, len(decks) // REAL_DUELS)
    total = 0
    for k in range(0, min(len(decks), REAL_DUELS * step), step):
        a, b = decks[k], decks[(k + len(decks) // 2) % len(decks)]
        duel = Duel(db=db, scripts=scripts, seed=k)
        duel.add_deck(0, a.main, a.extra, shuffle=True)
        duel.add_deck(1, b.main, b.extra, shuffle=True)
        duel.start()
        try:
            total += play(duel, f"{a.name} vs {b.name} (seed {k})", k, max_responses=400)
        finally:
            duel.script_host.close()
    assert total > REAL_DUELS * 20
