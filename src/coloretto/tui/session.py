"""An interactive game in the terminal: people type short keys, computer players answer
(docs/terminal.md).

Input is read line by line (``input()``), so the game can be driven by a script or by
``pexpect``. Output goes through a ``rich`` console: colours where the terminal supports
them, the card letters always.

A ``TerminalGame`` plays a recorded ``Game``: people's seats are asked through the keyboard,
the other seats through ``Agent`` objects. Each person sees only their observation. The
record is written atomically at the start and after every action (a draw whose card waits
for its row included: the record holds it as its trailing draw entry, so a resumed game asks
for that card's row at once), so a crash or ``kill -9`` loses at most the action in flight; it
is written once more when the game ends, and when the person presses Ctrl-C, types ``q`` or
closes the input (then it says how to resume). Records are written by
``coloretto.engine.record.save_record`` with the play program's extra keys
(``coloretto.tui.saving``; docs/record-format.md).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..agents.advisor import Advice, advise
from ..agents.base import Agent, Budget
from ..arena.driver import FIRST_LEGAL, decide_with, deliver_results
from ..engine.actions import Action
from ..engine.cards import COLORS, LETTERS
from ..engine.observation import Observation, observe
from ..engine.record import Game, save_record
from ..engine.rules import Rules
from ..engine.scoring import ScoreBreakdown
from ..engine.state import PLACE, GameState
from ..engine.step import GameResult, Step
from . import render
from .saving import finished_game_scores, session_record

Advisor = Callable[[Observation, list[Action], Budget], Sequence[Advice]]
"""``advise(observation, legal, budget)``: one ``Advice`` per legal action, best first."""

EXIT_OK = 0
EXIT_INPUT_ENDED = 1
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (the shell's convention for SIGINT); the record is saved."""


class _Quit(Exception):
    """The person typed ``q``."""


