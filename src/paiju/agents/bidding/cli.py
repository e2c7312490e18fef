"""The ``--bidding rules|learned`` option of ``paiju eval doudizhu`` and ``paiju play doudizhu``."""

from __future__ import annotations

from paiju.agents.bidding import NAME
from paiju.core.errors import PaijuError

BIDDINGS = ("rules", "learned")


def with_bidding(spec: str, bidding: str, mode: str) -> str:
    """``spec`` as it bids under ``bidding``: unchanged for ``rules`` (the agent's own bids), wrapped in
    ``learned-bid:`` for ``learned`` (unless it already is). ``learned`` needs full mode: research games have
    no bidding."""
    if bidding not in BIDDINGS:
        raise PaijuError(f"unknown bidding {bidding!r}; use {' or '.join(BIDDINGS)}")
    if bidding == "rules":
        return spec
    if mode != "full":
        raise PaijuError(f"--bidding learned needs --mode full: {mode} games have no bidding")
    return spec if spec.partition(":")[0] == NAME else f"{NAME}:{spec}"


__all__ = ["BIDDINGS", "with_bidding"]
