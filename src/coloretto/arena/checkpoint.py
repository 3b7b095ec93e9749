"""A tournament's checkpoint file: every finished game, so an interrupted run goes on later.

``coloretto tournament --checkpoint FILE`` appends each finished game to ``FILE`` (JSON
lines, flushed and fsynced per game). Run again with the same options, the games already
in the file are not played again: the run goes on where it stopped (after a Ctrl-C, a kill
or a reboot) and its report is the one an uninterrupted run would give (timings aside),
since every game's deal and agents' seeds depend only on the root seed and the game's index
(``coloretto.arena.tournament``). A larger ``--games`` with the same file extends a finished
run: the first deals are the same.

Format ``coloretto-tournament-checkpoint/1``:

- line 1: ``{"format": CHECKPOINT_FORMAT, "tournament": IDENTITY}``, where ``IDENTITY`` is
  ``TournamentConfig.to_json()`` without the game counts (``games``, ``games_requested``,
  ``deals``): the agents, rules, preset, seed, engine secret, budget and engine settings,
  and what each difficulty level among the agents plays with (``levels``: a level that this
  version of coloretto defines otherwise is another player, and its games are refused; a
  file written before levels were recorded is taken without that check);
- every further line: one game, the fields of ``GameResult`` (``dataclasses.asdict``).

A last line without its line break (the process was killed while writing it) is dropped
and cut off before the next game is appended; any other bad line is an error.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Final

from ..engine.errors import ConfigurationError
from .tournament import GameResult, TournamentConfig, plan

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint", "game_problem", "identity", "read_secret"]

CHECKPOINT_FORMAT: Final = "coloretto-tournament-checkpoint/1"

_COUNTS: Final = ("games", "games_requested", "deals")

_HEADER_MAX: Final = 1 << 20
"""Bytes of a file's first line ``read_secret`` reads at most (a header is far shorter)."""


def _line(value: Any) -> bytes:
    """``value`` as one compact JSON line (UTF-8, with its line break)."""
    return (json.dumps(value, separators=(",", ":")) + "\n").encode("utf-8")


def identity(config: TournamentConfig) -> dict[str, Any]:
    """What a checkpoint's games must share with ``config`` to count for it: its JSON form
    without the game counts (module docstring)."""
    return {k: v for k, v in config.to_json().items() if k not in _COUNTS}


_OPTIONS: Final = {
    "agents": "--agents",
    "players": "--players",
    "preset": "--preset",
    "seed": "--seed",
    "engine_secret": "--engine-secret",
    "budget": "--budget",
    "on_engine_failure": "--on-engine-failure",
    "engine_grace_ms": "--engine-grace-ms",
}
"""The option of ``coloretto tournament`` behind each key of ``identity``."""


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return "none" if value is None else str(value)


def _budget_text(budget: Any) -> str | None:
    """An identity's ``budget`` as ``--budget`` takes it (``"0.5s"``, ``"0.5s-cpu"``,
    ``"2000"``); None for no budget."""
    if not isinstance(budget, dict):
        return None
    if budget.get("seconds") is not None:
        cpu = "-cpu" if budget.get("clock") == "cpu" else ""
        return f"{budget['seconds']:g}s{cpu}"
    if budget.get("iterations") is not None:
        return str(budget["iterations"])
    return None


def _level_text(definition: Any) -> str:
    """A ``levels`` entry of an identity as ``"ismcts-value at 30000 iterations"``."""
    if not isinstance(definition, dict):
        return "nothing (not in the agents)"
    spent = [
        f"{definition[k]:g} {unit}"
        for k, unit in (("iterations", "iterations"), ("seconds", "s"))
        if isinstance(definition.get(k), (int, float))
    ]
    return f"{definition.get('agent')} at {' and '.join(spent) or 'its default budget'}"


def _option_phrases(option: str, theirs: str | None, ours: str | None) -> tuple[str, str]:
    """How a checkpoint was made and what this run has for one option, as
    ``("with --seed 4", "5")`` or ``("without --budget", "--budget 1s")``."""
    made = f"without {option}" if theirs is None else f"with {option} {theirs}"
    if ours is None:
        return made, f"no {option}"
    return made, (ours if theirs is not None else f"{option} {ours}")


