"""DouZero-style features: layout invariants, and equality with DouZero's own encoder when it is installed."""

import random

import numpy as np
import pytest

import paiju
from paiju.agents.dmc.douzero_features import LANDLORD_X, PEASANT_X, Z_SHAPE, card_rows, encode
from paiju.core.errors import PaijuError
from paiju.games.doudizhu import DouDizhuRules, parse_cards
from paiju.games.doudizhu.cards import FULL_DECK, pack

GAME = paiju.load_game("doudizhu")
DOUZERO_POSITIONS = ("landlord", "landlord_down", "landlord_up")
DOUZERO_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)


def decisions(seeds, rules=None):
    """(state before the decision, legal actions) for every play decision of random games."""
    for seed in seeds:
        state = GAME.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == "play":
                yield state, legal
            state.apply(legal[rng.randrange(len(legal))])


def test_card_row_sets_count_thresholds_per_rank_then_jokers():
    row = card_rows([pack(parse_cards("3334B"))])[0]
    assert row.shape == (54,) and row.dtype == np.float32
    assert row[0:4].tolist() == [1, 1, 1, 0]
    assert row[4:8].tolist() == [1, 0, 0, 0]
    assert row[52:].tolist() == [1, 0]
    assert row.sum() == 5


@pytest.mark.parametrize("mode", ["research", "full"])
def test_layout_invariants(mode):
    for state, legal in decisions(range(8), DouDizhuRules(mode=mode)):
        seat = state.current_player
        obs = state.observation(seat)
        features = encode(obs, legal)
        width = LANDLORD_X if seat == state.landlord else PEASANT_X
        assert features.position == obs.position
        assert features.x.shape == (len(legal), width) and features.x.dtype == np.float32
        assert features.z.shape == Z_SHAPE and features.z_batch.shape == (len(legal), *Z_SHAPE)
        assert (features.x[:, :-54] == features.x[0, :-54]).all()
        actions = card_rows([move.packed for move in legal])
        assert np.array_equal(features.x[:, -54:], actions)
        hand, unseen = features.x[0, :54], features.x[0, 54:108]
        assert hand.sum() == sum(obs.hand)
        played = sum(sum(move.counts) for _, move in obs.history)
        assert unseen.sum() == 54 - sum(obs.hand) - played
        others = [d - h - sum(obs.played_by(s)[r] for s in range(3))
                  for r, (d, h) in enumerate(zip(FULL_DECK, obs.hand, strict=True))]
        assert np.array_equal(unseen, card_rows([pack(others)])[0])
        one_hots = features.x[0, 270:319] if seat == state.landlord else features.x[0, 378:430]
        assert one_hots.sum() == 3
        moves = features.z.reshape(15, 54)
        recent = [move for _, move in obs.history[-15:]]
        assert not moves[: 15 - len(recent)].any()
        for row, move in zip(moves[15 - len(recent):], recent, strict=True):
            assert row.sum() == move.size


def test_first_decision_of_the_landlord():
    state = GAME.new_state(7)
    legal = state.legal_actions()
    features = encode(state.observation(0), legal)
    assert not features.z.any()
    assert not features.x[0, 108:270].any()  # nothing to beat, nothing played
    assert features.x[0, 270 + 16] == 1 and features.x[0, 287 + 16] == 1  # 17 cards each
    assert features.x[0, 304] == 1  # no bombs


def test_refuses_a_bidding_observation_and_no_legal_plays():
    state = GAME.new_state(3, DouDizhuRules(mode="full"))
    with pytest.raises(PaijuError, match="phase 'bid'"):
        encode(state.observation(state.current_player), state.legal_actions())
    research = GAME.new_state(3)
    with pytest.raises(PaijuError, match="at least one legal play"):
        encode(research.observation(0), [])


@pytest.mark.parametrize("mode", ["research", "full"])
def test_equals_douzero_get_obs(mode):
    douzero_env = pytest.importorskip("douzero.env.env")
    douzero_game = pytest.importorskip("douzero.env.game")

    def cards(counts):
        return [DOUZERO_CARDS[r] for r, n in enumerate(counts) for _ in range(n)]

    class Scripted:
        def __init__(self):
            self.action = []

        def act(self, infoset):
            return self.action

    checked = 0
    rules = DouDizhuRules(mode=mode)
    for seed in range(12):
        state = GAME.new_state(seed, rules)
        rng = random.Random(seed)
        while state.phase == "bid":
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        landlord, deal = state.landlord, state.deals[-1]
        players = {position: Scripted() for position in DOUZERO_POSITIONS}
        reference = douzero_game.GameEnv(players)
        reference.card_play_init({
            "landlord": sorted(cards(np.add(deal.hands[landlord], deal.public))),
            "landlord_down": sorted(cards(deal.hands[(landlord + 1) % 3])),
            "landlord_up": sorted(cards(deal.hands[(landlord + 2) % 3])),
            "three_landlord_cards": sorted(cards(deal.public)),
        })
        while not state.is_terminal():
            seat, legal = state.current_player, state.legal_actions()
            position = DOUZERO_POSITIONS[(seat - landlord) % 3]
            infoset = reference.game_infoset
            assert infoset.player_position == position
            infoset.legal_actions = [sorted(cards(move.counts)) for move in legal]
            expected = douzero_env.get_obs(infoset)
            features = encode(state.observation(seat), legal)
            assert np.array_equal(features.x, expected["x_batch"]), f"seed {seed}, {position}"
            assert np.array_equal(features.z_batch, expected["z_batch"]), f"seed {seed}, {position}"
            move = legal[rng.randrange(len(legal))]
            players[position].action = sorted(cards(move.counts))
            reference.step()
            state.apply(move)
            checked += 1
        assert reference.game_over
    assert checked > 300
