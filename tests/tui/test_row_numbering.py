"""Every terminal text that names a row counts rows from 1; records count them from 0.
(Rounds are checked on the way: counted from 1 as well.)

The texts, each checked below:

=================================  ==========================================================
board: row label                   ``row 2  [E][ ] (2)``                   (``render.board``)
board: status of a seat            ``out (took row 2)``                    (``render.board``)
an action in words                 ``take row 2``, ``place it in row 2``   (``render.describe``:
                                   hints and ``coloretto show``'s "to decide" line)
choices under the board            ``2  take row 2: ...``, ``2  row 2: ...`` (key = row number)
a placement                        ``Bob put [E] green in row 2.``
a forced placement                 ``Bob drew [E] green; only row 2 has room.``
a take                             ``Bob took row 2: [E][E] ...``
a forced take                      ``Bob must take row 2 (no row has room).``
the end of a round                 ``The cards left in row 2 leave the game.``
the hint table                     key ``2``, action ``place it in row 2``
``coloretto show``                 ``Bob to decide: take row 2, ...``
=================================  ==========================================================

The tables are played with rows of capacities 1, 2, 3, 4 (row ``r`` holds ``r + 1`` cards),
so a row's number on screen can be told from its capacity.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from coloretto.agents import make_agent
from coloretto.agents.advisor import Advice
from coloretto.agents.base import Budget
from coloretto.cli.main import main
from coloretto.engine import Rules, load_game, new_game, observe
from coloretto.engine.actions import Action
from coloretto.engine.record import Game, apply_entry
from coloretto.engine.state import UNTAKEN
from coloretto.tui import render
from coloretto.tui.session import TerminalGame, hint_table

RULES = Rules(players=3, row_capacities=(1, 2, 3, 4))
NAMES = ["Ann", "Bob", "Cy"]


def text_of(renderable: Any) -> str:
    buf = io.StringIO()
    Console(file=buf, width=160, color_system=None).print(renderable)
    return buf.getvalue()


def test_describe_counts_from_1() -> None:
    for r in range(4):
        assert render.describe(Action("take", r)) == f"take row {r + 1}"
        assert render.describe(Action("place", r)) == f"place it in row {r + 1}"


def test_board_labels_and_took_status() -> None:
    state = new_game(RULES, 2)
    while state.decision != "turn" or not any(a.kind == "take" for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    take = next(a for a in state.legal_actions() if a.kind == "take")
    seat = state.to_move
    state.apply(take)
    out = text_of(render.board(observe(state, 0).state, NAMES, viewer=0))
    for r in range(4):
        if r != take.arg:
            assert re.search(rf"row {r + 1}  .*\({r + 1}\)", out), out
    assert re.search(rf"row {take.arg + 1}  taken by {NAMES[seat]}", out)
    assert re.search(rf"{NAMES[seat]} .* out \(took row {take.arg + 1}\)", out)


def test_hint_table_counts_from_1() -> None:
    legal = [Action("draw"), Action("take", 0), Action("take", 3)]
    advice = [Advice(a, 0.5, 0.0, 10) for a in legal]
    out = text_of(
        hint_table(advice, {Action("draw"): "d", Action("take", 0): "1", Action("take", 3): "4"})
    )
    assert re.search(r"│ 1\s+│ take row 1\s+│", out) and re.search(r"│ 4\s+│ take row 4\s+│", out)
    out = text_of(hint_table([Advice(Action("place", 2), 1.0, 3.0, 5)], {Action("place", 2): "3"}))
    assert re.search(r"│ 3\s+│ place it in row 3\s+│", out)


class Script:
    """Answers with the first or the last legal key; asks for a hint at every tenth prompt."""

    def __init__(self, last: bool) -> None:
        self.prompts = 0
        self.last = last

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        keys = re.search(r"\[([^\]]*)\]: $", prompt).group(1).split()  # type: ignore[union-attr]
        return "h" if self.prompts % 10 == 1 else keys[-1 if self.last else 0]


def play_transcript(
    tmp_path: Path, rules: Rules, seed: int, last: bool
) -> tuple[str, dict[str, Any]]:
    """A whole game (a person in seat 0, random players in the others) as printed, and its
    record."""
    buf = io.StringIO()
    others = range(1, rules.players)
    session = TerminalGame(
        game=Game(new_game(rules, seed), NAMES[: rules.players]),
        agents={s: make_agent("random", seed=seed + s) for s in others},
        human_seats=[0],
        agent_specs=[None] + ["random"] * len(others),
        save_path=tmp_path / f"rec-{seed}-{last}.json",
        console=Console(file=buf, width=160, color_system=None),
        read_line=Script(last),
        hints=True,
        hint_budget=Budget(iterations=8),  # the real advisor, briefly
    )
    assert session.run() == 0
    return buf.getvalue(), json.loads(session.save_path.read_text())


def leaving_rows(record: dict[str, Any]) -> list[list[int]]:
    """For each take that ends a round: the rows (0-based) whose cards leave the game."""
    game = load_game({k: v for k, v in record.items() if k != "result"} | {"actions": []})
    out = []
    for entry in record["actions"]:
        before = game.state.copy()
        apply_entry(game, entry)
        if entry["action"] == "take" and (game.state.round != before.round or game.state.is_over()):
            out.append(
                [
                    r
                    for r in range(before.nrows)
                    if before.row_taker[r] == UNTAKEN and before.rows[r] and r != entry["row"]
                ]
            )
    return out


def check_transcript(out: str, record: dict[str, Any], nrows: int) -> dict[str, int]:
    """Check every row named in ``out`` against ``record``; return how often each kind of
    text was seen."""
    assert "row 0" not in out
    for n in re.findall(r"\brow (\d+)", out):
        assert 1 <= int(n) <= nrows
    # placements (forced ones included) and takes, in the order of the record
    placed = re.findall(r"(?: put \[.\] .+? in row (\d+)\.|; only row (\d+) has room\.)", out)
    assert [int(a or b) - 1 for a, b in placed] == [
        e["row"] for e in record["actions"] if e["action"] == "draw"
    ]
    took = re.findall(r" took row (\d+): ", out)
    assert [int(n) - 1 for n in took] == [
        e["row"] for e in record["actions"] if e["action"] == "take"
    ]
    forced = re.findall(r"(\w+) must take row (\d+) \(no row has room\)\.\n\1 took row (\d+):", out)
    assert len(forced) == out.count("must take row")
    assert all(a == b for _, a, b in forced)
    # rows whose cards leave the game at the end of each round
    told = [
        [int(n) - 1 for n in re.findall(r"row (\d+)", m)] if m else []
        for m in re.findall(
            r"Round \d+ is over\.(?: The cards left in (.+?) leave the game\.)?\n", out
        )
    ]
    assert told == leaving_rows(record)
    # rounds are counted from 1 too: the header, the end of each round, the next one
    ended = [int(n) for n in re.findall(r"Round (\d+) is over\.", out)]
    assert ended == list(range(1, len(ended) + 1))
    begun = [int(n) for n in re.findall(r"Round (\d+) begins; ", out)]
    assert begun == list(range(2, len(ended) + 1))
    assert re.search(r"\| round 1 \|", out) and not re.search(r"\| round 0 \|", out)
    # the choices: the key of a row is its number; the board's labels match capacities
    choices = re.findall(r"^  (\d)  (?:take )?row (\d):", out, flags=re.MULTILINE)
    assert all(key == number for key, number in choices)
    labels = re.findall(r"^row (\d)  (?:\[.+?\] \((\d)\))", out, flags=re.MULTILINE)
    assert all(number == cap for number, cap in labels)
    # hints: the key and the row in words agree
    hints = re.findall(r"│ (\d)\s+│ (?:take row|place it in row) (\d)\s+│", out)
    assert all(key == number for key, number in hints)
    return {
        "placements": len(placed) - out.count("only row"),
        "forced placements": out.count("only row"),
        "takes": len(took),
        "forced takes": len(forced),
        "rows that leave": sum(map(len, told)),
        "choices": len(choices),
        "board labels": len(labels),
        "out (took row N)": len(re.findall(r"out \(took row \d\)", out)),
        "hints": len(hints),
    }


def test_every_row_in_played_games_counts_from_1(tmp_path: Path) -> None:
    seen: dict[str, int] = {}
    for rules, seed, last in [
        (RULES, 3, True),
        (RULES, 4, True),
        (Rules(players=3, row_capacities=(1, 2, 3)), 1, False),
    ]:
        out, record = play_transcript(tmp_path, rules, seed, last)
        for kind, count in check_transcript(out, record, rules.num_rows).items():
            seen[kind] = seen.get(kind, 0) + count
    assert all(seen.values()), seen  # every kind of text was checked at least once


def test_show_counts_rows_from_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(new_game(RULES, 5), list(NAMES))
    while sum(a.kind == "take" for a in game.state.legal_actions()) < 2:
        game.play(game.state.legal_actions()[0])
    rec = game.to_record()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    assert main(["show", str(path)]) == 0
    text = capsys.readouterr().out
    takes = [a.arg for a in game.state.legal_actions() if a.kind == "take"]
    assert takes
    line = next(x for x in text.splitlines() if "to decide:" in x)
    assert re.findall(r"take row (\d)", line) == [str(r + 1) for r in takes]
    for r in range(4):
        assert re.search(rf"row {r + 1}  .*\({r + 1}\)", text)
