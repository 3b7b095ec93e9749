"""The game client in six languages and the guided first game, through a real
``coloretto serve`` and real Chromium, played by clicking like a person.

- A full game in Dutch (desktop, 1280 x 800) and one in Ukrainian (phone, 390 x 844), the
  browser's language picking the catalog: the translated texts appear on the table, in the
  log, at the end and in the replay, and no English text of ``en.json`` nor a catalog key
  shows anywhere on the page (its text, its hidden parts, its ``title``, ``aria-label`` and
  ``placeholder`` attributes, the tab's title).
- The language picked in the header is kept across reloads and pages.
- The guided first game from the lobby's "Learn to play" to its end: each explanation comes
  at its moment, the last one counts the score with the server's real breakdown, and the
  guide is remembered as done; and skipping it.
- Screenshots for people to look at, in ``test-artifacts/screenshots/``: the table, the end
  breakdown and the score sheet at desktop (1280 x 800) and phone (390 x 844) sizes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_browser import VIEW, act, attr, create_table, play_until
from test_table_feel import check_decision_screen

pytestmark = pytest.mark.slow

WEB = Path(__file__).resolve().parents[3] / "src" / "coloretto" / "web"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GUIDE_STEPS = ["welcome", "turn", "place", "small_row", "out", "last_round", "score"]
"""The guided game's explanations (web/guide.js STEPS)."""

ALL_TEXT = """() => [document.title, document.body.textContent,
  ...[...document.querySelectorAll('[title], [aria-label], [placeholder]')].flatMap(
    (e) => [e.getAttribute('title'), e.getAttribute('aria-label'), e.getAttribute('placeholder')])]
  .filter(Boolean).join('\\n')"""
"""Every text of the page a person can see or hear: the visible and hidden text, the labelling
attributes and the tab's title."""


def catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (WEB / "locales" / f"{lang}.json").read_text(encoding="utf-8")
    )
    return data


def forms(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def text(page: Any, lang: str, key: str, **params: Any) -> str:
    """The catalog string ``key`` of ``lang`` with its parameters (the "other" plural form)."""
    value = catalog(lang)[key]
    value = value["other"] if isinstance(value, dict) else value
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), value)


def english_leaks(page_text: str, lang: str) -> list[str]:
    """English texts of en.json (their fixed parts of two words or more, where the language's
    catalog does not use the same words) and catalog keys found in ``page_text``."""
    en, own = catalog("en"), catalog(lang)
    theirs = [f for v in own.values() for f in forms(v)]
    leaks = []
    for key, value in en.items():
        if key in page_text:
            leaks.append(key)
        for form in forms(value):
            for part in re.split(r"\{\w+\}", form):
                part = part.strip(" :·()–,.!?")
                if len(re.findall(r"[A-Za-z]{2,}", part)) < 2 or any(part in x for x in theirs):
                    continue
                if part in page_text:
                    leaks.append(part)
    return sorted(set(leaks))


def assert_no_english(page: Any, lang: str, where: str) -> None:
    leaks = english_leaks(page.evaluate(ALL_TEXT), lang)
    assert not leaks, f"{lang}, {where}: English left on the page: {leaks}"


