"""The feel of a game table in the browser, through a real ``coloretto serve`` and Debian's
Chromium:

1. the card faces: each of the seven colours has its own pattern, told apart in greyscale
   (every face rendered to a canvas and compared), letters unique and readable;
2. a phone (390 x 844): while you decide, the rows, the drawn card, your collection with
   its score and every opponent's summary are on the screen without scrolling, at every
   decision of whole games of 2, 4 and 5 players in English (5 also with a 90 s clock) and
   of the first decisions of 5-player games in the five other languages (German also with
   the clock); the table's header is one line there, its Menu opens the rest; the desktop
   (1280 x 800) too;
3. card movements: played after the page is up to date (the buttons work at once), and
   none at all under ``prefers-reduced-motion: reduce``;
4. keys typed while an action is on its way to the server are kept and played in order,
   never sending an illegal or a repeated action;
5. a replay shows no live state of the seats; the header's name field follows a join
   through an invite link; a computer's moves in a seat handed over by a person are
   marked in the log and on the seat.

Screenshots of the table mid-game and of the end breakdown, at desktop and phone sizes, go
to test-artifacts/screenshots/.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from test_browser import VIEW, act, attr, create_table, no_horizontal_overflow

pytestmark = pytest.mark.slow

PHONE = (390, 844)
DESKTOP = (1280, 800)


def wait_version_change(page: Any, version: str) -> None:
    page.wait_for_function("v => document.querySelector('#table-view').dataset.version !== v", arg=version)


def wait_mine_or_end(page: Any) -> bool:
    """Wait until the page's seat decides or the game is over; True while it decides."""
    page.wait_for_selector(f"{VIEW}[data-mine='1'], {VIEW}[data-status=finished]")
    return attr(page, "status") == "playing"


