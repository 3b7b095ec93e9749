"""The machine a benchmark ran on (printed with the figures; see docs/benchmarks.md)."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess


def machine() -> dict[str, object]:
    """``{"cpu", "cores", "python", "date"}``: the ``lscpu`` model name (or the platform's
    processor string), the usable cores, the Python version and today's date (UTC)."""
    cpu = platform.processor() or platform.machine()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": cpu,
        "cores": cores,
        "python": platform.python_version(),
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
    }


def machine_line() -> str:
    """One line describing the machine."""
    m = machine()
    return f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, {m['date']}"
