"""A coloretto-engine/1 program for tests that breaks the protocol on purpose.

``python3 broken_bot.py MODE``:
- ``garbage-hello``: answers ``hello`` with a line that is not JSON;
- ``exit-on-decide``: answers ``hello`` with ``ready``, then exits at the first ``decide``.
"""

import json
import sys

mode = sys.argv[1]
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        if mode == "garbage-hello":
            print("hello to you too!", flush=True)
        else:
            print(json.dumps({"type": "ready", "name": "broken"}), flush=True)
    elif msg["type"] == "decide":
        sys.exit(3)
    elif msg["type"] == "quit":
        break
