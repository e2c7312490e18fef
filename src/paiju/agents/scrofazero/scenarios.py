"""Weighted scenarios for ScrofaZero's play under imperfect information (ScrofaZero §5.3–§5.4).

A *scenario* is a full ``GongzhuState`` consistent with one seat's ``GongzhuObservation``: the seat's own hand,
every card played (replayed in order), the suits each seat showed void in, and the number of cards each seat
holds. It is a ``World`` (``paiju.agents.search.worlds``): a state and a weight; a list of them, weights
summing to 1, estimates the expectation over the consistent deals, each equally likely (the paper's q, eq. 9).

- ``uniform``: independent uniform draws (``sampling.sample_hidden_hands``), equal weights.
- ``stratified`` (§5.3): up to three *key cards* (``key_cards``) are placed in every feasible way among the
  other three seats (``strata``: at most 27, each with its exact probability under uniform sampling), scenarios
  are drawn in each stratum with the key cards fixed, and weighted ``p(stratum) / scenarios drawn in it``, so
  that the weighted set is unbiased (eq. 6 with the exact p(S_j); the paper's "zero-th order approximation"
  p(S_j) = 1/t and the authors' equal numbers per stratum are biased, so they are not used).
- ``iec_weights`` (§5.4, Algorithm 1): the scores s(c_-i), a product of correction factors
  γ = exp(−β·(q_max − q_a)) over the important past plays of the other seats, the q's from a policy callable.

Hidden information stays hidden: everything here starts from an observation and never sees the true deal.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from paiju.agents.search.worlds import World
from paiju.core.errors import PaijuError
from paiju.games.gongzhu.cards import CARD_INDEX, FULL_MASK, SUIT_MASKS
from paiju.games.gongzhu.hidden import HiddenCards, state_with_hidden
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.sampling import count_deals, sample_hidden_hands
from paiju.games.gongzhu.state import GongzhuState

Policy = Callable[[Sequence[GongzhuState]], np.ndarray]
"""``policy(states) -> values [len(states), 52]``: for each state, the value (score points, for the seat to move)
of playing each card; only the legal cards' entries are read. The ScrofaZero network later; §8.13 feeds it the
other seats' hands averaged ("triple-1/3-hot"), which is the network's business, not this module's."""

IEC_BETA = 0.015
"""β of eq. 12 per score point: the authors' code uses ``BETA_POST_RECT / BETA`` times policy logits, where the
logits are ``BETA = 0.2`` times values in points (the policy target is softmax(0.2·(Q − Q_max))), i.e. 0.015
per point (Figure 3 "β = 0.015")."""
IEC_CLIP = 0.1
"""Floor of one correction factor: the authors' code floors its (linearised) factor at 0.1, so that one play
the policy finds very bad cannot wipe a scenario out."""
IMPORTANT_RANK = 6
"""Rank index of 8 (ranks 2..A are 0..12): plays of a lower card are not important (§8.12, "greater than 7")."""

KEY_CARDS_LEADING: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("SQ", ("SQ", "SA", "SK")),
    ("DJ", ("DJ", "DA", "DK", "DQ")),
    ("", ("HA", "HK", "HQ")),
    ("C10", ("C10", "CA", "CK", "CQ", "CJ")),
)
"""Key-card candidates when leading (the authors' ``ImpScenarioGen.decide_imp_cards``): each group in this order,
taken only while its trigger card is unseen ("" = always)."""
KEY_CARDS_FOLLOWING: dict[str, tuple[str, ...]] = {
    "S": ("SQ", "SA", "SK", "SJ", "S10"),
    "H": ("HA", "HK", "HQ", "HJ", "H10"),
    "D": ("DJ", "DA", "DK", "DQ", "D10"),
    "C": ("C10", "CA", "CK", "CQ", "CJ"),
}
"""Key-card candidates when following the led suit, in priority order (the same source)."""
MAX_KEY_CARDS = 3


@dataclass(frozen=True, slots=True)
class Stratum:
    """One placement of the key cards: ``placement[i]`` is the seat holding ``key_cards[i]``, and
    ``probability`` the exact share of the consistent deals that place them so."""

    key_cards: tuple[str, ...]
    placement: tuple[int, ...]
    probability: Fraction


def uniform(observation: GongzhuObservation, count: int, rng: random.Random) -> list[World]:
    """``count`` independent scenarios, each deal of the unseen cards consistent with ``observation`` equally
    likely (§5.3 eq. 9), weights ``1 / count``. Raises ``PaijuError`` when no deal is consistent."""
    _check_count(count)
    hidden = HiddenCards.of(observation)
    return [World(state_with_hidden(observation, sample_hidden_hands(hidden.unseen, hidden.sizes, hidden.forbidden,
                                                                  rng)), 1 / count) for _ in range(count)]


