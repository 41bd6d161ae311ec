"""The duel: both players' fields, the processor state, the message stream.

``Duel`` is the reference's duel + field + processor in one object.  Its
methods come from mixins, one file per area of the rules; a rule lives in the
file of its area even when only a Lua function calls it (the binding's name is
in the method's docstring, e.g. "Duel.NegateSummon: ...").  Every file of the
engine, by area:

The duel and its cards
    duel.py                this file: the duel object, its state, object creation, clear()
    card.py                Card: places, statuses (and the statuses scripts set); composed of:
    card_data.py           CardData (printed data) and CardState (one place/stats snapshot)
    card_stats.py          current code, type, level, ATK/DEF, ...; names, stats, places as scripts see them
    card_checks.py         "can this card ..." rule checks; equip/union targets, battle questions
    card_effects.py        effects on a card: adding, resetting, filtering; flag effects, relations, counters
    effect.py              Effect, composed with:
    effect_rules.py        one effect's rules: available, activatable, value, reset, ordering
    event.py               events and chain links
    group.py               groups of cards (CardSet, Group)

The field (Duel mixins)
    field/zones.py         zones and moving cards between them, shuffles, zone counts and flags, Deck tops
    field/effects.py       where effects are indexed; which effects apply to what; player flag effects, activity counts
    field/permissions.py   "can player X do Y" checks (is_player_can_*)
    field/materials.py     tributes, Fusion/Synchro/Xyz/Link/Ritual materials, sums over groups
    field/chains.py        the current chain: questions about it, its links' targets and operation info

The processor (Duel mixins)
    processor/driver.py    the unit queue and the host-facing run loop
    processor/events.py    raising events; triggers, quick effects, phase events
    processor/turn.py      the turn and its phases, skipping a phase
    processor/idle.py      the Main Phase idle command
    processor/battle.py    the Battle Phase, attacks and the Damage Step, attacker/target changes
    processor/chain.py     building and resolving chains; running script callbacks
    processor/adjust.py    the state checks done between actions; winning
    processor/prompts.py   asking a player (MSG_SELECT_* and the answer's checks), hints

The actions (Duel mixins)
    operations/summon.py          Normal/Tribute/Flip Summon, Set; negating a summon
    operations/special_summon.py  Special Summons, material selections
    operations/move.py            destroy, release, send, banish, return, move to field
    operations/lp.py              damage, recovery, LP costs, setting LP
    operations/position.py        battle positions, face-up/face-down
    operations/control.py         control changes, equips
    operations/misc.py            draw, counters, chain-link changes, confirms, random picks, ...

Data, answers and encodings
    messages.py            one typed class per MSG_*, encoding to the reference's bytes
    prompt_kinds.py        one object per prompt kind: its answer's layout, check, legal and random
                           answers, words (the engine and the host check answers with it)
    responses.py           the players' answers by prompt: encode, parse, legal, random (asks the kinds)
    constants.py           the constants scripts see (constant.lua)
    core_constants.py      the core's own constants (message numbers, query flags, ...)
    wire.py                little-endian struct helpers; the int32_t/uint32_t casts (i32, u32)
    rng.py                 the reference's random number generator
    stdsort.py             std::sort as libstdc++ does it (orders that reach the output)
    scripting.py           the engine's view of the script host (NullScriptHost)
    carddb.py              card records from a cards.cdb database
    ydk.py                 .ydk deck lists

Field names follow the reference (field.h) so the rules can be compared line by
line with it.  The state is plain data: lists for zones, dicts for maps.
"""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING, Any, Callable

from .card import Card, CardData, EffectContainer
from .card_stats import PRINTED_ASSUMES
from .effect import Effect
from .event import Chain, Event
from .group import CardSet, Group
from .rng import MTRandom
from .scripting import NullScriptHost, ScriptHost

from .field.zones import ZonesMixin
from .field.effects import FieldEffectsMixin
from .field.permissions import PermissionsMixin
from .field.materials import MaterialsMixin
from .field.chains import ChainQueriesMixin
from .processor.driver import HostLoopMixin, ProcessorMixin
from .processor.events import EventsMixin
from .processor.turn import TurnMixin
from .processor.idle import IdleMixin
from .processor.battle import BattleMixin
from .processor.chain import ChainMixin
from .processor.adjust import AdjustMixin
from .processor.prompts import PromptsMixin
from .operations.summon import SummonMixin
from .operations.special_summon import SpecialSummonMixin
from .operations.move import MoveMixin
from .operations.lp import LifePointsMixin
from .operations.position import PositionMixin
from .operations.control import ControlMixin
from .operations.misc import MiscOperationsMixin
from .constants import DUEL_OBSOLETE_RULING, MASTER_RULE3, PLAYER_NONE
from .core_constants import CURRENT_RULE, SIZE_RETURN_VALUE, TEMP_CARD_ID

