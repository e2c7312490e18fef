"""Determinization: a full GuanDan state consistent with one seat's observation of the current round.

The current round is rebuilt; earlier rounds are summarised by the public standing the observation carries
(levels, failed attempts at A, scores, the previous finishing order). Each other seat is dealt, for this
round,

1. the cards the public record proves it was dealt: the cards it played or gave away this round, less those
   it received before (a payer receives its return card after paying; a receiver gets the tribute before
   returning), and the big jokers of an anti-tribute (one each for two anti-tribute seats, both for one);
2. then cards drawn at random from those the observing seat cannot place, so that every hand ends with the
   observed number of cards, under what the public gifts reveal: a payer's other cards rank no higher than
   its tribute in the single-card order (wild cards aside); a receiver that returned a card above 10 held
   nothing of rank 10 or lower; payers who paid held at most one big joker between them (else the sample is
   drawn again). Seats restricted this way draw first (the fewest allowed cards first), from the cards
   allowed to them; the other seats share the rest uniformly.

The round is then replayed: the public tribute and return cards, sealed gifts that are not public yet
(re-chosen at random among the legal ones; they are in no observation), and the public plays, so that the
determinized state's observation for the seat equals the given one (checked).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from paiju.core.errors import PaijuError
from paiju.games.guandan.cards import BIG_JOKER, COPIES, NUM_CARDS, card_rank, pack, unpack, wild_card
from paiju.games.guandan.deal import HAND_SIZE, Deal, DealSource
from paiju.games.guandan.levels import Standing, team
from paiju.games.guandan.observation import GuanDanObservation
from paiju.games.guandan.state import BACK_PHASE, PLAY_PHASE, TRIBUTE_PHASE, GuanDanState
from paiju.games.guandan.tribute import BACK, HIGHEST_BACK_RANK, TRIBUTE, Gift, TributeRoles, card_power

MAX_TRIES = 1000
"""Redraws allowed when the payers' random cards would give them both big jokers (a rejected sample)."""


def determinize(observation: GuanDanObservation, rng: random.Random) -> GuanDanState:
    """A state whose observation for ``observation.seat`` is ``observation``, hidden cards drawn from ``rng``."""
    deal = _deal(observation, rng)
    state = GuanDanState(observation.rules, DealSource(rng.getrandbits(64), 0, [deal], observation.round_number),
                         _standing(observation))
    _replay(state, observation, rng)
    if state.observation(observation.seat) != observation:
        raise PaijuError(f"no deal is consistent with seat {observation.seat}'s observation")
    return state


def _standing(observation: GuanDanObservation) -> Standing:
    """The public standing of the observed round."""
    side = team(observation.seat)
    levels = [observation.oppo_level] * 2
    levels[side] = observation.self_level
    first_leader = 0
    if not observation.previous_order:
        first_leader = observation.history[0][0] if observation.history else observation.to_move or 0
    return Standing(round_number=observation.round_number, levels=(levels[0], levels[1]), level=observation.level,
                    a_failures=observation.a_failures, team_scores=observation.team_scores,
                    previous_order=observation.previous_order, first_leader=first_leader)


def _events(observation: GuanDanObservation) -> list[list[tuple[bool, int]]]:
    """Each seat's public card movements this round in time order: (received?, card)."""
    events: list[list[tuple[bool, int]]] = [[], [], [], []]
    for gifts in (observation.tribute, observation.back):
        for giver, receiver, card in gifts:
            events[giver].append((False, card))
            events[receiver].append((True, card))
    for seat, play in observation.history:
        events[seat].extend((False, card) for card in play.cards)
    return events


def _proven(events: list[tuple[bool, int]]) -> Counter[int]:
    """The fewest dealt cards that make these movements possible: a card leaving the hand is one received
    earlier if there is such a card still unused, else one it was dealt."""
    needed: Counter[int] = Counter()
    spare: Counter[int] = Counter()
    for received, card in events:
        if received:
            spare[card] += 1
        elif spare[card]:
            spare[card] -= 1
        else:
            needed[card] += 1
    return needed


