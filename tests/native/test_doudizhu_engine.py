"""The compiled DouDizhu legal-move generator (``_movegen_fast``) against the reference, in one process.

Same ``Move`` objects in the same order on positions from seeded random games under every ruleset option,
on random hands skewed towards trios and bombs (planes, four+two, kicker variants), on full decks and on
input the compiled path hands back to the reference; and seeded games played through ``DouDizhuState`` with
either generator give identical legal lists and records.
"""

import random

import pytest

pytest.importorskip("paiju.games.doudizhu._movegen_fast")

from paiju.games.doudizhu._movegen_fast import legal_moves as compiled

from paiju.games.doudizhu import DouDizhuRules
from paiju.games.doudizhu import state as state_module
from paiju.games.doudizhu.cards import FULL_DECK
from paiju.games.doudizhu.movegen import reference_legal_moves as reference
from paiju.games.doudizhu.moves import PASS, parse_move

RULESETS = [
    DouDizhuRules(),
    DouDizhuRules(no_four_with_two=True),
    DouDizhuRules(bomb_as_kickers=True),
    DouDizhuRules(rocket_as_kickers=True),
    DouDizhuRules(bomb_as_kickers=True, rocket_as_kickers=True),
]


def same(hand, follow, rules) -> int:
    expected = reference(hand, follow, rules)
    assert compiled(hand, follow, rules) == expected, (hand, follow, rules)
    return 1


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_positions_of_random_games(rules):
    """Every decision of seeded random games: the hand as the state holds it (list) and as observed (tuple)."""
    checked = 0
    number = 0
    while checked < 12_000:
        state = state_module.DouDizhuState(rules, state_module.Deal.draw(random.Random(number), research=True))
        rng = random.Random(number)
        while not state.is_terminal():
            hand = state.hands[state.current_player]
            checked += same(hand, state.follow, rules) + same(tuple(hand), state.follow, rules)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        number += 1


def skewed_hand(rng: random.Random) -> list[int]:
    weights = rng.choice([(1, 1, 1, 1, 1), (5, 2, 2, 3, 3), (3, 1, 1, 2, 4), (8, 3, 2, 2, 1)])
    hand = [*rng.choices(range(5), weights, k=13), rng.randint(0, 1), rng.randint(0, 1)]
    while sum(hand) > 20:  # a real hand: at most 20 cards
        hand[rng.randrange(15)] = 0
    return hand


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_random_hands_leading_and_following(rules):
    """Leads of skewed random hands, and follows of plays drawn from earlier leads (every category)."""
    rng = random.Random(7)
    plays = [PASS]
    for _ in range(4_000):
        hand = skewed_hand(rng)
        leads = reference(hand, None, rules)
        assert compiled(hand, None, rules) == leads, hand
        plays += rng.sample(leads, min(4, len(leads)))
        for follow in rng.sample(plays, min(3, len(plays))):
            same(skewed_hand(rng), follow, rules)


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_full_deck(rules):
    same(list(FULL_DECK), None, rules)
    for text in ("3", "22", "333", "3333", "34567", "334455", "333444", "3334", "33344", "333444", "33344456",
                 "3334445566", "333345", "33334455", "BR"):
        same(list(FULL_DECK), parse_move(text, RULESETS[0]), rules)


def outcome(function, hand, follow, rules):
    try:
        return function(hand, follow, rules)
    except Exception as error:
        return type(error), str(error)


@pytest.mark.parametrize("hand", [
    bytes([1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1]),    # a sequence that is not a list or tuple
    [5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],           # more cards of a rank than a deck holds
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1],           # two small jokers
    [1, 1, 1],                                               # too short
    [1] * 14 + [-1],                                         # negative
    [1] * 14 + [2**70],                                      # huge
    [1] * 14 + [1.0],                                        # not an int
    [True] * 15,
])
def test_input_the_reference_handles(hand):
    """Input outside the compiled tables' domain gives exactly the reference's result or exception."""
    for follow in (None, PASS, parse_move("3", RULESETS[0]), parse_move("3334", RULESETS[0])):
        assert outcome(compiled, hand, follow, RULESETS[0]) == outcome(reference, hand, follow, RULESETS[0])
    assert outcome(compiled, [1] * 15, "3", RULESETS[0]) == outcome(reference, [1] * 15, "3", RULESETS[0])


def play(rules: DouDizhuRules, number: int) -> tuple[list, dict]:
    state = state_module.DouDizhuState(rules, state_module.Deal.draw(random.Random(number), rules.mode == "research"),
                                       seed=number, rng=random.Random(number))
    rng = random.Random(number)
    legals = []
    while not state.is_terminal():
        legals.append(state.legal_actions())
        state.apply(legals[-1][rng.randrange(len(legals[-1]))], seat=state.current_player)
        legals.append(state.clone().legal_actions())
    return legals, state.to_record()


@pytest.mark.parametrize("rules", [RULESETS[0], RULESETS[4], DouDizhuRules(mode="full")], ids=repr)
def test_games_through_the_state(rules, monkeypatch):
    """Seeded random games with the state's generator compiled, then reference: identical lists and records."""
    for number in range(150):
        monkeypatch.setattr(state_module, "legal_moves", compiled)
        fast = play(rules, number)
        monkeypatch.setattr(state_module, "legal_moves", reference)
        assert fast == play(rules, number), number
