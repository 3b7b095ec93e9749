"""``coloretto simulate --seed S``: the fast path and ``--engine-only`` play the same games,
so their whole JSON reports agree (timing and the path's name aside)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from coloretto.cli.main import main

PATH_FIELDS = ("seconds", "games_per_s", "path", "path_note")
"""What may differ between the two paths: the timing and which path ran."""


def report(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main(["simulate", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def without_path(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in PATH_FIELDS}


CASES = [
    ["--players", "2", "--agents", "random,greedy", "--games", "40", "--seed", "1"],
    [
        "--players",
        "3",
        "--agents",
        "greedy,easy,random",
        "--edition",
        "modern",
        "--games",
        "30",
        "--seed",
        "2",
    ],
    ["--players", "4", "--agents", "random,random,random,random", "--games", "40", "--seed", "3"],
    [
        "--players",
        "4",
        "--agents",
        "easy,greedy,random,random",
        "--table",
        "violet",
        "--games",
        "25",
        "--seed",
        "4",
    ],
    [
        "--players",
        "5",
        "--agents",
        "greedy,random,easy,random,greedy",
        "--edition",
        "modern",
        "--games",
        "20",
        "--seed",
        "5",
    ],
    [
        "--players",
        "3",
        "--preset",
        "abacus2003",
        "--agents",
        "random,greedy,random",
        "--games",
        "10",
        "--seed",
        "-6",
    ],
    ["--players", "4", "--games", "30", "--seed", "7", "--workers", "2"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_fast_and_engine_only_reports_agree(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    fast = report(capsys, argv)
    engine = report(capsys, [*argv, "--engine-only"])
    assert fast["path"] == "fastcore-batch" and fast["path_note"] == ""
    assert engine["path"] == "engine" and engine["path_note"] == "engine path forced"
    assert set(fast) == set(engine)
    assert without_path(fast) == without_path(engine)
    assert 0 < fast["seats"][0]["win_share"]["mean"] < 1  # real games were played


def test_the_installed_command_agrees_both_ways() -> None:
    """The ``coloretto`` program itself, as a person runs it."""
    exe = str(Path(sys.executable).with_name("coloretto"))
    argv = [
        exe,
        "simulate",
        "--players",
        "3",
        "--agents",
        "greedy,random,easy",
        "--games",
        "25",
        "--seed",
        "11",
        "--json",
    ]
    runs = [
        subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
        for cmd in (argv, [*argv, "--engine-only"])
    ]
    fast, engine = (json.loads(r.stdout) for r in runs)
    assert (fast["path"], engine["path"]) == ("fastcore-batch", "engine")
    assert without_path(fast) == without_path(engine)
