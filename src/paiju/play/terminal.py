"""A game against bots in the terminal, for any game that has a ``TableView``.

The person is an ``Agent`` (``TerminalPerson``) in the ordinary match loop: at their turn they type an
action in the game's notation (``game.parse_action_text``), ``hint`` for the hint agent's next
suggestion (hints cycle through its ranked candidates), or ``quit``. Malformed or illegal input gets the
engine's error message and a new prompt; the state is never changed by it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rich.console import Console

from paiju.core.agent import Agent
from paiju.core.errors import CardError, IllegalActionError, PaijuError
from paiju.core.game import JSON, Action, Game, State
from paiju.core.match import play_game


class TableView(Protocol):
    """How a game shows a seat's view and an action in the terminal."""

    def render(self, observation: Any) -> str:
        """The table as the human seat sees it, before it acts."""
        ...

    def describe(self, state: State, seat: int, action: Any) -> str:
        """One line saying what ``seat`` did."""
        ...

    def result(self, state: State, human: int) -> str:
        """The end of the game, from the human seat's side."""
        ...


class GameAbandoned(PaijuError):
    """The person typed ``quit`` (or closed the input)."""


class TerminalPerson(Agent):
    """The person at the keyboard, playing ``state`` (the state of the game being played)."""

    name = "you"

    def __init__(self, game: Game, view: TableView, state: State, hint_agent: Agent,
                 read: Callable[[str], str], console: Console) -> None:
        self.game, self.view, self.state = game, view, state
        self.hint_agent, self.read, self.console = hint_agent, read, console

    def begin(self, game: str, seat: int, rules: dict[str, JSON]) -> None:
        if self.state.deal_number:
            self.console.print("[bold]Everyone passed: new deal.[/bold]")

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        """Prompt until the person enters a legal action; ``quit`` raises ``GameAbandoned``."""
        state, seat = self.state, observation.seat
        self.console.print(self.view.render(observation))
        hints: list[Action] = []
        while True:
            try:
                text = self.read("> ").strip()
            except EOFError:
                raise GameAbandoned("input closed") from None
            if text.lower() in ("quit", "exit"):  # never "q": that is a queen
                raise GameAbandoned("quit")
            if text.lower() in ("hint", "h", "?"):
                if not hints:
                    hints = [c.action for c in self.hint_agent.explain(observation, legal)]
                hints.append(hints.pop(0))
                self.console.print(f"hint: {self.view.describe(state, seat, hints[-1])}")
                continue
            try:
                action = self.game.parse_action_text(state, text)
                if action not in legal:
                    state.clone().apply(action)  # raises with the precise reason
                return action
            except (IllegalActionError, CardError) as error:
                self.console.print(f"[red]{error}[/red] — try again ('hint' for a suggestion, 'quit' to stop)")


def play_terminal(game: Game, view: TableView, bots: Sequence[Agent | None], human: int, seed: int,
                  hint_agent: Agent, rules: Any = None, read: Callable[[str], str] = input,
                  console: Console | None = None, state: State | None = None) -> State:
    """Play one game dealt from ``seed`` (or continue ``state``) with the person at seat ``human``
    (``bots[human]`` is ``None``); return the final (or abandoned) state."""
    console = console or Console(highlight=False)
    state = game.new_state(seed, rules) if state is None else state
    person = TerminalPerson(game, view, state, hint_agent, read, console)
    agents = [person if seat == human else bot for seat, bot in enumerate(bots)]
    try:
        play_game(game, agents, seed, state=state,  # type: ignore[arg-type]
                  on_action=lambda at, seat, action: console.print(view.describe(at, seat, action)))
    except GameAbandoned:
        console.print("Game abandoned.")
        return state
    console.print(view.result(state, human))
    return state