# ----- 1. card faces ----------------------------------------------------------------------------
FACES_JS = """async (size) => {
  const f = await import('/static/cardfaces.js');
  const cards = await import('/static/cards.js');
  const [W, H] = size;
  const grey = {};
  for (const name of f.FACES) {
    const img = new Image();
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(f.faceSVG(name, W, H));
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = W; canvas.height = H;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, W, H);
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, W, H).data;
    const g = [];
    for (let i = 0; i < d.length; i += 4) g.push(0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]);
    grey[name] = g;
  }
  return {grey, ink: f.LETTER_INK, badge: f.BADGE_FILL, letters: cards.LETTERS, colours: cards.COLORS};
}"""


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_card_faces_differ_in_greyscale(web_server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(web_server.url + "/")
    w, h = 120, 168  # twice the faces' 60 x 84 units
    data = page.evaluate(FACES_JS, [w, h])
    colours = data["colours"]
    assert len(colours) == 7
    # the part of a face the pattern covers: inside the inner frame, outside the letter badge
    y, x = np.mgrid[0:h, 0:w]
    region = (x > 14) & (x < w - 14) & (y > 14) & (y < h - 14) & ((x - 60) ** 2 + (y - 84) ** 2 > 34**2)
    grey = {name: np.array(values, dtype=float).reshape(h, w) for name, values in data["grey"].items()}
    z = {}
    for c in colours:
        part = grey[c][region]
        # a visible pattern: the region is not one flat grey
        assert part.std() > 10, f"{c}: no pattern to see in greyscale (std {part.std():.1f})"
        z[c] = (part - part.mean()) / part.std()
    for i, a in enumerate(colours):
        for b in colours[i + 1 :]:
            # the patterns differ in shape, whatever their brightness: compare the
            # brightness-normalised images
            shape = float(np.abs(z[a] - z[b]).mean())
            assert shape > 0.5, f"{a} and {b} have the same pattern in greyscale ({shape:.2f})"
    # the special cards differ from every colour card and from each other
    names = list(data["grey"])
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert np.abs(grey[a] - grey[b]).mean() > 8, f"faces {a} and {b} look alike in greyscale"
    # letters: one per card, unique, dark on a white badge (WCAG contrast at least 7:1)
    letters = data["letters"]
    assert len(set(letters.values())) == len(letters)
    hi, lo = sorted((luminance(data["ink"]), luminance(data["badge"])), reverse=True)
    assert (hi + 0.05) / (lo + 0.05) >= 7


# ----- 2. the phone layout ----------------------------------------------------------------------
LOCALES = Path(__file__).resolve().parents[3] / "src" / "coloretto" / "web" / "locales"
LANGUAGES = ["en", "nl", "uk", "it", "fr", "de"]
FIRST_DECISIONS = 14
"""How many decisions the phone games in other languages are checked for (whole games: in
English, 2, 4 and 5 players, and 5 with a clock)."""

IN_VIEW_JS = """(sel) => [...document.querySelectorAll(sel)].map(e => {
  const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
SCORES_JS = """([sel, lang]) => [...document.querySelectorAll(sel)].map(e => {
  const text = e.textContent, m = text.match(/[\u2212-]?\\d+/);
  const n = m ? Number(m[0].replace('\u2212', '-')) : NaN;
  return [text, m ? m[0] : '', Number.isNaN(n) ? '' : new Intl.PluralRules(lang).select(n)]; })"""
"""Each score's text, its number as written and the number's plural category in ``lang``."""
CHIPS_JS = """(sel) => [...document.querySelectorAll(sel)].map(li => [li.dataset.card,
  li.querySelector('.card').getAttribute('aria-label'), li.querySelector('.card-count')?.textContent || ''])"""
"""Each colour chip: its card, its label for screen readers and its visible count ("×2")."""


def catalog(lang: str) -> dict[str, Any]:
    """The browser client's strings in ``lang`` (web/locales/LANG.json)."""
    data: dict[str, Any] = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def assert_in_view(page: Any, selector: str, size: tuple[int, int], count: int | None = None) -> None:
    """Every element matching ``selector`` lies inside the viewport (``count`` of them)."""
    boxes = page.evaluate(IN_VIEW_JS, selector)
    assert boxes, f"nothing matches {selector}"
    if count is not None:
        assert len(boxes) == count, (selector, boxes)
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= size[0] and bottom <= size[1], (
            f"{selector} at {left:.0f},{top:.0f}-{right:.0f},{bottom:.0f} is outside the {size[0]}x{size[1]} screen")


def check_decision_screen(page: Any, players: int, size: tuple[int, int], lang: str = "en") -> str:
    """While the page's seat decides: no scrolling, and the rows, the drawn card (placing),
    the action buttons, your seat with its score and collection, and every opponent's summary
    (its whole name, score and colour counts, in the words of ``lang``'s catalog) are inside
    the viewport.
    Returns the decision. When not, the screen is saved to
    test-artifacts/screenshots/layout-failure-*.png."""
    try:
        return decision_screen(page, players, size, lang)
    except AssertionError:
        shots = Path(__file__).resolve().parents[3] / "test-artifacts" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"layout-failure-{size[0]}-{players}p-{lang}.png"))
        raise


