"""ScrofaZero's scenarios: consistency with the observation, exact strata (checked against every consistent deal of
small endgames), unbiased stratified weights, IEC weighting, errors and reproducibility."""

import itertools
import math
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.agents.scrofazero.scenarios import (
    iec_weights,
    important_plays,
    key_cards,
    strata,
    stratified,
    uniform,
)
from paiju.agents.search.worlds import World
from paiju.core.errors import PaijuError
from paiju.games.gongzhu import Gongzhu
from paiju.games.gongzhu.cards import CARD_INDEX, CARD_NAMES, sort_cards
from paiju.games.gongzhu.hidden import HiddenCards
from paiju.games.gongzhu.sampling import count_deals

GAME = Gongzhu()
SAMPLERS = (uniform, stratified)


def low_card_play(state, rng: random.Random, steps: int) -> None:
    """Play ``steps`` cards, mostly the lowest legal one, so that high (key) cards are still out late in the game."""
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[0] if rng.random() < 0.7 else legal[rng.randrange(len(legal))])


def game_at(seed: int, moment: int):
    """A seeded game after ``moment`` plays; odd seeds deal whole runs of suits so that voids show early."""
    rng = random.Random(seed)
    if seed % 2:
        deck = list(CARD_NAMES)
        offset = rng.randrange(52)
        deck = deck[offset:] + deck[:offset]
        state = GAME.from_deal([deck[13 * seat: 13 * seat + 13] for seat in range(4)])
    else:
        state = GAME.new_state(seed)
    low_card_play(state, rng, moment)
    return state


def void_locked_state():
    """Seat 0 wins four tricks with its aces; after them seat 1 is proved to hold only hearts, seat 2 only diamonds
    and seat 3 only clubs, so exactly one deal is consistent with seat 0's (or seat 1's) observation."""
    hands = [["SA", *(f"S{rank}" for rank in range(2, 11)), "HA", "DA", "CA"],
             [f"H{rank}" for rank in [*range(2, 11), "J", "Q", "K"]] + ["SJ"],
             [f"D{rank}" for rank in [*range(2, 11), "J", "Q", "K"]] + ["SQ"],
             [f"C{rank}" for rank in [*range(2, 11), "J", "Q", "K"]] + ["SK"]]
    state = GAME.from_deal(hands)
    for card in ["HA", "H2", "SQ", "SK", "DA", "SJ", "D2", "C2", "CA", "H3", "D3", "C3", "SA", "H4", "D4", "C4"]:
        state.apply(card)
    return state


def consistent_deals(observation) -> list[tuple[int, int, int]]:
    """Every deal of the unseen cards to the other seats (hand masks in seat order) that fits the observation."""
    hidden = HiddenCards.of(observation)
    cards = [card for card in range(52) if hidden.unseen >> card & 1]
    deals = []
    first, second, _ = hidden.sizes
    for one in itertools.combinations(cards, first):
        left = [card for card in cards if card not in one]
        for two in itertools.combinations(left, second):
            three = [card for card in left if card not in two]
            hands = tuple(sum(1 << card for card in hand) for hand in (one, two, three))
            if all(not hand & banned for hand, banned in zip(hands, hidden.forbidden, strict=True)):
                deals.append(hands)
    return deals


def hand_masks(scenario: World, seats) -> tuple[int, ...]:
    return tuple(scenario.state.hands[seat] for seat in seats)


def endgames():
    """Endgame observations (at most 9 unseen cards), for exhaustive checks."""
    for seed, moment in itertools.product(range(24), (40, 42, 44)):
        state = game_at(seed, moment)
        yield state.observation(state.current_player)
        yield state.observation((state.current_player + 1) % 4)


# -- consistency ---------------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 51), st.integers(0, 3), st.integers(1, 30), st.sampled_from(SAMPLERS))
def test_every_scenario_is_consistent_with_the_observation(seed, moment, seat, count, sampler):
    truth = game_at(seed, moment)
    observation = truth.observation(seat)
    scenarios = sampler(observation, count, random.Random(seed))
    assert len(scenarios) == count
    assert math.isclose(sum(scenario.weight for scenario in scenarios), 1.0)
    for scenario in scenarios:
        assert scenario.weight > 0
        assert scenario.state.invariant_errors() == []
        assert scenario.state.observation(seat) == observation
        for other, suits in enumerate(observation.voids):
            assert len(scenario.state.hand(other)) == len(truth.hand(other))
            assert not [card for card in scenario.state.hand(other) if card[0] in suits]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("sampler", SAMPLERS)
