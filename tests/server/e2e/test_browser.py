"""Browser end-to-end tests of the web client: real ``coloretto serve``, real
Chromium, the page driven by clicks and key presses like a person would.

1. A table with three computer players, played to the end by clicking the first enabled
   action (some by keyboard shortcut); the final breakdown is checked against the server.
2. Two people (two browser contexts) and a computer at one table; one page is reloaded
   mid-game and later closed (the other sees the seat disconnected and hands it to a
   computer player) and reopened (the person takes the seat back); the game goes on to the
   end.
3. A phone-sized viewport: lobby, live table and final result without horizontal overflow.
4. The replay of a finished game, stepped move by move, with a shareable link; the
   leaderboard.
5. The server is killed (SIGKILL) mid-game and started again: the page reconnects by
   itself and the game goes on from where it was.

Screenshots go to test-artifacts/e2e/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from ratedgame import play_rated_game

pytestmark = pytest.mark.slow

VIEW = "#table-view"


# ----- helpers ----------------------------------------------------------------------------------
def attr(page: Any, key: str) -> str:
    """A data- attribute of the table view (version, status, to-move, my-seat, mine, conn)."""
    return page.get_attribute(VIEW, f"data-{key}") or ""


def create_table(page: Any, base: str, name: str, seats: list[str], press: str = "click", **options: str) -> str:
    """Fill the lobby's create form (``seats``: "me", "human", "computer:AGENT" per seat) and
    submit it by ``press`` ("click" or "dblclick"); returns the table id once the table page
    shows."""
    page.goto(base + "/")
    page.fill("#player-name", name)
    page.select_option("#seat-count", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    if options:
        page.click("details.options summary")
        for field, value in options.items():
            page.select_option(f"#{field}", value)
    getattr(page, press)("[data-testid=create]")
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    page.wait_for_selector(f"{VIEW}[data-conn=open]")
    return page.url.rsplit("/", 1)[1]


def act(page: Any, keyboard: bool = False) -> int:
    """Play the first enabled action button of ``page`` (by its key shortcut when
    ``keyboard``); waits until the page shows the next version and returns it."""
    version = attr(page, "version")
    button = page.locator(f"{VIEW} button.action:enabled").first
    key = button.get_attribute("data-key") or ""
    if keyboard and key == "draw":
        page.keyboard.press("d")
    elif keyboard and re.fullmatch(r"(place|take)-\d", key):
        page.keyboard.press(str(int(key.split("-")[1]) + 1))
    else:
        button.click()
    page.wait_for_function(
        "v => document.querySelector('#table-view').dataset.version !== v", arg=version
    )
    return int(attr(page, "version"))


def play_until(
    observer: Any, pages: dict[int, Any], stop: Any = None, keyboard_every: int = 0, on_decision: Any = None
) -> int:
    """Play the people's seats (``pages`` by seat) until the game ends or ``stop(version)`` is
    true. ``observer`` (one of the pages) tells whose turn it is; ``on_decision(page)`` is
    called while a page's seat decides, before it acts. Returns the number of actions played
    through the pages."""
    done = 0
    newest = int(attr(observer, "version"))
    while True:
        observer.wait_for_function(
            "m => +document.querySelector('#table-view').dataset.version >= m", arg=newest
        )
        if attr(observer, "status") == "finished":
            return done
        version = int(attr(observer, "version"))
        if stop is not None and stop(version):
            return done
        to_move = attr(observer, "to-move")
        seat = int(to_move) if to_move else -1
        if seat in pages:
            page = pages[seat]
            page.wait_for_selector(f"{VIEW}[data-mine='1'], {VIEW}[data-status=finished]")
            if attr(page, "status") == "finished":
                continue
            if on_decision is not None:
                on_decision(page)
            done += 1
            newest = max(
                newest, act(page, keyboard=bool(keyboard_every) and done % keyboard_every == 0)
            )
        else:  # a computer player: wait for its move
            observer.wait_for_function(
                "v => { const d = document.querySelector('#table-view').dataset;"
                " return d.version !== v || d.status === 'finished'; }",
                arg=str(version),
            )


def no_horizontal_overflow(page: Any) -> None:
    """The page is not wider than the viewport (no sideways scrolling on a phone)."""
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"page is {widths[0]} px wide in a {widths[1]} px viewport"


def check_result(page: Any, base: str, table_id: str) -> None:
    """The final breakdown shown equals the server's result (ranks, totals, jokers, "+2")."""
    page.wait_for_selector("[data-testid=result]")
    result = httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=10).json()["result"]
    rows = page.locator("[data-testid=result] table.breakdown tbody tr")
    assert rows.count() == len(result["scores"])
    for i in range(rows.count()):
        row = rows.nth(i)
        seat = int(row.get_attribute("data-seat") or "-1")
        assert row.locator("td.total").inner_text().strip() == str(result["scores"][seat])
        assert row.locator("td.rank").inner_text().startswith(str(result["ranks"][seat]))
        b = result["breakdowns"][seat]
        text = row.inner_text()
        for colour, points in b["positive"].items():
            assert f"{colour} +{points}" in text
        for colour, points in b["negative"].items():
            assert f"{colour} {points}" in text
        for colour in b["jokers"]:
            assert f"\u2192 {colour}" in text
        if b["plus2"]:
            assert f"+{b['plus2']}" in text
    record = page.locator("[data-testid=record]")
    href = record.get_attribute("href")
    assert href == f"/api/tables/{table_id}/record"
    assert page.request.get(base + href).json()["format"] == "coloretto-record/1"
    assert page.locator("[data-testid=rematch]").is_enabled()


