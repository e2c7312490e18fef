"""癞子 legal plays: the engine (``wild.legal_moves``) against the brute-force reference (``wild_reference``).

The reference is first checked on its own: its classifier against the classic one over every combination, its
fast enumeration against the literal definition on small hands. Then the spec's examples, and seeded random
positions in both modes with one and two wild ranks: the same plays, and each play's ``stands_for`` a valid
substitution that makes it (the smallest by ``cards.pack``).
"""

import random

import pytest

from paiju.games.doudizhu import RANKS, Category, DouDizhuRules, Move, format_cards, interpretations, parse_cards
from paiju.games.doudizhu import wild as engine
from paiju.games.doudizhu.cards import FULL_DECK, RANK_INDEX, pack, unpack
from paiju.games.doudizhu.movegen import legal_moves as classic_legal_moves
from paiju.games.doudizhu.wild_reference import (
    HARD,
    SOFT,
    WILD,
    Key,
    combinations,
    legal_plays,
    literal_plays,
    play_key,
    readings,
)

ONE_WILD = DouDizhuRules(laizi=True)
TWO_WILD = DouDizhuRules(laizi=True, wild_ranks=2)
DECK = [rank for rank, copies in enumerate(FULL_DECK) for _ in range(copies)]
IMPLEMENTATIONS = list(dict.fromkeys([engine.legal_moves,
                                      getattr(engine, "reference_legal_moves", engine.legal_moves)]))
"""The engine's legal plays as used (compiled where built) and its pure-Python path."""


def key(move: Move) -> Key:
    return (move.packed, move.category, move.rank, move.length, move.tier)


def wild_of(letters: str) -> tuple[int, ...]:
    return tuple(sorted(RANK_INDEX[letter] for letter in letters))


def written(plays: dict[Key, tuple[int, ...]]) -> set[tuple[str, str, str, int, int]]:
    """Plays as (notation, category, rank letter, length, tier)."""
    found = set()
    for (packed, category, rank, length, tier), stands_for in plays.items():
        cards = format_cards(unpack(packed))
        notation = cards if pack(stands_for) == packed else f"{cards}={format_cards(stands_for)}"
        found.add((notation, Category(category).label, RANKS[rank] if rank >= 0 else "", length, tier))
    return found


def both(hand: str, wild: str, follow: str | None = None,
         rules: DouDizhuRules = ONE_WILD) -> set[tuple[str, str, str, int, int]]:
    """The plays of ``hand``, from the engine and from the reference, which must agree."""
    counts, ranks = parse_cards(hand), wild_of(wild)
    to_beat = None if follow is None else engine.parse_play(follow, ranks, rules)
    from_reference = written(legal_plays(counts, None if to_beat is None else key(to_beat), ranks, rules))
    for implementation in IMPLEMENTATIONS:
        moves = implementation(counts, to_beat, ranks, rules)
        from_engine = {(m.notation, m.category.label, RANKS[m.rank] if m.rank >= 0 else "", m.length, m.tier)
                       for m in moves}
        assert from_engine == from_reference
        assert len(moves) == len(from_engine)
    return from_reference


# -- the reference on its own -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [DouDizhuRules(), DouDizhuRules(rocket_as_kickers=True, no_four_with_two=True)],
                         ids=["standard", "variants"])
def test_reference_combinations_are_the_classic_plays(rules):
    """Every combination the reference lists, and only those, is a classic play, with the same readings.

    Not under ``bomb_as_kickers``: there the classic generator leaves out plane+solos whose kickers are four
    cards of a rank next to the plane (``3334445556667777``), which ``interpretations`` reads as plane+solos."""
    listed = {c.counts: c.readings for size in combinations(rules).values() for c in size}
    classic = {m.counts for m in classic_legal_moves(FULL_DECK, None, rules)}
    assert set(listed) == classic
    for counts, options in listed.items():
        assert sorted(r[:3] for r in options) == sorted(
            (m.category, m.rank, m.length) for m in interpretations(counts, rules))
    if rules == DouDizhuRules():
        assert len(listed) == 27_471


def test_reference_readings_name_the_main_part():
    (trio,) = readings(parse_cards("5559"), ONE_WILD)
    assert trio.category is Category.TRIO_SOLO and trio.main == tuple(parse_cards("555"))
    plane = {r.category: r for r in readings(parse_cards("333444555666"), ONE_WILD)}
    assert plane[Category.PLANE].main == tuple(parse_cards("333444555666"))
    assert Category.PLANE_SOLOS not in plane  # 666 next to 333444555 would lengthen the plane
    assert readings((5,) + (0,) * 14, ONE_WILD) == [] and readings((0,) * 13 + (2, 0), ONE_WILD) == []


@pytest.mark.parametrize("rules", [ONE_WILD, TWO_WILD], ids=["one-wild-rank", "two-wild-ranks"])
@pytest.mark.parametrize("following", [False, True], ids=["lead", "follow"])
def test_reference_enumerates_the_definition(rules, following):
    """``legal_plays`` (from E) equals ``literal_plays`` (every P times every substitution) on small hands."""
    rng = random.Random(11 + rules.wild_ranks + 2 * following)
    for _ in range(150):
        deck = rng.sample(DECK, len(DECK))
        size = rng.randint(1, 8)
        hand = counts_of(deck[:size])
        held = [r for r in deck[:size] if r <= 12] or [0]
        wild = tuple(sorted({held[0], *rng.sample(range(13), rules.wild_ranks - 1)}))
        if len(wild) < rules.wild_ranks:
            wild = tuple(sorted({*wild, (wild[0] + 1) % 13}))
        follow = None
        if following:
            follow = rng.choice(sorted(legal_plays(counts_of(deck[size + 1:size + 9]), None, wild, rules)))
        assert legal_plays(hand, follow, wild, rules) == literal_plays(hand, follow, wild, rules)


