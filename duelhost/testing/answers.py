"""Scripted answers: how a test says what to answer when the duel asks.

    from duelhost.testing import choose, yes, position, option, zone

    duel.answers.queue(choose("Cinderwood Torch Bearer"), yes())   # used in order
    duel.answers.on("position", position("defense"))               # every time this kind is asked
    duel.activate(card, answers=[choose(190000006)])                # for this action only

An answer fits some kinds of prompt (``choose`` fits card selections, ``yes``
fits yes/no questions, ...).  The scenario offers each prompt to the head of
the queue first: if it fits it is used (and removed), else the rules for that
kind of prompt are tried.  An answer that fits but matches none of the options
fails the test with the prompt described in words.

A card is named by its code (int), its name (str, any case), a ``CardRef`` the
scenario returned, or a predicate ``f(card_ref) -> bool``.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from duelhost.engine import constants as C
from duelhost.engine.responses import (RESPONSE_TYPES, AnnounceAttribResponse, AnnounceCardResponse,
                                       AnnounceRaceResponse, CardsResponse, CounterResponse, PlaceResponse,
                                       Response, SortResponse, SumResponse, UnselectCardResponse, Zone,
                                       random_response)

from . import words
from .errors import AnswerMismatch
from .questions import kind_of

if TYPE_CHECKING:
    from .questions import Option, PromptView

__all__ = [
    "Answer", "Answers", "activate", "any_legal", "attribute", "cancel", "choose", "counters", "declare",
    "finish", "first", "keep_order", "no", "nth", "number", "option", "order", "pass_", "position", "race",
    "rps", "when", "yes", "zone", "as_answer",
]

CardSpec = Any


# ---- matching cards -------------------------------------------------------------------------

def spec_label(spec: CardSpec) -> str:
    """A card spec in words, for failure messages (scenario.py and expect.py use it too)."""
    if isinstance(spec, int):
        return f"the card with code {spec}"
    if isinstance(spec, str):
        return f'"{spec}"'
    engine_card = getattr(spec, "engine", None)
    if engine_card is not None:
        return str(spec)
    if hasattr(spec, "data") and hasattr(spec, "current"):
        return f"engine card {spec.data.code}"
    if callable(spec):
        return f"a card matching {getattr(spec, '__name__', 'the predicate')}"
    return repr(spec)


def card_matches(view: "PromptView", spec: CardSpec, opt: "Option") -> bool:
    """Whether the option of a prompt is the card ``spec`` names."""
    card = opt.card
    if card is None:
        return False
    if isinstance(spec, bool):
        return False
    if isinstance(spec, int):
        return card.data.code == spec or card.get_code() == spec
    if isinstance(spec, str):
        return view.scenario.card_name(card.data.code).lower() == spec.strip().lower()
    engine_card = getattr(spec, "engine", None)
    if engine_card is not None:
        return card is engine_card
    if hasattr(spec, "data") and hasattr(spec, "current"):
        return card is spec
    if callable(spec):
        return bool(spec(view.scenario.ref(card)))
    raise TypeError(f"cannot name a card with {spec!r}: use a code, a name, a card or a predicate")


def _pick_cards(view: "PromptView", specs: tuple, options: list["Option"], answer: "Answer") -> list["Option"]:
    used: list[Option] = []
    for spec in specs:
        for opt in options:
            if opt not in used and card_matches(view, spec, opt):
                used.append(opt)
                break
        else:
            raise AnswerMismatch(view, answer, f"{spec_label(spec)} is not among the options"
                                 + (" (or was named twice)" if any(card_matches(view, spec, o) for o in used) else ""))
    return used


# ---- answers --------------------------------------------------------------------------------

class Answer:
    """Base of scripted answers: ``fits(view)`` and ``respond(view)``."""

    kinds: frozenset[str] = frozenset()
    sticky = False          # stays at the queue head while a multi-step choice goes on

    def fits(self, view: "PromptView") -> bool:
        return view.kind in self.kinds

    def respond(self, view: "PromptView") -> Response | bytes:
        raise NotImplementedError

    def done(self, view: "PromptView") -> bool:
        """After ``respond``: may the answer leave the queue?"""
        return True

    def describe(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<answer: {self.describe()}>"


class _Choose(Answer):
    kinds = frozenset({"card", "tribute", "unselect_card", "sum"})

    def __init__(self, specs: tuple) -> None:
        if not specs:
            raise ValueError("choose() needs at least one card")
        self.specs = specs
        self._finished = True

    def describe(self) -> str:
        return "choose " + ", ".join(spec_label(s) for s in self.specs)

    def respond(self, view: "PromptView") -> Response:
        p = view.prompt
        if view.kind in ("card", "tribute"):
            picked = _pick_cards(view, self.specs, view.options, self)
            if view.kind == "card" and not p.min <= len(picked) <= p.max:  # type: ignore[attr-defined]
                raise AnswerMismatch(view, self, f"names {len(picked)} card(s); the prompt wants "
                                                 f"{p.min} to {p.max}")  # type: ignore[attr-defined]
            return CardsResponse(indices=tuple(o.index for o in picked))
        if view.kind == "sum":
            specs = tuple(s for s in self.specs
                          if not any(card_matches(view, s, m) for m in view.must))
            picked = _pick_cards(view, specs, view.options, self)
            return SumResponse(indices=tuple(o.index for o in picked))
        # one card at a time: pick the next named card not chosen yet, then finish
        chosen = list(view.selected)
        remaining = []
        for spec in self.specs:
            hit = next((o for o in chosen if card_matches(view, spec, o)), None)
            if hit is not None:
                chosen.remove(hit)
            else:
                remaining.append(spec)
        if remaining:
            nxt = _pick_cards(view, (remaining[0],), view.options, self)[0]
            self._finished = False     # stays until the selection ends (the script may ask once more)
            return UnselectCardResponse(index=nxt.index)
        if not (p.finishable or p.cancelable):  # type: ignore[attr-defined]
            raise AnswerMismatch(view, self, "all named cards are chosen but the prompt cannot be finished yet")
        self._finished = True
        return UnselectCardResponse(index=None)

    @property
    def sticky(self) -> bool:  # type: ignore[override]
        return not self._finished

    def done(self, view: "PromptView") -> bool:
        return self._finished


class _YesNo(Answer):
    kinds = frozenset({"yes_no", "effect_yes_no"})

    def __init__(self, value: bool) -> None:
        self.value = value

    def describe(self) -> str:
        return "yes" if self.value else "no"

    def respond(self, view: "PromptView") -> Response:
        return view.options[0 if self.value else 1].response  # type: ignore[return-value]


class _Activate(Answer):
    kinds = frozenset({"chain", "effect_yes_no", "idle", "battle"})

    def __init__(self, card: CardSpec = None, desc: int | str | None = None, index: int | None = None) -> None:
        self.card, self.desc, self.index = card, desc, index

    def describe(self) -> str:
        what = spec_label(self.card) if self.card is not None else "an effect"
        if self.desc is not None:
            what += f" (description {self.desc!r})"
        if self.index is not None:
            what += f" (its effect #{self.index})"
        return f"activate {what}"

    def respond(self, view: "PromptView") -> Response:
        return pick_activation(view, self.card, self.desc, self.index, self).response  # type: ignore[return-value]


def _desc_matches(view: "PromptView", desc: int | str, opt: "Option") -> bool:
    if isinstance(desc, int):
        return opt.description == desc & 0xFFFFFFFF
    return desc.lower() in words.desc_words(view.scenario, opt.description).lower()


def pick_activation(view: "PromptView", card: CardSpec, desc: int | str | None, index: int | None,
                    answer: Answer | None = None) -> "Option":
    """The option activating ``card``'s effect (by description or effect index) in a menu/chain/yes-no."""
    if view.kind == "effect_yes_no":
        yes_opt = view.options[0]
        if card is not None and not card_matches(view, card, yes_opt):
            raise AnswerMismatch(view, answer, f"the question is about another card, not {spec_label(card)}")
        return yes_opt
    cands = [o for o in view.options if o.action == "activate"]
    if card is not None:
        cands = [o for o in cands if card_matches(view, card, o)]
    if desc is not None:
        cands = [o for o in cands if _desc_matches(view, desc, o)]
    if index is not None:
        cands = [o for o in cands if o.effect is not None and view.scenario.effect_index(o.effect) == index]
    what = spec_label(card) if card is not None else "an effect"
    if not cands:
        raise AnswerMismatch(view, answer, f"{what} cannot be activated here"
                             + (f" with description {desc!r}" if desc is not None else "")
                             + (f" as its effect #{index}" if index is not None else ""))
    if len(cands) > 1:
        descs = {o.description for o in cands}
        effects = {id(o.effect) for o in cands}
        if len(descs) > 1 or len(effects) > 1:
            raise AnswerMismatch(view, answer, f"{what} has {len(cands)} effects that can be activated here; "
                                               "say which with desc= (description number or text) or index=")
    return cands[0]


