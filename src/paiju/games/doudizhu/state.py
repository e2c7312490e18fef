"""The DouDizhu game state: dealing, bidding, play, scoring (``shared/specs/doudizhu.md``).

Seats 0, 1, 2 play in that order. In research mode seat 0 is the landlord and play starts at once; in
full mode each seat bids once from the seeded first bidder (0 = pass, otherwise above the highest bid so
far; a 3 ends bidding), the highest bidder becomes landlord, takes the three public cards and leads. If
all pass, the deal is void and a new one is drawn from the same seeded generator.

癞子 (``DouDizhuRules.laizi``): each deal also draws its wild rank(s) from the seeded generator, after the cards;
seats see them once there is a landlord, and plays follow ``wild``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from paiju.core.errors import IllegalActionError, RecordError
from paiju.core.game import State
from paiju.core.growing_json import GrowingEntries
from paiju.games.doudizhu import wild as laizi
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS, TWO, contains, format_cards, pack, parse_cards
from paiju.games.doudizhu.movegen import legal_moves
from paiju.games.doudizhu.moves import Category, Move, forget_substituted, interpretations, parse_move
from paiju.games.doudizhu.observation import DouDizhuObservation
from paiju.games.doudizhu.rules import DouDizhuRules

BIDS = (0, 1, 2, 3)
DECK = [rank for rank, copies in enumerate(FULL_DECK) for _ in range(copies)]
_PASS, _BOMB = Category.PASS, Category.BOMB  # bound once: a class-attribute lookup costs on every play
_CARDS_OF: dict[Move, tuple[tuple[int, int], ...]] = {}
"""The (rank, count) pairs of a play's cards, by play (moves are interned: one entry per distinct play)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Three 17-card hands, the three public (landlord) cards, who bids first (research: landlord), and the wild
    ranks (癞子 only; rank indices, low to high)."""

    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    public: tuple[int, ...]
    first_bidder: int
    wild: tuple[int, ...] = ()

    @classmethod
    def draw(cls, rng: random.Random, research: bool, wild_ranks: int = 0) -> Deal:
        """A shuffled deal; ``wild_ranks`` distinct wild ranks among 3..2 drawn after the cards (癞子)."""
        deck = DECK.copy()
        rng.shuffle(deck)
        hands = tuple(_counts(deck[17 * i: 17 * (i + 1)]) for i in range(3))
        first = 0 if research else rng.randrange(3)
        wild = tuple(sorted(rng.sample(range(TWO + 1), wild_ranks))) if wild_ranks else ()
        return cls(hands, _counts(deck[51:]), first, wild)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        return {"hands": [format_cards(h) for h in self.hands], "public": format_cards(self.public),
                "first_bidder": self.first_bidder} | ({"wild": format_cards(_ranks(self.wild))} if self.wild else {})

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Deal:
        hands = tuple(tuple(parse_cards(h)) for h in value["hands"])
        public = tuple(parse_cards(value["public"]))
        wild = parse_cards(value.get("wild", ""))
        deal = cls(hands, public, int(value["first_bidder"]),  # type: ignore[arg-type]
                   tuple(r for r, n in enumerate(wild) if n))
        if any(n > 1 for n in wild) or any(wild[TWO + 1:]):
            raise ValueError(f"wild ranks are distinct ranks 3..2, got {value['wild']!r}")
        deal.validate()
        return deal

    def validate(self) -> None:
        """Raises ``ValueError`` unless the hands and public cards are exactly one deck, 17/17/17/3."""
        sizes = [sum(h) for h in self.hands] + [sum(self.public)]
        if len(self.hands) != 3 or sizes != [17, 17, 17, 3]:
            raise ValueError(f"a deal is three hands of 17 cards and 3 public cards, got sizes {sizes}")
        deck = [sum(h[r] for h in self.hands) + self.public[r] for r in range(NUM_RANKS)]
        if tuple(deck) != FULL_DECK:
            raise ValueError(f"a deal must hold one 54-card deck, got {format_cards(deck)}")
        if self.first_bidder not in (0, 1, 2):
            raise ValueError(f"first bidder must be a seat 0-2, got {self.first_bidder}")


def _ranks(ranks: tuple[int, ...]) -> list[int]:
    """Counts holding one card of each of ``ranks`` (how wild ranks are written)."""
    return [int(r in ranks) for r in range(NUM_RANKS)]


def _counts(ranks: list[int]) -> tuple[int, ...]:
    counts = [0] * NUM_RANKS
    for rank in ranks:
        counts[rank] += 1
    return tuple(counts)


def _history_entry(entry: tuple[int, Move]) -> tuple[int, str]:
    """A history entry as the protocol's ``obs`` writes it, ``[seat, cards]``, as a tuple."""
    seat, move = entry
    return seat, move.notation


