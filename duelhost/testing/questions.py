"""A pending prompt seen as a question: who is asked, what kind of choice, every option.

``PromptView`` pairs a prompt message (engine/messages.py) with the engine's
own lists behind it (the cards and chain links the processor offers while it
waits), so every option knows its engine card and its effect.  Scripted answers
(answers.py) pick options from it; ``describe()`` is the text a test failure
shows.  A view is valid only while its prompt is pending.

What the prompt kinds are, their short names and the sentence saying what is
asked come from the kind objects (duelhost.engine.prompt_kinds); this module
adds the engine's cards and effects behind each option, and the names a
scenario gives them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from duelhost.engine import constants as C
from duelhost.engine.constants import HINT_SELECTMSG
from duelhost.engine import prompt_kinds as PK
from duelhost.engine.messages import (LocInfo, MsgAnnounceAttrib, MsgAnnounceNumber, MsgAnnounceRace, MsgHint,
                                      MsgSelectBattleCmd, MsgSelectCard, MsgSelectChain, MsgSelectCounter,
                                      MsgSelectEffectYn, MsgSelectIdleCmd, MsgSelectOption, MsgSelectPlace,
                                      MsgSelectPosition, MsgSelectSum, MsgSelectTribute,
                                      MsgSelectUnselectCard, MsgSortCard, Prompt)
from duelhost.engine.responses import (AnnounceNumberResponse, BattleCmdResponse, CardsResponse, ChainResponse,
                                       IdleCmdResponse, OptionResponse, PlaceResponse, PositionResponse,
                                       Response, RpsResponse, UnselectCardResponse, YesNoResponse)

from . import words

if TYPE_CHECKING:
    from duelhost.engine.card import Card
    from duelhost.engine.effect import Effect

__all__ = ["KINDS", "CONTROL_KINDS", "Option", "PromptView", "kind_of", "card_at"]

KINDS: dict[type[Prompt], str] = {cls: kind.name for cls, kind in PK.KINDS.items()}
"""Short names of the prompt kinds (the keys of answer rules): the kind objects' names."""

CONTROL_KINDS = frozenset({"idle", "battle", "chain"})
"""Where the test is in control: the Main/Battle Phase menus and chain windows that offer something."""

_ALIASES = {
    "yesno": "yes_no", "effectyn": "effect_yes_no", "effect_yn": "effect_yes_no", "select_card": "card",
    "cards": "card", "zone": "place", "announce_number": "number", "announce_race": "race",
    "announce_attrib": "attribute", "announce_attribute": "attribute", "declare": "announce_card",
    "idlecmd": "idle", "battlecmd": "battle", "select_chain": "chain", "unselect": "unselect_card",
}


def kind_of(key: Any) -> str:
    """The short kind name for a prompt class, its NAME ("SELECT_POSITION") or a short name."""
    if isinstance(key, type):
        if key in KINDS:
            return KINDS[key]
        raise ValueError(f"{key.__name__} is not a prompt class")
    text = str(key).strip().lower().replace("-", "_").replace(" ", "_")
    if text.startswith("msg_"):
        text = text[4:]
    if text in PK.KINDS_BY_NAME:
        return text
    if text in _ALIASES:
        return _ALIASES[text]
    for cls, kind in PK.KINDS.items():
        if cls.NAME.lower() == text:
            return kind.name
    raise ValueError(f"unknown prompt kind {key!r}; kinds are: {', '.join(sorted(set(KINDS.values())))}")


def card_at(engine: Any, loc: LocInfo) -> "Card | None":
    """The engine card a message's location names (Xyz materials included)."""
    if loc.location & C.LOCATION_OVERLAY:
        holder = engine.get_field_card(loc.controller, loc.location & 0x7F, loc.sequence)
        if holder is None or loc.position >= len(holder.xyz_materials):
            return None
        return holder.xyz_materials[loc.position]
    return engine.get_field_card(loc.controller, loc.location, loc.sequence)


@dataclass
class Option:
    """One thing the asked player may choose."""

    label: str
    card: "Card | None" = None
    response: Response | None = None       # what choosing this option alone sends
    action: str | None = None              # "activate", "summon", "attack", "pass", ...
    effect: "Effect | None" = None
    description: int = 0
    index: int = 0                         # index in the prompt's own list
    extra: dict = field(default_factory=dict)


