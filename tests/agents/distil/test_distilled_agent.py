"""The distilled player: options, model checks, and its choice rule over the prior's candidates."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiju.agents import make_agent
from paiju.agents.distil import DistilledOptions, parse_argument
from paiju.agents.distil.agent import DISTIL_META
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels, save_models
from paiju.core.errors import PaijuError
from paiju.core.registry import load_game
from paiju.games.doudizhu.rules import DouDizhuRules


def tiny_model(tmp_path: Path, game: str = "doudizhu", distil: bool = True) -> Path:
    models = DMCModels.fresh(game, "adp", ModelConfig(hidden=(16,), lstm=8), seed=3)
    if distil:
        models.meta = {DISTIL_META: {"prior": "rules", "top": 4, "margin": 0.0}}
    path = tmp_path / f"{game}.pt"
    save_models(models, path)
    return path


def play_positions(agent_spec: str, seed: int, decisions: int = 60):
    """The decisions of ``agent_spec`` and of ``rules`` at seat 0's positions of rules' games."""
    game = load_game("doudizhu")
    state = game.new_state(seed, DouDizhuRules(mode="research"))
    agent, rules = make_agent(agent_spec, "doudizhu", 5), make_agent("rules", "doudizhu", 5)
    for player in (agent, rules):
        player.begin("doudizhu", 0, {})
    pairs = []
    while not state.is_terminal() and len(pairs) < decisions:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0 and len(legal) > 1:
            pairs.append((agent.act(observation, legal), rules.act(observation, legal), legal))
        state.apply(rules.act(observation, legal) if seat == 0 else legal[0] if len(legal) == 1 else
                    make_agent("rules", "doudizhu", seed).act(observation, legal))
    return pairs


@pytest.mark.parametrize("argument, message", [
    ("margin=-1", "margin must be a number >= 0"), ("top=1", "top must be a whole number >= 2"),
    ("top=x", "top must be"), ("speed=3", "unknown distilled option 'speed'; accepted keys: path, margin, top"),
    ("a.pt,b.pt", "path is given twice"),
])
def test_bad_options_are_refused_with_the_accepted_ones(argument: str, message: str) -> None:
    with pytest.raises(PaijuError, match=message):
        parse_argument(argument)


def test_options_and_bare_path() -> None:
    assert parse_argument("") == DistilledOptions(path="", margin=None, top=None)
    assert parse_argument("some/run") == DistilledOptions(path="some/run")
    assert parse_argument("path=a.pt,margin=0.5,top=3") == DistilledOptions(path="a.pt", margin=0.5, top=3)


def test_a_plain_dmc_model_is_refused(tmp_path: Path) -> None:
    path = tiny_model(tmp_path, distil=False)
    with pytest.raises(PaijuError, match="not distilled ones"):
        make_agent(f"distilled:{path}", "doudizhu")


def test_a_model_of_another_game_is_refused(tmp_path: Path) -> None:
    path = tiny_model(tmp_path, game="guandan")
    with pytest.raises(PaijuError, match="guandan networks, not doudizhu"):
        make_agent(f"distilled:{path}", "doudizhu")


def test_plays_legal_candidates_of_the_prior(tmp_path: Path) -> None:
    path = tiny_model(tmp_path)
    pairs = play_positions(f"distilled:{path}", seed=4)
    assert pairs
    for action, _, legal in pairs:
        assert action in legal


def test_an_unreachable_margin_plays_the_prior_and_explain_leads_with_the_move(tmp_path: Path) -> None:
    path = tiny_model(tmp_path)
    pairs = play_positions(f"distilled:path={path},margin=1e9", seed=6)
    assert pairs and all(action == prior for action, prior, _ in pairs)
    differs = play_positions(f"distilled:path={path},margin=0", seed=6)
    assert any(action != prior for action, prior, _ in differs)  # an untrained network disagrees somewhere
    agent = make_agent(f"distilled:{path}", "doudizhu", 1)
    game = load_game("doudizhu")
    state = game.new_state(2, DouDizhuRules(mode="research"))
    agent.begin("doudizhu", 0, {})
    observation, legal = state.observation(0), state.legal_actions()
    explained = agent.explain(observation, legal)
    assert explained[0].action == agent.act(observation, legal)
    assert len(explained) == min(4, len(legal))


def test_offered_as_a_bot_only_where_networks_ship() -> None:
    from paiju.agents import agent_names
    from paiju.agents.distil import shipped_path
    from paiju.serve.bots import offered_agents

    for game in ("doudizhu", "guandan"):
        assert "distilled" in agent_names(game)
        assert ("distilled" in offered_agents(game)) == shipped_path(game).is_file()
        assert "ext" not in offered_agents(game)
