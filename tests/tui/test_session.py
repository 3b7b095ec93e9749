"""``TerminalGame`` in-process with scripted input: full games, interruption, hints,
matches, and the log lines of the computer players."""

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
from coloretto.agents.base import Agent, Budget
from coloretto.arena.driver import play_out, start_game
from coloretto.engine import Rules, load_game, new_game, replay
from coloretto.engine.actions import Action
from coloretto.engine.cards import GOLDEN_JOKER
from coloretto.engine.record import Game
from coloretto.tui import render
from coloretto.tui.keyboard import Keyboard, Quit
from coloretto.tui.session import EXIT_NOT_SAVED, TerminalGame

PROMPT = re.compile(r"\[([^\]]*)\]: $")


class Script:
    """Answers prompts: scripted answers first, then the first (or last) legal key."""

    def __init__(
        self, answers: list[str] | None = None, last: bool = False, interrupt_at: int | None = None
    ):
        self.answers = list(answers or [])
        self.last = last
        self.interrupt_at = interrupt_at
        self.prompts = 0
        self.pauses: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        if self.interrupt_at is not None and self.prompts >= self.interrupt_at:
            raise KeyboardInterrupt
        if prompt.startswith("Press Enter"):  # between the games of a match
            self.pauses.append(prompt)
            return self.answers.pop(0) if self.answers else ""
        if self.answers:
            return self.answers.pop(0)
        m = PROMPT.search(prompt)
        assert m, prompt
        keys = m.group(1).split()
        return keys[-1] if self.last else keys[0]


def make_session(
    tmp_path: Path,
    rules: Rules,
    seed: int,
    humans: list[int],
    script: Any,
    **kw: Any,
) -> tuple[TerminalGame, io.StringIO]:
    names = [("Ann" if s in humans else f"bot-{s}") for s in range(rules.players)]
    game = Game(new_game(rules, seed), names)
    specs = [None if s in humans else "random" for s in range(rules.players)]
    agents = {
        s: make_agent("random", seed=seed + s) for s in range(rules.players) if s not in humans
    }
    buf = io.StringIO()
    session = TerminalGame(
        game=game,
        agents=agents,
        human_seats=humans,
        agent_specs=specs,  # type: ignore[arg-type]
        save_path=tmp_path / "rec.json",
        console=Console(file=buf, width=120, color_system=None),
        seed=seed,
        read_line=script or Script(),
        **kw,
    )
    return session, buf


def test_full_game_scripted(tmp_path: Path) -> None:
    script = Script(answers=["nonsense", "", "?"], last=True)
    session, buf = make_session(tmp_path, Rules(players=4), 21, [2], script)
    assert session.run() == 0
    out = buf.getvalue()
    assert "'nonsense' is not a choice here" in out and "Type one of" in out and "Keys:" in out
    assert "Final scores" in out
    rec = json.loads((tmp_path / "rec.json").read_text())
    res = replay(rec)
    assert res.valid and res.finished
    assert rec["human_seats"] == [2]
    assert "LAST ROUND" in out


def test_a_person_is_an_agent_of_the_drivers_game_loop() -> None:
    """``Keyboard`` plays a person's seat in ``play_out`` like any agent: it is asked at each
    decision with a choice (help and refusals on the way), never at a forced one; ``q``
    stops the game by ``Quit`` before the decision is played."""
    buf = io.StringIO()
    console = Console(file=buf, width=120, color_system=None)
    names = ["Ann", "bot-1", "bot-2"]
    game = start_game(Rules(players=3), 4, names)
    before = game.state.copy()
    script = Script(answers=["?", "x"])
    play_out(game, [Keyboard(console, names, script), make_agent("random", 1), make_agent("random", 2)])
    assert game.state.is_over() and replay(game.to_record()).valid
    out = buf.getvalue()
    assert "Keys:" in out and "'x' is not a choice here" in out and "Ann, your turn. Choose:" in out
    choices = 0
    for step in game.steps:
        choices += step.seat == 0 and len(before.legal_actions()) > 1
        before.apply(step.action)
    assert script.prompts == choices + 2  # one prompt per choice, and the two answers refused
    quitting = start_game(Rules(players=3), 4, names, first_player=0)
    with pytest.raises(Quit):
        play_out(quitting, [Keyboard(console, names, lambda prompt: "q"), make_agent("random", 1), make_agent("random", 2)])
    assert [step.action.kind for step in quitting.steps] == ["draw"]  # forced; q at the row
    assert quitting.state.decision == "place"


