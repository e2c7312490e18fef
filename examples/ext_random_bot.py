"""A random player for paiju's external agent protocol v1, in plain Python (it does not import paiju).

Play it in paiju wherever an agent is named: ``ext:python examples/ext_random_bot.py``. It reads one JSON
message per line from stdin; ``start`` and ``end`` need no answer, and every ``act`` is answered with
``{"action": A}``, A a uniformly random element of ``legal`` copied verbatim, then a flush.

Options: ``--seed N`` makes its choices reproducible; ``--log FILE`` appends every message it receives to
FILE (one JSON line each), which shows exactly what paiju lets this seat see.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TextIO


def play(rng: random.Random, log: TextIO | None) -> None:
    """Answer every ``act`` on stdin with a random legal action until stdin ends."""
    for line in sys.stdin:
        if log is not None:
            log.write(line)
            log.flush()
        message = json.loads(line)
        if message["type"] == "act":
            print(json.dumps({"action": rng.choice(message["legal"])}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    parser.add_argument("--log", default=None, help="append every received message to this file")
    args = parser.parse_args()
    sys.stdin.reconfigure(encoding="utf-8")
    rng = random.Random(args.seed)
    if args.log is None:
        play(rng, None)
        return
    with open(args.log, "a", encoding="utf-8") as log:
        play(rng, log)


if __name__ == "__main__":
    main()