def key_cards(observation: GongzhuObservation) -> tuple[str, ...]:
    """Up to ``MAX_KEY_CARDS`` unseen cards to stratify on (§5.3, the authors' rule): when following, the first
    unseen of ``KEY_CARDS_FOLLOWING[led suit]``; when leading, the first unseen of the groups of
    ``KEY_CARDS_LEADING`` whose trigger card (SQ, DJ, C10; hearts always) is unseen."""
    unseen = set(observation.unseen)
    led = observation.led_suit
    if led is None:
        candidates = [card for trigger, group in KEY_CARDS_LEADING if not trigger or trigger in unseen
                      for card in group]
    else:
        candidates = list(KEY_CARDS_FOLLOWING[led])
    return tuple(card for card in candidates if card in unseen)[:MAX_KEY_CARDS]


def strata(observation: GongzhuObservation) -> list[Stratum]:
    """Every placement of ``key_cards(observation)`` among the other seats that some consistent deal has, with
    its exact probability: the deals of the other unseen cards left by the placement over all consistent deals.
    Raises ``PaijuError`` when no deal is consistent."""
    hidden = HiddenCards.of(observation)
    total = hidden.deals()
    if total == 0:
        raise PaijuError(f"no deal of the {hidden.unseen.bit_count()} cards seat {hidden.seat} cannot see into "
                         f"hands of sizes {list(hidden.sizes)} respects the voids {observation.voids}")
    keys = key_cards(observation)
    found = []
    for slots in itertools.product(range(3), repeat=len(keys)):
        deals = _stratum_deals(hidden, keys, slots)
        if deals:
            found.append(Stratum(keys, tuple(hidden.others[slot] for slot in slots), Fraction(deals, total)))
    return found


def stratified(observation: GongzhuObservation, count: int, rng: random.Random) -> list[World]:
    """``count`` scenarios stratified on the key cards (§5.3), weighted to estimate the uniform expectation.

    Allocation: when ``count`` is at least the number of strata, each stratum gets one scenario and the rest go
    proportionally to the strata's probabilities (largest remainders, ties to the earlier stratum); a stratum
    with ``n`` scenarios gives each the weight ``p / n``. With fewer scenarios than strata no allocation is
    unbiased for every statistic, so the draws are ``uniform``'s (a stratum drawn with its probability).
    Inside a stratum the key cards are fixed and the other unseen cards dealt uniformly.
    """
    _check_count(count)
    found = strata(observation)
    if count < len(found):
        return uniform(observation, count, rng)
    hidden = HiddenCards.of(observation)
    scenarios = []
    for stratum, drawn in zip(found, _allocate([stratum.probability for stratum in found], count), strict=True):
        placed = [0, 0, 0]
        for card, seat in zip(stratum.key_cards, stratum.placement, strict=True):
            placed[hidden.others.index(seat)] |= 1 << CARD_INDEX[card]
        rest_sizes = [size - cards.bit_count() for size, cards in zip(hidden.sizes, placed, strict=True)]
        rest = hidden.unseen & ~(placed[0] | placed[1] | placed[2])
        for _ in range(drawn):
            hands = sample_hidden_hands(rest, rest_sizes, hidden.forbidden, rng)
            state = state_with_hidden(observation, [hand | cards for hand, cards in zip(hands, placed, strict=True)])
            scenarios.append(World(state, float(stratum.probability) / drawn))
    return scenarios


def important_plays(observation: GongzhuObservation) -> list[int]:
    """Positions, in the observed plays (``history + trick``), of the plays IEC scores (§8.12, the authors'
    ``decide_rect_necessity``): plays by another seat of a card of rank 8 or higher; when the observing seat is
    following, only those of the led suit (plays of other suits tell little about the decision at hand)."""
    plays = observation.history + observation.trick
    led = observation.led_suit
    return [position for position, (seat, card) in enumerate(plays)
            if seat != observation.seat and CARD_INDEX[card] % 13 >= IMPORTANT_RANK and led in (None, card[0])]


