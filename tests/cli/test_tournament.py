"""``coloretto tournament``: reports written and well-formed; bad input exits 2."""

from __future__ import annotations

import csv
import itertools
import json
import re
import sys
from pathlib import Path

import pytest

from coloretto.arena.report import CSV_COLUMNS
from coloretto.cli.main import main

pytestmark = pytest.mark.timeout(120)

MINI = Path(__file__).resolve().parents[1] / "agents" / "engines" / "mini_engine.py"


def test_reports_are_written_and_well_formed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json, out_csv, out_png, out_rec = (
        tmp_path / n for n in ("r.json", "r.csv", "r.png", "r.jsonl")
    )
    status = main(
        [
            "tournament",
            "--agents",
            "greedy,random,random",
            "--games",
            "5",
            "--seed",
            "9",
            "--workers",
            "1",
            "--json",
            str(out_json),
            "--csv",
            str(out_csv),
            "--plot",
            str(out_png),
            "--records",
            str(out_rec),
        ]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert "rounded up to 6" in captured.err
    assert "greedy" in captured.out and "win share" in captured.out

    data = json.loads(out_json.read_text())
    assert data["format"] == "coloretto-tournament/3"
    assert data["config"]["games"] == 6 and data["config"]["games_requested"] == 5
    assert data["config"]["deals"] == 2 and data["config"]["agents"] == [
        "greedy",
        "random",
        "random",
    ]
    assert len(data["games"]) == 6 and len(data["entries"]) == 3 and len(data["agents"]) == 2
    e0 = data["entries"][0]
    for key in ("win_share", "mean_score", "mean_margin", "mean_rank"):
        assert set(e0[key]) == {"mean", "ci95", "half_width", "sd", "n"}
        assert e0[key]["n"] == 2
    assert set(e0["seconds_per_decision"]) == {"mean", "p95"}
    assert set(e0["rating"]) == {"elo", "ci95", "p_ahead", "p_ahead_ci95", "win_share", "games"}
    assert data["agents"][0]["rating"] is None  # aggregates are not rated
    assert data["rating_method"]["interval"] == "95% percentile bootstrap over deals"
    assert abs(sum(e["rating"]["elo"] for e in data["entries"])) < 1e-6
    # the ratings are ordered as the win shares
    for a, b in itertools.combinations(data["entries"], 2):
        if a["win_share"]["mean"] != pytest.approx(b["win_share"]["mean"]):
            assert (a["rating"]["elo"] > b["rating"]["elo"]) == (
                a["win_share"]["mean"] > b["win_share"]["mean"]
            )
        assert a["rating"]["win_share"] == pytest.approx(a["win_share"]["mean"])
    assert data["par_win_share"] == pytest.approx(1 / 3)

    with out_csv.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [(r["kind"], r["agent"]) for r in rows] == [
        ("entry", "greedy"),
        ("entry", "random"),
        ("entry", "random"),
        ("agent", "greedy"),
        ("agent", "random"),
    ]
    assert float(rows[0]["win_share"]) == pytest.approx(e0["win_share"]["mean"])
    assert rows[4]["entries"] == "1 2" and rows[4]["rating_elo"] == ""
    bt = e0["rating"]
    assert float(rows[0]["rating_elo"]) == pytest.approx(bt["elo"])
    assert [float(rows[0]["rating_elo_low"]), float(rows[0]["rating_elo_high"])] == pytest.approx(
        bt["ci95"]
    )
    assert float(rows[0]["rating_p_ahead"]) == pytest.approx(bt["p_ahead"])
    assert [
        float(rows[0]["rating_p_ahead_low"]),
        float(rows[0]["rating_p_ahead_high"]),
    ] == pytest.approx(bt["p_ahead_ci95"])

    png = out_png.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image

    assert matplotlib.image.imread(str(out_png)).ndim == 3

    records = [json.loads(line) for line in out_rec.read_text().splitlines()]
    assert len(records) == 6 and all(r["format"] == "coloretto-record/1" for r in records)
    assert records[0]["setup"] == records[1]["setup"] == records[2]["setup"]


def test_json_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "tournament",
            "--agents",
            "greedy,random",
            "--games",
            "2",
            "--workers",
            "1",
            "--json",
            "--quiet",
        ]
    )
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert data["config"]["games"] == 2 and len(data["games"]) == 2