def decision_screen(page: Any, players: int, size: tuple[int, int], lang: str) -> str:
    assert page.evaluate("() => window.scrollY") == 0
    decision = attr(page, "decision")
    assert_in_view(page, ".rows", size, 1)
    assert_in_view(page, f"{VIEW} button.action:enabled", size)
    assert_in_view(page, ".player.me", size, 1)
    assert_in_view(page, ".player.me .score", size, 1)
    assert_in_view(page, ".player.me .collection, .player.me .collection-empty", size, 1)
    assert_in_view(page, ".players-others .player", size, players - 1)
    assert_in_view(page, ".players-others .player .score", size, players - 1)
    assert_in_view(page, ".players-others .player .collection, .players-others .player .collection-empty", size, players - 1)
    if decision == "place":
        assert_in_view(page, "[data-testid=drawn-card]", size, 1)
    words = catalog(lang)
    # the scores: the catalog's form of "N points" for the number's plural category
    points = words["board.points"]
    for text, number, category in page.evaluate(SCORES_JS, [".player .score", lang]):
        form = points.get(category, points["other"]) if isinstance(points, dict) else points
        assert number and text == form.replace("{count}", number), (lang, text, category)
    # the opponents' summaries: the count of each colour ("2 × blauw"), shown and said
    for name, label, count in page.evaluate(CHIPS_JS, ".players-others .collection li[data-card]"):
        assert re.fullmatch(r"\u00d7\d+", count), (name, count)
        card_name = words[f"colour.{name}"] if f"colour.{name}" in words else words[f"cardname.{name}"]
        assert label == words["card.count_label"].replace("{count}", count[1:]).replace("{name}", card_name), (lang, label)
    # every opponent's name is shown whole (a computer seat's names differ only at their end)
    cut = page.evaluate("""() => [...document.querySelectorAll('.players-others .player-name')]
      .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map(e => e.textContent)""")
    assert not cut, f"names cut short: {cut}"
    wide = page.evaluate("""() => document.documentElement.scrollWidth > innerWidth ? [...document.querySelectorAll('*')]
      .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
      .map(e => `${e.tagName}.${e.getAttribute('class')} ${e.getBoundingClientRect().right}`) : []""")
    assert not wide, f"wider than the screen: {wide}"
    return decision


def check_the_menu(page: Any) -> None:
    """On a phone the table's header is one line: the Menu button opens the links, the name
    and the language below it, pressed again or with Escape it closes them."""
    menu = page.locator("[data-testid=menu]")
    links = page.locator("[data-testid=nav-leaderboard]")
    assert menu.get_attribute("aria-expanded") == "false" and links.is_hidden()
    assert menu.bounding_box()["height"] >= 38  # type: ignore[index]
    menu.click()
    assert menu.get_attribute("aria-expanded") == "true"
    for part in ("[data-testid=nav-lobby]", "[data-testid=nav-leaderboard]", "[data-testid=nav-rules]",
                 "#player-name", "#language"):
        assert page.locator(part).is_visible(), part
    assert links.bounding_box()["height"] >= 38  # type: ignore[index]
    menu.click()
    assert menu.get_attribute("aria-expanded") == "false" and links.is_hidden()
    menu.click()
    assert links.is_visible()
    page.keyboard.press("Escape")
    assert links.is_hidden() and menu.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.dataset.testid") == "menu"


PHONE_GAMES = [
    *[pytest.param("en", players, "none", None, id=f"en-{players}p") for players in (2, 4, 5)],
    *[pytest.param(lang, 5, "none", FIRST_DECISIONS, id=f"{lang}-5p") for lang in LANGUAGES[1:]],
    pytest.param("en", 5, "move:90", None, id="en-5p-clock"),
    pytest.param("de", 5, "move:90", FIRST_DECISIONS, id="de-5p-clock"),
]


