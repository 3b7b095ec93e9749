"""The repository stands alone: nothing in it reads, links or cites a folder beside it, the
project's history (issue numbers) or outside design notes, and the parts that once needed
such a folder (the limit.c yardstick, the scoring cases) work from a copy of the repository
that has nothing beside it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, repo_files

# Spelled in pieces so that this file does not match itself.
FORBIDDEN = {
    "a folder beside the repository": re.compile(r"\.\./" + "shared" + r"\b"),
    "the team's reference folder": re.compile("/work/" + "shared"),
    "outside design notes": re.compile("design" + r"\.md"),
    "an issue number": re.compile("[Ii]" + r"ssue #?[0-9]"),
}


def test_no_file_cites_anything_outside_the_repository() -> None:
    files = repo_files()
    assert "pyproject.toml" in files and "src/coloretto/arena/data/limit.c" in files
    found = []
    for name in files:
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files
        for what, pattern in FORBIDDEN.items():
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{name}:{line}: {what}: {m.group(0)!r}")
    assert not found, "\n".join(found)


def test_the_scan_sees_what_it_forbids(tmp_path: Path) -> None:
    """The patterns match the forms they are meant to catch (a scan that cannot fail
    proves nothing)."""
    samples = {
        "a folder beside the repository": "see ../" + "shared/rules.md",
        "the team's reference folder": "/work/" + "shared/sources",
        "outside design notes": "as design" + ".md says",
        "an issue number": "fixes I" + "ssue #12 and i" + "ssue 3",
    }
    for what, text in samples.items():
        assert FORBIDDEN[what].search(text), what
    assert not any(p.search("docs/rules.md §3, the shared reader") for p in FORBIDDEN.values())


def _env(copy: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COLORETTO_LIMIT"))}
    env["PYTHONPATH"] = str(copy / "src")
    env["COLORETTO_NO_SKIPS"] = "1"
    return env


@pytest.mark.slow
def test_a_copy_with_nothing_beside_it_imports_its_own_code(clean_copy: Path) -> None:
    code = (
        "import coloretto, json; from coloretto.arena.bench import find_limit_c; "
        "print(json.dumps([coloretto.__file__, str(find_limit_c())]))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=clean_copy, env=_env(clean_copy),
                          capture_output=True, text=True, check=True)
    module, limit_c = json.loads(done.stdout)
    assert Path(module).is_relative_to(clean_copy / "src")
    assert Path(limit_c) == clean_copy / "src" / "coloretto" / "arena" / "data" / "limit.c"
    assert not (clean_copy.parent / "shared").exists()


@pytest.mark.slow
def test_the_tests_that_needed_an_outside_folder_pass_in_the_copy(clean_copy: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/cli/test_bench.py", "tests/engine/test_scoring.py"],
        cwd=clean_copy, env=_env(clean_copy), capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert "passed" in summary and "skipped" not in summary and "failed" not in summary, summary


@pytest.mark.slow
def test_bench_playout_in_the_copy_reports_the_ratio_to_the_shipped_limit_c(
    clean_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = "import sys; from coloretto.cli.main import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, "bench", "playout", "--players", "4", "--games", "50", "--json"],
        cwd=clean_copy, env=_env(clean_copy), capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ratio"] is not None, report.get("limit_note")
    assert 0 < report["ratio"] < 1 and report["limit_games_per_s"] > 0
    with capsys.disabled():
        print(f"\n[clean copy] engine / limit.c ratio: {report['ratio']:.4f} "
              f"({report['games_per_s']:.0f} vs {report['limit_games_per_s']:.0f} games/s)")
