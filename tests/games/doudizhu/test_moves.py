"""Combination rules: every category, its comparisons, and the tricky cases named in the spec."""

import pytest

from paiju.core.errors import CardError, IllegalActionError
from paiju.games.doudizhu import Category, DouDizhuRules, interpretations, parse_cards, parse_move

STANDARD = DouDizhuRules()


def kinds(cards: str, rules: DouDizhuRules = STANDARD) -> list[tuple[str, str, int]]:
    return [(m.category.label, "3456789TJQKA2BR"[m.rank], m.length)
            for m in interpretations(tuple(parse_cards(cards)), rules)]


@pytest.mark.parametrize(("cards", "expected"), [
    ("3", ("solo", "3", 1)),
    ("R", ("solo", "R", 1)),
    ("22", ("pair", "2", 1)),
    ("BR", ("rocket", "B", 1)),
    ("777", ("trio", "7", 1)),
    ("7773", ("trio+solo", "7", 1)),
    ("777B", ("trio+solo", "7", 1)),
    ("77733", ("trio+pair", "7", 1)),
    ("34567", ("solo chain", "3", 5)),
    ("3456789TJQKA", ("solo chain", "3", 12)),
    ("334455", ("pair chain", "3", 3)),
    ("333444", ("plane", "3", 2)),
    ("33344456", ("plane+solos", "3", 2)),
    ("33344455", ("plane+solos", "3", 2)),
    ("3334445566", ("plane+pairs", "3", 2)),
    ("333345", ("four+two solos", "3", 1)),
    ("333355", ("four+two solos", "3", 1)),
    ("33335566", ("four+two pairs", "3", 1)),
    ("2222", ("bomb", "2", 1)),
])
def test_each_category_is_recognised(cards, expected):
    assert kinds(cards)[0] == expected


@pytest.mark.parametrize("cards", [
    "34",  # two different solos
    "3456",  # chain too short
    "JQKA2",  # the 2 never joins a chain
    "KA234",  # no wrap-around
    "3344",  # two pairs are no chain
    "33334444",  # four equal cards are not kicker pairs (bomb_as_kickers off)
    "3333BR",  # both jokers are not two kickers (rocket_as_kickers off)
    "333444BR",  # ... nor plane kickers
    "3334445555",  # plane + four equal cards as pairs
    "33344434",  # kickers of the plane's own ranks
])
def test_non_combinations_are_rejected(cards):
    assert kinds(cards) == []


def test_variants_are_options():
    assert kinds("3333BR", DouDizhuRules(rocket_as_kickers=True))[0][0] == "four+two solos"
    assert kinds("33334444", DouDizhuRules(bomb_as_kickers=True))[0][0] == "four+two pairs"
    assert kinds("333345", DouDizhuRules(no_four_with_two=True)) == []
    assert kinds("33335566", DouDizhuRules(no_four_with_two=True)) == []


def test_plane_kickers_may_share_a_rank():
    assert kinds("333444555777")[0] == ("plane+solos", "3", 3)  # a trio as three solo kickers
    assert kinds("33344455")[0] == ("plane+solos", "3", 2)  # a pair as two solo kickers
    # 333444555 + 666 would be kickers lengthening the plane: only the 4-trio plane remains.
    assert kinds("333444555666") == [("plane", "3", 4)]
    assert kinds("333444555999") == [("plane+solos", "3", 3)]


def test_kicker_trio_next_to_the_plane_is_not_allowed():
    # 555666777888 + 999 J: the 999 would lengthen the plane; both readings extend it.
    assert kinds("555666777888999J") == []


def test_plane_compares_by_its_main_part_not_by_a_kicker_trio():
    lead = parse_move("333444555777", STANDARD)
    assert lead.category is Category.PLANE_SOLOS and lead.rank == 0
    # 444555666 + 333: the main part (4) beats 3, although a kicker trio (JJJ in another reading) is higher.
    follow = parse_move("444555666JJJ", STANDARD, lead)
    assert follow.rank == 1
    assert follow.beats(lead)
    lower = parse_move("333444555TTT", STANDARD)
    higher_kicker = parse_move("333444555QQQ", STANDARD)
    assert not higher_kicker.beats(lower)


def test_comparisons():
    def beats(a: str, b: str) -> bool:
        return parse_move(a, STANDARD).beats(parse_move(b, STANDARD))

    assert beats("4", "3") and not beats("3", "4") and beats("R", "B") and beats("B", "2")
    assert beats("45678", "34567") and not beats("456789", "34567")  # chains: same length only
    assert beats("3333", "2") and beats("4444", "3333") and not beats("3333", "4444")
    assert beats("BR", "2222") and not beats("2222", "BR")
    assert beats("3333", "3456789TJQKA") and beats("3333", "33344455")
    assert not beats("44455", "3334")  # different categories
    assert beats("444555TJ", "33344456")
    assert not beats("4445556677", "33344456")  # plane+pairs does not follow plane+solos


def test_chains_may_break_a_bomb():
    hand = parse_cards("3333456789")
    from paiju.games.doudizhu import legal_moves
    plays = {m.cards for m in legal_moves(hand, None, STANDARD)}
    assert "34567" in plays and "3333" in plays and "3456789" in plays


def test_parse_move_errors_name_the_problem():
    with pytest.raises(IllegalActionError, match="not a DouDizhu combination"):
        parse_move("34", STANDARD)
    with pytest.raises(IllegalActionError, match="does not beat"):
        parse_move("33", STANDARD, parse_move("44", STANDARD))
    with pytest.raises(CardError, match="unknown card 'Z'"):
        parse_move("3Z", STANDARD)
    with pytest.raises(CardError, match="too many 3"):
        parse_move("33333", STANDARD)
    assert parse_move("pass", STANDARD).is_pass and parse_move("", STANDARD).is_pass


def test_moves_are_interned_and_survive_pickling():
    import pickle

    a = parse_move("33344", STANDARD)
    assert parse_move("43433", STANDARD) is a
    assert pickle.loads(pickle.dumps(a)) is a