@pytest.mark.parametrize(("lang", "players", "clock", "decisions"), PHONE_GAMES)
def test_phone_layout_needs_no_scrolling(web_server: Any, new_page: Any, screenshots: Path, lang: str, players: int,
                                         clock: str, decisions: int | None) -> None:
    """Games on a phone in each language, with and without a 90 s clock (whole games in
    English, the first ``FIRST_DECISIONS`` decisions in the others), every decision checked; the table allows hints, so the Hint button is there too, and twice the advice is
    asked for and shown. The header's Menu opens and closes."""
    base = web_server.url
    phone = new_page(*PHONE)
    phone.goto(base + "/")
    phone.wait_for_selector("[data-testid=create]")
    if lang != "en":
        with phone.expect_navigation():
            phone.select_option("#language", lang)  # the page reloads in that language
        phone.wait_for_selector("[data-testid=create]")
    assert phone.evaluate("() => document.documentElement.lang") == lang
    phone.fill("#player-name", "Pia")
    phone.select_option("#seat-count", str(players))
    for i, kind in enumerate(["me"] + ["computer:easy"] * (players - 1)):
        phone.select_option(f"#seat-{i}", kind)
    phone.click("[data-testid=rules-options]")
    phone.check("#hints")
    phone.select_option("#time-control", clock)
    phone.click("[data-testid=create]")
    phone.wait_for_selector(f"{VIEW}[data-conn=open]")
    if clock != "none":
        phone.wait_for_selector("[data-testid=clock]")
    name = f"phone-{players}p-placing" if lang == "en" and clock == "none" else \
        f"phone-{players}p-{lang}" + ("-clock" if clock != "none" else "")
    seen = {"turn": 0, "place": 0}
    shot = False
    hints = 0
    thinking = catalog(lang)["table.thinking"]
    while wait_mine_or_end(phone) and (decisions is None or sum(seen.values()) < decisions):
        if not sum(seen.values()):
            check_the_menu(phone)
        decision = check_decision_screen(phone, players, PHONE, lang)
        seen[decision] += 1
        if hints < 2 and seen[decision] == 4:
            phone.click("[data-testid=hint]")
            phone.wait_for_function("t => { const e = document.querySelector('.hint-text'); return e && !e.textContent.includes(t); }",
                                    arg=thinking, timeout=60_000)
            check_decision_screen(phone, players, PHONE, lang)
            hints += 1
        if decision == "place" and seen["place"] >= 4 and not shot:
            phone.screenshot(path=str(screenshots / f"{name}.png"), animations="disabled")
            shot = True
        act(phone)
    assert seen["turn"] >= 5 and seen["place"] >= 3 and hints == 2 and shot, seen
    if decisions is not None:
        return
    phone.wait_for_selector("[data-testid=result]")
    no_horizontal_overflow(phone)
    end = f"phone-{players}p-end" if clock == "none" else f"{name}-end"
    phone.screenshot(path=str(screenshots / f"{end}.png"), full_page=True, animations="disabled")


def test_desktop_layout_with_five_players(web_server: Any, new_page: Any) -> None:
    """At 1280 x 800 the same parts are in view at every decision of a five-player game."""
    page = new_page(*DESKTOP)
    create_table(page, web_server.url, "Ann", ["me"] + ["computer:random"] * 4)
    decisions = 0
    while wait_mine_or_end(page):
        check_decision_screen(page, 5, DESKTOP)
        decisions += 1
        act(page)
    assert decisions >= 10


def test_desktop_table_and_screenshots(web_server: Any, new_page: Any, screenshots: Path) -> None:
    """The desktop layout keeps the same parts in view; screenshots mid-game (a turn and a
    placement) and of the end breakdown, at desktop and phone sizes."""
    base = web_server.url
    page = new_page(*DESKTOP)
    create_table(page, base, "Ann", ["me", "computer:easy", "computer:medium", "computer:easy"], edition='"modern"')
    shots: set[str] = set()
    decisions = 0
    while wait_mine_or_end(page):
        decision = check_decision_screen(page, 4, DESKTOP)
        decisions += 1
        if decisions >= 12 and decision not in shots:
            page.screenshot(path=str(screenshots / f"desktop-table-{decision}.png"), animations="disabled")
            page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
            page.wait_for_function("() => window.innerWidth === 390")
            check_decision_screen(page, 4, PHONE)
            page.screenshot(path=str(screenshots / f"phone-table-{decision}.png"), animations="disabled")
            page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
            page.wait_for_function("() => window.innerWidth === 1280")
            shots.add(decision)
        act(page)
    assert shots == {"turn", "place"}
    page.wait_for_selector("[data-testid=result]")
    page.screenshot(path=str(screenshots / "desktop-end.png"), full_page=True, animations="disabled")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.wait_for_function("() => window.innerWidth === 390")
    no_horizontal_overflow(page)
    page.screenshot(path=str(screenshots / "phone-end.png"), full_page=True, animations="disabled")
    # the end breakdown shows the cards with their faces
    assert page.locator("[data-testid=result] .card svg.face").count() >= 4


