"""癞子 (wild-card) DouDizhu: plays with substitutions, bomb tiers, notation, bad input, deals and records."""

import json
import random

import pytest

from paiju.core.errors import IllegalActionError, PaijuError, RecordError
from paiju.games.doudizhu import DouDizhu, DouDizhuRules, legal_moves, parse_cards, parse_move
from paiju.games.doudizhu.cards import RANK_INDEX
from paiju.games.doudizhu.moves import HARD, SOFT, WILD, Category
from paiju.games.doudizhu.state import Deal
from paiju.games.doudizhu.wild import legal_moves as wild_moves
from paiju.games.doudizhu.wild import parse_play

LAIZI = DouDizhuRules(laizi=True)
TIANDI = DouDizhuRules(laizi=True, wild_ranks=2)
EIGHT = (RANK_INDEX["8"],)


def plays(hand: str, wild=EIGHT, rules=LAIZI, follow=None) -> dict[str, object]:
    follow_move = parse_play(follow, wild, rules) if follow else None
    return {m.notation: m for m in wild_moves(parse_cards(hand), follow_move, wild, rules)}


def test_the_same_cards_can_be_two_plays():
    found = plays("5558")
    assert found["5558"].category is Category.TRIO_SOLO and found["5558"].rank == RANK_INDEX["5"]
    soft = found["5558=5555"]
    assert soft.category is Category.BOMB and soft.tier == SOFT and soft.label == "soft bomb"
    assert soft.counts == tuple(parse_cards("5558")) and soft.effective_counts == tuple(parse_cards("5555"))


def test_wild_cards_may_make_the_whole_main_part():
    trios = {m.rank for m in plays("5888").values() if m.category is Category.TRIO_SOLO and m.size == 4}
    assert trios == set(range(13)), "5 8 8 8: a trio of any rank 3..2 with the solo 5"


def test_a_wild_card_never_stands_for_a_2_in_a_chain_nor_for_a_joker():
    chains = [m for m in plays("TJQKA8").values() if m.category is Category.SOLO_CHAIN and m.length == 6]
    assert [m.notation for m in chains] == ["8TJQKA=9TJQKA"]
    assert not any("B" in m.stands_for or "R" in m.stands_for for m in plays("3B8").values())


def test_wild_cards_alone_stand_for_their_own_rank():
    found = plays("8888")
    assert set(found) == {"8", "88", "888", "8888"}
    assert found["8888"].tier == WILD


def test_bomb_tiers_order():
    soft = parse_play("KKK8=KKKK", EIGHT, LAIZI)
    hard = parse_play("3333", EIGHT, LAIZI)
    wild = parse_play("8888", EIGHT, LAIZI)
    rocket = parse_play("BR", EIGHT, LAIZI)
    assert (soft.tier, hard.tier, wild.tier) == (SOFT, HARD, WILD)
    assert hard.beats(soft) and not soft.beats(hard) and wild.beats(hard) and rocket.beats(wild)
    assert parse_play("AAA8=AAAA", EIGHT, LAIZI).beats(soft) and not soft.beats(parse_play("3333", EIGHT, LAIZI))
    four_with_two = parse_play("KKK834=KKKK34", EIGHT, LAIZI)
    assert four_with_two.category is Category.FOUR_TWO_SOLOS and not four_with_two.is_bomb


def test_following_offers_each_reading_that_beats():
    found = plays("5558", follow="4443")
    assert set(found) == {"", "5558", "5558=5555"}
    assert set(plays("5558", follow="3333")) == {""}, "a soft bomb does not beat a hard one"


def test_two_wild_ranks():
    wild = (RANK_INDEX["5"], RANK_INDEX["9"])
    found = plays("5599", wild, TIANDI)
    assert "5599" not in found and not any(m.size == 4 for m in found.values()), \
        "four wild cards of two ranks alone are no combination"
    high, low = parse_play("9999", wild, TIANDI), parse_play("5555", wild, TIANDI)
    assert high.tier == low.tier == WILD and high.beats(low) and not low.beats(high)
    assert plays("KK59", wild, TIANDI)["59KK=KKKK"].tier == SOFT


def test_hands_without_wild_cards_play_the_classic_game():
    rng = random.Random(3)
    for _ in range(30):
        deck = [r for r in range(13) for _ in range(4) if r != EIGHT[0]] + [13, 14]
        hand = [0] * 15
        for rank in rng.sample(deck, rng.randint(1, 17)):
            hand[rank] += 1
        classic = legal_moves(hand, None, DouDizhuRules())
        assert sorted(classic, key=id) == sorted(wild_moves(hand, None, EIGHT, LAIZI), key=id)


@pytest.mark.parametrize("rules", [LAIZI, TIANDI])
def test_every_legal_play_reads_back_from_its_notation(rules):
    game = DouDizhu()
    for seed in range(4):
        state = game.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert len({(m.packed, m.category, m.rank, m.length) for m in legal}) == len(legal), "each play once"
            for move in legal:
                assert state.action_from_json(game.action_to_json(move)) is move
            state.apply(rng.choice(legal))


