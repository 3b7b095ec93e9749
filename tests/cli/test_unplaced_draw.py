"""A record that ends with a draw waiting for its row (docs/record-format.md) is read by
every command: ``replay``, ``show``, ``perft`` and ``analyze`` (``play --resume`` is in
``test_play.py``); so is an old record that keeps the drawn card in ``pending_draw``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coloretto.cli.main import main
from coloretto.engine import Game, Rules, load_game, new_game, observe, perft
from coloretto.engine.actions import DRAW

from .records import write


def unplaced_draw_record(old_style: bool = False) -> dict[str, Any]:
    """A 3-player game stopped right after its seventh draw."""
    game = Game(new_game(Rules(players=3), 5), ["a", "b", "c"])
    draws = 0
    while True:
        codes = game.state.legal_codes()
        if DRAW in codes:
            game.play(DRAW)
            draws += 1
            if draws == 7:
                break
            game.play(game.state.legal_codes()[-1])
        else:
            game.play(codes[0])
    rec = json.loads(json.dumps(game.to_record()))
    assert "row" not in rec["actions"][-1]
    if old_style:
        tail = rec["actions"].pop()
        rec["pending_draw"] = {"seat": tail["seat"], "card": tail["card"]}
    return rec


@pytest.mark.parametrize("old_style", [False, True], ids=["draw-entry", "pending_draw"])
def test_every_command_reads_a_draw_waiting_for_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old_style: bool
) -> None:
    rec = unplaced_draw_record(old_style)
    path = write(tmp_path, rec)
    state = load_game(rec).state
    assert state.decision == "place"

    assert main(["replay", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is True and out["finished"] is False

    assert main(["show", path, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["decision"] == "place" and shown["drawn_card"] is not None
    assert shown == json.loads(json.dumps(observe(state, state.to_move).to_json()))

    assert main(["perft", path, "--depth", "2", "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert counted["decision"] == "place" and counted["nodes"] == perft(state, 2)

    assert main(["analyze", path, "--json", "--budget", "40"]) == 0
    analysis = json.loads(capsys.readouterr().out)
    last = max(d["action_index"] for d in analysis["decisions"])
    assert last <= len(rec["actions"]) - 1


def test_a_draw_without_row_before_the_end_is_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = Game(new_game(Rules(players=3), 5), ["a", "b", "c"])
    while not full.state.is_over():
        full.play(full.state.legal_codes()[0])
    rec = json.loads(json.dumps(full.to_record()))
    first_draw = next(i for i, e in enumerate(rec["actions"]) if e["action"] == "draw")
    del rec["actions"][first_draw]["row"]
    assert main(["replay", write(tmp_path, rec), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and out["action_index"] == first_draw
    assert "may only be the last action" in out["error"]
