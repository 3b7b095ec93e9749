"""Helpers for engine tests (imported as ``engine_helpers``): build states with a chosen
draw pile, and drive them.

Cards are written by name (``"green"``, ``"joker"``, ``"golden_joker"``, ``"plus2"``) so the
tests read like the rules. Piles are built **top first**, as in records.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from coloretto.engine import Rules, Setup, card_code
from coloretto.engine import actions as A
from coloretto.engine.cards import COLORS, LAST_ROUND
from coloretto.engine.setup import pile_composition
from coloretto.engine.state import GameState


def codes(names: Iterable[str | int]) -> list[int]:
    """Card codes of ``names`` (names or codes)."""
    return [n if isinstance(n, int) else card_code(n) for n in names]


def default_starting(rules: Rules, removed: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Seat s gets the s-th colour(s) in play (2 players: two each)."""
    in_play = [c for c in range(7) if c not in removed]
    each = rules.starting_cards_each
    return tuple(tuple(in_play[s * each : (s + 1) * each]) for s in range(rules.players))


def stacked_setup(
    rules: Rules,
    *,
    removed: Sequence[str] = (),
    starting: Sequence[Sequence[str]] | None = None,
    first: int = 0,
    top: Sequence[str] = (),
    before_lr: Sequence[str] = (),
    after_lr: Sequence[str] = (),
    bottom: Sequence[str] = (),
    seed: int = 0,
) -> Setup:
    """A legal setup whose draw pile starts with ``top`` (top first), has ``before_lr`` just
    above the Last Round card, ``after_lr`` just under it and ``bottom`` at the very bottom;
    the other cards the rules leave fill the gaps in a seeded order.

    Default removed colours: the last ones (2 players: pink, yellow; 3 players: yellow).
    """
    if not removed and rules.colors_removed:
        removed = COLORS[7 - rules.colors_removed :]
    removed_codes = tuple(sorted(codes(removed)))
    start = (
        default_starting(rules, removed_codes)
        if starting is None
        else tuple(tuple(codes(s)) for s in starting)
    )
    comp = pile_composition(rules, removed_codes, start)
    fixed = Counter(codes([*top, *before_lr, *after_lr, *bottom]))
    left = comp - fixed
    assert not fixed - comp, f"asked for cards the pile does not hold: {fixed - comp}"
    filler = sorted(left.elements())
    random.Random(seed).shuffle(filler)
    total = sum(comp.values())
    k = rules.cards_under_last_round
    n_above_fill = total - k - len(top) - len(before_lr)
    n_below_fill = k - len(after_lr) - len(bottom)
    assert n_above_fill >= 0 and n_below_fill >= 0
    above = codes(top) + filler[:n_above_fill] + codes(before_lr)
    below = codes(after_lr) + filler[n_above_fill:] + codes(bottom)
    pile = (*above, LAST_ROUND, *below)
    return Setup(removed_codes, start, first, pile)


def stacked_state(rules: Rules, **kw: object) -> GameState:
    """``GameState(rules, [stacked_setup(rules, **kw)])`` (one game)."""
    return GameState(rules, [stacked_setup(rules, **kw)])  # type: ignore[arg-type]


def above_lr(state: GameState) -> int:
    """Cards above the Last Round card (0 once it has appeared)."""
    if state.last_round:
        return 0
    return len(state.pile) - 1 - state.pile.index(LAST_ROUND)


def draw(state: GameState, row: int) -> int:
    """Draw (checked) and place in ``row``; return the card placed."""
    state.apply(A.DRAW)
    card = state.drawn
    state.apply(A.PLACE0 + row)
    return card


def take(state: GameState, row: int) -> None:
    """Take ``row`` (checked)."""
    state.apply(A.TAKE0 + row)


def run_plan(state: GameState, plan: str) -> None:
    """Apply a plan like ``"d0 d1 t0"`` (draw and place in row 0, ..., take row 0)."""
    for step in plan.split():
        (draw if step[0] == "d" else take)(state, int(step[1:]))


def first_room(state: GameState) -> int:
    """Lowest untaken row with room."""
    return next(
        r
        for r in range(state.nrows)
        if state.row_taker[r] == -1 and len(state.rows[r]) < state.caps[r]
    )


def simple_step(state: GameState) -> None:
    """A deterministic policy: draw into the lowest row with room if legal, else take the
    lowest non-empty row."""
    legal = state.legal_codes()
    if A.DRAW in legal:
        draw(state, first_room(state))
    else:
        state.apply(legal[0])


def drain_to(state: GameState, above: int) -> None:
    """Play ``simple_step`` until exactly ``above`` cards lie above the Last Round card and
    the player to move may draw."""
    while above_lr(state) > above or A.DRAW not in state.legal_codes():
        assert not state.last_round
        legal = state.legal_codes()
        if A.DRAW in legal:
            draw(state, first_room(state))
        else:
            state.apply(legal[0])


def card_total(state: GameState) -> Counter[int]:
    """Every card of the current game wherever it is: pile, rows, collections, the drawn
    card, removed cards and the set-aside Last Round card."""
    total: Counter[int] = Counter(state.pile)
    for row in state.rows:
        total.update(row)
    for col in state.coll:
        for code, k in enumerate(col):
            if k:
                total[code] += k
    if state.drawn != -1:
        total[state.drawn] += 1
    total.update(state.removed)
    if state.last_round:
        total[LAST_ROUND] += 1
    return total


def full_deck(state: GameState) -> Counter[int]:
    """The cards of the current game's setup: colours in play x 9, jokers, golden jokers,
    "+2" cards and the Last Round card."""
    setup = state.setups[state.game]
    assert setup is not None
    deck = pile_composition(state.rules, setup.removed_colors, [])
    deck[LAST_ROUND] = 1
    return deck


def big_rows(players: int, **kw: object) -> Rules:
    """Six rows of capacity 6: a custom setup in which the draw pile can run out."""
    return Rules(players=players, row_capacities=(6,) * 6, **kw)  # type: ignore[arg-type]


def to_pile_exhaustion(st: GameState, last_cards: int) -> None:
    """5 players, six rows of 6: three rounds; the last draws ``last_cards`` cards after the
    Last Round card into rows 0, 1, 2 until the pile is empty."""
    run_plan(st, " ".join(f"d{r}" for r in range(6) for _ in range(6)))
    run_plan(st, "t0 t1 t2 t3 t4")
    assert st.round == 2
    above = above_lr(st)
    plan = [f"d{r}" for r in range(3) for _ in range(6)][: above - 2] + ["d3", "d4"]
    run_plan(st, " ".join(plan) + " t0 t1 t2 t3 t4")
    assert st.round == 3 and above_lr(st) == 0
    run_plan(st, " ".join([f"d{r}" for r in range(3) for _ in range(6)][:last_cards]))
    assert st.last_round and st.cards_left() == 0
