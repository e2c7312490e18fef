"""The compiled Gongzhu paths against their references, in one process, on seeded inputs: the state's methods
(legal lists and masks, next states, observations, errors, payoffs), the card-mask conversions, the sampling
of hidden hands, the table views, and whole games between ``mr-greed`` and ``mr-if`` bots (every decision)."""

from __future__ import annotations

import random

import pytest

import paiju
from paiju.agents.rules import gongzhu_common, gongzhu_greed
from paiju.agents.rules.gongzhu_greed import GongzhuGreedAgent, GreedConfig
from paiju.agents.rules.gongzhu_if import GongzhuIfAgent
from paiju.core.errors import PaijuError
from paiju.games.gongzhu import cards, sampling, state
from paiju.games.gongzhu.cards import CARD_NAMES, FULL_MASK, SUIT_MASKS

state_fast = pytest.importorskip("paiju.games.gongzhu._state_fast")
cards_fast = pytest.importorskip("paiju.games.gongzhu._cards_fast")
sampling_fast = pytest.importorskip("paiju.games.gongzhu._sampling_fast")
common_fast = pytest.importorskip("paiju.agents.rules._gongzhu_common_fast")
greed_fast = pytest.importorskip("paiju.agents.rules._gongzhu_greed_fast")

GAME = paiju.load_game("gongzhu")
METHODS = ("legal_mask", "legal_actions", "apply", "play", "observation")


def fields(game_state: state.GongzhuState) -> dict:
    """The state's fields but its rules, its deal and the cache of its plays' JSON (``observation_json``)."""
    return {name: value for name, value in vars(game_state).items() if name not in ("rules", "deal", "_plays_json")}


def outcome(function, *args):
    """What ``function(*args)`` returns, or the type and message of the error it raises."""
    try:
        return function(*args)
    except (PaijuError, KeyError, ValueError, IndexError) as error:
        return type(error), str(error)


def test_states_match_over_random_games() -> None:
    """Two copies of each seeded random game, one moved by the compiled methods and one by the references:
    the same legal cards and masks, the same states after every play, the same observations and payoffs."""
    positions = 0
    for number in range(2000):
        rng = random.Random(number)
        fast, ref = GAME.new_state(number), GAME.new_state(number)
        while not ref.is_terminal():
            legal = state.reference_legal_actions(ref)
            assert state_fast.legal_actions(fast) == legal
            assert state_fast.legal_mask(fast) == state.reference_legal_mask(ref)
            if positions % 5 == 0:
                seat = rng.randrange(4)
                assert state_fast.observation(fast, seat) == state.reference_observation(ref, seat)
                wrong = rng.choice(CARD_NAMES)
                mover = ref.to_move ^ (number & 1)
                fast_copy, ref_copy = fast.clone(), ref.clone()
                assert outcome(state_fast.apply, fast_copy, wrong, mover) == outcome(
                    state.reference_apply, ref_copy, wrong, mover)
                assert fields(fast_copy) == fields(ref_copy)
                assert fields(fast) == fields(ref)
            card = legal[rng.randrange(len(legal))]
            if positions % 2:
                state_fast.play(fast, cards.CARD_INDEX[card])
                state.reference_play(ref, cards.CARD_INDEX[card])
            else:
                state_fast.apply(fast, card.lower() if number % 3 == 0 else card)
                state.reference_apply(ref, card.lower() if number % 3 == 0 else card)
            assert fields(fast) == fields(ref)
            positions += 1
        assert state_fast.legal_actions(fast) == [] and state_fast.legal_mask(fast) == 0
        assert outcome(state_fast.apply, fast, "SQ") == outcome(state.reference_apply, ref, "SQ")
        assert fast.payoffs() == ref.payoffs() and fast.perfect_view() == ref.perfect_view()
    assert positions >= 100_000
    assert outcome(state_fast.observation, fast, 4) == outcome(state.reference_observation, ref, 4)
    assert outcome(state_fast.apply, GAME.new_state(0), "S11") == outcome(
        state.reference_apply, GAME.new_state(0), "S11")


def test_card_masks() -> None:
    rng = random.Random(0)
    for _ in range(100_000):
        mask = rng.getrandbits(52) & rng.getrandbits(52)
        names = cards.reference_cards_of(mask)
        assert cards_fast.cards_of(mask) == names
        assert cards_fast.mask_of(names) == cards.reference_mask_of(names) == mask
    for odd in (-1, -(1 << 40), FULL_MASK + 1):
        assert outcome(cards_fast.cards_of, odd) == outcome(cards.reference_cards_of, odd)
    assert outcome(cards_fast.mask_of, ["SQ", "Q"]) == outcome(cards.reference_mask_of, ["SQ", "Q"])