if TYPE_CHECKING:
    from .messages import Message


class Returns:
    """The shared answer buffer (the reference's ``returns`` union).

    One 256-byte area seen as bytes (``bvalue``), unsigned 16-bit words
    (``svalue``), signed 32-bit ints (``ivalue``) and signed 64-bit ints
    (``lvalue``); writing through one view changes the others, exactly like the
    union.  Player answers are copied in raw; procedures leave results here.
    """

    __slots__ = ("buf", "bvalue", "svalue", "ivalue", "lvalue")

    def __init__(self) -> None:
        self.buf = bytearray(SIZE_RETURN_VALUE)
        mv = memoryview(self.buf)
        self.bvalue = mv
        self.svalue = mv.cast("H")
        self.ivalue = mv.cast("i")
        self.lvalue = mv.cast("q")

    def set_raw(self, data: bytes) -> None:
        n = min(len(data), SIZE_RETURN_VALUE)
        self.buf[:n] = data[:n]
        if n < SIZE_RETURN_VALUE:
            self.buf[n:] = bytes(SIZE_RETURN_VALUE - n)

    def set_int(self, value: int) -> None:
        """What the reference's set_responsei does: overwrite the first int only."""
        self.ivalue[0] = value


class PlayerInfo:
    """One player's side: LP, zone lists and zone bookkeeping (the reference's player_info)."""

    __slots__ = ("lp", "start_count", "draw_count", "used_location", "disabled_location",
                 "extra_p_count", "tag_extra_p_count", "szone_size", "list_mzone",
                 "list_szone", "list_main", "list_grave", "list_hand", "list_remove",
                 "list_extra", "tag_list_main", "tag_list_hand", "tag_list_extra")

    def __init__(self) -> None:
        self.lp = 8000
        self.start_count = 5
        self.draw_count = 1
        self.used_location = 0
        self.disabled_location = 0
        self.extra_p_count = 0
        self.tag_extra_p_count = 0
        self.szone_size = 6
        self.list_mzone: list[Card | None] = [None] * 7
        self.list_szone: list[Card | None] = [None] * 8
        # the Deck: index 0 is the bottom card, the last element is the top card
        self.list_main: list[Card] = []
        self.list_grave: list[Card] = []
        self.list_hand: list[Card] = []
        self.list_remove: list[Card] = []
        self.list_extra: list[Card] = []
        self.tag_list_main: list[Card] = []
        self.tag_list_hand: list[Card] = []
        self.tag_list_extra: list[Card] = []


class FieldEffects:
    """Every effect registered on the field, indexed the way the rules look them up."""

    __slots__ = ("aura_effect", "ignition_effect", "activate_effect", "trigger_o_effect",
                 "trigger_f_effect", "quick_o_effect", "quick_f_effect", "continuous_effect",
                 "indexer", "oath", "pheff", "cheff", "rechargeable", "spsummon_count_eff",
                 "disable_check_list", "disable_check_set", "grant_effect", "card_codes")

    def __init__(self) -> None:
        # code -> how many effects of it the cards' single/equip/target/xmaterial
        # containers hold (kept by those containers; see EffectContainer)
        self.card_codes: dict[int, int] = {}
        self.aura_effect = EffectContainer()
        self.ignition_effect = EffectContainer()
        self.activate_effect = EffectContainer()
        self.trigger_o_effect = EffectContainer()
        self.trigger_f_effect = EffectContainer()
        self.quick_o_effect = EffectContainer()
        self.quick_f_effect = EffectContainer()
        self.continuous_effect = EffectContainer()
        # effect -> the container it is stored in
        self.indexer: dict[Effect, Any] = {}
        # oath effect -> the effect whose activation created it
        self.oath: dict[Effect, Effect] = {}
        # player-affecting, chain-limited, count-rechargeable and spsummon-count effects
        self.pheff: dict[Effect, None] = {}
        self.cheff: dict[Effect, None] = {}
        self.rechargeable: dict[Effect, None] = {}
        self.spsummon_count_eff: dict[Effect, None] = {}
        self.disable_check_list: list[Card] = []
        self.disable_check_set: set[Card] = set()
        # granting effect -> {card: granted effect}
        self.grant_effect: dict[Effect, dict[Card, Effect]] = {}

    def holds(self, *codes: int) -> bool:
        """Does any card's container or the field's aura hold an effect of one of ``codes``?

        False means every look-up of those codes finds nothing and runs no script
        (filter_effect, is_affected_by_effect and the player/field look-ups only
        visit effects of the code asked for), so a rule check made only of such
        look-ups may be answered at once."""
        card_codes = self.card_codes
        aura = self.aura_effect
        for code in codes:
            if code in card_codes or code in aura:
                return True
        return False

    def holds_any(self, codes: tuple[int, ...]) -> bool:
        """holds(*codes) for a long tuple of codes: the same answer, the look-ups made
        at C speed (slower than holds for one or two codes)."""
        return not (self.card_codes.keys().isdisjoint(codes) and self.aura_effect.keys().isdisjoint(codes))


