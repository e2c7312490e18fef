"""Game flow: leading and following, trick winners, collected cards, refusals, records, rotation, determinize."""

import itertools
import json
import random
from collections import Counter

import pytest

from paiju.core.errors import CardError, IllegalActionError, PaijuError, RecordError
from paiju.core.registry import register_game
from paiju.games.gongzhu import CARD_NAMES, Gongzhu, GongzhuDeal, GongzhuRules
from paiju.games.gongzhu.cards import SUIT_MASKS, mask_of
from paiju.games.gongzhu.sampling import sample_hidden_hands

GAME = register_game(Gongzhu())
BY_SUIT = [CARD_NAMES[13 * seat: 13 * seat + 13] for seat in range(4)]
"""Seat 0 holds every spade, seat 1 every heart, seat 2 every diamond, seat 3 every club."""
ROUND_ROBIN = [CARD_NAMES[seat::4] for seat in range(4)]
"""Card i of the deck to seat i % 4: every seat holds every suit."""


def play(state, *cards: str) -> None:
    for card in cards:
        state.apply(card)


def test_a_new_game_deals_13_cards_each_and_seat_0_leads_any_card():
    state = GAME.new_state(3)
    assert state.phase == "play" and state.current_player == 0
    hands = [state.hand(seat) for seat in range(4)]
    assert [len(hand) for hand in hands] == [13] * 4 and len(set().union(*hands)) == 52
    assert state.legal_actions() == list(hands[0])


def test_the_first_leader_is_a_rule():
    state = GAME.new_state(3, GongzhuRules(first_leader=2))
    assert state.current_player == 2 and state.legal_actions() == list(state.hand(2))
    assert GAME.rules_from_json({"first_leader": 3}) == GongzhuRules(3)
    with pytest.raises(PaijuError, match="unknown Gongzhu rule option 'passing'"):
        GAME.rules_from_json({"passing": 1})
    with pytest.raises(PaijuError, match="must be an integer"):
        GAME.rules_from_json({"first_leader": "2"})
    with pytest.raises(PaijuError, match="seat 0-3, got 4"):
        GongzhuRules(first_leader=4)


def test_same_seed_same_deal_other_seed_other_deal():
    assert GAME.new_state(8).deal == GAME.new_state(8).deal != GAME.new_state(9).deal
    assert GAME.new_state(8).deal == GongzhuDeal.draw(random.Random(8))


def test_followers_must_follow_the_led_suit_when_they_can():
    state = GAME.from_deal(ROUND_ROBIN)
    play(state, "S2")
    assert state.legal_actions() == ["S3", "S7", "SJ"]
    before = state.to_record()
    with pytest.raises(IllegalActionError, match=r"seat 1 must follow spades \(led by seat 0 with S2\) and holds "
                                                 r"S3 S7 SJ; H2 is not allowed"):
        state.apply("H2")
    assert state.to_record() == before and state.current_player == 1


def test_a_void_seat_may_play_any_card():
    state = GAME.from_deal(BY_SUIT)
    play(state, "S2")
    assert state.legal_actions() == list(BY_SUIT[1])


def test_the_highest_card_of_the_led_suit_wins_and_leads_next():
    state = GAME.from_deal(ROUND_ROBIN)
    play(state, "S2", "S3", "S4", "S5")
    assert state.winners == [3] and state.current_player == 3 and state.leader == 3
    state = GAME.from_deal(BY_SUIT)
    play(state, "S2", "HA", "DA", "CA")  # aces of other suits do not beat the led two
    assert state.winners == [0] and state.current_player == 0
    assert state.observation(2).taken == (("HA",), (), (), ())


def test_the_winner_collects_the_scoring_cards_of_the_trick():
    state = GAME.from_deal(ROUND_ROBIN)
    play(state, "S2", "S3", "S4", "S5", "H4", "H5", "H2", "H3")  # seat 3 leads H4, seat 0 wins with H5
    assert state.winners == [3, 0]
    assert state.observation(2).taken == (("H2", "H3", "H4", "H5"), (), (), ())
    assert state.scores() == [-10, 0, 0, 0]


def test_a_whole_game_all_hearts_pig_sheep_and_transformer():
    state = GAME.from_deal(BY_SUIT)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    assert state.winners == [0] * 13
    assert state.scores() == [400, 0, 0, 0]
    assert state.payoffs() == [400.0, -400.0, 400.0, -400.0]
    result = state.result()
    assert result["team_scores"] == [400, 0] and result["scores"] == [400, 0, 0, 0]
    assert len(result["taken"][0]) == 16 and result["taken"][1:] == [[], [], []]


