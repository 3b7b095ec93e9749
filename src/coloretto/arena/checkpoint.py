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
  ``deals``): the agents, rules, preset, seed, engine secret, budget and engine settings;
- every further line: one game, the fields of ``GameResult`` (``dataclasses.asdict``).

A last line without its line break (the process was killed while writing it) is dropped
and cut off before the next game is appended; any other bad line is an error.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
from pathlib import Path
from typing import IO, Any, Final

from ..engine.errors import ConfigurationError
from .tournament import GameResult, TournamentConfig, plan

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint", "identity", "read_secret"]

CHECKPOINT_FORMAT: Final = "coloretto-tournament-checkpoint/1"

_COUNTS: Final = ("games", "games_requested", "deals")


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


def _difference(theirs: dict[str, Any], ours: dict[str, Any]) -> tuple[str, str, str] | None:
    """The first setting in which two identities differ, as ``(what, theirs, ours)`` in
    the words of the command line (``"--seed", "4", "5"``; ``"the rules' table", "brown",
    "violet"``); None when they agree."""
    for key in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(key), ours.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            sub = next(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            owner = "the rules'" if key == "rules" else f"{_OPTIONS.get(key, key)}'s"
            return f"{owner} {sub}", _show(a.get(sub)), _show(b.get(sub))
        return _OPTIONS.get(key, key), _show(a), _show(b)
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

    Raises:
        ConfigurationError: the file exists but is not a tournament checkpoint.
    """
    p = Path(path)
    if not p.is_file():
        return None
    with p.open(encoding="utf-8") as fh:
        first = fh.readline()
    if not first.strip():
        return None
    secret = _header(p, first)["tournament"].get("engine_secret")
    return secret if isinstance(secret, str) else None


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
                    f"checkpoint {str(self.path)!r} line {number}: game {game.index + 1} "
                    "is in the file twice"
                )
            seen.add(game.index)
            keep += len(line.encode("utf-8")) + 1
            if game.index >= self.config.games:
                continue  # a larger earlier run: its later deals are not in this one
            task = tasks[game.index]
            if (game.deal_seed, game.entries) != (task.deal_seed, list(task.entries)):
                raise ConfigurationError(
                    f"checkpoint {str(self.path)!r} line {number}: game {game.index + 1} "
                    "has another deal or seating than this tournament's"
                )
            games.append(game)
        self.held = len(seen)
        return games, keep

    def _check_header(self, line: str) -> None:
        head = _header(self.path, line)
        found = _difference(head["tournament"], identity(self.config))
        if found is not None:
            what, theirs, ours = found
            raise ConfigurationError(
                f"checkpoint {str(self.path)!r} holds games of another tournament: it was made "
                f"with {what} {theirs}, this run has {ours} (give the same options, or another "
                "--checkpoint file)"
            )

    def _game(self, line: str, number: int) -> GameResult:
        try:
            return GameResult(**json.loads(line))
        except (ValueError, TypeError) as exc:
            raise ConfigurationError(
                f"checkpoint {str(self.path)!r} line {number} is not a game: {exc}"
            ) from None

    def append(self, game: GameResult) -> None:
        """Write ``game`` as one line, flushed and fsynced (``resume`` first)."""
        if self._fh is None:
            raise RuntimeError("Checkpoint.append before resume")
        self._fh.write(_line(dataclasses.asdict(game)))
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.held += 1

    def close(self) -> None:
        """Close the file (nothing is lost: every game was synced when appended)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
