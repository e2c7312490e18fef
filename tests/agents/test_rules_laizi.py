"""The ``rules`` player under the 癞子 (wild-card) rules: minimum steps with wild cards, card counting with unseen
wild cards, legal and deterministic play, and strength against ``random``."""

import doctest
import random
from functools import cache

import pytest

import paiju
from paiju.agents.random_agent import RandomAgent
from paiju.agents.rules import DouDizhuRulesAgent
from paiju.agents.rules.counting import can_beat
from paiju.core.match import play_game
from paiju.games.doudizhu import PASS, DouDizhuObservation, DouDizhuRules, parse_cards, parse_move, wild_steps
from paiju.games.doudizhu import wild as laizi
from paiju.games.doudizhu.cards import RANK_INDEX, pack, unpack
from paiju.games.doudizhu.min_steps import min_steps as classic_min_steps
from paiju.games.doudizhu.moves import HARD, SOFT, WILD
from paiju.games.doudizhu.state import DECK
from paiju.games.doudizhu.wild_steps import decompose, min_steps

GAME = paiju.load_game("doudizhu")
ONE_WILD = DouDizhuRules(laizi=True)
TWO_WILD = DouDizhuRules(laizi=True, wild_ranks=2)


def wild_of(letters: str) -> tuple[int, ...]:
    return tuple(sorted(RANK_INDEX[letter] for letter in letters))


def random_hand(rng: random.Random, size: int) -> list[int]:
    counts = [0] * 15
    for rank in rng.sample(DECK, size):
        counts[rank] += 1
    return counts


# -- minimum steps with wild cards ---------------------------------------------------------------------

def test_the_examples_in_wild_steps():
    assert doctest.testmod(wild_steps).failed == 0


@pytest.mark.parametrize(("hand", "wild", "expected"), [
    ("34568", "8", 1),  # 8 stands for 7: the chain 34567
    ("5558", "8", 1),  # the soft bomb 5555, or the trio of fives with the 8
    ("3456", "8", 4),  # no wild card: four solos
    ("34TT8", "8", 2),  # TTT + 3, then 4
    ("8888", "8", 1),  # the wild bomb
    ("8888R", "8", 2),
    ("34588", "8", 1),  # 8s stand for 6 and 7
    ("345588", "8", 1),  # four fives (two 8s) with 3 and 4
    ("AAA58", "8", 2),  # not AAA + 55: a wild card stands for its own rank as a kicker
    ("33344488", "8", 1),  # plane with the two 8s as solo kickers
    ("3456789TJQK88", "8", 2),  # the chain 3..K with an 8, then the pair of 8s
    ("8J", "8J", 2),  # wild cards alone stand for their own ranks: no pair
    ("8J5", "8J", 1),  # 555
    ("", "8", 0),
])
def test_min_steps_with_wild_cards(hand, wild, expected):
    rules = ONE_WILD if len(wild) == 1 else TWO_WILD
    assert min_steps(parse_cards(hand), wild_of(wild), rules) == expected


def test_min_steps_without_wild_cards_is_the_classic_oracle():
    rng = random.Random(1)
    for _ in range(200):
        hand = random_hand(rng, rng.choice((5, 17, 20)))
        wild = tuple(r for r in range(13) if not hand[r])[:1]
        assert min_steps(hand, wild, ONE_WILD) == classic_min_steps(hand, ONE_WILD)


def brute_force(hand: list[int], wild: tuple[int, ...], rules: DouDizhuRules) -> int:
    """Breadth of a search over every 癞子 lead, until the hand is empty."""

    @cache
    def steps(packed: int) -> int:
        if not packed:
            return 0
        return 1 + min(steps(packed - move.packed) for move in laizi.legal_moves(unpack(packed), None, wild, rules))

    return steps(pack(hand))


@pytest.mark.parametrize("rules", [ONE_WILD, TWO_WILD])
def test_min_steps_matches_a_search_over_every_lead_on_small_hands(rules):
    rng = random.Random(rules.wild_ranks)
    checked = 0
    while checked < 100:
        hand = random_hand(rng, rng.choice((5, 6, 7)))
        wild = tuple(sorted(rng.sample(range(13), rules.wild_ranks)))
        if any(hand[w] for w in wild):
            assert min_steps(hand, wild, rules) == brute_force(hand, wild, rules), (hand, wild)
            checked += 1


@pytest.mark.parametrize("rules", [ONE_WILD, TWO_WILD])
def test_decompose_plays_out_the_hand_in_at_most_min_steps(rules):
    rng = random.Random(10 + rules.wild_ranks)
    for _ in range(100):
        hand = random_hand(rng, rng.choice((8, 17, 20)))
        wild = tuple(sorted(rng.sample(range(13), rules.wild_ranks)))
        plan = decompose(hand, wild, rules)
        assert sum(play.size for play in plan) == sum(hand)
        assert 0 < len(plan) <= min_steps(hand, wild, rules)


def test_decompose_marks_bomb_tiers():
    eight = wild_of("8")
    assert [(m.cards, m.tier) for m in decompose(parse_cards("8888R"), eight, ONE_WILD)] == [("R", HARD),
                                                                                           ("8888", WILD)]
    assert [(m.cards, m.tier) for m in decompose(parse_cards("5558"), eight, ONE_WILD)] == [("5558", HARD)]
    bombs = [m for m in decompose(parse_cards("55583KK"), eight, ONE_WILD) if m.cards == "5555"]
    assert all(m.tier == SOFT for m in bombs)


