"""Training the learned value (``coloretto train value``): self-play positions from the fast
core, a small PyTorch multilayer perceptron, weights written for NumPy/Numba inference.

1. **Data** (``generate``): ``games`` self-play games spread evenly over ``TRAIN_RULES``
   (2 to 5 players, classic and modern editions, brown and violet tables), played and
   recorded by ``coloretto.fastcore.selfplay.record_games`` (the ``threshold`` policy,
   or with ``policy="heuristic"`` the compiled heuristic, with exploration; positions kept
   at random; features from the seat to move; targets: each seat's win share and final
   margin).
2. **Fit** (``fit``): the perceptron of ``coloretto.fastcore.value`` (ReLU, two hidden
   layers), loss = cross-entropy of the softmax over the present seats against the win
   shares + binary cross-entropy of the squashed margin
   (``clip(0.5 + margin / (2 * margin_scale), 0, 1)``); Adam, mini-batches; the last
   ``VALIDATION_SHARE`` of the games is held out and reported.

Reproducible from its seed: the games' random streams derive from it, and PyTorch runs
seeded, single-threaded and in deterministic mode. Needs the ``train`` extra (torch).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .._optional import require, require_extra
from ..engine.rules import Rules
from .compiled_names import SELFPLAY_POLICIES

# NumPy is imported inside the functions that compute, so that importing this module
# costs no more than its names.
if TYPE_CHECKING:
    import numpy as np

__all__ = ["TRAIN_RULES", "TrainResult", "fit", "generate", "train_value"]


TRAIN_RULES: Final = tuple(
    Rules(players=p, edition=e, table=t)
    for p in (2, 3, 4, 5)
    for e in ("classic", "modern")
    for t in ("brown", "violet")
)
"""The rules self-play games are spread over."""

VALIDATION_SHARE: Final = 0.1
EXPLORE: Final = 0.1
KEEP: Final = 0.3


@dataclass
class TrainResult:
    """What ``train_value`` produced.

    Attributes:
        weights: ``(w1, b1, w2, b2, w3, b3)`` (float32 NumPy arrays, ``w`` as (out, in)).
        meta: the model file's metadata (``coloretto.agents.value``): games, seed, rules,
            positions, seconds (generation, fit), losses and validation figures.
    """

    weights: tuple[np.ndarray, ...]
    meta: dict[str, Any]


def generate(
    games: int,
    seed: int,
    explore: float = EXPLORE,
    keep: float = KEEP,
    policy: str = "threshold",
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play and record ``games`` self-play games (module docstring), the games of each rule
    set of ``TRAIN_RULES`` interleaved in game order. ``policy``: one of
    ``SELFPLAY_POLICIES`` (``threshold`` or ``heuristic``, with the heuristic's weights of
    each rule set's table).

    Returns:
        ``(features, players, win, margin, game)``: ``float32[P, N_FEATURES]``,
        ``int64[P]``, ``float32[P, 5]`` twice (seat slots from the seat to move; zero for
        absent seats) and ``int64[P]`` the index of each position's game.

    Raises:
        ValueError: ``games`` < 1, ``explore`` / ``keep`` outside [0, 1], or an unknown
            policy.
    """
    from ..fastcore.api import rules_template
    from ..fastcore.heuristic import params_array
    from ..fastcore.selfplay import record_games
    from ..fastcore.value import N_FEATURES
    from .heuristic import params_for_rules
    from .mcts import THRESHOLD_A, THRESHOLD_B

    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if not (0.0 <= explore <= 1.0 and 0.0 < keep <= 1.0):
        raise ValueError("explore must be in [0, 1] and keep in (0, 1]")
    if policy not in SELFPLAY_POLICIES:
        known = ", ".join(SELFPLAY_POLICIES)
        raise ValueError(f"unknown self-play policy {policy!r}; known: {known}")
    import numpy as np

    parts: list[tuple[np.ndarray, ...]] = []
    root = np.uint64(seed & ((1 << 64) - 1))
    nrules = len(TRAIN_RULES)
    for r, rules in enumerate(TRAIN_RULES):
        count = len(range(r, games, nrules))
        if count == 0:
            continue
        tpl = rules_template(rules).copy()
        cap = int(count * (keep * 200 + 10)) + 1000  # above what the games can give
        f = np.empty((cap, N_FEATURES), np.float32)
        slots = np.empty(cap, np.int64)
        win = np.empty((cap, 5), np.float32)
        margin = np.empty((cap, 5), np.float32)
        game_of = np.empty(cap, np.int64)
        m = record_games(
            tpl,
            root,
            r,
            nrules,
            count,
            explore,
            keep,
            THRESHOLD_A,
            THRESHOLD_B,
            f,
            slots,
            win,
            margin,
            game_of,
            SELFPLAY_POLICIES.index(policy),
            params_array(params_for_rules(rules)),
        )
        parts.append((f[:m], slots[:m], win[:m], margin[:m], game_of[:m]))
    merged = [np.concatenate([p[i] for p in parts]) for i in range(5)]
    order = np.argsort(merged[4], kind="stable")
    return tuple(x[order] for x in merged)  # type: ignore[return-value]


