"""The one observer: what a seat may know (docs/engine-protocol.md
``coloretto-observation/1``).

The only secret in Coloretto is the order of the draw pile (which also hides which cards lie
under the Last Round card) and the deals of later games of a match. An ``Observation`` holds
a *redacted* copy of the state: the draw pile's cards sorted (the Last Round card kept at its
depth), later setups removed. Everything sent to an agent, a web client or a log is built
from it; search code may sample full states consistent with it (``sample_state``). An agent
fed over the wire rebuilds the observation from its JSON form (``Observation.from_json``).

>>> from coloretto.engine import Rules, new_game
>>> obs = observe(new_game(Rules(players=4), seed=8), seat=2)
>>> data = obs.to_json()
>>> data["format"], data["decision"], data["draw_pile"]
('coloretto-observation/1', 'turn', 72)
>>> Observation.from_json(data).to_json() == data
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .cards import (
    CARD_NAMES,
    CARDS_PER_COLOR,
    COLLECTION_SIZE,
    COLORS,
    GOLDEN_JOKER,
    JOKER,
    LAST_ROUND,
    NUM_COLORS,
    NUM_PLUS2,
    PLUS2,
    card_code,
    color_code,
)
from .domain import Decision, Phase
from .errors import ConfigurationError, InvalidObservationError
from .jsontypes import json_type
from .rules import Rules
from .seeds import Rng
from .setup import Setup, deal, pile_composition
from .state import CHOOSE, NO_CARD, UNTAKEN, GameState

OBSERVATION_FORMAT = "coloretto-observation/1"


def redact(state: GameState) -> GameState:
    """A copy of ``state`` without its secrets: draw pile cards in a canonical order with the
    Last Round card at the same depth, the current setup's pile order and shuffle seed and
    every later game's setup removed. Two states that differ only in those secrets redact to
    equal states."""
    red = state.copy()
    pile = red.pile
    if state.last_round or LAST_ROUND not in pile:
        red.pile = sorted(pile)
    else:
        depth = pile.index(LAST_ROUND)
        rest = sorted(c for c in pile if c != LAST_ROUND)
        red.pile = rest[:depth] + [LAST_ROUND] + rest[depth:]
    setups: list[Setup | None] = [None] * len(state.setups)
    current = state.setups[state.game]
    if current is not None:
        setups[state.game] = _public_setup(current)
    for g in range(state.game):
        setups[g] = state.setups[g]
    red.setups = setups
    return red


_PUBLIC_SETUPS: dict[int, tuple[Setup, Setup]] = {}
_PUBLIC_SETUPS_MAX = 4096


def _public_setup(setup: Setup) -> Setup:
    """``setup`` without its draw pile and shuffle seed (memoised: redaction is on the hot
    path of every agent decision). The cache holds the setup itself, so its id stays unique
    while cached."""
    hit = _PUBLIC_SETUPS.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    if len(_PUBLIC_SETUPS) >= _PUBLIC_SETUPS_MAX:
        _PUBLIC_SETUPS.clear()
    public = replace(setup, draw_pile=None, shuffle_seed=None)
    _PUBLIC_SETUPS[id(setup)] = (setup, public)
    return public


class Observation:
    """What ``seat`` may know of a state.

    Attributes:
        seat: the observing seat.
        state: the redacted state (see ``redact``); safe to read, copy and search from.
    """

    __slots__ = ("_json", "seat", "state")

    def __init__(self, state: GameState, seat: int) -> None:
        """Observe ``state`` from ``seat`` (0..players-1).

        Raises:
            ValueError: ``seat`` is not a seat of the game.
        """
        if not 0 <= seat < state.n:
            raise ValueError(f"seat {seat} is not a seat of a {state.n}-player game")
        self.seat = seat
        self.state = redact(state)
        self._json: dict[str, Any] | None = None

    # Convenience views of the redacted state -------------------------------------------------
    @property
    def to_move(self) -> int:
        """Seat to decide now, or -1 when over."""
        return self.state.to_move

    @property
    def decision(self) -> Decision:
        """``"turn"``, ``"place"``, ``"choose_start"`` or ``"over"``."""
        return self.state.decision

    def unseen(self) -> dict[int, int]:
        """Composition of the cards not yet seen (the draw pile's content; in the choosing
        phase, what the choices leave): card code -> count, Last Round card excluded."""
        st = self.state
        if st.phase == CHOOSE:
            setup = st.setups[st.game]
            removed = setup.removed_colors if setup is not None else ()
            comp = pile_composition(st.rules, removed, [st.chosen])
            return dict(sorted(comp.items()))
        counts: dict[int, int] = {}
        for c in st.pile:
            if c != LAST_ROUND:
                counts[c] = counts.get(c, 0) + 1
        return dict(sorted(counts.items()))

    def sample_state(self, rng: Rng) -> GameState:
        """A full state consistent with this observation: the unseen cards shuffled with the
        Last Round card at its known depth; later games of a match dealt afresh. Search uses
        it to handle chance without reading the real order.

        The draws from ``rng`` (``engine.seeds.Rng``), in order: ``rng.shuffle`` of the
        pile's cards other than the Last Round card (bottom first, as ``GameState.pile``);
        in the choosing phase a new ``shuffle_seed = rng.next_u64() >> 1``; then one seed
        ``rng.next_u64() >> 1`` per later game of the match, dealt with ``deal``."""
        st = self.state.copy()
        pile = st.pile
        if LAST_ROUND in pile:
            depth = pile.index(LAST_ROUND)
            rest = [c for c in pile if c != LAST_ROUND]
            rng.shuffle(rest)
            st.pile = rest[:depth] + [LAST_ROUND] + rest[depth:]
        else:
            rng.shuffle(pile)
        setups = list(st.setups)
        current = setups[st.game]
        if current is not None and st.phase == CHOOSE:
            setups[st.game] = replace(
                current, shuffle_seed=rng.next_u64() >> 1, shuffler="coloretto-rng/1"
            )
        for g in range(st.game + 1, len(setups)):
            setups[g] = deal(st.rules, rng.next_u64() >> 1)
        st.setups = setups
        return st

    def to_json(self) -> dict[str, Any]:
        """The ``coloretto-observation/1`` JSON object (docs/engine-protocol.md), cached."""
        if self._json is None:
            self._json = observation_json(self.state, self.seat, self.unseen())
        return self._json

    @classmethod
    def from_json(cls, data: Any) -> Observation:
        """The observation whose JSON form is ``data`` (the inverse of ``to_json``): for
        agents fed the ``coloretto-observation/1`` object over the wire.

        The rebuilt state has everything the JSON says, so ``from_json(d).to_json() == d``
        and its legal actions, scores and ``sample_state`` are those of the observation it
        came from. What the JSON does not carry is rebuilt canonically: the draw pile in card
        code order with the Last Round card at its depth (K cards under it, or set aside
        once it came up), the cards removed at round ends in card code order, no starting
        cards in the setup, and no setups or ``results`` of the other games of a match.

        Raises:
            InvalidObservationError: ``data`` is not a ``coloretto-observation/1`` object
                consistent with its rules (the message names the field).

        >>> from coloretto.engine import Rules, new_game
        >>> obs = observe(new_game(Rules(players=2), seed=4), seat=1)
        >>> again = Observation.from_json(obs.to_json())
        >>> again.seat, again.state.legal_codes() == obs.state.legal_codes()
        (1, True)
        """
        try:
            return _observation_from_json(data)
        except InvalidObservationError:
            raise
        except RecursionError:
            raise InvalidObservationError("a value in the observation is nested too deeply") from None
        except (ConfigurationError, ValueError, TypeError, KeyError, IndexError) as exc:
            raise InvalidObservationError(f"not a valid {OBSERVATION_FORMAT} object: {exc}") from None


def observation_json(state: GameState, seat: int, unseen: dict[int, int]) -> dict[str, Any]:
    """Build the JSON form; ``state`` must already be redacted (see ``Observation``)."""
    in_play = state.in_play
    collections = []
    for col in state.coll:
        collections.append(
            {
                "colors": {COLORS[c]: col[c] for c in range(NUM_COLORS) if col[c]},
                "jokers": col[JOKER],
                "golden_jokers": col[GOLDEN_JOKER],
                "plus2": col[PLUS2],
            }
        )
    setup = state.setups[state.game]
    return {
        "format": OBSERVATION_FORMAT,
        "rules": state.rules.to_dict(),
        "seat": seat,
        "to_move": state.to_move,
        "decision": state.decision,
        "drawn_card": CARD_NAMES[state.drawn] if state.drawn != NO_CARD else None,
        "round": state.round,
        "draw_pile": state.cards_left(),
        "last_round": state.last_round,
        "colors": [COLORS[c] for c in in_play],
        "rows": [
            {
                "capacity": state.caps[r],
                "cards": [CARD_NAMES[c] for c in state.rows[r]],
                "taken_by": None if state.row_taker[r] == UNTAKEN else state.row_taker[r],
            }
            for r in range(state.nrows)
        ],
        "out": state.out[:],
        "collections": collections,
        "scores": state.scores(),
        "unseen": {CARD_NAMES[c]: k for c, k in unseen.items()},
        "game": state.game + 1,
        "match_totals": state.match_totals[:],
        "removed_colors": [COLORS[c] for c in (setup.removed_colors if setup else ())],
        "first_player": setup.first_player if setup else None,
        "chosen_start": [COLORS[c] for c in state.chosen],
    }


def observe(state: GameState, seat: int) -> Observation:
    """The observation of ``state`` by ``seat`` (see ``Observation``)."""
    return Observation(state, seat)


# ----- from JSON ------------------------------------------------------------------------------
def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise InvalidObservationError(f"the observation has no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidObservationError(f"the observation's {key!r} has the wrong type: {value!r:.80}")
    return value


def _seat_or_none(value: Any, n: int, what: str) -> int:
    if value is None:
        return UNTAKEN
    if type(value) is not int or not 0 <= value < n:
        raise InvalidObservationError(f"{what} must be a seat 0..{n - 1} or null, not {value!r:.80}")
    return value


def _observation_from_json(data: Any) -> Observation:
    if not isinstance(data, dict):
        raise InvalidObservationError(f"an observation must be a JSON object, not {json_type(data)}")
    if data.get("format") != OBSERVATION_FORMAT:
        raise InvalidObservationError(f"format must be {OBSERVATION_FORMAT!r}, got {data.get('format')!r:.80}")
    rules = Rules.from_dict(_field(data, "rules", dict))
    n = rules.players
    seat = _field(data, "seat", int)
    if not 0 <= seat < n:
        raise InvalidObservationError(f"seat {seat} is not a seat of a {n}-player game")
    phase = Phase.from_decision(_field(data, "decision", str))
    in_play = tuple(sorted(color_code(c) for c in _field(data, "colors", list)))
    removed = tuple(sorted(color_code(c) for c in _field(data, "removed_colors", list)))
    if len(in_play) != rules.colors_in_play or set(in_play) & set(removed):
        raise InvalidObservationError(f"'colors' {in_play} and 'removed_colors' {removed} do not fit the rules")
    game = _field(data, "game", int) - 1
    if not 0 <= game < rules.match_games:
        raise InvalidObservationError(f"game {game + 1} is not a game of a {rules.match_games}-game match")
    rows_json = _field(data, "rows", list)
    caps = rules.capacities
    if len(rows_json) != len(caps):
        raise InvalidObservationError(f"{len(rows_json)} rows, the rules have {len(caps)}")
    rows: list[list[int]] = []
    taker: list[int] = []
    for r, row in enumerate(rows_json):
        if not isinstance(row, dict) or row.get("capacity") != caps[r]:
            raise InvalidObservationError(f"row {r} must be an object with capacity {caps[r]}")
        cards = [card_code(c) for c in _field(row, "cards", list)]
        if len(cards) > caps[r] or LAST_ROUND in cards:
            raise InvalidObservationError(f"row {r} holds {len(cards)} cards or the Last Round card")
        rows.append(cards)
        taker.append(_seat_or_none(row.get("taken_by"), n, f"row {r}'s taken_by"))
    out = [bool(x) for x in _field(data, "out", list)]
    coll = [_collection(c) for c in _field(data, "collections", list)]
    totals = _field(data, "match_totals", list)
    if len(out) != n or len(coll) != n or len(totals) != n or not all(type(t) is int for t in totals):
        raise InvalidObservationError(f"'out', 'collections' and 'match_totals' need one entry per seat ({n})")
    chosen = [color_code(c) for c in _field(data, "chosen_start", list)]
    drawn_name = data.get("drawn_card")
    drawn = NO_CARD if drawn_name is None else card_code(drawn_name)
    unseen = Counter({card_code(k): v for k, v in _field(data, "unseen", dict).items()})
    if not all(type(v) is int and v >= 0 for v in unseen.values()) or unseen[LAST_ROUND]:
        raise InvalidObservationError("'unseen' must count cards other than the Last Round card")
    last_round = _field(data, "last_round", bool)
    first = data.get("first_player")
    if type(first) is not int or not 0 <= first < n:
        raise InvalidObservationError(f"first_player must be a seat 0..{n - 1}, not {first!r:.80}")

    st = GameState.__new__(GameState)
    st.rules = rules
    st.n = n
    st.caps = caps
    st.nrows = len(caps)
    setups: list[Setup | None] = [None] * rules.match_games
    setups[game] = Setup(removed, None, first, None, None)
    st.setups = setups
    st.game = game
    st.round = _field(data, "round", int)
    st.phase = phase
    st.to_move = _field(data, "to_move", int)
    st.drawn = drawn
    st.last_round = last_round
    st.rows = rows
    st.row_taker = taker
    st.out = out
    st.active = n - sum(out)
    st.coll = coll
    st.takes = sum(1 for t in taker if t != UNTAKEN)
    st.last_taker = st.to_move if st.to_move >= 0 else first
    st.match_totals = list(totals)
    st.chosen = chosen
    st.in_play = in_play
    st.results = ()
    st._table = rules.score_table
    st._neg = rules.negative_factor
    st._jokers_any = rules.joker_any_color
    st._first_out = rules.extra_card == "first_out_draws"
    st._ev = None
    if phase == CHOOSE:
        st.pile = []
        st.removed = []
    else:
        cards = sorted(unseen.elements())
        if len(cards) != _field(data, "draw_pile", int):
            raise InvalidObservationError(
                f"'unseen' counts {len(cards)} cards, 'draw_pile' says {data['draw_pile']}"
            )
        if last_round:
            st.pile = cards
        else:
            depth = min(rules.cards_under_last_round, len(cards))
            st.pile = cards[:depth] + [LAST_ROUND] + cards[depth:]
        st.removed = _removed_cards(st, removed)
    if phase == Phase.OVER:
        st.to_move = -1
    elif not 0 <= st.to_move < n:
        raise InvalidObservationError(f"to_move must be a seat 0..{n - 1}, not {st.to_move}")
    obs = Observation.__new__(Observation)
    obs.seat = seat
    obs.state = st
    obs._json = None
    return obs


def _collection(data: Any) -> list[int]:
    """10 counts by card code from a collection object of the observation."""
    if not isinstance(data, dict):
        raise InvalidObservationError(f"a collection must be an object, not {data!r:.80}")
    col = [0] * COLLECTION_SIZE
    for name, k in _field(data, "colors", dict).items():
        col[color_code(name)] = k
    col[JOKER] = _field(data, "jokers", int)
    col[GOLDEN_JOKER] = _field(data, "golden_jokers", int)
    col[PLUS2] = _field(data, "plus2", int)
    if not all(type(k) is int and k >= 0 for k in col):
        raise InvalidObservationError(f"collection counts must be non-negative integers: {data!r:.80}")
    return col


def _removed_cards(st: GameState, removed_colors: tuple[int, ...]) -> list[int]:
    """The cards removed at round ends: the game's cards not seen anywhere else, in card
    code order (the observation gives no order).

    Raises:
        InvalidObservationError: more cards are visible than the game has.
    """
    rules = st.rules
    deck: Counter[int] = Counter()
    for c in range(NUM_COLORS):
        if c not in removed_colors:
            deck[c] = CARDS_PER_COLOR
    deck[JOKER] = rules.jokers
    deck[GOLDEN_JOKER] = rules.golden_jokers
    deck[PLUS2] = NUM_PLUS2
    seen: Counter[int] = Counter(c for c in st.pile if c != LAST_ROUND)
    for row in st.rows:
        seen.update(row)
    for col in st.coll:
        for code, k in enumerate(col):
            seen[code] += k
    if st.drawn != NO_CARD:
        seen[st.drawn] += 1
    if seen - deck:
        raise InvalidObservationError(f"the observation shows cards the game does not have: {dict(seen - deck)}")
    return sorted((deck - seen).elements())
