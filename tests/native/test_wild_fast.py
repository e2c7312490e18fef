"""The compiled 癞子 legal-move generator (``_wild_fast``) against the reference (``wild.reference_legal_moves``).

The same ``Move`` objects (identity) in the same order: on the decisions of seeded random 癞子 games (one and two
wild ranks, ``no_four_with_two``, the kicker options), on skewed random hands rich in wild cards, leading and
following plays drawn from earlier leads, on hand-written edge cases (four wild cards, two wild ranks, jokers,
following a soft, hard or wild bomb and the rocket) and on input the compiled path hands back to the reference;
seeded games played through ``DouDizhuState`` with either generator give identical legal lists and records.
"""

import random

import pytest

pytest.importorskip("paiju.games.doudizhu._wild_fast")

from paiju import native
from paiju.games.doudizhu import DouDizhu, DouDizhuRules, _wild_fast, cards, moves
from paiju.games.doudizhu import wild as wild_module
from paiju.games.doudizhu.cards import RANK_INDEX, parse_cards
from paiju.games.doudizhu.moves import PASS, Category

compiled = _wild_fast.legal_moves
reference = wild_module.reference_legal_moves

LAIZI = DouDizhuRules(laizi=True)
TIANDI = DouDizhuRules(laizi=True, wild_ranks=2)
KICKERS = {"bomb_as_kickers": True, "rocket_as_kickers": True}
GAME_RULESETS = [  # (rules, decisions to check)
    (LAIZI, 2000),
    (TIANDI, 800),
    (DouDizhuRules(laizi=True, no_four_with_two=True), 1000),
    (DouDizhuRules(laizi=True, wild_ranks=2, no_four_with_two=True), 500),
    (DouDizhuRules(laizi=True, **KICKERS), 1000),
    (DouDizhuRules(laizi=True, wild_ranks=2, bomb_as_kickers=True), 500),
]
GAME = DouDizhu()


def ranks(letters: str) -> tuple[int, ...]:
    return tuple(sorted(RANK_INDEX[letter] for letter in letters))


def first_difference(expected: list, got: list) -> str:
    for index, (mine, theirs) in enumerate(zip(got, expected, strict=False)):
        if mine is not theirs:
            return f"at {index}: compiled {mine!r}, reference {theirs!r}"
    return f"lengths: compiled {len(got)}, reference {len(expected)}"


def same(hand, follow, wild, rules) -> list:
    """Assert both paths give the very same moves in the same order; the list."""
    expected = reference(hand, follow, wild, rules)
    got = compiled(hand, follow, wild, rules)
    assert len(got) == len(expected) and all(a is b for a, b in zip(got, expected, strict=True)), (
        hand, follow, wild, rules, first_difference(expected, got))
    return got


@pytest.mark.parametrize(("rules", "decisions"), GAME_RULESETS, ids=repr)
def test_positions_of_random_games(rules, decisions):
    """Every decision of seeded random games, leading and following: the hand as the state holds it, and (every
    third decision) as a tuple."""
    checked = leads = 0
    seed = 0
    while checked < decisions:
        state = GAME.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            hand, follow = state.hands[state.current_player], state.follow
            legal = same(hand, follow, state.wild, rules)
            if checked % 3 == 0:
                same(tuple(hand), follow, state.wild, rules)
            checked += 1
            leads += follow is None or follow.is_pass
            state.apply(legal[rng.randrange(len(legal))])
        seed += 1
    assert leads > decisions // 10


def skewed_hand(rng: random.Random, wild: tuple[int, ...]) -> list[int]:
    """Up to 20 cards, counts skewed towards trios and fours, often several cards of the wild ranks."""
    weights = rng.choice([(1, 1, 1, 1, 1), (5, 2, 2, 3, 3), (3, 1, 1, 2, 4), (8, 3, 2, 2, 1), (8, 2, 1, 1, 1)])
    hand = [*rng.choices(range(5), weights, k=13), rng.randint(0, 1), rng.randint(0, 1)]
    for rank in wild:
        if rng.random() < 0.6:
            hand[rank] = rng.randint(1, 4)
    limit = rng.choice([8, 12, 16, 20])
    while sum(hand) > limit:
        hand[rng.randrange(15)] = 0
    return hand


