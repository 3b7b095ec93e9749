"""Every control of the web client, used once the way a person uses it (click, key press,
typing, choosing), through a real ``coloretto serve`` and real Chromium, with its visible
effect checked. Hints come from the real move advisor.

``test_the_list_covers_every_control`` keeps this list complete: it reads every page of the
web client (``web/*.html`` and the modules each one loads) and docs/web-client.md, and fails
when a control or a documented key is missing here, when a control has no ``data-testid`` or
``id``, or when the test named for a control does not use its selector (in its own source or
in the helpers and constants of its module that it uses). A section's controls belong to the
page its heading names in brackets (``index.html`` when it names none); a test of another
module is named ``module.py::test_name``.

Controls (selector: what it does: the test that uses it)

Page header and links (index.html)
- `[data-testid=skip]` "Skip to the game" (first Tab stop; Enter): test_lobby_form_links_and_joining
- `#player-name` "Your name" (kept across reloads): test_lobby_form_links_and_joining
- `[data-testid=brand]` the Coloretto logo link to the lobby: test_lobby_form_links_and_joining
- `[data-testid=nav-lobby]` "Lobby": test_lobby_form_links_and_joining
- `[data-testid=menu]` "Menu" (a live table on a phone: opens the links, the name, the account and the language; again or Escape closes): test_table_feel.py::test_phone_layout_needs_no_scrolling
- `[data-testid=nav-leaderboard]` "Leaderboard": test_replay_controls_and_error_pages
- `#language` "Language" (i18n.js; the page reloads in it, remembered): test_languages.py::test_language_switch_in_the_header_persists

Account box of the page header (account.js)
- `[data-testid=account-open]` "Log in / sign up": test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out
- `#account-name` "Account name": test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out
- `#account-password` "Password" (Enter logs in): test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out
- `[data-testid=log-in]` "Log in" (a wrong password: a clear message): test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out
- `[data-testid=sign-up]` "Sign up" (a look-alike of a taken name: a clear message): test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out
- `[data-testid=account-cancel]` "Cancel": test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out
- `[data-testid=log-out]` "Log out": test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out

Lobby (lobby.js)
- `[data-testid=learn]` "Start the guided first game" / "Play the guided game again" (guide.js): test_languages.py::test_guided_first_game_from_start_to_end
- `[data-testid=quick-join]` "Join (N open)" (and without a name: asks for one): test_lobby_form_links_and_joining
- `[data-testid=your-table]` "Your table": test_lobby_form_links_and_joining
- `[data-testid=watch]` "Watch" / "Back to your seat": test_lobby_form_links_and_joining
- `[data-testid=lobby-replay]` "Replay": test_replay_controls_and_error_pages
- `#seat-count` "Seats": test_lobby_form_links_and_joining
- `#seat-N` each seat: You / A friend / a computer (only one "You"): test_lobby_form_links_and_joining
- `#title` "Title": test_lobby_form_links_and_joining
- `[data-testid=rules-options]` "Rules and options": test_lobby_form_links_and_joining
- `#preset` "Preset" (options left at their default keep its values): test_lobby_form_links_and_joining
- `#edition` "Edition": test_lobby_form_links_and_joining
- `#table` "Score table": test_lobby_form_links_and_joining
- `#starting_cards` "Starting cards": test_lobby_form_links_and_joining
- `#next_round_starter` "Next round starts": test_lobby_form_links_and_joining
- `#joker_any_color` "Joker may take a colour you lack": test_lobby_form_links_and_joining
- `#match_games` "Games in the match": test_lobby_form_links_and_joining
- `#extra_card` "Extra rule": test_lobby_form_links_and_joining
- `#row_capacities` "Row capacities" (bad input: a clear message): test_lobby_form_links_and_joining
- `#hints` "allow hints": test_lobby_form_links_and_joining
- `#rated` "rated (leaderboard)" (signed-in players only; turns hints off): test_accounts_browser.py::test_sign_up_log_in_rated_seat_and_log_out
- `[data-testid=create]` "Create table": test_lobby_form_links_and_joining
- `#lb-computers` "include games against computer players": test_replay_controls_and_error_pages
- `#time-control` "Time control" (no clock, a per-move clock, turn-based): test_tables.py::test_a_clock_runs_out_and_the_computer_moves
- `#clock-agent` "Plays when time runs out": test_tables.py::test_a_clock_runs_out_and_the_computer_moves
- `#private` "Private table": test_tables.py::test_a_private_table_the_host_and_the_chat
- `[data-testid=my-table]` "To your seat" (Your tables, with "Your turn"): test_tables.py::test_a_private_table_the_host_and_the_chat

Live table (table.js, board.js)
- `[data-testid=back-to-lobby]` "Back to the lobby" (unknown table, replay not ready): test_replay_controls_and_error_pages
- `#invite-url` the invite link (selected on focus): test_lobby_form_links_and_joining
- `[data-testid=copy-invite]` "Copy": test_lobby_form_links_and_joining
- `[data-testid=retry]` "Retry now": test_retry_now
- `#join-name` "Your name" of the join form: test_playing_keys_hints_and_leaving
- `#join-seat` "Seat" of the join form: test_playing_keys_hints_and_leaving
- `[data-testid=join]` "Join": test_playing_keys_hints_and_leaving
- `[data-testid=action-choose_start]` a starting colour: test_playing_keys_hints_and_leaving
- `[data-testid=action-draw]` "Draw a card": test_playing_keys_hints_and_leaving
- `[data-testid=action-place]` "Place here": test_playing_keys_hints_and_leaving
- `[data-testid=action-take]` "Take row": test_playing_keys_hints_and_leaving
- `[data-testid=hint]` "Hint" (the real advisor; the advised button is highlighted): test_playing_keys_hints_and_leaving
- `[data-testid=legend]` "Scoring (... table)" (stays open while the game goes on): test_playing_keys_hints_and_leaving
- `[data-testid=keys]` "Keyboard shortcuts" (stays open while the game goes on): test_playing_keys_hints_and_leaving
- `[data-testid=sound]` "Sounds" (off by default; each sound plays; remembered): test_sounds_and_the_log_box
- `[data-testid=log-toggle]` "Game log" (open on wide screens, one line on phones): test_sounds_and_the_log_box
- `[data-testid=leaving]` "Leaving?" (stays open while the game goes on): test_playing_keys_hints_and_leaving
- `[data-testid=agent-pick]` the computer player for a hand-over (kept while the page redraws): test_hand_over_a_disconnected_seat_and_watch_the_rematch
- `[data-testid=hand-over-mine]` "Hand my seat over": test_playing_keys_hints_and_leaving
- `[data-testid=reclaim]` "Take my seat back": test_playing_keys_hints_and_leaving
- `[data-testid=hand-over]` "Hand this seat to a computer" (a disconnected player's seat): test_hand_over_a_disconnected_seat_and_watch_the_rematch
- `[data-testid=rematch]` "Rematch": test_hand_over_a_disconnected_seat_and_watch_the_rematch
- `[data-testid=join-rematch]` "Watch the rematch" (a spectator; "Join the rematch": test_browser.py): test_hand_over_a_disconnected_seat_and_watch_the_rematch
- `[data-testid=record]` "Download record" (table and replay): test_playing_keys_hints_and_leaving
- `[data-testid=replace]` "Replace with a computer" (the host; an absent or idle player): test_tables.py::test_a_private_table_the_host_and_the_chat
- `#chat-text` the chat message (Enter sends): test_tables.py::test_a_private_table_the_host_and_the_chat
- `[data-testid=chat-send]` "Send": test_tables.py::test_a_private_table_the_host_and_the_chat
- `[data-testid=chat-mute]` "Mute chat" / "Show chat" (remembered): test_tables.py::test_a_private_table_the_host_and_the_chat
- `[data-testid=replay]` "Replay move by move": test_playing_keys_hints_and_leaving
- `[data-testid=result-game]` "Game N": that game's breakdown at the end of a match (table and replay): test_tables.py::test_a_match_ends_with_every_games_scores
- `[data-testid=guide-next]` "Got it" (the guided first game, guide.js): test_languages.py::test_guided_first_game_from_start_to_end
- `[data-testid=guide-finish]` "Finish the guide" (its last explanation, the score): test_languages.py::test_guided_first_game_from_start_to_end
- `[data-testid=guide-skip]` "Skip the guide": test_languages.py::test_skipping_the_guide

Replay (replay.js)
- `[data-testid=watch-live]` "Watch it live" (a game not over yet): test_replay_controls_and_error_pages
- `[data-testid=first]` "First": test_replay_controls_and_error_pages
- `[data-testid=prev]` "Back": test_replay_controls_and_error_pages
- `[data-testid=next]` "Next": test_replay_controls_and_error_pages
- `[data-testid=last]` "Last": test_replay_controls_and_error_pages
- `[data-testid=play]` "Play" / "Pause": test_replay_controls_and_error_pages
- `#replay-slider` the move slider: test_replay_controls_and_error_pages
- `[data-testid=copy-move-link]` "Copy link to this move": test_replay_controls_and_error_pages

Header links to the other pages (index.html)
- `[data-testid=nav-score]` "Score sheet": test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `[data-testid=nav-rules]` "Rules": test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone

Score sheet: header (score.html)
- `[data-testid=skip]` "Skip to the score sheet" (first Tab stop; Enter): test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `[data-testid=brand]` the Coloretto logo link to the lobby: test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `[data-testid=nav-lobby]` "Lobby": test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `[data-testid=nav-leaderboard]` "Leaderboard": test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `[data-testid=nav-score]` "Score sheet" (this page: opens it as it was): test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `#language` "Language" (i18n.js; remembered): test_score_sheet.py::test_languages_follow_the_browser_switch_and_are_remembered
- `[data-testid=nav-rules]` "Rules": test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone

Score sheet (score.html: score.js)
- `[data-testid=sheet-settings]` "Game" (folded once there are players): test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#table-N` "Brown" / "Violet" score table: test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#extra` "Extrakarten scoring card": test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#games-N` "One game" / "Match of 4 games": test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `[data-testid=colour-names]` "Colour names": test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#label-N` the name of a colour (a name used twice is refused): test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#game-tab-N` "Game 1" .. "Game 4" of a match: test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `#new-player` "Name of a new player" (Enter adds): test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#add-player` "Add player": test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#name-N` a player's name, edited in place: test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `#minus-N` "−": one card fewer: test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#count-N` a count, typed (out of range: refused with a message naming its range, the nearest count on leaving) or stepped by the arrow keys: test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#plus-N` "+": one card more (Enter on it): test_score_sheet.py::test_phone_sheet_scores_each_tap_and_works_offline
- `#remove-N` "Remove NAME" (two taps): test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `#clear-game` "Clear game N" (two taps): test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions
- `#new-sheet` "New sheet" (two taps): test_score_sheet.py::test_desktop_match_sheet_and_sheet_actions

Rules page (rules.html: rules.js)
- `[data-testid=skip]` "Skip to the rules" (first Tab stop; Enter): test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `[data-testid=brand]` the Coloretto logo link to the lobby: test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `[data-testid=nav-lobby]` "Lobby": test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `[data-testid=nav-leaderboard]` "Leaderboard": test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `[data-testid=nav-score]` "Score sheet": test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `[data-testid=nav-rules]` "Rules" (this page): test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `#language` "Language" (i18n.js; the score sheet's choice too): test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `[data-testid=toc-link]` a section of the contents: test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone
- `[data-testid=to-sheet]` the link to the score sheet: test_rules_page.py::test_rules_page_in_six_languages_on_desktop_and_phone

Keys (docs/web-client.md, "Keyboard"; key: what it does: the test that presses it)
- `D` draw a card: test_playing_keys_hints_and_leaving
- `1` .. `6` take that row / place the drawn card in it; `1` .. `7` the n-th starting colour: test_playing_keys_hints_and_leaving
- `H` hint: test_playing_keys_hints_and_leaving
- `Tab` next button: test_playing_keys_hints_and_leaving
- `Shift+Tab` previous button: test_playing_keys_hints_and_leaving
- `Enter` press the focused button: test_playing_keys_hints_and_leaving
- `Escape` close the header's Menu (a live table on a phone): test_table_feel.py::test_phone_layout_needs_no_scrolling
- `ArrowRight` replay: next move: test_replay_controls_and_error_pages
- `ArrowLeft` replay: previous move: test_replay_controls_and_error_pages
- `Home` replay: first move: test_replay_controls_and_error_pages
- `End` replay: last move: test_replay_controls_and_error_pages
- `Space` replay: play / pause: test_replay_controls_and_error_pages
"""

