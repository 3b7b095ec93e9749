"""The reference greedy policy: the one definition of "greedy" in the project.

``GreedyAgent`` (the ``greedy`` and ``easy`` players) and the search's greedy rollouts call
:func:`greedy_code`; the fast core's kernel twin is tested against it decision by decision.

The policy, exactly. A seat's **gain** of cards is the change of its optimal score
(docs/rules.md §6, :func:`~coloretto.engine.scoring.collection_total_plus`) if it added
those cards to its collection now; bonus cards a take may bring are not counted (they are
unknown).

* **Turn** (draw or take): among the legal takes, the best are those of largest gain of the
  row's cards. Take one of them if that gain is positive or drawing is illegal; otherwise
  draw.
* **Placement**: the best rows are those where the drawn card adds the most to the row's
  gain, ``gain(row + [card]) - gain(row)``.
* **Choosing a starting colour**: every legal colour is best.
* **Ties**: the best candidates are listed in ascending action code and one is picked with
  ONE call ``rng.below(k)`` (``k`` candidates); with a single best candidate (or a single
  legal action, or a draw) ``rng`` is not called.

>>> from coloretto.engine import Rules, new_game
>>> from coloretto.engine.seeds import Rng
>>> state = new_game(Rules(players=4), seed=3)
>>> greedy_code(state, Rng(0))  # empty rows: drawing is the only legal action
0
"""

from __future__ import annotations

from collections.abc import Sequence

from . import actions as A
from .errors import IllegalActionError
from .scoring import collection_total_plus
from .seeds import Rng
from .state import CHOOSE, PLACE, TURN, GameState

__all__ = ["greedy_code", "row_gain"]


def row_gain(state: GameState, seat: int, cards: Sequence[int]) -> int:
    """Change of ``seat``'s optimal score if it added ``cards`` (card codes) to its
    collection now (docs/rules.md §6), in points; golden joker bonus cards are not counted.

    >>> from coloretto.engine import Rules, new_game
    >>> state = new_game(Rules(players=4), seed=3)
    >>> row_gain(state, 0, [9])  # a "+2" card is worth 2 points to anyone
    2
    """
    coll = state.coll[seat]
    rules = state.rules
    in_play = state.in_play
    return collection_total_plus(coll, cards, rules, in_play) - collection_total_plus(
        coll, (), rules, in_play
    )


def _pick(best: list[int], rng: Rng) -> int:
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def greedy_code(state: GameState, rng: Rng, codes: Sequence[int] | None = None) -> int:
    """The greedy policy's action code for the seat to move (module docstring).

    Args:
        state: a state with a decision to make (the true state or an observation's).
        rng: breaks ties (one ``below`` call per tied decision, none otherwise).
        codes: ``state.legal_codes()`` when the caller has them already (ascending).

    Returns:
        One of the legal action codes.

    Raises:
        IllegalActionError: the game is over (there is no decision).
    """
    if codes is None:
        codes = state.legal_codes()
    if not codes:
        raise IllegalActionError("the game is over: no decision to make", "§5")
    if len(codes) == 1:
        return codes[0]
    phase = state.phase
    seat = state.to_move
    coll = state.coll[seat]
    rules = state.rules
    in_play = state.in_play
    rows = state.rows
    best: list[int] = []
    top = 0
    if phase == TURN:
        base = collection_total_plus(coll, (), rules, in_play)
        for c in codes:
            if c >= A.TAKE0:
                g = collection_total_plus(coll, rows[c - A.TAKE0], rules, in_play) - base
                if not best or g > top:
                    best = [c]
                    top = g
                elif g == top:
                    best.append(c)
        if best and (top > 0 or codes[0] != A.DRAW):
            return _pick(best, rng)
        return A.DRAW
    if phase == PLACE:
        card = state.drawn
        for c in codes:
            row = rows[c - A.PLACE0]
            d = collection_total_plus(coll, [*row, card], rules, in_play) - collection_total_plus(
                coll, row, rules, in_play
            )
            if not best or d > top:
                best = [c]
                top = d
            elif d == top:
                best.append(c)
        return _pick(best, rng)
    if phase == CHOOSE:
        return _pick(list(codes), rng)
    raise IllegalActionError("the game is over: no decision to make", "§5")
