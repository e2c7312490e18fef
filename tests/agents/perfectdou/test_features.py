"""PerfectDou's features: card matrices worked out by hand, the state / history / action rows of hand-made and
random decisions, hidden hands kept out of the actor's features, and the is-largest rule."""

import random

import numpy as np
import pytest

import paiju
from paiju.agents.perfectdou.features import (
    ACTION_SCALE,
    ACTION_SIZE,
    HISTORY_SHAPE,
    MATRIX,
    PERFECT_SCALE,
    PERFECT_SIZE,
    STATE_SCALE,
    STATE_SIZE,
    card_matrices,
    encode,
    is_largest,
)
from paiju.core.errors import PaijuError
from paiju.games.doudizhu import PASS, DouDizhuRules, parse_cards, parse_move
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS, RANKS
from paiju.games.doudizhu.min_steps import min_steps
from paiju.games.doudizhu.observation import DouDizhuObservation
from paiju.games.doudizhu.state import Deal

GAME = paiju.load_game("doudizhu")
RESEARCH = DouDizhuRules(mode="research")
SCALARS = 9 * MATRIX


def ranks(letters: str) -> list[int]:
    """A 15-entry indicator row with the ranks ``letters`` set."""
    return [int(letter in letters) for letter in RANKS]


def test_scales_and_sizes():
    assert STATE_SIZE == 9 * 180 + 9 and PERFECT_SIZE == 2 * 180 + 2
    assert HISTORY_SHAPE == (15, 184) and ACTION_SIZE == 185
    assert np.flatnonzero(STATE_SCALE != 1).tolist() == list(range(SCALARS + 3, SCALARS + 8))
    assert np.flatnonzero(PERFECT_SCALE != 1).tolist() == [360, 361]
    assert np.flatnonzero(ACTION_SCALE != 1).tolist() == [184]
    assert np.allclose(STATE_SCALE[SCALARS + 3:SCALARS + 8], 1 / 20)


def test_card_matrices_by_hand():
    first = parse_cards("3334445566778TJQKAAAA2222B")
    second = parse_cards("345689QQKKAA222BR")
    out = card_matrices(np.array([first, second]))
    assert out.shape == (2, 12, 15) and out.dtype == np.int8
    a, b = out[0].tolist(), out[1].tolist()
    assert a == [
        ranks("345678TJQKA2B"),  # at least 1
        ranks("34567A2"),        # at least 2
        ranks("34A2"),           # at least 3
        ranks("A2"),             # at least 4
        ranks("8TJQKB"),         # exactly 1
        ranks("567"),            # exactly 2
        ranks("34"),             # exactly 3
        ranks("A2"),             # exactly 4
        ranks(""),               # one joker only: no rocket
        ranks("345678TJQKA"),    # solo runs 3-8 and T-A, never the 2
        ranks("34567"),          # pair run 3-7
        ranks("34"),             # plane 333444; the AAA 222 trios do not chain
    ]
    assert b == [
        ranks("345689QKA2BR"),
        ranks("QKA2"),
        ranks("2"),
        ranks(""),
        ranks("345689BR"),
        ranks("QKA"),
        ranks("2"),
        ranks(""),
        ranks("BR"),             # both jokers: the two joker columns only
        ranks(""),               # 3456 is one short of a solo chain, QKA(2) too
        ranks("QKA"),            # QQKKAA; the 22 does not extend it
        ranks(""),
    ]
    assert np.array_equal(card_matrices(first)[0], out[0])
    assert not card_matrices(np.zeros(NUM_RANKS)).any()


def test_card_matrix_full_deck_chains_stop_at_the_ace():
    matrix = card_matrices(np.array(FULL_DECK))[0]
    for row in (9, 10, 11):
        assert matrix[row].tolist() == ranks("3456789TJQKA")
    assert matrix[8].tolist() == ranks("BR") and matrix[3].tolist() == ranks("3456789TJQKA2")


# -- a hand-made decision -------------------------------------------------------------------------------------

def move(text: str):
    return parse_move(text, RESEARCH)


FOLLOW_HISTORY = ((0, move("K")), (1, move("A")), (2, move("2")), (0, PASS), (1, PASS), (2, move("3")),
                  (0, move("8")))


def observation(hand: str, history, cards_left, follow, follow_seat) -> DouDizhuObservation:
    """Seat 1 (down) deciding; the landlord is seat 0 (its prev), seat 2 its next."""
    return DouDizhuObservation(
        seat=1, phase="play", hand=tuple(parse_cards(hand)), landlord=0, public=tuple(parse_cards("JQK")),
        first_bidder=0, bids=(), history=history, cards_left=cards_left, multiplier=1, follow=follow,
        follow_seat=follow_seat, rules=RESEARCH)


def matrices(features) -> np.ndarray:
    return features.state[:SCALARS].reshape(9, 12, 15)