def test_interrupt_saves_a_resumable_record(tmp_path: Path) -> None:
    session, buf = make_session(tmp_path, Rules(players=3), 5, [0], Script(interrupt_at=4))
    assert session.run() == 130
    out = buf.getvalue()
    assert "Game saved to" in out and "coloretto play --resume" in out
    rec = json.loads((tmp_path / "rec.json").read_text())
    res = replay(rec)
    assert res.valid and not res.finished
    assert len(rec["actions"]) == len(session.game.entries)


def _drawn_by_seat_0(tmp_path: Path) -> tuple[TerminalGame, dict[str, Any]]:
    """A session stopped right after seat 0 drew a card, and its record."""
    session, _ = make_session(tmp_path, Rules(players=4), 8, [0], None)
    st = session.game.state
    while not (
        st.to_move == 0
        and st.decision == "turn"
        and any(a.kind == "draw" for a in st.legal_actions())
    ):
        session.game.play(st.legal_actions()[0])
    session.game.play(st.legal_actions()[0])  # the draw
    return session, session.record()


def test_a_drawn_card_is_recorded_at_once_and_shown_on_resume(tmp_path: Path) -> None:
    """A record saved between a draw and its placement ends with the draw (no row); on resume
    the same card waits for its row."""
    _, rec = _drawn_by_seat_0(tmp_path)
    tail = rec["actions"][-1]
    assert tail == {"seat": 0, "action": "draw", "card": tail["card"]}
    assert "pending_draw" not in rec
    drawn = tail["card"]
    resumed, buf = make_session(tmp_path, Rules(players=4), 8, [0], Script(interrupt_at=1))
    resumed.game = load_game(json.loads(json.dumps(rec)))
    assert resumed.run() == 130
    assert resumed.game.state.decision == "place"
    from coloretto.engine.cards import CARD_NAMES

    assert CARD_NAMES[resumed.game.state.drawn] == drawn
    assert "had drawn" in buf.getvalue()
    saved = json.loads((tmp_path / "rec.json").read_text())
    assert saved["actions"] == rec["actions"]


def test_an_old_pending_draw_record_resumes_with_the_card_drawn(tmp_path: Path) -> None:
    """Records that kept the unplaced draw in ``pending_draw`` still resume with it."""
    _, rec = _drawn_by_seat_0(tmp_path)
    tail = rec["actions"].pop()
    rec["pending_draw"] = {"seat": tail["seat"], "card": tail["card"]}
    resumed, buf = make_session(tmp_path, Rules(players=4), 8, [0], Script(interrupt_at=1))
    resumed.game = load_game(rec)
    assert resumed.run() == 130
    assert resumed.game.state.decision == "place"
    assert "had drawn" in buf.getvalue()
    saved = json.loads((tmp_path / "rec.json").read_text())
    assert "pending_draw" not in saved and saved["actions"][-1] == tail


def test_hints_off(tmp_path: Path) -> None:
    """Without --hints the key h is neither offered on screen nor in the help; typing it
    says how to get hints."""
    session, buf = make_session(tmp_path, Rules(players=4), 2, [0], Script(answers=["h", "?", "q"]))
    assert session.run() == 0
    out = buf.getvalue()
    assert "start the game with --hints" in out
    assert "h hints" not in out and "hints;" not in out
    assert "(q save and quit, ? help)" in out
    assert "Keys:" in out


