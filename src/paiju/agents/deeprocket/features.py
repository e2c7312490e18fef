"""DeepRocket's input tensors: the policy network's 15 × 19 × 21 planes and the kicker network's 15 × 9 × 3.

Source: DeepRocket §4.2 (Table 2) and §4.3 (Table 4). Arrays are ``uint8`` laid out ``[Z, Y, X]`` (planes as
a convolution's channels): X the 15 ranks ``3 .. R``, Y the features of a rank, Z the planes.

**Policy input** (``policy_planes``). A card plane's Y rows are:

- rows 0-3: how many of the rank (thermometer: ≥ 1, ≥ 2, ≥ 3, 4);
- rows 4-18: the 15 categories of Table 3 (``labels.LABEL_CATEGORIES``). For a play, the row of
  its category is set at the ranks of its main part (all 15 columns for a pass); for a set of cards (a hand,
  the unseen cards), a category's row marks the ranks where the set can form that category (a pair where
  two are held, a solo chain where the rank lies in a run of five, a trio with a solo where some other card
  is left beside the trio, …).

Planes (Z), in Table 2's order: 0, every card played before the last six rounds; 1-18, the last six rounds,
oldest first, three planes each — the specified player (the one to act), the down player, the up player; 19,
the cards not yet seen (the other two hands together); 20, the specified player's hand. A round is one play
or pass of each player ending with the up player's play just before this decision; rounds before the first
play stay empty, and a pass sets its plane's pass row.

Table 2 gives plane 0 only its card rows; paiju puts what else a seat sees in its 15 category rows (the
paper's input has no place for it, and without it a network cannot know who is about to go out):

- rows 4-6: cards left of the specified, down and up player, thermometer over X (``x < min(n, 15)``);
  rows 7-9: the same for ``n − 15`` (a landlord holds up to 20);
- rows 10-12: the specified player's role, landlord / down peasant / up peasant (the whole row);
- rows 13-15: the landlord's three public cards (thermometer ≥ 1, ≥ 2, ≥ 3);
- row 16: bombs and rockets played so far (thermometer over X); rows 17-18 empty.

**Kicker input** (``kicker_planes``), Table 4's three planes, filled as follows (Y rows):

- plane 0 (kicker type, role, remaining cards, legal solos and pairs): row 0 solo kickers asked (whole row),
  row 1 pair kickers asked, row 2 the role (x = 0, 1, 2), rows 3-6 the hand (thermometer), row 7 the solo
  kickers that may come next, row 8 the pair kickers that may come next;
- plane 1 (the game, the main group, kicker length): rows 0-3 the main group (thermometer), row 4 kicker
  units the play needs (``x < n``), row 5 units still to choose, rows 6-7 the kickers chosen so far (≥ 1,
  ≥ 2 units of the rank), row 8 the cards not yet seen (≥ 1);
- plane 2 (remaining and legal cards): rows 0-3 the hand less the main group and the chosen kickers, rows
  4-7 the unseen cards (thermometer), row 8 cards left of the opponent closest to going out (thermometer).

**Decisions**: a DeepRocket decision as the networks see it: the policy's planes and legal labels, then one kicker
step at a time (DeepRocket Figure 2: the policy picks the main group and the kicker type, the kicker network is called
once per kicker unit, lowest first).

``policy_decision`` and ``kicker_step`` serve both the agent and the supervised trainer (which replays the
corpus's plays through them: ``paiju.train.sl_data``), so the networks are trained on exactly the inputs
they play from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from paiju.agents.deeprocket.labels import (
    category_of_move,
    group_by_label,
    kicker_choices,
    kicker_count,
    kicker_kind,
    kicker_mask,
    label_mask,
)
from paiju.games.doudizhu.cards import BIG_JOKER, FULL_DECK, NUM_RANKS, SMALL_JOKER
from paiju.games.doudizhu.moves import HIGHEST_CHAIN_RANK, Move
from paiju.games.doudizhu.observation import DouDizhuObservation

POLICY_SHAPE = (21, 19, NUM_RANKS)
"""Planes (Z), rows (Y), ranks (X)."""
KICKER_SHAPE = (3, 9, NUM_RANKS)
ROUNDS = 6
"""Rounds of history with planes of their own (Table 2)."""
_CATEGORY_ROW = 4
_PASS_ROW = _CATEGORY_ROW + 14
_THERMOMETER = np.array([[count >= level for level in (1, 2, 3, 4)] for count in range(5)], dtype=np.uint8).T
"""``_THERMOMETER[:, counts]`` is the 4 × 15 block of count rows of a set of cards."""
_ARANGE = np.arange(NUM_RANKS)

# Table 3's category rows (``labels.LABEL_CATEGORIES``).
(_SOLO, _SOLO_CHAIN, _PAIR, _PAIR_CHAIN, _TRIO, _PLANE, _TRIO_SOLO, _PLANE_SOLOS, _TRIO_PAIR, _PLANE_PAIRS,
 _FOUR_SOLOS, _FOUR_PAIRS, _BOMB, _ROCKET, _PASS) = range(15)


def _runs(mask: np.ndarray, minimum: int) -> np.ndarray:
    """Ranks ``3 .. A`` that lie in a run of at least ``minimum`` consecutive ranks of ``mask``."""
    marked = np.zeros(NUM_RANKS, dtype=bool)
    start = None
    for rank in range(HIGHEST_CHAIN_RANK + 2):
        inside = rank <= HIGHEST_CHAIN_RANK and mask[rank]
        if inside and start is None:
            start = rank
        elif not inside and start is not None:
            if rank - start >= minimum:
                marked[start:rank] = True
            start = None
    return marked


def set_forms(counts: Sequence[int]) -> np.ndarray:
    """[15 categories, 15 ranks]: where a set of cards can form each of Table 3's categories (module docs)."""
    c = np.asarray(counts)
    total = int(c.sum())
    forms = np.zeros((15, NUM_RANKS), dtype=np.uint8)
    solo, pair, trio, four = c >= 1, c >= 2, c >= 3, c == 4
    four[SMALL_JOKER:] = False
    plane = _runs(trio, 2)
    pairs = int(pair.sum())
    forms[_SOLO] = solo
    forms[_SOLO_CHAIN] = _runs(solo, 5)
    forms[_PAIR] = pair
    forms[_PAIR_CHAIN] = _runs(pair, 3)
    forms[_TRIO] = trio
    forms[_PLANE] = plane
    forms[_TRIO_SOLO] = trio & (total > 3)
    forms[_PLANE_SOLOS] = plane & (total >= 8)
    forms[_TRIO_PAIR] = trio & (pairs >= 2)
    forms[_PLANE_PAIRS] = plane & (pairs >= 4)
    forms[_FOUR_SOLOS] = four & (total >= 6)
    forms[_FOUR_PAIRS] = four & (pairs >= 3)
    forms[_BOMB] = four
    if c[SMALL_JOKER] and c[BIG_JOKER]:
        forms[_ROCKET, SMALL_JOKER:] = 1
    return forms


