"""``coloretto replay``: valid and invalid records, exit codes, the JSON contract, and the
example of docs/record-format.md."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from coloretto.cli.main import main
from coloretto.engine import replay

from .records import record as finished_record
from .records import write

DOCS = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    rc = main(["replay", "--json", *args])
    out = capsys.readouterr().out
    return rc, json.loads(out)


def test_valid_finished_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = finished_record()
    rc, out = run_json(capsys, write(tmp_path, rec))
    assert rc == 0
    assert out == replay(rec).to_json()
    assert out["valid"] is True and out["finished"] is True
    assert out["scores"] == rec["result"]["scores"]
    best = max(out["scores"])
    assert out["winners"] == [s for s, v in enumerate(out["scores"]) if v == best]
    assert set(out) == {"valid", "finished", "scores", "winners"}


def test_winner_shares_a_name_with_another_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seats named alike (every seat "computer:medium") are told apart by their seat numbers,
    counted from 1."""
    rec = finished_record()
    rec["seats"] = ["computer:medium"] * len(rec["seats"])
    winners = replay(rec).to_json()["winners"]
    assert main(["replay", write(tmp_path, rec)]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    names = ", ".join(f"seat {s + 1} (computer:medium)" for s in winners)
    assert line == f"{'Winner' if len(winners) == 1 else 'Shared win'}: {names}"


def test_valid_unfinished_record_and_text_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = finished_record(players=3, seed=4)
    del rec["result"]
    rec["actions"] = rec["actions"][:10]
    path = write(tmp_path, rec)
    rc, out = run_json(capsys, path)
    assert rc == 0 and out["valid"] is True and out["finished"] is False
    assert main(["replay", path]) == 0
    text = capsys.readouterr().out
    assert "valid, 10 actions, not finished" in text
    for name in rec["seats"]:
        assert name in text
    rec["actions"] = rec["actions"][:1]
    path = write(tmp_path, rec)
    assert main(["replay", path]) == 0
    assert "valid, 1 action, not finished" in capsys.readouterr().out


def test_wrong_card_is_invalid_at_its_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = finished_record(seed=2)
    i = next(k for k, a in enumerate(rec["actions"]) if a["action"] == "draw" and k > 5)
    real = rec["actions"][i]["card"]
    rec["actions"][i]["card"] = "plus2" if real != "plus2" else "blue"
    rc, out = run_json(capsys, write(tmp_path, rec))
    assert rc == 1
    assert out["valid"] is False and out["action_index"] == i
    assert set(out) == {"valid", "action_index", "error"}
    assert real in out["error"]
    assert main(["replay", write(tmp_path, rec, "t.json")]) == 1
    assert f"at action {i + 1} (actions[{i}] in the record)" in capsys.readouterr().out


def test_illegal_take_and_wrong_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = finished_record(seed=3)
    bad = json.loads(json.dumps(rec))
    bad["actions"][0] = {
        "seat": bad["actions"][0]["seat"],
        "action": "take",
        "row": 0,
    }  # every row is empty
    rc, out = run_json(capsys, write(tmp_path, bad))
    assert rc == 1 and out["action_index"] == 0
    bad = json.loads(json.dumps(rec))
    bad["actions"][0]["seat"] = (bad["actions"][0]["seat"] + 1) % 4
    rc, out = run_json(capsys, write(tmp_path, bad))
    assert rc == 1 and out["action_index"] == 0 and "to move" in out["error"]


def test_result_mismatch_points_after_the_actions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = finished_record(seed=5)
    rec["result"]["scores"][0] += 1
    rc, out = run_json(capsys, write(tmp_path, rec))
    assert rc == 1 and out["action_index"] == len(rec["actions"])
    assert main(["replay", write(tmp_path, rec, "t.json")]) == 1
    assert "in its result" in capsys.readouterr().out


def test_header_problem_has_null_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = finished_record(seed=6)
    rec["format"] = "coloretto-record/0"
    rc, out = run_json(capsys, write(tmp_path, rec))
    assert rc == 1 and out["action_index"] is None and "format" in out["error"]
    rec = finished_record(seed=6)
    rec["setup"]["draw_pile"].remove("plus2")
    rc, out = run_json(capsys, write(tmp_path, rec))
    assert rc == 1 and out["action_index"] is None and "plus2" in out["error"]
    rc, out = run_json(capsys, write(tmp_path, [1, 2, 3]))
    assert rc == 1 and out["valid"] is False


@pytest.mark.parametrize("json_flag", [True, False])
def test_unreadable_inputs_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], json_flag: bool
) -> None:
    flags = ["--json"] if json_flag else []
    assert main(["replay", *flags, str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["replay", *flags, write(tmp_path, "{not json")]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["replay", *flags, str(tmp_path)]) == 2
    assert "directory" in capsys.readouterr().err
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    assert main(["replay", *flags, str(tmp_path / "bin.json")]) == 2
    assert capsys.readouterr().out == ""


def _doc_example() -> dict[str, Any]:
    text = DOCS.read_text()
    blocks = re.findall(r"```json\n(.*?)```", text, re.DOTALL)
    records = [json.loads(b) for b in blocks if '"format": "coloretto-record/1"' in b]
    assert len(records) == 1
    return records[0]


def test_docs_example_replays_as_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _doc_example()
    rc, out = run_json(capsys, write(tmp_path, rec))
    assert rc == 0
    assert out == {"valid": True, "finished": False, "scores": [6, 3], "winners": [0]}
    assert json.dumps(out) in DOCS.read_text()
    wrong_card = json.loads(json.dumps(rec))
    wrong_card["actions"][2]["card"] = "green"
    rc, out = run_json(capsys, write(tmp_path, wrong_card))
    assert rc == 1 and out["action_index"] == 2
    wrong_seat = json.loads(json.dumps(rec))
    wrong_seat["actions"][2]["seat"] = 0
    rc, out = run_json(capsys, write(tmp_path, wrong_seat))
    assert rc == 1 and out["action_index"] == 2


@pytest.mark.parametrize("command", ["replay", "show", "analyze", "play --resume", "perft --depth 1"])
def test_unusable_json_is_a_usage_error_for_every_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A number past Python's 4300-digit limit or JSON nested past the reader's depth: exit 2
    with a message, no traceback (``read_record_file`` serves every command)."""
    rec = finished_record(seed=2)
    text = json.dumps(rec).replace('"first_player": ', '"first_player": ' + "7" * 5000 + ", \"x\": ", 1)
    big = write(tmp_path, text, "big.json")
    deep = write(tmp_path, "[" * 100_000 + "]" * 100_000, "deep.json")
    argv = command.split()
    assert main([*argv, big]) == 2
    assert "a number in it is too large" in capsys.readouterr().err
    assert main([*argv, deep]) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_a_missing_row_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = finished_record(seed=7)
    rec["actions"][0]["row"] = -1
    rc, out = run_json(capsys, write(tmp_path, rec))
    assert rc == 1 and out["error"] == (
        'draw entry: "row": -1 does not exist; records count rows from 0, so "row" is 0 to 3 here'
    )


def _format_example() -> dict[str, Any]:
    """The complete example record of docs/record-format.md."""
    text = DOCS.read_text()
    blocks = [b for b in re.findall(r"```json\n(.*?)```", text, re.DOTALL) if '"coloretto-record/1"' in b and '"actions"' in b]
    example: dict[str, Any] = json.loads(blocks[-1])
    return example


@pytest.mark.parametrize(
    "index, key, value, message",
    [
        (0, "bonus", ["green"], "'bonus' does not belong to a 'draw' entry"),
        (0, "bonus", [], "'bonus' does not belong to a 'draw' entry"),
        (1, "card", "green", "'card' does not belong to a 'take' entry"),
        (1, "color", "green", "'color' does not belong to a 'take' entry"),
        (0, "last_round", True, "the record says last_round true"),
        (1, "bonus", ["green"], "the record says the bonus cards were"),
    ],
)
def test_chance_keys_are_what_the_pile_revealed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], index: int, key: str, value: Any, message: str
) -> None:
    """docs/record-format.md: ``bonus``/``last_round`` must be what the draw pile revealed, and
    a key of another kind of entry is refused."""
    record = _format_example()
    path = write(tmp_path, record, "example.json")
    assert run_json(capsys, path)[0] == 0
    record["actions"][index][key] = value
    path = write(tmp_path, record, "bad.json")
    status, data = run_json(capsys, path)
    assert status == 1 and data["valid"] is False and data["action_index"] == index
    assert message in data["error"], data


def test_a_tournament_records_file_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tournament --records`` writes one record per line; ``replay`` of the whole file says
    so and how to replay one of them, instead of a bare "Extra data"."""
    records = tmp_path / "games.jsonl"
    args = ["--agents", "greedy,random", "--games", "2", "--workers", "1", "--quiet"]
    assert main(["tournament", *args, "--records", str(records)]) == 0
    capsys.readouterr()
    assert main(["replay", str(records)]) == 2
    assert "a file of records (tournament --records) rather than one record" in capsys.readouterr().err
    one = tmp_path / "one.json"
    one.write_text(records.read_text().splitlines()[0])
    assert main(["replay", str(one)]) == 0
