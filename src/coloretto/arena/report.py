"""Reports of a tournament: JSON, CSV, a PNG plot of win shares, and a terminal table.

CSV columns (one row per entry, then one per distinct agent spec, ``kind`` telling which):
``kind, entry, agent, entries, games, win_share, win_share_low, win_share_high, mean_score,
mean_score_low, mean_score_high, mean_margin, mean_margin_low, mean_margin_high, mean_rank,
mean_rank_low, mean_rank_high, seconds_per_decision_mean, seconds_per_decision_p95,
decisions, rating_elo, rating_elo_low, rating_elo_high, rating_p_ahead, rating_p_ahead_low,
rating_p_ahead_high, failures, forfeits``. Interval ends are empty without an interval
(fewer than two deals), and clipped to the values possible (win shares to [0, 1], ranks to
[1, players]; ``arena.stats``). The ``rating_`` columns are the Luce-choice rating of the
winners (``arena.ratings``), ordered as the win shares: Elo points relative to the field
mean with the ends of its 95% bootstrap interval over deals, and the model probability of
winning a heads-up against an entry of average strength with the same interval's ends
mapped. They are empty for aggregates. ``entry`` counts from 0 (the position in ``--agents``), as in the JSON; the
terminal table counts entries from 1.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import IO, Any, Final

from .._optional import require
from ..text import plural
from .ratings import Rating, p_ahead
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
    "rating_elo",
    "rating_elo_low",
    "rating_elo_high",
    "rating_p_ahead",
    "rating_p_ahead_low",
    "rating_p_ahead_high",
    "failures",
    "forfeits",
)


def output_problem(path: str, *, replaced: bool = False, read: bool = False) -> str | None:
    """Why ``path`` cannot take an output file, in plain words (``"directory '/x' does not
    exist"``, ``"is a directory"``, ``"cannot be written (permission denied)"``), or None
    when it can: an existing file must be writable (and readable with ``read``), a new one
    needs a writable directory. With ``replaced`` the file is written as a new file renamed
    over the old one (``engine.record.save_records``): the directory must be writable
    even when the file exists, and an existing path must be a regular file. Permissions are
    those of ``os.access``; nothing is created or changed.
    """
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(parent):
        return f"directory {parent!r} does not exist"
    if not os.path.isdir(parent):
        return f"{parent!r} is not a directory"
    if os.path.isdir(path):
        return "is a directory"
    exists = os.path.exists(path)
    if exists and replaced and not os.path.isfile(path):
        return "is not a regular file (the new file would replace it)"
    mode = os.W_OK | (os.R_OK if read else 0)
    if exists and not replaced and not os.access(path, mode):
        return f"cannot be {'read and written' if read else 'written'} (permission denied)"
    if (replaced or not exists) and not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot be created: directory {parent!r} is not writable (permission denied)"
    return None


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


def _rating_cells(rating: Rating | None) -> list[Any]:
    """The ``rating_*`` cells of one CSV row (empty without a rating)."""
    if rating is None:
        return [""] * 6
    if rating.low is None or rating.high is None:
        ends: list[Any] = ["", "", "", ""]
    else:
        ends = [rating.low, rating.high, p_ahead(rating.low), p_ahead(rating.high)]
    return [rating.elo, ends[0], ends[1], rating.p_ahead, ends[2], ends[3]]


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
                *_rating_cells(s.rating),
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


def deals_text(deals: int) -> str:
    """``"1 duplicate deal"``, ``"2 duplicate deals"``."""
    return plural(deals, "duplicate deal")


def win_share_bars(
    result: TournamentResult,
) -> tuple[list[str], list[float], list[float], list[float]]:
    """The bars of ``write_plot``, bottom to top: labels (entries counted from 1, then each
    agent spec that has several entries), mean win shares, and the distances from each mean
    down and up to its 95% interval's ends (asymmetric where the interval is clipped to
    [0, 1], ``arena.stats``; 0 without an interval)."""
    items: list[tuple[str, Summary]] = [
        (f"#{s.entries[0] + 1} {s.agent}", s) for s in result.entries
    ]
    if len(result.agents) < len(result.entries):
        items += [
            (f"{s.agent} (all {len(s.entries)})", s) for s in result.agents if len(s.entries) > 1
        ]
    items.reverse()
    return (
        [label for label, _ in items],
        [s.win_share.mean for _, s in items],
        [_below(s.win_share) for _, s in items],
        [_above(s.win_share) for _, s in items],
    )


def rating_bars(
    result: TournamentResult,
) -> tuple[list[str], list[float], list[float], list[float]]:
    """The rating bars of ``write_plot``, bottom to top: labels (entries counted from 1),
    Luce-choice ratings in Elo points relative to the field mean, and the distances from
    each rating down and up to its 95% interval's ends (0 without an interval, or where the
    interval does not reach past the rating)."""
    items = [(f"#{s.entries[0] + 1} {s.agent}", s.rating) for s in result.entries]
    items.reverse()
    rated = [(label, r) for label, r in items if r is not None]
    return (
        [label for label, _ in rated],
        [r.elo for _, r in rated],
        # a percentile interval may, rarely, leave out the point estimate: no negative bars
        [0.0 if r.low is None else max(0.0, r.elo - r.low) for _, r in rated],
        [0.0 if r.high is None else max(0.0, r.high - r.elo) for _, r in rated],
    )


def write_plot(result: TournamentResult, path: str) -> None:
    """A PNG of two panels (matplotlib, Agg backend): each entry's and each aggregate's win
    share with its 95% interval and the par line ``1/players``; below it each entry's
    Luce-choice rating (Elo points relative to the field mean) with its 95% interval and
    the field mean's line at 0.

    Raises:
        MissingExtra: matplotlib (the ``arena`` extra) is not installed.
    """
    require("matplotlib", "arena", "--plot").use("Agg")
    plt = require("matplotlib.pyplot", "arena", "--plot")
    labels, means, below, above = win_share_bars(result)
    r_labels, elos, r_below, r_above = rating_bars(result)
    fig, (ax, ax_r) = plt.subplots(
        2,
        1,
        figsize=(7.0, 2.2 + 0.45 * (len(labels) + len(r_labels))),
        height_ratios=[max(1, len(labels)), max(1, len(r_labels))],
    )
    try:
        ys = list(range(len(labels)))
        ax.barh(ys, means, xerr=[below, above], color="#4c72b0", alpha=0.8, capsize=4)
        ax.axvline(1.0 / result.config.players, color="#c44e52", linestyle="--", label="par")
        ax.set_yticks(ys, labels)
        ax.set_xlim(0, 1)
        ax.set_xlabel("win share (ties split), 95% interval over deals")
        cfg = result.config
        ax.set_title(
            f"{cfg.games} games, {cfg.players} players, {deals_text(cfg.deals)}", fontsize=10
        )
        ax.legend(loc="lower right")
        r_ys = list(range(len(r_labels)))
        ax_r.barh(r_ys, elos, xerr=[r_below, r_above], color="#55a868", alpha=0.8, capsize=4)
        ax_r.axvline(0.0, color="#333333", linewidth=1, label="field mean")
        ax_r.set_yticks(r_ys, r_labels)
        ax_r.set_xlabel(
            "rating (Luce choice of the winners), Elo points vs the field mean, 95% interval"
        )
        # centred on the field mean, wide enough for every interval (at least +-50 points)
        ends = [e - b for e, b in zip(elos, r_below)] + [e + a for e, a in zip(elos, r_above)]
        reach = 1.1 * max([50.0] + [abs(x) for x in ends])
        ax_r.set_xlim(-reach, reach)
        ax_r.legend(loc="best")
        fig.tight_layout()
        fig.savefig(path, format="png", dpi=100)
    finally:
        plt.close(fig)


def _below(e: Estimate) -> float:
    """Distance from the mean down to the interval's (clipped) lower end; 0 without one."""
    return 0.0 if e.low is None else e.mean - e.low


