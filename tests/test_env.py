"""Issue 15: the PettingZoo AEC environment duelhost.env (the 'env' extra).

Skipped when pettingzoo / gymnasium / numpy are not installed.  PettingZoo's own
api_test on bundled (and, with YGOPRO_SCRIPTS, real) decks; multi-choice prompts
answered one choice at a time reach exactly the answers the rules accept (checked
exhaustively on small prompts); a masked-out action is refused and changes
nothing; rewards at the win; the env's duel is the same duel a fresh one fed the
same answers plays (observing changes nothing).
"""

from __future__ import annotations

import copy
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from duelhost import Duel  # noqa: E402
from duelhost import env as duel_env  # noqa: E402
from duelhost.engine import constants as C  # noqa: E402
from duelhost.engine.messages import (CardInfo, CounterCard, LocInfo, MsgAnnounceAttrib, MsgAnnounceRace,  # noqa: E402
                                      MsgSelectCard, MsgSelectCounter, MsgSelectPlace, MsgSelectSum,
                                      MsgSelectTribute, MsgSortCard, SelectableCard, SumCard, TributeCard)
from duelhost.engine.responses import InvalidResponse, encode_response, parse_response  # noqa: E402
from duelhost.env import Decision, IllegalActionError, OptionKind  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


# api_test warns about any Dict observation space of an env it does not know; ours is one on purpose
API_WARNINGS = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
                pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


def play_random(e: Any, rng: random.Random, limit: int | None = None) -> int:
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            legal = obs["action_mask"].nonzero()[0]
            assert len(legal) == len(info["options"]) > 0
            action = int(legal[rng.randrange(len(legal))])
            steps += 1
            if limit is not None and steps > limit:
                break
        e.step(action)
    return steps


# ----- PettingZoo's API test ----------------------------------------------------------------------

@API_WARNINGS[0]
@API_WARNINGS[1]
def test_pettingzoo_api_test_bundled_decks() -> None:
    api_test(duel_env.env(), num_cycles=1000)


@API_WARNINGS[0]
@API_WARNINGS[1]
def test_pettingzoo_api_test_real_decks(real_scripts: Path, corpus_db: Path) -> None:
    folder = REPO.parent / "shared" / "decks"
    if not folder.is_dir():
        pytest.skip(f"no deck folder {folder}")
    api_test(duel_env.env(decks=[folder], db=corpus_db, scripts=real_scripts), num_cycles=600)


def test_raw_env_and_env_and_spaces() -> None:
    raw = duel_env.raw_env()
    wrapped = duel_env.env()
    assert wrapped.unwrapped.__class__ is raw.__class__
    assert raw.possible_agents == ["player_0", "player_1"]
    assert raw.action_space("player_0").n == duel_env.MAX_OPTIONS
    raw.reset(seed=1)
    obs = raw.observe(raw.agent_selection)
    assert raw.observation_space(raw.agent_selection).contains(obs)
    other = raw.observe("player_1" if raw.agent_selection == "player_0" else "player_0")
    assert not other["action_mask"].any() and raw.infos[raw.agent_selection]["prompt"] is not None


# ----- a whole episode ----------------------------------------------------------------------------

def test_rewards_at_the_win_and_the_duel_is_an_ordinary_duel() -> None:
    e = duel_env.env()
    e.reset(seed=4)
    total = {a: 0.0 for a in e.possible_agents}
    rng = random.Random(4)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        e.step(None if terminated or truncated else
               int(rng.choice(obs["action_mask"].nonzero()[0])))
    duel = e.unwrapped.duel
    win = duel.win()
    assert win is not None and win.player in (0, 1)
    assert total[f"player_{win.player}"] == 1.0 and total[f"player_{1 - win.player}"] == -1.0
    # observing the board did not change the duel: a replay without observations writes the same bytes
    rebuilt = Duel.from_snapshot(duel.snapshot())
    assert rebuilt.message_bytes() == duel.message_bytes()


def test_seeded_resets_repeat_and_differ() -> None:
    def run(seed: int) -> bytes:
        e = duel_env.raw_env(max_turns=6)
        e.reset(seed=seed)
        play_random(e, random.Random(seed))
        return e.duel.message_bytes()
    assert run(8) == run(8)
    assert run(8) != run(9)


def test_truncation_gives_no_reward() -> None:
    e = duel_env.env(max_turns=2)
    e.reset(seed=2)
    rewards = []
    rng = random.Random(2)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        rewards.append(reward)
        if truncated:
            assert not terminated
        e.step(None if terminated or truncated else int(rng.choice(obs["action_mask"].nonzero()[0])))
    assert e.unwrapped.duel.turn == 3 and e.unwrapped.duel.win() is None
    assert set(rewards) == {0.0}


