"""PerfectDou's features (Yang et al. 2022, appendix C, Tables 4–6): card matrices, the actor's imperfect view,
the critic's perfect extras, the history and one row per candidate action.

**Card matrix** (12 × 15, columns the ranks 3..2, small joker, big joker) of a set of cards:

| row   | entry set when                                                                 |
| ----- | ------------------------------------------------------------------------------ |
| 0–3   | the rank is held at least 1, 2, 3, 4 times                                     |
| 4–7   | the rank is held exactly 1, 2, 3, 4 times                                      |
| 8     | both jokers are held (set in the two joker columns)                            |
| 9–11  | the rank is in a run of ranks 3..A the set could play as a solo chain (≥ 5 ranks of ≥ 1 card), |
|       | a pair chain (≥ 3 ranks of ≥ 2) or a plane (≥ 2 ranks of ≥ 3)                   |

**Imperfect state** (``STATE_SIZE`` = 9 matrices + 9 scalars), seats relative to the deciding one (``next``
plays after it, ``prev`` before it): matrices of the own hand, the unseen cards (not in the own hand, not
played), the cards played by self / next / prev, the landlord's three public cards, the play to beat, next's
and prev's latest moves in the current round (zeros for a pass or none); scalars: role one-hot (landlord,
down, up), cards left of self / next / prev, own minimum steps to play out (``min_steps``), bombs and rockets
played, and the free-lead flag.

**Perfect extras** (``PERFECT_SIZE``, critic only): matrices of next's and prev's hands and their minimum steps.

**History** (``HISTORY_SHAPE`` 15 × 184): the last 15 moves, oldest first, zero rows in front: the move's
matrix, who played it (self / next / prev one-hot) and a pass flag.

**Action row** (``ACTION_SIZE`` 185, Table 6): the play's matrix, then is-bomb (bomb or rocket), is-largest
(our reading: no play of its category and length with a higher main rank can be formed from the unseen cards,
main part only and bombs apart; a bomb is largest when no higher bomb or the rocket is unseen; the rocket
always), its card count equals next's / prev's cards left, and the own minimum steps after playing it.

Every feature is a small integer, so they travel and are stored as int8; ``STATE_SCALE``,
``PERFECT_SCALE`` and ``ACTION_SCALE`` (1 for indicators, 1/20 for counts and steps) turn them into network
inputs.

**癞子** (features ``laizi``, ``LAIZI_STATE_SIZE`` and ``LAIZI_ACTION_SIZE``; the classic ones are ``paper``): as
DanZero's features flag GuanDan's wild cards, the state gains the wild ranks and each action row what it stands for
and how many wild cards it spends, after the classic entries (Tables 4–6, unchanged):

| part   | extra | entry                                                                                  |
| ------ | ----- | -------------------------------------------------------------------------------------- |
| state  | 13    | the wild ranks, one-hot over 3..2 (``WILD_STATE``)                                     |
| action | 180   | the card matrix of the cards the play stands for (``Move.effective_counts``)           |
| action | 9     | the wild cards it spends (cards of a wild rank played, 0..8), one-hot (``WILD_SPENT``) |

Minimum steps (the own, after each action, the critic's) count the wild cards (``wild_steps.min_steps``); the
perfect extras keep their layout; is-largest reads the unseen cards as natural ones (no substitution, bombs by
rank whatever their tier).

**Decisions** (``decision``, ``scores``): a PerfectDou decision's candidate plays (one per abstract action, kickers
decoded by Algorithm 2), their abstract indices and features, and the network's scores of them. Under 癞子 a
play's abstract action is that of the classic play it stands for (``stand_in``: the category, main rank, length
and kickers of ``effective_counts``), so a rank has one abstract bomb, soft, hard or wild (the row tells the tier:
the cards played, what they stand for, the wild cards spent). Several plays then share an abstract action (other
substitutions); its candidate is, among those spending the fewest wild cards (``wild_spent``), the play Algorithm
2 decodes (its kicker scores count the hand's classic leading plays, wild cards as their own rank), the smaller
cards played (``packed``) when two stand for the same play. So a hard bomb goes before a soft one of its rank and
a natural pair before one made with a wild card, and a decision keeps at most 621 candidates where a 天地癞子
hand may have 15,000 legal plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from paiju.core.errors import PaijuError
from paiju.games.doudizhu import wild_steps
from paiju.games.doudizhu.abstract_actions import abstract_index, group_legal
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS, SMALL_JOKER, TWO
from paiju.games.doudizhu.min_steps import min_steps
from paiju.games.doudizhu.moves import HIGHEST_CHAIN_RANK, Category, Move, make_move, on_forget
from paiju.games.doudizhu.observation import POSITIONS, DouDizhuObservation
from paiju.games.doudizhu.rules import DouDizhuRules

if TYPE_CHECKING:
    from paiju.agents.perfectdou.model import PerfectDouNet

MATRIX_ROWS = 12
MATRIX = MATRIX_ROWS * NUM_RANKS
STATE_MATRICES = 9
STATE_SCALARS = 9
STATE_SIZE = STATE_MATRICES * MATRIX + STATE_SCALARS
PERFECT_SIZE = 2 * MATRIX + 2
HISTORY_MOVES = 15
HISTORY_ROW = MATRIX + 4
HISTORY_SHAPE = (HISTORY_MOVES, HISTORY_ROW)
ACTION_EXTRAS = 5
ACTION_SIZE = MATRIX + ACTION_EXTRAS
WILD_STATE = TWO + 1
WILD_SPENT = 9
LAIZI_STATE_SIZE = STATE_SIZE + WILD_STATE
LAIZI_ACTION_SIZE = ACTION_SIZE + MATRIX + WILD_SPENT
COUNT_SCALE = 1 / 20

_RUNS = ((1, 5), (2, 3), (3, 2))
"""Chain kinds of rows 9–11: (copies per rank, minimum length)."""
_CHAIN_RANKS = HIGHEST_CHAIN_RANK + 1


def _scale(size: int, counted: Sequence[int]) -> np.ndarray:
    scale = np.ones(size, dtype=np.float32)
    scale[list(counted)] = COUNT_SCALE
    scale.flags.writeable = False
    return scale


_SCALARS = STATE_MATRICES * MATRIX
_STATE_COUNTS = range(_SCALARS + 3, _SCALARS + 8)
STATE_SCALE = _scale(STATE_SIZE, _STATE_COUNTS)
"""Per-entry input scale of the state: cards left, minimum steps and bombs are divided by 20."""
PERFECT_SCALE = _scale(PERFECT_SIZE, (2 * MATRIX, 2 * MATRIX + 1))
ACTION_SCALE = _scale(ACTION_SIZE, (MATRIX + 4,))
LAIZI_STATE_SCALE = _scale(LAIZI_STATE_SIZE, _STATE_COUNTS)
LAIZI_ACTION_SCALE = _scale(LAIZI_ACTION_SIZE, (MATRIX + 4,))


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """A feature set: whether it describes 癞子 decisions, its state and action sizes and their input scales."""

    laizi: bool
    state_size: int
    action_size: int
    state_scale: np.ndarray
    action_scale: np.ndarray

    @property
    def ruleset(self) -> str:
        """The rules it describes, in words."""
        return "癞子" if self.laizi else "the classic rules"


LAYOUTS = {"paper": Layout(False, STATE_SIZE, ACTION_SIZE, STATE_SCALE, ACTION_SCALE),
           "laizi": Layout(True, LAIZI_STATE_SIZE, LAIZI_ACTION_SIZE, LAIZI_STATE_SCALE, LAIZI_ACTION_SCALE)}
"""The feature sets by name: PerfectDou's (``paper``, the classic game) and 癞子's (``laizi``)."""
FEATURES = tuple(LAYOUTS)


def layout(features: str) -> Layout:
    """The feature set ``features`` (``LAYOUTS``); ``ValueError`` naming the known ones."""
    if features not in LAYOUTS:
        raise ValueError(f"PerfectDou features must be one of {', '.join(FEATURES)}, got {features!r}")
    return LAYOUTS[features]


def features_for(rules: DouDizhuRules) -> str:
    """The feature set that describes decisions under ``rules``."""
    return "laizi" if rules.laizi else "paper"


def hand_steps(counts: Sequence[int], wild: Sequence[int], rules: DouDizhuRules) -> int:
    """The fewest plays that empty ``counts``: with wild ranks ``wild`` (癞子) ``wild_steps.min_steps``, else the
    classic oracle."""
    return wild_steps.min_steps(counts, wild, rules) if wild else min_steps(counts, rules)


def card_matrices(counts: np.ndarray) -> np.ndarray:
    """Card matrices ``[k, 12, 15]`` int8 of ``k`` card sets given as rank counts ``[k, 15]``."""
    counts = np.asarray(counts, dtype=np.int8).reshape(-1, NUM_RANKS)
    out = np.zeros((len(counts), MATRIX_ROWS, NUM_RANKS), dtype=np.int8)
    for copies in range(1, 5):
        out[:, copies - 1] = counts >= copies
        out[:, copies + 3] = counts == copies
    out[:, 8, SMALL_JOKER:] = ((counts[:, SMALL_JOKER] > 0) & (counts[:, SMALL_JOKER + 1] > 0))[:, None]
    for row, (copies, shortest) in enumerate(_RUNS, start=9):
        held = counts[:, :_CHAIN_RANKS] >= copies
        forward = np.zeros_like(held, dtype=np.int8)
        backward = np.zeros_like(held, dtype=np.int8)
        run = np.zeros(len(counts), dtype=np.int8)
        for rank in range(_CHAIN_RANKS):
            run = np.where(held[:, rank], run + 1, 0).astype(np.int8)
            forward[:, rank] = run
        run[:] = 0
        for rank in range(_CHAIN_RANKS - 1, -1, -1):
            run = np.where(held[:, rank], run + 1, 0).astype(np.int8)
            backward[:, rank] = run
        out[:, row, :_CHAIN_RANKS] = held & (forward + backward - 1 >= shortest)
    return out


@dataclass(frozen=True, slots=True)
class PerfectDouFeatures:
    """One decision: ``state`` [STATE_SIZE], ``history`` [15, 184], ``actions`` [n, 185] (int8, one row per
    candidate; 癞子: [LAIZI_STATE_SIZE] and [n, LAIZI_ACTION_SIZE]) and ``perfect`` [PERFECT_SIZE] (only when the
    hidden hands were given)."""

    state: np.ndarray
    history: np.ndarray
    actions: np.ndarray
    perfect: np.ndarray | None = None


def _beatable_starts(unseen: Sequence[int], copies: int, length: int) -> int:
    """Bit ``r`` set when ranks ``r .. r+length-1`` all hold at least ``copies`` unseen cards."""
    held = sum(1 << r for r in range(NUM_RANKS) if unseen[r] >= copies)
    starts = held
    for shift in range(1, length):
        starts &= held >> shift
    return starts


_MAIN_COPIES = {
    Category.SOLO: 1, Category.PAIR: 2, Category.TRIO: 3, Category.TRIO_SOLO: 3, Category.TRIO_PAIR: 3,
    Category.SOLO_CHAIN: 1, Category.PAIR_CHAIN: 2, Category.PLANE: 3, Category.PLANE_SOLOS: 3,
    Category.PLANE_PAIRS: 3, Category.FOUR_TWO_SOLOS: 4, Category.FOUR_TWO_PAIRS: 4,
}
_CHAINED = {Category.SOLO_CHAIN, Category.PAIR_CHAIN, Category.PLANE, Category.PLANE_SOLOS, Category.PLANE_PAIRS}


def is_largest(move: Move, unseen: Sequence[int], cache: dict[tuple[int, int], int] | None = None) -> bool:
    """Whether no higher play of ``move``'s category and length can be formed from ``unseen`` (see module doc)."""
    category = move.category
    if category is Category.ROCKET:
        return True
    if category is Category.PASS:
        return False
    rocket_unseen = unseen[SMALL_JOKER] > 0 and unseen[SMALL_JOKER + 1] > 0
    if category is Category.BOMB:
        return not rocket_unseen and not any(unseen[r] == 4 for r in range(move.rank + 1, SMALL_JOKER))
    copies, length = _MAIN_COPIES[category], move.length
    top_start = (_CHAIN_RANKS - length if category in _CHAINED   # the highest start rank of a higher play
                 else NUM_RANKS - 1 if copies == 1 else SMALL_JOKER - 1)
    key = (copies, length)
    if cache is None or key not in cache:
        starts = _beatable_starts(unseen, copies, length)
        if cache is not None:
            cache[key] = starts
    else:
        starts = cache[key]
    window = ((1 << (top_start + 1)) - 1) & ~((1 << (move.rank + 1)) - 1)
    return not starts & window