def stand_in_advisor(calls: list[Any]) -> Any:
    """A stand-in for the advisor with fixed estimates (its twin below uses the real one)."""

    def advise(observation: Any, legal: list[Action], budget: Budget) -> list[Advice]:
        calls.append((observation.seat, legal, budget))
        return [Advice(a, 0.5 + 0.1 * i, float(i), 7 + i) for i, a in enumerate(legal)]

    return advise


def test_hints_with_a_stand_in_advisor(tmp_path: Path) -> None:
    calls: list[Any] = []
    session, buf = make_session(
        tmp_path,
        Rules(players=4),
        2,
        [0],
        Script(answers=["h", "q"]),
        hints=True,
        advisor=stand_in_advisor(calls),
    )
    assert session.run() == 0
    out = buf.getvalue()
    assert calls and calls[0][0] == 0
    assert "Hints" in out and "50%" in out and "win chance" in out
    assert "(h hints, q save and quit, ? help)" in out
    legal = calls[0][1]
    table = out[out.index("Hints (the advisor's estimate)") :]
    for i, action in enumerate(legal):
        assert re.search(
            rf"{re.escape(render.describe(action))}\s.*\s{50 + 10 * i}%\s.*\+{i}\.0\s.*\s{7 + i}\s",
            table,
        ), (action, table)


def hint_rows(table: str) -> list[list[str]]:
    """The rows of the hint table at the start of ``table``: key, action, win chance and
    margin (each with its interval), samples."""
    rows = []
    for line in table.split("Your choice")[0].splitlines():
        cells = [c.strip() for c in line.strip("│|┃ ").replace("┃", "│").split("│")]
        if len(cells) == 5 and "%" in cells[2]:
            rows.append(cells)
    return rows


def test_hints_with_the_real_advisor(tmp_path: Path) -> None:
    """The same through ``coloretto.agents.advisor``: one row per legal action, its key, the
    action with rows counted from 1, a chance in 0..100 %, a margin and the samples; asked
    on a turn (draw or take) and for the row of a drawn card."""
    asked: list[list[str]] = []  # the keys of each prompt where h was typed
    answers: list[str] = []

    def read(prompt: str) -> str:
        keys = PROMPT.search(prompt).group(1).split()  # type: ignore[union-attr]
        if answers:
            return answers.pop(0)
        turn = "d" in keys and len(keys) > 1
        if (turn and not asked) or (not turn and len(asked) == 1):
            asked.append(keys)
            answers.append("d" if turn else keys[-1])
            return "h"
        if len(asked) == 2:
            return "q"
        return keys[0]

    session, buf = make_session(
        tmp_path, Rules(players=2), 6, [0, 1], read, hints=True, hint_budget=Budget(iterations=30)
    )
    assert session.run() == 0
    out = buf.getvalue()
    assert "The advisor failed" not in out
    tables = out.split("Hints (the advisor's estimate)")[1:]
    assert len(tables) == 2 and len(asked) == 2
    turn_rows, place_rows = hint_rows(tables[0]), hint_rows(tables[1])
    assert sorted(r[0] for r in turn_rows) == sorted(asked[0])
    assert sorted(r[0] for r in place_rows) == sorted(asked[1])
    for key, action, chance, margin, samples in turn_rows + place_rows:
        if key == "d":
            assert action == "draw a card"
        else:
            assert action in (f"take row {key}", f"place it in row {key}")
        value, interval = chance.split("%")
        low, high = (int(x) for x in interval.strip(" []").split(","))
        assert 0 <= low <= int(value) <= high <= 100
        float(margin.split()[0])
        assert int(samples) >= 1
    assert all(action.startswith("place it in row") for _, action, *_ in place_rows)
    assert "95% intervals; search: ismcts-value" in out  # the strongest installed search


