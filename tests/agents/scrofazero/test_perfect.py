"""ScrofaZero's double-dummy analysis player: best cards in small endgames, whole games and evaluations through
``play_game`` (which alone gives it the state), its names and their errors, and its refusal wherever an
observation is all there is (``act``, the arena, the agent bridge)."""

import io

import pytest
from tests.agents.scrofazero.test_mcts import card_values, game_at

from paiju.agents import make_agent
from paiju.agents.bridge import run_stdio_bot
from paiju.agents.scrofazero import agent as scrofazero_agent
from paiju.agents.scrofazero.agent import parse_perfect_argument
from paiju.agents.scrofazero.model import ModelConfig, ScrofaNet, save
from paiju.agents.scrofazero.perfect import PerfectScrofaZero
from paiju.core.agent import PerfectInformationAgent, require_observing
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.eval.gongzhu import GongzhuEvalConfig, evaluate_gongzhu
from paiju.games.gongzhu import Gongzhu
from paiju.serve import bots

GAME = Gongzhu()


@pytest.fixture(scope="module")
def model() -> ScrofaNet:
    return ScrofaNet(ModelConfig(8, 8, 8, 0), seed=1)


@pytest.fixture(scope="module")
def model_file(model, tmp_path_factory):
    path = tmp_path_factory.mktemp("perfect") / "tiny.pt"
    save(model, path)
    return path


@pytest.mark.parametrize(("seed", "played"), [(10, 44), (27, 46), (0, 47)])
def test_finds_the_double_dummy_best_card_of_a_small_endgame(model, seed, played):
    state = game_at(seed, played)
    values = card_values(state)
    best = max(values.values())
    assert sorted(values.values())[-2] < best  # one card is strictly best: a wrong choice is visible
    for agent_seed in range(3):
        agent = PerfectScrofaZero(model, seed=agent_seed, simulations=300)
        assert values[agent.act_perfect(state.clone(), state.legal_actions())] == best
        ranked = agent.explain_perfect(state.clone(), state.legal_actions())
        assert [scored.score for scored in ranked] == sorted((scored.score for scored in ranked), reverse=True)
        assert sorted(scored.action for scored in ranked) == sorted(state.legal_actions())


class StateSpy(PerfectInformationAgent):
    """Plays the first legal card; counts the decisions where it saw other seats' cards, then plays another card in
    its copy of the state (had it been given the game's own state, the game would go wrong)."""

    name = "spy"

    def __init__(self) -> None:
        self.full_hands = 0

    def act_perfect(self, state, legal):
        self.full_hands += any(hand for seat, hand in enumerate(state.hands) if seat != state.to_move)
        choice = legal[0]
        state.play(state.legal_mask().bit_length() - 1)
        return choice


def test_play_game_gives_perfect_agents_a_copy_of_the_full_state_only():
    spies = [StateSpy(), StateSpy()]
    random_seats = [make_agent("random", "gongzhu", seat) for seat in (1, 3)]
    final = play_game(GAME, [spies[0], random_seats[0], spies[1], random_seats[1]], seed=4)
    assert final.is_terminal() and len(final.actions) == 52
    assert all(spy.full_hands >= 12 for spy in spies)


def test_a_whole_game_through_play_game_finishes(model_file):
    agents = [make_agent(f"scrofazero:perfect,path={model_file},simulations=4", "gongzhu", seed) for seed in (0, 2)]
    assert all(isinstance(agent, PerfectScrofaZero) and agent.simulations == 4 for agent in agents)
    others = [make_agent("random", "gongzhu", seed) for seed in (1, 3)]
    final = play_game(GAME, [agents[0], others[0], agents[1], others[1]], seed=11)
    assert final.is_terminal() and len(final.actions) == 52
    assert final.payoffs()[0] == final.payoffs()[2] == -final.payoffs()[1]


def test_a_duplicate_evaluation_runs_it_as_an_upper_bound(model_file):
    config = GongzhuEvalConfig(agent_a=f"scrofazero:perfect,path={model_file},simulations=3", agent_b="random",
                               deals=1, seed=5)
    report = evaluate_gongzhu(config, progress=False)
    assert report.summary.games == 2


def test_act_on_an_observation_refuses(model):
    state = game_at(3, 20)
    agent = PerfectScrofaZero(model)
    with pytest.raises(PaijuError, match=r"needs the full game state.*analysis only"):
        agent.act(state.observation(state.to_move), state.legal_actions())
    with pytest.raises(PaijuError, match="full GongzhuState"):
        agent.act_perfect(state.observation(state.to_move), state.legal_actions())
    with pytest.raises(PaijuError, match="legal cards"):
        agent.act_perfect(state.clone(), [*state.legal_actions()[:1], "XX"])


def test_the_arena_and_the_bridge_refuse_it(model_file, monkeypatch):
    name = f"scrofazero:perfect,path={model_file}"
    with pytest.raises(PaijuError, match="unknown agent"):
        bots.make_bot(name, "gongzhu", 0)
    monkeypatch.setattr(bots, "offered_agents", lambda game: [name])  # even if it were ever offered
    with pytest.raises(PaijuError, match=r"sees every hand.*the arena"):
        bots.make_bot(name, "gongzhu", 0)
    with pytest.raises(PaijuError, match=r"sees every hand.*the agent bridge"):
        run_stdio_bot(name, "gongzhu", 0, io.BytesIO(), io.BytesIO())
    plain = make_agent("random", "gongzhu", 0)
    assert require_observing(plain, "the arena") is plain


def test_names_and_their_options(model_file, tmp_path, monkeypatch):
    assert parse_perfect_argument("perfect") == ("", None)
    assert parse_perfect_argument(f"perfect,path={model_file},simulations=40") == (str(model_file), 40)
    plain = make_agent(f"scrofazero:path={model_file},simulations=2", "gongzhu")
    assert isinstance(plain, scrofazero_agent.ScrofaZeroAgent)
    monkeypatch.setattr(scrofazero_agent, "SHIPPED_MODEL", tmp_path / "missing.pt")
    with pytest.raises(PaijuError, match=r"needs a model.*scrofazero:perfect,path=MODEL"):
        make_agent("scrofazero:perfect", "gongzhu")
    monkeypatch.setattr(scrofazero_agent, "SHIPPED_MODEL", model_file)
    assert isinstance(make_agent("scrofazero:perfect", "gongzhu"), PerfectScrofaZero)


@pytest.mark.parametrize(("argument", "message"), [
    ("perfect,sampler=iec", "takes no sampler= option"),
    ("perfect,scenarios=5", "takes no scenarios= option"),
    ("perfect,beta=0.1", "takes no beta= option"),
    ("perfect,depth=3", r"unknown scrofazero:perfect option 'depth'; accepted keys: path, simulations$"),
    ("perfect,model.pt", "'model.pt' is not key=value; accepted keys: path, simulations"),
    ("perfect,simulations=many", "simulations must be a whole number"),
    ("perfect,simulations=0", "simulations must be a whole number >= 1"),
])
def test_bad_options_are_refused(argument, message):
    with pytest.raises(PaijuError, match=message):
        make_agent(f"scrofazero:{argument}", "gongzhu")