def play_in(
    lang: str, locale: str, size: dict[str, int], chromium: Any, base: str, shots: Path, prefix: str
) -> None:
    """A full game of three (you and two computer players) in the browser language ``locale``,
    played by clicking; checks the translations and takes the screenshots. On a phone, every
    decision is checked to fit the screen (test_table_feel.check_decision_screen)."""
    context = chromium.new_context(bypass_csp=True, viewport=size, locale=locale)
    context.set_default_timeout(30_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base + "/")
        page.wait_for_selector("[data-testid=create]")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("[data-testid=create]").inner_text() == text(page, lang, "lobby.create")
        assert page.locator("[data-testid=nav-leaderboard]").inner_text() == text(
            page, lang, "nav.leaderboard"
        )
        assert_no_english(page, lang, "lobby")
        table_id = create_table(
            page,
            base,
            "Olena" if lang == "uk" else "Anne",
            ["me", "computer:random", "computer:random"],
        )
        assert page.locator(f"{VIEW} .rows .row-name").first.inner_text() == text(
            page, lang, "board.row", n=1
        )
        fits = None
        if size == PHONE:
            def fits(decider: Any) -> None:
                check_decision_screen(decider, 3, (size["width"], size["height"]), lang)

        # the middle of the game: a drawn card to place, a log, badges
        play_until(
            page,
            {0: page},
            stop=lambda v: (
                v >= 10 and attr(page, "decision") == "place" and attr(page, "mine") == "1"
            ),
            on_decision=fits,
        )
        if fits is not None and attr(page, "status") == "playing":
            fits(page)
        if attr(page, "status") == "playing":
            assert page.locator("[data-testid=turn]").inner_text() == text(
                page, lang, "turn.mine.place"
            )
            assert page.locator(f"{VIEW} .drawn-label").inner_text() == text(
                page,
                lang,
                "board.drew",
                name=page.locator(f"{VIEW} .player.me .player-name").inner_text(),
            )
            if not page.locator(".log-panel[open]").count():
                page.click("[data-testid=log-toggle]")
            page.click("[data-testid=keys]")
            page.click("[data-testid=legend]")
            assert_no_english(page, lang, "mid-game")
            page.screenshot(path=str(shots / f"{prefix}-table-{lang}.png"), animations="disabled")
        log = page.locator(f"{VIEW} .log > li[data-i]").all_inner_texts()
        draws = text(page, lang, "log.draws").split("{card}")[0].replace("{name}", "").strip()
        assert any(draws in " ".join(line.split()) for line in log), (draws, log[:5])
        page.evaluate("() => window.scrollTo(0, 0)")  # the log, keys and legend opened above are below
        play_until(page, {0: page}, on_decision=fits)
        page.wait_for_selector("[data-testid=result]")
        result = httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=10).json()["result"]
        panel = page.locator("[data-testid=result]")
        assert panel.locator("h2").inner_text() == text(page, lang, "end.game_over")
        heads = panel.locator("thead th").all_inner_texts()
        assert heads[3:5] == [
            text(page, lang, "end.col.positive"),
            text(page, lang, "end.col.negative"),
        ]
        own = catalog(lang)
        for row in panel.locator("tbody tr").all():
            seat = int(row.get_attribute("data-seat") or "-1")
            assert row.locator("td.total").inner_text().strip() == str(result["scores"][seat])
            cells = " ".join(row.inner_text().split())
            for colour, points in result["breakdowns"][seat]["positive"].items():
                assert f"{own[f'colour.{colour}']} +{points}" in cells, (colour, cells)
        assert_no_english(page, lang, "end of the game")
        page.screenshot(
            path=str(shots / f"{prefix}-end-{lang}.png"), full_page=True, animations="disabled"
        )
        # the replay of the same game, in the same language
        page.click("[data-testid=replay]")
        page.wait_for_selector("[data-testid=replay-caption]")
        assert page.locator("[data-testid=replay-caption]").inner_text() == text(
            page, lang, "replay.start_caption"
        )
        page.keyboard.press("End")
        page.wait_for_selector("[data-testid=result]")
        assert_no_english(page, lang, "replay")
        page.click("[data-testid=nav-leaderboard]")
        page.wait_for_selector("#lb-computers")
        assert_no_english(page, lang, "leaderboard")
    finally:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def test_full_game_in_dutch_by_clicking(web_server: Any, chromium: Any, screenshots: Path) -> None:
    play_in("nl", "nl-NL", DESKTOP, chromium, web_server.url, screenshots, "desktop")


def test_full_game_in_ukrainian_by_clicking(
    web_server: Any, chromium: Any, screenshots: Path
) -> None:
    play_in("uk", "uk-UA", PHONE, chromium, web_server.url, screenshots, "phone")