def iec_weights(observation: GongzhuObservation, scenarios: Sequence[World], policy: Policy,
                beta: float = IEC_BETA, clip: float = IEC_CLIP, within_suit: bool = True) -> np.ndarray:
    """The scenarios' weights times their IEC scores, normalised to sum 1 (§5.4, Algorithm 1, eq. 11–12).

    Each scenario's deal is replayed to every ``important_plays`` position; there the policy values the mover's
    legal cards (one batched ``policy`` call for all scenarios), and the play of card a multiplies the score by
    γ = max(exp(−β·(q_max − q_a)), clip). ``within_suit`` (the authors' code): q_max is taken over the legal cards
    of a's suit only, so a lead is compared with the other leads of its suit; otherwise over all legal cards
    (eq. 12 as written). β = 0 leaves the weights as they were, normalised.
    """
    if beta < 0 or not 0 < clip <= 1:
        raise ValueError(f"IEC needs beta >= 0 and 0 < clip <= 1, got beta={beta!r}, clip={clip!r}")
    if not scenarios:
        raise ValueError("IEC needs at least one scenario to weight")
    positions = important_plays(observation)
    moments: list[GongzhuState] = []
    for number, scenario in enumerate(scenarios):
        if not isinstance(scenario.state, GongzhuState) or scenario.state.observation(observation.seat) != observation:
            raise PaijuError(f"scenario {number} is not consistent with seat {observation.seat}'s observation")
        moments.extend(_replayed(scenario.state, positions))
    factors = np.ones((len(scenarios), len(positions)))
    if moments and beta > 0:
        values = np.asarray(policy(moments), dtype=np.float64)
        if values.shape != (len(moments), 52):
            raise ValueError(f"the policy must return values of shape ({len(moments)}, 52), got {values.shape}")
        factors = _correction_factors(moments, values, observation, positions, beta, clip, within_suit)
        factors = factors.reshape(len(scenarios), len(positions))
    weights = np.array([scenario.weight for scenario in scenarios], dtype=np.float64) * factors.prod(axis=1)
    if not np.all(np.isfinite(weights)) or weights.sum() <= 0:
        raise PaijuError(f"IEC weights are not positive finite numbers: {weights}")
    return weights / weights.sum()


def _correction_factors(moments: Sequence[GongzhuState], values: np.ndarray, observation: GongzhuObservation,
                        positions: Sequence[int], beta: float, clip: float, within_suit: bool) -> np.ndarray:
    """γ of eq. 12 at each moment (scenario-major, ``positions`` in order), floored at ``clip``."""
    plays = observation.history + observation.trick
    factors = np.empty(len(moments))
    for index, (state, value) in enumerate(zip(moments, values, strict=True)):
        card = CARD_INDEX[plays[positions[index % len(positions)]][1]]
        legal = state.legal_mask() & (SUIT_MASKS[card // 13] if within_suit else FULL_MASK)
        best = max(value[other] for other in range(52) if legal >> other & 1)
        factors[index] = max(math.exp(-beta * (best - value[card])), clip)
    return factors


def _replayed(state: GongzhuState, positions: Sequence[int]) -> list[GongzhuState]:
    """The states of ``state``'s game just before each of its plays at ``positions`` (ascending)."""
    replay = GongzhuState(state.rules, state.deal)
    wanted = set(positions)
    moments = []
    for position, (_, card) in enumerate(state.actions[: positions[-1] + 1] if positions else ()):
        if position in wanted:
            moments.append(replay.clone())
        replay.play(card)
    return moments


def _stratum_deals(hidden: HiddenCards, keys: Sequence[str], slots: Sequence[int]) -> int:
    """The consistent deals in which ``keys[i]`` goes to ``hidden.others[slots[i]]``."""
    placed = [0, 0, 0]
    for card, slot in zip(keys, slots, strict=True):
        if hidden.forbidden[slot] >> CARD_INDEX[card] & 1:
            return 0
        placed[slot] |= 1 << CARD_INDEX[card]
    sizes = [size - cards.bit_count() for size, cards in zip(hidden.sizes, placed, strict=True)]
    return count_deals(hidden.unseen & ~(placed[0] | placed[1] | placed[2]), sizes, hidden.forbidden)


def _allocate(probabilities: Sequence[Fraction], count: int) -> list[int]:
    """One scenario per stratum, the other ``count - len(probabilities)`` by largest remainder of p·rest."""
    rest = count - len(probabilities)
    shares = [p * rest for p in probabilities]
    drawn = [1 + math.floor(share) for share in shares]
    order = sorted(range(len(shares)), key=lambda j: (-(shares[j] - math.floor(shares[j])), j))
    for j in order[: count - sum(drawn)]:
        drawn[j] += 1
    return drawn


def _check_count(count: int) -> None:
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"the number of scenarios must be a positive integer, got {count!r}")


__all__ = ["IEC_BETA", "IEC_CLIP", "Policy", "Stratum", "iec_weights", "important_plays", "key_cards", "strata",
           "stratified", "uniform"]