# -- counting with unseen wild cards -------------------------------------------------------------------

def pool_of(cards: str) -> list[int]:
    return parse_cards(cards)


@pytest.mark.parametrize(("pool", "play", "wild", "expected"), [
    ("98", "77", "8", True),  # 9 and a wild 8: the pair of nines
    ("98", "77", "", False),
    ("9J", "77", "8", False),
    ("89", "TT", "8", False),  # nothing natural above the tens
    ("88", "TT", "8", False),  # wild cards alone are a pair of 8s
    ("45798", "34567", "8", False),  # 45678 lacks the 6 once the 8 is in it
    ("457988", "34567", "8", True),  # ... which a second 8 fills
    ("KKK8", "5555", "8", False),  # a soft bomb of kings is below any hard bomb
    ("KKK8", "5558=5555", "8", True),  # ... and above a lower soft bomb
    ("8888", "AAAA", "8", True),  # the wild bomb
    ("KKK8", "QQQ3", "8", True),
    ("KKK", "QQQ3", "8", False),  # no kicker
    ("KKK8", "QQQ3", "", True),
])
def test_can_beat_with_unseen_wild_cards(pool, play, wild, expected):
    wild_ranks = wild_of(wild)
    rules = ONE_WILD if wild_ranks else DouDizhuRules()
    move = parse_move(play, rules, None, wild_ranks) if wild_ranks else parse_move(play, rules)
    assert can_beat(pool_of(pool), move, 20, wild_ranks) is expected


# -- the player ----------------------------------------------------------------------------------------

def observe(hand: str, wild: str = "8", *, seat: int = 0, cards_left: tuple[int, int, int] = (17, 17, 17),
            follow: str = "", follow_seat: int | None = None) -> DouDizhuObservation:
    """A seat's view under the 癞子 rules with wild ranks ``wild``; ``follow`` (by ``follow_seat``) the only play."""
    wild_ranks = wild_of(wild)
    rules = ONE_WILD if len(wild_ranks) == 1 else TWO_WILD
    counts = tuple(parse_cards(hand))
    left = list(cards_left)
    left[seat] = len(hand)
    move = parse_move(follow, rules, None, wild_ranks) if follow else None
    history = ((follow_seat, move),) if move is not None else ()
    return DouDizhuObservation(
        seat=seat, phase="play", hand=counts, landlord=0, public=(0,) * 15, first_bidder=0, bids=(),
        history=history, cards_left=tuple(left), multiplier=1, follow=move,  # type: ignore[arg-type]
        follow_seat=follow_seat if move is not None else None, rules=rules, wild=wild_ranks)


def decide(view: DouDizhuObservation, seed: int = 0):
    legal = laizi.legal_moves(view.hand, view.follow, view.wild, view.rules)
    action = DouDizhuRulesAgent(seed).act(view, legal)
    assert action in legal
    return action


def test_leads_the_whole_hand_when_wild_cards_make_it_one_play():
    assert decide(observe("34568")).notation == "34568=34567"
    assert decide(observe("5558")).size == 4


def test_follows_with_a_natural_card_before_a_wild_card():
    view = observe("8QJJ", seat=1, cards_left=(15, 4, 17), follow="6", follow_seat=0)
    assert decide(view).cards == "Q"


def test_stops_a_landlord_with_one_card_by_its_soft_bomb_before_its_hard_one():
    view = observe("34569999558", seat=1, cards_left=(1, 11, 17), follow="KK", follow_seat=0)
    play = decide(view)
    assert play.notation == "5558=5555" and play.tier == SOFT


def test_explain_ranks_laizi_plays():
    view = observe("33558KK", seat=1, cards_left=(15, 7, 17), follow="44", follow_seat=0)
    legal = laizi.legal_moves(view.hand, view.follow, view.wild, view.rules)
    scored = DouDizhuRulesAgent(0).explain(view, legal)
    assert [s.score for s in scored] == sorted((s.score for s in scored), reverse=True)
    assert {s.action for s in scored} <= set(legal) and PASS in {s.action for s in scored}


@pytest.mark.parametrize("mode", ["research", "full"])
@pytest.mark.parametrize("wild_ranks", [1, 2])
def test_plays_only_legal_moves(mode, wild_ranks):
    rules = DouDizhuRules(mode=mode, laizi=True, wild_ranks=wild_ranks)
    for seed in range(4):  # play_game raises AgentError on an illegal action
        agents = [DouDizhuRulesAgent(seed), RandomAgent(seed + 1), DouDizhuRulesAgent(seed + 2)]
        assert play_game(GAME, agents, seed=seed, rules=rules).is_terminal()


def test_same_seed_same_game():
    rules = DouDizhuRules(mode="full", laizi=True, wild_ranks=2)
    histories = []
    for _ in range(2):
        final = play_game(GAME, [DouDizhuRulesAgent(seed) for seed in (1, 2, 3)], seed=5, rules=rules)
        histories.append([(seat, str(action)) for seat, action in final.actions])
    assert histories[0] == histories[1]


def test_landlord_beats_random_peasants():
    deals = 100
    wins = sum(play_game(GAME, [DouDizhuRulesAgent(s), RandomAgent(s + 1), RandomAgent(s + 2)], seed=s,
                         rules=ONE_WILD).payoffs()[0] > 0 for s in range(deals))
    assert wins > 0.8 * deals
