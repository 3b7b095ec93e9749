"""Is the fast core's machine code in Numba's on-disk cache? A cheap check (nothing is
compiled), so that a command can say "compiling, about 30 s" before the first, slow call.

Numba compiles each kernel of ``kernels.py`` (``@njit(cache=True)``) on its first call in a
fresh installation and stores the result in its cache directory (``__pycache__`` next to
``kernels.py``, or Numba's user-wide cache directory when that is not writable): per kernel
an index file (``.nbi``) that is valid only for the current ``kernels.py`` (Numba compares
the file's time stamp and size) and data files (``.nbc``).

The fast core counts as **warm** when both hold:

1. the marker that :func:`mark_warm` writes after a complete warm-up
   (``coloretto.fastcore.api.warmup``) exists for the current key: Numba's and Python's
   versions, the machine, a hash of ``kernels.py`` and the fingerprint of the engine
   constants compiled into the kernels (``kernels.constants_fingerprint``);
2. every kernel's index is present and fresh (read through Numba's own cache objects; when a
   Numba release no longer has them, the marker alone decides).
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from pathlib import Path
from typing import Any, Final

from . import kernels as K

ESTIMATE_SECONDS: Final = 30
"""Rough cost of compiling every kernel on a 2-core machine (docs/benchmarks.md measures it)."""

COLD_MESSAGE: Final = (
    f"Compiling the fast core once, about {ESTIMATE_SECONDS} s "
    "(later runs load it from the cache)..."
)
"""The line shown before a compilation (``coloretto warmup`` does it ahead of time)."""


def kernels() -> dict[str, Any]:
    """The compiled kernels of ``kernels.py``: name -> Numba dispatcher."""
    return {
        name: obj
        for name, obj in vars(K).items()
        if hasattr(obj, "py_func") and getattr(obj, "__module__", None) == K.__name__
    }


def cache_dir() -> Path:
    """Where Numba keeps the kernels' cache (and where the marker goes)."""
    for disp in kernels().values():
        path = getattr(getattr(disp, "_cache", None), "_cache_path", None)
        if path:
            return Path(path)
    return Path(K.__file__).resolve().parent / "__pycache__"


def cache_key() -> str:
    """Hex digest naming this build of the kernels: Numba's and Python's versions, the
    machine, the bytes of ``kernels.py`` and the engine constants they are compiled with."""
    numba = sys.modules.get("numba")
    h = hashlib.sha256()
    h.update(f"{getattr(numba, '__version__', '?')}|{sys.version}|{platform.machine()}|".encode())
    h.update(Path(K.__file__).read_bytes())
    h.update(K.constants_fingerprint().encode())
    return h.hexdigest()[:20]


def marker_path() -> Path:
    """The marker file for the current :func:`cache_key`."""
    return cache_dir() / f"coloretto-fastcore-{cache_key()}.warm"


def _indexes_fresh() -> bool:
    for disp in kernels().values():
        try:
            load_index = disp._cache._cache_file._load_index
        except AttributeError:
            return True  # Numba's internals changed: the marker alone decides
        try:
            if not load_index():
                return False
        except Exception:  # noqa: BLE001 - an unreadable index is a cold cache
            return False
    return True


def is_warm() -> bool:
    """True when every kernel loads from the cache (module docstring); cost: a few small
    file reads."""
    return marker_path().is_file() and _indexes_fresh()


def mark_warm(seconds: float) -> Path | None:
    """Write the marker after a complete warm-up that took ``seconds``; return its path, or
    ``None`` when the cache directory is not writable (the next run then warms again)."""
    path = marker_path()
    info = {"key": cache_key(), "kernels": len(kernels()), "seconds": round(seconds, 3)}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(info) + "\n")
    except OSError:
        return None
    return path
