"""The compiled minimum-steps oracle and ``rules`` bot scoring against the reference Python, in one process.

``min_steps`` / ``decompose`` on seeded random hands under three rulesets; then whole seeded games of three
``rules`` bots (research and full mode with bidding, several rulesets), where every decision's candidates and
scores must be identical between the compiled and the reference path, and so must the games.
"""

import random
import re

import pytest

import paiju
from paiju.agents.rules import bidding, doudizhu
from paiju.core.errors import CardError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules
from paiju.games.doudizhu import min_steps as oracle
from paiju.games.doudizhu.state import DECK

compiled = pytest.importorskip("paiju.games.doudizhu._min_steps_fast")
compiled_rules = pytest.importorskip("paiju.agents.rules._doudizhu_fast")

GAME = paiju.load_game("doudizhu")
RULESETS = [DouDizhuRules(), DouDizhuRules(rocket_as_kickers=True, bomb_as_kickers=True),
            DouDizhuRules(no_four_with_two=True)]


def random_hand(rng: random.Random, size: int) -> list[int]:
    counts = [0] * 15
    for card in rng.sample(DECK, size):
        counts[card] += 1
    return counts


@pytest.mark.parametrize("index", range(len(RULESETS)))
def test_min_steps_and_decompose_match_the_reference(index):
    rules, rng = RULESETS[index], random.Random(index)
    for number in range(17_000):
        base = random_hand(rng, rng.randint(1, 20))
        for hand in (base, [n - rng.randint(0, n) for n in base]):  # a hand, and a part of it
            assert compiled.min_steps(hand, rules) == oracle.reference_min_steps(hand, rules), hand
        if number % 8 == 0:
            assert compiled.decompose(base, rules) == oracle.reference_decompose(base, rules), base


@pytest.mark.parametrize("bad", [[0] * 14, [5] + [0] * 14, [0] * 13 + [2, 0], [True] + [0] * 14, (1.0,) + (0,) * 14,
                                 "3" * 15])
def test_bad_hands_give_the_reference_answer(bad):
    try:
        expected = oracle.reference_min_steps(bad)
    except CardError as error:
        with pytest.raises(CardError, match=re.escape(str(error))):
            compiled.min_steps(bad)
    else:
        assert compiled.min_steps(bad) == expected


@pytest.fixture
def use(monkeypatch):
    """A function that switches the rules bot and the oracle to the compiled or the reference functions."""

    def switch(path: str):
        steps, plan, scores = ((compiled.min_steps, compiled.decompose, compiled_rules.play_scores)
                               if path == "compiled" else
                               (oracle.reference_min_steps, oracle.reference_decompose, doudizhu.reference_play_scores))
        for module in (oracle, doudizhu, bidding):
            monkeypatch.setattr(module, "min_steps", steps)
        for module in (oracle, doudizhu):
            monkeypatch.setattr(module, "decompose", plan)
        monkeypatch.setattr(doudizhu, "play_scores", scores)

    return switch


GAMES = [(DouDizhuRules(), 0), (DouDizhuRules(mode="full"), 100), (RULESETS[1], 200),
         (DouDizhuRules(mode="full", no_four_with_two=True), 300),
         (DouDizhuRules(mode="full", bomb_as_kickers=True), 400)]


def record(rules: DouDizhuRules, seed: int) -> tuple[list[tuple[int, str]], list]:
    """A seeded game of three ``rules`` bots: its actions, and every play decision's candidates and scores."""
    decisions = []

    def watch(state, seat, action):
        if state.phase == "play":
            observation, legal = state.observation(seat), state.legal_actions()
            candidates, scores = doudizhu.play_scores(observation, legal, doudizhu.PlayConfig())
            decisions.append(([str(move) for move in candidates], scores))

    agents = [doudizhu.DouDizhuRulesAgent(seed + seat) for seat in range(3)]
    final = play_game(GAME, agents, seed=seed, rules=rules, on_action=watch)
    return [(seat, str(action)) for seat, action in final.actions], decisions


def test_rules_bot_games_and_scores_match_the_reference(use):
    use("compiled")
    fast = {(rules, seed + i): record(rules, seed + i) for rules, seed in GAMES for i in range(10)}
    use("reference")
    for (rules, seed), (actions, decisions) in fast.items():
        expected_actions, expected_decisions = record(rules, seed)
        assert decisions == expected_decisions, (rules, seed)
        assert actions == expected_actions, (rules, seed)