def test_encode_following_by_hand():
    obs = observation("4444559", FOLLOW_HISTORY, (4, 7, 1), move("8"), 0)
    candidates = [move("9"), move("4444"), PASS]
    features = encode(obs, candidates)
    assert features.state.shape == (STATE_SIZE,) and features.state.dtype == np.int8
    assert features.history.shape == HISTORY_SHAPE and features.history.dtype == np.int8
    assert features.actions.shape == (3, ACTION_SIZE) and features.actions.dtype == np.int8
    assert features.perfect is None
    hand = parse_cards("4444559")
    played = np.array([parse_cards("A"), parse_cards("23"), parse_cards("K8")])  # self, next, prev
    unseen = np.array(FULL_DECK) - hand - played.sum(axis=0)
    expected = card_matrices(np.array([hand, unseen, *played, parse_cards("JQK"), parse_cards("8"),
                                       parse_cards("3"), parse_cards("8")]))
    assert np.array_equal(matrices(features), expected)
    steps = min_steps(tuple(hand), RESEARCH)
    assert steps == 2
    # role down; cards left self, next (seat 2), prev (seat 0); steps; no bombs; following
    assert features.state[SCALARS:].tolist() == [0, 1, 0, 7, 1, 4, steps, 0, 0]

    history = features.history
    assert not history[:8].any()
    assert np.array_equal(history[8:, :MATRIX],
                          card_matrices(np.array([m.counts for _, m in FOLLOW_HISTORY])).reshape(7, MATRIX))
    assert history[8:, MATRIX:].tolist() == [
        [0, 0, 1, 0],  # landlord K: prev
        [1, 0, 0, 0],  # own A
        [0, 1, 0, 0],  # next 2
        [0, 0, 1, 1],  # landlord pass
        [1, 0, 0, 1],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
    ]

    actions = features.actions
    assert np.array_equal(actions[:, :MATRIX], card_matrices(np.array([m.counts for m in candidates])).reshape(3, -1))
    assert actions[0, MATRIX:].tolist() == [0, 0, 1, 0, min_steps(parse_cards("444455"), RESEARCH)]
    assert actions[1, MATRIX:].tolist() == [1, 0, 0, 1, 2]  # 6666 and the rocket are unseen
    assert actions[2, MATRIX:].tolist() == [0, 0, 0, 0, 2]


def test_encode_leading_by_hand_with_perfect_extras():
    history = (*FOLLOW_HISTORY, (1, move("9")), (2, PASS), (0, PASS))
    obs = observation("444455", history, (4, 6, 1), None, None)
    hidden = (parse_cards("59QQ"), parse_cards("444455"), parse_cards("R"))
    features = encode(obs, [move("4444"), move("55")], hidden)
    assert features.state[SCALARS + 8] == 1  # free lead
    assert not matrices(features)[6:].any()  # no play to beat; next's and prev's latest moves are passes
    assert features.history[5:, MATRIX + 3].tolist() == [0, 0, 0, 1, 1, 0, 0, 0, 1, 1]
    assert features.perfect is not None and features.perfect.shape == (PERFECT_SIZE,)
    assert features.perfect.dtype == np.int8
    others = card_matrices(np.array([hidden[2], hidden[0]]))  # next (seat 2) then prev (seat 0)
    assert np.array_equal(features.perfect[:2 * MATRIX], others.ravel())
    assert features.perfect[2 * MATRIX:].tolist() == [1, 3]
    assert encode(obs, [move("55")]).perfect is None


def test_encode_refuses_bids_and_empty_candidates():
    state = GAME.new_state(1, DouDizhuRules(mode="full"))
    with pytest.raises(PaijuError, match="phase"):
        encode(state.observation(state.current_player), [PASS])
    research = GAME.new_state(1, RESEARCH)
    with pytest.raises(PaijuError, match="candidate"):
        encode(research.observation(research.current_player), [])


def play_decisions(seeds, rules=RESEARCH):
    """(state, legal) at every play decision of random games."""
    for seed in seeds:
        state = GAME.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == "play":
                yield state, legal
            state.apply(legal[rng.randrange(len(legal))])


