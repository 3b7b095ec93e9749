"""Options that other tests only pass in refused combinations (exit 2), here run for real
through the command line, each on a small job."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect
import pytest

from coloretto.cli.main import main
from coloretto.engine import replay
from coloretto.fastcore.cache import PARTS, is_warm

from .test_play import play_to_end, spawn


def test_play_with_removed_colours_and_row_capacities(tmp_path: Path) -> None:
    child = spawn(
        ["--players", "2", "--removed-colors", "gray,pink", "--row-capacities", "2,2,3",
         "--opponents", "greedy", "--seed", "8", "--save", "g.json"],
        tmp_path,
    )
    play_to_end(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["rules"]["row_capacities"] == [2, 2, 3]
    assert sorted(record["setup"]["removed_colors"]) == ["gray", "pink"]
    assert replay(record).valid


def test_simulate_with_a_preset_a_budget_and_a_failure_policy(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "2", "--preset", "modern", "--agents", "mcts,random",
            "--budget", "20", "--games", "2", "--seed", "4", "--on-engine-failure", "fallback:random", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["preset"] == "modern" and report["rules"]["edition"] == "modern"
    assert report["agents"] == ["mcts", "random"] and report["on_engine_failure"] == "fallback:random"
    assert report["games"] == 2 and not report["failures"]


def test_tournament_with_players_a_preset_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "games.jsonl"
    argv = ["tournament", "--players", "3", "--preset", "bga", "--agents", "greedy,random,random",
            "--games", "3", "--seed", "3", "--records", str(records), "--json", "--quiet"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["games"]) == 3
    lines = [json.loads(x) for x in records.read_text().splitlines()]
    assert len(lines) == 3 and all(replay(r).valid for r in lines)
    assert all(r["rules"]["players"] == 3 and r["setup"]["removed_colors"] == ["gray"] for r in lines)


def test_analyze_seed_gives_the_same_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Path(__file__).resolve().parents[1] / "data" / "records" / "legal_2p_round.json"
    runs = []
    for _ in range(2):
        assert main(["analyze", str(record), "--budget", "30", "--seed", "7", "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1]


def test_warmup_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["warmup", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["warm"] is True and report["kernels"] > 20 and report["seconds"] >= 0
    assert Path(report["cache_dir"]).is_dir() and Path(report["marker"]).is_file()
    # every part of the fast core is compiled (or loaded), the vector env's and self-play's too
    assert list(report["parts"]) == list(PARTS)
    assert all(part["warm"] and part["kernels"] >= 1 for part in report["parts"].values())
    assert sum(part["kernels"] for part in report["parts"].values()) == report["kernels"]
    assert all(is_warm(part) for part in PARTS)
