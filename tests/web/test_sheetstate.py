"""The score sheet's data (``web/sheetstate.js``, run by Node.js): a sheet read back from
``localStorage`` keeps every valid part and replaces anything malformed (an older or
hand-edited copy) by its default, the card limits, and the match standings (totals added
over the games, checked against the Python scorer; ties share a rank)."""

from __future__ import annotations

import json
from typing import Any

from nodeutil import WEB, run_node

from coloretto.engine.tally import cards_report

COLOURS = ["blue", "brown", "gray", "green", "orange", "pink", "yellow"]


def cards(colours: list[int], joker: int = 0, golden: int = 0, plus2: int = 0) -> dict[str, Any]:
    return {"colours": colours, "joker": joker, "golden_joker": golden, "plus2": plus2}


def empty() -> dict[str, Any]:
    return cards([0] * 7)


def python_total(c: dict[str, Any], table: str = "brown", extra: str | None = None) -> int:
    body = dict(zip(COLOURS, c["colours"], strict=True)) | {
        "joker": c["joker"], "golden_joker": c["golden_joker"], "plus2": c["plus2"]}
    if not any(body.values()):
        return 0  # a player without cards has 0 points on the sheet; the scorer refuses such a tally
    return int(cards_report(body, table, extra)["total"])


def load(node: str, stored: list[Any]) -> list[dict[str, Any]]:
    data = [s if s is None or isinstance(s, str) else json.dumps(s) for s in stored]
    out: list[dict[str, Any]] = run_node(node, "sheetstate_runner.mjs", str(WEB / "sheetstate.js"), data=data)
    return out


def test_nothing_or_garbage_gives_a_new_sheet(node: str) -> None:
    for result in load(node, [None, "not json", "[1, 2]", "42", {"players": "many"}]):
        sheet = result["sheet"]
        assert sheet["players"] == [] and sheet["table"] == "brown" and sheet["extra"] is None
        assert sheet["games"] == 1 and sheet["game"] == 0 and sheet["labels"] == [""] * 7
        assert result["standings"]["totals"] == [] and not result["standings"]["started"]
        assert result["saved"] == sheet


def test_valid_parts_are_kept_and_bad_ones_replaced(node: str) -> None:
    stored = {
        "table": "violet", "extra": "double", "games": 4, "game": 7,
        "labels": ["red", 5, "x" * 40],
        "players": [
            {"id": "p1", "name": "Ann", "cards": [cards([6, 4, 3, 2, 0, 0, 0], joker=1, plus2=1),
                                                  cards([10, -1, 2.5, "3", 1, 1, 1], joker=3, golden=1, plus2=11)]},
            {"id": "p1", "name": "Ann again"},      # a repeated id
            {"id": "p3", "name": 7},                # not a name
            {"id": "p4", "name": "Bob", "cards": "none"},
            {"id": "p5", "name": "C"}, {"id": "p6", "name": "D"}, {"id": "p7", "name": "E"},
            {"id": "p8", "name": "F"},             # a sixth player
        ],
        "nextId": 2,
    }
    [result] = load(node, [stored])
    sheet = result["sheet"]
    assert sheet["table"] == "violet" and sheet["extra"] is None
    assert sheet["games"] == 4 and sheet["game"] == 0
    assert sheet["labels"] == ["red", "", "x" * 24, "", "", "", ""]
    assert [p["name"] for p in sheet["players"]] == ["Ann", "Bob", "C", "D", "E"]
    ann = sheet["players"][0]["cards"]
    assert ann[0] == cards([6, 4, 3, 2, 0, 0, 0], joker=1, plus2=1)
    assert ann[1] == cards([0, 0, 0, 0, 1, 1, 1], joker=0, golden=1, plus2=0)  # joker=3 with golden: dropped
    assert ann[2] == ann[3] == empty() and sheet["players"][1]["cards"] == [empty()] * 4
    assert sheet["nextId"] == 8  # never reuses a player's id
    assert result["limits"] == {"colour": 9, "joker": 3, "golden_joker": 1, "plus2": 10}


