"""``pip install <repo>`` with no extras, in a fresh virtual environment, used as a new
person uses it: every command either works or, when it needs an extra, says so in one line
with the install command (exit status 2). Never a traceback.

The environment is built once per session (``bare_venv`` in ``conftest.py``); these tests
are slow (the first build, and one compilation of the fast core) but run in ``make test``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from coloretto.fastcore.cache import COLD_MESSAGE

from .conftest import REPO, Venv

pytestmark = pytest.mark.slow

RECORD = REPO / "tests" / "data" / "records" / "legal_2p_full.json"


def site_packages(venv: Venv) -> Path:
    found = sorted(venv.root.glob("lib/python3*/site-packages"))
    assert found, f"no site-packages under {venv.root}"
    return found[0]


def no_traceback(done: object) -> None:
    out = getattr(done, "stdout", "") + getattr(done, "stderr", "")
    assert "Traceback" not in out, out


def test_the_default_install_has_numba_no_extras_and_ships_limit_c(bare_venv: Venv) -> None:
    site = site_packages(bare_venv)
    for absent in ("fastapi", "uvicorn", "sqlalchemy", "openskill", "matplotlib", "ray", "httpx"):
        assert not (site / absent).exists(), f"{absent} is installed without its extra"
    assert (site / "numba").is_dir(), "numba is part of the default install"
    shipped = site / "coloretto" / "arena" / "data" / "limit.c"
    assert shipped.is_file() and "main" in shipped.read_text()


def test_a_cold_fast_core_is_announced_then_compiled_once(bare_venv: Venv, tmp_path: Path) -> None:
    """A fresh installation: the first command that needs the fast core says it compiles
    (with an estimate) before doing so; the next one loads it silently; ``warmup`` then
    reports a warm cache."""
    cache = site_packages(bare_venv) / "coloretto" / "fastcore" / "__pycache__"
    for pattern in ("*.nbi", "*.nbc", "*.warm"):  # as right after `pip install`
        for f in cache.glob(pattern):
            f.unlink()
    first = bare_venv.run("simulate", "--games", "20", "--seed", "1", "--json", cwd=tmp_path)
    no_traceback(first)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count(COLD_MESSAGE) == 1, first.stderr
    assert "Fast core compiled in" in first.stderr
    assert json.loads(first.stdout)["path"] == "fastcore-batch"
    again = bare_venv.run("simulate", "--games", "20", "--seed", "1", "--json", cwd=tmp_path)
    assert again.returncode == 0 and "Compiling" not in again.stderr, again.stderr
    assert json.loads(again.stdout)["seats"] == json.loads(first.stdout)["seats"]
    warm = bare_venv.run("warmup", cwd=tmp_path)
    assert warm.returncode == 0, warm.stderr
    assert "kernels loaded from the cache" in warm.stdout


@pytest.mark.parametrize(
    ("argv", "stdout_has"),
    [
        (["--help"], "warmup"),
        (["score", "green=6", "yellow=4", "blue=3", "gray=2", "joker=1", "plus2=1"], "41"),
        (["simulate", "--games", "10", "--seed", "2"], "win share"),
        (["simulate", "--games", "5", "--seed", "2", "--engine-only"], "engine"),
        (["replay", "game.json"], "Winner"),
        (["show", "game.json", "--seat", "1"], "Winner"),
        (["perft", "game.json", "--depth", "1"], "depth 1"),
        (["analyze", "game.json", "--budget", "20", "--top", "1"], ""),
        (["bench", "score", "--seconds", "0.2"], "scorings_per_s"),
        (["warmup"], "fast core"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_commands_work_without_extras(
    bare_venv: Venv, tmp_path: Path, argv: list[str], stdout_has: str
) -> None:
    shutil.copy(RECORD, tmp_path / "game.json")
    done = bare_venv.run(*argv, cwd=tmp_path)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert stdout_has in done.stdout


def test_bench_playout_fast_finds_the_shipped_limit_c(bare_venv: Venv, tmp_path: Path) -> None:
    done = bare_venv.run("bench", "playout", "--fast", "--games", "20", "--json", cwd=tmp_path)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["fast"]["games_per_s"] > 0
    if shutil.which("cc") or shutil.which("gcc") or shutil.which("clang"):
        assert report["ratio"] is not None, report.get("limit_note")
    else:  # pragma: no cover - make test installs a C compiler
        assert "compiler" in report["limit_note"]


def test_play_against_hard_opponents_saves_and_quits(bare_venv: Venv, tmp_path: Path) -> None:
    done = bare_venv.run(
        "play", "--opponents", "hard", "--seed", "3", "--save", "g.json", cwd=tmp_path, stdin="q\n"
    )
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "g.json").read_text())["format"] == "coloretto-record/1"


@pytest.mark.parametrize(
    ("argv", "extra"),
    [
        (["tournament", "--agents", "random,greedy", "--games", "2"], "arena"),
        (["tournament", "--agents", "random,greedy", "--games", "2", "--backend", "ray"], "arena"),
        (["tournament", "--agents", "random,greedy", "--games", "2", "--plot", "p.png"], "arena"),
        (["serve", "--port", "0"], "web"),
        (["connect", "http://127.0.0.1:9/table/abc", "--engine", "python3 bot.py"], "web"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_a_missing_extra_is_one_line_with_the_install_command(
    bare_venv: Venv, tmp_path: Path, argv: list[str], extra: str
) -> None:
    done = bare_venv.run(*argv, cwd=tmp_path)
    no_traceback(done)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"coloretto {argv[0]}" in lines[0] and f"needs the {extra} extra" in lines[0]
    assert lines[0].endswith(f"pip install 'coloretto[{extra}]'"), lines[0]
    assert done.stdout == ""
    assert not list(tmp_path.iterdir()), "nothing is written before the check"
