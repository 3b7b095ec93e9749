"""Is the fast core's machine code in Numba's on-disk cache? A cheap check (nothing is
compiled), so that a command can say "compiling, about 30 s" before the first, slow call.

The fast core has four compiled parts (:data:`PARTS`), each a few modules of
``coloretto.fastcore`` whose kernels are used together: ``transitions`` (the game itself,
the batch simulator, rollouts), ``search`` (the tree search, the heuristic and the value
net: the computer players ``hard`` and ``expert``, hints, ``analyze``), ``vector`` (the
batched environment of ``coloretto.envs.vector``) and ``selfplay`` (the games ``coloretto
train value`` records). Numba compiles each kernel (``@njit(cache=True)``) on its first
call in a fresh installation and stores the result in its cache directory (``__pycache__``
next to the modules, or Numba's user-wide cache directory when that is not writable): per
kernel an index file (``.nbi``) that is valid only for the current source file (Numba
compares its time stamp and size) and data files (``.nbc``).

A part counts as **warm** when both hold:

1. the marker that :func:`mark_warm` writes after a complete warm-up of the part
   (``coloretto.cli.warmup.WARMERS``) exists for the part's current key: Numba's and
   Python's versions, the machine, a hash of the part's modules and of ``kernels.py``, and
   the fingerprint of the engine constants compiled into the kernels
   (``kernels.constants_fingerprint``);
2. every kernel's index is present and fresh (read through Numba's own cache objects; when a
   Numba release no longer has them, the marker alone decides).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import platform
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Final

from . import kernels as K

PARTS: Final[dict[str, tuple[str, ...]]] = {
    "transitions": ("kernels",),
    "search": ("heuristic", "value", "search"),
    "vector": ("vector",),
    "selfplay": ("selfplay",),
}
"""The compiled parts of the fast core (module docstring): name -> its modules in
``coloretto.fastcore``, in the order ``coloretto warmup`` compiles them."""

ESTIMATES: Final[dict[str, int]] = {"transitions": 30, "search": 45, "vector": 35, "selfplay": 10}
"""Rough seconds to compile each part on the project's 2-core machine (docs/benchmarks.md
has the measured figures)."""

COLD_MESSAGE: Final = "Compiling the fast core once"
"""How the line shown before a compilation begins (:func:`cold_message` gives the whole
line); ``coloretto warmup`` compiles ahead of time."""


def cold_message(parts: tuple[str, ...] = ("transitions",)) -> str:
    """The line shown before compiling ``parts``: :data:`COLD_MESSAGE` with an estimate.

    >>> cold_message(("transitions", "search"))
    'Compiling the fast core once, about 75 s (later runs load it from the cache)...'
    """
    seconds = sum(ESTIMATES[p] for p in parts)
    return f"{COLD_MESSAGE}, about {seconds} s (later runs load it from the cache)..."


def _modules(part: str) -> list[ModuleType]:
    if part not in PARTS:
        raise ValueError(f"unknown fast core part {part!r}; known: {', '.join(PARTS)}")
    return [importlib.import_module(f"{__package__}.{name}") for name in PARTS[part]]


def kernels(part: str = "transitions") -> dict[str, Any]:
    """The compiled kernels of ``part`` (one of :data:`PARTS`): name -> Numba dispatcher.

    Raises:
        ValueError: an unknown part.
    """
    return {
        f"{mod.__name__}.{name}": obj
        for mod in _modules(part)
        for name, obj in vars(mod).items()
        if hasattr(obj, "py_func") and getattr(obj, "__module__", None) == mod.__name__
    }


def cache_dir() -> Path:
    """Where Numba keeps the kernels' cache (and where the marker goes)."""
    for disp in kernels().values():
        path = getattr(getattr(disp, "_cache", None), "_cache_path", None)
        if path:
            return Path(path)
    return Path(K.__file__).resolve().parent / "__pycache__"


def cache_key(part: str = "transitions") -> str:
    """Hex digest naming this build of ``part``'s kernels: Numba's and Python's versions,
    the machine, the bytes of ``kernels.py`` (every part calls it) and of the part's modules,
    and the engine constants they are compiled with.

    Raises:
        ValueError: an unknown part.
    """
    numba = sys.modules.get("numba")
    h = hashlib.sha256()
    h.update(f"{getattr(numba, '__version__', '?')}|{sys.version}|{platform.machine()}|".encode())
    h.update(Path(K.__file__).read_bytes())
    for mod in _modules(part):
        if mod is not K:
            h.update(Path(str(mod.__file__)).read_bytes())
    h.update(K.constants_fingerprint().encode())
    return h.hexdigest()[:20]


def marker_path(part: str = "transitions") -> Path:
    """The marker file of ``part`` for its current :func:`cache_key`."""
    return cache_dir() / f"coloretto-fastcore-{part}-{cache_key(part)}.warm"


def _indexes_fresh(part: str) -> bool:
    for disp in kernels(part).values():
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


def is_warm(part: str = "transitions") -> bool:
    """True when every kernel of ``part`` loads from the cache (module docstring); cost: a
    few small file reads.

    Raises:
        ValueError: an unknown part.
    """
    return marker_path(part).is_file() and _indexes_fresh(part)


def mark_warm(seconds: float, part: str = "transitions") -> Path | None:
    """Write ``part``'s marker after its complete warm-up that took ``seconds``; return its
    path, or ``None`` when the cache directory is not writable (the next run then warms
    again)."""
    path = marker_path(part)
    info = {"key": cache_key(part), "kernels": len(kernels(part)), "seconds": round(seconds, 3)}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(info) + "\n")
    except OSError:
        return None
    return path
