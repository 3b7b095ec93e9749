"""The record and replay of a finished game are built once (on a worker thread) and then
served from the cache: however many ask, ``LiveTable.replay_json`` and the record run once
per game, and every answer is the same document."""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from backends import Backend

from coloretto.engine.record import dumps_record, load_game, read_record
from coloretto.server import live
from coloretto.server.expiry import forget

pytestmark = pytest.mark.timeout(120)


def finished_match(c: Any, before: Callable[[str], Any] | None = None) -> str:
    """A finished two-game match of three ``random`` computer players; its table id.
    ``before(table_id)``, if given, runs once the table is created and must be refused with
    ``game_not_over``."""
    r = c.post("/api/tables", json={"seats": [{"kind": "computer", "agent": "random"}] * 3,
                                    "rules": {"match_games": 2}})
    tid: str = r.json()["table"]["id"]
    if before is not None:
        assert before(tid).json()["error"]["code"] == "game_not_over"
    deadline = time.monotonic() + 60
    while c.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return tid


def test_replay_and_record_are_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[str] = []
    real = live.LiveTable.replay_json

    def counted(self: Any) -> dict[str, Any]:
        builds.append(self.id)
        return real(self)

    monkeypatch.setattr(live.LiveTable, "replay_json", counted)
    with Backend("memory").client() as c:
        tid = finished_match(c, before=lambda tid: c.get(f"/api/tables/{tid}/replay"))
        assert builds == []
        replays = [c.get(f"/api/tables/{tid}/replay") for _ in range(5)]
        records = [c.get(f"/api/tables/{tid}/record") for _ in range(5)]
        assert builds == [tid]
        assert len({r.content for r in replays}) == 1 and len({r.content for r in records}) == 1
        hub = c.app.state.hub  # type: ignore[attr-defined]
        t = hub.tables[tid]
        assert replays[0].json() == json.loads(json.dumps(real(t)))
        assert records[0].json() == t.game.to_record()
        assert records[0].headers["content-disposition"] == f'attachment; filename="coloretto-{tid}.json"'


@pytest.mark.parametrize("what", ["replay", "record"])
def test_downloads_are_gzipped_for_clients_that_accept_it(what: str) -> None:
    """The compressed bytes are the same document, several times smaller; a client that does
    not accept gzip (or refuses it with q=0) gets the plain text."""
    with Backend("memory").client() as c:
        tid = finished_match(c)
        url = f"/api/tables/{tid}/{what}"
        plain = c.get(url, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
        refused = c.get(url, headers={"Accept-Encoding": "gzip;q=0, identity"})
        assert "content-encoding" not in refused.headers and refused.content == plain.content
        with c.stream("GET", url, headers={"Accept-Encoding": "br, gzip;q=0.8"}) as packed:
            raw = b"".join(packed.iter_raw())
            assert packed.headers["content-encoding"] == "gzip"
        assert gzip.decompress(raw) == plain.content
        assert len(raw) * 4 < len(plain.content)
        assert json.loads(plain.content)  # a JSON document


def test_the_record_download_is_written_as_every_record_is() -> None:
    """The record download is the text ``engine.record.dumps_record`` writes (the one writer
    of records: one action per line), plain and gzipped, and reads back to the same game."""
    with Backend("memory").client() as c:
        tid = finished_match(c)
        t = c.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        plain = c.get(f"/api/tables/{tid}/record", headers={"Accept-Encoding": "identity"})
        assert plain.content == dumps_record(t.game.to_record()).encode("utf-8")
        with c.stream("GET", f"/api/tables/{tid}/record", headers={"Accept-Encoding": "gzip"}) as packed:
            raw = b"".join(packed.iter_raw())
        assert gzip.decompress(raw) == plain.content
        assert load_game(read_record(plain.content)).state == t.state


def test_times_keep_their_zone_when_read_back_from_the_store(backend: Backend) -> None:
    """A finished table read back from the store (no longer in memory) gives its creation
    time in UTC with its ``Z``, as a table in memory does."""
    with backend.client() as c:
        tid = finished_match(c)
        in_memory = c.get(f"/api/tables/{tid}").json()["created_at"]
        forget(c.app.state.hub, tid)  # type: ignore[attr-defined]
        read_back = c.get(f"/api/tables/{tid}").json()["created_at"]
        assert in_memory.endswith("Z") and read_back == in_memory