def test_language_switch_in_the_header_persists(web_server: Any, new_page: Any) -> None:
    page = new_page(**DESKTOP)
    page.goto(web_server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    assert page.locator("[data-testid=nav-leaderboard]").inner_text() == "Leaderboard"
    with page.expect_navigation():
        page.select_option("#language", "de")  # the page reloads in German
    page.wait_for_selector("[data-testid=create]")
    assert page.locator("[data-testid=create]").inner_text() == text(page, "de", "lobby.create")
    assert page.evaluate("localStorage.getItem('coloretto.lang')") == "de"
    page.reload()
    page.wait_for_selector("[data-testid=create]")
    assert page.locator("[data-testid=nav-leaderboard]").inner_text() == "Rangliste"
    assert page.input_value("#language") == "de"
    assert_no_english(page, "de", "lobby after a reload")
    # the other pages keep the choice
    page.click("[data-testid=nav-rules]")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.goto(web_server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    with page.expect_navigation():
        page.select_option("#language", "fr")
    page.wait_for_selector("[data-testid=create]")
    assert page.locator("[data-testid=nav-leaderboard]").inner_text() == "Classement"


@pytest.mark.parametrize("lang", ["en", "nl", "uk", "it", "fr", "de"])
def test_the_lobby_fits_a_phone_in_every_language(web_server: Any, new_page: Any, lang: str) -> None:
    """At 390 px the lobby (its create form's seat choices with the longest computer-player
    names of the language) is no wider than the screen."""
    page = new_page(width=390, height=844)
    page.goto(web_server.url + "/")
    page.evaluate(f"localStorage.setItem('coloretto.lang', '{lang}')")
    page.reload()
    page.wait_for_selector("[data-testid=create]")
    assert page.evaluate("document.documentElement.lang") == lang
    for seat in range(4):
        page.select_option(f"#seat-{seat}", index=len(page.locator(f"#seat-{seat} option").all()) - 1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def guide_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(
        page.evaluate("localStorage.getItem('coloretto.guide') || '{}'")
    )
    return state


def test_guided_first_game_from_start_to_end(
    web_server: Any, new_page: Any, screenshots: Path
) -> None:
    base = web_server.url
    page = new_page(**DESKTOP)
    page.goto(base + "/")
    learn = page.locator("[data-testid=learn]")
    assert learn.inner_text() == "Start the guided first game"
    learn.click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    table = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()
    assert [s["kind"] for s in table["seats"]] == ["human", "computer", "computer"]
    assert {s["agent"] for s in table["seats"][1:]} == {"easy"}
    seen: list[str] = []
    drawn = False
    shot = False
    while True:
        page.wait_for_selector(
            f"{VIEW}[data-mine='1'], {VIEW}[data-status=finished], [data-testid=guide]"
        )
        guide = page.locator("[data-testid=guide]")
        if guide.count():
            step = guide.get_attribute("data-step") or ""
            assert step not in seen, f"the {step} explanation came twice"
            seen.append(step)
            title = catalog("en")[f"guide.{step}.title"]
            assert guide.locator("h2").inner_text() == title
            if step == "small_row":  # names the row that may be taken, counted from 1
                n = int(re.search(r"Row (\d+) has only", guide.inner_text()).group(1))  # type: ignore[union-attr]
                assert page.locator(
                    f"{VIEW} .rows li[data-row='{n - 1}'] [data-testid=action-take]"
                ).is_enabled()
            if step == "score":
                break
            if step == "place" and not shot:
                page.screenshot(path=str(screenshots / "desktop-guide.png"), animations="disabled")
                shot = True
            page.click("[data-testid=guide-next]")
            page.wait_for_function(
                "s => document.querySelector('[data-testid=guide]')?.dataset.step !== s", arg=step
            )
            continue
        if attr(page, "status") == "finished":
            page.wait_for_selector("[data-testid=guide][data-step=score]")
            continue
        # you: draw once, then take the first row that may be taken, else draw
        decision = attr(page, "decision")
        take = page.locator(f"{VIEW} [data-testid=action-take]:enabled")
        if decision == "turn" and drawn and take.count():
            version = attr(page, "version")
            take.first.click()
            page.wait_for_function(
                "v => document.querySelector('#table-view').dataset.version !== v", arg=version
            )
        else:
            drawn = drawn or decision == "turn"
            act(page)
    assert sorted(seen) == sorted(GUIDE_STEPS) and seen[0] == "welcome" and seen[-1] == "score"
    # the score, explained with the server's own breakdown
    result = httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=10).json()["result"]
    b = result["breakdowns"][0]
    words = " ".join(page.locator("[data-testid=guide]").inner_text().split())
    assert f"In total: {result['scores'][0]} points." in words
    for colour, points in b["positive"].items():
        assert f"{colour} ({b['counts'][colour]} card" in words and f", {points})" in words, (
            colour,
            words,
        )
    for colour, points in b["negative"].items():
        assert f"{colour} ({b['counts'][colour]} card" in words and f"\u2212{-points})" in words, (
            colour,
            words,
        )
    if b["plus2"]:
        assert f"add {b['plus2']} points" in words
    assert ("You won" in words) == (result["ranks"][0] == 1)
    page.screenshot(
        path=str(screenshots / "desktop-guide-score.png"), full_page=True, animations="disabled"
    )
    page.click("[data-testid=guide-finish]")
    page.wait_for_selector("[data-testid=guide]", state="detached")
    assert guide_state(page)["done"] is True
    page.reload()
    page.wait_for_selector("[data-testid=result]")
    assert page.locator("[data-testid=guide]").count() == 0
    page.goto(base + "/")
    panel = page.locator("[data-testid=learn-panel]")
    assert panel.get_attribute("data-done") == "1"
    assert panel.locator("[data-testid=learn]").inner_text() == "Play the guided game again"


def test_skipping_the_guide(web_server: Any, new_page: Any) -> None:
    page = new_page(**PHONE)
    page.goto(web_server.url + "/")
    page.fill("#player-name", "Zoe")
    page.click("[data-testid=learn]")
    page.wait_for_selector("[data-testid=guide][data-step=welcome]")
    assert page.locator(f"{VIEW} .player.me .player-name").inner_text() == "Zoe"
    page.click("[data-testid=guide-skip]")
    page.wait_for_selector("[data-testid=guide]", state="detached")
    assert guide_state(page)["done"] is True
    page.reload()
    page.wait_for_selector(f"{VIEW}[data-conn=open]")
    page.wait_for_timeout(500)
    assert page.locator("[data-testid=guide]").count() == 0
    page.goto(web_server.url + "/")
    assert page.locator("[data-testid=learn-panel]").get_attribute("data-done") == "1"


def test_score_sheet_screenshots(web_server: Any, new_page: Any, screenshots: Path) -> None:
    """The score sheet with two players at desktop and phone sizes (screenshots only look;
    the sheet itself is tested in test_score_sheet.py)."""
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(**size)
        page.goto(web_server.url + "/score")
        for player in ("Ann", "Bob"):
            page.fill("#new-player", player)
            page.click("#add-player")
        for field, taps in (
            ("p1-colour-0", 4),
            ("p1-colour-3", 2),
            ("p1-joker", 1),
            ("p2-colour-1", 3),
            ("p2-plus2", 1),
        ):
            for _ in range(taps):
                page.click(f"#plus-{field}")
        assert page.input_value("#count-p1-colour-0") == "4"
        page.screenshot(
            path=str(screenshots / f"{name}-score-sheet.png"), full_page=True, animations="disabled"
        )


def test_the_leak_check_finds_english() -> None:
    """english_leaks itself: an English text or a key among Dutch ones is reported."""
    dutch = f"{text(None, 'nl', 'board.draw')} · {text(None, 'nl', 'lobby.create')}"
    assert english_leaks(dutch, "nl") == []
    assert english_leaks(dutch + " Take my seat back", "nl") == ["Take my seat back"]
    assert english_leaks(dutch + " table.rematch", "nl") == ["table.rematch"]
    assert english_leaks("Waiting for players: 2 of 4 seats taken.", "uk") == [
        "Waiting for players",
        "seats taken",
    ]
