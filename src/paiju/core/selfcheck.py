"""Soak test for any game: play seeded random games and check the engine's invariants at every step.

Checks, for each game and each decision:

- the legal list is non-empty and has no duplicates, and a random legal action applies;
- an out-of-turn attempt raises ``IllegalActionError`` and changes nothing (the perfect view and legal
  actions compared at every step, the whole record every ``privacy_every`` steps);
- the game-specific invariants hold (``State.invariant_errors``: card conservation, hand sizes);
- each seat's observation is unchanged when the hidden cards are redrawn (``Game.determinize``), so it
  depends only on what that seat may see (every ``privacy_every`` steps);

and for each game: it terminates, its payoffs sum as the game says, its record replays to the same record,
and replaying its actions' JSON forms from the same seed gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from paiju.core.errors import IllegalActionError
from paiju.core.game import Game, State

MAX_STEPS = 10_000


@dataclass
class SelfcheckReport:
    """Counts of what was checked, and the first failures found."""

    games: int = 0
    steps: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def selfcheck(game: Game, games: int, seed: int = 0, rules: object = None, privacy_every: int = 7,
              on_game: Callable[[int], None] | None = None) -> SelfcheckReport:
    """Play ``games`` random games from seeds ``seed``, ``seed + 1``, ... checking invariants.

    ``privacy_every``: redraw hidden cards and compare observations every that many steps (it is slow).
    """
    report = SelfcheckReport()
    for index in range(games):
        game_seed = seed + index
        try:
            _check_game(game, game_seed, rules, privacy_every, report)
        except Exception as error:  # a crash is a finding, reported with its seed
            report.failures.append(f"seed {game_seed}: {type(error).__name__}: {error}")
        report.games += 1
        if on_game is not None:
            on_game(index)
        if len(report.failures) >= 20:
            break
    return report


def _check_game(game: Game, seed: int, rules: object, privacy_every: int, report: SelfcheckReport) -> None:
    rng = random.Random(seed)
    state = game.new_state(seed, rules)
    replay = game.new_state(seed, rules)
    fail = report.failures.append
    for step in range(MAX_STEPS):
        if state.is_terminal():
            break
        for problem in state.invariant_errors():
            fail(f"seed {seed} step {step}: {problem}")
        legal = state.legal_actions()
        if not legal:
            fail(f"seed {seed} step {step}: no legal action in a non-terminal state")
            return
        if len(set(legal)) != len(legal):
            fail(f"seed {seed} step {step}: duplicate legal actions")
        seat = state.current_player
        assert seat is not None
        thorough = step % privacy_every == 0
        _check_rejections(state, seat, seed, step, fail, thorough)
        if thorough:
            _check_privacy(game, state, rng, seed, step, fail)
        action = legal[rng.randrange(len(legal))]
        state.apply(action, seat=seat)
        replay.apply(replay.action_from_json(state.action_to_json(action)))
        report.steps += 1
    else:
        fail(f"seed {seed}: no end after {MAX_STEPS} steps")
        return
    payoffs = state.payoffs()
    if game.zero_sum and abs(sum(payoffs)) > 1e-9:
        fail(f"seed {seed}: payoffs {payoffs} do not sum to zero")
    record = state.to_record()
    if game.from_record(record).to_record() != record:
        fail(f"seed {seed}: the record does not replay to itself")
    if replay.to_record() != record:
        fail(f"seed {seed}: replaying the JSON actions gives a different game")


def _check_rejections(state: State, seat: int, seed: int, step: int, fail: Callable[[str], None],
                      thorough: bool) -> None:
    """An out-of-turn seat is refused, and the refusal changes nothing: compared on the whole record when
    ``thorough`` (it grows with the game), else on the perfect view and the legal actions."""

    def snapshot() -> object:
        if thorough:
            return state.to_record()
        return (state.perfect_view(), state.current_player, list(state.legal_actions()))

    before = snapshot()
    other = (seat + 1) % state.num_players
    try:
        state.apply(state.legal_actions()[0], seat=other)
        fail(f"seed {seed} step {step}: seat {other} played out of turn")
    except IllegalActionError:
        pass
    if snapshot() != before:
        fail(f"seed {seed} step {step}: a refused action changed the state")


def _check_privacy(game: Game, state: State, rng: random.Random, seed: int, step: int,
                   fail: Callable[[str], None]) -> None:
    """Each seat's observation is the same after the cards it cannot see are redrawn."""
    for seat in range(state.num_players):
        observation = state.observation(seat)
        redrawn = game.determinize(observation, random.Random(rng.random()))
        if redrawn.observation(seat).to_json() != observation.to_json():
            fail(f"seed {seed} step {step}: seat {seat}'s observation changes with cards it cannot see")
        for problem in redrawn.invariant_errors():
            fail(f"seed {seed} step {step}: determinized state: {problem}")
