"""Seat tokens can follow ``--token`` on a command line: none starts with ``-`` (one in 64
of ``secrets.token_urlsafe`` would, and argparse then reads it as an option)."""

from __future__ import annotations

from coloretto.cli.main import build_parser
from coloretto.server.store import new_seat_token


def test_no_seat_token_starts_with_a_dash_and_each_parses_after_token() -> None:
    tokens = [new_seat_token() for _ in range(2000)]
    assert len(set(tokens)) == len(tokens) and {len(t) for t in tokens} == {32}
    assert not [t for t in tokens if t.startswith("-")]
    parser = build_parser()
    for token in tokens[:200]:
        args = parser.parse_args(["connect", "http://h/table/x", "--token", token, "--engine", "e"])
        assert args.token == token
