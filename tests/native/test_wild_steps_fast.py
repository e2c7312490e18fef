"""The compiled 癞子 minimum steps (``_wild_steps_fast``) against the reference (``wild_steps.reference_min_steps``).

The same value: on every hand reached in seeded random 癞子 games (one and two wild ranks, the kicker options,
``no_four_with_two``) and on the hands after some of each decision's plays; on generated hands of 0-20 cards with
one or two wild ranks in any order, holding any number of wild cards (none too); on random hands rich in trios and
fours; on hand-written edge cases; and
input the compiled path hands back to the reference gives the reference's result or exception. Seeded games of
three ``rules`` bots make the same moves with either path.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("paiju.games.doudizhu._wild_steps_fast")

import paiju
from paiju import native
from paiju.agents.rules.doudizhu import DouDizhuRulesAgent
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules, _wild_steps_fast, cards, moves, wild_steps
from paiju.games.doudizhu.cards import RANK_INDEX, parse_cards
from paiju.games.doudizhu.moves import Category
from paiju.games.doudizhu.state import DECK

compiled = _wild_steps_fast.min_steps
reference = wild_steps.reference_min_steps

GAME = paiju.load_game("doudizhu")
LAIZI = DouDizhuRules(laizi=True)
TIANDI = DouDizhuRules(laizi=True, wild_ranks=2)
KICKERS = {"bomb_as_kickers": True, "rocket_as_kickers": True}
RULESETS = [LAIZI, TIANDI, DouDizhuRules(laizi=True, **KICKERS), DouDizhuRules(laizi=True, wild_ranks=2, **KICKERS),
            DouDizhuRules(laizi=True, wild_ranks=2, no_four_with_two=True)]
GAME_RULESETS = [(LAIZI, 150), (TIANDI, 150), (RULESETS[2], 50), (RULESETS[3], 50), (RULESETS[4], 50)]


def same(counts, wild, rules) -> int:
    expected = reference(counts, wild, rules)
    assert compiled(counts, wild, rules) == expected, (counts, wild, rules)
    return expected


@pytest.mark.parametrize(("rules", "games"), GAME_RULESETS, ids=repr)
def test_hands_of_random_games(rules, games):
    """Every hand reached in seeded random games, and the hands left by up to three of each decision's plays."""
    for seed in range(games):
        state = GAME.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            for hand in state.hands:
                same(tuple(hand), state.wild, rules)
            hand, legal = state.hands[state.current_player], state.legal_actions()
            for move in rng.sample(legal, min(3, len(legal))):
                same([a - b for a, b in zip(hand, move.counts, strict=True)], state.wild, rules)
            state.apply(legal[rng.randrange(len(legal))])


@st.composite
def positions(draw) -> tuple[list[int], tuple[int, ...], DouDizhuRules]:
    """0-20 cards (0-4 of a rank, at most one of each joker) and one or two wild ranks of 3..2 in any order: the
    wild cards held drawn first (0-4 of each), then the other cards."""
    wild = tuple(draw(st.lists(st.integers(0, cards.TWO), min_size=1, max_size=2, unique=True)))
    counts = [0] * cards.NUM_RANKS
    for rank in wild:
        counts[rank] = draw(st.integers(0, 4))
    others = [index for index, rank in enumerate(DECK) if rank not in wild]
    for index in draw(st.lists(st.sampled_from(others), unique=True, max_size=20 - sum(counts))):
        counts[DECK[index]] += 1
    return counts, wild, draw(st.sampled_from(RULESETS))


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(positions())
def test_generated_hands(position):
    same(*position)


def skewed_hand(rng: random.Random, wild: tuple[int, ...]) -> list[int]:
    """Up to 20 cards, counts skewed towards trios and fours (planes, bombs, both as kickers), often several cards of
    the wild ranks."""
    weights = rng.choice([(1, 1, 1, 1, 1), (5, 2, 2, 3, 3), (3, 1, 1, 2, 4), (4, 1, 1, 4, 2), (8, 2, 1, 1, 1)])
    hand = [*rng.choices(range(5), weights, k=13), rng.randint(0, 1), rng.randint(0, 1)]
    for rank in wild:
        hand[rank] = rng.randint(0, 4)
    limit = rng.choice([8, 12, 16, 20])
    while sum(hand) > limit:
        hand[rng.randrange(15)] = 0
    return hand


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_skewed_hands(rules):
    rng = random.Random(repr(rules))
    for _ in range(1000):
        wild = tuple(rng.sample(range(cards.TWO + 1), rules.wild_ranks))
        same(skewed_hand(rng, wild), wild, rules)


def ranks(letters: str) -> tuple[int, ...]:
    return tuple(RANK_INDEX[letter] for letter in letters)


EIGHT = ranks("8")


