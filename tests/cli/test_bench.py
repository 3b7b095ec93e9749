"""``coloretto bench`` and the playout benchmark's policy (speed is never asserted here)."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import pytest

from coloretto.arena import bench
from coloretto.arena.bench import bench_choice, bench_playout, bench_rules, playout, run_limit_c
from coloretto.cli.main import main
from coloretto.engine import hash_seed, new_game
from coloretto.engine.actions import DRAW, PLACE0, TAKE0
from coloretto.engine.seeds import Rng, SmallChoices
from coloretto.engine.state import PLACE, TURN

HAS_CC = bench.find_compiler() is not None


def test_bench_choice_is_an_index_into_the_legal_codes() -> None:
    codes = [0, 8, 10]
    assert bench_choice(codes, lambda n: 0) == 0
    assert bench_choice(codes, lambda n: 1) == 8
    assert bench_choice(codes, lambda n: n - 1) == 10
    below = SmallChoices(Rng(1)).below
    picks = [bench_choice(codes, below) for _ in range(300)]
    assert set(picks) == set(codes)


@pytest.mark.parametrize("players", [4, 5, 2, 3])
def test_policy_plays_complete_legal_games(players: int) -> None:
    """The checked step-by-step policy loop: every choice legal (``apply`` checks), turns offer
    exactly {draw} U {take row r}, placements exactly rows; the unchecked ``playout`` reaches
    the same final state from the same seeds."""
    rules = bench_rules(players)
    assert rules.edition == "classic" and rules.table == "brown"
    for g in range(5):
        state = new_game(rules, hash_seed(3, g))
        below = SmallChoices(Rng(g)).below
        steps = 0
        while not state.is_over():
            codes = state.legal_codes()
            if state.phase == TURN:
                assert all(c == DRAW or TAKE0 <= c < TAKE0 + state.nrows for c in codes)
            else:
                assert state.phase == PLACE
                assert all(PLACE0 <= c < PLACE0 + state.nrows for c in codes)
            choice = bench_choice(codes, below)
            assert choice in codes
            state.apply(choice)  # checked: raises on an illegal action
            steps += 1
        assert state.last_round
        fast = playout(new_game(rules, hash_seed(3, g)), SmallChoices(Rng(g)).below)
        assert fast.is_over() and fast.totals() == state.totals()
        assert fast.to_dict() == state.to_dict()


def test_bench_playout_figures_are_deterministic_per_seed() -> None:
    a = bench_playout(4, 4, seed=7)
    b = bench_playout(4, 4, seed=7)
    assert set(a) >= {"players", "games", "seconds", "games_per_s", "mean_winner_score"}
    assert a["games"] == 4 and a["games_per_s"] > 0
    assert a["mean_winner_score"] == b["mean_winner_score"]
    with pytest.raises(ValueError):
        bench_playout(4, 0)


def test_cli_playout_without_limit_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "playout", "--players", "4", "--games", "3", "--no-limit", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 3 and report["players"] == 4
    assert isinstance(report["games_per_s"], float) and isinstance(
        report["mean_winner_score"], float
    )
    assert report["ratio"] is None and report["limit_games_per_s"] is None
    assert "--no-limit" in report["limit_note"]


def test_cli_playout_states_a_missing_default_limit_c(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the default location may be absent (a broken install): the figures come without a
    ratio."""
    monkeypatch.delenv(bench.LIMIT_C_ENV, raising=False)
    monkeypatch.setattr(bench, "LIMIT_C_DEFAULT", tmp_path / "no-such-dir" / "limit.c")
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "playout", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "games_per_s=" in out
    assert "not found" in out and "no ratio" in out and bench.LIMIT_C_ENV in out


def test_cli_playout_refuses_a_given_limit_c_that_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nowhere" / "limit.c"
    monkeypatch.delenv(bench.LIMIT_C_ENV, raising=False)
    assert main(["bench", "playout", "--games", "2", "--limit-c", str(missing)]) == 2
    captured = capsys.readouterr()
    assert f"--limit-c {missing}: no such file" in captured.err and captured.out == ""
    monkeypatch.setenv(bench.LIMIT_C_ENV, str(missing))
    assert main(["bench", "playout", "--games", "2"]) == 2
    assert f"{bench.LIMIT_C_ENV}={missing}: no such file" in capsys.readouterr().err
    # --no-limit looks for no file at all
    assert main(["bench", "playout", "--games", "2", "--no-limit", "--limit-c", str(missing)]) == 0


