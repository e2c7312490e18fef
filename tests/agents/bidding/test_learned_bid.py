"""The ``learned-bid`` wrapper: its spec, bids from the model in legal full games, calls forwarded."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import paiju
from paiju.agents import make_agent
from paiju.agents.bidding import LearnedBidOptions, parse_spec
from paiju.agents.bidding.agent import LearnedBidAgent, choose_bid
from paiju.agents.bidding.cli import with_bidding
from paiju.agents.bidding.model import BidModel, save_model
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules
from paiju.games.doudizhu.state import Deal

GAME = paiju.load_game("doudizhu")
FULL = DouDizhuRules(mode="full")


@pytest.fixture(scope="module")
def model_file(tmp_path_factory) -> Path:
    """A tiny untrained model whose thresholds split its own estimates into four even groups."""
    model = BidModel.fresh((8,), seed=2)
    import random
    rng = random.Random(0)
    estimates = model.estimates([hand for _ in range(50) for hand in Deal.draw(rng, research=True).hands])
    model.thresholds = tuple(float(q) for q in np.quantile(estimates, [0.25, 0.5, 0.75]))  # type: ignore[assignment]
    path = tmp_path_factory.mktemp("bid") / "bid.pt"
    save_model(model, path)
    return path


def test_spec_options_and_agent() -> None:
    assert parse_spec("") == LearnedBidOptions(model=None, thresholds=None, agent="rules")
    assert parse_spec("dmc") == LearnedBidOptions(agent="dmc")
    assert parse_spec("perfectdou:run/model.pt") == LearnedBidOptions(agent="perfectdou:run/model.pt")
    assert parse_spec("model=a.pt,thresholds=0/1/2,ext:prog --x=1,2") == LearnedBidOptions(
        model="a.pt", thresholds="0/1/2", agent="ext:prog --x=1,2")
    assert parse_spec("model=a.pt,search:algo=ismcts,worlds=8") == LearnedBidOptions(
        model="a.pt", agent="search:algo=ismcts,worlds=8")
    assert parse_spec("model=a.pt") == LearnedBidOptions(model="a.pt")
    with pytest.raises(PaijuError, match="learned-bid option model is given twice"):
        parse_spec("model=a.pt,model=b.pt,rules")
    with pytest.raises(PaijuError, match="learned-bid option model must be a non-empty string, got ''"):
        parse_spec("model=,rules")
    with pytest.raises(PaijuError, match="unknown learned-bid option 'depth'; accepted keys: model, thresholds"):
        parse_spec("depth=3,rules")


def test_bad_specs_are_refused(model_file: Path, tmp_path: Path) -> None:
    with pytest.raises(PaijuError, match=r"no bid model file at .*nothing.pt"):
        make_agent(f"learned-bid:model={tmp_path / 'nothing.pt'},rules", "doudizhu")
    with pytest.raises(PaijuError, match="cannot itself be learned-bid"):
        make_agent(f"learned-bid:model={model_file},learned-bid:rules", "doudizhu")
    with pytest.raises(PaijuError, match="unknown agent 'nobody'"):
        make_agent(f"learned-bid:model={model_file},nobody", "doudizhu")
    with pytest.raises(PaijuError, match="thresholds"):
        make_agent(f"learned-bid:model={model_file},thresholds=1/0/2,rules", "doudizhu")


def test_thresholds_option_overrides_the_file(model_file: Path) -> None:
    agent = make_agent(f"learned-bid:model={model_file},thresholds=-9/-8/-7,rules", "doudizhu")
    assert isinstance(agent, LearnedBidAgent) and agent.thresholds == (-9.0, -8.0, -7.0)
    assert agent.name == "learned-bid:rules"


def test_plays_legal_full_games_bidding_from_the_model(model_file: Path) -> None:
    checked = []
    bids = []

    def check(state: Any, seat: int, action: Any) -> None:
        if state.phase == "bid":
            agent = agents[seat]
            expected = choose_bid(agent.model.estimate(state.hands[seat]), state.legal_actions(), agent.thresholds)
            checked.append(action == expected)
            bids.append(action)

    for seed in range(6):
        agents = [make_agent(f"learned-bid:model={model_file},rules", "doudizhu", seed * 3 + s) for s in range(3)]
        state = play_game(GAME, agents, seed, FULL, on_action=check)
        assert state.is_terminal() and state.invariant_errors() == []
        assert sum(state.payoffs()) == 0
    assert checked and all(checked)
    assert len(set(bids)) >= 3  # the thresholds make the model pass and bid


class Recorder(Agent):
    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def begin(self, game: str, seat: int, rules: dict) -> None:
        self.calls.append(f"begin {seat}")

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        self.calls.append(f"act {observation.phase}")
        return legal[0]

    def finish(self, result: dict) -> None:
        self.calls.append("finish")

    def close(self) -> None:
        self.calls.append("close")


def test_calls_are_forwarded_and_bids_kept(model_file: Path) -> None:
    from paiju.agents.bidding import model_at

    inner = Recorder()
    agent = LearnedBidAgent(model_at(model_file), inner, thresholds=(-99.0, -98.0, -97.0))
    state = GAME.new_state(5, FULL)
    agent.begin("doudizhu", state.current_player, {})
    assert agent.act(state.observation(state.current_player), state.legal_actions()) == 3
    explained = agent.explain(state.observation(state.current_player), state.legal_actions())
    assert explained[0].action == 3 and [s.action for s in explained] == [3, 2, 1, 0]
    state.apply(3)
    seat = state.current_player
    agent.act(state.observation(seat), state.legal_actions())
    agent.finish({})
    agent.close()
    assert inner.calls == ["begin " + str(state.landlord), "act play", "finish", "close"]


def test_bidding_option_wraps_only_in_full_mode() -> None:
    assert with_bidding("dmc", "rules", "research") == "dmc"
    assert with_bidding("dmc", "learned", "full") == "learned-bid:dmc"
    assert with_bidding("learned-bid:dmc", "learned", "full") == "learned-bid:dmc"
    with pytest.raises(PaijuError, match="needs --mode full"):
        with_bidding("dmc", "learned", "research")
    with pytest.raises(PaijuError, match="unknown bidding 'smart'"):
        with_bidding("dmc", "smart", "full")
