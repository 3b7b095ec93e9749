"""Reports of a tournament: JSON, CSV, a PNG plot of win shares, and a terminal table.

CSV columns (one row per entry, then one per distinct agent spec, ``kind`` telling which):
``kind, entry, agent, entries, games, win_share, win_share_low, win_share_high, mean_score,
mean_score_low, mean_score_high, mean_margin, mean_margin_low, mean_margin_high, mean_rank,
mean_rank_low, mean_rank_high, seconds_per_decision_mean, seconds_per_decision_p95,
decisions, rating_mu, rating_sigma, rating_ordinal, failures, forfeits``. Interval ends are
empty without an interval (fewer than two deals); ratings are empty for aggregates.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from typing import IO, Any, Final

from .._optional import require
from .stats import Estimate
from .tournament import Summary, TournamentResult

CSV_COLUMNS: Final = (
    "kind",
    "entry",
    "agent",
    "entries",
    "games",
    "win_share",
    "win_share_low",
    "win_share_high",
    "mean_score",
    "mean_score_low",
    "mean_score_high",
    "mean_margin",
    "mean_margin_low",
    "mean_margin_high",
    "mean_rank",
    "mean_rank_low",
    "mean_rank_high",
    "seconds_per_decision_mean",
    "seconds_per_decision_p95",
    "decisions",
    "rating_mu",
    "rating_sigma",
    "rating_ordinal",
    "failures",
    "forfeits",
)


def _open(path: str) -> IO[str]:
    return sys.stdout if path == "-" else open(path, "w", encoding="utf-8", newline="")


def write_json(result: TournamentResult, path: str) -> None:
    """Write ``result.to_json()`` to ``path`` (``"-"``: standard output), indented."""
    out = _open(path)
    try:
        json.dump(result.to_json(), out, indent=2)
        out.write("\n")
    finally:
        if out is not sys.stdout:
            out.close()


def _est(e: Estimate) -> list[Any]:
    return [e.mean, "" if e.low is None else e.low, "" if e.high is None else e.high]


def csv_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """The CSV rows (dicts keyed by ``CSV_COLUMNS``)."""
    rows = []
    for kind, summaries in (("entry", result.entries), ("agent", result.agents)):
        for s in summaries:
            values: list[Any] = [
                kind,
                s.entries[0] if kind == "entry" else "",
                s.agent,
                " ".join(map(str, s.entries)),
                s.games,
                *_est(s.win_share),
                *_est(s.score),
                *_est(s.margin),
                *_est(s.rank),
                "" if s.decision_mean is None else s.decision_mean,
                "" if s.decision_p95 is None else s.decision_p95,
                s.decisions,
                "" if s.rating is None else s.rating.mu,
                "" if s.rating is None else s.rating.sigma,
                "" if s.rating is None else s.rating.ordinal,
                s.failures,
                s.forfeits,
            ]
            rows.append(dict(zip(CSV_COLUMNS, values)))
    return rows


def write_csv(result: TournamentResult, path: str) -> None:
    """Write the CSV summary (module docstring) to ``path`` (``"-"``: standard output)."""
    out = _open(path)
    try:
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(csv_rows(result))
    finally:
        if out is not sys.stdout:
            out.close()


def write_plot(result: TournamentResult, path: str) -> None:
    """A PNG of each entry's and each aggregate's win share with its 95% interval, and the
    par line ``1/players`` (matplotlib, Agg backend).

    Raises:
        MissingExtra: matplotlib (the ``arena`` extra) is not installed.
    """
    require("matplotlib", "arena", "--plot").use("Agg")
    plt = require("matplotlib.pyplot", "arena", "--plot")
    items: list[tuple[str, Summary]] = [(f"#{s.entries[0]} {s.agent}", s) for s in result.entries]
    if len(result.agents) < len(result.entries):
        items += [
            (f"{s.agent} (all {len(s.entries)})", s) for s in result.agents if len(s.entries) > 1
        ]
    labels = [label for label, _ in items][::-1]
    means = [s.win_share.mean for _, s in items][::-1]
    errs = [s.win_share.half_width or 0.0 for _, s in items][::-1]
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 0.45 * len(items)))
    try:
        ys = list(range(len(items)))
        ax.barh(ys, means, xerr=errs, color="#4c72b0", alpha=0.8, capsize=4)
        ax.axvline(1.0 / result.config.players, color="#c44e52", linestyle="--", label="par")
        ax.set_yticks(ys, labels)
        ax.set_xlim(0, 1)
        ax.set_xlabel("win share (ties split), 95% interval")
        cfg = result.config
        ax.set_title(
            f"{cfg.games} games, {cfg.players} players, {cfg.deals} duplicate deals", fontsize=10
        )
        ax.legend(loc="lower right")
        fig.tight_layout()
        fig.savefig(path, format="png", dpi=100)
    finally:
        plt.close(fig)


def render_table(result: TournamentResult) -> str:
    """The summary as a text table (rich), for the terminal."""
    from rich.console import Console
    from rich.table import Table

    cfg = result.config
    table = Table(
        title=f"{cfg.games} games ({cfg.deals} duplicate deals x {cfg.players} seats), seed {cfg.seed}",
        caption=f"par win share {1 / cfg.players:.3f}; intervals are 95% over deals",
    )
    for col in (
        "entry",
        "agent",
        "win share",
        "score",
        "margin",
        "rank",
        "s/decision",
        "p95",
        "rating μ±σ",
        "fail",
    ):
        table.add_column(col, justify="left" if col in ("entry", "agent") else "right")

    def fmt_t(x: float | None) -> str:
        return "-" if x is None else f"{x:.4f}"

    for kind, summaries in (("entry", result.entries), ("agent", result.agents)):
        if kind == "agent" and len(result.agents) == len(result.entries):
            continue
        if kind == "agent":
            table.add_section()
        for s in summaries:
            table.add_row(
                str(s.entries[0]) if kind == "entry" else "all " + ",".join(map(str, s.entries)),
                s.agent,
                s.win_share.format(3),
                s.score.format(1),
                s.margin.format(1),
                s.rank.format(2),
                fmt_t(s.decision_mean),
                fmt_t(s.decision_p95),
                "-" if s.rating is None else f"{s.rating.mu:.1f}±{s.rating.sigma:.1f}",
                str(s.failures),
            )
    buf = io.StringIO()
    Console(file=buf, width=140, force_terminal=False, color_system=None).print(table)
    return buf.getvalue()
