"""The Gongzhu game state: tricks, following suit, collecting scoring cards, scoring (``shared/specs/gongzhu.md``).

Seats 0-3 play clockwise (0 -> 1 -> 2 -> 3); partners sit opposite (0+2 against 1+3). ``rules.first_leader``
leads the first trick with any card; the others must follow the led suit if they can, otherwise play any card.
There are no trumps: the highest card of the led suit wins the trick, its winner collects the scoring cards
in it and leads the next one. After 13 tricks each seat scores what it collected (``scoring``).

For speed the state keeps hands and collected cards as card masks (``cards``); actions are card names.
"""

from __future__ import annotations

from typing import Any

from paiju.core.errors import CardError, IllegalActionError
from paiju.core.game import State
from paiju.core.growing_json import GrowingEntries
from paiju.games.gongzhu.cards import (
    CARD_INDEX,
    CARD_NAMES,
    FULL_MASK,
    SUIT_BITS,
    SUIT_CARDS,
    SUIT_NAMES,
    SUITS,
    cards_of,
    parse_card,
)
from paiju.games.gongzhu.deal import HAND_SIZE, GongzhuDeal
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.rules import GongzhuRules
from paiju.games.gongzhu.scoring import SCORING_MASK, mask_score, seat_results, team_scores
from paiju.native import fast

TRICKS = 13


def _play_entry(entry: tuple[int, int]) -> tuple[int, str]:
    """A play as the protocol's ``obs`` writes it, ``[seat, card name]``, as a tuple."""
    seat, card = entry
    return seat, CARD_NAMES[card]


