"""The learned value: files, loading and evaluation (NumPy; no PyTorch needed to play).

A model file is a NumPy ``.npz`` archive with the arrays ``w1, b1, w2, b2, w3, b3`` of the
multilayer perceptron of ``coloretto.fastcore.value`` (``w`` of shape (out, in)) and
``meta``, a JSON text: ``format`` (``MODEL_FORMAT``), ``features`` (``N_FEATURES``),
``margin_scale`` (points), and how it was trained (``games``, ``seed``, ``rules``,
``seconds``, losses). ``coloretto train value`` writes one; the package ships
``DEFAULT_MODEL`` in ``coloretto/agents/data`` (loaded with ``importlib.resources``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

from ..engine.errors import ConfigurationError
from ..engine.state import GameState

__all__ = [
    "DEFAULT_MODEL",
    "MODEL_FORMAT",
    "ValueModel",
    "load_value_model",
    "read_value_model",
    "write_value_model",
]

MODEL_FORMAT: Final = "coloretto-value/1"
DEFAULT_MODEL: Final = "value-v1.npz"
"""The model shipped with the package (``coloretto/agents/data``)."""

_NAMES: Final = ("w1", "b1", "w2", "b2", "w3", "b3")


@dataclass(frozen=True)
class ValueModel:
    """A loaded value model.

    Attributes:
        weights: ``(w1, b1, w2, b2, w3, b3)`` as C-contiguous float64 arrays.
        margin_scale: points of margin that the squashed margin output maps to 1.
        meta: the file's metadata (module docstring).
    """

    weights: tuple[np.ndarray, ...]
    margin_scale: float
    meta: dict[str, Any] = field(default_factory=dict)

    def evaluate(self, state: GameState, margin_weight: float = 0.3) -> dict[str, list[float]]:
        """Every seat's predicted win probability, margin (points) and search reward in
        ``state`` (a turn or place decision of a single game; only public information is
        read). Lists are indexed by seat.

        Raises:
            ValueError: ``state`` is not a turn or place decision.
        """
        from ..fastcore import encode
        from ..fastcore import value as V

        if state.phase not in (0, 1):
            raise ValueError(
                f"the value is defined at turn and place decisions, not {state.decision}"
            )
        a = encode(state).a
        f = np.empty(V.N_FEATURES, np.float64)
        V.features(a, f, np.empty(10, np.int64))
        n = state.n
        r = np.empty(5)
        w = np.empty(5)
        m = np.empty(5)
        V.predict(
            f, self.weights, np.empty(V.HIDDEN_CELLS), n, margin_weight, r, w, m, self.margin_scale
        )
        out: dict[str, list[float]] = {"win": [0.0] * n, "margin": [0.0] * n, "reward": [0.0] * n}
        for k in range(n):
            p = (state.to_move + k) % n
            out["win"][p] = float(w[k])
            out["margin"][p] = float(m[k])
            out["reward"][p] = float(r[k])
        return out


def write_value_model(
    path: str | Path, weights: tuple[np.ndarray, ...], margin_scale: float, meta: dict[str, Any]
) -> None:
    """Write a model file (module docstring); weights are stored as float32."""
    from ..fastcore.value import N_FEATURES

    data = {name: np.asarray(w, np.float32) for name, w in zip(_NAMES, weights)}
    info = {**meta, "format": MODEL_FORMAT, "features": N_FEATURES, "margin_scale": margin_scale}
    with open(path, "wb") as fh:
        np.savez_compressed(fh, meta=np.array(json.dumps(info, sort_keys=True)), **data)  # type: ignore[arg-type]


def _parse(source: Any, where: str) -> ValueModel:
    from ..fastcore.value import N_FEATURES, N_OUTPUTS

    try:
        with np.load(source, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            arrays = tuple(np.ascontiguousarray(z[name], np.float64) for name in _NAMES)
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
        raise ConfigurationError(f"{where}: not a readable value model ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
        raise ConfigurationError(f"{where}: not a {MODEL_FORMAT} file")
    w1, b1, w2, b2, w3, b3 = arrays
    ok = (
        w1.ndim == 2
        and w1.shape[1] == N_FEATURES
        and b1.shape == (w1.shape[0],)
        and w2.ndim == 2
        and w2.shape[1] == w1.shape[0]
        and b2.shape == (w2.shape[0],)
        and w3.shape == (N_OUTPUTS, w2.shape[0])
        and b3.shape == (N_OUTPUTS,)
        and w1.shape[0] + w2.shape[0] + N_OUTPUTS <= 512
    )
    if not ok:
        raise ConfigurationError(
            f"{where}: weight shapes {[a.shape for a in arrays]} do not fit "
            f"{N_FEATURES} features and {N_OUTPUTS} outputs"
        )
    scale = float(meta.get("margin_scale", 0.0))
    if not scale > 0:
        raise ConfigurationError(f"{where}: margin_scale must be positive")
    return ValueModel(arrays, scale, meta)


def read_value_model(path: str | Path) -> ValueModel:
    """Load a model file.

    Raises:
        ConfigurationError: unreadable file, wrong format, or shapes that do not fit the
            features of this version.
    """
    return _parse(path, str(path))


_CACHE: dict[str, ValueModel] = {}


def load_value_model(name: str = DEFAULT_MODEL) -> ValueModel:
    """The model ``name`` shipped in ``coloretto/agents/data`` (cached per process).

    Raises:
        ConfigurationError: the file is missing from the installation or unreadable.
    """
    hit = _CACHE.get(name)
    if hit is not None:
        return hit
    ref = resources.files("coloretto.agents").joinpath("data").joinpath(name)
    if not ref.is_file():
        raise ConfigurationError(f"value model {name!r} is not installed (coloretto/agents/data)")
    with ref.open("rb") as fh:
        model = _parse(fh, f"coloretto/agents/data/{name}")
    _CACHE[name] = model
    return model
