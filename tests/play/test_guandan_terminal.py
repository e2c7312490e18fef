"""GuanDan in the terminal with a scripted person: plays typed as cards or JSON, tribute typed as a card."""

import io
import json

from rich.console import Console

import paiju
from paiju.games.guandan import Gift, GuanDanRules
from paiju.games.guandan.cards import card_name
from paiju.play.guandan_view import GuanDanView
from paiju.play.terminal import play_terminal


def test_a_scripted_person_plays_three_rounds_with_tribute():
    game = paiju.load_game("guandan")
    state = game.new_state(5, GuanDanRules(rounds=3, start_level="Q", a_attempts=1))
    bad = iter(["S1", "pass pass", "[\"Pair\"]"])
    phases = []

    def person(prompt: str) -> str:
        for text in bad:
            return text
        phases.append(state.phase)
        action = state.legal_actions()[-1]
        if isinstance(action, Gift):
            return card_name(action.card)
        return json.dumps(action.to_platform())

    out = io.StringIO()
    bots = [None] + [paiju.make_agent("random", "guandan", seat) for seat in (1, 2, 3)]
    final = play_terminal(game, GuanDanView(), bots, 0, 5, hint_agent=bots[1], read=person,
                          console=Console(file=out, width=200), state=state)
    text = out.getvalue()
    assert final.is_terminal()
    assert "Round 1 at level Q" in text and "Wild cards: HQ." in text and "Your hand:" in text
    assert text.count("seat ") > 50
    assert "round 1 at Q" in text.splitlines()[-len(final.result()["rounds"])]
    assert "S1" in text and "try again" in text  # the bad inputs were refused with a message
    assert "play" in phases
