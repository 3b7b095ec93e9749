"""``coloretto train value`` and ``coloretto train policy``: train the learned value from
fast-core self-play, or the policy on the batched environment.

``coloretto train value --games N --seed S --out FILE [--epochs E] [--hidden H]
[--policy threshold|heuristic] [--json]``
plays N self-play games (``coloretto.agents.value_train``), fits the value and writes the
model file (``coloretto.agents.value``). The same seed gives the same weights. Needs the
``train`` extra (PyTorch) and the ``fast`` extra (Numba).

``coloretto train policy --players P --minutes M --out FILE --seed S [--threads T]
[--envs N] [--horizon H] [--hidden H] [--max-updates U] [--force] [--json]`` trains the
policy of ``coloretto.agents.policy`` with a masked PPO on ``coloretto.envs.vector``
(``coloretto.agents.policy_train``) for at most M minutes and writes the policy file, which
plays as the agent ``policy:FILE`` (docs/rl.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from .._optional import require_extra
from ..agents.compiled_names import SELFPLAY_POLICIES
from .main import UsageError

MAX_GAMES = 10_000_000


def register(subparsers: Any) -> None:
    """Add the ``train`` parser and its ``value`` subcommand."""
    p = subparsers.add_parser(
        "train", help="train the learned value (self-play) or a policy (batched environment)"
    )
    sub = p.add_subparsers(dest="train_command", metavar="MODEL")
    sub.required = True
    v = sub.add_parser(
        "value",
        help="self-play games in the fast core, then fit the value (PyTorch)",
        description=(
            "Play self-play games in the fast core (the threshold policy or the heuristic, "
            "with exploration; 2 to 5 players, classic and modern, brown and violet tables), fit a small "
            "multilayer perceptron that predicts each seat's chance to win and final "
            "margin, and write it as a .npz model file (NumPy inference)."
        ),
    )
    v.add_argument("--games", type=int, required=True, help=f"self-play games, 16 to {MAX_GAMES}")
    v.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    v.add_argument("--out", required=True, metavar="FILE", help="model file to write (.npz)")
    v.add_argument(
        "--epochs", type=int, default=6, help="passes over the data, 1 to 100 (default 6)"
    )
    v.add_argument(
        "--hidden", type=int, default=64, help="units per hidden layer, 4 to 240 (default 64)"
    )
    v.add_argument(
        "--policy",
        choices=SELFPLAY_POLICIES,
        default="threshold",
        help=(
            "who plays the self-play games: threshold (the search's rollout policy, the "
            "default; the shipped model) or heuristic (the compiled heuristic: stronger play, "
            "slower games)"
        ),
    )
    v.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    v.add_argument("--json", action="store_true", help="print the model's metadata as JSON")
    v.set_defaults(func=run_value)
    pp = sub.add_parser(
        "policy",
        help="train a policy on the batched environment (masked PPO, PyTorch)",
        description=(
            "Train a policy for one seat against random and greedy opponents played inside "
            "the compiled batched environment (reward: the final margin), with a small "
            "masked PPO on the CPU, and write it as a .npz policy file (NumPy inference; "
            "play it with the agent spec policy:FILE)."
        ),
    )
    pp.add_argument("--players", type=int, default=4, help="players, 2 to 5 (default 4)")
    pp.add_argument(
        "--minutes", type=float, required=True, help="training time budget in minutes, more than 0 and at most 600"
    )
    pp.add_argument("--out", required=True, metavar="FILE", help="policy file to write (.npz)")
    pp.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    pp.add_argument(
        "--threads", type=int, default=1, help="PyTorch and Numba threads, 1 to 64 (default 1)"
    )
    pp.add_argument("--envs", type=int, default=256, help="games stepped at once (default 256)")
    pp.add_argument(
        "--horizon", type=int, default=32, help="decisions per game per update (default 32)"
    )
    pp.add_argument(
        "--hidden", type=int, default=128, help="units per hidden layer, 4 to 1024 (default 128)"
    )
    pp.add_argument("--max-updates", type=int, default=None, help="stop after this many updates")
    pp.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    pp.add_argument("--json", action="store_true", help="print the policy's metadata as JSON")
    pp.set_defaults(func=run_policy)


def _check_out(path: str, force: bool) -> Path:
    out = Path(path)
    if out.exists() and not force:
        raise UsageError(f"--out {out}: the file exists (give --force to overwrite it)")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: no such directory {out.parent}")
    return out


def run_policy(args: argparse.Namespace) -> int:
    """``train policy``: exit 0 with the file written; 2 on bad input or missing extras."""
    if not 2 <= args.players <= 5:
        raise UsageError(f"--players must be 2 to 5, not {args.players}")
    if not 0 < args.minutes <= 600:
        raise UsageError(f"--minutes must be more than 0 and at most 600, not {args.minutes}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads must be 1 to 64, not {args.threads}")
    if not 1 <= args.envs <= 1 << 16:
        raise UsageError(f"--envs must be 1 to {1 << 16}, not {args.envs}")
    if not 1 <= args.horizon <= 4096:
        raise UsageError(f"--horizon must be 1 to 4096, not {args.horizon}")
    if not 4 <= args.hidden <= 1024:
        raise UsageError(f"--hidden must be 4 to 1024, not {args.hidden}")
    if args.max_updates is not None and args.max_updates < 1:
        raise UsageError(f"--max-updates must be positive, not {args.max_updates}")
    out = _check_out(args.out, args.force)
    require_extra("train", "coloretto train policy")
    require_extra("fast", "coloretto train policy")
    from ..agents.policy import write_policy
    from ..agents.policy_train import TrainConfig, train_policy

    cfg = TrainConfig(
        players=args.players,
        minutes=args.minutes,
        seed=args.seed,
        envs=args.envs,
        horizon=args.horizon,
        hidden=args.hidden,
        threads=args.threads,
        max_updates=args.max_updates,
    )

    def say(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    result = train_policy(cfg, progress=say)
    tmp = out.with_name(out.name + ".tmp")
    try:
        write_policy(tmp, result.weights, result.meta)
        tmp.replace(out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"--out {out}: cannot write: {exc}") from None
    if args.json:
        print(json.dumps(result.meta))
    else:
        print(
            f"wrote {out} ({out.stat().st_size} bytes): {result.meta['updates']} updates, "
            f"{result.meta['games']} games in {result.meta['seconds']:.1f} s"
        )
    return 0


def run_value(args: argparse.Namespace) -> int:
    """``train value``: exit 0 with the file written; 2 on bad input or missing extras."""
    if not 16 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be 16 to {MAX_GAMES}, not {args.games}")
    if not 1 <= args.epochs <= 100:
        raise UsageError(f"--epochs must be 1 to 100, not {args.epochs}")
    if not 4 <= args.hidden <= 240:
        raise UsageError(f"--hidden must be 4 to 240, not {args.hidden}")
    out = _check_out(args.out, args.force)
    require_extra("train", "coloretto train value")
    require_extra("fast", "coloretto train value")
    from ..agents.value import write_value_model
    from ..agents.value_train import train_value
    t0 = time.perf_counter()
    quiet = args.json

    def say(text: str) -> None:
        if not quiet:
            print(text, file=sys.stderr)

    try:
        result = train_value(
            args.games,
            args.seed,
            hidden=args.hidden,
            epochs=args.epochs,
            policy=args.policy,
            progress=say,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    result.meta["seconds_total"] = round(time.perf_counter() - t0, 2)
    tmp = out.with_name(out.name + ".tmp")
    try:
        write_value_model(tmp, result.weights, 20.0, result.meta)
        tmp.replace(out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"--out {out}: cannot write: {exc}") from None
    if args.json:
        print(json.dumps(result.meta))
    else:
        print(f"wrote {out} ({out.stat().st_size} bytes) in {result.meta['seconds_total']:.1f} s")
    return 0
