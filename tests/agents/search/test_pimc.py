"""PIMC's choice: the prior's candidate stands unless another beats it clearly, world by world."""

from paiju.agents.search.pimc import Estimate, ranked_estimates


def estimate(action, values, weights=None):
    return Estimate(action, list(values), list(weights or [1.0] * len(values)))


def test_the_prior_choice_stands_against_noise():
    prior = estimate("prior", [1, -1, 1, -1, 1, -1])
    noisy = estimate("noisy", [-1, 1, 1, 1, 1, -1])  # mean +1/3 against 0, but no clear paired gain
    assert [e.action for e in ranked_estimates([prior, noisy], z=1.0)] == ["prior", "noisy"]
    assert [e.action for e in ranked_estimates([prior, noisy], z=0.0)] == ["noisy", "prior"]


def test_a_candidate_better_in_every_world_is_taken():
    prior = estimate("prior", [0, -2, 1, 0])
    better = estimate("better", [1, -1, 2, 1])
    worse = estimate("worse", [-3, -3, -3, -3])
    ranked = ranked_estimates([prior, worse, better], z=3.0)
    assert [e.action for e in ranked] == ["better", "prior", "worse"]
    assert ranked[0].mean == 0.75


def test_weights_count_worlds_unequally():
    prior = estimate("prior", [0, 0, 0], [1.0, 1.0, 0.0])
    other = estimate("other", [1, 1, -9], [1.0, 1.0, 0.0])
    assert ranked_estimates([prior, other], z=2.0)[0].action == "other"
    assert other.mean == 1.0
