"""Rendering of Coloretto positions for the terminal with ``rich``.

Every card is drawn as its letter in brackets (``[E]`` green, ``[J]`` joker, ``[+]`` "+2";
``engine.cards.LETTERS``) and, where the terminal supports it, in its colour, so a
colour-blind player or a terminal without colour (``NO_COLOR``, output not a terminal) loses
nothing. The functions take a ``GameState`` that the caller has already reduced to what the
viewer may know (``observe(state, seat).state``), build ``rich`` renderables and never print.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich import box
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..engine.actions import Action
from ..engine.cards import CARD_NAMES, COLORS, GOLDEN_JOKER, JOKER, LETTERS, NUM_COLORS, PLUS2
from ..engine.rules import Rules
from ..engine.scoring import PLUS2_POINTS, ScoreBreakdown
from ..engine.state import NO_CARD, UNTAKEN, GameState

CARD_STYLES: dict[int, str] = {
    0: "bold white on blue",
    1: "bold white on rgb(125,75,35)",
    2: "bold black on grey70",
    3: "bold black on green3",
    4: "bold black on dark_orange",
    5: "bold black on hot_pink",
    6: "bold black on yellow1",
    JOKER: "bold black on white",
    GOLDEN_JOKER: "bold black on gold1",
    PLUS2: "bold white on grey30",
    10: "bold white on red",
}
"""Style of each card code (colour shown as background; the letter carries the meaning)."""

CARD_LABELS: dict[int, str] = {
    **{c: COLORS[c] for c in range(NUM_COLORS)},
    JOKER: "joker",
    GOLDEN_JOKER: "golden joker",
    PLUS2: '"+2"',
    10: "Last Round card",
}
"""Readable name of each card code."""

EMPTY_SLOT_STYLE = "dim"

WIDE_ENOUGH = 80
"""A console at least this wide always gets the full layout of a ``Fitted`` renderable (the
layout of a standard terminal, even where a table there wraps a long cell)."""
_UNBOUNDED = 10_000
"""A width no table reaches: measuring at it gives a table's natural width."""


class Fitted:
    """``wide`` (a table with every column) where it fits, else ``narrow`` (a compact
    layout of the same facts): ``wide`` is drawn on a console of ``WIDE_ENOUGH`` columns or
    more and wherever its natural width fits; on a narrower console, ``narrow``, so that no
    column is squeezed until names, words or numbers are cut.

    The choice is made when it is drawn, at the width ``rich`` gives it."""

    def __init__(self, wide: RenderableType, narrow: RenderableType) -> None:
        self.wide = wide
        self.narrow = narrow

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        """The renderable drawn at ``options.max_width``: ``wide`` or ``narrow``."""
        width = options.max_width
        if width >= WIDE_ENOUGH:
            return self.wide
        natural = Measurement.get(console, options.update(max_width=_UNBOUNDED), self.wide)
        return self.wide if natural.maximum <= width else self.narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Draw the chosen layout (``choose``)."""
        yield self.choose(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """The width of the chosen layout (``choose``)."""
        return Measurement.get(console, options, self.choose(console, options))


def card(code: int) -> Text:
    """``[L]`` for card ``code`` (0..10), styled in its colour."""
    return Text(f"[{LETTERS[code]}]", style=CARD_STYLES.get(code, ""))


def card_named(code: int) -> Text:
    """``[E] green``: the card and its name (for log lines and the drawn card)."""
    return Text.assemble(card(code), " ", CARD_LABELS[code])


def cards(codes: Iterable[int]) -> Text:
    """The cards side by side, e.g. ``[E][E][+]``."""
    out = Text()
    for c in codes:
        out.append_text(card(c))
    return out


class Flow:
    """``items`` left to right after ``lead``, two spaces apart, a new line starting before
    an item that would pass the width: an item (``[Y] yellow``) is never split, as wrapping
    one ``Text`` would split it at its space. An item wider than the console is folded."""

    def __init__(self, lead: Text, items: Sequence[Text]) -> None:
        self.lead = lead
        self.items = tuple(items)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The lines at ``options.max_width``, each a ``Text``."""
        width = options.max_width
        line, empty = self.lead.copy(), True
        for item in self.items:
            gap = 0 if empty else 2
            if not empty and line.cell_len + gap + item.cell_len > width:
                yield line
                line, gap = Text(), 0
            line.append(" " * gap)
            line.append_text(item)
            empty = False
        yield line


def legend(state: GameState) -> RenderableType:
    """Two lines (more on a narrow console): every letter used in this game (colours in play
    and special cards), each with its name and never split from it (``Flow``), then the
    score table in use (``score_table_text``)."""
    codes = list(state.in_play) + [JOKER]
    if state.rules.golden_jokers:
        codes.append(GOLDEN_JOKER)
    codes.append(PLUS2)
    entries = [card_named(c) for c in codes]
    return Group(Flow(Text("Cards: ", style="dim"), entries), score_table_text(state.rules))


