"""The game state and its transitions (docs/rules.md §3 to §5).

``GameState`` is plain integer data (lists of small ints) with explicit transitions:
``apply`` checks an action, mutates the state and returns the ``Step`` saying what happened;
``apply_code`` is the unchecked fast path for search (it records nothing); ``child`` returns
a changed copy; ``copy`` is cheap (no deep copies). Search code keeps the old state as its
undo.

Everything random is fixed by the ``Setup`` of each game (docs/rules.md §2); the engine itself
draws random numbers only through ``engine.seeds`` when it deals (``new_game``) or shuffles a
chosen-start pile from its seed.

>>> from coloretto.engine import Rules, new_game
>>> state = new_game(Rules(players=3), seed=11)
>>> state.decision, state.round, state.cards_left()
('turn', 1, 64)
>>> step = state.apply(state.legal_actions()[0])
>>> step.action.kind, step.drawn is not None, state.decision
('draw', True, 'place')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from . import actions as A
from .actions import CHOOSE0, DRAW, PLACE0, TAKE0, Action
from .cards import (
    COLLECTION_SIZE,
    GOLDEN_JOKER,
    LAST_ROUND,
    NUM_COLORS,
)
from .domain import DECISIONS, Decision, Phase
from .errors import ConfigurationError, IllegalActionError
from .rules import Rules
from .scoring import ScoreBreakdown, allowed_joker_colors, collection_total, score_collection
from .seeds import GAME, MATCH_GAME, PILE, Rng, derive_seed
from .setup import (
    Setup,
    build_pile,
    build_pile_python_random,
    check_pile,
    check_setup,
    pile_composition,
)
from .step import GameResult, Step

TURN: Final = Phase.TURN
"""Decision: draw or take a row."""
PLACE: Final = Phase.PLACE
"""Decision: choose the row for the drawn card."""
CHOOSE: Final = Phase.CHOOSE
"""Decision: choose a starting colour (``starting_cards="choose"``)."""
OVER: Final = Phase.OVER
"""The game (or match) is over."""
PHASE_NAMES: Final = DECISIONS
"""The decision word of each phase, indexed by ``Phase``."""

NO_CARD: Final = -1
"""``GameState.drawn`` when no card waits to be placed."""
UNTAKEN: Final = -1
"""``GameState.row_taker[r]`` of a row nobody took this round."""


class _Events:
    """Scratch record of one checked ``apply``: the rare branches of the transition (Last
    Round card, bonus cards, leaving, round and game ends) note what they do here when a
    recorder is attached (``GameState._ev``); ``apply_code`` attaches none."""

    __slots__ = ("bonus", "game_over", "last_round", "left", "removed", "round_over")

    def __init__(self) -> None:
        self.bonus: list[int] = []
        self.last_round = False
        self.left: list[int] = []
        self.removed: list[int] = []
        self.round_over = False
        self.game_over = False


class GameState:
    """One position of a game or match of Coloretto.

    Public attributes (read them; change them only through ``apply``):
        rules: the ``Rules``.
        n: number of seats.
        caps: row capacities, in table order.
        setups: one ``Setup`` per game of the match (future ones may be ``None`` in a
            state rebuilt from an observation).
        game: index of the current game in the match (0-based).
        round: current round of the current game (1-based).
        phase: ``TURN``, ``PLACE``, ``CHOOSE`` or ``OVER``.
        to_move: seat to decide now (``-1`` when over).
        drawn: the drawn card waiting to be placed, or ``NO_CARD``.
        pile: the draw pile, **bottom first** (the top is ``pile[-1]``), with ``LAST_ROUND``.
        last_round: the Last Round card has appeared.
        rows: cards in each row (card codes); a taken row is emptied.
        row_taker: seat that took each row this round, or ``UNTAKEN``.
        out: per seat, has left the current round.
        active: seats still in the round.
        coll: per seat, the collection: 10 counts indexed by card code (cards.py).
        last_taker: seat that last took a row (or left the round) this game.
        takes: rows taken this round.
        removed: cards removed from the game at the end of rounds (codes).
        match_totals: per seat, totals of the finished games of the match.
        chosen: starting colours chosen so far (choose mode), in choice order.
        results: one ``GameResult`` per finished game of the match, in order: each seat's
            final collection, the colours in play and the scores of that game (the live
            collections are those of the current game; in a match they restart empty).
    """

    __slots__ = (
        "_ev",
        "_first_out",
        "_jokers_any",
        "_neg",
        "_table",
        "active",
        "caps",
        "chosen",
        "coll",
        "drawn",
        "game",
        "in_play",
        "last_round",
        "last_taker",
        "match_totals",
        "n",
        "nrows",
        "out",
        "phase",
        "pile",
        "removed",
        "results",
        "round",
        "row_taker",
        "rows",
        "rules",
        "setups",
        "takes",
        "to_move",
    )

    rules: Rules
    n: int
    caps: tuple[int, ...]
    nrows: int
    setups: list[Setup | None]
    game: int
    round: int
    phase: Phase
    to_move: int
    drawn: int
    pile: list[int]
    last_round: bool
    rows: list[list[int]]
    row_taker: list[int]
    out: list[bool]
    active: int
    coll: list[list[int]]
    last_taker: int
    takes: int
    removed: list[int]
    match_totals: list[int]
    chosen: list[int]
    in_play: tuple[int, ...]
    results: tuple[GameResult, ...]
    _table: tuple[int, ...]
    _neg: int
    _jokers_any: bool
    _first_out: bool
    _ev: _Events | None

    # ----- construction ------------------------------------------------------------------
    def __init__(
        self, rules: Rules, setups: Sequence[Setup | None], *, _dealt: bool = False
    ) -> None:
        """Start a game (or match) under ``rules`` with one ``Setup`` per game.

        ``_dealt`` is for ``new_game`` only: its setups come from ``deal``, valid by
        construction, so the check is skipped (it is inside every timed playout).

        Raises:
            ConfigurationError: the number of setups is not ``rules.match_games``, or a
                setup is inconsistent with the rules (removed colours, first player, starting
                cards, draw pile composition or Last Round depth; docs/rules.md §2, §7). Every
                game's setup of a match is checked here, before the first turn.
        """
        if len(setups) != rules.match_games:
            raise ConfigurationError(
                f"a match of {rules.match_games} game(s) needs that many setups, got {len(setups)}"
            )
        self.rules = rules
        self.n = rules.players
        self.caps = rules.capacities
        self.nrows = len(self.caps)
        self.setups = list(setups)
        self._table = rules.score_table
        self._neg = rules.negative_factor
        self._jokers_any = rules.joker_any_color
        self._first_out = rules.extra_card == "first_out_draws"
        for g, setup in enumerate(self.setups):
            if setup is not None and not _dealt:
                try:
                    check_setup(rules, setup)
                except ConfigurationError as exc:
                    if rules.match_games == 1:
                        raise
                    raise ConfigurationError(f"game {g + 1} of the match: {exc}") from None
        self.match_totals = [0] * self.n
        self.results = ()
        self._ev = None
        self.game = 0
        self._start_game()

    def _start_game(self) -> None:
        setup = self.setups[self.game]
        if setup is None:
            raise ConfigurationError(f"game {self.game + 1} of the match has no setup")
        rules = self.rules
        self.in_play = setup.colors_in_play
        self.coll = [[0] * COLLECTION_SIZE for _ in range(self.n)]
        self.rows = [[] for _ in range(self.nrows)]
        self.row_taker = [UNTAKEN] * self.nrows
        self.out = [False] * self.n
        self.active = self.n
        self.round = 1
        self.drawn = NO_CARD
        self.last_round = False
        self.removed = []
        self.takes = 0
        self.last_taker = setup.first_player
        self.chosen = []
        self.to_move = setup.first_player
        if rules.starting_cards == "choose":
            self.pile = []
            self.phase = CHOOSE
            return
        assert setup.starting_cards is not None  # check_setup in __init__
        for seat, cards in enumerate(setup.starting_cards):
            for c in cards:
                self.coll[seat][c] += 1
        self.pile = self._make_pile(setup, setup.starting_cards)
        self.phase = TURN

    def _make_pile(self, setup: Setup, starting: Sequence[Sequence[int]]) -> list[int]:
        """The draw pile, bottom first: the setup's (already checked by ``check_setup`` when
        the starting cards were dealt; checked here against chosen ones) or shuffled from its
        seed after the choices (docs/rules.md §2 step 3).

        Raises:
            ConfigurationError: a given pile does not hold what the chosen cards leave.
        """
        if setup.draw_pile is not None:
            if setup.starting_cards is None:
                comp = pile_composition(self.rules, setup.removed_colors, starting)
                check_pile(self.rules, setup.draw_pile, comp)
            return list(reversed(setup.draw_pile))
        seed = setup.shuffle_seed
        if seed is None:
            raise ConfigurationError("the setup gives neither a draw pile nor a shuffle seed")
        comp = pile_composition(self.rules, setup.removed_colors, starting)
        if setup.shuffler == "python-random":
            pile = build_pile_python_random(self.rules, comp, seed)
        else:
            pile = build_pile(self.rules, comp, Rng(derive_seed(seed, PILE)))
        return list(reversed(pile))

    def copy(self) -> GameState:
        """An independent copy (lists copied; rules and setups shared, being immutable)."""
        new = GameState.__new__(GameState)
        new.rules = self.rules
        new.n = self.n
        new.caps = self.caps
        new.nrows = self.nrows
        new.setups = self.setups
        new.game = self.game
        new.round = self.round
        new.phase = self.phase
        new.to_move = self.to_move
        new.drawn = self.drawn
        new.pile = self.pile[:]
        new.last_round = self.last_round
        new.rows = [r[:] for r in self.rows]
        new.row_taker = self.row_taker[:]
        new.out = self.out[:]
        new.active = self.active
        new.coll = [c[:] for c in self.coll]
        new.last_taker = self.last_taker
        new.takes = self.takes
        new.removed = self.removed[:]
        new.match_totals = self.match_totals[:]
        new.chosen = self.chosen[:]
        new.in_play = self.in_play
        new.results = self.results
        new._table = self._table
        new._neg = self._neg
        new._jokers_any = self._jokers_any
        new._first_out = self._first_out
        new._ev = None
        return new

    __copy__ = copy

    # ----- queries -----------------------------------------------------------------------
    @property
    def decision(self) -> Decision:
        """The decision to make: ``"turn"``, ``"place"``, ``"choose_start"`` or ``"over"``."""
        return PHASE_NAMES[self.phase]

    def is_over(self) -> bool:
        """True when the game (every game of a match) has ended."""
        return self.phase == OVER

    def cards_left(self) -> int:
        """Cards in the draw pile, the Last Round card not counted."""
        return len(self.pile) - (0 if self.last_round or not self.pile else 1)

    def legal_codes(self) -> list[int]:
        """Integer codes (actions.py) of the legal actions, ascending; empty when over.

        >>> from coloretto.engine import Rules, new_game
        >>> new_game(Rules(players=4), seed=3).legal_codes()  # only drawing: every row is empty
        [0]
        """
        phase = self.phase
        if phase == TURN:
            rows = self.rows
            caps = self.caps
            # Drawing needs a card (the Last Round card aside) and an untaken row with room.
            pile_ok = len(self.pile) > (0 if self.last_round else 1)
            codes: list[int] = [DRAW] if pile_ok else []
            room = False
            r = 0
            for taken_by in self.row_taker:
                if taken_by == UNTAKEN:
                    row = rows[r]
                    if row:
                        codes.append(TAKE0 + r)
                        if not room and len(row) < caps[r]:
                            room = True
                    else:
                        room = True
                r += 1  # noqa: SIM113 (a counter is faster than enumerate here)
            if pile_ok and not room:
                del codes[0]
            return codes
        if phase == PLACE:
            rows = self.rows
            caps = self.caps
            taker = self.row_taker
            return [
                PLACE0 + r
                for r in range(self.nrows)
                if taker[r] == UNTAKEN and len(rows[r]) < caps[r]
            ]
        if phase == CHOOSE:
            return [CHOOSE0 + c for c in self.in_play if c not in self.chosen]
        return []

    def legal_actions(self) -> list[Action]:
        """The legal actions, in code order; empty when the game is over (docs/rules.md §3).

        >>> from coloretto.engine import Rules, new_game
        >>> [str(a) for a in new_game(Rules(players=2), seed=5).legal_actions()]
        ['draw']
        """
        all_actions = A.ALL_ACTIONS
        return [all_actions[c] for c in self.legal_codes()]

    def legal_mask(self) -> list[bool]:
        """Action mask of length ``NUM_DISTINCT_ACTIONS`` (always present, pgx style):
        ``mask[code]`` is true exactly for the legal codes.

        >>> from coloretto.engine import Rules, new_game
        >>> mask = new_game(Rules(players=4), seed=3).legal_mask()
        >>> len(mask), mask[0], sum(mask)
        (20, True, 1)
        """
        mask = [False] * A.NUM_DISTINCT_ACTIONS
        for c in self.legal_codes():
            mask[c] = True
        return mask

    def joker_targets(self, seat: int) -> tuple[int, ...]:
        """Colours a joker of ``seat`` may be assigned to now (``scoring.allowed_joker_colors``:
        docs/rules.md §6.1, ``joker_any_color``)."""
        return allowed_joker_colors(self.coll[seat], self._jokers_any, self.in_play)

    def score(self, seat: int) -> int:
        """``seat``'s optimal score of its current collection (docs/rules.md §6)."""
        return collection_total(self.coll[seat], self.rules, self.in_play)

    def scores(self) -> list[int]:
        """Every seat's live optimal score for the current game."""
        return [self.score(s) for s in range(self.n)]

    def breakdown(self, seat: int) -> ScoreBreakdown:
        """``seat``'s optimal score with its breakdown (docs/rules.md §6.4)."""
        return score_collection(self.coll[seat], self.rules, self.in_play)

    def totals(self) -> list[int]:
        """Match totals: finished games plus the current game's live scores (one game: the
        live scores). When the game is over these are the final results."""
        if self.phase == OVER:
            return self.match_totals[:]
        return [t + s for t, s in zip(self.match_totals, self.scores())]

    def winners(self) -> list[int]:
        """Seats with the highest total; ties share the win (docs/rules.md §6.5)."""
        totals = self.totals()
        best = max(totals)
        return [s for s, t in enumerate(totals) if t == best]

    def ranks(self) -> list[int]:
        """Competition ranks by total (1 = best; tied seats share a rank, e.g. 1, 2, 2, 4)."""
        totals = self.totals()
        return [1 + sum(1 for u in totals if u > t) for t in totals]

    # ----- transitions -------------------------------------------------------------------
    def apply(self, action: Action | int) -> Step:
        """Apply ``action`` (an ``Action`` or its integer code) for the seat to move, after
        checking that it is legal, and return the ``Step`` saying what it did (the card a
        draw revealed, bonus cards, the Last Round card, seats leaving, round and game ends).

        Raises:
            IllegalActionError: the action is not legal now; the message and ``rule`` say
                which rule forbids it. Also for a value that is no action at all (an
                ``Action`` with an out-of-range row or colour, a code outside 0..19, a bool),
                with ``rule`` ``"docs/engine-protocol.md actions"``. The state is unchanged.

        >>> from coloretto.engine import Rules, new_game
        >>> state = new_game(Rules(players=4), seed=3)
        >>> draw = state.apply(0)
        >>> draw.seat == state.to_move and draw.drawn == state.drawn
        True
        >>> place = state.apply(1)  # the drawn card goes to row 0
        >>> place.placed == draw.drawn, place.round_over
        (True, False)
        """
        try:
            code = A.checked_code(action)
        except ValueError as exc:
            raise IllegalActionError(str(exc), "docs/engine-protocol.md actions") from None
        if code not in self.legal_codes():
            raise self._illegal(code)
        seat = self.to_move
        game = self.game
        rnd = self.round
        placed = self.drawn if PLACE0 <= code < TAKE0 else None
        # A take replaces the row's list by a new empty one, so this list keeps its cards.
        taken = self.rows[code - TAKE0] if TAKE0 <= code < CHOOSE0 else ()
        ev = _Events()
        self._ev = ev
        try:
            self.apply_code(code)
        finally:
            self._ev = None
        return Step(
            seat=seat,
            action=A.ALL_ACTIONS[code],
            game=game,
            round=rnd,
            drawn=self.drawn if code == DRAW else None,
            placed=placed,
            taken=tuple(taken),
            bonus=tuple(ev.bonus),
            last_round_revealed=ev.last_round,
            left=tuple(ev.left),
            removed=tuple(ev.removed),
            round_over=ev.round_over,
            game_over=ev.game_over,
            match_over=self.phase == OVER,
        )

    def child(self, action: Action | int) -> GameState:
        """A copy of this state with ``action`` applied (this state is unchanged).

        Raises:
            IllegalActionError: as ``apply``.
        """
        new = self.copy()
        new.apply(action)
        return new

    def apply_code(self, code: int) -> None:
        """Apply a legal action code **without checking** that it is legal (for search and
        simulation loops that take codes from ``legal_codes``). An illegal code corrupts
        the state; use ``apply`` for untrusted input.

        The fast path: it builds no ``Step`` and records nothing (it returns ``None``);
        ``apply`` runs this same transition with a recorder attached."""
        if code == DRAW:
            pile = self.pile
            card = pile.pop()
            if card == LAST_ROUND:
                self.last_round = True
                ev = self._ev
                if ev is not None:
                    ev.last_round = True
                card = pile.pop()
            self.drawn = card
            self.phase = PLACE
        elif code < TAKE0:
            self.rows[code - PLACE0].append(self.drawn)
            self.drawn = NO_CARD
            self.phase = TURN
            self._next_player()
        elif code < CHOOSE0:
            self._take(code - TAKE0)
        else:
            self._choose(code - CHOOSE0)

    def _take(self, r: int) -> None:
        seat = self.to_move
        col = self.coll[seat]
        row = self.rows[r]
        for card in row:
            col[card] += 1
        self.rows[r] = []
        self.row_taker[r] = seat
        if GOLDEN_JOKER in row:
            self._bonus(seat)
        if self.takes == 0 and self._first_out:
            self._bonus(seat)
        self.takes += 1
        self._leave(seat)

    def _bonus(self, seat: int) -> None:
        """Reveal the top card into ``seat``'s collection (docs/rules.md §5.2)."""
        pile = self.pile
        ev = self._ev
        if pile and pile[-1] == LAST_ROUND:
            pile.pop()
            self.last_round = True
            if ev is not None:
                ev.last_round = True
        if pile:
            card = pile.pop()
            self.coll[seat][card] += 1
            if ev is not None:
                ev.bonus.append(card)

    def _leave(self, seat: int) -> None:
        self.out[seat] = True
        self.active -= 1
        self.last_taker = seat
        if self.active == 0:
            self._end_round()
        else:
            self._next_player()

    def _next_player(self) -> None:
        n = self.n
        out = self.out
        p = (self.to_move + 1) % n
        while out[p]:
            p = (p + 1) % n
        self.to_move = p
        # docs/rules.md §5.3: with an empty pile (``cards_left() == 0``: nothing, or only
        # the Last Round card), a player whose untaken rows are all empty leaves the round
        # taking nothing.
        if len(self.pile) <= (0 if self.last_round else 1) and not any(
            self.rows[r] for r in range(self.nrows) if self.row_taker[r] == UNTAKEN
        ):
            ev = self._ev
            if ev is not None:
                ev.left.append(p)
            self._leave(p)

    def _end_round(self) -> None:
        ev = self._ev
        if ev is not None:
            ev.round_over = True
        for r in range(self.nrows):
            if self.rows[r]:
                self.removed.extend(self.rows[r])
                if ev is not None:
                    ev.removed.extend(self.rows[r])
                self.rows[r] = []
            self.row_taker[r] = UNTAKEN
        if self.last_round or self.cards_left() == 0:
            self._end_game()
            return
        self.round += 1
        self.takes = 0
        self.out = [False] * self.n
        self.active = self.n
        self.to_move = (
            self.last_taker
            if self.rules.next_round_starter == "last_taker"
            else (self.last_taker + 1) % self.n
        )

    def _end_game(self) -> None:
        ev = self._ev
        if ev is not None:
            ev.game_over = True
        scores = self.scores()
        self.results = (
            *self.results,
            GameResult.of(self.game, self.coll, self.in_play, scores),
        )
        for s, score in enumerate(scores):
            self.match_totals[s] += score
        if self.game + 1 < self.rules.match_games:
            self.game += 1
            self._start_game()
        else:
            self.phase = OVER
            self.to_move = -1

    def _choose(self, color: int) -> None:
        seat = self.to_move
        n = self.n
        if len(self.chosen) + 1 < n * self.rules.starting_cards_each:
            self.coll[seat][color] += 1
            self.chosen.append(color)
            self.to_move = (seat + 1) % n
            return
        # The last choice: build the pile first, so that a setup whose given draw pile
        # contradicts the choices raises before anything changes.
        setup = self.setups[self.game]
        if setup is None:
            raise ConfigurationError(f"game {self.game + 1} of the match has no setup")
        first = setup.first_player
        starting: list[list[int]] = [[] for _ in range(n)]
        for i, c in enumerate([*self.chosen, color]):
            starting[(first + i) % n].append(c)
        try:
            pile = self._make_pile(setup, starting)
        except ConfigurationError as exc:
            text = str(A.CHOOSE_ACTIONS[color])
            raise IllegalActionError(
                f"{text}: the setup's draw pile does not fit the chosen starting cards: {exc}",
                "§7 setup check",
                text,
            ) from None
        self.coll[seat][color] += 1
        self.chosen.append(color)
        self.pile = pile
        self.to_move = first
        self.phase = TURN

    def _illegal(self, code: int) -> IllegalActionError:
        if not 0 <= code < A.NUM_DISTINCT_ACTIONS:
            return IllegalActionError(f"no action has code {code}", "docs/engine-protocol.md actions")
        action = A.ALL_ACTIONS[code]
        text = str(action)
        if self.phase == OVER:
            return IllegalActionError(f"{text}: the game is over", "§5", text)
        if self.phase == CHOOSE:
            if action.kind != "choose_start":
                return IllegalActionError(f"{text}: starting cards must be chosen first", "§2.2", text)
            if action.arg not in self.in_play:
                return IllegalActionError(f"{text}: that colour is not in play", "§2.1", text)
            return IllegalActionError(f"{text}: every starting card must be a different colour", "§2.2", text)
        if self.phase == PLACE:
            if action.kind != "place":
                return IllegalActionError(f"{text}: the drawn card must be placed in a row", "§3 draw and place", text)
            return self._bad_row(action.arg, text, "§3 draw and place", full_is_bad=True)
        if action.kind == "draw":
            if self.cards_left() == 0:
                return IllegalActionError("draw: the draw pile is empty", "§5.3", text)
            return IllegalActionError("draw: every untaken row is full", "§3 draw and place", text)
        if action.kind == "take":
            return self._bad_row(action.arg, text, "§3 take a row", full_is_bad=False)
        return IllegalActionError(f"{text}: not a {self.decision} decision", "§3", text)

    def _bad_row(self, r: int, text: str, rule: str, full_is_bad: bool) -> IllegalActionError:
        # Messages are for people: rows counted from 1 (row index r is "row r + 1").
        if r >= self.nrows:
            return IllegalActionError(f"{text}: there are only {self.nrows} rows", rule, text)
        if self.row_taker[r] != UNTAKEN:
            return IllegalActionError(f"{text}: row {r + 1} was taken this round", rule, text)
        if full_is_bad:
            return IllegalActionError(f"{text}: row {r + 1} is full", rule, text)
        return IllegalActionError(
            f"{text}: row {r + 1} is empty and can never be taken", rule, text
        )

    # ----- text and data forms ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, secret draw pile order included (for bug
        reports and golden tests; never send it to a player: use ``observe``)."""
        return {
            "rules": self.rules.to_dict(),
            "game": self.game,
            "round": self.round,
            "decision": self.decision,
            "to_move": self.to_move,
            "drawn": self.drawn,
            "pile_top_first": self.pile[::-1],
            "last_round": self.last_round,
            "rows": [r[:] for r in self.rows],
            "row_taker": self.row_taker[:],
            "out": self.out[:],
            "collections": [c[:] for c in self.coll],
            "removed": self.removed[:],
            "match_totals": self.match_totals[:],
            "chosen": self.chosen[:],
        }

    def __repr__(self) -> str:
        return (
            f"<GameState players={self.n} game={self.game + 1} round={self.round} "
            f"{self.decision} to_move={self.to_move} cards_left={self.cards_left()}>"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.to_dict() == other.to_dict() and self.setups == other.setups

    __hash__ = None  # type: ignore[assignment]


def new_game(
    rules: Rules,
    seed: int,
    *,
    removed_colors: Sequence[int] | None = None,
    first_player: int | None = None,
    preset_name: str | None = None,
) -> GameState:
    """A new game (or match) under ``rules`` dealt from ``seed`` (docs/rules.md §2).

    Game 0 is ``deal(rules, seed)``; game ``g >= 1`` of a match is dealt from
    ``derive_seed(seed, MATCH_GAME, g)`` (``engine.seeds``), so any game can be rerun alone.
    ``removed_colors`` and ``first_player`` fix those choices for every game.

    Raises:
        ConfigurationError: as ``deal``.

    >>> from coloretto.engine import Rules, new_game
    >>> state = new_game(Rules(players=4, match_games=2), seed=1)
    >>> state.game, len(state.setups), state.is_over()
    (0, 2, False)
    >>> new_game(Rules(players=4), seed=1) == new_game(Rules(players=4), seed=1)
    True
    """
    from .setup import deal

    setups = [
        deal(
            rules,
            seed if g == 0 else derive_seed(seed, MATCH_GAME, g),
            removed_colors=removed_colors,
            first_player=first_player,
            preset_name=preset_name,
        )
        for g in range(rules.match_games)
    ]
    return GameState(rules, setups, _dealt=True)


def hash_seed(seed: int, index: int) -> int:
    """The seed of game or item ``index`` of root ``seed``: ``derive_seed(seed, GAME,
    index)`` (``engine.seeds``; 63 bits). New code calls ``derive_seed`` with the stream of
    its purpose."""
    return derive_seed(seed, GAME, index)


__all__ = [
    "CHOOSE",
    "NO_CARD",
    "NUM_COLORS",
    "OVER",
    "PLACE",
    "TURN",
    "UNTAKEN",
    "GameState",
    "Phase",
    "hash_seed",
    "new_game",
]
