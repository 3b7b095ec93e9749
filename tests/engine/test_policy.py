"""The reference greedy policy (``coloretto.engine.policy``) on crafted positions, its
tie-breaking contract (one ``rng.below(k)`` call per tie, none otherwise), and its users:
``GreedyAgent`` and the search's greedy rollouts play exactly its choices."""

from __future__ import annotations

import pytest

from coloretto.agents.baseline import GreedyAgent
from coloretto.agents.mcts import engine_rollout
from coloretto.engine import IllegalActionError, Rules, card_code, new_game, observe
from coloretto.engine import actions as A
from coloretto.engine.policy import greedy_code, row_gain
from coloretto.engine.seeds import Rng
from coloretto.engine.state import CHOOSE, PLACE, TURN, GameState

B, N, GR, G, O, P, Y = range(7)
JOKER, PLUS2 = card_code("joker"), card_code("plus2")


class CountingRng(Rng):
    """A real ``Rng`` that also counts its ``below`` calls."""

    __slots__ = ("calls",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls: list[int] = []

    def below(self, n: int) -> int:
        self.calls.append(n)
        return super().below(n)


def crafted(rows: list[list[int]], coll: dict[int, int], players: int = 4) -> GameState:
    """A turn of seat 0 (in a 4-player game) holding ``coll`` (card code -> count), with
    these rows (each untaken)."""
    st = new_game(Rules(players=players), 1, first_player=0)
    st.coll[0] = [coll.get(c, 0) for c in range(10)]
    st.rows = [list(r) for r in rows]
    return st


def test_takes_the_best_positive_row_without_calling_the_rng() -> None:
    st = crafted([[G], [PLUS2, PLUS2], [], []], {B: 1})
    rng = CountingRng(0)
    assert row_gain(st, 0, [PLUS2, PLUS2]) == 4 > row_gain(st, 0, [G]) == 1
    assert st.legal_codes() == [A.DRAW, A.TAKE0, A.TAKE0 + 1]
    assert greedy_code(st, rng) == A.TAKE0 + 1 and rng.calls == []


def test_draws_when_no_take_gains() -> None:
    # Three colours of 3 cards (6 points each): a fourth colour only loses points.
    st = crafted([[O], [P, O], [], []], {B: 3, G: 3, Y: 3})
    assert row_gain(st, 0, [O]) < 0 and row_gain(st, 0, [P, O]) < 0
    rng = CountingRng(0)
    assert greedy_code(st, rng) == A.DRAW and rng.calls == []


def test_must_take_the_least_bad_row_when_drawing_is_illegal() -> None:
    st = crafted([[O, O, P], [O, P, N], [P, N, O], [N, N, N]], {B: 3, G: 3, Y: 3})
    assert A.DRAW not in st.legal_codes()
    gains = {r: row_gain(st, 0, st.rows[r]) for r in range(4)}
    assert all(g < 0 for g in gains.values())
    best = max(gains.values())
    tied = [A.TAKE0 + r for r in range(4) if gains[r] == best]
    rng = CountingRng(3)
    choice = greedy_code(st, rng)
    if len(tied) == 1:
        assert choice == tied[0] and rng.calls == []
    else:
        assert choice == tied[Rng(3).below(len(tied))] and rng.calls == [len(tied)]


@pytest.mark.parametrize("seed", range(6))
def test_a_tie_is_broken_by_one_below_call_in_code_order(seed: int) -> None:
    st = crafted([[PLUS2], [], [PLUS2], [PLUS2]], {B: 1})
    rng = CountingRng(seed)
    tied = [A.TAKE0, A.TAKE0 + 2, A.TAKE0 + 3]
    assert greedy_code(st, rng) == tied[Rng(seed).below(3)]
    assert rng.calls == [3]


def test_places_where_the_card_adds_most_to_the_row() -> None:
    st = crafted([[], [G, G], [O], []], {G: 2})
    st.phase = PLACE
    st.drawn = G
    # row 1 (greens 4 -> 5 with the card: 10 -> 15) beats an empty row (2 -> 3: 3 -> 6) and
    # the orange row (the same +3, the orange counted either way).
    rng = CountingRng(0)
    assert greedy_code(st, rng) == A.PLACE0 + 1 and rng.calls == []
    # An orange card for a seat with three colours of 3 cards loses 1 point in an empty row or
    # beside a "+2", 2 points beside another orange: rows 0, 1 and 3 tie.
    st = crafted([[], [PLUS2], [O], []], {B: 3, G: 3, Y: 3})
    st.phase = PLACE
    st.drawn = O
    rng = CountingRng(4)
    tied = [A.PLACE0, A.PLACE0 + 1, A.PLACE0 + 3]
    choice = greedy_code(st, rng)
    assert choice == tied[Rng(4).below(3)] and rng.calls == [3]


def test_starting_colour_is_uniform_and_single_choices_are_free() -> None:
    st = new_game(Rules(players=3, starting_cards="choose"), 2)
    assert st.phase == CHOOSE
    codes = st.legal_codes()
    rng = CountingRng(9)
    assert greedy_code(st, rng) == codes[Rng(9).below(len(codes))]
    assert rng.calls == [len(codes)]
    fresh = new_game(Rules(players=4), 5)
    rng = CountingRng(1)
    assert greedy_code(fresh, rng) == A.DRAW and rng.calls == []


def test_no_decision_when_over() -> None:
    st = new_game(Rules(players=2), 1)
    while not st.is_over():
        st.apply(st.legal_codes()[0])
    with pytest.raises(IllegalActionError, match="over"):
        greedy_code(st, Rng(0))


@pytest.mark.parametrize("rules", [Rules(players=4), Rules(players=3, edition="modern", starting_cards="choose"), Rules(players=2, table="violet")], ids=str)
def test_greedy_agent_plays_the_reference_policy(rules: Rules) -> None:
    st = new_game(rules, 12)
    agents = [GreedyAgent(seed=100 + s) for s in range(rules.players)]
    twins = [Rng(100 + s) for s in range(rules.players)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, rules)
    while not st.is_over():
        seat = st.to_move
        legal = st.legal_actions()
        action = agents[seat].act(observe(st, seat), legal)
        if len(legal) > 1:
            assert action.code == greedy_code(st, twins[seat])
        st.apply(action)


def test_greedy_rollouts_play_the_reference_policy() -> None:
    st = new_game(Rules(players=4), 3)
    for _ in range(20):
        st.apply(st.legal_codes()[-1])
    mine = st.copy()
    totals = engine_rollout("greedy")(st, Rng(8))
    rng = Rng(8)
    while not mine.is_over():
        codes = mine.legal_codes()
        if len(codes) == 1:
            mine.apply_code(codes[0])
        elif mine.phase in (TURN, PLACE):
            mine.apply_code(greedy_code(mine, rng, codes))
        else:
            mine.apply_code(codes[rng.below(len(codes))])
    assert totals == mine.totals() and st == mine