# ----- 1. three computer players --------------------------------------------------------------
def test_full_game_against_three_computers(web_server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    base = web_server.url
    page.goto(base + "/")
    page.wait_for_selector("#create-form")
    page.screenshot(path=str(artifacts / "1-lobby.png"), full_page=True)
    table_id = create_table(
        page,
        base,
        "Ann",
        ["me", "computer:easy", "computer:medium", "computer:random"],
        edition='"modern"',
    )
    assert attr(page, "my-seat") == "0"
    page.wait_for_selector(f"{VIEW}[data-status=playing]")
    # the first decision is taken with the keyboard, then every third one
    played = play_until(page, {0: page}, stop=lambda v: v >= 12, keyboard_every=3)
    page.wait_for_selector(f"{VIEW}[data-mine='1']")
    page.screenshot(path=str(artifacts / "1-mid-game.png"), full_page=True)
    # legal actions only: every enabled action button is one the server listed
    assert page.locator(f"{VIEW} button.action:enabled").count() >= 1
    played += play_until(page, {0: page}, keyboard_every=3)
    assert played >= 10
    assert attr(page, "status") == "finished"
    check_result(page, base, table_id)
    page.screenshot(path=str(artifacts / "1-final.png"), full_page=True)
    # rematch: same rules and seats at a new table, Ann in her seat again, computers ready
    page.click("[data-testid=rematch]")
    page.wait_for_url(re.compile(r"/table/(?!" + table_id + r")[^/]+$"))
    page.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='0'][data-status=playing]")
    assert "modern" in page.locator(".table-head").inner_text()


