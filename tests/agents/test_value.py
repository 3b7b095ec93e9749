"""The learned value: the shipped model, its features, training and use in the search."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.agents import Budget, make_agent
from coloretto.agents.ismcts import ISMCTSAgent, ISMCTSParams, ValueISMCTSAgent
from coloretto.agents.value import (
    DEFAULT_MODEL,
    MODEL_FORMAT,
    load_value_model,
    read_value_model,
    write_value_model,
)
from coloretto.arena.driver import play_out, start_game
from coloretto.cli.main import main
from coloretto.engine import LAST_ROUND, Rules, new_game, observe, preset
from coloretto.engine.errors import ConfigurationError
from coloretto.engine.state import GameState
from coloretto.fastcore import encode
from coloretto.fastcore import value as V

ROOT = Path(__file__).resolve().parents[2]


def _positions(count: int, seed: int = 1) -> list[GameState]:
    rng = random.Random(seed)
    configs = [Rules(players=p, edition=e) for p in (2, 3, 4, 5) for e in ("classic", "modern")]
    out: list[GameState] = []
    while len(out) < count:
        st = new_game(configs[len(out) % len(configs)], rng.randrange(10**6))
        for _ in range(rng.randrange(5, 120)):
            codes = st.legal_codes()
            if not codes:
                break
            st.apply_code(codes[rng.randrange(len(codes))])
        if st.phase in (0, 1):
            out.append(st)
    return out


def _numpy_forward(weights: tuple[np.ndarray, ...], f: np.ndarray) -> np.ndarray:
    w1, b1, w2, b2, w3, b3 = weights
    h = np.maximum(w1 @ f + b1, 0.0)
    h = np.maximum(w2 @ h + b2, 0.0)
    out: np.ndarray = w3 @ h + b3
    return out


def test_the_shipped_model_loads_from_package_data() -> None:
    model = load_value_model()
    assert model is load_value_model(DEFAULT_MODEL)  # cached
    assert model.meta["format"] == MODEL_FORMAT
    assert model.meta["features"] == V.N_FEATURES
    assert model.weights[0].shape[1] == V.N_FEATURES
    assert model.meta["games"] >= 1000
    with pytest.raises(ConfigurationError, match="not installed"):
        load_value_model("value-v999.npz")


def test_compiled_forward_pass_is_the_numpy_one_and_gives_probabilities() -> None:
    model = load_value_model()
    for st in _positions(24):
        a = encode(st).a
        f = np.empty(V.N_FEATURES)
        V.features(a, f, np.empty(10, np.int64))
        raw = _numpy_forward(model.weights, f)
        n = st.n
        e = np.exp(raw[:n] - raw[:n].max())
        ev = model.evaluate(st)
        win = [ev["win"][(st.to_move + k) % n] for k in range(n)]
        assert np.allclose(win, e / e.sum())
        assert abs(sum(ev["win"]) - 1.0) < 1e-9
        sq = 1 / (1 + np.exp(-raw[5 : 5 + n]))
        margin = [ev["margin"][(st.to_move + k) % n] for k in range(n)]
        assert np.allclose(margin, (sq - 0.5) * 2 * model.margin_scale)


def test_features_read_only_public_information() -> None:
    """The draw pile's order does not change the features; its composition is public."""
    rng = random.Random(3)
    for st in _positions(20, seed=4):
        twin = st.copy()
        pile = twin.pile
        rest = [c for c in pile if c != LAST_ROUND]
        rng.shuffle(rest)
        if LAST_ROUND in pile:
            d = pile.index(LAST_ROUND)
            rest = rest[:d] + [LAST_ROUND] + rest[d:]
        twin.pile = rest
        fa = np.empty(V.N_FEATURES)
        fb = np.empty(V.N_FEATURES)
        V.features(encode(st).a, fa, np.empty(10, np.int64))
        V.features(encode(twin).a, fb, np.empty(10, np.int64))
        assert np.array_equal(fa, fb)


