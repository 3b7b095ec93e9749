"""``Observation.from_json`` is the inverse of ``Observation.to_json`` (the
``coloretto-observation/1`` object of docs/engine-protocol.md), over many random positions of
every kind, and it refuses malformed objects with a clear error."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from coloretto.engine import InvalidObservationError, Observation, Rules, new_game, observe, preset
from coloretto.engine.seeds import Rng
from coloretto.engine.state import GameState

CONFIGS = [
    Rules(players=2),
    Rules(players=3, edition="modern"),
    Rules(players=4, extra_card="first_out_draws"),
    Rules(players=5, edition="modern", table="violet", joker_any_color=False),
    Rules(players=3, starting_cards="choose"),
    Rules(players=4, row_capacities=(3, 3, 2, 4)),
    Rules(players=3, match_games=2, edition="modern"),
    preset("abacus2003", 4),
]


def positions(rules: Rules, seed: int, every: int) -> list[GameState]:
    """States along a random game, every ``every`` steps, and the final one."""
    st = new_game(rules, seed)
    rng = Rng(seed)
    out = [st.copy()]
    step = 0
    while not st.is_over():
        codes = st.legal_codes()
        st.apply(codes[rng.below(len(codes))])
        step += 1
        if step % every == 0:
            out.append(st.copy())
    out.append(st)
    return out


@pytest.mark.parametrize("rules", CONFIGS, ids=str)
def test_from_json_inverts_to_json_over_random_positions(rules: Rules) -> None:
    checked = 0
    decisions = set()
    for seed in range(4):
        for st in positions(rules, seed, every=7):
            for seat in range(st.n):
                obs = observe(st, seat)
                data = json.loads(json.dumps(obs.to_json()))  # as it arrives over the wire
                again = Observation.from_json(data)
                assert again.to_json() == data
                assert again.seat == seat and again.to_move == obs.to_move
                assert again.state.legal_codes() == obs.state.legal_codes()
                assert again.state.scores() == obs.state.scores()
                assert again.unseen() == obs.unseen()
                decisions.add(again.decision)
                checked += 1
            if not st.is_over() and st.game + 1 == rules.match_games:
                # the rebuilt state is a searchable one: a sample plays to the end
                sample = Observation.from_json(observe(st, st.to_move).to_json()).sample_state(
                    Rng(seed)
                )
                while not sample.is_over():
                    sample.apply(sample.legal_codes()[-1])
    assert checked > 50 and {"turn", "over"} <= decisions


def observation_data() -> dict[str, Any]:
    st = new_game(Rules(players=4), 3)
    for _ in range(9):
        st.apply(st.legal_codes()[-1])
    return json.loads(json.dumps(observe(st, 1).to_json()))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(format="other/1"), "format must be"),
        (lambda d: d.pop("rows"), "has no 'rows'"),
        (lambda d: d.update(seat=7), "seat 7 is not a seat"),
        (lambda d: d.update(seat="1"), "'seat' has the wrong type"),
        (lambda d: d.update(decision="think"), "unknown decision"),
        (lambda d: d["rows"].pop(), "3 rows, the rules have 4"),
        (lambda d: d["rows"][0].update(capacity=9), "row 0 must be an object with capacity 3"),
        (lambda d: d["rows"][0].update(cards=["green"] * 4), "row 0 holds 4 cards"),
        (lambda d: d["rows"][0].update(taken_by=9), "taken_by must be a seat"),
        (lambda d: d["unseen"].update(green=99), "'unseen' counts"),
        (lambda d: d["collections"][0]["colors"].update(blue=20), "the game does not have"),
        (lambda d: d["collections"][0]["colors"].update(blue=-1), "non-negative"),
        (lambda d: d.update(colors=["blue", "mauve"]), "not a valid coloretto-observation/1"),
        (lambda d: d.update(rules={"players": 9}), "not a valid coloretto-observation/1"),
        (lambda d: d.update(first_player=None), "first_player must be a seat"),
    ],
)
def test_malformed_observations_are_refused(change: Any, words: str) -> None:
    data = observation_data()
    change(data)
    with pytest.raises(InvalidObservationError) as info:
        Observation.from_json(data)
    assert words in str(info.value)


def test_non_objects_and_deep_values_are_refused() -> None:
    with pytest.raises(InvalidObservationError, match="must be a JSON object"):
        Observation.from_json([1, 2])
    data = observation_data()
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    data["rows"][0]["cards"] = deep
    with pytest.raises(InvalidObservationError):
        Observation.from_json(data)
    assert Observation.from_json(copy.deepcopy(observation_data())).to_json() == observation_data()
