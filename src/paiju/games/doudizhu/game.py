"""``DouDizhu``: the game's factory — new deals from seeds, replays of records, determinization."""

from __future__ import annotations

import random
from typing import Any

from paiju.core.errors import CardError, IllegalActionError, PaijuError, RecordError
from paiju.core.game import Game
from paiju.core.record import check_result, replay_actions
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS, TWO
from paiju.games.doudizhu.moves import Move
from paiju.games.doudizhu.observation import DouDizhuObservation
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.state import Deal, DouDizhuState


class DouDizhu(Game):
    """Three-player DouDizhu (斗地主) with the rulesets of ``DouDizhuRules``."""

    name = "doudizhu"
    num_players = 3
    rules_type = DouDizhuRules

    def new_state(self, seed: int, rules: DouDizhuRules | None = None) -> DouDizhuState:
        rules = rules or DouDizhuRules()
        rng = random.Random(seed)
        return DouDizhuState(rules, Deal.draw(rng, rules.mode == "research", rules.wild_count), seed=seed, rng=rng)

    def from_deal(self, deal: Deal, rules: DouDizhuRules | None = None) -> DouDizhuState:
        """A game from a given deal (no seed; in full mode a void deal cannot be redealt)."""
        deal.validate()
        return DouDizhuState(rules or DouDizhuRules(), deal)

    def from_record(self, record: dict[str, Any]) -> DouDizhuState:
        if not isinstance(record, dict) or record.get("game") != self.name:
            raise RecordError(f"not a DouDizhu record: expected \"game\": \"doudizhu\", got {record!r:.80}")
        try:
            rules = DouDizhuRules.from_json(record.get("rules", {}))
            deals = [Deal.from_json(d) for d in record["deals"]]
            actions = record["actions"]
            seed = record.get("seed")
        except (KeyError, TypeError, ValueError, PaijuError) as error:
            raise RecordError(f"bad DouDizhu record header: {error}") from None
        if not deals:
            raise RecordError("a DouDizhu record needs at least one deal")
        state = DouDizhuState(rules, deals[0], seed=seed, queued_deals=deals[1:])
        replay_actions(state, actions)
        check_result(state, record)
        if seed is not None:
            state._rng = _generator_after(seed, rules, len(deals))
        return state

    def action_to_json(self, action: Any) -> Any:
        """A play as its rank letters (``""`` for pass; 癞子: ``Move.notation``); a bid as its integer."""
        return action.notation if isinstance(action, Move) else action

    def observation_from_json(self, obs: dict[str, Any], seat: int, phase: str,
                              rules: DouDizhuRules | None = None) -> DouDizhuObservation:
        """``DouDizhuObservation.from_json``: exactly the observation that wrote ``obs``, for the seat to act."""
        return DouDizhuObservation.from_json(obs, seat, phase, rules or DouDizhuRules())

    def determinize(self, observation: DouDizhuObservation, rng: random.Random) -> DouDizhuState:
        """Deal the cards ``observation.seat`` cannot see at random to the other seats, then replay.

        Known: the seat's hand, every played card, and (once there is a landlord) the public cards the
        landlord has not provably played, and the wild ranks (癞子; drawn at random while they are hidden).
        """
        obs = observation
        played = [obs.played_by(s) for s in range(3)]
        known_public = [0] * NUM_RANKS
        if obs.public is not None and obs.landlord != obs.seat:
            known_public = [max(0, p - q) for p, q in zip(obs.public, played[obs.landlord], strict=True)]
        unseen = list(FULL_DECK)
        for counts in [obs.hand, known_public, *played]:
            unseen = [a - b for a, b in zip(unseen, counts, strict=True)]
        pool = [rank for rank, n in enumerate(unseen) for _ in range(n)]
        rng.shuffle(pool)
        current: list[list[int]] = []
        for seat in range(3):
            if seat == obs.seat:
                current.append(list(obs.hand))
                continue
            hand = list(known_public) if seat == obs.landlord else [0] * NUM_RANKS
            for _ in range(obs.cards_left[seat] - sum(hand)):
                hand[pool.pop()] += 1
            current.append(hand)
        initial = [[a + b for a, b in zip(current[s], played[s], strict=True)] for s in range(3)]
        if obs.landlord is None:
            public = [0] * NUM_RANKS
            for rank in pool:
                public[rank] += 1
        else:
            public = list(obs.public)  # type: ignore[arg-type]
            initial[obs.landlord] = [a - b for a, b in zip(initial[obs.landlord], public, strict=True)]
        wild = obs.wild
        if obs.rules.wild_count and not wild:
            wild = tuple(sorted(rng.sample(range(TWO + 1), obs.rules.wild_count)))
        deal = Deal(tuple(tuple(h) for h in initial), tuple(public), obs.first_bidder, wild)  # type: ignore[arg-type]
        state = DouDizhuState(obs.rules, deal, voided_before=obs.voided)
        for seat, bid in obs.bids:
            state.apply(bid, seat=seat)
        for seat, move in obs.history:
            state.apply(move, seat=seat)
        return state

    def parse_action_text(self, state: DouDizhuState, text: str) -> Any:  # type: ignore[override]
        """A bid (``0``-``3``) or a play typed as rank letters (``33344``, ``pass``)."""
        text = text.strip()
        if state.phase == "bid":
            if text.lower() == "pass":
                return 0
            if not text.isdigit():
                raise IllegalActionError(f"a bid is 0, 1, 2 or 3 (or 'pass'), got {text!r}")
            return int(text)
        try:
            return state.action_from_json(text)
        except CardError as error:
            raise IllegalActionError(str(error)) from None


def _generator_after(seed: int, rules: DouDizhuRules, deals: int) -> random.Random:
    """The seeded generator as it stands after drawing ``deals`` deals (so a replay can redeal on)."""
    rng = random.Random(seed)
    for _ in range(deals):
        Deal.draw(rng, rules.mode == "research", rules.wild_count)
    return rng


__all__ = ["DouDizhu"]
