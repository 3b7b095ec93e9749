"""The trained policy end to end: ``coloretto train policy`` (a few seconds: the loss moves),
the file loads as the agent ``policy:FILE`` and plays full games through ``coloretto
simulate``; the shipped policy plays as ``policy``/``policy:builtin``; ``coloretto bench
env`` prints its figures. Bad files and options are refused with a clear message."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

# The batched kernels compile on their first use (minutes on a busy 2-core machine; then
# cached): the tests here get more than the suite's default 600 s.
pytestmark = pytest.mark.timeout(1800)

from coloretto.agents import make_agent
from coloretto.agents.policy import BUILTIN, POLICY_FORMAT, PolicyAgent, read_policy, write_policy
from coloretto.arena.driver import play_out, start_game
from coloretto.cli.main import main
from coloretto.engine import Rules
from coloretto.engine.errors import ConfigurationError
from coloretto.engine.record import replay
from coloretto.fastcore.value import N_FEATURES


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    pytest.importorskip("torch")
    out = tmp_path_factory.mktemp("policy") / "p.npz"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(
            [
                "train", "policy", "--players", "4", "--minutes", "2", "--out", str(out),
                "--seed", "3", "--threads", "1", "--envs", "32", "--horizon", "8",
                "--hidden", "16", "--max-updates", "4", "--json",
            ]
        )  # fmt: skip
    assert code == 0
    return out, json.loads(buf.getvalue())


def test_training_moves_the_loss_and_writes_a_policy(
    trained: tuple[Path, dict[str, object]],
) -> None:
    path, meta = trained
    losses = meta["losses"]
    assert isinstance(losses, list) and len(losses) == 4 == meta["updates"]
    assert len(set(losses)) > 1, "the loss did not move"
    assert meta["samples"] == 4 * 32 * 8
    model = read_policy(path)
    assert model.meta["format"] == POLICY_FORMAT
    assert model.weights[0].shape == (16, N_FEATURES)
    # the training changed the weights: the policy head started at zero
    assert np.abs(model.weights[4]).max() > 0


def test_saved_policy_plays_through_simulate(
    trained: tuple[Path, dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = trained
    spec = f"policy:{path}"
    code = main(
        ["simulate", "--players", "4", "--agents", f"{spec},random,greedy,random",
         "--games", "2", "--seed", "1", "--json"]
    )  # fmt: skip
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2


def test_saved_policy_plays_in_the_terminal(
    trained: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    """``coloretto play --opponents policy:FILE``: a person (piped keys) against the policy
    plays a game to its end, and the record replays."""
    path, _ = trained
    save = tmp_path / "game.json"
    keys = "\n".join(itertools.islice(itertools.cycle(["3", "2", "1", "d"]), 4000))
    env = {**os.environ, "NO_COLOR": "1", "COLORETTO_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "coloretto"), "play", "--players", "3",
         "--opponents", f"policy:{path},policy", "--seed", "4", "--save", str(save)],
        input=keys, capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Winner" in done.stdout or "Shared win" in done.stdout
    record = json.loads(save.read_text())
    assert replay(record).valid


def test_builtin_policy_plays_a_full_game() -> None:
    for spec in ("policy", "policy:builtin"):
        agent = make_agent(spec, seed=1)
        assert isinstance(agent, PolicyAgent)
        assert agent.model.meta["format"] == POLICY_FORMAT
    rules = Rules(players=4, starting_cards="choose")
    game = start_game(rules, 5, ["policy", "greedy", "random", "policy:builtin"])
    final = play_out(game, [make_agent("policy", 1), make_agent("greedy", 2),
                            make_agent("random", 3), make_agent("policy:builtin", 4)])  # fmt: skip
    assert final.state.is_over()
    assert BUILTIN.endswith(".npz")


def test_bad_policy_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="no such file"):
        make_agent(f"policy:{tmp_path / 'missing.npz'}")
    with pytest.raises(ConfigurationError, match="needs a file"):
        make_agent("policy:")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ConfigurationError, match="not a readable policy file"):
        make_agent(f"policy:{junk}")
    with pytest.raises(ValueError, match="policy"):
        write_policy(tmp_path / "w.npz", [np.zeros((4, 3))] * 6, {})
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array(json.dumps({"format": "x"})), w1=np.zeros(1), b1=np.zeros(1),
             w2=np.zeros(1), b2=np.zeros(1), w3=np.zeros(1), b3=np.zeros(1))  # fmt: skip
    with pytest.raises(ConfigurationError, match=POLICY_FORMAT):
        make_agent(f"policy:{other}")


def test_train_policy_refuses_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["train", "policy", "--out", str(tmp_path / "p.npz")]
    for extra, text in [
        (["--minutes", "0"], "--minutes"),
        (["--minutes", "1", "--players", "6"], "--players"),
        (["--minutes", "1", "--threads", "0"], "--threads"),
        (["--minutes", "1", "--envs", "0"], "--envs"),
        (["--minutes", "1", "--horizon", "0"], "--horizon"),
        (["--minutes", "1", "--hidden", "2"], "--hidden"),
        (["--minutes", "1", "--max-updates", "0"], "--max-updates"),
    ]:
        assert main(base + extra) == 2
        assert text in capsys.readouterr().err
    existing = tmp_path / "exists.npz"
    existing.write_bytes(b"")
    assert main(["train", "policy", "--minutes", "1", "--out", str(existing)]) == 2
    assert "--force" in capsys.readouterr().err
    pytest.importorskip("torch")
    forced = ["train", "policy", "--minutes", "1", "--out", str(existing), "--force",
              "--envs", "8", "--horizon", "2", "--hidden", "8", "--max-updates", "1"]  # fmt: skip
    assert main(forced) == 0
    assert "wrote" in capsys.readouterr().out
    assert read_policy(existing).meta["updates"] == 1


def test_bench_env_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["bench", "env", "--envs", "64", "--players", "3", "--edition", "modern",
         "--seconds", "0.3", "--threads", "1", "--seed", "2", "--json"]
    )  # fmt: skip
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["envs"] == 64 and report["players"] == 3 and report["threads"] == 1
    assert report["steps"] > 0 and report["steps_per_s"] > 0
    assert "outside the step kernel" in report["actions"]
    assert report["load_average"] is None or len(report["load_average"]) == 3
    assert main(["bench", "env", "--envs", "16", "--seconds", "0.2"]) == 0
    assert "steps_per_s=" in capsys.readouterr().out
    assert main(["bench", "env", "--envs", "0"]) == 2
    assert "--envs" in capsys.readouterr().err