@pytest.mark.parametrize(("seat", "action", "message"), [
    (1, "S2", "seat 1 played out of turn: seat 0 is to play"),
    (None, "H3", r"seat 0 does not hold H3 \(hand: S2 S6 S10 SA H5"),
    (None, "S1", "unknown card 'S1'"),
    (None, 42, "a card is a string"),
    (None, None, "a card is a string"),
    (None, ["S2"], "a card is a string"),
])
def test_refusals_name_the_problem_and_change_nothing(seat, action, message):
    state = GAME.from_deal(ROUND_ROBIN)
    before = state.to_record()
    with pytest.raises(IllegalActionError, match=message):
        state.apply(action, seat=seat)
    assert state.to_record() == before and state.invariant_errors() == []


def test_card_names_are_read_in_any_case():
    state = GAME.from_deal(ROUND_ROBIN)
    state.apply("s2")
    assert state.to_record()["actions"] == [[0, "S2"]]
    assert state.action_from_json("sj") == "SJ"


def test_a_finished_game_refuses_every_card():
    state = GAME.from_deal(BY_SUIT)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.current_player is None and state.phase == "over" and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("S2")


def test_payoffs_only_at_the_end():
    with pytest.raises(ValueError, match="only once the game is over"):
        GAME.new_state(1).payoffs()


def test_observation_is_the_protocol_object():
    state = GAME.from_deal(ROUND_ROBIN)
    play(state, "S2", "S3", "S4", "S5", "H4", "H5")
    observation = state.observation(1)
    assert observation.to_json() == {
        "hand": ["S7", "SJ", "H2", "H6", "H10", "HA", "D5", "D9", "DK", "C4", "C8", "CQ"],
        "leader": 3, "trick": [[3, "H4"], [0, "H5"]],
        "history": [[0, "S2"], [1, "S3"], [2, "S4"], [3, "S5"]], "taken": [[], [], [], []]}
    assert observation.phase == "play" and observation.led_suit == "H"
    assert observation.cards_left == (11, 12, 12, 11)
    assert observation.played == {"S2", "S3", "S4", "S5", "H4", "H5"}
    assert len(observation.unseen) == 52 - 12 - 6 and not set(observation.unseen) & set(observation.hand)


def test_voids_are_the_suits_a_seat_did_not_follow():
    state = GAME.from_deal(BY_SUIT)
    play(state, "S2", "H2", "D2", "C2", "S3", "H3")
    assert state.observation(0).voids == ({*()}, {"S"}, {"S"}, {"S"})
    round_robin = GAME.from_deal(ROUND_ROBIN)
    play(round_robin, "S2", "S3")
    assert round_robin.observation(3).voids == (frozenset(),) * 4


def test_clone_is_independent():
    state = GAME.new_state(4)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.actions == [] and state.hands == copy.deal.masks()
    assert copy.to_record() != state.to_record()


