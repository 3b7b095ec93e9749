"""``coloretto score``: the optimal score of a collection, for people at a physical table.

Example::

    coloretto score green=6 yellow=4 red=3 blue=2 joker=1 plus2=1
    coloretto score green=6 yellow=4 red=3 blue=2 joker=1 plus2=1 --table violet --json

Colour labels are free words (the rules' seven colours or any others, e.g. ``red``), at most
seven, each 0 to 9 cards; ``joker``, ``golden_joker`` (0 or 1) and ``plus2`` or ``+2`` (0 to
10) are reserved for those cards (jokers and golden joker together at most 3), and
``last_round`` is refused (the Last Round card never scores). Reserved names are understood
in any case and with ``-`` or a space for ``_`` (``Joker``, ``PLUS2``, ``golden-joker``); any
other label that looks like one (it contains ``joker``, ``plus``, ``+`` or ``golden``, e.g.
``jokers``, ``+ 2`` or ``goldenjoker``) is refused with a suggestion, so that a mistyped "+2" card
never scores as a colour. At least one card must be given. Jokers may go to any of seven
colours, also to one not named (shown as "another colour"). The score is the maximum over
every joker placement (docs/rules.md §6).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.rules import Rules
from ..engine.tally import (
    TOO_MANY,
    EmptyTallyError,
    TallyError,
    pairs_report,
    scoring_rules,
)
from ..text import plural
from ..tui.render import Fitted
from .console import StdoutConsole
from .main import UsageError

NO_EXTRA = "none"
"""What ``--extra`` takes for "no Extrakarten scoring card" (the default)."""

_STYLES = {
    "blue": "bold blue",
    "brown": "bold rgb(160,100,50)",
    "gray": "bold grey62",
    "grey": "bold grey62",
    "green": "bold green",
    "orange": "bold dark_orange",
    "pink": "bold hot_pink",
    "yellow": "bold yellow",
    "red": "bold red",
    "violet": "bold magenta",
    "purple": "bold magenta",
}


def register(subparsers: Any) -> None:
    """Add the ``score`` subcommand to ``subparsers`` (an argparse subparsers action)."""
    parser = subparsers.add_parser(
        "score",
        help="score a collection (optimal jokers), e.g. green=6 yellow=4 joker=1 plus2=1",
        description=(
            "Score one player's collection with the optimal joker placement (docs/rules.md §6). "
            "Give cards as LABEL=N: up to seven colour labels of your choice (0 to 9 cards "
            "each), plus joker=N, golden_joker=N (0 or 1) and plus2=N or +2=N (0 to 10); "
            "jokers and the golden joker together at most 3. Card names are understood in "
            "any case, with - for _ (Joker, PLUS2, golden-joker); a colour label that looks "
            "like one (containing joker, plus, + or golden) is refused. The Last Round card "
            "never scores: last_round is refused. Options go before or after the cards."
        ),
        epilog=(
            "examples: coloretto score green=6 yellow=4 red=3 blue=2 joker=1 +2=1 | "
            "coloretto score orange=4 yellow=3 green=2 blue=2 joker=1 --table violet --json"
        ),
    )
    parser.add_argument(
        "cards",
        nargs="*",
        metavar="LABEL=N",
        help="cards held (at least one): a colour label (any word, 0 to 9) or joker (0 to 3), "
        "golden_joker (0 or 1), plus2 or +2 (0 to 10), with a count",
    )
    parser.add_argument(
        "--table",
        default="brown",
        help="score table: brown (standard, default) or violet (the alternate side)",
    )
    parser.add_argument(
        "--extra",
        "--extra-card",
        dest="extra",
        default=None,
        metavar="CARD",
        help="an Extrakarten scoring card: single_three (a colour of exactly 1 card is worth "
        "3), triple_three (a colour of exactly 3 cards is worth 2) or triple_minus "
        "(negative colours count three times); --extra-card is the same option, named as "
        "in play",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def parse_cards(items: Sequence[str]) -> list[tuple[str, int]]:
    """Read ``LABEL=N`` words as ``(label, count)`` pairs, in the order given; what the
    labels and counts mean is checked by :func:`coloretto.engine.tally.check_tally`, the
    check of ``POST /api/score`` too.

    A count of more than seven digits is read as ``TOO_MANY`` (no kind of card has that
    many, and the message does not write it out).

    Raises:
        UsageError: a word without ``=``, an empty label, or a count that is not a
            non-negative integer in ASCII digits.
    """
    pairs: list[tuple[str, int]] = []
    for item in items:
        label, sep, value = item.partition("=")
        label = label.strip()
        value = value.strip()
        if not sep:
            raise UsageError(f"{_short(item)}: expected LABEL=N, e.g. green=3 or joker=1")
        if not label:
            raise UsageError(f"{_short(item)}: the label before '=' is empty")
        if not (value.isascii() and value.isdigit()):
            raise UsageError(f"{_short(item)}: the count {_short(value)} is not a non-negative integer")
        digits = value.lstrip("0") or "0"
        pairs.append((label, int(digits) if len(digits) <= 7 else TOO_MANY))
    return pairs


def _short(text: str, limit: int = 40) -> str:
    """``repr(text)`` cut to about ``limit`` characters (for huge counts in messages)."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _scoring_rules(table: str, extra: str | None) -> Rules:
    """Rules carrying the score table and Extrakarten scoring card, checked by
    :func:`coloretto.engine.tally.scoring_rules` (the check of ``POST /api/score`` too);
    the table and the card are understood in any case (``Violet``, ``Triple_Minus``);
    ``--extra none`` is no card.

    Raises:
        UsageError: ``table`` is not ``brown`` or ``violet`` in any case, or ``extra`` is not
            a scoring card; the message names the option and lists what it accepts.
    """
    try:
        return scoring_rules(table, extra, no_card=NO_EXTRA)
    except TallyError as exc:
        raise UsageError(f"--{exc.field}: {exc}") from exc