def _relative(obs: DouDizhuObservation) -> tuple[int, int, int]:
    return obs.seat, (obs.seat + 1) % 3, (obs.seat + 2) % 3


def encode(observation: DouDizhuObservation, candidates: Sequence[Move],
           hidden_hands: Sequence[Sequence[int]] | None = None) -> PerfectDouFeatures:
    """PerfectDou's features of ``observation``'s play decision over ``candidates`` (see module doc).

    ``hidden_hands`` (the three seats' hands, by seat) adds the critic's perfect extras; only training code
    passes it, from the game's perfect view.
    """
    obs = observation
    if obs.phase != "play" or obs.landlord is None or obs.public is None:
        raise PaijuError(f"PerfectDou features describe a play decision; this observation is in phase {obs.phase!r}")
    if not candidates:
        raise PaijuError("PerfectDou features need at least one candidate play")
    rules: DouDizhuRules = obs.rules
    wild = obs.wild
    me, nxt, prev = _relative(obs)
    played = np.zeros((3, NUM_RANKS), dtype=np.int8)
    bombs = 0
    for seat, move in obs.history:
        played[seat] += move.counts
        bombs += move.is_bomb
    hand = np.array(obs.hand, dtype=np.int8)
    unseen = np.array(FULL_DECK, dtype=np.int8) - hand - played.sum(axis=0)
    latest = {nxt: np.zeros(NUM_RANKS, np.int8), prev: np.zeros(NUM_RANKS, np.int8)}
    for seat, move in obs.history[-2:]:  # the two moves since this seat's own last one
        if seat in latest:
            latest[seat] = np.array(move.counts, dtype=np.int8)
    follow = np.array(obs.follow.counts if obs.follow is not None else (0,) * NUM_RANKS, dtype=np.int8)
    recent = obs.history[-HISTORY_MOVES:]
    sets = np.stack([hand, unseen, played[me], played[nxt], played[prev], np.array(obs.public, dtype=np.int8),
                     follow, latest[nxt], latest[prev],
                     *(np.array(move.counts, dtype=np.int8) for _, move in recent),
                     *(np.array(move.counts, dtype=np.int8) for move in candidates)])
    matrices = card_matrices(sets).reshape(len(sets), MATRIX)
    own_steps = hand_steps(obs.hand, wild, rules)
    state = np.empty(STATE_SIZE, dtype=np.int8)
    state[:_SCALARS] = matrices[:STATE_MATRICES].ravel()
    role = POSITIONS.index(obs.position)  # type: ignore[arg-type]
    state[_SCALARS:_SCALARS + 3] = np.eye(3, dtype=np.int8)[role]
    state[_SCALARS + 3:] = (obs.cards_left[me], obs.cards_left[nxt], obs.cards_left[prev], own_steps,
                            bombs, obs.follow is None)
    history = np.zeros(HISTORY_SHAPE, dtype=np.int8)
    first = HISTORY_MOVES - len(recent)
    history[first:, :MATRIX] = matrices[STATE_MATRICES:STATE_MATRICES + len(recent)]
    for row, (seat, move) in enumerate(recent, start=first):
        history[row, MATRIX + (seat - me) % 3] = 1
        history[row, MATRIX + 3] = move.is_pass
    actions = np.zeros((len(candidates), ACTION_SIZE), dtype=np.int8)
    actions[:, :MATRIX] = matrices[STATE_MATRICES + len(recent):]
    largest: dict[tuple[int, int], int] = {}
    unseen_list = unseen.tolist()
    for row, move in enumerate(candidates):
        after = tuple(h - m for h, m in zip(obs.hand, move.counts, strict=True))
        actions[row, MATRIX:] = (move.is_bomb, is_largest(move, unseen_list, largest),
                                 move.size == obs.cards_left[nxt], move.size == obs.cards_left[prev],
                                 hand_steps(after, wild, rules))
    if rules.laizi:
        state, actions = _with_wild_cards(state, actions, wild, candidates)
    perfect = None if hidden_hands is None else perfect_extras(hidden_hands[nxt], hidden_hands[prev], rules, wild)
    return PerfectDouFeatures(state, history, actions, perfect)


