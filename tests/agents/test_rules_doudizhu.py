"""The heuristic DouDizhu player ``rules``: specific decisions, bids, determinism and strength."""

import pytest

import paiju
from paiju.agents.random_agent import RandomAgent
from paiju.agents.rules import DouDizhuRulesAgent
from paiju.agents.rules.counting import can_beat, unseen_cards
from paiju.core.errors import AgentError
from paiju.core.match import play_game
from paiju.games.doudizhu import PASS, DouDizhuObservation, DouDizhuRules, legal_moves, parse_cards, parse_move
from paiju.games.doudizhu.cards import RANK_INDEX

GAME = paiju.load_game("doudizhu")
RULES = DouDizhuRules()


def observe(hand: str, *, seat: int = 0, cards_left: tuple[int, int, int] = (17, 17, 17), follow: str = "",
            follow_seat: int | None = None, phase: str = "play", landlord: int | None = 0) -> DouDizhuObservation:
    """A seat's view with ``hand``; ``follow`` (played by ``follow_seat``) is the only play so far."""
    counts = tuple(parse_cards(hand))
    left = list(cards_left)
    left[seat] = len(hand)
    move = parse_move(follow, RULES) if follow else None
    history = ((follow_seat, move),) if move is not None else ()
    return DouDizhuObservation(
        seat=seat, phase=phase, hand=counts, landlord=landlord, public=None if landlord is None else (0,) * 15,
        first_bidder=0, bids=(), history=history, cards_left=tuple(left), multiplier=1, follow=move,
        follow_seat=follow_seat if move is not None else None, rules=RULES)


def decide(observation: DouDizhuObservation, seed: int = 0):
    legal = legal_moves(observation.hand, observation.follow, RULES)
    action = DouDizhuRulesAgent(seed).act(observation, legal)
    assert action in legal
    return action


def test_leads_the_whole_hand_when_it_is_one_play():
    assert decide(observe("34567")).cards == "34567"
    assert decide(observe("33344")).cards == "33344"


def test_does_not_pass_when_it_could_finish():
    assert decide(observe("AA", seat=1, follow="55", follow_seat=0)).cards == "AA"


def test_finishes_even_over_its_partner():
    assert decide(observe("22", seat=2, follow="55", follow_seat=1)).cards == "22"


def test_leads_the_unbeatable_card_first_when_the_rest_then_goes_out():
    # Opponents hold three cards each: no bomb, and the big joker cannot be beaten.
    assert decide(observe("R33", cards_left=(3, 3, 3))).cards == "R"


def test_bombs_to_stop_a_landlord_with_one_card():
    view = observe("3589999", seat=1, cards_left=(1, 7, 17), follow="KK", follow_seat=0)
    assert decide(view).cards == "9999"


def test_bombs_to_stop_a_peasant_with_one_card():
    view = observe("3589999JQ", seat=0, cards_left=(9, 1, 17), follow="KK", follow_seat=1)
    assert decide(view).cards == "9999"


def test_does_not_bomb_a_harmless_play_early():
    view = observe("34578TJQ9999", seat=1, cards_left=(20, 12, 17), follow="KK", follow_seat=0)
    assert decide(view) is PASS


def test_does_not_overtake_a_partner_about_to_go_out():
    view = observe("34689J2B", seat=2, cards_left=(15, 1, 8), follow="A", follow_seat=1)
    assert decide(view) is PASS


def test_follows_a_landlord_with_the_cheapest_fitting_play():
    view = observe("3456799JJA", seat=1, cards_left=(18, 10, 17), follow="88", follow_seat=0)
    assert decide(view).cards == "99"


def test_does_not_break_a_pair_chain_to_follow_a_pair():
    view = observe("3456789JJQQKK", seat=1, cards_left=(18, 13, 17), follow="88", follow_seat=0)
    assert decide(view) is PASS


def test_blocks_with_its_highest_solo_before_a_landlord_with_one_card():
    view = observe("478K2", seat=2, cards_left=(1, 10, 5), follow="5", follow_seat=1)
    assert decide(view).cards == "2"


def test_feeds_a_partner_with_one_card_its_lowest_solo():
    view = observe("4TTJJQQKK", seat=1, cards_left=(12, 9, 1))
    assert decide(view).cards == "4"


def test_landlord_leads_no_solo_into_a_peasant_with_one_card():
    view = observe("38QQ", seat=0, cards_left=(4, 1, 10))
    assert decide(view).cards == "QQ"


