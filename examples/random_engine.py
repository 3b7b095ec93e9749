#!/usr/bin/env python3
"""A complete Coloretto engine speaking ``coloretto-engine/1`` (docs/engine-protocol.md).

It plays a legal action chosen at random, with one small idea to show how an engine reads
the observation: on its turn it takes a row when the row holds at least two cards of
colours it already collects, otherwise it draws if it may. Plain Python, standard library
only. Try it:

    coloretto tournament --agents 'cmd:python3 examples/random_engine.py',random,random,random --games 8

The protocol in brief: the host writes one JSON object per line to our standard input and
reads one JSON object per line from our standard output.

    host -> engine                              engine -> host
    {"type": "hello", "seat": 2, "rules": ...}  {"type": "ready", "name": "..."}
    {"type": "decide", "observation": {...},    {"type": "action", "action": <one of legal>}
     "legal": [...], "time_ms": 500}
    {"type": "result", "scores": [...], ...}    (nothing)
    {"type": "quit"}                            (exit)

Rules of thumb for engine authors:
- Write exactly one line per answer and flush it (``print(..., flush=True)``).
- Never write anything else to standard output; use standard error for logging.
- Answer ``decide`` within ``time_ms`` (the host adds a documented grace, then gives up).
- Copy the chosen action from ``legal`` rather than building it yourself.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

NAME = "random-example"


def choose(
    observation: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """Pick one element of ``legal`` for ``observation`` (a coloretto-observation/1 object)."""
    if observation["decision"] == "turn":
        me = observation["collections"][observation["seat"]]["colors"]  # colour -> count
        for action in legal:
            if action["action"] == "take":
                cards = observation["rows"][action["row"]]["cards"]
                if sum(1 for card in cards if card in me) >= 2:
                    return action
        draws = [a for a in legal if a["action"] == "draw"]
        if draws and rng.random() < 0.8:
            return draws[0]
    return rng.choice(legal)


def main() -> int:
    rng = random.Random()
    for line in sys.stdin:  # one message per line; the loop ends when the host closes our input
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            # A new game. "seed" is optional: use it to be reproducible.
            rng = random.Random(message.get("seed"))
            print(
                f"new game, seat {message['seat']}, {message['rules']['players']} players",
                file=sys.stderr,
            )
            print(json.dumps({"type": "ready", "name": NAME}), flush=True)
        elif kind == "decide":
            action = choose(message["observation"], message["legal"], rng)
            print(json.dumps({"type": "action", "action": action}), flush=True)
        elif kind == "result":
            print(
                f"game over: scores {message['scores']}, winners {message['winners']}",
                file=sys.stderr,
            )
        elif kind == "quit":
            break
        # Unknown message types are ignored: later versions may add some.
    return 0


if __name__ == "__main__":
    sys.exit(main())