class _Pass(Answer):
    kinds = frozenset({"chain", "effect_yes_no"})

    def describe(self) -> str:
        return "pass"

    def respond(self, view: "PromptView") -> Response:
        for o in view.options:
            if o.action == "pass":
                return o.response  # type: ignore[return-value]
        raise AnswerMismatch(view, self, "passing is not allowed here (an effect must be chained)")


class _Position(Answer):
    kinds = frozenset({"position"})

    def __init__(self, pos: str | int) -> None:
        self.pos = words.position_code(pos)
        self.text = pos

    def describe(self) -> str:
        return f"position {self.text!r}"

    def respond(self, view: "PromptView") -> Response:
        for o in view.options:
            if o.index & self.pos:
                return o.response  # type: ignore[return-value]
        raise AnswerMismatch(view, self, f"{words.position_word(self.pos)} is not allowed")


class _Option(Answer):
    kinds = frozenset({"option"})

    def __init__(self, which: int | str) -> None:
        self.which = which

    def describe(self) -> str:
        if isinstance(self.which, int):
            return f"option index {self.which} (the {_ordinal(self.which + 1)} option)"
        return f"the option {self.which!r}"

    def respond(self, view: "PromptView") -> Response:
        if isinstance(self.which, int):
            if not 0 <= self.which < len(view.options):
                raise AnswerMismatch(view, self, f"there are only {len(view.options)} options")
            return view.options[self.which].response  # type: ignore[return-value]
        hits = [o for o in view.options if self.which.lower() in o.label.lower()]
        if len(hits) != 1:
            raise AnswerMismatch(view, self, f"{len(hits)} options contain {self.which!r}")
        return hits[0].response  # type: ignore[return-value]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# Generic answers (nth, first, any_legal, functions) leave "which zone?" (SELECT_PLACE) alone: the zone a
