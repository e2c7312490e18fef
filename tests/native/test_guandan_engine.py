"""The compiled GuanDan engine (``guandan._legal_fast``, ``guandan._state_fast``) against the reference Python.

- ``legal_plays``: the same plays in the same order on more than 10^5 seeded positions — decisions of random
  rounds at every level, fresh 27-card hands leading and following plays of other hands, and bomb-rich hands
  following bombs and straight flushes;
- ``GuanDanState``: seeded random games (tribute phases included) played on either path give the same
  records, legal lists and refusals; every listed play passes the reference's checks, which is what lets the
  compiled ``apply`` take a listed play without checking it again.
"""

from __future__ import annotations

import random

import pytest

import paiju
from paiju.core.errors import IllegalActionError
from paiju.games.guandan import GuanDanRules
from paiju.games.guandan import state as state_module
from paiju.games.guandan.cards import DECK, NUM_RANKS, RANKS, pack
from paiju.games.guandan.combos import PASS, ComboType, Play
from paiju.games.guandan.legal import reference_legal_plays

_legal_fast = pytest.importorskip("paiju.games.guandan._legal_fast")
_state_fast = pytest.importorskip("paiju.games.guandan._state_fast")
compiled_legal_plays = _legal_fast.legal_plays
GuanDanState = state_module.GuanDanState
BOMBS = (ComboType.BOMB, ComboType.STRAIGHT_FLUSH, ComboType.JOKER_BOMB)


def assert_same(hand: int, level: int, follow: Play | None = None) -> list[Play]:
    expected = reference_legal_plays(hand, level, follow)
    got = compiled_legal_plays(hand, level, follow)
    assert got == expected, f"hand {hand:#x} level {level} follow {follow}"
    assert all(type(play) is Play for play in got)
    return got


def random_round(seed: int) -> list[tuple[int, int, Play | None]]:
    """Every decision (hand, level, play to beat) of one round of uniformly random play, level ``seed % 13``."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [pack(deck[27 * seat:27 * seat + 27]) for seat in range(4)]
    level = seed % NUM_RANKS
    seat = top = rng.randrange(4)
    follow: Play | None = None
    passes = 0
    decisions = []
    while True:
        decisions.append((hands[seat], level, follow))
        legal = compiled_legal_plays(hands[seat], level, follow)
        play = legal[rng.randrange(len(legal))]
        if play == PASS:
            passes += 1
        else:
            hands[seat] -= play.packed
            follow, top, passes = play, seat, 0
            if not hands[seat] and (not hands[seat ^ 2] or sum(map(bool, hands)) == 1):
                return decisions
        active = sum(map(bool, hands))
        if passes >= (active - 1 if hands[top] else active):
            follow, passes = None, 0
            seat = top if hands[top] else top ^ 2
        else:
            seat = next((seat + step) % 4 for step in (1, 2, 3) if hands[(seat + step) % 4])


def test_legal_plays_of_random_rounds():
    positions = 0
    for seed in range(780):
        for hand, level, follow in random_round(seed):
            assert_same(hand, level, follow)
            positions += 1
    assert positions > 100_000


def test_legal_plays_of_fresh_hands_leading_and_following():
    rng = random.Random(7)
    for _ in range(120):
        deck = list(DECK)
        rng.shuffle(deck)
        hand, other = pack(deck[:27]), pack(deck[27:54])
        # Half the hands play at the level of one of their hearts: one or two wild cards.
        hearts = [card // 4 for card in deck[:27] if card < 52 and card % 4 == 0]
        level = rng.choice(hearts) if hearts and rng.random() < 0.5 else rng.randrange(NUM_RANKS)
        assert_same(hand, level)
        leads = assert_same(other, level)
        for follow in rng.sample(leads, 25):
            assert_same(hand, level, follow)


def test_legal_plays_of_bomb_rich_hands_following_bombs():
    rng = random.Random(11)
    for _ in range(300):
        ranks = rng.sample(range(NUM_RANKS), 4)
        pool = [card for card in DECK if card >= 52 or card // 4 in ranks]
        rng.shuffle(pool)
        level = rng.choice(ranks) if rng.random() < 0.7 else rng.randrange(NUM_RANKS)
        hand, other = pack(pool[:27]), pack(pool[27:])
        bombs = [play for play in assert_same(other, level) if play.type in BOMBS]
        assert_same(hand, level)
        for follow in rng.sample(bombs, min(len(bombs), 15)):
            assert_same(hand, level, follow)


def use_path(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """Run ``GuanDanState`` on the compiled or the reference path in this process."""
    monkeypatch.setattr(GuanDanState, "apply", _state_fast.apply if compiled else state_module.reference_apply)
    monkeypatch.setattr(GuanDanState, "legal_actions",
                        _state_fast.legal_actions if compiled else state_module.reference_legal_actions)
    monkeypatch.setattr(state_module, "legal_plays", compiled_legal_plays if compiled else reference_legal_plays)
    monkeypatch.setattr(_state_fast, "legal_plays", compiled_legal_plays)


def refusal(state: GuanDanState, action: object, seat: int | None = None) -> str:
    """The message of ``apply``'s refusal (the state is left as it was)."""
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action, seat)
    return str(caught.value)


def random_game(seed: int, check_listed: bool) -> list[object]:
    """A seeded random game of three rounds from level ``seed % 13``: its legal lists, refusals of wrong
    actions (out of turn, a stale play, a plain int, a pass when leading) and record. Now and then the
    chosen play is passed as an equal copy, not the listed object."""
    rules = GuanDanRules(rounds=3, start_level=RANKS[seed % NUM_RANKS])
    state = paiju.load_game("guandan").new_state(seed, rules)
    rng = random.Random(seed)
    trace: list[object] = []
    stale = PASS
    while not state.is_terminal():
        legal = state.legal_actions()
        trace.append(list(legal))
        if check_listed and state.phase == "play":
            assert all(state._play_problem(play) is None for play in legal)
        if rng.random() < 0.05:
            seat = state.current_player
            trace.append(refusal(state, legal[0], (seat + 1) % 4))
            if state.phase == "play":
                trace.append(refusal(state, int(legal[-1])))
                if stale not in legal:
                    trace.append(refusal(state, stale))
                if state.greater is None:
                    trace.append(refusal(state, PASS))
        action = legal[rng.randrange(len(legal))]
        if isinstance(action, Play):
            stale = action
            if rng.random() < 0.1:
                action = Play(int(action))
        state.apply(action)
    trace.append(state.to_record())
    trace.append(state.perfect_view())
    return trace


def test_random_games_alike_on_both_paths(monkeypatch):
    traces = {}
    for compiled in (True, False):
        use_path(monkeypatch, compiled)
        traces[compiled] = [random_game(seed, check_listed=not compiled and seed < 20) for seed in range(60)]
    assert traces[True] == traces[False]
