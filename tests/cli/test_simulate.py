"""``coloretto simulate``: bad input exits 2; the --json report's shape; records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coloretto.arena import simulate as sim
from coloretto.cli.main import main


@pytest.fixture(autouse=True)
def no_fast_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "fast_batch_module", lambda: None)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--agents", "greedy,nobody,random,random"], "unknown agent 'nobody'"),
        (["--agents", "greedy,random,random"], "3 agent(s) but --players is 4"),
        (
            ["--players", "3", "--agents", "greedy,random,random,random"],
            "4 agent(s) but --players is 3",
        ),
        (["--agents", "greedy,,random,random"], "empty"),
        (["--games", "0"], "--games must be positive"),
        (["--games", "-5"], "--games must be positive"),
        (["--workers", "0"], "--workers must be positive"),
        (["--preset", "nonsense"], "unknown preset"),
        (["--players", "6", "--agents", "random,random,random,random,random,random"], "players"),
        (["--budget", "fast"], "budget"),
    ],
)
def test_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # a later --games in argv overrides the first (argparse keeps the last)
    assert main(["simulate", "--games", "2", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err


def test_unparseable_number_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--games", "many"])
    assert exc.value.code == 2


def test_json_report_shape(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "--players",
        "4",
        "--agents",
        "greedy,random,random,random",
        "--games",
        "5",
        "--seed",
        "3",
        "--json",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    report = json.loads(out)
    assert report["games"] == 5 and report["seed"] == 3 and report["path"] == "engine"
    assert report["agents"] == ["greedy", "random", "random", "random"]
    assert report["rules"]["players"] == 4
    assert [s["seat"] for s in report["seats"]] == [0, 1, 2, 3]
    for entry in report["seats"] + report["by_agent"]:
        for key in ("win_share", "mean_score", "mean_rank"):
            est = entry[key]
            assert set(est) == {"mean", "ci95", "half_width", "sd", "n"}
            assert est["n"] == 5
            low, high = est["ci95"]
            assert low <= est["mean"] <= high
    assert [a["agent"] for a in report["by_agent"]] == ["greedy", "random"]
    assert report["by_agent"][1]["seats"] == [1, 2, 3]
    assert sum(s["win_share"]["mean"] for s in report["seats"]) == pytest.approx(1.0)
    # same seed, same report figures
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["seats"] == report["seats"]


def test_human_report_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "games"
    argv = [
        "simulate",
        "--agents",
        "random,random,greedy,random",
        "--games",
        "3",
        "--seed",
        "1",
        "--save-records",
        str(out_dir),
        "--table",
        "violet",
        "--edition",
        "modern",
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "per seat" in text and "per agent" in text and "win share" in text and "seed 1" in text
    assert "table violet" in text and "edition modern" in text
    records = sorted(out_dir.glob("game-*.json"))
    assert len(records) == 3
    assert json.loads(records[0].read_text())["rules"]["table"] == "violet"


def test_default_seed_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--players", "2", "--agents", "random,random", "--games", "2", "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert isinstance(report["seed"], int)
    assert report["by_agent"][0]["seats"] == [0, 1]
