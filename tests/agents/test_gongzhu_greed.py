"""Mr. Greed (``mr-greed``): its values, decisions in made positions, determinism, speed smoke test, errors."""

import time

import pytest

import paiju.agents
from paiju.agents.rules.gongzhu_greed import (
    GongzhuGreedAgent,
    GreedConfig,
    GreedValues,
    make_greed_agent,
    relief_table,
)
from paiju.core.errors import AgentError, PaijuError
from paiju.core.match import play_game
from paiju.eval.gongzhu import duplicate_plan
from paiju.eval.team_duplicate import play_deal
from paiju.games.gongzhu import CARD_NAMES, Gongzhu, GongzhuState, parse_cards
from paiju.games.gongzhu.cards import CARD_INDEX

GAME = Gongzhu()


def table(hands: dict[int, str], plays: str = "") -> GongzhuState:
    """A game (seat 0 leads) in which the listed seats hold the listed cards, the other cards going in card order
    to the seats with room, and ``plays`` have been played."""
    fixed = {seat: list(parse_cards(cards)) for seat, cards in hands.items()}
    taken = {card for cards in fixed.values() for card in cards}
    rest = [card for card in CARD_NAMES if card not in taken]
    deal = []
    for seat in range(4):
        hand = fixed.get(seat, [])
        room = 13 - len(hand)
        deal.append(hand + rest[:room])
        rest = rest[room:]
    state = GAME.from_deal(deal)
    for card in parse_cards(plays):
        state.apply(card)
    return state


def values(state: GongzhuState, seed: int = 0) -> dict[str, float]:
    return GongzhuGreedAgent(seed).values(state.observation(state.current_player), state.legal_actions())


def choose(state: GongzhuState, seed: int = 0) -> str:
    card = GongzhuGreedAgent(seed).act(state.observation(state.current_player), state.legal_actions())
    assert card in state.legal_actions()
    return card


def test_table_4_values_at_the_start_of_a_game() -> None:
    # relief = rank burden minus the holding value: SA -50, SK -30, CA -20 .. CJ -5 (C10 stake 50), DA +30 ..
    relief = relief_table(GreedValues(), True, True, 50.0)
    holding = {card: relief[CARD_INDEX[card]] for card in ("SA", "SK", "CA", "CK", "CQ", "CJ", "DA", "DK", "DQ")}
    assert holding == {"SA": 11 + 50, "SK": 9 + 30, "CA": 11 + 20, "CK": 9 + 15, "CQ": 8 + 10, "CJ": 7 + 5,
                       "DA": 11 - 30, "DK": 9 - 20, "DQ": 8 - 10}
    plain = relief_table(GreedValues(), False, False, None)
    assert [plain[CARD_INDEX[card]] for card in ("SA", "S4", "S3", "H10", "HJ", "HA", "DA", "CA")] == \
        [11, 1, 0, 6, 0, 0, 11, 11]


def test_the_guard_s_relief_ends_with_the_trick_that_takes_the_pig() -> None:
    # seat 3 plays last; opponent seat 2 played the pig: ducking gives it the pig, SA would take it
    state = table({0: "S5", 1: "S9", 2: "SQ", 3: "S2 SA"}, "S5 S9 SQ")
    assert values(state) == {"S2": 100.0, "SA": -100.0 + 11}
    assert choose(state) == "S2"


def test_avoids_taking_the_pig_when_it_can() -> None:
    # seat 2 plays third after an opponent's SQ; the opponent after it has spades to duck with
    state = table({0: "SJ", 1: "SQ", 2: "S3 SK"}, "SJ SQ")
    assert choose(state) == "S3"
    state = table({0: "SJ", 1: "S5", 2: "SQ", 3: "S3 SK"}, "SJ S5 SQ")
    assert choose(state) == "S3"
    # the partner (seat 1) already takes the pig: overtaking it costs nothing and sheds SK
    state = table({0: "SJ", 1: "SQ", 2: "S5", 3: "S3 SK"}, "SJ SQ S5")
    assert choose(state) == "SK"