class DouDizhuState(State):
    """A DouDizhu game in progress (mutable; ``clone`` copies)."""

    game_name = "doudizhu"
    num_players = 3

    def __init__(self, rules: DouDizhuRules, deal: Deal, seed: int | None = None,
                 rng: random.Random | None = None, queued_deals: list[Deal] | None = None,
                 voided_before: int = 0) -> None:
        self.rules = rules
        self.seed = seed
        self.voided_before = voided_before
        """Deals passed by all before this state's first one (a state rebuilt from an observation)."""
        self._rng = rng
        self._queued_deals = list(queued_deals or [])
        self.deals: list[Deal] = []
        self.actions: list[tuple[int, int | Move]] = []
        self._history_json = GrowingEntries([], _history_entry)
        """The history's entries as the protocol writes them (``observation_json``)."""
        _check_wild(deal, rules)
        self._start_deal(deal)

    # -- setup -------------------------------------------------------------------------------------

    def _start_deal(self, deal: Deal) -> None:
        self.deals.append(deal)
        self.hands = [list(h) for h in deal.hands]
        self.bids: list[tuple[int, int]] = []
        self.history: list[tuple[int, Move]] = []
        self.landlord: int | None = None
        self.bid = 0
        self.bombs = 0
        self.bomb_factor = 1
        """The product of the factors of the bombs and rockets played (``DouDizhuRules.bomb_multipliers``)."""
        self.plays = [0, 0, 0]
        self.winner: int | None = None
        self._to_move = deal.first_bidder
        self._follow: Move | None = None
        self._follow_seat: int | None = None
        self._passes = 0
        self._legal: list[Any] | None = None
        if self.rules.mode == "research":
            self._make_landlord(deal.first_bidder, 1)
            self._phase = "play"
        else:
            self._phase = "bid"

    def _make_landlord(self, seat: int, bid: int) -> None:
        self.landlord = seat
        self.bid = bid
        public = self.deals[-1].public
        self.hands[seat] = [a + b for a, b in zip(self.hands[seat], public, strict=True)]
        self._to_move = seat

    def _redeal(self) -> None:
        if self._queued_deals:
            deal = self._queued_deals.pop(0)
            _check_wild(deal, self.rules)
        elif self._rng is not None:
            deal = Deal.draw(self._rng, False, self.rules.wild_count)
        else:
            raise IllegalActionError("all seats passed and this state has no seeded generator to redeal from")
        self._start_deal(deal)

    # -- the interface -----------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == "over" else self._to_move

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deal_number(self) -> int:
        return len(self.deals) - 1

    @property
    def voided(self) -> int:
        """Deals passed by all so far (``DouDizhuRules.redeal_limit``)."""
        return self.voided_before + len(self.deals) - 1

    @property
    def wild(self) -> tuple[int, ...]:
        """The deal's wild ranks (癞子; ``()`` in the classic game)."""
        return self.deals[-1].wild

    @property
    def follow(self) -> Move | None:
        """The play the current player must beat, or None when leading."""
        return self._follow

    def legal_actions(self) -> list[Any]:
        legal = self._legal
        if legal is None:
            phase = self._phase
            if phase == "play":
                wild = self.deals[-1].wild
                if wild:
                    forget_substituted()
                    legal = laizi.legal_moves(self.hands[self._to_move], self._follow, wild, self.rules)
                else:
                    legal = legal_moves(self.hands[self._to_move], self._follow, self.rules)
            elif phase == "bid":
                highest = max((b for _, b in self.bids), default=0)
                legal = [0] + [b for b in BIDS if b > highest]
            else:
                legal = []
            self._legal = legal
        return legal

    def apply(self, action: Any, seat: int | None = None) -> None:
        phase = self._phase
        if phase == "over":
            raise IllegalActionError("the game is over; no more actions")
        player = self._to_move
        if seat is not None and seat != player:
            raise IllegalActionError(f"seat {seat} acted out of turn: seat {player} is to {phase}")
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if isinstance(action, bool) or action not in legal:
            action = self._same_play(action, legal)
        self.actions.append((player, action))
        self._legal = None
        if phase == "play":
            self._apply_play(player, action)
        else:
            self._apply_bid(player, action)

    def _same_play(self, action: Any, legal: list[Any]) -> Any:
        """The legal play equal to ``action`` (a 癞子 play made again after ``moves.forget_substituted``), or the
        reason ``action`` is illegal, raised."""
        if isinstance(action, Move) and action.stands_for:
            for move in legal:
                if move.key == action.key:
                    return move
        raise IllegalActionError(self._why_illegal(action))

    def _apply_bid(self, player: int, bid: int) -> None:
        self.bids.append((player, bid))
        highest_seat, highest = max(self.bids, key=lambda sb: sb[1])
        if bid == 3 or len(self.bids) == 3:
            if highest == 0:
                limit = self.rules.redeal_limit
                if limit is None or self.voided < limit:
                    self._redeal()
                    return
                highest_seat, highest = self.deals[-1].first_bidder, 1  # the redeal limit: the first bidder plays
            self._make_landlord(highest_seat, highest)
            self._phase = "play"
            return
        self._to_move = (player + 1) % 3

    def _apply_play(self, player: int, move: Move) -> None:
        self.history.append((player, move))
        category = move.category
        if category is _PASS:
            self._passes += 1
            if self._passes == 2:  # both others passed: the last player to play leads anew
                self._follow = None
                self._follow_seat = None
            self._to_move = (player + 1) % 3
            return
        hand = self.hands[player]
        cards = _CARDS_OF.get(move)
        if cards is None:
            cards = tuple((rank, n) for rank, n in enumerate(move.counts) if n)
            if not move.stands_for:  # 癞子 plays that substitute are too many to keep
                _CARDS_OF[move] = cards
        for rank, n in cards:
            hand[rank] -= n
        self.plays[player] += 1
        if category >= _BOMB:
            self.bombs += 1
            self.bomb_factor *= 2 if category is not _BOMB or not self.rules.laizi else \
                self.rules.bomb_multipliers[move.tier]
        self._passes = 0
        self._follow = move
        self._follow_seat = player
        if not any(hand):
            self.winner = player
            self._phase = "over"
            return
        self._to_move = (player + 1) % 3

    def _why_illegal(self, action: Any) -> str:
        seat = self._to_move
        if self._phase == "bid":
            highest = max((b for _, b in self.bids), default=0)
            if not isinstance(action, int) or isinstance(action, bool) or action not in BIDS:
                return f"seat {seat} must bid 0, 1, 2 or 3, got {action!r}"
            return f"seat {seat} bid {action}, which is not above the highest bid so far ({highest}); bid 0 to pass"
        if not isinstance(action, Move):
            return f"seat {seat} must play a DouDizhu Move in the play phase, got {action!r}"
        if action.is_pass:
            return f"seat {seat} leads and may not pass"
        if not contains(pack(self.hands[seat]), action.packed):
            return f"seat {seat} does not hold {action.cards!r} (hand {format_cards(self.hands[seat])!r})"
        if not self.rules.laizi and action not in interpretations(action.counts, self.rules):
            return f"{action!r} is not a valid interpretation of {action.cards!r} under these rules"
        if self._follow is not None:
            return f"{action.notation!r} ({action.label}) does not beat {self._follow.notation!r} " \
                   f"({self._follow.label}) played by seat {self._follow_seat}"
        return f"{action!r} is not a legal lead"

    def observation_json(self, seat: int) -> dict[str, Any]:
        """``observation(seat).to_json()`` with shared tuples: the bids themselves (``(seat, bid)``), and the history's
        entries, each built once."""
        self._history_json = self._history_json.following(self.history)
        return self.observation(seat).to_json(self.bids.copy(), self._history_json.entries())

    def observation(self, seat: int) -> DouDizhuObservation:
        public = self.deals[-1].public if self.landlord is not None else None
        return DouDizhuObservation(
            seat=seat, phase=self._phase, hand=tuple(self.hands[seat]), landlord=self.landlord,
            public=public, first_bidder=self.deals[-1].first_bidder, bids=tuple(self.bids),
            history=tuple(self.history), cards_left=tuple(sum(h) for h in self.hands),  # type: ignore[arg-type]
            multiplier=self.multiplier, follow=self._follow, follow_seat=self._follow_seat, rules=self.rules,
            voided=self.voided if self.rules.redeal_limit is not None else 0,
            wild=self.deals[-1].wild if self.landlord is not None else ())

    @property
    def multiplier(self) -> int:
        """The bombs' and rockets' factors (2 each in the classic game), doubled once more for a spring at the end."""
        return self.bomb_factor * (2 if self.spring else 1)

    @property
    def spring(self) -> bool:
        """Full mode only: the peasants never played (spring) or the landlord played once (anti-spring)."""
        if self.rules.mode != "full" or self.winner is None or self.landlord is None:
            return False
        if self.winner == self.landlord:
            return all(self.plays[s] == 0 for s in range(3) if s != self.landlord)
        return self.plays[self.landlord] == 1

    def invariant_errors(self) -> list[str]:
        """One deck in all: hands plus played cards plus (before a landlord) the public cards."""
        problems = []
        cards = [sum(h[r] for h in self.hands) for r in range(NUM_RANKS)]
        for _, move in self.history:
            cards = [a + b for a, b in zip(cards, move.counts, strict=True)]
        if self.landlord is None:
            cards = [a + b for a, b in zip(cards, self.deals[-1].public, strict=True)]
        if tuple(cards) != FULL_DECK:
            problems.append(f"cards not conserved: hands + played = {format_cards(cards)}")
        if any(n < 0 for h in self.hands for n in h):
            problems.append("a hand holds a negative count")
        return problems

    def perfect_view(self) -> dict[str, Any]:
        return {"hands": [format_cards(h) for h in self.hands], "landlord": self.landlord,
                "public": format_cards(self.deals[-1].public), "to_move": self.current_player,
                "phase": self._phase, "bids": [list(b) for b in self.bids],
                "history": [[s, m.notation] for s, m in self.history]} | (
                    {"wild": format_cards(_ranks(self.wild))} if self.rules.laizi else {})

    def clone(self) -> DouDizhuState:
        other = object.__new__(DouDizhuState)
        other.__dict__.update(self.__dict__)
        other.hands = [h.copy() for h in self.hands]
        other.bids = self.bids.copy()
        other.history = self.history.copy()
        other.plays = self.plays.copy()
        other.deals = self.deals.copy()
        other.actions = self.actions.copy()
        other._queued_deals = self._queued_deals.copy()
        if self._rng is not None:  # a generator in the same state; seeding it with 0 skips drawing OS entropy
            other._rng = random.Random.__new__(random.Random, 0)
            other._rng.setstate(self._rng.getstate())
        return other

    def is_terminal(self) -> bool:
        return self._phase == "over"

    def payoffs(self) -> list[float]:
        """Research: landlord +-2, peasants -+1 each, times 2 per bomb. Full: base = winning bid, doubled
        per bomb, rocket and spring; landlord +-2 x score, peasants -+score each."""
        if self.winner is None or self.landlord is None:
            raise ValueError("payoffs are defined only once the game is over")
        score = self.bid * self.multiplier
        sign = 1 if self.winner == self.landlord else -1
        return [float(2 * sign * score if s == self.landlord else -sign * score) for s in range(3)]

    def result(self) -> dict[str, Any]:
        payoffs = self.payoffs()
        return {"payoffs": payoffs, "landlord": self.landlord,
                "winner": "landlord" if self.winner == self.landlord else "peasants",
                "bid": self.bid, "bombs": self.bombs, "spring": self.spring, "multiplier": self.multiplier}

    # -- records -----------------------------------------------------------------------------------

    def action_from_json(self, value: Any) -> Any:
        if self._phase == "bid":
            if not isinstance(value, int) or isinstance(value, bool):
                raise IllegalActionError(f"a bid is an integer 0-3, got {value!r}")
            return value
        if not isinstance(value, str):
            raise IllegalActionError(f"a play is a string of rank letters ('' for pass), got {value!r}")
        try:
            return parse_move(value, self.rules, self._follow, self.deals[-1].wild)
        except ValueError as error:
            raise IllegalActionError(str(error)) from None

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "game": self.game_name, "format": 1, "seed": self.seed, "rules": self.rules.to_json(),
            "deals": [d.to_json() for d in self.deals],
            "actions": [[seat, self.action_to_json(a)] for seat, a in self.actions],
        }
        if self.is_terminal():
            record["result"] = self.result()
        return record



def _check_wild(deal: Deal, rules: DouDizhuRules) -> None:
    """A deal's wild ranks must be what its ruleset draws: none in the classic game, ``wild_ranks`` in 癞子."""
    if len(deal.wild) != rules.wild_count:
        if not rules.laizi:
            raise RecordError(f"this deal has wild ranks ({format_cards(_ranks(deal.wild))}): it needs the 癞子 "
                              f"rules (\"laizi\": true)")
        raise RecordError(f"癞子 rules with {rules.wild_ranks} wild rank(s) need a deal with as many, got "
                          f"{len(deal.wild)} (a deal of the classic game?)")