def test_match_of_computers_game_scores_add_up(tmp_path: Path) -> None:
    rules = Rules(players=3, match_games=2, edition="modern")
    # Seed 14: the first seed from 13 up whose match takes the golden joker in both games.
    session, buf = make_session(tmp_path, rules, 14, [], None)
    assert session.run() == 0
    out = buf.getvalue()
    assert "Game 1 of 2 is over" in out and "Game 2 of 2 begins." in out
    totals = session.game.state.totals()
    assert len(session.game_scores) == 2
    assert [a + b for a, b in zip(*session.game_scores)] == totals
    # the golden joker's bonus card is told on the line of the take
    golden = [
        x for x in out.splitlines() if "took row" in x and "[*]" in x.split(" and the bonus")[0]
    ]
    golden_takes = [s for s in session.game.steps if GOLDEN_JOKER in s.taken]
    assert {s.game for s in golden_takes} == {0, 1}  # taken in both games of this seed
    assert len(golden) == len(golden_takes)
    assert all(s.bonus for s in golden_takes)
    assert all("and the bonus card [" in x for x in golden)
    assert replay(json.loads((tmp_path / "rec.json").read_text())).valid


def two_seat_session(tmp_path: Path, answers: list[str], names: list[str]) -> tuple[TerminalGame, io.StringIO]:
    """Two people at one keyboard (2 players, seed 1, the second seat starts)."""
    buf = io.StringIO()
    session = TerminalGame(
        game=Game(new_game(Rules(players=2), 1, first_player=1), names),
        agents={},
        human_seats=[0, 1],
        agent_specs=[None, None],
        save_path=tmp_path / "rec.json",
        console=Console(file=buf, width=120, color_system=None),
        read_line=Script(answers=answers),
    )
    return session, buf


# Seat 1 places in row 2, seat 0 in row 1, seat 1 in row 3, seat 0 in row 3; seat 1 takes
# row 2, seat 0 takes row 3 last: the card in row 1 leaves the game, seat 0 starts round 2.
ROUND_ONE = ["2", "d", "1", "d", "3", "d", "3", "2", "3", "q"]


def test_two_players_only_untaken_rows_leave(tmp_path: Path) -> None:
    session, buf = two_seat_session(tmp_path, ROUND_ONE, ["Ann", "Bob"])
    assert session.run() == 0
    out = buf.getvalue()
    assert "Ann took row 3:" in out and "Bob took row 2:" in out
    assert "Round 1 is over. The cards left in row 1 leave the game.\n" in out
    assert "Round 2 begins; Ann starts." in out


def test_you_start(tmp_path: Path) -> None:
    """A seat named You gets the verb's plain form."""
    session, buf = two_seat_session(tmp_path, ROUND_ONE, ["You", "Bob"])
    assert session.run() == 0
    out = buf.getvalue()
    assert "Round 2 begins; You start." in out
    assert not re.search(r"\bYou [a-z]+s\b", out), out
    assert render.subject_verb("you", "starts", "start") == "you start"
    assert render.subject_verb("Yount", "starts", "start") == "Yount starts"


class CheckedAgent(Agent):
    """A computer player that, before each decision, checks that the record on disk is the
    game so far (the real agent decides)."""

    def __init__(self, inner: Any, check: Any) -> None:
        super().__init__()
        self.inner, self.check = inner, check

    def reset(self, seat: int, rules: Rules) -> None:
        super().reset(seat, rules)
        self.inner.reset(seat, rules)

    def act(self, observation: Any, legal: Any) -> Any:
        self.check()
        return self.inner.act(observation, legal)

    def close(self) -> None:
        self.inner.close()


