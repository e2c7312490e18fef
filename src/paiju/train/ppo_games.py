"""What PPO (``paiju train ppo``) needs to know of a game: its networks, how a game is played into each seat's
trajectories and rewards, and how a batch of decisions is scored. The loop, GAE and the loss are the game's
business nowhere else (``paiju.train.ppo``, ``paiju.train.ppo_selfplay``).

- **DouDizhu** (PerfectDou): one actor-critic per role (landlord, down, up; ``paiju.agents.perfectdou.model``)
  over abstract actions; research-mode games (seat 0 the landlord, no bidding); a seat's trajectory is its
  decisions of the game, rewarded by the oracle (the change of the minimum-steps advantage ``advantage`` between
  its decisions, times −l for the landlord and +l/2 for a peasant, PerfectDou §4.4) plus the final score on its
  last decision (ADP: landlord ±2, peasant ±1, doubled per bomb or rocket). Networks of the ``laizi`` features
  (``ModelConfig.features``) play 癞子 games (one wild rank, as ``paiju train dmc --features laizi``), their
  minimum steps counting the wild cards.
- **GuanDan**: one actor-critic every seat plays (``paiju.agents.perfectdou.guandan``): the actor is a DMC
  GuanDan network, its scores / τ the logits over every legal play; whole games as DMC plays them
  (``GuanDanRules()``, from level 2 until a team wins at A); tribute and return are decided by the ``rules``
  player, as in DMC. A seat's trajectory is its decisions of one round, rewarded at the round's end by DMC's
  GuanDan return (``paiju.agents.dmc.adapters.GuanDanAdapter.step_return``: the round's result for the seat's
  team, ±1..±3, and ±1 more on the round that ends the game); no oracle (``oracle_scale`` is DouDizhu's).

In both, decisions with a single legal play are not trained on (DouDizhu: their reward folds into the previous
decision's) and teacher games (a warm start) carry the teacher's choice instead of a sampled one.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import torch

from paiju.agents import make_agent
from paiju.agents.dmc import weights as dmc_weights
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.models import ModelConfig as PolicyConfig
from paiju.agents.model_files import read_torch_file, resolve
from paiju.agents.perfectdou import guandan
from paiju.agents.perfectdou import model as perfectdou
from paiju.agents.perfectdou.agent import softmax
from paiju.agents.perfectdou.features import Decision, abstract_of, decision, hand_steps, scores
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import State
from paiju.core.registry import load_game
from paiju.eval.seeds import derive_seed
from paiju.games.doudizhu.observation import position_of
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.records.annotations import searched_steps, searched_values

if TYPE_CHECKING:
    from paiju.train.ppo import PPOConfig
    from paiju.train.ppo_selfplay import Steps

RESEARCH = DouDizhuRules(mode="research")
GUANDAN_RETURN_SCALE = 3.0
"""GuanDan returns are divided by this (the largest round result) so the critic's targets stay near unit size."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision a network made: its network ``inputs`` (by name, one row each), its ``candidates`` (by name,
    one row per candidate), the candidate chosen, its log-probability when played and the critic's value."""

    inputs: dict[str, np.ndarray]
    candidates: dict[str, np.ndarray]
    choice: int
    logp: float
    value: float


@dataclass(frozen=True, slots=True)
class Trajectory:
    """One seat's decisions of an episode (DouDizhu: a game; GuanDan: a round), with the reward after each, in the
    game's units (the actors divide them by the value scale)."""

    role: str
    turns: list[Turn]
    rewards: np.ndarray


def sample(logits: np.ndarray, rng: random.Random) -> tuple[int, float]:
    """A candidate drawn from softmax(``logits``) and its log-probability."""
    probabilities = softmax(logits)
    choice = rng.choices(range(len(probabilities)), weights=probabilities.tolist())[0]
    return choice, math.log(max(probabilities[choice], 1e-12))


