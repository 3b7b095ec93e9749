"""The record and replay of a finished game are built once (on a worker thread) and then
served from the cache: however many ask, ``LiveTable.replay_json`` and the record run once
per game, and every answer is the same document."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from backends import Backend

from coloretto.server import live

pytestmark = pytest.mark.timeout(120)


def test_replay_and_record_are_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[str] = []
    real = live.LiveTable.replay_json

    def counted(self: Any) -> dict[str, Any]:
        builds.append(self.id)
        return real(self)

    monkeypatch.setattr(live.LiveTable, "replay_json", counted)
    with Backend("memory").client() as c:
        r = c.post("/api/tables", json={"seats": [{"kind": "computer", "agent": "random"}] * 3,
                                        "rules": {"match_games": 2}})
        tid = r.json()["table"]["id"]
        assert c.get(f"/api/tables/{tid}/replay").json()["error"]["code"] == "game_not_over"
        deadline = time.monotonic() + 60
        while c.get(f"/api/tables/{tid}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        replays = [c.get(f"/api/tables/{tid}/replay") for _ in range(5)]
        records = [c.get(f"/api/tables/{tid}/record") for _ in range(5)]
        assert builds == [tid]
        assert len({r.content for r in replays}) == 1 and len({r.content for r in records}) == 1
        hub = c.app.state.hub  # type: ignore[attr-defined]
        t = hub.tables[tid]
        assert replays[0].json() == json.loads(json.dumps(real(t)))
        assert records[0].json() == t.game.to_record()
        assert records[0].headers["content-disposition"] == f'attachment; filename="coloretto-{tid}.json"'