def test_encode_random_games_follow_the_layout():
    long_histories = 0
    for state, legal in play_decisions(range(3)):
        me = state.current_player
        obs = state.observation(me)
        candidates = legal[:6]
        features = encode(obs, candidates, [tuple(h) for h in state.hands])
        nxt, prev = (me + 1) % 3, (me + 2) % 3
        assert np.array_equal(matrices(features)[0], card_matrices(obs.hand)[0])
        role = ("landlord", "down", "up").index(obs.position)
        scalars = features.state[SCALARS:].tolist()
        assert scalars[:3] == [int(i == role) for i in range(3)]
        assert scalars[3:6] == [sum(state.hands[s]) for s in (me, nxt, prev)]
        assert scalars[7] == sum(m.is_bomb for _, m in obs.history)
        assert scalars[8] == (obs.follow is None)
        recent = obs.history[-15:]
        long_histories += len(obs.history) > 15
        first = 15 - len(recent)
        assert not features.history[:first].any()
        for row, (seat, played) in zip(features.history[first:], recent, strict=True):
            assert np.array_equal(row[:MATRIX], card_matrices(played.counts)[0].ravel())
            assert row[MATRIX:MATRIX + 3].tolist() == [int((seat - me) % 3 == i) for i in range(3)]
            assert row[MATRIX + 3] == played.is_pass
        for row, candidate in zip(features.actions, candidates, strict=True):
            assert np.array_equal(row[:MATRIX], card_matrices(candidate.counts)[0].ravel())
            assert row[MATRIX] == candidate.is_bomb
            assert row[MATRIX + 2] == (candidate.size == sum(state.hands[nxt]))
            assert row[MATRIX + 3] == (candidate.size == sum(state.hands[prev]))
            after = tuple(h - c for h, c in zip(obs.hand, candidate.counts, strict=True))
            assert row[MATRIX + 4] == min_steps(after, RESEARCH)
        others = card_matrices(np.array([state.hands[nxt], state.hands[prev]]))
        assert np.array_equal(features.perfect[:2 * MATRIX], others.ravel())
        assert features.perfect[2 * MATRIX:].tolist() == [min_steps(tuple(state.hands[s]), RESEARCH)
                                                          for s in (nxt, prev)]
    assert long_histories > 0


# -- hidden information ---------------------------------------------------------------------------------------

def swapped(deal: Deal) -> Deal:
    """``deal`` with one card of seat 1 and one of another rank of seat 2 exchanged."""
    one, two = list(deal.hands[1]), list(deal.hands[2])
    give = next(r for r in range(NUM_RANKS) if one[r] > two[r])
    take = next(r for r in range(NUM_RANKS) if two[r] > one[r] and r != give)
    one[give] -= 1
    two[give] += 1
    two[take] -= 1
    one[take] += 1
    return Deal((deal.hands[0], tuple(one), tuple(two)), deal.public, deal.first_bidder)


def test_hidden_hands_do_not_reach_the_actor_features():
    deal = Deal.draw(random.Random(5), research=True)
    states = [GAME.from_deal(d, RESEARCH) for d in (deal, swapped(deal))]
    assert states[0].hands[1] != states[1].hands[1]
    for state in states:
        lead = min((m for m in state.legal_actions() if m.size == 1), key=lambda m: m.rank)
        state.apply(lead)
        state.apply(PASS)
        state.apply(PASS)
    observations = [state.observation(0) for state in states]
    assert observations[0] == observations[1]
    candidates = states[0].legal_actions()
    assert candidates == states[1].legal_actions()
    features = [encode(obs, candidates, [tuple(h) for h in state.hands])
                for obs, state in zip(observations, states, strict=True)]
    for name in ("state", "history", "actions"):
        assert np.array_equal(getattr(features[0], name), getattr(features[1], name)), name
    assert not np.array_equal(features[0].perfect, features[1].perfect)
    blind = encode(observations[0], candidates)
    assert np.array_equal(blind.state, features[0].state) and np.array_equal(blind.actions, features[1].actions)


# -- is_largest ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("play, unseen, largest", [
    ("2", "3456789TJQKA222", True),     # no joker unseen
    ("2", "34B", False),
    ("B", "222R", False),
    ("R", "2222B", True),
    ("AA", "2233", False),              # two 2s unseen
    ("AA", "2BR", True),                # one 2; the jokers are no pair
    ("KKK", "AA22", True),
    ("KKK", "AAA", False),
    ("3334", "4455", True),            # kickers do not count
    ("34567", "45678", False),
    ("34567", "89TJQ", False),
    ("34567", "3456JQKA2", True),       # the 2 is never in a chain
    ("TJQKA", "JQKA2", True),
    ("334455", "445566", False),
    ("334455", "QQKKAA22", False),
    ("JJQQKK", "KKAA22", True),          # KKAA22 is no pair chain
    ("5555", "6666", False),
    ("5555", "4444", True),
    ("5555", "BR", False),              # the rocket beats it
    ("5555", "B2222", False),
    ("2222", "AAAAB", True),
])
def test_is_largest_by_hand(play, unseen, largest):
    counts = parse_cards(unseen)
    assert is_largest(move(play), counts) is largest
    cache: dict = {}
    assert is_largest(move(play), counts, cache) is largest
    assert is_largest(move(play), counts, cache) is largest


def test_rocket_always_and_pass_never_largest():
    assert is_largest(move("BR"), list(FULL_DECK)) is True
    assert is_largest(PASS, [0] * NUM_RANKS) is False
