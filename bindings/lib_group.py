"""The Group library (reference: libgroup.cpp), all 40 functions.

Cards of a group are visited in card-id order (engine/group.py's CardSet),
as the reference's ordered set does, so filters run, messages list cards and
prompts offer them in the reference's order.

Read-only groups (event groups: ``is_readonly == GTYPE_READ_ONLY``) silently
refuse Clear/AddCard/RemoveCard/Remove/Merge/Sub, and KeepAlive does nothing
to them, like the reference.

GetFirst/GetNext: the reference keeps a set iterator and an "iterator dirty"
flag on the group (dirty when created and after every change made through this
library; GetNext on a dirty group is an error).  Here the group's ``cursor``
holds that state:

- an ``int`` (what Group() starts with): dirty, GetFirst was not called since
  the group was created or changed;
- a ``Card``: the card the iterator is on;
- ``_END``: the iterator is past the last card.

GetNext moves to the first card with a higher card id than the current one,
which is what incrementing the set iterator does, also when the engine added
or removed other cards in between.

Selections (FilterSelect, Select, CancelableSelect, SelectUnselect,
SelectWithSumEqual/Greater) fill ``core.select_cards`` (and
``core.unselect_cards``) in card-id order, queue the prompt unit with the
reference's arguments (bytes: the reference packs min/max into 16-bit halves
and reads them back as bytes) and read the answer from ``duel.returns`` when
the script resumes.  An invalid player returns nothing, without asking.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from ..engine.card import Card
from ..engine.group import GTYPE_DEFAULT, GTYPE_KEEP_ALIVE, GTYPE_READ_ONLY, CardSet, Group
from ..engine.scripting import filter_cards
from .args import Args
from .errors import LuaArgError
from .registry import LuaContext, NoValue, Yield, lua_function
from ..engine.wire import i32 as _i32


class _EndOfGroup:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<end of group>"


_END = _EndOfGroup()
_DIRTY = 0


def _cardid(c: Card) -> int:
    return c.cardid


def _changed(pgroup: Group) -> None:
    """The reference's ``is_iterator_dirty = true``."""
    pgroup.cursor = _DIRTY


def _cards_except(args: Args, pgroup: Group, i: int) -> list[Card]:
    """The group's cards (card-id order) minus argument ``i`` if it is a Card or a Group
    (anything else there, nil included, removes nothing)."""
    cards = pgroup.container.ordered()
    if args.is_card(i):
        ex = args.card(i)
        return [c for c in cards if c is not ex]
    if args.is_group(i):
        exc = args.group(i).container
        return [c for c in cards if c not in exc]
    return list(cards)


def _pack_min_max(min_: int, max_: int) -> tuple[int, int]:
    """``min + (max << 16)`` stored in a 32-bit process argument and read back as two
    bytes, the way PROCESSOR_SELECT_CARD / SELECT_UNSELECT_CARD receive them."""
    arg = (min_ + (max_ << 16)) & 0xFFFFFFFF
    return arg & 0xFF, (arg >> 16) & 0xFF


def _selected_group(duel: Any) -> Group:
    """The cards a MSG_SELECT_CARD answer chose (returns: count, then indexes)."""
    b = duel.returns.bvalue
    sel = duel.core.select_cards
    pgroup = duel.new_group()
    for i in range(b[0]):
        pgroup.container.add(sel[b[i + 1]])
    return pgroup


def _card_or_group_set(args: Args, i: int) -> CardSet | Card:
    if args.is_card(i):
        return args.card(i)
    if args.is_group(i):
        return args.group(i).container
    raise LuaArgError(f'Parameter {i} should be "Card" or "Group".')


# ===== creating and keeping ==================================================================

@lua_function("Group.CreateGroup")
def group_create_group(ctx: LuaContext, args: Args) -> Any:
    return ctx.duel.new_group()


