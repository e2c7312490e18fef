"""Drawing the cards one seat cannot see, uniformly among the deals consistent with what it knows.

What a seat knows of the others: how many cards each holds, and the suits each has shown void in (a seat
that did not follow a led suit holds none of it). Every deal of the unseen cards respecting both is drawn
with the same probability, exactly, and a deal is always found when one exists.

Method: cards are grouped by the set of hands that may hold them (all cards of a suit share it; suits with
the same set merge), so there are at most four groups. Going group by group, how many cards of the group
each hand receives is drawn with probability proportional to the number of complete deals that choice
leaves (a multinomial coefficient times the memoised count of deals of the remaining groups into the
remaining places); then the group's cards are shuffled and handed out in those numbers. Without voids this
is one shuffle of the unseen cards dealt out in order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import factorial

from paiju.core.errors import PaijuError
from paiju.games.gongzhu.cards import NUM_CARDS, SUIT_MASKS
from paiju.native import fast

_FACTORIALS = [factorial(n) for n in range(NUM_CARDS + 1)]


def shuffled_hands(rng: random.Random, hands: int, size: int) -> list[int]:
    """Shuffle the deck's cards ``0 .. NUM_CARDS - 1`` with ``rng.shuffle`` and give cards ``size*k ..
    size*k + size - 1`` of it to hand ``k``: ``hands`` card masks (how every seeded deal is drawn)."""
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    return [sum(1 << card for card in deck[size * hand: size * (hand + 1)]) for hand in range(hands)]


def sample_hidden_hands(unseen: int, sizes: Sequence[int], forbidden: Sequence[int],
                        rng: random.Random) -> list[int]:
    """Deal the cards of mask ``unseen`` into hands of ``sizes[j]`` cards, hand ``j`` holding no card of
    mask ``forbidden[j]`` (a union of whole suits), uniformly among all such deals; hands are returned as masks.

    Raises ``PaijuError`` when the sizes do not add up to the unseen cards or no such deal exists.
    """
    room = tuple(sizes)
    if sum(room) != unseen.bit_count() or min(room, default=0) < 0:
        raise PaijuError(f"cannot deal {unseen.bit_count()} unseen cards into hands of sizes {list(room)}")
    groups = _groups(unseen, forbidden)
    counts = tuple(cards.bit_count() for _, cards in groups)
    open_hands = tuple(hands for hands, _ in groups)
    if _completions(counts, open_hands, room) == 0:
        raise PaijuError(f"no deal of the unseen cards into hands of sizes {list(room)} respects the known voids")
    hands = [0] * len(room)
    for index, (group_hands, group_cards) in enumerate(groups):
        rest = index + 1
        splits = list(_splits(counts[index], group_hands, room)) if rest < len(groups) else [room]
        weights = [_ways_to_split(counts[index], split) * _completions(counts[rest:], open_hands[rest:],
                                                                       _less(room, split)) for split in splits]
        split = _weighted_choice(splits, weights, rng)
        cards = [card for card in range(NUM_CARDS) if group_cards >> card & 1]
        rng.shuffle(cards)
        start = 0
        for j, count in enumerate(split):
            for card in cards[start: start + count]:
                hands[j] |= 1 << card
            start += count
        room = _less(room, split)
    return hands


def count_deals(unseen: int, sizes: Sequence[int], forbidden: Sequence[int]) -> int:
    """The number of deals ``sample_hidden_hands`` draws uniformly from: the cards of mask ``unseen`` into hands
    of ``sizes[k]`` cards, hand ``k`` holding no card of ``forbidden[k]`` (0 when the sizes do not add up)."""
    if sum(sizes) != unseen.bit_count() or min(sizes, default=0) < 0:
        return 0
    groups = _groups(unseen, forbidden)
    return _completions(tuple(cards.bit_count() for _, cards in groups), tuple(hands for hands, _ in groups),
                        tuple(sizes))


def _groups(unseen: int, forbidden: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """The unseen cards grouped by the hands that may hold them: (hand indices, card mask), the most
    constrained first so that the widest group (whose split is forced by the room left) comes last."""
    by_hands: dict[tuple[int, ...], int] = {}
    for mask in SUIT_MASKS:
        cards = unseen & mask
        if cards:
            hands = tuple(j for j, banned in enumerate(forbidden) if not banned & mask)
            by_hands[hands] = by_hands.get(hands, 0) | cards
    return sorted(by_hands.items(), key=lambda group: (len(group[0]), group[0]))


@lru_cache(maxsize=1 << 14)
def _completions(counts: tuple[int, ...], open_hands: tuple[tuple[int, ...], ...], room: tuple[int, ...]) -> int:
    """Number of deals of labelled cards, ``counts[g]`` of group g, into hands with ``room`` places left,
    group g going only to the hands in ``open_hands[g]``."""
    if not counts:
        return int(not any(room))
    if len(counts) == 1:
        fits = all(places == 0 or j in open_hands[0] for j, places in enumerate(room))
        return _ways_to_split(counts[0], room) if fits else 0
    return sum(_ways_to_split(counts[0], split) * _completions(counts[1:], open_hands[1:], _less(room, split))
               for split in _splits(counts[0], open_hands[0], room))


def _splits(count: int, hands: tuple[int, ...], room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to share ``count`` cards among ``hands`` (indices), none over its ``room``: counts per hand."""
    if not hands:
        if count == 0:
            yield (0,) * len(room)
        return
    first, rest = hands[0], hands[1:]
    least = max(0, count - sum(room[j] for j in rest))
    for given in range(least, min(count, room[first]) + 1):
        for split in _splits(count - given, rest, room):
            yield (*split[:first], given, *split[first + 1:])


def _weighted_choice(splits: list[tuple[int, ...]], weights: list[int], rng: random.Random) -> tuple[int, ...]:
    """One of ``splits``, each with probability proportional to its (exact, integer) weight."""
    pick = rng.randrange(sum(weights))
    for split, weight in zip(splits, weights, strict=True):
        if pick < weight:
            return split
        pick -= weight
    raise AssertionError("a pick below the total weight always lands on a split")


def _ways_to_split(count: int, split: tuple[int, ...]) -> int:
    """The multinomial coefficient: ways to hand ``count`` labelled cards out in the numbers ``split``."""
    ways = _FACTORIALS[count]
    for given in split:
        ways //= _FACTORIALS[given]
    return ways


def _less(room: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(r - s for r, s in zip(room, split, strict=True))


reference_sample_hidden_hands = sample_hidden_hands
sample_hidden_hands = fast("paiju.games.gongzhu._sampling_fast", "sample_hidden_hands", sample_hidden_hands)
reference_shuffled_hands = shuffled_hands
shuffled_hands = fast("paiju.games.gongzhu._sampling_fast", "shuffled_hands", shuffled_hands)