def test_features_do_not_depend_on_colour_names() -> None:
    """Swapping two colours everywhere (collections, rows, pile) leaves the features."""
    perm = [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    for st in _positions(20, seed=5):
        if set(st.in_play) != set(range(7)):
            continue
        twin = st.copy()
        twin.coll = [[c[perm[i]] for i in range(10)] for c in st.coll]
        twin.rows = [[perm[c] for c in r] for r in st.rows]
        twin.pile = [perm[c] for c in st.pile]
        if twin.drawn >= 0:
            twin.drawn = perm[twin.drawn]
        fa = np.empty(V.N_FEATURES)
        fb = np.empty(V.N_FEATURES)
        V.features(encode(st).a, fa, np.empty(10, np.int64))
        V.features(encode(twin).a, fb, np.empty(10, np.int64))
        assert np.allclose(fa, fb)


def test_model_files_round_trip_and_bad_files_are_refused(tmp_path: Path) -> None:
    model = load_value_model()
    path = tmp_path / "m.npz"
    write_value_model(path, model.weights, 20.0, {"games": 1})
    back = read_value_model(path)
    assert back.meta["games"] == 1 and back.margin_scale == 20.0
    for a, b in zip(back.weights, model.weights):
        assert np.allclose(a, b, atol=1e-6)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a model")
    with pytest.raises(ConfigurationError, match="not a readable value model"):
        read_value_model(junk)
    small = tmp_path / "small.npz"
    write_value_model(small, tuple(w[:, :3] if w.ndim == 2 else w for w in model.weights), 20.0, {})
    with pytest.raises(ConfigurationError, match="do not fit"):
        read_value_model(small)


@pytest.mark.parametrize(
    ("rules", "preset_name"),
    [
        (preset("classic", 4), None),
        (preset("modern", 2), None),
        (preset("classic", 5, table="violet"), None),
        (preset("abacus2003", 3), "abacus2003"),  # a match: rolled out
        (preset("bga", 3), "bga"),
    ],
)
def test_value_search_plays_complete_games(rules: Rules, preset_name: str | None) -> None:
    n = rules.players
    game = start_game(rules, 6, ["ismcts-value"] * n, preset_name=preset_name)
    agents = [make_agent("ismcts-value", i, Budget(iterations=60)) for i in range(n)]
    play_out(game, agents)
    assert game.state.is_over()


@pytest.mark.parametrize(
    ("rules", "preset_name"),
    [
        (preset("classic", 4), None),
        (preset("classic", 5, table="violet"), None),
        (preset("abacus2003", 3), "abacus2003"),  # a match: rolled out
    ],
)
def test_heuristic_round_rollouts_play_complete_games(rules: Rules, preset_name: str | None) -> None:
    """The compiled heuristic to the end of the round, then the value (with the heuristic's
    priors in the tree): legal, complete games."""
    n = rules.players
    params = ISMCTSParams(evaluation="heuristic_round_value", tree_priors="heuristic")
    game = start_game(rules, 7, ["ismcts"] * n, preset_name=preset_name)
    agents = [ISMCTSAgent(i, Budget(iterations=60), params) for i in range(n)]
    play_out(game, agents)
    assert game.state.is_over()


@pytest.mark.parametrize("evaluation", ["value", "round_value", "heuristic_round_value"])
def test_value_search_never_reads_the_true_pile(evaluation: str) -> None:
    rng = random.Random(8)
    state = new_game(Rules(players=4), 12)
    for _ in range(20):
        codes = state.legal_codes()
        state.apply_code(codes[rng.randrange(len(codes))])
    while len(state.legal_codes()) < 2:
        state.apply_code(state.legal_codes()[0])
    twin = state.copy()
    rest = [c for c in twin.pile if c != LAST_ROUND]
    d = twin.pile.index(LAST_ROUND)
    rng.shuffle(rest)
    twin.pile = rest[:d] + [LAST_ROUND] + rest[d:]
    assert twin.pile != state.pile
    seen = []
    for st in (state, twin):
        agent = ISMCTSAgent(2, Budget(iterations=1500), ISMCTSParams(evaluation=evaluation))
        agent.reset(st.to_move, st.rules)
        agent.act(observe(st, st.to_move), st.legal_actions())
        assert agent.last is not None
        seen.append((agent.last.visits, agent.last.win))
    assert seen[0] == seen[1]


def test_train_value_is_reproducible_and_its_model_plays(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A short training (the smoke test): same seed, same file; the model loads and plays."""
    outs = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for out in outs:
        assert main(["train", "value", "--games", "48", "--seed", "5", "--epochs", "1",
                     "--hidden", "8", "--out", str(out), "--json"]) == 0
        meta = json.loads(capsys.readouterr().out)
        assert meta["games"] == 48 and meta["positions"] > 100
    a = read_value_model(outs[0])
    b = read_value_model(outs[1])
    for x, y in zip(a.weights, b.weights):
        assert np.array_equal(x, y)
    assert a.weights[0].shape == (8, V.N_FEATURES)
    assert main(["train", "value", "--games", "48", "--out", str(outs[0])]) == 2  # exists
    assert "exists" in capsys.readouterr().err
    assert main(["train", "value", "--games", "32", "--seed", "6", "--epochs", "1",
                 "--hidden", "4", "--out", str(outs[1]), "--force"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert read_value_model(outs[1]).weights[0].shape == (4, V.N_FEATURES)
    agent = ValueISMCTSAgent(1, Budget(iterations=50), model=a)
    game = start_game(Rules(players=3), 2, ["x"] * 3)
    play_out(game, [agent, make_agent("heuristic", 2), make_agent("greedy", 3)])
    assert game.state.is_over()


def test_train_value_with_the_heuristic_playing_the_self_play(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``--policy heuristic``: the compiled heuristic plays the self-play games (other
    positions than ``threshold``'s from the same seed, the same ones again from it), and the
    model says so in its metadata."""
    from coloretto.agents.value_train import generate

    heur = generate(32, 4, policy="heuristic")
    assert all(np.array_equal(x, y) for x, y in zip(heur, generate(32, 4, policy="heuristic")))
    thr = generate(32, 4, policy="threshold")
    assert len(heur[0]) != len(thr[0]) or not np.array_equal(heur[0], thr[0])
    with pytest.raises(ValueError, match="unknown self-play policy 'random'"):
        generate(32, 4, policy="random")
    out = tmp_path / "h.npz"
    assert main(["train", "value", "--games", "32", "--seed", "4", "--epochs", "1", "--hidden",
                 "8", "--policy", "heuristic", "--out", str(out), "--json"]) == 0
    meta = json.loads(capsys.readouterr().out)
    assert meta["policy"].startswith("heuristic,")
    assert read_value_model(out).meta["policy"] == meta["policy"]
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "value", "--games", "32", "--policy", "best", "--out", str(tmp_path / "x.npz")])
    assert exit_info.value.code == 2
    assert "invalid choice: 'best'" in capsys.readouterr().err


