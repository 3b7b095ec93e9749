"""``coloretto play``: a game in the terminal, you against computer players.

Examples::

    coloretto play                                   # you (seat 1) against three computer players
    coloretto play --players 3 --preset bga --opponents greedy,random --seed 7
    coloretto play --edition modern --table violet --starting-cards choose --hints
    coloretto play --resume ~/.local/share/coloretto/games/coloretto-20250101-120000.json

Records go to ``<user data dir>/coloretto/games`` (``$COLORETTO_DATA_DIR/games`` when that
variable is set) unless ``--save`` names a file. See docs/terminal.md for the keys and
docs/record-format.md for the saved record.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import itertools
import os
import secrets
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..agents.base import Agent, Budget
from ..agents.registry import (
    FAIR_AGENT_NAMES,
    UnknownAgentError,
    check_external,
    computer_name,
    is_external,
    make_agent,
)
from ..arena.simulate import seat_seed
from ..engine.actions import short_repr
from ..engine.cards import color_code
from ..engine.errors import ColorettoError, ConfigurationError
from ..engine.fold import fold
from ..engine.record import NAME_MAX, Game, load_game, name_problem
from ..engine.rules import (
    EDITIONS,
    EXTRA_CARDS,
    NEXT_ROUND_STARTERS,
    PRESETS,
    STARTING_CARDS,
    TABLES,
    Rules,
    preset,
)
from ..engine.state import new_game
from ..tui.saving import DATA_DIR_VARIABLE, games_directory
from ..tui.session import TerminalGame
from .console import StdoutConsole
from .main import DashValue, UsageError
from .replay import read_record_file

RULE_OPTIONS = (
    "players",
    "edition",
    "table",
    "starting_cards",
    "next_round_starter",
    "joker_any_color",
    "match_games",
    "extra_card",
    "row_capacities",
)
"""docs/rules.md §7 keys settable on the command line (``--next-round-starter`` etc.)."""
NAME_DEFAULT = "You"
"""The person's name when ``--name`` is not given."""
DEAL_OPTIONS = ("removed_colors", "first_player", "preset")


DEFAULT_OPPONENT = "medium"
"""The computer player of every other seat when ``--opponents`` is not given."""


