"""A 40-column console (a phone's SSH client, a split pane): the board, the hints, the final
breakdown and the match table keep every name, word and number whole, in lines no longer
than the console, by switching to a compact layout."""

from __future__ import annotations

import io
import re

from rich.console import Console, RenderableType

from coloretto.agents.advisor import Advice
from coloretto.engine import Rules, new_game
from coloretto.engine.actions import Action
from coloretto.engine.cards import JOKER, PLUS2
from coloretto.engine.observation import observe
from coloretto.engine.state import GameState
from coloretto.tui import render
from coloretto.tui.keyboard import hint_table

WIDTH = 40
NAMES = ["You", "medium-2", "expert-3", "Bartholomew-Fitzgeraldus"]  # the last: 24 characters


def narrow(renderable: RenderableType) -> list[str]:
    """The lines of ``renderable`` printed on a 40-column console without colour."""
    buf = io.StringIO()
    Console(file=buf, width=WIDTH, color_system=None).print(renderable)
    lines = buf.getvalue().splitlines()
    assert all(len(line) <= WIDTH for line in lines), lines
    assert not any("…" in line for line in lines), lines
    return lines


def on_one_line(lines: list[str], *pieces: str) -> None:
    """Each of ``pieces`` is within one line (not cut, not broken across lines)."""
    for piece in pieces:
        assert any(piece in line for line in lines), (piece, lines)


def number_in(line: str, n: int | str) -> bool:
    """``n`` is a whole number of ``line`` (no digit glued on either side)."""
    return re.search(rf"(?<![\d.]){re.escape(str(n))}(?![\d.])", line) is not None


def block(lines: list[str], name: str) -> str:
    """The lines of ``name``'s entry: from its name to the next seat's name (or the end)."""
    start = next(i for i, x in enumerate(lines) if name in x and "taken by" not in x)
    others = [n for n in NAMES if n != name]
    end = next(
        (i for i in range(start + 1, len(lines)) if any(n in lines[i] for n in others)),
        len(lines),
    )
    return " | ".join(lines[start:end])


def mid_game() -> GameState:
    """A 4-player match in its second round, after a row was taken."""
    state = new_game(Rules(players=4, match_games=3), 3)
    while state.round < 2 or state.decision != "turn":
        state.apply(state.legal_actions()[0])
    while not any(a.kind == "take" for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    state.apply(next(a for a in state.legal_actions() if a.kind == "take"))
    return state


def test_board_keeps_names_and_numbers_whole() -> None:
    state = mid_game()
    view = observe(state, 0).state
    lines = narrow(render.board(view, NAMES, viewer=0))
    on_one_line(lines, *NAMES, "medium", "expert", "to move", f"round {state.round}")
    on_one_line(lines, f"{state.cards_left()} cards", "game 1 of 3")
    scores = state.scores()
    for s, name in enumerate(NAMES):
        assert number_in(block(lines, name), scores[s]), block(lines, name)
        assert render.collection_text(view.coll[s], view.in_play).plain in "\n".join(lines)
    taker = next(s for s in range(4) if state.out[s])
    on_one_line(lines, f"taken by {NAMES[taker]}")
    took = next(r for r in range(state.nrows) if state.row_taker[r] == taker)
    on_one_line(lines, f"out (took row {took + 1})")


def test_hint_table_keeps_actions_percentages_and_intervals_whole() -> None:
    advice = [
        Advice(Action("place", 2), 0.523, 1.25, 1234, margin_sd=8.0),
        Advice(Action("place", 0), 0.31, -3.5, 800, margin_sd=9.0),
        Advice(Action("place", 4), 0.05, -12.04, 90, margin_sd=10.0),
        Advice(Action("place", 1), 1.0, 14.5, 12345),
    ]
    keys = {a.action: str(a.action.arg + 1) for a in advice}
    lines = narrow(hint_table(advice, keys))
    on_one_line(lines, "Hints (the advisor's estimate)", "95% intervals; search: mcts")
    for a in advice:
        words = render.describe(a.action)
        line = next(x for x in lines if words in x)
        assert line.lstrip().startswith(keys[a.action]), line
        assert number_in(line, a.samples), line
        win = f"{100 * a.win_prob:.0f}% [{100 * a.win_low:.0f}, {100 * a.win_high:.0f}]"
        margin = f"{a.margin:+.1f}"
        if a.margin_interval is not None:
            low, high = a.margin_interval
            margin += f" [{low:+.1f}, {high:+.1f}]"
        on_one_line(lines, win, margin)


def test_final_breakdown_and_match_table_keep_names_and_scores_whole() -> None:
    state = new_game(Rules(players=4), 1)
    coll = [0] * 10
    coll[3], coll[6], coll[4], coll[0], coll[JOKER], coll[PLUS2] = 6, 4, 3, 2, 1, 1
    for s in range(4):
        state.coll[s] = coll
    bds = [state.breakdown(s) for s in range(4)]
    lines = narrow(render.breakdown_table(bds, NAMES, title="Final scores", ranks=[1, 2, 3, 4]))
    on_one_line(lines, "Final scores", *NAMES, "[E]x6 +21", "[Y]x5 +15", "[O]x3 +6", "[B]x2 -3")
    on_one_line(lines, "1 -> [Y]")
    for s, name in enumerate(NAMES):
        entry = block(lines, name)
        assert number_in(entry, 41) and f"rank {s + 1}" in entry, entry
    games = [[31, 42, 17, 8], [25, 36, 44, 19], [12, 29, 33, 40], [50, 7, 22, 38], [9, 41, 27, 30]]
    totals = [sum(g[s] for g in games) for s in range(4)]
    lines = narrow(render.match_table(games, totals, NAMES))
    for s, name in enumerate(NAMES):
        entry = block(lines, name)
        for n in [*(g[s] for g in games), totals[s]]:
            assert number_in(entry, n), (n, entry)


def test_the_legend_never_splits_a_card_from_its_name() -> None:
    """At 40 and at 80 columns (a standard terminal, where ``[Y]`` and ``yellow`` used to
    be split across lines) every card stays beside its name."""
    state = new_game(Rules(players=4, edition="modern"), 1)
    pieces = ["[B] blue", "[N] brown", "[G] gray", "[E] green", "[O] orange", "[P] pink",
              "[Y] yellow", "[J] joker", "[*] golden joker", '[+] "+2"']
    on_one_line(narrow(render.legend(state)), *pieces)
    buf = io.StringIO()
    Console(file=buf, width=80, color_system=None).print(render.board(state, NAMES))
    lines = buf.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines)
    on_one_line(lines, *pieces)