def _main_ranks(move: Move) -> np.ndarray:
    """The ranks of a play's main part (the whole play for categories without kickers)."""
    ranks = np.zeros(NUM_RANKS, dtype=bool)
    ranks[move.rank:move.rank + move.length] = True
    return ranks


def _play_plane(plane: np.ndarray, move: Move) -> None:
    if move.is_pass:
        plane[_PASS_ROW] = 1
        return
    plane[:4] = _THERMOMETER[:, move.counts]
    plane[_CATEGORY_ROW + category_of_move(move)] = _main_ranks(move)


def _thermometer_row(n: int) -> np.ndarray:
    return (n > _ARANGE).astype(np.uint8)


def unseen_cards(observation: DouDizhuObservation) -> np.ndarray:
    """Counts of the cards in the other two hands: the deck less the seat's hand and every card played."""
    unseen = np.array(FULL_DECK) - np.asarray(observation.hand)
    for _, move in observation.history:
        unseen -= np.asarray(move.counts)
    return unseen


def policy_planes(observation: DouDizhuObservation) -> np.ndarray:
    """The policy network's input for a play decision (module docs): ``uint8 [21, 19, 15]``."""
    planes = np.zeros(POLICY_SHAPE, dtype=np.uint8)
    seat, history = observation.seat, observation.history
    recent = len(history) - 3 * ROUNDS
    older = np.zeros(NUM_RANKS, dtype=np.int64)
    for index, (player, move) in enumerate(history):
        if index < recent:
            older += move.counts
            continue
        back = len(history) - index  # 1: the up player's play just before this decision
        round_back, relative = (back - 1) // 3, (player - seat) % 3
        _play_plane(planes[1 + (ROUNDS - 1 - round_back) * 3 + relative], move)
    planes[0, :4] = _THERMOMETER[:, older]
    for relative in range(3):
        left = observation.cards_left[(seat + relative) % 3]
        planes[0, 4 + relative] = _thermometer_row(left)
        planes[0, 7 + relative] = _thermometer_row(left - NUM_RANKS)
    landlord = observation.landlord if observation.landlord is not None else seat
    planes[0, 10 + (seat - landlord) % 3] = 1
    if observation.public is not None:
        planes[0, 13:16] = _THERMOMETER[:3, observation.public]
    bombs = sum(1 for _, move in history if move.is_bomb)
    planes[0, 16] = _thermometer_row(bombs)
    unseen = unseen_cards(observation)
    planes[19, :4] = _THERMOMETER[:, unseen]
    planes[19, _CATEGORY_ROW:] = set_forms(unseen)
    planes[20, :4] = _THERMOMETER[:, observation.hand]
    planes[20, _CATEGORY_ROW:] = set_forms(observation.hand)
    return planes