def wild_spent(move: Move, wild: Sequence[int]) -> int:
    """The wild cards ``move`` plays (cards of the wild ranks ``wild``, whatever they stand for)."""
    return sum(move.counts[rank] for rank in wild)


def _with_wild_cards(state: np.ndarray, actions: np.ndarray, wild: Sequence[int],
                     candidates: Sequence[Move]) -> tuple[np.ndarray, np.ndarray]:
    """The classic state and action rows with the 癞子 extras appended (module doc)."""
    wild_ranks = np.zeros(WILD_STATE, dtype=np.int8)
    wild_ranks[list(wild)] = 1
    stands = card_matrices(np.array([move.effective_counts for move in candidates], dtype=np.int8))
    spent = np.zeros((len(candidates), WILD_SPENT), dtype=np.int8)
    spent[np.arange(len(candidates)), [wild_spent(move, wild) for move in candidates]] = 1
    return (np.concatenate([state, wild_ranks]),
            np.concatenate([actions, stands.reshape(len(candidates), MATRIX), spent], axis=1))


def perfect_extras(next_hand: Sequence[int], prev_hand: Sequence[int], rules: DouDizhuRules,
                   wild: Sequence[int] = ()) -> np.ndarray:
    """The critic's perfect extras: the card matrices of the next and the previous seat's hands and their
    minimum steps (with the wild ranks ``wild``, 癞子)."""
    perfect = np.empty(PERFECT_SIZE, dtype=np.int8)
    perfect[:2 * MATRIX] = card_matrices(np.array([next_hand, prev_hand], dtype=np.int8)).ravel()
    perfect[2 * MATRIX:] = (hand_steps(tuple(next_hand), wild, rules), hand_steps(tuple(prev_hand), wild, rules))
    return perfect


