"""An interactive game in the terminal: people type short keys, computer players answer
(docs/terminal.md).

Input is read line by line (``input()``), so the game can be driven by a script or by
``pexpect``. Output goes through a ``rich`` console: colours where the terminal supports
them, the card letters always.

A ``TerminalGame`` plays a recorded ``Game`` by the driver's game loop
(``coloretto.arena.driver.play_out``, the loop of ``coloretto simulate`` and ``tournament``):
people's seats are ``Keyboard`` agents (``coloretto.tui.keyboard``) reading keys, the other
seats computer ``Agent`` objects in ``SeatPlayer``s under the terminal's failure policy
(``first_legal``); the loop's step hook saves the record and prints what each action did.
Each person sees only their observation. The
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
from rich.text import Text

from ..agents.advisor import advise
from ..agents.base import Agent, Budget
from ..agents.registry import computer_name, is_external
from ..arena.driver import FIRST_LEGAL, SeatPlayer, deliver_results, failure_text, play_out
from ..engine.observation import observe
from ..engine.record import Game, save_record
from ..engine.rules import Rules
from ..engine.scoring import ScoreBreakdown
from ..engine.state import PLACE, GameState
from ..engine.step import GameResult, Step
from ..text import plural
from . import render
from .keyboard import Advisor, Keyboard, Quit, hint_table
from .saving import finished_game_scores, session_record

EXIT_OK = 0
EXIT_INPUT_ENDED = 1
EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (the shell's convention for SIGINT); the record is saved."""
EXIT_NOT_SAVED = 3
"""Exit status when the game stopped (``q``, Ctrl-C, end of input) or ended but its record
could not be written: the file holds an older state of the game, or nothing."""


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
        agents_folder: the folder the external engines (``cmd:``) run in, saved in the
            record (``None``: there are none).
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
    agents_folder: str | None = None
    _save_error: str | None = None
    _failures: dict[int, list[str]] = field(default_factory=dict)
    _failures_told: dict[int, tuple[str, int]] = field(default_factory=dict)

    # ----- the loop -----------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game is over or the person stops; return the exit status: 0 game
        over (or ``q``), 130 Ctrl-C, 1 input ended; the record is saved in every case, and
        when that last write fails the status is ``EXIT_NOT_SAVED`` (3) whatever the reason
        to stop, with a message that the game was not saved.

        The game is played by the driver's loop (``arena.driver.play_out``), the one that
        plays ``coloretto simulate`` and ``tournament`` games, with the seats' players of
        ``_players`` and ``_after`` as its step hook."""
        try:
            players = self._players()
            self._start()
            play_out(self.game, players, self._after)
            saved = self._finish()
            deliver_results(players, self.state.totals(), self.state.winners())
            return EXIT_OK if saved else EXIT_NOT_SAVED
        except KeyboardInterrupt:
            self.console.print()
            self._say("Interrupted.", "bold")
            return EXIT_INTERRUPTED if self._save_and_explain() else EXIT_NOT_SAVED
        except Quit:
            return EXIT_OK if self._save_and_explain() else EXIT_NOT_SAVED
        except EOFError:
            self.console.print()
            self._say("Input ended before the game did.", "bold")
            return EXIT_INPUT_ENDED if self._save_and_explain() else EXIT_NOT_SAVED
        finally:
            for agent in self.agents.values():  # the SeatPlayers' agents (a Keyboard holds nothing)
                agent.close()

    @property
    def state(self) -> GameState:
        """The current (true) state; never shown to a person directly."""
        return self.game.state

    @property
    def names(self) -> list[str]:
        """Seat names."""
        return self.game.seats

    def show_over(self) -> int:
        """Show a game that is already over (a resumed record of a finished game): the
        players, the rules, the final board, scores and winners; nothing is played and
        nothing is written, so the record stays byte for byte as it is. Returns 0."""
        try:
            self._header()
            self._say(f"This game is over; {_absolute(self.save_path)} is left as it is.", "dim")
            self.game_scores = finished_game_scores(self.game)
            self._final_screen()
            shown = shlex.quote(_absolute(self.save_path))
            self._say(f"Check it with: {self.program} replay {shown}")
        finally:
            for agent in self.agents.values():
                agent.close()
        return EXIT_OK

    def _header(self) -> None:
        """The first lines: the players in seat order, the rules and the seed."""
        st = self.state
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

    def _start(self) -> None:
        self._header()
        self._say(f"The record is saved to {_absolute(self.save_path)} after every action.", "dim")
        if self.game.entries:
            n = len(self.game.entries)
            self.console.print(
                Text(f"Resuming after {plural(n, 'recorded action')}.", style="bold")
            )
            self._new_players()
        if not self.game_scores:
            self.game_scores = finished_game_scores(self.game)
        if self.game.entries and self.state.phase == PLACE:
            self._resumed_draw()
        self._autosave()
        self.console.print(Text("Type ? at any prompt for help.", style="dim"))

    def _new_players(self) -> None:
        """Say which seats a resumed game's record names after another computer player than
        the one that plays them now (``play --resume FILE --opponents ...``): the names stay
        those of the record, whose earlier actions they made."""
        for seat, spec in enumerate(self.agent_specs):
            if spec is not None and self.names[seat] != computer_name(spec, seat):
                self._say(
                    f"Seat {seat + 1} ({self.names[seat]}) is played by {spec} from here on.",
                    "bold",
                )

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

    # ----- the seats' players --------------------------------------------------------------
    def _players(self) -> list[Agent]:
        """One player per seat for ``play_out``: a ``Keyboard`` for each person, and each
        computer agent in a ``SeatPlayer`` under the terminal's failure policy
        (``arena.driver.FIRST_LEGAL``: a failing computer player plays the first legal
        action; ``_computer_failed`` notes it for the screen)."""
        players: list[Agent] = []
        for seat in range(self.state.n):
            if seat in self.human_seats:
                players.append(
                    Keyboard(
                        self.console,
                        self.names,
                        self.read_line,
                        hints=self.hints,
                        hint_budget=self.hint_budget,
                        advisor=self.advisor,
                        program=self.program,
                    )
                )
            else:
                players.append(SeatPlayer(self.agents[seat], FIRST_LEGAL, self._computer_failed))
        return players

    def _computer_failed(self, failure: Exception, seat: int) -> None:
        """``SeatPlayer``'s failure hook: the failure is told with the seat's next action."""
        self._failures.setdefault(seat, []).append(failure_text(failure))

    # ----- applying actions and telling what happened --------------------------------------
    def _after(self, game: Game, step: Step, forced: bool) -> None:
        """``play_out``'s step hook, after each action: the computer player's failures
        since its last action (``_computer_failed``; the last one made this action the
        first legal one), the note of a person's only legal action (``_forced``), the
        autosave, and the action's news (``_tell``, without the placement line that a forced
        placement's note replaces)."""
        for failure in self._failures.pop(step.seat, []):
            self._tell_failure(step, failure)
        person_forced = forced and step.seat in self.human_seats
        if person_forced:
            self._forced(step)
        self._autosave()
        self._tell(step, quiet=person_forced and step.action.kind == "place")

    def _tell_failure(self, step: Step, failure: str) -> None:
        """Say that the computer player of ``step.seat`` failed with ``failure`` and played
        ``step.action`` (the first legal one) instead. A failure the same as the seat's last
        one is said once more, as "keeps failing", and then no longer (a program that has
        stopped fails the same way at every decision)."""
        name = self.names[step.seat]
        last, repeats = self._failures_told.get(step.seat, ("", 0))
        if failure != last:
            self._failures_told[step.seat] = (failure, 0)
            self._say(
                f"The computer player {name} failed ({failure}); it plays {step.action} "
                f"instead (failure policy: {FIRST_LEGAL}).",
                "red",
            )
            return
        self._failures_told[step.seat] = (failure, repeats + 1)
        if repeats == 0:
            self._say(
                f"The computer player {name} keeps failing the same way; it plays the first "
                "legal action at each of its decisions (further failures like this one are "
                "not shown).",
                "red",
            )

    def _forced(self, step: Step) -> None:
        """The note of a person's decision that had one legal action (played for them)."""
        name, action = self.names[step.seat], step.action
        if action.kind == "draw":
            self.console.print(
                Text(f"{name} must draw (the rows left in the round are empty).", style="italic")
            )
        elif action.kind == "place":
            assert step.placed is not None
            self.console.print(
                Text.assemble(
                    f"{name} drew ",
                    render.card_named(step.placed),
                    f"; only row {action.arg + 1} has room.",
                    style="italic",
                )
            )
        elif action.kind == "take":
            self.console.print(
                Text(f"{name} must take row {action.arg + 1} (no row has room).", style="italic")
            )

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
                self._last_round_news(name)
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
                self._last_round_news(name)
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

    def _last_round_news(self, name: str) -> None:
        """The news that ``name`` drew the Last Round card (docs/rules.md §5.1)."""
        self.console.print(
            Text(
                f"LAST ROUND: {name} drew the Last Round card; the game ends with this round.",
                style="bold red",
            )
        )

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
                raise Quit
        self.console.print(Text(f"Game {st.game + 1} of {games} begins.", style="bold"))

    # ----- the end ---------------------------------------------------------------------------
    def _finish(self) -> bool:
        """The final screen (``_final_screen``), then the record's last write; whether it
        was written."""
        self._final_screen()
        shown = self._save_shown()
        if shown is None:
            return False
        self._say(
            f"Record saved to {shown} (check it with: {self.program} replay {shlex.quote(shown)})"
        )
        return True

    def _final_screen(self) -> None:
        """The end of the game: the final board, every seat's score breakdown (with the
        ranks, or the match table) and the winners."""
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

    # ----- saving ------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The ``coloretto-record/1`` object with this program's extra keys
        (``saving.session_record``)."""
        return session_record(
            self.game, self.human_seats, self.agent_specs, self.seed, self.agents_folder
        )

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

    def _save_shown(self) -> str | None:
        """Save the record; its absolute path, or ``None`` when it could not be written (then
        said with ``_not_saved``)."""
        try:
            path = self.save()
        except OSError as exc:
            self._not_saved(exc)
            return None
        return _absolute(path)

    def _save_and_explain(self) -> bool:
        """Save after a stop and print how to resume (with ``--opponents`` naming the
        computer players again when one is an external engine: a record never starts a
        program by itself); whether the record was written."""
        shown = self._save_shown()
        if shown is None:
            return False
        if self.state.is_over():
            self._say(f"Record saved to {shown}.")
            return True
        self._say(f"Game saved to {shown}")
        command = f"{self.program} play --resume {shlex.quote(shown)}"
        computers = [spec for spec in self.agent_specs if spec is not None]
        if any(is_external(spec) for spec in computers):
            command += f" --opponents {shlex.quote(','.join(computers))}"
        self._say(f"Resume it with: {command}")
        return True

    def _not_saved(self, exc: OSError) -> None:
        """Say that the last write of the record failed: the game is not saved."""
        self._say(
            f"The game was NOT saved: could not write the record to {self.save_path}: "
            f"{exc.strerror or exc}",
            "bold red",
        )


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
    "EXIT_NOT_SAVED",
    "EXIT_OK",
    "Advisor",
    "TerminalGame",
    "hint_table",
    "round_leftovers",
]