class PPOGame(ABC):
    """One game as PPO sees it: the learner's networks (``networks[role]``, with ``meta``, ``to_dict``), the
    actors' games and the scores of a batch."""

    game: ClassVar[str]
    roles: ClassVar[tuple[str, ...]]
    """The networks, by name (a role's decisions all train the same network)."""
    value_scale: float
    """Rewards are divided by this so the critic's targets stay near unit size."""

    @abstractmethod
    def create(self, config: PPOConfig) -> tuple[PPOConfig, Any]:
        """The networks of a new run (fresh from the seed, or ``config.init``'s) and the settings they imply."""

    @abstractmethod
    def restore(self, data: dict[str, Any], source: str) -> Any:
        """The networks a checkpoint holds (``to_dict``)."""

    @abstractmethod
    def save(self, models: Any, path: Path, meta: dict[str, Any]) -> str:
        """Write the networks that play as a model file at ``path`` with ``meta``; the agent name that plays it."""

    @abstractmethod
    def fresh(self, seed: int) -> Any:
        """An actor's networks (weights from ``seed``, replaced by the learner's)."""

    @abstractmethod
    def evaluate(self, network: torch.nn.Module, batch: Steps,
                 owner: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The policy's logits of every candidate row of ``batch`` (``owner``: each row's decision) and the
        critic's value of each decision."""

    def eval_rules(self) -> dict[str, Any]:
        """Ruleset options the evaluations play under (``Run.eval_rules``); none by default."""
        return {}

    @abstractmethod
    def players(self, teacher: str, seed: int) -> Any:
        """The agents of a chunk of games from ``seed``: the ``teacher``'s (when named) and those making the
        decisions no network makes."""

    @abstractmethod
    def play(self, models: Any, seed: int, rng: random.Random, players: Any) -> list[Trajectory]:
        """One game dealt from ``seed``: the policies' choices drawn with ``rng`` (or the teacher's); every seat's
        trajectories, in order."""


def advantage(landlord: int, hands: list[list[int]], wild: Sequence[int] = (),
              rules: DouDizhuRules = RESEARCH) -> int:
    """``N_landlord − min(N_down, N_up)`` of the current hands (PerfectDou §4.4), with the wild ranks ``wild``
    under 癞子 ``rules``."""
    steps = [hand_steps(tuple(hand), wild, rules) for hand in hands]
    return steps[landlord] - min(steps[(landlord + 1) % 3], steps[(landlord + 2) % 3])


