"""Game records, format ``coloretto-record/1`` (docs/record-format.md).

A record is JSON: the rules (docs/rules.md §7 keys), seat names, the setup (one object, or a
list of one per game for a match), the actions in order, and optionally the result.
``Game`` plays a state while keeping its record (and the ``Step`` of every action);
``replay`` checks a record action by action against the rules.

Records are read and written here and nowhere else: ``load_record`` / ``read_record`` parse a
file or text with precise errors (``load_record_json`` / ``parse_record`` without the check
that it claims to be a record), ``save_record`` writes one atomically in the one layout of
``dumps_record``, ``save_records`` several as JSON lines, as atomically. This is the engine's
only I/O.
"""

from __future__ import annotations

import codecs
import errno
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from . import actions as A
from .actions import Action
from .cards import CARD_NAMES, COLORS, LAST_ROUND, card_code, color_code
from .domain import SHUFFLERS, Shuffler
from .errors import (
    ColorettoError,
    ConfigurationError,
    IllegalActionError,
    InvalidRecordError,
    UnreadableRecordError,
)
from .jsontypes import json_type, unique_object
from .rules import Rules
from .setup import Setup
from .state import GameState
from .step import Step

RECORD_FORMAT = "coloretto-record/1"


# ----- setup <-> JSON ----------------------------------------------------------------------
def setup_to_json(setup: Setup) -> dict[str, Any]:
    """JSON form of a setup (draw pile top first, cards by name)."""
    out: dict[str, Any] = {
        "removed_colors": [COLORS[c] for c in setup.removed_colors],
        "starting_cards": None
        if setup.starting_cards is None
        else [[COLORS[c] for c in cards] for cards in setup.starting_cards],
        "first_player": setup.first_player,
        "draw_pile": None if setup.draw_pile is None else [CARD_NAMES[c] for c in setup.draw_pile],
    }
    if setup.shuffle_seed is not None:
        out["shuffle_seed"] = setup.shuffle_seed
        out["shuffler"] = setup.shuffler
    return out


def setup_from_json(data: Any, rules: Rules) -> Setup:
    """Parse a setup object.

    A ``shuffle_seed`` without ``shuffler`` is read with the ``"python-random"`` shuffler
    (records written before the shuffler was named); writers always name it.

    Raises:
        InvalidRecordError: a missing or mistyped field, an unknown card or colour name, an
            unknown shuffler, or both ``draw_pile`` and ``shuffle_seed``
            (docs/record-format.md: the shuffle seed stands in for a pile that cannot be
            known in advance).
    """
    if not isinstance(data, dict):
        raise InvalidRecordError(f"setup must be an object, not {json_type(data)}")
    try:
        removed = tuple(color_code(c) for c in _list(data.get("removed_colors", []), "removed_colors"))
        sc = data.get("starting_cards")
        starting = None
        if sc is not None:
            starting = tuple(
                tuple(color_code(c) for c in _list(cards, "starting_cards[]"))
                for cards in _list(sc, "starting_cards")
            )
        first = data.get("first_player", 0)
        if type(first) is not int:
            raise InvalidRecordError(f"setup.first_player must be an integer, got {first!r}")
        pile_json = data.get("draw_pile")
        pile = None if pile_json is None else tuple(card_code(c) for c in _list(pile_json, "draw_pile"))
        seed = data.get("shuffle_seed")
        if seed is not None and type(seed) is not int:
            raise InvalidRecordError(f"setup.shuffle_seed must be an integer, got {seed!r}")
        shuffler = data.get("shuffler", "python-random")
        if shuffler not in SHUFFLERS:
            raise InvalidRecordError(
                f"setup.shuffler {A.short_repr(shuffler)} is unknown; expected one of {', '.join(SHUFFLERS)}"
            )
    except ValueError as exc:
        if isinstance(exc, InvalidRecordError):
            raise
        raise InvalidRecordError(f"setup: {exc}") from None
    if pile is None and seed is None:
        raise InvalidRecordError("setup.draw_pile is missing")
    if pile is not None and seed is not None:
        raise InvalidRecordError(
            "setup has both draw_pile and shuffle_seed: give draw_pile, or shuffle_seed with "
            "draw_pile null (starting_cards: choose)"
        )
    if rules.starting_cards == "random" and starting is None:
        raise InvalidRecordError("setup.starting_cards is missing (rules say starting_cards: random)")
    shuffle: Shuffler = shuffler if seed is not None else "coloretto-rng/1"
    return Setup(removed, starting, first, pile, seed, shuffle)


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidRecordError(f"setup.{name} must be a list, got {value!r}")
    return value


