"""Tables in the real browser (real ``coloretto serve``, Debian's Chromium): a per-move clock
that everyone sees counting down, a one-second clock (offered by this server only,
``--move-clocks``) that runs out so the table's computer moves and the person takes the seat
back, a turn-based table whose "Your turn" shows in the lobby and in the tabs' titles, a
private table that the lobby does not list, the host replacing an absent player, the table
chat (escaped, players only, muted), two Rematch presses at once and a match's per-game
breakdown. The same rules with a manual clock: tests/server/test_table_options.py.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverproc import ServerProcess
from test_browser import VIEW, act, attr
from test_controls import toast_after

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose tables may also choose a 1-second clock; computers wait 0.3 s per move
    (a person can follow, and a game of computers lasts some seconds)."""
    tmp = tmp_path_factory.mktemp("e2e-tables")
    server = ServerProcess(
        str(tmp / "coloretto.db"), tmp / "server.log",
        "--computer-delay", "0.3", "--handover-after", "2", "--no-access-log", "--move-clocks", "1,20,45,90",
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def create(page: Any, base: str, seats: list[str], clock: str = "none", agent: str | None = None,
           private: bool = False, name: str = "Ann") -> str:
    """Create a table with the lobby's form; returns its id once the table page is live."""
    page.goto(base + "/")
    page.fill("#player-name", name)
    page.select_option("#seat-count", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    page.select_option("#time-control", clock)
    if agent:
        page.select_option("#clock-agent", agent)
    if private:
        page.check("#private")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    page.wait_for_selector(f"{VIEW}[data-conn=open]")
    return str(page.url.rsplit("/", 1)[1])


def clock_left(page: Any) -> int:
    return int(page.get_attribute("[data-testid=clock]", "data-left") or "-1")


# ----- time controls ----------------------------------------------------------------------------
def test_the_clock_counts_down_for_everyone(web_server: Any, new_page: Any, screenshots: Path) -> None:
    """A 20 s clock: the player and a spectator see it count down; a move in time is the
    player's own (no computer, no time-out in the log)."""
    base = web_server.url
    ann = new_page()
    table_id = create(ann, base, ["me", "computer:random"], clock="move:20")
    assert "20 s per move" in ann.inner_text("[data-testid=table-options]")
    spectator = new_page()
    spectator.goto(f"{base}/table/{table_id}")
    ann.wait_for_selector(f"{VIEW}[data-mine='1']")
    for page in (ann, spectator):
        page.wait_for_selector("[data-testid=clock]")
    first = clock_left(ann)
    assert 15 <= first <= 20
    assert "you" in ann.inner_text("[data-testid=clock]")
    assert "Ann" in spectator.inner_text("[data-testid=clock]")
    time.sleep(2.2)
    assert clock_left(ann) <= first - 1 and clock_left(spectator) <= first - 1
    ann.screenshot(path=str(screenshots / "table-clock.png"))
    version = attr(ann, "version")
    ann.locator(f"{VIEW} button.action:enabled").first.click()
    ann.wait_for_function("v => document.querySelector('#table-view').dataset.version !== v", arg=version)
    assert ann.locator("[data-testid=log-timeout]").count() == 0
    assert ann.locator(".player[data-seat='0'] .badge.computer").count() == 0


def test_a_clock_runs_out_and_the_computer_moves(web_server: Any, new_page: Any) -> None:
    """The real clock, 1 s per move: Ann does not move, the easy computer plays her move (the
    log says the time ran out and who played), and she takes her seat back; her next clock
    runs out again."""
    base = web_server.url
    ann = new_page()
    table_id = create(ann, base, ["me", "computer:random"], clock="move:1", agent="easy")
    ann.wait_for_selector("[data-testid=log-timeout]", timeout=30_000)
    line = ann.locator(f"{VIEW} .log > li:has([data-testid=log-timeout])").first
    assert "time ran out" in line.inner_text() and "played by computer (easy)" in line.inner_text()
    ann.wait_for_selector(".player[data-seat='0'] .badge.computer >> text=computer (easy) plays")
    log = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert log["seats"][0]["handed_over"] is True and log["time_control"] == {"kind": "move", "seconds": 1, "agent": "easy"}
    ann.click("[data-testid=reclaim]")
    # back in her seat, Ann idles again: a second move is played for her when the clock runs out
    ann.wait_for_function("() => document.querySelectorAll('[data-testid=log-timeout]').length >= 2", timeout=30_000)


HIDDEN_TAB = """Object.defineProperty(Document.prototype, 'hidden', {get() { return true; }});
Object.defineProperty(Document.prototype, 'visibilityState', {get() { return 'hidden'; }});"""
"""Makes a page take itself for a background tab (``document.hidden``), as a lobby left
open behind the game's tab does."""


def test_a_turn_based_table_says_whose_turn_it_is(web_server: Any, new_page: Any, screenshots: Path) -> None:
    """A turn-based table ("a day per move") made with the lobby's controls, for Ann and Bob.
    While Ann is to move, her lobby, left open in a background tab, marks the table "Your
    turn" and its tab's title counts it, and her table's tab title says so; while Bob is to
    move, none of them does (Bob's table tab does). Each change comes while the lobby's tab
    stays in the background."""
    base = web_server.url
    ann = new_page()
    table_id = create(ann, base, ["me", "human"], clock="day", agent="easy")
    assert "Turn-based: a day per move" in ann.inner_text("[data-testid=table-options]")
    assert httpx.get(f"{base}/api/tables/{table_id}").json()["time_control"]["kind"] == "day"
    bob = new_page()
    bob.goto(f"{base}/table/{table_id}")
    # Ann's name is hers at this table: a second "ann" is told so and the seat stays open
    bob.fill("#join-name", "ann")
    said = toast_after(bob, lambda: bob.click("[data-testid=join]"))
    assert said == "'Ann' already sits at this table (seat 1); choose another name", said
    assert bob.locator("[data-testid=join]").is_visible()
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    for page in (ann, bob):
        page.wait_for_selector(f"{VIEW}[data-status=playing][data-to-move]:not([data-to-move=''])")
    lobby = new_page(context=ann.context)
    lobby.add_init_script(HIDDEN_TAB)
    lobby.goto(base + "/")
    assert lobby.evaluate("() => document.hidden")
    mine = lobby.locator(f"[data-testid=my-tables] li[data-table='{table_id}']")
    mine.wait_for()
    assert "Turn-based: a day per move" in mine.inner_text()
    people = {0: ann, 1: bob}

    def shows(seat: int) -> None:
        """Ann's lobby and both table tabs say that ``seat`` is to move."""
        ann_to_move = seat == 0
        lobby.wait_for_function("t => document.title === t",
                                arg="\u25b6 Your turn at 1 table \u2013 Coloretto" if ann_to_move else "Coloretto")
        badge = mine.locator("[data-testid=your-turn]")
        if ann_to_move:
            badge.wait_for()
            assert badge.inner_text() == "Your turn"
        else:
            badge.wait_for(state="detached")
        for s, page in people.items():
            title = f"Coloretto \u2013 {table_id}"
            page.wait_for_function("t => document.title === t", arg=f"\u25b6 Your turn \u2013 {title}" if s == seat else title)
        clock = people[seat].locator("[data-testid=clock]")
        assert "Turn-based" in clock.inner_text() and "you" in clock.inner_text()
        assert int(clock.get_attribute("data-left") or "0") > 23 * 3600

    def play_until_the_other_moves(seat: int) -> None:
        """The person at ``seat`` plays (draws and places, or takes) until the other is to move."""
        page = people[seat]
        while attr(ann, "to-move") == str(seat):
            page.wait_for_selector(f"{VIEW}[data-mine='1']")
            version = act(page)
            ann.wait_for_function("v => +document.querySelector('#table-view').dataset.version >= v", arg=version)

    first = int(attr(ann, "to-move"))
    shows(first)
    play_until_the_other_moves(first)
    shows(1 - first)
    ann.screenshot(path=str(screenshots / "table-turn-based.png"))
    play_until_the_other_moves(1 - first)
    shows(first)


# ----- private tables, the host, the chat --------------------------------------------------------
EVIL = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'


def test_a_private_table_the_host_and_the_chat(web_server: Any, new_page: Any, screenshots: Path) -> None:
    base = web_server.url
    public = httpx.post(f"{base}/api/tables", json={"name": "Eve", "seats": [{"kind": "human"}] * 2}).json()["table"]["id"]
    ann = new_page()
    table_id = create(ann, base, ["me", "human", "computer:random"], private=True)
    assert "private table" in ann.inner_text("[data-testid=table-options]")
    assert "you are the host" in ann.inner_text("[data-testid=table-options]")
    # the lobby lists the public table waiting for players, not the private one
    dan = new_page()
    dan.goto(base + "/")
    dan.wait_for_selector(f"li[data-table='{public}']")
    assert dan.locator(f"li[data-table='{table_id}']").count() == 0
    # Bob comes through the invite link
    bob = new_page()
    bob.goto(f"{base}/table/{table_id}")
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    bob.wait_for_selector(f"{VIEW}[data-status=playing][data-my-seat='1']")
    # the game in progress is not listed to watch either; Ann's lobby shows it under "Your tables"
    dan.reload()
    dan.wait_for_selector(f"li[data-table='{public}']")
    assert dan.locator(f"li[data-table='{table_id}']").count() == 0
    to_move = None
    for _ in range(200):  # a person to move: the turn stays there until they act
        to_move = httpx.get(f"{base}/api/tables/{table_id}").json()["to_move"]
        if to_move in (0, 1):
            break
        time.sleep(0.1)
    assert to_move in (0, 1)
    lobby = new_page(context=ann.context)
    lobby.goto(base + "/")
    mine = lobby.locator(f"[data-testid=my-tables] li[data-table='{table_id}']")
    mine.wait_for()
    assert mine.locator("[data-testid=your-turn]").count() == (1 if to_move == 0 else 0)
    assert lobby.title().startswith("\u25b6 Your turn at 1 table") == (to_move == 0)
    mine.locator("[data-testid=my-table]").click()
    lobby.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='0']")
    lobby.close()

    # chat: escaped, players write, a spectator reads, the mute switch
    cathy = new_page()
    cathy.goto(f"{base}/table/{table_id}")
    cathy.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='']")
    assert cathy.locator("#chat-text").is_hidden() and "only players write" in cathy.inner_text("[data-testid=chat]")
    ann.fill("#chat-text", EVIL)
    ann.click("[data-testid=chat-send]")
    for page in (ann, bob, cathy):
        page.wait_for_selector("[data-testid=chat-list] .chat-text")
        assert page.locator("[data-testid=chat-list] .chat-text").first.inner_text() == EVIL
        assert page.locator("[data-testid=chat-list] img, [data-testid=chat-list] script").count() == 0
        assert page.evaluate("() => window.__pwned") is None
    cathy.click("[data-testid=chat-mute]")
    assert cathy.locator("[data-testid=chat-list]").is_hidden()
    bob.fill("#chat-text", "good luck")
    bob.keyboard.press("Enter")
    ann.wait_for_selector("[data-testid=chat-list] .chat-text >> text=good luck")
    cathy.wait_for_selector("[data-testid=chat] >> text=Chat muted: 1 new message")
    cathy.click("[data-testid=chat-mute]")
    assert cathy.locator("[data-testid=chat-list] .chat-text").all_inner_texts() == [EVIL, "good luck"]
    assert cathy.evaluate("() => localStorage.getItem('coloretto.chat.muted')") == "0"
    cathy.screenshot(path=str(screenshots / "table-chat.png"), full_page=True)
    # over the chat's rate, each refusal says so, in one message that does not pile up
    ann.evaluate("() => document.getElementById('toasts').replaceChildren()")
    for i in range(8):
        ann.fill("#chat-text", f"quick {i}")
        ann.keyboard.press("Enter")
    ann.wait_for_selector("#toasts .toast-error")
    ann.wait_for_function("() => document.querySelectorAll('[data-testid=chat-list] .chat-text').length >= 6")
    ann.wait_for_timeout(500)  # the later refusals have arrived
    assert ann.locator("#toasts .toast-error").all_inner_texts() == ["at most 5 chat messages in 10 s"]

    # Bob's tab closes: Ann, the host, replaces him at once (no hand-over delay); Bob
    # cannot replace anyone (he is not the host), and spectators see no such button
    context = bob.context
    bob.close()
    card = ann.locator(".player[data-seat='1']")
    card.locator("[data-testid=agent-pick]").select_option("easy")
    card.locator("[data-testid=replace]").click()
    for page in (ann, cathy):
        page.wait_for_selector(".player[data-seat='1'] .badge.computer >> text=computer (easy) plays")
    assert cathy.locator("[data-testid=replace]").count() == 0
    bob = new_page(context=context)
    bob.goto(f"{base}/table/{table_id}")
    bob.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='1']")
    assert bob.locator("[data-testid=replace]").count() == 0
    bob.click("[data-testid=reclaim]")
    ann.wait_for_selector(".player[data-seat='1'] .badge.computer", state="detached")