@dataclass(frozen=True)
class DouDizhuPPO(PPOGame):
    """PerfectDou (module doc): ``model`` the networks' sizes, ``oracle_scale`` the oracle reward's ``l``."""

    model: perfectdou.ModelConfig
    oracle_scale: float
    game: ClassVar[str] = "doudizhu"
    roles: ClassVar[tuple[str, ...]] = perfectdou.ROLES

    @property
    def value_scale(self) -> float:  # type: ignore[override]
        """The oracle scale, at least 1."""
        return max(1.0, self.oracle_scale)

    @property
    def rules(self) -> DouDizhuRules:
        """The self-play ruleset: research mode, 癞子 for networks of the ``laizi`` features."""
        return DouDizhuRules(mode="research", laizi=self.model.layout.laizi)

    def eval_rules(self) -> dict[str, Any]:
        """The self-play ruleset's options but the mode (癞子 networks are evaluated at 癞子)."""
        return {key: value for key, value in self.rules.to_json().items() if key != "mode"}

    def create(self, config: PPOConfig) -> tuple[PPOConfig, perfectdou.PerfectDouModels]:
        """Fresh weights from the seed, or the ``init`` model's (whose sizes and features replace the config's; a
        critic that sees the hidden hands when the init's does not, or the other way round, starts fresh)."""
        if config.init:
            models = perfectdou.load_models(Path(config.init))
            if models.config.perfect != config.model.perfect:
                models = models.with_critic(config.model.perfect, config.seed)
        else:
            models = perfectdou.PerfectDouModels.fresh(config.model, config.seed)
        return replace(config, model=models.config, features=models.config.features), models

    def restore(self, data: dict[str, Any], source: str) -> perfectdou.PerfectDouModels:
        return perfectdou.PerfectDouModels.from_dict(data, source)

    def save(self, models: perfectdou.PerfectDouModels, path: Path, meta: dict[str, Any]) -> str:
        models.meta = meta
        perfectdou.save_models(models, path)
        return f"perfectdou:{path}"

    def fresh(self, seed: int) -> perfectdou.PerfectDouModels:
        return perfectdou.PerfectDouModels.fresh(self.model, seed)

    def evaluate(self, network: torch.nn.Module, batch: Steps,
                 owner: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        encoded = network.encode(torch.from_numpy(batch.state), torch.from_numpy(batch.history))
        logits = network.logits(encoded, torch.from_numpy(batch.actions), torch.from_numpy(batch.abstract), owner)
        return logits, network.values(encoded, torch.from_numpy(batch.perfect))

    def players(self, teacher: str, seed: int) -> Agent | None:
        return make_agent(teacher, "doudizhu", seed) if teacher else None

    def play(self, models: perfectdou.PerfectDouModels, seed: int, rng: random.Random,
             players: Agent | None) -> list[Trajectory]:
        """A research-mode game; each seat's oracle rewards plus its final score (module doc)."""
        teacher = players

        def choose(state: State, observation: Any, legal: list[Any], chosen: Decision) -> tuple[Any, Turn]:
            if teacher is not None:
                move = teacher.act(observation, legal)
                return move, _turn(chosen, _index(chosen, move), 0.0, 0.0)
            logits, value = scores(models.networks[observation.position], chosen, with_value=True)
            choice, logp = sample(logits, rng)
            return chosen.candidates[choice], _turn(chosen, choice, logp, value or 0.0)

        return self._trajectories(load_game("doudizhu").new_state(seed, self.rules), choose)

    def recorded(self, record: dict[str, Any], temperature: float | None) -> list[Trajectory]:
        """A recorded research-mode game's trajectories with the recorded moves as the choices (a warm start from
        records); with a ``temperature`` every searched decision also carries a soft target over its candidates,
        softmax(value / temperature) over the abstract actions the search examined (an abstract action's value:
        the best of its examined moves; those not examined: 0), and the others the recorded move alone
        (``paiju.records.annotations``). The record is one ``record_problem`` accepts."""
        game = load_game("doudizhu")
        values = searched_values(record, game.num_players) if temperature is not None else {}
        replayed = enumerate(record["actions"])

        def choose(state: State, observation: Any, legal: list[Any], chosen: Decision) -> tuple[Any, Turn]:
            step, (_, value) = next(replayed)
            move = state.action_from_json(value)
            turn = _turn(chosen, _index(chosen, move), 0.0, 0.0)
            if temperature is not None:
                examined = [(state.action_from_json(action), score) for action, score in values.get(step, [])]
                turn.candidates["target"] = _soft_target(chosen, examined or [(move, 0.0)], temperature)
            return move, turn

        def forced(state: State) -> None:
            next(replayed)

        return self._trajectories(game.opening_state(record), choose, forced)

    def record_problem(self, record: dict[str, Any], soft: bool) -> str | None:
        """Why a recorded game cannot be imitated — not research mode; not the networks' ruleset (classic or 癞子);
        for soft targets, search values missing or not matching its legal moves (``paiju.records.annotations``) —
        or ``None``."""
        rules = DouDizhuRules.from_json(record.get("rules", {}))
        if rules.mode != "research":
            return "not a research-mode game (PPO plays a fixed landlord, no bidding)"
        if rules.laizi != self.rules.laizi:
            wanted = self.model.layout.ruleset
            return f"not a game of {wanted}, which these networks play ({self.model.features} features)"
        if soft:
            try:
                for _ in searched_steps(load_game("doudizhu"), record):
                    pass
            except RecordError as error:
                return str(error)
        return None

    def _trajectories(self, state: State, choose: Chooser, forced: Callable[[State], None] | None = None,
                      ) -> list[Trajectory]:
        """Play ``state`` (research mode) to the end: ``choose`` makes every decision with two legal moves or more,
        a forced move is played (``forced`` told of it first); each seat's oracle rewards plus its final score."""
        records: dict[int, list[tuple[Turn, int]]] = {0: [], 1: [], 2: []}
        landlord = state.landlord
        if landlord is None or state.phase != "play":
            raise PaijuError("PPO plays DouDizhu research-mode games (a landlord and no bidding)")
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) == 1:
                if forced is not None:
                    forced(state)
                state.apply(legal[0])
                continue
            observation = state.observation(seat)
            move, turn = choose(state, observation, legal, decision(observation, legal, state.hands))
            records[seat].append((turn, advantage(landlord, state.hands, state.wild, state.rules)))
            state.apply(move)
        final_adv = advantage(landlord, state.hands, state.wild, state.rules)
        payoffs = state.payoffs()
        trajectories = []
        for seat, rows in records.items():
            if not rows:
                continue
            sign = -1.0 if seat == landlord else 0.5
            potentials = [row[1] for row in rows] + [final_adv]
            rewards = np.array([sign * self.oracle_scale * (potentials[k + 1] - potentials[k])
                                for k in range(len(rows))], dtype=np.float32)
            rewards[-1] += payoffs[seat]
            trajectories.append(Trajectory(position_of(seat, landlord), [row[0] for row in rows], rewards))
        return trajectories


