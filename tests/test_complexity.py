"""The complexity limit: ``ruff check --select C901`` over ``src/`` with the project's
settings (``pyproject.toml``: at most 20 per function; the fast core's compiled kernels
excepted), so a function grown too complex fails the suite. Ruff is the test extra's."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"


def ruff_complexity(*paths: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``ruff check --select C901`` of ``paths`` with the project's configuration (the ruff
    installed beside this Python: the test extra's), no cache written."""
    return subprocess.run(
        [
            sys.executable, "-m", "ruff", "check", "--select", "C901", "--no-cache",
            "--config", str(PYPROJECT), "--output-format", "concise", *paths,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_no_function_in_src_is_too_complex() -> None:
    done = ruff_complexity("src", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_function_past_the_limit_is_found(tmp_path: Path) -> None:
    """The check fails on a function of complexity 21 and passes one of 20 (the limit of
    ``pyproject.toml``)."""

    def function(branches: int) -> str:
        body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(branches))
        return f"def f(x):\n{body}    return -1\n"

    (tmp_path / "too_complex.py").write_text(function(20))  # 20 ifs: complexity 21
    (tmp_path / "at_the_limit.py").write_text(function(19))  # complexity 20
    done = ruff_complexity("too_complex.py", "at_the_limit.py", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    found = [line for line in done.stdout.splitlines() if "C901" in line]
    assert len(found) == 1 and found[0].startswith("too_complex.py"), textwrap.indent(done.stdout, "  ")
    assert "(21 > 20)" in found[0]
