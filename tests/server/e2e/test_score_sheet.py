"""The score sheet for a physical table (``/score``) in real Chromium against a real
``coloretto serve``, used by tapping and typing like a person at a table:

1. On a phone (390x844): players added, cards tapped and typed, totals, explanations, ranks
   (a tie) and the winner checked against the Python scorer at each step; score table,
   Extrakarten card and colour names changed; then the server is stopped and the page
   reloaded: the service worker serves it, the sheet is as it was and still scores.
2. On a desktop: a 4-game match sheet adds the games up; clearing a game, removing a player
   and a new sheet; bad typed counts and the joker limits: the message names the field's
   own range, and leaving the field puts the nearest count it takes.
3. Languages: the browser's language is followed, the selector switches and is remembered,
   every visible string of the sheet changes, and the colour letters are the language's.
4. Chromium finds the sheet installable (manifest, icons, service worker).

Screenshots go to test-artifacts/e2e/ (score-sheet-*.png).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverproc import ServerProcess

from coloretto.engine.tally import cards_report

pytestmark = pytest.mark.slow

COLOURS = ["blue", "brown", "gray", "green", "orange", "pink", "yellow"]
LOCALES = Path(__file__).resolve().parents[3] / "src" / "coloretto" / "web" / "locales"


@pytest.fixture
def sheet_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of its own (the offline test stops it)."""
    server = ServerProcess(str(tmp_path / "coloretto.db"), tmp_path / "server.log", "--no-access-log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def open_sheet(page: Any, base: str) -> None:
    page.goto(base + "/score")
    page.wait_for_selector("main[data-ready]")


def add_player(page: Any, name: str, enter: bool = False) -> None:
    page.fill("#new-player", name)
    if enter:
        page.press("#new-player", "Enter")
    else:
        page.click("#add-player")
    page.wait_for_selector(f".player-name-input[value=\"{name}\"]")


def open_settings(page: Any) -> None:
    """Unfold the game settings (folded once the sheet has players)."""
    if page.get_attribute(".sheet-settings", "open") is None:
        page.click("[data-testid=sheet-settings]")
    page.wait_for_selector("#table-brown", state="visible")


def tap(page: Any, player: str, kind: str, times: int = 1, minus: bool = False) -> None:
    """Tap the +/- button of ``kind`` (a colour name, joker, golden_joker, plus2)."""
    field = f"{player}-colour-{COLOURS.index(kind)}" if kind in COLOURS else f"{player}-{kind}"
    for _ in range(times):
        page.click(f"#minus-{field}" if minus else f"#plus-{field}")


def total(page: Any, player: str) -> int:
    return int(page.get_attribute(f"#player-{player} .sp-total", "data-total"))


def rank(page: Any, player: str) -> int:
    return int(page.get_attribute(f"#player-{player} .sp-rank", "data-rank"))


def expected(cards: dict[str, int], labels: dict[str, str] | None = None, table: str = "brown",
             extra: str | None = None) -> dict[str, Any]:
    """The Python scorer's report for the sheet's seven colours (named as the page names them);
    a player without cards has 0 points on the sheet, a tally the scorer refuses."""
    if not any(cards.values()):
        return {"total": 0}
    labels = labels or {}
    body = {labels.get(c, c): cards.get(c, 0) for c in COLOURS}
    for kind in ("joker", "golden_joker", "plus2"):
        body[kind] = cards.get(kind, 0)
    return cards_report(body, table, extra)


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def test_phone_sheet_scores_each_tap_and_works_offline(
    sheet_server: ServerProcess, new_page: Any, artifacts: Path
) -> None:
    base = sheet_server.url
    page = new_page(390, 844)
    open_sheet(page, base)
    assert page.inner_text("#sheet-title") == "Score sheet"
    assert "No players yet" in page.inner_text(".sheet-standings")
    add_player(page, "Ann")
    add_player(page, "Bob", enter=True)
    add_player(page, "Cem")
    assert page.locator(".sheet-player").count() == 3
    # the rulebook's collection, with "red" as the name of one colour of the cards
    assert page.get_attribute(".sheet-settings", "open") is None  # folded once there are players
    open_settings(page)
    page.click("[data-testid=colour-names]")
    page.fill("#label-gray", "red")
    page.press("#label-gray", "Enter")
    page.wait_for_selector("label[for=count-p1-colour-2] >> text=red")
    ann = {"green": 6, "yellow": 4, "gray": 3, "blue": 2, "joker": 1, "plus2": 1}
    running: dict[str, int] = {}
    for kind, n in ann.items():
        for _ in range(n):
            tap(page, "p1", kind)
            running[kind] = running.get(kind, 0) + 1
            # updated at each tap, as the Python scorer says
            assert total(page, "p1") == expected(running, {"gray": "red"})["total"], running
    assert total(page, "p1") == 41
    reason = page.inner_text("#player-p1 .reason")
    for part in ("green", "+21", "yellow", "+15", "red", "+6", "blue", "\u22123", "1 joker \u2192 yellow",
                 "1 \u201c+2\u201d card: +2", "4 cards, 1 joker added"):
        assert part in reason, (part, reason)
    assert page.inner_text("#player-p1 .sp-rank") == "Winner"
    page.wait_for_function("document.getElementById('sheet-live').textContent.includes('Ann: 41 points, rank 1')")
    # Bob types his counts; the golden joker by tapping; a tie with Ann
    page.fill("#count-p2-colour-1", "5")
    page.fill("#count-p2-colour-5", "4")
    tap(page, "p2", "golden_joker")
    page.fill("#count-p2-plus2", "5")
    bob = {"brown": 5, "pink": 4, "golden_joker": 1, "plus2": 5}
    assert total(page, "p2") == expected(bob)["total"] == 41
    assert "Golden joker \u2192 brown" in page.inner_text("#player-p2 .reason")
    assert [rank(page, p) for p in ("p1", "p2", "p3")] == [1, 1, 3]
    assert page.inner_text("[data-testid=winner]") == "Shared win: Ann and Bob"
    assert page.inner_text("#player-p3 .sp-rank") == "Rank 3"
    # the keyboard: arrow keys in a count field, Enter on a button
    page.focus("#count-p3-colour-4")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.focus("#plus-p3-colour-4")
    page.keyboard.press("Enter")
    assert page.input_value("#count-p3-colour-4") == "3" and total(page, "p3") == 6
    tap(page, "p3", "orange", minus=True)
    assert total(page, "p3") == 3
    rows = page.locator("[data-testid=standings] tbody tr")
    assert rows.count() == 3 and "Cem" in rows.nth(2).inner_text()
    # the score table and the Extrakarten card change every total
    page.check("#table-violet")
    assert total(page, "p1") == 20  # docs/rules.md §6: joker to blue
    assert "1 joker \u2192 blue" in page.inner_text("#player-p1 .reason")
    for extra in ("single_three", "triple_three", "triple_minus"):
        page.select_option("#extra", extra)
        assert total(page, "p1") == expected(ann, table="violet", extra=extra)["total"], extra
        assert total(page, "p2") == expected(bob, table="violet", extra=extra)["total"], extra
    assert "Negative, counted three times" in page.inner_text("#player-p1 .reason")
    summary = page.inner_text(".settings-summary")
    assert "Violet (1, 4, 8, 7, 6, 5)" in summary and "Negative colours count three times" in summary
    page.select_option("#extra", "")
    page.check("#table-brown")
    assert total(page, "p1") == 41
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "score-sheet-phone.png"), full_page=True)
    page.screenshot(path=str(artifacts / "score-sheet-phone-screen.png"), full_page=False)

    # offline: the service worker holds the page; stop the server and reload
    page.wait_for_selector("#offline-status[data-state=ready]")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    sheet_server.stop()
    with pytest.raises(httpx.HTTPError):
        httpx.get(base + "/api/health", timeout=2)
    page.reload()
    page.wait_for_selector("main[data-ready]")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert total(page, "p1") == 41 and total(page, "p2") == 41 and total(page, "p3") == 3
    assert page.input_value("#label-gray") == "red"
    tap(page, "p3", "orange", times=3)
    tap(page, "p3", "plus2")
    assert total(page, "p3") == expected({"orange": 5, "plus2": 1})["total"] == 17
    tap(page, "p1", "plus2")
    assert page.inner_text("[data-testid=winner]") == "Winner: Ann"
    # the language files are served offline too
    page.select_option("#language", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert page.inner_text("#sheet-title") == "Wertungsblock"
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "score-sheet-phone-offline.png"), full_page=True)