def _difference(theirs: dict[str, Any], ours: dict[str, Any]) -> tuple[str, str] | None:
    """The first setting in which two identities differ, as how the checkpoint was made and
    what this run has, in the words of the command line (``("with --seed 4", "5")``;
    ``("without --budget", "--budget 1s")``; ``("with the rules' table brown",
    "violet")``); None when they agree."""
    for key in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(key), ours.get(key)
        if a == b:
            continue
        option = _OPTIONS.get(key, key)
        if key == "levels" and isinstance(a, dict) and isinstance(b, dict):
            level = next(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            return (
                f"when {level} played {_level_text(a.get(level))}",
                f"{_level_text(b.get(level))} in this version of coloretto",
            )
        if key == "budget":
            return _option_phrases(option, _budget_text(a), _budget_text(b))
        if isinstance(a, dict) and isinstance(b, dict):
            sub = next(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            owner = "the rules'" if key == "rules" else f"{option}'s"
            return f"with {owner} {sub} {_show(a.get(sub))}", _show(b.get(sub))
        return _option_phrases(
            option, None if a is None else _show(a), None if b is None else _show(b)
        )
    return None


def _header(path: Path, line: str) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != CHECKPOINT_FORMAT:
        raise ConfigurationError(
            f"checkpoint {str(path)!r} is not a tournament checkpoint "
            f"(its first line is not {{\"format\": \"{CHECKPOINT_FORMAT}\", ...}})"
        )
    if not isinstance(head.get("tournament"), dict):
        raise ConfigurationError(f"checkpoint {str(path)!r}: its first line has no tournament")
    return head


def read_secret(path: str | os.PathLike[str]) -> str | None:
    """The engine secret recorded in the checkpoint at ``path`` (None when the file does not
    exist, is empty or its run has no external engines), so that a resumed run with
    external engines deals the same cards.

    A first line without its line break (a header cut while being written, or a file of
    another kind) gives None: ``Checkpoint.resume`` judges the whole file.

    Raises:
        ConfigurationError: the file exists but cannot be read, or is not a tournament
            checkpoint (its first line is not UTF-8 text or not a checkpoint header).
    """
    p = Path(path)
    if not p.is_file():
        return None
    try:
        with p.open("rb") as fh:
            first = fh.readline(_HEADER_MAX)
    except OSError as exc:
        raise ConfigurationError(f"cannot read checkpoint {str(p)!r}: {exc.strerror}") from None
    if not first.endswith(b"\n") or not first.strip():
        return None
    try:
        text = first.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigurationError(
            f"checkpoint {str(p)!r} is not a tournament checkpoint (not UTF-8 text)"
        ) from None
    secret = _header(p, text)["tournament"].get("engine_secret")
    return secret if isinstance(secret, str) else None


_NOT_JSON: Final = object()
"""What ``Checkpoint._game`` checks in place of a line that is not JSON."""

_FIELDS: Final = tuple(f.name for f in dataclasses.fields(GameResult))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    """A finite JSON number (not NaN or infinite, not true/false)."""
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _brief(value: Any) -> str:
    """``value`` as JSON, cut to a readable length."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


_COUNTS_OF_A_GAME: Final = ("index", "deal", "rotation", "deal_seed")

_SEAT_VALUES: Final[tuple[tuple[str, str, Callable[[Any, int], bool]], ...]] = (
    ("entries", "entry numbers from 0 to {last}", lambda v, n: _is_int(v) and 0 <= v < n),
    ("specs", "agent specs (text)", lambda v, n: isinstance(v, str)),
    ("scores", "whole numbers", lambda v, n: _is_int(v)),
    ("win_shares", "numbers from 0 to 1", lambda v, n: _is_number(v) and 0 <= v <= 1),
    ("ranks", "ranks from 1 to {n}", lambda v, n: _is_int(v) and 1 <= v <= n),
    (
        "decision_seconds",
        "lists of seconds (numbers of 0 or more)",
        lambda v, n: isinstance(v, list) and all(_is_number(t) and t >= 0 for t in v),
    ),
)
"""The per-seat fields of a game: name, what each value must be, and its check."""

_FAILURE_TEXTS: Final = ("kind", "detail", "handling")


def _counts_problem(data: dict[str, Any], n: int) -> str | None:
    for name in _COUNTS_OF_A_GAME:
        if not _is_int(data[name]) or data[name] < 0:
            return f"{name!r} must be a whole number of 0 or more, not {_brief(data[name])}"
    if (data["deal"], data["rotation"]) != divmod(data["index"], n):
        return f"'deal' and 'rotation' do not fit 'index' {data['index']} ({n} seats a deal)"
    forfeit = data["forfeit"]
    if forfeit is not None and not (_is_int(forfeit) and 0 <= forfeit < n):
        return f"'forfeit' must be a seat from 0 to {n - 1} or null, not {_brief(forfeit)}"
    if not _is_number(data["seconds"]) or data["seconds"] < 0:
        return f"'seconds' must be a number of 0 or more, not {_brief(data['seconds'])}"
    if data.get("record") is not None and not isinstance(data["record"], dict):
        return f"'record' must be a JSON object or null, not {_brief(data['record'])}"
    return None


def _seats_problem(data: dict[str, Any], n: int) -> str | None:
    for name, what, fits in _SEAT_VALUES:
        value = data[name]
        if not (isinstance(value, list) and len(value) == n and all(fits(v, n) for v in value)):
            kind = what.format(last=n - 1, n=n)
            return f"{name!r} must hold {n} {kind}, one per seat, not {_brief(value)}"
    return None


def _failure_problem(failure: Any, number: int, data: dict[str, Any], n: int) -> str | None:
    where = f"engine failure {number} in 'failures'"
    if not isinstance(failure, dict):
        return f"{where} must be a JSON object, not {_brief(failure)}"
    seat: Any = failure.get("seat")
    if not (_is_int(seat) and 0 <= seat < n):
        return f"{where} must name its 'seat' (0 to {n - 1}), not {_brief(seat)}"
    if failure.get("game") != data["index"] or not _is_int(failure.get("game")):
        return f"{where} must name its 'game' ({data['index']}), not {_brief(failure.get('game'))}"
    if failure.get("entry") != data["entries"][seat] or not _is_int(failure.get("entry")):
        return (
            f"{where} must name the 'entry' of seat {seat} ({data['entries'][seat]}), "
            f"not {_brief(failure.get('entry'))}"
        )
    for name in _FAILURE_TEXTS:
        if not isinstance(failure.get(name), str):
            return f"{where} must give its {name!r} as text, not {_brief(failure.get(name))}"
    return None


def game_problem(data: Any, players: int) -> str | None:
    """What is wrong, in plain words, with ``data`` (one parsed line of a checkpoint) as a
    game of a tournament of ``players`` seats; None for a well-formed game.

    Checked: a JSON object with exactly the fields of ``GameResult`` (``record`` may be
    left out); whole numbers of 0 or more for ``index``, ``deal``, ``rotation`` and
    ``deal_seed``, with ``deal`` and ``rotation`` those of ``index``; one value per seat in
    ``entries``, ``specs``, ``scores``, ``win_shares`` (finite, 0 to 1), ``ranks`` (1 to
    ``players``) and ``decision_seconds`` (lists of finite seconds of 0 or more); a seat or
    null for ``forfeit``; finite ``seconds`` of 0 or more; each engine failure an object
    naming its seat, game, entry, kind, detail and handling. Whether the game is one of a
    given tournament (its deal and seating) is ``Checkpoint.resume``'s check.
    """
    if data is _NOT_JSON:
        return "not a game (not JSON)"
    if not isinstance(data, dict):
        return f"not a game (a JSON object is expected, not {_brief(data)})"
    unknown = [k for k in data if k not in _FIELDS]
    if unknown:
        return f"not a game: unknown field {unknown[0]!r}"
    missing = [k for k in _FIELDS if k not in data and k != "record"]
    if missing:
        return f"not a game: no {missing[0]!r} field"
    problem = _counts_problem(data, players) or _seats_problem(data, players)
    if problem is not None:
        return problem
    if not isinstance(data["failures"], list):
        return f"'failures' must be a list, not {_brief(data['failures'])}"
    for number, failure in enumerate(data["failures"], start=1):
        problem = _failure_problem(failure, number, data, players)
        if problem is not None:
            return problem
    return None


class Checkpoint:
    """The checkpoint file of one tournament run (module docstring).

    ``resume`` reads the games already played (and checks that they belong to ``config``);
    ``append`` adds a finished game; ``close`` closes the file.

    Args:
        path: the file (created with its header line when missing or empty).
        config: the tournament being run.
    """

    def __init__(self, path: str | os.PathLike[str], config: TournamentConfig) -> None:
        self.path = Path(path)
        self.config = config
        self._fh: IO[bytes] | None = None
        self.held = 0
        """Games in the file: after ``resume``, those it found (also those beyond
        ``config.games``), then one more per ``append``."""

    def resume(self) -> list[GameResult]:
        """The games of the file that belong to this run (index below ``config.games``),
        in file order; a torn last line is cut off. The file stays open, locked against
        other runs, for ``append``.

        Raises:
            ConfigurationError: the file cannot be opened for writing, is not a regular file,
                is in use by another run, is not a checkpoint, comes from another tournament
                (the first option that differs is named), or holds a game that is not one
                of this tournament's (wrong deal or seats) or a game twice.
        """
        fh = self._lock()
        try:
            games, keep = self._read(fh)
            if keep == 0:
                fh.truncate(0)
                header = {"format": CHECKPOINT_FORMAT, "tournament": identity(self.config)}
                fh.write(_line(header))
            else:
                fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
        except BaseException:
            fh.close()
            raise
        self._fh = fh
        return games

    def _lock(self) -> IO[bytes]:
        """The file opened for reading and appending (created when missing), with an
        exclusive lock that another run's ``resume`` cannot take."""
        where = f"checkpoint {str(self.path)!r}"
        if self.path.exists() and not self.path.is_file():
            raise ConfigurationError(f"{where} is not a regular file")
        try:
            fh = self.path.open("a+b")
        except OSError as exc:
            raise ConfigurationError(f"{where}: cannot open it for writing: {exc.strerror}") from None
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise ConfigurationError(
                f"{where} is in use by another run (each run needs its own file)"
            ) from None
        return fh

    def _read(self, fh: IO[bytes]) -> tuple[list[GameResult], int]:
        """The games of the open file and the bytes to keep (0: write a new header)."""
        fh.seek(0)
        data = fh.read()
        header = _line({"format": CHECKPOINT_FORMAT, "tournament": identity(self.config)})
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigurationError(
                f"checkpoint {str(self.path)!r} is not a tournament checkpoint (not UTF-8 text)"
            ) from None
        lines = text.split("\n")
        complete = lines[:-1]  # the part after the last line break is torn (or empty)
        if not complete:
            if header.startswith(data):  # empty, or its header was being written
                return [], 0
            _header(self.path, text)  # raises: a file of something else
        self._check_header(complete[0])
        keep = len(complete[0].encode("utf-8")) + 1
        tasks = plan(self.config)
        seen: set[int] = set()
        games: list[GameResult] = []
        for number, line in enumerate(complete[1:], start=2):
            game = self._game(line, number)
            if game.index in seen:
                raise ConfigurationError(
                    f"checkpoint {str(self.path)!r}, line {number}: game {game.index + 1} "
                    "is in the file twice"
                )
            seen.add(game.index)
            keep += len(line.encode("utf-8")) + 1
            if game.index >= self.config.games:
                continue  # a larger earlier run: its later deals are not in this one
            task = tasks[game.index]
            if (game.deal_seed, game.entries, game.specs) != (
                task.deal_seed, list(task.entries), list(task.specs)
            ):
                raise ConfigurationError(
                    f"checkpoint {str(self.path)!r}, line {number}: game {game.index + 1} "
                    "has another deal or seating than this tournament's"
                )
            games.append(game)
        self.held = len(seen)
        return games, keep

    def _check_header(self, line: str) -> None:
        head = _header(self.path, line)
        ours = identity(self.config)
        if isinstance(head["tournament"], dict) and "levels" not in head["tournament"]:
            del ours["levels"]  # written before levels were recorded
        found = _difference(head["tournament"], ours)
        if found is not None:
            made, has = found
            raise ConfigurationError(
                f"checkpoint {str(self.path)!r} holds games of another tournament: it was made "
                f"{made}, this run has {has} (give the same options, or another "
                "--checkpoint file)"
            )

    def _game(self, line: str, number: int) -> GameResult:
        try:
            data = json.loads(line)
        except ValueError:
            data = _NOT_JSON
        problem = game_problem(data, self.config.players)
        if problem is not None:
            raise ConfigurationError(f"checkpoint {str(self.path)!r}, line {number}: {problem}")
        return GameResult(**data)

    def append(self, game: GameResult) -> None:
        """Write ``game`` as one line, flushed and fsynced (``resume`` first)."""
        if self._fh is None:
            raise RuntimeError("Checkpoint.append before resume")
        self._fh.write(_line(dataclasses.asdict(game)))
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.held += 1

    def close(self) -> None:
        """Close the file (nothing is lost: every game was synced when appended). After a
        ``resume``, ``held`` is then counted again from the file's complete lines: an
        interrupt (``KeyboardInterrupt``) that came while a game was being appended may have
        left that game in the file without counting it."""
        if self._fh is None:
            return
        fh, self._fh = self._fh, None
        try:
            fh.flush()
            fh.seek(0)
            self.held = max(0, fh.read().count(b"\n") - 1)
        except OSError:
            pass  # the count kept by append stands
        finally:
            fh.close()
