"""GuanDan (掼蛋): four players in two teams (seats 0+2 against 1+3), two 54-card decks, levels and wild cards.

Rules: the DanZero paper §III and the competition platform's manual, condensed in ``shared/specs/guandan.md``;
the platform's variants are options of ``GuanDanRules``. Every choice the spec leaves open is stated in the
module that makes it (``combos`` for readings of cards, ``tribute``, ``levels``, ``state``, ``deal``).

=============  ==========================================================================================
Cards          card index 0..53 = 4 * rank + suit (ranks ``2..A`` = 0..12, suits ``HSCD``), 52 ``SB``, 53
               ``HR``; sets of cards are packed ints (``cards.pack``); platform names ``H9``, ``ST``, ``SB``
Rules          ``GuanDanRules(rounds=None, start_level="2", a_attempts=None, strict_a=False)``
Game           rounds until a team wins at A (``rounds=None``) or a fixed number of rounds; the first round
               at ``start_level``, each later round at the level of the previous round's winners
               (``levels``); 27 cards each per round from ``random.Random(seed)`` (``deal``)
Phases         ``"tribute"`` and ``"back"`` (rounds 2 on, unless anti-tribute), ``"play"``, ``"over"``
Actions        ``Play`` (an int: type, rank, cards) in play; ``Gift(kind, card)`` in the gift phases; JSON
               form = the platform's ``[type, rank, cards]``, a pass ``["PASS", "PASS", "PASS"]``, gifts
               ``["tribute", "tribute", ["D2"]]`` / ``["back", "back", ["S5"]]``
Legal order    play: ``legal.legal_plays`` (following: the pass first); gifts: by card index
Observation    ``GuanDanObservation``: ``seat``, ``phase``, ``hand`` (packed), ``level``, ``self_level``,
               ``oppo_level``, ``round_number``, ``history`` ((seat, Play), passes included), ``greater``,
               ``cards_left``, ``finished``, ``tribute`` / ``back`` ((giver, receiver, card), public once a
               phase's gifts are all chosen), ``anti_tribute``, ``rules``, ``to_move``, ``previous_order``,
               ``a_failures``, ``team_scores``; ``partner``, ``hand_cards``
Protocol obs   ``{"hand", "level", "self_level", "oppo_level", "history", "greater", "cards_left",
               "finished"}`` (``shared/specs/protocol.md``)
Payoffs        ``rounds=None``: +1 / -1 per seat for the team that won / lost the game at A; fixed rounds:
               the seat's team's sum of round results (+3 / +2 / +1 for a round's winners, negated for the
               others)
Records        ``{"game": "guandan", "seed", "rotation", "rules", "start" (standing the game began from,
               with the first leader), "deals": [{"hands"}] one per round, "actions": [[seat, platform
               form], ...], "result": {"payoffs", "winner", "levels", "team_scores", "rounds"}}``
Duplicates     ``GuanDan.rotated_state(seed, rules, shift)``: every deal moved ``shift`` seats on
=============  ==========================================================================================

Modules: ``cards``, ``combos``, ``legal`` and ``oracle`` (combinations and legal plays), ``rules``, ``deal``,
``levels`` (promotion, winning at A), ``tribute``, ``observation``, ``state``, ``determinize``, ``game``.
"""

from paiju.games.guandan.cards import format_cards, pack, parse_cards, parse_level, unpack, wild_card
from paiju.games.guandan.combos import PASS, ComboType, Play, interpretations, play_from_platform
from paiju.games.guandan.deal import Deal, DealSource
from paiju.games.guandan.game import GuanDan
from paiju.games.guandan.legal import legal_plays
from paiju.games.guandan.levels import Standing
from paiju.games.guandan.observation import GuanDanObservation
from paiju.games.guandan.rules import GuanDanRules
from paiju.games.guandan.state import GuanDanState
from paiju.games.guandan.tribute import Gift

__all__ = [
    "PASS",
    "ComboType",
    "Deal",
    "DealSource",
    "Gift",
    "GuanDan",
    "GuanDanObservation",
    "GuanDanRules",
    "GuanDanState",
    "Play",
    "Standing",
    "format_cards",
    "interpretations",
    "legal_plays",
    "pack",
    "parse_cards",
    "parse_level",
    "play_from_platform",
    "unpack",
    "wild_card",
]
