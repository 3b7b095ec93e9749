"""The rules page (``/rules``) in real Chromium against a real ``coloretto serve``, read like a
person reads it:

1. Reached from the lobby's header; in each of the six languages, switched with the header's
   selector: the headings, both score tables, the setup table and every score of the worked
   example and the other examples are checked against the engine (``coloretto.engine``), the
   colour letters are the language's and no English is left; at a desktop and a phone size
   (nothing wider than the screen). The skip link, the contents, the header links and the
   link to the score sheet are used, and the language chosen here is the score sheet's too.
2. The browser's language is followed (Dutch for ``nl-BE``, Ukrainian for ``uk-UA``).

Screenshots go to test-artifacts/e2e/ (rules-*.png).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coloretto.engine.cards import COLORS
from coloretto.engine.rules import BROWN_TABLE, VIOLET_TABLE, Rules
from coloretto.engine.scoring import ScoreBreakdown, optimal_score
from coloretto.engine.setup import deal

pytestmark = pytest.mark.slow

LANGUAGES = ["en", "nl", "uk", "it", "fr", "de"]
LOCALES = Path(__file__).resolve().parents[3] / "src" / "coloretto" / "web" / "locales"
CATALOGS = {lang: json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGUAGES}
SECTIONS = ["rules.contents", "rules.cards.heading", "rules.setup.heading", "rules.turn.heading",
            "rules.round.heading", "rules.end.heading", "rules.score.heading", "rules.editions.heading",
            "rules.variants.heading"]
"""The page's h2 headings, in order (the contents, then the sections)."""
TABLES = {"brown": BROWN_TABLE, "violet": VIOLET_TABLE}
MINUS = "\u2212"
OWN_TEXT = "e => [...e.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('').trim()"
"""The text of an element without its card pictures' letters."""