def seat_option(option: str, value: int, players: int) -> int:
    """The 0-based seat of ``value``, an option that counts seats from 1 as people do
    (``--seat 1`` is the first seat, as every screen calls it).

    Raises:
        UsageError: ``value`` is not 1 to ``players``; the message names the option and the
            range.
    """
    if not 1 <= value <= players:
        raise UsageError(
            f"{option} {value} is not a seat of this {players}-player game: seats are counted "
            f"from 1, so {option} is 1 to {players}"
        )
    return value - 1


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--preset`` and one option per docs/rules.md §7 key (all default to "not given")."""
    g = parser.add_argument_group("rules (docs/rules.md §7)")
    g.add_argument("--preset", choices=list(PRESETS), help="rules preset (default classic)")
    g.add_argument("--players", type=int, metavar="N", help="2 to 5 players (default 4)")
    g.add_argument("--edition", choices=EDITIONS)
    g.add_argument("--table", choices=TABLES, help="score table")
    g.add_argument(
        "--starting-cards", choices=STARTING_CARDS, help="dealt at random or chosen in turn"
    )
    g.add_argument("--next-round-starter", choices=NEXT_ROUND_STARTERS)
    g.add_argument("--joker-any-color", choices=("true", "false"))
    g.add_argument("--match-games", type=int, metavar="N", help="games in a match, 1 to 10")
    g.add_argument("--extra-card", choices=[e for e in EXTRA_CARDS if e] + ["none"])
    g.add_argument("--row-capacities", metavar="C,C,...", help="one capacity per row, e.g. 3,3,2,4")
    g.add_argument(
        "--removed-colors", metavar="COLOUR,...", help="colours removed (2 or 3 players; any case), e.g. gray,pink"
    )
    g.add_argument(
        "--first-player",
        type=int,
        metavar="SEAT",
        help="the seat that starts, counted from 1 (1 is the first seat; default at random)",
    )


def _option_problem(exc: ConfigurationError, given: list[str]) -> str:
    """``exc`` said with the command line's option and value (``--match-games 0: allowed: an
    integer from 1 to 10``; a list as typed, ``3,3,0,4``) when it is about one of the
    options ``given`` (``Rules`` field names), else its own message."""
    if exc.option is None or exc.option not in given:
        return str(exc)
    value = exc.value
    shown = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
    return f"--{exc.option.replace('_', '-')} {shown}: allowed: {exc.allowed}"


def rules_from_args(args: argparse.Namespace) -> tuple[Rules, dict[str, Any]]:
    """The ``Rules`` and the deal options (``removed_colors``, ``first_player``,
    ``preset_name``) given on the command line; ``--first-player`` counts seats from 1, the
    deal's ``first_player`` from 0.

    Raises:
        UsageError: a bad value (the message names the option).
    """
    overrides: dict[str, Any] = {}
    for key in RULE_OPTIONS:
        if key == "players":
            continue
        value = getattr(args, key, None)
        if value is None:
            continue
        if key == "joker_any_color":
            value = value == "true"
        elif key == "extra_card" and value == "none":
            value = None
        elif key == "row_capacities":
            try:
                value = tuple(int(x) for x in value.split(","))
            except ValueError:
                raise UsageError(
                    f"--row-capacities must be integers separated by commas, got {short_repr(value)}"
                ) from None
        overrides[key] = value
    name = args.preset or "classic"
    players = args.players if args.players is not None else 4
    try:
        rules = preset(name, players, **overrides)
    except ConfigurationError as exc:
        given = [*overrides, *(["players"] if args.players is not None else [])]
        raise UsageError(_option_problem(exc, given)) from None
    deal: dict[str, Any] = {"preset_name": name}
    if args.removed_colors is not None and not args.removed_colors.strip():
        raise UsageError("--removed-colors is empty: name the colours, e.g. gray,pink")
    if args.removed_colors:
        try:
            deal["removed_colors"] = [
                color_code(c.strip().lower()) for c in args.removed_colors.split(",")
            ]
        except ValueError as exc:
            raise UsageError(f"--removed-colors: {exc}") from None
    if args.first_player is not None:
        deal["first_player"] = seat_option("--first-player", args.first_player, rules.players)
    return rules, deal


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    p = subparsers.add_parser(
        "play",
        help="play a game in the terminal against computer players",
        description=(
            "Play Coloretto in the terminal: you against computer players. Type the short key "
            "of your choice at each prompt (d draw, 1 to 6 a row, counted from 1). The record "
            "is saved after every action; Ctrl-C or q stops, and --resume FILE continues the "
            "game. See docs/terminal.md."
        ),
    )
    add_rules_arguments(p)
    p.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="S",
        help="your seat, counted from 1 (default 1, the first seat)",
    )
    p.add_argument(
        "--opponents",
        metavar="SPEC,...",
        help=f"computer players: one spec for all, or one per other seat (default {DEFAULT_OPPONENT}); "
        "e.g. greedy,random,medium",
    )
    p.add_argument(
        "--seed", type=int, help="seed of the deal (default random; printed at the start)"
    )
    p.add_argument(
        "--save",
        metavar="FILE",
        help="where to save the record (after every action): a new file, never overwritten "
        "(default coloretto-DATE-TIME.json in the games folder of your data folder, "
        f"${DATA_DIR_VARIABLE}/games when that variable is set, with -2, -3, ... added if that "
        "name is taken); with --resume the resumed file is updated unless --save names "
        "another (new) file",
    )
    p.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE")
    p.add_argument(
        "--hints",
        action="store_true",
        help="offer the key h: the advisor's estimate of each choice",
    )
    p.add_argument(
        "--hint-budget", action=DashValue, metavar="BUDGET", help="advisor thinking time (default 1s; with --hints)"
    )
    p.add_argument("--name", default=NAME_DEFAULT, help=f"your name at the table (default {NAME_DEFAULT}; at most {NAME_MAX} characters; "
        "not with --resume)")
    p.set_defaults(func=run)


def _check_name(name: str) -> None:
    """Refuse an empty ``--name``, or one that ``engine.record.name_problem`` refuses (control
    characters: it is shown on one line; more than ``NAME_MAX`` characters: it must fit the
    score table), as a record's seat names are checked.

    Raises:
        UsageError: the name is empty, too long or holds a control character.
    """
    if not name.strip():
        raise UsageError("--name must not be empty")
    problem = name_problem(name)
    if problem is not None:
        raise UsageError(f"--name {problem}: {short_repr(name)}")


def _check_name_clash(name: str, names: list[str], human: int) -> None:
    """Refuse a person's ``name`` that is a computer player's name at the table (``names``,
    the person's seat ``human`` aside), compared as ``engine.fold`` folds them (case, width and
surrounding spaces ignored).

    Raises:
        UsageError: the message names the clash.
    """
    key = fold(name)
    if any(fold(other) == key for s, other in enumerate(names) if s != human):
        raise UsageError(f"--name {short_repr(name)} is a computer player's name at this table: choose another")


def _opponent_specs(text: str | None, human_seats: list[int], n: int) -> list[str | None]:
    """The agent spec of every seat (``None`` for the people's ``human_seats``) from
    ``--opponents`` (``text``; default ``DEFAULT_OPPONENT``): one spec for all computer
    seats, or one per computer seat in seat order (whether the agents exist and their
    programs run is checked later: ``_check_programs``, ``_make_agents``).

    Raises:
        UsageError: an empty name, or a count that is neither 1 nor the number of computer
            seats.
    """
    others = [s for s in range(n) if s not in human_seats]
    names = [x.strip() for x in (DEFAULT_OPPONENT if text is None else text).split(",")]
    if any(not x for x in names):
        raise UsageError(f"--opponents has an empty name: {short_repr(text)}")
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise UsageError(
            f"--opponents names {len(names)} players, but there are {len(others)} other seats"
        )
    specs: list[str | None] = [None] * n
    for seat, spec in zip(others, names):
        specs[seat] = spec
    return specs


def _make_agents(
    specs: list[str | None], seed: int, source: str, folder: str | None = None
) -> dict[int, Agent]:
    """The computer players of ``specs`` (``None``: a person's seat), by seat, each seeded
    from the deal's ``seed`` as every command seeds the seats of a game
    (``arena.simulate.seat_seed``: ``derive_seed(seed, AGENT, seat)``, or a one-way seed
    for an external engine, which must not be able to compute the deal from it). External
    engines run in ``folder`` (default the current folder).

    Raises:
        UsageError: an unknown agent (the message lists the agents people may play
            against), or one that sees the hidden draw pile; the message starts with
            ``source`` (``--opponents`` or ``the record's agents``).
    """
    agents: dict[int, Agent] = {}
    try:
        _add_agents(agents, specs, seed, source, folder)
    except BaseException:
        _close_all(agents)
        raise
    return agents


def _add_agents(
    agents: dict[int, Agent], specs: list[str | None], seed: int, source: str, folder: str | None
) -> None:
    """Fill ``agents`` as :func:`_make_agents` documents (what is made so far stays in it)."""
    for seat, spec in enumerate(specs):
        if spec is None:
            continue
        if spec == "oracle":
            raise UsageError(
                f"{source}: the oracle sees the hidden draw pile; it is for measurements, "
                "not for play with people"
            )
        try:
            agent = make_agent(spec, seed=seat_seed(spec, seed, seat), cwd=folder)
        except UnknownAgentError as exc:
            # list only the agents people may play against, not the oracles
            raise UsageError(f"{source}: {UnknownAgentError(exc.name, FAIR_AGENT_NAMES)}") from None
        except ConfigurationError as exc:
            raise UsageError(f"{source}: {exc}") from None
        if agent.needs_true_state:
            agent.close()
            raise UsageError(f"{source}: {spec!r} sees the hidden draw pile; it cannot play with people")
        agents[seat] = agent


def _human_seats(record: dict[str, Any], n: int, seat: int | None) -> list[int]:
    """The record's ``human_seats`` (distinct 0-based seats of the ``n``-seat game), or
    ``[seat - 1]`` (``--seat``, counted from 1; default 1) when the record has none.

    Raises:
        UsageError: ``human_seats`` is present but not a non-empty list of distinct seats,
            or present and ``--seat`` given too (the record decides), or (without it)
            ``seat`` is not 1 to ``n``.
    """
    humans = record.get("human_seats")
    if humans is None:
        return [seat_option("--seat", seat if seat is not None else 1, n)]
    if seat is not None:
        raise UsageError(
            "--resume continues the saved game with its own seats (the record's human_seats); "
            "do not give --seat"
        )
    if not (
        isinstance(humans, list)
        and humans
        and all(type(s) is int and 0 <= s < n for s in humans)
        and len(set(humans)) == len(humans)
    ):
        raise UsageError(
            f"the record's human_seats must list distinct seats of this {n}-player game "
            f"(0 to {n - 1}), got {short_repr(humans)}"
        )
    return list(humans)


def _record_agents(saved: object, humans: list[int], n: int) -> list[str | None]:
    """A record's ``agents`` (docs/record-format.md) checked against its seats: one entry per
    seat of the ``n``-seat game, ``null`` exactly on the seats of ``humans``, a non-empty
    agent spec on every other seat (whether the agent exists is checked when it is made).

    Raises:
        UsageError: the message names the record's ``agents`` and what is wrong.
    """
    where = "the record's agents"
    if not isinstance(saved, list) or len(saved) != n:
        raise UsageError(
            f"{where} must list one entry per seat of this {n}-player game, got {short_repr(saved)}"
        )
    for seat, spec in enumerate(saved):
        if seat in humans and spec is not None:
            raise UsageError(
                f"{where}[{seat}] is {short_repr(spec)}, but seat {seat + 1} is a person's "
                "(human_seats): null there"
            )
        if seat not in humans and not (isinstance(spec, str) and spec.strip()):
            raise UsageError(
                f"{where}[{seat}] is {short_repr(spec)}, but seat {seat + 1} is a computer's: "
                'an agent name there (e.g. "medium")'
            )
    return list(saved)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def _reserve(path: Path) -> None:
    """Create ``path`` empty, failing if it exists (exclusive open, mode ``x``).

    Raises:
        FileExistsError: ``path`` exists (a record of another game, or any other file).
        OSError: it cannot be created.
    """
    with open(path, "x", encoding="utf-8"):
        pass


def _reserve_default(directory: Path, stamp: str) -> Path:
    """Create and return a new empty ``coloretto-STAMP.json`` in ``directory``, adding
    ``-2``, ``-3``, ... to the name when a file of that name exists (games started in the
    same second never share a record file).

    Raises:
        OSError: the file cannot be created.
    """
    for k in itertools.count(1):
        path = directory / (f"coloretto-{stamp}.json" if k == 1 else f"coloretto-{stamp}-{k}.json")
        try:
            _reserve(path)
        except FileExistsError:
            continue
        return path
    raise AssertionError("unreachable")  # pragma: no cover


def _given_rule_options(args: argparse.Namespace) -> list[str]:
    keys = [
        k for k in RULE_OPTIONS + DEAL_OPTIONS + ("seed",) if getattr(args, k, None) is not None
    ]
    return ["--" + k.replace("_", "-") for k in keys]


def _hint_budget(args: argparse.Namespace) -> Budget:
    """The advisor's budget from ``--hint-budget`` (default 1 s), which needs ``--hints``."""
    try:
        budget = Budget.parse("1s" if args.hint_budget is None else args.hint_budget)
    except ValueError as exc:
        raise UsageError(f"--hint-budget: {exc}") from None
    if args.hint_budget is not None and not args.hints:
        raise UsageError("--hint-budget sets the hints' thinking time: add --hints to get hints")
    return budget


@dataclass
class _Plan:
    """What ``run`` sets up before the game: the game, its seats and players, where its
    record goes and where its external engines run."""

    game: Game
    humans: list[int]
    specs: list[str | None]
    seed: int | None
    save: Path
    exclusive: bool
    """``save`` is a new file, reserved before the game (never one that exists)."""
    stamp: str = ""
    source: str = "--opponents"
    folder: str | None = None
    """The folder ``cmd:`` engines run in (``None``: no external engine)."""


def run(args: argparse.Namespace) -> int:
    """Play (or resume) a game; return 0 when it ends, is saved with q, or (resumed) was
    already over (shown, its file left as it is); 130 after Ctrl-C (saved); 1 when input
    ended early (saved); 3 when the game stopped or ended but its record could not be
    written (``EXIT_NOT_SAVED``); 2 for bad options or a bad ``--resume`` file (raised as
    ``UsageError``), e.g. a record whose ``agents`` name a ``cmd:`` program that
    ``--opponents`` does not name again."""
    console = StdoutConsole(highlight=False)
    hint_budget = _hint_budget(args)
    if args.save is not None and not args.save.strip():
        raise UsageError("--save needs a file name (it is empty)")
    _check_name(args.name)
    plan = _resume_plan(args) if args.resume else _new_plan(args)
    save = plan.save
    if save.is_dir():
        raise UsageError(f"--save {save}: is a directory")
    parent = save.parent if str(save.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"cannot save to {save}: no directory {parent}")
    if plan.exclusive and args.save is not None and (save.exists() or save.is_symlink()):
        raise UsageError(_exists_message(save))
    if args.resume and plan.game.state.is_over():
        return _terminal_game(args, console, plan, {}, Path(args.resume), hint_budget).show_over()
    agents = _make_agents(plan.specs, 0 if plan.seed is None else plan.seed, plan.source, plan.folder)
    try:
        if plan.exclusive and args.save is None:
            save = _reserve_default(parent, plan.stamp)
        elif plan.exclusive:
            _reserve(save)
    except FileExistsError:
        _close_all(agents)
        raise UsageError(_exists_message(save)) from None
    except OSError as exc:
        _close_all(agents)
        raise UsageError(f"cannot save to {save}: {exc.strerror or exc}") from None
    try:
        return _terminal_game(args, console, plan, agents, save, hint_budget).run()
    except BaseException:
        if plan.exclusive:
            _remove_if_empty(save)
        raise


def _new_plan(args: argparse.Namespace) -> _Plan:
    """The plan of a new game from the rule options, ``--seat``, ``--opponents``, ``--name``,
    ``--seed`` and ``--save``; ``cmd:`` engines run in the current folder.

    Raises:
        UsageError: a bad option (the message names it).
    """
    rules, deal = rules_from_args(args)
    seed = args.seed if args.seed is not None else secrets.randbits(48)
    humans = [seat_option("--seat", args.seat if args.seat is not None else 1, rules.players)]
    specs = _opponent_specs(args.opponents, humans, rules.players)
    folder = os.getcwd() if _has_external(specs) else None
    _check_programs(specs, folder)
    try:
        state = new_game(rules, seed, **deal)
    except ConfigurationError as exc:
        raise UsageError(str(exc)) from None
    name = args.name.strip()
    names = [name if spec is None else computer_name(spec, s) for s, spec in enumerate(specs)]
    _check_name_clash(args.name, names, humans[0])
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    save = Path(args.save) if args.save is not None else _games_folder() / f"coloretto-{stamp}.json"
    return _Plan(Game(state, names), humans, specs, seed, save, True, stamp, folder=folder)


def _resume_plan(args: argparse.Namespace) -> _Plan:
    """The plan of the game saved in ``args.resume``: its seats, its computer players (the
    record's ``agents``, or ``--opponents``), its seed, and the record it is saved to (that
    file, or a new ``--save`` file); ``cmd:`` engines run in the record's ``agents_folder``
    (``_engine_folder``).

    Raises:
        UsageError: an option the record fixes, an unreadable or invalid record, or a bad
            ``--opponents`` (the message names it).
    """
    given = _given_rule_options(args)
    if given:
        raise UsageError(
            f"--resume continues the saved game's rules and deal; do not give {', '.join(given)}"
        )
    if args.name != NAME_DEFAULT:
        raise UsageError("--resume continues the saved game with its players' names; do not give --name")
    record = read_record_file(args.resume)
    try:
        game = load_game(record)
    except ColorettoError as exc:
        raise UsageError(f"{args.resume} is not a valid record: {exc}") from None
    n = game.state.n
    humans = _human_seats(record, n, args.seat)
    saved = record.get("agents")
    source = "--opponents"
    if args.opponents is None and saved is not None:
        specs: list[str | None] = _record_agents(saved, humans, n)
        source = "the record's agents"
    else:
        specs = _opponent_specs(args.opponents, humans, n)
    folder = None
    if _has_external(specs) and not game.state.is_over():
        if source != "--opponents":
            _refuse_record_programs(specs, args.resume)
        folder = _engine_folder(record)
        _check_programs(specs, folder)
    saved_seed = record.get("seed")
    seed = saved_seed if type(saved_seed) is int else None  # unknown: not shown or saved
    save = Path(args.save) if args.save is not None else Path(args.resume)
    exclusive = args.save is not None and not _same_file(save, Path(args.resume))
    return _Plan(game, humans, specs, seed, save, exclusive, source=source, folder=folder)


def _has_external(specs: list[str | None]) -> bool:
    """Some seat of ``specs`` is an external engine (``cmd:``)."""
    return any(spec is not None and is_external(spec) for spec in specs)


def _check_programs(specs: list[str | None], folder: str | None) -> None:
    """Check that every ``cmd:`` program of ``specs`` can run from ``folder``
    (``registry.check_external``).

    Raises:
        UsageError: the message starts with ``--opponents`` and names the program.
    """
    for spec in specs:
        if spec is not None and is_external(spec):
            try:
                check_external(spec, cwd=folder)
            except ConfigurationError as exc:
                raise UsageError(f"--opponents: {exc}") from None


def _engine_folder(record: dict[str, Any]) -> str:
    """The folder a resumed game's ``cmd:`` engines run in: the record's ``agents_folder``
    (the folder the game started in, so that relative paths in the commands mean what they
    meant then), or the current folder for a record without it.

    Raises:
        UsageError: ``agents_folder`` is not a folder name, or that folder no longer exists.
    """
    folder = record.get("agents_folder")
    if folder is None:
        return os.getcwd()
    if not isinstance(folder, str) or not folder or not folder.isprintable():
        raise UsageError(f"the record's agents_folder must be a folder name, got {short_repr(folder)}")
    if not os.path.isdir(folder):
        raise UsageError(
            f"the record's external engines (cmd:) run in the folder {folder} (agents_folder), "
            "which no longer exists: restore it, or resume with --opponents naming other players"
        )
    return folder


def _refuse_record_programs(specs: list[str | None], path: str) -> None:
    """A record never starts a program: refuse a resumed record whose ``agents`` name an
    external engine (``cmd:``), which runs only when ``--opponents`` names it again.

    Raises:
        UsageError: the message names the program and the command that allows it.
    """
    programs = [(s, spec) for s, spec in enumerate(specs) if spec is not None and is_external(spec)]
    if not programs:
        return
    seat, spec = programs[0]
    computers = ",".join(spec for spec in specs if spec is not None)
    if computers.isprintable():
        allow = f"--resume {shlex.quote(path)} --opponents {shlex.quote(computers)}"
    else:
        allow = "--resume FILE --opponents SPEC,..."
    raise UsageError(
        f"{path}: the record asks to run the program {short_repr(spec[4:], 200)} for seat "
        f"{seat + 1}; a record never starts a program by itself: to allow it, name the "
        f"computer players again: {allow}"
    )


def _games_folder() -> Path:
    """The default folder of records (``saving.games_directory``), created if missing.

    Raises:
        UsageError: it cannot be created.
    """
    folder = games_directory()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(
            f"cannot create the folder for saved games {folder}: {exc.strerror or exc} "
            f"(set {DATA_DIR_VARIABLE}, or name a file with --save)"
        ) from None
    return folder


def program_command() -> str:
    """How a person runs this program again, as shell text: ``coloretto`` when that name on
    ``PATH`` is the running program; the quoted absolute path of the running ``coloretto``
    script when it is not on ``PATH`` (e.g. ``.venv/bin/coloretto`` after ``make play``);
    ``PYTHON -m MODULE`` when started with ``python -m``."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    name = getattr(spec, "name", None) or ""
    if name.startswith("coloretto"):
        return f"{shlex.quote(sys.executable)} -m {name.removesuffix('.__main__')}"
    argv0 = sys.argv[0] if sys.argv else ""
    if not os.path.basename(argv0).startswith("coloretto") or not os.path.isfile(argv0):
        return "coloretto"
    running = os.path.abspath(argv0)
    found = shutil.which("coloretto")
    if found is not None and _same_file(Path(found), Path(running)):
        return "coloretto"
    return shlex.quote(running)


def _exists_message(save: Path) -> str:
    return (
        f"--save {save}: the file exists; records are never overwritten (choose another "
        "name, or continue that game with --resume)"
    )


def _close_all(agents: dict[int, Agent]) -> None:
    for agent in agents.values():
        agent.close()


def _remove_if_empty(path: Path) -> None:
    """Remove the file reserved for the record if nothing was saved into it."""
    try:
        if path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass


def _terminal_game(
    args: argparse.Namespace,
    console: Console,
    plan: _Plan,
    agents: dict[int, Agent],
    save: Path,
    hint_budget: Budget,
) -> TerminalGame:
    """The ``TerminalGame`` of ``plan``, reading the person's keys from ``console``."""
    return TerminalGame(
        game=plan.game,
        agents=agents,
        human_seats=list(plan.humans),
        agent_specs=plan.specs,
        save_path=save,
        console=console,
        seed=plan.seed,
        hints=args.hints,
        hint_budget=hint_budget,
        read_line=lambda prompt: console.input(Text(prompt)),
        program=program_command(),
        agents_folder=plan.folder,
    )


__all__ = [
    "DEFAULT_OPPONENT",
    "add_rules_arguments",
    "program_command",
    "register",
    "rules_from_args",
    "run",
    "seat_option",
]