@dataclass(frozen=True, slots=True)
class Decision:
    """``candidates[i]`` is the legal play standing for abstract action ``abstract[i]``."""

    candidates: list[Move]
    abstract: np.ndarray
    features: PerfectDouFeatures


_STAND_INS: dict[Move, Move] = {}
"""The classic play each substituting 癞子 play stands for (plays are interned; forgotten with them)."""
on_forget(_STAND_INS.clear)


def stand_in(move: Move) -> Move:
    """The classic play ``move`` stands for: itself unless a wild card substitutes (module doc)."""
    if not move.stands_for:
        return move
    found = _STAND_INS.get(move)
    if found is None:
        found = _STAND_INS[move] = make_move(move.effective_counts, move.category, move.rank, move.length)
    return found


def abstract_of(move: Move) -> int:
    """The abstract action of a play (癞子: of the classic play it stands for)."""
    return abstract_index(stand_in(move))


def group_candidates(legal: Sequence[Move], observation: DouDizhuObservation) -> tuple[np.ndarray, list[Move]]:
    """The distinct abstract actions among ``legal`` (int64, in order of first appearance) and the legal play
    chosen for each (module doc): Algorithm 2's (``group_legal``), under 癞子 among the plays spending the fewest
    wild cards."""
    hand, rules = observation.hand, observation.rules
    if not rules.laizi:
        return group_legal(legal, hand, rules)
    plays = []
    fewest: dict[int, int] = {}
    for move in legal:
        classic, spent = stand_in(move), wild_spent(move, observation.wild)
        index = abstract_index(classic)
        fewest[index] = min(spent, fewest.get(index, spent))
        plays.append((classic, index, spent, move))
    kept: dict[Move, Move] = {}
    for classic, index, spent, move in plays:
        if spent == fewest[index] and (classic not in kept or move.packed < kept[classic].packed):
            kept[classic] = move
    abstract, decoded = group_legal(list(kept), hand, rules)
    return abstract, [kept[classic] for classic in decoded]