def _above(e: Estimate) -> float:
    """Distance from the mean up to the interval's (clipped) upper end; 0 without one."""
    return 0.0 if e.high is None else e.high - e.mean


COLUMNS: Final = (
    "entry",
    "agent",
    "win share",
    "score",
    "margin",
    "rank",
    "s/decision",
    "p95",
    "rating",
    "fail",
)
"""Columns of the terminal table."""
OPTIONAL_COLUMNS: Final = ("p95", "s/decision", "score", "margin", "rank", "rating")
"""Columns left out, in this order, while the table is wider than the terminal (every
value stays in the JSON and CSV reports)."""


def render_table(result: TournamentResult, width: int | None = None) -> str:
    """The summary table (``fitted_table``) as text at most ``width`` columns wide (default:
    the terminal's width, or ``$COLUMNS``, or 80 when there is no terminal)."""
    import shutil

    from rich.console import Console

    buf = io.StringIO()
    console = Console(
        file=buf,
        width=width or shutil.get_terminal_size().columns,
        force_terminal=False,
        color_system=None,
    )
    console.print(fitted_table(result, console))
    return buf.getvalue()


def fitted_table(result: TournamentResult, console: Any) -> Any:
    """``results_table`` for ``console`` (a ``rich.console.Console``): every column when the
    table fits the console's width unwrapped, else without ``OPTIONAL_COLUMNS`` one by one
    until it fits (the caption names those left out)."""
    from rich.measure import Measurement

    leave_out: list[str] = []
    table = results_table(result)
    unbounded = console.options.update_width(1 << 16)  # measure the natural, unwrapped width
    for column in OPTIONAL_COLUMNS:
        if Measurement.get(console, unbounded, table).maximum <= console.width:
            break
        leave_out.append(column)
        table = results_table(result, leave_out)
    return table