# ----- 3. card movements ------------------------------------------------------------------------
# Records every Web Animations call on the page: the element's classes and how many action
# buttons were enabled at that moment.
RECORD_ANIMATIONS = """
window.__moves = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__moves.push({cls: String(this.getAttribute('class')),
    enabled: document.querySelectorAll('#table-view button.action:enabled').length});
  return animate.apply(this, args);
};
"""


def test_card_movements_and_reduced_motion(web_server: Any, new_page: Any, chromium: Any) -> None:
    base = web_server.url
    # normal motion: the drawn card flies from the pile, the placed card into its row, a taken
    # row's cards into the collection; the buttons were enabled when the movement started
    page = new_page(*DESKTOP)
    page.add_init_script(RECORD_ANIMATIONS)
    create_table(page, base, "Ann", ["me", "computer:random", "computer:random"])

    def moves() -> list[dict[str, Any]]:
        return list(page.evaluate("() => window.__moves"))

    assert wait_mine_or_end(page)
    if attr(page, "decision") == "place":
        act(page)
        assert wait_mine_or_end(page)
    page.evaluate("() => { window.__moves = []; }")
    version = attr(page, "version")
    page.click("[data-testid=action-draw]")
    wait_version_change(page, version)
    drawn = [m for m in moves() if "card" in m["cls"]]
    assert drawn, moves()
    assert drawn[0]["enabled"] > 0, "the place buttons came only after the movement"
    # the person places at once, while the drawn card may still be moving
    version = attr(page, "version")
    page.locator("[data-testid=action-place]:enabled").first.click()
    wait_version_change(page, version)
    page.evaluate("() => { window.__moves = []; }")

    def took() -> bool:
        return any("flying" in m["cls"] for m in moves())

    # play until someone takes a row: its cards fly to the taker's collection
    while not took():
        assert wait_mine_or_end(page), "nobody took a row"
        version = attr(page, "version")
        takes = page.locator("[data-testid=action-take]:enabled")
        (takes.first if takes.count() else page.locator(f"{VIEW} button.action:enabled").first).click()
        wait_version_change(page, version)
    page.wait_for_function("() => !document.querySelector('#flight-layer .flying')")  # the copies go away

    # reduced motion: nothing moves, no CSS transition either
    context = chromium.new_context(bypass_csp=True, viewport={"width": DESKTOP[0], "height": DESKTOP[1]}, reduced_motion="reduce")
    try:
        calm = new_page(context=context)
        calm.add_init_script(RECORD_ANIMATIONS)
        create_table(calm, base, "Ann", ["me", "computer:random", "computer:random"])
        assert calm.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
        seen: set[str] = set()
        while len(seen) < 3:
            assert wait_mine_or_end(calm), "the game ended too soon"
            decision = attr(calm, "decision")
            takes = calm.locator("[data-testid=action-take]:enabled")
            version = attr(calm, "version")
            if decision == "turn" and takes.count() and "draw" in seen:
                takes.first.click()
                seen.add("take")
            elif decision == "turn":
                calm.click("[data-testid=action-draw]")
                seen.add("draw")
            else:
                calm.locator("[data-testid=action-place]:enabled").first.click()
                seen.add("place")
            wait_version_change(calm, version)
            assert calm.evaluate("() => window.__moves.length") == 0
            assert calm.evaluate("() => document.getAnimations().length") == 0
            assert calm.locator("#flight-layer .flying").count() == 0
        duration = calm.locator(f"{VIEW} button").first.evaluate("e => getComputedStyle(e).transitionDuration")
        assert duration == "0s"
    finally:
        context.close()


# ----- 4. fast keys -------------------------------------------------------------------------------
def first_open_row(page: Any) -> int:
    """The first row that is not taken and has room (JSON index)."""
    for row in page.locator(".rows > li.row").all():
        if "taken" not in (row.get_attribute("class") or "") and row.locator(".card-slot").count():
            return int(row.get_attribute("data-row") or "-1")
    raise AssertionError("no row has room")