def decision(observation: DouDizhuObservation, legal: Sequence[Move],
             hidden_hands: Sequence[Sequence[int]] | None = None) -> Decision:
    """Group ``legal`` into abstract actions and encode them; ``hidden_hands`` (training only) adds the critic's
    perfect features."""
    abstract, chosen = group_candidates(legal, observation)
    return Decision(chosen, abstract, encode(observation, chosen, hidden_hands))


def scores(network: PerfectDouNet, decision: Decision, with_value: bool = False) -> tuple[np.ndarray, float | None]:
    """The policy's logits of the candidates, and (``with_value``, perfect features given) the critic's value."""
    import torch

    features = decision.features
    with torch.inference_mode():
        encoded = network.encode(torch.from_numpy(features.state)[None], torch.from_numpy(features.history)[None])
        logits = network.logits(encoded, torch.from_numpy(features.actions), torch.from_numpy(decision.abstract))
        value = None
        if with_value:
            perfect = None if features.perfect is None else torch.from_numpy(features.perfect)[None]
            value = float(network.values(encoded, perfect)[0])
    return logits.numpy(), value


__all__ = ["ACTION_SCALE", "ACTION_SIZE", "FEATURES", "HISTORY_SHAPE", "LAIZI_ACTION_SCALE", "LAIZI_ACTION_SIZE",
           "LAIZI_STATE_SCALE", "LAIZI_STATE_SIZE", "LAYOUTS", "MATRIX", "PERFECT_SCALE", "PERFECT_SIZE",
           "STATE_SCALE", "STATE_SIZE", "WILD_SPENT", "WILD_STATE", "Decision", "Layout", "PerfectDouFeatures",
           "abstract_of", "card_matrices", "decision", "encode", "features_for", "group_candidates",
           "hand_steps", "is_largest", "layout", "perfect_extras", "scores", "stand_in", "wild_spent"]
