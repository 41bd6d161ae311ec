"""Cards, zones, positions and effect descriptions in words, for test output.

Everything a failing test prints goes through here: a card is its name and code
plus where it is ("player 1's Monster Zone #2, face-up Attack Position"), an
effect description number is the text of the card string it names, a counter
type can carry a name the test gave it.  Nothing here changes the duel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from duelhost.engine import constants as C

if TYPE_CHECKING:
    from duelhost.engine.card import Card

__all__ = [
    "LOCATIONS", "POSITIONS", "PHASES", "location_code", "position_code", "phase_code",
    "location_word", "zone_word", "position_word", "phase_word", "card_label", "card_words",
    "desc_words", "race_words", "attribute_words", "effect_words", "counter_words",
    "reason_words", "SYSTEM_STRINGS", "stringid", "string_owner",
]

# ---- the test's vocabulary -> engine values ---------------------------------------------

FIELD_ZONE = -1          # placeholders: zones that are a location plus a fixed sequence
PENDULUM_ZONE = -2

LOCATIONS: dict[str, int] = {
    "hand": C.LOCATION_HAND,
    "deck": C.LOCATION_DECK, "main deck": C.LOCATION_DECK,
    "extra": C.LOCATION_EXTRA, "extra deck": C.LOCATION_EXTRA,
    "gy": C.LOCATION_GRAVE, "grave": C.LOCATION_GRAVE, "graveyard": C.LOCATION_GRAVE,
    "banished": C.LOCATION_REMOVED, "removed": C.LOCATION_REMOVED, "banish": C.LOCATION_REMOVED,
    "monster": C.LOCATION_MZONE, "mzone": C.LOCATION_MZONE, "monster zone": C.LOCATION_MZONE,
    "spell": C.LOCATION_SZONE, "trap": C.LOCATION_SZONE, "szone": C.LOCATION_SZONE,
    "spell/trap": C.LOCATION_SZONE, "s/t": C.LOCATION_SZONE, "spell & trap zone": C.LOCATION_SZONE,
    "spell zone": C.LOCATION_SZONE, "spell/trap zone": C.LOCATION_SZONE,
    "field": FIELD_ZONE, "field zone": FIELD_ZONE, "fzone": FIELD_ZONE,
    "pendulum": PENDULUM_ZONE, "pendulum zone": PENDULUM_ZONE, "pzone": PENDULUM_ZONE,
    "material": C.LOCATION_OVERLAY, "overlay": C.LOCATION_OVERLAY, "xyz material": C.LOCATION_OVERLAY,
}

POSITIONS: dict[str, int] = {
    "attack": C.POS_FACEUP_ATTACK, "atk": C.POS_FACEUP_ATTACK, "face-up attack": C.POS_FACEUP_ATTACK,
    "faceup attack": C.POS_FACEUP_ATTACK, "attack position": C.POS_FACEUP_ATTACK,
    "defense": C.POS_FACEUP_DEFENSE, "def": C.POS_FACEUP_DEFENSE, "face-up defense": C.POS_FACEUP_DEFENSE,
    "faceup defense": C.POS_FACEUP_DEFENSE, "defense position": C.POS_FACEUP_DEFENSE,
    "defence": C.POS_FACEUP_DEFENSE, "defence position": C.POS_FACEUP_DEFENSE,
    "face-down defense": C.POS_FACEDOWN_DEFENSE, "facedown defense": C.POS_FACEDOWN_DEFENSE,
    "set": C.POS_FACEDOWN_DEFENSE,
    "face-down attack": C.POS_FACEDOWN_ATTACK, "facedown attack": C.POS_FACEDOWN_ATTACK,
    "face-up": C.POS_FACEUP, "faceup": C.POS_FACEUP,
    "face-down": C.POS_FACEDOWN, "facedown": C.POS_FACEDOWN,
}

PHASES: dict[str, int] = {
    "draw": C.PHASE_DRAW, "standby": C.PHASE_STANDBY,
    "main1": C.PHASE_MAIN1, "main 1": C.PHASE_MAIN1, "main phase 1": C.PHASE_MAIN1, "main": C.PHASE_MAIN1,
    "battle": C.PHASE_BATTLE_START, "battle phase": C.PHASE_BATTLE_START,
    "main2": C.PHASE_MAIN2, "main 2": C.PHASE_MAIN2, "main phase 2": C.PHASE_MAIN2,
    "end": C.PHASE_END, "end phase": C.PHASE_END,
}


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").split())


def location_code(where: str | int) -> int:
    """A location word ("hand", "gy", "monster", "field zone", ...) or LOCATION_* value."""
    if isinstance(where, int):
        return where
    key = _norm(where)
    if key not in LOCATIONS:
        known = ", ".join(sorted({k for k in LOCATIONS if " " not in k}))
        raise ValueError(f"unknown location {where!r}; say one of: {known}")
    return LOCATIONS[key]


def position_code(position: str | int) -> int:
    """A position word ("attack", "defense", "set", "face-down", ...) or POS_* value."""
    if isinstance(position, int):
        return position
    key = _norm(position)
    if key not in POSITIONS:
        raise ValueError(f"unknown position {position!r}; say one of: attack, defense, "
                         "face-down defense (or set), face-down attack, face-up, face-down")
    return POSITIONS[key]


def phase_code(phase: str | int) -> int:
    if isinstance(phase, int):
        return phase
    key = _norm(phase)
    if key not in PHASES:
        raise ValueError(f"unknown phase {phase!r}; say one of: draw, standby, main1, battle, main2, end")
    return PHASES[key]


# ---- engine values -> words ---------------------------------------------------------------

_LOCATION_WORDS = {
    C.LOCATION_DECK: "Deck", C.LOCATION_HAND: "hand", C.LOCATION_MZONE: "Monster Zone",
    C.LOCATION_SZONE: "Spell & Trap Zone", C.LOCATION_GRAVE: "GY", C.LOCATION_REMOVED: "banishment",
    C.LOCATION_EXTRA: "Extra Deck", C.LOCATION_OVERLAY: "Xyz materials",
}

_PHASE_WORDS = {
    C.PHASE_DRAW: "Draw Phase", C.PHASE_STANDBY: "Standby Phase", C.PHASE_MAIN1: "Main Phase 1",
    C.PHASE_BATTLE_START: "Battle Phase (start step)", C.PHASE_BATTLE_STEP: "Battle Phase (battle step)",
    C.PHASE_DAMAGE: "Damage Step", C.PHASE_DAMAGE_CAL: "Damage Step (damage calculation)",
    C.PHASE_BATTLE: "Battle Phase (end step)", C.PHASE_MAIN2: "Main Phase 2", C.PHASE_END: "End Phase",
}


def location_word(location: int) -> str:
    if location & C.LOCATION_OVERLAY:
        return "Xyz materials"
    return _LOCATION_WORDS.get(location, f"location 0x{location:x}")


def phase_word(phase: int) -> str:
    return _PHASE_WORDS.get(phase, f"phase 0x{phase:x}")


def position_word(position: int) -> str:
    """Battle position words: "face-up Attack Position", "face-down" (a Set Spell/Trap), ..."""
    names = {C.POS_FACEUP_ATTACK: "face-up Attack Position", C.POS_FACEDOWN_ATTACK: "face-down Attack Position",
             C.POS_FACEUP_DEFENSE: "face-up Defense Position",
             C.POS_FACEDOWN_DEFENSE: "face-down Defense Position",
             C.POS_FACEUP: "face-up", C.POS_FACEDOWN: "face-down",
             C.POS_ATTACK: "Attack Position", C.POS_DEFENSE: "Defense Position"}
    return names.get(position & 0xF, f"position 0x{position:x}")


def zone_word(controller: int, location: int, sequence: int, *, pzone: bool = False,
              duel_rule: int = 5) -> str:
    """ "player 0's Monster Zone #2", "player 1's Field Zone", "player 0's hand #1"."""
    who = f"player {controller}'s"
    if location == C.LOCATION_MZONE:
        if sequence == 5:
            return f"{who} Extra Monster Zone (left, #5)"
        if sequence == 6:
            return f"{who} Extra Monster Zone (right, #6)"
        return f"{who} Monster Zone #{sequence}"
    if location == C.LOCATION_SZONE:
        if sequence == 5:
            return f"{who} Field Zone"
        if pzone:
            left = sequence in (0, 6)
            return f"{who} Pendulum Zone ({'left' if left else 'right'}, Spell & Trap Zone #{sequence})"
        return f"{who} Spell & Trap Zone #{sequence}"
    if location == C.LOCATION_DECK:
        return f"{who} Deck (#{sequence} from the bottom)"
    if location == C.LOCATION_REMOVED:
        return f"banished by player {controller} (#{sequence})"
    if location == 0:
        return "nowhere (no longer in the duel)"
    return f"{who} {location_word(location)} #{sequence}"


def card_label(duel: Any, card: "Card") -> str:
    """ "Cinderwood Torch Bearer (190000006)"."""
    code = card.data.code
    return f"{duel.card_name(code)} ({code})"


def counter_words(duel: Any, counter_type: int, count: int | None = None) -> str:
    names = getattr(duel, "counter_names", None) or {}
    name = names.get(counter_type) or names.get(counter_type & 0xFFF)
    label = name if name else f"counter 0x{counter_type:x}"
    return label if count is None else f"{count} x {label}"


def card_words(duel: Any, card: "Card", *, stats: bool = True) -> str:
    """A card with its zone, position, stats, counters, materials and equip target."""
    cur = card.current
    text = card_label(duel, card)
    if card.overlay_target is not None:
        holder = card.overlay_target
        text += f", Xyz material of {card_label(duel, holder)} in " + zone_word(
            holder.current.controler, holder.current.location, holder.current.sequence)
        return text
    rule = getattr(getattr(card, "duel", None), "core", None)
    text += ", " + zone_word(cur.controler, cur.location, cur.sequence, pzone=bool(card.current.pzone),
                             duel_rule=getattr(rule, "duel_rule", 5))
    if cur.location & (C.LOCATION_MZONE | C.LOCATION_SZONE):
        if cur.location == C.LOCATION_MZONE:
            text += ", " + position_word(cur.position)
        else:
            text += ", face-up" if cur.position & C.POS_FACEUP else ", face-down"
    elif cur.location in (C.LOCATION_EXTRA, C.LOCATION_REMOVED) and cur.position & C.POS_FACEDOWN:
        text += ", face-down"
    if stats and cur.location == C.LOCATION_MZONE:
        atk, dfn = card.get_atk_def()
        data = card.data
        if data.type & C.TYPE_LINK:
            text += f", ATK {atk}, Link-{card.get_link()}"
        else:
            text += f", ATK {atk} / DEF {dfn}"
            if data.type & C.TYPE_XYZ:
                text += f", Rank {card.get_rank()}"
            elif card.get_level():
                text += f", Level {card.get_level()}"
    if card.counters:
        text += ", counters: " + ", ".join(counter_words(duel, t, n)
                                           for t, n in sorted(card.counters.items()) if n)
    if card.xyz_materials:
        text += ", materials: " + ", ".join(card_label(duel, m) for m in card.xyz_materials)
    if card.equiping_target is not None:
        text += f", equipped to {card_label(duel, card.equiping_target)}"
    return text


# ---- descriptions ------------------------------------------------------------------------

SYSTEM_STRINGS: dict[int, str] = {
    30: "attack again?", 31: "attack directly?", 94: "activate this card's effect?",
    95: "use an effect?", 96: "use the effect of this card?", 97: "chain a card or effect?",
    221: "activate this card's trigger effect?",
    500: "choose a monster to Tribute", 501: "choose a card to discard", 502: "choose a card to destroy",
    503: "choose a card to banish", 504: "choose a card to send to the GY",
    505: "choose a card to return to the hand", 506: "choose a card to add to the hand",
    507: "choose a card to return to the Deck", 508: "choose a monster to Normal Summon",
    509: "choose a monster to Special Summon", 510: "choose a card to Set",
    511: "choose Fusion Materials", 512: "choose Synchro Materials", 513: "choose Xyz Materials",
    514: "choose a face-up card", 515: "choose a face-down card", 516: "choose a monster in Attack Position",
    517: "choose a monster in Defense Position", 518: "choose a card to equip",
    519: "choose an Xyz Material to detach", 520: "choose a monster to take control of",
    521: "choose a card to destroy instead", 522: "choose face-up Attack Position",
    523: "choose face-up Defense Position", 524: "choose face-down Attack Position",
    525: "choose face-down Defense Position", 526: "choose a card to reveal",
    527: "choose a card to place on the field", 528: "choose a monster to change its position",
    529: "choose your own card", 530: "choose your opponent's card", 531: "choose monsters to Tribute",
    532: "choose a monster to detach materials from", 533: "choose Link Materials",
    549: "choose the attack target", 550: "choose an effect to activate", 551: "choose the target",
    552: "call the coin toss", 553: "choose a die result", 554: "choose a card type",
    555: "choose an option", 556: "choose an effect to resolve", 560: "choose", 561: "choose a position",
    562: "declare an Attribute", 563: "declare a Type", 564: "declare a card name",
    565: "declare a number", 567: "declare a Level/Rank", 568: "choose a card to resolve",
    569: "choose a zone", 570: "choose a zone to disable", 571: "choose a zone to move to",
    572: "choose a card to remove counters from", 573: "choose an effect to negate",
    574: "choose a card to operate on",
    1150: "activate", 1151: "Normal Summon", 1152: "Special Summon", 1153: "Set",
    1154: "Flip Summon", 1155: "to Defense Position", 1156: "to Attack Position", 1157: "attack",
    1160: "activate (Pendulum Zone)",
}
"""Our own short wording of the system strings (description numbers below 2048)
that prompts commonly carry; the client's strings.conf is not part of duelhost."""