def test_keys_typed_while_an_action_is_on_its_way(web_server: Any, new_page: Any) -> None:
    """``d d 1 1`` typed before the server answers the draw: the draw and one place are sent,
    the repeated keys are dropped (never an illegal or repeated action)."""
    base = web_server.url
    ann = new_page()
    sent: list[dict[str, Any]] = []
    hold: dict[str, Any] = {"on": False, "queue": []}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        hold["ws"] = ws

        def to_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "action":
                sent.append(msg)
            server.send(message)

        def to_page(message: str | bytes) -> None:
            if hold["on"]:
                hold["queue"].append(message)
            else:
                ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    ann.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    create_table(ann, base, "Ann", ["me", "human"])
    bob = new_page()
    bob.goto(ann.url)
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    ann.wait_for_selector(f"{VIEW}[data-status=playing]")
    # Bob moves first if it is his turn (a draw: he stays in the round)
    if attr(ann, "to-move") == "1":
        bob.wait_for_selector(f"{VIEW}[data-mine='1']")
        act(bob)
        if attr(bob, "mine") == "1":
            act(bob)
    ann.wait_for_selector(f"{VIEW}[data-mine='1'][data-decision=turn]")
    version = int(attr(ann, "version"))
    row = first_open_row(ann)
    key = str(row + 1)
    # the server's answers wait while the four keys are typed
    hold["on"] = True
    ann.keyboard.type(f"dd{key}{key}")
    ann.wait_for_function("() => document.querySelector('#table-view').dataset.mine === '0'")
    assert [m["action"] for m in sent] == [{"action": "draw"}]
    hold["on"] = False
    for message in hold["queue"]:  # the held answers, in order
        hold["ws"].send(message)
    ann.wait_for_function("v => +document.querySelector('#table-view').dataset.version >= v", arg=version + 2)
    assert [(m["action"], m["version"]) for m in sent] == [
        ({"action": "draw"}, version), ({"action": "place", "row": row}, version + 1)]
    lines = ann.locator(".log > li[data-i]").all_inner_texts()
    assert lines[version].startswith(f"{version + 1}. Ann draws")
    assert re.match(rf"{version + 2}\. Ann places .* in row {row + 1}", " ".join(lines[version + 1].split()))
    # the last "1" was for no decision of Ann's: it is dropped, Bob moves, nothing else is sent
    bob.wait_for_selector(f"{VIEW}[data-mine='1']")
    act(bob)
    ann.wait_for_selector(f"{VIEW}[data-mine='1'], {VIEW}[data-to-move='1']")
    assert len(sent) == 2
    assert ann.locator("#toasts .toast-error").count() == 0