@pytest.mark.parametrize(("hand", "wild", "rules", "steps"), [
    ("34568", EIGHT, LAIZI, 1),                            # 8 stands for 7: a chain
    ("5558", EIGHT, LAIZI, 1),                             # a soft bomb
    ("34TT8", EIGHT, LAIZI, 2),                            # TTT + 3, then 4
    ("5558", (), LAIZI, 1),                                # no wild rank: the classic oracle
    ("8888", EIGHT, LAIZI, 1),                             # a wild bomb
    ("88889999", ranks("89"), TIANDI, 2),                  # two wild ranks, nothing else
    ("3456789TJQKA2BR", EIGHT, LAIZI, None),
    ("33344455588BR", EIGHT, LAIZI, None),                 # planes, kickers, the rocket
    ("33344455588BR", EIGHT, DouDizhuRules(laizi=True, **KICKERS), None),
    ("333444555666777888", ranks("37"), TIANDI, None),     # long planes through the wild ranks
    ("3344556677889999", ranks("9"), LAIZI, None),
    ("666677888999TTT", ranks("7"), LAIZI, 2),             # four equal cards are not two pair kickers
    ("666677888999TTT", ranks("7"), DouDizhuRules(laizi=True, **KICKERS), 1),  # unless the option says so
    ("", EIGHT, LAIZI, 0),
    ("BR", EIGHT, LAIZI, 1),
])
def test_edge_cases(hand, wild, rules, steps):
    counts = parse_cards(hand)
    found = same(counts, wild, rules)
    same(tuple(counts), list(reversed(wild)), rules)
    assert steps is None or found == steps


def outcome(function, counts, wild, rules):
    try:
        return function(counts, wild, rules)
    except Exception as error:
        return type(error), str(error)


@pytest.mark.parametrize(("counts", "wild", "rules"), [
    (bytes([1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1]), EIGHT, LAIZI),   # not a list or tuple
    ([5] + [0] * 14, EIGHT, LAIZI),                                         # more cards than a deck holds
    ([5] + [0] * 14, (), LAIZI),
    ([0] * 13 + [2, 1], EIGHT, LAIZI),                                      # two small jokers
    ([1, 1, 1], EIGHT, LAIZI),                                              # too short
    ([1] * 14 + [-1], EIGHT, LAIZI),                                        # negative
    ([1] * 14 + [2**70], EIGHT, LAIZI),                                     # huge
    ([1] * 14 + [1.0], EIGHT, LAIZI),                                       # not an int
    ([True] * 15, EIGHT, LAIZI),                                            # bools are ints
    ([1] * 15, ranks("345"), LAIZI),                                        # three wild ranks
    ([1] * 15, (5, 5), LAIZI),                                              # a rank twice
    ([1] * 15, (13,), LAIZI),                                               # a joker
    ([1] * 15, (-1,), LAIZI),
    ([1] * 15, {5}, LAIZI),                                                 # not a list or tuple
    ([1] * 15, (True,), LAIZI),
    ([1] * 15, EIGHT, None),                                                # the default rules
    ([1] * 15, EIGHT, "laizi"),                                             # not rules
])
def test_input_the_reference_handles(counts, wild, rules):
    """Input outside the compiled path's domain gives exactly the reference's result or exception."""
    assert outcome(compiled, counts, wild, rules) == outcome(reference, counts, wild, rules)


def bot_game(rules: DouDizhuRules, seed: int) -> list:
    agents = [DouDizhuRulesAgent(seed + seat) for seat in range(3)]
    return [(seat, str(action)) for seat, action in play_game(GAME, agents, seed=seed, rules=rules).actions]


@pytest.mark.parametrize("rules", [LAIZI, DouDizhuRules(laizi=True, wild_ranks=2, mode="full")], ids=repr)
def test_rules_bots_play_alike(rules, monkeypatch):
    """Seeded games of three ``rules`` bots with the compiled, then the reference minimum steps: the same moves."""
    for seed in range(6):
        monkeypatch.setattr(wild_steps, "min_steps", compiled)
        fast = bot_game(rules, seed)
        monkeypatch.setattr(wild_steps, "min_steps", reference)
        assert fast == bot_game(rules, seed), seed


def test_the_public_name_is_the_path_paiju_native_chose():
    assert wild_steps.min_steps is (reference if native._SETTING == "0" else compiled)


def test_mirrored_constants_equal_the_python_ones():
    chains = {copies: (shortest, longest) for copies, shortest, longest in moves.CHAIN_SHAPES.values()}
    assert _wild_steps_fast.mirrored_constants() == {
        "NUM_RANKS": cards.NUM_RANKS, "TWO": cards.TWO, "SMALL_JOKER": cards.SMALL_JOKER,
        "BIG_JOKER": cards.BIG_JOKER, "TOP_CHAIN": moves.HIGHEST_CHAIN_RANK,
        "MIN_LENGTH": [0] + [chains[copies][0] for copies in (1, 2, 3)],
        "MAX_LENGTH": [0] + [chains[copies][1] for copies in (1, 2, 3)],
        "PLANE_SOLOS_MOST": moves.PLANE_KICKER_SHAPES[Category.PLANE_SOLOS][1],
        "PLANE_PAIRS_MOST": moves.PLANE_KICKER_SHAPES[Category.PLANE_PAIRS][1],
    }
