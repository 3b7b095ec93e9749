"""``coloretto perft``: counts checked against an independent count made here from
``legal_actions`` and checked transitions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coloretto.cli.main import main
from coloretto.engine import GameState, load_game

from .records import record, write


def sequences(state: GameState, depth: int) -> int:
    """Legal action sequences of length ``depth``: a draw followed by its placement is one
    action per row choice (the card comes from the record's draw pile)."""
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        after = state.child(action)
        if action.kind == "draw":
            for place in after.legal_actions():
                total += sequences(after.child(place), depth - 1)
        else:
            total += sequences(after, depth - 1)
    return total






CASES = [
    pytest.param({"seed": 1, "cut": 0}, id="start-4p"),
    pytest.param({"seed": 2, "cut": 17}, id="mid-4p"),
    pytest.param({"seed": 3, "cut": 40, "players": 2}, id="mid-2p"),
    pytest.param({"seed": 4, "cut": 55, "players": 5, "edition": "modern"}, id="mid-5p-modern"),
    pytest.param({"seed": 5, "cut": 1, "players": 3, "starting_cards": "choose"}, id="choose-3p"),
]


@pytest.mark.parametrize("kwargs", CASES)
def test_counts_match_independent_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kwargs: dict[str, Any]
) -> None:
    rec = record(**kwargs)
    state = load_game(rec).state
    assert main(["perft", write(tmp_path, rec), "--depth", "3", "--json", "--divide"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["depth"] == 3
    expected = [sequences(state, d) for d in (1, 2, 3)]
    assert [row["nodes"] for row in out["per_depth"]] == expected
    assert [row["depth"] for row in out["per_depth"]] == [1, 2, 3]
    assert out["nodes"] == expected[-1]
    assert sum(row["nodes"] for row in out["divide"]) == expected[-1]
    assert len(out["divide"]) == expected[0]
    assert out["actions_in_record"] == len(rec["actions"])


def test_depth_one_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At the first turn of a game every row is empty: the only action is to draw, placed in
    any of the rows, so depth 1 is the number of rows."""
    rec = record(seed=8, cut=0, players=5)
    assert main(["perft", write(tmp_path, rec), "--depth", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 5


def test_finished_game_and_depth_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, record(seed=9, cut=None))
    assert main(["perft", path, "--depth", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 0 and out["decision"] == "over"
    assert main(["perft", path, "--depth", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 1


def test_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record(seed=10, cut=12)
    state = load_game(rec).state
    assert main(["perft", write(tmp_path, rec), "--depth", "2", "--divide"]) == 0
    text = capsys.readouterr().out
    assert "depth 1:" in text and "depth 2:" in text
    assert f"nodes: {sequences(state, 2)}" in text
    assert "divide" in text


def test_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record(seed=11, cut=5)
    path = write(tmp_path, rec)
    assert main(["perft", path, "--depth", "-1"]) == 2
    assert "--depth" in capsys.readouterr().err
    assert main(["perft", path, "--depth", "99999999999"]) == 2
    assert "--depth must be 0 to 12, not 99999999999" in capsys.readouterr().err
    bad = json.loads(json.dumps(rec))
    bad["actions"][2]["action"] = "jump"
    assert main(["perft", write(tmp_path, bad, "bad.json"), "--depth", "1"]) == 1
    assert "not a valid record" in capsys.readouterr().err
    assert main(["perft", str(tmp_path / "missing.json"), "--depth", "1"]) == 2
    assert main(["perft", write(tmp_path, "nope", "n.json"), "--depth", "1", "--json"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["perft", path])  # --depth is required
    assert exc.value.code == 2


def test_finished_game_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, record(seed=9, cut=None))
    assert main(["perft", path, "--depth", "1"]) == 0
    text = capsys.readouterr().out
    assert "the game is over" in text
    assert "seat -1" not in text and "to move" not in text
    assert main(["perft", path, "--depth", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["to_move"] == -1  # the JSON keeps the engine's


def test_divide_counts_rows_from_1_in_text_and_0_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = record(seed=8, cut=0, players=5)
    state = load_game(rec).state
    path = write(tmp_path, rec)
    assert main(["perft", path, "--depth", "1", "--divide", "--json"]) == 0
    divide = json.loads(capsys.readouterr().out)["divide"]
    assert [d["action"]["row"] for d in divide] == [0, 1, 2, 3, 4]
    card = divide[0]["action"]["card"]
    assert all(d["action"] == {"action": "draw", "card": card, "row": r} for r, d in enumerate(divide))
    assert [d["text"] for d in divide] == [f"draw {card} -> row {r}" for r in range(1, 6)]
    assert main(["perft", path, "--depth", "1", "--divide"]) == 0
    text = capsys.readouterr().out
    assert f"seat {state.to_move + 1} to move" in text
    for r in range(1, 6):
        assert f"draw {card} -> row {r} " in text
    assert "row 0" not in text