# ----- 5. replays, the name field, a computer's moves for a person ------------------------------
def test_replay_shows_no_live_presence(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    ann = new_page()
    table_id = create_table(ann, base, "Ann", ["me", "computer:random"])
    while wait_mine_or_end(ann):
        act(ann)
    ann.close()  # Ann leaves after the end: her seat is disconnected now

    def ann_connected() -> bool:
        seat = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()["seats"][0]
        assert seat["kind"] == "human"
        return bool(seat["connected"])

    deadline = time.monotonic() + 10
    while ann_connected():
        assert time.monotonic() < deadline, "the server still sees Ann connected"
        time.sleep(0.1)
    viewer = new_page()
    # the live table says so ...
    viewer.goto(f"{base}/table/{table_id}")
    viewer.wait_for_selector(".player[data-seat='0'] [data-testid=disconnected]")
    # ... the replay never does: it shows the game, not who is connected now
    steps = len(httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=10).json()["steps"])
    for step in (1, steps // 2, steps - 1):
        viewer.goto(f"{base}/replay/{table_id}#{step}")
        viewer.wait_for_selector(f".replay-controls .counter >> text='move {step} of {steps - 1}'")
        assert viewer.locator(".player[data-seat='0'] .player-name").inner_text() == "Ann"
        assert viewer.locator("[data-testid=disconnected]").count() == 0
        assert viewer.locator(".badge.offline").count() == 0


def test_header_name_follows_a_join_through_a_link(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    ann = new_page()
    create_table(ann, base, "Ann", ["me", "human"])
    bob = new_page()
    bob.goto(ann.url)
    assert bob.input_value("#player-name") == ""
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    bob.wait_for_selector(f"{VIEW}[data-my-seat='1']")
    assert bob.input_value("#player-name") == "Bob"
    bob.reload()
    bob.wait_for_selector(f"{VIEW}[data-my-seat='1']")
    assert bob.input_value("#player-name") == "Bob"


def test_a_computers_moves_for_a_person_are_marked(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    ann = new_page()
    create_table(ann, base, "Ann", ["me", "human"])
    bob = new_page()
    bob.goto(ann.url)
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    ann.wait_for_selector(f"{VIEW}[data-status=playing]")

    def until_ann_decides() -> None:
        """Bob (a person) plays until Ann is to move."""
        while True:
            ann.wait_for_selector(f"{VIEW}[data-mine='1'], {VIEW}[data-to-move='1']")
            if attr(ann, "mine") == "1":
                return
            bob.wait_for_selector(f"{VIEW}[data-mine='1']")
            v = act(bob)
            ann.wait_for_function("v => +document.querySelector('#table-view').dataset.version >= v", arg=v)

    until_ann_decides()
    # Bob leaves while Ann decides: from here a computer plays his seat
    handed_at = int(attr(ann, "version"))
    bob.click(".player[data-seat='1'] [data-testid=leaving]")
    bob.select_option(".player[data-seat='1'] [data-testid=agent-pick]", "easy")
    bob.click(".player[data-seat='1'] [data-testid=hand-over-mine]")
    seat = ann.locator(".player[data-seat='1']")
    seat.locator(".badge.computer >> text=computer (easy) plays").wait_for()
    assert "handed" in (seat.get_attribute("class") or "")
    assert seat.locator(".player-name").inner_text() == "Bob"

    def seat1_entries_from(k: int) -> list[int]:
        return [i for i, t in enumerate(ann.locator(".log > li[data-i]").all_inner_texts())
                if i >= k and re.match(rf"{i + 1}\. Bob ", t)]

    while not seat1_entries_from(handed_at):
        ann.wait_for_selector(f"{VIEW}[data-mine='1']")
        act(ann)
    ann.wait_for_selector(f"{VIEW}[data-mine='1']")
    # Bob takes his seat back while Ann decides, and plays a move himself
    bob.click("[data-testid=reclaim]")
    seat.locator(".badge.computer").wait_for(state="detached")
    back_at = int(attr(ann, "version"))
    while attr(ann, "to-move") != "1":
        ann.wait_for_selector(f"{VIEW}[data-mine='1']")
        act(ann)
    bob.wait_for_selector(f"{VIEW}[data-mine='1']")
    v = act(bob)
    bob.wait_for_function("v => +document.querySelector('#table-view').dataset.version >= v", arg=v)
    ann.wait_for_function("v => +document.querySelector('#table-view').dataset.version >= v", arg=v)
    by_computer = set(seat1_entries_from(handed_at)) - set(seat1_entries_from(back_at))
    by_bob = set(seat1_entries_from(0)) - by_computer
    assert by_computer and set(seat1_entries_from(back_at))
    for page in (ann, bob):
        lines = page.locator(".log > li[data-i]")
        for i in range(lines.count()):
            marked = lines.nth(i).locator("[data-testid=log-auto]")
            if i in by_computer:
                assert marked.inner_text() == "played by computer (easy)", i
            else:
                assert marked.count() == 0, (i, lines.nth(i).inner_text(), by_bob)