def _deal(observation: GuanDanObservation, rng: random.Random) -> Deal:
    """The observed round's deal: the observer's exact hand, the others' proven cards plus random ones."""
    me = observation.seat
    events = _events(observation)
    dealt: list[Counter[int]] = [_proven(cards) for cards in events]
    mine = Counter(unpack(observation.hand))
    for received, card in events[me]:
        mine[card] += -1 if received else 1
    dealt[me] = mine
    for seat in observation.anti_tribute:
        if seat != me:
            dealt[seat][BIG_JOKER] = max(dealt[seat][BIG_JOKER], 3 - len(observation.anti_tribute))
    pool = Counter({card: COPIES for card in range(NUM_CARDS)})
    for hand in dealt:
        pool.subtract(hand)
    if any(count < 0 for count in pool.values()) or any(count < 0 for count in mine.values()):
        raise PaijuError(f"seat {me}'s observation holds or moves more copies of a card than the two decks have")
    payers = TributeRoles.from_order(observation.previous_order).payers if observation.previous_order else ()
    capped = bool(payers) and not observation.anti_tribute
    allowed = {seat: rule for seat, rule in _allowed_cards(observation).items() if seat != me}
    for _ in range(MAX_TRIES):
        hands = _draw(dealt, pool, me, allowed, rng)
        if hands is not None and (not capped or sum(hands[payer][BIG_JOKER] for payer in payers) <= 1):
            return Deal(tuple(pack(hand.elements()) for hand in hands))  # type: ignore[arg-type]
    raise PaijuError(f"no deal found for seat {me}'s observation in {MAX_TRIES} tries")


def _allowed_cards(observation: GuanDanObservation) -> dict[int, Callable[[int], bool]]:
    """What the public gifts say about the other cards of a hand. A payer held nothing above its tribute in
    the single-card order but wild cards; a receiver that returned a card above 10 held no card of rank 10 or
    lower, and none below its return card (``tribute.back_cards``)."""
    level = observation.level
    wild = wild_card(level)
    allowed: dict[int, Callable[[int], bool]] = {}
    for payer, _, card in observation.tribute:
        ceiling = card_power(card, level)
        allowed[payer] = lambda other, ceiling=ceiling: other == wild or card_power(other, level) <= ceiling
    for giver, _, card in observation.back:
        if card_rank(card) > HIGHEST_BACK_RANK:
            floor = card_power(card, level)
            allowed[giver] = lambda other, floor=floor: (card_rank(other) > HIGHEST_BACK_RANK
                                                          and card_power(other, level) >= floor)
    return allowed


def _draw(dealt: list[Counter[int]], pool: Counter[int], me: int, allowed: dict[int, Callable[[int], bool]],
          rng: random.Random) -> list[Counter[int]] | None:
    """Complete every other seat's proven cards to 27 from ``pool``: the seats the gifts restrict first (the
    fewest cards allowed first), then the rest at random; ``None`` when a restricted seat cannot be filled."""
    left = list(pool.elements())
    hands = [hand.copy() for hand in dealt]
    others = [seat for seat in range(4) if seat != me]
    for seat in sorted(allowed, key=lambda seat: sum(map(allowed[seat], left))):
        rule = allowed[seat]
        candidates = [card for card in left if rule(card)]
        if len(candidates) < _missing(hands[seat]):
            return None
        chosen = rng.sample(candidates, _missing(hands[seat]))
        hands[seat].update(chosen)
        remaining = Counter(left)
        remaining.subtract(chosen)
        left = list(remaining.elements())
    rng.shuffle(left)
    for seat in others:
        if seat not in allowed:
            count = _missing(hands[seat])
            hands[seat].update(left[:count])
            left = left[count:]
    if left or any(_missing(hands[seat]) for seat in others):
        raise PaijuError("the observed numbers of cards do not add up to the two decks")
    return hands


def _missing(hand: Counter[int]) -> int:
    return HAND_SIZE - sum(hand.values())


def _replay(state: GuanDanState, observation: GuanDanObservation, rng: random.Random) -> None:
    """Replay the observed round: public gifts, sealed gifts not yet public (re-chosen), then the plays."""
    for phase, public, kind in ((TRIBUTE_PHASE, observation.tribute, TRIBUTE), (BACK_PHASE, observation.back, BACK)):
        if state.phase != phase:
            continue
        if observation.phase == phase:
            while state.current_player != observation.to_move:
                state.apply(rng.choice(state.legal_actions()))
            return
        for giver, _, card in public:
            state.apply(Gift(kind, card), seat=giver)
    if state.phase == PLAY_PHASE:
        for seat, play in observation.history:
            state.apply(play, seat=seat)
