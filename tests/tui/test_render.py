"""Rendering: letters always, colours when the console has them, rows, collections and the
score breakdown."""

from __future__ import annotations

import io

from rich.console import Console

from coloretto.engine import Rules, new_game
from coloretto.engine.actions import Action
from coloretto.engine.cards import COLORS, JOKER, LETTERS, PLUS2
from coloretto.engine.observation import observe
from coloretto.tui import render


def text_of(renderable: object, color: bool = False, width: int = 120) -> str:
    buf = io.StringIO()
    console = Console(
        file=buf, width=width, force_terminal=color, color_system="standard" if color else None
    )
    console.print(renderable)
    return buf.getvalue()


def test_cards_have_letters_and_colours() -> None:
    for code, letter in enumerate(LETTERS):
        plain = text_of(render.card(code))
        assert plain.strip() == f"[{letter}]"
        assert "\x1b[" not in plain
        assert "\x1b[" in text_of(render.card(code), color=True)
    assert len(set(LETTERS)) == len(LETTERS)  # one letter per card kind, no ambiguity


def test_row_text_capacity_free_places_and_taker() -> None:
    state = new_game(Rules(players=2), 1)
    state.apply(Action("draw"))
    state.apply(Action("place", 2))
    names = ["Ann", "Bob"]
    card = state.rows[2][0]
    assert render.row_text(state, 2, names).plain == f"[{LETTERS[card]}][ ][ ] (3)"
    assert render.row_text(state, 0, names).plain == "[ ] (1)"
    taker = state.to_move
    state.apply(Action("take", 2))
    assert render.row_text(state, 2, names).plain == f"taken by {names[taker]}"


def test_collection_grouped_by_colour() -> None:
    coll = [0] * 10
    coll[3] = 3  # green
    coll[0] = 1  # blue
    coll[JOKER] = 1
    coll[PLUS2] = 2
    assert render.collection_text(coll, range(7)).plain == "[B] [E][E][E] [J] [+][+]"
    assert render.collection_text([0] * 10, range(7)).plain == "-"


def test_board_shows_everything_a_player_needs() -> None:
    state = new_game(Rules(players=4, match_games=2), 3)
    while not state.last_round or state.decision != "turn":
        state.apply(state.legal_actions()[0])
    view = observe(state, 1).state
    names = ["Ann", "Bob", "Cy", "Di"]
    out = text_of(render.board(view, names, viewer=1))
    assert f"round {state.round}" in out and "game 1 of 2" in out
    assert f"draw pile: {state.cards_left()} cards" in out
    assert "LAST ROUND" in out
    lines = out.splitlines()
    for s, name in enumerate(names):
        line = next(x for x in lines if f" {name} " in x)
        assert f" {state.scores()[s]} " in line
    assert "Bob (you)" in out
    assert "match" in out and "to move" in out
    for c in state.in_play:
        assert f"[{LETTERS[c]}] {COLORS[c]}" in out  # the legend


def test_breakdown_of_rulebook_example() -> None:
    """docs/rules.md §6: green 6, yellow 4, orange 3, blue 2, one joker, one "+2" = 41 (joker to
    yellow)."""
    state = new_game(Rules(players=4), 1)
    coll = [0] * 10
    coll[3], coll[6], coll[4], coll[0], coll[JOKER], coll[PLUS2] = 6, 4, 3, 2, 1, 1
    state.coll[0] = coll
    bd = state.breakdown(0)
    out = text_of(render.breakdown_table([bd], ["Ann"]))
    assert bd.total == 41
    assert "[E]x6 +21" in out and "[Y]x5 +15" in out and "[O]x3 +6" in out
    assert "[B]x2 -3" in out
    assert "1 -> [Y]" in out
    assert "+2" in out and "41" in out


def test_winners_text() -> None:
    names = ["Ann", "Bob", "Cy"]
    assert render.winners_text([1], [3, 9, 4], names).plain == "Winner: Bob with 9 points"
    assert (
        render.winners_text([0, 2], [7, 5, 7], names).plain
        == "Shared win: Ann, Cy with 7 points each"
    )


def test_score_table_in_use_is_shown_with_the_board() -> None:
    """The brown and violet tables of docs/rules.md §6, with the scoring extra cards."""
    brown, violet = [1, 3, 6, 10, 15, 21], [1, 4, 8, 7, 6, 5]
    cases = [
        ({}, "brown", brown, ""),
        ({"table": "violet"}, "violet", violet, ""),
        ({"extra_card": "single_three"}, "brown, extra card single_three", [3, *brown[1:]], ""),
        (
            {"table": "violet", "extra_card": "triple_three"},
            "violet, extra card triple_three",
            [1, 4, 2, 7, 6, 5],
            "",
        ),
        (
            {"table": "violet", "extra_card": "triple_minus"},
            "violet, extra card triple_minus",
            violet,
            "; negative colours count 3 times",
        ),
        ({"extra_card": "first_out_draws"}, "brown", brown, ""),
    ]
    for options, name, values, tail in cases:
        rules = Rules(players=4, **options)  # type: ignore[arg-type]
        pairs = "  ".join(f"{n}{'+' if n == 6 else ''}:{v}" for n, v in enumerate(values, 1))
        expected = (
            f"Score table ({name}), points per colour by number of cards:  {pairs}; "
            f'"+2" card: 2{tail}'
        )
        assert render.score_table_text(rules).plain == expected
        board = text_of(render.board(new_game(rules, 1), ["A", "B", "C", "D"], viewer=0), width=200)
        assert expected in board


def test_the_examples_in_render_pass() -> None:
    import doctest

    from coloretto.tui import render as module

    result = doctest.testmod(module, verbose=False)
    assert result.attempted >= 1 and result.failed == 0
