"""``coloretto analyze``: a short record reviewed, mistakes told from noise (samples,
intervals, merged equivalent actions, reproducible reports), bad records rejected."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from coloretto.agents import Budget, make_agent
from coloretto.arena.driver import play_out, start_game
from coloretto.cli.analyze import DEFAULT_BUDGET
from coloretto.cli.main import main
from coloretto.engine import Rules, observe


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
    # the strongest installed search made every estimate
    assert out["evaluator"] == "ismcts-value"
    assert {d["evaluator"] for d in out["decisions"]} == {"ismcts-value"}


def test_the_evaluator_can_be_chosen(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("mcts", "ismcts"):
        args = ["analyze", str(record_file), "--budget", "8", "--evaluator", name]
        assert main([*args, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["evaluator"] == name
        assert {d["evaluator"] for d in out["decisions"]} == {name}
    assert main(["analyze", str(record_file), "--budget", "8", "--evaluator", "ismcts"]) == 0
    assert "evaluator ismcts" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit) as bad:
        main(["analyze", str(record_file), "--evaluator", "oracle"])
    assert bad.value.code == 2


def test_text_review(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(record_file), "--budget", "4"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (heuristic)" in out and "seat 2 (random)" in out  # seats counted from 1


def test_invalid_record_exits_1(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(record_file.read_text())
    record["actions"][3]["seat"] = 1 - record["actions"][3]["seat"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main(["analyze", str(bad), "--budget", "4"]) == 1
    assert "action 4 (actions[3] in the record)" in capsys.readouterr().err


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


@pytest.fixture(scope="module")
def four_player_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    specs = ["heuristic", "random", "greedy", "random"]
    game = start_game(Rules(players=4), 5, specs)
    play_out(game, [make_agent(s, i) for i, s in enumerate(specs)])
    path = tmp_path_factory.mktemp("rec4") / "game4.json"
    path.write_text(json.dumps(game.to_record()))
    return path


@pytest.fixture(scope="module")
def four_player_review(four_player_file: Path) -> dict[str, Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        args = ["analyze", str(four_player_file), "--json", "--budget", "60"]
        assert main([*args, "--evaluator", "mcts"]) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def test_the_same_record_seed_and_budget_give_the_same_report(
    four_player_file: Path, four_player_review: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["analyze", str(four_player_file), "--json", "--budget", "60"]
    assert main([*args, "--evaluator", "mcts"]) == 0
    assert json.loads(capsys.readouterr().out) == four_player_review
    assert four_player_review["reproducible"] is True


def test_the_default_budget_counts_samples_not_seconds() -> None:
    budget = Budget.parse(DEFAULT_BUDGET)
    assert budget.iterations is not None and budget.seconds is None


def test_each_estimate_has_samples_and_an_interval(four_player_review: dict[str, Any]) -> None:
    decisions = four_player_review["decisions"]
    assert decisions
    for d in decisions:
        for key in ("chosen", "best"):
            n = d[f"samples_{key}"]
            assert n >= 60 // d["distinct"]
            low, high = d[f"win_prob_{key}_ci95"]
            assert 0.0 <= low <= d[f"win_prob_{key}"] <= high <= 1.0
            m_low, m_high = d[f"margin_{key}_ci95"]
            assert m_low <= d[f"margin_{key}"] <= m_high
        assert d["distinct"] >= 2  # a decision whose actions all lead to one position is none
        assert d["distinct"] <= d["legal"]


def test_mistakes_are_exactly_the_losses_outside_the_noise(
    four_player_review: dict[str, Any],
) -> None:
    decisions = four_player_review["decisions"]
    for d in decisions:
        chosen_high = d["win_prob_chosen_ci95"][1]
        best_low = d["win_prob_best_ci95"][0]
        if d["same_as_best"]:
            assert d["win_prob_loss"] == 0.0 and not d["mistake"]
        elif d["mistake"]:
            assert chosen_high < best_low
        else:
            assert chosen_high >= best_low - 1e-4  # rounding of the printed ends
    for s in four_player_review["seats"]:
        assert s["mistakes"] == sum(
            1 for d in decisions if d["seat"] == s["seat"] and d["mistake"]
        )
        assert all(d["mistake"] for d in s["worst"])
    # Not vacuous: this game has both a mistake and a choice among equivalent rows.
    assert any(d["mistake"] for d in decisions)
    merged = [d for d in decisions if d["same_as_best"] and d["chosen_action"] != d["best_action"]]
    assert merged and all("(same as rows" in d["chosen"] for d in merged)


def test_text_shows_samples_intervals_and_numbers_from_1(
    four_player_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["analyze", str(four_player_file), "--budget", "60", "--top", "1"]
    assert main([*args, "--evaluator", "mcts"]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    assert "whole 95% interval for the win chance lies below the best action's" in flat
    assert "60 samples per decision" in out
    for seat in range(1, 5):
        assert f"seat {seat} (" in out
    assert "seat 0" not in out
    assert "n=" in out and "win " in out and "margin " in out and "% [" in out
    assert "row 0" not in out


def test_progress_bar_on_a_terminal_only(four_player_file: Path) -> None:
    """A person at a terminal sees a progress bar on standard error; --json never shows
    one (pexpect gives the command a real terminal)."""
    import pexpect

    argv = ["-m", "coloretto.cli.main", "analyze", str(four_player_file), "--budget", "30"]
    child = pexpect.spawn(sys.executable, argv, encoding="utf-8", timeout=120, dimensions=(40, 120))
    child.expect("analysing actions")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    child = pexpect.spawn(
        sys.executable, [*argv, "--json"], encoding="utf-8", timeout=120, dimensions=(40, 120)
    )
    child.expect(pexpect.EOF)
    text = child.before
    child.close()
    assert child.exitstatus == 0
    assert "analysing" not in text
    assert json.loads(text)["decisions"]


def test_counts_agree_with_their_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A seat that made one decision has "1 decision" (an unfinished game stopped there)."""
    game = start_game(Rules(players=2), 4, ["greedy", "random"])
    random_player = make_agent("random", 1)
    random_player.reset(1, game.state.rules)
    chosen = 0
    while chosen < 1:
        st = game.state
        legal = st.legal_actions()
        if st.to_move == 1 and len(legal) > 1:
            chosen += 1
        game.play(legal[0] if st.to_move == 0 else random_player.act(observe(st, 1), legal))
    path = tmp_path / "short.json"
    path.write_text(json.dumps(game.to_record()))
    assert main(["analyze", str(path), "--budget", "4"]) == 0
    out = capsys.readouterr().out
    assert "seat 2 (random): 1 decision, " in out, out
    assert " 1 decisions" not in out


def test_a_budget_too_large_is_refused(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The compiled search counts iterations in 64 bits: a larger budget is refused at once,
    with the largest accepted, never an overflow in the middle of the review."""
    assert main(["analyze", str(record_file), "--budget", "99999999999999999999999"]) == 2
    assert "at most 1,000,000,000 iterations" in capsys.readouterr().err
