"""Gongzhu (拱猪): four players in two partnerships (seats 0+2 against 1+3), one 52-card deck, 13 tricks.

Rules (``shared/specs/gongzhu.md``, the ScrofaZero paper's): 13 cards each; ``GongzhuRules.first_leader``
leads the first trick; follow the led suit if you can, otherwise play any card; no trumps, no passing, no
hearts-broken rule; the highest card of the led suit wins and its winner leads next. The winner collects
the trick's scoring cards (the hearts, SQ, DJ, C10), scored by ``scoring.player_score``; each seat's payoff
is its team's score minus the other team's.

============  =======================================================================================
Cards         suit letter + rank: ``S H D C`` + ``2 .. 10 J Q K A`` (``"SQ"``, ``"H10"``); card order is
              suit then rank; internally card ``i`` is bit ``i`` of a 52-bit mask (``cards``)
Actions       card names (str); JSON form is the name; ``legal_actions()`` in card order
Observation   ``GongzhuObservation``: ``seat``, ``phase`` (``"play"``/``"over"``), ``hand`` (names, sorted),
              ``leader``, ``trick`` ((seat, card), ...), ``history`` (completed tricks, 4 plays each),
              ``taken`` (scoring cards collected per seat), ``rules``; derived ``led_suit``, ``played``,
              ``unseen``, ``cards_left``, ``voids`` (suits each seat showed void in)
Protocol obs  ``{"hand", "leader", "trick", "history", "taken"}`` (``shared/specs/protocol.md``)
Deals         ``GongzhuDeal`` (``draw``, ``from_hands``, ``rotated``); ``Gongzhu.new_state(seed)``,
              ``Gongzhu.rotated_state(seed, rules, shift)`` for duplicate play, ``Gongzhu.from_deal(hands)``
Records       ``{"game": "gongzhu", "seed", "rotation", "rules", "deals": [{"hands"}], "actions":
              [[seat, card], ...], "result": {"payoffs", "scores", "team_scores", "taken"}}``
============  =======================================================================================
"""

from paiju.games.gongzhu.cards import CARD_NAMES, RANKS, SUITS, parse_card, parse_cards, sort_cards
from paiju.games.gongzhu.deal import GongzhuDeal
from paiju.games.gongzhu.game import Gongzhu
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.rules import GongzhuRules
from paiju.games.gongzhu.scoring import SCORING_CARDS, player_score, seat_results, team_scores
from paiju.games.gongzhu.state import GongzhuState

__all__ = [
    "CARD_NAMES",
    "RANKS",
    "SCORING_CARDS",
    "SUITS",
    "Gongzhu",
    "GongzhuDeal",
    "GongzhuObservation",
    "GongzhuRules",
    "GongzhuState",
    "parse_card",
    "parse_cards",
    "player_score",
    "seat_results",
    "sort_cards",
    "team_scores",
]
