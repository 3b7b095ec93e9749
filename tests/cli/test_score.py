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
    assert run(["score", "--json", "--table", "violet", *RULEBOOK]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 20


@pytest.mark.parametrize("table", ["gray", "grey", "Blue", ""])
def test_only_the_api_table_names(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--table`` takes what ``POST /api/score`` takes (brown, violet), with its message."""
    assert run(["score", "--table", table, *RULEBOOK]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"coloretto score: error: --table: table {table!r} is not a score table; "
        "choose brown or violet\n"
    )


@pytest.mark.parametrize(("table", "total"), [("VIOLET", 20), ("Violet", 20), ("BROWN", 41)])
def test_table_names_in_any_case(
    table: str, total: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """People type the table as they like (``VIOLET``); the report names it in lowercase."""
    data = score_json([*RULEBOOK, "--table", table], capsys)
    assert data["table"] == table.casefold()
    assert data["total"] == total


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "foo",
            (
                "extra 'foo' is not an Extrakarten scoring card; "
                "choose single_three, triple_three, triple_minus, or none"
            ),
        ),
        (
            "first_out_draws",
            (
                "extra 'first_out_draws' is not a scoring card (it changes play, not scoring); "
                "scoring cards: single_three, triple_three, triple_minus, or none"
            ),
        ),
    ],
)
def test_unknown_extra_lists_what_the_command_line_takes(
    extra: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The list ends with the command line's word for no card, ``none`` (JSON's is null)."""
    assert run(["score", *RULEBOOK, "--extra", extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"coloretto score: error: --extra: {message}\n"


@pytest.mark.parametrize("word", ["none", "NONE", "None"])
def test_no_extra_card(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json([*RULEBOOK, "--extra", word], capsys)
    assert data["extra"] is None
    assert data["total"] == 41


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


@pytest.mark.parametrize(
    "argv", [[], ["--json"], ["--table", "violet"], ["green=0"], ["green=0", "joker=0", "+2=0", "--json"]]
)
def test_no_cards_is_an_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``coloretto score`` without cards says what to type instead of printing 0 points."""
    assert run(["score", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no cards given" in captured.err
    assert "LABEL=N" in captured.err and "green=3" in captured.err


@pytest.mark.parametrize(
    "label, field, value",
    [
        ("+2", "plus2", 2),
        ("plus2", "plus2", 2),
        ("PLUS2", "plus2", 2),
        ("Plus2", "plus2", 2),
        ("joker", "jokers", 1),
        ("Joker", "jokers", 1),
        ("JOKER", "jokers", 1),
        ("golden_joker", "jokers", 1),
        ("Golden_Joker", "jokers", 1),
        ("golden-joker", "jokers", 1),
        ("GOLDEN-JOKER", "jokers", 1),
        ("Golden Joker", "jokers", 1),
    ],
)
def test_reserved_names_in_any_case(
    label: str, field: str, value: int, capsys: pytest.CaptureFixture[str]
) -> None:
    data = score_json(["green=3", f"{label}=1"], capsys)
    assert list(data["counts"]) == ["green"], "a reserved name must never become a colour"
    if field == "plus2":
        assert data["plus2"] == value and data["plus2_cards"] == 1
        assert data["total"] == 6 + 2
    else:
        assert sum(data["jokers"].values()) == value
        assert data["total"] == 10  # the joker joins green: 4 cards


def test_plus2_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    """What a person at a table types first: ``+2=1`` is a "+2" card worth 2 points."""
    assert run(["score", "green=3", "+2=1"]) == 0
    out = capsys.readouterr().out
    assert '"+2" cards' in out
    assert out.split("total")[1].split()[0] == "8"


@pytest.mark.parametrize(
    "label, suggestion",
    [
        ("plus", "plus2"),
        ("Plus", "plus2"),
        ("plus_2", "plus2"),
        ("plus-2", "plus2"),
        ("plus2s", "plus2"),
        ("pluses", "plus2"),
        ("+2s", "plus2"),
        ("++2", "plus2"),
        ("x+2", "plus2"),
        ("+ 2", "plus2"),
        ("+", "plus2"),
        ("+1", "plus2"),
        ("2+", "plus2"),
        ("gold-en", "golden_joker"),
        ("jokers", "joker"),
        ("Jokers", "joker"),
        ("joker2", "joker"),
        ("jokerr", "joker"),
        ("JOKERS", "joker"),
        ("golden", "golden_joker"),
        ("Golden", "golden_joker"),
        ("goldenjoker", "golden_joker"),
        ("GoldenJoker", "golden_joker"),
        ("golden_jokers", "golden_joker"),
        ("gold_joker", "golden_joker"),
    ],
)
def test_near_miss_names_are_refused(
    label: str, suggestion: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["score", "green=3", f"{label}=1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{label!r} is not a card name" in captured.err
    assert f"did you mean {suggestion}?" in captured.err


def test_a_colour_label_may_look_like_nothing_reserved(capsys: pytest.CaptureFixture[str]) -> None:
    """Only labels containing joker, plus, + or golden are refused: ``gold`` and ``2`` are
    colours."""
    data = score_json(["gold=2", "2=1"], capsys)
    assert data["counts"] == {"gold": 2, "2": 1}


def test_an_alias_and_its_name_are_one_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["score", "+2=1", "plus2=2"]) == 2
    assert "given twice" in capsys.readouterr().err
    assert run(["score", "joker=1", "Joker=1"]) == 2
    assert "given twice" in capsys.readouterr().err
    assert run(["score", "golden-joker=1", "golden_joker=0"]) == 2
    assert "given twice" in capsys.readouterr().err


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
        (["+2=11"], '10 "+2" cards'),
        (["lastround=1"], "Last Round card never scores"),
        (["Last-Round=1"], "Last Round card never scores"),
        (["--table", "blue"], "--table: table 'blue' is not a score table; choose brown or violet"),
    ],
)
def test_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["score", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_unknown_option_shows_the_score_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["score", "--foo"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: coloretto score ")
    assert "LABEL=N" in err
    assert "coloretto score: error: unrecognized arguments: --foo" in err


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


def test_bytes_that_are_not_utf8_are_named_as_such(tmp_path: Path) -> None:
    """A label or a --name typed with bytes that are not UTF-8 (a terminal set to Latin-1) is
    refused for that reason, not as a control character."""
    exe = str(Path(sys.executable).parent / "coloretto")
    for argv in ([exe.encode(), b"score", b"gr\xfcn=3"], [exe.encode(), b"play", b"--name", b"J\xfcrgen"]):
        done = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, cwd=tmp_path,  # noqa: PLW1510
                              timeout=60)
        assert done.returncode == 2, done.stderr
        assert b"cannot hold bytes that are not UTF-8 text" in done.stderr, done.stderr


def test_extra_card_is_the_same_option_as_in_play(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["a=6", "b=6", "c=6", "d=1", "e=1", "f=1", "g=1", "joker=1"]
    assert score_json([*argv, "--extra-card", "triple_minus"], capsys) == score_json(
        [*argv, "--extra", "triple_minus"], capsys
    )
