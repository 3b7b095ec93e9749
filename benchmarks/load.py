"""Load benchmark of the web server: N concurrent tables played through real
WebSocket clients on loopback.

Each table has four human seats; every seat is a WebSocket client (so 4 N connections)
that, when its ``state`` carries legal actions, waits a think time and sends a random legal
action. Latency is measured from sending an action to receiving its broadcast (the ``state``
acknowledging it, which the server sends only after committing the action). Tables that
finish are replaced by new ones until the measuring time is over.

Usage:
    python benchmarks/load.py --tables 200 --seconds 30                   # SQLite (temp file)
    python benchmarks/load.py --tables 200 --database-url postgresql://postgres@127.0.0.1/test
    python benchmarks/load.py --url http://127.0.0.1:8000 --tables 20     # a running server

Prints the figures (and ``--json`` for scripts). The server runs as its own process
(``coloretto serve``); the clients run in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.errors: dict[str, int] = {}
        self.measuring = False


async def play_seat(ws_url: str, token: str, stats: Stats, think: tuple[float, float], rng: random.Random,
                    stop: asyncio.Event) -> bool:
    """One client: play its seat until the game ends (True) or ``stop`` is set (False)."""
    async with websockets.connect(ws_url, max_size=2**20, open_timeout=60, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: dict[int, float] = {}
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                continue
            if kind != "state":
                continue
            ref = msg.get("id")
            if ref is not None and ref in pending:
                sent = pending.pop(ref)
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent)
                    stats.actions += 1
            if msg["status"] == "finished":
                return True
            if stop.is_set():
                return False
            if msg["legal"]:
                if think[1] > 0:
                    await asyncio.sleep(rng.uniform(*think))
                v = msg["version"]
                pending[v] = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": rng.choice(msg["legal"]), "version": v, "id": v}))
    return False


async def run_table(base: str, ws_base: str, client: httpx.AsyncClient, stats: Stats, think: tuple[float, float],
                    seed: int, stop: asyncio.Event) -> None:
    """Create tables one after another (4 seats, all clients) until ``stop``."""
    rng = random.Random(seed)
    while not stop.is_set():
        made = (await client.post(f"{base}/api/tables", json={"name": "p0", "seats": [{"kind": "human"}] * 4})).json()
        tid = made["table"]["id"]
        tokens = [made["token"]]
        for i in range(1, 4):
            tokens.append((await client.post(f"{base}/api/tables/{tid}/join", json={"name": f"p{i}"})).json()["token"])
        url = f"{ws_base}/ws/tables/{tid}"
        done = await asyncio.gather(*(play_seat(url, tok, stats, think, random.Random(rng.random()), stop) for tok in tokens))
        if all(done) and stats.measuring:
            stats.games += 1


async def main_async(args: argparse.Namespace, base: str) -> dict[str, Any]:
    ws_base = ("wss" if base.startswith("https:") else "ws") + base[base.index(":"):]
    stats = Stats()
    stop = asyncio.Event()
    think = (args.think_ms[0] / 1000.0, args.think_ms[1] / 1000.0)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        tasks = []
        for i in range(args.tables):
            tasks.append(asyncio.create_task(run_table(base, ws_base, client, stats, think, args.seed + i, stop)))
            if i % 20 == 19:
                await asyncio.sleep(0.05)  # ramp up
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        t0 = time.perf_counter()
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        stop.set()
        await asyncio.wait(tasks, timeout=30)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": args.tables,
        "connections": 4 * args.tables,
        "think_ms": list(args.think_ms),
        "seconds": round(elapsed, 1),
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / elapsed, 1),
        "games_finished": stats.games,
        "latency_ms": {"p50": round(pct(0.50), 1), "p90": round(pct(0.90), 1), "p99": round(pct(0.99), 1),
                       "max": round(lat[-1] * 1000, 1) if lat else None,
                       "mean": round(statistics.fmean(lat) * 1000, 1) if lat else None},
        "errors": stats.errors,
    }


def check_args(args: argparse.Namespace) -> str | None:
    """What is wrong with the parsed arguments (a message naming the option), or None."""
    if args.tables < 1:
        return f"--tables must be at least 1, not {args.tables}"
    if not (math.isfinite(args.seconds) and args.seconds > 0):
        return f"--seconds must be a number above 0, not {args.seconds:g}"
    if not (math.isfinite(args.warmup) and args.warmup >= 0):
        return f"--warmup must be a number of seconds, 0 or more, not {args.warmup:g}"
    lo, hi = args.think_ms
    if not (math.isfinite(lo) and math.isfinite(hi) and 0 <= lo <= hi):
        return f"--think-ms MIN MAX needs 0 <= MIN <= MAX (milliseconds), not {lo:g} {hi:g}"
    if args.url is not None:
        parts = urlsplit(args.url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return f"--url must be a server's http:// or https:// address (e.g. http://127.0.0.1:8000), not {args.url!r}"
        if args.database_url is not None:
            return "--database-url is for the server this script starts; it does not go with --url"
    return None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200, help="concurrent tables (4 WebSocket clients each)")
    p.add_argument("--seconds", type=float, default=30.0, help="measuring time")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring starts")
    p.add_argument("--think-ms", type=float, nargs=2, default=(0.0, 0.0), metavar=("MIN", "MAX"),
                   help="think time of a client before it acts, uniform in [MIN, MAX] ms (default 0 0: act at once)")
    p.add_argument("--database-url", default=None, help="database of the started server (default: a temporary SQLite file)")
    p.add_argument("--url", default=None, help="use a running server at this URL instead of starting one")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    problem = check_args(args)
    if problem:
        p.error(problem)
    server = None
    tmp = None
    try:
        if args.url:
            base = args.url.rstrip("/")
        else:
            port = free_port()
            db = args.database_url
            if db is None:
                tmp = tempfile.TemporaryDirectory()
                db = os.path.join(tmp.name, "load.db")
            server = subprocess.Popen(
                [sys.executable, "-m", "coloretto.cli.main", "serve", "--port", str(port), "--database-url", db,
                 "--computer-delay", "0", "--log-level", "warning", "--no-access-log", "--ip-rate", "100000",
                 "--ip-burst", "100000", "--ws-rate", "1000", "--ws-burst", "1000", "--max-ws-per-ip", "100000"],
            )
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                if server.poll() is not None:
                    print(f"load.py: error: coloretto serve exited with status {server.returncode} "
                          "(its message is above; check --database-url)", file=sys.stderr)
                    return 2 if server.returncode == 2 else 1
                try:
                    if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                print("the server did not answer /api/health within 30 s", file=sys.stderr)
                return 1
        try:
            database = httpx.get(base + "/api/health", timeout=10).json()["database"]
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            print(f"load.py: error: no coloretto server answers at {base}/api/health ({exc})", file=sys.stderr)
            return 2
        res = asyncio.run(main_async(args, base))
        res["database"] = database
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        print(json.dumps(res))
    else:
        lat = res["latency_ms"]
        print(f"database {res['database']}: {res['tables']} tables, {res['connections']} WebSocket clients, "
              f"think time {res['think_ms'][0]:g}-{res['think_ms'][1]:g} ms")
        print(f"  {res['actions']} actions in {res['seconds']} s = {res['actions_per_second']} actions/s; "
              f"{res['games_finished']} games finished")
        print(f"  latency action -> broadcast: p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms")
        if res["errors"]:
            print(f"  errors: {res['errors']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