def stringid(code: int, index: int) -> int:
    """``aux.Stringid(code, index)`` as an effect or prompt carries it (32 bits, like the reference)."""
    return (code * 16 + index) & 0xFFFFFFFF


def string_owner(db: Any, desc: int) -> tuple[int, int]:
    """(card code, string index) of a card-string description.  The reference keeps descriptions
    in 32 bits, so for codes of 2^28 and above (some real 9-digit codes) ``code*16+n`` wraps: the
    candidates are ``(desc >> 4) + k * 2^28``; the first with a database row wins."""
    base, index = (desc & 0xFFFFFFFF) >> 4, desc & 0xF
    for k in range(16):
        code = base + (k << 28)
        if code in db:
            return code, index
    return base, index


def desc_words(duel: Any, desc: int) -> str:
    """The text a description number stands for: a card string (code*16+n) or a system string."""
    if not desc:
        return ""
    if desc < 2048:
        text = SYSTEM_STRINGS.get(desc)
        return f'"{text}" (system string {desc})' if text else f"system string {desc}"
    code, index = string_owner(duel.db, desc)
    rec = duel.db.find(code) if code in duel.db else None
    if rec is None:
        return f"string {index} of card {code} (no database row)"
    text = rec.strings[index] if index < len(rec.strings) else ""
    if text:
        return f'"{text}" (string {index} of {rec.name})'
    return f"string {index} of {rec.name} (empty in the database)"