class FieldInfo:
    __slots__ = ("card_id", "field_id", "copy_id", "turn_id", "turn_id_by_player", "phase",
                 "turn_player", "priorities", "can_shuffle")

    def __init__(self) -> None:
        self.card_id = 1
        self.field_id = 1
        self.copy_id = 1
        self.turn_id = 0
        self.turn_id_by_player = [0, 0]
        self.phase = 0
        self.turn_player = 0
        self.priorities = [0, 0]
        self.can_shuffle = True


class CoreState:
    """The processor's working state (the reference's ``processor`` struct).

    Lists of chains and events are Python lists; card sets are CardSets.
    """

    def __init__(self) -> None:
        # the unit queue: each unit is a generator (see processor/driver.py)
        self.units: list[Any] = []
        self.subunits: list[Any] = []
        self.damage_step_reserved: Any = None
        self.summon_reserved: Any = None
        self.select_cards: list[Card] = []
        self.unselect_cards: list[Card] = []
        self.summonable_cards: list[Card] = []
        self.spsummonable_cards: list[Card] = []
        self.repositionable_cards: list[Card] = []
        self.msetable_cards: list[Card] = []
        self.ssetable_cards: list[Card] = []
        self.attackable_cards: list[Card] = []
        self.select_effects: list[Effect | None] = []
        self.select_options: list[int] = []
        self.must_select_cards: list[Card] = []
        self.point_event: list[Event] = []
        self.instant_event: list[Event] = []
        self.queue_event: list[Event] = []
        self.delayed_activate_event: list[Event] = []
        self.full_event: list[Event] = []
        self.used_event: list[Event] = []
        self.single_event: list[Event] = []
        self.solving_event: list[Event] = []
        self.sub_solving_event: list[Event] = []
        self.select_chains: list[Chain] = []
        self.current_chain: list[Chain] = []
        self.ignition_priority_chains: list[Chain] = []
        self.continuous_chain: list[Chain] = []
        self.solving_continuous: list[Chain] = []
        self.sub_solving_continuous: list[Chain] = []
        self.delayed_continuous_tp: list[Chain] = []
        self.delayed_continuous_ntp: list[Chain] = []
        self.desrep_chain: list[Chain] = []
        self.new_fchain: list[Chain] = []
        self.new_fchain_s: list[Chain] = []
        self.new_ochain: list[Chain] = []
        self.new_ochain_s: list[Chain] = []
        self.new_fchain_b: list[Chain] = []
        self.new_ochain_b: list[Chain] = []
        self.new_ochain_h: list[Chain] = []
        self.new_chains: list[Chain] = []
        # (effect, event) pairs, insertion ordered (the reference orders by address)
        self.delayed_quick_tmp: dict[tuple, tuple[Effect, Event]] = {}
        self.delayed_quick: dict[tuple, tuple[Effect, Event]] = {}
        # effect -> chain, insertion ordered (the reference orders by address)
        self.quick_f_chain: dict[Effect, Chain] = {}
        self.leave_confirmed = CardSet()
        self.special_summoning = CardSet()
        self.unable_tofield_set = CardSet()
        self.equiping_cards = CardSet()
        self.control_adjust_set = [CardSet(), CardSet()]
        self.unique_destroy_set = CardSet()
        self.self_destroy_set = CardSet()
        self.self_tograve_set = CardSet()
        self.trap_monster_adjust_set = [CardSet(), CardSet()]
        self.release_cards = CardSet()
        self.release_cards_ex = CardSet()
        self.release_cards_ex_oneof = CardSet()
        self.battle_destroy_rep = CardSet()
        self.fusion_materials = CardSet()
        self.synchro_materials = CardSet()
        self.operated_set = CardSet()
        self.discarded_set = CardSet()
        self.destroy_canceled = CardSet()
        self.indestructable_count_set = CardSet()
        self.delayed_enable_set = CardSet()
        self.set_group_pre_set = CardSet()
        self.set_group_set = CardSet()
        self.disfield_effects: list[Effect] = []
        self.extra_mzone_effects: list[Effect] = []
        self.extra_szone_effects: list[Effect] = []
        self.reseted_effects: dict[Effect, None] = {}
        self.readjust_map: dict[Card, int] = {}
        self.unique_cards: list[set[Card]] = [set(), set()]
        self.effect_count_code: list[dict[int, int]] = [{}, {}, {}]
        self.effect_count_code_duel: list[dict[int, int]] = [{}, {}, {}]
        self.effect_count_code_chain: list[dict[int, int]] = [{}, {}, {}]
        self.spsummon_once_map: list[dict[int, int]] = [{}, {}]
        # (level, card) pairs sorted by level descending
        self.xmaterial_lst: list[tuple[int, Card]] = []
        self.temp_var = [0, 0, 0, 0]
        self.global_flag = 0
        self.pre_field = [0, 0]
        self.opp_mzone: set[int] = set()
        self.chain_limit: list[tuple[Any, int]] = []
        self.chain_limit_p: list[tuple[Any, int]] = []
        self.chain_solving = False
        self.conti_solving = False
        self.win_player = 5
        self.win_reason = 0
        self.re_adjust = False
        self.reason_effect: Effect | None = None
        self.reason_player = PLAYER_NONE
        self.summoning_card: Card | None = None
        self.summon_depth = 0
        self.summon_cancelable = False
        self.attacker: Card | None = None
        self.attack_target: Card | None = None
        self.attacker_player = PLAYER_NONE
        self.attack_target_player = PLAYER_NONE
        self.limit_extra_summon_zone = 0
        self.limit_extra_summon_releasable = 0
        self.limit_tuner: Card | None = None
        self.limit_syn: Group | None = None
        self.limit_syn_minc = 0
        self.limit_syn_maxc = 0
        self.limit_xyz: Group | None = None
        self.limit_xyz_minc = 0
        self.limit_xyz_maxc = 0
        self.limit_link: Group | None = None
        self.limit_link_card: Card | None = None
        self.limit_link_minc = 0
        self.limit_link_maxc = 0
        self.not_material = False
        self.attack_cancelable = False
        self.attack_rollback = False
        self.effect_damage_step = 0
        self.battle_damage = [0, 0]
        self.summon_count = [0, 0]
        self.extra_summon = [0, 0]
        self.spe_effect = [0, 0]
        self.last_select_hint = [0, 0]
        self.duel_options = 0
        self.duel_rule = CURRENT_RULE
        self.copy_reset = 0
        self.copy_reset_count = 0
        self.last_control_changed_id = 0
        self.set_group_used_zones = 0
        self.set_group_seq = [0] * 7
        self.dice_result = [0] * 5
        self.coin_result = [0] * 20
        self.coin_count = 0
        self.is_target_ready = False
        self.is_gemini_summoning = False
        self.is_summon_negated = False
        self.to_bp = False
        self.to_m2 = False
        self.to_ep = False
        self.skip_m2 = False
        self.chain_attack = False
        self.chain_attacker_id = 0
        self.chain_attack_target: Card | None = None
        self.attack_player = PLAYER_NONE
        self.selfdes_disabled = False
        self.overdraw = [False, False]
        self.check_level = 0
        self.shuffle_check_disabled = False
        self.shuffle_hand_check = [False, False]
        self.shuffle_deck_check = [False, False]
        self.deck_reversed = False
        self.remove_brainwashing = False
        self.flip_delayed = False
        self.damage_calculated = False
        self.hand_adjusted = False
        self.summon_state_count = [0, 0]
        self.normalsummon_state_count = [0, 0]
        self.flipsummon_state_count = [0, 0]
        self.spsummon_state_count = [0, 0]
        self.attack_state_count = [0, 0]
        self.battle_phase_count = [0, 0]
        self.battled_count = [0, 0]
        self.phase_action = False
        self.hint_timing = [0, 0]
        self.current_player = PLAYER_NONE
        self.conti_player = PLAYER_NONE
        self.select_deck_sequence_revealed = False
        self.selecting_player = 0
        # counter id -> [filter function, count packed as in the reference]
        self.summon_counter: dict[int, list[Any]] = {}
        self.normalsummon_counter: dict[int, list[Any]] = {}
        self.spsummon_counter: dict[int, list[Any]] = {}
        self.flipsummon_counter: dict[int, list[Any]] = {}
        self.attack_counter: dict[int, list[Any]] = {}
        self.chain_counter: dict[int, list[Any]] = {}
        self.recover_damage_reserve: list[Any] = []
        self.dec_count_reserve: list[Effect] = []