def test_cli_playout_three_players_has_no_limit_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "playout", "--players", "3", "--games", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ratio"] is None and "4 and 5 players" in report["limit_note"]


FAKE_LIMIT = r"""
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int games = atoi(argv[2]);
    printf("players=%d games=%d seconds=%.6f games_per_s=2000 mean_winner_score=27.00\n",
           atoi(argv[1]), games, games / 2000.0);
    return 0;
}
"""


@pytest.mark.skipif(not HAS_CC, reason="no C compiler on this machine")
def test_limit_c_is_compiled_run_and_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "limit.c"
    source.write_text(FAKE_LIMIT)
    lim = run_limit_c(source, 5, 1000)
    assert lim["games_per_s"] == 2000 and lim["games"] == 1000 and lim["mean_winner_score"] == 27.0
    assert lim["seconds"] == 0.5
    argv = [
        "bench",
        "playout",
        "--games",
        "2",
        "--limit-c",
        str(source),
        "--limit-games",
        "500",
        "--json",
    ]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    # run in two halves (250 games before, 250 after the engine), combined
    assert report["limit_runs_games_per_s"] == [2000, 2000]
    assert report["limit_games_per_s"] == pytest.approx(2000) and report["limit_games"] == 500
    assert report["limit_mean_winner_score"] == pytest.approx(27.0)
    assert report["ratio"] == pytest.approx(report["games_per_s"] / 2000)
    broken = tmp_path / "broken.c"
    broken.write_text("this is not C")
    with pytest.raises(bench.LimitUnavailable, match="compiling"):
        run_limit_c(broken, 4, 10)