from __future__ import annotations

import ast
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from ratedgame import play_rated_game
from test_browser import VIEW, act, attr

pytestmark = pytest.mark.slow

WEB = Path(__file__).resolve().parents[3] / "src" / "coloretto" / "web"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "web-client.md"


# ----- helpers ----------------------------------------------------------------------------------
def wait_version_change(page: Any, version: str) -> None:
    """Wait until the table view shows another version than ``version``."""
    page.wait_for_function(
        "v => document.querySelector('#table-view').dataset.version !== v", arg=version
    )


def toast_after(page: Any, do: Any, kind: str = "error") -> str:
    """Run ``do()`` (a click...) and return the text of the toast of ``kind`` ("info" or
    "error") it shows. The toasts of earlier steps are cleared first."""
    page.evaluate("() => document.getElementById('toasts').replaceChildren()")
    do()
    toast = page.locator(f"#toasts .toast-{kind}").first
    toast.wait_for()
    return str(toast.inner_text())


def focused(page: Any) -> str:
    """``data-testid`` (else ``id``) of the element that has the keyboard focus."""
    return str(page.evaluate("() => document.activeElement.dataset.testid || document.activeElement.id"))


def log_texts(page: Any) -> list[str]:
    """The action lines of the game log."""
    return list(page.locator(f"{VIEW} .log > li[data-i]").all_inner_texts())


