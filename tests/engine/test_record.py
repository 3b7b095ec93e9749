"""Game records (coloretto-record/1): round trip, golden legal and illegal records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from coloretto.engine import (
    RECORD_FORMAT,
    Game,
    InvalidRecordError,
    Rules,
    load_game,
    new_game,
    preset,
    replay,
)
from coloretto.engine.cards import GOLDEN_JOKER, card_code

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
EXPECTED = json.loads((RECORDS / "expected.json").read_text())


def play_random(rules: Rules, seed: int, stop: int | None = None, **deal: object) -> Game:
    game = Game(new_game(rules, seed, **deal), [f"seat{i}" for i in range(rules.players)])  # type: ignore[arg-type]
    rng = random.Random(seed)
    steps = 0
    while not game.state.is_over() and (stop is None or steps < stop):
        legal = game.state.legal_actions()
        game.play(legal[rng.randrange(len(legal))])
        steps += 1
    return game


ROUND_TRIP = [
    Rules(players=2),
    Rules(players=3, edition="modern", table="violet"),
    Rules(players=4, starting_cards="choose", next_round_starter="left_of_last_taker"),
    Rules(players=5, extra_card="first_out_draws"),
    Rules(players=4, row_capacities=(3, 3, 2, 4), joker_any_color=False),
    preset("abacus2003", 3),
]


@pytest.mark.parametrize("rules", ROUND_TRIP, ids=str)
@pytest.mark.parametrize("stop", [None, 17])
def test_round_trip(rules: Rules, stop: int | None) -> None:
    for seed in range(3):
        game = play_random(rules, seed, stop)
        if game.state.decision == "place":
            game.play(game.state.legal_actions()[0])
        rec = json.loads(json.dumps(game.to_record()))
        assert rec["format"] == RECORD_FORMAT
        assert isinstance(rec["setup"], list) == (rules.match_games > 1)
        res = replay(rec)
        assert res.valid, res.error
        assert res.game is not None
        assert res.game.state == game.state
        assert res.game.state.totals() == game.state.totals()
        assert res.finished == game.state.is_over()
        assert res.game.to_record() == rec
        out = res.to_json()
        assert out["valid"] and out["scores"] == game.state.totals()
        assert out["winners"] == game.state.winners()
        assert ("result" in rec) == game.state.is_over()


def test_match_record_holds_one_setup_per_game() -> None:
    game = play_random(Rules(players=3, match_games=4), 2)
    rec = game.to_record()
    assert len(rec["setup"]) == 4
    assert rec["result"]["scores"] == game.state.match_totals


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_records(name: str) -> None:
    exp = EXPECTED[name]
    rec = json.loads((RECORDS / name).read_text())
    res = replay(rec)
    assert res.valid == exp["valid"], res.error
    if exp["valid"]:
        assert res.error is None and res.game is not None
        assert res.finished == exp["finished"]
        if "scores" in exp:
            assert res.game.state.totals() == exp["scores"]
        assert load_game(rec).state == res.game.state
    else:
        assert res.action_index == exp["action_index"]
        assert exp["error"] in (res.error or "")
        js = res.to_json()
        assert js == {"valid": False, "action_index": exp["action_index"], "error": res.error}
        with pytest.raises(InvalidRecordError) as info:
            load_game(rec)
        assert info.value.action_index == exp["action_index"]


def test_hand_written_two_player_round() -> None:
    rec = json.loads((RECORDS / "legal_2p_round.json").read_text())
    st = replay(rec).game.state  # type: ignore[union-attr]
    # Round 1: seat 0 took the 1-card row, seat 1 the "+2"; the full third row was removed.
    assert st.round == 2 and st.to_move == 1
    assert sorted(st.removed) == sorted(card_code(c) for c in ("green", "blue", "green"))
    assert st.scores() == [3, 4]


def test_hand_written_golden_joker_bonus() -> None:
    rec = json.loads((RECORDS / "legal_modern_golden.json").read_text())
    st = replay(rec).game.state  # type: ignore[union-attr]
    assert st.coll[1][GOLDEN_JOKER] == 1 and st.coll[1][card_code("pink")] == 1
    assert st.rows[1] == [card_code("orange")]


def test_replay_stops_at_first_bad_action_with_state_before_it() -> None:
    rec = json.loads((RECORDS / "illegal_drawn_card_differs.json").read_text())
    res = replay(rec)
    assert not res.valid and res.game is not None
    st = res.game.state
    # the first action applied, the second (bad draw) left no trace
    assert st.decision == "turn" and st.to_move == 1 and len(res.game.entries) == 1
    assert sum(len(r) for r in st.rows) == 1


@pytest.mark.parametrize(
    ("mutate", "index", "words"),
    [
        (lambda r: r.update(actions=[{"seat": True, "action": "draw", "card": "green", "row": 2}]), 0, "integer 'seat'"),
        (lambda r: r["actions"][0].update(row="2"), 0, "integer row"),
        (lambda r: r["actions"][0].update(card="purple"), 0, "unknown card"),
        (lambda r: r["actions"][0].update(row=5), 0, "row"),
        (lambda r: r["actions"][0].update(action="place"), 0, "draw"),
        (lambda r: r["actions"][0].update(action="fly"), 0, "unknown action"),
        (lambda r: r["actions"].insert(0, 7), 0, "object"),
        (lambda r: r["actions"].insert(0, {"seat": 0, "action": "choose_start", "color": "blue"}), 0, "choose"),
        (lambda r: r.update(actions={}), None, "actions must be a list"),
        (lambda r: r.update(seats=["only one"]), None, "seat names"),
        (lambda r: r.update(rules={"players": 9}), None, "players"),
        (lambda r: r.update(rules=None), None, "rules"),
        (lambda r: r.update(setup=None), None, "setup"),
        (lambda r: r["setup"].update(first_player="0"), None, "first_player"),
        (lambda r: r["setup"].update(removed_colors=["pink"]), None, "remove 2"),
        (lambda r: r["setup"].pop("draw_pile"), None, "draw_pile"),
        (lambda r: r["setup"].pop("starting_cards"), None, "starting_cards"),
        (lambda r: r.update(result={"total": 3}), 7, "scores"),
        (lambda r: r.update(result=[3, 4]), 7, "scores"),
    ],
)
def test_malformed_records_are_invalid_with_a_reason(mutate: object, index: int | None, words: str) -> None:
    rec = json.loads((RECORDS / "legal_2p_round.json").read_text())
    mutate(rec)  # type: ignore[operator]
    res = replay(rec)
    assert not res.valid
    assert res.action_index == index
    assert words in (res.error or ""), res.error


def test_non_object_records() -> None:
    for rec in ([], "x", None, 3):
        res = replay(rec)
        assert not res.valid and res.action_index is None and res.game is None


def test_rules_missing_keys_take_defaults() -> None:
    rec = json.loads((RECORDS / "legal_2p_round.json").read_text())
    rec["rules"] = {"players": 2}
    res = replay(rec)
    assert res.valid and res.game is not None and res.game.state.rules == Rules(players=2)


def test_game_play_records_nothing_on_illegal_action() -> None:
    game = play_random(Rules(players=4), 1, stop=3)
    entries = copy.deepcopy(game.entries)
    before = game.state.to_dict()
    from coloretto.engine import IllegalActionError

    with pytest.raises(IllegalActionError):
        game.play(19 if game.state.decision != "choose_start" else 0)
    assert game.entries == entries and game.state.to_dict() == before


def test_choose_mode_record_keeps_the_shuffle_seed() -> None:
    game = play_random(Rules(players=3, starting_cards="choose"), 4, stop=10)
    rec = game.to_record()
    assert rec["setup"]["draw_pile"] is None and "shuffle_seed" in rec["setup"]
    assert [e["action"] for e in rec["actions"][:3]] == ["choose_start"] * 3
    res = replay(json.loads(json.dumps(rec)))
    assert res.valid and res.game is not None
    assert res.game.state.pile == game.state.pile


def _four_player_record() -> dict:
    game = play_random(Rules(players=4), 7, stop=12)
    return json.loads(json.dumps(game.to_record()))


@pytest.mark.parametrize("row", [-1, 4, 7, 10**20])
def test_a_row_the_table_lacks_is_named_in_the_error(row: int) -> None:
    rec = _four_player_record()
    draw = next(i for i, e in enumerate(rec["actions"]) if e["action"] == "draw")
    rec["actions"][draw]["row"] = row
    res = replay(rec)
    assert not res.valid and res.action_index == draw
    assert res.error == (
        f'draw entry: "row": {row} does not exist; records count rows from 0, so "row" is 0 to 3 here'
    )
    rec = _four_player_record()
    take = next(i for i, e in enumerate(rec["actions"]) if e["action"] == "take")
    rec["actions"][take]["row"] = row
    res = replay(rec)
    assert not res.valid and res.action_index == take
    assert res.error == (
        f'take entry: "row": {row} does not exist; records count rows from 0, so "row" is 0 to 3 here'
    )


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("place", "index"),
    [
        (lambda r, v: r["rules"].update(players=v), None),
        (lambda r, v: r["setup"].update(first_player=v), None),
        (lambda r, v: r["setup"].update(removed_colors=[v]), None),
        (lambda r, v: r["actions"][0].update(card=v), 0),
        (lambda r, v: r["actions"][1].update(seat=v), 1),
    ],
)
def test_deeply_nested_values_are_invalid_not_a_crash(place: object, index: int | None) -> None:
    rec = json.loads((RECORDS / "legal_2p_round.json").read_text())
    place(rec, _nested(100_000))  # type: ignore[operator]
    res = replay(rec)
    assert not res.valid and res.action_index == index
    assert res.error == "a value in the record is nested too deeply"
    with pytest.raises(InvalidRecordError):
        load_game(rec)


def test_setup_with_both_draw_pile_and_shuffle_seed_is_invalid() -> None:
    rec = json.loads((RECORDS / "legal_2p_round.json").read_text())
    assert rec["setup"]["draw_pile"] is not None
    rec["setup"]["shuffle_seed"] = 5
    res = replay(rec)
    assert not res.valid and res.action_index is None
    assert "both draw_pile and shuffle_seed" in (res.error or "")


def test_seats_null_is_invalid_but_missing_seats_default() -> None:
    rec = json.loads((RECORDS / "legal_2p_round.json").read_text())
    rec["seats"] = None
    res = replay(rec)
    assert not res.valid and res.error == "seats must be a list of names"
    del rec["seats"]
    res = replay(rec)
    assert res.valid and res.game is not None and res.game.seats == ["seat 1", "seat 2"]
