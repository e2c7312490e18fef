"""Every game reads its protocol ``obs`` back (``Game.observation_from_json``): for random positions of every phase,
the observation rebuilt from ``to_json()`` writes the same JSON, holds what the state's observation holds, parses
the legal actions as the state does, and makes every built-in agent choose what it chooses from the original."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from paiju import load_game
from paiju.agents import agent_names, make_agent
from paiju.core.errors import PaijuError
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.gongzhu.rules import GongzhuRules
from paiju.games.guandan import GuanDanRules

SMALL_SEARCH = "search:sims=12,worlds=4,top=3"
NOT_IN_GUANDAN_OBS = {"a_failures": (0, 0), "team_scores": (0, 0)}
"""GuanDan fields the protocol does not carry, and what they read back as; no built-in agent reads them."""

CASES = [
    pytest.param("doudizhu", DouDizhuRules(mode="full"), 6, 4, {"bid", "play"}, id="doudizhu-full"),
    pytest.param("doudizhu", DouDizhuRules(), 4, 4, {"play"}, id="doudizhu-research"),
    pytest.param("guandan", GuanDanRules(rounds=3, start_level="Q", a_attempts=1), 2, 60, {"tribute", "back", "play"},
                 id="guandan-rounds"),
    pytest.param("gongzhu", GongzhuRules(first_leader=2), 4, 3, {"play"}, id="gongzhu"),
]
"""(game, rules, games played at random, agents checked at every n-th play decision (and every other decision),
phases decided in)."""


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def positions(name: str, rules: Any, games: int, first_seed: int = 0):
    """(state, seat to act) at every decision of ``games`` random games (seeds from ``first_seed`` on)."""
    game = load_game(name)
    for seed in range(first_seed, first_seed + games):
        state = game.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state, state.current_player
            state.apply(rng.choice(state.legal_actions()))
        yield state, None


def expected(name: str, observation: Any) -> Any:
    """What the rebuilt observation of the seat to act must equal."""
    if name != "guandan":
        return observation
    return dataclasses.replace(observation, **NOT_IN_GUANDAN_OBS)


@pytest.mark.parametrize(("name", "rules", "games", "every", "decided_in"), CASES)
def test_observations_read_back_from_json_play_as_the_originals(name, rules, games, every, decided_in):
    game = load_game(name)
    # search at a small budget: the check is that it reads the rebuilt observation alike, not its strength
    agents = [SMALL_SEARCH if spec == "search" else spec for spec in agent_names(name, bare=True)]
    phases, checked = set(), set()
    decisions = 0
    for state, to_act in positions(name, rules, games):
        for seat in range(game.num_players):
            original = state.observation(seat)
            rebuilt = game.observation_from_json(through_json(original.to_json()), seat, state.phase, rules)
            assert rebuilt.to_json() == original.to_json()
            if seat != to_act:
                continue
            assert rebuilt == expected(name, original)
            legal = state.legal_actions()
            assert [rebuilt.action_from_json(value) for value in through_json([game.action_to_json(action)
                                                                               for action in legal])] == legal
            phases.add(state.phase)
            decisions += 1
            if decisions % every == 0 or state.phase != "play":
                checked.add(state.phase)
                for spec in agents:
                    chosen = [make_agent(spec, name, decisions).act(view, legal) for view in (original, rebuilt)]
                    assert chosen[0] == chosen[1], (spec, decisions)
    assert phases == checked == decided_in


def test_guandan_obs_reads_back_every_round_with_its_gifts_and_determinizes():
    """Rounds after the first: single and double tribute, back, anti-tribute; the rebuilt observation of the seat to
    act is the original (but for the standing the protocol leaves out), and determinizes."""
    game = load_game("guandan")
    rules = GuanDanRules(rounds=6, start_level="T")
    seen: set[str] = set()
    for step, (state, to_act) in enumerate(positions("guandan", rules, 5)):
        if to_act is None:
            continue
        original = state.observation(to_act)
        obs = through_json(original.to_json())
        rebuilt = game.observation_from_json(obs, to_act, state.phase, rules)
        assert rebuilt == expected("guandan", original)
        assert obs["round"] == state.deal_number
        assert (obs["previous_order"] is None) == (state.deal_number == 0)
        if state.phase != "play" or step % 20 == 0:
            assert game.determinize(rebuilt, random.Random(step)).observation(to_act) == rebuilt
        seen.update(kind for kind, present in [
            ("tribute", state.phase == "tribute"), ("back", state.phase == "back"),
            ("double tribute", len(original.tribute) == 2), ("back given", bool(original.back)),
            ("anti-tribute", bool(original.anti_tribute)), ("later round", state.deal_number >= 2)] if present)
    assert seen == {"tribute", "back", "double tribute", "back given", "anti-tribute", "later round"}


def act_message_obs(name: str, seed: int, steps: int) -> tuple[dict[str, Any], int, str]:
    """The ``obs``, seat and phase of the decision after ``steps`` random actions."""
    game = load_game(name)
    state = game.new_state(seed, DouDizhuRules(mode="full") if name == "doudizhu" else None)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    return through_json(state.observation(seat).to_json()), seat, state.phase


BAD_OBS = [
    ("doudizhu", lambda obs: obs.pop("hand"), "doudizhu obs has no field 'hand'"),
    ("doudizhu", lambda obs: obs.update(hand="33X"), "doudizhu obs field 'hand': unknown card 'X'"),
    ("doudizhu", lambda obs: obs.update(bids=[[0, 5]]),
     "doudizhu obs field 'bids': entry 0: expected an integer in 0..3, got 5"),
    ("doudizhu", lambda obs: obs["history"].append([1, "34"]), "doudizhu obs field 'history': entry"),
    ("doudizhu", lambda obs: obs.update(cards_left=[17, 17]), "doudizhu obs field 'cards_left': expected 3 entries"),
    ("doudizhu", lambda obs: obs.update(multiplier=True), "doudizhu obs field 'multiplier': expected an integer"),
    ("doudizhu", lambda obs: obs.update(position="up" if obs["position"] != "up" else "down"),
     "doudizhu obs field 'position'"),
    ("guandan", lambda obs: obs.update(level="1"), "guandan obs field 'level': unknown level '1'"),
    ("guandan", lambda obs: obs.update(hand="H2 H3"), "guandan obs field 'hand': expected a list of card names"),
    ("guandan", lambda obs: obs["history"].append([2, ["Pair", "5", ["S5", "D6"]]]),
     "guandan obs field 'history': entry"),
    ("guandan", lambda obs: obs.update(greater=[7, ["PASS", "PASS", "PASS"]]), "guandan obs field 'greater'"),
    ("guandan", lambda obs: obs.update(cards_left=[3, 3, 3, 3]), "guandan obs field 'cards_left': seat"),
    ("guandan", lambda obs: obs.pop("round"), "guandan obs has no field 'round'"),
    ("guandan", lambda obs: obs.update(round=-1), "guandan obs field 'round': expected an integer >= 0"),
    ("guandan", lambda obs: obs.update(previous_order=[0, 1, 1, 3]),
     "guandan obs field 'previous_order': expected the four seats once each"),
    ("guandan", lambda obs: obs.update(tribute=[[3, 3, "HA"]]),
     "guandan obs field 'tribute': entry 0: seat 3 cannot give a card to itself"),
    ("guandan", lambda obs: obs.update(back=[[0, 3]]), "guandan obs field 'back': entry 0: expected "),
    ("guandan", lambda obs: obs.update(back=[[0, 3, "X5"]]), "guandan obs field 'back': entry 0: unknown card 'X5'"),
    ("guandan", lambda obs: obs.update(anti_tribute=[4]), "guandan obs field 'anti_tribute': entry 0: expected an"),
    ("gongzhu", lambda obs: obs.update(leader=4), "gongzhu obs field 'leader': expected an integer in 0..3"),
    ("gongzhu", lambda obs: obs.update(hand=["SQ", "SQ"]), "gongzhu obs field 'hand': a card appears twice"),
    ("gongzhu", lambda obs: obs.update(taken=[[], [], []]), "gongzhu obs field 'taken': expected 4 entries"),
    ("gongzhu", lambda obs: obs.update(trick=[[0, "S2"], [1, "S3"], [2, "S4"], [3, "S5"]]),
     "gongzhu obs field 'trick'"),
]


@pytest.mark.parametrize(("name", "spoil", "message"), BAD_OBS)
def test_bad_obs_json_is_refused_naming_the_field(name, spoil, message):
    obs, seat, phase = act_message_obs(name, 3, 7)
    spoil(obs)
    with pytest.raises(PaijuError, match=message.replace("(", r"\(").replace(".", r"\.")):
        load_game(name).observation_from_json(obs, seat, phase)


@pytest.mark.parametrize("name", ["doudizhu", "guandan", "gongzhu"])
def test_a_bad_seat_phase_or_obs_type_is_refused(name):
    game = load_game(name)
    obs, seat, phase = act_message_obs(name, 1, 0)
    with pytest.raises(PaijuError, match=f"a {name} seat is 0-{game.num_players - 1}, got 9"):
        game.observation_from_json(obs, 9, phase)
    with pytest.raises(PaijuError, match=f"unknown {name} phase 'dance'"):
        game.observation_from_json(obs, seat, "dance")
    with pytest.raises(PaijuError, match=f"a {name} obs is a JSON object"):
        game.observation_from_json([obs], seat, phase)