def one_line(text: str) -> str:
    """``text`` with its whitespace runs (card letters sit on lines of their own) as one space."""
    return " ".join(text.split())


# ----- the list above is complete ---------------------------------------------------------------
HERE = Path(__file__).resolve().parent
ENTRY = re.compile(r'<script type="module" src="/static/([\w.-]+\.js)"')
IMPORT = re.compile(r'(?:\bfrom\s+|\bimport\s*\(\s*)"\./([\w.-]+\.js)"')
LISTED = re.compile(r"^- `([^`]+)`.*: ((?:\w+\.py::)?test_\w+)$")


def listed(section: str) -> dict[tuple[str, str], str]:
    """``{(page, selector or key): test}`` from the lines of the docstring's ``section``
    ("Controls" or "Keys"). A control belongs to the page (``score.html``...) that its
    section's heading names in brackets, else to ``index.html``; keys are the game client's.
    ``test`` is ``test_name`` (this module) or ``module.py::test_name``."""
    doc = __doc__ or ""
    body = doc.split("\nControls (", 1)[1]
    controls, keys = body.split("\nKeys (", 1)
    out: dict[tuple[str, str], str] = {}
    page = "index.html"
    for line in (controls if section == "Controls" else keys).splitlines()[1:]:
        if not line.strip():
            continue
        m = LISTED.match(line)
        if m:
            out[(page, m.group(1))] = m.group(2)
        elif not line.startswith("- "):  # a section heading: "Score sheet (score.html, score.js)"
            pages = re.findall(r"[\w-]+\.html", line.partition("(")[2])
            page = pages[0] if pages else "index.html"
    return out


def page_modules(page: str) -> list[str]:
    """The JS modules the ``page`` loads: its module scripts and everything they import."""
    todo = ENTRY.findall((WEB / page).read_text())
    seen: list[str] = []
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.append(name)
            todo.extend(IMPORT.findall((WEB / name).read_text()))
    return sorted(seen)


def controls_in_module(path: Path) -> list[str]:
    """The selector of every control built in a JS module: each ``h("button" | "a" | "select"
    | "input" | "summary", {...})`` by its ``data-testid`` or ``id`` (a dynamic id, ``seat-${i}``,
    by its stem: ``#seat-N``), and each ``languageSelect("id")``. A control without either
    gives a "no data-testid or id" line."""
    # comments blanked, line breaks kept: they show h() calls as examples
    src = re.sub(r"^[ \t]*(//|/\*\*|\*).*$", "", path.read_text(), flags=re.MULTILINE)
    found: list[str] = []
    for m in re.finditer(r'\bh\("(button|a|select|input|summary)",\s*\{', src):
        i, depth = m.end() - 1, 0
        for j in range(i, len(src)):
            depth += {"{": 1, "}": -1}.get(src[j], 0)
            if depth == 0:
                break
        attrs = src[i : j + 1]
        tid = re.search(r'"data-testid":\s*[`"]([\w-]+?)(\$\{[^}]*\})?[`"]', attrs)
        ident = re.search(r'\bid:\s*[`"]([\w-]+?)(\$\{[^}]*\})?[`"]', attrs)
        if tid and tid.group(2):  # board.js: action-draw, -place, -take, -choose_start
            found.extend(f"[data-testid={tid.group(1)}{kind}]" for kind in ("draw", "place", "take", "choose_start"))
            continue
        if tid:
            sel = f"[data-testid={tid.group(1)}]"
        elif ident:
            sel = "#" + ident.group(1) + ("N" if ident.group(2) else "")
        elif re.search(r"\{\s*id,", attrs):  # lobby.js select(id, ...): the ids it is called with
            found.extend("#" + call.group(1) for call in re.finditer(r'\bselect\("(\w+)"', src))
            continue
        else:
            sel = f"no data-testid or id at {path.name} line {src.count(chr(10), 0, m.start()) + 1}"
        found.append(sel)
    found.extend("#" + (ident or "language") for ident in re.findall(r'\blanguageSelect\(\s*(?:"([\w-]+)")?\s*\)', src))
    return found


def controls_in_sources() -> list[tuple[str, str]]:
    """``(page, selector)`` of every control of every page of the web client (``*.html``):
    the links, fields, buttons, menus and summaries written in the page and those built by
    the JS modules it loads. A module that no page loads must have no controls."""
    found: list[tuple[str, str]] = []
    loaded: set[str] = set()
    for page in sorted(p.name for p in WEB.glob("*.html")):
        html = (WEB / page).read_text()
        for m in re.finditer(r"<(a|input|button|select|summary|textarea)\b[^>]*>", html):
            tid = re.search(r'data-testid="([\w-]+)"', m.group(0))
            ident = re.search(r'\bid="([\w-]+)"', m.group(0))
            found.append((page, f"[data-testid={tid.group(1)}]" if tid else f"#{ident.group(1)}" if ident
                          else f"no data-testid or id in {page}: {m.group(0)}"))
        for name in page_modules(page):
            loaded.add(name)
            found.extend((page, sel) for sel in controls_in_module(WEB / name))
    for path in sorted(WEB.glob("*.js")):
        if path.name not in loaded and controls_in_module(path):
            found.append(("-", f"{path.name}: controls in a module that no page loads"))
    return found


