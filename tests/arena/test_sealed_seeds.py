"""Sealed seeds of runs with external engines: an engine knowing the run's root seed and the
seed it is handed in ``hello`` cannot rebuild the deal (neither from the root nor by
inverting its own seed, which a seed of ``derive_seed`` allows), while the run's published
``engine_secret`` with ``--seed`` replays the run exactly (``simulate`` and ``tournament``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from coloretto.arena.driver import start_game
from coloretto.arena.simulate import game_seed
from coloretto.cli.main import main
from coloretto.engine.record import load_record
from coloretto.engine.rules import Rules
from coloretto.engine.seeds import AGENT, GAME, MASK64, derive_seed

SPY = """
import json, sys
out = open(sys.argv[1], "a")
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        out.write(json.dumps({"seed": m["seed"], "seat": m["seat"]}) + "\\n"); out.flush()
        print(json.dumps({"type": "ready", "name": "spy"}), flush=True)
    elif m["type"] == "decide":
        print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)
    elif m["type"] == "quit":
        break
"""


def unsplitmix64(z: int) -> int:
    """The inverse of ``seeds.splitmix64`` (it is a bijection of 64-bit integers)."""

    def unxorshift(y: int, shift: int) -> int:
        x = y
        for _ in range(64 // shift + 1):
            x = y ^ (x >> shift)
        return x & MASK64

    z = unxorshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK64
    z = unxorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK64
    z = unxorshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & MASK64


def inverted_game_seeds(hello_seed: int, seat: int) -> set[int]:
    """Every game seed ``g`` with ``derive_seed(g, AGENT, seat) == hello_seed`` (the attack
    on an invertible seed: two candidates for the bit ``>> 1`` dropped)."""
    found = set()
    for low in (0, 1):
        h = unsplitmix64((hello_seed << 1) | low) ^ seat
        h = unsplitmix64(h) ^ AGENT
        g = unsplitmix64(h)
        if derive_seed(g, AGENT, seat) == hello_seed:
            found.add(g)
    return found


def test_the_inversion_attack_works_on_an_unsealed_seed() -> None:
    g = derive_seed(12345, GAME, 3)
    assert g in inverted_game_seeds(derive_seed(g, AGENT, 2), 2)


def deal_of(seed_of_game: int) -> dict[str, Any]:
    return start_game(Rules(players=4), seed_of_game, ["random"] * 4).to_record()["setup"]


def run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, command: tuple[str, ...] = ("simulate",)
) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
    spy_log = tmp_path / f"{name}.hello"
    spy = tmp_path / "spy.py"
    spy.write_text(SPY)
    records = tmp_path / f"{name}-records"
    argv = [
        command[0],
        *command[1:],
        "--agents",
        f"cmd:{sys.executable} {spy} {spy_log},random,random,random",
        "--games",
        "3",
        "--seed",
        "7",
        "--save-records",
        str(records),
        "--json",
    ]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    hellos = [json.loads(line) for line in spy_log.read_text().splitlines()]
    setups = [load_record(p)["setup"] for p in sorted(records.glob("*.json"))]
    return report, hellos, setups


def test_a_simulate_run_with_an_engine_is_sealed_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report, hellos, setups = run(tmp_path, capsys, "first")
    secret = report["engine_secret"]
    assert isinstance(secret, str) and len(secret) == 32 and report["seed"] == 7
    assert len(hellos) == len(setups) == 3
    for i, (hello, setup) in enumerate(zip(hellos, setups, strict=True)):
        assert setup != deal_of(game_seed(7, i)), "the deal follows from the root seed alone"
        for g in inverted_game_seeds(hello["seed"], hello["seat"]):
            assert deal_of(g) != setup, "the deal follows from the engine's hello seed"
        for j in range(50):  # nor from any small root's game seeds
            assert deal_of(game_seed(j, i)) != setup
    again, hellos2, setups2 = run(tmp_path, capsys, "replay", ("simulate", "--engine-secret", secret))
    assert (hellos2, setups2) == (hellos, setups)
    assert again["engine_secret"] == secret
    assert [s["win_share"] for s in again["seats"]] == [s["win_share"] for s in report["seats"]]
    other, _, setups3 = run(tmp_path, capsys, "other")
    assert other["engine_secret"] != secret and setups3 != setups


def test_a_run_without_engines_is_not_sealed(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "simulate",
                "--agents",
                "random,random",
                "--players",
                "2",
                "--games",
                "2",
                "--seed",
                "7",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["engine_secret"] is None


def test_a_tournament_with_an_engine_is_sealed_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spy = tmp_path / "spy.py"
    spy.write_text(SPY)

    def tour(name: str, *extra: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        log, out = tmp_path / f"{name}.hello", tmp_path / f"{name}.json"
        argv = [
            "tournament",
            "--agents",
            f"cmd:{sys.executable} {spy} {log},random",
            "--games",
            "4",
            "--seed",
            "3",
            "--json",
            str(out),
            "--quiet",
            *extra,
        ]
        assert main(argv) == 0
        capsys.readouterr()
        return json.loads(out.read_text()), [
            json.loads(line) for line in log.read_text().splitlines()
        ]

    report, hellos = tour("a")
    secret = report["config"]["engine_secret"]
    assert isinstance(secret, str) and report["config"]["seed"] == 3
    for h in hellos:
        for d in range(2):
            assert derive_seed(3, GAME, d) not in inverted_game_seeds(h["seed"], h["seat"])
    again, hellos2 = tour("b", "--engine-secret", secret)
    key = lambda h: (h["seat"], h["seed"])
    assert sorted(hellos2, key=key) == sorted(hellos, key=key) and len(hellos) == 4
    same = {k: v for k, v in again["config"].items() if k != "agents"}
    assert same == {k: v for k, v in report["config"].items() if k != "agents"}
    assert [e["win_share"] for e in again["entries"]] == [e["win_share"] for e in report["entries"]]
