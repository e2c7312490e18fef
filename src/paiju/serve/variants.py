"""Rule variants the arena offers beside a game's classic rules, the agents that play each, and the name a
variant's games are stored and rated under.

A variant is a few rule options laid over the game's defaults (癞子 DouDizhu: ``{"laizi": true}``). A table's
rules belong to the variant whose options they hold, else to the game's classic rules. Names:

- ``ruleset_name``: ``None`` for the classic rules; else the variant's name, then each of the variant's own
  options that differs from its default (``laizi``, ``laizi,wild_ranks=2``). Finished games are stored with it,
  and the leaderboard rates them on the board ``game/name`` (``doudizhu/laizi``), apart from the classic games.
- ``playing_agents``: the offered agents listed as playing the variant; those in ``Variant.probed`` (networks
  that ship on their own) only once they have chosen a move at one of the variant's positions.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paiju.core.registry import load_game
from paiju.serve.bots import adviser, make_bot, offered_agents

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Variant:
    """Rule options over a game's defaults, offered as a choice of their own."""

    name: str
    label: str
    """What the lobby calls it."""
    rules: Mapping[str, Any]
    """The options that make it (a table whose rules hold them plays the variant)."""
    agents: tuple[str, ...]
    """The agents that play it (offered where the game offers them)."""
    table_bots: tuple[str, ...]
    """The bot a new table's seats start with, the first offered."""
    probed: frozenset[str] = frozenset()
    """Agents offered only once they have chosen a move at one of the variant's positions (networks that may not
    ship)."""


LAIZI = Variant(
    "laizi", "癞子 / wild card", {"laizi": True},
    agents=("random", "rules", "learned-bid", "search", "dmc"),
    table_bots=("rules",),
    probed=frozenset({"dmc"}))
"""癞子 (wild-card) DouDizhu. Its players: the rule bot and those built on it (``learned-bid`` plays as ``rules``
after its bid; ``search`` takes ``rules`` as its prior and rollouts), ``random``, and ``dmc`` once its 癞子 networks
ship. ``perfectdou`` and ``deeprocket`` learned the classic game only (deeprocket's kicker network refuses plays
with wild cards). New tables start with ``rules``: ``search`` thinks seconds over a 癞子 lead."""

VARIANTS: dict[str, tuple[Variant, ...]] = {"doudizhu": (LAIZI,)}


def variant_of(game: str, rules: Mapping[str, Any]) -> Variant | None:
    """The variant whose options ``rules`` (a ruleset as JSON) holds; ``None`` for the game's classic rules."""
    return next((variant for variant in VARIANTS.get(game, ())
                 if all(rules.get(key) == value for key, value in variant.rules.items())), None)


def default_rules(game: str, variant: Variant) -> dict[str, Any]:
    """The variant's full rules: the game's defaults with the variant's options."""
    loaded = load_game(game)
    return loaded.rules_from_json(loaded.default_rules().to_json() | dict(variant.rules)).to_json()


def ruleset_name(game: str, rules: Mapping[str, Any]) -> str | None:
    """The name ``game``'s games under ``rules`` (JSON) are stored and rated under: ``None`` for the classic
    rules, else the variant's name and its own options that differ from their defaults (``laizi,wild_ranks=2``)."""
    variant = variant_of(game, rules)
    if variant is None:
        return None
    classic = load_game(game).default_rules().to_json()
    defaults = default_rules(game, variant)
    own = sorted(key for key in defaults if key not in classic and key not in variant.rules)
    return ",".join([variant.name, *(f"{key}={_text(rules[key])}" for key in own
                                     if key in rules and rules[key] != defaults[key])])


def board_name(game: str, ruleset: str | None) -> str:
    """The leaderboard's name for ``game`` under ``ruleset``: the game's own for its classic rules."""
    return f"{game}/{ruleset}" if ruleset else game


def playing_agents(game: str, rules: Mapping[str, Any]) -> list[str]:
    """The offered agents that play ``game`` under ``rules`` (JSON), sorted. May load an agent's networks the first
    time (``Variant.probed``): call it from a worker thread where that matters."""
    variant = variant_of(game, rules)
    offered = offered_agents(game)
    if variant is None:
        return offered
    return [name for name in offered if name in variant.agents
            and (name not in variant.probed or _chooses_a_move(name, game, variant.name))]


def variant_json(game: str, variant: Variant) -> dict[str, Any]:
    """What ``GET /api/games`` says of a variant: ``{"label", "rules", "default_rules", "agents", "adviser",
    "table_bot"}``."""
    rules = default_rules(game, variant)
    agents = playing_agents(game, rules)
    return {"label": variant.label, "rules": dict(variant.rules), "default_rules": rules, "agents": agents,
            "adviser": adviser(game, agents),
            "table_bot": next((name for name in variant.table_bots if name in agents), None)}


@functools.cache
def _chooses_a_move(agent: str, game: str, name: str) -> bool:
    """Whether ``agent`` chooses a legal move at the first decision of a deal of variant ``name`` (once per
    process)."""
    variant = next(variant for variant in VARIANTS[game] if variant.name == name)
    state = load_game(game).new_state(0, load_game(game).rules_from_json(default_rules(game, variant)))
    seat = state.current_player
    try:
        bot = make_bot(agent, game, 0)
        try:
            bot.begin(game, seat, state.to_record()["rules"])
            legal = state.legal_actions()
            return bot.act(state.observation(seat), legal) in legal
        finally:
            bot.close()
    except Exception as error:  # an agent that cannot play the variant is simply not offered for it
        log.info("agent %s is not offered for %s %s: %s", agent, game, variant.name, error)
        return False


def _text(value: Any) -> str:
    """An option's value in a ruleset name: a list as its items joined by ``-``."""
    return "-".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