def source_of_test(test: str) -> str:
    """The source of ``test`` (``test_name`` of this module or ``module.py::test_name``) with
    the module-level helpers and constants it uses, directly or through other helpers."""
    module, _, name = test.rpartition("::")
    tree = ast.parse((HERE / (module or Path(__file__).name)).read_text())
    source = (HERE / (module or Path(__file__).name)).read_text()
    defs: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    defs[target.id] = node
    if name not in defs:
        return ""
    parts: list[str] = []
    todo, seen = [name], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        node = defs[current]
        parts.append(ast.get_source_segment(source, node) or "")
        todo.extend(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in defs
                    and not (n.id.startswith("test_") and n.id != name))
    return "\n".join(parts)


def documented_keys() -> set[str]:
    """The keys of docs/web-client.md's "Keyboard" section (arrows by their key names; the
    digits, `1` .. `6` and `1` .. `7`, as "1")."""
    section = DOCS.read_text().split("### Keyboard", 1)[1].split("\n### ", 1)[0]
    names = {"\u2190": "ArrowLeft", "\u2192": "ArrowRight"}
    keys = {names.get(k, k) for k in re.findall(r"`([^`]+)`", section)}
    return {"1" if k.isdigit() else k for k in keys}


def test_the_list_covers_every_control() -> None:
    controls = listed("Controls")
    keys = {key: test for (_, key), test in listed("Keys").items()}
    assert controls and keys
    found = set(controls_in_sources())
    missing = sorted(found - set(controls))
    assert not missing, f"controls of the web client not in this module's list: {missing}"
    stale = sorted(set(controls) - found)
    assert not stale, f"listed controls that the web client does not have: {stale}"
    sources: dict[str, str] = {}
    for (page, sel), test in controls.items():
        source = sources.setdefault(test, source_of_test(test))
        assert source, f"{page} {sel}: no test {test}"
        stem = sel[:-1] if sel.startswith("#") and sel.endswith("N") else sel
        assert stem in source, f"{test} does not use {sel} ({page})"
    assert set(keys) == documented_keys()
    for key, test in keys.items():
        source = sources.setdefault(test, source_of_test(test))
        assert source, f"key {key}: no test {test}"
        pressed = "press(str(" if key == "1" else f'press("{key}")'
        assert pressed in source, f"{test} does not press {key}"


# ----- lobby, create form, links, joining -------------------------------------------------------
def test_lobby_form_links_and_joining(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    ann = new_page()
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    ann.goto(base + "/")
    ann.wait_for_selector("#create-form")
    # the skip link is the first Tab stop; Enter moves the focus to the page's main part and
    # keeps what was typed there
    ann.keyboard.press("Tab")
    skip = ann.locator("[data-testid=skip]")
    assert skip.evaluate("e => e === document.activeElement")
    ann.fill("#title", "Friday game")
    skip.focus()
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => document.activeElement.id === 'main'")
    assert ann.input_value("#title") == "Friday game"
    # Join without a name: the page asks for one first
    bob = new_page()
    # the name is kept by the browser
    ann.fill("#player-name", "Ann")
    ann.press("#player-name", "Tab")
    ann.reload()
    ann.wait_for_selector("#create-form")
    assert ann.input_value("#player-name") == "Ann"

    # the create form: seats (only one "You"), title and every rule option
    ann.select_option("#seat-count", "3")
    assert ann.locator(".seat-choices select").count() == 3
    ann.select_option("#seat-1", "me")
    assert ann.input_value("#seat-0") == "human"
    ann.select_option("#seat-0", "me")
    assert ann.input_value("#seat-1") == "human"
    ann.select_option("#seat-2", "computer:random")
    ann.fill("#title", "Friday game")
    ann.click("[data-testid=rules-options]")
    ann.select_option("#edition", '"modern"')
    ann.select_option("#table", '"violet"')
    ann.select_option("#starting_cards", '"choose"')
    ann.select_option("#next_round_starter", '"left_of_last_taker"')
    ann.select_option("#extra_card", '"triple_three"')
    ann.select_option("#joker_any_color", "false")
    ann.select_option("#match_games", "2")
    ann.check("#hints")
    assert ann.is_disabled("#rated") and not ann.is_checked("#rated")  # guests play unrated
    ann.fill("#row_capacities", "3, x")
    create = ann.locator("[data-testid=create]")
    assert toast_after(ann, create.click) == "Row capacities: whole numbers separated by commas"
    ann.fill("#row_capacities", "3,3,7")
    create.click()  # the client's message of the last attempt goes; only the server's shows
    errors = ann.locator("#toasts .toast-error")
    ann.locator("#toasts .toast-error", has_text="Cannot create the table").wait_for()
    assert errors.count() == 1
    text = errors.first.inner_text()
    assert text.startswith("Cannot create the table: ") and "row_capacities" in text and "1 to 6" in text
    assert "/table/" not in ann.url
    ann.fill("#row_capacities", "2,3,4")
    ann.click("[data-testid=create]")
    ann.wait_for_url(re.compile(r"/table/[^/]+$"))
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='0'][data-status=open]")
    table_id = ann.url.rsplit("/", 1)[1]
    assert ann.locator(".table-head h1").inner_text() == "Friday game"
    summary = ann.locator(".table-head p").inner_text()
    for part in ("3 players", "modern", "violet score table", "choose starting cards",
                 "next round: left of last taker", "jokers only to held colours", "match of 2 games",
                 "extra: triple three", "rows 2/3/4", "hints on", "unrated"):
        assert part in summary, (part, summary)

    # the invite link: selected when focused, copied by "Copy"
    invite = ann.input_value("#invite-url")
    assert invite == f"{base}/table/{table_id}"
    ann.click("#invite-url")
    selection = ann.evaluate("() => { const e = document.getElementById('invite-url');"
                             " return [e.selectionStart, e.selectionEnd]; }")
    assert selection == [0, len(invite)]
    copy = ann.locator("[data-testid=copy-invite]")
    assert toast_after(ann, copy.click, "info") == "Link copied"
    assert ann.evaluate("() => navigator.clipboard.readText()") == invite

    # the lobby lists the open table; Ann's own has "Your table"
    ann.click("[data-testid=nav-lobby]")
    item = ann.locator(f"li[data-table='{table_id}']")
    item.locator("[data-testid=your-table]").click()
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='0']")
    assert ann.url == invite

    # Bob joins from the lobby: first without a name, then with one
    bob.goto(base + "/")
    join = bob.locator(f"li[data-table='{table_id}'] [data-testid=quick-join]")
    assert join.inner_text() == "Join (1 open)"
    assert toast_after(bob, join.click) == "Pick a name first (top of the page)"
    assert focused(bob) == "player-name"
    bob.fill("#player-name", "Bob")
    join.click()
    bob.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='1'][data-status=playing]")
    ann.wait_for_selector(f"{VIEW}[data-status=playing]")

    # Cathy watches from the lobby; Ann goes back to her seat from it
    cathy = new_page()
    cathy.goto(base + "/")
    watch = cathy.locator(f"li[data-table='{table_id}'] [data-testid=watch]")
    assert watch.inner_text() == "Watch"
    watch.click()
    cathy.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='']")
    assert cathy.locator(".join-area").inner_text() == "You are watching this game as a spectator."
    ann.click("[data-testid=brand]")
    back = ann.locator(f"li[data-table='{table_id}'] [data-testid=watch]")
    assert back.inner_text() == "Back to your seat"
    back.click()
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='0']")

    # a preset: the options left at their default keep its values (abacus2003: 4 games);
    # a table of computers only needs no name and starts at once, to watch
    ann.click("[data-testid=nav-lobby]")
    ann.wait_for_selector("#create-form")
    ann.select_option("#seat-count", "3")
    for i in range(3):
        ann.select_option(f"#seat-{i}", "computer:random")
    ann.click("[data-testid=rules-options]")
    ann.select_option("#preset", '"abacus2003"')
    ann.click("[data-testid=create]")
    ann.wait_for_url(re.compile(r"/table/[^/]+$"))
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='']")
    assert "match of 4 games" in ann.locator(".table-head p").inner_text()


