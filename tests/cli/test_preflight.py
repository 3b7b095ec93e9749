"""What ``coloretto`` checks before a command runs: the extras it needs, and whether it will
use the fast core (then a cold cache is announced before compiling). The announcement itself
is seen end to end in ``tests/install/test_no_extras.py`` (a fresh install) and below for
``serve`` (a log line)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coloretto.cli.main import build_parser
from coloretto.cli.preflight import extras_needed, fast_core_parts, uses_fast_core
from coloretto.fastcore import warmup
from coloretto.fastcore.cache import COLD_MESSAGE, PARTS, cold_message, is_warm, marker_path


@pytest.mark.parametrize(
    ("argv", "fast"),
    [
        (["play"], False),
        (["play", "--opponents", "easy,medium,random"], False),
        (["play", "--hints"], True),
        (["play", "--opponents", "hard"], True),
        (["play", "--opponents", "greedy,mcts,greedy"], True),
        (["play", "--resume", "g.json"], True),
        (["simulate"], True),
        (["simulate", "--engine-only"], False),
        (["simulate", "--engine-only", "--agents", "expert,random,random,random"], True),
        (["tournament", "--agents", "greedy,random"], False),
        (["tournament", "--agents", "oracle,random"], True),
        (["bench", "playout"], False),
        (["bench", "playout", "--fast"], True),
        (["bench", "score"], False),
        (["bench", "env"], True),
        (["bench", "mcts"], True),
        (["train", "value", "--games", "8", "--out", "m.npz"], True),
        (["analyze", "g.json"], True),
        (["score", "green=1"], False),
        (["replay", "g.json"], False),
        (["serve"], False),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else str(v),
)
def test_which_commands_use_the_fast_core(argv: list[str], fast: bool) -> None:
    assert uses_fast_core(build_parser().parse_args(argv)) is fast


SEARCH = ("transitions", "search")


@pytest.mark.parametrize(
    ("argv", "parts"),
    [
        (["play"], ()),
        (["play", "--opponents", "greedy,mcts,greedy"], ("transitions",)),
        (["play", "--opponents", "easy,hard,medium"], SEARCH),
        (["play", "--opponents", "policy,random,random"], SEARCH),
        (["play", "--hints"], SEARCH),
        (["simulate"], ("transitions",)),
        (["simulate", "--engine-only", "--agents", "expert,random,random,random"], SEARCH),
        (["tournament", "--agents", "oracle,random"], ("transitions",)),
        (["tournament", "--agents", "oracle-value,mcts-v1"], SEARCH),
        (["bench", "playout", "--fast"], ("transitions",)),
        (["bench", "mcts"], SEARCH),
        (["bench", "env"], ("transitions", "vector")),
        (["train", "value", "--games", "8", "--out", "m.npz"], (*SEARCH, "selfplay")),
        (["train", "policy", "--minutes", "1", "--out", "p.npz"], (*SEARCH, "vector")),
        (["analyze", "g.json"], SEARCH),
        (["tournament", "--agents", "hard@x,random"], SEARCH),
        (["tournament", "--agents", "cmd:./engine,greedy"], ()),
        (["tournament", "--agents", "policy:p.npz,mcts-v1@0.5s-cpu"], SEARCH),
        (["tournament", "--agents", "nonsense,mcts"], ("transitions",)),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else str(v),
)
def test_which_parts_of_the_fast_core_a_command_warms(argv: list[str], parts: tuple[str, ...]) -> None:
    got = fast_core_parts(build_parser().parse_args(argv))
    assert got == parts and set(got) <= set(PARTS)


def test_the_cold_message_adds_the_estimates_of_the_parts() -> None:
    assert cold_message().startswith(COLD_MESSAGE)
    assert "about 30 s" in cold_message(("transitions",))
    assert "about 75 s" in cold_message(("transitions", "search"))


@pytest.mark.parametrize(
    ("argv", "extras"),
    [
        (["serve"], ["web"]),
        (["connect", "http://h/table/x", "--engine", "e"], ["web"]),
        (["tournament", "--agents", "a,b"], ["arena"]),
        (["tournament", "--agents", "a,b", "--backend", "ray"], ["arena", "ray"]),
        (["simulate"], []),
        (["play"], []),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else str(v),
)
def test_which_commands_need_extras(argv: list[str], extras: list[str]) -> None:
    assert [e for e, _ in extras_needed(build_parser().parse_args(argv))] == extras


def _is_warm_in(cache: Path) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    code = "from coloretto.fastcore.cache import is_warm, marker_path; print(is_warm(), marker_path())"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.split()


def test_warm_needs_both_the_marker_and_numbas_index(tmp_path: Path) -> None:
    """This environment, once warmed up, is warm; an empty cache directory is cold; a marker
    without Numba's index files is still cold."""
    warmup()  # at once when `make test` has run `coloretto warmup`
    assert is_warm() and marker_path().is_file()
    warm, marker = _is_warm_in(tmp_path)
    assert warm == "False" and Path(marker).is_relative_to(tmp_path)
    Path(marker).parent.mkdir(parents=True, exist_ok=True)
    Path(marker).write_text("{}")
    assert _is_warm_in(tmp_path)[0] == "False"