def results_table(result: TournamentResult, leave_out: Sequence[str] = ()) -> Any:
    """The summary as a ``rich.table.Table`` for the terminal, without the columns named in
    ``leave_out``. Entries are numbered from 1, as people count (the JSON and CSV count
    from 0)."""
    from rich import box
    from rich.table import Table

    cfg = result.config
    caption = f"par win share {1 / cfg.players:.3f}; intervals are 95% over deals"
    if "rating" not in leave_out:
        caption += (
            "; rating: Luce choice of the winners over all games, ordered as the win shares, "
            "Elo points vs the field mean (+100: wins a heads-up against an average entry "
            "64% of the time)"
        )
    if leave_out:
        caption += f"; left out for the terminal width: {', '.join(leave_out)} (see --json, --csv)"
    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{cfg.games} games ({deals_text(cfg.deals)} x {cfg.players} seats), seed {cfg.seed}",
        caption=caption,
    )
    columns = [c for c in COLUMNS if c not in leave_out]
    for col in columns:
        table.add_column(col, justify="left" if col in ("entry", "agent") else "right")

    def fmt_t(x: float | None) -> str:
        return "-" if x is None else f"{x:.4f}"

    for kind, summaries in (("entry", result.entries), ("agent", result.agents)):
        if kind == "agent" and len(result.agents) == len(result.entries):
            continue
        if kind == "agent":
            table.add_section()
        for s in summaries:
            cells = {
                "entry": str(s.entries[0] + 1)
                if kind == "entry"
                else "all " + ",".join(str(e + 1) for e in s.entries),
                "agent": s.agent,
                "win share": s.win_share.format(3),
                "score": s.score.format(1),
                "margin": s.margin.format(1),
                "rank": s.rank.format(2),
                "s/decision": fmt_t(s.decision_mean),
                "p95": fmt_t(s.decision_p95),
                "rating": "-" if s.rating is None else s.rating.format(),
                "fail": str(s.failures),
            }
            table.add_row(*(cells[c] for c in columns))
    return table