# card is put in comes before most questions and has a default; only zone() or a rule answers it.
_SINGLE = frozenset({"option", "yes_no", "effect_yes_no", "position", "disfield", "number", "rps",
                     "chain", "idle", "battle", "card", "tribute", "unselect_card"})
_GENERIC_SKIP = frozenset({"idle", "battle", "place"})


class _Nth(Answer):
    kinds = _SINGLE - {"idle", "battle"}

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError("nth() counts from 1: nth(1) is the first option")
        self.n = n

    def describe(self) -> str:
        return f"the {_ordinal(self.n)} option"

    def respond(self, view: "PromptView") -> Response:
        if self.n > len(view.options):
            raise AnswerMismatch(view, self, f"there are only {len(view.options)} options")
        opt = view.options[self.n - 1]
        if opt.response is None:
            raise AnswerMismatch(view, self, "this kind of prompt is not answered by one option")
        return opt.response


class _First(Answer):
    kinds = _SINGLE | {"race", "attribute", "sort", "counter"}

    def describe(self) -> str:
        return "the first option"

    def respond(self, view: "PromptView") -> Response:
        p = view.prompt
        if view.kind in ("card", "tribute"):
            n = max(1, p.min)  # type: ignore[attr-defined]
            return CardsResponse(indices=tuple(range(min(n, len(view.options)))))
        if view.kind in ("race", "attribute"):
            mask = 0
            for o in view.options[:p.count]:  # type: ignore[attr-defined]
                mask |= o.index
            return (AnnounceRaceResponse(races=mask) if view.kind == "race"
                    else AnnounceAttribResponse(attributes=mask))
        if view.kind == "sort":
            return SortResponse(order=None)
        if view.kind == "counter":
            left = p.count  # type: ignore[attr-defined]
            counts = []
            for cc in p.cards:  # type: ignore[attr-defined]
                take = min(left, cc.counter_count)
                counts.append(take)
                left -= take
            return CounterResponse(counts=tuple(counts))
        if not view.options or view.options[0].response is None:
            raise AnswerMismatch(view, self, "there is no option to take")
        return view.options[0].response


