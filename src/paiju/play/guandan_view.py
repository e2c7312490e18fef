"""The GuanDan table in the terminal: hand by rank, levels and wild cards, the play to beat, tribute."""

from __future__ import annotations

import json

from paiju.games.guandan import Gift, GuanDanObservation, GuanDanState, Play
from paiju.games.guandan.cards import card_name, card_rank, level_name, wild_card
from paiju.games.guandan.combos import power


def _seat_name(seat: int, human: int) -> str:
    if seat == human:
        return "you"
    return f"seat {seat} ({'partner' if (seat - human) % 2 == 0 else 'opponent'})"


def _play_text(play: Play) -> str:
    kind, rank, cards = play.to_platform()
    return "pass" if play.is_pass else f"{kind} {rank}: {' '.join(cards)}"


def _gifts(gifts: tuple[tuple[int, int, int], ...], verb: str, human: int) -> str:
    return "; ".join(f"{_seat_name(giver, human)} {verb} {card_name(card)} to {_seat_name(receiver, human)}"
                     for giver, receiver, card in gifts)


class GuanDanView:
    """``TableView`` for GuanDan."""

    def render(self, observation: GuanDanObservation) -> str:
        obs = observation
        level = level_name(obs.level)
        lines = ["", f"Round {obs.round_number + 1} at level {level} (your team {level_name(obs.self_level)}, "
                     f"the other team {level_name(obs.oppo_level)}). Wild cards: {card_name(wild_card(obs.level))}."]
        left = "  ".join(f"{_seat_name(s, obs.seat)}: {n}" for s, n in enumerate(obs.cards_left))
        lines.append(f"Cards left: {left}")
        if obs.finished:
            lines.append("Finished: " + ", ".join(_seat_name(s, obs.seat) for s in obs.finished))
        if obs.anti_tribute:
            lines.append("No tribute: " + ", ".join(_seat_name(s, obs.seat) for s in obs.anti_tribute)
                         + " hold the big jokers.")
        for gifts, verb in ((obs.tribute, "paid"), (obs.back, "returned")):
            if gifts:
                lines.append(_gifts(gifts, verb, obs.seat))
        if obs.phase == "tribute":
            lines.append("Pay tribute: your highest card that is not a wild card (type it, e.g. SA).")
        elif obs.phase == "back":
            lines.append("Return a card of rank 10 or lower to the player who paid you (type it, e.g. S5).")
        elif obs.greater is not None:
            lines.append(f"To beat: {_play_text(obs.greater[1])} from {_seat_name(obs.greater[0], obs.seat)}")
        else:
            lines.append("You lead: play any combination.")
        by_rank: dict[int, list[str]] = {}
        for card in sorted(obs.hand_cards, key=lambda c: (power(card_rank(c), obs.level), c)):
            by_rank.setdefault(power(card_rank(card), obs.level), []).append(card_name(card))
        lines.append("Your hand: " + " | ".join(" ".join(cards) for cards in by_rank.values()))
        lines.append("Type cards like 'S9 D9', 'pass', a play as JSON [\"Pair\", \"9\", [\"S9\", \"D9\"]], "
                     "'hint' or 'quit'.")
        return "\n".join(lines)

    def describe(self, state: GuanDanState, seat: int, action: object) -> str:
        if isinstance(action, Gift):
            verb = "pays tribute" if action.kind == "tribute" else "returns"
            return f"seat {seat} {verb}: {card_name(action.card)}"
        assert isinstance(action, Play)
        return f"seat {seat}: {_play_text(action)}"

    def result(self, state: GuanDanState, human: int) -> str:
        result = state.result()
        payoff = result["payoffs"][human]
        verdict = "Your team wins" if payoff > 0 else ("A draw" if payoff == 0 else "Your team loses")
        rounds = [f"round {i + 1} at {r['level']}: order {r['order']}, your team {r['scores'][human % 2]:+d}"
                  for i, r in enumerate(result["rounds"])]
        return f"{verdict} ({payoff:+g}). Levels: {json.dumps(result['levels'])}.\n" + "\n".join(rounds)