# ----- playing with mouse and keyboard, hints, leaving and coming back --------------------------
def test_playing_keys_hints_and_leaving(web_server: Any, new_page: Any, artifacts: Path) -> None:
    base = web_server.url
    ann = new_page()
    ann.goto(base + "/")
    ann.fill("#player-name", "Ann")
    ann.select_option("#seat-count", "3")
    for i, kind in enumerate(["me", "human", "computer:random"]):
        ann.select_option(f"#seat-{i}", kind)
    ann.click("[data-testid=rules-options]")
    ann.select_option("#starting_cards", '"choose"')
    ann.check("#hints")
    ann.click("[data-testid=create]")
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-status=open]")
    table_id = ann.url.rsplit("/", 1)[1]
    # Bob opens the invite link, picks the seat and joins
    bob = new_page()
    bob.goto(f"{base}/table/{table_id}")
    bob.fill("#join-name", "Bob")
    assert bob.locator("#join-seat option").all_inner_texts() == ["Seat 2"]
    bob.select_option("#join-seat", "1")
    bob.click("[data-testid=join]")
    bob.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='1'][data-status=playing]")

    # the score table and the key list open, and stay open while the game goes on
    ann.click("[data-testid=legend]")
    ann.click("[data-testid=keys]")
    legend = ann.locator("details[data-keep=legend]")
    assert "1 3 6 10 15 21" in one_line(legend.locator("table").inner_text())
    assert "draw a card" in ann.locator("details[data-keep=keys]").inner_text()
    opened_at = attr(ann, "version")

    pages = {0: ann, 1: bob}

    def wait_for_people() -> int:
        """Wait until Ann or Bob is to move (the computer moves at once); returns the seat."""
        ann.wait_for_selector(f"{VIEW}[data-mine='1'], {VIEW}[data-to-move='1'], {VIEW}[data-status=finished]")
        assert attr(ann, "status") == "playing", "the game ended too soon"
        seat = int(attr(ann, "to-move"))
        pages[seat].wait_for_selector(f"{VIEW}[data-mine='1']")
        return seat

    def bob_plays() -> None:
        """Bob plays his first enabled button; Ann's page catches up."""
        v = act(bob)
        ann.wait_for_function("v => +document.querySelector('#table-view').dataset.version >= v", arg=v)

    # starting colours: Ann by key, Bob by click (in the order the game asks)
    chosen: dict[str, str] = {}
    while len(chosen) < 2:
        seat = wait_for_people()
        page = pages[seat]
        assert attr(page, "decision") == "choose_start"
        version = attr(page, "version")
        # the colours taken already are disabled: each picks one still free
        buttons = page.locator("[data-testid=action-choose_start]:enabled")
        if seat == 0:
            chosen["Ann"] = one_line(buttons.first.inner_text()).split()[1]  # "B blue 1"
            page.keyboard.press(str(buttons.first.get_attribute("aria-keyshortcuts")))
        else:
            chosen["Bob"] = one_line(buttons.last.inner_text()).split()[1]
            buttons.last.click()
        wait_version_change(page, version)
        ann.wait_for_function("v => +document.querySelector('#table-view').dataset.version > v", arg=int(version))
    assert set(chosen) == {"Ann", "Bob"}
    lines = [one_line(t) for t in log_texts(ann)]
    for name, colour in chosen.items():
        assert any(re.fullmatch(rf"\d+\. {name} starts with \S+ {colour}", t) for t in lines), (name, lines)

    # Ann's turns: the first by Tab, Shift+Tab and Enter; a hint by click and one by H; a draw
    # and a place by click and by key; a take by click and by key. Bob plays the first button.
    done: set[str] = set()
    wanted = {"tab", "hint-click", "hint-key", "draw-click", "draw-key", "place-click", "place-key",
              "take-click", "take-key"}
    while not wanted <= done:
        if wait_for_people() == 1:
            bob_plays()
            continue
        version = attr(ann, "version")
        decision = attr(ann, "decision")
        if "hint-click" not in done or ("hint-key" not in done and decision == "place"):
            if "hint-click" not in done:
                ann.click("[data-testid=hint]")
                done.add("hint-click")
            else:
                ann.keyboard.press("H")
                done.add("hint-key")
            ann.wait_for_selector(".hint-text:not(:has-text('thinking'))", timeout=60_000)
            hint = ann.locator(".hint-text").inner_text()
            # what it advises and how sure: the intervals and the samples behind them
            assert hint.startswith("Hint: ") and "(95% interval " in hint and re.search(r", [\d,]+ samples?$", hint), hint
            assert ann.locator("button.action.hinted:enabled").count() == 1
        takes = ann.locator("[data-testid=action-take]:enabled")
        if decision == "turn" and "tab" not in done:
            # the focus sits on the first enabled button; Tab and Shift+Tab move it
            ann.locator("[data-testid=action-draw]").focus()
            ann.keyboard.press("Tab")
            assert focused(ann) != "action-draw"
            ann.keyboard.press("Shift+Tab")
            assert focused(ann) == "action-draw"
            ann.keyboard.press("Enter")
            done.add("tab")
        elif decision == "turn" and takes.count() and {"draw-click", "draw-key"} <= done and (
                "take-click" not in done or "take-key" not in done):
            row = int(takes.first.locator("xpath=ancestor::li[1]").get_attribute("data-row") or "-1")
            if "take-click" not in done:
                takes.first.click()
                done.add("take-click")
            else:
                ann.keyboard.press(str(row + 1))
                done.add("take-key")
            wait_version_change(ann, version)
            assert one_line(log_texts(ann)[int(version)]).startswith(f"{int(version) + 1}. Ann takes row {row + 1}")
            continue
        elif decision == "turn":
            if "draw-click" not in done:
                ann.click("[data-testid=action-draw]")
                done.add("draw-click")
            else:
                ann.keyboard.press("D")
                done.add("draw-key")
        elif decision == "place":
            places = ann.locator("[data-testid=action-place]:enabled")
            row = int(places.last.locator("xpath=ancestor::li[1]").get_attribute("data-row") or "-1")
            if "place-click" not in done:
                places.last.click()
                done.add("place-click")
            else:
                ann.keyboard.press(str(row + 1))
                done.add("place-key")
            wait_version_change(ann, version)
            assert re.fullmatch(rf"{int(version) + 1}\. Ann places \S+ .+ in row {row + 1}",
                                one_line(log_texts(ann)[int(version)]))
            continue
        wait_version_change(ann, version)
        if decision == "turn":
            assert one_line(log_texts(ann)[int(version)]).startswith(f"{int(version) + 1}. Ann draws")
            ann.wait_for_selector("[data-testid=drawn-card]")
    assert attr(ann, "version") != opened_at
    assert ann.locator("details[data-keep=legend]").get_attribute("open") is not None
    assert ann.locator("details[data-keep=keys]").get_attribute("open") is not None
    ann.screenshot(path=str(artifacts / "controls-playing.png"), full_page=True)

    # "Leaving?" stays open while the others play; Ann hands her seat over and takes it back
    me = ann.locator(".player[data-seat='0']")
    me.locator("[data-testid=leaving]").click()
    if wait_for_people() == 1:
        bob_plays()
    else:
        act(ann)
    assert me.locator("details[data-keep=leaving]").get_attribute("open") is not None
    me.locator("[data-testid=agent-pick]").select_option("easy")
    me.locator("[data-testid=hand-over-mine]").click()
    bob.wait_for_selector(".player[data-seat='0'] .badge.computer >> text=computer (easy) plays")
    me.locator("[data-testid=reclaim]").click()
    bob.wait_for_selector(".player[data-seat='0'] .badge.computer", state="detached")
    me.locator("[data-testid=leaving]").wait_for()
    # both let computer players finish the game
    for page, seat in ((ann, 0), (bob, 1)):
        mine = page.locator(f".player[data-seat='{seat}']")
        mine.locator("[data-testid=leaving]").click()
        mine.locator("[data-testid=agent-pick]").select_option("easy")
        mine.locator("[data-testid=hand-over-mine]").click()
    ann.wait_for_selector("[data-testid=result]", timeout=60_000)
    # the record downloads as a file; the replay opens
    with ann.expect_download() as info:
        ann.click("[data-testid=record]")
    download = info.value
    assert download.suggested_filename == f"coloretto-{table_id}.json"
    record = json.loads(Path(download.path()).read_text())
    assert record["format"] == "coloretto-record/1" and record["seats"][:2] == ["Ann", "Bob"]
    ann.click("[data-testid=replay]")
    ann.wait_for_url(f"{base}/replay/{table_id}")
    assert ann.locator("[data-testid=replay-caption]").inner_text() == "The start of the game"


