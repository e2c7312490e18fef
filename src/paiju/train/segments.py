"""Rows grouped by decision: the candidates of many decisions in one tensor, ``owner[i]`` the decision of row
``i`` (PerfectDou's policy over abstract actions, the DMC warm start's imitation of a teacher)."""

from __future__ import annotations

import torch


def log_softmax_by_decision(logits: torch.Tensor, owner: torch.Tensor, decisions: int) -> torch.Tensor:
    """Log-softmax of each decision's candidates (``owner[i]`` the decision of row ``i``)."""
    top = logits.new_full((decisions,), -torch.inf).scatter_reduce(0, owner, logits.detach(), "amax")
    shifted = logits - top[owner]
    total = logits.new_zeros(decisions).index_add(0, owner, shifted.exp())
    return shifted - total.log()[owner]


def owners(counts: torch.Tensor) -> torch.Tensor:
    """``owner`` of rows grouped by decision, decision ``k`` having ``counts[k]`` rows."""
    return torch.repeat_interleave(torch.arange(len(counts), device=counts.device), counts)


def first_rows(counts: torch.Tensor) -> torch.Tensor:
    """The index of each decision's first row."""
    return torch.cumsum(counts, 0) - counts


def top1_agreement(scores: torch.Tensor, owner: torch.Tensor, chosen: torch.Tensor) -> float:
    """Share of decisions whose highest score is at row ``chosen[k]`` (ties count as agreement)."""
    best = scores.new_full((len(chosen),), -torch.inf).scatter_reduce(0, owner, scores.detach(), "amax")
    return (scores.detach()[chosen] >= best).float().mean().item()


__all__ = ["first_rows", "log_softmax_by_decision", "owners", "top1_agreement"]