def test_external_engine_failures_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    agents = f"cmd:{sys.executable} {MINI} illegal,random"
    status = main(
        [
            "tournament",
            "--agents",
            agents,
            "--games",
            "2",
            "--workers",
            "1",
            "--budget",
            "50ms",
            "--engine-grace-ms",
            "100",
            "--on-engine-failure",
            "fallback:random",
            "--json",
            "--quiet",
        ]
    )
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["kind"] for f in data["failures"]] == ["illegal", "illegal"]
    assert all(f["handling"] == "fallback:random" for f in data["failures"])
    assert all(g["forfeit"] is None for g in data["games"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--agents", "greedy,random", "--players", "3"], "one agent per seat"),
        (["--agents", "greedy,nobody"], "unknown agent 'nobody'"),
        (["--agents", "greedy,,random"], "empty agent"),
        (["--agents", "greedy,random", "--games", "0"], "--games"),
        (["--agents", "greedy,random", "--workers", "0"], "--workers"),
        (["--agents", "greedy,random", "--budget", "fast"], "--budget"),
        (["--agents", "greedy,random", "--address", "auto"], "--address needs --backend ray"),
        (["--agents", "greedy,random", "--on-engine-failure", "shrug"], "forfeit"),
        (["--agents", "greedy,random", "--on-engine-failure", "fallback:nobody"], "nobody"),
        (["--agents", "greedy,random", "--preset", "nope"], "unknown preset"),
        (["--agents", "greedy,random", "--preset", "bga"], "3 to 5 players"),
        (["--agents", "cmd:/no/such/engine,random"], "not found"),
        (["--agents", "cmd:,random"], "empty command"),
        (["--agents", "greedy,random", "--json", "/no/such/dir/out.json"], "does not exist"),
        (["--agents", "greedy,random", "--plot", "/no/such/dir/out.png"], "does not exist"),
        (["--agents", "greedy,random", "--engine-grace-ms", "-1"], "negative"),
    ],
)
def test_bad_input_exits_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--workers", "1", "--games", "2", "--quiet", *args]) == 2
    assert message in capsys.readouterr().err