def score_tally(pairs: Sequence[tuple[str, int]], rules: Rules) -> dict[str, Any]:
    """Score the ``(label, count)`` pairs of :func:`parse_cards` under ``rules``: the JSON
    object of :func:`coloretto.engine.tally.tally_report` (also the answer of ``POST
    /api/score``).

    Raises:
        UsageError: the pairs are not one collection of the game (``TallyError``'s message;
            with no cards at all, also what to type).
    """
    try:
        return pairs_report(pairs, rules.table, rules.extra_card)
    except EmptyTallyError as exc:
        raise UsageError(
            f"{exc}; type each kind of card you hold as LABEL=N, e.g. "
            "coloretto score green=3 yellow=2 joker=1 +2=1"
        ) from exc
    except TallyError as exc:
        raise UsageError(str(exc)) from exc


def _label_text(label: str) -> Text:
    return Text(label, style=_STYLES.get(label.casefold(), "bold"))


@dataclass
class _Row:
    """One line of the score table: the sign of its points, what it counts, the cards
    typed, the jokers given to it, the cards counted (``None`` for "+2" cards), the points."""

    sign: str
    label: Text
    cards: int
    jokers: int
    counted: int | None
    points: int

    def counted_text(self) -> str:
        """``5``, or ``7 (as 6)`` beyond six cards (scored as six); empty for "+2" cards."""
        if self.counted is None:
            return ""
        return f"{self.counted} (as 6)" if self.counted > 6 else str(self.counted)

    def cards_text(self) -> str:
        """The narrow table's cards cell: ``4``, ``4 +1 joker``, ``6 +1 joker = 7 (as 6)``."""
        out = str(self.cards)
        if self.jokers:
            out += f" +{plural(self.jokers, 'joker')}"
        if self.counted is not None and self.counted > 6:
            out += f" = {self.counted_text()}" if self.jokers else " (as 6)"
        return out