class _AnyLegal(Answer):
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def fits(self, view: "PromptView") -> bool:
        return view.kind not in _GENERIC_SKIP

    def describe(self) -> str:
        return "any legal answer"

    def respond(self, view: "PromptView") -> Response:
        pool = list(view.scenario.db) if view.kind == "announce_card" else None
        return random_response(view.prompt, self.rng, card_pool=pool)


class _Zone(Answer):
    kinds = frozenset({"place", "disfield"})

    def __init__(self, column: int | None, player: int | None, location: str | int | None) -> None:
        self.column, self.player = column, player
        self.location = None if location is None else words.location_code(location)
        if self.location == words.FIELD_ZONE:
            self.location, self.column = C.LOCATION_SZONE, 5

    def _match(self, view: "PromptView") -> Zone | None:
        for o in view.options:
            z: Zone = o.extra["zone"]
            if self.player is not None and z.player != self.player:
                continue
            if self.player is None and z.player != view.player and any(
                    x.extra["zone"].player == view.player for x in view.options):
                continue                      # own zones first unless a player is named
            if self.location is not None and z.location != self.location:
                continue
            if self.column is not None and z.sequence != self.column:
                continue
            return z
        return None

    def fits(self, view: "PromptView") -> bool:
        # a zone answer waits for a zone question it can answer (where a card is put comes first)
        return view.kind in self.kinds and self._match(view) is not None

    def describe(self) -> str:
        parts = []
        if self.player is not None:
            parts.append(f"player {self.player}'s")
        parts.append(words.location_word(self.location) if self.location else "zone")
        if self.column is not None:
            parts.append(f"#{self.column}")
        return "zone " + " ".join(parts)

    def respond(self, view: "PromptView") -> Response:
        z = self._match(view)
        if z is None:
            raise AnswerMismatch(view, self, "no allowed zone matches")
        return PlaceResponse(zones=(z,))


class _Number(Answer):
    kinds = frozenset({"number"})

    def __init__(self, n: int) -> None:
        self.n = n

    def describe(self) -> str:
        return f"number {self.n}"

    def respond(self, view: "PromptView") -> Response:
        for o in view.options:
            if o.extra.get("number") == self.n:
                return o.response  # type: ignore[return-value]
        raise AnswerMismatch(view, self, f"{self.n} is not among the numbers offered")


class _Declare(Answer):
    kinds = frozenset({"announce_card"})

    def __init__(self, card: int | str) -> None:
        self.card = card

    def describe(self) -> str:
        return f"declare {spec_label(self.card)}"

    def respond(self, view: "PromptView") -> Response:
        code = self.card if isinstance(self.card, int) else view.scenario.code_of(self.card)
        return AnnounceCardResponse(code=code)