@dataclass
class TerminalGame:
    """One game (or match) in the terminal.

    Attributes:
        game: the recorded game to play on (it may already hold actions: a resumed game).
        agents: seat -> computer player, for every seat not in ``human_seats``.
        human_seats: seats played through the keyboard.
        agent_specs: per seat, the ``make_agent`` spec (``None`` for a person); saved in the
            record so ``--resume`` rebuilds the same opponents.
        save_path: where the record is written (after every action).
        console: the ``rich`` console to print on.
        seed: the seed of the deal (saved in the record, shown at the start).
        hints: the person asked for hints (``--hints``): the key ``h`` is offered.
        hint_budget: thinking budget given to the advisor.
        read_line: reads one line of input given a prompt (default ``input``); raises
            ``EOFError`` at the end of input and ``KeyboardInterrupt`` on Ctrl-C.
        game_scores: per finished game of a match, each seat's score (rebuilt from the
            record when empty at the start of a resumed match).
        program: the command that runs this program, as a shell word (``coloretto``, or an
            absolute path); used in the printed resume and replay commands.
        advisor: gives the hints; default ``coloretto.agents.advisor.advise``.
    """

    game: Game
    agents: dict[int, Agent]
    human_seats: list[int]
    agent_specs: list[str | None]
    save_path: Path
    console: Console
    seed: int | None = None
    hints: bool = False
    hint_budget: Budget = field(default_factory=lambda: Budget(seconds=1.0))
    read_line: Callable[[str], str] = input
    game_scores: list[list[int]] = field(default_factory=list)
    program: str = "coloretto"
    advisor: Advisor = advise
    _save_error: str | None = None

    # ----- the loop -----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game is over or the person stops; return the exit status: 0 game
        over (or ``q``), 130 Ctrl-C, 1 input ended. The record is saved in every case."""
        try:
            self._start()
            while not self.state.is_over():
                seat = self.state.to_move
                if seat in self.human_seats:
                    self._human_decision(seat)
                else:
                    self._computer_decision(seat)
            self._finish()
            deliver_results(list(self.agents.values()), self.state.totals(), self.state.winners())
            return EXIT_OK
        except KeyboardInterrupt:
            self.console.print()
            self._say("Interrupted.", "bold")
            self._save_and_explain()
            return EXIT_INTERRUPTED
        except _Quit:
            self._save_and_explain()
            return EXIT_OK
        except EOFError:
            self.console.print()
            self._say("Input ended before the game did.", "bold")
            self._save_and_explain()
            return EXIT_INPUT_ENDED
        finally:
            for agent in self.agents.values():
                agent.close()

    @property
    def state(self) -> GameState:
        """The current (true) state; never shown to a person directly."""
        return self.game.state

    @property
    def names(self) -> list[str]:
        """Seat names."""
        return self.game.seats

    def _start(self) -> None:
        st = self.state
        for seat, agent in self.agents.items():
            agent.reset(seat, st.rules)
        rules = st.rules
        who = ", ".join(
            self.names[s]
            + (" (you)" if s in self.human_seats and self.names[s].lower() != "you" else "")
            for s in range(st.n)
        )
        self.console.print(Text(f"Coloretto, {st.n} players in seat order: {who}", style="bold"))
        opts = ", ".join(f"{k}={v}" for k, v in rules.to_dict().items() if v is not None)
        self.console.print(Text(f"Rules: {opts}", style="dim"))
        if self.seed is not None:
            self.console.print(Text(f"Seed: {self.seed}", style="dim"))
        self._say(f"The record is saved to {_absolute(self.save_path)} after every action.", "dim")
        if self.game.entries:
            self.console.print(
                Text(f"Resuming after {len(self.game.entries)} recorded actions.", style="bold")
            )
        if not self.game_scores:
            self.game_scores = finished_game_scores(self.game)
        if self.game.entries and self.state.phase == PLACE:
            self._resumed_draw()
        self._autosave()
        self.console.print(Text("Type ? at any prompt for help.", style="dim"))

    def _resumed_draw(self) -> None:
        """Tell the card that was drawn before the interruption: the record holds the draw,
        so resuming cannot undo a draw whose card was seen."""
        st = self.state
        self.console.print(
            Text.assemble(
                f"{self.names[st.to_move]} had drawn ",
                render.card_named(st.drawn),
                " before the break.",
            )
        )

    # ----- people --------------------------------------------------------------------------
    def _choices(self, st: GameState, legal: Sequence[Action]) -> list[tuple[str, Action, Text]]:
        """(key, action, description) for each legal action."""
        out: list[tuple[str, Action, Text]] = []
        for a in legal:
            if a.kind == "draw":
                out.append(("d", a, Text(f"draw a card ({st.cards_left()} left in the draw pile)")))
            elif a.kind == "take":
                out.append(
                    (
                        str(a.arg + 1),
                        a,
                        Text.assemble(f"take row {a.arg + 1}: ", render.cards(st.rows[a.arg])),
                    )
                )
            elif a.kind == "place":
                out.append(
                    (
                        str(a.arg + 1),
                        a,
                        Text.assemble(f"row {a.arg + 1}: ", render.row_text(st, a.arg, self.names)),
                    )
                )
            else:
                out.append((LETTERS[a.arg].lower(), a, Text.assemble(render.card_named(a.arg))))
        return out

    def _extra_keys(self) -> str:
        """The keys offered besides the choices, as shown under them."""
        keys = ["h hints"] if self.hints else []
        return ", ".join([*keys, "q save and quit", "? help"])

    def _human_decision(self, seat: int) -> None:
        st = self.state
        legal = st.legal_actions()
        if len(legal) == 1:
            self._forced(seat, legal[0])
            return
        obs = observe(st, seat)
        view = obs.state
        self.console.print()
        self.console.print(render.board(view, self.names, viewer=seat))
        choices = self._choices(view, legal)
        if st.decision == "place":
            title = Text.assemble("Choose the row for ", render.card_named(st.drawn), ":")
        elif st.decision == "choose_start":
            title = Text(f"{self.names[seat]}, choose your starting colour:")
        else:
            title = Text(f"{self.names[seat]}, your turn. Choose:")
        self.console.print(title, style="bold")
        for key, _, text in choices:
            self.console.print(Text.assemble("  ", (key, "bold cyan"), "  ", text))
        self.console.print(Text(f"  ({self._extra_keys()})", style="dim"))
        keys = [k for k, _, _ in choices]
        by_key = {k: a for k, a, _ in choices}
        if st.decision == "choose_start":
            by_key.update({COLORS[a.arg]: a for a in legal})
        prompt = f"Your choice [{' '.join(keys)}]: "
        while True:
            answer = self.read_line(prompt).strip().lower()
            if answer in by_key:
                self._play(seat, by_key[answer])
                return
            if answer == "q":
                raise _Quit
            if answer in ("?", "help"):
                self._help(view)
                continue
            if answer == "h":
                self._hint(obs, legal, choices)
                continue
            if answer == "":
                self._say(f"Type one of: {' '.join(keys)}")
                continue
            self.console.print(
                Text(
                    f"{answer!r} is not a choice here; type one of: {' '.join(keys)} (or ? for help)",
                    style="red",
                )
            )

    def _forced(self, seat: int, action: Action) -> None:
        """A decision with one legal action is made for the person, with a note."""
        st = self.state
        if action.kind == "draw":
            self.console.print(
                Text(
                    f"{self.names[seat]} must draw (the rows left in the round are empty).",
                    style="italic",
                )
            )
        elif action.kind == "place":
            self.console.print(
                Text.assemble(
                    f"{self.names[seat]} drew ",
                    render.card_named(st.drawn),
                    f"; only row {action.arg + 1} has room.",
                    style="italic",
                )
            )
        elif action.kind == "take":
            self.console.print(
                Text(
                    f"{self.names[seat]} must take row {action.arg + 1} (no row has room).",
                    style="italic",
                )
            )
        self._play(seat, action, quiet=action.kind == "place")

    def _help(self, view: GameState) -> None:
        self.console.print(render.board(view, self.names, viewer=view.to_move))
        hint = "h shows the advisor's hints; " if self.hints else ""
        # A paragraph: rich breaks it between words at the console's width (a soft-wrapped
        # line would be cut by the terminal wherever its width ends, mid-word).
        self.console.print(Text(
            "Keys: d draws the top card of the draw pile; 1, 2, ... take that row on your turn, "
            "or place the drawn card in that row; a colour's letter (or name) chooses a "
            f"starting colour; {hint}q saves the game and quits (resume with "
            f"{self.program} play --resume FILE); Ctrl-C does the same; an empty line lists "
            "the keys. Scores are each player's best score now (jokers placed optimally), "
            "counted with the score table above.",
        ))

    def _hint(
        self, obs: Observation, legal: Sequence[Action], choices: Sequence[tuple[str, Action, Text]]
    ) -> None:
        if not self.hints:
            self._say("Hints are off; start the game with --hints to get them.")
            return
        self._say("The advisor is thinking...", "dim")
        try:
            advice = list(self.advisor(obs, list(legal), self.hint_budget))
        except Exception as exc:  # noqa: BLE001 (the advisor is another component: report it, keep playing)
            self.console.print(Text(f"The advisor failed: {exc}", style="red"))
            return
        self.console.print(hint_table(advice, {a: k for k, a, _ in choices}))

    # ----- computer players ----------------------------------------------------------------
    def _computer_decision(self, seat: int) -> None:
        """The computer seat's decision through the driver under the terminal's failure
        policy (``arena.driver.FIRST_LEGAL``): a failing computer player plays the first
        legal action, and the screen says so."""
        st = self.state
        decision = decide_with(self.agents[seat], observe(st, seat), st.legal_actions(), FIRST_LEGAL, st)
        if decision.failure is not None:
            self._say(
                f"The computer player {self.names[seat]} failed ({decision.failure}); it plays "
                f"{decision.action} instead (failure policy: {FIRST_LEGAL}).",
                "red",
            )
        self._play(seat, decision.action)

    # ----- applying actions and telling what happened --------------------------------------
    def _play(self, seat: int, action: Action, *, quiet: bool = False) -> None:
        """Play ``action`` for ``seat``, save, and tell what it did (``_tell``); ``quiet``
        leaves out the placement line (a forced placement is told before it)."""
        step = self.game.play(action)
        self._autosave()
        self._tell(step, quiet=quiet)

    def _tell(self, step: Step, *, quiet: bool = False) -> None:
        """The news lines of one action, read from its ``Step`` (and, for a game it ended,
        ``GameState.results``): the placement, take (with its bonus cards and the score
        after it) or starting colour; the Last Round card (docs/rules.md §5.1); seats leaving
        the round taking nothing (§5.3); the end of the round (§4) and of a game of a match
        (§5.4). A draw is told with its placement. ``quiet`` leaves out a placement's line."""
        name = self.names[step.seat]
        kind = step.action.kind
        if kind == "draw":
            if step.last_round_revealed:
                self._last_round_news()
            return
        if kind == "place":
            if not quiet:
                assert step.placed is not None
                self.console.print(
                    Text.assemble(
                        f"{name} put ",
                        render.card_named(step.placed),
                        f" in row {step.action.arg + 1}.",
                    )
                )
        elif kind == "take":
            self.console.print(self._take_line(step))
            if step.last_round_revealed:
                self._last_round_news()
            for seat in step.left:
                self._say(
                    f"{self.names[seat]} leaves the round taking nothing (the draw pile is "
                    "empty and so are the rows left).",
                    "italic",
                )
            self._round_news(step)
        else:
            self.console.print(
                Text.assemble(f"{name} chose ", render.card_named(step.action.arg), " as starting card.")
            )
        if step.game_over and not step.match_over:
            self._game_over_news(step)

    def _take_line(self, step: Step) -> Text:
        """``Ann took row 2: [E][*] and the bonus card [O] (score now 12).``: the row's cards,
        the bonus cards in the order they came up, and the taker's score after the take (the
        final score of the game when the take ended it)."""
        line = Text.assemble(
            f"{self.names[step.seat]} took row {step.action.arg + 1}: ", render.cards(step.taken)
        )
        if step.bonus:
            line.append_text(Text.assemble(" and the bonus card ", render.cards(step.bonus)))
        if step.game_over:
            score = self.state.results[step.game].scores[step.seat]
        else:
            score = self.state.score(step.seat)
        line.append(f" (score now {score}).")
        return line

    def _say(self, message: str, style: str = "") -> None:
        """Print plain text (never parsed as ``rich`` markup)."""
        self.console.print(Text(message, style=style), soft_wrap=True)

    def _last_round_news(self) -> None:
        self.console.print(render.last_round_warning())

    def _round_news(self, step: Step) -> None:
        """After an action that ended a round (``step.round_over``): which cards leave the
        game (docs/rules.md §4: the rows nobody took, ``round_leftovers``) and, unless the
        game ended too, who starts the next round."""
        if not step.round_over:
            return
        msg = f"Round {step.round} is over."
        rows = round_leftovers(self.game.steps)
        if rows is None:
            msg += " The cards left in the rows leave the game: "
            self.console.print(Text.assemble(msg, render.cards(step.removed), ".", style="bold"))
        else:
            if rows:
                msg += (
                    " The cards left in "
                    + ", ".join(f"row {r + 1}" for r in rows)
                    + " leave the game."
                )
            self.console.print(Text(msg, style="bold"))
        if not step.game_over:
            st = self.state
            self.console.print(
                Text(
                    f"Round {st.round} begins; "
                    f"{render.subject_verb(self.names[st.to_move], 'starts', 'start')}.",
                    style="bold",
                )
            )

    def _game_over_news(self, step: Step) -> None:
        """A game of a match ended (the next has begun): its scores and breakdown
        (``GameState.results``) and the match so far; when a person plays, the next game
        starts once they press Enter."""
        st = self.state
        result = st.results[step.game]
        games = st.rules.match_games
        self.game_scores.append(list(result.scores))
        self.console.print()
        self.console.print(
            render.breakdown_table(
                _breakdowns(result, st.rules),
                self.names,
                title=f"Game {step.game + 1} of {games} is over",
            )
        )
        self.console.print(render.match_table(self.game_scores, st.match_totals, self.names))
        if self.human_seats:
            answer = self.read_line(
                f"Press Enter to start game {st.game + 1} of {games} (q saves and quits): "
            )
            if answer.strip().lower() == "q":
                raise _Quit
        self.console.print(Text(f"Game {st.game + 1} of {games} begins.", style="bold"))

    # ----- the end ---------------------------------------------------------------------------
    def _finish(self) -> None:
        st = self.state
        viewer = self.human_seats[0] if self.human_seats else 0
        self.console.print()
        self.console.print(Text("The game is over.", style="bold"))
        self.console.print(
            render.board(observe(st, viewer).state, self.names, viewer=viewer, show_legend=False)
        )
        match = st.rules.match_games > 1
        title = (
            f"Game {st.game + 1} of {st.rules.match_games}: final scores"
            if match
            else "Final scores"
        )
        ranks = None if match else st.ranks()
        result = st.results[-1]
        self.console.print(
            render.breakdown_table(
                _breakdowns(result, st.rules), self.names, title=title, ranks=ranks
            )
        )
        if match:
            self.game_scores.append(list(result.scores))
            self.console.print(render.match_table(self.game_scores, st.totals(), self.names))
        self.console.print(render.winners_text(st.winners(), st.totals(), self.names))
        try:
            path = self.save()
        except OSError as exc:
            self._say(
                f"Could not save the record to {self.save_path}: {exc.strerror or exc}", "bold red"
            )
            return
        shown = _absolute(path)
        self._say(
            f"Record saved to {shown} (check it with: {self.program} replay {shlex.quote(shown)})"
        )

    # ----- saving ------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The ``coloretto-record/1`` object with this program's extra keys
        (``saving.session_record``)."""
        return session_record(self.game, self.human_seats, self.agent_specs, self.seed)

    def save(self) -> Path:
        """Write the record to ``save_path`` atomically (``engine.record.save_record``) and
        return the path.

        Raises:
            OSError: it cannot be written.
        """
        save_record(self.save_path, self.record())
        return self.save_path

    def _autosave(self) -> None:
        """Save after an action; a failure is told once (and its end too), and play goes on."""
        try:
            self.save()
        except OSError as exc:
            message = f"Could not save the record to {self.save_path}: {exc.strerror or exc}"
            if message != self._save_error:
                self._say(f"{message}; saving is tried again after each action.", "bold red")
            self._save_error = message
            return
        if self._save_error is not None:
            self._say(f"The record is saved to {_absolute(self.save_path)} again.", "bold")
            self._save_error = None

    def _save_and_explain(self) -> None:
        try:
            path = self.save()
        except OSError as exc:
            self.console.print(
                Text(
                    f"Could not save the record to {self.save_path}: {exc.strerror or exc}",
                    style="bold red",
                )
            )
            return
        shown = _absolute(path)
        if self.state.is_over():
            self._say(f"Record saved to {shown}.")
        else:
            self._say(f"Game saved to {shown}")
            self._say(f"Resume it with: {self.program} play --resume {shlex.quote(shown)}")


def hint_table(advice: Sequence[Advice], keys: dict[Action, str]) -> Table:
    """The advisor's estimates as a table, best first: the key of each action (``keys``),
    the action in words (rows counted from 1), the win chance in percent and the expected
    score margin over the best other player, each with its 95% interval, and the samples
    behind the estimate; the caption names the search (``Advice.evaluator``)."""
    evaluators = sorted({a.evaluator for a in advice})
    table = Table(
        title="Hints (the advisor's estimate)",
        title_justify="left",
        caption=f"95% intervals; search: {', '.join(evaluators)}",
        caption_justify="left",
    )
    table.add_column("key")
    table.add_column("action")
    table.add_column("win chance", justify="right")
    table.add_column("margin", justify="right")
    table.add_column("samples", justify="right")
    for a in advice:
        interval = a.margin_interval
        margin = f"{a.margin:+.1f}"
        if interval is not None:
            margin += f" [{interval[0]:+.1f}, {interval[1]:+.1f}]"
        table.add_row(
            keys.get(a.action, "?"),
            render.describe(a.action),
            f"{100 * a.win_prob:.0f}% [{100 * a.win_low:.0f}, {100 * a.win_high:.0f}]",
            margin,
            str(a.samples),
        )
    return table


def round_leftovers(steps: Sequence[Step]) -> list[int] | None:
    """The rows (0-based, in order) whose cards left the game when the last of ``steps``
    ended its round (docs/rules.md §4: the rows nobody took that hold cards), read from the
    Steps of that round: every row starts the round empty, placements fill it, a take
    empties it for the rest of the round.

    ``None`` when ``steps`` do not hold the whole round (a ``Game`` started in the middle of
    it): the rows' cards then differ from the cards the last step removed.

    >>> from coloretto.engine import Rules, new_game
    >>> from coloretto.engine.record import Game
    >>> game = Game(new_game(Rules(players=2), seed=1, first_player=0), ["Ann", "Bob"])
    >>> draw, place, take = Action("draw"), (lambda r: Action("place", r)), (lambda r: Action("take", r))
    >>> moves = [draw, place(0), draw, place(2), take(0), draw, place(1), take(1)]  # Ann, Bob, Ann, Bob
    >>> steps = [game.play(action) for action in moves]
    >>> steps[-1].round_over, round_leftovers(game.steps), len(steps[-1].removed)
    (True, [2], 1)
    """
    if not steps:
        return None
    last = steps[-1]
    start = len(steps) - 1
    while start > 0 and (steps[start - 1].game, steps[start - 1].round) == (last.game, last.round):
        start -= 1
    rows: dict[int, list[int]] = {}
    for step in steps[start:]:
        kind = step.action.kind
        if kind == "place" and step.placed is not None:
            rows.setdefault(step.action.arg, []).append(step.placed)
        elif kind == "take":
            rows[step.action.arg] = []  # its cards went to the taker
    left = sorted(r for r, cards in rows.items() if cards)
    if tuple(c for r in left for c in rows[r]) != last.removed:
        return None
    return left


def _absolute(path: Path) -> str:
    """``path`` as an absolute path (for messages a person may copy into another folder)."""
    return os.path.abspath(path)


def _breakdowns(result: GameResult, rules: Rules) -> list[ScoreBreakdown]:
    """Every seat's score breakdown of a finished game (docs/rules.md §6.4)."""
    return [result.breakdown(s, rules) for s in range(len(result.scores))]


__all__ = [
    "EXIT_INPUT_ENDED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "Advisor",
    "TerminalGame",
    "hint_table",
    "round_leftovers",
]
