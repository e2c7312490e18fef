"""The compiled GuanDan ``rules`` player (``paiju.agents.rules._guandan_plan_fast``) against the reference
Python: planner functions on seeded random hands, and whole seeded games between four ``rules`` bots with
every decision's scored candidates equal."""

import random

import pytest

from paiju.agents.rules import guandan, guandan_plan
from paiju.agents.rules.guandan import GuanDanRulesAgent
from paiju.agents.rules.guandan_plan import HandPlanner
from paiju.core.match import play_game
from paiju.core.registry import load_game
from paiju.games.guandan.cards import DECK, pack, parse_cards, unpack
from paiju.games.guandan.combos import PASS, ComboType, Play, play_key
from paiju.games.guandan.rules import GuanDanRules

compiled = pytest.importorskip("paiju.agents.rules._guandan_plan_fast")

PLAN_NAMES = ("signature", "best_plan", "plan_value_after")
RULES_NAMES = ("play_scores", "played_cards", "_flush_mask")


def bind(monkeypatch, path: str) -> None:
    """Binds the module-level names of both modules to the ``path`` ("reference" or "compiled") functions,
    with fresh shared planners (their plan caches would carry results across paths)."""
    for name in PLAN_NAMES:
        function = getattr(guandan_plan, f"reference_{name}") if path == "reference" else getattr(compiled, name)
        monkeypatch.setattr(guandan_plan, name, function)
    monkeypatch.setattr(guandan, "signature", guandan_plan.signature)
    for name in RULES_NAMES:
        reference = getattr(guandan, f"reference_{name.lstrip('_')}")
        monkeypatch.setattr(guandan, name, reference if path == "reference" else getattr(compiled, name.lstrip("_")))
    monkeypatch.setattr(guandan_plan, "_PLANNERS", {})


def random_hand(rng: random.Random, low: int = 1, high: int = 28) -> list[int]:
    return rng.sample(DECK, rng.randint(low, high))


def random_play(rng: random.Random, cards: list[int]) -> Play:
    """A play key of some of ``cards`` with a random type and rank code (``signature`` reads any key)."""
    chosen = rng.sample(cards, rng.randint(1, min(len(cards), 10)))
    return Play(play_key(rng.randrange(1, 11), rng.randrange(16), pack(chosen)))


def test_planner_functions_match_the_reference():
    rng = random.Random(2026)
    planners = [HandPlanner(level) for level in range(13)]
    calls = 0
    for _ in range(3000):
        level = rng.randrange(13)
        planner = planners[level]
        cards = random_hand(rng)
        hand = pack(cards)
        plan = guandan_plan.reference_best_plan(planner, hand)
        assert compiled.best_plan(planner, hand) == plan, (level, unpack(hand))
        for _ in range(10):
            left = pack(rng.sample(cards, rng.randint(0, len(cards))))
            assert compiled.plan_value_after(planner, plan, left) == \
                guandan_plan.reference_plan_value_after(planner, plan, left), (level, unpack(hand), unpack(left))
        assert compiled.flush_mask(hand, level) == guandan.reference_flush_mask(hand, level)
        plays = [random_play(rng, cards) for _ in range(30)]
        for play in plays:
            assert compiled.signature(play, level) == guandan_plan.reference_signature(play, level)
        history = [(seat % 4, rng.choice((PASS, play))) for seat, play in enumerate(plays)]
        assert compiled.played_cards(history) == guandan.reference_played_cards(history)
        calls += 1 + 10 + 1 + len(plays) + 1
    assert calls >= 100_000


def test_plans_of_special_hands_match_the_reference():
    hands = ["", "SB SB HR HR", "SB HR HR", "H2 H2", "H2 H2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA",
             "S3 D3 C3 H3 S3 D3 C3 H3 H2 H2", "SA S2 S3 S4 S5 DA DA D2 D2 D3 D3", "ST SJ SQ SK SA H2 CT CJ CQ CK CA"]
    for level in range(13):
        planner = HandPlanner(level)
        for text in hands:
            hand = pack(parse_cards(text))
            plan = guandan_plan.reference_best_plan(planner, hand)
            assert compiled.best_plan(planner, hand) == plan
            assert type(compiled.best_plan(planner, hand).value) is type(plan.value)


class Recorder(GuanDanRulesAgent):
    """A ``rules`` bot that records every decision: the scored candidates, best first, and the action."""

    def __init__(self, seed: int, decisions: list) -> None:
        super().__init__(seed)
        self.decisions = decisions

    def act(self, observation, legal):
        action = super().act(observation, legal)
        scored = self.explain(observation, legal) if len(legal) > 1 else []
        self.decisions.append(([(s.action, s.score) for s in scored], action))
        return action


def decisions(monkeypatch, path: str, seed: int, rounds: int | None) -> list:
    bind(monkeypatch, path)
    found: list = []
    play_game(load_game("guandan"), [Recorder(4 * seed + seat, found) for seat in range(4)], seed,
              GuanDanRules(rounds=rounds))
    return found


@pytest.mark.parametrize(("seed", "rounds"), [(seed, 1) for seed in range(6)] + [(100, 3), (7, None)])
def test_games_decide_alike(monkeypatch, seed, rounds):
    reference = decisions(monkeypatch, "reference", seed, rounds)
    fast = decisions(monkeypatch, "compiled", seed, rounds)
    assert len(fast) == len(reference)
    for number, (mine, theirs) in enumerate(zip(fast, reference, strict=True)):
        assert mine == theirs, f"decision {number}"
    assert any(action.type is ComboType.STRAIGHT_FLUSH or action.type is ComboType.BOMB
               for _, action in reference if isinstance(action, Play))