def _mask(value: str | int | Iterable, prefix: str) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        value = [value]
    mask = 0
    for v in value:
        if isinstance(v, int):
            mask |= v
            continue
        name = prefix + v.strip().upper().replace(" ", "").replace("-", "")
        if not hasattr(C, name):
            raise ValueError(f"unknown {prefix[:-1].lower()} {v!r}")
        mask |= getattr(C, name)
    return mask


class _Race(Answer):
    kinds = frozenset({"race"})

    def __init__(self, value: Any) -> None:
        self.mask = _mask(value, "RACE_")

    def describe(self) -> str:
        return f"declare Type(s) {words.race_words(self.mask)}"

    def respond(self, view: "PromptView") -> Response:
        return AnnounceRaceResponse(races=self.mask)


class _Attribute(Answer):
    kinds = frozenset({"attribute"})

    def __init__(self, value: Any) -> None:
        self.mask = _mask(value, "ATTRIBUTE_")

    def describe(self) -> str:
        return f"declare Attribute(s) {words.attribute_words(self.mask)}"

    def respond(self, view: "PromptView") -> Response:
        return AnnounceAttribResponse(attributes=self.mask)


class _Counters(Answer):
    kinds = frozenset({"counter"})

    def __init__(self, counts: Any) -> None:
        self.counts = counts

    def describe(self) -> str:
        return f"remove counters {self.counts!r}"

    def respond(self, view: "PromptView") -> Response:
        if isinstance(self.counts, dict):
            out = [0] * len(view.options)
            for spec, n in self.counts.items():
                opt = _pick_cards(view, (spec,), view.options, self)[0]
                out[view.options.index(opt)] = n
            return CounterResponse(counts=tuple(out))
        return CounterResponse(counts=tuple(self.counts))


class _Order(Answer):
    kinds = frozenset({"sort"})

    def __init__(self, specs: tuple | None) -> None:
        self.specs = specs

    def describe(self) -> str:
        return "keep the order" if self.specs is None else "order " + ", ".join(map(spec_label, self.specs))

    def respond(self, view: "PromptView") -> Response:
        if self.specs is None:
            return SortResponse(order=None)
        picked = _pick_cards(view, self.specs, view.options, self)
        if len(picked) != len(view.options):
            raise AnswerMismatch(view, self, f"names {len(picked)} of the {len(view.options)} cards")
        order = [0] * len(view.options)
        for place, opt in enumerate(picked):
            order[view.options.index(opt)] = place
        return SortResponse(order=tuple(order))


class _Cancel(Answer):
    kinds = frozenset({"card", "tribute", "unselect_card"})

    def __init__(self, finish: bool = False) -> None:
        self.finish = finish

    def describe(self) -> str:
        return "finish" if self.finish else "cancel"

    def respond(self, view: "PromptView") -> Response:
        p = view.prompt
        if view.kind == "unselect_card":
            if not (p.cancelable or p.finishable):  # type: ignore[attr-defined]
                raise AnswerMismatch(view, self, "the selection can be neither finished nor cancelled now")
            return UnselectCardResponse(index=None)
        if not p.cancelable:  # type: ignore[attr-defined]
            raise AnswerMismatch(view, self, "the selection cannot be cancelled")
        return CardsResponse(indices=None)


class _Rps(Answer):
    kinds = frozenset({"rps"})

    def __init__(self, choice: str | int) -> None:
        self.choice = choice

    def describe(self) -> str:
        return f"rock-paper-scissors {self.choice!r}"

    def respond(self, view: "PromptView") -> Response:
        for o in view.options:
            if o.index == self.choice or o.label == str(self.choice).lower():
                return o.response  # type: ignore[return-value]
        raise AnswerMismatch(view, self, "say rock, paper or scissors")


