"""Compare two tournament runs game for game: the same deals, a different entry 1.

Usage: python benchmarks/paired.py A.json B.json [--entry 0] [--json]

``A.json`` and ``B.json`` are ``coloretto tournament --json`` reports of runs with the same
seed, players and options, so their deal ``d`` has the same cards and the same rotations
(``deal_seed`` checked); they differ in the agent of entry ``--entry`` (counted from 0, as
in the reports; default 0, the candidate). Over the deals both runs finished, prints each
run's win share of that entry (the mean over deals of its share at the deal's games, as the
tournament reports it) and the difference B minus A with its 95% interval over deals
(normal approximation, ``coloretto.arena.stats.mean_ci``). The duplicate deals make the
difference far less noisy than two separate intervals: the luck of the cards is the same on
both sides.

A run stopped early can be compared too: report its games with the run's command and
``--games N --checkpoint COPY`` (``coloretto tournament`` plays nothing then).

Exit status 2 with a message when a file is not a report, the runs' deals differ or they
have no deal in common.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from coloretto.arena.stats import mean_ci

WIN_SHARE_RANGE = (0.0, 1.0)


class PairingError(ValueError):
    """Two reports that cannot be compared game for game."""


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise PairingError(f"{path}: cannot read a tournament report: {exc}") from None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith("coloretto-tournament/"):
        raise PairingError(f"{path}: not a coloretto tournament report (no 'format' of one)")
    return data


def deal_shares(report: dict[str, Any], entry: int) -> dict[int, tuple[int, float]]:
    """Per finished deal of ``report``: ``(deal_seed, win share of entry)``, the share the
    mean over the deal's games (every rotation), as the tournament's own summary."""
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for game in report["games"]:
        by_deal.setdefault(int(game["deal"]), []).append(game)
    players = len(report["config"]["agents"])
    out: dict[int, tuple[int, float]] = {}
    for deal, games in by_deal.items():
        if len(games) != players:
            continue  # an unfinished deal
        shares = [g["win_shares"][g["entries"].index(entry)] for g in games]
        out[deal] = (int(games[0]["deal_seed"]), sum(shares) / len(shares))
    return out


def compare(a: dict[str, Any], b: dict[str, Any], entry: int = 0) -> dict[str, Any]:
    """Paired comparison of ``entry`` in reports ``a`` and ``b`` (module docstring).

    Returns:
        ``{"deals", "games", "agents": [a's, b's], "a": {...}, "b": {...}, "difference":
        {...}}``, each estimate ``{"mean", "low", "high", "half_width"}`` (win shares, 0 to
        1).

    Raises:
        PairingError: different players or rules, an ``entry`` out of range, a deal dealt
            differently in the two runs, or no deal finished in both.
    """
    for key in ("rules", "seed"):
        if a["config"].get(key) != b["config"].get(key):
            raise PairingError(f"the runs differ in {key}: {a['config'].get(key)} and {b['config'].get(key)}")
    players = len(a["config"]["agents"])
    if len(b["config"]["agents"]) != players:
        raise PairingError("the runs have different numbers of players")
    if not 0 <= entry < players:
        raise PairingError(f"--entry {entry}: the runs have entries 0 to {players - 1}")
    da, db = deal_shares(a, entry), deal_shares(b, entry)
    common = sorted(set(da) & set(db))
    for deal in common:
        if da[deal][0] != db[deal][0]:
            raise PairingError(f"deal {deal} was dealt differently in the two runs (deal_seed)")
    if not common:
        raise PairingError("the runs have no finished deal in common")
    sa = [da[d][1] for d in common]
    sb = [db[d][1] for d in common]

    def est(values: list[float], bounds: tuple[float, float] | None) -> dict[str, float | None]:
        e = mean_ci(values, bounds)
        return {"mean": e.mean, "low": e.low, "high": e.high, "half_width": e.half_width}

    return {
        "deals": len(common),
        "games": len(common) * players,
        "agents": [a["config"]["agents"][entry], b["config"]["agents"][entry]],
        "a": est(sa, WIN_SHARE_RANGE),
        "b": est(sb, WIN_SHARE_RANGE),
        "difference": est([y - x for x, y in zip(sa, sb)], None),
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring); returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="the first run's JSON report")
    parser.add_argument("b", type=Path, help="the second run's JSON report")
    parser.add_argument("--entry", type=int, default=0, help="the entry compared, from 0 (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        out = compare(_load(args.a), _load(args.b), args.entry)
    except PairingError as exc:
        print(f"paired.py: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out))
        return 0
    d = out["difference"]
    print(f"{out['deals']} deals in common ({out['games']} games), entry {args.entry}:")
    for side, name in zip(("a", "b"), out["agents"]):
        e = out[side]
        print(f"  {side.upper()} {name}: {_pct(e['mean'])} ({_pct(e['low'])} to {_pct(e['high'])})")
    hw = "" if d["half_width"] is None else f" ± {100 * d['half_width']:.1f}"
    print(f"  B - A: {100 * d['mean']:+.1f}{hw} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
