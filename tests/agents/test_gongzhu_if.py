"""Mr. If (``mr-if``): each rule fires in a position made for it; determinism, errors, the factory."""

import pytest

from paiju.agents.rules.gongzhu_if import PARTNER_AWARE_RULES, RULES, GongzhuIfAgent, make_if_agent
from paiju.core.errors import AgentError, PaijuError
from paiju.core.match import play_game
from paiju.games.gongzhu import Gongzhu, GongzhuObservation, GongzhuRules, parse_cards, sort_cards

GAME = Gongzhu()


def observe(hand: str, trick: str = "", *, seat: int = 0, history: tuple[tuple[int, str], ...] = ()
            ) -> GongzhuObservation:
    """Seat ``seat``'s view holding ``hand``: the seats before it played ``trick``'s cards in order; ``history``
    holds completed tricks as (leader, their four cards)."""
    cards = parse_cards(trick)
    leader = (seat - len(cards)) % 4
    done = tuple((lead + k) % 4 for lead, _ in history for k in range(4))
    plays = tuple(zip(done, (card for _, four in history for card in parse_cards(four)), strict=True))
    return GongzhuObservation(
        seat=seat, phase="play", hand=sort_cards(parse_cards(hand)), leader=leader,
        trick=tuple(((leader + k) % 4, card) for k, card in enumerate(cards)), history=plays,
        taken=((), (), (), ()), rules=GongzhuRules())


def legal_cards(observation: GongzhuObservation) -> list[str]:
    led = observation.led_suit
    following = [card for card in observation.hand if card[0] == led]
    return following or list(observation.hand)


def decide(observation: GongzhuObservation, seed: int = 0, partner_aware: bool = False) -> tuple[str, str]:
    legal = legal_cards(observation)
    card, rule = GongzhuIfAgent(seed, partner_aware).decide(observation, legal)
    assert card in legal
    return card, rule


@pytest.mark.parametrize(("hand", "trick", "expected"), [
    # leading: the highest card of the shortest suit without its dangerous cards (here diamonds, DJ elsewhere)
    ("S2 S3 S4 S5 H2 H3 H4 D5 D9 C2 C3 C4 C5", "", ("D9", "lead_high_from_clean_short_suit")),
    # the shortest suit holds DJ, the next one is clean
    ("D9 DJ H2 H3 H9 S2 S3 S4 S5 C2 C3 C4 C5", "", ("H9", "lead_high_from_clean_short_suit")),
    # void in the led suit: the pig first, then HA before SA
    ("SQ SA HA D2", "C5", ("SQ", "discard_danger")),
    ("SA HA D2 D3", "C5", ("HA", "discard_danger")),
    # void and nothing dangerous: the highest card of the shortest suit
    ("S2 S3 D4 D9 H2", "C5", ("H2", "discard_high_from_short_suit")),
    ("S2 S3 D4 D9", "C5", ("S3", "discard_high_from_short_suit")),
    ("S9 D4", "S5", ("S9", "only_card")),
    # spades: SQ under a higher spade; last without the pig on the table: the highest but SQ; else duck
    ("S3 SQ D2", "S9 SK", ("SQ", "pig_under_bigger_spade")),
    ("S3 SQ SK", "S5 S9 S7", ("SK", "last_high_spade_without_pig")),
    ("S3 S10 SK", "S9", ("S10", "duck_under_pig")),
    ("S3 S10 SK", "S9 SA", ("SK", "duck_under_pig")),
    ("SK SA", "S9 SQ", ("SA", "duck_under_pig")),
    # clubs: C10 under a higher club; last without C10 on the table: the highest but C10; else duck under C10
    ("C3 C10 D2", "CK", ("C10", "transformer_under_bigger_club")),
    ("C2 C10 CA", "C5 C6 C7", ("CA", "last_high_club_without_transformer")),
    ("C2 C9 CJ", "C8", ("C9", "duck_under_transformer")),
    ("C2 CJ CA", "C8 CQ", ("CJ", "duck_under_transformer")),
    # diamonds: last with DJ and no higher diamond on the table takes the sheep; else the highest but DJ
    ("D3 DJ", "D5 D9 D8", ("DJ", "last_takes_sheep")),
    ("D3 DJ", "D5 DQ D8", ("D3", "high_diamond_keeping_sheep")),
    ("D3 DJ DA", "D5", ("DA", "high_diamond_keeping_sheep")),
    # hearts: duck under the highest heart on the table
    ("H3 H8 HQ", "H9", ("H8", "duck_hearts")),
    ("H3 H8 HQ", "H9 HK", ("HQ", "duck_hearts")),
])
def test_each_rule_fires_in_its_position(hand: str, trick: str, expected: tuple[str, str]) -> None:
    seat = len(parse_cards(trick))
    assert decide(observe(hand, trick, seat=seat)) == expected


