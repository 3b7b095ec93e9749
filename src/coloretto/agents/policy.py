"""The trained policy: files, loading and the ``policy:FILE`` agent (NumPy inference; no
PyTorch needed to play).

A policy file is a NumPy ``.npz`` archive with the arrays ``w1, b1, w2, b2, w3, b3`` of a
multilayer perceptron ``N_FEATURES -> H1 -> H2 -> NUM_DISTINCT_ACTIONS`` with ReLU hidden
layers (``w`` of shape (out, in)) whose input is the fast core's position features of the
seat to move (``coloretto.fastcore.value.features``: colours in a canonical order, rows
with each seat's gain) and whose outputs are one logit per action code
(``coloretto.engine.actions``), and ``meta``, a JSON text: ``format`` (``POLICY_FORMAT``),
``features``, ``actions``, and how it was trained (``players``, ``seed``, ``minutes``,
``updates``, ``samples``, results). ``coloretto train policy`` writes one
(``coloretto.agents.policy_train``); the package ships ``BUILTIN`` in
``coloretto/agents/data`` (spec ``policy:builtin``).

The agent plays the legal action with the highest logit (ties: the lowest code). Starting
colours (``starting_cards="choose"``) are not part of what the policy learned: it chooses
them uniformly with its own ``Rng``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

from ..engine.actions import NUM_DISTINCT_ACTIONS, Action
from ..engine.domain import Phase
from ..engine.errors import ConfigurationError
from ..engine.observation import Observation
from .base import Agent, Budget

__all__ = [
    "BUILTIN",
    "POLICY_FORMAT",
    "PolicyAgent",
    "PolicyModel",
    "load_policy",
    "read_policy",
    "write_policy",
]

POLICY_FORMAT: Final = "coloretto-policy/1"
BUILTIN: Final = "policy-4p.npz"
"""The policy shipped with the package (``coloretto/agents/data``), spec ``policy:builtin``."""
BUILTIN_NAME: Final = "builtin"
_NAMES: Final = ("w1", "b1", "w2", "b2", "w3", "b3")


@dataclass(frozen=True)
class PolicyModel:
    """A loaded policy.

    Attributes:
        weights: ``(w1, b1, w2, b2, w3, b3)`` as C-contiguous float32 arrays.
        meta: the file's metadata (module docstring).
    """

    weights: tuple[np.ndarray, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def logits(self, features: np.ndarray) -> np.ndarray:
        """Action logits for a batch of feature vectors.

        Args:
            features: float ``(B, N_FEATURES)`` or ``(N_FEATURES,)``.

        Returns:
            float32 ``(B, NUM_DISTINCT_ACTIONS)`` (or ``(NUM_DISTINCT_ACTIONS,)``).
        """
        w1, b1, w2, b2, w3, b3 = self.weights
        x = np.asarray(features, np.float32)
        h = np.maximum(x @ w1.T + b1, 0.0)
        h = np.maximum(h @ w2.T + b2, 0.0)
        out: np.ndarray = h @ w3.T + b3
        return out

    def best(self, features: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The legal action with the highest logit for each row (ties: the lowest code).

        Args:
            features: float ``(B, N_FEATURES)``.
            mask: bool ``(B, NUM_DISTINCT_ACTIONS)``, at least one True per row.

        Returns:
            int64 ``(B,)`` action codes.
        """
        z = np.where(mask, self.logits(features), -np.inf)
        out: np.ndarray = np.argmax(z, axis=1)
        return out


def write_policy(path: str | Path, weights: Sequence[np.ndarray], meta: dict[str, Any]) -> None:
    """Write a policy file (module docstring) to ``path``.

    Raises:
        ValueError: the weights do not have the shapes of the policy.
        OSError: the file cannot be written.
    """
    model = _check(tuple(np.asarray(w, np.float32) for w in weights), dict(meta), str(path))
    full = {**model.meta, "format": POLICY_FORMAT}
    arrays = dict(zip(_NAMES, model.weights, strict=True))
    with open(path, "wb") as fh:
        np.savez(fh, meta=np.array(json.dumps(full)), **arrays)  # type: ignore[arg-type]


