"""A tournament's checkpoint (``arena.checkpoint``): the games of an interrupted run count
once, the report equals an uninterrupted run's, and a file of another run is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coloretto.arena.checkpoint import CHECKPOINT_FORMAT, Checkpoint, read_secret
from coloretto.arena.tournament import TournamentConfig, run_tournament
from coloretto.engine.errors import ConfigurationError
from coloretto.engine.rules import Rules

AGENTS = ("greedy", "random", "heuristic")


def config(games: int = 9, seed: int = 4, agents: tuple[str, ...] = AGENTS) -> TournamentConfig:
    return TournamentConfig(agents=agents, games=games, rules=Rules(players=3), seed=seed)


def outcome(result: Any) -> dict[str, Any]:
    """The report without its timings (what an interrupted run must reproduce)."""
    data = result.to_json(timings=False)
    data.pop("run", None)
    for entry in data["entries"] + data["agents"]:
        entry.pop("seconds_per_decision", None)
    return data


class Stop(Exception):
    """Raised from the progress hook to interrupt a run after some games."""


def interrupted_run(path: Path, cfg: TournamentConfig, after: int) -> None:
    checkpoint = Checkpoint(path, cfg)
    done = checkpoint.resume()
    count = 0

    def on_game(game: Any) -> None:
        nonlocal count
        checkpoint.append(game)
        count += 1
        if count == after:
            raise Stop

    with pytest.raises(Stop):
        run_tournament(cfg, workers=1, on_game=on_game, done=done)
    checkpoint.close()


def resumed_run(path: Path, cfg: TournamentConfig) -> tuple[Any, int]:
    checkpoint = Checkpoint(path, cfg)
    done = checkpoint.resume()
    played: list[int] = []

    def on_game(game: Any) -> None:
        checkpoint.append(game)
        played.append(game.index)

    result = run_tournament(cfg, workers=1, on_game=on_game, done=done)
    checkpoint.close()
    return result, len(played)


def test_an_interrupted_run_goes_on_and_reports_as_an_uninterrupted_one(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    cfg = config()
    interrupted_run(path, cfg, after=4)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == CHECKPOINT_FORMAT and len(lines) == 1 + 4
    result, played = resumed_run(path, cfg)
    assert played == cfg.games - 4
    assert outcome(result) == outcome(run_tournament(cfg, workers=1))
    # a third run finds every game in the file and plays none
    again, played = resumed_run(path, cfg)
    assert played == 0 and outcome(again) == outcome(result)


def test_a_torn_last_line_is_dropped_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    cfg = config(games=6)
    interrupted_run(path, cfg, after=3)
    with path.open("a") as fh:
        fh.write('{"index": 3, "deal": 1')  # killed while writing the fourth game
    result, played = resumed_run(path, cfg)
    assert played == 3 and outcome(result) == outcome(run_tournament(cfg, workers=1))
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_more_games_extend_a_finished_run(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    resumed_run(path, config(games=6))
    result, played = resumed_run(path, config(games=12))
    assert played == 6 and outcome(result) == outcome(run_tournament(config(games=12), workers=1))
    # and fewer games take the first ones of the file
    fewer, played = resumed_run(path, config(games=3))
    assert played == 0 and outcome(fewer) == outcome(run_tournament(config(games=3), workers=1))


@pytest.mark.parametrize(
    ("other", "named"),
    [
        (config(seed=5), "it was made with --seed 4, this run has 5"),
        (
            config(agents=("greedy", "random", "random")),
            "--agents greedy,random,heuristic, this run has greedy,random,random",
        ),
    ],
)
def test_a_file_of_another_tournament_is_refused_and_left_alone(
    tmp_path: Path, other: TournamentConfig, named: str
) -> None:
    path = tmp_path / "ck.jsonl"
    resumed_run(path, config(games=3))
    before = path.read_bytes()
    with pytest.raises(ConfigurationError, match="holds games of another tournament") as info:
        Checkpoint(path, other).resume()
    assert named in str(info.value)
    assert path.read_bytes() == before


def _rewrite_header(path: Path, change: Any) -> None:
    lines = path.read_text().splitlines(keepends=True)
    head = json.loads(lines[0])
    change(head["tournament"])
    path.write_text(json.dumps(head) + "\n" + "".join(lines[1:]))


def test_a_level_defined_otherwise_is_another_player(tmp_path: Path) -> None:
    """The header records what each difficulty level plays with; a file whose ``easy`` was
    another agent (as from a version that defined the level otherwise) is refused, and a
    file written before levels were recorded is taken as it is."""
    path = tmp_path / "ck.jsonl"
    cfg = config(games=3, agents=("easy", "random", "heuristic"))
    resumed_run(path, cfg)
    head = json.loads(path.read_text().splitlines()[0])["tournament"]
    assert head["levels"] == {"easy": {"agent": "greedy", "iterations": None, "seconds": None}}

    _rewrite_header(path, lambda t: t["levels"]["easy"].update(agent="heuristic", iterations=300))
    before = path.read_bytes()
    with pytest.raises(ConfigurationError, match="holds games of another tournament") as info:
        Checkpoint(path, cfg).resume()
    assert (
        "it was made when easy played heuristic at 300 iterations, this run has greedy at its "
        "default budget in this version of coloretto" in str(info.value)
    )
    assert path.read_bytes() == before

    _rewrite_header(path, lambda t: t.pop("levels"))
    result, played = resumed_run(path, cfg)
    assert played == 0 and outcome(result) == outcome(run_tournament(cfg, workers=1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\n", "is not a tournament checkpoint"),
        ('{"format": "coloretto-record/1"}\n', "is not a tournament checkpoint"),
        (f'{{"format": "{CHECKPOINT_FORMAT}"}}\n', "has no tournament"),
    ],
)
def test_a_file_that_is_not_a_checkpoint_is_refused_and_left_alone(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(text)
    with pytest.raises(ConfigurationError, match=message):
        Checkpoint(path, config()).resume()
    assert path.read_text() == text


def test_bad_game_lines_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    resumed_run(path, config(games=3))
    head, *games = path.read_text().splitlines()
    path.write_text("\n".join([head, games[0], games[0]]) + "\n")
    with pytest.raises(ConfigurationError, match="game 1 is in the file twice"):
        Checkpoint(path, config(games=3)).resume()
    path.write_text(f"{head}\n[1, 2]\n")
    with pytest.raises(ConfigurationError, match=r"line 2: not a game \(a JSON object is expected"):
        Checkpoint(path, config(games=3)).resume()
    path.write_text(f"{head}\n{{\n")
    with pytest.raises(ConfigurationError, match=r"line 2: not a game \(not JSON\)"):
        Checkpoint(path, config(games=3)).resume()
    moved = json.loads(games[0]) | {"entries": [1, 2, 0]}
    path.write_text("\n".join([head, json.dumps(moved)]) + "\n")
    with pytest.raises(ConfigurationError, match="another deal or seating"):
        Checkpoint(path, config(games=3)).resume()


def test_the_engine_secret_of_a_run_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    assert read_secret(path) is None
    cfg = TournamentConfig(
        agents=AGENTS, games=3, rules=Rules(players=3), seed=1, engine_secret="s3cret"
    )
    checkpoint = Checkpoint(path, cfg)
    checkpoint.resume()
    checkpoint.close()
    assert read_secret(path) == "s3cret"


def test_a_checkpoint_in_use_by_another_run_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    first = Checkpoint(path, config())
    first.resume()
    with pytest.raises(ConfigurationError, match="is in use by another run"):
        Checkpoint(path, config()).resume()
    first.close()
    second = Checkpoint(path, config())
    assert second.resume() == []
    second.close()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"hello", "is not a tournament checkpoint"),
        (b"\x7fELF\x02\x01\x01\x00\xd0\xff\n", "not UTF-8 text"),
    ],
)
def test_files_of_other_kinds_are_refused_and_left_alone(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "other"
    path.write_bytes(content)
    with pytest.raises(ConfigurationError, match=message):
        Checkpoint(path, config()).resume()
    assert path.read_bytes() == content


def test_a_header_cut_while_being_written_starts_the_file_again(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    resumed_run(path, config(games=3))
    head = path.read_bytes().split(b"\n")[0]
    path.write_bytes(head[:20])
    _, played = resumed_run(path, config(games=3))
    assert played == 3 and path.read_bytes().split(b"\n")[0] == head


@pytest.mark.parametrize(
    ("where", "message"), [("/dev/null", "is not a regular file"), ("/proc/version", "cannot open")]
)
def test_files_that_cannot_hold_a_checkpoint_are_refused(where: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        Checkpoint(where, config()).resume()


def test_the_secret_of_a_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    path.write_bytes(b"\xff\xfe binary\n")
    with pytest.raises(ConfigurationError, match="is not a tournament checkpoint"):
        read_secret(path)
    path.write_bytes(b"\xff\xfe torn")  # no line break: resume judges the file
    assert read_secret(path) is None


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("ranks", [1, 2], "'ranks' must hold 3 ranks from 1 to 3, one per seat, not [1, 2]"),
        ("forfeit", 3, "'forfeit' must be a seat from 0 to 2 or null, not 3"),
        ("seconds", -1, "'seconds' must be a number of 0 or more, not -1"),
        ("rotation", 2, "'deal' and 'rotation' do not fit 'index' 0 (3 seats a deal)"),
        ("record", [], "'record' must be a JSON object or null, not []"),
        ("failures", {}, "'failures' must be a list, not {}"),
    ],
)
def test_game_problem_names_what_is_wrong(field: str, value: Any, message: str) -> None:
    from coloretto.arena.checkpoint import game_problem

    game = run_tournament(config(games=3), workers=1).games[0]
    good = json.loads(json.dumps(game.__dict__))
    assert game_problem(good, 3) is None
    assert game_problem(good | {field: value}, 3) == message
    failure = {"seat": 1, "game": 0, "entry": good["entries"][1], "kind": "late", "detail": "",
               "handling": "forfeit"}
    assert game_problem(good | {"failures": [failure]}, 3) is None
    assert game_problem(good | {"failures": [failure | {"entry": 7}]}, 3) == (
        f"engine failure 1 in 'failures' must name the 'entry' of seat 1 ({good['entries'][1]}), not 7"
    )


def test_close_counts_the_games_in_the_file(tmp_path: Path) -> None:
    """A game written by ``append`` whose count was cut short (an interrupt) is counted."""
    path = tmp_path / "ck.jsonl"
    checkpoint = Checkpoint(path, config(games=3))
    checkpoint.resume()
    for game in run_tournament(config(games=3), workers=1).games:
        checkpoint.append(game)
    checkpoint.held = 1
    checkpoint.close()
    assert checkpoint.held == 3
