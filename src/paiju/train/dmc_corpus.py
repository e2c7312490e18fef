"""A Deep Monte-Carlo warm start from recorded games (``paiju train dmc --warm-records CORPUS``).

The corpus (``paiju records generate``, or any folder of paiju records) is read by
``paiju.records.corpus.CorpusReader``: a record that does not read or replay — an unknown card, an illegal
play, a tribute out of turn, malformed JSON, a truncated gzip file — is reported as ``FILE:LINE: problem`` and
skipped, and so is a game that stops before its end (its returns are unknown). The N good games are split in
file order: the last ⌈h·N⌉ (h = ``warm_holdout``) are held out and never trained on; the others are trained
on in order, one game a learner step.

A game's rows are those of the live warm start (``paiju.train.dmc_selfplay``), with the recorded player as the
teacher: each decision a network makes in self-play — every seat's, in the play phase (tribute and return in
GuanDan, bids in DouDizhu stay with the ``rules`` player) — is an ``Imitation`` row of the decision's features
(the adapter's, as in self-play), every legal action's features, the index of the recorded action among them,
and the return of the step in the recorded game (``DMCAdapter.step_return``).

Held-out accuracy (``HeldOutAccuracy``): a held-out decision with two or more legal actions (a decision as
``paiju records stats`` counts them; a forced move says nothing of the network) is a hit when the network's
highest Q is the recorded action (``paiju.train.segments.top1_agreement``), counted overall and by play type —
``paiju.records.stats.CATEGORIES``: GuanDan's combination types (``single``, ``pair``, ``trips``, ``three with
two``, ``straight``, ``three pair``, ``two trips``, ``bomb`` — bombs of 4 to 8 cards together —, ``straight
flush``, ``joker bomb``, ``pass``), DouDizhu's categories.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju.agents.dmc.adapters import DMCAdapter, Objective
from paiju.core.errors import PaijuError
from paiju.core.registry import load_game
from paiju.records.corpus import CorpusGame, CorpusReader
from paiju.records.stats import CATEGORIES
from paiju.train.dmc_selfplay import Imitation, Step, by_role, imitation, step_returns

ACCURACY_FILE = "warm-accuracy.json"
"""The held-out accuracy of a warm start from records, in the run's folder."""


class WarmCorpus:
    """The good games of the corpus at ``path`` for a warm start of ``game``, split as the module doc says.

    Reading it once (on construction) counts the good games — finished, and without a ``problem`` (a trainer's own
    check of a game, returning why it cannot learn from it, or ``None``) — and lists the bad records in ``skipped``
    (``FILE:LINE: problem``, in file order); a corpus of another game, or one without a good game or without a
    game left to train on, is refused with a ``PaijuError``."""

    def __init__(self, path: Path, game: str, holdout: float,
                 problem: Callable[[CorpusGame], str | None] | None = None) -> None:
        self.path, self.game, self.problem = Path(path), game, problem
        self.skipped: list[str] = []
        self.games = sum(1 for _ in self._read(self.skipped))
        if not self.games:
            first = f" (the first: {self.skipped[0]})" if self.skipped else ""
            raise PaijuError(f"{self.path} holds no {game} game to warm-start from: {len(self.skipped)} records "
                             f"skipped{first}")
        self.held_out = math.ceil(round(holdout * self.games, 9))  # 0.07 · 100 is 7, not 7.000000000000001
        self.training = self.games - self.held_out
        if self.training < 1:
            raise PaijuError(f"{self.path} holds {self.games} good {game} games, all held out by warm_holdout "
                             f"{holdout}: none is left to train on")

    def _read(self, skipped: list[str]) -> Iterator[CorpusGame]:
        """The good, finished games in file order; each bad record's message appended to ``skipped``."""
        reader = CorpusReader(self.path, self.game)
        seen = 0
        for entry in reader:
            skipped += reader.skipped[seen:]
            seen = len(reader.skipped)
            found = (None if self.problem is None else self.problem(entry)) if entry.state.is_terminal() else \
                "the game stops before its end (its returns are unknown)"
            if found is None:
                yield entry
            else:
                skipped.append(f"{entry.source}: {found}")
        skipped += reader.skipped[seen:]

    def training_games(self) -> Iterator[CorpusGame]:
        """The games trained on: all but the last ``held_out``."""
        return itertools.islice(self._read([]), self.training)

    def training_passes(self, passes: int, start: int = 0) -> Iterator[CorpusGame]:
        """The games trained on, ``passes`` times over, from the ``start``-th on (a resumed run's place)."""
        every = itertools.chain.from_iterable(self.training_games() for _ in range(passes))
        return itertools.islice(every, start, None)

    def held_out_games(self) -> Iterator[CorpusGame]:
        """The games never trained on: the last ``held_out``."""
        return itertools.islice(self._read([]), self.training, None)

    def summary(self) -> str:
        """One line: what was read, skipped, trained on and held out."""
        return (f"{self.path}: {self.games:,} {self.game} games ({len(self.skipped)} records skipped): the first "
                f"{self.training:,} to imitate, the last {self.held_out:,} held out")