def test_record_round_trip_and_the_first_bad_action_is_named():
    state = GAME.new_state(21)
    rng = random.Random(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    record = json.loads(json.dumps(state.to_record()))
    assert record["game"] == "gongzhu" and record["seed"] == 21 and len(record["actions"]) == 52
    assert GAME.from_record(record).to_record() == record
    broken = json.loads(json.dumps(record))
    broken["actions"][5] = [broken["actions"][5][0], broken["actions"][0][1]]
    with pytest.raises(RecordError, match=r"action 5 \(.*\) does not replay: seat \d does not hold"):
        GAME.from_record(broken)
    broken["actions"][5] = [(record["actions"][5][0] + 1) % 4, record["actions"][5][1]]
    with pytest.raises(RecordError, match=r"action 5 .* out of turn"):
        GAME.from_record(broken)
    wrong = {**record, "result": {**record["result"], "payoffs": [0.0] * 4}}
    with pytest.raises(RecordError, match="disagrees with the replay"):
        GAME.from_record(wrong)


@pytest.mark.parametrize(("change", "message"), [
    ({"game": "doudizhu"}, "not a Gongzhu record"),
    ({"deals": []}, "exactly one deal"),
    ({"deals": [{"hands": [["S2"]] * 4}]}, "four hands of 13 cards"),
    ({"rules": {"first_leader": 9}}, "seat 0-3"),
    ({"rotation": 5}, "rotation must be"),
])
def test_bad_record_headers_are_named(change, message):
    record = {**GAME.new_state(2).to_record(), **change}
    with pytest.raises(RecordError, match=message):
        GAME.from_record(record)


def test_deals_are_checked():
    with pytest.raises(CardError, match="SQ is dealt to both seat 1 and seat 2"):
        GAME.from_deal([ROUND_ROBIN[0], ("SQ", *ROUND_ROBIN[1][1:]), ROUND_ROBIN[2], ROUND_ROBIN[3]])
    with pytest.raises(CardError, match="unknown card 'S1'"):
        GongzhuDeal.from_hands([("S1", *ROUND_ROBIN[0][1:]), *ROUND_ROBIN[1:]])
    assert GongzhuDeal.from_hands([[card.lower() for card in reversed(h)] for h in BY_SUIT]).hands == tuple(BY_SUIT)


def test_a_rotated_deal_moves_every_hand_on():
    deal = GongzhuDeal.draw(random.Random(5))
    assert deal.rotated(1).hands == (deal.hands[3], deal.hands[0], deal.hands[1], deal.hands[2])
    assert deal.rotated(4) == deal.rotated(0) == deal and deal.rotated(1).rotated(3) == deal


def test_a_rotated_game_is_the_same_game_with_seats_relabelled():
    plain = GAME.new_state(6, GongzhuRules(first_leader=3))
    rotated = GAME.rotated_state(6, GongzhuRules(first_leader=3), 1)
    assert rotated.rules.first_leader == 0 and rotated.rotation == 1
    for state in (plain, rotated):
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
    assert [[(seat + 1) % 4, card] for seat, card in plain.to_record()["actions"]] == rotated.to_record()["actions"]
    assert rotated.payoffs() == plain.payoffs()[3:] + plain.payoffs()[:3]
    record = rotated.to_record()
    assert GAME.from_record(record).to_record() == record and record["rotation"] == 1


def test_determinize_gives_the_hidden_cards_consistently_with_the_voids():
    state = GAME.from_deal(BY_SUIT)
    play(state, "S2", "H2", "D2", "C2", "S3")
    observation = state.observation(1)
    for seed in range(20):
        sampled = GAME.determinize(observation, random.Random(seed))
        assert sampled.observation(1) == observation and sampled.invariant_errors() == []
        # seats 2 and 3 showed void in spades, so seat 0 holds every unseen spade
        assert sampled.hand(0) == tuple(BY_SUIT[0][2:])
        assert not any(card.startswith("S") for seat in (2, 3) for card in sampled.hand(seat))


def test_determinize_is_reproducible_and_varies_with_the_generator():
    observation = GAME.new_state(3).observation(0)
    first = GAME.determinize(observation, random.Random(1))
    assert first.deal == GAME.determinize(observation, random.Random(1)).deal
    assert first.deal != GAME.determinize(observation, random.Random(2)).deal
    assert first.hand(0) == observation.hand


def test_hidden_hands_are_drawn_uniformly_among_consistent_deals():
    cards = ["S2", "S3", "H2", "H3", "D2", "C2"]
    forbidden = [SUIT_MASKS[0], SUIT_MASKS[1], 0]  # hand 0 holds no spade, hand 1 no heart
    consistent = []
    for order in itertools.permutations(cards):
        hands = (frozenset(order[:2]), frozenset(order[2:4]), frozenset(order[4:]))
        if all(not mask_of(hand) & banned for hand, banned in zip(hands, forbidden, strict=True)):
            consistent.append(hands)
    consistent = set(consistent)
    rng = random.Random(0)
    draws = 200 * len(consistent)
    seen = Counter()
    for _ in range(draws):
        hands = sample_hidden_hands(mask_of(cards), [2, 2, 2], forbidden, rng)
        seen[tuple(frozenset(CARD_NAMES[c] for c in range(52) if hand >> c & 1) for hand in hands)] += 1
    assert set(seen) == consistent
    assert max(seen.values()) < 200 + 5 * 14 and min(seen.values()) > 200 - 5 * 14  # 5 standard deviations


def test_hidden_hands_with_no_consistent_deal_are_refused():
    with pytest.raises(PaijuError, match="respects the known voids"):
        sample_hidden_hands(mask_of(["S2", "S3", "H2"]), [2, 1], [SUIT_MASKS[0], 0], random.Random(0))
    with pytest.raises(PaijuError, match="cannot deal 3 unseen cards"):
        sample_hidden_hands(mask_of(["S2", "S3", "H2"]), [2, 2], [0, 0], random.Random(0))