class PromptView:
    """A pending prompt with its options (see the module docstring)."""

    def __init__(self, scenario: Any, prompt: Prompt) -> None:
        self.scenario = scenario
        self.prompt = prompt
        self.kind = KINDS.get(type(prompt), type(prompt).__name__)
        self.player = prompt.player
        self.hint = self._hint()
        self.options: list[Option] = []
        self.must: list[Option] = []           # SELECT_SUM's must-select cards
        self.selected: list[Option] = []       # SELECT_UNSELECT_CARD's already chosen cards
        builder = getattr(self, "_build_" + self.kind, None)
        if builder is not None:
            builder()

    # ----- helpers -------------------------------------------------------------------------------

    @property
    def engine(self) -> Any:
        return self.scenario.engine

    @property
    def core(self) -> Any:
        return self.scenario.engine.core

    def _words(self, card: "Card | None", code: int = 0) -> str:
        if card is None:
            return f"{self.scenario.card_name(code)} ({code})"
        return words.card_words(self.scenario, card)

    def _desc(self, desc: int) -> str:
        return words.desc_words(self.scenario, desc)

    def _hint(self) -> str:
        """The selection hint the core sent the asked player just before the prompt."""
        msgs = self.scenario.engine.messages
        for m in reversed(msgs[-12:-1]):
            if isinstance(m, MsgHint):
                if m.type == HINT_SELECTMSG and m.player == self.player:
                    if self.kind in ("place", "disfield") and m.data in self.scenario.db:
                        return f"where to put {self.scenario.card_name(m.data)} ({m.data})"
                    return words.desc_words(self.scenario, m.data)
                continue
            if isinstance(m, Prompt):
                break
        return ""

    def _lined_up(self, lst: list, n: int) -> list:
        """The engine list behind a prompt list, if it lines up (else Nones)."""
        return list(lst) if len(lst) == n else [None] * n

    def _chain_option(self, ch: Any, code: int, desc: int, resp: Response, i: int,
                      forced: bool = False) -> Option:
        eff = ch.triggering_effect if ch is not None else None
        card = eff.get_handler() if eff is not None else None
        label = "activate " + self._words(card, code)
        if desc:
            label += f" — {self._desc(desc)}"
        if eff is not None:
            idx = self.scenario.effect_index(eff)
            if idx is not None:
                label += f" [effect #{idx}]"
        if forced:
            label += " (mandatory)"
        return Option(label=label, card=card, response=resp, action="activate", effect=eff,
                      description=desc, index=i)

    # ----- builders --------------------------------------------------------------------------------

    def _build_idle(self) -> None:
        p: MsgSelectIdleCmd = self.prompt  # type: ignore[assignment]
        core = self.core
        names = ("Normal Summon", "Special Summon", "change the battle position of", "Set (monster)",
                 "Set (Spell/Trap)")
        actions = ("summon", "special_summon", "reposition", "set", "set")
        engine_lists = (core.summonable_cards, core.spsummonable_cards, core.repositionable_cards,
                        core.msetable_cards, core.ssetable_cards)
        for cmd, (infos, elist) in enumerate(zip(p.card_lists, engine_lists)):
            cards = self._lined_up(elist, len(infos))
            for i, (info, card) in enumerate(zip(infos, cards)):
                self.options.append(Option(label=f"{names[cmd]} {self._words(card, info.code)}", card=card,
                                           response=IdleCmdResponse(command=cmd, index=i),
                                           action=actions[cmd], index=i, extra={"command": cmd}))
        chains = self._lined_up(core.select_chains, len(p.activatable))
        for i, (eo, ch) in enumerate(zip(p.activatable, chains)):
            opt = self._chain_option(ch, eo.card_code, eo.description, IdleCmdResponse(command=5, index=i), i)
            opt.extra["command"] = 5
            self.options.append(opt)
        if p.can_battle_phase:
            self.options.append(Option(label="go to the Battle Phase", response=IdleCmdResponse(command=6),
                                       action="battle_phase"))
        if p.can_end_phase:
            self.options.append(Option(label="go to the End Phase", response=IdleCmdResponse(command=7),
                                       action="end_phase"))
        if p.can_shuffle:
            self.options.append(Option(label="shuffle the hand", response=IdleCmdResponse(command=8),
                                       action="shuffle"))

    def _build_battle(self) -> None:
        p: MsgSelectBattleCmd = self.prompt  # type: ignore[assignment]
        core = self.core
        chains = self._lined_up(core.select_chains, len(p.activatable))
        for i, (eo, ch) in enumerate(zip(p.activatable, chains)):
            self.options.append(self._chain_option(ch, eo.card_code, eo.description,
                                                   BattleCmdResponse(command=0, index=i), i))
        attackers = self._lined_up(core.attackable_cards, len(p.attackable))
        for i, (ac, card) in enumerate(zip(p.attackable, attackers)):
            direct = " (can attack directly)" if ac.direct_attackable else ""
            self.options.append(Option(label=f"attack with {self._words(card, ac.code)}{direct}", card=card,
                                       response=BattleCmdResponse(command=1, index=i), action="attack", index=i))
        if p.can_main2:
            self.options.append(Option(label="go to Main Phase 2", response=BattleCmdResponse(command=2),
                                       action="main2"))
        if p.can_end_phase:
            self.options.append(Option(label="go to the End Phase", response=BattleCmdResponse(command=3),
                                       action="end_phase"))

    def _build_chain(self) -> None:
        p: MsgSelectChain = self.prompt  # type: ignore[assignment]
        chains = self._lined_up(self.core.select_chains, len(p.chains))
        for i, (co, ch) in enumerate(zip(p.chains, chains)):
            self.options.append(self._chain_option(ch, co.code, co.description, ChainResponse(index=i), i,
                                                   forced=bool(co.forced)))
        if not p.has_forced:
            self.options.append(Option(label="pass (do not chain)", response=ChainResponse(index=None),
                                       action="pass"))

    def _build_effect_yes_no(self) -> None:
        p: MsgSelectEffectYn = self.prompt  # type: ignore[assignment]
        card = card_at(self.engine, p.loc)
        if card is not None and card.data.code != p.code:
            card = None
        self.subject = card
        what = self._words(card, p.code)
        desc = f" — {self._desc(p.description)}" if p.description else ""
        effect = None
        for ch in self.core.select_chains:           # the trigger the question is about, when it is one
            eff = ch.triggering_effect
            if eff is not None and card is not None and eff.get_handler() is card:
                effect = eff
                break
        if effect is not None:
            idx = self.scenario.effect_index(effect)
            own = self._desc(effect.description) if effect.description else ""
            if idx is not None or own:
                desc += " [" + (f"effect #{idx}" if idx is not None else "its effect") + (
                    f": {own}" if own else "") + "]"
        self.options.append(Option(label=f"yes: use the effect of {what}{desc}", card=card,
                                   response=YesNoResponse(yes=True), action="activate", effect=effect,
                                   description=p.description))
        self.options.append(Option(label="no", card=card, response=YesNoResponse(yes=False), action="pass"))

    def _build_yes_no(self) -> None:
        self.options.append(Option(label="yes", response=YesNoResponse(yes=True), action="yes"))
        self.options.append(Option(label="no", response=YesNoResponse(yes=False), action="no"))

    def _build_option(self) -> None:
        p: MsgSelectOption = self.prompt  # type: ignore[assignment]
        for i, desc in enumerate(p.options):
            self.options.append(Option(label=self._desc(desc) or f"option {i}", response=OptionResponse(index=i),
                                       description=desc, index=i))

    def _cards(self, elist: list, shown: tuple) -> list[Option]:
        cards = self._lined_up(elist, len(shown))
        out = []
        for i, (sc, card) in enumerate(zip(shown, cards)):
            out.append(Option(label=self._words(card, sc.code), card=card, index=i))
        return out

    def _build_card(self) -> None:
        p: MsgSelectCard = self.prompt  # type: ignore[assignment]
        self.options = self._cards(self.core.select_cards, p.cards)
        for o in self.options:
            o.response = CardsResponse(indices=(o.index,))

    def _build_tribute(self) -> None:
        p: MsgSelectTribute = self.prompt  # type: ignore[assignment]
        self.options = self._cards(self.core.select_cards, p.cards)
        for o, tc in zip(self.options, p.cards):
            if tc.release_param != 1:
                o.label += f" (counts as {tc.release_param} Tributes)"
            o.response = CardsResponse(indices=(o.index,))

    def _build_unselect_card(self) -> None:
        p: MsgSelectUnselectCard = self.prompt  # type: ignore[assignment]
        self.options = self._cards(self.core.select_cards, p.selectable)
        self.selected = self._cards(self.core.unselect_cards, p.unselectable)
        n = len(self.options)
        for o in self.options:
            o.response = UnselectCardResponse(index=o.index)
        for o in self.selected:
            o.index += n
            o.response = UnselectCardResponse(index=o.index)
            o.label += " (already chosen: choosing it again takes it back)"

    def _build_sum(self) -> None:
        p: MsgSelectSum = self.prompt  # type: ignore[assignment]
        self.must = self._cards(self.core.must_select_cards, p.must_cards)
        self.options = self._cards(self.core.select_cards, p.cards)
        for o, sc in zip(self.must + self.options, p.must_cards + p.cards):
            a, b = sc.values
            o.label += f" (counts {a}" + (f" or {b}" if b else "") + ")"
        for o in self.must:
            o.label += " (always included)"

    def _build_counter(self) -> None:
        p: MsgSelectCounter = self.prompt  # type: ignore[assignment]
        self.options = self._cards(self.core.select_cards, p.cards)
        for o, cc in zip(self.options, p.cards):
            o.label += f" (has {cc.counter_count})"

    def _build_sort(self) -> None:
        p: MsgSortCard = self.prompt  # type: ignore[assignment]
        self.options = self._cards(self.core.select_cards, p.cards)

    def _build_place(self) -> None:
        p: MsgSelectPlace = self.prompt  # type: ignore[assignment]
        for zone in PK.free_zones(p):
            player, location, seq = zone.player, zone.location, zone.sequence
            label = words.zone_word(player, location, seq)
            occupant = self.engine.get_field_card(player, location, seq)
            if occupant is not None:
                label += f" (holds {words.card_label(self.scenario, occupant)})"
            self.options.append(Option(label=label, response=PlaceResponse(zones=(zone,)), index=len(self.options),
                                       extra={"zone": zone}))

    _build_disfield = _build_place

    def _build_position(self) -> None:
        p: MsgSelectPosition = self.prompt  # type: ignore[assignment]
        for bit in (C.POS_FACEUP_ATTACK, C.POS_FACEDOWN_ATTACK, C.POS_FACEUP_DEFENSE, C.POS_FACEDOWN_DEFENSE):
            if p.positions & bit:
                self.options.append(Option(label=words.position_word(bit), response=PositionResponse(position=bit),
                                           index=bit))

    def _build_race(self) -> None:
        p: MsgAnnounceRace = self.prompt  # type: ignore[assignment]
        for bit in range(32):
            v = 1 << bit
            if p.available & v:
                self.options.append(Option(label=words.race_words(v), index=v))

    def _build_attribute(self) -> None:
        p: MsgAnnounceAttrib = self.prompt  # type: ignore[assignment]
        for bit in range(7):
            v = 1 << bit
            if p.available & v:
                self.options.append(Option(label=words.attribute_words(v), index=v))

    def _build_number(self) -> None:
        p: MsgAnnounceNumber = self.prompt  # type: ignore[assignment]
        for i, n in enumerate(p.options):
            self.options.append(Option(label=str(n), response=AnnounceNumberResponse(index=i), index=i,
                                       extra={"number": n}))

    def _build_rps(self) -> None:
        for v, name in ((1, "scissors"), (2, "rock"), (3, "paper")):
            self.options.append(Option(label=name, response=RpsResponse(choice=v), index=v))

    # ----- words ---------------------------------------------------------------------------------

    def __str__(self) -> str:
        return self.describe(board=False)

    def __repr__(self) -> str:
        return f"<PromptView {self.kind} of player {self.player}: {len(self.options)} option(s)>"

    def who(self) -> str:
        eng = self.engine
        tp = eng.infos.turn_player
        role = "the turn player" if self.player == tp else "the non-turn player"
        return f"Player {self.player} ({role})"

    def what(self) -> str:
        """What kind of choice, in words: the kind object's sentence, with this scenario's
        names for cards, texts and counters and the phase and chain behind the prompt."""
        return PK.kind_of(self.prompt).what(self.prompt, _ViewWords(self))

    def describe(self, *, board: bool = True) -> str:
        """Who is asked, what kind of choice, every option (with card names), and the board."""
        lines = [f"{self.who()} must {self.what()}.", f"  prompt: {self.prompt.NAME}"]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        chain = self.scenario.engine.core.current_chain
        if chain and self.kind != "idle":
            links = ", ".join(f"{i + 1}. {words.card_label(self.scenario, ch.triggering_effect.get_handler())}"
                              for i, ch in enumerate(chain))
            lines.append(f"  chain so far: {links}")
        if self.must:
            lines.append("  always included:")
            lines.extend(f"    - {o.label}" for o in self.must)
        if self.options:
            lines.append("  options:")
            lines.extend(f"    {i + 1}. {o.label}" for i, o in enumerate(self.options))
        elif self.kind == "announce_card":
            lines.append(f"  filter program: {list(self.prompt.options)}")  # type: ignore[attr-defined]
        if self.selected:
            lines.append("  already chosen:")
            lines.extend(f"    - {o.label}" for o in self.selected)
        if board:
            lines.append("")
            lines.append(self.scenario.board())
        return "\n".join(lines)


class _ViewWords(PK.PromptWords):
    """A scenario's names, for the kind objects' sentences (PromptKind.what)."""

    def __init__(self, view: PromptView) -> None:
        super().__init__(view.scenario.card_name)
        self.view = view

    def card(self, code: int) -> str:
        subject = getattr(self.view, "subject", None)        # SELECT_EFFECTYN's card, when found
        return self.view._words(subject if subject is not None and subject.data.code == code else None, code)

    def text(self, description: int) -> str:
        return self.view._desc(description)

    def counters(self, counter_type: int, count: int) -> str:
        return words.counter_words(self.view.scenario, counter_type, count)

    def phase(self) -> str:
        return words.phase_word(self.view.engine.infos.phase)

    def chain_size(self) -> int | None:
        return len(self.view.core.current_chain)