@pytest.mark.skipif(not HAS_CC, reason="no C compiler on this machine")
@pytest.mark.parametrize("benchmark", [["playout", "--games", "2"], ["mcts", "--positions", "1", "--seconds", "0.05"]])
def test_a_named_limit_c_that_does_not_compile_is_refused_before_measuring(
    benchmark: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken.c"
    broken.write_text("this is not C\n")
    monkeypatch.delenv(bench.LIMIT_C_ENV, raising=False)
    assert main(["bench", *benchmark, "--limit-c", str(broken)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"--limit-c {broken}: compiling {broken} with " in captured.err and "failed" in captured.err
    monkeypatch.setenv(bench.LIMIT_C_ENV, str(broken))
    assert main(["bench", *benchmark]) == 2
    assert f"{bench.LIMIT_C_ENV}={broken}: compiling" in capsys.readouterr().err
    # --no-limit compiles nothing
    assert main(["bench", *benchmark, "--no-limit", "--json"]) == 0


ROUNDED_LIMIT = r"""
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int games = atoi(argv[2]);
    /* seconds printed as coarsely as a real run of a fraction of a second can be */
    printf("players=%d games=%d seconds=1.000 games_per_s=2000 mean_winner_score=27.00\n",
           atoi(argv[1]), games);
    return 0;
}
"""


@pytest.mark.skipif(not HAS_CC, reason="no C compiler on this machine")
def test_limit_rate_comes_from_its_printed_rates_and_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """limit.c's rate is its own printed games_per_s (not games over rounded seconds), and
    $COLORETTO_LIMIT_C names the file when --limit-c is not given."""
    source = tmp_path / "rounded.c"
    source.write_text(ROUNDED_LIMIT)
    monkeypatch.setenv(bench.LIMIT_C_ENV, str(source))
    assert bench.find_limit_c() == source and bench.find_limit_c("x.c") == Path("x.c")
    argv = ["bench", "playout", "--games", "2", "--limit-games", "500", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["limit_runs_games_per_s"] == [2000, 2000]
    assert report["limit_games_per_s"] == pytest.approx(2000)  # not 500 games / 2.000 s
    assert report["ratio"] == pytest.approx(report["games_per_s"] / 2000)


def test_limit_halves_combine_from_printed_rates_not_rounded_seconds() -> None:
    # 50000 games at 177951/s take 0.28098 s (printed 0.281), at 180064/s 0.27768 s (0.278)
    a = {"games": 50_000, "seconds": 0.281, "games_per_s": 177_951.0, "mean_winner_score": 27.0}
    b = {"games": 50_000, "seconds": 0.278, "games_per_s": 180_064.0, "mean_winner_score": 27.2}
    both = bench._combine(a, b)
    exact = 100_000 / (50_000 / 177_951 + 50_000 / 180_064)
    assert both["games_per_s"] == pytest.approx(exact, rel=1e-12)
    assert 177_951 < both["games_per_s"] < 180_064


def test_fast_without_fast_core_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench, "fast_bench_module", lambda: None)
    assert main(["bench", "playout", "--games", "2", "--fast", "--no-limit"]) == 2
    err = capsys.readouterr().err
    assert "bench playout --fast needs the fast extra" in err
    assert "pip install 'coloretto[fast]'" in err and "Traceback" not in err


def test_fast_reports_the_fast_core(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[int, int, int]] = []

    def fast_playout_bench(players: int, games: int, seed: int) -> dict[str, Any]:
        calls.append((players, games, seed))
        return {"games_per_s": 50000.0, "mean_winner_score": 27.1, "compile_seconds": 3.0}

    fake = types.SimpleNamespace(fast_playout_bench=fast_playout_bench)
    monkeypatch.setattr(bench, "fast_bench_module", lambda: fake)
    assert (
        main(["bench", "playout", "--games", "2", "--seed", "4", "--fast", "--no-limit", "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert calls == [(4, 2, 4)]
    assert report["fast"]["games_per_s"] == 50000.0 and report["fast"]["ratio"] is None
    assert main(["bench", "playout", "--games", "2", "--fast", "--no-limit"]) == 0
    assert "fast playout" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["playout", "--games", "0"],
        ["playout", "--players", "7"],
        ["playout", "--players", "1"],
        ["playout", "--limit-games", "0"],
        ["playout", "--games", "10000001", "--no-limit"],
        ["playout", "--games", "99999999999999999999", "--no-limit"],
        ["playout", "--games", "2", "--limit-games", "10000001"],
        ["score", "--seconds", "0"],
        ["score", "--seconds", "inf"],
        ["score", "--seconds", "nan"],
        ["score", "--seconds", "-1"],
        ["score", "--seconds", "3601"],
    ],
)
def test_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *argv]) == 2
    assert "error" in capsys.readouterr().err


def test_missing_benchmark_name_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench"])
    assert exc.value.code == 2


def test_cli_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "score", "--seconds", "0.2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["scorings_per_s"] > 0
    assert main(["bench", "score", "--seconds", "0.2"]) == 0
    assert "scorings_per_s=" in capsys.readouterr().out


def test_limit_c_location(monkeypatch: pytest.MonkeyPatch) -> None:
    """An explicit path is kept; by default limit.c is the copy shipped inside the package,
    so the yardstick is there after ``pip install`` too."""
    monkeypatch.delenv(bench.LIMIT_C_ENV, raising=False)
    assert bench.find_limit_c("x/limit.c") == Path("x/limit.c")
    shipped = bench.find_limit_c()
    assert shipped is not None and shipped.is_file() and shipped.name == "limit.c"
    assert shipped.parent.parent == Path(bench.__file__).resolve().parent
    assert "int main" in shipped.read_text(encoding="utf-8")


def test_limit_halves_combine_as_total_games_over_total_seconds() -> None:
    a = {"games": 100, "seconds": 1.0, "games_per_s": 100.0, "mean_winner_score": 27.0}
    b = {"games": 300, "seconds": 0.5, "games_per_s": 600.0, "mean_winner_score": 23.0}
    both = bench._combine(a, b)
    assert both["games"] == 400 and both["games_per_s"] == pytest.approx(400 / 1.5)
    assert both["mean_winner_score"] == pytest.approx(24.0)