def _check(weights: tuple[np.ndarray, ...], meta: dict[str, Any], where: str) -> PolicyModel:
    from ..fastcore.value import N_FEATURES

    if len(weights) != 6:
        raise ValueError(f"{where}: a policy has 6 arrays, not {len(weights)}")
    w1, b1, w2, b2, w3, b3 = weights
    ok = (
        w1.ndim == 2
        and w1.shape[1] == N_FEATURES
        and b1.shape == (w1.shape[0],)
        and w2.ndim == 2
        and w2.shape[1] == w1.shape[0]
        and b2.shape == (w2.shape[0],)
        and w3.shape == (NUM_DISTINCT_ACTIONS, w2.shape[0])
        and b3.shape == (NUM_DISTINCT_ACTIONS,)
    )
    if not ok:
        shapes = [tuple(w.shape) for w in weights]
        raise ValueError(
            f"{where}: weights of shapes {shapes} are not a {N_FEATURES} -> H1 -> H2 -> "
            f"{NUM_DISTINCT_ACTIONS} policy"
        )
    if not all(np.isfinite(w).all() for w in weights):
        raise ValueError(f"{where}: the weights hold NaN or infinite values")
    meta.setdefault("features", int(N_FEATURES))
    meta.setdefault("actions", NUM_DISTINCT_ACTIONS)
    return PolicyModel(tuple(np.ascontiguousarray(w) for w in weights), meta)


def _parse(source: Any, where: str) -> PolicyModel:
    try:
        with np.load(source, allow_pickle=False) as data:
            missing = [k for k in (*_NAMES, "meta") if k not in data]
            if missing:
                raise ConfigurationError(f"{where}: not a policy file (missing {missing})")
            meta = json.loads(str(data["meta"]))
            weights = tuple(np.asarray(data[k], np.float32) for k in _NAMES)
    except ConfigurationError:
        raise
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigurationError(f"{where}: not a readable policy file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != POLICY_FORMAT:
        raise ConfigurationError(f"{where}: not a {POLICY_FORMAT} file")
    try:
        return _check(weights, meta, where)
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None


def read_policy(path: str | Path) -> PolicyModel:
    """Load the policy file at ``path``.

    Raises:
        ConfigurationError: no such file, or not a valid policy file (the message says why).
    """
    p = Path(path)
    if not p.is_file():
        raise ConfigurationError(f"policy file {str(p)!r}: no such file")
    return _parse(p, f"policy file {str(p)!r}")


def load_policy(name: str) -> PolicyModel:
    """The policy named by a ``policy:`` spec's argument: ``builtin`` (the shipped
    ``BUILTIN``) or a file path.

    Raises:
        ConfigurationError: as ``read_policy``.
    """
    if name == BUILTIN_NAME:
        ref = resources.files("coloretto.agents") / "data" / BUILTIN
        with resources.as_file(ref) as path:
            return _parse(path, f"the built-in policy {BUILTIN}")
    return read_policy(name)


class PolicyAgent(Agent):
    """The ``policy:FILE`` agent (``policy`` alone: the built-in policy): the trained
    policy's best legal action (module docstring). The budget is not used.

    Raises:
        ConfigurationError: (construction) the policy cannot be loaded.
    """

    name = "policy"

    def __init__(
        self, seed: int = 0, budget: Budget | None = None, source: str = BUILTIN_NAME
    ) -> None:
        super().__init__(seed=seed, budget=budget)
        self.model = load_policy(source)
        self.source = source

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The legal action with the highest logit at a turn or place decision; a uniform
        choice of ``legal`` for a starting colour."""
        from ..fastcore import encode
        from ..fastcore import value as V

        state = observation.state
        if state.phase not in (Phase.TURN, Phase.PLACE):  # choosing starting colours
            return legal[self.rng.below(len(legal))]
        f = np.empty(V.N_FEATURES, np.float64)
        V.features(encode(state).a, f, np.empty(10, np.int64))
        by_code = {a.code: a for a in legal}
        mask = np.zeros((1, NUM_DISTINCT_ACTIONS), np.bool_)
        mask[0, list(by_code)] = True
        return by_code[int(self.model.best(f[None, :], mask)[0])]