# ----- rematch and the end of a match ----------------------------------------------------------
def test_two_rematch_presses_make_one_table(web_server: Any, new_page: Any) -> None:
    """Both players press Rematch in the same moment: they end at the same new table; a
    player who sees the rematch offered sees only "Join the rematch", which gives a player
    whose token of the new table is lost their seat again."""
    base = web_server.url
    ann = new_page()
    table_id = create(ann, base, ["me", "human", "computer:random"])
    bob = new_page()
    bob.goto(f"{base}/table/{table_id}")
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    bob.wait_for_selector(f"{VIEW}[data-status=playing][data-my-seat='1']")
    for page, seat in ((ann, 0), (bob, 1)):  # both leave the game to computers, which finish it
        me = page.locator(f".player[data-seat='{seat}']")
        me.locator("[data-testid=leaving]").click()
        me.locator("[data-testid=agent-pick]").select_option("easy")
        me.locator("[data-testid=hand-over-mine]").click()
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=result] [data-testid=rematch]", timeout=90_000)
    press = "() => { const b = document.querySelector('[data-testid=rematch]'); if (b) b.click(); return !!b; }"
    pressed = [page.evaluate(press) for page in (ann, bob)]
    assert pressed[0]
    if not pressed[1]:  # the offer reached Bob first: his page shows only the way to join it
        assert bob.locator("[data-testid=rematch]").count() == 0
        bob.click("[data-testid=join-rematch]")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/table/(?!" + table_id + r")[^/]+$"))
    new_id = ann.url.rsplit("/", 1)[1]
    assert bob.url.rsplit("/", 1)[1] == new_id
    assert httpx.get(f"{base}/api/tables/{table_id}").json()["rematch"] == new_id
    made = httpx.get(f"{base}/api/tables/{new_id}").json()
    assert made["private"] is True and [s["name"] for s in made["seats"][:2]] == ["Ann", "Bob"]
    # the old table's page, opened again: only "Join the rematch" (no second Rematch)
    again = new_page(context=ann.context)
    again.goto(f"{base}/table/{table_id}")
    again.wait_for_selector("[data-testid=join-rematch]")
    assert again.locator("[data-testid=rematch]").count() == 0
    assert again.inner_text("[data-testid=join-rematch]") == "Join the rematch"
    # Ann's token of the new table is lost (a cleared storage, a reply that never came):
    # "Join the rematch" gives her seat back with a new token, not a spectator's view
    again.evaluate(f"() => localStorage.removeItem('coloretto.token.{new_id}')")
    again.click("[data-testid=join-rematch]")
    again.wait_for_url(re.compile(r"/table/" + new_id + r"$"))
    again.wait_for_selector(f"{VIEW}[data-my-seat='0']")


