"""``coloretto play`` with the rule options that no other test sets, played to the end through
a pseudo-terminal as a person plays it; the saved record carries every option."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect

from coloretto.engine import replay

from .test_play import play_to_end, spawn


def test_a_game_with_every_rule_option_and_another_seat(tmp_path: Path) -> None:
    child = spawn(
        [
            "--players", "3", "--next-round-starter", "left_of_last_taker",
            "--joker-any-color", "false", "--extra-card", "triple_minus", "--first-player", "3",
            "--seat", "2", "--opponents", "easy", "--seed", "5",
            "--hints", "--hint-budget", "50", "--save", "g.json",
        ],
        tmp_path,
    )
    assert play_to_end(child) > 5
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = json.loads((tmp_path / "g.json").read_text())
    rules = record["rules"]
    assert rules["players"] == 3 and rules["next_round_starter"] == "left_of_last_taker"
    assert rules["joker_any_color"] is False and rules["extra_card"] == "triple_minus"
    assert record["setup"]["first_player"] == 2  # the third seat: counted from 1 on the command line
    assert record["actions"][0]["seat"] == 2  # the first player acts first
    assert record["human_seats"] == [1] and record["agents"] == ["easy", None, "easy"]
    result = replay(record)
    assert result.valid and result.finished