def score_table_text(rules: Rules) -> Text:
    """The score table in use (docs/rules.md §6), with the changes of the scoring extra
    cards, e.g. ``Score table (violet), points per colour by number of cards:  1:1  2:4  3:8
    4:7  5:6  6+:5; "+2" card: 2``.
    ``triple_minus`` adds that negative colours count three times."""
    values = rules.score_table
    cap = len(values) - 1
    name: str = rules.table
    if rules.extra_card in ("single_three", "triple_three", "triple_minus"):
        name += f", extra card {rules.extra_card}"
    pairs = "  ".join(
        f"{n}{'+' if n == cap else ''}:{values[n]}" for n in range(1, cap + 1)
    )
    line = f"Score table ({name}), points per colour by number of cards:  {pairs}"
    line += f'; "+2" card: {PLUS2_POINTS}'
    if rules.negative_factor != 1:
        line += f"; negative colours count {rules.negative_factor} times"
    return Text(line, style="dim")


def subject_verb(name: str, third_person: str, plain: str) -> str:
    """``name`` and a present-tense verb that agrees with it: ``Ann starts``, but
    ``You start`` for a seat named "you" (any case)."""
    return f"{name} {plain if name.strip().lower() == 'you' else third_person}"


def row_text(state: GameState, r: int, names: Sequence[str]) -> Text:
    """Row ``r``: its cards, free places as ``[ ]`` and the capacity, e.g. ``[G][G][ ] (3)``;
    a taken row says who took it."""
    taker = state.row_taker[r]
    if taker != UNTAKEN:
        return Text(f"taken by {names[taker]}", style="dim italic")
    cap = state.caps[r]
    row = state.rows[r]
    out = cards(row)
    for _ in range(cap - len(row)):
        out.append("[ ]", style=EMPTY_SLOT_STYLE)
    out.append(f" ({cap})")
    if len(row) >= cap:
        out.append(" full", style="dim")
    return out


def collection_text(coll: Sequence[int], in_play: Sequence[int]) -> Text:
    """A collection grouped by colour, e.g. ``[E][E][E] [B] [J] [+][+]`` (colours in play
    order, then jokers, golden jokers, "+2" cards); ``-`` when empty."""
    out = Text()
    for c in list(in_play) + [JOKER, GOLDEN_JOKER, PLUS2]:
        if coll[c]:
            if out:
                out.append(" ")
            out.append_text(cards([c] * coll[c]))
    return out if out else Text("-", style="dim")


def header(state: GameState) -> Text:
    """Title line: game of match, round, draw pile size."""
    rules = state.rules
    parts = [f"Coloretto ({rules.edition} edition, {rules.table} score table"]
    if rules.extra_card:
        parts[0] += f", extra card {rules.extra_card}"
    parts[0] += ")"
    if rules.match_games > 1:
        parts.append(f"game {state.game + 1} of {rules.match_games}")
    if state.decision == "choose_start":
        parts.append("choosing starting cards")
        return Text(" | ".join(parts), style="bold")
    if not state.is_over():
        parts.append(f"round {state.round}")
    parts.append(f"draw pile: {state.cards_left()} cards")
    return Text(" | ".join(parts), style="bold")


def last_round_warning() -> Text:
    """The Last Round warning (docs/rules.md §5.1)."""
    return Text(
        "LAST ROUND: the Last Round card has appeared; the game ends with this round.",
        style="bold red",
    )


def board(
    state: GameState,
    names: Sequence[str],
    *,
    viewer: int | None = None,
    show_legend: bool = True,
    viewer_suffix: str = " (you)",
) -> RenderableType:
    """The whole table as the seat ``viewer`` sees it: header, Last Round warning, rows with
    capacities, every collection grouped by colour with its live optimal score, who is to move
    and who is out of the round, and (for matches) the match totals.

    ``state`` must be what the viewer may know (an observation's state); ``names`` has one
    name per seat; ``viewer_suffix`` marks the viewer's name.
    """
    parts: list[RenderableType] = [header(state)]
    if show_legend:
        parts.append(legend(state))
    if state.last_round and not state.is_over():
        parts.append(last_round_warning())
    if state.decision != "choose_start":
        rows = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
        rows.add_column("row", justify="right", style="bold")
        rows.add_column("cards", overflow="fold")
        for r in range(state.nrows):
            rows.add_row(f"row {r + 1}", row_text(state, r, names))
        parts.append(Text("Rows", style="bold underline"))
        parts.append(rows)
    if state.drawn != NO_CARD:
        parts.append(
            Text.assemble(
                f"{names[state.to_move]} drew ", card_named(state.drawn), " and must place it."
            )
        )
    scores = state.scores()
    seats = [_seat_facts(state, names, s, scores[s], viewer, viewer_suffix) for s in range(state.n)]
    parts.append(Fitted(_players_table(state, seats), _players_list(seats)))
    return Group(*parts)