Chooser = Callable[[State, Any, list[Any], Decision], tuple[Any, Turn]]
"""Makes one DouDizhu decision: (state, observation, legal moves, the decision's features) → (move, its turn)."""


def _index(chosen: Decision, move: Any) -> int:
    """The candidate (abstract action) of ``move``."""
    return int(np.flatnonzero(chosen.abstract == abstract_of(move))[0])


def _turn(chosen: Decision, choice: int, logp: float, value: float) -> Turn:
    features = chosen.features
    return Turn({"state": features.state, "history": features.history, "perfect": features.perfect},
                {"actions": features.actions, "abstract": chosen.abstract.astype(np.int64)}, choice, logp, value)


def _soft_target(chosen: Decision, values: Sequence[tuple[Any, float]], temperature: float) -> np.ndarray:
    """softmax(value / temperature) over the candidates some examined move falls in (``recorded``)."""
    best: dict[int, float] = {}
    for move, value in values:
        row = _index(chosen, move)
        best[row] = max(value, best.get(row, -math.inf))
    rows = np.array(list(best))
    logits = np.array(list(best.values())) / temperature
    target = np.zeros(len(chosen.abstract), dtype=np.float32)
    target[rows] = softmax(logits)
    return target


@dataclass(frozen=True)
class GuanDanPPO(PPOGame):
    """GuanDan (module doc): ``nets`` the actor-critic's sizes and τ."""

    nets: guandan.GuanDanNets
    game: ClassVar[str] = "guandan"
    roles: ClassVar[tuple[str, ...]] = (guandan.ROLE,)

    @property
    def value_scale(self) -> float:  # type: ignore[override]
        return GUANDAN_RETURN_SCALE

    @property
    def _dmc(self) -> Any:
        return adapter_for("guandan", self.nets.policy.features)

    def create(self, config: PPOConfig) -> tuple[PPOConfig, guandan.GuanDanActorCritics]:
        """Fresh weights from the seed, or the actor of the GuanDan DMC model file ``init`` (its widths and
        features replace the config's) with a fresh critic."""
        if config.init:
            models = guandan.GuanDanActorCritics.from_dmc(starting_networks(config.init), self.nets, config.seed)
        else:
            models = guandan.GuanDanActorCritics.fresh(self.nets, config.seed)
        policy = models.config.policy
        return replace(config, model=replace(config.model, policy=policy.hidden), features=policy.features), models

    def restore(self, data: dict[str, Any], source: str) -> guandan.GuanDanActorCritics:
        return guandan.GuanDanActorCritics.from_dict(data, source)

    def save(self, models: guandan.GuanDanActorCritics, path: Path, meta: dict[str, Any]) -> str:
        """The actor alone, as a DMC model file (its ``meta`` says its scores are logits × τ)."""
        dmc_weights.save_models(models.actor(meta), path)
        return f"dmc:{path}"

    def fresh(self, seed: int) -> guandan.GuanDanActorCritics:
        return guandan.GuanDanActorCritics.fresh(self.nets, seed)

    def evaluate(self, network: torch.nn.Module, batch: Steps,
                 owner: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        state = torch.from_numpy(batch.state)
        return (network.logits(state, torch.from_numpy(batch.actions), owner),
                network.values(state, torch.from_numpy(batch.perfect)))

    def players(self, teacher: str, seed: int) -> tuple[Agent, list[Agent] | None]:
        """The ``rules`` player for tribute and return, and (a warm start) the teacher at every seat."""
        fallback = self._dmc.fallback(seed)
        if not teacher:
            return fallback, None
        return fallback, [make_agent(teacher, "guandan", derive_seed(seed, "teacher", seat)) for seat in range(4)]

    def play(self, models: guandan.GuanDanActorCritics, seed: int, rng: random.Random,
             players: tuple[Agent, list[Agent] | None]) -> list[Trajectory]:
        """A whole game; each seat's decisions of each round, rewarded at the round's end (module doc)."""
        dmc, (fallback, teachers) = self._dmc, players
        network = models.networks[guandan.ROLE]
        state = load_game("guandan").new_state(seed, dmc.selfplay_rules())
        for seat, teacher in enumerate(teachers or ()):
            teacher.begin("guandan", seat, {})
        episodes: dict[tuple[int, int], list[Turn]] = {}
        while not state.is_terminal():
            seat = state.current_player
            observation = state.observation(seat)
            legal = state.legal_actions()
            if dmc.role(observation) is None:
                state.apply((teachers[seat] if teachers else fallback).act(observation, legal))
                continue
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            found = dmc.encode(observation, legal)
            perfect = guandan.perfect_features(state.hands, seat)
            if teachers:
                choice, logp, value = legal.index(teachers[seat].act(observation, legal)), 0.0, 0.0
            else:
                with torch.inference_mode():
                    state_row = torch.from_numpy(found.state)
                    logits = network.logits(state_row, torch.from_numpy(found.actions)).numpy()
                    value = float(network.values(state_row[None], torch.from_numpy(perfect)[None])[0])
                choice, logp = sample(logits, rng)
            turn = Turn({"state": found.state.astype(np.int8), "perfect": perfect},
                        {"actions": found.actions.astype(np.int8)}, choice, logp, value)
            episodes.setdefault((seat, state.deal_number), []).append(turn)
            state.apply(legal[choice])
        trajectories = []
        for (seat, deal), turns in episodes.items():
            rewards = np.zeros(len(turns), dtype=np.float32)
            rewards[-1] = dmc.step_return(state, seat, deal, "adp")
            trajectories.append(Trajectory(guandan.ROLE, turns, rewards))
        return trajectories


def starting_networks(init: str) -> dmc_weights.DMCModels:
    """The GuanDan DMC networks of the model file or training folder ``init``; ``PaijuError`` naming what the
    file holds when it holds anything else."""
    file = resolve(init)
    data = read_torch_file(file, "model file to start from")
    found = data.get("format") if isinstance(data, dict) else None
    if found == perfectdou.FORMAT:
        raise PaijuError(f"{file} holds PerfectDou DouDizhu networks ({found}); a GuanDan PPO run starts from a "
                         f"GuanDan DMC model file (paiju train dmc --game guandan)")
    models = dmc_weights.DMCModels.from_dict(data, str(file))
    if models.game != "guandan":
        raise PaijuError(f"{file} holds DMC {models.game} networks; a GuanDan PPO run starts from a GuanDan DMC "
                         f"model file (paiju train dmc --game guandan)")
    return models


def ppo_game(model: perfectdou.ModelConfig | guandan.GuanDanNets, oracle_scale: float = 0.0) -> PPOGame:
    """The game whose networks ``model`` describes: PerfectDou's sizes (DouDizhu, with the oracle scale) or a
    GuanDan actor-critic's."""
    if isinstance(model, guandan.GuanDanNets):
        return GuanDanPPO(model)
    return DouDizhuPPO(model, oracle_scale)


def guandan_nets(model: perfectdou.ModelConfig, features: str, temperature: float) -> guandan.GuanDanNets:
    """A GuanDan actor-critic's sizes from PPO's settings: the actor's widths are ``model.policy``, the critic's
    ``model.value``."""
    return guandan.GuanDanNets(PolicyConfig(hidden=model.policy, features=features), model.value, model.perfect,
                               temperature)


__all__ = ["GUANDAN_RETURN_SCALE", "RESEARCH", "DouDizhuPPO", "GuanDanPPO", "PPOGame", "Trajectory", "Turn",
           "advantage", "guandan_nets", "ppo_game", "sample", "starting_networks"]
