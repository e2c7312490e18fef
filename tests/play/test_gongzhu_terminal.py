"""A whole Gongzhu game in the terminal with a scripted person."""

import io

from rich.console import Console

import paiju
from paiju.play.gongzhu_view import GongzhuView
from paiju.play.terminal import play_terminal


def test_a_scripted_person_plays_gongzhu_to_the_end_and_is_reprompted_on_bad_cards():
    game = paiju.load_game("gongzhu")
    state = game.new_state(6)
    bad_inputs = iter(["S11", "XX"])

    def person(prompt: str) -> str:
        for bad in bad_inputs:
            return bad
        return state.legal_actions()[-1]

    out = io.StringIO()
    bots = [None] + [paiju.make_agent("random", "gongzhu", seat) for seat in (1, 2, 3)]
    final = play_terminal(game, GongzhuView(), bots, 0, 6, hint_agent=bots[1], read=person,
                          console=Console(file=out, width=160), state=state)
    text = out.getvalue()
    assert final.is_terminal()
    assert "unknown card 'S11'" in text and "unknown card 'XX'" in text
    assert "Your hand: spades:" in text and "Trick 13 of 13" in text
    payoff = final.payoffs()[0]
    assert f"{payoff:+g}" in text.splitlines()[-1]