CardReader = Callable[[int], CardData | None]


def card_reader_from_db(db: Any) -> CardReader:
    """A card reader over a CardDatabase: code -> CardData (None when the code has no row)."""
    cache: dict[int, CardData | None] = {}

    def read(code: int) -> CardData | None:
        if code in cache:
            return cache[code]
        rec = db.find(code)
        data = None
        if rec is not None:
            data = CardData(code=rec.code, alias=rec.alias, setcode=tuple(rec.setcodes), type=rec.type,
                            level=rec.level, attribute=rec.attribute, race=rec.race, attack=rec.attack,
                            defense=rec.defense, lscale=rec.lscale, rscale=rec.rscale,
                            link_marker=rec.link_marker, rule_code=rec.rule_code)
        cache[code] = data
        return data
    return read


class Duel(ZonesMixin, FieldEffectsMixin, PermissionsMixin, MaterialsMixin,
           ChainQueriesMixin, ProcessorMixin, HostLoopMixin, EventsMixin, TurnMixin, IdleMixin,
           BattleMixin, ChainMixin, AdjustMixin, PromptsMixin, SummonMixin,
           SpecialSummonMixin, MoveMixin, LifePointsMixin, PositionMixin, ControlMixin,
           MiscOperationsMixin):
    """One duel.  Create it, add cards, ``start()``, then drive it (processor/driver.py)."""

    def __init__(self, card_reader: CardReader, *, seed_sequence: list[int] | None = None,
                 seed: int | None = None, script: ScriptHost | None = None) -> None:
        self.card_reader = card_reader
        self.script: ScriptHost = script if script is not None else NullScriptHost()
        if seed_sequence is not None:
            self.random = MTRandom.from_seed_sequence(list(seed_sequence))
            self.rng_version = 2
        else:
            self.random = MTRandom(seed if seed is not None else 5489)
            self.rng_version = 1
        self.messages: list[Message] = []
        self.cards: list[Card] = []
        self.assumes: set[Card] = set()
        # the effects of card_stats.PRINTED_STAT_EFFECTS anywhere but on a card's own
        # single effects, and the script host's hook (printed_stats_changed)
        self.stat_effects_elsewhere: frozenset[int] = frozenset()
        self.on_printed_stats_changed: Callable[[Card | None], None] | None = None
        # effects that must not be copied (the reference's duel::uncopy), insertion ordered
        self.uncopy: dict[Effect, None] = {}
        self._effect_serial = itertools.count(1)
        self.player = [PlayerInfo(), PlayerInfo()]
        self.infos = FieldInfo()
        self.effects = FieldEffects()
        self.core = CoreState()
        self.returns = Returns()
        self.nil_event = Event()
        self.finished = False
        # what the duel did differently from a clean run without stopping (a Token code
        # with no database row...): one line each, for the host's reports
        self.warnings: list[str] = []
        self._runner: Any = None
        self.script.attach(self)
        self.temp_card = self.new_card(TEMP_CARD_ID)

    # ----- object creation ------------------------------------------------------------

    def next_effect_serial(self) -> int:
        return next(self._effect_serial)

    def warn(self, text: str) -> None:
        """Record a warning (``self.warnings``) and log it (logger ``duelhost.engine``)."""
        self.warnings.append(text)
        logging.getLogger("duelhost.engine").warning("%s", text)

    def new_card(self, code: int) -> Card:
        """Create a card from the database and let its script register its effects.

        Raises KeyError-derived errors from the card reader when the code is unknown.
        """
        if code == TEMP_CARD_ID:
            data = CardData()
        else:
            data = self.card_reader(code)
            if data is None:
                data = CardData()
            data = data.copy()
        data.code = code
        pcard = Card(self, data)
        self.cards.append(pcard)
        self.script.register_card(pcard)
        pcard.cardid = self.infos.card_id
        self.infos.card_id += 1
        return pcard

    def new_group(self, cards: Any = None) -> Group:
        return Group(self, cards)

    def new_effect(self) -> Effect:
        return Effect(self)

    def delete_effect(self, peffect: Effect) -> None:
        """Forget an effect (the script host drops its handle)."""
        self.script.release_effect(peffect)

    def delete_group(self, pgroup: Group) -> None:
        pass

    # ----- messages ---------------------------------------------------------------------

    def emit(self, msg: "Message") -> None:
        """Write a message to the stream the host reads."""
        self.messages.append(msg)

    # ----- random numbers ---------------------------------------------------------------

    def get_next_integer(self, l: int, h: int) -> int:
        """A random integer in [l, h] with the mapping of the duel's RNG version."""
        if self.rng_version == 1:
            return self.random.get_random_integer_v1(l, h)
        if self.rng_version == 0:   # old replays (see MTRandom.get_random_integer_old)
            return self.random.get_random_integer_old(l, h)
        return self.random.get_random_integer_v2(l, h)

    def restore_assumes(self) -> None:
        for pcard in self.assumes:
            was = pcard.assume_type
            pcard.assume_type = 0
            if was in PRINTED_ASSUMES:
                self.printed_stats_changed(pcard)
        self.assumes.clear()

    # ----- tokens (Duel.CreateToken) ----------------------------------------------------

    def create_token(self: "Duel", playerid: int, code: int) -> Card:
        """Duel.CreateToken: a new card of ``code`` owned and controlled by ``playerid``,
        in no location yet (Duel.SpecialSummon puts it on the field).

        Its name, type and stats are the database record's.  A code with no
        record makes a blank card with that code, as the reference does (its
        card reader answers zeros), and a warning names the code.
        """
        if self.card_reader(code) is None:
            self.warn(f"Duel.CreateToken: no row for card code {code} in the card database: "
                      f"a blank card was made, as the reference does")
        pcard = self.new_card(code)
        pcard.owner = playerid
        pcard.current.location = 0
        pcard.current.controler = playerid
        return pcard

    # ----- starting over (the reference's duel::clear; Debug.ReloadFieldBegin/End) ------

    def clear(self: "Duel") -> None:
        """Throw the whole duel away and start with an empty field (the reference's duel::clear).

        Every card, the field, its effects and the processor state are replaced
        by fresh ones (card ids restart at 1 with a new temp card); the RNG, the
        message stream and the script host's Lua state are kept.  Meant to be
        called before the duel starts (Debug.ReloadFieldBegin in a puzzle): units
        already queued are dropped.  The reference also unregisters every old
        card, group and effect from Lua; here a script that kept a handle of an
        old object still reaches that (now detached) object.
        """
        self.cards = []
        self.assumes.clear()
        self.uncopy.clear()
        self.player = [PlayerInfo(), PlayerInfo()]
        self.infos = FieldInfo()
        self.effects = FieldEffects()
        self.core = CoreState()
        self.returns = Returns()
        self.nil_event = Event()
        self.temp_card = self.new_card(TEMP_CARD_ID)
        self.printed_stats_changed(None)

    def reload_field_begin(self: "Duel", flag: int, rule: int) -> None:
        """Debug.ReloadFieldBegin: clear the duel, add ``flag`` to the duel options and
        set the rule: ``rule`` if non-zero, else 1 with DUEL_OBSOLETE_RULING, else
        the current rule.  Master Rule 3 has 8 Spell & Trap Zones per player."""
        self.clear()
        core = self.core
        core.duel_options |= flag & 0xFFFFFFFF
        if rule:
            core.duel_rule = rule
        elif flag & DUEL_OBSOLETE_RULING:
            core.duel_rule = 1
        else:
            core.duel_rule = CURRENT_RULE
        if core.duel_rule == MASTER_RULE3:
            self.player[0].szone_size = 8
            self.player[1].szone_size = 8

    def reload_field_end(self: "Duel") -> None:
        """Debug.ReloadFieldEnd: no pending hand/Deck shuffles, then MSG_RELOAD_FIELD."""
        core = self.core
        core.shuffle_hand_check[0] = core.shuffle_hand_check[1] = False
        core.shuffle_deck_check[0] = core.shuffle_deck_check[1] = False
        self.reload_field_info()
