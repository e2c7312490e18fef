"""The GuanDan game state: rounds of tricks, finishing order, tribute, levels, the whole game to A.

Seats 0 -> 1 -> 2 -> 3 -> 0 take turns; partners sit opposite (0 + 2 against 1 + 3). A round (spec "A round"):

- **Phases**: ``"tribute"`` and ``"back"`` (from the second round, unless anti-tribute: ``tribute``), then
  ``"play"``; ``"over"`` once the game has ended. Actions: a ``Gift`` in the gift phases, a ``Play`` in play.
- **Tricks**: the leader plays any combination; each next seat still holding cards plays a combination that
  beats the last one (``Play.beats``) or passes. A trick ends when every other seat still holding cards has
  passed in a row after the last play; its last player leads the next trick — or, if that player has
  emptied its hand, its partner does (接风).
- **Finishing**: a seat that empties its hand leaves the turn order; the round ends as soon as both seats
  of one team have finished (so at the latest when three have). The seats still holding cards then take
  the last places in turn order after the last finisher. ``levels.settle`` scores the round, and the next
  round is dealt at once (``deal.DealSource``) unless the game is over.
- **Leaders**: the first round's leader is drawn from the seed; later rounds are led by the payer of the
  (higher) tribute, or by the previous 1st player when anti-tribute cancels the tribute (``tribute``).

For speed hands are packed integers (``cards.pack``) and plays are ``Play`` integers. ``legal_actions`` and
``apply`` are compiled where built (``_state_fast``, ``paiju.native``): a play taken from the position's legal
list is applied without checking it again; ``reference_legal_actions`` and ``reference_apply`` are the
methods written here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from paiju.core.errors import CardError, IllegalActionError
from paiju.core.game import State
from paiju.core.growing_json import GrowingEntries
from paiju.games.guandan.cards import COPIES, NUM_CARDS, UNIT, card_name, format_cards, level_name, unpack
from paiju.games.guandan.combos import PASS, Play, interpretations, play_from_platform
from paiju.games.guandan.deal import FULL_DECK, HAND_SIZE, Deal, DealSource, hand_size, holds
from paiju.games.guandan.legal import legal_plays
from paiju.games.guandan.levels import RoundOutcome, Standing, settle, team
from paiju.games.guandan.observation import Gifted, GuanDanObservation, frozen_form, platform_form
from paiju.games.guandan.rules import GuanDanRules
from paiju.games.guandan.tribute import (
    BACK,
    TRIBUTE,
    Gift,
    TributeRoles,
    anti_tribute,
    assign_tributes,
    back_cards,
    tribute_cards,
)
from paiju.native import fast

TRIBUTE_PHASE, BACK_PHASE, PLAY_PHASE, OVER = "tribute", "back", "play", "over"


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A finished round: the standing it was played at, its outcome, and its tribute, returns, anti-tribute."""

    standing: Standing
    outcome: RoundOutcome
    tribute: tuple[Gifted, ...]
    back: tuple[Gifted, ...]
    anti_tribute: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"level": level_name(self.standing.level), "order": list(self.outcome.order),
                "scores": list(self.outcome.scores), "levels": [level_name(x) for x in self.outcome.after.levels],
                "tribute": _gifts_json(self.tribute), "back": _gifts_json(self.back),
                "anti_tribute": list(self.anti_tribute)}


@lru_cache(maxsize=1 << 16)
def _reads_as(play: Play, level: int) -> bool:
    """Whether the cards of ``play`` read as its type and rank at ``level`` (cached: replays and searches check
    the same plays again and again)."""
    return play in interpretations(play.cards, level)


def _history_entry(entry: tuple[int, Play]) -> tuple[int, tuple[Any, ...]]:
    """A history entry as the protocol's ``obs`` writes it, ``[seat, platform form]``, in tuples."""
    seat, play = entry
    return seat, frozen_form(play)


def _gifts_json(gifts: tuple[Gifted, ...]) -> list[list[Any]]:
    """Gifts as the platform broadcasts them: ``[[giver, receiver, card name], ...]``."""
    return [[giver, receiver, card_name(card)] for giver, receiver, card in gifts]


