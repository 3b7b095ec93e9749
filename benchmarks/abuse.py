"""Abuse benchmark of the web server: attacks from one address (loopback) against a running
server, measured at a bystander's table.

The bystander plays one seat against a ``random`` computer player at a table with hints, and
asks for a hint every third turn; ``/api/health`` is polled every 0.1 s. Each phase runs for
``--seconds`` (bounded, as are the counts of every attack) and prints the bystander's figures:
the computer's reply time (from sending an action to the bystander's next turn, p50/p90),
the hint latency, the slowest health answer, and the server's memory (resident set of the
server processes and their worker processes, when this script started them).

Phases:
1. ``baseline``: the bystander alone.
2. ``computers``: 20 tables of five ``expert`` computer players created at once.
3. ``replays``: a finished 4-game match of five players, its replay downloaded 60 times at
   once (``--replays``).
4. ``lobby``: tables created as fast as the server takes them (at most ``--spam`` attempts);
   how many were accepted, and how many of the lobby's first page are spam.
5. ``slow``: ``--slow`` half-sent HTTP requests, as many WebSockets that never say hello,
   and 8 WebSockets that never read while watching a busy table.

Usage (loopback only; the server runs with ``--computer-delay 0``):
    python benchmarks/abuse.py                                     # SQLite, one server process
    python benchmarks/abuse.py --database-url postgresql://postgres@127.0.0.1/test \\
        --redis-url redis://127.0.0.1:6379/0 --processes 2        # two processes
    python benchmarks/abuse.py --url http://127.0.0.1:8000         # a running server
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import ipaddress
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return round(v[min(len(v) - 1, max(0, math.ceil(p / 100 * len(v)) - 1))] * 1000)


def rss_mb(pids: list[int]) -> float | None:
    """Resident memory (MB) of ``pids`` and all their descendants (Linux /proc)."""
    if not pids:
        return None
    seen, todo, total = set(), list(pids), 0
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, StopIteration, ValueError):
            continue
    return round(total / 1024, 1)


class Bystander:
    """One person playing against a ``random`` computer player, measuring as it goes."""

    def __init__(self, base: str, ws_base: str, rng: random.Random) -> None:
        self.base, self.ws_base, self.rng = base, ws_base, rng
        self.replies: list[float] = []
        self.hints: list[float] = []
        self.errors: dict[str, int] = {}

    def take(self) -> tuple[list[float], list[float]]:
        out = (self.replies, self.hints)
        self.replies, self.hints = [], []
        return out

    async def run(self, client: httpx.AsyncClient, stop: asyncio.Event) -> None:
        while not stop.is_set():
            r = await client.post(self.base + "/api/tables", json={
                "name": "Bystander", "seats": [{"kind": "human"}, {"kind": "computer", "agent": "random"}],
                "hints": True, "rated": False})
            if r.status_code != 201:
                self.errors[f"create {r.status_code}"] = self.errors.get(f"create {r.status_code}", 0) + 1
                await asyncio.sleep(1)
                continue
            made = r.json()
            try:
                await self.play(made, stop)
            except (websockets.ConnectionClosed, OSError) as exc:
                kind = f"disconnected ({type(exc).__name__})"
                self.errors[kind] = self.errors.get(kind, 0) + 1

    async def play(self, made: dict[str, Any], stop: asyncio.Event) -> None:
        url = f"{self.ws_base}/ws/tables/{made['table']['id']}"
        async with websockets.connect(url, max_size=2**22, open_timeout=60, ping_interval=None,
                                      close_timeout=5) as ws:
            await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            sent_at: float | None = None
            turns = 0
            done = -1
            while not stop.is_set():
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    continue
                if m["type"] == "error":
                    self.errors[m["code"]] = self.errors.get(m["code"], 0) + 1
                    continue
                if m["type"] != "state":
                    continue
                if m["status"] == "finished":
                    return
                if not m["legal"] or m["version"] <= done:
                    continue
                if sent_at is not None:
                    self.replies.append(time.monotonic() - sent_at)
                done = m["version"]
                turns += 1
                if turns % 3 == 0:
                    asked = time.monotonic()
                    await ws.send(json.dumps({"type": "hint", "id": "h"}))
                    while True:
                        h = json.loads(await ws.recv())
                        if h.get("id") == "h":
                            break
                    if h["type"] == "hint":
                        self.hints.append(time.monotonic() - asked)
                    else:
                        self.errors[h.get("code", "?")] = self.errors.get(h.get("code", "?"), 0) + 1
                action = self.rng.choice(m["legal"])
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "action", "action": action, "version": m["version"], "id": m["version"]}))


async def health_poller(client: httpx.AsyncClient, base: str, samples: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t = time.monotonic()
        try:
            await client.get(base + "/api/health", timeout=30)
        except httpx.HTTPError:
            pass
        samples.append(time.monotonic() - t)
        await asyncio.sleep(0.1)


async def attack_computers(client: httpx.AsyncClient, base: str, tables: int) -> dict[str, Any]:
    seats = [{"kind": "computer", "agent": "expert"}] * 5
    answers = await asyncio.gather(*(client.post(base + "/api/tables", json={"seats": seats}) for _ in range(tables)))
    return {"attempted": tables, "accepted": sum(r.status_code == 201 for r in answers),
            "refused": sum(r.status_code == 429 for r in answers)}


async def finished_match(client: httpx.AsyncClient, base: str) -> str:
    seats = [{"kind": "computer", "agent": "random"}] * 5
    for _ in range(600):
        r = await client.post(base + "/api/tables", json={"seats": seats, "rules": {"players": 5, "match_games": 4}})
        if r.status_code == 201:
            break
        await asyncio.sleep(1)  # the address's computer tables are busy: wait for one to finish
    else:
        raise RuntimeError(f"could not create the match table: {r.status_code} {r.text[:200]}")
    tid = r.json()["table"]["id"]
    for _ in range(1200):
        if (await client.get(f"{base}/api/tables/{tid}")).json()["status"] == "finished":
            return str(tid)
        await asyncio.sleep(0.5)
    raise RuntimeError("the match did not finish in 10 minutes")


async def attack_replays(client: httpx.AsyncClient, base: str, tid: str, count: int) -> dict[str, Any]:
    async def one() -> tuple[int, int]:
        # httpx asks for gzip, as browsers do; count the bytes sent and the document's
        r = await client.get(f"{base}/api/tables/{tid}/replay", timeout=120)
        if r.status_code != 200:
            return -r.status_code, 0
        return len(r.content), r.num_bytes_downloaded

    sizes = await asyncio.gather(*(one() for _ in range(count)))
    return {"downloads": count, "ok": sum(s > 0 for s, _ in sizes), "bytes_each": max(s for s, _ in sizes),
            "bytes_sent_each": max(w for _, w in sizes),
            "encoding": "gzip" if any(w < s for s, w in sizes) else "identity"}


async def attack_lobby(client: httpx.AsyncClient, base: str, attempts: int, seconds: float) -> dict[str, Any]:
    accepted = refused = 0
    deadline = time.monotonic() + seconds
    for _ in range(attempts):
        if time.monotonic() > deadline:
            break
        r = await client.post(base + "/api/tables", json={"name": "Spam", "seats": [{"kind": "human"}] * 5,
                                                           "title": "spam"})
        accepted += r.status_code == 201
        refused += r.status_code == 429
    # the flood may have used up the address's request budget: wait as the server says
    r = await client.get(base + "/api/tables", params={"limit": 50})
    for _ in range(5):
        if r.status_code != 429:
            break
        await asyncio.sleep(float(r.headers.get("retry-after", "1")))
        r = await client.get(base + "/api/tables", params={"limit": 50})
    r.raise_for_status()
    page = r.json()
    spam = sum(t.get("title") == "spam" for t in page["tables"])
    return {"attempted": accepted + refused, "accepted": accepted, "refused": refused,
            "first_page": len(page["tables"]), "spam_on_first_page": spam, "paginated": "next_offset" in page}


def ws_handshake(port: int, path: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    return s


def ws_frame(text: str) -> bytes:
    data, mask = text.encode(), os.urandom(4)
    head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes([0x81, 0xFE]) + len(data).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def attack_slow(base: str, port: int, tid: str, count: int, seconds: float) -> dict[str, Any]:
    socks: list[socket.socket] = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # never finished
        socks.append(s)
    idle = [ws_handshake(port, f"/ws/tables/{tid}") for _ in range(count)]
    readers = []
    for _ in range(8):  # watch a table and ask for full states, never reading
        s = ws_handshake(port, f"/ws/tables/{tid}")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(ws_frame('{"type":"hello"}'))
        readers.append(s)
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        for s in readers:
            try:
                s.sendall(ws_frame('{"type":"sync"}'))
            except OSError:
                pass
        await asyncio.sleep(0.2)
    closed = 0
    for s in socks + idle:
        s.setblocking(False)
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    closed += 1
                    break
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    for s in socks + idle + readers:
        s.close()
    # a household member can still connect and say hello
    async with websockets.connect(f"{base.replace('http', 'ws', 1)}/ws/tables/{tid}", open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 30))
    return {"half_sent_http": count, "silent_websockets": count, "non_readers": 8,
            "closed_by_server": closed, "new_connection_after": welcome["type"]}


async def main_async(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    base = bases[0]
    port = urlsplit(base).port or 80
    bystander_base = bases[-1]
    rng = random.Random(args.seed)
    stop_all = asyncio.Event()
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client, \
            httpx.AsyncClient(timeout=60) as health_client:
        by = Bystander(bystander_base, bystander_base.replace("http", "ws", 1), rng)
        health: list[float] = []
        tasks = [asyncio.create_task(by.run(client, stop_all)),
                 asyncio.create_task(health_poller(health_client, bystander_base, health, stop_all))]
        phases: list[dict[str, Any]] = []

        async def phase(name: str, attack: Any = None) -> None:
            by.take()
            health.clear()
            started = time.monotonic()
            detail = await attack if attack is not None else None
            left = args.seconds - (time.monotonic() - started)
            if left > 0:
                await asyncio.sleep(left)
            replies, hints = by.take()
            phases.append({"phase": name, "attack": detail, "seconds": round(time.monotonic() - started, 1),
                           "reply_ms": {"n": len(replies), "p50": pct(replies, 50), "p90": pct(replies, 90)},
                           "hint_ms": {"n": len(hints), "p50": pct(hints, 50), "p90": pct(hints, 90)},
                           "health_max_ms": pct(health, 100), "memory_mb": rss_mb(pids)})

        match = await finished_match(client, base)  # played out first: the attack's tables would delay it
        watched = (await client.post(base + "/api/tables", json={
            "name": "Watch", "seats": [{"kind": "human"}, {"kind": "human"}]})).json()["table"]["id"]
        await asyncio.sleep(args.warmup)
        await phase("baseline")
        await phase("computers", attack_computers(client, base, args.computer_tables))
        await phase("replays", attack_replays(client, base, match, args.replays))
        await phase("lobby", attack_lobby(client, base, args.spam, args.seconds))
        await phase("slow", attack_slow(base, port, watched, args.slow, args.seconds))
        stop_all.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"phases": phases, "bystander_errors": by.errors}


def check_args(args: argparse.Namespace) -> str | None:
    """What is wrong with the parsed arguments (a message naming the option), or None."""
    if not (math.isfinite(args.seconds) and 1 <= args.seconds <= 120):
        return f"--seconds must be 1 to 120, not {args.seconds:g}"
    for name, top in (("computer_tables", 50), ("replays", 200), ("spam", 5000), ("slow", 500), ("processes", 4)):
        value = getattr(args, name)
        if not 1 <= value <= top:
            return f"--{name.replace('_', '-')} must be 1 to {top}, not {value}"
    if args.url is not None:
        parts = urlsplit(args.url)
        try:
            loopback = parts.scheme == "http" and ipaddress.ip_address(parts.hostname or "").is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            return f"--url must be a loopback http:// address (e.g. http://127.0.0.1:8000), not {args.url!r}"
        if args.database_url or args.redis_url or args.processes != 1:
            return "--database-url, --redis-url and --processes are for the servers this script starts"
    if args.processes > 1 and not args.redis_url:
        return "--processes above 1 needs --redis-url (and a PostgreSQL --database-url)"
    return None


def start_servers(args: argparse.Namespace, db: str) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    procs, bases = [], []
    for i in range(args.processes):
        port = free_port()
        cmd = [sys.executable, "-m", "coloretto.cli.main", "serve", "--port", str(port), "--database-url", db,
               "--computer-delay", "0", "--log-level", "warning", "--no-access-log", "--process-id", f"p{i}"]
        if args.redis_url:
            cmd += ["--redis-url", args.redis_url]
        procs.append(subprocess.Popen(cmd))
        bases.append(f"http://127.0.0.1:{port}")
    for proc, base in zip(procs, bases, strict=True):
        for _ in range(600):
            if proc.poll() is not None:
                raise RuntimeError(f"coloretto serve exited with status {proc.returncode}")
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("a server did not answer /api/health within 60 s")
    return procs, bases


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=20.0, help="length of each phase (1 to 120)")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds before the baseline phase")
    p.add_argument("--computer-tables", type=int, default=20, help="all-expert tables the computers attack creates")
    p.add_argument("--replays", type=int, default=60, help="concurrent replay downloads")
    p.add_argument("--spam", type=int, default=2000, help="most table creations the lobby attack tries")
    p.add_argument("--slow", type=int, default=100, help="half-sent HTTP requests, and silent WebSockets")
    p.add_argument("--database-url", default=None, help="database of the started servers (default: a temporary SQLite file)")
    p.add_argument("--redis-url", default=None, help="Redis of the started servers (needed with --processes 2)")
    p.add_argument("--processes", type=int, default=1, help="server processes to start (the bystander uses the last)")
    p.add_argument("--url", default=None, help="attack a running server on loopback instead of starting one")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    problem = check_args(args)
    if problem:
        p.error(problem)
    procs: list[subprocess.Popen[bytes]] = []
    tmp = None
    try:
        if args.url:
            bases = [args.url.rstrip("/")]
        else:
            db = args.database_url
            if db is None:
                tmp = tempfile.TemporaryDirectory()
                db = os.path.join(tmp.name, "abuse.db")
            procs, bases = start_servers(args, db)
        health = httpx.get(bases[0] + "/api/health", timeout=10).json()
        res = asyncio.run(main_async(args, bases, [p.pid for p in procs]))
        res.update({"database": health["database"], "redis": health["redis"], "processes": len(bases),
                    "load": os.getloadavg()})
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"database {res['database']}, redis {res['redis']}, {res['processes']} server process(es); "
          f"load average {', '.join(f'{x:.2f}' for x in res['load'])}")
    print(f"{'phase':<10} {'reply p50/p90 ms':>17} {'hint p50/p90 ms':>16} {'health max ms':>14} {'memory MB':>10}  attack")
    for ph in res["phases"]:
        r, h = ph["reply_ms"], ph["hint_ms"]
        print(f"{ph['phase']:<10} {str(r['p50']) + '/' + str(r['p90']):>17} {str(h['p50']) + '/' + str(h['p90']):>16} "
              f"{ph['health_max_ms']!s:>14} {ph['memory_mb']!s:>10}  {json.dumps(ph['attack'])}")
    if res["bystander_errors"]:
        print(f"bystander errors: {res['bystander_errors']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
