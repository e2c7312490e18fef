"""paiju's errors survive the trip from a worker process: pickled and unpickled, they are the same error."""

from __future__ import annotations

import pickle

from paiju.core.errors import AgentError


def test_agent_error_pickles_with_its_agent_seat_and_problem() -> None:
    error = AgentError("ext:bot --fast", 2, "act request (phase 'play', move 4): the program gave no answer")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is AgentError
    assert (copy.agent, copy.seat, copy.problem) == ("ext:bot --fast", 2, error.problem)
    assert str(copy) == str(error) == f"agent 'ext:bot --fast' at seat 2: {error.problem}"