def test_self_play_policy_names_are_the_compiled_codes() -> None:
    """A policy's position in ``SELFPLAY_POLICIES`` is the code the compiled self-play
    reads."""
    from coloretto.agents.compiled_names import SELFPLAY_POLICIES
    from coloretto.fastcore.selfplay import SELFPLAY_HEURISTIC, SELFPLAY_THRESHOLD

    assert SELFPLAY_POLICIES.index("threshold") == SELFPLAY_THRESHOLD
    assert SELFPLAY_POLICIES.index("heuristic") == SELFPLAY_HEURISTIC
    assert len(SELFPLAY_POLICIES) == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["--games", "5"],
        ["--games", "100", "--epochs", "0"],
        ["--games", "100", "--hidden", "1000"],
    ],
)
def test_train_value_refuses_bad_arguments(tmp_path: Path, argv: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["train", "value", *argv, "--out", str(tmp_path / "m.npz")]) == 2
    assert "error" in capsys.readouterr().err
    assert main(["train", "value", "--games", "100", "--out", str(tmp_path / "no" / "m.npz")]) == 2


@pytest.mark.slow
def test_the_model_loads_after_pip_install(tmp_path: Path) -> None:
    """``pip install .`` into a fresh target directory ships the model as package data."""
    target = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(ROOT)],
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert built.returncode == 0, built.stderr
    code = (
        "import coloretto, sys\n"
        "from coloretto.agents.value import load_value_model\n"
        f"assert coloretto.__file__.startswith({str(target)!r}), coloretto.__file__\n"
        "m = load_value_model()\n"
        "print(m.meta['format'], m.weights[0].shape[1])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=tmp_path, check=False, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == [MODEL_FORMAT, str(V.N_FEATURES)]