def test_a_masked_out_action_is_refused_and_changes_nothing() -> None:
    e = duel_env.raw_env()
    e.reset(seed=3)
    agent = e.agent_selection
    obs = e.observe(agent)
    bad = int((obs["action_mask"] == 0).nonzero()[0][0])
    n_messages = len(e.duel.messages)
    with pytest.raises(IllegalActionError, match=r"action .* is not legal for SELECT_IDLECMD \(legal actions: 0,"):
        e.step(bad)
    with pytest.raises(IllegalActionError):
        e.step(None)
    assert len(e.duel.messages) == n_messages and e.agent_selection == agent
    again = e.observe(agent)
    assert (again["action_mask"] == obs["action_mask"]).all() and (again["global"] == obs["global"]).all()
    e.step(int(obs["action_mask"].nonzero()[0][0]))           # a legal one still works
    assert len(e.duel.messages) > n_messages


def test_render_is_the_board_and_the_prompt() -> None:
    e = duel_env.raw_env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text.startswith("Turn 1") and "LP 8000" in text
    assert "to answer: SELECT_IDLECMD" in text and "\n  0: " in text
    with pytest.raises(ValueError, match="render_mode"):
        duel_env.raw_env(render_mode="rgb_array")


def test_observations_hide_the_opponents_hand() -> None:
    e = duel_env.raw_env()
    e.reset(seed=5)
    for agent in e.possible_agents:
        board = e.observe(agent)["observation"]
        hand = board[board[:, 2] == C.LOCATION_HAND]
        mine, theirs = hand[hand[:, 1] == 0], hand[hand[:, 1] == 1]
        assert len(mine) == len(theirs) == 5
        assert (mine[:, 0] != 0).all() and (theirs[:, 0] == 0).all()


# ----- multi-choice prompts as single choices -----------------------------------------------------

def loc(i: int, where: int = C.LOCATION_HAND, controller: int = 0) -> LocInfo:
    return LocInfo(controller=controller, location=where, sequence=i, position=0)


def accepted(prompt: Any, resp: Any) -> bool:
    try:
        parse_response(prompt, encode_response(prompt, resp))
    except (InvalidResponse, ValueError):
        return False
    return True


def reachable(decision: Decision) -> set[bytes]:
    """Every whole answer some sequence of legal actions gives (as response bytes)."""
    out: set[bytes] = set()

    def walk(d: Decision, depth: int) -> None:
        assert depth < 40 and d.options, "a selection with no way on"
        for i in range(len(d.options)):
            d2 = copy.deepcopy(d)
            resp = d2.choose(i)
            if resp is None:
                walk(d2, depth + 1)
            else:
                assert accepted(d.prompt, resp), f"{resp} was built but the rules refuse it"
                out.add(_canon(d.prompt, resp))

    walk(decision, 0)
    return out


def _canon(prompt: Any, resp: Any) -> bytes:
    """Answers that only differ in the order cards were picked are one answer."""
    from duelhost.engine.responses import CardsResponse, PlaceResponse, SumResponse
    if isinstance(resp, (CardsResponse, SumResponse)) and resp.indices is not None:
        resp = type(resp)(indices=tuple(sorted(resp.indices)))
    if isinstance(resp, PlaceResponse):
        resp = PlaceResponse(zones=tuple(sorted(resp.zones, key=lambda z: (z.player, z.location, z.sequence))))
    return encode_response(prompt, resp)


def all_valid(prompt: Any, candidates: Any) -> set[bytes]:
    return {_canon(prompt, r) for r in candidates if accepted(prompt, r)}


def subsets(n: int) -> Any:
    return itertools.chain.from_iterable(itertools.combinations(range(n), k) for k in range(n + 1))


@pytest.mark.parametrize("lo,hi,cancel", [(1, 1, 0), (1, 2, 0), (2, 3, 1), (0, 2, 0), (4, 4, 0)])
def test_select_card_one_at_a_time(lo: int, hi: int, cancel: int) -> None:
    from duelhost.engine.responses import CardsResponse
    p = MsgSelectCard(player=0, cancelable=cancel, min=lo, max=hi,
                      cards=tuple(SelectableCard(code=100 + i, location=loc(i)) for i in range(4)))
    want = all_valid(p, [CardsResponse(indices=s) for s in subsets(4)] + [CardsResponse(indices=None)])
    assert reachable(Decision(p)) == want


@pytest.mark.parametrize("params,lo,hi", [((1, 2, 1), 2, 2), ((1, 1, 1, 1), 3, 3), ((2, 2, 1), 1, 2)])
def test_select_tribute_one_at_a_time(params: tuple[int, ...], lo: int, hi: int) -> None:
    from duelhost.engine.responses import CardsResponse
    p = MsgSelectTribute(player=0, cancelable=0, min=lo, max=hi,
                         cards=tuple(TributeCard(code=100 + i, controller=0, location=C.LOCATION_MZONE,
                                                 sequence=i, release_param=r) for i, r in enumerate(params)))
    want = all_valid(p, [CardsResponse(indices=s) for s in subsets(len(params))])
    assert want and reachable(Decision(p)) == want


@pytest.mark.parametrize("mode,target,values", [(0, 8, (4, 4, 3, 5, 8)), (0, 7, (3, 4, 7, 2 | 5 << 16)),
                                                (1, 5, (2, 3, 4, 6))])
