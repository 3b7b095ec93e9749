"""``coloretto bench mcts``: the compiled search's speed benchmark (speed never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numba")

from coloretto.arena import bench
from coloretto.arena.bench_search import search_positions
from coloretto.cli.main import main

HAS_CC = bench.find_compiler() is not None


def test_positions_are_fixed_decisions_with_a_choice() -> None:
    a = search_positions(4, 6)
    b = search_positions(4, 6)
    assert [s.to_dict() for s in a] == [s.to_dict() for s in b]
    assert all(len(s.legal_codes()) > 1 and s.n == 4 for s in a)
    with pytest.raises(ValueError, match="positive"):
        search_positions(4, 0)


@pytest.mark.skipif(not HAS_CC, reason="no C compiler for limit.c")
def test_json_report_with_limit_c(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "mcts", "--positions", "2", "--seconds", "0.05", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["players"] == 4 and r["positions"] == 2 and r["policy"] == "hybrid"
    assert r["evaluation"] == "rollout"
    assert r["iterations"] > 0 and r["iterations_per_s"] > 0
    assert len(r["per_position_iterations_per_s"]) == 2
    assert r["limit_games_per_s"] > 0 and r["limit_games"] == 100_000 and r["limit_note"] is None


def test_text_report_with_the_reference_and_the_value(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "mcts", "--positions", "1", "--seconds", "0.05", "--no-limit"]
    assert main([*argv, "--reference", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "compiled search: players=3" in out and "reference search (mcts-v1)" in out
    assert "limit.c: not measured" in out
    assert main([*argv, "--evaluation", "value", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["evaluation"] == "value" and r["iterations"] > 0
    assert main([*argv, "--evaluation", "heuristic_round_value", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["evaluation"] == "heuristic_round_value" and r["iterations"] > 0


def test_every_leaf_evaluation_is_offered_by_its_compiled_code() -> None:
    """The command line's names (NumPy-free) are the compiled search's, a name's position
    its code."""
    from coloretto.agents.compiled_names import LEAF_EVALUATIONS
    from coloretto.fastcore.search import EVALUATIONS

    assert {name: i for i, name in enumerate(LEAF_EVALUATIONS)} == EVALUATIONS


def test_the_compiled_names_examples_pass() -> None:
    import doctest

    from coloretto.agents import compiled_names

    result = doctest.testmod(compiled_names, verbose=False)
    assert result.attempted == 2 and result.failed == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "7"],
        ["--seconds", "0"],
        ["--seconds", "nan"],
        ["--positions", "0"],
        ["--limit-c", "/no/such/limit.c"],
    ],
)
def test_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "mcts", *argv]) == 2
    assert "error" in capsys.readouterr().err


def test_unknown_evaluation_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench", "mcts", "--evaluation", "minimax"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'minimax'" in err and "heuristic_round_value" in err


def test_limit_c_given_for_three_players_is_stated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "mcts", "--positions", "1", "--seconds", "0.02", "--players", "3", "--json"]
    assert main(argv) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["limit_games_per_s"] is None and "4 and 5" in r["limit_note"]