# ----- sounds and the game log box ---------------------------------------------------------------
# Records the frequencies the page's Web Audio graph is set to: every sound has one of its own
# (a card drawn: 1800 Hz, placed: 300, a row taken: 900, your turn: 990, the end: 1047).
RECORD_TONES = """
window.__tones = [];
const set = AudioParam.prototype.setValueAtTime;
AudioParam.prototype.setValueAtTime = function (value, time) {
  if (value > 50) window.__tones.push(Math.round(value));
  return set.call(this, value, time);
};
"""
SOUND = {"draw": 1800, "place": 300, "take": 900, "turn": 990, "end": 1047}


def test_sounds_and_the_log_box(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    ann = new_page()
    ann.add_init_script(RECORD_TONES)
    ann.goto(base + "/")
    ann.fill("#player-name", "Ann")
    ann.select_option("#seat-count", "2")
    ann.select_option("#seat-1", "computer:random")
    ann.click("[data-testid=create]")
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-mine='1']")
    switch = ann.locator("[data-testid=sound]")

    def tones() -> set[int]:
        return set(ann.evaluate("() => window.__tones"))

    def play(kind: str) -> None:
        """Ann plays a draw, a place or a take (any row), by click."""
        ann.wait_for_selector(f"{VIEW}[data-mine='1']")
        version = attr(ann, "version")
        if kind == "draw":
            ann.click("[data-testid=action-draw]")
        else:
            ann.locator(f"[data-testid=action-{kind}]:enabled").first.click()
        wait_version_change(ann, version)

    # off by default: a whole turn and the computer's make no sound
    assert switch.get_attribute("aria-pressed") == "false"
    if attr(ann, "decision") == "place":
        play("place")
    play("draw")
    play("place")
    ann.wait_for_selector(f"{VIEW}[data-mine='1']")
    assert tones() == set()
    assert ann.evaluate("() => localStorage.getItem('coloretto.sound')") is None
    # on: each of Ann's actions, her turn coming back, and the end of the game sound
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    assert ann.evaluate("() => localStorage.getItem('coloretto.sound')") == "on"
    play("draw")
    assert SOUND["draw"] in tones()
    play("place")
    assert SOUND["place"] in tones()
    # "your turn" when the turn comes back after the computer's move (not while the computer
    # is out of the round and Ann plays on); then a take
    while SOUND["turn"] not in tones() or SOUND["take"] not in tones():
        ann.wait_for_selector(f"{VIEW}[data-mine='1']")
        if attr(ann, "decision") == "place":
            play("place")
        elif ann.locator("[data-testid=action-take]:enabled").count() and SOUND["turn"] in tones():
            play("take")
        else:
            play("draw" if ann.locator("[data-testid=action-draw]:enabled").count() else "take")
    # remembered across a reload
    ann.reload()
    ann.wait_for_selector(f"{VIEW}[data-conn=open]")
    assert switch.get_attribute("aria-pressed") == "true"

    # the game log on a phone: collapsed to its newest line; the toggle opens and closes it
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.reload()
    ann.wait_for_selector(f"{VIEW}[data-conn=open]")
    box = ann.locator("details.log-panel")
    toggle = ann.locator("[data-testid=log-toggle]")
    assert box.get_attribute("open") is None
    newest = ann.locator(f"{VIEW} > div.sr-only[aria-live]").inner_text()
    assert newest and toggle.locator(".log-last").inner_text() == newest
    assert ann.locator(".log > li[data-i]").last.is_hidden()
    toggle.click()
    assert box.get_attribute("open") is not None
    assert ann.locator(".log > li[data-i]").last.is_visible()
    toggle.click()
    assert box.get_attribute("open") is None
    # on a wide screen it opens by itself
    ann.set_viewport_size({"width": 1280, "height": 900})
    ann.reload()
    ann.wait_for_selector(f"{VIEW}[data-conn=open]")
    assert box.get_attribute("open") is not None

    # the end of the game sounds; then the switch turns the sounds off again
    me = ann.locator(".player[data-seat='0']")
    me.locator("[data-testid=leaving]").click()
    me.locator("[data-testid=hand-over-mine]").click()
    ann.wait_for_selector("[data-testid=result]", timeout=60_000)
    assert SOUND["end"] in tones()
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert ann.evaluate("() => localStorage.getItem('coloretto.sound')") == "off"