def test_select_sum_one_at_a_time(mode: int, target: int, values: tuple[int, ...]) -> None:
    from duelhost.engine.responses import SumResponse
    p = MsgSelectSum(player=0, mode=mode, target=target, min=1, max=len(values), must_cards=(),
                     cards=tuple(SumCard(code=100 + i, controller=0, location=C.LOCATION_MZONE, sequence=i,
                                         sum_param=v) for i, v in enumerate(values)))
    want = all_valid(p, [SumResponse(indices=s) for s in subsets(len(values))])
    assert want and reachable(Decision(p)) == want


def test_select_counter_sort_place_and_declarations_one_at_a_time() -> None:
    from duelhost.engine.responses import (AnnounceAttribResponse, AnnounceRaceResponse, CounterResponse,
                                           PlaceResponse, SortResponse, Zone)
    counter = MsgSelectCounter(player=0, counter_type=1, count=3, cards=tuple(
        CounterCard(code=100 + i, controller=0, location=C.LOCATION_SZONE, sequence=i, counter_count=n)
        for i, n in enumerate((2, 1, 3))))
    assert reachable(Decision(counter)) == all_valid(counter, [
        CounterResponse(counts=c) for c in itertools.product(range(3), range(2), range(4))])
    sort = MsgSortCard(player=0, cards=tuple(CardInfo(code=100 + i, controller=0, location=C.LOCATION_DECK,
                                                      sequence=i) for i in range(3)))
    assert reachable(Decision(sort)) == all_valid(sort, [SortResponse(order=o) for o in
                                                         itertools.permutations(range(3))] + [SortResponse(order=None)])
    free = ~((1 << 1) | (1 << 3) | (1 << 17)) & 0xFFFFFFFF         # own M2, M4 and the opponent's M2 are free
    place = MsgSelectPlace(player=0, count=2, flag=free)
    zones = [Zone(player=pl, location=C.LOCATION_MZONE, sequence=s) for pl in (0, 1) for s in range(7)]
    want = all_valid(place, [PlaceResponse(zones=(a, b)) for a in zones for b in zones])
    assert len(want) == 3 and reachable(Decision(place)) == want
    race = MsgAnnounceRace(player=0, count=2, available=C.RACE_WARRIOR | C.RACE_DRAGON | C.RACE_FIEND)
    assert reachable(Decision(race)) == all_valid(race, [AnnounceRaceResponse(races=a | b) for a, b in
                                                         itertools.permutations((1, 2, 4, 8, 16, 32, 64, 128,
                                                                                 256, 512, 1024, 2048, 4096,
                                                                                 8192, 16384, 32768), 2)])
    attrib = MsgAnnounceAttrib(player=0, count=1, available=C.ATTRIBUTE_DARK | C.ATTRIBUTE_LIGHT)
    assert reachable(Decision(attrib)) == all_valid(attrib, [AnnounceAttribResponse(attributes=1 << i)
                                                             for i in range(7)])


def test_finish_is_offered_only_when_the_selection_may_stop() -> None:
    p = MsgSelectCard(player=0, cancelable=0, min=2, max=3,
                      cards=tuple(SelectableCard(code=100 + i, location=loc(i)) for i in range(4)))
    d = Decision(p)
    assert {o.kind for o in d.options} == {OptionKind.CARD}
    assert d.choose(0) is None
    assert OptionKind.FINISH not in {o.kind for o in d.options} and len(d.options) == 3
    assert d.choose(0) is None                       # the second card: now it may stop
    kinds = [o.kind for o in d.options]
    assert kinds.count(OptionKind.CARD) == 2 and OptionKind.FINISH in kinds
    resp = d.choose(0)                               # the third card reaches max: the answer is sent
    assert resp is not None and sorted(resp.indices) == [0, 1, 2]


# ----- real decks ---------------------------------------------------------------------------------

def test_real_deck_duels_play_to_the_end(real_scripts: Path, corpus_db: Path) -> None:
    """Random masked agents through real-deck duels: every answer the env builds is accepted
    (Duel.respond would raise otherwise) and the prompts met are of many kinds."""
    folder = REPO.parent / "shared" / "decks"
    if not folder.is_dir():
        pytest.skip(f"no deck folder {folder}")
    e = duel_env.raw_env(decks=[folder], db=corpus_db, scripts=real_scripts)
    kinds = set()
    rng = random.Random(1)
    for seed in range(4):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if info.get("prompt") is not None:
                kinds.add(info["prompt"].NAME)
            e.step(None if terminated or truncated else int(rng.choice(obs["action_mask"].nonzero()[0])))
        assert e.duel.finished
    assert len(kinds) >= 8, kinds


def test_without_the_extra_the_import_says_what_to_install() -> None:
    import subprocess
    import sys
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "try:\n    import duelhost.env\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "duelhost.env needs the 'env' extra" in out.stdout and "pip install 'duelhost[env]'" in out.stdout