def counts_of(ranks: list[int]) -> list[int]:
    counts = [0] * 15
    for rank in ranks:
        counts[rank] += 1
    return counts


# -- the spec's examples, engine and reference --------------------------------------------------------------------


def test_three_fives_and_a_wild_eight_are_a_trio_with_a_kicker_and_a_soft_bomb():
    plays = both("5558", "8")
    assert ("5558", "trio+solo", "5", 1, HARD) in plays
    assert ("5558=5555", "bomb", "5", 1, SOFT) in plays
    assert ("558=555", "trio", "5", 1, HARD) in plays and ("58=55", "pair", "5", 1, HARD) in plays
    assert len(plays) == 8  # and the solos 5 and 8, the pair and the trio of fives


def test_three_wild_cards_and_a_five_are_a_trio_of_any_rank_with_the_five():
    plays = both("5888", "8")
    trios = {rank for notation, label, rank, _, _ in plays if label == "trio+solo" and notation.startswith("5888")}
    assert trios == set("3456789TJQKA2")
    assert ("5888=3335", "trio+solo", "3", 1, HARD) in plays and ("5888", "trio+solo", "8", 1, HARD) in plays
    assert ("5888=5558", "trio+solo", "5", 1, HARD) in plays  # the third 8 a kicker of its own rank
    assert ("5888=5555", "bomb", "5", 1, SOFT) in plays


def test_a_wild_card_never_stands_for_a_two_in_a_chain_nor_for_a_joker():
    chains = {p for p in both("8JQKA", "8") if p[1] == "solo chain"}
    assert chains == {("8JQKA=TJQKA", "solo chain", "T", 5, HARD)}
    assert both("B8", "8") == {("B", "solo", "B", 1, HARD), ("8", "solo", "8", 1, HARD)}
    assert {p[2] for p in both("888B", "8") if p[1] == "trio+solo"} == set("3456789TJQKA2")


def test_wild_cards_alone_stand_for_themselves():
    assert both("88", "8") == {("8", "solo", "8", 1, HARD), ("88", "pair", "8", 1, HARD)}
    assert ("8888", "bomb", "8", 1, WILD) in both("8888", "8")


def test_substituted_cards_stay_in_the_main_part():
    assert not {p for p in both("55589", "8") if p[0].startswith("55589")}  # 55599: the 8 would be a kicker 9
    plays = both("5589", "8")
    assert ("5589=5559", "trio+solo", "5", 1, HARD) in plays
    assert not {p for p in plays if p[0].startswith("5589") and p[2] == "9"}


def test_wild_bomb_beats_hard_beats_soft():
    assert ("3333", "bomb", "3", 1, HARD) in both("3333", "8", follow="AAA8=AAAA")
    assert ("8888", "bomb", "8", 1, WILD) in both("8888", "8", follow="2222")
    assert both("5558", "8", follow="3333") == {("", "pass", "", 0, HARD)}
    assert both("2222", "8", follow="8888") == {("", "pass", "", 0, HARD)}
    assert ("5558=5555", "bomb", "5", 1, SOFT) in both("5558", "8", follow="448=444")
    assert ("5558=5555", "bomb", "5", 1, SOFT) in both("5558", "8", follow="4448=4444")
    assert ("5558=5555", "bomb", "5", 1, SOFT) not in both("5558", "8", follow="6668=6666")


def test_two_wild_ranks():
    plays = both("5588", "58", rules=TWO_WILD)
    assert not {p for p in plays if p[0].startswith("5588")}  # four wild cards of two ranks: no combination
    assert {p for p in both("5558", "58", rules=TWO_WILD) if p[0].startswith("5558")} == {
        ("5558", "trio+solo", "5", 1, HARD)}  # all wild: they stand for themselves
    assert ("8888", "bomb", "8", 1, WILD) in both("8888", "58", follow="5555", rules=TWO_WILD)
    assert ("3588=3333", "bomb", "3", 1, SOFT) in both("3588", "58", rules=TWO_WILD)


# -- random positions ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "following", "positions"), [
    (ONE_WILD, False, 500), (TWO_WILD, False, 200), (ONE_WILD, True, 1000), (TWO_WILD, True, 300)],
    ids=["lead-one-wild-rank", "lead-two-wild-ranks", "follow-one-wild-rank", "follow-two-wild-ranks"])
def test_engine_matches_the_reference_on_random_positions(rules, following, positions):
    """Hands of 1-20 cards from seeded deals; the play to follow is one of another hand's leads."""
    rng = random.Random(2024 + rules.wild_ranks + 2 * following)
    differences = []
    for _ in range(positions):
        deck = rng.sample(DECK, len(DECK))
        size = rng.randint(1, 20)
        hand = counts_of(deck[:size])
        wild = tuple(sorted(rng.sample(range(13), rules.wild_ranks)))
        follow = None
        if following:
            follow = rng.choice(engine.legal_moves(counts_of(deck[size:size + rng.randint(1, 20)]), None, wild, rules))
        follow_key = None if follow is None else key(follow)
        expected = legal_plays(hand, follow_key, wild, rules)
        for implementation in IMPLEMENTATIONS:
            moves = implementation(hand, follow, wild, rules)
            if {key(m) for m in moves} != set(expected) or len(moves) != len(expected):
                differences.append((implementation.__module__, format_cards(hand), wild, follow))
                continue
            for move in moves[1:] if following else moves:
                stands_for = move.effective_counts
                assert play_key(move.counts, stands_for, follow_key, wild, rules) == key(move), move
                assert stands_for == expected[key(move)], move
                assert (move.stands_for == "") == (stands_for == move.counts), move
    assert differences == []