# ----- a disconnected player's seat, a spectator and the rematch -------------------------------
def test_hand_over_a_disconnected_seat_and_watch_the_rematch(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    ann = new_page()
    ann.goto(base + "/")
    ann.fill("#player-name", "Ann")
    ann.select_option("#seat-count", "3")
    for i, kind in enumerate(["me", "human", "computer:random"]):
        ann.select_option(f"#seat-{i}", kind)
    ann.click("[data-testid=create]")
    ann.wait_for_selector(f"{VIEW}[data-conn=open][data-status=open]")
    table_id = ann.url.rsplit("/", 1)[1]
    bob = new_page()
    bob.goto(ann.url)
    bob.fill("#join-name", "Bob")
    bob.click("[data-testid=join]")
    bob.wait_for_selector(f"{VIEW}[data-status=playing][data-my-seat='1']")
    cathy = new_page()  # a spectator
    cathy.goto(ann.url)
    cathy.wait_for_selector(f"{VIEW}[data-conn=open][data-status=playing]")
    # Ann's tab closes (she is the host; Bob is not, so he waits for the hand-over delay);
    # Bob picks the computer player for her seat while the delay runs out: his choice
    # survives the page's redraws (every second and on every move)
    ann.close()
    ann_card = bob.locator(".player[data-seat='0']")
    ann_card.locator("[data-testid=hand-over]:disabled").wait_for()
    assert ann_card.locator("[data-testid=replace]").count() == 0  # only the host replaces at once
    ann_card.locator("[data-testid=agent-pick]").select_option("easy")
    bob.locator(".rows-panel").click(position={"x": 2, "y": 2})  # the focus leaves the menu
    button = ann_card.locator("[data-testid=hand-over]:enabled")
    button.wait_for()
    assert ann_card.locator("[data-testid=agent-pick]").input_value() == "easy"
    button.click()
    cathy.wait_for_selector(".player[data-seat='0'] .badge.computer >> text=computer (easy) plays")
    # Bob leaves too; the computers finish
    me = bob.locator(".player[data-seat='1']")
    me.locator("[data-testid=leaving]").click()
    me.locator("[data-testid=hand-over-mine]").click()
    for page in (bob, cathy):
        page.wait_for_selector("[data-testid=result]", timeout=60_000)
    assert cathy.locator("[data-testid=rematch]").count() == 0  # spectators cannot ask for one
    bob.click("[data-testid=rematch]")
    bob.wait_for_url(re.compile(r"/table/(?!" + table_id + r")[^/]+$"))
    bob.wait_for_selector(f"{VIEW}[data-my-seat='1'][data-status=open]")
    new_id = bob.url.rsplit("/", 1)[1]
    watch = cathy.locator("[data-testid=join-rematch]")
    assert watch.inner_text() == "Watch the rematch"
    watch.click()
    cathy.wait_for_url(f"{base}/table/{new_id}")
    cathy.wait_for_selector(f"{VIEW}[data-conn=open][data-my-seat='']")
    assert cathy.locator("#join-seat option").all_inner_texts() == ["Seat 1"]


# ----- replay controls, leaderboard, error pages ------------------------------------------------
def test_replay_controls_and_error_pages(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    made = httpx.post(f"{base}/api/tables", json={
        "name": "Watcher", "title": "Computers only",
        "seats": [{"kind": "computer", "agent": agent} for agent in ("random", "easy", "random")]}, timeout=10)
    assert made.status_code == 201, made.text
    table_id = made.json()["table"]["id"]
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.goto(base + "/")
    link = page.locator(f"li[data-table='{table_id}'] [data-testid=lobby-replay]")
    link.click()
    page.wait_for_url(f"{base}/replay/{table_id}")
    caption = page.locator("[data-testid=replay-caption]")
    counter = page.locator(".replay-controls .counter")
    assert caption.inner_text() == "The start of the game"
    last = int(re.fullmatch(r"start \((\d+) moves\)", counter.inner_text()).group(1))  # type: ignore[union-attr]

    def at() -> int:
        text = counter.inner_text()
        return 0 if text.startswith("start") else int(text.split()[1])

    def wait_at(n: int) -> None:
        page.wait_for_function("n => location.hash === '#' + n", arg=n)
        assert at() == n

    # at the start only the forward buttons act; at the end only the backward ones
    assert page.locator("[data-testid=first]").is_disabled()
    assert page.locator("[data-testid=prev]").is_disabled()
    assert page.locator("[data-testid=next]").is_enabled()
    page.click("[data-testid=next]")
    wait_at(1)
    assert caption.inner_text().startswith("1. ")
    assert page.locator("[data-testid=first]").is_enabled()
    page.click("[data-testid=last]")
    wait_at(last)
    assert page.locator("[data-testid=next]").is_disabled()
    assert page.locator("[data-testid=last]").is_disabled()
    page.wait_for_selector("[data-testid=result]")
    with page.expect_download() as info:
        page.click("[data-testid=record]")
    assert json.loads(Path(info.value.path()).read_text())["format"] == "coloretto-record/1"
    page.click("[data-testid=prev]")
    wait_at(last - 1)
    assert page.locator("[data-testid=result]").count() == 0
    page.click("[data-testid=first]")
    wait_at(0)
    # the score legend stays open from move to move
    page.click("[data-testid=legend]")
    page.click("[data-testid=next]")
    wait_at(1)
    assert page.locator("details[data-keep=legend]").get_attribute("open") is not None
    # the slider: a click in its middle goes to a move near the middle
    box = page.locator("#replay-slider").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("() => location.hash !== '#1'")
    assert abs(at() - last / 2) <= last / 5
    # keys (the focus off the buttons): arrows, Home, End, Space
    caption.click()
    page.keyboard.press("Home")
    wait_at(0)
    page.keyboard.press("ArrowRight")
    wait_at(1)
    page.keyboard.press("ArrowRight")
    wait_at(2)
    page.keyboard.press("ArrowLeft")
    wait_at(1)
    page.keyboard.press("End")
    wait_at(last)
    page.keyboard.press("Home")
    wait_at(0)
    play = page.locator("[data-testid=play]")
    page.keyboard.press("Space")
    assert play.inner_text() == "Pause"
    page.wait_for_function("() => location.hash === '#2'")
    page.keyboard.press("Space")
    assert play.inner_text() == "\u25b6 Play"
    stopped = at()
    time.sleep(1.0)  # more than one step of the player
    assert at() == stopped
    # the Play button, and Pause
    play.click()
    page.wait_for_function("n => location.hash === '#' + n", arg=stopped + 2)
    play.click()
    assert play.inner_text() == "\u25b6 Play"
    # the link to this move
    n = at()
    copy = page.locator("[data-testid=copy-move-link]")
    assert toast_after(page, copy.click, "info") == "Link copied"
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{base}/replay/{table_id}#{n}"

    # the move that turned up the Last Round card says so (a link to it: the address of a move)
    steps = httpx.get(f"{base}/api/tables/{table_id}/replay", timeout=10).json()["steps"]
    k = next(k for k, st in enumerate(steps) if st.get("last_round"))
    page.goto(f"{base}/replay/{table_id}#{k}")
    wait_at(k)
    if steps[k]["action"]["action"] == "draw":
        assert re.fullmatch(rf"{k}\. Computer \d \((random|easy)\) draws the Last Round card, then .+", caption.inner_text())
    else:  # a take whose bonus card was the Last Round card
        assert caption.inner_text().endswith("(the Last Round card came up)")

    # the leaderboard, from the header (after a rated game of two accounts and a computer)
    play_rated_game(base, ("Eve", "Finn"))
    page.click("[data-testid=nav-leaderboard]")
    page.wait_for_selector("h2 >> text=Leaderboard")
    page.wait_for_selector("text=rated game")
    assert page.locator("text=Computer (").count() == 0  # people only
    page.check("#lb-computers")
    page.wait_for_selector("table.leaderboard >> text=Computer (random)")

    # a game not over yet: its replay page leads to the live table; an unknown table leads
    # back to the lobby
    made = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}]},
                      timeout=10).json()
    waiting = made["table"]["id"]
    page.goto(f"{base}/replay/{waiting}")
    assert page.locator("h2").first.inner_text() == "This game is not over yet"
    page.click("[data-testid=watch-live]")
    page.wait_for_url(f"{base}/table/{waiting}")
    page.wait_for_selector("#join-seat")
    page.goto(f"{base}/replay/{waiting}")
    page.click("[data-testid=back-to-lobby]")
    page.wait_for_url(base + "/")
    page.wait_for_selector("#create-form")
    page.goto(f"{base}/table/no-such-table")
    assert page.locator("h2").first.inner_text() == "No such table"
    page.click("[data-testid=back-to-lobby]")
    page.wait_for_url(base + "/")
    page.wait_for_selector("#create-form")


