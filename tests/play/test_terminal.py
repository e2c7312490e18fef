"""A whole terminal game with a scripted person: bidding, plays, passes, the result line."""

import io

from rich.console import Console

import paiju
from paiju.games.doudizhu import DouDizhuRules
from paiju.play.doudizhu_view import DouDizhuView
from paiju.play.terminal import play_terminal


def test_a_scripted_person_plays_a_full_game_to_the_end():
    game = paiju.load_game("doudizhu")
    state = game.new_state(9, DouDizhuRules(mode="full"))
    typed = []

    def person(prompt: str) -> str:
        if state.phase == "bid":
            answer = "3" if not typed else "pass"
        else:  # the last legal play: the biggest, or "pass" when only passing is possible
            last = state.legal_actions()[-1]
            answer = last.cards or "pass"
        typed.append(answer)
        return answer

    out = io.StringIO()
    bots = [None, paiju.make_agent("rules", "doudizhu", 1), paiju.make_agent("rules", "doudizhu", 2)]
    final = play_terminal(game, DouDizhuView(), bots, 0, 9, hint_agent=bots[1], read=person,
                          console=Console(file=out, width=150), state=state)
    text = out.getvalue()
    assert final.is_terminal() and final is state
    assert len(typed) == sum(1 for seat, _ in final.actions if seat == 0)
    assert "Your hand:" in text and "Cards left:" in text
    assert ("You win" in text) == (final.payoffs()[0] > 0)
    assert f"Your score {final.payoffs()[0]:+g}" in text


def test_illegal_input_changes_nothing_and_reprompts():
    game = paiju.load_game("doudizhu")
    state = game.new_state(2)
    answers = iter(["pass", "34", "AAAAA", "quit"])
    out = io.StringIO()
    bots = [None, paiju.make_agent("random", "doudizhu", 1), paiju.make_agent("random", "doudizhu", 2)]
    final = play_terminal(game, DouDizhuView(), bots, 0, 2, hint_agent=bots[1], read=lambda _: next(answers),
                          console=Console(file=out, width=150), state=state)
    text = out.getvalue()
    assert final.actions == []
    assert "leads and may not pass" in text
    assert "not a DouDizhu combination" in text
    assert "too many A" in text


def test_a_laizi_game_is_typed_with_what_wild_cards_stand_for():
    game = paiju.load_game("doudizhu")
    state = game.new_state(9, DouDizhuRules(laizi=True))
    typed = []

    def person(prompt: str) -> str:  # a play that substitutes when there is one, else the last legal play
        legal = state.legal_actions()
        answer = next((m.notation for m in legal if m.stands_for), legal[-1].notation or "pass")
        typed.append(answer)
        return answer

    out = io.StringIO()
    bots = [None, paiju.make_agent("random", "doudizhu", 1), paiju.make_agent("random", "doudizhu", 2)]
    final = play_terminal(game, DouDizhuView(), bots, 0, 9, hint_agent=bots[1], read=person,
                          console=Console(file=out, width=150), state=state)
    text = out.getvalue()
    assert final.is_terminal() and any("=" in answer for answer in typed)
    assert f"wild: {'3456789TJQKA2'[state.wild[0]]}" in text and "stand for" in text
    played = [a.notation for seat, a in final.actions if seat == 0]
    assert [answer for answer in typed if answer != "pass"] == [p for p in played if p]