def test_a_long_name_without_spaces_keeps_the_phone_page_narrow(
    sheet_server: ServerProcess, new_page: Any
) -> None:
    """A name of 24 letters and no space (the longest the field takes) wraps in the standings
    and on the remove button, armed or not: the page stays 390 px wide."""
    page = new_page(390, 844)
    open_sheet(page, sheet_server.url)
    add_player(page, "W" * 24, enter=True)
    add_player(page, "Bo")
    tap(page, "p1", "green", 2)
    no_sideways_scroll(page)
    page.click("#remove-p1")  # armed: asks to press again, with the name
    assert "W" * 24 in page.inner_text("#remove-p1")
    no_sideways_scroll(page)


def test_desktop_match_sheet_and_sheet_actions(sheet_server: ServerProcess, new_page: Any, artifacts: Path) -> None:
    page = new_page(1280, 900)
    page.goto(sheet_server.url + "/")  # the lobby's header links to the sheet
    page.click("[data-testid=nav-score]")
    page.wait_for_selector("main[data-ready]")
    assert page.url == sheet_server.url + "/score"
    # the skip link is the first Tab stop; Enter moves the focus to the sheet
    page.keyboard.press("Tab")
    skip = page.locator("[data-testid=skip]")
    assert skip.evaluate("e => e === document.activeElement")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.id === 'main'")
    assert page.get_attribute(".sheet-settings", "open") is not None  # open on a new sheet
    for name in ("Ann", "Bob"):
        add_player(page, name)
    # a name is edited in place; a name another player has is refused
    page.fill("#name-p2", "Bea")
    page.press("#name-p2", "Enter")
    page.wait_for_selector("[data-testid=standings] tbody th >> text=Bea")
    page.fill("#name-p2", "ann")
    page.press("#name-p2", "Enter")
    assert page.input_value("#name-p2") == "Bea"
    assert page.get_attribute("#plus-p2-joker", "aria-label") == "One more: Jokers, Bea"
    open_settings(page)
    page.check("#games-4")
    assert [page.inner_text(f"#game-tab-{g}") for g in (1, 2, 3, 4)] == ["Game 1", "Game 2", "Game 3", "Game 4"]
    assert page.get_attribute("#game-tab-1", "aria-pressed") == "true"
    games = [
        ({"green": 6, "joker": 1}, {"blue": 3, "plus2": 2}),
        ({"pink": 2}, {"yellow": 9, "orange": 4, "gray": 1}),
        ({"brown": 3, "gray": 3, "blue": 3, "joker": 2, "golden_joker": 1}, {}),
    ]
    totals = [0, 0]
    for g, cards in enumerate(games):
        page.click(f"#game-tab-{g + 1}")
        assert page.inner_text("#players-heading") == f"Players, game {g + 1} of 4"
        for p, held in enumerate(cards):
            for kind, n in held.items():
                tap(page, f"p{p + 1}", kind, n)
            totals[p] += expected(held)["total"]
            assert total(page, f"p{p + 1}") == expected(held)["total"]
    cells = page.locator("[data-testid=match-total]")
    shown = {page.locator("[data-testid=standings] tbody tr").nth(i).get_attribute("data-player"):
             int(cells.nth(i).inner_text()) for i in range(2)}
    assert shown == {"p1": totals[0], "p2": totals[1]}
    winner = "Ann" if totals[0] > totals[1] else "Bea"
    assert page.inner_text("[data-testid=winner]") == f"Match winner: {winner}"
    assert page.inner_text(".sheet-standings th >> nth=2") == "Game 1"
    game4 = page.locator("[data-testid=standings] tbody tr").first.locator("td.num").nth(3)
    assert game4.inner_text() == "\u2013"  # not played yet
    page.screenshot(path=str(artifacts / "score-sheet-desktop-match.png"), full_page=True)

    # limits: a typed count out of range is refused with a message naming the field's range;
    # leaving the field puts the nearest count it takes and says so
    page.click("#game-tab-4")
    page.fill("#count-p1-colour-0", "12")
    assert page.get_attribute("#count-p1-colour-0", "aria-invalid") == "true"
    assert page.inner_text("#count-p1-colour-0-error") == "Enter a whole number from 0 to 9."
    assert total(page, "p1") == 0
    page.press("#count-p1-colour-0", "Tab")
    assert page.input_value("#count-p1-colour-0") == "9"
    assert page.get_attribute("#count-p1-colour-0", "aria-invalid") is None
    assert page.inner_text("#count-p1-colour-0-error") == "12 changed to 9. Enter a whole number from 0 to 9."
    assert total(page, "p1") == expected({COLOURS[0]: 9})["total"]
    page.fill("#count-p1-colour-0", "-3")
    page.press("#count-p1-colour-0", "Tab")
    assert page.input_value("#count-p1-colour-0") == "0" and total(page, "p1") == 0
    assert page.inner_text("#count-p1-colour-0-error") == "\u22123 changed to 0. Enter a whole number from 0 to 9."
    # typed key by key, the refused 12 leaves nothing of its 1 behind while it is typed
    page.fill("#count-p1-colour-0", "")
    page.type("#count-p1-colour-0", "12")
    assert page.get_attribute("#count-p1-colour-0", "aria-invalid") == "true"
    assert page.input_value("#count-p1-colour-0") == "12" and total(page, "p1") == 0
    page.press("#count-p1-colour-0", "Tab")
    assert page.input_value("#count-p1-colour-0") == "9"
    # a count that was there before the typing is the one counted while the typed one is refused
    page.fill("#count-p1-colour-0", "4")
    page.press("#count-p1-colour-0", "Tab")
    assert page.inner_text("#count-p1-colour-0-error") == ""
    page.click("#count-p1-colour-0")
    page.keyboard.press("Control+A")
    page.keyboard.type("12")  # the 1 is taken on the way, the 12 refused
    assert page.get_attribute("#count-p1-colour-0", "aria-invalid") == "true"
    assert total(page, "p1") == expected({COLOURS[0]: 4})["total"]
    page.press("#count-p1-colour-0", "Tab")
    assert page.input_value("#count-p1-colour-0") == "9"
    assert total(page, "p1") == expected({COLOURS[0]: 9})["total"]
    page.fill("#count-p1-colour-0", "0")
    page.press("#count-p1-colour-0", "Tab")
    assert total(page, "p1") == 0
    assert page.inner_text("#count-p1-colour-0-error") == ""
    # jokers: 3 in all with the golden one, so with the golden joker 2 at most
    tap(page, "p1", "golden_joker")
    page.fill("#count-p1-joker", "5")
    assert page.get_attribute("#count-p1-joker", "aria-invalid") == "true"
    assert page.inner_text("#count-p1-joker-error") == (
        "Enter a whole number from 0 to 2. At most 3 jokers in all, the golden joker included.")
    assert page.get_attribute("#count-p1-joker", "max") == "2"
    page.press("#count-p1-joker", "Tab")
    assert page.input_value("#count-p1-joker") == "2"
    assert page.inner_text("#count-p1-joker-error") == (
        "5 changed to 2. Enter a whole number from 0 to 2. At most 3 jokers in all, the golden joker included.")
    assert total(page, "p1") == expected({"joker": 2, "golden_joker": 1})["total"]
    assert page.is_disabled("#plus-p1-joker")
    page.fill("#count-p1-joker", "0")
    page.press("#count-p1-joker", "Tab")
    tap(page, "p1", "golden_joker", minus=True)
    tap(page, "p1", "joker", 3)
    assert page.is_disabled("#plus-p1-joker") and page.is_disabled("#plus-p1-golden_joker")
    page.fill("#count-p1-golden_joker", "1")
    assert page.inner_text("#count-p1-golden_joker-error") == (
        "Enter 0. At most 3 jokers in all, the golden joker included.")
    page.press("#count-p1-golden_joker", "Tab")
    assert page.input_value("#count-p1-golden_joker") == "0"
    assert total(page, "p1") == expected({"joker": 3})["total"] == 6
    # the whole table holds at most the game's cards: 9 of a colour, 3 jokers with the golden
    page.fill("#count-p2-colour-0", "7")
    page.press("#count-p2-colour-0", "Tab")
    assert page.get_attribute("#count-p1-colour-0", "max") == "2"
    page.fill("#count-p1-colour-0", "5")
    assert page.get_attribute("#count-p1-colour-0", "aria-invalid") == "true"
    assert page.inner_text("#count-p1-colour-0-error") == (
        "Enter a whole number from 0 to 2. The game has 9 of these cards and the other players hold 7.")
    page.press("#count-p1-colour-0", "Tab")
    assert page.input_value("#count-p1-colour-0") == "2"
    assert page.inner_text("#count-p1-colour-0-error") == (
        "5 changed to 2. Enter a whole number from 0 to 2. The game has 9 of these cards and the other players hold 7.")
    assert page.is_disabled("#plus-p1-colour-0")
    assert total(page, "p1") == expected({"joker": 3, COLOURS[0]: 2})["total"]
    assert page.is_disabled("#plus-p2-joker") and page.is_disabled("#plus-p2-golden_joker")  # Ann holds 3
    tap(page, "p2", "blue", 1, minus=True)
    assert page.is_enabled("#plus-p1-colour-0")
    for field in ("p1-colour-0", "p2-colour-0"):
        page.fill(f"#count-{field}", "0")
        page.press(f"#count-{field}", "Tab")
    # a colour name used twice is refused
    page.click("[data-testid=colour-names]")
    page.fill("#label-pink", "blue")
    page.press("#label-pink", "Enter")
    assert page.inner_text("#colour-name-error") == "Another colour is already called \u201cblue\u201d."
    # clear a game (two taps), remove a player (two taps), new sheet (two taps)
    page.click("#game-tab-1")
    page.click("#clear-game")
    assert page.inner_text("#clear-game") == "Tap again to clear game 1"
    page.click("#clear-game")
    assert total(page, "p1") == 0 and total(page, "p2") == 0
    assert int(page.locator("[data-testid=match-total]").first.inner_text()) < sum(totals)
    page.click("#remove-p2")
    assert page.inner_text("#remove-p2") == "Tap again to remove Bea"
    page.click("#remove-p2")
    assert page.locator(".sheet-player").count() == 1
    page.reload()
    page.wait_for_selector("main[data-ready]")
    assert page.locator(".sheet-player").count() == 1 and page.is_checked("#games-4")
    page.click("#new-sheet")
    page.click("#new-sheet")
    assert page.locator(".sheet-player").count() == 0 and page.is_checked("#games-1")
    for n in range(5):
        add_player(page, f"P{n + 1}")
    assert page.is_disabled("#add-player")
    assert "at most 5 players" in page.inner_text(".add-player")
    page.screenshot(path=str(artifacts / "score-sheet-desktop.png"), full_page=True)
    # the header: the sheet's own link opens it as it was; the logo and "Lobby" lead to the lobby,
    # "Leaderboard" to the leaderboard
    page.click("[data-testid=nav-score]")
    page.wait_for_selector("main[data-ready]")
    assert page.locator(".sheet-player").count() == 5
    page.click("[data-testid=brand]")
    page.wait_for_url(sheet_server.url + "/")
    page.wait_for_selector("#player-name")
    page.go_back()
    page.wait_for_selector("main[data-ready]")
    page.click("[data-testid=nav-leaderboard]")
    page.wait_for_url(sheet_server.url + "/#leaderboard")
    page.wait_for_selector("#lb-computers")
    page.go_back()
    page.wait_for_selector("main[data-ready]")
    page.click("[data-testid=nav-lobby]")
    page.wait_for_url(sheet_server.url + "/")
    page.wait_for_selector("#player-name")