@pytest.mark.parametrize(("text", "problem"), [
    ("3456=345B", "never stands for a joker"),
    ("TJQK8=TJQK2", "never stands for a 2 in a chain"),
    ("555K=5555", "K is not a wild card"),
    ("5558=5559", "kicker stands for its own rank"),
    ("8888=5555", "stand for their own rank"),
    ("558=5555", "3 cards cannot stand for 4"),
    ("5X", "unknown card"),
])
def test_impossible_substitutions_are_refused_naming_the_card_and_rule(text, problem):
    with pytest.raises(PaijuError, match=problem):
        parse_play(text, EIGHT, LAIZI)


def test_substitutions_exist_only_under_laizi_rules():
    with pytest.raises(IllegalActionError, match="only under the 癞子 rules"):
        parse_move("5558=5555", DouDizhuRules())


def _state_with_hand(hand: str, rules=LAIZI):
    """A research-mode 癞子 state (wild rank 8) whose landlord holds ``hand`` among its 20 cards."""
    rest = [r for r in range(15) for _ in range((4 if r < 13 else 1) - parse_cards(hand)[r])]
    random.Random(0).shuffle(rest)
    landlord = [r for r, n in enumerate(parse_cards(hand)) for _ in range(n)] + rest[:20 - len(hand)]
    rest = rest[20 - len(hand):]

    def counts(ranks):
        return tuple(sum(1 for r in ranks if r == rank) for rank in range(15))

    deal = Deal((counts(landlord[:17]), counts(rest[:17]), counts(rest[17:])), counts(landlord[17:]), 0, EIGHT)
    return DouDizhu().from_deal(deal, rules)


def test_a_refused_play_leaves_the_state_as_it_was():
    state = _state_with_hand("5558KKK")
    before = json.dumps(state.to_record())
    for text in ("555K=5555", "KKK8=KKKK2", "5558=5559"):
        with pytest.raises(IllegalActionError):
            state.apply(state.action_from_json(text))
    assert json.dumps(state.to_record()) == before
    state.apply(state.action_from_json("5558=5555"))
    assert state.history[-1][1].tier == SOFT


def test_bomb_multipliers_by_tier():
    rules = DouDizhuRules(laizi=True, bomb_multipliers=(2, 4, 8))
    state = _state_with_hand("5558KKKK", rules)
    state.apply(state.action_from_json("5558=5555"))
    assert state.multiplier == 2
    state.apply(state.legal_actions()[0], seat=1)  # pass
    state.apply(state.legal_actions()[0], seat=2)
    state.apply(state.action_from_json("KKKK"))
    assert state.multiplier == 8


def test_the_wild_rank_is_seeded_and_shown_once_there_is_a_landlord():
    game = DouDizhu()
    rules = DouDizhuRules(laizi=True, mode="full")
    assert game.new_state(5, rules).wild == game.new_state(5, rules).wild
    assert len({game.new_state(seed, rules).wild for seed in range(40)}) > 5
    state = game.new_state(5, rules)
    assert state.observation(state.current_player).wild == ()
    assert state.observation_json(state.current_player)["wild"] == ""
    while state.phase == "bid":
        state.apply(3)
    assert state.observation(0).wild == state.wild and len(state.wild) == 1
    assert state.observation_json(0)["wild"] == "3456789TJQKA2"[state.wild[0]]
    determinized = game.determinize(game.new_state(5, rules).observation(0), random.Random(1))
    assert len(determinized.wild) == 1


def test_records_say_which_ruleset_they_need():
    game = DouDizhu()
    state = game.new_state(1, LAIZI)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.to_record()))
    assert record["deals"][0]["wild"] and game.from_record(record).payoffs() == state.payoffs()
    classic = dict(record, rules={"mode": "research"})
    with pytest.raises(RecordError, match="needs the 癞子 rules"):
        game.from_record(classic)
    plain = game.new_state(1, DouDizhuRules()).to_record()
    with pytest.raises(RecordError, match="classic game"):
        game.from_record(dict(plain, rules={"mode": "research", "laizi": True}))
    assert "laizi" not in plain["rules"], "the classic game's records are as they always were"


def test_substituting_plays_are_forgotten_now_and_then_and_stale_ones_still_play(monkeypatch):
    from paiju.games.doudizhu import moves

    monkeypatch.setattr(moves, "SUBSTITUTED_LIMIT", 50)
    game = DouDizhu()
    for seed in range(6):
        state = game.new_state(seed, LAIZI)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert len(moves._SUBSTITUTED) <= 50 + len(legal)
            substituted = [m for m in legal if m.stands_for]
            move = rng.choice(substituted or legal)
            if move.stands_for:  # forget it, then play the object met before: the same play, found by its key
                moves.forget_substituted(limit=0)
                state._legal = None
                assert move not in state.legal_actions()
            state.apply(move)
            assert state.history[-1][1].key == move.key
        assert game.from_record(json.loads(json.dumps(state.to_record()))).payoffs() == state.payoffs()


def test_the_tables_that_intern_plays_have_keys_the_collector_need_not_track():
    """Keys of plain values: a key holding a ``Category`` stays tracked, and the collector then walks every
    interned play's keys in each full collection (random 癞子 games spend a third of their time there)."""
    import gc

    from paiju.games.doudizhu import moves, wild

    plays("3358TTJQ")
    plays("55589", follow="3334")
    gc.collect()
    tables = {"wild._MOVES": wild._MOVES, "moves._SUBSTITUTED": moves._SUBSTITUTED, "moves._INTERNED": moves._INTERNED}
    for name, table in tables.items():
        assert table, name
        assert not any(map(gc.is_tracked, table)), name
