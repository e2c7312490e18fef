"""``Gongzhu``: the game's factory — new deals from seeds (rotated for duplicate play), given deals, replays of
records, and determinization of one seat's observation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import Game
from paiju.core.record import check_result, replay_actions
from paiju.games.gongzhu.deal import GongzhuDeal
from paiju.games.gongzhu.hidden import HiddenCards, state_with_hidden
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.rules import GongzhuRules
from paiju.games.gongzhu.sampling import sample_hidden_hands
from paiju.games.gongzhu.state import GongzhuState


class Gongzhu(Game):
    """Four-player Gongzhu (拱猪), the ScrofaZero paper's rules (``GongzhuRules``)."""

    name = "gongzhu"
    num_players = 4
    rules_type = GongzhuRules

    def new_state(self, seed: int, rules: GongzhuRules | None = None) -> GongzhuState:
        """The deal ``GongzhuDeal.draw(random.Random(seed))``, first trick led by ``rules.first_leader``."""
        return self.rotated_state(seed, rules, 0)

    def rotated_state(self, seed: int, rules: GongzhuRules | None = None, shift: int = 0) -> GongzhuState:
        """The game of ``new_state(seed, rules)`` with every seat moved ``shift`` seats on: seat ``(s + shift) % 4``
        holds the hand seat ``s`` held (``GongzhuDeal.rotated``) and the first leader moves with its hand.

        Played by the same agents, it is the same game with the seats relabelled; duplicate play uses shifts 0
        and 1 so that each team holds each pair of partner hands once.
        """
        rules = rules or GongzhuRules()
        deal = GongzhuDeal.draw(random.Random(seed)).rotated(shift)
        rotated_rules = replace(rules, first_leader=(rules.first_leader + shift) % 4) if shift % 4 else rules
        return GongzhuState(rotated_rules, deal, seed=seed, rotation=shift % 4)

    def from_deal(self, hands: GongzhuDeal | Sequence[Sequence[str]],
                  rules: GongzhuRules | None = None) -> GongzhuState:
        """A game from given hands (a ``GongzhuDeal`` or four lists of card names; no seed)."""
        deal = hands if isinstance(hands, GongzhuDeal) else GongzhuDeal.from_hands(hands)
        return GongzhuState(rules or GongzhuRules(), deal)

    def from_record(self, record: dict[str, Any]) -> GongzhuState:
        if not isinstance(record, dict) or record.get("game") != self.name:
            raise RecordError(f"not a Gongzhu record: expected \"game\": \"gongzhu\", got {record!r:.80}")
        try:
            rules = GongzhuRules.from_json(record.get("rules", {}))
            deals = record["deals"]
            if not isinstance(deals, list) or len(deals) != 1:
                raise RecordError(f"a Gongzhu record holds exactly one deal, got {deals!r:.80}")
            deal = GongzhuDeal.from_json(deals[0])
            actions = record["actions"]
            seed = record.get("seed")
            rotation = record.get("rotation", 0)
            if rotation not in (0, 1, 2, 3) or isinstance(rotation, bool):
                raise RecordError(f"rotation must be a number of seats 0-3, got {rotation!r}")
        except (KeyError, TypeError, ValueError, PaijuError) as error:
            raise RecordError(f"bad Gongzhu record header: {error}") from None
        state = GongzhuState(rules, deal, seed=seed, rotation=rotation)
        replay_actions(state, actions)
        check_result(state, record)
        return state

    def action_to_json(self, action: Any) -> Any:
        """A card as its name (``"SQ"``)."""
        return action

    def observation_from_json(self, obs: dict[str, Any], seat: int, phase: str,
                              rules: GongzhuRules | None = None) -> GongzhuObservation:
        """``GongzhuObservation.from_json``: exactly the observation that wrote ``obs``."""
        return GongzhuObservation.from_json(obs, seat, phase, rules or GongzhuRules())

    def determinize(self, observation: GongzhuObservation, rng: random.Random) -> GongzhuState:
        """Deal the cards ``observation.seat`` cannot see to the other seats, then replay the public plays.

        Each other seat gets as many cards as it holds and none of a suit it showed void in; every such deal
        is equally likely (``sampling.sample_hidden_hands``). The returned state's observation for that seat
        equals ``observation``.
        """
        hidden = HiddenCards.of(observation)
        return state_with_hidden(observation, sample_hidden_hands(hidden.unseen, hidden.sizes, hidden.forbidden, rng))


__all__ = ["Gongzhu"]
