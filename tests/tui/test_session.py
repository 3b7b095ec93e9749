"""``TerminalGame`` in-process with scripted input: full games, interruption, hints,
matches, and the log lines of the computer players."""

from __future__ import annotations

import io
import json
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from coloretto.agents import make_agent
from coloretto.engine import Rules, new_game, replay
from coloretto.engine.cards import GOLDEN_JOKER
from coloretto.engine.record import Game
from coloretto.tui.session import ADVISOR_MODULE, TerminalGame

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

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        if self.interrupt_at is not None and self.prompts >= self.interrupt_at:
            raise KeyboardInterrupt
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
    script: Script | None,
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
    from coloretto.engine import load_game

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
    from coloretto.engine import load_game

    resumed, buf = make_session(tmp_path, Rules(players=4), 8, [0], Script(interrupt_at=1))
    resumed.game = load_game(rec)
    assert resumed.run() == 130
    assert resumed.game.state.decision == "place"
    assert "had drawn" in buf.getvalue()
    saved = json.loads((tmp_path / "rec.json").read_text())
    assert "pending_draw" not in saved and saved["actions"][-1] == tail


def test_hints_off_unavailable_and_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, buf = make_session(tmp_path, Rules(players=4), 2, [0], Script(answers=["h", "q"]))
    assert session.run() == 0
    assert "start the game with --hints" in buf.getvalue()

    monkeypatch.setitem(sys.modules, ADVISOR_MODULE, None)  # type: ignore[arg-type]
    session, buf = make_session(
        tmp_path, Rules(players=4), 2, [0], Script(answers=["h", "q"]), hints=True
    )
    assert session.run() == 0
    assert "hints are unavailable" in buf.getvalue()

    calls: list[Any] = []

    def advise(observation: Any, legal: list[Any], budget: Any) -> list[tuple[Any, float, float]]:
        calls.append((observation.seat, legal, budget))
        return [(a, 0.5 + 0.1 * i, float(i)) for i, a in enumerate(legal)]

    monkeypatch.setitem(sys.modules, ADVISOR_MODULE, types.SimpleNamespace(advise=advise))  # type: ignore[arg-type]
    session, buf = make_session(
        tmp_path, Rules(players=4), 2, [0], Script(answers=["h", "q"]), hints=True
    )
    assert session.run() == 0
    out = buf.getvalue()
    assert calls and calls[0][0] == 0
    assert "Hints" in out and "50%" in out and "win chance" in out


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