class GuanDanState(State):
    """A GuanDan game in progress (mutable; ``clone`` copies).

    Attributes: ``rules``, ``source`` (the deals), ``start`` (the standing the game began from), ``standing``
    (the current round's), ``deals`` (one per round played), ``actions`` ((seat, Play | Gift) over the whole
    game), ``rounds`` (``RoundSummary`` of each finished round), ``winner`` (team that won the game at A);
    for the current round ``hands`` (packed), ``history`` ((seat, Play), passes included), ``finished``,
    ``tributes`` and ``backs`` ((giver, receiver, card) once exchanged), ``anti`` (anti-tribute payers).
    """

    game_name = "guandan"
    num_players = 4

    def __init__(self, rules: GuanDanRules, source: DealSource, standing: Standing | None = None) -> None:
        self.rules = rules
        self.source = source
        self.start = standing or Standing.opening(rules, source.first_leader)
        self.deals: list[Deal] = []
        self.actions: list[tuple[int, Play | Gift]] = []
        self.rounds: list[RoundSummary] = []
        self.winner: int | None = None
        self._history_json = GrowingEntries([], _history_entry)
        """The history's entries in platform form (``observation_json``)."""
        self._start_round(self.start)

    # -- rounds ------------------------------------------------------------------------------------

    def _start_round(self, standing: Standing) -> None:
        """Deal the round of ``standing``; open the tribute, or (first round, anti-tribute) the play."""
        self.standing = standing
        deal = self.source.deal(standing.round_number)
        self.deals.append(deal)
        self.hands = list(deal.hands)
        self.history: list[tuple[int, Play]] = []
        self.finished: list[int] = []
        self.tributes: tuple[Gifted, ...] = ()
        self.backs: tuple[Gifted, ...] = ()
        self.anti: tuple[int, ...] = ()
        self._sealed: list[tuple[int, int]] = []
        self._greater: Play | None = None
        self._greater_seat = -1
        self._passes = 0
        self._legal: list[Any] | None = None
        self._roles: TributeRoles | None = None
        self._givers: tuple[int, ...] = ()
        self._leader = -1
        """Who leads once the gifts are exchanged (known when the tribute is)."""
        if not standing.previous_order:
            self._open_play(standing.first_leader)
            return
        self._roles = TributeRoles.from_order(standing.previous_order)
        self.anti = anti_tribute(self.hands, self._roles.payers)
        if self.anti:
            self._open_play(standing.previous_order[0])
        else:
            self._phase = TRIBUTE_PHASE
            self._givers = self._roles.payers
            self._to_move = self._givers[0]

    def _open_play(self, leader: int) -> None:
        self._phase = PLAY_PHASE
        self._to_move = leader

    def _round_order(self) -> tuple[int, ...]:
        """The finishing order, the seats still holding cards last in turn order after the last finisher."""
        last = self.finished[-1]
        rest = [(last + k) % 4 for k in (1, 2, 3) if self.hands[(last + k) % 4]]
        return (*self.finished, *rest)

    def _end_round(self) -> None:
        outcome = settle(self.standing, self._round_order(), self.rules)
        self.rounds.append(RoundSummary(self.standing, outcome, self.tributes, self.backs, self.anti))
        if outcome.game_over:
            self.winner = outcome.game_winner
            self._phase = OVER
            self._legal = None
            return
        self._start_round(outcome.after)

    # -- the interface -----------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._to_move

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deal_number(self) -> int:
        """The round number (0-based): the match runner starts the agents again on each new round."""
        return self.standing.round_number

    @property
    def level(self) -> int:
        """The level this round is played at."""
        return self.standing.level

    @property
    def greater(self) -> tuple[int, Play] | None:
        """The play to beat and its player, or ``None`` when the seat to move leads."""
        return None if self._greater is None else (self._greater_seat, self._greater)

    @property
    def final_standing(self) -> Standing:
        """The standing after the last finished round (the start, before any)."""
        return self.rounds[-1].outcome.after if self.rounds else self.start

    def legal_actions(self) -> list[Any]:
        """Play phase: ``legal.legal_plays`` (the pass first when following); gift phases: one ``Gift`` per
        different legal card, in card order."""
        if self._legal is None:
            phase = self._phase
            hand = self.hands[self._to_move]
            if phase == PLAY_PHASE:
                self._legal = legal_plays(hand, self.standing.level, self._greater)
            elif phase == TRIBUTE_PHASE:
                self._legal = [Gift(TRIBUTE, card) for card in tribute_cards(hand, self.standing.level)]
            elif phase == BACK_PHASE:
                self._legal = [Gift(BACK, card) for card in back_cards(hand, self.standing.level)]
            else:
                self._legal = []
        return self._legal

    def apply(self, action: Any, seat: int | None = None) -> None:
        if self._phase == OVER:
            raise IllegalActionError("the game is over; no more actions")
        player = self._to_move
        if seat is not None and seat != player:
            raise IllegalActionError(f"seat {seat} acted out of turn: seat {player} is to {self._phase}")
        problem = self._play_problem(action) if self._phase == PLAY_PHASE else self._gift_problem(action)
        if problem:
            raise IllegalActionError(problem)
        if self._phase == PLAY_PHASE and action.packed == self.hands[player] and not self.hands[player ^ 2]:
            self._prepare_next_round(player)
        self.actions.append((player, action))
        self._legal = None
        if self._phase == PLAY_PHASE:
            self._play(player, action)
        else:
            self._give(player, action)

    def _prepare_next_round(self, player: int) -> None:
        """Before a round-ending play changes anything, make sure the next round can be dealt."""
        last = (*self.finished, player)
        rest = [(player + k) % 4 for k in (1, 2, 3) if (player + k) % 4 not in last]
        if not settle(self.standing, (*last, *rest), self.rules).game_over:
            self.source.deal(self.standing.round_number + 1)

    def _play(self, player: int, play: Play) -> None:
        self.history.append((player, play))
        hands = self.hands
        if play == PASS:
            self._passes += 1
            top = self._greater_seat
            active = sum(1 for hand in hands if hand)
            if self._passes >= (active - 1 if hands[top] else active):
                self._greater = None
                self._passes = 0
                self._to_move = top if hands[top] else top ^ 2
            else:
                self._to_move = self._next_active(player)
            return
        hands[player] -= play.packed
        self._greater = play
        self._greater_seat = player
        self._passes = 0
        if not hands[player]:
            self.finished.append(player)
            if not hands[player ^ 2]:
                self._end_round()
                return
        self._to_move = self._next_active(player)

    def _next_active(self, seat: int) -> int:
        """The next seat after ``seat`` in turn order that still holds cards."""
        hands = self.hands
        for step in (1, 2, 3):
            other = (seat + step) & 3
            if hands[other]:
                return other
        raise AssertionError("no seat holds cards in a round that is not over")

    def _give(self, player: int, gift: Gift) -> None:
        """Seal a gift; once the phase's last one is sealed, exchange them all at once."""
        self._sealed.append((player, gift.card))
        if len(self._sealed) < len(self._givers):
            self._to_move = self._givers[len(self._sealed)]
            return
        level = self.standing.level
        roles = self._roles
        assert roles is not None
        if self._phase == TRIBUTE_PHASE:
            gifts, self._leader = assign_tributes(roles, self._sealed, level)
            self.tributes = tuple(gifts)
            self._phase = BACK_PHASE
            self._givers = roles.receivers
            self._to_move = self._givers[0]
        else:
            payer_of = {receiver: payer for payer, receiver, _ in self.tributes}
            gifts = [(giver, payer_of[giver], card) for giver, card in self._sealed]
            self.backs = tuple(gifts)
            self._open_play(self._leader)
        for giver, receiver, card in gifts:
            self.hands[giver] -= UNIT[card]
            self.hands[receiver] += UNIT[card]
        self._sealed = []

    # -- refusals ----------------------------------------------------------------------------------

    def _play_problem(self, play: Any) -> str | None:
        """Why ``play`` is not legal for the seat to move, or ``None`` when it is: held, a reading of its
        cards at this level, and (following) a pass or a play that beats the one to beat."""
        seat = self._to_move
        if not isinstance(play, Play):
            return f"seat {seat} must play a combination (a Play) in the play phase, got {play!r}"
        greater = self._greater
        level = self.standing.level
        if play == PASS:
            return f"seat {seat} leads the trick and may not pass" if greater is None else None
        hand = self.hands[seat]
        if not holds(hand, play.packed):
            return (f"seat {seat} does not hold {' '.join(format_cards(play.cards))} "
                    f"(hand: {' '.join(format_cards(unpack(hand)))})")
        if not _reads_as(play, level):
            return f"{play.to_platform()} is not a reading of its cards at level {level_name(level)}"
        if greater is not None and not play.beats(greater, level):
            return (f"seat {seat}'s {play.to_platform()} does not beat {greater.to_platform()} played by seat "
                    f"{self._greater_seat} at level {level_name(level)}")
        return None

    def _gift_problem(self, gift: Any) -> str | None:
        """Why ``gift`` is not legal for the seat to move in this gift phase, or ``None`` when it is."""
        seat = self._to_move
        phase = self._phase
        if not isinstance(gift, Gift):
            return f"seat {seat} must give a card (Gift({phase!r}, card)) in the {phase} phase, got {gift!r}"
        if gift.kind != phase:
            return f"seat {seat} must give a {phase} card in the {phase} phase, not a {gift.kind} card"
        hand = self.hands[seat]
        name = card_name(gift.card)
        if not (hand >> (2 * gift.card)) & 3:
            return f"seat {seat} does not hold {name} (hand: {' '.join(format_cards(unpack(hand)))})"
        level = self.standing.level
        if phase == TRIBUTE_PHASE:
            allowed = tribute_cards(hand, level)
            if gift.card not in allowed:
                return (f"seat {seat} must pay its highest single card other than a wild card "
                        f"({' or '.join(map(card_name, allowed))}) at level {level_name(level)}, not {name}")
            return None
        allowed = back_cards(hand, level)
        if gift.card not in allowed:
            return f"seat {seat} must return a card of rank 10 or lower, not {name}"
        return None

    # -- views -------------------------------------------------------------------------------------

    def observation(self, seat: int) -> GuanDanObservation:
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"a GuanDan seat is 0-3, got {seat!r}")
        standing = self.standing
        side = team(seat)
        return GuanDanObservation(
            seat=seat, phase=self._phase, hand=self.hands[seat], level=standing.level,
            self_level=standing.levels[side], oppo_level=standing.levels[1 - side],
            round_number=standing.round_number, history=tuple(self.history), greater=self.greater,
            cards_left=tuple(hand_size(hand) for hand in self.hands),  # type: ignore[arg-type]
            finished=tuple(self.finished), tribute=self.tributes, back=self.backs, anti_tribute=self.anti,
            rules=self.rules, to_move=self.current_player, previous_order=standing.previous_order,
            a_failures=standing.a_failures, team_scores=standing.team_scores)

    def observation_json(self, seat: int) -> dict[str, Any]:
        """``observation(seat).to_json()`` with shared tuples: its history's entries, each built once."""
        self._history_json = self._history_json.following(self.history)
        return self.observation(seat).to_json(self._history_json.entries())

    def hand(self, seat: int) -> list[str]:
        """The platform names of the cards ``seat`` holds, in card order."""
        return format_cards(unpack(self.hands[seat]))

    def perfect_view(self) -> dict[str, Any]:
        greater = self.greater
        return {"hands": [self.hand(seat) for seat in range(4)], "phase": self._phase,
                "to_move": self.current_player, "round": self.standing.round_number,
                "level": level_name(self.standing.level), "levels": [level_name(x) for x in self.standing.levels],
                "history": [[seat, play.to_platform()] for seat, play in self.history],
                "greater": None if greater is None else [greater[0], greater[1].to_platform()],
                "finished": list(self.finished), "sealed": [[seat, card_name(card)] for seat, card in self._sealed],
                "tribute": _gifts_json(self.tributes), "back": _gifts_json(self.backs),
                "anti_tribute": list(self.anti)}

    def invariant_errors(self) -> list[str]:
        """The 108 cards are in the hands or among this round's plays, each exactly twice (sealed gifts stay in
        their giver's hand until exchanged); each hand holds 27 cards plus what it received, less what it gave
        and played; finished seats hold nothing; levels are ranks 2..A."""
        problems = []
        plays = [play for _, play in self.history]
        total = sum(self.hands) + sum(play.packed for play in plays)
        if total != FULL_DECK or sum(map(hand_size, self.hands)) + sum(play.size for play in plays) != 2 * NUM_CARDS:
            # Equal packed sums and equal card counts mean every card twice: a carry between 2-bit fields
            # would add cards. Only a failure needs the card by card count.
            counts = Counter(card for hand in (*self.hands, *(play.packed for play in plays)) for card in unpack(hand))
            wrong = [card for card in range(NUM_CARDS) if counts[card] != COPIES]
            problems.append("cards not conserved: " + ", ".join(f"{card_name(c)} x{counts[c]}" for c in wrong))
        expected = [HAND_SIZE] * 4
        for giver, receiver, _ in self.tributes + self.backs:
            expected[giver] -= 1
            expected[receiver] += 1
        for seat, play in self.history:
            expected[seat] -= play.size
        sizes = [hand_size(hand) for hand in self.hands]
        if sizes != expected:
            problems.append(f"hand sizes {sizes} disagree with the deal, gifts and plays ({expected})")
        if any(self.hands[seat] for seat in self.finished):
            problems.append(f"a finished seat still holds cards (finished: {self.finished})")
        for seat, card in self._sealed:
            if not (self.hands[seat] >> (2 * card)) & 3:
                problems.append(f"seat {seat} sealed {card_name(card)} as a gift but does not hold it")
        if not all(0 <= level <= 12 for level in (*self.standing.levels, self.standing.level)):
            problems.append(f"levels out of range: {self.standing}")
        return problems

    def clone(self) -> GuanDanState:
        other = object.__new__(GuanDanState)
        other.__dict__.update(self.__dict__)
        other.deals = self.deals.copy()
        other.actions = self.actions.copy()
        other.rounds = self.rounds.copy()
        other.hands = self.hands.copy()
        other.history = self.history.copy()
        other.finished = self.finished.copy()
        other._sealed = self._sealed.copy()
        return other

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def payoffs(self) -> list[float]:
        """``rounds=None``: +1 for each seat of the team that won the game at A, -1 for the others. A fixed
        number of rounds: each seat's team's sum of round results (+3 / +2 / +1 for a round's winners, the
        negative for the others)."""
        if self._phase != OVER:
            raise ValueError("payoffs are defined only once the game is over")
        if self.rules.rounds is None:
            return [1.0 if team(seat) == self.winner else -1.0 for seat in range(4)]
        scores = self.final_standing.team_scores
        return [float(scores[team(seat)]) for seat in range(4)]

    def result(self) -> dict[str, Any]:
        """Payoffs; ``winner`` (the team that won the game at A — 0 for seats 0 and 2, 1 for seats 1 and 3 —
        or ``None``); the final ``levels`` and ``team_scores`` (by team); and each round's level, finishing
        order, round scores, levels after it, tribute, returns and anti-tribute."""
        final = self.final_standing
        return {"payoffs": self.payoffs(), "winner": self.winner,
                "levels": [level_name(level) for level in final.levels], "team_scores": list(final.team_scores),
                "rounds": [summary.to_json() for summary in self.rounds]}

    # -- records -----------------------------------------------------------------------------------

    def action_seen_by(self, viewer: int, seat: int, action: Play | Gift) -> Any:
        """A gift is sealed, seen only by its giver, until every gift of its phase is chosen (the platform
        announces them all at once); plays are public."""
        if isinstance(action, Gift) and viewer != seat and self._phase == action.kind:
            return None
        return self.action_to_json(action)

    def action_from_json(self, value: Any) -> Play | Gift:
        """A play ``[type, rank, cards]`` or a gift ``["tribute", "tribute", [card]]`` (platform form), read
        at this round's level; whether it is legal is ``apply``'s question."""
        if isinstance(value, list | tuple) and value and value[0] in (TRIBUTE, BACK):
            return Gift.from_platform(value)
        try:
            return play_from_platform(value, None, self.standing.level)
        except CardError as error:
            raise IllegalActionError(str(error)) from None

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "game": self.game_name, "format": 1, "seed": self.source.seed, "rotation": self.source.rotation,
            "rules": self.rules.to_json(), "start": self.start.to_json(),
            "deals": [deal.to_json() for deal in self.deals],
            "actions": [[seat, platform_form(action)] for seat, action in self.actions],
        }
        if self._phase == OVER:
            record["result"] = self.result()
        return record


reference_legal_actions = GuanDanState.legal_actions
reference_apply = GuanDanState.apply
GuanDanState.legal_actions = fast(  # type: ignore[method-assign]
    "paiju.games.guandan._state_fast", "legal_actions", reference_legal_actions)
GuanDanState.apply = fast("paiju.games.guandan._state_fast", "apply", reference_apply)  # type: ignore[method-assign]
