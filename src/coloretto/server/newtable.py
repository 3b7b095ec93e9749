"""A new table from a ``POST /api/tables`` request (docs/web-api.md): checked names, agents,
seats and rules, the deal, and the creator's seat token. Pure: nothing is stored here.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..agents.registry import PEOPLE_OPPONENTS
from ..engine.errors import ColorettoError
from ..engine.fold import fold
from ..engine.record import UNPRINTABLE, setup_to_json
from ..engine.rules import Rules
from ..engine.rules import preset as make_preset
from ..engine.state import new_game
from .accounts import Account
from .errors import ErrorCode, Problem
from .store import SeatData, TableData, new_seat_token, now, token_hash
from .timecontrol import MOVE_CLOCKS, check_time_control

DEFAULT_AGENT = "medium"
"""The computer player of a computer seat, or of a hand-over, when none is named."""


MISSING_NAME: Final = "name is missing: give a name of 1 to 24 characters"
"""What a request that sits someone at a table without a name is told."""


def check_name(name: Any) -> str:
    """A player name: 1 to 24 printable characters (surrounding spaces removed), not
    starting with ``computer:`` (in any case or width).

    Raises:
        Problem: ``bad_name``: the name is missing (None), not a string, or not such a name.
    """
    if name is None:
        raise Problem(ErrorCode.BAD_NAME, MISSING_NAME)
    if not isinstance(name, str):
        raise Problem(ErrorCode.BAD_NAME, "name must be a string")
    text: str = name.strip()
    if not 1 <= len(text) <= 24:
        raise Problem(ErrorCode.BAD_NAME, "a name has 1 to 24 characters")
    if not text.isprintable():
        raise Problem(ErrorCode.BAD_NAME, f"a name {UNPRINTABLE}")
    if fold(text).startswith("computer:"):
        raise Problem(ErrorCode.BAD_NAME, "names starting with 'computer:' are reserved for computer players")
    return text


def check_agent(agent: Any) -> str:
    """A computer player offered to people (``registry.PEOPLE_OPPONENTS``).

    Raises:
        Problem: ``bad_agent``.
    """
    if agent not in PEOPLE_OPPONENTS:
        raise Problem(ErrorCode.BAD_AGENT, f"unknown computer player {agent!r}; choose one of {', '.join(PEOPLE_OPPONENTS)}")
    return str(agent)


def table_rules(players: int, rules: dict[str, Any], preset: str | None) -> Rules:
    """The rules of a table of ``players`` seats: ``preset`` (if any) with the options of
    ``rules`` (docs/rules.md §7) over it; ``rules["players"]``, if given, must be ``players``.

    Raises:
        Problem: ``bad_rules``.
    """
    options = dict(rules)
    given = options.pop("players", players)
    if type(given) is not int or given != players:
        raise Problem(ErrorCode.BAD_RULES, f"rules.players must be the number of seats, the integer {players}, not {given!r}")
    try:
        if preset is not None:
            return make_preset(preset, players, **options)
        return Rules.from_dict({**options, "players": players})
    except (ColorettoError, TypeError, ValueError) as exc:
        raise Problem(ErrorCode.BAD_RULES, str(exc)) from None


def seat_rows(seats: list[dict[str, Any]]) -> list[SeatData]:
    """The stored seats of a new table: ``{"kind": "human"}`` an open seat,
    ``{"kind": "computer", "agent": SPEC}`` a computer player (default ``DEFAULT_AGENT``).

    Raises:
        Problem: ``bad_request`` (not 2 to 5 seats, unknown kind), ``bad_agent``.
    """
    if not 2 <= len(seats) <= 5:
        raise Problem(ErrorCode.BAD_REQUEST, f"a table has 2 to 5 seats, not {len(seats)}")
    rows: list[SeatData] = []
    for i, s in enumerate(seats):
        kind = s.get("kind")
        if kind == "human":
            rows.append(SeatData(i, "open", None, None, None, False))
        elif kind == "computer":
            rows.append(SeatData(i, "computer", None, check_agent(s.get("agent") or DEFAULT_AGENT), None, False))
        else:
            raise Problem(ErrorCode.BAD_REQUEST, f"seats[{i}].kind must be 'human' or 'computer', not {kind!r}")
    return rows


def check_rated(rows: list[SeatData], hints: bool, account: Account | None) -> None:
    """A rated table (docs/web-api.md, "Accounts"): created by a signed-in person, without
    hints, with at least two seats for people (each to be held by a different account).

    Raises:
        Problem: ``account_required`` (no account), ``bad_request`` (hints on, fewer than
            two people).
    """
    if account is None:
        raise Problem(ErrorCode.ACCOUNT_REQUIRED, "rated games are for signed-in players: log in, or create an unrated table")
    if hints:
        raise Problem(ErrorCode.BAD_REQUEST, "hints: a rated game has no hints; set hints to false or rated to false")
    if sum(s.kind == "open" for s in rows) < 2:
        raise Problem(ErrorCode.BAD_REQUEST, "seats: a rated game needs at least two seats for people")


def seat_creator(
    rows: list[SeatData], name: str | None, seat: int | None, account: Account | None = None
) -> tuple[int | None, str | None]:
    """Sit the creator ``name`` at ``seat`` (default: the first human seat) of ``rows``;
    with ``account`` (a rated table) the seat is the account's, under its name.
    Returns ``(seat, token)``, ``(None, None)`` when the table has no human seat.

    Raises:
        Problem: ``bad_name`` (missing or bad name), ``bad_request`` (not a human seat).
    """
    humans = [s.seat for s in rows if s.kind == "open"]
    if not humans:
        return None, None
    if account is not None:
        name = account.name
    if name is None:
        raise Problem(ErrorCode.BAD_NAME, MISSING_NAME)
    name = check_name(name)
    if seat is None:
        seat = humans[0]
    if seat not in humans:
        raise Problem(ErrorCode.BAD_REQUEST, f"seat: {seat!r} is not a human seat of this table")
    token = new_seat_token()
    row = rows[seat]
    row.kind, row.name, row.token_hash = "human", name, token_hash(token)
    row.account_id = account.id if account is not None else None
    return seat, token


def table_options(
    *, private: Any, time_control: Any, host: int | None, move_clocks: Sequence[float] = MOVE_CLOCKS
) -> dict[str, Any]:
    """The stored options of a new table (``TableData.options``): ``private`` (not listed
    in the lobby, joined through its invite link), ``host`` (the creator's seat, who may
    replace an absent or idle player; None when the creator took no seat) and
    ``time_control`` (``timecontrol.check_time_control``).

    Raises:
        Problem: ``bad_request`` (private not a boolean, a bad time control), ``bad_agent``.
    """
    if not isinstance(private, bool):
        raise Problem(ErrorCode.BAD_REQUEST, f"private must be true or false, not {private!r}")
    return {"private": private, "host": host, "time_control": check_time_control(time_control, move_clocks)}


@dataclass(frozen=True)
class NewTable:
    """A table to store: its data, and the creator's seat and token (None, None when the
    creator took no seat)."""

    data: TableData
    seat: int | None
    token: str | None


def new_table(
    *,
    name: str | None,
    seats: list[dict[str, Any]],
    seat: int | None,
    rules: dict[str, Any],
    preset: str | None,
    hints: bool,
    rated: bool,
    title: str,
    private: bool = False,
    time_control: Any = None,
    move_clocks: Sequence[float] = MOVE_CLOCKS,
    account: Account | None = None,
) -> NewTable:
    """Check a create-table request (docs/web-api.md ``POST /api/tables``) and deal; the
    creator is the table's host (``table_options``). ``account``: the signed-in creator; a
    rated table needs one (``check_rated``), and the creator's seat is then the account's.

    Raises:
        Problem: bad seats, rules, preset, agent, name, privacy or time control; a rated
            table not allowed.
    """
    if not 2 <= len(seats) <= 5:
        raise Problem(ErrorCode.BAD_REQUEST, f"a table has 2 to 5 seats, not {len(seats)}")
    r = table_rules(len(seats), rules, preset)
    rows = seat_rows(seats)
    if rated:
        check_rated(rows, hints, account)
    creator, token = seat_creator(rows, name, seat, account if rated else None)
    options = table_options(private=private, time_control=time_control, host=creator, move_clocks=move_clocks)
    seed = secrets.randbits(63)
    try:
        state = new_game(r, seed, preset_name=preset)
    except ColorettoError as exc:
        raise Problem(ErrorCode.BAD_RULES, str(exc)) from None
    status = "open" if any(s.kind == "open" for s in rows) else "playing"
    data = TableData(
        id=secrets.token_urlsafe(6), title=title, status=status, rules=r.to_dict(), preset=preset,
        hints=hints, rated=rated, seed=seed, setup=[setup_to_json(s) for s in state.setups if s is not None],
        version=0, created_at=now(), finished_at=None, rematch_id=None, seats=rows, codes=[],
        options=options,
    )
    return NewTable(data, creator, token)
