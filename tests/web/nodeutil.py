"""Running the client's ES modules under Node.js from pytest (tests/web)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "coloretto" / "web"
HERE = Path(__file__).resolve().parent


def find_node() -> str:
    """The ``node`` executable; fails the test when Node.js is missing."""
    exe = shutil.which("node")
    if exe is None:
        pytest.fail("Node.js is not installed (run scripts/install-system-deps.sh); "
                    "the browser modules are tested with it")
    return exe


def run_node(node: str, script: str, *args: str, data: Any = None) -> Any:
    """Run ``tests/web/<script>`` with ``args``, ``data`` as JSON on standard input; return the
    JSON it prints. Fails the test on a non-zero exit with Node's error output."""
    done = subprocess.run(
        [node, str(HERE / script), *args], input=json.dumps(data), capture_output=True,
        text=True, timeout=300, check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"node {script} exited with {done.returncode}: {done.stderr[-3000:]}")
    return json.loads(done.stdout)
