"""Fixtures for the first-contact tests: the project as a fresh clone sees it, and a fresh
virtual environment with ``pip install <repo>`` and no extras.

Both are built once per test session under pytest's temporary directory:

- ``clean_copy``: every file a clone has (``git ls-files``: tracked files, plus files not yet
  committed and not ignored; without git, the tree minus caches and build output) copied
  into ``<tmp>/clone/coloretto``, a folder with no ``shared`` sibling;
- ``bare_venv``: ``python -m venv`` + ``pip install <clean_copy>`` (no extras, not editable;
  pip's cache makes this take well under a minute when the packages were installed before).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SKIP_DIRS = frozenset(
    {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
     ".hypothesis", "build", "dist", "test-artifacts", "node_modules"}
)


def repo_files(root: Path = REPO) -> list[str]:
    """Paths (relative, ``/``-separated) of the files a clone of ``root`` holds: ``git
    ls-files`` (tracked, and new files that are not ignored) when ``root`` is a git
    checkout, else every file outside caches and build output."""
    if shutil.which("git") is not None:
        done = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=False,
        )
        if done.returncode == 0:
            names = sorted({n for n in done.stdout.decode().split("\0") if n})
            return [n for n in names if (root / n).is_file()]
    out = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and not SKIP_DIRS.intersection(rel.parts) and not any(
            p.endswith(".egg-info") for p in rel.parts
        ):
            out.append(rel.as_posix())
    return sorted(out)


@pytest.fixture(scope="session")
def clean_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files copied to ``<tmp>/clone/coloretto`` (module docstring)."""
    root = tmp_path_factory.mktemp("clone") / "coloretto"
    for name in repo_files():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    assert not (root.parent / "shared").exists()
    return root


@dataclass
class Venv:
    """A virtual environment: ``bin`` its scripts folder, ``python`` its interpreter."""

    root: Path
    bin: Path
    python: Path

    def run(
        self, *args: str, cwd: Path, timeout: float = 300, stdin: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run ``coloretto ARGS`` of this environment, as a person would (no test env)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COLORETTO_"))}
        env.pop("PYTHONPATH", None)
        env["VIRTUAL_ENV"] = str(self.root)
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env["NO_COLOR"] = "1"
        env["COLUMNS"] = "120"
        return subprocess.run(  # noqa: PLW1510 (callers assert the status)
            [str(self.bin / "coloretto"), *args],
            cwd=str(cwd),
            env=env,
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def make_venv(where: Path, requirement: str) -> Venv:
    """``python -m venv where`` and ``pip install requirement`` into it."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    bin_dir = where / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, f"pip install {requirement} failed:\n{done.stdout}\n{done.stderr}"
    return Venv(where, bin_dir, python)


@pytest.fixture(scope="session")
def bare_venv(tmp_path_factory: pytest.TempPathFactory, clean_copy: Path) -> Iterator[Venv]:
    """A fresh virtual environment with ``pip install <clean copy>``: no extras, not editable."""
    yield make_venv(tmp_path_factory.mktemp("venv") / "bare", str(clean_copy))
