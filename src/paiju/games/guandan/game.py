"""``GuanDan``: the game's factory — games from seeds (rotated for duplicate play), from given deals, replays
of records, determinization of one seat's observation."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from paiju.core.errors import CardError, IllegalActionError, PaijuError, RecordError
from paiju.core.game import Game
from paiju.core.record import check_result, replay_actions
from paiju.games.guandan.cards import pack, parse_card, parse_cards
from paiju.games.guandan.combos import PASS, Play
from paiju.games.guandan.deal import Deal, DealSource
from paiju.games.guandan.determinize import determinize
from paiju.games.guandan.levels import Standing
from paiju.games.guandan.observation import GuanDanObservation
from paiju.games.guandan.rules import GuanDanRules
from paiju.games.guandan.state import BACK_PHASE, TRIBUTE_PHASE, GuanDanState
from paiju.games.guandan.tribute import Gift


class GuanDan(Game):
    """Four-player GuanDan (掼蛋): rounds of play with tribute, levels 2 to A (``GuanDanRules``)."""

    name = "guandan"
    num_players = 4
    rules_type = GuanDanRules

    def new_state(self, seed: int, rules: GuanDanRules | None = None) -> GuanDanState:
        """The game whose first leader and deals are drawn from ``random.Random(seed)`` (``deal``)."""
        return self.rotated_state(seed, rules, 0)

    def rotated_state(self, seed: int, rules: GuanDanRules | None = None, shift: int = 0) -> GuanDanState:
        """The game of ``new_state(seed, rules)`` with every deal moved ``shift`` seats on: seat ``(s + shift) % 4``
        holds, every round, the hand seat ``s`` would have held, and the first leader moves with its hand.

        Played by the same agents it is the same game with the seats relabelled, until play diverges;
        duplicate play uses shifts 0 and 1 so that each team holds each pair of partner hands.
        """
        return GuanDanState(rules or GuanDanRules(), DealSource(seed, shift))

    def from_deals(self, deals: Sequence[Deal | Sequence[Sequence[str]]], rules: GuanDanRules | None = None,
                   standing: Standing | None = None, seed: int = 0) -> GuanDanState:
        """A game from given deals (``Deal``s, or four lists of card names each), the first of them played at
        ``standing`` (default: the opening, seat 0 leading); rounds past the given deals are drawn from
        ``random.Random(seed)`` after skipping as many deals as were given."""
        given = [deal if isinstance(deal, Deal) else Deal.from_hands(deal) for deal in deals]
        for deal in given:
            deal.validate()
        rules = rules or GuanDanRules()
        standing = standing or Standing.opening(rules, 0)
        return GuanDanState(rules, DealSource(seed, 0, given, standing.round_number), standing)

    def from_record(self, record: dict[str, Any]) -> GuanDanState:
        state = self.opening_state(record)
        replay_actions(state, record["actions"])
        if len(state.deals) != len(record["deals"]):
            raise RecordError(f"the record holds {len(record['deals'])} deals but its actions play "
                              f"{len(state.deals)} rounds")
        check_result(state, record)
        return state

    def opening_state(self, record: dict[str, Any]) -> GuanDanState:
        """The game before its first action; later rounds are dealt from the record's deals as play reaches them."""
        if not isinstance(record, dict) or record.get("game") != self.name:
            raise RecordError(f"not a GuanDan record: expected \"game\": \"guandan\", got {record!r:.80}")
        try:
            rules = GuanDanRules.from_json(record.get("rules", {}))
            seed = record.get("seed")
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
                raise RecordError(f"seed must be an integer or null, got {seed!r}")
            rotation = record.get("rotation", 0)
            if isinstance(rotation, bool) or rotation not in (0, 1, 2, 3):
                raise RecordError(f"rotation must be a number of seats 0-3, got {rotation!r}")
            start = Standing.from_json(record["start"]) if "start" in record else None
            deals = [Deal.from_json(deal) for deal in record["deals"]]
            actions = record["actions"]
            if not deals or not isinstance(actions, list):
                raise RecordError("a GuanDan record holds at least one deal and a list of actions")
        except (KeyError, TypeError, ValueError, PaijuError) as error:
            raise RecordError(f"bad GuanDan record header: {error}") from None
        source = DealSource(seed, rotation, deals, start.round_number if start else 0)
        return GuanDanState(rules, source, start)

    def action_to_json(self, action: Any) -> Any:
        """The platform form: ``[type, rank, cards]`` for a play, ``["tribute", "tribute", [card]]`` for a gift."""
        return action.to_platform()

    def observation_from_json(self, obs: dict[str, Any], seat: int, phase: str,
                              rules: GuanDanRules | None = None) -> GuanDanObservation:
        """``GuanDanObservation.from_json``: the fields the protocol carries (round, previous order and gifts
        included); the failed attempts at A and the team scores, which it does not carry, read as zero."""
        return GuanDanObservation.from_json(obs, seat, phase, rules or GuanDanRules())

    def determinize(self, observation: GuanDanObservation, rng: random.Random) -> GuanDanState:
        """The current round rebuilt with the cards ``observation.seat`` cannot see dealt at random, consistent
        with the public plays, tribute and returns (``determinize``); later rounds are drawn from ``rng``."""
        return determinize(observation, rng)

    def parse_action_text(self, state: GuanDanState, text: str) -> Play | Gift:  # type: ignore[override]
        """What a person typed: the JSON platform form, ``pass``, or card names (``S5 D5``; in a gift phase one
        card). Cards that make several legal plays must be typed in JSON form to say which."""
        text = text.strip()
        if text.startswith("["):
            try:
                return state.action_from_json(json.loads(text))
            except json.JSONDecodeError as error:
                raise IllegalActionError(f"not JSON: {error}") from None
        if text.lower() == "pass":
            return PASS
        try:
            if state.phase in (TRIBUTE_PHASE, BACK_PHASE):
                return Gift(state.phase, parse_card(text))
            cards = pack(parse_cards(text))
        except CardError as error:
            raise IllegalActionError(str(error)) from None
        matches = [play for play in state.legal_actions() if play.packed == cards]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise IllegalActionError(f"no legal play is made of {text!r}")
        options = "; ".join(json.dumps(play.to_platform()) for play in matches)
        raise IllegalActionError(f"{text!r} makes several legal plays; type one of them as JSON: {options}")


__all__ = ["GuanDan"]
