"""``mr-if``: Mr. If, the Gongzhu player made of if-rules of human experience (ScrofaZero §5.1, §8.2).

The first rule that applies chooses the card; "highest"/"lowest" are within a suit; "on the table" means in
the trick in progress. In priority order:

Leading (any card may be led)
  1. ``lead_high_from_clean_short_suit`` — from the shortest suit up, the first suit holding none of its
     dangerous cards (spades: SQ SK SA; hearts: HQ HK HA; clubs: C10 and above; diamonds: DJ): lead its
     highest card, shortening that suit while the others can still follow it.
  2. ``lead_harmless_card`` — a random card that is not worth keeping (SQ SK SA HA HK C10 CJ CQ CK CA DJ).

Void in the led suit (any card may be discarded)
  (partner-aware play only) ``gift_partner`` — playing last while the partner wins the trick: give it DJ, else
     the most dangerous card that scores nothing (SA SK CA CK CQ CJ), rather than points.
  3. ``discard_danger`` — the first held card of SQ HA SA SK HK C10 CA HQ HJ CK CQ CJ H10 H9 H8 H7 H6 H5.
  4. ``discard_high_from_short_suit`` — the highest card of the shortest suit.

Following
  5. ``only_card`` — one card of the led suit: play it.

  Spades
  6. ``pig_under_bigger_spade`` — holding SQ and SK or SA is on the table: play SQ under it.
  7. ``last_high_spade_without_pig`` — playing last and SQ is not on the table: the highest spade but SQ.
  8. ``duck_under_pig`` — the highest spade below the table's SA, else its SK, else SQ (so as not to catch
     the pig); the highest spade when none is lower.

  Clubs
  9. ``transformer_under_bigger_club`` — holding C10 and a club above it is on the table: play C10 under it.
  10. ``last_high_club_without_transformer`` — playing last and C10 is not on the table: the highest club but C10.
  11. ``duck_under_transformer`` — the highest club below the table's highest club above C10, else below C10;
      the highest club when none is lower.

  Diamonds
  12. ``last_takes_sheep`` — playing last, holding DJ, and none of DQ DK DA is on the table: win DJ with it.
  13. ``high_diamond_keeping_sheep`` — the highest diamond but DJ.

  Hearts
  14. ``duck_hearts`` — the highest heart below the table's highest heart.

15. ``random_card`` — otherwise a random legal card.

Rules 1-15 are those of the authors' Mr. If (their 33 if statements). Two partners playing them against two
Mr. Random score about +183 points per game in duplicate play (ScrofaZero Table 2: +194), and Mr. Greed beats
them by about +76 (Table 2: +80). Partner-aware play (``partner_aware``, ``mr-if:partner``) adds
``gift_partner``: about +190 against Mr. Random, and Mr. Greed beats it by about +70.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from paiju.agents.rules.gongzhu_common import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    PIG,
    SHEEP,
    SPADES,
    TRANSFORMER,
    TableView,
    below,
    bit,
    highest,
    indices,
    legal_mask,
    mask_of_names,
)
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.games.gongzhu.cards import CARD_INDEX, CARD_NAMES, SUIT_MASKS
from paiju.games.gongzhu.observation import GongzhuObservation

Rule = Callable[[TableView, int, random.Random], int | None]
"""A rule: (the table, the legal cards as a mask, the random generator) -> the card it chooses, or None."""

DANGEROUS = (mask_of_names(["SQ", "SK", "SA"]), mask_of_names(["HQ", "HK", "HA"]),
             mask_of_names(["DJ"]), mask_of_names(["C10", "CJ", "CQ", "CK", "CA"]))
"""Per suit, the cards that make leading the suit from the top unsafe (rule 1)."""
KEEP = mask_of_names(["SQ", "SK", "SA", "HA", "HK", "C10", "CJ", "CQ", "CK", "CA", "DJ"])
"""Cards not to lead at random (rule 2)."""
DISCARD_ORDER = tuple(CARD_INDEX[name] for name in (
    "SQ", "HA", "SA", "SK", "HK", "C10", "CA", "HQ", "HJ", "CK", "CQ", "CJ", "H10", "H9", "H8", "H7", "H6", "H5"))
"""Cards to discard first when void, most dangerous first (rule 3)."""
SAFE_GIFTS = tuple(CARD_INDEX[name] for name in ("SA", "SK", "CA", "CK", "CQ", "CJ"))
"""Cards that score nothing but may take the pig or C10 later, to give a partner's winning trick."""
PIG_GUARDS = mask_of_names(["SK", "SA"])
CLUBS_ABOVE_TRANSFORMER = mask_of_names(["CJ", "CQ", "CK", "CA"])
SHEEP_BEATERS = mask_of_names(["DQ", "DK", "DA"])