def kicker_planes(observation: DouDizhuObservation, main: Move, kind: str, needed: int, chosen: Sequence[int],
                  choices: Sequence[int], unseen: np.ndarray | None = None) -> np.ndarray:
    """The kicker network's input (module docs) for choosing the next kicker of ``main`` (the chosen play's
    main part, or the play itself: only its main ranks are used): ``kind`` "solo" or "pair", ``needed`` units
    in all, ``chosen`` the kicker labels picked so far, ``choices`` the kicker labels that may come next.
    ``uint8 [3, 9, 15]``."""
    planes = np.zeros(KICKER_SHAPE, dtype=np.uint8)
    hand = np.asarray(observation.hand)
    copies = main.counts[main.rank]
    main_counts = np.zeros(NUM_RANKS, dtype=np.int64)
    main_counts[_main_ranks(main)] = copies
    chosen_counts = np.zeros(NUM_RANKS, dtype=np.int64)
    kicker_cards = np.zeros(NUM_RANKS, dtype=np.int64)
    for label in chosen:
        rank, size = (label, 1) if label < NUM_RANKS else (label - NUM_RANKS, 2)
        chosen_counts[rank] += 1
        kicker_cards[rank] += size
    unseen = unseen_cards(observation) if unseen is None else unseen
    planes[0, 0 if kind == "solo" else 1] = 1
    landlord = observation.landlord if observation.landlord is not None else observation.seat
    planes[0, 2, (observation.seat - landlord) % 3] = 1
    planes[0, 3:7] = _THERMOMETER[:, hand]
    for label in choices:
        if label < NUM_RANKS:
            planes[0, 7, label] = 1
        else:
            planes[0, 8, label - NUM_RANKS] = 1
    planes[1, :4] = _THERMOMETER[:, main_counts]
    planes[1, 4] = _thermometer_row(needed)
    planes[1, 5] = _thermometer_row(needed - len(chosen))
    planes[1, 6] = chosen_counts >= 1
    planes[1, 7] = chosen_counts >= 2
    planes[1, 8] = unseen >= 1
    planes[2, :4] = _THERMOMETER[:, np.clip(hand - main_counts - kicker_cards, 0, 4)]
    planes[2, 4:8] = _THERMOMETER[:, unseen]
    opponents = [observation.cards_left[s] for s in range(3)
                 if s != observation.seat and (landlord in (s, observation.seat))]
    planes[2, 8] = _thermometer_row(min(opponents))
    return planes



@dataclass(frozen=True)
class PolicyDecision:
    """The policy network's view of a play decision: ``planes`` [21, 19, 15], ``mask`` bool [309] (legal
    labels), ``groups`` the legal plays of each legal label."""

    planes: np.ndarray
    mask: np.ndarray
    groups: dict[int, list[Move]]


@dataclass(frozen=True)
class KickerStep:
    """One call of the kicker network: ``planes`` [3, 9, 15], ``mask`` bool [28] of the kickers that may come
    next, ``choices`` the same as labels."""

    planes: np.ndarray
    mask: np.ndarray
    choices: list[int]


def policy_decision(observation: DouDizhuObservation, legal: Sequence[Move]) -> PolicyDecision:
    return PolicyDecision(policy_planes(observation), label_mask(legal), group_by_label(legal))


def kicker_step(observation: DouDizhuObservation, label: int, moves: Sequence[Move], chosen: Sequence[int],
                unseen: np.ndarray | None = None) -> KickerStep:
    """The kicker network's input for the next kicker of ``label`` (whose legal plays are ``moves``) after the
    kicker labels ``chosen``."""
    choices = kicker_choices(moves, chosen)
    kind = kicker_kind(label)
    assert kind is not None, "kicker steps are asked for labels with kickers only"
    planes = kicker_planes(observation, moves[0], kind, kicker_count(label), chosen, choices, unseen)
    return KickerStep(planes, kicker_mask(choices), choices)



__all__ = ["KICKER_SHAPE", "POLICY_SHAPE", "ROUNDS", "_ARANGE", "_CATEGORY_ROW", "_PASS_ROW", "_THERMOMETER",
           "KickerStep", "PolicyDecision", "kicker_planes", "kicker_step", "policy_decision", "policy_planes",
           "set_forms", "unseen_cards"]