def fit(
    data: tuple[np.ndarray, ...],
    seed: int,
    *,
    hidden: int = 64,
    epochs: int = 6,
    batch: int = 512,
    lr: float = 2e-3,
    margin_scale: float = 20.0,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[tuple[np.ndarray, ...], dict[str, float]]:
    """Fit the perceptron to ``data`` (``generate``'s output); returns the weights and the
    training and validation figures (``train_loss``, ``val_loss``, ``val_winner_accuracy``:
    share of held-out positions whose most likely seat won, ``val_margin_mae``: mean
    absolute error of the predicted margin in points).

    Raises:
        MissingExtra: torch is not installed (the ``train`` extra).
        ValueError: too little data to hold out a validation part.
    """
    import numpy as np

    torch = require("torch", "train", "coloretto train value")

    feats, players, win, margin, game = data
    games = int(game.max()) + 1 if len(game) else 0
    cut = games - max(1, round(games * VALIDATION_SHARE))
    train_idx = np.nonzero(game < cut)[0]
    val_idx = np.nonzero(game >= cut)[0]
    if cut < 1 or len(train_idx) == 0 or len(val_idx) == 0:
        raise ValueError("too few games to hold out a validation part (use at least 2 games)")
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    nf = feats.shape[1]
    model = torch.nn.Sequential(
        torch.nn.Linear(nf, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, 10),
    )
    x_all = torch.from_numpy(feats)
    present = torch.from_numpy(np.arange(5)[None, :] < players[:, None])
    w_all = torch.from_numpy(win)
    sq_all = torch.from_numpy(
        np.clip(0.5 + margin / (2.0 * margin_scale), 0.0, 1.0).astype(np.float32)
    )

    def loss_of(idx: Any) -> Any:
        out = model(x_all[idx])
        mask = present[idx]
        logits = out[:, :5].masked_fill(~mask, -1e9)
        logp = torch.log_softmax(logits, dim=1)
        l_win = -(w_all[idx] * logp).sum(dim=1).mean()
        bce = torch.nn.functional.binary_cross_entropy_with_logits(
            out[:, 5:], sq_all[idx], reduction="none"
        )
        l_margin = (bce * mask).sum() / mask.sum()
        return l_win + l_margin

    opt = torch.optim.Adam(model.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    tr = torch.from_numpy(train_idx)
    steps = max(1, (len(tr) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps)
    train_loss = float("nan")
    for epoch in range(epochs):
        perm = tr[torch.randperm(len(tr), generator=gen)]
        total = 0.0
        for b in range(steps):
            idx = perm[b * batch : (b + 1) * batch]
            opt.zero_grad()
            loss = loss_of(idx)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        train_loss = total / len(tr)
        if progress is not None:
            progress(epoch + 1, train_loss)
    model.eval()
    with torch.no_grad():
        vi = torch.from_numpy(val_idx)
        val_loss = float(loss_of(vi))
        out = model(x_all[vi])
        mask = present[vi]
        logits = out[:, :5].masked_fill(~mask, -1e9)
        pick = logits.argmax(dim=1)
        acc = float((w_all[vi].gather(1, pick[:, None])[:, 0] > 0).float().mean())
        pred_margin = (torch.sigmoid(out[:, 5:]) - 0.5) * 2.0 * margin_scale
        true_margin = torch.from_numpy(margin[val_idx])
        mae = float(((pred_margin - true_margin).abs() * mask).sum() / mask.sum())
    layers = [m for m in model if isinstance(m, torch.nn.Linear)]
    weights: list[np.ndarray] = []
    for layer in layers:
        weights.append(layer.weight.detach().numpy().astype(np.float32))
        weights.append(layer.bias.detach().numpy().astype(np.float32))
    figures = {
        "train_loss": train_loss,
        "val_loss": val_loss,
        "val_winner_accuracy": acc,
        "val_margin_mae": mae,
        "train_positions": float(len(train_idx)),
        "val_positions": float(len(val_idx)),
    }
    return tuple(weights), figures


def train_value(
    games: int,
    seed: int,
    *,
    hidden: int = 64,
    epochs: int = 6,
    margin_scale: float = 20.0,
    policy: str = "threshold",
    progress: Callable[[str], None] | None = None,
) -> TrainResult:
    """Generate ``games`` self-play games played by ``policy`` (``generate``) and fit the
    value to them (module docstring).

    Raises:
        ValueError: bad counts.
        MissingExtra: torch (the ``train`` extra) or numba missing.
    """
    require_extra("train", "coloretto train value")  # fail before the self-play

    say = progress or (lambda text: None)
    t0 = time.perf_counter()
    data = generate(games, seed, policy=policy)
    t_gen = time.perf_counter() - t0
    say(f"self-play: {games} games, {len(data[0])} positions in {t_gen:.1f} s")
    t1 = time.perf_counter()
    weights, figures = fit(
        data,
        seed,
        hidden=hidden,
        epochs=epochs,
        margin_scale=margin_scale,
        progress=lambda e, loss: say(f"epoch {e}/{epochs}: train loss {loss:.4f}"),
    )
    t_fit = time.perf_counter() - t1
    meta: dict[str, Any] = {
        "games": games,
        "seed": seed,
        "hidden": hidden,
        "epochs": epochs,
        "positions": len(data[0]),
        "rules": [r.to_dict() for r in TRAIN_RULES],
        "policy": f"{policy}, explore {EXPLORE}, keep {KEEP}",
        "seconds_selfplay": round(t_gen, 2),
        "seconds_fit": round(t_fit, 2),
        **{k: round(v, 5) for k, v in figures.items()},
    }
    say(
        f"fit: {t_fit:.1f} s; validation loss {figures['val_loss']:.4f}, winner accuracy "
        f"{figures['val_winner_accuracy']:.3f}, margin MAE {figures['val_margin_mae']:.2f} points"
    )
    return TrainResult(weights, meta)
