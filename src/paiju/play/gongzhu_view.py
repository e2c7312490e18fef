"""The Gongzhu table in the terminal: hand by suit, the trick in progress, scoring cards taken, scores."""

from __future__ import annotations

from paiju.games.gongzhu import SUITS, GongzhuObservation, GongzhuState, player_score, team_scores

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _seat_name(seat: int, human: int) -> str:
    if seat == human:
        return "you"
    return f"seat {seat} ({'partner' if (seat - human) % 2 == 0 else 'opponent'})"


class GongzhuView:
    """``TableView`` for Gongzhu."""

    def render(self, observation: GongzhuObservation) -> str:
        obs = observation
        scores = [player_score(cards) for cards in obs.taken]
        ours, theirs = team_scores(scores) if obs.seat % 2 == 0 else reversed(team_scores(scores))
        lines = ["", f"Trick {len(obs.history) // 4 + 1} of 13, led by {_seat_name(obs.leader, obs.seat)}."]
        if obs.trick:
            lines.append("On the table: " + "  ".join(f"{_seat_name(s, obs.seat)}: {c}" for s, c in obs.trick))
        taken = [f"{_seat_name(s, obs.seat)}: {' '.join(cards)}" for s, cards in enumerate(obs.taken) if cards]
        lines.append("Scoring cards taken: " + ("; ".join(taken) if taken else "none yet"))
        lines.append(f"Scores so far: your team {ours:+d}, the other team {theirs:+d}")
        by_suit = [f"{SUIT_NAMES[suit]}: {' '.join(c for c in obs.hand if c[0] == suit) or '-'}" for suit in SUITS]
        lines.append("Your hand: " + " | ".join(by_suit))
        if obs.led_suit is not None and any(card[0] == obs.led_suit for card in obs.hand):
            lines.append(f"You must follow {SUIT_NAMES[obs.led_suit]}.")
        lines.append("Type a card like SQ, H10 or DJ, 'hint' or 'quit'.")
        return "\n".join(lines)

    def describe(self, state: GongzhuState, seat: int, action: object) -> str:
        return f"seat {seat}: {action}"

    def result(self, state: GongzhuState, human: int) -> str:
        result = state.result()
        payoff = result["payoffs"][human]
        verdict = "Your team wins" if payoff > 0 else ("A draw" if payoff == 0 else "Your team loses")
        scores = "  ".join(f"{_seat_name(s, human)}: {score:+d}" for s, score in enumerate(result["scores"]))
        return f"{verdict}: {payoff:+g}. Scores: {scores}"