def test_bids_three_with_rocket_and_two_bombs():
    view = observe("BR33334444679TJQK", phase="bid", landlord=None)
    assert DouDizhuRulesAgent(0).act(view, [0, 1, 2, 3]) == 3


def test_bids_nothing_with_a_junk_hand():
    view = observe("3345567899TTJQQKA", phase="bid", landlord=None)
    assert DouDizhuRulesAgent(0).act(view, [0, 1, 2, 3]) == 0


def test_bids_only_legal_values():
    view = observe("BR2222AAA3456789T", phase="bid", landlord=None)
    assert DouDizhuRulesAgent(0).act(view, [0, 3]) == 3
    junk = observe("3345567899TTJQQKA", phase="bid", landlord=None)
    assert DouDizhuRulesAgent(0).act(junk, [0, 2, 3]) == 0


def test_explain_scores_candidates_best_first_and_act_takes_the_best():
    view = observe("3456799JJA", seat=1, cards_left=(18, 10, 17), follow="88", follow_seat=0)
    legal = legal_moves(view.hand, view.follow, RULES)
    scored = DouDizhuRulesAgent(0).explain(view, legal)
    assert [s.score for s in scored] == sorted((s.score for s in scored), reverse=True)
    assert {s.action for s in scored} <= set(legal) and PASS in {s.action for s in scored}
    assert DouDizhuRulesAgent(0).act(view, legal) == scored[0].action


def test_refuses_to_act_once_the_game_is_over():
    with pytest.raises(AgentError, match="phase 'over'"):
        DouDizhuRulesAgent(0).act(observe("3", phase="over"), [PASS, PASS])


def test_same_seed_same_game():
    histories = []
    for _ in range(2):
        agents = [DouDizhuRulesAgent(seed) for seed in (1, 2, 3)]
        final = play_game(GAME, agents, seed=7, rules=DouDizhuRules(mode="full"))
        histories.append([(seat, str(action)) for seat, action in final.actions])
    assert histories[0] == histories[1]


@pytest.mark.parametrize("mode", ["research", "full"])
def test_self_play_finishes(mode):
    for seed in range(5):
        final = play_game(GAME, [DouDizhuRulesAgent(seed + i) for i in range(3)], seed=seed,
                          rules=DouDizhuRules(mode=mode))
        assert final.is_terminal()


def test_landlord_beats_random_peasants():
    deals = 200
    wins = sum(play_game(GAME, [DouDizhuRulesAgent(s), RandomAgent(s + 1), RandomAgent(s + 2)], seed=s).payoffs()[0] > 0
               for s in range(deals))
    assert wins > 0.8 * deals


def test_peasants_beat_a_random_landlord():
    deals = 100
    wins = sum(play_game(GAME, [RandomAgent(s), DouDizhuRulesAgent(s + 1), DouDizhuRulesAgent(s + 2)], seed=s)
               .payoffs()[0] < 0 for s in range(deals))
    assert wins > 0.8 * deals


def test_unseen_cards_are_the_deck_less_hand_and_plays():
    view = observe("3456", seat=1, follow="KK", follow_seat=0)
    unseen = unseen_cards(view)
    assert sum(unseen) == 54 - 4 - 2
    assert unseen[RANK_INDEX["3"]] == 3 and unseen[RANK_INDEX["K"]] == 2 and unseen[RANK_INDEX["R"]] == 1


@pytest.mark.parametrize(("pool", "play", "most_cards", "expected"), [
    ("2", "A", 1, True),
    ("2", "2", 1, False),
    ("R", "2", 1, True),
    ("BR", "2", 1, True),  # one card at a time: the small or big joker
    ("BR", "AA", 2, True),  # the rocket
    ("BR", "AA", 1, False),
    ("5555", "A", 4, True),  # a bomb
    ("5555", "A", 3, False),  # too few cards for a bomb
    ("5555", "6666", 4, False),
    ("KKKQ", "JJJ3", 4, True),
    ("KKK", "JJJ3", 4, False),  # no kicker left
    ("TJQKA", "9TJQK", 5, True),
    ("TJQKA", "9TJQK", 4, False),
    ("QQQKKK", "JJJQQQ", 6, True),
    ("QQQKKK55", "JJJQQQ44", 8, True),
])
def test_can_beat_from_the_unseen_pool(pool, play, most_cards, expected):
    assert can_beat(parse_cards(pool), parse_move(play, RULES), most_cards) is expected