def test_serve_logs_the_cold_fast_core_and_compiles_in_the_background(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env.pop("COLORETTO_DATABASE_URL", None)
    log = tmp_path / "serve.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "coloretto.cli.main", "serve", "--port", "0", "--database-url",
             str(tmp_path / "s.db"), "--log-level", "info"],
            stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path, env=env,
        )
    try:
        deadline = time.monotonic() + 60
        while COLD_MESSAGE not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.2)
        text = log.read_text()
        assert COLD_MESSAGE in text, text
        line = next(ln for ln in text.splitlines() if COLD_MESSAGE in ln)
        assert "WARNING coloretto.fastcore" in line  # a log line in serve's format
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "Traceback" not in log.read_text()


def _stderr_until_first_kernel(tmp_path: Path, argv: list[str]) -> str:
    """Run ``coloretto ARGV`` with an empty Numba cache, stop it once Numba has written its
    first cache file (any notice before compiling has been printed by then) and return its
    standard error."""
    cache = tmp_path / "numba"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    err = tmp_path / "stderr.txt"
    with open(err, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "coloretto", *argv],
            stdout=subprocess.DEVNULL, stderr=out, cwd=tmp_path, env=env,
        )
    try:
        deadline = time.monotonic() + 180
        while not any(cache.rglob("*.nbi")) and time.monotonic() < deadline:
            assert proc.poll() is None, err.read_text()
            time.sleep(0.2)
        assert any(cache.rglob("*.nbi")), "no kernel was compiled into the cold cache"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return err.read_text()


def test_bench_env_announces_its_cold_kernels_before_compiling(tmp_path: Path) -> None:
    """``bench env`` runs the vector environment's own kernels: with a cold cache it says it
    compiles (and how long that takes) before it starts, instead of a silent pause."""
    err = _stderr_until_first_kernel(tmp_path, ["bench", "env", "--envs", "8", "--seconds", "0.5"])
    assert cold_message(("transitions", "vector")) in err, err


@pytest.mark.parametrize("quiet", [False, True], ids=["notes", "quiet"])
def test_tournament_quiet_also_hides_the_compile_note(tmp_path: Path, quiet: bool) -> None:
    """With a cold cache, ``tournament`` says it compiles before it does; with ``--quiet`` it
    compiles without a word."""
    argv = ["tournament", "--agents", "oracle,random", "--games", "2", "--seed", "1"]
    err = _stderr_until_first_kernel(tmp_path, [*argv, *(["--quiet"] if quiet else [])])
    assert (COLD_MESSAGE in err) is not quiet, err


def test_the_cache_module_examples_pass() -> None:
    import doctest

    from coloretto.fastcore import cache

    result = doctest.testmod(cache, verbose=False)
    assert result.attempted >= 1 and result.failed == 0


def test_a_part_is_marked_warm_only_when_its_cache_was_cold() -> None:
    """``warm_part`` writes the part's marker when the caller found the cache cold, and
    leaves it alone otherwise (this environment is warm: the kernels load from the cache)."""
    from coloretto.cli.warmup import warm_part

    marker = marker_path("selfplay")
    before = marker.stat().st_mtime_ns
    assert warm_part("selfplay", False) >= 0
    assert marker.stat().st_mtime_ns == before
    time.sleep(0.01)
    warm_part("selfplay", True)
    assert marker.stat().st_mtime_ns > before and is_warm("selfplay")