def test_leads_a_harmless_card_when_every_suit_holds_a_dangerous_one() -> None:
    hand = "SQ S2 S3 HA H4 H5 DJ D2 D3 C10 C2 C3 CA"
    choices = {decide(observe(hand), seed) for seed in range(30)}
    assert {rule for _, rule in choices} == {"lead_harmless_card"}
    assert {card for card, _ in choices} <= set(parse_cards("S2 S3 H4 H5 D2 D3 C2 C3"))
    assert len(choices) > 3  # drawn at random with the seed


def test_a_random_card_only_when_no_rule_applies() -> None:
    choices = {decide(observe("H5 H9 S2", "H2", seat=1), seed) for seed in range(20)}
    assert choices == {("H5", "random_card"), ("H9", "random_card")}


def test_partner_aware_play_gifts_the_partner_s_trick() -> None:
    # seat 3 plays last; its partner seat 1 wins the trick with CA
    assert decide(observe("SQ DJ SA D2", "C5 CA C3", seat=3), partner_aware=True) == ("DJ", "gift_partner")
    assert decide(observe("SQ SA HA D2", "C5 CA C3", seat=3), partner_aware=True) == ("SA", "gift_partner")
    # without partner awareness the pig goes to the partner
    assert decide(observe("SQ SA HA D2", "C5 CA C3", seat=3)) == ("SQ", "discard_danger")
    # an opponent wins the trick, or someone still plays after: the pig as usual
    assert decide(observe("SQ SA HA D2", "CA C5 C3", seat=3), partner_aware=True) == ("SQ", "discard_danger")
    assert decide(observe("SQ SA HA D2", "CA C5", seat=2), partner_aware=True) == ("SQ", "discard_danger")
    # nothing safe to give: the usual discards
    assert decide(observe("HA D2", "C5 CA C3", seat=3), partner_aware=True) == ("HA", "discard_danger")


def test_the_rule_lists() -> None:
    assert len(RULES) == 15 and RULES[-1].__name__ == "random_card"
    assert [rule.__name__ for rule in PARTNER_AWARE_RULES] == \
        [rule.__name__ for rule in RULES[:2]] + ["gift_partner"] + [rule.__name__ for rule in RULES[2:]]


def test_history_does_not_change_a_rule_about_the_trick() -> None:
    history = ((0, "C2 C3 C4 C5"), (3, "D6 D7 D8 D9"))
    assert decide(observe("S3 S10 SK", "S9", seat=1, history=history)) == ("S10", "duck_under_pig")


def test_same_seed_same_game() -> None:
    def play(seed: int) -> list:
        agents = [GongzhuIfAgent(seed + seat) for seat in range(4)]
        return play_game(GAME, agents, 11).to_record()["actions"]
    assert play(3) == play(3)
    assert play(3) != play(40)


def test_explain_ranks_the_rule_s_card_first() -> None:
    observation = observe("S3 S10 SK", "S9", seat=1)
    ranked = GongzhuIfAgent(0).explain(observation, ["S3", "S10", "SK"])
    assert [(scored.action, scored.score) for scored in ranked] == [("S10", 1.0), ("S3", 0.0), ("SK", 0.0)]


def test_bad_legal_lists_raise_agent_errors() -> None:
    agent = GongzhuIfAgent(0)
    with pytest.raises(AgentError, match="no legal cards"):
        agent.act(observe("S3"), [])
    with pytest.raises(AgentError, match="card names such as 'SQ'"):
        agent.act(observe("S3"), ["s3"])


def test_factory() -> None:
    assert make_if_agent("", 1).rules is RULES
    assert make_if_agent("partner", 1).rules is PARTNER_AWARE_RULES
    with pytest.raises(PaijuError, match="mr-if takes no argument or ':partner'"):
        make_if_agent("greedy", 1)
