"""Positions for the search tests: decisions with a choice, reached by the games' heuristic players."""

from paiju.agents import make_agent
from paiju.core.game import State
from paiju.core.registry import load_game

BASELINE = {"doudizhu": "rules", "guandan": "rules", "gongzhu": "mr-greed"}
RULES = {"doudizhu": {}, "guandan": {"rounds": 1}, "gongzhu": {}}
SMALL = {
    "doudizhu": "search:sims=12,worlds=4,top=3",
    "guandan": "search:sims=4,worlds=2,top=2",
    "gongzhu": "search:sims=12,worlds=4,top=3",
}
"""Budgets small enough for tests that only check behaviour, not strength."""


def decision(game_name: str, seed: int, skip: int) -> State:
    """The ``skip``-th decision with more than one legal action of a game between baseline players."""
    game = load_game(game_name)
    state = game.new_state(seed, game.rules_from_json(RULES[game_name]))
    agents = [make_agent(BASELINE[game_name], game_name, seat) for seat in range(game.num_players)]
    while True:
        seat = state.current_player
        legal = state.legal_actions()
        if len(legal) > 1 and state.phase == "play":
            if skip == 0:
                return state
            skip -= 1
        state.apply(agents[seat].act(state.observation(seat), legal))