@pytest.mark.parametrize("options", [{}, {"no_four_with_two": True}, {"bomb_as_kickers": True}, KICKERS], ids=repr)
def test_random_hands_leading_and_following(options):
    """Leads of skewed hands with zero, one or two wild ranks, and follows of plays drawn from earlier leads (every
    category, substituted plays and bombs of every tier)."""
    rng = random.Random(len(options))
    rules = DouDizhuRules(laizi=True, wild_ranks=2, **options)
    plays = [PASS]
    for _ in range(150):
        wild = tuple(sorted(rng.sample(range(13), rng.choice([0, 1, 1, 2, 2]))))
        leads = same(skewed_hand(rng, wild), None, wild, rules)
        plays += rng.sample(leads, min(4, len(leads)))
        for follow in rng.sample(plays, min(3, len(plays))):
            same(skewed_hand(rng, wild), follow, wild, rules)


KICKER_CATEGORIES = (Category.TRIO_SOLO, Category.TRIO_PAIR, Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS,
                     Category.PLANE_SOLOS, Category.PLANE_PAIRS)


@pytest.mark.parametrize("rules", [LAIZI, TIANDI, DouDizhuRules(laizi=True, wild_ranks=2, **KICKERS)], ids=repr)
def test_kept_lists_follow_every_count_they_depend_on(rules):
    """A hand, then the same hand with one rank's count changed to each other count, leading and following its own
    plays with kickers, and under the other kicker options: every list the first hand's call kept is offered to the
    changed hands, so a count or option a kept list depends on but its key leaves out gives a wrong list."""
    rng = random.Random(7)
    for _ in range(12):
        wild = tuple(sorted(rng.sample(range(13), rules.wild_ranks)))
        base = skewed_hand(rng, wild)
        for options in ({}, {"bomb_as_kickers": True}, {"rocket_as_kickers": True}, KICKERS):
            same(base, None, wild, DouDizhuRules(laizi=True, wild_ranks=rules.wild_ranks, **options))
        with_kickers = [move for move in same(base, None, wild, rules) if move.category in KICKER_CATEGORIES]
        follows = [None, *rng.sample(with_kickers, min(1, len(with_kickers)))]
        for rank in range(15):
            for count in range(2 if rank >= 13 else 5):
                hand = [*base[:rank], count, *base[rank + 1:]]
                if sum(hand) <= 20:
                    for follow in follows:
                        same(hand, follow, wild, rules)


@pytest.mark.parametrize(("lists", "places"), [(1, 10_000), (7, 300), (50, 0)])
def test_the_kept_lists_are_bounded(lists, places):
    """With the kept lists bounded to a few (dropped whole, in the middle of a call too, when the next would pass the
    bound; a list longer than the bound is never kept), every list is still the reference's."""
    old = _wild_fast.keep_at_most(lists, places)
    try:
        rng = random.Random(lists)
        for seed in range(6):
            state = GAME.new_state(seed, LAIZI)
            while not state.is_terminal():
                legal = same(state.hands[state.current_player], state.follow, state.wild, LAIZI)
                same(state.hands[state.current_player], state.follow, state.wild, LAIZI)
                state.apply(legal[rng.randrange(len(legal))])
    finally:
        _wild_fast.keep_at_most(*old)
    with pytest.raises(ValueError, match="at least one list"):
        _wild_fast.keep_at_most(0, 100)


def play(text: str, wild: tuple[int, ...], rules: DouDizhuRules = LAIZI):
    return wild_module.parse_play(text, wild, rules)


