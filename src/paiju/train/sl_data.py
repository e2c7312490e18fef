"""Supervised samples cut from a corpus of DouDizhu records (DeepRocket §4.2: state-action pairs of every play).

Each record is replayed through the engine; at every play decision with two legal labels or more the policy
gets a sample (the planes, the legal labels, the label played), and for every kicker unit of the play with two
choices or more the kicker network gets one (its planes, the kickers allowed, the kicker played) — the inputs
the agent itself computes (``paiju.agents.deeprocket.features``). Decisions with one legal label (a forced
pass) teach nothing and would only inflate the accuracy; they are left out. Bids are not samples: bidding is
the bid module's.

Samples are stored compactly, bits packed along the 15 ranks (``pack_planes``: 798 bytes a policy sample
instead of 5,985) and unpacked batch by batch on the training device (``unpack_bits``). Games are split by
their position in their file: every ``HOLD_OUT``-th game (index ≡ ``HOLD_OUT`` − 1) is held out for
validation, so a game's decisions are never split between training and validation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from paiju.agents.deeprocket.features import kicker_step, policy_decision, unseen_cards
from paiju.agents.deeprocket.labels import (
    KICKER_COUNT,
    LABEL_COUNT,
    category_of_move,
    kicker_kind,
    kicker_labels,
    main_label,
)
from paiju.games.doudizhu import DouDizhu
from paiju.records.corpus import CorpusReader

HOLD_OUT = 10


def pack_planes(planes: np.ndarray) -> np.ndarray:
    """Bits of a 0/1 array packed along its last axis (little-endian bit order)."""
    return np.packbits(planes, axis=-1, bitorder="little")


def unpack_bits(packed: torch.Tensor, width: int) -> torch.Tensor:
    """``pack_planes`` undone on any device: uint8 [..., ceil(width / 8)] → uint8 [..., width]."""
    shifts = torch.arange(8, device=packed.device, dtype=torch.uint8)
    return ((packed.unsqueeze(-1) >> shifts) & 1).flatten(-2)[..., :width]


@dataclass
class Samples:
    """Packed samples of one network: ``planes`` uint8 [n, Z, Y, 2], ``mask`` uint8 [n, bytes] (legal
    outputs, packed), ``label`` int16 [n], ``category`` int8 [n] (Table 3 category of the label; kicker
    samples: 0 solo, 1 pair), ``held_out`` bool [n]."""

    planes: np.ndarray
    mask: np.ndarray
    label: np.ndarray
    category: np.ndarray
    held_out: np.ndarray

    def __len__(self) -> int:
        return len(self.label)

    @staticmethod
    def concatenate(parts: list[Samples]) -> Samples:
        return Samples(*(np.concatenate([getattr(p, name) for p in parts]) for name in
                         ("planes", "mask", "label", "category", "held_out")))

    def select(self, rows: np.ndarray) -> Samples:
        return Samples(self.planes[rows], self.mask[rows], self.label[rows], self.category[rows],
                       self.held_out[rows])


@dataclass
class _Builder:
    rows: dict[str, list[Any]] = field(default_factory=lambda: {name: [] for name in
                                                                 ("planes", "mask", "label", "category", "held_out")})

    def add(self, planes: np.ndarray, mask: np.ndarray, label: int, category: int, held_out: bool) -> None:
        self.rows["planes"].append(pack_planes(planes))
        self.rows["mask"].append(np.packbits(mask, bitorder="little"))
        self.rows["label"].append(label)
        self.rows["category"].append(category)
        self.rows["held_out"].append(held_out)

    def samples(self, planes_shape: tuple[int, ...], outputs: int) -> Samples:
        count = len(self.rows["label"])
        if count == 0:
            return Samples(np.zeros((0, *planes_shape[:-1], 2), np.uint8), np.zeros((0, (outputs + 7) // 8), np.uint8),
                           np.zeros(0, np.int16), np.zeros(0, np.int8), np.zeros(0, bool))
        return Samples(np.stack(self.rows["planes"]), np.stack(self.rows["mask"]),
                       np.array(self.rows["label"], np.int16), np.array(self.rows["category"], np.int8),
                       np.array(self.rows["held_out"], bool))


@dataclass
class FileSamples:
    """What one corpus file gave: policy and kicker samples, games read, and the records skipped (messages)."""

    policy: Samples
    kicker: Samples
    games: int
    skipped: list[str]


def game_samples(record: dict[str, Any], held_out: bool, policy: _Builder, kicker: _Builder) -> None:
    """Add the samples of one (valid) DouDizhu record (module docs)."""
    game = DouDizhu()
    state = game.opening_state(record)
    for seat, value in record["actions"]:
        action = state.action_from_json(value)
        if state.phase == "play":
            legal = state.legal_actions()
            if len(legal) > 1:
                observation = state.observation(seat)
                decision = policy_decision(observation, legal)
                label = main_label(action)
                if decision.mask.sum() > 1:
                    policy.add(decision.planes, decision.mask, label, category_of_move(action), held_out)
                kind = kicker_kind(label)
                if kind is not None and len(decision.groups[label]) > 1:
                    moves, unseen, chosen = decision.groups[label], unseen_cards(observation), []
                    for unit in kicker_labels(action):
                        step = kicker_step(observation, label, moves, chosen, unseen)
                        if len(step.choices) > 1:
                            kicker.add(step.planes, step.mask, unit, 0 if kind == "solo" else 1, held_out)
                        chosen.append(unit)
        state.apply(action, seat=seat)


def file_samples(path: Path, limit: int | None = None) -> FileSamples:
    """The samples of the DouDizhu games in one corpus file (at most ``limit`` games)."""
    from paiju.agents.deeprocket.features import KICKER_SHAPE, POLICY_SHAPE

    reader = CorpusReader(path, "doudizhu")
    policy, kicker = _Builder(), _Builder()
    games = 0
    for index, entry in enumerate(reader):
        if limit is not None and games >= limit:
            break
        game_samples(entry.record, index % HOLD_OUT == HOLD_OUT - 1, policy, kicker)
        games += 1
    return FileSamples(policy.samples(POLICY_SHAPE, LABEL_COUNT), kicker.samples(KICKER_SHAPE, KICKER_COUNT), games,
                       list(reader.skipped))
