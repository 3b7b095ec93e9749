"""Differential tests: the fast core against the engine, step by step.

For every preset and player count and the option variants (violet table, every extra card,
custom row capacities, next-round starter, joker_any_color false, chosen starting cards),
seeded games are played with uniformly random legal actions; at every step the fast core and
the engine must agree on the legal actions and, after the same action, on the WHOLE state
(the canonical array encodings are equal, and periodically ``decode`` equals the engine
state); at the end the scores, breakdown totals and match totals agree.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.engine.rules import Rules, preset
from coloretto.engine.state import GameState, new_game
from coloretto.fastcore import (
    decode,
    encode,
    fast_apply,
    fast_legal_codes,
    fast_scores,
)
from coloretto.fastcore import layout as L

# (id, preset name or None, players, overrides, games)
CONFIGS: list[tuple[str, str | None, int, dict[str, Any], int]] = []
for _name, _low, _high in (("classic", 2, 5), ("modern", 2, 5), ("bga", 3, 5)):
    for _p in range(_low, _high + 1):
        CONFIGS.append((f"{_name}-{_p}p", _name, _p, {}, 120))
for _p in range(3, 6):
    CONFIGS.append((f"abacus2003-{_p}p", "abacus2003", _p, {}, 40))
for _p in range(2, 6):
    CONFIGS.append((f"violet-{_p}p", "classic", _p, {"table": "violet"}, 60))
    CONFIGS.append((f"modern-violet-{_p}p", "modern", _p, {"table": "violet"}, 40))
for _extra in ("single_three", "triple_three", "first_out_draws", "triple_minus"):
    for _p in (2, 4):
        CONFIGS.append((f"{_extra}-{_p}p", "classic", _p, {"extra_card": _extra}, 60))
    CONFIGS.append((f"{_extra}-modern-5p", "modern", 5, {"extra_card": _extra}, 60))
CONFIGS += [
    ("caps-3324-4p", "classic", 4, {"row_capacities": (3, 3, 2, 4)}, 80),
    ("caps-123456-3p", "modern", 3, {"row_capacities": (1, 2, 3, 4, 5, 6)}, 80),
    # large rows empty the draw pile: docs/rules.md §5.3 (leaving with nothing, game end)
    ("caps-6x6-5p", "classic", 5, {"row_capacities": (6, 6, 6, 6, 6, 6)}, 80),
    (
        "caps-6x5-4p-modern-fod",
        "modern",
        4,
        {"row_capacities": (6, 6, 6, 6, 6), "extra_card": "first_out_draws"},
        80,
    ),
    ("caps-66-2p", "classic", 2, {"row_capacities": (6, 6)}, 80),
    ("left-of-last-taker-4p", "classic", 4, {"next_round_starter": "left_of_last_taker"}, 80),
    ("left-of-last-taker-2p", "modern", 2, {"next_round_starter": "left_of_last_taker"}, 80),
    ("no-joker-any-3p", "classic", 3, {"joker_any_color": False}, 80),
    ("no-joker-any-5p-modern", "modern", 5, {"joker_any_color": False}, 60),
    ("choose-2p", "classic", 2, {"starting_cards": "choose"}, 60),
    ("choose-4p-match", "modern", 4, {"starting_cards": "choose", "match_games": 2}, 30),
]


def play_both(state: GameState, rng: random.Random, draw_bias: float = 0.0) -> dict[str, int]:
    """Play ``state`` to the end with random legal actions in the engine and the fast core,
    asserting agreement at every step; with probability ``draw_bias`` a legal draw is chosen
    (long rounds, full rows, empty piles), otherwise a uniform legal action. Returns
    counters of what happened."""
    fs = encode(state)
    assert decode(fs) == state
    seen = {"steps": 0, "empty_pile": 0, "golden": 0, "games": 1}
    game = state.game
    while True:
        legal = state.legal_codes()
        assert fast_legal_codes(fs) == legal, f"legal actions differ at step {seen['steps']}"
        if not legal:
            break
        if legal[0] == 0 and state.phase == 0 and rng.random() < draw_bias:
            code = 0
        else:
            code = legal[rng.randrange(len(legal))]
        before_golden = state.coll[state.to_move][8] if state.to_move >= 0 else 0
        mover = state.to_move
        state.apply_code(code)
        fast_apply(fs, code, check=False)
        seen["steps"] += 1
        expected = encode(state).a
        if not np.array_equal(fs.a, expected):
            diff = np.nonzero(fs.a != expected)[0].tolist()
            raise AssertionError(f"states differ after {code} at cells {diff}: {state.to_dict()}")
        if seen["steps"] % 25 == 0:
            assert decode(fs) == state
        if state.phase != 3 and state.cards_left() == 0:
            seen["empty_pile"] += 1
        if mover >= 0 and state.game == game and state.coll[mover][8] > before_golden:
            seen["golden"] += 1
        if state.game != game:
            seen["games"] += 1
            game = state.game
        if state.phase == 3 or state.phase == 0 and code >= 7:
            assert fast_scores(fs) == [state.breakdown(p).total for p in range(state.n)]
    assert state.is_over() and fs.is_over()
    assert decode(fs) == state
    assert fast_scores(fs) == state.scores()
    assert fs.a[L.TOTALS : L.TOTALS + state.n].tolist() == state.totals()
    return seen


@pytest.mark.parametrize(
    "name,preset_name,players,overrides,games", CONFIGS, ids=[c[0] for c in CONFIGS]
)
def test_fast_core_matches_engine(
    name: str, preset_name: str, players: int, overrides: dict[str, Any], games: int
) -> None:
    rules = preset(preset_name, players, **overrides)
    totals = {"steps": 0, "empty_pile": 0, "golden": 0, "games": 0}
    for g in range(games):
        seed = 1000 * len(name) + g
        state = new_game(rules, seed, preset_name=preset_name)
        seen = play_both(state, random.Random(seed), 0.85 if g % 2 else 0.0)
        for k in totals:
            totals[k] += seen[k]
    assert totals["games"] == games * rules.match_games
    if rules.edition == "modern":
        assert totals["golden"] > 0, "no golden joker was ever taken: the test lost its power"
    if name.startswith("caps-6x"):
        assert totals["empty_pile"] > 0, "the draw pile never ran out: §5.3 not exercised"


def test_round_trip_at_every_decision_kind() -> None:
    """decode(encode(s)) == s at turn, place, choose_start and over states."""
    rules = Rules(players=3, starting_cards="choose", match_games=2, edition="modern")
    state = new_game(rules, 5)
    rng = random.Random(5)
    kinds = set()
    while True:
        kinds.add(state.decision)
        assert decode(encode(state)) == state
        assert encode(decode(encode(state))) == encode(state)
        legal = state.legal_codes()
        if not legal:
            break
        state.apply_code(legal[rng.randrange(len(legal))])
    assert kinds == {"turn", "place", "choose_start", "over"}


def test_fast_apply_rejects_illegal_actions_like_the_engine() -> None:
    from coloretto.engine.errors import IllegalActionError

    state = new_game(Rules(players=4), 3)
    fs = encode(state)
    before = fs.a.copy()
    with pytest.raises(IllegalActionError) as err:
        fast_apply(fs, 7)  # take an empty row
    assert "empty" in str(err.value)
    assert np.array_equal(fs.a, before)
