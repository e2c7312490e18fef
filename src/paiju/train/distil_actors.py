"""Distillation actors: positions from the prior's own games, each candidate labelled with the search's value.

The search values a candidate by playing it and letting the rollout policy finish the deal, averaged over
worlds sampled from the seat's observation (``paiju.agents.search.pimc``). A ``LabelWorker`` plays the same
simulation once per candidate in the position's true deal instead: the true deal is one draw from the exact
posterior over the hidden cards, so the network's regression on these labels converges to the same
expectation given the observation, at a fortieth of a search's cost per position. All candidates are played
in the same deal (common random numbers), so their differences — what the agent uses — are paired.

A position is every decision a network makes (``DMCAdapter.role``) with two candidates or more: the
prior's best ``top`` legal actions, in its order. The game then goes on with the prior's choice. The games
of chunk ``k`` come from ``derive_seed(seed, "chunk", k)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paiju.agents import make_agent
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.search.prior import ranked
from paiju.agents.search.profiles import PROFILES
from paiju.agents.search.rollout import Rollout
from paiju.core.registry import load_game
from paiju.eval.seeds import derive_seed


@dataclass
class Positions:
    """Labelled positions of one role. ``x`` [n, top, d] int8: the candidates' feature rows in the prior's
    order (zero rows past ``count``); ``context`` {name: [n, ...] int8}; ``values`` [n, top] float32: each
    candidate's simulated value for the seat to move; ``count`` [n] int8: candidates."""

    x: np.ndarray
    context: dict[str, np.ndarray]
    values: np.ndarray
    count: np.ndarray

    def __len__(self) -> int:
        return len(self.count)

    def take(self, index: np.ndarray) -> Positions:
        return Positions(self.x[index], {k: v[index] for k, v in self.context.items()}, self.values[index],
                         self.count[index])

    @staticmethod
    def concat(parts: list[Positions]) -> Positions:
        return Positions(np.concatenate([p.x for p in parts]),
                         {k: np.concatenate([p.context[k] for p in parts]) for k in parts[0].context},
                         np.concatenate([p.values for p in parts]), np.concatenate([p.count for p in parts]))

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"x": self.x, "values": self.values, "count": self.count,
                **{f"context_{k}": v for k, v in self.context.items()}}

    @staticmethod
    def from_arrays(arrays: dict[str, np.ndarray]) -> Positions:
        context = {k.removeprefix("context_"): v for k, v in arrays.items() if k.startswith("context_")}
        return Positions(arrays["x"], context, arrays["values"].astype(np.float32), arrays["count"])


@dataclass
class LabelChunk:
    """What an actor sends back: positions by role, and the games they came from."""

    index: int
    positions: dict[str, Positions]
    games: int


class LabelWorker:
    """One actor: plays the prior at every seat and labels each position's candidates by rollouts."""

    def __init__(self, game: str, prior: str, rollout: str, top: int, seed: int, features: str = "") -> None:
        self.adapter = adapter_for(game, features)
        self.game = load_game(game)
        self.rules = self.adapter.selfplay_rules()
        self.prior, self.rollout, self.top, self.seed = prior, rollout, top, seed
        self.deal_value = PROFILES[game].deal_value

    def collect(self, index: int, positions: int) -> LabelChunk:
        """Play games from chunk ``index``'s seed until at least ``positions`` positions are labelled."""
        chunk_seed = derive_seed(self.seed, "chunk", index)
        rows: dict[str, list[tuple[np.ndarray, dict[str, np.ndarray], np.ndarray, int]]] = {}
        games = gathered = 0
        while gathered < positions:
            gathered += self._play(derive_seed(chunk_seed, "game", games), rows)
            games += 1
        top = self.top
        found = {}
        for role, entries in rows.items():
            width = entries[0][0].shape[1]
            x = np.zeros((len(entries), top, width), dtype=np.int8)
            values = np.zeros((len(entries), top), dtype=np.float32)
            for i, (features, _, labels, count) in enumerate(entries):
                x[i, :count] = features
                values[i, :count] = labels
            context = {name: np.stack([entry[1][name] for entry in entries]).astype(np.int8)
                       for name in entries[0][1]}
            count = np.array([entry[3] for entry in entries], dtype=np.int8)
            found[role] = Positions(x, context, values, count)
        return LabelChunk(index, found, games)

    def _play(self, seed: int, rows: dict[str, list]) -> int:
        """One game of the prior against itself; its positions' labels appended to ``rows``; their number."""
        game, adapter = self.game.name, self.adapter
        state = self.game.new_state(seed, self.rules)
        seats = range(self.game.num_players)
        players = [make_agent(self.prior, game, derive_seed(seed, "prior", seat)) for seat in seats]
        rollouts = [make_agent(self.rollout, game, derive_seed(seed, "rollout", seat)) for seat in seats]
        for seat in seats:
            players[seat].begin(game, seat, {})
            rollouts[seat].begin(game, seat, {})
        labelled = 0
        try:
            while not state.is_terminal():
                seat = state.current_player
                observation = state.observation(seat)
                legal = state.legal_actions()
                role = adapter.role(observation)
                if len(legal) == 1 or role is None:
                    state.apply(legal[0] if len(legal) == 1 else players[seat].act(observation, legal))
                    continue
                candidates = [entry.action for entry in ranked(players[seat].explain(observation, legal), legal)]
                candidates = candidates[: self.top]
                if len(candidates) > 1:
                    simulation = Rollout(rollouts, seat, self.deal_value)
                    labels = []
                    for action in candidates:
                        world = state.clone()
                        world.apply(action)
                        labels.append(simulation.play_out(world, state.deal_number))
                    decision = adapter.encode(observation, candidates)
                    rows.setdefault(role, []).append(
                        (decision.x, decision.context, np.array(labels, dtype=np.float32), len(candidates)))
                    labelled += 1
                state.apply(candidates[0])
        finally:
            for agent in [*players, *rollouts]:
                agent.close()
        return labelled


__all__ = ["LabelChunk", "LabelWorker", "Positions"]