class _Custom(Answer):
    def __init__(self, fn: Callable, kinds: Iterable[str] | None) -> None:
        self.fn = fn
        self.only = None if kinds is None else frozenset(kind_of(k) for k in kinds)

    def fits(self, view: "PromptView") -> bool:
        if self.only is not None:
            return view.kind in self.only
        return view.kind not in _GENERIC_SKIP

    def describe(self) -> str:
        return f"the function {getattr(self.fn, '__name__', repr(self.fn))}"

    def respond(self, view: "PromptView") -> Any:
        out = self.fn(view)
        if isinstance(out, Answer):
            if not out.fits(view):
                raise AnswerMismatch(view, self, f"it returned {out.describe()}, which does not fit this prompt")
            return out.respond(view)
        if isinstance(out, (Response, bytes, bytearray)):
            return out
        raise AnswerMismatch(view, self, f"it returned {out!r}: return an answer (choose(...), yes(), ...) "
                                         "or a Response")


class _Raw(Answer):
    def __init__(self, response: Response | bytes | bytearray) -> None:
        self.response = response

    def fits(self, view: "PromptView") -> bool:
        if isinstance(self.response, (bytes, bytearray)):
            return view.kind not in _GENERIC_SKIP
        expected = RESPONSE_TYPES.get(type(view.prompt))
        return expected is not None and isinstance(self.response, expected)

    def describe(self) -> str:
        return repr(self.response)

    def respond(self, view: "PromptView") -> Any:
        return self.response


# ---- the public constructors ------------------------------------------------------------------

def choose(*cards: CardSpec) -> Answer:
    """Choose these cards (code, name, card or predicate) in a card, Tribute, sum or one-at-a-time selection."""
    return _Choose(cards)


def yes() -> Answer:
    """Yes, to a yes/no question or "use this effect?"."""
    return _YesNo(True)


def no() -> Answer:
    """No, to a yes/no question or "use this effect?"."""
    return _YesNo(False)


def activate(card: CardSpec = None, *, desc: int | str | None = None, index: int | None = None) -> Answer:
    """Activate this card's effect when offered (chain window, "use the effect?", or a menu).

    ``desc``: the effect's description number, or a piece of its text;
    ``index``: its place among the card's effects (1 = the first registered)."""
    return _Activate(card, desc, index)


def pass_() -> Answer:
    """Do not chain (chain window) / do not use the effect ("use the effect?")."""
    return _Pass()


def position(pos: str | int) -> Answer:
    """A battle position: "attack", "defense", "face-down defense" (or "set"), or a POS_* value."""
    return _Position(pos)


def option(which: int | str) -> Answer:
    """An option of Duel.SelectOption: its index (0 = the first, as SelectOption returns it) or a piece of its text."""
    return _Option(which)


def nth(n: int) -> Answer:
    """The n-th option of a single-choice prompt, counting from 1 (``nth(2)`` is "the 2nd option")."""
    return _Nth(n)


def first() -> Answer:
    """The first option (for a card selection: the first ``min`` cards)."""
    return _First()


def any_legal(seed: int = 0) -> Answer:
    """Some legal answer (drawn with a seeded generator): for prompts the test does not care about."""
    return _AnyLegal(seed)


def zone(column: int | None = None, *, player: int | None = None, location: str | int | None = None) -> Answer:
    """A zone: column (sequence) 0-6, player (default: the asked player's own zones first),
    location ("monster", "spell", "field zone")."""
    return _Zone(column, player, location)


def number(n: int) -> Answer:
    """Declare this number (Duel.AnnounceNumber)."""
    return _Number(n)


def declare(card: int | str) -> Answer:
    """Declare a card name (Duel.AnnounceCard): a code or a name."""
    return _Declare(card)


def race(value: str | int | Iterable) -> Answer:
    """Declare Type(s): "Dragon", ["Warrior", "Beast"] or a RACE_* mask."""
    return _Race(value)


def attribute(value: str | int | Iterable) -> Answer:
    """Declare Attribute(s): "LIGHT", ["DARK", "FIRE"] or an ATTRIBUTE_* mask."""
    return _Attribute(value)


def counters(counts: dict | Iterable[int]) -> Answer:
    """How many counters to remove from each card: {card: n, ...} or one number per card in order."""
    return _Counters(counts if isinstance(counts, dict) else tuple(counts))