# ----- 2. two people, reload and reconnect ----------------------------------------------------
def test_two_people_with_reload(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    ann = new_page()
    table_id = create_table(
        ann, base, "Ann", ["me", "human", "computer:random"], starting_cards='"choose"'
    )
    assert attr(ann, "status") == "open"
    invite = ann.input_value("#invite-url")
    assert invite == f"{base}/table/{table_id}"
    ann.screenshot(path=str(artifacts / "2-waiting.png"), full_page=True)

    bob = new_page()  # another context: another person's browser
    bob.goto(invite)
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    # the game starts when Bob sits down: his page may hear of it before his seat's welcome
    ann.wait_for_selector(f"{VIEW}[data-status=playing]")
    bob.wait_for_selector(f"{VIEW}[data-status=playing][data-my-seat='1']")
    # starting cards are chosen in turn: the colour buttons are the legal actions
    ann.wait_for_selector(f"{VIEW}[data-decision=choose_start]")
    ann.screenshot(path=str(artifacts / "2-choose-start.png"), full_page=False)

    played = play_until(ann, {0: ann, 1: bob}, stop=lambda v: v >= 10)
    # reload Bob's page mid-game: the browser keeps the seat token, Bob is back in seat 1
    bob.reload()
    bob.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='1']")
    assert bob.locator(".player[data-seat='1'] .badge.you").count() == 1
    played += play_until(ann, {0: ann, 1: bob}, stop=lambda v: v >= 30)

    # Bob's tab closes: Ann sees him disconnected and, as the host (she created the table),
    # may replace him with a computer at once
    context = bob.context
    bob.close()
    ann.wait_for_selector(".player[data-seat='1'] [data-testid=disconnected]")
    ann.wait_for_selector(".player[data-seat='1'] [data-testid=replace]:enabled")
    ann.screenshot(path=str(artifacts / "2-disconnected.png"), full_page=True)
    ann.click(".player[data-seat='1'] [data-testid=replace]")
    ann.wait_for_selector(".player[data-seat='1'] .badge.computer")
    # Bob comes back (same browser: the token is kept), finds a computer in his seat and
    # takes it back
    bob = new_page(context=context)
    bob.goto(invite)
    bob.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='1']")
    bob.click("text=Take my seat back")
    ann.wait_for_selector(".player[data-seat='1'] .badge.computer", state="detached")
    assert ann.locator(".player[data-seat='1'] [data-testid=disconnected]").count() == 0

    played += play_until(ann, {0: ann, 1: bob})
    assert played >= 20
    bob.wait_for_selector(f"{VIEW}[data-status=finished]")
    check_result(ann, base, table_id)
    check_result(bob, base, table_id)
    ann.screenshot(path=str(artifacts / "2-final-ann.png"), full_page=True)
    bob.screenshot(path=str(artifacts / "2-final-bob.png"), full_page=True)

    # Ann asks for a rematch; Bob is offered it, joins his old seat, and the new game starts
    ann.click("[data-testid=rematch]")
    ann.wait_for_url(re.compile(r"/table/(?!" + table_id + r")[^/]+$"))
    bob.click("text=Join the rematch")
    bob.wait_for_url(ann.url)
    for p, seat in ((ann, "0"), (bob, "1")):
        p.wait_for_selector(f"{VIEW}[data-status=playing][data-my-seat='{seat}']")


# ----- 3. phone-sized screen --------------------------------------------------------------------
def computers_only_table(base: str, players: int = 4, **rules: Any) -> str:
    """A finished-soon table of computer players, created through the HTTP API."""
    r = httpx.post(
        f"{base}/api/tables",
        json={
            "name": "Watcher",
            "seats": [{"kind": "computer", "agent": "random"} for _ in range(players)],
            "title": "Computers only",
            "rules": rules,
        },
        timeout=10,
    )
    assert r.status_code == 201, r.text
    return str(r.json()["table"]["id"])


