"""The DouDizhu table in the terminal: sorted hand, bids, public cards, last plays, cards left; under 癞子 rules the
wild rank(s), and plays as what they stand for (``5558=5555``)."""

from __future__ import annotations

from paiju.games.doudizhu import DouDizhuObservation, DouDizhuState, Move, format_cards
from paiju.games.doudizhu.observation import position_of


def _seat_name(seat: int, human: int, landlord: int | None) -> str:
    role = position_of(seat, landlord)
    who = "you" if seat == human else f"seat {seat}"
    return f"{who} ({role})" if role else who


class DouDizhuView:
    """``TableView`` for DouDizhu."""

    def render(self, observation: DouDizhuObservation) -> str:
        obs = observation
        lines = [""]
        if obs.phase == "bid":
            bids = ", ".join(f"seat {s}: {b or 'pass'}" for s, b in obs.bids) or "none yet"
            lines.append(f"Bidding. Bids so far: {bids}. Enter 0 (pass), 1, 2 or 3.")
        else:
            wild = f"   wild: {format_cards([int(r in obs.wild) for r in range(15)])}" if obs.wild else ""
            lines.append(f"Public cards: {format_cards(obs.public or ())}   multiplier x{obs.multiplier}{wild}")
            left = "  ".join(f"{_seat_name(s, obs.seat, obs.landlord)}: {n}" for s, n in enumerate(obs.cards_left))
            lines.append(f"Cards left: {left}")
            recent = obs.history[-2:]
            if recent:
                lines.append("Last plays: " + "  ".join(
                    f"{_seat_name(s, obs.seat, obs.landlord)}: {m.notation or 'pass'}" for s, m in recent))
            if obs.follow is not None:
                lines.append(f"To beat: {obs.follow.notation} ({obs.follow.label}) "
                             f"from {_seat_name(obs.follow_seat or 0, obs.seat, obs.landlord)}")
            else:
                lines.append("You lead: play any combination.")
        lines.append(f"Your hand: {' '.join(format_cards(obs.hand))}")
        lines.append("Type cards like 33344 (T = ten, B/R = small/big joker), 'pass', 'hint' or 'quit'.")
        if obs.wild:
            wild, base = format_cards([int(r == obs.wild[0]) for r in range(15)]), "3" if obs.wild[0] else "4"
            lines.append(f"Wild cards stand for their own rank unless you say what they stand for: "
                         f"{base * 3}{wild}={base * 4} plays {base} {base} {base} and a wild {wild} as four {base}s.")
        return "\n".join(lines)

    def describe(self, state: DouDizhuState, seat: int, action: object) -> str:
        name = f"seat {seat}" + (f" ({position_of(seat, state.landlord)})" if state.landlord is not None else "")
        if isinstance(action, Move):
            return f"{name}: {'pass' if action.is_pass else action.notation + ' (' + action.label + ')'}"
        return f"{name} bids {action or 'pass'}"

    def result(self, state: DouDizhuState, human: int) -> str:
        result = state.result()
        payoff = result["payoffs"][human]
        verdict = "You win" if payoff > 0 else "You lose"
        return (f"{verdict}: {result['winner']} won. Your score {payoff:+g} "
                f"(bid {result['bid']}, bombs {result['bombs']}, multiplier x{result['multiplier']}"
                f"{', spring' if result['spring'] else ''}). Hands left: "
                + "  ".join(f"seat {s}: {format_cards(h) or '-'}" for s, h in enumerate(state.hands)))
