"""A protocol bot that misbehaves on purpose, for testing how paiju handles external agent faults.

Usage: ``faulty_bot.py [--after N] FAULT [ARG]``. It first writes its process id to stderr, then answers the
first N ``act`` requests with the first legal action and commits FAULT on the next one:

- ``crash``: raises an exception (exit code 1, a traceback on stderr);
- ``answer TEXT``: answers the line TEXT (garbage, JSON without "action", an action not in legal, ...);
- ``sleep``: never answers;
- ``quit CODE``: exits with CODE as soon as it reads the ``start`` message, before any ``act``;
- ``chatty``: answers the first ``act`` twice, in one write (nobody asked for the second line).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("fault", choices=["crash", "answer", "sleep", "quit", "chatty"])
    parser.add_argument("argument", nargs="?", default="")
    args = parser.parse_args()
    print(f"faulty bot pid {os.getpid()}", file=sys.stderr, flush=True)
    answered = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start" and args.fault == "quit":
            sys.exit(int(args.argument))
        if message["type"] != "act":
            continue
        if answered < args.after or args.fault == "quit":
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
        else:
            time.sleep(3600)


if __name__ == "__main__":
    main()