def _mask_words(mask: int, prefix: str) -> list[str]:
    out = []
    for name in dir(C):
        if name.startswith(prefix) and not name.endswith("_ALL"):
            v = getattr(C, name)
            if isinstance(v, int) and v and v & (v - 1) == 0 and mask & v:
                out.append((v, name[len(prefix):].replace("_", " ").title()))
    return [w for _, w in sorted(out)]


def race_words(mask: int) -> str:
    return ", ".join(_mask_words(mask, "RACE_")) or "none"


def attribute_words(mask: int) -> str:
    return ", ".join(_mask_words(mask, "ATTRIBUTE_")) or "none"


def reason_words(reason: int) -> str:
    return "|".join(_mask_words(reason, "REASON_")).upper() or "0"


def _constant_name(value: int, prefix: str, exclude: tuple[str, ...] = ()) -> str | None:
    for name in dir(C):
        if name.startswith(prefix) and not name.startswith(exclude) and getattr(C, name) == value:
            return name
    return None


_EFFECT_TYPES = (
    (C.EFFECT_TYPE_ACTIVATE, "activation of the card"), (C.EFFECT_TYPE_IGNITION, "ignition effect"),
    (C.EFFECT_TYPE_TRIGGER_O, "optional trigger effect"), (C.EFFECT_TYPE_TRIGGER_F, "mandatory trigger effect"),
    (C.EFFECT_TYPE_QUICK_O, "quick effect"), (C.EFFECT_TYPE_QUICK_F, "mandatory quick effect"),
    (C.EFFECT_TYPE_CONTINUOUS, "continuous effect"), (C.EFFECT_TYPE_FIELD, "field effect"),
    (C.EFFECT_TYPE_EQUIP, "equip effect"), (C.EFFECT_TYPE_SINGLE, "single effect"),
)


