"""Tests of ``coloretto score`` (docs/rules.md §6 for people at a physical table)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from coloretto.cli.main import main

DATA = Path(__file__).parents[1] / "data" / "scoring-cases.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))
RULEBOOK = ["green=6", "yellow=4", "red=3", "blue=2", "joker=1", "plus2=1"]


def run(argv: list[str]) -> int:
    """Exit status of ``coloretto argv``, whether returned or raised by argparse."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2


def score_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert run(["score", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    data: dict[str, Any] = json.loads(out)
    return data


def test_rulebook_example_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(RULEBOOK, capsys)
    assert data["total"] == 41
    assert data["positive"] == {"green": 21, "yellow": 15, "red": 6}
    assert data["negative"] == {"blue": -3}
    assert data["jokers"] == {"yellow": 1}
    assert data["plus2"] == 2
    assert data["counts"] == {"green": 6, "yellow": 5, "red": 3, "blue": 2}
    assert data["total"] == sum(data["positive"].values()) + sum(data["negative"].values()) + 2


def test_violet_example_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json([*RULEBOOK, "--table", "violet"], capsys)
    assert data["total"] == 20
    assert data["jokers"] == {"blue": 1}
    assert data["negative"] == {"green": -5}
    assert data["table"] == "violet"


def test_options_before_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["score", "--json", "--table", "gray", *RULEBOOK]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 20


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scoring_cases(case: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    argv = [f"{label}={n}" for label, n in case["cards"].items()]
    data = score_json([*argv, "--table", case["table"]], capsys)
    assert data["total"] == case["total"]


def test_joker_to_an_unnamed_colour(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(["green=6", "yellow=6", "joker=1"], capsys)
    assert data["total"] == 43
    assert data["jokers"] == {"another colour": 1}
    assert data["positive"] == {"green": 21, "yellow": 21, "another colour": 1}
    assert data["counts"]["another colour"] == 1


def test_two_unnamed_colours_and_golden_joker(capsys: pytest.CaptureFixture[str]) -> None:
    # Two jokers on one new colour (3 points) beat two new 1-card colours (1 + 1).
    data = score_json(["joker=1", "golden_joker=1"], capsys)
    assert data["total"] == 3
    assert data["jokers"] == {"another colour": 2}
    data = score_json(
        ["a=6", "b=6", "c=6", "d=1", "e=1", "f=1", "g=1", "joker=1", "--extra", "triple_minus"],
        capsys,
    )
    # Seven colours named: the joker goes to a full colour, where it changes nothing.
    assert "another colour" not in data["counts"]
    assert data["jokers"] == {"a": 1}
    assert data["total"] == 63 - 3 * 4


def test_empty_collection(capsys: pytest.CaptureFixture[str]) -> None:
    assert score_json([], capsys)["total"] == 0
    assert run(["score"]) == 0
    assert "total" in capsys.readouterr().out


def test_extra_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert score_json(["green=1", "--extra", "single_three"], capsys)["total"] == 3
    assert score_json(["green=3", "--extra", "triple_three"], capsys)["total"] == 2
    data = score_json([*RULEBOOK, "--extra", "triple_minus"], capsys)
    assert data["negative"] == {"blue": -9}
    assert data["total"] == 35
    assert data["extra"] == "triple_minus"


def test_labels_are_free_words(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(["Rot=3", "bleu=2", "Plus2=2"], capsys)
    assert data["positive"] == {"Rot": 6, "bleu": 3}
    assert data["plus2"] == 4


def test_text_output_explains(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["score", *RULEBOOK]) == 0
    out = capsys.readouterr().out
    assert "41" in out
    assert "brown table" in out
    for word in ("green", "yellow", "red", "blue", "+21", "+15", "-3", '"+2"', "joker to yellow"):
        assert word in out, word
    assert "\x1b[" not in out  # no escape codes when not on a terminal


@pytest.mark.parametrize(
    "argv, message",
    [
        (["green"], "expected LABEL=N"),
        (["green=x"], "not a non-negative integer"),
        (["green=-1"], "not a non-negative integer"),
        (["green=1.5"], "not a non-negative integer"),
        (["green="], "not a non-negative integer"),
        (["=3"], "label"),
        (["green=1", "Green=2"], "given twice"),
        (["joker=1", "joker=1"], "given twice"),
        ([f"c{i}=1" for i in range(8)], "at most 7"),
        (["joker=3", "golden_joker=1"], "jokers"),
        (["golden_joker=2"], "one golden joker"),
        (["green=10"], "a colour has 9 cards"),
        (["Rot=4", "bleu=12"], "a colour has 9 cards"),
        (["green=" + "9" * 5000], "a colour has 9 cards"),
        (["plus2=11"], '10 "+2" cards'),
        (["plus2=1000"], '10 "+2" cards'),
        (["joker=4"], "at most 3 jokers"),
        (["green=3", "last_round=1"], "Last Round card never scores"),
        (["Last_Round=0"], "Last Round card never scores"),
        (["--extra", "first_out_draws", "green=1"], "not a scoring card"),
        (["--extra", "nonsense"], "not an Extrakarten scoring card"),
        (["--bogus", "green=1"], "unrecognized arguments"),
        (["--table", "blue"], "invalid choice"),
    ],
)
def test_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["score", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_console_script() -> None:
    exe = shutil.which("coloretto") or str(Path(sys.executable).with_name("coloretto"))
    if not Path(exe).exists():
        pytest.skip("the coloretto console script is not installed")
    done = subprocess.run(
        [exe, "score", *RULEBOOK, "--json"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 41
    bad = subprocess.run(
        [exe, "score", "green=many"], capture_output=True, text=True, timeout=60, check=False
    )
    assert bad.returncode == 2
    assert "green=many" in bad.stderr


def test_the_largest_possible_counts_are_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(["green=9", "yellow=09", "plus2=10", "golden_joker=1", "joker=2"], capsys)
    assert data["plus2"] == 20 and data["counts"]["green"] == 9
    assert data["total"] == 21 + 21 + 6 + 20  # the jokers start a third colour (3 cards: 6)
