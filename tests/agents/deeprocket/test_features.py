"""DeepRocket's input planes (Table 2 / Table 4 as paiju fills them), checked by hand and over random games."""

import random

import numpy as np

from paiju.agents.deeprocket.features import (
    KICKER_SHAPE,
    POLICY_SHAPE,
    kicker_planes,
    policy_planes,
    set_forms,
    unseen_cards,
)
from paiju.agents.deeprocket.labels import LABEL_CATEGORIES
from paiju.games.doudizhu import PASS, DouDizhu, DouDizhuRules, parse_cards, parse_move
from paiju.games.doudizhu.cards import FULL_DECK, RANKS
from paiju.games.doudizhu.observation import DouDizhuObservation

RESEARCH = DouDizhuRules()
GAME = DouDizhu()
ROW = {name: 4 + index for index, name in enumerate(LABEL_CATEGORIES)}


def ranks(letters: str) -> list[int]:
    return [RANKS.index(letter) for letter in letters]


def move(text: str):
    return parse_move(text, RESEARCH)


def observation(hand: str, history, cards_left) -> DouDizhuObservation:
    """Seat 1 (the down peasant) deciding; the landlord is seat 0."""
    return DouDizhuObservation(
        seat=1, phase="play", hand=tuple(parse_cards(hand)), landlord=0, public=tuple(parse_cards("JJK")),
        first_bidder=0, bids=(), history=history, cards_left=cards_left, multiplier=1, follow=None,
        follow_seat=None, rules=RESEARCH)


def test_set_forms_by_hand():
    forms = set_forms(parse_cards("34567899TTTJJJQQQQBR"))
    assert list(np.flatnonzero(forms[0])) == ranks("3456789TJQBR")          # solo
    assert list(np.flatnonzero(forms[1])) == ranks("3456789TJQ")            # solo chain: one run 3..Q
    assert list(np.flatnonzero(forms[3])) == ranks("9TJQ")                  # pair chain 99..QQ
    assert list(np.flatnonzero(forms[5])) == ranks("TJQ")                   # plane TTT..QQQ
    assert list(np.flatnonzero(forms[12])) == ranks("Q")                    # bomb
    assert list(np.flatnonzero(forms[13])) == ranks("BR")                   # rocket
    assert not forms[14].any()                                              # a set never forms a pass
    short = set_forms(parse_cards("3456"))
    assert not short[1].any() and not short[6].any()                        # no chain of 4, no trio


def test_policy_planes_by_hand():
    history = ((0, move("33")), (1, move("55")), (2, PASS), (0, move("888K")), (1, PASS), (2, PASS),
               (0, move("4")))
    obs = observation("6677899TTJQKA22B", history, (11, 16, 17))
    planes = policy_planes(obs)
    assert planes.shape == POLICY_SHAPE and planes.dtype == np.uint8
    # Rounds end with the up player's move just before this decision. Seat 1 decides: seat 2 is its down
    # player, seat 0 (the landlord) its up player. The most recent round is (1: pass, 2: pass, 0: "4").
    last = 1 + 5 * 3  # the most recent round's planes: specified, down, up
    assert planes[last + 0, ROW["pass"]].all() and not planes[last + 0, :4].any()
    assert planes[last + 1, ROW["pass"]].all()
    assert list(np.flatnonzero(planes[last + 2, 0])) == ranks("4")
    assert list(np.flatnonzero(planes[last + 2, ROW["solo"]])) == ranks("4")
    previous = last - 3                                         # (1: "55", 2: pass, 0: "888K")
    assert list(np.flatnonzero(planes[previous + 0, 1])) == ranks("5")
    assert planes[previous + 1, ROW["pass"]].all()
    trio = previous + 2                                         # seat 0's 888K
    assert list(np.flatnonzero(planes[trio, 0])) == ranks("8K")
    assert list(np.flatnonzero(planes[trio, ROW["trio+solo"]])) == ranks("8")   # main part only
    assert list(np.flatnonzero(planes[last - 6 + 2, 1])) == ranks("3")          # seat 0's 33, a round before
    assert not planes[1:last - 6].any()                          # nothing older: three rounds only
    assert not planes[0, :4].any()                               # nothing before the last six rounds
    # Own hand and unseen cards.
    hand = np.array(obs.hand)
    assert np.array_equal(planes[20, 0], (hand >= 1).astype(np.uint8))
    assert np.array_equal(planes[20, 3], (hand == 4).astype(np.uint8))
    unseen = unseen_cards(obs)
    assert unseen.sum() == 54 - 16 - 2 - 2 - 4 - 1
    assert np.array_equal(planes[19, 0], (unseen >= 1).astype(np.uint8))
    # paiju's extras in plane 0: cards left (specified, down, up), role, public cards.
    assert planes[0, 4].sum() == 15 and planes[0, 7].sum() == 1      # 16 cards: 15 + 1
    assert planes[0, 5].sum() == 15 and planes[0, 8].sum() == 2      # the down player (seat 2): 17
    assert planes[0, 6].sum() == 11 and planes[0, 9].sum() == 0      # the up player (the landlord): 11
    assert planes[0, 11].all() and not planes[0, 10].any() and not planes[0, 12].any()  # down peasant
    assert list(np.flatnonzero(planes[0, 13])) == ranks("JK") and list(np.flatnonzero(planes[0, 14])) == ranks("J")


