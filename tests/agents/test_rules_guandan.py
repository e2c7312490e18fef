"""The heuristic GuanDan player ``rules``: its plan, specific decisions, tribute and back, determinism
and strength."""


import pytest

from paiju.agents.random_agent import RandomAgent
from paiju.agents.rules.guandan import GuanDanRulesAgent
from paiju.agents.rules.guandan_plan import HandPlanner, signature
from paiju.core.errors import AgentError, PaijuError
from paiju.core.match import play_game
from paiju.core.registry import load_game, register_game
from paiju.games.guandan import PASS, ComboType, GuanDan, legal_plays, pack, parse_cards, parse_level
from paiju.games.guandan.cards import parse_card
from paiju.games.guandan.combos import play_from_platform
from paiju.games.guandan.observation import GuanDanObservation
from paiju.games.guandan.rules import GuanDanRules
from paiju.games.guandan.tribute import Gift

TWO = parse_level("2")


def guandan() -> GuanDan:
    """The registered GuanDan game (registered here when the package does not yet)."""
    try:
        return load_game("guandan")
    except PaijuError:
        return register_game(GuanDan())


GAME = guandan()


def observe(hand: str, *, seat: int = 0, level: int = TWO, greater=None, cards_left=(27, 27, 27, 27),
            phase: str = "play", finished=()) -> GuanDanObservation:
    """Seat ``seat``'s view holding ``hand``; ``greater`` = (seat, play) is the only play so far."""
    left = list(cards_left)
    left[seat] = len(hand.split())
    history = () if greater is None else (greater,)
    return GuanDanObservation(
        seat=seat, phase=phase, hand=pack(parse_cards(hand)), level=level, self_level=level, oppo_level=level,
        round_number=1, history=history, greater=greater, cards_left=tuple(left), finished=tuple(finished),
        tribute=(), back=(), anti_tribute=(), rules=GuanDanRules(), to_move=seat, previous_order=(),
        a_failures=(0, 0), team_scores=(0, 0))


def play(kind: str, rank: str, cards: str, level: int = TWO):
    return play_from_platform([kind, rank, cards.split()], None, level)


def decide(view: GuanDanObservation, seed: int = 0):
    legal = legal_plays(view.hand, view.level, None if view.greater is None else view.greater[1])
    action = GuanDanRulesAgent(seed).act(view, legal)
    assert action in legal
    return action


def described(action) -> str:
    return " ".join(action.to_platform()[2]) if action != PASS else "PASS"


# -- the plan ------------------------------------------------------------------------------------------


def units(hand: str, level: str = "2") -> list[tuple[str, str]]:
    plan = HandPlanner(parse_level(level)).plan(pack(parse_cards(hand)))
    return sorted((unit.type.name, "".join("23456789TJQKA"[r] * n for r, n in enumerate(unit.naturals)))
                  for unit in plan.units)


def test_plan_prefers_two_straights_to_five_pairs():
    assert units("S3 D3 C4 D4 S5 D5 S6 D6 S7 C7") == [("STRAIGHT", "34567"), ("STRAIGHT", "34567")]


def test_plan_makes_a_bomb_of_trips_with_a_wild_card():
    assert ("BOMB", "999") in units("H2 S9 D9 C9 S4 DK")


def test_plan_fills_a_straight_gap_with_a_wild_card():
    assert units("H2 S3 D4 C6 S7 CK") == [("SINGLE", "K"), ("STRAIGHT", "3467")]


def test_plan_keeps_the_straight_flush_and_the_joker_bomb():
    found = units("S3 S4 S5 S6 S7 C9 C9 D9 D9 DK DK SB SB HR HR")
    assert found == [("BOMB", "9999"), ("JOKER_BOMB", ""), ("PAIR", "KK"), ("STRAIGHT_FLUSH", "34567")]


def test_plan_units_are_legal_plays():
    hand = pack(parse_cards("H2 S3 D4 C6 S7 S9 D9 C9 ST DT CJ SQ HA SB HR"))
    level = TWO
    plan = HandPlanner(level).plan(hand)
    signatures = {signature(p, level) for p in legal_plays(hand, level)}
    assert all(unit.signature in signatures for unit in plan.units)
    assert sum(unit.size for unit in plan.units) == 15


# -- playing ---------------------------------------------------------------------------------------------


def test_leads_the_whole_hand_when_it_is_one_play():
    assert described(decide(observe("S3 D4 C5 S6 H7"))) == "S3 D4 C5 S6 H7"
    assert described(decide(observe("S3 D3 C3 S6 H6"))) == "S3 C3 D3 H6 S6"


def test_finishes_when_it_can():
    view = observe("S5 D5", seat=1, greater=(0, play("Pair", "3", "S3 D3")))
    assert described(decide(view)) == "S5 D5"


def test_finishes_even_over_its_partner():
    view = observe("SA DA", seat=2, greater=(0, play("Pair", "3", "S3 D3")))
    assert described(decide(view)) == "SA DA"


def test_does_not_overtake_a_partner_with_few_cards():
    for partner_cards in (1, 2):
        view = observe("S9 D4 D6 S8 CJ DK", seat=2, cards_left=(partner_cards, 20, 0, 20),
                       greater=(0, play("Single", "8", "C8")))
        assert decide(view) == PASS