# ----- connection lost: "Retry now" -----------------------------------------------------------
def test_retry_now(web_server: Any, new_page: Any) -> None:
    """The network (not the server) goes away: the page retries by itself with growing waits,
    and "Retry now" tries at once."""
    base = web_server.url
    page = new_page()
    network = {"up": True}
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        if not network["up"]:
            ws.close(code=1000, reason="no network")
            return
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    page.goto(base + "/")
    page.fill("#player-name", "Ann")
    page.select_option("#seat-count", "2")
    page.select_option("#seat-1", "computer:random")
    page.click("[data-testid=create]")
    page.wait_for_selector(f"{VIEW}[data-conn=open][data-mine='1']")
    version = attr(page, "version")
    network["up"] = False
    sockets[-1].close()
    page.wait_for_selector(f"{VIEW}[data-conn=reconnecting]")
    banner = page.locator(".conn-banner")

    def attempt() -> int:
        return int(re.search(r"attempt (\d+)", banner.inner_text()).group(1))  # type: ignore[union-attr]

    # actions are off while the connection is down
    assert page.locator(f"{VIEW} button.action:enabled").count() == 0
    # the waits grow to 4 to 5 s. When more than 3 s are left, "Retry now" tries at once: a
    # new attempt (failing: no network) comes within 2.5 s, before the planned one
    later = "() => / in [45]s /.test(document.querySelector('.conn-banner').innerText)"
    page.wait_for_function(later, timeout=30_000)
    before = attempt()
    page.click("[data-testid=retry]")
    page.wait_for_function("n => / \\(attempt (\\d+)\\)/.exec(document.querySelector('.conn-banner').innerText)[1] > n",
                           arg=before, timeout=2500)
    # the network is back: "Retry now" reconnects at once, before the planned try
    page.wait_for_function(later, timeout=30_000)
    network["up"] = True
    page.click("[data-testid=retry]")
    page.wait_for_selector(f"{VIEW}[data-conn=open][data-mine='1']", timeout=2500)
    assert attr(page, "version") == version
    assert banner.is_hidden()
