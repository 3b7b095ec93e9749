"""``coloretto show``: the view at the end of a record, text and ``--json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coloretto.agents import make_agent
from coloretto.arena.driver import start_game
from coloretto.cli.main import main
from coloretto.engine import Rules, load_game, observe
from coloretto.engine.actions import Action
from coloretto.engine.cards import CARD_NAMES, LETTERS
from coloretto.tui import render
from coloretto.tui.saving import session_record

from .records import record, write


def test_json_is_the_observation_of_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = record(cut=25)
    path = write(tmp_path, rec)
    state = load_game(rec).state
    for seat in range(4):  # --seat counts from 1, the JSON's "seat" from 0
        assert main(["show", path, "--seat", str(seat + 1), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out == json.loads(json.dumps(observe(state, seat).to_json()))
        assert out["format"] == "coloretto-observation/1" and out["seat"] == seat
    assert main(["show", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seat"] == state.to_move


def test_default_seat_of_a_finished_game_is_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, record(players=3, seed=2))
    assert main(["show", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 0 and out["decision"] == "over"


def test_text_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record(cut=30)
    state = load_game(rec).state
    assert main(["show", write(tmp_path, rec), "--seat", "3"]) == 0  # the third seat, p2
    text = capsys.readouterr().out
    assert f"round {state.round}" in text
    assert f"draw pile: {state.cards_left()} cards" in text
    for r in range(state.nrows):
        assert f"row {r + 1}" in text
    assert "p2 (this view)" in text
    assert "to decide" in text
    for s in range(4):
        assert f"p{s}" in text


def test_seat_1_is_the_first_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--seat 1`` shows the table as the first seat (p0 in the record) sees it: its view is
    marked, and its JSON observation is seat 0's."""
    rec = record(cut=30)
    path = write(tmp_path, rec)
    assert main(["show", path, "--seat", "1"]) == 0
    text = capsys.readouterr().out
    assert "p0 (this view)" in text and "(this view)" not in text.replace("p0 (this view)", "")
    assert main(["show", path, "--seat", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seat"] == 0


def test_text_view_of_finished_game_has_breakdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = record(seed=7)
    assert main(["show", write(tmp_path, rec)]) == 0
    text = capsys.readouterr().out
    assert "Final scores" in text and "positive" in text
    assert "Winner" in text or "Shared win" in text


def test_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record(cut=10)
    path = write(tmp_path, rec)
    for bad in ("0", "5", "-1"):
        assert main(["show", path, "--seat", bad]) == 2
        assert (
            f"--seat {bad} is not a seat of this 4-player game: seats are counted from 1, so "
            "--seat is 1 to 4" in capsys.readouterr().err
        )
    bad = json.loads(json.dumps(rec))
    bad["actions"][3]["seat"] = 99
    assert main(["show", write(tmp_path, bad, "bad.json")]) == 1
    assert "not a valid record at action 4 (actions[3] in the record)" in capsys.readouterr().err
    assert main(["show", write(tmp_path, {"format": "x"}, "hdr.json"), "--json"]) == 1
    assert capsys.readouterr().out == ""
    assert main(["show", str(tmp_path / "nope.json")]) == 2
    assert main(["show", write(tmp_path, "[1,", "trunc.json")]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_a_saved_pending_draw_is_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record saved between a draw and its placement (``coloretto play``): the drawn card
    waits for its row, and it is that seat's decision."""
    game = start_game(Rules(players=3), 4, ["Ann", "Bob", "Cy"])
    agents = [make_agent("random", seed=s) for s in range(3)]
    for agent, seat in zip(agents, range(3)):
        agent.reset(seat, game.state.rules)
    while len(game.entries) < 7 or Action("draw") not in game.state.legal_actions():
        st = game.state
        legal = st.legal_actions()
        game.play(agents[st.to_move].act(observe(st, st.to_move), legal) if legal[1:] else legal[0])
    seat = game.state.to_move
    game.play(Action("draw"))
    card = game.state.drawn
    rec = session_record(game, [seat], [None if s == seat else "random" for s in range(3)], 4)
    assert rec["actions"][-1] == {"seat": seat, "action": "draw", "card": CARD_NAMES[card]}
    path = write(tmp_path, rec)
    assert main(["show", path]) == 0
    text = capsys.readouterr().out
    name = game.seats[seat]
    assert f"{name} drew [{LETTERS[card]}] {render.CARD_LABELS[card]} and must place it." in text
    legal = ", ".join(render.describe(a) for a in game.state.legal_actions())
    assert f"{name} to decide: {legal}" in text and legal.startswith("place it in row ")
    assert main(["show", path, "--json", "--seat", str((seat + 1) % 3 + 1)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"] == "place" and out["drawn_card"] == CARD_NAMES[card]
    assert out["to_move"] == seat
    # without the unplaced draw the same record shows the turn before the draw
    rec["actions"].pop()
    assert main(["show", write(tmp_path, rec, "turn.json")]) == 0
    assert "must place it" not in capsys.readouterr().out


def test_names_are_whole_at_80_columns_and_shared_names_get_their_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record from the web names its computer seats alike (``computer:random``); at 80
    columns the final scores keep every name whole (wrapped, never cut with an ellipsis), and
    the winner line names the seat of a shared name."""
    monkeypatch.setenv("COLUMNS", "80")
    rec = record()
    rec["seats"] = ["Bartholomew-Fitzgeraldus", "computer:random", "computer:random", "computer:random"]
    winner = max(range(4), key=lambda s: rec["result"]["scores"][s])
    assert winner != 0  # the deal of seed 1: a computer seat wins
    assert main(["show", write(tmp_path, rec), "--seat", "1"]) == 0
    text = capsys.readouterr().out
    assert "…" not in text
    assert all(len(line) <= 80 for line in text.splitlines())
    assert f"Winner: seat {winner + 1} (computer:random) with" in text