def test_phone_screen(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    phone = new_page(390, 844)
    phone.goto(base + "/")
    phone.wait_for_selector("#create-form")
    phone.click("details.options summary")  # every rule option visible
    no_horizontal_overflow(phone)
    phone.screenshot(path=str(artifacts / "3-phone-lobby.png"), full_page=True)
    create_table(phone, base, "Pia", ["me", "computer:easy", "computer:medium", "computer:hard"])
    phone.wait_for_selector(f"{VIEW}[data-mine='1']")
    no_horizontal_overflow(phone)
    draw_or_take = phone.locator(f"{VIEW} button.action:enabled").first
    box = draw_or_take.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["height"] >= 32, "touch targets must be large enough"
    phone.screenshot(path=str(artifacts / "3-phone-table.png"), full_page=True)
    act(phone)  # a draw: the drawn card is shown before its row is chosen
    if phone.locator("[data-testid=drawn-card]").count():
        no_horizontal_overflow(phone)
        phone.screenshot(path=str(artifacts / "3-phone-drawn.png"), full_page=False)

    table_id = computers_only_table(base)
    phone.goto(f"{base}/table/{table_id}")
    phone.wait_for_selector("[data-testid=result]")
    no_horizontal_overflow(phone)
    phone.screenshot(path=str(artifacts / "3-phone-result.png"), full_page=True)


# ----- 4. replay ---------------------------------------------------------------------------------
def test_a_name_typed_while_the_page_loads_is_kept(web_server: Any, new_page: Any) -> None:
    """The name field is on the page before the language file arrives; what a person types
    there meanwhile survives the page's start-up, and the table is created under it."""
    page = new_page()
    held: list[Any] = []
    page.route("**/static/locales/en.json", lambda route: held.append(route))
    page.goto(web_server.url + "/", wait_until="commit")
    page.fill("#player-name", "Quick")
    while not held:
        page.wait_for_timeout(20)
    held[0].continue_()
    page.wait_for_selector("[data-testid=create]")
    page.unroute("**/static/locales/en.json")
    assert page.input_value("#player-name") == "Quick"
    page.select_option("#seat-count", "2")
    page.select_option("#seat-1", "human")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    page.wait_for_selector(f"{VIEW}[data-my-seat='0']")
    table_id = page.url.rsplit("/", 1)[1]
    seats = httpx.get(f"{web_server.url}/api/tables/{table_id}").json()["seats"]
    assert seats[0]["name"] == "Quick"


def test_replay_and_leaderboard(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    table_id = computers_only_table(base)
    page = new_page()
    page.goto(f"{base}/table/{table_id}")
    page.wait_for_selector("[data-testid=result]")
    page.click("text=Replay move by move")
    page.wait_for_url(re.compile(rf"/replay/{table_id}"))
    caption = page.locator("[data-testid=replay-caption]")
    assert caption.inner_text() == "The start of the game"
    page.click("[data-testid=next]")
    assert re.match(r"1\. Computer \d \(random\) (draws|starts with)", caption.inner_text())
    page.keyboard.press("ArrowRight")
    assert caption.inner_text().startswith("2. ")
    assert page.url.endswith("#2")
    page.screenshot(path=str(artifacts / "4-replay.png"), full_page=True)
    # the link opens the replay at that move
    other = new_page()
    other.goto(page.url)
    other.wait_for_selector("[data-testid=replay-caption]")
    assert other.locator("[data-testid=replay-caption]").inner_text().startswith("2. ")
    page.keyboard.press("End")
    page.wait_for_selector("[data-testid=result]")
    # the lobby lists the finished game with its replay link
    page.goto(base + "/")
    page.wait_for_selector(f"li[data-table='{table_id}'] >> text=Replay")
    play_rated_game(base, ("Eve", "Finn"))  # the leaderboard lists rated games of accounts only
    page.goto(base + "/#leaderboard")
    page.wait_for_selector("table.leaderboard >> text=Finn")
    page.check("#lb-computers")
    page.wait_for_selector("table.leaderboard >> text=Computer (random)")
    page.screenshot(path=str(artifacts / "4-leaderboard.png"), full_page=True)


# ----- 4b. a match: round separators, the Last Round line, game and match totals --------------
def test_match_log_and_totals(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    table_id = computers_only_table(base, 3, match_games=2, edition="modern")
    page = new_page()
    page.goto(f"{base}/table/{table_id}")
    page.wait_for_selector("[data-testid=result]")
    result = httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=10).json()["result"]
    # the log: a heading per round and game, and the Last Round card once per game
    seps = page.locator("[data-testid=round-separator]").all_inner_texts()
    assert seps[0] == "Game 1 \u00b7 Round 1" and "Round 2" in seps and "Game 2 \u00b7 Round 1" in seps
    last_round = page.locator("[data-testid=last-round-line]")
    assert last_round.count() == 2
    assert "The Last Round card came up" in last_round.first.inner_text()
    ends = page.locator("[data-testid=game-end-line]").all_inner_texts()
    assert [t.split(":")[0] for t in ends] == ["Game 1 over", "Game 2 over"]
    # during play the status says which game of the match it is; at the end, the match totals
    assert page.locator("[data-testid=match-game]").inner_text() == "Game 2 of 2"
    standing = page.locator("[data-testid=match-standing]")
    assert standing.locator("h2").inner_text() == "Match totals"
    shown = {int(li.get_attribute("data-seat") or -1): int(li.locator(".match-total").inner_text())
             for li in standing.locator("li").all()}
    assert shown == dict(enumerate(result["scores"]))
    panel = page.locator("[data-testid=result]")
    assert panel.locator("h2").inner_text() == "Match over (2 games)"
    for i in range(3):
        row = panel.locator(f"tbody tr[data-seat='{i}']")
        assert row.locator("td.total").inner_text() == str(result["scores"][i])
        assert row.locator("td.rank").inner_text().startswith(str(result["ranks"][i]))
        assert row.locator("td.game-score").all_inner_texts() == [str(g[i]) for g in result["game_scores"]]
    page.screenshot(path=str(artifacts / "4b-match.png"), full_page=True)
    # the replay mid-game shows the standing with the game number
    page.goto(f"{base}/replay/{table_id}#10")
    page.wait_for_selector("[data-testid=match-standing]")
    assert "game 1 of 2" in page.locator("[data-testid=match-standing] h2").inner_text()
    assert page.locator("[data-testid=round-separator]").first.inner_text() == "Game 1 \u00b7 Round 1"


# ----- 5. server restart ------------------------------------------------------------------------
def test_reconnects_after_server_restart(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    page = new_page()
    create_table(page, base, "Ann", ["me", "computer:random", "computer:random"])
    play_until(page, {0: page}, stop=lambda v: v >= 8)
    page.wait_for_selector(f"{VIEW}[data-mine='1']")
    before = int(attr(page, "version"))
    web_server.kill9()
    page.wait_for_selector(f"{VIEW}[data-conn=reconnecting]")
    assert "reconnecting" in page.locator(".conn-banner").inner_text()
    page.screenshot(path=str(artifacts / "5-reconnecting.png"), full_page=False)
    web_server.start()  # same port, same database
    page.wait_for_selector(
        f"{VIEW}[data-conn=open][data-my-seat='0'][data-mine='1']", timeout=30_000
    )
    assert int(attr(page, "version")) == before
    assert page.locator(".conn-banner").is_hidden()
    play_until(page, {0: page})
    page.wait_for_selector("[data-testid=result]")


def test_double_presses_act_once(web_server: Any, new_page: Any) -> None:
    """A double click on Create table creates one table, on Sign up sends one request (one
    welcome, no "name taken"), and joining a table that stays open shows no "seat taken"
    error for the seat the join itself took."""
    base = web_server.url
    created: list[str] = []
    host = new_page()
    host.on("request", lambda r: created.append(r.url) if r.method == "POST" and r.url.endswith("/api/tables") else None)
    create_table(host, base, "Dora", ["me", "human", "human"], press="dblclick")
    host.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='0']")
    assert len(created) == 1
    guest = new_page()
    guest.goto(host.url)
    guest.wait_for_selector("#join-name")
    guest.fill("#join-name", "Eli")
    guest.select_option("#join-seat", "1")
    guest.evaluate("""() => new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
        if (n.classList && n.classList.contains('toast-error')) window.__errors = (window.__errors || []).concat(n.textContent);
    }))).observe(document.getElementById('toasts'), { childList: true })""")
    guest.dblclick("[data-testid=join]")
    guest.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='1']")
    guest.wait_for_timeout(500)
    assert guest.evaluate("() => window.__errors || []") == []
    guest.click("[data-testid=account-open]")
    guest.fill("#account-name", "Eli Double")
    guest.fill("#account-password", "Eli's long password")
    guest.evaluate("() => { window.__errors = []; document.getElementById('toasts').replaceChildren(); }")
    guest.dblclick("[data-testid=sign-up]")
    guest.locator("#toasts .toast-info").first.wait_for()
    guest.wait_for_timeout(500)
    assert guest.evaluate("() => window.__errors || []") == []
