"""Monte-Carlo returns of self-play steps (DouZero's WP / ADP objectives; DanZero's round and game rewards)."""

from __future__ import annotations

import random

from paiju import load_game
from paiju.agents.dmc.adapters import adapter_for
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.guandan.levels import team
from paiju.games.guandan.rules import GuanDanRules


def random_final(game_name: str, rules: object, seed: int):
    state, rng = load_game(game_name).new_state(seed, rules), random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_doudizhu_returns_are_win_loss_or_score() -> None:
    adapter = adapter_for("doudizhu")
    final = random_final("doudizhu", DouDizhuRules(), seed=3)
    payoffs = final.payoffs()
    for seat in range(3):
        assert adapter.step_return(final, seat, 0, "adp") == payoffs[seat]
        assert adapter.step_return(final, seat, 0, "wp") == (1.0 if payoffs[seat] > 0 else -1.0)


def test_guandan_returns_are_the_round_result_plus_the_game_result_in_the_last_round() -> None:
    adapter = adapter_for("guandan")
    final = random_final("guandan", GuanDanRules(start_level="A"), seed=5)
    rounds = final.rounds
    for deal, summary in enumerate(rounds):
        for seat in range(4):
            value = adapter.step_return(final, seat, deal, "adp")
            base = summary.outcome.scores[team(seat)]
            if deal < len(rounds) - 1:
                assert value == base
            else:
                assert value == base + (1 if team(seat) == final.winner else -1)
    assert abs(adapter.step_return(final, 0, len(rounds) - 1, "adp")) >= 2
