"""A person at the keyboard as an ``Agent`` (docs/terminal.md, "Keys").

The terminal game plays every seat through the driver's game loop
(``coloretto.arena.driver.play_out``); a person's seat is played by a ``Keyboard``: its
``act`` shows the board of the seat's observation and reads keys until one names a legal
action. The driver plays a seat's only legal action without asking (``arena.driver.ask``),
so ``act`` is asked only when there is a choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from ..agents.advisor import Advice, advise
from ..agents.base import Agent, Budget
from ..arena.driver import raise_if_interrupted
from ..engine.actions import Action, short_repr
from ..engine.cards import COLORS, LETTERS
from ..engine.observation import Observation
from ..engine.state import GameState
from ..text import plural
from . import render

Advisor = Callable[[Observation, list[Action], Budget], Sequence[Advice]]
"""``advise(observation, legal, budget)``: one ``Advice`` per legal action, best first."""


class Quit(Exception):
    """The person typed ``q``: the game stops and is saved (``TerminalGame.run``)."""


class Keyboard(Agent):
    """The player of a person's seat: ``act`` shows the seat's board and its choices, and
    reads lines (``read_line``) until one is the key of a legal action (a row number, ``d``,
    a colour's letter or name); ``h`` shows the advisor's hints (with ``hints``), ``?`` the
    help, an empty line the keys, and anything else is refused with the keys.

    Args:
        console: where the board, choices and messages are printed.
        names: the seats' names.
        read_line: reads one line given a prompt; raises ``EOFError`` at the end of input
            and ``KeyboardInterrupt`` on Ctrl-C (both leave ``act`` unchanged).
        hints: the key ``h`` is offered; hint_budget: the advisor's thinking budget.
        advisor: gives the hints; program: the command shown in the help's resume line.

    ``act`` raises ``Quit`` when the person types ``q``.
    """

    name = "keyboard"

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        read_line: Callable[[str], str],
        *,
        hints: bool = False,
        hint_budget: Budget | None = None,
        advisor: Advisor = advise,
        program: str = "coloretto",
    ) -> None:
        super().__init__()
        self.console = console
        self.names = list(names)
        self.read_line = read_line
        self.hints = hints
        self.hint_budget = hint_budget or Budget(seconds=1.0)
        self.advisor = advisor
        self.program = program

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The action whose key the person types (docs/terminal.md, "Keys").

        Raises:
            Quit: the person typed ``q``.
            EOFError, KeyboardInterrupt: from ``read_line``.
        """
        view, seat = observation.state, observation.seat
        self.console.print()
        self.console.print(render.board(view, self.names, viewer=seat))
        choices = self._choices(view, legal)
        if view.decision == "place":
            title = Text.assemble("Choose the row for ", render.card_named(view.drawn), ":")
        elif view.decision == "choose_start":
            title = Text(f"{self.names[seat]}, choose your starting colour:")
        else:
            title = Text(f"{self.names[seat]}, your turn. Choose:")
        self.console.print(title, style="bold")
        for key, _, text in choices:
            self.console.print(Text.assemble("  ", (key, "bold cyan"), "  ", text))
        self.console.print(Text(f"  ({self._extra_keys()})", style="dim"))
        keys = [k for k, _, _ in choices]
        by_key = {k: a for k, a, _ in choices}
        if view.decision == "choose_start":
            by_key.update({COLORS[a.arg]: a for a in legal})
        prompt = f"Your choice [{' '.join(keys)}]: "
        while True:
            answer = self.read_line(prompt).strip().lower()
            if answer in by_key:
                return by_key[answer]
            if answer == "q":
                raise Quit
            if answer in ("?", "help"):
                self._help(view)
            elif answer == "h":
                self._hint(observation, legal, choices)
            elif answer == "":
                self.console.print(Text(f"Type one of: {' '.join(keys)}"), soft_wrap=True)
            else:
                self.console.print(
                    Text(
                        f"{short_repr(answer)} is not a choice here; type one of: {' '.join(keys)} (or ? for help)",
                        style="red",
                    )
                )

    def _choices(self, view: GameState, legal: Sequence[Action]) -> list[tuple[str, Action, Text]]:
        """(key, action, description) for each legal action."""
        out: list[tuple[str, Action, Text]] = []
        for a in legal:
            if a.kind == "draw":
                out.append(("d", a, Text(f"draw a card ({view.cards_left()} left in the draw pile)")))
            elif a.kind == "take":
                text = Text.assemble(f"take row {a.arg + 1}: ", render.cards(view.rows[a.arg]))
                out.append((str(a.arg + 1), a, text))
            elif a.kind == "place":
                text = Text.assemble(f"row {a.arg + 1}: ", render.row_text(view, a.arg, self.names))
                out.append((str(a.arg + 1), a, text))
            else:
                out.append((LETTERS[a.arg].lower(), a, Text.assemble(render.card_named(a.arg))))
        return out

    def _extra_keys(self) -> str:
        """The keys offered besides the choices, as shown under them."""
        keys = ["h hints"] if self.hints else []
        return ", ".join([*keys, "q save and quit", "? help"])

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
            self.console.print(Text("Hints are off; start the game with --hints to get them."), soft_wrap=True)
            return
        self.console.print(Text("The advisor is thinking...", style="dim"), soft_wrap=True)
        try:
            advice = list(self.advisor(obs, list(legal), self.hint_budget))
        except Exception as exc:  # noqa: BLE001 (the advisor is another component: report it, keep playing)
            raise_if_interrupted(exc)  # Ctrl-C while it thinks saves and quits, as anywhere
            self.console.print(Text(f"The advisor failed: {exc}", style="red"))
            return
        self.console.print(hint_table(advice, {a: k for k, a, _ in choices}))


def hint_table(advice: Sequence[Advice], keys: dict[Action, str]) -> RenderableType:
    """The advisor's estimates as a table, best first: the key of each action (``keys``),
    the action in words (rows counted from 1), the win chance in percent and the expected
    score margin over the best other player, each with its 95% interval, and the samples
    behind the estimate; the caption names the search (``Advice.evaluator``).

    On a console too narrow for those five columns (``render.Fitted``) each action is a
    block of three lines instead: its key and words with the samples, then the win chance,
    then the margin."""
    evaluators = sorted({a.evaluator for a in advice})
    frame: dict[str, Any] = {
        "title": "Hints (the advisor's estimate)",
        "title_justify": "left",
        "caption": f"95% intervals; search: {', '.join(evaluators)}",
        "caption_justify": "left",
    }
    table = Table(**frame)
    table.add_column("key")
    table.add_column("action")
    table.add_column("win chance", justify="right")
    table.add_column("margin", justify="right")
    table.add_column("samples", justify="right")
    blocks = Table(
        box=None, show_header=False, pad_edge=False, padding=(0, 1), expand=True, **frame
    )
    blocks.add_column(no_wrap=True, style="bold")
    blocks.add_column(overflow="fold", ratio=1)
    for a in advice:
        key, words = keys.get(a.action, "?"), render.describe(a.action)
        table.add_row(key, words, _win_chance(a), _margin(a), str(a.samples))
        blocks.add_row(
            key,
            Text(
                f"{words} ({plural(a.samples, 'sample')})\n"
                f"win chance {_win_chance(a)}\nmargin {_margin(a)}"
            ),
        )
    return render.Fitted(table, blocks)


def _win_chance(a: Advice) -> str:
    """``52% [50, 55]``: the win chance in percent with its 95% interval."""
    return f"{100 * a.win_prob:.0f}% [{100 * a.win_low:.0f}, {100 * a.win_high:.0f}]"


def _margin(a: Advice) -> str:
    """``+1.2 [+0.7, +1.7]``: the expected margin with its 95% interval (when known)."""
    interval = a.margin_interval
    margin = f"{a.margin:+.1f}"
    if interval is not None:
        margin += f" [{interval[0]:+.1f}, {interval[1]:+.1f}]"
    return margin


__all__ = ["Advisor", "Keyboard", "Quit", "hint_table"]
