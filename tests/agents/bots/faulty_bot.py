"""A protocol bot that misbehaves on purpose, for testing how paiju handles external agent faults.

Usage: ``faulty_bot.py [--after N] [--pids FILE] FAULT [ARG]``. It first writes its process id to stderr (and
appends it to FILE as a line), then answers the first N ``act`` requests with the first legal action and
commits FAULT on the next one:

- ``crash``: raises an exception (exit code 1, a traceback on stderr);
- ``answer TEXT``: answers the line TEXT (garbage, JSON without "action", an action not in legal, ...);
- ``sleep``: never answers;
- ``quit CODE``: exits with CODE as soon as it reads the ``start`` message, before any ``act``;
- ``chatty``: answers the first ``act`` twice, in one write (nobody asked for the second line);
- ``stderr-flood``: writes to stderr without end and without a newline, never answering;
- ``stdout-flood``: writes to stdout without end and without a newline;
- ``none``: no fault, it answers every ``act``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TextIO


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--pids", default=None)
    parser.add_argument("fault", choices=["crash", "answer", "sleep", "quit", "chatty", "stderr-flood",
                                          "stdout-flood", "none"])
    parser.add_argument("argument", nargs="?", default="")
    args = parser.parse_args()
    print(f"faulty bot pid {os.getpid()}", file=sys.stderr, flush=True)
    if args.pids is not None:
        with open(args.pids, "a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()}\n")
    answered = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start" and args.fault == "quit":
            sys.exit(int(args.argument))
        if message["type"] != "act":
            continue
        if answered < args.after or args.fault in ("quit", "none"):
            answered += 1
            print(json.dumps({"action": message["legal"][0]}), flush=True)
        elif args.fault == "chatty":
            answered += 1
            answers = [json.dumps({"action": message["legal"][0]}), json.dumps({"action": "hello"})]
            sys.stdout.write("".join(answer + "\n" for answer in answers))
            sys.stdout.flush()
        elif args.fault == "crash":
            raise RuntimeError("the bot crashed on purpose")
        elif args.fault == "answer":
            print(args.argument, flush=True)
        elif args.fault.endswith("flood"):
            flood(sys.stderr if args.fault == "stderr-flood" else sys.stdout)
        else:
            time.sleep(3600)


def flood(stream: TextIO) -> None:
    """Write to ``stream`` until it breaks, never a newline."""
    chunk = "x" * (1 << 16)
    while True:
        stream.write(chunk)
        stream.flush()


if __name__ == "__main__":
    main()