def points(text: str) -> int:
    """The points at the end of a breakdown item ("G green +21", "pink -3", "×2 = +4")."""
    return int(text.split()[-1].replace("\u2212", "-"))


def test_a_match_ends_with_every_games_scores(web_server: Any, new_page: Any, screenshots: Path) -> None:
    """After a match: a column per game and the match total; the "Game N" buttons show each
    game's breakdown (the last at first), whose points add up to that game's score."""
    base = web_server.url
    made = httpx.post(f"{base}/api/tables", json={
        "seats": [{"kind": "computer", "agent": "random"}] * 2, "rules": {"match_games": 2}}).json()["table"]["id"]
    page = new_page()
    page.goto(f"{base}/table/{made}")
    page.wait_for_selector("[data-testid=result]", timeout=120_000)
    result = httpx.get(f"{base}/api/tables/{made}/replay").json()["result"]
    heads = page.locator("[data-testid=result] thead th").all_inner_texts()
    assert "Game 1" in heads and "Game 2" in heads and "Match total" in heads
    for seat in range(2):
        row = page.locator(f"[data-testid=result] tr[data-seat='{seat}']")
        games = [int(x.replace("\u2212", "-")) for x in row.locator("td.game-score").all_inner_texts()]
        assert games == [g[seat] for g in result["game_scores"]]
        assert sum(games) == int(row.locator("td.total").inner_text().replace("\u2212", "-")) == result["scores"][seat]
    panel = page.locator("[data-testid=result]")
    assert "Choose a game" in panel.locator("[data-testid=match-note]").inner_text()
    buttons = page.locator("[data-testid=result-game]")
    assert buttons.all_inner_texts() == ["Game 1", "Game 2"]
    assert panel.get_attribute("data-shown-game") == "1"  # the last game at first
    for game in (0, 1, 0):
        page.click(f"[data-testid=result-game][data-game='{game}']")
        page.wait_for_selector(f"[data-testid=result][data-shown-game='{game}']")
        assert focused_game(page) == str(game)
        pressed = page.locator("[data-testid=result-game]")
        assert [pressed.nth(k).get_attribute("aria-pressed") for k in range(2)] == [str(k == game).lower() for k in range(2)]
        for seat in range(2):
            row = page.locator(f"[data-testid=result] tr[data-seat='{seat}']")
            shown = row.locator("td.game-score.shown")
            assert shown.count() == 1 and int(shown.inner_text().replace("\u2212", "-")) == result["game_scores"][game][seat]
            b = result["game_breakdowns"][game][seat]
            pos = [points(x) for x in row.locator("td.bd-pos .bd-item").all_inner_texts()]
            neg = [points(x) for x in row.locator("td.bd-neg .bd-item").all_inner_texts()]
            plus2 = row.locator("td.bd-plus2 .bd-item")
            extra = points(plus2.inner_text()) if plus2.count() else 0
            assert pos == list(b["positive"].values()) and neg == list(b["negative"].values()) and extra == b["plus2"]
            assert sum(pos) + sum(neg) + extra == b["total"] == result["game_scores"][game][seat]
            text = row.inner_text()
            for colour in b["jokers"]:
                assert f"\u2192 {colour}" in text
        page.screenshot(path=str(screenshots / f"match-breakdown-game-{game + 1}.png"), full_page=True)


def focused_game(page: Any) -> str:
    """``data-game`` of the focused element (the "Game N" button just pressed)."""
    return str(page.evaluate("() => document.activeElement.dataset.game"))