def test_record_on_disk_after_every_action(tmp_path: Path) -> None:
    """At every decision, a person's or a computer player's, the file holds the whole game
    so far (a drawn card waiting for its row included): a crash then loses nothing."""
    checks: list[bool] = []  # one per check: was a draw pending
    holder: dict[str, TerminalGame] = {}

    def check() -> None:
        session = holder["session"]
        on_disk = json.loads((tmp_path / "rec.json").read_text())
        assert on_disk == session.record()
        assert len(on_disk["actions"]) == len(session.game.entries)
        tail = on_disk["actions"][-1] if on_disk["actions"] else {}
        checks.append(tail.get("action") == "draw" and "row" not in tail)

    class CheckingScript(Script):
        def __call__(self, prompt: str) -> str:
            check()
            return super().__call__(prompt)

    session, _ = make_session(tmp_path, Rules(players=3), 17, [1], CheckingScript())
    session.agents = {s: CheckedAgent(a, check) for s, a in session.agents.items()}
    holder["session"] = session
    assert session.run() == 0
    assert len(checks) > 50 and any(checks) and not all(checks)
    final = json.loads((tmp_path / "rec.json").read_text())
    assert replay(final).finished and "pending_draw" not in final


def test_a_failing_save_is_told_and_play_goes_on(tmp_path: Path) -> None:
    session, buf = make_session(tmp_path, Rules(players=3), 4, [0], Script())
    session.save_path = tmp_path / "no such folder" / "rec.json"
    assert session.run() == EXIT_NOT_SAVED
    out = buf.getvalue()
    assert out.count("saving is tried again after each action") == 1
    assert "Final scores" in out and "The game was NOT saved" in out.split("Final scores")[1]


def test_match_waits_for_enter_between_games(tmp_path: Path) -> None:
    rules = Rules(players=3, match_games=2)
    script = Script()
    session, buf = make_session(tmp_path, rules, 13, [0], script)
    assert session.run() == 0
    out = buf.getvalue()
    assert script.pauses == ["Press Enter to start game 2 of 2 (q saves and quits): "]
    assert out.index("Game 1 of 2 is over") < out.index("Game 2 of 2 begins.")


def test_q_between_games_saves_the_match(tmp_path: Path) -> None:
    script = Script()

    def read(prompt: str) -> str:
        return "q" if prompt.startswith("Press Enter") else script(prompt)

    session, buf = make_session(tmp_path, Rules(players=3, match_games=2), 13, [0], read)
    assert session.run() == 0
    resumed = load_game(json.loads((tmp_path / "rec.json").read_text()))
    assert resumed.state.game == 1 and not resumed.state.is_over()
    assert "Resume it with" in buf.getvalue()
    assert "Game 2 of 2 begins." not in buf.getvalue()


def test_resumed_match_keeps_the_scores_of_each_game(tmp_path: Path) -> None:
    """Stop a match during its second game, resume it: the final table shows game 1's
    scores under "game 1" and game 2's under "game 2"."""
    rules = Rules(players=3, match_games=2, edition="modern")
    (tmp_path / "whole").mkdir()
    whole, _ = make_session(tmp_path / "whole", rules, 13, [], None)
    assert whole.run() == 0
    game1 = whole.game_scores[0]
    rec = json.loads((tmp_path / "whole" / "rec.json").read_text())
    second = next(
        n for n in range(1, len(rec["actions"])) if load_game(_cut(rec, n)).state.game == 1
    )
    resumed, buf = make_session(tmp_path, rules, 13, [], None)
    resumed.game = load_game(_cut(rec, second + 5))
    assert resumed.run() == 0  # the random players go on differently: game 2 is new
    game2 = resumed.state.scores()
    assert resumed.game_scores == [game1, game2]
    assert [a + b for a, b in zip(game1, game2)] == resumed.state.totals()
    table = buf.getvalue().split("Match")[-1]
    for s in range(3):
        assert re.search(
            rf"bot-{s}\s+{game1[s]}\s+{game2[s]}\s+{game1[s] + game2[s]}\b", table
        ), table


def _cut(rec: dict[str, Any], n: int) -> dict[str, Any]:
    out = {k: v for k, v in rec.items() if k != "result"}
    out["actions"] = rec["actions"][:n]
    return out