# ----- seat names ------------------------------------------------------------------------------
NAME_MAX = 24
"""The longest name a person gives their seat, in characters (``coloretto play --name``, as
at the web table)."""


UNPRINTABLE: Final = (
    "cannot hold control or invisible characters (such as a line break, an escape or a "
    "zero-width joiner)"
)
"""What is said of a name or label that ``str.isprintable`` refuses: control characters and
the invisible format characters (zero-width, bidirectional marks) that could fake another
name or line."""


NOT_UTF8: Final = "cannot hold bytes that are not UTF-8 text"
"""What is said of a name or label from the command line with bytes that are not UTF-8:
Python keeps each such byte as a lone surrogate (``\\udcff`` for the byte 0xff)."""


def unprintable(text: str) -> str:
    """Why ``str.isprintable`` refuses ``text``: ``NOT_UTF8`` when it holds a byte that was
    not UTF-8 (a lone surrogate, as the command line keeps such bytes), else ``UNPRINTABLE``.

    >>> unprintable("ab\\udcff") == NOT_UTF8, unprintable("a\\nb") == UNPRINTABLE
    (True, True)
    """
    return NOT_UTF8 if any("\udc80" <= ch <= "\udcff" for ch in text) else UNPRINTABLE


def name_problem(name: str, *, longest: int | None = NAME_MAX) -> str | None:
    """What is wrong with the seat name ``name``, or ``None``: a name is shown on one line of
    a terminal, so it cannot hold control characters (``str.isprintable``: line breaks,
    escapes, other non-printing characters), and a person's name fits the score table
    (at most ``longest`` characters once stripped; ``None``: no limit). The same check serves
    ``coloretto play --name`` and every record read (``load_header``).

    >>> name_problem("Ann"), name_problem("A" * 25)
    (None, 'has 25 characters; at most 24')
    >>> name_problem("B\\nFake line") == UNPRINTABLE
    True
    """
    if not name.isprintable():
        return unprintable(name)
    if longest is not None and len(name.strip()) > longest:
        return f"has {len(name.strip())} characters; at most {longest}"
    return None


# ----- a game with its record -----------------------------------------------------------------
@dataclass
class Game:
    """A state plus the record of how it was reached.

    Attributes:
        state: the current ``GameState``.
        seats: seat names (one per seat).
        entries: the record's action entries so far (JSON objects, docs/record-format.md).
            A draw is recorded as soon as it is made (``{"seat", "action": "draw", "card"}``)
            and completed with its ``"row"`` by the placement.
        initial: the state at the start (for replays and rewinds).
        steps: the ``Step`` of every action played through ``play``, in order (a draw and
            its placement are two steps, one entry).

    >>> from coloretto.engine import Rules, new_game
    >>> game = Game(new_game(Rules(players=2), seed=9), ["Ann", "Bob"])
    >>> step = game.play(0)                      # draw: recorded at once, without a row
    >>> sorted(game.entries[-1])
    ['action', 'card', 'seat']
    >>> _ = game.play(game.state.legal_codes()[0])  # place: the entry gets its row
    >>> game.entries[-1]["row"], len(game.steps)
    (0, 2)
    >>> load_game(game.to_record()).state == game.state
    True
    """

    state: GameState
    seats: list[str]
    entries: list[dict[str, Any]] = field(default_factory=list)
    initial: GameState | None = None
    steps: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.initial is None:
            self.initial = self.state.copy()
        if len(self.seats) != self.state.n:
            raise ConfigurationError(f"{len(self.seats)} seat names for {self.state.n} seats")

    def play(self, action: Action | int) -> Step:
        """Apply ``action`` for the seat to move, record it, and return its ``Step``.

        Raises:
            IllegalActionError: as ``GameState.apply`` (nothing is recorded).
        """
        step = self.state.apply(action)
        self.steps.append(step)
        if _completes_draw(self.entries, step):
            _place(self.entries, step)
        else:
            self.entries.append(entry_of(step))
        return step

    def fork(self) -> Game:
        """An independent ``Game`` that continues this one: a copy of the state, the same
        seats, start and record so far (the lists copied; ``play`` appends to them or replaces
        their last item, never changes an item in place). Playing on the fork leaves this
        game as it is, so a host can play an action ahead and keep the fork once the action
        is stored.

        >>> from coloretto.engine import Rules, new_game
        >>> game = Game(new_game(Rules(players=2), seed=9), ["Ann", "Bob"])
        >>> _ = game.play(0)
        >>> ahead = game.fork()
        >>> _ = ahead.play(ahead.state.legal_codes()[0])
        >>> "row" in ahead.entries[-1], "row" in game.entries[-1], len(ahead.steps), len(game.steps)
        (True, False, 2, 1)
        """
        return Game(self.state.copy(), list(self.seats), list(self.entries), self.initial, list(self.steps))

    def to_record(self, *, include_result: bool = True) -> dict[str, Any]:
        """The ``coloretto-record/1`` JSON object (with ``result`` once the game is over)."""
        assert self.initial is not None
        setups = [setup_to_json(s) for s in self.initial.setups if s is not None]
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "rules": self.state.rules.to_dict(),
            "seats": list(self.seats),
            "setup": setups[0] if len(setups) == 1 else setups,
            "actions": [dict(e) for e in self.entries],
        }
        if include_result and self.state.is_over():
            rec["result"] = {"scores": self.state.totals()}
        return rec

    def _mark(self) -> tuple[GameState, int, int]:
        return self.state.copy(), len(self.entries), len(self.steps)

    def _rollback(self, mark: tuple[GameState, int, int]) -> None:
        self.state, n_entries, n_steps = mark
        del self.entries[n_entries:]
        del self.steps[n_steps:]


