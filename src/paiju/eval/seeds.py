"""Seeds derived from an evaluation's master seed, so that every deal and every agent gets its own stream
and a result never depends on the order or the process in which games are played.

Every seed is ``derive_seed(seed, purpose, ...)``: a hash of the master seed, a purpose tag and the indices,
never arithmetic on another seed, so no agent shares a deal's stream or another seat's:

- the deal of deck / deal ``d``: ``derive_seed(seed, "deck", d)`` (DouDizhu), ``derive_seed(seed, "deal", d)``
  (team duplicate);
- the agent at seat ``s`` in the games of deal ``d``: ``derive_seed(seed, "agent", d, s)`` (team duplicate: ``s``
  is the seat dealt the hand the agent holds), the same for A and B (common random numbers);
- the bootstrap of a score matrix: ``derive_seed(seed, "bootstrap")``.
"""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *path: int | str) -> int:
    """A 63-bit seed from ``seed`` and a path such as ``("deck", 17)``: BLAKE2b of the parts' text.

    Distinct paths give unrelated seeds; the same path always gives the same seed, on every platform.
    """
    text = "/".join(str(part) for part in (seed, *path))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