def recorded_steps(adapter: DMCAdapter, entry: CorpusGame) -> list[tuple[Step, str]]:
    """Every decision of the recorded game that a network makes in self-play, replayed from its opening: the step
    (its features, and the recorded action's index among the legal actions as the choice) and the action's play
    type (``CATEGORIES``)."""
    game = load_game(entry.record["game"])
    category = CATEGORIES[game.name]
    state = game.opening_state(entry.record)
    found = []
    for seat, value in entry.record["actions"]:
        action = state.action_from_json(value)
        observation = state.observation(seat)
        role = adapter.role(observation)
        if role is not None:
            legal = state.legal_actions()
            decision = adapter.encode(observation, legal)
            found.append((Step(seat, state.deal_number, role, decision, legal.index(action), 0.0),
                          category(state, action)))
        state.apply(action, seat=seat)
    return found


def game_rows(adapter: DMCAdapter, entry: CorpusGame, objective: Objective) -> dict[str, Imitation]:
    """The imitation rows of a recorded game, by role (the module doc)."""
    steps = [step for step, _ in recorded_steps(adapter, entry)]
    returns = step_returns(adapter, entry.state, steps, objective)
    return {role: imitation(mine, returns) for role, mine in by_role(steps).items()}


@dataclass
class HeldOutAccuracy:
    """Top-1 agreement with the recorded actions on the held-out decisions (the module doc): ``types[label] =
    [decisions, hits]``; ``forced`` counts the held-out moves with one legal action, left out."""

    types: dict[str, list[int]] = field(default_factory=dict)
    forced: int = 0
    label: str = "play type"
    """What ``types`` are counted by."""

    @property
    def decisions(self) -> int:
        return sum(decisions for decisions, _ in self.types.values())

    @property
    def top1(self) -> float:
        return sum(hits for _, hits in self.types.values()) / max(self.decisions, 1)

    def to_json(self) -> dict[str, Any]:
        ordered = sorted(self.types.items(), key=lambda item: -item[1][0])
        return {"decisions": self.decisions, "top1": round(self.top1, 4), "forced": self.forced,
                "types": {label: {"decisions": decisions, "top1": round(hits / decisions, 4)}
                          for label, (decisions, hits) in ordered}}

    def table(self) -> str:
        """The accuracy by label (play type, or role) as a small text table, most frequent first, then all."""
        width = max(len(self.label), *(len(label) for label in self.types))
        lines = [f"{self.label:<{width}}  {'decisions':>9}  {'top-1':>6}"]
        for label, row in self.to_json()["types"].items():
            lines.append(f"{label:<{width}}  {row['decisions']:>9,}  {row['top1']:>6.3f}")
        lines.append(f"{'all':<{width}}  {self.decisions:>9,}  {self.top1:>6.3f}")
        return "\n".join(lines)


Agreement = Callable[[str, Imitation], float]
"""The share of a role's decisions whose highest Q is the recorded action (``top1_agreement``)."""


def held_out_accuracy(corpus: WarmCorpus, adapter: DMCAdapter, objective: Objective,
                      agreement: Agreement) -> HeldOutAccuracy:
    """``HeldOutAccuracy`` of the networks behind ``agreement`` on ``corpus``'s held-out games, scored game by game
    and play type by play type."""
    accuracy = HeldOutAccuracy()
    for entry in corpus.held_out_games():
        found = recorded_steps(adapter, entry)
        returns = step_returns(adapter, entry.state, [step for step, _ in found], objective)
        groups: dict[tuple[str, str], list[Step]] = {}
        for step, label in found:
            if len(step.decision.actions) < 2:
                accuracy.forced += 1
            else:
                groups.setdefault((step.role, label), []).append(step)
        for (role, label), steps in groups.items():
            counts = accuracy.types.setdefault(label, [0, 0])
            counts[0] += len(steps)
            counts[1] += round(agreement(role, imitation(steps, returns)) * len(steps))
    return accuracy


def write_report(out: Path, corpus: WarmCorpus, accuracy: HeldOutAccuracy, games: int, decisions: int,
                 complete: bool) -> Path:
    """``out/ACCURACY_FILE``: the corpus, how much of it was imitated (``games`` and their ``decisions``;
    ``complete`` once all its training games were), its skipped records and the held-out accuracy."""
    report = {"corpus": str(corpus.path), "game": corpus.game, "games": corpus.games,
              "training_games": corpus.training, "held_out_games": corpus.held_out, "games_imitated": games,
              "decisions_imitated": decisions, "complete": complete,
              "decision_rule": "a held-out move with two or more legal actions",
              "held_out": accuracy.to_json(), "skipped": len(corpus.skipped), "skipped_records": corpus.skipped}
    path = out / ACCURACY_FILE
    path.write_text(json.dumps(report, indent=2) + "\n")
    return path


__all__ = ["ACCURACY_FILE", "Agreement", "HeldOutAccuracy", "WarmCorpus", "game_rows", "held_out_accuracy",
           "recorded_steps", "write_report"]