def entry_of(step: Step) -> dict[str, Any]:
    """The record entry of one step (docs/record-format.md ``actions``); a placement's is the
    completed draw entry (``_place``), so this gives the draw's, without ``"row"``.

    >>> from coloretto.engine.actions import TAKE_ACTIONS
    >>> entry_of(Step(seat=1, action=TAKE_ACTIONS[2], game=0, round=3, bonus=(3,)))
    {'seat': 1, 'action': 'take', 'row': 2, 'bonus': ['green']}
    """
    action = step.action
    if action.kind == "draw":
        assert step.drawn is not None
        entry: dict[str, Any] = {"seat": step.seat, "action": "draw", "card": CARD_NAMES[step.drawn]}
        if step.last_round_revealed:
            entry["last_round"] = True
        return entry
    if action.kind == "take":
        entry = {"seat": step.seat, "action": "take", "row": action.arg}
        if step.bonus:
            entry["bonus"] = [CARD_NAMES[c] for c in step.bonus]
        if step.last_round_revealed:
            entry["last_round"] = True
        return entry
    if action.kind == "place":
        assert step.placed is not None
        return {"seat": step.seat, "action": "draw", "card": CARD_NAMES[step.placed], "row": action.arg}
    return {"seat": step.seat, "action": "choose_start", "color": COLORS[action.arg]}


def _completes_draw(entries: list[dict[str, Any]], step: Step) -> bool:
    """``step`` is a placement and the last entry is that seat's draw, not yet placed."""
    if step.action.kind != "place" or not entries:
        return False
    last = entries[-1]
    return last.get("action") == "draw" and "row" not in last and last.get("seat") == step.seat


def _place(entries: list[dict[str, Any]], step: Step) -> None:
    """Complete the trailing draw entry with the placement's row (keys in the order
    seat, action, card, row, then the chance outcomes)."""
    last = entries[-1]
    placed = {"seat": last["seat"], "action": "draw", "card": last["card"], "row": step.action.arg}
    if "last_round" in last:
        placed["last_round"] = last["last_round"]
    entries[-1] = placed


@dataclass
class ReplayResult:
    """Outcome of ``replay``.

    Attributes:
        valid: every action was legal and consistent, and ``result`` (if any) agrees.
        game: the ``Game`` as far as it replayed (``None`` if the header was invalid).
        error: the first problem, or ``None``.
        action_index: index of the offending action; ``len(actions)`` for a ``result``
            mismatch; ``None`` for a header or setup problem.
    """

    valid: bool
    game: Game | None
    error: str | None = None
    action_index: int | None = None

    @property
    def finished(self) -> bool:
        """The replayed game is over."""
        return self.game is not None and self.game.state.is_over()

    def to_json(self) -> dict[str, Any]:
        """``{"valid": true, "finished", "scores", "winners"}`` or ``{"valid": false,
        "action_index", "error"}`` (the ``coloretto replay --json`` contract)."""
        if self.valid and self.game is not None:
            st = self.game.state
            return {"valid": True, "finished": st.is_over(), "scores": st.totals(), "winners": st.winners()}
        return {"valid": False, "action_index": self.action_index, "error": self.error}