def test_languages_follow_the_browser_switch_and_are_remembered(
    sheet_server: ServerProcess, new_page: Any, chromium: Any, artifacts: Path
) -> None:
    catalogs = {lang: json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
                for lang in ("en", "nl", "uk", "it", "fr", "de")}
    context = chromium.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}, locale="nl-BE")
    try:
        page = new_page(context=context)
        open_sheet(page, sheet_server.url)
        assert page.evaluate("document.documentElement.lang") == "nl"
        assert page.inner_text("#sheet-title") == catalogs["nl"]["sheet.title"]
        add_player(page, "Anouk")
        tap(page, "p1", "green", 2)
        assert page.inner_text("#player-p1 .sp-total") == "3 punten"
        for lang, catalog in catalogs.items():
            page.select_option("#language", lang)
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            assert page.title() == catalog["sheet.page_title"]
            assert page.inner_text("#sheet-title") == catalog["sheet.title"]
            assert page.inner_text("label[for=count-p1-colour-3]").startswith(catalog["colour.green"])
            assert page.inner_text("#count-p1-colour-3 >> xpath=.. >> .swatch") == catalog["letter.green"]
            assert page.inner_text("nav a >> nth=0") == catalog["nav.lobby"]
            assert page.get_attribute("#plus-p1-colour-3", "aria-label") == (
                catalog["count.plus"].replace("{card}", catalog["colour.green"]).replace("{name}", "Anouk"))
            # an out-of-range count: the message names the field's range, leaving it puts the most
            page.fill("#count-p1-joker", "5")
            limit = catalog["count.range"].replace("{max}", "3") + " " + catalog["count.joker_limit"].replace(
                "{count}", "3")
            assert page.inner_text("#count-p1-joker-error") == limit, lang
            page.press("#count-p1-joker", "Tab")
            assert page.input_value("#count-p1-joker") == "3", lang
            assert page.inner_text("#count-p1-joker-error") == (
                catalog["count.clamped"].replace("{typed}", "5").replace("{value}", "3") + " " + limit), lang
            page.fill("#count-p1-joker", "0")
            page.press("#count-p1-joker", "Tab")
            # no English left on a translated page (names and numbers aside)
            if lang != "en":
                text = page.inner_text("main")
                lines = {line.strip() for line in text.splitlines()}
                assert catalogs["en"]["sheet.intro"] not in text, lang
                for key in ("settings.heading", "players.add", "reason.positive", "card.golden_joker"):
                    assert catalogs["en"][key] not in lines, (lang, key)
                    assert catalog[key] in lines, (lang, key)
        page.select_option("#language", "uk")
        page.wait_for_function("document.documentElement.lang === 'uk'")
        tap(page, "p1", "green", 3)  # 5 cards: 15 points
        assert page.inner_text("#player-p1 .sp-total") == "15 очок"
        tap(page, "p1", "green", 3, minus=True)
        assert page.inner_text("#player-p1 .sp-total") == "3 очки"
        # the colour names (помаранчевий is the longest) and their fields are not cut
        if not page.is_visible("[data-testid=colour-names]"):
            page.click("[data-testid=sheet-settings]")
        page.click("[data-testid=colour-names]")
        for c in COLOURS:
            label, field = page.locator(f"label[for=label-{c}]"), page.locator(f"#label-{c}")
            assert label.evaluate("e => e.scrollWidth <= e.clientWidth"), c
            assert label.bounding_box()["x"] + label.bounding_box()["width"] <= field.bounding_box()["x"], c
            assert field.evaluate("e => e.getBoundingClientRect().right <= document.documentElement.clientWidth"), c
            assert field.bounding_box()["width"] >= 96, c
        page.reload()
        page.wait_for_selector("main[data-ready]")
        assert page.evaluate("document.documentElement.lang") == "uk"  # remembered over the browser's nl
        assert page.input_value("#language") == "uk"
        page.screenshot(path=str(artifacts / "score-sheet-phone-uk.png"), full_page=True)
    finally:
        context.close()


def test_the_sheet_is_an_installable_app(sheet_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    """Chromium's own check: the manifest, icons and service worker make an installable app.
    (A persistent profile: Chromium never offers installing in an incognito context.)"""
    context = chromium.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=os.environ.get("COLORETTO_CHROMIUM", "/usr/bin/chromium"),
        args=["--headless", "--no-sandbox", "--disable-gpu"], viewport={"width": 390, "height": 844},
        bypass_csp=True,  # wait_for_function evaluates a string; test_csp.py keeps the policy
    )
    try:
        page = context.new_page()
        open_sheet(page, sheet_server.url)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == sheet_server.url + "/static/score.webmanifest"
        assert manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    finally:
        context.close()
