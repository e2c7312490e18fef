"""A game against bots in the terminal, for any game that has a ``TableView``.

The person types an action in the game's notation (``game.parse_action_text``), ``hint`` for the hint
agent's next suggestion (hints cycle through its ranked candidates), or ``quit``. Malformed or illegal
input gets the engine's error message and a new prompt; the state is never changed by it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rich.console import Console

from paiju.core.agent import Agent
from paiju.core.errors import IllegalActionError
from paiju.core.game import Game, State


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


def play_terminal(game: Game, view: TableView, bots: Sequence[Agent | None], human: int, seed: int,
                  hint_agent: Agent, rules: Any = None, read: Callable[[str], str] = input,
                  console: Console | None = None, state: State | None = None) -> State:
    """Play one game dealt from ``seed`` (or continue ``state``) with the person at seat ``human``
    (``bots[human]`` is ``None``); return the final state."""
    console = console or Console(highlight=False)
    state = game.new_state(seed, rules) if state is None else state
    rules_json = state.to_record()["rules"]
    started = -1
    while not state.is_terminal():
        if state.deal_number != started:
            started = state.deal_number
            for seat, bot in enumerate(bots):
                if bot is not None:
                    bot.begin(game.name, seat, rules_json)
            if started:
                console.print("[bold]Everyone passed: new deal.[/bold]")
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if seat == human:
            action = _ask(game, view, state, legal, hint_agent, read, console)
            if action is None:
                console.print("Game abandoned.")
                return state
        else:
            bot = bots[seat]
            assert bot is not None
            action = bot.act(state.observation(seat), legal)
        console.print(view.describe(state, seat, action))
        state.apply(action, seat=seat)
    for bot in bots:
        if bot is not None:
            bot.finish(state.result())
    console.print(view.result(state, human))
    return state


def _ask(game: Game, view: TableView, state: State, legal: Sequence[Any], hint_agent: Agent,
         read: Callable[[str], str], console: Console) -> Any:
    """Prompt until the person enters a legal action (returned) or ``quit`` (``None``)."""
    observation = state.observation(state.current_player)  # type: ignore[arg-type]
    console.print(view.render(observation))
    hints: list[Any] = []
    while True:
        try:
            text = read("> ").strip()
        except EOFError:
            return None
        if text.lower() in ("quit", "exit"):  # never "q": that is a queen
            return None
        if text.lower() in ("hint", "h", "?"):
            if not hints:
                hints = [c.action for c in hint_agent.explain(observation, legal)]
            action = hints.pop(0)
            hints.append(action)
            console.print(f"hint: {view.describe(state, state.current_player, action)}")  # type: ignore[arg-type]
            continue
        try:
            action = game.parse_action_text(state, text)
            if action not in legal:
                probe = state.clone()
                probe.apply(action)  # raises with the precise reason
            return action
        except IllegalActionError as error:
            console.print(f"[red]{error}[/red] — try again ('hint' for a suggestion, 'quit' to stop)")
