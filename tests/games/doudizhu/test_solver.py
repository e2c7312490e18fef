"""The exact endgame solver against plain minimax, known positions, real games, limits and the CLI."""

import random

import pytest
import typer
from typer.testing import CliRunner

import paiju
from paiju.core.errors import CardError, IllegalActionError
from paiju.games.doudizhu import DouDizhuRules, Move, legal_moves
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS
from paiju.games.doudizhu.solve_cli import solve_doudizhu
from paiju.games.doudizhu.solver import solve
from paiju.games.doudizhu.solver_position import Position, PositionError, position_from_state, position_from_text

STANDARD = DouDizhuRules()
DOUZERO = DouDizhuRules(rocket_as_kickers=True, bomb_as_kickers=True)
OPENSPIEL = DouDizhuRules(no_four_with_two=True)
GAME = paiju.load_game("doudizhu")
HARD = ("QQ22B", "334455TTKA2R", "7799JQ2", "up", "Q", "down")
"""A position the solver needs a few thousand nodes for."""


def landlord_wins(hands, landlord, mover, follow, follow_seat, rules) -> bool:
    """Plain minimax over every legal play (no table, no ordering, no quick wins): whether the landlord wins."""
    nxt = (mover + 1) % 3

    def after(move: Move) -> bool:
        if move.is_pass:
            if nxt == follow_seat:
                return landlord_wins(hands, landlord, nxt, None, None, rules)
            return landlord_wins(hands, landlord, nxt, follow, follow_seat, rules)
        played = list(hands)
        played[mover] = tuple(a - b for a, b in zip(hands[mover], move.counts, strict=True))
        if not any(played[mover]):
            return mover == landlord
        return landlord_wins(tuple(played), landlord, nxt, move, mover, rules)

    outcomes = (after(move) for move in legal_moves(hands[mover], follow, rules))
    return any(outcomes) if mover == landlord else all(outcomes)


def random_position(rng: random.Random, most_cards: int, rules: DouDizhuRules) -> Position:
    """Three nonempty hands of at most ``most_cards`` in all, from a few ranks and the jokers (so pairs, trios,
    bombs and chains are common); half the time a play to beat drawn from the cards left."""
    ranks = [*sorted(rng.sample(range(13), rng.randint(2, 6))), 13, 14]
    deck = [rank for rank in ranks for _ in range(FULL_DECK[rank])]
    rng.shuffle(deck)
    total = rng.randint(3, min(most_cards, len(deck)))
    first, second = sorted(rng.sample(range(1, total), 2))
    parts = (deck[:first], deck[first:second], deck[second:total])
    hands = tuple(tuple(part.count(rank) for rank in range(NUM_RANKS)) for part in parts)
    mover = rng.randrange(3)
    follow = follow_seat = None
    spare = deck[total:total + rng.randint(1, 6)]
    if spare and rng.random() < 0.5:
        follow = rng.choice(legal_moves([spare.count(rank) for rank in range(NUM_RANKS)], None, rules))
        follow_seat = rng.choice([seat for seat in range(3) if seat != mover])
    return Position(hands, rng.randrange(3), mover, follow, follow_seat, rules)  # type: ignore[arg-type]


def child_of(position: Position, move: Move) -> tuple[tuple, int, Move | None, int | None] | None:
    """The position after ``move`` as (hands, mover, follow, follow_seat); None if it empties the hand."""
    nxt = (position.to_move + 1) % 3
    if move.is_pass:
        if nxt == position.follow_seat:
            return position.hands, nxt, None, None
        return position.hands, nxt, position.follow, position.follow_seat
    hands = list(position.hands)
    hands[position.to_move] = tuple(a - b for a, b in zip(hands[position.to_move], move.counts, strict=True))
    if not any(hands[position.to_move]):
        return None
    return tuple(hands), nxt, move, position.to_move


