"""Fingerprints of seeded play, one line per game, for comparing paiju's two engine paths (``paiju.native``).

``python tests/native/paths.py STATES`` plays, for every game and ruleset of ``VARIANTS``, seeded uniformly
random games until at least ``STATES`` states were visited, then seeded games between the rule bots of
``BOTS``. For each game it prints ``game rules seed sha256``: the hash covers, at every state, the legal
actions in order (JSON forms), the action taken, the state after it (``perfect_view``) and, at the end, the
payoffs and the whole record. Run once with ``PAIJU_NATIVE=0`` and once with ``PAIJU_NATIVE=1``: equal lines
mean equal legal lists, next states, payoffs and bot decisions; the first differing line names the game.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import paiju
from paiju import native
from paiju.agents import make_agent

VARIANTS = {
    "doudizhu": [{"mode": "research"}, {"mode": "full"}, {"mode": "full", "no_four_with_two": True},
                 {"mode": "research", "bomb_as_kickers": True, "rocket_as_kickers": True},
                 {"mode": "research", "laizi": True}],
    "guandan": [{"rounds": 1}, {"rounds": 2, "start_level": "A"}],
    "gongzhu": [{}, {"first_leader": 2}],
}
BOTS = {"doudizhu": ("rules", [{"mode": "research"}, {"mode": "full"}, {"mode": "full", "laizi": True},
                               {"mode": "full", "laizi": True, "wild_ranks": 2}], 12),
        "guandan": ("rules", [{"rounds": 1}], 4),
        "gongzhu": ("mr-greed", [{}], 12)}


def random_games(game_name: str, rules_json: dict, states: int) -> None:
    """Seeded random games of ``rules_json`` until ``states`` states were fingerprinted."""
    game = paiju.load_game(game_name)
    rules = game.rules_from_json(rules_json)
    seen = 0
    seed = 0
    while seen < states:
        state = game.new_state(seed, rules)
        rng = random.Random(seed)
        digest = hashlib.sha256()
        while not state.is_terminal():
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            digest.update(json.dumps([[game.action_to_json(a) for a in legal], game.action_to_json(action)]).encode())
            state.apply(action)
            digest.update(json.dumps(state.perfect_view(), sort_keys=True).encode())
            seen += 1
        report(game_name, rules_json, seed, state, digest)
        seed += 1


def bot_games(game_name: str, agent: str, rules_json: dict, games: int) -> None:
    """``games`` seeded games with ``agent`` in every seat."""
    game = paiju.load_game(game_name)
    rules = game.rules_from_json(rules_json)
    for seed in range(games):
        state = game.new_state(seed, rules)
        players = [make_agent(agent, game_name, 4 * seed + seat) for seat in range(game.num_players)]
        digest = hashlib.sha256()
        while not state.is_terminal():
            seat = state.current_player
            state.apply(players[seat].act(state.observation(seat), state.legal_actions()))
        report(game_name, {**rules_json, "bots": agent}, seed, state, digest)


def report(game_name: str, rules_json: dict, seed: int, state: paiju.State, digest: Any) -> None:
    digest.update(json.dumps([state.payoffs(), state.to_record()], sort_keys=True).encode())
    print(game_name, json.dumps(rules_json, sort_keys=True).replace(" ", ""), seed, digest.hexdigest())


def main() -> None:
    states = int(sys.argv[1])
    for game_name, variants in VARIANTS.items():
        for rules_json in variants:
            random_games(game_name, rules_json, states // len(variants))
    for game_name, (agent, variants, games) in BOTS.items():
        for rules_json in variants:
            bot_games(game_name, agent, rules_json, games)
    print("path", native.path())


if __name__ == "__main__":
    main()
