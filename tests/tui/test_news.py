"""The terminal's news lines agree with the engine's ``Step`` of every action and with
``GameState.results``: many seeded games between computer players (2 to 5 players, the
golden joker, ``first_out_draws``, chosen starting cards, matches), each line parsed back and
compared with the Steps; the Steps themselves are checked against a replay of the game
(states compared before and after each action: the test's own account of what happened).
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from coloretto.agents import make_agent
from coloretto.agents.base import Agent
from coloretto.engine import Rules, new_game
from coloretto.engine.actions import Action
from coloretto.engine.cards import LAST_ROUND, LETTERS
from coloretto.engine.observation import Observation
from coloretto.engine.record import Game
from coloretto.engine.rules import preset
from coloretto.engine.state import UNTAKEN, GameState
from coloretto.engine.step import Step
from coloretto.tui.session import TerminalGame, round_leftovers

WIDTH = 200
LAST_ROUND_NEWS = re.compile(r"^LAST ROUND: (\S+) drew the Last Round card; the game ends with this round\.$")

PUT = re.compile(r"^(\S+) put \[(.)\] .+ in row (\d)\.$")
TOOK = re.compile(
    r"^(\S+) took row (\d): ((?:\[.\])+)(?: and the bonus card ((?:\[.\])+))? \(score now (-?\d+)\)\.$"
)
CHOSE = re.compile(r"^(\S+) chose \[(.)\] .+ as starting card\.$")
LEAVES = re.compile(r"^(\S+) leaves the round taking nothing \(the draw pile is empty and so are the rows left\)\.$")
ROUND_OVER = re.compile(r"^Round (\d+) is over\.(?: The cards left in ((?:row \d(?:, )?)+) leave the game\.)?$")
ROUND_BEGINS = re.compile(r"^Round (\d+) begins; (\S+) starts\.$")
GAME_OVER = re.compile(r"^Game (\d+) of (\d+) is over\s*$")
GAME_BEGINS = re.compile(r"^Game (\d+) of (\d+) begins\.$")


def letters(codes: Sequence[int]) -> str:
    return "".join(f"[{LETTERS[c]}]" for c in codes)


def news(out: str) -> list[tuple[Any, ...]]:
    """The news lines of ``out`` in order, each parsed into a tuple."""
    events: list[tuple[Any, ...]] = []
    for line in out.splitlines():
        if m := LAST_ROUND_NEWS.match(line):
            events.append(("last round", m[1]))
        elif m := PUT.match(line):
            events.append(("put", m[1], m[2], int(m[3])))
        elif m := TOOK.match(line):
            events.append(("took", m[1], int(m[2]), m[3], m[4] or "", int(m[5])))
        elif m := CHOSE.match(line):
            events.append(("chose", m[1], m[2]))
        elif m := LEAVES.match(line):
            events.append(("leaves", m[1]))
        elif m := ROUND_OVER.match(line):
            rows = [int(r) for r in re.findall(r"\d", m[2] or "")]
            events.append(("round over", int(m[1]), rows))
        elif m := ROUND_BEGINS.match(line):
            events.append(("round begins", int(m[1]), m[2]))
        elif m := GAME_OVER.match(line.strip()):
            events.append(("game over", int(m[1]), int(m[2])))
        elif m := GAME_BEGINS.match(line):
            events.append(("game begins", int(m[1]), int(m[2])))
    return events


def told(steps: Sequence[Step], game: Game, leftovers: Sequence[list[int]]) -> list[tuple[Any, ...]]:
    """What the news lines must say, from the Steps and ``GameState.results`` alone, except
    the live score after a take and the next round's starter (the state after the action,
    taken from a replay) and, at each end of a round, ``leftovers``: the rows (counted from
    1) whose cards leave the game (``check_steps_against_replay``)."""
    rows = iter(leftovers)
    names, rules = game.seats, game.state.rules
    assert game.initial is not None
    st = game.initial.copy()
    events: list[tuple[Any, ...]] = []
    for step in steps:
        st.apply(step.action)
        name = names[step.seat]
        kind = step.action.kind
        if kind == "draw":
            if step.last_round_revealed:
                events.append(("last round", name))
            continue
        if kind == "place":
            assert step.placed is not None
            events.append(("put", name, LETTERS[step.placed], step.action.arg + 1))
        elif kind == "choose_start":
            events.append(("chose", name, LETTERS[step.action.arg]))
        else:
            result = game.state.results[step.game] if step.game_over else None
            score = result.scores[step.seat] if result is not None else st.score(step.seat)
            events.append(
                ("took", name, step.action.arg + 1, letters(step.taken), letters(step.bonus), score)
            )
            if step.last_round_revealed:
                events.append(("last round", name))
            events.extend(("leaves", names[s]) for s in step.left)
            if step.round_over:
                events.append(("round over", step.round, next(rows)))
                if not step.game_over:
                    events.append(("round begins", st.round, names[st.to_move]))
        if step.game_over and not step.match_over:
            events.append(("game over", step.game + 1, rules.match_games))
            events.append(("game begins", step.game + 2, rules.match_games))
    return events


def check_steps_against_replay(game: Game) -> tuple[dict[str, int], list[list[int]]]:
    """Replay ``game`` from its start and check every Step against the states before and
    after its action (the taken row's cards, the bonus cards, the Last Round card, seats
    leaving, the end of the round and game). Return how often each kind of event happened,
    and for each end of a round the rows (counted from 1) whose cards left the game: the
    rows nobody took that held cards just before (docs/rules.md §4)."""
    assert game.initial is not None
    st = game.initial.copy()
    seen: Counter[str] = Counter()
    leftovers: list[list[int]] = []
    for i, step in enumerate(game.steps):
        before = st.copy()
        st.apply(step.action)
        assert (step.seat, step.game, step.round) == (before.to_move, before.game, before.round)
        if step.game_over and st.game != before.game:  # the next game of the match is dealt
            assert not (step.last_round_revealed and before.last_round)
        else:
            assert step.last_round_revealed == (st.last_round and not before.last_round), (i, step)
        if step.action.kind == "take":
            r = step.action.arg
            assert step.taken == tuple(before.rows[r])
            after = game.state.results[step.game].collections if step.game_over else st.coll
            gained = Counter({c: after[step.seat][c] - before.coll[step.seat][c] for c in range(10)})
            assert +gained == Counter(step.taken) + Counter(step.bonus), (i, step)
            rows = [
                x for x in range(before.nrows)
                if x != r and before.row_taker[x] == UNTAKEN and before.rows[x]
            ]
            if step.round_over:
                assert step.removed == tuple(c for x in rows for c in before.rows[x])
                active = [s for s in range(before.n) if not before.out[s] and s != step.seat]
                assert sorted(step.left) == active
                leftovers.append([x + 1 for x in rows])
                seen["round ends"] += 1
                seen["rows leave"] += bool(rows)
            else:
                assert step.removed == () and step.left == () and st.round == before.round
            seen["bonus"] += bool(step.bonus)
            seen["seats leave"] += bool(step.left)
        else:
            assert not step.round_over and step.bonus == () and step.left == ()
        seen["last round"] += step.last_round_revealed
        seen["games end"] += step.game_over
        assert step.match_over == (i == len(game.steps) - 1 and st.is_over())
    return dict(seen), leftovers


def table_totals(out: str, title: str, names: Sequence[str], ranks: bool) -> list[int]:
    """The ``total`` column of the breakdown table titled ``title`` (the first line of each
    player's row)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title)
    totals = []
    for name in names:
        row = next(line for line in lines[start:] if line.startswith(f" {name} "))
        totals.append(int(row.split()[-2 if ranks else -1]))
    return totals


def play(tmp_path: Path, rules: Rules, seed: int) -> tuple[TerminalGame, str]:
    """A game (or match) of random computer players in the terminal; its output."""
    names = [f"bot-{s}" for s in range(rules.players)]
    buf = io.StringIO()
    session = TerminalGame(
        game=Game(new_game(rules, seed), names),
        agents={s: make_agent("random", seed=seed * 10 + s) for s in range(rules.players)},
        human_seats=[],
        agent_specs=["random"] * rules.players,
        save_path=tmp_path / f"game-{seed}.json",
        console=Console(file=buf, width=WIDTH, color_system=None),
        seed=seed,
    )
    assert session.run() == 0
    return session, buf.getvalue()


CONFIGS = {
    "classic": lambda n: preset("classic", n),
    "modern (golden joker)": lambda n: preset("modern", n),
    "modern, first_out_draws": lambda n: preset("modern", n, extra_card="first_out_draws"),
    "classic, first_out_draws, chosen starting cards": lambda n: preset(
        "classic", n, extra_card="first_out_draws", starting_cards="choose"
    ),
    "modern match of 2, first_out_draws": lambda n: preset(
        "modern", n, match_games=2, extra_card="first_out_draws"
    ),
    "abacus2003 (match of 4)": lambda n: preset("abacus2003", max(n, 3)),
}


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records are still written after every action, without waiting for the disk (these
    tests read the screen; tests/tui/test_session.py checks the record on disk)."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_news_lines_agree_with_the_steps(tmp_path: Path, players: int, no_fsync: None) -> None:
    seen: Counter[str] = Counter()
    for k, (label, make) in enumerate(CONFIGS.items()):
        rules = make(players)
        for seed in range(1 if rules.match_games > 2 else 2):
            session, out = play(tmp_path, rules, 100 * players + 10 * k + seed)
            game = session.game
            where = f"{label}, seed {seed}"
            counts, leftovers = check_steps_against_replay(game)
            seen.update(counts)
            assert news(out) == told(game.steps, game, leftovers), where
            # the Last Round card is announced once in every game that revealed it
            revealed = sum(s.last_round_revealed for s in game.steps)
            assert sum(e[0] == "last round" for e in news(out)) == revealed <= rules.match_games, where
            # each game's scores: its breakdown table, the match table, the totals
            results = game.state.results
            assert len(results) == rules.match_games
            for g, result in enumerate(results):
                if g + 1 < rules.match_games:
                    title, ranks = f"Game {g + 1} of {rules.match_games} is over", False
                elif rules.match_games > 1:
                    title, ranks = f"Game {g + 1} of {rules.match_games}: final scores", False
                else:
                    title, ranks = "Final scores", True
                assert table_totals(out, title, game.seats, ranks) == list(result.scores), where
            if rules.match_games > 1:  # the match table's columns
                assert session.game_scores == [list(r.scores) for r in results], where
            assert [sum(col) for col in zip(*(r.scores for r in results))] == game.state.totals()
    # the seeds cover what the lines tell
    for event in ("bonus", "last round", "games end", "round ends"):
        assert seen[event] > 0, (event, seen)
    if players == 2:  # the third row when nobody takes it
        assert seen["rows leave"] > 0, seen


def test_bonus_cards_are_named_in_the_order_they_came_up(tmp_path: Path, no_fsync: None) -> None:
    """The golden joker's card first, then ``first_out_draws``'s (docs/rules.md §5.2, §7), as
    the Step lists them; seed 1 has a take of both whose cards are not in code order."""
    session, out = play(tmp_path, preset("modern", 3, extra_card="first_out_draws"), 1)
    both = [s for s in session.game.steps if len(s.bonus) == 2]
    assert any(list(s.bonus) != sorted(s.bonus) for s in both)
    took = [e for e in news(out) if e[0] == "took"]
    takes = [s for s in session.game.steps if s.action.kind == "take"]
    assert len(took) == len(takes)
    for line, step in zip(took, takes):
        assert line[4] == letters(step.bonus)


class Planned(Agent):
    """A computer player that plays the next action of a fixed plan (the test's script for
    a custom table; the real agents play every other test here)."""

    def __init__(self, plan: list[Action], game: Game) -> None:
        super().__init__()
        self.plan, self.game = plan, game

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return self.plan[len(self.game.steps)]


def exhaustion_plan(state: GameState) -> list[Action]:
    """For 5 players and six rows of 6 (a custom table): three rounds; the third starts with
    the Last Round card and draws the whole pile into rows 1 to 3, so after the third take
    the two seats left have only empty rows and leave taking nothing (docs/rules.md §5.3)."""
    st = state.copy()
    plan: list[Action] = []

    def do(*actions: Action) -> None:
        for a in actions:
            plan.append(a)
            st.apply(a)

    def fill(rows: Sequence[int]) -> None:
        for r in rows:
            do(Action("draw"), Action("place", r))

    fill([r for r in range(6) for _ in range(6)])
    do(*(Action("take", r) for r in range(5)))
    above = len(st.pile) - 1 - st.pile.index(LAST_ROUND)
    fill([*[r for r in range(3) for _ in range(6)][: above - 2], 3, 4])
    do(*(Action("take", r) for r in range(5)))
    assert st.round == 3 and not st.last_round
    while st.cards_left():
        fill([next(r for r in range(3) if len(st.rows[r]) < 6)])
    do(*(Action("take", r) for r in range(3)))
    assert st.is_over()
    return plan


def test_seats_leaving_the_round_are_told(tmp_path: Path) -> None:
    rules = Rules(players=5, row_capacities=(6,) * 6)
    names = [f"bot-{s}" for s in range(5)]
    game = Game(new_game(rules, 3), names)
    plan = exhaustion_plan(game.state)
    buf = io.StringIO()
    session = TerminalGame(
        game=game,
        agents={s: Planned(plan, game) for s in range(5)},
        human_seats=[],
        agent_specs=["random"] * 5,
        save_path=tmp_path / "r.json",
        console=Console(file=buf, width=WIDTH, color_system=None),
    )
    assert session.run() == 0
    last = game.steps[-1]
    assert len(last.left) == 2 and last.game_over
    lines = buf.getvalue().splitlines()
    took = next(i for i, x in enumerate(lines) if x.startswith(f"{names[last.seat]} took row 3:"))
    assert lines[took + 1 : took + 4] == [
        f"{names[last.left[0]]} leaves the round taking nothing (the draw pile is empty and so are the rows left).",
        f"{names[last.left[1]]} leaves the round taking nothing (the draw pile is empty and so are the rows left).",
        "Round 3 is over.",
    ]
    counts, leftovers = check_steps_against_replay(game)
    assert counts["seats leave"] == 1 and leftovers == [[6], [], []]
    assert news(buf.getvalue()) == told(game.steps, game, leftovers)


def test_a_game_started_in_the_middle_of_a_round_names_the_cards_that_leave(tmp_path: Path) -> None:
    """A ``Game`` built on a state in the middle of a round holds no Steps of its start: the
    rows cannot be named, the cards that leave are (2 players: the row nobody takes)."""
    state = new_game(Rules(players=2), 1, first_player=0)
    for action in (Action("draw"), Action("place", 2)):  # before the Game: no Step of it
        state.apply(action)
    game = Game(state, ["Ann", "Bob"])
    plan = [Action("draw"), Action("place", 0), Action("take", 0), Action("draw"), Action("place", 1), Action("take", 1)]
    left = state.rows[2][:]
    buf = io.StringIO()
    session = TerminalGame(
        game=game,
        agents={},
        human_seats=[0, 1],
        agent_specs=[None, None],
        save_path=tmp_path / "r.json",
        console=Console(file=buf, width=WIDTH, color_system=None),
        read_line=lambda prompt: "q" if len(game.steps) >= len(plan) else _key(plan[len(game.steps)]),
    )
    assert session.run() == 0
    end = game.steps[len(plan) - 1]
    assert end.round_over and end.removed == tuple(left) and left
    assert round_leftovers(game.steps[: len(plan)]) is None
    assert f"Round 1 is over. The cards left in the rows leave the game: {letters(left)}.\n" in buf.getvalue()


def _key(action: Action) -> str:
    return "d" if action.kind == "draw" else str(action.arg + 1)