def forms(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def engine_score(cards: dict[str, int], table: str = "brown") -> ScoreBreakdown:
    """The engine's optimal score of ``{"green": 6, ..., "joker": 1, "plus2": 1}``."""
    counts = [cards.get(c, 0) for c in COLORS]
    return optimal_score(counts, cards.get("joker", 0), cards.get("plus2", 0), table=TABLES[table])


def written_sum(score: ScoreBreakdown) -> str:
    """"21 + 15 + 6 − 3 + 2": the terms of a score as the page writes them."""
    terms = [*score.positive.values(), *score.negative.values(), *([score.plus2] if score.plus2 else [])]
    out = str(terms[0])
    for v in terms[1:]:
        out += f" {MINUS if v < 0 else '+'} {abs(v)}"
    return out


def open_rules(page: Any) -> None:
    page.wait_for_selector("main[data-ready]")


def switch(page: Any, lang: str) -> None:
    page.select_option("#language", lang)
    page.wait_for_function("t => document.querySelector('h1').textContent === t", arg=CATALOGS[lang]["rules.title"])


def check_page(page: Any, lang: str) -> None:
    """Everything the page says in ``lang``, against the catalog and the engine."""
    cat, en = CATALOGS[lang], CATALOGS["en"]
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.title() == cat["rules.page_title"]
    assert page.inner_text("h1") == cat["rules.title"]
    assert page.locator("main h2").all_inner_texts() == [cat[k] for k in SECTIONS]
    h3 = page.locator("main h3").all_inner_texts()
    for key in ("rules.turn.draw_title", "rules.turn.take_title", "rules.example.heading", "rules.more.heading",
                "rules.editions.golden_heading"):
        assert cat[key] in h3, (lang, key)
    assert page.inner_text("[data-testid=nav-rules]") == cat["rules.nav"]
    # the cards carry the language's letters and names
    for colour in COLORS:
        face = page.locator(f".rcards svg.rcard-{colour}")
        assert face.get_attribute("aria-label") == cat[f"colour.{colour}"]
        assert face.locator("text").text_content() == cat[f"letter.{colour}"]
    assert page.locator(".rcards svg.rcard-joker text").text_content() == cat["letter.joker"]

    # the score tables: points for 1 .. 6 or more cards
    for name, values in TABLES.items():
        table = page.locator(f"[data-testid=score-table-{name}]")
        assert table.locator("caption").inner_text() == cat[f"rules.score.{name}_caption"]
        head = table.locator("tr").nth(0).locator("th").all_inner_texts()
        assert head == [cat["rules.score.cards_row"], "1", "2", "3", "4", "5",
                        cat["rules.score.or_more"].replace("{n}", str(len(values) - 1))]
        row = table.locator("tr").nth(1)
        assert row.locator("th").inner_text() == cat["rules.score.points_row"]
        assert [int(x) for x in row.locator("td").all_inner_texts()] == list(values[1:])

    # setup by player count
    setup = page.locator("[data-testid=setup-table]")
    assert setup.locator("caption").inner_text() == cat["rules.setup.caption"]
    assert [int(x) for x in setup.locator("thead th.num").all_inner_texts()] == [2, 3, 4, 5]
    rules = [Rules(players=n) for n in (2, 3, 4, 5)]

    def fact(name: str) -> list[str]:
        return list(setup.locator(f"tr[data-fact={name}] td").all_inner_texts())

    assert [int(x) for x in fact("colours")] == [r.colors_in_play for r in rules]
    assert [int(x) for x in fact("rows")] == [r.num_rows for r in rules]
    # a row's capacity, written once when every row holds the same
    assert fact("capacities") == [", ".join(map(str, r.capacities)) if len(set(r.capacities)) > 1
                                  else str(r.capacities[0]) for r in rules] == ["1, 2, 3", "3", "3", "3"]
    assert [int(x) for x in fact("starting")] == [r.starting_cards_each for r in rules]
    piles = [deal(r, seed=1).draw_pile for r in rules]
    assert [int(x) for x in fact("pile")] == [len(p) - 1 for p in piles if p is not None]

    # the worked example: each step and the total
    total = page.locator("[data-testid=example-total]")
    cards = json.loads(total.get_attribute("data-cards") or "{}")
    best = engine_score(cards)
    assert int(total.get_attribute("data-total") or "0") == best.total == 41
    assert total.inner_text() in {f.replace("{sum}", written_sum(best)).replace("{count}", str(best.total))
                                  for f in forms(cat["rules.example.result"])}
    values = page.locator("[data-testid=example-values] tbody tr")
    held = sorted(((c, n) for c, n in cards.items() if c in COLORS), key=lambda kv: -kv[1])
    assert values.count() == len(held)
    for i, (colour, n) in enumerate(held):
        assert values.nth(i).locator("th .rcolour").evaluate(OWN_TEXT) == cat[f"colour.{colour}"]
        assert [int(x) for x in values.nth(i).locator("td").all_inner_texts()] == [n, BROWN_TABLE[min(n, 6)]]
    options = page.locator("[data-testid=example-joker] tbody tr")
    assert options.count() == len(held) + 1  # the held colours and "a colour she does not have"
    for i in range(options.count()):
        row = options.nth(i)
        colour = row.get_attribute("data-colour") or ""
        with_joker = {**cards, "joker": 0, colour: cards.get(colour, 0) + 1}
        expected = engine_score(with_joker).total
        assert int(row.get_attribute("data-total") or "0") == expected
        assert row.locator("td").inner_text().startswith(str(expected))
    [joker_colour] = [COLORS[i] for i in best.jokers]
    chosen = page.locator("[data-testid=example-joker] tbody tr.best")
    assert chosen.get_attribute("data-colour") == joker_colour
    assert chosen.locator("td").inner_text().endswith(cat["rules.example.best"])

    # the other examples
    more = page.locator("[data-testid=more-examples] tbody tr")
    assert more.count() == 5
    for i in range(more.count()):
        row = more.nth(i)
        table = row.get_attribute("data-table") or ""
        score = engine_score(json.loads(row.get_attribute("data-cards") or "{}"), table)
        assert int(row.get_attribute("data-total") or "0") == score.total
        assert int(row.locator("td.rules-more-total").inner_text()) == score.total
        assert row.locator(".rules-sum").inner_text() == written_sum(score)
        assert cat[f"rules.table.{table}"] in row.locator("td").first.inner_text()

    # no English left behind (texts of three words or more that the language says otherwise)
    if lang != "en":
        text = page.inner_text("body")
        for key, value in en.items():
            if key.startswith("rules.") and isinstance(value, str) and value != cat[key] and len(value.split()) >= 3:
                assert value not in text, (lang, key, value)


def fits_the_screen(page: Any) -> None:
    """Nothing on the page is wider than the screen, also inside the tables' boxes."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate("[...document.querySelectorAll('.table-scroll')]"
                         ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.querySelector('table').dataset.testid)")
    assert wide == [], f"tables wider than a {width}px screen: {wide}"


def test_rules_page_in_six_languages_on_desktop_and_phone(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    page = new_page(1280, 900)
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type in ("warning", "error") else None)
    page.goto(base + "/")  # the lobby's header links to the rules
    page.click("[data-testid=nav-rules]")
    page.wait_for_url(base + "/rules")
    open_rules(page)
    # the skip link is the first Tab stop; Enter moves the focus to the rules
    page.keyboard.press("Tab")
    assert page.locator("[data-testid=skip]").evaluate("e => e === document.activeElement")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.id === 'main'")
    # the contents lead to each section
    links = page.locator("[data-testid=toc-link]")
    assert links.all_inner_texts() == [CATALOGS["en"][k] for k in SECTIONS[1:]]
    links.nth(5).click()
    page.wait_for_function("location.hash === '#scoring'")
    page.wait_for_function("Math.abs(document.getElementById('scoring').getBoundingClientRect().top) < 40")

    for lang in LANGUAGES:
        switch(page, lang)
        page.set_viewport_size({"width": 1280, "height": 900})
        check_page(page, lang)
        page.screenshot(path=str(artifacts / f"rules-desktop-{lang}.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        fits_the_screen(page)
        page.screenshot(path=str(artifacts / f"rules-phone-{lang}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

    # the language chosen here is the score sheet's too, and back
    switch(page, "it")
    page.click("[data-testid=to-sheet]")
    page.wait_for_url(base + "/score")
    page.wait_for_selector("main[data-ready]")
    assert page.inner_text("#sheet-title") == CATALOGS["it"]["sheet.title"]
    page.click("[data-testid=nav-rules]")  # the sheet's header
    page.wait_for_url(base + "/rules")
    open_rules(page)
    assert page.inner_text("h1") == CATALOGS["it"]["rules.title"]
    # the header: the page's own link, the score sheet, the logo, the leaderboard and the lobby
    page.click("[data-testid=nav-rules]")
    open_rules(page)
    assert page.url == base + "/rules"
    page.click("[data-testid=nav-score]")
    page.wait_for_url(base + "/score")
    page.go_back()
    open_rules(page)
    page.click("[data-testid=brand]")
    page.wait_for_url(base + "/")
    page.wait_for_selector("#player-name")
    page.go_back()
    open_rules(page)
    page.click("[data-testid=nav-leaderboard]")
    page.wait_for_url(base + "/#leaderboard")
    page.wait_for_selector("#lb-computers")
    page.go_back()
    open_rules(page)
    page.click("[data-testid=nav-lobby]")
    page.wait_for_url(base + "/")
    page.wait_for_selector("#player-name")
    assert [w for w in warnings if "i18n" in w] == []


@pytest.mark.parametrize(("locale", "lang"), [("nl-BE", "nl"), ("uk-UA", "uk")])
def test_rules_page_follows_the_browser_language(
    web_server: Any, new_page: Any, chromium: Any, artifacts: Path, locale: str, lang: str
) -> None:
    context = chromium.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}, locale=locale)
    try:
        page = new_page(context=context)
        page.goto(web_server.url + "/rules#scoring")
        open_rules(page)
        assert page.input_value("#language") == lang
        check_page(page, lang)
        fits_the_screen(page)
        # an address with a section opens at that section
        page.wait_for_function("Math.abs(document.getElementById('scoring').getBoundingClientRect().top) < 40")
        page.screenshot(path=str(artifacts / f"rules-phone-{lang}-browser-language.png"), full_page=False)
    finally:
        context.close()
