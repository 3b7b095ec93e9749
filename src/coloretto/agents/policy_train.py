"""Training the policy of ``coloretto.agents.policy`` on the batched environment with a small
masked PPO (PyTorch, CPU): ``coloretto train policy``.

The learner plays one seat of each of ``envs`` games of ``coloretto.envs.vector.VectorEnv``
(``observation="features"``, ``reward="margin"``); the other seats are played inside the
compiled kernel by ``random`` or ``greedy`` (the mix ``OPPONENT_MIX``: env ``i`` seats its
learner at ``i mod players`` and its opponents by ``(i // players) mod len(OPPONENT_MIX)``).
The reward is the learner's final margin (own total minus the best other total, in points,
divided by ``REWARD_SCALE``), given at the end of the game; nothing is discounted.

Each update collects ``horizon`` learner decisions from every env, computes advantages
with generalised advantage estimation (``gamma`` 1, ``lam``), and runs ``epochs`` passes of
clipped PPO over minibatches (policy loss + ``VALUE_COEF`` x value loss - ``ENTROPY_COEF``
x entropy; illegal actions get logit -1e9, so they have probability 0). Network: a shared
trunk ``N_FEATURES -> hidden -> hidden`` (ReLU) with a policy head (one logit per action
code) and a value head; the trunk and the policy head are saved (NumPy inference).
The same seed, sizes and thread count give the same weights for the same number of updates
(``--minutes`` only bounds how many updates run).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from .._optional import require
from ..engine.actions import NUM_DISTINCT_ACTIONS
from ..engine.rules import Rules

__all__ = ["OPPONENT_MIX", "TrainConfig", "TrainResult", "train_policy"]

OPPONENT_MIX: Final = ("greedy", "random", "random", "mixed")
"""Opponents of the learner, by env group: every opponent ``greedy``, every one ``random``,
or alternating ``greedy`` / ``random``."""
REWARD_SCALE: Final = 20.0
VALUE_COEF: Final = 0.5
ENTROPY_COEF: Final = 0.01
CLIP: Final = 0.2


@dataclass(frozen=True)
class TrainConfig:
    """Sizes of a training run.

    Attributes:
        players: 2 to 5.
        minutes: wall-clock budget (> 0); training stops after the first update past it.
        seed: root seed of the games and of the network's initial weights.
        envs: games stepped at once.
        horizon: learner decisions collected per env per update.
        hidden: units per hidden layer.
        epochs: PPO passes over each batch.
        minibatch: samples per gradient step.
        lr: Adam's learning rate.
        lam: GAE's lambda.
        threads: PyTorch and Numba threads.
        max_updates: stop after this many updates (None: only the time bounds it).
        edition, table: rules of the games.
    """

    players: int = 4
    minutes: float = 25.0
    seed: int = 0
    envs: int = 256
    horizon: int = 32
    hidden: int = 128
    epochs: int = 3
    minibatch: int = 2048
    lr: float = 3e-4
    lam: float = 0.95
    threads: int = 1
    max_updates: int | None = None
    edition: str = "classic"
    table: str = "brown"


@dataclass
class TrainResult:
    """Weights ``(w1, b1, w2, b2, w3, b3)`` for ``write_policy`` and the run's metadata
    (``meta``: the config, ``updates``, ``samples``, ``games``, ``seconds``, ``losses`` per
    update, and per opponent group the learner's mean margin and win share in the last
    quarter of the games)."""

    weights: tuple[np.ndarray, ...]
    meta: dict[str, Any] = field(default_factory=dict)


def _opponents(cfg: TrainConfig) -> list[list[str | None]]:
    table: list[list[str | None]] = []
    for i in range(cfg.envs):
        learner = i % cfg.players
        kind = OPPONENT_MIX[(i // cfg.players) % len(OPPONENT_MIX)]
        seats: list[str | None] = []
        k = 0
        for s in range(cfg.players):
            if s == learner:
                seats.append(None)
                continue
            if kind == "mixed":
                seats.append("greedy" if k % 2 == 0 else "random")
            else:
                seats.append(kind)
            k += 1
        table.append(seats)
    return table


def train_policy(cfg: TrainConfig, progress: Callable[[str], None] | None = None) -> TrainResult:
    """Train a policy (module docstring).

    Raises:
        MissingExtra: PyTorch (the ``train`` extra) is not installed.
        ValueError: a size out of range.
    """
    torch = require("torch", "train", "coloretto train policy")
    from ..envs.vector import VectorEnv
    from ..fastcore.value import N_FEATURES

    if cfg.envs < 1 or cfg.horizon < 1 or cfg.hidden < 4 or cfg.epochs < 1:
        raise ValueError("envs, horizon, epochs must be positive and hidden at least 4")
    if not cfg.minutes > 0:
        raise ValueError(f"minutes must be positive, not {cfg.minutes}")
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    nn = torch.nn
    rules = Rules(players=cfg.players, edition=cfg.edition, table=cfg.table)  # type: ignore[arg-type]
    opponents = _opponents(cfg)
    env = VectorEnv(
        cfg.envs,
        rules,
        opponents=opponents,
        observation="features",
        reward="margin",
        threads=cfg.threads,
    )
    group = np.array(
        [OPPONENT_MIX[(i // cfg.players) % len(OPPONENT_MIX)] for i in range(cfg.envs)]
    )
    learner = np.arange(cfg.envs) % cfg.players

    class Net(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.l1 = nn.Linear(N_FEATURES, cfg.hidden)
            self.l2 = nn.Linear(cfg.hidden, cfg.hidden)
            self.pi = nn.Linear(cfg.hidden, NUM_DISTINCT_ACTIONS)
            self.v = nn.Linear(cfg.hidden, 1)
            nn.init.zeros_(self.pi.weight)
            nn.init.zeros_(self.pi.bias)

        def forward(self, x: Any) -> tuple[Any, Any]:
            h = torch.relu(self.l2(torch.relu(self.l1(x))))
            return self.pi(h), self.v(h).squeeze(-1)

    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    say = progress or (lambda _text: None)
    obs, mask = env.reset(seed=cfg.seed)
    n, t_len = cfg.envs, cfg.horizon
    b_obs = np.zeros((t_len, n, N_FEATURES), np.float32)
    b_mask = np.zeros((t_len, n, NUM_DISTINCT_ACTIONS), np.bool_)
    b_act = np.zeros((t_len, n), np.int64)
    b_logp = np.zeros((t_len, n), np.float32)
    b_val = np.zeros((t_len, n), np.float32)
    b_rew = np.zeros((t_len, n), np.float32)
    b_done = np.zeros((t_len, n), np.float32)
    gen = torch.Generator().manual_seed(cfg.seed)
    finished: list[tuple[str, float]] = []
    losses: list[float] = []
    t0 = time.perf_counter()
    deadline = t0 + 60.0 * cfg.minutes
    updates = 0
    rows = np.arange(n)
    while True:
        with torch.no_grad():
            for t in range(t_len):
                x = torch.from_numpy(obs)
                m = torch.from_numpy(mask)
                logits, value = net(x)
                logits = logits.masked_fill(~m, -1e9)
                probs = torch.softmax(logits, -1)
                act = torch.multinomial(probs, 1, generator=gen).squeeze(-1)
                logp = torch.log(probs.gather(1, act[:, None]).squeeze(-1) + 1e-12)
                b_obs[t] = obs
                b_mask[t] = mask
                b_act[t] = act.numpy()
                b_logp[t] = logp.numpy()
                b_val[t] = value.numpy()
                obs, mask, rewards, dones = env.step(b_act[t])
                r = rewards[rows, learner]
                b_rew[t] = r / REWARD_SCALE
                b_done[t] = dones
                for i in np.flatnonzero(dones):
                    finished.append((str(group[i]), float(r[i])))
            _, last_val = net(torch.from_numpy(obs))
            last_val = last_val.numpy()
        adv = np.zeros((t_len, n), np.float32)
        gae = np.zeros(n, np.float32)
        for t in range(t_len - 1, -1, -1):
            next_val = last_val if t == t_len - 1 else b_val[t + 1]
            live = 1.0 - b_done[t]
            delta = b_rew[t] + next_val * live - b_val[t]
            gae = delta + cfg.lam * live * gae
            adv[t] = gae
        ret = adv + b_val
        total = t_len * n
        f_obs = torch.from_numpy(b_obs.reshape(total, -1))
        f_mask = torch.from_numpy(b_mask.reshape(total, -1))
        f_act = torch.from_numpy(b_act.reshape(total))
        f_logp = torch.from_numpy(b_logp.reshape(total))
        f_adv = torch.from_numpy(adv.reshape(total))
        f_ret = torch.from_numpy(ret.reshape(total))
        update_loss = 0.0
        steps = 0
        for _ in range(cfg.epochs):
            perm = torch.randperm(total, generator=gen)
            for lo in range(0, total, cfg.minibatch):
                idx = perm[lo : lo + cfg.minibatch]
                logits, value = net(f_obs[idx])
                logits = logits.masked_fill(~f_mask[idx], -1e9)
                logp_all = torch.log_softmax(logits, -1)
                logp = logp_all.gather(1, f_act[idx][:, None]).squeeze(-1)
                a = f_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                ratio = torch.exp(logp - f_logp[idx])
                pg = -torch.min(ratio * a, torch.clamp(ratio, 1 - CLIP, 1 + CLIP) * a).mean()
                vloss = ((value - f_ret[idx]) ** 2).mean()
                p = torch.exp(logp_all)
                ent = -(p * logp_all.masked_fill(~f_mask[idx], 0.0)).sum(-1).mean()
                loss = pg + VALUE_COEF * vloss - ENTROPY_COEF * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
                update_loss += float(loss.detach())
                steps += 1
        updates += 1
        losses.append(update_loss / steps)
        recent = finished[-2000:]
        if recent:
            margin = sum(r for _, r in recent) / len(recent)
            say(
                f"update {updates}: loss {losses[-1]:.4f} games {len(finished)} "
                f"mean margin (last {len(recent)}) {margin:+.2f} "
                f"{time.perf_counter() - t0:.0f} s"
            )
        if time.perf_counter() >= deadline:
            break
        if cfg.max_updates is not None and updates >= cfg.max_updates:
            break
    seconds = time.perf_counter() - t0
    weights = tuple(
        p.detach().numpy().astype(np.float32).copy()
        for p in (
            net.l1.weight,
            net.l1.bias,
            net.l2.weight,
            net.l2.bias,
            net.pi.weight,
            net.pi.bias,
        )
    )
    quarter = finished[len(finished) * 3 // 4 :]
    groups: dict[str, dict[str, float]] = {}
    for kind in sorted(set(OPPONENT_MIX)):
        rs = [r for g, r in quarter if g == kind]
        if rs:
            groups[kind] = {
                "games": len(rs),
                "mean_margin": round(sum(rs) / len(rs), 3),
                "sole_wins": round(sum(1 for r in rs if r > 0) / len(rs), 4),
            }
    meta: dict[str, Any] = {
        "players": cfg.players,
        "edition": cfg.edition,
        "table": cfg.table,
        "seed": cfg.seed,
        "minutes": cfg.minutes,
        "envs": cfg.envs,
        "horizon": cfg.horizon,
        "hidden": cfg.hidden,
        "epochs": cfg.epochs,
        "threads": cfg.threads,
        "updates": updates,
        "samples": updates * n * t_len,
        "games": len(finished),
        "seconds": round(seconds, 1),
        "losses": [round(x, 5) for x in losses],
        "training_opponents": groups,
        "opponent_mix": list(OPPONENT_MIX),
    }
    if any(not math.isfinite(x) for x in losses):
        raise ValueError("training diverged (a loss is not finite)")
    return TrainResult(weights, meta)