def test_match_standings_add_the_games(node: str) -> None:
    ann = [cards([6, 4, 3, 2, 0, 0, 0], joker=1, plus2=1), cards([0, 0, 5, 0, 0, 0, 0], joker=2, golden=1), empty(), empty()]
    bob = [cards([0, 0, 0, 0, 9, 9, 1], plus2=3), cards([1, 1, 1, 1, 1, 1, 1]), empty(), empty()]
    cem = [cards([0, 0, 0, 0, 9, 9, 1], plus2=3), cards([1, 1, 1, 1, 1, 1, 1]), empty(), empty()]
    players = [{"id": f"p{i + 1}", "name": n, "cards": c} for i, (n, c) in enumerate([("Ann", ann), ("Bob", bob), ("Cem", cem)])]
    for table, extra in [("brown", None), ("violet", "triple_minus"), ("brown", "single_three")]:
        [result] = load(node, [{"table": table, "extra": extra, "games": 4, "game": 1, "players": players}])
        st = result["standings"]
        per_game = [[python_total(p["cards"][g], table, extra) for p in players] for g in range(4)]
        assert [g["totals"] for g in st["games"]] == per_game
        assert [g["started"] for g in st["games"]] == [True, True, False, False]
        totals = [sum(game[i] for game in per_game) for i in range(3)]
        assert st["totals"] == totals
        assert st["ranks"] == [1 + sum(u > t for u in totals) for t in totals]
        assert st["ranks"][1] == st["ranks"][2]  # Bob and Cem tie
        assert st["winners"] == [i for i, r in enumerate(st["ranks"]) if r == 1]
    # the limits follow the rest of the collection: jokers and golden joker together at most 3
    [result] = load(node, [{"players": [{"id": "p1", "name": "A", "cards": [cards([0] * 7, joker=2, golden=1)]}]}])
    assert result["limits"] == {"colour": 9, "joker": 2, "golden_joker": 1, "plus2": 10}
    [result] = load(node, [{"players": [{"id": "p1", "name": "A", "cards": [cards([0] * 7, joker=3)]}]}])
    assert result["limits"]["golden_joker"] == 0


def test_limits_count_what_the_other_players_hold(node: str) -> None:
    """The game has 9 cards of each colour, 10 "+2", 3 jokers with the golden one
    (docs/rules.md §1): a player may count only what the others leave; a count above that
    (a sheet filled in before) may still be lowered."""
    ann = cards([2, 0, 0, 3, 0, 0, 0], joker=1)
    bea = cards([0, 0, 0, 5, 9, 0, 0], joker=1, plus2=7)
    cid = cards([0, 0, 0, 2, 0, 0, 0], golden=1, plus2=2)
    sheet = {"players": [{"id": "p1", "name": "Ann", "cards": [ann]}, {"id": "p2", "name": "Bea", "cards": [bea]},
                         {"id": "p3", "name": "Cid", "cards": [cid]}], "nextId": 4}
    (out,) = load(node, [sheet])
    assert out["limits"] == {"colour": 9, "joker": 3, "golden_joker": 1, "plus2": 10}  # no others counted
    table = out["tableLimits"]
    assert table["colours"] == [9, 9, 9, 9 - 5 - 2, 0, 9, 9]
    assert table["joker"] == 3 - 1 - 1  # Bea's joker and Cid's golden joker
    assert table["golden_joker"] == 0  # Cid holds it
    assert table["plus2"] == 10 - 7 - 2
    n = None
    assert out["sets"] == [[True, False, True]] + [[True, False, n]] * 2 + [[n, False, True], [True, False, n]] + [[True, False, n]] * 2
    # a sheet whose counts add up to more than the game has: lowering is allowed
    crowded = {"players": [{"id": "p1", "name": "Ann", "cards": [cards([0, 0, 0, 6, 0, 0, 0])]},
                           {"id": "p2", "name": "Bea", "cards": [cards([0, 0, 0, 6, 0, 0, 0])]}], "nextId": 3}
    (out,) = load(node, [crowded])
    assert out["tableLimits"]["colours"][3] == 3
    assert out["sets"][3] == [None, False, True]  # 6 to 5 is allowed, 6 to 7 is not