KNOWN_AGENTS = (
    "random, greedy, heuristic, mcts, mcts-v1, ismcts, ismcts-value, oracle, oracle-value, "
    "policy, easy, medium, hard, expert, policy:FILE, cmd:COMMAND"
)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "foo"], f"--agents: unknown agent 'foo'; known: {KNOWN_AGENTS}"),
        (["--agents", "foo,random", "--players", "3"], f"--agents: unknown agent 'foo'; known: {KNOWN_AGENTS}"),
        (["--agents", "random,random", "--players", "3"],
         "--agents names 2 agents but --players is 3: give one agent per seat"),
        (["--agents", "hard@x,random"], ("--agents: agent 'hard@x': budget 'x': use seconds "
         "('0.5s', '500ms'), CPU seconds ('0.5s-cpu') or iterations ('2000')")),
    ],
)
def test_an_unknown_agent_is_named_before_the_number_of_agents_is_counted(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--workers", "1", "--games", "2", "--quiet", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"coloretto tournament: error: {message}\n"


@pytest.mark.parametrize(
    "args",
    [["--agents", "greedy,random", "--games", "many"], ["--agents", "a,b", "--backend", "mpi"], []],
)
def test_unparsable_arguments_exit_2(args: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["tournament", *args])
    assert info.value.code == 2


def _small_tournament(tmp_path: Path, *extra: str) -> int:
    """greedy against two random players, 2 deals, seed 0: the random entries' win shares
    vary so much between the two deals that a normal interval would start below 0."""
    return main(
        [
            "tournament",
            "--agents",
            "greedy,random,random",
            "--games",
            "6",
            "--seed",
            "0",
            "--workers",
            "1",
            "--quiet",
            *extra,
        ]
    )


def test_win_share_intervals_stay_within_0_and_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out_json, out_csv = tmp_path / "r.json", tmp_path / "r.csv"
    assert _small_tournament(tmp_path, "--json", str(out_json), "--csv", str(out_csv)) == 0
    table = capsys.readouterr().out
    data = json.loads(out_json.read_text())
    summaries = data["entries"] + data["agents"]
    # Not vacuous: some unclipped interval starts below 0.
    assert any(s["win_share"]["mean"] - s["win_share"]["half_width"] < 0 for s in summaries)
    for s in summaries:
        low, high = s["win_share"]["ci95"]
        assert 0.0 <= low <= s["win_share"]["mean"] <= high <= 1.0
        r_low, r_high = s["mean_rank"]["ci95"]
        assert 1.0 <= r_low <= r_high <= 3.0
    with out_csv.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        assert 0.0 <= float(row["win_share_low"]) <= float(row["win_share_high"]) <= 1.0
    assert "[0.000, " in table, table  # a clipped interval is shown by its ends in the table


def test_table_fits_the_terminal_width(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """rich is given the terminal's width ($COLUMNS here); columns are left out, and named,
    until the table fits; with room every column is there."""
    report = tmp_path / "fit.json"
    monkeypatch.setenv("COLUMNS", "200")
    assert _small_tournament(tmp_path, "--json", str(report)) == 0
    capsys.readouterr()
    data = json.loads(report.read_text())
    clipped = [s["win_share"] for s in data["entries"] if s["win_share"]["ci95"][0] == 0.0]
    assert clipped, "the seed gives no interval clipped at 0"
    interval = "{:.3f} [{:.3f}, {:.3f}]".format(clipped[0]["mean"], *clipped[0]["ci95"])
    widths = {}
    for columns in (60, 90, 200):
        monkeypatch.setenv("COLUMNS", str(columns))
        assert _small_tournament(tmp_path) == 0
        out = capsys.readouterr().out
        widths[columns] = max(len(line) for line in out.splitlines())
        assert widths[columns] <= columns
        assert "win share" in out and "greedy" in out and "random" in out
        assert interval in out  # intervals are never cut
        if columns == 200:
            assert "left out" not in out
            assert "p95" in out and "rating" in out
            assert "Luce choice of the winners" in " ".join(out.split())
            # each entry's rating with its interval, Elo points vs the field mean
            assert len(re.findall(r"[+-]\d+ \[[+-]\d+, [+-]\d+\]", out)) == 3, out
        else:
            assert "left out for the terminal width: p95" in " ".join(out.split())
        if columns == 90:  # the rating is the column left out last
            header = next(line for line in out.splitlines() if "win share" in line).split()
            assert header[-3:] == ["rank", "rating", "fail"] and "score" not in header
    assert widths[60] < widths[90] < widths[200]


def test_table_entries_count_from_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from coloretto.arena.report import render_table
    from coloretto.arena.tournament import TournamentConfig, run_tournament
    from coloretto.engine import Rules

    config = TournamentConfig(agents=("greedy", "random"), games=2, rules=Rules(players=2))
    text = render_table(run_tournament(config, workers=1), width=120)
    lines = text.splitlines()
    assert any(line.split()[:2] == ["1", "greedy"] for line in lines if line.strip())
    assert any(line.split()[:2] == ["2", "random"] for line in lines if line.strip())
    assert max(len(line) for line in lines) <= 120


def test_an_entry_that_forfeits_every_game_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "r.json"
    status = main(
        [
            "tournament",
            "--agents",
            f"cmd:{sys.executable} {MINI} crash,random",
            "--games",
            "2",
            "--workers",
            "1",
            "--json",
            str(out_json),
        ]
    )
    assert status == 1
    err = capsys.readouterr().err
    assert "entry 1 (cmd:" in err and "forfeited all 2 of its games" in err
    assert "game 1 seat 1 (entry 1 cmd:" in err  # the failures, counted from 1
    data = json.loads(out_json.read_text())  # the reports are still written
    assert data["entries"][0]["forfeits"] == 2 and data["entries"][1]["forfeits"] == 0


def test_the_score_table_and_per_entry_budgets(tmp_path: Path) -> None:
    """``--table violet`` plays under the violet table; ``NAME@BUDGET`` gives one entry its
    own budget (the others keep ``--budget``)."""
    out = tmp_path / "violet.json"
    args = ["--table", "violet", "--json", str(out)]
    assert _small_tournament(tmp_path, *args) == 0
    data = json.loads(out.read_text())
    assert data["config"]["rules"]["table"] == "violet"
    out2 = tmp_path / "budgets.json"
    code = main(
        [
            "tournament",
            "--agents",
            "ismcts@20,ismcts",
            "--games",
            "2",
            "--budget",
            "40",
            "--workers",
            "1",
            "--quiet",
            "--json",
            str(out2),
        ]
    )
    assert code == 0
    entries = json.loads(out2.read_text())["entries"]
    assert [e["agent"] for e in entries] == ["ismcts@20", "ismcts"]
    with pytest.raises(SystemExit):
        main(["tournament", "--agents", "greedy,random", "--table", "green"])


def test_records_replace_the_old_file_atomically(tmp_path: Path) -> None:
    """``--records`` is written by ``engine.record.save_records``: a temporary file renamed
    over the old one, so a reader that opened the old file still reads all of it, and the
    new file holds every game, each a valid record."""
    from coloretto.engine import replay

    out = tmp_path / "games.jsonl"
    out.write_text("the old records\n")
    with out.open(encoding="utf-8") as old:
        argv = ["tournament", "--agents", "greedy,random", "--games", "2", "--workers", "1"]
        assert main([*argv, "--quiet", "--overwrite", "--records", str(out)]) == 0
        assert old.read() == "the old records\n"
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and all(replay(json.loads(line)).valid for line in lines)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
