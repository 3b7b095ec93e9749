"""``coloretto simulate``: bad input exits 2; the --json report's shape; records."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
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
        (["--budget=-1s"], "positive, finite number of seconds"),
        (["--budget=0ms"], "positive, finite number of seconds"),
        (["--games", "100000000000000000000"], "--games must be at most 1,000,000,000"),
        (["--games", "1000000001"], "--games must be at most"),
        (["--on-engine-failure", "shrug"], "use 'forfeit' or 'fallback:AGENT'"),
        (["--on-engine-failure", "fallback:nobody"], "unknown agent 'nobody'"),
        (["--save-records", ""], "--save-records needs a directory name"),
        (["--agents", "ismcts@99999999999999999999999,greedy,random,random"], "at most 1,000,000,000 iterations"),
        (["--agents", "mcts@,greedy,random,random"], "no budget after '@'"),
        (["--budget", "1_000"], "use seconds"),
        (
            ["--agents", "cmd:no_such_program_xyz,greedy,random,random"],
            "agent 'cmd:no_such_program_xyz': program 'no_such_program_xyz' not found or not executable",
        ),
    ],
)
def test_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # a later --games in argv overrides the first (argparse keeps the last)
    assert main(["simulate", "--games", "2", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err


KNOWN_AGENTS = (
    "random, greedy, heuristic, mcts, mcts-v1, ismcts, ismcts-value, oracle, oracle-value, "
    "policy, easy, medium, hard, expert, policy:FILE, cmd:COMMAND"
)


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        ("foo", f"--agents: unknown agent 'foo'; known: {KNOWN_AGENTS}"),
        ("foo,random", f"--agents: unknown agent 'foo'; known: {KNOWN_AGENTS}"),
        ("random,foo@1s,random,random", f"--agents: unknown agent 'foo'; known: {KNOWN_AGENTS}"),
        ("random,hard@x,random,random", ("--agents: agent 'hard@x': budget 'x': use seconds "
         "('0.5s', '500ms'), CPU seconds ('0.5s-cpu') or iterations ('2000')")),
        ("random,random", "--agents names 2 agent(s) but --players is 4"),
        ("random,greedy,random,random,random", "--agents names 5 agent(s) but --players is 4"),
    ],
)
def test_an_unknown_agent_is_named_before_the_number_of_agents_is_counted(
    agents: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--games", "2", "--agents", agents]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"coloretto simulate: error: {message}\n"


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


def test_save_records_under_a_file_is_refused_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    for target in (blocker / "games", blocker / "a" / "b", blocker):
        assert main(["simulate", "--games", "3", "--save-records", str(target)]) == 2
        captured = capsys.readouterr()
        assert "--save-records" in captured.err and captured.out == ""
    assert blocker.read_text() == "x"


def test_save_records_makes_no_tree_of_directories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory is made only inside one that exists: a mistyped path is refused."""
    target = tmp_path / "typo" / "games"
    assert main(["simulate", "--games", "3", "--save-records", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.err.endswith(f"--save-records {target}: no directory {target.parent}\n")
    assert not (tmp_path / "typo").exists()
    assert main(["simulate", "--games", "3", "--save-records", str(tmp_path / "games"), "--json"]) == 0
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [
        "game-000001.json", "game-000002.json", "game-000003.json"
    ]


MINI = Path(__file__).resolve().parents[1] / "agents" / "engines" / "mini_engine.py"


def test_engine_failures_are_reported_and_the_run_completes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    crash = f"cmd:{sys.executable} {MINI} crash"
    argv = ["simulate", "--agents", f"{crash},random,random,random", "--games", "2", "--seed", "1"]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["on_engine_failure"] == "forfeit"
    assert report["forfeited_games"] == [0, 1]
    assert [(f["game"], f["seat"], f["kind"]) for f in report["failures"]] == [
        (0, 0, "exited"),
        (1, 0, "exited"),
    ]
    assert report["seats"][0]["forfeits"] == 2 and report["seats"][1]["forfeits"] == 0
    assert report["seats"][0]["win_share"]["mean"] == 0.0
    assert report["seats"][0]["mean_rank"]["mean"] == 4.0
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "2 engine failure(s), policy forfeit; 2 game(s) forfeited" in text
    # Counted from 1 for people: games 1 and 2 (indices 0 and 1), seat 1 (index 0).
    assert "game 1 seat 1" in text and "game 2 seat 1" in text and "exited" in text
    assert main([*argv, "--on-engine-failure", "fallback:random", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["forfeited_games"] == [] and len(report["failures"]) == 2
    assert {f["handling"] for f in report["failures"]} == {"fallback:random"}


def test_save_records_never_overwrites_a_run_s_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "recs"
    argv = ["simulate", "--players", "3", "--agents", "greedy,random,greedy", "--games", "3"]
    assert main([*argv, "--seed", "5", "--save-records", str(out)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert main([*argv, "--seed", "6", "--save-records", str(out)]) == 2
    err = capsys.readouterr().err
    assert "already holds records (game-000001.json and 2 more)" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_saved_records_get_the_permissions_of_a_new_file(tmp_path: Path) -> None:
    """Each record is written through a temporary file renamed into place, with the
    permissions ``open()`` gives a new file: 0666 less the umask (0644 under umask 022)."""
    proc = subprocess.run(
        [sys.executable, "-m", "coloretto", "simulate", "--games", "2", "--save-records", "recs"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
        preexec_fn=lambda: os.umask(0o022),
    )
    assert proc.returncode == 0, proc.stderr
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "recs").iterdir()}
    assert modes == {"game-000001.json": 0o644, "game-000002.json": 0o644}


def test_ctrl_c_says_no_report_and_where_the_records_are(tmp_path: Path) -> None:
    """Ctrl-C during a run: exit 130, one line saying no report is written and where the
    finished games' records are (they stay there, each a complete record)."""
    records = tmp_path / "recs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "coloretto", "simulate", "--games", "100000", "--seed", "1",
         "--agents", "heuristic,greedy,random,random", "--save-records", str(records)],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(records.glob("*.json"))) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert f"interrupted: no report; the finished games' records are in {records}" in err
    assert "Traceback" not in err
    first = min(records.glob("*.json"))
    assert main(["replay", str(first)]) == 0