def order(*cards: CardSpec) -> Answer:
    """Sort cards: the card named first gets place 0, the next place 1, ..."""
    return _Order(cards)


def keep_order() -> Answer:
    """Keep the cards of a sort prompt in their order."""
    return _Order(None)


def cancel() -> Answer:
    """Cancel a cancelable card selection."""
    return _Cancel(False)


def finish() -> Answer:
    """Finish a one-card-at-a-time selection now."""
    return _Cancel(True)


def rps(choice: str | int) -> Answer:
    """Rock-paper-scissors: "rock", "paper", "scissors" (or 2, 3, 1)."""
    return _Rps(choice)


def when(kinds: str | Iterable[str], fn: Callable[["PromptView"], Any]) -> Answer:
    """A function answering prompts of these kinds: ``fn(view)`` returns an answer or a Response."""
    return _Custom(fn, [kinds] if isinstance(kinds, str) else kinds)


def as_answer(x: Any) -> Answer:
    """An Answer from an answer, a Response, raw bytes, a callable ``f(view)``, or one of the words
    "yes", "no", "pass", "first", "cancel", "finish", "keep order"."""
    if isinstance(x, Answer):
        return x
    if isinstance(x, (Response, bytes, bytearray)):
        return _Raw(x)
    if callable(x):
        return _Custom(x, None)
    if isinstance(x, str) and x.strip().lower() in _WORDS:
        return _WORDS[x.strip().lower()]()
    raise TypeError(f"{x!r} is not an answer: use choose(...), yes(), position(...), a Response, a function "
                    f"or one of the words {', '.join(sorted(_WORDS))}")


_WORDS: dict[str, Callable[[], Answer]] = {
    "yes": yes, "no": no, "pass": pass_, "first": first, "cancel": cancel, "finish": finish,
    "keep order": keep_order,
}


class Answers:
    """The answers a scenario gives: a queue (used in order) and rules (by kind of prompt)."""

    def __init__(self) -> None:
        self._queue: deque[Answer] = deque()
        self._rules: list[list] = []       # [kind, answer, times left or None]

    def queue(self, *answers: Any) -> "Answers":
        """Answer the next prompts with these, in order."""
        self._queue.extend(as_answer(a) for a in answers)
        return self

    add = queue

    def on(self, kind: Any, answer: Any, *, times: int | None = None) -> "Answers":
        """Answer every prompt of this kind ("position", "yes_no", "chain", "SELECT_CARD", a prompt class)
        with ``answer`` (``times`` limits how often)."""
        self._rules.append([kind_of(kind), as_answer(answer), times])
        return self

    def clear(self) -> None:
        self._queue.clear()
        self._rules.clear()

    def pending(self) -> list[Answer]:
        """Queued answers not used yet."""
        return list(self._queue)

    def pick(self, view: "PromptView") -> Answer | None:
        """The answer for this prompt (taken off the queue unless it stays for a multi-step choice)."""
        q = self._queue
        while q and q[0].sticky and not q[0].fits(view):
            q.popleft()                      # a one-at-a-time choice the duel ended by itself
        if q and q[0].fits(view):
            return q[0]
        for rule in self._rules:
            kind, answer, times = rule
            if kind == view.kind and answer.fits(view) and (times is None or times > 0):
                return answer
        return None

    def unused(self) -> list[Answer]:
        """Queued answers never used at all (a one-at-a-time choice in progress counts as used)."""
        return [a for a in self._queue if not getattr(a, "_used", False)]

    def used(self, answer: Answer, view: "PromptView") -> None:
        """Book-keeping after ``answer`` responded to ``view``."""
        answer._used = True  # type: ignore[attr-defined]
        q = self._queue
        if q and q[0] is answer:
            if answer.done(view):
                q.popleft()
            return
        for rule in self._rules:
            if rule[1] is answer and rule[2] is not None:
                rule[2] -= 1
                break