def _shortest_suits_first(hand: int) -> list[int]:
    """The suits this hand holds, fewest cards first (ties in suit order)."""
    held = [suit for suit in range(4) if hand & SUIT_MASKS[suit]]
    return sorted(held, key=lambda suit: (hand & SUIT_MASKS[suit]).bit_count())


def _duck(cards: int, ceiling: int) -> int:
    """The highest of ``cards`` below ``ceiling``, else the highest of them."""
    return highest(below(cards, ceiling) or cards)


def _highest_but(cards: int, keep: int) -> int:
    """The highest of ``cards`` other than ``keep`` (``cards`` holds at least two)."""
    return highest(cards & ~bit(keep))


# -- leading -----------------------------------------------------------------------------------------------

def lead_high_from_clean_short_suit(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 1: the highest card of the shortest suit holding none of its dangerous cards."""
    if view.trick:
        return None
    for suit in _shortest_suits_first(view.hand):
        cards = view.in_suit(suit)
        if not cards & DANGEROUS[suit]:
            return highest(cards)
    return None


def lead_harmless_card(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 2: a random card not worth keeping."""
    if view.trick or not legal & ~KEEP:
        return None
    return rng.choice(indices(legal & ~KEEP))


# -- void in the led suit ----------------------------------------------------------------------------------

def _void(view: TableView) -> bool:
    return bool(view.trick) and not view.in_suit(view.trick[0][1] // 13)


def gift_partner(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Partner-aware play: void and last to play while the partner wins the trick: give it DJ, else shed the
    most dangerous card that scores nothing (``SAFE_GIFTS``) rather than points."""
    if not _void(view) or not view.is_last or view.winning()[0] != (view.seat + 2) & 3:
        return None
    if legal >> SHEEP & 1:
        return SHEEP
    return next((card for card in SAFE_GIFTS if legal >> card & 1), None)


def discard_danger(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 3: the most dangerous card held (``DISCARD_ORDER``), whoever wins the trick."""
    if not _void(view):
        return None
    return next((card for card in DISCARD_ORDER if legal >> card & 1), None)


def discard_high_from_short_suit(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 4: the highest card of the shortest suit."""
    if not _void(view):
        return None
    return highest(view.in_suit(_shortest_suits_first(view.hand)[0]))


# -- following ---------------------------------------------------------------------------------------------

def only_card(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 5: the only card of the led suit."""
    return highest(legal) if view.trick and legal.bit_count() == 1 else None


def _following(view: TableView, suit: int) -> bool:
    return view.led_suit == suit and bool(view.in_suit(suit))


def pig_under_bigger_spade(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 6: SQ under an SK or SA on the table."""
    if _following(view, SPADES) and legal >> PIG & 1 and view.trick_cards & PIG_GUARDS:
        return PIG
    return None


def last_high_spade_without_pig(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 7: last to play and no pig on the table: the highest spade but SQ."""
    if _following(view, SPADES) and view.is_last and not view.trick_cards >> PIG & 1:
        return _highest_but(legal, PIG)
    return None


def duck_under_pig(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 8: the highest spade below the table's SA, else its SK, else SQ."""
    if not _following(view, SPADES):
        return None
    guards = view.trick_cards & PIG_GUARDS
    return _duck(legal, highest(guards) if guards else PIG)


def transformer_under_bigger_club(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 9: C10 under a higher club on the table."""
    if _following(view, CLUBS) and legal >> TRANSFORMER & 1 and view.trick_cards & CLUBS_ABOVE_TRANSFORMER:
        return TRANSFORMER
    return None


def last_high_club_without_transformer(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 10: last to play and no C10 on the table: the highest club but C10."""
    if _following(view, CLUBS) and view.is_last and not view.trick_cards >> TRANSFORMER & 1:
        return _highest_but(legal, TRANSFORMER)
    return None


def duck_under_transformer(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 11: the highest club below the table's highest club above C10, else below C10."""
    if not _following(view, CLUBS):
        return None
    higher = view.trick_cards & CLUBS_ABOVE_TRANSFORMER
    return _duck(legal, highest(higher) if higher else TRANSFORMER)


def last_takes_sheep(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 12: last to play, holding DJ, no DQ DK DA on the table: DJ wins the trick and itself."""
    if (_following(view, DIAMONDS) and view.is_last and legal >> SHEEP & 1
            and not view.trick_cards & SHEEP_BEATERS):
        return SHEEP
    return None


def high_diamond_keeping_sheep(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 13: the highest diamond but DJ."""
    return _highest_but(legal, SHEEP) if _following(view, DIAMONDS) else None


def duck_hearts(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 14: the highest heart below the table's highest heart."""
    if not _following(view, HEARTS):
        return None
    lower = below(legal, highest(view.trick_cards & SUIT_MASKS[HEARTS]))
    return highest(lower) if lower else None


def random_card(view: TableView, legal: int, rng: random.Random) -> int | None:
    """Rule 15: a random legal card."""
    return rng.choice(indices(legal))


RULES: tuple[Rule, ...] = (
    lead_high_from_clean_short_suit, lead_harmless_card,
    discard_danger, discard_high_from_short_suit,
    only_card,
    pig_under_bigger_spade, last_high_spade_without_pig, duck_under_pig,
    transformer_under_bigger_club, last_high_club_without_transformer, duck_under_transformer,
    last_takes_sheep, high_diamond_keeping_sheep,
    duck_hearts,
    random_card,
)
"""Mr. If's rules in priority order (see the module docstring)."""
PARTNER_AWARE_RULES: tuple[Rule, ...] = (*RULES[:2], gift_partner, *RULES[2:])
"""The rules with partner-aware play: ``gift_partner`` before the discards."""


class GongzhuIfAgent(Agent):
    """Mr. If (ScrofaZero §5.1): the first of ``RULES`` (``PARTNER_AWARE_RULES`` when ``partner_aware``) that
    applies chooses the card; random choices come from the agent's generator seeded with ``seed``."""

    name = "mr-if"

    def __init__(self, seed: int = 0, partner_aware: bool = False) -> None:
        self.rng = random.Random(seed)
        self.rules = PARTNER_AWARE_RULES if partner_aware else RULES

    def decide(self, observation: GongzhuObservation, legal: Sequence[str]) -> tuple[str, str]:
        """The chosen card and the name of the rule that chose it."""
        view = TableView.from_observation(observation)
        allowed = legal_mask(self.name, observation.seat, legal)
        for rule in self.rules:
            card = rule(view, allowed, self.rng)
            if card is not None:
                return CARD_NAMES[card], rule.__name__
        raise AssertionError("the last rule always chooses a card")

    def act(self, observation: GongzhuObservation, legal: Sequence[str]) -> str:
        return self.decide(observation, legal)[0]

    def explain(self, observation: GongzhuObservation, legal: Sequence[str]) -> list[ScoredAction]:
        """The rule's card first (score 1), then the other legal cards (score 0)."""
        choice = self.act(observation, legal)
        return [ScoredAction(choice, 1.0)] + [ScoredAction(card, 0.0) for card in legal if card != choice]


def make_if_agent(argument: str, seed: int) -> GongzhuIfAgent:
    """The agent factory of ``mr-if`` (``mr-if:partner``: partner-aware play)."""
    if argument not in ("", "partner"):
        raise PaijuError(f"mr-if takes no argument or ':partner', got {argument!r}")
    return GongzhuIfAgent(seed, partner_aware=argument == "partner")
