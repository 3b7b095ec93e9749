"""The strength scripts of docs/strength.md at a tiny size: ``benchmarks/strength_runs.sh``
(one configuration, a few games, through the real ``coloretto tournament``) and
``benchmarks/level_latency.py`` (p50/p95 per level)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parents[2]
COLORETTO = str(Path(sys.executable).parent / "coloretto")


def _runs(
    tmp_path: Path,
    *runs: str,
    games: int = 4,
    checkpoints: Path | None = None,
    v1: str | None = None,
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        **({"V1": v1} if v1 else {}),
        **({"CHECKPOINTS": str(checkpoints)} if checkpoints else {}),
        "GAMES": str(games),
        "WORKERS": "1",
        "OUT": str(tmp_path),
        "COLORETTO": COLORETTO,
    }
    return subprocess.run(
        ["bash", str(ROOT / "benchmarks" / "strength_runs.sh"), *runs],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )


def test_a_strength_run_writes_its_result_files(tmp_path: Path) -> None:
    done = _runs(tmp_path, "heuristic-greedy-violet", "medium-easy")
    assert done.returncode == 0, done.stderr
    assert "== heuristic-greedy-violet done" in done.stdout and "load:" in done.stdout
    data = json.loads((tmp_path / "heuristic-greedy-violet.json").read_text())
    assert data["config"]["agents"] == ["heuristic", "greedy", "greedy", "greedy"]
    assert data["config"]["rules"]["table"] == "violet" and data["config"]["games"] == 4
    easy = json.loads((tmp_path / "medium-easy.json").read_text())
    assert easy["config"]["agents"] == ["medium", "easy", "easy", "easy"]
    assert easy["config"]["rules"]["table"] == "brown"
    assert (tmp_path / "medium-easy.csv").read_text().startswith("kind,entry,agent")


def test_with_checkpoints_a_run_given_again_goes_on_from_its_file(tmp_path: Path) -> None:
    ckpt = tmp_path / "ckpt"
    first = _runs(tmp_path, "medium-easy", checkpoints=ckpt)
    assert first.returncode == 0, first.stderr
    lines = (ckpt / "medium-easy.ckpt").read_text().splitlines()
    assert len(lines) == 1 + 4
    report = json.loads((tmp_path / "medium-easy.json").read_text())
    more = _runs(tmp_path, "medium-easy", games=8, checkpoints=ckpt)
    assert more.returncode == 0, more.stderr
    assert (ckpt / "medium-easy.ckpt").read_text().splitlines()[:5] == lines
    assert len((ckpt / "medium-easy.ckpt").read_text().splitlines()) == 1 + 8
    grown = json.loads((tmp_path / "medium-easy.json").read_text())
    assert grown["games"][:4] == report["games"] and len(grown["games"]) == 8


def test_the_reference_runs_with_its_cpu_time_budget(tmp_path: Path) -> None:
    """``expert`` against ``mcts-v1`` with a CPU-time budget, through the script and the real
    tournament (a 2-player run of 2 games, the reference at 20 ms of CPU per decision)."""
    script = (ROOT / "benchmarks" / "strength_runs.sh").read_text()
    assert 'V1="${V1:-mcts-v1@0.5s-cpu}"' in script
    done = _runs(tmp_path, "expert-v1-2p", games=2, v1="mcts-v1@0.02s-cpu")
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "expert-v1-2p.json").read_text())
    assert data["config"]["agents"] == ["expert", "mcts-v1@0.02s-cpu"]
    v1 = data["entries"][1]
    assert v1["games"] == 2 and v1["decisions"] > 0
    assert v1["seconds_per_decision"]["p95"] >= 0.02  # at least its CPU time, in wall time


def test_every_configuration_is_known_and_an_unknown_one_is_refused(tmp_path: Path) -> None:
    script = (ROOT / "benchmarks" / "strength_runs.sh").read_text()
    for run in (
        "expert-v1-4p",
        "expert-v1-3p",
        "expert-v1-5p",
        "expert-v1-violet",
        "expert-v1-modern",
        "expert-v1-2p",
        "oracle-expert",
        "oracle-v1-4p",
        "expert-hard",
        "expert-hard-2p",
    ):
        assert f"[{run}]=" in script
    done = _runs(tmp_path, "nonsense")
    assert done.returncode == 2 and "unknown run 'nonsense'" in done.stderr


def test_level_latency_prints_p50_and_p95_per_level() -> None:
    args = [
        sys.executable,
        str(ROOT / "benchmarks" / "level_latency.py"),
        "--games",
        "1",
        "--level",
        "easy=easy",
        "--level",
        "tiny=ismcts@20",
        "--json",
    ]
    out = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    assert set(out["levels"]) == {"easy", "tiny"}
    tiny = out["levels"]["tiny"]
    assert tiny["agent"] == "ismcts" and tiny["decisions"] > 0
    assert 0 < tiny["p50_s"] <= tiny["p95_s"] <= tiny["max_s"]
    assert 0 <= tiny["cpu_p50_s"] <= tiny["cpu_p95_s"] <= tiny["cpu_max_s"]
    bad = subprocess.run(
        [*args[:4], "--level", "oops"], check=False, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "NAME=SPEC" in bad.stderr


def _tournament(tmp_path: Path, agents: str, seed: int, name: str) -> Path:
    out = tmp_path / f"{name}.json"
    subprocess.run(
        [COLORETTO, "tournament", "--agents", agents, "--games", "8", "--seed", str(seed),
         "--workers", "1", "--quiet", "--json", str(out)],
        check=True, capture_output=True, text=True,
    )
    return out


def _paired(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "paired.py"), *args],
        check=False, capture_output=True, text=True,
    )


def test_paired_compares_two_runs_deal_for_deal(tmp_path: Path) -> None:
    """Two real runs on the same deals: each side's share is the tournament's own, and the
    difference is B minus A; runs on other deals or a file that is not a report are refused."""
    a = _tournament(tmp_path, "greedy,random,random,random", 1, "a")
    b = _tournament(tmp_path, "heuristic,random,random,random", 1, "b")
    done = _paired(str(a), str(b), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["deals"] == 2 and out["games"] == 8
    assert out["agents"] == ["greedy", "heuristic"]
    for side, path in (("a", a), ("b", b)):
        report = json.loads(path.read_text())
        assert out[side]["mean"] == pytest.approx(report["entries"][0]["win_share"]["mean"])
    assert out["difference"]["mean"] == pytest.approx(out["b"]["mean"] - out["a"]["mean"])
    text = _paired(str(a), str(b))
    assert text.returncode == 0 and "B - A:" in text.stdout and "2 deals in common" in text.stdout
    other = _tournament(tmp_path, "heuristic,random,random,random", 2, "other")
    refused = _paired(str(a), str(other))
    assert refused.returncode == 2 and "the runs differ in seed" in refused.stderr
    (tmp_path / "bad.json").write_text("{}")
    bad = _paired(str(a), str(tmp_path / "bad.json"))
    assert bad.returncode == 2 and "not a coloretto tournament report" in bad.stderr
    assert _paired(str(a), str(b), "--entry", "4").returncode == 2