def test_follows_an_opponent_with_the_smallest_single_of_its_plan():
    view = observe("S9 D4 D6 CJ DK SQ SQ", seat=1, greater=(0, play("Single", "8", "C8")))
    assert described(decide(view)) == "S9"


def test_bombs_to_stop_an_opponent_with_few_cards():
    hand = "S5 D5 C5 H5 S3 D8 CJ"
    view = observe(hand, seat=1, cards_left=(2, 0, 20, 20), greater=(0, play("Pair", "K", "SK DK")))
    assert decide(view).type is ComboType.BOMB


def test_keeps_its_bomb_while_the_opponents_hold_many_cards():
    hand = "S5 D5 C5 H5 S3 D8 CJ"
    view = observe(hand, seat=1, cards_left=(20, 0, 20, 20), greater=(0, play("Pair", "K", "SK DK")))
    assert decide(view) == PASS


def test_leads_the_unbeatable_card_before_its_last_play():
    # Big jokers cannot be beaten but by a bomb: lead them, then the pair goes out.
    assert described(decide(observe("HR S4 D4", cards_left=(3, 20, 20, 20)))) == "HR"


def test_does_not_lead_a_single_to_an_opponent_with_one_card():
    action = decide(observe("S4 S6 D6 C9 SQ", cards_left=(5, 1, 20, 20)))
    assert action.type is not ComboType.SINGLE


def test_feeds_a_partner_with_one_card_a_low_single():
    action = decide(observe("S4 S6 D6 C9 C9 SQ", cards_left=(6, 20, 1, 20)))
    assert described(action) == "S4"


# -- tribute and back -----------------------------------------------------------------------------------


def gifts(kind: str, cards: str) -> list[Gift]:
    return [Gift(kind, parse_card(name)) for name in cards.split()]


def test_tribute_gives_the_highest_card_that_is_not_wild():
    seven = parse_level("7")
    view = observe("H7 S7 SA D3 D4 C9", level=seven, phase="tribute")
    legal = gifts("tribute", "H7 S7 SA D3 D4 C9")
    assert GuanDanRulesAgent(0).act(view, legal) == Gift("tribute", parse_card("S7"))


def test_back_returns_a_lone_low_card():
    # A pair of level cards, a straight 5-9 and a lone 3 (with no 4, no straight can use it).
    hand = "S2 D2 H3 S5 D6 C7 S8 D9 SJ DJ CJ SK DK SA"
    view = observe(hand, phase="back")
    legal = gifts("back", "S2 D2 H3 S5 D6 C7 S8 D9")
    assert GuanDanRulesAgent(0).act(view, legal) == Gift("back", parse_card("H3"))


def test_explain_scores_every_legal_action_best_first():
    view = observe("S9 D4 D6 CJ DK SQ SQ", seat=1, greater=(0, play("Single", "8", "C8")))
    legal = legal_plays(view.hand, TWO, view.greater[1])
    scored = GuanDanRulesAgent(0).explain(view, legal)
    assert sorted(map(str, (s.action for s in scored))) == sorted(map(str, legal))
    assert [s.score for s in scored] == sorted((s.score for s in scored), reverse=True)
    assert scored[0].action == GuanDanRulesAgent(0).act(view, legal)


def test_has_nothing_to_do_when_the_game_is_over():
    with pytest.raises(AgentError, match="phase 'over'"):
        GuanDanRulesAgent(0).explain(observe("S3", phase="over"), [PASS])


# -- whole games -----------------------------------------------------------------------------------------


def teams(make_rules, make_other, seed: int, swap: bool):
    """Four agents: ``rules`` on seats 0 and 2 (1 and 3 when ``swap``)."""
    return [make_rules(4 * seed + seat) if seat % 2 == swap else make_other(4 * seed + seat) for seat in range(4)]


def test_beats_random_players():
    one_round = GuanDanRules(rounds=1)
    wins = 0
    games = 24
    for seed in range(games):
        swap = bool(seed % 2)
        agents = teams(GuanDanRulesAgent, RandomAgent, seed, swap)
        state = play_game(GAME, agents, seed, one_round)
        wins += state.payoffs()[int(swap)] > 0
    assert wins >= 20  # measured: every one of 1,000 such rounds


def test_plays_a_whole_game_with_tribute_and_back():
    state = play_game(GAME, [GuanDanRulesAgent(seat) for seat in range(4)], seed=11, rules=GuanDanRules())
    result = state.result()
    rounds = result["rounds"]
    assert state.is_terminal() and result["winner"] in (0, 1)
    gifts = [gift for played in rounds[1:] for gift in played["tribute"] + played["back"]]
    assert gifts, "no tribute was paid in a whole game"


def test_same_seed_same_game():
    def record(seed: int) -> list:
        agents = [GuanDanRulesAgent(seed + seat) for seat in range(4)]
        return play_game(GAME, agents, seed=5, rules=GuanDanRules(rounds=2)).to_record()["actions"]

    assert record(1) == record(1)