def _score_rows(result: dict[str, Any]) -> list[_Row]:
    """The lines of the score table: each colour (positive ones first), the "+2" cards."""
    rows: list[_Row] = []
    for sign, part in (("+", result["positive"]), ("-", result["negative"])):
        for label, points in part.items():
            given = result["jokers"].get(label, 0)
            after = result["counts"][label]
            rows.append(_Row(sign, _label_text(label), after - given, given, after, points))
    if result["plus2_cards"]:
        cards = result["plus2_cards"]
        rows.append(_Row("+", Text('"+2" cards', style="bold"), cards, 0, None, result["plus2"]))
    return rows


def _signed(sign: str, text: str) -> Text:
    return Text(text, style="green" if sign == "+" else "red")


def _wide_table(rows: list[_Row], total: int) -> Table:
    """The score table with a column each for cards, jokers and the cards counted."""
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("")
    table.add_column("colour")
    table.add_column("cards", justify="right")
    table.add_column("jokers", justify="right")
    table.add_column("counted", justify="right")
    table.add_column("points", justify="right")
    for row in rows:
        table.add_row(
            _signed(row.sign, row.sign),
            row.label,
            str(row.cards),
            f"+{row.jokers}" if row.jokers else "",
            row.counted_text(),
            _signed(row.sign, f"{row.points:+d}"),
        )
    table.add_section()
    table.add_row("", Text("total", style="bold"), "", "", "", Text(str(total), style="bold"))
    return table


def _narrow_table(rows: list[_Row], total: int) -> Table:
    """The score table for a narrow console: cards, jokers and the count in one column,
    broken between words (a long colour label is folded, never cut)."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("colour", overflow="fold")
    table.add_column("cards", overflow="fold")
    table.add_column("points", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(
            _signed(row.sign, row.sign),
            row.label,
            row.cards_text(),
            _signed(row.sign, f"{row.points:+d}"),
        )
    table.add_section()
    table.add_row("", Text("total", style="bold"), "", Text(str(total), style="bold"))
    return table


def render(result: dict[str, Any], console: Console) -> None:
    """Print the readable breakdown of :func:`score_tally`'s ``result`` on ``console``: a
    table with a column each for cards, jokers and the cards counted, or a narrower one on
    a console too narrow for it (``coloretto.tui.render.Fitted``), then notes."""
    title = f"Coloretto score, {result['table']} table"
    if result["extra"]:
        title += f", Extrakarten card {result['extra']}"
    console.print(Text(title, style="bold"))
    rows = _score_rows(result)
    console.print(Fitted(_wide_table(rows, result["total"]), _narrow_table(rows, result["total"])))

    notes: list[str] = []
    n_pos, n_neg = len(result["positive"]), len(result["negative"])
    if n_neg:
        factor = " (three times, triple_minus)" if result["extra"] == "triple_minus" else ""
        others = "the other colour counts" if n_neg == 1 else f"the other {n_neg} count"
        notes.append(f"The {n_pos} colours worth most count positive; {others} negative{factor}.")
    elif n_pos:
        notes.append("Three colours or fewer: every colour counts positive.")
    else:
        notes.append("No colour cards.")
    if result["jokers"]:
        where = ", ".join(
            f"{plural(n, 'joker')} to {label}" for label, n in result["jokers"].items()
        )
        notes.append(
            f"Jokers placed for the highest total ({where}), best of "
            f"{plural(result['placements'], 'placement')} tried."
        )
    ignored = [label for label, c in result["counts"].items() if c == 0]
    if ignored:
        notes.append(f"No cards: {', '.join(ignored)}.")
    for note in notes:
        console.print(Text(note))


def run(args: argparse.Namespace) -> int:
    """Score the collection on the command line; print the breakdown or JSON. Returns 0.

    Raises:
        UsageError: bad cards, ``--table`` or ``--extra`` (the caller exits with status 2).
    """
    rules = _scoring_rules(args.table, args.extra)
    result = score_tally(parse_cards(args.cards), rules)
    if args.json:
        print(json.dumps(result))
    else:
        render(result, StdoutConsole(file=sys.stdout, highlight=False))
    return 0