def effect_words(duel: Any, *, effect_type: int | None, code: int | None, description: int | None,
                 index: int | None = None, count: int | None = None) -> str:
    """ "effect #2 of 3 (ignition effect, EVENT_FREE_CHAIN, "Draw 1 card")"."""
    parts = []
    if effect_type:
        for bit, word in _EFFECT_TYPES:
            if effect_type & bit:
                parts.append(word)
                break
    if code is not None:
        is_event = bool(effect_type and effect_type & (C.EFFECT_TYPE_ACTIONS | C.EFFECT_TYPE_CONTINUOUS))
        name = (_constant_name(code, "EVENT_") if is_event else
                _constant_name(code, "EFFECT_", ("EFFECT_TYPE_", "EFFECT_FLAG_", "EFFECT_COUNT_CODE")))
        if name is None and code >= C.EVENT_PHASE and code < C.EVENT_PHASE_START + 0x400 and is_event:
            base = C.EVENT_PHASE_START if code >= C.EVENT_PHASE_START else C.EVENT_PHASE
            name = ("EVENT_PHASE_START+" if base == C.EVENT_PHASE_START else "EVENT_PHASE+") + (
                _constant_name(code - base, "PHASE_") or hex(code - base))
        parts.append(name or f"code {code}")
    if description:
        parts.append(desc_words(duel, description))
    head = "effect"
    if index is not None:
        head += f" #{index}" + (f" of {count}" if count else "")
    return head + (f" ({', '.join(parts)})" if parts else "")