@dataclass
class _Seat:
    """What the board shows of one seat: its name as shown, whether it is to move or the
    viewer, its collection, score, match total (``None`` outside a match) and status."""

    name: str
    to_move: bool
    viewer: bool
    collection: Text
    score: int
    match: int | None
    status: str


def _seat_facts(
    state: GameState,
    names: Sequence[str],
    s: int,
    score: int,
    viewer: int | None,
    viewer_suffix: str,
) -> _Seat:
    """The board's facts of seat ``s``, whose live score is ``score``."""
    name = names[s] + (viewer_suffix if viewer == s and names[s].lower() != "you" else "")
    status = ""
    if state.is_over():
        status = ""
    elif state.to_move == s:
        status = "to move"
    elif state.decision not in ("choose_start",) and state.out[s]:
        took = [r for r in range(state.nrows) if state.row_taker[r] == s]
        status = f"out (took row {took[0] + 1})" if took else "out"
    match = None
    if state.rules.match_games > 1:
        match = state.match_totals[s] + (0 if state.is_over() else score)
    return _Seat(
        name, state.to_move == s, viewer == s, collection_text(state.coll[s], state.in_play),
        score, match, status,
    )


def _players_table(state: GameState, seats: Sequence[_Seat]) -> Table:
    """The players as a table: a column each for name, collection, score, match total and
    status."""
    players = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    players.add_column("", width=1)
    players.add_column("player", overflow="fold")
    players.add_column("collection")
    players.add_column("score", justify="right")
    match = state.rules.match_games > 1
    if match:
        players.add_column("match", justify="right")
    players.add_column("status")
    for seat in seats:
        cells: list[RenderableType] = [
            ">" if seat.to_move else "",
            Text(seat.name, style="bold" if seat.viewer else ""),
            seat.collection,
            str(seat.score),
        ]
        if match:
            cells.append(str(seat.match))
        cells.append(seat.status)
        players.add_row(*cells)
    return players


def _players_list(seats: Sequence[_Seat]) -> Group:
    """The players for a narrow console: per seat its full name, a line with its score,
    match total and status, and its collection (each line broken between words if need be)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1, no_wrap=True)
    grid.add_column(overflow="fold")
    for seat in seats:
        block = Text.assemble((seat.name, "bold" if seat.viewer else ""))
        facts = [f"score {seat.score}"]
        if seat.match is not None:
            facts.append(f"match {seat.match}")
        if seat.status:
            facts.append(seat.status)
        block.append("\n  " + ", ".join(facts) + "\n  ")
        block.append_text(seat.collection)
        grid.add_row(">" if seat.to_move else "", block)
    return Group(Text("Players", style="bold underline"), grid)


def describe(action: Action) -> str:
    """A person's words for ``action`` with rows numbered from 1 as on screen."""
    if action.kind == "draw":
        return "draw a card"
    if action.kind == "place":
        return f"place it in row {action.arg + 1}"
    if action.kind == "take":
        return f"take row {action.arg + 1}"
    return f"choose {COLORS[action.arg]} as starting card"


def _colour_items(bd: ScoreBreakdown, part: dict[int, int]) -> list[Text]:
    """``[E]x6 +21`` for each colour of ``part`` (colour -> points)."""
    return [Text.assemble(card(c), f"x{bd.counts[c]} {pts:+d}") for c, pts in part.items()]


def _colour_pieces(bd: ScoreBreakdown, part: dict[int, int]) -> Text:
    """The colours of ``part`` (``_colour_items``), one to a line; ``-`` when none."""
    out = Text("\n").join(_colour_items(bd, part))
    return out if out else Text("-", style="dim")


def breakdown_table(
    breakdowns: Sequence[ScoreBreakdown],
    names: Sequence[str],
    *,
    title: str | None = None,
    ranks: Sequence[int] | None = None,
) -> RenderableType:
    """Each player's full score breakdown (docs/rules.md §6): positive colours, negative colours
    (``[E]x4 +10``: the colour, its count with the jokers given to it, its points), where
    the jokers went, "+2" points and the total.

    On a console too narrow for its seven columns (``Fitted``) each player is a block of
    lines instead (``_breakdown_block``): the name, then the same facts one to a line."""
    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False)
    table.add_column("player", overflow="fold")
    table.add_column("positive colours")
    table.add_column("negative colours")
    table.add_column("jokers to")
    table.add_column('"+2"', justify="right")
    table.add_column("total", justify="right", style="bold")
    if ranks is not None:
        table.add_column("rank", justify="right")
    blocks = _narrow_frame(title)
    for s, bd in enumerate(breakdowns):
        jokers = Text("\n").join(_joker_items(bd))
        row: list[RenderableType] = [
            Text(names[s]),
            _colour_pieces(bd, bd.positive),
            _colour_pieces(bd, bd.negative),
            jokers if jokers else Text("-", style="dim"),
            _plus2(bd),
            str(bd.total),
        ]
        if ranks is not None:
            row.append(str(ranks[s]))
        table.add_row(*row)
        blocks.add_row(_breakdown_block(bd, names[s], None if ranks is None else ranks[s]))
    return Fitted(table, blocks)


