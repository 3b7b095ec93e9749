"""A tiny coloretto-engine/1 program for the tests; its behaviour is chosen by argv[1]:

ok         plays the first legal action
crash      exits (status 3) at its first decide
killed     is killed by SIGKILL at its first decide (as by the kernel's out-of-memory killer)
silent     never answers decide (keeps reading)
malformed  answers decide with a line that is not JSON
illegal    answers decide with an action outside legal (take row 5 / draw)
farrow     answers decide with {"action": "take", "row": 99} (well-formed, illegal)
negrow     answers decide with {"action": "take", "row": -1} (malformed)
wrongtype  answers decide with a JSON object of the wrong type
noready    answers hello with something other than ready
stderr     like ok, but writes a line to standard error for every message
stubborn   like ok, but ignores quit, the end of its input and SIGTERM (must be killed)
"""

import json
import os
import signal
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
# message log, for the tests; open for the whole run
log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None  # noqa: SIM115


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    if log is not None:
        log.write(msg["type"] + "\n")
        log.flush()
    if mode == "stderr":
        print("got " + msg["type"], file=sys.stderr, flush=True)
    if msg["type"] == "hello":
        send({"type": "ready", "name": "mini"} if mode != "noready" else {"type": "hi"})
    elif msg["type"] == "decide":
        legal = msg["legal"]
        if mode == "crash":
            sys.exit(3)
        if mode == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "silent":
            continue
        if mode == "malformed":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        if mode in ("farrow", "negrow"):
            send({"type": "action", "action": {"action": "take", "row": 99 if mode == "farrow" else -1}})
            continue
        if mode == "wrongtype":
            send({"type": "move", "action": legal[0]})
            continue
        if mode == "illegal":
            bad = {"action": "take", "row": 5}
            if bad in legal:
                bad = (
                    {"action": "draw"}
                    if {"action": "draw"} not in legal
                    else {"action": "choose_start", "color": "blue"}
                )
            send({"type": "action", "action": bad})
            continue
        send({"type": "action", "action": legal[0]})
    elif msg["type"] == "quit":
        if mode == "stubborn":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                time.sleep(0.05)
        break