def test_dumps_the_pig_on_an_opponent_when_void_but_not_on_its_partner() -> None:
    void_in_clubs = "SQ S2 S3 H2 H3 H4 D2 D3 D4 D5 D6 D7 D8"
    assert choose(table({0: "CA", 1: void_in_clubs}, "CA")) == "SQ"  # opponent seat 0 surely wins
    assert choose(table({0: "CA", 2: void_in_clubs, 1: "C2"}, "CA C2")) != "SQ"  # partner seat 0 wins


def test_wins_the_sheep_when_it_is_safe() -> None:
    # last to play, no higher diamond on the table
    assert choose(table({0: "D5", 1: "D9", 2: "D8", 3: "D3 DJ"}, "D5 D9 D8")) == "DJ"
    # second to play, DA DK DQ gone in an earlier trick: DJ is the highest diamond left
    state = table({0: "DA D5", 1: "D4 D2 DJ", 2: "DK", 3: "DQ"}, "DA D4 DK DQ D5")
    assert state.current_player == 1
    assert choose(state) == "DJ"


def test_explain_ranks_by_value_and_act_plays_the_first() -> None:
    state = GAME.new_state(5)
    observation, legal = state.observation(0), state.legal_actions()
    ranked = GongzhuGreedAgent(3).explain(observation, legal)
    assert sorted(scored.action for scored in ranked) == sorted(legal)
    assert [scored.score for scored in ranked] == sorted((scored.score for scored in ranked), reverse=True)
    assert GongzhuGreedAgent(3).act(observation, legal) == ranked[0].action


def test_same_seed_same_game() -> None:
    def play(seed: int) -> list:
        agents = [GongzhuGreedAgent(seed + seat, GreedConfig(samples=4)) for seat in range(4)]
        return play_game(GAME, agents, 21).to_record()["actions"]
    assert play(7) == play(7)


def test_plays_the_same_game_from_any_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seeded by the hand it holds and blind to absolute seat numbers, Mr. Greed against itself replays each
    # deal from the other side in duplicate play: every deal pair sums to exactly 0.
    paiju.agents.agent_names("gongzhu")
    monkeypatch.setitem(paiju.agents._FACTORIES, ("gongzhu", "test-greed"),
                        lambda argument, seed: GongzhuGreedAgent(seed, GreedConfig(samples=3)))
    outcomes = [play_deal(duplicate_plan(1), ("test-greed", "test-greed"), deal) for deal in range(3)]
    assert [outcome.pair for outcome in outcomes] == [0, 0, 0]
    assert any(outcome.results[0] != 0 for outcome in outcomes)


def test_decision_times_smoke() -> None:
    # Speed is measured by benchmarks/gongzhu_baselines.py --timing; here only that a game plays through.
    agents = [GongzhuGreedAgent(seat) for seat in range(4)]
    state = GAME.new_state(8)
    times = []
    while not state.is_terminal():
        seat = state.current_player
        started = time.perf_counter()
        card = agents[seat].act(state.observation(seat), state.legal_actions())
        times.append(time.perf_counter() - started)
        state.apply(card)
    assert len(times) == 52 and min(times) >= 0


def test_bad_input_raises_clear_errors() -> None:
    observation = GAME.new_state(1).observation(0)
    with pytest.raises(AgentError, match="no legal cards"):
        GongzhuGreedAgent(0).act(observation, [])
    with pytest.raises(AgentError, match="card names such as 'SQ'"):
        GongzhuGreedAgent(0).act(observation, ["joker"])
    with pytest.raises(PaijuError, match="samples must be a positive integer"):
        GreedConfig(samples=0)
    with pytest.raises(PaijuError, match="one value per rank"):
        GreedValues(rank_burden=(1, 2))
    with pytest.raises(PaijuError, match="heart_burden_top"):
        GreedValues(heart_burden_top="1")
    with pytest.raises(PaijuError, match="'SX'"):
        GreedValues(pig_guards=(("SX", -50),))


def test_factory() -> None:
    assert make_greed_agent("", 1).config == GreedConfig()
    assert make_greed_agent("40", 1).config.samples == 40
    for argument in ("0", "many"):
        with pytest.raises(PaijuError, match="number of sampled deals"):
            make_greed_agent(argument, 1)
