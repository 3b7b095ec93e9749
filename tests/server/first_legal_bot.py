"""A minimal coloretto-engine/1 program for tests: always plays the first legal action."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "first-legal"}), flush=True)
    elif msg["type"] == "decide":
        print(json.dumps({"type": "action", "action": msg["legal"][0]}), flush=True)
    elif msg["type"] == "quit":
        break