class GongzhuState(State):
    """A Gongzhu game in progress (mutable; ``clone`` copies).

    Attributes: ``hands`` (each seat's cards, as masks), ``taken`` (each seat's collected scoring cards, as
    masks), ``actions`` ((seat, card index) in play order), ``trick`` (card indices of the trick in progress),
    ``leader`` (seat leading it), ``winners`` (winner of each completed trick), ``deal``, ``rules``, ``seed``,
    ``rotation`` (seats the deal drawn from ``seed`` was rotated by).
    """

    game_name = "gongzhu"
    num_players = 4

    def __init__(self, rules: GongzhuRules, deal: GongzhuDeal, seed: int | None = None, rotation: int = 0) -> None:
        self.rules = rules
        self.deal = deal
        self.seed = seed
        self.rotation = rotation
        self.hands = deal.masks()
        self.taken = [0, 0, 0, 0]
        self.actions: list[tuple[int, int]] = []
        self._plays_json = GrowingEntries(self.actions, _play_entry)
        """The plays as the protocol writes them (``observation_json``)."""
        self.trick: list[int] = []
        self.winners: list[int] = []
        self.leader = rules.first_leader
        self.to_move = rules.first_leader
        self.over = False

    # -- the interface -----------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.to_move

    @property
    def phase(self) -> str:
        return "over" if self.over else "play"

    def legal_mask(self) -> int:
        """The current player's legal cards as a mask: the led suit if it holds any, else its whole hand."""
        if self.over:
            return 0
        hand = self.hands[self.to_move]
        if self.trick:
            shift = 13 * (self.trick[0] // 13)
            following = hand & (SUIT_BITS << shift)
            if following:
                return following
        return hand

    def legal_actions(self) -> list[str]:
        """The legal cards' names in card order."""
        if self.over:
            return []
        hand = self.hands[self.to_move]
        if self.trick:
            suit = self.trick[0] // 13
            bits = (hand >> (13 * suit)) & SUIT_BITS
            if bits:
                return list(SUIT_CARDS[suit][bits])
        return list(cards_of(hand))

    def apply(self, action: Any, seat: int | None = None) -> None:
        if self.over:
            raise IllegalActionError("the game is over; no more cards can be played")
        if seat is not None and seat != self.to_move:
            raise IllegalActionError(f"seat {seat} played out of turn: seat {self.to_move} is to play")
        card = CARD_INDEX.get(action) if isinstance(action, str) else None
        if card is None:
            card = CARD_INDEX[self.action_from_json(action)]
        if not self.legal_mask() >> card & 1:
            raise IllegalActionError(self._why_illegal(card))
        self.play(card)

    def play(self, card: int) -> None:
        """Play card index ``card`` for the current player without checking it (search uses ``legal_mask``)."""
        player = self.to_move
        self.hands[player] &= ~(1 << card)
        self.actions.append((player, card))
        trick = self.trick
        trick.append(card)
        if len(trick) < 4:
            self.to_move = (player + 1) & 3
            return
        led = trick[0] // 13
        best, position = trick[0], 0
        for index in (1, 2, 3):
            other = trick[index]
            if other > best and other // 13 == led:
                best, position = other, index
        winner = (self.leader + position) & 3
        self.taken[winner] |= ((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])) & SCORING_MASK
        self.winners.append(winner)
        self.trick = []
        self.leader = self.to_move = winner
        self.over = len(self.winners) == TRICKS

    def _why_illegal(self, card: int) -> str:
        seat = self.to_move
        name = CARD_NAMES[card]
        if not self.hands[seat] >> card & 1:
            return f"seat {seat} does not hold {name} (hand: {' '.join(cards_of(self.hands[seat]))})"
        suit = self.trick[0] // 13
        held = self.hands[seat] & (SUIT_BITS << (13 * suit))
        return (f"seat {seat} must follow {SUIT_NAMES[SUITS[suit]]} (led by seat {self.leader} with "
                f"{CARD_NAMES[self.trick[0]]}) and holds {' '.join(cards_of(held))}; {name} is not allowed")

    def observation(self, seat: int) -> GongzhuObservation:
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"a Gongzhu seat is 0-3, got {seat!r}")
        plays = tuple((player, CARD_NAMES[card]) for player, card in self.actions)
        done = 4 * len(self.winners)
        return GongzhuObservation(
            seat=seat, phase=self.phase, hand=cards_of(self.hands[seat]), leader=self.leader, trick=plays[done:],
            history=plays[:done], taken=tuple(cards_of(mask) for mask in self.taken), rules=self.rules)

    def observation_json(self, seat: int) -> dict[str, Any]:
        """``observation(seat).to_json()`` with shared tuples: the entries of its trick and history (the plays so far),
        each built once."""
        self._plays_json = self._plays_json.following(self.actions)
        plays, done = self._plays_json.entries(), 4 * len(self.winners)
        return self.observation(seat).to_json(plays[done:], plays[:done])

    def hand(self, seat: int) -> tuple[str, ...]:
        """The cards ``seat`` holds, in card order."""
        return cards_of(self.hands[seat])

    def invariant_errors(self) -> list[str]:
        """One deck in all (hands and played cards, no card twice); each seat holds 13 cards less the cards it
        played; the trick holds the plays after the last completed trick; collected cards came from won tricks."""
        problems = []
        seen = 0
        for seat, hand in enumerate(self.hands):
            if seen & hand:
                problems.append(f"seat {seat}'s hand repeats {' '.join(cards_of(seen & hand))}")
            seen |= hand
        played = [0, 0, 0, 0]
        for seat, card in self.actions:
            if seen >> card & 1:
                problems.append(f"{CARD_NAMES[card]} is played by seat {seat} and also held or played elsewhere")
            seen |= 1 << card
            played[seat] += 1
        if seen != FULL_MASK:
            problems.append(f"cards not conserved: missing {' '.join(cards_of(FULL_MASK & ~seen))}")
        sizes = [hand.bit_count() for hand in self.hands]
        if sizes != [HAND_SIZE - n for n in played]:
            problems.append(f"hand sizes {sizes} disagree with the cards played {played}")
        if [card for _, card in self.actions[4 * len(self.winners):]] != self.trick:
            problems.append("the trick in progress is not the plays after the last completed trick")
        collected = 0
        for seat, mask in enumerate(self.taken):
            if collected & mask:
                problems.append(f"seat {seat} collected cards another seat also collected")
            collected |= mask
        won = 0
        for _, card in self.actions[: 4 * len(self.winners)]:
            won |= 1 << card
        if collected != won & SCORING_MASK:
            problems.append("collected scoring cards are not those of the completed tricks")
        return problems

    def perfect_view(self) -> dict[str, Any]:
        observation = self.observation(self.to_move)
        return {"hands": [list(cards_of(hand)) for hand in self.hands], "to_move": self.current_player,
                "phase": self.phase, "leader": self.leader, "trick": [list(p) for p in observation.trick],
                "history": [list(p) for p in observation.history], "taken": [list(t) for t in observation.taken]}

    def clone(self) -> GongzhuState:
        other = object.__new__(GongzhuState)
        other.__dict__.update(self.__dict__)
        other.hands = self.hands.copy()
        other.taken = self.taken.copy()
        other.actions = self.actions.copy()
        other.trick = self.trick.copy()
        other.winners = self.winners.copy()
        return other

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        """Each seat's score from the scoring cards it has collected so far (``scoring.mask_score``)."""
        return [mask_score(mask) for mask in self.taken]

    def payoffs(self) -> list[float]:
        """Each seat gets its team's result: team score minus the other team's (partners 0+2 and 1+3)."""
        if not self.over:
            raise ValueError("payoffs are defined only once the game is over")
        return [float(result) for result in seat_results(self.scores())]

    def result(self) -> dict[str, Any]:
        scores = self.scores()
        return {"payoffs": self.payoffs(), "scores": scores, "team_scores": list(team_scores(scores)),
                "taken": [list(cards_of(mask)) for mask in self.taken]}

    # -- records -----------------------------------------------------------------------------------

    def action_from_json(self, value: Any) -> str:
        """A card name from its JSON form (a string; case is ignored)."""
        try:
            return parse_card(value)
        except CardError as error:
            raise IllegalActionError(str(error)) from None

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "game": self.game_name, "format": 1, "seed": self.seed, "rotation": self.rotation,
            "rules": self.rules.to_json(), "deals": [self.deal.to_json()],
            "actions": [[seat, CARD_NAMES[card]] for seat, card in self.actions],
        }
        if self.over:
            record["result"] = self.result()
        return record


# The hot methods, compiled where built (``_state_fast``); the reference methods stay reachable by these names.
reference_legal_mask = GongzhuState.legal_mask
reference_legal_actions = GongzhuState.legal_actions
reference_apply = GongzhuState.apply
reference_play = GongzhuState.play
reference_observation = GongzhuState.observation
GongzhuState.legal_mask = fast("paiju.games.gongzhu._state_fast", "legal_mask", reference_legal_mask)  # type: ignore[method-assign]
GongzhuState.legal_actions = fast("paiju.games.gongzhu._state_fast", "legal_actions", reference_legal_actions)  # type: ignore[method-assign]
GongzhuState.apply = fast("paiju.games.gongzhu._state_fast", "apply", reference_apply)  # type: ignore[method-assign]
GongzhuState.play = fast("paiju.games.gongzhu._state_fast", "play", reference_play)  # type: ignore[method-assign]
GongzhuState.observation = fast("paiju.games.gongzhu._state_fast", "observation", reference_observation)  # type: ignore[method-assign]