def _narrow_frame(title: str | None) -> Table:
    """A one-column table as wide as the console, with ``title``: the frame of a narrow
    layout whose rows are blocks of text."""
    frame = Table(
        box=None,
        show_header=False,
        title=title,
        title_justify="left",
        pad_edge=False,
        padding=(0, 1),
        expand=True,
    )
    frame.add_column(overflow="fold", ratio=1)
    return frame


def _label_grid() -> Table:
    """Two columns without borders: a dim label and its value (broken between words)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column(overflow="fold")
    return grid


def _joker_items(bd: ScoreBreakdown) -> list[Text]:
    """``1 -> [Y]``: how many jokers went to each colour."""
    return [Text.assemble(f"{k} -> ", card(c)) for c, k in bd.jokers.items()]


def _plus2(bd: ScoreBreakdown) -> str:
    return f"{bd.plus2:+d}" if bd.plus2 else "0"


def _breakdown_block(bd: ScoreBreakdown, name: str, rank: int | None) -> Group:
    """One player's breakdown as lines: the name, then under it, each labelled, the total
    (with the rank), the positive and negative colours, the jokers and the "+2" points; a
    colour (``[E]x6 +21``) is never broken across lines (``Columns``)."""
    total = Text(str(bd.total), style="bold")
    if rank is not None:
        total.append(f", rank {rank}")
    grid = _label_grid()
    grid.add_row("total", total)
    for label, items in (
        ("positive", _colour_items(bd, bd.positive)),
        ("negative", _colour_items(bd, bd.negative)),
        ("jokers to", _joker_items(bd)),
        ('"+2"', [Text(_plus2(bd))]),
    ):
        grid.add_row(label, Columns(items, padding=(0, 2)) if items else Text("-", style="dim"))
    return Group(Text(name, style="bold"), Padding(grid, (0, 0, 0, 2)))


def match_table(
    game_scores: Sequence[Sequence[int]], totals: Sequence[int], names: Sequence[str]
) -> RenderableType:
    """Scores of each finished game of a match and the match totals; on a console too
    narrow for a column per game (``Fitted``), per player its name, then its scores game
    after game and its total."""
    table = Table(box=box.SIMPLE_HEAD, title="Match", title_justify="left", pad_edge=False)
    table.add_column("player", overflow="fold")
    for g in range(len(game_scores)):
        table.add_column(f"game {g + 1}", justify="right")
    table.add_column("total", justify="right", style="bold")
    blocks = _narrow_frame("Match")
    for s, name in enumerate(names):
        scores = [str(gs[s]) for gs in game_scores]
        table.add_row(Text(name), *scores, str(totals[s]))
        grid = _label_grid()
        grid.add_row("games", ", ".join(scores))
        grid.add_row("total", Text(str(totals[s]), style="bold"))
        blocks.add_row(Group(Text(name, style="bold"), Padding(grid, (0, 0, 0, 2))))
    return Fitted(table, blocks)


def seat_name(names: Sequence[str], seat: int) -> str:
    """The name of ``seat`` (0-based) for a person: with its seat number, counted from 1,
    when another seat has the same name, as two computer seats of a web table do
    (``seat 3 (computer:medium)``).

    >>> seat_name(["Ann", "computer:random", "computer:random"], 2), seat_name(["Ann", "Bo"], 0)
    ('seat 3 (computer:random)', 'Ann')
    """
    name = names[seat]
    return f"seat {seat + 1} ({name})" if list(names).count(name) > 1 else name


def winners_text(winners: Sequence[int], totals: Sequence[int], names: Sequence[str]) -> Text:
    """``Winner: Ann with 41 points`` or, for a tie, ``Shared win: Ann, Bob with 30 points``;
    a name that two seats share comes with its seat (``seat_name``)."""
    who = ", ".join(seat_name(names, s) for s in winners)
    best = totals[winners[0]]
    if len(winners) == 1:
        return Text(f"Winner: {who} with {best} points", style="bold green")
    return Text(f"Shared win: {who} with {best} points each", style="bold green")


def card_name_text(name: str) -> Text:
    """``card_named`` for a record card name (``"green"``, ``"plus2"``...)."""
    return card_named(CARD_NAMES.index(name))
