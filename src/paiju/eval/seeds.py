"""Seeds derived from an evaluation's master seed, so that every deal and every agent gets its own stream
and a result never depends on the order or the process in which games are played."""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *path: int | str) -> int:
    """A 63-bit seed from ``seed`` and a path such as ``("deck", 17)``: BLAKE2b of the parts' text.

    Distinct paths give unrelated seeds; the same path always gives the same seed, on every platform.
    """
    text = "/".join(str(part) for part in (seed, *path))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
