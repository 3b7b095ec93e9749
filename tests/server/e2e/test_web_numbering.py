"""People count from 1 in the browser: every text of the web client that names a row, a
seat, a round, a game or a move, checked in one test against the JSON (which counts rows,
seats and log indices from 0) through a real ``coloretto serve`` and real Chromium.

The outputs checked, in the order the test meets them:

1. the create form: the seat choices are "Seat 1" .. "Seat 5";
2. the players panel: an open seat is "Seat 2 (open)", a computer "Computer 5 (random)";
3. the join form: its seat choices are "Seat 2" .. "Seat 4" (JSON seats 1 .. 3);
4. a seat taken by someone else while a join form offered it: the form says "Seat 2 was just
   taken"; a page that has not heard of it yet sends the join and shows the server's
   refusal verbatim, "seat 2 is not open";
5. the board: the rows are "Row 1" .. "Row 5", the "Take row"/"Place here" button of JSON row
   r shows the key r + 1;
6. the hint (the real move advisor): the row it names is the row of the highlighted button;
7. the status bar: "Round 1", "Game 1 of 2"; the match standing: "game 1 of 2";
8. the game log: line k + 1 is the action with JSON index k, and every "row N" in it is the
   JSON row + 1; the headings "Game 1 · Round 1" .. and "Game 1 over" / "Game 2 over";
9. the end breakdown: the per-game columns "Game 1", "Game 2"; ranks "1st" ..;
10. the replay: the caption of step k is "k. ..." with the row of its JSON action + 1, the
    counter says "move k of N", and its log numbers lines from 1.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_browser import VIEW, attr

pytestmark = pytest.mark.slow

ROW = re.compile(r"\brow (\d+)")


def rows_named(text: str) -> list[int]:
    """Every "row N" in ``text``."""
    return [int(n) for n in ROW.findall(text)]


def expected_rows(entry: dict[str, Any]) -> list[int]:
    """The rows a log entry names, counted from 1."""
    a = entry["action"]
    return [a["row"] + 1] if a["action"] in ("place", "take") else []


def test_every_text_counts_from_one(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    ann = new_page()
    # 1. the create form: Ann, three friends and a computer, a match of two games, hints
    ann.goto(base + "/")
    ann.fill("#player-name", "Ann")
    ann.select_option("#seat-count", "5")
    labels = ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5"]
    assert ann.locator(".seat-choices label").all_inner_texts() == labels
    for i, kind in enumerate(["me", "human", "human", "human", "computer:random"]):
        ann.select_option(f"#seat-{i}", kind)
    ann.click("[data-testid=rules-options]")
    ann.select_option("#match_games", "2")
    ann.check("#hints")
    ann.click("[data-testid=create]")
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='0']")
    table_id = ann.url.rsplit("/", 1)[1]
    # 2. the players panel while seats are open
    names = [ann.locator(f".player[data-seat='{s}'] .player-name").inner_text() for s in range(5)]
    assert names == ["Ann", "Seat 2 (open)", "Seat 3 (open)", "Seat 4 (open)", "Computer 5 (random)"]

    # 3. the join form
    invite = f"{base}/table/{table_id}"
    bob, cathy, dan = new_page(), new_page(), new_page()
    held = {"seats": False}

    def slow_network(ws: Any) -> None:
        """Bob's connection: while ``held``, the news that a seat was taken does not arrive."""
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            if held["seats"] and '"type":"seats"' in str(message).replace(" ", ""):
                return
            ws.send(message)

        server.on_message(to_page)

    bob.route_web_socket(re.compile(r".*/ws/tables/.*"), slow_network)
    for page, name in ((bob, "Bob"), (cathy, "Cathy"), (dan, "Dan")):
        page.goto(invite)
        page.fill("#join-name", name)
        assert page.locator("#join-seat option").all_inner_texts() == ["Seat 2", "Seat 3", "Seat 4"]
        values = [o.get_attribute("value") for o in page.locator("#join-seat option").all()]
        assert values == ["1", "2", "3"]
        page.select_option("#join-seat", "1")
    # 4. Cathy takes seat 2. Dan's form, which offered it, says so; Bob's page, which has not
    # heard of it, sends the join and shows the server's refusal
    held["seats"] = True
    cathy.click("[data-testid=join]")
    cathy.wait_for_selector(f"{VIEW}[data-my-seat='1']")
    toast = dan.locator("#toasts .toast-error").first
    toast.wait_for()
    assert toast.inner_text() == "Seat 2 was just taken; pick another seat"
    assert dan.locator("#join-seat option").all_inner_texts() == ["Seat 3", "Seat 4"]
    bob.click("[data-testid=join]")
    toast = bob.locator("#toasts .toast-error").first
    toast.wait_for()
    assert toast.inner_text() == "seat 2 is not open"
    held["seats"] = False
    bob.reload()
    bob.wait_for_selector("#join-seat")
    assert bob.locator("#join-seat option").all_inner_texts() == ["Seat 3", "Seat 4"]
    bob.select_option("#join-seat", "2")
    bob.click("[data-testid=join]")
    bob.wait_for_selector(f"{VIEW}[data-my-seat='2']")
    dan.select_option("#join-seat", "3")
    dan.click("[data-testid=join]")
    for page in (ann, bob, cathy, dan):
        page.wait_for_selector(f"{VIEW}[data-status=playing]")
    # Cathy, Bob and Dan let computer players finish for them
    for page, seat in ((cathy, 1), (bob, 2), (dan, 3)):
        page.click(f".player[data-seat='{seat}'] [data-testid=leaving]")
        page.select_option(f".player[data-seat='{seat}'] [data-testid=agent-pick]", "easy")
        page.click(f".player[data-seat='{seat}'] [data-testid=hand-over-mine]")
        ann.wait_for_selector(f".player[data-seat='{seat}'] .badge.computer >> text=computer (easy) plays")

    # 7. the status bar and the match standing at Ann's first decision (round 1 of game 1:
    # a round lasts until everyone has taken a row)
    ann.wait_for_selector(f"{VIEW}[data-mine='1']")
    assert ann.locator(".statusbar .stat").all_inner_texts()[:2] == ["Game 1 of 2", "Round 1"]
    assert "game 1 of 2" in ann.locator("[data-testid=match-standing] h2").inner_text()
    # 5. the board and 6. the hint, on Ann's turns until the advice names a row
    while True:
        ann.wait_for_selector(f"{VIEW}[data-mine='1']")
        rows = ann.locator(".rows > li.row")
        assert rows.locator(".row-name").all_inner_texts() == [f"Row {r}" for r in range(1, 6)]
        for button in ann.locator(".rows button.action").all():
            r = int(button.locator("xpath=ancestor::li[1]").get_attribute("data-row") or "-1")
            assert button.locator("kbd").inner_text() == str(r + 1)
        ann.click("[data-testid=hint]")
        text = ann.locator(".hint-text")
        ann.wait_for_selector(".hint-text:not(:has-text('thinking'))", timeout=60_000)
        named = rows_named(text.inner_text())
        hinted = ann.locator("button.action.hinted")
        assert hinted.count() == 1
        done = False
        if named:
            r = int(hinted.locator("xpath=ancestor::li[1]").get_attribute("data-row") or "-1")
            assert named == [r + 1], (text.inner_text(), r)
            assert hinted.locator("kbd").inner_text() == str(r + 1)
            ann.screenshot(path=str(artifacts / "numbering-hint.png"), full_page=True)
            done = True
        version = attr(ann, "version")
        hinted.click()  # follow the advice
        ann.wait_for_function("v => document.querySelector('#table-view').dataset.version !== v", arg=version)
        if done:
            break
    # Ann lets a computer player finish the match
    ann.click(".player[data-seat='0'] [data-testid=leaving]")
    ann.select_option(".player[data-seat='0'] [data-testid=agent-pick]", "easy")
    ann.click(".player[data-seat='0'] [data-testid=hand-over-mine]")
    ann.wait_for_selector("[data-testid=result]", timeout=60_000)

    # 8. the game log against the JSON log
    replay = httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=10).json()
    entries = [{k: v for k, v in s.items() if k != "observation"} for s in replay["steps"][1:]]
    lines = ann.locator(".log > li[data-i]")
    assert lines.count() == len(entries)
    texts = lines.all_inner_texts()
    for k, (entry, text) in enumerate(zip(entries, texts)):
        assert text.startswith(f"{k + 1}. "), text
        assert rows_named(text) == expected_rows(entry), (text, entry)
    seps = ann.locator("[data-testid=round-separator]").all_inner_texts()
    assert seps[0] == "Game 1 \u00b7 Round 1" and seps[1] == "Round 2"
    assert "Game 2 \u00b7 Round 1" in seps
    ends = ann.locator("[data-testid=game-end-line]").all_inner_texts()
    assert [t.split(":")[0] for t in ends] == ["Game 1 over", "Game 2 over"]
    # 9. the end breakdown
    heads = ann.locator("[data-testid=result] thead th").all_inner_texts()
    assert [h for h in heads if h.startswith("Game")] == ["Game 1", "Game 2"]
    ranks = {int(row.get_attribute("data-seat") or "-1"): row.locator("td.rank").inner_text().split()[0]
             for row in ann.locator("[data-testid=result] tbody tr").all()}
    ordinal = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}
    assert ranks == {s: ordinal[r] for s, r in enumerate(replay["result"]["ranks"])}

    # 10. the replay, at the first take and place actions (the address follows the move)
    ann.click("[data-testid=replay]")
    ann.wait_for_selector("[data-testid=replay-caption]")
    last = len(entries)
    counter = ann.locator(".replay-controls .counter")
    caption = ann.locator("[data-testid=replay-caption]")
    assert counter.inner_text() == f"start ({last} moves)"
    moves = [k for k, e in enumerate(entries) if e["action"]["action"] in ("take", "place")][:3]
    for k in moves:
        ann.goto(f"{base}/replay/{table_id}#{k + 1}")
        ann.wait_for_selector(f".replay-controls .counter >> text='move {k + 1} of {last}'")
        assert caption.inner_text().startswith(f"{k + 1}. ")
        assert rows_named(caption.inner_text()) == expected_rows(entries[k])
        log = ann.locator(".replay .log > li[data-i]")
        assert log.count() == k + 1
        assert log.first.inner_text().startswith("1. ")
        assert rows_named(log.last.inner_text()) == expected_rows(entries[k])
