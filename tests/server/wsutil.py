"""Helpers for driving tables over the WebSocket API in tests (TestClient sessions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class WS:
    """A TestClient WebSocket session that remembers every message it received."""

    def __init__(self, session: Any, seat: int | None = None) -> None:
        self.s = session
        self.seat = seat
        self.seen: list[dict[str, Any]] = []

    def send(self, **msg: Any) -> None:
        self.s.send_json(msg)

    def send_text(self, text: str) -> None:
        self.s.send_text(text)

    def recv(self) -> dict[str, Any]:
        m = self.s.receive_json()
        self.seen.append(m)
        return m

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        """Read until a message satisfies ``pred`` (fails after ``limit`` messages)."""
        for _ in range(limit):
            m = self.recv()
            if pred(m):
                return m
        raise AssertionError("expected message never came")

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error")

    def ping(self) -> None:
        """The connection still answers."""
        self.send(type="ping", id="p")
        assert self.until(lambda m: m["type"] == "pong")["id"] == "p"

    def hello(self, token: str | None = None) -> dict[str, Any]:
        self.send(type="hello", token=token)
        w = self.until(lambda m: m["type"] == "welcome")
        self.until(lambda m: m["type"] == "state")
        return w


def is_state(m: dict[str, Any]) -> bool:
    return m["type"] == "state"


def play(wss: dict[int, WS], choose: Callable[[list[dict[str, Any]]], dict[str, Any]] = lambda legal: legal[0],
         stop_at: int | None = None, watcher: WS | None = None) -> dict[str, Any]:
    """Play the human seats of ``wss`` (seat -> session) until the game ends (or the table
    reaches ``stop_at`` actions). Returns the last state seen by the watcher."""
    watcher = watcher or next(iter(wss.values()))
    done = -1
    watcher.send(type="sync")  # a full state now, whatever was read before
    while True:
        m = watcher.until(lambda m, done=done: is_state(m) and m["version"] > done and (
            m["status"] == "finished"
            or (stop_at is not None and m["version"] >= stop_at)
            or (m["status"] == "playing" and m["observation"]["to_move"] in wss
                and m["seats"][m["observation"]["to_move"]]["kind"] == "human")))
        if m["status"] == "finished" or (stop_at is not None and m["version"] >= stop_at):
            return m
        seat = m["observation"]["to_move"]
        mover = wss[seat]
        v = m["version"]
        if mover is watcher:
            st = m
        else:  # ask for the current state (an earlier copy may have been read already)
            mover.send(type="sync", id=f"sync{v}")
            st = mover.until(lambda x, v=v: is_state(x) and x.get("id") == f"sync{v}")
            if st["version"] < v:  # the mover's server process has not heard of it yet
                st = mover.until(lambda x, v=v: is_state(x) and x["version"] >= v)
            assert st["version"] == v
        assert st["legal"], st
        mover.send(type="action", action=choose(st["legal"]), version=v, id=v)
        done = v