def test_voids_that_leave_one_deal_give_the_true_deal(seat, sampler):
    truth = void_locked_state()
    observation = truth.observation(seat)
    assert HiddenCards.of(observation).deals() == 1
    assert [(s.placement, s.probability) for s in strata(observation)] == [
        (tuple(next(seat for seat in range(4) if card in truth.hand(seat)) for card in key_cards(observation)), 1)]
    for scenario in sampler(observation, 5, random.Random(seat)):
        assert scenario.state.hands == truth.hands and scenario.state.deal == truth.deal


# -- strata --------------------------------------------------------------------------------------------------


def test_key_cards_follow_the_authors_priority():
    opening = GAME.from_deal([["SQ", "DJ", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ", "SK"],
                              ["SA", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK"],
                              ["HA", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "DQ", "DK", "DA"],
                              [*CARD_NAMES[39:]]])
    # Seat 0 leads holding SQ and DJ: the spade and diamond groups drop out, hearts come first.
    assert key_cards(opening.observation(0)) == ("HA", "HK", "HQ")
    # Seat 1 sees SQ unseen: SQ's group first (SA is its own), then DJ's group.
    assert key_cards(opening.observation(1)) == ("SQ", "SK", "DJ")
    opening.apply("S2")
    # Following spades: the led suit's list, minus what seat 1 sees.
    assert key_cards(opening.observation(1)) == ("SQ", "SK", "SJ")


def test_strata_are_exactly_the_placements_of_the_consistent_deals():
    checked = several = 0
    for observation in endgames():
        hidden = HiddenCards.of(observation)
        keys = key_cards(observation)
        deals = consistent_deals(observation)
        assert hidden.deals() == len(deals) > 0
        placements: dict[tuple[int, ...], int] = {}
        for deal in deals:
            placement = tuple(next(seat for seat, hand in zip(hidden.others, deal, strict=True)
                                   if hand >> CARD_INDEX[card] & 1) for card in keys)
            placements[placement] = placements.get(placement, 0) + 1
        found = strata(observation)
        assert {s.placement: s.probability for s in found} == {
            placement: Fraction(number, len(deals)) for placement, number in placements.items()}
        assert all(s.key_cards == keys for s in found) and sum(s.probability for s in found) == 1
        checked += 1
        several += len(keys) >= 2 and len(found) >= 3
    assert checked >= 100 and several >= 10


def test_the_stratified_estimate_is_exact_for_key_placements_and_unbiased_for_the_rest():
    cases = 0
    for observation in endgames():
        found = strata(observation)
        if len(found) < 3:
            continue
        hidden = HiddenCards.of(observation)
        deals = consistent_deals(observation)
        key_mask = sum(1 << CARD_INDEX[card] for card in key_cards(observation))
        low_card = hidden.unseen & -hidden.unseen  # the lowest unseen card

        def keys_held(hands, key_mask=key_mask):
            return (hands[0] & key_mask).bit_count()

        exact_keys = sum(keys_held(deal) for deal in deals) / len(deals)
        exact_low = sum(bool(deal[0] & low_card) for deal in deals) / len(deals)
        estimates = []
        for draw in range(300):
            scenarios = stratified(observation, len(found) + 2, random.Random(draw))
            held = [hand_masks(scenario, hidden.others) for scenario in scenarios]
            assert math.isclose(sum(s.weight * keys_held(h) for s, h in zip(scenarios, held, strict=True)),
                                exact_keys, abs_tol=1e-9)
            estimates.append(sum(s.weight * bool(h[0] & low_card) for s, h in zip(scenarios, held, strict=True)))
        error = np.std(estimates) / math.sqrt(len(estimates))
        assert abs(np.mean(estimates) - exact_low) <= 4 * error + 1e-9
        cases += 1
        if cases == 4:
            break
    assert cases == 4


def test_allocation_covers_every_stratum_and_weights_give_each_its_probability():
    observation = next(obs for obs in endgames() if len(strata(obs)) >= 5)
    found = strata(observation)
    hidden = HiddenCards.of(observation)
    count = len(found) + 7
    scenarios = stratified(observation, count, random.Random(3))
    by_placement: dict[tuple[int, ...], list[World]] = {}
    for scenario in scenarios:
        placement = tuple(next(seat for seat in hidden.others if scenario.state.hands[seat] >> CARD_INDEX[card] & 1)
                          for card in key_cards(observation))
        by_placement.setdefault(placement, []).append(scenario)
    assert set(by_placement) == {s.placement for s in found}
    for stratum in found:
        drawn = by_placement[stratum.placement]
        assert math.isclose(sum(s.weight for s in drawn), stratum.probability)
        # One each, then the 7 others by largest remainder of 7 p: within one of 1 + 7 p.
        assert abs(len(drawn) - (1 + 7 * stratum.probability)) < 1


def test_fewer_scenarios_than_strata_are_uniform_draws():
    observation = next(obs for obs in endgames() if len(strata(obs)) >= 3)
    first = stratified(observation, 2, random.Random(5))
    second = uniform(observation, 2, random.Random(5))
    assert [s.state.deal for s in first] == [s.state.deal for s in second]
    assert [s.weight for s in first] == [0.5, 0.5]


def test_count_deals_agrees_with_enumeration_and_rejects_wrong_sizes():
    observation = next(endgames())
    hidden = HiddenCards.of(observation)
    assert count_deals(hidden.unseen, hidden.sizes, hidden.forbidden) == len(consistent_deals(observation))
    assert count_deals(hidden.unseen, [hidden.sizes[0] + 1, *hidden.sizes[1:]], hidden.forbidden) == 0


# -- IEC -----------------------------------------------------------------------------------------------------


def rank_policy(states) -> np.ndarray:
    """Values a card by its rank only: playing the highest card of a suit is best."""
    return np.array([[card % 13 for card in range(52)] for _ in states], dtype=np.float64)


def total_regrets(observation, scenarios, within_suit: bool = True) -> list[int]:
    """Under ``rank_policy``: per scenario, the sum over the other seats' important plays of (best legal rank
    - played rank), the best among the legal cards of the played suit (or all legal cards)."""
    plays = observation.history + observation.trick
    led = observation.led_suit
    totals = []
    for scenario in scenarios:
        replay = GAME.from_deal(scenario.state.deal)
        total = 0
        for seat, card in plays:
            rank = CARD_INDEX[card] % 13
            if seat != observation.seat and rank >= 6 and led in (None, card[0]):
                legal = [c for c in replay.legal_actions() if c[0] == card[0] or not within_suit]
                total += max(CARD_INDEX[c] % 13 for c in legal) - rank
            replay.apply(card)
        totals.append(total)
    return totals


def mid_game(seed: int = 0, moment: int = 28):
    truth = game_at(seed, moment)
    return truth, truth.observation(truth.current_player)


def test_iec_with_beta_zero_or_a_policy_agreeing_with_the_plays_keeps_the_weights():
    truth, observation = mid_game()
    actual = [card for _, card in truth.actions]

    def agreeing(states):
        values = np.zeros((len(states), 52))
        for row, state in enumerate(states):
            values[row, actual[len(state.actions)]] = 10.0
        return values

    for sampler in SAMPLERS:
        scenarios = sampler(observation, 30, random.Random(2))
        prior = np.array([s.weight for s in scenarios])
        assert np.allclose(iec_weights(observation, scenarios, rank_policy, beta=0.0), prior / prior.sum())
        for beta in (0.015, 1.0):
            assert np.allclose(iec_weights(observation, scenarios, agreeing, beta=beta), prior / prior.sum())


@pytest.mark.parametrize("following", [False, True])
def test_iec_asks_the_policy_about_the_important_plays_of_the_other_seats_only(following):
    truth = game_at(4, 25 if following else 24)
    observation = truth.observation(truth.current_player)
    assert bool(observation.trick) == following
    actual = truth.actions
    asked = []

    def recording(states):
        asked.extend(actual[len(state.actions)] for state in states)
        for state in states:
            assert state.current_player == actual[len(state.actions)][0]
        return rank_policy(states)

    scenarios = uniform(observation, 3, random.Random(0))
    iec_weights(observation, scenarios, recording)
    expected = [(seat, CARD_INDEX[card]) for seat, card in observation.history + observation.trick
                if seat != observation.seat and CARD_INDEX[card] % 13 >= 6
                and (not following or card[0] == observation.led_suit)]
    assert expected and asked == expected * 3
    assert len(important_plays(observation)) == len(expected)


@pytest.mark.parametrize("within_suit", [True, False])
def test_iec_moves_weight_to_scenarios_where_the_plays_were_good(within_suit):
    _, observation = mid_game()
    scenarios = uniform(observation, 30, random.Random(8))
    regrets = np.array(total_regrets(observation, scenarios, within_suit), dtype=np.float64)
    assert regrets.min() < regrets.max()
    weights = iec_weights(observation, scenarios, rank_policy, beta=0.05, clip=1e-12, within_suit=within_suit)
    expected = np.exp(-0.05 * regrets)
    assert np.allclose(weights, expected / expected.sum())
    assert weights @ regrets < regrets.mean()


def test_iec_clips_small_factors():
    _, observation = mid_game()
    scenarios = stratified(observation, 30, random.Random(8))
    prior = np.array([s.weight for s in scenarios])
    plays = observation.history + observation.trick
    bad_plays = []
    for scenario in scenarios:
        replay = GAME.from_deal(scenario.state.deal)
        bad = 0
        for position, (_, card) in enumerate(plays):
            if position in important_plays(observation):
                same_suit = [c for c in replay.legal_actions() if c[0] == card[0]]
                bad += max(CARD_INDEX[c] % 13 for c in same_suit) > CARD_INDEX[card] % 13
            replay.apply(card)
        bad_plays.append(bad)
    assert len(set(bad_plays)) > 1
    weights = iec_weights(observation, scenarios, rank_policy, beta=1000.0, clip=0.25)
    expected = prior * 0.25 ** np.array(bad_plays)
    assert np.allclose(weights, expected / expected.sum())


# -- errors and reproducibility ------------------------------------------------------------------------------


def test_an_observation_no_deal_fits_is_refused():
    observation = void_locked_state().observation(0)
    # Seat 0 "holds" H5 instead of S2: S2 is then unseen, but seats 1-3 are all void in spades.
    forged = replace(observation, hand=sort_cards([*(c for c in observation.hand if c != "S2"), "H5"]))
    for call in (lambda: uniform(forged, 3, random.Random(0)), lambda: stratified(forged, 3, random.Random(0)),
                 lambda: strata(forged)):
        with pytest.raises(PaijuError, match="void"):
            call()


@pytest.mark.parametrize("count", [0, -2, 1.5])
@pytest.mark.parametrize("sampler", SAMPLERS)
def test_a_count_below_one_is_refused(count, sampler):
    with pytest.raises(ValueError, match="number of scenarios"):
        sampler(mid_game()[1], count, random.Random(0))


def test_iec_refuses_bad_parameters_policies_and_scenarios():
    truth, observation = mid_game()
    scenarios = uniform(observation, 4, random.Random(0))
    for beta, clip in ((-0.1, 0.1), (0.015, 0.0), (0.015, 1.5)):
        with pytest.raises(ValueError, match="beta"):
            iec_weights(observation, scenarios, rank_policy, beta=beta, clip=clip)
    with pytest.raises(ValueError, match="shape"):
        iec_weights(observation, scenarios, lambda states: np.zeros((len(states), 13)))
    with pytest.raises(ValueError, match="at least one scenario"):
        iec_weights(observation, [], rank_policy)
    other_seat = truth.observation((observation.seat + 1) % 4)
    with pytest.raises(PaijuError, match="not consistent"):
        iec_weights(other_seat, scenarios, rank_policy)


@pytest.mark.parametrize("sampler", SAMPLERS)
def test_the_same_seed_gives_the_same_scenarios_and_weights(sampler):
    _, observation = mid_game()
    first, again, other = (sampler(observation, 30, random.Random(seed)) for seed in (1, 1, 2))
    assert [(s.state.deal, s.weight) for s in first] == [(s.state.deal, s.weight) for s in again]
    assert [s.state.deal for s in first] != [s.state.deal for s in other]
    assert np.array_equal(iec_weights(observation, first, rank_policy), iec_weights(observation, again, rank_policy))
