"""Every command with any extra missing: it works, or it names the missing extra in one line
with the install command (exit status 2). Never a traceback.

An extra is made missing for real: the interpreter runs without its site-packages
(``python -S``) on a copy of them (symbolic links) from which the extra's packages and
their ``.dist-info`` folders are left out, so ``import`` and ``importlib.util.find_spec``
both fail as in an installation without them. Each extra is left out alone (every other
extra installed), then all of them together (Numba included, which the default install
brings; the fast core's commands then fall back on the engine or say so). ``bare_venv``
(``test_no_extras.py``) is the twin made by a real ``pip install`` without extras.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from coloretto._optional import EXTRAS

from .conftest import REPO

pytestmark = pytest.mark.slow

RECORD = REPO / "tests" / "data" / "records" / "legal_2p_full.json"
SITE = Path(sysconfig.get_paths()["purelib"])

ALL = ("web", "arena", "ray", "fast", "train")

# (argv, extras it needs in the order it checks them, extras whose absence changes what it
# does, run it when none of those is missing)
COMMANDS: list[tuple[list[str], tuple[str, ...], tuple[str, ...], bool]] = [
    (["--help"], (), ALL, True),
    (["score", "green=3", "joker=1"], (), ALL, True),
    (["replay", "game.json"], (), ALL, True),
    (["simulate", "--games", "4", "--seed", "1", "--json"], (), ("fast",), True),
    (["analyze", "game.json", "--budget", "10", "--top", "1"], (), ("fast",), True),
    # hard and expert are the compiled search: without Numba they name the missing extra;
    # medium (the rule-based heuristic) plays on the engine alone
    (["play", "--opponents", "hard", "--seed", "2", "--save", "g.json"], ("fast",), ("fast",), True),
    (["play", "--opponents", "medium", "--seed", "2", "--save", "g.json"], (), ("fast",), True),
    (["bench", "playout", "--fast", "--games", "10", "--no-limit", "--json"], ("fast",), ("fast",), True),
    (["warmup"], ("fast",), ("fast",), True),
    (["tournament", "--agents", "random,greedy", "--games", "2", "--json", "t.json"], ("arena",), ALL, True),
    (["tournament", "--agents", "random,greedy", "--games", "2", "--plot", "p.png"], ("arena",), ("arena",), True),
    # Run only to see the message: with their extras present these start a Ray cluster or a
    # server, which other tests do end to end.
    (["tournament", "--agents", "random,greedy", "--games", "2", "--backend", "ray"], ("arena", "ray"), ("arena", "ray"), False),
    (["serve", "--port", "0"], ("web",), ("web",), False),
    # Training runs self-play in the fast core and fits with PyTorch: run only to see the
    # message (tests/agents train models end to end).
    (["train", "value", "--games", "16", "--out", "m.npz"], ("train", "fast"), ("train", "fast"), False),
    (["train", "policy", "--minutes", "0.01", "--out", "p.npz"], ("train", "fast"), ("train", "fast"), False),
    # With web present: an unreachable server is a usage error (exit 2) with its own message.
    (["connect", "http://127.0.0.1:9/table/abc", "--engine", "true"], ("web",), ("web",), True),
]

HIDDEN_SETS = [("web",), ("arena",), ("ray",), ("fast",), ("train",), ("rl",), ALL]

CASES = [
    pytest.param(hidden, argv, needs, id=f"without-{'-'.join(hidden)}: {' '.join(argv)}")
    for hidden in HIDDEN_SETS
    for argv, needs, affected, run_when_present in COMMANDS
    if set(affected) & set(hidden) and (set(needs) & set(hidden) or run_when_present)
]


def hidden_modules(hidden: tuple[str, ...]) -> set[str]:
    """Top-level modules of the extras in ``hidden`` that no installed extra provides."""
    present = {m for extra, mods in EXTRAS.items() if extra not in hidden for m in mods}
    return {m for extra in hidden for m in EXTRAS[extra]} - present


def _hides(entry: str, modules: set[str]) -> bool:
    base = entry.lower()
    for m in modules:
        if base in (m, f"{m}.py") or (base.startswith(f"{m}-") and base.endswith(".dist-info")):
            return True
        if base.startswith(f"{m}.") and base.endswith(".so"):  # an extension module (pyspiel)
            return True
    return False


_FARMS: dict[tuple[str, ...], Path] = {}


def farm(hidden: tuple[str, ...], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy (links) of this environment's site-packages without the extras ``hidden``
    (made once per session)."""
    if hidden in _FARMS:
        return _FARMS[hidden]
    modules = hidden_modules(hidden)
    root = tmp_path_factory.mktemp("site-" + "-".join(hidden))
    left_out = []
    for entry in SITE.iterdir():
        if entry.name.endswith(".pth") or entry.name == "__pycache__":
            continue
        if _hides(entry.name, modules):
            left_out.append(entry.name)
            continue
        (root / entry.name).symlink_to(entry)
    assert {n.split("-")[0].split(".")[0].lower() for n in left_out} >= modules, left_out
    _FARMS[hidden] = root
    return root