EIGHT = ranks("8")
FIVE_NINE = ranks("59")
EDGE_CASES = [  # (hand, wild, follow, rules)
    ("34568888", EIGHT, None, LAIZI),                        # four wild cards: a wild bomb, and any rank's four
    ("34568888", EIGHT, "3", LAIZI),
    ("34568888", EIGHT, "34567", LAIZI),
    ("33445588887", EIGHT, "334455", LAIZI),
    ("3456788889TJQKA", EIGHT, None, LAIZI),                 # long chains with every substitution
    ("3456788889TJQKA", EIGHT, "34567", LAIZI),
    ("5599KK", FIVE_NINE, None, TIANDI),                     # two wild ranks
    ("55559999BR", FIVE_NINE, None, TIANDI),
    ("55559999BR", FIVE_NINE, "5555", TIANDI),               # two wild bombs, the lower to beat
    ("59KKKQQQ3", FIVE_NINE, None, TIANDI),
    ("59KKKQQQ3", FIVE_NINE, "333444", TIANDI),
    ("555999JJJQQ", FIVE_NINE, "33344456", TIANDI),
    ("BR8", EIGHT, None, LAIZI),                             # jokers never substitute, nor are substituted
    ("BR8", EIGHT, "2", LAIZI),
    ("B88", EIGHT, "A", LAIZI),
    ("R8888", EIGHT, "BR", LAIZI),                           # the rocket: nothing beats it
    ("KKK8QQQQ33", EIGHT, "5558=5555", LAIZI),               # follow a soft bomb
    ("KKK8QQQQ33", EIGHT, "3333", LAIZI),                    # a hard bomb
    ("KKK8888QQQQ", EIGHT, "8888", LAIZI),                   # a wild bomb (wild 8: no higher one here)
    ("KKKKAAAA2222BR", ranks("A"), "AAAA", LAIZI),
    ("33334444", (), None, DouDizhuRules(laizi=True, **KICKERS)),      # no wild rank at all
    ("44448888", EIGHT, None, DouDizhuRules(laizi=True, **KICKERS)),   # a four with another four as pairs
    ("44448888", EIGHT, "33334455", DouDizhuRules(laizi=True, **KICKERS)),
    ("4448888K", EIGHT, "3333", DouDizhuRules(laizi=True, **KICKERS)),
    ("KKK834", EIGHT, "QQQQ34", LAIZI),                      # four+two with a substituted four
    ("KKK834", EIGHT, None, DouDizhuRules(laizi=True, no_four_with_two=True)),
    ("3334448", EIGHT, "333444", LAIZI),                     # planes, with kickers
    ("33344455588BR", EIGHT, "3334445566", LAIZI),
    ("33344455588BR", EIGHT, "33344456", DouDizhuRules(laizi=True, rocket_as_kickers=True)),
    ("", EIGHT, None, LAIZI),                                # no cards
    ("", EIGHT, "3", LAIZI),
    ("8", EIGHT, "3", LAIZI),
]


@pytest.mark.parametrize(("hand", "wild", "follow", "rules"), EDGE_CASES)
def test_edge_cases(hand, wild, follow, rules):
    counts = parse_cards(hand)
    follow_move = play(follow, wild, rules) if follow else None
    got = same(counts, follow_move, wild, rules)
    same(tuple(counts), follow_move, list(wild), rules)
    same(counts, PASS, wild, rules)
    if follow_move is not None:
        assert got[0] is PASS
        assert all(move.beats(follow_move) for move in got[1:])


def outcome(function, hand, follow, wild, rules):
    try:
        return function(hand, follow, wild, rules)
    except Exception as error:
        return type(error), str(error)


