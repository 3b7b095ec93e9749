"""``coloretto analyze``: a short record reviewed, bad records rejected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coloretto.agents import make_agent
from coloretto.arena.driver import play_out, start_game
from coloretto.cli.main import main
from coloretto.engine import Rules


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = start_game(Rules(players=2), 4, ["heuristic", "random"])
    play_out(game, [make_agent("heuristic", 0), make_agent("random", 1)])
    path = tmp_path_factory.mktemp("rec") / "game.json"
    path.write_text(json.dumps(game.to_record()))
    return path


def test_json_review(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(record_file), "--json", "--budget", "8", "--top", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    record = json.loads(record_file.read_text())
    assert out["scores"] == record["result"]["scores"]
    assert [s["seat"] for s in out["seats"]] == [0, 1]
    assert out["decisions"], "a game has decisions with a choice"
    for d in out["decisions"]:
        assert 0 <= d["action_index"] < len(record["actions"])
        assert 0.0 <= d["win_prob_loss"] <= 1.0
        assert d["win_prob_loss"] == pytest.approx(
            max(0.0, d["win_prob_best"] - d["win_prob_chosen"]), abs=1e-3
        )
    for s in out["seats"]:
        assert len(s["worst"]) <= 2
        losses = [d["win_prob_loss"] for d in s["worst"]]
        assert losses == sorted(losses, reverse=True)
        assert all(d["seat"] == s["seat"] for d in s["worst"])


def test_text_review(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(record_file), "--budget", "4"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (heuristic)" in out and "seat 1 (random)" in out


def test_invalid_record_exits_1(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(record_file.read_text())
    record["actions"][3]["seat"] = 1 - record["actions"][3]["seat"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main(["analyze", str(bad), "--budget", "4"]) == 1
    assert "action 3" in capsys.readouterr().err


def test_unreadable_and_bad_options_exit_2(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(tmp_path / "missing.json")]) == 2
    notjson = tmp_path / "x.json"
    notjson.write_text("{nope")
    assert main(["analyze", str(notjson)]) == 2
    assert main(["analyze", str(record_file), "--budget", "soon"]) == 2
    assert main(["analyze", str(record_file), "--top", "0"]) == 2
    assert "error" in capsys.readouterr().err