@pytest.mark.parametrize(("rules", "count", "seed"), [(STANDARD, 600, 1), (DOUZERO, 200, 2), (OPENSPIEL, 200, 3)])
def test_solver_agrees_with_plain_minimax(rules, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        position = random_position(rng, 10, rules)
        expected = landlord_wins(position.hands, position.landlord, position.to_move, position.follow,
                                 position.follow_seat, rules)
        solution = solve(position)
        assert solution.winner == ("landlord" if expected else "peasants"), str(position)
        mover_is_landlord = position.to_move == position.landlord
        assert solution.mover_wins == (expected == mover_is_landlord)
        if not solution.mover_wins:
            assert solution.move is None
            continue
        assert solution.move in legal_moves(position.hands[position.to_move], position.follow, rules)
        child = child_of(position, solution.move)
        if child is not None:
            hands, mover, follow, follow_seat = child
            assert landlord_wins(hands, position.landlord, mover, follow, follow_seat, rules) == mover_is_landlord


@pytest.mark.parametrize("to_move", ["landlord", "down", "up"])
def test_rocket_and_one_single_win_when_leading(to_move):
    hands = {"landlord": "456789TJQKA2", "down": "44556677889", "up": "AAKKQQ"}
    hands[to_move] = "3BR"
    solution = solve(position_from_text(**hands, to_move=to_move))
    assert solution.winner == ("landlord" if to_move == "landlord" else "peasants")
    assert solution.move is not None and solution.move.cards == "BR"


def test_a_trivially_lost_position():
    position = position_from_text("34", "5", "6", "landlord")  # whatever the landlord leads, the down peasant goes out
    solution = solve(position)
    assert solution.winner == "peasants" and solution.mover_side == "landlord"
    assert solution.move is None and solution.mover_wins is False
    assert str(solution).startswith("the peasants win with best play; the landlord, to move, loses")


def test_a_partner_play_is_left_alone_when_beating_it_loses():
    position = position_from_text("K", "A", "35JAR", "up", last="2", last_by="down")
    solution = solve(position)
    assert solution.winner == "peasants" and solution.move is not None and solution.move.is_pass


@pytest.mark.parametrize(("limit", "seconds"), [(100, None), (None, 0.0)])
def test_the_limit_answers_unknown(limit, seconds):
    position = position_from_text(*HARD)
    solution = solve(position, limit=limit, seconds=seconds)
    assert solution.winner is None and not solution.solved and solution.mover_wins is None
    assert solution.move is None
    assert str(solution).startswith("unknown")
    assert solve(position, limit=1_000_000).winner == "landlord"


def test_solved_games_are_won_against_any_defence():
    """From real game states, the side the solver names wins: its seats play the solver's moves, the other
    side random legal plays, in the engine itself."""
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_state(seed)
        while not state.is_terminal() and sum(map(sum, state.hands)) > 12:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.is_terminal():
            continue
        winner = solve(position_from_state(state)).winner
        assert winner is not None
        while not state.is_terminal():
            position = position_from_state(state)
            if (winner == "landlord") == (state.current_player == state.landlord):
                move = solve(position).move
                assert move is not None and move in state.legal_actions()
            else:
                legal = state.legal_actions()
                move = legal[rng.randrange(len(legal))]
            state.apply(move)
        assert state.result()["winner"] == winner
        checked += 1
    assert checked >= 8


def test_position_from_state_reads_who_made_the_play_to_beat():
    state = GAME.new_state(5)
    state.apply(state.legal_actions()[1])  # the landlord leads
    state.apply(state.legal_actions()[0])  # the down peasant passes
    position = position_from_state(state)
    assert position.to_move == 2 and position.follow_seat == 0 and position.follow is state.follow
    assert position.hands == tuple(tuple(hand) for hand in state.hands)


def test_position_from_state_refuses_bidding():
    state = GAME.new_state(1, DouDizhuRules(mode="full"))
    with pytest.raises(PositionError, match="play phase"):
        position_from_state(state)


@pytest.mark.parametrize(("arguments", "error", "message"), [
    (("33X", "44", "55", "landlord"), CardError, "landlord's hand: unknown card 'X'"),
    (("3333", "3", "55", "landlord"), CardError, "5 cards of rank 3"),
    (("333", "3", "55", "landlord", "33", "up"), CardError, "6 cards of rank 3"),
    (("3", "4", "5", "centre"), PositionError, "player to move"),
    (("3", "4", "5", "up", "56", "down"), IllegalActionError, "'56' is not a DouDizhu combination"),
    (("3", "4", "5", "up", "5", None), PositionError, "give both"),
    (("3", "4", "5", "up", "5", "up"), PositionError, "who is to move"),
    (("3", "4", "5", "up", "pass", "down"), PositionError, "not a pass"),
    (("3", "", "5", "up"), PositionError, "down peasant's hand is empty"),
])
def test_bad_positions_are_refused_by_name(arguments, error, message):
    with pytest.raises(error, match=message):
        position_from_text(*arguments)


def cli() -> typer.Typer:
    """``paiju``'s ``solve`` group as cli.py registers it."""
    app = typer.Typer()
    solve_app = typer.Typer()
    app.add_typer(solve_app, name="solve")
    solve_app.command("doudizhu")(solve_doudizhu)
    return app


def test_cli_solves_a_position():
    result = CliRunner().invoke(cli(), ["solve", "doudizhu", "--landlord", "33KA2", "--down", "4455", "--up",
                                        "789TJ", "--to-move", "landlord", "--last", "5", "--last-by", "down"])
    assert result.exit_code == 0, result.output
    assert "winner: landlord" in result.output
    assert "winning move for the landlord: K (solo)" in result.output
    assert "searched:" in result.output and "nodes" in result.output


def test_cli_names_a_bad_position():
    result = CliRunner().invoke(cli(), ["solve", "doudizhu", "--landlord", "3333", "--down", "3", "--up", "4",
                                        "--to-move", "up"])
    assert result.exit_code == 2
    assert "5 cards of rank 3" in result.output
