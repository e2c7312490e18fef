"""OpenSpiel's DouDizhu (``pyspiel.load_game("dou_dizhu")``) next to paiju's: its plays as card counts, paiju's
deals and plays replayed into its states, and a check that both engines list the same plays.

OpenSpiel's game, as ``open_spiel`` 2.0.2 plays it (found by experiment, and read in ``dou_dizhu.cc`` and
``dou_dizhu_utils.cc``):

- Dealing is 52 chance actions: ``Decide first card up position p`` (p in 0..50), then 51 ``Deal XY``
  actions, one card each (``X`` the suit, ``Y`` the rank; ``Deal (BWJ)`` the small joker, ``Deal (CJ)`` the
  big joker). The ``k``-th card dealt (from 0) goes to player ``k % 3``; the player dealt card ``p`` bids
  first (player ``p % 3``). The three cards left in the deck go to the landlord.
- Bidding: in turn, ``Pass`` or a bid above the highest so far; ``Bid 3`` ends it at once, two passes in a
  row after a bid end it, three passes in a row end the game with no play (all returns 0). The landlord
  takes the three cards and leads; play goes 0 -> 1 -> 2.
- Its plays are paiju's ``DouDizhuRules(no_four_with_two=True)``: no four-with-two; plane kickers never both
  jokers, pair kickers of distinct ranks and never jokers, solo kickers up to three cards of a rank; planes
  of 2-6 trios, with 2-5 solos or 2-4 pairs. Three differences: (1) a solo chain, pair chain or kickerless
  plane whose lowest rank is one the hand holds all four cards of is never listed, leading or following
  (``SearchChainOnlyActions`` skips such a chain head; 2-3 decisions in 1,000 of random games); (2) after
  the rocket it lists the hand's bombs (paiju: pass only; rarer); (3) a plane with solo kickers may take
  three cards of a rank next to the plane (``666777888-999`` follows ``333444555-TJQ``), which paiju reads
  only as a longer plane (seen in no random game). Leading, it lists a few card sets two or three times
  (``777888999TTT``, ``777888999-TTT``, ``888999TTT-777``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import paiju
from paiju.games.doudizhu import PASS, Category, Move, format_cards, legal_moves
from paiju.games.doudizhu.rules import DouDizhuRules

RULES = DouDizhuRules(no_four_with_two=True)
"""paiju's ruleset with OpenSpiel's plays (research mode: seat 0 the landlord, no bidding)."""
NUM_RANKS = 15
_RANK_OF_LETTER = {letter: rank for rank, letter in enumerate("3456789TJQKA2BR")}
_JOKERS = {"(BWJ)": "B", "(CJ)": "R"}
_DEAL_BASE = 51  # chance action dealing card 0; card = 13 * suit + rank for 3..2, 52 and 53 the jokers


def load_game() -> Any:
    import pyspiel

    return pyspiel.load_game("dou_dizhu")


def counts_of(text: str) -> tuple[int, ...]:
    """Card counts by paiju's ranks (3..2, small joker, big joker) of an OpenSpiel play string (``"Pass"``,
    ``"55222"``, ``"(BWJ)(CJ)"``, ``"333444-59"``); a hand from ``observation_string`` reads the same."""
    counts = [0] * NUM_RANKS
    if text == "Pass":
        return tuple(counts)
    for joker, letter in _JOKERS.items():
        text = text.replace(joker, letter)
    for letter in text.replace("-", ""):
        counts[_RANK_OF_LETTER[letter]] += 1
    return tuple(counts)


def play_key(text: str) -> tuple[Any, ...]:
    """What identifies an OpenSpiel play: its counts, and for a plane with kickers (``"444555666-333"``, the
    only plays that may share counts) also its lowest plane rank and length."""
    if "-" not in text:
        return (counts_of(text),)
    plane = counts_of(text.split("-")[0])
    return counts_of(text), next(rank for rank, n in enumerate(plane) if n), sum(plane) // 3


def move_key(move: Move) -> tuple[Any, ...]:
    """``play_key`` of paiju's play."""
    if move.category in (Category.PLANE_SOLOS, Category.PLANE_PAIRS):
        return move.counts, move.rank, move.length
    return (move.counts,)


def deal_actions(hands: Sequence[Sequence[int]], first_bidder: int) -> list[int]:
    """The chance actions dealing player ``p`` the 17 cards ``hands[p]`` (counts by rank), the card up going
    to ``first_bidder``; the three cards not dealt are the landlord's. Suits are given in order."""
    next_suit = [0] * NUM_RANKS
    cards: list[list[int]] = []
    for hand in hands:
        cards.append([])
        for rank, n in enumerate(hand):
            for _ in range(n):
                cards[-1].append(39 + rank if rank >= 13 else 13 * next_suit[rank] + rank)
                next_suit[rank] += 1
    return [first_bidder] + [_DEAL_BASE + cards[k % 3][k // 3] for k in range(51)]


def research_state(spiel: Any, number: int) -> Any:
    """OpenSpiel's state at the start of play of paiju's research game ``number`` (``RULES``): paiju's three
    hands dealt, the first card up to seat 0, seat 0 bids 3 and so is the landlord with paiju's public
    cards (those left in the deck); seat 0 leads."""
    hands = paiju.load_game("doudizhu").new_state(number, RULES).deals[0].hands
    state = spiel.new_initial_state()
    for action in deal_actions(hands, 0):
        state.apply_action(action)
    state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == "Bid 3"))
    return state


def replay(spiel: Any, number: int, plays: Sequence[Move]) -> Any | None:
    """OpenSpiel's state after paiju's ``plays`` of research game ``number``, each applied by the action id
    whose ``action_to_string`` is that play; ``None`` if OpenSpiel lists one of them nowhere."""
    state = research_state(spiel, number)
    for move in plays:
        actions = {play_key(state.action_to_string(a)): a for a in state.legal_actions()}
        action = actions.get(move_key(move))
        if action is None:
            return None
        state.apply_action(action)
    return state


def check(positions: Sequence[tuple[Sequence[int], Move | None, Any]]) -> dict[str, Any]:
    """Compare, at each ``(hand, follow, state)``, the plays both engines list as sets of card multisets:
    paiju's ``legal_moves(hand, follow, RULES)`` and OpenSpiel's ``state.legal_actions()`` (pass as no
    cards). Raises if OpenSpiel's player to move does not hold ``hand``. Returns the counts and every
    difference."""
    differences = []
    repeated = 0
    for hand, follow, state in positions:
        held = counts_of(state.observation_string(state.current_player()).split("\n")[0].removeprefix("My hand "))
        if held != tuple(hand):
            raise AssertionError(f"OpenSpiel's player to move holds {format_cards(held)}, paiju's {format_cards(hand)}")
        ours = {move.counts for move in legal_moves(hand, follow, RULES)}
        listed = [counts_of(state.action_to_string(a)) for a in state.legal_actions()]
        theirs = set(listed)
        repeated += len(listed) - len(theirs)
        if ours != theirs:
            differences.append({
                "hand": format_cards(hand), "follow": None if follow in (None, PASS) else follow.cards,
                "paiju_only": sorted(format_cards(c) or "pass" for c in ours - theirs),
                "openspiel_only": sorted(format_cards(c) or "pass" for c in theirs - ours),
            })
    return {"positions": len(positions), "same_plays": len(positions) - len(differences),
            "openspiel_repeated_plays": repeated, "differences": differences}
