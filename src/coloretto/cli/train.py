"""``coloretto train value``: train the learned value from fast-core self-play.

``coloretto train value --games N --seed S --out FILE [--epochs E] [--hidden H] [--json]``
plays N self-play games (``coloretto.agents.value_train``), fits the value and writes the
model file (``coloretto.agents.value``). The same seed gives the same weights. Needs the
``train`` extra (PyTorch) and the ``fast`` extra (Numba).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from .._optional import require_extra
from .main import UsageError

MAX_GAMES = 10_000_000


def register(subparsers: Any) -> None:
    """Add the ``train`` parser and its ``value`` subcommand."""
    p = subparsers.add_parser("train", help="train the learned value from self-play")
    sub = p.add_subparsers(dest="train_command", metavar="MODEL")
    sub.required = True
    v = sub.add_parser(
        "value",
        help="self-play games in the fast core, then fit the value (PyTorch)",
        description=(
            "Play self-play games in the fast core (threshold policy with exploration, "
            "2 to 5 players, classic and modern, brown and violet tables), fit a small "
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
    v.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    v.add_argument("--json", action="store_true", help="print the model's metadata as JSON")
    v.set_defaults(func=run_value)


def run_value(args: argparse.Namespace) -> int:
    """``train value``: exit 0 with the file written; 2 on bad input or missing extras."""
    if not 16 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be 16 to {MAX_GAMES}, not {args.games}")
    if not 1 <= args.epochs <= 100:
        raise UsageError(f"--epochs must be 1 to 100, not {args.epochs}")
    if not 4 <= args.hidden <= 240:
        raise UsageError(f"--hidden must be 4 to 240, not {args.hidden}")
    out = Path(args.out)
    if out.exists() and not args.force:
        raise UsageError(f"--out {out}: the file exists (give --force to overwrite it)")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: no such directory {out.parent}")
    require_extra("train", "coloretto train value")
    try:
        from ..agents.value import write_value_model
        from ..agents.value_train import train_value
    except ModuleNotFoundError as exc:
        raise UsageError(f"training needs the fast core (the 'fast' extra): {exc}") from None
    t0 = time.perf_counter()
    quiet = args.json

    def say(text: str) -> None:
        if not quiet:
            print(text, file=sys.stderr)

    try:
        result = train_value(
            args.games, args.seed, hidden=args.hidden, epochs=args.epochs, progress=say
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