@lua_function("Group.Clone")
def group_clone(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pgroup = args.group(1)
    return pgroup.duel.new_group(pgroup.container)


@lua_function("Group.FromCards")
def group_from_cards(ctx: LuaContext, args: Args) -> Any:
    """A group of the non-nil arguments (each must be a Card)."""
    pgroup = ctx.duel.new_group()
    for i in range(1, args.count + 1):
        if not args.is_nil(i):
            pgroup.container.add(args.card(i))
    return pgroup


@lua_function("Group.KeepAlive")
def group_keep_alive(ctx: LuaContext, args: Args) -> Any:
    """Keep the group after the current script call (not for read-only groups)."""
    args.need(1)
    pgroup = args.group(1)
    if pgroup.is_readonly == GTYPE_READ_ONLY:
        return NoValue
    pgroup.is_readonly = GTYPE_KEEP_ALIVE
    # hold it even if its handle was made in an earlier call (the reference takes it
    # out of the script groups, so it lives until DeleteGroup)
    ctx.handles.kept_groups[pgroup] = None
    return NoValue


@lua_function("Group.DeleteGroup")
def group_delete_group(ctx: LuaContext, args: Args) -> Any:
    """Undo KeepAlive: the group goes when the current script call ends."""
    args.need(1)
    pgroup = args.group(1)
    if pgroup.is_readonly != GTYPE_KEEP_ALIVE:
        return NoValue
    _changed(pgroup)
    pgroup.is_readonly = GTYPE_DEFAULT
    ctx.handles.unkeep(pgroup)
    return NoValue


# ===== changing ==============================================================================

@lua_function("Group.Clear")
def group_clear(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pgroup = args.group(1)
    if pgroup.is_readonly != GTYPE_READ_ONLY:
        _changed(pgroup)
        pgroup.container.clear()
    return NoValue


@lua_function("Group.AddCard")
def group_add_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pgroup = args.group(1)
    pcard = args.card(2)
    if pgroup.is_readonly != GTYPE_READ_ONLY:
        _changed(pgroup)
        pgroup.container.add(pcard)
    return NoValue


@lua_function("Group.RemoveCard")
def group_remove_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pgroup = args.group(1)
    pcard = args.card(2)
    if pgroup.is_readonly != GTYPE_READ_ONLY:
        _changed(pgroup)
        pgroup.container.discard(pcard)
    return NoValue


@lua_function("Group.Remove")
def group_remove(ctx: LuaContext, args: Args) -> Any:
    """Remove the cards matching the filter, except the card given (nil: none)."""
    args.need(3)
    args.group(1)
    fn = args.function(2)
    pexception = None if args.is_nil(3) else args.card(3)
    pgroup = args.group(1)
    extra = args.rest(4)
    if pgroup.is_readonly == GTYPE_READ_ONLY:
        return NoValue
    _changed(pgroup)
    container = pgroup.container
    check = pgroup.duel.script.check_filter
    for pcard in container.ordered():
        if pcard is not pexception and check(fn, pcard, *extra):
            container.discard(pcard)
    return NoValue


@lua_function("Group.Merge")
def group_merge(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pgroup = args.group(1)
    mgroup = args.group(2)
    if pgroup.is_readonly == GTYPE_READ_ONLY:
        return NoValue
    _changed(pgroup)
    pgroup.container.update(mgroup.container.ordered())
    return NoValue


@lua_function("Group.Sub")
def group_sub(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pgroup = args.group(1)
    sgroup = args.group(2)
    if pgroup.is_readonly == GTYPE_READ_ONLY:
        return NoValue
    _changed(pgroup)
    for pcard in sgroup.container.ordered():
        pgroup.container.discard(pcard)
    return NoValue


# ===== iterating and counting ================================================================

@lua_function("Group.GetFirst")
def group_get_first(ctx: LuaContext, args: Args) -> Any:
    """The first card (nil when empty); starts the iteration GetNext continues."""
    args.need(1)
    pgroup = args.group(1)
    first = pgroup.container.first()
    if first is None:
        # the reference leaves its iterator where it was (end() of an empty set)
        pgroup.cursor = _END
        return None
    pgroup.cursor = first
    return first


@lua_function("Group.GetNext")
def group_get_next(ctx: LuaContext, args: Args) -> Any:
    """The card after the current one (nil at the end)."""
    args.need(1)
    pgroup = args.group(1)
    cur = pgroup.cursor
    if type(cur) is int:
        raise LuaArgError("Called Group.GetNext without calling Group.GetFirst first.")
    if cur is _END:
        return None
    ordered = pgroup.container.ordered()
    i = bisect_right(ordered, cur.cardid, key=_cardid)
    if i >= len(ordered):
        pgroup.cursor = _END
        return None
    nxt = ordered[i]
    pgroup.cursor = nxt
    return nxt


@lua_function("Group.GetCount")
def group_get_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.group(1).container)


@lua_function("Group.__len")
def group_len(ctx: LuaContext, args: Args) -> Any:
    """``#g`` (the same function as GetCount in the reference)."""
    args.need(1)
    return len(args.group(1).container)


@lua_function("Group.Filter")
def group_filter(ctx: LuaContext, args: Args) -> Any:
    """A new group of the cards (except argument 3) for which the filter is true."""
    args.need(3)
    pgroup = args.group(1)
    fn = args.function(2)
    cards = _cards_except(args, pgroup, 3)
    extra = args.rest(4)
    duel = pgroup.duel
    new_group = duel.new_group()
    new_group.container.update(filter_cards(duel.script, fn, cards, extra))
    return new_group


@lua_function("Group.FilterCount")
def group_filter_count(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    pgroup = args.group(1)
    fn = args.function(2)
    cards = _cards_except(args, pgroup, 3)
    extra = args.rest(4)
    return len(filter_cards(pgroup.duel.script, fn, cards, extra))


@lua_function("Group.IsExists")
def group_is_exists(ctx: LuaContext, args: Args) -> Any:
    """Do at least ``count`` cards (except argument 4) pass the filter?

    As in the reference: a count above the size of the whole group (exception
    included) is false at once, and a count of 0 still needs one passing card.
    """
    args.need(4)
    pgroup = args.group(1)
    fn = args.function(2)
    cards = _cards_except(args, pgroup, 4)
    count = args.uint32(3)
    extra = args.rest(5)
    if count > len(pgroup.container):
        return False
    need = max(count, 1)
    return len(filter_cards(pgroup.duel.script, fn, cards, extra, need)) >= need


@lua_function("Group.SearchCard")
def group_search_card(ctx: LuaContext, args: Args) -> Any:
    """The first card passing the filter, or no value at all."""
    args.need(2)
    pgroup = args.group(1)
    fn = args.function(2)
    extra = args.rest(3)
    found = filter_cards(pgroup.duel.script, fn, pgroup.container.ordered(), extra, 1)
    return found[0] if found else NoValue


@lua_function("Group.Equal")
def group_equal(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pgroup = args.group(1)
    sgroup = args.group(2)
    a = pgroup.container
    b = sgroup.container
    if len(a) != len(b):
        return False
    return all(x is y for x, y in zip(a.ordered(), b.ordered()))


@lua_function("Group.IsContains")
def group_is_contains(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pgroup = args.group(1)
    pcard = args.card(2)
    return pcard in pgroup.container


# ===== values of cards =======================================================================

def _values(args: Args, pgroup: Group, fn: Any, first_extra: int) -> list[tuple[Card, int]]:
    value = pgroup.duel.script.get_operation_value
    extra = args.rest(first_extra)
    return [(c, value(fn, c, *extra)) for c in pgroup.container.ordered()]


@lua_function("Group.GetMinGroup")
def group_get_min_group(ctx: LuaContext, args: Args) -> Any:
    """The cards with the smallest value, and that value (no values for an empty group)."""
    args.need(2)
    pgroup = args.group(1)
    fn = args.function(2)
    if not pgroup.container:
        return NoValue
    vals = _values(args, pgroup, fn, 3)
    newgroup = pgroup.duel.new_group()
    best = vals[0][1]
    newgroup.container.add(vals[0][0])
    for c, op in vals[1:]:
        if op == best:
            newgroup.container.add(c)
        elif op < best:
            newgroup.container.clear()
            newgroup.container.add(c)
            best = op
    return newgroup, best


@lua_function("Group.GetMaxGroup")
def group_get_max_group(ctx: LuaContext, args: Args) -> Any:
    """The cards with the largest value, and that value (no values for an empty group)."""
    args.need(2)
    pgroup = args.group(1)
    fn = args.function(2)
    if not pgroup.container:
        return NoValue
    vals = _values(args, pgroup, fn, 3)
    newgroup = pgroup.duel.new_group()
    best = vals[0][1]
    newgroup.container.add(vals[0][0])
    for c, op in vals[1:]:
        if op == best:
            newgroup.container.add(c)
        elif op > best:
            newgroup.container.clear()
            newgroup.container.add(c)
            best = op
    return newgroup, best


@lua_function("Group.GetSum")
def group_get_sum(ctx: LuaContext, args: Args) -> Any:
    """The sum of the values (32-bit, wrapping)."""
    args.need(2)
    pgroup = args.group(1)
    fn = args.function(2)
    total = 0
    for _c, v in _values(args, pgroup, fn, 3):
        total = _i32(total + v)
    return total


@lua_function("Group.GetClassCount")
def group_get_class_count(ctx: LuaContext, args: Args) -> Any:
    """How many different values the cards have."""
    args.need(2)
    pgroup = args.group(1)
    fn = args.function(2)
    return len({v & 0xFFFFFFFF for _c, v in _values(args, pgroup, fn, 3)})


@lua_function("Group.GetBinClassCount")
def group_get_bin_class_count(ctx: LuaContext, args: Args) -> Any:
    """How many bits are set in the OR of the values."""
    args.need(2)
    pgroup = args.group(1)
    fn = args.function(2)
    er = 0
    for _c, v in _values(args, pgroup, fn, 3):
        er |= v
    return bin(er & 0xFFFFFFFF).count("1")


# ===== sums ===================================================================================

@lua_function("Group.CheckWithSumEqual")
def group_check_with_sum_equal(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    pgroup = args.group(1)
    fn = args.function(2)
    acc = args.int32(3)
    min_ = args.int32(4)
    max_ = args.int32(5)
    return bool(pgroup.duel.check_group_sum_equal(pgroup.container.ordered(), fn, acc, min_, max_,
                                                  args.rest(6)))


@lua_function("Group.CheckWithSumGreater")
def group_check_with_sum_greater(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    pgroup = args.group(1)
    fn = args.function(2)
    acc = args.int32(3)
    return bool(pgroup.duel.check_group_sum_greater(pgroup.container.ordered(), fn, acc, args.rest(4)))


def _sum_result(duel: Any) -> Any:
    chosen = duel.group_select_sum_result()
    return duel.new_group(chosen)


@lua_function("Group.SelectWithSumEqual")
def group_select_with_sum_equal(ctx: LuaContext, args: Args) -> Any:
    """Ask for cards whose values add up to ``acc`` (min..max cards besides the
    must-select ones); an empty group without asking when that is impossible."""
    args.need(6)
    pgroup = args.group(1)
    fn = args.function(3)
    duel = pgroup.duel
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NoValue
    acc = args.int32(4)
    min_ = args.int32(5)
    max_ = args.int32(6)
    if min_ < 0:
        min_ = 0
    if max_ < min_:
        max_ = min_
    if max_ > 0xFF:
        raise LuaArgError('Parameter "max" exceeded 255.')
    if not duel.prepare_group_select_sum(pgroup.container.ordered(), fn, acc, min_, max_, False,
                                         args.rest(7)):
        return duel.new_group()
    duel.add_process(duel.proc_select_sum(playerid, acc, min_, max_))
    return Yield(lambda: _sum_result(duel))


@lua_function("Group.SelectWithSumGreater")
def group_select_with_sum_greater(ctx: LuaContext, args: Args) -> Any:
    """Ask for cards whose values reach at least ``acc``; an empty group without
    asking when that is impossible."""
    args.need(4)
    pgroup = args.group(1)
    fn = args.function(3)
    duel = pgroup.duel
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NoValue
    acc = args.int32(4)
    if not duel.prepare_group_select_sum(pgroup.container.ordered(), fn, acc, 0, 0, True, args.rest(5)):
        return duel.new_group()
    duel.add_process(duel.proc_select_sum(playerid, acc, 0, 0))
    return Yield(lambda: _sum_result(duel))


# ===== selections ============================================================================

@lua_function("Group.FilterSelect")
def group_filter_select(ctx: LuaContext, args: Args) -> Any:
    """Player chooses min..max of the cards (except argument 6) passing the filter."""
    args.need(6)
    pgroup = args.group(1)
    fn = args.function(3)
    cards = _cards_except(args, pgroup, 6)
    duel = pgroup.duel
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NoValue
    min_, max_ = _pack_min_max(args.uint32(4), args.uint32(5))
    extra = args.rest(7)
    duel.core.select_cards = filter_cards(duel.script, fn, cards, extra)
    duel.add_process(duel.proc_select_card(playerid, 0, min_, max_))
    return Yield(lambda: _selected_group(duel))


@lua_function("Group.Select")
def group_select(ctx: LuaContext, args: Args) -> Any:
    """Player chooses min..max of the cards (except argument 5)."""
    args.need(5)
    pgroup = args.group(1)
    cards = _cards_except(args, pgroup, 5)
    duel = pgroup.duel
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NoValue
    min_, max_ = _pack_min_max(args.uint32(3), args.uint32(4))
    duel.core.select_cards = cards
    duel.add_process(duel.proc_select_card(playerid, 0, min_, max_))
    return Yield(lambda: _selected_group(duel))


@lua_function("Group.CancelableSelect")
def group_cancelable_select(ctx: LuaContext, args: Args) -> Any:
    """Group.Select that the player may cancel (then nil)."""
    args.need(5)
    pgroup = args.group(1)
    cards = _cards_except(args, pgroup, 5)
    duel = pgroup.duel
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NoValue
    min_, max_ = _pack_min_max(args.uint32(3), args.uint32(4))
    duel.core.select_cards = cards
    duel.add_process(duel.proc_select_card(playerid, 1, min_, max_))

    def result() -> Any:
        if duel.returns.ivalue[0] == -1:
            return None
        return _selected_group(duel)
    return Yield(result)


@lua_function("Group.SelectUnselect")
def group_select_unselect(ctx: LuaContext, args: Args) -> Any:
    """One card from the selectable group or the unselectable (already chosen) group.

    Returns the card, or nil when the player finished or cancelled.  Nothing is
    returned (and nothing asked) for an invalid player, when both groups are
    empty, or when a card is in both groups.  Optional: finishable, cancelable
    (both false), min and max (1; min is lowered to max).
    """
    args.need(3)
    select_group = args.group(1)
    unselect_group = args.group(2) if args.is_group(2) else None
    duel = select_group.duel
    playerid = args.int32(3)
    if playerid != 0 and playerid != 1:
        return NoValue
    if not select_group.container and (unselect_group is None or not unselect_group.container):
        return NoValue
    if unselect_group is not None:
        for pcard in unselect_group.container:
            if pcard in select_group.container:
                return NoValue
    finishable = args.bool(4) if args.count > 3 else False
    cancelable = args.bool(5) if args.count > 4 else False
    min_ = args.uint32(6) if args.count > 5 else 1
    max_ = args.uint32(7) if args.count > 6 else 1
    if min_ > max_:
        min_ = max_
    core = duel.core
    core.select_cards = list(select_group.container.ordered())
    core.unselect_cards = list(unselect_group.container.ordered()) if unselect_group is not None else []
    bmin, bmax = _pack_min_max(min_, max_)
    duel.add_process(duel.proc_select_unselect_card(playerid, int(cancelable), bmin, bmax,
                                                    int(finishable)))

    def result() -> Any:
        if duel.returns.ivalue[0] == -1:
            return None
        index = duel.returns.bvalue[1]
        sel = duel.core.select_cards
        if index < len(sel):
            return sel[index]
        return duel.core.unselect_cards[index - len(sel)]
    return Yield(result)


@lua_function("Group.RandomSelect")
def group_random_select(ctx: LuaContext, args: Args) -> Any:
    """``count`` cards chosen at random (MSG_RANDOM_SELECTED; see Duel.random_select)."""
    args.need(3)
    pgroup = args.group(1)
    playerid = args.int32(2)
    count = args.int32(3)
    duel = pgroup.duel
    return duel.new_group(duel.random_select(pgroup.container.ordered(), playerid, count))


# ===== metamethods ============================================================================

def _two_operands(args: Args) -> tuple[CardSet | Card, CardSet | Card]:
    args.need(2)
    a = _card_or_group_set(args, 1)
    b = _card_or_group_set(args, 2)
    return a, b


def _as_list(x: CardSet | Card) -> list[Card]:
    return [x] if type(x) is Card else list(x.ordered())


@lua_function("Group.__add")
def group_meta_add(ctx: LuaContext, args: Args) -> Any:
    """``a + b``: a new group of the cards of both (each a Card or a Group)."""
    a, b = _two_operands(args)
    pgroup = ctx.duel.new_group(_as_list(a))
    pgroup.container.update(_as_list(b))
    return pgroup


@lua_function("Group.__bor")
def group_meta_bor(ctx: LuaContext, args: Args) -> Any:
    """``a | b``: the same as ``a + b``."""
    a, b = _two_operands(args)
    pgroup = ctx.duel.new_group(_as_list(a))
    pgroup.container.update(_as_list(b))
    return pgroup


@lua_function("Group.__sub")
def group_meta_sub(ctx: LuaContext, args: Args) -> Any:
    """``a - b``: a new group of the cards of ``a`` not in ``b``."""
    a, b = _two_operands(args)
    pgroup = ctx.duel.new_group(_as_list(a))
    for c in _as_list(b):
        pgroup.container.discard(c)
    return pgroup


@lua_function("Group.__band")
def group_meta_band(ctx: LuaContext, args: Args) -> Any:
    """``a & b``: a new group of the cards in both."""
    a, b = _two_operands(args)
    check = set(_as_list(a))
    return ctx.duel.new_group([c for c in _as_list(b) if c in check])


@lua_function("Group.__bxor")
def group_meta_bxor(ctx: LuaContext, args: Args) -> Any:
    """``a ~ b``: a new group of the cards in exactly one of them."""
    a, b = _two_operands(args)
    pgroup = ctx.duel.new_group(_as_list(a))
    container = pgroup.container
    for c in _as_list(b):
        if c in container:
            container.discard(c)
        else:
            container.add(c)
    return pgroup