def test_older_plays_fold_into_plane_zero():
    leads = [move(letter) for letter in "3456789"]
    history = tuple(item for play in leads for item in ((0, play), (1, PASS), (2, PASS)))[:19]
    obs = observation("6677899TTJQKA22B", history, (13, 17, 17))
    planes = policy_planes(obs)
    assert list(np.flatnonzero(planes[0, 0])) == ranks("3")   # the one move before the last 18
    assert not planes[0, 1].any()
    assert list(np.flatnonzero(planes[1 + 2, 0])) == ranks("4")  # the oldest round's up player: the landlord's 4


def random_decisions(seeds):
    for seed in seeds:
        state = GAME.new_state(seed, RESEARCH)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            yield state, legal
            state.apply(legal[rng.randrange(len(legal))])


def test_random_games_keep_the_layout():
    for state, _ in random_decisions(range(6)):
        seat = state.current_player
        obs = state.observation(seat)
        planes = policy_planes(obs)
        assert np.array_equal(planes[20, 0], (np.array(obs.hand) >= 1).astype(np.uint8))
        unseen = np.array(FULL_DECK) - np.array(obs.hand) - sum((np.array(m.counts) for _, m in obs.history),
                                                                np.zeros(15, dtype=int))
        assert np.array_equal(unseen, np.array([sum(h[r] for s, h in enumerate(state.hands) if s != seat)
                                                for r in range(15)]))
        cards = int(planes[1:19, :4].sum() + planes[0, :4].sum())
        assert cards <= 54 * 4
        assert planes.max() <= 1


def test_hidden_hands_do_not_reach_the_planes():
    differing = 0
    for state, _ in random_decisions(range(20, 24)):
        seat = state.current_player
        observation = state.observation(seat)
        worlds = [GAME.determinize(observation, random.Random(k)) for k in range(3)]
        differing += len({tuple(map(tuple, world.hands)) for world in worlds}) > 1
        for world in worlds:
            assert np.array_equal(policy_planes(world.observation(seat)), policy_planes(observation))
    assert differing > 50  # the hidden hands did differ between the worlds


def test_kicker_planes_by_hand():
    obs = observation("3334445566789TJQK", (), (20, 17, 17))
    main = move("333444")
    planes = kicker_planes(obs, main, "solo", 2, [ranks("5")[0]], ranks("56789TJQK"))
    assert planes.shape == KICKER_SHAPE and planes.dtype == np.uint8
    assert planes[0, 0].all() and not planes[0, 1].any()                 # solo kickers asked
    assert list(np.flatnonzero(planes[0, 2])) == [1]                      # down peasant
    assert list(np.flatnonzero(planes[0, 7])) == ranks("56789TJQK")       # solos that may come next
    assert list(np.flatnonzero(planes[1, 2])) == ranks("34")              # the main group: three of each
    assert planes[1, 4].sum() == 2 and planes[1, 5].sum() == 1            # two units, one left to choose
    assert list(np.flatnonzero(planes[1, 6])) == ranks("5")               # chosen so far
    rest = np.array(obs.hand) - np.array(main.counts)
    rest[ranks("5")[0]] -= 1
    assert np.array_equal(planes[2, 0], (rest >= 1).astype(np.uint8))
    assert planes[2, 8].sum() == 15                                       # the landlord holds 20