def load_header(record: Any) -> Game:
    """Check a record's header and setup and return the ``Game`` at its start.

    Raises:
        InvalidRecordError: wrong format, rules, seats or setup (``action_index`` is None);
            a seat name with control characters (``name_problem``) is refused, the message
            naming the seat counted from 1.
    """
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record must be a JSON object, not {json_type(record)}")
    if record.get("format") != RECORD_FORMAT:
        raise InvalidRecordError(f"format must be {RECORD_FORMAT!r}, got {record.get('format')!r}")
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except ConfigurationError as exc:
        raise InvalidRecordError(f"rules: {exc}") from None
    if "seats" not in record:
        seats: Any = [f"seat {s + 1}" for s in range(rules.players)]
    else:
        seats = record["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise InvalidRecordError("seats must be a list of names")
    if len(seats) != rules.players:
        raise InvalidRecordError(f"{len(seats)} seat names for {rules.players} players")
    for seat, name in enumerate(seats):
        problem = name_problem(name, longest=None)
        if problem is not None:
            raise InvalidRecordError(
                f"the name of seat {seat + 1} (seats[{seat}]) {problem}: {A.short_repr(name)}"
            )
    raw = record.get("setup")
    raw_list = raw if isinstance(raw, list) else [raw]
    if len(raw_list) != rules.match_games:
        raise InvalidRecordError(f"a match of {rules.match_games} game(s) needs {rules.match_games} setup(s), got {len(raw_list)}")
    setups = [setup_from_json(s, rules) for s in raw_list]
    try:
        state = GameState(rules, setups)
    except ConfigurationError as exc:
        raise InvalidRecordError(f"setup: {exc}") from None
    if not isinstance(record.get("actions", []), list):
        raise InvalidRecordError("actions must be a list")
    return Game(state, list(seats))


ENTRY_KEYS: dict[str, frozenset[str]] = {
    "draw": frozenset({"seat", "action", "card", "row", "last_round"}),
    "take": frozenset({"seat", "action", "row", "bonus", "last_round"}),
    "choose_start": frozenset({"seat", "action", "color"}),
}
"""The keys of each kind of ``actions`` entry (docs/record-format.md, "actions" and "Chance
outcomes"); a key of one kind on another is refused."""
_ALL_ENTRY_KEYS = frozenset().union(*ENTRY_KEYS.values())


def _check_entry_keys(entry: dict[str, Any], kind: object) -> None:
    """Refuse a key that belongs to another kind of entry (``bonus`` on a draw...).

    Raises:
        InvalidRecordError: the message names the key and the kind.
    """
    own = ENTRY_KEYS.get(kind) if isinstance(kind, str) else None
    if own is None:
        return
    stray = sorted((set(entry) & _ALL_ENTRY_KEYS) - own)
    if stray:
        raise InvalidRecordError(
            f"{', '.join(map(repr, stray))} does not belong to a {kind!r} entry "
            f"(its keys: {', '.join(sorted(own))})"
        )


def apply_entry(game: Game, entry: Any, *, last: bool = True) -> None:
    """Apply one record entry to ``game``, checking the chance outcomes it states.

    Args:
        last: the entry is the record's last action; only then may a draw lack its
            ``row`` (a card drawn, not yet placed).

    Raises:
        InvalidRecordError: malformed entry, wrong seat, a drawn card that is not the one
            the draw pile reveals, ``bonus`` or ``last_round`` that disagree with the draw
            pile, a key of another kind of entry (``ENTRY_KEYS``: ``bonus`` on a draw),
            or a draw without its row before the end (``action_index`` unset;
            ``replay`` fills it). ``game`` is unchanged.
        IllegalActionError: the action breaks a rule (``game`` is unchanged).
    """
    if not isinstance(entry, dict):
        raise InvalidRecordError(f"an action must be an object, not {entry!r}")
    st = game.state
    seat = entry.get("seat")
    if type(seat) is not int:
        raise InvalidRecordError(f"an action needs an integer 'seat', got {seat!r}")
    if seat != st.to_move:
        if st.is_over():
            raise InvalidRecordError("an action after the end of the game")
        raise InvalidRecordError(_wrong_seat(seat, st.to_move, st.n))
    kind = entry.get("action")
    _check_entry_keys(entry, kind)
    if kind in ("draw", "take") and type(entry.get("row")) is int:
        _check_row(kind, entry["row"], st.nrows)
    if kind == "draw":
        _apply_draw(game, entry, last)
        return
    try:
        action = Action.from_json(entry)
    except ValueError as exc:
        raise InvalidRecordError(str(exc)) from None
    if action.kind == "place":
        raise InvalidRecordError("record a placement as a 'draw' entry with its card and row")
    checks = "bonus" in entry or "last_round" in entry
    mark = game._mark() if checks else None
    step = game.play(action)
    if mark is not None:
        try:
            _check_chance(entry, step, check_bonus=True)
        except InvalidRecordError:
            game._rollback(mark)
            raise


def _apply_draw(game: Game, entry: dict[str, Any], last: bool) -> None:
    """A draw entry: the draw (its card checked), then its placement when it has a row."""
    card: Any = entry.get("card")
    placed = "row" in entry
    row = entry.get("row")
    if placed and type(row) is not int:
        raise InvalidRecordError(f"a draw needs an integer row, got {A.short_repr(row)}")
    if not placed and not last:
        raise InvalidRecordError(
            "a draw without its 'row' (drawn, not yet placed) may only be the last action"
        )
    try:
        code = card_code(card)
    except ValueError as exc:
        raise InvalidRecordError(str(exc)) from None
    if code == LAST_ROUND:
        raise InvalidRecordError("the Last Round card is never placed in a row (docs/rules.md §5.1)")
    mark = game._mark()
    step = game.play(A.DRAW_ACTION)
    try:
        if step.drawn != code:
            raise InvalidRecordError(
                f"the record says {card!r} was drawn, but the draw pile reveals "
                f"{CARD_NAMES[game.state.drawn]!r}"
            )
        _check_chance(entry, step, check_bonus=False)
        if placed:
            game.play(Action("place", entry["row"]))
    except (ValueError, IllegalActionError):
        game._rollback(mark)
        raise


def _check_chance(entry: dict[str, Any], step: Step, *, check_bonus: bool) -> None:
    """Compare the chance outcomes an entry states (optional keys) with what ``step`` did.

    Raises:
        InvalidRecordError: a malformed or disagreeing ``last_round`` or ``bonus``.
    """
    if "last_round" in entry:
        said = entry["last_round"]
        if type(said) is not bool:
            raise InvalidRecordError(f"'last_round' must be true or false, got {A.short_repr(said)}")
        if said != step.last_round_revealed:
            happened = "revealed" if step.last_round_revealed else "did not reveal"
            raise InvalidRecordError(
                f"the record says last_round {str(said).lower()}, but this action {happened} "
                "the Last Round card"
            )
    if check_bonus and "bonus" in entry:
        said = entry["bonus"]
        if not isinstance(said, list):
            raise InvalidRecordError(f"'bonus' must be a list of card names, got {A.short_repr(said)}")
        revealed = [CARD_NAMES[c] for c in step.bonus]
        if said != revealed:
            raise InvalidRecordError(
                f"the record says the bonus cards were {A.short_repr(said)}, but the draw pile "
                f"gives {revealed}"
            )


def _wrong_seat(seat: int, to_move: int, players: int) -> str:
    """The message for an entry by a seat that is not to move. People count seats from 1,
    records from 0: both are named, e.g. 'seat 3 ("seat": 2) acted, but seat 1 ("seat": 0)
    is to move'."""
    mover = f'seat {to_move + 1} ("seat": {to_move}) is to move'
    if not 0 <= seat < players:
        return (
            f'"seat": {A.short_repr(seat)} is no seat: records count seats from 0, so "seat" '
            f"is 0 to {players - 1} here; {mover}"
        )
    return f'seat {seat + 1} ("seat": {seat}) acted, but {mover}'


def _check_row(kind: str, row: int, nrows: int) -> None:
    """Refuse a row the table does not have (``"row"`` 0 to ``nrows - 1`` in records).

    Raises:
        InvalidRecordError: e.g. 'draw entry: "row": 7 does not exist; records count rows
            from 0, so "row" is 0 to 3 here'.
    """
    if not 0 <= row < nrows:
        raise InvalidRecordError(
            f'{kind} entry: "row": {A.short_repr(row)} does not exist; records count rows '
            f'from 0, so "row" is 0 to {nrows - 1} here'
        )


TOO_DEEP = "a value in the record is nested too deeply"
"""The error of a record whose JSON nests so deeply that checking it exhausts the stack."""


def pending_draw_entry(record: dict[str, Any]) -> dict[str, Any] | None:
    """The trailing draw entry that a record's ``pending_draw`` key stands for, or ``None``.

    ``pending_draw`` (``{"seat": s, "card": "green"}``) is how records written before draws
    were recorded at once marked a card drawn but not placed; it is read as the entry
    ``{"seat": s, "action": "draw", "card": "green"}`` after the actions, unless the actions
    already end with an unplaced draw. It is never written.
    """
    pending = record.get("pending_draw")
    if pending is None:
        return None
    actions = record.get("actions", [])
    if isinstance(actions, list) and actions:
        tail = actions[-1]
        if isinstance(tail, dict) and tail.get("action") == "draw" and "row" not in tail:
            return None
    if not isinstance(pending, dict):
        return {"seat": None, "action": "draw", "card": None}
    return {"seat": pending.get("seat"), "action": "draw", "card": pending.get("card")}


def replay(record: Any) -> ReplayResult:
    """Check every action of ``record`` against the rules (the ``coloretto replay`` check).

    A trailing draw without its row (or an old record's ``pending_draw``) is replayed as a
    drawn card waiting for its row: the replay ends at the placement decision.

    Never raises for a bad record: the problem is in the result (also for a value nested so
    deeply that checking it exhausts the stack: ``TOO_DEEP``).

    >>> from coloretto.engine import Rules, new_game
    >>> game = Game(new_game(Rules(players=3), seed=2), ["a", "b", "c"])
    >>> _ = game.play(0)
    >>> result = replay(game.to_record())
    >>> result.valid, result.game.state.decision
    (True, 'place')
    """
    try:
        game = load_header(record)
    except ColorettoError as exc:
        return ReplayResult(False, None, str(exc), None)
    except RecursionError:
        return ReplayResult(False, None, TOO_DEEP, None)
    actions = record.get("actions", [])
    n = len(actions)
    for i, entry in enumerate(actions):
        try:
            apply_entry(game, entry, last=i == n - 1)
        except (ColorettoError, ValueError) as exc:
            return ReplayResult(False, game, str(exc), i)
        except RecursionError:
            return ReplayResult(False, game, TOO_DEEP, i)
    try:
        pending = pending_draw_entry(record)
        if pending is not None:
            apply_entry(game, pending, last=True)
    except (ColorettoError, ValueError) as exc:
        return ReplayResult(False, game, f"pending_draw: {exc}", n)
    except RecursionError:
        return ReplayResult(False, game, TOO_DEEP, n)
    result = record.get("result")
    if result is not None:
        scores = result.get("scores") if isinstance(result, dict) else None
        if not isinstance(scores, list):
            return ReplayResult(False, game, "result must be an object with a list 'scores'", n)
        if not game.state.is_over():
            return ReplayResult(False, game, "the record has a result but the game is not over", n)
        if scores != game.state.totals():
            return ReplayResult(
                False, game, f"result scores {A.short_repr(scores, 200)} disagree with the replay's {game.state.totals()}", n
            )
    return ReplayResult(True, game)


def load_game(record: Any) -> Game:
    """Replay ``record`` and return its ``Game``, to continue it (``--resume``).

    Raises:
        InvalidRecordError: the record is invalid (with ``action_index``).
    """
    res = replay(record)
    if not res.valid or res.game is None:
        raise InvalidRecordError(res.error or "invalid record", res.action_index)
    return res.game


def new_record_game(state: GameState, seats: Sequence[str]) -> Game:
    """A ``Game`` recording from ``state`` (normally a fresh ``new_game``)."""
    return Game(state, list(seats))


# ----- record files: the one reader and writer ---------------------------------------------
def dumps_record(record: dict[str, Any]) -> str:
    """The JSON text of a record as every command writes it: one top-level key per line and
    one action entry per line, UTF-8 safe (non-ASCII escaped), ending with a newline.

    >>> print(dumps_record({"format": RECORD_FORMAT, "actions": [{"seat": 0, "action": "take", "row": 1}]}), end="")
    {
      "format": "coloretto-record/1",
      "actions": [
        {"seat": 0, "action": "take", "row": 1}
      ]
    }
    """
    items = []
    for key, value in record.items():
        if key == "actions" and isinstance(value, list) and value:
            inner = ",\n".join("    " + json.dumps(e) for e in value)
            items.append(f"  {json.dumps(key)}: [\n{inner}\n  ]")
        else:
            items.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(items) + "\n}\n"


def save_record(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Write ``record`` to ``path`` atomically, as ``dumps_record`` lays it out: a temporary
    file in the same directory is written, flushed and fsynced, then renamed over ``path``
    (``os.replace``), so a reader sees the old file or the new one, never a part. The file
    has the permissions ``open()`` would give it: those of the file replaced, or for a new
    file 0666 less the process umask.

    Raises:
        OSError: the directory cannot be written (no temporary file is left behind).
    """
    _write_atomically(path, dumps_record(record), ".json")


def dumps_record_lines(records: Iterable[dict[str, Any]]) -> str:
    """The JSON-lines text of several records (``coloretto tournament --records``): one
    record per line, compact (no spaces), non-ASCII escaped, each line ending with a newline.

    >>> print(dumps_record_lines([{"format": RECORD_FORMAT}, {"format": RECORD_FORMAT, "seats": ["Ann"]}]), end="")
    {"format":"coloretto-record/1"}
    {"format":"coloretto-record/1","seats":["Ann"]}
    """
    return "".join(json.dumps(rec, separators=(",", ":")) + "\n" for rec in records)


def save_records(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> None:
    """Write ``records`` to ``path`` as JSON lines (``dumps_record_lines``), atomically as
    ``save_record`` writes one record (with the same permissions): a reader sees the old
    file or the whole new one.

    Raises:
        OSError: the directory cannot be written (no temporary file is left behind).
    """
    _write_atomically(path, dumps_record_lines(records), ".jsonl")


def _write_atomically(path: str | os.PathLike[str], text: str, suffix: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same directory
    (named ``.coloretto-*<suffix>``), flushed and fsynced, then renamed over ``path``
    (``os.replace``) and the rename made durable; on failure the temporary file is removed
    and the error raised (``OSError``). The file gets the permissions that writing it with
    ``open()`` would give: those of the file it replaces, or for a new file 0666 less the
    process umask (0644 under umask 022)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = _new_temporary_file(directory, suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            _keep_permissions(fh.fileno(), target)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_directory(directory)


_TEMPORARY_NAMES = 100
"""Random names tried for a temporary file before giving up (64 random bits each)."""


def _new_temporary_file(directory: Path, suffix: str) -> tuple[int, str]:
    """Create a new empty file ``.coloretto-<random hex><suffix>`` in ``directory`` and
    open it for writing; return its descriptor and path. It is created with mode 0666, less
    the process umask as for any new file (``tempfile.mkstemp`` would make it 0600).

    Raises:
        OSError: the file cannot be created (a missing or read-only directory), or every
            name tried is taken (``FileExistsError``).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(_TEMPORARY_NAMES):
        name = os.path.join(directory, f".coloretto-{secrets.token_hex(8)}{suffix}")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(directory))


def _keep_permissions(fd: int, target: Path) -> None:
    """Give the open file ``fd`` the permission bits of the regular file ``target`` it is
    about to replace, as writing over ``target`` in place would keep them; nothing when
    ``target`` does not exist (or is not a regular file)."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(mode) & 0o777)


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable where the platform allows it (best effort)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def parse_record(text: str | bytes, *, source: str = "the record") -> Any:
    """Parse the JSON text of a record file into whatever JSON value it holds, unchecked
    (``read_record`` checks that it claims to be a record, ``replay`` the rest).

    Args:
        text: the file's text (``str``) or bytes (decoded as UTF-8).
        source: how messages name the text (e.g. the file name).

    Raises:
        UnreadableRecordError: not UTF-8 (UTF-16 is named as such), not JSON (``NaN`` and
            ``Infinity`` included, and an object that gives a key twice), nested too deeply
            for the JSON reader, or a number too large to read. A UTF-8 byte-order mark at
            the start (as Windows Notepad writes) is read past.

    >>> parse_record("[1, 2]")
    [1, 2]
    """
    if isinstance(text, bytes):
        if text.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise UnreadableRecordError(f"{source} is UTF-16 text; save it as UTF-8")
        try:
            text = text.decode("utf-8-sig")  # without the byte-order mark some editors write
        except UnicodeDecodeError:
            raise UnreadableRecordError(f"{source} is not a text (UTF-8) file") from None
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(
            text, parse_constant=_not_a_number, parse_float=_finite, object_pairs_hook=unique_object
        )
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and text.lstrip().startswith("{") and "\n" in text.strip():
            raise UnreadableRecordError(
                f"{source} holds several JSON values, one per line: a file of records "
                "(tournament --records) rather than one record; give one line of it as its "
                f"own file ({exc})"
            ) from None
        raise UnreadableRecordError(f"{source} is not JSON: {exc}") from None
    except RecursionError:
        raise UnreadableRecordError(f"{source} cannot be read: its JSON is nested too deeply") from None
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string conversion"
        if "digits" in str(exc):
            raise UnreadableRecordError(
                f"{source} cannot be read: a number in it is too large "
                f"(more than {sys.get_int_max_str_digits()} digits)"
            ) from None
        raise UnreadableRecordError(f"{source} is not JSON: {exc}") from None


def _not_a_number(word: str) -> float:
    """``json.loads``'s hook for ``NaN`` and ``Infinity``, which JSON does not have."""
    raise ValueError(f"{word} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number with a fraction or an exponent; one beyond the range of a float
    (``1e400``) is refused rather than read as infinity."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def read_record(text: str | bytes, *, source: str = "the record") -> dict[str, Any]:
    """Parse the JSON text of a record and check that it claims to be one: a JSON object
    whose ``format`` is ``coloretto-record/1``. The rest is checked by ``replay`` /
    ``load_game``.

    Args:
        text: the file's text (``str``) or bytes (decoded as UTF-8).
        source: how messages name the text (e.g. the file name).

    Raises:
        UnreadableRecordError: as ``parse_record``.
        InvalidRecordError: JSON, but not an object or not of this format.

    >>> read_record('{"format": "coloretto-record/1", "setup": {}}')["format"]
    'coloretto-record/1'
    >>> read_record("[1, 2")
    Traceback (most recent call last):
    ...
    coloretto.engine.errors.UnreadableRecordError: the record is not JSON: Expecting ',' delimiter: line 1 column 6 (char 5)
    """
    data = parse_record(text, source=source)
    if not isinstance(data, dict):
        raise InvalidRecordError(f"a record must be a JSON object, not {json_type(data)}")
    if data.get("format") != RECORD_FORMAT:
        raise InvalidRecordError(
            f"format must be {RECORD_FORMAT!r}, got {A.short_repr(data.get('format'))}"
        )
    return data


def load_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read the record file ``path`` (``read_record`` on its bytes).

    Raises:
        UnreadableRecordError: the file is missing, a directory or unreadable, or as
            ``read_record``; the message names the file.
        InvalidRecordError: as ``read_record``.
    """
    name = os.fspath(path)
    return read_record(_read_bytes(name), source=name)


def load_record_json(path: str | os.PathLike[str]) -> Any:
    """Read the record file ``path`` as ``load_record`` does, without the check that it
    claims to be a record: its JSON value, whatever it is. For the commands that report a
    record of the wrong shape as they report any invalid record (``replay`` names the
    problem; exit status 1), so only an unreadable file is an error here.

    Raises:
        UnreadableRecordError: as ``load_record``.
    """
    name = os.fspath(path)
    return parse_record(_read_bytes(name), source=name)


def _read_bytes(name: str) -> bytes:
    """The bytes of the file ``name``.

    Raises:
        UnreadableRecordError: it is missing, a directory or unreadable (the message names it).
    """
    try:
        return Path(name).read_bytes()
    except IsADirectoryError:
        raise UnreadableRecordError(f"{name} is a directory, not a record file") from None
    except OSError as exc:
        raise UnreadableRecordError(f"cannot read {name}: {exc.strerror or exc}") from None