def run(site: Path, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COLORETTO_")}
    env["PYTHONPATH"] = f"{site}{os.pathsep}{REPO / 'src'}"
    env["NO_COLOR"] = "1"
    code = "import sys; from coloretto.cli.main import main; sys.exit(main())"
    return subprocess.run(  # noqa: PLW1510 (the status is asserted)
        [sys.executable, "-S", "-c", code, *argv],
        cwd=str(cwd), env=env, input="q\n", capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize("hidden", HIDDEN_SETS, ids=lambda h: "without-" + "-".join(h))
def test_the_copy_really_lacks_the_hidden_packages(
    hidden: tuple[str, ...], tmp_path_factory: pytest.TempPathFactory
) -> None:
    site = farm(hidden, tmp_path_factory)
    modules = sorted(hidden_modules(hidden))
    assert modules
    probe = "import importlib.util, sys; print([m for m in sys.argv[1:] if importlib.util.find_spec(m)])"
    env = {"PYTHONPATH": f"{site}{os.pathsep}{REPO / 'src'}", "PATH": os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-S", "-c", probe, *modules, "numpy", "rich"],
                          env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['numpy', 'rich']"


@pytest.mark.parametrize(("hidden", "argv", "needs"), CASES)
def test_command_with_extras_missing(
    hidden: tuple[str, ...], argv: list[str], needs: tuple[str, ...],
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
) -> None:
    site = farm(hidden, tmp_path_factory)
    missing = [e for e in needs if e in hidden]
    shutil.copy(RECORD, tmp_path / "game.json")
    done = run(site, argv, tmp_path)
    both = done.stdout + done.stderr
    assert "Traceback" not in both, both
    if missing:
        extra = missing[0]
        assert done.returncode == 2, both
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert f"needs the {extra} extra" in lines[0], lines[0]
        assert lines[0].endswith(f"pip install 'coloretto[{extra}]'"), lines[0]
    elif argv[0] == "connect":
        assert done.returncode == 2 and "cannot reach" in done.stderr, both
    else:
        assert done.returncode == 0, both
        if argv[0] == "simulate" and "fast" in hidden:
            assert '"path": "engine"' in done.stdout and "fast core not installed" in done.stdout


ADAPTERS = ["coloretto.envs.pettingzoo", "coloretto.envs.gymnasium", "coloretto.envs.openspiel"]


@pytest.mark.parametrize("module", ADAPTERS)
def test_environment_adapters_without_the_rl_extra(
    module: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The encoding needs only NumPy; each adapter names the missing extra in one line."""
    site = farm(("rl",), tmp_path_factory)
    code = (
        "import coloretto.envs.encoding as e\n"
        "from coloretto._optional import MissingExtra\n"
        "print(e.OBSERVATION_SIZE)\n"
        "try:\n"
        f"    import {module}\n"
        "except MissingExtra as exc:\n"
        "    print(exc)\n"
    )
    env = {"PYTHONPATH": f"{site}{os.pathsep}{REPO / 'src'}", "PATH": os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    size, message = done.stdout.strip().splitlines()
    assert size == "185"
    assert " needs the rl extra (" in message and "not installed" in message, message
    assert message.endswith("pip install 'coloretto[rl]'"), message