@pytest.mark.parametrize(("hand", "wild", "follow"), [
    (bytes([1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1]), EIGHT, None),   # a sequence that is not a list or tuple
    ([5] + [0] * 14, EIGHT, None),                                         # more cards of a rank than a deck holds
    ([0] * 13 + [2, 1], EIGHT, None),                                      # two small jokers
    ([1, 1, 1], EIGHT, None),                                              # too short
    ([1] * 14 + [-1], EIGHT, None),                                        # negative
    ([1] * 14 + [2**70], EIGHT, None),                                     # huge
    ([1] * 14 + [1.0], EIGHT, None),                                       # not an int
    ([True] * 15, EIGHT, None),                                            # bools are ints
    ([1] * 15, ranks("345"), None),                                        # three wild ranks
    ([1] * 15, (5, 5), None),                                              # a rank twice
    ([1] * 15, (13,), None),                                               # a joker
    ([1] * 15, (-1,), None),
    ([1] * 15, {5}, None),                                                 # not a list or tuple
    ([1] * 15, "8", None),
    ([1] * 15, (True,), None),
    ([1] * 15, EIGHT, "3"),                                                # a follow that is not a Move
])
def test_input_the_reference_handles(hand, wild, follow):
    """Input outside the compiled path's domain gives exactly the reference's result or exception."""
    assert outcome(compiled, hand, follow, wild, LAIZI) == outcome(reference, hand, follow, wild, LAIZI)
    assert outcome(compiled, [1] * 15, None, EIGHT, None) == outcome(reference, [1] * 15, None, EIGHT, None)


def play_game(rules: DouDizhuRules, seed: int) -> tuple[list, dict]:
    state = GAME.new_state(seed, rules)
    rng = random.Random(seed)
    legals = []
    while not state.is_terminal():
        legals.append(state.legal_actions())
        state.apply(legals[-1][rng.randrange(len(legals[-1]))], seat=state.current_player)
        legals.append(state.clone().legal_actions())
    return legals, state.to_record()


@pytest.mark.parametrize("rules", [LAIZI, DouDizhuRules(laizi=True, wild_ranks=2, mode="full")], ids=repr)
def test_games_through_the_state(rules, monkeypatch):
    """Seeded random games with the state's generator compiled, then reference: identical lists and records."""
    for seed in range(8):
        monkeypatch.setattr(wild_module, "legal_moves", compiled)
        fast = play_game(rules, seed)
        monkeypatch.setattr(wild_module, "legal_moves", reference)
        assert fast == play_game(rules, seed), seed


@pytest.mark.parametrize("rules", [LAIZI, TIANDI], ids=repr)
def test_lists_after_the_substituting_plays_are_forgotten(rules):
    """Positions met before, then forgotten (``moves.forget_substituted``): the compiled lists hold the reference's
    new objects, not the forgotten ones its hash table, blocks or chain lists held."""
    positions = []
    for seed in range(40):
        state = GAME.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            positions.append((tuple(state.hands[state.current_player]), state.follow, state.wild))
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    before = [same(*position, rules) for position in positions]
    moves.forget_substituted(limit=0)
    after = [same(*position, rules) for position in positions]
    replaced = sum(old is not new for was, now in zip(before, after, strict=True)
                   for old, new in zip(was, now, strict=True))
    assert replaced > 1000 and all(old.key == new.key for was, now in zip(before, after, strict=True)
                                   for old, new in zip(was, now, strict=True))


def test_the_public_name_is_the_path_paiju_native_chose():
    assert wild_module.legal_moves is (reference if native._SETTING == "0" else compiled)


def test_mirrored_constants_equal_the_python_ones():
    expected = {
        "NUM_RANKS": cards.NUM_RANKS, "TWO": cards.TWO, "SMALL_JOKER": cards.SMALL_JOKER,
        "BIG_JOKER": cards.BIG_JOKER, "TOP_CHAIN": moves.HIGHEST_CHAIN_RANK,
        **{("PASS_CATEGORY" if category is Category.PASS else category.name): category.value
           for category in Category},
        "SOFT": moves.SOFT, "HARD": moves.HARD, "WILD": moves.WILD,
        "CHAIN_MIN": [moves.CHAIN_SHAPES[Category(Category.SOLO_CHAIN + kind)][1] for kind in range(3)],
        "CHAIN_MAX": [moves.CHAIN_SHAPES[Category(Category.SOLO_CHAIN + kind)][2] for kind in range(3)],
        "PLANE_SOLOS_MOST": moves.PLANE_KICKER_SHAPES[Category.PLANE_SOLOS][1],
        "PLANE_PAIRS_MOST": moves.PLANE_KICKER_SHAPES[Category.PLANE_PAIRS][1],
    }
    assert _wild_fast.mirrored_constants() == expected