class Subclassed(random.Random):
    """A generator that is not a plain ``random.Random``: drawn through its own methods."""

    def random(self) -> float:
        return super().random()


def test_sampling() -> None:
    """The same hands (or the same error) from generators in the same state, on 10^5 seeded inputs; the
    generators stay in step throughout."""
    master = random.Random(1)
    plain = random.Random(2), random.Random(2)
    subclassed = Subclassed(2), Subclassed(2)
    for checked in range(100_000):
        sizes = [master.randrange(0, 7) for _ in range(master.choice((1, 2, 3, 3, 3, 3)))]
        unseen = sum(1 << card for card in master.sample(range(52), sum(sizes)))
        sizes[0] += master.random() < 0.02
        forbidden = [sum(SUIT_MASKS[suit] for suit in range(4) if master.random() < 0.25) for _ in sizes]
        ref_rng, fast_rng = subclassed if checked % 50 == 0 else plain
        expected = outcome(sampling.reference_sample_hidden_hands, unseen, sizes, forbidden, ref_rng)
        assert outcome(sampling_fast.sample_hidden_hands, unseen, sizes, forbidden, fast_rng) == expected
    assert plain[0].getstate() == plain[1].getstate() and subclassed[0].getstate() == subclassed[1].getstate()
    big = random.Random(3)  # four hands of 13: beyond the compiled range, given to the reference
    assert sampling_fast.sample_hidden_hands(FULL_MASK, [13] * 4, [0] * 4, big) == \
        sampling.reference_sample_hidden_hands(FULL_MASK, [13] * 4, [0] * 4, random.Random(3))


def test_shuffled_hands() -> None:
    """The hands of every seeded deal, and the generator's state after it, as ``rng.shuffle`` leaves them."""
    for seed in range(20_000):
        reference, compiled = random.Random(seed), random.Random(seed)
        hands, size = (4, 13) if seed % 10 else (seed % 7, seed % 9)
        assert sampling_fast.shuffled_hands(compiled, hands, size) == \
            sampling.reference_shuffled_hands(reference, hands, size)
        assert compiled.getstate() == reference.getstate()
    assert sampling_fast.shuffled_hands(Subclassed(5), 4, 13) == sampling.reference_shuffled_hands(Subclassed(5), 4, 13)


def use(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """Every Gongzhu fast path bound to its compiled function, or to its reference."""
    for name in METHODS:
        monkeypatch.setattr(state.GongzhuState, name,
                            getattr(state_fast, name) if compiled else getattr(state, "reference_" + name))
    monkeypatch.setattr(gongzhu_greed, "trick_values",
                        greed_fast.trick_values if compiled else gongzhu_greed.reference_trick_values)
    monkeypatch.setattr(gongzhu_greed, "sample_hidden_hands",
                        sampling_fast.sample_hidden_hands if compiled else sampling.reference_sample_hidden_hands)
    monkeypatch.setattr(gongzhu_common, "table_view",
                        common_fast.table_view if compiled else gongzhu_common.reference_table_view)
    monkeypatch.setattr(state, "cards_of", cards_fast.cards_of if compiled else cards.reference_cards_of)


def bot_games(make_agents, games: int) -> list:
    """Every decision (the observation's table view, the legal cards, the choice and its values) of seeded games."""
    decisions = []
    for number in range(games):
        agents = make_agents(number)
        game_state = GAME.new_state(number)
        while not game_state.is_terminal():
            seat = game_state.current_player
            observation, legal = game_state.observation(seat), game_state.legal_actions()
            agent = agents[seat]
            values = agent.values(observation, legal) if isinstance(agent, GongzhuGreedAgent) else None
            card = agent.act(observation, legal)
            decisions.append((gongzhu_common.TableView.from_observation(observation), legal, card, values))
            game_state.apply(card)
        decisions.append(game_state.payoffs())
    return decisions


@pytest.mark.parametrize("samples, games", [(2, 12), (20, 2)])
def test_greed_and_if_decisions(monkeypatch: pytest.MonkeyPatch, samples: int, games: int) -> None:
    """Whole seeded games between ``mr-greed`` and ``mr-if`` bots: every decision equal on both paths."""
    def make_agents(number: int) -> list:
        return [GongzhuGreedAgent(number + seat, GreedConfig(samples=samples)) if (number + seat) % 3
                else GongzhuIfAgent(number + seat) for seat in range(4)]

    use(monkeypatch, True)
    compiled = bot_games(make_agents, games)
    use(monkeypatch, False)
    assert bot_games(make_agents, games) == compiled
